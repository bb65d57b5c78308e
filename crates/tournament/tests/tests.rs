//! Tournament tests: TRF files, pairing systems, standings.

mod arena;
mod dutch;
mod dutch_properties;
mod round_robin;
mod tiebreaks;
mod trf;
