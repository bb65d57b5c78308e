//! A game's line of positions, and the rules that need it: repetition, the fifty-
//! and seventy-five-move rules, and how a game ends by itself.

use core::fmt;

use crate::{Color, IllegalMove, Move, Position};

/// How a game ended without either player acting (Laws 5 and 9.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated (5.1.1).
    Checkmate,
    /// The side to move has no legal move and is not in check (5.2.1).
    Stalemate,
    /// Neither side can checkmate (5.2.2).
    DeadPosition,
    /// The same position for the fifth time (9.6.1).
    FivefoldRepetition,
    /// 75 moves by each side without a pawn move or capture (9.6.2).
    SeventyFiveMoves,
}

impl Termination {
    /// Snake-case name: `checkmate`, `fivefold_repetition`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead_position",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventyfive_moves",
        }
    }
}

/// The result of a finished game and why it finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: Termination,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// A draw a player may claim (Laws 9.2, 9.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClaimableDraw {
    /// The same position for at least the third time.
    ThreefoldRepetition,
    /// 50 moves by each side without a pawn move or capture.
    FiftyMoves,
}

impl ClaimableDraw {
    /// `threefold_repetition` or `fifty_moves`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimableDraw::ThreefoldRepetition => "threefold_repetition",
            ClaimableDraw::FiftyMoves => "fifty_moves",
        }
    }
}

impl fmt::Display for ClaimableDraw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game as its starting position and the moves played since: enough to apply every
/// rule that looks at the past.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::new())
    }
}

impl Game {
    /// A game starting from `start` (nothing before it is known).
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// Every position so far, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a move if it is legal in the current position.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        let mut next = *self.position();
        next.play(m)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How many times the current position has occurred, counting now.
    pub fn repetitions(&self) -> usize {
        count_occurrences(&self.positions, self.position())
    }

    /// The automatic ending of the game in its current position, if any. When several
    /// apply at once the order is checkmate, dead position by material, stalemate,
    /// dead position by search, seventy-five moves, fivefold repetition (checkmate always takes precedence, 9.6).
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let has_moves = pos.has_legal_moves();
        let draw = |termination| {
            Some(Outcome {
                winner: None,
                termination,
            })
        };
        if !has_moves && pos.is_check() {
            return Some(Outcome {
                winner: Some(!pos.turn()),
                termination: Termination::Checkmate,
            });
        }
        if pos.is_insufficient_material() {
            return draw(Termination::DeadPosition);
        }
        if !has_moves {
            return draw(Termination::Stalemate);
        }
        if pos.is_dead_position() {
            return draw(Termination::DeadPosition);
        }
        if pos.halfmoves() >= 150 {
            return draw(Termination::SeventyFiveMoves);
        }
        if self.repetitions() >= 5 {
            return draw(Termination::FivefoldRepetition);
        }
        None
    }

    /// Draws the player to move could claim now, in the current position (9.2.2, 9.3.2).
    pub fn claimable(&self) -> Vec<ClaimableDraw> {
        claims(self.position(), self.repetitions())
    }

    /// Draws the player to move could claim by writing `m` and declaring the intention to
    /// play it (9.2.1, 9.3.1): the claims that hold for the position after `m`.
    pub fn claimable_with(&self, m: Move) -> Result<Vec<ClaimableDraw>, IllegalMove> {
        let mut next = *self.position();
        next.play(m)?;
        let count = 1 + count_occurrences(&self.positions, &next);
        Ok(claims(&next, count))
    }
}

/// The claims that hold for `pos`. A fifty-move claim needs a move left to make:
/// a checkmate or stalemate on the hundredth half-move ends the game first (5.1.1,
/// 5.2.1). A position repeated for the third time is never a mate or stalemate.
fn claims(pos: &Position, occurrences: usize) -> Vec<ClaimableDraw> {
    let mut out = Vec::new();
    if occurrences >= 3 {
        out.push(ClaimableDraw::ThreefoldRepetition);
    }
    if pos.halfmoves() >= 100 && pos.has_legal_moves() {
        out.push(ClaimableDraw::FiftyMoves);
    }
    out
}

/// Occurrences of `pos` among `line`. Only positions since the last capture or pawn
/// move can be equal, so the search stops at the half-move clock.
fn count_occurrences(line: &[Position], pos: &Position) -> usize {
    let reach = (pos.halfmoves() as usize + 1).min(line.len());
    line[line.len() - reach..]
        .iter()
        .filter(|p| p.is_same_position(pos))
        .count()
}
