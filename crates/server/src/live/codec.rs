//! The one place games are written for the store and read back: the setup and
//! each event as JSON. Encoding cannot silently give an empty string, and a
//! stored text that does not decode is the server's fault (500), never the
//! client's.

use caissa_arbiter::{Event, GameSetup};

use crate::http::error::ApiError;

/// An event as stored.
pub fn encode_event(event: &Event) -> Result<String, ApiError> {
    serde_json::to_string(event).map_err(|e| ApiError::Internal(format!("encoding an event: {e}")))
}

/// Events as stored.
pub fn encode_events(events: &[Event]) -> Result<Vec<String>, ApiError> {
    events.iter().map(encode_event).collect()
}

/// A stored event of game `game`.
pub fn decode_event(game: &str, seq: usize, text: &str) -> Result<Event, ApiError> {
    serde_json::from_str(text)
        .map_err(|e| ApiError::Internal(format!("game {game}: stored event {seq} is corrupt: {e}")))
}

/// A setup as stored.
pub fn encode_setup(setup: &GameSetup) -> Result<String, ApiError> {
    serde_json::to_string(setup).map_err(|e| ApiError::Internal(format!("encoding a setup: {e}")))
}

/// A stored setup of game `game`.
pub fn decode_setup(game: &str, text: &str) -> Result<GameSetup, ApiError> {
    serde_json::from_str(text)
        .map_err(|e| ApiError::Internal(format!("game {game}: stored setup is corrupt: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use caissa_arbiter::{Game, Ruleset, TimeControl};

    #[test]
    fn events_and_setups_come_back_as_they_went_in() {
        let setup = GameSetup::new("a", "b", Ruleset::Online, TimeControl::fischer(60_000, 0));
        let game = Game::new(setup.clone(), 5).unwrap();
        let stored = encode_events(game.events()).unwrap();
        assert!(stored.iter().all(|s| !s.is_empty()));
        let back: Vec<Event> = stored
            .iter()
            .enumerate()
            .map(|(i, s)| decode_event("g", i, s).unwrap())
            .collect();
        assert_eq!(back, game.events());
        let text = encode_setup(&setup).unwrap();
        assert_eq!(decode_setup("g", &text).unwrap(), setup);
    }

    #[test]
    fn a_corrupt_stored_event_is_the_servers_fault() {
        let e = decode_event("g", 3, "{not json").unwrap_err();
        assert_eq!(e.status(), axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        assert!(e.to_string().contains("event 3"));
    }
}
