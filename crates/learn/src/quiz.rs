//! The rules' answer to a quiz whose choices are positions.
//!
//! A quiz such as "which of these is a draw by insufficient material?" names a
//! rule; the right choice is the only position the rule holds for, asked of the
//! rules crate, so the quiz's stated answer is checked rather than trusted.

use caissa_rules::{ClaimableDraw, Color, Game, Position, Role};

use crate::check::parse_move;
use crate::lesson::{Choice, QuizRule};

/// The usual value of a piece in pawns (the king has none: it cannot be exchanged).
pub fn piece_value(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// The value of `color`'s pieces on the board, in pawns.
pub fn material(pos: &Position, color: Color) -> u32 {
    let board = pos.board();
    Role::ALL
        .into_iter()
        .map(|role| piece_value(role) * (board.by_color(color) & board.by_role(role)).count())
        .sum()
}

/// The game a choice shows: its position and the moves played from it.
fn game_of(choice: &Choice) -> Result<Game, String> {
    let fen = choice.fen.as_deref().ok_or("a choice has no position")?;
    let start = Position::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
    let mut game = Game::new(start);
    for text in &choice.moves {
        let m = parse_move(game.position(), text)?;
        game.play(m).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// The index of the one choice `rule` holds for, or why there is not exactly one.
pub(crate) fn decide(rule: QuizRule, choices: &[Choice]) -> Result<usize, String> {
    let games = choices.iter().map(game_of).collect::<Result<Vec<_>, _>>()?;
    let holds: Vec<usize> = match rule {
        QuizRule::MostMaterial => {
            let balance = |g: &Game| {
                let pos = g.position();
                material(pos, Color::White) as i64 - material(pos, Color::Black) as i64
            };
            let best = games.iter().map(balance).max().unwrap_or(0);
            (0..games.len())
                .filter(|&i| balance(&games[i]) == best)
                .collect()
        }
        _ => (0..games.len())
            .filter(|&i| {
                let game = &games[i];
                let pos = game.position();
                match rule {
                    QuizRule::InsufficientMaterial => pos.is_insufficient_material(),
                    QuizRule::Stalemate => pos.is_stalemate(),
                    QuizRule::Checkmate => pos.is_checkmate(),
                    QuizRule::Check => pos.is_check(),
                    QuizRule::ThreefoldRepetition => game
                        .claimable()
                        .contains(&ClaimableDraw::ThreefoldRepetition),
                    QuizRule::FiftyMoves => game.claimable().contains(&ClaimableDraw::FiftyMoves),
                    QuizRule::MostMaterial => false,
                }
            })
            .collect(),
    };
    match holds.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!("{rule:?} holds for none of the choices")),
        many => Err(format!("{rule:?} holds for choices {many:?}")),
    }
}
