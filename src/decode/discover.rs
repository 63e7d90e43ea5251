//! Discovery of trajectory files under the configured roots (SPEC §5; default
//! root `.planning/patterns/`).
//!
//! - Recursive, in a stable order (byte order of the paths).
//! - The report folder `skill-coverage/` and `.git/` are skipped.
//! - Sidecars are not trajectories: `*.retro.yaml`, `*.meta.json`, and neither is
//!   Claude Code's `sessions-index.json`.
//! - Subagent files that belong to a parent session are read with it, not on
//!   their own: `<session>/subagents/**/agent-*.jsonl` beside `<session>.jsonl`,
//!   and `agent-*.jsonl` beside the `<sessionId>.jsonl` their first record names.
//! - Candidates are `.jsonl`, `.json`, `.traj` and `.eval` files, plus `.md` /
//!   `.txt` files that a decoder recognises (so a README or notes file in the
//!   folder is not mistaken for a transcript).
//! - A symbolic link is followed only when its target stays inside the root;
//!   one pointing out of the tree (or into a loop) is skipped and reported.

use super::jsonl;
use super::probe::LooseStr;
use super::{decoders, retro, SNIFF_BYTES};
use serde::Deserialize;
use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The folder (under a root) where reports are written; never searched.
pub const REPORT_DIR: &str = "skill-coverage";

/// What discovery found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Discovery {
    /// Transcript files, sorted.
    pub files: Vec<PathBuf>,
    /// Entries left out that a user may wonder about, with the reason
    /// (symlinks out of the tree, unreadable folders).
    pub skipped: Vec<(PathBuf, String)>,
}

/// Transcript files under `root`, recursively, in a stable order, skipping the
/// report folder and never following a symlink out of the tree. A file `root`
/// is returned as is.
pub fn discover(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    Ok(discover_all(root)?.files)
}

/// [`discover`], with the entries it skipped and why.
pub fn discover_all(root: &Path) -> std::io::Result<Discovery> {
    let meta = std::fs::metadata(root)?;
    if !meta.is_file() && !meta.is_dir() {
        // a FIFO would block, a device never ends: an input error naming it
        return Err(std::io::Error::other(
            crate::fsutil::open_regular(root)
                .err()
                .map_or_else(|| "not a regular file".to_string(), |e| e.to_string()),
        ));
    }
    let mut d = Discovery::default();
    if meta.is_file() {
        let name = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if retro::is_sidecar(root) || name.ends_with(".meta.json") {
            d.skipped.push((
                root.to_path_buf(),
                "a sidecar, read with its transcript".into(),
            ));
        } else {
            d.files.push(root.to_path_buf());
        }
        return Ok(d);
    }
    let canon_root = root.canonicalize()?;
    let mut seen = HashSet::new();
    seen.insert(canon_root.clone());
    walk(root, &canon_root, &canon_root, &mut seen, &mut d)?;
    d.files.sort();
    d.skipped.sort();
    Ok(d)
}

/// Walk `dir`, whose canonical path is `canon_dir`.
fn walk(
    dir: &Path,
    canon_dir: &Path,
    canon_root: &Path,
    seen: &mut HashSet<PathBuf>,
    d: &mut Discovery,
) -> std::io::Result<()> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            d.skipped
                .push((dir.to_path_buf(), format!("unreadable folder: {e}")));
            return Ok(());
        }
    };
    let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(ft) = entry.file_type() else { continue };
        let (is_dir, is_file, canon) = if ft.is_symlink() {
            match path.canonicalize() {
                Ok(target) if target.starts_with(canon_root) => match std::fs::metadata(&target) {
                    Ok(m) => {
                        if m.is_dir() && !seen.insert(target.clone()) {
                            d.skipped
                                .push((path.clone(), "symlink to a folder already walked".into()));
                            continue;
                        }
                        (m.is_dir(), m.is_file(), Some(target))
                    }
                    Err(_) => continue,
                },
                Ok(_) => {
                    d.skipped.push((
                        path.clone(),
                        "symlink pointing out of the tree, not followed".into(),
                    ));
                    continue;
                }
                Err(_) => {
                    d.skipped.push((path.clone(), "broken symlink".into()));
                    continue;
                }
            }
        } else {
            (ft.is_dir(), ft.is_file(), None)
        };
        if is_dir {
            if name == REPORT_DIR || name == ".git" {
                continue;
            }
            // not a link: its canonical path is its folder's and its name
            // (no `canonicalize`, which asks the file system about every
            // component of the path)
            let canon = canon.unwrap_or_else(|| canon_dir.join(entry.file_name()));
            if !ft.is_symlink() && !seen.insert(canon.clone()) {
                continue; // reached before through a symlink
            }
            walk(&path, &canon, canon_root, seen, d)?;
        } else if is_file && is_candidate(&path, &name) {
            d.files.push(path);
        }
    }
    Ok(())
}

fn is_candidate(path: &Path, name: &str) -> bool {
    if retro::is_sidecar(path) || name.ends_with(".meta.json") || name == "sessions-index.json" {
        return false; // sidecars and Claude Code's project index
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "jsonl" => !belongs_to_parent_session(path, name),
        "json" | "traj" | "eval" => true,
        "md" | "txt" => recognised(path),
        _ => false,
    }
}

/// A Claude Code subagent file read together with its parent session.
fn belongs_to_parent_session(path: &Path, name: &str) -> bool {
    if !name.starts_with("agent-") {
        return false;
    }
    // <session>/subagents/[workflows/<wf>/]agent-*.jsonl with <session>.jsonl beside <session>/
    let mut cur = path.parent();
    while let Some(dir) = cur {
        if dir.file_name().is_some_and(|n| n == "subagents") {
            if let (Some(session_dir), Some(project)) =
                (dir.parent(), dir.parent().and_then(Path::parent))
            {
                if let Some(session) = session_dir.file_name() {
                    let mut f = session.to_os_string();
                    f.push(".jsonl");
                    if project.join(f).is_file() {
                        return true;
                    }
                }
            }
            break;
        }
        cur = dir.parent();
    }
    // mid-2.0 layout: agent-<id>.jsonl beside <sessionId>.jsonl
    #[derive(Deserialize)]
    struct First {
        #[serde(rename = "sessionId", default)]
        session_id: LooseStr,
    }
    if let (Some(first), Some(dir)) = (jsonl::first_record::<First>(path), path.parent()) {
        if let Some(sid) = first.session_id.non_empty() {
            if !sid.starts_with("agent-") && dir.join(format!("{sid}.jsonl")).is_file() {
                return true;
            }
        }
    }
    false
}

/// Some decoder recognises the file's first bytes.
fn recognised(path: &Path) -> bool {
    let mut head = Vec::new();
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    if f.take(SNIFF_BYTES as u64).read_to_end(&mut head).is_err() {
        return false;
    }
    decoders().iter().any(|d| d.sniff(path, &head) > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn walks_sorted_and_skips() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        touch(&r.join("b/s2.jsonl"), "{}\n");
        touch(&r.join("a.jsonl"), "{}\n");
        touch(&r.join("a.jsonl.retro.yaml"), "complete: true\n");
        touch(&r.join("skill-coverage/report.json"), "{}");
        touch(&r.join("notes.md"), "# notes\n");
        touch(&r.join("x.traj"), "{}");
        touch(&r.join("sess.jsonl"), "{\"sessionId\":\"sess\"}\n");
        touch(&r.join("sess/subagents/agent-1.jsonl"), "{}\n");
        touch(&r.join("sess/subagents/agent-1.meta.json"), "{}");
        touch(&r.join("agent-2.jsonl"), "{\"sessionId\":\"sess\"}\n");
        touch(&r.join("agent-3.jsonl"), "{\"sessionId\":\"other\"}\n");
        let files: Vec<String> = discover(r)
            .unwrap()
            .iter()
            .map(|p| p.strip_prefix(r).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            files,
            [
                "a.jsonl",
                "agent-3.jsonl",
                "b/s2.jsonl",
                "sess.jsonl",
                "x.traj"
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_tree_are_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        touch(&outside.path().join("secret.jsonl"), "{}\n");
        let r = t.path().join("root");
        touch(&r.join("in/a.jsonl"), "{}\n");
        std::os::unix::fs::symlink(outside.path(), r.join("out")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.jsonl"), r.join("s.jsonl")).unwrap();
        std::os::unix::fs::symlink(r.join("in"), r.join("loop")).unwrap();
        let d = discover_all(&r).unwrap();
        assert_eq!(d.files, [r.join("in/a.jsonl")]);
        assert_eq!(d.skipped.len(), 3);
        assert!(d
            .skipped
            .iter()
            .any(|(p, why)| p.ends_with("out") && why.contains("out of the tree")));
    }

    #[test]
    fn a_file_root_is_itself() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("x.md");
        touch(&f, "hello");
        assert_eq!(discover(&f).unwrap(), [f]);
    }
}
