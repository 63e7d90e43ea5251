//! capture: agent sessions → `.planning/patterns/<skill>/` (issue #20,
//! `docs/capture.md`).
//!
//! Finds sessions in the harnesses' folders (or takes the files it is given),
//! keeps those of this repository that loaded the skill, and writes each one
//! once, atomically, with its `.retro.yaml` sidecar (SPEC §5):
//! - by default as a [`skillgate-capture`](crate::decode::skillgate_capture)
//!   file: actions only, every command and path redacted;
//! - with `full`, the whole transcript in its own format, every string
//!   redacted ([`full`]).
//!
//! This stage reads and writes files but never prints, never reads the clock
//! or the environment: the caller passes the roots, the repository and any
//! date, and renders the [`Outcome`].

pub mod full;
pub mod hook;

use crate::decode::{self, retro, skillgate_capture, DecodeOptions, Retro, Trajectory};
use crate::fsutil::atomic_write;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Why a capture could not run at all. Maps to exit code 2 and names a path.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct CaptureError {
    pub path: PathBuf,
    pub line: Option<u64>,
    pub message: String,
}

impl CaptureError {
    fn new(path: &Path, message: impl Into<String>) -> Self {
        CaptureError {
            path: path.to_path_buf(),
            line: None,
            message: message.into(),
        }
    }
}

/// Which sessions to consider.
#[derive(Debug, Clone, PartialEq)]
pub enum Selection {
    /// Every session found (already captured ones are skipped).
    All,
    /// The N most recently modified sessions that qualify.
    Last(usize),
    /// Sessions modified at or after this time.
    Since(SystemTime),
    /// The session with this id (file name or recorded session id).
    Session(String),
    /// These files (or folders, searched) — named by the user.
    Paths(Vec<PathBuf>),
}

/// What the caller decides.
#[derive(Debug, Clone)]
pub struct Request {
    /// Root of the repository the captures go into.
    pub repo_root: PathBuf,
    /// The patterns folder (default `<repo>/.planning/patterns`).
    pub patterns_dir: PathBuf,
    /// Session folders searched (the harnesses' defaults or `--sessions-root`).
    pub sessions_roots: Vec<PathBuf>,
    pub selection: Selection,
    /// Keep only sessions that loaded this skill (else: any of `repo_skills`).
    pub skill: Option<String>,
    /// The repository's skill names.
    pub repo_skills: Vec<String>,
    /// Keep sessions whatever their working directory.
    pub any_cwd: bool,
    /// Keep the whole transcript (redacted) instead of actions only.
    pub full: bool,
    /// Only say what would be written.
    pub dry_run: bool,
}

/// One written (or, in a dry run, writable) capture.
#[derive(Debug, Clone, PartialEq)]
pub struct Captured {
    pub source: PathBuf,
    pub target: PathBuf,
    pub sidecar: PathBuf,
    pub skill: String,
    pub session_id: String,
    pub harness: &'static str,
    pub events: usize,
    pub complete: bool,
    /// Secrets replaced, per rule id.
    pub redactions: BTreeMap<&'static str, usize>,
    /// An earlier capture of this session, made before the session went on,
    /// was replaced.
    pub updated: bool,
}

impl Captured {
    pub fn redacted(&self) -> usize {
        self.redactions.values().sum()
    }
}

/// Why a session was left alone.
#[derive(Debug, Clone, PartialEq)]
pub enum SkipReason {
    /// Already in the patterns folder.
    AlreadyCaptured(PathBuf),
    /// Ran in another working directory.
    OtherRepository(Option<String>),
    /// Loaded none of the skills asked for.
    NoSkillLoaded,
    /// Could not be decoded (file:line and what; never content).
    Undecodable(String),
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::AlreadyCaptured(p) => write!(f, "already captured as {}", p.display()),
            SkipReason::OtherRepository(Some(c)) => write!(f, "ran in another directory ({c})"),
            SkipReason::OtherRepository(None) => {
                write!(
                    f,
                    "records no working directory (name it, or use --any-cwd)"
                )
            }
            SkipReason::NoSkillLoaded => write!(f, "loaded none of the skills"),
            SkipReason::Undecodable(m) => write!(f, "not decodable: {m}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub source: PathBuf,
    pub reason: SkipReason,
}

/// What a capture run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    pub captured: Vec<Captured>,
    pub skipped: Vec<Skipped>,
    /// Files looked at.
    pub examined: usize,
    /// The folders searched (for "nothing found" messages).
    pub searched: Vec<PathBuf>,
}

/// The names of the skills of a repository: the folder of every SKILL.md
/// below `root` (`target/`, `.git/`, `node_modules/` and the patterns folder
/// aside). A repository without skills gives an empty list.
pub fn repo_skills(root: &Path) -> Vec<String> {
    let Ok(w) = crate::parse::walk::walk_path(root) else {
        return Vec::new();
    };
    let mut names: Vec<String> = w
        .skills
        .iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == ".planning"))
        .filter_map(|p| p.parent()?.file_name()?.to_str().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Claude Code's project folder name for a working directory: every
/// character other than a letter or digit becomes `-`.
pub fn claude_project_dir(cwd: &Path) -> String {
    cwd.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Gemini CLI's project folder name: the sha256 of the project root.
pub fn gemini_project_dir(cwd: &Path) -> String {
    hex(&Sha256::digest(cwd.to_string_lossy().as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Transcript files under the search roots, most recently modified first.
/// Under a Claude Code `projects` folder or a Gemini `tmp` folder only this
/// repository's project folders are searched (unless `any_cwd`).
fn candidates(req: &Request) -> Vec<(PathBuf, SystemTime)> {
    let mut files = Vec::new();
    let claude = claude_project_dir(&req.repo_root);
    let gemini = gemini_project_dir(&req.repo_root);
    for root in &req.sessions_roots {
        let mut dirs = vec![root.clone()];
        if !req.any_cwd && root.is_dir() {
            let name = root.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let parent = root
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .unwrap_or("");
            let own: Option<Vec<PathBuf>> = match (parent, name) {
                (".claude", "projects") => Some(
                    std::fs::read_dir(root)
                        .map(|rd| {
                            rd.filter_map(Result::ok)
                                .map(|e| e.path())
                                .filter(|p| {
                                    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                                        n == claude || n.starts_with(&format!("{claude}-"))
                                    })
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                ),
                (".gemini", "tmp") => Some(vec![root.join(&gemini)]),
                _ => None,
            };
            if let Some(own) = own {
                dirs = own.into_iter().filter(|d| d.is_dir()).collect();
            }
        }
        for d in dirs {
            if let Ok(found) = decode::discover::discover_all(&d) {
                for f in found.files {
                    let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    if name == "logs.json" || name.ends_with(".meta.json") {
                        continue;
                    }
                    let mtime = std::fs::metadata(&f)
                        .and_then(|m| m.modified())
                        .unwrap_or(SystemTime::UNIX_EPOCH);
                    files.push((f, mtime));
                }
            }
        }
    }
    files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    files.dedup_by(|a, b| a.0 == b.0);
    files
}

/// Does this session belong to the repository?
fn belongs(traj: &Trajectory, path: &Path, repo: &Path) -> Result<(), SkipReason> {
    if let Some(cwd) = &traj.cwd {
        let cwd = Path::new(cwd);
        if cwd.starts_with(repo) {
            return Ok(());
        }
        return Err(SkipReason::OtherRepository(Some(cwd.display().to_string())));
    }
    // Gemini records no cwd: its folder is named by the project's hash.
    let hash = gemini_project_dir(repo);
    if path.components().any(|c| c.as_os_str() == hash.as_str()) {
        return Ok(());
    }
    Err(SkipReason::OtherRepository(None))
}

/// The skills the session loaded, in order of first load; the sidecar's
/// list when the transcript had one.
fn loaded_skills(traj: &Trajectory) -> Vec<String> {
    if let Some(l) = traj.retro.as_ref().and_then(|r| r.loaded_skills.clone()) {
        return l;
    }
    let mut out: Vec<String> = Vec::new();
    for e in &traj.events {
        if let decode::Action::SkillLoad { name, .. } = &e.action {
            if !out.iter().any(|n| n == name) {
                out.push(name.clone());
            }
        }
    }
    out
}

/// A file-name-safe session id.
pub fn safe_id(id: &str) -> String {
    let s: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .take(96)
        .collect();
    let s = s.trim_matches('.').to_string();
    if s.is_empty() {
        "session".into()
    } else {
        s
    }
}

/// The session's UTC date: its first recorded timestamp, else the file's
/// modification time.
fn session_date(traj: &Trajectory, mtime: SystemTime) -> String {
    let from_events = traj
        .events
        .iter()
        .filter_map(|e| e.timestamp.as_deref())
        .find_map(|t| {
            let d = t.get(..10)?;
            let b = d.as_bytes();
            let ok = b.len() == 10
                && b[4] == b'-'
                && b[7] == b'-'
                && b.iter()
                    .enumerate()
                    .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
            ok.then(|| d.to_string())
        });
    from_events.unwrap_or_else(|| {
        let t = time::OffsetDateTime::from(mtime);
        format!("{:04}-{:02}-{:02}", t.year(), u8::from(t.month()), t.day())
    })
}

/// Captures already in the patterns folder, by the session-id part of their name.
fn existing_captures(patterns: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(patterns) else {
        return out;
    };
    for d in rd.filter_map(Result::ok) {
        if let Ok(inner) = std::fs::read_dir(d.path()) {
            out.extend(
                inner
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| !retro::is_sidecar(p)),
            );
        }
    }
    out
}

fn already(existing: &[PathBuf], date: &str, id: &str) -> Option<PathBuf> {
    let prefix = format!("{date}-{id}.");
    existing
        .iter()
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix))
        })
        .cloned()
}

/// The file extension a full capture keeps (`jsonl`, `json`, `md`…).
fn extension(path: &Path) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.ends_with(".chat.history.md") {
        return "md".into();
    }
    path.extension()
        .and_then(|e| e.to_str())
        .filter(|e| e.chars().all(|c| c.is_ascii_alphanumeric()) && !e.is_empty())
        .unwrap_or("jsonl")
        .to_string()
}

/// Run a capture.
pub fn run(req: &Request) -> Result<Outcome, CaptureError> {
    let mut out = Outcome::default();
    let named = matches!(req.selection, Selection::Paths(_) | Selection::Session(_));
    let files: Vec<(PathBuf, SystemTime)> = match &req.selection {
        Selection::Paths(paths) => {
            let mut v = Vec::new();
            for p in paths {
                let found = decode::discover::discover_all(p)
                    .map_err(|e| CaptureError::new(p, format!("cannot read: {e}")))?;
                for f in found.files {
                    let m = std::fs::metadata(&f)
                        .and_then(|m| m.modified())
                        .unwrap_or(SystemTime::UNIX_EPOCH);
                    v.push((f, m));
                }
                out.searched.push(p.clone());
            }
            v
        }
        _ => {
            out.searched = req.sessions_roots.clone();
            candidates(req)
        }
    };
    let wanted: Vec<String> = match &req.skill {
        Some(s) => vec![s.clone()],
        None => req.repo_skills.clone(),
    };
    let mut existing = existing_captures(&req.patterns_dir);
    let mut kept = 0usize;
    for (path, mtime) in files {
        if let Selection::Since(since) = req.selection {
            if mtime < since {
                continue;
            }
        }
        if let Selection::Last(n) = req.selection {
            if kept >= n {
                break;
            }
        }
        if let Selection::Session(id) = &req.selection {
            // cheap test on the name first; the recorded id decides otherwise
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !name.contains(id.as_str()) && !records_session(&path, id) {
                continue;
            }
        }
        out.examined += 1;
        let traj = match decode::decode_path(&path, None, &DecodeOptions::default()) {
            Ok(t) => t,
            Err(e) => {
                out.skipped.push(Skipped {
                    source: path,
                    reason: SkipReason::Undecodable(format!(
                        "{}{}",
                        e.line.map(|l| format!("line {l}: ")).unwrap_or_default(),
                        e.message
                    )),
                });
                continue;
            }
        };
        if let Selection::Session(id) = &req.selection {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if traj.session_id.as_deref() != Some(id.as_str()) && !name.contains(id.as_str()) {
                continue;
            }
        }
        if !named && !req.any_cwd {
            if let Err(reason) = belongs(&traj, &path, &req.repo_root) {
                out.skipped.push(Skipped {
                    source: path,
                    reason,
                });
                continue;
            }
        }
        let loaded = loaded_skills(&traj);
        let skill = match wanted
            .iter()
            .flat_map(|w| {
                loaded
                    .iter()
                    .position(|l| decode::skills::names_match(l, w))
                    .map(|pos| (pos, w))
            })
            .min()
        {
            Some((_, w)) => w.clone(),
            None => {
                out.skipped.push(Skipped {
                    source: path,
                    reason: SkipReason::NoSkillLoaded,
                });
                continue;
            }
        };
        let id = safe_id(
            traj.session_id
                .as_deref()
                .or_else(|| path.file_stem().and_then(|s| s.to_str()))
                .unwrap_or("session"),
        );
        let date = session_date(&traj, mtime);
        let mut update = None;
        if let Some(p) = already(&existing, &date, &id) {
            if req.full || !grew(&p, &path) {
                out.skipped.push(Skipped {
                    source: path,
                    reason: SkipReason::AlreadyCaptured(p),
                });
                continue;
            }
            update = Some(p);
        }
        let dir = req.patterns_dir.join(safe_id(&skill));
        let target = match &update {
            Some(p) => p.clone(),
            None if req.full => dir.join(format!("{date}-{id}.full.{}", extension(&path))),
            None => dir.join(format!("{date}-{id}.jsonl")),
        };
        let mut c = write_one(req, &path, &traj, &target, &skill, loaded, &id)?;
        c.updated = update.is_some();
        existing.push(c.target.clone());
        out.captured.push(c);
        kept += 1;
    }
    Ok(out)
}

/// Whether `source` has changed since the actions-only capture `existing` was
/// made from it (a session that went on after an earlier capture: Codex
/// notifies after every turn, a resumed Claude Code session appends). Only
/// a capture whose header names this very source is ever replaced.
fn grew(existing: &Path, source: &Path) -> bool {
    let Some(h) = crate::decode::jsonl::first_record::<serde_json::Value>(existing) else {
        return false;
    };
    let Some(src) = h.pointer("/skillgate_capture/source") else {
        return false;
    };
    if src.get("path").and_then(serde_json::Value::as_str) != Some(&source.display().to_string()) {
        return false;
    }
    let Ok(raw) = std::fs::read(source) else {
        return false;
    };
    src.get("sha256").and_then(serde_json::Value::as_str)
        != Some(hex(&Sha256::digest(&raw)).as_str())
}

/// Whether the first records of a file name the session id (Gemini's
/// `sessionId`, Codex's `session_meta`), read without decoding the file.
fn records_session(path: &Path, id: &str) -> bool {
    use std::io::Read;
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if f.take(decode::SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .is_err()
    {
        return false;
    }
    memchr::memmem::find(&head, id.as_bytes()).is_some()
}

fn write_one(
    req: &Request,
    source: &Path,
    traj: &Trajectory,
    target: &Path,
    skill: &str,
    loaded: Vec<String>,
    id: &str,
) -> Result<Captured, CaptureError> {
    let raw = std::fs::read(source)
        .map_err(|e| CaptureError::new(source, format!("cannot read: {e}")))?;
    let (bytes, hits) = if req.full {
        let r = full::redact_transcript(&raw);
        (r.bytes, r.redactions)
    } else {
        let src = skillgate_capture::Source {
            path: source.display().to_string(),
            sha256: hex(&Sha256::digest(&raw)),
            bytes: raw.len() as u64,
        };
        let enc = skillgate_capture::encode(traj, src)
            .map_err(|e| CaptureError::new(source, format!("cannot encode the capture: {e}")))?;
        (enc.bytes, enc.redactions)
    };
    let mut redactions = BTreeMap::new();
    for h in hits {
        *redactions.entry(h).or_insert(0) += 1;
    }
    let sidecar = retro::sidecar_path(target);
    let side = Retro {
        loaded_skills: Some(loaded),
        harness: Some(traj.harness.as_str().to_string()),
        complete: Some(traj.complete),
    };
    let side_text = yaml_serde::to_string(&side)
        .map_err(|e| CaptureError::new(&sidecar, format!("cannot write the sidecar: {e}")))?;
    if !req.dry_run {
        let dir = target.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)
            .map_err(|e| CaptureError::new(dir, format!("cannot create the folder: {e}")))?;
        // Sidecar first: a capture never appears without its metadata, and a
        // failed capture write takes its sidecar away again.
        atomic_write(&sidecar, side_text.as_bytes())
            .map_err(|e| CaptureError::new(&sidecar, format!("cannot write: {e}")))?;
        if let Err(e) = atomic_write(target, &bytes) {
            let _ = std::fs::remove_file(&sidecar);
            return Err(CaptureError::new(target, format!("cannot write: {e}")));
        }
    }
    Ok(Captured {
        source: source.to_path_buf(),
        target: target.to_path_buf(),
        sidecar,
        skill: skill.to_string(),
        session_id: id.to_string(),
        harness: traj.harness.as_str(),
        events: traj.events.len(),
        complete: traj.complete && !traj.truncated,
        redactions,
        updated: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_dirs_and_ids() {
        assert_eq!(
            claude_project_dir(Path::new("/home/a/src/my.repo")),
            "-home-a-src-my-repo"
        );
        assert_eq!(gemini_project_dir(Path::new("/x")).len(), 64);
        assert_eq!(safe_id("ab/../c d"), "ab-..-c-d");
        assert_eq!(safe_id(""), "session");
        assert_eq!(extension(Path::new("a/.aider.chat.history.md")), "md");
        assert_eq!(extension(Path::new("a/s.jsonl")), "jsonl");
    }
}
