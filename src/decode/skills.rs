//! Skill-load detection shared by all formats (weak evidence: reads of SKILL.md).

use super::Trajectory;

/// Add weak `SkillLoad` events for reads of `…/skills/<name>/SKILL.md`.
pub fn add_weak_loads(_traj: &mut Trajectory) {}
