//! Headers every answer carries so that a browser cannot be turned against the
//! site: no framing (clickjacking), no content sniffing, scripts and styles only
//! from the site itself; and the check that a request which starts a session
//! (register, log in, play as a guest) comes from our own pages, since a
//! cross-site form could otherwise swap a visitor's session for one of its own.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Uri};
use axum::middleware::Next;
use axum::response::Response;

use crate::http::error::ApiError;

/// The content security policy of every page: everything from this origin,
/// images also from `data:` URLs, WebAssembly allowed, nothing framed.
pub const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; media-src 'self' data: blob:; \
    script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; worker-src 'self' blob:; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to an answer.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
}

/// Whether a request's `Origin` (if any) is this server itself.
pub fn same_origin(headers: &HeaderMap, uri: &Uri) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    // HTTP/1.1 names the host in a header, HTTP/2 in the request's authority.
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .or_else(|| uri.authority().map(|a| a.as_str()))
        .unwrap_or_default();
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest.eq_ignore_ascii_case(host))
}

/// Refuses a request that would start a session if another site sent it: an
/// `Origin` other than ours, or a browser's `Sec-Fetch-Site` saying cross-site.
pub fn require_same_site(headers: &HeaderMap, uri: &Uri) -> Result<(), ApiError> {
    let fetch_site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("none");
    if !same_origin(headers, uri) || fetch_site == "cross-site" {
        return Err(ApiError::Forbidden(
            "this request must come from the site's own pages".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn a_cross_site_form_cannot_start_a_session() {
        let uri: Uri = "/api/guest".parse().unwrap();
        let ours = headers(&[
            ("host", "chess.example"),
            ("origin", "https://chess.example"),
        ]);
        assert!(require_same_site(&ours, &uri).is_ok());
        let theirs = headers(&[
            ("host", "chess.example"),
            ("origin", "https://evil.example"),
        ]);
        assert!(require_same_site(&theirs, &uri).is_err());
        let fetch = headers(&[("host", "chess.example"), ("sec-fetch-site", "cross-site")]);
        assert!(require_same_site(&fetch, &uri).is_err());
        // API clients send neither header.
        assert!(require_same_site(&headers(&[("host", "x")]), &uri).is_ok());
    }
}
