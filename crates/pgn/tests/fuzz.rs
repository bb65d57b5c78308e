//! Fuzzing with proptest: arbitrary bytes, PGN-flavoured noise and mutations of
//! corpus text. The reader with the replayer and with the tree builder never
//! panics, always terminates, reads a sane number of games, gives the same games
//! however the input is split into reads, and loses no game that the damage did
//! not touch.

use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::Duration;

use caissa_pgn::{write_game, Flow, PgnError, Reader, Replayer, SanToken, TreeBuilder, Visitor};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::corpus;
use crate::support::{replay_from, trees, Chunked, Summary};

fn config(cases: u32, seed: u64) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 4_000,
        ..ProptestConfig::default()
    }
}

/// Runs `f` on its own thread and fails if it does not finish within 20 s (an
/// endless loop fails the test instead of hanging it).
fn terminates<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, recv) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    match recv.recv_timeout(Duration::from_secs(20)) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what} did not terminate"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what} panicked"),
    }
}

/// A visitor that skips every game's movetext.
struct SkipAll;

impl Visitor for SkipAll {
    type Output = ();
    fn end_tags(&mut self) -> Flow {
        Flow::Skip
    }
    fn san(&mut self, _token: SanToken<'_>) -> Flow {
        Flow::Skip
    }
    fn error(&mut self, _error: PgnError) {}
    fn end_game(&mut self) {}
}

/// A visitor that reads the mainline but skips every variation.
struct SkipVariations;

impl Visitor for SkipVariations {
    type Output = ();
    fn san(&mut self, _token: SanToken<'_>) -> Flow {
        Flow::Continue
    }
    fn begin_variation(&mut self) -> Flow {
        Flow::Skip
    }
    fn error(&mut self, _error: PgnError) {}
    fn end_game(&mut self) {}
}

/// How many games each kind of visitor sees: one that reads everything, one that
/// skips variations, one that skips whole movetexts, the replayer (which skips
/// after an illegal move) and the tree builder.
fn game_counts(bytes: &[u8]) -> [usize; 4] {
    [
        read_all(bytes, &mut SkipVariations).len(),
        read_all(bytes, &mut SkipAll).len(),
        read_all(bytes, &mut Replayer::new()).len(),
        read_all(bytes, &mut TreeBuilder::new()).len(),
    ]
}

/// Reads every game with a visitor, checking that each game consumes input, and
/// returns the games.
fn read_all<V: Visitor>(bytes: &[u8], visitor: &mut V) -> Vec<V::Output> {
    let mut reader = Reader::from_bytes(bytes);
    let mut out = Vec::new();
    let mut consumed = reader.bytes_read();
    while let Some(game) = reader
        .read_game(visitor)
        .expect("reading memory cannot fail")
    {
        let now = reader.bytes_read();
        assert!(now > consumed, "game {} consumed no input", out.len() + 1);
        assert!(now <= bytes.len() as u64);
        consumed = now;
        out.push(game);
    }
    out
}

/// What every input must satisfy; returns the replayed games.
fn check_input(bytes: Vec<u8>) -> Vec<Summary> {
    terminates("reading", move || {
        let replayed: Vec<_> = read_all(&bytes, &mut Replayer::new());
        let built = read_all(&bytes, &mut TreeBuilder::new());
        assert!(replayed.len() <= bytes.len(), "more games than bytes");
        assert!(built.len() <= bytes.len(), "more games than bytes");
        for (i, game) in replayed.iter().enumerate() {
            assert_eq!(game.game, i as u64 + 1);
            if let Some(e) = &game.error {
                assert_eq!(e.game, game.game);
                assert!(e.at.line >= 1 && e.at.column >= 1, "{e}");
            }
        }
        // Trees that can be written are written in a form that reads back as one clean
        // game and writes back the same.
        for tree in built.into_iter().flatten() {
            if let Ok(written) = write_game(&tree) {
                let again = trees(&written);
                assert_eq!(again.len(), 1, "{written}");
                let again = again[0]
                    .as_ref()
                    .unwrap_or_else(|e| panic!("{e}\n{written}"));
                assert_eq!(write_game(again).as_ref(), Ok(&written));
            }
        }
        replayed
            .into_iter()
            .map(|g| Summary {
                game: g.game,
                result: g.result,
                plies: g.plies,
                fen: g.position.fen(),
                error: g.error,
            })
            .collect()
    })
}

/// The base text for mutations: a few corpus games, and where each one starts.
fn base() -> &'static (String, Vec<usize>, Vec<Summary>) {
    static BASE: OnceLock<(String, Vec<usize>, Vec<Summary>)> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut text = String::new();
        let mut starts = Vec::new();
        for i in 0..6 {
            starts.push(text.len());
            text.push_str(&write_game(&corpus::game(31, i)).unwrap());
        }
        let games = replay_from(text.as_bytes());
        assert_eq!(games.len(), 6);
        (text, starts, games)
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, bits: u8 },
    Insert { at: usize, byte: u8 },
    Delete { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let len = base().0.len();
    prop_oneof![
        (0..len, 1u8..=255).prop_map(|(at, bits)| Mutation::Flip { at, bits }),
        (0..len, prop::sample::select(b"{}()[]\";%$\n\r".to_vec()))
            .prop_map(|(at, byte)| Mutation::Insert { at, byte }),
        (0..len).prop_map(|at| Mutation::Delete { at }),
    ]
}

/// Applies a mutation (mutations are applied from the last offset to the first);
/// returns its offset in the original text.
fn apply(bytes: &mut Vec<u8>, m: &Mutation) -> usize {
    match *m {
        Mutation::Flip { at, bits } => {
            if let Some(b) = bytes.get_mut(at) {
                *b ^= bits;
            }
            at
        }
        Mutation::Insert { at, byte } => {
            bytes.insert(at.min(bytes.len()), byte);
            at
        }
        Mutation::Delete { at } => {
            if at < bytes.len() {
                bytes.remove(at);
            }
            at
        }
    }
}

const PGN_BYTES: &[u8] = b"[]{}()\";%$!?.-/ \n\r\t\\*0125NBRQKOfex=#+abcdgh8Event";

proptest! {
    #![proptest_config(config(1000, 0xf022_0001))]

    #[test]
    fn arbitrary_bytes_never_panic_or_hang(bytes in prop::collection::vec(any::<u8>(), 0..3000)) {
        check_input(bytes);
    }

    #[test]
    fn pgn_flavoured_noise_never_panics_or_hangs(
        bytes in prop::collection::vec(prop::sample::select(PGN_BYTES.to_vec()), 0..3000)
    ) {
        check_input(bytes);
    }
}

proptest! {
    #![proptest_config(config(200, 0xf022_0003))]

    /// Where a game ends is a matter of syntax: skipping a part of it (as a visitor
    /// may ask) must not move the boundary.
    #[test]
    fn every_visitor_sees_the_same_games(
        bytes in prop::collection::vec(prop::sample::select(PGN_BYTES.to_vec()), 0..400)
    ) {
        let counts = terminates("reading", move || game_counts(&bytes));
        prop_assert!(counts.iter().all(|&c| c == counts[0]), "game counts {:?}", counts);
    }
}

proptest! {
    #![proptest_config(config(600, 0xf022_0002))]

    #[test]
    fn mutated_corpus_text_loses_only_damaged_games(
        mutations in prop::collection::vec(mutation(), 1..5),
        truncate in prop::option::weighted(0.3, 0..base().0.len()),
    ) {
        let (text, starts, originals) = base();
        let mut bytes = text.as_bytes().to_vec();
        // Apply from the end so that earlier offsets stay valid; remember which
        // original offsets were touched.
        let mut sorted = mutations.clone();
        sorted.sort_by_key(|m| std::cmp::Reverse(match m {
            Mutation::Flip { at, .. } | Mutation::Insert { at, .. } | Mutation::Delete { at } => *at,
        }));
        let mut touched = Vec::new();
        for m in &sorted {
            touched.push(apply(&mut bytes, m));
        }
        let cut = truncate.unwrap_or(text.len());
        // Truncating applies to the original offsets (mutations before it).
        let shift: isize = sorted.iter().filter(|m| match m {
            Mutation::Flip { at, .. } | Mutation::Insert { at, .. } | Mutation::Delete { at } => *at < cut,
        }).map(|m| match m {
            Mutation::Insert { .. } => 1,
            Mutation::Delete { .. } => -1,
            Mutation::Flip { .. } => 0,
        }).sum();
        bytes.truncate(((cut as isize) + shift).max(0) as usize);
        touched.push(cut);

        let games = check_input(bytes);
        let n = originals.len();
        let m = mutations.len() + usize::from(truncate.is_some());
        let end = |k: usize| starts.get(k + 1).copied().unwrap_or(text.len());
        let complete_before_cut = (0..n).filter(|&k| end(k) <= cut).count();
        prop_assert!(games.len() <= n + 2 * m, "{} games from {n} with {m} mutations", games.len());
        prop_assert!(
            games.len() + 2 * m >= complete_before_cut,
            "{} games, {complete_before_cut} complete before the cut", games.len()
        );
        // A game whose text and whose predecessor's text are untouched (and which ends
        // before any truncation) is read exactly as before.
        for k in 0..n {
            let from = if k == 0 { 0 } else { starts[k - 1] };
            let untouched = touched.iter().all(|&t| t < from || t >= end(k)) && end(k) <= cut;
            if untouched {
                let original = &originals[k];
                prop_assert!(
                    games.iter().any(|g| g.error.is_none()
                        && g.plies == original.plies
                        && g.fen == original.fen
                        && g.result == original.result),
                    "original game {} was lost", k + 1
                );
            }
        }
    }

    #[test]
    fn any_split_into_reads_gives_the_same_games(
        mutations in prop::collection::vec(mutation(), 0..4),
        chunk in 1usize..400,
    ) {
        let mut bytes = base().0.as_bytes().to_vec();
        let mut sorted = mutations;
        sorted.sort_by_key(|m| std::cmp::Reverse(match m {
            Mutation::Flip { at, .. } | Mutation::Insert { at, .. } | Mutation::Delete { at } => *at,
        }));
        for m in &sorted {
            apply(&mut bytes, m);
        }
        let whole = replay_from(bytes.as_slice());
        let split = replay_from(Chunked::new(&bytes, chunk));
        prop_assert_eq!(split, whole);
    }
}

#[test]
fn a_result_inside_a_skipped_variation_ends_the_game_as_when_read() {
    // The reading path ends a game at a termination marker even inside a
    // variation; the skipping path must end it there too.
    let text = b"1. e4 (1. d4 *) e5 1-0\n\n1. c4 *\n";
    let counts = game_counts(text);
    assert_eq!(counts[2], 3, "the replayer reads three games");
    assert_eq!(counts, [3, 3, 3, 3], "game counts by visitor");
}

#[test]
fn visitors_that_skip_split_games_like_those_that_read() {
    let (text, _, originals) = base();
    let skipped = read_all(text.as_bytes(), &mut SkipAll);
    assert_eq!(skipped.len(), originals.len());
    let noise = "1. e4 {x} e5 (1... c5 $3 2. Nf3) 2. Ke3 Nc6 $1 1-0\n\n[Event \"n\"] 1. d4 ; c\n0-1\n1. Zq9 *\n";
    let a = read_all(noise.as_bytes(), &mut SkipAll).len();
    let b = read_all(noise.as_bytes(), &mut Replayer::new()).len();
    let c = read_all(noise.as_bytes(), &mut TreeBuilder::new()).len();
    assert_eq!((a, b, c), (3, 3, 3));
}
