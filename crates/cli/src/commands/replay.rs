//! `caissa replay`: play moves (SAN or UCI) and report the game state as JSON.

use anyhow::anyhow;
use caissa_rules::{uci::UciMove, Game, Move, Position};
use serde_json::json;

use super::PositionArgs;

/// Arguments of `caissa replay`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves in SAN or UCI, in any mix.
    moves: Vec<String>,
}

/// Reads one move written in UCI or SAN.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    if let Ok(uci) = UciMove::parse(text) {
        if let Ok(m) = uci.to_move(pos) {
            return Ok(m);
        }
        // Not legal as UCI: the SAN reader (which also reads coordinates) says
        // which rule it breaks.
    }
    pos.parse_san(text).map_err(|e| e.to_string())
}

/// Plays the moves and prints `{"fen", "san", "uci", "outcome", "termination",
/// "claimable", "check"}`; on the first bad move, fails naming its ply.
pub fn run(args: Args) -> anyhow::Result<()> {
    let start = args.position.position()?;
    let mut game = Game::new(start);
    let mut sans = Vec::new();
    let mut ucis = Vec::new();
    for (i, text) in args.moves.iter().enumerate() {
        let ply = i + 1;
        if let Some(outcome) = game.outcome() {
            return Err(anyhow!(
                "ply {ply}: {text}: the game is already over ({} by {})",
                outcome.result(),
                outcome.termination.as_str().replace('_', " ")
            ));
        }
        let pos = *game.position();
        let m = parse_move(&pos, text).map_err(|e| anyhow!("ply {ply}: {e}"))?;
        sans.push(pos.san(m));
        ucis.push(pos.to_uci(m));
        game.play(m).map_err(|e| anyhow!("ply {ply}: {e}"))?;
    }
    let pos = game.position();
    let outcome = game.outcome();
    let claimable: Vec<&str> = game.claimable().iter().map(|c| c.as_str()).collect();
    let out = json!({
        "fen": pos.fen(),
        "san": sans,
        "uci": ucis,
        "outcome": outcome.map(|o| o.result()),
        "termination": outcome.map(|o| o.termination.as_str()),
        "claimable": claimable,
        "check": pos.is_check(),
    });
    println!("{out}");
    Ok(())
}
