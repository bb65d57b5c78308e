//! One error type for every handler, answered as `{"error": "..."}` with a status.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// What a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No or an unknown bearer token.
    #[error("missing or invalid bearer token")]
    Unauthorized,
    /// A login with a wrong name or password.
    #[error("wrong user name or password")]
    LoginFailed,
    /// The user may not do this (not their game, not their turn ...).
    #[error("{0}")]
    Forbidden(String),
    /// Nothing with this id or name.
    #[error("{0} not found")]
    NotFound(String),
    /// The request is well-formed but not allowed now, or its input is wrong.
    #[error("{0}")]
    BadRequest(String),
    /// Too many attempts; try again after `retry_after_ms`.
    #[error("{message}")]
    TooManyRequests {
        /// What was refused and why.
        message: String,
        /// How long to wait, ms (sent as `Retry-After`, in whole seconds).
        retry_after_ms: u64,
    },
    /// Storage failed.
    #[error("storage: {0}")]
    Store(#[from] caissa_store::StoreError),
    /// Storage failed in the writer task.
    #[error("storage: {0}")]
    Storage(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match &self {
            ApiError::Unauthorized | ApiError::LoginFailed => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Store(_) | ApiError::Storage(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if status.is_server_error() {
            tracing::error!("{self}");
        } else {
            tracing::info!("{status}: {self}");
        }
        let mut response = (
            status,
            Json(serde_json::json!({ "error": self.to_string() })),
        )
            .into_response();
        if let ApiError::TooManyRequests { retry_after_ms, .. } = self {
            let seconds = retry_after_ms.div_ceil(1000).max(1);
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}
