//! The site itself: the web app's pages and files, liveness, metrics and this
//! API's OpenAPI document.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::assets::Assets;
use crate::metrics::Metrics;
use crate::services::events::UserEvents;
use crate::services::games::Games;
use crate::state::AppState;

/// The OpenAPI document as served.
pub struct Document(pub String);

/// Liveness: `ok` while the server serves.
#[utoipa::path(get, path = "/healthz", tag = "site", security(()),
    responses((status = 200, description = "`ok`", content_type = "text/plain", body = String)))]
async fn healthz() -> &'static str {
    "ok"
}

/// Counters in Prometheus text format: live games, moves, action and commit
/// latencies, open event streams.
#[utoipa::path(get, path = "/metrics", tag = "site", security(()),
    responses((status = 200, description = "Prometheus text format", content_type = "text/plain", body = String)))]
async fn metrics(
    State(metrics): State<Arc<Metrics>>,
    State(games): State<Arc<Games>>,
    State(events): State<Arc<UserEvents>>,
) -> Response {
    let (live, loaded) = games.counts();
    let text = metrics.render(&[
        ("caissa_live_games", "Games being played now.", live as u64),
        (
            "caissa_games_loaded",
            "Games held in memory.",
            loaded as u64,
        ),
        (
            "caissa_event_streams",
            "Open /api/stream/event streams.",
            events.open_streams() as u64,
        ),
    ]);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

/// This document: every route of the API, generated from the code.
#[utoipa::path(get, path = "/api/openapi.json", tag = "site", security(()),
    responses((status = 200, description = "OpenAPI 3.1", body = Object)))]
async fn openapi(Extension(document): Extension<Arc<Document>>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        document.0.clone(),
    )
        .into_response()
}

/// A file of the web app (scripts, styles, pieces, translations).
#[utoipa::path(get, path = "/static/{*path}", tag = "site", security(()),
    params(("path" = String, Path, description = "The file, relative to the web app's folder")),
    responses((status = 200, description = "The file"), (status = 404, description = "No such file", body = crate::routes::docs::ErrorBody)))]
async fn static_file(
    State(assets): State<Arc<Assets>>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    assets.file(&path, takes_gzip(&headers))
}

/// Whether the client said it takes gzip.
pub fn takes_gzip(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")))
}

/// Pages of the web app: each answers with the page shell, whose script shows
/// the page for the address.
macro_rules! pages {
    ($($name:ident $path:literal $what:literal;)*) => {
        $(
            #[doc = $what]
            #[utoipa::path(get, path = $path, tag = "web app", security(()),
                responses((status = 200, description = "The web app's page", content_type = "text/html")))]
            async fn $name(State(assets): State<Arc<Assets>>, headers: HeaderMap) -> Response {
                assets.page(takes_gzip(&headers))
            }
        )*

        fn pages(router: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
            router $(.routes(routes!($name)))*
        }
    };
}

pages! {
    lobby_page "/" "The lobby: seeks, quick pairing, the computer.";
    game_page "/game/{id}" "A game, live or finished.";
    game_color_page "/game/{id}/{color}" "A game seen from one side.";
    profile_page "/@/{username}" "A player's profile.";
    tv_page "/tv" "The best live game.";
    watch_page "/watch" "Live games to watch.";
    analysis_page "/analysis" "The analysis board.";
    login_page "/login" "Signing in.";
    register_page "/register" "Making an account.";
    settings_page "/settings" "Settings and API tokens.";
    account_page "/account" "The account: password, blocked players, closing it.";
    learn_page "/learn" "Lessons: learn chess from the first move to checkmate.";
    learn_lesson_page "/learn/{id}" "A lesson.";
    training_page "/training" "Puzzles: find the best move, at one's own level.";
    training_daily_page "/training/daily" "The puzzle of the day.";
    training_streak_page "/training/streak" "Puzzle streak: unrated puzzles getting harder until one mistake.";
    training_theme_page "/training/theme/{angle}" "Puzzles of one theme or opening.";
    training_puzzle_page "/training/{id}" "One puzzle.";
    challenge_page "/challenge/{id}" "An open challenge, to accept.";
    arbiter_page "/arbiter" "The arbiter's console: the games one arbitrates.";
    tournaments_page "/tournaments" "Tournaments: upcoming, running, finished; creating one.";
    leaderboard_page "/leaderboard" "The best players at each speed.";
    tournament_page "/tournament/{id}" "A tournament: standings, pairings, crosstable.";
    tournament_tv_page "/tournament/{id}/tv" "A tournament's top board, live.";
}

/// The site's routes.
pub fn router() -> OpenApiRouter<AppState> {
    pages(
        OpenApiRouter::new()
            .routes(routes!(healthz))
            .routes(routes!(metrics))
            .routes(routes!(openapi))
            .routes(routes!(static_file)),
    )
}
