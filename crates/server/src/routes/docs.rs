//! Shapes the OpenAPI document names, shared by the routes.

use serde::Serialize;
use utoipa::ToSchema;

/// Every error: what was wrong, in words.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// What was wrong, naming the field or thing at fault.
    pub error: String,
}

/// A request that was done.
#[derive(Serialize, ToSchema)]
pub struct OkBody {
    /// Always true.
    pub ok: bool,
}

/// `{"ok": true}`.
pub fn ok() -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({ "ok": true }))
}
