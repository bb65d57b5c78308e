//! Whole games over the Board API: to checkmate, through a crash, to a fallen flag
//! the server calls itself, from the lobby's seeks, against the computer with
//! spectators watching, and a claim of victory over an absent opponent.

use std::time::Duration;

use serde_json::Value;

use super::*;

#[tokio::test]
async fn a_game_to_checkmate_over_the_board_api() {
    let db = temp_db("mate");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();

    let account: Value = client
        .get(server.url("/api/account"))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(account["username"], "Anna");
    let unauthorized = client.get(server.url("/api/account")).send().await.unwrap();
    assert_eq!(unauthorized.status().as_u16(), 401);

    let id = challenge_and_accept(&server, &client, &anna, &boris, "boris").await;
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&boris)
        .send()
        .await
        .unwrap();

    for (token, mv) in [(&anna, "f2f3"), (&boris, "e7e5"), (&anna, "g2g4")] {
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
    // Out of turn and illegal moves are refused with a clear error.
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/e2e4")),
        &anna,
        &[],
    )
    .await;
    // Not your turn is a conflict: the request is right, the game has moved on.
    assert_eq!(status, 409);
    assert!(body["error"].as_str().unwrap().contains("turn"), "{body}");
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/d8d4")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/d8h4")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200);

    let lines = read_lines(stream, |v| {
        v["status"] == "mate" || v["state"]["status"] == "mate"
    })
    .await;
    assert_eq!(lines[0]["type"], "gameFull");
    assert_eq!(lines[0]["white"]["name"], "Anna");
    let last = lines.last().unwrap();
    let state = if last["type"] == "gameFull" {
        &last["state"]
    } else {
        last
    };
    assert_eq!(state["moves"], "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(state["winner"], "black");

    let pgn = client
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("Qh4#"), "{pgn}");
    assert!(pgn.contains("%clk"), "{pgn}");
    server.task.abort();
}

#[tokio::test]
async fn acknowledged_moves_survive_a_crash_and_the_game_goes_on() {
    let db = temp_db("crash");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let client = reqwest::Client::new();
    let server = Server::start(&db).await;
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    for (token, mv) in [(&anna, "e2e4"), (&boris, "e7e5")] {
        let (status, _) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200);
    }
    // The server dies without any shutdown; a new one starts on the same file.
    server.task.abort();
    let server = Server::start(&db).await;
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    let lines = read_lines(stream, |v| v["type"] == "gameFull").await;
    assert_eq!(lines[0]["state"]["moves"], "e2e4 e7e5");
    assert_eq!(lines[0]["state"]["status"], "started");
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/g1f3")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &boris,
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
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("1. e4") && pgn.contains("2. Nf3"), "{pgn}");
    server.task.abort();
}

#[tokio::test]
async fn the_server_calls_a_fallen_flag_by_itself() {
    let db = temp_db("flag");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "1"),
            ("clock.increment", "0"),
            ("color", "white"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap().to_string();
    post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    // Online, the clock starts after both first moves; then White has one second and
    // nobody sends anything.
    for (token, mv) in [(&anna, "e2e4"), (&boris, "e7e5")] {
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let lines = read_lines(stream, |v| v["status"] == "outoftime").await;
    let last = lines.last().unwrap();
    assert_eq!(last["winner"], "black");
    assert_eq!(last["wtime"], 0);
    // The user's games, as NDJSON and as PGN.
    let ndjson = client
        .get(server.url("/api/games/user/anna"))
        .header("Accept", "application/x-ndjson")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let game: Value = serde_json::from_str(ndjson.lines().next().unwrap()).unwrap();
    assert_eq!(game["status"], "outoftime");
    let pgn = client
        .get(server.url("/api/games/user/anna"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    let metrics = client
        .get(server.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("caissa_actions_total 2"), "{metrics}");
    // Moves and action latency (process-wide: other tests' games count too).
    for line in [
        "caissa_moves_total ",
        "caissa_action_seconds_bucket{le=\"0.05\"} ",
        "caissa_action_seconds_bucket{le=\"+Inf\"} ",
        "caissa_action_seconds_count ",
        "caissa_commit_seconds_bucket{le=\"+Inf\"} ",
        "caissa_committed_appends_total ",
    ] {
        assert!(metrics.contains(line), "no {line}: {metrics}");
    }
    server.task.abort();
}

#[tokio::test]
async fn two_seeks_with_the_same_clock_make_a_game() {
    let db = temp_db("seek");
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
    // Anna's seek waits (the request stays open); Boris's matches it.
    let waiting = {
        let client = client.clone();
        let url = server.url("/api/board/seek");
        let anna = anna.clone();
        tokio::spawn(async move {
            let resp = client
                .post(url)
                .bearer_auth(&anna)
                .form(&[("time", "10"), ("increment", "5")])
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status().as_u16(), 200);
            resp.text().await.unwrap()
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let resp = client
        .post(server.url("/api/board/seek"))
        .bearer_auth(&boris)
        .form(&[("time", "10"), ("increment", "5")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let lines = read_lines(events, |v| v["type"] == "gameStart").await;
    let game = &lines.last().unwrap()["game"];
    assert_eq!(game["opponent"]["username"], "Anna");
    tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("the waiting seek should end")
        .unwrap();
    // Bad input gets a clear error.
    let (status, body) = post(
        &client,
        server.url("/api/board/seek"),
        &anna,
        &[("time", "500")],
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("time"), "{body}");
    server.task.abort();
}

#[tokio::test]
async fn the_computer_answers_and_spectators_watch_without_an_account() {
    let db = temp_db("computer");
    let anna = user_with_token(&db, "Anna").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, game) = post(
        &client,
        server.url("/api/challenge/ai"),
        &anna,
        &[
            ("level", "3"),
            ("color", "white"),
            ("clock.limit", "600"),
            ("clock.increment", "5"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    let live: Value = client
        .get(server.url("/api/games/live"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(live["games"][0]["id"], id.as_str());
    assert_eq!(live["games"][0]["black"], "Caissa-AI");
    // A spectator, without a token.
    let watch = client
        .get(server.url(&format!("/api/stream/game/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(watch.status().as_u16(), 200);
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/e2e4")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let lines = read_lines(watch, |v| {
        v["moves"]
            .as_str()
            .is_some_and(|m| m.split(' ').count() == 2)
    })
    .await;
    let reply = lines.last().unwrap()["moves"]
        .as_str()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .to_string();
    assert_eq!(reply.len(), 4, "a UCI move: {reply}");
    // The spectator cannot act: acting needs a token of a player.
    let resp = client
        .post(server.url(&format!("/api/board/game/{id}/resign")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    let tv: Value = client
        .get(server.url("/api/tv"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(tv["id"], id.as_str());
    server.task.abort();
}

#[tokio::test]
async fn claim_victory_needs_the_opponent_gone_long_enough() {
    let db = temp_db("gone");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    // Boris is connected: the claim is refused with the reason.
    let boris_stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&boris)
        .send()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    for (token, mv) in [(&anna, "e2e4"), (&boris, "e7e5"), (&anna, "g1f3")] {
        assert_eq!(
            post(
                &client,
                server.url(&format!("/api/board/game/{id}/move/{mv}")),
                token,
                &[]
            )
            .await
            .0,
            200
        );
    }
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/claim-victory")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("gone"), "{body}");
    // Boris leaves; a few seconds later the server notices, but 30 s have not passed.
    drop(boris_stream);
    tokio::time::sleep(Duration::from_millis(3500)).await;
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/claim-victory")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("30 s"), "{body}");
    server.task.abort();
}
