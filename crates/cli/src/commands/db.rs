//! `caissa db backup` and `caissa db migrate`: an installation's database,
//! copied while it runs (SQLite) or moved to another backend.

use anyhow::Context;
use caissa_store::Store;

use caissa_server::serve::redacted;

use super::admin::block_on;

/// Database commands.
#[derive(clap::Subcommand)]
pub enum DbCommand {
    /// Write a consistent copy of the database to FILE (which must not exist) while
    /// the server goes on running: every game as it stood at one moment, checked
    /// by SQLite before it is put in place. For PostgreSQL, use `pg_dump`.
    Backup {
        /// Where to write the copy.
        file: std::path::PathBuf,
        /// Database URL.
        #[arg(long, default_value = "sqlite://caissa.db")]
        db: String,
    },
    /// Copy a whole installation to another database (accounts, tokens, sessions,
    /// games with every event, ratings and their history, ladder, chat,
    /// challenges, arbiters, tournaments), then check that every table holds the
    /// same rows on both sides (counts and checksums). Rows already there are
    /// kept, so a second run copies nothing. Stop the server first (a SQLite
    /// source in use is refused), or migrate from a backup.
    Migrate {
        /// The installation to copy: sqlite://<path> or postgres://...
        #[arg(long)]
        from: String,
        /// Where to copy it: an empty database (postgres://... must exist; a
        /// sqlite:// file is created), or one holding an earlier copy.
        #[arg(long)]
        to: String,
    },
}

/// Runs a database command.
pub fn db(cmd: DbCommand) -> anyhow::Result<()> {
    match cmd {
        DbCommand::Backup { file, db } => backup(&file, &db),
        DbCommand::Migrate { from, to } => migrate(&from, &to),
    }
}

fn backup(file: &std::path::Path, db: &str) -> anyhow::Result<()> {
    let Some(path) = caissa_store::sqlite_path(db) else {
        anyhow::bail!(
            "cannot back up {}: caissa db backup copies sqlite:// databases; for PostgreSQL use pg_dump",
            redacted(db)
        );
    };
    if !std::path::Path::new(path).exists() {
        anyhow::bail!("cannot back up {db}: there is no database at {path}");
    }
    block_on(async {
        let store = Store::open(db)
            .await
            .with_context(|| format!("opening {db}"))?;
        let backup = store.backup_to(file).await?;
        let rows: Vec<String> = backup
            .rows
            .iter()
            .filter(|(table, _)| !table.starts_with('_'))
            .map(|(table, n)| format!("{table} {n}"))
            .collect();
        println!(
            "backed up {db} to {} ({} bytes, checked): {}",
            backup.path.display(),
            backup.bytes,
            rows.join(", ")
        );
        Ok(())
    })
}

fn migrate(from: &str, to: &str) -> anyhow::Result<()> {
    let (shown_from, shown_to) = (redacted(from), redacted(to));
    if from == to {
        anyhow::bail!("--from and --to are the same database ({shown_from})");
    }
    for url in [from, to] {
        if caissa_store::sqlite_path(url).is_none() && !caissa_store::is_postgres(url) {
            anyhow::bail!(
                "unsupported database URL {}: expected sqlite://<path> or postgres://...",
                redacted(url)
            );
        }
    }
    if let Some(path) = caissa_store::sqlite_path(from) {
        if !std::path::Path::new(path).exists() {
            anyhow::bail!("cannot migrate from {from}: there is no database at {path}");
        }
    }
    // A server writing to either side would make the copy differ from what it
    // copied: SQLite files are locked as the server locks them.
    let _locks = [from, to]
        .iter()
        .map(|url| caissa_server::lock_database(url))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    block_on(async {
        let source = Store::open(from)
            .await
            .with_context(|| format!("opening {shown_from}"))?;
        let target = Store::open(to)
            .await
            .with_context(|| format!("opening {shown_to}"))?;
        for (store, url) in [(&source, &shown_from), (&target, &shown_to)] {
            if !store.claim_exclusive().await? {
                anyhow::bail!("a caissa server is using {url}: stop it first");
            }
        }
        eprintln!("copying {shown_from} to {shown_to}");
        let copied = source
            .copy_to(&target, |t| {
                eprintln!(
                    "  {:<15} {:>9} rows, {:>9} new, checked (checksum {:032x})",
                    t.table, t.rows, t.new, t.checksum
                );
            })
            .await
            .with_context(|| format!("copying {shown_from} to {shown_to}"))?;
        let rows: u64 = copied.tables.iter().map(|t| t.rows).sum();
        println!(
            "migrated {shown_from} to {shown_to}: {rows} rows in {} tables, {} new; every table has the same rows on both sides",
            copied.tables.len(),
            copied.new_rows()
        );
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_password_in_a_url_is_never_printed() {
        use caissa_server::serve::redacted;
        assert_eq!(
            redacted("postgres://caissa:secret@db:5432/caissa"),
            "postgres://caissa:***@db:5432/caissa"
        );
        assert_eq!(redacted("postgres://db/caissa"), "postgres://db/caissa");
        assert_eq!(redacted("sqlite://caissa.db"), "sqlite://caissa.db");
    }
}
