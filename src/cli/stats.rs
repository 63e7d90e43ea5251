//! `skillgate stats`: per-tool usage statistics from the audit database (seed
//! 001 `usage-stats`; docs/audit.md). Also holds the small helpers the audit
//! subcommands share: the project root, the database path, "now".

use anyhow::Context;
use skillgate::audit::stats::{self, ToolFilter};
use skillgate::audit::{self, schema, AuditDefaults, Window};
use skillgate::exit::Exit;
use std::path::{Path, PathBuf};
use time::OffsetDateTime;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only tools whose dot name or raw name contains this (case-insensitive).
    /// Without it: the top 20 tools by number of calls.
    #[arg(long, value_name = "SUBSTR")]
    pub tool: Option<String>,
    /// Look-back window in days; 0 means all time.
    #[arg(long, default_value_t = 7, value_name = "DAYS")]
    pub window_days: u32,
    #[command(flatten)]
    pub common: Common,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
}

/// Options every audit read command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// The audit database (default: .skillgate/audit.db under the project root:
    /// the git repository holding the working directory, else the working directory).
    #[arg(long, value_name = "FILE", env = "SKILLGATE_AUDIT_DB")]
    pub db: Option<PathBuf>,
    /// The time windows end at (RFC 3339); default: the clock.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Json,
    Table,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let now = now(args.common.now.as_deref())?;
    let db = db_path(args.common.db.as_deref())?;
    let conn = schema::open_existing(&db)?;
    let filter = match &args.tool {
        Some(t) => ToolFilter::Substring(t.clone()),
        None => ToolFilter::All,
    };
    let report = stats::usage(
        conn.as_ref(),
        &filter,
        Window::new(args.window_days, now),
        AuditDefaults::default().top_n,
    )
    .with_context(|| format!("{}: cannot read the audit database", db.display()))?;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Table => print!("{}", stats::render_table(&report)),
    }
    Ok(Exit::Ok)
}

/// The project root: the nearest folder upwards holding `.git`, else the working directory.
pub fn project_root() -> anyhow::Result<PathBuf> {
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    Ok(cwd
        .ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&cwd)
        .to_path_buf())
}

/// `--db`, else the default under the project root.
pub fn db_path(arg: Option<&Path>) -> anyhow::Result<PathBuf> {
    match arg {
        Some(p) => Ok(p.to_path_buf()),
        None => Ok(project_root()?.join(AuditDefaults::default().db)),
    }
}

/// `--now`, else the clock.
pub fn now(arg: Option<&str>) -> anyhow::Result<OffsetDateTime> {
    match arg {
        None => Ok(OffsetDateTime::now_utc()),
        Some(s) => audit::parse_timestamp(s).ok_or_else(|| {
            anyhow::anyhow!(
                "--now {s:?}: not an RFC 3339 timestamp (example: 2025-06-10T12:00:00Z)"
            )
        }),
    }
}
