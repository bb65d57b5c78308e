//! `caissa moves`: the legal moves of a position.

use std::io::Write;

use super::PositionArgs;

/// Arguments of `caissa moves`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Write the moves in SAN instead of UCI.
    #[arg(long)]
    san: bool,
}

/// Prints one move per line.
pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = args.position.position()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for &m in &pos.legal_moves() {
        let text = if args.san { pos.san(m) } else { pos.to_uci(m) };
        writeln!(out, "{text}")?;
    }
    Ok(())
}
