//! Compact storage of what the gate keeps of a trajectory once it is dropped:
//! per constraint its label, reason, count of citable events, and up to
//! [`super::MAX_CITED`] cited locations.
//!
//! A [`Cited`] is ~112 bytes with three optional owned strings; a corpus of
//! 3,000 sessions judged against 12 rules keeps ~46,000 of them until the
//! report is written. Here a cited location is one 16-byte [`CiteRow`]; the
//! rare parts (a subagent's file, a JSON pointer, a subagent id, an event or
//! line number past `u32`) go to one byte arena per store, so memory per
//! trajectory stays a few hundred bytes. Every value reads back exactly as it
//! was pushed (unit tests below, and the gate's JSON snapshots).

use super::{Cite, Cited, Label, Reason, TrajectoryLabel};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::Path;

/// No line (an event index or line past `u32` is stored apart).
pub(crate) const NONE32: u32 = u32::MAX;

// Which rare parts a row has in the arena (in this order); the report's
// spilled evidence records (`score::lists`) use the same flags.
pub(crate) const BIG_EVENT: u8 = 1;
pub(crate) const BIG_LINE: u8 = 2;
pub(crate) const FILE: u8 = 4;
pub(crate) const POINTER: u8 = 8;
pub(crate) const SUBAGENT: u8 = 16;

/// One cited location, compact: event and line inline when they fit in
/// `u32` (`u32::MAX` = none), everything else in the store's arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CiteRow {
    event: u32,
    line: u32,
    /// Offset of the row's rare parts in the arena (when `flags != 0`).
    text: u32,
    why: Cite,
    flags: u8,
    /// The label of the trajectory this location was cited for.
    pub label: Label,
}

/// A cited location read back from a [`CiteStore`], borrowing its strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CiteRef<'a> {
    pub event: Option<usize>,
    pub line: Option<u64>,
    pub file: Option<&'a Path>,
    pub pointer: Option<&'a str>,
    pub subagent: Option<&'a str>,
    pub why: Cite,
    pub label: Label,
}

impl CiteRef<'_> {
    pub fn to_cited(&self) -> Cited {
        Cited {
            event: self.event,
            file: self.file.map(Path::to_path_buf),
            line: self.line,
            pointer: self.pointer.map(str::to_string),
            subagent: self.subagent.map(str::to_string),
            why: self.why,
        }
    }
}

/// Cited locations, 16 bytes each plus their rare parts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CiteStore {
    rows: Vec<CiteRow>,
    arena: Vec<u8>,
}

use crate::fsutil::{bytes_path, path_bytes};

impl CiteStore {
    pub fn len(&self) -> usize {
        self.rows.len()
    }
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn put(&mut self, bytes: &[u8]) {
        // A cited string is a path, a JSON pointer or an id: far below 4 GiB.
        let n = u32::try_from(bytes.len()).expect("a cited string below 4 GiB");
        self.arena.extend_from_slice(&n.to_le_bytes());
        self.arena.extend_from_slice(bytes);
    }

    /// Append one location.
    #[allow(clippy::too_many_arguments)]
    fn push_parts(
        &mut self,
        event: Option<usize>,
        line: Option<u64>,
        file: Option<&[u8]>,
        pointer: Option<&str>,
        subagent: Option<&str>,
        why: Cite,
        label: Label,
    ) {
        let small = |x: Option<u64>| match x {
            None => Some(NONE32),
            Some(v) => u32::try_from(v).ok().filter(|v| *v != NONE32),
        };
        let ev = small(event.map(|e| e as u64));
        let ln = small(line);
        let mut flags = 0;
        if ev.is_none() {
            flags |= BIG_EVENT;
        }
        if ln.is_none() {
            flags |= BIG_LINE;
        }
        flags |= if file.is_some() { FILE } else { 0 }
            | if pointer.is_some() { POINTER } else { 0 }
            | if subagent.is_some() { SUBAGENT } else { 0 };
        let text = if flags == 0 {
            0
        } else {
            // The arena of one verdict is far below 4 GiB (a few dozen bytes
            // per cited location, at most 10 per trajectory and rule).
            let at = u32::try_from(self.arena.len()).expect("cited strings exceed 4 GiB");
            if ev.is_none() {
                self.arena
                    .extend_from_slice(&(event.unwrap_or_default() as u64).to_le_bytes());
            }
            if ln.is_none() {
                self.arena
                    .extend_from_slice(&line.unwrap_or_default().to_le_bytes());
            }
            for s in [
                file,
                pointer.map(str::as_bytes),
                subagent.map(str::as_bytes),
            ]
            .into_iter()
            .flatten()
            {
                self.put(s);
            }
            at
        };
        self.rows.push(CiteRow {
            event: ev.unwrap_or(NONE32),
            line: ln.unwrap_or(NONE32),
            text,
            why,
            flags,
            label,
        });
    }

    /// Append a cited location, for a trajectory labelled `label`.
    pub fn push(&mut self, c: &Cited, label: Label) {
        let file = c.file.as_deref().map(path_bytes);
        self.push_parts(
            c.event,
            c.line,
            file.as_deref(),
            c.pointer.as_deref(),
            c.subagent.as_deref(),
            c.why,
            label,
        );
    }

    /// Append a location read from another store, with its label replaced.
    pub fn push_ref(&mut self, c: &CiteRef<'_>, label: Label) {
        let file = c.file.map(path_bytes);
        self.push_parts(
            c.event,
            c.line,
            file.as_deref(),
            c.pointer,
            c.subagent,
            c.why,
            label,
        );
    }

    /// The `i`-th location.
    pub fn get(&self, i: usize) -> CiteRef<'_> {
        let r = self.rows[i];
        let mut at = r.text as usize;
        let word = |at: &mut usize| {
            let v = u64::from_le_bytes(self.arena[*at..*at + 8].try_into().unwrap_or_default());
            *at += 8;
            v
        };
        let event = if r.flags & BIG_EVENT != 0 {
            Some(word(&mut at) as usize)
        } else {
            (r.event != NONE32).then_some(r.event as usize)
        };
        let line = if r.flags & BIG_LINE != 0 {
            Some(word(&mut at))
        } else {
            (r.line != NONE32).then_some(u64::from(r.line))
        };
        let bytes = |flag: u8, at: &mut usize| -> Option<&[u8]> {
            if r.flags & flag == 0 {
                return None;
            }
            let n = u32::from_le_bytes(self.arena[*at..*at + 4].try_into().unwrap_or_default())
                as usize;
            *at += 4;
            let b = &self.arena[*at..*at + n];
            *at += n;
            Some(b)
        };
        let file = bytes(FILE, &mut at).map(bytes_path);
        // Only whole `&str`s were written: these slices are valid UTF-8.
        let pointer = bytes(POINTER, &mut at).map(|b| std::str::from_utf8(b).unwrap_or_default());
        let subagent = bytes(SUBAGENT, &mut at).map(|b| std::str::from_utf8(b).unwrap_or_default());
        CiteRef {
            event,
            line,
            file,
            pointer,
            subagent,
            why: r.why,
            label: r.label,
        }
    }
}

/// One constraint's label in one trajectory, without its cited locations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LabelRow {
    cited_total: usize,
    /// End of this label's locations in the store (they start where the
    /// previous label's end).
    end: u32,
    label: Label,
    reason: Reason,
    fired: bool,
}

/// The labels of every constraint in one trajectory ([`super::label_trajectory`]),
/// compact. Serializes as the list of [`TrajectoryLabel`] it holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Labels {
    rows: Vec<LabelRow>,
    cites: CiteStore,
}

/// One label read back from [`Labels`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelRef<'a> {
    pub label: Label,
    pub reason: Reason,
    pub cited_total: usize,
    pub fired: bool,
    store: &'a CiteStore,
    from: usize,
    to: usize,
}

impl<'a> LabelRef<'a> {
    /// The cited locations, in order.
    pub fn cited(&self) -> impl ExactSizeIterator<Item = CiteRef<'a>> + 'a {
        let store = self.store;
        (self.from..self.to).map(move |i| store.get(i))
    }
}

impl Labels {
    pub fn len(&self) -> usize {
        self.rows.len()
    }
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn push(&mut self, l: &TrajectoryLabel) {
        for c in &l.cited {
            self.cites.push(c, l.label);
        }
        self.rows.push(LabelRow {
            cited_total: l.cited_total,
            end: u32::try_from(self.cites.len()).expect("fewer than 4G cited locations"),
            label: l.label,
            reason: l.reason,
            fired: l.fired,
        });
    }

    /// The label of the `k`-th constraint.
    pub fn get(&self, k: usize) -> LabelRef<'_> {
        let r = self.rows[k];
        let from = if k == 0 {
            0
        } else {
            self.rows[k - 1].end as usize
        };
        LabelRef {
            label: r.label,
            reason: r.reason,
            cited_total: r.cited_total,
            fired: r.fired,
            store: &self.cites,
            from,
            to: r.end as usize,
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = LabelRef<'_>> + '_ {
        (0..self.len()).map(move |k| self.get(k))
    }

    /// The labels as [`TrajectoryLabel`]s.
    pub fn to_vec(&self) -> Vec<TrajectoryLabel> {
        self.iter()
            .map(|l| TrajectoryLabel {
                label: l.label,
                reason: l.reason,
                cited: l.cited().map(|c| c.to_cited()).collect(),
                cited_total: l.cited_total,
                fired: l.fired,
            })
            .collect()
    }
}

impl Labels {
    /// The labels in order, compact (as `Labels::from` a list of them).
    pub fn from_refs<'a>(v: impl ExactSizeIterator<Item = &'a TrajectoryLabel>) -> Labels {
        let mut out = Labels {
            rows: Vec::with_capacity(v.len()),
            cites: CiteStore::default(),
        };
        for l in v {
            out.push(l);
        }
        out.rows.shrink_to_fit();
        out.cites.rows.shrink_to_fit();
        out.cites.arena.shrink_to_fit();
        out
    }
}

impl From<&[TrajectoryLabel]> for Labels {
    fn from(v: &[TrajectoryLabel]) -> Labels {
        Labels::from_refs(v.iter())
    }
}

impl From<Vec<TrajectoryLabel>> for Labels {
    fn from(v: Vec<TrajectoryLabel>) -> Labels {
        Labels::from(v.as_slice())
    }
}

impl Serialize for Labels {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_vec().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Labels {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Labels, D::Error> {
        Vec::<TrajectoryLabel>::deserialize(d).map(Labels::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn cited(event: Option<usize>, line: Option<u64>, extra: bool) -> Cited {
        Cited {
            event,
            file: extra.then(|| PathBuf::from("sub/agent-1.jsonl")),
            line,
            pointer: extra.then(|| "/messages/3/content/0".to_string()),
            subagent: extra.then(|| "agent-a0ad4f".to_string()),
            why: Cite::ForbidMatched,
        }
    }

    #[test]
    fn every_value_reads_back_as_pushed() {
        let all = [
            cited(Some(0), Some(1), false),
            cited(None, None, false),
            cited(Some(u32::MAX as usize), Some(u64::from(u32::MAX)), false),
            cited(Some(usize::MAX), Some(u64::MAX), true),
            cited(Some(7), None, true),
            cited(
                Some(u32::MAX as usize - 1),
                Some(u64::from(u32::MAX) - 1),
                false,
            ),
            Cited {
                pointer: Some(String::new()),
                ..cited(Some(2), Some(3), false)
            },
        ];
        let labels = vec![
            TrajectoryLabel {
                label: Label::Violated,
                reason: Reason::ForbiddenAction,
                cited: all[..4].to_vec(),
                cited_total: 12,
                fired: true,
            },
            TrajectoryLabel {
                label: Label::Untested,
                reason: Reason::NotFired,
                cited: Vec::new(),
                cited_total: 0,
                fired: false,
            },
            TrajectoryLabel {
                label: Label::Exercised,
                reason: Reason::Complied,
                cited: all[4..].to_vec(),
                cited_total: usize::MAX,
                fired: true,
            },
        ];
        let compact = Labels::from(labels.as_slice());
        assert_eq!(compact.to_vec(), labels);
        assert_eq!(
            serde_json::to_string(&compact).unwrap(),
            serde_json::to_string(&labels).unwrap()
        );
        let back: Labels = serde_json::from_str(&serde_json::to_string(&labels).unwrap()).unwrap();
        assert_eq!(back, compact);
        // Copying a location between stores keeps it, with the new label.
        let mut store = CiteStore::default();
        for l in compact.iter() {
            for c in l.cited() {
                store.push_ref(&c, Label::Ambiguous);
            }
        }
        assert_eq!(store.len(), all.len());
        for (i, c) in all.iter().enumerate() {
            let r = store.get(i);
            assert_eq!(r.to_cited(), *c);
            assert_eq!(r.label, Label::Ambiguous);
        }
        assert_eq!(std::mem::size_of::<CiteRow>(), 16);
    }
}
