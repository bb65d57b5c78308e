//! `caissa match`: a match between two engines (UCI, or xboard), reported as W/D/L,
//! Elo difference with its 95 % margin, LOS and optionally an SPRT decision.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use caissa_arena::openings;
use caissa_arena::runner::{run_match, MatchConfig, MatchEvent};
use caissa_arena::{
    AdjudicationConfig, DrawRule, EngineConfig, GameSettings, Protocol, ResignRule, Sprt,
    TimeControl,
};

/// Arguments of `caissa match`.
///
/// Example: `caissa match --engine1 "target/release/caissa uci" --engine2 stockfish
/// --option2 UCI_LimitStrength=true --option2 UCI_Elo=1350 --games 100 --tc 10+0.1
/// --concurrency 2 --pgn games.pgn --sprt elo0=0,elo1=10`
#[derive(clap::Args)]
pub struct Args {
    /// The first engine's command line (program and arguments, shell-style quoting).
    /// Results are given from its point of view.
    #[arg(long, value_name = "COMMAND")]
    engine1: String,
    /// The second engine's command line.
    #[arg(long, value_name = "COMMAND")]
    engine2: String,
    /// An option for the first engine, `Name=Value` (repeatable).
    #[arg(long = "option1", value_name = "NAME=VALUE")]
    option1: Vec<String>,
    /// An option for the second engine, `Name=Value` (repeatable).
    #[arg(long = "option2", value_name = "NAME=VALUE")]
    option2: Vec<String>,
    /// The first engine's name (default: the name it gives itself).
    #[arg(long)]
    name1: Option<String>,
    /// The second engine's name.
    #[arg(long)]
    name2: Option<String>,
    /// The first engine's protocol: `uci` or `xboard`.
    #[arg(long, default_value = "uci", value_parser = ["uci", "xboard"])]
    proto1: String,
    /// The second engine's protocol: `uci` or `xboard`.
    #[arg(long, default_value = "uci", value_parser = ["uci", "xboard"])]
    proto2: String,
    /// Time control, `[moves/]seconds[+increment]`: `10+0.1`, `60`, `40/120+1`.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Milliseconds an engine may exceed its clock by before it loses on time
    /// (process and pipe overhead).
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// Games to play (rounded up to an even number: each opening is played twice,
    /// colours swapped).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Games played at the same time (each with its own engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    concurrency: u16,
    /// Opening suite: an EPD (or FEN) file, one position per line (default: the
    /// balanced suite shipped with Caissa).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Shuffle the openings with this seed (default: the suite's order).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the games to this PGN file (created or truncated).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Stop as soon as a sequential test decides, e.g.
    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05`.
    #[arg(long, value_name = "PARAMS")]
    sprt: Option<String>,
    /// Resign adjudication: both engines' scores beyond `score` cp, for the same side,
    /// for `movecount` moves each.
    #[arg(long, default_value = "movecount=4,score=1000", value_name = "PARAMS")]
    resign: String,
    /// Draw adjudication: from move `movenumber`, both engines' scores within `score`
    /// cp of zero for `movecount` moves each.
    #[arg(
        long,
        default_value = "movenumber=40,movecount=8,score=10",
        value_name = "PARAMS"
    )]
    draw: String,
    /// Draw the game once this many moves are played (0: no limit).
    #[arg(long, default_value_t = 200)]
    maxmoves: u32,
    /// No adjudication at all: games end by the rules only (and the move limit).
    #[arg(long)]
    no_adjudication: bool,
    /// Do not adjudicate on mate scores.
    #[arg(long)]
    no_mate_adjudication: bool,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "Caissa arena match")]
    event: String,
    /// The PGN `Site` tag.
    #[arg(long, default_value = "?")]
    site: String,
    /// Print nothing while the match runs (only the final summary).
    #[arg(long)]
    quiet: bool,
    /// Echo the conversation with the engines on stderr.
    #[arg(long)]
    debug: bool,
}

fn options(list: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    list.iter()
        .map(|o| {
            let (name, value) = o
                .split_once('=')
                .with_context(|| format!("option {o:?} is not Name=Value"))?;
            Ok((name.trim().to_string(), value.trim().to_string()))
        })
        .collect()
}

fn engine(
    command: &str,
    option_list: &[String],
    name: &Option<String>,
    protocol: &str,
    debug: bool,
) -> anyhow::Result<EngineConfig> {
    let mut config = EngineConfig::from_command_line(command)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("engine command {command:?}"))?;
    config.options = options(option_list)?;
    config.name.clone_from(name);
    config.protocol = if protocol == "xboard" {
        Protocol::Xboard
    } else {
        Protocol::Uci
    };
    config.debug = debug;
    Ok(config)
}

/// Plays the match; the summary goes to stdout, its last line JSON. Fails (after the
/// summary) if the match could not be completed.
pub fn run(args: Args) -> anyhow::Result<()> {
    let time_control: TimeControl = args
        .tc
        .parse()
        .map_err(anyhow::Error::msg)
        .context("--tc")?;
    let adjudication = if args.no_adjudication {
        AdjudicationConfig {
            max_moves: (args.maxmoves > 0).then_some(args.maxmoves),
            ..AdjudicationConfig::none()
        }
    } else {
        AdjudicationConfig {
            resign: Some(
                ResignRule::parse(&args.resign)
                    .map_err(anyhow::Error::msg)
                    .context("--resign")?,
            ),
            draw: Some(
                DrawRule::parse(&args.draw)
                    .map_err(anyhow::Error::msg)
                    .context("--draw")?,
            ),
            mate: !args.no_mate_adjudication,
            max_moves: (args.maxmoves > 0).then_some(args.maxmoves),
        }
    };
    let suite = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            openings::parse_epd(&text)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("{}", path.display()))?
        }
        None => openings::balanced(),
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(anyhow::Error::msg)
        .context("--sprt")?;
    let config = MatchConfig {
        engines: [
            engine(
                &args.engine1,
                &args.option1,
                &args.name1,
                &args.proto1,
                args.debug,
            )?,
            engine(
                &args.engine2,
                &args.option2,
                &args.name2,
                &args.proto2,
                args.debug,
            )?,
        ],
        settings: GameSettings {
            time_control,
            margin: Duration::from_millis(args.margin),
            adjudication,
        },
        games: args.games,
        concurrency: usize::from(args.concurrency),
        openings: suite,
        seed: args.seed,
        pgn: args.pgn.clone(),
        sprt,
        event: args.event.clone(),
        site: args.site.clone(),
    };
    let openings_count = config.openings.len();
    let quiet = args.quiet;
    let report = run_match(&config, &mut |event| match event {
        MatchEvent::Started { names, games } => {
            if !quiet {
                eprintln!(
                    "{} vs {}: {games} games at {time_control}, {openings_count} openings, concurrency {}",
                    names[0], names[1], config.concurrency
                );
            }
        }
        MatchEvent::Warning(text) => eprintln!("warning: {text}"),
        MatchEvent::Game(progress) => {
            if !quiet {
                eprintln!("{}", progress.line());
            }
        }
    })
    .map_err(anyhow::Error::msg)?;
    print!("{}", report.summary());
    println!("{}", report.json());
    if !report.errors.is_empty() {
        bail!("the match stopped early: {}", report.errors.join("; "));
    }
    Ok(())
}
