//! `caissa bench`: the engine's signature search (see `caissa_engine::bench`).

use anyhow::bail;

/// Arguments of `caissa bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth of each search.
    #[arg(long, default_value_t = caissa_engine::bench::DEFAULT_DEPTH)]
    depth: u32,
}

/// Searches the bench positions; one line per position, then `NODES nodes NPS nps`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if !(1..=64).contains(&args.depth) {
        bail!("--depth must be 1 to 64, not {}", args.depth);
    }
    let total = caissa_engine::bench::POSITIONS.len();
    let result = caissa_engine::bench::run(args.depth, &mut |i, fen, r| {
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
