//! The server as a process: `caissa serve` with accounts made by `caissa user
//! create` and `caissa token create`, driven by a real lichess client (the Python
//! `berserk` package, installed by the test script) and killed with SIGKILL.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use support::{free_port, start, temp_dir, BIN};

fn db_url(dir: &Path) -> String {
    format!("sqlite://{}", dir.join("caissa.db").display())
}

fn caissa(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "caissa {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn account_with_token(db: &str, name: &str) -> String {
    caissa(&["user", "create", name, "--password", "secret", "--db", db]);
    let out = caissa(&["token", "create", name, "--db", db]);
    out.lines().last().unwrap().trim().to_string()
}

/// A tiny HTTP/1.1 client, enough for form POSTs and GETs in these tests.
fn http(port: u16, method: &str, path: &str, token: &str, body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[test]
fn berserk_plays_a_whole_game_against_caissa() {
    let dir = temp_dir("berserk");
    let db = db_url(&dir);
    let white = account_with_token(&db, "Anna");
    let black = account_with_token(&db, "Boris");
    let port = free_port();
    let _server = start(&db, port);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/berserk_game.py");
    let out = Command::new("python3")
        .arg(&script)
        .args([&format!("http://127.0.0.1:{port}"), &white, &black, "Boris"])
        .output()
        .expect("python3 with the berserk package is needed (scripts/test.sh installs it)");
    assert!(
        out.status.success(),
        "berserk failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn berserk_plays_as_a_bot_and_reads_what_clients_read() {
    let dir = temp_dir("berserk-bot");
    let db = db_url(&dir);
    let person = account_with_token(&db, "Anna");
    let bot = account_with_token(&db, "Tin-Bot");
    let port = free_port();
    let _server = start(&db, port);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/berserk_bot.py");
    let out = Command::new("python3")
        .arg(&script)
        .args([
            &format!("http://127.0.0.1:{port}"),
            &person,
            "Anna",
            &bot,
            "Tin-Bot",
        ])
        .output()
        .expect("python3 with the berserk package is needed (scripts/test.sh installs it)");
    assert!(
        out.status.success(),
        "berserk failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn sigkill_loses_no_acknowledged_move() {
    let dir = temp_dir("sigkill");
    let db = db_url(&dir);
    let white = account_with_token(&db, "Anna");
    let black = account_with_token(&db, "Boris");
    let port = free_port();
    let server = start(&db, port);
    let (status, body) = http(
        port,
        "POST",
        "/api/challenge/Boris",
        &white,
        "clock.limit=600&clock.increment=5&color=white",
    );
    assert_eq!(status, 200, "{body}");
    let challenge: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = challenge["id"].as_str().unwrap().to_string();
    assert_eq!(
        http(
            port,
            "POST",
            &format!("/api/challenge/{id}/accept"),
            &black,
            ""
        )
        .0,
        200
    );
    let moves = ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4"];
    for (i, mv) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { &white } else { &black };
        let (status, body) = http(
            port,
            "POST",
            &format!("/api/board/game/{id}/move/{mv}"),
            token,
            "",
        );
        assert_eq!(status, 200, "{mv}: {body}");
    }
    // Black thinks for 3 s, then the server dies (SIGKILL: no shutdown code runs
    // at all) and stays down for 3 s.
    let black_time = || {
        let (status, body) = http(port, "GET", "/api/tv", &white, "");
        assert_eq!(status, 200, "{body}");
        let full: serde_json::Value = serde_json::from_str(&body).unwrap();
        full["state"]["btime"].as_i64().unwrap()
    };
    let before = black_time();
    std::thread::sleep(Duration::from_secs(3));
    let mut server = server;
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    drop(server);
    std::thread::sleep(Duration::from_secs(3));
    let _server = start(&db, port);
    // Black's clock was charged for the thinking (up to the server's last
    // heartbeat, a second at most before it died), not for the downtime.
    let charged = before - black_time();
    assert!((1_800..=4_500).contains(&charged), "charged {charged} ms");
    let (status, pgn) = http(port, "GET", &format!("/game/export/{id}"), &white, "");
    assert_eq!(status, 200);
    assert!(pgn.contains("1. e4 {") && pgn.contains("3. d4 {"), "{pgn}");
    // The game goes on where it was.
    let (status, body) = http(
        port,
        "POST",
        &format!("/api/board/game/{id}/move/c5d4"),
        &black,
        "",
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn token_create_gives_only_the_scopes_asked_for_and_names_an_unknown_one() {
    let dir = temp_dir("scopes");
    let db = db_url(&dir);
    caissa(&["user", "create", "Anna", "--db", &db]);
    caissa(&["user", "create", "Boris", "--db", &db]);
    let out = caissa(&[
        "token",
        "create",
        "Anna",
        "--scopes",
        "challenge:read",
        "--db",
        &db,
    ]);
    let reader = out.lines().last().unwrap().trim().to_string();
    let bad = Command::new(BIN)
        .args([
            "token",
            "create",
            "Anna",
            "--scopes",
            "board:play,bot:cheat",
        ])
        .args(["--db", &db])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(stderr.contains("bot:cheat"), "{stderr}");
    let port = free_port();
    let _server = start(&db, port);
    assert_eq!(http(port, "GET", "/api/challenge", &reader, "").0, 200);
    let (status, body) = http(
        port,
        "POST",
        "/api/challenge/Boris",
        &reader,
        "clock.limit=300",
    );
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("challenge:write"), "{body}");
}

#[test]
fn a_second_server_on_the_same_sqlite_file_is_refused_with_the_reason() {
    let dir = temp_dir("second");
    let db = db_url(&dir);
    let port = free_port();
    let _first = start(&db, port);
    let out = Command::new(BIN)
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{}", free_port()),
            "--db",
            &db,
        ])
        .output()
        .unwrap();
    assert!(!out.status.success(), "the second server ran");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("already using"), "{stderr}");
    // The first still serves.
    let (status, _) = http(port, "GET", "/healthz", "", "");
    assert_eq!(status, 200);
}

#[test]
fn each_request_is_one_log_line_its_path_quoted_and_no_token_in_it() {
    use std::io::{BufRead, BufReader, Write};
    let dir = temp_dir("request-log");
    let db = db_url(&dir);
    let port = free_port();
    let mut child = Command::new(BIN)
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", &db])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    for line in lines.by_ref() {
        if line.unwrap().contains("listening on") {
            break;
        }
    }
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "GET /api/x%0A2026%20INFO%20forged?token=cai_secret HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    let line = lines
        .map(Result::unwrap)
        .find(|l| l.contains("caissa::request"))
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.contains(r#"GET "/api/x%0A2026%20INFO%20forged" 404"#),
        "{line}"
    );
    assert!(!line.contains("cai_secret"), "{line}");
    assert!(line.ends_with("ms"), "{line}");
}

#[test]
fn user_grant_and_revoke_give_and_take_the_arbiters_seat() {
    let dir = temp_dir("grant");
    let db = db_url(&dir);
    let olga = account_with_token(&db, "Olga");
    let out = caissa(&["user", "grant", "Olga", "arbiter", "--db", &db]);
    assert!(out.contains("granted arbiter to Olga"), "{out}");
    let out = caissa(&["user", "grant", "Olga", "arbiter", "--db", &db]);
    assert!(out.contains("already held"), "{out}");
    let bad = Command::new(BIN)
        .args(["user", "grant", "Olga", "emperor", "--db", &db])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let why = String::from_utf8_lossy(&bad.stderr);
    assert!(why.contains("emperor") && why.contains("arbiter"), "{why}");
    let port = free_port();
    let seat = |token: &str| -> serde_json::Value {
        let _server = start(&db, port);
        let (status, body) = http(port, "GET", "/api/arbiter/games", token, "");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    };
    assert_eq!(seat(&olga)["arbiter"], true);
    let out = caissa(&["user", "revoke", "Olga", "arbiter", "--db", &db]);
    assert!(out.contains("revoked arbiter from Olga"), "{out}");
    assert_eq!(seat(&olga)["arbiter"], false);
}

#[test]
fn db_backup_of_a_running_server_holds_its_accounts_and_games() {
    let dir = temp_dir("backup");
    let db = db_url(&dir);
    let white = account_with_token(&db, "Anna");
    let black = account_with_token(&db, "Boris");
    let port = free_port();
    let _server = start(&db, port);
    let (status, body) = http(port, "POST", "/api/challenge/Boris", &white, "color=white");
    assert_eq!(status, 200, "{body}");
    let challenge: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = challenge["id"].as_str().unwrap().to_string();
    let accept = format!("/api/challenge/{id}/accept");
    assert_eq!(http(port, "POST", &accept, &black, "").0, 200);
    for (i, mv) in ["e2e4", "e7e5", "g1f3"].iter().enumerate() {
        let token = if i % 2 == 0 { &white } else { &black };
        let path = format!("/api/board/game/{id}/move/{mv}");
        assert_eq!(http(port, "POST", &path, token, "").0, 200, "{mv}");
    }
    // The server is still running (it holds the database's lock) during the backup.
    let file = dir.join("backup.db");
    let file_arg = file.to_str().unwrap();
    let said = caissa(&["db", "backup", file_arg, "--db", &db]);
    assert!(
        said.contains("checked") && said.contains("users 2"),
        "{said}"
    );
    // The copy is a whole installation: its accounts sign in, its game replays.
    let copy = format!("sqlite://{file_arg}");
    let token = caissa(&["token", "create", "Anna", "--db", &copy]);
    assert!(!token.trim().is_empty());
    let copy_port = free_port();
    let _copy_server = start(&copy, copy_port);
    let (status, pgn) = http(copy_port, "GET", &format!("/game/export/{id}"), &white, "");
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("1. e4") && pgn.contains("2. Nf3"), "{pgn}");
    // A backup never overwrites a file, and PostgreSQL is pg_dump's job.
    let again = Command::new(BIN)
        .args(["db", "backup", file_arg, "--db", &db])
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    let postgres = Command::new(BIN)
        .args([
            "db",
            "backup",
            "x.sql",
            "--db",
            "postgres://localhost/caissa",
        ])
        .output()
        .unwrap();
    assert!(!postgres.status.success());
    assert!(String::from_utf8_lossy(&postgres.stderr).contains("pg_dump"));
}
