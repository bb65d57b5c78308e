//! `caissa`: the command-line entry point of the Caissa chess platform.

mod commands;

use std::process::ExitCode;

/// mimalloc instead of the system allocator: the server allocates and frees small
/// buffers for every move, and argon2's 19 MiB per password check must go back to
/// the system once done, not stay resident (glibc keeps freed large blocks in its
/// arenas once its mmap threshold has grown).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};

/// Caissa: a self-hostable chess platform.
///
/// Without a command it runs the server (`caissa serve` with its defaults: the web
/// app and API on http://127.0.0.1:8080, games in ./caissa.db). Each command has its
/// own `--help`.
#[derive(Parser)]
#[command(name = "caissa", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator test).
    Perft(commands::perft::Args),
    /// List every legal move of a position.
    Moves(commands::moves::Args),
    /// Play a sequence of moves and print the resulting game state as JSON.
    Replay(commands::replay::Args),
    /// Check every game of a PGN file (one JSON line per game), or rewrite it cleanly.
    Pgn(commands::pgn::Args),
    /// Run the server (HTTP API compatible with the lichess Board API).
    Serve(commands::serve::Args),
    /// Play many concurrent games against a server (in-process by default) and report
    /// moves/s, round trips, memory per game and errors.
    Loadtest(caissa_loadtest::Args),
    /// Run the chess engine, speaking UCI on stdin/stdout (for chess GUIs).
    Uci(commands::uci::Args),
    /// The engine's signature: fixed positions searched to a fixed depth (one
    /// thread, 16 MB hash); the last line is `NODES nodes NPS nps`.
    Bench(commands::bench::Args),
    /// Make the engine's network: self-play data, and training on it.
    #[command(subcommand)]
    Engine(commands::engine::EngineCommand),
    /// Play a match between two engines (UCI or xboard) and report W/D/L, Elo
    /// difference, LOS and optionally an SPRT decision.
    Match(Box<commands::matches::Args>),
    /// Manage accounts.
    #[command(subcommand)]
    User(commands::admin::UserCommand),
    /// The reports users sent to the operators: list them, close them.
    Reports(commands::reports::Args),
    /// Make puzzles from games; import and export the lichess puzzle CSV.
    Puzzles(commands::puzzles::Args),
    /// Manage API tokens.
    #[command(subcommand)]
    Token(commands::admin::TokenCommand),
    /// Database tools: a consistent backup of a running installation.
    #[command(subcommand)]
    Db(commands::db::DbCommand),
    /// Organisers' tools on TRF files: pair a round (Dutch Swiss, round robin),
    /// standings with FIDE tiebreaks, check a tournament, convert TRF and JSON.
    #[command(subcommand)]
    Tournament(commands::tournament::TournamentCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => commands::serve::run(commands::serve::Args::from_env()),
        Some(Command::Perft(args)) => commands::perft::run(args),
        Some(Command::Moves(args)) => commands::moves::run(args),
        Some(Command::Replay(args)) => commands::replay::run(args),
        Some(Command::Pgn(args)) => commands::pgn::run(args),
        Some(Command::Serve(args)) => commands::serve::run(args),
        Some(Command::Loadtest(args)) => caissa_loadtest::run(args),
        Some(Command::Uci(args)) => commands::uci::run(args),
        Some(Command::Bench(args)) => commands::bench::run(args),
        Some(Command::Engine(cmd)) => commands::engine::run(cmd),
        Some(Command::Match(args)) => commands::matches::run(*args),
        Some(Command::User(cmd)) => commands::admin::user(cmd),
        Some(Command::Token(cmd)) => commands::admin::token(cmd),
        Some(Command::Reports(args)) => commands::reports::run(args),
        Some(Command::Puzzles(args)) => commands::puzzles::run(args),
        Some(Command::Db(cmd)) => commands::db::db(cmd),
        // Exit statuses of their own (2 for bad input), as pairing programs have.
        Some(Command::Tournament(cmd)) => return commands::tournament::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
