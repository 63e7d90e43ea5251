//! Lists of byte records that live in an anonymous temporary file rather
//! than in memory: what the report prints once per trajectory (the rows and
//! cited locations of [`super::lists`]) grows with the corpus, so the gate
//! writes it out as each trajectory is judged and reads it back, in the
//! same order, when a renderer walks it. Memory holds one chunk per list
//! being filled and a few bytes per chunk written.
//!
//! A list without a [`SpillFile`] (a verdict read back from JSON, built in a
//! test, or when no temporary file can be created) keeps its records in
//! memory: it reads and compares the same.

use std::fs::File;
use std::io;
#[cfg(not(unix))]
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Bytes a list gathers before it writes them out (records are never split:
/// a chunk ends at the first record boundary past this size).
const CHUNK: usize = 4096;

/// The temporary file every spilled list of a run appends to. It has no
/// name: the operating system removes it when the run ends, however it ends.
#[derive(Debug)]
pub struct SpillFile {
    inner: Mutex<Inner>,
    /// Bytes a list gathers before it writes them out.
    chunk: usize,
}

#[derive(Debug)]
struct Inner {
    file: File,
    /// Where the next chunk goes.
    end: u64,
}

impl SpillFile {
    /// A new anonymous temporary file; `None` when none can be created (the
    /// lists then stay in memory).
    pub fn create() -> Option<Arc<SpillFile>> {
        Self::with_chunk(CHUNK)
    }

    /// [`SpillFile::create`] with lists written out every `chunk` bytes
    /// (tests: 1 writes every record out on its own).
    pub fn with_chunk(chunk: usize) -> Option<Arc<SpillFile>> {
        tempfile::tempfile().ok().map(|file| {
            Arc::new(SpillFile {
                inner: Mutex::new(Inner { file, end: 0 }),
                chunk: chunk.max(1),
            })
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Append `bytes`; returns where they start.
    fn append(&self, bytes: &[u8]) -> io::Result<u64> {
        let mut g = self.lock();
        let at = g.end;
        write_at(&g.file, bytes, at)?;
        g.end = at + bytes.len() as u64;
        Ok(at)
    }

    /// Read `buf.len()` bytes starting at `at`.
    fn read(&self, at: u64, buf: &mut [u8]) -> io::Result<()> {
        let g = self.lock();
        read_at(&g.file, buf, at)
    }
}

// One positioned call per chunk where the system has one (no seek).
#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}
#[cfg(not(unix))]
fn write_at(mut file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    file.seek(SeekFrom::Start(at))?;
    file.write_all(bytes)
}
#[cfg(not(unix))]
fn read_at(mut file: &File, buf: &mut [u8], at: u64) -> io::Result<()> {
    file.seek(SeekFrom::Start(at))?;
    file.read_exact(buf)
}

/// A written chunk: in the file, or kept in memory when writing it failed.
#[derive(Debug, Clone)]
enum Chunk {
    File { at: u64, len: u32 },
    Memory(Box<[u8]>),
}

/// Records in the order pushed. Each record is self-delimiting: the reader
/// is told its length from its first bytes.
#[derive(Debug, Clone, Default)]
pub struct Records {
    spill: Option<Arc<SpillFile>>,
    chunks: Vec<Chunk>,
    /// The chunk being filled (the whole list when there is no file).
    tail: Vec<u8>,
    len: usize,
    /// Which records these are ([`Records::version`]).
    version: u64,
}

/// The last version handed out (0 is every empty list's).
static VERSIONS: AtomicU64 = AtomicU64::new(0);

impl Records {
    /// An empty list, written to `spill` when given.
    pub fn new(spill: Option<Arc<SpillFile>>) -> Records {
        Records {
            spill,
            ..Records::default()
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The file this list is written to, if any.
    pub fn spill(&self) -> Option<Arc<SpillFile>> {
        self.spill.clone()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Two lists of the same version hold the same records: every push
    /// takes a version no list had before, and a clone keeps its original's
    /// until either is pushed to. Empty lists are version 0. (Lists with
    /// the same records may have different versions.)
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Append one record, written by `write` at the end of a buffer.
    pub fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        if let Some(spill) = &self.spill {
            if self.tail.len() >= spill.chunk {
                let chunk = match spill.append(&self.tail) {
                    Ok(at) => Chunk::File {
                        at,
                        len: self.tail.len() as u32,
                    },
                    // A full disk costs memory, never a result.
                    Err(_) => Chunk::Memory(self.tail.as_slice().into()),
                };
                self.chunks.push(chunk);
                self.tail.clear();
            }
            if self.tail.capacity() == 0 {
                self.tail.reserve_exact(spill.chunk.min(CHUNK) + 64);
            }
        }
        write(&mut self.tail);
        self.len += 1;
        self.version = VERSIONS.fetch_add(1, Ordering::Relaxed) + 1;
    }

    /// Read the records back, in order.
    pub fn reader(&self) -> Reader<'_> {
        Reader {
            records: self,
            next_chunk: 0,
            buf: Vec::new(),
            slice: None,
            pos: 0,
            tail_done: false,
        }
    }
}

/// Walks a [`Records`] list, one record at a time.
pub struct Reader<'a> {
    records: &'a Records,
    next_chunk: usize,
    /// The last chunk read from the file.
    buf: Vec<u8>,
    /// The current chunk when it is in memory (else `buf`).
    slice: Option<&'a [u8]>,
    pos: usize,
    tail_done: bool,
}

impl<'a> Reader<'a> {
    fn current(&self) -> &[u8] {
        self.slice.unwrap_or(&self.buf)
    }

    /// The next record, whose length `size` reads from its first bytes;
    /// `None` after the last one. An error only if the temporary file
    /// cannot be read back.
    pub fn next_record(&mut self, size: impl Fn(&[u8]) -> usize) -> io::Result<Option<&[u8]>> {
        let records: &'a Records = self.records;
        while self.pos >= self.current().len() {
            if let Some(c) = records.chunks.get(self.next_chunk) {
                self.next_chunk += 1;
                match c {
                    Chunk::Memory(b) => self.slice = Some(b),
                    Chunk::File { at, len } => {
                        self.slice = None;
                        self.buf.resize(*len as usize, 0);
                        let spill = records.spill.as_ref().ok_or_else(|| {
                            io::Error::new(io::ErrorKind::NotFound, "a chunk without its file")
                        })?;
                        spill.read(*at, &mut self.buf)?;
                    }
                }
            } else if !self.tail_done {
                self.tail_done = true;
                self.slice = Some(&records.tail);
            } else {
                // Past the end it stays there (an iterator asked again gets `None`).
                return Ok(None);
            }
            self.pos = 0;
        }
        let pos = self.pos;
        let n = size(&self.current()[pos..]);
        let end = pos + n;
        if n == 0 || end > self.current().len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a record runs past its chunk in the gate's temporary file",
            ));
        }
        self.pos = end;
        Ok(Some(&self.current()[pos..end]))
    }
}

/// Append a `u32` (little-endian).
pub fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Append a `u64` (little-endian).
pub fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The `u32` at `at` (0 past the end: records are checked for length first).
pub fn get_u32(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// The `u64` at `at` (0 past the end).
pub fn get_u64(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(spill: Option<Arc<SpillFile>>) -> Records {
        let mut r = Records::new(spill);
        for i in 0..5000u32 {
            // Records of 5 to 5 + 299 bytes: a length byte pair and a body.
            let n = (i % 300) as usize;
            r.push_with(|out| {
                out.extend_from_slice(&(n as u16).to_le_bytes());
                out.extend(std::iter::repeat_n(i as u8, n + 3));
            });
        }
        r
    }

    fn read_all(r: &Records) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut rd = r.reader();
        while let Some(b) = rd
            .next_record(|b| 2 + 3 + u16::from_le_bytes([b[0], b[1]]) as usize)
            .unwrap()
        {
            out.push(b.to_vec());
        }
        out
    }

    #[test]
    fn spilled_records_read_back_as_kept_in_memory() {
        let file = SpillFile::create().expect("a temporary file");
        let mem = fill(None);
        let spilled = fill(Some(file.clone()));
        // Another list writing to the same file in between does not mix in.
        let other = fill(Some(file));
        assert!(spilled.chunks.len() > 100, "written out in chunks");
        assert!(matches!(spilled.chunks[0], Chunk::File { .. }));
        assert!(mem.chunks.is_empty(), "no file: one buffer");
        assert!(spilled.tail.len() < CHUNK + 400, "one chunk in memory");
        assert_eq!(mem.len(), 5000);
        assert_eq!(spilled.len(), 5000);
        let want = read_all(&mem);
        assert_eq!(want.len(), 5000);
        assert_eq!(read_all(&spilled), want);
        assert_eq!(read_all(&other), want);
        assert_eq!(read_all(&spilled.clone()), want);
        assert!(read_all(&Records::default()).is_empty());
        // Asked again after the end, a reader stays at the end.
        for r in [&mem, &spilled] {
            let mut rd = r.reader();
            let size = |b: &[u8]| 2 + 3 + u16::from_le_bytes([b[0], b[1]]) as usize;
            while rd.next_record(size).unwrap().is_some() {}
            assert!(rd.next_record(size).unwrap().is_none());
            assert!(rd.next_record(size).unwrap().is_none());
        }
    }

    #[test]
    fn a_version_names_the_records_a_list_holds() {
        let file = SpillFile::with_chunk(8).expect("a temporary file");
        for spill in [None, Some(file)] {
            let mut a = Records::new(spill);
            assert_eq!(a.version(), 0, "empty");
            // a record of 5 bytes, as `read_all` reads them
            let push =
                |r: &mut Records, b: u8| r.push_with(|out| out.extend_from_slice(&[0, 0, b, b, b]));
            push(&mut a, 1);
            let v1 = a.version();
            let mut b = a.clone();
            assert_eq!(b.version(), v1, "a clone holds the same records");
            push(&mut a, 2);
            push(&mut b, 2);
            // The same records pushed to two lists: two versions, never one
            // version for two contents.
            assert!(a.version() != b.version() && a.version() != v1 && b.version() != v1);
            let c = b.clone();
            push(&mut b, 3);
            assert_ne!(b.version(), c.version());
            assert_eq!(read_all(&c).len(), 2);
        }
    }

    #[test]
    fn a_record_past_its_chunk_is_an_error_not_a_panic() {
        let mut r = Records::new(None);
        r.push_with(|out| out.extend_from_slice(&[1, 2, 3]));
        let mut rd = r.reader();
        assert!(rd.next_record(|_| 4).is_err());
        let mut rd = r.reader();
        assert!(rd.next_record(|_| 0).is_err());
    }
}
