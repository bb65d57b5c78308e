//! What one hostile (or careless) user can no longer do to everyone else, each
//! tried on a real port: hold streams, connections or memory without bound, race
//! the login limit, play rated as a throwaway guest, swap a visitor's session
//! from another site, flood someone with challenges, put control characters in
//! the chat, frame the pages.

use std::collections::HashMap;
use std::time::Duration;

use caissa_server::http::limits::{Budget, Kind};
use caissa_server::Config;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

use crate::{challenge_and_accept, post, temp_db, user_with_token, Server};

/// A browser session: (cookie header, CSRF token).
async fn guest(server: &Server, client: &reqwest::Client) -> (String, String) {
    let resp = client.post(server.url("/api/guest")).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    let body: Value = resp.json().await.unwrap();
    (
        cookie.split(';').next().unwrap().to_string(),
        body["csrf"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn one_user_cannot_hold_more_event_streams_than_allowed() {
    let db = temp_db("streams-cap");
    let anna = user_with_token(&db, "Anna").await;
    let config = Config {
        max_event_streams_per_user: 4,
        ..Config::default()
    };
    let server = Server::start_with(&db, config).await;
    let client = reqwest::Client::new();
    let mut open = Vec::new();
    for _ in 0..4 {
        let resp = client
            .get(server.url("/api/stream/event"))
            .bearer_auth(&anna)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 200);
        open.push(resp);
    }
    let refused = client
        .get(server.url("/api/stream/event"))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    // Closing one frees its place.
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let again = client
        .get(server.url("/api/stream/event"))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 200);
}

#[tokio::test]
async fn registrations_and_guests_are_limited_per_address() {
    let db = temp_db("register-cap");
    let config = Config {
        budgets: HashMap::from([
            (
                Kind::Register,
                Budget {
                    burst: 2.0,
                    refill_ms: 60_000.0,
                },
            ),
            (
                Kind::Guest,
                Budget {
                    burst: 2.0,
                    refill_ms: 60_000.0,
                },
            ),
        ]),
        limit_loopback: true,
        ..Config::default()
    };
    let server = Server::start_with(&db, config).await;
    let client = reqwest::Client::new();
    let register = |name: &'static str| {
        let client = client.clone();
        let url = server.url("/api/register");
        async move {
            client
                .post(url)
                .json(&serde_json::json!({ "username": name, "password": "long enough" }))
                .send()
                .await
                .unwrap()
        }
    };
    assert_eq!(register("one").await.status().as_u16(), 200);
    assert_eq!(register("two").await.status().as_u16(), 200);
    let third = register("three").await;
    assert_eq!(third.status().as_u16(), 429);
    assert!(third.headers().contains_key("retry-after"));
    for expected in [200, 200, 429] {
        let resp = client.post(server.url("/api/guest")).send().await.unwrap();
        assert_eq!(resp.status().as_u16(), expected);
    }
}

#[tokio::test]
async fn logins_sent_all_at_once_are_counted_before_they_are_checked() {
    let db = temp_db("login-race");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let made = client
        .post(server.url("/api/register"))
        .json(&serde_json::json!({ "username": "clara", "password": "the right one" }))
        .send()
        .await
        .unwrap();
    assert_eq!(made.status().as_u16(), 200);
    let tries: Vec<_> = (0..40)
        .map(|_| {
            let client = client.clone();
            let url = server.url("/api/login");
            tokio::spawn(async move {
                client
                    .post(url)
                    .json(&serde_json::json!({ "username": "clara", "password": "a guess" }))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tries {
        statuses.push(t.await.unwrap());
    }
    let checked = statuses.iter().filter(|&&s| s == 401).count();
    let refused = statuses.iter().filter(|&&s| s == 429).count();
    assert_eq!(checked, 5, "{statuses:?}");
    assert_eq!(refused, 35, "{statuses:?}");
}

#[tokio::test]
async fn guests_cannot_play_rated_games() {
    let db = temp_db("guest-rated");
    let anna = user_with_token(&db, "Anna").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (cookie, csrf) = guest(&server, &client).await;
    let as_guest = |path: &str, form: &'static [(&'static str, &'static str)]| {
        client
            .post(server.url(path))
            .header("cookie", &cookie)
            .header("x-csrf-token", &csrf)
            .form(form)
            .send()
    };
    let rated = &[("rated", "true"), ("clock.limit", "300")];
    let refused = as_guest("/api/challenge/anna", rated).await.unwrap();
    assert_eq!(refused.status().as_u16(), 403);
    let words: Value = refused.json().await.unwrap();
    assert!(
        words["error"].as_str().unwrap().contains("guest"),
        "{words}"
    );
    let seek = as_guest(
        "/api/board/seek",
        &[("rated", "true"), ("time", "5"), ("increment", "0")],
    )
    .await
    .unwrap();
    assert_eq!(seek.status().as_u16(), 403);
    // A rated challenge made to the guest cannot be accepted by the guest either.
    let account: Value = client
        .get(server.url("/api/account"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let name = account["username"].as_str().unwrap();
    let (status, challenge) = post(
        &client,
        server.url(&format!("/api/challenge/{name}")),
        &anna,
        &[("rated", "true"), ("clock.limit", "300")],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap();
    let accept = client
        .post(server.url(&format!("/api/challenge/{id}/accept")))
        .header("cookie", &cookie)
        .header("x-csrf-token", &csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(accept.status().as_u16(), 403);
    // Casual games are fine.
    let casual = as_guest("/api/challenge/anna", &[("clock.limit", "300")])
        .await
        .unwrap();
    assert_eq!(casual.status().as_u16(), 200);
}

#[tokio::test]
async fn a_cross_site_form_cannot_swap_a_visitors_session() {
    let db = temp_db("cross-site");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    for path in ["/api/guest", "/api/login", "/api/register"] {
        let resp = client
            .post(server.url(path))
            .header("origin", "https://elsewhere.example")
            .form(&[("username", "mallory"), ("password", "long enough pw")])
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 403, "{path}");
        assert!(!resp.headers().contains_key("set-cookie"), "{path}");
    }
    // The site's own pages may.
    let origin = format!("http://{}", server.addr);
    let ours = client
        .post(server.url("/api/guest"))
        .header("origin", origin)
        .send()
        .await
        .unwrap();
    assert_eq!(ours.status().as_u16(), 200);
}

#[tokio::test]
async fn sessions_expire_on_the_server() {
    let db = temp_db("session-ttl");
    let config = Config {
        session_ttl: Duration::from_secs(1),
        ..Config::default()
    };
    let server = Server::start_with(&db, config).await;
    let client = reqwest::Client::new();
    let (cookie, _) = guest(&server, &client).await;
    let account = |cookie: String| {
        let client = client.clone();
        let url = server.url("/api/account");
        async move {
            client
                .get(url)
                .header("cookie", cookie)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!(account(cookie.clone()).await, 200);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(account(cookie).await, 401);
}

#[tokio::test]
async fn one_user_cannot_pile_up_challenges_on_another() {
    let db = temp_db("challenge-cap");
    let anna = user_with_token(&db, "Anna").await;
    let _boris = user_with_token(&db, "Boris").await;
    let config = Config {
        max_pending_challenges: 3,
        ..Config::default()
    };
    let server = Server::start_with(&db, config).await;
    let client = reqwest::Client::new();
    for _ in 0..3 {
        let (status, body) = post(&client, server.url("/api/challenge/boris"), &anna, &[]).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = post(&client, server.url("/api/challenge/boris"), &anna, &[]).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("waiting"),
        "{body}"
    );
}

#[tokio::test]
async fn chat_lines_lose_their_control_characters() {
    let db = temp_db("chat-control");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "boris").await;
    let url = server.url(&format!("/api/board/game/{id}/chat"));
    let (status, _) = post(
        &client,
        url.clone(),
        &anna,
        &[
            ("room", "player"),
            ("text", "good\u{7} game\u{0}\u{202e}\nwell played"),
        ],
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = post(
        &client,
        url.clone(),
        &anna,
        &[("room", "player"), ("text", "\u{1}\u{2}")],
    )
    .await;
    assert_eq!(
        status, 400,
        "a line of nothing but control characters is empty"
    );
    let lines: Value = client
        .get(url)
        .bearer_auth(&boris)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(lines[0]["text"], "good game well played");
}

#[tokio::test]
async fn pages_cannot_be_framed_nor_their_files_sniffed() {
    let db = temp_db("headers");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    for path in ["/", "/game/x", "/static/js/app.js", "/api/pools"] {
        let resp = client.get(server.url(path)).send().await.unwrap();
        let h = resp.headers();
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
    }
    // A missing file's name comes back in valid JSON, whatever it holds.
    let resp = client
        .get(server.url("/static/a%5Cb%0Ac%22d"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 404);
    let body: Value = resp.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("a\\b\nc\"d"),
        "{body}"
    );
}

#[tokio::test]
async fn a_finished_game_leaves_memory_and_is_served_from_the_store() {
    let db = temp_db("evict");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let config = Config {
        finished_game_kept: Duration::from_millis(100),
        ..Config::default()
    };
    let server = Server::start_with(&db, config).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "boris").await;
    let loaded = || async {
        let text = client
            .get(server.url("/metrics"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("caissa_games_loaded "))
            .unwrap()
            .to_string()
    };
    assert_eq!(loaded().await, "1");
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/abort")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while loaded().await != "0" {
        assert!(
            std::time::Instant::now() < deadline,
            "the game stayed in memory"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pgn = client
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(pgn.status().as_u16(), 200);
    assert!(pgn.text().await.unwrap().contains(&id));
}

#[tokio::test]
async fn a_cancel_racing_the_accept_never_answers_not_found() {
    let db = temp_db("accept-cancel");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let config = Config {
        budgets: HashMap::from([(
            Kind::Seek,
            Budget {
                burst: 100.0,
                refill_ms: 100.0,
            },
        )]),
        ..Config::default()
    };
    let server = Server::start_with(&db, config).await;
    let client = reqwest::Client::new();
    for _ in 0..20 {
        let (status, challenge) =
            post(&client, server.url("/api/challenge/boris"), &anna, &[]).await;
        assert_eq!(status, 200, "{challenge}");
        let id = challenge["id"].as_str().unwrap().to_string();
        let accept = post(
            &client,
            server.url(&format!("/api/challenge/{id}/accept")),
            &boris,
            &[],
        );
        let cancel = post(
            &client,
            server.url(&format!("/api/challenge/{id}/cancel")),
            &anna,
            &[],
        );
        let ((accepted, a), (cancelled, c)) = tokio::join!(accept, cancel);
        // Either the cancel came first (and the accept finds nothing), or the
        // game started and the cancel aborted it.
        assert_eq!(cancelled, 200, "cancel: {c}; accept: {accepted} {a}");
        assert!(accepted == 200 || accepted == 404, "accept: {accepted} {a}");
        if accepted == 200 {
            let game: Value = client
                .get(server.url(&format!("/game/export/{id}?format=json")))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            assert_eq!(game["status"], "aborted", "{game}");
        }
    }
}

/// A game's socket for a player (a bearer header over HTTP/1.1).
async fn player_socket(
    server: &Server,
    id: &str,
    token: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/api/socket/game/{id}", server.addr)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// The next JSON message of type `t`, skipping others.
async fn next_of(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    t: &str,
) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["t"] == t {
                return value;
            }
        }
    }
}

#[tokio::test]
async fn a_move_for_a_position_already_gone_is_refused_as_stale() {
    let db = temp_db("stale-ply");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "boris").await;
    let mut ws = player_socket(&server, &id, &anna).await;
    next_of(&mut ws, "full").await;
    let send = |text: &str| Message::Text(text.to_string().into());
    ws.send(send(r#"{"t":"move","uci":"e2e4","ply":3}"#))
        .await
        .unwrap();
    let refused = next_of(&mut ws, "error").await;
    assert_eq!(refused["status"], 409, "{refused}");
    assert_eq!(refused["error"], "stale ply: expected 0");
    ws.send(send(r#"{"t":"move","uci":"e2e4","ply":0}"#))
        .await
        .unwrap();
    next_of(&mut ws, "ack").await;
    // Without a ply, as older clients send it, a move is taken as it comes.
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/e7e5")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    ws.send(send(r#"{"t":"move","uci":"g1f3"}"#)).await.unwrap();
    next_of(&mut ws, "ack").await;
    // Over the Board API too.
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/b8c6?ply=1")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "stale ply: expected 3");
    // An unknown message is a 400 naming it.
    ws.send(send(r#"{"t":"castle-queenside"}"#)).await.unwrap();
    let unknown = next_of(&mut ws, "error").await;
    assert_eq!(unknown["status"], 400, "{unknown}");
    assert!(unknown["error"]
        .as_str()
        .unwrap()
        .contains("castle-queenside"));
}

/// The legal moves of `fen` grouped as `dests` writes them, from the rules.
fn expected_dests(
    fen: &str,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let pos = caissa_rules::Position::from_fen(fen).unwrap();
    let mut out: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for m in pos.legal_moves().iter() {
        let uci = pos.to_uci(*m);
        out.entry(uci[..2].to_string())
            .or_default()
            .insert(uci[2..4].to_string());
    }
    out
}

fn read_dests(
    text: &str,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    text.split_whitespace()
        .map(|group| {
            let to = group.as_bytes()[2..]
                .chunks(2)
                .map(|c| String::from_utf8(c.to_vec()).unwrap())
                .collect();
            (group[..2].to_string(), to)
        })
        .collect()
}

#[tokio::test]
async fn every_move_message_carries_the_move_and_the_next_legal_moves() {
    let db = temp_db("move-messages");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "boris").await;
    let mut ws = player_socket(&server, &id, &boris).await;
    let full = next_of(&mut ws, "full").await;
    assert_eq!(
        read_dests(full["state"]["dests"].as_str().unwrap()),
        expected_dests(full["state"]["fen"].as_str().unwrap())
    );
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    for (token, uci, san) in [
        (&anna, "e2e4", "e4"),
        (&boris, "f7f6", "f6"),
        (&anna, "d1h5", "Qh5+"),
    ] {
        let (status, _) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{uci}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200);
        let state = next_of(&mut ws, "state").await;
        assert_eq!(state["uci"], uci, "{state}");
        assert_eq!(state["san"], san, "{state}");
        let fen = state["fen"].as_str().unwrap();
        assert_eq!(state["check"], san.ends_with('+'), "{state}");
        assert_eq!(
            read_dests(state["dests"].as_str().unwrap()),
            expected_dests(fen),
            "{state}"
        );
        assert!(state["wtime"].is_u64() && state["btime"].is_u64());
    }
    // The NDJSON stream carries the same.
    let mut seen = Vec::new();
    crate::read_lines(stream, |line| {
        if line["type"] == "gameState" {
            seen.push((
                line["uci"].clone(),
                line["san"].clone(),
                line["ply"].clone(),
            ));
        }
        seen.len() == 3
    })
    .await;
    assert_eq!(seen[2].0, "d1h5");
    assert_eq!(seen[2].1, "Qh5+");
    assert_eq!(seen[2].2, 3);
}

#[tokio::test]
async fn silent_connections_and_slow_headers_are_cut_off() {
    let db = temp_db("timeouts");
    let config = Config {
        header_read_timeout: Duration::from_millis(500),
        idle_timeout: Duration::from_millis(500),
        ..Config::default()
    };
    let server = Server::start_with(&db, config).await;
    // A connection that says nothing is closed.
    let mut silent = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut buf = [0u8; 256];
    let n = tokio::time::timeout(Duration::from_secs(10), silent.read(&mut buf))
        .await
        .expect("closed in time")
        .unwrap_or(0);
    assert_eq!(n, 0, "the silent connection got {:?}", &buf[..n]);
    // Headers that never end are cut off too.
    let mut slow = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), slow.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the slow connection was not closed");
    // Everyone else is served meanwhile, and a newcomer that takes a moment to
    // speak (less than the timeout) is served too, however long the server has
    // been up (its silence counts from when it came).
    let ok = reqwest::get(server.url("/healthz")).await.unwrap();
    assert_eq!(ok.status().as_u16(), 200);
    for _ in 0..20 {
        let mut late = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        late.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = String::new();
        late.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    }
}

#[tokio::test]
async fn beyond_the_connection_limit_a_newcomer_is_told_to_come_back() {
    let db = temp_db("conn-limit");
    let config = Config {
        max_connections: Some(3),
        ..Config::default()
    };
    let server = Server::start_with(&db, config).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut extra = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(5), extra.read_to_string(&mut answer))
        .await
        .expect("answered at once")
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("retry-after"), "{answer}");
    // A place freed is a place taken.
    held.clear();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let ok = reqwest::get(server.url("/healthz")).await.unwrap();
    assert_eq!(ok.status().as_u16(), 200);
}

#[tokio::test]
async fn a_corrupt_stored_event_is_the_servers_fault_told_without_its_details() {
    let db = temp_db("corrupt");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "boris").await;
    for (token, uci) in [(&anna, "e2e4"), (&boris, "e7e5")] {
        let (status, _) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{uci}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200);
    }
    server.task.abort();
    let corrupt =
        "UPDATE game_events SET event = '{\"not\": an event' WHERE game_id = $1 AND seq = 3";
    if crate::on_postgres() {
        let pool = sqlx::PgPool::connect(&db).await.unwrap();
        sqlx::query(corrupt).bind(&id).execute(&pool).await.unwrap();
        pool.close().await;
    } else {
        let pool = sqlx::SqlitePool::connect(&db).await.unwrap();
        sqlx::query(corrupt).bind(&id).execute(&pool).await.unwrap();
        pool.close().await;
    }
    let server = Server::start(&db).await;
    let resp = client
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 500);
    let body: Value = resp.json().await.unwrap();
    let words = body["error"].as_str().unwrap();
    assert!(
        !words.contains("event") && !words.contains("not"),
        "{words}"
    );
    // Everything else still works.
    let (status, _) = post(&client, server.url("/api/challenge/boris"), &anna, &[]).await;
    assert_eq!(status, 200);
}
