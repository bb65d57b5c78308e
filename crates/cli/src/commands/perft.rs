//! `caissa perft`: leaf-node counts of the legal move tree.

use std::io::Write;
use std::time::Instant;

use caissa_rules::perft;

use super::PositionArgs;

/// Arguments of `caissa perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies.
    depth: u32,
    #[command(flatten)]
    position: PositionArgs,
    /// Print `<uci>: <count>` for each root move before the total.
    #[arg(long)]
    divide: bool,
    /// Play every move of the last ply instead of counting them in bulk.
    #[arg(long)]
    full: bool,
    /// Print the time taken and nodes per second on stderr.
    #[arg(long)]
    stats: bool,
}

/// Runs the command; the total is the last line of stdout.
pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = args.position.position()?;
    let start = Instant::now();
    let count = |p: &caissa_rules::Position, d: u32| {
        if args.full {
            perft::perft_full(p, d)
        } else {
            perft::perft(p, d)
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for &m in &pos.legal_moves() {
            let mut child = pos;
            child.play_unchecked(m);
            let n = count(&child, args.depth - 1);
            writeln!(out, "{}: {n}", pos.to_uci(m))?;
            total += n;
        }
        total
    } else {
        count(&pos, args.depth)
    };
    writeln!(out, "{total}")?;
    if args.stats {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{total} nodes in {secs:.3} s: {:.1} M nodes/s",
            total as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}
