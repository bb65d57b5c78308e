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
pub fn to_pgn(record: &GameRecord, header: &PgnHeader) -> Result<String, String> {
    write_game(&game_tree(record, header))
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date `days` after 1970-01-01, by counting 400-year eras
/// of 146097 days from 0000-03-01 (so that leap days fall at the end of a year).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097); // [0, 146096]
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153; // 0 = March
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(10_957), (2000, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(today().len(), 10);
    }
}
