//! The starting position a game's tags describe (`FEN`, `SetUp`, `Variant`).

use caissa_rules::{fen, CastlingMode, Position};

use crate::reader::Location;

/// Why a game's tags give no starting position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The `Variant` tag names a variant that is not played here.
    #[error("unsupported variant {0:?}")]
    UnsupportedVariant(String),
    /// The `FEN` tag is not a legal position.
    #[error("FEN tag: {0}")]
    Fen(#[from] caissa_rules::fen::FenError),
}

/// Whether a `Variant` tag value names Chess960; `Err` for variants not supported.
pub fn variant_is_chess960(variant: &str) -> Result<bool, SetupError> {
    let v = variant.trim().to_ascii_lowercase();
    if v.contains("960") || v.contains("fischer") || v.contains("freestyle") {
        Ok(true)
    } else if matches!(
        v.as_str(),
        "" | "standard" | "chess" | "normal" | "from position"
    ) {
        Ok(false)
    } else {
        Err(SetupError::UnsupportedVariant(variant.to_string()))
    }
}

/// The position a game starts from: the initial position, or its `FEN` tag (read as
/// Chess960 when the `Variant` says so, otherwise detected from the castling rights).
pub fn starting_position(fen_tag: Option<&str>, chess960: bool) -> Result<Position, SetupError> {
    Ok(match fen_tag {
        None => Position::new(),
        Some(text) if chess960 => fen::parse_with_mode(text, CastlingMode::Chess960)?,
        Some(text) => fen::parse(text)?,
    })
}

/// A game's `FEN` and `Variant` tags as a visitor reads them, with where they stand.
#[derive(Default)]
pub(crate) struct SetupTags {
    fen: Option<(String, Location)>,
    variant: Option<(String, Location)>,
}

impl SetupTags {
    /// Keeps the tag if it is `FEN` or `Variant` (the last of each counts).
    pub(crate) fn tag(&mut self, name: &str, value: &str, at: Location) {
        let slot = match name {
            "FEN" => &mut self.fen,
            "Variant" => &mut self.variant,
            _ => return,
        };
        *slot = Some((value.to_string(), at));
    }

    /// The position the game starts from, or what is wrong and the tag at fault.
    pub(crate) fn starting_position(&self) -> Result<Position, (Location, String)> {
        let chess960 = match &self.variant {
            Some((variant, at)) => {
                variant_is_chess960(variant).map_err(|e| (*at, e.to_string()))?
            }
            None => false,
        };
        match &self.fen {
            Some((fen, at)) => {
                starting_position(Some(fen), chess960).map_err(|e| (*at, e.to_string()))
            }
            None => Ok(Position::new()),
        }
    }
}
