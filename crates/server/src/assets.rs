//! The web app's files (`web/`), embedded in the binary so that `caissa serve` needs
//! nothing else. Page addresses (`/`, `/game/{id}`, `/@/{name}` ...) all answer with
//! `index.html`; the page's script routes on the client. A configured folder
//! serves the files from disk instead, for working on the front end without
//! rebuilding. Text, scripts and the WebAssembly module go gzipped to a browser
//! that takes gzip (compressed once per file, then kept).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
#[exclude = "test/*"]
struct Embedded;

/// Where the web app's files come from.
pub struct Assets {
    disk: Option<PathBuf>,
    /// Embedded files already gzipped, by path.
    gzipped: Mutex<HashMap<String, Arc<Vec<u8>>>>,
}

/// Whether a file of this type is worth compressing.
fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || content_type.contains("json")
        || content_type.contains("svg")
        || content_type.contains("wasm")
}

/// A file as it is.
fn plain(kind: &'static str, bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        bytes,
    )
        .into_response()
}

/// `bytes` gzipped at the best compression.
pub fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok()
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
        Assets {
            disk,
            gzipped: Mutex::new(HashMap::new()),
        }
    }

    /// The gzipped bytes of `path` (kept for embedded files).
    fn gzipped(&self, path: &str, bytes: &[u8]) -> Option<Arc<Vec<u8>>> {
        if self.disk.is_some() {
            return gzip(bytes).map(Arc::new);
        }
        let mut cache = self.gzipped.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = cache.get(path) {
            return Some(done.clone());
        }
        let done = Arc::new(gzip(bytes)?);
        cache.insert(path.to_string(), done.clone());
        Some(done)
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

    /// One file from `web/` (gzipped when `gzip_ok` and worth it), or a JSON
    /// 404 naming it.
    pub fn file(&self, path: &str, gzip_ok: bool) -> Response {
        let kind = content_type(path);
        match self.load(path) {
            Some(bytes) if gzip_ok && compressible(kind) => match self.gzipped(path, &bytes) {
                Some(zipped) => (
                    [
                        (header::CONTENT_TYPE, kind),
                        (header::CACHE_CONTROL, "no-cache"),
                        (header::CONTENT_ENCODING, "gzip"),
                        (header::VARY, "Accept-Encoding"),
                    ],
                    zipped.to_vec(),
                )
                    .into_response(),
                None => plain(kind, bytes),
            },
            Some(bytes) => plain(kind, bytes),
            None => (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::json!({ "error": format!("no such file: {path}") }).to_string(),
            )
                .into_response(),
        }
    }

    /// The page shell for any page address.
    pub fn page(&self, gzip_ok: bool) -> Response {
        self.file("index.html", gzip_ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_missing_file_is_named_in_valid_json_whatever_its_name() {
        let assets = Assets::new(None);
        for name in ["a\\b", "new\nline", "nul\0byte", "quote\"d"] {
            let response = assets.file(name, true);
            assert_eq!(response.status(), StatusCode::NOT_FOUND);
            let body = axum::body::to_bytes(response.into_body(), 4096)
                .await
                .unwrap();
            let value: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert!(value["error"].as_str().unwrap().ends_with(name), "{value}");
        }
    }

    #[tokio::test]
    async fn scripts_and_the_rules_module_go_gzipped_to_a_browser_that_takes_it() {
        let assets = Assets::new(None);
        for path in ["js/app.js", "wasm/caissa.wasm", "index.html"] {
            let plain = assets.file(path, false);
            assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
            let plain = axum::body::to_bytes(plain.into_body(), usize::MAX)
                .await
                .unwrap();
            let zipped = assets.file(path, true);
            assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip", "{path}");
            let zipped = axum::body::to_bytes(zipped.into_body(), usize::MAX)
                .await
                .unwrap();
            assert!(zipped.len() < plain.len(), "{path}");
            let mut unzipped = Vec::new();
            std::io::Read::read_to_end(
                &mut flate2::read::GzDecoder::new(&zipped[..]),
                &mut unzipped,
            )
            .unwrap();
            assert_eq!(unzipped, plain, "{path}");
        }
        // The SVG pieces are text: gzipped too.
        let piece = assets.file("pieces/classic/wK.svg", true);
        assert_eq!(piece.headers()[header::CONTENT_ENCODING], "gzip");
    }
}
