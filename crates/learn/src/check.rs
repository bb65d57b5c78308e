//! Checking a learner's moves against an exercise's goal.
//!
//! The rules crate decides everything: which moves are legal (and why not),
//! check, checkmate, stalemate, what a move captures. The checker only compares
//! what happened with the goal, so no exercise carries an answer that could
//! disagree with the Laws. The same stepping ([`Run`]) serves the solver.

use core::fmt;

use caissa_rules::{attacks, Bitboard, CastlingSide, Color, Move, Position, Role};
use serde::Serialize;

use crate::lesson::{Exercise, Goal, PieceRole, PromotionRole, Side, Stars, Way};
use crate::quiz;

/// Where the learner stands after the moves played so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(
    tag = "state",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Progress {
    /// Move `index` (from 0) is not legal here; `reason` says which rule it breaks.
    Illegal {
        /// Which move.
        index: usize,
        /// The rule it breaks, in English.
        reason: String,
    },
    /// Move `index` is legal but does not do what the exercise asks.
    Wrong {
        /// Which move.
        index: usize,
        /// What went wrong.
        why: Mistake,
    },
    /// The goal is under way: more moves are needed and allowed.
    Going {
        /// The position to show, the learner to move.
        fen: String,
        /// Moves played.
        moves_used: u32,
        /// Moves still allowed.
        moves_left: u32,
        /// Target squares or enemy pieces still to go.
        to_go: u32,
        /// In a mate against the computer: the defender is to move, and the
        /// next move sent must be its reply.
        #[serde(skip_serializing_if = "is_false")]
        defender_to_move: bool,
    },
    /// The goal is reached.
    Solved {
        /// Moves it took.
        moves_used: u32,
        /// One to three stars.
        stars: u8,
    },
}

/// Why a legal move does not do what the exercise asks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "mistake", rename_all = "snake_case")]
pub enum Mistake {
    /// It is not checkmate.
    NotMate,
    /// It stalemates the opponent: a draw, not a win.
    Stalemates,
    /// It checkmates, but the exercise asks for stalemate.
    Mates,
    /// It is not stalemate.
    NotStalemate,
    /// It gets out of check, but not in the way asked.
    OtherWayOutOfCheck {
        /// The way asked.
        wanted: Way,
    },
    /// It is not a promotion.
    NotPromotion,
    /// It promotes to another piece than the one asked.
    OtherPromotion {
        /// The piece asked.
        wanted: PromotionRole,
    },
    /// The promotion does not give checkmate.
    PromotionNotMate,
    /// It does not castle on the side asked.
    NotCastling {
        /// The side asked.
        wanted: Side,
    },
    /// It is not an en-passant capture.
    NotEnPassant,
    /// Another piece moved than the one asked.
    OtherPiece {
        /// The piece asked.
        wanted: PieceRole,
    },
    /// It gives check, where the exercise leaves the opponent's king alone.
    GivesCheck,
    /// The moves allowed are used up.
    OutOfMoves,
    /// The wrong choice of a quiz.
    WrongChoice,
    /// A quiz is answered with a choice, not moves (or a board exercise with moves).
    NotAQuiz,
    /// The defender took a piece, and what is left cannot give mate.
    LostMatingMaterial,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mistake::NotMate => f.write_str("that is not checkmate"),
            Mistake::Stalemates => f.write_str("that is stalemate: a draw, not a win"),
            Mistake::Mates => f.write_str("that is checkmate, not stalemate"),
            Mistake::NotStalemate => f.write_str("that is not stalemate"),
            Mistake::OtherWayOutOfCheck { wanted } => {
                let way = match wanted {
                    Way::Any => "any way",
                    Way::Capture => "by capturing the checking piece",
                    Way::Block => "by blocking the check",
                    Way::King => "by moving the king",
                };
                write!(f, "that gets out of check, but not {way}")
            }
            Mistake::NotPromotion => f.write_str("that is not a promotion"),
            Mistake::OtherPromotion { wanted } => {
                write!(f, "promote to a {}", wanted.role().name())
            }
            Mistake::PromotionNotMate => f.write_str("that promotion does not give checkmate"),
            Mistake::NotCastling { wanted } => match wanted {
                Side::KingSide => f.write_str("that is not castling king side"),
                Side::QueenSide => f.write_str("that is not castling queen side"),
            },
            Mistake::NotEnPassant => f.write_str("that is not an en-passant capture"),
            Mistake::OtherPiece { wanted } => write!(f, "move the {}", wanted.role().name()),
            Mistake::GivesCheck => f.write_str("that gives check: leave the king alone here"),
            Mistake::OutOfMoves => f.write_str("no moves left"),
            Mistake::WrongChoice => f.write_str("that is not the right answer"),
            Mistake::NotAQuiz => f.write_str("answer with a move on the board"),
            Mistake::LostMatingMaterial => {
                f.write_str("the king took your piece: nothing is left to give mate with")
            }
        }
    }
}

/// What one move did to an exercise under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Solved,
    Going,
    Wrong(Mistake),
}

/// An exercise under way: the position (the learner to move), the targets reached,
/// the moves used.
#[derive(Clone, Debug)]
pub(crate) struct Run<'a> {
    pub(crate) exercise: &'a Exercise,
    pub(crate) pos: Position,
    /// The learner's side.
    pub(crate) learner: Color,
    pub(crate) reached: Bitboard,
    pub(crate) used: u32,
}

impl<'a> Run<'a> {
    /// The start of a board exercise; `None` for a quiz or an unreadable FEN.
    pub(crate) fn start(exercise: &'a Exercise) -> Option<Run<'a>> {
        let pos = Position::from_fen(exercise.fen.as_deref()?).ok()?;
        Some(Run {
            exercise,
            pos,
            learner: pos.turn(),
            reached: Bitboard::EMPTY,
            used: 0,
        })
    }

    /// Target squares still to land on.
    pub(crate) fn targets_left(&self) -> Bitboard {
        match &self.exercise.goal {
            Goal::Reach { targets } => {
                targets.iter().map(|s| s.0).collect::<Bitboard>() & !self.reached
            }
            _ => Bitboard::EMPTY,
        }
    }

    /// Enemy pieces other than the king still on the board.
    pub(crate) fn enemies_left(&self) -> Bitboard {
        let board = self.pos.board();
        board.by_color(!self.pos.turn()) & !board.by_role(Role::King)
    }

    /// Plays a legal move and says what it did for the goal.
    pub(crate) fn step(&mut self, m: Move) -> Step {
        if self.exercise.goal == Goal::Checkmate {
            return self.step_against_defence(m);
        }
        let before = self.pos;
        let mut after = before;
        after.play_unchecked(m);
        self.used += 1;
        let step = match self.exercise.goal {
            Goal::Reach { .. } | Goal::CaptureAll => return self.step_alone(m, after),
            Goal::MateInOne => verdict(after.is_checkmate(), || {
                if after.is_stalemate() {
                    Mistake::Stalemates
                } else {
                    Mistake::NotMate
                }
            }),
            Goal::Stalemate => verdict(after.is_stalemate(), || {
                if after.is_checkmate() {
                    Mistake::Mates
                } else {
                    Mistake::NotStalemate
                }
            }),
            Goal::EscapeCheck { way } => verdict(escapes(&before, m, way), || {
                Mistake::OtherWayOutOfCheck { wanted: way }
            }),
            Goal::Promote {
                to,
                checkmate,
                no_stalemate,
            } => match m.promotion_role() {
                None => Step::Wrong(Mistake::NotPromotion),
                Some(role) if to.is_some_and(|t| t.role() != role) => {
                    Step::Wrong(Mistake::OtherPromotion {
                        wanted: to.unwrap_or(PromotionRole::Queen),
                    })
                }
                Some(_) if checkmate && !after.is_checkmate() => {
                    Step::Wrong(if after.is_stalemate() {
                        Mistake::Stalemates
                    } else {
                        Mistake::PromotionNotMate
                    })
                }
                Some(_) if no_stalemate && after.is_stalemate() => Step::Wrong(Mistake::Stalemates),
                Some(_) => Step::Solved,
            },
            Goal::Castle { side } => verdict(
                m.is_castle() && CastlingSide::of(m.from(), m.to()) == side.castling_side(),
                || Mistake::NotCastling { wanted: side },
            ),
            Goal::EnPassant => verdict(m.is_en_passant(), || Mistake::NotEnPassant),
            Goal::SafeMove { role } => verdict(
                role.is_none_or(|r| before.board().role_at(m.from()) == Some(r.role())),
                || Mistake::OtherPiece {
                    wanted: role.unwrap_or(PieceRole::King),
                },
            ),
            Goal::Quiz(_) => Step::Wrong(Mistake::NotAQuiz),
            Goal::Checkmate => Step::Going,
        };
        self.pos = after;
        step
    }

    /// A move of a mate against the computer, the learner's or the defender's.
    fn step_against_defence(&mut self, m: Move) -> Step {
        let learners = self.pos.turn() == self.learner;
        self.pos.play_unchecked(m);
        if learners {
            self.used += 1;
            if self.pos.is_checkmate() {
                Step::Solved
            } else if self.pos.is_stalemate() {
                Step::Wrong(Mistake::Stalemates)
            } else {
                Step::Going
            }
        } else if self.pos.has_insufficient_material(self.learner) {
            Step::Wrong(Mistake::LostMatingMaterial)
        } else if self.used >= self.exercise.max_moves {
            Step::Wrong(Mistake::OutOfMoves)
        } else {
            Step::Going
        }
    }

    /// A move of the goals played alone: note the target reached, then hand the turn
    /// back to the learner (the other side passes).
    fn step_alone(&mut self, m: Move, after: Position) -> Step {
        let landed = if m.is_castle() {
            CastlingSide::of(m.from(), m.to()).king_to(self.pos.turn())
        } else {
            m.to()
        };
        if self.targets_left().contains(landed) {
            self.reached = self.reached.with(landed);
        }
        let learner = self.pos.turn();
        self.pos = after;
        let done = match self.exercise.goal {
            Goal::Reach { .. } => self.targets_left().is_empty(),
            _ => {
                let board = after.board();
                (board.by_color(!learner) & !board.by_role(Role::King)).is_empty()
            }
        };
        if done {
            return Step::Solved;
        }
        match pass(&after) {
            Some(back) => self.pos = back,
            None => return Step::Wrong(Mistake::GivesCheck),
        }
        if self.used >= self.exercise.max_moves {
            Step::Wrong(Mistake::OutOfMoves)
        } else {
            Step::Going
        }
    }
}

fn verdict(ok: bool, mistake: impl FnOnce() -> Mistake) -> Step {
    if ok {
        Step::Solved
    } else {
        Step::Wrong(mistake())
    }
}

/// The position with the turn handed back to the other side, as if the side to move
/// passed; `None` if that side would be in check (the handed-back position would not
/// be legal).
fn pass(pos: &Position) -> Option<Position> {
    let mut setup = pos.to_setup();
    setup.turn = !setup.turn;
    setup.ep_square = None;
    Position::from_setup(setup, pos.castling_mode()).ok()
}

/// Whether legal move `m`, played in check, gets out of it in the way asked.
fn escapes(before: &Position, m: Move, way: Way) -> bool {
    let king = before.king(before.turn());
    let checkers = before.checkers();
    let captured = if m.is_en_passant() {
        // The pawn taken en passant stands beside the destination, on the origin's rank.
        caissa_rules::Square::from_coords(m.to().file(), m.from().rank())
    } else {
        m.to()
    };
    match way {
        Way::Any => true,
        Way::King => m.from() == king,
        Way::Capture => !m.is_castle() && checkers.contains(captured),
        Way::Block => {
            m.from() != king
                && checkers
                    .into_iter()
                    .any(|c| attacks::between(king, c).contains(m.to()))
        }
    }
}

/// The move a learner's text names: UCI (`e2e4`, `e7e8n`) or SAN (`Nf3`, `O-O`), or
/// why it is not legal here.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let text = text.trim();
    if let Ok(m) = pos.parse_uci(text) {
        return Ok(m);
    }
    pos.parse_san(text).map_err(|e| e.to_string())
}

impl Exercise {
    /// Checks the learner's moves (UCI or SAN), played from the start: each must be
    /// legal, and the goal decides whether they reach it.
    pub fn check(&self, moves: &[&str]) -> Progress {
        self.walk(moves).0
    }

    /// The board to show after the learner's moves: the position after the last legal
    /// one, with the learner to move while the exercise goes on. `None` for a quiz.
    pub fn next_fen(&self, moves: &[&str]) -> Option<String> {
        self.walk(moves).1
    }

    /// Answers a quiz with the index of a choice.
    pub fn answer(&self, choice: usize) -> Progress {
        match &self.goal {
            Goal::Quiz(q) if q.answer == choice => Progress::Solved {
                moves_used: 1,
                stars: 3,
            },
            Goal::Quiz(_) => Progress::Wrong {
                index: 0,
                why: Mistake::WrongChoice,
            },
            _ => Progress::Wrong {
                index: 0,
                why: Mistake::NotAQuiz,
            },
        }
    }

    /// The right choice of a quiz as the rules decide it, where a rule decides it;
    /// `Err` says why the choices do not allow that.
    pub fn quiz_answer_by_rules(&self) -> Option<Result<usize, String>> {
        match &self.goal {
            Goal::Quiz(q) => q.rule.map(|rule| quiz::decide(rule, &q.choices)),
            _ => None,
        }
    }

    fn walk(&self, moves: &[&str]) -> (Progress, Option<String>) {
        let Some(mut run) = Run::start(self) else {
            let why = Mistake::NotAQuiz;
            return (Progress::Wrong { index: 0, why }, None);
        };
        for (index, text) in moves.iter().enumerate() {
            let m = match parse_move(&run.pos, text) {
                Ok(m) => m,
                Err(reason) => {
                    return (Progress::Illegal { index, reason }, Some(run.pos.fen()));
                }
            };
            match run.step(m) {
                Step::Solved => {
                    let stars = Stars::earned(self.stars, run.used);
                    let solved = Progress::Solved {
                        moves_used: run.used,
                        stars,
                    };
                    return (solved, Some(run.pos.fen()));
                }
                Step::Wrong(why) => return (Progress::Wrong { index, why }, Some(run.pos.fen())),
                Step::Going => {}
            }
        }
        let to_go = match self.goal {
            Goal::CaptureAll => run.enemies_left().count(),
            _ => run.targets_left().count(),
        };
        let going = Progress::Going {
            fen: run.pos.fen(),
            moves_used: run.used,
            moves_left: self.max_moves.saturating_sub(run.used),
            to_go,
            defender_to_move: run.pos.turn() != run.learner,
        };
        (going, Some(run.pos.fen()))
    }
}
