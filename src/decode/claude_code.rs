//! Decoder for Claude Code session JSONL (`~/.claude/projects/<p>/<session>.jsonl`),
//! versions 1.0.x to 2.1.x (formats note §1).
//!
//! The record handling here ([`ClaudeRecords`]) is shared with the `logs/chat.json`
//! export (a JSON array of the same records) and with `claude -p
//! --output-format stream-json`.
//!
//! - One content block per assistant record: every `tool_use` is one event;
//!   `text` blocks are [`Action::Message`] events.
//! - `tool_result` blocks are matched to their call by `tool_use_id` and set
//!   `failed` / `rejected` / `exit_code` / `result_timestamp` on the call's event.
//! - `isSidechain` records (≤1.0.x subagents) and new-layout
//!   `<session>/subagents/agent-<id>.jsonl` files are subagent events.
//! - Skill loads: the `Skill` tool, the injected "Base directory for this skill"
//!   body (after a slash command: [`LoadVia::SlashCommand`]), `invoked_skills`
//!   attachments.
//! - Bookkeeping records are recognised and ignored; an unknown record type is
//!   counted as [`ProblemKind::UnknownRecordType`].

use super::fastjson::{self, Cursor, Fast, GiveUp};
use super::jsonl::{self, JsonlLines};
use super::probe::{Input, KeyName, LooseBool, LooseStr};
use super::scantext::{ScanText, TextFacts};
use super::tools::action_for_tool;
use super::{
    testsummary, Action, AgentPath, DecodeError, DecodeOptions, DecodeProblem, Decoder, Event,
    EventContent, FastMap, Harness, LoadVia, Location, ProblemKind, Role, Trajectory, UserTurnVia,
    SESSION_COMMANDS,
};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::path::{Path, PathBuf};

pub struct ClaudeCodeDecoder;

impl Decoder for ClaudeCodeDecoder {
    fn format(&self) -> &'static str {
        "claude-code-jsonl"
    }
    fn harness(&self) -> Harness {
        Harness::ClaudeCode
    }
    fn max_sniff(&self) -> u8 {
        90
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        if !jsonl::looks_like_jsonl(head) {
            return 0;
        }
        let lines = jsonl::first_lines(head, 8);
        let has = |tok: &[u8]| memchr::memmem::find(lines, tok).is_some();
        if has(b"\"parent_tool_use_id\"")
            || has(b"\"claude_code_version\"")
            || has(b"\"projectHash\"")
        {
            return 0; // stream-json, Gemini CLI
        }
        if has(b"\"sessionId\"")
            || has(b"\"parentUuid\"")
            || has(b"\"leafUuid\"")
            || has(b"\"isSidechain\"")
        {
            90
        } else if has(b"\"file-history-snapshot\"") || has(b"\"queue-operation\"") {
            80
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        if opts.keep_content {
            decode_session::<true>(path)
        } else {
            decode_session::<false>(path)
        }
    }
}

fn decode_session<const K: bool>(path: &Path) -> Result<Trajectory, DecodeError> {
    let traj = Trajectory::new(path.to_path_buf(), Harness::ClaudeCode, "claude-code-jsonl");
    let mut st = ClaudeRecords::<K>::new(traj, None);
    read_jsonl_into(path, &mut st)?;
    attach_subagent_files(path, &mut st)?;
    Ok(st.finish())
}

/// Feed every line of a JSONL file to the record handler.
pub(crate) fn read_jsonl_into<const K: bool>(
    path: &Path,
    st: &mut ClaudeRecords<K>,
) -> Result<(), DecodeError> {
    let mut lines = JsonlLines::open(path)?;
    while let Some(line) = lines.next_line()? {
        let mut loc = line.location();
        loc.file = st.file.clone();
        let fast = st.fast;
        if let Some(rec) = line.parse_with(&mut st.traj, |s| parse_record::<K, false>(s, fast)) {
            st.record_scanning_if_needed(rec, loc, line.bytes);
        } else if let Some(p) = st.traj.problems.last_mut() {
            p.location.file = st.file.clone();
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- records

/// [`LooseStr`] borrowed from the record's text where it can be (a string
/// without escapes): most of a record's string fields are ids, times and
/// paths that are read and dropped, so they are not copied.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Str<'a>(Option<Cow<'a, str>>);

impl Str<'_> {
    pub(crate) fn as_deref(&self) -> Option<&str> {
        self.0.as_deref()
    }
    /// The string when present and not empty.
    pub(crate) fn non_empty(&self) -> Option<&str> {
        self.0.as_deref().filter(|s| !s.is_empty())
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Str<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Str<'a>, E> {
                Ok(Str(Some(Cow::Borrowed(s))))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Str<'a>, E> {
                Ok(Str(Some(Cow::Owned(s.to_string()))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Str<'a>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Str(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Str<'a>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Str(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Str<'a>, E> {
                Ok(Str(None))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Str<'a>, E> {
                Ok(Str(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Str<'a>, E> {
                Ok(Str(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Str<'a>, E> {
                Ok(Str(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Str<'a>, E> {
                Ok(Str(None))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl From<LooseStr> for Str<'_> {
    fn from(s: LooseStr) -> Self {
        Str(s.0.map(Cow::Owned))
    }
}

/// One Claude Code record (session file, chat.json element or stream-json line).
/// Every field is optional and loosely typed: an odd value is no value.
#[derive(Deserialize, Default)]
/// `T`: tool results are scanned for a test runner's summary (only those of a
/// test command need it: see [`ClaudeRecords::needs_test_scan`]).
pub(crate) struct Record<'a, const K: bool, const T: bool = true> {
    #[serde(rename = "type", default, borrow)]
    ty: Str<'a>,
    #[serde(default, borrow)]
    subtype: Str<'a>,
    #[serde(default, borrow)]
    uuid: Str<'a>,
    #[serde(rename = "parentUuid", default, borrow)]
    parent_uuid: Str<'a>,
    #[serde(rename = "sessionId", default, borrow)]
    session_id: Str<'a>,
    /// stream-json spelling.
    #[serde(rename = "session_id", default, borrow)]
    session_id_snake: Str<'a>,
    #[serde(default, borrow)]
    timestamp: Str<'a>,
    #[serde(default, borrow)]
    cwd: Str<'a>,
    #[serde(rename = "gitBranch", default, borrow)]
    git_branch: Str<'a>,
    #[serde(default, borrow)]
    version: Str<'a>,
    #[serde(default, borrow)]
    claude_code_version: Str<'a>,
    #[serde(rename = "isSidechain", default)]
    is_sidechain: LooseBool,
    #[serde(rename = "isMeta", default)]
    is_meta: LooseBool,
    #[serde(rename = "isCompactSummary", default)]
    is_compact_summary: LooseBool,
    #[serde(rename = "agentId", default, borrow)]
    agent_id: Str<'a>,
    #[serde(rename = "sourceToolUseID", default, borrow)]
    source_tool_use_id: Str<'a>,
    #[serde(default, borrow)]
    parent_tool_use_id: Str<'a>,
    #[serde(default, borrow)]
    message: Option<Message<'a, K, T>>,
    #[serde(rename = "toolUseResult", default)]
    tool_use_result: Option<ToolUseResult>,
    #[serde(rename = "tool_use_result", default)]
    tool_use_result_snake: Option<ToolUseResult>,
    #[serde(default)]
    attachment: Option<Attachment>,
    #[serde(default)]
    is_error: LooseBool,
}

#[derive(Deserialize, Default)]
struct Message<'a, const K: bool, const T: bool> {
    #[serde(default, borrow)]
    model: Str<'a>,
    #[serde(default, borrow)]
    content: Content<'a, K, T>,
}

/// A message text (its end and an injected skill body are looked at).
type MsgText<const K: bool> = ScanText<K, false>;
/// A tool result's text (a test runner's summary is looked for).
type OutText<const K: bool, const T: bool> = ScanText<K, T>;

/// `message.content`: a string or a list of blocks.
enum Content<'a, const K: bool, const T: bool> {
    Text(MsgText<K>),
    Blocks(Vec<Block<'a, K, T>>),
}

impl<const K: bool, const T: bool> Default for Content<'_, K, T> {
    fn default() -> Self {
        Content::Blocks(Vec::new())
    }
}

impl<'de: 'a, 'a, const K: bool, const T: bool> Deserialize<'de> for Content<'a, K, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a, const K: bool, const T: bool>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a, const K: bool, const T: bool> Visitor<'de> for V<'a, K, T> {
            type Value = Content<'a, K, T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("message content")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Content<'a, K, T>, E> {
                Ok(Content::Text(ScanText::from_text(s)))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Content<'a, K, T>, A::Error> {
                let mut blocks = Vec::new();
                while let Some(b) = seq.next_element::<Block<K, T>>()? {
                    blocks.push(b);
                }
                Ok(Content::Blocks(blocks))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Content<'a, K, T>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Content<'a, K, T>, E> {
                Ok(Content::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Content<'a, K, T>, E> {
                Ok(Content::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Content<'a, K, T>, E> {
                Ok(Content::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Content<'a, K, T>, E> {
                Ok(Content::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Content<'a, K, T>, E> {
                Ok(Content::default())
            }
        }
        d.deserialize_any(V::<K, T>(std::marker::PhantomData))
    }
}

/// One content block; unknown keys (thinking text, signatures, images) are skipped.
#[derive(Default)]
struct Block<'a, const K: bool, const T: bool> {
    ty: Str<'a>,
    text: Option<MsgText<K>>,
    id: Str<'a>,
    name: Str<'a>,
    input: Option<Input<K>>,
    tool_use_id: Str<'a>,
    content: Option<OutText<K, T>>,
    is_error: LooseBool,
}

impl<'de: 'a, 'a, const K: bool, const T: bool> Deserialize<'de> for Block<'a, K, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a, const K: bool, const T: bool>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a, const K: bool, const T: bool> Visitor<'de> for V<'a, K, T> {
            type Value = Block<'a, K, T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a content block")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Block<'a, K, T>, A::Error> {
                let mut b = Block::<'a, K, T>::default();
                while let Some(key) = map.next_key::<KeyName>()? {
                    match key.0.as_ref() {
                        "type" => b.ty = map.next_value()?,
                        "text" => b.text = Some(map.next_value()?),
                        "id" => b.id = map.next_value()?,
                        "name" => b.name = map.next_value()?,
                        "input" => b.input = Some(map.next_value()?),
                        "tool_use_id" => b.tool_use_id = map.next_value()?,
                        "content" => b.content = Some(map.next_value()?),
                        "is_error" => b.is_error = map.next_value()?,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(b)
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Block<'a, K, T>, E> {
                // a bare string in a content list: a text block
                Ok(Block {
                    ty: Str(Some(Cow::Borrowed("text"))),
                    text: Some(ScanText::from_text(s)),
                    ..Default::default()
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Block<'a, K, T>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Block::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Block<'a, K, T>, E> {
                Ok(Block::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Block<'a, K, T>, E> {
                Ok(Block::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Block<'a, K, T>, E> {
                Ok(Block::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Block<'a, K, T>, E> {
                Ok(Block::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Block<'a, K, T>, E> {
                Ok(Block::default())
            }
        }
        d.deserialize_any(V::<K, T>(std::marker::PhantomData))
    }
}

/// `toolUseResult`: a string on rejections and errors, else an object of which
/// only a few keys matter.
#[derive(Default, Debug)]
struct ToolUseResult {
    /// The head of a string result (`"Error: The user doesn't want to proceed…"`).
    string_head: Option<String>,
    agent_id: Option<String>,
    interrupted: bool,
}

impl<'de> Deserialize<'de> for ToolUseResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ToolUseResult;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tool result")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ToolUseResult, E> {
                let mut cut = s.len().min(256);
                while !s.is_char_boundary(cut) {
                    cut -= 1;
                }
                Ok(ToolUseResult {
                    string_head: Some(s[..cut].to_string()),
                    ..Default::default()
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolUseResult, A::Error> {
                let mut r = ToolUseResult::default();
                while let Some(key) = map.next_key::<KeyName>()? {
                    match key.0.as_ref() {
                        "agentId" => r.agent_id = map.next_value::<LooseStr>()?.0,
                        "interrupted" => r.interrupted = map.next_value::<LooseBool>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(r)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ToolUseResult, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ToolUseResult::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<ToolUseResult, E> {
                Ok(ToolUseResult::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<ToolUseResult, E> {
                Ok(ToolUseResult::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<ToolUseResult, E> {
                Ok(ToolUseResult::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<ToolUseResult, E> {
                Ok(ToolUseResult::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<ToolUseResult, E> {
                Ok(ToolUseResult::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// `attachment`: its type, for `invoked_skills` the skill names, for
/// `queued_command` (a prompt the user typed while the agent worked) whether it
/// came from a background task instead of the user.
#[derive(Default)]
struct Attachment {
    ty: Option<String>,
    skills: Vec<String>,
    command_mode: Option<String>,
    /// `origin` names a sending task / agent (`senderTaskId`, `from`).
    from_task: bool,
}

impl<'de> Deserialize<'de> for Attachment {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Attachment;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an attachment")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Attachment, A::Error> {
                let mut a = Attachment::default();
                while let Some(key) = map.next_key::<KeyName>()? {
                    match key.0.as_ref() {
                        "type" => a.ty = map.next_value::<LooseStr>()?.0,
                        "skills" => a.skills = map.next_value::<SkillNames>()?.0,
                        "commandMode" => a.command_mode = map.next_value::<LooseStr>()?.0,
                        "origin" => {
                            let o = map.next_value::<serde_json::Value>()?;
                            a.from_task =
                                o.get("senderTaskId").is_some() || o.get("from").is_some();
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(a)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Attachment, E> {
                Ok(Attachment::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Attachment, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Attachment::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Attachment, E> {
                Ok(Attachment::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// `skills: [{"name": …, "path": …, "content": …}]` or `["name", …]`: the names.
struct SkillNames(Vec<String>);

impl<'de> Deserialize<'de> for SkillNames {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct One(Option<String>);
        impl<'de> Deserialize<'de> for One {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = One;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a skill")
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<One, E> {
                        Ok(One(Some(s.to_string())))
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<One, A::Error> {
                        let mut name = None;
                        while let Some(key) = map.next_key::<KeyName>()? {
                            if key.0 == "name" {
                                name = map.next_value::<LooseStr>()?.0;
                            } else {
                                map.next_value::<IgnoredAny>()?;
                            }
                        }
                        Ok(One(name))
                    }
                    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<One, A::Error> {
                        while seq.next_element::<IgnoredAny>()?.is_some() {}
                        Ok(One(None))
                    }
                    fn visit_unit<E: de::Error>(self) -> Result<One, E> {
                        Ok(One(None))
                    }
                    fn visit_bool<E: de::Error>(self, _: bool) -> Result<One, E> {
                        Ok(One(None))
                    }
                    fn visit_i64<E: de::Error>(self, _: i64) -> Result<One, E> {
                        Ok(One(None))
                    }
                    fn visit_u64<E: de::Error>(self, _: u64) -> Result<One, E> {
                        Ok(One(None))
                    }
                    fn visit_f64<E: de::Error>(self, _: f64) -> Result<One, E> {
                        Ok(One(None))
                    }
                }
                d.deserialize_any(V)
            }
        }
        match Option::<Vec<One>>::deserialize(d) {
            Ok(v) => Ok(SkillNames(
                v.unwrap_or_default()
                    .into_iter()
                    .filter_map(|o| o.0)
                    .collect(),
            )),
            Err(e) => Err(e),
        }
    }
}

// ---------------------------------------------------------------- fast path

/// One record from its JSON text: the fast path ([`fastjson`]) when `fast`
/// and it can vouch for the text, else serde_json (the same record, or the
/// same error).
pub(crate) fn parse_record<const K: bool, const T: bool>(
    s: &str,
    fast: bool,
) -> serde_json::Result<Record<'_, K, T>> {
    if fast {
        if let Ok(r) = fast_record(s) {
            return Ok(r);
        }
    }
    serde_json::from_str(s)
}

/// [`Record`] by the fast path: the derived `Deserialize` field by field
/// (a duplicate field gives up: serde's derive rejects it), the bulky values
/// no decision needs (`toolUseResult`'s outputs and file contents, progress
/// `data`, usage, thinking signatures) stepped over.
fn fast_record<const K: bool, const T: bool>(s: &str) -> Fast<Record<'_, K, T>> {
    let mut c = Cursor::new(s);
    let r = record_at(&mut c)?;
    if !c.at_end() {
        return Err(GiveUp);
    }
    Ok(r)
}

/// [`fast_record`] of the object at the cursor (a `chat.json` element: one
/// level deeper than a session line, which counts against
/// [`fastjson::MAX_DEPTH`] one level early, never late).
pub(crate) fn record_at<'a, const K: bool, const T: bool>(
    c: &mut Cursor<'a>,
) -> Fast<Record<'a, K, T>> {
    let mut r = Record::<'a, K, T>::default();
    let mut seen = 0u32;
    if c.peek() != Some(b'{') {
        return Err(GiveUp);
    }
    c.object(0, |c, key| {
        let bit = match key {
            "type" => 0,
            "subtype" => 1,
            "uuid" => 2,
            "parentUuid" => 3,
            "sessionId" => 4,
            "session_id" => 5,
            "timestamp" => 6,
            "cwd" => 7,
            "gitBranch" => 8,
            "version" => 9,
            "claude_code_version" => 10,
            "isSidechain" => 11,
            "isMeta" => 12,
            "isCompactSummary" => 13,
            "agentId" => 14,
            "sourceToolUseID" => 15,
            "parent_tool_use_id" => 16,
            "message" => 17,
            "toolUseResult" => 18,
            "tool_use_result" => 19,
            "attachment" => 20,
            "is_error" => 21,
            _ => return c.skip(1),
        };
        if seen & (1 << bit) != 0 {
            return Err(GiveUp);
        }
        seen |= 1 << bit;
        match bit {
            0 => r.ty = loose_str_at(c, 1)?,
            1 => r.subtype = loose_str_at(c, 1)?,
            2 => r.uuid = loose_str_at(c, 1)?,
            3 => r.parent_uuid = loose_str_at(c, 1)?,
            4 => r.session_id = loose_str_at(c, 1)?,
            5 => r.session_id_snake = loose_str_at(c, 1)?,
            6 => r.timestamp = loose_str_at(c, 1)?,
            7 => r.cwd = loose_str_at(c, 1)?,
            8 => r.git_branch = loose_str_at(c, 1)?,
            9 => r.version = loose_str_at(c, 1)?,
            10 => r.claude_code_version = loose_str_at(c, 1)?,
            11 => r.is_sidechain = loose_bool(c.value(1)?)?,
            12 => r.is_meta = loose_bool(c.value(1)?)?,
            13 => r.is_compact_summary = loose_bool(c.value(1)?)?,
            14 => r.agent_id = loose_str_at(c, 1)?,
            15 => r.source_tool_use_id = loose_str_at(c, 1)?,
            16 => r.parent_tool_use_id = loose_str_at(c, 1)?,
            17 => r.message = fast_message(c)?,
            18 => r.tool_use_result = fast_tool_use_result(c)?,
            19 => r.tool_use_result_snake = fast_tool_use_result(c)?,
            20 => r.attachment = fastjson::serde(c.value(1)?)?,
            _ => r.is_error = loose_bool(c.value(1)?)?,
        }
        Ok(())
    })?;
    Ok(r)
}

/// `message` (depth 1): `model` and `content`.
fn fast_message<'a, const K: bool, const T: bool>(
    c: &mut Cursor<'a>,
) -> Fast<Option<Message<'a, K, T>>> {
    if c.peek() != Some(b'{') {
        return fastjson::serde(c.value(1)?);
    }
    let mut m = Message::<'a, K, T>::default();
    let mut seen = 0u8;
    c.object(1, |c, key| {
        let bit = match key {
            "model" => 1,
            "content" => 2,
            _ => return c.skip(2),
        };
        if seen & bit != 0 {
            return Err(GiveUp);
        }
        seen |= bit;
        if bit == 1 {
            m.model = loose_str_at(c, 2)?;
        } else {
            m.content = fast_content(c)?;
        }
        Ok(())
    })?;
    Ok(Some(m))
}

/// `message.content` (depth 2): a list of blocks.
fn fast_content<'a, const K: bool, const T: bool>(c: &mut Cursor<'a>) -> Fast<Content<'a, K, T>> {
    if c.peek() == Some(b'"') {
        return Ok(Content::Text(ScanText::from_text(&c.string()?)));
    }
    if c.peek() != Some(b'[') {
        return fastjson::serde(c.value(2)?);
    }
    // one block is the usual content (a session writes one per record)
    let mut blocks = Vec::with_capacity(1);
    c.array(2, |c| {
        blocks.push(if c.peek() == Some(b'{') {
            fast_block(c)?
        } else {
            fastjson::serde(c.value(3)?)?
        });
        Ok(())
    })?;
    Ok(Content::Blocks(blocks))
}

/// One content block (depth 3), as [`Block`]'s visitor reads it (the last
/// of a repeated key wins).
fn fast_block<'a, const K: bool, const T: bool>(c: &mut Cursor<'a>) -> Fast<Block<'a, K, T>> {
    let mut b = Block::<'a, K, T>::default();
    c.object(3, |c, key| {
        match key {
            "type" => b.ty = loose_str_at(c, 4)?,
            "text" => b.text = Some(scan_text(c, 4)?),
            "id" => b.id = loose_str_at(c, 4)?,
            "name" => b.name = loose_str_at(c, 4)?,
            "input" => b.input = Some(Input::fast(c, 4)?),
            "tool_use_id" => b.tool_use_id = loose_str_at(c, 4)?,
            "content" => b.content = Some(result_content(c, 4)?),
            "is_error" => b.is_error = loose_bool(c.value(4)?)?,
            _ => c.skip(4)?,
        }
        Ok(())
    })?;
    Ok(b)
}

/// `toolUseResult` (depth 1): an object's `agentId` and `interrupted`.
fn fast_tool_use_result(c: &mut Cursor) -> Fast<Option<ToolUseResult>> {
    if c.peek() != Some(b'{') {
        return fastjson::serde(c.value(1)?);
    }
    let mut r = ToolUseResult::default();
    c.object(1, |c, key| {
        match key {
            "agentId" => r.agent_id = loose_str_at(c, 2)?.0.map(Cow::into_owned),
            "interrupted" => r.interrupted = loose_bool(c.value(2)?)?.0,
            _ => c.skip(2)?,
        }
        Ok(())
    })?;
    Ok(Some(r))
}

/// A [`ScanText`] value (inside `depth` containers): a string in one pass
/// (what its visitor's `visit_str` does), anything else by serde_json.
fn scan_text<const K: bool, const OUT: bool>(
    c: &mut Cursor,
    depth: usize,
) -> Fast<ScanText<K, OUT>> {
    if c.peek() == Some(b'"') {
        Ok(ScanText::from_text(&c.string()?))
    } else {
        fastjson::serde(c.value(depth)?)
    }
}

/// A tool result's `content` (inside `depth` containers). Kept (`K`) or
/// scanned for a test runner's summary (`T`), it is a [`scan_text`];
/// otherwise [`ClaudeRecords::tool_result`] reads only its head, so a string
/// is unescaped only as far as its head ([`ScanText::head_only`]: the
/// outputs Claude Code quotes are the longest escaped strings of a session).
fn result_content<const K: bool, const T: bool>(
    c: &mut Cursor,
    depth: usize,
) -> Fast<ScanText<K, T>> {
    if K || T || c.peek() != Some(b'"') {
        return scan_text(c, depth);
    }
    let (raw, esc) = c.raw_string()?;
    if esc == 0 {
        return Ok(ScanText::head_only(raw, raw.len()));
    }
    if esc & fastjson::SURROGATE != 0 {
        return Err(GiveUp); // as `Cursor::string` does: serde_json decides
    }
    let head = fastjson::unescape_prefix(raw, super::probe::HEAD_BYTES)?;
    Ok(ScanText::head_only(&head, raw.len()))
}

/// [`LooseStr`] of the value at the cursor (inside `depth` containers): a
/// string read by [`Cursor::string`] (its end and escapes found in one
/// pass), anything else as [`loose_str`] reads its text.
fn loose_str_at<'a>(c: &mut Cursor<'a>, depth: usize) -> Fast<Str<'a>> {
    if c.peek() == Some(b'"') {
        return Ok(Str(Some(c.string()?)));
    }
    loose_str(c.value(depth)?)
}

/// [`LooseStr`] of a value's text.
fn loose_str(raw: &str) -> Fast<Str<'_>> {
    match fastjson::plain_str(raw) {
        Some(s) => Ok(Str(Some(Cow::Borrowed(s)))),
        None => fastjson::serde(raw),
    }
}

/// [`LooseBool`] of a value's text.
fn loose_bool(raw: &str) -> Fast<LooseBool> {
    match raw {
        "true" => Ok(LooseBool(true)),
        "false" | "null" => Ok(LooseBool(false)),
        _ => fastjson::serde(raw),
    }
}

// ---------------------------------------------------------------- state

/// Record types that are bookkeeping (recognised, no event).
const BOOKKEEPING: &[&str] = &[
    "summary",
    "file-history-snapshot",
    "progress",
    "queue-operation",
    "last-prompt",
    "custom-title",
    "ai-title",
    "agent-name",
    "pr-link",
    "permission-mode",
    "mode",
    "worktree-state",
    "atis-latch",
    "bridge-session",
    "frame-link",
    "relocated",
    "started",
    "tag",
    // stream-json
    "stream_event",
    "rate_limit_event",
    "control_request",
    "control_response",
    "keep_alive",
];

/// What the main agent's conversation did last (for `complete`, SPEC §5).
#[derive(Debug, Clone, Copy, PartialEq)]
enum LastTurn {
    None,
    /// A user prompt or a tool result: the agent owes a reply.
    User,
    /// A final assistant text.
    AssistantText,
    /// An assistant text that ends with a question: the session waits for the user.
    AssistantQuestion,
    /// A tool call without its result yet.
    ToolUse,
    /// The user's `/exit`, `/clear`, `/compact` (a [`SESSION_COMMANDS`] command).
    EndCommand,
}

/// Claude Code's built-in commands that do not prompt the model (settings,
/// views): a user action, not a user turn, and not the end of a session.
const UI_COMMANDS: &[&str] = &[
    "model",
    "effort",
    "ide",
    "mcp",
    "skills",
    "config",
    "settings",
    "cost",
    "status",
    "help",
    "login",
    "logout",
    "permissions",
    "allowed-tools",
    "memory",
    "resume",
    "continue",
    "rewind",
    "vim",
    "theme",
    "doctor",
    "context",
    "usage",
    "hooks",
    "agents",
    "plugin",
    "plugins",
    "add-dir",
    "export",
    "statusline",
    "terminal-setup",
    "bashes",
    "tasks",
    "todos",
    "output-style",
    "privacy-settings",
    "release-notes",
    "upgrade",
    "fast",
    "sandbox",
    "stats",
    "feedback",
    "bug",
    "install-github-app",
    "migrate-installer",
    "exit-plan",
    "rename",
    "copy",
];

/// The shared Claude Code record handler: feed it records in file order, then
/// call [`ClaudeRecords::finish`].
pub(crate) struct ClaudeRecords<const K: bool> {
    pub(crate) traj: Trajectory,
    /// The file events come from, when not the trajectory's own path.
    pub(crate) file: Option<PathBuf>,
    /// All events are this subagent's (new-layout subagent files).
    forced_agent: Option<String>,
    /// tool_use id → event index.
    calls: FastMap<String, usize>,
    /// Task/Agent calls whose sidechain has not started yet (old layout).
    /// (event index, head of the Task prompt) of Task calls without a sidechain yet.
    pending_tasks: VecDeque<(usize, String)>,
    /// sidechain record uuid → subagent id.
    sidechain_agent: FastMap<String, String>,
    /// subagent id (`agentId` of a Task result) → the Task event index.
    pub(crate) agent_calls: FastMap<String, usize>,
    /// The last slash command (`<command-name>/x</command-name>`), by record
    /// number, and whether it had arguments.
    pending_slash: Option<(String, u64, bool)>,
    /// The last Skill-tool load: (name, record number, tool_use id, had arguments).
    last_skill_tool: Option<(String, u64, Option<String>, bool)>,
    /// The last skill-load event (from the Skill tool), to receive the body's hash.
    last_skill_event: Option<usize>,
    record_no: u64,
    last_turn: LastTurn,
    /// Record uuids seen: a resumed session repeats earlier records (SPEC §5).
    seen_uuids: super::SeenIds,
    /// Repeated records skipped, and where the first was.
    repeated: usize,
    first_repeat: Option<Location>,
    /// stream-json `result` record: (success, record number).
    result_record: Option<bool>,
    /// Records are read by [`parse_record`]'s fast path (`false`: serde_json
    /// only; the tests compare both).
    pub(crate) fast: bool,
}

impl<const K: bool> ClaudeRecords<K> {
    pub(crate) fn new(traj: Trajectory, forced_agent: Option<String>) -> Self {
        ClaudeRecords {
            traj,
            file: None,
            forced_agent,
            calls: FastMap::default(),
            pending_tasks: VecDeque::new(),
            sidechain_agent: FastMap::default(),
            agent_calls: FastMap::default(),
            pending_slash: None,
            last_skill_tool: None,
            last_skill_event: None,
            record_no: 0,
            last_turn: LastTurn::None,
            seen_uuids: super::SeenIds::default(),
            repeated: 0,
            first_repeat: None,
            result_record: None,
            fast: true,
        }
    }

    fn problem(&mut self, location: Location, kind: ProblemKind, detail: impl Into<String>) {
        self.traj.problems.push(DecodeProblem {
            location,
            kind,
            detail: detail.into(),
        });
    }

    fn metadata<const T: bool>(&mut self, r: &Record<'_, K, T>) {
        if self.forced_agent.is_some() {
            return;
        }
        let t = &mut self.traj;
        if t.session_id.is_none() {
            t.session_id = r
                .session_id
                .non_empty()
                .or(r.session_id_snake.non_empty())
                .map(str::to_string);
        }
        if t.cwd.is_none() {
            t.cwd = r.cwd.non_empty().map(str::to_string);
        }
        if t.git_branch.is_none() {
            t.git_branch = r.git_branch.non_empty().map(str::to_string);
        }
        if t.harness_version.is_none() {
            t.harness_version = r
                .version
                .non_empty()
                .or(r.claude_code_version.non_empty())
                .map(str::to_string);
        }
    }

    /// Who acted in this record.
    fn agent_of<const T: bool>(&mut self, r: &Record<'_, K, T>) -> AgentPath {
        if let Some(a) = &self.forced_agent {
            return AgentPath::Subagent(a.clone());
        }
        if r.is_sidechain.0 {
            let id = if let Some(a) = r.agent_id.non_empty() {
                a.to_string()
            } else if let Some(a) = r
                .parent_uuid
                .non_empty()
                .and_then(|p| self.sidechain_agent.get(p))
            {
                a.clone()
            } else {
                // a new sidechain: the Task call whose prompt it starts with,
                // else the oldest Task call still waiting for one
                let key = r
                    .message
                    .as_ref()
                    .map(|m| prompt_key(first_text(&m.content)))
                    .unwrap_or_default();
                let pos = self
                    .pending_tasks
                    .iter()
                    .position(|(_, k)| !k.is_empty() && *k == key)
                    .unwrap_or(0);
                match self.pending_tasks.remove(pos).map(|(i, _)| i) {
                    Some(idx) => {
                        let ev = &mut self.traj.events[idx];
                        let id = match &ev.action {
                            Action::Subagent {
                                agent_id: Some(a), ..
                            } => a.clone(),
                            _ => self
                                .calls
                                .iter()
                                .find(|(_, i)| **i == idx)
                                .map(|(k, _)| k.clone())
                                .unwrap_or_default(),
                        };
                        if let Action::Subagent { agent_id, .. } = &mut ev.action {
                            if agent_id.is_none() && !id.is_empty() {
                                *agent_id = Some(id.clone());
                            }
                        }
                        if id.is_empty() {
                            "sidechain".to_string()
                        } else {
                            id
                        }
                    }
                    None => "sidechain".to_string(),
                }
            };
            if let Some(u) = r.uuid.non_empty() {
                self.sidechain_agent.insert(u.to_string(), id.clone());
            }
            return AgentPath::Subagent(id);
        }
        if let Some(p) = r.parent_tool_use_id.non_empty() {
            // stream-json: subagent messages carry the Task tool_use id
            return AgentPath::Subagent(p.to_string());
        }
        AgentPath::Main
    }

    /// Handle one record.
    /// Handle a record parsed without scanning tool outputs (`json`: its
    /// text): when one of its tool results answers a test command, the
    /// record is parsed again with the scan ([`Self::needs_test_scan`]).
    pub(crate) fn record_scanning_if_needed(
        &mut self,
        r: Record<'_, K, false>,
        loc: Location,
        json: &[u8],
    ) {
        if self.needs_test_scan(&r) {
            let full = std::str::from_utf8(json)
                .map_err(|_| ())
                .and_then(|s| parse_record::<K, true>(s, self.fast).map_err(|_| ()));
            if let Ok(full) = full {
                return self.record(full, loc);
            }
        }
        self.record(r, loc)
    }

    /// Whether a tool result of this record needs its output scanned for a
    /// test runner's summary: it answers a test command already recorded
    /// (only those outputs' summaries are used, `testsummary::apply`), or the
    /// record also holds tool calls (a call and its result in one record).
    pub(crate) fn needs_test_scan<const T: bool>(&self, r: &Record<'_, K, T>) -> bool {
        let Some(Content::Blocks(blocks)) = r.message.as_ref().map(|m| &m.content) else {
            return false;
        };
        let is = |b: &Block<'_, K, T>, ty: &str| b.ty.as_deref() == Some(ty);
        let results = blocks.iter().filter(|b| is(b, "tool_result"));
        if results.clone().next().is_none() {
            return false;
        }
        if blocks
            .iter()
            .any(|b| is(b, "tool_use") || is(b, "server_tool_use"))
        {
            return true;
        }
        results.into_iter().any(|b| {
            b.tool_use_id
                .non_empty()
                .and_then(|id| self.calls.get(id))
                .is_some_and(|&i| testsummary::is_test_shell(&self.traj.events[i]))
        })
    }

    pub(crate) fn record<const T: bool>(&mut self, r: Record<'_, K, T>, loc: Location) {
        self.record_no += 1;
        self.metadata(&r);
        let ty = r.ty.as_deref().unwrap_or("");
        if matches!(ty, "user" | "assistant" | "attachment") {
            // a record id, not a placeholder ("[trimmed for fixture]")
            if let Some(u) = r.uuid.non_empty().filter(|u| super::is_record_id(u)) {
                if !self.seen_uuids.insert(u) {
                    // a resumed session repeats its history: count each record once
                    self.repeated += 1;
                    if self.first_repeat.is_none() {
                        self.first_repeat = Some(loc);
                    }
                    return;
                }
            }
        }
        match ty {
            "user" | "assistant" => self.conversation(r, loc),
            "system" => {
                // init (stream-json) carries metadata, handled above; compact_boundary,
                // stop_hook_summary, turn_duration, api_error, … are bookkeeping.
            }
            "attachment" => self.attachment(r, loc),
            "result" => {
                self.result_record =
                    Some(!r.is_error.0 && r.subtype.as_deref().is_none_or(|s| s == "success"));
            }
            t if BOOKKEEPING.contains(&t) => {}
            "" => self.problem(
                loc,
                ProblemKind::UnknownRecordType,
                "record without a `type`",
            ),
            other => {
                let name: String = other.chars().take(40).collect();
                self.problem(
                    loc,
                    ProblemKind::UnknownRecordType,
                    format!("unknown record type `{name}`"),
                )
            }
        }
    }

    fn push_event(&mut self, mut ev: Event, agent: &AgentPath, ts: &Str) -> usize {
        ev.agent = agent.clone();
        ev.timestamp = ts.non_empty().map(str::to_string);
        self.traj.events.push(ev);
        self.traj.events.len() - 1
    }

    fn conversation<const T: bool>(&mut self, mut r: Record<'_, K, T>, loc: Location) {
        let agent = self.agent_of(&r);
        let main = agent == AgentPath::Main;
        let is_user = r.ty.as_deref() == Some("user");
        let Some(msg) = r.message.take() else { return };
        let synthetic = msg.model.as_deref() == Some("<synthetic>");
        let tur = r.tool_use_result.take().or(r.tool_use_result_snake.take());
        match msg.content {
            Content::Text(t) => {
                if is_user {
                    self.user_text(&r, t, &loc, &agent, main);
                } else if !t.text.is_empty() && !synthetic {
                    self.assistant_text(t, &loc, &agent, &r.timestamp, main);
                }
            }
            Content::Blocks(blocks) => {
                for b in blocks {
                    match b.ty.as_deref().unwrap_or("") {
                        "tool_use" | "server_tool_use" => {
                            self.tool_use(b, &loc, &agent, &r.timestamp, main)
                        }
                        "tool_result" => {
                            self.tool_result(b, tur.as_ref(), &loc, &agent, &r.timestamp, main)
                        }
                        "text" => {
                            let Some(t) = b.text else { continue };
                            if is_user {
                                self.user_text(&r, t, &loc, &agent, main);
                            } else if !t.text.is_empty() && !synthetic {
                                self.assistant_text(t, &loc, &agent, &r.timestamp, main);
                            }
                        }
                        _ => {} // thinking, redacted_thinking, image, document
                    }
                }
            }
        }
        if !is_user {
            self.pending_slash = None;
        }
    }

    fn assistant_text(
        &mut self,
        t: MsgText<K>,
        loc: &Location,
        agent: &AgentPath,
        ts: &Str,
        main: bool,
    ) {
        let question = t.facts.ends_with_question;
        self.message(Role::Assistant, Action::Message, t, loc, agent, ts);
        if main {
            self.last_turn = if question {
                LastTurn::AssistantQuestion
            } else {
                LastTurn::AssistantText
            };
        }
    }

    fn message(
        &mut self,
        role: Role,
        action: Action,
        t: MsgText<K>,
        loc: &Location,
        agent: &AgentPath,
        ts: &Str,
    ) {
        let mut ev = Event::new(loc.clone(), role, action);
        if K {
            ev.content = Some(Box::new(EventContent {
                text: t.text.into_full(),
                ..Default::default()
            }));
        }
        self.push_event(ev, agent, ts);
    }

    /// A user text: a prompt, a slash command, `!` shell input, or an
    /// injected (meta) message such as a skill body. In the main conversation a
    /// prompt is an [`Action::UserTurn`]; in a subagent it is the parent's
    /// prompt, a plain message.
    fn user_text<const T: bool>(
        &mut self,
        r: &Record<'_, K, T>,
        t: MsgText<K>,
        loc: &Location,
        agent: &AgentPath,
        main: bool,
    ) {
        let head = t.text.head.trim_start();
        if let Some(rest) = head.strip_prefix(super::scantext::BASE_DIR_MARKER) {
            let dir = rest.lines().next().unwrap_or("").trim();
            let base = dir
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string();
            self.skill_body(r, base, &t.facts, loc, agent);
            return;
        }
        if r.is_meta.0 || r.is_compact_summary.0 {
            return; // injected caveats, reminders, compaction summaries
        }
        let mut via = UserTurnVia::Prompt;
        let mut command = None;
        let mut ends = false;
        if let Some(name) = tag_value(head, "command-name") {
            let name = name.trim().trim_start_matches('/').to_string();
            if !name.is_empty() {
                let args = tag_value(head, "command-args").is_some_and(|a| !a.trim().is_empty());
                if SESSION_COMMANDS.contains(&name.as_str()) {
                    via = UserTurnVia::SessionCommand;
                    command = Some(name.clone());
                    ends = true;
                } else if UI_COMMANDS.contains(&name.as_str()) {
                    via = UserTurnVia::SessionCommand;
                    command = Some(name.clone());
                }
                self.pending_slash = Some((name, self.record_no, args));
            }
        }
        if head.starts_with("<local-command-")
            || head.starts_with("<bash-stdout")
            || head.starts_with("<bash-stderr")
            || head.starts_with("<task-notification")
            || head.starts_with("<user-prompt-submit-hook")
            || head.starts_with("[Request interrupted")
            || head.starts_with("Operation stopped by hook")
            || head.starts_with("Stop hook feedback")
            || t.text.is_empty()
        {
            return; // harness output, not a prompt
        }
        if !main {
            self.message(Role::User, Action::Message, t, loc, agent, &r.timestamp);
            return;
        }
        let ui_only = via == UserTurnVia::SessionCommand && !ends;
        let action = Action::UserTurn { via, command };
        self.message(Role::User, action, t, loc, agent, &r.timestamp);
        if ends {
            self.last_turn = LastTurn::EndCommand;
        } else if !ui_only {
            self.last_turn = LastTurn::User;
        }
    }

    /// "Base directory for this skill: <dir>": a load, unless the Skill tool
    /// call that caused it is already recorded (then the body's hash goes there).
    fn skill_body<const T: bool>(
        &mut self,
        r: &Record<'_, K, T>,
        base: String,
        facts: &TextFacts,
        loc: &Location,
        agent: &AgentPath,
    ) {
        // the hash, unless arguments may have been substituted into the body
        let hash = |had_args: bool| {
            facts
                .body
                .as_ref()
                .filter(|b| !had_args || b.args_appended)
                .map(|b| b.sha256.clone())
        };
        if let Some((name, at, id, args)) = &self.last_skill_tool {
            let linked = r
                .source_tool_use_id
                .non_empty()
                .is_some_and(|s| Some(s) == id.as_deref());
            if linked || (self.record_no - at <= 4 && names_match(name, &base)) {
                let h = hash(*args);
                if let Some(Action::SkillLoad { body_sha256, .. }) = self
                    .last_skill_event
                    .and_then(|i| self.traj.events.get_mut(i))
                    .map(|e| &mut e.action)
                {
                    if body_sha256.is_none() {
                        *body_sha256 = h;
                    }
                }
                return;
            }
        }
        let (name, via, args) = match self.pending_slash.take() {
            Some((cmd, at, args))
                if self.record_no - at <= 4 && (names_match(&cmd, &base) || base.is_empty()) =>
            {
                (cmd, LoadVia::SlashCommand, args)
            }
            _ => (base, LoadVia::BaseDirectory, false),
        };
        if name.is_empty() {
            return;
        }
        let body_sha256 = hash(args);
        let ev = Event::new(
            loc.clone(),
            Role::User,
            Action::SkillLoad {
                name,
                via,
                body_sha256,
            },
        );
        self.push_event(ev, agent, &r.timestamp);
    }

    fn tool_use<const T: bool>(
        &mut self,
        b: Block<'_, K, T>,
        loc: &Location,
        agent: &AgentPath,
        ts: &Str,
        main: bool,
    ) {
        let id = b.id.non_empty().map(str::to_string);
        if id
            .as_ref()
            .is_some_and(|id| super::is_record_id(id) && self.calls.contains_key(id))
        {
            // the same call again (resumed history under new record ids)
            self.repeated += 1;
            if self.first_repeat.is_none() {
                self.first_repeat = Some(loc.clone());
            }
            return;
        }
        let name = b.name.0.map(Cow::into_owned).unwrap_or_default();
        let input = b.input.map(|i| i.0).unwrap_or(serde_json::Value::Null);
        let action = action_for_tool(&name, &input);
        let task_key = match action {
            Action::Subagent { .. } => {
                prompt_key(input.get("prompt").and_then(|p| p.as_str()).unwrap_or(""))
            }
            _ => String::new(),
        };
        let had_args = input
            .get("args")
            .is_some_and(|a| a.as_str().is_none_or(|s| !s.trim().is_empty()) && !a.is_null());
        let mut ev = Event::new(loc.clone(), Role::Assistant, action);
        ev.tool = Some(name);
        if K {
            ev.content = Some(Box::new(EventContent {
                tool_input: Some(input),
                ..Default::default()
            }));
        }
        let idx = self.push_event(ev, agent, ts);
        if let Some(id) = &id {
            self.calls.insert(id.clone(), idx);
        }
        match &self.traj.events[idx].action {
            Action::SkillLoad { name, .. } => {
                self.last_skill_tool = Some((name.clone(), self.record_no, id, had_args));
                self.last_skill_event = Some(idx);
            }
            Action::Subagent { .. } => self.pending_tasks.push_back((idx, task_key)),
            _ => {}
        }
        if main {
            self.last_turn = LastTurn::ToolUse;
        }
    }

    fn tool_result<const T: bool>(
        &mut self,
        b: Block<'_, K, T>,
        tur: Option<&ToolUseResult>,
        loc: &Location,
        agent: &AgentPath,
        ts: &Str,
        main: bool,
    ) {
        if main {
            self.last_turn = LastTurn::User;
        }
        let Some(idx) = b
            .tool_use_id
            .non_empty()
            .and_then(|id| self.calls.get(id))
            .copied()
        else {
            self.problem(
                loc.clone(),
                ProblemKind::Skipped,
                "tool_result without a matching tool_use in this file",
            );
            return;
        };
        self.pending_tasks.retain(|(i, _)| *i != idx);
        let content = b.content.unwrap_or_default();
        let head = content.text.head.trim_start();
        let string_head = tur.and_then(|t| t.string_head.as_deref()).unwrap_or("");
        let rejected =
            is_rejection(head) || is_rejection(string_head.trim_start_matches("Error: "));
        // a rejection that carries the user's words ("the user said: …") is the user speaking
        let user_said =
            rejected && (head.contains("the user said:") || string_head.contains("the user said:"));
        let ev = &mut self.traj.events[idx];
        ev.failed = b.is_error.0 || rejected;
        ev.rejected = rejected;
        ev.result_timestamp = ts.non_empty().map(str::to_string);
        if let Some(code) = head
            .strip_prefix("Exit code ")
            .and_then(|s| s.split_whitespace().next())
        {
            ev.exit_code = code.parse().ok();
        } else if matches!(ev.action, Action::Shell(_))
            && !ev.failed
            && !tur.is_some_and(|t| t.interrupted)
        {
            // Claude Code reports any non-zero exit as an error ("Exit code N")
            ev.exit_code = Some(0);
        }
        if !rejected {
            // a pipe masks the exit status: read the runner's summary (SPEC §5)
            testsummary::apply(ev, content.facts.tests);
        }
        let answered = !ev.failed && ev.tool.as_deref().is_some_and(is_ask_tool);
        if let (Some(agent_id), Action::Subagent { agent_id: slot, .. }) =
            (tur.and_then(|t| t.agent_id.clone()), &mut ev.action)
        {
            if slot.is_none() {
                *slot = Some(agent_id.clone());
            }
            self.agent_calls.insert(agent_id, idx);
        }
        if K {
            let out = content.text.into_full();
            match &mut ev.content {
                Some(c) => c.tool_output = out,
                None => {
                    ev.content = Some(Box::new(EventContent {
                        tool_output: out,
                        ..Default::default()
                    }))
                }
            }
        }
        if (answered || user_said) && *agent == AgentPath::Main {
            // the answer to an ask tool (or the words of a rejection): a user turn
            let via = if answered {
                UserTurnVia::Answer
            } else {
                UserTurnVia::Prompt
            };
            let ev = Event::new(
                loc.clone(),
                Role::User,
                Action::UserTurn { via, command: None },
            );
            self.push_event(ev, agent, ts);
        }
    }

    fn attachment<const T: bool>(&mut self, r: Record<'_, K, T>, loc: Location) {
        let Some(a) = &r.attachment else { return };
        match a.ty.as_deref() {
            Some("invoked_skills") => {
                let agent = self.agent_of(&r);
                for name in a.skills.clone() {
                    if name.is_empty() {
                        continue;
                    }
                    let ev = Event::new(
                        loc.clone(),
                        Role::System,
                        Action::SkillLoad {
                            name,
                            via: LoadVia::InvokedSkills,
                            body_sha256: None,
                        },
                    );
                    self.push_event(ev, &agent, &r.timestamp);
                }
            }
            Some("queued_command") if !a.from_task => {
                // a prompt the user typed while the agent worked, delivered mid-turn
                let agent = self.agent_of(&r);
                if agent != AgentPath::Main {
                    return;
                }
                let ev = Event::new(
                    loc,
                    Role::User,
                    Action::UserTurn {
                        via: UserTurnVia::Prompt,
                        command: None,
                    },
                );
                self.push_event(ev, &agent, &r.timestamp);
                let _ = &a.command_mode;
                self.last_turn = LastTurn::User;
            }
            _ => {}
        }
    }

    /// The finished trajectory.
    pub(crate) fn finish(mut self) -> Trajectory {
        // stream-json names a subagent by its Task tool_use id; once the Task
        // result gave the agent's own id, use that one everywhere.
        let renames: HashMap<String, String> = self
            .calls
            .iter()
            .filter_map(|(tool_id, idx)| match &self.traj.events[*idx].action {
                Action::Subagent {
                    agent_id: Some(a), ..
                } if a != tool_id => Some((tool_id.clone(), a.clone())),
                _ => None,
            })
            .collect();
        if !renames.is_empty() {
            for e in &mut self.traj.events {
                if let AgentPath::Subagent(id) = &mut e.agent {
                    if let Some(new) = renames.get(id.as_str()) {
                        *id = new.clone();
                    }
                }
            }
        }
        // complete (SPEC §5): a final assistant turn that does not wait for an
        // answer, or the user's /exit, /clear, /compact
        let ended = match self.result_record {
            Some(ok) => ok,
            None => matches!(
                self.last_turn,
                LastTurn::AssistantText | LastTurn::EndCommand
            ),
        };
        if self.repeated > 0 {
            let n = self.repeated;
            self.traj.problems.push(DecodeProblem {
                location: self.first_repeat.take().unwrap_or_default(),
                kind: ProblemKind::Skipped,
                detail: format!(
                    "{n} record(s) repeated from resumed history (same record id) counted once"
                ),
            });
        }
        self.traj.complete = ended && !self.traj.truncated;
        self.traj
    }
}

/// The first text of a message's content.
fn first_text<'c, const K: bool, const T: bool>(c: &'c Content<'_, K, T>) -> &'c str {
    match c {
        Content::Text(t) => &t.text.head,
        Content::Blocks(bs) => bs
            .iter()
            .find_map(|b| b.text.as_ref().map(|t| t.text.head.as_str()))
            .unwrap_or(""),
    }
}

/// A short key of a Task prompt, to tie a sidechain's first message to its call.
fn prompt_key(s: &str) -> String {
    s.trim().chars().take(120).collect()
}

/// The text between `<tag>` and `</tag>`.
fn tag_value<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&close)? + start;
    Some(&text[start..end])
}

/// Tools that ask the user a question; their result is the user's answer.
fn is_ask_tool(name: &str) -> bool {
    matches!(
        name,
        "AskUserQuestion" | "AskUser" | "ask_user" | "request_user_input" | "ask_followup_question"
    )
}

/// A user's veto of a tool call, as Claude Code words it.
fn is_rejection(text: &str) -> bool {
    // built once: a searcher made per result cost more than the search
    static REJECTED: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("tool use was rejected"));
    text.starts_with("The user doesn't want to")
        || text.starts_with("User rejected")
        || text.starts_with("[Request interrupted by user for tool use]")
        || REJECTED.find(text.as_bytes()).is_some()
}

/// Skill names match exactly or up to a `plugin:` prefix on either side.
pub fn names_match(a: &str, b: &str) -> bool {
    // what follows the last `:` (a byte loop: names are short, and the gate
    // compares every skill with every load and sidecar name of every file)
    fn short(s: &str) -> &str {
        match s.bytes().rposition(|c| c == b':') {
            Some(i) => &s[i + 1..],
            None => s,
        }
    }
    !a.is_empty() && !b.is_empty() && (a == b || short(a) == short(b))
}

// ---------------------------------------------------------------- subagent files

#[derive(Deserialize, Default)]
struct SubagentMeta {
    #[serde(rename = "agentType", default)]
    agent_type: LooseStr,
    #[serde(rename = "toolUseId", default)]
    tool_use_id: LooseStr,
}

#[derive(Deserialize, Default)]
struct FirstRecord {
    #[serde(rename = "sessionId", default)]
    session_id: LooseStr,
}

/// Subagent transcripts that belong to the session file `path`:
/// `<dir>/<session>/subagents/agent-*.jsonl` (and `subagents/workflows/*/agent-*.jsonl`),
/// and mid-2.0 `<dir>/agent-*.jsonl` siblings whose `sessionId` is the session's.
pub fn subagent_files(path: &Path, session_id: Option<&str>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem().and_then(|s| s.to_str())) else {
        return out;
    };
    if stem.starts_with("agent-") {
        return out; // a subagent file itself
    }
    // the session file's folder, read for `agent-*` siblings when the session
    // names its id: a `<session>/` folder it does not list is not probed
    let listing: Option<Vec<std::fs::DirEntry>> = session_id
        .and_then(|_| std::fs::read_dir(dir).ok())
        .map(|rd| rd.filter_map(|e| e.ok()).collect());
    if listing
        .as_ref()
        .is_none_or(|l| l.iter().any(|e| e.file_name() == *stem))
    {
        let sub = dir.join(stem).join("subagents");
        collect_agent_files(&sub, &mut out);
        if let Ok(rd) = std::fs::read_dir(sub.join("workflows")) {
            let mut wfs: Vec<PathBuf> = rd
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect();
            wfs.sort();
            for wf in wfs {
                collect_agent_files(&wf, &mut out);
            }
        }
    }
    if let (Some(sid), Some(listing)) = (session_id, listing) {
        let siblings = agent_files(listing);
        for s in siblings {
            if jsonl::first_record::<FirstRecord>(&s)
                .is_some_and(|r| r.session_id.as_deref() == Some(sid))
            {
                out.push(s);
            }
        }
    }
    out
}

fn collect_agent_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    out.extend(agent_files(rd.filter_map(|e| e.ok())));
}

/// The `agent-*.jsonl` files among a folder's entries, sorted.
fn agent_files(entries: impl IntoIterator<Item = std::fs::DirEntry>) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = entries
        .into_iter()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("agent-") && n.ends_with(".jsonl"))
        })
        .collect();
    files.sort();
    files
}

/// Decode the session's subagent files and splice their events in after the
/// call that started them (by the `.meta.json` `toolUseId`, else the Task
/// result's `agentId`, else by timestamp).
fn attach_subagent_files<const K: bool>(
    path: &Path,
    st: &mut ClaudeRecords<K>,
) -> Result<(), DecodeError> {
    let files = subagent_files(path, st.traj.session_id.as_deref());
    if files.is_empty() {
        return Ok(());
    }
    let mut inserts: Vec<(Option<usize>, Vec<Event>)> = Vec::new();
    for f in files {
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("agent-");
        let agent_id = stem.trim_start_matches("agent-").to_string();
        let meta: SubagentMeta = crate::fsutil::read_bounded(
            &f.with_extension("meta.json"),
            crate::fsutil::MAX_SIDE_FILE_BYTES,
        )
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
        let sub_traj =
            Trajectory::new(path.to_path_buf(), Harness::ClaudeCode, "claude-code-jsonl");
        let mut sub = ClaudeRecords::<K>::new(sub_traj, Some(agent_id.clone()));
        sub.file = Some(f.clone());
        read_jsonl_into(&f, &mut sub)?;
        let mut sub_traj = sub.traj;
        st.traj.problems.append(&mut sub_traj.problems);
        st.traj.truncated |= sub_traj.truncated;
        st.traj.extra_files.push(f.clone());
        // the spawning call
        let anchor = meta
            .tool_use_id
            .non_empty()
            .and_then(|id| st.calls.get(id).copied())
            .or_else(|| st.agent_calls.get(&agent_id).copied());
        if let Some(idx) = anchor {
            if let Action::Subagent {
                agent_id: slot,
                agent_type,
            } = &mut st.traj.events[idx].action
            {
                if slot.is_none() {
                    *slot = Some(agent_id.clone());
                }
                if agent_type.is_none() {
                    *agent_type = meta.agent_type.non_empty().map(str::to_string);
                }
            }
        }
        let anchor = anchor.or_else(|| {
            // by time: after the last main event that is not later than the first subagent event
            let first_ts = sub_traj.events.iter().find_map(|e| e.timestamp.clone())?;
            st.traj.events.iter().rposition(|e| {
                e.timestamp
                    .as_deref()
                    .is_some_and(|t| t <= first_ts.as_str())
            })
        });
        inserts.push((anchor, sub_traj.events));
    }
    // rebuild the event list with the subagent events in place
    let main = std::mem::take(&mut st.traj.events);
    let mut by_anchor: HashMap<usize, Vec<Event>> = HashMap::new();
    let mut tail = Vec::new();
    for (anchor, evs) in inserts {
        match anchor {
            Some(i) => by_anchor.entry(i).or_default().extend(evs),
            None => tail.extend(evs),
        }
    }
    let mut events = Vec::with_capacity(main.len() + tail.len());
    for (i, e) in main.into_iter().enumerate() {
        events.push(e);
        if let Some(extra) = by_anchor.remove(&i) {
            events.extend(extra);
        }
    }
    events.extend(tail);
    st.traj.events = events;
    Ok(())
}

/// Parse a Claude Code record from an already-parsed JSON value (chat.json elements).
pub(crate) fn record_from_value<const K: bool>(
    v: &serde_json::Value,
) -> Result<Record<'_, K>, serde_json::Error> {
    Record::<K>::deserialize(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subagent_files_with_and_without_a_session_folder() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let put = |rel: &str, text: &str| {
            let p = d.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        put("s1.jsonl", "{\"sessionId\":\"s1\"}\n");
        put("s1/subagents/agent-b.jsonl", "{}\n");
        put("s1/subagents/workflows/w/agent-c.jsonl", "{}\n");
        put("s2.jsonl", "{\"sessionId\":\"s2\"}\n");
        put("agent-a.jsonl", "{\"sessionId\":\"s1\"}\n");
        put("agent-d.jsonl", "{\"sessionId\":\"s2\"}\n");
        // `s3/` is a file, not a folder: nothing under it either way
        put("s3.jsonl", "{}\n");
        put("s3", "");
        let names = |path: &str, sid: Option<&str>| -> Vec<String> {
            subagent_files(&d.join(path), sid)
                .iter()
                .map(|p| p.strip_prefix(d).unwrap().to_string_lossy().into_owned())
                .collect()
        };
        let s1 = [
            "s1/subagents/agent-b.jsonl",
            "s1/subagents/workflows/w/agent-c.jsonl",
            "agent-a.jsonl",
        ];
        assert_eq!(names("s1.jsonl", Some("s1")), s1);
        // without an id the session folder is still looked in
        assert_eq!(names("s1.jsonl", None), s1[..2]);
        assert_eq!(names("s2.jsonl", Some("s2")), ["agent-d.jsonl"]);
        assert!(names("s2.jsonl", None).is_empty());
        assert!(names("s3.jsonl", Some("s3")).is_empty());
        assert!(names("agent-a.jsonl", Some("s1")).is_empty());
    }

    /// A session file decoded with and without the fast path, as JSON.
    fn both_paths(path: &Path) -> (String, String) {
        let run = |fast: bool, keep: bool| {
            let traj =
                Trajectory::new(path.to_path_buf(), Harness::ClaudeCode, "claude-code-jsonl");
            let json = if keep {
                let mut st = ClaudeRecords::<true>::new(traj, None);
                st.fast = fast;
                read_jsonl_into(path, &mut st).unwrap();
                serde_json::to_string(&st.finish())
            } else {
                let mut st = ClaudeRecords::<false>::new(traj, None);
                st.fast = fast;
                read_jsonl_into(path, &mut st).unwrap();
                serde_json::to_string(&st.finish())
            };
            json.unwrap()
        };
        (
            format!("{}\n{}", run(true, false), run(true, true)),
            format!("{}\n{}", run(false, false), run(false, true)),
        )
    }

    #[test]
    fn fast_path_decodes_every_session_file_as_serde_json_does() {
        let files = crate::decode::files_under(&crate::decode::SESSION_ROOTS, |p| {
            p.extension().is_some_and(|x| x == "jsonl")
        });
        assert!(
            files.len() > 30,
            "the fixtures and real transcripts are there"
        );
        for f in &files {
            let (fast, slow) = both_paths(f);
            assert!(fast == slow, "{} decodes differently", f.display());
        }
    }

    #[test]
    fn fast_path_gives_up_on_what_it_cannot_vouch_for() {
        let deep = format!("{}1{}", "[".repeat(120), "]".repeat(120));
        let lines = [
            // plain records, with bulky values the fast path steps over
            r#"{"type":"user","sessionId":"s1","uuid":"u1","cwd":"/r","message":{"role":"user","content":"run the tests"}}"#.to_string(),
            r#"{"type":"assistant","uuid":"u2","parentUuid":"u1","message":{"model":"m","usage":{"in":1,"x":[1.5e3,-0]},"content":[{"type":"thinking","thinking":"a\"b\\","signature":"QUJD"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test","description":"d\u00e9"}}]}}"#.to_string(),
            r#"{"type":"user","uuid":"u3","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"test result: FAILED. 1 passed; 1 failed;\n","is_error":true}]},"toolUseResult":{"stdout":"x\ny","stderr":"","interrupted":false,"agentId":"a\u0041"}}"#.to_string(),
            // a repeated field: serde's derive rejects the record
            r#"{"type":"user","type":"assistant","uuid":"u4"}"#.to_string(),
            r#"{"type":"assistant","uuid":"u5","message":{"model":"a","model":"b","content":[]}}"#.to_string(),
            // a repeated block key: the last wins
            r#"{"type":"assistant","uuid":"u6","message":{"content":[{"type":"text","text":"one","text":"two?"}]}}"#.to_string(),
            // an escaped key
            r#"{"type":"user","uuid":"u7","mess\u0061ge":{"content":"hi"}}"#.to_string(),
            // odd types
            r#"{"type":7,"uuid":["u8"],"isMeta":"true","isSidechain":1,"message":[{"a":1}]}"#.to_string(),
            r#"{"type":"assistant","uuid":"u9","message":{"content":"a text?"},"toolUseResult":"Error: The user doesn't want to proceed"}"#.to_string(),
            r#"{"type":"assistant","uuid":"u10","message":{"content":["bare",7,null,[1]]},"toolUseResult":[1,2]}"#.to_string(),
            r#"{"type":"assistant","uuid":"u11","message":null,"toolUseResult":null,"attachment":{"type":"invoked_skills","skills":[{"name":"tdd"}]}}"#.to_string(),
            r#"{"type":"assistant","uuid":"u12","message":{"content":[{"type":"tool_use","id":"t2","name":"Write","input":"free form"}]}}"#.to_string(),
            // deep nesting in a skipped value
            format!(r#"{{"type":"progress","uuid":"u13","data":{deep}}}"#),
            // a lone surrogate in a kept string, in a skipped one
            r#"{"type":"user","uuid":"u14","message":{"content":"\ud800"}}"#.to_string(),
            r#"{"type":"user","uuid":"u15","data":"\ud800","message":{"content":"ok"}}"#.to_string(),
            // broken records: each one counted problem, as before
            r#"{"type":"user","uuid":"u16","message":{"content":"tab	inside"}}"#.to_string(),
            r#"{"type":"user","uuid":"u17","data":"\x"}"#.to_string(),
            r#"{"type":"user","uuid":"u18",}"#.to_string(),
            r#"{"type":"user","uuid":"u19"} trailing"#.to_string(),
            r#"["user","u20"]"#.to_string(),
            r#"{"type":"user","uuid":"u21","data":01}"#.to_string(),
            r#"{"type":"assistant","uuid":"u22","message":{"content":[{"type":"text","text":"cut"#.to_string(),
            // long escaped outputs of a call that is not a test: read for their heads only
            r#"{"type":"assistant","uuid":"u23","message":{"content":[{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"ls"}},{"type":"tool_use","id":"t4","name":"Edit","input":{"file_path":"a"}}]}}"#.to_string(),
            format!(
                r#"{{"type":"user","uuid":"u24","message":{{"content":[{{"type":"tool_result","tool_use_id":"t3","content":{}}}]}}}}"#,
                serde_json::to_string(&format!("Exit code 2\n{}", "a\t\"é\"\n".repeat(400))).unwrap()
            ),
            format!(
                r#"{{"type":"user","uuid":"u25","message":{{"content":[{{"type":"tool_result","tool_use_id":"t4","content":{},"is_error":true}}]}}}}"#,
                serde_json::to_string(&format!("  The user doesn't want to proceed with this tool use. the user said: {}", "no\n".repeat(400))).unwrap()
            ),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let texts = crate::decode::line_cuts(&lines);
        let mut problems = 0;
        for text in &texts {
            std::fs::write(&path, text).unwrap();
            let (fast, slow) = both_paths(&path);
            assert_eq!(fast, slow, "{text}");
            problems += fast.matches("undecodable").count();
        }
        assert!(problems > 10, "the broken lines are counted");
        // a deep skipped value and a repeated field go the slow way and agree
        assert!(fast_record::<false, false>(&lines[12]).is_err());
        assert!(fast_record::<false, false>(&lines[3]).is_err());
        assert!(fast_record::<false, false>(&lines[1]).is_ok());
        assert!(fast_record::<false, false>(&lines[2]).is_ok());
    }

    /// A tool result's content read for its head only has the head (and the
    /// emptiness) of the whole text, wherever escapes and wide characters
    /// fall around [`HEAD_BYTES`](super::super::probe::HEAD_BYTES).
    #[test]
    fn result_heads_are_the_heads_of_the_whole_text() {
        let head = super::super::probe::HEAD_BYTES;
        let mut texts = vec![String::new(), "x".into(), "Exit code 1\n".into()];
        for fill in ["a", "é", "日", "🎉", "\n", "\"", "\\", "\u{1}"] {
            for n in [head - 3, head - 2, head - 1, head, head + 1, head + 2] {
                let mut t = "y".repeat(n);
                t.push_str(&fill.repeat(8));
                texts.push(t.clone());
                texts.push(format!("{}{t}", fill.repeat(n / fill.len() + 1)));
            }
        }
        for text in &texts {
            let json = serde_json::to_string(text).unwrap();
            let lean = result_content::<false, false>(&mut Cursor::new(&json), 4).unwrap();
            let whole = scan_text::<false, false>(&mut Cursor::new(&json), 4).unwrap();
            assert_eq!(lean.text.head, whole.text.head, "{json}");
            assert_eq!(lean.text.is_empty(), whole.text.is_empty(), "{json}");
        }
        // a surrogate escape is serde_json's to judge either way
        for json in [r#""\ud83d\ude00""#, r#""x\ud800""#] {
            assert!(result_content::<false, false>(&mut Cursor::new(json), 4).is_err());
            assert!(scan_text::<false, false>(&mut Cursor::new(json), 4).is_err());
        }
    }

    #[test]
    fn rejections() {
        assert!(is_rejection(
            "The user doesn't want to proceed with this tool use."
        ));
        assert!(is_rejection("[Request interrupted by user for tool use]"));
        assert!(is_rejection("Error: the tool use was rejected by the user"));
        assert!(!is_rejection("tool use was rejecte"));
        assert!(!is_rejection("Exit code 1"));
    }

    #[test]
    fn names_match_with_plugin_prefix() {
        assert!(names_match("superpowers:brainstorming", "brainstorming"));
        assert!(names_match("goal", "goal"));
        assert!(!names_match("goal", "goals"));
        assert!(!names_match("", ""));
    }

    #[test]
    fn tag_values() {
        assert_eq!(
            tag_value(
                "<command-message>goal</command-message>\n<command-name>/goal</command-name>",
                "command-name"
            ),
            Some("/goal")
        );
        assert_eq!(tag_value("no tags", "command-name"), None);
    }
}
