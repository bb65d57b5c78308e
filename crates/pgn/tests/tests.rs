//! Integration tests of the PGN crate, one module per topic.

mod corpus;
mod differential;
mod errors;
mod fuzz;
mod grammar;
mod roundtrip;
mod streaming;
mod support;

#[test]
fn corpus_games_replay_cleanly() {
    let text = corpus::pgn(1, 50);
    let mut reader = caissa_pgn::Reader::from_bytes(text.as_bytes());
    let mut n = 0;
    while let Some(game) = reader.read_game(&mut caissa_pgn::Replayer::new()).unwrap() {
        assert!(game.error.is_none(), "{:?}", game.error);
        assert!(game.plies >= 1);
        n += 1;
    }
    assert_eq!(n, 50);
}
