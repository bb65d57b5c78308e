//! Naming what a puzzle is about, with lichess's theme keys, from the moves and
//! the positions alone.
//!
//! The tactics are recognised by what happens in the line, not by guessing:
//! a fork is a move whose piece attacks two pieces worth more than it (or the
//! king, or an undefended piece) and later takes one of them; a pin is a piece
//! that cannot move without exposing a more valuable one and is then taken; a
//! skewer attacks a valuable piece and takes the one behind it; a discovered
//! attack uncovers a line from another piece that gives check or later takes.

use caissa_rules::attacks::{attacks, between, king_attacks};
use caissa_rules::{Bitboard, Color, Move, Position, Role};

use super::{balance, piece_value};

/// Puzzles from the game's first this many plies are in the opening (and
/// carry the opening's tags).
pub const OPENING_PLIES: usize = 24;
/// At most this much material besides kings and pawns (both sides, in pawns)
/// makes an endgame.
const ENDGAME_MATERIAL: i32 = 26;

/// The themes of a puzzle: `line[0]` is the position before the opponent's
/// move `moves[0]`, `line[k + 1]` the position after `moves[k]`; the solver's
/// moves are `moves[1]`, `moves[3]` ...; `ply` is the game's ply of the
/// solver's first position; `mate` the length of a mate line; `score` the
/// first search's score for the solver.
pub fn themes(
    line: &[Position],
    moves: &[Move],
    ply: usize,
    mate: Option<usize>,
    score: i32,
) -> Vec<String> {
    let mut themes: Vec<&str> = Vec::new();
    let solver = line[1].turn();
    let solver_moves: Vec<usize> = (1..moves.len()).step_by(2).collect();
    match mate {
        Some(n) => {
            themes.push("mate");
            themes.push(["mateIn1", "mateIn2", "mateIn3", "mateIn4", "mateIn5"][(n - 1).min(4)]);
            if let Some(last) = line.last() {
                if is_back_rank_mate(last) {
                    themes.push("backRankMate");
                }
                if is_smothered_mate(last) {
                    themes.push("smotheredMate");
                }
            }
        }
        None if score >= 600 => themes.push("crushing"),
        None => themes.push("advantage"),
    }
    themes.push(match solver_moves.len() {
        1 => "oneMove",
        2 => "short",
        3 => "long",
        _ => "veryLong",
    });
    let endgame = material_besides_pawns(&line[1]) <= ENDGAME_MATERIAL;
    themes.push(if endgame {
        "endgame"
    } else if ply < OPENING_PLIES {
        "opening"
    } else {
        "middlegame"
    });
    if endgame {
        themes.extend(endgame_type(&line[1]));
    }
    let is_move = |k: usize, test: fn(Move) -> bool| test(moves[k]);
    if solver_moves.iter().any(|&k| is_move(k, Move::is_promotion)) {
        themes.push("promotion");
    }
    if solver_moves.iter().any(|&k| {
        moves[k]
            .promotion_role()
            .is_some_and(|role| role != Role::Queen)
    }) {
        themes.push("underPromotion");
    }
    if solver_moves
        .iter()
        .any(|&k| is_move(k, Move::is_en_passant))
    {
        themes.push("enPassant");
    }
    if solver_moves.iter().any(|&k| is_move(k, Move::is_castle)) {
        themes.push("castling");
    }
    if solver_moves
        .iter()
        .any(|&k| line[k + 1].checkers().count() >= 2)
    {
        themes.push("doubleCheck");
    }
    let start = balance(&line[1], solver);
    if (2..moves.len())
        .step_by(2)
        .any(|k| balance(&line[k + 1], solver) <= start - 2)
    {
        themes.push("sacrifice");
    }
    let tactics = Tactics {
        line,
        moves,
        solver,
        solver_moves: &solver_moves,
    };
    if mate.is_none() && solver_moves.len() <= 2 && tactics.takes_hanging_piece() {
        themes.push("hangingPiece");
    }
    if tactics.fork() {
        themes.push("fork");
    }
    if tactics.pin() {
        themes.push("pin");
    }
    if tactics.skewer() {
        themes.push("skewer");
    }
    if tactics.discovered_attack() {
        themes.push("discoveredAttack");
    }
    themes.into_iter().map(String::from).collect()
}

/// A first guess at a new puzzle's rating, before anyone plays it: longer
/// lines, sacrifices and quiet tricks are harder; a piece left hanging easier.
pub fn initial_rating(themes: &[String], solver_moves: usize) -> i32 {
    let has = |t: &str| themes.iter().any(|x| x == t);
    let moves = solver_moves.max(1) as i32 - 1;
    let mut rating = if has("mate") {
        900 + 350 * moves
    } else {
        1100 + 250 * moves
    };
    for (theme, change) in [
        ("sacrifice", 200),
        ("underPromotion", 150),
        ("discoveredAttack", 100),
        ("skewer", 50),
        ("pin", 50),
        ("hangingPiece", -200),
    ] {
        if has(theme) {
            rating += change;
        }
    }
    rating.clamp(600, 2800)
}

/// Material besides kings and pawns, both sides, in pawns.
fn material_besides_pawns(pos: &Position) -> i32 {
    let board = pos.board();
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&role| piece_value(role) * board.by_role(role).count() as i32)
        .sum()
}

/// lichess's endgame type: which kinds of pieces are left besides kings and pawns.
fn endgame_type(pos: &Position) -> Option<&'static str> {
    let board = pos.board();
    let present = |role: Role| board.by_role(role).is_nonempty();
    let (n, b, r, q) = (
        present(Role::Knight),
        present(Role::Bishop),
        present(Role::Rook),
        present(Role::Queen),
    );
    match (n, b, r, q) {
        (false, false, false, false) => Some("pawnEndgame"),
        (false, false, true, false) => Some("rookEndgame"),
        (false, true, false, false) => Some("bishopEndgame"),
        (true, false, false, false) => Some("knightEndgame"),
        (false, false, false, true) => Some("queenEndgame"),
        (false, false, true, true) => Some("queenRookEndgame"),
        _ => None,
    }
}

/// Mate by a rook or queen along the mated king's first rank, its way forward
/// blocked by its own pieces.
fn is_back_rank_mate(pos: &Position) -> bool {
    if !pos.is_checkmate() {
        return false;
    }
    let mated = pos.turn();
    let king = pos.king(mated);
    let back_rank = Bitboard::backrank(mated);
    if !back_rank.contains(king) {
        return false;
    }
    let board = pos.board();
    let checkers_on_rank = pos.checkers().all(|sq| {
        back_rank.contains(sq) && matches!(board.role_at(sq), Some(Role::Rook | Role::Queen))
    });
    let forward = king_attacks(king) & !back_rank;
    checkers_on_rank && (forward & !board.by_color(mated)).is_empty()
}

/// Mate by a knight, the king hemmed in by its own pieces.
fn is_smothered_mate(pos: &Position) -> bool {
    if !pos.is_checkmate() {
        return false;
    }
    let mated = pos.turn();
    let board = pos.board();
    let by_knight = pos
        .checkers()
        .all(|sq| board.role_at(sq) == Some(Role::Knight));
    by_knight && (king_attacks(pos.king(mated)) & !board.by_color(mated)).is_empty()
}

/// The line of one puzzle, from the solver's side.
struct Tactics<'a> {
    line: &'a [Position],
    moves: &'a [Move],
    solver: Color,
    solver_moves: &'a [usize],
}

impl Tactics<'_> {
    /// Whether a solver move after the `k`th move captures on `square`
    /// (moving from `from`, if given).
    fn later_capture(
        &self,
        k: usize,
        square: caissa_rules::Square,
        from: Option<caissa_rules::Square>,
    ) -> bool {
        self.solver_moves.iter().filter(|&&j| j > k).any(|&j| {
            let mv = self.moves[j];
            mv.to() == square
                && from.is_none_or(|f| mv.from() == f)
                && self.line[j].board().color_at(square) == Some(!self.solver)
        })
    }

    fn defended(pos: &Position, square: caissa_rules::Square, by: Color) -> bool {
        let board = pos.board();
        board
            .attackers_to(square, by, board.occupied())
            .is_nonempty()
    }

    /// The first solver move takes a piece (not a pawn) nobody defends.
    fn takes_hanging_piece(&self) -> bool {
        let pos = &self.line[1];
        let mv = self.moves[1];
        let taken = pos.board().role_at(mv.to());
        pos.board().color_at(mv.to()) == Some(!self.solver)
            && taken.is_some_and(|r| r != Role::Pawn)
            && !Self::defended(pos, mv.to(), !self.solver)
    }

    fn fork(&self) -> bool {
        self.solver_moves.iter().any(|&k| {
            let after = &self.line[k + 1];
            let to = self.moves[k].to();
            let board = after.board();
            let Some(piece) = board.piece_at(to) else {
                return false;
            };
            if piece.role == Role::King {
                return false;
            }
            let targets: Vec<_> = (attacks(piece, to, board.occupied())
                & board.by_color(!self.solver))
            .filter(|&sq| {
                let role = board.role_at(sq).unwrap_or(Role::Pawn);
                role == Role::King
                    || piece_value(role) > piece_value(piece.role)
                    || (role != Role::Pawn && !Self::defended(after, sq, !self.solver))
            })
            .collect();
            targets.len() >= 2
                && targets
                    .iter()
                    .any(|&sq| self.later_capture(k, sq, Some(to)))
        })
    }

    /// Opponent pieces (not kings or pawns) pinned by a solver slider to the
    /// king or to a more valuable piece, in `pos`.
    fn pinned(&self, pos: &Position) -> Vec<caissa_rules::Square> {
        let board = pos.board();
        let theirs = board.by_color(!self.solver);
        let mut pinned = Vec::new();
        for slider in
            board.by_color(self.solver) & (board.diagonal_sliders() | board.straight_sliders())
        {
            let Some(piece) = board.piece_at(slider) else {
                continue;
            };
            let empty_board_reach = attacks(piece, slider, Bitboard(0));
            for behind in theirs & empty_board_reach {
                let between_squares = between(slider, behind) & board.occupied();
                let Some(middle) = between_squares.single_square() else {
                    continue;
                };
                let (Some(front), Some(back)) = (board.piece_at(middle), board.role_at(behind))
                else {
                    continue;
                };
                let valuable_behind =
                    back == Role::King || piece_value(back) > piece_value(front.role);
                if front.color == !self.solver
                    && !matches!(front.role, Role::King | Role::Pawn)
                    && valuable_behind
                {
                    pinned.push(middle);
                }
            }
        }
        pinned
    }

    fn pin(&self) -> bool {
        self.solver_moves.iter().any(|&k| {
            let mut squares = self.pinned(&self.line[k]);
            squares.extend(self.pinned(&self.line[k + 1]));
            squares
                .iter()
                .any(|&sq| self.later_capture(k - 1, sq, None))
        })
    }

    fn skewer(&self) -> bool {
        self.solver_moves.iter().any(|&k| {
            let after = &self.line[k + 1];
            let to = self.moves[k].to();
            let board = after.board();
            let Some(piece) = board.piece_at(to) else {
                return false;
            };
            if !matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen) {
                return false;
            }
            let theirs = board.by_color(!self.solver);
            let occupied = board.occupied();
            (attacks(piece, to, occupied) & theirs).any(|front| {
                let front_role = board.role_at(front).unwrap_or(Role::Pawn);
                let xray = attacks(piece, to, occupied.without(front)) & theirs;
                xray.filter(|&back| between(to, back).contains(front))
                    .any(|back| {
                        let back_role = board.role_at(back).unwrap_or(Role::Pawn);
                        (front_role == Role::King
                            || piece_value(front_role) > piece_value(back_role))
                            && back_role != Role::Pawn
                            && self.later_capture(k, back, None)
                    })
            })
        })
    }

    fn discovered_attack(&self) -> bool {
        self.solver_moves.iter().any(|&k| {
            let before = self.line[k].board();
            let after = self.line[k + 1].board();
            let mv = self.moves[k];
            let sliders =
                after.by_color(self.solver) & (after.diagonal_sliders() | after.straight_sliders());
            sliders.filter(|&sq| sq != mv.to()).any(|sq| {
                let Some(piece) = after.piece_at(sq) else {
                    return false;
                };
                let was = attacks(piece, sq, before.occupied());
                let now = attacks(piece, sq, after.occupied());
                let mut uncovered = now & !was & after.by_color(!self.solver);
                uncovered.any(|target| {
                    after.role_at(target) == Some(Role::King)
                        || (after.role_at(target).is_some_and(|r| r != Role::Pawn)
                            && self.later_capture(k, target, Some(sq)))
                })
            })
        })
    }
}
