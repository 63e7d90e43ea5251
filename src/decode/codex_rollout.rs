//! Decoder for Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`,
//! formats note §2).
//!
//! Lines are `{"timestamp", "type": session_meta | response_item | event_msg |
//! turn_context | compacted | world_state, "payload": {…}}`; legacy (mid-2025)
//! files have bare Responses items and `{"record_type": "state"}` lines instead.
//!
//! - `response_item`s are the source of truth for tool calls: `function_call`
//!   (JSON-string `arguments`), `custom_tool_call` (freeform `input`, e.g. an
//!   `apply_patch` envelope), `local_shell_call` (argv). `event_msg`s duplicate
//!   them and never make events; `exec_command_end` / `patch_apply_end` only fill
//!   in an exit code or a failure the output did not carry.
//! - `function_call_output` sets `exit_code` (JSON `metadata.exit_code`, or an
//!   `Exit code: N` / `Process exited with code N` header) and `failed`.
//! - `ghost_snapshot` (an undo commit Codex makes itself) is not an agent action.
//! - A user message `<skill>\n<name>N</name>…` (what a `$N` mention injects) is a
//!   skill load of N ([`LoadVia::CodexMention`]).

use super::fastjson::{self, Cursor, Fast, GiveUp};
use super::jsonl::{self, JsonlLines};
use super::probe::{Input, KeyName, LooseStr, Text};
use super::scantext::ScanText;
use super::tools::{action_for_tool, shell_from_argv};
use super::{
    testsummary, Action, DecodeError, DecodeOptions, DecodeProblem, Decoder, Event, EventContent,
    Harness, LoadVia, Location, ProblemKind, Role, TestOutcome, Trajectory, UserTurnVia,
};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::fmt;
use std::path::Path;

pub struct CodexRolloutDecoder;

impl Decoder for CodexRolloutDecoder {
    fn format(&self) -> &'static str {
        "codex-rollout"
    }
    fn harness(&self) -> Harness {
        Harness::Codex
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        if !jsonl::looks_like_jsonl(head) {
            return 0;
        }
        let first = jsonl::first_line(head);
        let has = |tok: &[u8]| memchr::memmem::find(first, tok).is_some();
        let typed = |t: &str| {
            has(format!("\"type\":\"{t}\"").as_bytes())
                || has(format!("\"type\": \"{t}\"").as_bytes())
        };
        if has(b"\"payload\"")
            && [
                "session_meta",
                "response_item",
                "event_msg",
                "turn_context",
                "compacted",
                "world_state",
            ]
            .iter()
            .any(|t| typed(t))
        {
            return 95;
        }
        // legacy: a bare session header, then bare Responses items
        if has(b"\"instructions\"") && has(b"\"id\"") && !has(b"\"sessionId\"") {
            return 60;
        }
        if jsonl::lines_contain(head, 4, b"\"record_type\"") {
            return 60;
        }
        0
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        if opts.keep_content {
            decode_rollout::<true>(path)
        } else {
            decode_rollout::<false>(path)
        }
    }
}

/// A rollout line, or a payload: the union of the fields that matter.
#[derive(Deserialize, Default)]
struct Obj<const K: bool> {
    #[serde(rename = "type", default)]
    ty: LooseStr,
    #[serde(default)]
    timestamp: LooseStr,
    #[serde(default)]
    payload: Option<Box<Obj<K>>>,
    #[serde(default)]
    record_type: LooseStr,
    // session_meta
    #[serde(default)]
    id: LooseStr,
    #[serde(default)]
    cwd: LooseStr,
    #[serde(default)]
    cli_version: LooseStr,
    #[serde(default)]
    git: Option<GitInfo>,
    #[serde(default)]
    instructions: Option<IgnoredAny>,
    // response items
    #[serde(default)]
    role: LooseStr,
    #[serde(default)]
    content: Option<ScanText<K, false>>,
    #[serde(default)]
    name: LooseStr,
    #[serde(default)]
    namespace: LooseStr,
    #[serde(default)]
    arguments: Option<Input<K>>,
    #[serde(default)]
    input: Option<Input<K>>,
    #[serde(default)]
    call_id: LooseStr,
    #[serde(default)]
    output: Option<Output<K>>,
    #[serde(default)]
    action: Option<ShellCallAction>,
    // event_msg
    #[serde(default)]
    exit_code: Option<i64Loose>,
    #[serde(default)]
    success: Option<Value>,
}

#[allow(non_camel_case_types)]
type i64Loose = super::probe::LooseInt;

/// One rollout line as an [`Obj`]: by the fast path ([`fastjson`]) when
/// `fast` and it can vouch for the text, else serde_json (the same object,
/// or the same error).
fn parse_obj<const K: bool>(s: &str, fast: bool) -> serde_json::Result<Obj<K>> {
    if fast {
        let mut c = Cursor::new(s);
        if let Ok(o) = fast_obj(&mut c, 0) {
            if c.at_end() {
                return Ok(o);
            }
        }
    }
    serde_json::from_str(s)
}

/// [`Obj`] by the fast path: the derived `Deserialize` field by field (a
/// repeated field gives up: serde's derive rejects it), the values no field
/// reads (reasoning, instructions' text, token counts) stepped over,
/// strings and payloads read here, every other field's value by serde_json.
/// The object is inside `depth` containers.
fn fast_obj<const K: bool>(c: &mut Cursor, depth: usize) -> Fast<Obj<K>> {
    if c.peek() != Some(b'{') {
        return Err(GiveUp);
    }
    let mut o = Obj::<K>::default();
    let mut seen = 0u32;
    let d = depth + 1;
    c.object(depth, |c, key| {
        let bit = match key {
            "type" => 0,
            "timestamp" => 1,
            "payload" => 2,
            "record_type" => 3,
            "id" => 4,
            "cwd" => 5,
            "cli_version" => 6,
            "git" => 7,
            "instructions" => 8,
            "role" => 9,
            "content" => 10,
            "name" => 11,
            "namespace" => 12,
            "arguments" => 13,
            "input" => 14,
            "call_id" => 15,
            "output" => 16,
            "action" => 17,
            "exit_code" => 18,
            "success" => 19,
            _ => return c.skip(d),
        };
        if seen & (1 << bit) != 0 {
            return Err(GiveUp);
        }
        seen |= 1 << bit;
        match bit {
            0 => o.ty = loose_str(c, d)?,
            1 => o.timestamp = loose_str(c, d)?,
            2 => {
                o.payload = if c.peek() == Some(b'{') {
                    Some(Box::new(fast_obj(c, d)?))
                } else {
                    fastjson::serde(c.value(d)?)?
                }
            }
            3 => o.record_type = loose_str(c, d)?,
            4 => o.id = loose_str(c, d)?,
            5 => o.cwd = loose_str(c, d)?,
            6 => o.cli_version = loose_str(c, d)?,
            7 => o.git = fastjson::serde(c.value(d)?)?,
            8 => o.instructions = (c.value(d)? != "null").then_some(IgnoredAny),
            9 => o.role = loose_str(c, d)?,
            10 => {
                o.content = if c.peek() == Some(b'"') {
                    Some(ScanText::from_text(&c.string()?))
                } else {
                    fastjson::serde(c.value(d)?)?
                }
            }
            11 => o.name = loose_str(c, d)?,
            12 => o.namespace = loose_str(c, d)?,
            13 => o.arguments = optional_input(c, d)?,
            14 => o.input = optional_input(c, d)?,
            15 => o.call_id = loose_str(c, d)?,
            16 => {
                o.output = if c.peek() == Some(b'"') {
                    Some(output_from_str(&c.string()?))
                } else {
                    fastjson::serde(c.value(d)?)?
                }
            }
            17 => o.action = fastjson::serde(c.value(d)?)?,
            18 => o.exit_code = fastjson::serde(c.value(d)?)?,
            _ => o.success = fastjson::serde(c.value(d)?)?,
        }
        Ok(())
    })?;
    Ok(o)
}

/// [`LooseStr`] of the value at the cursor (inside `depth` containers).
fn loose_str(c: &mut Cursor, depth: usize) -> Fast<LooseStr> {
    if c.peek() == Some(b'"') {
        return Ok(LooseStr(Some(c.string()?.into_owned())));
    }
    fastjson::serde(c.value(depth)?)
}

/// An optional tool input at the cursor (inside `depth` containers): `null`
/// is none, anything else an [`Input`] read by its fast path.
fn optional_input<const K: bool>(c: &mut Cursor, depth: usize) -> Fast<Option<Input<K>>> {
    if c.peek() == Some(b'n') {
        return fastjson::serde(c.value(depth)?);
    }
    Input::fast(c, depth).map(Some)
}

#[derive(Deserialize, Default)]
struct GitInfo {
    #[serde(default)]
    branch: LooseStr,
}

/// `local_shell_call.action`.
#[derive(Deserialize, Default)]
struct ShellCallAction {
    #[serde(default)]
    command: Option<Value>,
    #[serde(default)]
    working_directory: LooseStr,
    #[serde(default)]
    url: LooseStr,
}

/// A tool call's output: its text (head, or all with `K`) and the exit code it
/// reports; with `S`, what a test runner's summary in it says. A line is read
/// without the scan, and read again with it ([`Rescan`]) only when the output
/// answers a test command: most outputs do not, and the scan of each was a
/// third of the decoder's time (docs/gate.md, "Measured", round 10).
#[derive(Default)]
struct Output<const K: bool, const S: bool = false> {
    text: Text<K>,
    exit_code: Option<i64>,
    /// A test runner's summary in the output (SPEC §5 masked failures); `None`
    /// without `S`.
    tests: Option<TestOutcome>,
}

/// A rollout line read again for its output's test-runner summary: the
/// `output` of its payload, or its own (a legacy bare item), as
/// [`State::output`] takes it.
#[derive(Deserialize)]
struct Rescan<const K: bool> {
    #[serde(default)]
    payload: Option<Box<Rescan<K>>>,
    #[serde(default)]
    output: Option<Output<K, true>>,
}

/// The test-runner summary of the output on `line` (a line already read as
/// an [`Obj`]).
fn rescan_tests<const K: bool>(line: &str) -> Option<TestOutcome> {
    let r = serde_json::from_str::<Rescan<K>>(line).ok()?;
    match r.payload {
        Some(p) => p.output,
        None => r.output,
    }?
    .tests
}

impl<'de, const K: bool, const S: bool> Deserialize<'de> for Output<K, S> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const K: bool, const S: bool>;
        impl<'de, const K: bool, const S: bool> Visitor<'de> for V<K, S> {
            type Value = Output<K, S>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tool output")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Output<K, S>, E> {
                Ok(output_from_str(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Output<K, S>, A::Error> {
                let text = Text::<K>::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
                let exit_code = exit_code_of(&text.head);
                let tests = if S { scan_text(&text) } else { None };
                Ok(Output {
                    text,
                    exit_code,
                    tests,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Output<K, S>, A::Error> {
                // {"type":"input_text","text":…} or {"output":…, "metadata":{"exit_code":…}}
                let mut out = Output::<K, S>::default();
                while let Some(key) = map.next_key::<KeyName>()? {
                    match key.0.as_ref() {
                        "text" | "output" | "content" => out.text = map.next_value()?,
                        "metadata" => {
                            let m: Value = map.next_value()?;
                            out.exit_code = m.get("exit_code").and_then(Value::as_i64);
                        }
                        "exit_code" => out.exit_code = map.next_value::<i64Loose>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                if out.exit_code.is_none() {
                    out.exit_code = exit_code_of(&out.text.head);
                }
                if S {
                    out.tests = scan_text(&out.text);
                }
                Ok(out)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Output<K, S>, E> {
                Ok(Output::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Output<K, S>, E> {
                Ok(Output::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Output<K, S>, E> {
                Ok(Output::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Output<K, S>, E> {
                Ok(Output::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Output<K, S>, E> {
                Ok(Output::default())
            }
        }
        d.deserialize_any(V::<K, S>)
    }
}

/// A string output: `shell` wraps it as JSON `{"output": …, "metadata": {"exit_code": N}}`;
/// newer tools write an `Exit code: N` header.
fn output_from_str<const K: bool, const S: bool>(s: &str) -> Output<K, S> {
    let t = s.trim_start();
    if !K {
        if let Some(body) = t.strip_prefix("{\"output\":\"") {
            // Fast path without content: the envelope's exit code sits at its end
            // and only the head of the output is needed, so the (large) inner
            // JSON is not parsed a second time. The head keeps JSON escapes.
            let exit_code = t.rfind("\"exit_code\":").and_then(|k| {
                let rest = t[k + "\"exit_code\":".len()..].trim_start();
                let end = rest
                    .find(|c: char| !(c.is_ascii_digit() || c == '-'))
                    .unwrap_or(rest.len());
                rest[..end].parse().ok()
            });
            let body = &body[..body.rfind("\",\"metadata\":").unwrap_or(body.len())];
            let mut cut = body.len().min(super::probe::HEAD_BYTES);
            while !body.is_char_boundary(cut) {
                cut -= 1;
            }
            let head = unescape_json(&body[..cut]);
            let text = Text::<K> {
                head,
                full: None,
                len: body.len(),
                is_string: true,
            };
            let exit_code = exit_code.or_else(|| exit_code_of(&text.head));
            // the runner's summary: in the head (`| head`) or at the end (`| tail`)
            let tests = if S {
                let mut from = body.len().saturating_sub(4096);
                while !body.is_char_boundary(from) {
                    from += 1;
                }
                testsummary::scan(&unescape_json(&body[from..]))
                    .or_else(|| testsummary::scan(&text.head))
            } else {
                None
            };
            return Output {
                text,
                exit_code,
                tests,
            };
        }
    }
    if t.starts_with('{') && t.contains("\"output\"") {
        #[derive(Deserialize)]
        struct Wrapped<const K: bool> {
            #[serde(default)]
            output: Text<K>,
            #[serde(default)]
            metadata: Option<Meta>,
        }
        #[derive(Deserialize)]
        struct Meta {
            #[serde(default)]
            exit_code: Option<i64>,
        }
        if let Ok(w) = serde_json::from_str::<Wrapped<K>>(t) {
            let exit_code = w
                .metadata
                .and_then(|m| m.exit_code)
                .or_else(|| exit_code_of(&w.output.head));
            let tests = if S { scan_text(&w.output) } else { None };
            return Output {
                text: w.output,
                exit_code,
                tests,
            };
        }
    }
    let text: Text<K> = Text::deserialize(de::value::StrDeserializer::<serde_json::Error>::new(s))
        .unwrap_or_default();
    let exit_code = exit_code_of(&text.head);
    Output {
        text,
        exit_code,
        tests: if S { testsummary::scan(s) } else { None },
    }
}

/// The runner's summary of a text: all of it with `K`, else its head.
fn scan_text<const K: bool>(t: &Text<K>) -> Option<TestOutcome> {
    testsummary::scan(t.full.as_deref().unwrap_or(&t.head))
}

/// The text of a JSON string body (without its quotes); a cut escape at the
/// end is dropped.
fn unescape_json(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    // the text between backslashes is copied whole
    while let Some(k) = super::fastjson::next_backslash(rest.as_bytes(), 0) {
        out.push_str(&rest[..k]);
        let mut chars = rest[k + 1..].chars();
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') | Some('f') => {}
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                if let Some(ch) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    out.push(ch);
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
        rest = chars.as_str();
    }
    out.push_str(rest);
    out
}

/// `Exit code: N` (first line) or `Process exited with code N` (header block).
fn exit_code_of(head: &str) -> Option<i64> {
    for line in head.lines().take(8) {
        let l = line.trim();
        if let Some(n) = l
            .strip_prefix("Exit code:")
            .or_else(|| l.strip_prefix("Process exited with code"))
        {
            return n.trim().parse().ok();
        }
    }
    None
}

/// What the main agent did last (for `complete`).
#[derive(Clone, Copy, PartialEq)]
enum LastTurn {
    None,
    User,
    AssistantText,
    /// An assistant text ending with a question: waiting for the user.
    AssistantQuestion,
    ToolCall,
    Aborted,
}

/// Top-level line types; `payload` types per line type that are bookkeeping.
const LINE_TYPES: &[&str] = &[
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "compacted",
    "world_state",
];

/// Injected context that arrives as a user/developer message (not a prompt).
const INJECTED: &[&str] = &[
    "<environment_context>",
    "# AGENTS.md instructions",
    "<user_instructions>",
    "<permissions instructions>",
    "<skills_instructions>",
    "<collaboration_mode>",
    "<turn_aborted>",
    "<user_shell_command>",
    "<INSTRUCTIONS>",
];

struct State<const K: bool> {
    traj: Trajectory,
    /// Lines are read by [`parse_obj`]'s fast path (`false`: serde_json only;
    /// the tests compare both).
    fast: bool,
    calls: super::FastMap<String, usize>,
    last_turn: LastTurn,
    meta_seen: bool,
    /// Calls repeated by a resumed rollout, skipped.
    repeated: usize,
}

fn decode_rollout<const K: bool>(path: &Path) -> Result<Trajectory, DecodeError> {
    decode_rollout_with::<K>(path, true)
}

fn decode_rollout_with<const K: bool>(path: &Path, fast: bool) -> Result<Trajectory, DecodeError> {
    let traj = Trajectory::new(path.to_path_buf(), Harness::Codex, "codex-rollout");
    let mut st = State::<K> {
        traj,
        fast,
        calls: super::FastMap::default(),
        last_turn: LastTurn::None,
        meta_seen: false,
        repeated: 0,
    };
    let mut lines = JsonlLines::open(path)?;
    while let Some(line) = lines.next_line()? {
        let loc = line.location();
        let mut text = "";
        let fast = st.fast;
        let Some(obj) = line.parse_with(&mut st.traj, |t| {
            text = t;
            parse_obj::<K>(t, fast)
        }) else {
            continue;
        };
        st.line(obj, loc, text);
    }
    let t = &mut st.traj;
    t.complete = st.last_turn == LastTurn::AssistantText && !t.truncated;
    if st.repeated > 0 {
        t.problems.push(DecodeProblem {
            location: Location::default(),
            kind: ProblemKind::Skipped,
            detail: format!(
                "{} call(s) repeated from resumed history (same call id) counted once",
                st.repeated
            ),
        });
    }
    Ok(st.traj)
}

impl<const K: bool> State<K> {
    fn problem(&mut self, location: Location, kind: ProblemKind, detail: String) {
        self.traj.problems.push(DecodeProblem {
            location,
            kind,
            detail,
        });
    }

    /// One rollout line, read as `obj` from `text`.
    fn line(&mut self, mut obj: Obj<K>, loc: Location, text: &str) {
        let ty = obj.ty.0.clone().unwrap_or_default();
        let ts = obj.timestamp.clone();
        match (ty.as_str(), obj.payload.take()) {
            ("session_meta", Some(p)) => self.session_meta(&p),
            ("turn_context", Some(p)) => {
                if self.traj.cwd.is_none() {
                    self.traj.cwd = p.cwd.non_empty().map(str::to_string);
                }
            }
            ("response_item", Some(p)) => self.item(*p, &ts, loc, text),
            ("event_msg", Some(p)) => self.event_msg(&p),
            ("compacted" | "world_state", _) => {} // history replacement / environment snapshot
            (t, None) if !t.is_empty() && !LINE_TYPES.contains(&t) => {
                // legacy bare Responses item
                if is_item_type(t) {
                    self.item(obj, &ts, loc, text);
                } else {
                    let name: String = t.chars().take(40).collect();
                    self.problem(
                        loc,
                        ProblemKind::UnknownRecordType,
                        format!("unknown line type `{name}`"),
                    );
                }
            }
            ("", None) => {
                if obj.record_type.0.is_some() {
                    // legacy `{"record_type":"state"}`
                } else if obj.id.0.is_some() && (obj.instructions.is_some() || obj.git.is_some()) {
                    self.session_meta(&obj); // legacy header
                } else {
                    self.problem(
                        loc,
                        ProblemKind::UnknownRecordType,
                        "line without a `type`".into(),
                    );
                }
            }
            (t, _) => {
                let name: String = t.chars().take(40).collect();
                let detail = if LINE_TYPES.contains(&t) {
                    format!("`{name}` line without a payload")
                } else {
                    format!("unknown line type `{name}`")
                };
                self.problem(loc, ProblemKind::UnknownRecordType, detail);
            }
        }
    }

    fn session_meta(&mut self, p: &Obj<K>) {
        if self.meta_seen {
            return; // later metas belong to forked / resumed parents
        }
        self.meta_seen = true;
        let t = &mut self.traj;
        t.session_id = p.id.non_empty().map(str::to_string);
        t.cwd = p.cwd.non_empty().map(str::to_string).or(t.cwd.take());
        t.harness_version = p.cli_version.non_empty().map(str::to_string);
        t.git_branch = p
            .git
            .as_ref()
            .and_then(|g| g.branch.non_empty())
            .map(str::to_string);
    }

    fn push(&mut self, mut ev: Event, ts: &LooseStr) -> usize {
        ev.timestamp = ts.non_empty().map(str::to_string);
        self.traj.events.push(ev);
        self.traj.events.len() - 1
    }

    fn item(&mut self, p: Obj<K>, ts: &LooseStr, loc: Location, line: &str) {
        let ty = p.ty.0.clone().unwrap_or_default();
        match ty.as_str() {
            "message" => self.message(p, ts, loc),
            "function_call" | "custom_tool_call" => {
                let name = p.name.0.clone().unwrap_or_default();
                let raw = p.arguments.or(p.input).map(|i| i.0).unwrap_or(Value::Null);
                // arguments are a JSON string; freeform input (a patch) stays a string
                let input = match &raw {
                    Value::String(s) if s.trim_start().starts_with('{') => {
                        serde_json::from_str(s).unwrap_or(raw)
                    }
                    _ => raw,
                };
                let action = action_for_tool(&name, &input);
                let tool = match p.namespace.non_empty() {
                    Some(ns) => format!("{ns}.{name}"),
                    None => name,
                };
                self.call(tool, action, input, p.call_id.0, ts, loc);
            }
            "local_shell_call" => {
                let a = p.action.unwrap_or_default();
                let argv: Vec<String> = match &a.command {
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(|v| v.as_str().unwrap_or_default().to_string())
                        .collect(),
                    Some(Value::String(s)) => vec!["bash".into(), "-lc".into(), s.clone()],
                    _ => Vec::new(),
                };
                let action = Action::Shell(shell_from_argv(&argv, a.working_directory.non_empty()));
                let input = serde_json::json!({ "command": argv });
                self.call(
                    "local_shell_call".into(),
                    action,
                    input,
                    p.call_id.0.or(p.id.0),
                    ts,
                    loc,
                );
            }
            "web_search_call" => {
                let action = match p.action.as_ref().and_then(|a| a.url.non_empty()) {
                    Some(url) => Action::Fetch {
                        url: url.to_string(),
                    },
                    None => Action::Other,
                };
                self.call(
                    "web_search".into(),
                    action,
                    Value::Null,
                    p.call_id.0,
                    ts,
                    loc,
                );
            }
            "tool_search_call" => self.call(
                "tool_search".into(),
                Action::Other,
                Value::Null,
                p.call_id.0,
                ts,
                loc,
            ),
            "image_generation_call" => self.call(
                "image_generation".into(),
                Action::Other,
                Value::Null,
                None,
                ts,
                loc,
            ),
            "function_call_output"
            | "custom_tool_call_output"
            | "local_shell_call_output"
            | "tool_search_output" => self.output(p, ts, loc, line),
            // reasoning, Codex's own undo snapshots, compaction markers, inter-agent messages
            "reasoning" | "ghost_snapshot" | "compaction" | "compaction_summary"
            | "agent_message" | "other" => {}
            other => {
                let name: String = other.chars().take(40).collect();
                self.problem(
                    loc,
                    ProblemKind::UnknownRecordType,
                    format!("unknown response item `{name}`"),
                );
            }
        }
    }

    fn call(
        &mut self,
        tool: String,
        action: Action,
        input: Value,
        call_id: Option<String>,
        ts: &LooseStr,
        loc: Location,
    ) {
        let mut ev = Event::new(loc, Role::Assistant, action);
        ev.tool = Some(tool);
        if K {
            ev.content = Some(Box::new(EventContent {
                tool_input: Some(input),
                ..Default::default()
            }));
        }
        let call_id = call_id.filter(|s| !s.is_empty());
        if call_id
            .as_ref()
            .is_some_and(|id| super::is_record_id(id) && self.calls.contains_key(id))
        {
            // a resumed rollout replays its history: each call id counts once (SPEC §5)
            self.repeated += 1;
            return;
        }
        let idx = self.push(ev, ts);
        if let Some(id) = call_id {
            self.calls.insert(id, idx);
        }
        self.last_turn = LastTurn::ToolCall;
    }

    fn output(&mut self, p: Obj<K>, ts: &LooseStr, loc: Location, line: &str) {
        let Some(idx) = p
            .call_id
            .non_empty()
            .and_then(|id| self.calls.get(id))
            .copied()
        else {
            self.problem(
                loc,
                ProblemKind::Skipped,
                "tool output without a matching call in this file".into(),
            );
            return;
        };
        let p_has_output = p.output.is_some();
        let out = p.output.unwrap_or_default();
        let head = out.text.head.trim_start();
        let rejected = head.contains("rejected by user") || head.starts_with("aborted by user");
        let ev = &mut self.traj.events[idx];
        ev.result_timestamp = ts.non_empty().map(str::to_string);
        if out.exit_code.is_some() {
            ev.exit_code = out.exit_code;
        }
        let verification_failed =
            head.starts_with("apply_patch verification failed") || head.starts_with("error:");
        ev.failed = ev.exit_code.is_some_and(|c| c != 0) || rejected || verification_failed;
        ev.rejected = rejected;
        if !rejected && p_has_output && testsummary::is_test_shell(ev) {
            testsummary::apply(ev, rescan_tests::<K>(line));
        }
        let answered = !ev.failed && ev.tool.as_deref().is_some_and(is_ask_tool);
        if K {
            let text = out.text.into_full();
            match &mut ev.content {
                Some(c) => c.tool_output = text,
                None => {
                    ev.content = Some(Box::new(EventContent {
                        tool_output: text,
                        ..Default::default()
                    }))
                }
            }
        }
        if answered {
            // the user's answer to `request_user_input`: a user turn at the output
            let ev = Event::new(
                loc,
                Role::User,
                Action::UserTurn {
                    via: UserTurnVia::Answer,
                    command: None,
                },
            );
            self.push(ev, ts);
            self.last_turn = LastTurn::User;
        }
    }

    fn message(&mut self, p: Obj<K>, ts: &LooseStr, loc: Location) {
        let role = p.role.0.clone().unwrap_or_default();
        let ScanText { text, facts } = p.content.unwrap_or_default();
        let head = text.head.trim_start();
        match role.as_str() {
            "user" => {
                if let Some(name) = codex_skill_injection(head) {
                    let ev = Event::new(
                        loc,
                        Role::User,
                        Action::SkillLoad {
                            name,
                            via: LoadVia::CodexMention,
                            body_sha256: facts.body.map(|b| b.sha256),
                        },
                    );
                    self.push(ev, ts);
                    return;
                }
                if text.is_empty() || INJECTED.iter().any(|m| head.starts_with(m)) {
                    return;
                }
                let via = match super::generic::session_command(head) {
                    Some(c) => (UserTurnVia::SessionCommand, Some(c.to_string())),
                    None => (UserTurnVia::Prompt, None),
                };
                let ends = via.1.is_some();
                let mut ev = Event::new(
                    loc,
                    Role::User,
                    Action::UserTurn {
                        via: via.0,
                        command: via.1,
                    },
                );
                if K {
                    ev.content = Some(Box::new(EventContent {
                        text: text.into_full(),
                        ..Default::default()
                    }));
                }
                self.push(ev, ts);
                self.last_turn = if ends {
                    LastTurn::AssistantText // the user ended the session
                } else {
                    LastTurn::User
                };
            }
            "assistant" => {
                if text.is_empty() {
                    return;
                }
                let mut ev = Event::new(loc, Role::Assistant, Action::Message);
                if K {
                    ev.content = Some(Box::new(EventContent {
                        text: text.into_full(),
                        ..Default::default()
                    }));
                }
                self.push(ev, ts);
                self.last_turn = if facts.ends_with_question {
                    LastTurn::AssistantQuestion
                } else {
                    LastTurn::AssistantText
                };
            }
            _ => {} // developer / system instructions
        }
    }

    /// `event_msg`s duplicate response items; they only fill in what the
    /// output did not say.
    fn event_msg(&mut self, p: &Obj<K>) {
        match p.ty.as_deref().unwrap_or("") {
            "exec_command_end" => {
                if let Some(idx) = p
                    .call_id
                    .non_empty()
                    .and_then(|id| self.calls.get(id))
                    .copied()
                {
                    let ev = &mut self.traj.events[idx];
                    if ev.exit_code.is_none() {
                        if let Some(c) = p.exit_code.and_then(|c| c.0) {
                            ev.exit_code = Some(c);
                            ev.failed |= c != 0;
                        }
                    }
                }
            }
            "patch_apply_end" => {
                if let Some(idx) = p
                    .call_id
                    .non_empty()
                    .and_then(|id| self.calls.get(id))
                    .copied()
                {
                    if p.success == Some(Value::Bool(false)) {
                        self.traj.events[idx].failed = true;
                    }
                }
            }
            "turn_aborted" => self.last_turn = LastTurn::Aborted,
            _ => {}
        }
    }
}

/// Codex's ask tools: their output is the user's answer.
fn is_ask_tool(name: &str) -> bool {
    matches!(
        name,
        "request_user_input" | "ask_user" | "ask_user_question"
    )
}

fn is_item_type(t: &str) -> bool {
    matches!(
        t,
        "message"
            | "reasoning"
            | "function_call"
            | "function_call_output"
            | "custom_tool_call"
            | "custom_tool_call_output"
            | "local_shell_call"
            | "local_shell_call_output"
            | "web_search_call"
            | "ghost_snapshot"
            | "compaction"
    )
}

/// `<skill>\n<name>N</name>\n<path>…</path>\n…</skill>`: the skill N.
fn codex_skill_injection(head: &str) -> Option<String> {
    let rest = head.strip_prefix("<skill>")?.trim_start();
    let rest = rest.strip_prefix("<name>")?;
    let end = rest.find("</name>")?;
    let name = rest[..end].trim();
    (!name.is_empty() && !name.contains('\n')).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        let o: Output<false> = output_from_str(
            r#"{"output":"x\n","metadata":{"exit_code":3,"duration_seconds":0.1}}"#,
        );
        assert_eq!(o.exit_code, Some(3));
        assert_eq!(o.text.head, "x\n");
        let o: Output<false> =
            output_from_str("Exit code: 1\nWall time: 0.2 seconds\nOutput:\nboom");
        assert_eq!(o.exit_code, Some(1));
        let o: Output<false> =
            output_from_str("Chunk ID: 1\nWall time: 1s\nProcess exited with code 0\nOutput:\n");
        assert_eq!(o.exit_code, Some(0));
        let o: Output<false> = output_from_str("plain");
        assert_eq!(o.exit_code, None);
        // the same answers with and without content
        let env = r#"{"output":"Exit code: 7 ignored, metadata wins","metadata":{"exit_code":-2,"duration_seconds":0.1}}"#;
        assert_eq!(output_from_str::<false, false>(env).exit_code, Some(-2));
        assert_eq!(output_from_str::<true, false>(env).exit_code, Some(-2));
        let o: Output<true> = output_from_str(r#"{"output":"a\nb","metadata":{"exit_code":0}}"#);
        assert_eq!(o.text.full.as_deref(), Some("a\nb"));
        let o: Output<false> = output_from_str(r#"{"output":"a\nb","metadata":{"exit_code":0}}"#);
        assert_eq!(o.text.head, "a\nb");
        assert_eq!(unescape_json(r#"a\"b\\c\u00e9\"#), "a\"b\\cé");
    }

    /// The run-copying unescaper reads as a character loop does, cut and
    /// odd escapes included.
    #[test]
    fn unescape_matches_a_char_loop() {
        fn by_chars(raw: &str) -> String {
            let mut out = String::new();
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c != '\\' {
                    out.push(c);
                    continue;
                }
                match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('r') => out.push('\r'),
                    Some('b') | Some('f') => {}
                    Some('u') => {
                        let hex: String = chars.by_ref().take(4).collect();
                        if let Some(ch) =
                            u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                        {
                            out.push(ch);
                        }
                    }
                    Some(other) => out.push(other),
                    None => {}
                }
            }
            out
        }
        let long = "text of some length ".repeat(3);
        for raw in [
            String::new(),
            "plain".to_string(),
            format!("{long}\\n{long}\\t\\\"q\\\\"),
            "\\u00e9\\u20ACé日\\uZZ12x\\u12".to_string(),
            "\\ud800 lone \\b\\f\\/ end\\".to_string(),
            format!("{long}\\u00"),
            "\\é after".to_string(),
        ] {
            assert_eq!(unescape_json(&raw), by_chars(&raw), "{raw:?}");
        }
    }

    /// An output read without the test scan has the text and exit code it has
    /// with it; the scan, read again from the line, finds the summary in each
    /// output form (string, `{"output": …}` envelope, content items), under a
    /// payload or in a legacy bare item.
    #[test]
    fn outputs_read_again_for_the_test_scan() {
        let red = "running 3 tests\ntest result: FAILED. 2 passed; 1 failed";
        let forms = [
            serde_json::json!(red),
            serde_json::json!(format!("Exit code: 101\nOutput:\n{red}")),
            serde_json::json!(
                serde_json::json!({"output": red, "metadata": {"exit_code": 101}}).to_string()
            ),
            serde_json::json!([{"type": "input_text", "text": red}]),
            serde_json::json!({"output": red, "metadata": {"exit_code": 101}}),
        ];
        for output in forms {
            let item = serde_json::json!({"type": "function_call_output", "call_id": "c1", "output": output});
            let line = serde_json::json!({"type": "response_item", "payload": item}).to_string();
            let bare = item.to_string();
            for text in [&line, &bare] {
                assert_eq!(
                    rescan_tests::<false>(text),
                    Some(TestOutcome::Failed),
                    "{text}"
                );
                assert_eq!(
                    rescan_tests::<true>(text),
                    Some(TestOutcome::Failed),
                    "{text}"
                );
            }
            let o = output.to_string();
            let without: Output<false> = serde_json::from_str(&o).unwrap();
            let with: Output<false, true> = serde_json::from_str(&o).unwrap();
            assert_eq!(without.tests, None);
            assert_eq!(with.tests, Some(TestOutcome::Failed), "{o}");
            assert_eq!(
                (without.text.head, without.text.len),
                (with.text.head, with.text.len)
            );
            assert_eq!(without.exit_code, with.exit_code);
        }
        // a line without an output, or not JSON: no summary
        assert_eq!(
            rescan_tests::<false>(r#"{"type":"response_item","payload":{}}"#),
            None
        );
        assert_eq!(rescan_tests::<false>("{"), None);
    }

    /// A file decoded by the Codex decoder with and without the fast path
    /// (without and with content), as JSON.
    fn both_paths(path: &Path) -> (String, String) {
        let run = |fast: bool| {
            let show = |r: Result<Trajectory, DecodeError>| match r {
                Ok(t) => serde_json::to_string(&t).unwrap(),
                Err(e) => e.to_string(),
            };
            format!(
                "{}\n{}",
                show(decode_rollout_with::<false>(path, fast)),
                show(decode_rollout_with::<true>(path, fast))
            )
        };
        (run(true), run(false))
    }

    /// Every JSONL fixture and real transcript (Codex rollouts and the
    /// others, read as rollouts) decodes the same with the fast path.
    #[test]
    fn fast_path_decodes_every_jsonl_file_as_serde_json_does() {
        let files = crate::decode::files_under(&crate::decode::SESSION_ROOTS, |p| {
            p.extension().is_some_and(|x| x == "jsonl")
        });
        let codex = files
            .iter()
            .filter(|f| f.to_string_lossy().contains("codex"))
            .count();
        assert!(files.len() > 30 && codex >= 4, "the fixtures are there");
        for f in &files {
            let (fast, slow) = both_paths(f);
            assert!(fast == slow, "{} decodes differently", f.display());
        }
    }

    #[test]
    fn fast_path_gives_up_on_what_it_cannot_vouch_for() {
        let deep = format!("{}1{}", "[".repeat(120), "]".repeat(120));
        let lines = [
            r#"{"timestamp":"t0","type":"session_meta","payload":{"id":"s1","cwd":"/r","cli_version":"0.1","git":{"branch":"main"},"instructions":null,"base_instructions":{"text":"long\n\"x\""}}}"#.to_string(),
            r#"{"timestamp":"t1","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"run the tests"}]}}"#.to_string(),
            r#"{"timestamp":"t2","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"cargo\",\"test\"]}","call_id":"c1"}}"#.to_string(),
            r#"{"timestamp":"t3","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"test result: FAILED. 1 passed; 1 failed\\n\",\"metadata\":{\"exit_code\":101}}"}}"#.to_string(),
            r#"{"timestamp":"t4","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch","call_id":"c2"}}"#.to_string(),
            r#"{"timestamp":"t5","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c2","output":[{"type":"input_text","text":"Exit code: 0"}]}}"#.to_string(),
            r#"{"timestamp":"t6","type":"response_item","payload":{"type":"local_shell_call","call_id":"c3","action":{"type":"exec","command":["ls","-la"],"working_directory":"/r"}}}"#.to_string(),
            r#"{"timestamp":"t7","type":"response_item","payload":{"type":"local_shell_call_output","call_id":"c3","output":{"output":"x","metadata":{"exit_code":2}}}}"#.to_string(),
            r#"{"timestamp":"t8","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c3","exit_code":1.5e3}}"#.to_string(),
            r#"{"timestamp":"t9","type":"event_msg","payload":{"type":"patch_apply_end","call_id":"c2","success":false}}"#.to_string(),
            r#"{"timestamp":"t10","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"QUJD\u00e9"}}"#.to_string(),
            r#"{"timestamp":"t11","type":"response_item","payload":{"type":"message","role":"assistant","content":"Done. Merge it?"}}"#.to_string(),
            r#"{"timestamp":"t12","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":null,"input":{"command":"ls"},"call_id":"c4","namespace":7}}"#.to_string(),
            // legacy forms
            r#"{"id":"s2","timestamp":"t","instructions":"be brief","git":null}"#.to_string(),
            r#"{"record_type":"state"}"#.to_string(),
            r#"{"type":"function_call","name":"shell","arguments":"{}","call_id":"c5"}"#.to_string(),
            // odd types, each value as serde_json reads it
            r#"{"type":7,"timestamp":["x"],"payload":[1,2]}"#.to_string(),
            r#"{"type":"response_item","payload":null}"#.to_string(),
            r#"{"type":"response_item","payload":"text"}"#.to_string(),
            r#"{"type":"response_item","payload":{"type":"message","role":null,"content":null}}"#.to_string(),
            // a repeated field: serde's derive rejects the line
            r#"{"type":"response_item","type":"event_msg","payload":{}}"#.to_string(),
            r#"{"type":"response_item","payload":{"type":"message","role":"user","role":"assistant"}}"#.to_string(),
            // an escaped key, a surrogate escape in a kept string and in a skipped one
            r#"{"type":"response_item","p\u0061yload":{"type":"message"}}"#.to_string(),
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":"\ud83d\ude00 hi"}}"#.to_string(),
            r#"{"type":"response_item","payload":{"type":"reasoning","x":"\ud800"}}"#.to_string(),
            // deep nesting in a skipped value
            format!(r#"{{"type":"response_item","payload":{{"type":"reasoning","x":{deep}}}}}"#),
            // broken lines: each one counted problem, as before
            r#"{"type":"response_item","payload":{"type":"message","content":"tab	inside"}}"#.to_string(),
            r#"{"type":"event_msg","x":01}"#.to_string(),
            r#"{"type":"event_msg",}"#.to_string(),
            r#"{"type":"event_msg"} trailing"#.to_string(),
            r#"["response_item"]"#.to_string(),
            r#"{"type":"response_item","payload":{"type":"message","content":"cut"#.to_string(),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        let texts = crate::decode::line_cuts(&lines);
        let mut problems = 0;
        for text in &texts {
            std::fs::write(&path, text).unwrap();
            let (fast, slow) = both_paths(&path);
            assert_eq!(fast, slow, "{text}");
            problems += fast.matches("undecodable").count();
        }
        assert!(problems > 10, "the broken lines are counted");
        let fast = |l: &str| fast_obj::<false>(&mut Cursor::new(l), 0).is_ok();
        assert!(fast(&lines[0]) && fast(&lines[2]) && fast(&lines[3]) && fast(&lines[12]));
        assert!(!fast(&lines[20]) && !fast(&lines[22]) && !fast(&lines[25]));
    }

    #[test]
    fn skill_injection() {
        assert_eq!(
            codex_skill_injection(
                "<skill>\n<name>gh-fix-ci</name>\n<path>/s/SKILL.md</path>\nbody\n</skill>"
            ),
            Some("gh-fix-ci".into())
        );
        assert_eq!(codex_skill_injection("<skills_instructions>…"), None);
    }
}
