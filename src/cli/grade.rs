//! `skillgate grade --mode execution|audit --contract FILE [--evidence PATH]...`
//! (seed 003, docs/grade.md). One mode per run; prints the mode's JSON on
//! stdout, and every missing evidence or criterion defect on stderr.

use anyhow::Context as _;
use skillgate::exit::Exit;
use std::path::PathBuf;

// `grade --help`: the contract sketch is `help::GRADE` (src/cli/help.rs).

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
    /// The contract file (YAML; its paths are relative to its folder). See docs/grade.md.
    #[arg(long, value_name = "FILE")]
    pub contract: PathBuf,
    /// Evidence added to the frozen boundary (repeatable), relative to the working directory.
    #[arg(long, value_name = "PATH")]
    pub evidence: Vec<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let contract = skillgate::grade::read_contract(&args.contract)?;
    let contract_abs = cwd.join(&args.contract);
    let base = contract_abs
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|| cwd.clone());
    let extra: Vec<PathBuf> = args.evidence.iter().map(|e| cwd.join(e)).collect();
    let graded = match args.mode {
        Mode::Execution => skillgate::grade::execution(&contract, &extra, &base),
        Mode::Audit => skillgate::grade::audit(&contract, &extra, &base),
    };
    for w in &graded.warnings {
        eprintln!("warning: {}: {w}", args.contract.display());
    }
    let text = serde_json::to_string(&graded.json).context("serializing the grade")?;
    println!("{text}");
    Ok(Exit::Ok)
}
