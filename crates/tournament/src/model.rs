//! A tournament as the organiser's file holds it: the players by starting rank and,
//! for each round, what each of them did. Everything else (scores, colour
//! histories, who met whom) is derived from this.

use crate::points::{PointSystem, Points};
use serde::{Deserialize, Serialize};

/// A starting rank (TRF's "starting rank number"), from 1.
pub type PlayerId = u32;

/// A piece colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The result of a game, from the player's side, as TRF16 codes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum GameResult {
    /// `1`: won over the board.
    Win,
    /// `=`: drawn.
    Draw,
    /// `0`: lost over the board.
    Loss,
    /// `+`: won by forfeit (the game was not played).
    ForfeitWin,
    /// `-`: lost by forfeit.
    ForfeitLoss,
    /// `W`: won, but the game is not rated (for example, fewer than two moves).
    UnratedWin,
    /// `D`: drawn, not rated.
    UnratedDraw,
    /// `L`: lost, not rated.
    UnratedLoss,
    /// Blank: paired, result not known yet.
    Pending,
}

impl GameResult {
    /// Whether the game was played over the board (forfeits were not; a pending
    /// game is being played).
    pub fn is_played(self) -> bool {
        !matches!(self, GameResult::ForfeitWin | GameResult::ForfeitLoss)
    }

    /// The result as seen by the opponent.
    pub fn reversed(self) -> GameResult {
        use GameResult::*;
        match self {
            Win => Loss,
            Loss => Win,
            Draw => Draw,
            ForfeitWin => ForfeitLoss,
            ForfeitLoss => ForfeitWin,
            UnratedWin => UnratedLoss,
            UnratedLoss => UnratedWin,
            UnratedDraw => UnratedDraw,
            Pending => Pending,
        }
    }

    /// The TRF16 code.
    pub fn code(self) -> char {
        use GameResult::*;
        match self {
            Win => '1',
            Draw => '=',
            Loss => '0',
            ForfeitWin => '+',
            ForfeitLoss => '-',
            UnratedWin => 'W',
            UnratedDraw => 'D',
            UnratedLoss => 'L',
            Pending => ' ',
        }
    }
}

/// A round without an opponent.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Bye {
    /// `U` (or `+` with no opponent): the pairing-allocated bye of an odd round.
    PairingAllocated,
    /// `F`: a full-point bye granted by the organiser.
    Full,
    /// `H`: a half-point bye the player asked for.
    Half,
    /// `Z`: a zero-point bye.
    Zero,
    /// `-` or blank with no opponent: absent, not paired.
    Absent,
}

impl Bye {
    /// The TRF16 code.
    pub fn code(self) -> char {
        match self {
            Bye::PairingAllocated => 'U',
            Bye::Full => 'F',
            Bye::Half => 'H',
            Bye::Zero => 'Z',
            Bye::Absent => '-',
        }
    }
}

/// What a player did in one round.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Entry {
    /// Paired with an opponent.
    Game {
        /// The opponent's starting rank.
        opponent: PlayerId,
        /// The colour this player had.
        colour: Colour,
        /// The result, from this player's side.
        result: GameResult,
    },
    /// No opponent this round.
    Bye {
        /// Which kind.
        bye: Bye,
    },
}

impl Entry {
    /// The opponent, if the round was a pairing.
    pub fn opponent(&self) -> Option<PlayerId> {
        match self {
            Entry::Game { opponent, .. } => Some(*opponent),
            Entry::Bye { .. } => None,
        }
    }

    /// The points this entry is worth under `system`.
    pub fn points(&self, system: &PointSystem) -> Points {
        use GameResult::*;
        match self {
            Entry::Game { result, .. } => match result {
                Win | ForfeitWin | UnratedWin => system.win,
                Draw | UnratedDraw => system.draw,
                Loss | UnratedLoss => system.loss,
                ForfeitLoss => system.forfeit_loss,
                Pending => Points::ZERO,
            },
            Entry::Bye { bye } => match bye {
                Bye::PairingAllocated => system.pairing_bye,
                Bye::Full => system.win,
                Bye::Half => system.draw,
                Bye::Zero | Bye::Absent => system.zero_bye,
            },
        }
    }

    /// The game played over the board, if there was one: opponent, colour, result.
    pub fn played(&self) -> Option<(PlayerId, Colour, GameResult)> {
        match *self {
            Entry::Game {
                opponent,
                colour,
                result,
            } if result.is_played() => Some((opponent, colour, result)),
            _ => None,
        }
    }
}

/// One player of the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Player {
    /// Starting rank (the pairing number).
    pub id: PlayerId,
    /// `m` or `w`, blank if not given.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sex: String,
    /// FIDE title (GM, IM, WGM ...), blank if none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Name, "Surname, Given".
    pub name: String,
    /// FIDE rating, 0 if unrated.
    #[serde(default)]
    pub rating: u16,
    /// Federation (three letters), blank if not given.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub federation: String,
    /// FIDE ID, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fide_id: Option<u64>,
    /// Birth date as written (YYYY/MM/DD or YYYY), blank if not given.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub birth: String,
    /// The points column of the file (what the organiser's program wrote).
    #[serde(default)]
    pub points: Points,
    /// The rank column of the file, if filled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// One entry per round, from round 1; `None` where the file leaves the round
    /// blank (a late entry's rounds before joining, or a round not paired yet).
    pub rounds: Vec<Option<Entry>>,
}

impl Player {
    /// The entry of `round` (1-based), if any.
    pub fn entry(&self, round: usize) -> Option<&Entry> {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i))
            .and_then(Option::as_ref)
    }
}

/// An acceleration (TRF's `XXA` line): virtual points added to a player's score for
/// pairing only, per round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Acceleration {
    /// The player.
    pub player: PlayerId,
    /// Points added in round 1, 2, ...; rounds past the end add nothing.
    pub points: Vec<Points>,
}

/// The colour the first player by starting rank gets in round 1 (`XXC white1` or
/// `black1`).
pub type InitialColour = Colour;

/// A header line of the file that this crate does not interpret, kept so a file
/// written back loses nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The three-character code (`012`, `042`, `XXS` ...).
    pub code: String,
    /// The rest of the line after the code and one blank.
    pub value: String,
}

/// A whole tournament.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tournament {
    /// The tournament's name (`012`), blank if not given.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Total number of rounds (`XXR`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_rounds: Option<u32>,
    /// Colour of the top seed in round 1 (`XXC`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_colour: Option<InitialColour>,
    /// Point values (`BBW` ... lines).
    #[serde(default)]
    pub point_system: PointSystem,
    /// Accelerations (`XXA`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accelerations: Vec<Acceleration>,
    /// The Baku acceleration (C.04.5) is asked for (`192 FIDE_DUTCH_BAKU`) and
    /// applies when no explicit accelerations are given.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub baku: bool,
    /// Other header lines, in file order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<Header>,
    /// The players, by starting rank.
    pub players: Vec<Player>,
}

impl Tournament {
    /// The player with starting rank `id`.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// The number of rounds any player has an entry for (paired so far).
    pub fn rounds_played(&self) -> usize {
        self.players
            .iter()
            .map(|p| {
                p.rounds
                    .iter()
                    .rposition(Option::is_some)
                    .map_or(0, |i| i + 1)
            })
            .max()
            .unwrap_or(0)
    }

    /// A player's points from the results of the first `rounds` rounds.
    pub fn score_after(&self, player: &Player, rounds: usize) -> Points {
        player
            .rounds
            .iter()
            .take(rounds)
            .flatten()
            .map(|e| e.points(&self.point_system))
            .sum()
    }

    /// The acceleration of `player` in `round` (1-based).
    pub fn acceleration(&self, player: PlayerId, round: usize) -> Points {
        if self.accelerations.is_empty() && self.baku {
            return self.baku_acceleration(player, round);
        }
        self.accelerations
            .iter()
            .filter(|a| a.player == player)
            .filter_map(|a| a.points.get(round.wrapping_sub(1)).copied())
            .sum()
    }

    /// The Baku acceleration: the first half of the starting list (rounded up)
    /// gets a win's worth in the first half of the accelerated rounds and a draw's
    /// worth in the rest; the accelerated rounds are the first half of the
    /// tournament (rounded up).
    fn baku_acceleration(&self, player: PlayerId, round: usize) -> Points {
        let Some(total) = self.total_rounds else {
            return Points::ZERO;
        };
        let group = self.players.len().div_ceil(2);
        let accelerated = (total as usize).div_ceil(2);
        let full = accelerated.div_ceil(2);
        if round == 0 || round > accelerated || player as usize > group {
            Points::ZERO
        } else if round <= full {
            self.point_system.win
        } else {
            self.point_system.draw
        }
    }

    /// The tournament as it stood when `round` (1-based) was about to be paired:
    /// earlier rounds kept, and of `round` only the byes and absences announced
    /// before the pairing. The initial colour is made explicit from the rounds
    /// played, since round 1 alone would no longer show it.
    pub fn before_round(&self, round: usize) -> Tournament {
        let mut t = self.clone();
        if t.initial_colour.is_none() {
            t.initial_colour = Some(self.inferred_initial_colour());
        }
        let recorded = round <= self.rounds_played();
        for player in &mut t.players {
            let announced = match player.entry(round) {
                Some(e @ Entry::Bye { bye }) if *bye != Bye::PairingAllocated => Some(*e),
                // A blank cell in a round that was paired: the player was absent.
                None if recorded => Some(Entry::Bye { bye: Bye::Absent }),
                _ => None,
            };
            player.rounds.truncate(round.saturating_sub(1));
            if announced.is_some() {
                player.rounds.resize(round - 1, None);
                player.rounds.push(announced);
            }
            while player.rounds.last() == Some(&None) {
                player.rounds.pop();
            }
        }
        let points: Vec<Points> = t
            .players
            .iter()
            .map(|p| t.score_after(p, round.saturating_sub(1)))
            .collect();
        for (player, points) in t.players.iter_mut().zip(points) {
            player.points = points;
        }
        t
    }

    /// The colour of the top seed in round 1 as the rounds played show it: the
    /// highest-ranked player listed with a colour in the first round that has
    /// colours, the colour reversed once for each player passed over.
    pub fn inferred_initial_colour(&self) -> Colour {
        if let Some(colour) = self.initial_colour {
            return colour;
        }
        let rounds = self
            .players
            .iter()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0);
        for round in 1..=rounds {
            if !self
                .players
                .iter()
                .any(|p| matches!(p.entry(round), Some(Entry::Game { .. })))
            {
                continue;
            }
            let mut flip = false;
            for player in &self.players {
                // Only players who took part in a pairing so far count.
                let paired = |r: usize| {
                    matches!(
                        player.entry(r),
                        Some(
                            Entry::Game { .. }
                                | Entry::Bye {
                                    bye: Bye::PairingAllocated
                                }
                        )
                    )
                };
                if !(1..=round).any(paired) {
                    continue;
                }
                if let Some(Entry::Game { colour, .. }) = player.entry(round) {
                    return if flip { colour.opposite() } else { *colour };
                }
                flip = !flip;
            }
        }
        Colour::White
    }

    /// The pairing the file records for `round`.
    pub fn pairing_of(&self, round: usize) -> crate::pairing::Pairing {
        let mut pairing = crate::pairing::Pairing::default();
        for player in &self.players {
            match player.entry(round) {
                Some(Entry::Game {
                    opponent,
                    colour: Colour::White,
                    ..
                }) => pairing.boards.push(crate::pairing::Board {
                    white: player.id,
                    black: *opponent,
                }),
                Some(Entry::Bye {
                    bye: Bye::PairingAllocated,
                }) => pairing.bye = Some(player.id),
                _ => {}
            }
        }
        pairing
    }

    /// The same tournament cut after `rounds` rounds (entries of later rounds
    /// dropped), with the points column recomputed.
    pub fn truncated(&self, rounds: usize) -> Tournament {
        let mut cut = self.clone();
        for player in &mut cut.players {
            player.rounds.truncate(rounds);
        }
        let points: Vec<Points> = cut
            .players
            .iter()
            .map(|p| cut.score_after(p, rounds))
            .collect();
        for (player, points) in cut.players.iter_mut().zip(points) {
            player.points = points;
        }
        cut
    }
}
