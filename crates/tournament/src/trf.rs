//! The FIDE Tournament Report File (TRF16, FIDE Handbook C.04 Annex 2) with the
//! extensions pairing programs read: `XXR` total rounds, `XXC` initial colour, `XXA`
//! accelerations (JaVaFo) and the `BBW`/`BBD`/`BBL`/`BBZ`/`BBF`/`BBU` point values
//! (bbpPairings).
//!
//! Player lines (`001`) are read by column, as the format defines them; every error
//! names its line and column (both 1-based).

use crate::model::{
    Acceleration, Bye, Colour, Entry, GameResult, Header, Player, PlayerId, Tournament,
};
use crate::points::Points;
use std::collections::HashMap;
use std::fmt::Write as _;

/// A TRF file that cannot be read, with the place where it went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {reason}")]
pub struct TrfError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

fn error(line: usize, column: usize, reason: impl Into<String>) -> TrfError {
    TrfError {
        line,
        column,
        reason: reason.into(),
    }
}

/// Column (1-based) where round 1's entry starts in a player line.
const FIRST_ROUND_COLUMN: usize = 92;
/// Width of one round's entry, separator included.
const ROUND_WIDTH: usize = 10;

/// The characters of `line` from 1-based column `from` to `to` inclusive (fewer if
/// the line is shorter).
fn columns(line: &[char], from: usize, to: usize) -> String {
    line.iter()
        .skip(from - 1)
        .take(to + 1 - from)
        .collect::<String>()
}

/// Parses a whole TRF file.
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut tournament = Tournament::default();
    // Where each player's line is, to report cross-reference errors there.
    let mut player_lines: HashMap<PlayerId, usize> = HashMap::new();
    let mut accelerated_groups = Vec::new();
    // Lines end in LF, CRLF or (as some pairing programs write) a lone CR.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (index, raw) in text.split('\n').enumerate() {
        let number = index + 1;
        let line: Vec<char> = raw.chars().collect();
        if line.iter().all(|c| c.is_whitespace()) {
            continue;
        }
        if line.len() < 3 {
            return Err(error(
                number,
                1,
                "a line must start with a three-character code",
            ));
        }
        let code: String = line[..3].iter().collect();
        let value = columns(&line, 5, line.len().max(5)).trim_end().to_string();
        match code.as_str() {
            "001" => {
                let player = parse_player(&line, number)?;
                if let Some(first) = player_lines.insert(player.id, number) {
                    return Err(error(
                        number,
                        5,
                        format!(
                            "starting rank {} is already used on line {first}",
                            player.id
                        ),
                    ));
                }
                tournament.players.push(player);
            }
            "012" => tournament.name = value.trim().to_string(),
            "142" | "XXR" => {
                let rounds = value.trim();
                tournament.total_rounds = Some(match rounds.parse::<u32>() {
                    Ok(n) if n > 0 => n,
                    _ => {
                        return Err(error(
                            number,
                            5,
                            format!("XXR needs the total number of rounds, not {rounds:?}"),
                        ))
                    }
                });
            }
            "XXC" => {
                for word in value.split_whitespace() {
                    match word.to_ascii_lowercase().as_str() {
                        "white1" => tournament.initial_colour = Some(Colour::White),
                        "black1" => tournament.initial_colour = Some(Colour::Black),
                        // JaVaFo's "rank" (pair by rank instead of starting number) is
                        // accepted and has no effect on files already in rank order.
                        "rank" => {}
                        other => {
                            return Err(error(
                                number,
                                5,
                                format!("XXC expects white1 or black1, not {other:?}"),
                            ))
                        }
                    }
                }
            }
            "152" => match value.trim() {
                "W" | "w" => tournament.initial_colour = Some(Colour::White),
                "B" | "b" => tournament.initial_colour = Some(Colour::Black),
                other => {
                    return Err(error(
                        number,
                        5,
                        format!("152 expects W or B, not {other:?}"),
                    ))
                }
            },
            "162" => parse_point_values(&value, number, &mut tournament.point_system)?,
            "250" => accelerated_groups.push(parse_accelerated_group(&line, number)?),
            "XXA" => tournament
                .accelerations
                .push(parse_acceleration(&line, number)?),
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let points = Points::parse(&value).ok_or_else(|| {
                    error(
                        number,
                        5,
                        format!("{code} needs a number of points, not {:?}", value.trim()),
                    )
                })?;
                let system = &mut tournament.point_system;
                match code.as_str() {
                    "BBW" => {
                        // The bye follows the win unless BBU says otherwise.
                        if system.pairing_bye == system.win {
                            system.pairing_bye = points;
                        }
                        system.win = points;
                    }
                    "BBD" => system.draw = points,
                    "BBL" => system.loss = points,
                    "BBZ" => system.zero_bye = points,
                    "BBF" => system.forfeit_loss = points,
                    _ => system.pairing_bye = points,
                }
            }
            "192" => {
                tournament.baku = value.trim().to_ascii_uppercase().ends_with("_BAKU");
                tournament.headers.push(Header { code, value });
            }
            _ => tournament.headers.push(Header { code, value }),
        }
    }
    tournament.players.sort_by_key(|p| p.id);
    for group in accelerated_groups {
        for player in group.players.0..=group.players.1 {
            if tournament.player(player).is_none() {
                continue;
            }
            let mut points = vec![Points::ZERO; group.rounds.1 as usize];
            for round in group.rounds.0..=group.rounds.1 {
                points[round as usize - 1] = group.points;
            }
            tournament
                .accelerations
                .push(Acceleration { player, points });
        }
    }
    check_cross_references(&tournament, &player_lines)?;
    Ok(tournament)
}

fn parse_number<T: std::str::FromStr>(
    line: &[char],
    number: usize,
    from: usize,
    to: usize,
    what: &str,
) -> Result<Option<T>, TrfError> {
    let text = columns(line, from, to);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    trimmed.parse::<T>().map(Some).map_err(|_| {
        let offset = text.len() - text.trim_start().len();
        error(
            number,
            from + offset,
            format!("{what} must be a number, not {trimmed:?}"),
        )
    })
}

fn parse_player(line: &[char], number: usize) -> Result<Player, TrfError> {
    let id = parse_number::<PlayerId>(line, number, 5, 8, "the starting rank")?
        .filter(|&id| id > 0)
        .ok_or_else(|| {
            error(
                number,
                5,
                "a player line needs a starting rank in columns 5-8",
            )
        })?;
    let points_text = columns(line, 81, 84);
    let points = if points_text.trim().is_empty() {
        Points::ZERO
    } else {
        Points::parse(&points_text).ok_or_else(|| {
            error(
                number,
                81,
                format!(
                    "points must be a number like 4.5, not {:?}",
                    points_text.trim()
                ),
            )
        })?
    };
    let mut player = Player {
        id,
        sex: columns(line, 10, 10).trim().to_string(),
        title: columns(line, 11, 13).trim().to_string(),
        name: columns(line, 15, 47).trim().to_string(),
        rating: parse_number::<u16>(line, number, 49, 52, "the rating")?.unwrap_or(0),
        federation: columns(line, 54, 56).trim().to_string(),
        fide_id: parse_number::<u64>(line, number, 58, 68, "the FIDE ID")?,
        birth: columns(line, 70, 79).trim().to_string(),
        points,
        rank: parse_number::<u32>(line, number, 86, 89, "the rank")?,
        rounds: Vec::new(),
    };
    let mut start = FIRST_ROUND_COLUMN;
    while start <= line.len() {
        let field = columns(line, start, start + 7);
        player.rounds.push(parse_entry(&field, number, start)?);
        start += ROUND_WIDTH;
    }
    while player.rounds.last() == Some(&None) {
        player.rounds.pop();
    }
    Ok(player)
}

/// One round's entry, `OOOO C R` starting at column `start`.
fn parse_entry(field: &str, number: usize, start: usize) -> Result<Option<Entry>, TrfError> {
    if field.trim().is_empty() {
        return Ok(None);
    }
    let chars: Vec<char> = field.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or(' ');
    let opponent_text: String = chars.iter().take(4).collect();
    let opponent_text = opponent_text.trim();
    let opponent: PlayerId = if opponent_text.is_empty() {
        0
    } else {
        opponent_text.parse().map_err(|_| {
            error(
                number,
                start,
                format!("an opponent's starting rank must be a number, not {opponent_text:?}"),
            )
        })?
    };
    let colour = match at(5) {
        'w' | 'W' => Some(Colour::White),
        'b' | 'B' => Some(Colour::Black),
        '-' | ' ' => None,
        other => {
            return Err(error(
                number,
                start + 5,
                format!("colour must be w, b or -, not {other:?}"),
            ))
        }
    };
    let code = at(7);
    if opponent == 0 {
        let bye = match code {
            'U' | 'u' | '+' => Bye::PairingAllocated,
            'F' | 'f' => Bye::Full,
            'H' | 'h' | '=' => Bye::Half,
            'Z' | 'z' => Bye::Zero,
            '-' | ' ' => Bye::Absent,
            other => {
                return Err(error(
                    number,
                    start + 7,
                    format!("{other:?} is not a result for a round without an opponent (use U, F, H, Z or -)"),
                ))
            }
        };
        return Ok(Some(Entry::Bye { bye }));
    }
    let result = match code {
        '1' => GameResult::Win,
        '=' => GameResult::Draw,
        '0' => GameResult::Loss,
        '+' => GameResult::ForfeitWin,
        '-' => GameResult::ForfeitLoss,
        'W' | 'w' => GameResult::UnratedWin,
        'D' | 'd' => GameResult::UnratedDraw,
        'L' | 'l' => GameResult::UnratedLoss,
        ' ' | '*' => GameResult::Pending,
        other => {
            return Err(error(
                number,
                start + 7,
                format!("{other:?} is not a TRF result code (1 = 0 + - W D L, or blank)"),
            ))
        }
    };
    let colour = colour.ok_or_else(|| {
        error(
            number,
            start + 5,
            format!("a game against {opponent} needs a colour, w or b"),
        )
    })?;
    Ok(Some(Entry::Game {
        opponent,
        colour,
        result,
    }))
}

fn parse_acceleration(line: &[char], number: usize) -> Result<Acceleration, TrfError> {
    let text: String = line.iter().collect();
    let mut words = text[3..].split_whitespace();
    let player = words
        .next()
        .and_then(|w| w.parse::<PlayerId>().ok())
        .ok_or_else(|| {
            error(
                number,
                5,
                "XXA needs a starting rank, then points per round",
            )
        })?;
    let mut points = Vec::new();
    for word in words {
        let column = text.find(word).map_or(5, |i| i + 1);
        points.push(Points::parse(word).ok_or_else(|| {
            error(
                number,
                column,
                format!("acceleration must be points like 1.0, not {word:?}"),
            )
        })?);
    }
    Ok(Acceleration { player, points })
}

/// TRF-2026 `162`: point values as letter/value pairs (`W 3.0  D 1.0  P 0.5`).
fn parse_point_values(
    value: &str,
    number: usize,
    system: &mut crate::points::PointSystem,
) -> Result<(), TrfError> {
    let words: Vec<&str> = value.split_whitespace().collect();
    for pair in words.chunks(2) {
        let [code, points] = pair else {
            return Err(error(number, 5, "162 needs pairs of a letter and points"));
        };
        let points = Points::parse(points).ok_or_else(|| {
            error(
                number,
                5,
                format!("162: {points:?} is not a number of points"),
            )
        })?;
        match *code {
            "W" => {
                if system.pairing_bye == system.win {
                    system.pairing_bye = points;
                }
                system.win = points;
            }
            "D" => system.draw = points,
            "L" => system.loss = points,
            "Z" | "A" => {
                system.zero_bye = points;
                system.forfeit_loss = points;
            }
            "P" => system.pairing_bye = points,
            other => {
                return Err(error(
                    number,
                    5,
                    format!("162: unknown point code {other:?} (W, D, L, Z, P)"),
                ))
            }
        }
    }
    Ok(())
}

/// A TRF-2026 `250` line: points added to a range of players over a range of rounds.
struct AcceleratedGroup {
    points: Points,
    rounds: (u32, u32),
    players: (PlayerId, PlayerId),
}

fn parse_accelerated_group(line: &[char], number: usize) -> Result<AcceleratedGroup, TrfError> {
    let points_text = columns(line, 10, 13);
    let points = Points::parse(&points_text).ok_or_else(|| {
        error(
            number,
            10,
            format!(
                "250: game points must be a number, not {:?}",
                points_text.trim()
            ),
        )
    })?;
    let field = |from, to, what: &str| -> Result<u32, TrfError> {
        parse_number::<u32>(line, number, from, to, what)?
            .filter(|&n| n > 0)
            .ok_or_else(|| error(number, from, format!("250: {what} is missing")))
    };
    let rounds = (
        field(15, 17, "the first round")?,
        field(19, 21, "the last round")?,
    );
    let players = (
        field(23, 26, "the first player")?,
        field(28, 31, "the last player")?,
    );
    if rounds.0 > rounds.1 || players.0 > players.1 {
        return Err(error(
            number,
            15,
            "250: a range must not end before it starts",
        ));
    }
    Ok(AcceleratedGroup {
        points,
        rounds,
        players,
    })
}

/// Every opponent exists and names this player back, with the other colour and the
/// matching result.
fn check_cross_references(
    tournament: &Tournament,
    lines: &HashMap<PlayerId, usize>,
) -> Result<(), TrfError> {
    for player in &tournament.players {
        for (index, entry) in player.rounds.iter().enumerate() {
            let Some(Entry::Game {
                opponent,
                colour,
                result,
            }) = entry
            else {
                continue;
            };
            let line = lines[&player.id];
            let column = FIRST_ROUND_COLUMN + index * ROUND_WIDTH;
            let round = index + 1;
            if *opponent == player.id {
                return Err(error(
                    line,
                    column,
                    format!("player {opponent} is paired with themselves in round {round}"),
                ));
            }
            let Some(other) = tournament.player(*opponent) else {
                return Err(error(
                    line,
                    column,
                    format!("round {round}: opponent {opponent} has no player line"),
                ));
            };
            let expected = Entry::Game {
                opponent: player.id,
                colour: colour.opposite(),
                result: result.reversed(),
            };
            let double_forfeit = Entry::Game {
                opponent: player.id,
                colour: colour.opposite(),
                result: GameResult::ForfeitLoss,
            };
            match other.entry(round) {
                Some(back) if *back == expected => {}
                // Neither appeared: both lose by forfeit.
                Some(back) if *result == GameResult::ForfeitLoss && *back == double_forfeit => {}
                Some(Entry::Game {
                    opponent: o,
                    colour: c,
                    result: r,
                }) if *o == player.id && *c == colour.opposite() => {
                    return Err(error(
                        line,
                        column + 7,
                        format!(
                            "round {round}: result {} against {opponent} does not match their {}",
                            result.code(),
                            r.code()
                        ),
                    ))
                }
                _ => {
                    return Err(error(
                        line,
                        column,
                        format!(
                            "round {round}: player {} plays {opponent} with {}, but {opponent}'s line does not say so",
                            player.id,
                            if *colour == Colour::White { "white" } else { "black" }
                        ),
                    ))
                }
            }
        }
    }
    for acceleration in &tournament.accelerations {
        if tournament.player(acceleration.player).is_none() {
            return Err(error(
                1,
                1,
                format!(
                    "XXA names player {}, who has no player line",
                    acceleration.player
                ),
            ));
        }
    }
    Ok(())
}

/// Writes a tournament as TRF16 (with `XXR`, `XXC`, `XXA` and non-standard point
/// values where set).
pub fn write(tournament: &Tournament) -> String {
    let mut out = String::new();
    if !tournament.name.is_empty() {
        let _ = writeln!(out, "012 {}", tournament.name);
    }
    for header in &tournament.headers {
        let _ = writeln!(out, "{} {}", header.code, header.value);
    }
    for player in &tournament.players {
        let _ = writeln!(out, "{}", player_line(player));
    }
    if let Some(rounds) = tournament.total_rounds {
        let _ = writeln!(out, "XXR {rounds}");
    }
    if let Some(colour) = tournament.initial_colour {
        let word = if colour == Colour::White {
            "white1"
        } else {
            "black1"
        };
        let _ = writeln!(out, "XXC {word}");
    }
    let standard = crate::points::PointSystem::default();
    let system = tournament.point_system;
    for (code, value, default) in [
        ("BBW", system.win, standard.win),
        ("BBD", system.draw, standard.draw),
        ("BBL", system.loss, standard.loss),
        ("BBZ", system.zero_bye, standard.zero_bye),
        ("BBF", system.forfeit_loss, standard.forfeit_loss),
        ("BBU", system.pairing_bye, system.win),
    ] {
        if value != default {
            let _ = writeln!(out, "{code} {value:>4}");
        }
    }
    for acceleration in &tournament.accelerations {
        let _ = write!(out, "XXA {:>4}", acceleration.player);
        for points in &acceleration.points {
            let _ = write!(out, " {points:>4}");
        }
        out.push('\n');
    }
    out
}

/// One `001` line, column-exact.
pub fn player_line(player: &Player) -> String {
    let mut line = format!(
        "001 {:>4} {:1}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
        player.id,
        truncate(&player.sex, 1),
        truncate(&player.title, 3),
        truncate(&player.name, 33),
        if player.rating == 0 {
            String::new()
        } else {
            player.rating.to_string()
        },
        truncate(&player.federation, 3),
        player.fide_id.map(|id| id.to_string()).unwrap_or_default(),
        truncate(&player.birth, 10),
        player.points,
        player.rank.map(|r| r.to_string()).unwrap_or_default(),
    );
    for entry in &player.rounds {
        line.push_str("  ");
        line.push_str(&entry_text(entry.as_ref()));
    }
    line.trim_end().to_string()
}

fn truncate(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// `OOOO C R` for one round.
pub fn entry_text(entry: Option<&Entry>) -> String {
    match entry {
        None => "        ".to_string(),
        Some(Entry::Bye { bye }) => format!("0000 - {}", bye.code()),
        Some(Entry::Game {
            opponent,
            colour,
            result,
        }) => format!(
            "{opponent:>4} {} {}",
            if *colour == Colour::White { 'w' } else { 'b' },
            result.code()
        ),
    }
}
