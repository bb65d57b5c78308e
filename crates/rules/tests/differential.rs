//! Differential tests against the peer library shakmaty 0.30.
//!
//! Deterministic random playouts (a fixed-seed xorshift generator) run from the initial
//! position and from a set of varied positions: Kiwipete and the other well-known perft
//! positions, en-passant and promotion positions, minor-piece endings and Chess960
//! starting positions. Caissa and shakmaty play the same moves side by side, and at every
//! position the two must agree on the legal moves, the SAN of each move, the FEN, check,
//! checkmate, stalemate and insufficient material, and on which positions are the same
//! for repetition (Zobrist hash equality).

use std::collections::{BTreeSet, HashMap};

use caissa_rules::{fen, CastlingMode, Color, Move, Position, PositionError};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position as _};

mod setups;

/// Xorshift64: a tiny deterministic generator, so that every run plays the same games.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> XorShift {
        // Any non-zero state works; mix the seed so that small seeds differ at once.
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Standard-chess starting points: perft positions, en passant, promotions, endings.
const STANDARD_FENS: &[&str] = &[
    fen::STARTING_FEN,
    KIWIPETE,
    // Perft position 3: en passant that would expose the king along the rank.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Perft position 4: promotions, castling rights, checks.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    // Perft position 5: a promotion with capture available at once.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // Perft position 6: a quiet middlegame.
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    // A legal en-passant capture on f6 (and a second possible later).
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // An en-passant square whose capture would expose the king on the rank.
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
    // Capturing en passant would expose the king along a diagonal.
    "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1",
    // A double step that will be capturable only with the king exposed on the rank.
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    // The double-stepped pawn gives check; en passant removes the checker.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // Pawns about to promote on both sides, with knights to capture.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Promotion race with stalemate tricks.
    "8/1P6/8/8/8/8/5kp1/7K w - - 0 1",
    // Minor-piece endings: insufficient material and the knight-mate exceptions.
    "8/8/3k4/8/8/2NBK3/8/8 w - - 0 1",
    "8/2b5/3k4/8/8/3NK3/8/8 w - - 0 1",
    "8/8/3k4/3n4/8/3NK3/8/8 w - - 0 1",
    "8/5b2/3k4/8/8/3BK3/8/8 w - - 0 1",
    "8/8/3k4/3n4/8/4K3/3Q4/8 w - - 0 1",
    "8/8/2k5/2p5/8/3BK3/8/8 b - - 0 1",
];

/// Chess960 starting points (caissa detects Chess960 from the castling rights).
const CHESS960_FENS: &[&str] = &[
    "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
    "rbbknnqr/pppppppp/8/8/8/8/PPPPPPPP/RBBKNNQR w KQkq - 0 1",
    "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w KQkq - 0 1",
    "rknnbbqr/pppppppp/8/8/8/8/PPPPPPPP/RKNNBBQR w KQkq - 0 1",
    "nnrbbqkr/pppppppp/8/8/8/8/PPPPPPPP/NNRBBQKR w KQkq - 0 1",
    // The Chess960 perft position, in Shredder-FEN.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    // Inner rooks keep the rights; the king castles over short distances.
    "2r1kr2/8/8/8/8/8/8/2R1KR2 w FCfc - 0 1",
    // Two rooks on the king side: the inner one's right needs its file in X-FEN.
    "r1k3rr/8/8/8/8/8/8/R1K3RR w GAga - 0 1",
];

/// One side of a playout: the position in both libraries.
struct Pair {
    caissa: Position,
    shakmaty: Chess,
}

impl Pair {
    /// Parses a FEN in both libraries, in the castling mode caissa detects.
    fn from_fen(text: &str) -> Pair {
        Pair::from_fen_with_mode(text, None)
    }

    fn from_fen_with_mode(text: &str, mode: Option<CastlingMode>) -> Pair {
        let caissa = match mode {
            Some(mode) => fen::parse_with_mode(text, mode),
            None => fen::parse(text),
        }
        .unwrap_or_else(|e| panic!("caissa rejects {text}: {e}"));
        let shakmaty = text
            .parse::<Fen>()
            .unwrap_or_else(|e| panic!("shakmaty rejects {text}: {e}"))
            .into_position::<Chess>(shakmaty_mode(caissa.castling_mode()))
            .unwrap_or_else(|e| panic!("shakmaty rejects {text}: {e}"));
        Pair { caissa, shakmaty }
    }

    fn mode(&self) -> shakmaty::CastlingMode {
        shakmaty_mode(self.caissa.castling_mode())
    }

    /// Shakmaty's legal moves keyed by UCI (written in caissa's castling convention).
    fn shakmaty_moves(&self) -> HashMap<String, shakmaty::Move> {
        let mode = self.mode();
        self.shakmaty
            .legal_moves()
            .iter()
            .map(|m| (m.to_uci(mode).to_string(), *m))
            .collect()
    }

    /// Caissa's legal moves as UCI strings.
    fn caissa_uci(&self) -> BTreeSet<String> {
        self.caissa
            .legal_moves()
            .iter()
            .map(|&m| self.caissa.to_uci(m))
            .collect()
    }

    fn shakmaty_fen(&self) -> String {
        Fen::from_position(&self.shakmaty, EnPassantMode::Legal).to_string()
    }

    /// Plays a caissa move in both libraries.
    fn play(&mut self, m: Move) {
        let uci = self.caissa.to_uci(m);
        let theirs = *self
            .shakmaty_moves()
            .get(&uci)
            .unwrap_or_else(|| panic!("shakmaty has no legal move {uci} in {}", self.caissa.fen()));
        self.caissa.play_unchecked(m);
        self.shakmaty.play_unchecked(theirs);
    }
}

fn shakmaty_mode(mode: CastlingMode) -> shakmaty::CastlingMode {
    match mode {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    }
}

/// Every starting point of the playouts, with the castling mode to force (the standard
/// initial position is also played as Chess960, where castling is king-takes-rook).
fn starting_points() -> Vec<(&'static str, Option<CastlingMode>)> {
    let mut out: Vec<_> = STANDARD_FENS.iter().map(|&f| (f, None)).collect();
    out.extend(CHESS960_FENS.iter().map(|&f| (f, None)));
    out.push((fen::STARTING_FEN, Some(CastlingMode::Chess960)));
    out.push((KIWIPETE, Some(CastlingMode::Chess960)));
    out
}

/// Plays `games` random games of at most `max_plies` from every starting point and calls
/// `visit` at every position reached (the starting position included).
/// Returns the number of positions visited.
fn random_playouts(games: u64, max_plies: usize, mut visit: impl FnMut(&Pair, &str)) -> usize {
    let mut visited = 0;
    for (index, &(start, mode)) in starting_points().iter().enumerate() {
        for game in 0..games {
            let mut rng = XorShift::new(1 + index as u64 * 1000 + game);
            let mut pair = Pair::from_fen_with_mode(start, mode);
            let mut line = String::new();
            for _ in 0..=max_plies {
                let context = format!("from {start} ({mode:?}) after [{line}]");
                visit(&pair, &context);
                visited += 1;
                let moves = pair.caissa.legal_moves();
                if moves.is_empty() || pair.caissa.is_dead_position() {
                    break;
                }
                let m = pick_move(&pair.caissa, &moves, &mut rng);
                line.push_str(&pair.caissa.to_uci(m));
                line.push(' ');
                pair.play(m);
            }
        }
    }
    visited
}

/// A random move, biased towards checks (a quarter of the time) and captures and
/// promotions (another quarter), so that games reach mates and endings quickly.
fn pick_move(pos: &Position, moves: &[Move], rng: &mut XorShift) -> Move {
    let wanted: Vec<Move> = match rng.below(4) {
        0 => moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut after = *pos;
                after.play_unchecked(m);
                after.is_check()
            })
            .collect(),
        1 => moves
            .iter()
            .copied()
            .filter(|&m| m.is_promotion() || pos.board().color_at(m.to()).is_some())
            .collect(),
        _ => Vec::new(),
    };
    if wanted.is_empty() {
        moves[rng.below(moves.len())]
    } else {
        wanted[rng.below(wanted.len())]
    }
}

/// Playout sizes: about 115 000 positions in all (29 starting points, 40 games each).
const GAMES: u64 = 40;
const MAX_PLIES: usize = 200;

#[test]
fn same_legal_moves_as_shakmaty_in_random_playouts() {
    let mut en_passant = 0;
    let mut castles = 0;
    let mut promotions = 0;
    let visited = random_playouts(GAMES, MAX_PLIES, |pair, context| {
        let ours = pair.caissa_uci();
        let theirs: BTreeSet<String> = pair.shakmaty_moves().into_keys().collect();
        assert_eq!(
            ours,
            theirs,
            "legal moves differ in {} {context}\ncaissa only: {:?}\nshakmaty only: {:?}",
            pair.caissa.fen(),
            ours.difference(&theirs).collect::<Vec<_>>(),
            theirs.difference(&ours).collect::<Vec<_>>()
        );
        assert_eq!(
            pair.caissa.count_legal_moves(),
            ours.len() as u64,
            "count_legal_moves in {}",
            pair.caissa.fen()
        );
        let moves = pair.caissa.legal_moves();
        en_passant += moves.iter().filter(|m| m.is_en_passant()).count();
        castles += moves.iter().filter(|m| m.is_castle()).count();
        promotions += moves.iter().filter(|m| m.is_promotion()).count();
    });
    seen_at_least(visited, 100_000, "positions visited");
    // The playouts must exercise the special moves, or the comparison proves little.
    seen_at_least(en_passant, 150, "en-passant moves seen");
    seen_at_least(castles, 1500, "castling moves seen");
    seen_at_least(promotions, 6000, "promotions seen");
}

#[test]
fn same_san_as_shakmaty_for_every_legal_move() {
    let mut checked = 0;
    let mut mates = 0;
    let mut disambiguated = 0;
    random_playouts(GAMES / 2, MAX_PLIES, |pair, context| {
        let theirs = pair.shakmaty_moves();
        for &m in &pair.caissa.legal_moves() {
            let uci = pair.caissa.to_uci(m);
            let Some(&their_move) = theirs.get(&uci) else {
                panic!("shakmaty has no move {uci} in {}", pair.caissa.fen());
            };
            let ours = pair.caissa.san(m);
            let expected = SanPlus::from_move(pair.shakmaty.clone(), their_move).to_string();
            assert_eq!(
                ours,
                expected,
                "SAN of {uci} in {} {context}",
                pair.caissa.fen()
            );
            checked += 1;
            mates += usize::from(ours.ends_with('#'));
            let piece = ours.starts_with(['N', 'B', 'R', 'Q']);
            // "Nbd2", "R1e2", "Qh4e1": a piece move with an origin hint.
            disambiguated += usize::from(
                piece
                    && ours.trim_end_matches(['+', '#']).len()
                        > 3 + usize::from(ours.contains('x')),
            );
        }
    });
    seen_at_least(checked, 400_000, "moves checked");
    seen_at_least(mates, 200, "mating moves seen");
    seen_at_least(disambiguated, 8000, "disambiguated moves seen");
}

#[test]
fn parse_san_gives_back_the_move_for_every_san_written() {
    let mut checked = 0;
    random_playouts(GAMES / 2, MAX_PLIES, |pair, context| {
        for &m in &pair.caissa.legal_moves() {
            let san = pair.caissa.san(m);
            assert_eq!(
                pair.caissa.parse_san(&san),
                Ok(m),
                "parse_san({san:?}) in {} {context}",
                pair.caissa.fen()
            );
            checked += 1;
        }
    });
    seen_at_least(checked, 400_000, "moves checked");
}

#[test]
fn fen_equals_shakmaty_fen_with_legal_en_passant() {
    let mut with_ep = 0;
    let mut chess960_letters = 0;
    random_playouts(GAMES, MAX_PLIES, |pair, context| {
        let ours = pair.caissa.fen();
        assert_eq!(ours, pair.shakmaty_fen(), "FEN {context}");
        with_ep += usize::from(pair.caissa.ep_square().is_some());
        let castling = ours.split(' ').nth(2).unwrap_or("");
        chess960_letters += usize::from(castling.contains(|c: char| !"KQkq-".contains(c)));
    });
    seen_at_least(with_ep, 120, "positions with an en-passant square");
    seen_at_least(
        chess960_letters,
        40,
        "FENs with a rook file in the castling field",
    );
}

#[test]
fn fen_round_trips_through_caissa_parser() {
    random_playouts(GAMES, MAX_PLIES, |pair, context| {
        let text = pair.caissa.fen();
        let parsed = Position::from_fen(&text)
            .unwrap_or_else(|e| panic!("caissa rejects its own FEN {text} {context}: {e}"));
        assert_eq!(parsed, pair.caissa, "parse(write(pos)) for {text}");
        assert_eq!(parsed.fen(), text, "write(parse(fen)) for {text}");
        assert_eq!(
            parsed.zobrist_hash(),
            pair.caissa.zobrist_hash(),
            "hash after parsing {text}"
        );
        // Parsed in the position's own mode, even the castling notation is the same.
        let same_mode = fen::parse_with_mode(&text, pair.caissa.castling_mode())
            .unwrap_or_else(|e| panic!("caissa rejects {text} in its own mode: {e}"));
        for &m in &pair.caissa.legal_moves() {
            assert_eq!(same_mode.to_uci(m), pair.caissa.to_uci(m), "UCI in {text}");
        }
    });
}

#[test]
fn caissa_reads_shakmaty_fen_with_every_en_passant_square() {
    // EnPassantMode::Always writes the square after every double step, capturable or not:
    // caissa must accept it and drop it when no capture is legal (Laws 9.2.3).
    let mut dropped = 0;
    random_playouts(GAMES, MAX_PLIES, |pair, context| {
        let text = Fen::from_position(&pair.shakmaty, EnPassantMode::Always).to_string();
        let parsed = fen::parse_with_mode(&text, pair.caissa.castling_mode())
            .unwrap_or_else(|e| panic!("caissa rejects shakmaty's {text} {context}: {e}"));
        assert_eq!(parsed, pair.caissa, "position read from {text}");
        assert_eq!(
            parsed.zobrist_hash(),
            pair.caissa.zobrist_hash(),
            "hash of {text}"
        );
        dropped += usize::from(!text.contains(" - ") && parsed.ep_square().is_none());
    });
    seen_at_least(dropped, 600, "uncapturable en-passant squares read");
}

#[test]
fn same_check_mate_stalemate_and_insufficient_material_as_shakmaty() {
    let mut checks = 0;
    let mut checkmates = 0;
    let mut stalemates = 0;
    let mut insufficient = 0;
    random_playouts(GAMES, MAX_PLIES, |pair, context| {
        let (ours, theirs) = (&pair.caissa, &pair.shakmaty);
        let fen = ours.fen();
        assert_eq!(
            ours.is_check(),
            theirs.is_check(),
            "is_check in {fen} {context}"
        );
        assert_eq!(
            ours.checkers().count() as usize,
            theirs.checkers().count(),
            "number of checkers in {fen}"
        );
        assert_eq!(
            ours.is_checkmate(),
            theirs.is_checkmate(),
            "checkmate in {fen}"
        );
        assert_eq!(
            ours.is_stalemate(),
            theirs.is_stalemate(),
            "stalemate in {fen}"
        );
        for (color, their_color) in [
            (Color::White, shakmaty::Color::White),
            (Color::Black, shakmaty::Color::Black),
        ] {
            assert_eq!(
                ours.has_insufficient_material(color),
                theirs.has_insufficient_material(their_color),
                "insufficient material of {} in {fen}",
                color.name()
            );
            insufficient += usize::from(ours.has_insufficient_material(color));
        }
        assert_eq!(
            ours.is_insufficient_material(),
            theirs.is_insufficient_material(),
            "dead position in {fen}"
        );
        checks += usize::from(ours.is_check());
        checkmates += usize::from(ours.is_checkmate());
        stalemates += usize::from(ours.is_stalemate());
    });
    seen_at_least(checks, 7000, "checks seen");
    seen_at_least(checkmates, 50, "checkmates seen");
    seen_at_least(stalemates, 12, "stalemates seen");
    seen_at_least(insufficient, 15000, "insufficient-material verdicts seen");
}

#[test]
fn insufficient_material_agrees_with_shakmaty_on_minor_piece_sets() {
    // Every small material set (kings plus up to two minor pieces, or a pawn, rook or
    // queen) on fixed squares: both libraries must give the same verdict for each side.
    let extras = ["", "N", "B", "b", "n", "P", "R", "Q", "q", "r", "p"];
    // c4 and e2 are light squares, d4 and f2 dark: the pairs below put two minor
    // pieces on squares of one colour or of both colours.
    let squares = ["c4", "d4", "e2", "f2"];
    let mut compared = 0;
    for a in extras {
        for b in extras {
            for (sa, sb) in [(0, 1), (0, 2), (1, 3), (2, 3)] {
                let mut board = [['.'; 8]; 8];
                board[0][0] = 'K'; // a1
                board[7][7] = 'k'; // h8
                for (piece, sq) in [(a, squares[sa]), (b, squares[sb])] {
                    if let Some(p) = piece.chars().next() {
                        let sq = sq.as_bytes();
                        board[(sq[1] - b'1') as usize][(sq[0] - b'a') as usize] = p;
                    }
                }
                let placement: Vec<String> = (0..8)
                    .rev()
                    .map(|rank| {
                        let mut row = String::new();
                        let mut empty = 0;
                        for &c in &board[rank] {
                            if c == '.' {
                                empty += 1;
                            } else {
                                if empty > 0 {
                                    row.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                row.push(c);
                            }
                        }
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                        }
                        row
                    })
                    .collect();
                let text = format!("{} w - - 0 1", placement.join("/"));
                let Ok(ours) = Position::from_fen(&text) else {
                    continue; // e.g. black in check with white to move
                };
                let pair = Pair::from_fen(&text);
                for (color, their_color) in [
                    (Color::White, shakmaty::Color::White),
                    (Color::Black, shakmaty::Color::Black),
                ] {
                    assert_eq!(
                        ours.has_insufficient_material(color),
                        pair.shakmaty.has_insufficient_material(their_color),
                        "insufficient material of {} in {text}",
                        color.name()
                    );
                    compared += 1;
                }
            }
        }
    }
    seen_at_least(compared, 880, "verdicts compared");
}

/// A key for "the same position" in the sense of the repetition rule, from shakmaty:
/// the FEN without its clocks.
fn repetition_key(pair: &Pair) -> String {
    let text = pair.shakmaty_fen();
    text.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn zobrist_hashes_are_equal_exactly_for_the_same_position() {
    // Over every position of the playouts, equal caissa hashes must mean the same
    // position (placement, side to move, castling rights, legal en passant), and the
    // same position, reached again by any route, must have the same hash.
    let mut by_hash: HashMap<u64, String> = HashMap::new();
    let mut by_key: HashMap<String, u64> = HashMap::new();
    let mut by_their_hash: HashMap<u64, u64> = HashMap::new();
    let mut repeated = 0;
    random_playouts(GAMES, MAX_PLIES, |pair, context| {
        let hash = pair.caissa.zobrist_hash();
        let key = repetition_key(pair);
        if let Some(previous) = by_hash.insert(hash, key.clone()) {
            assert_eq!(
                previous, key,
                "two positions share hash {hash:#x} {context}"
            );
        }
        if let Some(previous) = by_key.insert(key.clone(), hash) {
            repeated += 1;
            assert_eq!(
                previous, hash,
                "{key} reached again with another hash {context}"
            );
        }
        let theirs: Zobrist64 = pair.shakmaty.zobrist_hash(EnPassantMode::Legal);
        if let Some(previous) = by_their_hash.insert(theirs.0, hash) {
            assert_eq!(previous, hash, "shakmaty's hash equality differs for {key}");
        }
    });
    seen_at_least(repeated, 1500, "positions reached twice");
}

#[test]
fn transpositions_have_equal_zobrist_hashes() {
    // Play a, b, c and c, b, a (a and c by the same side): when both orders are legal
    // and end in the same position, the hashes must be equal, and when they end in
    // different positions (castling rights lost, en passant, captures) they must differ,
    // exactly as shakmaty sees it.
    let mut transpositions = 0;
    let mut differing = 0;
    random_playouts(3, 80, |pair, context| {
        let mut rng = XorShift::new(pair.caissa.zobrist_hash());
        for _ in 0..4 {
            let Some(a) = random_move(&pair.caissa, &mut rng) else {
                return;
            };
            let mut first = Pair {
                caissa: pair.caissa,
                shakmaty: pair.shakmaty.clone(),
            };
            first.play(a);
            let Some(b) = random_move(&first.caissa, &mut rng) else {
                continue;
            };
            first.play(b);
            let Some(c) = random_move(&first.caissa, &mut rng) else {
                continue;
            };
            if c == a {
                continue;
            }
            first.play(c);
            let mut second = Pair {
                caissa: pair.caissa,
                shakmaty: pair.shakmaty.clone(),
            };
            let mut legal = true;
            for m in [c, b, a] {
                if !second.caissa.is_legal(m) {
                    legal = false;
                    break;
                }
                second.play(m);
            }
            if !legal {
                continue;
            }
            let same = first.caissa.is_same_position(&second.caissa);
            let ours = first.caissa.zobrist_hash() == second.caissa.zobrist_hash();
            let theirs = first
                .shakmaty
                .zobrist_hash::<Zobrist64>(EnPassantMode::Legal)
                == second
                    .shakmaty
                    .zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
            let lines = format!(
                "{} then {:?} {:?} {:?} vs reversed {context}",
                pair.caissa.fen(),
                a,
                b,
                c
            );
            assert_eq!(
                same,
                repetition_key(&first) == repetition_key(&second),
                "{lines}"
            );
            assert_eq!(ours, same, "caissa hash equality for {lines}");
            assert_eq!(ours, theirs, "caissa and shakmaty disagree on {lines}");
            transpositions += usize::from(same);
            differing += usize::from(!same);
        }
    });
    seen_at_least(transpositions, 4000, "transpositions found");
    seen_at_least(differing, 80, "non-transpositions found");
}

/// Guards against a test that proves little: the playouts must reach enough cases.
fn seen_at_least(count: usize, minimum: usize, what: &str) {
    assert!(
        count >= minimum,
        "only {count} {what}, expected at least {minimum}"
    );
}

fn random_move(pos: &Position, rng: &mut XorShift) -> Option<Move> {
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}
