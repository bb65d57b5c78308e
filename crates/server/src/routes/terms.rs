//! The terms of a game as requests give them (a challenge, a seek, a game
//! against the computer): the clock, its extras, the ruleset, the starting
//! position. Each is checked here, and a wrong one is refused naming its field.

use caissa_arbiter::{Delay, Ruleset, TimeControl};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::domain::choice::{ColorChoice, VariantChoice};
use crate::http::error::ApiError;

/// The longest initial time and increment a challenge may ask for, s (lichess's).
pub const MAX_LIMIT_S: u64 = 10_800;
/// The largest increment, s.
pub const MAX_INCREMENT_S: u64 = 180;

/// How a delay is given back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DelayType {
    /// The clock waits the delay before it runs (US delay).
    #[default]
    Simple,
    /// The time used, up to the delay, is given back after the move.
    Bronstein,
}

/// The fields of a challenge (to a user, open, or to the computer).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ChallengeForm {
    /// Initial time, s (0 to 10800); with no clock fields the game has no clock.
    #[serde(rename = "clock.limit")]
    pub clock_limit: Option<u64>,
    /// Increment per move, s (0 to 180).
    #[serde(rename = "clock.increment")]
    pub clock_increment: Option<u64>,
    /// Correspondence: days per move (1 to 14), instead of a clock.
    pub days: Option<u64>,
    /// Instead of `clock.limit`: the PGN `TimeControl` tag's syntax in seconds,
    /// periods separated by `:` (`moves/seconds`, the last sudden death), each
    /// with its own `+increment` (`40/5400+30:1800+30`), a delay as `d`/`b`
    /// (`300d5`) and a per-move limit after the last (`600+5/30`).
    #[serde(rename = "timeControl")]
    pub time_control: Option<String>,
    /// Arbiters of the game, by name, separated by commas or spaces: they may
    /// act on it as `/api/arbiter/game/{id}/...` describes (Laws 12). Neither
    /// player can be one.
    pub arbiters: Option<String>,
    /// The seed's per-move limit, s (its "fast" and "match" modes); needs a clock.
    #[serde(rename = "clock.perMove")]
    pub clock_per_move: Option<u64>,
    /// A delay per move, s (0 to 180); needs a clock.
    #[serde(rename = "clock.delay")]
    pub clock_delay: Option<u64>,
    /// `simple` (default) or `bronstein`.
    #[serde(rename = "clock.delayType")]
    pub clock_delay_type: Option<DelayType>,
    /// The challenger's colour.
    pub color: Option<ColorChoice>,
    /// Whether the game is rated (needs a clock, the standard start, and no guest).
    pub rated: Option<bool>,
    /// The rules: `online` (default), `ladder`, `fide-standard`, `fide-rapid`,
    /// `fide-blitz`, `fide-seed-edition`.
    #[schema(value_type = Option<String>)]
    #[serde(default, deserialize_with = "named_ruleset")]
    pub ruleset: Option<Ruleset>,
    /// `standard` (default), `chess960` or `fromPosition`.
    pub variant: Option<VariantChoice>,
    /// The starting position (FEN, X-FEN or Shredder-FEN).
    pub fen: Option<String>,
    /// For the computer: its level, 1 to 8 (default 1).
    pub level: Option<u64>,
    /// The challenged player's API token (with `challenge:write`,
    /// `board:play` or `bot:play`): the challenge is accepted for them at
    /// once and the game starts (lichess's `acceptByToken`).
    #[serde(rename = "acceptByToken")]
    pub accept_by_token: Option<String>,
}

/// A ruleset by its name, refused with the names there are.
pub fn named_ruleset<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Ruleset>, D::Error> {
    let name: Option<String> = Option::deserialize(d)?;
    name.map(|n| {
        n.trim()
            .parse::<Ruleset>()
            .map_err(serde::de::Error::custom)
    })
    .transpose()
}

/// A Fischer clock; with no initial time, as lichess, the clock starts with the
/// increment (at least 3 s), or the first move would already lose on time.
pub fn fischer(limit_ms: u64, increment_ms: u64) -> TimeControl {
    let initial = if limit_ms == 0 {
        increment_ms.max(3_000)
    } else {
        limit_ms
    };
    TimeControl::fischer(initial, increment_ms)
}

/// A `timeControl` field (PGN tag syntax, seconds), checked against the same
/// bounds as `clock.limit` and `clock.increment`, per period.
fn named_time_control(text: &str) -> Result<TimeControl, ApiError> {
    let tc =
        TimeControl::parse(text).map_err(|e| ApiError::BadRequest(format!("timeControl: {e}")))?;
    for (i, p) in tc.periods.iter().enumerate() {
        let base_s = p.base_ms / 1000;
        let increment_s = p.increment_ms / 1000;
        if base_s > MAX_LIMIT_S
            || increment_s > MAX_INCREMENT_S
            || p.delay.ms() > MAX_INCREMENT_S * 1000
        {
            return Err(ApiError::BadRequest(format!(
                "timeControl {text:?}: period {} must have 0-{MAX_LIMIT_S} s and an increment or delay of 0-{MAX_INCREMENT_S} s",
                i + 1
            )));
        }
    }
    if tc
        .periods
        .first()
        .is_some_and(|p| p.base_ms == 0 && p.increment_ms == 0 && p.delay.ms() == 0)
    {
        return Err(ApiError::BadRequest(format!(
            "timeControl {text:?}: the first period has no time at all"
        )));
    }
    Ok(tc)
}

/// A `timeControl` field, refused when any of the `others` (a field's name,
/// whether it was given) also gives the clock.
pub fn time_control_alone(text: &str, others: &[(&str, bool)]) -> Result<TimeControl, ApiError> {
    if let Some((name, _)) = others.iter().find(|(_, given)| *given) {
        return Err(ApiError::BadRequest(format!(
            "timeControl and {name} both give the clock: send one of them"
        )));
    }
    named_time_control(text)
}

/// The clock a challenge asks for.
pub fn challenge_clock(f: &ChallengeForm) -> Result<TimeControl, ApiError> {
    if let Some(text) = f.time_control.as_deref() {
        return time_control_alone(
            text,
            &[
                ("clock.limit", f.clock_limit.is_some()),
                ("clock.increment", f.clock_increment.is_some()),
                ("days", f.days.is_some()),
            ],
        );
    }
    let increment = f.clock_increment.unwrap_or(0);
    match (f.clock_limit, f.days) {
        (Some(limit), _) => {
            if limit == 0 && increment == 0 {
                return Err(ApiError::BadRequest(
                    "clock.limit and clock.increment cannot both be 0".into(),
                ));
            }
            if limit > MAX_LIMIT_S || increment > MAX_INCREMENT_S {
                return Err(ApiError::BadRequest(format!(
                    "clock.limit must be 0-{MAX_LIMIT_S} s and clock.increment 0-{MAX_INCREMENT_S} s, not {limit} and {increment}"
                )));
            }
            Ok(fischer(limit * 1000, increment * 1000))
        }
        (None, Some(d)) if (1..=14).contains(&d) => Ok(TimeControl::correspondence(d as u32)),
        (None, Some(d)) => Err(ApiError::BadRequest(format!(
            "days: {d} is not between 1 and 14"
        ))),
        (None, None) => Ok(TimeControl::unlimited()),
    }
}

/// A clock's extras: the seed's per-move limit (`clock.perMove`, seconds), a delay
/// (`clock.delay` seconds, `clock.delayType` simple or bronstein).
pub fn clock_extras(
    mut tc: TimeControl,
    per_move: Option<u64>,
    delay: Option<u64>,
    delay_type: Option<DelayType>,
) -> Result<TimeControl, ApiError> {
    if let Some(per_move) = per_move {
        if per_move == 0 || per_move > MAX_LIMIT_S || tc.periods.is_empty() {
            return Err(ApiError::BadRequest(format!(
                "clock.perMove needs a clock and 1-{MAX_LIMIT_S} s, not {per_move}"
            )));
        }
        tc.per_move_ms = Some(per_move * 1000);
    }
    if let Some(delay) = delay {
        if delay > MAX_INCREMENT_S {
            return Err(ApiError::BadRequest(format!(
                "clock.delay must be 0-{MAX_INCREMENT_S} s, not {delay}"
            )));
        }
        let ms = delay * 1000;
        let kind = match delay_type.unwrap_or_default() {
            DelayType::Simple => Delay::Simple(ms),
            DelayType::Bronstein => Delay::Bronstein(ms),
        };
        match tc.periods.first_mut() {
            Some(period) => period.delay = kind,
            None => return Err(ApiError::BadRequest("clock.delay needs a clock".into())),
        }
    } else if delay_type.is_some() {
        return Err(ApiError::BadRequest(
            "clock.delayType needs clock.delay".into(),
        ));
    }
    Ok(tc)
}

/// The starting position a challenge asks for (lichess's `variant` and `fen`):
/// `standard` (the usual start, or `fen`), `chess960` (a random one of the 960,
/// or `fen`), `fromPosition` (`fen`). `None` for the usual start; the FEN as
/// the rules write it, and whether the game is Chess960.
pub fn starting_position(
    variant: Option<VariantChoice>,
    fen: Option<&str>,
) -> Result<(Option<String>, bool), ApiError> {
    let fen = fen.map(str::trim).filter(|s| !s.is_empty());
    let (text, chess960) = match (variant.unwrap_or_default(), fen) {
        (VariantChoice::Standard, None) => return Ok((None, false)),
        (VariantChoice::Standard | VariantChoice::FromPosition, Some(fen)) => {
            (fen.to_string(), false)
        }
        (VariantChoice::FromPosition, None) => {
            return Err(ApiError::BadRequest(
                "variant fromPosition needs a fen".into(),
            ))
        }
        (VariantChoice::Chess960, Some(fen)) => (fen.to_string(), true),
        (VariantChoice::Chess960, None) => {
            let n = rand::random::<u16>() % caissa_rules::chess960::COUNT;
            let fen = caissa_rules::chess960::start_fen(n)
                .ok_or_else(|| ApiError::Internal(format!("no Chess960 position number {n}")))?;
            return Ok((Some(fen), true));
        }
    };
    let position = if chess960 {
        caissa_rules::fen::parse_with_mode(&text, caissa_rules::CastlingMode::Chess960)
    } else {
        caissa_rules::fen::parse(&text)
    }
    .map_err(|e| ApiError::BadRequest(format!("fen {text:?}: {e}")))?;
    if position.legal_moves().is_empty() {
        return Err(ApiError::BadRequest(format!(
            "fen {text:?}: the side to move has no legal move"
        )));
    }
    // Castling rights written Chess960's way make it a Chess960 game.
    let chess960 = chess960 || position.castling_mode().is_chess960();
    Ok((Some(position.fen()), chess960))
}
