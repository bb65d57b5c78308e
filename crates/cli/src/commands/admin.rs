//! `caissa user create` and `caissa token create`: account administration for
//! operators and tests.

use anyhow::Context;
use caissa_server::auth;
use caissa_store::Store;

/// Account commands.
#[derive(clap::Subcommand)]
pub enum UserCommand {
    /// Create an account.
    Create {
        /// The name (unique, any case).
        name: String,
        /// A password for logging in on the web (none: API tokens only).
        #[arg(long)]
        password: Option<String>,
        /// Database URL.
        #[arg(long, default_value = "sqlite://caissa.db")]
        db: String,
    },
}

/// Token commands.
#[derive(clap::Subcommand)]
pub enum TokenCommand {
    /// Create an API token for an account; the token is the last line printed.
    Create {
        /// The account's name.
        name: String,
        /// What the token may do, separated by commas or spaces: board:play
        /// (seeks, games), challenge:read, challenge:write. Default: all of them.
        #[arg(long)]
        scopes: Option<String>,
        /// What the token is for, shown in the owner's list of tokens.
        #[arg(long, default_value = "created with caissa token create")]
        description: String,
        /// Database URL.
        #[arg(long, default_value = "sqlite://caissa.db")]
        db: String,
    },
}

fn now() -> i64 {
    caissa_server::now_ms() as i64
}

fn block_on<T>(f: impl std::future::Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(f)
}

/// Runs an account command.
pub fn user(cmd: UserCommand) -> anyhow::Result<()> {
    let UserCommand::Create { name, password, db } = cmd;
    if name.is_empty()
        || name.len() > 30
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        anyhow::bail!("invalid name {name:?}: use 1 to 30 letters, digits, '_' or '-'");
    }
    block_on(async {
        let store = Store::open(&db)
            .await
            .with_context(|| format!("opening {db}"))?;
        let hash = password
            .as_deref()
            .map(auth::hash_password)
            .transpose()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let user = store.create_user(&name, hash.as_deref(), now()).await?;
        println!("created user {} (id {})", user.name, user.id);
        Ok(())
    })
}

/// Runs a token command.
pub fn token(cmd: TokenCommand) -> anyhow::Result<()> {
    let TokenCommand::Create {
        name,
        scopes,
        description,
        db,
    } = cmd;
    let scopes = match scopes.as_deref() {
        Some(text) => auth::parse_scopes(text).map_err(|e| anyhow::anyhow!("--scopes: {e}"))?,
        None => auth::SCOPES.to_vec(),
    };
    block_on(async {
        let store = Store::open(&db)
            .await
            .with_context(|| format!("opening {db}"))?;
        let user = store
            .user_by_name(&name)
            .await?
            .with_context(|| format!("no user named {name:?}"))?;
        let token = auth::issue_token(&store, user.id, &scopes, &description).await?;
        eprintln!(
            "token for {} with scopes {}",
            user.name,
            auth::scopes_text(&scopes)
        );
        println!("{token}");
        Ok(())
    })
}
