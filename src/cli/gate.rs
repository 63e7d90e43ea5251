//! `skillgate gate`: label every constraint of each skill against its
//! trajectories, print a table or JSON (or SARIF, annotations, JUnit), write
//! the Markdown report when asked (`--report`, `--report-dir`), and exit
//! 0 (pass), 1 (fail-closed), 2 (input error) or 3 (nothing to measure).

use skillgate::config::Config;
use skillgate::exit::Exit;
use skillgate::gate::{self, GateOptions};
use skillgate::render::json::Json;
use skillgate::render::junit::Junit;
use skillgate::render::markdown::MarkdownTable;
use skillgate::render::report::Report;
use skillgate::render::sarif::Sarif;
use skillgate::render::Renderer;
use skillgate::score::worst_exit;
use std::path::{Path, PathBuf};

/// Output formats of `gate` on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A readable Markdown table.
    Md,
    /// JSON: `{"version": 1, "exit_code": N, "skills": [...]}` (schemas/gate.schema.json).
    Json,
    /// SARIF 2.1.0 for code scanning (docs/integrations.md).
    Sarif,
    /// GitHub workflow-command annotations; the Markdown summary is appended to $GITHUB_STEP_SUMMARY when set.
    Github,
    /// JUnit XML: one test case per constraint.
    Junit,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// SKILL.md files, skill folders, or trees holding skills.
    #[arg(required_unless_present = "changed_since", value_name = "SKILL.md|DIR")]
    pub skills: Vec<PathBuf>,
    /// Only the skills touched between the merge base with REV and HEAD
    /// (pull requests); the SKILL.md|DIR arguments, if any, narrow them.
    #[arg(long, value_name = "REV")]
    pub changed_since: Option<String>,
    /// Trajectory files or folders (repeatable); replaces the configured roots.
    #[arg(long, value_name = "DIR")]
    pub trajectories: Vec<PathBuf>,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value = "md")]
    pub format: Format,
    /// Also write the timestamped Markdown report of each measured skill
    /// (off by default: a local run leaves no file behind; `ship` writes it).
    #[arg(long)]
    pub report: bool,
    /// Folder for the Markdown reports; implies `--report` (default: the
    /// configured one, else `.planning/patterns/skill-coverage` of the
    /// skill's repository).
    #[arg(long, value_name = "DIR")]
    pub report_dir: Option<PathBuf>,
    /// Do not write the Markdown report (the default; kept for scripts).
    #[arg(long, hide = true, conflicts_with_all = ["report", "report_dir"])]
    pub no_report: bool,
    /// Write one `.patch` file per proposal into DIR (docs/proposals.md).
    #[arg(long, value_name = "DIR")]
    pub proposals: Option<PathBuf>,
    /// Configuration file (default: `.skillgate.yaml` found walking up from the working directory).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Record the per-constraint results in the audit database, so `stats`
    /// can show which tools' calls caused scope-tagged violations (docs/audit.md).
    #[arg(long)]
    pub record: bool,
    /// Judge only this share of the trajectories (`K/N`, e.g. `2/4`) and print
    /// a shard result for `skillgate merge` (with `--format json`; docs/shards.md).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<skillgate::shard::Shard>,
    /// The audit database for `--record` (default: as for `skillgate stats`).
    #[arg(
        long,
        value_name = "FILE",
        env = "SKILLGATE_AUDIT_DB",
        requires = "record"
    )]
    pub db: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    // Wall time of the run, for JUnit's `time` (the clock is read here only).
    let started = std::time::Instant::now();
    let cwd = std::env::current_dir()?;
    let config = Config::load_or_discover(args.config.as_deref(), &cwd)?;
    let options = GateOptions {
        trajectories: args.trajectories.clone(),
        cwd: cwd.clone(),
    };
    let skills = match &args.changed_since {
        Some(rev) => changed_skills(rev, &args.skills, &config, &cwd)?,
        None => args.skills.clone(),
    };
    if let Some(shard) = args.shard {
        if args.format != Format::Json || args.proposals.is_some() || args.record {
            eprintln!(
                "error: --shard {shard} prints a shard result for `skillgate merge`: use it with --format json, \
                 and ask `skillgate merge` for other formats, proposals and reports"
            );
            return Ok(Exit::Error);
        }
        let r = gate::run_shard(&skills, &options, &config, shard)?;
        println!("{}", serde_json::to_string_pretty(&r)?);
        let judged: usize = r.skills.iter().map(|s| s.entries.len()).sum();
        let total: usize = r.skills.iter().map(|s| s.total).sum();
        eprintln!(
            "shard {shard}: {judged} of {total} (skill, file) pair(s) judged here over {} skill(s); `skillgate merge` gives the verdict",
            r.skills.len()
        );
        return Ok(Exit::Ok);
    }
    let mut verdicts = gate::run_gate(&skills, &options, &config)?;
    skillgate::propose::attach(&mut verdicts, &cwd, &config)?;
    if let Some(dir) = &args.proposals {
        for path in skillgate::propose::write_patches(&verdicts, &cwd.join(dir))? {
            eprintln!("proposal: {}", gate::display_path(&path, &cwd));
        }
    }

    // The clock is read here, never in the stages.
    let now = time::OffsetDateTime::now_utc();
    let stamp = now
        .format(time::macros::format_description!(
            "[year][month][day]T[hour][minute][second]Z"
        ))
        .unwrap_or_default();
    let generated_at = now
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();

    if args.record {
        let db_args = super::stats::DbArgs {
            db: args.db.clone(),
            config: args.config.clone(),
        };
        let (_cfg, db) = db_args.resolve()?;
        let rows =
            skillgate::audit::gate_results::rows_from_verdicts(&verdicts, &generated_at, &cwd);
        skillgate::audit::gate_results::record_gate_results(&db, &rows)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        eprintln!(
            "recorded {} result(s) in {}",
            rows.len(),
            gate::display_path(&db, &cwd)
        );
    }

    if !args.no_report && (args.report || args.report_dir.is_some()) {
        let report = Report { generated_at };
        for v in verdicts.iter().filter(|v| !v.trajectories.valid.is_empty()) {
            let dir = match &args.report_dir {
                Some(d) => cwd.join(d),
                None => gate::report_dir_for(Path::new(&v.skill.path), &config, &cwd),
            };
            let path = gate::write_report(&dir, &v.skill.name, &stamp, &report.render_one(v))
                .map_err(|e| anyhow::anyhow!("{}: cannot write the report: {e}", dir.display()))?;
            eprintln!("report: {}", gate::display_path(&path, &cwd));
        }
    }

    write_verdicts(args.format, &verdicts, started)?;
    // Seed 004: a fail-closed verdict is escalated to the operator (`escalate:`).
    let fail_closed = verdicts.iter().any(|v| v.verdict.as_str() == "fail-closed");
    if fail_closed && !config.escalate.is_empty() {
        super::escalate::on_fail_closed(&config.escalate, true, &Json.render(&verdicts));
    }
    for v in verdicts.iter().filter(|v| v.trajectories.valid.is_empty()) {
        eprintln!(
            "nothing to measure for `{}`: no valid trajectory ({} discarded) — capture a run first",
            v.skill.name,
            v.trajectories.discarded.len()
        );
    }
    Ok(worst_exit(&verdicts))
}

/// Print the verdicts in `format` on stdout, streamed through one buffer:
/// the JSON of a large corpus (every trajectory's label for every
/// constraint) is never held whole in memory.
pub fn write_verdicts(
    format: Format,
    verdicts: &[skillgate::score::SkillVerdict],
    started: std::time::Instant,
) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match format {
        Format::Md => MarkdownTable.write_to(verdicts, &mut out)?,
        Format::Json => Json.write_to(verdicts, &mut out)?,
        Format::Sarif => Sarif.write_to(verdicts, &mut out)?,
        Format::Github => out.write_all(super::github::github_format(verdicts)?.as_bytes())?,
        Format::Junit => Junit {
            seconds: started.elapsed().as_secs_f64(),
        }
        .write_to(verdicts, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

/// `--changed-since REV`: the SKILL.md paths touched in
/// `merge-base(REV, HEAD)..HEAD`, narrowed to `filters`, shown relative to
/// `cwd`; says on stderr what was found.
fn changed_skills(
    rev: &str,
    filters: &[PathBuf],
    config: &Config,
    cwd: &Path,
) -> anyhow::Result<Vec<PathBuf>> {
    let changed = skillgate::release::changed::changed_since(cwd, rev, filters, config)?;
    let skills = changed.skill_paths(cwd);
    for d in &changed.touched.deleted {
        eprintln!(
            "skillgate: {}: skill deleted since {rev}, nothing to gate",
            d.display()
        );
    }
    if skills.is_empty() {
        eprintln!(
            "skillgate: no skill changed since {rev} ({}: {} changed path(s)); nothing to gate",
            changed.range.describe(),
            changed.paths.len()
        );
    } else {
        eprintln!(
            "skillgate: {} skill(s) changed since {rev} ({})",
            skills.len(),
            changed.range.describe()
        );
    }
    Ok(skills)
}
