//! The engine's evaluation of a position, in the shape of lichess's cloud
//! evaluation, for the analysis board and evaluation graphs: a quick answer
//! per position, and a deepening one for the position a player looks at, told
//! at every completed depth. One search at a time (the engine uses a whole
//! core), answers cached per position.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use caissa_engine::{Engine, Info, Limits, Score};
use caissa_rules::{Color, Move, Position};
use serde_json::{json, Value};
use tokio::sync::{mpsc, Semaphore};

use crate::http::error::ApiError;

/// Nodes searched per evaluation: a fraction of a second on one core.
const NODES: u64 = 400_000;
/// Nodes searched by a deepening evaluation: a few seconds on one core.
const DEEP_NODES: u64 = 6_000_000;
/// Positions remembered.
const CACHE_SIZE: usize = 20_000;
/// How long a request waits for the engine before being told to try later.
const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// Answers by position (FEN) and number of lines.
type Cache = Mutex<HashMap<(String, usize), Arc<Value>>>;

/// The engine's share of the server: one search at a time, and a cache.
pub struct Analysis {
    permit: Arc<Semaphore>,
    cache: Arc<Cache>,
}

impl Default for Analysis {
    fn default() -> Analysis {
        Analysis {
            permit: Arc::new(Semaphore::new(1)),
            cache: Arc::default(),
        }
    }
}

/// A deepening evaluation: its answers, deeper each time, and the switch that
/// stops it (pulled when this is dropped: the reader went away).
pub struct Deepening {
    /// Each completed depth's answer, in the shape of [`Analysis::evaluate`]'s.
    pub answers: mpsc::Receiver<Value>,
    stop: Arc<AtomicBool>,
}

impl Drop for Deepening {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
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

    /// Searches `pos` for a few seconds with `multipv` lines, telling the
    /// answer at every completed depth (the last one is kept in the cache); a
    /// position that is over has one answer. 429 if the engine stays busy.
    pub async fn deepen(&self, pos: Position, multipv: usize) -> Result<Deepening, ApiError> {
        let busy = || ApiError::TooManyRequests {
            message: "the engine is busy; try again in a second".into(),
            retry_after_ms: 1_000,
        };
        let permit = tokio::time::timeout(QUEUE_WAIT, self.permit.clone().acquire_owned())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        let (tx, answers) = mpsc::channel(64);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let cache = self.cache.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            if pos.legal_moves().is_empty() {
                let _ = tx.blocking_send(evaluate(&pos, multipv));
                return;
            }
            let wanted = multipv.min(pos.legal_moves().len());
            let mut lines: Vec<Option<(Score, Vec<Move>)>> = vec![None; wanted];
            let mut engine = Engine::new(16);
            engine.multipv = multipv;
            let limits = Limits {
                nodes: Some(DEEP_NODES),
                ..Limits::default()
            };
            let mut last = None;
            let mut on_info = |info: &Info| {
                let Some(slot) = lines.get_mut(info.multipv as usize - 1) else {
                    return;
                };
                *slot = Some((info.score, info.pv.clone()));
                if info.multipv as usize == wanted {
                    let found: Vec<(Score, Vec<Move>)> = lines.iter().flatten().cloned().collect();
                    let answer = answer_json(&pos, info.depth, info.nodes, &found);
                    if tx.blocking_send(answer.clone()).is_err() {
                        stopped.store(true, Ordering::Relaxed);
                    }
                    last = Some(answer);
                }
            };
            engine.search(
                std::slice::from_ref(&pos),
                &limits,
                Some(&stopped),
                None,
                &mut on_info,
            );
            if let (Some(answer), false) = (last, stopped.load(Ordering::Relaxed)) {
                let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
                cache.insert((pos.fen(), multipv), Arc::new(answer));
            }
        });
        Ok(Deepening { answers, stop })
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
    let lines: Vec<(Score, Vec<Move>)> = result
        .lines
        .into_iter()
        .map(|line| (line.score, line.pv))
        .collect();
    answer_json(pos, result.depth, result.nodes, &lines)
}

/// An answer in lichess's shape from the engine's lines (scores from the side
/// to move, as the engine gives them; from White's side in the answer).
fn answer_json(pos: &Position, depth: u32, nodes: u64, lines: &[(Score, Vec<Move>)]) -> Value {
    let sign = if pos.turn() == Color::White { 1 } else { -1 };
    let pvs: Vec<Value> = lines
        .iter()
        .map(|(score, pv)| {
            let mut p = *pos;
            let moves: Vec<String> = pv
                .iter()
                .map(|&m| {
                    let uci = p.to_uci(m);
                    p.play_unchecked(m);
                    uci
                })
                .collect();
            match score {
                Score::Cp(cp) => json!({ "moves": moves.join(" "), "cp": sign * cp }),
                Score::Mate(n) => json!({ "moves": moves.join(" "), "mate": sign * n }),
            }
        })
        .collect();
    json!({
        "fen": pos.fen(),
        "knodes": nodes / 1000,
        "depth": depth,
        "pvs": pvs,
    })
}
