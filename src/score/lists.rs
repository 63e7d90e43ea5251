//! The lists of a verdict that grow with the corpus — each constraint's
//! `per_trajectory` (one row per valid trajectory) and `evidence` (up to
//! [`crate::label::MAX_CITED`] locations per trajectory), and the
//! trajectories' `valid` paths and `loads` — stored as compact records.
//!
//! A row names its trajectory by number in the verdict's [`StrList`]
//! (every list of a verdict shares one), and a cited location is about 15
//! bytes. The gate writes the records to an anonymous temporary file as each
//! trajectory is judged ([`super::spill`]), so memory does not grow with the
//! corpus; lists built any other way keep them in memory. The lists read,
//! compare and serialize exactly as the `Vec`s they replace: items are
//! handed out as owned values, in the order pushed (the order of judging,
//! which is the order of the report).

use super::spill::{get_u32, get_u64, put_u32, put_u64, Reader, Records, SpillFile};
use super::{Evidence, LoadInfo, PerTrajectory};
use crate::label::compact::{CiteRef, Labels};
use crate::label::{Cite, Label, Reason, TrajectoryLabel};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::io;
use std::path::Path;
use std::sync::Arc;

/// The newtype name a writer that copies repeated text looks for
/// (`render::pretty` with its `render::fragments`).
pub(crate) const CACHED: &str = "\u{0}skillgate::render::fragments::Cached";

/// `T`, marked as text a writer may copy where it wrote an identical value
/// before: the many-skill JSON prints the same lists once per skill. Any
/// other serializer sees the value itself (a newtype is transparent to
/// serde_json).
pub struct Cached<'a, T: ?Sized>(pub &'a T);

impl<T: Serialize + ?Sized> Serialize for Cached<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(CACHED, &Plain(self.0))
    }
}

/// The value itself (what [`Cached`] holds, as the serializer sees it).
struct Plain<'a, T: ?Sized>(&'a T);

impl<T: Serialize + ?Sized> Serialize for Plain<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// A row's index as stored: a verdict has far fewer than 4G trajectories.
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 4G trajectories")
}

/// A string as stored: its length (`u32`) and bytes.
fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    // A path, JSON pointer, id or format name: far below 4 GiB.
    put_u32(out, u32::try_from(s.len()).expect("a string below 4 GiB"));
    out.extend_from_slice(s);
}

/// The length of the string record `b` starts with.
fn str_size(b: &[u8]) -> usize {
    4 + get_u32(b, 0) as usize
}

/// A list read back from the gate's temporary file: only an I/O failure of
/// that file (the disk removed under the run) stops it.
fn read_back<T>(r: io::Result<T>) -> T {
    r.unwrap_or_else(|e| panic!("the gate's temporary file could not be read back: {e}"))
}

fn bad_record() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "a record of the gate's temporary file does not decode",
    )
}

fn enum_of<T: Copy>(all: &[T], code: u8) -> io::Result<T> {
    all.get(usize::from(code)).copied().ok_or_else(bad_record)
}

// ------------------------------------------------------------ row records

/// A per-trajectory row as stored: trajectory number (`u32`), citable
/// events (`u64`), label, reason, fired (one byte each).
const ROW: usize = 15;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PerRow {
    events: usize,
    traj: u32,
    label: Label,
    reason: Reason,
    fired: bool,
}

fn put_row(out: &mut Vec<u8>, r: &PerRow) {
    put_u32(out, r.traj);
    put_u64(out, r.events as u64);
    out.extend_from_slice(&[r.label as u8, r.reason as u8, u8::from(r.fired)]);
}

fn row_of(b: &[u8]) -> io::Result<PerRow> {
    Ok(PerRow {
        traj: get_u32(b, 0),
        events: usize::try_from(get_u64(b, 4)).map_err(|_| bad_record())?,
        label: enum_of(&Label::ALL, b[12])?,
        reason: enum_of(&Reason::ALL, b[13])?,
        fired: b[14] != 0,
    })
}

// ----------------------------------------------------- cited-location records

/// A cited location as stored: trajectory number, event and line (`u32`
/// each, `u32::MAX` = none), cause, label, flags (one byte each), then the
/// rare parts the flags name, in this order: an event or line past `u32`
/// (`u64`), a subagent's file, a JSON pointer, a subagent id (`u32` length
/// and bytes each).
const CITE_HEAD: usize = 15;
use crate::label::compact::{BIG_EVENT, BIG_LINE, FILE, NONE32, POINTER, SUBAGENT};

fn small(x: Option<u64>) -> Option<u32> {
    match x {
        None => Some(NONE32),
        Some(v) => u32::try_from(v).ok().filter(|v| *v != NONE32),
    }
}

fn put_cite(out: &mut Vec<u8>, traj: u32, c: &CiteRef<'_>, label: Label) {
    let file = c.file.map(path_bytes);
    let (ev, ln) = (small(c.event.map(|e| e as u64)), small(c.line));
    let flags = if ev.is_none() { BIG_EVENT } else { 0 }
        | if ln.is_none() { BIG_LINE } else { 0 }
        | if file.is_some() { FILE } else { 0 }
        | if c.pointer.is_some() { POINTER } else { 0 }
        | if c.subagent.is_some() { SUBAGENT } else { 0 };
    put_u32(out, traj);
    put_u32(out, ev.unwrap_or(NONE32));
    put_u32(out, ln.unwrap_or(NONE32));
    out.extend_from_slice(&[c.why as u8, label as u8, flags]);
    if ev.is_none() {
        put_u64(out, c.event.unwrap_or_default() as u64);
    }
    if ln.is_none() {
        put_u64(out, c.line.unwrap_or_default());
    }
    for s in [
        file.as_deref(),
        c.pointer.map(str::as_bytes),
        c.subagent.map(str::as_bytes),
    ]
    .into_iter()
    .flatten()
    {
        put_str(out, s);
    }
}

/// The length of the cited-location record `b` starts with.
fn cite_size(b: &[u8]) -> usize {
    let Some(&flags) = b.get(CITE_HEAD - 1) else {
        return b.len() + 1;
    };
    let mut n = CITE_HEAD;
    for big in [BIG_EVENT, BIG_LINE] {
        if flags & big != 0 {
            n += 8;
        }
    }
    for s in [FILE, POINTER, SUBAGENT] {
        if flags & s != 0 {
            n += 4 + get_u32(b, n) as usize;
        }
    }
    n
}

/// Only whole `&str`s are written: anything else is a damaged record.
fn text(b: Option<&[u8]>) -> io::Result<Option<&str>> {
    b.map(std::str::from_utf8)
        .transpose()
        .map_err(|_| bad_record())
}

/// A cited-location record: its trajectory number and the location.
fn cite_of(b: &[u8]) -> io::Result<(u32, CiteRef<'_>)> {
    let flags = b[CITE_HEAD - 1];
    let mut at = CITE_HEAD;
    let mut word = |big: u8, inline: u32| -> io::Result<Option<u64>> {
        if flags & big != 0 {
            at += 8;
            Ok(Some(get_u64(b, at - 8)))
        } else {
            Ok((inline != NONE32).then_some(u64::from(inline)))
        }
    };
    let event = word(BIG_EVENT, get_u32(b, 4))?
        .map(usize::try_from)
        .transpose()
        .map_err(|_| bad_record())?;
    let line = word(BIG_LINE, get_u32(b, 8))?;
    let mut bytes = |flag: u8| -> Option<&[u8]> {
        if flags & flag == 0 {
            return None;
        }
        let n = get_u32(b, at) as usize;
        at += 4 + n;
        b.get(at - n..at)
    };
    let file = bytes(FILE).map(bytes_path);
    let (pointer, subagent) = (bytes(POINTER), bytes(SUBAGENT));
    Ok((
        get_u32(b, 0),
        CiteRef {
            event,
            line,
            file,
            pointer: text(pointer)?,
            subagent: text(subagent)?,
            why: enum_of(&Cite::ALL, b[12])?,
            label: enum_of(&Label::ALL, b[13])?,
        },
    ))
}

use crate::fsutil::{bytes_path, path_bytes};

/// A list serialized row by row (its [`Serialize`] writes through the
/// output's text of an identical list when there is one:
/// [`crate::render::fragments`]).
struct Uncached<'a, T>(&'a T);

/// What a list gives a serializer that is not human-readable — only
/// [`crate::render::fragments`]' key is — instead of its records: its kind
/// and the versions of the records its text is made of
/// ([`Records::version`]). Equal keys, equal texts; building one costs no
/// read of the records. (An identical list that is not a clone of this one
/// has another key, and its text is written again.)
fn identity<S: Serializer>(s: S, kind: u8, a: &Records, b: &Records) -> Result<S::Ok, S::Error> {
    let mut key = [kind; 17];
    key[1..9].copy_from_slice(&a.version().to_le_bytes());
    key[9..].copy_from_slice(&b.version().to_le_bytes());
    s.serialize_bytes(&key)
}

// ------------------------------------------------------------ path lists

/// A list of strings: the paths of a verdict's valid trajectories, in order
/// (`trajectories.valid`; every list of the verdict names its trajectories
/// by their number here: shared, not copied), or a proposal's locations.
#[derive(Clone, Default)]
pub struct StrList {
    records: Arc<Records>,
    /// The last path interned (a list's rows come grouped by trajectory).
    last: Option<Arc<str>>,
}

impl StrList {
    fn new(spill: Option<Arc<SpillFile>>) -> StrList {
        StrList {
            records: Arc::new(Records::new(spill)),
            last: None,
        }
    }
    /// An empty list, kept where `evidence` is (written to the same
    /// temporary file, or in memory): for text derived from it.
    pub fn alongside(evidence: &EvidenceList) -> StrList {
        StrList::new(evidence.cites.spill())
    }
    pub fn len(&self) -> usize {
        self.records.len()
    }
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
    /// Append a path; returns its number.
    pub fn push(&mut self, path: &str) -> u32 {
        Arc::make_mut(&mut self.records).push_with(|out| put_str(out, path.as_bytes()));
        index(self.len() - 1)
    }
    /// The number of `path`: the last one interned when it is the same
    /// path, else a new entry.
    fn intern(&mut self, path: &str) -> u32 {
        match &self.last {
            Some(p) if &**p == path => index(self.len() - 1),
            _ => {
                self.last = Some(path.into());
                self.push(path)
            }
        }
    }
    /// Every path, in order.
    pub fn iter(&self) -> StrIter<'_> {
        StrIter {
            reader: self.records.reader(),
            left: self.len(),
        }
    }
    fn cursor(&self) -> StrCursor<'_> {
        StrCursor {
            reader: self.records.reader(),
            next: 0,
            current: String::new(),
        }
    }
}

fn str_of(b: &[u8]) -> io::Result<&str> {
    std::str::from_utf8(b.get(4..).unwrap_or_default()).map_err(|_| bad_record())
}

/// The paths of a [`StrList`], in order.
pub struct StrIter<'a> {
    reader: Reader<'a>,
    left: usize,
}

impl Iterator for StrIter<'_> {
    type Item = String;
    fn next(&mut self) -> Option<String> {
        let b = read_back(self.reader.next_record(str_size))?;
        self.left -= 1;
        Some(read_back(str_of(b)).to_string())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for StrIter<'_> {}

/// Reads a [`StrList`] alongside a list whose trajectory numbers never
/// decrease: path `t` is the one read last, or found by reading on.
struct StrCursor<'a> {
    reader: Reader<'a>,
    /// How many paths were read.
    next: u32,
    current: String,
}

impl StrCursor<'_> {
    fn get(&mut self, t: u32) -> io::Result<&str> {
        while self.next <= t {
            let b = self.reader.next_record(str_size)?.ok_or_else(bad_record)?;
            self.current.clear();
            self.current.push_str(str_of(b)?);
            self.next += 1;
        }
        if self.next != t + 1 {
            return Err(bad_record());
        }
        Ok(&self.current)
    }
}

impl<'a> IntoIterator for &'a StrList {
    type Item = String;
    type IntoIter = StrIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl From<Vec<Arc<str>>> for StrList {
    fn from(v: Vec<Arc<str>>) -> Self {
        let mut l = StrList::default();
        for p in v {
            l.push(&p);
        }
        l
    }
}

impl PartialEq for StrList {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}
impl Eq for StrList {}

impl std::fmt::Debug for StrList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for StrList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Cached(&Uncached(self)).serialize(s)
    }
}

impl Serialize for Uncached<'_, StrList> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let list = self.0;
        if !s.is_human_readable() {
            return identity(s, b'S', &list.records, &Records::default());
        }
        use serde::ser::Error;
        let mut seq = s.serialize_seq(Some(list.len()))?;
        let mut reader = list.records.reader();
        while let Some(b) = reader.next_record(str_size).map_err(S::Error::custom)? {
            seq.serialize_element(str_of(b).map_err(S::Error::custom)?)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for StrList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut l = StrList::default();
        for p in Vec::<String>::deserialize(d)? {
            l.push(&p);
        }
        Ok(l)
    }
}

// ------------------------------------------------------------ load lists

/// `trajectories.loads` of a verdict: where the skill was loaded in each
/// valid trajectory. A load as stored: the record's length (`u32`), flags
/// (event, line, weak, complete, stale: one bit each), event and line
/// (`u64` each, when present), undecodable count (`u64`), then the path,
/// format and load kind (strings).
#[derive(Clone, Default)]
pub struct LoadList {
    records: Records,
}

const HAS_EVENT: u8 = 1;
const HAS_LINE: u8 = 2;
const WEAK: u8 = 4;
const COMPLETE: u8 = 8;
const STALE: u8 = 16;

fn put_load(out: &mut Vec<u8>, l: &LoadInfo) {
    let start = out.len();
    put_u32(out, 0);
    let flag = |on: bool, f: u8| if on { f } else { 0 };
    out.push(
        flag(l.event.is_some(), HAS_EVENT)
            | flag(l.line.is_some(), HAS_LINE)
            | flag(l.weak, WEAK)
            | flag(l.complete, COMPLETE)
            | flag(l.stale, STALE),
    );
    if let Some(e) = l.event {
        put_u64(out, e as u64);
    }
    if let Some(n) = l.line {
        put_u64(out, n);
    }
    put_u64(out, l.undecodable as u64);
    for s in [&l.path, &l.format, &l.via] {
        put_str(out, s.as_bytes());
    }
    let n = u32::try_from(out.len() - start).expect("a load record below 4 GiB");
    out[start..start + 4].copy_from_slice(&n.to_le_bytes());
}

fn load_size(b: &[u8]) -> usize {
    get_u32(b, 0) as usize
}

fn load_of(b: &[u8]) -> io::Result<LoadInfo> {
    let flags = *b.get(4).ok_or_else(bad_record)?;
    let mut at = 5;
    let mut word = |on: bool| -> Option<u64> {
        on.then(|| {
            at += 8;
            get_u64(b, at - 8)
        })
    };
    let size = |v: Option<u64>| v.map(usize::try_from).transpose().map_err(|_| bad_record());
    let event = size(word(flags & HAS_EVENT != 0))?;
    let line = word(flags & HAS_LINE != 0);
    let undecodable = size(word(true))?.unwrap_or_default();
    let mut text = || -> io::Result<Arc<str>> {
        let s = b.get(at..).ok_or_else(bad_record)?;
        let n = str_size(s);
        at += n;
        Ok(str_of(s.get(..n).ok_or_else(bad_record)?)?.into())
    };
    Ok(LoadInfo {
        path: text()?,
        format: text()?,
        via: text()?,
        event,
        line,
        weak: flags & WEAK != 0,
        complete: flags & COMPLETE != 0,
        undecodable,
        stale: flags & STALE != 0,
    })
}

impl LoadList {
    fn new(spill: Option<Arc<SpillFile>>) -> LoadList {
        LoadList {
            records: Records::new(spill),
        }
    }
    pub fn len(&self) -> usize {
        self.records.len()
    }
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
    pub fn push(&mut self, l: &LoadInfo) {
        self.records.push_with(|out| put_load(out, l));
    }
    /// Every load, in order, as owned values.
    pub fn iter(&self) -> LoadIter<'_> {
        LoadIter {
            reader: self.records.reader(),
            left: self.len(),
        }
    }
}

/// The loads of a [`LoadList`], in order.
pub struct LoadIter<'a> {
    reader: Reader<'a>,
    left: usize,
}

impl Iterator for LoadIter<'_> {
    type Item = LoadInfo;
    fn next(&mut self) -> Option<LoadInfo> {
        let b = read_back(self.reader.next_record(load_size))?;
        self.left -= 1;
        Some(read_back(load_of(b)))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for LoadIter<'_> {}

impl<'a> IntoIterator for &'a LoadList {
    type Item = LoadInfo;
    type IntoIter = LoadIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl From<Vec<LoadInfo>> for LoadList {
    fn from(v: Vec<LoadInfo>) -> Self {
        let mut l = LoadList::default();
        for x in &v {
            l.push(x);
        }
        l
    }
}

impl PartialEq for LoadList {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}
impl Eq for LoadList {}

impl std::fmt::Debug for LoadList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for LoadList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Cached(&Uncached(self)).serialize(s)
    }
}

impl Serialize for Uncached<'_, LoadList> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let list = self.0;
        if !s.is_human_readable() {
            return identity(s, b'L', &list.records, &Records::default());
        }
        use serde::ser::Error;
        let mut seq = s.serialize_seq(Some(list.len()))?;
        let mut reader = list.records.reader();
        while let Some(b) = reader.next_record(load_size).map_err(S::Error::custom)? {
            seq.serialize_element(&load_of(b).map_err(S::Error::custom)?)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for LoadList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<LoadInfo>::deserialize(d).map(Self::from)
    }
}

// ------------------------------------------------------------------ lists

/// `per_trajectory` of a [`super::ConstraintVerdict`]: one row per valid trajectory.
#[derive(Clone, Default)]
pub struct PerTrajectoryList {
    paths: StrList,
    rows: Records,
    /// Did the rule fire in any trajectory?
    fired: bool,
}

/// A row of a [`PerTrajectoryList`] without its trajectory's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub label: Label,
    pub reason: Reason,
    pub events: usize,
    pub fired: bool,
}

/// `evidence` of a [`super::ConstraintVerdict`]: the cited locations, in order.
#[derive(Clone, Default)]
pub struct EvidenceList {
    paths: StrList,
    cites: Records,
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

/// The rows of a [`PerTrajectoryList`], in order.
pub struct PerTrajectoryIter<'a> {
    paths: StrCursor<'a>,
    reader: Reader<'a>,
    left: usize,
}

impl Iterator for PerTrajectoryIter<'_> {
    type Item = PerTrajectory;
    fn next(&mut self) -> Option<PerTrajectory> {
        let b = read_back(self.reader.next_record(|_| ROW))?;
        let r = read_back(row_of(b));
        self.left -= 1;
        Some(PerTrajectory {
            trajectory: read_back(self.paths.get(r.traj)).to_string(),
            label: r.label,
            reason: r.reason,
            events: r.events,
            fired: r.fired,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for PerTrajectoryIter<'_> {}

/// The cited locations of an [`EvidenceList`] whose label is kept, in order.
pub struct EvidenceIter<'a, F> {
    paths: StrCursor<'a>,
    reader: Reader<'a>,
    keep: F,
}

impl<F: Fn(Label) -> bool> Iterator for EvidenceIter<'_, F> {
    type Item = Evidence;
    fn next(&mut self) -> Option<Evidence> {
        loop {
            let b = read_back(self.reader.next_record(cite_size))?;
            let (t, c) = read_back(cite_of(b));
            if !(self.keep)(c.label) {
                continue;
            }
            return Some(Evidence {
                trajectory: read_back(self.paths.get(t)).to_string(),
                event: c.event,
                line: c.line,
                label: c.label,
                why: c.why,
                file: c.file.map(|f| f.display().to_string()),
                pointer: c.pointer.map(str::to_string),
                subagent: c.subagent.map(str::to_string),
            });
        }
    }
}

impl PerTrajectoryList {
    pub fn len(&self) -> usize {
        self.rows.len()
    }
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
    pub fn get(&self, i: usize) -> Option<PerTrajectory> {
        self.iter().nth(i)
    }
    /// Every row, in order, as owned values.
    pub fn iter(&self) -> PerTrajectoryIter<'_> {
        PerTrajectoryIter {
            paths: self.paths.cursor(),
            reader: self.rows.reader(),
            left: self.rows.len(),
        }
    }
    /// Every row's label, reason, citable events and whether the rule
    /// fired, in order, without its trajectory's path (not read).
    pub fn rows(&self) -> impl Iterator<Item = Row> + '_ {
        let mut reader = self.rows.reader();
        std::iter::from_fn(move || {
            let b = read_back(reader.next_record(|_| ROW))?;
            let r = read_back(row_of(b));
            Some(Row {
                label: r.label,
                reason: r.reason,
                events: r.events,
                fired: r.fired,
            })
        })
    }
    /// Did the rule fire in any trajectory?
    pub fn any_fired(&self) -> bool {
        self.fired
    }
    fn push_row(&mut self, r: &PerRow) {
        self.fired |= r.fired;
        self.rows.push_with(|out| put_row(out, r));
    }
    pub fn push(&mut self, p: PerTrajectory) {
        let traj = self.paths.intern(&p.trajectory);
        self.push_row(&PerRow {
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
        self.cites.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cites.is_empty()
    }
    pub fn get(&self, i: usize) -> Option<Evidence> {
        self.iter().nth(i)
    }
    /// Every location, in order, as owned values.
    pub fn iter(&self) -> EvidenceIter<'_, fn(Label) -> bool> {
        self.iter_labelled(|_| true)
    }
    /// The locations whose label `keep` accepts, in order, as owned values
    /// (the others are never built: filtering [`EvidenceList::iter`] built
    /// every location's strings to look at its label).
    pub fn iter_labelled<F: Fn(Label) -> bool>(&self, keep: F) -> EvidenceIter<'_, F> {
        EvidenceIter {
            paths: self.paths.cursor(),
            reader: self.cites.reader(),
            keep,
        }
    }
    pub fn push(&mut self, e: Evidence) {
        let traj = self.paths.intern(&e.trajectory);
        let c = CiteRef {
            event: e.event,
            line: e.line,
            file: e.file.as_deref().map(Path::new),
            pointer: e.pointer.as_deref(),
            subagent: e.subagent.as_deref(),
            why: e.why,
            label: e.label,
        };
        self.cites.push_with(|out| put_cite(out, traj, &c, e.label));
    }
}

impl<'a> IntoIterator for &'a PerTrajectoryList {
    type Item = PerTrajectory;
    type IntoIter = PerTrajectoryIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a EvidenceList {
    type Item = Evidence;
    type IntoIter = EvidenceIter<'a, fn(Label) -> bool>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
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
        Cached(&Uncached(self)).serialize(s)
    }
}

impl Serialize for Uncached<'_, PerTrajectoryList> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let list = self.0;
        use serde::ser::Error;
        if !s.is_human_readable() {
            return identity(s, b'P', &list.rows, &list.paths.records);
        }
        let mut seq = s.serialize_seq(Some(list.len()))?;
        let mut reader = list.rows.reader();
        let mut paths = list.paths.cursor();
        while let Some(b) = reader.next_record(|_| ROW).map_err(S::Error::custom)? {
            let r = row_of(b).map_err(S::Error::custom)?;
            seq.serialize_element(&PerTrajectoryRef {
                trajectory: paths.get(r.traj).map_err(S::Error::custom)?,
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
        Cached(&Uncached(self)).serialize(s)
    }
}

impl Serialize for Uncached<'_, EvidenceList> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let list = self.0;
        use serde::ser::Error;
        if !s.is_human_readable() {
            return identity(s, b'E', &list.cites, &list.paths.records);
        }
        let mut seq = s.serialize_seq(Some(list.len()))?;
        let mut reader = list.cites.reader();
        let mut paths = list.paths.cursor();
        while let Some(b) = reader.next_record(cite_size).map_err(S::Error::custom)? {
            let (t, c) = cite_of(b).map_err(S::Error::custom)?;
            seq.serialize_element(&EvidenceRef {
                trajectory: paths.get(t).map_err(S::Error::custom)?,
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

#[derive(Clone)]
struct Col {
    label: Label,
    rows: PerTrajectoryList,
    cites: Records,
}

/// Builds the columns of every constraint of a skill, one valid trajectory
/// at a time, in order (the trajectories' own storage can be dropped as
/// soon as they are pushed). Paths are stored once for all columns; the
/// rows and cited locations go to `spill` when one is given, so memory
/// stays flat however many trajectories come. A clone shares what was
/// written so far and goes its own way from its next push.
#[derive(Clone)]
pub struct ColumnsBuilder {
    paths: StrList,
    loads: LoadList,
    cols: Vec<Col>,
}

impl ColumnsBuilder {
    /// `start`: per constraint, the label before any trajectory
    /// (`unverifiable` for a rule without predicate, else `untested`).
    pub fn new(start: impl IntoIterator<Item = Label>, spill: Option<Arc<SpillFile>>) -> Self {
        ColumnsBuilder {
            paths: StrList::new(spill.clone()),
            loads: LoadList::new(spill.clone()),
            cols: start
                .into_iter()
                .map(|label| Col {
                    label,
                    rows: PerTrajectoryList {
                        rows: Records::new(spill.clone()),
                        ..PerTrajectoryList::default()
                    },
                    cites: Records::new(spill.clone()),
                })
                .collect(),
        }
    }

    fn add_row(col: &mut Col, traj: u32, label: Label, reason: Reason, events: usize, fired: bool) {
        if col.label != Label::Unverifiable {
            col.label = col.label.worst(label);
        }
        col.rows.push_row(&PerRow {
            events,
            traj,
            label,
            reason,
            fired,
        });
    }

    /// The next valid trajectory: its path, where the skill was loaded, and
    /// its labels (one per constraint, in order).
    pub fn push(&mut self, path: &str, load: &LoadInfo, labels: &Labels) {
        let traj = self.paths.push(path);
        self.loads.push(load);
        for (col, l) in self.cols.iter_mut().zip(labels.iter()) {
            Self::add_row(col, traj, l.label, l.reason, l.cited_total, l.fired);
            for c in l.cited() {
                col.cites.push_with(|out| put_cite(out, traj, &c, l.label));
            }
        }
    }

    /// The next valid trajectory's labels, uncompacted.
    pub fn push_labels(&mut self, path: &str, labels: &[TrajectoryLabel]) {
        let traj = self.paths.push(path);
        for (col, l) in self.cols.iter_mut().zip(labels) {
            Self::add_row(col, traj, l.label, l.reason, l.cited_total, l.fired);
            for c in &l.cited {
                let c = CiteRef {
                    event: c.event,
                    line: c.line,
                    file: c.file.as_deref(),
                    pointer: c.pointer.as_deref(),
                    subagent: c.subagent.as_deref(),
                    why: c.why,
                    label: l.label,
                };
                col.cites.push_with(|out| put_cite(out, traj, &c, l.label));
            }
        }
    }

    /// The valid trajectories' paths and loads, and every constraint's column.
    pub fn finish(self) -> (StrList, LoadList, Vec<ConstraintColumn>) {
        let paths = self.paths;
        let columns = self
            .cols
            .into_iter()
            .map(|c| ConstraintColumn {
                label: c.label,
                per_trajectory: PerTrajectoryList {
                    paths: paths.clone(),
                    ..c.rows
                },
                evidence: EvidenceList {
                    paths: paths.clone(),
                    cites: c.cites,
                },
            })
            .collect();
        (paths, self.loads, columns)
    }
}

/// The columns of [`crate::label::label_all`]'s result, whose trajectories
/// are `valid` (in order).
pub fn columns(
    valid: &[Arc<str>],
    labels: Vec<crate::label::ConstraintLabels>,
) -> Vec<ConstraintColumn> {
    let mut b = ColumnsBuilder::new(labels.iter().map(|c| c.label), None);
    for (t, path) in valid.iter().enumerate() {
        let row: Vec<TrajectoryLabel> = labels
            .iter()
            .filter_map(|c| c.per_trajectory.get(t).cloned())
            .collect();
        b.push_labels(path, &row);
    }
    b.finish().2
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

    #[test]
    fn every_code_reads_back_as_its_value() {
        // A new variant must be added to `ALL` (this match stops compiling).
        let position = |l: Label| match l {
            Label::Untested => 0,
            Label::Exercised => 1,
            Label::Ambiguous => 2,
            Label::Violated => 3,
            Label::Unverifiable => 4,
        };
        for (i, l) in Label::ALL.into_iter().enumerate() {
            assert_eq!((position(l), l as usize), (i, i));
        }
        let reason = |r: Reason| match r {
            Reason::NotFired
            | Reason::Complied
            | Reason::Satisfied
            | Reason::ForbiddenAction
            | Reason::RequirementUnmet
            | Reason::OpenAtEnd
            | Reason::UndecodableRecords
            | Reason::BranchUnknown
            | Reason::Undecidable
            | Reason::NoPredicate
            | Reason::ScopeAction
            | Reason::ConsentTaken
            | Reason::NoConsent => r as usize,
        };
        for (i, r) in Reason::ALL.into_iter().enumerate() {
            assert_eq!(reason(r), i);
        }
        let cite = |c: Cite| match c {
            Cite::SkillLoad
            | Cite::WhenMatched
            | Cite::ForbidMatched
            | Cite::ForbidMaybe
            | Cite::RequireMatched
            | Cite::RequireMaybe
            | Cite::RequirementUnmet
            | Cite::RequirementOpen
            | Cite::UndecodableRecord
            | Cite::KindMatched
            | Cite::ScopeAction
            | Cite::ConsentTurn => c as usize,
        };
        for (i, c) in Cite::ALL.into_iter().enumerate() {
            assert_eq!(cite(c), i);
        }
        let distinct: std::collections::HashSet<&str> =
            Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(distinct.len(), Reason::ALL.len());
        let distinct: std::collections::HashSet<&str> =
            Cite::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(distinct.len(), Cite::ALL.len());
    }

    fn load(path: &str, i: usize) -> LoadInfo {
        LoadInfo {
            path: path.into(),
            format: "claude-code-jsonl".into(),
            event: (i % 3 != 0).then_some(i * 1_000_000_007),
            line: (i % 2 == 0).then_some(u64::MAX - i as u64),
            via: if i % 2 == 0 { "skill-tool" } else { "retro" }.into(),
            weak: i % 4 == 1,
            complete: i % 5 != 2,
            undecodable: i * 7,
            stale: i % 3 == 2,
        }
    }

    /// A builder's lists written out record by record read back as the same
    /// lists kept in memory: paths, loads, rows and every kind of location.
    #[test]
    fn spilled_columns_equal_columns_in_memory() {
        let file = super::super::spill::SpillFile::with_chunk(1).expect("a temporary file");
        let cite = |i: usize| crate::label::Cited {
            event: match i % 4 {
                0 => None,
                1 => Some(usize::MAX - i),
                _ => Some(i),
            },
            file: (i % 3 == 0).then(|| format!("t/subagents/agent-{i}.jsonl").into()),
            line: match i % 5 {
                0 => None,
                1 => Some(u64::from(u32::MAX)),
                _ => Some(i as u64),
            },
            pointer: (i % 2 == 0).then(|| format!("/messages/{i}")),
            subagent: (i % 7 == 0).then(|| format!("agent-é{i}")),
            why: Cite::ALL[i % Cite::ALL.len()],
        };
        let build = |spill: Option<Arc<SpillFile>>| {
            let mut b = ColumnsBuilder::new([Label::Untested, Label::Unverifiable], spill);
            for t in 0..300usize {
                let labels: Vec<TrajectoryLabel> = (0..2)
                    .map(|k| TrajectoryLabel {
                        label: Label::ALL[(t + k) % Label::ALL.len()],
                        reason: Reason::ALL[(t * 3 + k) % Reason::ALL.len()],
                        cited: (0..(t + k) % 11).map(|j| cite(t * 11 + j)).collect(),
                        cited_total: if t == 7 { usize::MAX } else { t + k },
                        fired: (t + k) % 3 == 0,
                    })
                    .collect();
                let path = format!("sessions/s-{t}.jsonl");
                b.push(&path, &load(&path, t), &Labels::from(labels.as_slice()));
            }
            b.finish()
        };
        let (mp, ml, mc) = build(None);
        let (sp, sl, sc) = build(Some(file));
        assert_eq!(sp.len(), 300);
        assert_eq!(sl.len(), 300);
        assert_eq!((&sp, &sl, &sc), (&mp, &ml, &mc));
        assert_eq!(
            serde_json::to_string(&sp).unwrap(),
            serde_json::to_string(&mp).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&sl).unwrap(),
            serde_json::to_string(&ml).unwrap()
        );
        for (s, m) in sc.iter().zip(&mc) {
            assert_eq!(s.label, m.label);
            assert_eq!(
                serde_json::to_string(&s.per_trajectory).unwrap(),
                serde_json::to_string(&m.per_trajectory).unwrap()
            );
            assert_eq!(
                serde_json::to_string(&s.evidence).unwrap(),
                serde_json::to_string(&m.evidence).unwrap()
            );
            assert_eq!(
                s.per_trajectory.any_fired(),
                m.per_trajectory.iter().any(|p| p.fired)
            );
            assert_eq!(s.evidence.get(5), m.evidence.iter().nth(5));
            assert_eq!(
                s.evidence.iter_labelled(|l| l == Label::Violated).count(),
                m.evidence
                    .iter()
                    .filter(|e| e.label == Label::Violated)
                    .count()
            );
        }
        // Loads and paths serialize as the `Vec`s they replace, and back.
        let loads: Vec<LoadInfo> = (0..300)
            .map(|t| load(&format!("sessions/s-{t}.jsonl"), t))
            .collect();
        assert_eq!(
            serde_json::to_string(&sl).unwrap(),
            serde_json::to_string(&loads).unwrap()
        );
        let back: LoadList = serde_json::from_str(&serde_json::to_string(&loads).unwrap()).unwrap();
        assert_eq!(back, sl);
        let paths: Vec<String> = sp.iter().collect();
        assert_eq!(paths[299], "sessions/s-299.jsonl");
        let back: StrList = serde_json::from_str(&serde_json::to_string(&paths).unwrap()).unwrap();
        assert_eq!(back, sp);
    }
}
