//! One node: a SQLite installation is served by the one process that locked
//! it, which owns every game. What it did not finish in its last run it takes
//! over when it starts, charged up to its last heartbeat.

use std::sync::atomic::Ordering;

use async_trait::async_trait;

use super::SqliteStore;
use crate::backend::{Nodes, Records};
use crate::cluster::{Lease, Listener, Owner, TakenOver};
use crate::StoreError;

#[async_trait]
impl Nodes for SqliteStore {
    async fn join(&self, _address: &str, _ttl_ms: i64) -> Result<Option<Lease>, StoreError> {
        Ok(None)
    }

    async fn renew(&self, _ttl_ms: i64) -> Result<bool, StoreError> {
        Ok(true)
    }

    async fn leave(&self) -> Result<(), StoreError> {
        Ok(())
    }

    async fn take_over(&self, _limit: i64) -> Result<Vec<TakenOver>, StoreError> {
        // The unfinished games are this node's own, once: after that it runs them.
        if self.taken_over.swap(true, Ordering::SeqCst) {
            return Ok(Vec::new());
        }
        let last_seen = self.last_beat().await?;
        Ok(self
            .live_games()
            .await?
            .into_iter()
            .map(|game| TakenOver { game, last_seen })
            .collect())
    }

    async fn owner_of(&self, _game_id: &str) -> Result<Option<Owner>, StoreError> {
        Ok(None)
    }

    async fn running_nodes(&self) -> Result<Vec<Lease>, StoreError> {
        Ok(Vec::new())
    }

    async fn cluster_secret(&self, candidate: &str) -> Result<String, StoreError> {
        Ok(candidate.to_string())
    }

    async fn publish(&self, _message: &str) -> Result<(), StoreError> {
        Ok(())
    }

    async fn listen(&self) -> Result<Option<Listener>, StoreError> {
        Ok(None)
    }
}
