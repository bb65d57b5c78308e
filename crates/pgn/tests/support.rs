//! Helpers shared by the test modules: reading whole inputs into comparable
//! summaries, a `Read` that hands out a few bytes at a time, and comparing trees
//! the way the export format defines them.

use std::io::{self, Read};

use caissa_pgn::{GameTree, PgnError, Reader, Replayer, TreeBuilder, Variation, SEVEN_TAG_ROSTER};

/// What the replaying visitor says about one game, in a comparable form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub game: u64,
    pub result: String,
    pub plies: u32,
    pub fen: String,
    pub error: Option<PgnError>,
}

/// Replays every game of `input`.
pub fn replay_from<R: Read>(input: R) -> Vec<Summary> {
    let mut reader = Reader::new(input);
    let mut replayer = Replayer::new();
    let mut out = Vec::new();
    while let Some(game) = reader.read_game(&mut replayer).expect("no I/O error") {
        out.push(Summary {
            game: game.game,
            result: game.result,
            plies: game.plies,
            fen: game.position.fen(),
            error: game.error,
        });
    }
    out
}

/// Replays every game of a text.
pub fn replay(text: &str) -> Vec<Summary> {
    replay_from(text.as_bytes())
}

/// Replays a text that must hold exactly one game.
pub fn replay_one(text: &str) -> Summary {
    let mut games = replay(text);
    assert_eq!(games.len(), 1, "expected one game in {text:?}: {games:?}");
    games.remove(0)
}

/// Builds the tree of every game of `input`.
pub fn trees_from<R: Read>(input: R) -> Vec<Result<GameTree, PgnError>> {
    let mut reader = Reader::new(input);
    let mut builder = TreeBuilder::new();
    let mut out = Vec::new();
    while let Some(tree) = reader.read_game(&mut builder).expect("no I/O error") {
        out.push(tree);
    }
    out
}

/// Builds the tree of every game of a text.
pub fn trees(text: &str) -> Vec<Result<GameTree, PgnError>> {
    trees_from(text.as_bytes())
}

/// The tree of a text that must hold exactly one game, read without error.
pub fn tree_one(text: &str) -> GameTree {
    let mut games = trees(text);
    assert_eq!(games.len(), 1, "expected one game in {text:?}");
    games
        .remove(0)
        .unwrap_or_else(|e| panic!("{text:?} should read cleanly: {e}"))
}

/// A `Read` over bytes in memory that returns at most `chunk` bytes per call
/// (one byte at a time with `chunk == 1`).
pub struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl<'a> Chunked<'a> {
    pub fn new(data: &'a [u8], chunk: usize) -> Chunked<'a> {
        Chunked {
            data,
            chunk: chunk.max(1),
        }
    }
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Collapses runs of whitespace to one space (the export format re-wraps comments).
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn squash_variation(line: &Variation) -> Variation {
    Variation {
        comments: line.comments.iter().map(|c| squash(c)).collect(),
        moves: line
            .moves
            .iter()
            .map(|node| {
                let mut node = node.clone();
                node.comments = node.comments.iter().map(|c| squash(c)).collect();
                node.variations = node.variations.iter().map(squash_variation).collect();
                node
            })
            .collect(),
    }
}

/// The tree as the export format should give it back: the Seven Tag Roster first
/// (with its placeholders, and `Result` from the movetext), the other tags in ASCII
/// order, comments with their whitespace collapsed. Assumes tag names are unique.
pub fn as_exported(tree: &GameTree) -> GameTree {
    let mut tags: Vec<(String, String)> = SEVEN_TAG_ROSTER
        .iter()
        .map(|&(name, default)| {
            let value = if name == "Result" {
                tree.result.clone()
            } else {
                tree.tag(name).unwrap_or(default).to_string()
            };
            (name.to_string(), value)
        })
        .collect();
    let mut others: Vec<(String, String)> = tree
        .tags
        .iter()
        .filter(|(n, _)| !SEVEN_TAG_ROSTER.iter().any(|(r, _)| r == n))
        .cloned()
        .collect();
    others.sort_by(|a, b| a.0.cmp(&b.0));
    tags.extend(others);
    GameTree {
        tags,
        mainline: squash_variation(&tree.mainline),
        result: tree.result.clone(),
    }
}

/// The deepest nesting of variations in a line (0 for a line without any).
pub fn depth(line: &Variation) -> usize {
    line.moves
        .iter()
        .flat_map(|n| n.variations.iter())
        .map(|v| 1 + depth(v))
        .max()
        .unwrap_or(0)
}
