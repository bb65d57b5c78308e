//! The bundled lessons: each exercise legal, solvable, a real exercise, and checked
//! by the rules; and the checker's verdicts on the moves a learner plays.

use caissa_learn::{
    solve, unsolving_move, Category, Exercise, Goal, Lang, Lesson, Lessons, LessonsError, Mistake,
    Progress,
};
use caissa_rules::Position;

fn lessons() -> &'static [Lesson] {
    let all = Lessons::bundled().all();
    assert!(!all.is_empty(), "the bundled lessons did not load");
    all
}

fn lesson(id: &str) -> &'static Lesson {
    Lessons::bundled()
        .get(id)
        .unwrap_or_else(|| panic!("no lesson {id}"))
}

fn exercises() -> impl Iterator<Item = (String, &'static Exercise)> {
    lessons().iter().flat_map(|l| {
        l.exercises
            .iter()
            .enumerate()
            .map(move |(i, e)| (format!("{} #{}", l.id, i + 1), e))
    })
}

fn board_exercises() -> impl Iterator<Item = (String, &'static Exercise)> {
    exercises().filter(|(_, e)| !matches!(e.goal, Goal::Quiz(_)))
}

#[test]
fn the_bundled_lessons_load_and_pass_every_check_of_the_format() {
    Lessons::from_json(caissa_learn::bundled_json()).unwrap();
}

#[test]
fn the_map_has_every_lesson_the_issue_asks_for() {
    for id in [
        "the-board",
        "rook",
        "bishop",
        "queen",
        "knight",
        "king",
        "pawn",
        "capture",
        "en-passant",
        "promotion",
        "castling",
        "check",
        "checkmate-in-one",
        "more-mates-in-one",
        "stalemate",
        "basic-mates",
        "draws",
        "piece-values-and-terms",
    ] {
        lesson(id);
    }
    for category in [
        Category::Basics,
        Category::Pieces,
        Category::SpecialMoves,
        Category::CheckAndMate,
        Category::Draws,
        Category::Terms,
    ] {
        assert!(Lessons::bundled().in_category(category).next().is_some());
    }
}

#[test]
fn ids_are_kebab_case_and_unique() {
    let mut ids: Vec<&str> = lessons().iter().map(|l| l.id.as_str()).collect();
    for id in &ids {
        assert!(
            id.split('-').all(|w| !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())),
            "{id}"
        );
    }
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "two lessons share an id");
}

#[test]
fn each_lesson_has_three_to_eight_exercises() {
    for l in lessons() {
        assert!((3..=8).contains(&l.exercises.len()), "{}", l.id);
    }
}

#[test]
fn every_text_is_written_in_english_simplified_and_traditional_chinese() {
    for l in lessons() {
        let mut texts = vec![l.title.clone(), l.intro.clone()];
        for e in &l.exercises {
            texts.push(e.instruction());
            texts.extend(e.hint.clone());
            if let Goal::Quiz(q) = &e.goal {
                texts.extend(q.choices.iter().map(|c| c.text.clone()));
            }
        }
        for t in texts {
            for lang in Lang::ALL {
                assert!(!t.get(lang).trim().is_empty(), "{}: {t:?}", l.id);
            }
            // A translation, not a copy of the English.
            assert!(t.zh_hans != t.en && t.zh_hant != t.en, "{}: {t:?}", l.id);
        }
    }
}

#[test]
fn the_seed_pictures_name_the_moves_of_bishop_rook_and_queen() {
    for (id, picture) in [("bishop", "×"), ("rook", "十"), ("queen", "米")] {
        let intro = &lesson(id).intro;
        for lang in Lang::ALL {
            assert!(intro.get(lang).contains(picture), "{id} in {}", lang.tag());
        }
    }
}

#[test]
fn every_board_exercise_starts_from_a_legal_position() {
    for (name, e) in board_exercises() {
        let fen = e.fen.as_deref().unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(pos.has_legal_moves(), "{name}");
    }
}

#[test]
fn every_board_exercise_is_solvable_within_its_moves_and_earns_three_stars_at_best() {
    let mut faults = Vec::new();
    for (name, e) in board_exercises().filter(|(_, e)| e.goal != Goal::Checkmate) {
        let Some(solution) = solve(e) else {
            faults.push(format!("{name}: no solution in {} moves", e.max_moves));
            continue;
        };
        let moves: Vec<&str> = solution.iter().map(String::as_str).collect();
        match e.check(&moves) {
            Progress::Solved {
                moves_used,
                stars: 3,
            } if moves_used as usize == moves.len() => {}
            other => faults.push(format!("{name}: the shortest {moves:?} gives {other:?}")),
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn every_board_exercise_is_a_real_exercise_the_rules_can_refuse() {
    for (name, e) in board_exercises() {
        let wrong = unsolving_move(e);
        assert!(
            wrong.is_some() || !e.refused.is_empty(),
            "{name}: every legal move solves it and nothing is shown refused"
        );
        if let Some(m) = wrong {
            let progress = e.check(&[&m]);
            assert!(!matches!(progress, Progress::Solved { .. }), "{name}: {m}");
            if e.goal.is_immediate() {
                assert!(
                    matches!(progress, Progress::Wrong { index: 0, .. }),
                    "{name}: {m}"
                );
            }
        }
        for m in &e.refused {
            match e.check(&[m]) {
                Progress::Illegal { index: 0, reason } => assert!(!reason.is_empty()),
                other => panic!("{name}: {m} gives {other:?}"),
            }
        }
    }
}

#[test]
fn the_mate_in_one_lessons_have_ten_positions_or_more_each_with_a_mate_per_the_rules() {
    let mates =
        lesson("checkmate-in-one").exercises.len() + lesson("more-mates-in-one").exercises.len();
    assert!(mates >= 10);
    for (name, e) in board_exercises().filter(|(_, e)| e.goal == Goal::MateInOne) {
        let pos = Position::from_fen(e.fen.as_deref().unwrap()).unwrap();
        let mating = pos.legal_moves().iter().any(|&m| {
            let mut after = pos;
            after.play_unchecked(m);
            after.is_checkmate()
        });
        assert!(mating, "{name}");
        assert!(!pos.is_check(), "{name}: starts in check");
    }
}

#[test]
fn quiz_answers_are_the_rules_verdicts() {
    let mut ruled = 0;
    for (name, e) in exercises() {
        let Goal::Quiz(q) = &e.goal else { continue };
        if let Some(verdict) = e.quiz_answer_by_rules() {
            assert_eq!(verdict, Ok(q.answer), "{name}");
            ruled += 1;
        }
        assert!(
            matches!(e.answer(q.answer), Progress::Solved { .. }),
            "{name}"
        );
        let other = (q.answer + 1) % q.choices.len();
        assert_eq!(
            e.answer(other),
            Progress::Wrong {
                index: 0,
                why: Mistake::WrongChoice
            },
            "{name}"
        );
    }
    assert!(ruled >= 5, "most quizzes should be decided by the rules");
}

#[test]
fn a_draw_by_insufficient_material_is_what_the_rules_say() {
    let draws = &lesson("draws").exercises;
    assert!(draws.iter().any(|e| matches!(&e.goal,
        Goal::Quiz(q) if q.rule == Some(caissa_learn::QuizRule::InsufficientMaterial))));
}

#[test]
fn an_illegal_move_is_refused_with_the_rule_it_breaks() {
    let king = &lesson("king").exercises[3];
    match king.check(&["Kd5"]) {
        Progress::Illegal { index: 0, reason } => assert!(reason.contains("check"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        king.check(&["e4e9"]),
        Progress::Illegal { index: 0, .. }
    ));
}

#[test]
fn castling_is_refused_in_check_across_an_attacked_square_past_a_piece_and_after_moving() {
    let castling = &lesson("castling").exercises;
    for (i, m) in [
        (2, "e1g1"),
        (3, "e1g1"),
        (4, "e1c1"),
        (5, "O-O"),
        (6, "e1c1"),
    ] {
        assert!(
            matches!(castling[i].check(&[m]), Progress::Illegal { .. }),
            "exercise {i}: {m}"
        );
    }
    assert!(matches!(
        castling[0].check(&["O-O"]),
        Progress::Solved { .. }
    ));
    assert_eq!(
        castling[0].check(&["e1c1"]),
        Progress::Wrong {
            index: 0,
            why: Mistake::NotCastling {
                wanted: caissa_learn::Side::KingSide
            }
        }
    );
}

#[test]
fn en_passant_is_allowed_only_on_the_move_right_after_the_double_step() {
    let ep = &lesson("en-passant").exercises;
    assert!(matches!(ep[0].check(&["exd6"]), Progress::Solved { .. }));
    assert!(matches!(
        ep[0].check(&["e5e6"]),
        Progress::Wrong {
            why: Mistake::NotEnPassant,
            ..
        }
    ));
    assert!(matches!(ep[4].check(&["e5d6"]), Progress::Illegal { .. }));
}

#[test]
fn a_knight_promotion_mates_where_a_queen_does_not() {
    let e = lesson("promotion")
        .exercises
        .iter()
        .find(|e| {
            matches!(
                e.goal,
                Goal::Promote {
                    checkmate: true,
                    ..
                }
            )
        })
        .unwrap();
    assert!(matches!(e.check(&["f7f8n"]), Progress::Solved { .. }));
    assert!(matches!(
        e.check(&["f8=Q"]),
        Progress::Wrong {
            why: Mistake::PromotionNotMate,
            ..
        }
    ));
}

#[test]
fn a_queen_promotion_that_stalemates_is_refused_when_asked_to_avoid_it() {
    let e = lesson("promotion")
        .exercises
        .iter()
        .find(|e| {
            matches!(
                e.goal,
                Goal::Promote {
                    no_stalemate: true,
                    ..
                }
            )
        })
        .unwrap();
    assert!(matches!(
        e.check(&["c8=Q"]),
        Progress::Wrong {
            why: Mistake::Stalemates,
            ..
        }
    ));
    assert!(matches!(e.check(&["c7c8r"]), Progress::Solved { .. }));
}

#[test]
fn mate_in_one_accepts_san_and_uci_and_calls_a_stalemate_a_stalemate() {
    let e = &lesson("checkmate-in-one").exercises[0];
    assert!(matches!(e.check(&["Ra8#"]), Progress::Solved { .. }));
    assert!(matches!(e.check(&["a1a8"]), Progress::Solved { .. }));
    assert!(matches!(
        e.check(&["Ra7"]),
        Progress::Wrong {
            why: Mistake::NotMate,
            ..
        }
    ));
    let stalemate = &lesson("stalemate").exercises[0];
    assert!(matches!(
        stalemate.check(&["Qc8"]),
        Progress::Wrong {
            why: Mistake::Mates,
            ..
        }
    ));
    assert!(matches!(stalemate.check(&["Qc7"]), Progress::Solved { .. }));
}

#[test]
fn the_three_ways_out_of_check_are_told_apart() {
    let check = &lesson("check").exercises;
    assert!(matches!(check[0].check(&["Rxe5"]), Progress::Solved { .. }));
    assert!(matches!(
        check[0].check(&["Kd1"]),
        Progress::Wrong {
            why: Mistake::OtherWayOutOfCheck { .. },
            ..
        }
    ));
    assert!(matches!(check[1].check(&["Re4"]), Progress::Solved { .. }));
    assert!(matches!(check[2].check(&["Kd2"]), Progress::Solved { .. }));
    // Double check: capturing one checker leaves the other.
    assert!(matches!(
        check[4].check(&["Rxd3"]),
        Progress::Illegal { .. }
    ));
}

#[test]
fn a_learner_playing_alone_keeps_the_move_and_sees_the_targets_left() {
    let e = &lesson("the-board").exercises[3];
    match e.check(&["d4d1", "d1a1"]) {
        Progress::Going {
            fen,
            moves_used,
            moves_left,
            to_go,
            defender_to_move,
        } => {
            assert!(!defender_to_move, "nobody answers a learner playing alone");
            assert_eq!((moves_used, to_go), (2, 1));
            assert_eq!(moves_left, e.max_moves - 2);
            assert!(fen.contains(" w "), "{fen}");
            assert_eq!(e.next_fen(&["d4d1", "d1a1"]), Some(fen));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        e.check(&["d4d1", "d1a1", "a1a8", "a8h8"]),
        Progress::Solved { stars: 3, .. }
    ));
}

#[test]
fn moves_past_the_limit_or_giving_check_are_wrong_in_the_goals_played_alone() {
    let e = &lesson("the-board").exercises[0];
    assert_eq!(
        e.check(&["d4d3", "d3d2"]),
        Progress::Wrong {
            index: 1,
            why: Mistake::OutOfMoves
        }
    );
    assert_eq!(
        e.check(&["d4g4"]),
        Progress::Wrong {
            index: 0,
            why: Mistake::GivesCheck
        }
    );
}

#[test]
fn fewer_moves_earn_more_stars() {
    let e = &lesson("the-board").exercises[1];
    assert!(matches!(
        e.check(&["d4h4", "h4h1"]),
        Progress::Solved { stars: 3, .. }
    ));
    assert!(matches!(
        e.check(&["d4d2", "d2h2", "h2h1"]),
        Progress::Solved { stars: 2, .. }
    ));
}

#[test]
fn lessons_that_break_the_format_are_rejected_with_the_reason() {
    let good = r#"[{"id":"x","category":"basics","title":{"en":"a","zh-Hans":"甲","zh-Hant":"甲"},
        "intro":{"en":"a","zh-Hans":"甲","zh-Hant":"甲"},
        "exercises":[{"fen":"7k/8/8/8/8/8/8/4K3 w - - 0 1","goal":{"kind":"reach","targets":["e2"]}}]}]"#;
    Lessons::from_json(good).unwrap();
    let bad_id = good.replace(r#""id":"x""#, r#""id":"Not Kebab""#);
    assert!(matches!(
        Lessons::from_json(&bad_id),
        Err(LessonsError::Invalid { .. })
    ));
    let blank = good.replacen(r#""zh-Hant":"甲""#, r#""zh-Hant":" ""#, 1);
    assert!(Lessons::from_json(&blank).is_err());
    let no_language = good.replacen(r#","zh-Hant":"甲""#, "", 1);
    assert!(matches!(
        Lessons::from_json(&no_language),
        Err(LessonsError::Json(_))
    ));
    let bad_square = good.replace(r#"["e2"]"#, r#"["e9"]"#);
    assert!(Lessons::from_json(&bad_square).is_err());
    let legal_refused = good.replace(
        r#""targets":["e2"]}"#,
        r#""targets":["e2"]},"refused":["e1e2"]"#,
    );
    assert!(Lessons::from_json(&legal_refused).is_err());
    let no_king = good.replace("7k/8/8/8/8/8/8/4K3", "8/8/8/8/8/8/8/4K3");
    assert!(Lessons::from_json(&no_king).is_err());
}

#[test]
fn a_quiz_whose_answer_disagrees_with_the_rules_is_rejected() {
    let quiz = |answer: usize| {
        format!(
            r#"[{{"id":"q","category":"draws","title":{{"en":"a","zh-Hans":"甲","zh-Hant":"甲"}},
            "intro":{{"en":"a","zh-Hans":"甲","zh-Hant":"甲"}},
            "exercises":[{{"goal":{{"kind":"quiz","rule":"insufficient_material","answer":{answer},
              "question":{{"en":"a","zh-Hans":"甲","zh-Hant":"甲"}},
              "choices":[{{"text":{{"en":"KR","zh-Hans":"王车","zh-Hant":"王車"}},"fen":"8/8/4k3/8/8/3K4/8/R7 w - - 0 1"}},
                         {{"text":{{"en":"KN","zh-Hans":"王马","zh-Hant":"王馬"}},"fen":"8/8/4k3/8/8/3K4/8/N7 w - - 0 1"}}]}}}}]}}]"#
        )
    };
    Lessons::from_json(&quiz(1)).unwrap();
    assert!(matches!(
        Lessons::from_json(&quiz(0)),
        Err(LessonsError::Invalid { .. })
    ));
}

#[test]
fn the_lessons_survive_a_round_trip_through_json() {
    let json = serde_json::to_string(lessons()).unwrap();
    let again = Lessons::from_json(&json).unwrap();
    assert_eq!(again.all(), lessons());
}

/// The engine plays the learner (at full strength) and the defender; the
/// moves go through the exercise's own checker, alternating.
fn mate_against_the_engine(e: &Exercise) -> Progress {
    let mut engine = caissa_engine::Engine::new(16);
    let mut pos = Position::from_fen(e.fen.as_deref().unwrap()).unwrap();
    let mut history = vec![pos];
    let mut moves: Vec<String> = Vec::new();
    loop {
        let limits = caissa_engine::Limits {
            nodes: Some(if moves.len().is_multiple_of(2) {
                60_000
            } else {
                20_000
            }),
            ..caissa_engine::Limits::default()
        };
        let best = engine
            .search(&history, &limits, None, None, &mut |_| {})
            .best_move
            .expect("a legal move");
        moves.push(pos.to_uci(best));
        pos.play(best).unwrap();
        history.push(pos);
        let played: Vec<&str> = moves.iter().map(String::as_str).collect();
        match e.check(&played) {
            Progress::Going {
                defender_to_move, ..
            } => {
                assert_eq!(defender_to_move, moves.len() % 2 == 1, "{played:?}");
            }
            done => return done,
        }
    }
}

#[test]
fn every_mate_against_the_computer_is_won_by_the_engine_within_its_moves() {
    let mut seen = 0;
    for (name, e) in board_exercises().filter(|(_, e)| e.goal == Goal::Checkmate) {
        seen += 1;
        match mate_against_the_engine(e) {
            Progress::Solved { moves_used, stars } => {
                assert!(
                    moves_used <= e.max_moves && stars >= 2,
                    "{name}: {moves_used} moves, {stars} stars"
                );
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    assert!(seen >= 2, "K+Q and K+R against K");
}

#[test]
fn a_mate_against_the_computer_refuses_stalemate_and_a_lost_queen() {
    let e = &lesson("basic-mates").exercises[1];
    // 1.Qd5+?? Kxd5: the queen is gone.
    assert!(matches!(
        e.check(&["h1d5", "d6d5"]),
        Progress::Wrong {
            index: 1,
            why: Mistake::LostMatingMaterial
        }
    ));
    // An illegal reply is named, as any illegal move.
    assert!(matches!(
        e.check(&["h1h2", "d6d1"]),
        Progress::Illegal { index: 1, .. }
    ));
    // After the learner's move it is the defender's turn.
    match e.check(&["h1h2"]) {
        Progress::Going {
            defender_to_move: true,
            moves_used: 1,
            ..
        } => {}
        other => panic!("{other:?}"),
    }
    // A queen that takes the king's last square stalemates: a draw, not a win.
    let cornered = Exercise {
        fen: Some("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1".into()),
        ..e.clone()
    };
    assert!(matches!(
        cornered.check(&["b1b6"]),
        Progress::Wrong {
            index: 0,
            why: Mistake::Stalemates
        }
    ));
    assert!(matches!(cornered.check(&["b1b7"]), Progress::Solved { .. }));
}
