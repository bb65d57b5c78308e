//! Puzzles, their Glicko-2 ratings and the rounds people played, the same
//! SQL for both backends (like [`shared`](crate::shared)).

/// A stored puzzle, as the lichess puzzle database has it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPuzzle {
    /// Its id (letters and digits).
    pub id: String,
    /// The position before the opponent's move.
    pub fen: String,
    /// The opponent's move, then the solution with the replies, UCI, space separated.
    pub moves: String,
    /// Its Glicko-2 rating.
    pub rating: f64,
    /// Its rating deviation.
    pub deviation: f64,
    /// Its rating volatility.
    pub volatility: f64,
    /// How much people liked it, -100 to 100.
    pub popularity: i64,
    /// How many times it was played.
    pub plays: i64,
    /// Its themes, space separated (lichess's keys).
    pub themes: String,
    /// The game it comes from, with `#ply` (empty when none).
    pub game_url: String,
    /// The opening's tags, space separated.
    pub opening_tags: String,
}

/// One player's attempt at one puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRound {
    /// The player.
    pub user_id: i64,
    /// The puzzle.
    pub puzzle_id: String,
    /// When, ms.
    pub played_at: i64,
    /// Solved without a mistake.
    pub win: bool,
    /// Whether it counted for the ratings.
    pub rated: bool,
    /// The puzzle's rating when it was played.
    pub puzzle_rating: f64,
    /// The player's puzzle rating after it.
    pub rating_after: f64,
}

/// Which puzzles to pick for a player.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzlePick {
    /// Near this rating...
    pub rating: f64,
    /// ...at most this far from it.
    pub window: f64,
    /// With this theme (a lichess key) or opening tag, if any.
    pub theme: Option<String>,
    /// Not yet played by this user, if any.
    pub unseen_by: Option<i64>,
    /// The solver plays white (`Some(true)`) or black.
    pub solver_white: Option<bool>,
    /// At most this many.
    pub limit: i64,
}

/// Implements [`Puzzles`](crate::backend::Puzzles) for a backend with a `pool`.
macro_rules! puzzle_sql {
    ($store:ty, $row:ty) => {
        const PUZZLE_COLUMNS: &str = "id, fen, moves, rating, deviation, volatility, popularity, \
             plays, themes, game_url, opening_tags";

        fn puzzle_from(row: &$row) -> Result<$crate::StoredPuzzle, sqlx::Error> {
            use sqlx::Row;
            let themes: String = row.try_get("themes")?;
            Ok($crate::StoredPuzzle {
                id: row.try_get("id")?,
                fen: row.try_get("fen")?,
                moves: row.try_get("moves")?,
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
                popularity: row.try_get("popularity")?,
                plays: row.try_get("plays")?,
                themes: themes.trim().to_string(),
                game_url: row.try_get("game_url")?,
                opening_tags: row.try_get("opening_tags")?,
            })
        }

        fn puzzles_from(rows: &[$row]) -> Result<Vec<$crate::StoredPuzzle>, $crate::StoreError> {
            rows.iter()
                .map(puzzle_from)
                .collect::<Result<_, sqlx::Error>>()
                .map_err(Into::into)
        }

        #[async_trait::async_trait]
        impl $crate::backend::Puzzles for $store {
            async fn add_puzzles(&self, puzzles: &[$crate::StoredPuzzle]) -> Result<u64, $crate::StoreError> {
                let mut tx = self.pool.begin().await?;
                let mut added = 0;
                for p in puzzles {
                    let done = sqlx::query(
                        "INSERT INTO puzzles (id, fen, moves, rating, deviation, volatility, \
                         popularity, plays, themes, game_url, opening_tags) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
                         ON CONFLICT (id) DO NOTHING",
                    )
                    .bind(&p.id)
                    .bind(&p.fen)
                    .bind(&p.moves)
                    .bind(p.rating)
                    .bind(p.deviation)
                    .bind(p.volatility)
                    .bind(p.popularity)
                    .bind(p.plays)
                    .bind(format!(" {} ", p.themes.trim()))
                    .bind(&p.game_url)
                    .bind(&p.opening_tags)
                    .execute(&mut *tx)
                    .await?;
                    added += done.rows_affected();
                }
                tx.commit().await?;
                Ok(added)
            }

            async fn puzzle(&self, id: &str) -> Result<Option<$crate::StoredPuzzle>, $crate::StoreError> {
                let row = sqlx::query(&format!("SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1"))
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(row.as_ref().map(puzzle_from).transpose()?)
            }

            async fn puzzle_count(&self) -> Result<i64, $crate::StoreError> {
                Ok(sqlx::query_scalar("SELECT COUNT(*) FROM puzzles")
                    .fetch_one(&self.pool)
                    .await?)
            }

            async fn puzzle_by_rank(&self, rank: i64) -> Result<Option<$crate::StoredPuzzle>, $crate::StoreError> {
                let row = sqlx::query(&format!(
                    "SELECT {PUZZLE_COLUMNS} FROM puzzles ORDER BY id LIMIT 1 OFFSET $1"
                ))
                .bind(rank)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.as_ref().map(puzzle_from).transpose()?)
            }

            async fn puzzles_after(&self, id: &str, limit: i64) -> Result<Vec<$crate::StoredPuzzle>, $crate::StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id > $1 ORDER BY id LIMIT $2"
                ))
                .bind(id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                puzzles_from(&rows)
            }

            async fn pick_puzzles(&self, pick: &$crate::PuzzlePick) -> Result<Vec<$crate::StoredPuzzle>, $crate::StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {PUZZLE_COLUMNS} FROM puzzles \
                     WHERE rating BETWEEN $1 AND $2 \
                     AND ($3 = '' OR themes LIKE $3 OR (' ' || opening_tags || ' ') LIKE $3) \
                     AND ($4 = '' OR fen LIKE $4) \
                     AND NOT EXISTS (SELECT 1 FROM puzzle_rounds r WHERE r.user_id = $5 AND r.puzzle_id = puzzles.id) \
                     ORDER BY random() LIMIT $6"
                ))
                .bind(pick.rating - pick.window)
                .bind(pick.rating + pick.window)
                .bind(pick.theme.as_deref().map(|t| format!("% {t} %")).unwrap_or_default())
                // The opponent moves first: a white solver's puzzle starts with Black to move.
                .bind(match pick.solver_white {
                    Some(true) => "% b %",
                    Some(false) => "% w %",
                    None => "",
                })
                .bind(pick.unseen_by.unwrap_or(-1))
                .bind(pick.limit)
                .fetch_all(&self.pool)
                .await?;
                puzzles_from(&rows)
            }

            async fn finish_round(
                &self,
                round: &$crate::PuzzleRound,
                puzzle_rating: Option<(f64, f64, f64)>,
                player_rating: Option<&$crate::StoredRating>,
            ) -> Result<(), $crate::StoreError> {
                let mut tx = self.pool.begin().await?;
                sqlx::query(
                    "INSERT INTO puzzle_rounds (user_id, puzzle_id, played_at, win, rated, puzzle_rating, rating_after) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(round.user_id)
                .bind(&round.puzzle_id)
                .bind(round.played_at)
                .bind(round.win)
                .bind(round.rated)
                .bind(round.puzzle_rating)
                .bind(round.rating_after)
                .execute(&mut *tx)
                .await?;
                match puzzle_rating {
                    Some((rating, deviation, volatility)) => {
                        sqlx::query(
                            "UPDATE puzzles SET plays = plays + 1, rating = $1, deviation = $2, volatility = $3 \
                             WHERE id = $4",
                        )
                        .bind(rating)
                        .bind(deviation)
                        .bind(volatility)
                        .bind(&round.puzzle_id)
                        .execute(&mut *tx)
                        .await?;
                    }
                    None => {
                        sqlx::query("UPDATE puzzles SET plays = plays + 1 WHERE id = $1")
                            .bind(&round.puzzle_id)
                            .execute(&mut *tx)
                            .await?;
                    }
                }
                if let Some(r) = player_rating {
                    sqlx::query(
                        "INSERT INTO ratings (user_id, perf, rating, deviation, volatility, games, last_played) \
                         VALUES ($1, 'puzzle', $2, $3, $4, $5, $6) ON CONFLICT (user_id, perf) DO UPDATE SET \
                         rating = excluded.rating, deviation = excluded.deviation, \
                         volatility = excluded.volatility, games = excluded.games, last_played = excluded.last_played",
                    )
                    .bind(round.user_id)
                    .bind(r.rating)
                    .bind(r.deviation)
                    .bind(r.volatility)
                    .bind(r.games)
                    .bind(r.last_played)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn puzzle_rounds(
                &self,
                user_id: i64,
                since: i64,
                before: i64,
                limit: i64,
            ) -> Result<Vec<($crate::PuzzleRound, $crate::StoredPuzzle)>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT r.user_id, r.puzzle_id, r.played_at, r.win, r.rated, r.puzzle_rating, r.rating_after, \
                     p.id, p.fen, p.moves, p.rating, p.deviation, p.volatility, p.popularity, p.plays, \
                     p.themes, p.game_url, p.opening_tags \
                     FROM puzzle_rounds r JOIN puzzles p ON p.id = r.puzzle_id \
                     WHERE r.user_id = $1 AND r.played_at >= $2 AND r.played_at < $3 \
                     ORDER BY r.played_at DESC, r.id DESC LIMIT $4",
                )
                .bind(user_id)
                .bind(since)
                .bind(before)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| {
                        let round = $crate::PuzzleRound {
                            user_id: row.try_get("user_id")?,
                            puzzle_id: row.try_get("puzzle_id")?,
                            played_at: row.try_get("played_at")?,
                            win: row.try_get("win")?,
                            rated: row.try_get("rated")?,
                            puzzle_rating: row.try_get("puzzle_rating")?,
                            rating_after: row.try_get("rating_after")?,
                        };
                        Ok((round, puzzle_from(row)?))
                    })
                    .collect::<Result<_, sqlx::Error>>()
                    .map_err(Into::into)
            }
        }
    };
}

pub(crate) use puzzle_sql;
