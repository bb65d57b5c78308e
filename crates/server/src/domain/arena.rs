//! An arena as the server runs it, on the same record as a Swiss: each wave of
//! pairings is stored as a round (its boards, when it started), and each player's
//! scoring sheet (streaks, berserk bonus, lichess's rules from the tournament
//! crate) is kept with it and updated as games end, in the order they end. A
//! player who withdraws is paused and may come back until the end.

use caissa_tournament::arena::{self, ArenaGame, ArenaResult, ArenaRules, ArenaSheet, Waiting};
use caissa_tournament::{Colour, GameResult, PlayerId};
use serde::{Deserialize, Serialize};

use super::tournament::{Board, Entrant, Record, Round, Status, System};

/// The least time between two waves of pairings, ms: players who finish
/// within it are paired together rather than one by one.
pub const PAIRING_INTERVAL_MS: u64 = 1_000;

/// An arena's play: when it ends and every player's sheet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArenaPlay {
    /// When it ends, ms: no pairing after, games still being played do not count.
    pub ends_at: u64,
    /// The sheets, by starting rank (the sheet of rank `r` at `r - 1`).
    pub sheets: Vec<ArenaSheet>,
    /// When the last wave was paired, ms.
    #[serde(default)]
    pub paired_at: u64,
}

impl ArenaPlay {
    /// A sheet for a player who came with `rank` (the next one).
    pub fn add_player(&mut self, rank: PlayerId, streaks: bool) {
        let rules = ArenaRules {
            streaks,
            ..ArenaRules::default()
        };
        while self.sheets.len() < rank as usize {
            let next = self.sheets.len() as PlayerId + 1;
            self.sheets.push(ArenaSheet::new(next, rules));
        }
    }
}

/// One line of an arena's standings.
#[derive(Clone, Debug)]
pub struct ArenaStanding<'a> {
    /// The place, 1 first.
    pub rank: usize,
    /// Who.
    pub entrant: &'a Entrant,
    /// Their games and score.
    pub sheet: &'a ArenaSheet,
}

impl Record {
    /// Whether this is an arena.
    pub fn is_arena(&self) -> bool {
        self.spec.system == System::Arena
    }

    /// Starts an arena at `now`: starting ranks by rating, a sheet for each
    /// player, the end `minutes` from now.
    pub fn start_arena(&mut self, now: u64) {
        self.assign_ranks();
        let mut play = ArenaPlay {
            ends_at: now + u64::from(self.spec.minutes.unwrap_or(0)) * 60_000,
            sheets: Vec::new(),
            paired_at: 0,
        };
        play.add_player(self.entrants.len() as PlayerId, self.spec.streakable);
        self.arena = Some(play);
        self.status = Status::Started;
    }

    /// When the arena ends, ms.
    pub fn arena_ends_at(&self) -> Option<u64> {
        self.arena.as_ref().map(|a| a.ends_at)
    }

    /// The players ready for a game: entered, not paused, not playing.
    pub fn arena_waiting(&self) -> Vec<Waiting> {
        let Some(play) = &self.arena else {
            return Vec::new();
        };
        let playing: std::collections::HashSet<PlayerId> = self
            .pending_boards()
            .flat_map(|b| [b.white, b.black])
            .collect();
        self.entrants
            .iter()
            .filter(|e| !e.withdrawn)
            .filter_map(|e| {
                let rank = e.rank?;
                let sheet = play.sheets.get(rank as usize - 1)?;
                (!playing.contains(&rank)).then(|| sheet.waiting(rating16(e.rating)))
            })
            .collect()
    }

    /// Pairs the players waiting into a new wave, each board with its game's
    /// id; returns whether any board was made (none after the end, or with fewer
    /// than two waiting).
    pub fn pair_arena(&mut self, mut game_id: impl FnMut() -> String, now: u64) -> bool {
        if self.status != Status::Started || self.arena_ends_at().is_none_or(|end| now >= end) {
            return false;
        }
        let waiting = self.arena_waiting();
        if waiting.len() < 2 {
            return false;
        }
        let boards: Vec<Board> = arena::pair(&waiting)
            .into_iter()
            .map(|b| Board {
                white: b.white,
                black: b.black,
                game_id: game_id(),
                result: None,
            })
            .collect();
        if boards.is_empty() {
            return false;
        }
        self.rounds.push(Round {
            boards,
            bye: None,
            started_at: now,
        });
        if let Some(play) = &mut self.arena {
            play.paired_at = now;
        }
        true
    }

    /// When the next wave may be paired, if anyone waits for one.
    pub fn next_arena_pairing(&self) -> Option<u64> {
        let play = self.arena.as_ref()?;
        (self.status == Status::Started && self.arena_waiting().len() >= 2)
            .then(|| play.paired_at + PAIRING_INTERVAL_MS)
    }

    /// Records an arena game's result on both sheets: `plies` played and who went
    /// berserk (White, Black) decide streaks and bonuses. A forfeit (a player who
    /// never moved) scores for nobody and pauses the absent player, as lichess
    /// withdraws a player who does not start their game. Returns whether
    /// anything changed.
    pub fn record_arena(
        &mut self,
        game_id: &str,
        result: (GameResult, GameResult),
        plies: usize,
        berserk: [bool; 2],
    ) -> bool {
        let Some((round, index)) = self.board_of(game_id) else {
            return false;
        };
        let board = &mut self.rounds[round - 1].boards[index];
        if board.result.is_some() {
            return false;
        }
        board.result = Some(result);
        let (white, black) = (board.white, board.black);
        let arena_result = |r: GameResult| match r {
            GameResult::Win => Some(ArenaResult::Win),
            GameResult::Draw => Some(ArenaResult::Draw),
            GameResult::Loss => Some(ArenaResult::Loss),
            _ => None,
        };
        let (Some(white_result), Some(black_result)) =
            (arena_result(result.0), arena_result(result.1))
        else {
            for (rank, r) in [(white, result.0), (black, result.1)] {
                if r == GameResult::ForfeitLoss {
                    if let Some(e) = self.entrants.iter_mut().find(|e| e.rank == Some(rank)) {
                        e.withdrawn = true;
                    }
                }
            }
            return true;
        };
        let rating = |rank: PlayerId| {
            rating16(
                self.entrants
                    .iter()
                    .find(|e| e.rank == Some(rank))
                    .map_or(0, |e| e.rating),
            )
        };
        let plies = u16::try_from(plies).unwrap_or(u16::MAX);
        let games = [
            (white, black, Colour::White, white_result, berserk[0]),
            (black, white, Colour::Black, black_result, berserk[1]),
        ];
        let ratings = [rating(black), rating(white)];
        let Some(play) = &mut self.arena else {
            return true;
        };
        for ((player, opponent, colour, result, berserk), opponent_rating) in
            games.into_iter().zip(ratings)
        {
            if let Some(sheet) = play.sheets.get_mut(player as usize - 1) {
                sheet.record(ArenaGame {
                    opponent,
                    opponent_rating,
                    colour,
                    result,
                    plies,
                    berserk,
                });
            }
        }
        true
    }

    /// The arena's standings: by score, then performance, then starting rank.
    pub fn arena_standings(&self) -> Vec<ArenaStanding<'_>> {
        let Some(play) = &self.arena else {
            // Not started: the entrants by rating, with empty sheets.
            return Vec::new();
        };
        arena::standings(&play.sheets)
            .into_iter()
            .filter_map(|sheet| {
                let entrant = self.by_rank(sheet.player())?;
                Some((entrant, sheet))
            })
            .enumerate()
            .map(|(i, (entrant, sheet))| ArenaStanding {
                rank: i + 1,
                entrant,
                sheet,
            })
            .collect()
    }
}

fn rating16(rating: u32) -> u16 {
    rating.min(u32::from(u16::MAX)) as u16
}

#[cfg(test)]
#[path = "arena_tests.rs"]
mod tests;
