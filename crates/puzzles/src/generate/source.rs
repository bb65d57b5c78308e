//! The games puzzles are looked for in: any PGN, or the engine's self-play.

use std::io::Read;

use caissa_pgn::{starting_position, variant_is_chess960, Reader, TreeBuilder};
use caissa_rules::{Move, Position};

/// A game to look for puzzles in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceGame {
    /// Where it starts.
    pub start: Position,
    /// Its moves.
    pub moves: Vec<Move>,
    /// Its address (empty when it has none); a puzzle's `GameUrl` adds `#ply`.
    pub url: String,
}

impl SourceGame {
    /// The position before each move and after the last; `None` if a move is
    /// not legal where it stands.
    pub fn positions(&self) -> Option<Vec<Position>> {
        let mut pos = self.start;
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        positions.push(pos);
        for &mv in &self.moves {
            pos.play(mv).ok()?;
            positions.push(pos);
        }
        Some(positions)
    }
}

/// The games of a PGN file, one at a time: each game's mainline up to its
/// first illegal move, or the reason the game cannot be read (its number
/// and the PGN error).
pub fn games_in_pgn<R: Read>(input: R) -> impl Iterator<Item = Result<SourceGame, String>> {
    let mut reader = Reader::new(input);
    let mut builder = TreeBuilder::new();
    let mut number = 0u64;
    std::iter::from_fn(move || {
        number += 1;
        let tree = match reader.read_game(&mut builder) {
            Ok(Some(Ok(tree))) => tree,
            Ok(Some(Err(e))) => return Some(Err(e.to_string())),
            Ok(None) => return None,
            Err(e) => return Some(Err(format!("game {number}: {e}"))),
        };
        let chess960 = match variant_is_chess960(tree.tag("Variant").unwrap_or("")) {
            Ok(chess960) => chess960,
            Err(e) => return Some(Err(format!("game {number}: {e}"))),
        };
        let start = match starting_position(tree.tag("FEN"), chess960) {
            Ok(start) => start,
            Err(e) => return Some(Err(format!("game {number}: {e}"))),
        };
        let mut pos = start;
        let mut moves = Vec::new();
        for node in &tree.mainline.moves {
            let Ok(mv) = node.san.to_move(&pos) else {
                break;
            };
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        let url = tree
            .tag("Site")
            .filter(|site| site.starts_with("http://") || site.starts_with("https://"))
            .unwrap_or("")
            .to_string();
        Some(Ok(SourceGame { start, moves, url }))
    })
}
