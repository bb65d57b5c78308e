//! The game's WebSocket: players move and chat, spectators only watch, over
//! HTTP/1.1 or as a stream of an HTTP/2 connection (RFC 8441).

use std::time::Duration;

use serde_json::Value;

use super::*;

#[tokio::test]
async fn websocket_players_move_chat_and_spectators_only_watch() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let db = temp_db("socket");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    let ws_url = |token: Option<&str>| match token {
        Some(t) => format!("ws://{}/api/socket/game/{id}?token={t}", server.addr),
        None => format!("ws://{}/api/socket/game/{id}", server.addr),
    };
    let (mut white, _) = tokio_tungstenite::connect_async(ws_url(Some(&anna)))
        .await
        .unwrap();
    let (mut black, _) = tokio_tungstenite::connect_async(ws_url(Some(&boris)))
        .await
        .unwrap();
    let (mut spectator, _) = tokio_tungstenite::connect_async(ws_url(None))
        .await
        .unwrap();
    async fn next_json(
        ws: &mut (impl futures_util::Stream<
            Item = Result<Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin),
    ) -> Value {
        // Pings come every few seconds; the awaited message must come within 10 s.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let msg = tokio::time::timeout(left, ws.next())
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            if let Message::Text(text) = msg {
                return serde_json::from_str(&text).unwrap();
            }
        }
    }
    assert_eq!(next_json(&mut white).await["t"], "full");
    assert_eq!(next_json(&mut black).await["t"], "full");
    assert_eq!(next_json(&mut spectator).await["t"], "full");
    white
        .send(Message::Text(r#"{"t":"move","uci":"e2e4"}"#.into()))
        .await
        .unwrap();
    // The answer comes in order among the state (and any presence notice).
    let mut seen = Vec::new();
    while !seen.iter().any(|v: &Value| v["t"] == "ack") {
        seen.push(next_json(&mut white).await);
        assert!(seen.len() <= 3, "{seen:?}");
    }
    // Everyone sees the move, in order.
    let state = next_json(&mut spectator).await;
    assert_eq!(state["t"], "state");
    assert_eq!(state["moves"], "e2e4");
    // A spectator cannot act; a player out of turn gets the reason.
    spectator
        .send(Message::Text(r#"{"t":"resign"}"#.into()))
        .await
        .unwrap();
    let refused = next_json(&mut spectator).await;
    assert_eq!(refused["t"], "error");
    assert!(refused["error"].as_str().unwrap().contains("spectators"));
    black
        .send(Message::Text(r#"{"t":"move","uci":"e7e5"}"#.into()))
        .await
        .unwrap();
    // Black's move is in before White answers it.
    while next_json(&mut black).await["t"] != "ack" {}
    white
        .send(Message::Text(r#"{"t":"move","uci":"d2d4"}"#.into()))
        .await
        .unwrap();
    let mut moves = String::new();
    while moves != "e2e4 e7e5 d2d4" {
        let v = next_json(&mut spectator).await;
        if v["t"] == "state" {
            moves = v["moves"].as_str().unwrap().to_string();
        }
    }
    // The players hear spectators come and go.
    let (second, _) = tokio_tungstenite::connect_async(ws_url(None))
        .await
        .unwrap();
    while next_json(&mut white).await != serde_json::json!({ "t": "watchers", "n": 2 }) {}
    drop(second);
    while next_json(&mut white).await != serde_json::json!({ "t": "watchers", "n": 1 }) {}
    // Chat: the players' sockets carry their room, spectators' sockets theirs.
    let carl = user_with_token(&db, "Carl").await;
    let say = |token: &str, room: &'static str, text: &'static str| {
        let url = server.url(&format!("/api/board/game/{id}/chat"));
        let (client, token) = (client.clone(), token.to_string());
        async move {
            let (status, body) =
                post(&client, url, &token, &[("room", room), ("text", text)]).await;
            assert_eq!(status, 200, "{body}");
        }
    };
    say(&anna, "player", "good luck").await;
    say(&carl, "spectator", "what an opening").await;
    say(&anna, "player", "have fun").await;
    async fn chat_until(
        ws: &mut (impl futures_util::Stream<
            Item = Result<Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin),
        last: &str,
    ) -> Vec<String> {
        let mut lines = Vec::new();
        while lines.last().map(String::as_str) != Some(last) {
            let v = next_json(ws).await;
            if v["t"] == "chat" {
                lines.push(format!(
                    "{}: {}",
                    v["username"].as_str().unwrap(),
                    v["text"].as_str().unwrap()
                ));
            }
        }
        lines
    }
    assert_eq!(
        chat_until(&mut black, "Anna: have fun").await,
        ["Anna: good luck", "Anna: have fun"]
    );
    assert_eq!(
        chat_until(&mut spectator, "Carl: what an opening").await,
        ["Carl: what an opening"]
    );
    server.task.abort();
}

/// Opens game `id`'s socket as a stream of an HTTP/2 connection (RFC 8441), with
/// `token` in an `Authorization` header; the handshake's status if refused.
async fn socket_over_http2(
    server: &Server,
    id: &str,
    token: &str,
) -> Result<
    tokio_tungstenite::WebSocketStream<hyper_util::rt::TokioIo<hyper::upgrade::Upgraded>>,
    u16,
> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    let tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (mut send, connection) = hyper::client::conn::http2::Builder::new(TokioExecutor::new())
        .handshake(TokioIo::new(tcp))
        .await
        .unwrap();
    tokio::spawn(connection);
    let request = hyper::Request::builder()
        .method(hyper::Method::CONNECT)
        .uri(format!("http://{}/api/socket/game/{id}", server.addr))
        .extension(hyper::ext::Protocol::from_static("websocket"))
        .header("sec-websocket-version", "13")
        .header("authorization", format!("Bearer {token}"))
        .body(http_body_util::Empty::<bytes::Bytes>::new())
        .unwrap();
    let mut response = send.send_request(request).await.unwrap();
    if response.status() != 200 {
        return Err(response.status().as_u16());
    }
    let upgraded = hyper::upgrade::on(&mut response).await.unwrap();
    Ok(tokio_tungstenite::WebSocketStream::from_raw_socket(
        TokioIo::new(upgraded),
        tokio_tungstenite::tungstenite::protocol::Role::Client,
        None,
    )
    .await)
}

#[tokio::test]
async fn websocket_over_http2_plays_with_a_bearer_header() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let db = temp_db("socket-h2");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    // An unknown token is refused before any upgrade.
    assert_eq!(
        socket_over_http2(&server, &id, "cai_nonsense").await.err(),
        Some(401)
    );
    let mut white = socket_over_http2(&server, &id, &anna).await.unwrap();
    let mut black = socket_over_http2(&server, &id, &boris).await.unwrap();
    async fn next_text(
        ws: &mut (impl futures_util::Stream<
            Item = Result<Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin),
    ) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            if let Message::Text(text) = msg {
                return serde_json::from_str(&text).unwrap();
            }
        }
    }
    let full = next_text(&mut white).await;
    assert_eq!(
        (full["t"].as_str(), full["white"]["name"].as_str()),
        (Some("full"), Some("Anna"))
    );
    assert_eq!(next_text(&mut black).await["t"], "full");
    // The header made White a player: the move is acknowledged, Black sees it.
    white
        .send(Message::Text(r#"{"t":"move","uci":"e2e4"}"#.into()))
        .await
        .unwrap();
    while next_text(&mut white).await["t"] != "ack" {}
    let mut moves = String::new();
    while moves != "e2e4" {
        let v = next_text(&mut black).await;
        if v["t"] == "state" {
            moves = v["moves"].as_str().unwrap().to_string();
        }
    }
    // Black may not move for White.
    black
        .send(Message::Text(r#"{"t":"move","uci":"d2d4"}"#.into()))
        .await
        .unwrap();
    let answer = loop {
        let v = next_text(&mut black).await;
        if v["t"] == "ack" || v["t"] == "error" {
            break v;
        }
    };
    assert_eq!(answer["t"], "error", "{answer}");
    server.task.abort();
}
