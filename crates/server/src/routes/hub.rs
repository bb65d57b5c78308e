//! With several nodes, what there is one of in the installation lives on the
//! hub (see `cluster`): the lobby's seeks and pools, tournaments, TV. Any
//! other node relays those requests to the hub as they came (method, path,
//! headers, body) and its answer back as it goes — streams included — so a
//! client may use any node.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::cluster::{Cluster, SECRET_HEADER};
use crate::http::error::ApiError;

/// The paths the hub answers.
const HUB_PATHS: [&str; 7] = [
    "/api/board/seek",
    "/api/lobby/",
    "/api/pools",
    "/api/swiss",
    "/swiss/",
    "/api/tournament",
    "/api/tv",
];

/// The largest body relayed (the API's own limit).
const BODY_LIMIT: usize = 64 * 1024;

fn is_hubs(path: &str) -> bool {
    HUB_PATHS.iter().any(|p| path.starts_with(p))
}

/// Headers that belong to one connection, never relayed.
fn hop_by_hop(name: &header::HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection"
            | "keep-alive"
            | "proxy-connection"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
            | "host"
            | "content-length"
    )
}

/// Relays a request for the hub to it, unless this node is the hub (or the
/// request was relayed here by another node).
pub async fn to_hub(State(cluster): State<Arc<Cluster>>, request: Request, next: Next) -> Response {
    if !is_hubs(request.uri().path()) {
        return next.run(request).await;
    }
    let relayed = request
        .headers()
        .get(SECRET_HEADER)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|secret| cluster.is_node(secret));
    let Some((hub, client, secret)) = cluster.hub_elsewhere().filter(|_| !relayed) else {
        return next.run(request).await;
    };
    let (parts, body) = request.into_parts();
    let body = match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(body) => body,
        Err(_) => {
            return ApiError::PayloadTooLarge(format!(
                "a request body has at most {BODY_LIMIT} bytes"
            ))
            .into_response()
        }
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut out = client.request(parts.method.clone(), format!("http://{hub}{path}"));
    for (name, value) in &parts.headers {
        if !hop_by_hop(name) && name.as_str() != SECRET_HEADER {
            out = out.header(name, value);
        }
    }
    let answer = match out.header(SECRET_HEADER, secret).body(body).send().await {
        Ok(answer) => answer,
        Err(e) => {
            tracing::warn!("relaying {} {path} to the hub {hub}: {e}", parts.method);
            return ApiError::Unavailable {
                message: "the node keeping the lobby and tournaments does not answer; try again in a moment".into(),
                retry_after_ms: 1_000,
            }
            .into_response();
        }
    };
    let mut response = Response::builder().status(answer.status());
    for (name, value) in answer.headers() {
        if !hop_by_hop(name) {
            response = response.header(name, value);
        }
    }
    response
        .body(Body::from_stream(answer.bytes_stream()))
        .unwrap_or_else(|e| {
            ApiError::Internal(format!("relaying the hub's answer: {e}")).into_response()
        })
}
