//! The lichess puzzle database CSV: a header line (optional when reading), then
//! `PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags`,
//! `Moves`, `Themes` and `OpeningTags` separated by spaces. Fields may be
//! quoted as RFC 4180 says (a quote inside doubled).

use crate::{Puzzle, PuzzleError};

/// The header line, as lichess writes it.
pub const HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

/// What is wrong in a CSV file, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct CsvError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong, naming the column.
    pub reason: String,
}

/// Every puzzle of a CSV text, each replayed by the rules; the first error
/// stops the reading.
pub fn read_csv(text: &str) -> Result<Vec<Puzzle>, CsvError> {
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(puzzle) = read_line(i + 1, line)? {
            puzzles.push(puzzle);
        }
    }
    Ok(puzzles)
}

/// One line of the CSV (`line_no` from 1, for the error): the puzzle, or
/// `None` for a blank line or the header on the first line.
pub fn read_line(line_no: usize, line: &str) -> Result<Option<Puzzle>, CsvError> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() || (line_no == 1 && line.starts_with("PuzzleId,")) {
        return Ok(None);
    }
    let error = |reason: String| CsvError {
        line: line_no,
        reason,
    };
    let fields = split(line).map_err(error)?;
    if fields.len() < 8 || fields.len() > 10 {
        return Err(error(format!(
            "{} fields; a puzzle has 8 to 10 ({HEADER})",
            fields.len()
        )));
    }
    let number = |column: usize, name: &str| -> Result<i64, CsvError> {
        fields[column].trim().parse::<i64>().map_err(|_| {
            error(format!(
                "{name}: {:?} is not a whole number",
                fields[column]
            ))
        })
    };
    let words = |column: usize| -> Vec<String> {
        fields
            .get(column)
            .map(|f| f.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    };
    let puzzle = Puzzle {
        id: fields[0].trim().to_string(),
        fen: fields[1].trim().to_string(),
        moves: words(2),
        rating: number(3, "Rating")?.clamp(0, 10_000) as i32,
        rating_deviation: number(4, "RatingDeviation")?.clamp(0, 10_000) as i32,
        popularity: number(5, "Popularity")?.clamp(-100, 100) as i32,
        plays: number(6, "NbPlays")?.max(0) as u64,
        themes: words(7),
        game_url: fields
            .get(8)
            .map(|f| f.trim().to_string())
            .unwrap_or_default(),
        opening_tags: words(9),
    };
    puzzle
        .positions()
        .map_err(|e: PuzzleError| error(format!("puzzle {}: {e}", puzzle.id)))?;
    Ok(Some(puzzle))
}

/// Puzzles as CSV, with the header line.
pub fn write_csv(puzzles: &[Puzzle]) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for p in puzzles {
        out.push_str(&csv_line(p));
    }
    out
}

/// One puzzle as a CSV line, with its line break.
pub fn csv_line(p: &Puzzle) -> String {
    let fields = [
        p.id.clone(),
        p.fen.clone(),
        p.moves.join(" "),
        p.rating.to_string(),
        p.rating_deviation.to_string(),
        p.popularity.to_string(),
        p.plays.to_string(),
        p.themes.join(" "),
        p.game_url.clone(),
        p.opening_tags.join(" "),
    ];
    let quoted: Vec<String> = fields.iter().map(|f| quote(f)).collect();
    let mut line = quoted.join(",");
    line.push('\n');
    line
}

/// A field, quoted only when it must be.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// The fields of a line.
fn split(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        match c {
            '"' if at_start && !quoted => quoted = true,
            '"' if quoted => {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                    if !matches!(chars.peek(), None | Some(',')) {
                        return Err(format!(
                            "column {}: text after a closing quote",
                            fields.len() + 1
                        ));
                    }
                }
            }
            ',' if !quoted => {
                fields.push(std::mem::take(&mut field));
                at_start = true;
                continue;
            }
            _ => field.push(c),
        }
        at_start = false;
    }
    if quoted {
        return Err(format!(
            "column {}: a quote is not closed",
            fields.len() + 1
        ));
    }
    fields.push(field);
    Ok(fields)
}
