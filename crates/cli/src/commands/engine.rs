//! `caissa engine`: make the engine's network: self-play data (`datagen`), a look
//! at it (`dump`), and training (`train`).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use caissa_train::datagen::{self, Options, Progress};

/// The subcommands.
#[derive(clap::Subcommand)]
pub enum EngineCommand {
    /// Self-play for training data: quiet positions with the search's score and the
    /// game's result, 32 bytes each, in DIR/t{thread}.bin (appended to).
    Datagen(DatagenArgs),
    /// Print records of a data file as `FEN | score | result`.
    Dump(DumpArgs),
    /// Train a network on datagen files and write the engine's net file (the one
    /// with the lowest loss on the positions kept aside).
    Train(TrainArgs),
}

/// Arguments of `caissa engine train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// Data files, or directories whose `*.bin` files are read (in name order).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The net file to write.
    #[arg(long)]
    out: PathBuf,
    /// Hidden layer size (a multiple of 16, at most 512; 256 unless --init
    /// gives it).
    #[arg(long)]
    hidden: Option<usize>,
    /// Output buckets, by the number of men on the board (1 for a single
    /// output layer, as nets v1 to v5 had; 8 unless --init gives them).
    #[arg(long)]
    buckets: Option<usize>,
    /// Start from this net file's weights instead of random ones (fine-tuning
    /// it on new data); its hidden size and buckets are used.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Weight of the game result in the target (0 to 1; the rest is the score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Starting learning rate (it falls along a cosine to 0.3^5 of it).
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// Positions per optimiser step (small enough that a few million positions
    /// make thousands of steps).
    #[arg(long, default_value_t = 2048)]
    batch_size: usize,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the starting weights and of the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Do not also train on each position reflected left to right.
    #[arg(long)]
    no_mirror: bool,
    /// Also write the loss curve here, as CSV (epoch, train, validation, lr, pos/s).
    #[arg(long)]
    log: Option<PathBuf>,
}

/// Arguments of `caissa engine datagen`.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// Directory for the data files.
    #[arg(long)]
    out: PathBuf,
    /// Games played at once, one per thread.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// No new search iteration after this many nodes (the hard limit is 8 times it).
    #[arg(long, default_value_t = 5000)]
    soft_nodes: u64,
    /// Stop after this many games.
    #[arg(long)]
    games: Option<u64>,
    /// Stop after this many hours.
    #[arg(long)]
    hours: Option<f64>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    eval: super::bench::EvalChoice,
}

/// Arguments of `caissa engine dump`.
#[derive(clap::Args)]
pub struct DumpArgs {
    /// A data file written by `caissa engine datagen`.
    file: PathBuf,
    /// Print at most this many records.
    #[arg(long)]
    limit: Option<usize>,
}

/// Runs a subcommand.
pub fn run(cmd: EngineCommand) -> anyhow::Result<()> {
    match cmd {
        EngineCommand::Datagen(args) => datagen_run(args),
        EngineCommand::Train(args) => train_run(args),
        EngineCommand::Dump(args) => {
            let records = datagen::read_records(&args.file)
                .with_context(|| format!("reading {}", args.file.display()))?;
            for r in records.iter().take(args.limit.unwrap_or(usize::MAX)) {
                println!("{}", r.to_text());
            }
            Ok(())
        }
    }
}

fn datagen_run(args: DatagenArgs) -> anyhow::Result<()> {
    if args.games.is_none() && args.hours.is_none() {
        bail!("say when to stop: --games N or --hours H");
    }
    if args.hours.is_some_and(|h| !(h > 0.0 && h.is_finite())) {
        bail!("--hours must be a positive number");
    }
    if !(100..=10_000_000).contains(&args.soft_nodes) {
        bail!("--soft-nodes must be 100 to 10,000,000");
    }
    if !(1..=256).contains(&args.threads) {
        bail!("--threads must be 1 to 256");
    }
    let options = Options {
        soft_nodes: args.soft_nodes,
        net: args.eval.network()?,
        ..Options::default()
    };
    match &options.net {
        Some(net) => eprintln!(
            "self-play with a net of {} hidden units, {} output buckets",
            net.hidden(),
            net.buckets()
        ),
        None => eprintln!("self-play with the hand-made evaluation"),
    }
    let progress = Progress::default();
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let start = Instant::now();
    let deadline = args.hours.map(|h| Duration::from_secs_f64(h * 3600.0));
    let report = |progress: &Progress| {
        let games = progress.games.load(Ordering::Relaxed);
        let positions = progress.positions.load(Ordering::Relaxed);
        let [w, d, l] = progress
            .results
            .each_ref()
            .map(|r| r.load(Ordering::Relaxed));
        let secs = start.elapsed().as_secs_f64().max(1e-3);
        eprintln!(
            "{:>6.0} s  {games} games  {positions} positions  {:.0} positions/s  +{w} ={d} -{l}  {:.0} plies a game",
            secs,
            positions as f64 / secs,
            progress.plies.load(Ordering::Relaxed) as f64 / games.max(1) as f64
        );
    };
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut last = Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if deadline.is_some_and(|d| start.elapsed() >= d) {
                    stop.store(true, Ordering::Relaxed);
                }
                if last.elapsed() >= Duration::from_secs(10) {
                    last = Instant::now();
                    report(&progress);
                }
            }
        });
        let result = datagen::run(
            &args.out,
            args.threads,
            args.games,
            args.seed,
            &options,
            &progress,
            &stop,
        );
        done.store(true, Ordering::Relaxed);
        result
    });
    report(&progress);
    result.with_context(|| format!("writing to {}", args.out.display()))
}

/// Every data file named: files as they are, directories' `*.bin` files by name.
fn data_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("reading {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "bin"))
                .collect();
            inside.sort();
            files.extend(inside);
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            bail!("{}: no such file or directory", path.display());
        }
    }
    Ok(files)
}

/// Says how far the quantised net's evaluations are from the float net's, on up
/// to 20,000 of the positions kept aside.
fn report_quantisation(
    net: &caissa_train::model::FloatNet,
    positions: &[caissa_train::record::Record],
) {
    use caissa_train::model::Features;
    let Some(quantised) = net.quantise() else {
        return;
    };
    let step = positions.len().div_ceil(20_000).max(1);
    let mut errors: Vec<f32> = positions
        .iter()
        .step_by(step)
        .filter_map(|r| {
            let pos = r.position()?;
            let float_cp = net.centipawns(&Features::of(r));
            Some((float_cp - quantised.evaluate_position(&pos) as f32).abs())
        })
        .collect();
    if errors.is_empty() {
        return;
    }
    errors.sort_by(f32::total_cmp);
    let mean = errors.iter().sum::<f32>() / errors.len() as f32;
    let p99 = errors[(errors.len() * 99 / 100).min(errors.len() - 1)];
    eprintln!(
        "quantised against float on {} positions kept aside: mean {mean:.2} cp, 99th percentile {p99:.1} cp, worst {:.1} cp",
        errors.len(),
        errors[errors.len() - 1]
    );
}

fn train_run(args: TrainArgs) -> anyhow::Result<()> {
    use caissa_train::model::FloatNet;
    use caissa_train::trainer::{self, Dataset, Options as TrainOptions};
    let init = match &args.init {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            let net = caissa_engine::nnue::Network::from_bytes(&bytes)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Some(FloatNet::dequantise(&net))
        }
        None => None,
    };
    let hidden = args
        .hidden
        .or(init.as_ref().map(|n| n.hidden))
        .unwrap_or(256);
    let buckets = args
        .buckets
        .or(init.as_ref().map(|n| n.buckets))
        .unwrap_or(8);
    if let Some(net) = &init {
        if (hidden, buckets) != (net.hidden, net.buckets) {
            bail!(
                "--init's net has {} hidden units and {} output buckets; --hidden and --buckets must agree or be left out",
                net.hidden,
                net.buckets
            );
        }
    }
    if hidden == 0 || !hidden.is_multiple_of(16) || hidden > caissa_engine::nnue::MAX_HIDDEN {
        bail!(
            "--hidden must be a multiple of 16 from 16 to {}",
            caissa_engine::nnue::MAX_HIDDEN
        );
    }
    if !(1..=caissa_engine::nnue::MAX_BUCKETS).contains(&buckets) {
        bail!(
            "--buckets must be from 1 to {}",
            caissa_engine::nnue::MAX_BUCKETS
        );
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be between 0 and 1");
    }
    if !(args.lr > 0.0 && args.lr < 1.0) {
        bail!("--lr must be between 0 and 1");
    }
    if args.epochs == 0 || args.batch_size == 0 || !(1..=256).contains(&args.threads) {
        bail!("--epochs and --batch-size must be positive, --threads 1 to 256");
    }
    let mut records = Vec::new();
    for file in data_files(&args.data)? {
        let mut r =
            datagen::read_records(&file).with_context(|| format!("reading {}", file.display()))?;
        eprintln!("{}: {} positions", file.display(), r.len());
        records.append(&mut r);
    }
    if records.is_empty() {
        bail!("no positions in the data");
    }
    let data = Dataset::split(records, !args.no_mirror);
    eprintln!(
        "training on {} positions, {} kept aside; hidden {}, {} output buckets, {} epochs, lambda {}, seed {}{}",
        data.train.len(),
        data.validation.len(),
        hidden,
        buckets,
        args.epochs,
        args.lambda,
        args.seed,
        match (&args.init, &init) {
            (Some(path), Some(net)) => format!(
                ", from {} (validation loss {:.6} before training)",
                path.display(),
                trainer::mean_loss(net, &data.validation, args.lambda)
            ),
            _ => String::new(),
        }
    );
    let options = TrainOptions {
        hidden,
        buckets,
        epochs: args.epochs,
        batch_size: args.batch_size,
        lr: args.lr,
        lr_end: args.lr * 0.3f32.powi(5),
        lambda: args.lambda,
        threads: args.threads,
        seed: args.seed,
        init,
        ..TrainOptions::default()
    };
    let mut log = match &args.log {
        Some(path) => {
            let mut f = std::fs::File::create(path)
                .with_context(|| format!("creating {}", path.display()))?;
            writeln!(
                f,
                "epoch,train_loss,validation_loss,lr,positions_per_second"
            )?;
            Some(f)
        }
        None => None,
    };
    let mut best = f64::INFINITY;
    let mut best_net = None;
    let mut failure: Option<anyhow::Error> = None;
    trainer::train(&data, &options, &mut |report, net| {
        eprintln!(
            "epoch {:>3}  train {:.6}  validation {:.6}  lr {:.2e}  {:.0} positions/s",
            report.epoch,
            report.train_loss,
            report.validation_loss,
            report.lr,
            report.positions_per_second
        );
        if let Some(f) = &mut log {
            let _ = writeln!(
                f,
                "{},{},{},{},{:.0}",
                report.epoch,
                report.train_loss,
                report.validation_loss,
                report.lr,
                report.positions_per_second
            );
        }
        // Without positions kept aside, the last epoch's net is written.
        let score = if report.validation_loss.is_nan() {
            -(report.epoch as f64)
        } else {
            report.validation_loss
        };
        if score < best && failure.is_none() {
            best = score;
            best_net = Some(net.clone());
            match net.quantise() {
                Some(q) => {
                    if let Err(e) = std::fs::write(&args.out, q.to_bytes()) {
                        failure = Some(
                            anyhow::Error::new(e)
                                .context(format!("writing {}", args.out.display())),
                        );
                    }
                }
                None => failure = Some(anyhow::anyhow!("the net cannot be quantised")),
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if let (Some(net), false) = (&best_net, data.validation.is_empty()) {
        report_quantisation(net, &data.validation);
    }
    if best.is_finite() && best >= 0.0 {
        eprintln!("wrote {} (validation loss {best:.6})", args.out.display());
    } else {
        eprintln!(
            "wrote {} (the last epoch's net: no positions were kept aside)",
            args.out.display()
        );
    }
    Ok(())
}
