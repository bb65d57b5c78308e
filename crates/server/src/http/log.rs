//! One log line per request: method, path, status and milliseconds (to the
//! answer's headers, for streams). The path is quoted as Rust writes strings, so
//! a newline or a quote a client put in it cannot forge a line; the query string,
//! where a WebSocket client may carry its token, is never written.

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

/// The request-logging middleware.
pub async fn log_requests(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(
        target: "caissa::request",
        "{method} {path:?} {} {ms:.1}ms",
        response.status().as_u16()
    );
    response
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_path_with_a_newline_is_written_on_one_line() {
        let path = "/api/x\n2026-01-01 INFO forged";
        let line = format!("GET {path:?} 404");
        assert!(!line.contains('\n'));
        assert!(line.contains("\\n"));
    }
}
