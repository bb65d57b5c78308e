//! Puzzles as lichess serves them (`/api/puzzle/...`), with the same JSON:
//! `{game: {id, perf, rated, players, pgn, clock}, puzzle: {id, rating, plays,
//! solution, themes, initialPly}}`. Every puzzle object also carries `fen` (the
//! position the solver faces) and `lastMove` (the opponent's move that led
//! there, UCI): a puzzle imported without its game still has its position,
//! and then `game.pgn` is empty.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_rules::{Color, Position};
use caissa_store::{PuzzleRound, StoredPuzzle, StoredRating};
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::Params;
use crate::live::view::now_ms;
use crate::routes::docs::ErrorBody;
use crate::routes::session::{Authed, MaybeAuthed};
use crate::services::puzzles::{check_angle, Difficulty, Puzzles, Solution, Wanted, MAX_BATCH};
use crate::state::AppState;

const DAY_MS: i64 = 86_400_000;

/// The position the solver faces and the ply of the opponent's move.
fn solver_position(p: &StoredPuzzle) -> (String, String, u32) {
    let last_move = p.moves.split_whitespace().next().unwrap_or("").to_string();
    let Ok(mut pos) = Position::from_fen(&p.fen) else {
        return (p.fen.clone(), last_move, 0);
    };
    let ply = (pos.fullmoves().max(1) - 1) * 2 + u32::from(pos.turn() == Color::Black);
    if let Ok(mv) = pos.parse_uci(&last_move) {
        pos.play_unchecked(mv);
    }
    (pos.fen(), last_move, ply)
}

/// A puzzle object: lichess's fields, with `fen` and `lastMove`.
pub fn puzzle_json(p: &StoredPuzzle) -> Value {
    let (fen, last_move, ply) = solver_position(p);
    let solution: Vec<&str> = p.moves.split_whitespace().skip(1).collect();
    json!({
        "id": p.id,
        "rating": p.rating.round() as i64,
        "plays": p.plays,
        "solution": solution,
        "themes": p.themes.split_whitespace().collect::<Vec<_>>(),
        "initialPly": ply,
        "fen": fen,
        "lastMove": last_move,
    })
}

/// The game object of a puzzle: its id from `GameUrl` when there is one; the
/// moves are not kept with a puzzle, so `pgn` is empty.
fn game_json(p: &StoredPuzzle) -> Value {
    let id = p
        .game_url
        .split('#')
        .next()
        .and_then(|url| url.trim_end_matches('/').rsplit('/').next())
        .unwrap_or("");
    let id = if p.game_url.is_empty() { "" } else { id };
    json!({
        "id": id,
        "perf": {"key": "standard", "name": "Standard"},
        "rated": false,
        "players": [],
        "pgn": "",
        "clock": "",
        "url": p.game_url,
    })
}

/// `{game, puzzle}`.
pub fn puzzle_and_game(p: &StoredPuzzle) -> Value {
    json!({ "game": game_json(p), "puzzle": puzzle_json(p) })
}

fn glicko_json(r: &StoredRating) -> Value {
    json!({
        "rating": (r.rating * 100.0).round() / 100.0,
        "deviation": (r.deviation * 100.0).round() / 100.0,
        "provisional": r.deviation > caissa_rating::glicko2::Config::default().provisional_deviation,
    })
}

/// What to pick: lichess's query, and Caissa's `rating`.
#[derive(Deserialize, IntoParams, Default)]
#[into_params(parameter_in = Query)]
pub struct PickQuery {
    /// A theme key (`fork`, `mateIn2` ...) or an opening tag; `mix` for any.
    pub angle: Option<String>,
    /// `easiest`, `easier`, `normal`, `harder` or `hardest`, relative to the
    /// player's puzzle rating (1500 for a guest).
    pub difficulty: Option<String>,
    /// The solver's colour: `white` or `black`.
    pub color: Option<String>,
    /// Caissa: a puzzle near this rating instead (the streak climbs with it).
    pub rating: Option<f64>,
    /// How many (batches only): 1 to 50, default 15.
    pub nb: Option<usize>,
}

impl PickQuery {
    fn wanted(&self, angle: Option<&str>) -> Result<Wanted, ApiError> {
        let solver_white = match self.color.as_deref() {
            None | Some("") => None,
            Some("white") => Some(true),
            Some("black") => Some(false),
            Some(other) => {
                return Err(ApiError::BadRequest(format!(
                    "color: {other:?} is not white or black"
                )))
            }
        };
        if let Some(r) = self.rating {
            if !(0.0..=4000.0).contains(&r) {
                return Err(ApiError::BadRequest(format!(
                    "rating: {r} is not between 0 and 4000"
                )));
            }
        }
        let angle = angle
            .or(self.angle.as_deref())
            .filter(|a| !a.is_empty())
            .unwrap_or("mix")
            .to_string();
        check_angle(&angle)?;
        Ok(Wanted {
            angle,
            difficulty: Difficulty::parse(self.difficulty.as_deref().unwrap_or(""))?,
            rating: self.rating,
            solver_white,
        })
    }

    fn nb(&self, default: usize) -> Result<usize, ApiError> {
        match self.nb {
            None => Ok(default),
            Some(n) if n <= MAX_BATCH => Ok(n),
            Some(n) => Err(ApiError::BadRequest(format!(
                "nb: {n} is more than {MAX_BATCH}"
            ))),
        }
    }
}

/// Today's puzzle, the same for everyone until midnight UTC.
#[utoipa::path(get, path = "/api/puzzle/daily", tag = "puzzles", security(()),
    responses((status = 200, description = "`{game, puzzle}`", body = Object)))]
async fn daily(State(puzzles): State<Arc<Puzzles>>) -> Result<Json<Value>, ApiError> {
    Ok(Json(puzzle_and_game(&puzzles.daily().await?)))
}

/// One puzzle by its id.
#[utoipa::path(get, path = "/api/puzzle/{id}", tag = "puzzles", security(()),
    params(("id" = String, Path, description = "The puzzle's id")),
    responses(
        (status = 200, description = "`{game, puzzle}`", body = Object),
        (status = 404, description = "No such puzzle", body = ErrorBody)))]
async fn by_id(
    State(puzzles): State<Arc<Puzzles>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(puzzle_and_game(&puzzles.get(&id).await?)))
}

/// A puzzle for the player (a guest too): near their puzzle rating, one they
/// have not played, by theme or opening with `angle`. A token needs `puzzle:read`.
#[utoipa::path(get, path = "/api/puzzle/next", tag = "puzzles", security(()),
    params(PickQuery),
    responses(
        (status = 200, description = "`{game, puzzle}`", body = Object),
        (status = 400, description = "A bad angle, difficulty, colour or rating", body = ErrorBody),
        (status = 404, description = "No puzzle with that angle", body = ErrorBody)))]
async fn next(
    State(puzzles): State<Arc<Puzzles>>,
    MaybeAuthed(player): MaybeAuthed,
    Params(query): Params<PickQuery>,
) -> Result<Json<Value>, ApiError> {
    let wanted = query.wanted(None)?;
    let found = puzzles.pick(player.as_ref(), &wanted, 1).await?;
    let first = found.first().ok_or_else(|| {
        ApiError::NotFound(format!(
            "a puzzle with the angle {:?} and that colour",
            wanted.angle
        ))
    })?;
    Ok(Json(puzzle_and_game(first)))
}

/// Several puzzles at once: `{puzzles: [{game, puzzle}], glicko?}` (`glicko`,
/// the player's puzzle rating, when signed in).
#[utoipa::path(get, path = "/api/puzzle/batch/{angle}", tag = "puzzles", security(()),
    params(("angle" = String, Path, description = "`mix`, a theme or an opening tag"), PickQuery),
    responses(
        (status = 200, description = "`{puzzles, glicko?}`", body = Object),
        (status = 400, description = "A bad angle, difficulty, colour or nb", body = ErrorBody),
        (status = 404, description = "No puzzle with that angle", body = ErrorBody)))]
async fn batch(
    State(puzzles): State<Arc<Puzzles>>,
    MaybeAuthed(player): MaybeAuthed,
    Path(angle): Path<String>,
    Params(query): Params<PickQuery>,
) -> Result<Json<Value>, ApiError> {
    let wanted = query.wanted(Some(&angle))?;
    let nb = query.nb(15)?.max(1);
    let found = puzzles.pick(player.as_ref(), &wanted, nb).await?;
    let mut out = json!({ "puzzles": found.iter().map(puzzle_and_game).collect::<Vec<_>>() });
    if let Some(player) = &player {
        out["glicko"] = glicko_json(&puzzles.rating_of(Some(player)).await?);
    }
    Ok(Json(out))
}

/// One solved (or failed) puzzle.
#[derive(Deserialize, ToSchema)]
pub struct SolutionBody {
    /// The puzzle's id.
    pub id: String,
    /// Solved without a mistake.
    pub win: bool,
    /// Whether it counts for the ratings (default true).
    pub rated: Option<bool>,
}

/// The results sent.
#[derive(Deserialize, ToSchema)]
pub struct SolveBody {
    /// The puzzles played, in order.
    pub solutions: Vec<SolutionBody>,
}

/// Records solved puzzles (each moves the player's and the puzzle's ratings
/// when rated): `{rounds: [{id, win, ratingDiff}], puzzles: [...], glicko}`;
/// `puzzles` is a new batch of `nb` (default 0).
#[utoipa::path(post, path = "/api/puzzle/batch/{angle}", tag = "puzzles",
    params(("angle" = String, Path, description = "`mix`, a theme or an opening tag"), PickQuery),
    request_body(content = SolveBody, content_type = "application/json"),
    responses(
        (status = 200, description = "`{rounds, puzzles, glicko}`", body = Object),
        (status = 400, description = "A body that is not `{solutions: [{id, win, rated?}]}`", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "A puzzle that does not exist", body = ErrorBody)))]
async fn solve(
    State(puzzles): State<Arc<Puzzles>>,
    Authed(player): Authed,
    Path(angle): Path<String>,
    Params(query): Params<PickQuery>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let wanted = query.wanted(Some(&angle))?;
    let body: SolveBody = serde_json::from_slice(&body).map_err(|e| {
        ApiError::BadRequest(format!(
            "the body must be JSON {{\"solutions\": [{{\"id\", \"win\", \"rated\"}}]}}: {e}"
        ))
    })?;
    if body.solutions.len() > MAX_BATCH {
        return Err(ApiError::BadRequest(format!(
            "solutions: at most {MAX_BATCH}, not {}",
            body.solutions.len()
        )));
    }
    let solutions: Vec<Solution> = body
        .solutions
        .into_iter()
        .map(|s| Solution {
            id: s.id,
            win: s.win,
            rated: s.rated.unwrap_or(true),
        })
        .collect();
    let (rounds, glicko) = puzzles.solve(&player, &solutions).await?;
    let nb = query.nb(0)?;
    let next = if nb > 0 {
        puzzles.pick(Some(&player), &wanted, nb).await?
    } else {
        Vec::new()
    };
    Ok(Json(json!({
        "rounds": rounds.iter().map(|r| json!({"id": r.id, "win": r.win, "ratingDiff": r.rating_diff})).collect::<Vec<_>>(),
        "puzzles": next.iter().map(puzzle_and_game).collect::<Vec<_>>(),
        "glicko": glicko_json(&glicko),
    })))
}

/// Which rounds.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActivityQuery {
    /// At most this many (default: all).
    pub max: Option<i64>,
    /// Only before this time, ms.
    pub before: Option<i64>,
}

/// The player's puzzle rounds, newest first, as NDJSON: `{date, win,
/// puzzle: {id, fen, lastMove, plays, rating, solution, themes}}`.
#[utoipa::path(get, path = "/api/puzzle/activity", tag = "puzzles",
    params(ActivityQuery),
    responses(
        (status = 200, description = "NDJSON lines `{date, win, puzzle}`", content_type = "application/x-ndjson"),
        (status = 401, description = "Not signed in", body = ErrorBody)))]
async fn activity(
    State(puzzles): State<Arc<Puzzles>>,
    Authed(player): Authed,
    Params(query): Params<ActivityQuery>,
) -> Result<Response, ApiError> {
    let max = query.max.unwrap_or(i64::MAX).clamp(0, 100_000);
    let before = query.before.unwrap_or(i64::MAX);
    let rounds = puzzles.rounds(&player, 0, before, max).await?;
    let mut body = String::new();
    for (round, puzzle) in &rounds {
        let line = json!({
            "date": round.played_at,
            "win": round.win,
            "puzzle": puzzle_json(puzzle),
        });
        body.push_str(&line.to_string());
        body.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// How a set of rounds went, as lichess's dashboard counts it.
#[derive(Default)]
struct Results {
    puzzles: usize,
    first_wins: usize,
    replay_wins: usize,
    rating_sum: f64,
}

impl Results {
    fn json(&self) -> Value {
        let nb = self.puzzles.max(1) as f64;
        let average = self.rating_sum / nb;
        json!({
            "nb": self.puzzles,
            "firstWins": self.first_wins,
            "replayWins": self.replay_wins,
            "puzzleRatingAvg": average.round() as i64,
            "performance": (average - 500.0 + 1000.0 * self.first_wins as f64 / nb).round() as i64,
        })
    }
}

/// The player's results over the last `days` days, overall and by theme:
/// `{days, global: {nb, firstWins, replayWins, puzzleRatingAvg, performance},
/// themes: {KEY: {theme, results}}}`.
#[utoipa::path(get, path = "/api/puzzle/dashboard/{days}", tag = "puzzles",
    params(("days" = i64, Path, description = "How many days back, 1 to 365")),
    responses(
        (status = 200, description = "The dashboard", body = Object),
        (status = 400, description = "days out of range", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody)))]
async fn dashboard(
    State(puzzles): State<Arc<Puzzles>>,
    Authed(player): Authed,
    Path(days): Path<i64>,
) -> Result<Json<Value>, ApiError> {
    if !(1..=365).contains(&days) {
        return Err(ApiError::BadRequest(format!(
            "days: {days} is not between 1 and 365"
        )));
    }
    let since = now_ms() as i64 - days * DAY_MS;
    let rounds = puzzles.rounds(&player, since, i64::MAX, 100_000).await?;
    let summary = summarise(&rounds);
    let mut themes = serde_json::Map::new();
    for (theme, results) in &summary.1 {
        themes.insert(
            theme.clone(),
            json!({"theme": caissa_puzzles::theme_name(theme), "results": results.json()}),
        );
    }
    Ok(Json(
        json!({ "days": days, "global": summary.0.json(), "themes": themes }),
    ))
}

/// Overall and per theme: each puzzle counts once, won at the first try or
/// at a later one.
fn summarise(rounds: &[(PuzzleRound, StoredPuzzle)]) -> (Results, BTreeMap<String, Results>) {
    // Oldest first, so that a puzzle's first round comes first.
    let mut by_puzzle: HashMap<&str, (bool, bool, &StoredPuzzle, f64)> = HashMap::new();
    for (round, puzzle) in rounds.iter().rev() {
        let entry = by_puzzle.entry(round.puzzle_id.as_str()).or_insert((
            round.win,
            false,
            puzzle,
            round.puzzle_rating,
        ));
        if !entry.0 && round.win {
            entry.1 = true;
        }
    }
    let mut global = Results::default();
    let mut themes: BTreeMap<String, Results> = BTreeMap::new();
    for (first_win, replay_win, puzzle, rating) in by_puzzle.values() {
        let keys = puzzle.themes.split_whitespace().map(Some).chain([None]);
        for key in keys {
            let results = match key {
                Some(theme) => themes.entry(theme.to_string()).or_default(),
                None => &mut global,
            };
            results.puzzles += 1;
            results.first_wins += usize::from(*first_win);
            results.replay_wins += usize::from(*replay_win);
            results.rating_sum += rating;
        }
    }
    (global, themes)
}

/// The puzzle themes known: `[{key, name}]` (a Caissa addition).
#[utoipa::path(get, path = "/api/puzzle/themes", tag = "puzzles", security(()),
    responses((status = 200, description = "`{themes: [{key, name}]}`", body = Object)))]
async fn themes() -> Json<Value> {
    let themes: Vec<Value> = caissa_puzzles::THEMES
        .iter()
        .map(|(key, name)| json!({"key": key, "name": name}))
        .collect();
    Json(json!({ "themes": themes }))
}

/// The puzzle routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(daily))
        .routes(routes!(next))
        .routes(routes!(themes))
        .routes(routes!(activity))
        .routes(routes!(dashboard))
        .routes(routes!(batch, solve))
        .routes(routes!(by_id))
}
