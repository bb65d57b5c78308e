//! A player over its game's WebSocket (`/api/socket/game/{id}`), as the web app
//! plays: one socket per player, opened with the player's bearer token, a
//! `{"t":"move"}` message per move answered by `{"t":"ack"}`, the game's states
//! pushed as they change. Over HTTP/1.1 each socket is a connection of its own
//! (`GET` with `Upgrade: websocket`); over HTTP/2 many sockets share a connection,
//! each on a stream opened with an extended `CONNECT` (RFC 8441).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Empty};
use hyper::client::conn::{http1, http2};
use hyper::header::{AUTHORIZATION, CONNECTION, HOST, UPGRADE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::handshake::client::generate_key;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::player::Sent;

/// How long the server may take to answer a move before the socket counts as
/// broken.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

type Socket = WebSocketStream<TokioIo<hyper::upgrade::Upgraded>>;

/// An HTTP/2 connection that carries the sockets of many players.
#[derive(Clone)]
pub(super) struct Http2 {
    send: http2::SendRequest<Empty<Bytes>>,
    authority: String,
}

impl Http2 {
    /// Opens a connection to `addr` (cleartext, prior knowledge).
    pub(super) async fn connect(addr: SocketAddr) -> anyhow::Result<Http2> {
        let tcp = TcpStream::connect(addr).await?;
        tcp.set_nodelay(true)?;
        let (send, connection) = http2::Builder::new(TokioExecutor::new())
            .handshake(TokioIo::new(tcp))
            .await?;
        tokio::spawn(connection);
        Ok(Http2 {
            send,
            authority: addr.to_string(),
        })
    }
}

/// How a socket reaches the server.
pub(super) enum Via<'a> {
    /// A connection of its own.
    Http1(SocketAddr),
    /// A stream of a shared HTTP/2 connection.
    Http2(&'a Http2),
}

/// A player's socket, and the messages that came while it waited for an answer.
pub(super) struct Link {
    socket: Socket,
    pending: VecDeque<(Value, Instant)>,
}

/// The error a refused handshake answered, with its body.
async fn refused(response: Response<hyper::body::Incoming>) -> anyhow::Error {
    let status = response.status();
    let body = match response.into_body().collect().await {
        Ok(body) => String::from_utf8_lossy(&body.to_bytes()).trim().to_string(),
        Err(e) => format!("(body unreadable: {e})"),
    };
    anyhow::anyhow!("HTTP {status}: {body}")
}

impl Link {
    /// Opens game `game`'s socket as the player with `token`.
    pub(super) async fn open(via: Via<'_>, game: &str, token: &str) -> anyhow::Result<Link> {
        let path = format!("/api/socket/game/{game}");
        let bearer = format!("Bearer {token}");
        let upgraded = match via {
            Via::Http1(addr) => {
                let tcp = TcpStream::connect(addr).await?;
                tcp.set_nodelay(true)?;
                let (mut send, connection) = http1::handshake(TokioIo::new(tcp)).await?;
                tokio::spawn(connection.with_upgrades());
                let key = generate_key();
                let request = Request::get(path)
                    .header(HOST, addr.to_string())
                    .header(CONNECTION, "upgrade")
                    .header(UPGRADE, "websocket")
                    .header("sec-websocket-version", "13")
                    .header("sec-websocket-key", &key)
                    .header(AUTHORIZATION, bearer)
                    .body(Empty::<Bytes>::new())?;
                let response = send.send_request(request).await?;
                if response.status() != StatusCode::SWITCHING_PROTOCOLS {
                    return Err(refused(response).await);
                }
                let accept = response.headers().get("sec-websocket-accept");
                if accept.and_then(|v| v.to_str().ok()) != Some(&derive_accept_key(key.as_bytes()))
                {
                    bail!("the server's Sec-WebSocket-Accept does not match the key");
                }
                hyper::upgrade::on(response).await?
            }
            Via::Http2(connection) => {
                let mut send = connection.send.clone();
                send.ready()
                    .await
                    .context("the HTTP/2 connection is gone")?;
                let request = Request::builder()
                    .method(Method::CONNECT)
                    .uri(format!("http://{}{path}", connection.authority))
                    .extension(hyper::ext::Protocol::from_static("websocket"))
                    .header("sec-websocket-version", "13")
                    .header(AUTHORIZATION, bearer)
                    .body(Empty::new())?;
                let mut response = send.send_request(request).await?;
                if response.status() != StatusCode::OK {
                    return Err(refused(response).await);
                }
                hyper::upgrade::on(&mut response).await?
            }
        };
        // Small messages, many sockets: 4 KiB reads rather than the default 128 KiB,
        // which tungstenite zeroes before every read.
        let config = WebSocketConfig::default().read_buffer_size(4096);
        let socket =
            WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Client, Some(config))
                .await;
        Ok(Link {
            socket,
            pending: VecDeque::new(),
        })
    }

    /// The next message and when it arrived: one that came while a move waited for
    /// its answer, else the next from the socket.
    pub(super) async fn next(&mut self) -> Result<Option<(Value, Instant)>, String> {
        match self.pending.pop_front() {
            Some(message) => Ok(Some(message)),
            None => self.receive().await,
        }
    }

    /// The next text message from the socket, as JSON (pings are answered by the
    /// WebSocket layer).
    async fn receive(&mut self) -> Result<Option<(Value, Instant)>, String> {
        loop {
            match self.socket.next().await {
                None | Some(Ok(Message::Close(_))) => return Ok(None),
                Some(Err(e)) => return Err(e.to_string()),
                Some(Ok(Message::Text(text))) => {
                    let arrived = Instant::now();
                    return serde_json::from_str(&text)
                        .map(|value| Some((value, arrived)))
                        .map_err(|e| format!("bad message {text:?}: {e}"));
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// Sends a move; the server's `ack` (or `error`) answers it, in order among
    /// the other messages, which are kept for `next`.
    pub(super) async fn send_move(&mut self, uci: &str) -> Sent {
        let message = serde_json::json!({ "t": "move", "uci": uci }).to_string();
        if let Err(e) = self.socket.send(Message::Text(message.into())).await {
            return Sent::Broken(format!("sending: {e}"));
        }
        let answer = async {
            loop {
                match self.receive().await {
                    Ok(Some((value, arrived))) => match value["t"].as_str() {
                        Some("ack") => return Sent::Acked,
                        Some("error") => {
                            let why = value["error"].as_str().unwrap_or("no reason given");
                            return Sent::Refused(format!("refused: {why}"));
                        }
                        _ => self.pending.push_back((value, arrived)),
                    },
                    Ok(None) => return Sent::Broken("the server closed the socket".into()),
                    Err(e) => return Sent::Broken(e),
                }
            }
        };
        tokio::time::timeout(ANSWER_TIMEOUT, answer)
            .await
            .unwrap_or_else(|_| {
                Sent::Broken(format!("no answer within {} s", ANSWER_TIMEOUT.as_secs()))
            })
    }
}
