//! What every request goes through before the routes, and every answer after:
//! a trailing slash is dropped from the path (lichess clients such as berserk
//! send some calls with one), and an error answered without a JSON body — a route
//! that does not exist, a method it does not take, a body too large, a socket
//! opened without an upgrade — gets one, `{"error": "..."}`, like every other.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::Response;

/// The longest error text kept from a body that was not JSON.
const ERROR_TEXT_MAX: usize = 4096;

/// `/api/board/game/x/claim-victory/` is `/api/board/game/x/claim-victory`.
pub fn trim_trailing_slash<B>(request: &mut axum::http::Request<B>) {
    let path = request.uri().path();
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = match path.trim_end_matches('/') {
            "" => "/",
            trimmed => trimmed,
        };
        let path_and_query = match request.uri().query() {
            Some(query) => format!("{trimmed}?{query}"),
            None => trimmed.to_string(),
        };
        let mut parts = request.uri().clone().into_parts();
        if let Ok(path_and_query) = path_and_query.parse() {
            parts.path_and_query = Some(path_and_query);
            if let Ok(uri) = Uri::from_parts(parts) {
                *request.uri_mut() = uri;
            }
        }
    }
}

/// No route for the request's path.
pub async fn not_found(method: Method, uri: Uri) -> Response {
    json_error(
        StatusCode::NOT_FOUND,
        &format!("no such page or endpoint: {method} {}", uri.path()),
    )
}

/// The path exists, but not for this method.
pub async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    json_error(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!("{} does not take {method}", uri.path()),
    )
}

/// Gives an error answered in plain text (or nothing) a JSON body.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, ERROR_TEXT_MAX)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text
    };
    let mut answer = json_error(status, &message);
    // Keep what the framework said besides (Allow, ...), not the old body's framing.
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().append(name, value.clone());
        }
    }
    answer
}

fn json_error(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "error": message }).to_string();
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
