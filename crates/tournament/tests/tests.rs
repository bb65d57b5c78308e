//! Tournament tests: TRF files, pairing systems, standings.

mod trf;
