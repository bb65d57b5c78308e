//! Time controls: constructors, the PGN `TimeControl` tag form (parse and Display),
//! the players' `minutes+seconds` form, and the speed classes of Appendices A and B.

use caissa_arbiter::{Delay, Period, Speed, TimeControl};
use proptest::prelude::*;

use crate::support::{proptest_config, DAY, MINUTE, SECOND};

fn parse(text: &str) -> TimeControl {
    TimeControl::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn period(moves: Option<u32>, base_ms: u64, increment_ms: u64, delay: Delay) -> Period {
    Period {
        moves,
        base_ms,
        increment_ms,
        delay,
    }
}

#[test]
fn parse_sudden_death_and_increment() {
    assert_eq!(parse("300"), TimeControl::fischer(5 * MINUTE, 0));
    assert_eq!(parse("300+2"), TimeControl::fischer(5 * MINUTE, 2 * SECOND));
    assert_eq!(
        parse(" 180+2 "),
        TimeControl::fischer(3 * MINUTE, 2 * SECOND)
    );
    assert_eq!(parse("0.5+0.25"), TimeControl::fischer(500, 250));
}

#[test]
fn parse_art_6_3_2_several_periods() {
    let tc = parse("40/5400+30:1800+30");
    assert_eq!(
        tc.periods,
        vec![
            period(Some(40), 90 * MINUTE, 30 * SECOND, Delay::None),
            period(None, 30 * MINUTE, 30 * SECOND, Delay::None),
        ]
    );
    assert_eq!(tc.per_move_ms, None);
    let three = parse("40/7200:20/3600:1800");
    assert_eq!(three.periods.len(), 3);
    assert_eq!(
        three.periods[1],
        period(Some(20), 60 * MINUTE, 0, Delay::None)
    );
    assert_eq!(three.initial_ms(), 120 * MINUTE);
}

#[test]
fn parse_art_6_3_2_delays() {
    assert_eq!(
        parse("300d5"),
        TimeControl::with_delay(5 * MINUTE, Delay::Simple(5 * SECOND))
    );
    assert_eq!(
        parse("300b5"),
        TimeControl::with_delay(5 * MINUTE, Delay::Bronstein(5 * SECOND))
    );
    assert!(parse("300d5").has_delay());
    assert!(!parse("300d5").has_increment());
}

#[test]
fn parse_per_move_limit_fast_and_match_modes() {
    assert_eq!(
        parse("600+5/30"),
        TimeControl::fast(10 * MINUTE, 30 * SECOND, 5 * SECOND)
    );
    assert_eq!(
        parse("600+0/30"),
        TimeControl::match_mode(10 * MINUTE, 30 * SECOND)
    );
}

#[test]
fn parse_correspondence_and_unlimited() {
    assert_eq!(parse("3d"), TimeControl::correspondence(3));
    assert_eq!(parse("3d").per_move_ms, Some(3 * DAY));
    assert!(parse("3d").periods.is_empty());
    assert_eq!(parse("-"), TimeControl::unlimited());
    assert_eq!(parse("unlimited"), TimeControl::unlimited());
    assert!(TimeControl::unlimited().is_unlimited());
    assert!(!TimeControl::correspondence(1).is_unlimited());
}

#[test]
fn parse_minutes_players_form() {
    let min = |t: &str| TimeControl::parse_minutes(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    assert_eq!(min("5+3"), TimeControl::fischer(5 * MINUTE, 3 * SECOND));
    assert_eq!(min("0.5+0"), TimeControl::fischer(30 * SECOND, 0));
    assert_eq!(min("90+30"), TimeControl::fischer(90 * MINUTE, 30 * SECOND));
    assert_eq!(min("15"), TimeControl::fischer(15 * MINUTE, 0));
    assert_eq!(
        min("10+5/30"),
        TimeControl::fast(10 * MINUTE, 30 * SECOND, 5 * SECOND)
    );
    assert_eq!(
        min("40/90:30+30"),
        TimeControl {
            periods: vec![
                period(Some(40), 90 * MINUTE, 0, Delay::None),
                period(None, 30 * MINUTE, 30 * SECOND, Delay::None),
            ],
            per_move_ms: None,
        }
    );
    assert_eq!(min("3d"), TimeControl::correspondence(3));
}

#[test]
fn parse_rejects_nonsense_with_the_text_and_reason() {
    for bad in [
        "",
        "abc",
        "5+x",
        "-5",
        "0",
        "0+0",
        "0/60",
        "x/60",
        "300:40/60",
        "0d",
        "31d",
        "600+5/x",
        "600+5/-30",
    ] {
        let err = TimeControl::parse(bad).expect_err(bad);
        assert_eq!(err.text, bad);
        assert!(!err.why.is_empty());
        assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
    }
}

#[test]
fn display_pgn_tag_form() {
    let cases = [
        (TimeControl::fischer(5 * MINUTE, 2 * SECOND), "300+2"),
        (TimeControl::fischer(90 * MINUTE, 0), "5400"),
        (TimeControl::fischer(500, 250), "0.5+0.25"),
        (TimeControl::unlimited(), "-"),
        (TimeControl::correspondence(3), "3d"),
        (
            TimeControl::fast(10 * MINUTE, 30 * SECOND, 5 * SECOND),
            "600+5/30",
        ),
        (
            TimeControl::match_mode(10 * MINUTE, 30 * SECOND),
            "600+0/30",
        ),
        (
            TimeControl::with_delay(5 * MINUTE, Delay::Simple(5 * SECOND)),
            "300d5",
        ),
        (
            TimeControl::with_delay(5 * MINUTE, Delay::Bronstein(5 * SECOND)),
            "300b5",
        ),
    ];
    for (tc, text) in cases {
        assert_eq!(tc.to_string(), text);
        assert_eq!(parse(text), tc, "{text}");
    }
    assert_eq!(
        parse("40/5400+30:1800+30").to_string(),
        "40/5400+30:1800+30"
    );
}

#[test]
fn parse_minutes_then_display_then_parse_round_trips() {
    for text in [
        "5+3",
        "0.5+0",
        "90+30",
        "40/90:30+30",
        "10+5/30",
        "15d5",
        "3d",
    ] {
        let tc = TimeControl::parse_minutes(text).unwrap();
        assert_eq!(parse(&tc.to_string()), tc, "{text} -> {tc}");
    }
}

#[test]
fn display_round_trips_a_delay_with_a_per_move_limit() {
    let tc = TimeControl {
        per_move_ms: Some(30 * SECOND),
        ..TimeControl::with_delay(5 * MINUTE, Delay::Simple(5 * SECOND))
    };
    let text = tc.to_string();
    assert_eq!(
        TimeControl::parse(&text),
        Ok(tc),
        "Display wrote {text:?} for a delay with a per-move limit"
    );
}

#[test]
fn display_round_trips_several_periods_with_a_per_move_limit() {
    let tc = TimeControl {
        per_move_ms: Some(MINUTE),
        ..parse("40/5400:1800")
    };
    let text = tc.to_string();
    assert_eq!(
        TimeControl::parse(&text),
        Ok(tc),
        "Display wrote {text:?} for two periods with a per-move limit"
    );
}

#[test]
fn b_1_blitz_is_ten_minutes_or_less_counting_sixty_increments() {
    let speed = |t: &str| TimeControl::parse_minutes(t).unwrap().speed();
    assert_eq!(speed("3+2"), Speed::Blitz);
    assert_eq!(speed("5+0"), Speed::Blitz);
    assert_eq!(speed("10+0"), Speed::Blitz);
    // 5 min + 60 × 5 s = 10 min: still blitz.
    assert_eq!(speed("5+5"), Speed::Blitz);
    // 5 min + 60 × 6 s = 11 min: rapid.
    assert_eq!(speed("5+6"), Speed::Rapid);
}

#[test]
fn a_1_rapid_is_more_than_ten_and_less_than_sixty_minutes() {
    let speed = |t: &str| TimeControl::parse_minutes(t).unwrap().speed();
    assert_eq!(speed("10+5"), Speed::Rapid);
    assert_eq!(speed("15+10"), Speed::Rapid);
    assert_eq!(speed("25+0"), Speed::Rapid);
    assert_eq!(speed("59+0"), Speed::Rapid);
    // 60 minutes (45 min + 60 × 15 s) is standard play.
    assert_eq!(speed("60+0"), Speed::Classical);
    assert_eq!(speed("45+15"), Speed::Classical);
    assert_eq!(speed("90+30"), Speed::Classical);
    assert_eq!(parse("40/5400:1800+30").speed(), Speed::Classical);
}

#[test]
fn bullet_correspondence_and_unlimited_speeds() {
    let speed = |t: &str| TimeControl::parse_minutes(t).unwrap().speed();
    assert_eq!(speed("1+0"), Speed::Bullet);
    assert_eq!(speed("2+1"), Speed::Bullet);
    assert_eq!(speed("0.25+0"), Speed::Bullet);
    assert_eq!(
        TimeControl::correspondence(3).speed(),
        Speed::Correspondence
    );
    assert_eq!(TimeControl::unlimited().speed(), Speed::Unlimited);
}

#[test]
fn time_control_serde_round_trip() {
    for tc in [
        parse("40/5400+30:1800+30"),
        parse("300d5"),
        parse("300b5"),
        parse("600+5/30"),
        TimeControl::correspondence(5),
        TimeControl::unlimited(),
    ] {
        let json = serde_json::to_string(&tc).unwrap();
        let back: TimeControl = serde_json::from_str(&json).unwrap();
        assert_eq!(back, tc, "{json}");
    }
}

fn arb_delay() -> impl Strategy<Value = Delay> {
    prop_oneof![
        Just(Delay::None),
        (1u64..60_000).prop_map(Delay::Simple),
        (1u64..60_000).prop_map(Delay::Bronstein),
    ]
}

/// A period the tag form can express: an increment or a delay, not both.
fn arb_period(moves: Option<u32>) -> impl Strategy<Value = Period> {
    (0u64..20_000_000, 0u64..120_000, arb_delay()).prop_map(move |(base, inc, delay)| {
        let increment_ms = if delay == Delay::None { inc } else { 0 };
        period(moves, base, increment_ms, delay)
    })
}

fn arb_control() -> impl Strategy<Value = TimeControl> {
    let periods = (prop::collection::vec(1u32..100, 0..3), arb_period(None))
        .prop_flat_map(|(counts, last)| {
            let firsts: Vec<_> = counts.into_iter().map(|n| arb_period(Some(n))).collect();
            (firsts, Just(last))
        })
        .prop_map(|(mut firsts, last)| {
            firsts.push(last);
            TimeControl {
                periods: firsts,
                per_move_ms: None,
            }
        });
    let fast = (1u64..20_000_000, 0u64..120_000, 1u64..600_000)
        .prop_map(|(base, inc, limit)| TimeControl::fast(base, limit, inc));
    let corr = (1u32..=30).prop_map(TimeControl::correspondence);
    prop_oneof![6 => periods, 2 => fast, 1 => corr, 1 => Just(TimeControl::unlimited())]
        .prop_filter("some time", |tc| {
            tc.periods.is_empty()
                || tc
                    .periods
                    .iter()
                    .any(|p| p.base_ms > 0 || p.increment_ms > 0 || p.delay != Delay::None)
        })
}

proptest! {
    #![proptest_config(proptest_config(256, 0x7c01))]

    #[test]
    fn display_then_parse_gives_the_same_control(tc in arb_control()) {
        let text = tc.to_string();
        prop_assert_eq!(TimeControl::parse(&text), Ok(tc), "{}", text);
    }

    #[test]
    fn parse_never_panics(text in "[0-9/:+db.\\-]{0,16}") {
        let _ = TimeControl::parse(&text);
        let _ = TimeControl::parse_minutes(&text);
    }
}
