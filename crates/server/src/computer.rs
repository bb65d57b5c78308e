//! Playing the computer. Until the engine exists, a simple player stands in behind
//! the interface the engine will implement: it mates in one when it can, otherwise
//! takes the most valuable piece it can (from level 2), otherwise moves at random.

use caissa_rules::{Move, Position, Role};

/// Something that chooses moves for the computer side.
pub trait ComputerPlayer: Send + Sync + 'static {
    /// A legal move of `pos` at strength `level` (1–8), or `None` without one.
    fn choose(&self, pos: &Position, level: u8, seed: u64) -> Option<Move>;
}

/// The stand-in player.
pub struct GreedyPlayer;

fn value(role: Option<Role>) -> i32 {
    match role {
        Some(Role::Pawn) => 1,
        Some(Role::Knight) | Some(Role::Bishop) => 3,
        Some(Role::Rook) => 5,
        Some(Role::Queen) => 9,
        _ => 0,
    }
}

impl ComputerPlayer for GreedyPlayer {
    fn choose(&self, pos: &Position, level: u8, seed: u64) -> Option<Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mut rng = seed | 1;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        if level >= 2 {
            let mates = moves.iter().copied().find(|&m| {
                let mut after = *pos;
                after.play_unchecked(m);
                after.is_checkmate()
            });
            if mates.is_some() {
                return mates;
            }
            let best = moves
                .iter()
                .copied()
                .map(|m| {
                    (
                        value(pos.board().role_at(m.to())) + value(m.promotion_role()),
                        m,
                    )
                })
                .filter(|(gain, _)| *gain > 0)
                .max_by_key(|(gain, _)| *gain);
            if let Some((_, m)) = best {
                return Some(m);
            }
        }
        Some(moves[(next() % moves.len() as u64) as usize])
    }
}
