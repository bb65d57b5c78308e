//! What lichess clients rely on beyond the basic calls: a move's draw offer that
//! the rules refuse does not undo the move, `draw/yes` claims a repetition,
//! trailing slashes, JSON for every error, clocks as they are when a client
//! joins, games nobody starts, challenges withdrawn, finished games after a
//! restart, and the PGN's tags.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use super::*;

/// A game between Anna (White) and Boris on a fresh server, with their tokens.
pub(crate) async fn game(
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

pub(crate) async fn moves_of(server: &Server, client: &reqwest::Client, id: &str) -> Value {
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
pub(crate) async fn game_full(
    server: &Server,
    client: &reqwest::Client,
    id: &str,
    token: &str,
) -> Value {
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    read_lines(stream, |v| v["type"] == "gameFull").await[0].clone()
}

pub(crate) const BLITZ_AS_WHITE: [(&str, &str); 2] = [("clock.limit", "300"), ("color", "white")];

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

pub(crate) fn json_str(text: &str) -> Value {
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
