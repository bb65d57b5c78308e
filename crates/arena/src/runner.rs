//! The match: game pairs from an opening suite (each opening once with each colour),
//! played by one or more worker threads that each own a pair of engine processes;
//! results tallied as they come, written to PGN, reported, and tested sequentially.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::thread;

use caissa_rules::Color;

use crate::engine::{EngineConfig, EngineError, Player, Protocol};
use crate::game::{play_game, EndKind, GameRecord, GameSettings};
use crate::openings::{self, Opening};
use crate::pgn::{self, PgnHeader};
use crate::stats::{EloEstimate, Pentanomial, Sprt, SprtStatus, Trinomial};
use crate::uci::UciEngine;
use crate::xboard::XboardEngine;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are given from the first one's point of view.
    pub engines: [EngineConfig; 2],
    /// Time control, margin and adjudication.
    pub settings: GameSettings,
    /// Games to play (rounded up to an even number: openings are played in pairs).
    pub games: u32,
    /// Games played at the same time.
    pub concurrency: usize,
    /// The start positions.
    pub openings: Vec<Opening>,
    /// Shuffle the openings with this seed (file order without one).
    pub seed: Option<u64>,
    /// Write every game to this PGN file (created or truncated).
    pub pgn: Option<PathBuf>,
    /// Stop early when this test accepts a hypothesis.
    pub sprt: Option<Sprt>,
    /// The PGN `Event` tag.
    pub event: String,
    /// The PGN `Site` tag.
    pub site: String,
}

/// Running totals, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// All games.
    pub results: Trinomial,
    /// Games the first engine played with White.
    pub as_white: Trinomial,
    /// Games the first engine played with Black.
    pub as_black: Trinomial,
    /// Completed opening pairs.
    pub pairs: Pentanomial,
    /// How games ended.
    pub endings: BTreeMap<EndKind, u32>,
}

impl Tally {
    fn add(&mut self, engine1_points: f64, engine1_white: bool, end: EndKind) {
        let add = |t: &mut Trinomial| {
            if engine1_points == 1.0 {
                t.wins += 1;
            } else if engine1_points == 0.0 {
                t.losses += 1;
            } else {
                t.draws += 1;
            }
        };
        add(&mut self.results);
        add(if engine1_white {
            &mut self.as_white
        } else {
            &mut self.as_black
        });
        *self.endings.entry(end).or_insert(0) += 1;
    }
}

/// A game that just finished, with the match standing after it.
pub struct Progress<'a> {
    /// Games finished so far.
    pub finished: u32,
    /// Games planned.
    pub total: u32,
    /// The game's number (its `Round`), from 1.
    pub round: u32,
    /// The game.
    pub record: &'a GameRecord,
    /// The opening's name, if known.
    pub opening: Option<&'a str>,
    /// The engines' names.
    pub names: &'a [String; 2],
    /// Totals so far.
    pub tally: &'a Tally,
    /// The sequential test's log-likelihood ratio, if one runs.
    pub llr: Option<f64>,
}

impl Progress<'_> {
    /// One status line: the game's result, then the match's score and Elo estimate.
    pub fn line(&self) -> String {
        let t = &self.tally.results;
        let elo = t.elo();
        let mut line = format!(
            "[{}/{}] {} vs {}: {} ({}) | {} {} - {} - {} [{:.3}] | Elo {} +/- {}",
            self.finished,
            self.total,
            self.record.white,
            self.record.black,
            self.record.result(),
            self.record.reason,
            self.names[0],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            fmt_elo(elo.elo),
            fmt_margin(elo.margin),
        );
        if let Some(llr) = self.llr {
            line.push_str(&format!(" | LLR {llr:.2}"));
        }
        line
    }
}

/// Something to tell the user while the match runs.
pub enum MatchEvent<'a> {
    /// The engines are up.
    Started {
        /// Their display names.
        names: &'a [String; 2],
        /// Games planned.
        games: u32,
    },
    /// A problem that does not stop the match.
    Warning(&'a str),
    /// A game finished.
    Game(&'a Progress<'a>),
}

/// The outcome of the sequential test.
#[derive(Copy, Clone, Debug)]
pub struct SprtOutcome {
    /// The test.
    pub sprt: Sprt,
    /// Final log-likelihood ratio.
    pub llr: f64,
    /// The decision (taken when a bound was first crossed).
    pub status: SprtStatus,
}

/// A finished (or stopped) match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The engines' display names.
    pub names: [String; 2],
    /// Totals.
    pub tally: Tally,
    /// Games planned.
    pub planned: u32,
    /// The sequential test, if one ran.
    pub sprt: Option<SprtOutcome>,
    /// Problems that ended the match before all games were played, or that lost
    /// games' records (such as PGN write errors).
    pub errors: Vec<String>,
}

/// `x` rounded to `decimals`, without a negative zero.
fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        fixed(x, 1)
    } else if x > 0.0 {
        "inf".to_string()
    } else {
        "-inf".to_string()
    }
}

fn fmt_margin(x: f64) -> String {
    if x.is_finite() {
        fixed(x, 1)
    } else {
        "inf".to_string()
    }
}

fn json_number(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        fixed(x, decimals)
    } else {
        "null".to_string()
    }
}

impl MatchReport {
    /// The Elo estimate from the game results.
    pub fn elo(&self) -> EloEstimate {
        self.tally.results.elo()
    }

    /// The human-readable summary: score line, Elo line, then details.
    pub fn summary(&self) -> String {
        let t = &self.tally.results;
        let elo = self.elo();
        let mut out = format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}\n",
            self.names[0],
            self.names[1],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        );
        out.push_str(&format!(
            "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
            fmt_elo(elo.elo),
            fmt_margin(elo.margin),
            elo.los * 100.0,
            t.draw_ratio() * 100.0
        ));
        let pairs = &self.tally.pairs;
        if pairs.pairs() > 0 {
            let p = pairs.elo();
            out.push_str(&format!(
                "Ptnml(0-2): {:?}, pair Elo: {} +/- {}, LOS: {:.1} %\n",
                pairs.0,
                fmt_elo(p.elo),
                fmt_margin(p.margin),
                p.los * 100.0
            ));
        }
        let (w, b) = (&self.tally.as_white, &self.tally.as_black);
        out.push_str(&format!(
            "{} as White: {} - {} - {}, as Black: {} - {} - {}\n",
            self.names[0], w.wins, w.losses, w.draws, b.wins, b.losses, b.draws
        ));
        if !self.tally.endings.is_empty() {
            let endings: Vec<String> = self
                .tally
                .endings
                .iter()
                .map(|(k, n)| format!("{} {n}", k.as_str()))
                .collect();
            out.push_str(&format!("Endings: {}\n", endings.join(", ")));
        }
        if let Some(s) = &self.sprt {
            let (lower, upper) = s.sprt.bounds();
            let verdict = match s.status {
                SprtStatus::AcceptH1 => "H1 was accepted",
                SprtStatus::AcceptH0 => "H0 was accepted",
                SprtStatus::Continue => "no decision",
            };
            out.push_str(&format!(
                "SPRT: elo0 {} elo1 {} alpha {} beta {}: llr {:.2}, lbound {:.2}, ubound {:.2} - {}\n",
                s.sprt.elo0, s.sprt.elo1, s.sprt.alpha, s.sprt.beta, s.llr, lower, upper, verdict
            ));
        }
        if t.games() < self.planned {
            out.push_str(&format!(
                "Stopped after {} of {} games\n",
                t.games(),
                self.planned
            ));
        }
        for e in &self.errors {
            out.push_str(&format!("Error: {e}\n"));
        }
        out
    }

    /// The machine-readable line:
    /// `{"wins":12,"draws":3,"losses":5,"elo":127.0,"margin":140.2,"los":95.1,"sprt":null}`
    /// (non-finite numbers as `null`; `sprt` an object with `elo0`, `elo1`, `alpha`,
    /// `beta`, `llr`, `lower`, `upper` and `result`: `H0`, `H1` or `continue`).
    pub fn json(&self) -> String {
        let t = &self.tally.results;
        let elo = self.elo();
        let sprt = match &self.sprt {
            None => "null".to_string(),
            Some(s) => {
                let (lower, upper) = s.sprt.bounds();
                format!(
                    "{{\"elo0\":{},\"elo1\":{},\"alpha\":{},\"beta\":{},\"llr\":{},\"lower\":{},\"upper\":{},\"result\":\"{}\"}}",
                    s.sprt.elo0,
                    s.sprt.elo1,
                    s.sprt.alpha,
                    s.sprt.beta,
                    json_number(s.llr, 3),
                    json_number(lower, 3),
                    json_number(upper, 3),
                    s.status.as_str()
                )
            }
        };
        format!(
            "{{\"wins\":{},\"draws\":{},\"losses\":{},\"elo\":{},\"margin\":{},\"los\":{},\"sprt\":{}}}",
            t.wins,
            t.draws,
            t.losses,
            json_number(elo.elo, 1),
            json_number(elo.margin, 1),
            json_number(elo.los * 100.0, 1),
            sprt
        )
    }
}

/// Starts an engine by its protocol. `label` names it in debug output.
pub fn start_engine(config: &EngineConfig, label: &str) -> Result<Box<dyn Player>, EngineError> {
    Ok(match config.protocol {
        Protocol::Uci => Box::new(UciEngine::start(config.clone(), label)?),
        Protocol::Xboard => Box::new(XboardEngine::start(config.clone(), label)?),
    })
}

/// Makes the players of a worker: called with the engine's index (0 or 1) and the
/// worker's index.
pub type PlayerFactory<'a> =
    dyn Fn(usize, usize) -> Result<Box<dyn Player>, EngineError> + Sync + 'a;

/// Plays a match between engine processes.
pub fn run_match(
    config: &MatchConfig,
    on_event: &mut dyn FnMut(MatchEvent<'_>),
) -> Result<MatchReport, String> {
    let engines = config.engines.clone();
    let factory = move |engine: usize, worker: usize| {
        start_engine(&engines[engine], &format!("engine{}.{worker}", engine + 1))
    };
    run_match_with(config, &factory, on_event)
}

enum WorkerMessage {
    Game {
        worker: usize,
        index: u32,
        engine1_white: bool,
        opening: usize,
        record: Box<GameRecord>,
    },
    Fatal(String),
}

fn disambiguate(mut names: [String; 2]) -> [String; 2] {
    if names[0] == names[1] {
        names[0].push_str(" (1)");
        names[1].push_str(" (2)");
    }
    names
}

/// Plays a match between the players `factory` makes (one pair per worker). Fails
/// only when the first pair cannot be made; later failures end the match early and
/// are listed in the report.
pub fn run_match_with(
    config: &MatchConfig,
    factory: &PlayerFactory<'_>,
    on_event: &mut dyn FnMut(MatchEvent<'_>),
) -> Result<MatchReport, String> {
    if config.openings.is_empty() {
        return Err("the opening suite is empty".to_string());
    }
    let total = config.games.max(1).div_ceil(2) * 2;
    let concurrency = config.concurrency.clamp(1, total as usize);
    let order = openings::order(config.openings.len(), config.seed);

    let start_pair = |worker: usize| -> Result<[Box<dyn Player>; 2], String> {
        let first = factory(0, worker).map_err(|e| format!("engine 1 {e}"))?;
        let second = factory(1, worker).map_err(|e| format!("engine 2 {e}"))?;
        Ok([first, second])
    };
    let first_pair = start_pair(0)?;
    for player in &first_pair {
        for w in player.warnings() {
            on_event(MatchEvent::Warning(&w));
        }
    }
    let names = disambiguate([
        config.engines[0]
            .name
            .clone()
            .unwrap_or_else(|| first_pair[0].name().to_string()),
        config.engines[1]
            .name
            .clone()
            .unwrap_or_else(|| first_pair[1].name().to_string()),
    ]);
    on_event(MatchEvent::Started {
        names: &names,
        games: total,
    });

    let mut pgn_out = match &config.pgn {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                format!("cannot create {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    let date = pgn::today();

    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let mut tally = Tally::default();
    let mut errors = Vec::new();
    let mut pair_first: HashMap<u32, f64> = HashMap::new();
    let mut sprt_status = SprtStatus::Continue;
    let mut finished = 0;

    thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<WorkerMessage>();
        let mut first_pair = Some(first_pair);
        // Each result is acknowledged once tallied, so that a worker starts its next
        // game only after the previous result was counted (and the SPRT consulted).
        let mut acks = Vec::with_capacity(concurrency);
        for worker in 0..concurrency {
            let sender = sender.clone();
            let (ack_sender, ack) = mpsc::channel::<()>();
            acks.push(ack_sender);
            let players = first_pair.take();
            let (next, stop, order) = (&next, &stop, &order);
            let start_pair = &start_pair;
            scope.spawn(move || {
                let mut players = match players {
                    Some(p) => p,
                    None => match start_pair(worker) {
                        Ok(p) => p,
                        Err(e) => {
                            let _ = sender.send(WorkerMessage::Fatal(e));
                            return;
                        }
                    },
                };
                while !stop.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= total {
                        break;
                    }
                    let opening = order[(index / 2) as usize % order.len()];
                    let engine1_white = index % 2 == 0;
                    if let Err(message) = new_game(&mut players) {
                        stop.store(true, Ordering::SeqCst);
                        let _ = sender.send(WorkerMessage::Fatal(message));
                        return;
                    }
                    let [p1, p2] = &mut players;
                    let (white, black): (&mut dyn Player, &mut dyn Player) = if engine1_white {
                        (p1.as_mut(), p2.as_mut())
                    } else {
                        (p2.as_mut(), p1.as_mut())
                    };
                    let record = play_game(
                        white,
                        black,
                        &config.openings[opening].position,
                        &config.settings,
                    );
                    let message = WorkerMessage::Game {
                        worker,
                        index,
                        engine1_white,
                        opening,
                        record: Box::new(record),
                    };
                    if sender.send(message).is_err() || ack.recv().is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);

        for message in receiver {
            let (worker, index, engine1_white, opening, mut record) = match message {
                WorkerMessage::Fatal(e) => {
                    on_event(MatchEvent::Warning(&e));
                    errors.push(e);
                    continue;
                }
                WorkerMessage::Game {
                    worker,
                    index,
                    engine1_white,
                    opening,
                    record,
                } => (worker, index, engine1_white, opening, record),
            };
            let (white, black) = if engine1_white { (0, 1) } else { (1, 0) };
            record.white.clone_from(&names[white]);
            record.black.clone_from(&names[black]);
            let engine1_color = if engine1_white {
                Color::White
            } else {
                Color::Black
            };
            let points = record.points_for(engine1_color);
            tally.add(points, engine1_white, record.end);
            let pair = index / 2;
            match pair_first.remove(&pair) {
                Some(other) => tally.pairs.add(other + points),
                None => {
                    pair_first.insert(pair, points);
                }
            }
            finished += 1;

            let opening_name = config.openings[opening].name.as_deref();
            if let Some(out) = pgn_out.as_mut() {
                let header = PgnHeader {
                    event: config.event.clone(),
                    site: config.site.clone(),
                    date: date.clone(),
                    round: (index + 1).to_string(),
                    time_control: config.settings.time_control.to_string(),
                    opening: opening_name.map(str::to_string),
                };
                let written = pgn::to_pgn(&record, &header)
                    .map_err(|e| format!("game {}: cannot write PGN: {e}", index + 1))
                    .and_then(|text| {
                        out.write_all(text.as_bytes())
                            .and_then(|()| out.flush())
                            .map_err(|e| format!("writing the PGN file: {e}"))
                    });
                if let Err(e) = written {
                    on_event(MatchEvent::Warning(&e));
                    errors.push(e);
                }
            }

            let llr = config.sprt.map(|s| s.llr(&tally.results));
            if let (Some(sprt), Some(llr)) = (config.sprt, llr) {
                if sprt_status == SprtStatus::Continue {
                    sprt_status = sprt.status(llr);
                    if sprt_status != SprtStatus::Continue {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            let progress = Progress {
                finished,
                total,
                round: index + 1,
                record: &record,
                opening: opening_name,
                names: &names,
                tally: &tally,
                llr,
            };
            on_event(MatchEvent::Game(&progress));
            let _ = acks[worker].send(());
        }
    });

    let sprt = config.sprt.map(|sprt| SprtOutcome {
        sprt,
        llr: sprt.llr(&tally.results),
        status: sprt_status,
    });
    Ok(MatchReport {
        names,
        tally,
        planned: total,
        sprt,
        errors,
    })
}

/// Tells both players about a new game, retrying once (a failed engine is
/// restarted by its next `new_game`).
fn new_game(players: &mut [Box<dyn Player>; 2]) -> Result<(), String> {
    for (i, player) in players.iter_mut().enumerate() {
        if let Err(first) = player.new_game() {
            player.new_game().map_err(|e| {
                format!(
                    "engine {} ({}) cannot start a game: {first}; after a restart: {e}",
                    i + 1,
                    player.name()
                )
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_without_negative_zero() {
        assert_eq!(fixed(-0.0, 1), "0.0");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-0.06, 1), "-0.1");
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(json_number(f64::INFINITY, 1), "null");
        assert_eq!(json_number(126.968, 1), "127.0");
    }
}
