//! Who is at the other end of a request: the source address that per-source
//! limits (registrations, logins, guests) count by. Behind a reverse proxy every
//! request comes from the proxy, so with `trust_proxy` the last address the
//! proxy added to `X-Forwarded-For` is taken instead (never a client's own
//! claim: only the proxy's last hop).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

/// The connection a request came on, put in its extensions by the server.
#[derive(Clone, Copy, Debug)]
pub struct Connection {
    /// The peer's address.
    pub peer: SocketAddr,
    /// Whether the peer is a reverse proxy whose `X-Forwarded-For` is trusted.
    pub trust_proxy: bool,
}

/// The source address of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source(pub IpAddr);

impl Source {
    /// The source of a request with these parts.
    pub fn of(parts: &Parts) -> Source {
        let Some(conn) = parts.extensions.get::<Connection>() else {
            // Served without our accept loop (a test calling the router directly).
            return Source(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        };
        if conn.trust_proxy {
            let forwarded = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back();
            if let Some(ip) = forwarded {
                return Source(ip);
            }
        }
        Source(conn.peer.ip())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Source {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Source, Self::Rejection> {
        Ok(Source::of(parts))
    }
}
