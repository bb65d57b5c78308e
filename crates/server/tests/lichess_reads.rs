//! lichess compatibility, continued: what clients and bots read besides the
//! Board API (accounts, users, crosstables, TV and its feeds, the games among
//! followed users), challenges from positions and by token, and exports'
//! clocks.

use std::time::Duration;

use serde_json::{json, Value};

use super::lichess_compat::{game, game_full, json_str, moves_of, BLITZ_AS_WHITE};
use super::*;

#[tokio::test]
async fn what_lichess_bots_look_up_besides_the_board_api() {
    let (server, client, anna, boris, id) = game("lookups", &BLITZ_AS_WHITE).await;
    let get = |path: String, token: &str| {
        let (client, token) = (client.clone(), token.to_string());
        let url = server.url(&path);
        async move {
            client
                .get(url)
                .bearer_auth(token)
                .header("accept", "application/json")
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()
        }
    };
    // The games being played, with whose turn it is and the time left.
    let playing = get("/api/account/playing".into(), &anna).await;
    let game = &playing["nowPlaying"][0];
    assert_eq!(
        (&game["gameId"], &game["color"], &game["isMyTurn"]),
        (&json_str(&id), &json_str("white"), &Value::Bool(true)),
        "{playing}"
    );
    assert_eq!(game["secondsLeft"], 300);
    // The challenges waiting, both ways.
    let (_, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("clock.limit", "60")],
    )
    .await;
    let waiting = get("/api/challenge".into(), &boris).await;
    assert_eq!(waiting["in"][0]["id"], challenge["id"], "{waiting}");
    assert_eq!(
        get("/api/challenge".into(), &anna).await["out"][0]["id"],
        challenge["id"]
    );
    // Who is online and playing.
    let anna_events = client
        .get(server.url("/api/stream/event"))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    let status = get("/api/users/status?ids=anna,boris,nobody".into(), &anna).await;
    assert_eq!(status.as_array().unwrap().len(), 2, "{status}");
    assert_eq!(
        (&status[0]["online"], &status[0]["playing"]),
        (&Value::Bool(true), &Value::Bool(true)),
        "{status}"
    );
    assert_eq!(status[1]["online"], false, "{status}");
    drop(anna_events);
    // A user's current game, and games by id.
    assert_eq!(
        get("/api/user/boris/current-game".into(), &anna).await["id"],
        *id
    );
    let pgns = client
        .post(server.url("/api/games/export/_ids"))
        .body(format!("{id},nosuchgame"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(pgns.matches("[Event ").count(), 1, "{pgns}");
    assert!(pgns.contains(&format!("[GameId \"{id}\"]")), "{pgns}");
    // The best game of each speed.
    let channels = get("/api/tv/channels".into(), &anna).await;
    assert_eq!(channels["blitz"]["gameId"], *id, "{channels}");
    server.task.abort();
}

#[tokio::test]
async fn challenges_from_a_position_or_chess960_play_it_and_bad_ones_say_why() {
    // From a position: the game starts there, and the PGN says so.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40";
    let (server, client, anna, boris, id) = game(
        "from-position",
        &[("clock.limit", "300"), ("color", "white"), ("fen", fen)],
    )
    .await;
    let full = game_full(&server, &client, &id, &anna).await;
    assert_eq!(full["initialFen"], fen, "{full}");
    assert_eq!(full["variant"]["key"], "fromPosition");
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/e2e4")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let pgn = client
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        pgn.contains(&format!("[FEN \"{fen}\"]")) && pgn.contains("40. e4"),
        "{pgn}"
    );
    // Chess960 without a position: one of the 960, the same for both players.
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("clock.limit", "300"), ("variant", "chess960")],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["variant"]["key"], "chess960");
    let start = challenge["initialFen"].as_str().unwrap().to_string();
    assert!(start.contains("/pppppppp/8/8/8/8/PPPPPPPP/"), "{start}");
    let chess960 = challenge["id"].as_str().unwrap();
    post(
        &client,
        server.url(&format!("/api/challenge/{chess960}/accept")),
        &boris,
        &[],
    )
    .await;
    let full = game_full(&server, &client, chess960, &boris).await;
    assert_eq!(
        (&full["variant"]["key"], &full["initialFen"]),
        (&json_str("chess960"), &json_str(&start))
    );
    // What cannot be played is refused, naming what is wrong.
    for (form, says) in [
        (vec![("variant", "atomic")], "atomic"),
        (vec![("variant", "fromPosition")], "needs a fen"),
        (vec![("fen", "not a fen")], "fen"),
        (vec![("fen", "k7/8/8/8/8/8/8/8 w - - 0 1")], "fen"),
        (
            vec![("fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")],
            "no legal move",
        ),
        (vec![("fen", fen), ("rated", "true")], "rated"),
    ] {
        let mut form = form;
        form.push(("clock.limit", "300"));
        let (status, body) = post(&client, server.url("/api/challenge/Boris"), &anna, &form).await;
        assert_eq!(status, 400, "{form:?}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{form:?}: {body}"
        );
    }
    let (status, body) = post(
        &client,
        server.url("/api/board/seek"),
        &anna,
        &[("time", "5"), ("variant", "chess960")],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    server.task.abort();
}

#[tokio::test]
async fn accept_by_token_starts_the_game_at_once_with_lichess_shapes() {
    let db = temp_db("accept-by-token");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let events = client
        .get(server.url("/api/stream/event"))
        .bearer_auth(&boris)
        .send()
        .await
        .unwrap();
    // Someone else's token, or none that Boris has, is refused by name.
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("clock.limit", "300"), ("acceptByToken", anna.as_str())],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Boris"), "{body}");
    let (status, body) = post(
        &client,
        server.url("/api/challenge/open"),
        &anna,
        &[("clock.limit", "300"), ("acceptByToken", boris.as_str())],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    // With Boris's own token, the game starts before the answer.
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "300"),
            ("clock.increment", "2"),
            ("color", "white"),
            ("acceptByToken", boris.as_str()),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["status"], "accepted", "{challenge}");
    // lichess's challenge shape: no rematchOf when there is none, a perf icon.
    assert!(challenge.get("rematchOf").is_none(), "{challenge}");
    assert!(challenge["perf"]["icon"].is_string(), "{challenge}");
    let id = challenge["id"].as_str().unwrap();
    let started = read_lines(events, |v| v["type"] == "gameStart").await;
    let game = &started.last().unwrap()["game"];
    assert_eq!(game["gameId"], id);
    // gameStart as lichess sends it: the status's id, no winner while playing.
    assert_eq!(game["status"]["id"], 20, "{game}");
    assert_eq!(game["status"]["name"], "started", "{game}");
    assert!(game.get("winner").is_none(), "{game}");
    let full = game_full(&server, &client, id, &anna).await;
    assert_eq!(full["white"]["name"], "Anna");
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/e2e4")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // Exports give the clock in seconds with its estimated total, and when
    // the last move was made.
    let exported = moves_of(&server, &client, id).await;
    assert_eq!(exported["clock"]["initial"], 300, "{exported}");
    assert_eq!(exported["clock"]["increment"], 2, "{exported}");
    assert_eq!(exported["clock"]["totalTime"], 380, "{exported}");
    assert!(exported["lastMoveAt"].as_u64().unwrap() >= exported["createdAt"].as_u64().unwrap());
    server.task.abort();
}

#[tokio::test]
async fn the_tv_feed_features_the_game_being_played_and_follows_its_moves() {
    let (server, client, anna, boris, id) = game(
        "tv-feed",
        &[
            ("clock.limit", "300"),
            ("clock.increment", "2"),
            ("color", "white"),
        ],
    )
    .await;
    let unknown = client
        .get(server.url("/api/tv/hyperBullet/feed"))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404, "no such channel");
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/e2e4")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let feed = client.get(server.url("/api/tv/feed")).send().await.unwrap();
    assert_eq!(feed.status(), 200);
    // Boris answers a moment later: the feed has featured the game by then.
    let mover = {
        let (client, url) = (
            client.clone(),
            server.url(&format!("/api/board/game/{id}/move/e7e5")),
        );
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            post(&client, url, &boris, &[]).await
        })
    };
    let lines = read_lines(feed, |v| v["t"] == "fen").await;
    assert_eq!(mover.await.unwrap().0, 200);
    let featured = &lines[0];
    assert_eq!(featured["t"], "featured", "{lines:?}");
    assert_eq!(featured["d"]["id"], id.as_str());
    assert_eq!(featured["d"]["players"][0]["user"]["name"], "Anna");
    assert_eq!(featured["d"]["players"][1]["color"], "black");
    assert_eq!(
        featured["d"]["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"
    );
    let fen = lines.last().unwrap();
    assert_eq!(fen["d"]["lm"], "e7e5", "{fen}");
    assert_eq!(
        fen["d"]["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"
    );
    assert!(fen["d"]["wc"].as_u64().unwrap() <= 302, "{fen}");
    server.task.abort();
}

#[tokio::test]
async fn exports_give_each_moves_clock_and_accounts_count_the_time_played() {
    let form = [
        ("clock.limit", "300"),
        ("clock.increment", "2"),
        ("color", "white"),
    ];
    let (server, client, anna, boris, id) = game("clocks-export", &form).await;
    for (token, uci) in [(&anna, "e2e4"), (&boris, "e7e5"), (&anna, "g1f3")] {
        tokio::time::sleep(Duration::from_millis(400)).await;
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{uci}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{uci}: {body}");
    }
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let exported = moves_of(&server, &client, &id).await;
    // lichess's `clocks`: the mover's time left after each move, centiseconds,
    // the same as the PGN's [%clk] (which shows whole seconds).
    let clocks: Vec<u64> = exported["clocks"]
        .as_array()
        .unwrap_or_else(|| panic!("no clocks in {exported}"))
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(clocks.len(), 3, "{exported}");
    for &c in &clocks {
        assert!(c <= 302 * 100 && c > 290 * 100, "{clocks:?}");
    }
    // As on lichess, each side's first move leaves its clock untouched; then
    // White thought for about 0.4 s and got 2 s back.
    assert_eq!(clocks[..2], [300 * 100, 300 * 100], "{clocks:?}");
    assert!(clocks[2] > 301 * 100, "{clocks:?}");
    let pgn = exported["pgn"].as_str().unwrap_or_default().to_string();
    let pgn = if pgn.is_empty() {
        client
            .get(server.url(&format!("/game/export/{id}")))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    } else {
        pgn
    };
    let clk: Vec<u64> = pgn
        .match_indices("[%clk ")
        .map(|(at, _)| {
            let shown = caissa_pgn::clock::clk(&pgn[at..at + 20]).unwrap();
            shown.as_millis() as u64 / 10
        })
        .collect();
    assert_eq!(clk.len(), 3, "{pgn}");
    for (centis, shown) in clocks.iter().zip(&clk) {
        assert_eq!(centis / 100, shown / 100, "{clocks:?} against {pgn}");
    }
    // The game took more than a second: both players' play time counts it
    // (recorded just after the game ends).
    for token in [&anna, &boris] {
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        loop {
            let account: Value = client
                .get(server.url("/api/account"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            assert_eq!(account["playTime"]["tv"], 0, "{account}");
            // Whole numbers, as lichess sends them.
            assert!(account["perfs"]["blitz"]["rating"].is_u64(), "{account}");
            if account["playTime"]["total"].as_u64().unwrap() >= 1 {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "{account}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    server.task.abort();
}

#[tokio::test]
async fn games_among_followed_users_stream_as_they_start_and_end() {
    let db = temp_db("games-by-users");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let clara = user_with_token(&db, "Clara").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let follow = |names: &'static str, query: &'static str| {
        client
            .post(server.url(&format!("/api/stream/games-by-users{query}")))
            .body(names)
            .send()
    };
    // A game already going on between Anna and Boris.
    let first = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    let current = follow("anna, BORIS", "?withCurrentGames=true")
        .await
        .unwrap();
    assert_eq!(current.status(), 200);
    let lines = read_lines(current, |_| true).await;
    assert_eq!(lines[0]["id"], first.as_str(), "{lines:?}");
    assert_eq!(lines[0]["statusName"], "started");
    let stream = follow("anna,boris", "").await.unwrap();
    // A game with someone not followed is not told; a new one among them is,
    // when it starts and when it ends.
    let _elsewhere = challenge_and_accept(&server, &client, &clara, &anna, "Anna").await;
    let second = challenge_and_accept(&server, &client, &boris, &anna, "Anna").await;
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{second}/resign")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let lines = read_lines(stream, |l| l["statusName"] == "resign").await;
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        assert_eq!(line["id"], second.as_str(), "{line}");
        assert_eq!(line["players"]["white"]["userId"], "boris", "{line}");
        assert_eq!(line["players"]["black"]["userId"], "anna", "{line}");
        assert_eq!(line["clock"], json!({ "initial": 300, "increment": 2 }));
        assert_eq!(line["speed"], "blitz");
    }
    assert_eq!(lines[0]["status"], 20, "started: {:?}", lines[0]);
    assert_eq!(lines[1]["status"], 31, "resigned: {:?}", lines[1]);
    assert_eq!(lines[1]["winner"], "white");
    // Fewer than two users: nothing to follow; more than 300: refused.
    let alone = follow("anna", "").await.unwrap();
    assert_eq!(alone.text().await.unwrap(), "");
    let crowd: String = (0..301).map(|i| format!("u{i},")).collect();
    let refused = client
        .post(server.url("/api/stream/games-by-users"))
        .body(crowd)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);

    // TV's channels list their best games: PGN, or NDJSON when asked.
    let blitz = client
        .get(server.url("/api/tv/blitz?nb=5&moves=true&pgnInJson=true"))
        .header("accept", "application/x-ndjson")
        .send()
        .await
        .unwrap();
    assert_eq!(blitz.status(), 200);
    let listed: Vec<String> = blitz
        .text()
        .await
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(listed.len(), 2, "the two games still played: {listed:?}");
    assert!(listed.contains(&first), "{listed:?}");
    let pgn = client
        .get(server.url("/api/tv/best?nb=1"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 1, "{pgn}");
    for (path, status) in [("/api/tv/rocket", 404), ("/api/tv/blitz?nb=31", 400)] {
        let answer = client.get(server.url(path)).send().await.unwrap();
        assert_eq!(answer.status(), status, "{path}");
    }
    server.task.abort();
}

#[tokio::test]
async fn exports_name_the_opening_by_the_position_reached_not_the_move_order() {
    let (server, client, anna, boris, id) = game("opening-export", &BLITZ_AS_WHITE).await;
    // The Ruy Lopez by another road: 1. Nf3 Nc6 2. e4 e5 3. Bb5.
    for (token, uci) in [
        (&anna, "g1f3"),
        (&boris, "b8c6"),
        (&anna, "e2e4"),
        (&boris, "e7e5"),
        (&anna, "f1b5"),
    ] {
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{uci}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{uci}: {body}");
    }
    let exported = moves_of(&server, &client, &id).await;
    assert_eq!(
        exported["opening"],
        json!({"eco": "C60", "name": "Ruy Lopez", "ply": 5}),
        "{exported}"
    );
    let pgn = client
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[ECO \"C60\"]"), "{pgn}");
    assert!(pgn.contains("[Opening \"Ruy Lopez\"]"), "{pgn}");
    // The table the boards use names the same position.
    let table: Value = client
        .get(server.url("/api/openings"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let positions = table["positions"].as_object().unwrap();
    assert!(positions.len() > 3000, "{} positions", positions.len());
    let key = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq -";
    assert_eq!(positions[key], json!(["C60", "Ruy Lopez"]));
    server.task.abort();
}
