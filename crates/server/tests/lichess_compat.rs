//! What lichess clients rely on beyond the basic calls: a move's draw offer that
//! the rules refuse does not undo the move, `draw/yes` claims a repetition,
//! trailing slashes, JSON for every error, clocks as they are when a client
//! joins, games nobody starts, challenges withdrawn, finished games after a
//! restart, and the PGN's tags.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use super::*;

/// A game between Anna (White) and Boris on a fresh server, with their tokens.
async fn game(
    name: &str,
    form: &[(&str, &str)],
) -> (Server, reqwest::Client, String, String, String) {
    let db = temp_db(name);
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, challenge) = post(&client, server.url("/api/challenge/Boris"), &anna, form).await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap().to_string();
    let (status, body) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    (server, client, anna, boris, id)
}

async fn moves_of(server: &Server, client: &reqwest::Client, id: &str) -> Value {
    client
        .get(server.url(&format!("/game/export/{id}?format=json")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The first line of a game's stream, opened now.
async fn game_full(server: &Server, client: &reqwest::Client, id: &str, token: &str) -> Value {
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    read_lines(stream, |v| v["type"] == "gameFull").await[0].clone()
}

const BLITZ_AS_WHITE: [(&str, &str); 2] = [("clock.limit", "300"), ("color", "white")];

#[tokio::test]
async fn a_move_stands_when_the_draw_offer_sent_with_it_is_refused() {
    let (server, client, anna, boris, id) = game("offer-with-move", &BLITZ_AS_WHITE).await;
    let play = |token: &str, mv: &str| {
        let client = client.clone();
        let url = server.url(&format!("/api/board/game/{id}/move/{mv}?offeringDraw=true"));
        let token = token.to_string();
        async move { post(&client, url, &token, &[]).await }
    };
    // Too early to offer (5.2.3: both must have moved), but the move is played.
    let (status, body) = play(&anna, "e2e4").await;
    assert_eq!((status, &body["ok"]), (200, &Value::Bool(true)), "{body}");
    let full = game_full(&server, &client, &id, &boris).await;
    assert_eq!(full["state"]["moves"], "e2e4");
    assert_eq!(full["state"]["wdraw"], false, "{full}");
    // Once allowed, the offer goes with the move.
    let (status, body) = play(&boris, "e7e5").await;
    assert_eq!(status, 200, "{body}");
    let full = game_full(&server, &client, &id, &anna).await;
    assert_eq!(full["state"]["bdraw"], true, "{full}");
    // With the opponent's offer open, "offering" agrees: drawn before the move.
    let (status, body) = play(&anna, "g1f3").await;
    assert_eq!(status, 200, "{body}");
    let game = moves_of(&server, &client, &id).await;
    assert_eq!(
        (&game["moves"], &game["status"]),
        (&json_str("e2e4 e7e5"), &json_str("draw"))
    );
    server.task.abort();
}

fn json_str(text: &str) -> Value {
    Value::String(text.to_string())
}

#[tokio::test]
async fn draw_yes_claims_a_threefold_repetition_on_ones_turn() {
    let (server, client, anna, boris, id) = game("claim-yes", &BLITZ_AS_WHITE).await;
    // The starting position a second and a third time, White to move.
    for (i, mv) in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ]
    .iter()
    .enumerate()
    {
        let token = if i % 2 == 0 { &anna } else { &boris };
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
    // Not Black's turn: "yes" is only an offer (and "no" with none open is fine).
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/draw/no")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/draw/yes")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game = moves_of(&server, &client, &id).await;
    assert_eq!(game["status"], "draw", "{game}");
    let pgn = client
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    server.task.abort();
}

#[tokio::test]
async fn a_trailing_slash_reaches_the_same_endpoint() {
    let (server, client, anna, _boris, id) = game("slash", &BLITZ_AS_WHITE).await;
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/abort/")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(moves_of(&server, &client, &id).await["status"], "aborted");
    server.task.abort();
}

#[tokio::test]
async fn every_error_is_answered_in_json() {
    let (server, client, anna, _boris, id) = game("json-errors", &BLITZ_AS_WHITE).await;
    let get = |path: &str| client.get(server.url(path)).bearer_auth(&anna);
    let cases = [
        (get("/api/no/such/thing"), 404, "no such page or endpoint"),
        (
            client.delete(server.url("/api/account")).bearer_auth(&anna),
            405,
            "does not take DELETE",
        ),
        (
            client
                .post(server.url("/api/board/seek"))
                .bearer_auth(&anna)
                .body(vec![b'x'; 100 * 1024]),
            413,
            "",
        ),
        (get(&format!("/api/socket/game/{id}")), 400, ""),
        (
            client
                .post(server.url("/api/register"))
                .header("content-type", "application/json")
                .body("{not json"),
            400,
            "",
        ),
    ];
    for (request, status, says) in cases {
        let response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), status);
        let kind = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(kind.starts_with("application/json"), "{status}: {kind}");
        let body: Value = response.json().await.unwrap();
        let error = body["error"].as_str().unwrap_or_default();
        assert!(
            !error.is_empty() && error.contains(says),
            "{status}: {body}"
        );
    }
    server.task.abort();
}

#[tokio::test]
async fn a_client_joining_mid_game_gets_the_clocks_as_they_are_now() {
    let (server, client, anna, boris, id) = game("clocks-now", &BLITZ_AS_WHITE).await;
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
    // White's clock runs from Black's move on; a stream opened 1.5 s later says so.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let full = game_full(&server, &client, &id, &anna).await;
    let wtime = full["state"]["wtime"].as_u64().unwrap();
    assert!((297_000..=298_600).contains(&wtime), "{full}");
    assert_eq!(full["state"]["btime"], 300_000);
    server.task.abort();
}

#[tokio::test]
async fn no_initial_time_starts_the_clock_with_the_increment() {
    let (server, client, anna, _boris, id) = game(
        "zero-plus",
        &[
            ("clock.limit", "0"),
            ("clock.increment", "1"),
            ("color", "white"),
        ],
    )
    .await;
    let full = game_full(&server, &client, &id, &anna).await;
    // As lichess: the increment, at least 3 s.
    assert_eq!(full["state"]["wtime"], 3_000, "{full}");
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("clock.limit", "99999")],
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("clock.limit"),
        "{body}"
    );
    server.task.abort();
}

#[tokio::test]
async fn a_game_nobody_starts_is_aborted_by_the_server() {
    // Bullet: 20 s for White's first move.
    let (server, client, anna, _boris, id) =
        game("no-start", &[("clock.limit", "60"), ("color", "white")]).await;
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let lines = read_lines(stream, |v| v["type"] == "gameState").await;
    let waited = started.elapsed();
    let last = lines.last().unwrap();
    assert_eq!(last["status"], "aborted", "{lines:?}");
    assert!(waited > Duration::from_secs(15), "{waited:?}");
    server.task.abort();
}

#[tokio::test]
async fn a_withdrawn_challenge_is_announced_to_both_players() {
    let db = temp_db("cancel");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let events_of = |token: &str| {
        client
            .get(server.url("/api/stream/event"))
            .bearer_auth(token)
            .send()
    };
    let events = events_of(&boris).await.unwrap();
    let anna_events = events_of(&anna).await.unwrap();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("clock.limit", "300")],
    )
    .await;
    assert_eq!(status, 200);
    let id = challenge["id"].as_str().unwrap();
    // Only the challenger may cancel.
    let (status, _) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/cancel")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 403);
    let (status, body) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/cancel")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    for events in [events, anna_events] {
        let lines = read_lines(events, |v| v["type"] == "challengeCanceled").await;
        let canceled = lines.last().unwrap();
        assert_eq!(canceled["challenge"]["id"], *id);
        assert_eq!(canceled["challenge"]["status"], "canceled");
        assert!(canceled["compat"].is_object(), "{canceled}");
    }
    let (status, _) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 404);
    server.task.abort();
}

#[tokio::test]
async fn a_finished_game_is_still_seen_after_a_restart() {
    let db = temp_db("finished-restart");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let client = reqwest::Client::new();
    let server = Server::start(&db).await;
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    for (token, mv) in [
        (&anna, "f2f3"),
        (&boris, "e7e5"),
        (&anna, "g2g4"),
        (&boris, "d8h4"),
    ] {
        let (status, _) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200);
    }
    server.task.abort();
    let server = Server::start(&db).await;
    // The stream says how the game ended, then ends.
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    let lines = read_lines(stream, |_| false).await;
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["state"]["status"], "mate");
    assert_eq!(lines[0]["state"]["winner"], "black");
    // Acting on it is refused as on any finished game.
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &anna,
        &[],
    )
    .await;
    // The game is over: a conflict.
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("over"), "{body}");
    // The socket too, and it closes properly.
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/socket/game/{id}", server.addr))
            .await
            .unwrap();
    let mut texts = Vec::new();
    let mut closed = false;
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_secs(10), socket.next())
        .await
        .map(|m| m.transpose().unwrap())
    {
        match message {
            Message::Text(text) => texts.push(serde_json::from_str::<Value>(&text).unwrap()),
            Message::Close(frame) => {
                closed = frame.is_some_and(|f| u16::from(f.code) == 1000);
                break;
            }
            _ => {}
        }
    }
    assert!(closed, "{texts:?}");
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0]["state"]["status"], "mate");
    let _ = socket.close(None).await;
    server.task.abort();
}

#[tokio::test]
async fn a_socket_sees_the_end_once_and_is_closed_normally() {
    let (server, client, anna, boris, id) = game("socket-end", &BLITZ_AS_WHITE).await;
    let (mut spectator, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/socket/game/{id}", server.addr))
            .await
            .unwrap();
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
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let mut finals = 0;
    let mut close_code = None;
    while let Ok(Some(Ok(message))) =
        tokio::time::timeout(Duration::from_secs(10), spectator.next()).await
    {
        match message {
            Message::Text(text) => {
                let v: Value = serde_json::from_str(&text).unwrap();
                if v["t"] == "state" && v["status"] != "started" {
                    finals += 1;
                }
            }
            Message::Close(frame) => {
                close_code = frame.map(|f| u16::from(f.code));
                break;
            }
            _ => {}
        }
    }
    assert_eq!((finals, close_code), (1, Some(1000)));
    let _ = spectator.send(Message::Close(None)).await;
    server.task.abort();
}

#[tokio::test]
async fn exports_carry_date_ratings_and_where_the_game_is() {
    let (server, client, anna, boris, id) = game("pgn-tags", &BLITZ_AS_WHITE).await;
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let pgn = client
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let today = {
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        caissa_pgn::date::date_tag(ms)
    };
    for tag in [
        format!("[Site \"http://{}/game/{id}\"]", server.addr),
        format!("[Date \"{today}\"]"),
        format!("[UTCDate \"{today}\"]"),
        "[WhiteElo \"1500\"]".to_string(),
        "[BlackElo \"1500\"]".to_string(),
        "[Event \"Casual blitz game\"]".to_string(),
    ] {
        assert!(pgn.contains(&tag), "no {tag} in\n{pgn}");
    }
    // A user's export: finished games by default, ongoing ones when asked.
    let other = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    let export = |query: &'static str| {
        let client = client.clone();
        let url = server.url(&format!("/api/games/user/anna{query}"));
        async move {
            let text = client
                .get(url)
                .header("accept", "application/x-ndjson")
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            text.lines()
                .map(|l| {
                    serde_json::from_str::<Value>(l).unwrap()["id"]
                        .as_str()
                        .unwrap()
                        .to_string()
                })
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(export("").await, vec![id.as_str()]);
    assert_eq!(
        export("?ongoing=true&finished=false").await,
        vec![other.as_str()]
    );
    assert_eq!(
        export("?ongoing=true").await,
        vec![other.as_str(), id.as_str()]
    );
    server.task.abort();
}

#[tokio::test]
async fn a_challenge_waits_for_its_answer_across_a_restart() {
    let db = temp_db("challenge-restart");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let client = reqwest::Client::new();
    let server = Server::start(&db).await;
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("clock.limit", "300"), ("color", "white")],
    )
    .await;
    assert_eq!(status, 200);
    let id = challenge["id"].as_str().unwrap().to_string();
    server.task.abort();
    let server = Server::start(&db).await;
    // Boris hears of it when he connects, and can take it.
    let events = client
        .get(server.url("/api/stream/event"))
        .bearer_auth(&boris)
        .send()
        .await
        .unwrap();
    let lines = read_lines(events, |v| v["type"] == "challenge").await;
    assert_eq!(lines.last().unwrap()["challenge"]["id"], *id);
    let (status, body) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let full = game_full(&server, &client, &id, &anna).await;
    assert_eq!(full["white"]["name"], "Anna");
    // Once answered it is gone, also after the next restart.
    server.task.abort();
    let server = Server::start(&db).await;
    let (status, _) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 404);
    server.task.abort();
}

/// Sixteen moves each without a capture, a check or a repeated position.
const QUIET_LINE: [&str; 32] = [
    "a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6", "e2e3", "e7e6", "f2f3", "f7f6",
    "g2g3", "g7g6", "h2h3", "h7h6", "b1d2", "b8d7", "g1e2", "g8e7", "c1b2", "c8b7", "f1g2", "f8g7",
    "d1c2", "d8c7", "a1c1", "a8c8", "h1h2", "h8h7", "e2f4", "e7f5",
];

#[tokio::test]
async fn every_spectator_gets_the_state_of_every_ply_in_order() {
    let (server, client, anna, boris, id) = game("spectators-every-ply", &BLITZ_AS_WHITE).await;
    let mut sockets = Vec::new();
    for _ in 0..30 {
        let (socket, _) =
            tokio_tungstenite::connect_async(format!("ws://{}/api/socket/game/{id}", server.addr))
                .await
                .unwrap();
        sockets.push(socket);
    }
    let mut streams = Vec::new();
    for _ in 0..10 {
        streams.push(
            client
                .get(server.url(&format!("/api/stream/game/{id}")))
                .send()
                .await
                .unwrap(),
        );
    }
    // Moves as fast as the server takes them.
    for (i, mv) in QUIET_LINE.iter().enumerate() {
        let token = if i % 2 == 0 { &anna } else { &boris };
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
    let plies = |moves: &Value| moves.as_str().unwrap().split_whitespace().count();
    for mut socket in sockets {
        let mut seen = Vec::new();
        while seen.last() != Some(&QUIET_LINE.len()) {
            let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
                .await
                .expect("a state is missing")
                .unwrap()
                .unwrap();
            if let Message::Text(text) = message {
                let v: Value = serde_json::from_str(&text).unwrap();
                if v["t"] == "state" {
                    seen.push(plies(&v["moves"]));
                }
            }
        }
        assert_eq!(seen, (1..=QUIET_LINE.len()).collect::<Vec<_>>());
    }
    for stream in streams {
        let lines = read_lines(stream, |v| {
            v["type"] == "gameState" && plies(&v["moves"]) == QUIET_LINE.len()
        })
        .await;
        let seen: Vec<usize> = lines[1..].iter().map(|v| plies(&v["moves"])).collect();
        assert_eq!(seen, (1..=QUIET_LINE.len()).collect::<Vec<_>>());
    }
    server.task.abort();
}

#[tokio::test]
async fn both_players_hear_a_challenge_and_how_it_was_answered_with_the_real_colour() {
    let db = temp_db("challenge-events");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let events_of = |token: &str| {
        client
            .get(server.url("/api/stream/event"))
            .bearer_auth(token)
            .send()
    };
    let anna_events = events_of(&anna).await.unwrap();
    let boris_events = events_of(&boris).await.unwrap();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "180"),
            ("clock.increment", "2"),
            ("color", "random"),
        ],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(challenge["color"], "random");
    assert!(["white", "black"].contains(&challenge["finalColor"].as_str().unwrap()));
    assert_eq!(challenge["timeControl"]["show"], "3+2");
    let id = challenge["id"].as_str().unwrap();
    let (status, _) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/decline")),
        &boris,
        &[("reason", "tooFast")],
    )
    .await;
    assert_eq!(status, 200);
    // As lila does, both sides get `challenge` and `challengeDeclined`, each
    // with `compat` (and here the reader's `direction`); the players carry
    // their ratings at the challenge's speed.
    for (events, direction) in [(anna_events, "out"), (boris_events, "in")] {
        let lines = read_lines(events, |v| v["type"] == "challengeDeclined").await;
        let kinds: Vec<&str> = lines.iter().filter_map(|l| l["type"].as_str()).collect();
        assert_eq!(kinds, ["challenge", "challengeDeclined"], "{lines:?}");
        let made = &lines[0];
        assert_eq!(made["compat"], json!({ "bot": false, "board": true }));
        assert_eq!(made["challenge"]["id"], *id);
        assert_eq!(made["challenge"]["direction"], direction);
        assert_eq!(made["challenge"]["status"], "created");
        for side in ["challenger", "destUser"] {
            let player = &made["challenge"][side];
            assert!(player["rating"].as_u64().unwrap() > 0, "{player}");
            // New players' ratings are provisional.
            assert_eq!(player["provisional"], true, "{player}");
        }
        let declined = &lines[1]["challenge"];
        assert_eq!(declined["status"], "declined");
        assert_eq!(declined["direction"], direction);
        // lichess writes the key in lower case.
        assert_eq!(declined["declineReasonKey"], "toofast");
        assert!(declined["declineReason"]
            .as_str()
            .unwrap()
            .contains("too fast"));
    }
    // The challenger's answer carries the ratings too.
    assert!(challenge["challenger"]["rating"].is_u64(), "{challenge}");
    server.task.abort();
}

#[tokio::test]
async fn cancelling_an_accepted_challenge_aborts_its_game_before_any_move() {
    let (server, client, anna, boris, id) = game("cancel-accepted", &BLITZ_AS_WHITE).await;
    let (status, body) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/cancel")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(moves_of(&server, &client, &id).await["status"], "aborted");
    // Once both have moved, it is too late.
    let (server2, client2, anna2, boris2, id2) = game("cancel-too-late", &BLITZ_AS_WHITE).await;
    for (token, mv) in [(&anna2, "e2e4"), (&boris2, "e7e5")] {
        let (status, _) = post(
            &client2,
            server2.url(&format!("/api/board/game/{id2}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200);
    }
    let (status, body) = post(
        &client2,
        server2.url(&format!("/api/challenge/{id2}/cancel")),
        &anna2,
        &[],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let _ = boris;
    server.task.abort();
    server2.task.abort();
}

#[tokio::test]
async fn the_user_export_filters_as_lichess_does() {
    let db = temp_db("export-filters");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let clara = user_with_token(&db, "Clara").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    // Anna (White) resigns against Boris, then against Clara; a bullet game too.
    let mut ids = Vec::new();
    for (dest_token, dest, limit) in [
        (&boris, "Boris", "300"),
        (&clara, "Clara", "300"),
        (&boris, "Boris", "60"),
    ] {
        let (_, challenge) = post(
            &client,
            server.url(&format!("/api/challenge/{dest}")),
            &anna,
            &[("clock.limit", limit), ("color", "white")],
        )
        .await;
        let id = challenge["id"].as_str().unwrap().to_string();
        post(
            &client,
            server.url(&format!("/api/challenge/{id}/accept")),
            dest_token,
            &[],
        )
        .await;
        let (status, _) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/resign")),
            &anna,
            &[],
        )
        .await;
        assert_eq!(status, 200);
        ids.push(id);
    }
    let export = |query: &str| {
        let client = client.clone();
        let url = server.url(&format!("/api/games/user/anna?{query}"));
        async move {
            let response = client
                .get(url)
                .header("accept", "application/x-ndjson")
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            let text = response.text().await.unwrap();
            text.lines()
                .map(|l| {
                    serde_json::from_str::<Value>(l).unwrap()["id"]
                        .as_str()
                        .unwrap()
                        .to_string()
                })
                .collect::<Vec<_>>()
        }
    };
    let newest_first: Vec<String> = ids.iter().rev().cloned().collect();
    assert_eq!(export("").await, newest_first);
    assert_eq!(export("sort=dateAsc").await, ids);
    assert_eq!(export("vs=Clara").await, [ids[1].clone()]);
    assert_eq!(export("color=black").await, Vec::<String>::new());
    assert_eq!(export("perfType=bullet").await, [ids[2].clone()]);
    assert_eq!(export("perfType=blitz&max=1").await, [ids[1].clone()]);
    assert_eq!(export("rated=True").await, Vec::<String>::new());
    assert_eq!(
        export("ongoing=True&finished=False").await,
        Vec::<String>::new()
    );
    let bad = client
        .get(server.url("/api/games/user/anna?perfType=atomic"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    server.task.abort();
}

#[tokio::test]
async fn a_game_over_before_a_restart_can_be_rematched_once() {
    let (server, client, anna, boris, id) = game("rematch-restart", &BLITZ_AS_WHITE).await;
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    server.task.abort();
    let db = existing_db("rematch-restart");
    let server = Server::start(&db).await;
    let url = |answer: &str| server.url(&format!("/api/board/game/{id}/rematch/{answer}"));
    let (status, body) = post(&client, url("yes"), &boris, &[]).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = post(&client, url("yes"), &anna, &[]).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["gameId"].is_string(), "{body}");
    // While that rematch is played, no second one.
    let (status, body) = post(&client, url("yes"), &anna, &[]).await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("already playing"),
        "{body}"
    );
    server.task.abort();
}

#[tokio::test]
async fn sessions_log_in_out_and_say_what_went_wrong() {
    let db = temp_db("sessions-edges");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    // Behind an HTTPS proxy the session cookie is Secure.
    let response = client
        .post(server.url("/api/register"))
        .header("x-forwarded-proto", "https")
        .json(&serde_json::json!({ "username": "Dora", "password": "long enough" }))
        .send()
        .await
        .unwrap();
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(cookie.contains("; Secure"), "{cookie}");
    let session = cookie.split(';').next().unwrap().to_string();
    let csrf = response.json::<Value>().await.unwrap()["csrf"]
        .as_str()
        .unwrap()
        .to_string();
    // A wrong password says so.
    let wrong = client
        .post(server.url("/api/login"))
        .json(&serde_json::json!({ "username": "Dora", "password": "not this one" }))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(body["error"], "wrong user name or password");
    // Logging out needs the CSRF token, like every change.
    let logout = |with_csrf: bool| {
        let mut request = client
            .post(server.url("/api/logout"))
            .header("cookie", &session);
        if with_csrf {
            request = request.header("x-csrf-token", &csrf);
        }
        request.send()
    };
    assert_eq!(logout(false).await.unwrap().status(), 403);
    assert_eq!(logout(true).await.unwrap().status(), 200);
    let gone = client
        .get(server.url("/api/account"))
        .header("cookie", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), 401);
    server.task.abort();
}

#[tokio::test]
async fn players_chat_and_the_opponents_stream_carries_it() {
    let (server, client, anna, boris, id) = game("chat", &BLITZ_AS_WHITE).await;
    let db = existing_db("chat");
    let carl = user_with_token(&db, "Carl").await;
    let boris_stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&boris)
        .send()
        .await
        .unwrap();
    let chat = server.url(&format!("/api/board/game/{id}/chat"));
    let say = |token: &str, room: &str, text: &str| {
        let (client, chat, token) = (client.clone(), chat.clone(), token.to_string());
        let form = [
            ("room".to_string(), room.to_string()),
            ("text".to_string(), text.to_string()),
        ];
        async move {
            let response = client
                .post(chat)
                .bearer_auth(token)
                .form(&form)
                .send()
                .await
                .unwrap();
            response.status().as_u16()
        }
    };
    assert_eq!(say(&anna, "player", "Good luck!").await, 200);
    let lines = read_lines(boris_stream, |v| v["type"] == "chatLine").await;
    let line = lines.last().unwrap();
    assert_eq!(
        (&line["room"], &line["username"], &line["text"]),
        (
            &json_str("player"),
            &json_str("Anna"),
            &json_str("Good luck!")
        )
    );
    // Only the players write in the player room; lines are short.
    assert_eq!(say(&carl, "player", "hi").await, 403);
    assert_eq!(say(&carl, "spectator", "hi").await, 200);
    assert_eq!(say(&anna, "player", &"x".repeat(141)).await, 400);
    assert_eq!(say(&anna, "lobby", "hi").await, 400);
    let history = |token: &str| {
        let (client, chat, token) = (client.clone(), chat.clone(), token.to_string());
        async move {
            let body: Value = client
                .get(chat)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            body
        }
    };
    let players_room = serde_json::json!([{ "user": "Anna", "text": "Good luck!" }]);
    assert_eq!(history(&boris).await, players_room);
    // Anyone else reads the spectators' room, never the players'.
    assert_eq!(
        history(&carl).await,
        serde_json::json!([{ "user": "Carl", "text": "hi" }])
    );
    // The chat is kept with the game, and goes on, once it is over.
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(say(&boris, "player", "gg").await, 200);
    assert_eq!(say(&carl, "player", "gg").await, 403);
    assert_eq!(
        history(&anna).await,
        serde_json::json!([
            { "user": "Anna", "text": "Good luck!" },
            { "user": "Boris", "text": "gg" }
        ])
    );
    server.task.abort();
}

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
