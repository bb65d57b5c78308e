//! Setting a run up and clearing it away: the accounts written into the store,
//! the server started in this process, the HTTP clients, the games challenged and
//! accepted, the players' sockets or streams, and the resignations at the end.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Context};
use caissa_server::{auth, serve_on, AppState};
use caissa_store::Store;
use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::watch;

use crate::player::{GameSlot, Link, Ply};
use crate::{board, socket};
use crate::{Api, Plan, SETUP_CONCURRENCY, SETUP_TIMEOUT};

/// A test account.
pub(crate) struct Account {
    pub(crate) name: String,
    pub(crate) token: String,
}

/// The HTTP clients for the setup, the Board API and the clean-up: one pooling
/// HTTP/1.1 connections, or one per HTTP/2 connection (a client keeps a single
/// HTTP/2 connection to a host).
pub(crate) fn http_clients(plan: &Plan) -> anyhow::Result<Vec<reqwest::Client>> {
    let builder = || {
        reqwest::Client::builder()
            .no_proxy()
            .tcp_nodelay(true)
            .connect_timeout(Duration::from_secs(10))
            .pool_idle_timeout(None)
    };
    let http2 = match (plan.connections, plan.api) {
        (Some(n), Api::Board) => Some(n),
        // The sockets have connections of their own; the setup needs a few.
        (Some(_), Api::Socket) => Some(SETUP_CONCURRENCY),
        (None, _) => None,
    };
    match http2 {
        None => Ok(vec![builder()
            .http1_only()
            .pool_max_idle_per_host(plan.max_inflight.max(SETUP_CONCURRENCY))
            .build()?]),
        Some(n) => (0..n.max(1))
            .map(|_| Ok(builder().http2_prior_knowledge().build()?))
            .collect(),
    }
}

/// Black accepts the challenge of `game`: the game starts (and its first move's
/// deadline runs from now).
pub(crate) async fn accept_game(
    client: &reqwest::Client,
    base: &str,
    accounts: &[Account],
    game: &GameSlot,
) -> anyhow::Result<()> {
    let response = client
        .post(format!("{base}/api/challenge/{}/accept", game.id))
        .bearer_auth(&accounts[game.black].token)
        .send()
        .await?;
    let status = response.status();
    if !status.is_success() {
        let body = response.text().await.unwrap_or_default();
        bail!("accepting challenge {}: HTTP {status}: {body}", game.id);
    }
    Ok(())
}

/// Starts the server on 127.0.0.1 with an ephemeral port.
pub(crate) async fn start_server(store: Store) -> anyhow::Result<SocketAddr> {
    let state = AppState::new(store)
        .await
        .map_err(|e| anyhow::anyhow!("starting the server: {e}"))?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        if let Err(e) = serve_on(listener, state, std::future::pending()).await {
            eprintln!("loadtest: the server stopped: {e}");
        }
    });
    Ok(addr)
}

/// Creates `count` accounts with tokens, with a name prefix unique to this run.
pub(crate) async fn create_accounts(store: &Store, count: usize) -> anyhow::Result<Vec<Account>> {
    let prefix = format!("lt{:06x}", rand::random::<u32>() & 0xff_ffff);
    let now = caissa_server::now_ms() as i64;
    let mut accounts: Vec<(usize, Account)> = futures_util::stream::iter(0..count)
        .map(|i| {
            let name = format!("{prefix}-{i}");
            async move {
                let user = store
                    .create_user(&name, None, now)
                    .await
                    .with_context(|| format!("creating account {name}"))?;
                let token = auth::issue_token(store, user.id, &auth::SCOPES, "loadtest").await?;
                Ok::<_, anyhow::Error>((i, Account { name, token }))
            }
        })
        .buffer_unordered(4)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<anyhow::Result<_>>()?;
    accounts.sort_by_key(|(i, _)| *i);
    Ok(accounts.into_iter().map(|(_, a)| a).collect())
}

/// Opens every player's socket or stream: white's and black's for each game, in
/// that order.
pub(crate) async fn connect_players(
    plan: &Plan,
    addrs: &[SocketAddr],
    clients: &[reqwest::Client],
    games: &[Arc<GameSlot>],
    accounts: &[Account],
) -> anyhow::Result<Vec<Link>> {
    let bases: Vec<String> = addrs.iter().map(|addr| format!("http://{addr}")).collect();
    // The HTTP/2 connections the sockets share (connection i to node i).
    let sockets_h2 = match (plan.api, plan.connections) {
        (Api::Socket, Some(n)) => futures_util::stream::iter(0..n)
            .map(|i| socket::Http2::connect(addrs[i % addrs.len()]))
            .buffered(SETUP_CONCURRENCY)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect::<anyhow::Result<Vec<_>>>()
            .context("opening the HTTP/2 connections")?,
        _ => Vec::new(),
    };
    let (bases, sockets_h2) = (&bases, &sockets_h2);
    let players = games.iter().flat_map(|g| [g.white, g.black]);
    futures_util::stream::iter(players)
        .map(|a| {
            let game = &games[a / 2];
            let token = &accounts[a].token;
            let node = plan.node_of(a, addrs.len());
            let (addr, base) = (addrs[node], &bases[node]);
            let opening = async move {
                let link = match (plan.api, plan.connections) {
                    (Api::Socket, h2) => {
                        let via = match h2 {
                            None => socket::Via::Http1(addr),
                            Some(_) => socket::Via::Http2(&sockets_h2[plan.connection_of(a)]),
                        };
                        Link::Socket(Box::new(socket::Link::open(via, &game.id, token).await?))
                    }
                    (Api::Board, h2) => {
                        let client = &clients[h2.map_or(0, |_| plan.connection_of(a))];
                        Link::Board(board::Link::open(client, base, &game.id, token).await?)
                    }
                };
                Ok::<_, anyhow::Error>(link)
            };
            async move {
                let opened = match tokio::time::timeout(SETUP_TIMEOUT, opening).await {
                    Ok(opened) => opened,
                    Err(_) => Err(anyhow::anyhow!(
                        "no answer within {} s",
                        SETUP_TIMEOUT.as_secs()
                    )),
                };
                opened
                    .with_context(|| format!("connecting {} to game {}", accounts[a].name, game.id))
            }
        })
        .buffered(SETUP_CONCURRENCY)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect()
}

/// Resigns games (White resigns), at most 32 at a time; returns (resigned, failed).
pub(crate) async fn resign(
    clients: &[reqwest::Client],
    base: &str,
    games: &[Arc<GameSlot>],
    accounts: &[Account],
    which: &[usize],
) -> (usize, usize) {
    let results = futures_util::stream::iter(which)
        .map(|&g| {
            let url = format!("{base}/api/board/game/{}/resign", games[g].id);
            let request = clients[g % clients.len()]
                .post(url)
                .bearer_auth(&accounts[games[g].white].token)
                .timeout(SETUP_TIMEOUT)
                .send();
            async move { request.await.is_ok_and(|r| r.status().is_success()) }
        })
        .buffer_unordered(SETUP_CONCURRENCY)
        .collect::<Vec<bool>>()
        .await;
    let done = results.iter().filter(|&&ok| ok).count();
    (done, results.len() - done)
}

/// Offers game `g` (accounts `2g` and `2g + 1`): White's challenge to Black.
pub(crate) async fn create_game(
    client: &reqwest::Client,
    base: &str,
    accounts: &[Account],
    g: usize,
    plan: &Plan,
) -> anyhow::Result<GameSlot> {
    let (white, black) = (2 * g, 2 * g + 1);
    let clock = plan.clock_secs.to_string();
    let response = client
        .post(format!("{base}/api/challenge/{}", accounts[black].name))
        .bearer_auth(&accounts[white].token)
        .form(&[
            ("clock.limit", clock.as_str()),
            ("clock.increment", "0"),
            ("color", "white"),
        ])
        .send()
        .await?;
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("challenge {g}: HTTP {status}: {body}");
    }
    let id = body["id"]
        .as_str()
        .with_context(|| format!("challenge {g}: no id in {body}"))?
        .to_string();
    Ok(GameSlot {
        id,
        white,
        black,
        plies: Mutex::new(vec![Ply::default(); plan.plies]),
        abandoned: watch::Sender::new(false),
    })
}
