//! Playing the computer: the engine at levels 1–8, choosing its moves off the
//! async runtime (the blocking pool) and playing them like any player's, and
//! answering its opponent by a stated policy:
//!
//! - **Takebacks** are granted at levels 1–4, where people learn, and refused
//!   from level 5 on.
//! - **Draw offers** are accepted when a short full-strength search (0.3 s)
//!   finds the computer half a pawn or more worse, or within a quarter pawn of
//!   equality from move 40 on; otherwise refused.
//! - **Pace**: at levels 1–4 it takes a moment before moving, as a person would
//!   (from 0.4–1 s at level 4 to 1–2.5 s at level 1, never more than a
//!   sixtieth of its clock), instead of answering at once.

use std::sync::Arc;

use caissa_arbiter::Action;
use caissa_engine::{Engine, Limits, Rng, Score};
use caissa_rules::{Color, Move, Position};

use crate::live::handle::GameHandle;
use crate::live::view::{now_ms, View};

/// Something that chooses moves for the computer side.
pub trait ComputerPlayer: Send + Sync + 'static {
    /// A legal move for the last of `positions` (the game so far, oldest first) at
    /// strength `level` (1–8), within `budget_ms` if given; `None` without one.
    fn choose(
        &self,
        positions: &[Position],
        level: u8,
        budget_ms: Option<u64>,
        seed: u64,
    ) -> Option<Move>;

    /// The evaluation of the last of `positions` in centipawns from the side
    /// to move's point of view (a mate counts as ±10,000), searched for
    /// `budget_ms` at full strength.
    fn evaluate(&self, positions: &[Position], budget_ms: u64) -> Option<i32>;
}

/// Caissa's engine.
pub struct EnginePlayer;

impl ComputerPlayer for EnginePlayer {
    fn choose(
        &self,
        positions: &[Position],
        level: u8,
        budget_ms: Option<u64>,
        seed: u64,
    ) -> Option<Move> {
        let settings = caissa_engine::levels::level(level);
        let movetime = budget_ms.map_or(settings.movetime_ms, |b| b.min(settings.movetime_ms));
        let limits = Limits {
            movetime: Some(movetime.max(10)),
            ..Limits::default()
        };
        let mut engine = Engine::new(8);
        engine
            .search_at_level(
                positions,
                settings,
                &limits,
                &mut Rng::new(seed),
                None,
                None,
                &mut |_| {},
            )
            .best_move
    }

    fn evaluate(&self, positions: &[Position], budget_ms: u64) -> Option<i32> {
        positions.last()?;
        let limits = Limits {
            movetime: Some(budget_ms.max(10)),
            ..Limits::default()
        };
        let result = Engine::new(8).search(positions, &limits, None, None, &mut |_| {});
        Some(match result.score {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 10_000,
            Score::Mate(_) => -10_000,
        })
    }
}

/// Whether the computer at `level` grants its opponent a takeback.
pub fn grants_takeback(level: u8) -> bool {
    level <= 4
}

/// Whether the computer accepts a draw, given its own evaluation in
/// centipawns (from its side) at full move `fullmoves`.
pub fn accepts_draw(eval_cp: i32, fullmoves: u32) -> bool {
    eval_cp <= -50 || (eval_cp.abs() <= 25 && fullmoves >= 40)
}

/// How long the computer at `level` waits before moving, in ms, given a
/// random `unit` in [0, 1) and its time left.
pub fn pause_ms(level: u8, unit: f64, remaining_ms: Option<u64>) -> u64 {
    let (low, high) = match level {
        1 => (1000, 2500),
        2 => (800, 2000),
        3 => (600, 1500),
        4 => (400, 1000),
        _ => return 0,
    };
    let pause = low + ((high - low) as f64 * unit.clamp(0.0, 1.0)) as u64;
    remaining_ms.map_or(pause, |r| pause.min(r / 60))
}

/// How long the computer thinks about a draw offer.
const DRAW_THINK_MS: u64 = 300;

/// The time the computer allows itself from `remaining_ms` on its clock (a thirtieth,
/// and at most a second), so it never loses on time in any game the server offers.
pub fn budget(remaining_ms: Option<u64>, increment_ms: u64) -> Option<u64> {
    remaining_ms.map(|r| (r / 30 + increment_ms / 2).min(r / 3))
}

/// The computer's side of games.
pub struct Computer {
    player: Arc<dyn ComputerPlayer>,
}

impl Default for Computer {
    fn default() -> Computer {
        Computer {
            player: Arc::new(EnginePlayer),
        }
    }
}

impl Computer {
    /// Lets the computer (account `user`) play `color` in a game at `level`:
    /// whenever it is its turn, a move is chosen and played.
    pub fn drive(&self, handle: GameHandle, user: i64, color: Color, level: u8) {
        let player = self.player.clone();
        tokio::spawn(async move {
            let mut updates = handle.subscribe();
            let mut rng = Rng::new(now_ms() ^ u64::from(level));
            loop {
                let view = updates.borrow_and_update().clone();
                if view.finish.is_some() {
                    break;
                }
                let answer = if view.takeback == Some(!color) {
                    Some(if grants_takeback(level) {
                        Action::AcceptTakeback
                    } else {
                        Action::DeclineTakeback
                    })
                } else if view.draw_offer == Some(!color) {
                    Some(draw_answer(player.clone(), &view, color).await)
                } else if view.turn() == color {
                    let remaining = view.clocks.map(|c| c[color.index()]);
                    let pause = pause_ms(level, rng.next_f64(), remaining);
                    tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
                    choose(player.clone(), &view, color, level).await
                } else {
                    None
                };
                if let Some(action) = answer {
                    if let Err(e) = handle.act(user, action, None).await {
                        tracing::warn!("the computer's action was refused: {e}");
                    }
                }
                if updates.changed().await.is_err() {
                    break;
                }
            }
        });
    }
}

/// The computer's move in `view`, chosen off the runtime.
async fn choose(
    player: Arc<dyn ComputerPlayer>,
    view: &Arc<View>,
    color: Color,
    level: u8,
) -> Option<Action> {
    let seed = now_ms() ^ view.moves.len() as u64;
    let remaining = view.clocks.map(|c| c[color.index()]);
    let increment = view
        .info
        .setup
        .time_control
        .periods
        .first()
        .map_or(0, |p| p.increment_ms);
    let budget = budget(remaining, increment);
    let view = view.clone();
    tokio::task::spawn_blocking(move || {
        // The whole game, so the engine sees repetitions.
        let positions = positions_of(&view)?;
        let last = *positions.last()?;
        let m = player.choose(&positions, level, budget, seed)?;
        Some(Action::play(last.to_uci(m)))
    })
    .await
    .ok()
    .flatten()
}

/// The computer's answer to its opponent's draw offer in `view`.
async fn draw_answer(player: Arc<dyn ComputerPlayer>, view: &Arc<View>, color: Color) -> Action {
    let view = view.clone();
    let accepted = tokio::task::spawn_blocking(move || {
        let positions = positions_of(&view)?;
        let last = *positions.last()?;
        let to_move = player.evaluate(&positions, DRAW_THINK_MS)?;
        let mine = if last.turn() == color {
            to_move
        } else {
            -to_move
        };
        Some(accepts_draw(mine, last.fullmoves()))
    })
    .await
    .ok()
    .flatten()
    .unwrap_or(false);
    if accepted {
        Action::AcceptDraw
    } else {
        Action::DeclineDraw
    }
}

/// The positions of a game from its start, one per move played.
fn positions_of(view: &View) -> Option<Vec<Position>> {
    let setup = &view.info.setup;
    let mut pos = match &setup.fen {
        Some(fen) if setup.chess960 => {
            caissa_rules::fen::parse_with_mode(fen, caissa_rules::CastlingMode::Chess960).ok()?
        }
        Some(fen) => Position::from_fen(fen).ok()?,
        None => Position::new(),
    };
    let moves = view.moves.uci();
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(pos);
    for uci in &moves {
        let m = pos.parse_uci(uci).ok()?;
        pos.play_unchecked(m);
        positions.push(pos);
    }
    Some(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_plays_a_legal_move_and_takes_a_mate_in_one() {
        // Back-rank mate in one: Rd8#.
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        for level in 1..=8 {
            let m = EnginePlayer
                .choose(&[pos], level, Some(200), u64::from(level))
                .expect("a move");
            assert!(pos.legal_moves().contains(&m), "level {level}");
            if level >= 5 {
                assert_eq!(pos.to_uci(m), "d1d8", "level {level} misses the mate");
            }
        }
    }

    #[test]
    fn takebacks_are_granted_to_learners_and_draws_taken_only_when_worse() {
        assert!((1..=4).all(grants_takeback));
        assert!(!(5..=8).any(grants_takeback));
        assert!(accepts_draw(-60, 10), "half a pawn worse");
        assert!(!accepts_draw(0, 20), "level, but early");
        assert!(accepts_draw(10, 45), "level, late");
        assert!(!accepts_draw(200, 50), "better");
        let queen_down = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        let eval = EnginePlayer.evaluate(&[queen_down], 100).unwrap();
        assert!(eval < -500, "{eval}");
    }

    #[test]
    fn low_levels_take_a_moment_and_never_much_of_the_clock() {
        let pauses: Vec<u64> = (1..=8).map(|level| pause_ms(level, 0.5, None)).collect();
        assert!(pauses.windows(2).all(|w| w[0] >= w[1]), "{pauses:?}");
        assert!(
            pauses[0] >= 1000 && pauses[4..].iter().all(|&p| p == 0),
            "{pauses:?}"
        );
        assert!(pause_ms(1, 1.0, Some(6_000)) <= 100);
    }

    #[test]
    fn the_computer_keeps_time_in_hand() {
        assert_eq!(budget(None, 0), None);
        assert_eq!(budget(Some(60_000), 0), Some(2_000));
        assert_eq!(budget(Some(900), 0), Some(30));
        assert_eq!(budget(Some(3_000), 2_000), Some(1_000));
    }
}
