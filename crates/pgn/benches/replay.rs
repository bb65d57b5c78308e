//! Replaying PGN: caissa (`Reader` + `Replayer`) against `pgn-reader` + `shakmaty`,
//! side by side in one process, on the same in-memory synthetic corpus.
//!
//! Both sides do the same work for every game: read the tags (`FEN`, `Variant` and
//! `Result` are honoured, the rest ignored), read the movetext, and for every SAN
//! move — variations included — resolve it against the current position with full
//! legality checking and play it. A variation is replayed from the position before
//! the move it replaces, on a stack of lines, exactly as caissa's `Replayer` does.
//! Comments and NAGs are read and ignored by both. Each game ends with its result,
//! its mainline ply count and its final mainline position.
//!
//! Before timing, both are run over the whole corpus and must agree game by game
//! (result, mainline plies, final FEN, no errors) and with the generator (mainline
//! length); a disagreement prints the game and both results and aborts.
//!
//! Then criterion times each side (throughput in bytes), and a final phase runs both
//! in alternating rounds and prints a markdown table (games/s, MB/s with MB = 10^6
//! bytes, and the ratio caissa / pgn-reader, taken per round pair to cancel drift
//! in the machine's load).
//!
//! `cargo bench -p caissa-pgn --bench replay`; `CAISSA_BENCH_GAMES=n` changes the
//! corpus size (5,000 games, about 15 MB, by default). Without `--bench` (as under
//! `cargo test --benches`) only the agreement check runs, on a small corpus.

#[path = "../tests/corpus/mod.rs"]
#[allow(dead_code)]
mod corpus;

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use caissa_pgn::{Reader, Replayer};
use criterion::{Criterion, SamplingMode, Throughput};
use pgn_reader::{Outcome, RawTag, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

const SEED: u64 = 1;
const GAMES: u64 = 5_000;
const SMOKE_GAMES: u64 = 300;
/// Alternating rounds (each side once per round) for the summary table.
const ROUNDS: usize = 9;

/// The corpus as one text, with where each game starts and its mainline length.
struct Corpus {
    text: String,
    starts: Vec<usize>,
    mainline_plies: Vec<u32>,
}

impl Corpus {
    fn generate(count: u64) -> Corpus {
        let mut corpus = Corpus {
            text: String::new(),
            starts: Vec::new(),
            mainline_plies: Vec::new(),
        };
        for i in 0..count {
            let game = corpus::game(SEED, i);
            corpus.starts.push(corpus.text.len());
            corpus.mainline_plies.push(game.mainline.moves.len() as u32);
            let text = caissa_pgn::write_game(&game).expect("generated games are legal");
            corpus.text.push_str(&text);
        }
        corpus
    }

    /// The text of game `i` (0-based).
    fn game_text(&self, i: usize) -> &str {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.text.len());
        &self.text[self.starts[i]..end]
    }
}

// ---- pgn-reader + shakmaty ----

/// The `pgn-reader` visitor: validates and plays every SAN with `shakmaty`,
/// variations included, mirroring `caissa_pgn::Replayer`.
#[derive(Default)]
struct ShakmatyReplayer {
    chess960: bool,
    result_tag: Option<String>,
    result: Option<Outcome>,
    plies: u32,
    /// One entry per open line (mainline first): the position before the line's
    /// last move, and the current one.
    lines: Vec<(Chess, Chess)>,
    error: Option<String>,
}

/// What replaying one game with `shakmaty` found.
struct ShakmatyGame {
    result: String,
    plies: u32,
    position: Chess,
    error: Option<String>,
}

impl ShakmatyReplayer {
    fn finish(&mut self) -> ShakmatyGame {
        let position = self
            .lines
            .first()
            .map(|(_, current)| current.clone())
            .unwrap_or_default();
        ShakmatyGame {
            result: match self.result.take() {
                Some(outcome) => outcome.as_str().to_string(),
                None => self.result_tag.take().unwrap_or_else(|| "*".to_string()),
            },
            plies: self.plies,
            position,
            error: self.error.take(),
        }
    }

    fn fail(&mut self, message: String) -> ControlFlow<ShakmatyGame> {
        self.error = Some(message);
        ControlFlow::Break(self.finish())
    }
}

impl Visitor for ShakmatyReplayer {
    type Tags = Option<Fen>;
    type Movetext = ();
    type Output = ShakmatyGame;

    fn begin_tags(&mut self) -> ControlFlow<ShakmatyGame, Option<Fen>> {
        self.chess960 = false;
        self.result_tag = None;
        self.result = None;
        self.plies = 0;
        self.lines.clear();
        self.error = None;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Option<Fen>,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<ShakmatyGame> {
        match name {
            b"FEN" => match Fen::from_ascii(value.as_bytes()) {
                Ok(fen) => *tags = Some(fen),
                Err(e) => return self.fail(format!("FEN tag: {e}")),
            },
            b"Result" => self.result_tag = Some(value.decode_utf8_lossy().into_owned()),
            b"Variant" => {
                let v = value.decode_utf8_lossy().to_ascii_lowercase();
                // As caissa's `variant_is_chess960` (which also rejects other variants;
                // the corpus has none).
                self.chess960 =
                    v.contains("960") || v.contains("fischer") || v.contains("freestyle");
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Fen>) -> ControlFlow<ShakmatyGame> {
        let mode = if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let start = match tags {
            None => Chess::default(),
            Some(fen) => match fen.into_position::<Chess>(mode) {
                Ok(pos) => pos,
                Err(e) => return self.fail(format!("FEN tag: {e}")),
            },
        };
        self.lines.push((start.clone(), start));
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san_plus: SanPlus) -> ControlFlow<ShakmatyGame> {
        let depth = self.lines.len() - 1;
        let Some((before, current)) = self.lines.last_mut() else {
            return ControlFlow::Continue(());
        };
        match san_plus.san.to_move(current) {
            Ok(m) => {
                before.clone_from(current);
                current.play_unchecked(m);
                if depth == 0 {
                    self.plies += 1;
                }
                ControlFlow::Continue(())
            }
            Err(e) => self.fail(format!("{san_plus}: {e}")),
        }
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<ShakmatyGame, Skip> {
        if let Some((before, _)) = self.lines.last() {
            let before = before.clone();
            self.lines.push((before.clone(), before));
        }
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, _: &mut ()) -> ControlFlow<ShakmatyGame> {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _: &mut (), outcome: Outcome) -> ControlFlow<ShakmatyGame> {
        self.result = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) -> ShakmatyGame {
        self.finish()
    }
}

// ---- the timed passes ----

/// Games and mainline plies seen in one pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Totals {
    games: u64,
    plies: u64,
}

fn caissa_pass(bytes: &[u8]) -> Totals {
    let mut reader = Reader::from_bytes(bytes);
    let mut replayer = Replayer::new();
    let mut totals = Totals { games: 0, plies: 0 };
    while let Some(game) = reader.read_game(&mut replayer).expect("reading memory") {
        totals.games += 1;
        totals.plies += u64::from(game.plies);
        black_box(&game);
    }
    totals
}

fn pgn_reader_pass(bytes: &[u8]) -> Totals {
    let mut reader = pgn_reader::Reader::new(bytes);
    let mut replayer = ShakmatyReplayer::default();
    let mut totals = Totals { games: 0, plies: 0 };
    while let Some(game) = reader.read_game(&mut replayer).expect("reading memory") {
        totals.games += 1;
        totals.plies += u64::from(game.plies);
        black_box(&game);
    }
    totals
}

// ---- agreement ----

/// One game as either side sees it, for comparison.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    result: String,
    plies: u32,
    fen: String,
    error: Option<String>,
}

fn caissa_seen(bytes: &[u8]) -> Vec<Seen> {
    let mut reader = Reader::from_bytes(bytes);
    let mut replayer = Replayer::new();
    let mut seen = Vec::new();
    while let Some(game) = reader.read_game(&mut replayer).expect("reading memory") {
        seen.push(Seen {
            result: game.result,
            plies: game.plies,
            fen: game.position.fen(),
            error: game.error.map(|e| e.to_string()),
        });
    }
    seen
}

fn pgn_reader_seen(bytes: &[u8]) -> Vec<Seen> {
    let mut reader = pgn_reader::Reader::new(bytes);
    let mut replayer = ShakmatyReplayer::default();
    let mut seen = Vec::new();
    while let Some(game) = reader.read_game(&mut replayer).expect("reading memory") {
        seen.push(Seen {
            result: game.result,
            plies: game.plies,
            fen: Fen::from_position(&game.position, EnPassantMode::Legal).to_string(),
            error: game.error,
        });
    }
    seen
}

/// Both sides agree on every game, with each other and with the generator.
fn check_agreement(corpus: &Corpus) {
    let bytes = corpus.text.as_bytes();
    let ours = caissa_seen(bytes);
    let theirs = pgn_reader_seen(bytes);
    let expected = corpus.starts.len();
    let mut bad = 0;
    for i in 0..expected.max(ours.len()).max(theirs.len()) {
        let (a, b) = (ours.get(i), theirs.get(i));
        let generated = corpus.mainline_plies.get(i).copied();
        let agree = matches!((a, b), (Some(a), Some(b)) if a == b && a.error.is_none()
            && Some(a.plies) == generated);
        if !agree {
            bad += 1;
            if bad <= 5 {
                eprintln!(
                    "game {} disagrees (generated mainline: {generated:?} plies)",
                    i + 1
                );
                eprintln!("  caissa:     {a:?}");
                eprintln!("  pgn-reader: {b:?}");
                if i < expected {
                    eprintln!("{}", corpus.game_text(i));
                }
            }
        }
    }
    assert_eq!(bad, 0, "caissa and pgn-reader disagree on {bad} games");
    let plies: u64 = ours.iter().map(|g| u64::from(g.plies)).sum();
    let expected_totals = Totals {
        games: expected as u64,
        plies,
    };
    assert_eq!(caissa_pass(bytes), expected_totals);
    assert_eq!(pgn_reader_pass(bytes), expected_totals);
    println!(
        "agreement: {} games, {plies} mainline plies, results and final FENs identical",
        ours.len()
    );
}

// ---- summary ----

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Runs both sides in alternating rounds and prints the markdown table.
fn summary(corpus: &Corpus, totals: Totals) {
    let bytes = corpus.text.as_bytes();
    let mut caissa = Vec::with_capacity(ROUNDS);
    let mut theirs = Vec::with_capacity(ROUNDS);
    let time = |pass: fn(&[u8]) -> Totals| {
        let start = Instant::now();
        assert_eq!(black_box(pass(black_box(bytes))), totals);
        start.elapsed().as_secs_f64()
    };
    for round in 0..ROUNDS {
        // Alternate which side goes first, so neither always follows the other.
        if round % 2 == 0 {
            caissa.push(time(caissa_pass));
            theirs.push(time(pgn_reader_pass));
        } else {
            theirs.push(time(pgn_reader_pass));
            caissa.push(time(caissa_pass));
        }
    }
    let mut ratios: Vec<f64> = caissa.iter().zip(&theirs).map(|(c, t)| t / c).collect();
    let ratio = median(&mut ratios);
    let (ratio_lo, ratio_hi) = (ratios[0], ratios[ratios.len() - 1]);
    let mb = bytes.len() as f64 / 1e6;
    let games = totals.games as f64;
    let row = |name: &str, secs: &mut Vec<f64>, ratio: &str| {
        let best = secs.iter().copied().fold(f64::INFINITY, f64::min);
        let med = median(secs);
        println!(
            "| {name} | {:.0} | {:.1} | {:.1} | {ratio} |",
            games / med,
            mb / med,
            mb / best,
        );
    };
    println!();
    println!(
        "Replay, {} games, {:.1} MB, {} mainline plies; median of {ROUNDS} alternating rounds:",
        totals.games, mb, totals.plies
    );
    println!();
    println!("| implementation | games/s | MB/s | MB/s (best) | caissa / pgn-reader |");
    println!("|---|---:|---:|---:|---:|");
    row(
        "caissa (Reader + Replayer)",
        &mut caissa,
        &format!("{ratio:.2}"),
    );
    row(
        "pgn-reader 0.29 + shakmaty 0.30",
        &mut theirs,
        &format!("(rounds: {ratio_lo:.2}–{ratio_hi:.2})"),
    );
    println!();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    // As criterion decides: benchmarks only under `--bench` (and not `--test`).
    let benchmarking = has("--bench") && !has("--test") && !has("--list");
    let count = if benchmarking {
        std::env::var("CAISSA_BENCH_GAMES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(GAMES)
    } else {
        SMOKE_GAMES
    };

    let start = Instant::now();
    let corpus = Corpus::generate(count);
    let bytes = corpus.text.as_bytes();
    println!(
        "corpus: {count} games (seed {SEED}), {:.1} MB, generated in {:.1} s",
        bytes.len() as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    check_agreement(&corpus);
    let totals = caissa_pass(bytes);

    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(8))
        .sample_size(10)
        .configure_from_args();
    {
        let mut group = criterion.benchmark_group("replay");
        group
            .sampling_mode(SamplingMode::Flat)
            .throughput(Throughput::BytesDecimal(bytes.len() as u64));
        group.bench_function("caissa", |b| b.iter(|| caissa_pass(black_box(bytes))));
        group.bench_function("pgn-reader+shakmaty", |b| {
            b.iter(|| pgn_reader_pass(black_box(bytes)))
        });
        group.finish();
    }
    criterion.final_summary();

    if benchmarking {
        summary(&corpus, totals);
    }
}
