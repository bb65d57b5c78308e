//! Several nodes on PostgreSQL. Times are the database's own clock, so nodes
//! whose clocks disagree still agree on whose lease has run out.
//!
//! Fencing: appending to a game's log first locks the game's row (`FOR SHARE`)
//! and checks that it names this node's generation as owner; taking a game over
//! updates that row, so it waits for an append in progress and the old owner's
//! next append finds the new owner and is refused. Every acknowledged event
//! was committed while its writer owned the game, and the new owner reads the
//! log after it took the game: nothing acknowledged is lost, nothing is written
//! twice.

use async_trait::async_trait;
use sqlx::Row;

use super::PgStore;
use crate::backend::{Nodes, Records};
use crate::cluster::{Lease, Listener, Owner, TakenOver, CHANNEL};
use crate::StoreError;

/// The database's clock, ms since the epoch.
pub(super) const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

#[async_trait]
impl Nodes for PgStore {
    async fn join(&self, address: &str, ttl_ms: i64) -> Result<Option<Lease>, StoreError> {
        let mut tx = self.pool.begin().await?;
        // A node started again at its address supersedes its last run there
        // (two running nodes cannot listen on one address): that run's games
        // are adopted at once instead of when its lease would have run out.
        sqlx::query(&format!(
            "UPDATE node_leases SET expires_at = {NOW_MS} \
             WHERE address = $1 AND expires_at > {NOW_MS}"
        ))
        .bind(address)
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(&format!(
            "INSERT INTO node_leases (address, started_at, renewed_at, expires_at) \
             VALUES ($1, {NOW_MS}, {NOW_MS}, {NOW_MS} + $2) RETURNING generation"
        ))
        .bind(address)
        .bind(ttl_ms)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        let generation: i64 = row.try_get("generation")?;
        *self.generation.write().unwrap_or_else(|e| e.into_inner()) = Some(generation);
        Ok(Some(Lease {
            generation,
            address: address.to_string(),
        }))
    }

    async fn renew(&self, ttl_ms: i64) -> Result<bool, StoreError> {
        let Some(generation) = self.generation() else {
            return Ok(false);
        };
        let done = sqlx::query(&format!(
            "UPDATE node_leases SET renewed_at = {NOW_MS}, expires_at = {NOW_MS} + $2 \
             WHERE generation = $1 AND expires_at > {NOW_MS}"
        ))
        .bind(generation)
        .bind(ttl_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn leave(&self) -> Result<(), StoreError> {
        let Some(generation) = self.generation() else {
            return Ok(());
        };
        sqlx::query(&format!(
            "UPDATE node_leases SET expires_at = LEAST(expires_at, {NOW_MS}) WHERE generation = $1"
        ))
        .bind(generation)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn take_over(&self, limit: i64) -> Result<Vec<TakenOver>, StoreError> {
        let Some(generation) = self.generation() else {
            return Ok(Vec::new());
        };
        // Unfinished games whose owner has no running lease (or none at all: a
        // game copied from SQLite), while this node's own lease runs; rows being
        // written by their old owner are skipped now and taken next time.
        let rows = sqlx::query(&format!(
            "WITH orphans AS ( \
               SELECT g.id, g.owner AS old_owner FROM games g \
               WHERE g.finished = FALSE AND g.owner IS DISTINCT FROM $1 \
                 AND NOT EXISTS (SELECT 1 FROM node_leases l \
                                 WHERE l.generation = g.owner AND l.expires_at > {NOW_MS}) \
                 AND EXISTS (SELECT 1 FROM node_leases me \
                             WHERE me.generation = $1 AND me.expires_at > {NOW_MS}) \
               ORDER BY g.created_at, g.id LIMIT $2 \
               FOR UPDATE OF g SKIP LOCKED) \
             UPDATE games SET owner = $1 FROM orphans WHERE games.id = orphans.id \
             RETURNING games.id, \
               (SELECT l.renewed_at FROM node_leases l WHERE l.generation = orphans.old_owner) AS last_seen"
        ))
        .bind(generation)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut taken = Vec::with_capacity(rows.len());
        for row in rows {
            let id: String = row.try_get("id")?;
            let last_seen: Option<i64> = row.try_get("last_seen")?;
            if let Some(game) = self.game(&id).await? {
                taken.push(TakenOver { game, last_seen });
            }
        }
        Ok(taken)
    }

    async fn owner_of(&self, game_id: &str) -> Result<Option<Owner>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT l.generation, l.address, l.expires_at > {NOW_MS} AS alive \
             FROM games g JOIN node_leases l ON l.generation = g.owner WHERE g.id = $1"
        ))
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(Owner {
                generation: r.try_get("generation")?,
                address: r.try_get("address")?,
                alive: r.try_get("alive")?,
            })
        })
        .transpose()
    }

    async fn running_nodes(&self) -> Result<Vec<Lease>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT generation, address FROM node_leases WHERE expires_at > {NOW_MS} ORDER BY generation"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Lease {
                    generation: r.try_get("generation")?,
                    address: r.try_get("address")?,
                })
            })
            .collect()
    }

    async fn cluster_secret(&self, candidate: &str) -> Result<String, StoreError> {
        sqlx::query("INSERT INTO cluster (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING")
            .bind(candidate)
            .execute(&self.pool)
            .await?;
        let row = sqlx::query("SELECT secret FROM cluster WHERE id = 1")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("secret")?)
    }

    async fn publish(&self, message: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(message)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn listen(&self) -> Result<Option<Listener>, StoreError> {
        let mut inner = sqlx::postgres::PgListener::connect_with(&self.pool).await?;
        inner.listen(CHANNEL).await?;
        Ok(Some(Listener { inner }))
    }
}
