//! Errors: each kind with its message and location, and resumption at the next
//! game so that one bad game never loses the others.

use caissa_pgn::{Location, PgnError};

use crate::support::{replay, replay_one, trees, Summary};

/// The location of byte `offset` of a text with LF line ends.
fn location_of(text: &str, offset: usize) -> Location {
    let before = &text[..offset];
    let line = before.matches('\n').count() as u64 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Location {
        line,
        column: (offset - line_start) as u64 + 1,
    }
}

/// The location of the first occurrence of `needle` in `text`.
fn location_of_str(text: &str, needle: &str) -> Location {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in {text:?}"));
    location_of(text, offset)
}

fn error_of(text: &str) -> (Summary, PgnError) {
    let game = replay_one(text);
    let error = game
        .error
        .clone()
        .unwrap_or_else(|| panic!("{text:?} should have an error"));
    (game, error)
}

fn clean(text: &str) -> Summary {
    let game = replay_one(text);
    assert_eq!(game.error, None, "{text:?}");
    game
}

#[test]
fn illegal_move_names_game_line_column_and_ply() {
    let text = "[Event \"illegal\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n";
    let (game, error) = error_of(text);
    assert_eq!(error.game, 1);
    assert_eq!(
        error.at,
        Location {
            line: 3,
            column: 13
        }
    );
    assert_eq!(error.ply, Some(3));
    assert!(error.message.starts_with("Ke3 is illegal"), "{error}");
    assert_eq!(
        error.to_string(),
        format!("game 1, line 3, column 13, ply 3: {}", error.message)
    );
    // Replaying stops before the bad move; the marker after it is still read.
    assert_eq!(game.plies, 2);
    assert_eq!(game.fen, clean("1. e4 e5 *").fen);
    assert_eq!(game.result, "1-0");
}

#[test]
fn ambiguous_move_names_both_squares() {
    let text = "[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n1. Nd2 *\n";
    let (game, error) = error_of(text);
    assert_eq!(error.at, Location { line: 3, column: 4 });
    assert_eq!(error.ply, Some(1));
    assert!(error.message.contains("ambiguous"), "{error}");
    assert!(
        error.message.contains("b1") && error.message.contains("f3"),
        "{error}"
    );
    assert_eq!(game.plies, 0);
    assert_eq!(game.fen, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");

    // Either disambiguation resolves it.
    for san in ["Nbd2", "Nfd2", "N1d2", "N3d2"] {
        clean(&text.replace("Nd2", san));
    }
}

#[test]
fn malformed_san_is_reported_with_its_ply() {
    let text = "1. e4 e5 2. Nf9 Nc6 *";
    let (game, error) = error_of(text);
    assert_eq!(
        error.at,
        Location {
            line: 1,
            column: 13
        }
    );
    assert_eq!(error.ply, Some(3));
    assert!(
        error.message.contains("Nf9") && error.message.contains("not a move"),
        "{error}"
    );
    assert_eq!(game.plies, 2);
    assert_eq!(game.result, "*");
    // The tree builder reports it too: it is a syntax error.
    assert!(trees(text)[0].is_err());

    for bad in ["Qxx", "e9", "Kx", "Nf3=Q", "e8=K"] {
        let (_, error) = error_of(&format!("1. e4 e5 2. {bad} *"));
        assert_eq!(error.ply, Some(3), "{bad}: {error}");
        assert_eq!(
            error.at,
            Location {
                line: 1,
                column: 13
            },
            "{bad}"
        );
    }
}

#[test]
fn unterminated_comment_is_located_at_its_brace() {
    let text = "[Event \"u\"]\n\n1. e4 e5 {never closed\n2. Nf3 *\n";
    let (game, error) = error_of(text);
    assert_eq!(
        error.at,
        Location {
            line: 3,
            column: 10
        }
    );
    assert_eq!(error.ply, None);
    assert!(error.message.contains("comment"), "{error}");
    assert!(error.message.contains("not closed"), "{error}");
    assert_eq!(
        error.to_string(),
        format!("game 1, line 3, column 10: {}", error.message)
    );
    assert_eq!(game.plies, 2);
    assert_eq!(trees(text)[0], Err(error));
    // Also in a variation the visitor skips (the tree builder skips one that has no
    // move to be an alternative to).
    let text = "( 1. d4 {never closed\n1. e4 *\n";
    let (_, error) = error_of(text);
    assert_eq!(error.at, Location { line: 1, column: 9 });
    assert_eq!(trees(text)[0], Err(error));
}

#[test]
fn unclosed_variation_is_located_at_its_parenthesis() {
    let next = "[Event \"next\"]\n\n1. d4 *\n";
    // However the game ends: its result, the next game's tags, the end of the input.
    for (movetext, before) in [
        ("1. e4 ( 1. d4 e5 *\n\n", "the result"),
        ("1. e4 ( 1. d4 e5 1-0\n\n", "the result"),
        ("1. e4 ( 1. d4 e5\n\n", "the next game"),
    ] {
        let text = format!("[Event \"open\"]\n\n{movetext}{next}");
        let games = replay(&text);
        assert_eq!(games.len(), 2, "{text:?}: {games:?}");
        let error = games[0].error.clone().expect("an unclosed variation");
        assert_eq!(error.at, Location { line: 3, column: 7 }, "{text:?}");
        assert_eq!(error.ply, None);
        assert_eq!(
            error.message,
            format!("variation not closed with ')' before {before}")
        );
        assert_eq!(
            error.to_string(),
            format!("game 1, line 3, column 7: {}", error.message)
        );
        assert_eq!(games[0].plies, 1);
        // The game after it is read as if alone.
        let alone = Summary {
            game: 2,
            ..clean(next)
        };
        assert_eq!(games[1], alone, "{text:?}");
        let trees = trees(&text);
        assert_eq!(trees[0], Err(error), "the tree builder reports it too");
        assert!(trees[1].is_ok());
    }
    let (_, error) = error_of("1. e4 (1. d4 d5");
    assert!(
        error.message.ends_with("before the end of the input"),
        "{error}"
    );
    assert_eq!(error.at, Location { line: 1, column: 7 });
}

#[test]
fn unclosed_variations_are_reported_at_the_outermost_open_one() {
    let text = "1. e4 (1. d4 d5) (1. c4 (1. Nf3) (1. g3 e5 *";
    let (game, error) = error_of(text);
    assert_eq!(error.at, location_of_str(text, "(1. c4"));
    assert_eq!(game.result, "*");
    // Also when the innermost one is skipped: the tree builder skips a variation
    // that has no move to be an alternative to.
    let text = "1. e4 (1. d4 ( (1. c4 e5 *";
    let error = trees(text).remove(0).expect_err("an unclosed variation");
    assert_eq!(error.at, location_of_str(text, "(1. d4"));
    let text = "( 1. d4 ) ( 1. c4 *";
    let error = trees(text).remove(0).expect_err("an unclosed variation");
    assert_eq!(error.at, location_of_str(text, "( 1. c4"));
    assert_eq!(
        error.message,
        "variation not closed with ')' before the result"
    );
}

#[test]
fn nag_out_of_range_is_an_error() {
    let (game, error) = error_of("1. e4 $256 e5 *");
    assert_eq!(error.at, Location { line: 1, column: 7 });
    assert!(error.message.contains("$256"), "{error}");
    assert_eq!(game.plies, 1);
    assert_eq!(game.result, "*");
}

#[test]
fn overlong_token_is_an_error() {
    let text = format!("1. e4 {} e5 1-0", "x".repeat(300));
    let (game, error) = error_of(&text);
    assert_eq!(error.at, Location { line: 1, column: 7 });
    assert_eq!(game.plies, 1);
    assert_eq!(game.result, "1-0");
}

#[test]
fn bad_tags_are_located_at_the_fault_and_skipped() {
    let long_name = format!("[{} \"x\"]\n", "N".repeat(300));
    let cases = [
        // The value's opening quote.
        (
            "[Event \"unterminated\n",
            "not closed before the end of the line",
            (1, 8),
        ),
        // What stands where the value should.
        ("[Event unquoted]\n", "no quoted value", (1, 8)),
        // Where the `]` should be (after the last quote on the line), not the next line.
        (
            "[Event \"x\"\n[Site \"y\"]\n",
            "not closed with ']'",
            (1, 11),
        ),
        ("[Event \"a \"b\" c]\n", "not closed with ']'", (1, 14)),
        // Where the name should be, or where it starts.
        ("[ \"x\"]\n", "must start with its name", (1, 3)),
        (long_name.as_str(), "tag name is longer", (1, 2)),
    ];
    let good = "[Event \"good\"]\n\n1. d4 d5 2. c4 1-0\n";
    let alone = clean(good);
    for (tags, message, (line, column)) in cases {
        let text = format!("{tags}\n1. e4 e5 *\n\n{good}");
        let games = replay(&text);
        assert_eq!(games.len(), 2, "{text:?}: {games:?}");
        let error = games[0].error.clone().expect("a tag error");
        assert!(error.message.contains(message), "{tags:?}: {error}");
        assert_eq!(error.at, Location { line, column }, "{tags:?}: {error}");
        assert_eq!(error.ply, None);
        assert_eq!(
            error.to_string(),
            format!("game 1, line {line}, column {column}: {}", error.message)
        );
        assert_eq!(games[0].plies, 0);
        let next = Summary {
            game: 2,
            ..alone.clone()
        };
        assert_eq!(games[1], next, "{tags:?}");
        // The tree builder reports tag syntax errors too.
        assert_eq!(trees(&text)[0], Err(error), "{tags:?}");
    }
    // A value the input ends in.
    let (_, error) = error_of("[Event \"x\"]\n[Site \"never closed");
    assert_eq!(error.at, Location { line: 2, column: 7 });
    assert!(error.message.contains("not closed with '\"'"), "{error}");
}

#[test]
fn bad_fen_tag_is_located_at_the_tag() {
    for fen in [
        "8/8/8 w - - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ] {
        let text = format!("[Event \"x\"]\n[FEN \"{fen}\"]\n\n1. e4 *\n");
        let (game, error) = error_of(&text);
        assert_eq!(error.at, Location { line: 2, column: 1 }, "{fen}");
        assert_eq!(error.ply, None);
        assert!(error.message.starts_with("FEN tag"), "{error}");
        assert_eq!(
            error.to_string(),
            format!("game 1, line 2, column 1: {}", error.message)
        );
        assert_eq!(game.plies, 0);
        assert_eq!(game.result, "*");
        // The tree builder reports it too, so that an export names the tag's line.
        assert_eq!(trees(&text)[0], Err(error), "{fen}");
    }
}

#[test]
fn unsupported_variant_is_reported() {
    let text = "[Event \"x\"]\n[Variant \"Atomic\"]\n\n1. e4 e5 1-0\n";
    let (game, error) = error_of(text);
    assert_eq!(error.at, Location { line: 2, column: 1 });
    assert_eq!(error.ply, None);
    assert!(error.message.contains("unsupported variant"), "{error}");
    assert!(error.message.contains("Atomic"), "{error}");
    assert_eq!(game.plies, 0);
    assert_eq!(game.result, "1-0");
    assert_eq!(
        error.to_string(),
        format!("game 1, line 2, column 1: {}", error.message)
    );
    assert_eq!(
        trees(text)[0],
        Err(error),
        "the tree builder reports it too"
    );
    // The standard names are not errors.
    for variant in ["Standard", "chess", "Chess960", "Fischerandom"] {
        clean(&text.replace("Atomic", variant));
        assert!(trees(&text.replace("Atomic", variant))[0].is_ok());
    }
}

#[test]
fn illegal_move_in_a_variation_names_its_ply() {
    let text = "1. e4 e5 (1... c5 2. Nf3) (1... Ke7 2. d4) 2. Nf3 *";
    let (game, error) = error_of(text);
    assert_eq!(error.at, location_of_str(text, "Ke7"));
    assert_eq!(error.ply, Some(2));
    assert!(error.message.starts_with("Ke7 is illegal"), "{error}");
    assert_eq!(game.plies, 2);

    // Deeper: the nested variation's move is checked against its own position.
    let text = "1. e4 e5 2. Nf3 (2. Nc3 Nf6 (2... Bb4 3. Bb5 Bxc3 4. Bxc3) 3. f4) 2... Nc6 *";
    let (_, error) = error_of(text);
    assert_eq!(error.at, location_of_str(text, "Bxc3)"));
    assert_eq!(error.ply, Some(7));
}

#[test]
fn ply_counts_from_the_first_move_played_whatever_the_fen_move_number() {
    // Black to move at move 30: 30... Kd7 is ply 1 and 31. Kd2 ply 2.
    let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 31. Kd2 e4 *\n";
    let (_, error) = error_of(text);
    assert_eq!(error.ply, Some(3), "{error}");
    assert!(error.message.starts_with("e4 is illegal"), "{error}");
    // In a variation too: it replaces ply 2.
    let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 31. e4 (31. Kd3) *\n";
    let (_, error) = error_of(text);
    assert_eq!(error.ply, Some(2), "{error}");
}

/// A good game and a bad one, with what is expected of the bad one.
struct Bad {
    text: &'static str,
    /// Where the error must be, as the text it points to.
    needle: &'static str,
    line_in_part: u64,
    ply: Option<u32>,
    message: &'static str,
    /// Whether the tree builder reports it too (all but illegal and ambiguous moves).
    in_tree: bool,
}

const GOOD: [&str; 5] = [
    "[Event \"G1\"]\n\n1. e4 e5 *\n",
    "[Event \"G2\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n",
    "[Event \"G3\"]\n\n1. Nf3 {a comment\nover lines} Nf6 (1... d5 2. g3) 2. g3 0-1\n",
    "[Event \"G4\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 1-0\n",
    "[Event \"G5\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
];

fn bad_games() -> Vec<Bad> {
    vec![
        Bad {
            text: "[Event \"B1\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n",
            needle: "Ke3",
            line_in_part: 3,
            ply: Some(3),
            message: "illegal",
            in_tree: false,
        },
        Bad {
            text: "[Event \"B2]\n[Site \"x\"]\n\n1. e4 e5 2. Nf3 *\n",
            needle: "\"B2",
            line_in_part: 1,
            ply: None,
            message: "Event",
            in_tree: true,
        },
        Bad {
            text: "[Event \"B3\"]\n\n1. e4 Nf9 e5 0-1\n",
            needle: "Nf9",
            line_in_part: 3,
            ply: Some(2),
            message: "not a move",
            in_tree: true,
        },
        Bad {
            text: "[Event \"B4\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
            needle: "[FEN",
            line_in_part: 2,
            ply: None,
            message: "FEN tag",
            in_tree: true,
        },
        Bad {
            text: "[Variant \"Crazyhouse\"]\n\n1. e4 1-0\n",
            needle: "[Variant",
            line_in_part: 1,
            ply: None,
            message: "unsupported variant",
            in_tree: true,
        },
        Bad {
            text: "[Event \"B6\"]\n\n1. e4 $999 e5 *\n",
            needle: "$999",
            line_in_part: 3,
            ply: None,
            message: "$999",
            in_tree: true,
        },
        Bad {
            text: "[Event \"B7\"]\n\n1. e4 e5 (1... Ke7) 2. Nf3 *\n",
            needle: "Ke7",
            line_in_part: 3,
            ply: Some(2),
            message: "illegal",
            in_tree: false,
        },
        Bad {
            // No result after the error: the next game's tags end this one.
            text: "[Event \"B8\"]\n\n1. e4 Ke3 e5\n",
            needle: "Ke3",
            line_in_part: 3,
            ply: Some(2),
            message: "illegal",
            in_tree: false,
        },
        Bad {
            text: "[Event \"B9\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6 1-0\n",
            needle: "(1... c5",
            line_in_part: 3,
            ply: None,
            message: "variation not closed",
            in_tree: true,
        },
        Bad {
            text: "[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n1. Nd2 Kd7 *\n",
            needle: "Nd2",
            line_in_part: 3,
            ply: Some(1),
            message: "ambiguous",
            in_tree: false,
        },
    ]
}

#[test]
fn bad_games_between_good_ones_lose_none_of_the_good_ones() {
    let bad = bad_games();
    // B G B G ... B: bad games first, between and last.
    let mut parts: Vec<(&str, Option<&Bad>)> = Vec::new();
    for (i, b) in bad.iter().enumerate() {
        parts.push((b.text, Some(b)));
        if i + 1 < bad.len() {
            parts.push((GOOD[i % GOOD.len()], None));
        }
    }
    let mut text = String::new();
    let mut starts = Vec::new();
    for (part, _) in &parts {
        starts.push(text.len());
        text.push_str(part);
        text.push('\n');
    }

    let games = replay(&text);
    assert_eq!(games.len(), parts.len(), "{games:#?}");
    let tree_games = trees(&text);
    assert_eq!(tree_games.len(), parts.len());
    for (i, ((part, bad), game)) in parts.iter().zip(&games).enumerate() {
        let n = i as u64 + 1;
        assert_eq!(game.game, n);
        match bad {
            None => {
                let alone = Summary {
                    game: n,
                    ..clean(part)
                };
                assert_eq!(game, &alone, "good game {n} read differently in the file");
                let tree = tree_games[i].as_ref().expect("a good game builds");
                assert_eq!(Ok(tree), trees(part)[0].as_ref(), "game {n}");
            }
            Some(b) => {
                let error = game
                    .error
                    .as_ref()
                    .unwrap_or_else(|| panic!("game {n} ({part:?}) has no error"));
                assert_eq!(error.game, n);
                assert!(error.message.contains(b.message), "game {n}: {error}");
                assert_eq!(error.ply, b.ply, "game {n}: {error}");
                let first_line = location_of(&text, starts[i]).line;
                assert_eq!(error.at.line, first_line + b.line_in_part - 1, "{error}");
                let at = location_of(&text, starts[i] + part.find(b.needle).unwrap());
                assert_eq!(error.at, at, "game {n}: {error}");
                let shown = error.to_string();
                let prefix = format!(
                    "game {n}, line {}, column {}",
                    error.at.line, error.at.column
                );
                assert!(shown.starts_with(&prefix), "{shown}");
                if let Some(ply) = b.ply {
                    assert!(shown.contains(&format!(", ply {ply}:")), "{shown}");
                }
                if b.in_tree {
                    assert_eq!(tree_games[i].as_ref(), Err(error), "game {n}: {part:?}");
                } else {
                    assert!(tree_games[i].is_ok(), "game {n}: {part:?}");
                }
            }
        }
    }
}

#[test]
fn errors_do_not_leak_into_the_next_game() {
    // An error deep in a variation, a result inside a comment after the error, and a
    // game without tags after it.
    let text = "1. e4 (1. d4 d5 (1... Kd7) 2. c4) e5 {1-0} 1/2-1/2\n1. c4 *\n";
    let games = replay(text);
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games[0].error.is_some());
    assert_eq!(games[0].result, "1/2-1/2");
    assert_eq!(games[1].error, None);
    assert_eq!(games[1].plies, 1);
}
