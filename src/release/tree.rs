//! Where the files of a pushed commit are read from.
//!
//! When the pushed commit is the checked-out `HEAD`, the gate reads the
//! working tree (as git hooks and the pre-commit framework do), and
//! [`uncommitted`] lists tracked files that differ from `HEAD` so the hook can
//! say so. Any other pushed commit (`git push origin other-branch`) is
//! exported to a temporary folder with git2 and gated there: the verdict is
//! about what is pushed, not about what happens to be checked out.

use super::ReleaseError;
use git2::{ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};
use std::path::{Path, PathBuf};

/// The working tree's root, when `to` is the checked-out commit.
pub fn worktree_for(repo: &Repository, to: Oid) -> Option<PathBuf> {
    let workdir = repo.workdir()?;
    let head = repo.head().ok()?.peel_to_commit().ok()?;
    (head.id() == to).then(|| workdir.to_path_buf())
}

/// What an export wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Export {
    pub files: usize,
    /// Entries not written (symbolic links, submodules), relative paths.
    pub skipped: Vec<String>,
}

/// Write the tree of commit `id` under `dir` (which must exist). Symbolic
/// links and submodules are not written (and are listed).
pub fn export_commit(repo: &Repository, id: Oid, dir: &Path) -> Result<Export, ReleaseError> {
    let tree = repo
        .find_commit(id)
        .and_then(|c| c.tree())
        .map_err(|e| ReleaseError::git(format!("tree of {id}"), e))?;
    let mut out = Export::default();
    let mut failure: Option<ReleaseError> = None;
    tree.walk(TreeWalkMode::PreOrder, |parent, entry| {
        let Some(name) = entry.name() else {
            out.skipped.push(format!("{parent}<non-UTF-8 name>"));
            return TreeWalkResult::Skip;
        };
        let rel = format!("{parent}{name}");
        // A name from git could still try to leave the folder.
        if name == ".." || name == "." || name.contains('/') || name.contains('\\') {
            out.skipped.push(rel);
            return TreeWalkResult::Skip;
        }
        let path = dir.join(&rel);
        match entry.kind() {
            Some(ObjectType::Tree) => {
                if let Err(e) = std::fs::create_dir_all(&path) {
                    failure = Some(ReleaseError::io(&path, e));
                    return TreeWalkResult::Abort;
                }
                TreeWalkResult::Ok
            }
            Some(ObjectType::Blob) if entry.filemode() != 0o120000 => {
                let blob = match repo.find_blob(entry.id()) {
                    Ok(b) => b,
                    Err(e) => {
                        failure = Some(ReleaseError::git(format!("blob {rel}"), e));
                        return TreeWalkResult::Abort;
                    }
                };
                if let Err(e) = std::fs::write(&path, blob.content()) {
                    failure = Some(ReleaseError::io(&path, e));
                    return TreeWalkResult::Abort;
                }
                out.files += 1;
                TreeWalkResult::Ok
            }
            _ => {
                out.skipped.push(rel);
                TreeWalkResult::Skip
            }
        }
    })
    .map_err(|e| match failure.take() {
        Some(f) => f,
        None => ReleaseError::git(format!("exporting {id}"), e),
    })?;
    if let Some(f) = failure {
        return Err(f);
    }
    out.skipped.sort();
    Ok(out)
}

/// Tracked files under `roots` (absolute) whose working-tree or staged
/// content differs from `HEAD` (untracked files are not listed), relative to
/// the working tree, sorted.
pub fn uncommitted(repo: &Repository, roots: &[PathBuf]) -> Vec<String> {
    let Some(workdir) = repo.workdir() else {
        return Vec::new();
    };
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(false).include_ignored(false);
    let Ok(statuses) = repo.statuses(Some(&mut opts)) else {
        return Vec::new();
    };
    let mut out: Vec<String> = statuses
        .iter()
        .filter(|s| !s.status().is_empty() && s.status() != git2::Status::CURRENT)
        .filter_map(|s| s.path().map(str::to_string))
        .filter(|p| {
            let abs = workdir.join(p);
            roots.iter().any(|r| abs.starts_with(r))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}
