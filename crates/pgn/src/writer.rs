//! The PGN export format (PGN standard, section 8): the Seven Tag Roster first in
//! its order, the other tags after it in ASCII order, movetext wrapped at 80
//! columns, canonical SAN with `+`/`#` (moves are replayed, so lenient input comes
//! out clean), `$n` NAGs, `{}` comments (a `}` inside a comment, which PGN cannot
//! escape, is written as `)`), variations in parentheses, and the result.

use caissa_rules::san::SanPlus;
use caissa_rules::Position;

use crate::setup;
use crate::tree::{GameTree, Variation};

/// The Seven Tag Roster with the values used when a tag is missing.
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Why a game could not be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// Its tags give no starting position.
    #[error(transparent)]
    Setup(#[from] setup::SetupError),
    /// A move is not legal in its position.
    #[error("ply {ply}: {error}")]
    Move {
        /// The move's ply (1 for the game's first move).
        ply: u32,
        /// What is wrong with it.
        error: caissa_rules::san::SanError,
    },
}

/// Longest movetext line written.
pub const LINE_WIDTH: usize = 80;

/// Writes a game in export format, ending with a blank line. Fails, naming the ply
/// (1 for the game's first move, as the reader counts), if a move is not legal in
/// its position.
pub fn write_game(game: &GameTree) -> Result<String, WriteError> {
    let mut out = String::with_capacity(1024);
    for (name, default) in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => game.result.as_str(),
            _ => game.tag(name).unwrap_or(default),
        };
        write_tag(&mut out, name, value);
    }
    let mut others: Vec<&(String, String)> = game
        .tags
        .iter()
        .filter(|(n, _)| !SEVEN_TAG_ROSTER.iter().any(|(r, _)| r == n))
        .collect();
    others.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, value) in others {
        write_tag(&mut out, name, value);
    }
    out.push('\n');

    let chess960 = match game.tag("Variant") {
        Some(v) => setup::variant_is_chess960(v)?,
        None => false,
    };
    let start = setup::starting_position(game.tag("FEN"), chess960)?;
    let mut words = Vec::new();
    write_variation(&game.mainline, start, 1, &mut words)?;
    words.push(game.result.clone());
    wrap(&words, &mut out);
    out.push('\n');
    Ok(out)
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push_str("\"]\n");
}

fn push_comment(words: &mut Vec<String>, text: &str) {
    let text = text.replace('}', ")");
    let mut parts: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if parts.is_empty() {
        parts.push(String::new());
    }
    let last = parts.len() - 1;
    parts[0].insert(0, '{');
    parts[last].push('}');
    words.extend(parts);
}

/// Writes a line whose first move is ply `first_ply` of the game (a variation's first
/// move has the ply of the move it replaces).
fn write_variation(
    line: &Variation,
    start: Position,
    first_ply: u32,
    words: &mut Vec<String>,
) -> Result<(), WriteError> {
    for comment in &line.comments {
        push_comment(words, comment);
    }
    let mut pos = start;
    let mut need_number = true;
    for (ply, node) in (first_ply..).zip(&line.moves) {
        let m = node
            .san
            .to_move(&pos)
            .map_err(|error| WriteError::Move { ply, error })?;
        let number = pos.fullmoves();
        if pos.turn().index() == 0 {
            words.push(format!("{number}."));
        } else if need_number {
            words.push(format!("{number}..."));
        }
        words.push(SanPlus::from_move(&pos, m).to_string());
        for nag in &node.nags {
            words.push(format!("${nag}"));
        }
        for comment in &node.comments {
            push_comment(words, comment);
        }
        need_number = !node.comments.is_empty() || !node.variations.is_empty();
        for variation in &node.variations {
            let first = words.len();
            write_variation(variation, pos, ply, words)?;
            if words.len() == first {
                words.push(String::new());
            }
            words[first].insert(0, '(');
            if let Some(last) = words.last_mut() {
                last.push(')');
            }
        }
        pos.play_unchecked(m);
    }
    Ok(())
}

fn wrap(words: &[String], out: &mut String) {
    let mut width = 0;
    for word in words {
        if width > 0 && width + 1 + word.len() > LINE_WIDTH {
            out.push('\n');
            width = 0;
        }
        if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.len();
    }
    out.push('\n');
}
