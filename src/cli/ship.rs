//! `skillgate ship SKILL_DIR`: the release step of a skill-forge loop —
//! validate + gate one skill, print one JSON verdict object on stdout (also
//! on errors), and exit 0 (ship), 1 (blocked: validation errors or
//! fail-closed), 2 (input error), 3 (nothing to measure). Any nonzero code
//! blocks the publish (docs/integrations.md).

use skillgate::exit::Exit;
use skillgate::gate::{self, GateOptions};
use skillgate::parse::walk::walk_path;
use skillgate::parse::{validate, Skill};
use skillgate::release::ship::{decide, ShipVerdict, Validation};
use skillgate::render::report::Report;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill's folder (or its SKILL.md).
    #[arg(value_name = "SKILL_DIR")]
    pub skill: PathBuf,
    /// Trajectory files or folders (repeatable); replaces the configured roots.
    #[arg(long, value_name = "DIR")]
    pub trajectories: Vec<PathBuf>,
    /// Configuration file (default: `.skillgate.yaml` found walking up from the working directory).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Folder for the Markdown report (default: as `gate`).
    #[arg(long, value_name = "DIR")]
    pub report_dir: Option<PathBuf>,
    /// Do not write the Markdown report.
    #[arg(long)]
    pub no_report: bool,
    /// The revision the change is measured from: a change to frontmatter or
    /// non-normative text only since it is not re-gated, as in the pre-push
    /// hook (default: the branch's upstream, else HEAD; e.g. `origin/main` in CI).
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
}

/// `Some(reason)` when the skill's change since the base touches no rule
/// (release::normative): the skill is then not re-gated, as in the hook.
fn not_regated(
    path: &Path,
    base: Option<&str>,
    config: &skillgate::config::Config,
) -> Option<String> {
    use skillgate::release::normative;
    let dir = path.parent()?;
    let repo = git2::Repository::discover(dir).ok()?;
    let workdir = repo.workdir()?.canonicalize().ok()?;
    let rel = path
        .canonicalize()
        .ok()?
        .strip_prefix(&workdir)
        .ok()?
        .to_path_buf();
    let (spec, commit) = match base {
        Some(b) => (
            b.to_string(),
            repo.revparse_single(b).ok()?.peel_to_commit().ok()?,
        ),
        None => match repo
            .revparse_single("@{upstream}")
            .and_then(|o| o.peel_to_commit())
        {
            Ok(c) => ("the upstream".to_string(), c),
            Err(_) => ("HEAD".to_string(), repo.head().ok()?.peel_to_commit().ok()?),
        },
    };
    let changed = normative::changed_since(&repo, commit.id(), rel.parent()?)?;
    if changed.is_empty() || changed.iter().any(|c| *c != rel) {
        return None;
    }
    let old = normative::text_at(&repo, commit.id(), &rel)?;
    let new = std::fs::read_to_string(path).ok()?;
    let lexicon = skillgate::extract::Lexicon::with_overrides(&config.lexicon).ok()?;
    normative::touches_no_rule(&rel, &old, &new, &lexicon).then(|| {
        format!(
            "not re-gated: since {spec} only frontmatter or non-normative text of {} changed (no rule changed), so no new run is needed",
            rel.display()
        )
    })
}

fn folder_name(path: &Path) -> Option<String> {
    let parent = path.parent()?;
    if let Some(n) = parent.file_name() {
        return Some(n.to_string_lossy().into_owned());
    }
    let dir = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    std::fs::canonicalize(dir)
        .ok()?
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
}

fn emit(s: &ShipVerdict) -> anyhow::Result<Exit> {
    println!("{}", serde_json::to_string_pretty(s)?);
    eprintln!(
        "skillgate ship: {} (exit {}): {}",
        if s.ship { "ship" } else { "blocked" },
        s.exit_code,
        s.reasons.join("; ")
    );
    Ok(s.exit())
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let fail = |message: String, validation: Validation| {
        emit(&decide(validation, None, Some(message), None))
    };

    let walk = match walk_path(&args.skill) {
        Ok(w) => w,
        Err(e) => return fail(e.to_string(), Validation::default()),
    };
    let path = match walk.skills.as_slice() {
        [one] => one.clone(),
        [] => {
            return fail(
                format!("{}: no SKILL.md", args.skill.display()),
                Validation::default(),
            )
        }
        many => {
            return fail(
                format!(
                    "{}: holds {} skills; ship takes one skill folder",
                    args.skill.display(),
                    many.len()
                ),
                Validation::default(),
            )
        }
    };
    let skill = match Skill::read(&path) {
        Ok(s) => s,
        Err(e) => return fail(e.to_string(), Validation::default()),
    };
    let validation = Validation::new(validate::validate_in(&skill, folder_name(&path).as_deref()));

    let config = match skillgate::config::Config::load_or_discover(args.config.as_deref(), &cwd) {
        Ok(c) => c,
        Err(e) => return fail(format!("{e:#}"), validation),
    };
    if let Some(reason) = not_regated(&path, args.base.as_deref(), &config) {
        let mut s = decide(validation, None, None, None);
        s.reasons.insert(0, reason);
        return emit(&s);
    }
    let options = GateOptions {
        trajectories: args.trajectories.clone(),
        cwd: cwd.clone(),
    };
    let verdict = match gate::run_gate(std::slice::from_ref(&path), &options, &config) {
        Ok(mut v) if v.len() == 1 => v.remove(0),
        Ok(v) => {
            return fail(
                format!("the gate judged {} skills, expected one", v.len()),
                validation,
            )
        }
        Err(e) => return fail(e.to_string(), validation),
    };

    let mut report = None;
    if !args.no_report && !verdict.trajectories.valid.is_empty() {
        let now = time::OffsetDateTime::now_utc();
        let stamp = now
            .format(time::macros::format_description!(
                "[year][month][day]T[hour][minute][second]Z"
            ))
            .unwrap_or_default();
        let r = Report {
            generated_at: now
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default(),
        };
        let dir = match &args.report_dir {
            Some(d) => cwd.join(d),
            None => gate::report_dir_for(Path::new(&verdict.skill.path), &config, &cwd),
        };
        match gate::write_report(&dir, &verdict.skill.name, &stamp, &r.render_one(&verdict)) {
            Ok(p) => report = Some(gate::display_path(&p, &cwd)),
            Err(e) => {
                return fail(
                    format!("{}: cannot write the report: {e}", dir.display()),
                    validation,
                )
            }
        }
    }
    let decided = decide(validation, Some(verdict), None, report);
    let exit = emit(&decided)?;
    // Seed 004: a fail-closed verdict is escalated to the operator (`escalate:`).
    if decided.verdict.as_deref() == Some("fail-closed") {
        super::escalate::on_fail_closed(
            &config.escalate,
            true,
            &serde_json::to_string_pretty(&decided)?,
        );
    }
    Ok(exit)
}
