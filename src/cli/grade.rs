//! `skillgate grade --mode execution|audit --contract FILE [--evidence PATH]...`
//! (seed 003, docs/grade.md). One mode per run; prints the mode's JSON.

use skillgate::exit::Exit;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Grade one execution against its contract (`execution_grade`).
    Execution,
    /// Assess skill effects across conversations (`effectiveness_audit`).
    Audit,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The mode (required; an invalid one is rejected with exit 2).
    #[arg(long, value_enum)]
    pub mode: Mode,
    /// The contract file (YAML).
    #[arg(long, value_name = "FILE")]
    pub contract: PathBuf,
    /// Evidence added to the frozen boundary (repeatable), relative to the working directory.
    #[arg(long, value_name = "PATH")]
    pub evidence: Vec<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let contract = skillgate::grade::read_contract(&args.contract)?;
    let out = match args.mode {
        Mode::Execution => skillgate::grade::execution(&contract, &args.evidence, &cwd),
        Mode::Audit => skillgate::grade::audit(&contract, &args.evidence, &cwd),
    };
    println!("{}", serde_json::to_string(&out)?);
    Ok(Exit::Ok)
}
