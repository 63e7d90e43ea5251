//! extract: a parsed [`crate::parse::Skill`] → constraints (SPEC §4), and the
//! reviewed lockfile `SKILL.constraints.yaml`.

pub mod constraint;
pub mod extractor;
pub mod lexicon;
pub mod lockfile;
pub mod predicate;

pub use constraint::{Constraint, Modality, Order, ScopeTag};
pub use predicate::Predicate;
