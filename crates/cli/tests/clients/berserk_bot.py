"""A bot and a person with the berserk lichess client against a Caissa server:
the account upgraded to a bot, the reads clients make (account, email,
preferences, kid mode, users by id, crosstable, online bots), a game the bot
plays through the Bot API (event stream, accepting, game stream, moves, chat in
both rooms), a game it resigns and one it aborts.

Usage: berserk_bot.py BASE_URL PERSON_TOKEN PERSON_NAME BOT_TOKEN BOT_NAME
Exits non-zero (with a message) on any difference from what lichess would do.
"""
import datetime
import sys

import berserk


def next_of(stream, kind):
    for event in stream:
        if event.get("type") == kind:
            return event
    raise AssertionError(f"the stream ended before a {kind}")


def finished(stream):
    for line in stream:
        state = line["state"] if line.get("type") == "gameFull" else line
        if line.get("type") in ("gameFull", "gameState") and state.get("status") != "started":
            return state
    raise AssertionError("the game stream ended without a result")


def main():
    base_url, person_token, person_name, bot_token, bot_name = sys.argv[1:6]
    person = berserk.Client(berserk.TokenSession(person_token), base_url=base_url)
    bot = berserk.Client(berserk.TokenSession(bot_token), base_url=base_url)

    # The reads a client makes first.
    bot.account.upgrade_to_bot()
    account = bot.account.get()
    assert account["title"] == "BOT", account
    assert account["url"].endswith(f"/@/{bot_name}"), account
    assert isinstance(account["seenAt"], datetime.datetime), account
    assert account["perfs"]["blitz"]["games"] == 0, account
    assert bot.account.get_email() is None
    prefs = bot.account.get_preferences()
    assert isinstance(prefs["prefs"], dict) and prefs["language"], prefs
    assert bot.account.get_kid_mode() is False

    # A person challenges the bot; the bot, on its event stream, accepts.
    challenge = person.challenges.create(bot_name, rated=False, clock_limit=300, clock_increment=3, color="white")
    game_id = challenge["id"]
    assert challenge["destUser"]["title"] == "BOT", challenge
    assert isinstance(challenge["challenger"]["rating"], int), challenge
    events = bot.bots.stream_incoming_events()
    seen = next_of(events, "challenge")
    assert seen["challenge"]["id"] == game_id, seen
    assert seen["compat"] == {"bot": True, "board": True}, seen
    online = list(person.bots.get_online_bots(limit=10))
    assert [u["username"] for u in online] == [bot_name], online
    bot.bots.accept_challenge(game_id)
    started = next_of(events, "gameStart")
    assert started["game"]["gameId"] == game_id, started
    assert started["game"]["status"]["id"] == 20, started
    assert "winner" not in started["game"], started

    bot_stream = bot.bots.stream_game_state(game_id)
    full = next(bot_stream)
    assert full["type"] == "gameFull", full
    assert full["black"]["title"] == "BOT", full
    bot.bots.post_message(game_id, "good luck")
    bot.bots.post_message(game_id, "welcome, spectators", spectator=True)
    moves = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
    for i, move in enumerate(moves):
        if i % 2 == 0:
            person.board.make_move(game_id, move)
        else:
            bot.bots.make_move(game_id, move)
        if i == 3:
            # TV's blitz channel lists the game being played (5+3 is blitz).
            ongoing = person.tv.get_best_ongoing("blitz", count=5)
            assert [g["id"] for g in ongoing] == [game_id], ongoing
            pgn = person.tv.get_best_ongoing("best", as_pgn=True)
            assert f"/{game_id}" in pgn and "2. Bc4" in pgn and "Nc6" in pgn, pgn
            # TV's feeds feature it first.
            for feed in [person.tv.stream_current_game(), person.tv.stream_current_game_of_channel("blitz")]:
                featured = next(feed)
                assert featured["t"] == "featured" and featured["d"]["id"] == game_id, featured
                feed.close()
    final = finished(bot_stream)
    assert final["status"] == "mate" and final["winner"] == "white", final
    chat = person.board.get_game_chat(game_id)
    assert any(line["text"] == "good luck" for line in chat), chat
    finish = next_of(events, "gameFinish")
    assert finish["game"]["winner"] == "white", finish

    # What clients read about the two of them.
    users = person.users.get_by_id(person_name, bot_name)
    assert sorted(u["username"] for u in users) == sorted([person_name, bot_name]), users
    assert [u.get("title") for u in users if u["username"] == bot_name] == ["BOT"], users
    table = person.users.get_crosstable(person_name, bot_name)
    assert table["nbGames"] == 1, table
    assert table["users"][person_name.lower()] == 1, table
    assert table["users"][bot_name.lower()] == 0, table

    # The bot challenges the person, then resigns; then aborts another game.
    for end in ["resign", "abort"]:
        made = bot.challenges.create(person_name, rated=False, clock_limit=300, clock_increment=0, color="white")
        person.challenges.accept(made["id"])
        if end == "resign":
            bot.bots.make_move(made["id"], "d2d4")
            bot.bots.resign_game(made["id"])
            expected = "resign"
        else:
            bot.bots.abort_game(made["id"])
            expected = "aborted"
        state = finished(person.board.stream_game_state(made["id"]))
        assert state["status"] == expected, state
    print("ok")


if __name__ == "__main__":
    main()
