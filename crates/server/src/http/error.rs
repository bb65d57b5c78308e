//! One error type for every handler, answered as `{"error": "..."}` with the status
//! that says whose fault it is: 4xx for the client's mistakes (with the words that
//! name what was wrong), 5xx for the server's (a generic body; the details go to
//! the log only, so storage errors never leak to clients).

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use caissa_arbiter::ActionError;
use caissa_store::StoreError;

/// What a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The input is wrong (a field, a move in no notation, an illegal move ...).
    #[error("{0}")]
    BadRequest(String),
    /// No or an unknown bearer token or session.
    #[error("missing or invalid bearer token")]
    Unauthorized,
    /// A login with a wrong name or password.
    #[error("wrong user name or password")]
    LoginFailed,
    /// The caller may not do this (not their game, a missing scope ...).
    #[error("{0}")]
    Forbidden(String),
    /// Nothing with this id or name.
    #[error("{0} not found")]
    NotFound(String),
    /// The request is right, but the state it acts on has moved on: not your turn,
    /// the game is over, a stale ply, a name taken.
    #[error("{0}")]
    Conflict(String),
    /// The body is larger than the endpoint takes.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// Too many requests; try again after `retry_after_ms`.
    #[error("{message}")]
    TooManyRequests {
        /// What was refused and why.
        message: String,
        /// How long to wait, ms (sent as `Retry-After`, in whole seconds).
        retry_after_ms: u64,
    },
    /// The server cannot take this now (its writer stopped, or it is overloaded).
    #[error("{message}")]
    Unavailable {
        /// What is unavailable.
        message: String,
        /// When to try again, ms.
        retry_after_ms: u64,
    },
    /// The server's own fault; the text is logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
}

/// An error as one node answers another that forwarded a request: enough to
/// answer the client the same.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct WireError {
    /// The HTTP status.
    pub status: u16,
    /// The words for the client.
    pub message: String,
    /// When to try again, ms.
    pub retry_after_ms: Option<u64>,
}

impl ApiError {
    /// The status this error is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::LoginFailed => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// What the client is told: the error's words, or for a server fault a
    /// generic sentence (the details are in the log).
    pub fn public_message(&self) -> String {
        match self {
            ApiError::Internal(_) => {
                "internal server error (the details are in the server's log)".into()
            }
            other => other.to_string(),
        }
    }

    /// `Retry-After`, ms, where the error has one.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match self {
            ApiError::TooManyRequests { retry_after_ms, .. }
            | ApiError::Unavailable { retry_after_ms, .. } => Some(*retry_after_ms),
            _ => None,
        }
    }

    /// Logs the error at the level its kind deserves: the client's mistakes at
    /// debug, the server's at error.
    pub fn log(&self) {
        if self.status().is_server_error() {
            tracing::error!("{self}");
        } else {
            tracing::debug!("{}: {self}", self.status());
        }
    }

    /// The error as one node answers another that forwarded a request.
    pub fn to_wire(&self) -> WireError {
        let message = match self {
            ApiError::NotFound(what) => what.clone(),
            ApiError::Internal(_) => self.public_message(),
            other => other.to_string(),
        };
        WireError {
            status: self.status().as_u16(),
            message,
            retry_after_ms: self.retry_after_ms(),
        }
    }

    /// The error another node answered with, to answer the client the same.
    pub fn from_wire(wire: WireError) -> ApiError {
        let WireError {
            status,
            message,
            retry_after_ms,
        } = wire;
        match status {
            400 => ApiError::BadRequest(message),
            401 => ApiError::Unauthorized,
            403 => ApiError::Forbidden(message),
            404 => ApiError::NotFound(message),
            409 => ApiError::Conflict(message),
            413 => ApiError::PayloadTooLarge(message),
            429 => ApiError::TooManyRequests {
                message,
                retry_after_ms: retry_after_ms.unwrap_or(1_000),
            },
            503 => ApiError::Unavailable {
                message,
                retry_after_ms: retry_after_ms.unwrap_or(1_000),
            },
            other => ApiError::Internal(format!("another node answered {other}: {message}")),
        }
    }

    /// "The game is over", as a conflict: the game moved on.
    pub fn game_over() -> ApiError {
        ApiError::Conflict("the game is over".into())
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::NameTaken(name) => {
                ApiError::Conflict(format!("the name {name:?} is taken"))
            }
            StoreError::Conflict { game, .. } => ApiError::Conflict(format!(
                "game {game} changed meanwhile: look at it again and retry"
            )),
            StoreError::Fenced { game } => ApiError::Unavailable {
                message: format!("game {game} is moving to another node; try again in a moment"),
                retry_after_ms: 1_000,
            },
            other => ApiError::Internal(format!("storage: {other}")),
        }
    }
}

impl From<ActionError> for ApiError {
    fn from(e: ActionError) -> ApiError {
        match e {
            ActionError::GameOver => ApiError::game_over(),
            ActionError::NotYourTurn(_) => ApiError::Conflict(e.to_string()),
            ActionError::Malformed(_)
            | ActionError::IllegalMove(_)
            | ActionError::NotAllowed(_)
            | ActionError::Setup(_) => ApiError::BadRequest(e.to_string()),
            // The server's clock or its stored log is at fault, not the client.
            ActionError::Clock(_) | ActionError::Replay { .. } => {
                ApiError::Internal(format!("arbiter: {e}"))
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.log();
        let status = self.status();
        let mut response = (
            status,
            Json(serde_json::json!({ "error": self.public_message() })),
        )
            .into_response();
        if let Some(ms) = self.retry_after_ms() {
            let seconds = ms.div_ceil(1000).max(1);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_fault_is_answered_without_its_details() {
        let e = ApiError::from(StoreError::BadUrl("secret path".into()));
        assert_eq!(e.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!e.public_message().contains("secret"));
    }

    #[test]
    fn the_game_moving_on_is_a_conflict_and_bad_input_is_not() {
        assert_eq!(
            ApiError::from(ActionError::GameOver).status(),
            StatusCode::CONFLICT
        );
        assert_eq!(
            ApiError::from(ActionError::NotYourTurn("white")).status(),
            StatusCode::CONFLICT
        );
        assert_eq!(
            ApiError::from(ActionError::IllegalMove("e2e5".into())).status(),
            StatusCode::BAD_REQUEST
        );
        let corrupt = ActionError::Replay {
            index: 3,
            why: "bad".into(),
        };
        assert_eq!(
            ApiError::from(corrupt).status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
    }
}
