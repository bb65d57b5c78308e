//! End-to-end tests: the real server on an ephemeral port with a real SQLite file,
//! driven over HTTP like a lichess Board API client. With
//! `CAISSA_TEST_BACKEND=postgres` (and `CAISSA_TEST_POSTGRES` naming a server)
//! the same tests run on a fresh PostgreSQL database each instead.

use std::net::SocketAddr;
use std::time::Duration;

use caissa_server::{auth, AppState};
use caissa_store::Store;
use futures_util::StreamExt;
use serde_json::Value;

struct Server {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    async fn start(db: &str) -> Server {
        Server::start_with(db, caissa_server::Config::default()).await
    }

    /// A server with other limits than the defaults.
    async fn start_with(db: &str, config: caissa_server::Config) -> Server {
        let store = Store::open(db).await.unwrap();
        let state = AppState::with_config(store, config).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            caissa_server::serve_on(listener, state, std::future::pending())
                .await
                .unwrap();
        });
        Server { addr, task }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }
}

/// Whether these tests run on PostgreSQL (`CAISSA_TEST_BACKEND=postgres`).
fn on_postgres() -> bool {
    std::env::var("CAISSA_TEST_BACKEND").is_ok_and(|b| b == "postgres")
}

/// A fresh database for a test: a SQLite file, or a PostgreSQL database when
/// the tests run there.
fn temp_db(name: &str) -> String {
    if !on_postgres() {
        return caissa_store::scratch::sqlite_url(&format!("server-{name}"));
    }
    let name = format!("server_{name}");
    // Made on a thread of its own: the test's runtime is busy running the test.
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime
            .block_on(caissa_store::scratch::postgres_url(&name))
            .unwrap()
            .expect("CAISSA_TEST_BACKEND=postgres needs CAISSA_TEST_POSTGRES")
    })
    .join()
    .unwrap()
}

/// The URL of the database `temp_db(name)` made, without emptying it.
fn existing_db(name: &str) -> String {
    if on_postgres() {
        caissa_store::scratch::postgres_database_url(&format!("server_{name}"))
            .expect("CAISSA_TEST_BACKEND=postgres needs CAISSA_TEST_POSTGRES")
    } else {
        caissa_store::scratch::sqlite_existing_url(&format!("server-{name}"))
    }
}

async fn user_with_token(db: &str, name: &str) -> String {
    let store = Store::open(db).await.unwrap();
    let user = store
        .create_user(name, Some(&auth::hash_password("secret").unwrap()), 0)
        .await
        .unwrap();
    auth::issue_token(&store, user.id, &auth::SCOPES, "tests")
        .await
        .unwrap()
}

async fn post(
    client: &reqwest::Client,
    url: String,
    token: &str,
    form: &[(&str, &str)],
) -> (u16, Value) {
    let resp = client
        .post(url)
        .bearer_auth(token)
        .form(form)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let body = resp.json::<Value>().await.unwrap_or(Value::Null);
    (status, body)
}

/// Reads NDJSON lines (skipping keep-alives) until `done` says stop; fails after
/// 30 s without it.
async fn read_lines(resp: reqwest::Response, mut done: impl FnMut(&Value) -> bool) -> Vec<Value> {
    let mut stream = resp.bytes_stream();
    let mut buffer = Vec::new();
    let mut lines = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the awaited line never came; got {lines:?}"
        );
        let chunk = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("stream stalled");
        let Some(chunk) = chunk else { return lines };
        buffer.extend_from_slice(&chunk.unwrap());
        while let Some(i) = buffer.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = buffer.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line).trim().to_string();
            if text.is_empty() {
                continue;
            }
            let value: Value = serde_json::from_str(&text).unwrap();
            let stop = done(&value);
            lines.push(value);
            if stop {
                return lines;
            }
        }
    }
}

/// A challenge from `challenger` to Boris with `form`, accepted by Boris; the
/// game's id.
async fn boris_accepts(
    server: &Server,
    challenger: &str,
    boris: &str,
    form: &[(&str, &str)],
) -> String {
    let client = reqwest::Client::new();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        challenger,
        form,
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap().to_string();
    let url = server.url(&format!("/api/challenge/{id}/accept"));
    let (status, body) = post(&client, url, boris, &[]).await;
    assert_eq!(status, 200, "{body}");
    id
}

/// A game as `/game/export/{id}` gives it in JSON.
async fn exported(server: &Server, id: &str) -> Value {
    reqwest::Client::new()
        .get(server.url(&format!("/game/export/{id}")))
        .header("Accept", "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn challenge_and_accept(
    server: &Server,
    client: &reqwest::Client,
    a: &str,
    b: &str,
    b_name: &str,
) -> String {
    let (status, challenge) = post(
        client,
        server.url(&format!("/api/challenge/{b_name}")),
        a,
        &[
            ("clock.limit", "300"),
            ("clock.increment", "2"),
            ("color", "white"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap().to_string();
    let (status, body) = post(
        client,
        server.url(&format!("/api/challenge/{id}/accept")),
        b,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    id
}

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

#[tokio::test]
async fn a_rated_game_moves_both_ratings_and_ladder_points() {
    let db = temp_db("rated");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "300"),
            ("clock.increment", "0"),
            ("color", "white"),
            ("rated", "true"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["rated"], true);
    let id = challenge["id"].as_str().unwrap().to_string();
    post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    for (token, mv) in [
        (&anna, "f2f3"),
        (&boris, "e7e5"),
        (&anna, "g2g4"),
        (&boris, "d8h4"),
    ] {
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
    // Ratings are written when the game ends; give the finishing task a moment.
    let mut boris_profile = Value::Null;
    for _ in 0..50 {
        boris_profile = client
            .get(server.url("/api/user/boris"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if boris_profile["perfs"]["blitz"]["games"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let anna_profile: Value = client
        .get(server.url("/api/user/anna"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let winner = boris_profile["perfs"]["blitz"]["rating"].as_f64().unwrap();
    let loser = anna_profile["perfs"]["blitz"]["rating"].as_f64().unwrap();
    assert!(
        winner > 1500.0 && loser < 1500.0,
        "{boris_profile} {anna_profile}"
    );
    assert_eq!(boris_profile["perfs"]["blitz"]["games"], 1);
    assert_eq!(boris_profile["perfs"]["blitz"]["prov"], true);
    // lichess's perf shape: progress over the last games, and the speeds
    // never played at their starting values.
    assert_eq!(
        boris_profile["perfs"]["blitz"]["prog"].as_f64().unwrap(),
        (winner - 1500.0).round()
    );
    assert_eq!(boris_profile["perfs"]["rapid"]["games"], 0);
    assert_eq!(boris_profile["perfs"]["rapid"]["prov"], true);
    // Equal ladder points: the winner gains 10 and the loser loses 10 (scheme A).
    assert_eq!(boris_profile["ladder"]["points"], 10);
    assert_eq!(anna_profile["ladder"]["points"], -10);
    assert_eq!(boris_profile["ladder"]["level"], 30);
    let history: Value = client
        .get(server.url("/api/user/boris/rating-history"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(history[0]["name"], "blitz");
    assert_eq!(history[0]["points"].as_array().unwrap().len(), 1);
    // One game leaves both ratings provisional: nobody on the leaderboard yet.
    let top: Value = client
        .get(server.url("/api/player/top/10/blitz"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(top["users"], serde_json::json!([]), "{top}");
    for bad in ["/api/player/top/0/blitz", "/api/player/top/10/atomic"] {
        let (status, body) = (
            client
                .get(server.url(bad))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16(),
            bad,
        );
        assert_eq!(status, 400, "{body}");
    }
    // The export says how far each rating moved (lichess's ratingDiff).
    let exported: Value = client
        .get(server.url(&format!("/game/export/{id}?format=json")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let players = &exported["players"];
    assert_eq!(
        players["black"]["ratingDiff"].as_f64(),
        Some((winner - 1500.0).round()),
        "{exported}"
    );
    assert_eq!(
        players["white"]["ratingDiff"].as_f64(),
        Some((loser - 1500.0).round()),
        "{exported}"
    );
    // A casual game changes nothing.
    let unrated = user_with_token(&db, "Clara").await;
    let profile: Value = client
        .get(server.url("/api/user/clara"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(profile["ladder"]["level"], "unrated");
    drop(unrated);
    server.task.abort();
}

#[tokio::test]
async fn browsers_register_log_in_and_need_the_csrf_token_to_act() {
    let db = temp_db("accounts");
    let _boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let resp = client
        .post(server.url("/api/register"))
        .json(&serde_json::json!({ "username": "Clara", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let session = cookie.split(';').next().unwrap().to_string();
    let body: Value = resp.json().await.unwrap();
    let csrf = body["csrf"].as_str().unwrap().to_string();
    let me: Value = client
        .get(server.url("/api/account"))
        .header("Cookie", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["username"], "Clara");
    // A reloaded page recovers its CSRF token from the account.
    assert_eq!(me["csrf"], csrf.as_str());
    // A state change without the CSRF header is refused; with it, accepted.
    let url = server.url("/api/challenge/Boris");
    let refused = client
        .post(&url)
        .header("Cookie", &session)
        .form(&[("clock.limit", "60")])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 403);
    let accepted = client
        .post(&url)
        .header("Cookie", &session)
        .header("X-CSRF-Token", &csrf)
        .form(&[("clock.limit", "60")])
        .send()
        .await
        .unwrap();
    assert_eq!(accepted.status().as_u16(), 200);
    // The name is taken, whatever the case.
    let again = client
        .post(server.url("/api/register"))
        .json(&serde_json::json!({ "username": "clara", "password": "another password" }))
        .send()
        .await
        .unwrap();
    // A taken name is a conflict.
    assert_eq!(again.status().as_u16(), 409);
    // Wrong passwords: 401, then 429 after five in a minute; the right one logs in.
    let login = |password: &'static str| {
        client
            .post(server.url("/api/login"))
            .json(&serde_json::json!({ "username": "Clara", "password": password }))
            .send()
    };
    assert_eq!(login("correct horse").await.unwrap().status().as_u16(), 200);
    for _ in 0..5 {
        assert_eq!(login("wrong").await.unwrap().status().as_u16(), 401);
    }
    assert_eq!(login("wrong").await.unwrap().status().as_u16(), 429);
    // Guests get a generated name.
    let guest: Value = client
        .post(server.url("/api/guest"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        guest["username"].as_str().unwrap().starts_with("Guest-"),
        "{guest}"
    );
    server.task.abort();
}

#[tokio::test]
async fn the_ladder_ruleset_with_a_per_move_limit_applies_the_house_rules() {
    let db = temp_db("ladder");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "600"),
            ("clock.perMove", "30"),
            ("color", "white"),
            ("ruleset", "ladder"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["ruleset"], "ladder");
    let id = challenge["id"].as_str().unwrap().to_string();
    post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    // The online game's rule: no resignation before 15 moves.
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("15 moves"),
        "{body}"
    );
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("ruleset", "chaos")],
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("unknown ruleset"),
        "{body}"
    );
    let pools: Value = client
        .get(server.url("/api/pools"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(pools["pools"].as_array().unwrap().len(), 9);
    assert_eq!(pools["pools"][2]["id"], "3+2");
    server.task.abort();
}

mod api_tokens;
mod architecture;
mod computer;
mod hostile;
mod laws;
mod learn;
mod lichess_compat;
mod lichess_reads;
mod lobby_socket;
mod online_play;
mod openapi;
mod puzzles;
mod safety;
mod seat;
