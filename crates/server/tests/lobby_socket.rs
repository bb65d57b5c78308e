//! The lobby socket: the seek list, the pools and the games being played,
//! pushed as they change instead of asked for again and again.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use super::*;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next lobby message for which `done` holds, within 10 s.
async fn next_lobby(socket: &mut Socket, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let message = tokio::time::timeout_at(deadline, socket.next())
            .await
            .expect("no lobby message within 10 s")
            .expect("the socket closed")
            .unwrap();
        let Message::Text(text) = message else {
            continue;
        };
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["t"], "lobby", "{value}");
        if done(&value) {
            return value;
        }
    }
}

#[tokio::test]
async fn the_lobby_socket_pushes_a_seek_then_the_game_it_became() {
    let db = temp_db("lobby-socket");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/socket/lobby", server.addr))
            .await
            .unwrap();
    // At once: an empty lobby, with its pools.
    let first = next_lobby(&mut socket, |_| true).await;
    assert_eq!(first["seeks"], serde_json::json!([]), "{first}");
    assert_eq!(first["games"], serde_json::json!([]), "{first}");
    assert!(first["pools"].as_array().unwrap().len() >= 5, "{first}");
    // Anna's seek appears without anyone asking.
    let waiting = {
        let client = client.clone();
        let url = server.url("/api/board/seek");
        let anna = anna.clone();
        tokio::spawn(async move {
            client
                .post(url)
                .bearer_auth(&anna)
                .form(&[("time", "10"), ("increment", "5")])
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        })
    };
    let seen = next_lobby(&mut socket, |v| {
        v["seeks"].as_array().is_some_and(|s| !s.is_empty())
    })
    .await;
    assert_eq!(seen["seeks"][0]["username"], "Anna", "{seen}");
    // Boris takes it: the seek goes and the game is listed.
    let id = seen["seeks"][0]["id"].as_str().unwrap().to_string();
    let (status, body) = post(
        &client,
        server.url(&format!("/api/lobby/seeks/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let playing = next_lobby(&mut socket, |v| {
        v["games"].as_array().is_some_and(|g| !g.is_empty())
            && v["seeks"].as_array().is_some_and(|s| s.is_empty())
    })
    .await;
    assert_eq!(playing["games"][0]["id"], body["gameId"], "{playing}");
    tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("the seek's request ends once paired")
        .unwrap();
    server.task.abort();
}
