//! `caissa db migrate` and `caissa serve` on PostgreSQL, as processes: an
//! installation played on SQLite, moved to PostgreSQL (checked table by table,
//! a second run a no-op), served from there with its tokens and games, and
//! moved back. PostgreSQL is the server `CAISSA_TEST_POSTGRES` names
//! (`scripts/test.sh` starts one); without it these tests say so and pass.

mod support;

use std::process::{Command, Output};

use caissa_store::scratch;
use support::{free_port, start, BIN};

/// How `db migrate` counts the installation's tables: all of them.
fn every_table() -> String {
    format!("in {} tables", caissa_store::rows::Table::ALL.len())
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn succeeds(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "caissa {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Stops a server as an operator does (SIGTERM) and waits for it to exit.
fn stop(mut server: support::ServerProcess) {
    let pid = server.0.id().to_string();
    let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(sent.success());
    let status = server.0.wait().unwrap();
    assert!(status.success(), "the server exited with {status}");
}

fn fails(args: &[&str]) -> String {
    let out = run(args);
    assert!(!out.status.success(), "caissa {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A request with a bearer token and a form: (status, body).
fn request(port: u16, method: &str, path: &str, token: &str, form: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        form.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

fn get(port: u16, path: &str, token: &str) -> (u16, String) {
    request(port, "GET", path, token, "")
}

fn post(port: u16, path: &str, token: &str) -> (u16, String) {
    request(port, "POST", path, token, "")
}

/// An installation on SQLite with two accounts, a token each and a game of
/// three moves, Anna White: (database URL, Anna's token, Boris's token, the
/// game).
fn played_installation(name: &str) -> (String, String, String, String) {
    let db = scratch::sqlite_url(name);
    let mut tokens = Vec::new();
    for player in ["Anna", "Boris"] {
        succeeds(&["user", "create", player, "--password", "pw", "--db", &db]);
        let out = succeeds(&["token", "create", player, "--db", &db]);
        tokens.push(out.lines().last().unwrap().trim().to_string());
    }
    let (anna, boris) = (tokens[0].clone(), tokens[1].clone());
    let port = free_port();
    let _server = start(&db, port);
    let (status, body) = request(port, "POST", "/api/challenge/Boris", &anna, "color=white");
    assert_eq!(status, 200, "{body}");
    let challenge: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = challenge["id"].as_str().unwrap().to_string();
    assert_eq!(
        post(port, &format!("/api/challenge/{id}/accept"), &boris).0,
        200
    );
    for (i, mv) in ["e2e4", "e7e5", "g1f3"].iter().enumerate() {
        let token = if i % 2 == 0 { &anna } else { &boris };
        let path = format!("/api/board/game/{id}/move/{mv}");
        assert_eq!(post(port, &path, token).0, 200, "{mv}");
    }
    (db, anna, boris, id)
}

#[test]
fn migrate_moves_an_installation_to_postgres_and_a_server_there_serves_it() {
    let Some(pg) = postgres("migrate_to_pg") else {
        return;
    };
    let (sqlite, anna, boris, id) = played_installation("migrate-source");
    let said = succeeds(&["db", "migrate", "--from", &sqlite, "--to", &pg]);
    assert!(
        said.contains(&every_table()) && !said.contains(", 0 new"),
        "{said}"
    );
    // A second run copies nothing and still checks every table.
    let again = succeeds(&["db", "migrate", "--from", &sqlite, "--to", &pg]);
    assert!(again.contains(", 0 new;"), "{again}");
    // The tokens work there, and the game goes on where it was.
    let port = free_port();
    let server = start(&pg, port);
    let (status, account) = get(port, "/api/account", &anna);
    assert_eq!(status, 200, "{account}");
    assert!(account.contains("\"Anna\""), "{account}");
    let (status, pgn) = get(port, &format!("/game/export/{id}"), &anna);
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("1. e4 e5 2. Nf3"), "{pgn}");
    let (status, body) = post(port, &format!("/api/board/game/{id}/move/b8c6"), &boris);
    assert_eq!(status, 200, "{body}");
    // A second server on the same PostgreSQL database joins it as another
    // node and serves the same installation; a migration into it is refused
    // while any node runs.
    let second_port = free_port();
    let second = start(&pg, second_port);
    let (status, pgn) = get(second_port, &format!("/game/export/{id}"), &anna);
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("2. Nf3 Nc6"), "{pgn}");
    let busy = fails(&["db", "migrate", "--from", &sqlite, "--to", &pg]);
    assert!(busy.contains("stop it first"), "{busy}");
    // Stopped as an operator stops them (SIGTERM), the nodes leave at once.
    stop(second);
    stop(server);
    // And back to a new SQLite file, the fourth move included.
    let back = scratch::sqlite_url("migrate-back");
    let said = succeeds(&["db", "migrate", "--from", &pg, "--to", &back]);
    assert!(said.contains(&every_table()), "{said}");
    let port = free_port();
    let _server = start(&back, port);
    let (status, pgn) = get(port, &format!("/game/export/{id}"), &boris);
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("2. Nf3 Nc6"), "{pgn}");
}

#[test]
fn migrate_refuses_a_running_servers_database_and_names_a_bad_url() {
    let (sqlite, _, _, _) = played_installation("migrate-busy");
    let port = free_port();
    let _server = start(&sqlite, port);
    let elsewhere = scratch::sqlite_url("migrate-busy-target");
    succeeds(&["user", "create", "Carl", "--db", &elsewhere]);
    let busy = fails(&["db", "migrate", "--from", &sqlite, "--to", &elsewhere]);
    assert!(busy.contains("already using"), "{busy}");
    let bad = fails(&[
        "db",
        "migrate",
        "--from",
        &elsewhere,
        "--to",
        "mysql://db/caissa",
    ]);
    assert!(
        bad.contains("unsupported database URL") && bad.contains("mysql://db/caissa"),
        "{bad}"
    );
    let same = fails(&["db", "migrate", "--from", &elsewhere, "--to", &elsewhere]);
    assert!(same.contains("the same database"), "{same}");
    let missing = fails(&[
        "db",
        "migrate",
        "--from",
        "sqlite:///nowhere/caissa.db",
        "--to",
        &elsewhere,
    ]);
    assert!(
        missing.contains("no database at /nowhere/caissa.db"),
        "{missing}"
    );
    // A password in a URL is never printed.
    let hidden = fails(&[
        "db",
        "migrate",
        "--from",
        &elsewhere,
        "--to",
        "postgres://caissa:hunter2@127.0.0.1:1/caissa",
    ]);
    assert!(
        !hidden.contains("hunter2") && hidden.contains("caissa:***@"),
        "{hidden}"
    );
}

/// A fresh PostgreSQL database for `name`, made on a runtime of its own.
fn postgres(name: &str) -> Option<String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(scratch::postgres_url(name))
        .unwrap()
}
