//! The `caissa` command's contract, checked by running the built binary.
//!
//! * `caissa perft <DEPTH> [--fen FEN] [--divide]`: the last line of stdout is the total
//!   as a bare integer; with `--divide`, one `<uci>: <count>` line per root move first.
//! * `caissa moves [--fen FEN] [--san]`: one legal move per line.
//! * `caissa replay [--fen FEN] [MOVE ...]`: one JSON object with `fen`, `san`, `uci`,
//!   `outcome`, `termination`, `claimable` and `check`.
//! * Errors (bad FEN, illegal, ambiguous or malformed move): non-zero exit, nothing on
//!   stdout, one line on stderr giving the reason and, for a move, its ply (1-based).
//! * `caissa` alone runs the server (address and database from `CAISSA_ADDR` and
//!   `CAISSA_DB`, else 127.0.0.1:8080 and ./caissa.db); `caissa --help` lists the
//!   commands.

use std::collections::BTreeSet;
use std::process::{Command, Output};

use serde_json::Value;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const CHESS960: &str = "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1";
const TWO_KNIGHTS: &str = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
const SCHOLARS_MATE: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];

fn caissa(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .output()
        .expect("the caissa binary runs")
}

/// Runs a command that must succeed; returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = caissa(args);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 stdout");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "caissa {args:?} failed ({}): {stderr}",
        out.status
    );
    stdout
}

/// Runs a command that must fail cleanly; returns its single stderr line.
fn fails(args: &[&str]) -> String {
    let out = caissa(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert!(!out.status.success(), "caissa {args:?} succeeded: {stdout}");
    assert_eq!(stdout, "", "caissa {args:?} wrote to stdout on failure");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.len(),
        1,
        "caissa {args:?}: expected one line on stderr, got {stderr:?}"
    );
    lines[0].to_string()
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// The total of a perft run: the last line, a bare integer.
fn total(stdout: &str) -> u64 {
    let last = stdout.lines().last().expect("at least one line");
    last.parse()
        .unwrap_or_else(|_| panic!("last line {last:?} is not a bare integer"))
}

/// The `<uci>: <count>` lines of a `--divide` run, all but the last line.
fn divide_lines(stdout: &str) -> Vec<(String, u64)> {
    let all = lines(stdout);
    all[..all.len() - 1]
        .iter()
        .map(|line| {
            let (m, n) = line
                .split_once(": ")
                .unwrap_or_else(|| panic!("{line:?} is not `<uci>: <count>`"));
            assert!(is_uci(m), "{m:?} is not a UCI move");
            let n = n.parse().unwrap_or_else(|_| panic!("{line:?}: bad count"));
            (m.to_string(), n)
        })
        .collect()
}

fn is_uci(m: &str) -> bool {
    let b = m.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// Runs `caissa replay` and parses its single JSON object.
fn replay(args: &[&str]) -> Value {
    let mut full = vec!["replay"];
    full.extend_from_slice(args);
    let stdout = ok(&full);
    assert_eq!(
        stdout.trim_end().lines().count(),
        1,
        "one JSON object on one line: {stdout:?}"
    );
    let value: Value = serde_json::from_str(&stdout).expect("valid JSON");
    for key in [
        "fen",
        "san",
        "uci",
        "outcome",
        "termination",
        "claimable",
        "check",
    ] {
        assert!(value.get(key).is_some(), "missing {key:?} in {value}");
    }
    assert!(value["fen"].is_string());
    assert!(value["san"].is_array() && value["uci"].is_array());
    assert!(value["claimable"].is_array());
    assert!(value["check"].is_boolean());
    value
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string"))
        .collect()
}

// ---------------------------------------------------------------------------------
// caissa

#[test]
fn help_lists_the_commands() {
    let out = ok(&["--help"]);
    assert!(out.contains("Usage"), "{out}");
    for command in ["perft", "moves", "replay", "pgn", "serve"] {
        assert!(out.contains(command), "help does not list {command}: {out}");
    }
}

/// One HTTP/1.0 GET over a plain socket: (status line, body).
fn http_get(addr: &str, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (
        head.lines().next().unwrap_or_default().to_string(),
        body.to_string(),
    )
}

#[test]
fn no_arguments_starts_the_server_with_the_web_app() {
    use std::io::{BufRead, BufReader};
    let dir = std::env::temp_dir().join(format!("caissa-noargs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_caissa"))
        .current_dir(&dir)
        .env("CAISSA_ADDR", "127.0.0.1:0")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("caissa starts");
    let stderr = child.stderr.take().unwrap();
    let mut addr = None;
    for line in BufReader::new(stderr).lines() {
        let line = line.unwrap();
        if let Some(rest) = line.split("listening on http://").nth(1) {
            addr = Some(rest.trim().to_string());
            break;
        }
    }
    let addr = addr.expect("the server says where it listens");
    let (status, body) = http_get(&addr, "/healthz");
    let (page_status, page) = http_get(&addr, "/");
    let _ = child.kill();
    let _ = child.wait();
    assert!(status.contains("200"), "{status}");
    assert_eq!(body, "ok");
    assert!(page_status.contains("200"), "{page_status}");
    assert!(
        page.contains("<html") || page.contains("<!doctype"),
        "{page}"
    );
    assert!(
        dir.join("caissa.db").exists(),
        "the database is created in the working folder"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------
// caissa perft

#[test]
fn perft_last_line_is_the_total() {
    assert_eq!(total(&ok(&["perft", "1"])), 20);
    assert_eq!(total(&ok(&["perft", "3"])), 8902);
    assert_eq!(total(&ok(&["perft", "4"])), 197_281);
    let out = ok(&["perft", "3"]);
    assert_eq!(lines(&out), ["8902"], "without --divide only the total");
}

#[test]
fn perft_depth_zero_is_one() {
    assert_eq!(total(&ok(&["perft", "0"])), 1);
}

#[test]
fn perft_from_a_fen() {
    assert_eq!(total(&ok(&["perft", "3", "--fen", KIWIPETE])), 97_862);
    assert_eq!(
        total(&ok(&[
            "perft",
            "4",
            "--fen",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
        ])),
        43_238
    );
    // A checkmated side has no moves.
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert_eq!(total(&ok(&["perft", "2", "--fen", mate])), 0);
}

#[test]
fn perft_full_agrees_with_bulk_counting() {
    assert_eq!(total(&ok(&["perft", "3", "--full"])), 8902);
    assert_eq!(
        total(&ok(&["perft", "3", "--full", "--fen", KIWIPETE])),
        97_862
    );
}

#[test]
fn perft_divide_lists_each_root_move_then_the_total() {
    let out = ok(&["perft", "2", "--divide"]);
    let divided = divide_lines(&out);
    assert_eq!(divided.len(), 20);
    assert!(divided.iter().all(|(_, n)| *n == 20), "{out}");
    assert_eq!(total(&out), 400);
    let moves: BTreeSet<String> = divided.iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(moves.len(), 20, "each root move once");
    let listed: BTreeSet<String> = ok(&["moves"]).lines().map(str::to_string).collect();
    assert_eq!(moves, listed, "divide and moves agree on the root moves");
}

#[test]
fn perft_divide_counts_sum_to_the_total() {
    let out = ok(&["perft", "3", "--divide", "--fen", KIWIPETE]);
    let divided = divide_lines(&out);
    assert_eq!(divided.len(), 48);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), total(&out));
    assert_eq!(total(&out), 97_862);
    // Standard castling is written as the king's step.
    let moves: Vec<&str> = divided.iter().map(|(m, _)| m.as_str()).collect();
    assert!(
        moves.contains(&"e1g1") && moves.contains(&"e1c1"),
        "{moves:?}"
    );
    assert!(
        !moves.contains(&"e1h1") && !moves.contains(&"e1a1"),
        "{moves:?}"
    );
}

#[test]
fn perft_divide_of_the_initial_position_at_depth_three() {
    let out = ok(&["perft", "3", "--divide"]);
    let divided = divide_lines(&out);
    let count = |m: &str| {
        divided
            .iter()
            .find(|(x, _)| x == m)
            .map(|(_, n)| *n)
            .unwrap_or_else(|| panic!("{m} missing from {out}"))
    };
    assert_eq!(count("e2e4"), 600);
    assert_eq!(count("g1f3"), 440);
    assert_eq!(count("a2a3"), 380);
    assert_eq!(total(&out), 8902);
}

#[test]
fn perft_divide_writes_chess960_castling_as_king_takes_rook() {
    let out = ok(&["perft", "2", "--divide", "--fen", CHESS960]);
    let divided = divide_lines(&out);
    let moves: Vec<&str> = divided.iter().map(|(m, _)| m.as_str()).collect();
    assert!(
        moves.contains(&"b1a1") && moves.contains(&"b1h1"),
        "{moves:?}"
    );
    assert_eq!(total(&out), 479);
}

#[test]
fn perft_rejects_an_invalid_fen() {
    let err = fails(&["perft", "2", "--fen", "not a fen"]);
    assert!(err.to_lowercase().contains("fen"), "{err}");
    let err = fails(&[
        "perft",
        "2",
        "--divide",
        "--fen",
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
    ]);
    assert!(err.contains("check"), "{err}");
}

// ---------------------------------------------------------------------------------
// caissa moves

#[test]
fn moves_lists_one_uci_move_per_line() {
    let out = ok(&["moves"]);
    let moves = lines(&out);
    assert_eq!(moves.len(), 20);
    assert!(moves.iter().all(|m| is_uci(m)), "{out}");
    for m in ["e2e4", "g1f3", "a2a3", "b1c3"] {
        assert!(moves.contains(&m), "{m} missing");
    }
}

#[test]
fn moves_in_san() {
    let out = ok(&["moves", "--san"]);
    let moves = lines(&out);
    assert_eq!(moves.len(), 20);
    for m in ["e4", "Nf3", "a3", "Nc3"] {
        assert!(moves.contains(&m), "{m} missing from {out}");
    }
}

#[test]
fn moves_in_san_mark_check_and_mate() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let out = ok(&["moves", "--san", "--fen", fen]);
    let moves = lines(&out);
    assert!(moves.contains(&"Qxf7#"), "{out}");
    assert!(moves.contains(&"Bxf7+"), "{out}");
    assert!(moves.contains(&"Qxe5+"), "{out}");
    assert!(moves.contains(&"Qh3"), "{out}");
}

#[test]
fn moves_of_a_checkmated_position_is_empty() {
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert_eq!(ok(&["moves", "--fen", mate]), "");
}

#[test]
fn moves_write_castling_per_mode() {
    let standard = ok(&["moves", "--fen", CASTLING]);
    let standard = lines(&standard);
    assert!(standard.contains(&"e1g1") && standard.contains(&"e1c1"));
    assert!(!standard.contains(&"e1h1") && !standard.contains(&"e1a1"));
    let chess960 = ok(&["moves", "--chess960", "--fen", CASTLING]);
    let chess960 = lines(&chess960);
    assert!(chess960.contains(&"e1h1") && chess960.contains(&"e1a1"));
    assert!(!chess960.contains(&"e1g1") && !chess960.contains(&"e1c1"));
    assert_eq!(standard.len(), chess960.len());
    // Shredder-FEN castling rights make the position Chess960 by themselves.
    let detected = ok(&["moves", "--fen", CHESS960]);
    assert!(lines(&detected).contains(&"b1h1"), "{detected}");
}

#[test]
fn moves_rejects_an_invalid_fen() {
    fails(&["moves", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    fails(&[
        "moves",
        "--san",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
    ]);
}

// ---------------------------------------------------------------------------------
// caissa replay

#[test]
fn replay_without_moves_reports_the_start() {
    let v = replay(&[]);
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert!(strings(&v["san"]).is_empty());
    assert!(strings(&v["uci"]).is_empty());
    assert!(v["outcome"].is_null());
    assert!(v["termination"].is_null());
    assert!(strings(&v["claimable"]).is_empty());
    assert_eq!(v["check"], false);
}

#[test]
fn replay_checkmate_by_white() {
    let v = replay(&SCHOLARS_MATE);
    assert_eq!(strings(&v["san"]), SCHOLARS_MATE);
    assert_eq!(
        strings(&v["uci"]),
        ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
    );
    assert_eq!(v["outcome"], "1-0");
    assert_eq!(v["termination"], "checkmate");
    assert_eq!(v["check"], true);
    assert_eq!(
        v["fen"],
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
}

#[test]
fn replay_checkmate_by_black() {
    let v = replay(&["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(v["outcome"], "0-1");
    assert_eq!(v["termination"], "checkmate");
}

#[test]
fn replay_reports_a_wall_of_blocked_pawns_as_a_dead_position() {
    // Art. 5.2.2: after h4-h5 no series of legal moves can mate.
    let v = replay(&[
        "--fen",
        "4k3/8/1p1p1p1p/pPpPpPp1/P1P1P1PP/8/8/4K3 w - - 0 1",
        "h5",
    ]);
    assert_eq!(v["outcome"], "1/2-1/2");
    assert_eq!(v["termination"], "dead_position");
    // One move earlier the game is alive: g5xh4 is still possible.
    let v = replay(&[
        "--fen",
        "4k3/8/1p1p1p1p/pPpPpPp1/P1P1P1PP/8/8/4K3 w - - 0 1",
    ]);
    assert!(v["termination"].is_null());
}

#[test]
fn replay_reads_uci_and_san_mixed_and_writes_both() {
    let v = replay(&["e2e4", "e5", "g1f3", "Nc6", "f1b5", "a6"]);
    assert_eq!(strings(&v["san"]), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(
        strings(&v["uci"]),
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
    );
    assert!(v["outcome"].is_null());
}

#[test]
fn replay_reads_lenient_san() {
    let v = replay(&["Pe4", "e7-e5", "♘f3", "Nc6!?", "Bb5", "a6", "0-0"]);
    assert_eq!(
        strings(&v["san"]),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]
    );
    assert_eq!(strings(&v["uci"])[6], "e1g1");
}

#[test]
fn replay_reports_check() {
    let v = replay(&["e4", "d6", "Bb5+"]);
    assert_eq!(v["check"], true);
    assert_eq!(strings(&v["san"])[2], "Bb5+");
    assert!(v["outcome"].is_null());
}

#[test]
fn replay_stalemate() {
    let v = replay(&["--fen", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "Qf7"]);
    assert_eq!(v["outcome"], "1/2-1/2");
    assert_eq!(v["termination"], "stalemate");
    assert_eq!(v["check"], false);
}

#[test]
fn replay_dead_position() {
    let v = replay(&["--fen", "8/8/8/8/8/8/1r6/K6k w - - 0 1", "Kxb2"]);
    assert_eq!(v["outcome"], "1/2-1/2");
    assert_eq!(v["termination"], "dead_position");
}

#[test]
fn replay_fivefold_repetition() {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let moves: Vec<&str> = cycle.iter().cycle().take(16).copied().collect();
    let v = replay(&moves);
    assert_eq!(v["outcome"], "1/2-1/2");
    assert_eq!(v["termination"], "fivefold_repetition");
    // One cycle fewer: the fourth occurrence only allows a claim.
    let v = replay(&moves[..12]);
    assert!(v["outcome"].is_null());
    assert_eq!(strings(&v["claimable"]), ["threefold_repetition"]);
}

#[test]
fn replay_threefold_repetition_is_claimable_not_automatic() {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let moves: Vec<&str> = cycle.iter().cycle().take(8).copied().collect();
    let v = replay(&moves);
    assert!(v["outcome"].is_null());
    assert!(v["termination"].is_null());
    assert_eq!(strings(&v["claimable"]), ["threefold_repetition"]);
    let v = replay(&moves[..4]);
    assert!(strings(&v["claimable"]).is_empty());
}

#[test]
fn replay_seventy_five_moves() {
    let v = replay(&["--fen", "4k3/8/8/8/8/8/8/R3K3 w - - 149 100", "Ra2"]);
    assert_eq!(v["outcome"], "1/2-1/2");
    assert_eq!(v["termination"], "seventyfive_moves");
}

#[test]
fn replay_fifty_moves_is_claimable_not_automatic() {
    let v = replay(&["--fen", "4k3/8/8/8/8/8/8/R3K3 w - - 99 70", "Ra2"]);
    assert!(v["outcome"].is_null());
    assert_eq!(strings(&v["claimable"]), ["fifty_moves"]);
}

#[test]
fn replay_chess960_castling() {
    let v = replay(&["--fen", CHESS960, "O-O"]);
    assert_eq!(strings(&v["san"]), ["O-O"]);
    assert_eq!(strings(&v["uci"]), ["b1h1"]);
    assert_eq!(v["fen"], "rk5r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // The same move given in UCI.
    let v = replay(&["--fen", CHESS960, "b1a1"]);
    assert_eq!(strings(&v["san"]), ["O-O-O"]);
}

#[test]
fn replay_illegal_move_names_the_ply() {
    let err = fails(&["replay", "e4", "e5", "Ke3"]);
    assert!(err.contains("ply 3"), "{err}");
    assert!(err.contains("Ke3"), "{err}");
    assert!(err.contains("illegal"), "{err}");
}

#[test]
fn replay_illegal_uci_move_names_the_ply_and_the_rule() {
    let err = fails(&["replay", "e2e4", "e7e4"]);
    assert!(err.contains("ply 2"), "{err}");
    assert!(err.contains("e7e4"), "{err}");
    // A pawn "capture" onto an empty square is not a king-safety matter (3.7.3).
    let err = fails(&["replay", "e2d3"]);
    assert!(err.contains("diagonally only to capture"), "{err}");
}

#[test]
fn replay_ambiguous_move_names_the_ply_and_both_squares() {
    let err = fails(&["replay", "--fen", TWO_KNIGHTS, "Nd2"]);
    assert!(err.contains("ply 1"), "{err}");
    assert!(err.contains("ambiguous"), "{err}");
    assert!(err.contains("b1") && err.contains("f3"), "{err}");
    let err = fails(&["replay", "--fen", TWO_KNIGHTS, "Kd1", "Kd7", "Nd2"]);
    assert!(err.contains("ply 3"), "{err}");
}

#[test]
fn replay_malformed_move_names_the_ply() {
    let err = fails(&["replay", "e4", "e5", "Nf3", "xyz9"]);
    assert!(err.contains("ply 4"), "{err}");
    assert!(err.contains("xyz9"), "{err}");
}

#[test]
fn replay_move_after_the_end_of_the_game_is_refused() {
    let mut moves: Vec<&str> = vec!["replay"];
    moves.extend(SCHOLARS_MATE);
    moves.push("Ke7");
    let err = fails(&moves);
    assert!(err.contains("ply 8"), "{err}");
}

#[test]
fn replay_rejects_an_invalid_fen() {
    let err = fails(&[
        "replay",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "e4",
    ]);
    assert!(err.to_lowercase().contains("fen"), "{err}");
    fails(&[
        "replay",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
    ]);
}
