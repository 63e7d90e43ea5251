//! Helpers shared by the decoders of the "other" formats (Gemini CLI, SWE-agent,
//! OpenHands, Inspect AI, aider, OpenAI chat, Anthropic Messages):
//!
//! - [`parse_partial`]: a tolerant JSON reader for a file's head (sniffing) and
//!   for a one-object file whose end was torn off;
//! - [`read_json_file`]: a whole one-object JSON file, torn or not;
//! - [`for_each_jsonl`]: a streaming JSONL reader that counts bad lines;
//! - message-text extraction and event-content helpers;
//! - small wrappers over the shared tool table and shell parser.

use super::fastjson::{Fast, GiveUp};
use super::model::*;
use super::sniffjson::Head;
use super::{shell, tools, DecodeError};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

/// Nesting deeper than this is refused by [`parse_partial`] (serde_json's own limit is 128).
const MAX_DEPTH: usize = 128;

/// A JSON value read from bytes that may end early.
#[derive(Debug, Clone)]
pub(crate) struct PartialJson {
    pub value: Value,
    /// The value was read to its end (false: the bytes stopped inside it).
    pub complete: bool,
}

/// Read a JSON value from `bytes`, tolerating an early end.
///
/// Where the bytes stop inside a container, the container is closed there:
/// objects keep their complete members (and a member whose container value was
/// cut, pruned the same way); arrays keep their complete elements, and also a
/// cut element when `keep_partial_elements` is set (sniffing wants to see the
/// first record of a file even when the head ends inside it; recovering a torn
/// file wants only whole records). Returns `None` for bytes that are not JSON
/// (a syntax error before the end, or nothing but whitespace).
pub(crate) fn parse_partial(bytes: &[u8], keep_partial_elements: bool) -> Option<PartialJson> {
    let (value, complete) = parse_partial_into(bytes, keep_partial_elements, &mut ValueTree)?;
    Some(PartialJson { value, complete })
}

/// [`parse_partial`] into any [`Tree`]: the value and whether it is complete.
pub(crate) fn parse_partial_into<'a, T: Tree<'a>>(
    bytes: &'a [u8],
    keep_partial_elements: bool,
    tree: &mut T,
) -> Option<(T::Node, bool)> {
    let mut p = PartialParser {
        b: bytes,
        i: 0,
        keep: keep_partial_elements,
        tree,
    };
    p.skip_bom();
    p.ws();
    if p.i >= p.b.len() {
        return None;
    }
    match p.value(0) {
        Ok(Some(v)) => Some(v),
        Ok(None) | Err(()) => None,
    }
}

/// What [`parse_partial_into`] builds: a `serde_json::Value` ([`ValueTree`]),
/// or the flat tape sniffing reads (`super::sniffjson`). The parser calls
/// these in document order: an object or array is begun before its members
/// and ended after them.
pub(crate) trait Tree<'a> {
    /// A value (or where it starts).
    type Node;
    /// An object being read.
    type Object;
    /// An array being read.
    type Array;
    fn null(&mut self) -> Self::Node;
    fn boolean(&mut self, b: bool) -> Self::Node;
    /// A number, as serde_json reads it.
    fn number(&mut self, n: Value) -> Self::Node;
    fn string(&mut self, s: Cow<'a, str>) -> Self::Node;
    fn begin_object(&mut self) -> Self::Object;
    /// A member (its value already read): serde_json's map keeps a repeated
    /// key at its first place with its last value.
    fn insert(&mut self, o: &mut Self::Object, key: Cow<'a, str>, v: Self::Node);
    fn end_object(&mut self, o: Self::Object) -> Self::Node;
    fn begin_array(&mut self) -> Self::Array;
    fn push(&mut self, a: &mut Self::Array, v: Self::Node);
    /// A value read but not kept (the last, cut, element of an array).
    fn discard(&mut self, v: Self::Node);
    fn end_array(&mut self, a: Self::Array) -> Self::Node;
}

/// [`Tree`] of `serde_json::Value`s.
pub(crate) struct ValueTree;

impl<'a> Tree<'a> for ValueTree {
    type Node = Value;
    type Object = Map<String, Value>;
    type Array = Vec<Value>;
    fn null(&mut self) -> Value {
        Value::Null
    }
    fn boolean(&mut self, b: bool) -> Value {
        Value::Bool(b)
    }
    fn number(&mut self, n: Value) -> Value {
        n
    }
    fn string(&mut self, s: Cow<'a, str>) -> Value {
        Value::String(s.into_owned())
    }
    fn begin_object(&mut self) -> Map<String, Value> {
        Map::new()
    }
    fn insert(&mut self, o: &mut Map<String, Value>, key: Cow<'a, str>, v: Value) {
        o.insert(key.into_owned(), v);
    }
    fn end_object(&mut self, o: Map<String, Value>) -> Value {
        Value::Object(o)
    }
    fn begin_array(&mut self) -> Vec<Value> {
        Vec::new()
    }
    fn push(&mut self, a: &mut Vec<Value>, v: Value) {
        a.push(v);
    }
    fn discard(&mut self, _: Value) {}
    fn end_array(&mut self, a: Vec<Value>) -> Value {
        Value::Array(a)
    }
}

struct PartialParser<'a, 't, T> {
    b: &'a [u8],
    i: usize,
    keep: bool,
    tree: &'t mut T,
}

/// `Ok(Some((v, complete)))`; `Ok(None)`: the input ended inside a scalar or
/// before a value began; `Err(())`: a syntax error.
type Parsed<N> = Result<Option<(N, bool)>, ()>;

impl<'a, T: Tree<'a>> PartialParser<'a, '_, T> {
    fn skip_bom(&mut self) {
        if self.b.starts_with(&[0xEF, 0xBB, 0xBF]) {
            self.i = 3;
        }
    }

    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eof(&self) -> bool {
        self.i >= self.b.len()
    }

    fn value(&mut self, depth: usize) -> Parsed<T::Node> {
        if depth > MAX_DEPTH {
            return Err(());
        }
        self.ws();
        if self.eof() {
            return Ok(None);
        }
        match self.b[self.i] {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => Ok(self.string()?.map(|s| (self.tree.string(s), true))),
            b't' => self
                .literal(b"true")
                .map(|r| r.map(|()| (self.tree.boolean(true), true))),
            b'f' => self
                .literal(b"false")
                .map(|r| r.map(|()| (self.tree.boolean(false), true))),
            b'n' => self
                .literal(b"null")
                .map(|r| r.map(|()| (self.tree.null(), true))),
            b'-' | b'0'..=b'9' => self.number(),
            _ => Err(()),
        }
    }

    /// `Ok(Some(()))`: the word was read.
    fn literal(&mut self, word: &[u8]) -> Result<Option<()>, ()> {
        let rest = &self.b[self.i..];
        if rest.len() < word.len() {
            return if word.starts_with(rest) {
                Ok(None)
            } else {
                Err(())
            };
        }
        if &rest[..word.len()] == word {
            self.i += word.len();
            Ok(Some(()))
        } else {
            Err(())
        }
    }

    fn number(&mut self) -> Parsed<T::Node> {
        let start = self.i;
        while self.i < self.b.len()
            && matches!(
                self.b[self.i],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.i += 1;
        }
        if self.eof() {
            // The number may continue past the end of the bytes.
            return Ok(None);
        }
        serde_json::from_slice::<Value>(&self.b[start..self.i])
            .map(|v| Some((self.tree.number(v), true)))
            .map_err(|_| ())
    }

    /// A string starting at the opening quote; `Ok(None)` when the bytes end
    /// inside it. Borrowed from the bytes when it has no escapes.
    fn string(&mut self) -> Result<Option<Cow<'a, str>>, ()> {
        let start = self.i;
        // The end found 32 bytes at a time; a string without escapes needs
        // only its UTF-8 checked. Whatever the fast path gives up on (a
        // control character, a bad escape, no end) is read as before.
        // An escaped one is unescaped by the fast path too, unless it has a
        // surrogate escape (serde_json judges those).
        if let Ok((end, esc)) = super::fastjson::string_end(self.b, start + 1) {
            if esc & super::fastjson::SURROGATE == 0 {
                self.i = end + 1;
                let Ok(s) = simdutf8::basic::from_utf8(&self.b[start + 1..end]) else {
                    return Err(());
                };
                if esc == 0 {
                    return Ok(Some(Cow::Borrowed(s)));
                }
                return super::fastjson::unescape(s)
                    .map(|s| Some(Cow::Owned(s)))
                    .map_err(|_| ());
            }
        }
        let mut j = self.i + 1;
        let mut escaped = false;
        while j < self.b.len() {
            let c = self.b[j];
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                self.i = j + 1;
                return serde_json::from_slice::<String>(&self.b[start..=j])
                    .map(|s| Some(Cow::Owned(s)))
                    .map_err(|_| ());
            }
            j += 1;
        }
        self.i = self.b.len();
        Ok(None)
    }

    fn object(&mut self, depth: usize) -> Parsed<T::Node> {
        self.i += 1;
        let mut map = self.tree.begin_object();
        loop {
            self.ws();
            if self.eof() {
                return Ok(Some((self.tree.end_object(map), false)));
            }
            match self.b[self.i] {
                b'}' => {
                    self.i += 1;
                    return Ok(Some((self.tree.end_object(map), true)));
                }
                b',' => {
                    self.i += 1;
                    continue;
                }
                b'"' => {}
                _ => return Err(()),
            }
            let Some(key) = self.string()? else {
                return Ok(Some((self.tree.end_object(map), false)));
            };
            self.ws();
            if self.eof() {
                return Ok(Some((self.tree.end_object(map), false)));
            }
            if self.b[self.i] != b':' {
                return Err(());
            }
            self.i += 1;
            match self.value(depth + 1)? {
                Some((v, true)) => {
                    self.tree.insert(&mut map, key, v);
                }
                Some((v, false)) => {
                    // A cut container keeps what it had; the object ends here.
                    self.tree.insert(&mut map, key, v);
                    return Ok(Some((self.tree.end_object(map), false)));
                }
                None => return Ok(Some((self.tree.end_object(map), false))),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Parsed<T::Node> {
        self.i += 1;
        let mut items = self.tree.begin_array();
        loop {
            self.ws();
            if self.eof() {
                return Ok(Some((self.tree.end_array(items), false)));
            }
            match self.b[self.i] {
                b']' => {
                    self.i += 1;
                    return Ok(Some((self.tree.end_array(items), true)));
                }
                b',' => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            match self.value(depth + 1)? {
                Some((v, true)) => self.tree.push(&mut items, v),
                Some((v, false)) => {
                    if self.keep {
                        self.tree.push(&mut items, v);
                    } else {
                        self.tree.discard(v);
                    }
                    return Ok(Some((self.tree.end_array(items), false)));
                }
                None => return Ok(Some((self.tree.end_array(items), false))),
            }
        }
    }
}

/// What every sniffer of one head asks for, computed once: [`parse_partial`]
/// of the head (with partial elements) and [`first_line_json`], as
/// [`Head`]s. Five
/// sniffers parse the same 64 KiB head; without this, sniffing was a sixth of
/// the gate's CPU time (docs/gate.md, "Measured").
struct SniffMemo {
    /// The head the memo is for (its address and length: the head is
    /// borrowed unchanged for the whole of [`with_sniff_memo`]).
    at: (usize, usize),
    partial: Option<Option<Rc<Head>>>,
    first_line: Option<Option<Rc<Head>>>,
}

thread_local! {
    static SNIFF_MEMO: RefCell<Option<SniffMemo>> = const { RefCell::new(None) };
}

/// Run `f` (the sniffers of `head`) with [`sniff_partial`] and
/// [`sniff_first_line`] of `head` computed at most once.
pub(crate) fn with_sniff_memo<R>(head: &[u8], f: impl FnOnce() -> R) -> R {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            SNIFF_MEMO.with(|m| *m.borrow_mut() = None);
        }
    }
    SNIFF_MEMO.with(|m| {
        *m.borrow_mut() = Some(SniffMemo {
            at: (head.as_ptr() as usize, head.len()),
            partial: None,
            first_line: None,
        })
    });
    let _clear = Clear;
    f()
}

type Slot = fn(&mut SniffMemo) -> &mut Option<Option<Rc<Head>>>;

fn memoized(head: &[u8], slot: Slot, compute: impl FnOnce() -> Option<Head>) -> Option<Rc<Head>> {
    let at = (head.as_ptr() as usize, head.len());
    let hit = SNIFF_MEMO.with(|m| match m.borrow_mut().as_mut() {
        Some(memo) if memo.at == at => slot(memo).clone(),
        _ => None,
    });
    if let Some(v) = hit {
        return v;
    }
    let v = compute().map(Rc::new);
    SNIFF_MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut().filter(|memo| memo.at == at) {
            *slot(memo) = Some(v.clone());
        }
    });
    v
}

/// `parse_partial(head, true)` as a [`Head`], once per head inside
/// [`with_sniff_memo`].
pub(crate) fn sniff_partial(head: &[u8]) -> Option<Rc<Head>> {
    memoized(head, |m| &mut m.partial, || Head::parse(head))
}

/// [`first_line_json`] of `head` as a [`Head`], once per head inside
/// [`with_sniff_memo`].
pub(crate) fn sniff_first_line(head: &[u8]) -> Option<Rc<Head>> {
    memoized(
        head,
        |m| &mut m.first_line,
        || Head::parse(first_line(head)?),
    )
}

/// The first line of `head` as JSON (tolerantly: the line may be longer than the head).
pub(crate) fn first_line_json(head: &[u8]) -> Option<PartialJson> {
    parse_partial(first_line(head)?, true)
}

/// The first line of `head` that is not blank (byte-order mark removed).
fn first_line(head: &[u8]) -> Option<&[u8]> {
    let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head);
    let start = head.iter().position(|c| !c.is_ascii_whitespace())?;
    let rest = &head[start..];
    let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    Some(&rest[..end])
}

/// A whole one-object JSON file. A file whose end was torn off is recovered up
/// to its last complete record and reported as truncated (`.1 == true`).
/// Anything else that is not JSON is a [`DecodeError`] naming line and column.
pub(crate) fn read_json_file(path: &Path) -> Result<(Value, bool), DecodeError> {
    read_json_with(path, None::<fn(&str) -> Fast<Value>>)
}

/// [`read_json_file`] with a fast path: `lean` reads the whole text into a
/// `Value` of only what the decoder asks for (see `fastjson::Cursor::value_tree`),
/// or gives up — on anything it cannot vouch for — and the file is read by
/// [`read_json_file`]'s own path, so that every result and error is the same.
pub(crate) fn read_json_file_lean(
    path: &Path,
    lean: impl FnOnce(&str) -> Fast<Value>,
) -> Result<(Value, bool), DecodeError> {
    read_json_with(path, Some(lean))
}

fn read_json_with(
    path: &Path,
    lean: Option<impl FnOnce(&str) -> Fast<Value>>,
) -> Result<(Value, bool), DecodeError> {
    let bytes = super::read_transcript(path, crate::fsutil::MAX_JSON_TRANSCRIPT_BYTES)?;
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&bytes);
    // Python's json.dump writes NaN / Infinity by default: read them as null
    let body = &*super::probe::non_finite_to_null(body);
    if let Some(lean) = lean {
        if let Ok(v) = simdutf8::basic::from_utf8(body).map_or(Err(GiveUp), lean) {
            return Ok((v, false));
        }
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(v) => Ok((v, false)),
        Err(e) if e.classify() == serde_json::error::Category::Eof => {
            match parse_partial(body, false) {
                Some(p) if !p.value.is_null() => Ok((p.value, true)),
                _ => Err(DecodeError::new(
                    path,
                    Some(e.line() as u64),
                    "file ends before any JSON value",
                )),
            }
        }
        Err(e) => Err(DecodeError::new(
            path,
            Some(e.line() as u64),
            format!(
                "not valid JSON (column {}: {})",
                e.column(),
                syntax_reason(&e)
            ),
        )),
    }
}

/// serde_json's description of a syntax error, without its position suffix.
/// (Syntax errors never quote the input, so this carries no content.)
pub(crate) fn syntax_reason(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.find(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Stream a JSONL file line by line with the shared reader
/// ([`super::jsonl::JsonlLines`]), calling `f(line_number, value, traj)` for
/// each line that parses as JSON. Blank lines are skipped; a line that is not
/// UTF-8 or not JSON is counted by the reader (a torn last line marks the
/// trajectory truncated).
pub(crate) fn for_each_jsonl(
    path: &Path,
    traj: &mut Trajectory,
    mut f: impl FnMut(u64, Value, &mut Trajectory),
) -> Result<(), DecodeError> {
    let mut lines = super::jsonl::JsonlLines::open(path)?;
    while let Some(line) = lines.next_line()? {
        if let Some(v) = line.parse::<Value>(traj) {
            f(line.number, v, traj);
        }
    }
    Ok(())
}

/// Count a problem.
pub(crate) fn problem(
    traj: &mut Trajectory,
    location: Location,
    kind: ProblemKind,
    detail: impl Into<String>,
) {
    traj.problems.push(DecodeProblem {
        location,
        kind,
        detail: detail.into(),
    });
}

/// The text of a message `content`: a string, or the `text` of its parts
/// (`{"type":"text","text":…}`, `{"text":…}`, `input_text` / `output_text`), joined by newlines.
pub(crate) fn content_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(|p| match p {
                    Value::String(s) => Some(s.as_str()),
                    Value::Object(o) => match o.get("type").and_then(Value::as_str) {
                        None | Some("text") | Some("input_text") | Some("output_text") => {
                            o.get("text").and_then(Value::as_str)
                        }
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            if texts.is_empty() {
                None
            } else {
                Some(texts.join("\n"))
            }
        }
        Value::Object(o) => o.get("text").and_then(Value::as_str).map(str::to_string),
        _ => None,
    }
}

/// True when `content` holds some non-whitespace text.
pub(crate) fn has_text(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(parts) => parts.iter().any(|p| match p {
            Value::String(s) => !s.trim().is_empty(),
            Value::Object(o) => o
                .get("text")
                .and_then(Value::as_str)
                .is_some_and(|t| !t.trim().is_empty()),
            _ => false,
        }),
        Value::Object(o) => o
            .get("text")
            .and_then(Value::as_str)
            .is_some_and(|t| !t.trim().is_empty()),
        _ => false,
    }
}

/// Event content for `keep_content`, or `None`.
pub(crate) fn keep(
    opts: &DecodeOptions,
    text: Option<String>,
    tool_input: Option<Value>,
    tool_output: Option<String>,
) -> Option<Box<EventContent>> {
    if !opts.keep_content || (text.is_none() && tool_input.is_none() && tool_output.is_none()) {
        return None;
    }
    Some(Box::new(EventContent {
        text,
        tool_input,
        tool_output,
    }))
}

/// Set the tool output of an event's content (only with `keep_content`), and
/// read a test runner's summary in it (SPEC §5 masked failures; in memory, not
/// kept). Call it after `failed` / `exit_code` are set from the record.
pub(crate) fn keep_output(opts: &DecodeOptions, ev: &mut Event, output: Option<String>) {
    if let Some(out) = &output {
        if !ev.rejected {
            super::testsummary::apply_output(ev, out);
        }
    }
    if !opts.keep_content {
        return;
    }
    if let Some(out) = output {
        ev.content.get_or_insert_with(Default::default).tool_output = Some(out);
    }
}

/// A message event.
pub(crate) fn message_event(
    location: Location,
    role: Role,
    text: Option<String>,
    opts: &DecodeOptions,
) -> Event {
    let mut ev = Event::new(location, role, Action::Message);
    ev.content = keep(opts, text, None, None);
    ev
}

/// A user turn (SPEC §4.1 `user_turn`, §5): a message the user typed. A text
/// that is a built-in session command (`/exit`, `/quit`, `/clear`, `/compact`,
/// `/compress`, `/reset`, `/new`: [`SESSION_COMMANDS`]) is that command, not a
/// prompt. `text` is read only for that test, and kept only with `keep_content`.
pub(crate) fn user_turn_event(
    location: Location,
    text: Option<String>,
    opts: &DecodeOptions,
) -> Event {
    let command = text.as_deref().and_then(session_command);
    let action = match command {
        Some(c) => Action::UserTurn {
            via: UserTurnVia::SessionCommand,
            command: Some(c.to_string()),
        },
        None => Action::UserTurn {
            via: UserTurnVia::Prompt,
            command: None,
        },
    };
    let mut ev = Event::new(location, Role::User, action);
    ev.content = keep(opts, text, None, None);
    ev
}

/// A message of `role`: a user turn for [`Role::User`], else a plain message.
pub(crate) fn role_message_event(
    location: Location,
    role: Role,
    text: Option<String>,
    opts: &DecodeOptions,
) -> Event {
    if role == Role::User {
        user_turn_event(location, text, opts)
    } else {
        message_event(location, role, text, opts)
    }
}

/// The session command a user text is (`/exit` → `exit`), if any.
pub(crate) fn session_command(text: &str) -> Option<&'static str> {
    let t = text.trim();
    let word = t.strip_prefix('/')?.split_whitespace().next()?;
    SESSION_COMMANDS.iter().copied().find(|c| *c == word)
}

/// A tool-call event: the raw name, the action, and (with `keep_content`) the input.
pub(crate) fn tool_event(
    location: Location,
    role: Role,
    name: &str,
    action: Action,
    input: &Value,
    opts: &DecodeOptions,
) -> Event {
    let mut ev = Event::new(location, role, action);
    ev.tool = Some(name.to_string());
    if opts.keep_content {
        ev.content = keep(opts, None, Some(input.clone()), None);
    }
    ev
}

/// A tool's JSON `arguments` given as a string (OpenAI style) or as an object.
/// `Err(())` for a string that is not JSON.
pub(crate) fn arguments_value(v: Option<&Value>) -> Result<Value, ()> {
    match v {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(Value::Object(Map::new())),
        Some(Value::String(s)) => serde_json::from_str(s).map_err(|_| ()),
        Some(other) => Ok(other.clone()),
    }
}

/// The first string among `keys` in `input`.
pub(crate) fn str_arg<'a>(input: &'a Value, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .filter(|s| !s.is_empty())
}

/// A shell action for `line`, with the working directory where recorded.
pub(crate) fn shell_action(line: &str, workdir: Option<&str>) -> Action {
    let mut sa = shell::parse_line(line);
    if let Some(w) = workdir.filter(|w| !w.is_empty()) {
        sa.workdir = Some(w.to_string());
    }
    Action::Shell(sa)
}

/// A single file effect.
pub(crate) fn file_action(effect: FileEffect) -> Action {
    Action::File {
        effects: vec![effect],
    }
}

/// The first `http(s)://` URL in `text`.
pub(crate) fn first_url(text: &str) -> Option<String> {
    let start = text.find("https://").or_else(|| text.find("http://"))?;
    let rest = &text[start..];
    let end = rest
        .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ')' | ']' | '`'))
        .unwrap_or(rest.len());
    let url = rest[..end].trim_end_matches(['.', ',', ';']);
    Some(url.to_string())
}

/// The action of a tool call: the shared table ([`tools::action_for_tool`]).
/// Harness-specific names it lacks are mapped in each decoder first.
pub(crate) fn tool_action(name: &str, input: &Value) -> Action {
    tools::action_for_tool(name, input)
}

/// The shell action of a `{command | cmd: string | argv, workdir?…}` input,
/// with `workdir` as the working directory when the input names none.
pub(crate) fn shell_input_action(input: &Value, workdir: Option<&str>) -> Option<Action> {
    let mut sa = tools::shell_from_input(input)?;
    if sa.workdir.is_none() {
        sa.workdir = workdir.filter(|w| !w.is_empty()).map(str::to_string);
    }
    Some(Action::Shell(sa))
}

/// Parse an "Exit Code: N" / "exit code N" figure out of a tool's output text.
pub(crate) fn exit_code_in(text: &str) -> Option<i64> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re =
        RE.get_or_init(|| regex::Regex::new(r"(?i)exit[ _]code:?\s*(-?\d+)").expect("valid regex"));
    re.captures_iter(text)
        .last()
        .and_then(|c| c[1].parse().ok())
}

/// `s` when it is an RFC 3339 timestamp; `None` otherwise (a naive local time
/// without offset is not kept: its instant is unknown).
pub(crate) fn rfc3339(s: Option<&str>) -> Option<String> {
    let s = s?;
    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()?;
    Some(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_keeps_complete_members_and_drops_cut_elements() {
        let p = parse_partial(br#"{"a":1,"list":[{"x":1},{"x":2},{"x":"cu"#, false).unwrap();
        assert!(!p.complete);
        assert_eq!(p.value, serde_json::json!({"a":1,"list":[{"x":1},{"x":2}]}));
        let p = parse_partial(br#"[{"role":"user","content":"hel"#, true).unwrap();
        assert_eq!(p.value, serde_json::json!([{"role":"user"}]));
    }

    /// Escaped strings (read by the fast path unless they hold a surrogate
    /// escape) are serde_json's strings; bad ones are still refused.
    #[test]
    fn partial_strings_are_serde_jsons() {
        let long = "w".repeat(40);
        let texts = [
            format!(
                r#"{{"k{long}": "a\nb\"c\\d\/e\tf\u00e9\u20AC {long}", "s": "\ud83d\ude00x"}}"#
            ),
            format!(r#"["{long}\n", "\"", "é\r\n日本", "\\\\"]"#),
        ];
        for t in &texts {
            let p = parse_partial(t.as_bytes(), true).unwrap();
            assert!(p.complete, "{t}");
            let want: Value = serde_json::from_str(t).unwrap();
            assert_eq!(p.value, want, "{t}");
        }
        for bad in [
            &b"[\"a\\nb\x01\"]"[..],
            &b"[\"a\\q\"]"[..],
            &b"[\"a\\n\xff\"]"[..],
            &b"[\"a\\ud800\"]"[..],
        ] {
            assert!(parse_partial(bad, true).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn partial_rejects_non_json_and_accepts_whole_values() {
        assert!(parse_partial(b"# aider chat started", true).is_none());
        assert!(parse_partial(b"   ", true).is_none());
        let p = parse_partial(br#"{"a":[true,null,-1.5e3,"x\"y"]}"#, true).unwrap();
        assert!(p.complete);
        assert_eq!(p.value, serde_json::json!({"a":[true,null,-1500.0,"x\"y"]}));
        assert!(parse_partial(b"{\"a\" 1}", true).is_none());
    }

    #[test]
    fn partial_refuses_deep_nesting_without_overflow() {
        let deep = "[".repeat(100_000);
        assert!(parse_partial(deep.as_bytes(), true).is_none());
    }

    #[test]
    fn first_url_and_exit_codes() {
        assert_eq!(
            first_url("see https://example.com/a?b=1. ok").as_deref(),
            Some("https://example.com/a?b=1")
        );
        assert_eq!(first_url("nothing here"), None);
        assert_eq!(
            exit_code_in("Output: x\\nExit Code: 1\\nSignal: 0"),
            Some(1)
        );
        assert_eq!(
            exit_code_in("[The command completed with exit code 0.]"),
            Some(0)
        );
        assert_eq!(exit_code_in("fine"), None);
    }

    #[test]
    fn timestamps_need_an_offset() {
        assert_eq!(
            rfc3339(Some("2025-05-12T20:27:39.762878-04:00")).as_deref(),
            Some("2025-05-12T20:27:39.762878-04:00")
        );
        assert_eq!(
            rfc3339(Some("2026-04-29T21:39:35.125Z")).as_deref(),
            Some("2026-04-29T21:39:35.125Z")
        );
        assert_eq!(rfc3339(Some("2025-01-20T20:29:35.040676")), None);
        assert_eq!(rfc3339(None), None);
    }
}
