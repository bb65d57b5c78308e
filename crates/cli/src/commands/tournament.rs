//! `caissa tournament`: the organiser's tools on TRF16 files — pair the next round,
//! print standings, check a played tournament against its pairing system, and
//! convert between TRF and JSON.
//!
//! Bad input exits with status 2 and one line on stderr: `LINE:COLUMN: reason` for
//! a file that cannot be read, `FILE: reason` for one that can but does not say
//! enough (no `XXR` for the Dutch system, for example).

use caissa_tournament::model::Tournament;
use caissa_tournament::tiebreak::Tiebreak;
use caissa_tournament::{dutch, round_robin, standings, trf, Pairing, PairingError};
use clap::{Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The organiser's commands.
#[derive(Subcommand)]
pub enum TournamentCommand {
    /// Pair the next round and print it as pairing programs do: the number of
    /// lines that follow, then `WHITE BLACK` per board, the bye as `N 0`.
    Pair {
        /// The tournament so far (TRF16; `XXR` gives the number of rounds).
        file: PathBuf,
        /// The pairing system.
        #[arg(long, value_enum, default_value = "dutch")]
        system: System,
    },
    /// Print the standings with tiebreaks.
    Standings {
        /// The tournament (TRF16).
        file: PathBuf,
        /// Tiebreaks in order, by their FIDE C.07 codes (BH-C1,SB,DE ...).
        #[arg(long, value_delimiter = ',')]
        tiebreaks: Vec<String>,
        /// Print JSON: `[{rank, startRank, name, points, tiebreaks: {CODE: value}}]`.
        #[arg(long)]
        json: bool,
    },
    /// FIDE Elo changes of a rated event (rated games over the board only).
    Ratings {
        /// The tournament (TRF16).
        file: PathBuf,
        /// K factor for every player (the TRF does not carry it).
        #[arg(long, default_value_t = standings::DEFAULT_K_FACTOR)]
        k: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check every round of a played tournament against the pairing system and
    /// name the first round that differs, and how.
    Check {
        /// The tournament (TRF16).
        file: PathBuf,
        /// The pairing system.
        #[arg(long, value_enum, default_value = "dutch")]
        system: System,
    },
    /// Convert TRF16 to JSON, or JSON (as this command writes it) back to TRF16.
    Trf {
        /// The file to convert; its format is recognised from its content.
        file: PathBuf,
    },
    /// Print a tournament the server ran (or runs): its record as JSON, or with
    /// `--trf` its TRF16 file for a rating report.
    Export {
        /// The tournament's id.
        id: String,
        /// Print TRF16 instead of JSON.
        #[arg(long)]
        trf: bool,
        /// Database URL.
        #[arg(long, default_value = "sqlite://caissa.db")]
        db: String,
    },
}

/// A pairing system.
#[derive(Copy, Clone, ValueEnum)]
pub enum System {
    /// FIDE (Dutch) Swiss system, C.04.3.
    Dutch,
    /// Round robin by the FIDE Berger tables.
    RoundRobin,
    /// Double round robin (two cycles, colours reversed in the second).
    DoubleRoundRobin,
}

/// An error and the exit status it gets.
struct Failure {
    status: u8,
    message: String,
}

fn bad_input(message: String) -> Failure {
    Failure { status: 2, message }
}

/// Runs a tournament command.
pub fn run(command: TournamentCommand) -> ExitCode {
    let result = match command {
        TournamentCommand::Pair { file, system } => pair(&file, system),
        TournamentCommand::Standings {
            file,
            tiebreaks,
            json,
        } => print_standings(&file, &tiebreaks, json),
        TournamentCommand::Ratings { file, k, json } => ratings(&file, k, json),
        TournamentCommand::Check { file, system } => check(&file, system),
        TournamentCommand::Trf { file } => convert(&file),
        TournamentCommand::Export { id, trf, db } => export(&id, trf, &db),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}

/// Writes to stdout; a reader that went away (`| head`) is not an error.
fn emit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn read(file: &Path) -> Result<String, Failure> {
    std::fs::read(file)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|e| Failure {
            status: 2,
            message: format!("{}: {e}", file.display()),
        })
}

fn load(file: &Path) -> Result<Tournament, Failure> {
    trf::parse(&read(file)?).map_err(|e| bad_input(e.to_string()))
}

fn pair_with(t: &Tournament, system: System) -> Result<Pairing, PairingError> {
    match system {
        System::Dutch => dutch::pair(t),
        System::RoundRobin => round_robin::pair(t, false),
        System::DoubleRoundRobin => round_robin::pair(t, true),
    }
}

fn pairing_failure(file: &Path, error: PairingError) -> Failure {
    let status = match error {
        // A valid file whose round has no legal pairing, as pairing programs report it.
        PairingError::Impossible(_) => 1,
        _ => 2,
    };
    Failure {
        status,
        message: format!("{}: {error}", file.display()),
    }
}

fn pair(file: &Path, system: System) -> Result<(), Failure> {
    let t = load(file)?;
    let pairing = pair_with(&t, system).map_err(|e| pairing_failure(file, e))?;
    emit(&pairing.to_program_output());
    Ok(())
}

fn print_standings(file: &Path, codes: &[String], json: bool) -> Result<(), Failure> {
    let t = load(file)?;
    let tiebreaks = codes
        .iter()
        .filter(|c| !c.trim().is_empty())
        .map(|c| c.trim().parse::<Tiebreak>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad_input(format!("--tiebreaks: {e}")))?;
    let table = standings::standings(&t, &tiebreaks);
    if json {
        let text = serde_json::to_string_pretty(&table).map_err(|e| Failure {
            status: 1,
            message: e.to_string(),
        })?;
        emit(&format!("{text}\n"));
    } else {
        emit(&standings::render_text(&table, &tiebreaks));
    }
    Ok(())
}

fn ratings(file: &Path, k: f64, json: bool) -> Result<(), Failure> {
    if !(k > 0.0 && k <= 100.0) {
        return Err(bad_input(format!("--k must be between 0 and 100, not {k}")));
    }
    let t = load(file)?;
    let changes = standings::rating_changes(&t, |_| k);
    if json {
        let rows: Vec<serde_json::Value> = changes.iter().map(|c| c.report_json()).collect();
        emit(&format!("{}\n", serde_json::Value::Array(rows)));
        return Ok(());
    }
    let mut out =
        String::from("SNo  Name                            Rtg  Games  Score    Exp   Change\n");
    for c in &changes {
        let name = t.player(c.start_rank).map_or("", |p| p.name.as_str());
        let change = c
            .change
            .map_or("unrated".to_string(), |d| format!("{d:+.1}"));
        out.push_str(&format!(
            "{:>3}  {:<30} {:>4}  {:>5}  {:>5.1}  {:>5.2}  {:>7}\n",
            c.start_rank, name, c.rating, c.games, c.score, c.expected, change
        ));
    }
    emit(&out);
    Ok(())
}

fn check(file: &Path, system: System) -> Result<(), Failure> {
    let mut t = load(file)?;
    let rounds = t.rounds_played();
    if t.total_rounds.is_none() && matches!(system, System::Dutch) {
        // A finished tournament need not say how many rounds it had; one that
        // is not finished must, since the last round is paired differently.
        t.total_rounds = Some(rounds as u32);
        emit(&format!(
            "no XXR line: taking the {rounds} rounds in the file as the whole tournament\n"
        ));
    }
    for round in 1..=rounds {
        let before = t.before_round(round);
        let recorded = t.pairing_of(round);
        let computed = pair_with(&before, system).map_err(|e| Failure {
            status: 1,
            message: format!("{}: round {round}: {e}", file.display()),
        })?;
        if let Some(difference) = recorded.difference(&computed) {
            emit(&format!("round {round}: {difference}\n"));
            return Err(Failure {
                status: 1,
                message: format!(
                    "{}: round {round} is not paired as the system pairs it",
                    file.display()
                ),
            });
        }
    }
    emit(&format!(
        "all {rounds} rounds are paired as the system pairs them\n"
    ));
    Ok(())
}

fn convert(file: &Path) -> Result<(), Failure> {
    let text = read(file)?;
    if text.trim_start().starts_with('{') {
        let t: Tournament = serde_json::from_str(&text).map_err(|e| {
            let message = e.to_string();
            let reason = message.split(" at line ").next().unwrap_or(&message);
            bad_input(format!("{}:{}: {reason}", e.line(), e.column()))
        })?;
        emit(&trf::write(&t));
    } else {
        let t = trf::parse(&text).map_err(|e| bad_input(e.to_string()))?;
        let json = serde_json::to_string_pretty(&t).map_err(|e| Failure {
            status: 1,
            message: e.to_string(),
        })?;
        emit(&format!("{json}\n"));
    }
    Ok(())
}

/// A stored tournament, as JSON or TRF16.
fn export(id: &str, as_trf: bool, db: &str) -> Result<(), Failure> {
    let failed = |message: String| Failure { status: 2, message };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| failed(e.to_string()))?;
    let stored = runtime
        .block_on(async {
            let store = caissa_store::Store::open(db).await?;
            store.tournament(id).await
        })
        .map_err(|e| failed(format!("{db}: {e}")))?
        .ok_or_else(|| failed(format!("{db}: no tournament {id}")))?;
    let record: caissa_server::domain::tournament::Record = serde_json::from_str(&stored.data)
        .map_err(|e| failed(format!("tournament {id} cannot be read: {e}")))?;
    if as_trf {
        emit(&record.trf());
    } else {
        let json = serde_json::to_string_pretty(&record).map_err(|e| failed(e.to_string()))?;
        emit(&format!("{json}\n"));
    }
    Ok(())
}
