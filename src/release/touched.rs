//! Which skills a set of changed paths concerns.
//!
//! A skill is touched when a changed path is
//! - its SKILL.md, its lockfile, or anything else in its folder (the
//!   outermost folder holding a `SKILL.md`, as `skillgate validate` finds
//!   skills: a skill's subfolders are part of it);
//! - a trajectory under one of its trajectory roots (the configured
//!   `trajectories`, else `.planning/patterns` of its repository), except the
//!   report folder `skill-coverage/` and the configured `report-dir`: every
//!   skill whose roots contain it is touched;
//! - the configuration file in effect (waivers, lexicon, thresholds change
//!   every verdict), or a configuration file added or removed at the root:
//!   every skill is touched.
//!
//! Paths under `target/`, `.git/` and `node_modules/` never make a skill.

use crate::config::{Config, CONFIG_NAMES, DEFAULT_REPORT_DIR, DEFAULT_TRAJECTORIES};
use crate::decode::discover::REPORT_DIR;
use crate::gate;
use crate::parse::walk::{walk_path, SKILL_FILE_NAMES, SKIPPED_DIRS};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// Why a skill is touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    /// A file in its folder changed.
    Folder,
    /// A trajectory under its roots changed.
    Trajectories,
    /// The configuration changed.
    Config,
}

impl Why {
    pub fn as_str(self) -> &'static str {
        match self {
            Why::Folder => "its folder changed",
            Why::Trajectories => "trajectories changed",
            Why::Config => "the configuration changed",
        }
    }
}

/// The skills a change concerns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Touched {
    /// SKILL.md paths (under the root given), with why, sorted.
    pub skills: BTreeMap<PathBuf, Vec<Why>>,
    /// Skill folders whose SKILL.md the change deleted (nothing left to gate).
    pub deleted: Vec<PathBuf>,
    /// Changed paths that concern no skill (counted, for messages).
    pub other: usize,
}

impl Touched {
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }
    pub fn paths(&self) -> Vec<PathBuf> {
        self.skills.keys().cloned().collect()
    }
    fn add(&mut self, skill: PathBuf, why: Why) {
        let v = self.skills.entry(skill).or_default();
        if !v.contains(&why) {
            v.push(why);
            v.sort();
        }
    }
}

/// The SKILL.md of a folder, if it holds one.
fn skill_file(dir: &Path) -> Option<PathBuf> {
    SKILL_FILE_NAMES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

fn absolute(p: &Path, base: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    }
}

/// Every skill under `root` (as `skillgate validate` walks a tree).
fn all_skills(root: &Path) -> Vec<PathBuf> {
    walk_path(root).map(|w| w.skills).unwrap_or_default()
}

/// The skills that the `changed` paths (relative to `root`, the folder the
/// gate will read: a working tree or an exported commit) concern.
pub fn touched_skills(root: &Path, changed: &[PathBuf], config: &Config) -> Touched {
    let mut t = Touched::default();
    let report_dir = match &config.report_dir {
        Some(d) => absolute(d, root),
        None => root.join(DEFAULT_REPORT_DIR),
    };
    let config_rel = config
        .file
        .as_ref()
        .and_then(|f| f.strip_prefix(root).ok())
        .map(Path::to_path_buf);
    // Roots a trajectory may sit under, for the quick test; each skill's own
    // roots decide below.
    let candidate_roots: Vec<PathBuf> = match &config.trajectories {
        Some(v) => v.iter().map(|p| absolute(p, root)).collect(),
        None => vec![root.join(DEFAULT_TRAJECTORIES)],
    };
    let mut all = false;
    let mut trajectories: Vec<PathBuf> = Vec::new();
    for rel in changed {
        let skipped = rel.components().any(|c| match c {
            Component::Normal(n) => SKIPPED_DIRS.iter().any(|s| n == *s),
            _ => true,
        });
        if skipped {
            t.other += 1;
            continue;
        }
        let abs = root.join(rel);
        let is_config = Some(rel) == config_rel.as_ref()
            || (rel.parent() == Some(Path::new(""))
                && CONFIG_NAMES.iter().any(|n| rel.as_os_str() == *n));
        if is_config {
            all = true;
            continue;
        }
        if abs.starts_with(&report_dir) {
            t.other += 1;
            continue;
        }
        let in_traj_root = candidate_roots.iter().any(|r| {
            abs.starts_with(r)
                && !abs
                    .strip_prefix(r)
                    .map(|rest| rest.components().any(|c| c.as_os_str() == REPORT_DIR))
                    .unwrap_or(false)
        });
        let mut found = false;
        if in_traj_root {
            trajectories.push(abs.clone());
            found = true;
        }
        // The outermost folder holding a SKILL.md, from the root down.
        let mut dir = root.to_path_buf();
        let mut skill = skill_file(&dir);
        if skill.is_none() {
            let parent_parts: Vec<_> = rel
                .parent()
                .map(|p| p.components().collect())
                .unwrap_or_default();
            for c in parent_parts {
                dir.push(c);
                if let Some(s) = skill_file(&dir) {
                    skill = Some(s);
                    break;
                }
            }
        }
        match skill {
            Some(s) => {
                t.add(s, Why::Folder);
                found = true;
            }
            None => {
                let name = rel.file_name().map(|n| n.to_string_lossy().into_owned());
                if name
                    .as_deref()
                    .is_some_and(|n| SKILL_FILE_NAMES.contains(&n))
                    && !abs.exists()
                {
                    if let Some(p) = rel.parent() {
                        t.deleted.push(p.to_path_buf());
                    }
                    found = true;
                }
            }
        }
        if !found {
            t.other += 1;
        }
    }
    if all || !trajectories.is_empty() {
        for s in all_skills(root) {
            if all {
                t.add(s, Why::Config);
                continue;
            }
            let roots: Vec<PathBuf> = match &config.trajectories {
                Some(v) => v.iter().map(|p| absolute(p, root)).collect(),
                None => vec![gate::default_base(&s, root).join(DEFAULT_TRAJECTORIES)],
            };
            if trajectories
                .iter()
                .any(|tr| roots.iter().any(|r| tr.starts_with(r)))
            {
                t.add(s, Why::Trajectories);
            }
        }
    }
    t.deleted.sort();
    t.deleted.dedup();
    t
}

/// Keep the touched skills that lie under one of `filters` (files or folders,
/// relative to `cwd`); no filter keeps all.
pub fn restrict(t: &mut Touched, filters: &[PathBuf], cwd: &Path) {
    if filters.is_empty() {
        return;
    }
    let canon = |p: &Path| {
        let abs = absolute(p, cwd);
        abs.canonicalize().unwrap_or(abs)
    };
    let wanted: Vec<PathBuf> = filters.iter().map(|f| canon(f)).collect();
    t.skills.retain(|skill, _| {
        let s = canon(skill);
        let dir = s.parent().map(Path::to_path_buf).unwrap_or_default();
        wanted.iter().any(|w| s == *w || dir.starts_with(w))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(root: &Path, rel: &str) {
        let d = root.join(rel);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("SKILL.md"), "---\nname: x\ndescription: y\n---\n").unwrap();
    }

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn folder_lockfile_and_subfolder_changes_touch_their_skill() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        skill(root, "skills/a");
        skill(root, "skills/b");
        std::fs::create_dir_all(root.join("skills/a/scripts")).unwrap();
        let t = touched_skills(
            root,
            &[
                p("skills/a/SKILL.constraints.yaml"),
                p("skills/a/scripts/run.sh"),
                p("README.md"),
            ],
            &Config::default(),
        );
        assert_eq!(t.paths(), vec![root.join("skills/a/SKILL.md")]);
        assert_eq!(t.skills[&root.join("skills/a/SKILL.md")], vec![Why::Folder]);
        assert_eq!(t.other, 1);
    }

    #[test]
    fn trajectories_touch_every_skill_whose_roots_hold_them_but_reports_do_not() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        skill(root, "skills/a");
        skill(root, ".claude/skills/b");
        let t = touched_skills(
            root,
            &[p(".planning/patterns/skill-coverage/a-20260101T000000Z.md")],
            &Config::default(),
        );
        assert!(t.is_empty(), "{t:?}");
        let t = touched_skills(
            root,
            &[p(".planning/patterns/s1.jsonl")],
            &Config::default(),
        );
        assert_eq!(
            t.paths(),
            vec![
                root.join(".claude/skills/b/SKILL.md"),
                root.join("skills/a/SKILL.md")
            ]
        );
        assert_eq!(
            t.skills[&root.join("skills/a/SKILL.md")],
            vec![Why::Trajectories]
        );
    }

    #[test]
    fn configured_roots_and_report_dir_are_honoured() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        skill(root, "skills/a");
        let config = Config {
            trajectories: Some(vec![root.join("sessions")]),
            report_dir: Some(root.join("sessions/out")),
            ..Config::default()
        };
        assert!(touched_skills(root, &[p(".planning/patterns/x.jsonl")], &config).is_empty());
        assert!(touched_skills(root, &[p("sessions/out/r.md")], &config).is_empty());
        assert_eq!(
            touched_skills(root, &[p("sessions/x.jsonl")], &config).paths(),
            vec![root.join("skills/a/SKILL.md")]
        );
    }

    #[test]
    fn a_configuration_change_touches_all_and_deleted_skills_are_listed() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        skill(root, "skills/a");
        skill(root, "skills/b");
        let t = touched_skills(root, &[p(".skillgate.yaml")], &Config::default());
        assert_eq!(t.skills.len(), 2);
        assert_eq!(t.skills[&root.join("skills/b/SKILL.md")], vec![Why::Config]);
        let t = touched_skills(root, &[p("skills/gone/SKILL.md")], &Config::default());
        assert!(t.is_empty());
        assert_eq!(t.deleted, vec![p("skills/gone")]);
        let t = touched_skills(
            root,
            &[p("node_modules/x/SKILL.md"), p("target/y")],
            &Config::default(),
        );
        assert!(t.is_empty());
        assert_eq!(t.other, 2);
    }

    #[test]
    fn a_skill_at_the_root_owns_every_path() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        skill(root, "");
        skill(root, "nested/inner");
        let t = touched_skills(root, &[p("nested/inner/notes.md")], &Config::default());
        assert_eq!(t.paths(), vec![root.join("SKILL.md")]);
    }

    #[test]
    fn restrict_keeps_skills_under_the_filters() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        skill(root, "skills/a");
        skill(root, "other/b");
        let mut t = touched_skills(root, &[p("skills/a/x"), p("other/b/y")], &Config::default());
        restrict(&mut t, &[p("skills")], root);
        assert_eq!(t.paths(), vec![root.join("skills/a/SKILL.md")]);
    }
}
