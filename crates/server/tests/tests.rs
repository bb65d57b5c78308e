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

mod api_tokens;
mod architecture;
mod board_games;
mod computer;
mod hostile;
mod laws;
mod learn;
mod lichess_compat;
mod lichess_reads;
mod lichess_streams;
mod lobby_socket;
mod online_play;
mod openapi;
mod puzzles;
mod ratings_and_accounts;
mod safety;
mod seat;
mod sockets;
