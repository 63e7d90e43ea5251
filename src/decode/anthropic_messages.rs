//! Decoder for the `anthropic-messages` format: an Anthropic Messages API
//! conversation, bare (`[{role, content}, …]`) or as a request body
//! (`{"model"?, "system"?, "messages": […], "tools"?}`).
//!
//! Content may be a string or a list of blocks. The text blocks of one message
//! become one message event (at `/messages/i`); each `tool_use` /
//! `server_tool_use` block becomes a tool event (at `/messages/i/content/j`);
//! `tool_result` blocks in the next user turn are matched by `tool_use_id` and
//! set `failed` from `is_error` (and `rejected` for Claude Code's "The user
//! doesn't want to proceed…" refusals). `thinking`, `redacted_thinking`,
//! `image` and `document` blocks carry no action and are passed over.

use super::generic::*;
use super::model::*;
use super::openai_chat::{chat_flavour, message_list};
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

pub struct AnthropicMessagesDecoder;

impl Decoder for AnthropicMessagesDecoder {
    fn format(&self) -> &'static str {
        "anthropic-messages"
    }
    fn harness(&self) -> Harness {
        Harness::AnthropicMessages
    }
    fn max_sniff(&self) -> u8 {
        70
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        let Some(p) = sniff_partial(head) else {
            return 0;
        };
        match chat_flavour(p.value()) {
            Some(f) if f.anthropic > f.openai => 70,
            // A plain user/assistant text list is also a valid Messages array,
            // but OpenAI chat claims it; `--input-format anthropic-messages` forces it.
            _ => 0,
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        let (doc, torn) = read_json_file(path)?;
        let Some((msgs, prefix)) = message_list(&doc) else {
            return Err(DecodeError::new(
                path,
                Some(1),
                "not an Anthropic Messages array (no `messages` list of role/content objects)",
            ));
        };
        let mut traj = Trajectory::new(
            path.to_path_buf(),
            Harness::AnthropicMessages,
            self.format(),
        );
        traj.truncated = torn;
        traj.session_id = doc.get("id").and_then(Value::as_str).map(str::to_string);
        if let Some(system) = doc.get("system").filter(|s| has_text(s)) {
            traj.events.push(message_event(
                Location::pointer("/system"),
                Role::System,
                content_text(system),
                opts,
            ));
        }
        decode_anthropic_messages(msgs, prefix, &mut traj, opts);
        traj.complete = !torn
            && msgs.last().is_some_and(|m| {
                m.get("role").and_then(Value::as_str) == Some("assistant")
                    && !m
                        .get("content")
                        .and_then(Value::as_array)
                        .is_some_and(|b| b.iter().any(|b| block_type(b) == Some("tool_use")))
            });
        Ok(traj)
    }
}

fn block_type(b: &Value) -> Option<&str> {
    b.get("type").and_then(Value::as_str)
}

/// Claude Code's text for a tool call the user refused.
fn is_rejection(text: &str) -> bool {
    text.starts_with("The user doesn't want to proceed with this tool use")
        || text.starts_with("The user doesn't want to take this action right now")
}

/// Decode an Anthropic message list into `traj`; pointers are `{prefix}/{i}`.
pub(crate) fn decode_anthropic_messages(
    msgs: &[Value],
    prefix: &str,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
) {
    let mut by_id: HashMap<String, usize> = HashMap::new();
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
        let role = match o.get("role").and_then(Value::as_str) {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            Some("system") => Role::System,
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
                continue;
            }
            None => {
                problem(
                    traj,
                    Location::pointer(ptr),
                    ProblemKind::Undecodable,
                    "message has no `role`",
                );
                continue;
            }
        };
        let content = o.get("content").unwrap_or(&Value::Null);
        let Some(blocks) = content.as_array() else {
            traj.events.push(role_message_event(
                Location::pointer(ptr),
                role,
                content_text(content),
                opts,
            ));
            continue;
        };
        // One message event for the text of the turn, placed before its tool calls.
        let texts: Vec<&Value> = blocks
            .iter()
            .filter(|b| block_type(b) == Some("text"))
            .collect();
        let has_calls = blocks
            .iter()
            .any(|b| matches!(block_type(b), Some("tool_use" | "server_tool_use")));
        let only_results = !blocks.is_empty()
            && blocks
                .iter()
                .all(|b| block_type(b).is_some_and(|t| t.ends_with("tool_result")));
        if texts.iter().any(|t| has_text(t))
            || (!has_calls && !only_results && texts.is_empty() && role != Role::User)
        {
            let text = content_text(&Value::Array(texts.into_iter().cloned().collect()));
            traj.events.push(role_message_event(
                Location::pointer(ptr.clone()),
                role,
                text,
                opts,
            ));
        }
        for (j, b) in blocks.iter().enumerate() {
            let bptr = format!("{ptr}/content/{j}");
            match block_type(b) {
                Some("text" | "thinking" | "redacted_thinking" | "image" | "document") => {}
                Some("tool_use" | "server_tool_use") => {
                    let Some(name) = b.get("name").and_then(Value::as_str) else {
                        problem(
                            traj,
                            Location::pointer(bptr),
                            ProblemKind::Undecodable,
                            "tool_use block without a name",
                        );
                        continue;
                    };
                    let input = b.get("input").cloned().unwrap_or(Value::Null);
                    let action = tool_action(name, &input);
                    traj.events.push(tool_event(
                        Location::pointer(bptr),
                        role,
                        name,
                        action,
                        &input,
                        opts,
                    ));
                    if let Some(id) = b.get("id").and_then(Value::as_str) {
                        by_id.insert(id.to_string(), traj.events.len() - 1);
                    }
                }
                Some(t) if t.ends_with("tool_result") => {
                    let target = b
                        .get("tool_use_id")
                        .and_then(Value::as_str)
                        .and_then(|id| by_id.get(id))
                        .copied();
                    let Some(idx) = target else {
                        problem(
                            traj,
                            Location::pointer(bptr),
                            ProblemKind::Skipped,
                            "tool result without a matching tool_use",
                        );
                        continue;
                    };
                    let out = b.get("content").and_then(content_text);
                    let ev = &mut traj.events[idx];
                    if b.get("is_error").and_then(Value::as_bool) == Some(true) {
                        ev.failed = true;
                        if out.as_deref().is_some_and(is_rejection) {
                            ev.rejected = true;
                        }
                    }
                    keep_output(opts, ev, out);
                }
                Some(other) => {
                    let detail = format!(
                        "unknown content block type `{}`",
                        other.chars().take(40).collect::<String>()
                    );
                    problem(
                        traj,
                        Location::pointer(bptr),
                        ProblemKind::UnknownRecordType,
                        detail,
                    );
                }
                None => problem(
                    traj,
                    Location::pointer(bptr),
                    ProblemKind::Undecodable,
                    "content block without a `type`",
                ),
            }
        }
    }
}
