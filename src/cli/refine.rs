//! `skillgate refine --tool NAME`: mistake patterns of one tool and a
//! refinement proposal (seed 001 `skill.refine`; docs/audit.md). Never patches;
//! `--no-dry-run` records the intent in the audit log.

use super::stats::{now, project_root, Common};
use anyhow::Context;
use serde_json::json;
use skillgate::audit::{format_timestamp, refine, schema};
use skillgate::exit::Exit;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tool: a dot name (`shell.exec`), a raw harness name (`Bash`) or a category (`mcp.github`).
    #[arg(long)]
    pub tool: String,
    /// Record the refinement intent in the audit log (still never patches anything).
    #[arg(long)]
    pub no_dry_run: bool,
    /// Where to look for the tool's SKILL.md or definition (default: the project root).
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let now = format_timestamp(now(args.common.now.as_deref())?);
    let (_cfg, db) = args.common.db.resolve()?;
    let repo = match args.repo {
        Some(r) => r,
        None => project_root()?,
    };
    let dry_run = !args.no_dry_run;
    let conn = if dry_run {
        schema::open_existing(&db)?
    } else {
        Some(schema::open_rw(&db)?)
    };
    let proposal = refine::propose(conn.as_ref(), &args.tool, dry_run, &now, Some(&repo))
        .with_context(|| format!("{}: cannot read the audit database", db.display()))?;
    let mut out = json!({ "proposal": proposal });
    if let (false, Some(conn)) = (dry_run, conn.as_ref()) {
        let id = refine::record_intent(conn, &now, &proposal)
            .with_context(|| format!("{}: cannot record the refinement intent", db.display()))?;
        out["intentRecorded"] = json!({ "auditLogId": id });
    }
    super::stats::print_out(&format!("{}\n", serde_json::to_string_pretty(&out)?))?;
    Ok(Exit::Ok)
}
