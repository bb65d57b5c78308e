//! What lichess clients rely on in the streams and around them: challenges kept
//! across a restart, announced to both players with the real colour and cancelled
//! before a move; every spectator sees every ply in order; chat on the opponent's
//! stream; the user export's filters; a rematch after a restart; sessions.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use super::lichess_compat::{game, game_full, json_str, moves_of, BLITZ_AS_WHITE};
use super::*;

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
    // Caissa's result filter: Anna resigned every game.
    assert_eq!(export("result=loss").await, newest_first);
    assert_eq!(export("result=win").await, Vec::<String>::new());
    assert_eq!(export("result=draw").await, Vec::<String>::new());
    for query in ["perfType=atomic", "result=sideways"] {
        let bad = client
            .get(server.url(&format!("/api/games/user/anna?{query}")))
            .send()
            .await
            .unwrap();
        assert_eq!(bad.status(), 400, "{query}");
    }
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
