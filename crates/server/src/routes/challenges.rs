//! Challenges over the API, as lichess has them: to a user, open (a link anyone
//! may accept), to the computer; shown, listed, accepted, declined, cancelled.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use caissa_arbiter::{GameSetup, Ruleset};
use caissa_rules::Color;
use caissa_store::User;
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::challenge::{Challenge, Terms};
use crate::domain::new_id;
use crate::http::error::ApiError;
use crate::http::fields::Fields;
use crate::http::limits::{Kind, RateLimits};
use crate::live::view::{now_ms, GameSource};
use crate::protocol::lichess;
use crate::routes::docs::{ok, ErrorBody, OkBody};
use crate::routes::session::Authed;
use crate::routes::terms::{self, ChallengeForm};
use crate::services::accounts::{is_guest, Accounts};
use crate::services::arbiters::Arbiters;
use crate::services::challenges::{Cancelled, Challenges};
use crate::services::computer::Computer;
use crate::services::games::Games;
use crate::services::tokens::Tokens;
use crate::state::AppState;

/// A challenge from the request's fields (the clock, colour, rated, ruleset,
/// starting position).
fn new_challenge(
    limits: &RateLimits,
    user: User,
    dest: Option<User>,
    f: ChallengeForm,
) -> Result<Challenge, ApiError> {
    if dest.is_none() && f.accept_by_token.is_some() {
        return Err(ApiError::BadRequest(
            "acceptByToken: only a challenge to a user can be accepted by their token".into(),
        ));
    }
    let time_control = terms::challenge_clock(&f)?;
    let time_control = terms::clock_extras(
        time_control,
        f.clock_per_move,
        f.clock_delay,
        f.clock_delay_type,
    )?;
    let ruleset = f.ruleset.unwrap_or(Ruleset::Online);
    let color = f.color.unwrap_or_default();
    let rated = f.rated.unwrap_or(false);
    if rated && time_control.is_unlimited() {
        return Err(ApiError::BadRequest(
            "a game without a clock cannot be rated".into(),
        ));
    }
    let (fen, chess960) = terms::starting_position(f.variant, f.fen.as_deref())?;
    if rated && fen.is_some() {
        return Err(ApiError::BadRequest(
            "only standard games from the usual start can be rated".into(),
        ));
    }
    if rated && is_guest(&user) {
        return Err(ApiError::Forbidden(
            "guests cannot play rated games; register to play one".into(),
        ));
    }
    limits.take(user.id, Kind::Seek)?;
    Ok(Challenge {
        id: new_id(),
        challenger: user,
        dest,
        terms: Terms {
            time_control,
            challenger_color: Some(color.draw()),
            color,
            rated,
            ruleset,
            rematch_of: None,
            fen,
            chess960,
            arbiters: Vec::new(),
            arbiter_names: Vec::new(),
        },
        created_at: now_ms(),
        ratings: Default::default(),
    })
}

/// The accounts named in a challenge's `arbiters` field (ids and names): each
/// must exist and play no part in the game, and a rated game's arbiters must
/// hold the operator's arbiter right (a player cannot appoint the judge of a
/// result that counts).
async fn named_arbiters(
    accounts: &Accounts,
    arbiters: &Arbiters,
    form: &ChallengeForm,
    players: &[&User],
) -> Result<(Vec<i64>, Vec<String>), ApiError> {
    let names: Vec<&str> = form
        .arbiters
        .as_deref()
        .unwrap_or_default()
        .split([',', ' '])
        .filter(|n| !n.is_empty())
        .collect();
    if names.len() > 5 {
        return Err(ApiError::BadRequest("arbiters: at most 5".into()));
    }
    let rated = form.rated.unwrap_or(false);
    let mut ids = Vec::new();
    let mut shown = Vec::new();
    for name in names {
        let user = accounts
            .by_name(name)
            .await?
            .ok_or_else(|| ApiError::BadRequest(format!("arbiters: no user named {name:?}")))?;
        if players.iter().any(|p| p.id == user.id) {
            return Err(ApiError::BadRequest(format!(
                "arbiters: {} plays this game and cannot arbitrate it",
                user.name
            )));
        }
        if rated && !arbiters.is_arbiter(user.id).await? {
            return Err(ApiError::BadRequest(format!(
                "arbiters: {} may not arbitrate a rated game (only accounts the operator made arbiters may)",
                user.name
            )));
        }
        if !ids.contains(&user.id) {
            ids.push(user.id);
            shown.push(user.name);
        }
    }
    Ok((ids, shown))
}

/// Challenges a user to a game: the challenged player hears of it on their event
/// stream and accepts or declines it.
#[utoipa::path(post, path = "/api/challenge/{username}", tag = "challenges",
    params(("username" = String, Path, description = "Who is challenged")),
    request_body(content((ChallengeForm = "application/x-www-form-urlencoded"), (ChallengeForm = "application/json"))),
    responses(
        (status = 200, description = "The challenge, as lichess shows it (`status: accepted` when `acceptByToken` started the game, whose id is the challenge's)", body = Object),
        (status = 400, description = "A wrong field, named, or an `acceptByToken` that is not the challenged player's", body = ErrorBody),
        (status = 403, description = "A guest asking for a rated game, or an `acceptByToken` without a scope to answer challenges", body = ErrorBody),
        (status = 404, description = "No such user", body = ErrorBody),
        (status = 429, description = "Too many challenges (made lately, or waiting for or from either player)", body = ErrorBody)))]
#[allow(clippy::too_many_arguments)] // one extractor per service, as axum takes them
async fn create(
    State(accounts): State<Arc<Accounts>>,
    State(tokens): State<Arc<Tokens>>,
    State(arbiters): State<Arc<Arbiters>>,
    State(challenges): State<Arc<Challenges>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(username): Path<String>,
    Fields(form): Fields<ChallengeForm>,
) -> Result<Json<Value>, ApiError> {
    let dest = accounts.named(&username).await?;
    if dest.id == user.id {
        return Err(ApiError::BadRequest("you cannot challenge yourself".into()));
    }
    let (ids, names) = named_arbiters(&accounts, &arbiters, &form, &[&user, &dest]).await?;
    let accepting = match form.accept_by_token.as_deref() {
        Some(token) => Some(accepting_player(&tokens, token, &dest).await?),
        None => None,
    };
    let mut challenge = new_challenge(&limits, user, Some(dest), form)?;
    challenge.terms.arbiters = ids;
    challenge.terms.arbiter_names = names;
    let challenge = challenges.offer(challenge).await?;
    let mut answer = lichess::challenge_json(&challenge, "out");
    let id = challenge.id.clone();
    if let Some(dest) = accepting {
        challenges.accept(&id, &dest).await?;
        answer["status"] = json!("accepted");
    }
    Ok(Json(answer))
}

/// The challenged player, from the token given as `acceptByToken`: it must
/// be theirs and allowed to answer challenges.
async fn accepting_player(tokens: &Tokens, token: &str, dest: &User) -> Result<User, ApiError> {
    let (user, scopes) = tokens.user_of(token).await.map_err(|e| match e {
        ApiError::Unauthorized => ApiError::BadRequest("acceptByToken: an unknown token".into()),
        e => e,
    })?;
    if user.id != dest.id {
        return Err(ApiError::BadRequest(format!(
            "acceptByToken: not a token of {}",
            dest.name
        )));
    }
    let answers = ["challenge:write", "board:play", "bot:play"];
    if !scopes.split([' ', ',']).any(|s| answers.contains(&s)) {
        return Err(ApiError::Forbidden(
            "acceptByToken: the token needs challenge:write, board:play or bot:play".into(),
        ));
    }
    Ok(user)
}

/// A challenge anyone with the link may accept (the answer's `url` is the page
/// that offers it).
#[utoipa::path(post, path = "/api/challenge/open", tag = "challenges",
    request_body(content((ChallengeForm = "application/x-www-form-urlencoded"), (ChallengeForm = "application/json"))),
    responses(
        (status = 200, description = "The challenge, its `url` the page to accept it", body = Object),
        (status = 400, description = "A wrong field, named", body = ErrorBody)))]
async fn open(
    State(accounts): State<Arc<Accounts>>,
    State(arbiters): State<Arc<Arbiters>>,
    State(challenges): State<Arc<Challenges>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Fields(form): Fields<ChallengeForm>,
) -> Result<Json<Value>, ApiError> {
    let (ids, names) = named_arbiters(&accounts, &arbiters, &form, &[&user]).await?;
    let mut challenge = new_challenge(&limits, user, None, form)?;
    challenge.terms.arbiters = ids;
    challenge.terms.arbiter_names = names;
    let challenge = challenges.offer(challenge).await?;
    let mut answer = lichess::challenge_json(&challenge, "out");
    answer["url"] = json!(format!("/challenge/{}", challenge.id));
    Ok(Json(answer))
}

/// An open or direct challenge, for its page.
#[utoipa::path(get, path = "/api/challenge/{id}/show", tag = "challenges", security(()),
    params(("id" = String, Path, description = "The challenge")),
    responses(
        (status = 200, description = "The challenge", body = Object),
        (status = 404, description = "Accepted, declined or withdrawn", body = ErrorBody)))]
async fn show(
    State(challenges): State<Arc<Challenges>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let c = challenges.get(&id).ok_or_else(|| {
        ApiError::NotFound(format!("challenge {id} (accepted, declined or withdrawn)"))
    })?;
    Ok(Json(lichess::challenge_json(&c, "in")))
}

/// The challenges waiting for the user's answer (`in`) and those the user made
/// (`out`).
#[utoipa::path(get, path = "/api/challenge", tag = "challenges",
    responses((status = 200, description = "`{in: [challenge], out: [challenge]}`", body = Object)))]
async fn list(State(challenges): State<Arc<Challenges>>, Authed(user): Authed) -> Json<Value> {
    let incoming: Vec<Value> = challenges
        .waiting(|c| c.is_for(user.id))
        .iter()
        .map(|c| lichess::challenge_json(c, "in"))
        .collect();
    let outgoing: Vec<Value> = challenges
        .waiting(|c| c.challenger.id == user.id)
        .iter()
        .map(|c| lichess::challenge_json(c, "out"))
        .collect();
    Json(json!({ "in": incoming, "out": outgoing }))
}

/// Accepts a challenge; its game starts at once, under the challenge's id.
#[utoipa::path(post, path = "/api/challenge/{id}/accept", tag = "challenges",
    params(("id" = String, Path, description = "The challenge")),
    responses(
        (status = 200, description = "The game has started", body = OkBody),
        (status = 403, description = "Not for this user (or a guest and a rated game)", body = ErrorBody),
        (status = 404, description = "No such challenge", body = ErrorBody),
        (status = 409, description = "Accepted already", body = ErrorBody)))]
async fn accept(
    State(challenges): State<Arc<Challenges>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    challenges.accept(&id, &user).await?;
    Ok(ok())
}

/// Why a challenge is declined.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DeclineForm {
    /// lichess's reason key: `generic` (default), `later`, `tooFast`, `tooSlow`,
    /// `timeControl`, `rated`, `casual`, `standard`, `variant`, `noBot`,
    /// `onlyBot`, in any case (events write it in lower case; another word
    /// is `generic`, as on lichess).
    pub reason: Option<String>,
}

/// Declines a challenge (the challenger hears why); declining one's own withdraws it.
#[utoipa::path(post, path = "/api/challenge/{id}/decline", tag = "challenges",
    params(("id" = String, Path, description = "The challenge")),
    request_body(content((DeclineForm = "application/x-www-form-urlencoded"), (DeclineForm = "application/json"))),
    responses(
        (status = 200, description = "Declined", body = OkBody),
        (status = 400, description = "A reason that is not a word", body = ErrorBody),
        (status = 404, description = "No such challenge", body = ErrorBody)))]
async fn decline(
    State(challenges): State<Arc<Challenges>>,
    Authed(user): Authed,
    Path(id): Path<String>,
    Fields(form): Fields<DeclineForm>,
) -> Result<Json<Value>, ApiError> {
    let reason = form.reason.unwrap_or_else(|| "generic".into());
    if reason.len() > 32 || !reason.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(ApiError::BadRequest(format!(
            "reason: {reason:?} must be a word such as generic, later or tooFast"
        )));
    }
    challenges.decline(&id, user.id, &reason).await?;
    Ok(ok())
}

/// The challenger withdraws a challenge (or, once it is accepted, aborts its
/// game while that is allowed).
#[utoipa::path(post, path = "/api/challenge/{id}/cancel", tag = "challenges",
    params(("id" = String, Path, description = "The challenge")),
    responses(
        (status = 200, description = "Withdrawn, or its game aborted", body = OkBody),
        (status = 403, description = "Not the challenger", body = ErrorBody),
        (status = 404, description = "No such challenge", body = ErrorBody)))]
async fn cancel(
    State(challenges): State<Arc<Challenges>>,
    State(limits): State<Arc<RateLimits>>,
    Authed(user): Authed,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    match challenges.cancel(&id, user.id).await? {
        Cancelled::Withdrawn => Ok(ok()),
        // As lichess: cancelling an accepted challenge aborts its game if that is
        // still allowed (no moves yet).
        Cancelled::Accepted(game) => {
            limits.take(user.id, Kind::GameAction)?;
            game.act(user.id, caissa_arbiter::Action::Abort, None)
                .await?;
            Ok(ok())
        }
    }
}

/// A game against the computer.
#[utoipa::path(post, path = "/api/challenge/ai", tag = "challenges",
    request_body(content((ChallengeForm = "application/x-www-form-urlencoded"), (ChallengeForm = "application/json")),
        description = "`level` (1-8), `clock.limit`, `clock.increment`, `color`, `variant`, `fen`"),
    responses(
        (status = 200, description = "The game, as `/game/export/{id}` gives it in JSON", body = Object),
        (status = 400, description = "A wrong field, named", body = ErrorBody)))]
async fn ai(
    State(accounts): State<Arc<Accounts>>,
    State(games): State<Arc<Games>>,
    State(computer): State<Arc<Computer>>,
    Authed(user): Authed,
    Fields(f): Fields<ChallengeForm>,
) -> Result<Json<Value>, ApiError> {
    if f.accept_by_token.is_some() {
        return Err(ApiError::BadRequest(
            "acceptByToken: the computer accepts by itself".into(),
        ));
    }
    let level = f.level.unwrap_or(1);
    if !(1..=8).contains(&level) {
        return Err(ApiError::BadRequest(format!(
            "level: {level} must be from 1 to 8"
        )));
    }
    let time_control = match f.clock_limit {
        Some(limit) => {
            let increment = f.clock_increment.unwrap_or(0);
            if limit > terms::MAX_LIMIT_S
                || increment > terms::MAX_INCREMENT_S
                || limit + increment == 0
            {
                return Err(ApiError::BadRequest(format!(
                    "clock.limit must be 0-{} s and clock.increment 0-{} s, not both 0",
                    terms::MAX_LIMIT_S,
                    terms::MAX_INCREMENT_S
                )));
            }
            terms::fischer(limit * 1000, increment * 1000)
        }
        None => caissa_arbiter::TimeControl::unlimited(),
    };
    let computer_user = accounts.computer().await?;
    let human_white = f.color.unwrap_or_default().draw() == Color::White;
    let (white, black) = if human_white {
        (&user, &computer_user)
    } else {
        (&computer_user, &user)
    };
    let mut setup = GameSetup::new(&white.name, &black.name, Ruleset::Online, time_control);
    (setup.fen, setup.chess960) = terms::starting_position(f.variant, f.fen.as_deref())?;
    let handle = games
        .start(
            new_id(),
            (white.id, white.name.clone()),
            (black.id, black.name.clone()),
            setup,
            false,
            GameSource::Ai(level as u8),
        )
        .await?;
    let computer_color = if human_white {
        Color::Black
    } else {
        Color::White
    };
    computer.drive(
        handle.clone(),
        computer_user.id,
        computer_color,
        level as u8,
    );
    Ok(Json(lichess::game_json(&handle.view())))
}

/// The challenge routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(ai))
        .routes(routes!(open))
        .routes(routes!(create))
        .routes(routes!(show))
        .routes(routes!(accept))
        .routes(routes!(decline))
        .routes(routes!(cancel))
}
