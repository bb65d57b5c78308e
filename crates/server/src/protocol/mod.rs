//! What the server says and hears on the wire: lichess's JSON shapes, and the
//! messages of a game's WebSocket.

pub mod lichess;
pub mod socket;
