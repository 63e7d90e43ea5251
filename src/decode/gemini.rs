//! Decoder for the `gemini-chat` format: Gemini CLI chat recordings, in three
//! variants told apart by content (`Trajectory::format` names the variant):
//!
//! - `gemini-chat-json`: the legacy single-JSON `ConversationRecord`
//!   (`{sessionId, projectHash, startTime, lastUpdated, messages:[…], kind?}`),
//!   read whole; locations are pointers (`/messages/3/toolCalls/0`).
//! - `gemini-chat-jsonl` (gemini-cli ≥ 0.40): an append-only log, streamed
//!   line by line. The first line is the metadata record; then message records,
//!   `{"$set":{…}}` metadata updates and `{"$rewindTo":"<id>"}` markers. A
//!   message id is rewritten in full each time its tool calls, results or
//!   tokens change, so records are folded by id: the last version of a message
//!   wins and keeps the place of the first. `$set.messages` (history sync after
//!   compression or masking) is folded the same way. A `$rewindTo` does not
//!   remove the rewound messages' events: their tool calls ran, and the gate
//!   judges what the agent did. Locations are the line of the version kept,
//!   plus a pointer inside it (`/toolCalls/0`).
//! - `gemini-stream-json`: the headless `gemini -p --output-format stream-json`
//!   event stream (`init`, `message` (with `delta` chunks), `tool_use`,
//!   `tool_result`, `error`, `result`), streamed line by line.
//!
//! Tool calls: `run_shell_command` → shell, `read_file` / `read_many_files` →
//! reads, `write_file` → write, `replace` → edit, `web_fetch` → fetch,
//! **`activate_skill` → skill load** (`via: activate-skill`); others go through
//! the shared table. `failed` comes from the call's `status` (`error`,
//! `cancelled`, the latter also `rejected`), an `error` in its function
//! response, or a non-zero `Exit Code:` in a shell call's output. A
//! subagent's own file (`kind: "subagent"`) puts every event under
//! `AgentPath::Subagent(<sessionId>)`.

use super::generic::*;
use super::model::*;
use super::sniffjson::{Json, Object};
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::Path;

pub struct GeminiDecoder;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    LegacyJson,
    Jsonl,
    StreamJson,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::LegacyJson => "gemini-chat-json",
            Variant::Jsonl => "gemini-chat-jsonl",
            Variant::StreamJson => "gemini-stream-json",
        }
    }
}

const MESSAGE_TYPES: &[&str] = &["user", "gemini", "model", "info", "error", "warning"];

fn is_message_record(o: &Object) -> bool {
    o.get("id").and_then(Json::as_str).is_some()
        && o.get("type")
            .and_then(Json::as_str)
            .is_some_and(|t| MESSAGE_TYPES.contains(&t))
}

fn sniff_variant(head: &[u8]) -> Option<(Variant, u8)> {
    let first = sniff_first_line(head)?;
    let o = first.value().as_object()?;
    // gemini -p --output-format stream-json starts with its init event.
    if o.get("type").and_then(Json::as_str) == Some("init")
        && o.contains_key("session_id")
        && !o.contains_key("subtype")
    {
        return Some((Variant::StreamJson, 90));
    }
    let is_meta =
        o.get("sessionId").and_then(Json::as_str).is_some() && o.contains_key("projectHash");
    if first.complete && is_meta && !o.contains_key("messages") {
        return Some((Variant::Jsonl, 90));
    }
    if first.complete && is_message_record(&o) && o.contains_key("timestamp") {
        return Some((Variant::Jsonl, 60));
    }
    // Legacy: one (usually pretty-printed) ConversationRecord.
    let whole = sniff_partial(head)?;
    let w = whole.value().as_object()?;
    if w.get("sessionId").and_then(Json::as_str).is_some() {
        let msgs_ok = match w.get("messages") {
            Some(m) => m.as_array().is_some_and(|mut m| {
                m.all(|m| {
                    m.as_object().is_none_or(|m| {
                        m.get("type")
                            .and_then(Json::as_str)
                            .is_none_or(|t| MESSAGE_TYPES.contains(&t))
                    })
                })
            }),
            None => w.contains_key("projectHash"),
        };
        if msgs_ok && (w.contains_key("projectHash") || w.contains_key("messages")) {
            return Some((Variant::LegacyJson, 85));
        }
    }
    None
}

impl Decoder for GeminiDecoder {
    fn format(&self) -> &'static str {
        "gemini-chat"
    }
    fn harness(&self) -> Harness {
        Harness::Gemini
    }
    fn max_sniff(&self) -> u8 {
        90
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        sniff_variant(head).map(|(_, s)| s).unwrap_or(0)
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        let head = read_head(path)?;
        let variant = match sniff_variant(&head) {
            Some((v, _)) => v,
            // Forced with --input-format: a first line that is a whole JSON value means JSONL.
            None => match first_line_json(&head) {
                Some(p) if p.complete => Variant::Jsonl,
                _ => Variant::LegacyJson,
            },
        };
        let mut traj = Trajectory::new(path.to_path_buf(), Harness::Gemini, variant.name());
        match variant {
            Variant::LegacyJson => decode_legacy(path, &mut traj, opts)?,
            Variant::Jsonl => decode_jsonl(path, &mut traj, opts)?,
            Variant::StreamJson => decode_stream(path, &mut traj, opts)?,
        }
        Ok(traj)
    }
}

fn read_head(path: &Path) -> Result<Vec<u8>, DecodeError> {
    let mut file = super::open_transcript(path)?;
    let mut head = Vec::with_capacity(super::SNIFF_BYTES);
    file.read_up_to(&mut head, super::SNIFF_BYTES as u64)
        .map_err(|e| DecodeError::new(path, None, format!("cannot read: {e}")))?;
    Ok(head)
}

/// Session metadata shared by the two chat variants.
fn apply_metadata(traj: &mut Trajectory, o: &Map<String, Value>, subagent: &mut bool) {
    if let Some(id) = o.get("sessionId").and_then(Value::as_str) {
        traj.session_id = Some(id.to_string());
    }
    if let Some(dir) = o
        .get("directories")
        .and_then(Value::as_array)
        .and_then(|d| d.first())
        .and_then(Value::as_str)
    {
        traj.cwd = Some(dir.to_string());
    }
    if let Some(kind) = o.get("kind").and_then(Value::as_str) {
        *subagent = kind == "subagent";
    }
}

fn mark_subagent(traj: &mut Trajectory) {
    let id = traj
        .session_id
        .clone()
        .unwrap_or_else(|| "subagent".to_string());
    for e in &mut traj.events {
        if e.agent == AgentPath::Main {
            e.agent = AgentPath::Subagent(id.clone());
        }
    }
}

/// `complete`: the last user/assistant message is an assistant answer without tool calls.
fn ends_with_answer(last: Option<(&str, bool)>) -> bool {
    matches!(last, Some(("gemini" | "model", false)))
}

fn decode_legacy(
    path: &Path,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
) -> Result<(), DecodeError> {
    let (doc, torn) = read_json_file(path)?;
    traj.truncated = torn;
    let Some(o) = doc.as_object() else {
        return Err(DecodeError::new(
            path,
            Some(1),
            "not a Gemini CLI conversation record (expected a JSON object)",
        ));
    };
    let mut subagent = false;
    apply_metadata(traj, o, &mut subagent);
    let mut last = None;
    if let Some(msgs) = o.get("messages").and_then(Value::as_array) {
        for (i, m) in msgs.iter().enumerate() {
            let base = Base {
                line: None,
                pointer: format!("/messages/{i}"),
            };
            if let Some(mo) = m.as_object() {
                if let Some(t) = mo
                    .get("type")
                    .and_then(Value::as_str)
                    .filter(|t| matches!(*t, "user" | "gemini" | "model"))
                {
                    last = Some((t, has_tool_calls(mo)));
                }
            }
            decode_message(m, &base, traj, opts)
                .into_iter()
                .for_each(|e| traj.events.push(e));
        }
    } else {
        problem(
            traj,
            Location::pointer(""),
            ProblemKind::Undecodable,
            "conversation record has no `messages` list",
        );
    }
    if subagent {
        mark_subagent(traj);
    }
    traj.complete = !torn && ends_with_answer(last);
    Ok(())
}

fn has_tool_calls(m: &Map<String, Value>) -> bool {
    m.get("toolCalls")
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty())
}

/// Where a message record sits: a JSONL line and/or a pointer prefix.
struct Base {
    line: Option<u64>,
    pointer: String,
}

impl Base {
    fn at(&self, suffix: &str) -> Location {
        let pointer = format!("{}{suffix}", self.pointer);
        Location {
            file: None,
            line: self.line,
            pointer: if pointer.is_empty() {
                None
            } else {
                Some(pointer)
            },
        }
    }
}

/// The events of one `MessageRecord`. Problems found inside it are pushed to `traj`.
fn decode_message(
    m: &Value,
    base: &Base,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
) -> Vec<Event> {
    let mut out = Vec::new();
    let Some(o) = m.as_object() else {
        problem(
            traj,
            base.at(""),
            ProblemKind::Undecodable,
            "message record is not a JSON object",
        );
        return out;
    };
    let ts = rfc3339(o.get("timestamp").and_then(Value::as_str));
    let content = o
        .get("content")
        .or_else(|| o.get("parts"))
        .unwrap_or(&Value::Null);
    let role = match o.get("type").and_then(Value::as_str) {
        Some("user") => Role::User,
        Some("gemini" | "model") => Role::Assistant,
        Some("info" | "warning" | "error") => Role::System,
        Some(other) => {
            let detail = format!(
                "unknown message type `{}`",
                other.chars().take(40).collect::<String>()
            );
            problem(traj, base.at(""), ProblemKind::UnknownRecordType, detail);
            return out;
        }
        None => {
            problem(
                traj,
                base.at(""),
                ProblemKind::Undecodable,
                "message record has no `type`",
            );
            return out;
        }
    };
    let calls = o
        .get("toolCalls")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty());
    if role != Role::Assistant || has_text(content) || calls.is_none() {
        let mut ev = role_message_event(base.at(""), role, content_text(content), opts);
        ev.timestamp = ts.clone();
        out.push(ev);
    }
    for (j, call) in calls.into_iter().flatten().enumerate() {
        let loc = base.at(&format!("/toolCalls/{j}"));
        let Some(c) = call.as_object() else {
            problem(
                traj,
                loc,
                ProblemKind::Undecodable,
                "tool call is not a JSON object",
            );
            continue;
        };
        let Some(name) = c.get("name").and_then(Value::as_str) else {
            problem(
                traj,
                loc,
                ProblemKind::Undecodable,
                "tool call without a name",
            );
            continue;
        };
        let args = c.get("args").cloned().unwrap_or(Value::Object(Map::new()));
        let mut action = gemini_tool_action(name, &args);
        if action == Action::Other {
            if let Some(agent_id) = c.get("agentId").and_then(Value::as_str) {
                action = Action::Subagent {
                    agent_type: Some(name.to_string()),
                    agent_id: Some(agent_id.to_string()),
                };
            }
        }
        let mut ev = tool_event(loc, Role::Assistant, name, action, &args, opts);
        ev.timestamp = rfc3339(c.get("timestamp").and_then(Value::as_str)).or_else(|| ts.clone());
        match c.get("status").and_then(Value::as_str) {
            Some("error") => ev.failed = true,
            Some("cancelled" | "canceled" | "rejected") => {
                ev.failed = true;
                ev.rejected = true;
            }
            _ => {}
        }
        let (output, errored) = function_response(c.get("result"));
        if errored {
            ev.failed = true;
        }
        let output = output.or_else(|| {
            c.get("resultDisplay")
                .and_then(Value::as_str)
                .map(str::to_string)
        });
        if matches!(ev.action, Action::Shell(_)) {
            if let Some(code) = output.as_deref().and_then(exit_code_in) {
                ev.exit_code = Some(code);
                if code != 0 {
                    ev.failed = true;
                }
            }
        }
        keep_output(opts, &mut ev, output);
        out.push(ev);
    }
    out
}

/// The output text of a tool call's `result` (`[{functionResponse:{response:{output|error}}}]`
/// or a plain string) and whether it reports an error.
fn function_response(result: Option<&Value>) -> (Option<String>, bool) {
    let mut texts = Vec::new();
    let mut errored = false;
    match result {
        Some(Value::String(s)) => texts.push(s.clone()),
        Some(Value::Array(parts)) => {
            for p in parts {
                if let Some(resp) = p.get("functionResponse").and_then(|f| f.get("response")) {
                    if let Some(e) = resp.get("error").filter(|e| !e.is_null()) {
                        errored = true;
                        texts.push(
                            e.as_str()
                                .map(str::to_string)
                                .unwrap_or_else(|| e.to_string()),
                        );
                    }
                    if let Some(out) = resp.get("output").and_then(Value::as_str) {
                        texts.push(out.to_string());
                    }
                } else if let Some(t) = p.get("text").and_then(Value::as_str) {
                    texts.push(t.to_string());
                }
            }
        }
        _ => {}
    }
    ((!texts.is_empty()).then(|| texts.join("\n")), errored)
}

/// Gemini CLI's tool names. The shared table knows `run_shell_command`,
/// `read_file`, `read_many_files`, `write_file`, `replace`, `web_fetch` and
/// `activate_skill`; `smart_edit` (an edit tool of some 0.x releases) is mapped here.
pub(crate) fn gemini_tool_action(name: &str, args: &Value) -> Action {
    match name {
        "smart_edit" => str_arg(args, &["file_path", "absolute_path", "path"])
            .map(|p| file_action(FileEffect::Edit { path: p.into() }))
            .unwrap_or(Action::Other),
        _ => tool_action(name, args),
    }
}

/// Folded state of a Gemini JSONL log: messages by id, in order of first appearance.
#[derive(Default)]
struct Fold {
    order: Vec<String>,
    slots: HashMap<String, Slot>,
}

struct Slot {
    events: Vec<Event>,
    /// (type, has tool calls) of the last version.
    kind: Option<(String, bool)>,
}

impl Fold {
    fn upsert(&mut self, m: &Value, base: &Base, traj: &mut Trajectory, opts: &DecodeOptions) {
        let Some(o) = m.as_object() else {
            problem(
                traj,
                base.at(""),
                ProblemKind::Undecodable,
                "message record is not a JSON object",
            );
            return;
        };
        let Some(id) = o.get("id").and_then(Value::as_str) else {
            problem(
                traj,
                base.at(""),
                ProblemKind::Undecodable,
                "message record has no `id`",
            );
            return;
        };
        let events = decode_message(m, base, traj, opts);
        let kind = o
            .get("type")
            .and_then(Value::as_str)
            .map(|t| (t.to_string(), has_tool_calls(o)));
        if !self.slots.contains_key(id) {
            self.order.push(id.to_string());
        }
        self.slots.insert(id.to_string(), Slot { events, kind });
    }
}

fn decode_jsonl(
    path: &Path,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
) -> Result<(), DecodeError> {
    let mut fold = Fold::default();
    let mut subagent = false;
    for_each_jsonl(path, traj, |line, v, traj| {
        let base = Base {
            line: Some(line),
            pointer: String::new(),
        };
        let Some(o) = v.as_object() else {
            problem(
                traj,
                Location::line(line),
                ProblemKind::Undecodable,
                "record is not a JSON object",
            );
            return;
        };
        if o.get("$rewindTo").and_then(Value::as_str).is_some() {
            // Recognised; the rewound messages' actions still ran (see module docs).
        } else if o.get("id").and_then(Value::as_str).is_some() {
            fold.upsert(&v, &base, traj, opts);
        } else if let Some(set) = o.get("$set").and_then(Value::as_object) {
            apply_metadata(traj, set, &mut subagent);
            if let Some(msgs) = set.get("messages").and_then(Value::as_array) {
                for (k, m) in msgs.iter().enumerate() {
                    let b = Base {
                        line: Some(line),
                        pointer: format!("/$set/messages/{k}"),
                    };
                    fold.upsert(m, &b, traj, opts);
                }
            }
        } else if o.get("sessionId").and_then(Value::as_str).is_some() {
            apply_metadata(traj, o, &mut subagent);
        } else {
            problem(
                traj,
                Location::line(line),
                ProblemKind::UnknownRecordType,
                "unknown Gemini chat record",
            );
        }
    })?;
    let mut last = None;
    for id in &fold.order {
        if let Some(slot) = fold.slots.remove(id) {
            if let Some((t, calls)) = &slot.kind {
                if matches!(t.as_str(), "user" | "gemini" | "model") {
                    last = Some((t.clone(), *calls));
                }
            }
            traj.events.extend(slot.events);
        }
    }
    if subagent {
        mark_subagent(traj);
    }
    traj.complete =
        !traj.truncated && ends_with_answer(last.as_ref().map(|(t, c)| (t.as_str(), *c)));
    Ok(())
}

fn decode_stream(
    path: &Path,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
) -> Result<(), DecodeError> {
    let mut by_id: HashMap<String, usize> = HashMap::new();
    // Index of the assistant message event that `delta` chunks are appended to.
    let mut open_delta: Option<usize> = None;
    let mut result_ok = None;
    for_each_jsonl(path, traj, |line, v, traj| {
        let loc = Location::line(line);
        let Some(o) = v.as_object() else {
            problem(
                traj,
                loc,
                ProblemKind::Undecodable,
                "record is not a JSON object",
            );
            return;
        };
        let ts = rfc3339(o.get("timestamp").and_then(Value::as_str));
        let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
        if kind != "message" {
            open_delta = None;
        }
        match kind {
            "init" => {
                traj.session_id = o
                    .get("session_id")
                    .and_then(Value::as_str)
                    .map(str::to_string);
            }
            "message" => {
                let role = match o.get("role").and_then(Value::as_str) {
                    Some("user") => Role::User,
                    Some("assistant") => Role::Assistant,
                    _ => {
                        problem(
                            traj,
                            loc,
                            ProblemKind::Undecodable,
                            "message event without a known role",
                        );
                        return;
                    }
                };
                let text = o.get("content").and_then(content_text);
                let delta = o.get("delta").and_then(Value::as_bool) == Some(true);
                if delta && role == Role::Assistant {
                    if let Some(idx) = open_delta {
                        if let (Some(t), Some(c)) = (text, traj.events[idx].content.as_mut()) {
                            c.text.get_or_insert_with(String::new).push_str(&t);
                        }
                        return;
                    }
                }
                let mut ev = role_message_event(loc, role, text, opts);
                ev.timestamp = ts;
                traj.events.push(ev);
                open_delta = (delta && role == Role::Assistant).then(|| traj.events.len() - 1);
            }
            "tool_use" => {
                let Some(name) = o.get("tool_name").and_then(Value::as_str) else {
                    problem(
                        traj,
                        loc,
                        ProblemKind::Undecodable,
                        "tool_use event without a tool_name",
                    );
                    return;
                };
                let args = o
                    .get("parameters")
                    .cloned()
                    .unwrap_or(Value::Object(Map::new()));
                let mut ev = tool_event(
                    loc,
                    Role::Assistant,
                    name,
                    gemini_tool_action(name, &args),
                    &args,
                    opts,
                );
                ev.timestamp = ts;
                traj.events.push(ev);
                if let Some(id) = o.get("tool_id").and_then(Value::as_str) {
                    by_id.insert(id.to_string(), traj.events.len() - 1);
                }
            }
            "tool_result" => {
                let idx = o
                    .get("tool_id")
                    .and_then(Value::as_str)
                    .and_then(|id| by_id.get(id))
                    .copied();
                let Some(idx) = idx else {
                    problem(
                        traj,
                        loc,
                        ProblemKind::Skipped,
                        "tool_result without a matching tool_use",
                    );
                    return;
                };
                let ev = &mut traj.events[idx];
                ev.result_timestamp = ts;
                if o.get("status").and_then(Value::as_str) == Some("error") {
                    ev.failed = true;
                }
                let mut output = o.get("output").and_then(Value::as_str).map(str::to_string);
                if let Some(msg) = o
                    .get("error")
                    .and_then(|e| e.get("message"))
                    .and_then(Value::as_str)
                {
                    ev.failed = true;
                    output.get_or_insert_with(|| msg.to_string());
                }
                if matches!(ev.action, Action::Shell(_)) {
                    if let Some(code) = output.as_deref().and_then(exit_code_in) {
                        ev.exit_code = Some(code);
                        ev.failed |= code != 0;
                    }
                }
                keep_output(opts, ev, output);
            }
            "error" => {
                let mut ev = message_event(
                    loc,
                    Role::System,
                    o.get("message").and_then(Value::as_str).map(str::to_string),
                    opts,
                );
                ev.timestamp = ts;
                ev.failed = o.get("severity").and_then(Value::as_str) != Some("warning");
                traj.events.push(ev);
            }
            "result" => {
                result_ok = Some(o.get("status").and_then(Value::as_str) == Some("success"));
            }
            _ => problem(
                traj,
                loc,
                ProblemKind::UnknownRecordType,
                "unknown Gemini stream-json event type",
            ),
        }
    })?;
    traj.complete = !traj.truncated && result_ok == Some(true);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_each_variant() {
        let jsonl = br#"{"sessionId":"s","projectHash":"h","startTime":"2026-01-01T00:00:00Z","kind":"main"}
{"id":"u1","type":"user","content":"hi","timestamp":"2026-01-01T00:00:01Z"}
"#;
        assert_eq!(sniff_variant(jsonl).map(|v| v.0), Some(Variant::Jsonl));
        let legacy = b"{\n  \"sessionId\": \"s\",\n  \"projectHash\": \"h\",\n  \"messages\": [ {\"id\":\"m1\",\"type\":\"user\",\"content\":\"x\"";
        assert_eq!(
            sniff_variant(legacy).map(|v| v.0),
            Some(Variant::LegacyJson)
        );
        let stream = br#"{"type":"init","timestamp":"2026-01-01T00:00:00Z","session_id":"abc","model":"gemini-2.5-pro"}"#;
        assert_eq!(
            sniff_variant(stream).map(|v| v.0),
            Some(Variant::StreamJson)
        );
        let claude_stream = br#"{"type":"system","subtype":"init","session_id":"abc"}"#;
        assert_eq!(sniff_variant(claude_stream), None);
    }

    #[test]
    fn activate_skill_is_a_skill_load() {
        let a = gemini_tool_action("activate_skill", &serde_json::json!({"name":"pdf"}));
        assert_eq!(
            a,
            Action::SkillLoad {
                name: "pdf".into(),
                via: LoadVia::ActivateSkill,
                body_sha256: None,
            }
        );
        let a = gemini_tool_action(
            "replace",
            &serde_json::json!({"file_path":"/a/b.rs","old_string":"x","new_string":"y"}),
        );
        assert_eq!(
            a,
            Action::File {
                effects: vec![FileEffect::Edit {
                    path: "/a/b.rs".into()
                }]
            }
        );
        let a = gemini_tool_action(
            "web_fetch",
            &serde_json::json!({"prompt":"Summarize https://example.com/x please"}),
        );
        assert_eq!(
            a,
            Action::Fetch {
                url: "https://example.com/x".into()
            }
        );
    }
}
