//! The verdict value: one skill judged over its trajectories. Every renderer
//! (Markdown, JSON, SARIF, annotations, JUnit), the proposals and the release
//! commands read this one value. Its JSON form is SPEC §7 (fields may be
//! added, never renamed).

use crate::exit::Exit;
use crate::extract::{Modality, Order, Predicate, ScopeTag};
use crate::label::{Cite, Label, Reason};
use serde::{Deserialize, Deserializer, Serialize};
use std::sync::Arc;

/// The verdict of a skill: the most severe flag, or `pass`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No valid trajectory: nothing was measured (exit 3, "capture a run first").
    NothingToMeasure,
    Pass,
    UnderExercised,
    NeedsReview,
    ComplianceGap,
    FailClosed,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::NothingToMeasure => "nothing-to-measure",
            Verdict::Pass => "pass",
            Verdict::UnderExercised => "under-exercised",
            Verdict::NeedsReview => "needs-review",
            Verdict::ComplianceGap => "compliance-gap",
            Verdict::FailClosed => "fail-closed",
        }
    }
    /// Only `fail-closed` blocks.
    pub fn is_blocking(self) -> bool {
        self == Verdict::FailClosed
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A flag raised on a skill (SPEC §6), ordered by severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Flag {
    /// adequacy below the threshold: more probe trajectories are needed (non-blocking).
    UnderExercised,
    /// a `manual` rule fired: people should look at the listed events (non-blocking).
    NeedsReview,
    /// a rule without a scope tag was violated (non-blocking; a proposal).
    ComplianceGap,
    /// a scope-tagged rule was violated or could not be decided: the ship is blocked.
    FailClosed,
}

impl Flag {
    pub const ALL: [Flag; 4] = [
        Flag::UnderExercised,
        Flag::NeedsReview,
        Flag::ComplianceGap,
        Flag::FailClosed,
    ];
    pub fn as_str(self) -> &'static str {
        self.verdict().as_str()
    }
    pub fn verdict(self) -> Verdict {
        match self {
            Flag::UnderExercised => Verdict::UnderExercised,
            Flag::NeedsReview => Verdict::NeedsReview,
            Flag::ComplianceGap => Verdict::ComplianceGap,
            Flag::FailClosed => Verdict::FailClosed,
        }
    }
    /// One line for people.
    pub fn describe(self) -> &'static str {
        match self {
            Flag::UnderExercised => "adequacy is below the threshold: capture more trajectories that reach the rules (non-blocking)",
            Flag::NeedsReview => "rules marked manual fired: a person should look at the listed events (non-blocking)",
            Flag::ComplianceGap => "a rule without a scope tag was violated: consider a skill edit or a narrower trigger (non-blocking)",
            Flag::FailClosed => "a scope-tagged rule was violated or could not be decided: the ship is blocked",
        }
    }
}

/// What one constraint contributes to the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Nothing to act on.
    Ok,
    /// Blocks: scope-tagged and violated, or undecided and not `manual`.
    FailClosed,
    /// `manual` and fired: the cited events go to a person.
    NeedsReview,
    /// `manual` with no predicate: decided by people, never by the gate.
    CheckedByPeople,
    /// Violated without a scope tag.
    ComplianceGap,
    /// Waived in configuration: never blocks.
    Waived,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::FailClosed => "fail-closed",
            Outcome::NeedsReview => "needs-review",
            Outcome::CheckedByPeople => "checked-by-people",
            Outcome::ComplianceGap => "compliance-gap",
            Outcome::Waived => "waived",
        }
    }
}

/// The skill judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillRef {
    pub name: String,
    /// Path of the SKILL.md, as given or found.
    pub path: String,
}

/// The counts and ratios of SPEC §6.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Numbers {
    pub extracted: usize,
    pub exercised: usize,
    pub violated: usize,
    pub ambiguous: usize,
    pub untested: usize,
    pub unverifiable: usize,
    /// exercised / (exercised + violated + ambiguous); null when none fired.
    /// Ratios are rounded to 4 decimals.
    pub coverage: Option<f64>,
    /// 1 − violated / (exercised + violated); null when both are 0.
    pub compliance: Option<f64>,
    /// exercised / checkable; null when no rule is checkable.
    pub adequacy: Option<f64>,
    /// The rules the gate can see exercised: neither unverifiable nor manual.
    #[serde(default)]
    pub checkable: usize,
}

/// A ratio rounded to 4 decimals (so no output shows `0.19999999999999996`).
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A trajectory that was not evaluated, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discarded {
    pub path: String,
    pub reason: String,
}

/// How the skill came into scope in a valid trajectory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadInfo {
    pub path: Arc<str>,
    /// Decoder / format name.
    pub format: Arc<str>,
    /// The load event; null when only a session-retro sidecar says the skill was loaded.
    pub event: Option<usize>,
    pub line: Option<u64>,
    /// How the load was seen (`skill-tool`, `base-directory`, `retro`, `skill-file-read`...).
    pub via: Arc<str>,
    /// Weak evidence (a read of the SKILL.md, not a load).
    pub weak: bool,
    /// The session reached its final turn and the file was not torn.
    pub complete: bool,
    /// Undecodable records counted in the file.
    pub undecodable: usize,
    /// The session ran an older text of the skill (the injected body's
    /// sha256 differs from SKILL.md's body): listed, still judged.
    #[serde(default)]
    pub stale: bool,
}

/// The trajectories considered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TrajectorySet {
    /// Paths of the trajectories the skill was evaluated over, in order
    /// (the constraints' lists name their trajectories by number in it).
    pub valid: super::StrList,
    pub discarded: Vec<Discarded>,
    /// One entry per valid trajectory: where the skill was loaded.
    #[serde(default)]
    pub loads: super::LoadList,
    /// Valid trajectories that ran an older text of the skill (still judged).
    #[serde(default)]
    pub stale: Vec<Arc<str>>,
}

/// One cited location — never content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub trajectory: String,
    /// Event index; null for an undecodable record (which has no event).
    pub event: Option<usize>,
    pub line: Option<u64>,
    /// The label this trajectory gave the constraint.
    pub label: Label,
    /// Why this location is cited.
    pub why: Cite,
    /// A separate file of the trajectory (new-layout subagent transcripts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// JSON pointer, for one-object transcript files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// The subagent that acted (delegating does not escape a rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent: Option<String>,
}

/// The label a constraint got in one valid trajectory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerTrajectory {
    pub trajectory: String,
    pub label: Label,
    pub reason: Reason,
    /// Events citable for this label (the evidence lists at most 10 of them).
    pub events: usize,
    /// The rule fired here (an unverifiable one: the session acted in its scope).
    #[serde(default)]
    pub fired: bool,
}

/// What to do about a blocking (or reviewable) constraint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    /// `inspect-events` | `fix-skill` | `pin-predicate` | `mark-manual` | `waive` | `capture-run` | `repair-transcript`.
    pub kind: String,
    /// One sentence for people.
    pub hint: String,
    /// A line to paste (lockfile or configuration YAML), where one helps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
}

/// One constraint judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConstraintVerdict {
    pub id: String,
    /// The rule's wording in SKILL.md (skill text, never trajectory text).
    pub text: String,
    pub lines: [u32; 2],
    pub scope: Vec<ScopeTag>,
    pub label: Label,
    pub waived: bool,
    pub manual: bool,
    pub evidence: super::EvidenceList,
    pub modality: Modality,
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manual_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiver_reason: Option<String>,
    pub per_trajectory: super::PerTrajectoryList,
    /// How to resolve it: non-empty for every `fail-closed` and `needs-review` outcome.
    pub resolution: Vec<Resolution>,
    /// What was checked (SPEC §7): the precondition…
    #[serde(default)]
    pub when: Option<Predicate>,
    /// …the required action…
    #[serde(default)]
    pub require: Option<Predicate>,
    /// …or the forbidden one…
    #[serde(default)]
    pub forbid: Option<Predicate>,
    /// …and where a requirement is looked for (`after` when absent beside `require`).
    #[serde(default)]
    pub order: Option<Order>,
    /// The same in one short line, as every report shows it.
    #[serde(default)]
    pub check: String,
}

/// A proposed patch (filled by the proposals stage, `crate::propose`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    pub constraint: String,
    /// A unified diff against `target` (SKILL.md or its lockfile).
    pub patch: String,
    /// Stable id within the skill: `<kind>-<constraint id>`.
    #[serde(default)]
    pub id: String,
    /// `strengthen-rule` | `add-constraint` | `pin-predicate` | `mark-manual`.
    #[serde(default)]
    pub kind: String,
    /// The rule as proposed (skill or lockfile text, never trajectory text).
    #[serde(default)]
    pub rule: String,
    /// The file the patch applies to, as shown in outputs (relative to the working directory).
    #[serde(default)]
    pub target: String,
    /// Why: the constraint and the trajectory locations (never content).
    #[serde(default)]
    pub trace: ProposalTrace,
    /// The full new text of `target` (not serialized: used by `propose --apply`).
    #[serde(skip)]
    pub new_text: Option<String>,
}

/// The trace of a proposal: constraint id → trajectory locations.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ProposalTrace {
    pub constraint: String,
    /// Why the proposal was made (`violated in 2 trajectories`, …).
    pub trigger: String,
    /// `path event N (line L)` locations.
    pub locations: super::StrList,
}

/// Where the constraints came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceInfo {
    /// `lockfile` or `extracted`.
    pub kind: String,
    /// Path of `SKILL.constraints.yaml` when used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lockfile: Option<String>,
    /// The lockfile's `source_sha256` no longer matches SKILL.md (the pinned constraints are still used).
    pub drift: bool,
}

/// A configured waiver that applies to this skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaiverNote {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    pub reason: String,
    /// False when no constraint of the skill has this id.
    pub matched: bool,
}

/// A waiver: a constraint id (optionally of one skill) that never blocks.
/// Configuration reads it; scoring applies it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waiver {
    pub id: String,
    /// Only for this skill (its name); all skills when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// Why the rule may be broken (required; empty or `TODO` is an error).
    #[serde(deserialize_with = "waiver_reason")]
    pub reason: String,
}

fn waiver_reason<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    let t = s.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("todo") {
        return Err(serde::de::Error::custom(
            "a waiver needs a reason (empty or `TODO` is not one)",
        ));
    }
    Ok(s)
}

/// Thresholds in force.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    pub adequacy: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { adequacy: 0.60 }
    }
}

/// One skill judged over its trajectories.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillVerdict {
    pub skill: SkillRef,
    pub verdict: Verdict,
    pub flags: Vec<Flag>,
    pub numbers: Numbers,
    pub trajectories: TrajectorySet,
    pub constraints: Vec<ConstraintVerdict>,
    pub proposals: Vec<Proposal>,
    pub source: SourceInfo,
    pub waivers: Vec<WaiverNote>,
    pub thresholds: Thresholds,
    /// The exit code this skill alone maps to (0 pass, 1 fail-closed, 3 nothing to measure).
    pub exit_code: u8,
}

impl SkillVerdict {
    /// The exit this skill maps to (SPEC §6): 3 when no trajectory was valid.
    pub fn exit(&self) -> Exit {
        if self.verdict == Verdict::NothingToMeasure || self.trajectories.valid.is_empty() {
            Exit::NothingToMeasure
        } else if self.verdict.is_blocking() {
            Exit::Fail
        } else {
            Exit::Ok
        }
    }

    /// The constraints that block the ship.
    pub fn blocking(&self) -> impl Iterator<Item = &ConstraintVerdict> {
        self.constraints
            .iter()
            .filter(|c| c.outcome == Outcome::FailClosed)
    }
}

/// The worst exit over several skills.
pub fn worst_exit(verdicts: &[SkillVerdict]) -> Exit {
    verdicts.iter().fold(Exit::Ok, |acc, v| acc.worst(v.exit()))
}
