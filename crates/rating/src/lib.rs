//! Ratings: Glicko-2 (as online servers use it), FIDE Elo, the ladder points and
//! levels of the seed's online game, and game scores. Pure functions and small
//! types; no I/O.

pub mod elo;
pub mod glicko2;
pub mod ladder;
mod score;

pub use score::{Outcome, Score};
