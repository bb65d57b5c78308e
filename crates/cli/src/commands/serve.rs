//! `caissa serve`: run the server.

use std::net::SocketAddr;

/// Arguments of `caissa serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database URL: sqlite://<path> (created if missing).
    #[arg(long, default_value = "sqlite://caissa.db")]
    db: String,
}

/// Runs until Ctrl-C.
pub fn run(args: Args) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(caissa_server::serve(args.addr, &args.db))
        .map_err(|e| anyhow::anyhow!("{e}"))
}
