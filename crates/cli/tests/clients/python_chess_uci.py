"""python-chess (a standard UCI client) drives `caissa uci`: handshake and options,
a self-play game under a clock, analysis with MultiPV and mate scores, depth and
node limits, infinite analysis stopped, tiny clocks, Chess960.

Usage: python3 python_chess_uci.py <path to caissa>. Exits non-zero on any failure.
"""

import sys

import chess
import chess.engine

BIN = sys.argv[1]


def check(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


with chess.engine.SimpleEngine.popen_uci([BIN, "uci"], timeout=20) as engine:
    check(engine.id.get("name", "").startswith("Caissa"), f"id name: {engine.id}")
    for option in ["Hash", "MultiPV", "Skill Level", "UCI_LimitStrength", "UCI_Elo", "UCI_Chess960", "Move Overhead"]:
        check(option in engine.options, f"option {option} missing: {list(engine.options)}")
    engine.configure({"Hash": 32})

    # A self-play game on a clock: every move legal, the clock never overrun.
    board = chess.Board()
    clocks = {chess.WHITE: 3.0, chess.BLACK: 3.0}
    while not board.is_game_over() and board.ply() < 40:
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=0.05, black_inc=0.05)
        import time
        started = time.monotonic()
        result = engine.play(board, limit)
        used = time.monotonic() - started
        check(result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}")
        clocks[board.turn] += 0.05 - used
        check(clocks[board.turn] > 0, f"flag fell at ply {board.ply()} ({used:.3f} s used)")
        board.push(result.move)

    # Mate in two, found with its score; several lines on request.
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    check(info["score"].white() == chess.engine.Mate(1), f"Qxf7# not seen: {info}")
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1")
    infos = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
    check(len(infos) == 3, f"3 lines expected: {infos}")
    check(infos[0]["pv"][0] == chess.Move.from_uci("b1b8"), f"best line: {infos[0]}")
    check(infos[0]["score"].white() == chess.engine.Mate(1), f"mate score: {infos[0]}")
    for key in ["depth", "nodes", "pv", "score"]:
        check(key in infos[0], f"info lacks {key}: {infos[0]}")

    # Node limit, and infinite analysis stopped by the client.
    info = engine.analyse(chess.Board(), chess.engine.Limit(nodes=20000))
    check(info.get("nodes", 0) > 0, f"nodes: {info}")
    with engine.analysis(chess.Board()) as analysis:
        for i, _ in enumerate(analysis):
            if i >= 3:
                break
        analysis.stop()
        best = analysis.wait().move
    check(best in chess.Board().legal_moves, f"infinite analysis best move {best}")

    # Tiny clock: still a legal move, at once.
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    result = engine.play(board, chess.engine.Limit(white_clock=0.01, black_clock=0.01))
    check(result.move in board.legal_moves, f"tiny clock: {result.move}")

    # Chess960: castling written king-takes-rook.
    board = chess.Board.from_chess960_pos(518)
    board.chess960 = True
    # python-chess sets UCI_Chess960 itself for a Chess960 board.
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(time=0.05))
        check(result.move in board.legal_moves, f"960 move {result.move} in {board.fen()}")
        board.push(result.move)

print("python-chess drove caissa uci: ok")
