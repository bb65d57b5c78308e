//! What the tests that run `caissa serve` as a process share: a temporary
//! directory, a free port, the server (killed when dropped), accounts with
//! tokens made in the store, a small HTTP client, and NDJSON streams read
//! line by line.
#![allow(dead_code)]

use std::collections::HashMap;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use caissa_store::Store;
use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::mpsc;

pub const BIN: &str = env!("CARGO_BIN_EXE_caissa");

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("caissa-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub struct ServerProcess(pub Child);

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn start(db: &str, port: u16) -> ServerProcess {
    start_with(db, port, &[])
}

/// `caissa serve` on `port` with more arguments, once it answers.
pub fn start_with(db: &str, port: u16, more: &[&str]) -> ServerProcess {
    let child = Command::new(BIN)
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", db])
        .args(more)
        .stdout(Stdio::null())
        // CAISSA_TEST_SERVER_LOG=1 shows the servers' logs.
        .stderr(match std::env::var_os("CAISSA_TEST_SERVER_LOG") {
            Some(_) => Stdio::inherit(),
            None => Stdio::null(),
        })
        .spawn()
        .unwrap();
    let mut server = ServerProcess(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !answers_health_check(port) {
        if let Some(status) = server.0.try_wait().unwrap() {
            panic!("the server exited before serving: {status}");
        }
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

/// Whether a Caissa server answers `/healthz` on `port` with 200. A bare TCP
/// connect is not enough: on loopback a connect to an unbound ephemeral port
/// can succeed by connecting to itself, and another test's server may be
/// starting on a port just handed out.
fn answers_health_check(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let request = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    if stream.write_all(request).is_err() {
        return false;
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer.starts_with(b"HTTP/1.1 200")
}

/// Accounts with tokens, made in the store before the server starts.
pub async fn accounts(db: &str, names: &[String]) -> HashMap<String, String> {
    let store = Store::open(db).await.unwrap();
    let mut tokens = HashMap::new();
    for name in names {
        let user = store.create_user(name, None, 0).await.unwrap();
        let token = caissa_server::auth::issue_token(
            &store,
            user.id,
            &caissa_server::auth::SCOPES,
            "tests",
        )
        .await
        .unwrap();
        tokens.insert(name.clone(), token);
    }
    tokens
}

pub struct Api {
    pub base: String,
    pub client: reqwest::Client,
}

impl Api {
    pub async fn post(&self, path: &str, token: &str, form: &[(&str, String)]) -> (u16, Value) {
        match self
            .client
            .post(format!("{}{path}", self.base))
            .bearer_auth(token)
            .form(form)
            .send()
            .await
        {
            Ok(resp) => {
                let status = resp.status().as_u16();
                (status, resp.json().await.unwrap_or(Value::Null))
            }
            Err(_) => (0, Value::Null),
        }
    }

    pub async fn get_text(&self, path: &str) -> Option<String> {
        let resp = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .ok()?;
        if !resp.status().is_success() {
            return None;
        }
        resp.text().await.ok()
    }

    /// `GET path` with no token: the status and the JSON body (null if none).
    pub async fn get_json(&self, path: &str) -> (u16, Value) {
        match self.client.get(format!("{}{path}", self.base)).send().await {
            Ok(resp) => {
                let status = resp.status().as_u16();
                (status, resp.json().await.unwrap_or(Value::Null))
            }
            Err(_) => (0, Value::Null),
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Option<Value> {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let resp = request.send().await.ok()?;
        if !resp.status().is_success() {
            return None;
        }
        resp.json().await.ok()
    }
}

/// The NDJSON lines of a stream, as they come.
pub async fn follow(api: &Api, path: &str, token: Option<&str>) -> mpsc::UnboundedReceiver<Value> {
    follow_closable(api, path, token).await.0
}

/// The NDJSON lines of a stream, and the task reading it (aborted: the
/// connection is closed).
pub async fn follow_closable(
    api: &Api,
    path: &str,
    token: Option<&str>,
) -> (mpsc::UnboundedReceiver<Value>, tokio::task::JoinHandle<()>) {
    let mut request = api.client.get(format!("{}{path}", api.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    let (tx, rx) = mpsc::unbounded_channel();
    let mut bytes = response.bytes_stream();
    let reading = tokio::spawn(async move {
        let mut pending = Vec::new();
        while let Some(Ok(chunk)) = bytes.next().await {
            pending.extend_from_slice(&chunk);
            while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                if let Ok(value) = serde_json::from_slice::<Value>(&line) {
                    if tx.send(value).is_err() {
                        return;
                    }
                }
            }
        }
    });
    (rx, reading)
}

/// Lines until one satisfies `done` (within 10 s); the lines read.
pub async fn until(
    rx: &mut mpsc::UnboundedReceiver<Value>,
    done: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let line = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .unwrap_or_else(|_| panic!("the stream did not get there; it said {seen:?}"))
            .expect("the stream ended");
        let stop = done(&line);
        seen.push(line);
        if stop {
            return seen;
        }
    }
}
