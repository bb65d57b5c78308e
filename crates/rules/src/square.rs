//! Squares, files and ranks.

use core::fmt;

/// A file, `a` (0) to `h` (7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank, `1` (0) to `8` (7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 64 squares, numbered a1 = 0, b1 = 1, ..., h8 = 63.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl File {
    /// The file with index `i` (`0..8`), or `None`.
    pub const fn new(i: u32) -> Option<File> {
        if i < 8 {
            Some(File(i as u8))
        } else {
            None
        }
    }
    /// The file named by a letter `a`–`h`.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }
    /// 0 for the a-file.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The file's letter.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    /// The upper-case letter used by Shredder-FEN for White's castling rights.
    pub const fn upper_char(self) -> char {
        (b'A' + self.0) as char
    }
}

impl Rank {
    /// The rank with index `i` (`0..8`), or `None`.
    pub const fn new(i: u32) -> Option<Rank> {
        if i < 8 {
            Some(Rank(i as u8))
        } else {
            None
        }
    }
    /// The rank named by a digit `1`–`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }
    /// 0 for the first rank.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The rank's digit.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }
}

macro_rules! squares {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square { $(
            #[allow(missing_docs)]
            pub const $name: Square = Square($i);
        )* }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with index `i` (`0..64`), or `None`.
    pub const fn new(i: u32) -> Option<Square> {
        if i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with index `i`; `i` must be below 64.
    #[inline(always)]
    pub(crate) const fn new_unchecked(i: u32) -> Square {
        debug_assert!(i < 64);
        Square(i as u8)
    }

    /// The square on `file` and `rank`.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// Parses a square name such as `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        chars
            .next()
            .is_none()
            .then(|| Square::from_coords(file, rank))
    }

    /// 0 for a1, 63 for h8.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The square's rank.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The same square seen from Black's side (a1 ↔ a8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away, if it exists (no wrap-around check on files).
    #[inline(always)]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if 0 <= i && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Whether the square is light (h1 is light: seed L1.2).
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
