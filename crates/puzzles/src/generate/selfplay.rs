//! Games the engine plays against itself at the middle playing levels, whose
//! occasional blunders are what puzzles are made of.

use caissa_engine::{Engine, Limits, Rng, Score};
use caissa_rules::{Game, Position};

use super::SourceGame;

/// The longest self-play game, in plies.
const MAX_PLIES: usize = 200;
/// A game is over for our purpose once one side is this far ahead...
const DECIDED_CP: i32 = 1_000;
/// ...for this many plies in a row.
const DECIDED_PLIES: usize = 8;

/// One self-play game from the initial position, the levels (one for each
/// side: levels 2 to 4) and every choice following from `seed`.
pub fn self_play(engine: &mut Engine, seed: u64) -> SourceGame {
    engine.new_game();
    let mut rng = Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let levels = [2 + rng.below(3) as u8, 2 + rng.below(3) as u8];
    let mut game = Game::new(Position::new());
    let mut decided = 0;
    while game.outcome().is_none() && game.moves().len() < MAX_PLIES {
        let level = caissa_engine::levels::level(levels[game.moves().len() % 2]);
        let result = engine.search_at_level(
            game.positions(),
            level,
            &Limits::default(),
            &mut rng,
            None,
            None,
            &mut |_| {},
        );
        let Some(mv) = result.best_move else { break };
        let lopsided = match result.score {
            Score::Cp(cp) => cp.abs() >= DECIDED_CP,
            Score::Mate(_) => true,
        };
        decided = if lopsided && !result.lines.is_empty() {
            decided + 1
        } else {
            0
        };
        if game.play(mv).is_err() || decided >= DECIDED_PLIES {
            break;
        }
    }
    SourceGame {
        start: Position::new(),
        moves: game.moves().to_vec(),
        url: String::new(),
    }
}
