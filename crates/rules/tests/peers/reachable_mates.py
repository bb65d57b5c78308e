"""An independent judge of dead positions, with python-chess.

Reads lines `FEN CAP` on stdin. For each colour, walks every position reachable
from FEN by legal moves (both sides cooperating), positions told apart as the
repetition rule does, and never following a line where python-chess says that
colour has insufficient material (material never comes back without pawns). It
writes one line per position:

  WHITE BLACK PAWN_MOVES

where WHITE and BLACK are "mate" (a checkmate by that colour was reached), "none" (every
reachable position was visited and none is such a mate) or "cap" (more than CAP
positions: no verdict), and PAWN_MOVES is 1 when some visited position had a
legal pawn move or pawn capture, else 0.
"""

import sys

import chess


def walk(fen, color, cap):
    board = chess.Board(fen)
    if board.has_insufficient_material(color):
        return "none", False
    seen = {board._transposition_key()}
    stack = [board]
    pawn_moves = False
    while stack:
        node = stack.pop()
        moves = list(node.legal_moves)
        if not moves:
            if node.is_check() and node.turn != color:
                return "mate", pawn_moves
            continue
        for move in moves:
            if node.piece_type_at(move.from_square) == chess.PAWN or node.is_capture(move) and (
                node.piece_type_at(move.to_square) == chess.PAWN or node.is_en_passant(move)
            ):
                pawn_moves = True
            child = node.copy(stack=False)
            child.push(move)
            if child.has_insufficient_material(color):
                continue
            key = child._transposition_key()
            if key in seen:
                continue
            seen.add(key)
            if len(seen) > cap:
                return "cap", pawn_moves
            stack.append(child)
    return "none", pawn_moves


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        fen, cap = line.rsplit(" ", 1)
        white, white_pawns = walk(fen, chess.WHITE, int(cap))
        black, black_pawns = walk(fen, chess.BLACK, int(cap))
        print(white, black, int(white_pawns or black_pawns), flush=True)


if __name__ == "__main__":
    main()
