//! Writes the deterministic synthetic corpus used by the tests and benchmarks:
//! `cargo run --release -p caissa-pgn --example corpus -- <games> [seed] > games.pgn`.

#[path = "../tests/corpus/mod.rs"]
#[allow(dead_code)]
mod corpus;

use std::io::Write;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for i in 0..count {
        let game =
            caissa_pgn::write_game(&corpus::game(seed, i)).expect("generated games are legal");
        out.write_all(game.as_bytes())?;
    }
    out.flush()
}
