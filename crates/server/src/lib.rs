//! The Caissa service as a library: [`routes::app`] is the whole HTTP API over an
//! [`AppState`], so tests drive it on an ephemeral port with a real SQLite file.
//!
//! The house, from the bottom up (each layer uses only those below it):
//!
//! - `http`: errors with honest statuses, typed request fields, the caller's
//!   address, the request log, security headers.
//! - `auth`: passwords, tokens and their scopes.
//! - `cluster`: the other nodes serving the installation (PostgreSQL): the
//!   lease, what nodes tell each other, actions forwarded to a game's owner.
//! - `live`: a game as an actor with a durable event log (group commit), what it
//!   publishes, and the news of games starting and ending.
//! - `domain` and `protocol`: challenges and the choices requests make; the
//!   JSON shapes of the lichess API and the game socket's messages.
//! - `services`: accounts, tokens, event streams, challenges, the lobby, live
//!   games, the arbiters' seat, the computer, chat, ratings, exports, analysis,
//!   rate limits.
//! - `routes`: one router per resource, each route documented in the OpenAPI
//!   document; `state` composes the services; `serve` runs it all on a socket.

pub mod assets;
pub mod auth;
pub mod cluster;
pub mod domain;
pub mod http;
pub mod live;
pub mod metrics;
pub mod protocol;
pub mod routes;
pub mod serve;
pub mod services;
pub mod state;

pub use http::error::ApiError;
pub use live::view::{now_ms, Player, View};
pub use routes::{app, openapi};
pub use serve::{lock_database, serve, serve_on, ServeError};
pub use services::accounts::COMPUTER_NAME;
pub use services::arbiters::ARBITER_RIGHT;
pub use state::{AppState, Config};
