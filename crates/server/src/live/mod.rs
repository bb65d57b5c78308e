//! Live games: one task (actor) per game owns its `arbiter::Game`. Everything that
//! changes a game goes through the task's mailbox; new events are stored durably
//! (group commit) before the change is acknowledged or shown to anyone.

pub mod actor;
pub mod codec;
pub mod handle;
mod mirror;
pub mod news;
pub(crate) mod seats;
pub mod view;
pub mod writer;
