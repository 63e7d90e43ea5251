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
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Reads buffer size: large enough that a typical line needs one read.
const READ_BUF: usize = 256 * 1024;

/// The longest line kept in memory (real records with inline images reach
/// tens of MiB). A longer line is read past without being stored and counted
/// as an undecodable record (it could hide an action): memory stays bounded
/// whatever the file holds.
pub const MAX_LINE_BYTES: usize = 256 << 20;

/// A JSONL file read line by line.
pub struct JsonlLines<R> {
    reader: R,
    path: PathBuf,
    buf: Vec<u8>,
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

impl JsonlLines<BufReader<File>> {
    /// Open a file for line-by-line reading.
    pub fn open(path: &Path) -> Result<Self, DecodeError> {
        let file = super::open_transcript(path)?;
        Ok(JsonlLines::new(
            BufReader::with_capacity(READ_BUF, file),
            path,
        ))
    }
}

impl<R: BufRead> JsonlLines<R> {
    pub fn new(reader: R, path: &Path) -> Self {
        JsonlLines {
            reader,
            path: path.to_path_buf(),
            buf: Vec::new(),
            line_no: 0,
            max_line: MAX_LINE_BYTES,
        }
    }

    /// Another line-length limit than [`MAX_LINE_BYTES`] (tests).
    pub fn with_max_line(mut self, max: usize) -> Self {
        self.max_line = max;
        self
    }

    /// One line into `buf` (with its newline), at most `max_line` bytes kept:
    /// returns (bytes read, the line was longer).
    fn read_capped(&mut self) -> std::io::Result<(usize, bool)> {
        let mut n = 0;
        let mut over = false;
        loop {
            let avail = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                return Ok((n, over));
            }
            let (chunk, done) = match memchr::memchr(b'\n', avail) {
                Some(k) => (&avail[..=k], true),
                None => (avail, false),
            };
            if !over {
                if self.buf.len() + chunk.len() > self.max_line + 1 {
                    over = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let k = chunk.len();
            self.reader.consume(k);
            n += k;
            if done {
                if over {
                    self.buf.push(b'\n');
                }
                return Ok((n, over));
            }
        }
    }

    /// The next non-blank line, `None` at the end of the file. An I/O error is a
    /// [`DecodeError`] naming the line.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, DecodeError> {
        let (start, end, unterminated) = loop {
            self.buf.clear();
            let (n, oversized) = self.read_capped().map_err(|e| {
                DecodeError::new(
                    &self.path,
                    Some(self.line_no + 1),
                    format!("cannot read: {e}"),
                )
            })?;
            if n == 0 {
                return Ok(None);
            }
            self.line_no += 1;
            if oversized {
                let unterminated = self.buf.last() != Some(&b'\n');
                return Ok(Some(Line {
                    number: self.line_no,
                    bytes: &[],
                    unterminated,
                    oversized: true,
                    path: &self.path,
                }));
            }
            let unterminated = self.buf.last() != Some(&b'\n');
            let mut end = self.buf.len();
            if !unterminated {
                end -= 1;
            }
            if end > 0 && self.buf[end - 1] == b'\r' {
                end -= 1;
            }
            let start = if self.line_no == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
                3.min(end)
            } else {
                0
            };
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
    head_lines(head, n)
        .iter()
        .any(|l| memchr::memmem::find(l, token).is_some())
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
    fn unterminated_complete_last_line_is_fine() {
        let (out, traj) = run(b"\xEF\xBB\xBF{\"a\":1}\n{\"a\":3}");
        assert_eq!(out, [(1, 1), (2, 3)]);
        assert!(!traj.truncated);
        assert!(traj.problems.is_empty());
    }
}
