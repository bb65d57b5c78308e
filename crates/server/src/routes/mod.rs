//! The HTTP API: one router per resource, each route documented where it is
//! declared (`#[utoipa::path]`), so the OpenAPI document at `/api/openapi.json`
//! is generated from the code and cannot miss a route.

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::{Extension, Router};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::http::{edges, log, security};
use crate::state::AppState;

pub mod account;
pub mod analysis;
pub mod arbiter;
pub mod arena;
pub mod board;
pub mod bot;
pub mod challenges;
pub mod docs;
pub mod games;
pub mod hub;
pub mod internal;
pub mod learn;
pub mod lobby;
pub mod puzzles;
pub mod safety;
pub mod session;
pub mod site;
pub mod socket;
pub mod streams;
pub mod terms;
pub mod tokens;
pub mod tournament_json;
pub mod tournaments;
pub mod tv;
pub mod users;

/// The largest request body any endpoint takes.
const BODY_LIMIT: usize = 64 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Caissa API",
        description = "Self-hosted chess server. Where it overlaps, the API follows the lichess API, so existing lichess clients work with their base URL pointed at Caissa.\n\n\
Authentication: `Authorization: Bearer <token>` (tokens from `caissa token create`, or made by a signed-in user with `POST /api/token`), or a browser session (cookie, with the CSRF token in `X-CSRF-Token` on every change). Tokens are scoped as on lichess: `board:play` for `/api/board/*`, the arbiter's actions (`POST /api/arbiter/*`), a player's game socket and taking a lobby seek; `challenge:read` for reading challenges; `challenge:write` (or `board:play`) for making and answering them; `bot:play` for the Bot API (`/api/bot/*`, for an account upgraded with `POST /api/bot/account/upgrade`, titled `BOT`), which also answers and makes challenges; `/api/stream/event` takes board:play, bot:play or challenge:read; everything else needs only a valid token; lichess's other scope names (`email:read`, `preference:read` ...) may be given to a token and need nothing. A missing scope is a 403 naming it.\n\n\
Requests: every endpoint that takes fields takes them as a form (`application/x-www-form-urlencoded`) or as a JSON object (nested objects give dotted names: `{\"clock\": {\"limit\": 300}}` is `clock.limit=300`). A wrong field is a 400 naming it.\n\n\
The arbiter's seat (Laws 12): an account granted the `arbiter` right by the operator (`caissa user grant NAME arbiter`), or named in a challenge's `arbiters` field, acts on a game through `/api/arbiter/game/{id}/{action}` (403 for anyone else and for the game's players). Every action is recorded with the arbiter's name and reason and appears in the `gameState` of streams and sockets, each field only when it applies: `arbiter` (every action: `{arbiter, action, reason, ply, at}`), `paused`, `adjournmentCalled`, `adjourned` (`{sealedBy, resumeAt, proposed: {by, at}}`; the sealed move itself is never shown until the envelope is opened), `pending` (`{noProgressClaim, incrementRequest}`: claims waiting for the arbiter), `warnings` (`{white, black}`) and `score` (an arbiter's `0-0`, `1/2-0` or `0-1/2`, which the PGN `Result` writes as `*`); the PGN has each action as a comment after the move it followed. Players seal a move with `POST /api/board/game/{id}/seal` (field `move`) (socket `{\"t\":\"seal\",\"move\":\"Nf3\"}`), propose when to resume with `/api/board/game/{id}/resume` (`{\"t\":\"propose-resumption\",\"at\":ms}`), and make the Guidelines III requests with `/request-increment` and `/claim-no-progress` (`{\"t\":\"request-increment\"}`, `{\"t\":\"claim-no-progress\"}`).\n\n\
Errors: JSON `{\"error\": \"...\"}` with 400 (bad input), 401 (no or unknown token or session), 403 (not allowed), 404, 409 (the state moved on: not your turn, the game is over, a stale ply), 413 (body too large), 429 (with `Retry-After`), 503 (overloaded or storage stopped; with `Retry-After`), 500 (the server's fault; details only in its log). Streams are NDJSON (one JSON object per line, empty lines as keep-alives)."
    ),
    components(schemas(docs::ErrorBody, docs::OkBody)),
    modifiers(&BearerScheme),
    security(("bearer" = []))
)]
struct ApiDoc;

struct BearerScheme;

impl utoipa::Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// Every route, with its documentation.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(site::router())
        .merge(account::router())
        .merge(tokens::router())
        .merge(learn::router())
        .merge(puzzles::router())
        .merge(safety::router())
        .merge(users::router())
        .merge(challenges::router())
        .merge(lobby::router())
        .merge(board::router())
        .merge(bot::router())
        .merge(streams::router())
        .merge(socket::router())
        .merge(games::router())
        .merge(tv::router())
        .merge(analysis::router())
        .merge(arbiter::router())
        .merge(tournaments::router())
        .merge(arena::router())
        .merge(internal::router())
}

/// The OpenAPI document of [`routes`], its path templates written as OpenAPI
/// writes them (`/static/{path}`, not axum's `{*path}`).
pub fn openapi() -> utoipa::openapi::OpenApi {
    tidy(routes().into_openapi())
}

fn tidy(mut api: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    let paths = std::mem::take(&mut api.paths.paths);
    api.paths.paths = paths
        .into_iter()
        .map(|(path, item)| (path.replace("{*", "{"), item))
        .collect();
    api
}

/// The whole API: every route, the JSON error bodies for what no route answers,
/// the security headers and the request log.
pub fn app(state: AppState) -> Router {
    let (router, api) = routes().split_for_parts();
    let cluster = state.cluster.clone();
    let document = Arc::new(site::Document(
        serde_json::to_string_pretty(&tidy(api)).unwrap_or_default(),
    ));
    router
        .fallback(edges::not_found)
        .method_not_allowed_fallback(edges::method_not_allowed)
        .layer(from_fn_with_state(cluster, hub::to_hub))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(from_fn(edges::json_errors))
        .layer(from_fn(security::security_headers))
        .layer(from_fn(log::log_requests))
        .layer(Extension(document))
        .with_state(state)
}
