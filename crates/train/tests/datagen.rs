//! Self-play data: records round-trip, only quiet positions are kept and each
//! carries its game's result, and a seed reproduces a run.

use std::sync::atomic::AtomicBool;

use caissa_engine::see::is_capture;
use caissa_engine::{Engine, Rng};
use caissa_rules::Position;
use caissa_train::datagen::{self, play_game, Options, Progress};
use caissa_train::record::{Outcome, Record, RECORD_SIZE};

#[test]
fn records_round_trip_to_the_same_position() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 3 17",
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 61",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for (cp, outcome) in [
            (-3000, Outcome::BlackWins),
            (0, Outcome::Draw),
            (2999, Outcome::WhiteWins),
        ] {
            let record = Record::new(&pos, cp, outcome);
            let bytes = record.to_bytes();
            assert_eq!(bytes.len(), RECORD_SIZE);
            let back = Record::from_bytes(&bytes).unwrap();
            assert_eq!(back, record);
            assert_eq!(back.position().unwrap().fen(), fen);
            assert!(back.to_text().starts_with(fen));
        }
    }
}

#[test]
fn a_mirrored_record_is_the_position_reflected_left_to_right() {
    let pos = Position::from_fen("r5k1/1b3pp1/8/2N5/8/8/5PPP/3R2K1 b - - 2 30").unwrap();
    let record = Record::new(&pos, -35, Outcome::Draw);
    let m = record.mirrored();
    assert_eq!(
        m.position().unwrap().fen(),
        "1k5r/1pp3b1/8/5N2/8/8/PPP5/1K2R3 b - - 2 30"
    );
    assert_eq!(
        (m.white_cp, m.outcome, m.turn),
        (-35, Outcome::Draw, pos.turn())
    );
    assert_eq!(m.mirrored(), record);
}

#[test]
fn corrupt_records_are_refused() {
    let mut bytes = Record::new(&Position::new(), 0, Outcome::Draw).to_bytes();
    bytes[26] = 7;
    assert!(Record::from_bytes(&bytes).is_err());
    let mut bytes = Record::new(&Position::new(), 0, Outcome::Draw).to_bytes();
    bytes[8] = 0x7; // a nibble with role 7
    assert!(Record::from_bytes(&bytes).is_err());
}

#[test]
fn kept_positions_are_quiet_and_carry_the_game_result() {
    let mut engine = Engine::new(4);
    let mut rng = Rng::new(3);
    let options = Options {
        soft_nodes: 400,
        hash_mb: 4,
        net: None,
    };
    let mut games = 0;
    let mut kept = 0;
    while games < 3 {
        let Some(game) = play_game(&mut engine, &options, &mut rng) else {
            continue;
        };
        games += 1;
        for r in &game.records {
            kept += 1;
            assert_eq!(r.outcome, game.outcome);
            let pos = r.position().unwrap();
            assert!(!pos.is_check(), "{}", pos.fen());
            assert!(r.white_cp.abs() <= 3000);
            assert!(r.fullmoves >= 8, "from ply 16 on: {}", pos.fen());
        }
        assert_eq!(game.played.len(), game.records.len());
        for (r, &m) in game.records.iter().zip(&game.played) {
            let pos = r.position().unwrap();
            assert!(
                !is_capture(&pos, m) && !m.is_promotion(),
                "{} {}",
                pos.fen(),
                pos.to_uci(m)
            );
        }
    }
    assert!(kept > 20, "{kept} positions kept from {games} games");
}

#[test]
fn one_thread_and_a_seed_reproduce_the_data() {
    let dirs: Vec<_> = (0..2)
        .map(|k| std::env::temp_dir().join(format!("caissa-datagen-{}-{k}", std::process::id())))
        .collect();
    let options = Options {
        soft_nodes: 300,
        hash_mb: 2,
        net: None,
    };
    for dir in &dirs {
        let _ = std::fs::remove_dir_all(dir);
        datagen::run(
            dir,
            1,
            Some(2),
            42,
            &options,
            &Progress::default(),
            &AtomicBool::new(false),
        )
        .unwrap();
    }
    let a = std::fs::read(dirs[0].join("t0.bin")).unwrap();
    let b = std::fs::read(dirs[1].join("t0.bin")).unwrap();
    assert!(!a.is_empty() && a.len().is_multiple_of(RECORD_SIZE));
    assert_eq!(a, b);
    let records = datagen::read_records(&dirs[0].join("t0.bin")).unwrap();
    assert_eq!(records.len() * RECORD_SIZE, a.len());
    for dir in &dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}
