//! Clock commands inside comments: `[%clk 1:30:00]` (time left after the move) and
//! `[%emt 0:00:05]` (time the move took), as written by lichess, ChessBase and others.

use std::time::Duration;

/// Time left on the mover's clock after the move, from `[%clk H:MM:SS(.f)]`.
pub fn clk(comment: &str) -> Option<Duration> {
    command(comment, "%clk")
}

/// Time the move took, from `[%emt H:MM:SS(.f)]`.
pub fn emt(comment: &str) -> Option<Duration> {
    command(comment, "%emt")
}

fn command(comment: &str, name: &str) -> Option<Duration> {
    let start = comment.find(name)? + name.len();
    let rest = comment[start..].trim_start();
    let end = rest
        .find(|c: char| c == ']' || c.is_whitespace())
        .unwrap_or(rest.len());
    parse_hms(&rest[..end])
}

/// Parses `H:MM:SS`, `MM:SS` or `SS`, each with optional decimal seconds.
pub fn parse_hms(text: &str) -> Option<Duration> {
    let mut parts = text.rsplit(':');
    let seconds: f64 = parts
        .next()?
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)?;
    let mut total = seconds;
    for factor in [60.0, 3600.0] {
        if let Some(p) = parts.next() {
            let n: u64 = p.parse().ok()?;
            total += n as f64 * factor;
        }
    }
    if parts.next().is_some() {
        return None;
    }
    Some(Duration::from_millis((total * 1000.0).round() as u64))
}

/// Writes a duration as `H:MM:SS`, with tenths when they are not zero.
pub fn format_hms(d: Duration) -> String {
    let tenths = (d.as_millis() / 100) as u64;
    let (h, m, s, t) = (
        tenths / 36000,
        tenths / 600 % 60,
        tenths / 10 % 60,
        tenths % 10,
    );
    if t == 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{h}:{m:02}:{s:02}.{t}")
    }
}

/// The comment text `[%clk H:MM:SS]` for time left.
pub fn clk_command(d: Duration) -> String {
    format!("[%clk {}]", format_hms(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_commands_parse_to_durations() {
        assert_eq!(clk("[%clk 1:30:00]"), Some(Duration::from_secs(5400)));
        assert_eq!(
            clk("good move [%clk 0:00:07.5] [%emt 0:00:05]"),
            Some(Duration::from_millis(7500))
        );
        assert_eq!(
            emt("[%clk 0:01:00] [%emt 0:00:05]"),
            Some(Duration::from_secs(5))
        );
        assert_eq!(clk("no clock here"), None);
        assert_eq!(clk("[%clk 1:xx:00]"), None);
    }

    #[test]
    fn clock_format_round_trips() {
        for ms in [
            0,
            100,
            5_000,
            59_900,
            3_600_000,
            5_400_000,
            36_000_000 + 1_200,
        ] {
            let d = Duration::from_millis(ms);
            let back = parse_hms(&format_hms(d)).unwrap();
            assert_eq!(back.as_millis() / 100, d.as_millis() / 100);
        }
    }
}
