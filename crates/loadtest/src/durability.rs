//! The check that nothing acknowledged was lost: every game's moves read back
//! from the store and compared with the moves the server acknowledged.

use std::sync::Arc;

use caissa_store::Store;
use futures_util::StreamExt;
use serde_json::Value;

use super::player::GameSlot;

/// The acknowledged moves compared with the stored ones.
#[derive(Default)]
pub(super) struct Durability {
    /// Moves acknowledged.
    pub acked: u64,
    /// Acknowledged moves missing from the store (or different there).
    pub lost: u64,
    /// Stored moves never acknowledged (a request that failed on the way back).
    pub unacked: u64,
    /// Games missing from the store.
    pub missing_games: u64,
}

/// Compares every game's stored moves with the acknowledged ones.
pub(super) async fn verify(store: &Store, games: &[Arc<GameSlot>]) -> anyhow::Result<Durability> {
    let checks = futures_util::stream::iter(games)
        .map(|game| async move {
            let stored = store.game(&game.id).await?;
            let acked: Vec<Option<String>> = game.plies().iter().map(|p| p.acked.clone()).collect();
            Ok::<_, anyhow::Error>((stored, acked))
        })
        .buffer_unordered(4)
        .collect::<Vec<_>>()
        .await;
    let mut d = Durability::default();
    for check in checks {
        let (stored, acked) = check?;
        let acked_count = acked.iter().flatten().count() as u64;
        d.acked += acked_count;
        let Some(stored) = stored else {
            d.missing_games += 1;
            d.lost += acked_count;
            continue;
        };
        let moved: Vec<String> = stored
            .events
            .iter()
            .filter_map(|e| serde_json::from_str::<Value>(e).ok())
            .filter(|e| e["type"] == "moved")
            .filter_map(|e| e["uci"].as_str().map(str::to_string))
            .collect();
        for (p, uci) in acked.iter().enumerate() {
            if let Some(uci) = uci {
                if moved.get(p) != Some(uci) {
                    d.lost += 1;
                }
            }
        }
        d.unacked += (moved.len() as u64).saturating_sub(acked_count);
    }
    Ok(d)
}
