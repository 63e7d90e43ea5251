//! `skillgate compose --goal "…"`: propose a tool chain from observed usage and
//! the built-in catalog (seed 001 `skill.compose`; docs/audit.md). Never executes.

use super::stats::DbArgs;
use anyhow::Context;
use serde_json::json;
use skillgate::audit::compose::{self, DEFAULT_MAX_CHAIN, MAX_CHAIN};
use skillgate::audit::schema;
use skillgate::exit::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The goal, in plain words.
    #[arg(long)]
    pub goal: String,
    /// Longest chain to propose (1-10).
    #[arg(long, default_value_t = DEFAULT_MAX_CHAIN as u64, value_parser = clap::value_parser!(u64).range(1..=MAX_CHAIN as u64), value_name = "N")]
    pub max_chain_length: u64,
    #[command(flatten)]
    pub db: DbArgs,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let (_cfg, db) = args.db.resolve()?;
    let conn = schema::open_existing(&db)?;
    let proposal = compose::compose(conn.as_ref(), &args.goal, args.max_chain_length as usize)
        .with_context(|| format!("{}: cannot read the audit database", db.display()))?;
    super::stats::print_out(&format!(
        "{}\n",
        serde_json::to_string_pretty(&json!({ "proposal": proposal }))?
    ))?;
    Ok(Exit::Ok)
}
