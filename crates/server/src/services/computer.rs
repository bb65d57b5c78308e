//! Playing the computer: the engine at levels 1–8, choosing its moves off the
//! async runtime (the blocking pool) and playing them like any player's.

use std::sync::Arc;

use caissa_arbiter::Action;
use caissa_engine::{Engine, Limits, Rng};
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
}

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
            loop {
                let view = updates.borrow_and_update().clone();
                if view.finish.is_some() {
                    break;
                }
                if view.turn() == color {
                    let seed = now_ms() ^ view.moves.len() as u64;
                    let player = player.clone();
                    let remaining = view.clocks.map(|c| c[color.index()]);
                    let increment = view
                        .info
                        .setup
                        .time_control
                        .periods
                        .first()
                        .map_or(0, |p| p.increment_ms);
                    let budget = budget(remaining, increment);
                    let chosen = tokio::task::spawn_blocking(move || {
                        // The whole game, so the engine sees repetitions.
                        let positions = positions_of(&view)?;
                        let last = *positions.last()?;
                        let m = player.choose(&positions, level, budget, seed)?;
                        Some(last.to_uci(m))
                    })
                    .await
                    .ok()
                    .flatten();
                    if let Some(uci) = chosen {
                        if let Err(e) = handle.act(user, Action::play(uci), None).await {
                            tracing::warn!("the computer's move was refused: {e}");
                        }
                    }
                }
                if updates.changed().await.is_err() {
                    break;
                }
            }
        });
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
    fn the_computer_keeps_time_in_hand() {
        assert_eq!(budget(None, 0), None);
        assert_eq!(budget(Some(60_000), 0), Some(2_000));
        assert_eq!(budget(Some(900), 0), Some(30));
        assert_eq!(budget(Some(3_000), 2_000), Some(1_000));
    }
}
