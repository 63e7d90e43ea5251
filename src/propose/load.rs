//! The file-reading edge of the proposals: read each judged skill's SKILL.md
//! and lockfile (exact bytes) and fill `SkillVerdict::proposals`; apply one
//! proposal atomically. Never prints, never reads the clock or environment.

use super::{proposals, Inputs};
use crate::config::Config;
use crate::extract::{self, Lexicon};
use crate::gate::{display_path, repo_root};
use crate::parse::Skill;
use crate::score::{Proposal, SkillVerdict};
use std::path::{Component, Path, PathBuf};

/// A file the proposals could not read or write (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct ProposeError {
    pub path: PathBuf,
    pub message: String,
}

fn err(path: &Path, message: impl Into<String>) -> ProposeError {
    ProposeError {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

fn absolute(p: &Path, cwd: &Path) -> PathBuf {
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// The path a patch names (`a/PATH`): relative to the file's git repository
/// root when it has one (apply patches from that root), else relative to the
/// working directory; always with `/` separators and no leading `/`.
pub fn diff_path(file: &Path, cwd: &Path) -> String {
    let abs = absolute(file, cwd);
    let base = abs
        .parent()
        .and_then(repo_root)
        .unwrap_or_else(|| cwd.to_path_buf());
    let rel = abs
        .strip_prefix(&base)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| abs.clone());
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

fn read_text(path: &Path) -> Result<String, ProposeError> {
    let bytes = crate::fsutil::read_bounded(path, crate::fsutil::MAX_LOCKFILE_BYTES)
        .map_err(|e| err(path, e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| err(path, "not UTF-8: no proposal can be made"))
}

/// What loading a skill's constraints can fail on here.
enum Lazy {
    Lockfile(extract::LockfileError),
    Lexicon(ProposeError),
}

impl From<extract::LockfileError> for Lazy {
    fn from(e: extract::LockfileError) -> Self {
        Lazy::Lockfile(e)
    }
}

/// Fill every verdict's `proposals` from its files.
pub fn attach(
    verdicts: &mut [SkillVerdict],
    cwd: &Path,
    config: &Config,
) -> Result<(), ProposeError> {
    let invalid = |m: &str| err(Path::new("<lexicon>"), format!("invalid lexicon: {m}"));
    Lexicon::check_overrides(&config.lexicon).map_err(|m| invalid(&m))?;
    // The whole lexicon only for a skill without a lockfile (compiled once,
    // when the first such skill asks).
    let full: std::sync::OnceLock<Result<Lexicon, String>> = std::sync::OnceLock::new();
    let lexicon = || {
        full.get_or_init(|| Lexicon::with_overrides(&config.lexicon))
            .as_ref()
            .map_err(|m| invalid(m))
    };
    // On every thread (each skill's files are read and its lockfile parsed
    // again); the first error in skill order is the one reported.
    use rayon::prelude::*;
    let done: Vec<Result<(), ProposeError>> = verdicts
        .par_iter_mut()
        .map(|v| attach_one(v, cwd, lexicon))
        .collect();
    done.into_iter().collect()
}

fn attach_one<'a>(
    v: &mut SkillVerdict,
    cwd: &Path,
    lexicon: impl FnOnce() -> Result<&'a Lexicon, ProposeError>,
) -> Result<(), ProposeError> {
    let skill_path = absolute(Path::new(&v.skill.path), cwd);
    let skill_text = read_text(&skill_path)?;
    let skill = Skill::parse_bytes(&skill_path, skill_text.as_bytes())
        .map_err(|e| err(&skill_path, e.to_string()))?;
    let loaded = extract::load_constraints_with(&skill, || lexicon().map_err(Lazy::Lexicon))
        .map_err(|e| match e {
            Lazy::Lockfile(e) => err(&e.path.clone(), e.to_string()),
            Lazy::Lexicon(e) => e,
        })?;
    let lock_path = extract::lockfile_path(&skill);
    let lock_text = if crate::fsutil::entry_exists(&lock_path) {
        Some(read_text(&lock_path)?)
    } else {
        None
    };
    let skill_diff = diff_path(&skill_path, cwd);
    let lock_diff = diff_path(&lock_path, cwd);
    let lock_shown = display_path(&lock_path, cwd);
    let inputs = Inputs {
        verdict: v,
        skill_text: &skill_text,
        skill_sha256: &skill.sha256,
        skill_diff_path: &skill_diff,
        skill_shown: &v.skill.path,
        lockfile_text: lock_text.as_deref(),
        lockfile_diff_path: &lock_diff,
        lockfile_shown: &lock_shown,
        constraints: &loaded.constraints,
    };
    let made = proposals(&inputs);
    v.proposals = made;
    Ok(())
}

/// Write one `<skill>--<proposal id>.patch` per proposal of `verdicts` into
/// `dir` (created; each file atomically). Returns the paths written, in order.
pub fn write_patches(verdicts: &[SkillVerdict], dir: &Path) -> Result<Vec<PathBuf>, ProposeError> {
    std::fs::create_dir_all(dir).map_err(|e| err(dir, format!("cannot create the folder: {e}")))?;
    let mut written = Vec::new();
    for v in verdicts {
        for p in &v.proposals {
            let name = format!(
                "{}--{}.patch",
                crate::gate::sanitize_name(&v.skill.name),
                crate::gate::sanitize_name(&p.id)
            );
            let path = dir.join(name);
            crate::fsutil::atomic_write(&path, p.patch.as_bytes())
                .map_err(|e| err(&path, format!("cannot write the patch: {e}")))?;
            written.push(path);
        }
    }
    Ok(written)
}

/// Apply one proposal: write its target's new text atomically (creating the
/// folder of a new lockfile). Returns the path written.
pub fn apply(p: &Proposal, cwd: &Path) -> Result<PathBuf, ProposeError> {
    let target = absolute(Path::new(&p.target), cwd);
    let Some(new) = &p.new_text else {
        return Err(err(&target, "this proposal carries no text to apply"));
    };
    let creates = p.patch.starts_with("--- /dev/null");
    if creates && target.exists() {
        return Err(err(
            &target,
            "the proposal creates this file, but it exists now: re-run the gate",
        ));
    }
    crate::fsutil::atomic_write(&target, new.as_bytes())
        .map_err(|e| err(&target, format!("cannot write: {e}")))?;
    Ok(target)
}
