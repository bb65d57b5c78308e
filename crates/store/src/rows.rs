//! The installation as plain rows: every table, its columns and key, in an
//! order that respects the references between tables. Copying an installation
//! from one backend to another (`caissa db migrate`) reads and writes these,
//! and checks the copy by comparing them.

/// A value in a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// No value.
    Null,
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
    /// A truth value.
    Bool(bool),
}

impl Value {
    /// A canonical text form, the same whichever backend read it: the input of
    /// a copy's checksum.
    pub fn canonical(&self) -> String {
        match self {
            Value::Null => "N".into(),
            Value::Int(i) => format!("I{i}"),
            // Exact: the bits, not a rounded decimal.
            Value::Real(r) => format!("R{:016x}", r.to_bits()),
            Value::Text(t) => format!("T{}:{t}", t.len()),
            Value::Bool(b) => format!("B{}", u8::from(*b)),
        }
    }
}

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer.
    Int,
    /// An integer or nothing.
    OptInt,
    /// A floating-point number.
    Real,
    /// Text.
    Text,
    /// Text or nothing.
    OptText,
    /// A truth value.
    Bool,
}

/// A table of the installation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// Accounts.
    Users,
    /// API tokens.
    Tokens,
    /// Browser sessions.
    Sessions,
    /// Rights granted to accounts.
    UserRights,
    /// Games.
    Games,
    /// Games' event logs.
    GameEvents,
    /// Arbiters named for games.
    GameArbiters,
    /// Challenges waiting for an answer.
    Challenges,
    /// Games' chat.
    ChatLines,
    /// Ratings per speed.
    Ratings,
    /// Ladder points.
    Ladder,
    /// Each rating's history.
    RatingHistory,
    /// Tournaments.
    Tournaments,
    /// When the server last ran.
    Heartbeat,
    /// Who blocks whom.
    Blocks,
    /// Reports to the operators.
    Reports,
    /// Stars earned in the lessons.
    LessonProgress,
    /// Puzzles and their ratings.
    Puzzles,
    /// Who played which puzzle, and how it went.
    PuzzleRounds,
}

use Kind::{Bool, Int, OptInt, OptText, Real, Text};

impl Table {
    /// Every table, each after those it refers to.
    pub const ALL: [Table; 19] = [
        Table::Users,
        Table::Tokens,
        Table::Sessions,
        Table::UserRights,
        Table::Games,
        Table::GameEvents,
        Table::GameArbiters,
        Table::Challenges,
        Table::ChatLines,
        Table::Ratings,
        Table::Ladder,
        Table::RatingHistory,
        Table::Tournaments,
        Table::Heartbeat,
        Table::Blocks,
        Table::Reports,
        Table::LessonProgress,
        Table::Puzzles,
        Table::PuzzleRounds,
    ];

    /// Its name in the database.
    pub fn name(self) -> &'static str {
        match self {
            Table::Users => "users",
            Table::Tokens => "tokens",
            Table::Sessions => "sessions",
            Table::UserRights => "user_rights",
            Table::Games => "games",
            Table::GameEvents => "game_events",
            Table::GameArbiters => "game_arbiters",
            Table::Challenges => "challenges",
            Table::ChatLines => "chat_lines",
            Table::Ratings => "ratings",
            Table::Ladder => "ladder",
            Table::RatingHistory => "rating_history",
            Table::Tournaments => "tournaments",
            Table::Heartbeat => "heartbeat",
            Table::Blocks => "blocks",
            Table::Reports => "reports",
            Table::LessonProgress => "lesson_progress",
            Table::Puzzles => "puzzles",
            Table::PuzzleRounds => "puzzle_rounds",
        }
    }

    /// Its columns, the key's first. A `seq` column that SQLite keeps as the
    /// row's id is read and written there as `rowid`.
    pub fn columns(self) -> &'static [(&'static str, Kind)] {
        match self {
            Table::Users => &[
                ("id", Int),
                ("name", Text),
                ("name_key", Text),
                ("password_hash", OptText),
                ("created_at", Int),
                ("title", OptText),
                ("play_time_ms", Int),
                ("closed_at", OptInt),
            ],
            Table::Tokens => &[
                ("seq", Int),
                ("token_hash", Text),
                ("user_id", Int),
                ("scopes", Text),
                ("description", Text),
                ("created_at", Int),
            ],
            Table::Sessions => &[
                ("session_hash", Text),
                ("user_id", Int),
                ("csrf", Text),
                ("created_at", Int),
            ],
            Table::UserRights => &[("user_id", Int), ("name", Text), ("granted_at", Int)],
            Table::Games => &[
                ("id", Text),
                ("white_id", Int),
                ("black_id", Int),
                ("setup", Text),
                ("created_at", Int),
                ("finished", Bool),
                ("result", OptText),
                ("rated", Bool),
                ("source", Text),
            ],
            Table::GameEvents => &[("game_id", Text), ("seq", Int), ("event", Text)],
            Table::GameArbiters => &[("game_id", Text), ("user_id", Int)],
            Table::Challenges => &[
                ("id", Text),
                ("challenger_id", Int),
                ("dest_id", OptInt),
                ("terms", Text),
                ("created_at", Int),
            ],
            Table::ChatLines => &[
                ("seq", Int),
                ("game_id", Text),
                ("room", Text),
                ("username", Text),
                ("text", Text),
                ("at", Int),
            ],
            Table::Ratings => &[
                ("user_id", Int),
                ("perf", Text),
                ("rating", Real),
                ("deviation", Real),
                ("volatility", Real),
                ("games", Int),
                ("last_played", Int),
            ],
            Table::Ladder => &[("user_id", Int), ("points", Int), ("games", Int)],
            Table::RatingHistory => &[
                ("seq", Int),
                ("user_id", Int),
                ("perf", Text),
                ("game_id", Text),
                ("rating", Real),
                ("at", Int),
            ],
            Table::Tournaments => &[
                ("id", Text),
                ("status", Text),
                ("created_by", Int),
                ("created_at", Int),
                ("starts_at", Int),
                ("data", Text),
            ],
            Table::Heartbeat => &[("id", Int), ("at", Int)],
            Table::Blocks => &[("user_id", Int), ("blocked_id", Int), ("created_at", Int)],
            Table::Reports => &[
                ("id", Int),
                ("reporter_id", Int),
                ("suspect_id", Int),
                ("reason", Text),
                ("text", Text),
                ("game_id", OptText),
                ("created_at", Int),
                ("closed_at", OptInt),
            ],
            Table::LessonProgress => &[
                ("user_id", Int),
                ("lesson_id", Text),
                ("exercise", Int),
                ("stars", Int),
                ("updated_at", Int),
            ],
            Table::Puzzles => &[
                ("id", Text),
                ("fen", Text),
                ("moves", Text),
                ("rating", Real),
                ("deviation", Real),
                ("volatility", Real),
                ("popularity", Int),
                ("plays", Int),
                ("themes", Text),
                ("game_url", Text),
                ("opening_tags", Text),
            ],
            Table::PuzzleRounds => &[
                ("id", Int),
                ("user_id", Int),
                ("puzzle_id", Text),
                ("played_at", Int),
                ("win", Bool),
                ("rated", Bool),
                ("puzzle_rating", Real),
                ("rating_after", Real),
            ],
        }
    }

    /// How many of the first columns make the key.
    pub fn key_len(self) -> usize {
        match self {
            Table::UserRights
            | Table::GameEvents
            | Table::GameArbiters
            | Table::Ratings
            | Table::Blocks => 2,
            Table::LessonProgress => 3,
            _ => 1,
        }
    }

    /// Whether SQLite keeps this table's `seq` as the row id.
    pub fn seq_is_rowid(self) -> bool {
        matches!(self, Table::Tokens | Table::RatingHistory)
    }
}

/// SQL for one backend: the column list, the key list and the statements that
/// read a page of rows and insert rows, with `$N` parameters (both backends
/// take them).
pub(crate) struct TableSql {
    /// `SELECT ... FROM t [WHERE (key) > (...)] ORDER BY key LIMIT $n`.
    pub select_first: String,
    /// The same after a given key.
    pub select_after: String,
    /// The start of an insert, before its `VALUES`.
    pub insert_head: String,
}

impl TableSql {
    /// The statements for `table`, with SQLite's `rowid` for `seq` where
    /// `rowid_seq` is set.
    pub fn new(table: Table, rowid_seq: bool) -> TableSql {
        let column = |name: &'static str| -> &'static str {
            if rowid_seq && table.seq_is_rowid() && name == "seq" {
                "rowid"
            } else {
                name
            }
        };
        let columns: Vec<&str> = table.columns().iter().map(|(c, _)| column(c)).collect();
        let key = &columns[..table.key_len()];
        let list = columns.join(", ");
        let key_list = key.join(", ");
        let params: Vec<String> = (1..=key.len()).map(|i| format!("${i}")).collect();
        let name = table.name();
        TableSql {
            select_first: format!("SELECT {list} FROM {name} ORDER BY {key_list} LIMIT $1"),
            select_after: format!(
                "SELECT {list} FROM {name} WHERE ({key_list}) > ({}) ORDER BY {key_list} LIMIT ${}",
                params.join(", "),
                key.len() + 1
            ),
            insert_head: format!("INSERT INTO {name} ({list}) "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_a_prefix_of_the_columns_and_no_table_is_listed_twice() {
        for (i, table) in Table::ALL.iter().enumerate() {
            assert!(table.key_len() <= table.columns().len());
            assert!(!Table::ALL[..i].contains(table));
        }
    }

    #[test]
    fn sqlite_reads_a_seq_kept_as_its_row_id() {
        let sql = TableSql::new(Table::Tokens, true);
        assert!(
            sql.select_after.contains("WHERE (rowid) > ($1)"),
            "{}",
            sql.select_after
        );
        let sql = TableSql::new(Table::GameEvents, false);
        assert!(
            sql.select_after.contains("WHERE (game_id, seq) > ($1, $2)"),
            "{}",
            sql.select_after
        );
        assert!(sql.select_after.ends_with("LIMIT $3"));
    }

    #[test]
    fn the_canonical_form_tells_a_number_from_text_and_keeps_every_bit() {
        assert_ne!(
            Value::Int(1).canonical(),
            Value::Text("1".into()).canonical()
        );
        assert_ne!(
            Value::Real(0.1).canonical(),
            Value::Real(0.1 + f64::EPSILON).canonical()
        );
        assert_ne!(
            Value::Null.canonical(),
            Value::Text(String::new()).canonical()
        );
    }
}
