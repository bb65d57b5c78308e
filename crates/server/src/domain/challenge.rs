//! A challenge: a game offered to one player (or, open, to anyone with the link)
//! on stated terms, waiting for an answer; kept in the store until answered, so
//! that it outlives a restart.

use caissa_arbiter::{Ruleset, TimeControl};
use caissa_rules::Color;
use caissa_store::{StoredChallenge, User};
use serde::{Deserialize, Serialize};

use crate::domain::choice::ColorChoice;
use crate::http::error::ApiError;

/// A challenge waiting for an answer.
#[derive(Clone, Debug)]
pub struct Challenge {
    /// Its id (the game's id once accepted).
    pub id: String,
    /// Who challenges.
    pub challenger: User,
    /// Who is challenged; `None` for an open challenge (a link anyone may accept).
    pub dest: Option<User>,
    /// The terms.
    pub terms: Terms,
    /// When, ms.
    pub created_at: u64,
    /// The players' ratings at the challenge's speed, as shown with it (set
    /// when it is offered or read back).
    pub ratings: Ratings,
}

/// The ratings shown with a challenge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ratings {
    /// The challenger's.
    pub challenger: Option<ShownRating>,
    /// The challenged player's (none for an open challenge).
    pub dest: Option<ShownRating>,
}

/// A rating as shown next to a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShownRating {
    /// The rating, rounded.
    pub rating: u32,
    /// Whether it is still provisional (shown with a `?`).
    pub provisional: bool,
}

impl Challenge {
    /// Whether `user` is the one challenged.
    pub fn is_for(&self, user: i64) -> bool {
        self.dest.as_ref().is_some_and(|d| d.id == user)
    }

    /// Whether `user` made it or is challenged.
    pub fn concerns(&self, user: i64) -> bool {
        self.challenger.id == user || self.is_for(user)
    }
}

/// What a challenge offers to play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// The clock.
    pub time_control: TimeControl,
    /// The challenger's colour as asked.
    pub color: ColorChoice,
    /// The challenger's colour in the game (`random` drawn when the challenge is
    /// made, as lichess shows it). Absent in challenges stored before it was
    /// kept: drawn again.
    #[serde(default, rename = "final_color")]
    pub challenger_color: Option<Color>,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The rules it will be played under.
    pub ruleset: Ruleset,
    /// The finished game this challenge offers to play again, colours swapped.
    pub rematch_of: Option<String>,
    /// The starting position, if not the usual one (FEN).
    #[serde(default)]
    pub fen: Option<String>,
    /// Whether the game is Chess960.
    #[serde(default)]
    pub chess960: bool,
    /// The accounts the challenger named arbiters of the game (Laws 12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arbiters: Vec<i64>,
    /// Their names, shown with the challenge: accepting it accepts them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arbiter_names: Vec<String>,
}

impl Terms {
    /// The challenger's colour in the game.
    pub fn challenger_color(&self) -> Color {
        self.challenger_color.unwrap_or_else(|| self.color.draw())
    }
}

/// A challenge as the store keeps it.
pub fn to_stored(c: &Challenge) -> Result<StoredChallenge, ApiError> {
    let mut terms = c.terms.clone();
    terms.challenger_color = Some(c.terms.challenger_color());
    Ok(StoredChallenge {
        id: c.id.clone(),
        challenger_id: c.challenger.id,
        dest_id: c.dest.as_ref().map(|d| d.id),
        terms: serde_json::to_string(&terms)
            .map_err(|e| ApiError::Internal(format!("challenge {}: {e}", c.id)))?,
        created_at: c.created_at as i64,
    })
}

/// Stored terms, read back.
pub fn terms_of(stored: &StoredChallenge) -> Result<Terms, ApiError> {
    serde_json::from_str(&stored.terms)
        .map_err(|e| ApiError::Internal(format!("challenge {}: unreadable terms: {e}", stored.id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_stored_before_the_final_colour_was_kept_still_read() {
        let old = r#"{"time_control":{"periods":[],"per_move_ms":null},"color":"black","rated":false,"ruleset":"online","rematch_of":null}"#;
        let stored = StoredChallenge {
            id: "c".into(),
            challenger_id: 1,
            dest_id: None,
            terms: old.into(),
            created_at: 0,
        };
        let terms = terms_of(&stored).unwrap();
        assert_eq!(terms.color, ColorChoice::Black);
        assert_eq!(terms.challenger_color(), Color::Black);
    }
}
