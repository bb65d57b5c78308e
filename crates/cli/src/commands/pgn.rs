//! `caissa pgn`: check every game of a PGN file, report each as a JSON line, or
//! rewrite the file in clean export format.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use caissa_pgn::{write_game, Reader, Replayer, TreeBuilder};
use indicatif::{ProgressBar, ProgressStyle};

/// Arguments of `caissa pgn`.
#[derive(clap::Args)]
pub struct Args {
    /// The PGN file (`-` for standard input).
    file: PathBuf,
    /// Instead of JSON lines, write the valid games in clean PGN export format
    /// (canonical SAN, Seven Tag Roster first, 80 columns); games with errors are
    /// reported on stderr and left out.
    #[arg(long)]
    export: bool,
    /// Print a summary on stderr at the end: games, errors, plies, speed.
    #[arg(long)]
    stats: bool,
    /// Never show a progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Files above this size get a progress bar when stderr is a terminal.
const PROGRESS_THRESHOLD: u64 = 4 << 20;

/// Reads every game; fails (exit code 1) if any game had an error.
pub fn run(args: Args) -> anyhow::Result<()> {
    let (input, size): (Box<dyn Read>, Option<u64>) = if args.file.as_os_str() == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file = File::open(&args.file)
            .with_context(|| format!("cannot open {}", args.file.display()))?;
        let size = file.metadata().ok().map(|m| m.len());
        (Box::new(file), size)
    };
    let progress = match size {
        Some(size) if size > PROGRESS_THRESHOLD && !args.quiet && io::stderr().is_terminal() => {
            let bar = ProgressBar::new(size);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            Some(bar)
        }
        _ => None,
    };
    let mut reader = Reader::new(input);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let start = Instant::now();
    let (mut games, mut errors, mut plies) = (0u64, 0u64, 0u64);
    let file_name = args.file.display().to_string();

    loop {
        let error = if args.export {
            let Some(tree) = reader
                .read_game(&mut TreeBuilder::new())
                .context("reading the input")?
            else {
                break;
            };
            games += 1;
            match tree
                .map_err(|e| e.to_string())
                .and_then(|t| write_game(&t).map_err(|e| format!("game {games}, {e}")))
            {
                Ok(text) => {
                    out.write_all(text.as_bytes())?;
                    None
                }
                Err(e) => Some(e),
            }
        } else {
            let Some(game) = reader
                .read_game(&mut Replayer::new())
                .context("reading the input")?
            else {
                break;
            };
            games += 1;
            plies += u64::from(game.plies);
            let error = game.error.as_ref().map(|e| e.to_string());
            writeln!(
                out,
                "{{\"game\":{},\"result\":{},\"plies\":{},\"fen\":\"{}\",\"error\":{}}}",
                game.game,
                serde_json::to_string(&game.result)?,
                game.plies,
                game.position.fen(),
                match &error {
                    Some(e) => serde_json::to_string(e)?,
                    None => "null".to_string(),
                }
            )?;
            error
        };
        if let Some(e) = error {
            errors += 1;
            if args.export {
                eprintln!("{file_name}: {e}");
            }
        }
        if let Some(bar) = &progress {
            if games % 256 == 0 {
                bar.set_position(reader.bytes_read());
                bar.set_message(format!("{games} games, {errors} errors"));
            }
        }
    }
    out.flush()?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if args.stats {
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        let mb = reader.bytes_read() as f64 / 1e6;
        eprintln!(
            "{games} games, {errors} with errors, {plies} mainline plies, {mb:.1} MB in {secs:.2} s ({:.0} games/s, {:.1} MB/s)",
            games as f64 / secs,
            mb / secs
        );
    }
    if errors > 0 {
        anyhow::bail!("{errors} of {games} games had errors");
    }
    Ok(())
}
