//! `skillgate hook pre-push` (run by git) and `skillgate hook install`.
//!
//! pre-push exit codes: 0 the push goes ahead (no skill touched, or nothing
//! blocks — a skill with nothing to measure is a note, not a block); 1 a
//! touched skill fails closed; 2 the check could not run (bad pre-push input,
//! a revision that is not here, an invalid SKILL.md, lockfile or
//! configuration). git aborts the push on any nonzero code.

use anyhow::Context as _;
use git2::{Oid, Repository};
use skillgate::config::Config;
use skillgate::exit::Exit;
use skillgate::gate::{self, GateOptions};
use skillgate::release::hook::{self as install_mod, Action};
use skillgate::release::push::{parse_push_lines, PushKind};
use skillgate::release::range::{self, Range};
use skillgate::release::summary::push_summary;
use skillgate::release::touched::{touched_skills, Why};
use skillgate::release::{normative, tree, ReleaseError};
use skillgate::render::report::Report;
use skillgate::score::SkillVerdict;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: HookCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum HookCommand {
    /// Run as git's pre-push hook: gate the skills the pushed commits touch
    /// (reads git's ref lines on stdin, or PRE_COMMIT_FROM_REF/PRE_COMMIT_TO_REF).
    PrePush(PrePushArgs),
    /// Write the pre-push hook into this repository (respects core.hooksPath).
    Install(InstallArgs),
}

#[derive(Debug, clap::Args)]
pub struct PrePushArgs {
    /// The remote's name, as git passes it (new-branch ranges hide refs/remotes/<remote>/*).
    pub remote: Option<String>,
    /// The remote's URL, as git passes it (unused).
    pub url: Option<String>,
    /// Configuration file (default: `.skillgate.yaml` found walking up from the checked tree).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Also write the Markdown report of each gated skill (off by default: a
    /// push should not leave new files in the working tree).
    #[arg(long)]
    pub report: bool,
}

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Replace a pre-push hook that skillgate did not write (it is kept as a backup).
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    match args.command {
        HookCommand::PrePush(a) => pre_push(a),
        HookCommand::Install(a) => install(a),
    }
}

fn env_nonempty(k: &str) -> Option<String> {
    std::env::var(k).ok().filter(|v| !v.trim().is_empty())
}

fn open_repo(cwd: &Path) -> anyhow::Result<Repository> {
    Repository::open_from_env()
        .or_else(|_| Repository::discover(cwd))
        .with_context(|| format!("{}: not inside a git repository", cwd.display()))
}

/// One range to check, described for people.
struct Job {
    what: String,
    range: Range,
}

fn short(o: &str) -> String {
    o.chars().take(7).collect()
}

/// The ranges of this push: from the pre-commit framework's variables, or
/// from git's stdin lines. Deletions and refs bringing no commit are noted.
fn jobs(
    repo: &Repository,
    remote: Option<&str>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<Job>> {
    let from = env_nonempty("PRE_COMMIT_FROM_REF");
    let to = env_nonempty("PRE_COMMIT_TO_REF");
    match (from, to) {
        (Some(f), Some(t)) => {
            let range = range::merge_base_range(repo, &f, &t)?;
            return Ok(vec![Job {
                what: format!(
                    "PRE_COMMIT_FROM_REF..PRE_COMMIT_TO_REF {} ({}, {} commit(s))",
                    range.describe(),
                    range.rule.as_str(),
                    range.commits
                ),
                range,
            }]);
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(ReleaseError::Input(
                "PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF must be set together".into(),
            )
            .into())
        }
        (None, None) if env_nonempty("PRE_COMMIT").is_some() => {
            // Run by the pre-commit framework without a push
            // (`pre-commit run --hook-stage pre-push`): check the whole tree.
            let range = range::whole_tree(repo, "HEAD")?;
            return Ok(vec![Job {
                what: format!(
                    "HEAD {} (no push range from pre-commit: whole tree)",
                    range.describe()
                ),
                range,
            }]);
        }
        (None, None) => {}
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(ReleaseError::Input(
            "`skillgate hook pre-push` reads git's pre-push lines on stdin (`<local ref> <local sha> <remote ref> <remote sha>`); git runs it from the hook that `skillgate hook install` writes".into(),
        )
        .into());
    }
    // git writes one short line per pushed ref: a bounded read, so a hostile
    // or runaway producer cannot grow memory (docs/reliability.md)
    let bytes =
        skillgate::fsutil::read_all_bounded(stdin.lock(), skillgate::fsutil::MAX_STDIN_BYTES)
            .map_err(|e| {
                ReleaseError::Input(format!("reading the pre-push lines on stdin: {e}"))
            })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ReleaseError::Input("the pre-push lines on stdin are not UTF-8".into()))?;
    let refs = parse_push_lines(&text)?;
    let mut out = Vec::new();
    for r in &refs {
        if r.kind() == PushKind::Delete {
            notes.push(format!("{}: deletion, nothing to check", r.remote_ref));
            continue;
        }
        match range::push_range(repo, r, remote)? {
            None => notes.push(format!("{}: no new commit, nothing to check", r.describe())),
            Some(range) => out.push(Job {
                what: format!(
                    "{} {} ({}, {} commit(s){})",
                    r.describe(),
                    range.describe(),
                    range.rule.as_str(),
                    range.commits,
                    if r.kind() == PushKind::Update && range.rule == range::Rule::Rewrite {
                        format!("; remote was {}", short(&r.remote_oid))
                    } else {
                        String::new()
                    }
                ),
                range,
            }),
        }
    }
    Ok(out)
}

/// A temporary folder removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The folder holding the files of commit `to`: the working tree when it is
/// checked out, else a fresh export (removed when the guard is dropped).
fn tree_root(repo: &Repository, to: Oid) -> anyhow::Result<(PathBuf, Option<TempDir>)> {
    if let Some(w) = tree::worktree_for(repo, to) {
        return Ok((w, None));
    }
    let dir = std::env::temp_dir().join(format!(
        "skillgate-push-{}-{}",
        std::process::id(),
        short(&to.to_string())
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).with_context(|| {
        format!(
            "{}: cannot create a folder to export the pushed commit",
            dir.display()
        )
    })?;
    let guard = TempDir(dir.clone());
    let export = tree::export_commit(repo, to, &dir)?;
    tracing::info!(
        files = export.files,
        skipped = export.skipped.len(),
        "exported {to}"
    );
    Ok((dir, Some(guard)))
}

fn load_config(explicit: Option<&Path>, root: &Path) -> anyhow::Result<Config> {
    super::gate::load_config(explicit, root)
}

fn pre_push(args: PrePushArgs) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let repo = open_repo(&cwd)?;
    let remote = args
        .remote
        .clone()
        .or_else(|| env_nonempty("PRE_COMMIT_REMOTE_NAME"));
    let mut notes = Vec::new();
    let jobs = jobs(&repo, remote.as_deref(), &mut notes)?;

    // One gate run per pushed commit (two refs pushing the same commit share it).
    let mut by_target: BTreeMap<Oid, Vec<Job>> = BTreeMap::new();
    for j in jobs {
        by_target.entry(j.range.to).or_default().push(j);
    }
    let mut verdicts: Vec<SkillVerdict> = Vec::new();
    let mut checked = Vec::new();
    let mut changed_total = 0usize;
    let mut keep_alive = Vec::new();
    let mut reports_at: Vec<(PathBuf, Config, Vec<SkillVerdict>)> = Vec::new();
    for (to, jobs) in by_target {
        let mut changed = Vec::new();
        for j in &jobs {
            changed.extend(range::changed_paths(&repo, &j.range)?);
        }
        changed.sort();
        changed.dedup();
        changed_total += changed.len();
        if changed.is_empty() {
            continue;
        }
        let (root, guard) = tree_root(&repo, to)?;
        let exported = guard.is_some();
        keep_alive.extend(guard);
        let config = load_config(args.config.as_deref(), &root)?;
        let mut touched = touched_skills(&root, &changed, &config);
        // A change to frontmatter or non-normative text only is not re-gated
        // (the same rule as `ship`; release::normative).
        let lexicon = skillgate::extract::Lexicon::with_overrides(&config.lexicon)
            .unwrap_or_else(|_| skillgate::extract::Lexicon::builtin());
        let skip: Vec<PathBuf> = touched
            .skills
            .iter()
            .filter(|(_, why)| why.as_slice() == [Why::Folder])
            .filter_map(|(skill, _)| {
                let rel = skill.strip_prefix(&root).ok()?;
                let folder = rel.parent()?;
                let only_skill_md = changed
                    .iter()
                    .filter(|c| c.starts_with(folder))
                    .all(|c| c == rel);
                let same_rules = jobs.iter().all(|j| {
                    let (Some(from), Some(new)) =
                        (j.range.from, normative::text_at(&repo, to, rel))
                    else {
                        return false;
                    };
                    normative::text_at(&repo, from, rel)
                        .is_some_and(|old| normative::touches_no_rule(rel, &old, &new, &lexicon))
                });
                (only_skill_md && same_rules).then(|| skill.clone())
            })
            .collect();
        for s in &skip {
            touched.skills.remove(s);
            notes.push(format!(
                "{}: frontmatter or non-normative text only: not re-gated (no rule changed)",
                s.strip_prefix(&root).unwrap_or(s).display()
            ));
        }
        for d in &touched.deleted {
            notes.push(format!("{}: skill deleted, nothing to gate", d.display()));
        }
        if touched.is_empty() {
            continue;
        }
        for j in &jobs {
            checked.push(j.what.clone());
        }
        if exported {
            checked.push(format!(
                "(commit {} is not checked out: gated on an export of it)",
                short(&to.to_string())
            ));
        } else {
            let mut roots: Vec<PathBuf> = touched
                .skills
                .keys()
                .filter_map(|s| s.parent().map(Path::to_path_buf))
                .collect();
            roots.extend(config.file.clone());
            roots.push(root.join(skillgate::config::DEFAULT_TRAJECTORIES));
            if let Some(t) = &config.trajectories {
                roots.extend(t.iter().cloned());
            }
            let dirty = tree::uncommitted(&repo, &roots);
            if !dirty.is_empty() {
                let shown: Vec<&str> = dirty.iter().take(3).map(String::as_str).collect();
                notes.push(format!(
                    "uncommitted changes are part of this check but not of the push: {}{}",
                    shown.join(", "),
                    if dirty.len() > 3 {
                        format!(" (+{} more)", dirty.len() - 3)
                    } else {
                        String::new()
                    }
                ));
            }
        }
        for (skill, why) in &touched.skills {
            let whys: Vec<&str> = why.iter().map(|w: &Why| w.as_str()).collect();
            tracing::info!(skill = %skill.display(), "touched: {}", whys.join(", "));
        }
        let options = GateOptions {
            trajectories: Vec::new(),
            cwd: root.clone(),
        };
        let v = gate::run_gate(&touched.paths(), &options, &config).with_context(|| {
            "the gate could not run on the skills this push touches (fix it, or skip the check once with `git push --no-verify`)".to_string()
        })?;
        if args.report && !exported {
            reports_at.push((root.clone(), config.clone(), v.clone()));
        }
        verdicts.extend(v);
    }

    for n in &notes {
        eprintln!("skillgate: {n}");
    }
    if verdicts.is_empty() {
        eprintln!(
            "skillgate: no skill touched by this push ({changed_total} changed path(s)); nothing to gate"
        );
        return Ok(Exit::Ok);
    }
    eprint!("{}", push_summary(&verdicts, &checked));
    for (root, config, vs) in &reports_at {
        write_reports(root, config, vs)?;
    }
    Ok(if verdicts.iter().any(|v| v.exit() == Exit::Fail) {
        Exit::Fail
    } else {
        Exit::Ok
    })
}

fn write_reports(root: &Path, config: &Config, verdicts: &[SkillVerdict]) -> anyhow::Result<()> {
    let now = time::OffsetDateTime::now_utc();
    let stamp = now
        .format(time::macros::format_description!(
            "[year][month][day]T[hour][minute][second]Z"
        ))
        .unwrap_or_default();
    let report = Report {
        generated_at: now
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default(),
    };
    for v in verdicts.iter().filter(|v| !v.trajectories.valid.is_empty()) {
        let dir = gate::report_dir_for(Path::new(&v.skill.path), config, root);
        let path = gate::write_report(&dir, &v.skill.name, &stamp, &report.render_one(v))
            .map_err(|e| anyhow::anyhow!("{}: cannot write the report: {e}", dir.display()))?;
        eprintln!("report: {}", gate::display_path(&path, root));
    }
    Ok(())
}

/// True when `name` is an executable file on PATH.
fn on_path(name: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|d| d.join(name).is_file())
}

fn install(args: InstallArgs) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let repo = Repository::discover(&cwd)
        .with_context(|| format!("{}: not inside a git repository", cwd.display()))?;
    let installed = match install_mod::install(&repo, args.force) {
        Ok(i) => i,
        Err(e @ ReleaseError::ForeignHook { .. }) => {
            eprintln!("error: {e}");
            return Ok(Exit::Error);
        }
        Err(e) => return Err(e.into()),
    };
    let shown = gate::display_path(&installed.path, &cwd);
    let via = if installed.hooks_path_config {
        " (the folder core.hooksPath names)"
    } else {
        ""
    };
    match &installed.action {
        Action::Created => println!("skillgate: pre-push hook installed at {shown}{via}"),
        Action::Updated => println!("skillgate: pre-push hook updated at {shown}{via}"),
        Action::Unchanged => {
            println!("skillgate: pre-push hook already up to date at {shown}{via}")
        }
        Action::Replaced { backup } => println!(
            "skillgate: pre-push hook installed at {shown}{via}; the previous hook is kept at {}",
            gate::display_path(backup, &cwd)
        ),
    }
    let bin = std::env::var("SKILLGATE").unwrap_or_else(|_| "skillgate".into());
    let found = if bin.contains('/') {
        Path::new(&bin).is_file()
    } else {
        on_path(&bin)
    };
    if !found {
        eprintln!(
            "note: `{bin}` is not on PATH: the hook refuses pushes until it is (or set SKILLGATE to the binary's path)"
        );
    }
    Ok(Exit::Ok)
}

/// `gate --changed-since REV`: the SKILL.md paths touched in
/// `merge-base(REV, HEAD)..HEAD`, narrowed to `filters`, shown relative to
/// `cwd`; says on stderr what was found.
pub fn changed_skills(
    rev: &str,
    filters: &[PathBuf],
    config: &Config,
    cwd: &Path,
) -> anyhow::Result<Vec<PathBuf>> {
    let changed = skillgate::release::changed::changed_since(cwd, rev, filters, config)?;
    let canon_cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let skills: Vec<PathBuf> = changed
        .touched
        .paths()
        .into_iter()
        .map(|p| {
            let c = p.canonicalize().unwrap_or_else(|_| p.clone());
            match c.strip_prefix(&canon_cwd) {
                Ok(rel) => rel.to_path_buf(),
                Err(_) => p,
            }
        })
        .collect();
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
