//! label: constraints × trajectories → per-trajectory and aggregated labels (SPEC §6).
//!
//! Predicates are compiled once per skill ([`CompiledSet`]); each trajectory is
//! read in one pass for all constraints ([`label_trajectory`]); trajectories are
//! labelled in parallel and merged in input order ([`label_all`]), so the
//! result never depends on the thread count. Only actions are looked at: the
//! model never gives this stage message text or tool output.

pub mod compile;
pub mod facts;
pub mod gitflags;

pub use compile::{CompileError, CompiledSet};

use crate::decode::{AgentPath, Location, ProblemKind, Trajectory};
use crate::extract::Order;
use compile::{CConstraint, Kind};
use facts::Tri;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// At most this many events are cited per constraint and trajectory; the
/// count of all of them is kept beside.
pub const MAX_CITED: usize = 10;

/// The label of a constraint (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Label {
    /// The precondition fired nowhere.
    Untested,
    /// Fired, and the behavior was observed followed.
    Exercised,
    /// Fired, and the gate cannot decide from actions.
    Ambiguous,
    /// Fired, and an action contradicts the rule.
    Violated,
    /// No predicate at all: the gate cannot see whether the rule applied.
    Unverifiable,
}

impl Label {
    pub const ALL: [Label; 5] = [
        Label::Untested,
        Label::Exercised,
        Label::Ambiguous,
        Label::Violated,
        Label::Unverifiable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Label::Untested => "untested",
            Label::Exercised => "exercised",
            Label::Ambiguous => "ambiguous",
            Label::Violated => "violated",
            Label::Unverifiable => "unverifiable",
        }
    }

    /// Rank for worst-label aggregation: violated > ambiguous > exercised > untested.
    fn rank(self) -> u8 {
        match self {
            Label::Untested => 0,
            Label::Exercised => 1,
            Label::Ambiguous => 2,
            Label::Violated => 3,
            Label::Unverifiable => 4,
        }
    }

    /// The worse of two labels.
    pub fn worst(self, other: Label) -> Label {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a constraint got its label in one trajectory (a stable code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The precondition (`when`) matched no in-scope event.
    NotFired,
    /// A `forbid` rule fired and no in-scope action matched the forbidden one.
    Complied,
    /// A `require` rule fired and the required action was seen in its window.
    Satisfied,
    /// An in-scope action matched `forbid`.
    ForbiddenAction,
    /// A firing event had no required action in its window.
    RequirementUnmet,
    /// The trajectory ended early (no final turn, or torn) with the requirement open.
    OpenAtEnd,
    /// Undecodable records in scope could hide a forbidden action (scope-tagged rules).
    UndecodableRecords,
    /// The deciding predicate needs the git branch, which the trajectory does not record.
    BranchUnknown,
    /// The precondition fired but the behavior is not decidable from actions (`when` only, or `manual`).
    Undecidable,
    /// The constraint has no predicate at all.
    NoPredicate,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NotFired => "not-fired",
            Reason::Complied => "complied",
            Reason::Satisfied => "satisfied",
            Reason::ForbiddenAction => "forbidden-action",
            Reason::RequirementUnmet => "requirement-unmet",
            Reason::OpenAtEnd => "open-at-end",
            Reason::UndecodableRecords => "undecodable-records",
            Reason::BranchUnknown => "branch-unknown",
            Reason::Undecidable => "undecidable",
            Reason::NoPredicate => "no-predicate",
        }
    }

    /// One sentence for people (never trajectory content).
    pub fn describe(self) -> &'static str {
        match self {
            Reason::NotFired => "the precondition fired in no event after the skill load",
            Reason::Complied => "the rule fired and no action matched the forbidden one",
            Reason::Satisfied => "the rule fired and the required action was seen",
            Reason::ForbiddenAction => "an action after the skill load matched the forbidden one",
            Reason::RequirementUnmet => {
                "the rule fired and the required action was not seen where `order` requires it"
            }
            Reason::OpenAtEnd => "the trajectory ended early with the requirement still open",
            Reason::UndecodableRecords => {
                "undecodable records after the skill load could hide a forbidden action"
            }
            Reason::BranchUnknown => {
                "the deciding predicate needs the git branch, which the trajectory does not record"
            }
            Reason::Undecidable => "the rule fired but its behavior cannot be decided from actions",
            Reason::NoPredicate => {
                "the rule has no predicate: the gate cannot see whether it applied"
            }
        }
    }
}

/// Why an event (or record) is cited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cite {
    /// The skill's first load (the rule applies from here).
    SkillLoad,
    /// The event matched `when`.
    WhenMatched,
    /// The event matched `forbid`.
    ForbidMatched,
    /// The event may match `forbid` (the branch is not recorded).
    ForbidMaybe,
    /// The event matched `require`.
    RequireMatched,
    /// The event may match `require` (the branch is not recorded).
    RequireMaybe,
    /// The firing event whose requirement was not met.
    RequirementUnmet,
    /// The firing event whose requirement was still open when the trajectory ended.
    RequirementOpen,
    /// A record that could not be decoded (no event index).
    UndecodableRecord,
}

impl Cite {
    pub fn as_str(self) -> &'static str {
        match self {
            Cite::SkillLoad => "skill-load",
            Cite::WhenMatched => "when-matched",
            Cite::ForbidMatched => "forbid-matched",
            Cite::ForbidMaybe => "forbid-maybe",
            Cite::RequireMatched => "require-matched",
            Cite::RequireMaybe => "require-maybe",
            Cite::RequirementUnmet => "requirement-unmet",
            Cite::RequirementOpen => "requirement-open",
            Cite::UndecodableRecord => "undecodable-record",
        }
    }
}

/// One cited location: an event (or an undecodable record) — never content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cited {
    /// Event index in the trajectory; `None` for an undecodable record.
    pub event: Option<usize>,
    /// Source file (when not the trajectory's own), line, or JSON pointer.
    pub file: Option<std::path::PathBuf>,
    pub line: Option<u64>,
    pub pointer: Option<String>,
    /// The subagent that acted, when it was not the main agent.
    pub subagent: Option<String>,
    pub why: Cite,
}

/// The label of one constraint in one trajectory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrajectoryLabel {
    pub label: Label,
    pub reason: Reason,
    /// The events to look at (at most [`MAX_CITED`]).
    pub cited: Vec<Cited>,
    /// How many events were citable in all (≥ `cited.len()`).
    pub cited_total: usize,
}

/// Where the skill's scope starts in a trajectory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScopeStart {
    /// Position (in `Trajectory::events`) of the skill's first load; `None`
    /// when a sidecar says it was loaded but no event shows where (then every
    /// event is in scope).
    pub load: Option<usize>,
}

#[derive(Debug, Clone, Default)]
struct Hits {
    first: Option<usize>,
    last: Option<usize>,
    count: usize,
    positions: Vec<usize>,
}

impl Hits {
    fn push(&mut self, pos: usize) {
        if self.first.is_none() {
            self.first = Some(pos);
        }
        self.last = Some(pos);
        self.count += 1;
        if self.positions.len() < MAX_CITED {
            self.positions.push(pos);
        }
    }
    fn merged(&self, other: &Hits) -> Hits {
        let min = |a: Option<usize>, b: Option<usize>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, None) | (None, x) => x,
        };
        let max = |a: Option<usize>, b: Option<usize>| a.max(b);
        Hits {
            first: min(self.first, other.first),
            last: max(self.last, other.last),
            count: self.count + other.count,
            positions: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Default)]
struct State {
    when: Hits,
    yes: Hits,
    maybe: Hits,
}

/// A subagent id is only cited when it looks like an identifier (ids and types
/// are metadata, but a hostile transcript could put anything there).
fn safe_subagent(agent: &AgentPath) -> Option<String> {
    match agent {
        AgentPath::Main => None,
        AgentPath::Subagent(id) => {
            let ok = !id.is_empty()
                && id.len() <= 80
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '@'));
            Some(if ok {
                id.clone()
            } else {
                "subagent".to_string()
            })
        }
    }
}

fn cite(traj: &Trajectory, pos: usize, why: Cite) -> Cited {
    let e = &traj.events[pos];
    cite_location(Some(e.index), &e.location, safe_subagent(&e.agent), why)
}

fn cite_location(
    event: Option<usize>,
    loc: &Location,
    subagent: Option<String>,
    why: Cite,
) -> Cited {
    Cited {
        event,
        file: loc.file.clone(),
        line: loc.line,
        pointer: loc.pointer.clone(),
        subagent,
        why,
    }
}

/// Label every constraint of `set` in one trajectory, in one pass over its events.
pub fn label_trajectory(
    set: &CompiledSet,
    traj: &Trajectory,
    scope: ScopeStart,
) -> Vec<TrajectoryLabel> {
    let start = scope.load.map_or(0, |l| l + 1);
    let load_agent = scope
        .load
        .and_then(|l| traj.events.get(l))
        .map(|e| &e.agent);
    // Subagents already running before the load never saw the skill.
    let mut before: HashSet<&str> = HashSet::new();
    for e in traj.events.iter().take(start) {
        if let AgentPath::Subagent(id) = &e.agent {
            if Some(&e.agent) != load_agent {
                before.insert(id.as_str());
            }
        }
    }
    let tf = set.traj_facts(traj.git_branch.as_deref());
    let cwd = traj.cwd.as_deref();
    let mut states = vec![State::default(); set.constraints.len()];
    for (pos, e) in traj.events.iter().enumerate().skip(start) {
        if let AgentPath::Subagent(id) = &e.agent {
            if before.contains(id.as_str()) {
                continue;
            }
        }
        let f = set.facts(e, cwd);
        for (c, st) in set.constraints.iter().zip(states.iter_mut()) {
            let (when, behavior) = match &c.kind {
                Kind::Unverifiable => continue,
                Kind::WhenOnly { when } => (when.as_ref(), None),
                Kind::Forbid { when, forbid } => (when.as_ref(), Some(forbid)),
                Kind::Require { when, require, .. } => (when.as_ref(), Some(require)),
            };
            if let Some(w) = when {
                if facts::eval(w, &f, &tf) == Tri::Yes {
                    st.when.push(pos);
                }
            }
            if let Some(b) = behavior {
                match facts::eval(b, &f, &tf) {
                    Tri::Yes => st.yes.push(pos),
                    Tri::Maybe => st.maybe.push(pos),
                    Tri::No => {}
                }
            }
        }
    }
    let hidden = hidden_records(traj, scope);
    set.constraints
        .iter()
        .zip(states)
        .map(|(c, st)| finish(c, &st, traj, scope, &hidden))
        .collect()
}

/// Undecodable records that may lie in scope (not provably before the load).
fn hidden_records(traj: &Trajectory, scope: ScopeStart) -> Vec<Location> {
    let load_loc = scope
        .load
        .and_then(|l| traj.events.get(l))
        .map(|e| &e.location);
    traj.problems
        .iter()
        .filter(|p| matches!(p.kind, ProblemKind::Undecodable | ProblemKind::InvalidUtf8))
        .filter(|p| match (load_loc, p.location.line) {
            (Some(l), Some(pl)) if l.file == p.location.file => l.line.is_none_or(|ll| pl > ll),
            _ => true,
        })
        .map(|p| p.location.clone())
        .collect()
}

fn out(label: Label, reason: Reason, cited: Vec<Cited>, total: usize) -> TrajectoryLabel {
    TrajectoryLabel {
        label,
        reason,
        cited_total: total.max(cited.len()),
        cited,
    }
}

fn finish(
    c: &CConstraint,
    st: &State,
    traj: &Trajectory,
    scope: ScopeStart,
    hidden: &[Location],
) -> TrajectoryLabel {
    let cites = |h: &Hits, why: Cite| -> Vec<Cited> {
        h.positions.iter().map(|&p| cite(traj, p, why)).collect()
    };
    let load_cite = || -> Vec<Cited> {
        scope
            .load
            .map(|p| vec![cite(traj, p, Cite::SkillLoad)])
            .unwrap_or_default()
    };
    let ended_early = !traj.complete || traj.truncated;
    match &c.kind {
        Kind::Unverifiable => out(Label::Unverifiable, Reason::NoPredicate, load_cite(), 1),
        Kind::WhenOnly { when } => match when {
            None => out(Label::Ambiguous, Reason::Undecidable, load_cite(), 1),
            Some(_) if st.when.count > 0 => out(
                Label::Ambiguous,
                Reason::Undecidable,
                cites(&st.when, Cite::WhenMatched),
                st.when.count,
            ),
            Some(_) => out(Label::Untested, Reason::NotFired, Vec::new(), 0),
        },
        Kind::Forbid { when, .. } => {
            if st.yes.count > 0 {
                return out(
                    Label::Violated,
                    Reason::ForbiddenAction,
                    cites(&st.yes, Cite::ForbidMatched),
                    st.yes.count,
                );
            }
            if st.maybe.count > 0 {
                return out(
                    Label::Ambiguous,
                    Reason::BranchUnknown,
                    cites(&st.maybe, Cite::ForbidMaybe),
                    st.maybe.count,
                );
            }
            if c.scoped && !hidden.is_empty() {
                let cited: Vec<Cited> = hidden
                    .iter()
                    .take(MAX_CITED)
                    .map(|l| cite_location(None, l, None, Cite::UndecodableRecord))
                    .collect();
                return out(
                    Label::Ambiguous,
                    Reason::UndecodableRecords,
                    cited,
                    hidden.len(),
                );
            }
            match when {
                None => out(Label::Exercised, Reason::Complied, load_cite(), 1),
                Some(_) if st.when.count > 0 => out(
                    Label::Exercised,
                    Reason::Complied,
                    cites(&st.when, Cite::WhenMatched),
                    st.when.count,
                ),
                Some(_) => out(Label::Untested, Reason::NotFired, Vec::new(), 0),
            }
        }
        Kind::Require { when, order, .. } => {
            // Without `when`, the load fires the rule and its window is the whole scope.
            let order = if when.is_none() {
                Order::Anywhere
            } else {
                *order
            };
            if when.is_some() && st.when.count == 0 {
                return out(Label::Untested, Reason::NotFired, Vec::new(), 0);
            }
            let satisfied = |h: &Hits| match order {
                // Judged per firing event in the labeller's next revision; until
                // then `before-each` reads as `before`.
                Order::Before | Order::BeforeEach => {
                    matches!((h.first, st.when.first), (Some(r), Some(w)) if r < w)
                }
                Order::After => matches!((h.last, st.when.last), (Some(r), Some(w)) if r > w),
                Order::Anywhere => h.count > 0,
            };
            // The firing event that decides, and the matching event that satisfies it.
            let (decisive, satisfier) = match order {
                Order::Before | Order::BeforeEach => (st.when.first, st.yes.first),
                Order::After => (st.when.last, st.yes.last),
                Order::Anywhere => (st.when.first, st.yes.first),
            };
            let fire_cite = |why: Cite| -> Vec<Cited> {
                match decisive {
                    Some(p) => vec![cite(traj, p, why)],
                    None => match why {
                        Cite::WhenMatched => load_cite(),
                        _ => scope
                            .load
                            .map(|p| vec![cite(traj, p, why)])
                            .unwrap_or_default(),
                    },
                }
            };
            if satisfied(&st.yes) {
                let mut cited = fire_cite(Cite::WhenMatched);
                if let Some(s) = satisfier {
                    cited.push(cite(traj, s, Cite::RequireMatched));
                }
                let n = cited.len();
                return out(Label::Exercised, Reason::Satisfied, cited, n);
            }
            if satisfied(&st.yes.merged(&st.maybe)) {
                let mut cited = fire_cite(Cite::WhenMatched);
                cited.extend(cites(&st.maybe, Cite::RequireMaybe));
                let n = cited.len();
                return out(Label::Ambiguous, Reason::BranchUnknown, cited, n);
            }
            // A `before` window is closed at the firing event: ending early cannot reopen it.
            if ended_early && !matches!(order, Order::Before | Order::BeforeEach) {
                let cited = fire_cite(Cite::RequirementOpen);
                let n = cited.len();
                return out(Label::Ambiguous, Reason::OpenAtEnd, cited, n);
            }
            let cited = fire_cite(Cite::RequirementUnmet);
            let n = cited.len();
            out(Label::Violated, Reason::RequirementUnmet, cited, n)
        }
    }
}

/// Labels of one constraint across trajectories.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstraintLabels {
    /// The worst label seen (violated > ambiguous > exercised > untested), or
    /// `unverifiable` for a constraint without any predicate.
    pub label: Label,
    /// One label per valid trajectory, in trajectory order.
    pub per_trajectory: Vec<TrajectoryLabel>,
}

/// Label every trajectory (in parallel) and aggregate per constraint.
/// `trajectories` pairs each valid trajectory with where its scope starts.
pub fn label_all(
    set: &CompiledSet,
    trajectories: &[(&Trajectory, ScopeStart)],
) -> Vec<ConstraintLabels> {
    let per_traj: Vec<Vec<TrajectoryLabel>> = trajectories
        .par_iter()
        .map(|(t, s)| label_trajectory(set, t, *s))
        .collect();
    let mut out: Vec<ConstraintLabels> = set
        .constraints
        .iter()
        .map(|c| ConstraintLabels {
            label: if matches!(c.kind, Kind::Unverifiable) {
                Label::Unverifiable
            } else {
                Label::Untested
            },
            per_trajectory: Vec::with_capacity(trajectories.len()),
        })
        .collect();
    for labels in per_traj {
        for (agg, l) in out.iter_mut().zip(labels) {
            if agg.label != Label::Unverifiable {
                agg.label = agg.label.worst(l.label);
            }
            agg.per_trajectory.push(l);
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests;
