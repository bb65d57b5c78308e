//! Several search threads (Lazy SMP): legal moves at every thread count, the
//! `Threads` option up to 64, `stop` ending every thread, and pondering.

use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::time::Duration;

use caissa_engine::{run_uci, Engine, Limits};
use caissa_rules::Position;

#[test]
fn search_plays_legal_moves_with_1_2_4_and_64_threads() {
    let fens = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "8/5pk1/6p1/7p/P6P/6P1/r4PK1/1R6 w - - 0 40",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ];
    for threads in [1, 2, 4, 64] {
        let mut engine = Engine::new(8);
        engine.set_threads(threads);
        assert_eq!(engine.threads(), threads);
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let r = engine.search(
                &[pos],
                &Limits {
                    depth: Some(7),
                    ..Limits::default()
                },
                None,
                None,
                &mut |_| {},
            );
            let m = r.best_move.unwrap();
            assert!(pos.legal_moves().contains(&m), "{threads} threads, {fen}");
            let mut after = pos;
            after.play_unchecked(m);
            if let Some(p) = r.ponder {
                assert!(after.legal_moves().contains(&p), "{threads} threads, {fen}");
            }
            assert!(r.depth >= 7);
        }
    }
    let mut engine = Engine::new(1);
    engine.set_threads(1000);
    assert_eq!(engine.threads(), 64);
    engine.set_threads(0);
    assert_eq!(engine.threads(), 1);
}

/// A UCI session fed through a pipe, so commands can wait for replies.
struct Session {
    input: std::io::PipeWriter,
    lines: mpsc::Receiver<String>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Session {
    fn start() -> Session {
        let (reader, input) = std::io::pipe().unwrap();
        let (out_reader, out_writer) = std::io::pipe().unwrap();
        let thread = std::thread::spawn(move || run_uci(BufReader::new(reader), out_writer));
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out_reader).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            input,
            lines,
            thread: Some(thread),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
    }

    /// Lines up to and including the first that starts with `prefix` (a
    /// generous deadline: this checks that it comes, not how fast).
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no {prefix:?} after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Waits until no line has come for `wait`; only `info` lines may come.
    fn quiet_for(&self, wait: Duration) {
        while let Ok(line) = self.lines.recv_timeout(wait) {
            assert!(line.starts_with("info"), "unexpected {line:?}");
        }
    }

    fn quit(mut self) {
        self.send("quit");
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

#[test]
fn a_node_limit_counts_the_nodes_of_every_thread() {
    // Helpers add their nodes every 1,024 and see the end within 1,024 more, so
    // `go nodes N` may overshoot by a few thousand, not by a helper's whole iteration.
    let limit = 40_000;
    for threads in [2, 4] {
        let mut engine = Engine::new(8);
        engine.set_threads(threads);
        let r = engine.search(
            &[Position::new()],
            &Limits {
                nodes: Some(limit),
                ..Limits::default()
            },
            None,
            None,
            &mut |_| {},
        );
        let slack = 2 * 1024 * threads as u64 + 1024;
        assert!(
            r.nodes <= limit + slack,
            "{threads} threads searched {} nodes for a limit of {limit}",
            r.nodes
        );
    }
}

#[test]
fn stop_ends_a_search_on_eight_threads_with_a_legal_bestmove() {
    let mut s = Session::start();
    s.send("setoption name Threads value 8");
    s.send("position startpos moves e2e4 c7c5");
    s.send("go infinite");
    s.quiet_for(Duration::from_millis(400));
    s.send("stop");
    let lines = s.until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let mut pos = Position::new();
    for m in ["e2e4", "c7c5"] {
        let mv = pos.parse_uci(m).unwrap();
        pos.play_unchecked(mv);
    }
    assert!(pos.parse_uci(&best).is_ok(), "{best}");
    s.send("isready");
    s.until("readyok");
    s.quit();
}

#[test]
fn pondering_waits_for_ponderhit_then_answers() {
    let mut s = Session::start();
    s.send("uci");
    let options = s.until("uciok");
    assert!(options.contains(&"option name Ponder type check default false".to_string()));
    s.send("setoption name Ponder value true");
    s.send("setoption name Threads value 2");
    s.send("position startpos moves d2d4 g8f6");
    s.send("go ponder wtime 2000 btime 2000");
    // While pondering the engine never answers, however long the clock says.
    s.quiet_for(Duration::from_millis(600));
    s.send("ponderhit");
    let lines = s.until("bestmove");
    let last = lines.last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    let mut pos = Position::new();
    for m in ["d2d4", "g8f6"] {
        let mv = pos.parse_uci(m).unwrap();
        pos.play_unchecked(mv);
    }
    let best = pos.parse_uci(words[1]).unwrap();
    if words.len() == 4 {
        assert_eq!(words[2], "ponder");
        let mut after = pos;
        after.play_unchecked(best);
        assert!(after.parse_uci(words[3]).is_ok(), "{last}");
    }
    // A ponder search the GUI stops also answers.
    s.send("position startpos moves d2d4 g8f6 c2c4");
    s.send("go ponder wtime 2000 btime 2000");
    s.quiet_for(Duration::from_millis(200));
    s.send("stop");
    s.until("bestmove");
    s.quit();
}
