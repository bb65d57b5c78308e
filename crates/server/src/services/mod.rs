//! The server's services, one responsibility each. A service holds its own
//! state behind its own locks; services that need another hold it (challenges
//! start games, the lobby pairs into games), and those that act when a game
//! starts or ends subscribe to the games' news instead of being called.

pub mod accounts;
pub mod analysis;
pub mod arbiters;
pub mod challenges;
pub mod chat;
pub mod computer;
pub mod events;
pub mod exports;
pub mod game_news;
pub mod games;
pub mod learning;
pub mod lobby;
pub mod puzzles;
pub mod ratings;
pub mod safety;
pub mod tokens;
pub mod tournaments;
