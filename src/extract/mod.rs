//! extract: a parsed [`crate::parse::Skill`] → constraints (SPEC §4), and the
//! reviewed lockfile `SKILL.constraints.yaml`.
//!
//! [`load_constraints`] is what the gate calls: the lockfile beside SKILL.md
//! when there is one (with drift when the skill changed since), else
//! heuristic extraction with a [`Lexicon`].

pub mod constraint;
pub mod extractor;
pub mod lexicon;
pub mod lockfile;
pub mod markdown;
pub mod predicate;

pub use constraint::{Constraint, Modality, Order, ScopeTag};
pub use extractor::extract;
pub use lexicon::{Lexicon, LexiconFile};
pub use lockfile::{Lockfile, LockfileError, LOCKFILE_NAME};
pub use predicate::Predicate;

use crate::parse::Skill;
use std::path::PathBuf;

/// Where a skill's constraints came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstraintSource {
    /// The reviewed lockfile; `drift` when its `source_sha256` is not the
    /// skill's current sha256 (the skill changed since it was reviewed: the
    /// pinned constraints are still used, and reports say so).
    Lockfile { path: PathBuf, drift: bool },
    /// No lockfile: extracted heuristically from the skill's text.
    Extracted,
}

/// A skill's constraints with their source.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub constraints: Vec<Constraint>,
    pub source: ConstraintSource,
}

/// The lockfile path of a skill: `SKILL.constraints.yaml` beside its SKILL.md.
pub fn lockfile_path(skill: &Skill) -> PathBuf {
    skill.dir().join(LOCKFILE_NAME)
}

/// The constraints the gate judges: the lockfile when present (a malformed
/// one is an error naming file and line), else extraction.
pub fn load_constraints(skill: &Skill, lexicon: &Lexicon) -> Result<Loaded, LockfileError> {
    load_constraints_with(skill, || Ok(lexicon))
}

/// [`load_constraints`] with the lexicon asked for only when the skill has
/// no lockfile (compiling a whole lexicon costs ~50 M instructions; a
/// lockfile needs none of it).
pub fn load_constraints_with<'a, E: From<LockfileError>>(
    skill: &Skill,
    lexicon: impl FnOnce() -> Result<&'a Lexicon, E>,
) -> Result<Loaded, E> {
    let path = lockfile_path(skill);
    // a dangling symlink, a FIFO or a folder there is an error, not "no lockfile"
    if crate::fsutil::entry_exists(&path) {
        let lf = Lockfile::read(&path)?;
        let drift = !lf.source_sha256.eq_ignore_ascii_case(&skill.sha256);
        Ok(Loaded {
            constraints: lf.constraints,
            source: ConstraintSource::Lockfile { path, drift },
        })
    } else {
        Ok(Loaded {
            constraints: extract(skill, lexicon()?),
            source: ConstraintSource::Extracted,
        })
    }
}
