//! The PGN reader never panics and always terminates, whatever the bytes.
#![no_main]

use caissa_pgn::{Reader, Replayer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut reader = Reader::from_bytes(data);
    let mut replayer = Replayer::new();
    while let Ok(Some(_)) = reader.read_game(&mut replayer) {}
});
