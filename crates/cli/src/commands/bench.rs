//! `caissa bench`: the engine's signature search (see `caissa_engine::bench`).

use std::sync::Arc;

use anyhow::{bail, Context};
use caissa_engine::nnue::Network;

/// Arguments of `caissa bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth of each search.
    #[arg(long, default_value_t = caissa_engine::bench::DEFAULT_DEPTH)]
    depth: u32,
    #[command(flatten)]
    eval: EvalChoice,
}

/// Which evaluation the engine searches with: `--eval-file F`, `--hce`, or the
/// embedded net (the hand-made evaluation when none is embedded).
#[derive(clap::Args)]
pub struct EvalChoice {
    /// Evaluate with this net file instead of the embedded one.
    #[arg(long, conflicts_with = "hce")]
    eval_file: Option<std::path::PathBuf>,
    /// Evaluate with the hand-made evaluation.
    #[arg(long)]
    hce: bool,
}

impl EvalChoice {
    /// The chosen net, or `None` for the hand-made evaluation; a bad net file is
    /// named with the reason.
    pub fn network(&self) -> anyhow::Result<Option<Arc<Network>>> {
        Ok(match (&self.eval_file, self.hce) {
            (_, true) => None,
            (Some(path), false) => {
                let bytes =
                    std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
                let net =
                    Network::from_bytes(&bytes).with_context(|| format!("{}", path.display()))?;
                Some(Arc::new(net))
            }
            (None, false) => Network::shared_embedded(),
        })
    }
}

/// Searches the bench positions; one line per position, then `NODES nodes NPS nps`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if !(1..=64).contains(&args.depth) {
        bail!("--depth must be 1 to 64, not {}", args.depth);
    }
    let net = args.eval.network()?;
    let total = caissa_engine::bench::POSITIONS.len();
    let result = caissa_engine::bench::run(args.depth, net, &mut |i, fen, r| {
        let best = r.best_move.map_or_else(
            || "(none)".to_string(),
            |m| {
                caissa_rules::Position::from_fen(fen)
                    .map_or_else(|_| String::new(), |p| p.to_uci(m))
            },
        );
        eprintln!(
            "{:>2}/{total} {:>10} nodes  {:>5} {:<6} {fen}",
            i + 1,
            r.nodes,
            best,
            r.score
        );
    });
    println!("{}", result.summary());
    Ok(())
}
