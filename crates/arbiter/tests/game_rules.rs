//! The Laws of Chess (2023) as the game applies them under the FIDE rulesets: how a
//! game ends (5, 6.9, 9.6), draw offers and claims (9.1–9.5), illegal moves (7.5),
//! the default time (6.7), the arbiter (12), adjournment (Guidelines I) and games
//! without increment (Guidelines III).

use caissa_arbiter::{
    Action, ActionError, ArbiterAction, ClaimKind, EventKind, GameResult, Ruleset, Status,
    Termination, TimeControl,
};
use caissa_rules::Color::{Black, White};

use crate::support::*;

mod conduct;
mod draws;
mod endings;
mod guidelines;

fn standard() -> caissa_arbiter::Game {
    new_game(
        Ruleset::FideStandard,
        TimeControl::fischer(90 * MINUTE, 30 * SECOND),
    )
}

fn standard_fen(fen: &str) -> caissa_arbiter::Game {
    new_game_fen(
        Ruleset::FideStandard,
        TimeControl::fischer(90 * MINUTE, 30 * SECOND),
        fen,
    )
}

fn claim(kind: ClaimKind, with_move: Option<&str>) -> Action {
    Action::ClaimDraw {
        claim: kind,
        with_move: with_move.map(str::to_string),
    }
}

/// White king and queen against a lone king.
const QUEEN_VS_KING: &str = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
/// White king and pawn against a lone king.
const PAWN_VS_KING: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
/// K+R v K with 99 half-moves since the last capture or pawn move, White to move.
const FIFTY_MINUS_ONE: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 99 60";
/// Mate in one (Ra8#) on the 150th half-move without capture or pawn move.
const SEVENTY_FIVE_MINUS_ONE: &str = "7k/8/6K1/8/8/8/8/R7 w - - 149 100";
