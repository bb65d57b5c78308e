//! API tokens as lichess has them: scoped, made from a signed-in browser and shown
//! once, listed, tested and revoked — and a revoked token is refused from the
//! next request on (and a socket opened with it can no longer act), even though
//! the server remembers tokens it has seen.

use futures_util::StreamExt;
use serde_json::Value;

use super::*;

/// A registered browser user: (session cookie, CSRF token).
async fn browser(server: &Server, client: &reqwest::Client, name: &str) -> (String, String) {
    let resp = client
        .post(server.url("/api/register"))
        .json(&serde_json::json!({ "username": name, "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let cookie = resp.headers()["set-cookie"].to_str().unwrap();
    let session = cookie.split(';').next().unwrap().to_string();
    let body: Value = resp.json().await.unwrap();
    (session, body["csrf"].as_str().unwrap().to_string())
}

/// Asserts a refusal with this status whose error names `word`.
fn refused_naming(status: u16, body: &Value, expected: u16, word: &str) {
    assert_eq!(status, expected, "{body}");
    let error = body["error"].as_str().unwrap_or_default();
    assert!(error.contains(word), "{body}");
}

/// The status of a request's answer.
async fn status_of(request: reqwest::RequestBuilder) -> u16 {
    request.send().await.unwrap().status().as_u16()
}

async fn new_token(
    server: &Server,
    client: &reqwest::Client,
    (session, csrf): &(String, String),
    form: &[(&str, &str)],
) -> (u16, Value) {
    let resp = client
        .post(server.url("/api/token"))
        .header("Cookie", session)
        .header("X-CSRF-Token", csrf)
        .form(form)
        .send()
        .await
        .unwrap();
    (resp.status().as_u16(), resp.json().await.unwrap())
}

#[tokio::test]
async fn a_token_does_only_what_its_scopes_allow() {
    let db = temp_db("scopes");
    let _boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let clara = browser(&server, &client, "Clara").await;
    let (status, made) = new_token(
        &server,
        &client,
        &clara,
        &[("description", "my e-board"), ("scopes", "challenge:read")],
    )
    .await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["scopes"], "challenge:read");
    let reader = made["token"].as_str().unwrap().to_string();
    // Reading challenges and the account: allowed.
    let get = |path: &str| client.get(server.url(path)).bearer_auth(&reader);
    assert_eq!(status_of(get("/api/challenge")).await, 200);
    assert_eq!(status_of(get("/api/account")).await, 200);
    // Challenging and seeking: refused, saying which scope is missing.
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &reader,
        &[("clock.limit", "300")],
    )
    .await;
    refused_naming(status, &body, 403, "challenge:write");
    let (status, body) = post(
        &client,
        server.url("/api/board/seek"),
        &reader,
        &[("time", "5"), ("increment", "0")],
    )
    .await;
    refused_naming(status, &body, 403, "board:play");
    // Watching a game needs no scope; playing it over a socket needs board:play.
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris2").await;
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris2").await;
    let socket = |token: &str| format!("ws://{}/api/socket/game/{id}?token={token}", server.addr);
    let (mut watching, _) = tokio_tungstenite::connect_async(socket(&reader))
        .await
        .unwrap();
    let first = watching.next().await.unwrap().unwrap();
    assert!(
        first.to_text().unwrap().contains(r#""t":"full""#),
        "{first:?}"
    );
    let store = caissa_store::Store::open(&db).await.unwrap();
    let anna_id = store.user_by_name("Anna").await.unwrap().unwrap().id;
    let anna_reader = auth::issue_token(&store, anna_id, &[auth::Scope::ChallengeRead], "reader")
        .await
        .unwrap();
    let refused = tokio_tungstenite::connect_async(socket(&anna_reader)).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 403)
        }
        other => panic!("a player's socket without board:play: {other:?}"),
    }
    // A board client may challenge and accept with board:play alone, as on lichess.
    let (status, made) = new_token(
        &server,
        &client,
        &clara,
        &[("description", "board app"), ("scopes", "board:play")],
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let player = made["token"].as_str().unwrap().to_string();
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &player,
        &[("clock.limit", "300")],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // A scope that does not exist is named.
    let (status, body) = new_token(
        &server,
        &client,
        &clara,
        &[("description", "x"), ("scopes", "board:play email:write")],
    )
    .await;
    refused_naming(status, &body, 400, "email:write");
    server.task.abort();
}

#[tokio::test]
async fn a_revoked_token_stops_working_at_once() {
    let db = temp_db("revoke");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let dora = browser(&server, &client, "Dora").await;
    let mut tokens = Vec::new();
    for description in ["laptop", "phone"] {
        let (status, made) =
            new_token(&server, &client, &dora, &[("description", description)]).await;
        assert_eq!(status, 200, "{made}");
        assert_eq!(
            made["scopes"],
            "board:play,bot:play,challenge:read,challenge:write"
        );
        tokens.push(made["token"].as_str().unwrap().to_string());
    }
    let account =
        |token: String| status_of(client.get(server.url("/api/account")).bearer_auth(token));
    // Both work (and are now remembered by the server).
    for token in &tokens {
        assert_eq!(account(token.clone()).await, 200);
    }
    // A token cannot make tokens, nor list or revoke its owner's others.
    let (status, _) = post(
        &client,
        server.url("/api/token"),
        &tokens[0],
        &[("description", "more")],
    )
    .await;
    assert_eq!(status, 403);
    let listing = client.get(server.url("/api/token")).bearer_auth(&tokens[0]);
    assert_eq!(status_of(listing).await, 403);
    // lichess's token test: each token's user and scopes, null for a stranger.
    let tested: Value = client
        .post(server.url("/api/token/test"))
        .body(format!("{},cai_nonsense", tokens[0]))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(tested[&tokens[0]]["userId"], "dora");
    assert_eq!(
        tested[&tokens[0]]["scopes"],
        "board:play,bot:play,challenge:read,challenge:write"
    );
    assert_eq!(tested["cai_nonsense"], Value::Null);
    // The browser lists them newest first, by an id that is not the token.
    let listed: Value = client
        .get(server.url("/api/token"))
        .header("Cookie", &dora.0)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["description"], "phone");
    assert!(!listed
        .iter()
        .any(|t| tokens.contains(&t["id"].as_str().unwrap().to_string())));
    // Revoking the phone's from the browser; the laptop revokes its own.
    let phone = listed[0]["id"].as_str().unwrap();
    let revoke_phone = || {
        client
            .delete(server.url(&format!("/api/token/{phone}")))
            .header("Cookie", &dora.0)
            .header("X-CSRF-Token", &dora.1)
    };
    assert_eq!(status_of(revoke_phone()).await, 204);
    assert_eq!(account(tokens[1].clone()).await, 401);
    let revoke_own = client
        .delete(server.url("/api/token"))
        .bearer_auth(&tokens[0]);
    assert_eq!(status_of(revoke_own).await, 204);
    assert_eq!(account(tokens[0].clone()).await, 401);
    // A token already gone (or someone else's) is not found.
    assert_eq!(status_of(revoke_phone()).await, 404);
    server.task.abort();
}

#[tokio::test]
async fn a_socket_opened_with_a_revoked_token_can_no_longer_act() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let db = temp_db("revoke-socket");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    let url = format!("ws://{}/api/socket/game/{id}?token={anna}", server.addr);
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let revoke = client.delete(server.url("/api/token")).bearer_auth(&anna);
    assert_eq!(status_of(revoke).await, 204);
    socket
        .send(Message::Text(r#"{"t":"move","uci":"e2e4"}"#.into()))
        .await
        .unwrap();
    let mut texts = Vec::new();
    let closed = loop {
        let next = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("the socket answers");
        match next {
            Some(Ok(Message::Text(text))) => texts.push(text.to_string()),
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => {}
            other => panic!("{other:?} after {texts:?}"),
        }
    };
    assert!(
        texts.last().unwrap().contains("the token was revoked"),
        "{texts:?}"
    );
    assert_eq!(u16::from(closed.unwrap().code), 1008);
    // The move was not played.
    let game: Value = client
        .get(server.url(&format!("/game/export/{id}")))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(game["moves"], "", "{game}");
    server.task.abort();
}
