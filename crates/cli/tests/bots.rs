//! Bots as bot programs run them: a client that follows lichess's published
//! Bot API as the common bot programs do (token test, account upgrade, the
//! event stream, accepting a challenge, the game stream, moves with
//! `offeringDraw`, chat, abort, resign), each with a real UCI engine behind it
//! (`caissa uci` as a process), against `caissa serve` as a process. Whole
//! games: a bot against a Board API client, and two bots.

mod support;

use std::process::Stdio;
use std::time::{Duration, Instant};

use caissa_store::scratch;
use futures_util::StreamExt;
use serde_json::Value;
use support::{accounts, free_port, start, Api, BIN};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::mpsc;

/// A UCI engine as a process.
struct Engine {
    _child: Child,
    input: ChildStdin,
    output: Lines<BufReader<ChildStdout>>,
}

impl Engine {
    async fn start() -> Engine {
        let mut child = Command::new(BIN)
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut engine = Engine {
            _child: child,
            input,
            output,
        };
        engine.send("uci").await;
        engine.wait_for("uciok").await;
        engine.send("isready").await;
        engine.wait_for("readyok").await;
        engine
    }

    async fn send(&mut self, line: &str) {
        self.input
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }

    async fn wait_for(&mut self, start: &str) -> String {
        loop {
            let line = self.output.next_line().await.unwrap().expect("engine quit");
            if line.starts_with(start) {
                return line;
            }
        }
    }

    /// The engine's move after `moves` from the start, in a few milliseconds.
    async fn best(&mut self, moves: &str) -> String {
        self.send(&format!("position startpos moves {moves}")).await;
        self.send("go movetime 15").await;
        let line = self.wait_for("bestmove").await;
        line.split_whitespace().nth(1).unwrap().to_string()
    }
}

/// The NDJSON lines of a stream (keep-alive lines left out).
async fn follow(api: &Api, path: &str, token: &str) -> mpsc::UnboundedReceiver<Value> {
    let response = api
        .client
        .get(format!("{}{path}", api.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{path}");
    let (tx, rx) = mpsc::unbounded_channel();
    let mut bytes = response.bytes_stream();
    tokio::spawn(async move {
        let mut pending = Vec::new();
        while let Some(Ok(chunk)) = bytes.next().await {
            pending.extend_from_slice(&chunk);
            while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                if let Ok(value) = serde_json::from_slice::<Value>(&line) {
                    if tx.send(value).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// The next line of `lines` whose `type` is `kind`, within 20 s.
async fn next_of(lines: &mut mpsc::UnboundedReceiver<Value>, kind: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let line = tokio::time::timeout_at(deadline.into(), lines.recv())
            .await
            .unwrap_or_else(|_| panic!("no {kind} within 20 s"))
            .expect("the stream ended");
        if line["type"] == kind {
            return line;
        }
    }
}

/// How a player plays: the Bot API or the Board API.
#[derive(Clone, Copy)]
enum Via {
    BotApi,
    BoardApi,
}

impl Via {
    fn base(self) -> &'static str {
        match self {
            Via::BotApi => "/api/bot/game",
            Via::BoardApi => "/api/board/game",
        }
    }
}

/// What a player does at each of its turns.
#[derive(Clone, Copy)]
enum Plan {
    /// Plays the engine's moves to the end (resigning at ply 300), offering a
    /// draw with each move from ply 60 on.
    ToTheEnd,
    /// Plays the engine's moves; agrees to a draw as soon as one is offered.
    TakesADraw,
}

/// Plays game `id` as `token` through `how`, with an engine, until it ends;
/// says a line in the players' room first. The final state.
async fn play(api: &Api, how: Via, token: &str, me: &str, id: &str, plan: Plan) -> Value {
    let mut engine = Engine::start().await;
    let mut stream = follow(api, &format!("{}/stream/{id}", how.base()), token).await;
    let full = next_of(&mut stream, "gameFull").await;
    let white = full["white"]["id"] == me.to_lowercase();
    let (status, body) = api
        .post(
            &format!("{}/{id}/chat", how.base()),
            token,
            &[
                ("room", "player".into()),
                ("text", format!("good luck from {me}")),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mut state = full["state"].clone();
    loop {
        if state["status"] != "started" {
            return state;
        }
        let moves = state["moves"].as_str().unwrap_or("").to_string();
        let plies = moves.split_whitespace().count();
        let offered = if white {
            state["bdraw"] == true
        } else {
            state["wdraw"] == true
        };
        if matches!(plan, Plan::TakesADraw) && offered {
            let (status, body) = api
                .post(&format!("{}/{id}/draw/yes", how.base()), token, &[])
                .await;
            assert_eq!(status, 200, "{body}");
        } else if (plies % 2 == 0) == white {
            if plies >= 300 {
                let (status, body) = api
                    .post(&format!("{}/{id}/resign", how.base()), token, &[])
                    .await;
                assert_eq!(status, 200, "{body}");
            } else {
                let uci = engine.best(&moves).await;
                let offering = matches!(plan, Plan::ToTheEnd) && plies >= 60;
                let path = format!("{}/{id}/move/{uci}?offeringDraw={offering}", how.base());
                let (status, body) = post_waiting_out_429(api, &path, token).await;
                assert_eq!(
                    status, 200,
                    "{me} (white: {white}) playing {uci} after {moves:?}: {body}; {state}"
                );
            }
        }
        // The next state that says something new.
        loop {
            let line = tokio::time::timeout(Duration::from_secs(20), stream.recv())
                .await
                .expect("no game state within 20 s")
                .expect("the game stream ended");
            if line["type"] == "gameState" {
                state = line;
                break;
            }
        }
    }
}

/// `POST path`, sent again after a 429 (a bot moving faster than ten times
/// a second for long is asked to wait, and a well-behaved bot waits).
async fn post_waiting_out_429(api: &Api, path: &str, token: &str) -> (u16, Value) {
    loop {
        let answer = api.post(path, token, &[]).await;
        if answer.0 != 429 {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Upgrades `token`'s account to a bot, as a bot program does before it
/// starts: the token's scopes tested, the account read, upgraded, read again.
async fn upgrade(api: &Api, token: &str) {
    let tested = api
        .client
        .post(format!("{}/api/token/test", api.base))
        .body(token.to_string())
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    let scopes = tested[token]["scopes"].as_str().unwrap();
    assert!(scopes.split(',').any(|s| s == "bot:play"), "{tested}");
    let account = api.get("/api/account", Some(token)).await.unwrap();
    assert!(
        account.get("title").is_none(),
        "no title, not null: {account}"
    );
    let (status, body) = api.post("/api/bot/account/upgrade", token, &[]).await;
    assert_eq!(status, 200, "{body}");
    let account = api.get("/api/account", Some(token)).await.unwrap();
    assert_eq!(account["title"], "BOT", "{account}");
    let name = account["username"].as_str().unwrap();
    assert_eq!(
        account["url"],
        format!("{}/@/{name}", api.base),
        "{account}"
    );
    assert!(account["seenAt"].as_u64().unwrap() >= account["createdAt"].as_u64().unwrap());
    assert_eq!(account["perfs"]["bullet"]["games"], 0, "{account}");
    let (status, body) = api.post("/api/bot/account/upgrade", token, &[]).await;
    assert_eq!(status, 400, "upgraded twice: {body}");
}

/// `challenger` challenges `dest` (3+2, challenger White); `dest`, on its
/// event stream, sees the challenge and accepts it. The game's id.
async fn challenge_and_accept(
    api: &Api,
    challenger: &str,
    dest: (&str, &str),
    dest_events: &mut mpsc::UnboundedReceiver<Value>,
) -> String {
    let (status, body) = api
        .post(
            &format!("/api/challenge/{}", dest.0),
            challenger,
            &[
                ("clock.limit", "180".into()),
                ("clock.increment", "2".into()),
                ("color", "white".into()),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Both players hear of a challenge; bot programs skip their own, as
    // lichess-bot's `from_self` does.
    let seen = loop {
        let seen = next_of(dest_events, "challenge").await;
        if seen["challenge"]["challenger"]["name"] != dest.0 {
            break seen;
        }
    };
    assert_eq!(seen["compat"]["bot"], true, "{seen}");
    let id = seen["challenge"]["id"].as_str().unwrap().to_string();
    assert_eq!(id, body["id"]);
    let (status, body) = api
        .post(&format!("/api/challenge/{id}/accept"), dest.1, &[])
        .await;
    assert_eq!(status, 200, "{body}");
    let started = next_of(dest_events, "gameStart").await;
    assert_eq!(started["game"]["gameId"], id, "{started}");
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_whole_games_through_the_bot_api_with_an_engine() {
    let db = scratch::sqlite_url("bots");
    let names = ["Rook-Bot", "Knight-Bot", "Hanna"].map(String::from);
    let tokens = accounts(&db, &names).await;
    let (rook, knight, hanna) = (&tokens["Rook-Bot"], &tokens["Knight-Bot"], &tokens["Hanna"]);
    let port = free_port();
    let _server = start(&db, port);
    let api = Api {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::new(),
    };

    // Not a bot yet: the Bot API is refused, naming the upgrade.
    let (status, body) = api.post("/api/bot/game/x/move/e2e4", rook, &[]).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("upgrade"),
        "{body}"
    );
    upgrade(&api, rook).await;
    upgrade(&api, knight).await;
    let online = api.get_text("/api/bot/online").await.unwrap();
    assert!(
        online.trim().is_empty(),
        "no bot is listening yet: {online}"
    );

    // A bot does not seek: it challenges and accepts.
    let (status, body) = api
        .post(
            "/api/board/seek",
            rook,
            &[("time", "3".into()), ("increment", "2".into())],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("bot"), "{body}");

    // A person (Board API) challenges the bot; the bot sees the challenge with
    // its title, accepts, and the game is played to a draw the bot offers.
    let mut rook_events = follow(&api, "/api/stream/event", rook).await;
    let online = api.get_text("/api/bot/online").await.unwrap();
    let listed: Vec<Value> = online
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(listed.len(), 1, "{online}");
    assert_eq!(listed[0]["username"], "Rook-Bot");
    assert_eq!(listed[0]["title"], "BOT");
    let game = challenge_and_accept(&api, hanna, ("Rook-Bot", rook), &mut rook_events).await;
    let (bot_end, person_end) = tokio::join!(
        play(&api, Via::BotApi, rook, "Rook-Bot", &game, Plan::ToTheEnd),
        play(&api, Via::BoardApi, hanna, "Hanna", &game, Plan::TakesADraw),
    );
    assert_eq!(bot_end["status"], person_end["status"]);
    let moves = bot_end["moves"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .count();
    assert!(
        bot_end["status"] == "draw" || moves < 60,
        "a draw offered from ply 60 and taken, unless the game ended first: {bot_end}"
    );
    let chat = api
        .get(&format!("/api/bot/game/{game}/chat"), Some(rook))
        .await
        .unwrap();
    let said: Vec<&str> = chat
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["text"].as_str())
        .collect();
    assert!(said.contains(&"good luck from Hanna"), "{chat}");
    assert!(said.contains(&"good luck from Rook-Bot"), "{chat}");
    // The game's players carry the bot's title.
    let exported = api
        .client
        .get(format!("{}/game/export/{game}", api.base))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(
        exported["players"]["black"]["user"]["title"], "BOT",
        "{exported}"
    );
    // Having played, Hanna can no longer become a bot.
    let (status, body) = api.post("/api/bot/account/upgrade", hanna, &[]).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("no game"),
        "{body}"
    );

    // Two bots play a whole game, each with its engine.
    let mut knight_events = follow(&api, "/api/stream/event", knight).await;
    let game = challenge_and_accept(&api, rook, ("Knight-Bot", knight), &mut knight_events).await;
    let (white_end, black_end) = tokio::join!(
        play(&api, Via::BotApi, rook, "Rook-Bot", &game, Plan::ToTheEnd),
        play(
            &api,
            Via::BotApi,
            knight,
            "Knight-Bot",
            &game,
            Plan::TakesADraw
        ),
    );
    assert_eq!(white_end, black_end, "both bots see the same end");
    assert_ne!(white_end["status"], "started");

    // A bot aborts a game before it starts, and resigns another.
    let game = challenge_and_accept(&api, rook, ("Knight-Bot", knight), &mut knight_events).await;
    let (status, body) =
        post_waiting_out_429(&api, &format!("/api/bot/game/{game}/abort"), knight).await;
    assert_eq!(status, 200, "{body}");
    let game = challenge_and_accept(&api, rook, ("Knight-Bot", knight), &mut knight_events).await;
    let (status, body) =
        post_waiting_out_429(&api, &format!("/api/bot/game/{game}/move/e2e4"), rook).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) =
        post_waiting_out_429(&api, &format!("/api/bot/game/{game}/resign"), knight).await;
    assert_eq!(status, 200, "{body}");
    let finished = next_of(&mut knight_events, "gameFinish").await;
    assert_eq!(finished["game"]["gameId"], game, "{finished}");
}
