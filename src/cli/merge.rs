//! `skillgate merge SHARD.json...`: the verdict one unsharded `skillgate gate`
//! gives, from the shard results of `gate --shard K/N --format json`
//! (docs/shards.md). Reads only the shard results (and the skills, to check
//! their hashes and to propose edits); exits with the gate's codes.

use anyhow::Context;
use skillgate::exit::Exit;
use skillgate::gate::{self, GateOptions, ShardResult};
use skillgate::render::json::Json;
use skillgate::render::Renderer;
use skillgate::score::worst_exit;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Shard results written by `skillgate gate --shard K/N --format json`, all K of one N.
    #[arg(required = true, value_name = "SHARD.json")]
    pub shards: Vec<PathBuf>,
    /// Output format on stdout (as `skillgate gate`).
    #[arg(long, value_enum, default_value = "md")]
    pub format: super::gate::Format,
    /// Write one `.patch` file per proposal into DIR (docs/proposals.md).
    #[arg(long, value_name = "DIR")]
    pub proposals: Option<PathBuf>,
    /// Configuration file (default: `.skillgate.yaml` found walking up from the working directory).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let started = std::time::Instant::now();
    let config = skillgate::config::Config::load_or_discover(args.config.as_deref(), &cwd)?;
    let mut shards = Vec::with_capacity(args.shards.len());
    for path in &args.shards {
        let bytes =
            skillgate::fsutil::read_bounded(path, skillgate::fsutil::MAX_JSON_TRANSCRIPT_BYTES)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let r: ShardResult = serde_json::from_slice(&bytes).map_err(|e| {
            anyhow::anyhow!(
                "{}:{}: not a skillgate shard result ({}); write one with `skillgate gate --shard K/N --format json`",
                path.display(),
                e.line(),
                match e.classify() {
                    serde_json::error::Category::Io => "unreadable",
                    serde_json::error::Category::Syntax => "invalid JSON",
                    serde_json::error::Category::Data => "wrong shape",
                    serde_json::error::Category::Eof => "truncated",
                }
            )
        })?;
        shards.push((path.clone(), r));
    }
    let options = GateOptions {
        trajectories: Vec::new(),
        cwd: cwd.clone(),
    };
    let mut verdicts = match gate::merge_shards(&shards, &options, &config) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(Exit::Error);
        }
    };
    skillgate::propose::attach(&mut verdicts, &cwd, &config).context("proposals")?;
    if let Some(dir) = &args.proposals {
        for path in skillgate::propose::write_patches(&verdicts, &cwd.join(dir))? {
            eprintln!("proposal: {}", gate::display_path(&path, &cwd));
        }
    }
    super::gate::write_verdicts(args.format, &verdicts, started)?;
    // As `gate`: a fail-closed verdict is escalated to the operator (`escalate:`).
    if verdicts.iter().any(|v| v.verdict.as_str() == "fail-closed") && !config.escalate.is_empty() {
        super::escalate::on_fail_closed(&config.escalate, true, &Json.render(&verdicts));
    }
    Ok(worst_exit(&verdicts))
}
