//! `skillgate propose SKILL.md [--apply ID]`: re-run the gate, list the
//! proposals (docs/proposals.md), and apply one only when asked, atomically.

use skillgate::config::Config;
use skillgate::exit::Exit;
use skillgate::gate::{self, GateOptions};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per proposal, then its diff.
    Text,
    /// The proposals as a JSON array.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The SKILL.md (or skill folder) to propose changes for.
    #[arg(value_name = "SKILL.md|DIR")]
    pub skill: PathBuf,
    /// Trajectory files or folders (repeatable); replaces the configured roots.
    #[arg(long, value_name = "DIR")]
    pub trajectories: Vec<PathBuf>,
    /// Apply the proposal with this id (atomically). Without it, nothing is written.
    #[arg(long, value_name = "ID")]
    pub apply: Option<String>,
    /// Output format of the listing.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Configuration file (default: `.skillgate.yaml` found walking up from the working directory).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let config = Config::load_or_discover(args.config.as_deref(), &cwd)?;
    let options = GateOptions {
        trajectories: args.trajectories.clone(),
        cwd: cwd.clone(),
    };
    let mut verdicts = gate::run_gate(std::slice::from_ref(&args.skill), &options, &config)?;
    skillgate::propose::attach(&mut verdicts, &cwd, &config)?;
    let all: Vec<&skillgate::score::Proposal> =
        verdicts.iter().flat_map(|v| v.proposals.iter()).collect();

    if let Some(id) = &args.apply {
        let Some(p) = all.iter().find(|p| &p.id == id) else {
            let ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
            anyhow::bail!(
                "{}: no proposal `{id}` (the gate proposes: {})",
                args.skill.display(),
                if ids.is_empty() {
                    "nothing".to_string()
                } else {
                    ids.join(", ")
                }
            );
        };
        let path = skillgate::propose::apply(p, &cwd)?;
        eprintln!("applied `{}` to {}", p.id, gate::display_path(&path, &cwd));
        if p.kind == "mark-manual" {
            eprintln!(
                "a person must now write `{}` under `- id: {}` in {} (the comment marks the place); until then the rule still blocks",
                skillgate::propose::manual_line(),
                p.constraint,
                gate::display_path(&path, &cwd)
            );
        }
        return Ok(Exit::Ok);
    }

    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&all)?),
        Format::Text => {
            if all.is_empty() {
                println!("no proposals");
            }
            for p in &all {
                println!(
                    "{}\t{}\t{}\t{} ({})",
                    p.id, p.kind, p.target, p.constraint, p.trace.trigger
                );
                for l in &p.trace.locations {
                    println!("  at {l}");
                }
                print!("{}", p.patch);
            }
        }
    }
    Ok(Exit::Ok)
}
