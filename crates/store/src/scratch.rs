//! Scratch databases, for tests that run on either backend: a fresh SQLite file
//! in the temporary folder, or a fresh database on the PostgreSQL server named
//! by `CAISSA_TEST_POSTGRES` (e.g. `postgres://caissa@127.0.0.1/postgres`,
//! which `scripts/test.sh` starts and sets). Tests are named by the backend
//! they ask for; where the variable is not set, a PostgreSQL test says so and
//! passes without running (`scripts/test.sh` always sets it).

use sqlx::{Connection, PgConnection};

use crate::StoreError;

/// The environment variable naming the PostgreSQL server for tests.
pub const POSTGRES_VAR: &str = "CAISSA_TEST_POSTGRES";

fn sqlite_dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("caissa-{name}-{}", std::process::id()))
}

/// The URL of a fresh SQLite file for `name` (a folder of its own, emptied).
pub fn sqlite_url(name: &str) -> String {
    let dir = sqlite_dir(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder in the temporary folder");
    sqlite_existing_url(name)
}

/// The URL [`sqlite_url`] gave for `name`, without emptying anything.
pub fn sqlite_existing_url(name: &str) -> String {
    format!("sqlite://{}", sqlite_dir(name).join("caissa.db").display())
}

/// The URL [`postgres_url`] gives for `name`, without making the database;
/// `None` when `CAISSA_TEST_POSTGRES` names no server.
pub fn postgres_database_url(name: &str) -> Option<String> {
    let base = std::env::var(POSTGRES_VAR).ok()?;
    Some(with_database(&base, &database_name(name)))
}

/// The database for `name`: letters, digits and `_`, within PostgreSQL's 63
/// characters (a long name cut short, and told apart by a hash of all of it).
fn database_name(name: &str) -> String {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let readable: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(32)
        .collect();
    format!(
        "caissa_{}_{readable}_{:08x}",
        std::process::id(),
        hash as u32
    )
}

/// The URL of a fresh, empty PostgreSQL database for `name` on the server
/// `CAISSA_TEST_POSTGRES` names, or `None` when it names none.
pub async fn postgres_url(name: &str) -> Result<Option<String>, StoreError> {
    let Ok(base) = std::env::var(POSTGRES_VAR) else {
        eprintln!("{POSTGRES_VAR} is not set: the PostgreSQL test {name} did not run");
        return Ok(None);
    };
    let database = database_name(name);
    let mut admin = PgConnection::connect(&base).await?;
    sqlx::query(&format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)"))
        .execute(&mut admin)
        .await?;
    sqlx::query(&format!("CREATE DATABASE {database}"))
        .execute(&mut admin)
        .await?;
    admin.close().await?;
    Ok(Some(with_database(&base, &database)))
}

/// `url` with its database replaced by `database` (query string kept).
fn with_database(url: &str, database: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((head, query)) => (head, Some(query)),
        None => (url, None),
    };
    // After the scheme's `//`, the first `/` starts the database name.
    let authority_start = head.find("//").map_or(0, |i| i + 2);
    let base = match head[authority_start..].find('/') {
        Some(i) => &head[..authority_start + i],
        None => head,
    };
    match query {
        Some(query) => format!("{base}/{database}?{query}"),
        None => format!("{base}/{database}"),
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_is_replaced_and_the_rest_kept() {
        assert_eq!(
            with_database("postgres://u:p@h:5432/postgres?sslmode=disable", "t1"),
            "postgres://u:p@h:5432/t1?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "t1"), "postgres://h/t1");
    }
}
