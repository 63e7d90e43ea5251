//! `skillgate explain TOOL`: a SKILL.md-style markdown block for one tool (seed
//! 001 `skill.explain`; docs/audit.md).

use super::stats::{now, Common};
use anyhow::Context;
use skillgate::audit::{explain, schema, Window};
use skillgate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tool: a dot name (`shell.exec`), a raw harness name (`Bash`) or a category (`mcp.github`).
    pub tool: String,
    /// Usage look-back window in days; 0 means all time.
    #[arg(long, default_value_t = 7, value_name = "DAYS")]
    pub window_days: u32,
    #[command(flatten)]
    pub common: Common,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let now = now(args.common.now.as_deref())?;
    let (_cfg, db) = args.common.db.resolve()?;
    let conn = schema::open_existing(&db)?;
    let md = explain::explain(
        conn.as_ref(),
        &args.tool,
        Window::new(args.window_days, now),
    )
    .with_context(|| format!("{}: cannot read the audit database", db.display()))?;
    if args.window_days > 0 && md.contains(" 0 calls, 0% success") {
        super::stats::window_note(conn.as_ref(), args.window_days);
    }
    super::stats::print_out(&md)?;
    Ok(Exit::Ok)
}
