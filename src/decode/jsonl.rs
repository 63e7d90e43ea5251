//! Streaming JSON Lines reading shared by the JSONL decoders.
//!
//! One line at a time through a reused buffer: memory stays at the size of the
//! longest line, never the file. Each line is classified the same way for every
//! format, so decoders only see records:
//!
//! - blank lines are skipped;
//! - a line that is not UTF-8 → [`ProblemKind::InvalidUtf8`] (counted);
//! - a line that is not JSON, or not the record shape → [`ProblemKind::Undecodable`];
//! - the *last* line, without its newline, that does not parse (a torn write)
//!   → [`ProblemKind::TruncatedLastLine`] and [`Trajectory::truncated`].
//!
//! Usage (a decoder with its own lenient record type `Rec`):
//!
//! ```ignore
//! let mut lines = JsonlLines::open(path)?;
//! while let Some(line) = lines.next_line()? {
//!     match line.parse::<Rec>(&mut traj) {
//!         Some(rec) => handle(line.number, rec),
//!         None => continue, // problem already recorded
//!     }
//! }
//! ```

use super::model::{DecodeProblem, Location, ProblemKind, Trajectory};
use super::DecodeError;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Size of each read: large enough that most lines are found whole in the
/// buffer and split in place (no per-line copy); a longer line grows it.
const READ_BUF: usize = 256 * 1024;

/// The longest line kept in memory (real records with inline images reach
/// tens of MiB). A longer line is read past without being stored and counted
/// as an undecodable record (it could hide an action): memory stays bounded
/// whatever the file holds.
pub const MAX_LINE_BYTES: usize = 256 << 20;

/// A JSONL file read line by line: big reads into one reused buffer, lines
/// found with `memchr` and handed out as slices of it. Memory is the read
/// size or the longest line, whichever is larger — never the file.
pub struct JsonlLines<R> {
    reader: R,
    path: PathBuf,
    buf: Vec<u8>,
    /// Start of the bytes not handed out yet.
    pos: usize,
    /// End of the bytes read into `buf`.
    filled: usize,
    eof: bool,
    line_no: u64,
    max_line: usize,
}

/// One non-blank line.
pub struct Line<'a> {
    /// 1-based line number.
    pub number: u64,
    /// The line without its newline (and without a trailing `\r`).
    pub bytes: &'a [u8],
    /// The file ended without a newline after this line.
    pub unterminated: bool,
    /// The line was longer than the limit: `bytes` is empty, the line unread.
    pub oversized: bool,
    path: &'a Path,
}

impl JsonlLines<super::Transcript> {
    /// Open a file for line-by-line reading.
    pub fn open(path: &Path) -> Result<Self, DecodeError> {
        let file = super::open_transcript(path)?;
        Ok(JsonlLines::new(file, path))
    }
}

thread_local! {
    /// The read buffer of the last file read on this thread, kept for the
    /// next (a new buffer is zeroed before the first read: 256 KiB a file).
    static SPARE_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A buffer grown for a long line is not kept (it would hold its memory
/// while the thread reads small files).
const SPARE_MAX: usize = READ_BUF;

impl<R> Drop for JsonlLines<R> {
    fn drop(&mut self) {
        if self.buf.len() <= SPARE_MAX {
            let buf = std::mem::take(&mut self.buf);
            let _ = SPARE_BUF.try_with(|b| *b.borrow_mut() = buf);
        }
    }
}

impl<R: Read> JsonlLines<R> {
    pub fn new(reader: R, path: &Path) -> Self {
        JsonlLines {
            reader,
            path: path.to_path_buf(),
            buf: SPARE_BUF
                .try_with(|b| std::mem::take(&mut *b.borrow_mut()))
                .unwrap_or_default(),
            pos: 0,
            filled: 0,
            eof: false,
            line_no: 0,
            max_line: MAX_LINE_BYTES,
        }
    }

    /// Another line-length limit than [`MAX_LINE_BYTES`] (tests).
    pub fn with_max_line(mut self, max: usize) -> Self {
        self.max_line = max;
        self
    }

    /// The next raw line as `(start, end, unterminated, oversized)` in `buf`
    /// (`end` excludes the newline), `None` at the end of the file. A line
    /// whose bytes, newline included, exceed `max_line + 1` is read past
    /// without being stored: `oversized`, and an empty range.
    fn raw_line(&mut self) -> std::io::Result<Option<(usize, usize, bool, bool)>> {
        let mut searched = self.pos;
        let mut over = false;
        let limit = self.max_line.saturating_add(1);
        loop {
            if let Some(k) = memchr::memchr(b'\n', &self.buf[searched..self.filled]) {
                let (start, end) = (self.pos, searched + k);
                self.pos = end + 1;
                if over || end + 1 - start > limit {
                    return Ok(Some((start, start, false, true)));
                }
                return Ok(Some((start, end, false, false)));
            }
            if self.eof {
                if self.pos == self.filled && !over {
                    return Ok(None);
                }
                let start = self.pos;
                self.pos = self.filled;
                if over || self.filled - start > limit {
                    return Ok(Some((start, start, true, true)));
                }
                return Ok(Some((start, self.filled, true, false)));
            }
            if self.filled - self.pos > limit {
                over = true;
            }
            if over {
                // Read past the rest of an oversized line without keeping it.
                self.pos = 0;
                self.filled = 0;
            } else if self.pos > 0 {
                // Keep the partial line, make room.
                self.buf.copy_within(self.pos..self.filled, 0);
                self.filled -= self.pos;
                self.pos = 0;
            }
            searched = self.filled;
            if self.buf.len() - self.filled < READ_BUF / 2 {
                let want = (self.filled + READ_BUF).max(self.buf.len() * 2);
                self.buf.resize(want, 0);
            }
            let n = loop {
                match self.reader.read(&mut self.buf[self.filled..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            if n == 0 {
                self.eof = true;
            }
            self.filled += n;
        }
    }

    /// The next non-blank line, `None` at the end of the file. An I/O error is a
    /// [`DecodeError`] naming the line.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, DecodeError> {
        let (start, end, unterminated) = loop {
            let Some((mut start, mut end, unterminated, oversized)) =
                self.raw_line().map_err(|e| {
                    DecodeError::new(
                        &self.path,
                        Some(self.line_no + 1),
                        format!("cannot read: {e}"),
                    )
                })?
            else {
                return Ok(None);
            };
            self.line_no += 1;
            if oversized {
                return Ok(Some(Line {
                    number: self.line_no,
                    bytes: &[],
                    unterminated,
                    oversized: true,
                    path: &self.path,
                }));
            }
            if end > start && self.buf[end - 1] == b'\r' {
                end -= 1;
            }
            if self.line_no == 1 && self.buf[start..end].starts_with(b"\xEF\xBB\xBF") {
                start += 3;
            }
            if !self.buf[start..end].iter().all(|b| b.is_ascii_whitespace()) {
                break (start, end, unterminated);
            }
        };
        Ok(Some(Line {
            number: self.line_no,
            bytes: &self.buf[start..end],
            unterminated,
            oversized: false,
            path: &self.path,
        }))
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> u64 {
        self.line_no
    }
}

impl<'a> Line<'a> {
    /// The line as text, or `None` after recording an [`ProblemKind::InvalidUtf8`] problem.
    pub fn text(&self, traj: &mut Trajectory) -> Option<&'a str> {
        if self.oversized {
            traj.problems.push(DecodeProblem {
                location: self.location(),
                kind: ProblemKind::Undecodable,
                detail: format!("line longer than {MAX_LINE_BYTES} bytes: not decoded"),
            });
            return None;
        }
        // simdutf8 validates ASCII-heavy lines several times faster; std
        // says where an invalid line goes wrong (the same message as before)
        if let Ok(s) = simdutf8::basic::from_utf8(self.bytes) {
            return Some(s);
        }
        match std::str::from_utf8(self.bytes) {
            Ok(s) => Some(s),
            Err(e) => {
                traj.problems.push(DecodeProblem {
                    location: self.location(),
                    kind: ProblemKind::InvalidUtf8,
                    detail: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
                });
                if self.unterminated {
                    traj.truncated = true;
                }
                None
            }
        }
    }

    /// Decode the line as `T`. On failure the problem is recorded in `traj`
    /// (undecodable, or a torn last line) and `None` is returned.
    pub fn parse<T: DeserializeOwned>(&self, traj: &mut Trajectory) -> Option<T> {
        let text = self.text(traj)?;
        self.parse_str(text, traj)
    }

    /// Like [`Line::parse`] with the caller's parser (a fast path that ends
    /// in serde_json: its error is recorded the same way).
    pub fn parse_with<T>(
        &self,
        traj: &mut Trajectory,
        parse: impl FnOnce(&'a str) -> serde_json::Result<T>,
    ) -> Option<T> {
        let text = self.text(traj)?;
        let r = parse(text);
        self.classify(r, traj)
    }

    /// Like [`Line::parse`] for a record type that borrows from the line.
    pub fn parse_borrowed<T: Deserialize<'a>>(&self, traj: &mut Trajectory) -> Option<T> {
        let text = self.text(traj)?;
        let r = serde_json::from_str::<T>(text);
        self.classify(r, traj)
    }

    fn parse_str<T: DeserializeOwned>(&self, text: &str, traj: &mut Trajectory) -> Option<T> {
        let r = serde_json::from_str::<T>(text);
        self.classify(r, traj)
    }

    fn classify<T>(&self, r: serde_json::Result<T>, traj: &mut Trajectory) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                traj.problems.push(self.problem_for(&e));
                if self.unterminated && e.classify() != serde_json::error::Category::Data {
                    traj.truncated = true;
                }
                None
            }
        }
    }

    /// The problem a parse error on this line stands for.
    pub fn problem_for(&self, e: &serde_json::Error) -> DecodeProblem {
        let torn = self.unterminated && e.classify() != serde_json::error::Category::Data;
        DecodeProblem {
            location: self.location(),
            kind: if torn {
                ProblemKind::TruncatedLastLine
            } else {
                ProblemKind::Undecodable
            },
            detail: if torn {
                "last line is torn (no newline, incomplete JSON)".to_string()
            } else {
                describe_json_error(e)
            },
        }
    }

    pub fn location(&self) -> Location {
        Location::line(self.number)
    }

    /// The file this line comes from.
    pub fn path(&self) -> &Path {
        self.path
    }
}

/// A JSON error described without any of the input's content (serde_json's
/// "invalid type" messages quote values): what kind of error, and where.
pub fn describe_json_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Syntax => "invalid JSON",
        Category::Eof => "incomplete JSON",
        Category::Data => "a value of an unexpected type",
        Category::Io => "a read error",
    };
    format!("not a decodable record: {what} at column {}", e.column())
}

/// Read the first non-blank line of a file as `T` (cheap peeks such as a
/// subagent file's `sessionId`). `None` when unreadable or not `T`.
pub fn first_record<T: DeserializeOwned>(path: &Path) -> Option<T> {
    let mut lines = JsonlLines::open(path).ok()?;
    let line = lines.next_line().ok()??;
    serde_json::from_slice(line.bytes).ok()
}

/// Whether `head` (the first bytes of a file) looks like JSON Lines: the first
/// line opens an object and goes on on the same line (a pretty-printed JSON
/// document has `{` alone on its first line).
pub fn looks_like_jsonl(head: &[u8]) -> bool {
    let line = first_line(head);
    line.first() == Some(&b'{') && line[1..].iter().any(|b| !b.is_ascii_whitespace())
}

/// The first `n` lines of `head`.
pub fn head_lines(head: &[u8], n: usize) -> Vec<&[u8]> {
    trim_start(head).split(|b| *b == b'\n').take(n).collect()
}

/// Whether any of the first `n` lines of `head` contains `token`.
pub fn lines_contain(head: &[u8], n: usize, token: &[u8]) -> bool {
    // A token without a newline is in one of the first `n` lines exactly when
    // it is in the bytes up to the end of the `n`th line.
    if token.contains(&b'\n') {
        return head_lines(head, n)
            .iter()
            .any(|l| memchr::memmem::find(l, token).is_some());
    }
    n > 0 && memchr::memmem::find(first_lines(head, n), token).is_some()
}

/// The first `n` lines of `head` (leading whitespace and BOM skipped) as one
/// slice, without the line break after the `n`th.
pub fn first_lines(head: &[u8], n: usize) -> &[u8] {
    let head = trim_start(head);
    let end = memchr::memchr_iter(b'\n', head)
        .nth(n.saturating_sub(1))
        .unwrap_or(head.len());
    &head[..end]
}

/// `head` without leading whitespace and UTF-8 BOM.
pub fn trim_start(head: &[u8]) -> &[u8] {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let k = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    &head[k..]
}

/// The first line of `head` (without newline).
pub fn first_line(head: &[u8]) -> &[u8] {
    let head = trim_start(head);
    match memchr::memchr(b'\n', head) {
        Some(k) => &head[..k],
        None => head,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::Harness;

    #[derive(Deserialize)]
    struct Rec {
        a: u32,
    }

    fn run(bytes: &[u8]) -> (Vec<(u64, u32)>, Trajectory) {
        let mut traj = Trajectory::new("t.jsonl".into(), Harness::ClaudeCode, "x");
        let mut lines = JsonlLines::new(bytes, Path::new("t.jsonl"));
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            let n = line.number;
            if let Some(r) = line.parse::<Rec>(&mut traj) {
                out.push((n, r.a));
            }
        }
        (out, traj)
    }

    #[test]
    fn reads_lines_and_classifies_problems() {
        let (out, traj) =
            run(b"{\"a\":1}\r\n\n  \n{oops\n{\"a\":\"x\"}\n\xff\xfe\n{\"a\":2}\n{\"a\":");
        assert_eq!(out, [(1, 1), (7, 2)]);
        let kinds: Vec<(u64, ProblemKind)> = traj
            .problems
            .iter()
            .map(|p| (p.location.line.unwrap(), p.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                (4, ProblemKind::Undecodable),
                (5, ProblemKind::Undecodable),
                (6, ProblemKind::InvalidUtf8),
                (8, ProblemKind::TruncatedLastLine)
            ]
        );
        assert!(traj.truncated);
        assert_eq!(traj.undecodable_count(), 3);
    }

    /// A reader that hands out at most `step` bytes per read.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }
    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// The lines as the previous `read_until` reader saw them.
    fn reference(data: &[u8]) -> Vec<(u64, Vec<u8>, bool)> {
        let mut out = Vec::new();
        let mut parts: Vec<&[u8]> = data.split(|b| *b == b'\n').collect();
        let last_unterminated = !data.ends_with(b"\n");
        if !last_unterminated {
            parts.pop();
        }
        let n = parts.len();
        for (i, p) in parts.into_iter().enumerate() {
            let unterminated = last_unterminated && i + 1 == n;
            let mut p = p.strip_suffix(b"\r").unwrap_or(p);
            if i == 0 {
                p = p.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(p);
            }
            if !p.iter().all(|b| b.is_ascii_whitespace()) {
                out.push((i as u64 + 1, p.to_vec(), unterminated));
            }
        }
        out
    }

    #[test]
    fn lines_across_reads_and_longer_than_the_buffer_are_whole() {
        let long = vec![b'x'; READ_BUF * 3 + 17];
        let mut data = b"\xEF\xBB\xBF{\"a\":1}\r\n\n".to_vec();
        data.extend_from_slice(&long);
        data.extend_from_slice(b"\n  \n{}\r\n");
        for i in 0..2000 {
            data.extend_from_slice(format!("{{\"k\":{i}}}\n").as_bytes());
        }
        data.extend_from_slice(&long);
        data.extend_from_slice(b"\n{\"torn\":");
        for step in [1, 7, 4096, READ_BUF - 1, READ_BUF * 4] {
            let mut lines = JsonlLines::new(Trickle { data: &data, step }, Path::new("t.jsonl"));
            let mut got = Vec::new();
            while let Some(l) = lines.next_line().unwrap() {
                got.push((l.number, l.bytes.to_vec(), l.unterminated));
            }
            assert_eq!(got, reference(&data), "reads of {step} bytes");
            assert_eq!(lines.lines_read(), 2007);
        }
        for tail in [&b""[..], b"\n", b"\n\n", b"x", b"\r"] {
            let mut d = b"{}\n".to_vec();
            d.extend_from_slice(tail);
            let mut lines = JsonlLines::new(&d[..], Path::new("t.jsonl"));
            let mut got = Vec::new();
            while let Some(l) = lines.next_line().unwrap() {
                got.push((l.number, l.bytes.to_vec(), l.unterminated));
            }
            assert_eq!(got, reference(&d));
        }
    }

    #[test]
    fn an_oversized_line_is_counted_not_kept() {
        let mut traj = Trajectory::new("t.jsonl".into(), Harness::ClaudeCode, "x");
        let text = format!(
            "{{\"a\":1}}\n{{\"a\":\"{}\"}}\n{{\"a\":2}}\n",
            "x".repeat(100)
        );
        let mut lines = JsonlLines::new(text.as_bytes(), Path::new("t.jsonl")).with_max_line(50);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            let n = line.number;
            if let Some(r) = line.parse::<Rec>(&mut traj) {
                out.push((n, r.a));
            }
        }
        assert_eq!(out, [(1, 1), (3, 2)]);
        assert_eq!(traj.undecodable_count(), 1);
        assert_eq!(traj.problems[0].location.line, Some(2));
        assert!(traj.problems[0].detail.contains("longer than"));
    }

    #[test]
    fn oversized_lines_across_reads_are_skipped_whole() {
        // lines of 9, 300 000 (over the limit, spanning reads) and 5 bytes,
        // then an oversized unterminated last line
        let mut data = b"{\"a\":1}xx\n".to_vec();
        data.extend(std::iter::repeat_n(b'y', 300_000));
        data.extend_from_slice(b"\n{\"a\":2}\n");
        data.extend(std::iter::repeat_n(b'z', 300_000));
        for step in [1000, READ_BUF, READ_BUF * 4] {
            let mut lines = JsonlLines::new(Trickle { data: &data, step }, Path::new("t.jsonl"))
                .with_max_line(200_000);
            let mut got = Vec::new();
            while let Some(l) = lines.next_line().unwrap() {
                got.push((l.number, l.bytes.len(), l.unterminated, l.oversized));
            }
            assert_eq!(
                got,
                [
                    (1, 9, false, false),
                    (2, 0, false, true),
                    (3, 7, false, false),
                    (4, 0, true, true)
                ],
                "reads of {step} bytes"
            );
        }
    }

    #[test]
    fn lines_contain_looks_in_the_first_lines_only() {
        let reference = |head: &[u8], n: usize, tok: &[u8]| {
            head_lines(head, n)
                .iter()
                .any(|l| memchr::memmem::find(l, tok).is_some())
        };
        let heads: [&[u8]; 5] = [
            b"",
            b"\n\n  {\"a\":1}\n{\"b\":2}\n{\"c\":3}",
            b"\xEF\xBB\xBF{\"a\":1}\r\n{\"b\":2}\r\n",
            b"{\"a\":1}\n\n\n{\"b\":2}\n",
            b"no newline at all \"b\"",
        ];
        for head in heads {
            for n in 0..5 {
                for tok in [&b"\"a\""[..], b"\"b\"", b"\"c\"", b"", b"}\n{"] {
                    assert_eq!(
                        lines_contain(head, n, tok),
                        reference(head, n, tok),
                        "{head:?} {n} {tok:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn unterminated_complete_last_line_is_fine() {
        let (out, traj) = run(b"\xEF\xBB\xBF{\"a\":1}\n{\"a\":3}");
        assert_eq!(out, [(1, 1), (2, 3)]);
        assert!(!traj.truncated);
        assert!(traj.problems.is_empty());
    }
}
