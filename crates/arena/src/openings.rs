//! Opening suites: EPD (or FEN) lines of start positions, the balanced suite shipped
//! with the crate, and a seeded order to play them in.

use caissa_rules::{fen, Position};

/// The shipped suite: balanced positions a few moves into common openings.
pub const BALANCED_EPD: &str = include_str!("../openings/balanced.epd");

/// A start position.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position as a full FEN (six fields).
    pub fen: String,
    /// The name from the EPD `id` opcode, if any.
    pub name: Option<String>,
    /// The position.
    pub position: Position,
}

/// The shipped balanced suite.
pub fn balanced() -> Vec<Opening> {
    parse_epd(BALANCED_EPD).unwrap_or_default()
}

/// Reads an opening suite: one position per line as EPD (`placement side castling
/// en-passant` then opcodes such as `hmvc 0; fmvn 5; id "Ruy Lopez";`) or as a full
/// FEN. Blank lines and lines starting with `#` are skipped. Fails on the first bad
/// line, naming it, and on an empty suite.
pub fn parse_epd(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_line(line).map_err(|e| format!("line {}: {e}", index + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err("no positions in the opening suite".to_string());
    }
    Ok(out)
}

fn parse_line(line: &str) -> Result<Opening, String> {
    let mut fields = line.splitn(5, char::is_whitespace);
    let mut head = Vec::with_capacity(4);
    for _ in 0..4 {
        match fields.next() {
            Some(f) if !f.is_empty() => head.push(f),
            _ => return Err("expected at least 4 FEN fields".to_string()),
        }
    }
    let rest = fields.next().unwrap_or("").trim();
    let mut halfmoves = 0u32;
    let mut fullmoves = 1u32;
    let mut name = None;

    // A full FEN: two numbers after the four fields (opcodes may follow).
    let mut opcodes = rest;
    if let Some((first, after)) = take_number(rest) {
        if let Some((second, after)) = take_number(after) {
            halfmoves = first;
            fullmoves = second.max(1);
            opcodes = after;
        }
    }

    for (op, operand) in split_opcodes(opcodes)? {
        match op.as_str() {
            "hmvc" => {
                halfmoves = operand
                    .parse()
                    .map_err(|_| format!("hmvc {operand:?} is not a number"))?;
            }
            "fmvn" => {
                fullmoves = operand
                    .parse::<u32>()
                    .map_err(|_| format!("fmvn {operand:?} is not a number"))?
                    .max(1);
            }
            "id" => name = Some(operand),
            _ => {}
        }
    }
    let text = format!("{} {halfmoves} {fullmoves}", head.join(" "));
    let position = fen::parse(&text).map_err(|e| format!("{text:?}: {e}"))?;
    if !position.has_legal_moves() {
        return Err(format!("{text:?}: the game is already over"));
    }
    Ok(Opening {
        fen: position.fen(),
        name,
        position,
    })
}

/// A leading whole number and what follows it.
fn take_number(text: &str) -> Option<(u32, &str)> {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    let n = text[..end].parse().ok()?;
    Some((n, &text[end..]))
}

/// Splits `op operand; op "quoted operand";` into pairs (quotes removed).
fn split_opcodes(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ';') {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(out);
        }
        let mut op = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == ';' {
                break;
            }
            op.push(c);
            chars.next();
        }
        let mut operand = String::new();
        let mut quoted = false;
        while let Some(c) = chars.next() {
            match c {
                '"' if !quoted && operand.trim().is_empty() => {
                    quoted = true;
                    operand.clear();
                }
                '"' if quoted => {
                    quoted = false;
                    // Skip to the end of the operation.
                    for c in chars.by_ref() {
                        if c == ';' {
                            break;
                        }
                    }
                    break;
                }
                ';' if !quoted => break,
                _ => operand.push(c),
            }
        }
        if quoted {
            return Err(format!("unterminated quote in opcode {op}"));
        }
        out.push((op, operand.trim().to_string()));
    }
}

/// The order to play `count` openings in: the file order without a seed, otherwise
/// a shuffle determined by the seed.
pub fn order(count: usize, seed: Option<u64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if let Some(seed) = seed {
        let mut rng = SplitMix64(seed);
        // Fisher-Yates.
        for i in (1..count).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
    }
    order
}

/// A small, well-mixed 64-bit generator (Steele, Lea and Flood's SplitMix64).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_epd_and_fen_lines() {
        let text = "\
# comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1; id \"King's pawn; e4\";

rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -
";
        let suite = parse_epd(text).unwrap();
        assert_eq!(suite.len(), 3);
        assert_eq!(suite[0].name.as_deref(), Some("King's pawn; e4"));
        assert_eq!(
            suite[0].fen,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(suite[1].position.fullmoves(), 2);
        assert_eq!(suite[2].name, None);
        assert!(parse_epd("").is_err());
        let err = parse_epd("# x\nnot a fen at all\n").unwrap_err();
        assert!(err.starts_with("line 2"), "{err}");
    }

    #[test]
    fn the_shipped_suite_is_sound() {
        let suite = balanced();
        assert!(suite.len() >= 50, "{} positions", suite.len());
        let mut fens = std::collections::HashSet::new();
        for opening in &suite {
            assert!(opening.name.is_some(), "{}", opening.fen);
            assert!(
                fens.insert(opening.fen.clone()),
                "duplicate {}",
                opening.fen
            );
            assert!(!opening.position.is_check());
            // A few moves into the game: 4 to 8 plies.
            let plies = 2 * (opening.position.fullmoves() - 1)
                + u32::from(opening.position.turn() == caissa_rules::Color::Black);
            assert!((4..=8).contains(&plies), "{}", opening.fen);
        }
    }

    #[test]
    fn seeded_order_is_a_permutation() {
        assert_eq!(order(5, None), vec![0, 1, 2, 3, 4]);
        let a = order(50, Some(7));
        let b = order(50, Some(7));
        assert_eq!(a, b);
        assert_ne!(a, order(50, Some(8)));
        let mut sorted = a;
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}
