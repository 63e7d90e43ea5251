//! parse: SKILL.md → [`Skill`] (SPEC §3), and `validate`'s lint rules.

pub mod diag;
pub mod skill;
pub mod validate;
pub mod walk;

pub use skill::{Frontmatter, ParseError, Skill};
