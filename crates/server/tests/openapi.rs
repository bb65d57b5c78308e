//! The OpenAPI document is generated from the routes: every route is declared
//! with its documentation (no undocumented `.route(...)` anywhere), every
//! documented operation answers on a real server, and nothing the document
//! named before is missing.

use std::path::Path;

use serde_json::Value;

use crate::{temp_db, Server};

#[test]
fn every_route_is_declared_with_its_documentation() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![dir];
    let mut seen = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            seen += 1;
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                assert!(
                    !code.contains(".route(") && !code.contains(".route_service("),
                    "{}:{}: a route added without its documentation (use routes!(...))",
                    path.display(),
                    n + 1
                );
            }
        }
    }
    assert!(seen > 20);
}

fn operations(doc: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(
                op["summary"].is_string() || op["description"].is_string(),
                "{method} {path} has no words"
            );
            assert!(
                op["responses"].is_object(),
                "{method} {path} has no responses"
            );
            out.push((method.to_uppercase(), path.clone()));
        }
    }
    out
}

#[tokio::test]
async fn every_documented_operation_answers() {
    let db = temp_db("openapi");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let doc: Value = client
        .get(server.url("/api/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let ops = operations(&doc);
    assert!(ops.len() >= 60, "only {} operations documented", ops.len());
    for (method, path) in ops {
        // Each path parameter filled in with something that names nothing.
        let mut url = String::new();
        let mut rest = path.as_str();
        while let Some(open) = rest.find('{') {
            url.push_str(&rest[..open]);
            let close = rest[open..].find('}').unwrap() + open;
            url.push_str("nothing-here");
            rest = &rest[close + 1..];
        }
        url.push_str(rest);
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let response = client
            .request(method.clone(), server.url(&url))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        // A live stream (a TV feed) never ends: its status is the answer.
        let streaming = response
            .headers()
            .get("content-type")
            .is_some_and(|t| t.as_bytes().starts_with(b"application/x-ndjson"));
        let text = if streaming {
            String::new()
        } else {
            response.text().await.unwrap_or_default()
        };
        assert_ne!(status, 405, "{method} {path}: {text}");
        assert!(
            !text.contains("no such page or endpoint"),
            "{method} {path} is documented but not routed: {status} {text}"
        );
        assert!(status < 500, "{method} {path}: {status} {text}");
    }
}

#[test]
fn the_document_still_names_every_path_it_named_before() {
    let doc = serde_json::to_value(caissa_server::openapi()).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/healthz",
        "/api/account",
        "/api/account/playing",
        "/api/challenge",
        "/api/users/status",
        "/api/user/{username}/current-game",
        "/api/games/export/_ids",
        "/api/tv/channels",
        "/api/register",
        "/api/login",
        "/api/guest",
        "/api/logout",
        "/api/user/{username}",
        "/api/user/{username}/rating-history",
        "/api/token",
        "/api/token/test",
        "/api/token/{id}",
        "/api/stream/event",
        "/api/board/seek",
        "/api/pools",
        "/api/challenge/open",
        "/api/challenge/{username}",
        "/api/challenge/{id}/show",
        "/api/challenge/{id}/accept",
        "/api/challenge/{id}/decline",
        "/api/challenge/{id}/cancel",
        "/api/board/game/stream/{id}",
        "/api/stream/game/{id}",
        "/api/socket/game/{id}",
        "/api/games/live",
        "/api/tv",
        "/api/challenge/ai",
        "/api/board/game/{id}/move/{move}",
        "/api/board/game/{id}/resign",
        "/api/board/game/{id}/abort",
        "/api/board/game/{id}/draw/{accept}",
        "/api/board/game/{id}/claim-victory",
        "/api/board/game/{id}/claim-draw",
        "/api/board/game/{id}/chat",
        "/api/board/game/{id}/takeback/{accept}",
        "/api/board/game/{id}/rematch/{accept}",
        "/api/lobby/seeks",
        "/api/cloud-eval",
        "/api/analysis/stream",
        "/api/lobby/seeks/{id}/accept",
        "/game/export/{id}",
        "/api/games/user/{username}",
        "/metrics",
        "/api/openapi.json",
        "/static/{path}",
    ] {
        assert!(paths.contains_key(path), "{path} is no longer documented");
    }
    // Path templates as OpenAPI writes them, not as the router does.
    assert!(paths.keys().all(|p| !p.contains("{*")));
}
