use super::*;
use caissa_arbiter::{GameResult as R, Termination as T};
use caissa_tournament::Points;

fn spec(system: System, rounds: Option<u32>) -> Spec {
    Spec {
        name: "Test".into(),
        description: String::new(),
        system,
        rounds,
        time_control: TimeControl::fischer(60_000, 0),
        ruleset: Ruleset::Online,
        rated: false,
        starts_at: 0,
        round_interval_ms: 0,
        conditions: Conditions::default(),
        allow_bots: false,
        arbiters: Vec::new(),
        tiebreaks: system.default_tiebreaks(),
        minutes: None,
        berserkable: false,
        streakable: false,
    }
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

fn started(system: System, rounds: Option<u32>, players: i64) -> Record {
    let mut r = Record::new("t".into(), (0, "org".into()), spec(system, rounds), 0);
    for id in 1..=players {
        r.join(entrant(id, 1500 + id as u32)).unwrap();
    }
    r.assign_ranks();
    r.status = Status::Started;
    r
}

fn play_round(r: &mut Record, white_wins: bool) {
    let pairing = r.pair_next().unwrap();
    r.add_round(&pairing, crate::domain::new_id, 0);
    let ids: Vec<String> = r.pending_boards().map(|b| b.game_id.clone()).collect();
    for id in ids {
        let result = if white_wins {
            (GameResult::Win, GameResult::Loss)
        } else {
            (GameResult::Draw, GameResult::Draw)
        };
        r.record(&id, result, 0);
    }
}

#[test]
fn starting_ranks_go_by_rating_then_name() {
    let mut r = Record::new(
        "t".into(),
        (0, "org".into()),
        spec(System::Swiss, Some(3)),
        0,
    );
    r.join(entrant(1, 1500)).unwrap();
    r.join(entrant(2, 1700)).unwrap();
    r.join(entrant(3, 1500)).unwrap();
    r.assign_ranks();
    let ranks: Vec<_> = r.entrants.iter().map(|e| e.rank.unwrap()).collect();
    assert_eq!(ranks, vec![2, 1, 3]);
}

#[test]
fn a_player_cannot_join_twice_and_a_round_robin_takes_no_late_entry() {
    let mut r = started(System::RoundRobin, None, 4);
    assert!(r.join(entrant(9, 1500)).is_err());
    let mut s = started(System::Swiss, Some(3), 4);
    assert!(s.join(entrant(1, 1500)).is_err());
    s.join(entrant(9, 1500)).unwrap();
    assert_eq!(s.entrant(9).unwrap().rank, Some(5));
}

#[test]
fn a_late_entry_scores_nothing_for_the_rounds_missed_and_is_paired_after() {
    let mut r = started(System::Swiss, Some(3), 4);
    play_round(&mut r, true);
    r.join(entrant(9, 2000)).unwrap();
    let model = r.model(true);
    let late = model.player(5).unwrap();
    assert_eq!(late.rounds, vec![Some(Entry::Bye { bye: Bye::Absent })]);
    let pairing = r.pair_next().unwrap();
    let paired =
        pairing.boards.iter().any(|b| b.white == 5 || b.black == 5) || pairing.bye == Some(5);
    assert!(paired, "{pairing:?}");
}

#[test]
fn a_half_point_bye_asked_for_is_announced_to_the_pairing_and_scores_a_draw() {
    let mut r = started(System::Swiss, Some(3), 5);
    r.ask_bye(2, 1).unwrap();
    let pairing = r.pair_next().unwrap();
    let rank = r.entrant(2).unwrap().rank.unwrap();
    assert!(pairing
        .boards
        .iter()
        .all(|b| b.white != rank && b.black != rank));
    assert_ne!(
        pairing.bye,
        Some(rank),
        "the pairing-allocated bye goes to another"
    );
    r.add_round(&pairing, crate::domain::new_id, 0);
    let half = r
        .standings()
        .into_iter()
        .find(|s| s.start_rank == rank)
        .expect("the player who asked stands in the table");
    assert_eq!(
        half.points,
        Points::HALF,
        "a half-point bye scores half a point"
    );
    // Only rounds not yet paired can be asked for.
    let mut r = started(System::Swiss, Some(3), 4);
    play_round(&mut r, true);
    assert!(r.ask_bye(1, 1).is_err());
    assert!(r.ask_bye(1, 4).is_err());
    assert!(r.ask_bye(1, 2).is_ok());
}

#[test]
fn a_withdrawn_player_is_not_paired_in_a_swiss_and_forfeits_in_a_round_robin() {
    let mut s = started(System::Swiss, Some(3), 5);
    s.withdraw(3).unwrap();
    let rank = s.entrant(3).unwrap().rank.unwrap();
    let pairing = s.pair_next().unwrap();
    assert!(pairing
        .boards
        .iter()
        .all(|b| b.white != rank && b.black != rank));
    assert_ne!(pairing.bye, Some(rank));

    let mut r = started(System::RoundRobin, None, 4);
    r.withdraw(1).unwrap();
    let rank = r.entrant(1).unwrap().rank.unwrap();
    let pairing = r.pair_next().unwrap();
    r.add_round(&pairing, || "x".into(), 0);
    let board = r.rounds[0]
        .boards
        .iter()
        .find(|b| b.white == rank || b.black == rank)
        .unwrap();
    let (white, black) = board.result.unwrap();
    if board.white == rank {
        assert_eq!(
            (white, black),
            (GameResult::ForfeitLoss, GameResult::ForfeitWin)
        );
    } else {
        assert_eq!(
            (white, black),
            (GameResult::ForfeitWin, GameResult::ForfeitLoss)
        );
    }
}

#[test]
fn the_tournament_ends_after_its_last_round() {
    let mut r = started(System::RoundRobin, None, 3);
    assert_eq!(r.total_rounds(), 3);
    for _ in 0..3 {
        assert_eq!(r.status, Status::Started);
        play_round(&mut r, true);
    }
    assert_eq!(r.status, Status::Finished);
    // Everyone met everyone once.
    let model = r.model(false);
    for p in &model.players {
        let mut opponents: Vec<_> = p
            .rounds
            .iter()
            .flatten()
            .filter_map(Entry::opponent)
            .collect();
        opponents.sort_unstable();
        opponents.dedup();
        assert_eq!(opponents.len(), 2, "{p:?}");
    }
}

#[test]
fn a_result_is_recorded_once() {
    let mut r = started(System::Swiss, Some(2), 2);
    let pairing = r.pair_next().unwrap();
    r.add_round(&pairing, || "g".into(), 0);
    assert!(r.record("g", (GameResult::Win, GameResult::Loss), 5));
    assert!(!r.record("g", (GameResult::Loss, GameResult::Win), 6));
    assert_eq!(
        r.rounds[0].boards[0].result,
        Some((GameResult::Win, GameResult::Loss))
    );
    assert_eq!(r.next_round_at, Some(5));
}

#[test]
fn art_6_7_a_game_not_begun_is_a_forfeit_of_the_side_that_did_not_move() {
    use GameResult::*;
    assert_eq!(scored(R::Void, T::Aborted, 0), (ForfeitLoss, ForfeitWin));
    assert_eq!(scored(R::Void, T::Aborted, 1), (ForfeitWin, ForfeitLoss));
    assert_eq!(
        scored(R::BlackWins, T::NoShow, 0),
        (ForfeitLoss, ForfeitWin)
    );
    assert_eq!(
        scored(R::WhiteWins, T::NoShow, 1),
        (ForfeitWin, ForfeitLoss)
    );
    assert_eq!(scored(R::WhiteWins, T::Checkmate, 30), (Win, Loss));
    assert_eq!(scored(R::Draw, T::Agreement, 30), (Draw, Draw));
    assert_eq!(scored(R::BlackHalf, T::ArbiterDecision, 30), (Loss, Draw));
}

#[test]
fn the_stored_record_reads_back_the_same() {
    let mut r = started(System::Swiss, Some(3), 5);
    play_round(&mut r, false);
    let text = serde_json::to_string(&r).unwrap();
    let back: Record = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
}

#[test]
fn a_rated_over_the_board_event_reports_fide_elo_changes_with_the_400_point_rule() {
    let mut r = Record::new(
        "t".into(),
        (0, "org".into()),
        spec(System::Swiss, Some(1)),
        0,
    );
    r.join(entrant(1, 2450)).unwrap();
    r.join(entrant(2, 1500)).unwrap();
    r.assign_ranks();
    r.status = Status::Started;
    play_round(&mut r, true);
    // Online, or unrated: no FIDE report.
    assert!(r.elo_changes().is_none());
    r.spec.ruleset = Ruleset::FideStandard;
    assert!(r.elo_changes().is_none());
    r.spec.rated = true;
    let changes = r.elo_changes().unwrap();
    let of = |rating: u16| changes.iter().find(|c| c.rating == rating).unwrap();
    let (high, low) = (of(2450), of(1500));
    // 950 points apart count as 400: the favourite expects 0.92 (FIDE table 8.1(b)).
    assert_eq!((high.k, low.k), (10.0, 20.0));
    assert!((high.expected - 0.92).abs() < 1e-9 && (low.expected - 0.08).abs() < 1e-9);
    let won = |c: &caissa_tournament::standings::RatingChange| c.score == 1.0;
    let expect = |c: &caissa_tournament::standings::RatingChange| {
        c.k * (if won(c) { 1.0 } else { 0.0 } - c.expected)
    };
    for c in [high, low] {
        assert_eq!(c.games, 1);
        assert!((c.change.unwrap() - expect(c)).abs() < 1e-9);
    }
}
