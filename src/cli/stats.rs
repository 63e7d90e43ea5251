//! `skillgate stats`: per-tool usage statistics from the audit database (seed
//! 001 `usage-stats`; docs/audit.md). Also holds the small helpers the audit
//! subcommands share: the project root, the database path, "now".

use anyhow::Context;
use skillgate::audit::stats::{self, ToolFilter};
use skillgate::audit::{self, schema, AuditDefaults, Window};
use skillgate::config::Config;
use skillgate::exit::Exit;
use std::path::PathBuf;
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

/// Where the database is: every audit command takes these.
#[derive(Debug, Clone, clap::Args)]
pub struct DbArgs {
    /// The audit database (default: `audit.db` of the configuration, else
    /// .skillgate/audit.db under the project root: the git repository holding
    /// the working directory, else the working directory).
    #[arg(long, value_name = "FILE", env = "SKILLGATE_AUDIT_DB")]
    pub db: Option<PathBuf>,
    /// Configuration file (default: .skillgate.yaml found upwards from the working directory).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl DbArgs {
    /// The configuration, then the database path (flag or env, config, default).
    pub fn resolve(&self) -> anyhow::Result<(Config, PathBuf)> {
        let cfg = match &self.config {
            Some(p) => Config::load(p)?,
            None => Config::discover_and_load(
                &std::env::current_dir().context("cannot read the working directory")?,
            )?,
        };
        let db = match (&self.db, &cfg.audit.db) {
            (Some(p), _) => p.clone(),
            (None, Some(p)) => p.clone(),
            (None, None) => project_root()?.join(AuditDefaults::default().db),
        };
        Ok((cfg, db))
    }
}

/// Options of the read commands with a time window.
#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    #[command(flatten)]
    pub db: DbArgs,
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
    let (_cfg, db) = args.common.db.resolve()?;
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
    if report.stats.is_empty() && args.window_days > 0 {
        window_note(conn.as_ref(), args.window_days);
    }
    match args.format {
        Format::Json => print_out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?,
        Format::Table => print_out(&stats::render_table(&report))?,
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

/// On stderr, when a window is empty but the database is not: say when the
/// newest call was, and how to see all time.
pub fn window_note(conn: Option<&rusqlite::Connection>, days: u32) {
    if let Some(Ok(Some(newest))) = conn.map(stats::newest_call) {
        eprintln!(
            "note: no calls in the last {days} days; the database's newest call is from {newest} (--window-days 0 covers all time)"
        );
    }
}

/// Write to stdout; a closed pipe (`| head`) ends the output quietly instead of panicking.
pub fn print_out(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
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
