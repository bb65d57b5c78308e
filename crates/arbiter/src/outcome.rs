//! Results, how games end, and scores (Laws 10 in the current numbering; seed L17).

use caissa_rules::Color;
use serde::{Deserialize, Serialize};

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// White wins.
    WhiteWins,
    /// Black wins.
    BlackWins,
    /// A draw.
    Draw,
    /// No result: the game does not count (aborted, or voided by a ruleset).
    Void,
    /// The arbiter scored it a loss for both (0–0, Laws 12.9).
    BothLose,
    /// The arbiter gave White ½ and Black 0 (Laws 11.7 and 12.9).
    WhiteHalf,
    /// The arbiter gave Black ½ and White 0.
    BlackHalf,
}

impl GameResult {
    /// The win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        color.fold(GameResult::WhiteWins, GameResult::BlackWins)
    }

    /// The PGN result token: `*` for a void game and for the arbiter's unequal
    /// scores, which the PGN standard cannot write (see [`GameResult::score`]).
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Void
            | GameResult::BothLose
            | GameResult::WhiteHalf
            | GameResult::BlackHalf => "*",
        }
    }

    /// The score as written on a crosstable: `1-0`, `1/2-1/2`, `0-0`, `1/2-0`,
    /// `0-1/2`, or `void`.
    pub fn score(self) -> &'static str {
        match self {
            GameResult::Void => "void",
            GameResult::BothLose => "0-0",
            GameResult::WhiteHalf => "1/2-0",
            GameResult::BlackHalf => "0-1/2",
            other => other.pgn(),
        }
    }

    /// Reads a score as [`GameResult::score`] writes it (`½` may stand for `1/2`).
    pub fn parse_score(text: &str) -> Option<GameResult> {
        let text = text.trim().replace('½', "1/2");
        Some(match text.as_str() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "draw" => GameResult::Draw,
            "void" | "*" => GameResult::Void,
            "0-0" => GameResult::BothLose,
            "1/2-0" => GameResult::WhiteHalf,
            "0-1/2" => GameResult::BlackHalf,
            _ => return None,
        })
    }

    /// Whether this is a score only an arbiter gives, which is not one game's
    /// ordinary outcome (0–0, ½–0, 0–½): recorded, but not rated.
    pub fn is_arbiters_score(self) -> bool {
        matches!(
            self,
            GameResult::BothLose | GameResult::WhiteHalf | GameResult::BlackHalf
        )
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }

    /// `color`'s points: 1, ½ or 0 (Laws 10.1), `None` for a void game.
    pub fn points(self, color: Color) -> Option<f64> {
        match self {
            GameResult::Void => None,
            GameResult::Draw => Some(0.5),
            GameResult::BothLose => Some(0.0),
            GameResult::WhiteHalf => Some(color.fold(0.5, 0.0)),
            GameResult::BlackHalf => Some(color.fold(0.0, 0.5)),
            r if r.winner() == Some(color) => Some(1.0),
            _ => Some(0.0),
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// Checkmate (5.1.1).
    Checkmate,
    /// A player resigned (5.1.2).
    Resignation,
    /// A flag fell and the opponent could win.
    TimeForfeit,
    /// A flag fell but the opponent could not win (6.9).
    TimeoutDraw,
    /// Stalemate (5.2.1).
    Stalemate,
    /// Neither side can checkmate (5.2.2).
    DeadPosition,
    /// Draw agreed (5.2.3).
    Agreement,
    /// Threefold repetition claimed (9.2), or automatic under a ruleset.
    ThreefoldRepetition,
    /// Fifty-move rule claimed (9.3), or automatic under a ruleset.
    FiftyMoves,
    /// Fivefold repetition (9.6.1).
    FivefoldRepetition,
    /// Seventy-five-move rule (9.6.2).
    #[serde(rename = "seventyfive_moves")]
    SeventyFiveMoves,
    /// Too many illegal moves (7.5.5).
    IllegalMoves,
    /// The sealed move was ambiguous or illegal (Guidelines I.8).
    InvalidSealedMove,
    /// A player did not appear within the default time (6.7).
    NoShow,
    /// A player left and the opponent claimed the game.
    Abandoned,
    /// The game was aborted before it really began.
    Aborted,
    /// The online game's 30 moves without pawn move or capture.
    NoProgress,
    /// The online game's 10 consecutive checks or 30 checks received.
    PerpetualChecks,
    /// The arbiter decided the result (12.9, Guidelines III.5).
    ArbiterDecision,
}

impl Termination {
    /// Snake-case name, as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time_forfeit",
            Termination::TimeoutDraw => "timeout_draw",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead_position",
            Termination::Agreement => "agreement",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::IllegalMoves => "illegal_moves",
            Termination::InvalidSealedMove => "invalid_sealed_move",
            Termination::NoShow => "no_show",
            Termination::Abandoned => "abandoned",
            Termination::Aborted => "aborted",
            Termination::NoProgress => "no_progress",
            Termination::PerpetualChecks => "perpetual_checks",
            Termination::ArbiterDecision => "arbiter_decision",
        }
    }

    /// The PGN `Termination` tag value (PGN standard 9.8.1).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::TimeForfeit | Termination::TimeoutDraw => "time forfeit",
            Termination::Abandoned | Termination::NoShow => "abandoned",
            Termination::IllegalMoves | Termination::InvalidSealedMove => "rules infraction",
            Termination::ArbiterDecision => "adjudication",
            Termination::Aborted => "unterminated",
            _ => "normal",
        }
    }
}

/// How a game finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Finish {
    /// The result.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}
