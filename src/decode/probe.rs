//! Serde types for streaming decoders that keep only what a decision needs.
//!
//! Transcripts carry huge strings (tool outputs, file contents written by the
//! agent). These types skip them while parsing instead of materialising them:
//!
//! - [`Text<false>`] keeps the first [`HEAD_BYTES`] of a string or of a list of
//!   `{"type":"text","text":…}` blocks (enough to see markers such as
//!   `Base directory for this skill:` or `Exit code 1`); [`Text<true>`] keeps
//!   all of it (for [`super::DecodeOptions::keep_content`]).
//! - [`Input<false>`] keeps only the keys of a tool input that map to an action
//!   (`command`, `file_path`, `url`, `skill`…); [`Input<true>`] keeps the whole
//!   input as a `serde_json::Value`.
//!
//! Both accept any JSON value without failing (a number where a string was
//! expected is just no text), so an odd field never makes a record undecodable.

use super::fastjson;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::fmt;

/// How much of a text [`Text<false>`] keeps.
pub const HEAD_BYTES: usize = 1024;

/// A text value (string, or list of text blocks) of which the head is kept;
/// with `KEEP` the whole text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Text<const KEEP: bool> {
    /// The first [`HEAD_BYTES`] (cut at a char boundary).
    pub head: String,
    /// The whole text (`KEEP` only).
    pub full: Option<String>,
    /// Total length in bytes.
    pub len: usize,
    /// The value was a plain string (not a list of blocks).
    pub is_string: bool,
}

impl<const KEEP: bool> Text<KEEP> {
    fn push(&mut self, s: &str) {
        if self.len > 0 {
            self.push_raw("\n");
        }
        self.push_raw(s);
    }
    fn push_raw(&mut self, s: &str) {
        self.len += s.len();
        if self.head.len() < HEAD_BYTES {
            let room = HEAD_BYTES - self.head.len();
            let mut cut = room.min(s.len());
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            self.head.push_str(&s[..cut]);
        }
        if KEEP {
            self.full.get_or_insert_with(String::new).push_str(s);
        }
    }
    /// The full text when kept, else `None`.
    pub fn into_full(self) -> Option<String> {
        self.full
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<'de, const KEEP: bool> Deserialize<'de> for Text<KEEP> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TextVisitor::<KEEP>)
    }
}

struct TextVisitor<const KEEP: bool>;

impl<'de, const KEEP: bool> Visitor<'de> for TextVisitor<KEEP> {
    type Value = Text<KEEP>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a text or a list of text blocks")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        let mut t = Text::<KEEP> {
            is_string: true,
            ..Default::default()
        };
        t.push_raw(s);
        Ok(t)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut t = Text::<KEEP>::default();
        while let Some(part) = seq.next_element::<Text<KEEP>>()? {
            if part.len > 0 {
                match part.full {
                    Some(f) => t.push(&f),
                    None => {
                        // head only: keep lengths right
                        let extra = part.len - part.head.len();
                        t.push(&part.head);
                        t.len += extra;
                    }
                }
            }
        }
        Ok(t)
    }
    /// A block: its `text` (or nested `content`) counts, other keys are skipped.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut t = Text::<KEEP>::default();
        while let Some(key) = map.next_key::<KeyName>()? {
            if key.0 == "text" || key.0 == "content" {
                let part = map.next_value::<Text<KEEP>>()?;
                if part.len > 0 {
                    match part.full {
                        Some(f) => t.push(&f),
                        None => {
                            let extra = part.len - part.head.len();
                            t.push(&part.head);
                            t.len += extra;
                        }
                    }
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(t)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Text::default())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Text::default())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Text::default())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Text::default())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Text::default())
    }
}

/// A map key, borrowed when the input allows (no allocation per key).
pub struct KeyName<'a>(pub std::borrow::Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for KeyName<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KeyName<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(KeyName(std::borrow::Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(KeyName(std::borrow::Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// Tool-input keys that decide the action (see [`super::tools::action_for_tool`]).
pub const ACTION_KEYS: &[&str] = &[
    "command",
    "cmd",
    "file_path",
    "path",
    "absolute_path",
    "notebook_path",
    "filename",
    "file",
    "paths",
    "file_paths",
    "url",
    "uri",
    "href",
    "skill",
    "name",
    "subagent_type",
    "agent_type",
    "workdir",
    "cwd",
    "dir_path",
    "directory",
    "working_directory",
    "input",
    "patch",
    // Task / Agent prompts tie an old-layout sidechain to its call; Gemini
    // `web_fetch` takes its URL in the prompt
    "prompt",
];

/// A tool input: only [`ACTION_KEYS`] unless `KEEP`, then everything.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Input<const KEEP: bool>(pub Value);

impl<'de, const KEEP: bool> Deserialize<'de> for Input<KEEP> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if KEEP {
            return Value::deserialize(d).map(Input);
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tool input")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
                let mut out = Map::new();
                while let Some(key) = map.next_key::<KeyName>()? {
                    if ACTION_KEYS.contains(&key.0.as_ref()) {
                        let v = map.next_value::<Value>()?;
                        out.insert(key.0.into_owned(), v);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Value::Object(out))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
                // freeform inputs (Codex custom tools: a patch, JSON arguments)
                Ok(Value::String(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Value::Null)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
                Ok(Value::Null)
            }
        }
        d.deserialize_any(V).map(Input)
    }
}

impl<const KEEP: bool> Input<KEEP> {
    /// The input at the cursor (inside `depth` containers) by the fast path:
    /// an object's [`ACTION_KEYS`] are read by serde_json, its other values
    /// (file contents, edits) stepped over, as [`Input`]'s visitor does.
    pub(crate) fn fast(c: &mut fastjson::Cursor, depth: usize) -> fastjson::Fast<Self> {
        if KEEP || c.peek() != Some(b'{') {
            return fastjson::serde(c.value(depth)?);
        }
        let mut out = Map::new();
        c.object(depth, |c, key| {
            if ACTION_KEYS.contains(&key) {
                let v = fastjson::serde::<Value>(c.value(depth + 1)?)?;
                out.insert(key.to_string(), v);
                Ok(())
            } else {
                c.skip(depth + 1)
            }
        })?;
        Ok(Input(Value::Object(out)))
    }
}

/// Any JSON value read as an optional string: strings kept, everything else `None`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LooseStr(pub Option<String>);

impl<'de> Deserialize<'de> for LooseStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LooseStr;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<LooseStr, E> {
                Ok(LooseStr(Some(s.to_string())))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<LooseStr, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(LooseStr(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LooseStr, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(LooseStr(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<LooseStr, E> {
                Ok(LooseStr(None))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<LooseStr, E> {
                Ok(LooseStr(Some(v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<LooseStr, E> {
                Ok(LooseStr(Some(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<LooseStr, E> {
                Ok(LooseStr(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<LooseStr, E> {
                Ok(LooseStr(None))
            }
        }
        d.deserialize_any(V)
    }
}

impl LooseStr {
    pub fn as_deref(&self) -> Option<&str> {
        self.0.as_deref()
    }
    /// The string when present and not empty.
    pub fn non_empty(&self) -> Option<&str> {
        self.0.as_deref().filter(|s| !s.is_empty())
    }
}

/// Any JSON value read as a boolean: `true` only for `true`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LooseBool(pub bool);

impl<'de> Deserialize<'de> for LooseBool {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = IgnoredOrBool::deserialize(d)?;
        Ok(LooseBool(v.0))
    }
}

struct IgnoredOrBool(bool);

impl<'de> Deserialize<'de> for IgnoredOrBool {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IgnoredOrBool;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<IgnoredOrBool, E> {
                Ok(IgnoredOrBool(b))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<IgnoredOrBool, E> {
                Ok(IgnoredOrBool(false))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IgnoredOrBool, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(IgnoredOrBool(false))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IgnoredOrBool, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(IgnoredOrBool(false))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<IgnoredOrBool, E> {
                Ok(IgnoredOrBool(false))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<IgnoredOrBool, E> {
                Ok(IgnoredOrBool(false))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<IgnoredOrBool, E> {
                Ok(IgnoredOrBool(false))
            }
            fn visit_unit<E: de::Error>(self) -> Result<IgnoredOrBool, E> {
                Ok(IgnoredOrBool(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// Any JSON value read as an integer where it is one (`exit_code`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LooseInt(pub Option<i64>);

impl<'de> Deserialize<'de> for LooseInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Number(n) => Ok(LooseInt(n.as_i64())),
            Value::String(s) => Ok(LooseInt(s.trim().parse().ok())),
            _ => Ok(LooseInt(None)),
        }
    }
}

/// `NaN`, `Infinity` and `-Infinity` outside strings replaced by `null`: Python's
/// `json.dump` writes them by default (SWE-agent, OpenHands, Inspect logs), and
/// one of them must not make a whole one-object transcript unreadable. Borrows
/// when there is nothing to replace.
pub fn non_finite_to_null(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    use memchr::memmem::find;
    if find(bytes, b"NaN").is_none() && find(bytes, b"Infinity").is_none() {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut in_str = false;
    let mut i = 0;
    let mut last = b' '; // last non-blank byte outside strings
    while i < bytes.len() {
        let b = bytes[i];
        if in_str {
            out.push(b);
            match b {
                b'\\' if i + 1 < bytes.len() => {
                    out.push(bytes[i + 1]);
                    i += 2;
                    continue;
                }
                b'"' => in_str = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if matches!(last, b':' | b'[' | b',') {
            let rest = &bytes[i..];
            let word = [&b"NaN"[..], b"Infinity", b"-Infinity"]
                .into_iter()
                .find(|w| rest.starts_with(w));
            if let Some(w) = word {
                let next = rest.get(w.len()).copied().unwrap_or(b' ');
                if !next.is_ascii_alphanumeric() && next != b'_' {
                    out.extend_from_slice(b"null");
                    i += w.len();
                    last = b'l';
                    continue;
                }
            }
        }
        if b == b'"' {
            in_str = true;
        }
        if !b.is_ascii_whitespace() {
            last = b;
        }
        out.push(b);
        i += 1;
    }
    std::borrow::Cow::Owned(out)
}

/// How many leading lines [`heads_past_bad_records`] looks past.
pub const MAX_SKIPPED_RECORDS: usize = 64;
/// How many leading bytes it reads at most while looking.
pub const MAX_SKIPPED_BYTES: u64 = 16 << 20;

/// The sniff heads of a file whose first record is bad: after every leading
/// line that is not a JSON object (a garbage line, a 100,000-deep array, a
/// binary blob; blank lines are skipped too), the head that starts at the
/// next JSON-object line. Reads at most [`MAX_SKIPPED_BYTES`] and never keeps
/// a skipped line in memory (a 200 MB garbage line costs nothing).
/// Used by [`super::pick_decoder`] when the file's first bytes match no format,
/// so a bad first line cannot make a session "not a transcript" and drop it.
pub fn head_past_bad_records(r: impl std::io::Read, sniff_bytes: usize) -> Option<Vec<u8>> {
    use std::io::{BufRead, BufReader, Read};
    let mut r = BufReader::with_capacity(64 * 1024, r.take(MAX_SKIPPED_BYTES));
    let mut skipped = 0usize;
    loop {
        // one line, kept only while it is short enough to be a sniffable record
        let mut line = Vec::new();
        let mut too_long = false;
        let mut eof = false;
        loop {
            let buf = r.fill_buf().ok()?;
            if buf.is_empty() {
                eof = true;
                break;
            }
            let (chunk, done) = match memchr::memchr(b'\n', buf) {
                Some(k) => (&buf[..=k], true),
                None => (buf, false),
            };
            if !too_long {
                if line.len() + chunk.len() > sniff_bytes {
                    too_long = true;
                    line.clear();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            let n = chunk.len();
            r.consume(n);
            if done {
                break;
            }
        }
        let text = super::jsonl::trim_start(&line);
        let blank = !too_long && text.is_empty();
        if !blank {
            let object = !too_long
                && text.first() == Some(&b'{')
                && serde_json::from_slice::<IgnoredAny>(text).is_ok();
            if object {
                if skipped == 0 {
                    return None; // the first record is fine: nothing to look past
                }
                let mut head = line;
                let room = sniff_bytes.saturating_sub(head.len());
                r.take(room as u64).read_to_end(&mut head).ok()?;
                return Some(head);
            }
            skipped += 1;
            if skipped > MAX_SKIPPED_RECORDS {
                return None;
            }
        }
        if eof {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_numbers_become_null_outside_strings() {
        let got = non_finite_to_null(
            br#"{"a": NaN, "b": [Infinity,-Infinity], "c": "NaN", "d": "x\"NaN"}"#,
        );
        let v: Value = serde_json::from_slice(&got).unwrap();
        assert_eq!(v["a"], Value::Null);
        assert_eq!(v["b"], serde_json::json!([null, null]));
        assert_eq!(v["c"], "NaN");
        assert!(matches!(
            non_finite_to_null(b"{\"a\":1}"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn heads_skip_bad_first_records() {
        let deep = "[".repeat(200_000);
        let file = format!("garbage\n{deep}\n\n{{\"sessionId\":\"s\"}}\n{{\"b\":2}}\n");
        let head = head_past_bad_records(file.as_bytes(), 64 * 1024).unwrap();
        assert!(head.starts_with(b"{\"sessionId\""));
        assert!(head.ends_with(b"{\"b\":2}\n"));
        // a good first record: nothing to skip
        assert!(head_past_bad_records(&b"{\"a\":1}\n"[..], 1024).is_none());
        // only garbage
        assert!(head_past_bad_records(&b"x\ny\n"[..], 1024).is_none());
    }

    #[test]
    fn text_head_and_full() {
        let t: Text<false> = serde_json::from_str(r#""hello""#).unwrap();
        assert_eq!(
            (t.head.as_str(), t.len, t.is_string, t.full),
            ("hello", 5, true, None)
        );
        let t: Text<true> =
            serde_json::from_str(r#"[{"type":"text","text":"a"},{"type":"image","source":{}},{"type":"text","text":"bc"}]"#)
                .unwrap();
        assert_eq!(t.full.as_deref(), Some("a\nbc"));
        assert!(!t.is_string);
        let long = format!("\"{}\"", "é".repeat(2000));
        let t: Text<false> = serde_json::from_str(&long).unwrap();
        assert!(t.head.len() <= HEAD_BYTES && t.head.len() >= HEAD_BYTES - 1);
        assert_eq!(t.len, 4000);
        let t: Text<false> = serde_json::from_str("42").unwrap();
        assert!(t.is_empty());
    }

    #[test]
    fn slim_input_keeps_action_keys() {
        let i: Input<false> = serde_json::from_str(
            r#"{"file_path":"a","content":"huge","edits":[1,2],"command":"ls"}"#,
        )
        .unwrap();
        assert_eq!(i.0, serde_json::json!({"file_path": "a", "command": "ls"}));
        let i: Input<true> = serde_json::from_str(r#"{"file_path":"a","content":"huge"}"#).unwrap();
        assert_eq!(i.0["content"], "huge");
    }

    #[test]
    fn loose_values() {
        let v: (LooseStr, LooseBool, LooseInt) =
            serde_json::from_str(r#"[{"x":1}, "true", "3"]"#).unwrap();
        assert_eq!(v, (LooseStr(None), LooseBool(false), LooseInt(Some(3))));
    }
}
