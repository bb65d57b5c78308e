//! Properties over random clocks and random games (fixed case counts, so the run
//! is deterministic in length): the clock never goes negative and its accounts
//! balance, the flag falls exactly at `flag_time`, and a game's events rebuild it
//! exactly, also after a trip through JSON.

use caissa_arbiter::{
    Action, ArbiterAction, ClaimKind, Clock, ClockError, Delay, Event, Game, Ruleset, Status,
    TimeControl,
};
use caissa_pgn::{Reader, Replayer};
use caissa_rules::uci::UciMove;
use caissa_rules::Color::{self, Black, White};
use proptest::prelude::*;

use crate::support::{assert_same, proptest_config, setup, MINUTE, SECOND};

fn controls() -> Vec<TimeControl> {
    vec![
        TimeControl::fischer(10 * MINUTE, 2 * SECOND),
        TimeControl::fischer(5 * MINUTE, 0),
        TimeControl::with_delay(5 * MINUTE, Delay::Simple(3 * SECOND)),
        TimeControl::with_delay(5 * MINUTE, Delay::Bronstein(3 * SECOND)),
        TimeControl::parse("10/120:5/60+1:120+2").unwrap(),
        TimeControl::fast(10 * MINUTE, 30 * SECOND, SECOND),
        TimeControl::match_mode(3 * MINUTE, 20 * SECOND),
        TimeControl::correspondence(1),
    ]
}

fn color(white: bool) -> Color {
    if white {
        White
    } else {
        Black
    }
}

fn gap() -> impl Strategy<Value = u64> {
    prop_oneof![40 => 0u64..3_000, 4 => 0u64..20_000, 1 => 0u64..200_000]
}

// ---- the clock ----

#[derive(Clone, Debug)]
enum ClockOp {
    Press,
    PressWrongSide,
    Adjust(bool, i64),
    Set(bool, u64),
    Pause,
    Resume,
    Stop,
    Start(bool),
}

fn clock_op() -> impl Strategy<Value = ClockOp> {
    prop_oneof![
        10 => Just(ClockOp::Press),
        1 => Just(ClockOp::PressWrongSide),
        2 => (any::<bool>(), -400_000i64..200_000).prop_map(|(w, d)| ClockOp::Adjust(w, d)),
        1 => (any::<bool>(), 0u64..600_000).prop_map(|(w, ms)| ClockOp::Set(w, ms)),
        1 => Just(ClockOp::Pause),
        1 => Just(ClockOp::Resume),
        1 => Just(ClockOp::Stop),
        1 => any::<bool>().prop_map(ClockOp::Start),
    ]
}

fn check_clock(clock: &Clock, now: u64) -> Result<(), TestCaseError> {
    for c in Color::ALL {
        let side = clock.side(c);
        prop_assert!(side.credited_ms >= side.debited_ms, "{c:?}: {side:?}");
        prop_assert_eq!(
            side.used_ms + side.remaining_ms,
            side.credited_ms - side.debited_ms,
            "{:?}: {:?}",
            c,
            side
        );
        // What the display shows never exceeds the account at the turn's start.
        prop_assert!(clock.remaining(c, now) <= side.remaining_ms);
    }
    match (clock.running(), clock.is_paused()) {
        (Some(running), false) => {
            let t = clock.flag_time().expect("a running clock has a flag time");
            prop_assert_eq!(clock.flag(t), Some(running), "flag at flag_time {}", t);
            prop_assert_eq!(clock.flag(t - 1), None, "flag before flag_time {}", t);
            prop_assert_eq!(clock.flag(now).is_some(), now >= t);
        }
        (None, _) => {
            prop_assert_eq!(clock.flag(now), None);
            prop_assert_eq!(clock.flag_time(), None);
        }
        (Some(_), true) => prop_assert_eq!(clock.flag_time(), None),
    }
    Ok(())
}

proptest! {
    #![proptest_config(proptest_config(256, 0xc10c))]

    #[test]
    fn clock_never_goes_negative_and_its_accounts_balance(
        control in prop::sample::select(controls()),
        ops in prop::collection::vec((clock_op(), gap()), 1..80),
    ) {
        let mut clock = Clock::new(control);
        clock.start(White, 0).unwrap();
        let mut now = 0;
        check_clock(&clock, now)?;
        for (op, gap) in ops {
            now += gap;
            match op {
                ClockOp::Press => {
                    if let Some(c) = clock.running() {
                        let paused = clock.is_paused();
                        let result = clock.press(c, now);
                        prop_assert_eq!(result.is_err(), paused);
                    }
                }
                ClockOp::PressWrongSide => {
                    let c = clock.running().map_or(White, |c| !c);
                    let before = clock.clone();
                    prop_assert!(matches!(clock.press(c, now), Err(ClockError::NotRunning(_))));
                    prop_assert_eq!(&clock, &before);
                }
                ClockOp::Adjust(w, d) => clock.adjust(color(w), d, now),
                ClockOp::Set(w, ms) => {
                    clock.set_remaining(color(w), ms, now);
                }
                ClockOp::Pause => clock.pause(now).unwrap(),
                ClockOp::Resume => clock.resume(now).unwrap(),
                ClockOp::Stop => clock.stop(now),
                ClockOp::Start(w) => clock.start(color(w), now).unwrap(),
            }
            check_clock(&clock, now)?;
        }
    }

    #[test]
    fn press_charges_elapsed_time_less_the_delay(
        control in prop::sample::select(controls()),
        thinks in prop::collection::vec(0u64..30_000, 1..30),
    ) {
        let mut clock = Clock::new(control.clone());
        clock.start(White, 0).unwrap();
        let mut now = 0;
        for think in thinks {
            let c = clock.running().unwrap();
            if clock.flag(now + think).is_some() {
                break;
            }
            let before = clock.side(c).clone();
            let delay = control
                .periods
                .get(before.period)
                .or(control.periods.last())
                .map_or(0, |p| p.delay.ms());
            now += think;
            clock.press(c, now).unwrap();
            let after = clock.side(c);
            // Without a game clock (correspondence) there is no game time to charge.
            let charged = if control.periods.is_empty() { 0 } else { think.saturating_sub(delay) };
            prop_assert_eq!(after.used_ms - before.used_ms, charged);
            prop_assert_eq!(after.moves, before.moves + 1);
            prop_assert!(after.remaining_ms + charged >= before.remaining_ms);
        }
    }
}

// ---- random games ----

#[derive(Clone, Debug)]
struct Step {
    kind: u8,
    pick: u32,
    white: bool,
    gap: u64,
}

fn step() -> impl Strategy<Value = Step> {
    (0u8..48, any::<u32>(), any::<bool>(), gap()).prop_map(|(kind, pick, white, gap)| Step {
        kind,
        pick,
        white,
        gap,
    })
}

/// A legal move of the side to move, in SAN or UCI.
fn legal_text(game: &Game, pick: u32, san: bool) -> Option<String> {
    let pos = game.position();
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let m = moves[pick as usize % moves.len()];
    Some(if san {
        pos.san(m)
    } else {
        UciMove::from_move(pos, m).to_string()
    })
}

fn square_name(i: u32) -> String {
    let file = (b'a' + (i % 8) as u8) as char;
    let rank = (b'1' + (i / 8 % 8) as u8) as char;
    format!("{file}{rank}")
}

/// Performs one random step; errors are part of the game (refused actions).
fn perform(game: &mut Game, s: &Step, now: u64) {
    let by = color(s.white);
    let turn = game.position().turn();
    let p = s.pick;
    let _ = match s.kind {
        // Mostly moves; an adjourned or paused game is mostly resumed first.
        0..=33 if game.status() == Status::Adjourned && p.is_multiple_of(2) => {
            game.arbiter(ArbiterAction::ResumeAdjourned, now)
        }
        0..=33 if game.status() == Status::Paused && p.is_multiple_of(2) => {
            game.arbiter(ArbiterAction::Resume, now)
        }
        34 if p.is_multiple_of(2) => {
            // Any two squares: a legal move, an illegal one or nonsense.
            let text = format!("{}{}", square_name(p >> 1), square_name(p >> 7));
            game.act(turn, Action::play(text), now)
        }
        0..=34 => match legal_text(game, p, s.white) {
            Some(text) => game.act(turn, Action::play(text), now),
            None => game.tick(now).map(|_| ()),
        },
        35 => game.act(by, Action::OfferDraw, now),
        36 => {
            let action = if p.is_multiple_of(2) {
                Action::AcceptDraw
            } else {
                Action::DeclineDraw
            };
            game.act(by, action, now)
        }
        37 => {
            let claim = if p.is_multiple_of(2) {
                ClaimKind::ThreefoldRepetition
            } else {
                ClaimKind::FiftyMoves
            };
            let with_move = if p.is_multiple_of(3) {
                legal_text(game, p >> 2, s.white)
            } else {
                None
            };
            game.act(turn, Action::ClaimDraw { claim, with_move }, now)
        }
        38 => game.arbiter(
            ArbiterAction::AdjustClock {
                color: by,
                delta_ms: i64::from(p % 120_001) - 60_000,
                reason: "random".into(),
            },
            now,
        ),
        39 => game.arbiter(
            ArbiterAction::SetClock {
                color: by,
                ms: u64::from(p % 300_000),
            },
            now,
        ),
        40 => {
            let action = if game.status() == Status::Paused {
                ArbiterAction::Resume
            } else {
                ArbiterAction::Pause
            };
            game.arbiter(action, now)
        }
        41 => game.arbiter(
            ArbiterAction::Warn {
                color: by,
                reason: "random".into(),
            },
            now,
        ),
        42 => game.tick(now).map(|_| ()),
        43 => {
            if game.status() == Status::Adjourned {
                game.arbiter(ArbiterAction::ResumeAdjourned, now)
            } else {
                let text = if p.is_multiple_of(5) {
                    "nonsense".to_string()
                } else {
                    legal_text(game, p, s.white).unwrap_or_default()
                };
                game.act(turn, Action::Seal { text }, now)
            }
        }
        44 => game.act(by, Action::ClaimFlag, now),
        45 => match p % 4 {
            0 => game.act(turn, Action::RequestIncrement, now),
            1 => game.arbiter(ArbiterAction::GrantIncrement, now),
            2 => game.act(turn, Action::ClaimNoProgress, now),
            _ => game.arbiter(
                ArbiterAction::DecideNoProgressClaim { draw: p % 8 == 3 },
                now,
            ),
        },
        46 => match p % 16 {
            0 => game.act(by, Action::Resign, now),
            1 => game.act(by, Action::Abort, now),
            2 => game.arbiter(ArbiterAction::Forfeit { color: by }, now),
            _ => game.tick(now).map(|_| ()),
        },
        _ if !p.is_multiple_of(4) => game.tick(now).map(|_| ()),
        _ => {
            let gone = u64::from(p % 90_000);
            let action = if p.is_multiple_of(2) {
                Action::ClaimVictory {
                    opponent_gone_ms: gone,
                }
            } else {
                Action::CallDraw {
                    opponent_gone_ms: gone,
                }
            };
            game.act(by, action, now)
        }
    };
}

fn check_game(game: &Game) -> Result<(), TestCaseError> {
    for c in Color::ALL {
        let side = game.clock().side(c);
        prop_assert_eq!(
            side.used_ms + side.remaining_ms,
            side.credited_ms - side.debited_ms,
            "{:?}: {:?}",
            c,
            side
        );
    }
    let events = game.events();
    prop_assert!(events.windows(2).all(|w| w[0].at <= w[1].at));
    let ends = events
        .iter()
        .filter(|e| matches!(e.kind, caissa_arbiter::EventKind::Ended { .. }))
        .count();
    prop_assert!(ends <= 1);
    if ends == 1 {
        let last_is_end = matches!(
            events.last().unwrap().kind,
            caissa_arbiter::EventKind::Ended { .. }
        );
        prop_assert!(last_is_end, "the end is the last event");
        prop_assert_eq!(game.status(), Status::Ended);
        prop_assert!(game.finish().is_some());
        prop_assert_eq!(game.next_deadline(0), None);
    } else {
        prop_assert!(game.finish().is_none());
    }
    Ok(())
}

proptest! {
    #![proptest_config(proptest_config(256, 0x6a3e))]

    #[test]
    fn events_rebuild_the_game_exactly(
        ruleset in prop::sample::select(Ruleset::ALL.to_vec()),
        control in prop::sample::select(controls()),
        steps in prop::collection::vec(step(), 1..250),
    ) {
        let setup = setup(ruleset, control);
        let mut game = Game::new(setup.clone(), 0).unwrap();
        let mut snapshots = vec![game.clone()];
        let mut now = 0;
        for s in &steps {
            now += s.gap;
            perform(&mut game, s, now);
            check_game(&game)?;
            snapshots.push(game.clone());
        }
        // The whole log, and every prefix of it, rebuilds the game as it was.
        let again = Game::from_events(setup.clone(), game.events()).unwrap();
        assert_same(&game, &again);
        for snapshot in &snapshots {
            let n = snapshot.events().len();
            let again = Game::from_events(setup.clone(), &game.events()[..n]).unwrap();
            assert_same(snapshot, &again);
        }
        // A copy that follows the log event by event (as another node does) is
        // the game at every step.
        let mut follower = Game::from_events(setup.clone(), &[]).unwrap();
        for snapshot in &snapshots {
            for event in &snapshot.events()[follower.events().len()..] {
                follower.replay(event).unwrap();
            }
            assert_same(snapshot, &follower);
        }
        // The log survives JSON.
        let json = serde_json::to_string(game.events()).unwrap();
        let back: Vec<Event> = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back[..], game.events());
        let again = Game::from_events(setup, &back).unwrap();
        assert_same(&game, &again);
        // The record replays in another reader to the same position.
        let pgn = game.pgn();
        let replayed = Reader::from_bytes(pgn.as_bytes())
            .read_game(&mut Replayer::new())
            .unwrap()
            .unwrap();
        prop_assert_eq!(replayed.error, None, "{}", pgn);
        prop_assert_eq!(replayed.position.fen(), game.position().fen());
    }

    #[test]
    fn random_legal_games_replay_and_end_only_by_the_rules(
        ruleset in prop::sample::select(Ruleset::ALL.to_vec()),
        picks in prop::collection::vec((any::<u32>(), 0u64..3_000), 1..200),
    ) {
        let setup = setup(ruleset, TimeControl::fischer(10 * MINUTE, 2 * SECOND));
        let mut game = Game::new(setup.clone(), 0).unwrap();
        let mut now = 0;
        for (pick, think) in picks {
            if game.finish().is_some() {
                break;
            }
            now += think;
            let text = legal_text(&game, pick, pick % 2 == 0).unwrap();
            let by = game.position().turn();
            game.act(by, Action::play(text), now).unwrap();
            check_game(&game)?;
        }
        if let Some(finish) = game.finish() {
            use caissa_arbiter::Termination::*;
            // With a 10-minute clock and at most 200 quick moves, nobody flags.
            prop_assert!(
                matches!(
                    finish.termination,
                    Checkmate
                        | Stalemate
                        | DeadPosition
                        | FivefoldRepetition
                        | SeventyFiveMoves
                        | ThreefoldRepetition
                        | FiftyMoves
                        | NoProgress
                        | PerpetualChecks
                ),
                "{:?}",
                finish
            );
            if matches!(
                finish.termination,
                ThreefoldRepetition | FiftyMoves | NoProgress | PerpetualChecks
            ) {
                prop_assert_eq!(ruleset, Ruleset::Ladder);
            }
            if matches!(finish.termination, FivefoldRepetition | SeventyFiveMoves) {
                prop_assert!(ruleset != Ruleset::FideSeedEdition);
            }
        }
        let again = Game::from_events(setup, game.events()).unwrap();
        assert_same(&game, &again);
    }
}
