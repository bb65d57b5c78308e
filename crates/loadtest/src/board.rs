//! A player over the lichess Board API: the game's NDJSON stream
//! (`/api/board/game/stream/{id}`) and a POST per move
//! (`/api/board/game/{id}/move/{uci}`), over HTTP/1.1 or HTTP/2.

use std::pin::Pin;
use std::time::{Duration, Instant};

use futures_util::{Stream, StreamExt};
use serde_json::Value;

use super::player::Sent;

/// How long one move request may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

type Body = Pin<Box<dyn Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>;

/// A player's stream and the client its moves go through.
pub(super) struct Link {
    body: Body,
    buffer: Vec<u8>,
    client: reqwest::Client,
    /// The URL of the game's moves, but for the move.
    moves_url: String,
    token: String,
}

impl Link {
    /// Opens the game's stream for the player with `token`.
    pub(super) async fn open(
        client: &reqwest::Client,
        base: &str,
        game: &str,
        token: &str,
    ) -> anyhow::Result<Link> {
        let response = client
            .get(format!("{base}/api/board/game/stream/{game}"))
            .bearer_auth(token)
            .send()
            .await?;
        if !response.status().is_success() {
            anyhow::bail!("HTTP {}", response.status());
        }
        Ok(Link {
            body: Box::pin(response.bytes_stream()),
            buffer: Vec::new(),
            client: client.clone(),
            moves_url: format!("{base}/api/board/game/{game}/move/"),
            token: token.to_string(),
        })
    }

    /// The next line of the stream (keep-alive blank lines skipped), as JSON.
    pub(super) async fn next(&mut self) -> Result<Option<(Value, Instant)>, String> {
        loop {
            while let Some(i) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=i).collect();
                if line.iter().any(|b| !b.is_ascii_whitespace()) {
                    let arrived = Instant::now();
                    return serde_json::from_slice(&line)
                        .map(|value| Some((value, arrived)))
                        .map_err(|e| format!("bad stream line: {e}"));
                }
            }
            match self.body.next().await {
                Some(Ok(chunk)) => self.buffer.extend_from_slice(&chunk),
                Some(Err(e)) => return Err(format!("{:#}", anyhow::Error::from(e))),
                None => return Ok(None),
            }
        }
    }

    /// POSTs a move; a `200` acknowledges it.
    pub(super) async fn send_move(&mut self, uci: &str) -> Sent {
        let url = format!("{}{uci}", self.moves_url);
        let request = async {
            let response = self
                .client
                .post(&url)
                .bearer_auth(&self.token)
                .timeout(REQUEST_TIMEOUT)
                .send()
                .await?;
            let status = response.status();
            let body = response.bytes().await?;
            Ok::<_, reqwest::Error>((status, body))
        };
        match request.await {
            Ok((status, _)) if status == reqwest::StatusCode::OK => Sent::Acked,
            Ok((status, body)) => Sent::Refused(format!(
                "HTTP {status}: {}",
                String::from_utf8_lossy(&body).trim()
            )),
            Err(e) => Sent::Refused(format!("{:#}", anyhow::Error::from(e))),
        }
    }
}
