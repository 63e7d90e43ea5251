//! Decoder for Claude Code `logs/chat.json` exports: a JSON array of session
//! records (a Stop-hook copy of the transcript, pretty-printed), formats note §1.1.
//!
//! A file up to 64 MiB is read whole and each array element is parsed in place
//! straight into a record; a larger one is read element by element from a
//! buffered reader (one record in memory at a time). Each record goes through
//! the session decoder's handler. Locations are JSON pointers to the element (`/17`).

use super::claude_code::{parse_record, record_at, record_from_value, ClaudeRecords};
use super::fastjson::{self, Cursor, GiveUp};
use super::jsonl;
use super::{
    DecodeError, DecodeOptions, DecodeProblem, Decoder, Harness, Location, ProblemKind, Trajectory,
};
use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;
use std::io::BufReader;
use std::path::Path;

pub struct ClaudeChatJsonDecoder;

impl Decoder for ClaudeChatJsonDecoder {
    fn format(&self) -> &'static str {
        "claude-chat-json"
    }
    fn harness(&self) -> Harness {
        Harness::ClaudeCode
    }
    fn max_sniff(&self) -> u8 {
        90
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        let h = jsonl::trim_start(head);
        if h.first() != Some(&b'[') {
            return 0;
        }
        let has = |tok: &[u8]| memchr::memmem::find(h, tok).is_some();
        if has(b"\"parentUuid\"") || has(b"\"sessionId\"") || has(b"\"isSidechain\"") {
            90
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        if opts.keep_content {
            decode_array::<true>(path)
        } else {
            decode_array::<false>(path)
        }
    }
}

/// Files up to this size are read whole and each element is parsed in place
/// (no intermediate `Value` per element); larger ones are streamed.
const WHOLE_FILE_BYTES: u64 = 64 << 20;

/// A file with an element nested deeper than this takes the streaming path,
/// whose recursion limit decides what an over-deep element does to the file.
const FAST_MAX_DEPTH: usize = 100;

fn decode_array<const K: bool>(path: &Path) -> Result<Trajectory, DecodeError> {
    let mut file = super::open_transcript(path)?;
    let size = file.file_len().unwrap_or(u64::MAX);
    if size > WHOLE_FILE_BYTES {
        return stream::<K, _>(path, BufReader::with_capacity(256 * 1024, file));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.read_up_to(&mut bytes, WHOLE_FILE_BYTES + 1)
        .map_err(|e| DecodeError::new(path, None, format!("cannot read: {e}")))?;
    if let Ok(text) = simdutf8::basic::from_utf8(&bytes) {
        if let Some(t) = in_place::<K>(path, text)? {
            return Ok(t);
        }
    }
    // Not UTF-8 (the streaming parse says where), or an element too deep.
    stream::<K, _>(path, &bytes[..])
}

/// The fast path: elements as raw slices of the text, each parsed straight
/// into a record. An element that does not parse as a record goes through
/// the streaming path's `Value` step, so the problem recorded is the same.
/// `None` when the file must take the streaming path ([`Check::Stream`], an
/// element that is not a `Value`, or a file that is not a JSON array).
fn in_place<const K: bool>(path: &Path, text: &str) -> Result<Option<Trajectory>, DecodeError> {
    if let Some((st, index)) = in_place_fast::<K>(path, text) {
        return finish(path, st, Ok(()), index).map(Some);
    }
    in_place_serde::<K>(path, text)
}

/// [`in_place`] by serde_json alone.
fn in_place_serde<const K: bool>(
    path: &Path,
    text: &str,
) -> Result<Option<Trajectory>, DecodeError> {
    let traj = Trajectory::new(path.to_path_buf(), Harness::ClaudeCode, "claude-chat-json");
    let mut st = ClaudeRecords::<K>::new(traj, None);
    let mut de = serde_json::Deserializer::from_str(text);
    let mut index = 0usize;
    let mut fallback = false;
    let res = serde::Deserializer::deserialize_seq(
        &mut de,
        Elements {
            st: &mut st,
            index: &mut index,
            raw: Some(&mut fallback),
        },
    );
    let res = res.and_then(|()| de.end());
    if fallback || res.is_err() {
        // A broken file: the streaming path says where, as it always did.
        return Ok(None);
    }
    finish(path, st, res, index).map(Some)
}

/// [`in_place`] with the elements found by [`fastjson`] instead of serde_json's
/// `RawValue` (the same element texts, the same handling of each): `None`
/// when it cannot vouch for the text — [`in_place`] then reads it as before.
/// The records and their count.
fn in_place_fast<const K: bool>(path: &Path, text: &str) -> Option<(ClaudeRecords<K>, usize)> {
    let traj = Trajectory::new(path.to_path_buf(), Harness::ClaudeCode, "claude-chat-json");
    let mut st = ClaudeRecords::<K>::new(traj, None);
    let mut index = 0usize;
    let mut c = Cursor::new(text);
    if c.peek() != Some(b'[') {
        return None;
    }
    c.array(0, |c| {
        // the element is read as a record where it is one, else stepped over
        let start = c.pos();
        c.take_risky();
        let rec = if c.peek() == Some(b'{') {
            record_at::<K, false>(c)
        } else {
            Err(GiveUp)
        };
        let s = if rec.is_ok() {
            c.since(start)
        } else {
            c.set_pos(start);
            c.value(1)?
        };
        // a record read whole saw every byte: no `check` pass (nested at most
        // MAX_DEPTH deep, it is never `Check::Stream`)
        let how = match rec {
            Ok(_) if c.take_risky() => Check::Value,
            Ok(_) => Check::Fast,
            Err(_) => check(s.as_bytes()),
        };
        debug_assert_eq!(how, check(s.as_bytes()));
        if how == Check::Stream {
            return Err(GiveUp);
        }
        let loc = Location::pointer(format!("/{index}"));
        index += 1;
        if how == Check::Fast && s.starts_with('{') {
            if let Ok(rec) = rec.or_else(|_| parse_record::<K, false>(s, false)) {
                st.record_scanning_if_needed(rec, loc, s.as_bytes());
                return Ok(());
            }
        }
        match serde_json::from_str::<serde_json::Value>(s) {
            Ok(v) => {
                element(&mut st, &v, loc);
                Ok(())
            }
            Err(_) => Err(GiveUp),
        }
    })
    .ok()?;
    if !c.at_end() {
        return None;
    }
    Some((st, index))
}

/// The streaming path: one element at a time as a `Value` (memory: one element).
fn stream<const K: bool, R: std::io::Read>(path: &Path, r: R) -> Result<Trajectory, DecodeError> {
    let traj = Trajectory::new(path.to_path_buf(), Harness::ClaudeCode, "claude-chat-json");
    let mut st = ClaudeRecords::<K>::new(traj, None);
    let mut de = serde_json::Deserializer::from_reader(r);
    let mut index = 0usize;
    let res = serde::Deserializer::deserialize_seq(
        &mut de,
        Elements {
            st: &mut st,
            index: &mut index,
            raw: None,
        },
    );
    finish(path, st, res.and_then(|()| de.end()), index)
}

fn finish<const K: bool>(
    path: &Path,
    mut st: ClaudeRecords<K>,
    res: Result<(), serde_json::Error>,
    index: usize,
) -> Result<Trajectory, DecodeError> {
    match res {
        Ok(()) => {}
        Err(e) if index == 0 && e.classify() != serde_json::error::Category::Eof => {
            return Err(DecodeError::new(
                path,
                Some(e.line() as u64),
                format!(
                    "not a JSON array of records ({})",
                    jsonl::describe_json_error(&e)
                ),
            ));
        }
        Err(e) => {
            // Cannot resynchronise inside an array: the rest is lost, and said so.
            let torn = e.classify() == serde_json::error::Category::Eof;
            st.traj.truncated |= torn;
            st.traj.problems.push(DecodeProblem {
                location: Location::pointer(format!("/{index}")),
                kind: if torn {
                    ProblemKind::TruncatedLastLine
                } else {
                    ProblemKind::Undecodable
                },
                detail: format!(
                    "{} at line {} column {}; the rest of the array is not read",
                    if torn {
                        "file ends inside the array"
                    } else {
                        "invalid JSON"
                    },
                    e.line(),
                    e.column()
                ),
            });
        }
    }
    Ok(st.finish())
}

/// What the in-place path must do with one raw element.
#[derive(Debug, PartialEq)]
enum Check {
    /// Parse it straight into a record.
    Fast,
    /// A number that could be out of range (an exponent, 300+ digits) or a
    /// `\\uD8..`–`\\uDF..` escape (a possible lone surrogate): values that a
    /// skipped field accepts but a `Value` refuses. Parse it as a `Value` first.
    Value,
    /// Nested deeper than [`FAST_MAX_DEPTH`]: the streaming path decides.
    Stream,
}

/// One pass over a raw element's bytes (strings skipped with `memchr`).
fn check(s: &[u8]) -> Check {
    let mut depth = 0usize;
    let mut digits = 0usize;
    let mut risky = false;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c.is_ascii_digit() {
            digits += 1;
            risky |= digits > 300;
            i += 1;
            continue;
        }
        let after_number = digits > 0 || (i > 0 && s[i - 1] == b'.');
        digits = 0;
        match c {
            b'"' => {
                // skip the string: to its closing quote, past escapes (16
                // bytes at a time when it is well formed and has no `\u`)
                i += 1;
                if let Ok((end, escaped)) = fastjson::string_end(s, i) {
                    if escaped == 0 || memchr::memmem::find(&s[i..end], b"\\u").is_none() {
                        i = end + 1;
                        continue;
                    }
                }
                while let Some(k) = memchr::memchr2(b'"', b'\\', &s[i..]) {
                    i += k;
                    if s[i] == b'"' {
                        break;
                    }
                    if s.get(i + 1) == Some(&b'u')
                        && matches!(s.get(i + 2), Some(b'd' | b'D'))
                        && matches!(s.get(i + 3), Some(b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F'))
                    {
                        risky = true;
                    }
                    i += 2;
                }
            }
            b'e' | b'E' if after_number => risky = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > FAST_MAX_DEPTH {
                    return Check::Stream;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    if risky {
        Check::Value
    } else {
        Check::Fast
    }
}

struct Elements<'s, const K: bool> {
    st: &'s mut ClaudeRecords<K>,
    index: &'s mut usize,
    /// In-place parsing (a `&str` input): elements are read as raw slices;
    /// set to `true` when the file must take the streaming path instead.
    raw: Option<&'s mut bool>,
}

impl<'de, const K: bool> Visitor<'de> for Elements<'_, K> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array of Claude Code records")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if let Some(fallback) = self.raw {
            while let Some(raw) = seq.next_element::<&'de RawValue>()? {
                let s = raw.get();
                let how = check(s.as_bytes());
                if how == Check::Stream {
                    *fallback = true;
                    return Ok(());
                }
                let loc = Location::pointer(format!("/{}", *self.index));
                *self.index += 1;
                if how == Check::Fast && s.starts_with('{') {
                    if let Ok(rec) = parse_record::<K, false>(s, self.st.fast) {
                        self.st.record_scanning_if_needed(rec, loc, s.as_bytes());
                        continue;
                    }
                }
                match serde_json::from_str::<serde_json::Value>(s) {
                    Ok(v) => element(self.st, &v, loc),
                    Err(_) => {
                        // the streaming parse stops here: let it say where
                        *fallback = true;
                        return Ok(());
                    }
                }
            }
            return Ok(());
        }
        // Each element is parsed to a Value first so that an odd element is one
        // counted problem, not the end of the file.
        while let Some(v) = seq.next_element::<serde_json::Value>()? {
            let loc = Location::pointer(format!("/{}", *self.index));
            *self.index += 1;
            element(self.st, &v, loc);
        }
        Ok(())
    }
}

/// One array element, parsed as a `Value`: a record, or a counted problem.
fn element<const K: bool>(st: &mut ClaudeRecords<K>, v: &serde_json::Value, loc: Location) {
    match record_from_value::<K>(v) {
        Ok(rec) if v.is_object() => st.record(rec, loc),
        Ok(_) => st.traj.problems.push(DecodeProblem {
            location: loc,
            kind: ProblemKind::Undecodable,
            detail: "array element is not an object".into(),
        }),
        Err(e) => st.traj.problems.push(DecodeProblem {
            location: loc,
            kind: ProblemKind::Undecodable,
            detail: jsonl::describe_json_error(&e),
        }),
    }
}

impl<'de, const K: bool> DeserializeSeed<'de> for Elements<'_, K> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both paths, as the JSON of the trajectory (or the error).
    fn both(text: &str) -> (String, String) {
        let path = Path::new("chat.json");
        let show = |r: Result<Option<Trajectory>, DecodeError>| match r {
            Ok(Some(t)) => serde_json::to_string(&t).unwrap(),
            Ok(None) => "streamed".to_string(),
            Err(e) => format!("error {e}"),
        };
        let fast = match in_place::<false>(path, text) {
            Ok(None) => show(stream::<false, _>(path, text.as_bytes()).map(Some)),
            r => show(r),
        };
        (
            fast,
            show(stream::<false, _>(path, text.as_bytes()).map(Some)),
        )
    }

    const REC: &str = r#"{"type":"assistant","uuid":"u1","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test"}}]}}"#;
    const RES: &str = r#"{"type":"user","uuid":"u2","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"test result: FAILED. 1 passed; 2 failed"}]}}"#;

    #[test]
    fn in_place_and_streaming_paths_agree() {
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        let inputs = [
            format!("[{REC},{RES}]"),
            format!("[\n  {REC},\n  {RES}\n]\n"),
            // odd elements: not objects, odd types, duplicate keys
            format!("[1, \"x\", null, [1,2], {REC}, {{\"type\": 5}}, {{\"type\":\"user\",\"type\":\"assistant\"}}, {RES}]"),
            // numbers out of range, exponents, long integers, lone surrogates
            format!("[{REC}, {{\"type\":\"progress\",\"data\":1e400}}, {RES}]"),
            format!("[{REC}, {{\"type\":\"progress\",\"data\":1.5e3,\"x\":2E-2}}, {RES}]"),
            format!("[{REC}, {{\"type\":\"progress\",\"data\":{}}}, {RES}]", "9".repeat(400)),
            format!("[{REC}, {{\"type\":\"progress\",\"data\":\"\\ud800\"}}, {RES}]"),
            format!("[{REC}, {{\"type\":\"user\",\"uuid\":\"\\udc00x\"}}, {RES}]"),
            format!("[{REC}, {{\"type\":\"progress\",\"data\":\"\\ud83d\\ude00 ok\"}}, {RES}]"),
            // too deep, torn, invalid, control characters, empty, not an array
            format!("[{REC}, {{\"type\":\"progress\",\"data\":{deep}}}, {RES}]"),
            format!("[{REC}, {deep}, {RES}]"),
            format!("[{REC}, {RES}"),
            format!("[{REC}, {{\"type\":\"user\",\"x\":tru}}, {RES}]"),
            format!("[{REC}, {{\"type\":\"user\",\"x\":01}}, {RES}]"),
            format!("[{REC}, {{\"type\":\"user\",\"x\":\"a\u{1}b\"}}, {RES}]"),
            format!("[{REC}, {{\"type\":\"user\",\"x\":\"a\\qb\"}}, {RES}]"),
            "[]".to_string(),
            "  [ ]  ".to_string(),
            "{}".to_string(),
            "[1,]".to_string(),
            format!("[{REC}] trailing"),
        ];
        for text in &inputs {
            let (fast, slow) = both(text);
            assert_eq!(fast, slow, "input: {text}");
            cursor_and_raw_values_agree(text);
        }
    }

    /// Where the cursor path reads a text, serde_json's `RawValue` path reads
    /// it the same (and the cursor path reads the real exports).
    fn cursor_and_raw_values_agree(text: &str) -> bool {
        let path = Path::new("chat.json");
        let show = |r: Result<Option<Trajectory>, DecodeError>| match r {
            Ok(Some(t)) => serde_json::to_string(&t).unwrap(),
            Ok(None) => "streamed".to_string(),
            Err(e) => format!("error {e}"),
        };
        match in_place_fast::<false>(path, text) {
            Some((st, index)) => {
                let fast = show(finish(path, st, Ok(()), index).map(Some));
                assert_eq!(fast, show(in_place_serde::<false>(path, text)), "{text}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn in_place_and_streaming_paths_agree_on_real_exports() {
        let mut n = 0;
        for dir in [
            "../shared/realdata/transcripts/claude-code-chat-json",
            "fixtures/decode",
        ] {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "json") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    let (fast, slow) = both(&text);
                    assert_eq!(fast, slow, "{}", p.display());
                    let by_cursor = cursor_and_raw_values_agree(&text);
                    assert!(by_cursor || !dir.starts_with("../shared"));
                    if dir.starts_with("../shared") {
                        // whole real exports take the fast path
                        let whole = in_place::<false>(&p, &text);
                        assert!(matches!(whole, Ok(Some(_))), "{}", p.display());
                    }
                    n += 1;
                }
            }
        }
        assert!(n >= 3, "the chat.json inputs are found ({n})");
    }

    #[test]
    fn check_sees_risky_values_and_depth() {
        assert_eq!(
            check(br#"{"a":[1,2.5,true,false,null,"e1\"x"]}"#),
            Check::Fast
        );
        assert_eq!(check(br#"{"a":1e5}"#), Check::Value);
        assert_eq!(check(br#"{"a":1.E5}"#), Check::Value);
        assert_eq!(check(br#"{"a":"\uD800"}"#), Check::Value);
        assert_eq!(check(br#"{"a":"\u00e9"}"#), Check::Fast);
        assert_eq!(check("[".repeat(101).as_bytes()), Check::Stream);
        assert_eq!(check("[".repeat(100).as_bytes()), Check::Fast);
    }
}
