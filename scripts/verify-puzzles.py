#!/usr/bin/env python3
"""Checks puzzles in the lichess puzzle CSV with an engine that is not ours.

Each puzzle is replayed with python-chess from its FEN: the first move is the
opponent's, then the solver's moves alternate with the replies. At every
solver move, Stockfish (or any UCI engine) searches the position with two
principal variations at a fixed node budget, and the move must be:

* in a mate puzzle: a move that keeps the mate: Stockfish sees a mate in
  exactly the moves left (so a puzzle tagged mateInN is a mate in N, not
  shorter), after the move a mate in one move fewer is still there (or it
  mates), and before the last move no other move mates as fast;
* otherwise: Stockfish's best move, worth at least --win centipawns for the
  solver, the second best at least --margin centipawns worse.

The themes that can be decided from the moves alone are checked too: mate
puzzles end in checkmate, mateInN has N solver moves, the length tags,
promotion, underPromotion, enPassant, castling, doubleCheck, backRankMate,
smotheredMate and the endgame types.

Exit status 0 when every checked puzzle passes, 1 otherwise. With --passing
OUT, the puzzles that pass are also written to OUT (same CSV).

Each puzzle starts with a new game for the engine (an empty hash table), so a
puzzle's verdict at a given node budget does not depend on which puzzles were
checked before it: a sample checks exactly what the whole set was checked for.
"""

import argparse
import csv
import multiprocessing
import random
import sys
import time

import chess
import chess.engine

HEADER = ["PuzzleId", "FEN", "Moves", "Rating", "RatingDeviation", "Popularity",
          "NbPlays", "Themes", "GameUrl", "OpeningTags"]


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if rows and rows[0] and rows[0][0] == "PuzzleId":
        rows = rows[1:]
    return [r for r in rows if r]


def theme_errors(board0, moves, themes):
    """What the themes claim that the moves do not show."""
    errors = []
    board = board0.copy()
    board.push(moves[0])
    solver_moves = moves[1::2]
    flags = set()
    start = board.copy()
    for i, mv in enumerate(moves[1:]):
        solver = i % 2 == 0
        if solver:
            if mv.promotion:
                flags.add("promotion")
                if mv.promotion != chess.QUEEN:
                    flags.add("underPromotion")
            if board.is_en_passant(mv):
                flags.add("enPassant")
            if board.is_castling(mv):
                flags.add("castling")
        board.push(mv)
        if solver and len(board.checkers()) >= 2:
            flags.add("doubleCheck")
    mate = board.is_checkmate()
    n = len(solver_moves)
    for key in ("promotion", "underPromotion", "enPassant", "castling", "doubleCheck"):
        if (key in themes) != (key in flags):
            errors.append(f"theme {key}: {'tagged but not played' if key in themes else 'played but not tagged'}")
    if ("mate" in themes) != mate:
        errors.append("theme mate: " + ("tagged but the line does not mate" if "mate" in themes else "the line mates"))
    for k in range(1, 6):
        if f"mateIn{k}" in themes and (not mate or n != k):
            errors.append(f"theme mateIn{k}: the line has {n} solver moves" + ("" if mate else " and does not mate"))
    length = {1: "oneMove", 2: "short", 3: "long"}.get(n, "veryLong")
    for key in ("oneMove", "short", "long", "veryLong"):
        if (key in themes) != (key == length):
            errors.append(f"theme {key}: the line has {n} solver moves")
    if "backRankMate" in themes:
        king = board.king(board.turn)
        back = 0 if board.turn == chess.WHITE else 7
        ok = mate and chess.square_rank(king) == back and all(
            chess.square_rank(c) == back and board.piece_type_at(c) in (chess.ROOK, chess.QUEEN)
            for c in board.checkers())
        if not ok:
            errors.append("theme backRankMate: not a mate along the king's first rank")
    if "smotheredMate" in themes:
        ok = mate and all(board.piece_type_at(c) == chess.KNIGHT for c in board.checkers())
        if not ok:
            errors.append("theme smotheredMate: not a knight's mate")
    kinds = {chess.piece_name(p.piece_type) for p in start.piece_map().values()} - {"king", "pawn"}
    endgames = {"pawnEndgame": set(), "rookEndgame": {"rook"}, "bishopEndgame": {"bishop"},
                "knightEndgame": {"knight"}, "queenEndgame": {"queen"},
                "queenRookEndgame": {"queen", "rook"}}
    for key, pieces in endgames.items():
        if key in themes and kinds != pieces:
            errors.append(f"theme {key}: the pieces are {sorted(kinds) or 'kings and pawns'}")
    return errors


def mate_of(score):
    """Moves to mate for the side to move, or None."""
    m = score.mate()
    return m if m is not None and m > 0 else None


def check(row, engine, nodes, win, margin):
    pid, fen, moves_text, themes_text = row[0], row[1], row[2], row[7]
    themes = set(themes_text.split())
    board = chess.Board(fen)
    try:
        moves = [chess.Move.from_uci(u) for u in moves_text.split()]
        probe = board.copy()
        for mv in moves:
            if mv not in probe.legal_moves:
                return [f"move {mv.uci()} is not legal in {probe.fen()}"]
            probe.push(mv)
    except ValueError as e:
        return [str(e)]
    if len(moves) < 2 or len(moves) % 2:
        return ["the line is not the opponent's move then the solver's"]
    errors = theme_errors(board, moves, themes)
    board.push(moves[0])
    n = len(moves) // 2
    is_mate = "mate" in themes
    for step in range(n):
        mv = moves[1 + 2 * step]
        left = n - step
        infos = engine.analyse(board, chess.engine.Limit(nodes=nodes), multipv=2, game=pid)
        best = infos[0]["score"].relative
        best_move = infos[0]["pv"][0]
        second = infos[1]["score"].relative if len(infos) > 1 else None
        where = f"solver move {step + 1} ({mv.uci()})"
        if is_mate:
            if mate_of(best) != left:
                errors.append(f"{where}: Stockfish sees {best}, not a mate in {left}")
                break
            after = board.copy()
            after.push(mv)
            if left == 1:
                if not after.is_checkmate():
                    errors.append(f"{where}: does not mate")
            else:
                reply = engine.analyse(after, chess.engine.Limit(nodes=nodes), game=pid)["score"].relative
                if reply.mate() is None or reply.mate() >= 0 or -reply.mate() != left - 1:
                    errors.append(f"{where}: after it Stockfish sees {reply}, not a mate in {left - 1}")
                if second is not None and mate_of(second) is not None and mate_of(second) <= left:
                    errors.append(f"{where}: the second best mates as fast ({second})")
        else:
            if mv != best_move:
                errors.append(f"{where}: Stockfish prefers {best_move.uci()} ({best})")
                break
            best_cp = best.score(mate_score=100000)
            if best_cp < win:
                errors.append(f"{where}: worth {best_cp} cp, less than {win}")
            if second is not None:
                second_cp = second.score(mate_score=100000)
                if mate_of(second) is not None or best_cp - second_cp < margin:
                    errors.append(f"{where}: the second best ({second}) is within {margin} cp of {best}")
        board.push(mv)
        if step + 1 < n:
            board.push(moves[2 + 2 * step])
    return errors


def worker(job):
    rows, engine_path, nodes, win, margin = job
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    engine.configure({"Threads": 1, "Hash": 64})
    out = []
    try:
        for row in rows:
            out.append((row, check(row, engine, nodes, win, margin)))
    finally:
        engine.quit()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--nodes", type=int, default=300_000, help="nodes per search (default 300,000)")
    ap.add_argument("--win", type=int, default=150, help="the least a material puzzle's move is worth (cp)")
    ap.add_argument("--margin", type=int, default=150, help="how much worse the second best must be (cp)")
    ap.add_argument("--sample", type=int, help="check only this many puzzles, chosen at random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    ap.add_argument("--passing", help="write the puzzles that pass here")
    args = ap.parse_args()
    rows = read(args.csv)
    if args.sample and args.sample < len(rows):
        rows = random.Random(args.seed).sample(rows, args.sample)
    start = time.time()
    chunks = [rows[i::args.jobs] for i in range(args.jobs)]
    jobs = [(c, args.engine, args.nodes, args.win, args.margin) for c in chunks if c]
    with multiprocessing.Pool(len(jobs)) as pool:
        results = [r for part in pool.map(worker, jobs) for r in part]
    failed = [(row, errs) for row, errs in results if errs]
    for row, errs in failed:
        for e in errs:
            print(f"{row[0]}: {e}")
    counts = {}
    for row, _ in results:
        for t in row[7].split():
            counts[t] = counts.get(t, 0) + 1
    print(f"{len(results) - len(failed)} of {len(results)} puzzles pass "
          f"(Stockfish {args.nodes} nodes a move, win {args.win} cp, margin {args.margin} cp) "
          f"in {time.time() - start:.0f} s")
    print("themes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])))
    if args.passing:
        passing = {row[0] for row, errs in results if not errs}
        with open(args.passing, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(HEADER)
            for row in read(args.csv):
                if row[0] in passing:
                    w.writerow(row)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
