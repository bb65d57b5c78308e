//! Opening names: the ECO code and name of a position, and of a game by the
//! last named position it reached.
//!
//! The names are the public-domain data set lichess maintains
//! (`data/*.tsv`, CC0), embedded at build time. Each line's moves are played
//! once, when the table is first used, and the position they reach is the
//! key: placement, side to move, castling rights and a capturable en-passant
//! square (the first four FEN fields, as the rules write them). So a game that
//! reaches the Queen's Gambit Declined by 1. Nf3 d5 2. d4 Nf6 3. c4 e6 is named
//! as one that played 1. d4 d5 2. c4 e6 3. Nf3 Nf6.
//!
//! ```
//! use caissa_openings::Openings;
//! use caissa_rules::Position;
//!
//! let mut pos = Position::new();
//! for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
//!     let m = pos.parse_san(san).unwrap();
//!     pos.play_unchecked(m);
//! }
//! let opening = Openings::bundled().of_position(&pos).unwrap();
//! assert_eq!(opening.eco, "C60");
//! assert_eq!(opening.name, "Ruy Lopez");
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use caissa_rules::Position;

/// The data files, in ECO order.
const FILES: [(&str, &str); 5] = [
    ("a.tsv", include_str!("../data/a.tsv")),
    ("b.tsv", include_str!("../data/b.tsv")),
    ("c.tsv", include_str!("../data/c.tsv")),
    ("d.tsv", include_str!("../data/d.tsv")),
    ("e.tsv", include_str!("../data/e.tsv")),
];

/// A named opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code (`C60`).
    pub eco: String,
    /// The name (`Ruy Lopez: Morphy Defense`).
    pub name: String,
    /// The number of half-moves of the line that names it.
    pub ply: u32,
}

/// Why a table of openings could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}, line {line}: {message}")]
pub struct OpeningsError {
    /// The file.
    pub file: String,
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The openings by the position they name.
#[derive(Debug, Default)]
pub struct Openings {
    by_position: HashMap<String, Opening>,
    /// The longest named line, in half-moves: no game is named after it.
    max_ply: u32,
}

/// The key of a position: the first four fields of its FEN.
pub fn position_key(pos: &Position) -> String {
    let fen = pos.fen();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

impl Openings {
    /// The embedded table, read once.
    pub fn bundled() -> &'static Openings {
        static TABLE: OnceLock<Openings> = OnceLock::new();
        TABLE.get_or_init(|| {
            // The embedded data is checked by this crate's tests.
            Openings::from_tsv(&FILES).unwrap_or_default()
        })
    }

    /// Reads tables in the data set's format: a header line, then `eco`,
    /// `name` and the moves in SAN with move numbers, tab-separated. When two
    /// lines reach one position, the first names it.
    pub fn from_tsv(files: &[(&str, &str)]) -> Result<Openings, OpeningsError> {
        let mut by_position = HashMap::new();
        for (file, text) in files {
            for (index, line) in text.lines().enumerate().skip(1) {
                if line.trim().is_empty() {
                    continue;
                }
                let error = |message: String| OpeningsError {
                    file: file.to_string(),
                    line: index + 1,
                    message,
                };
                let mut fields = line.split('\t');
                let (Some(eco), Some(name), Some(moves)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    return Err(error(
                        "expected eco, name and moves separated by tabs".into(),
                    ));
                };
                let mut pos = Position::new();
                let mut ply = 0;
                for token in moves.split_whitespace() {
                    if token.ends_with('.') {
                        continue;
                    }
                    let m = pos.parse_san(token).map_err(|e| error(e.to_string()))?;
                    pos.play_unchecked(m);
                    ply += 1;
                }
                by_position.entry(position_key(&pos)).or_insert(Opening {
                    eco: eco.to_string(),
                    name: name.to_string(),
                    ply,
                });
            }
        }
        let max_ply = by_position.values().map(|o| o.ply).max().unwrap_or(0);
        Ok(Openings {
            by_position,
            max_ply,
        })
    }

    /// How many positions are named.
    pub fn len(&self) -> usize {
        self.by_position.len()
    }

    /// Whether no position is named.
    pub fn is_empty(&self) -> bool {
        self.by_position.is_empty()
    }

    /// The opening that names `pos`, if one does.
    pub fn of_position(&self, pos: &Position) -> Option<&Opening> {
        self.by_position.get(&position_key(pos))
    }

    /// The longest named line, in half-moves.
    pub fn max_ply(&self) -> u32 {
        self.max_ply
    }

    /// The opening of a game given its positions from the initial one: the
    /// last named position it reached (positions past [`Openings::max_ply`]
    /// are not looked at).
    pub fn of_game<'a>(
        &self,
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> Option<&Opening> {
        positions
            .into_iter()
            .take(self.max_ply as usize + 1)
            .filter_map(|pos| self.of_position(pos))
            .last()
    }

    /// Every named position: its key and its opening.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Opening)> {
        self.by_position.iter().map(|(k, o)| (k.as_str(), o))
    }
}
