//! Serving the API on a socket: HTTP/1.1 and HTTP/2 (prior knowledge, as behind
//! a proxy; WebSockets over both), with the limits that keep one client from
//! holding the server: a deadline for a request's headers, a connection with no
//! bytes either way for a while is closed, and at most so many connections at
//! once (from the open-file limit) — beyond it a newcomer is told 503 and let go
//! at once, rather than everyone waiting on descriptors.
//!
//! One `caissa serve` owns its SQLite file: a second one on the same file would
//! serve diverging games, so it takes an exclusive lock beside the file and a
//! second server is refused with a clear message.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

use crate::http::edges::trim_trailing_slash;
use crate::http::peer::Connection;
use crate::state::{AppState, Config};

/// Descriptors kept for the database, the log and what else the server opens.
const RESERVED_DESCRIPTORS: u64 = 128;
/// The least time between two looks at a connection's silence.
const IDLE_CHECK_MIN: Duration = Duration::from_millis(50);
/// How long a shutdown waits for connections to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Another server holds the database.
    #[error("another caissa server is already using {db} (lock {lock}); stop it first, or give this one its own --db")]
    Locked {
        /// The database.
        db: String,
        /// The lock file.
        lock: String,
    },
    /// The store could not be opened.
    #[error("opening the database: {0}")]
    Store(#[from] caissa_store::StoreError),
    /// Starting the services failed.
    #[error("starting: {0}")]
    Start(#[from] crate::http::error::ApiError),
    /// A socket or file failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// An exclusive hold on a SQLite database, for as long as it lives.
pub struct DatabaseLock {
    _file: std::fs::File,
    path: PathBuf,
}

impl DatabaseLock {
    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Takes the lock beside the SQLite database of `db_url` (nothing to lock for
/// other databases: they manage their own concurrency).
pub fn lock_database(db_url: &str) -> Result<Option<DatabaseLock>, ServeError> {
    let Some(path) = caissa_store::sqlite_path(db_url) else {
        return Ok(None);
    };
    if path.is_empty() || path == ":memory:" {
        return Ok(None);
    }
    let lock = PathBuf::from(format!("{path}.lock"));
    if let Some(dir) = lock.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(DatabaseLock {
            _file: file,
            path: lock,
        })),
        Err(std::fs::TryLockError::WouldBlock) => Err(ServeError::Locked {
            db: path.to_string(),
            lock: lock.display().to_string(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(e.into()),
    }
}

/// Runs the service on `addr` with the database at `db_url` until Ctrl-C (or
/// SIGTERM). On PostgreSQL the node joins the others serving the installation,
/// reachable by them at `config.node_address` (else at `addr`, or at
/// 127.0.0.1 and its port when `addr` is every interface), and leaves when it
/// stops, so its games are adopted at once.
pub async fn serve(addr: SocketAddr, db_url: &str, mut config: Config) -> Result<(), ServeError> {
    let _lock = lock_database(db_url)?;
    raise_open_file_limit();
    let store = caissa_store::Store::open(db_url).await?;
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    if caissa_store::sqlite_path(db_url).is_none() {
        if config.node_address.is_none() {
            let host = if bound.ip().is_unspecified() {
                std::net::IpAddr::from([127, 0, 0, 1])
            } else {
                bound.ip()
            };
            config.node_address = Some(SocketAddr::new(host, bound.port()).to_string());
        }
    } else if !store.claim_exclusive().await? {
        return Err(ServeError::Locked {
            db: redacted(db_url),
            lock: "database lock".into(),
        });
    }
    let state = AppState::with_config(store.clone(), config).await?;
    tracing::info!("Caissa listening on http://{bound}");
    serve_on(listener, state, stop_signal()).await?;
    if let Err(e) = store.leave().await {
        tracing::warn!("leaving the other nodes: {e}");
    }
    Ok(())
}

/// Ctrl-C, or SIGTERM where there is one.
async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// `url` with any password replaced by `***`, for messages and logs.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((credentials, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Raises the soft open-file limit to the hard one: every connection is a
/// descriptor.
fn raise_open_file_limit() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => tracing::debug!("open-file limit {n}"),
        Err(e) => tracing::warn!("the open-file limit could not be raised: {e}"),
    }
}

/// Connections the server takes at once: the configured number, else what the
/// open-file limit leaves after [`RESERVED_DESCRIPTORS`].
fn connection_limit(config: &Config) -> usize {
    if let Some(n) = config.max_connections {
        return n.max(1);
    }
    let soft = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
    soft.saturating_sub(RESERVED_DESCRIPTORS).clamp(16, 1 << 20) as usize
}

/// The answer to a connection beyond the limit.
const SHED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 5\r\nconnection: close\r\ncontent-length: 61\r\n\r\n{\"error\":\"the server is at its connection limit; try again\"}\n";

/// Serves `state` on `listener` until `shutdown` completes, then lets the
/// requests in progress finish (for a few seconds).
///
/// Nagle's algorithm is turned off on every connection: a move's answer and the
/// line that tells the opponent are a few dozen bytes, often written as several
/// frames (HTTP/2 headers then data, WebSocket messages), and holding the second
/// back until the first is acknowledged would add tens of milliseconds.
pub async fn serve_on(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let config = state.config.clone();
    let router = crate::routes::app(state);
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout)
        .keep_alive(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .enable_connect_protocol()
        .keep_alive_interval(Some(Duration::from_secs(30)))
        .keep_alive_timeout(Duration::from_secs(20));
    let builder = Arc::new(builder);
    let slots = Arc::new(Semaphore::new(connection_limit(&config)));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    let clock = Instant::now();
    loop {
        let (tcp, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, or a connection reset before it was
                    // taken: wait a moment rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Ok(permit) = slots.clone().try_acquire_owned() else {
            tokio::spawn(shed(tcp));
            continue;
        };
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY not set: {e}");
        }
        // Being accepted counts: the silence is measured from now.
        let activity = Arc::new(AtomicU64::new(clock.elapsed().as_millis() as u64));
        let io = Watched {
            tcp,
            activity: activity.clone(),
            clock,
            _slot: permit,
        };
        let info = Connection {
            peer,
            trust_proxy: config.trust_proxy,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            trim_trailing_slash(&mut request);
            request.extensions_mut().insert(info);
            router.clone().oneshot(request.map(Body::new))
        });
        let builder = builder.clone();
        let mut stop = stop_rx.clone();
        let idle_after = config.idle_timeout.max(IDLE_CHECK_MIN);
        tokio::spawn(async move {
            let conn = builder.serve_connection_with_upgrades(TokioIo::new(io), service);
            let mut conn = std::pin::pin!(conn);
            // One timer, set for when the connection would have been idle too
            // long and looked at only then; one wait for the shutdown, kept
            // across the loop's turns (not joined and left at every frame).
            let idle = tokio::time::sleep(idle_after);
            let stopping = stop.changed();
            tokio::pin!(idle, stopping);
            loop {
                tokio::select! {
                    done = conn.as_mut() => {
                        if let Err(e) = done {
                            tracing::debug!("connection from {peer}: {e}");
                        }
                        break;
                    }
                    () = &mut idle => {
                        let last = Duration::from_millis(activity.load(Ordering::Relaxed));
                        let silent = clock.elapsed().saturating_sub(last);
                        if silent > idle_after {
                            tracing::debug!("connection from {peer} idle; closed");
                            break;
                        }
                        let again = (idle_after - silent).max(IDLE_CHECK_MIN);
                        idle.as_mut().reset(tokio::time::Instant::now() + again);
                    }
                    _ = &mut stopping => {
                        conn.as_mut().graceful_shutdown();
                        let _ = tokio::time::timeout(SHUTDOWN_GRACE, conn.as_mut()).await;
                        break;
                    }
                }
            }
        });
    }
    let _ = stop_tx.send(true);
    // Let the connections finish what they were doing.
    let deadline = Instant::now() + SHUTDOWN_GRACE;
    while stop_tx.receiver_count() > 1 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// Tells a connection beyond the limit to come back later, and closes it.
async fn shed(mut tcp: TcpStream) {
    let _ = tokio::time::timeout(Duration::from_secs(2), tcp.write_all(SHED)).await;
}

/// A connection that records when bytes last went either way (ms since the
/// server's start), and holds its slot for as long as it lives — upgraded to a
/// WebSocket included.
struct Watched {
    tcp: TcpStream,
    activity: Arc<AtomicU64>,
    clock: Instant,
    _slot: OwnedSemaphorePermit,
}

impl Watched {
    fn touch(&self) {
        self.activity
            .store(self.clock.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.tcp).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.tcp).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_server_on_the_same_sqlite_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("caissa-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("c.db").display());
        let first = lock_database(&url)
            .unwrap()
            .expect("a SQLite file is locked");
        let second = lock_database(&url).err().expect("refused");
        assert!(second.to_string().contains("already using"), "{second}");
        drop(first);
        assert!(lock_database(&url).unwrap().is_some());
        assert!(lock_database("postgres://x/y").unwrap().is_none());
    }

    #[test]
    fn the_shed_answer_is_a_well_formed_503() {
        let text = std::str::from_utf8(SHED).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503"));
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(body.len(), length);
        serde_json::from_str::<serde_json::Value>(body).unwrap();
    }
}
