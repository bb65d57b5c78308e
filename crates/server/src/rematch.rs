//! Rematches and takebacks over HTTP (lichess Board API style). A rematch offer is a
//! challenge to the same opponent with the same terms and colours swapped, marked
//! `rematchOf`; offering while the opponent's offer is open accepts it.

use axum::extract::{Path, State};
use axum::Json;
use caissa_arbiter::Action;
use serde_json::{json, Value};

use crate::auth::Authed;
use crate::error::ApiError;
use crate::{AppState, Challenge, LiveOrStored};

/// `POST /api/board/game/{id}/takeback/{yes|no}`: propose or accept a takeback, or
/// decline or withdraw one.
pub async fn takeback(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let action = match answer.as_str() {
        "yes" => Action::ProposeTakeback,
        // As lichess: nothing to decline or withdraw is not an error.
        "no" if state.playable(&id).await?.view().takeback.is_none() => {
            return Ok(Json(json!({ "ok": true })))
        }
        "no" => Action::DeclineTakeback,
        other => {
            return Err(ApiError::BadRequest(format!(
                "takeback/{other}: say yes or no"
            )))
        }
    };
    crate::api::act(&state, &id, user.id, action).await
}

/// `POST /api/board/game/{id}/rematch/{yes|no}`: offer or accept a rematch of a
/// finished game, or decline or withdraw the offer.
pub async fn rematch(
    State(state): State<AppState>,
    Authed(user): Authed,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    // Live, or finished and only in the store (from before a restart).
    let view = match state.live_or_stored(&id).await? {
        LiveOrStored::Live(handle) => handle.view(),
        LiveOrStored::Stored(view) => view,
    };
    let me = if view.white.id == user.id {
        caissa_rules::Color::White
    } else if view.black.id == user.id {
        caissa_rules::Color::Black
    } else {
        return Err(ApiError::Forbidden("you are not playing this game".into()));
    };
    if view.finish.is_none() {
        return Err(ApiError::BadRequest(
            "a rematch can be offered once the game is over".into(),
        ));
    }
    // One game at a time between the two: not a second rematch beside the first.
    let opponent_id = if me == caissa_rules::Color::White {
        view.black.id
    } else {
        view.white.id
    };
    if answer == "yes" {
        let playing = state.games_of(user.id).into_iter().find(|g| {
            let v = g.view();
            v.white.id == opponent_id || v.black.id == opponent_id
        });
        if let Some(game) = playing {
            return Err(ApiError::BadRequest(format!(
                "you are already playing each other: game {}",
                game.view().id
            )));
        }
    }
    let opponent = if me == caissa_rules::Color::White {
        &view.black
    } else {
        &view.white
    };
    // The open offer for this game, if any, and who made it.
    let pending = {
        let challenges = state
            .inner
            .challenges
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        challenges
            .values()
            .find(|c| c.rematch_of.as_deref() == Some(id.as_str()))
            .map(|c| (c.id.clone(), c.challenger.id))
    };
    match (answer.as_str(), pending) {
        ("yes", Some((challenge, by))) if by != user.id => {
            let c = crate::api::take_challenge(&state, &challenge, &user)?;
            state.forget_challenge(&c.id).await;
            let game = c.id.clone();
            crate::api::start_challenge(&state, c).await?;
            Ok(Json(json!({ "gameId": game })))
        }
        ("yes", Some((challenge, _))) => Ok(Json(json!({ "ok": true, "challenge": challenge }))),
        ("yes", None) => {
            state
                .inner
                .limits
                .take(user.id, crate::limits::Kind::Seek)?;
            let dest = state
                .store
                .user_by_id(opponent.id)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("user {}", opponent.name)))?;
            let challenge = Challenge {
                id: crate::new_id(),
                challenger: user,
                dest: Some(dest),
                time_control: view.setup.time_control.clone(),
                // Colours swapped: I take the colour my opponent had.
                color: (!me).name().to_string(),
                final_color: !me,
                rated: view.rated,
                ruleset: view.setup.ruleset,
                created_at: crate::live::now_ms(),
                rematch_of: Some(id.clone()),
                // The same position again (a new Chess960 one would be a new game).
                fen: view.setup.fen.clone(),
                chess960: view.setup.chess960,
            };
            let answer = json!({ "ok": true, "challenge": challenge.id });
            crate::api::offer_challenge(&state, challenge).await?;
            Ok(Json(answer))
        }
        ("no", Some((challenge, by))) => {
            let c = state
                .inner
                .challenges
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&challenge);
            if let Some(c) = c {
                state.forget_challenge(&c.id).await;
                // The offerer withdraws it, or the opponent declines it.
                if by == user.id {
                    crate::api::cancelled(&state, &c);
                } else {
                    crate::api::declined(&state, &c, "generic");
                }
            }
            Ok(Json(json!({ "ok": true })))
        }
        ("no", None) => Ok(Json(json!({ "ok": true }))),
        (other, _) => Err(ApiError::BadRequest(format!(
            "rematch/{other}: say yes or no"
        ))),
    }
}
