//! The PGN grammar, one feature per test: tags and their escapes, the three kinds of
//! comments, annotations, variations, move numbers, results, byte-order mark, line
//! ends, set-up positions, Chess960, lenient SAN and clocks.

use std::time::Duration;

use caissa_pgn::{Flow, GameTree, Location, PgnError, Reader, SanToken, Visitor};
use caissa_rules::san::San;

use crate::support::{depth, replay, replay_one, tree_one, trees, trees_from, Chunked};

fn sans(line: &caissa_pgn::Variation) -> Vec<String> {
    line.moves.iter().map(|n| n.san.to_string()).collect()
}

/// The final FEN of a clean game (asserting it replays without error).
fn clean_fen(text: &str) -> String {
    let game = replay_one(text);
    assert_eq!(game.error, None, "{text:?}");
    game.fen
}

#[test]
fn tag_values_unescape_quotes_and_backslashes() {
    let text = concat!(
        r#"[Event "The \"Immortal\" Game"]"#,
        "\n",
        r#"[Site "C:\\chess\\london"]"#,
        "\n",
        r#"[Annotator "a\b"]"#,
        "\n",
        r#"[Round "]"]"#,
        "\n",
        r#"[ White   "Anderssen" ]"#,
        "\n",
        r#"[Black "Kieseritzky"] [Result "1-0"]"#,
        "\n\n1. e4 e5 1-0\n",
    );
    let tree = tree_one(text);
    let expected: Vec<(String, String)> = [
        ("Event", r#"The "Immortal" Game"#),
        ("Site", r"C:\chess\london"),
        ("Annotator", r"a\b"),
        ("Round", "]"),
        ("White", "Anderssen"),
        ("Black", "Kieseritzky"),
        ("Result", "1-0"),
    ]
    .iter()
    .map(|(n, v)| (n.to_string(), v.to_string()))
    .collect();
    assert_eq!(tree.tags, expected);
    assert_eq!(sans(&tree.mainline), ["e4", "e5"]);
    assert_eq!(tree.result, "1-0");
}

#[test]
fn tag_values_keep_quotes_not_followed_by_the_closing_bracket() {
    // python-chess, among others, writes quotes inside a value without escaping them:
    // a `"` that `]` does not follow belongs to the value.
    let text = concat!(
        r#"[Event "a "b" c"]"#,
        "\n",
        r#"[Site ""Quoted" start"]"#,
        "\n",
        r#"[Annotator "end "quoted""]"#,
        "\n",
        r#"[White "Tal "Misha" M." ]"#,
        r#" [Black "x "y"] [Round "1"]"#,
        "\n",
        r#"[Date "mixed \"escaped\" and "bare""]"#,
        "\n\n1. e4 *\n",
    );
    let tree = tree_one(text);
    let expected: Vec<(String, String)> = [
        ("Event", r#"a "b" c"#),
        ("Site", r#""Quoted" start"#),
        ("Annotator", r#"end "quoted""#),
        ("White", r#"Tal "Misha" M."#),
        ("Black", r#"x "y"#),
        ("Round", "1"),
        ("Date", r#"mixed "escaped" and "bare""#),
    ]
    .iter()
    .map(|(n, v)| (n.to_string(), v.to_string()))
    .collect();
    assert_eq!(tree.tags, expected);
    assert_eq!(sans(&tree.mainline), ["e4"]);
    // However the input arrives.
    for chunk in [1, 2, 7] {
        let trees = trees_from(Chunked::new(text.as_bytes(), chunk));
        assert_eq!(trees, [Ok(tree.clone())], "chunks of {chunk}");
    }
    // A quote with no `]` after it on its line still ends the value.
    let games = replay("[Event \"a \"b\n[Site \"y\"]\n\n1. e4 *\n");
    let error = games[0].error.as_ref().expect("an unclosed tag");
    assert!(error.message.contains("not closed with ']'"), "{error}");
}

#[test]
fn brace_comments_span_lines() {
    let text = "[Event \"c\"]\n\n1. e4 {first line\nsecond line\r\nthird} e5 {one} 2. Nf3 *\n";
    let tree = tree_one(text);
    let moves = &tree.mainline.moves;
    assert_eq!(sans(&tree.mainline), ["e4", "e5", "Nf3"]);
    assert_eq!(moves[0].comments, ["first line\nsecond line\nthird"]);
    assert_eq!(moves[1].comments, ["one"]);
    assert!(moves[2].comments.is_empty());

    // Lines inside the comment are counted: the illegal move is on line 3.
    let game = replay_one("1. e4 {a\nb\nc} e5 2. Ke3 *");
    let error = game.error.expect("Ke3 is illegal");
    assert_eq!(
        error.at,
        Location {
            line: 3,
            column: 10
        }
    );
    assert_eq!(error.ply, Some(3));
}

#[test]
fn brace_comments_longer_than_the_read_buffer_are_kept_whole() {
    let one_line = "x".repeat(100_000);
    let two_lines = format!("{}\n{}", "y".repeat(70_000), "z".repeat(70_000));
    let text = format!("1. e4 {{{one_line}}} e5 {{{two_lines}}} 2. Nf3 *\n");
    let tree = tree_one(&text);
    assert_eq!(sans(&tree.mainline), ["e4", "e5", "Nf3"]);
    assert_eq!(tree.mainline.moves[0].comments, [one_line]);
    assert_eq!(tree.mainline.moves[1].comments, [two_lines]);
}

#[test]
fn semicolon_comments_run_to_the_end_of_the_line() {
    let text = "1. e4 ; king's pawn { not a brace comment\ne5 2. Nf3 ;last\n*\n";
    let tree = tree_one(text);
    assert_eq!(sans(&tree.mainline), ["e4", "e5", "Nf3"]);
    assert_eq!(
        tree.mainline.moves[0].comments,
        ["king's pawn { not a brace comment"]
    );
    assert_eq!(tree.mainline.moves[2].comments, ["last"]);
    assert_eq!(tree.result, "*");

    // A bare CR ends the line comment too.
    let tree = tree_one("1. e4 ;c d4\re5 *");
    assert_eq!(sans(&tree.mainline), ["e4", "e5"]);
    assert_eq!(tree.mainline.moves[0].comments, ["c d4"]);
}

#[test]
fn percent_escape_lines_are_ignored() {
    let text = concat!(
        "%start of file\n",
        "[Event \"a\"]\n",
        "\n",
        "%between tags and moves\n",
        "1. e4\n",
        "%inside movetext e5 is not read\n",
        "e5 *\n",
        "%between games\n",
        "[Event \"b\"]\n",
        "\n",
        "1. d4 *\n",
    );
    let games = trees(text);
    assert_eq!(games.len(), 2);
    let first = games[0].as_ref().expect("clean");
    let second = games[1].as_ref().expect("clean");
    assert_eq!(first.tag("Event"), Some("a"));
    assert_eq!(sans(&first.mainline), ["e4", "e5"]);
    assert!(first.mainline.moves.iter().all(|n| n.comments.is_empty()));
    assert_eq!(second.tag("Event"), Some("b"));
    assert_eq!(sans(&second.mainline), ["d4"]);
}

#[test]
fn percent_escape_line_between_tag_pairs_is_ignored() {
    // PGN standard 6: a '%' in the first column escapes the rest of the line,
    // wherever it is. The tags around it belong to the same game.
    let text = "[Event \"a\"]\n%note from the exporting program\n[Site \"b\"]\n\n1. e4 *\n";
    let games = trees(text);
    assert_eq!(games.len(), 1, "one game, not two: {games:?}");
    let tree = games[0].as_ref().expect("clean");
    assert_eq!(tree.tag("Event"), Some("a"));
    assert_eq!(tree.tag("Site"), Some("b"));
    assert_eq!(sans(&tree.mainline), ["e4"]);
}

#[test]
fn comments_between_games_do_not_make_games() {
    // `;` comments between games are skipped; brace comments must be too, or a
    // file header or a note after the result turns into an empty game.
    let games = replay(";header\n[Event \"1\"]\n\n1. e4 1-0 ;note\n\n[Event \"2\"]\n\n1. d4 *\n");
    assert_eq!(games.len(), 2, "{games:?}");
    let games = replay("{Created by a program}\n[Event \"1\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0].plies, 1);
    let games = replay("[Event \"1\"]\n\n1. e4 e5 1-0 {final note}\n\n[Event \"2\"]\n\n1. d4 *\n");
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!((games[0].plies, games[1].plies), (2, 1));
}

#[test]
fn nags_and_suffix_annotations_become_nags() {
    let text = "1. e4 $1 e5 $146 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4! Nf6? 5. O-O $0 $255 Be7 ! *";
    let tree = tree_one(text);
    let nags: Vec<Vec<u8>> = tree.mainline.moves.iter().map(|n| n.nags.clone()).collect();
    assert_eq!(
        nags,
        [
            vec![1],
            vec![146],
            vec![3],
            vec![4],
            vec![5],
            vec![6],
            vec![1],
            vec![2],
            vec![0, 255],
            vec![1]
        ]
    );
    assert_eq!(
        sans(&tree.mainline),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]
    );
    assert_eq!(replay_one(text).error, None);
}

/// Records every move token's text, ply and depth.
#[derive(Default)]
struct Tokens {
    seen: Vec<(String, u32, u32)>,
    skip_variations: bool,
    skip_movetext: bool,
    variations_ended: u32,
    result: Option<String>,
}

impl Visitor for Tokens {
    type Output = Vec<(String, u32, u32)>;

    fn end_tags(&mut self) -> Flow {
        if self.skip_movetext {
            Flow::Skip
        } else {
            Flow::Continue
        }
    }
    fn san(&mut self, token: SanToken<'_>) -> Flow {
        self.seen
            .push((token.text().to_string(), token.ply, token.depth));
        Flow::Continue
    }
    fn begin_variation(&mut self) -> Flow {
        if self.skip_variations {
            Flow::Skip
        } else {
            Flow::Continue
        }
    }
    fn end_variation(&mut self) {
        self.variations_ended += 1;
    }
    fn result(&mut self, result: &str) {
        self.result = Some(result.to_string());
    }
    fn error(&mut self, error: PgnError) {
        panic!("unexpected error {error}");
    }
    fn end_game(&mut self) -> Self::Output {
        std::mem::take(&mut self.seen)
    }
}

#[test]
fn variation_moves_are_numbered_in_their_own_line() {
    let text = "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) 2... d6) 2. Nf3 *";
    let mut reader = Reader::from_bytes(text.as_bytes());
    let seen = reader.read_game(&mut Tokens::default()).unwrap().unwrap();
    let expected = [
        ("e4", 1, 0),
        ("e5", 2, 0),
        ("c5", 2, 1),
        ("Nf3", 3, 1),
        ("Nc3", 3, 2),
        ("Nc6", 4, 2),
        ("d6", 4, 1),
        ("Nf3", 3, 0),
    ];
    let expected: Vec<(String, u32, u32)> = expected
        .iter()
        .map(|&(t, p, d)| (t.to_string(), p, d))
        .collect();
    assert_eq!(seen, expected);

    let game = replay_one(text);
    assert_eq!(game.error, None);
    assert_eq!(game.plies, 3);
    assert_eq!(game.fen, clean_fen("1. e4 e5 2. Nf3 *"));

    let tree = tree_one(text);
    let e5 = &tree.mainline.moves[1];
    assert_eq!(sans(&e5.variations[0]), ["c5", "Nf3", "d6"]);
    assert_eq!(
        sans(&e5.variations[0].moves[1].variations[0]),
        ["Nc3", "Nc6"]
    );
}

#[test]
fn visitor_can_skip_variations_and_movetext() {
    let text = "1. e4 e5 (1... c5 (1... e6) 2. Nf3) 2. Nf3 1-0";
    let mut visitor = Tokens {
        skip_variations: true,
        ..Tokens::default()
    };
    let seen = Reader::from_bytes(text.as_bytes())
        .read_game(&mut visitor)
        .unwrap()
        .unwrap();
    let texts: Vec<&str> = seen.iter().map(|(t, _, _)| t.as_str()).collect();
    assert_eq!(texts, ["e4", "e5", "Nf3"]);
    assert_eq!(
        visitor.variations_ended, 1,
        "a skipped variation still ends"
    );
    assert_eq!(visitor.result.as_deref(), Some("1-0"));

    let mut visitor = Tokens {
        skip_movetext: true,
        ..Tokens::default()
    };
    let mut reader = Reader::from_bytes(b"[Event \"a\"]\n\n1. e4 e5 0-1\n\n1. d4 *\n");
    let seen = reader.read_game(&mut visitor).unwrap().unwrap();
    assert!(seen.is_empty());
    assert_eq!(visitor.result.as_deref(), Some("0-1"));
    visitor.skip_movetext = false;
    let seen = reader.read_game(&mut visitor).unwrap().unwrap();
    assert_eq!(seen, [("d4".to_string(), 1, 0)]);
    assert!(reader.read_game(&mut visitor).unwrap().is_none());
}

/// `1. e4 (1. d4 (1. c4 (...))) 1... e5 *`, nested `depth` times.
pub(crate) fn nested(depth: usize) -> String {
    const FIRST: [&str; 10] = ["d4", "c4", "Nf3", "g3", "b3", "f4", "Nc3", "e3", "d3", "a3"];
    let mut text = String::from("1. e4 ");
    for i in 0..depth {
        text.push_str("(1. ");
        text.push_str(FIRST[i % FIRST.len()]);
        text.push(' ');
    }
    text.push_str(&")".repeat(depth));
    text.push_str(" 1... e5 *\n");
    text
}

#[test]
fn variations_nest_to_any_depth() {
    let text = nested(50);
    let tree = tree_one(&text);
    assert_eq!(depth(&tree.mainline), 50);
    assert_eq!(sans(&tree.mainline), ["e4", "e5"]);
    let mut line = &tree.mainline.moves[0].variations[0];
    for _ in 1..50 {
        assert_eq!(line.moves.len(), 1);
        line = &line.moves[0].variations[0];
    }
    assert!(line.moves[0].variations.is_empty());

    let game = replay_one(&text);
    assert_eq!(game.error, None);
    assert_eq!(game.plies, 2);
    assert_eq!(game.fen, clean_fen("1. e4 e5 *"));

    // The reader and the replayer keep no recursion: far deeper nesting works too.
    let deep = nested(5_000);
    let mut reader = Reader::from_bytes(deep.as_bytes());
    let seen = reader.read_game(&mut Tokens::default()).unwrap().unwrap();
    assert_eq!(seen.len(), 5_002);
    assert_eq!(seen.iter().map(|t| t.2).max(), Some(5_000));
    let game = replay_one(&deep);
    assert_eq!((game.error, game.plies), (None, 2));
}

#[test]
fn move_numbers_with_dots_and_ellipses() {
    let strict = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 *";
    let loose = "1.e4 1...e5 2. Nf3 2... Nc6 3 . Bb5 3.. a6 4 Ba4 *";
    let game = replay_one(loose);
    assert_eq!(game.error, None);
    assert_eq!(game.plies, 7);
    assert_eq!(game.fen, clean_fen(strict));
    assert_eq!(tree_one(loose).mainline, tree_one(strict).mainline);
}

#[test]
fn results_are_the_four_termination_markers() {
    for result in ["1-0", "0-1", "1/2-1/2", "*"] {
        let text = format!("[Result \"?\"]\n\n1. e4 e5 {result}\n");
        assert_eq!(replay_one(&text).result, result);
        assert_eq!(tree_one(&text).result, result);
    }
    // A marker ends the game even without a blank line or tags after it.
    let games = replay("1. e4 1-0 1. d4 0-1 1. c4 1/2-1/2 1. Nf3 *");
    let results: Vec<&str> = games.iter().map(|g| g.result.as_str()).collect();
    assert_eq!(results, ["1-0", "0-1", "1/2-1/2", "*"]);
    assert!(games.iter().all(|g| g.plies == 1 && g.error.is_none()));
}

#[test]
fn missing_marker_falls_back_to_the_result_tag_then_star() {
    let games = replay("[Result \"0-1\"]\n\n1. e4 e5\n\n[Event \"x\"]\n\n1. d4\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, "0-1");
    assert_eq!(games[0].plies, 2);
    assert_eq!(games[1].result, "*");
}

#[test]
fn degenerate_inputs() {
    assert!(replay("").is_empty());
    assert!(replay("  \n\r\n\t\n").is_empty());
    let game = replay_one("*");
    assert_eq!((game.plies, game.result.as_str()), (0, "*"));
    let game = replay_one("[Event \"only tags\"]\n");
    assert_eq!((game.plies, game.error), (0, None));
    assert_eq!(game.fen, caissa_rules::fen::STARTING_FEN);
    // A '[' ends the movetext: a new game starts.
    let games = replay("1. e4 e5\n[Event \"next\"]\n1. d4 *");
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].plies, games[1].plies), (2, 1));
}

#[test]
fn utf8_bom_is_skipped() {
    let tree = tree_one("\u{feff}[Event \"bom\"]\n\n1. e4 e5 *\n");
    assert_eq!(tree.tags, [("Event".to_string(), "bom".to_string())]);
    assert_eq!(sans(&tree.mainline), ["e4", "e5"]);

    // Columns on the first line do not count the BOM.
    let with = replay_one("\u{feff}1. e4 Ke3 *").error.expect("illegal");
    let without = replay_one("1. e4 Ke3 *").error.expect("illegal");
    assert_eq!(with, without);
    assert_eq!(with.at, Location { line: 1, column: 7 });

    // A '%' escape line right after the BOM is still in the first column.
    let game = replay_one("\u{feff}%escaped\n1. e4 *");
    assert_eq!((game.plies, game.error), (1, None));
}

#[test]
fn crlf_and_cr_line_endings_count_lines() {
    let lines = [
        "[Event \"endings\"]",
        "[Site \"here\"]",
        "",
        "1. e4 {a comment",
        "over two lines} e5 ; rest",
        "2. Nf3 Nc6 3. Kf2 *",
    ];
    let mut reference: Option<GameTree> = None;
    for eol in ["\n", "\r\n", "\r"] {
        let text = lines.join(eol) + eol;
        let game = replay_one(&text);
        let error = game.error.expect("Kf2 is illegal");
        assert_eq!(
            error.at,
            Location {
                line: 6,
                column: 15
            },
            "{eol:?}"
        );
        assert_eq!(error.ply, Some(5));
        assert_eq!(game.plies, 4);

        let tree = tree_one(&text.replace("Kf2", "Bc4"));
        assert_eq!(
            tree.mainline.moves[0].comments,
            ["a comment\nover two lines"]
        );
        assert_eq!(tree.mainline.moves[1].comments, ["rest"]);
        match &reference {
            None => reference = Some(tree),
            Some(r) => assert_eq!(&tree, r, "{eol:?}"),
        }
    }
    // Mixed endings in one file.
    let text = "[Event \"mixed\"]\r\n\r\n1. e4\re5\n2. Nf3\r\nKe6 *";
    let error = replay_one(text).error.expect("Ke6 is illegal");
    assert_eq!(error.at, Location { line: 6, column: 1 });
}

#[test]
fn game_from_fen_and_setup_tags() {
    let text = concat!(
        "[SetUp \"1\"]\n",
        "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n",
        "\n",
        "1... e5 2. Nf3 *\n",
    );
    let game = replay_one(text);
    assert_eq!(game.error, None);
    assert_eq!(game.plies, 2);
    assert_eq!(
        game.fen,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    let written = caissa_pgn::write_game(&tree_one(text)).unwrap();
    assert!(written.contains("1... e5 2. Nf3 *"), "{written}");

    let endgame = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 *\n";
    let game = replay_one(endgame);
    assert_eq!(game.error, None);
    assert_eq!(game.fen, "8/3k4/8/8/8/8/8/5RK1 w - - 2 2");
}

#[test]
fn chess960_game_from_fen_tag() {
    let text = concat!(
        "[Variant \"Chess960\"]\n",
        "[SetUp \"1\"]\n",
        "[FEN \"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1\"]\n",
        "\n",
        "1. O-O O-O-O 2. Rfe1 *\n",
    );
    let game = replay_one(text);
    assert_eq!(game.error, None);
    assert_eq!(game.plies, 3);
    assert_eq!(game.fen, "2kr3r/8/8/8/8/8/8/R3R1K1 b - - 3 2");

    // A Chess960 start position written with KQkq (X-FEN) castling rights.
    let text = concat!(
        "[Variant \"chess 960\"]\n",
        "[FEN \"nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1\"]\n",
        "\n",
        "1. c3 c6 2. Bc2 Bc7 3. O-O-O O-O-O *\n",
    );
    let game = replay_one(text);
    assert_eq!(game.error, None);
    assert_eq!(game.plies, 6);
    assert_eq!(
        game.fen,
        "n1krbqrn/ppbppppp/2p5/8/8/2P5/PPBPPPPP/N1KRBQRN w - - 4 4"
    );
}

#[test]
fn lenient_san_forms_are_accepted() {
    let strict =
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 Bg4 7. dxe5 Qxd1 8. Rxd1 Ne7 *";
    let lenient = "1. e2-e4 e7e5 2. Ng1f3 Nb8-c6 3. Bf1-b5 Pa7-a6 4. Bb5xc6 d:c6 5. 0-0 f7f6 6. d2d4 Bc8g4 7. d4xe5 Qd8xd1 8. Rf1xd1 Ng8-e7 *";
    let game = replay_one(lenient);
    assert_eq!(game.error, None);
    assert_eq!(game.plies, 16);
    assert_eq!(game.fen, clean_fen(strict));

    let strict = "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O *";
    for lenient in [
        "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. 0-0-0 o-o-o *",
        "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. 0-0-0+ O-O-O *",
    ] {
        let game = replay_one(lenient);
        assert_eq!(game.error, None, "{lenient}");
        assert_eq!(game.fen, clean_fen(strict), "{lenient}");
    }

    let figurines = "1. e4 e5 2. ♘f3 ♞c6 3. ♗b5 a6 *";
    let game = replay_one(figurines);
    assert_eq!(game.error, None);
    assert_eq!(game.fen, clean_fen("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"));

    // Promotions written without '=' or in lower case, and check marks.
    let promote = "[FEN \"8/k5P1/8/8/8/8/1p6/7K w - - 0 1\"]\n\n";
    let strict = clean_fen(&format!("{promote}1. g8=Q b1=Q+ *"));
    for moves in ["1. g8Q b1q+ *", "1. g7g8=Q b2-b1=Q+ *", "1. g8/Q b1=q *"] {
        let game = replay_one(&format!("{promote}{moves}"));
        assert_eq!(game.error, None, "{moves}");
        assert_eq!(game.fen, strict, "{moves}");
    }
}

#[test]
fn en_passant_marker_is_accepted() {
    let strict = clean_fen("1. e4 a6 2. e5 d5 3. exd6 *");
    let glued = replay_one("1. e4 a6 2. e5 d5 3. exd6e.p. *");
    assert_eq!((glued.error, glued.fen), (None, strict.clone()));
    // caissa-rules documents `exd6 e.p.` (with a space) as an accepted form.
    let spaced = replay_one("1. e4 a6 2. e5 d5 3. exd6 e.p. *");
    assert_eq!((spaced.error, spaced.fen), (None, strict));
}

#[test]
fn clock_comments_parse_into_durations() {
    let text = "1. e4 {[%clk 1:30:00]} e5 {[%clk 1:29:55] [%emt 0:00:05]} 2. Nf3 {good move [%clk 0:00:07.5]} Nc6 {no clock} *";
    let tree = tree_one(text);
    let moves = &tree.mainline.moves;
    assert_eq!(moves[0].clock(), Some(Duration::from_secs(5400)));
    assert_eq!(moves[0].elapsed(), None);
    assert_eq!(moves[1].clock(), Some(Duration::from_secs(5395)));
    assert_eq!(moves[1].elapsed(), Some(Duration::from_secs(5)));
    assert_eq!(moves[2].clock(), Some(Duration::from_millis(7_500)));
    assert_eq!(moves[3].clock(), None);

    // The clocks survive being written and read again.
    let again = tree_one(&caissa_pgn::write_game(&tree).unwrap());
    let clocks: Vec<_> = again.mainline.moves.iter().map(|n| n.clock()).collect();
    assert_eq!(
        clocks,
        [
            Some(Duration::from_secs(5400)),
            Some(Duration::from_secs(5395)),
            Some(Duration::from_millis(7_500)),
            None
        ]
    );
}

#[test]
fn san_tokens_carry_their_text_and_location() {
    let text = "[Event \"x\"]\n\n1. e4 e5\n  2. Nf3+ *";
    struct Where(Vec<(String, Location, San)>);
    impl Visitor for Where {
        type Output = ();
        fn san(&mut self, t: SanToken<'_>) -> Flow {
            self.0.push((t.text().to_string(), t.at, t.san));
            Flow::Continue
        }
        fn error(&mut self, e: PgnError) {
            panic!("{e}");
        }
        fn end_game(&mut self) {}
    }
    let mut visitor = Where(Vec::new());
    Reader::from_bytes(text.as_bytes())
        .read_game(&mut visitor)
        .unwrap()
        .unwrap();
    let at = |line, column| Location { line, column };
    let got: Vec<(String, Location)> = visitor.0.iter().map(|(t, l, _)| (t.clone(), *l)).collect();
    assert_eq!(
        got,
        [
            ("e4".to_string(), at(3, 4)),
            ("e5".to_string(), at(3, 7)),
            ("Nf3+".to_string(), at(4, 6)),
        ]
    );
    assert_eq!(visitor.0[2].2, San::parse("Nf3").unwrap());
}
