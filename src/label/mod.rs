//! label: constraints × trajectories → per-trajectory and aggregated labels (SPEC §6).
//!
//! Predicates are compiled once per skill ([`CompiledSet`]); each trajectory is
//! read in one pass for all constraints ([`label_trajectory`]); trajectories are
//! labelled in parallel and merged in input order ([`label_all`]), so the
//! result never depends on the thread count. Only actions are looked at: the
//! model never gives this stage message text or tool output.

pub mod compact;
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
use std::collections::{HashMap, HashSet};

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
    /// The constraint has no predicate at all (and, scope-tagged, the session
    /// took no action of its scope).
    NoPredicate,
    /// No predicate, scope-tagged, and the session acted in its scope: it fires.
    ScopeAction,
    /// A consent gate: every guarded action had a user turn before it (taken as consent).
    ConsentTaken,
    /// A consent gate: a guarded action had no user turn since the load or the previous one.
    NoConsent,
}

impl Reason {
    /// Every reason, in declaration order (`ALL[r as usize] == r`).
    pub const ALL: [Reason; 13] = [
        Reason::NotFired,
        Reason::Complied,
        Reason::Satisfied,
        Reason::ForbiddenAction,
        Reason::RequirementUnmet,
        Reason::OpenAtEnd,
        Reason::UndecodableRecords,
        Reason::BranchUnknown,
        Reason::Undecidable,
        Reason::NoPredicate,
        Reason::ScopeAction,
        Reason::ConsentTaken,
        Reason::NoConsent,
    ];

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
            Reason::ScopeAction => "scope-action",
            Reason::ConsentTaken => "consent-taken",
            Reason::NoConsent => "no-consent",
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
                "a firing event had no required action in the window `order` names"
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
            Reason::ScopeAction => {
                "the rule has no predicate and the session acted in its scope"
            }
            Reason::ConsentTaken => {
                "every guarded action had a user turn before it, taken as consent (a reviewer may check the cited turns)"
            }
            Reason::NoConsent => {
                "a guarded action had no user turn since the skill load or the previous guarded action"
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
    /// No `when`: an action of the forbidden kind (relaxed) fired the rule.
    KindMatched,
    /// No predicate, scope-tagged: an action of the rule's scope.
    ScopeAction,
    /// A consent gate: the user turn taken as consent for the guarded action before it.
    ConsentTurn,
}

impl Cite {
    /// Every cause, in declaration order (`ALL[c as usize] == c`).
    pub const ALL: [Cite; 12] = [
        Cite::SkillLoad,
        Cite::WhenMatched,
        Cite::ForbidMatched,
        Cite::ForbidMaybe,
        Cite::RequireMatched,
        Cite::RequireMaybe,
        Cite::RequirementUnmet,
        Cite::RequirementOpen,
        Cite::UndecodableRecord,
        Cite::KindMatched,
        Cite::ScopeAction,
        Cite::ConsentTurn,
    ];

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
            Cite::KindMatched => "kind-matched",
            Cite::ScopeAction => "scope-action",
            Cite::ConsentTurn => "consent-turn",
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
    /// The rule fired in this trajectory (for an unverifiable rule: the
    /// session acted in its scope).
    pub fired: bool,
}

/// Where the skill's scope starts in a trajectory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScopeStart {
    /// Position (in `Trajectory::events`) of the skill's first load; `None`
    /// when a sidecar says it was loaded but no event shows where (then every
    /// event is in scope).
    pub load: Option<usize>,
}

/// The in-scope positions (in `Trajectory::events`) where a constraint's
/// predicates matched, all of them, in order.
#[derive(Debug, Clone, Default)]
struct State {
    /// `when` matched.
    when: Vec<usize>,
    /// The forbid's relaxed kind (no `when`), or an action of the rule's
    /// scope (scope-tagged, no predicate): what fires the rule.
    kind: Vec<usize>,
    /// The behavior predicate matched.
    yes: Vec<usize>,
    /// The behavior predicate may match (the branch is not recorded).
    maybe: Vec<usize>,
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
    label_many(&[(set, scope)], traj).pop().unwrap_or_default()
}

/// One pass through a trajectory for the skills of one scope (the same load
/// event): the events they see, and per distinct constraint where its
/// predicates matched.
struct Member<'s, 't> {
    constraints: Vec<&'s CConstraint>,
    scope: ScopeStart,
    start: usize,
    /// Subagents already running before the load never saw the skill.
    before: HashSet<&'t str>,
    states: Vec<State>,
    last_in_scope: Option<usize>,
}

impl<'s, 't> Member<'s, 't> {
    fn new(constraints: Vec<&'s CConstraint>, scope: ScopeStart, traj: &'t Trajectory) -> Self {
        let start = scope.load.map_or(0, |l| l + 1);
        let load_agent = scope
            .load
            .and_then(|l| traj.events.get(l))
            .map(|e| &e.agent);
        let mut before: HashSet<&str> = HashSet::new();
        for e in traj.events.iter().take(start) {
            if let AgentPath::Subagent(id) = &e.agent {
                if Some(&e.agent) != load_agent {
                    before.insert(id.as_str());
                }
            }
        }
        Member {
            states: vec![State::default(); constraints.len()],
            constraints,
            scope,
            start,
            before,
            last_in_scope: None,
        }
    }

    /// Record where each constraint's predicates match the event at `pos`.
    fn step(&mut self, f: &facts::Facts<'_>, tf: &facts::TrajFacts, pos: usize) {
        for (&c, st) in self.constraints.iter().zip(self.states.iter_mut()) {
            let (when, behavior, kind) = match &c.kind {
                Kind::Unverifiable => {
                    if c.scoped && c.scope.iter().any(|t| f.scopes.contains(t)) {
                        st.kind.push(pos);
                    }
                    continue;
                }
                Kind::WhenOnly { when } => (when.as_ref(), None, None),
                Kind::Forbid { when, forbid, kind } => (when.as_ref(), Some(forbid), kind.as_ref()),
                Kind::Require { when, require, .. } => (when.as_ref(), Some(require), None),
            };
            if let Some(w) = when {
                if facts::eval(w, f, tf) == Tri::Yes {
                    st.when.push(pos);
                }
            }
            if let Some(k) = kind {
                if facts::eval(k, f, tf) != Tri::No {
                    st.kind.push(pos);
                }
            }
            if let Some(b) = behavior {
                match facts::eval(b, f, tf) {
                    Tri::Yes => st.yes.push(pos),
                    Tri::Maybe => st.maybe.push(pos),
                    Tri::No => {}
                }
            }
        }
    }

    fn finish(self, traj: &Trajectory) -> Vec<TrajectoryLabel> {
        let hidden = hidden_records(traj, self.scope);
        let ctx = Ctx {
            traj,
            scope: self.scope,
            hidden: &hidden,
            last: self.last_in_scope,
        };
        self.constraints
            .iter()
            .zip(self.states)
            .map(|(&c, st)| finish(c, &st, &ctx))
            .collect()
    }
}

/// Label several skills' constraints in one trajectory (one result per
/// entry of `sets`, in order; each the same as [`label_trajectory`]'s).
/// Skills whose compiled sets have the same globs and regexes (and were
/// compiled with the same lexicon, as every skill of one gate run is) share
/// each event's facts — the glob and regex matching that dominates
/// labelling — computed once per event for all of them.
pub fn label_many(
    sets: &[(&CompiledSet, ScopeStart)],
    traj: &Trajectory,
) -> Vec<Vec<TrajectoryLabel>> {
    let j = judge_many(sets, traj);
    j.of.iter()
        .map(|(m, slots)| slots.iter().map(|&k| j.labels[*m][k].clone()).collect())
        .collect()
}

/// [`label_many`], each skill's labels compact (`Labels::from` of its
/// list); skills whose constraints were all judged alike (identical rules,
/// the same scope) share one compaction, copied.
pub fn label_many_compact(
    sets: &[(&CompiledSet, ScopeStart)],
    traj: &Trajectory,
) -> Vec<compact::Labels> {
    let j = judge_many(sets, traj);
    let mut out: Vec<compact::Labels> = Vec::with_capacity(j.of.len());
    let mut first: HashMap<(usize, &[usize]), usize> = HashMap::new();
    for (i, (m, slots)) in j.of.iter().enumerate() {
        match first.entry((*m, slots.as_slice())) {
            std::collections::hash_map::Entry::Occupied(e) => out.push(out[*e.get()].clone()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
                out.push(compact::Labels::from_refs(
                    slots.iter().map(|&k| &j.labels[*m][k]),
                ));
            }
        }
    }
    out
}

/// What [`judge_many`] found: the labels of each distinct constraint per
/// scope, and per entry of `sets` where its constraints' labels are.
struct Judged {
    labels: Vec<Vec<TrajectoryLabel>>,
    /// Per entry: index into `labels`, and per constraint its position there.
    of: Vec<(usize, Vec<usize>)>,
}

fn judge_many(sets: &[(&CompiledSet, ScopeStart)], traj: &Trajectory) -> Judged {
    let mut judged: Vec<Vec<TrajectoryLabel>> = Vec::new();
    let mut out: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); sets.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, (set, _)) in sets.iter().enumerate() {
        match groups
            .iter_mut()
            .find(|g| sets[g[0]].0.matcher_key == set.matcher_key)
        {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    let cwd = traj.cwd.as_deref();
    for g in groups {
        let lead = sets[g[0]].0;
        let tf = lead.traj_facts(traj.git_branch.as_deref());
        // Skills whose scope starts at the same event see the same events,
        // and of their constraints those compiled alike (same predicates over
        // the same pattern ids) get the same label: each distinct constraint
        // of a scope is judged once, and its label copied to every skill.
        let mut members: Vec<Member<'_, '_>> = Vec::new();
        // Per entry of `g`: its member, and per constraint its slot there.
        let mut slots: Vec<(usize, Vec<usize>)> = Vec::with_capacity(g.len());
        // Per scope: its member, and per constraint fingerprint the slots
        // holding constraints with that fingerprint.
        let mut index: Vec<(ScopeStart, HashMap<u64, Vec<usize>>)> = Vec::new();
        for &i in &g {
            let (set, scope) = sets[i];
            let m = match index.iter().position(|(s, _)| *s == scope) {
                Some(m) => m,
                None => {
                    members.push(Member::new(Vec::new(), scope, traj));
                    index.push((scope, HashMap::new()));
                    members.len() - 1
                }
            };
            let (member, seen) = (&mut members[m], &mut index[m].1);
            let mine = set
                .constraints
                .iter()
                .zip(&set.fingerprints)
                .map(|(c, &fp)| {
                    let alike = seen.entry(fp).or_default();
                    match alike.iter().find(|&&k| member.constraints[k] == c) {
                        Some(&k) => k,
                        None => {
                            member.constraints.push(c);
                            member.states.push(State::default());
                            alike.push(member.constraints.len() - 1);
                            member.constraints.len() - 1
                        }
                    }
                })
                .collect();
            slots.push((m, mine));
        }
        let from = members.iter().map(|m| m.start).min().unwrap_or(0);
        let mut memo = facts::PathMemo::default();
        for (pos, e) in traj.events.iter().enumerate().skip(from) {
            let mut f = None;
            for m in members.iter_mut() {
                if pos < m.start {
                    continue;
                }
                if let AgentPath::Subagent(id) = &e.agent {
                    if m.before.contains(id.as_str()) {
                        continue;
                    }
                }
                m.last_in_scope = Some(pos);
                let f = f.get_or_insert_with(|| lead.facts(e, cwd, &mut memo));
                m.step(f, &tf, pos);
            }
        }
        let base = judged.len();
        judged.extend(members.into_iter().map(|m| m.finish(traj)));
        for ((m, mine), &i) in slots.into_iter().zip(&g) {
            out[i] = (base + m, mine);
        }
    }
    Judged {
        labels: judged,
        of: out,
    }
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
        fired: !matches!(reason, Reason::NotFired | Reason::NoPredicate),
    }
}

/// What `finish` reads besides a constraint's matches.
struct Ctx<'a> {
    traj: &'a Trajectory,
    scope: ScopeStart,
    hidden: &'a [Location],
    /// The last in-scope event (where an open requirement ran out).
    last: Option<usize>,
}

impl Ctx<'_> {
    fn cites(&self, positions: &[usize], why: Cite) -> Vec<Cited> {
        positions
            .iter()
            .take(MAX_CITED)
            .map(|&p| cite(self.traj, p, why))
            .collect()
    }
    fn load(&self, why: Cite) -> Vec<Cited> {
        self.scope
            .load
            .map(|p| vec![cite(self.traj, p, why)])
            .unwrap_or_default()
    }
}

/// How one firing event of a `require` rule was judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fire {
    /// Met by the event at this position.
    Met(usize),
    /// Met only if the branch (not recorded) is right.
    Maybe(usize),
    Unmet,
}

/// The event in `hits` (sorted) that satisfies a firing at `w` under `order`,
/// with `prev` the previous firing event (for `before-each`).
fn satisfier(hits: &[usize], w: usize, prev: Option<usize>, order: Order) -> Option<usize> {
    // Positions strictly before `w`: hits[..lo].
    let lo = hits.partition_point(|&y| y < w);
    match order {
        // The closest event before the firing one.
        Order::Before => lo.checked_sub(1).map(|i| hits[i]),
        Order::BeforeEach => lo
            .checked_sub(1)
            .map(|i| hits[i])
            .filter(|&y| prev.is_none_or(|p| y > p)),
        // The first event after the firing one.
        Order::After => hits[hits.partition_point(|&y| y <= w)..].first().copied(),
        Order::Anywhere => hits
            .get(lo)
            .or_else(|| lo.checked_sub(1).and_then(|i| hits.get(i)))
            .copied(),
    }
}

fn finish(c: &CConstraint, st: &State, ctx: &Ctx<'_>) -> TrajectoryLabel {
    let traj = ctx.traj;
    let ended_early = !traj.complete || traj.truncated;
    match &c.kind {
        Kind::Unverifiable => {
            // Scope-tagged: it fires where the session acted in its scope.
            if st.kind.is_empty() {
                out(Label::Unverifiable, Reason::NoPredicate, Vec::new(), 0)
            } else {
                out(
                    Label::Unverifiable,
                    Reason::ScopeAction,
                    ctx.cites(&st.kind, Cite::ScopeAction),
                    st.kind.len(),
                )
            }
        }
        Kind::WhenOnly { when } => match when {
            None => out(
                Label::Ambiguous,
                Reason::Undecidable,
                ctx.load(Cite::SkillLoad),
                1,
            ),
            Some(_) if !st.when.is_empty() => out(
                Label::Ambiguous,
                Reason::Undecidable,
                ctx.cites(&st.when, Cite::WhenMatched),
                st.when.len(),
            ),
            Some(_) => out(Label::Untested, Reason::NotFired, Vec::new(), 0),
        },
        Kind::Forbid { when, .. } => {
            if !st.yes.is_empty() {
                return out(
                    Label::Violated,
                    Reason::ForbiddenAction,
                    ctx.cites(&st.yes, Cite::ForbidMatched),
                    st.yes.len(),
                );
            }
            if !st.maybe.is_empty() {
                return out(
                    Label::Ambiguous,
                    Reason::BranchUnknown,
                    ctx.cites(&st.maybe, Cite::ForbidMaybe),
                    st.maybe.len(),
                );
            }
            if c.scoped && !ctx.hidden.is_empty() {
                let cited: Vec<Cited> = ctx
                    .hidden
                    .iter()
                    .take(MAX_CITED)
                    .map(|l| cite_location(None, l, None, Cite::UndecodableRecord))
                    .collect();
                return out(
                    Label::Ambiguous,
                    Reason::UndecodableRecords,
                    cited,
                    ctx.hidden.len(),
                );
            }
            // Fired by `when`, or (no `when`) by an action of the forbidden kind.
            let (fired, why) = match when {
                Some(_) => (&st.when, Cite::WhenMatched),
                None => (&st.kind, Cite::KindMatched),
            };
            if fired.is_empty() {
                out(Label::Untested, Reason::NotFired, Vec::new(), 0)
            } else {
                out(
                    Label::Exercised,
                    Reason::Complied,
                    ctx.cites(fired, why),
                    fired.len(),
                )
            }
        }
        Kind::Require { when, order, .. } => {
            // Without `when`, the load fires the rule and its window is the whole scope.
            let (firings, order): (Vec<Option<usize>>, Order) = match when {
                None => (vec![ctx.scope.load], Order::Anywhere),
                Some(_) => (st.when.iter().map(|&p| Some(p)).collect(), *order),
            };
            if firings.is_empty() {
                return out(Label::Untested, Reason::NotFired, Vec::new(), 0);
            }
            let mut maybe_or_yes: Vec<usize> = Vec::new();
            if !st.maybe.is_empty() {
                maybe_or_yes = st.yes.iter().chain(&st.maybe).copied().collect();
                maybe_or_yes.sort_unstable();
            }
            let mut judged: Vec<(Option<usize>, Fire)> = Vec::with_capacity(firings.len());
            let mut prev: Option<usize> = ctx.scope.load;
            for w in &firings {
                // A sidecar-only load has no event: the window is the whole scope.
                let at = w.unwrap_or(0);
                let fire = match satisfier(&st.yes, at, prev, order) {
                    Some(y) => Fire::Met(y),
                    None => match satisfier(&maybe_or_yes, at, prev, order) {
                        Some(y) => Fire::Maybe(y),
                        None => Fire::Unmet,
                    },
                };
                judged.push((*w, fire));
                prev = *w;
            }
            let unmet: Vec<Option<usize>> = judged
                .iter()
                .filter(|(_, f)| *f == Fire::Unmet)
                .map(|(w, _)| *w)
                .collect();
            let fire_cites = |ws: &[Option<usize>], why: Cite| -> Vec<Cited> {
                let mut v: Vec<Cited> = Vec::new();
                for w in ws.iter().take(MAX_CITED) {
                    match w {
                        Some(p) => v.push(cite(traj, *p, why)),
                        None => v.extend(ctx.load(why)),
                    }
                }
                v
            };
            if !unmet.is_empty() {
                // A `before` / `before-each` window closes at the firing event:
                // ending early cannot reopen it. `after` / `anywhere` stay open.
                let open = matches!(order, Order::After | Order::Anywhere);
                if ended_early && open {
                    return out(
                        Label::Ambiguous,
                        Reason::OpenAtEnd,
                        fire_cites(&unmet, Cite::RequirementOpen),
                        unmet.len(),
                    );
                }
                let mut cited = if when.is_none() {
                    // The load fired it; the session ran to its end without the action.
                    let mut v = ctx.load(Cite::SkillLoad);
                    if let Some(l) = ctx.last {
                        v.push(cite(traj, l, Cite::RequirementUnmet));
                    }
                    v
                } else {
                    fire_cites(&unmet, Cite::RequirementUnmet)
                };
                cited.truncate(MAX_CITED);
                let reason = if c.consent {
                    Reason::NoConsent
                } else {
                    Reason::RequirementUnmet
                };
                return out(Label::Violated, reason, cited, unmet.len());
            }
            let pairs = |pick: &dyn Fn(Fire) -> Option<usize>, sat: Cite| -> (Vec<Cited>, usize) {
                let mut v = Vec::new();
                let mut total = 0;
                for (w, f) in &judged {
                    let Some(y) = pick(*f) else { continue };
                    total += 2;
                    if v.len() + 2 > MAX_CITED {
                        continue;
                    }
                    match w {
                        Some(p) => v.push(cite(traj, *p, Cite::WhenMatched)),
                        None => v.extend(ctx.load(Cite::SkillLoad)),
                    }
                    v.push(cite(traj, y, sat));
                }
                (v, total)
            };
            if judged.iter().any(|(_, f)| matches!(f, Fire::Maybe(_))) {
                let (cited, total) = pairs(
                    &|f| match f {
                        Fire::Maybe(y) => Some(y),
                        _ => None,
                    },
                    Cite::RequireMaybe,
                );
                return out(Label::Ambiguous, Reason::BranchUnknown, cited, total);
            }
            let (why, reason) = if c.consent {
                (Cite::ConsentTurn, Reason::ConsentTaken)
            } else {
                (Cite::RequireMatched, Reason::Satisfied)
            };
            let (cited, total) = pairs(
                &|f| match f {
                    Fire::Met(y) => Some(y),
                    _ => None,
                },
                why,
            );
            out(Label::Exercised, reason, cited, total)
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
    aggregate(set, per_traj)
}

/// Per constraint, its label before any trajectory is seen: `unverifiable`
/// for a rule without any predicate, else `untested` ([`aggregate`] then
/// keeps the worst label seen).
pub fn start_labels(set: &CompiledSet) -> Vec<Label> {
    set.constraints
        .iter()
        .map(|c| {
            if matches!(c.kind, Kind::Unverifiable) {
                Label::Unverifiable
            } else {
                Label::Untested
            }
        })
        .collect()
}

/// Aggregate per constraint the labels of every valid trajectory (each from
/// [`label_trajectory`], in trajectory order). The gate labels each
/// trajectory as soon as it is decoded and drops it, then calls this.
pub fn aggregate(set: &CompiledSet, per_traj: Vec<Vec<TrajectoryLabel>>) -> Vec<ConstraintLabels> {
    let n = per_traj.len();
    let mut out: Vec<ConstraintLabels> = set
        .constraints
        .iter()
        .map(|c| ConstraintLabels {
            label: if matches!(c.kind, Kind::Unverifiable) {
                Label::Unverifiable
            } else {
                Label::Untested
            },
            per_trajectory: Vec::with_capacity(n),
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
