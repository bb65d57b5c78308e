//! A deterministic corpus of synthetic games for tests and benchmarks: random legal
//! games of 40–160 plies with clock comments, NAGs, text comments and short
//! variations, written in export format by the crate's own writer.

use std::time::Duration;

use caissa_pgn::{clock, write_game, GameTree, Node, Variation};
use caissa_rules::san::San;
use caissa_rules::Position;

/// A small xorshift generator: fixed seeds, same corpus on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn random_line(rng: &mut Rng, mut pos: Position, plies: u64) -> (Vec<Node>, Position) {
    let mut nodes = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        nodes.push(Node::new(San::from_move(&pos, m)));
        pos.play_unchecked(m);
    }
    (nodes, pos)
}

/// One game with index `i` (deterministic).
pub fn game(seed: u64, i: u64) -> GameTree {
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i + 1));
    let plies = 40 + rng.below(121);
    let start = Position::new();
    let (mut moves, end) = random_line(&mut rng, start, plies);
    // Clocks, annotations, comments and variations.
    let mut pos = start;
    let mut clocks = [Duration::from_secs(300), Duration::from_secs(300)];
    for (ply, node) in moves.iter_mut().enumerate() {
        let side = ply % 2;
        let spent = Duration::from_millis(rng.below(9000));
        clocks[side] = clocks[side].saturating_sub(spent) + Duration::from_secs(2);
        node.comments.push(clock::clk_command(clocks[side]));
        if rng.below(12) == 0 {
            node.nags.push(1 + rng.below(6) as u8);
        }
        if rng.below(40) == 0 {
            node.comments
                .push("a quiet move, keeping options open".to_string());
        }
        if rng.below(25) == 0 {
            let len = 1 + rng.below(3);
            let (alt, _) = random_line(&mut rng, pos, len);
            if !alt.is_empty() && alt[0].san != node.san {
                node.variations.push(Variation {
                    comments: Vec::new(),
                    moves: alt,
                });
            }
        }
        let m = node.san.to_move(&pos).expect("generated moves are legal");
        pos.play_unchecked(m);
    }
    let result = if end.is_checkmate() {
        if end.turn().index() == 0 {
            "0-1"
        } else {
            "1-0"
        }
    } else {
        ["1-0", "0-1", "1/2-1/2", "*"][rng.below(4) as usize]
    };
    let mut tree = GameTree {
        tags: Vec::new(),
        mainline: Variation {
            comments: Vec::new(),
            moves,
        },
        result: result.to_string(),
    };
    for (name, value) in [
        ("Event", "Caissa corpus".to_string()),
        ("Site", "https://caissa.invalid".to_string()),
        ("Date", format!("2026.{:02}.{:02}", 1 + i % 12, 1 + i % 28)),
        ("Round", (1 + i % 9).to_string()),
        ("White", format!("Player {}", rng.below(1000))),
        ("Black", format!("Player \"{}\"", rng.below(1000))),
        ("Result", result.to_string()),
        ("WhiteElo", (1200 + rng.below(1600)).to_string()),
        ("BlackElo", (1200 + rng.below(1600)).to_string()),
        ("TimeControl", "300+2".to_string()),
    ] {
        tree.tags.push((name.to_string(), value));
    }
    tree
}

/// `count` games as one PGN text.
pub fn pgn(seed: u64, count: u64) -> String {
    let mut out = String::new();
    for i in 0..count {
        out.push_str(&write_game(&game(seed, i)).expect("generated games are legal"));
    }
    out
}
