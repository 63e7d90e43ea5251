//! `skillgate hook pre-push` (run by git or by the pre-commit framework),
//! `skillgate hook pre-commit` (the pre-commit framework's commit stage) and
//! `skillgate hook install`.
//!
//! Exit codes: 0 the push (commit) goes ahead (no skill touched, or nothing
//! blocks — a skill with nothing to measure is a note, not a block); 1 a
//! touched skill fails closed; 2 the check could not run (bad pre-push input,
//! a revision that is not here, an invalid SKILL.md, lockfile or
//! configuration), or — under the pre-commit framework, which names only the
//! first pushed ref — another local ref the push may send fails closed, so
//! the verdict of the push cannot be known. git aborts on any nonzero code.

use anyhow::Context as _;
use git2::{Oid, Repository};
use skillgate::config::Config;
use skillgate::exit::Exit;
use skillgate::gate::{self, GateOptions};
use skillgate::release::hook::{self as install_mod, Action};
use skillgate::release::push::{parse_push_lines, PushKind, PushRef};
use skillgate::release::range::{self, Range};
use skillgate::release::summary::{hook_summary, Gated, HookKind};
use skillgate::release::touched::{touched_skills, Why};
use skillgate::release::{normative, tree, ReleaseError};
use skillgate::render::report::Report;
use skillgate::score::SkillVerdict;
use std::io::IsTerminal;
use std::path::{Component, Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: HookCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum HookCommand {
    /// Run as git's pre-push hook: gate the skills the pushed commits touch
    /// (reads git's ref lines on stdin, or the pre-commit framework's
    /// PRE_COMMIT_* variables).
    #[command(after_long_help = PRE_PUSH_HELP)]
    PrePush(PrePushArgs),
    /// Run at the pre-commit framework's commit stage: gate the skills the
    /// given (staged) files touch; with `--all-files`, every skill.
    #[command(after_long_help = PRE_COMMIT_HELP)]
    PreCommit(PreCommitArgs),
    /// Write the pre-push hook into this repository (respects core.hooksPath).
    #[command(after_long_help = INSTALL_HELP)]
    Install(InstallArgs),
}

const PRE_PUSH_HELP: &str = "\
Reads:  git's pre-push lines on stdin (`<local ref> <sha> <remote ref> <sha>`), or
        PRE_COMMIT_FROM_REF / PRE_COMMIT_TO_REF / PRE_COMMIT_LOCAL_BRANCH /
        PRE_COMMIT_REMOTE_BRANCH / PRE_COMMIT_REMOTE_NAME under the pre-commit
        framework; the pushed commits' skills, lockfiles and trajectories.
Writes: a summary on stderr; a Markdown report per skill only with --report.
Exit:   0 the push goes ahead; 1 a touched skill fails closed; 2 the check could
        not run, or (pre-commit) another local ref the push may send fails closed.

Example:
  skillgate hook pre-push origin < pushed-refs.txt   # what the installed hook runs";

const PRE_COMMIT_HELP: &str = "\
Reads:  the FILES given (the pre-commit framework passes the staged files, or
        every file with `pre-commit run --all-files`); the working tree's skills,
        lockfiles and trajectories.
Writes: a summary on stderr; a Markdown report per skill only with --report.
Exit:   0 the commit goes ahead; 1 a touched skill fails closed; 2 the check
        could not run.

Example:
  skillgate hook pre-commit skills/tidy-branches/SKILL.md";

const INSTALL_HELP: &str = "\
Reads:  the repository's hooks folder (core.hooksPath when set).
Writes: the pre-push hook script; a hook skillgate did not write is kept as
        pre-push.skillgate-backup (only with --force).
Exit:   0 installed (or already up to date); 2 a foreign hook is there (use
        --force), or not a git repository.

Example:
  skillgate hook install";

#[derive(Debug, clap::Args)]
pub struct PrePushArgs {
    /// The remote's name, as git passes it (new-ref ranges hide refs/remotes/<remote>/*).
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
pub struct PreCommitArgs {
    /// Changed files, relative to the working directory (the pre-commit framework passes them).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Gate every skill of the repository, whatever the files.
    #[arg(long)]
    pub all: bool,
    /// Configuration file (default: `.skillgate.yaml` found walking up from the working tree's root).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Also write the Markdown report of each gated skill.
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
        HookCommand::PreCommit(a) => pre_commit(a),
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
    /// One line: the ref, the range, the rule.
    what: String,
    /// The ref (short), to tell groups apart.
    refname: String,
    range: Range,
    /// False for a local ref the pre-commit framework did not name: it may
    /// or may not be part of this push.
    certain: bool,
}

fn short(o: &str) -> String {
    o.chars().take(7).collect()
}

fn zeros(like: &str) -> String {
    "0".repeat(if like.len() == 64 { 64 } else { 40 })
}

/// The job of one pushed ref (`None`: nothing to check, noted).
fn ref_job(
    repo: &Repository,
    r: &PushRef,
    remote: Option<&str>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Option<Job>> {
    if r.kind() == PushKind::Delete {
        notes.push(format!("{}: deletion, nothing to check", r.remote_ref));
        return Ok(None);
    }
    let Some(range) = range::push_range(repo, r, remote)? else {
        notes.push(format!("{}: no new commit, nothing to check", r.describe()));
        return Ok(None);
    };
    Ok(Some(Job {
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
        refname: r.remote_ref.clone(),
        range,
        certain: true,
    }))
}

fn resolve(repo: &Repository, rev: &str, var: &str) -> anyhow::Result<Oid> {
    let obj = repo.revparse_single(rev).map_err(|e| {
        ReleaseError::Input(format!(
            "{var}={rev}: not a revision of this repository ({}); the pushed range cannot be known",
            e.message()
        ))
    })?;
    Ok(obj
        .peel_to_commit()
        .map_err(|e| ReleaseError::Input(format!("{var}={rev}: not a commit ({})", e.message())))?
        .id())
}

/// The jobs of a push run by the pre-commit framework, which consumes git's
/// stdin and passes the *first* pushed ref that brings commits in
/// PRE_COMMIT_LOCAL_BRANCH / PRE_COMMIT_REMOTE_BRANCH, with
/// PRE_COMMIT_FROM_REF / PRE_COMMIT_TO_REF (unset when that ref's history
/// reaches a root commit). That ref is gated exactly as the native hook
/// gates it; every other local branch or tag with commits the remote lacks
/// is gated too, as a ref the push may also send (`certain: false`).
fn pre_commit_push_jobs(
    repo: &Repository,
    remote: Option<&str>,
    local: &str,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<Job>> {
    let remote_branch = env_nonempty("PRE_COMMIT_REMOTE_BRANCH").unwrap_or_else(|| local.into());
    let to = match env_nonempty("PRE_COMMIT_TO_REF") {
        Some(t) => resolve(repo, &t, "PRE_COMMIT_TO_REF")?,
        None => resolve(repo, local, "PRE_COMMIT_LOCAL_BRANCH")?,
    };
    let to_hex = to.to_string();
    // FROM is the remote's id when pre-commit found it here; for a new ref it
    // is the parent of the first new commit, the same range a new ref gets.
    let tracking = remote.and_then(|rm| {
        remote_branch
            .strip_prefix("refs/heads/")
            .map(|b| format!("refs/remotes/{rm}/{b}"))
    });
    let remote_exists = tracking
        .as_deref()
        .is_some_and(|t| repo.find_reference(t).is_ok());
    let remote_oid = match env_nonempty("PRE_COMMIT_FROM_REF") {
        Some(f) if remote_exists => resolve(repo, &f, "PRE_COMMIT_FROM_REF")?.to_string(),
        _ => zeros(&to_hex),
    };
    let pushed = PushRef {
        local_ref: local.to_string(),
        local_oid: to_hex,
        remote_ref: remote_branch,
        remote_oid,
    };
    let mut jobs: Vec<Job> = ref_job(repo, &pushed, remote, notes)?.into_iter().collect();

    // The refs pre-commit did not name. `HEAD` stands for the branch it points at.
    let mut skip = vec![local.to_string()];
    if local == "HEAD" {
        if let Some(name) = repo.head().ok().and_then(|h| h.name().map(str::to_string)) {
            skip.push(name);
        }
    }
    for (name, range) in range::unpushed_refs(repo, remote, &skip)? {
        jobs.push(Job {
            what: format!(
                "{name} {} ({}, {} commit(s)) — a local ref with commits the remote lacks; pre-commit names only {local}, so it is gated in case this push sends it",
                range.describe(),
                range.rule.as_str(),
                range.commits
            ),
            refname: name,
            range,
            certain: false,
        });
    }
    Ok(jobs)
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
    if from.is_some() != to.is_some() {
        return Err(ReleaseError::Input(
            "PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF must be set together".into(),
        )
        .into());
    }
    if let Some(local) = env_nonempty("PRE_COMMIT_LOCAL_BRANCH") {
        // A real push through the pre-commit framework.
        return pre_commit_push_jobs(repo, remote, &local, notes);
    }
    match (from, to) {
        (Some(f), Some(t)) => {
            // `pre-commit run --hook-stage pre-push --from-ref F --to-ref T`.
            let range = range::merge_base_range(repo, &f, &t)?;
            return Ok(vec![Job {
                what: format!(
                    "PRE_COMMIT_FROM_REF..PRE_COMMIT_TO_REF {} ({}, {} commit(s))",
                    range.describe(),
                    range.rule.as_str(),
                    range.commits
                ),
                refname: t,
                range,
                certain: true,
            }]);
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
                refname: "HEAD".into(),
                range,
                certain: true,
            }]);
        }
        _ => {}
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
        out.extend(ref_job(repo, r, remote, notes)?);
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

/// `s` quoted for a POSIX shell when it needs it.
fn sh(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:@+,".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A command that reproduces the verdicts gated on `root`: the same skills,
/// the same configuration, on the same files — a fresh worktree of the
/// commit when the hook gated an export of it.
fn reproduce(
    verdicts: &[SkillVerdict],
    config: Option<&Path>,
    cwd: &Path,
    root: &Path,
    exported: Option<Oid>,
) -> String {
    let mut gate = String::from("skillgate gate");
    for v in verdicts {
        gate.push(' ');
        gate.push_str(&sh(&v.skill.path));
    }
    if let Some(c) = config {
        let abs = if c.is_absolute() {
            c.to_path_buf()
        } else {
            cwd.join(c)
        };
        gate.push_str(&format!(" --config {}", sh(&abs.to_string_lossy())));
    }
    match exported {
        Some(to) => {
            let id = short(&to.to_string());
            format!(
                "(d=$(mktemp -d); git worktree add -q --detach \"$d\" {id} && (cd \"$d\" && {gate}); s=$?; git worktree remove --force \"$d\"; exit $s)"
            )
        }
        None if same_dir(cwd, root) => gate,
        None => format!("(cd {} && {gate})", sh(&root.to_string_lossy())),
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    let c = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    c(a) == c(b)
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

    // One gate run per pushed commit (two refs pushing the same commit share
    // it), in the order git listed the refs: never by hash, which would make
    // the summary's order depend on commit times.
    let mut by_target: indexmap::IndexMap<Oid, Vec<Job>> = indexmap::IndexMap::new();
    for j in jobs {
        by_target.entry(j.range.to).or_default().push(j);
    }
    let mut groups: Vec<(Gated, bool)> = Vec::new();
    let mut changed_total = 0usize;
    let mut quiet_uncertain = 0usize;
    let mut keep_alive = Vec::new();
    let mut reports_at: Vec<(PathBuf, Config, Vec<SkillVerdict>)> = Vec::new();
    for (to, jobs) in by_target {
        let certain = jobs.iter().any(|j| j.certain);
        let mut changed = Vec::new();
        for j in &jobs {
            changed.extend(range::changed_paths(&repo, &j.range)?);
        }
        changed.sort();
        changed.dedup();
        if certain {
            changed_total += changed.len();
        }
        if changed.is_empty() {
            continue;
        }
        let (root, guard) = tree_root(&repo, to)?;
        let exported = guard.is_some();
        keep_alive.extend(guard);
        let config = Config::load_or_discover(args.config.as_deref(), &root)?;
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
        if certain {
            for d in &touched.deleted {
                notes.push(format!("{}: skill deleted, nothing to gate", d.display()));
            }
        }
        if touched.is_empty() {
            if !certain {
                quiet_uncertain += 1;
            }
            continue;
        }
        let mut what: Vec<String> = jobs.iter().map(|j| j.what.clone()).collect();
        if exported {
            what.push(format!(
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
        let refs: Vec<&str> = jobs.iter().map(|j| j.refname.as_str()).collect();
        let cmd = reproduce(
            &v,
            args.config.as_deref(),
            &cwd,
            &root,
            exported.then_some(to),
        );
        groups.push((
            Gated {
                what,
                refs: refs.join(", "),
                verdicts: v,
                reproduce: cmd,
            },
            certain,
        ));
    }

    for n in &notes {
        eprintln!("skillgate: {n}");
    }
    if quiet_uncertain > 0 {
        eprintln!(
            "skillgate: {quiet_uncertain} other local ref(s) with commits the remote lacks touch no skill"
        );
    }
    if groups.is_empty() {
        eprintln!(
            "skillgate: no skill touched by this push ({changed_total} changed path(s)); nothing to gate"
        );
        return Ok(Exit::Ok);
    }
    let shown: Vec<Gated> = groups.iter().map(|(g, _)| g.clone()).collect();
    eprint!("{}", hook_summary(HookKind::PrePush, &shown));
    for (root, config, vs) in &reports_at {
        write_reports(root, config, vs)?;
    }
    let blocks = |g: &Gated| g.verdicts.iter().any(|v| v.exit() == Exit::Fail);
    if groups.iter().any(|(g, certain)| *certain && blocks(g)) {
        return Ok(Exit::Fail);
    }
    let unknown: Vec<&str> = groups
        .iter()
        .filter(|(g, certain)| !*certain && blocks(g))
        .map(|(g, _)| g.refs.as_str())
        .collect();
    if !unknown.is_empty() {
        eprintln!(
            "skillgate: the pre-commit framework names only the first pushed ref, and {} fails closed: whether this push sends it cannot be known, so the push is refused (exit 2). \
Fix it, or push it separately, or use the native hook, which sees every pushed ref (`skillgate hook install`), or skip the check once with `SKIP=skillgate git push`.",
            unknown.join(", ")
        );
        return Ok(Exit::Error);
    }
    Ok(Exit::Ok)
}

/// `relative` (to `cwd`) as a path relative to the working tree's `root`, lexically.
fn root_relative(file: &Path, cwd: &Path, root: &Path) -> Option<PathBuf> {
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let abs = if file.is_absolute() {
        file.to_path_buf()
    } else {
        canon(cwd).join(file)
    };
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c.as_os_str()),
        }
    }
    out.strip_prefix(canon(root)).ok().map(Path::to_path_buf)
}

fn pre_commit(args: PreCommitArgs) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let repo = open_repo(&cwd)?;
    let root = repo
        .workdir()
        .ok_or_else(|| {
            ReleaseError::Input(
                "`skillgate hook pre-commit` needs a working tree (not a bare repository)".into(),
            )
        })?
        .to_path_buf();
    let config = Config::load_or_discover(args.config.as_deref(), &root)?;
    let (skills, what) = if args.all {
        (
            vec![root.clone()],
            "every skill of the working tree (--all)".to_string(),
        )
    } else {
        let mut changed: Vec<PathBuf> = args
            .files
            .iter()
            .filter_map(|f| root_relative(f, &cwd, &root))
            .collect();
        changed.sort();
        changed.dedup();
        let touched = touched_skills(&root, &changed, &config);
        for d in &touched.deleted {
            eprintln!("skillgate: {}: skill deleted, nothing to gate", d.display());
        }
        if touched.is_empty() {
            eprintln!(
                "skillgate: no skill touched by the {} file(s) given; nothing to gate",
                changed.len()
            );
            return Ok(Exit::Ok);
        }
        (
            touched.paths(),
            format!("{} changed file(s) in the working tree", changed.len()),
        )
    };
    let options = GateOptions {
        trajectories: Vec::new(),
        cwd: root.clone(),
    };
    let verdicts = gate::run_gate(&skills, &options, &config).with_context(|| {
        "the gate could not run on the skills this commit touches (fix it, or skip the check once with `git commit --no-verify`)".to_string()
    })?;
    if verdicts.is_empty() {
        eprintln!("skillgate: no skill in the working tree; nothing to gate");
        return Ok(Exit::Ok);
    }
    let cmd = reproduce(&verdicts, args.config.as_deref(), &cwd, &root, None);
    let g = Gated {
        what: vec![what],
        refs: "working tree".into(),
        verdicts,
        reproduce: cmd,
    };
    eprint!(
        "{}",
        hook_summary(HookKind::PreCommit, std::slice::from_ref(&g))
    );
    if args.report {
        write_reports(&root, &config, &g.verdicts)?;
    }
    Ok(if g.verdicts.iter().any(|v| v.exit() == Exit::Fail) {
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
