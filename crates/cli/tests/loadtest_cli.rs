//! `caissa loadtest` as an operator runs it: small runs against the in-process
//! server, over WebSockets and the Board API, over HTTP/1.1 and multiplexed over
//! HTTP/2, each checking that no move failed and that every acknowledged move is
//! in the store.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_caissa");

/// Runs `caissa loadtest` with `args` under an open-file limit of `nofile`.
fn loadtest(nofile: u32, args: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -n {nofile} && exec \"$0\" loadtest {args}"))
        .arg(BIN)
        .output()
        .unwrap()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The value of a row of the summary table.
fn row<'a>(stdout: &'a str, key: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key:?} row in:\n{stdout}"))
        .trim()
}

/// Checks a finished run: every game played to its plies (or ended by the rules),
/// no error, every acknowledged move durable.
fn assert_clean(out: &Output, games: usize, plies: usize) {
    let (stdout, stderr) = text(out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(row(&stdout, "errors"), "0", "{stdout}");
    let moves: usize = row(&stdout, "total moves").parse().unwrap();
    assert!(moves > 0 && moves <= games * plies, "{stdout}");
    let durability = row(&stdout, "durability");
    assert!(
        durability.starts_with(&format!(
            "{moves} acknowledged moves checked in the store: 0 lost"
        )),
        "{stdout}"
    );
}

#[test]
fn loadtest_over_websockets_loses_no_move() {
    let chart = std::env::temp_dir().join(format!("caissa-lt-chart-{}.svg", std::process::id()));
    let out = loadtest(
        4096,
        &format!("--games 12 --moves 10 --seed 1 --chart {}", chart.display()),
    );
    assert_clean(&out, 12, 10);
    // The chart: an SVG naming the run, with the percentiles drawn.
    let svg = std::fs::read_to_string(&chart).unwrap();
    let _ = std::fs::remove_file(&chart);
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert!(svg.contains("12 games, WebSockets over HTTP/1.1"), "{svg}");
    assert_eq!(svg.matches("<polyline").count(), 4, "{svg}");
    let (stdout, _) = text(&out);
    assert!(
        row(&stdout, "transport").starts_with("WebSocket over HTTP/1.1"),
        "{stdout}"
    );
    assert!(row(&stdout, "setup").contains("sockets"), "{stdout}");
    let acks = row(&stdout, "move→ack, all moves");
    assert!(
        acks.ends_with(&format!("({} samples)", row(&stdout, "total moves"))),
        "{stdout}"
    );
}

#[test]
fn loadtest_websockets_over_http2_share_connections() {
    let out = loadtest(
        4096,
        "--games 60 --moves 8 --seed 2 --http2 --http2-players 50",
    );
    assert_clean(&out, 60, 8);
    let (stdout, _) = text(&out);
    // 120 players' sockets, 50 to a connection.
    assert!(
        row(&stdout, "transport").starts_with("WebSocket over HTTP/2 (RFC 8441): 3 connections"),
        "{stdout}"
    );
}

#[test]
fn loadtest_over_the_board_api_loses_no_move() {
    for (args, games, plies, transport) in [
        (
            "--games 12 --moves 10 --seed 4 --board",
            12,
            10,
            "Board API over HTTP/1.1",
        ),
        (
            "--games 30 --moves 8 --seed 5 --board --http2",
            30,
            8,
            "Board API over HTTP/2: 6 connections",
        ),
    ] {
        let out = loadtest(4096, args);
        assert_clean(&out, games, plies);
        let (stdout, _) = text(&out);
        assert!(row(&stdout, "transport").starts_with(transport), "{stdout}");
        assert!(
            row(&stdout, "POST→200, all moves").contains("samples"),
            "{stdout}"
        );
    }
}

#[test]
fn loadtest_fits_more_games_in_the_open_file_limit_over_http2() {
    // In-process, 300 games over HTTP/1.1 hold 600 sockets with both ends in this
    // process: 1,200 descriptors, more than the limit allows.
    let out = loadtest(1024, "--games 300 --moves 4 --seed 3");
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("open-file limit (ulimit -n) is 1024") && stderr.contains("--http2"),
        "{stderr}"
    );
    // Over HTTP/2 the same players need 60 connections.
    let out = loadtest(1024, "--games 300 --moves 4 --seed 3 --http2");
    assert_clean(&out, 300, 4);
}
