//! Patches → file effects: `apply_patch` envelopes (`*** Begin Patch` …
//! `*** End Patch`, the Codex grammar) and unified diffs (`git apply`, `patch`).

use super::model::FileEffect;

/// The file effects of an apply_patch body, in patch order:
/// `*** Add File: p` → write, `*** Delete File: p` → delete,
/// `*** Update File: p` → edit, and with `*** Move to: q` → rename p → q
/// (plus an edit of q when the section has hunks).
///
/// Lenient like Codex's own parser: surrounding whitespace on the marker lines
/// is ignored and a missing `*** End Patch` is accepted.
pub fn parse_apply_patch(text: &str) -> Vec<FileEffect> {
    let mut effects = Vec::new();
    // An update section waiting for its optional `*** Move to:`.
    let mut update: Option<(String, Option<String>, bool)> = None;
    let flush = |u: &mut Option<(String, Option<String>, bool)>, effects: &mut Vec<FileEffect>| {
        if let Some((path, moved, has_hunks)) = u.take() {
            match moved {
                Some(to) => {
                    effects.push(FileEffect::Rename {
                        from: path,
                        to: to.clone(),
                    });
                    if has_hunks {
                        effects.push(FileEffect::Edit { path: to });
                    }
                }
                None => effects.push(FileEffect::Edit { path }),
            }
        }
    };
    for raw in text.lines() {
        let line = raw.trim();
        if let Some(p) = line.strip_prefix("*** Add File:") {
            flush(&mut update, &mut effects);
            push_path(&mut effects, p, |path| FileEffect::Write { path });
        } else if let Some(p) = line.strip_prefix("*** Delete File:") {
            flush(&mut update, &mut effects);
            push_path(&mut effects, p, |path| FileEffect::Delete { path });
        } else if let Some(p) = line.strip_prefix("*** Update File:") {
            flush(&mut update, &mut effects);
            let p = p.trim();
            if !p.is_empty() {
                update = Some((p.to_string(), None, false));
            }
        } else if let Some(p) = line.strip_prefix("*** Move to:") {
            if let Some(u) = update.as_mut() {
                let p = p.trim();
                if !p.is_empty() {
                    u.1 = Some(p.to_string());
                }
            }
        } else if line == "*** End Patch" {
            flush(&mut update, &mut effects);
        } else if let Some(u) = update.as_mut() {
            if raw.starts_with('+') || raw.starts_with('-') || raw.starts_with("@@") {
                u.2 = true;
            }
        }
    }
    flush(&mut update, &mut effects);
    effects
}

fn push_path(effects: &mut Vec<FileEffect>, p: &str, make: impl Fn(String) -> FileEffect) {
    let p = p.trim();
    if !p.is_empty() {
        effects.push(make(p.to_string()));
    }
}

/// The file effects of a unified diff (`git diff` / `diff -u` output), one per
/// file section: `/dev/null` as the old side → write, as the new side → delete,
/// `rename from/to` → rename, otherwise edit. `a/` and `b/` prefixes are removed.
pub fn parse_unified_diff(text: &str) -> Vec<FileEffect> {
    let mut effects = Vec::new();
    let mut old: Option<String> = None;
    let mut rename_from: Option<String> = None;
    let mut in_git_header = false;
    let mut git_paths: Option<(String, String)> = None;
    let mut section_done = false;
    let close_git =
        |git_paths: &mut Option<(String, String)>, done: bool, effects: &mut Vec<FileEffect>| {
            // a `diff --git` section without ---/+++ lines (mode change, binary, pure rename)
            if let Some((_, b)) = git_paths.take() {
                if !done {
                    effects.push(FileEffect::Edit { path: b });
                }
            }
        };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            close_git(&mut git_paths, section_done, &mut effects);
            section_done = false;
            in_git_header = true;
            rename_from = None;
            let mut parts = rest.split_whitespace();
            if let (Some(a), Some(b)) = (parts.next(), parts.next()) {
                git_paths = Some((strip_ab(a).to_string(), strip_ab(b).to_string()));
            }
        } else if let Some(p) = line.strip_prefix("rename from ").filter(|_| in_git_header) {
            rename_from = Some(p.trim().to_string());
        } else if let Some(p) = line.strip_prefix("rename to ").filter(|_| in_git_header) {
            if let Some(from) = rename_from.take() {
                effects.push(FileEffect::Rename {
                    from,
                    to: p.trim().to_string(),
                });
                section_done = true;
            }
        } else if let Some(p) = line.strip_prefix("--- ") {
            old = Some(diff_path(p));
        } else if let Some(p) = line.strip_prefix("+++ ") {
            in_git_header = false;
            let new = diff_path(p);
            let Some(old_path) = old.take() else { continue };
            if section_done {
                continue; // a rename with hunks: the rename is already recorded
            }
            section_done = true;
            if old_path == "/dev/null" {
                effects.push(FileEffect::Write { path: new });
            } else if new == "/dev/null" {
                effects.push(FileEffect::Delete { path: old_path });
            } else {
                effects.push(FileEffect::Edit { path: new });
            }
        } else if line.starts_with("new file mode") && in_git_header {
            if let Some((_, b)) = git_paths.take() {
                effects.push(FileEffect::Write { path: b });
                section_done = true;
            }
        } else if line.starts_with("deleted file mode") && in_git_header {
            if let Some((a, _)) = git_paths.take() {
                effects.push(FileEffect::Delete { path: a });
                section_done = true;
            }
        }
    }
    close_git(&mut git_paths, section_done, &mut effects);
    effects
}

fn strip_ab(p: &str) -> &str {
    p.strip_prefix("a/")
        .or_else(|| p.strip_prefix("b/"))
        .unwrap_or(p)
}

/// The path of a `---` / `+++` line: up to a tab (timestamps), `a/`/`b/` removed.
fn diff_path(p: &str) -> String {
    let p = p.split('\t').next().unwrap_or(p).trim();
    strip_ab(p).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_patch_sections() {
        let p = "*** Begin Patch\n*** Add File: a/new.txt\n+hello\n*** Update File: src/lib.rs\n@@ fn x\n-a\n+b\n*** Delete File: old.md\n*** Update File: x.rs\n*** Move to: y.rs\n@@\n-1\n+2\n*** Update File: m.rs\n*** Move to: n.rs\n*** End Patch\n";
        assert_eq!(
            parse_apply_patch(p),
            vec![
                FileEffect::Write {
                    path: "a/new.txt".into()
                },
                FileEffect::Edit {
                    path: "src/lib.rs".into()
                },
                FileEffect::Delete {
                    path: "old.md".into()
                },
                FileEffect::Rename {
                    from: "x.rs".into(),
                    to: "y.rs".into()
                },
                FileEffect::Edit {
                    path: "y.rs".into()
                },
                FileEffect::Rename {
                    from: "m.rs".into(),
                    to: "n.rs".into()
                },
            ]
        );
    }

    #[test]
    fn apply_patch_lenient() {
        assert_eq!(
            parse_apply_patch("  *** Begin Patch\n *** Update File:  a b.txt \n@@\n+x"),
            vec![FileEffect::Edit {
                path: "a b.txt".into()
            }]
        );
        assert!(parse_apply_patch("no patch here").is_empty());
        assert!(parse_apply_patch("*** Add File:   \n").is_empty());
    }

    #[test]
    fn unified_diffs() {
        let d = "diff --git a/x.rs b/x.rs\nindex 1..2 100644\n--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\ndiff --git a/o.txt b/o.txt\ndeleted file mode 100644\n--- a/o.txt\n+++ /dev/null\ndiff --git a/p b/q\nsimilarity index 100%\nrename from p\nrename to q\n";
        assert_eq!(
            parse_unified_diff(d),
            vec![
                FileEffect::Edit {
                    path: "x.rs".into()
                },
                FileEffect::Write {
                    path: "n.txt".into()
                },
                FileEffect::Delete {
                    path: "o.txt".into()
                },
                FileEffect::Rename {
                    from: "p".into(),
                    to: "q".into()
                },
            ]
        );
        let plain = "--- old/f.c\t2020-01-01\n+++ new/f.c\t2020-01-02\n@@ -1 +1 @@\n-a\n+b\n";
        assert_eq!(
            parse_unified_diff(plain),
            vec![FileEffect::Edit {
                path: "new/f.c".into()
            }]
        );
        let mode_only = "diff --git a/s.sh b/s.sh\nold mode 100644\nnew mode 100755\n";
        assert_eq!(
            parse_unified_diff(mode_only),
            vec![FileEffect::Edit {
                path: "s.sh".into()
            }]
        );
    }
}
