//! What everyone may see of a live game at one moment ([`View`]), and the move
//! list every view of a game shares ([`MoveLog`]): a new move is appended to it
//! once, in O(1), and each view is the log's first `len` moves, so publishing a
//! change never rebuilds the list (nor replays the game to write it).

use std::sync::{Arc, OnceLock, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use caissa_arbiter::{ArbiterNote, ClaimKind, Finish, Game, GameSetup, Status};
use caissa_openings::{Opening, Openings};
use caissa_rules::{Color, Position};

/// Milliseconds since the Unix epoch: the server's clock, the authority.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The account the computer plays as.
pub const COMPUTER_NAME: &str = "Caissa-AI";

/// A player of a live game.
#[derive(Clone, Debug)]
pub struct Player {
    /// User id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Rating at the game's speed when the game began.
    pub rating: u32,
    /// Whether that rating is still provisional.
    pub provisional: bool,
    /// The title as lichess writes it (`BOT`), if any.
    pub title: Option<String>,
}

impl Player {
    /// A player with the default (provisional) rating and no title.
    pub fn new(id: i64, name: String) -> Player {
        Player {
            id,
            name,
            rating: 1500,
            provisional: true,
            title: None,
        }
    }
}

/// Where a game comes from, as lichess's `source` names it; a tournament's game
/// also names its tournament (round robins have the Swiss's shape).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum GameSource {
    /// A challenge between two players.
    #[default]
    Friend,
    /// A seek taken in the lobby.
    Lobby,
    /// A game against the computer at this level (1–8; 0 for games stored
    /// before the level was).
    Ai(u8),
    /// A game of the arena with this id.
    Arena(String),
    /// A game of the Swiss or round robin with this id.
    Swiss(String),
}

impl GameSource {
    /// Lichess's `source` key.
    pub fn key(&self) -> &'static str {
        match self {
            GameSource::Friend => "friend",
            GameSource::Lobby => "lobby",
            GameSource::Ai(_) => "ai",
            GameSource::Arena(_) => "arena",
            GameSource::Swiss(_) => "swiss",
        }
    }

    /// The tournament (arena, Swiss or round robin) the game belongs to.
    pub fn tournament(&self) -> Option<&str> {
        match self {
            GameSource::Arena(id) | GameSource::Swiss(id) => Some(id),
            _ => None,
        }
    }

    /// The text stored with the game: the key, and `:ID` for a tournament's,
    /// `:LEVEL` for the computer's.
    pub fn stored(&self) -> String {
        match self {
            GameSource::Arena(id) | GameSource::Swiss(id) => format!("{}:{id}", self.key()),
            GameSource::Ai(level) if *level > 0 => format!("ai:{level}"),
            other => other.key().to_string(),
        }
    }

    /// The computer's level, in a game against it.
    pub fn ai_level(&self) -> Option<u8> {
        match self {
            GameSource::Ai(level) if *level > 0 => Some(*level),
            _ => None,
        }
    }

    /// The source stored as `text` (anything unknown reads as a challenge, as
    /// games stored before sources were).
    pub fn from_stored(text: &str) -> GameSource {
        match text.split_once(':') {
            Some(("arena", id)) => GameSource::Arena(id.to_string()),
            Some(("swiss", id)) => GameSource::Swiss(id.to_string()),
            Some(("ai", level)) => GameSource::Ai(level.parse().unwrap_or(0)),
            _ => match text {
                "lobby" => GameSource::Lobby,
                "ai" => GameSource::Ai(0),
                _ => GameSource::Friend,
            },
        }
    }
}

/// What does not change while a game is played.
#[derive(Debug)]
pub struct GameInfo {
    /// The game id.
    pub id: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The setup.
    pub setup: GameSetup,
    /// When the game was created, ms.
    pub created_at: u64,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// Where the game comes from.
    pub source: GameSource,
}

impl GameInfo {
    /// The colour `user` plays, if any.
    pub fn color_of(&self, user: i64) -> Option<Color> {
        if self.white.id == user {
            Some(Color::White)
        } else if self.black.id == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The computer's level when `color` is the computer.
    pub fn ai_level(&self, color: Color) -> Option<u8> {
        self.source
            .ai_level()
            .filter(|_| self.player(color).name == COMPUTER_NAME)
    }

    /// The player of `color`.
    pub fn player(&self, color: Color) -> &Player {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// One move as played, in both notations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// UCI (`e2e4`, `e1g1`; Chess960 castling as king takes rook).
    pub uci: String,
    /// SAN (`e4`, `O-O`, `Qxf7#`).
    pub san: String,
    /// Time left on the mover's clock after the move, ms (`None` without a
    /// clock).
    pub clock_ms: Option<u64>,
}

/// The moves of a game, shared by all its views; appended to by the game's task
/// only. A takeback starts a new log (views of the old one keep their moves).
#[derive(Debug, Default)]
pub struct MoveLog(RwLock<Vec<PlayedMove>>);

impl MoveLog {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, Vec<PlayedMove>> {
        self.0.read().unwrap_or_else(|e| e.into_inner())
    }

    fn len(&self) -> usize {
        self.read().len()
    }
}

/// The first `len` moves of a log: the moves of one view.
#[derive(Clone, Debug, Default)]
pub struct Moves {
    log: Arc<MoveLog>,
    len: usize,
}

impl Moves {
    /// Moves played.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no move was played.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The last move.
    pub fn last(&self) -> Option<PlayedMove> {
        let len = self.len;
        len.checked_sub(1).map(|i| self.log.read()[i].clone())
    }

    /// The time left on the mover's clock after each move, in centiseconds
    /// (lichess's `clocks`), as far as moves were timed.
    pub fn clocks_centis(&self) -> Vec<u64> {
        let log = self.log.read();
        log[..self.len]
            .iter()
            .map_while(|m| m.clock_ms)
            .map(|ms| ms / 10)
            .collect()
    }

    /// The moves in UCI, separated by spaces (the `moves` of a `gameState`).
    pub fn uci_text(&self) -> String {
        let log = self.log.read();
        let mut text = String::with_capacity(self.len * 5);
        for (i, m) in log[..self.len].iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&m.uci);
        }
        text
    }

    /// The moves in UCI.
    pub fn uci(&self) -> Vec<String> {
        self.log.read()[..self.len]
            .iter()
            .map(|m| m.uci.clone())
            .collect()
    }

    /// The moves in SAN.
    pub fn san(&self) -> Vec<String> {
        self.log.read()[..self.len]
            .iter()
            .map(|m| m.san.clone())
            .collect()
    }
}

/// Keeps a game's move log level with its arbiter game: called after every
/// change, it appends the moves just played (one, almost always), and starts a
/// new log when moves were taken back or the game's line was replaced.
#[derive(Debug, Default)]
pub struct MoveRecorder {
    log: Arc<MoveLog>,
}

impl MoveRecorder {
    /// The log's moves now, after bringing it level with `game`.
    pub fn sync(&mut self, game: &Game) -> Moves {
        let moves = game.line().moves();
        let positions = game.line().positions();
        let sans = game.sans();
        let have = self.log.len();
        let consistent = have <= moves.len()
            && (have == 0 || {
                let last = &self.log.read()[have - 1];
                last.uci == positions[have - 1].to_uci(moves[have - 1])
            });
        if !consistent {
            self.log = Arc::default();
        }
        let from = self.log.len();
        if from < moves.len() {
            let mut log = self.log.0.write().unwrap_or_else(|e| e.into_inner());
            for i in from..moves.len() {
                log.push(PlayedMove {
                    uci: positions[i].to_uci(moves[i]),
                    san: sans.get(i).cloned().unwrap_or_default(),
                    clock_ms: game.move_clocks().get(i).copied().flatten(),
                });
            }
        }
        Moves {
            log: self.log.clone(),
            len: moves.len(),
        }
    }
}

/// What everyone may see of a game at one moment.
#[derive(Debug)]
pub struct View {
    /// What does not change.
    pub info: Arc<GameInfo>,
    /// The moves so far.
    pub moves: Moves,
    /// The move that made this view, if the change was a move.
    pub last_move: Option<PlayedMove>,
    /// Clocks at `at` (White, Black), ms; `None` without a clock.
    pub clocks: Option<[u64; 2]>,
    /// Moves each side has left to make before its next time control (White,
    /// Black); `None` in a sudden-death period.
    pub moves_to_control: [Option<u32>; 2],
    /// When this view was taken, ms.
    pub at: u64,
    /// The arbiter's status.
    pub status: Status,
    /// Result and reason when finished.
    pub finish: Option<Finish>,
    /// A pending draw offer.
    pub draw_offer: Option<Color>,
    /// The current position.
    pub position: Position,
    /// The current FEN.
    pub fen: String,
    /// A pending takeback proposal.
    pub takeback: Option<Color>,
    /// The draws the side to move may claim now (9.2, 9.3).
    pub claims: Vec<ClaimKind>,
    /// Time left for the current move where the mode limits each move, ms.
    pub move_time_left: Option<u64>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// Who went berserk (White, Black): an arena's game.
    pub berserk: [bool; 2],
    /// The PGN, once the game is over (ask the game's task while it is live).
    pub pgn: Option<String>,
    /// What the arbiters did, in order (Laws 12).
    pub arbiter_notes: Arc<Vec<ArbiterNote>>,
    /// What waits for the arbiter or the players outside the moves.
    pub pending: Pending,
    /// How each player's rating moved (White, Black), once a rated game's
    /// ratings are recorded: exports fill it in.
    pub rating_diffs: Option<[i32; 2]>,
    /// The `gameState` JSON, written once for every stream and socket that sends
    /// this view.
    pub state_json: OnceLock<String>,
    /// Which of the game's publications this is (counted from 1 by the node's
    /// task); a snapshot carries the last publication it includes, so a
    /// reader that starts from a snapshot knows which published views it
    /// already has.
    pub serial: u64,
}

impl View {
    /// The game's id.
    pub fn id(&self) -> &str {
        &self.info.id
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// Whether the side to move is in check.
    pub fn check(&self) -> bool {
        self.position.is_check()
    }

    /// A copy of this view with the PGN set (exports).
    pub fn with_pgn(&self, pgn: String) -> View {
        View {
            info: self.info.clone(),
            moves: self.moves.clone(),
            last_move: self.last_move.clone(),
            clocks: self.clocks,
            moves_to_control: self.moves_to_control,
            at: self.at,
            status: self.status,
            finish: self.finish,
            draw_offer: self.draw_offer,
            position: self.position,
            fen: self.fen.clone(),
            takeback: self.takeback,
            claims: self.claims.clone(),
            move_time_left: self.move_time_left,
            running: self.running,
            berserk: self.berserk,
            pgn: Some(pgn),
            arbiter_notes: self.arbiter_notes.clone(),
            pending: self.pending,
            state_json: OnceLock::new(),
            serial: self.serial,
            rating_diffs: self.rating_diffs,
        }
    }
}

/// What waits outside the moves: claims and requests for the arbiter to decide,
/// and an adjournment's state (its sealed move stays secret).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// A "no progress" claim (Guidelines III.5), by whom.
    pub no_progress_claim: Option<Color>,
    /// A request for a 5-second increment (Guidelines III.4), by whom.
    pub increment_request: Option<Color>,
    /// The arbiter adjourned the game: the player to move must seal.
    pub adjournment_called: bool,
    /// Who sealed the move of an adjourned game.
    pub sealed_by: Option<Color>,
    /// When the adjourned game resumes, if set (ms).
    pub resume_at: Option<u64>,
    /// A time to resume proposed by one player (ms).
    pub resumption_proposed: Option<(Color, u64)>,
    /// Warnings given to each player (White, Black).
    pub warnings: [u32; 2],
}

impl Pending {
    /// Whether something waits for an arbiter's decision.
    pub fn needs_arbiter(&self) -> bool {
        self.no_progress_claim.is_some() || self.increment_request.is_some()
    }
}

fn pending_of(game: &Game) -> Pending {
    Pending {
        no_progress_claim: game.no_progress_claim(),
        increment_request: game.increment_request(),
        adjournment_called: game.adjournment_called(),
        sealed_by: game.envelope().map(|e| e.sealer),
        resume_at: game.resume_at(),
        resumption_proposed: game.resumption_proposed(),
        warnings: [game.warnings(Color::White), game.warnings(Color::Black)],
    }
}

/// The arbiters' notes of a game (shared and empty for the games nobody
/// arbitrated, so most views cost nothing for them).
fn notes_of(game: &Game) -> Arc<Vec<ArbiterNote>> {
    static NONE: OnceLock<Arc<Vec<ArbiterNote>>> = OnceLock::new();
    if game.arbiter_note_count() == 0 {
        return NONE.get_or_init(|| Arc::new(Vec::new())).clone();
    }
    Arc::new(game.arbiter_notes())
}

/// What `game` looks like at `now`, with `moves` already level with it.
pub fn view_of(
    info: &Arc<GameInfo>,
    game: &Game,
    moves: Moves,
    last_move: Option<PlayedMove>,
    now: u64,
) -> View {
    let pgn = game.finish().map(|_| game.pgn_with(&pgn_tags(info, game)));
    let clock = game.clock();
    let clocks = (!game.setup().time_control.periods.is_empty()).then(|| {
        [
            clock.remaining(Color::White, now),
            clock.remaining(Color::Black, now),
        ]
    });
    let position = *game.position();
    let periods = &game.setup().time_control.periods;
    let moves_to_control = Color::ALL.map(|color| {
        let side = clock.side(color);
        let period = periods.get(side.period)?;
        period.moves?;
        let by_control: u32 = periods[..=side.period]
            .iter()
            .map(|p| p.moves.unwrap_or(0))
            .sum();
        Some(by_control.saturating_sub(side.moves))
    });
    View {
        info: info.clone(),
        moves,
        last_move,
        clocks,
        moves_to_control,
        at: now,
        status: game.status(),
        finish: game.finish(),
        draw_offer: game.draw_offer(),
        fen: position.fen(),
        position,
        takeback: game.takeback(),
        claims: claims_of(game),
        move_time_left: clock.move_time_left(now),
        running: clock.running().filter(|_| !clock.is_paused()),
        berserk: Color::ALL.map(|c| game.berserked(c)),
        pgn,
        arbiter_notes: notes_of(game),
        pending: pending_of(game),
        state_json: OnceLock::new(),
        serial: 0,
        rating_diffs: None,
    }
}

/// The tags a game's PGN gets from the server (`Site` is the export's: it is
/// where the game is seen from).
pub fn pgn_tags(info: &GameInfo, game: &Game) -> Vec<(&'static str, String)> {
    let speed = game.setup().time_control.speed().name();
    let kind = if info.rated { "Rated" } else { "Casual" };
    let at = info.created_at as i64;
    let mut tags = vec![
        ("Event", format!("{kind} {speed} game")),
        ("Date", caissa_pgn::date::date_tag(at)),
        ("UTCDate", caissa_pgn::date::date_tag(at)),
        ("UTCTime", caissa_pgn::date::time_tag(at)),
        ("WhiteElo", info.white.rating.to_string()),
        ("BlackElo", info.black.rating.to_string()),
        ("GameId", info.id.clone()),
    ];
    if let Some(opening) = opening_of(info, game.line().positions()) {
        tags.push(("ECO", opening.eco.clone()));
        tags.push(("Opening", opening.name.clone()));
    }
    tags
}

/// The opening of a game from the initial position, by the positions it
/// reached (none for a set-up position or Chess960).
pub fn opening_of(info: &GameInfo, positions: &[Position]) -> Option<&'static Opening> {
    if info.setup.fen.is_some() || info.setup.chess960 {
        return None;
    }
    Openings::bundled().of_game(positions)
}

/// The opening of a view's game, its first moves replayed.
pub fn view_opening(view: &View) -> Option<&'static Opening> {
    let limit = Openings::bundled().max_ply() as usize;
    let mut pos = Position::new();
    let mut positions = vec![pos];
    for uci in view.moves.uci().iter().take(limit) {
        let Ok(m) = pos.parse_uci(uci) else { break };
        pos.play_unchecked(m);
        positions.push(pos);
    }
    opening_of(&view.info, &positions)
}

/// The draws the side to move could claim now.
fn claims_of(game: &Game) -> Vec<ClaimKind> {
    if game.finish().is_some() || game.params().automatic_claimable_draws {
        return Vec::new();
    }
    game.line()
        .claimable()
        .into_iter()
        .map(|c| match c {
            caissa_rules::ClaimableDraw::ThreefoldRepetition => ClaimKind::ThreefoldRepetition,
            caissa_rules::ClaimableDraw::FiftyMoves => ClaimKind::FiftyMoves,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use caissa_arbiter::{Action, Ruleset, TimeControl};

    fn game() -> Game {
        let setup = GameSetup::new("a", "b", Ruleset::Online, TimeControl::unlimited());
        Game::new(setup, 0).unwrap()
    }

    #[test]
    fn each_view_keeps_its_moves_as_the_log_grows_and_is_cut_back() {
        let mut game = game();
        let mut recorder = MoveRecorder::default();
        let start = recorder.sync(&game);
        game.act(Color::White, Action::play("e4"), 1).unwrap();
        let one = recorder.sync(&game);
        game.act(Color::Black, Action::play("e5"), 2).unwrap();
        let two = recorder.sync(&game);
        assert_eq!(start.uci_text(), "");
        assert_eq!(one.uci_text(), "e2e4");
        assert_eq!(two.uci_text(), "e2e4 e7e5");
        assert_eq!(two.san(), ["e4", "e5"]);
        assert_eq!(two.last().unwrap().san, "e5");
        // The same log, not a copy: the second view appended to the first's.
        assert!(Arc::ptr_eq(&one.log, &two.log));
        // A takeback starts a new log; the old views still read theirs.
        game.act(Color::White, Action::ProposeTakeback, 3).unwrap();
        game.act(Color::Black, Action::AcceptTakeback, 4).unwrap();
        let back = recorder.sync(&game);
        assert!(back.len() < 2);
        assert_eq!(two.uci_text(), "e2e4 e7e5");
        game.act(back_turn(&game), Action::play("d4"), 5).ok();
        let after = recorder.sync(&game);
        assert_eq!(after.uci(), game_uci(&game));
        assert_eq!(two.uci_text(), "e2e4 e7e5");
    }

    fn back_turn(game: &Game) -> Color {
        game.position().turn()
    }

    fn game_uci(game: &Game) -> Vec<String> {
        let line = game.line();
        line.moves()
            .iter()
            .zip(line.positions())
            .map(|(&m, p)| p.to_uci(m))
            .collect()
    }
}
