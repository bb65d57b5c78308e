//! The engine's evaluation of a position, in the shape of lichess's cloud
//! evaluation, for the analysis board and evaluation graphs. One search at a
//! time (the engine uses a whole core), answers cached per position.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use caissa_engine::{Engine, Limits, Score};
use caissa_rules::{Color, Position};
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::http::error::ApiError;

/// Nodes searched per evaluation: a fraction of a second on one core.
const NODES: u64 = 400_000;
/// Positions remembered.
const CACHE_SIZE: usize = 20_000;
/// How long a request waits for the engine before being told to try later.
const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// The engine's share of the server: one search at a time, and a cache.
pub struct Analysis {
    permit: Semaphore,
    cache: Mutex<HashMap<(String, usize), Arc<Value>>>,
}

impl Default for Analysis {
    fn default() -> Analysis {
        Analysis {
            permit: Semaphore::new(1),
            cache: Mutex::default(),
        }
    }
}

impl Analysis {
    /// The evaluation of `pos` with `multipv` lines: `{fen, knodes, depth, pvs:
    /// [{moves, cp | mate}]}`, scores from White's point of view, moves in UCI;
    /// from the cache, or searched when the engine is free (429 if it stays busy).
    pub async fn evaluate(&self, pos: Position, multipv: usize) -> Result<Arc<Value>, ApiError> {
        let key = (pos.fen(), multipv);
        if let Some(hit) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(hit.clone());
        }
        let busy = || ApiError::TooManyRequests {
            message: "the engine is busy; try again in a second".into(),
            retry_after_ms: 1_000,
        };
        let _permit = tokio::time::timeout(QUEUE_WAIT, self.permit.acquire())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        let answer = tokio::task::spawn_blocking(move || evaluate(&pos, multipv))
            .await
            .map_err(|e| ApiError::Internal(format!("the evaluation failed: {e}")))?;
        let answer = Arc::new(answer);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_SIZE {
            cache.clear();
        }
        cache.insert(key, answer.clone());
        Ok(answer)
    }
}

/// The evaluation of `pos` in lichess's shape.
fn evaluate(pos: &Position, multipv: usize) -> Value {
    let fen = pos.fen();
    if pos.legal_moves().is_empty() {
        // Mate (the side to move has lost: ±10000 from White's side) or stalemate.
        let cp = match (pos.is_check(), pos.turn()) {
            (false, _) => 0,
            (true, Color::White) => -10_000,
            (true, Color::Black) => 10_000,
        };
        let pv = json!({ "moves": "", "cp": cp });
        return json!({ "fen": fen, "knodes": 0, "depth": 0, "pvs": [pv] });
    }
    let mut engine = Engine::new(16);
    engine.multipv = multipv;
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let result = engine.search(std::slice::from_ref(pos), &limits, None, None, &mut |_| {});
    // Scores are from the side to move; lichess gives them from White's side.
    let sign = if pos.turn() == Color::White { 1 } else { -1 };
    let pvs: Vec<Value> = result
        .lines
        .iter()
        .map(|line| {
            let mut p = *pos;
            let moves: Vec<String> = line
                .pv
                .iter()
                .map(|&m| {
                    let uci = p.to_uci(m);
                    p.play_unchecked(m);
                    uci
                })
                .collect();
            match line.score {
                Score::Cp(cp) => json!({ "moves": moves.join(" "), "cp": sign * cp }),
                Score::Mate(n) => json!({ "moves": moves.join(" "), "mate": sign * n }),
            }
        })
        .collect();
    json!({
        "fen": fen,
        "knodes": result.nodes / 1000,
        "depth": result.depth,
        "pvs": pvs,
    })
}
