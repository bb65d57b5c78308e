//! lichess's Bot API: an account upgraded to a bot (title `BOT`, for ever)
//! plays through `/api/bot/game/...` with a `bot:play` token, as the Board API
//! plays through `/api/board/game/...`; the actions are the Board API's own.
//! Bots challenge and accept challenges, and play bots or people; they do not
//! seek in the lobby or the quick-pairing pools (as on lichess).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::Json;
use caissa_store::{GameFilter, User};
use futures_util::stream;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::ApiError;
use crate::http::fields::{Fields, Params};
use crate::http::limits::RateLimits;
use crate::routes::board::{self, ChatForm, MoveQuery};
use crate::routes::docs::{ok, ErrorBody, OkBody};
use crate::routes::session::Authed;
use crate::routes::streams::{ndjson, stream_game};
use crate::services::accounts::{is_bot, is_guest, Accounts, BOT};
use crate::services::chat::Chat;
use crate::services::events::UserEvents;
use crate::services::games::Games;
use crate::services::ratings::Ratings;
use crate::services::safety::Safety;
use crate::services::tokens::Tokens;
use crate::state::AppState;

/// Refuses anyone but a bot account.
fn bot(user: User) -> Result<User, ApiError> {
    if is_bot(&user) {
        Ok(user)
    } else {
        Err(ApiError::Forbidden(
            "the Bot API is for bot accounts: upgrade one that has played no game with \
             POST /api/bot/account/upgrade, or play with the Board API (/api/board/)"
                .into(),
        ))
    }
}

/// Makes the account a bot account, for ever: only one that has played no
/// game (as on lichess), and not a guest.
#[utoipa::path(post, path = "/api/bot/account/upgrade", tag = "bot",
    responses(
        (status = 200, description = "The account is a bot now", body = OkBody),
        (status = 400, description = "Already a bot, a guest, or an account that has played games", body = ErrorBody),
        (status = 403, description = "The token lacks bot:play", body = ErrorBody)))]
async fn upgrade(
    State(tokens): State<Arc<Tokens>>,
    State(accounts): State<Arc<Accounts>>,
    Authed(user): Authed,
) -> Result<Json<Value>, ApiError> {
    if is_bot(&user) {
        return Err(ApiError::BadRequest(
            "this account is already a bot account".into(),
        ));
    }
    if is_guest(&user) {
        return Err(ApiError::BadRequest(
            "a guest cannot become a bot; register an account".into(),
        ));
    }
    let any = GameFilter {
        finished: true,
        ongoing: true,
        limit: 1,
        ..GameFilter::default()
    };
    if !accounts.game_ids(user.id, &any).await?.is_empty() {
        return Err(ApiError::BadRequest(
            "only an account that has played no game can become a bot account".into(),
        ));
    }
    if !accounts.give_title(user.id, BOT).await? {
        return Err(ApiError::BadRequest(
            "this account already has a title".into(),
        ));
    }
    tokens.user_changed(user.id).await?;
    Ok(ok())
}

/// How many bots to list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct OnlineQuery {
    /// At most this many (1 to 300, default 50).
    pub nb: Option<u64>,
}

/// The bots online now (with their event stream open on any node), as
/// lichess's users, one per line.
#[utoipa::path(get, path = "/api/bot/online", tag = "bot", security(()),
    params(OnlineQuery),
    responses(
        (status = 200, description = "NDJSON lines `{id, username, title, createdAt, perfs}`", content_type = "application/x-ndjson"),
        (status = 400, description = "nb out of range, or an unknown parameter", body = ErrorBody)))]
async fn online(
    State(events): State<Arc<UserEvents>>,
    State(accounts): State<Arc<Accounts>>,
    State(ratings): State<Arc<Ratings>>,
    Params(query): Params<OnlineQuery>,
) -> Result<Response, ApiError> {
    let nb = match query.nb {
        None => 50,
        Some(n) if (1..=300).contains(&n) => n as usize,
        Some(n) => return Err(ApiError::BadRequest(format!("nb {n}: expected 1 to 300"))),
    };
    let mut lines = Vec::new();
    for id in events.listening_everywhere().await {
        if lines.len() == nb {
            break;
        }
        let Some(user) = accounts.by_id(id).await? else {
            continue;
        };
        if is_bot(&user) {
            let line = json!({
                "id": user.name.to_lowercase(),
                "username": user.name,
                "title": BOT,
                "createdAt": user.created_at,
                "perfs": ratings.perfs(user.id).await?,
            });
            lines.push(Bytes::from(format!("{line}\n")));
        }
    }
    Ok(ndjson(stream::iter(lines)))
}

/// The game's stream for its bot player: `gameFull`, then `gameState` and
/// `chatLine`, as the Board API's.
#[utoipa::path(get, path = "/api/bot/game/stream/{id}", tag = "bot",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "NDJSON lines", content_type = "application/x-ndjson"),
        (status = 403, description = "Not a bot account", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody)))]
async fn game_stream(
    State(games): State<Arc<Games>>,
    State(safety): State<Arc<Safety>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let user = bot(user)?;
    stream_game(&games, &safety, &id, Some(user.id)).await
}

/// Plays a move (UCI) and presses the clock, with `offeringDraw` as the Board API.
#[utoipa::path(post, path = "/api/bot/game/{id}/move/{move}", tag = "bot",
    params(("id" = String, Path, description = "The game"), ("move" = String, Path, description = "The move in UCI (e2e4, e7e8q, e1g1)"), MoveQuery),
    responses(
        (status = 200, description = "Played (and durable)", body = OkBody),
        (status = 400, description = "Not a move, or an illegal one", body = ErrorBody),
        (status = 403, description = "Not a bot account, or not a player of this game", body = ErrorBody),
        (status = 409, description = "Not your turn, or the game is over", body = ErrorBody)))]
async fn make_move(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(path): Path<(String, String)>,
    query: Params<MoveQuery>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::make_move(State(games), State(limits), Authed(user), Path(path), query).await
}

/// Resigns the game.
#[utoipa::path(post, path = "/api/bot/game/{id}/resign", tag = "bot",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Resigned", body = OkBody),
        (status = 403, description = "Not a bot account", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody)))]
async fn resign(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::resign(State(games), State(limits), Authed(user), Path(id)).await
}

/// Aborts the game (before it really starts).
#[utoipa::path(post, path = "/api/bot/game/{id}/abort", tag = "bot",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Aborted", body = OkBody),
        (status = 400, description = "Too late to abort", body = ErrorBody),
        (status = 403, description = "Not a bot account", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody)))]
async fn abort(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::abort(State(games), State(limits), Authed(user), Path(id)).await
}

/// Offers or agrees to a draw (`yes`, or on one's turn claims one the rules
/// allow), or declines the opponent's offer (`no`), as the Board API.
#[utoipa::path(post, path = "/api/bot/game/{id}/draw/{accept}", tag = "bot",
    params(("id" = String, Path, description = "The game"), ("accept" = String, Path, description = "`yes` or `no`")),
    responses(
        (status = 200, description = "Offered, agreed, claimed or declined", body = OkBody),
        (status = 400, description = "Not `yes` or `no`", body = ErrorBody),
        (status = 403, description = "Not a bot account", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody)))]
async fn draw(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(path): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::draw(State(games), State(limits), Authed(user), Path(path)).await
}

/// Proposes or agrees to a takeback (`yes`), or declines one (`no`).
#[utoipa::path(post, path = "/api/bot/game/{id}/takeback/{accept}", tag = "bot",
    params(("id" = String, Path, description = "The game"), ("accept" = String, Path, description = "`yes` or `no`")),
    responses(
        (status = 200, description = "Proposed, agreed or declined", body = OkBody),
        (status = 400, description = "Not `yes` or `no`, or not allowed now", body = ErrorBody),
        (status = 403, description = "Not a bot account", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody)))]
async fn takeback(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(path): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::takeback(State(games), State(limits), Authed(user), Path(path)).await
}

/// Claims the game: the opponent has been gone long enough.
#[utoipa::path(post, path = "/api/bot/game/{id}/claim-victory", tag = "bot",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Won", body = OkBody),
        (status = 400, description = "The opponent has not been gone long enough", body = ErrorBody),
        (status = 403, description = "Not a bot account", body = ErrorBody)))]
async fn claim_victory(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::claim_victory(State(games), State(limits), Authed(user), Path(id)).await
}

/// Claims a draw: the opponent has been gone long enough.
#[utoipa::path(post, path = "/api/bot/game/{id}/claim-draw", tag = "bot",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "Drawn", body = OkBody),
        (status = 400, description = "The opponent has not been gone long enough", body = ErrorBody),
        (status = 403, description = "Not a bot account", body = ErrorBody)))]
async fn claim_draw(
    State(games): State<Arc<Games>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::claim_draw(State(games), State(limits), Authed(user), Path(id)).await
}

/// Writes a line in the players' or the spectators' room of a game.
#[utoipa::path(post, path = "/api/bot/game/{id}/chat", tag = "bot",
    params(("id" = String, Path, description = "The game")),
    request_body(content((ChatForm = "application/x-www-form-urlencoded"), (ChatForm = "application/json"))),
    responses(
        (status = 200, description = "Said", body = OkBody),
        (status = 400, description = "An unknown room, or an empty or too long text", body = ErrorBody),
        (status = 403, description = "Not a bot account", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody)))]
async fn chat_post(
    State(chat): State<Arc<Chat>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    form: Fields<ChatForm>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::chat_post(State(chat), Authed(user), Path(id), form).await
}

/// The last lines of a game's chat, oldest first: `[{user, text}]`.
#[utoipa::path(get, path = "/api/bot/game/{id}/chat", tag = "bot",
    params(("id" = String, Path, description = "The game")),
    responses(
        (status = 200, description = "`[{user, text}]`", body = Object),
        (status = 403, description = "Not a bot account", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody)))]
async fn chat_get(
    State(chat): State<Arc<Chat>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = bot(user)?;
    board::chat_get(State(chat), Authed(user), Path(id)).await
}

/// The Bot API's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(upgrade))
        .routes(routes!(online))
        .routes(routes!(game_stream))
        .routes(routes!(make_move))
        .routes(routes!(resign))
        .routes(routes!(abort))
        .routes(routes!(draw))
        .routes(routes!(takeback))
        .routes(routes!(claim_victory))
        .routes(routes!(claim_draw))
        .routes(routes!(chat_post, chat_get))
}
