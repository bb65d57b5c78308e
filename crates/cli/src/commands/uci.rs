//! `caissa uci`: the engine speaking the Universal Chess Interface on stdin/stdout.

/// Arguments of `caissa uci` (none).
#[derive(clap::Args)]
pub struct Args {}

/// Runs the UCI loop until `quit` or the end of input.
pub fn run(_args: Args) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    caissa_engine::run_uci(stdin.lock(), std::io::stdout());
    Ok(())
}
