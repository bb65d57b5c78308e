//! The web app's files (`web/`), embedded in the binary so that `caissa serve` needs
//! nothing else. Page addresses (`/`, `/game/{id}`, `/@/{name}` ...) all answer with
//! `index.html`; the page's script routes on the client. A configured folder
//! serves the files from disk instead, for working on the front end without
//! rebuilding.

use std::path::{Component, Path, PathBuf};

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
#[exclude = "test/*"]
struct Embedded;

/// Where the web app's files come from.
pub struct Assets {
    disk: Option<PathBuf>,
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
        Some("wasm") => "application/wasm",
        Some("webmanifest") => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

impl Assets {
    /// The embedded files, or those in `disk`.
    pub fn new(disk: Option<PathBuf>) -> Assets {
        Assets { disk }
    }

    /// The bytes of `path` (relative to `web/`), if there is such a file.
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        let relative = Path::new(path);
        if relative
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
        {
            return None;
        }
        match &self.disk {
            Some(dir) => std::fs::read(dir.join(relative)).ok(),
            None => Embedded::get(path).map(|f| f.data.into_owned()),
        }
    }

    /// One file from `web/`, or a JSON 404 naming it.
    pub fn file(&self, path: &str) -> Response {
        match self.load(path) {
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
                serde_json::json!({ "error": format!("no such file: {path}") }).to_string(),
            )
                .into_response(),
        }
    }

    /// The page shell for any page address.
    pub fn page(&self) -> Response {
        self.file("index.html")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_missing_file_is_named_in_valid_json_whatever_its_name() {
        let assets = Assets::new(None);
        for name in ["a\\b", "new\nline", "nul\0byte", "quote\"d"] {
            let response = assets.file(name);
            assert_eq!(response.status(), StatusCode::NOT_FOUND);
            let body = axum::body::to_bytes(response.into_body(), 4096)
                .await
                .unwrap();
            let value: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert!(value["error"].as_str().unwrap().ends_with(name), "{value}");
        }
    }
}
