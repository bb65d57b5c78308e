//! FEN parsing never panics; whatever parses writes back to a FEN that parses to
//! the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(pos) = caissa_rules::fen::parse(text) {
            let again = caissa_rules::fen::parse(&pos.fen()).expect("written FEN parses");
            assert_eq!(again.fen(), pos.fen());
        }
    }
});
