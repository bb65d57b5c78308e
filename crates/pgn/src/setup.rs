//! The starting position a game's tags describe (`FEN`, `SetUp`, `Variant`).

use caissa_rules::{fen, CastlingMode, Position};

/// Whether a `Variant` tag value names Chess960; `Err` for variants not supported.
pub fn variant_is_chess960(variant: &str) -> Result<bool, String> {
    let v = variant.trim().to_ascii_lowercase();
    if v.contains("960") || v.contains("fischer") || v.contains("freestyle") {
        Ok(true)
    } else if matches!(
        v.as_str(),
        "" | "standard" | "chess" | "normal" | "from position"
    ) {
        Ok(false)
    } else {
        Err(format!("unsupported variant {variant:?}"))
    }
}

/// The position a game starts from: the initial position, or its `FEN` tag (read as
/// Chess960 when the `Variant` says so, otherwise detected from the castling rights).
pub fn starting_position(fen_tag: Option<&str>, chess960: bool) -> Result<Position, String> {
    match fen_tag {
        None => Ok(Position::new()),
        Some(text) if chess960 => fen::parse_with_mode(text, CastlingMode::Chess960),
        Some(text) => fen::parse(text),
    }
    .map_err(|e| format!("FEN tag: {e}"))
}
