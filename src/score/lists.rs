//! The two per-constraint lists of a verdict that grow with the corpus —
//! `per_trajectory` (one row per valid trajectory) and `evidence` (up to
//! [`crate::label::MAX_CITED`] locations per trajectory) — stored compactly.
//!
//! A [`PerTrajectory`] or [`Evidence`] value owns its trajectory's path: kept
//! as such, 3,000 sessions × 12 rules held ~80,000 copies of paths. Here the
//! paths are interned once per verdict (a row holds a `u32` index into a
//! table every list of the verdict shares) and a cited location is 20 bytes
//! ([`crate::label::compact::CiteStore`]). The lists read, compare and
//! serialize exactly as the `Vec`s they replace: items are handed out as
//! owned [`PerTrajectory`] / [`Evidence`] values, in order.

use super::{Evidence, PerTrajectory};
use crate::label::compact::{CiteRef, CiteStore, Labels};
use crate::label::{Cite, Label, Reason, TrajectoryLabel};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::Path;
use std::sync::Arc;

/// Trajectory paths, shared by every list of a verdict.
type Paths = Arc<Vec<Arc<str>>>;

/// The index of `path` in `paths`: the last one when it is the same path
/// (rows come grouped by trajectory), else a new entry.
fn intern(paths: &mut Paths, path: &str) -> u32 {
    if paths.last().is_some_and(|p| &**p == path) {
        return index(paths.len() - 1);
    }
    let v = Arc::make_mut(paths);
    v.push(path.into());
    index(v.len() - 1)
}

/// A row's index as stored: a verdict has far fewer than 4G trajectories.
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 4G trajectories")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PerRow {
    events: usize,
    traj: u32,
    label: Label,
    reason: Reason,
    fired: bool,
}

/// `per_trajectory` of a [`super::ConstraintVerdict`]: one row per valid trajectory.
#[derive(Clone)]
pub struct PerTrajectoryList {
    paths: Paths,
    rows: Vec<PerRow>,
}

/// `evidence` of a [`super::ConstraintVerdict`]: the cited locations, in order.
#[derive(Clone)]
pub struct EvidenceList {
    paths: Paths,
    traj: Vec<u32>,
    cites: CiteStore,
}

impl Default for PerTrajectoryList {
    fn default() -> Self {
        PerTrajectoryList {
            paths: Arc::new(Vec::new()),
            rows: Vec::new(),
        }
    }
}

impl Default for EvidenceList {
    fn default() -> Self {
        EvidenceList {
            paths: Arc::new(Vec::new()),
            traj: Vec::new(),
            cites: CiteStore::default(),
        }
    }
}

/// Borrowing twin of [`PerTrajectory`] for serialization (same fields, same order).
#[derive(Serialize)]
struct PerTrajectoryRef<'a> {
    trajectory: &'a str,
    label: Label,
    reason: Reason,
    events: usize,
    fired: bool,
}

/// Borrowing twin of [`Evidence`] for serialization (same fields, same order).
#[derive(Serialize)]
struct EvidenceRef<'a> {
    trajectory: &'a str,
    event: Option<usize>,
    line: Option<u64>,
    label: Label,
    why: Cite,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<std::borrow::Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    subagent: Option<&'a str>,
}

impl PerTrajectoryList {
    pub fn len(&self) -> usize {
        self.rows.len()
    }
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
    fn item(&self, r: &PerRow) -> PerTrajectory {
        PerTrajectory {
            trajectory: self.paths[r.traj as usize].to_string(),
            label: r.label,
            reason: r.reason,
            events: r.events,
            fired: r.fired,
        }
    }
    pub fn get(&self, i: usize) -> Option<PerTrajectory> {
        self.rows.get(i).map(|r| self.item(r))
    }
    /// Every row, in order, as owned values.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = PerTrajectory> + ExactSizeIterator + '_ {
        self.rows.iter().map(|r| self.item(r))
    }
    /// Did the rule fire in any trajectory?
    pub fn any_fired(&self) -> bool {
        self.rows.iter().any(|r| r.fired)
    }
    pub fn push(&mut self, p: PerTrajectory) {
        let traj = intern(&mut self.paths, &p.trajectory);
        self.rows.push(PerRow {
            events: p.events,
            traj,
            label: p.label,
            reason: p.reason,
            fired: p.fired,
        });
    }
}

impl EvidenceList {
    pub fn len(&self) -> usize {
        self.traj.len()
    }
    pub fn is_empty(&self) -> bool {
        self.traj.is_empty()
    }
    fn item(&self, i: usize) -> Evidence {
        let c = self.cites.get(i);
        Evidence {
            trajectory: self.paths[self.traj[i] as usize].to_string(),
            event: c.event,
            line: c.line,
            label: c.label,
            why: c.why,
            file: c.file.map(|f| f.display().to_string()),
            pointer: c.pointer.map(str::to_string),
            subagent: c.subagent.map(str::to_string),
        }
    }
    pub fn get(&self, i: usize) -> Option<Evidence> {
        (i < self.len()).then(|| self.item(i))
    }
    /// Every location, in order, as owned values.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Evidence> + ExactSizeIterator + '_ {
        (0..self.len()).map(|i| self.item(i))
    }
    /// The locations whose label `keep` accepts, in order, as owned values
    /// (the others are never built: filtering [`EvidenceList::iter`] built
    /// every location's strings to look at its label).
    pub fn iter_labelled<'a>(
        &'a self,
        keep: impl Fn(Label) -> bool + 'a,
    ) -> impl Iterator<Item = Evidence> + 'a {
        (0..self.len())
            .filter(move |&i| keep(self.cites.get(i).label))
            .map(|i| self.item(i))
    }
    pub fn push(&mut self, e: Evidence) {
        let traj = intern(&mut self.paths, &e.trajectory);
        self.traj.push(traj);
        self.cites.push_ref(
            &CiteRef {
                event: e.event,
                line: e.line,
                file: e.file.as_deref().map(Path::new),
                pointer: e.pointer.as_deref(),
                subagent: e.subagent.as_deref(),
                why: e.why,
                label: e.label,
            },
            e.label,
        );
    }
}

impl<'a> IntoIterator for &'a PerTrajectoryList {
    type Item = PerTrajectory;
    type IntoIter = Box<dyn Iterator<Item = PerTrajectory> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<'a> IntoIterator for &'a EvidenceList {
    type Item = Evidence;
    type IntoIter = Box<dyn Iterator<Item = Evidence> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl FromIterator<PerTrajectory> for PerTrajectoryList {
    fn from_iter<I: IntoIterator<Item = PerTrajectory>>(it: I) -> Self {
        let mut l = PerTrajectoryList::default();
        for p in it {
            l.push(p);
        }
        l
    }
}

impl FromIterator<Evidence> for EvidenceList {
    fn from_iter<I: IntoIterator<Item = Evidence>>(it: I) -> Self {
        let mut l = EvidenceList::default();
        for e in it {
            l.push(e);
        }
        l
    }
}

impl From<Vec<PerTrajectory>> for PerTrajectoryList {
    fn from(v: Vec<PerTrajectory>) -> Self {
        v.into_iter().collect()
    }
}

impl From<Vec<Evidence>> for EvidenceList {
    fn from(v: Vec<Evidence>) -> Self {
        v.into_iter().collect()
    }
}

impl PartialEq for PerTrajectoryList {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}
impl Eq for PerTrajectoryList {}

impl PartialEq for EvidenceList {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}
impl Eq for EvidenceList {}

impl std::fmt::Debug for PerTrajectoryList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl std::fmt::Debug for EvidenceList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for PerTrajectoryList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for r in &self.rows {
            seq.serialize_element(&PerTrajectoryRef {
                trajectory: &self.paths[r.traj as usize],
                label: r.label,
                reason: r.reason,
                events: r.events,
                fired: r.fired,
            })?;
        }
        seq.end()
    }
}

impl Serialize for EvidenceList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for (i, &t) in self.traj.iter().enumerate() {
            let c = self.cites.get(i);
            seq.serialize_element(&EvidenceRef {
                trajectory: &self.paths[t as usize],
                event: c.event,
                line: c.line,
                label: c.label,
                why: c.why,
                file: c.file.map(Path::to_string_lossy),
                pointer: c.pointer,
                subagent: c.subagent,
            })?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for PerTrajectoryList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<PerTrajectory>::deserialize(d).map(Self::from)
    }
}

impl<'de> Deserialize<'de> for EvidenceList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<Evidence>::deserialize(d).map(Self::from)
    }
}

/// One constraint's labels over every valid trajectory: the aggregated
/// label and the two lists, ready for [`super::score`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstraintColumn {
    /// The worst label seen, or `unverifiable` (see [`crate::label::aggregate`]).
    pub label: Label,
    pub per_trajectory: PerTrajectoryList,
    pub evidence: EvidenceList,
}

struct Col {
    label: Label,
    rows: Vec<PerRow>,
    traj: Vec<u32>,
    cites: CiteStore,
}

/// Builds the columns of every constraint of a skill, one valid trajectory
/// at a time, in order (the trajectories' own storage can be dropped as
/// soon as they are pushed). Paths are stored once for all columns.
pub struct ColumnsBuilder {
    paths: Vec<Arc<str>>,
    cols: Vec<Col>,
}

impl ColumnsBuilder {
    /// `start`: per constraint, the label before any trajectory
    /// (`unverifiable` for a rule without predicate, else `untested`).
    /// `trajectories`: how many valid trajectories may come (room is
    /// reserved for one row each).
    pub fn new(start: impl IntoIterator<Item = Label>, trajectories: usize) -> Self {
        ColumnsBuilder {
            paths: Vec::with_capacity(trajectories),
            cols: start
                .into_iter()
                .map(|label| Col {
                    label,
                    rows: Vec::with_capacity(trajectories),
                    traj: Vec::new(),
                    cites: CiteStore::default(),
                })
                .collect(),
        }
    }

    fn add_path(&mut self, path: &Arc<str>) -> u32 {
        self.paths.push(path.clone());
        index(self.paths.len() - 1)
    }

    fn add_row(col: &mut Col, traj: u32, label: Label, reason: Reason, events: usize, fired: bool) {
        if col.label != Label::Unverifiable {
            col.label = col.label.worst(label);
        }
        col.rows.push(PerRow {
            events,
            traj,
            label,
            reason,
            fired,
        });
    }

    /// The next valid trajectory's labels (one per constraint, in order).
    pub fn push(&mut self, path: &Arc<str>, labels: &Labels) {
        let traj = self.add_path(path);
        for (col, l) in self.cols.iter_mut().zip(labels.iter()) {
            Self::add_row(col, traj, l.label, l.reason, l.cited_total, l.fired);
            for c in l.cited() {
                col.traj.push(traj);
                col.cites.push_ref(&c, l.label);
            }
        }
    }

    /// The next valid trajectory's labels, uncompacted.
    pub fn push_labels(&mut self, path: &Arc<str>, labels: &[TrajectoryLabel]) {
        let traj = self.add_path(path);
        for (col, l) in self.cols.iter_mut().zip(labels) {
            Self::add_row(col, traj, l.label, l.reason, l.cited_total, l.fired);
            for c in &l.cited {
                col.traj.push(traj);
                col.cites.push(c, l.label);
            }
        }
    }

    pub fn finish(self) -> Vec<ConstraintColumn> {
        let paths: Paths = Arc::new(self.paths);
        self.cols
            .into_iter()
            .map(|c| ConstraintColumn {
                label: c.label,
                per_trajectory: PerTrajectoryList {
                    paths: paths.clone(),
                    rows: c.rows,
                },
                evidence: EvidenceList {
                    paths: paths.clone(),
                    traj: c.traj,
                    cites: c.cites,
                },
            })
            .collect()
    }
}

/// The columns of [`crate::label::label_all`]'s result, whose trajectories
/// are `valid` (in order).
pub fn columns(
    valid: &[Arc<str>],
    labels: Vec<crate::label::ConstraintLabels>,
) -> Vec<ConstraintColumn> {
    let mut b = ColumnsBuilder::new(labels.iter().map(|c| c.label), valid.len());
    for (t, path) in valid.iter().enumerate() {
        let row: Vec<TrajectoryLabel> = labels
            .iter()
            .filter_map(|c| c.per_trajectory.get(t).cloned())
            .collect();
        b.push_labels(path, &row);
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_serialize_and_compare_as_the_vecs_they_replace() {
        let per = vec![
            PerTrajectory {
                trajectory: "a.jsonl".into(),
                label: Label::Violated,
                reason: Reason::ForbiddenAction,
                events: 3,
                fired: true,
            },
            PerTrajectory {
                trajectory: "b.jsonl".into(),
                label: Label::Untested,
                reason: Reason::NotFired,
                events: 0,
                fired: false,
            },
        ];
        let ev = vec![
            Evidence {
                trajectory: "a.jsonl".into(),
                event: Some(4),
                line: Some(9),
                label: Label::Violated,
                why: Cite::ForbidMatched,
                file: None,
                pointer: None,
                subagent: None,
            },
            Evidence {
                trajectory: "a.jsonl".into(),
                event: None,
                line: None,
                label: Label::Violated,
                why: Cite::UndecodableRecord,
                file: Some("a/subagents/agent-1.jsonl".into()),
                pointer: Some("/messages/2".into()),
                subagent: Some("agent-1".into()),
            },
        ];
        let pl = PerTrajectoryList::from(per.clone());
        let el = EvidenceList::from(ev.clone());
        assert_eq!(
            serde_json::to_string(&pl).unwrap(),
            serde_json::to_string(&per).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&el).unwrap(),
            serde_json::to_string(&ev).unwrap()
        );
        assert_eq!(pl.iter().collect::<Vec<_>>(), per);
        assert_eq!(el.iter().collect::<Vec<_>>(), ev);
        assert_eq!(el.paths.len(), 1, "one path for both locations");
        let back: EvidenceList =
            serde_json::from_str(&serde_json::to_string(&ev).unwrap()).unwrap();
        assert_eq!(back, el);
        assert_eq!(format!("{el:?}"), format!("{ev:?}"));
    }
}
