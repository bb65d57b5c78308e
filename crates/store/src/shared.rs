//! The SQL both backends share: SQLite and PostgreSQL both take `$N`
//! parameters, `ON CONFLICT`, `RETURNING`, `TRUE` and row values, so accounts,
//! ratings, tournaments, challenges, chat and reading games back are written
//! once here and expanded for each backend's own pool and row types (the macro
//! only stamps the same code out twice; every query is checked against each).
//! What differs — where moves are made durable, copying and backups — each
//! backend writes itself.

mod people;
mod records;
mod standings;

pub(crate) use people::shared_people;
pub(crate) use records::shared_records;
pub(crate) use standings::shared_standings;

/// Implements [`People`](crate::backend::People),
/// [`Records`](crate::backend::Records) and
/// [`Standings`](crate::backend::Standings) for a backend with a `pool` field.
macro_rules! shared_sql {
    ($store:ty, $row:ty) => {
        fn user_from(row: &$row) -> Result<$crate::User, sqlx::Error> {
            use sqlx::Row;
            Ok($crate::User {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
                password_hash: row.try_get("password_hash")?,
                created_at: row.try_get("created_at")?,
                title: row.try_get("title")?,
                closed_at: row.try_get("closed_at")?,
            })
        }

        fn rating_from(row: &$row) -> Result<$crate::StoredRating, sqlx::Error> {
            use sqlx::Row;
            Ok($crate::StoredRating {
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
                games: row.try_get("games")?,
                last_played: row.try_get("last_played")?,
            })
        }

        fn tournament_from(row: &$row) -> Result<$crate::StoredTournament, sqlx::Error> {
            use sqlx::Row;
            Ok($crate::StoredTournament {
                id: row.try_get("id")?,
                status: row.try_get("status")?,
                created_by: row.try_get("created_by")?,
                created_at: row.try_get("created_at")?,
                starts_at: row.try_get("starts_at")?,
                data: row.try_get("data")?,
            })
        }

        /// A row of `table` as plain values, read by each column's kind.
        fn row_values(
            row: &$row,
            table: $crate::rows::Table,
        ) -> Result<Vec<$crate::rows::Value>, sqlx::Error> {
            use sqlx::Row;
            use $crate::rows::{Kind, Value};
            let mut values = Vec::with_capacity(table.columns().len());
            for (i, (_, kind)) in table.columns().iter().enumerate() {
                values.push(match kind {
                    Kind::Int => Value::Int(row.try_get(i)?),
                    Kind::OptInt => row
                        .try_get::<Option<i64>, _>(i)?
                        .map_or(Value::Null, Value::Int),
                    Kind::Real => Value::Real(row.try_get(i)?),
                    Kind::Text => Value::Text(row.try_get(i)?),
                    Kind::OptText => row
                        .try_get::<Option<String>, _>(i)?
                        .map_or(Value::Null, Value::Text),
                    Kind::Bool => Value::Bool(row.try_get(i)?),
                });
            }
            Ok(values)
        }

        /// Reads a page of `table` after `after` (from the start with `None`).
        async fn read_table_rows(
            pool: &sqlx::Pool<<$row as sqlx::Row>::Database>,
            table: $crate::rows::Table,
            sql: &$crate::rows::TableSql,
            after: Option<&[$crate::rows::Value]>,
            limit: i64,
        ) -> Result<Vec<Vec<$crate::rows::Value>>, $crate::StoreError> {
            use $crate::rows::Value;
            let rows = match after {
                None => {
                    sqlx::query(&sql.select_first)
                        .bind(limit)
                        .fetch_all(pool)
                        .await?
                }
                Some(key) => {
                    let mut query = sqlx::query(&sql.select_after);
                    for value in key {
                        query = match value {
                            Value::Int(i) => query.bind(*i),
                            Value::Text(t) => query.bind(t.as_str()),
                            Value::Real(r) => query.bind(*r),
                            Value::Bool(b) => query.bind(*b),
                            Value::Null => query.bind(Option::<i64>::None),
                        };
                    }
                    query.bind(limit).fetch_all(pool).await?
                }
            };
            Ok(rows
                .iter()
                .map(|row| row_values(row, table))
                .collect::<Result<_, _>>()?)
        }

        /// Inserts `rows` of `table`, skipping keys already there; how many were new.
        async fn write_table_rows(
            pool: &sqlx::Pool<<$row as sqlx::Row>::Database>,
            table: $crate::rows::Table,
            sql: &$crate::rows::TableSql,
            rows: &[Vec<$crate::rows::Value>],
        ) -> Result<u64, $crate::StoreError> {
            use $crate::rows::{Kind, Value};
            let kinds: Vec<Kind> = table.columns().iter().map(|(_, k)| *k).collect();
            let mut tx = pool.begin().await?;
            let mut written = 0;
            // Within both backends' limits on parameters in one statement.
            let per_statement = (30_000 / kinds.len()).max(1);
            for chunk in rows.chunks(per_statement) {
                let mut insert = sqlx::QueryBuilder::new(&sql.insert_head);
                insert.push_values(chunk, |mut out, row| {
                    for (value, kind) in row.iter().zip(&kinds) {
                        match (value, kind) {
                            (Value::Int(i), _) => out.push_bind(*i),
                            (Value::Real(r), _) => out.push_bind(*r),
                            (Value::Text(t), _) => out.push_bind(t.clone()),
                            (Value::Bool(b), _) => out.push_bind(*b),
                            (Value::Null, Kind::OptText | Kind::Text) => {
                                out.push_bind(Option::<String>::None)
                            }
                            (Value::Null, _) => out.push_bind(Option::<i64>::None),
                        };
                    }
                });
                insert.push(" ON CONFLICT DO NOTHING");
                written += insert.build().execute(&mut *tx).await?.rows_affected();
            }
            tx.commit().await?;
            Ok(written)
        }

        const GAME_COLUMNS: &str =
            "id, white_id, black_id, setup, created_at, finished, result, rated, source";

        impl $store {
            async fn with_events(
                &self,
                row: &$row,
            ) -> Result<$crate::StoredGame, $crate::StoreError> {
                use sqlx::Row;
                let id: String = row.try_get("id")?;
                let events =
                    sqlx::query("SELECT event FROM game_events WHERE game_id = $1 ORDER BY seq")
                        .bind(&id)
                        .fetch_all(&self.pool)
                        .await?
                        .iter()
                        .map(|r| r.try_get::<String, _>("event"))
                        .collect::<Result<Vec<_>, _>>()?;
                Ok($crate::StoredGame {
                    id,
                    white_id: row.try_get("white_id")?,
                    black_id: row.try_get("black_id")?,
                    setup: row.try_get("setup")?,
                    created_at: row.try_get("created_at")?,
                    finished: row.try_get("finished")?,
                    result: row.try_get("result")?,
                    rated: row.try_get("rated")?,
                    source: row.try_get("source")?,
                    events,
                })
            }
        }

        $crate::shared::shared_people!($store);
        $crate::shared::shared_records!($store);
        $crate::shared::shared_standings!($store);
    };
}

pub(crate) use shared_sql;
