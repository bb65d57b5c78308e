//! Tournaments: pairing by the FIDE Berger tables (round robin) and the FIDE Dutch
//! system (Swiss), arena pairing and scoring, standings with the FIDE tiebreaks
//! (C.07, 2023), and the TRF16 files organisers exchange. Pure: no I/O, no clock.

pub mod arena;
pub mod dutch;
mod matching;
pub mod model;
pub mod pairing;
pub mod points;
pub mod round_robin;
pub mod standings;
pub mod tiebreak;
pub mod trf;

pub use model::{Bye, Colour, Entry, GameResult, Player, PlayerId, Tournament};
pub use pairing::{Board, Pairing, PairingError};
pub use points::{PointSystem, Points};
