//! Finding SKILL.md files: a file, a skill folder, or a tree holding many.
//!
//! Rules (docs/skills.md):
//! - a file given by name is taken as a SKILL.md whatever its name;
//! - a folder holding `SKILL.md` (else `skill.md`) is one skill, and its
//!   subfolders (`scripts/`, `references/`, `assets/`) are not searched;
//! - other folders are searched recursively, skipping `target/`, `.git/` and
//!   `node_modules/` (hidden folders such as `.claude/skills` are searched);
//! - symbolic links inside a tree are never followed out of it: a link whose
//!   target lies outside is recorded as a skip; a link to a folder inside is
//!   not followed either (the folder is reached by its real path);
//! - the result is sorted and free of duplicates;
//! - a folder with no SKILL.md anywhere below it is an error naming it.

use super::diag::Code;
use super::skill::ParseError;
use std::path::{Path, PathBuf};

/// Folder names never searched.
pub const SKIPPED_DIRS: &[&str] = &["target", ".git", "node_modules"];

/// File names that make a folder a skill, in order of preference.
pub const SKILL_FILE_NAMES: &[&str] = &["SKILL.md", "skill.md"];

/// Something the walk did not follow, and why (reported, never silent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    pub path: PathBuf,
    pub reason: String,
}

/// What a walk found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Walk {
    /// SKILL.md paths, sorted, no duplicates.
    pub skills: Vec<PathBuf>,
    pub skipped: Vec<Skip>,
}

/// Every SKILL.md under `paths` (files, skill folders or trees), sorted and
/// deduplicated. The first path that is missing, unreadable or holds no skill
/// is an error naming it. Skipped symbolic links are logged (`tracing::warn`);
/// use [`walk_path`] to get them as data.
pub fn find_skills(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ParseError> {
    let mut all = Vec::new();
    for p in paths {
        let w = walk_path(p)?;
        for s in &w.skipped {
            tracing::warn!(path = %s.path.display(), "{}", s.reason);
        }
        all.extend(w.skills);
    }
    all.sort();
    all.dedup();
    Ok(all)
}

/// Walk one path given by a user.
pub fn walk_path(root: &Path) -> Result<Walk, ParseError> {
    let io_err = |p: &Path, e: std::io::Error| {
        let code = if e.kind() == std::io::ErrorKind::NotFound {
            Code::PathNotFound
        } else {
            Code::Unreadable
        };
        let what = if code == Code::PathNotFound {
            "no such file or folder".to_string()
        } else {
            format!("cannot read: {e}")
        };
        ParseError::new(p, 0, 0, code, what)
    };
    // The path the user named is followed even when it is a link.
    let meta = std::fs::metadata(root).map_err(|e| io_err(root, e))?;
    if meta.is_file() {
        return Ok(Walk {
            skills: vec![root.to_path_buf()],
            skipped: vec![],
        });
    }
    if !meta.is_dir() {
        return Err(ParseError::new(
            root,
            0,
            0,
            Code::Unreadable,
            "neither a file nor a folder",
        ));
    }
    let canon_root = std::fs::canonicalize(root).map_err(|e| io_err(root, e))?;
    let mut walk = Walk::default();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|e| io_err(&dir, e))? {
            let entry = entry.map_err(|e| io_err(&dir, e))?;
            let ft = entry.file_type().map_err(|e| io_err(&entry.path(), e))?;
            entries.push((entry.file_name(), ft));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));

        // A skill folder: take its SKILL.md and do not descend.
        let skill_file = SKILL_FILE_NAMES.iter().find_map(|want| {
            entries
                .iter()
                .find(|(n, ft)| n == want && (ft.is_file() || ft.is_symlink()))
        });
        if let Some((name, ft)) = skill_file {
            let path = dir.join(name);
            if ft.is_symlink() {
                match link_target_inside(&path, &canon_root) {
                    Some(true) if path.is_file() => walk.skills.push(path),
                    Some(true) => {}
                    _ => walk.skipped.push(Skip {
                        path,
                        reason:
                            "symbolic link pointing outside the tree (or dangling); not followed"
                                .into(),
                    }),
                }
            } else {
                walk.skills.push(path);
            }
            continue;
        }

        let mut subdirs = Vec::new();
        for (name, ft) in entries {
            let path = dir.join(&name);
            if ft.is_dir() {
                if !SKIPPED_DIRS.iter().any(|s| name == *s) {
                    subdirs.push(path);
                }
            } else if ft.is_symlink()
                && path.is_dir()
                && link_target_inside(&path, &canon_root) != Some(true)
            {
                walk.skipped.push(Skip {
                    path,
                    reason: "symbolic link to a folder outside the tree; not followed".into(),
                });
            }
        }
        // Reverse so the stack pops in sorted order.
        stack.extend(subdirs.into_iter().rev());
    }
    walk.skills.sort();
    walk.skills.dedup();
    if walk.skills.is_empty() {
        let mut msg = "no SKILL.md in this folder or below it; pass a SKILL.md, a skill folder or a tree of skills".to_string();
        if !walk.skipped.is_empty() {
            msg.push_str(&format!(
                " ({} symbolic link(s) out of the tree not followed)",
                walk.skipped.len()
            ));
        }
        return Err(ParseError::new(root, 0, 0, Code::NoSkillFound, msg));
    }
    Ok(walk)
}

/// Whether a link's resolved target lies inside `canon_root` (None: dangling).
fn link_target_inside(link: &Path, canon_root: &Path) -> Option<bool> {
    std::fs::canonicalize(link)
        .ok()
        .map(|t| t.starts_with(canon_root))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn touch(p: &Path) {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "---\nname: x\ndescription: y\n---\n").unwrap();
    }

    #[test]
    fn walks_trees_sorted_skipping_build_dirs_and_skill_resources() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        touch(&r.join("b/beta/SKILL.md"));
        touch(&r.join("a/alpha/SKILL.md"));
        touch(&r.join("a/alpha/references/nested/SKILL.md")); // inside a skill: not searched
        touch(&r.join(".claude/skills/gamma/skill.md"));
        touch(&r.join("target/debug/x/SKILL.md"));
        touch(&r.join("node_modules/p/SKILL.md"));
        touch(&r.join(".git/x/SKILL.md"));
        let got = find_skills(&[r.to_path_buf()]).unwrap();
        let rel: Vec<_> = got
            .iter()
            .map(|p| p.strip_prefix(r).unwrap().to_str().unwrap().to_string())
            .collect();
        assert_eq!(
            rel,
            [
                ".claude/skills/gamma/skill.md",
                "a/alpha/SKILL.md",
                "b/beta/SKILL.md"
            ]
        );
    }

    #[test]
    fn file_and_folder_inputs_dedupe() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("one/SKILL.md");
        touch(&f);
        let got = find_skills(&[t.path().join("one"), f.clone(), t.path().to_path_buf()]).unwrap();
        assert_eq!(got, vec![f]);
    }

    #[test]
    fn empty_folder_and_missing_path_are_errors_naming_them() {
        let t = tempfile::tempdir().unwrap();
        fs::create_dir_all(t.path().join("empty/sub")).unwrap();
        let e = find_skills(&[t.path().join("empty")]).unwrap_err();
        assert_eq!(e.code, Code::NoSkillFound);
        assert_eq!(e.path, t.path().join("empty"));
        assert!(e.to_string().contains("no SKILL.md"), "{e}");
        let e = find_skills(&[t.path().join("nope")]).unwrap_err();
        assert_eq!(e.code, Code::PathNotFound);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_tree_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        touch(&outside.path().join("evil/SKILL.md"));
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        touch(&r.join("ok/SKILL.md"));
        std::os::unix::fs::symlink(outside.path().join("evil"), r.join("evil")).unwrap();
        fs::create_dir_all(r.join("linked")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("evil/SKILL.md"),
            r.join("linked/SKILL.md"),
        )
        .unwrap();
        std::os::unix::fs::symlink(r.join("ok"), r.join("again")).unwrap(); // inside: reached by real path
        let w = walk_path(r).unwrap();
        assert_eq!(w.skills, vec![r.join("ok/SKILL.md")]);
        let skipped: Vec<_> = w.skipped.iter().map(|s| s.path.clone()).collect();
        assert_eq!(skipped, vec![r.join("evil"), r.join("linked/SKILL.md")]);
    }
}
