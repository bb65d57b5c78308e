//! `caissa-random-uci`: a random (or greedy) mover speaking UCI, or xboard with
//! `--xboard`. It is the opponent of the arena's end-to-end tests and a smoke test for
//! `caissa match`.
//!
//! UCI options: `Seed` (0 picks one from the clock), `Mode` (`random`: any legal move;
//! `greedy`: mate if possible, else the biggest capture), `Delay` (milliseconds per
//! move), and, to test how the runner copes with bad engines, `Fault` (`none`, `crash`:
//! exit when asked for a move; `hang`: never answer again; `illegal`: answer an illegal
//! move; `slow`: answer 300 ms after its clock runs out) with `FaultAfter` (moves played
//! normally before the fault).
//!
//! Each move comes with `info depth 1 score cp N`: the material balance after it
//! from the mover's side (`score mate 1` for a mating move).

#![allow(missing_docs)]

use std::io::{self, BufRead, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use caissa_rules::{Color, Move, Position, Role};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    Crash,
    Hang,
    Illegal,
    Slow,
}

struct Engine {
    rng: u64,
    greedy: bool,
    delay: Duration,
    fault: Fault,
    fault_after: u32,
    moves_made: u32,
}

fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

/// Material of `color` minus the opponent's.
fn material(pos: &Position, color: Color) -> i32 {
    let board = pos.board();
    let mut total = 0;
    for role in Role::ALL {
        let of = |c: Color| board.by_role(role) & board.by_color(c);
        total += value(role) * (of(color).count() as i32 - of(!color).count() as i32);
    }
    total
}

impl Engine {
    fn new() -> Engine {
        Engine {
            rng: seed_from_clock(),
            greedy: false,
            delay: Duration::ZERO,
            fault: Fault::None,
            fault_after: 0,
            moves_made: 0,
        }
    }

    fn next_random(&mut self) -> u64 {
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn set_option(&mut self, name: &str, value: &str) {
        match name.to_ascii_lowercase().as_str() {
            "seed" => {
                let seed: u64 = value.parse().unwrap_or(0);
                self.rng = if seed == 0 {
                    seed_from_clock()
                } else {
                    seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1
                };
            }
            "mode" => self.greedy = value.eq_ignore_ascii_case("greedy"),
            "delay" => self.delay = Duration::from_millis(value.parse().unwrap_or(0)),
            "fault" => {
                self.fault = match value.to_ascii_lowercase().as_str() {
                    "crash" => Fault::Crash,
                    "hang" => Fault::Hang,
                    "illegal" => Fault::Illegal,
                    "slow" => Fault::Slow,
                    _ => Fault::None,
                }
            }
            "faultafter" => self.fault_after = value.parse().unwrap_or(0),
            _ => {}
        }
    }

    /// The move to play and its score (`cp N` or `mate 1`); `None` when there is no
    /// legal move.
    fn choose(&mut self, pos: &Position) -> Option<(Move, String)> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mover = pos.turn();
        let mut best = moves[0];
        let mut best_key = i64::MIN;
        for &m in moves.iter() {
            let mut next = *pos;
            next.play_unchecked(m);
            let noise = (self.next_random() % 1000) as i64;
            let key = if self.greedy {
                let mate = if next.is_checkmate() {
                    1_000_000_000
                } else {
                    0
                };
                mate + i64::from(material(&next, mover)) * 1000 + noise
            } else {
                noise
            };
            if key > best_key {
                best_key = key;
                best = m;
            }
        }
        let mut next = *pos;
        next.play_unchecked(best);
        let score = if next.is_checkmate() {
            "mate 1".to_string()
        } else {
            format!("cp {}", material(&next, mover))
        };
        Some((best, score))
    }

    /// An illegal move written in UCI: a pair of squares no legal move joins.
    fn illegal_move(pos: &Position) -> String {
        let files = "abcdefgh";
        for from in 0..64 {
            for to in 0..64 {
                if from == to {
                    continue;
                }
                let text = format!(
                    "{}{}{}{}",
                    &files[from % 8..from % 8 + 1],
                    from / 8 + 1,
                    &files[to % 8..to % 8 + 1],
                    to / 8 + 1
                );
                if pos.parse_uci(&text).is_err() {
                    return text;
                }
            }
        }
        "a1a1".to_string()
    }

    /// Plays the fault if it is due: returns the move text to send instead of a real
    /// move, or does not return at all.
    fn fault_due(&mut self, pos: &Position, own_time: Duration) -> Option<String> {
        if self.fault == Fault::None || self.moves_made < self.fault_after {
            return None;
        }
        match self.fault {
            Fault::Crash => {
                eprintln!("caissa-random-uci: crashing on purpose");
                std::process::exit(3);
            }
            Fault::Hang => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Fault::Illegal => Some(Engine::illegal_move(pos)),
            Fault::Slow => {
                std::thread::sleep(own_time + Duration::from_millis(300));
                None
            }
            Fault::None => None,
        }
    }
}

fn seed_from_clock() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) | 1
}

/// Reads `position startpos|fen F [moves m...]`.
fn parse_position(args: &str) -> Option<Position> {
    let (setup, moves) = match args.find(" moves") {
        Some(i) => (&args[..i], args[i + 6..].trim()),
        None => (args, ""),
    };
    let setup = setup.trim();
    let mut pos = if setup == "startpos" {
        Position::new()
    } else {
        Position::from_fen(setup.strip_prefix("fen")?.trim()).ok()?
    };
    for m in moves.split_whitespace() {
        let mv = pos.parse_uci(m).ok()?;
        pos.play_unchecked(mv);
    }
    Some(pos)
}

fn main() {
    let xboard = std::env::args().any(|a| a == "--xboard");
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut engine = Engine::new();
    if xboard {
        run_xboard(&mut engine, stdin.lock(), &mut out);
    } else {
        run_uci(&mut engine, stdin.lock(), &mut out);
    }
}

fn say(out: &mut impl Write, line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn run_uci(engine: &mut Engine, input: impl BufRead, out: &mut impl Write) {
    let mut pos = Position::new();
    for line in input.lines() {
        let Ok(line) = line else { return };
        let line = line.trim();
        let (command, args) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "uci" => {
                say(out, "id name Caissa Random");
                say(out, "id author the Caissa authors");
                say(
                    out,
                    "option name Seed type spin default 0 min 0 max 2147483647",
                );
                say(
                    out,
                    "option name Mode type combo default random var random var greedy",
                );
                say(
                    out,
                    "option name Delay type spin default 0 min 0 max 100000",
                );
                say(
                    out,
                    "option name Fault type combo default none var none var crash var hang var illegal var slow",
                );
                say(
                    out,
                    "option name FaultAfter type spin default 0 min 0 max 10000",
                );
                say(out, "uciok");
            }
            "isready" => say(out, "readyok"),
            "setoption" => {
                let rest = args.trim_start_matches("name ").trim();
                let (name, value) = match rest.split_once(" value ") {
                    Some((n, v)) => (n.trim(), v.trim()),
                    None => (rest, ""),
                };
                engine.set_option(name, value);
            }
            "ucinewgame" => pos = Position::new(),
            "position" => match parse_position(args) {
                Some(p) => pos = p,
                None => say(out, "info string bad position"),
            },
            "go" => {
                let mut words = args.split_whitespace();
                let mut own = Duration::from_secs(1);
                while let Some(w) = words.next() {
                    let key = if pos.turn() == Color::White {
                        "wtime"
                    } else {
                        "btime"
                    };
                    if w == key {
                        let ms: u64 = words.next().and_then(|v| v.parse().ok()).unwrap_or(0);
                        own = Duration::from_millis(ms);
                    }
                }
                let answer = engine.fault_due(&pos, own).or_else(|| {
                    std::thread::sleep(engine.delay);
                    engine.choose(&pos).map(|(m, score)| {
                        say(
                            out,
                            &format!("info depth 1 score {score} nodes 1 pv {}", pos.to_uci(m)),
                        );
                        pos.to_uci(m)
                    })
                });
                engine.moves_made += 1;
                say(
                    out,
                    &format!("bestmove {}", answer.unwrap_or_else(|| "0000".to_string())),
                );
            }
            "quit" => return,
            _ => {}
        }
    }
}

fn run_xboard(engine: &mut Engine, input: impl BufRead, out: &mut impl Write) {
    let mut pos = Position::new();
    let mut force = false;
    let mut engine_side = Color::Black;
    let mut own_centis: u64 = 100;
    for line in input.lines() {
        let Ok(line) = line else { return };
        let line = line.trim();
        let (command, args) = line.split_once(' ').unwrap_or((line, ""));
        let mut think = false;
        match command {
            "protover" => say(
                out,
                "feature ping=1 setboard=1 usermove=1 sigint=0 sigterm=0 myname=\"Caissa Random\" option=\"Mode -combo random /// greedy\" option=\"Seed -spin 0 0 2147483647\" done=1",
            ),
            "ping" => say(out, &format!("pong {args}")),
            "new" => {
                pos = Position::new();
                force = false;
                engine_side = Color::Black;
            }
            "force" => force = true,
            "setboard" => match Position::from_fen(args.trim()) {
                Ok(p) => pos = p,
                Err(e) => say(out, &format!("tellusererror Illegal position: {e}")),
            },
            "option" => {
                if let Some((name, value)) = args.split_once('=') {
                    engine.set_option(name.trim(), value.trim());
                }
            }
            "time" => own_centis = args.trim().parse().unwrap_or(100),
            "go" => {
                force = false;
                engine_side = pos.turn();
                think = true;
            }
            "usermove" => match pos.parse_uci(args.trim()) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    think = !force && pos.turn() == engine_side;
                }
                Err(_) => say(out, &format!("Illegal move: {}", args.trim())),
            },
            "quit" => return,
            _ => {}
        }
        if think {
            let own = Duration::from_millis(own_centis * 10);
            let fault = engine.fault_due(&pos, own);
            std::thread::sleep(engine.delay);
            engine.moves_made += 1;
            if let Some(text) = fault {
                say(out, &format!("move {text}"));
                continue;
            }
            match engine.choose(&pos) {
                Some((m, score)) => {
                    let cp = score
                        .strip_prefix("cp ")
                        .map(str::to_string)
                        .unwrap_or_else(|| "100001".to_string());
                    say(out, &format!("1 {cp} 0 1 {}", pos.to_uci(m)));
                    say(out, &format!("move {}", pos.to_uci(m)));
                    pos.play_unchecked(m);
                }
                None => say(out, "resign"),
            }
        }
    }
}
