//! Dead positions beyond material (Laws 5.2.2, 6.9): walls of blocked pawns, pieces
//! shut behind them, and the soundness of the proof against independent judges —
//! random play that must never find a mate where we say none exists, and
//! python-chess walking every reachable position.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use caissa_rules::fen;
use caissa_rules::{
    Bitboard, Board, CastlingMode, Color, Game, MateSearch, Outcome, Piece, Position, Role, Setup,
    Square, Termination, MATE_SEARCH_BUDGET,
};

fn pos(fen_text: &str) -> Position {
    fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

fn play(p: &Position, uci: &str) -> Position {
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
    let mut next = *p;
    next.play_unchecked(m);
    next
}

const DEAD_DRAW: Option<Outcome> = Some(Outcome {
    winner: None,
    termination: Termination::DeadPosition,
});

#[test]
fn art_5_2_2_a_wall_of_blocked_pawns_is_dead_once_the_last_pawn_locks() {
    let before = pos("4k3/8/1p1p1p1p/pPpPpPp1/P1P1P1PP/8/8/4K3 w - - 0 1");
    // Before h4-h5 the g5 pawn can still take on h4: not dead.
    assert!(!before.is_dead_position());
    let mut game = Game::new(before);
    game.play(before.parse_uci("h4h5").unwrap()).unwrap();
    assert!(game.position().is_dead_position());
    assert_eq!(game.outcome(), DEAD_DRAW);
}

#[test]
fn art_5_2_2_bishops_shut_behind_a_wall_on_their_own_colour_are_dead() {
    // White's bishop runs on light squares, where only white pawns stand; Black's on
    // dark squares, where only black pawns stand: neither can ever touch a pawn.
    let p = pos("4k3/2b5/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4B3/4K3 w - - 0 1");
    assert_eq!(
        p.mate_search(Color::White, MATE_SEARCH_BUDGET),
        MateSearch::Impossible
    );
    assert_eq!(
        p.mate_search(Color::Black, MATE_SEARCH_BUDGET),
        MateSearch::Impossible
    );
    assert!(p.is_dead_position());
}

#[test]
fn art_5_2_2_a_queen_behind_the_wall_can_open_it_by_a_sacrifice() {
    // Qd4 cxd4 frees the c4 pawn, and then the kings can meet: not dead, although
    // no move of the queen alone ever crosses the wall.
    let p = pos("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/3QK3 w - - 0 1");
    assert!(!p.is_dead_position());
    assert!(!play(&play(&p, "d1d4"), "c5d4").is_dead_position());
}

#[test]
fn art_5_2_2_a_bishop_that_can_attack_a_pawn_keeps_the_game_alive() {
    // The same wall, but White's bishop is on dark squares and can reach b4 to take
    // a5: the structure could change, so the game goes on.
    let p = pos("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3B4/4K3 w - - 0 1");
    assert!(!p.is_dead_position());
    assert!(p.can_checkmate(Color::White));
}

#[test]
fn art_5_2_2_a_gap_in_the_wall_lets_a_king_through() {
    // No pawns on the h-file: the kings can meet, and White's rook can mate.
    let p = pos("4k3/8/1p1p1p2/pPpPpPp1/P1P1P1P1/8/8/R3K3 w - - 0 1");
    assert!(!p.is_dead_position());
    assert!(p.can_checkmate(Color::White));
}

#[test]
fn art_5_2_2_kings_behind_a_wall_with_a_reachable_mate_are_not_dead() {
    // Both kings and White's rook on the same side of the wall: mate is reachable.
    let p = pos("8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/k7/2K4R w - - 0 1");
    assert!(!p.is_dead_position());
    assert_ne!(
        p.mate_search(Color::White, MATE_SEARCH_BUDGET),
        MateSearch::Impossible
    );
}

#[test]
fn art_5_2_2_an_ordinary_position_is_never_searched_deeply() {
    // Some pawn can move at once: undecided after one move generation.
    let p = Position::new();
    assert_eq!(p.mate_search(Color::White, 1), MateSearch::Undecided);
    assert!(!p.is_dead_position());
}

#[test]
fn art_6_9_a_flag_fall_against_a_bishop_shut_behind_a_wall_is_a_draw() {
    // White's flag falls; Black has a bishop and pawns, enough material by count,
    // but the dark-squared bishop can never touch White's light-squared pawns nor
    // cross the wall: Black cannot checkmate by any series of legal moves.
    let p = pos("4k3/2b5/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1");
    assert!(!p.can_checkmate(Color::Black));
    assert!(!p.has_insufficient_material(Color::Black));
}

#[test]
fn art_6_9_helpmate_search_finds_a_mate_the_material_rule_allows() {
    // Kings and one knight each behind nothing: material says a mate exists.
    let p = pos("8/8/8/4k3/8/2n5/8/1N2K3 w - - 0 1");
    assert!(p.can_checkmate(Color::White));
    // A mate on the board is found at once, and only for the side that gave it.
    let q = pos("k6R/8/1K6/8/8/8/P7/8 b - - 0 1");
    assert_eq!(
        q.mate_search(Color::White, MATE_SEARCH_BUDGET),
        MateSearch::Possible
    );
    assert_ne!(
        q.mate_search(Color::Black, MATE_SEARCH_BUDGET),
        MateSearch::Possible
    );
}

// ---------------------------------------------------------------------------------
// Soundness against independent judges

struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> XorShift {
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

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random position with a wall of locked pawn pairs, two kings and up to three
/// pieces, then a few random moves; `None` when the draw is not a legal position.
fn walled_position(rng: &mut XorShift) -> Option<Position> {
    let mut board = Board::empty();
    let mut taken = Bitboard::EMPTY;
    // Neighbouring pairs on different ranks, so that no pawn attacks another.
    let mut previous = None;
    for file in 0..8 {
        if rng.below(8) == 0 {
            previous = None;
            continue;
        }
        let mut rank = 1 + rng.below(5) as u32;
        while Some(rank) == previous {
            rank = 1 + rng.below(5) as u32;
        }
        previous = Some(rank);
        let white = Square::new(rank * 8 + file).unwrap();
        let black = Square::new((rank + 1) * 8 + file).unwrap();
        board.put(
            white,
            Piece {
                color: Color::White,
                role: Role::Pawn,
            },
        );
        board.put(
            black,
            Piece {
                color: Color::Black,
                role: Role::Pawn,
            },
        );
        taken = taken.with(white).with(black);
    }
    let mut place = |board: &mut Board, piece: Piece, rng: &mut XorShift| loop {
        let sq = Square::new(rng.below(64) as u32).unwrap();
        if !taken.contains(sq) {
            board.put(sq, piece);
            taken = taken.with(sq);
            break;
        }
    };
    place(
        &mut board,
        Piece {
            color: Color::White,
            role: Role::King,
        },
        rng,
    );
    place(
        &mut board,
        Piece {
            color: Color::Black,
            role: Role::King,
        },
        rng,
    );
    for _ in 0..rng.below(4) {
        let color = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let role = [
            Role::Knight,
            Role::Bishop,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ][rng.below(5) as usize];
        place(&mut board, Piece { color, role }, rng);
    }
    let setup = Setup {
        board,
        turn: if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        },
        castling_rights: Bitboard::EMPTY,
        ep_square: None,
        halfmoves: 0,
        fullmoves: 1,
    };
    let mut p = Position::from_setup(setup, CastlingMode::Standard).ok()?;
    for _ in 0..rng.below(6) {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
    }
    Some(p)
}

/// Positions from random games out of the initial position.
fn game_positions(rng: &mut XorShift, games: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::new();
        for _ in 0..rng.below(200) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
        out.push(p);
    }
    out
}

/// Whether random play from `p` ever reaches a checkmate (by either side).
fn random_play_finds_a_mate(p: &Position, rng: &mut XorShift, games: usize, plies: usize) -> bool {
    for _ in 0..games {
        let mut q = *p;
        for _ in 0..plies {
            let moves = q.legal_moves();
            if moves.is_empty() {
                if q.is_check() {
                    return true;
                }
                break;
            }
            q.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    false
}

/// Dead by the search, not merely by material.
fn dead_beyond_material(p: &Position) -> bool {
    p.is_dead_position() && !p.is_insufficient_material()
}

#[test]
fn art_5_2_2_random_play_never_mates_in_a_position_called_dead() {
    let mut rng = XorShift::new(52);
    let mut sample: Vec<Position> = (0..30_000)
        .filter_map(|_| walled_position(&mut rng))
        .collect();
    sample.extend(game_positions(&mut rng, 2_000));
    let mut proven = 0;
    for p in &sample {
        if dead_beyond_material(p) {
            proven += 1;
            assert!(
                !random_play_finds_a_mate(p, &mut rng, 30, 80),
                "called dead, but random play mates: {}",
                p.fen()
            );
        }
    }
    eprintln!(
        "{} positions, {proven} proven dead beyond material, none mated by random play",
        sample.len()
    );
    assert!(proven >= 150, "only {proven} dead positions in the sample");
}

#[test]
fn art_5_2_2_python_chess_walking_every_reachable_position_agrees() {
    let mut rng = XorShift::new(5_2_2);
    let mut dead = Vec::new();
    let mut alive = Vec::new();
    while dead.len() < 24 || alive.len() < 24 {
        let Some(p) = walled_position(&mut rng) else {
            continue;
        };
        // Small pens keep the Python walk short: kings and at most one piece.
        if (p.board().occupied() & !p.board().by_role(Role::Pawn)).count() > 3 {
            continue;
        }
        if dead_beyond_material(&p) {
            if dead.len() < 24 {
                dead.push(p);
            }
        } else if alive.len() < 24 {
            alive.push(p);
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/reachable_mates.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 with the chess package is needed (scripts/test.sh installs it)");
    let mut input = String::new();
    for p in dead.iter().chain(&alive) {
        input.push_str(&format!("{} {}\n", p.fen(), 12_000));
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python-chess judge failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let verdicts: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(verdicts.len(), dead.len() + alive.len());
    let mut confirmed = 0;
    let mut completed = 0;
    for (p, v) in dead.iter().chain(&alive).zip(&verdicts) {
        let fen_text = p.fen();
        let pawn_moves = v[2] == "1";
        for (color, key, theirs) in [(Color::White, "white", v[0]), (Color::Black, "black", v[1])] {
            let ours = p.mate_search(color, MATE_SEARCH_BUDGET);
            if ours == MateSearch::Impossible {
                assert_ne!(theirs, "mate", "{fen_text}: we say {key} cannot mate");
                confirmed += usize::from(theirs == "none");
            }
            // Where python-chess saw every position and no pawn could ever move, the
            // whole reachable set is small and frozen: we must prove it too.
            if theirs == "none" && !pawn_moves {
                assert_eq!(
                    ours,
                    MateSearch::Impossible,
                    "{fen_text}: {key} cannot mate"
                );
                completed += 1;
            }
            if ours == MateSearch::Possible {
                assert_ne!(theirs, "none", "{fen_text}: we found a mate for {key}");
            }
        }
    }
    eprintln!(
        "python-chess: {confirmed} of our proofs confirmed by walking every position, \
         {completed} frozen positions where it found no mate and we proved none possible"
    );
    assert!(
        confirmed >= 24,
        "python-chess confirmed only {confirmed} proofs"
    );
    assert!(
        completed >= 24,
        "only {completed} frozen positions compared"
    );
}
