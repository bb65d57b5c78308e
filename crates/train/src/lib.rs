//! Caissa's network trainer, kept out of the engine's hot path.
//!
//! * [`datagen`]: positions from the engine's own self-play, labelled with the
//!   search's score and the game's result, in 32-byte [`record`]s.
//! * [`trainer`]: fits the engine's NNUE network to them on the CPU and writes the
//!   quantised net the engine embeds.

pub mod datagen;
pub mod model;
pub mod record;
pub mod trainer;
