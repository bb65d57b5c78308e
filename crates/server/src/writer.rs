//! Group commit: one task writes the new events of many games in one transaction,
//! so throughput does not stop at one SQLite transaction per move. Each game still
//! waits until its own events are durable before it acknowledges anything.

use caissa_store::{Append, Store};
use tokio::sync::{mpsc, oneshot};

use crate::error::ApiError;

/// Most appends written in one transaction.
const MAX_BATCH: usize = 512;

type Request = (Append, oneshot::Sender<Result<(), String>>);

/// A handle to the writer task.
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::Sender<Request>,
}

impl Writer {
    /// Starts the writer task over `store`.
    pub fn spawn(store: Store) -> Writer {
        let (tx, mut rx) = mpsc::channel::<Request>(4096);
        tokio::spawn(async move {
            let mut batch: Vec<Request> = Vec::with_capacity(MAX_BATCH);
            while let Some(first) = rx.recv().await {
                batch.push(first);
                while batch.len() < MAX_BATCH {
                    match rx.try_recv() {
                        Ok(request) => batch.push(request),
                        Err(_) => break,
                    }
                }
                let appends: Vec<Append> = batch.iter().map(|(a, _)| a.clone()).collect();
                let started = std::time::Instant::now();
                let stored = store.append_batch(&appends).await;
                crate::metrics::record_commit(started.elapsed().as_micros() as u64, appends.len());
                match stored {
                    Ok(()) => {
                        for (_, reply) in batch.drain(..) {
                            let _ = reply.send(Ok(()));
                        }
                    }
                    Err(_) => {
                        // One bad append must not fail the others: write them one by one.
                        for (append, reply) in batch.drain(..) {
                            let result = store
                                .append_events(
                                    &append.game_id,
                                    append.first_seq,
                                    &append.events,
                                    append.result.as_deref(),
                                )
                                .await
                                .map_err(|e| e.to_string());
                            let _ = reply.send(result);
                        }
                    }
                }
            }
        });
        Writer { tx }
    }

    /// Writes one game's new events; returns once they are durable.
    pub async fn append(&self, append: Append) -> Result<(), ApiError> {
        let (reply, done) = oneshot::channel();
        self.tx
            .send((append, reply))
            .await
            .map_err(|_| ApiError::BadRequest("the writer has stopped".into()))?;
        done.await
            .map_err(|_| ApiError::BadRequest("the writer has stopped".into()))?
            .map_err(ApiError::Storage)
    }
}
