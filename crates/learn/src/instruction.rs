//! The words that state an exercise's goal, when the lesson gives none of its own.
//!
//! Written from the goal, so that most exercises need no prompt in the data and a
//! goal can never be described differently from what the checker asks.

use crate::lesson::{Exercise, Goal, PieceRole, PromotionRole, Side, Way};
use crate::text::Text;

fn piece(role: PieceRole) -> (&'static str, &'static str, &'static str) {
    match role {
        PieceRole::Pawn => ("pawn", "兵", "兵"),
        PieceRole::Knight => ("knight", "马", "馬"),
        PieceRole::Bishop => ("bishop", "象", "象"),
        PieceRole::Rook => ("rook", "车", "車"),
        PieceRole::Queen => ("queen", "后", "后"),
        PieceRole::King => ("king", "王", "王"),
    }
}

fn promoted(role: PromotionRole) -> PieceRole {
    match role {
        PromotionRole::Queen => PieceRole::Queen,
        PromotionRole::Rook => PieceRole::Rook,
        PromotionRole::Bishop => PieceRole::Bishop,
        PromotionRole::Knight => PieceRole::Knight,
    }
}

impl Goal {
    /// The goal in words, in every language.
    pub fn instruction(&self) -> Text {
        match self {
            Goal::Reach { targets } => {
                let names: Vec<String> = targets.iter().map(|s| s.0.to_string()).collect();
                Text::new(
                    format!("Land on {}.", names.join(", ")),
                    format!("走到 {}。", names.join("、")),
                    format!("走到 {}。", names.join("、")),
                )
            }
            Goal::CaptureAll => Text::new(
                "Capture all the enemy pieces (not the king).",
                "吃掉对方所有的棋子（王除外）。",
                "吃掉對方所有的棋子（王除外）。",
            ),
            Goal::MateInOne => {
                Text::new("Checkmate in one move.", "一步将死对方。", "一步將死對方。")
            }
            Goal::EscapeCheck { way } => match way {
                Way::Any => Text::new(
                    "You are in check: get out of it.",
                    "你被将军了：应将！",
                    "你被將軍了：應將！",
                ),
                Way::Capture => Text::new(
                    "You are in check: capture the checking piece.",
                    "你被将军了：吃掉将军的棋子。",
                    "你被將軍了：吃掉將軍的棋子。",
                ),
                Way::Block => Text::new(
                    "You are in check: block it with a piece in between.",
                    "你被将军了：用一个棋子挡在中间。",
                    "你被將軍了：用一個棋子擋在中間。",
                ),
                Way::King => Text::new(
                    "You are in check: move the king to safety.",
                    "你被将军了：把王走到安全的格子。",
                    "你被將軍了：把王走到安全的格子。",
                ),
            },
            Goal::Promote {
                to,
                checkmate,
                no_stalemate,
            } => {
                let (mut en, mut hans, mut hant) = match to {
                    Some(role) => {
                        let (e, s, t) = piece(promoted(*role));
                        (
                            format!("Promote the pawn to a {e}"),
                            format!("让兵升变为{s}"),
                            format!("讓兵升變為{t}"),
                        )
                    }
                    None => (
                        "Promote the pawn".to_string(),
                        "让兵升变".to_string(),
                        "讓兵升變".to_string(),
                    ),
                };
                if *checkmate {
                    en.push_str(" and give checkmate");
                    hans.push_str("，并将死对方");
                    hant.push_str("，並將死對方");
                }
                if *no_stalemate {
                    en.push_str(" without stalemating");
                    hans.push_str("，但不要逼和");
                    hant.push_str("，但不要逼和");
                }
                Text::new(en + ".", hans + "。", hant + "。")
            }
            Goal::Castle { side } => match side {
                Side::KingSide => Text::new(
                    "Castle king side (short castling).",
                    "王车短易位（王翼易位）。",
                    "王車短易位（王翼易位）。",
                ),
                Side::QueenSide => Text::new(
                    "Castle queen side (long castling).",
                    "王车长易位（后翼易位）。",
                    "王車長易位（后翼易位）。",
                ),
            },
            Goal::EnPassant => Text::new("Capture en passant.", "吃过路兵。", "吃過路兵。"),
            Goal::Stalemate => Text::new(
                "Stalemate the opponent in one move.",
                "一步逼和对方。",
                "一步逼和對方。",
            ),
            Goal::SafeMove { role } => match role {
                Some(r) => {
                    let (e, s, t) = piece(*r);
                    Text::new(
                        format!("Make a legal move with the {e}."),
                        format!("用{s}走一步合乎规则的棋。"),
                        format!("用{t}走一步合乎規則的棋。"),
                    )
                }
                None => Text::new(
                    "Make a legal move.",
                    "走一步合乎规则的棋。",
                    "走一步合乎規則的棋。",
                ),
            },
            Goal::Quiz(q) => q.question.clone(),
            Goal::Checkmate => Text::new(
                "Checkmate the lone king: the computer defends it.",
                "将死对方的孤王：电脑会为它防守。",
                "將死對方的孤王：電腦會為它防守。",
            ),
        }
    }
}

impl Exercise {
    /// What to tell the learner: the exercise's own prompt, else the goal in words.
    pub fn instruction(&self) -> Text {
        self.prompt
            .clone()
            .unwrap_or_else(|| self.goal.instruction())
    }
}
