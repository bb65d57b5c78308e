//! PGN in and out: games read into trees of replayed moves, and trees written
//! back in export format by the PGN crate's writer.

use caissa_pgn::{
    starting_position, variant_is_chess960, write_game, GameTree, Node, Reader, TreeBuilder,
    Variation,
};
use caissa_rules::san::San;
use caissa_rules::{CastlingMode, Position};

use crate::json::Json;
use crate::moves::move_label;

/// Most games one `readPgn` returns; the answer says when there were more.
pub const MAX_GAMES: usize = 2000;

/// Reads every game of `text`: `{games: [...], more: bool}`. Each game is
/// `{tags: [[name, value]], fen, chess960, result, comments, moves}` with its
/// moves replayed (`{san, uci, fen, check, nags, comments, clock, variations}`,
/// each variation `{comments, moves}` an alternative to its move), or
/// `{tags, error}` naming the game, line and move that could not be read.
pub fn read(text: &str) -> Json {
    let mut reader = Reader::from_bytes(text.as_bytes());
    let mut builder = TreeBuilder::new();
    let mut games = Vec::new();
    let mut more = false;
    // Reading from memory cannot fail: an error is the end of the text.
    while let Ok(Some(next)) = reader.read_game(&mut builder) {
        if games.len() == MAX_GAMES {
            more = true;
            break;
        }
        let number = games.len() + 1;
        games.push(match next {
            Ok(tree) => game_json(number, &tree),
            Err(e) => Json::obj([
                ("tags", Json::Arr(Vec::new())),
                ("error", Json::str(e.to_string())),
            ]),
        });
    }
    Json::obj([("games", Json::Arr(games)), ("more", Json::Bool(more))])
}

/// Comments as the board shows them: a line break where the text was wrapped
/// is a space (PGN writers wrap long comments).
fn comments_json(comments: &[String]) -> Json {
    Json::Arr(
        comments
            .iter()
            .map(|c| Json::Str(c.split_whitespace().collect::<Vec<_>>().join(" ")))
            .collect(),
    )
}

fn game_json(number: usize, tree: &GameTree) -> Json {
    let tags = Json::Arr(tree.tags.iter().map(|(n, v)| Json::strs(&[n, v])).collect());
    let replayed = variant_is_chess960(tree.tag("Variant").unwrap_or(""))
        .and_then(|chess960| starting_position(tree.tag("FEN"), chess960))
        .map_err(|e| e.to_string())
        .and_then(|start| line_json(&start, &tree.mainline).map(|moves| (start, moves)));
    match replayed {
        Ok((start, moves)) => Json::obj([
            ("tags", tags),
            ("fen", Json::str(start.fen())),
            (
                "chess960",
                Json::Bool(start.castling_mode() == CastlingMode::Chess960),
            ),
            ("result", Json::str(&tree.result)),
            ("comments", comments_json(&tree.mainline.comments)),
            ("moves", Json::Arr(moves)),
        ]),
        Err(e) => Json::obj([
            ("tags", tags),
            ("error", Json::str(format!("game {number}: {e}"))),
        ]),
    }
}

/// The moves of `line` from `start`, each with its variations.
fn line_json(start: &Position, line: &Variation) -> Result<Vec<Json>, String> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(line.moves.len());
    for node in &line.moves {
        let san_text = node.san.to_string();
        let m = node
            .san
            .to_move(&pos)
            .map_err(|e| format!("{}: {e}", move_label(&pos, &san_text)))?;
        let mut variations = Vec::with_capacity(node.variations.len());
        for variation in &node.variations {
            variations.push(Json::obj([
                ("comments", comments_json(&variation.comments)),
                ("moves", Json::Arr(line_json(&pos, variation)?)),
            ]));
        }
        let (san, uci) = (pos.san(m), pos.to_uci(m));
        pos.play_unchecked(m);
        let clock = node
            .clock()
            .map_or(Json::Null, |d| Json::Int(d.as_millis() as i64));
        out.push(Json::obj([
            ("san", Json::Str(san)),
            ("uci", Json::Str(uci)),
            ("fen", Json::str(pos.fen())),
            (
                "check",
                Json::opt_str(pos.is_check().then(|| pos.king(pos.turn()).to_string())),
            ),
            (
                "nags",
                Json::Arr(node.nags.iter().map(|&n| Json::Int(n.into())).collect()),
            ),
            ("comments", comments_json(&node.comments)),
            ("clock", clock),
            ("variations", Json::Arr(variations)),
        ]));
    }
    Ok(out)
}

/// Writes a game (`{tags: [[name, value]], comments, moves, result}`, each
/// move `{san, nags, comments, variations: [{comments, moves}]}`) in PGN
/// export format, or names what is wrong: a member of the wrong kind, or the
/// move that is not legal.
pub fn write(game: &Json) -> Result<String, String> {
    let mut tags = Vec::new();
    for tag in list(game, "tags")? {
        match tag.as_array() {
            Some([Json::Str(name), Json::Str(value)]) => tags.push((name.clone(), value.clone())),
            _ => return Err("bad game: each tag must be [name, value]".into()),
        }
    }
    let result = match game.get("result") {
        Json::Null => "*".to_string(),
        Json::Str(r) => r.clone(),
        _ => return Err("bad game: result must be a string".into()),
    };
    let tree = GameTree {
        tags,
        mainline: variation(game)?,
        result,
    };
    write_game(&tree).map_err(|e| e.to_string())
}

/// The array member `name` (empty when absent).
fn list<'a>(value: &'a Json, name: &str) -> Result<&'a [Json], String> {
    match value.get(name) {
        Json::Null => Ok(&[]),
        other => other
            .as_array()
            .ok_or_else(|| format!("bad game: {name} must be an array")),
    }
}

fn strings(value: &Json, name: &str) -> Result<Vec<String>, String> {
    list(value, name)?
        .iter()
        .map(|s| {
            s.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("bad game: {name} must be strings"))
        })
        .collect()
}

/// A line: `{comments, moves}`.
fn variation(line: &Json) -> Result<Variation, String> {
    let mut out = Variation {
        comments: strings(line, "comments")?,
        moves: Vec::new(),
    };
    for node in list(line, "moves")? {
        let text = node
            .get("san")
            .as_str()
            .ok_or("bad game: a move has no san")?;
        let san = San::parse(text).map_err(|e| format!("{text:?}: {e}"))?;
        let nags = list(node, "nags")?
            .iter()
            .map(|n| {
                n.as_i64()
                    .and_then(|n| u8::try_from(n).ok())
                    .ok_or("bad game: a NAG must be 0 to 255")
            })
            .collect::<Result<Vec<u8>, _>>()?;
        let variations = list(node, "variations")?
            .iter()
            .map(variation)
            .collect::<Result<Vec<_>, _>>()?;
        out.moves.push(Node {
            san,
            nags,
            comments: strings(node, "comments")?,
            variations,
        });
    }
    Ok(out)
}
