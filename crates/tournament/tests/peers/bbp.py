"""Running the bbpPairings peer for dutch_peer.py: generating tournaments,
checking them (-c) and asking for the next round's pairing (-p).
"""

import os
import subprocess


class NoPairing(Exception):
    pass


class Bbp:
    def __init__(self, exe, tmp):
        self.exe = exe
        self.tmp = tmp
        self.calls = 0

    def run(self, args, cwd=None):
        self.calls += 1
        p = subprocess.run([self.exe] + args, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=cwd)
        return p.returncode, p.stdout, p.stderr

    def generate(self, cfg_text=None, model_text=None, seed=0):
        out = os.path.join(self.tmp, "gen.trf")
        if os.path.exists(out):
            os.remove(out)
        if model_text is not None:
            model = os.path.join(self.tmp, "model.trf")
            with open(model, "w", newline="") as f:
                f.write(model_text)
            args = ["--dutch", model, "-g", "-o", out, "-s", str(seed)]
        else:
            cfg = os.path.join(self.tmp, "gen.cfg")
            with open(cfg, "w") as f:
                f.write(cfg_text)
            args = ["--dutch", "-g", cfg, "-o", out, "-s", str(seed)]
        rc, so, se = self.run(args)
        if rc != 0:
            return rc, se.strip()
        with open(out, "rb") as f:
            return 0, f.read().decode("ascii")

    def check(self, path):
        """bbp -c on a file; returns (rc, stdout, stderr)."""
        d, b = os.path.split(os.path.abspath(path))
        return self.run(["--dutch", b, "-c"], cwd=d)

    def pair(self, trf_text):
        inp = os.path.join(self.tmp, "in.trf")
        out = os.path.join(self.tmp, "out.txt")
        if os.path.exists(out):
            os.remove(out)
        with open(inp, "w", newline="") as f:
            f.write(trf_text)
        rc, so, se = self.run(["--dutch", inp, "-p", out])
        if rc == 1:
            raise NoPairing(se.strip())
        if rc != 0:
            raise RuntimeError("bbp -p failed rc=%d: %s" % (rc, se.strip()))
        with open(out) as f:
            return f.read()


def parse_p_output(text):
    lines = text.split("\n")
    n = int(lines[0])
    pairs = set()
    for ln in lines[1:1 + n]:
        w, b = ln.split()
        pairs.add((int(w), int(b)))
    assert len(pairs) == n, text
    return pairs
