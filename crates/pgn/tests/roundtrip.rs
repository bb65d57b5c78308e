//! The export-format writer: read → write → read gives the same games, writing is
//! idempotent, the Seven Tag Roster comes first, movetext wraps at 80 columns, tag
//! values are escaped.

use caissa_pgn::{write_game, GameTree, Node, Variation, LINE_WIDTH, SEVEN_TAG_ROSTER};
use caissa_rules::san::San;
use caissa_rules::{fen, CastlingMode, Color, Position};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::corpus;
use crate::support::{as_exported, replay_one, squash, tree_one, trees};

fn config(cases: u32, seed: u64) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..ProptestConfig::default()
    }
}

/// Choices for building a random tree; zeros once exhausted (so shrinking the
/// tape shrinks the tree).
pub struct Tape<'a> {
    data: &'a [u32],
    pos: usize,
}

impl<'a> Tape<'a> {
    pub fn new(data: &'a [u32]) -> Tape<'a> {
        Tape { data, pos: 0 }
    }

    /// A choice below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        let v = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        if n == 0 {
            0
        } else {
            v as usize % n
        }
    }

    fn pick<'b>(&mut self, items: &[&'b str]) -> &'b str {
        items[self.below(items.len())]
    }
}

const WORDS: [&str; 24] = [
    "good",
    "move",
    "{",
    "(",
    ")",
    "[",
    "]",
    ";",
    "%",
    "$1",
    "\"quoted\"",
    "back\\slash",
    "é",
    "漢字",
    "[%clk",
    "0:01:02]",
    "1-0",
    "*",
    "e4",
    "!?",
    "...",
    "1.",
    "[%emt 0:00:03]",
    "a_longer_word_of_text",
];

fn random_comment(tape: &mut Tape) -> String {
    let n = tape.below(7);
    (0..n)
        .map(|_| tape.pick(&WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

fn random_line(tape: &mut Tape, start: Position, depth: u32, max_len: usize) -> Variation {
    let mut line = Variation::default();
    if tape.below(5) == 0 {
        line.comments.push(random_comment(tape));
    }
    let mut pos = start;
    for _ in 0..tape.below(max_len + 1) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[tape.below(moves.len())];
        let mut node = Node::new(San::from_move(&pos, m));
        for _ in 0..tape.below(3) {
            node.nags.push(tape.below(256) as u8);
        }
        while tape.below(3) == 0 && node.comments.len() < 3 {
            node.comments.push(random_comment(tape));
        }
        if depth < 3 && tape.below(4) == 0 {
            for _ in 0..1 + tape.below(2) {
                let variation = random_line(tape, pos, depth + 1, 5);
                node.variations.push(variation);
            }
        }
        pos.play_unchecked(m);
        line.moves.push(node);
    }
    line
}

const CHESS960: [&str; 3] = [
    "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
    "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
];

const VALUE_CHARS: [&str; 12] = ["a", "Z", " ", "\"", "\\", "]", "[", "{", "}", "é", "1", "?"];
const OTHER_TAGS: [&str; 8] = [
    "WhiteElo",
    "BlackElo",
    "ECO",
    "Annotator",
    "TimeControl",
    "Opening",
    "X_custom_1",
    "a",
];

/// A random game tree with legal moves, nested variations, NAGs, awkward comments
/// and tag values, from the initial position, a set-up position or Chess960.
pub fn random_tree(tape: &mut Tape) -> GameTree {
    let mut tags: Vec<(String, String)> = Vec::new();
    let start = match tape.below(4) {
        0 | 1 => Position::new(),
        2 => {
            let mut pos = Position::new();
            for _ in 0..tape.below(12) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[tape.below(moves.len())]);
            }
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), pos.fen()));
            pos
        }
        _ => {
            let text = tape.pick(&CHESS960);
            tags.push(("Variant".into(), "Chess960".into()));
            tags.push(("FEN".into(), text.to_string()));
            fen::parse_with_mode(text, CastlingMode::Chess960).expect("valid FEN")
        }
    };
    let result = tape.pick(&["1-0", "0-1", "1/2-1/2", "*"]).to_string();
    for (name, _) in SEVEN_TAG_ROSTER {
        if tape.below(2) == 0 {
            let value = if name == "Result" {
                result.clone()
            } else {
                (0..tape.below(8))
                    .map(|_| tape.pick(&VALUE_CHARS))
                    .collect()
            };
            tags.push((name.to_string(), value));
        }
    }
    for name in OTHER_TAGS {
        if tape.below(3) == 0 {
            let value: String = (0..tape.below(8))
                .map(|_| tape.pick(&VALUE_CHARS))
                .collect();
            tags.push((name.to_string(), value));
        }
    }
    // Shuffle the tags: the writer must put them in order.
    for i in (1..tags.len()).rev() {
        let j = tape.below(i + 1);
        tags.swap(i, j);
    }
    let mainline = random_line(tape, start, 0, 40);
    GameTree {
        tags,
        mainline,
        result,
    }
}

/// The lines of a written game after the blank line that ends the tags.
fn movetext_lines(written: &str) -> Vec<&str> {
    let (_, movetext) = written
        .split_once("\n\n")
        .expect("a blank line after the tags");
    movetext.lines().filter(|l| !l.is_empty()).collect()
}

/// Checks the export format's layout: no movetext line wider than 80 columns, and
/// no line that could have taken the next line's first word (measured in bytes, as
/// the writer does; a byte count of 80 is never more than 80 columns).
fn assert_wrapped(written: &str) {
    let lines = movetext_lines(written);
    for (i, line) in lines.iter().enumerate() {
        let width = line.chars().count();
        assert!(
            width <= LINE_WIDTH,
            "line {i} has {width} columns: {line:?}"
        );
        assert!(!line.starts_with(' ') && !line.ends_with(' '), "{line:?}");
        if let Some(next) = lines.get(i + 1) {
            let word = next.split(' ').next().unwrap_or("");
            assert!(
                line.len() + 1 + word.len() > LINE_WIDTH,
                "{word:?} would have fit on {line:?}"
            );
        }
    }
}

/// The full round-trip property for a legal tree `t`.
fn check_round_trip(t: &GameTree) {
    let w0 = write_game(t).expect("legal trees can be written");
    assert!(
        w0.ends_with("\n\n"),
        "a game ends with a blank line: {w0:?}"
    );
    assert_wrapped(&w0);

    let all = trees(&w0);
    assert_eq!(all.len(), 1, "one game written, one read: {w0}");
    let r1 = all
        .into_iter()
        .next()
        .unwrap()
        .unwrap_or_else(|e| panic!("{e}\n{w0}"));
    assert_eq!(as_exported(&r1), as_exported(t), "{w0}");
    assert_eq!(r1.tags, as_exported(t).tags, "tags in export order: {w0}");

    let w1 = write_game(&r1).expect("what was read can be written");
    assert_eq!(w1, w0, "writing is idempotent");
    let r2 = tree_one(&w1);
    assert_eq!(r2, r1, "read → write → read gives the same tree");

    let game = replay_one(&w0);
    assert_eq!(game.error, None, "{w0}");
    assert_eq!(game.plies as usize, t.mainline.moves.len());
    assert_eq!(game.result, t.result);
}

proptest! {
    #![proptest_config(config(200, 0x5eed_0001))]

    #[test]
    fn corpus_games_round_trip(seed in 1u64..5, i in 0u64..100_000) {
        let game = corpus::game(seed, i);
        check_round_trip(&game);
        // The corpus text itself is already in export format.
        let text = write_game(&game).unwrap();
        let read = tree_one(&text);
        prop_assert_eq!(write_game(&read).unwrap(), text);
    }

    #[test]
    fn random_trees_round_trip(choices in prop::collection::vec(any::<u32>(), 0..600)) {
        let tree = random_tree(&mut Tape::new(&choices));
        check_round_trip(&tree);
    }
}

#[test]
fn a_whole_corpus_file_round_trips() {
    let text = corpus::pgn(5, 200);
    let games: Vec<GameTree> = trees(&text).into_iter().map(|t| t.unwrap()).collect();
    assert_eq!(games.len(), 200);
    let written: String = games.iter().map(|g| write_game(g).unwrap()).collect();
    assert_eq!(written, text);
    let again: Vec<GameTree> = trees(&written).into_iter().map(|t| t.unwrap()).collect();
    assert_eq!(again, games);
}

fn tag_lines(written: &str) -> Vec<&str> {
    written.lines().take_while(|l| !l.is_empty()).collect()
}

#[test]
fn seven_tag_roster_first_in_order_then_other_tags_sorted() {
    let mut tree = tree_one("1. e4 e5 1-0");
    for (name, value) in [
        ("WhiteElo", "2100"),
        ("Black", "b"),
        ("ECO", "C20"),
        ("Event", "e"),
        ("Annotator", "a"),
        ("Round", "3"),
        ("Result", "1-0"),
    ] {
        tree.tags.push((name.to_string(), value.to_string()));
    }
    let written = write_game(&tree).unwrap();
    assert_eq!(
        tag_lines(&written),
        [
            "[Event \"e\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"3\"]",
            "[White \"?\"]",
            "[Black \"b\"]",
            "[Result \"1-0\"]",
            "[Annotator \"a\"]",
            "[ECO \"C20\"]",
            "[WhiteElo \"2100\"]",
        ]
    );
    assert!(written.ends_with("\n\n1. e4 e5 1-0\n\n"), "{written:?}");
}

#[test]
fn result_tag_follows_the_movetext_result() {
    let tree = tree_one("[Result \"1-0\"]\n\n1. e4 0-1");
    let written = write_game(&tree).unwrap();
    assert!(written.contains("[Result \"0-1\"]"), "{written}");
    assert!(!written.contains("[Result \"1-0\"]"), "{written}");
}

#[test]
fn tag_values_are_escaped() {
    let text = concat!(
        r#"[Annotator "say \"hi\" \\ bye"]"#,
        "\n",
        r#"[White "C:\\dir\\"]"#,
        "\n\n*\n"
    );
    let tree = tree_one(text);
    assert_eq!(tree.tag("Annotator"), Some(r#"say "hi" \ bye"#));
    assert_eq!(tree.tag("White"), Some(r"C:\dir\"));
    let written = write_game(&tree).unwrap();
    let lines = tag_lines(&written);
    assert!(
        lines.contains(&r#"[Annotator "say \"hi\" \\ bye"]"#),
        "{written}"
    );
    assert!(lines.contains(&r#"[White "C:\\dir\\"]"#), "{written}");
    let again = tree_one(&written);
    assert_eq!(again.tag("Annotator"), tree.tag("Annotator"));
    assert_eq!(again.tag("White"), tree.tag("White"));
}

#[test]
fn unescaped_quotes_read_from_a_tag_are_escaped_on_output() {
    let tree = tree_one("[Event \"a \"b\" c\"]\n\n1. e4 *\n");
    assert_eq!(tree.tag("Event"), Some(r#"a "b" c"#));
    let written = write_game(&tree).unwrap();
    assert!(
        tag_lines(&written).contains(&r#"[Event "a \"b\" c"]"#),
        "{written}"
    );
    assert_eq!(tree_one(&written).tag("Event"), tree.tag("Event"));
}

#[test]
fn movetext_wraps_at_80_columns() {
    for i in 0..20 {
        let written = write_game(&corpus::game(9, i)).unwrap();
        let lines = movetext_lines(&written);
        assert!(lines.len() > 3);
        assert_wrapped(&written);
    }
    // A game of only moves: every line but the last is nearly full.
    let text = corpus::pgn(2, 1);
    let mut tree = tree_one(&text);
    fn strip(line: &mut Variation) {
        line.comments.clear();
        for node in &mut line.moves {
            node.comments.clear();
            node.nags.clear();
            node.variations.clear();
        }
    }
    strip(&mut tree.mainline);
    let written = write_game(&tree).unwrap();
    let lines = movetext_lines(&written);
    for line in &lines[..lines.len() - 1] {
        assert!(line.len() > LINE_WIDTH - 12, "{line:?}");
    }
}

#[test]
fn writer_numbers_black_moves_after_comments_and_variations() {
    let tree = tree_one("1. e4 {a comment} e5 2. Nf3 (2. Nc3 Nc6) Nc6 3. Bb5 $1 a6 *");
    let written = write_game(&tree).unwrap();
    let movetext = movetext_lines(&written).join(" ");
    assert_eq!(
        movetext,
        "1. e4 {a comment} 1... e5 2. Nf3 (2. Nc3 Nc6) 2... Nc6 3. Bb5 $1 a6 *"
    );
}

#[test]
fn writer_writes_canonical_san_with_check_and_mate() {
    let tree = tree_one("1. e2-e4 e7e5 2. Bf1-c4 Nb8c6 3. Qd1-h5 Ng8-f6 4. Qh5xf7 1-0");
    let written = write_game(&tree).unwrap();
    assert_eq!(
        movetext_lines(&written).join(" "),
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"
    );
    let tree = tree_one("1. e4 f5 2. Qh5 *");
    let written = write_game(&tree).unwrap();
    assert!(written.contains("2. Qh5+ *"), "{written}");
}

#[test]
fn writer_keeps_variations_comments_and_nags() {
    let text = "{Before} 1. e4!? {after e4} (1. d4 $14 {queen's pawn} (1. c4) 1... d5) 1... e5?? *";
    let tree = tree_one(text);
    let written = write_game(&tree).unwrap();
    assert_eq!(
        movetext_lines(&written).join(" "),
        "{Before} 1. e4 $5 {after e4} (1. d4 $14 {queen's pawn} (1. c4) 1... d5) 1... e5 $4 *"
    );
    let again = tree_one(&written);
    assert_eq!(
        (&again.mainline, &again.result),
        (&tree.mainline, &tree.result)
    );
}

#[test]
fn comment_closing_brace_is_written_as_a_parenthesis() {
    // PGN cannot escape '}' inside a comment; the writer replaces it.
    let mut tree = tree_one("1. e4 {x} e5 *");
    tree.mainline.moves[0].comments[0] = "a } b".to_string();
    let written = write_game(&tree).unwrap();
    assert!(written.contains("{a ) b}"), "{written}");
    let again = tree_one(&written);
    assert_eq!(again.mainline.moves[0].comments, ["a ) b"]);
    assert_eq!(again.mainline.moves.len(), 2);
}

#[test]
fn writer_counts_plies_from_the_first_move_played_as_the_reader_does() {
    // Black to move at move 30: 30... Kd7 is ply 1, whatever the FEN's move number.
    let fen_tag = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n";
    for (movetext, ply) in [
        ("30... Kd7 31. Kd2 e4 *", 3),
        ("30... Kd7 31. e4 (31. Kd3) *", 2),
    ] {
        let text = format!("{fen_tag}{movetext}\n");
        let error = write_game(&tree_one(&text)).unwrap_err();
        assert!(
            matches!(error, caissa_pgn::WriteError::Move { ply: p, .. } if p == ply),
            "{error}"
        );
        assert!(
            error.to_string().starts_with(&format!("ply {ply}: ")),
            "{error}"
        );
        assert_eq!(replay_one(&text).error.and_then(|e| e.ply), Some(ply));
    }
}

#[test]
fn writer_refuses_an_illegal_move_naming_its_ply() {
    // The tree builder does not check moves; the writer replays them.
    let tree = tree_one("1. e4 e5 2. Ke3 *");
    let error = write_game(&tree).unwrap_err();
    assert!(
        matches!(error, caissa_pgn::WriteError::Move { ply: 3, .. }),
        "{error}"
    );
    // A tree made in code may start from a FEN that is no position.
    let mut tree = GameTree::default();
    tree.set_tag("FEN", "8/8/8/8/8/8/8/8 w - - 0 1");
    tree.result = "*".to_string();
    let error = write_game(&tree).unwrap_err();
    assert!(
        matches!(
            error,
            caissa_pgn::WriteError::Setup(caissa_pgn::SetupError::Fen(_))
        ),
        "{error}"
    );
    assert!(error.to_string().starts_with("FEN tag"), "{error}");
}

#[test]
fn writer_numbers_a_set_up_game_from_its_fen() {
    let text = "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 3 40\"]\n\n40... Kd7 41. O-O *";
    let written = write_game(&tree_one(text)).unwrap();
    assert!(written.contains("[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 3 40\"]"));
    assert_eq!(movetext_lines(&written).join(" "), "40... Kd7 41. O-O *");
    let tree = tree_one(&written);
    let pos = fen::parse("4k3/8/8/8/8/8/8/4K2R b K - 3 40").unwrap();
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(
        tree.mainline.moves[0].san,
        San::from_move(&pos, pos.parse_san("Kd7").unwrap())
    );
}

#[test]
fn comments_are_normalised_only_in_whitespace() {
    let text = "1. e4 {  spaced   out\n\ttext  } *";
    let tree = tree_one(text);
    assert_eq!(tree.mainline.moves[0].comments, ["spaced   out\n\ttext"]);
    let again = tree_one(&write_game(&tree).unwrap());
    assert_eq!(
        again.mainline.moves[0].comments,
        [squash(&tree.mainline.moves[0].comments[0])]
    );
}
