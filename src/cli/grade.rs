//! `skillgate grade --mode execution|audit --contract FILE [--evidence PATH]...`
//! (seed 003, docs/grade.md). One mode per run; prints the mode's JSON on
//! stdout, and every missing evidence or criterion defect on stderr.

use anyhow::Context as _;
use skillgate::exit::Exit;
use std::path::PathBuf;

/// `grade --help`: what a contract looks like.
const LONG_ABOUT: &str = "\
Reads: the contract (YAML) and only the evidence its boundary lists (files, folders,
trajectories); in audit mode also the SKILL.md files named under `skills`.
Writes: nothing; the mode's JSON on stdout, missing evidence and criterion defects on stderr.
Paths in the contract are relative to the contract file's folder; --evidence paths to the
working directory.

A contract, in short (full reference and examples: docs/grade.md):

  boundary:
    evidence: [out/, session.jsonl]      # B: the only evidence read
    missing: [\"the CI log\"]             # known-missing evidence, reported
  criteria:                              # C: one record per criterion
    - id: report-written
      text: \"A report is written to out/report.md\"
      source: {kind: user_explicit, location: \"task prompt\"}
      check: {file_contains: {path: out/report.md, pattern: \"^# Report\"}}
    - id: no-force-push
      text: \"Never force-push\"
      source: {kind: repository_rule, location: \"CONTRIBUTING.md:12\"}
      check: {predicate: {trajectory: session.jsonl, forbid: {git: push, args: [--force]}}}
  claims:                                # Q: acceptance-affecting claims
    - {claim: \"tests pass\", type: completion, check: {exit_code: {trajectory: session.jsonl, command: \"cargo test*\", equals: 0}}}
  # audit mode: boundary.selection_method + time_range|fixture_boundary,
  # skills: [{name, path: skills/x/SKILL.md, criteria: [ids]}], conversations: [{trajectory: ...}]

Checks: file_exists, file_contains, predicate (SPEC 4.1 grammar), exit_code, manual.

Exit codes: 0 the grade was produced (verdicts are in the JSON); 2 bad flags or an
unreadable/invalid contract (the error names file and line).

Example:
  skillgate grade --mode execution --contract fixtures/grade/contract.yaml";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Grade one execution against its contract (`execution_grade`).
    Execution,
    /// Assess skill effects across conversations (`effectiveness_audit`).
    Audit,
}

#[derive(Debug, clap::Args)]
#[command(after_long_help = LONG_ABOUT)]
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
