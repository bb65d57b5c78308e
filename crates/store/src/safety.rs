//! The SQL of accounts' safety and of learners' progress, the same for both
//! backends (like [`shared`](crate::shared)): closing an account, changing a
//! password, blocks and reports; the stars earned in the lessons.

/// Implements [`Safety`](crate::backend::Safety) for a backend with a `pool`
/// field, whose rows are read by a `user_from` in scope.
macro_rules! safety_sql {
    ($store:ty, $row:ty) => {
        fn report_from(row: &$row) -> Result<$crate::Report, sqlx::Error> {
            use sqlx::Row;
            Ok($crate::Report {
                id: row.try_get("id")?,
                reporter_id: row.try_get("reporter_id")?,
                suspect_id: row.try_get("suspect_id")?,
                reason: row.try_get("reason")?,
                text: row.try_get("text")?,
                game_id: row.try_get("game_id")?,
                created_at: row.try_get("created_at")?,
                closed_at: row.try_get("closed_at")?,
            })
        }

        #[async_trait::async_trait]
        impl $crate::backend::Safety for $store {
            async fn close_account(&self, user_id: i64, at: i64) -> Result<bool, $crate::StoreError> {
                let mut tx = self.pool.begin().await?;
                let done = sqlx::query("UPDATE users SET closed_at = $1 WHERE id = $2 AND closed_at IS NULL")
                    .bind(at)
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM tokens WHERE user_id = $1")
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM challenges WHERE challenger_id = $1 OR dest_id = $1")
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(done.rows_affected() > 0)
            }

            async fn set_password(&self, user_id: i64, password_hash: &str) -> Result<(), $crate::StoreError> {
                sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
                    .bind(password_hash)
                    .bind(user_id)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn delete_sessions_of(
                &self,
                user_id: i64,
                keep: Option<&str>,
            ) -> Result<u64, $crate::StoreError> {
                let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND session_hash <> $2")
                    .bind(user_id)
                    .bind(keep.unwrap_or(""))
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected())
            }

            async fn block(&self, user_id: i64, blocked_id: i64, at: i64) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query(
                    "INSERT INTO blocks (user_id, blocked_id, created_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (user_id, blocked_id) DO NOTHING",
                )
                .bind(user_id)
                .bind(blocked_id)
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn unblock(&self, user_id: i64, blocked_id: i64) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query("DELETE FROM blocks WHERE user_id = $1 AND blocked_id = $2")
                    .bind(user_id)
                    .bind(blocked_id)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn blocked_by(&self, user_id: i64) -> Result<Vec<$crate::User>, $crate::StoreError> {
                let rows = sqlx::query(
                    "SELECT u.id, u.name, u.password_hash, u.created_at, u.title, u.closed_at \
                     FROM blocks b JOIN users u ON u.id = b.blocked_id \
                     WHERE b.user_id = $1 ORDER BY u.name_key",
                )
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(user_from)
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }

            async fn blocks(&self, user_id: i64, other_id: i64) -> Result<bool, $crate::StoreError> {
                let row = sqlx::query("SELECT 1 FROM blocks WHERE user_id = $1 AND blocked_id = $2")
                    .bind(user_id)
                    .bind(other_id)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(row.is_some())
            }

            async fn add_report(&self, report: &$crate::Report) -> Result<i64, $crate::StoreError> {
                let id: i64 = sqlx::query_scalar(
                    "INSERT INTO reports (reporter_id, suspect_id, reason, text, game_id, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                )
                .bind(report.reporter_id)
                .bind(report.suspect_id)
                .bind(&report.reason)
                .bind(&report.text)
                .bind(&report.game_id)
                .bind(report.created_at)
                .fetch_one(&self.pool)
                .await?;
                Ok(id)
            }

            async fn reports(&self, open_only: bool, limit: i64) -> Result<Vec<$crate::Report>, $crate::StoreError> {
                let rows = sqlx::query(
                    "SELECT id, reporter_id, suspect_id, reason, text, game_id, created_at, closed_at \
                     FROM reports WHERE closed_at IS NULL OR $1 = FALSE ORDER BY id LIMIT $2",
                )
                .bind(open_only)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(report_from)
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }

            async fn record_stars(
                &self,
                user_id: i64,
                lesson: &str,
                exercise: i64,
                stars: i64,
                at: i64,
            ) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query(
                    "INSERT INTO lesson_progress (user_id, lesson_id, exercise, stars, updated_at) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, lesson_id, exercise) \
                     DO UPDATE SET stars = excluded.stars, updated_at = excluded.updated_at \
                     WHERE lesson_progress.stars < excluded.stars",
                )
                .bind(user_id)
                .bind(lesson)
                .bind(exercise)
                .bind(stars)
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() > 0)
            }

            async fn lesson_progress(&self, user_id: i64) -> Result<Vec<(String, i64, i64)>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT lesson_id, exercise, stars FROM lesson_progress \
                     WHERE user_id = $1 ORDER BY lesson_id, exercise",
                )
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| Ok((r.try_get("lesson_id")?, r.try_get("exercise")?, r.try_get("stars")?)))
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }

            async fn close_report(&self, id: i64, at: i64) -> Result<bool, $crate::StoreError> {
                let done = sqlx::query("UPDATE reports SET closed_at = $1 WHERE id = $2 AND closed_at IS NULL")
                    .bind(at)
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() == 1)
            }
        }
    };
}

pub(crate) use safety_sql;
