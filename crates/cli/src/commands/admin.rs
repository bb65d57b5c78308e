//! `caissa user create|grant|revoke|close` and `caissa token create`: accounts and
//! tokens for operators and tests.

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
    /// Give an account a right: `arbiter` lets it arbitrate any game it does not
    /// play (Laws 12).
    Grant {
        /// The account's name.
        name: String,
        /// The right: arbiter.
        right: String,
        /// Database URL.
        #[arg(long, default_value = "sqlite://caissa.db")]
        db: String,
    },
    /// Close an account for good (it can no longer sign in; its name and
    /// games stay).
    Close {
        /// The account's name.
        name: String,
        /// Database URL.
        #[arg(long, default_value = "sqlite://caissa.db")]
        db: String,
    },
    /// Take a right back.
    Revoke {
        /// The account's name.
        name: String,
        /// The right: arbiter.
        right: String,
        /// Database URL.
        #[arg(long, default_value = "sqlite://caissa.db")]
        db: String,
    },
}

/// The rights an operator can grant.
const RIGHTS: [&str; 1] = [caissa_server::ARBITER_RIGHT];

/// Token commands.
#[derive(clap::Subcommand)]
pub enum TokenCommand {
    /// Create an API token for an account; the token is the last line printed.
    Create {
        /// The account's name.
        name: String,
        /// What the token may do, separated by commas or spaces: board:play
        /// (seeks, games), bot:play (a bot account's games), challenge:read,
        /// challenge:write, or another of lichess's scope names. Default: the
        /// first four.
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

pub(crate) fn block_on<T>(
    f: impl std::future::Future<Output = anyhow::Result<T>>,
) -> anyhow::Result<T> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(f)
}

/// Runs an account command.
pub fn user(cmd: UserCommand) -> anyhow::Result<()> {
    match cmd {
        UserCommand::Create { name, password, db } => create(name, password, db),
        UserCommand::Grant { name, right, db } => change_right(&name, &right, &db, true),
        UserCommand::Revoke { name, right, db } => change_right(&name, &right, &db, false),
        UserCommand::Close { name, db } => super::reports::close_account(&name, &db),
    }
}

fn change_right(name: &str, right: &str, db: &str, grant: bool) -> anyhow::Result<()> {
    if !RIGHTS.contains(&right) {
        anyhow::bail!(
            "unknown right {right:?}: the rights are {}",
            RIGHTS.join(", ")
        );
    }
    block_on(async {
        let store = Store::open(db)
            .await
            .with_context(|| format!("opening {db}"))?;
        let user = store
            .user_by_name(name)
            .await?
            .with_context(|| format!("no user named {name:?}"))?;
        if grant {
            let new = store.grant_right(user.id, right, now()).await?;
            let already = if new { "" } else { " (already held)" };
            println!("granted {right} to {}{already}", user.name);
        } else {
            let held = store.revoke_right(user.id, right).await?;
            let not = if held { "" } else { " (was not held)" };
            println!("revoked {right} from {}{not}", user.name);
        }
        Ok(())
    })
}

fn create(name: String, password: Option<String>, db: String) -> anyhow::Result<()> {
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
