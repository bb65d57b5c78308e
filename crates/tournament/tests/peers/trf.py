"""TRF-16 helpers for dutch_peer.py: reading a tournament report file's player
lines and round cells, and the points each result scores.

Column positions are 0-based slices here; README.md uses 1-based ones.
"""

ROUND0 = 91       # 0-based index of the opponent field of round 1 (column 92)
ENTRY = 8         # "oooo c r"
BLANK = " " * ENTRY


def split_lines(text):
    """Split like bbp does: on CR and on LF; drop lines shorter than 3."""
    out = []
    for chunk in text.split("\r"):
        for line in chunk.split("\n"):
            out.append(line)
    return out


def entries_of(line):
    """Round entries of a 001 line (8-char strings, may be blank)."""
    res = []
    i = ROUND0
    while i < len(line):
        res.append(line[i:i + ENTRY].ljust(ENTRY))
        i += 10
    # drop trailing blanks (bbp treats them as "no entry")
    while res and not res[-1].strip():
        res.pop()
    return res


def classify(e):
    """Return ('game', opp, colour, result) | ('pab',) | ('absent', code)."""
    opp, col, res = e[0:4], e[5], e[7].upper()
    if not e.strip():
        return ("absent", " ")
    if opp.strip() and opp != "0000":
        return ("game", int(opp), col, res)
    if res in ("U", "+"):
        return ("pab",)
    return ("absent", res)


def entry_points(e, pts):
    """Points of one entry (pts: dict with W D L Z F P keys, tenths)."""
    k = classify(e)
    res = e[7].upper()
    if k[0] == "pab":
        return pts["P"]
    if k[0] == "absent":
        if res in ("F",):
            return pts["W"]
        if res in ("H", "="):
            return pts["D"]
        return pts["Z"]
    if res in ("1", "W", "+"):
        return pts["W"]
    if res in ("=", "D"):
        return pts["D"]
    if res == "-":
        return pts["Z"]      # forfeit loss points (== ZPB points in bbp)
    return pts["L"]


def fmt_points(tenths):
    return "%d.%d" % (tenths // 10, tenths % 10)


def point_system(lines):
    pts = {"W": 10, "D": 5, "L": 0, "Z": 0, "P": None}
    for ln in lines:
        if ln.startswith("162"):
            i = 5
            while i + 5 <= len(ln):
                c = ln[i]
                v = ln[i + 1:i + 5].strip()
                if c.strip():
                    t = int(round(float(v) * 10))
                    key = {"W": "W", "D": "D", "L": "L", "Z": "Z", "A": "Z",
                           "P": "P"}[c]
                    pts[key] = t
                i += 9
    if pts["P"] is None:
        pts["P"] = pts["W"]
    return pts


class Trf:
    def __init__(self, text):
        self.text = text
        self.lines = [ln for ln in split_lines(text)]
        self.players = {}      # id -> (line, entries)
        self.order = []
        for ln in self.lines:
            if ln.startswith("001"):
                pid = int(ln[4:8])
                self.players[pid] = (ln, entries_of(ln))
                self.order.append(pid)
        self.header = [ln for ln in self.lines
                       if len(ln) >= 3 and not ln.startswith("001")]
        self.rounds = max((len(e) for _, e in self.players.values()),
                          default=0)
        self.pts = point_system(self.header)

    def entry(self, pid, r):
        ents = self.players[pid][1]
        return ents[r - 1] if r <= len(ents) else BLANK

    def has(self, prefixes):
        return any(ln[:3] in prefixes for ln in self.header)

    def total_rounds(self):
        for ln in self.header:
            if ln[:3] in ("XXR", "142"):
                return int(ln[3:].split()[0])
        return self.rounds

    def declared_colour(self):
        for ln in self.header:
            if ln.startswith("XXC"):
                toks = ln[3:].split()
                if "white1" in toks:
                    return "white1"
                if "black1" in toks:
                    return "black1"
            if ln.startswith("152") and len(ln) == 5:
                return "white1" if ln[4] == "W" else "black1"
        return None

    def inferred_colour(self):
        """bbp's inferFirstColor() (trf.cpp) re-implemented."""
        minr = None
        for pid in self.order:
            for r, e in enumerate(self.players[pid][1], 1):
                k = classify(e)
                if k[0] == "game" and k[2] in "wb":
                    minr = r if minr is None else min(minr, r)
        if minr is None:
            return None
        result = None
        idx = 0
        for pid in sorted(self.players):
            ents = self.players[pid][1]
            took = any(classify(e)[0] in ("game", "pab")
                       for e in ents[:minr])
            if took:
                if result is None:
                    k = classify(self.entry(pid, minr))
                    if k[0] == "game":
                        c = k[2]
                        if idx & 1:
                            c = "b" if c == "w" else "w"
                        result = c
                idx += 1
        return {"w": "white1", "b": "black1", None: None}[result]

    def initial_colour(self):
        return self.declared_colour() or self.inferred_colour()

    def pairing_of_round(self, r):
        """Set of (white, black) with black 0 for the PAB, from the file."""
        pairs = set()
        for pid in self.order:
            k = classify(self.entry(pid, r))
            if k[0] == "pab":
                pairs.add((pid, 0))
            elif k[0] == "game" and k[2] == "w":
                pairs.add((pid, k[1]))
        return pairs

    def truncated(self, r, colour, forward=None):
        """Input for pairing round r (see README "Truncation").

        forward (driven family only): {player: entry} for the players who are
        not to be paired in round r, overriding column r of the file."""
        out = []
        for ln in self.lines:
            if len(ln) < 3:
                continue
            if not ln.startswith("001"):
                out.append(ln)
                continue
            pid = int(ln[4:8])
            ents = [self.entry(pid, k) for k in range(1, r)]
            if forward is None:
                fwd = self.entry(pid, r)
            elif pid in forward:
                fwd = forward[pid] or BLANK
            else:
                fwd = "1234 w 1"         # i.e. "to be paired"
            kind = classify(fwd)
            if kind[0] == "absent":
                ents.append("0000 - Z" if kind[1] == " " else fwd)
            score = sum(entry_points(e, self.pts) for e in ents[:r - 1]
                        if e.strip())
            new = ln[:80].ljust(80) + "%4s" % fmt_points(score) + ln[84:89]
            new = new.ljust(89)
            for e in ents:
                new += "  " + e
            out.append(new)
        if not self.has(("XXR", "142")):
            out.append("XXR %d" % self.total_rounds())
        if not self.declared_colour():
            out.append("XXC %s" % colour)
        return "\n".join(out) + "\n"
