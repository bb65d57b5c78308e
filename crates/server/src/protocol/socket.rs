//! The messages of a game's WebSocket, client to server, as a tagged enum.
//!
//! Client → server: `{"t":"move","uci":"e2e4","ply":0}` (`ply`: the number of
//! half-moves played before this one, as the client saw the game; a move for an
//! older position is refused with status 409, `stale ply: expected N`; without
//! `ply` the move is taken as it comes, for older clients), `{"t":"resign"}`,
//! `{"t":"abort"}`, `{"t":"draw","accept":true|false}` (true offers, or accepts
//! an open offer), `{"t":"claim","claim":"threefold_repetition"|"fifty_moves",
//! "uci":..}`, `{"t":"takeback","accept":true|false}`, `{"t":"claim-victory"}`,
//! `{"t":"claim-draw-gone"}`, `{"t":"claim-flag"}` (the opponent's flag has
//! fallen, in rulesets where a flag must be claimed: fide-rapid, fide-blitz),
//! `{"t":"seal","move":"Nf3"}` (adjourn with a sealed move, kept secret),
//! `{"t":"propose-resumption","at":ms}` (when to resume an adjourned game),
//! `{"t":"request-increment"}` and `{"t":"claim-no-progress"}` (Guidelines III).
//!
//! Server → client: `{"t":"full", ...gameFull}` once, `{"t":"state",
//! ...gameState, "watchers": n}` on every change (a move's state carries `uci`,
//! `san`, `ply`, `fen`, `check` and `dests`), `{"t":"gone", "color", "gone",
//! "claimWinInSeconds"}`, `{"t":"watchers","n"}`, `{"t":"chat", "room",
//! "username", "text"}`, and `{"t":"ack"}` or `{"t":"error","status":N,
//! "error":"..."}` answering each action in order (the status as an HTTP answer
//! would have it).

use caissa_arbiter::{Action, ClaimKind};
use serde::Deserialize;

/// A message from the client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum ClientMessage {
    /// Play a move.
    Move {
        /// The move in UCI (SAN is accepted too).
        uci: String,
        /// Half-moves played before this one, as the client saw the game.
        #[serde(default)]
        ply: Option<u32>,
    },
    /// Resign.
    Resign,
    /// Go berserk (an arena's game, before one's first move).
    Berserk,
    /// Abort.
    Abort,
    /// Offer (or accept) a draw; `accept: false` declines the opponent's offer.
    Draw {
        /// False to decline.
        #[serde(default)]
        accept: Option<bool>,
    },
    /// Propose (or accept) a takeback; `accept: false` declines or withdraws.
    Takeback {
        /// False to decline.
        #[serde(default)]
        accept: Option<bool>,
    },
    /// Claim a draw by repetition or the fifty-move rule, with the intended move.
    Claim {
        /// Which rule.
        claim: ClaimKind,
        /// The intended move, if the claim is made with one (9.2.1, 9.3.1).
        #[serde(default)]
        uci: Option<String>,
    },
    /// Claim the game: the opponent has left.
    ClaimVictory,
    /// Call a draw: the opponent has left.
    ClaimDrawGone,
    /// Claim that the opponent's flag has fallen (6.8, A.5.3, B.3).
    ClaimFlag,
    /// Adjourn with a sealed move (Guidelines I).
    Seal {
        /// The sealed move, as written.
        #[serde(rename = "move")]
        text: String,
    },
    /// Propose (or agree to) a time to resume an adjourned game, ms.
    ProposeResumption {
        /// When, ms since the Unix epoch.
        at: u64,
    },
    /// Ask for a 5-second increment (Guidelines III.4).
    RequestIncrement,
    /// Claim the opponent cannot win by normal means (Guidelines III.5).
    ClaimNoProgress,
}

impl ClientMessage {
    /// The arbiter's action for this message, and the ply it was sent at. The
    /// time an opponent has been gone and the lag are filled in by the server,
    /// never taken from the client.
    pub fn action(self, lag_ms: u64) -> (Action, Option<u32>) {
        match self {
            ClientMessage::Move { uci, ply } => (
                Action::Move {
                    text: uci,
                    lag_ms,
                    offering_draw: false,
                },
                ply,
            ),
            ClientMessage::Resign => (Action::Resign, None),
            ClientMessage::Berserk => (Action::Berserk, None),
            ClientMessage::Abort => (Action::Abort, None),
            ClientMessage::Draw { accept } => match accept {
                Some(false) => (Action::DeclineDraw, None),
                _ => (Action::OfferDraw, None),
            },
            ClientMessage::Takeback { accept } => match accept {
                Some(false) => (Action::DeclineTakeback, None),
                _ => (Action::ProposeTakeback, None),
            },
            ClientMessage::Claim { claim, uci } => (
                Action::ClaimDraw {
                    claim,
                    with_move: uci,
                },
                None,
            ),
            ClientMessage::ClaimVictory => (
                Action::ClaimVictory {
                    opponent_gone_ms: 0,
                },
                None,
            ),
            ClientMessage::ClaimDrawGone => (
                Action::CallDraw {
                    opponent_gone_ms: 0,
                },
                None,
            ),
            ClientMessage::ClaimFlag => (Action::ClaimFlag, None),
            ClientMessage::Seal { text } => (Action::Seal { text }, None),
            ClientMessage::ProposeResumption { at } => (Action::ProposeResumption { at }, None),
            ClientMessage::RequestIncrement => (Action::RequestIncrement, None),
            ClientMessage::ClaimNoProgress => (Action::ClaimNoProgress, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ClientMessage, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn every_message_of_the_protocol_is_read() {
        assert_eq!(
            parse(r#"{"t":"move","uci":"e2e4","ply":0}"#).unwrap(),
            ClientMessage::Move {
                uci: "e2e4".into(),
                ply: Some(0)
            }
        );
        assert_eq!(
            parse(r#"{"t":"move","uci":"e2e4"}"#).unwrap().action(7).1,
            None
        );
        assert_eq!(parse(r#"{"t":"resign"}"#).unwrap(), ClientMessage::Resign);
        assert_eq!(
            parse(r#"{"t":"draw","accept":false}"#).unwrap().action(0).0,
            Action::DeclineDraw
        );
        assert_eq!(
            parse(r#"{"t":"claim","claim":"fifty_moves"}"#).unwrap(),
            ClientMessage::Claim {
                claim: ClaimKind::FiftyMoves,
                uci: None
            }
        );
        assert_eq!(
            parse(r#"{"t":"claim-flag"}"#).unwrap(),
            ClientMessage::ClaimFlag
        );
        assert_eq!(
            parse(r#"{"t":"claim-draw-gone"}"#).unwrap(),
            ClientMessage::ClaimDrawGone
        );
    }

    #[test]
    fn an_unknown_message_or_a_move_without_its_move_is_refused() {
        let e = parse(r#"{"t":"teleport"}"#).unwrap_err().to_string();
        assert!(e.contains("teleport"), "{e}");
        let e = parse(r#"{"t":"move"}"#).unwrap_err().to_string();
        assert!(e.contains("uci"), "{e}");
    }
}
