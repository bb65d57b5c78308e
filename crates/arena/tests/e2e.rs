//! Whole matches: between real engine processes (the random mover of this crate,
//! over UCI and xboard, including deliberately broken ones), and between in-process
//! players with scripted results to check the tallies and the sequential test.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use caissa_arena::engine::{EngineError, Player, Protocol, Score, ThinkRequest, Thought, RESIGN};
use caissa_arena::openings::{self, Opening};
use caissa_arena::runner::{run_match, run_match_with, MatchConfig, MatchEvent, MatchReport};
use caissa_arena::{
    AdjudicationConfig, DrawRule, EndKind, EngineConfig, GameSettings, Sprt, SprtStatus,
};
use caissa_pgn::{Reader, Replayer, TreeBuilder};

const RANDOM_ENGINE: &str = env!("CARGO_BIN_EXE_caissa-random-uci");

fn engine(options: &[(&str, &str)]) -> EngineConfig {
    EngineConfig {
        command: vec![RANDOM_ENGINE.to_string()],
        options: options
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        ..EngineConfig::default()
    }
}

fn temp_pgn(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("caissa-arena-{}-{name}.pgn", std::process::id()))
}

fn config(engines: [EngineConfig; 2], games: u32, tc: &str) -> MatchConfig {
    MatchConfig {
        engines,
        settings: GameSettings {
            time_control: tc.parse().unwrap(),
            margin: Duration::from_millis(100),
            adjudication: AdjudicationConfig::default(),
        },
        games,
        concurrency: 1,
        openings: openings::balanced(),
        seed: Some(1),
        pgn: None,
        sprt: None,
        event: "Arena test".into(),
        site: "test".into(),
    }
}

/// Runs a match, checking the progress events against the report.
fn run(config: &MatchConfig) -> MatchReport {
    let mut games_seen = 0;
    let mut started = false;
    let report = run_match(config, &mut |event| match event {
        MatchEvent::Started { .. } => started = true,
        MatchEvent::Game(progress) => {
            games_seen += 1;
            assert_eq!(progress.finished, games_seen);
            assert!(progress.line().starts_with(&format!("[{games_seen}/")));
        }
        MatchEvent::Warning(w) => eprintln!("warning: {w}"),
    })
    .unwrap();
    assert!(started);
    assert_eq!(games_seen, report.tally.results.games());
    report
}

/// Every game of the file: tags and legality; returns (round, tags, result).
fn read_pgn(path: &PathBuf) -> Vec<(u32, BTreeMap<String, String>, String)> {
    let text = std::fs::read(path).unwrap();
    let mut games = Vec::new();
    let mut replay = Reader::from_bytes(&text);
    let mut trees = Reader::from_bytes(&text);
    while let Some(replayed) = replay.read_game(&mut Replayer::new()).unwrap() {
        let tree = trees
            .read_game(&mut TreeBuilder::new())
            .unwrap()
            .unwrap()
            .unwrap();
        assert!(
            replayed.error.is_none(),
            "illegal game: {:?}",
            replayed.error
        );
        let tags: BTreeMap<String, String> = tree.tags.iter().cloned().collect();
        assert_eq!(tags["Result"], replayed.result);
        assert_eq!(tags["PlyCount"], replayed.plies.to_string());
        let round = tags["Round"].parse().unwrap();
        games.push((round, tags, replayed.result));
    }
    games.sort_by_key(|g| g.0);
    games
}

#[test]
fn greedy_beats_random_and_the_pgn_is_sound() {
    let pgn = temp_pgn("greedy");
    let mut cfg = config(
        [
            EngineConfig {
                name: Some("Greedy".into()),
                ..engine(&[("Mode", "greedy"), ("Seed", "11")])
            },
            EngineConfig {
                name: Some("Random".into()),
                ..engine(&[("Seed", "12")])
            },
        ],
        11, // rounded up to 12
        "5+0.05",
    );
    cfg.concurrency = 2;
    cfg.pgn = Some(pgn.clone());
    let report = run(&cfg);
    let t = report.tally.results;
    assert_eq!(report.planned, 12);
    assert_eq!(t.games(), 12);
    assert_eq!(t.wins + t.draws + t.losses, 12);
    assert_eq!(report.tally.as_white.games(), 6);
    assert_eq!(report.tally.as_black.games(), 6);
    assert_eq!(report.tally.pairs.pairs(), 6);
    assert_eq!(report.tally.endings.values().sum::<u32>(), 12);
    assert!(t.wins > t.losses, "{}", report.summary());
    assert!(report.errors.is_empty(), "{:?}", report.errors);

    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 12);
    let mut points = 0.0;
    let suite = openings::balanced();
    let order = openings::order(suite.len(), Some(1));
    for (i, (round, tags, result)) in games.iter().enumerate() {
        assert_eq!(*round as usize, i + 1);
        for tag in [
            "Event",
            "Site",
            "Date",
            "TimeControl",
            "Termination",
            "FEN",
            "SetUp",
        ] {
            assert!(tags.contains_key(tag), "missing {tag}");
        }
        assert_eq!(tags["TimeControl"], "5+0.05");
        // Each opening twice, in the seeded order, with colours swapped.
        let opening: &Opening = &suite[order[i / 2]];
        assert_eq!(tags["FEN"], opening.fen);
        assert_eq!(tags.get("Opening"), opening.name.as_ref());
        let greedy_white = i % 2 == 0;
        let (white, black) = if greedy_white {
            ("Greedy", "Random")
        } else {
            ("Random", "Greedy")
        };
        assert_eq!(
            (tags["White"].as_str(), tags["Black"].as_str()),
            (white, black)
        );
        points += match (result.as_str(), greedy_white) {
            ("1-0", true) | ("0-1", false) => 1.0,
            ("1/2-1/2", _) => 0.5,
            _ => 0.0,
        };
    }
    assert_eq!(points, t.points());

    // The summary and the machine-readable line agree.
    let summary = report.summary();
    assert!(summary.starts_with(&format!(
        "Score of Greedy vs Random: {} - {} - {}  [",
        t.wins, t.losses, t.draws
    )));
    assert!(summary.contains("Elo difference: "));
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(json["wins"], t.wins);
    assert_eq!(json["draws"], t.draws);
    assert_eq!(json["losses"], t.losses);
    assert!(json["sprt"].is_null());
    assert!(json.get("elo").is_some() && json.get("margin").is_some() && json.get("los").is_some());
    let _ = std::fs::remove_file(pgn);
}

fn faulty_match(fault: &str, after: &str, tc: &str) -> MatchReport {
    let cfg = config(
        [
            EngineConfig {
                name: Some("Faulty".into()),
                ..engine(&[("Fault", fault), ("FaultAfter", after), ("Seed", "3")])
            },
            EngineConfig {
                name: Some("Sound".into()),
                ..engine(&[("Seed", "4")])
            },
        ],
        2,
        tc,
    );
    run(&cfg)
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    let report = faulty_match("crash", "3", "5+0.05");
    assert_eq!(report.tally.results.losses, 2, "{}", report.summary());
    assert_eq!(report.tally.endings.get(&EndKind::EngineFailure), Some(&2));
    assert!(report.errors.is_empty());
}

#[test]
fn a_hanging_engine_loses_on_time_and_is_restarted() {
    let report = faulty_match("hang", "2", "0.5+0");
    assert_eq!(report.tally.results.losses, 2, "{}", report.summary());
    assert_eq!(report.tally.endings.get(&EndKind::TimeForfeit), Some(&2));
}

#[test]
fn a_slow_engine_loses_on_time() {
    let report = faulty_match("slow", "1", "0.3+0");
    assert_eq!(report.tally.results.losses, 2, "{}", report.summary());
    assert_eq!(report.tally.endings.get(&EndKind::TimeForfeit), Some(&2));
}

#[test]
fn an_illegal_move_loses() {
    let report = faulty_match("illegal", "0", "5+0.05");
    assert_eq!(report.tally.results.losses, 2, "{}", report.summary());
    assert_eq!(report.tally.endings.get(&EndKind::IllegalMove), Some(&2));
}

#[test]
fn xboard_engines_play_too() {
    let pgn = temp_pgn("xboard");
    let mut cfg = config(
        [
            EngineConfig {
                command: vec![RANDOM_ENGINE.to_string(), "--xboard".to_string()],
                protocol: Protocol::Xboard,
                options: vec![("Mode".into(), "greedy".into())],
                ..EngineConfig::default()
            },
            engine(&[]),
        ],
        4,
        "5+0.05",
    );
    cfg.pgn = Some(pgn.clone());
    let mut names = None;
    let report = run_match(&cfg, &mut |e| {
        if let MatchEvent::Started { names: n, .. } = e {
            names = Some(n.clone());
        }
    })
    .unwrap();
    // Both report the same name: told apart.
    assert_eq!(
        names.unwrap(),
        [
            "Caissa Random (1)".to_string(),
            "Caissa Random (2)".to_string()
        ]
    );
    assert_eq!(report.tally.results.games(), 4);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.tally.endings.get(&EndKind::EngineFailure), None);
    assert_eq!(report.tally.endings.get(&EndKind::IllegalMove), None);
    assert_eq!(report.tally.endings.get(&EndKind::TimeForfeit), None);
    assert_eq!(read_pgn(&pgn).len(), 4);
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn an_engine_that_cannot_start_is_reported() {
    let mut cfg = config([engine(&[]), engine(&[])], 2, "1+0");
    cfg.engines[1].command = vec!["/nonexistent/engine".into()];
    let err = run_match(&cfg, &mut |_| {}).err().unwrap();
    assert!(err.contains("engine 2 could not start"), "{err}");
}

/// An in-process player whose results follow a script: for game `k` the shared
/// script says `W` (the first engine wins: the second resigns), `L` (the first
/// resigns) or `D` (both play on with a zero score until the draw adjudication).
struct Coin {
    first: bool,
    script: &'static [u8],
    game: usize,
}

impl Player for Coin {
    fn name(&self) -> &str {
        if self.first {
            "Coin A"
        } else {
            "Coin B"
        }
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.game += 1;
        Ok(())
    }

    fn think(&mut self, request: &ThinkRequest<'_>) -> Result<Thought, EngineError> {
        let outcome = self.script[(self.game - 1) % self.script.len()];
        let loses = if self.first { b'L' } else { b'W' };
        let best = if outcome == loses {
            RESIGN.to_string()
        } else {
            let m = request.position.legal_moves()[0];
            request.position.to_uci(m)
        };
        Ok(Thought {
            best,
            score: Some(Score::Cp(0)),
            depth: Some(1),
            elapsed: Duration::from_millis(1),
        })
    }
}

fn coin_match(script: &'static [u8], games: u32) -> MatchReport {
    let mut cfg = config([engine(&[]), engine(&[])], games, "10+0");
    cfg.settings.adjudication.draw = Some(DrawRule {
        after_move: 0,
        moves: 1,
        score: 10,
    });
    cfg.sprt = Some(Sprt::parse("elo0=0,elo1=10").unwrap());
    let factory = move |engine: usize, _worker: usize| -> Result<Box<dyn Player>, EngineError> {
        Ok(Box::new(Coin {
            first: engine == 0,
            script,
            game: 0,
        }))
    };
    run_match_with(&cfg, &factory, &mut |_| {}).unwrap()
}

#[test]
fn sprt_stops_early_for_a_stronger_engine() {
    let report = coin_match(b"WWDWL", 1000);
    let s = report.sprt.unwrap();
    assert_eq!(s.status, SprtStatus::AcceptH1);
    let t = report.tally.results;
    assert!(t.games() < 1000, "{}", report.summary());
    assert!(s.llr >= s.sprt.bounds().1);
    // The script's proportions, up to the last incomplete cycle.
    assert!((t.score() - 0.7).abs() < 0.01, "{}", t.score());
    assert!(report.summary().contains("H1 was accepted"));
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(json["sprt"]["result"], "H1");
    assert!(report
        .summary()
        .contains(&format!("Stopped after {} of 1000 games", t.games())));
}

#[test]
fn sprt_accepts_h0_for_a_weaker_engine() {
    let report = coin_match(b"DLDWL", 1000);
    let s = report.sprt.unwrap();
    assert_eq!(s.status, SprtStatus::AcceptH0);
    assert!(report.tally.results.games() < 400, "{}", report.summary());
    assert!(s.llr <= s.sprt.bounds().0);
}

#[test]
fn pairs_and_colours_are_tallied() {
    // Game k of each engine: W, L, D, D, W, W, ... (the first engine is White in odd
    // games): pairs (W,L) = 1 point, (D,D) = 1, (W,W) = 2.
    let report = coin_match(b"WLDDWW", 6);
    let p = report.tally.pairs;
    assert_eq!(p.0, [0, 0, 2, 0, 1]);
    let t = report.tally.results;
    assert_eq!((t.wins, t.draws, t.losses), (3, 2, 1));
    // As White (games 1, 3, 5): W, D, W. As Black: L, D, W.
    let w = report.tally.as_white;
    let b = report.tally.as_black;
    assert_eq!((w.wins, w.draws, w.losses), (2, 1, 0));
    assert_eq!((b.wins, b.draws, b.losses), (1, 1, 1));
    assert_eq!(report.tally.endings.get(&EndKind::Resignation), Some(&4));
    assert_eq!(
        report.tally.endings.get(&EndKind::AdjudicatedDraw),
        Some(&2)
    );
}
