//! TV: the game most worth watching now, on any node — the one with the most
//! moves (`/api/tv`), the best per speed (`/api/tv/channels`), and lichess's
//! feeds that follow it move by move and move on to the next when it ends
//! (`/api/tv/feed`, `/api/tv/{channel}/feed`), and a channel's best games
//! exported (`/api/tv/{channel}`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::Params;
use crate::live::handle::{Changes, GameHandle};
use crate::live::view::{Player, View};
use crate::protocol::lichess;
use crate::routes::docs::ErrorBody;
use crate::routes::games::{accepts, site_of};
use crate::routes::streams::ndjson;
use crate::services::exports::Exports;
use crate::services::games::{Found, Games, OnBoard};
use crate::services::tournaments::Tournaments;
use crate::state::AppState;

/// The channels a feed may follow: any game, or one speed's.
const CHANNELS: [&str; 6] = [
    "best",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
];
/// How long a feed with nothing to show waits before it looks again, and how
/// often it sends an empty line meanwhile.
const IDLE: Duration = Duration::from_secs(2);

/// Which game TV shows.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct TvQuery {
    /// The top board of this tournament (arena, Swiss or round robin) instead.
    pub tournament: Option<String>,
}

/// The game on "TV", as `gameFull`: the live game with the most moves played,
/// or a tournament's top board (a Swiss's first board still playing, an
/// arena's game of the best-placed player).
#[utoipa::path(get, path = "/api/tv", tag = "games", security(()), params(TvQuery),
    responses(
        (status = 200, description = "The game's `gameFull`", body = Object),
        (status = 400, description = "An unknown query parameter", body = ErrorBody),
        (status = 404, description = "No game is being played (in that tournament), or no such tournament", body = ErrorBody)))]
async fn tv(
    State(games): State<Arc<Games>>,
    State(tournaments): State<Arc<Tournaments>>,
    Params(q): Params<TvQuery>,
) -> Result<Json<Value>, ApiError> {
    let id = match &q.tournament {
        Some(tournament) => tournaments
            .get(tournament)
            .await?
            .top_board()
            .map(|b| b.game_id.clone())
            .ok_or_else(|| ApiError::NotFound(format!("a game being played in {tournament}")))?,
        None => {
            games
                .on_board_everywhere()
                .await
                .into_iter()
                .max_by_key(|b| (b.plies, b.created_at))
                .ok_or_else(|| ApiError::NotFound("a live game".into()))?
                .id
        }
    };
    let view = match games.live(&id) {
        Some(handle) => handle.view_now().await,
        None => games.find(&id).await?.view(),
    };
    Ok(Json(lichess::game_full(&view)))
}

/// For each speed being played, its best game now (the highest-rated pair, then
/// the longest), with the better-rated player.
#[utoipa::path(get, path = "/api/tv/channels", tag = "games", security(()),
    responses((status = 200, description = "`{speed: {user, rating, gameId, color}}`", body = Object)))]
async fn tv_channels(State(games): State<Arc<Games>>) -> Json<Value> {
    let mut best: HashMap<String, OnBoard> = HashMap::new();
    for board in games.on_board_everywhere().await {
        if best
            .get(&board.speed)
            .is_none_or(|b| strength(&board) > strength(b))
        {
            best.insert(board.speed.clone(), board);
        }
    }
    let mut channels = serde_json::Map::new();
    for (speed, board) in best {
        let (player, color) = if board.white.rating >= board.black.rating {
            (&board.white, "white")
        } else {
            (&board.black, "black")
        };
        channels.insert(
            speed,
            json!({
                "user": { "id": player.name.to_lowercase(), "name": player.name },
                "rating": player.rating,
                "gameId": board.id,
                "color": color,
            }),
        );
    }
    Json(Value::Object(channels))
}

/// The game a feed of `channel` shows now: the best rated pair being
/// played at that speed (any speed for `best`), then the longest.
async fn featured_now(games: &Games, channel: &str) -> Option<GameHandle> {
    let best = games
        .on_board_everywhere()
        .await
        .into_iter()
        .filter(|b| channel == "best" || b.speed == channel)
        .max_by_key(strength)?;
    match games.find(&best.id).await {
        Ok(Found::Live(handle)) => Some(handle),
        _ => None,
    }
}

/// A player in a feed's `featured` line.
fn feed_player(p: &Player, color: &str, clock_ms: Option<u64>) -> Value {
    let mut user = json!({ "name": p.name, "id": p.name.to_lowercase() });
    if let Some(title) = &p.title {
        user["title"] = json!(title);
    }
    let mut player = json!({ "color": color, "user": user, "rating": p.rating });
    if let Some(ms) = clock_ms {
        player["seconds"] = json!(ms / 1000);
    }
    player
}

/// The placement and the side to move, as the feed writes a position.
fn feed_fen(view: &View) -> String {
    view.fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

fn featured_line(view: &View) -> Bytes {
    let clocks = view.clocks;
    let line = json!({ "t": "featured", "d": {
        "id": view.info.id,
        "orientation": "white",
        "players": [
            feed_player(&view.info.white, "white", clocks.map(|c| c[0])),
            feed_player(&view.info.black, "black", clocks.map(|c| c[1])),
        ],
        "fen": feed_fen(view),
    }});
    Bytes::from(format!("{line}\n"))
}

fn fen_line(view: &View) -> Bytes {
    let mut d = json!({ "fen": feed_fen(view), "lm": view.moves.last().map(|m| m.uci).unwrap_or_default() });
    if let Some([white, black]) = view.clocks {
        d["wc"] = json!(white / 1000);
        d["bc"] = json!(black / 1000);
    }
    Bytes::from(format!("{}\n", json!({ "t": "fen", "d": d })))
}

/// What a feed is showing.
struct Feed {
    games: Arc<Games>,
    channel: String,
    changes: Option<Changes>,
}

impl Feed {
    /// The next line: a move of the game shown, or the next game once it ended.
    async fn next(&mut self) -> Bytes {
        loop {
            match &mut self.changes {
                Some(changes) => match tokio::time::timeout(IDLE * 5, changes.next()).await {
                    Ok(Some(view)) if view.finish.is_none() => return fen_line(&view),
                    Ok(Some(view)) => {
                        self.changes = None;
                        return fen_line(&view);
                    }
                    Ok(None) => self.changes = None,
                    Err(_) => return Bytes::from_static(b"\n"),
                },
                None => match featured_now(&self.games, &self.channel).await {
                    Some(handle) => {
                        let (now, changes) = handle.follow_from_now().await;
                        self.changes = Some(changes);
                        return featured_line(&now);
                    }
                    None => {
                        tokio::time::sleep(IDLE).await;
                        return Bytes::from_static(b"\n");
                    }
                },
            }
        }
    }
}

/// Refuses a channel that is not one of [`CHANNELS`], naming them.
fn known_channel(channel: &str) -> Result<(), ApiError> {
    if CHANNELS.contains(&channel) {
        return Ok(());
    }
    Err(ApiError::NotFound(format!(
        "TV channel {channel:?}; the channels are {}",
        CHANNELS.join(", ")
    )))
}

/// How much a game on TV is worth watching: the players' ratings together,
/// then its length.
fn strength(b: &OnBoard) -> (u32, usize) {
    (b.white.rating + b.black.rating, b.plies)
}

fn feed(games: Arc<Games>, channel: &str) -> Result<Response, ApiError> {
    known_channel(channel)?;
    let feed = Feed {
        games,
        channel: channel.to_string(),
        changes: None,
    };
    let lines = futures_util::stream::unfold(feed, |mut feed| async move {
        let line = feed.next().await;
        Some((line, feed))
    });
    Ok(ndjson(lines))
}

/// lichess's TV feed: a `featured` line for the best game being played
/// (`{t: "featured", d: {id, orientation, players: [{color, user, rating,
/// seconds}], fen}}`), then a `fen` line for each move (`{t: "fen", d: {fen,
/// lm, wc, bc}}`); when the game ends, the next best one is featured. Empty
/// lines keep the stream open while nothing is played.
#[utoipa::path(get, path = "/api/tv/feed", tag = "games", security(()),
    responses((status = 200, description = "NDJSON lines", content_type = "application/x-ndjson")))]
async fn tv_feed(State(games): State<Arc<Games>>) -> Result<Response, ApiError> {
    feed(games, "best")
}

/// The TV feed of one channel: `best` (any game) or a speed (`bullet`,
/// `blitz`, `rapid`, `classical`, `correspondence`), as `/api/tv/feed`.
#[utoipa::path(get, path = "/api/tv/{channel}/feed", tag = "games", security(()),
    params(("channel" = String, Path, description = "`best`, `bullet`, `blitz`, `rapid`, `classical` or `correspondence`")),
    responses(
        (status = 200, description = "NDJSON lines", content_type = "application/x-ndjson"),
        (status = 404, description = "No such channel (the channels are named)", body = ErrorBody)))]
async fn channel_feed(
    State(games): State<Arc<Games>>,
    Path(channel): Path<String>,
) -> Result<Response, ApiError> {
    feed(games, &channel)
}

/// Which of a channel's games, and how.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChannelGamesQuery {
    /// How many games (1 to 30, default 10).
    pub nb: Option<u64>,
    /// lichess's export switches, taken as given: every game here is sent
    /// with its moves, tags, clocks and (in JSON) its PGN.
    pub moves: Option<bool>,
    /// As `moves`.
    pub pgn_in_json: Option<bool>,
    /// As `moves`.
    pub tags: Option<bool>,
    /// As `moves`.
    pub clocks: Option<bool>,
    /// As `moves`.
    pub opening: Option<bool>,
}

/// The best games being played on a channel (`best`: any speed), best first
/// (the highest-rated pair, then the longest): PGN, or NDJSON when asked.
#[utoipa::path(get, path = "/api/tv/{channel}", tag = "games", security(()),
    params(("channel" = String, Path, description = "`best`, `bullet`, `blitz`, `rapid`, `classical` or `correspondence`"), ChannelGamesQuery),
    responses(
        (status = 200, description = "PGN games, or NDJSON", content_type = "application/x-chess-pgn"),
        (status = 400, description = "nb out of range, or an unknown parameter", body = ErrorBody),
        (status = 404, description = "No such channel (the channels are named)", body = ErrorBody)))]
async fn channel_games(
    State(games): State<Arc<Games>>,
    State(exports): State<Arc<Exports>>,
    Path(channel): Path<String>,
    Params(q): Params<ChannelGamesQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    known_channel(&channel)?;
    let nb = match q.nb {
        None => 10,
        Some(n) if (1..=30).contains(&n) => n as usize,
        Some(n) => return Err(ApiError::BadRequest(format!("nb {n}: expected 1 to 30"))),
    };
    let mut boards: Vec<OnBoard> = games
        .on_board_everywhere()
        .await
        .into_iter()
        .filter(|b| channel == "best" || b.speed == channel)
        .collect();
    boards.sort_by_key(|b| std::cmp::Reverse(strength(b)));
    let ndjson = accepts(&headers, "application/x-ndjson");
    let site = site_of(&headers);
    let mut body = String::new();
    for board in boards.into_iter().take(nb) {
        let Ok(view) = exports.game(&board.id, &site).await else {
            continue;
        };
        if ndjson {
            body.push_str(&format!("{}\n", lichess::game_json(&view)));
        } else {
            body.push_str(&format!("{}\n", view.pgn.as_deref().unwrap_or_default()));
        }
    }
    let content_type = if ndjson {
        "application/x-ndjson"
    } else {
        "application/x-chess-pgn"
    };
    Ok(([(header::CONTENT_TYPE, content_type)], body).into_response())
}

/// The TV routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(tv))
        .routes(routes!(tv_channels))
        .routes(routes!(tv_feed))
        .routes(routes!(channel_feed))
        .routes(routes!(channel_games))
}
