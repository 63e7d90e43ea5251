//! Whether a change to a skill touches a rule (seed 004, "When to skip: the
//! skill is a pure metadata/frontmatter change … needs no trajectory").
//!
//! A change **touches no rule** when the only file of the skill's folder that
//! changed is its SKILL.md, its frontmatter `name` is the same, and the rules
//! extracted from the old and the new text (with the configured lexicon) are
//! the same — modality, wording, scope, `when` / `require` / `forbid` /
//! `order` / `manual` — whatever their line numbers or ids. Frontmatter
//! (description, metadata, allowed-tools…) and non-normative prose can then
//! change freely: `ship` and the pre-push hook both skip the gate for such a
//! change ("not re-gated"), and both re-gate anything else.

use crate::extract::{extract, Lexicon};
use crate::parse::Skill;
use git2::{Oid, Repository};
use std::path::{Path, PathBuf};

/// The rules of a SKILL.md text, as comparable keys (no ids, no lines),
/// and its frontmatter name; `None` when the text does not parse.
pub fn rule_keys(
    path: &Path,
    text: &str,
    lexicon: &Lexicon,
) -> Option<(Option<String>, Vec<String>)> {
    let skill = Skill::parse_bytes(path, text.as_bytes()).ok()?;
    let name = skill.frontmatter.as_ref().and_then(|f| f.name.clone());
    let mut keys: Vec<String> = extract(&skill, lexicon)
        .into_iter()
        .filter_map(|c| {
            let mut v = serde_json::to_value(&c).ok()?;
            let o = v.as_object_mut()?;
            o.remove("id");
            o.remove("lines");
            Some(v.to_string())
        })
        .collect();
    keys.sort();
    Some((name, keys))
}

/// True when `old` → `new` (both texts of the SKILL.md at `path`) changes no rule.
pub fn touches_no_rule(path: &Path, old: &str, new: &str, lexicon: &Lexicon) -> bool {
    match (rule_keys(path, old, lexicon), rule_keys(path, new, lexicon)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// The text of `rel` (repository-relative) in commit `commit`, if it is a UTF-8 file there.
pub fn text_at(repo: &Repository, commit: Oid, rel: &Path) -> Option<String> {
    let tree = repo.find_commit(commit).ok()?.tree().ok()?;
    let entry = tree.get_path(rel).ok()?;
    let blob = entry.to_object(repo).ok()?.peel_to_blob().ok()?;
    String::from_utf8(blob.content().to_vec()).ok()
}

/// Paths (repository-relative) under `folder` that differ between commit
/// `base` and the working tree (index included).
pub fn changed_since(repo: &Repository, base: Oid, folder: &Path) -> Option<Vec<PathBuf>> {
    let tree = repo.find_commit(base).ok()?.tree().ok()?;
    let mut opts = git2::DiffOptions::new();
    opts.pathspec(folder)
        .include_untracked(true)
        .recurse_untracked_dirs(true);
    let diff = repo
        .diff_tree_to_workdir_with_index(Some(&tree), Some(&mut opts))
        .ok()?;
    let mut out: Vec<PathBuf> = diff
        .deltas()
        .flat_map(|d| [d.old_file().path(), d.new_file().path()])
        .flatten()
        .map(Path::to_path_buf)
        .collect();
    out.sort();
    out.dedup();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = "---\nname: demo\ndescription: Demo skill.\n---\n\n# Demo\n\nYou MUST NOT force-push (`git push --force`).\n";

    #[test]
    fn frontmatter_and_prose_touch_no_rule_but_a_rule_does() {
        let p = Path::new("skills/demo/SKILL.md");
        let lex = Lexicon::builtin();
        let meta = SKILL.replace("Demo skill.", "A demo skill. Use it for demos.");
        assert!(touches_no_rule(p, SKILL, &meta, &lex));
        let prose = SKILL.replace(
            "# Demo\n",
            "# Demo\n\nSome background on why this exists.\n",
        );
        assert!(touches_no_rule(p, SKILL, &prose, &lex));
        let rule = format!("{SKILL}\nAlways run the tests before pushing.\n");
        assert!(!touches_no_rule(p, SKILL, &rule, &lex));
        let renamed = SKILL.replace("name: demo", "name: other");
        assert!(!touches_no_rule(p, SKILL, &renamed, &lex));
        let reworded = SKILL.replace("MUST NOT force-push", "MUST NOT ever force-push");
        assert!(!touches_no_rule(p, SKILL, &reworded, &lex));
    }
}
