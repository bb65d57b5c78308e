//! `caissa reports`: the operators' desk for what users reported (a user, or a
//! line they wrote in a game's chat), and `caissa user close` for an account
//! an operator closes.

use anyhow::Context;
use caissa_store::{Report, Store};

use crate::commands::admin::block_on;

/// `caissa reports`: lists the open reports, oldest first; `--all` lists
/// closed ones too.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// What to do; nothing lists the reports.
    #[command(subcommand)]
    command: Option<ReportCommand>,
    /// Closed reports too.
    #[arg(long)]
    all: bool,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    json: bool,
    /// Database URL.
    #[arg(long, default_value = "sqlite://caissa.db")]
    db: String,
}

/// What to do with reports.
#[derive(clap::Subcommand)]
enum ReportCommand {
    /// Mark a report as dealt with.
    Close {
        /// The report's number, as listed.
        id: i64,
        /// Database URL.
        #[arg(long, default_value = "sqlite://caissa.db")]
        db: String,
    },
}

/// The most reports listed at once.
const LISTED: i64 = 10_000;

/// Runs `caissa reports`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Some(ReportCommand::Close { id, db }) => block_on(async move {
            let store = open(&db).await?;
            if store.close_report(id, now()).await? {
                println!("closed report {id}");
                Ok(())
            } else {
                anyhow::bail!("no open report numbered {id}")
            }
        }),
        None => block_on(async move {
            let store = open(&args.db).await?;
            let reports = store.reports(!args.all, LISTED).await?;
            for report in &reports {
                let line = Line::of(&store, report).await?;
                if args.json {
                    println!("{}", line.json());
                } else {
                    println!("{}", line.text());
                }
            }
            if !args.json {
                let open = reports.iter().filter(|r| r.closed_at.is_none()).count();
                eprintln!("{open} open report(s)");
            }
            Ok(())
        }),
    }
}

/// Closes an account as an operator: it can no longer sign in, its sessions,
/// tokens and waiting challenges go (a running server stops accepting its
/// tokens within a minute); its games being played are lost on time.
pub fn close_account(name: &str, db: &str) -> anyhow::Result<()> {
    block_on(async {
        let store = open(db).await?;
        let user = store
            .user_by_name(name)
            .await?
            .with_context(|| format!("no user named {name:?}"))?;
        if store.close_account(user.id, now()).await? {
            println!("closed the account of {}", user.name);
        } else {
            println!("the account of {} was closed already", user.name);
        }
        Ok(())
    })
}

async fn open(db: &str) -> anyhow::Result<Store> {
    Store::open(db)
        .await
        .with_context(|| format!("opening {db}"))
}

fn now() -> i64 {
    caissa_server::now_ms() as i64
}

/// A report with its users' names.
struct Line<'a> {
    report: &'a Report,
    reporter: String,
    suspect: String,
}

impl<'a> Line<'a> {
    async fn of(store: &Store, report: &'a Report) -> anyhow::Result<Line<'a>> {
        let name = |user: Option<caissa_store::User>, id: i64| {
            user.map_or_else(|| format!("#{id}"), |u| u.name)
        };
        Ok(Line {
            report,
            reporter: name(
                store.user_by_id(report.reporter_id).await?,
                report.reporter_id,
            ),
            suspect: name(
                store.user_by_id(report.suspect_id).await?,
                report.suspect_id,
            ),
        })
    }

    /// One line: number, time (UTC), who reported whom, why, where, what.
    fn text(&self) -> String {
        let r = self.report;
        let closed = if r.closed_at.is_some() {
            " (closed)"
        } else {
            ""
        };
        let game = r
            .game_id
            .as_deref()
            .map_or(String::new(), |g| format!(" in game {g}"));
        format!(
            "#{} {} {} reports {} for {}{game}{closed}: {}",
            r.id,
            utc(r.created_at),
            self.reporter,
            self.suspect,
            r.reason,
            r.text
        )
    }

    fn json(&self) -> serde_json::Value {
        let r = self.report;
        serde_json::json!({
            "id": r.id,
            "createdAt": r.created_at,
            "reporter": self.reporter,
            "suspect": self.suspect,
            "reason": r.reason,
            "text": r.text,
            "gameId": r.game_id,
            "closedAt": r.closed_at,
        })
    }
}

/// A moment as `YYYY-MM-DD HH:MM UTC`.
fn utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (y, m, d) = caissa_server::domain::civil_date(secs.div_euclid(86_400));
    let minute = secs.rem_euclid(86_400) / 60;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        minute / 60,
        minute % 60
    )
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn a_report_time_is_written_in_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        // 2026-12-05 12:40:19 UTC.
        assert_eq!(utc(1_796_474_419_000), "2026-12-05 12:40 UTC");
    }
}
