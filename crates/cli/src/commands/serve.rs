//! `caissa serve`: run the server.

use std::net::SocketAddr;

/// Arguments of `caissa serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, env = "CAISSA_ADDR", default_value = DEFAULT_ADDR)]
    addr: SocketAddr,
    /// Database URL: sqlite://<path> (created if missing) or
    /// postgres://[user[:password]@]host[:port]/database (which must exist).
    #[arg(long, env = "CAISSA_DB", default_value = DEFAULT_DB)]
    db: String,
    /// Serve the web app from this folder instead of the copy built into the binary
    /// (for working on the front end).
    #[arg(long)]
    web_dir: Option<std::path::PathBuf>,
    /// The server is behind a reverse proxy: take each client's address from the
    /// proxy's last `X-Forwarded-For` entry (for the per-address limits on
    /// registrations, logins and guests).
    #[arg(long, env = "CAISSA_TRUST_PROXY")]
    trust_proxy: bool,
    /// Count this machine's own loopback address in the per-address limits too
    /// (by default local scripts and test suites are not limited).
    #[arg(long)]
    limit_loopback: bool,
    /// Close a connection after this many seconds with no bytes either way.
    #[arg(long, default_value_t = 60)]
    idle_timeout_secs: u64,
    /// Most connections at once; beyond, newcomers are told 503 (default: what
    /// the open-file limit allows).
    #[arg(long)]
    max_connections: Option<usize>,
    /// Threads serving connections and running games. 1: one event loop, which
    /// costs the least CPU per move (nothing is handed between threads); more
    /// spread a busy node's network work over several cores. Password hashing,
    /// the engine, tournament pairing and SQLite run on threads of their own
    /// either way.
    #[arg(long, env = "CAISSA_THREADS", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// With several nodes on one PostgreSQL database: where the other nodes
    /// reach this one, `host:port` (default: the address listened on, or
    /// 127.0.0.1 and its port when listening on every interface).
    #[arg(long, env = "CAISSA_NODE_ADDRESS")]
    node_address: Option<String>,
    /// With several nodes: seconds a node's lease lasts unrenewed; a node lost
    /// for this long has its games adopted by the others.
    #[arg(long, env = "CAISSA_LEASE_SECS", default_value_t = 5.0)]
    lease_secs: f64,
}

const DEFAULT_ADDR: &str = "127.0.0.1:8080";
const DEFAULT_DB: &str = "sqlite://caissa.db";

impl Args {
    /// The defaults, or `CAISSA_ADDR` and `CAISSA_DB` from the environment (plain
    /// `caissa` with no command).
    pub fn from_env() -> Args {
        use clap::Parser;
        #[derive(Parser)]
        struct Only {
            #[command(flatten)]
            args: Args,
        }
        match Only::try_parse_from(["caissa"]) {
            Ok(only) => only.args,
            Err(e) => e.exit(),
        }
    }
}

/// A lease of `secs` seconds: at least 0.5 s (renewed every third of it, so a
/// shorter one would be lost to one slow database round trip), at most a day.
fn lease(secs: f64) -> anyhow::Result<std::time::Duration> {
    if !(0.5..=86_400.0).contains(&secs) {
        anyhow::bail!("--lease-secs: a lease lasts 0.5 to 86400 seconds, not {secs}");
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// Runs until Ctrl-C.
pub fn run(args: Args) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        // A log nobody reads (stderr closed) must not stop the server: a failed
        // write is dropped, not reported on the same closed stderr (a panic).
        .log_internal_errors(false)
        .init();
    let config = caissa_server::Config {
        web_dir: args.web_dir,
        trust_proxy: args.trust_proxy,
        limit_loopback: args.limit_loopback,
        idle_timeout: std::time::Duration::from_secs(args.idle_timeout_secs.max(1)),
        max_connections: args.max_connections,
        node_address: args.node_address,
        lease_ttl: lease(args.lease_secs)?,
        ..caissa_server::Config::default()
    };
    let runtime = if args.threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(args.threads.into())
            .enable_all()
            .build()?
    };
    runtime
        .block_on(caissa_server::serve(args.addr, &args.db, config))
        .map_err(|e| anyhow::anyhow!("{e}"))
}
