//! Online backup of a SQLite installation. `VACUUM INTO` writes the database as
//! one read transaction sees it, so a running server goes on writing meanwhile
//! and the copy is consistent: every game's log is a prefix of what was
//! acknowledged, never half a commit. The copy is written beside the target and
//! renamed into place only once SQLite has checked it, so the target is either a
//! whole, checked backup or not there.

use std::path::Path;
use std::str::FromStr;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Connection, Row, SqliteConnection, SqlitePool};

use crate::model::Backup;
use crate::StoreError;

/// Writes a consistent copy of the database to `target`, which must not exist
/// yet, while others go on reading and writing.
pub(super) async fn backup_to(pool: &SqlitePool, target: &Path) -> Result<Backup, StoreError> {
    let refused = |reason: String| StoreError::Backup {
        path: target.display().to_string(),
        reason,
    };
    if target.exists() {
        return Err(refused("the file already exists".into()));
    }
    let name = target
        .file_name()
        .ok_or_else(|| refused("not a file name".into()))?;
    let partial = target.with_file_name(format!("{}.partial", name.to_string_lossy()));
    let _ = std::fs::remove_file(&partial);
    let text = partial
        .to_str()
        .ok_or_else(|| refused("the path is not valid UTF-8".into()))?;
    let written = sqlx::query("VACUUM INTO ?").bind(text).execute(pool).await;
    if let Err(e) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(refused(e.to_string()));
    }
    let checked = check(&partial).await;
    let rows = match checked {
        Ok(rows) => rows,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, target).map_err(|e| refused(e.to_string()))?;
    let bytes = std::fs::metadata(target)
        .map_err(|e| refused(e.to_string()))?
        .len();
    Ok(Backup {
        path: target.to_path_buf(),
        bytes,
        rows,
    })
}

/// Opens the copy read-only, has SQLite check it, and counts each table's rows.
async fn check(copy: &Path) -> Result<Vec<(String, i64)>, StoreError> {
    let refused = |reason: String| StoreError::Backup {
        path: copy.display().to_string(),
        reason,
    };
    let options =
        SqliteConnectOptions::from_str(&format!("sqlite://{}", copy.display()))?.read_only(true);
    let mut conn = SqliteConnection::connect_with(&options).await?;
    let verdict: String = sqlx::query("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await?
        .try_get(0)?;
    if verdict != "ok" {
        return Err(refused(format!(
            "SQLite's integrity check says {verdict:?}"
        )));
    }
    let tables: Vec<String> = sqlx::query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await?
    .iter()
    .map(|row| row.try_get(0))
    .collect::<Result<_, _>>()?;
    let mut rows = Vec::with_capacity(tables.len());
    for table in tables {
        // The name comes from SQLite's own catalogue; quoted as an identifier.
        let quoted = format!("\"{}\"", table.replace('"', "\"\""));
        let count: i64 = sqlx::query(&format!("SELECT COUNT(*) FROM {quoted}"))
            .fetch_one(&mut conn)
            .await?
            .try_get(0)?;
        rows.push((table, count));
    }
    conn.close().await?;
    Ok(rows)
}
