//! Playing the computer: the engine at levels 1–8, off the async runtime.

use caissa_engine::{Engine, Limits, Rng};
use caissa_rules::{Move, Position};

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
