//! Puzzles: the daily one, one by id, the next one for a player (near their
//! puzzle rating, by theme or opening on request, never one they played), and
//! the results of solved puzzles, which move both the player's and the
//! puzzle's Glicko-2 rating. The starter set is loaded the first time puzzles
//! are asked for from an empty database.

use caissa_puzzles::Puzzle;
use caissa_rating::glicko2::{Config, Rating};
use caissa_store::{PuzzlePick, PuzzleRound, Store, StoredPuzzle, StoredRating, User};
use tokio::sync::OnceCell;

use crate::http::error::ApiError;
use crate::live::view::now_ms;
use crate::services::ratings::to_rating;

const DAY_MS: i64 = 86_400_000;
/// A player with no puzzle rating yet starts here, as on lichess.
pub const DEFAULT_RATING: f64 = 1500.0;
/// The widest a search for a puzzle near a rating goes.
const MAX_WINDOW: f64 = 3_200.0;
/// The most puzzles in one batch, as lichess.
pub const MAX_BATCH: usize = 50;

/// How far from the player's rating a puzzle is chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// 600 below.
    Easiest,
    /// 300 below.
    Easier,
    /// At the rating.
    Normal,
    /// 300 above.
    Harder,
    /// 600 above.
    Hardest,
}

impl Difficulty {
    /// lichess's names: `easiest` ... `hardest`.
    pub fn parse(text: &str) -> Result<Difficulty, ApiError> {
        Ok(match text {
            "easiest" => Difficulty::Easiest,
            "easier" => Difficulty::Easier,
            "normal" | "" => Difficulty::Normal,
            "harder" => Difficulty::Harder,
            "hardest" => Difficulty::Hardest,
            other => {
                return Err(ApiError::BadRequest(format!(
                    "difficulty: {other:?} is not one of easiest, easier, normal, harder, hardest"
                )))
            }
        })
    }

    fn offset(self) -> f64 {
        match self {
            Difficulty::Easiest => -600.0,
            Difficulty::Easier => -300.0,
            Difficulty::Normal => 0.0,
            Difficulty::Harder => 300.0,
            Difficulty::Hardest => 600.0,
        }
    }
}

/// What a player asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Wanted {
    /// `mix`, a theme key or an opening tag.
    pub angle: String,
    /// Relative to the player's rating.
    pub difficulty: Difficulty,
    /// Exactly this rating instead (streaks climb from easy to hard).
    pub rating: Option<f64>,
    /// The solver's colour: `Some(true)` for White.
    pub solver_white: Option<bool>,
}

impl Default for Wanted {
    fn default() -> Wanted {
        Wanted {
            angle: "mix".into(),
            difficulty: Difficulty::Normal,
            rating: None,
            solver_white: None,
        }
    }
}

/// One result a player sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The puzzle.
    pub id: String,
    /// Solved without a mistake.
    pub win: bool,
    /// Whether it counts for the ratings.
    pub rated: bool,
}

/// A result recorded: the puzzle, and how the player's rating moved.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The puzzle.
    pub id: String,
    /// Solved.
    pub win: bool,
    /// The player's rating change, rounded.
    pub rating_diff: i64,
}

/// The puzzles of a server.
pub struct Puzzles {
    store: Store,
    loaded: OnceCell<()>,
    glicko: Config,
}

/// A puzzle from the CSV as the store keeps it.
pub fn to_stored(p: &Puzzle) -> StoredPuzzle {
    StoredPuzzle {
        id: p.id.clone(),
        fen: p.fen.clone(),
        moves: p.moves.join(" "),
        rating: f64::from(p.rating),
        deviation: f64::from(p.rating_deviation),
        volatility: Config::default().initial_volatility,
        popularity: i64::from(p.popularity),
        plays: p.plays as i64,
        themes: p.themes.join(" "),
        game_url: p.game_url.clone(),
        opening_tags: p.opening_tags.join(" "),
    }
}

/// `mix`, a theme key or an opening tag: letters, digits and `_`.
pub fn check_angle(angle: &str) -> Result<(), ApiError> {
    if angle.is_empty()
        || angle.len() > 80
        || !angle.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(ApiError::BadRequest(format!(
            "angle: {angle:?} is not mix, a theme (mateIn2, fork ...) or an opening tag (Sicilian_Defense ...)"
        )));
    }
    Ok(())
}

impl Puzzles {
    /// Puzzles kept in `store`.
    pub fn new(store: Store) -> Puzzles {
        Puzzles {
            store,
            loaded: OnceCell::new(),
            glicko: Config::default(),
        }
    }

    /// Loads the starter set into an empty database, once.
    async fn ready(&self) -> Result<(), ApiError> {
        self.loaded
            .get_or_try_init(|| async {
                if self.store.puzzle_count().await? == 0 {
                    let set = caissa_puzzles::starter_set().map_err(|e| {
                        ApiError::Internal(format!(
                            "the starter puzzles, line {}: {}",
                            e.line, e.reason
                        ))
                    })?;
                    let stored: Vec<StoredPuzzle> = set.iter().map(to_stored).collect();
                    let added = self.store.add_puzzles(&stored).await?;
                    tracing::info!("loaded {added} starter puzzles");
                }
                Ok::<(), ApiError>(())
            })
            .await
            .map(|_| ())
    }

    /// The puzzle with this id, or 404.
    pub async fn get(&self, id: &str) -> Result<StoredPuzzle, ApiError> {
        self.ready().await?;
        self.store
            .puzzle(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("puzzle {id:?}")))
    }

    /// Today's puzzle (UTC days): the same for everyone all day.
    pub async fn daily(&self) -> Result<StoredPuzzle, ApiError> {
        self.ready().await?;
        let count = self.store.puzzle_count().await?;
        if count == 0 {
            return Err(ApiError::NotFound("any puzzle".into()));
        }
        let day = now_ms() as i64 / DAY_MS;
        // Spread the days over the puzzles (a multiplicative hash of the day).
        let rank = (day as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) % count as u64;
        self.store
            .puzzle_by_rank(rank as i64)
            .await?
            .ok_or_else(|| ApiError::NotFound("the daily puzzle".into()))
    }

    /// A player's puzzle rating (the default for a new player or a guest).
    pub async fn rating_of(&self, player: Option<&User>) -> Result<StoredRating, ApiError> {
        let stored = match player {
            Some(user) => self.store.rating(user.id, "puzzle").await?,
            None => None,
        };
        Ok(stored.unwrap_or(StoredRating {
            rating: DEFAULT_RATING,
            deviation: self.glicko.initial_deviation,
            volatility: self.glicko.initial_volatility,
            games: 0,
            last_played: 0,
        }))
    }

    /// Up to `nb` puzzles for a player (a guest gets them near 1500): near the
    /// rating, widening the search until enough are found; a signed-in
    /// player's played puzzles come only when nothing else is left. Empty
    /// when no puzzle has the angle and colour asked for.
    pub async fn pick(
        &self,
        player: Option<&User>,
        wanted: &Wanted,
        nb: usize,
    ) -> Result<Vec<StoredPuzzle>, ApiError> {
        check_angle(&wanted.angle)?;
        self.ready().await?;
        let rating = match wanted.rating {
            Some(r) => r,
            None => self.rating_of(player).await?.rating + wanted.difficulty.offset(),
        };
        let theme = (wanted.angle != "mix").then(|| wanted.angle.clone());
        let nb = nb.clamp(1, MAX_BATCH);
        for unseen_by in [player.map(|u| u.id), None] {
            let mut window = 100.0;
            while window <= MAX_WINDOW {
                let pick = PuzzlePick {
                    rating,
                    window,
                    theme: theme.clone(),
                    unseen_by,
                    solver_white: wanted.solver_white,
                    limit: nb as i64,
                };
                let found = self.store.pick_puzzles(&pick).await?;
                if found.len() >= nb || (window * 2.0 > MAX_WINDOW && !found.is_empty()) {
                    let mut found = found;
                    found.sort_by(|a, b| a.rating.total_cmp(&b.rating));
                    return Ok(found);
                }
                window *= 2.0;
            }
            if unseen_by.is_none() {
                break;
            }
        }
        Ok(Vec::new())
    }

    /// Records a player's results in order: each moves the player's puzzle
    /// rating and the puzzle's (when rated), and counts a play.
    pub async fn solve(
        &self,
        player: &User,
        solutions: &[Solution],
    ) -> Result<(Vec<Recorded>, StoredRating), ApiError> {
        self.ready().await?;
        let mut mine = self.rating_of(Some(player)).await?;
        let mut recorded = Vec::with_capacity(solutions.len());
        for solution in solutions {
            let puzzle = self.get(&solution.id).await?;
            let now = now_ms() as i64;
            let before = mine.rating;
            let score = if solution.win { 1.0 } else { 0.0 };
            let (puzzle_rating, player_rating) = if solution.rated {
                let idle_days = if mine.games == 0 {
                    0.0
                } else {
                    (now - mine.last_played).max(0) as f64 / DAY_MS as f64
                };
                let theirs = Rating {
                    rating: puzzle.rating,
                    deviation: puzzle.deviation,
                    volatility: puzzle.volatility,
                };
                let (me, it) =
                    self.glicko
                        .rate_game(&to_rating(&mine), idle_days, &theirs, 0.0, score);
                mine = StoredRating {
                    rating: me.rating,
                    deviation: me.deviation,
                    volatility: me.volatility,
                    games: mine.games + 1,
                    last_played: now,
                };
                (Some((it.rating, it.deviation, it.volatility)), Some(&mine))
            } else {
                (None, None)
            };
            let round = PuzzleRound {
                user_id: player.id,
                puzzle_id: puzzle.id.clone(),
                played_at: now,
                win: solution.win,
                rated: solution.rated,
                puzzle_rating: puzzle.rating,
                rating_after: mine.rating,
            };
            self.store
                .finish_round(&round, puzzle_rating, player_rating)
                .await?;
            recorded.push(Recorded {
                id: puzzle.id,
                win: solution.win,
                rating_diff: (mine.rating - before).round() as i64,
            });
        }
        Ok((recorded, mine))
    }

    /// A player's rounds, newest first: from `since` to before `before` (ms).
    pub async fn rounds(
        &self,
        player: &User,
        since: i64,
        before: i64,
        limit: i64,
    ) -> Result<Vec<(PuzzleRound, StoredPuzzle)>, ApiError> {
        Ok(self
            .store
            .puzzle_rounds(player.id, since, before, limit)
            .await?)
    }

    /// Adds puzzles (an import); how many were new.
    pub async fn add(&self, puzzles: &[Puzzle]) -> Result<u64, ApiError> {
        let stored: Vec<StoredPuzzle> = puzzles.iter().map(to_stored).collect();
        Ok(self.store.add_puzzles(&stored).await?)
    }
}
