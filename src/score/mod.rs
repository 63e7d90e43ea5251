//! score: labels → numbers, flags and the verdict (SPEC §6).
//!
//! Pure: takes the constraints, their labels and the configuration's waivers
//! and thresholds, returns one [`SkillVerdict`] that every renderer reads.

pub mod resolve;
pub mod verdict;

pub use verdict::*;

use crate::config::Waiver;
use crate::extract::Constraint;
use crate::label::{ConstraintLabels, Label};

/// Everything scoring needs for one skill.
#[derive(Debug, Clone)]
pub struct ScoreInput<'a> {
    pub skill: SkillRef,
    pub constraints: &'a [Constraint],
    /// One entry per constraint, in order ([`crate::label::label_all`]).
    pub labels: &'a [ConstraintLabels],
    /// Valid trajectories, in the order their labels were computed, with load details.
    pub trajectories: TrajectorySet,
    pub source: SourceInfo,
    /// The configured waivers (all skills); those for this skill are applied.
    pub waivers: &'a [Waiver],
    pub thresholds: Thresholds,
}

/// The numbers of SPEC §6 over aggregated labels.
pub fn numbers(labels: &[Label]) -> Numbers {
    let count = |l: Label| labels.iter().filter(|x| **x == l).count();
    let (exercised, violated, ambiguous) = (
        count(Label::Exercised),
        count(Label::Violated),
        count(Label::Ambiguous),
    );
    let fired = exercised + violated + ambiguous;
    let decided = exercised + violated;
    Numbers {
        extracted: labels.len(),
        exercised,
        violated,
        ambiguous,
        untested: count(Label::Untested),
        unverifiable: count(Label::Unverifiable),
        coverage: (fired > 0).then(|| exercised as f64 / fired as f64),
        compliance: (decided > 0).then(|| 1.0 - violated as f64 / decided as f64),
        adequacy: if labels.is_empty() {
            0.0
        } else {
            exercised as f64 / labels.len() as f64
        },
    }
}

/// What a constraint contributes, from its label, scope, `manual` and waiver.
pub fn outcome(label: Label, scoped: bool, manual: bool, waived: bool) -> Outcome {
    if waived {
        return Outcome::Waived;
    }
    match (label, scoped, manual) {
        (Label::Violated, true, _) => Outcome::FailClosed,
        (Label::Violated, false, _) => Outcome::ComplianceGap,
        (Label::Ambiguous, _, true) => Outcome::NeedsReview,
        (Label::Ambiguous, true, false) => Outcome::FailClosed,
        (Label::Unverifiable, _, true) => Outcome::CheckedByPeople,
        (Label::Unverifiable, true, false) => Outcome::FailClosed,
        _ => Outcome::Ok,
    }
}

/// The waiver for `id` in `skill`, if any (a per-skill waiver wins over a global one).
pub fn find_waiver<'a>(waivers: &'a [Waiver], skill: &str, id: &str) -> Option<&'a Waiver> {
    waivers
        .iter()
        .filter(|w| w.id == id && w.skill.as_deref().is_none_or(|s| s == skill))
        .max_by_key(|w| w.skill.is_some())
}

/// Score one skill.
pub fn score(input: ScoreInput<'_>) -> SkillVerdict {
    let skill_name = input.skill.name.clone();
    let valid = &input.trajectories.valid;
    let mut constraints = Vec::with_capacity(input.constraints.len());
    for (c, l) in input.constraints.iter().zip(input.labels) {
        let waiver = find_waiver(input.waivers, &skill_name, &c.id);
        let oc = outcome(l.label, c.is_scoped(), c.is_manual(), waiver.is_some());
        let mut evidence = Vec::new();
        let mut per_trajectory = Vec::with_capacity(l.per_trajectory.len());
        for (path, tl) in valid.iter().zip(&l.per_trajectory) {
            per_trajectory.push(PerTrajectory {
                trajectory: path.clone(),
                label: tl.label,
                reason: tl.reason,
                events: tl.cited_total,
            });
            for x in &tl.cited {
                evidence.push(Evidence {
                    trajectory: path.clone(),
                    event: x.event,
                    line: x.line,
                    label: tl.label,
                    why: x.why,
                    file: x.file.as_ref().map(|f| f.display().to_string()),
                    pointer: x.pointer.clone(),
                    subagent: x.subagent.clone(),
                });
            }
        }
        let mut cv = ConstraintVerdict {
            id: c.id.clone(),
            text: c.text.clone(),
            lines: c.lines,
            scope: c.scope.clone(),
            label: l.label,
            waived: waiver.is_some(),
            manual: c.is_manual(),
            evidence,
            modality: c.modality,
            outcome: oc,
            manual_reason: c.manual.clone(),
            waiver_reason: waiver.map(|w| w.reason.clone()),
            per_trajectory,
            resolution: Vec::new(),
        };
        cv.resolution = resolve::resolutions(&cv, c, &input.skill, &input.source);
        constraints.push(cv);
    }
    let labels: Vec<Label> = constraints.iter().map(|c| c.label).collect();
    let numbers = numbers(&labels);
    let mut flags: Vec<Flag> = Vec::new();
    let has = |o: Outcome| constraints.iter().any(|c| c.outcome == o);
    if has(Outcome::FailClosed) {
        flags.push(Flag::FailClosed);
    }
    if has(Outcome::ComplianceGap) {
        flags.push(Flag::ComplianceGap);
    }
    if has(Outcome::NeedsReview) {
        flags.push(Flag::NeedsReview);
    }
    if numbers.adequacy < input.thresholds.adequacy {
        flags.push(Flag::UnderExercised);
    }
    let verdict = flags
        .iter()
        .map(|f| f.verdict())
        .max()
        .unwrap_or(Verdict::Pass);
    let waivers = input
        .waivers
        .iter()
        .filter(|w| w.skill.as_deref().is_none_or(|s| s == skill_name))
        .map(|w| WaiverNote {
            id: w.id.clone(),
            skill: w.skill.clone(),
            reason: w.reason.clone(),
            matched: input.constraints.iter().any(|c| c.id == w.id),
        })
        .collect();
    let mut v = SkillVerdict {
        skill: input.skill,
        verdict,
        flags,
        numbers,
        trajectories: input.trajectories,
        constraints,
        proposals: Vec::new(),
        source: input.source,
        waivers,
        thresholds: input.thresholds,
        exit_code: 0,
    };
    v.exit_code = v.exit() as u8;
    v
}

#[cfg(test)]
mod tests;
