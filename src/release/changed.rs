//! `gate --changed-since REV`: the skills touched between the merge base of
//! `REV` and `HEAD`, and `HEAD` (a pull request's own changes).

use super::range::{self, Range};
use super::touched::{self, Touched};
use super::ReleaseError;
use crate::config::Config;
use git2::Repository;
use std::path::{Path, PathBuf};

/// What changed since a revision.
#[derive(Debug, Clone)]
pub struct Changed {
    pub range: Range,
    /// Changed paths, relative to the working tree.
    pub paths: Vec<PathBuf>,
    /// The skills they touch, restricted to the filters given.
    pub touched: Touched,
}

impl Changed {
    /// The touched SKILL.md paths, relative to `cwd` when they lie under it
    /// (as a user would type them), else as found.
    pub fn skill_paths(&self, cwd: &Path) -> Vec<PathBuf> {
        let canon_cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
        self.touched
            .paths()
            .into_iter()
            .map(|p| {
                let c = p.canonicalize().unwrap_or_else(|_| p.clone());
                match c.strip_prefix(&canon_cwd) {
                    Ok(rel) => rel.to_path_buf(),
                    Err(_) => p,
                }
            })
            .collect()
    }
}

/// The skills (SKILL.md paths) touched in `merge-base(rev, HEAD)..HEAD` of the
/// repository holding `cwd`, kept when they lie under one of `filters`
/// (none: all).
pub fn changed_since(
    cwd: &Path,
    rev: &str,
    filters: &[PathBuf],
    config: &Config,
) -> Result<Changed, ReleaseError> {
    let repo = Repository::discover(cwd).map_err(|e| {
        ReleaseError::git(
            format!("--changed-since: no git repository at {}", cwd.display()),
            e,
        )
    })?;
    let root = repo
        .workdir()
        .ok_or_else(|| {
            ReleaseError::Input(
                "--changed-since needs a working tree (not a bare repository)".into(),
            )
        })?
        .to_path_buf();
    let range = range::since(&repo, rev)?;
    let paths = range::changed_paths(&repo, &range)?;
    let mut t = touched::touched_skills(&root, &paths, config);
    touched::restrict(&mut t, filters, cwd);
    Ok(Changed {
        range,
        paths,
        touched: t,
    })
}
