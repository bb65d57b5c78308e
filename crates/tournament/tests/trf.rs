//! TRF16 reading and writing: columns as the format defines them, errors that name
//! the line and column, and files that survive a round trip.

use caissa_tournament::trf::{self, TrfError};
use caissa_tournament::{Bye, Colour, Entry, GameResult, Points};

const THREE_PLAYERS: &str = "\
012 Club Championship
001    1 m GM Alpha, Anna                       2500 ENG     1000001 1990/01/01  1.5    1     2 w 1     3 b =
001    2 w    Beta, Bob                         2300 FRA     1000002             1.0    2     1 b 0  0000 - U
001    3      Gamma, Carl                                                        1.0    3  0000 - H     1 w =
XXR 5
XXC white1
";

#[test]
fn trf16_player_lines_are_read_by_column() {
    let t = trf::parse(THREE_PLAYERS).unwrap();
    assert_eq!(t.name, "Club Championship");
    assert_eq!(t.total_rounds, Some(5));
    assert_eq!(t.initial_colour, Some(Colour::White));
    let anna = t.player(1).unwrap();
    assert_eq!(anna.name, "Alpha, Anna");
    assert_eq!(anna.title, "GM");
    assert_eq!(anna.rating, 2500);
    assert_eq!(anna.federation, "ENG");
    assert_eq!(anna.fide_id, Some(1000001));
    assert_eq!(anna.points, Points(15));
    assert_eq!(
        anna.rounds,
        vec![
            Some(Entry::Game {
                opponent: 2,
                colour: Colour::White,
                result: GameResult::Win
            }),
            Some(Entry::Game {
                opponent: 3,
                colour: Colour::Black,
                result: GameResult::Draw
            }),
        ]
    );
    let bob = t.player(2).unwrap();
    assert_eq!(
        bob.rounds[1],
        Some(Entry::Bye {
            bye: Bye::PairingAllocated
        })
    );
    let carl = t.player(3).unwrap();
    assert_eq!(carl.rating, 0);
    assert_eq!(carl.rounds[0], Some(Entry::Bye { bye: Bye::Half }));
    for p in &t.players {
        assert_eq!(t.score_after(p, 2), p.points, "player {}", p.id);
    }
}

#[test]
fn trf16_written_back_reads_the_same() {
    let t = trf::parse(THREE_PLAYERS).unwrap();
    let again = trf::parse(&trf::write(&t)).unwrap();
    assert_eq!(t, again);
}

fn error_of(text: &str) -> TrfError {
    trf::parse(text).unwrap_err()
}

#[test]
fn trf16_errors_name_line_and_column() {
    let bad_rank = THREE_PLAYERS.replace("001    2 w", "001    x w");
    let e = error_of(&bad_rank);
    assert_eq!((e.line, e.column), (3, 8), "{e}");
    let bad_result = THREE_PLAYERS.replace("2 w 1", "2 w 7");
    let e = error_of(&bad_result);
    assert_eq!((e.line, e.column), (2, 99), "{e}");
    assert!(e.to_string().starts_with("2:99: "), "{e}");
    let bad_colour = THREE_PLAYERS.replace("3 b =", "3 x =");
    let e = error_of(&bad_colour);
    assert_eq!((e.line, e.column), (2, 107), "{e}");
    let bad_rounds = THREE_PLAYERS.replace("XXR 5", "XXR five");
    assert_eq!(error_of(&bad_rounds).line, 5);
}

#[test]
fn trf16_opponents_must_agree() {
    // Bob says he won, Anna says she won.
    let e = error_of(&THREE_PLAYERS.replace("1 b 0", "1 b 1"));
    assert_eq!(e.line, 2, "{e}");
    assert!(e.reason.contains("does not match"), "{e}");
    // Anna names a player who does not exist.
    let e = error_of(&THREE_PLAYERS.replace("3 b =", "9 b ="));
    assert!(e.reason.contains("opponent 9"), "{e}");
}
