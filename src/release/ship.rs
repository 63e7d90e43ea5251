//! `skillgate ship SKILL_DIR`: validate + gate one skill, as one JSON object
//! for release tools (docs/integrations.md). Exit codes:
//! 0 ship; 1 blocked (validation errors, or the gate failed closed);
//! 2 input error (no single readable skill, bad lockfile or configuration);
//! 3 nothing to measure (no valid trajectory). Every nonzero code blocks.

use crate::exit::Exit;
use crate::parse::diag::{Diagnostic, Level};
use crate::render::sarif::{deciding_evidence, rule_location};
use crate::score::{Resolution, SkillRef, SkillVerdict};
use serde::Serialize;

/// The validation part.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Validation {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub diagnostics: Vec<Diagnostic>,
}

impl Validation {
    pub fn new(diagnostics: Vec<Diagnostic>) -> Validation {
        let count = |l: Level| diagnostics.iter().filter(|d| d.level == l).count();
        Validation {
            errors: count(Level::Error),
            warnings: count(Level::Warning),
            infos: count(Level::Info),
            diagnostics,
        }
    }
}

/// A rule that blocks the ship.
#[derive(Debug, Clone, Serialize)]
pub struct Blocking {
    pub id: String,
    /// `SKILL.md:line`.
    pub rule: String,
    pub label: String,
    pub scope: Vec<String>,
    /// Trajectory locations (never content).
    pub evidence: Vec<String>,
    pub resolution: Vec<Resolution>,
}

/// An input error that stopped the step.
#[derive(Debug, Clone, Serialize)]
pub struct ShipError {
    pub message: String,
}

/// The one object `ship` prints.
#[derive(Debug, Clone, Serialize)]
pub struct ShipVerdict {
    /// The version of this shape (schemas/ship.schema.json): bumped only when
    /// a field is renamed or removed.
    pub version: u32,
    /// True only with exit code 0.
    pub ship: bool,
    pub exit_code: u8,
    /// Why it does or does not ship, one sentence each.
    pub reasons: Vec<String>,
    pub skill: Option<SkillRef>,
    /// The gate's verdict (`pass` … `fail-closed`); null when the gate did not run.
    pub verdict: Option<String>,
    pub blocking: Vec<Blocking>,
    pub validation: Validation,
    /// The Markdown report written, if any.
    pub report: Option<String>,
    pub error: Option<ShipError>,
    /// The gate's full JSON object (SPEC §7); null when the gate did not run.
    pub gate: Option<SkillVerdict>,
}

/// Combine validation and the gate (or an input error) into the object.
pub fn decide(
    validation: Validation,
    gate: Option<SkillVerdict>,
    error: Option<String>,
    report: Option<String>,
) -> ShipVerdict {
    let mut exit = Exit::Ok;
    let mut reasons = Vec::new();
    if let Some(e) = &error {
        exit = exit.worst(Exit::Error);
        reasons.push(format!("input error: {e}"));
    }
    if validation.errors > 0 {
        exit = exit.worst(Exit::Fail);
        reasons.push(format!(
            "validation: {} error(s) in SKILL.md",
            validation.errors
        ));
    }
    let mut blocking = Vec::new();
    if let Some(v) = &gate {
        match v.exit() {
            Exit::Fail => {
                exit = exit.worst(Exit::Fail);
                reasons.push(format!(
                    "gate: {} — {} blocking rule(s)",
                    v.verdict,
                    v.blocking().count()
                ));
            }
            Exit::NothingToMeasure => {
                exit = exit.worst(Exit::NothingToMeasure);
                reasons.push(format!(
                    "gate: nothing to measure — no valid trajectory ({} discarded); capture a run first",
                    v.trajectories.discarded.len()
                ));
            }
            _ => reasons.push(format!("gate: {}", v.verdict)),
        }
        for c in v.blocking() {
            blocking.push(Blocking {
                id: c.id.clone(),
                rule: rule_location(v, c),
                label: c.label.as_str().to_string(),
                scope: c.scope.iter().map(|s| s.as_str().to_string()).collect(),
                evidence: deciding_evidence(c),
                resolution: c.resolution.clone(),
            });
        }
    }
    if exit == Exit::Ok && validation.warnings > 0 {
        reasons.push(format!(
            "validation: {} warning(s) (non-blocking)",
            validation.warnings
        ));
    }
    ShipVerdict {
        version: crate::render::json::JSON_VERSION,
        ship: exit == Exit::Ok,
        exit_code: exit as u8,
        reasons,
        skill: gate.as_ref().map(|v| v.skill.clone()),
        verdict: gate.as_ref().map(|v| v.verdict.as_str().to_string()),
        blocking,
        validation,
        report,
        error: error.map(|message| ShipError { message }),
        gate,
    }
}

impl ShipVerdict {
    pub fn exit(&self) -> Exit {
        match self.exit_code {
            0 => Exit::Ok,
            1 => Exit::Fail,
            3 => Exit::NothingToMeasure,
            _ => Exit::Error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::diag::Code;

    #[test]
    fn an_input_error_is_exit_2_and_never_ships() {
        let s = decide(Validation::default(), None, Some("x: missing".into()), None);
        assert!(!s.ship);
        assert_eq!(s.exit_code, 2);
        assert_eq!(s.exit(), Exit::Error);
        assert_eq!(s.reasons, vec!["input error: x: missing"]);
    }

    #[test]
    fn validation_errors_block_with_exit_1() {
        let d = Diagnostic::new("s/SKILL.md", 2, 1, Code::NameFolderMismatch, "bad");
        let w = Diagnostic::new("s/SKILL.md", 9, 1, Code::EmptyBody, "empty");
        let v = Validation::new(vec![d, w]);
        assert_eq!((v.errors, v.warnings, v.infos), (1, 1, 0));
        let s = decide(v, None, None, None);
        assert!(!s.ship);
        assert_eq!(s.exit_code, 1);
        assert_eq!(s.reasons, vec!["validation: 1 error(s) in SKILL.md"]);
    }
}
