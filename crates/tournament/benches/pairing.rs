//! Pairing speed: the FIDE Dutch system on the largest generated tournaments of
//! `tests/data/dutch` (150, 300 and 500 players; round 2 and the middle round, and
//! the last round of 500), side by side with bbpPairings when `BBP_PAIRINGS` names
//! its binary, and the arena pairing of 2,000 waiting players.
//!
//! ```text
//! cargo bench -p caissa-tournament --bench pairing                 # all, ours only
//! BBP_PAIRINGS=/path/to/bbpPairings.exe cargo bench -p caissa-tournament --bench pairing
//! cargo bench -p caissa-tournament --bench pairing -- '_150|_300|arena'   # no 500s
//! ```
//!
//! Each Dutch case is one group, `dutch/round<R>_<players>`, with `caissa` (one call of
//! `dutch::pair` on the tournament as it stood before round R, built once) and, with
//! `BBP_PAIRINGS` set, `bbpPairings` (one run of `bbpPairings.exe --dutch in.trf -p
//! out.txt` as a process, on that tournament written once by `trf::write`; its time
//! includes starting the process and reading and writing the files). Before a case is
//! timed, both pairings are compared with the peer's recorded pairing in the
//! `.pairings` file, and the run stops on a difference.
//!
//! The 500-player cases take about half a second an iteration for caissa and 4-11 s
//! for the peer (12 iterations each: the check, one warm-up, ten samples), a few
//! minutes of the run with the peer; criterion's filter leaves them out. At the end of a benchmarking run (not under
//! `cargo test --benches`) a markdown table follows on stdout: for each side the median
//! of criterion's samples (warm-up included) of the time per iteration, and the ratio
//! caissa/bbpPairings (above 1: caissa slower).
//!
//! Sampling is flat, 10 samples in 5 s after 1 s of warm-up: a case of half a second or
//! more takes one iteration per sample, and criterion warns that it cannot finish in
//! 5 s, which is intended.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use caissa_tournament::arena::{self, ColourHistory, Waiting};
use caissa_tournament::{dutch, trf, Tournament};
use criterion::{Bencher, Criterion, SamplingMode, Throughput};

/// The bbpPairings binary, to time it alongside.
const PEER_VAR: &str = "BBP_PAIRINGS";

/// A Dutch round to pair: a tournament file in `tests/data/dutch` and the round.
struct Case {
    file: &'static str,
    players: usize,
    round: usize,
}

impl Case {
    fn name(&self) -> String {
        format!("round{}_{}", self.round, self.players)
    }
}

/// Round 2 and the middle round of the three largest generated tournaments, and
/// the last round of the largest (its weights are the widest).
const CASES: [Case; 7] = [
    Case {
        file: "g078-n500-r11",
        players: 500,
        round: 2,
    },
    Case {
        file: "g078-n500-r11",
        players: 500,
        round: 6,
    },
    Case {
        file: "g078-n500-r11",
        players: 500,
        round: 11,
    },
    Case {
        file: "g076-n300-r9",
        players: 300,
        round: 2,
    },
    Case {
        file: "g076-n300-r9",
        players: 300,
        round: 5,
    },
    Case {
        file: "g070-n150-r9",
        players: 150,
        round: 2,
    },
    Case {
        file: "g070-n150-r9",
        players: 150,
        round: 5,
    },
];

const CAISSA: usize = 0;
const PEER: usize = 1;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch")
}

/// The round `round` section of a `.pairings` file, one trimmed line each.
fn recorded_pairing(text: &str, round: usize) -> String {
    let header = format!("round {round}");
    let mut lines = text.lines().skip_while(|l| l.trim() != header).skip(1);
    let section: Vec<&str> = lines
        .by_ref()
        .take_while(|l| !l.starts_with("round "))
        .map(str::trim_end)
        .collect();
    assert!(!section.is_empty(), "no {header} in the .pairings file");
    normalised(&section.join("\n"))
}

/// Program output with each line trimmed and LF endings.
fn normalised(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

/// One Dutch case, ready to pair: the input, where the peer reads it, and the pairing
/// the peer recorded.
struct Prepared {
    input: Tournament,
    trf: PathBuf,
    out: PathBuf,
    expected: String,
}

fn prepare(case: &Case, scratch: &Path) -> Prepared {
    let dir = data_dir();
    let text = std::fs::read_to_string(dir.join(format!("{}.trf", case.file)))
        .unwrap_or_else(|e| panic!("{}.trf: {e}", case.file));
    let full = trf::parse(&text).unwrap_or_else(|e| panic!("{}.trf: {e}", case.file));
    assert_eq!(full.players.len(), case.players, "{}", case.file);
    let mut input = full.before_round(case.round);
    if input.total_rounds.is_none() {
        input.total_rounds = Some(full.rounds_played() as u32);
    }
    let pairings = std::fs::read_to_string(dir.join(format!("{}.pairings", case.file)))
        .unwrap_or_else(|e| panic!("{}.pairings: {e}", case.file));
    let expected = recorded_pairing(&pairings, case.round);
    // `trf::write` gives XXR and XXC from `total_rounds` and `initial_colour`, which
    // `before_round` makes explicit; bbp needs both.
    let trf_path = scratch.join(format!("{}.trf", case.name()));
    std::fs::write(&trf_path, trf::write(&input))
        .unwrap_or_else(|e| panic!("{}: {e}", trf_path.display()));
    Prepared {
        input,
        out: scratch.join(format!("{}.out.txt", case.name())),
        trf: trf_path,
        expected,
    }
}

fn caissa_pairing(input: &Tournament) -> String {
    match dutch::pair(input) {
        Ok(p) => p.to_program_output(),
        Err(e) => format!("error: {e}\n"),
    }
}

/// Runs the peer once on the prepared input; panics if it fails.
fn run_peer(peer: &Path, prepared: &Prepared) {
    let output = Command::new(peer)
        .arg("--dutch")
        .arg(&prepared.trf)
        .arg("-p")
        .arg(&prepared.out)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", peer.display()));
    assert!(
        output.status.success(),
        "{} --dutch {} -p {}: {}\n{}",
        peer.display(),
        prepared.trf.display(),
        prepared.out.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr),
    );
}

/// Pairs `case` once on side `side` and checks the result against the recorded pairing.
fn verify(case: &Case, prepared: &Prepared, side: usize, peer: Option<&Path>) {
    let start = Instant::now();
    let got = match (side, peer) {
        (CAISSA, _) => normalised(&caissa_pairing(&prepared.input)),
        (_, Some(peer)) => {
            run_peer(peer, prepared);
            let text = std::fs::read_to_string(&prepared.out)
                .unwrap_or_else(|e| panic!("{}: {e}", prepared.out.display()));
            normalised(&text)
        }
        _ => unreachable!("no peer to verify"),
    };
    let elapsed = start.elapsed();
    assert!(
        got == prepared.expected,
        "{} ({} round {}): {} pairs differently from the recorded pairing\n want:\n{} got:\n{}",
        case.name(),
        case.file,
        case.round,
        SIDES[side],
        prepared.expected,
        got,
    );
    eprintln!(
        "verified {} ({} round {}), {}: one run {elapsed:.2?}",
        case.name(),
        case.file,
        case.round,
        SIDES[side],
    );
}

const SIDES: [&str; 2] = ["caissa", "bbpPairings"];

// ---------------------------------------------------------------------------------
// Timing records for the summary table.

/// (case index, side) → seconds per iteration, one per criterion call.
static SAMPLES: Mutex<BTreeMap<(usize, usize), Vec<f64>>> = Mutex::new(BTreeMap::new());

/// Times `iters` runs of `routine` for criterion and keeps the time per iteration.
fn timed(b: &mut Bencher<'_>, key: (usize, usize), mut routine: impl FnMut()) {
    b.iter_custom(|iters| {
        let start = Instant::now();
        for _ in 0..iters {
            routine();
        }
        let elapsed = start.elapsed();
        if iters > 0 {
            let mut samples = SAMPLES.lock().unwrap_or_else(|e| e.into_inner());
            samples
                .entry(key)
                .or_default()
                .push(elapsed.as_secs_f64() / iters as f64);
        }
        elapsed
    });
}

fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    })
}

fn seconds(secs: Option<f64>) -> String {
    match secs {
        Some(s) if s >= 1.0 => format!("{s:.2} s"),
        Some(s) => format!("{:.1} ms", s * 1e3),
        None => "-".to_string(),
    }
}

/// The markdown summary of the Dutch cases timed, or `None` if none was.
fn summary_table() -> Option<String> {
    let samples = SAMPLES.lock().unwrap_or_else(|e| e.into_inner());
    let mut out = String::from(
        "| case | tournament | caissa | bbpPairings | caissa/bbpPairings |\n|---|---|---:|---:|---:|\n",
    );
    let mut any = false;
    for (i, case) in CASES.iter().enumerate() {
        let time = |side| samples.get(&(i, side)).and_then(|v| median(v));
        let (ours, peer) = (time(CAISSA), time(PEER));
        if ours.is_none() && peer.is_none() {
            continue;
        }
        any = true;
        let ratio = match (ours, peer) {
            (Some(o), Some(p)) if p > 0.0 => format!("{:.2}", o / p),
            _ => "-".to_string(),
        };
        out.push_str(&format!(
            "| dutch/{} | {} round {} | {} | {} | {ratio} |\n",
            case.name(),
            case.file,
            case.round,
            seconds(ours),
            seconds(peer),
        ));
    }
    any.then_some(out)
}

// ---------------------------------------------------------------------------------
// The arena field.

/// SplitMix64: a small seeded generator, so the field is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the modulo bias is irrelevant here).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` waiting players (ids 1..=n): scores 0-79, ratings 800-2799, colour histories
/// of up to 20 games, and as last opponent one other player (their previous games
/// paired at random, one in eight with the next player in the ranking so that the
/// rematch rule has work to do), none for one player in ten.
fn arena_field(n: usize, seed: u64) -> Vec<Waiting> {
    let mut rng = Rng(seed);
    let mut field: Vec<Waiting> = (1..=n as u32)
        .map(|id| {
            let games = rng.below(21) as i32;
            let balance = if games == 0 {
                0
            } else {
                rng.below(5) as i32 - 2
            };
            let run = match (games, rng.below(2)) {
                (0, _) => 0,
                (_, 0) => -(1 + rng.below(2) as i32),
                _ => 1 + rng.below(2) as i32,
            };
            Waiting {
                id,
                score: rng.below(80) as u32,
                rating: 800 + rng.below(2000) as u16,
                last_opponent: None,
                colours: ColourHistory { balance, run },
            }
        })
        .collect();
    // Previous games: the ranking order, then a shuffle of everyone else.
    field.sort_by_key(|w| (Reverse(w.score), Reverse(w.rating), w.id));
    let mut free: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < n {
        if i + 1 < n && rng.below(8) == 0 {
            let (a, b) = (field[i].id, field[i + 1].id);
            field[i].last_opponent = Some(b);
            field[i + 1].last_opponent = Some(a);
            i += 2;
        } else {
            free.push(i);
            i += 1;
        }
    }
    for k in (1..free.len()).rev() {
        free.swap(k, rng.below(k as u64 + 1) as usize);
    }
    for pair in free.chunks(2) {
        if let [a, b] = *pair {
            if rng.below(10) != 0 {
                let (ida, idb) = (field[a].id, field[b].id);
                field[a].last_opponent = Some(idb);
                field[b].last_opponent = Some(ida);
            }
        }
    }
    // Back to id order, as a server would hold them.
    field.sort_by_key(|w| w.id);
    field
}

// ---------------------------------------------------------------------------------

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();

    let peer = std::env::var_os(PEER_VAR).map(PathBuf::from);
    if let Some(peer) = &peer {
        assert!(
            peer.is_file(),
            "{PEER_VAR}={} is not a file",
            peer.display()
        );
    }
    let scratch = std::env::temp_dir().join(format!("caissa-pairing-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap_or_else(|e| panic!("{}: {e}", scratch.display()));

    for (i, case) in CASES.iter().enumerate() {
        let prepared = prepare(case, &scratch);
        let mut group = c.benchmark_group(format!("dutch/{}", case.name()));
        group.sampling_mode(SamplingMode::Flat);
        // Criterion calls the routine only for ids its filter selects; the check
        // against the recorded pairing runs there, once, outside the timing.
        let mut checked = false;
        group.bench_function(SIDES[CAISSA], |b| {
            if !std::mem::replace(&mut checked, true) {
                verify(case, &prepared, CAISSA, None);
            }
            timed(b, (i, CAISSA), || {
                black_box(dutch::pair(black_box(&prepared.input)).ok());
            });
        });
        if let Some(peer) = &peer {
            let mut checked = false;
            group.bench_function(SIDES[PEER], |b| {
                if !std::mem::replace(&mut checked, true) {
                    verify(case, &prepared, PEER, Some(peer));
                }
                timed(b, (i, PEER), || run_peer(peer, &prepared));
            });
        }
        group.finish();
    }

    const ARENA_PLAYERS: usize = 2_000;
    let field = arena_field(ARENA_PLAYERS, 0x00c4_1554);
    let mut group = c.benchmark_group("arena");
    group.throughput(Throughput::Elements(ARENA_PLAYERS as u64));
    group.bench_function(format!("pair_{ARENA_PLAYERS}"), |b| {
        b.iter(|| arena::pair(black_box(&field)));
    });
    group.finish();

    c.final_summary();
    let _ = std::fs::remove_dir_all(&scratch);

    // Criterion's own mode is private: recognise a benchmarking run as cargo bench does.
    let args: Vec<String> = std::env::args().collect();
    let benchmarking =
        args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--test" || a == "--list");
    if benchmarking {
        if let Some(table) = summary_table() {
            println!("\nFIDE Dutch, one round, median time per iteration\n");
            print!("{table}");
        }
    }
}
