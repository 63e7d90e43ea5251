//! Shared by the decode tests: every file under a folder, in a stable order.

use std::path::{Path, PathBuf};

/// Every regular file under `root`, depth first, each folder's entries sorted.
pub fn files_under(root: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.is_file() {
            out.push(p);
        }
    }
}
