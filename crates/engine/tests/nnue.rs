//! The neural evaluation: incremental accumulators equal a full recomputation on
//! random games (every kind of move, Chess960 castling included), the evaluation
//! is the same for a position and its colour-mirrored twin, the output bucket
//! follows the number of men on the board, and net files (version 1 too)
//! round-trip or are refused with the reason.

use std::sync::Arc;

use caissa_engine::nnue::{AccumulatorStack, NetError, Network, INPUTS, QA, QB, SCALE};
use caissa_engine::{Engine, Limits, Rng};
use caissa_rules::{Bitboard, Board, CastlingMode, Piece, Position, Setup};

/// A net of random weights with 8 output buckets, each of its own weights.
fn random_network(hidden: usize, seed: u64) -> Network {
    random_bucketed_network(hidden, 8, seed)
}

fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut draw = |lo: i32, hi: i32| (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
    let ft_weights = (0..INPUTS * hidden).map(|_| draw(-90, 90)).collect();
    let ft_bias = (0..hidden).map(|_| draw(-60, 200)).collect();
    let out_weights = (0..buckets * 2 * hidden).map(|_| draw(-127, 127)).collect();
    let out_bias = (0..buckets).map(|b| 1234 - 300 * b as i32).collect();
    Network::new(hidden, ft_weights, ft_bias, out_weights, out_bias).unwrap()
}

fn refreshed(net: &Network, board: &Board) -> Vec<i16> {
    let mut acc = vec![0; 2 * net.hidden()];
    net.refresh(board, &mut acc);
    acc
}

/// Random legal games from `start`, checking after every move that the update from
/// the parent equals a refresh, and that a stack evaluated lazily agrees.
fn check_playouts(net: &Network, start: Position, games: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = start;
        let mut acc = refreshed(net, pos.board());
        let mut stack = AccumulatorStack::new(net, 202);
        stack.set(0, pos.board());
        for ply in 1..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut child = pos;
            child.play_unchecked(moves[rng.below(moves.len())]);
            let mut next = vec![0; 2 * net.hidden()];
            net.update(pos.board(), &acc, child.board(), &mut next);
            assert_eq!(next, refreshed(net, child.board()), "after {}", child.fen());
            stack.set(ply, child.board());
            if rng.below(3) == 0 {
                assert_eq!(
                    stack.evaluate(net, ply, child.turn()),
                    net.evaluate_position(&child),
                    "{}",
                    child.fen()
                );
            }
            acc = next;
            pos = child;
            checked += 1;
        }
    }
    checked
}

#[test]
fn incremental_accumulators_match_a_refresh_in_random_games() {
    let net = random_network(32, 1);
    let mut checked = check_playouts(&net, Position::new(), 30, 2);
    // Positions rich in en passant, promotions (with captures) and both castlings.
    for (i, fen) in [
        "r3k2r/1P4p1/8/2pP4/5pP1/8/1p4P1/R3K2R w KQkq c6 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ]
    .iter()
    .enumerate()
    {
        checked += check_playouts(&net, Position::from_fen(fen).unwrap(), 20, 10 + i as u64);
    }
    for (i, id) in [0u16, 518, 959, 300].iter().enumerate() {
        let start = caissa_rules::chess960::start_position(*id).unwrap();
        assert_eq!(start.castling_mode(), CastlingMode::Chess960);
        checked += check_playouts(&net, start, 15, 20 + i as u64);
    }
    assert!(checked > 5000, "{checked} positions checked");
}

/// The position with colours exchanged and the board turned upside down.
fn mirrored(pos: &Position) -> Position {
    let mut board = Board::empty();
    for sq in pos.board().occupied() {
        let p = pos.board().piece_at(sq).unwrap();
        board.put(
            sq.flip_vertical(),
            Piece {
                color: !p.color,
                role: p.role,
            },
        );
    }
    Position::from_setup(
        Setup {
            board,
            turn: !pos.turn(),
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: pos.halfmoves(),
            fullmoves: pos.fullmoves(),
        },
        CastlingMode::Standard,
    )
    .unwrap()
}

#[test]
fn evaluation_is_the_same_for_the_colour_mirrored_position() {
    let net = random_network(48, 3);
    let mut rng = Rng::new(4);
    let mut pos = Position::new();
    for _ in 0..300 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Position::new();
            continue;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
        assert_eq!(
            net.evaluate_position(&pos),
            net.evaluate_position(&mirrored(&pos)),
            "{}",
            pos.fen()
        );
    }
}

#[test]
fn net_file_round_trips() {
    let net = random_network(16, 5);
    let bytes = net.to_bytes();
    // Header, first layer, 8 buckets of output weights and biases, checksum.
    assert_eq!(
        bytes.len(),
        8 + 24 + 2 * INPUTS * 16 + 2 * 16 + 8 * (2 * 2 * 16 + 4) + 8
    );
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn version_1_net_files_load_as_one_output_bucket() {
    let net = random_bucketed_network(16, 1, 12);
    // Version 1 is version 2 without the bucket field.
    let v2 = net.to_bytes();
    let mut v1 = v2[..8].to_vec();
    v1.extend_from_slice(&1u32.to_le_bytes());
    v1.extend_from_slice(&v2[12..16]);
    v1.extend_from_slice(&v2[20..v2.len() - 8]);
    let sum = fnv1a(&v1);
    v1.extend_from_slice(&sum.to_le_bytes());
    let loaded = Network::from_bytes(&v1).unwrap();
    assert_eq!(loaded.buckets(), 1);
    assert_eq!(loaded, net);
}

#[test]
fn the_output_bucket_follows_the_men_on_the_board() {
    // No first layer: the evaluation is the chosen bucket's bias, k · SCALE
    // centipawns for bucket k.
    let h = 16;
    let net = Network::new(
        h,
        vec![0; INPUTS * h],
        vec![0; h],
        vec![0; 8 * 2 * h],
        (0..8).map(|k| k * QA * QB).collect(),
    )
    .unwrap();
    for (fen, men) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 2),
        ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 3),
        ("4k3/3pp3/8/8/8/8/3PP3/4K3 w - - 0 1", 6),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 6),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            32,
        ),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.board().occupied().count(), men);
        let bucket = (men as i32 - 2) / 4;
        assert_eq!(net.evaluate_position(&pos), bucket * SCALE, "{fen}");
    }
    // A net of one bucket uses it for every board.
    let one = Network::new(
        h,
        vec![0; INPUTS * h],
        vec![0; h],
        vec![0; 2 * h],
        vec![QA * QB],
    )
    .unwrap();
    assert_eq!(one.evaluate_position(&Position::new()), SCALE);
    assert_eq!(
        one.evaluate_position(&Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap()),
        SCALE
    );
}

#[test]
fn damaged_or_foreign_net_files_are_refused_with_the_reason() {
    let bytes = random_network(16, 6).to_bytes();
    assert_eq!(Network::from_bytes(b"nonsense"), Err(NetError::NotANet));
    assert_eq!(
        Network::from_bytes(&bytes[..bytes.len() - 1]),
        Err(NetError::Length {
            expected: bytes.len(),
            found: bytes.len() - 1
        })
    );
    let mut flipped = bytes.clone();
    flipped[100] ^= 1;
    assert_eq!(Network::from_bytes(&flipped), Err(NetError::Checksum));
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(Network::from_bytes(&version), Err(NetError::Version(9)));
    let mut hidden = bytes.clone();
    hidden[12] = 17;
    assert_eq!(Network::from_bytes(&hidden), Err(NetError::Hidden(17)));
    let mut buckets = bytes.clone();
    buckets[16] = 0;
    assert_eq!(Network::from_bytes(&buckets), Err(NetError::Buckets(0)));
    let mut qa = bytes;
    qa[20] = 1;
    assert!(matches!(
        Network::from_bytes(&qa),
        Err(NetError::Quantisation { .. })
    ));
    let message = NetError::Checksum.to_string();
    assert!(message.contains("damaged"), "{message}");
}

#[test]
fn a_search_on_the_network_plays_legal_moves_and_still_sees_mate() {
    let mut engine = Engine::new(4);
    engine.set_network(Some(Arc::new(random_network(32, 7))));
    // Mate in one whatever the evaluation says.
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let r = engine.search(&[pos], &limits, None, None, &mut |_| {});
    assert_eq!(pos.to_uci(r.best_move.unwrap()), "d1d8");
    let mut rng = Rng::new(8);
    let mut game = vec![Position::new()];
    for _ in 0..40 {
        let pos = *game.last().unwrap();
        if !pos.has_legal_moves() {
            break;
        }
        let r = engine.search(
            &game,
            &Limits {
                nodes: Some(2000 + rng.below(2000) as u64),
                ..Limits::default()
            },
            None,
            None,
            &mut |_| {},
        );
        let m = r.best_move.unwrap();
        assert!(pos.legal_moves().contains(&m));
        let mut next = pos;
        next.play_unchecked(m);
        game.push(next);
    }
}

#[test]
fn the_largest_saturated_net_does_not_overflow_its_output() {
    // Every hidden unit of both perspectives at the clipping ceiling, every output
    // weight at +127: the largest positive sum a net file can produce.
    let h = caissa_engine::nnue::MAX_HIDDEN;
    let qa = caissa_engine::nnue::QA as i16;
    let net = Network::new(
        h,
        vec![0; INPUTS * h],
        vec![qa; h],
        vec![127; 2 * h],
        vec![0],
    )
    .unwrap();
    let expected = 2 * h as i64 * i64::from(qa) * 127 * i64::from(caissa_engine::nnue::SCALE)
        / i64::from(caissa_engine::nnue::QA * caissa_engine::nnue::QB);
    assert_eq!(i64::from(net.evaluate_position(&Position::new())), expected);
}
