//! `caissa uci` through a real pipe: the binary is spawned, commands are written to
//! its stdin while its stdout is read line by line on another thread.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_caissa"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("caissa uci starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first one starting with `prefix` (generous
    /// timeout: only a hang fails).
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {prefix:?} within 60 s; saw {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; saw {seen:#?}"),
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "caissa uci exited with {status}");
    }
}

fn best(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn handshake_then_search_then_quit() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello[0].starts_with("id name Caissa"));
    assert!(hello.iter().any(|l| l.starts_with("option name MultiPV")));
    e.send("isready");
    e.until("readyok");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4");
    e.send("go depth 6");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")));
    let m = best(&lines);
    let pos = caissa_rules::Position::new();
    let mut after = pos;
    after.play_unchecked(pos.parse_uci("e2e4").unwrap());
    assert!(after.parse_uci(&m).is_ok(), "{m}");
    e.quit();
}

#[test]
fn isready_and_stop_are_answered_during_an_infinite_search() {
    let mut e = Engine::start();
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "stopped by itself: {lines:#?}"
    );
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(lines.last().unwrap().starts_with("bestmove "));
    e.quit();
}

#[test]
fn a_one_second_clock_gets_its_move_long_before_the_flag_falls() {
    let mut e = Engine::start();
    e.send("isready");
    e.until("readyok");
    e.send("position startpos moves d2d4 g8f6 c2c4 e7e6");
    let start = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 0 binc 0");
    let lines = e.until("bestmove");
    let took = start.elapsed();
    // The budget is about 1/30 of the clock (hard limit 3x that); the flag would fall
    // at 1000 ms. Only a gross overrun fails this.
    assert!(took < Duration::from_millis(1000), "took {took:?}");
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        let words: Vec<&str> = l.split_whitespace().collect();
        let t: u64 = words[words.iter().position(|&w| w == "time").unwrap() + 1]
            .parse()
            .unwrap();
        assert!(t <= 1000, "{l}");
    }
    // With almost nothing left, still a legal move.
    e.send("go wtime 10 btime 10");
    let lines = e.until("bestmove");
    assert_ne!(best(&lines), "0000");
    e.quit();
}

#[test]
fn malformed_input_is_explained_and_the_engine_keeps_working() {
    let mut e = Engine::start();
    for bad in [
        "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
        "position startpos moves e2e5",
        "setoption name Hash value -3",
        "setoption name Frobnicate value 1",
        "go depth x",
        "stop",
        "flibbertigibbet",
    ] {
        e.send(bad);
    }
    e.send("isready");
    let lines = e.until("readyok");
    let explained = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .count();
    assert!(explained >= 6, "{lines:#?}");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(caissa_rules::Position::new()
        .parse_uci(&best(&lines))
        .is_ok());
    e.quit();
}

#[test]
fn checkmated_side_answers_bestmove_0000() {
    let mut e = Engine::start();
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go wtime 1000 btime 1000");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    e.quit();
}
