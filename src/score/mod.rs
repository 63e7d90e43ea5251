//! score: labels → numbers, flags and the verdict (SPEC §6).
//!
//! Pure: takes the constraints, their labels and the configuration's waivers
//! and thresholds, returns one [`SkillVerdict`] that every renderer reads.

pub mod lists;
pub mod resolve;
pub mod spill;
pub mod verdict;

pub use lists::{
    columns, ColumnsBuilder, ConstraintColumn, EvidenceList, LoadList, PerTrajectoryList, Row,
    StrList,
};
pub use verdict::*;

use crate::extract::Constraint;
use crate::label::Label;

/// Everything scoring needs for one skill.
#[derive(Debug, Clone)]
pub struct ScoreInput<'a> {
    pub skill: SkillRef,
    pub constraints: &'a [Constraint],
    /// One entry per constraint, in order: the labels of every valid
    /// trajectory ([`ColumnsBuilder`], or [`columns`] of
    /// [`crate::label::label_all`]'s result).
    pub columns: Vec<ConstraintColumn>,
    /// Valid trajectories, in the order their labels were computed, with load details.
    pub trajectories: TrajectorySet,
    pub source: SourceInfo,
    /// The configured waivers (all skills); those for this skill are applied.
    pub waivers: &'a [Waiver],
    pub thresholds: Thresholds,
}

/// The numbers of SPEC §6 over aggregated labels; `checkable` counts the
/// rules that are neither unverifiable nor manual (adequacy's denominator).
/// Ratios are rounded to 4 decimals.
pub fn numbers(labels: &[Label], checkable: usize) -> Numbers {
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
        coverage: (fired > 0).then(|| round4(exercised as f64 / fired as f64)),
        compliance: (decided > 0).then(|| round4(1.0 - violated as f64 / decided as f64)),
        adequacy: (checkable > 0).then(|| round4(exercised as f64 / checkable as f64)),
        checkable,
    }
}

/// What a constraint contributes, from its label, scope, `manual`, waiver
/// and — for an unverifiable rule — whether it fired (a scope-tagged one
/// fires only where a session acted in its scope, SPEC §6).
pub fn outcome(label: Label, scoped: bool, manual: bool, waived: bool, fired: bool) -> Outcome {
    if waived {
        return Outcome::Waived;
    }
    match (label, scoped, manual) {
        (Label::Violated, true, _) => Outcome::FailClosed,
        (Label::Violated, false, _) => Outcome::ComplianceGap,
        (Label::Ambiguous, _, true) => Outcome::NeedsReview,
        (Label::Ambiguous, true, false) => Outcome::FailClosed,
        (Label::Unverifiable, true, true) if fired => Outcome::NeedsReview,
        (Label::Unverifiable, _, true) => Outcome::CheckedByPeople,
        (Label::Unverifiable, true, false) if fired => Outcome::FailClosed,
        _ => Outcome::Ok,
    }
}

/// What a constraint checks, in one short line (SPEC §7): `when … · require
/// … (order …)`, `forbid …`, `manual`, or `no predicate`.
pub fn check_line(c: &Constraint) -> String {
    use crate::extract::lockfile::predicate_flow;
    let mut parts = Vec::new();
    if let Some(w) = &c.when {
        parts.push(format!("when {}", predicate_flow(w)));
    }
    if let Some(r) = &c.require {
        let order = c.order.unwrap_or_default();
        parts.push(format!(
            "require {} (order {})",
            predicate_flow(r),
            order.as_str()
        ));
    }
    if let Some(f) = &c.forbid {
        parts.push(format!("forbid {}", predicate_flow(f)));
    }
    if c.is_manual() {
        parts.push("manual".into());
    }
    if c.when.is_none() && c.behavior().is_none() {
        if c.is_scoped() {
            parts.push("no predicate (fires on an action of its scope)".into());
        } else {
            parts.push("no predicate".into());
        }
    } else if c.when.is_none() && c.require.is_some() {
        parts.insert(0, "when the skill is loaded".into());
    }
    parts.join(" · ")
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
    let mut constraints = Vec::with_capacity(input.constraints.len());
    for (c, l) in input.constraints.iter().zip(input.columns) {
        let waiver = find_waiver(input.waivers, &skill_name, &c.id);
        let fired = l.per_trajectory.any_fired();
        let oc = outcome(
            l.label,
            c.is_scoped(),
            c.is_manual(),
            waiver.is_some(),
            fired,
        );
        let (evidence, per_trajectory) = (l.evidence, l.per_trajectory);
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
            when: c.when.clone(),
            require: c.require.clone(),
            forbid: c.forbid.clone(),
            order: c.require.as_ref().map(|_| c.order.unwrap_or_default()),
            check: check_line(c),
        };
        cv.resolution = resolve::resolutions(&cv, c, &input.skill, &input.source);
        constraints.push(cv);
    }
    let labels: Vec<Label> = constraints.iter().map(|c| c.label).collect();
    let checkable = constraints
        .iter()
        .filter(|c| !c.manual && c.label != Label::Unverifiable)
        .count();
    let numbers = numbers(&labels, checkable);
    let measured = !input.trajectories.valid.is_empty();
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
    if numbers
        .adequacy
        .is_some_and(|a| a < input.thresholds.adequacy)
    {
        flags.push(Flag::UnderExercised);
    }
    // Nothing measured: no flag is raised and the verdict says so (exit 3),
    // in every format.
    if !measured {
        flags.clear();
    }
    let verdict = if measured {
        flags
            .iter()
            .map(|f| f.verdict())
            .max()
            .unwrap_or(Verdict::Pass)
    } else {
        Verdict::NothingToMeasure
    };
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
