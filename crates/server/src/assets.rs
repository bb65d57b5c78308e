//! The web app's files (`web/`), embedded in the binary so that `caissa serve` needs
//! nothing else. Page addresses (`/`, `/game/{id}`, `/@/{name}` ...) all answer with
//! `index.html`; the page's script routes on the client. `--web-dir` serves the files
//! from disk instead, for working on the front end without rebuilding.

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
#[exclude = "test/*"]
struct Embedded;

static DISK: OnceLock<PathBuf> = OnceLock::new();

/// Serves the web app from `dir` instead of the embedded copy (call before serving).
pub fn serve_from(dir: PathBuf) {
    let _ = DISK.set(dir);
}

fn content_type(path: &str) -> &'static str {
    match Path::new(path).extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("wav") => "audio/wav",
        Some("ogg") => "audio/ogg",
        Some("mp3") => "audio/mpeg",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// The bytes of `path` (relative to `web/`), if there is such a file.
fn load(path: &str) -> Option<Vec<u8>> {
    let relative = Path::new(path);
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    match DISK.get() {
        Some(dir) => std::fs::read(dir.join(relative)).ok(),
        None => Embedded::get(path).map(|f| f.data.into_owned()),
    }
}

/// One file from `web/`, or 404.
pub fn file(path: &str) -> Response {
    match load(path) {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "application/json")],
            format!("{{\"error\":\"no such file: {}\"}}", path.replace('"', "")),
        )
            .into_response(),
    }
}

/// The page shell for any page address.
pub fn page() -> Response {
    file("index.html")
}
