//! decode: transcripts → normalized [`Trajectory`] values (SPEC §5).
//!
//! One file per format behind the [`Decoder`] trait; the format is sniffed from
//! content unless the caller names it. Adding a harness means adding a file and
//! one line in [`decoders`].

pub mod discover;
/// The decoders' fast JSON path (values not kept are stepped over).
pub(crate) mod fastjson;
/// Helpers shared by the decoders of the non-Claude, non-Codex formats.
pub(crate) mod generic;
pub mod jsonl;
pub mod model;
pub mod patch;
pub mod probe;
pub mod retro;
pub mod scantext;
pub mod shell;
pub mod skills;
pub(crate) mod sniffjson;
pub mod testsummary;
pub mod tools;

pub mod aider;
pub mod anthropic_messages;
pub mod claude_chat_json;
pub mod claude_code;
pub mod claude_stream_json;
pub mod codex_exec;
pub mod codex_rollout;
pub mod gemini;
pub mod inspect_ai;
pub mod openai_chat;
pub mod openhands;
pub mod skillgate_capture;
pub mod swe_agent;

pub use model::*;

use std::io::Read;
use std::path::{Path, PathBuf};

/// A transcript that cannot be read or recognised. Maps to exit code 2.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct DecodeError {
    pub path: PathBuf,
    pub line: Option<u64>,
    /// What went wrong; never trajectory content.
    pub message: String,
}

impl DecodeError {
    pub fn new(path: &Path, line: Option<u64>, message: impl Into<String>) -> Self {
        DecodeError {
            path: path.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}

/// One transcript format.
pub trait Decoder: Sync + Send {
    /// Stable format name, as accepted by `--input-format`.
    fn format(&self) -> &'static str;
    fn harness(&self) -> Harness;
    /// How sure this decoder is that `head` (the first bytes of the file, at most
    /// [`SNIFF_BYTES`]) starts a file of its format: 0 = not mine, 100 = certain.
    fn sniff(&self, path: &Path, head: &[u8]) -> u8;
    /// The highest score [`Decoder::sniff`] ever returns: a decoder that
    /// cannot beat the best score so far is not asked (sniffing is a large
    /// part of the gate's time on many small files).
    fn max_sniff(&self) -> u8 {
        100
    }
    /// Decode the whole file, streaming where the format allows.
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError>;
}

/// A harness's record or call id fit to de-duplicate by (SPEC §5): letters,
/// digits, `-`, `_`, `.`, `:`; not a placeholder such as `[trimmed for fixture]`.
pub(crate) fn is_record_id(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b':'))
}

/// A hash map keyed by record ids, call ids or paths: foldhash (seeded per
/// process) instead of std's SipHash, which cost more than the rest of a
/// record's bookkeeping (a session inserts one uuid per record; docs/gate.md,
/// "Measured", round 10). Nothing iterates these maps into an output.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// A set like [`FastMap`].
pub(crate) type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

/// Record ids seen, to count a repeated record once: a UUID as Claude Code
/// writes them (lowercase hex, 8-4-4-4-12) kept as its 128 bits, any other
/// id as its text. No id is kept both ways, so distinct ids stay distinct;
/// a session's records cost no string each.
#[derive(Default)]
pub(crate) struct SeenIds {
    uuids: FastSet<u128>,
    others: FastSet<String>,
}

impl SeenIds {
    /// Whether `id` was not seen before (it is seen now).
    pub(crate) fn insert(&mut self, id: &str) -> bool {
        match uuid_bits(id) {
            Some(n) => self.uuids.insert(n),
            None => self.others.insert(id.to_string()),
        }
    }
}

/// The 128 bits of a lowercase hyphenated UUID, `None` for any other text.
/// Each hex digit is looked up in a table at a fixed place (a `match` per
/// byte and a 128-bit shift per digit cost more than the set's insert).
fn uuid_bits(s: &str) -> Option<u128> {
    /// A lowercase hex digit's value; 0x10 for any other byte.
    static HEX: [u8; 256] = {
        let mut t = [0x10u8; 256];
        let mut c = 0;
        while c < 10 {
            t[b'0' as usize + c] = c as u8;
            c += 1;
        }
        let mut c = 0;
        while c < 6 {
            t[b'a' as usize + c] = 10 + c as u8;
            c += 1;
        }
        t
    };
    /// Where the 32 digits are (the hyphens at 8, 13, 18 and 23).
    const DIGITS: [usize; 32] = [
        0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26, 27, 28,
        29, 30, 31, 32, 33, 34, 35,
    ];
    let b: &[u8; 36] = s.as_bytes().try_into().ok()?;
    if b[8] != b'-' || b[13] != b'-' || b[18] != b'-' || b[23] != b'-' {
        return None;
    }
    let (mut hi, mut lo, mut bad) = (0u64, 0u64, 0u8);
    for &at in &DIGITS[..16] {
        let d = HEX[b[at] as usize];
        bad |= d;
        hi = hi << 4 | u64::from(d);
    }
    for &at in &DIGITS[16..] {
        let d = HEX[b[at] as usize];
        bad |= d;
        lo = lo << 4 | u64::from(d);
    }
    (bad & 0x10 == 0).then_some(u128::from(hi) << 64 | u128::from(lo))
}

/// How many leading bytes sniffing looks at.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// Every known format, most specific first.
pub fn decoders() -> Vec<&'static dyn Decoder> {
    vec![
        &skillgate_capture::SkillgateCaptureDecoder,
        &claude_code::ClaudeCodeDecoder,
        &claude_chat_json::ClaudeChatJsonDecoder,
        &claude_stream_json::ClaudeStreamJsonDecoder,
        &codex_rollout::CodexRolloutDecoder,
        &codex_exec::CodexExecDecoder,
        &gemini::GeminiDecoder,
        &swe_agent::SweAgentDecoder,
        &openhands::OpenHandsDecoder,
        &inspect_ai::InspectAiDecoder,
        &aider::AiderDecoder,
        &openai_chat::OpenAiChatDecoder,
        &anthropic_messages::AnthropicMessagesDecoder,
    ]
}

/// The names `--input-format` accepts.
pub fn format_names() -> Vec<&'static str> {
    decoders().iter().map(|d| d.format()).collect()
}

/// Pick the decoder for a file: the named one, else the best sniff.
pub fn pick_decoder(
    path: &Path,
    format: Option<&str>,
) -> Result<&'static dyn Decoder, DecodeError> {
    pick_decoder_open(path, format).map(|(d, _)| d)
}

/// [`pick_decoder`], with the file sniffed when its first read picked the
/// decoder (open, its head served from memory).
fn pick_decoder_open(
    path: &Path,
    format: Option<&str>,
) -> Result<(&'static dyn Decoder, Option<Transcript>), DecodeError> {
    if let Some(name) = format {
        return decoders()
            .into_iter()
            .find(|d| d.format() == name)
            .map(|d| (d, None))
            .ok_or_else(|| {
                DecodeError::new(
                    path,
                    None,
                    format!(
                        "unknown input format `{name}` (known: {})",
                        format_names().join(", ")
                    ),
                )
            });
    }
    let mut head = HEAD.with(std::cell::Cell::take);
    if head.len() != SNIFF_BYTES {
        head = vec![0; SNIFF_BYTES];
    }
    let (file, n, from_start) = match read_head(path, &mut head) {
        Ok(read) => read,
        Err(e) => {
            HEAD.with(|h| h.set(head));
            return Err(e);
        }
    };
    if let Some(d) = best_sniff(path, &head[..n]) {
        // the head read from the file's start is its decoder's first read
        let t = if from_start {
            Transcript::with_head(file, head, n)
        } else {
            HEAD.with(|h| h.set(head));
            Transcript::plain(file)
        };
        return Ok((d, Some(t)));
    }
    HEAD.with(|h| h.set(head));
    // A bad first record (a garbage line, a 100,000-deep array) must not hide a
    // session: sniff again past it. The decoder then counts it as a problem.
    let reread = open_transcript(path)?;
    if let Some(later) = probe::head_past_bad_records(reread, SNIFF_BYTES) {
        if let Some(d) = best_sniff(path, &later) {
            return Ok((d, None));
        }
    }
    Err(DecodeError::new(
        path,
        Some(1),
        "not a recognised transcript format (use --input-format to name one)",
    ))
}

/// The first [`SNIFF_BYTES`] of a file into `head`, leading blank lines (64 KiB
/// of them, say) skipped first, into the start of `head` (whose length is
/// [`SNIFF_BYTES`]); the file, open, for its decoder, the head's length, and
/// whether the head is the file's start (nothing skipped: the file is then
/// positioned just past it).
fn read_head(path: &Path, head: &mut [u8]) -> Result<(std::fs::File, usize, bool), DecodeError> {
    use std::io::Seek;
    let cannot = |e: std::io::Error| DecodeError::new(path, None, format!("cannot read: {e}"));
    let mut file = crate::fsutil::open_regular(path)
        .map_err(|e| DecodeError::new(path, None, e.to_string()))?;
    // one read for a head, where `read_to_end` read 8, 16 and 32 KiB
    let n = fill(&mut file, head).map_err(cannot)?;
    if !head[..n].first().is_some_and(u8::is_ascii_whitespace) {
        return Ok((file, n, true)); // nothing to skip: the usual case, read directly
    }
    file.rewind().map_err(cannot)?;
    let mut reader = std::io::BufReader::new(file);
    skip_blank(&mut reader).map_err(cannot)?;
    let n = fill(&mut reader, head).map_err(cannot)?;
    Ok((reader.into_inner(), n, false))
}

/// Read into `buf` until it is full or the reader ends; how many bytes were read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The decoder whose sniff of `head` is surest, if any is.
fn best_sniff(path: &Path, head: &[u8]) -> Option<&'static dyn Decoder> {
    let head = probe::non_finite_to_null(head);
    generic::with_sniff_memo(&head, || {
        let mut best: Option<(u8, &'static dyn Decoder)> = None;
        for d in decoders() {
            // a later decoder must score strictly higher to win
            if best.is_some_and(|(b, _)| d.max_sniff() <= b) {
                continue;
            }
            let s = d.sniff(path, &head);
            debug_assert!(s <= d.max_sniff(), "{} sniffed {s}", d.format());
            if s > 0 && best.is_none_or(|(b, _)| s > b) {
                best = Some((s, d));
            }
        }
        best.map(|(_, d)| d)
    })
}

/// Skip leading ASCII whitespace (at most [`probe::MAX_SKIPPED_BYTES`]), a
/// byte-order mark kept.
fn skip_blank(r: &mut impl std::io::BufRead) -> std::io::Result<()> {
    let mut seen = 0u64;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        let n = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let all = n == buf.len();
        r.consume(n);
        seen += n as u64;
        if !all || seen > probe::MAX_SKIPPED_BYTES {
            return Ok(());
        }
    }
}

/// Open a transcript for reading: a regular file only (a FIFO would block, a
/// device never ends), refused with an error naming it otherwise.
pub fn open_transcript(path: &Path) -> Result<Transcript, DecodeError> {
    use std::io::Seek;
    if let Some((sniffed, mut t)) = SNIFFED.with(std::cell::RefCell::take) {
        // the file [`decode_path`] sniffed: one open a file instead of two,
        // and its head, still in memory, not read again
        if sniffed == path {
            if t.head_len > 0 {
                return Ok(t);
            }
            if t.file.rewind().is_ok() {
                return Ok(t);
            }
        }
    }
    crate::fsutil::open_regular(path)
        .map(Transcript::plain)
        .map_err(|e| DecodeError::new(path, None, e.to_string()))
}

thread_local! {
    /// The file [`decode_path`] sniffed, open, until its decoder opens it
    /// ([`open_transcript`], [`read_transcript`]) or the decoding ends.
    static SNIFFED: std::cell::RefCell<Option<(std::path::PathBuf, Transcript)>> =
        const { std::cell::RefCell::new(None) };
    /// The head buffer, kept per thread for the next file (a 64 KiB
    /// allocation and free per file cost more than sniffing most heads),
    /// zeroed once and read into whole; lent to the [`Transcript`] of the
    /// file it holds the head of.
    static HEAD: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A transcript open for reading ([`open_transcript`]): the head that
/// sniffing read from the file's start, served from memory, then the rest
/// of the file (the heads of 300 files were read twice: 20 MB of 166 MB).
pub struct Transcript {
    /// The sniffed head (its first `head_len` bytes), or nothing.
    head: Vec<u8>,
    head_len: usize,
    /// Bytes of the head served so far.
    served: usize,
    /// The file, positioned past the head.
    file: std::fs::File,
}

impl Transcript {
    fn plain(file: std::fs::File) -> Self {
        Transcript {
            head: Vec::new(),
            head_len: 0,
            served: 0,
            file,
        }
    }

    fn with_head(file: std::fs::File, head: Vec<u8>, head_len: usize) -> Self {
        Transcript {
            head,
            head_len,
            served: 0,
            file,
        }
    }

    /// The file's length now.
    pub fn file_len(&self) -> std::io::Result<u64> {
        self.file.metadata().map(|m| m.len())
    }

    /// Append at most `limit` more bytes to `buf` (to the file's end, if
    /// nearer); how many. The file's own `read_to_end` reads into `buf`'s
    /// room without zeroing it first, as a reader that is not a `File` would.
    pub fn read_up_to(&mut self, buf: &mut Vec<u8>, limit: u64) -> std::io::Result<usize> {
        let from_head =
            (self.head_len - self.served).min(usize::try_from(limit).unwrap_or(usize::MAX));
        buf.extend_from_slice(&self.head[self.served..self.served + from_head]);
        self.served += from_head;
        let rest = limit - from_head as u64;
        if rest == 0 {
            return Ok(from_head);
        }
        Ok(from_head + (&self.file).take(rest).read_to_end(buf)?)
    }
}

impl Read for Transcript {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.served == self.head_len {
            return self.file.read(buf);
        }
        let n = (self.head_len - self.served).min(buf.len());
        buf[..n].copy_from_slice(&self.head[self.served..self.served + n]);
        self.served += n;
        Ok(n)
    }
}

impl Drop for Transcript {
    fn drop(&mut self) {
        // the head buffer goes back for the next file's sniff
        if self.head.len() == SNIFF_BYTES {
            let head = std::mem::take(&mut self.head);
            let _ = HEAD.try_with(|h| h.set(head));
        }
    }
}

/// A whole transcript of at most `limit` bytes, read as
/// [`crate::fsutil::read_bounded`] reads it (the same errors), through
/// [`open_transcript`].
pub(crate) fn read_transcript(path: &Path, limit: u64) -> Result<Vec<u8>, DecodeError> {
    let mut file = open_transcript(path)?;
    let read = |file: &mut Transcript| {
        let len = file.file_len()?;
        if len > limit {
            return Err(crate::fsutil::InputError::TooLarge { limit });
        }
        // room for the whole file at once; one that grew meanwhile still
        // reads to its end, up to the limit
        let mut bytes = Vec::with_capacity(len as usize + 1);
        file.read_up_to(&mut bytes, limit.saturating_add(1))?;
        if bytes.len() as u64 > limit {
            return Err(crate::fsutil::InputError::TooLarge { limit });
        }
        Ok(bytes)
    };
    read(&mut file).map_err(|e| DecodeError::new(path, None, e.to_string()))
}

/// Decode one transcript file: pick the decoder, decode, apply a retro sidecar,
/// add weak skill-load evidence, and number the events.
pub fn decode_path(
    path: &Path,
    format: Option<&str>,
    opts: &DecodeOptions,
) -> Result<Trajectory, DecodeError> {
    let (decoder, sniffed) = pick_decoder_open(path, format)?;
    if let Some(file) = sniffed {
        SNIFFED.with(|s| s.replace(Some((path.to_path_buf(), file))));
    }
    let decoded = decoder.decode(path, opts);
    // a decoder that did not open the file: it is closed now
    SNIFFED.with(|s| s.take());
    let mut traj = decoded?;
    retro::apply(&mut traj)?;
    skills::add_weak_loads(&mut traj);
    for (i, e) in traj.events.iter_mut().enumerate() {
        e.index = i;
    }
    Ok(traj)
}

/// The folders of session files the decoders' both-ways tests read: every
/// decoder fixture and the real transcripts.
#[cfg(test)]
pub(crate) const SESSION_ROOTS: [&str; 4] = [
    "fixtures/decode",
    "fixtures/decode-others",
    "fixtures/gate",
    "../shared/realdata/transcripts",
];

/// Every file under `roots` (recursively, in name order) that `keep`
/// accepts; a root that is not there gives none. The decoders' tests read
/// the fixtures and the real transcripts both ways with it.
#[cfg(test)]
pub(crate) fn files_under(roots: &[&str], keep: impl Fn(&Path) -> bool) -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, keep, out);
            } else if keep(&p) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for root in roots {
        walk(Path::new(root), &keep, &mut out);
    }
    out
}

/// Every line alone, then all of them, then the whole cut every 37 bytes
/// (on character boundaries): the texts a fast reader must read as the
/// slow one does.
#[cfg(test)]
pub(crate) fn line_cuts<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    let lines: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
    let mut texts: Vec<String> = lines.iter().map(|l| format!("{l}\n")).collect();
    let all = lines.join("\n");
    texts.push(all.clone());
    for cut in (0..all.len()).step_by(37) {
        if all.is_char_boundary(cut) {
            texts.push(all[..cut].to_string());
        }
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file decoded as before the sniffed file was handed to its decoder:
    /// picked, then opened again by the decoder.
    fn decode_reopened(path: &Path) -> Result<String, String> {
        let d = pick_decoder(path, None).map_err(|e| e.to_string())?;
        let mut t = d
            .decode(path, &DecodeOptions::default())
            .map_err(|e| e.to_string())?;
        retro::apply(&mut t).map_err(|e| e.to_string())?;
        skills::add_weak_loads(&mut t);
        for (i, e) in t.events.iter_mut().enumerate() {
            e.index = i;
        }
        Ok(serde_json::to_string(&t).unwrap())
    }

    #[test]
    fn decoders_read_the_sniffed_file_from_its_start() {
        let tmp = tempfile::tempdir().unwrap();
        let files = files_under(&["fixtures/decode", "fixtures/decode-others"], |p| {
            p.extension().is_none_or(|x| x != "md")
        });
        assert!(files.len() > 20, "{} fixtures", files.len());
        let mut decoded = 0;
        for (i, f) in files.iter().enumerate() {
            // and behind blank lines, which sniffing skips (its read then
            // stops past the head)
            let blank = tmp
                .path()
                .join(format!("{i}-{}", f.file_name().unwrap().to_string_lossy()));
            let mut text = b"\n\n  \n".to_vec();
            text.extend(std::fs::read(f).unwrap());
            std::fs::write(&blank, text).unwrap();
            for p in [f.as_path(), blank.as_path()] {
                let handed = decode_path(p, None, &DecodeOptions::default())
                    .map(|t| serde_json::to_string(&t).unwrap())
                    .map_err(|e| e.to_string());
                assert!(SNIFFED.with(|s| s.borrow().is_none()), "{}", p.display());
                decoded += usize::from(handed.is_ok());
                assert_eq!(handed, decode_reopened(p), "{}", p.display());
            }
        }
        assert!(decoded > 20, "{decoded} decoded");
    }

    #[test]
    fn a_sniffed_transcript_reads_as_the_file_does() {
        let tmp = tempfile::tempdir().unwrap();
        let mut files = files_under(&["fixtures/decode", "fixtures/decode-others"], |_| true);
        // a file longer than the head, behind blank lines and not
        let long: String = (0..3000)
            .map(|i| {
                format!(
                    "{{\"type\":\"user\",\"n\":{i},\"pad\":\"{}\"}}\n",
                    "x".repeat(i % 97)
                )
            })
            .collect();
        for (name, text) in [
            ("long.jsonl", long.clone()),
            ("blank.jsonl", format!("\n \n{long}")),
        ] {
            let p = tmp.path().join(name);
            std::fs::write(&p, text).unwrap();
            files.push(p);
        }
        let mut handed = 0;
        for f in &files {
            let want = std::fs::read(f).unwrap();
            for step in [1usize, 7, 4096, 1 << 20] {
                let Ok((_, Some(mut t))) = pick_decoder_open(f, None) else {
                    continue;
                };
                handed += usize::from(t.head_len > 0);
                if t.head_len == 0 {
                    std::io::Seek::rewind(&mut t.file).unwrap(); // as `open_transcript` does
                }
                let mut got = Vec::new();
                let mut buf = vec![0; step];
                loop {
                    let n = t.read(&mut buf).unwrap();
                    if n == 0 {
                        break;
                    }
                    got.extend_from_slice(&buf[..n]);
                }
                assert!(got == want, "{} read {step} at a time", f.display());
                // and appended `step` bytes at a time
                let Ok((_, Some(mut t))) = pick_decoder_open(f, None) else {
                    unreachable!("picked above");
                };
                if t.head_len == 0 {
                    std::io::Seek::rewind(&mut t.file).unwrap();
                }
                let mut got = Vec::new();
                while t.read_up_to(&mut got, step as u64).unwrap() > 0 {}
                assert!(got == want, "{} appended {step} at a time", f.display());
                drop(t);
                // the head buffer is back for the next sniff
                let head = HEAD.with(std::cell::Cell::take);
                assert_eq!(head.len(), SNIFF_BYTES, "{}", f.display());
                HEAD.with(|h| h.set(head));
            }
        }
        assert!(handed > 80, "{handed} handed over with their heads");
    }

    /// The 128 bits as a byte-by-byte parse reads them (`uuid_bits`
    /// before its table).
    fn uuid_bits_by_bytes(s: &str) -> Option<u128> {
        let b = s.as_bytes();
        if b.len() != 36 {
            return None;
        }
        let mut n = 0u128;
        for (i, &c) in b.iter().enumerate() {
            if matches!(i, 8 | 13 | 18 | 23) {
                if c != b'-' {
                    return None;
                }
                continue;
            }
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                _ => return None,
            };
            n = n << 4 | u128::from(d);
        }
        Some(n)
    }

    #[test]
    fn uuid_bits_read_as_a_byte_by_byte_parse() {
        let base = "0123abcd-ef45-6789-a0b1-c2d3e4f5a6b7";
        let mut texts = vec![base.to_string(), base.to_uppercase(), base.replace('-', "")];
        // every place holding every ASCII byte, and a two-byte character
        for at in 0..base.len() {
            for c in (0u8..128).map(char::from).chain(['é']) {
                let mut t = base.to_string();
                t.replace_range(at..at + 1, c.encode_utf8(&mut [0; 4]));
                texts.push(t.clone());
                if c == 'é' {
                    // 36 bytes again: the ASCII byte after it (or the first) out
                    t.remove(if at + 2 < t.len() { at + 2 } else { 0 });
                    texts.push(t);
                }
            }
        }
        for t in &texts {
            assert_eq!(uuid_bits(t), uuid_bits_by_bytes(t), "{t:?}");
        }
        assert_eq!(
            uuid_bits(base),
            Some(0x0123abcd_ef45_6789_a0b1_c2d3e4f5a6b7)
        );
    }

    #[test]
    fn seen_ids_keep_distinct_ids_distinct() {
        let mut seen = SeenIds::default();
        let ids = [
            "4f9c1b2e-8a3d-4c5e-9f01-23456789abcd",
            "4f9c1b2e-8a3d-4c5e-9f01-23456789abce",
            "4F9C1B2E-8A3D-4C5E-9F01-23456789ABCD", // upper case: another id
            "4f9c1b2e8a3d4c5e9f0123456789abcd",     // no hyphens: another id
            "4f9c1b2e-8a3d-4c5e-9f01-23456789abc",
            "4f9c1b2e-8a3d-4c5e-9f01_23456789abcd",
            "msg_01XyZ",
            "0",
            "00000000-0000-0000-0000-000000000000",
        ];
        for id in ids {
            assert!(seen.insert(id), "{id} is new");
        }
        for id in ids {
            assert!(!seen.insert(id), "{id} was seen");
        }
        assert_eq!(seen.uuids.len(), 3);
        assert_eq!(
            uuid_bits("00000000-0000-0000-0000-0000000000ff"),
            Some(0xff)
        );
        assert_eq!(uuid_bits("g0000000-0000-0000-0000-000000000000"), None);
    }
}
