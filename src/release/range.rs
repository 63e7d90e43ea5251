//! The commits a push (or a pull request) brings, and the paths they change.
//!
//! Per pushed ref, as the pre-commit framework computes it
//! (../shared/research/ci-conventions.md):
//! - deletion: nothing to check;
//! - the remote id exists locally and is an ancestor of the local id:
//!   `remote..local`;
//! - otherwise (a new branch, a force-push, a remote id never fetched): the
//!   commits reachable from `local` but from no `refs/remotes/<remote>/*`,
//!   diffed from the first new commit's parent (the empty tree when that
//!   commit is a root).
//!
//! Paths are collected from both sides of every delta, so a deletion or a
//! rename counts for the old path as well as the new one.

use super::push::{PushKind, PushRef};
use super::ReleaseError;
use git2::{Oid, Repository, Sort};
use std::path::PathBuf;

/// How a range was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `remote..local`: the remote id is a known ancestor.
    FastForward,
    /// A new remote branch: commits on no remote-tracking ref.
    NewBranch,
    /// A new remote tag: commits on no remote-tracking ref.
    NewTag,
    /// Another new remote ref (`refs/notes/...`): commits on no remote-tracking ref.
    NewRef,
    /// The remote id is unknown here or not an ancestor (a force-push):
    /// commits on no remote-tracking ref.
    Rewrite,
    /// `merge-base(from, to)..to` (pull requests, `PRE_COMMIT_FROM_REF`).
    MergeBase,
    /// The whole tree of a commit (`pre-commit run --hook-stage pre-push` without a push).
    WholeTree,
}

impl Rule {
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::FastForward => "fast-forward",
            Rule::NewBranch => "new branch",
            Rule::NewTag => "new tag",
            Rule::NewRef => "new ref",
            Rule::Rewrite => "force-push",
            Rule::MergeBase => "merge base",
            Rule::WholeTree => "whole tree",
        }
    }
}

/// Two commits to diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    /// The base; `None` is the empty tree (the first new commit is a root).
    pub from: Option<Oid>,
    /// The pushed (or head) commit.
    pub to: Oid,
    /// Commits in `from..to` (for messages).
    pub commits: usize,
    pub rule: Rule,
}

impl Range {
    /// `1a2b3c4..5d6e7f8` (or `(root)..5d6e7f8`).
    pub fn describe(&self) -> String {
        let short = |o: Oid| o.to_string().chars().take(7).collect::<String>();
        format!(
            "{}..{}",
            self.from.map(short).unwrap_or_else(|| "(root)".into()),
            short(self.to)
        )
    }
}

fn oid(s: &str, what: &str) -> Result<Oid, ReleaseError> {
    Oid::from_str(s).map_err(|e| ReleaseError::Git {
        context: format!("{what} object id {s}"),
        message: format!(
            "{} (SHA-256 repositories need a libgit2 built with SHA-256 support)",
            e.message()
        ),
    })
}

/// The commit an object id names (tags are peeled); `None` when it is not
/// in this repository or does not peel to a commit.
fn commit_of(repo: &Repository, id: Oid) -> Option<Oid> {
    repo.find_object(id, None)
        .ok()?
        .peel_to_commit()
        .ok()
        .map(|c| c.id())
}

/// A remote name usable in a ref glob (a URL pushed to directly has no
/// remote-tracking refs).
fn remote_glob(remote: Option<&str>) -> Option<String> {
    let r = remote?;
    let ok = !r.is_empty()
        && !r.contains(':')
        && !r.contains("..")
        && !r.starts_with('/')
        && !r.contains(['*', '?', '[', ' ', '\\']);
    ok.then(|| format!("refs/remotes/{r}/*"))
}

/// The range of one pushed ref; `None` for a deletion, a ref that brings no
/// commit, or a ref that does not name a commit (a tag of a tree or blob).
pub fn push_range(
    repo: &Repository,
    r: &PushRef,
    remote: Option<&str>,
) -> Result<Option<Range>, ReleaseError> {
    let kind = r.kind();
    if kind == PushKind::Delete {
        return Ok(None);
    }
    let local_id = oid(&r.local_oid, "local")?;
    let Some(local) = commit_of(repo, local_id) else {
        if repo.find_object(local_id, None).is_ok() {
            return Ok(None);
        }
        return Err(ReleaseError::Git {
            context: format!("pushed ref {}", r.local_ref),
            message: format!("object {} is not in this repository", r.local_oid),
        });
    };
    if kind == PushKind::Update {
        let remote_commit = Oid::from_str(&r.remote_oid)
            .ok()
            .and_then(|id| commit_of(repo, id));
        if let Some(rc) = remote_commit {
            if rc == local {
                return Ok(None);
            }
            let ancestor = repo
                .graph_descendant_of(local, rc)
                .map_err(|e| ReleaseError::git("ancestry check", e))?;
            if ancestor {
                return Ok(Some(Range {
                    from: Some(rc),
                    to: local,
                    commits: count(repo, local, &[rc], None)?,
                    rule: Rule::FastForward,
                }));
            }
        }
    }
    let rule = if kind == PushKind::NewBranch {
        new_ref_rule(&r.remote_ref)
    } else {
        Rule::Rewrite
    };
    new_commits_range(repo, local, remote, rule)
}

/// How a new remote ref is called in messages: a tag push is not a "new branch".
pub fn new_ref_rule(remote_ref: &str) -> Rule {
    if remote_ref.starts_with("refs/tags/") {
        Rule::NewTag
    } else if remote_ref.starts_with("refs/heads/") {
        Rule::NewBranch
    } else {
        Rule::NewRef
    }
}

/// The commits of `to` that no `refs/remotes/<remote>/*` has (what a push
/// of `to` as a new ref would bring); `None` when there are none.
pub fn unpushed_range(
    repo: &Repository,
    to: Oid,
    remote: Option<&str>,
    rule: Rule,
) -> Result<Option<Range>, ReleaseError> {
    new_commits_range(repo, to, remote, rule)
}

/// Commits reachable from `to` and from no `refs/remotes/<remote>/*`,
/// diffed from the first one's parent.
fn new_commits_range(
    repo: &Repository,
    to: Oid,
    remote: Option<&str>,
    rule: Rule,
) -> Result<Option<Range>, ReleaseError> {
    let glob = remote_glob(remote);
    let walk_err = |e| ReleaseError::git("walking the pushed commits", e);
    let mut walk = repo.revwalk().map_err(walk_err)?;
    walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)
        .map_err(walk_err)?;
    walk.push(to).map_err(walk_err)?;
    if let Some(g) = &glob {
        walk.hide_glob(g).map_err(walk_err)?;
    }
    let mut first = None;
    let mut n = 0usize;
    for id in walk {
        let id = id.map_err(walk_err)?;
        if first.is_none() {
            first = Some(id);
        }
        n += 1;
    }
    let Some(first) = first else {
        return Ok(None);
    };
    let c = repo
        .find_commit(first)
        .map_err(|e| ReleaseError::git(format!("commit {first}"), e))?;
    Ok(Some(Range {
        from: c.parent_id(0).ok(),
        to,
        commits: n,
        rule,
    }))
}

/// Local branches and tags (`refs/heads/*`, `refs/tags/*`) other than
/// `skip` whose commits some `refs/remotes/<remote>/*` lacks, each with the
/// range a push of it as a new ref would bring. The pre-commit framework
/// names only the first pushed ref; these are the refs the same push may
/// also send.
pub fn unpushed_refs(
    repo: &Repository,
    remote: Option<&str>,
    skip: &[String],
) -> Result<Vec<(String, Range)>, ReleaseError> {
    let mut out = Vec::new();
    for glob in ["refs/heads/*", "refs/tags/*"] {
        let refs = repo
            .references_glob(glob)
            .map_err(|e| ReleaseError::git(format!("listing {glob}"), e))?;
        let mut named: Vec<(String, Oid)> = Vec::new();
        for r in refs.flatten() {
            let Some(name) = r.name().map(str::to_string) else {
                continue;
            };
            if skip.contains(&name) {
                continue;
            }
            if let Ok(c) = r.peel_to_commit() {
                named.push((name, c.id()));
            }
        }
        named.sort();
        for (name, tip) in named {
            if let Some(range) = new_commits_range(repo, tip, remote, new_ref_rule(&name))? {
                out.push((name, range));
            }
        }
    }
    Ok(out)
}

/// Commits reachable from `to` and not from `hide` (nor `glob`).
fn count(
    repo: &Repository,
    to: Oid,
    hide: &[Oid],
    glob: Option<&str>,
) -> Result<usize, ReleaseError> {
    let walk_err = |e| ReleaseError::git("counting commits", e);
    let mut walk = repo.revwalk().map_err(walk_err)?;
    walk.push(to).map_err(walk_err)?;
    for h in hide {
        walk.hide(*h).map_err(walk_err)?;
    }
    if let Some(g) = glob {
        walk.hide_glob(g).map_err(walk_err)?;
    }
    Ok(walk.count())
}

fn resolve(repo: &Repository, rev: &str) -> Result<Oid, ReleaseError> {
    let obj = repo
        .revparse_single(rev)
        .map_err(|e| ReleaseError::git(format!("revision `{rev}`"), e))?;
    obj.peel_to_commit()
        .map(|c| c.id())
        .map_err(|e| ReleaseError::git(format!("revision `{rev}`"), e))
}

/// `merge-base(from, to)..to`; when the two have no common ancestor, `from..to`
/// (what the pre-commit framework does with `PRE_COMMIT_FROM_REF`/`_TO_REF`).
pub fn merge_base_range(repo: &Repository, from: &str, to: &str) -> Result<Range, ReleaseError> {
    let f = resolve(repo, from)?;
    let t = resolve(repo, to)?;
    let base = repo.merge_base(f, t).unwrap_or(f);
    Ok(Range {
        from: Some(base),
        to: t,
        commits: count(repo, t, &[base], None)?,
        rule: Rule::MergeBase,
    })
}

/// Every file of `rev`'s tree, as if added from the empty tree.
pub fn whole_tree(repo: &Repository, rev: &str) -> Result<Range, ReleaseError> {
    let to = resolve(repo, rev)?;
    Ok(Range {
        from: None,
        to,
        commits: count(repo, to, &[], None)?,
        rule: Rule::WholeTree,
    })
}

/// `merge-base(rev, HEAD)..HEAD` (`gate --changed-since REV`).
pub fn since(repo: &Repository, rev: &str) -> Result<Range, ReleaseError> {
    merge_base_range(repo, rev, "HEAD")
}

/// Paths (relative to the repository root) changed between the range's two
/// trees, both sides of each delta, sorted and free of duplicates.
pub fn changed_paths(repo: &Repository, range: &Range) -> Result<Vec<PathBuf>, ReleaseError> {
    let tree_of = |id: Oid| {
        repo.find_commit(id)
            .and_then(|c| c.tree())
            .map_err(|e| ReleaseError::git(format!("tree of {id}"), e))
    };
    let old = range.from.map(tree_of).transpose()?;
    let new = tree_of(range.to)?;
    let diff = repo
        .diff_tree_to_tree(old.as_ref(), Some(&new), None)
        .map_err(|e| ReleaseError::git(format!("diff {}", range.describe()), e))?;
    let mut out = Vec::new();
    for d in diff.deltas() {
        for p in [d.old_file().path(), d.new_file().path()]
            .into_iter()
            .flatten()
        {
            out.push(p.to_path_buf());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_globs_only_for_plain_remote_names() {
        assert_eq!(
            remote_glob(Some("origin")).as_deref(),
            Some("refs/remotes/origin/*")
        );
        assert_eq!(
            remote_glob(Some("up/stream")).as_deref(),
            Some("refs/remotes/up/stream/*")
        );
        assert_eq!(remote_glob(Some("https://example.com/r.git")), None);
        assert_eq!(remote_glob(Some("/srv/git/r.git")), None);
        assert_eq!(remote_glob(Some("")), None);
        assert_eq!(remote_glob(None), None);
    }
}
