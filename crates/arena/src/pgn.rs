//! Finished games as PGN, written with `caissa-pgn`: the Seven Tag Roster, `FEN` and
//! `SetUp` for the opening position, `TimeControl`, `Termination` and `PlyCount`; each
//! move carries the engine's score, depth and time (`{+0.35/12 0.52s}`), and the last
//! one the reason the game ended.

use std::time::{SystemTime, UNIX_EPOCH};

use caissa_pgn::{write_game, GameTree, Node};
use caissa_rules::fen::STARTING_FEN;
use caissa_rules::san::San;

use crate::game::GameRecord;

/// Tags that do not come from the game itself.
#[derive(Clone, Debug, Default)]
pub struct PgnHeader {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date` (`YYYY.MM.DD`).
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `TimeControl`.
    pub time_control: String,
    /// `Opening`, the opening's name, if known.
    pub opening: Option<String>,
}

/// The comment of a move: `+0.35/12 0.52s`, or just the time without a score.
fn move_comment(m: &crate::game::PlayedMove) -> String {
    let time = format!("{:.3}s", m.elapsed.as_secs_f64());
    match (m.score, m.depth) {
        (Some(score), Some(depth)) => format!("{score}/{depth} {time}"),
        (Some(score), None) => format!("{score} {time}"),
        _ => time,
    }
}

/// The game tree of a finished game.
pub fn game_tree(record: &GameRecord, header: &PgnHeader) -> GameTree {
    let mut tree = GameTree::default();
    tree.set_tag("Event", &header.event);
    tree.set_tag("Site", &header.site);
    tree.set_tag("Date", &header.date);
    tree.set_tag("Round", &header.round);
    tree.set_tag("White", &record.white);
    tree.set_tag("Black", &record.black);
    tree.set_tag("Result", record.result());
    if record.start_fen != STARTING_FEN {
        tree.set_tag("FEN", &record.start_fen);
        tree.set_tag("SetUp", "1");
    }
    if let Some(name) = &header.opening {
        tree.set_tag("Opening", name);
    }
    tree.set_tag("TimeControl", &header.time_control);
    tree.set_tag("Termination", record.end.pgn_termination());
    tree.set_tag("PlyCount", &record.moves.len().to_string());
    tree.result = record.result().to_string();

    let mut pos = record.start;
    for m in &record.moves {
        let mut node = Node::new(San::from_move(&pos, m.mv));
        node.comments.push(move_comment(m));
        tree.mainline.moves.push(node);
        pos.play_unchecked(m.mv);
    }
    match tree.mainline.moves.last_mut() {
        Some(node) => node.comments.push(record.reason.clone()),
        None => tree.mainline.comments.push(record.reason.clone()),
    }
    tree
}

/// The game in PGN export format, ending with a blank line.
pub fn to_pgn(record: &GameRecord, header: &PgnHeader) -> Result<String, caissa_pgn::WriteError> {
    write_game(&game_tree(record, header))
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    caissa_pgn::date::date_tag(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_is_a_pgn_date() {
        let today = today();
        assert_eq!(today.len(), 10);
        assert!(
            today.starts_with("20") && today.as_bytes()[4] == b'.',
            "{today}"
        );
    }
}
