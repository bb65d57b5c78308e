//! What Caissa sends, checked against lichess's published API types (the
//! `@lichess-org/types` npm package, generated from lichess's OpenAPI
//! spec): a bot and a person play through the API, every object they are
//! sent is kept, and TypeScript checks each against the type lichess
//! declares for it. Fields Caissa adds are allowed; a missing field, a
//! wrong type or a value outside lichess's enum fails.
//!
//! Needs `npm ci` in `tests/clients/shapes` (the test command does it);
//! without it the test says so and passes, as the PostgreSQL tests do.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::mpsc;

mod support;
use support::*;

/// Where the checker's npm packages are.
const SHAPES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clients/shapes");

/// Samples and the lichess type each must have.
#[derive(Default)]
struct Samples(Vec<(String, String, Value)>);

impl Samples {
    /// Keeps `sample`, sent by `source`, to be checked as lichess's `schema`
    /// (a TypeScript type over `S`, lichess's schemas).
    fn keep(&mut self, source: &str, schema: impl Into<String>, sample: &Value) {
        assert!(!sample.is_null(), "{source} sent nothing");
        self.0
            .push((source.to_string(), schema.into(), sample.clone()));
    }

    /// The TypeScript program that checks them all.
    fn program(&self) -> String {
        let mut ts = String::from(
            "import type { components } from \"@lichess-org/types\";\n\
             type S = components[\"schemas\"];\n\
             // Samples are literals `as const` (enums keep their literal\n\
             // types); made mutable, then checked by assignment, which\n\
             // allows fields lichess does not declare.\n\
             type Mutable<T> = T extends readonly (infer U)[]\n  \
               ? Mutable<U>[]\n  \
               : T extends object\n    \
                 ? { -readonly [K in keyof T]: Mutable<T[K]> }\n    \
                 : T;\n\
             function check<T>(_sample: T): void {}\n",
        );
        for (i, (source, schema, sample)) in self.0.iter().enumerate() {
            ts.push_str(&format!(
                "\n// {i}: {source} as {schema}\nconst sample{i} = {sample} as const;\n\
                 check<{schema}>(sample{i} as unknown as Mutable<typeof sample{i}>);\n"
            ));
        }
        ts
    }
}

/// The type of what lichess's operation `op` answers (200, JSON).
fn answer_of(op: &str) -> String {
    format!(
        "import(\"@lichess-org/types\").operations[\"{op}\"][\"responses\"][200][\"content\"][\"application/json\"]"
    )
}

/// The next line of `rx` whose `type` (or TV's `t`) is `kind`.
async fn next_of(rx: &mut mpsc::UnboundedReceiver<Value>, kind: &str) -> Value {
    until(rx, |l| l["type"] == kind || l["t"] == kind)
        .await
        .pop()
        .unwrap()
}

/// `GET path` as `token`.
async fn read(api: &Api, path: &str, token: &str) -> Value {
    api.get(path, Some(token))
        .await
        .unwrap_or_else(|| panic!("GET {path} failed"))
}

/// The NDJSON lines of a finite answer.
async fn lines_of(request: reqwest::RequestBuilder) -> Vec<Value> {
    let text = request
        .header("accept", "application/x-ndjson")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_caissa_sends_has_the_shape_lichess_publishes() {
    let tsc = Path::new(SHAPES_DIR).join("node_modules/.bin/tsc");
    if !tsc.exists() {
        eprintln!(
            "{} is missing (run npm ci there): the shape test did not run",
            tsc.display()
        );
        return;
    }
    let db = caissa_store::scratch::sqlite_url("shapes");
    let tokens = accounts(&db, &["Anna".into(), "Robo".into()]).await;
    let (anna, robo) = (&tokens["Anna"], &tokens["Robo"]);
    let port = free_port();
    let _server = start(&db, port);
    let api = Api {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::new(),
    };
    let mut samples = Samples::default();
    let (status, body) = api.post("/api/bot/account/upgrade", robo, &[]).await;
    assert_eq!(status, 200, "{body}");
    let mut anna_events = follow(&api, "/api/stream/event", Some(anna)).await;
    let mut robo_events = follow(&api, "/api/stream/event", Some(robo)).await;
    let challenge = |color: &'static str| {
        let api = &api;
        async move {
            let (status, body) = api
                .post(
                    "/api/challenge/Robo",
                    anna,
                    &[
                        ("clock.limit", "300".into()),
                        ("clock.increment", "2".into()),
                        ("color", color.into()),
                    ],
                )
                .await;
            assert_eq!(status, 200, "{body}");
            body
        }
    };

    // Challenges: made, declined, withdrawn, accepted.
    let declined = challenge("random").await;
    samples.keep(
        "POST /api/challenge/{user}",
        "S[\"ChallengeJson\"]",
        &declined,
    );
    let id = declined["id"].as_str().unwrap();
    let (status, _) = api
        .post(
            &format!("/api/challenge/{id}/decline"),
            robo,
            &[("reason", "tooFast".into())],
        )
        .await;
    assert_eq!(status, 200);
    let withdrawn = challenge("black").await;
    samples.keep(
        "GET /api/challenge",
        answer_of("challengeList"),
        &read(&api, "/api/challenge", robo).await,
    );
    let id = withdrawn["id"].as_str().unwrap();
    let (status, _) = api
        .post(&format!("/api/challenge/{id}/cancel"), anna, &[])
        .await;
    assert_eq!(status, 200);
    let accepted = challenge("white").await;
    let game = accepted["id"].as_str().unwrap().to_string();
    let (status, _) = api
        .post(&format!("/api/challenge/{game}/accept"), robo, &[])
        .await;
    assert_eq!(status, 200);
    for (who, events) in [
        ("challenger", &mut anna_events),
        ("challenged", &mut robo_events),
    ] {
        let source = format!("/api/stream/event ({who})");
        samples.keep(
            &source,
            "S[\"ChallengeEvent\"]",
            &next_of(events, "challenge").await,
        );
        samples.keep(
            &source,
            "S[\"ChallengeDeclinedEvent\"]",
            &next_of(events, "challengeDeclined").await,
        );
        samples.keep(
            &source,
            "S[\"ChallengeCanceledEvent\"]",
            &next_of(events, "challengeCanceled").await,
        );
        samples.keep(
            &source,
            "S[\"GameStartEvent\"]",
            &next_of(events, "gameStart").await,
        );
    }

    // The game, from both players' streams, TV and the lists around it.
    let mut anna_game = follow(&api, &format!("/api/board/game/stream/{game}"), Some(anna)).await;
    let mut robo_game = follow(&api, &format!("/api/bot/game/stream/{game}"), Some(robo)).await;
    samples.keep(
        "/api/board/game/stream/{id}",
        "S[\"GameFullEvent\"]",
        &next_of(&mut anna_game, "gameFull").await,
    );
    samples.keep(
        "/api/bot/game/stream/{id}",
        "S[\"GameFullEvent\"]",
        &next_of(&mut robo_game, "gameFull").await,
    );
    let (status, _) = api
        .post(&format!("/api/board/game/{game}/move/e2e4"), anna, &[])
        .await;
    assert_eq!(status, 200);
    samples.keep(
        "/api/board/game/stream/{id}",
        "S[\"GameStateEvent\"]",
        &next_of(&mut anna_game, "gameState").await,
    );
    let mut feed = follow(&api, "/api/tv/feed", None).await;
    samples.keep(
        "/api/tv/feed",
        "S[\"TvFeed\"]",
        &next_of(&mut feed, "featured").await,
    );
    let (status, _) = api
        .post(
            &format!("/api/bot/game/{game}/move/e7e5"),
            robo,
            &[("offeringDraw", "false".into())],
        )
        .await;
    assert_eq!(status, 200);
    samples.keep(
        "/api/tv/feed",
        "S[\"TvFeed\"]",
        &next_of(&mut feed, "fen").await,
    );
    let (status, _) = api
        .post(
            &format!("/api/bot/game/{game}/chat"),
            robo,
            &[("room", "player".into()), ("text", "gg".into())],
        )
        .await;
    assert_eq!(status, 200);
    samples.keep(
        "/api/board/game/stream/{id}",
        "S[\"ChatLineEvent\"]",
        &next_of(&mut anna_game, "chatLine").await,
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    samples.keep(
        "GET /api/board/game/{id}/chat",
        "S[\"PlayerGameChat\"]",
        &read(&api, &format!("/api/board/game/{game}/chat"), anna).await,
    );
    // lichess always has a game on every channel; Caissa lists the channels
    // that have one now.
    samples.keep(
        "/api/tv/channels",
        format!("Partial<{}>", answer_of("tvChannels")),
        &read(&api, "/api/tv/channels", anna).await,
    );
    for line in lines_of(api.client.get(format!("{}/api/tv/blitz", api.base))).await {
        samples.keep("/api/tv/{channel}", "S[\"GameJson\"]", &line);
    }
    // A stream that stays open: its first line (the game being played).
    let among = api
        .client
        .post(format!(
            "{}/api/stream/games-by-users?withCurrentGames=true",
            api.base
        ))
        .body("Anna,Robo")
        .send()
        .await
        .unwrap();
    let mut among = among.bytes_stream();
    let mut text = Vec::new();
    while !text.contains(&b'\n') {
        let chunk = tokio::time::timeout(Duration::from_secs(5), among.next())
            .await
            .expect("games-by-users sent the game being played");
        text.extend_from_slice(&chunk.unwrap().unwrap());
    }
    let line = text.split(|&b| b == b'\n').next().unwrap();
    samples.keep(
        "/api/stream/games-by-users",
        "S[\"GameStreamGame\"]",
        &serde_json::from_slice(line).unwrap(),
    );
    samples.keep(
        "/api/account/playing",
        answer_of("apiAccountPlaying"),
        &read(&api, "/api/account/playing", anna).await,
    );
    for line in lines_of(api.client.get(format!("{}/api/bot/online", api.base))).await {
        samples.keep("/api/bot/online", "S[\"User\"]", &line);
    }
    let (status, _) = api
        .post(&format!("/api/board/game/{game}/resign"), anna, &[])
        .await;
    assert_eq!(status, 200);
    samples.keep(
        "/api/board/game/stream/{id}",
        "S[\"GameStateEvent\"]",
        &next_of(&mut anna_game, "gameState").await,
    );
    samples.keep(
        "/api/stream/event",
        "S[\"GameFinishEvent\"]",
        &next_of(&mut anna_events, "gameFinish").await,
    );
    samples.keep(
        "/api/stream/event",
        "S[\"GameFinishEvent\"]",
        &next_of(&mut robo_events, "gameFinish").await,
    );

    // What clients read afterwards.
    let export = api
        .client
        .get(format!("{}/game/export/{game}", api.base))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    samples.keep("/game/export/{id}", "S[\"GameJson\"]", &export);
    for line in lines_of(api.client.get(format!("{}/api/games/user/anna", api.base))).await {
        samples.keep("/api/games/user/{user}", "S[\"GameJson\"]", &line);
    }
    samples.keep(
        "/api/account",
        "S[\"UserExtended\"]",
        &read(&api, "/api/account", robo).await,
    );
    samples.keep(
        "/api/user/{user}",
        "S[\"UserExtended\"]",
        &read(&api, "/api/user/Anna", anna).await,
    );
    let users = api
        .client
        .post(format!("{}/api/users", api.base))
        .body("anna,robo")
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    samples.keep("POST /api/users", "S[\"User\"][]", &users);
    samples.keep(
        "/api/crosstable/{u1}/{u2}",
        "S[\"Crosstable\"]",
        &read(&api, "/api/crosstable/Anna/Robo", anna).await,
    );
    // Caissa keeps no email address: `null` (berserk reads the key, so it
    // is there).
    for (path, schema) in [
        ("/api/account/email", "{ email: string | null }".to_string()),
        ("/api/account/kid", answer_of("accountKid")),
        ("/api/account/preferences", answer_of("account")),
    ] {
        samples.keep(path, schema, &read(&api, path, anna).await);
    }

    // TypeScript checks them all at once.
    let dir = temp_dir("shapes");
    let program = dir.join("samples.ts");
    std::fs::write(&program, samples.program()).unwrap();
    let types = Path::new(SHAPES_DIR).join("node_modules/@lichess-org/types/lichess-api.d.ts");
    let config = serde_json::json!({
        "compilerOptions": {
            "noEmit": true,
            "strict": true,
            "target": "es2020",
            "moduleResolution": "node",
            "baseUrl": ".",
            "paths": { "@lichess-org/types": [types] },
        },
        "files": ["samples.ts"],
    });
    std::fs::write(dir.join("tsconfig.json"), config.to_string()).unwrap();
    let checked = Command::new(&tsc)
        .arg("-p")
        .arg(dir.join("tsconfig.json"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(
        checked.status.success(),
        "{} samples; TypeScript found shapes lichess's types do not allow:\n{said}\n(the samples: {})",
        samples.0.len(),
        program.display()
    );
    eprintln!(
        "{} samples match lichess's published types",
        samples.0.len()
    );
}
