//! `caissa puzzles`: making puzzles from games (`generate`), and moving them
//! in and out of the database in the lichess puzzle CSV (`import`, `export`).

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::Context;
use caissa_puzzles::generate::{games_in_pgn, self_play, Generator, Options, SourceGame, Stats};
use caissa_puzzles::{csv_line, read_line, Puzzle, HEADER};
use caissa_server::services::puzzles::to_stored;
use caissa_store::{Store, StoredPuzzle};

use crate::commands::admin::block_on;
use indicatif::{ProgressBar, ProgressStyle};

/// `caissa puzzles`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: PuzzleCommand,
}

#[derive(clap::Subcommand)]
enum PuzzleCommand {
    /// Find puzzles in games: any PGN, or games the engine plays itself.
    Generate(GenerateArgs),
    /// Load puzzles from the lichess puzzle CSV into the database (ids already
    /// there are kept as they are); every line is replayed by the rules, and a
    /// line that fails is named and skipped (exit status 1).
    Import(ImportArgs),
    /// Write the database's puzzles, with their current ratings and plays, as
    /// the lichess puzzle CSV.
    Export(ExportArgs),
}

#[derive(clap::Args)]
struct ImportArgs {
    /// The CSV file (`-` for standard input).
    file: PathBuf,
    /// Database URL.
    #[arg(long, default_value = "sqlite://caissa.db")]
    db: String,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args)]
struct ExportArgs {
    /// Write here instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Database URL.
    #[arg(long, default_value = "sqlite://caissa.db")]
    db: String,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["pgn", "self_play"])))]
struct GenerateArgs {
    /// Look in the games of this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Look in this many games the engine plays against itself (levels 2 to 4).
    #[arg(long, value_name = "N")]
    self_play: Option<u64>,
    /// Write the puzzles here (lichess puzzle CSV), each as soon as it is found.
    #[arg(long)]
    out: PathBuf,
    /// The first self-play game's seed (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Nodes for the two-line search that checks each solver move is the only one.
    #[arg(long, default_value_t = Options::default().check_nodes)]
    check_nodes: u64,
    /// Nodes for the quick scan of every position of a game.
    #[arg(long, default_value_t = Options::default().scan_nodes)]
    scan_nodes: u64,
    /// Stop once this many puzzles are found.
    #[arg(long)]
    limit: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `caissa puzzles`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        PuzzleCommand::Generate(args) => generate(args),
        PuzzleCommand::Import(args) => import(args),
        PuzzleCommand::Export(args) => export(args),
    }
}

/// Where the games come from: a PGN file read as the workers ask, or seeds.
enum Games {
    Pgn(Box<dyn Iterator<Item = Result<SourceGame, String>> + Send>),
    SelfPlay { next: u64, end: u64 },
}

/// One unit of work for a worker.
enum Job {
    Game(SourceGame),
    Seed(u64),
}

impl Games {
    fn next_job(&mut self) -> Option<Result<Job, String>> {
        match self {
            Games::Pgn(games) => games.next().map(|g| g.map(Job::Game)),
            Games::SelfPlay { next, end } => (*next < *end).then(|| {
                *next += 1;
                Ok(Job::Seed(*next - 1))
            }),
        }
    }
}

fn generate(args: GenerateArgs) -> anyhow::Result<()> {
    let options = Options {
        check_nodes: args.check_nodes,
        scan_nodes: args.scan_nodes,
        ..Options::default()
    };
    let (games, total) = match (&args.pgn, args.self_play) {
        (Some(path), _) => {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            (
                Games::Pgn(Box::new(games_in_pgn(BufReader::new(file)))),
                None,
            )
        }
        (None, Some(n)) => (
            Games::SelfPlay {
                next: args.seed,
                end: args.seed.saturating_add(n),
            },
            Some(n),
        ),
        (None, None) => anyhow::bail!("give --pgn FILE or --self-play N"),
    };
    let mut out = BufWriter::new(
        File::create(&args.out).with_context(|| format!("cannot write {}", args.out.display()))?,
    );
    writeln!(out, "{HEADER}")?;
    let bar = if args.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = total.map_or_else(ProgressBar::new_spinner, ProgressBar::new);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games {elapsed_precise} eta {eta} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let games = Arc::new(Mutex::new(games));
    let (sender, receiver) = mpsc::channel::<Result<Vec<Puzzle>, String>>();
    let stats = Arc::new(Mutex::new(Stats::default()));
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let games = Arc::clone(&games);
            let sender = sender.clone();
            let options = options.clone();
            let stats = Arc::clone(&stats);
            std::thread::spawn(move || {
                let mut generator = Generator::new(options);
                let mut engine = caissa_engine::Engine::new(16);
                loop {
                    let job = games.lock().ok().and_then(|mut g| g.next_job());
                    let Some(job) = job else { break };
                    let found = job.map(|job| {
                        let game = match job {
                            Job::Game(game) => game,
                            Job::Seed(seed) => self_play(&mut engine, seed),
                        };
                        generator.puzzles_in(&game)
                    });
                    if sender.send(found).is_err() {
                        break;
                    }
                }
                if let Ok(mut total) = stats.lock() {
                    *total += generator.stats;
                }
            })
        })
        .collect();
    drop(sender);
    let start = Instant::now();
    let mut seen = HashSet::new();
    let (mut written, mut games_done, mut unreadable) = (0usize, 0u64, 0u64);
    for found in receiver {
        games_done += 1;
        bar.inc(1);
        match found {
            Ok(puzzles) => {
                for puzzle in puzzles {
                    if args.limit.is_some_and(|limit| written >= limit) {
                        break;
                    }
                    // The same position may come from several games: keep the first.
                    let key: String = puzzle.fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
                    if seen.insert((key, puzzle.moves[0].clone())) {
                        out.write_all(csv_line(&puzzle).as_bytes())?;
                        written += 1;
                    }
                }
                out.flush()?;
            }
            Err(message) => {
                unreadable += 1;
                bar.suspend(|| eprintln!("skipped: {message}"));
            }
        }
        bar.set_message(format!("{written} puzzles"));
        if args.limit.is_some_and(|limit| written >= limit) {
            if let Ok(mut g) = games.lock() {
                *g = Games::SelfPlay { next: 0, end: 0 };
            }
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    bar.finish_and_clear();
    let stats = stats.lock().map(|s| *s).unwrap_or_default();
    eprintln!(
        "{written} puzzles from {games_done} games ({unreadable} unreadable, {} positions scanned, \
         {} blunders checked, {} duplicates) in {:.0} s, written to {}",
        stats.positions,
        stats.candidates,
        stats.puzzles.saturating_sub(written as u64),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// Puzzles written to the database at once.
const IMPORT_BATCH: usize = 1_000;
/// Refused lines named on the terminal (all are counted).
const ERRORS_SHOWN: usize = 20;

fn import(args: ImportArgs) -> anyhow::Result<()> {
    let (input, size): (Box<dyn Read>, Option<u64>) = if args.file.as_os_str() == "-" {
        (Box::new(std::io::stdin().lock()), None)
    } else {
        let file = File::open(&args.file)
            .with_context(|| format!("cannot open {}", args.file.display()))?;
        let size = file.metadata().ok().map(|m| m.len());
        (Box::new(file), size)
    };
    let bar = match size {
        Some(size) if !args.quiet && std::io::stderr().is_terminal() => {
            let bar = ProgressBar::new(size);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} eta {eta} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        }
        _ => ProgressBar::hidden(),
    };
    let name = args.file.display().to_string();
    block_on(async move {
        let store = Store::open(&args.db)
            .await
            .with_context(|| format!("cannot open the database {}", args.db))?;
        let mut reader = BufReader::new(input);
        let (mut read, mut added, mut refused) = (0u64, 0u64, 0u64);
        let mut batch: Vec<StoredPuzzle> = Vec::with_capacity(IMPORT_BATCH);
        let mut line = String::new();
        let mut line_no = 0;
        loop {
            line.clear();
            let n = reader
                .read_line(&mut line)
                .with_context(|| format!("{name}: reading line {}", line_no + 1))?;
            if n == 0 {
                break;
            }
            line_no += 1;
            bar.inc(n as u64);
            match read_line(line_no, &line) {
                Ok(Some(puzzle)) => {
                    read += 1;
                    batch.push(to_stored(&puzzle));
                }
                Ok(None) => {}
                Err(e) => {
                    refused += 1;
                    if refused as usize <= ERRORS_SHOWN {
                        bar.suspend(|| eprintln!("{name}: {e}"));
                    }
                }
            }
            if batch.len() >= IMPORT_BATCH {
                added += store.add_puzzles(&batch).await?;
                batch.clear();
                bar.set_message(format!("{added} new"));
            }
        }
        added += store.add_puzzles(&batch).await?;
        bar.finish_and_clear();
        println!(
            "{added} new puzzles of {read} read from {name} ({} already there), {refused} lines refused",
            read - added
        );
        if refused > 0 {
            anyhow::bail!(
                "{refused} lines of {name} were refused (the first {} are named above)",
                refused.min(ERRORS_SHOWN as u64)
            );
        }
        Ok(())
    })
}

/// A stored puzzle as the CSV writes it, its rating as it stands now.
fn from_stored(p: &StoredPuzzle) -> Puzzle {
    let words = |text: &str| text.split_whitespace().map(str::to_string).collect();
    Puzzle {
        id: p.id.clone(),
        fen: p.fen.clone(),
        moves: words(&p.moves),
        rating: p.rating.round() as i32,
        rating_deviation: p.deviation.round() as i32,
        popularity: p.popularity as i32,
        plays: p.plays.max(0) as u64,
        themes: words(&p.themes),
        game_url: p.game_url.clone(),
        opening_tags: words(&p.opening_tags),
    }
}

fn export(args: ExportArgs) -> anyhow::Result<()> {
    block_on(async move {
        let store = Store::open(&args.db)
            .await
            .with_context(|| format!("cannot open the database {}", args.db))?;
        let mut out: Box<dyn Write> = match &args.out {
            Some(path) => Box::new(BufWriter::new(
                File::create(path).with_context(|| format!("cannot write {}", path.display()))?,
            )),
            None => Box::new(BufWriter::new(std::io::stdout().lock())),
        };
        writeln!(out, "{HEADER}")?;
        let mut after = String::new();
        let mut written = 0u64;
        loop {
            let page = store.puzzles_after(&after, 1_000).await?;
            let Some(last) = page.last() else { break };
            after = last.id.clone();
            for p in &page {
                out.write_all(csv_line(&from_stored(p)).as_bytes())?;
                written += 1;
            }
        }
        out.flush()?;
        if let Some(path) = &args.out {
            eprintln!("{written} puzzles written to {}", path.display());
        }
        Ok(())
    })
}
