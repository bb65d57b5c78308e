//! SAN parsing and matching never panic; a matched move writes back to SAN that
//! names the same move.
#![no_main]

use caissa_rules::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let pos = Position::new();
        if let Ok(m) = pos.parse_san(text) {
            assert_eq!(pos.parse_san(&pos.san(m)), Ok(m));
        }
    }
});
