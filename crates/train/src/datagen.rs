//! Self-play data: the engine plays itself from short random openings, and the
//! quiet positions of each game are kept with the search's score and the game's
//! result (see [`crate::record`]).
//!
//! * Openings: 8 or 9 random moves that lose no material by static exchange; an
//!   opening the engine scores beyond ±500 cp is dropped.
//! * Each move: a search that starts no iteration after `soft_nodes` nodes (and
//!   stops at eight times that), so the score is that of a completed iteration.
//! * Adjudication: the rules' endings (mate, stalemate, threefold repetition, the
//!   fifty-move rule, a dead position); a win when one side's score stays at
//!   ±1000 cp or more for six plies; a draw after move 30 when the score stays
//!   within ±10 cp for ten plies, or at 400 plies.
//! * Kept: positions from ply 16 on, not in check, whose best move is neither a
//!   capture nor a promotion, scored without a mate and within ±3000 cp, with at
//!   least four pieces on the board.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use caissa_engine::nnue::Network;
use caissa_engine::see::is_capture;
use caissa_engine::{random_opening, Engine, Limits, Rng, Score};
use caissa_rules::{Color, Move, Position};

use crate::record::{Outcome, Record};

/// How self-play runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// No new iteration after this many nodes (the hard limit is eight times it).
    pub soft_nodes: u64,
    /// Transposition table of each game's engine, in megabytes.
    pub hash_mb: usize,
    /// The evaluation both sides search with: this net, or the hand-made
    /// evaluation when `None`.
    pub net: Option<Arc<Network>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            soft_nodes: 5000,
            hash_mb: 16,
            net: None,
        }
    }
}

/// One finished game's kept positions.
#[derive(Clone, Debug)]
pub struct Game {
    /// The kept positions, labelled.
    pub records: Vec<Record>,
    /// The move played from each kept position.
    pub played: Vec<Move>,
    /// How the game ended.
    pub outcome: Outcome,
    /// Plies played (random opening included).
    pub plies: usize,
}

const WIN_CP: i32 = 1000;
const WIN_PLIES: u32 = 6;
const DRAW_CP: i32 = 10;
const DRAW_PLIES: u32 = 10;
const DRAW_FROM_PLY: usize = 60;
const MAX_PLIES: usize = 400;
const MAX_KEPT_CP: i32 = 3000;
const MIN_PLY_KEPT: usize = 16;

/// The score in centipawns from White's side, or `None` for a mate.
fn white_cp(score: Score, turn: Color) -> Option<i32> {
    match score {
        Score::Cp(cp) => Some(if turn == Color::White { cp } else { -cp }),
        Score::Mate(_) => None,
    }
}

/// Plays one game; `None` when its opening was dropped.
pub fn play_game(engine: &mut Engine, options: &Options, rng: &mut Rng) -> Option<Game> {
    engine.new_game();
    let plies = 8 + rng.below(2);
    let mut positions = random_opening(rng, plies)?;
    let opening = *positions.last()?;
    let check = engine.search(
        &positions,
        &Limits {
            nodes: Some(options.soft_nodes * 4),
            ..Limits::default()
        },
        None,
        None,
        &mut |_| {},
    );
    if white_cp(check.score, opening.turn()).is_none_or(|cp| cp.abs() > 500) {
        return None;
    }
    let limits = Limits {
        soft_nodes: Some(options.soft_nodes),
        nodes: Some(options.soft_nodes * 8),
        ..Limits::default()
    };
    let mut kept: Vec<(Position, i16, Move)> = Vec::new();
    let mut win_streak: (u32, Option<Color>) = (0, None);
    let mut draw_streak = 0;
    let outcome = loop {
        let pos = *positions.last()?;
        if !pos.has_legal_moves() {
            break match (pos.is_check(), pos.turn()) {
                (true, Color::White) => Outcome::BlackWins,
                (true, Color::Black) => Outcome::WhiteWins,
                (false, _) => Outcome::Draw,
            };
        }
        if pos.halfmoves() >= 100 || pos.is_dead_position() || positions.len() > MAX_PLIES {
            break Outcome::Draw;
        }
        if positions
            .iter()
            .filter(|p| p.is_same_position(&pos))
            .count()
            >= 3
        {
            break Outcome::Draw;
        }
        let r = engine.search(&positions, &limits, None, None, &mut |_| {});
        let Some(best) = r.best_move else {
            break Outcome::Draw;
        };
        let cp = white_cp(r.score, pos.turn());
        let decisive = match (r.score, cp) {
            (Score::Mate(n), _) => Some(if (n > 0) == (pos.turn() == Color::White) {
                Color::White
            } else {
                Color::Black
            }),
            (_, Some(cp)) if cp.abs() >= WIN_CP => {
                Some(if cp > 0 { Color::White } else { Color::Black })
            }
            _ => None,
        };
        win_streak = match decisive {
            Some(side) if win_streak.1 == Some(side) => (win_streak.0 + 1, Some(side)),
            Some(side) => (1, Some(side)),
            None => (0, None),
        };
        if win_streak.0 >= WIN_PLIES {
            break if win_streak.1 == Some(Color::White) {
                Outcome::WhiteWins
            } else {
                Outcome::BlackWins
            };
        }
        draw_streak = if cp.is_some_and(|cp| cp.abs() <= DRAW_CP) {
            draw_streak + 1
        } else {
            0
        };
        if positions.len() > DRAW_FROM_PLY && draw_streak >= DRAW_PLIES {
            break Outcome::Draw;
        }
        if let Some(cp) = cp {
            if positions.len() > MIN_PLY_KEPT
                && cp.abs() <= MAX_KEPT_CP
                && !pos.is_check()
                && !is_capture(&pos, best)
                && !best.is_promotion()
                && pos.board().occupied().count() >= 4
            {
                kept.push((pos, cp as i16, best));
            }
        }
        let mut next = pos;
        next.play_unchecked(best);
        positions.push(next);
    };
    Some(Game {
        records: kept
            .iter()
            .map(|(p, cp, _)| Record::new(p, *cp, outcome))
            .collect(),
        played: kept.iter().map(|k| k.2).collect(),
        outcome,
        plies: positions.len() - 1,
    })
}

/// Running totals of a self-play run, shared between its threads.
#[derive(Debug, Default)]
pub struct Progress {
    /// Games finished.
    pub games: AtomicU64,
    /// Positions written.
    pub positions: AtomicU64,
    /// Games White won, drawn, Black won.
    pub results: [AtomicU64; 3],
    /// Plies played over all games.
    pub plies: AtomicU64,
}

/// Plays games on `threads` threads until `games` are finished (if given) or `stop`
/// is set, writing each thread's records to `dir/t{n}.bin` (appending, a whole game
/// at a time). Thread `n` draws its openings from `seed` and `n`, so a run with
/// one thread and a game count is reproducible.
pub fn run(
    dir: &Path,
    threads: usize,
    games: Option<u64>,
    seed: u64,
    options: &Options,
    progress: &Progress,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let started = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let started = &started;
                scope.spawn(move || -> std::io::Result<()> {
                    let path = dir.join(format!("t{t}.bin"));
                    let file = File::options().create(true).append(true).open(path)?;
                    let mut out = BufWriter::new(file);
                    let mut engine = Engine::new(options.hash_mb);
                    engine.set_network(options.net.clone());
                    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9).wrapping_add(t as u64));
                    while !stop.load(Ordering::Relaxed) {
                        if games.is_some_and(|g| started.fetch_add(1, Ordering::Relaxed) >= g) {
                            break;
                        }
                        let game = loop {
                            if let Some(g) = play_game(&mut engine, options, &mut rng) {
                                break g;
                            }
                        };
                        for r in &game.records {
                            out.write_all(&r.to_bytes())?;
                        }
                        out.flush()?;
                        progress.games.fetch_add(1, Ordering::Relaxed);
                        progress
                            .positions
                            .fetch_add(game.records.len() as u64, Ordering::Relaxed);
                        progress
                            .plies
                            .fetch_add(game.plies as u64, Ordering::Relaxed);
                        let k = 2 - game.outcome as usize;
                        progress.results[k].fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(())
                })
            })
            .collect();
        // The scope joins any thread left when the first error returns.
        handles.into_iter().try_for_each(|h| {
            h.join()
                .unwrap_or_else(|_| Err(std::io::Error::other("a thread panicked")))
        })
    })
}

/// Reads every record of a file (a truncated last record is ignored).
pub fn read_records(path: &Path) -> std::io::Result<Vec<Record>> {
    let bytes = std::fs::read(path)?;
    bytes
        .chunks_exact(crate::record::RECORD_SIZE)
        .enumerate()
        .map(|(i, c)| {
            let arr: &[u8; crate::record::RECORD_SIZE] =
                c.try_into().map_err(std::io::Error::other)?;
            crate::record::Record::from_bytes(arr).map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: record {}: {e}", path.display(), i + 1),
                )
            })
        })
        .collect()
}
