//! The choices a request makes, as enums (read by the typed request fields).

use caissa_rules::Color;
use serde::{Deserialize, Serialize};

/// The colour a challenger or seeker asks for.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn by lot.
    #[default]
    Random,
}

impl ColorChoice {
    /// `white`, `black` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    /// The colour, drawing one now for `random`.
    pub fn draw(self) -> Color {
        match self {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random if rand::random::<bool>() => Color::White,
            ColorChoice::Random => Color::Black,
        }
    }
}

impl From<Color> for ColorChoice {
    fn from(color: Color) -> ColorChoice {
        match color {
            Color::White => ColorChoice::White,
            Color::Black => ColorChoice::Black,
        }
    }
}

/// The variant a challenge asks for (lichess's keys).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum VariantChoice {
    /// The usual game (from the usual start, or from `fen`).
    #[default]
    Standard,
    /// Chess960: one of the 960 starting positions, at random or from `fen`.
    Chess960,
    /// From the position in `fen`.
    FromPosition,
}
