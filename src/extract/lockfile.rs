//! `SKILL.constraints.yaml` (SPEC §4.2): the reviewed, committed constraint list.

use super::constraint::Constraint;
use serde::{Deserialize, Serialize};

/// The lockfile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lockfile {
    pub version: u32,
    pub skill: String,
    pub source_sha256: String,
    pub constraints: Vec<Constraint>,
}

/// The lockfile's name beside SKILL.md.
pub const LOCKFILE_NAME: &str = "SKILL.constraints.yaml";
