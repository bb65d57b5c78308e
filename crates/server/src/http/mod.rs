//! What every request and answer goes through, whatever the resource: errors
//! with honest statuses, typed fields, the caller's address, the request log,
//! security headers, and the answers for what no route takes.

pub mod edges;
pub mod error;
pub mod fields;
pub mod limits;
pub mod log;
pub mod peer;
pub mod security;
