//! What a run may use: loopback addresses only, and no more file descriptors than
//! the open-file limits (`ulimit -n`) of this process and the server leave.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;

use anyhow::{bail, Context};

use super::Api;

/// File descriptors kept free for everything that is not a player's connection.
const FD_RESERVE: u64 = 256;

/// Resolves `HOST:PORT`, refusing anything that is not a loopback address.
pub(super) fn loopback_addr(text: &str) -> anyhow::Result<SocketAddr> {
    let addrs: Vec<SocketAddr> = text
        .to_socket_addrs()
        .with_context(|| format!("--addr {text:?}: expected HOST:PORT"))?
        .collect();
    if let Some(bad) = addrs.iter().find(|a| !a.ip().is_loopback()) {
        bail!("--addr {text}: {bad} is not a loopback address; loadtest only targets this machine");
    }
    addrs
        .first()
        .copied()
        .with_context(|| format!("--addr {text}: no address"))
}

/// The soft limit on open files (`ulimit -n`) of the process of a `/proc/<pid>`
/// directory, if known.
fn open_file_limit(proc_dir: &Path) -> Option<u64> {
    let limits = std::fs::read_to_string(proc_dir.join("limits")).ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line.split_whitespace().nth(3)?;
    if soft == "unlimited" {
        return Some(u64::MAX);
    }
    soft.parse().ok()
}

/// How many files the process of a `/proc/<pid>` directory has open now.
fn open_files(proc_dir: &Path) -> u64 {
    std::fs::read_dir(proc_dir.join("fd")).map_or(0, |d| d.count() as u64)
}

/// How many move requests may be in flight at once: one per game at most (a game
/// has one move in flight at a time), fewer if an open-file limit would be
/// exceeded — this process's and, if known, the server's.
///
/// Over HTTP/1.1 every player's socket or stream holds a connection, and
/// in-process each connection costs two descriptors (the client's end and the
/// server's). Over the Board API each request in flight needs a connection too,
/// and the client's pool can hold about as many idle ones besides (a connection
/// opened for a request that meanwhile got a pooled one is kept), so each slot is
/// counted as two connections, and a quarter of what is left stays free. Over
/// HTTP/2 (`connections`) only the connections count, and every game may have its
/// move in flight.
pub(super) fn inflight_budget(
    api: Api,
    games: usize,
    server_proc: Option<&Path>,
    connections: Option<usize>,
    asked: Option<usize>,
) -> anyhow::Result<usize> {
    let own = Path::new("/proc/self");
    let in_process = server_proc == Some(own);
    let mut processes = vec![(own, if in_process { 2 } else { 1 })];
    if let Some(server) = server_proc.filter(|_| !in_process) {
        processes.push((server, 1));
    }
    let mut room = games;
    for (proc_dir, per_connection) in processes {
        let Some(limit) = open_file_limit(proc_dir) else {
            continue;
        };
        let whose = if proc_dir == own {
            "this process"
        } else {
            "the server"
        };
        let (held, what) = match (connections, api) {
            (Some(n), _) => (n as u64, "HTTP/2 connections"),
            (None, Api::Socket) => (2 * games as u64, "players' sockets"),
            (None, Api::Board) => (2 * games as u64, "players' streams alone"),
        };
        let needed = held * per_connection;
        let reserved = open_files(proc_dir) + FD_RESERVE;
        if needed + reserved + 16 * per_connection > limit {
            bail!(
                "{games} games need {needed} file descriptors in {whose} for the {what} \
                 ({per_connection} per connection{}), plus about {reserved} more, \
                 but its open-file limit (ulimit -n) is {limit}: raise the limit, lower \
                 --games{}",
                if in_process {
                    ": both ends are in this process"
                } else {
                    ""
                },
                match (connections, in_process) {
                    (None, _) => ", or use --http2",
                    (Some(_), true) => ", or run `caissa serve` separately and use --addr",
                    (Some(_), false) => "",
                }
            );
        }
        if connections.is_none() && api == Api::Board {
            let fits = (limit - needed - reserved) * 3 / 4 / (2 * per_connection);
            room = room.min(fits as usize);
        }
    }
    match asked {
        Some(0) => bail!("--max-inflight must be at least 1"),
        Some(n) if n > room => bail!(
            "--max-inflight {n} does not fit in the open-file limits (ulimit -n): at most {room}"
        ),
        Some(n) => Ok(n),
        None => Ok(room.max(1)),
    }
}
