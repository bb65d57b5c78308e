use super::*;
use crate::domain::tournament::{Conditions, Spec, TournamentError};
use caissa_arbiter::{Ruleset, TimeControl};

fn arena_record(players: i64, minutes: u32) -> Record {
    let spec = Spec {
        name: "Arena".into(),
        description: String::new(),
        system: System::Arena,
        rounds: None,
        time_control: TimeControl::fischer(180_000, 0),
        ruleset: Ruleset::Online,
        rated: false,
        starts_at: 0,
        round_interval_ms: 0,
        conditions: Conditions::default(),
        allow_bots: false,
        arbiters: Vec::new(),
        tiebreaks: Vec::new(),
        minutes: Some(minutes),
        berserkable: true,
        streakable: true,
    };
    let mut r = Record::new("a".into(), (0, "org".into()), spec, 0);
    for id in 1..=players {
        r.join(entrant(id, 1500 + id as u32)).unwrap();
    }
    r
}

fn entrant(id: i64, rating: u32) -> Entrant {
    Entrant {
        user_id: id,
        name: format!("p{id}"),
        rating,
        joined_at: 0,
        rank: None,
        withdrawn: false,
        half_byes: Vec::new(),
    }
}

fn ids() -> impl FnMut() -> String {
    let mut n = 0;
    move || {
        n += 1;
        format!("g{n}")
    }
}

/// The game between two ranks, still being played.
fn game_of(r: &Record, rank: PlayerId) -> String {
    r.pending_boards()
        .find(|b| b.white == rank || b.black == rank)
        .map(|b| b.game_id.clone())
        .expect("playing")
}

/// `rank` wins its game now being played, in `plies`.
fn win(r: &mut Record, rank: PlayerId, plies: usize, berserk: [bool; 2]) {
    let id = game_of(r, rank);
    let board = r
        .pending_boards()
        .find(|b| b.game_id == id)
        .unwrap()
        .clone();
    let result = if board.white == rank {
        (GameResult::Win, GameResult::Loss)
    } else {
        (GameResult::Loss, GameResult::Win)
    };
    assert!(r.record_arena(&id, result, plies, berserk));
}

#[test]
fn arena_starts_whoever_is_there_and_ends_at_its_time() {
    let mut r = arena_record(4, 30);
    r.start_arena(1_000);
    assert_eq!(r.status, Status::Started);
    assert_eq!(r.arena_ends_at(), Some(1_000 + 30 * 60_000));
    assert!(r.pair_arena(ids(), 1_000));
    assert_eq!(r.pending_boards().count(), 2);
    // Nobody waits: no wave is due.
    assert_eq!(r.next_arena_pairing(), None);
    // After the end no pairing is made.
    let mut late = arena_record(2, 1);
    late.start_arena(0);
    assert!(!late.pair_arena(ids(), 60_000));
}

#[test]
fn arena_players_are_paired_again_when_their_game_ends_never_with_the_same_opponent() {
    let mut r = arena_record(4, 30);
    r.start_arena(0);
    let mut next = ids();
    assert!(r.pair_arena(&mut next, 0));
    let first: Vec<(PlayerId, PlayerId)> = r.pending_boards().map(|b| (b.white, b.black)).collect();
    // Both games end: all four wait, and meet someone new.
    win(&mut r, first[0].0, 40, [false; 2]);
    win(&mut r, first[1].0, 40, [false; 2]);
    assert_eq!(r.arena_waiting().len(), 4);
    assert_eq!(r.next_arena_pairing(), Some(PAIRING_INTERVAL_MS));
    assert!(r.pair_arena(&mut next, PAIRING_INTERVAL_MS));
    for b in r.pending_boards() {
        let met = first
            .iter()
            .any(|&(w, bl)| (w, bl) == (b.white, b.black) || (bl, w) == (b.white, b.black));
        assert!(!met, "{} met {} again", b.white, b.black);
    }
}

#[test]
fn arena_streak_of_two_wins_doubles_and_berserk_adds_a_point() {
    let mut r = arena_record(8, 60);
    r.start_arena(0);
    let mut next = ids();
    let mut now = 0;
    // Rank 1 wins three games, going berserk in the third.
    for game in 0..3 {
        assert!(r.pair_arena(&mut next, now), "wave {game}");
        let id = game_of(&r, 1);
        let board = r
            .pending_boards()
            .find(|b| b.game_id == id)
            .unwrap()
            .clone();
        let berserk = if game == 2 {
            if board.white == 1 {
                [true, false]
            } else {
                [false, true]
            }
        } else {
            [false; 2]
        };
        win(&mut r, 1, 30, berserk);
        // Everyone else's games end drawn so they wait too.
        let others: Vec<String> = r.pending_boards().map(|b| b.game_id.clone()).collect();
        for other in others {
            r.record_arena(&other, (GameResult::Draw, GameResult::Draw), 30, [false; 2]);
        }
        now += PAIRING_INTERVAL_MS;
    }
    let standings = r.arena_standings();
    let top = &standings[0];
    assert_eq!(top.entrant.user_id, r.by_rank(1).unwrap().user_id);
    // 2 + 2 + (4 doubled + 1 berserk) = 9, on fire.
    assert_eq!(top.sheet.score(), 9);
    assert!(top.sheet.is_on_fire());
    assert_eq!(
        top.sheet
            .games()
            .iter()
            .map(|g| g.points.to_string())
            .collect::<String>(),
        "225"
    );
}

#[test]
fn arena_no_show_scores_nothing_and_pauses_the_absent_player() {
    let mut r = arena_record(2, 30);
    r.start_arena(0);
    assert!(r.pair_arena(ids(), 0));
    let board = r.pending_boards().next().unwrap().clone();
    r.record_arena(
        &board.game_id,
        (GameResult::ForfeitLoss, GameResult::ForfeitWin),
        0,
        [false; 2],
    );
    let white = r.by_rank(board.white).unwrap();
    assert!(white.withdrawn, "the player who never moved is paused");
    assert!(r.arena_standings().iter().all(|s| s.sheet.score() == 0));
    // Coming back: join again.
    let user = white.user_id;
    r.join(entrant(user, 1500)).unwrap();
    assert!(!r.by_rank(board.white).unwrap().withdrawn);
}

#[test]
fn arena_takes_late_entries_and_pauses_instead_of_byes() {
    let mut r = arena_record(3, 30);
    r.start_arena(0);
    r.join(entrant(9, 2000)).unwrap();
    let late = r.entrant(9).unwrap();
    assert_eq!(late.rank, Some(4));
    assert_eq!(r.arena.as_ref().unwrap().sheets.len(), 4);
    assert_eq!(r.arena_waiting().len(), 4);
    assert!(matches!(r.ask_bye(9, 2), Err(TournamentError::State(_))));
    r.withdraw(9).unwrap();
    assert_eq!(r.arena_waiting().len(), 3);
}
