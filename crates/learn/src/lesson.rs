//! The lesson format: what `data/lessons.json` holds.
//!
//! An exercise states a position and a goal, never the answer: whether a move
//! reaches the goal is decided by the rules crate when it is played (see
//! [`crate::check`]), so the lessons cannot disagree with the Laws.

use caissa_rules::{CastlingSide, Role, Square};
use serde::{Deserialize, Serialize};

use crate::text::Text;

/// A lesson: a short introduction and a series of exercises on one subject.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// A kebab-case name, unique among the lessons (`en-passant`).
    pub id: String,
    /// The part of the map of lessons it belongs to.
    pub category: Category,
    /// Its title.
    pub title: Text,
    /// What it teaches, read before the first exercise.
    pub intro: Text,
    /// The exercises, in order.
    pub exercises: Vec<Exercise>,
}

/// The parts of the map of lessons.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// The board and the squares.
    Basics,
    /// How each piece moves and captures.
    Pieces,
    /// En passant, promotion, castling.
    SpecialMoves,
    /// Check, the ways out of it, checkmate.
    CheckAndMate,
    /// Stalemate and the other draws.
    Draws,
    /// Piece values and the words players use.
    Terms,
    /// Endings.
    Endgames,
}

/// One task on the board (or a question) with a goal the rules check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    /// The starting position, the learner to move. Absent only for a quiz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// What the learner must achieve.
    pub goal: Goal,
    /// What to tell the learner, when the goal's own words
    /// ([`Exercise::instruction`]) are not enough.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Text>,
    /// A nudge shown on request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<Text>,
    /// How many moves the learner may make.
    #[serde(default = "one")]
    pub max_moves: u32,
    /// How few moves earn three and two stars; without it any solution earns three.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stars: Option<Stars>,
    /// Moves (UCI) a learner may be tempted to play that the rules refuse: castling
    /// through an attacked square, a king stepping into check. Checked when the
    /// lessons load, so that the lesson shows the rule rather than claims it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
}

fn one() -> u32 {
    1
}

/// Star thresholds: a solution in at most `three` moves earns three stars, in at most
/// `two` moves two, and any other solution one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stars {
    /// Most moves for three stars.
    pub three: u32,
    /// Most moves for two stars.
    pub two: u32,
}

impl Stars {
    /// The stars a solution in `moves` moves earns.
    pub fn earned(stars: Option<Stars>, moves: u32) -> u8 {
        match stars {
            Some(s) if moves > s.two => 1,
            Some(s) if moves > s.three => 2,
            _ => 3,
        }
    }
}

/// What an exercise asks. The learner is always the side to move in the exercise's
/// position; in the goals the learner plays alone (`reach`, `capture_all`) the turn
/// comes back to the learner after each move and the other side's pieces stand still.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// Land on every target square (in any order), playing alone.
    Reach {
        /// The squares to land on.
        targets: Vec<SquareName>,
    },
    /// Capture every enemy piece but the king, playing alone.
    CaptureAll,
    /// Give checkmate with the first move.
    MateInOne,
    /// Get out of check in the way asked.
    EscapeCheck {
        /// Which of the three ways out of check, or any.
        way: Way,
    },
    /// Promote a pawn.
    Promote {
        /// The piece the pawn must become, if one is asked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<PromotionRole>,
        /// The promotion must give checkmate.
        #[serde(default, skip_serializing_if = "is_false")]
        checkmate: bool,
        /// The promotion must not leave the opponent stalemated.
        #[serde(default, skip_serializing_if = "is_false")]
        no_stalemate: bool,
    },
    /// Castle on the side asked.
    Castle {
        /// King side (short) or queen side (long).
        side: Side,
    },
    /// Capture en passant.
    EnPassant,
    /// Stalemate the opponent with the first move.
    Stalemate,
    /// Make any legal move (with the piece asked, if one is): the lesson is in the
    /// moves the rules refuse, listed in [`Exercise::refused`].
    SafeMove {
        /// The piece that must move, if one is asked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<PieceRole>,
    },
    /// A question with choices, for what the board cannot ask (a draw by agreement).
    Quiz(Quiz),
    /// Checkmate the lone king within `max_moves` moves while the computer
    /// defends: the moves alternate, the learner's first and every second one
    /// the defender's (the server answers with the engine's move).
    Checkmate,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Goal {
    /// Whether the goal is met (or missed) by the first move alone.
    pub fn is_immediate(&self) -> bool {
        !matches!(
            self,
            Goal::Reach { .. } | Goal::CaptureAll | Goal::Quiz(_) | Goal::Checkmate
        )
    }
}

/// The three ways out of check (Laws 3.9): take the checking piece, put a piece
/// between it and the king, or move the king.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Way {
    /// Any legal move (every legal move gets out of check).
    Any,
    /// Capture the checking piece.
    Capture,
    /// Block the check with a piece between.
    Block,
    /// Move the king.
    King,
}

/// The side to castle on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Short castling, O-O.
    KingSide,
    /// Long castling, O-O-O.
    QueenSide,
}

impl Side {
    /// The rules crate's name for it.
    pub fn castling_side(self) -> CastlingSide {
        match self {
            Side::KingSide => CastlingSide::KingSide,
            Side::QueenSide => CastlingSide::QueenSide,
        }
    }
}

/// A piece a pawn may become (Laws 3.7.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromotionRole {
    /// Queen.
    Queen,
    /// Rook.
    Rook,
    /// Bishop.
    Bishop,
    /// Knight.
    Knight,
}

impl PromotionRole {
    /// The rules crate's role.
    pub fn role(self) -> Role {
        match self {
            PromotionRole::Queen => Role::Queen,
            PromotionRole::Rook => Role::Rook,
            PromotionRole::Bishop => Role::Bishop,
            PromotionRole::Knight => Role::Knight,
        }
    }
}

/// Any kind of piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceRole {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl PieceRole {
    /// The rules crate's role.
    pub fn role(self) -> Role {
        match self {
            PieceRole::Pawn => Role::Pawn,
            PieceRole::Knight => Role::Knight,
            PieceRole::Bishop => Role::Bishop,
            PieceRole::Rook => Role::Rook,
            PieceRole::Queen => Role::Queen,
            PieceRole::King => Role::King,
        }
    }
}

/// A square written by name (`e4`) in the lessons.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SquareName(pub Square);

impl TryFrom<String> for SquareName {
    type Error = String;
    fn try_from(s: String) -> Result<SquareName, String> {
        Square::parse(&s)
            .map(SquareName)
            .ok_or_else(|| format!("{s:?} is not a square (a1 to h8)"))
    }
}

impl From<SquareName> for String {
    fn from(s: SquareName) -> String {
        s.0.to_string()
    }
}

/// A question with choices. With a `rule`, each choice is a position (and the moves
/// that lead on from it) and the right answer is the one position the rule holds
/// for, as the rules crate decides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quiz {
    /// The question.
    pub question: Text,
    /// The choices, shown in this order.
    pub choices: Vec<Choice>,
    /// The index of the right choice.
    pub answer: usize,
    /// The rule that decides the answer, if the choices are positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<QuizRule>,
}

/// One choice of a quiz.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// Its words.
    pub text: Text,
    /// The position it shows, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// Moves (UCI) played from that position before the question applies, for the
    /// rules that look at the past (repetition).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
}

/// What the rules decide about a quiz's positions; the right choice is the only one
/// it holds for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuizRule {
    /// Neither side has the material to checkmate (Laws 5.2.2).
    InsufficientMaterial,
    /// The side to move has no legal move and is not in check (5.2.1).
    Stalemate,
    /// The side to move is checkmated (5.1.1).
    Checkmate,
    /// The side to move is in check (3.9).
    Check,
    /// The side to move may claim a draw by threefold repetition (9.2).
    ThreefoldRepetition,
    /// The side to move may claim a draw by the fifty-move rule (9.3).
    FiftyMoves,
    /// White is furthest ahead in material, counting pawn 1, knight and bishop 3,
    /// rook 5, queen 9.
    MostMaterial,
}
