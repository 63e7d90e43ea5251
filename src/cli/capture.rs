//! `skillgate capture`: copy agent sessions into `.planning/patterns/<skill>/`,
//! actions only and redacted by default (`docs/capture.md`).
//!
//! The I/O around [`skillgate::capture`]: the working directory, HOME and the
//! default session folders, the hook's input, the prompt before editing an
//! agent's configuration, and the summary lines.

use anyhow::{anyhow, bail, Context};
use skillgate::capture::{self, hook, Outcome, Request, Selection, SkipReason};
use skillgate::exit::Exit;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

/// The environment variable that overrides the default session folders
/// (shared with `doctor`).
const SESSIONS_ROOTS_ENV: &str = "SKILLGATE_SESSIONS_ROOTS";

/// The most a hook's JSON input may weigh.
const HOOK_INPUT_LIMIT: u64 = 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Agent {
    Claude,
    Codex,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Harness {
    Claude,
    Codex,
    Gemini,
    Auto,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("which").args(["last", "since", "session"])))]
pub struct Args {
    /// Transcript files or folders to capture (default: search the harnesses' session folders).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Keep sessions that loaded this skill (default: any of the repository's skills).
    #[arg(long, value_name = "NAME")]
    pub skill: Option<String>,
    /// The N most recent qualifying sessions.
    #[arg(long, value_name = "N")]
    pub last: Option<usize>,
    /// Sessions modified on or after DATE (YYYY-MM-DD or RFC 3339, UTC).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// The session with this id.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// A folder to search instead of the default ones (repeatable; also SKILLGATE_SESSIONS_ROOTS).
    #[arg(long = "sessions-root", value_name = "DIR")]
    pub sessions_roots: Vec<PathBuf>,
    /// Restrict the default folders to one harness.
    #[arg(long, value_enum, default_value_t = Harness::Auto)]
    pub harness: Harness,
    /// Keep sessions whatever directory they ran in (default: this repository's only).
    #[arg(long)]
    pub any_cwd: bool,
    /// Keep the whole transcript (redacted) instead of actions only: it carries content.
    #[arg(long)]
    pub full: bool,
    /// Say what would be written; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Commit the new captures (and only them) in the repository.
    #[arg(long, conflicts_with = "dry_run")]
    pub commit: bool,
    /// The patterns folder (default: the configured trajectory root, else <repo>/.planning/patterns).
    #[arg(long, value_name = "DIR")]
    pub into: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Add a hook to the agent's own configuration so every session is captured when it ends.
    #[arg(long, value_enum, value_name = "AGENT", conflicts_with_all = ["uninstall_hook", "hook_input"])]
    pub install_hook: Option<Agent>,
    /// Remove exactly the hook `--install-hook` added.
    #[arg(long, value_enum, value_name = "AGENT", conflicts_with = "hook_input")]
    pub uninstall_hook: Option<Agent>,
    /// Apply the configuration change without asking.
    #[arg(long)]
    pub yes: bool,
    /// Run as the agent's hook: read the session from its JSON (Claude Code: stdin; Codex: last argument).
    #[arg(long, value_enum, value_name = "AGENT")]
    pub hook_input: Option<Agent>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    if let Some(agent) = args.install_hook {
        return edit_hook(agent, true, args.yes);
    }
    if let Some(agent) = args.uninstall_hook {
        return edit_hook(agent, false, args.yes);
    }
    if let Some(agent) = args.hook_input {
        return run_hook(agent, &args);
    }
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let req = request(&args, &cwd)?;
    if args.full {
        eprintln!(
            "warning: --full keeps the whole transcript — message text, tool output, file contents — \
             with secrets redacted but content kept; review it before committing"
        );
    }
    let out = capture::run(&req).map_err(|e| anyhow!("{e}"))?;
    report(&args, &req, &out, &cwd)?;
    if args.commit && !out.captured.is_empty() {
        let id = commit(&req, &out)?;
        println!(
            "committed {} capture{} as {id}",
            out.captured.len(),
            if out.captured.len() == 1 { "" } else { "s" }
        );
    }
    if let Selection::Session(id) = &req.selection {
        if out.captured.is_empty() && out.skipped.is_empty() {
            eprintln!(
                "error: no session `{id}` under {}",
                list(&out.searched, &cwd)
            );
            return Ok(Exit::Error);
        }
    }
    Ok(Exit::Ok)
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// The default session folders, like `doctor`'s.
fn default_roots(harness: Harness) -> Vec<PathBuf> {
    if let Some(v) = std::env::var_os(SESSIONS_ROOTS_ENV) {
        let roots: Vec<PathBuf> = std::env::split_paths(&v)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        if !roots.is_empty() {
            return roots;
        }
    }
    let Some(home) = home() else {
        return Vec::new();
    };
    let all = [
        (Harness::Claude, home.join(".claude").join("projects")),
        (Harness::Codex, home.join(".codex").join("sessions")),
        (Harness::Gemini, home.join(".gemini").join("tmp")),
    ];
    all.into_iter()
        .filter(|(h, _)| harness == Harness::Auto || *h == harness)
        .map(|(_, p)| p)
        .collect()
}

fn parse_since(s: &str) -> anyhow::Result<std::time::SystemTime> {
    use time::format_description::well_known::Rfc3339;
    if let Ok(t) = time::OffsetDateTime::parse(s, &Rfc3339) {
        return Ok(t.into());
    }
    let f = time::macros::format_description!("[year]-[month]-[day]");
    let d = time::Date::parse(s, &f)
        .map_err(|_| anyhow!("--since {s:?}: expected YYYY-MM-DD or an RFC 3339 time"))?;
    Ok(d.midnight().assume_utc().into())
}

fn request(args: &Args, cwd: &Path) -> anyhow::Result<Request> {
    let repo_root = skillgate::gate::repo_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
    let patterns_dir = match &args.into {
        Some(d) => absolute(d, cwd),
        None => {
            let config = skillgate::config::Config::discover_and_load(cwd)?;
            match config.trajectories.as_ref().and_then(|v| v.first()) {
                Some(p) => absolute(p, cwd),
                None => repo_root.join(skillgate::config::DEFAULT_TRAJECTORIES),
            }
        }
    };
    let selection = if !args.paths.is_empty() {
        if args.last.is_some() || args.since.is_some() || args.session.is_some() {
            bail!("PATH arguments name the sessions: they do not combine with --last, --since or --session");
        }
        Selection::Paths(args.paths.iter().map(|p| absolute(p, cwd)).collect())
    } else if let Some(n) = args.last {
        if n == 0 {
            bail!("--last needs a positive count");
        }
        Selection::Last(n)
    } else if let Some(s) = &args.since {
        Selection::Since(parse_since(s)?)
    } else if let Some(id) = &args.session {
        Selection::Session(id.clone())
    } else {
        Selection::All
    };
    let sessions_roots = if args.sessions_roots.is_empty() {
        default_roots(args.harness)
    } else {
        args.sessions_roots
            .iter()
            .map(|p| absolute(p, cwd))
            .collect()
    };
    let repo_skills = capture::repo_skills(&repo_root);
    if args.skill.is_none() && repo_skills.is_empty() {
        bail!(
            "{}: no SKILL.md in this repository; name the skill with --skill NAME",
            repo_root.display()
        );
    }
    Ok(Request {
        repo_root,
        patterns_dir,
        sessions_roots,
        selection,
        skill: args.skill.clone(),
        repo_skills,
        any_cwd: args.any_cwd,
        full: args.full,
        dry_run: args.dry_run,
    })
}

fn absolute(p: &Path, cwd: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}

fn shown(p: &Path, cwd: &Path) -> String {
    let s = skillgate::gate::display_path(p, cwd);
    match home() {
        Some(h) if p.starts_with(&h) => format!("~/{}", p.strip_prefix(&h).unwrap_or(p).display()),
        _ => s,
    }
}

fn list(paths: &[PathBuf], cwd: &Path) -> String {
    if paths.is_empty() {
        return "no session folder (HOME is not set; use --sessions-root)".into();
    }
    paths
        .iter()
        .map(|p| shown(p, cwd))
        .collect::<Vec<_>>()
        .join(", ")
}

fn report(args: &Args, req: &Request, out: &Outcome, cwd: &Path) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    let redacted: usize = out.captured.iter().map(|c| c.redacted()).sum();
    if args.format == Format::Json {
        let v = serde_json::json!({
            "captured": out.captured.iter().map(|c| serde_json::json!({
                "source": c.source, "target": c.target, "sidecar": c.sidecar,
                "skill": c.skill, "session_id": c.session_id, "harness": c.harness,
                "events": c.events, "complete": c.complete, "updated": c.updated,
                "redacted": c.redacted(), "redactions": c.redactions,
            })).collect::<Vec<_>>(),
            "skipped": out.skipped.iter().map(|s| serde_json::json!({
                "source": s.source, "reason": s.reason.to_string(),
            })).collect::<Vec<_>>(),
            "examined": out.examined,
            "redacted": redacted,
            "mode": if req.full { "full" } else { "actions" },
            "dry_run": req.dry_run,
        });
        let _ = writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    let verb = if req.dry_run {
        "would capture"
    } else {
        "captured"
    };
    for c in &out.captured {
        let rules = if c.redactions.is_empty() {
            String::new()
        } else {
            let r: Vec<String> = c
                .redactions
                .iter()
                .map(|(k, n)| format!("{k}×{n}"))
                .collect();
            format!(": {}", r.join(", "))
        };
        let _ = writeln!(
            stdout,
            "{}{verb} {} ({}, {} events, {}, {} secret{} redacted{rules})",
            if c.updated { "re-" } else { "" },
            shown(&c.target, cwd),
            c.harness,
            c.events,
            if c.complete { "complete" } else { "incomplete" },
            c.redacted(),
            if c.redacted() == 1 { "" } else { "s" },
        );
        let _ = writeln!(stdout, "  from {}", shown(&c.source, cwd));
    }
    let mut already = 0;
    let mut elsewhere = 0;
    let mut unloaded = 0;
    for s in &out.skipped {
        match &s.reason {
            SkipReason::AlreadyCaptured(_) => already += 1,
            SkipReason::OtherRepository(_) => elsewhere += 1,
            SkipReason::NoSkillLoaded => unloaded += 1,
            SkipReason::Undecodable(_) => {}
        }
        // Sessions of other repositories are many and not worth a line each.
        if !matches!(s.reason, SkipReason::OtherRepository(_)) {
            let _ = writeln!(stdout, "skipped {}: {}", shown(&s.source, cwd), s.reason);
        }
    }
    let skill = req
        .skill
        .clone()
        .unwrap_or_else(|| req.repo_skills.join(", "));
    let _ = writeln!(
        stdout,
        "{} {}, {} skipped ({already} already captured, {unloaded} without {skill}, {elsewhere} from other directories); {redacted} secret{} redacted",
        out.captured.len(),
        verb,
        out.skipped.len(),
        if redacted == 1 { "" } else { "s" },
    );
    if out.examined == 0 && out.captured.is_empty() {
        let _ = writeln!(
            stdout,
            "no sessions found under {}",
            list(&out.searched, cwd)
        );
    } else if !out.captured.is_empty() && !req.dry_run {
        let dir = shown(&req.patterns_dir, cwd);
        if args.commit {
            let _ = writeln!(stdout, "next: skillgate gate <skill folder>");
        } else {
            let _ = writeln!(
                stdout,
                "next: skillgate gate <skill folder>, then git add {dir} && git commit (or capture with --commit)"
            );
        }
    }
    Ok(())
}

/// Commit the captures and their sidecars, and nothing else: refused when
/// other changes are staged (they would go into the commit).
fn commit(req: &Request, out: &Outcome) -> anyhow::Result<String> {
    let repo = git2::Repository::discover(&req.repo_root).map_err(|e| {
        anyhow!(
            "{}: --commit needs a git repository: {}",
            req.repo_root.display(),
            e.message()
        )
    })?;
    let workdir = repo
        .workdir()
        .ok_or_else(|| anyhow!("--commit needs a repository with a working tree"))?
        .to_path_buf();
    let mut index = repo.index()?;
    let head = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    if let Some(h) = &head {
        let staged = repo.diff_tree_to_index(Some(&h.tree()?), Some(&index), None)?;
        if staged.deltas().len() > 0 {
            bail!("--commit: other changes are staged; commit them first, or stage the captures yourself (the captures are written)");
        }
    }
    let mut names = Vec::new();
    for c in &out.captured {
        for p in [&c.target, &c.sidecar] {
            let canon = p.canonicalize().unwrap_or_else(|_| p.clone());
            let wd = workdir.canonicalize().unwrap_or_else(|_| workdir.clone());
            let rel = canon
                .strip_prefix(&wd)
                .map_err(|_| anyhow!("{}: outside the repository; not committed", p.display()))?
                .to_path_buf();
            index.add_path(&rel)?;
            names.push(rel);
        }
    }
    index.write()?;
    let tree = repo.find_tree(index.write_tree()?)?;
    let sig = repo
        .signature()
        .map_err(|_| anyhow!("--commit: set git's user.name and user.email first (the captures are written and staged)"))?;
    let skills: std::collections::BTreeSet<&str> =
        out.captured.iter().map(|c| c.skill.as_str()).collect();
    let redacted: usize = out.captured.iter().map(|c| c.redacted()).sum();
    let msg = format!(
        "skillgate capture: {} session{} of {} ({}, {redacted} secret{} redacted)\n",
        out.captured.len(),
        if out.captured.len() == 1 { "" } else { "s" },
        skills.into_iter().collect::<Vec<_>>().join(", "),
        if req.full {
            "full transcripts"
        } else {
            "actions only"
        },
        if redacted == 1 { "" } else { "s" },
    );
    let parents: Vec<&git2::Commit> = head.iter().collect();
    let oid = repo.commit(Some("HEAD"), &sig, &sig, &msg, &tree, &parents)?;
    let s = oid.to_string();
    Ok(s[..s.len().min(10)].to_string())
}

// ------------------------------------------------------------------ hooks

/// The configuration file an agent's hook lives in.
fn config_path(agent: Agent) -> anyhow::Result<PathBuf> {
    let home =
        home().ok_or_else(|| anyhow!("HOME is not set: cannot find the agent's configuration"))?;
    Ok(match agent {
        Agent::Claude => home.join(".claude").join("settings.json"),
        Agent::Codex => match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
            Some(h) => PathBuf::from(h).join("config.toml"),
            None => home.join(".codex").join("config.toml"),
        },
    })
}

fn read_optional(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => bail!("{}: not a regular file; not edited", path.display()),
        Ok(m) if m.len() > 4 * 1024 * 1024 => {
            bail!("{}: larger than 4 MiB; not edited", path.display())
        }
        Ok(_) => {
            Ok(Some(std::fs::read_to_string(path).with_context(|| {
                format!("{}: cannot read", path.display())
            })?))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(anyhow!("{}: cannot read: {e}", path.display())),
    }
}

fn edit_hook(agent: Agent, install: bool, yes: bool) -> anyhow::Result<Exit> {
    let path = config_path(agent)?;
    let before = read_optional(&path)?;
    let change = match (agent, install) {
        (Agent::Claude, true) => hook::claude_install(before.as_deref()),
        (Agent::Claude, false) => hook::claude_uninstall(before.as_deref()),
        (Agent::Codex, true) => hook::codex_install(before.as_deref()),
        (Agent::Codex, false) => hook::codex_uninstall(before.as_deref()),
    }
    .map_err(|e| {
        anyhow!(
            "{}{}: {}",
            path.display(),
            e.line.map(|l| format!(":{l}")).unwrap_or_default(),
            e.message
        )
    })?;
    let mut out = std::io::stdout().lock();
    if change.is_noop() {
        let _ = writeln!(
            out,
            "{}: {} (nothing to change)",
            path.display(),
            if install {
                "the capture hook is already installed"
            } else {
                "no capture hook to remove"
            }
        );
        return Ok(Exit::Ok);
    }
    let old = change.before.clone().unwrap_or_default();
    let new = change.after.clone().unwrap_or_default();
    let diff = similar::TextDiff::from_lines(&old, &new);
    let name = path.display().to_string();
    let _ = writeln!(
        out,
        "skillgate will {} agent configuration {}:\n",
        if install { "modify" } else { "restore" },
        name
    );
    let _ = write!(
        out,
        "{}",
        diff.unified_diff()
            .context_radius(3)
            .header(&format!("{name} (now)"), &format!("{name} (after)"))
    );
    if change.after.is_none() {
        let _ = writeln!(
            out,
            "\n(the file held only skillgate's entry: it is removed)"
        );
    }
    let _ = out.flush();
    drop(out);
    if !yes {
        if !std::io::stdin().is_terminal() {
            eprintln!(
                "error: not applied: re-run with --yes to apply this change without a prompt"
            );
            return Ok(Exit::Error);
        }
        eprint!("Apply this change? [y/N] ");
        let mut answer = String::new();
        std::io::stdin().read_line(&mut answer)?;
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            eprintln!("not applied");
            return Ok(Exit::Ok);
        }
    }
    match &change.after {
        Some(text) => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("{}: cannot create", dir.display()))?;
            }
            skillgate::fsutil::atomic_write(&path, text.as_bytes())
                .with_context(|| format!("{}: cannot write", path.display()))?;
        }
        None => std::fs::remove_file(&path)
            .with_context(|| format!("{}: cannot remove", path.display()))?,
    }
    println!(
        "{} {}",
        if install {
            "installed in"
        } else {
            "removed from"
        },
        path.display()
    );
    Ok(Exit::Ok)
}

/// Run from an agent's hook. Never fails the agent: problems are reported on
/// stderr (the agent's hook log) and the exit code is 0.
fn run_hook(agent: Agent, args: &Args) -> anyhow::Result<Exit> {
    if let Err(e) = hook_capture(agent, args) {
        eprintln!("skillgate capture: {e:#}");
    }
    Ok(Exit::Ok)
}

fn hook_capture(agent: Agent, args: &Args) -> anyhow::Result<Exit> {
    let input: serde_json::Value = match agent {
        Agent::Claude => {
            let mut buf = String::new();
            std::io::stdin()
                .take(HOOK_INPUT_LIMIT)
                .read_to_string(&mut buf)
                .context("cannot read the hook input on stdin")?;
            serde_json::from_str(&buf).map_err(|_| anyhow!("hook input on stdin is not JSON"))?
        }
        Agent::Codex => {
            let last = args
                .paths
                .last()
                .ok_or_else(|| anyhow!("no Codex notification argument"))?;
            serde_json::from_str(&last.to_string_lossy())
                .map_err(|_| anyhow!("the Codex notification argument is not JSON"))?
        }
    };
    let s = |k: &str| input.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let Some(cwd) = s("cwd").map(PathBuf::from) else {
        eprintln!("skillgate capture: the hook input names no cwd; nothing captured");
        return Ok(Exit::Ok);
    };
    let Some(repo_root) = skillgate::gate::repo_root(&cwd) else {
        eprintln!(
            "skillgate capture: {} is not in a git repository; nothing captured",
            cwd.display()
        );
        return Ok(Exit::Ok);
    };
    let repo_skills = capture::repo_skills(&repo_root);
    if repo_skills.is_empty() && args.skill.is_none() {
        return Ok(Exit::Ok);
    }
    let (selection, roots) = match agent {
        Agent::Claude => match (s("transcript_path"), s("session_id")) {
            (Some(t), _) => (Selection::Paths(vec![PathBuf::from(t)]), Vec::new()),
            (None, Some(id)) => (Selection::Session(id), default_roots(Harness::Claude)),
            (None, None) => {
                eprintln!("skillgate capture: the hook input names no session");
                return Ok(Exit::Ok);
            }
        },
        Agent::Codex => match s("thread-id").or_else(|| s("thread_id")) {
            Some(id) => (Selection::Session(id), default_roots(Harness::Codex)),
            None => return Ok(Exit::Ok),
        },
    };
    let config = skillgate::config::Config::discover_and_load(&cwd).ok();
    let patterns_dir = match config
        .as_ref()
        .and_then(|c| c.trajectories.as_ref())
        .and_then(|v| v.first())
    {
        Some(p) => absolute(p, &cwd),
        None => repo_root.join(skillgate::config::DEFAULT_TRAJECTORIES),
    };
    let req = Request {
        repo_root,
        patterns_dir,
        sessions_roots: roots,
        selection,
        skill: args.skill.clone(),
        repo_skills,
        any_cwd: false,
        full: false,
        dry_run: false,
    };
    match capture::run(&req) {
        Ok(out) => {
            for c in &out.captured {
                eprintln!(
                    "skillgate capture: {} ({} secrets redacted)",
                    c.target.display(),
                    c.redacted()
                );
            }
        }
        Err(e) => eprintln!("skillgate capture: {e}"),
    }
    Ok(Exit::Ok)
}
