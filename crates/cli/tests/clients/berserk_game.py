"""Plays a whole game against a Caissa server with the berserk lichess client.

Usage: berserk_game.py BASE_URL WHITE_TOKEN BLACK_TOKEN BLACK_NAME
Exits non-zero (with a message) on any difference from what lichess would do.
"""
import sys

import berserk


def main():
    base_url, white_token, black_token, black_name = sys.argv[1:5]
    white = berserk.Client(berserk.TokenSession(white_token), base_url=base_url)
    black = berserk.Client(berserk.TokenSession(black_token), base_url=base_url)

    me = white.account.get()
    assert me["username"], me

    challenge = white.challenges.create(black_name, rated=False, clock_limit=300, clock_increment=3, color="white")
    game_id = challenge["id"]
    black.challenges.accept(game_id)

    stream = black.board.stream_game_state(game_id)
    full = next(stream)
    assert full["type"] == "gameFull", full
    assert full["state"]["moves"] == "", full

    moves = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
    for i, move in enumerate(moves):
        (white if i % 2 == 0 else black).board.make_move(game_id, move)

    final = None
    for state in stream:
        if state.get("type") == "gameState" and state.get("status") != "started":
            final = state
            break
    assert final is not None, "the game stream ended without a result"
    assert final["status"] == "mate", final
    assert final["winner"] == "white", final
    assert final["moves"] == " ".join(moves), final

    exported = white.games.export(game_id)
    assert exported["status"] == "mate", exported
    pgn = white.games.export(game_id, as_pgn=True)
    assert "Qxf7#" in pgn, pgn
    print("berserk played a whole game:", game_id)


if __name__ == "__main__":
    main()
