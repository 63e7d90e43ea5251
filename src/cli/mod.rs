//! Command-line interface: one file per subcommand. These do the I/O; the
//! library stages stay pure.

use clap::{Parser, Subcommand};
use skillgate::exit::Exit;

pub mod assess;
pub mod capture;
pub mod compose;
pub mod config;
pub mod doctor;
pub mod escalate;
pub mod explain;
pub mod extract;
pub mod federate;
pub mod gate;
pub mod github;
pub mod grade;
pub mod help;
pub mod hook;
pub mod ingest;
pub mod man;
pub mod merge;
pub mod propose;
pub mod refine;
pub mod review;
pub mod ship;
pub mod stats;
pub mod trajectory;
pub mod validate;

/// skillgate — judge agent skills (SKILL.md) by what agents actually did.
#[derive(Debug, Parser)]
#[command(name = "skillgate", version, about, long_about = None, after_long_help = help::TOP)]
pub struct Cli {
    /// More logging (-v info, -vv debug, -vvv trace); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint SKILL.md files against the Agent Skills spec.
    #[command(after_long_help = help::VALIDATE)]
    Validate(validate::Args),
    /// Turn a SKILL.md into constraints; `--write` refreshes the lockfile.
    #[command(after_long_help = help::EXTRACT)]
    Extract(extract::Args),
    /// Show the normalized events of transcripts (never their content).
    #[command(after_long_help = help::TRAJECTORY)]
    Trajectory(trajectory::Args),
    /// Label every constraint against trajectories; exit 1 when a guarded rule broke.
    #[command(after_long_help = help::GATE)]
    Gate(gate::Args),
    /// Print the effective configuration.
    #[command(after_long_help = help::CONFIG)]
    Config(config::Args),
    /// List the proposals for a skill; apply one only with `--apply ID`.
    #[command(after_long_help = help::PROPOSE)]
    Propose(propose::Args),
    /// Decide, rule by rule, what the lockfile says (interactive; `--list` for CI).
    #[command(after_long_help = help::REVIEW)]
    Review(review::Args),
    /// Merge shard results of `gate --shard K/N` into the one-run verdict.
    #[command(after_long_help = help::MERGE)]
    Merge(merge::Args),
    /// Grade a run against a contract (execution grade or effectiveness audit).
    #[command(after_long_help = help::GRADE)]
    Grade(grade::Args),
    /// Aggregate findings.jsonl into assessment.json.
    #[command(after_long_help = help::ASSESS)]
    Assess(assess::Args),
    /// Score one agent session and write a self-contained report.html.
    #[command(after_long_help = help::DOCTOR)]
    Doctor(doctor::Args),
    /// Copy agent sessions into .planning/patterns: actions only, redacted.
    #[command(after_long_help = help::CAPTURE)]
    Capture(capture::Args),
    /// Decode trajectories into the tool-usage database.
    #[command(after_long_help = help::INGEST)]
    Ingest(ingest::Args),
    /// Per-tool usage statistics from the database.
    #[command(after_long_help = help::STATS)]
    Stats(stats::Args),
    /// Mistake patterns of one tool and refinement hints.
    #[command(after_long_help = help::REFINE)]
    Refine(refine::Args),
    /// Propose a tool chain for a goal from observed usage.
    #[command(after_long_help = help::COMPOSE)]
    Compose(compose::Args),
    /// Explain one tool: description, parameters, usage, failures.
    #[command(after_long_help = help::EXPLAIN)]
    Explain(explain::Args),
    /// Publish or fetch refinement events with a federation peer.
    #[command(after_long_help = help::FEDERATE)]
    Federate(federate::Args),
    /// Git hooks: `hook pre-push`, `hook pre-commit`, `hook install`.
    #[command(after_long_help = help::HOOK)]
    Hook(hook::Args),
    /// Validate + gate one skill folder for a release step; prints one JSON verdict.
    #[command(after_long_help = help::SHIP)]
    Ship(ship::Args),
    /// Report a gate run to GitHub (check run, PR comment).
    #[command(after_long_help = help::GITHUB)]
    Github(github::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_long_help = help::COMPLETIONS)]
    Completions(man::CompletionsArgs),
    /// Print the man page (or write one page per subcommand with `--dir`).
    #[command(after_long_help = help::MAN)]
    Man(man::ManArgs),
}

pub fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let default = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .without_time()
        .try_init();
}

pub fn run(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Command::Validate(a) => validate::run(a),
        Command::Extract(a) => extract::run(a),
        Command::Trajectory(a) => trajectory::run(a),
        Command::Gate(a) => gate::run(a),
        Command::Config(a) => config::run(a),
        Command::Propose(a) => propose::run(a),
        Command::Review(a) => review::run(a),
        Command::Grade(a) => grade::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Assess(a) => assess::run(a),
        Command::Doctor(a) => doctor::run(a),
        Command::Capture(a) => capture::run(a),
        Command::Ingest(a) => ingest::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Refine(a) => refine::run(a),
        Command::Compose(a) => compose::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Federate(a) => federate::run(a),
        Command::Hook(a) => hook::run(a),
        Command::Ship(a) => ship::run(a),
        Command::Github(a) => github::run(a),
        Command::Completions(a) => man::completions(a),
        Command::Man(a) => man::man(a),
    }
}
