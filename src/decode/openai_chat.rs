//! Decoder for the `openai-chat` format: an OpenAI Chat Completions message
//! array, bare (`[{role, content, tool_calls?}, …]`) or wrapped
//! (`{"messages": […], "model"?, "format"?: "openai-chat"}`).
//!
//! Assistant `tool_calls[]` (and the legacy `function_call`) become tool events
//! at `/messages/i/tool_calls/j`; `role:"tool"` results are matched by
//! `tool_call_id` (legacy `role:"function"` by name). The format records no
//! error flag for a result, so `failed` is set only where a converter added
//! `is_error: true` or `status: "error"` to the tool message.

use super::generic::*;
use super::model::*;
use super::sniffjson::Json;
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

pub struct OpenAiChatDecoder;

impl Decoder for OpenAiChatDecoder {
    fn format(&self) -> &'static str {
        "openai-chat"
    }
    fn harness(&self) -> Harness {
        Harness::OpenAiChat
    }
    fn max_sniff(&self) -> u8 {
        70
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        let Some(p) = sniff_partial(head) else {
            return 0;
        };
        match chat_flavour(p.value()) {
            Some(f) if f.openai > 0 && f.openai >= f.anthropic => {
                if f.openai > f.anthropic {
                    70
                } else {
                    30
                }
            }
            _ => 0,
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        let (doc, torn) = read_json_file(path)?;
        let Some((msgs, prefix)) = message_list(&doc) else {
            return Err(DecodeError::new(
                path,
                Some(1),
                "not an OpenAI chat message array (no `messages` list of role/content objects)",
            ));
        };
        let mut traj = Trajectory::new(path.to_path_buf(), Harness::OpenAiChat, self.format());
        traj.truncated = torn;
        traj.session_id = doc.get("id").and_then(Value::as_str).map(str::to_string);
        decode_openai_messages(msgs, prefix, &mut traj, opts);
        traj.complete = !torn && ends_with_final_answer(msgs);
        Ok(traj)
    }
}

/// The message list of a chat document and the pointer prefix of its elements.
pub(crate) fn message_list(doc: &Value) -> Option<(&[Value], &'static str)> {
    match doc {
        Value::Array(a) => Some((a.as_slice(), "")),
        Value::Object(o) => o
            .get("messages")
            .and_then(Value::as_array)
            .map(|a| (a.as_slice(), "/messages")),
        _ => None,
    }
}

/// How strongly a (possibly partial) document looks like each chat format.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Flavour {
    pub openai: u32,
    pub anthropic: u32,
}

/// Classify a plain chat document: `None` unless it is a message list whose
/// elements all carry a string `role` and none is a harness record (`type` +
/// `message`, as in Claude Code exports). Markers: `tool_calls`,
/// `tool_call_id`, `function_call`, roles `system`/`developer`/`tool`/`function`
/// and `image_url` parts are OpenAI's; `tool_use`/`tool_result`/`thinking`
/// blocks and a top-level `system` beside `messages` are Anthropic's. A plain
/// user/assistant text list scores 1 for both (OpenAI wins the tie).
pub(crate) fn chat_flavour(doc: Json) -> Option<Flavour> {
    // the message list, as `message_list` finds it
    let msgs = match doc.as_array() {
        Some(a) => a,
        None => doc.get("messages")?.as_array()?,
    };
    let first = msgs.clone().next()?;
    let mut f = Flavour::default();
    for m in msgs.take(64) {
        let o = m.as_object()?;
        let role = o.get("role").and_then(Json::as_str);
        if role.is_none() {
            // The first element must be a message; a cut last element may lack its role.
            if m == first || o.contains_key("type") || o.contains_key("message") {
                return None;
            }
            continue;
        }
        if o.contains_key("message")
            || o.get("type")
                .and_then(Json::as_str)
                .is_some_and(|t| t != "message")
        {
            return None;
        }
        match role {
            Some("system") | Some("developer") | Some("tool") | Some("function") => f.openai += 2,
            Some("user") | Some("assistant") => {}
            // An unknown role later on is counted when decoding; as the first it is not a chat.
            _ if m == first => return None,
            _ => {}
        }
        if o.contains_key("tool_calls")
            || o.contains_key("tool_call_id")
            || o.contains_key("function_call")
        {
            f.openai += 2;
        }
        if let Some(blocks) = o.get("content").and_then(Json::as_array) {
            for b in blocks {
                match b.get("type").and_then(Json::as_str) {
                    Some(
                        "tool_use" | "tool_result" | "thinking" | "redacted_thinking"
                        | "server_tool_use" | "document",
                    ) => f.anthropic += 2,
                    Some("image") if b.get("source").is_some() => f.anthropic += 2,
                    Some("image_url" | "input_audio" | "refusal") => f.openai += 2,
                    _ => {}
                }
            }
        }
    }
    if let Some(o) = doc.as_object() {
        if o.get("format")
            .and_then(Json::as_str)
            .is_some_and(|s| s.contains("openai"))
        {
            f.openai += 4;
        }
        if o.get("format")
            .and_then(Json::as_str)
            .is_some_and(|s| s.contains("anthropic"))
        {
            f.anthropic += 4;
        }
        if o.contains_key("system") {
            f.anthropic += 2;
        }
        if let Some(tools) = o.get("tools").and_then(Json::as_array) {
            for t in tools.take(8) {
                if t.get("input_schema").is_some() {
                    f.anthropic += 1;
                } else if t.get("function").is_some() {
                    f.openai += 1;
                }
            }
        }
    }
    if f.openai == 0 && f.anthropic == 0 {
        f.openai = 1;
        f.anthropic = 1;
    }
    Some(f)
}

/// True when the last message is an assistant turn without tool calls.
fn ends_with_final_answer(msgs: &[Value]) -> bool {
    msgs.last().is_some_and(|m| {
        m.get("role").and_then(Value::as_str) == Some("assistant")
            && m.get("tool_calls")
                .and_then(Value::as_array)
                .is_none_or(|c| c.is_empty())
            && m.get("function_call").is_none_or(Value::is_null)
    })
}

/// Decode an OpenAI chat message list into `traj`; pointers are `{prefix}/{i}`.
pub(crate) fn decode_openai_messages(
    msgs: &[Value],
    prefix: &str,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
) {
    let mut by_call_id: HashMap<String, usize> = HashMap::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for (i, m) in msgs.iter().enumerate() {
        let ptr = format!("{prefix}/{i}");
        let Some(o) = m.as_object() else {
            problem(
                traj,
                Location::pointer(ptr),
                ProblemKind::Undecodable,
                "message is not a JSON object",
            );
            continue;
        };
        let content = o.get("content").unwrap_or(&Value::Null);
        match o.get("role").and_then(Value::as_str) {
            Some("system" | "developer") => {
                traj.events.push(message_event(
                    Location::pointer(ptr),
                    Role::System,
                    content_text(content),
                    opts,
                ));
            }
            Some("user") => {
                traj.events.push(user_turn_event(
                    Location::pointer(ptr),
                    content_text(content),
                    opts,
                ));
            }
            Some("assistant") => {
                let calls = o
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .filter(|c| !c.is_empty());
                let legacy = o.get("function_call").filter(|f| f.is_object());
                if has_text(content) || (calls.is_none() && legacy.is_none()) {
                    traj.events.push(message_event(
                        Location::pointer(ptr.clone()),
                        Role::Assistant,
                        content_text(content),
                        opts,
                    ));
                }
                for (j, call) in calls.into_iter().flatten().enumerate() {
                    let call_ptr = format!("{ptr}/tool_calls/{j}");
                    let func = call.get("function").unwrap_or(call);
                    if let Some(idx) = push_call(traj, &call_ptr, func, opts) {
                        if let Some(id) = call.get("id").and_then(Value::as_str) {
                            by_call_id.insert(id.to_string(), idx);
                        }
                        if let Some(name) = func.get("name").and_then(Value::as_str) {
                            by_name.insert(name.to_string(), idx);
                        }
                    }
                }
                if let Some(func) = legacy {
                    if let Some(idx) = push_call(traj, &format!("{ptr}/function_call"), func, opts)
                    {
                        if let Some(name) = func.get("name").and_then(Value::as_str) {
                            by_name.insert(name.to_string(), idx);
                        }
                    }
                }
            }
            Some(role @ ("tool" | "function")) => {
                let target = if role == "tool" {
                    o.get("tool_call_id")
                        .and_then(Value::as_str)
                        .and_then(|id| by_call_id.get(id))
                } else {
                    o.get("name")
                        .and_then(Value::as_str)
                        .and_then(|n| by_name.get(n))
                };
                match target.copied() {
                    Some(idx) => {
                        let ev = &mut traj.events[idx];
                        if o.get("is_error").and_then(Value::as_bool) == Some(true)
                            || o.get("status").and_then(Value::as_str) == Some("error")
                        {
                            ev.failed = true;
                        }
                        keep_output(opts, ev, content_text(content));
                    }
                    None => problem(
                        traj,
                        Location::pointer(ptr),
                        ProblemKind::Skipped,
                        "tool result without a matching tool call",
                    ),
                }
            }
            Some(other) => {
                let detail = format!(
                    "unknown message role `{}`",
                    other.chars().take(40).collect::<String>()
                );
                problem(
                    traj,
                    Location::pointer(ptr),
                    ProblemKind::UnknownRecordType,
                    detail,
                );
            }
            None => problem(
                traj,
                Location::pointer(ptr),
                ProblemKind::Undecodable,
                "message has no `role`",
            ),
        }
    }
}

/// Push the event of one `{name, arguments}` call; its index, or `None` when it has no name.
fn push_call(
    traj: &mut Trajectory,
    ptr: &str,
    func: &Value,
    opts: &DecodeOptions,
) -> Option<usize> {
    let Some(name) = func.get("name").and_then(Value::as_str) else {
        problem(
            traj,
            Location::pointer(ptr),
            ProblemKind::Undecodable,
            "tool call without a function name",
        );
        return None;
    };
    let (input, action) = match arguments_value(func.get("arguments")) {
        Ok(input) => {
            let action = tool_action(name, &input);
            (input, action)
        }
        Err(()) => {
            problem(
                traj,
                Location::pointer(ptr),
                ProblemKind::Undecodable,
                "tool call arguments are not valid JSON",
            );
            (
                func.get("arguments").cloned().unwrap_or(Value::Null),
                Action::Other,
            )
        }
    };
    traj.events.push(tool_event(
        Location::pointer(ptr),
        Role::Assistant,
        name,
        action,
        &input,
        opts,
    ));
    Some(traj.events.len() - 1)
}
