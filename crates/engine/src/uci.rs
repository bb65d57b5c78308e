//! The Universal Chess Interface over any line reader and writer.
//!
//! The search runs on its own thread, so `isready` is answered and `stop` obeyed
//! while it thinks. Nothing the GUI sends makes the engine panic or stop working: a
//! malformed command is answered with `info string <why>` and ignored. A `position`
//! with a bad FEN or an illegal move is refused whole: searching the previous
//! position would answer for the wrong side, so until a good `position` arrives
//! `go` answers `bestmove 0000`. `bestmove` is otherwise always a legal move, or
//! `0000` when the position has none.
//!
//! As in Stockfish, a command that changes what is searched (`position`, `go`,
//! `setoption`, `ucinewgame`, `bench`) waits for a running search that will end by
//! itself, so a script piped in gets every answer in full; a search that only ends
//! at `stop` (infinite, pondering, or a `go` with no limit) is stopped instead, as
//! it is at the end of the input.

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use caissa_rules::{fen, CastlingMode, Move, Position};

use crate::levels::{level, level_for_elo, level_for_skill};
use crate::{Engine, Info, Limits, Rng, SearchResult, AUTHOR, NAME};

type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn say(out: &Output, line: &str) {
    let mut w = lock(out);
    // A closed output (the GUI went away) is not our problem to report.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The options the GUI can set.
#[derive(Clone, Debug)]
struct Options {
    hash_mb: usize,
    multipv: usize,
    skill: u32,
    limit_strength: bool,
    elo: u32,
    chess960: bool,
    move_overhead: u64,
    use_nnue: bool,
    /// A net read from `EvalFile` (else the embedded one).
    eval_file: Option<Arc<crate::nnue::Network>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            multipv: 1,
            skill: 20,
            limit_strength: false,
            elo: 2800,
            chess960: false,
            move_overhead: 30,
            use_nnue: true,
            eval_file: None,
        }
    }
}

/// Range of `UCI_Elo`: from the weakest level's measured Elo to the strongest's.
pub const ELO_RANGE: (u32, u32) = (crate::levels::LEVELS[0].elo, crate::levels::LEVELS[7].elo);

/// Runs the protocol until `quit` or the end of `input`.
pub fn run_uci(input: impl BufRead, output: impl Write + Send + 'static) {
    let out: Output = Arc::new(Mutex::new(Box::new(output)));
    let mut session = Session {
        out: out.clone(),
        engine: Arc::new(Mutex::new(Engine::new(16))),
        options: Options::default(),
        positions: vec![Position::new()],
        stop: Arc::new(AtomicBool::new(false)),
        ponder: Arc::new(AtomicBool::new(false)),
        worker: None,
        rng: Rng::from_entropy(),
        unlimited: false,
        refused: None,
    };
    // Bytes, not UTF-8 lines: one stray byte (a path in a local code page) must not
    // end the session.
    for line in input.split(b'\n') {
        let Ok(line) = line else { break };
        if !session.command(&String::from_utf8_lossy(&line)) {
            session.stop_search();
            return;
        }
    }
    // End of input without `quit`: let a bounded search finish and report.
    session.finish_search();
}

struct Session {
    out: Output,
    engine: Arc<Mutex<Engine>>,
    options: Options,
    positions: Vec<Position>,
    stop: Arc<AtomicBool>,
    ponder: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    rng: Rng,
    /// The running search waits for `stop` (infinite, or no limit at all).
    unlimited: bool,
    /// Why the last `position` was refused (then `go` has nothing to search).
    refused: Option<String>,
}

impl Session {
    fn info_string(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(w) = self.worker.take() {
            self.stop.store(true, Ordering::SeqCst);
            self.ponder.store(false, Ordering::SeqCst);
            let _ = w.join();
        }
    }

    /// Waits for a running search that ends by itself; stops one that would not
    /// (also one pondering: it ends by itself only after `ponderhit`).
    fn finish_search(&mut self) {
        if self.unlimited || self.ponder.load(Ordering::SeqCst) {
            self.stop_search();
        } else if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    /// Handles one line; false at `quit`.
    fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "uci" => self.uci(),
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => {
                self.finish_search();
                lock(&self.engine).new_game();
                self.positions = vec![self.start_position()];
                self.refused = None;
            }
            "setoption" => {
                self.finish_search();
                self.setoption(args);
            }
            "position" => {
                self.finish_search();
                match self.position(args) {
                    Ok(positions) => {
                        self.positions = positions;
                        self.refused = None;
                    }
                    Err(why) => {
                        self.info_string(&format!("{why}; position refused, go answers 0000"));
                        self.refused = Some(why);
                    }
                }
            }
            "go" => {
                self.finish_search();
                self.go(args);
            }
            "stop" => self.stop_search(),
            "ponderhit" => self.ponder.store(false, Ordering::SeqCst),
            "quit" => return false,
            "d" => match &self.refused {
                Some(why) => self.info_string(&format!("no position: {why}")),
                None => {
                    let pos = self.positions.last().copied().unwrap_or_default();
                    self.info_string(&format!("fen {}", pos.fen()));
                }
            },
            "bench" => {
                self.finish_search();
                self.bench(args);
            }
            "debug" | "register" => {}
            _ => self.info_string(&format!("unknown command: {line}")),
        }
        true
    }

    /// `bench [depth]`: the signature search of [`crate::bench`], one `info string`
    /// per position, then `NODES nodes NPS nps`.
    fn bench(&self, args: &[&str]) {
        let depth = match args.first().map(|d| d.parse::<u32>()) {
            None => crate::bench::DEFAULT_DEPTH,
            Some(Ok(d)) if (1..=64).contains(&d) => d,
            Some(_) => {
                self.info_string(&format!(
                    "bench: the depth must be 1 to 64, not {:?}",
                    args[0]
                ));
                return;
            }
        };
        let total = crate::bench::POSITIONS.len();
        let net = lock(&self.engine).network().cloned();
        let result = crate::bench::run(depth, net, &mut |i, fen, r| {
            self.info_string(&format!("bench {}/{total} nodes {} {fen}", i + 1, r.nodes));
        });
        say(&self.out, &result.summary());
    }

    fn uci(&self) {
        let (lo, hi) = ELO_RANGE;
        let lines = [
            format!("id name {NAME}"),
            format!("id author {AUTHOR}"),
            "option name Hash type spin default 16 min 1 max 4096".to_string(),
            format!(
                "option name Threads type spin default 1 min 1 max {}",
                crate::search::MAX_THREADS
            ),
            "option name Ponder type check default false".to_string(),
            "option name MultiPV type spin default 1 min 1 max 10".to_string(),
            "option name Skill Level type spin default 20 min 0 max 20".to_string(),
            "option name UCI_LimitStrength type check default false".to_string(),
            format!("option name UCI_Elo type spin default {hi} min {lo} max {hi}"),
            "option name UCI_Chess960 type check default false".to_string(),
            "option name Move Overhead type spin default 30 min 0 max 5000".to_string(),
            "option name Clear Hash type button".to_string(),
            format!(
                "option name Use NNUE type check default {}",
                crate::nnue::Network::shared_embedded().is_some()
            ),
            "option name EvalFile type string default <embedded>".to_string(),
            "uciok".to_string(),
        ];
        let mut w = lock(&self.out);
        for l in lines {
            let _ = writeln!(w, "{l}");
        }
        let _ = w.flush();
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <words...> [value <words...>]
        let Some(name_at) = args.iter().position(|t| t.eq_ignore_ascii_case("name")) else {
            self.info_string("setoption without a name");
            return;
        };
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let name_end = value_at.unwrap_or(args.len());
        if name_end <= name_at {
            self.info_string("setoption: value before name");
            return;
        }
        let name = args[name_at + 1..name_end].join(" ");
        let value = value_at
            .map(|v| args[v + 1..].join(" "))
            .unwrap_or_default();
        let key = name.to_ascii_lowercase();
        let spin = |lo: u64, hi: u64| -> Result<u64, String> {
            match value.parse::<i64>() {
                Ok(v) if v >= lo as i64 && v <= hi as i64 => Ok(v as u64),
                Ok(v) => Err(format!("{name}: {v} is out of range {lo}..{hi}")),
                Err(_) => Err(format!("{name}: {value:?} is not a number")),
            }
        };
        let check = || -> Result<bool, String> {
            match value.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(format!("{name}: {value:?} is not true or false")),
            }
        };
        let result = match key.as_str() {
            "hash" => spin(1, 4096).map(|v| {
                self.options.hash_mb = v as usize;
                lock(&self.engine).set_hash(v as usize);
            }),
            "threads" => spin(1, crate::search::MAX_THREADS as u64)
                .map(|v| lock(&self.engine).set_threads(v as usize)),
            "multipv" => spin(1, 10).map(|v| self.options.multipv = v as usize),
            "skill level" => spin(0, 20).map(|v| self.options.skill = v as u32),
            "uci_limitstrength" => check().map(|v| self.options.limit_strength = v),
            "uci_elo" => spin(u64::from(ELO_RANGE.0), u64::from(ELO_RANGE.1))
                .map(|v| self.options.elo = v as u32),
            "uci_chess960" => check().map(|v| {
                self.options.chess960 = v;
                let mode = if v {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                // Re-read the current line in the new mode where possible.
                let converted: Option<Vec<Position>> = self
                    .positions
                    .iter()
                    .map(|p| p.with_castling_mode(mode).ok())
                    .collect();
                if let Some(c) = converted {
                    self.positions = c;
                }
            }),
            "move overhead" => spin(0, 5000).map(|v| self.options.move_overhead = v),
            "clear hash" => {
                lock(&self.engine).new_game();
                Ok(())
            }
            "use nnue" => check().and_then(|v| {
                self.options.use_nnue = v;
                self.apply_network()
            }),
            "evalfile" => {
                if value.is_empty() || value == "<embedded>" {
                    self.options.eval_file = None;
                    self.apply_network()
                } else {
                    match std::fs::read(&value)
                        .map_err(|e| e.to_string())
                        .and_then(|b| {
                            crate::nnue::Network::from_bytes(&b).map_err(|e| e.to_string())
                        }) {
                        Ok(net) => {
                            self.options.eval_file = Some(Arc::new(net));
                            self.apply_network()
                        }
                        Err(e) => Err(format!("EvalFile {value}: {e}")),
                    }
                }
            }
            // The GUI says whether it will send `go ponder`; nothing to change here.
            "ponder" => check().map(|_| ()),
            "uci_analysemode" | "uci_showwdl" => Ok(()),
            _ => Err(format!("unknown option: {name}")),
        };
        if let Err(why) = result {
            self.info_string(&why);
        }
    }

    /// Gives the engine the net the options choose: `EvalFile`'s, else the
    /// embedded one, or none when `Use NNUE` is off.
    fn apply_network(&mut self) -> Result<(), String> {
        let net = if self.options.use_nnue {
            self.options
                .eval_file
                .clone()
                .or_else(crate::nnue::Network::shared_embedded)
        } else {
            None
        };
        let missing = self.options.use_nnue && net.is_none();
        lock(&self.engine).set_network(net);
        if missing {
            Err(
                "Use NNUE: no network (none embedded, no EvalFile): the hand-made evaluation plays"
                    .to_string(),
            )
        } else {
            Ok(())
        }
    }

    fn start_position(&self) -> Position {
        let pos = Position::new();
        if self.options.chess960 {
            pos.with_castling_mode(CastlingMode::Chess960)
                .unwrap_or(pos)
        } else {
            pos
        }
    }

    /// The game line a `position` command sets up, or why it is refused.
    fn position(&self, args: &[&str]) -> Result<Vec<Position>, String> {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let start = match setup.first().copied() {
            Some("startpos") => {
                if setup.len() > 1 {
                    self.info_string("position startpos: ignoring extra words before moves");
                }
                self.start_position()
            }
            Some("fen") => {
                let text = setup[1..].join(" ");
                let parsed = if self.options.chess960 {
                    fen::parse_with_mode(&text, CastlingMode::Chess960)
                } else {
                    fen::parse(&text)
                };
                parsed.map_err(|e| format!("bad FEN {text:?}: {e}"))?
            }
            _ => return Err("position needs startpos or fen".to_string()),
        };
        let mut positions = vec![start];
        for (i, text) in args[moves_at.map_or(args.len(), |at| at + 1)..]
            .iter()
            .enumerate()
        {
            let pos = *positions.last().unwrap_or(&start);
            let m = parse_move(&pos, text).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            let mut next = pos;
            next.play_unchecked(m);
            positions.push(next);
        }
        Ok(positions)
    }

    fn go(&mut self, args: &[&str]) {
        if let Some(why) = &self.refused {
            self.info_string(&format!("go: no position to search ({why})"));
            say(&self.out, "bestmove 0000");
            return;
        }
        let pos = self.positions.last().copied().unwrap_or_default();
        let mut limits = Limits::default();
        let mut pondering = false;
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            i += 1;
            let mut number = |what: &str| -> Option<u64> {
                let Some(text) = args.get(i) else {
                    say(&self.out, &format!("info string go {what}: missing value"));
                    return None;
                };
                match text.parse::<i64>() {
                    Ok(v) => {
                        i += 1;
                        Some(v.max(0) as u64)
                    }
                    Err(_) => {
                        say(
                            &self.out,
                            &format!("info string go {what}: {text:?} is not a number"),
                        );
                        None
                    }
                }
            };
            match word {
                "wtime" => limits.wtime = number(word),
                "btime" => limits.btime = number(word),
                "winc" => limits.winc = number(word),
                "binc" => limits.binc = number(word),
                "movestogo" => {
                    // 0 is "not given", as Stockfish reads it.
                    limits.movestogo = number(word)
                        .filter(|&v| v > 0)
                        .map(|v| v.min(10_000) as u32)
                }
                "movetime" => limits.movetime = number(word),
                "depth" => limits.depth = number(word).map(|v| v.min(1000) as u32),
                "nodes" => limits.nodes = number(word),
                "mate" => limits.mate = number(word).map(|v| v.min(1000) as u32),
                "infinite" => limits.infinite = true,
                "ponder" => pondering = true,
                "searchmoves" => {
                    while let Some(text) = args.get(i) {
                        match parse_move(&pos, text) {
                            Ok(m) => {
                                limits.searchmoves.push(m);
                                i += 1;
                            }
                            Err(_) => break,
                        }
                    }
                }
                other => self.info_string(&format!("go: unknown parameter {other:?} ignored")),
            }
        }
        self.stop.store(false, Ordering::SeqCst);
        self.ponder.store(pondering, Ordering::SeqCst);
        let (own_clock, _) = limits.clock(pos.turn());
        let ends_by_itself = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some()
            || limits.movetime.is_some()
            || own_clock.is_some();
        self.unlimited = limits.infinite || !ends_by_itself;
        let positions = self.positions.clone();
        let options = self.options.clone();
        let engine = self.engine.clone();
        let out = self.out.clone();
        let stop = self.stop.clone();
        let ponder = self.ponder.clone();
        let seed = self.rng.next_u64();
        self.worker = Some(std::thread::spawn(move || {
            let pos = positions.last().copied().unwrap_or_default();
            let searched = catch_unwind(AssertUnwindSafe(|| {
                let mut engine = lock(&engine);
                think(
                    &mut engine,
                    &positions,
                    &limits,
                    &options,
                    seed,
                    &stop,
                    &ponder,
                    &out,
                )
            }));
            let result = match searched {
                Ok(r) => r,
                Err(_) => {
                    say(
                        &out,
                        "info string internal error in the search; playing a legal move",
                    );
                    SearchResult {
                        best_move: pos.legal_moves().first().copied(),
                        ..SearchResult::default()
                    }
                }
            };
            // In infinite and ponder mode the GUI decides when the search is over.
            while (limits.infinite || ponder.load(Ordering::SeqCst)) && !stop.load(Ordering::SeqCst)
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            let best = result
                .best_move
                .filter(|m| pos.legal_moves().contains(m))
                .or_else(|| pos.legal_moves().first().copied());
            let line = match best {
                None => "bestmove 0000".to_string(),
                Some(m) => {
                    let mut after = pos;
                    after.play_unchecked(m);
                    match result.ponder.filter(|p| after.legal_moves().contains(p)) {
                        Some(p) => format!("bestmove {} ponder {}", pos.to_uci(m), after.to_uci(p)),
                        None => format!("bestmove {}", pos.to_uci(m)),
                    }
                }
            };
            say(&out, &line);
        }));
    }
}

#[allow(clippy::too_many_arguments)]
fn think(
    engine: &mut Engine,
    positions: &[Position],
    limits: &Limits,
    options: &Options,
    seed: u64,
    stop: &AtomicBool,
    ponder: &AtomicBool,
    out: &Output,
) -> SearchResult {
    let root = positions.last().copied().unwrap_or_default();
    engine.multipv = options.multipv;
    engine.move_overhead_ms = options.move_overhead;
    let mut report = |info: &Info| say(out, &format_info(&root, info));
    let strength = if options.limit_strength {
        Some(level_for_elo(options.elo))
    } else if options.skill < 20 {
        Some(level_for_skill(options.skill))
    } else {
        None
    };
    match strength {
        Some(l) => {
            let mut rng = Rng::new(seed);
            engine.search_at_level(
                positions,
                level(l),
                limits,
                &mut rng,
                Some(stop),
                Some(ponder),
                &mut report,
            )
        }
        None => engine.search(positions, limits, Some(stop), Some(ponder), &mut report),
    }
}

/// A move in UCI notation; a promotion letter in capitals (`a7a8Q`) is read as
/// Stockfish reads it.
fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    pos.parse_uci(&text.to_ascii_lowercase())
        .map_err(|e| e.to_string())
}

/// One `info` line; the PV is cut at the first move that is not legal (none should be).
pub fn format_info(root: &Position, info: &Info) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv,
        info.score,
        info.nodes,
        info.nps,
        info.time_ms,
        info.hashfull
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        let mut pos = *root;
        for &m in &info.pv {
            if !pos.legal_moves().contains(&m) {
                break;
            }
            s.push(' ');
            s.push_str(&pos.to_uci(m));
            pos.play_unchecked(m);
        }
    }
    s
}

/// Parses a move list the way `position ... moves` does (for tests and tools).
pub fn play_moves(start: Position, moves: &[&str]) -> Result<Vec<Position>, String> {
    let mut out = vec![start];
    for text in moves {
        let pos = *out.last().unwrap_or(&start);
        let m: Move = pos.parse_uci(text).map_err(|e| e.to_string())?;
        let mut next = pos;
        next.play_unchecked(m);
        out.push(next);
    }
    Ok(out)
}
