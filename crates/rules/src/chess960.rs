//! The 960 starting positions of Chess960 (Fischer random chess), numbered 0 to
//! 959 in the usual (Scharnagl) order, in which number 518 is the standard
//! starting position: the bishops on squares of opposite colours, the king
//! between the rooks, Black mirroring White.

use crate::fen;
use crate::{CastlingMode, Position};

/// How many starting positions there are.
pub const COUNT: u16 = 960;

/// Where the two knights go among the five squares left after the bishops and
/// the queen, for the ten values of that part of the number.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// White's back rank in starting position `n`, from the a-file to the h-file, as
/// FEN letters; `None` if `n` is not below [`COUNT`].
pub fn back_rank(n: u16) -> Option<[char; 8]> {
    if n >= COUNT {
        return None;
    }
    let mut rank = [' '; 8];
    let mut n = usize::from(n);
    // The light-squared bishop on b, d, f or h; the dark-squared one on a, c, e or g.
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    let empty = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|&f| rank[f] == ' ').collect() };
    rank[empty(&rank)[n % 6]] = 'Q';
    n /= 6;
    let free = empty(&rank);
    let (a, b) = KNIGHTS[n];
    rank[free[a]] = 'N';
    rank[free[b]] = 'N';
    // Rook, king, rook on what is left, in that order.
    for (file, piece) in empty(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[file] = piece;
    }
    Some(rank)
}

/// The FEN of starting position `n`, with Shredder-FEN castling rights (the
/// rooks' files); `None` if `n` is not below [`COUNT`].
pub fn start_fen(n: u16) -> Option<String> {
    let white: String = back_rank(n)?.iter().collect();
    let black = white.to_lowercase();
    let rooks: Vec<char> = white
        .char_indices()
        .filter(|&(_, piece)| piece == 'R')
        .map(|(file, _)| (b'a' + file as u8) as char)
        .collect();
    // Shredder-FEN lists the h-side rook first.
    let rights: String = [
        rooks[1].to_ascii_uppercase(),
        rooks[0].to_ascii_uppercase(),
        rooks[1],
        rooks[0],
    ]
    .iter()
    .collect();
    Some(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1"
    ))
}

/// Starting position `n` as a position with Chess960 castling; `None` if `n` is
/// not below [`COUNT`].
pub fn start_position(n: u16) -> Option<Position> {
    fen::parse_with_mode(&start_fen(n)?, CastlingMode::Chess960).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn number_518_is_the_standard_start_and_0_and_959_are_the_ends() {
        let rank = |n| back_rank(n).unwrap().iter().collect::<String>();
        assert_eq!(rank(518), "RNBQKBNR");
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(959), "RKRNNQBB");
        assert_eq!(back_rank(960), None);
    }

    #[test]
    fn all_960_positions_are_different_and_follow_the_rules_of_the_setup() {
        let mut seen = HashSet::new();
        for n in 0..COUNT {
            let rank = back_rank(n).unwrap();
            assert!(seen.insert(rank), "{n} repeats a position");
            let at = |piece: char| -> Vec<usize> { (0..8).filter(|&f| rank[f] == piece).collect() };
            let (bishops, rooks, king) = (at('B'), at('R'), at('K')[0]);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            assert!(
                rooks[0] < king && king < rooks[1],
                "{n}: king not between the rooks"
            );
            assert_eq!((at('Q').len(), at('N').len()), (1, 2));
            // Sixteen pawn moves, each knight to the third rank beside its file,
            // and castling where the king and rook only swap squares (king on f
            // and rook on g, or king on d and rook on c); nothing else moves.
            let knight_moves: usize = at('N')
                .iter()
                .map(|&f| if f == 0 || f == 7 { 1 } else { 2 })
                .sum();
            let castles =
                usize::from(king == 5 && rooks[1] == 6) + usize::from(king == 3 && rooks[0] == 2);
            let position = start_position(n).unwrap();
            let moves = position.legal_moves().len();
            assert_eq!(moves, 16 + knight_moves + castles, "{n}");
        }
    }
}
