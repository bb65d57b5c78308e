//! Playing one game between two players: the clocks, the rules of chess (checkmate,
//! stalemate, insufficient material, threefold repetition, the fifty-move rule, and
//! the automatic fivefold and seventy-five-move draws), adjudication, and the losses
//! an engine can cause itself (time, illegal moves, crashes).

use std::time::Duration;

use caissa_rules::{ClaimableDraw, Color, Game, Move, Position, Termination};

use crate::adjudication::{side_name, AdjudicationConfig, Adjudicator, Verdict};
use crate::engine::{EngineError, Player, Score, ThinkRequest, RESIGN};
use crate::tc::{Clocks, TimeControl};

/// The settings every game of a match shares.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The time control.
    pub time_control: TimeControl,
    /// How far past its clock an engine may go before it loses on time (process and
    /// pipe overhead).
    pub margin: Duration,
    /// Adjudication rules.
    pub adjudication: AdjudicationConfig,
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndKind {
    /// Checkmate.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// Neither side has mating material.
    InsufficientMaterial,
    /// The same position a third time.
    ThreefoldRepetition,
    /// Fifty moves without a capture or pawn move.
    FiftyMoves,
    /// The fivefold repetition or seventy-five-move rule.
    AutomaticDraw,
    /// A player's flag fell.
    TimeForfeit,
    /// A player's flag fell while the opponent could not checkmate.
    TimeoutVsInsufficientMaterial,
    /// A player sent an illegal move.
    IllegalMove,
    /// A player resigned (xboard engines can).
    Resignation,
    /// A player's engine crashed, or stopped speaking the protocol.
    EngineFailure,
    /// Resign adjudication (or a mate announcement).
    AdjudicatedWin,
    /// Draw adjudication.
    AdjudicatedDraw,
    /// The move cap.
    MoveLimit,
}

impl EndKind {
    /// The PGN `Termination` tag value.
    pub fn pgn_termination(self) -> &'static str {
        match self {
            EndKind::Checkmate
            | EndKind::Stalemate
            | EndKind::InsufficientMaterial
            | EndKind::ThreefoldRepetition
            | EndKind::FiftyMoves
            | EndKind::AutomaticDraw
            | EndKind::Resignation => "normal",
            EndKind::TimeForfeit | EndKind::TimeoutVsInsufficientMaterial => "time forfeit",
            EndKind::IllegalMove => "rules infraction",
            EndKind::EngineFailure => "abandoned",
            EndKind::AdjudicatedWin | EndKind::AdjudicatedDraw | EndKind::MoveLimit => {
                "adjudication"
            }
        }
    }

    /// A short snake-case name for tallies.
    pub fn as_str(self) -> &'static str {
        match self {
            EndKind::Checkmate => "checkmate",
            EndKind::Stalemate => "stalemate",
            EndKind::InsufficientMaterial => "insufficient_material",
            EndKind::ThreefoldRepetition => "threefold_repetition",
            EndKind::FiftyMoves => "fifty_moves",
            EndKind::AutomaticDraw => "automatic_draw",
            EndKind::TimeForfeit => "time_forfeit",
            EndKind::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            EndKind::IllegalMove => "illegal_move",
            EndKind::Resignation => "resignation",
            EndKind::EngineFailure => "engine_failure",
            EndKind::AdjudicatedWin => "adjudicated_win",
            EndKind::AdjudicatedDraw => "adjudicated_draw",
            EndKind::MoveLimit => "move_limit",
        }
    }
}

/// One move as played, with what the engine said about it.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// In UCI notation.
    pub uci: String,
    /// The mover's score, from its own point of view.
    pub score: Option<Score>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// Thinking time.
    pub elapsed: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The start position as a FEN.
    pub start_fen: String,
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<PlayedMove>,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub end: EndKind,
    /// The same in words, naming the side (for the PGN comment).
    pub reason: String,
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The score of the side with `color` (1, 1/2 or 0).
    pub fn points_for(&self, color: Color) -> f64 {
        match self.winner {
            None => 0.5,
            Some(c) if c == color => 1.0,
            Some(_) => 0.0,
        }
    }
}

struct Ending {
    winner: Option<Color>,
    end: EndKind,
    reason: String,
}

fn rules_ending(game: &Game) -> Option<Ending> {
    if let Some(outcome) = game.outcome() {
        let (end, reason) = match outcome.termination {
            Termination::Checkmate => {
                let winner = outcome.winner.unwrap_or(Color::White);
                (EndKind::Checkmate, format!("{} mates", side(winner)))
            }
            Termination::Stalemate => (EndKind::Stalemate, "Draw by stalemate".to_string()),
            Termination::DeadPosition if game.position().is_insufficient_material() => (
                EndKind::InsufficientMaterial,
                "Draw by insufficient mating material".to_string(),
            ),
            Termination::DeadPosition => (
                EndKind::InsufficientMaterial,
                "Draw by dead position: no series of legal moves can mate".to_string(),
            ),
            Termination::FivefoldRepetition => (
                EndKind::AutomaticDraw,
                "Draw by fivefold repetition".to_string(),
            ),
            Termination::SeventyFiveMoves => (
                EndKind::AutomaticDraw,
                "Draw by the seventy-five-move rule".to_string(),
            ),
        };
        return Some(Ending {
            winner: outcome.winner,
            end,
            reason,
        });
    }
    let claims = game.claimable();
    if claims.contains(&ClaimableDraw::ThreefoldRepetition) {
        return Some(Ending {
            winner: None,
            end: EndKind::ThreefoldRepetition,
            reason: "Draw by threefold repetition".to_string(),
        });
    }
    if claims.contains(&ClaimableDraw::FiftyMoves) {
        return Some(Ending {
            winner: None,
            end: EndKind::FiftyMoves,
            reason: "Draw by the fifty-move rule".to_string(),
        });
    }
    None
}

fn side(color: Color) -> &'static str {
    side_name(color)
}

/// Plays a game from `start` between `white` and `black` (both already told about
/// the new game with [`Player::new_game`]) and tells both how it ended.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: &Position,
    settings: &GameSettings,
) -> GameRecord {
    let start_fen = start.fen();
    let mut game = Game::new(*start);
    let mut clocks = Clocks::new(settings.time_control);
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let mut uci_moves: Vec<String> = Vec::new();
    let mut played: Vec<PlayedMove> = Vec::new();

    let ending = loop {
        if let Some(ending) = rules_ending(&game) {
            break ending;
        }
        let pos = *game.position();
        if let Some(Verdict::Draw(reason)) = adjudicator.move_limit(pos.fullmoves()) {
            break Ending {
                winner: None,
                end: EndKind::MoveLimit,
                reason,
            };
        }
        let mover = pos.turn();
        let player: &mut dyn Player = match mover {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let remaining = clocks.remaining(mover);
        let request = ThinkRequest {
            start,
            start_fen: &start_fen,
            moves: &uci_moves,
            position: &pos,
            clocks: [
                clocks.remaining(Color::White),
                clocks.remaining(Color::Black),
            ],
            increments: [clocks.increment(); 2],
            moves_to_go: clocks.moves_to_go(mover),
            deadline: remaining + settings.margin,
        };
        let flag = |detail: String| {
            // 6.9: a draw when the opponent cannot mate by any series of legal moves.
            if !pos.can_checkmate(!mover) {
                Ending {
                    winner: None,
                    end: EndKind::TimeoutVsInsufficientMaterial,
                    reason: format!(
                        "{} loses on time ({detail}), but {} cannot mate: draw",
                        side(mover),
                        side(!mover)
                    ),
                }
            } else {
                Ending {
                    winner: Some(!mover),
                    end: EndKind::TimeForfeit,
                    reason: format!("{} loses on time ({detail})", side(mover)),
                }
            }
        };
        let thought = match player.think(&request) {
            Ok(thought) => thought,
            Err(EngineError::Timeout(detail)) => break flag(detail),
            Err(e) => {
                break Ending {
                    winner: Some(!mover),
                    end: EndKind::EngineFailure,
                    reason: format!("{} engine {e}", side(mover)),
                }
            }
        };
        if !clocks.charge(mover, thought.elapsed, settings.margin) {
            break flag(format!(
                "took {:.3} s with {:.3} s left",
                thought.elapsed.as_secs_f64(),
                remaining.as_secs_f64()
            ));
        }
        if thought.best == RESIGN {
            break Ending {
                winner: Some(!mover),
                end: EndKind::Resignation,
                reason: format!("{} resigns", side(mover)),
            };
        }
        let mv = match pos.parse_uci(&thought.best) {
            Ok(mv) => mv,
            Err(_) => {
                break Ending {
                    winner: Some(!mover),
                    end: EndKind::IllegalMove,
                    reason: format!("{} makes an illegal move: {}", side(mover), thought.best),
                }
            }
        };
        // parse_uci checked legality; playing cannot fail.
        if game.play(mv).is_err() {
            break Ending {
                winner: Some(!mover),
                end: EndKind::IllegalMove,
                reason: format!("{} makes an illegal move: {}", side(mover), thought.best),
            };
        }
        let uci = pos.to_uci(mv);
        uci_moves.push(uci.clone());
        played.push(PlayedMove {
            mv,
            uci,
            score: thought.score,
            depth: thought.depth,
            elapsed: thought.elapsed,
        });
        // The rules come first: a mate on the board beats any adjudication.
        if let Some(ending) = rules_ending(&game) {
            break ending;
        }
        match adjudicator.record(mover, thought.score, pos.fullmoves()) {
            Some(Verdict::Win(winner, reason)) => {
                break Ending {
                    winner: Some(winner),
                    end: EndKind::AdjudicatedWin,
                    reason: format!("{} wins by adjudication: {reason}", side(winner)),
                }
            }
            Some(Verdict::Draw(reason)) => {
                break Ending {
                    winner: None,
                    end: EndKind::AdjudicatedDraw,
                    reason: format!("Draw by adjudication: {reason}"),
                }
            }
            None => {}
        }
    };

    let record = GameRecord {
        white: white.name().to_string(),
        black: black.name().to_string(),
        start_fen,
        start: *start,
        moves: played,
        winner: ending.winner,
        end: ending.end,
        reason: ending.reason,
    };
    white.game_over(record.result(), &record.reason);
    black.game_over(record.result(), &record.reason);
    record
}
