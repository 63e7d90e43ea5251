//! Deterministic extraction of constraints from a skill body.

use super::constraint::Constraint;
use super::lexicon::Lexicon;
use crate::parse::Skill;

/// Extract the constraints of a skill with a lexicon.
pub fn extract(_skill: &Skill, _lexicon: &Lexicon) -> Vec<Constraint> {
    Vec::new()
}
