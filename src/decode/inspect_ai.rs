//! Decoder for the `inspect-ai` format: Inspect AI eval logs in JSON
//! (`{version, status, eval:{…}, plan, results, stats, samples:[…]}`), read
//! whole. (The zipped `.eval` form is not read: unzip it, or write the log
//! with `--log-format json`.)
//!
//! Each sample's `messages[]` (Inspect `ChatMessage`s) gives the events, in
//! order: user/system/assistant text as messages, assistant `tool_calls[]`
//! (`{id, function, arguments}` with `arguments` an object) as tool events at
//! `/samples/s/messages/i/tool_calls/j`, matched to their `role:"tool"`
//! message by `tool_call_id`; a tool message with an `error` fails the call.
//! The sample's `tool` events supply the call's start and end timestamps.
//! Several samples (and epochs) in one log are **concatenated in file order**;
//! the pointer names the sample. Tool names: `bash` → shell (`cmd`),
//! `text_editor` → read/write/edit of `path`, `web_browser_go` → fetch (`url`),
//! others through the shared table. `complete`: the log's `status` is
//! `success` and no sample has an `error`.

use super::generic::*;
use super::model::*;
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

pub struct InspectAiDecoder;

impl Decoder for InspectAiDecoder {
    fn format(&self) -> &'static str {
        "inspect-ai"
    }
    fn harness(&self) -> Harness {
        Harness::InspectAi
    }
    fn max_sniff(&self) -> u8 {
        90
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        let Some(p) = sniff_partial(head) else {
            return 0;
        };
        let Some(o) = p.value.as_object() else {
            return 0;
        };
        let eval_like = o
            .get("eval")
            .and_then(Value::as_object)
            .is_some_and(|e| e.contains_key("task") || e.contains_key("eval_id"));
        let samples = o.get("samples").is_some_and(Value::is_array);
        if eval_like && (o.contains_key("version") || samples || o.contains_key("plan")) {
            90
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        let (doc, torn) = read_json_file(path)?;
        let Some(o) = doc.as_object() else {
            return Err(DecodeError::new(
                path,
                Some(1),
                "not an Inspect AI eval log (expected a JSON object)",
            ));
        };
        let mut traj = Trajectory::new(path.to_path_buf(), Harness::InspectAi, self.format());
        traj.truncated = torn;
        let eval = o.get("eval");
        traj.session_id = eval
            .and_then(|e| e.get("eval_id"))
            .and_then(Value::as_str)
            .map(str::to_string);
        traj.harness_version = eval
            .and_then(|e| e.get("packages"))
            .and_then(|p| p.get("inspect_ai"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let mut any_error = false;
        match o.get("samples").and_then(Value::as_array) {
            Some(samples) => {
                for (s, sample) in samples.iter().enumerate() {
                    any_error |= sample.get("error").is_some_and(|e| !e.is_null());
                    decode_sample(sample, s, &mut traj, opts);
                }
            }
            None => problem(
                &mut traj,
                Location::pointer(""),
                ProblemKind::Skipped,
                "eval log has no `samples` (header-only log)",
            ),
        }
        traj.complete =
            !torn && !any_error && o.get("status").and_then(Value::as_str) == Some("success");
        Ok(traj)
    }
}

/// Timestamps and error of each tool call, from the sample's `tool` events.
fn tool_events(sample: &Value) -> HashMap<String, (Option<String>, Option<String>, bool)> {
    let mut out = HashMap::new();
    for e in sample
        .get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if e.get("event").and_then(Value::as_str) != Some("tool") {
            continue;
        }
        let Some(id) = e.get("id").and_then(Value::as_str) else {
            continue;
        };
        let start = rfc3339(e.get("timestamp").and_then(Value::as_str));
        let end = rfc3339(e.get("completed").and_then(Value::as_str));
        let errored = e.get("error").is_some_and(|x| !x.is_null());
        out.insert(id.to_string(), (start, end, errored));
    }
    out
}

fn decode_sample(sample: &Value, s: usize, traj: &mut Trajectory, opts: &DecodeOptions) {
    let prefix = format!("/samples/{s}/messages");
    let Some(msgs) = sample.get("messages").and_then(Value::as_array) else {
        problem(
            traj,
            Location::pointer(format!("/samples/{s}")),
            ProblemKind::Undecodable,
            "sample has no `messages` list",
        );
        return;
    };
    let timing = tool_events(sample);
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
        let content = o.get("content").unwrap_or(&Value::Null);
        match o.get("role").and_then(Value::as_str) {
            Some("system") => traj.events.push(message_event(
                Location::pointer(ptr),
                Role::System,
                content_text(content),
                opts,
            )),
            Some("user") => traj.events.push(user_turn_event(
                Location::pointer(ptr),
                content_text(content),
                opts,
            )),
            Some("assistant") => {
                let calls = o
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .filter(|c| !c.is_empty());
                if has_text(content) || calls.is_none() {
                    traj.events.push(message_event(
                        Location::pointer(ptr.clone()),
                        Role::Assistant,
                        content_text(content),
                        opts,
                    ));
                }
                for (j, call) in calls.into_iter().flatten().enumerate() {
                    let cptr = format!("{ptr}/tool_calls/{j}");
                    let Some(name) = call.get("function").and_then(Value::as_str) else {
                        problem(
                            traj,
                            Location::pointer(cptr),
                            ProblemKind::Undecodable,
                            "tool call without a function name",
                        );
                        continue;
                    };
                    let args = match arguments_value(call.get("arguments")) {
                        Ok(a) => a,
                        Err(()) => {
                            problem(
                                traj,
                                Location::pointer(cptr.clone()),
                                ProblemKind::Undecodable,
                                "tool call arguments are not valid JSON",
                            );
                            Value::Null
                        }
                    };
                    let mut ev = tool_event(
                        Location::pointer(cptr),
                        Role::Assistant,
                        name,
                        tool_action(name, &args),
                        &args,
                        opts,
                    );
                    if let Some(id) = call.get("id").and_then(Value::as_str) {
                        if let Some((start, end, errored)) = timing.get(id) {
                            ev.timestamp = start.clone();
                            ev.result_timestamp = end.clone();
                            ev.failed |= *errored;
                        }
                        by_id.insert(id.to_string(), traj.events.len());
                    }
                    traj.events.push(ev);
                }
            }
            Some("tool") => {
                let target = o
                    .get("tool_call_id")
                    .and_then(Value::as_str)
                    .and_then(|id| by_id.get(id))
                    .copied();
                let Some(idx) = target else {
                    problem(
                        traj,
                        Location::pointer(ptr),
                        ProblemKind::Skipped,
                        "tool result without a matching tool call",
                    );
                    continue;
                };
                let ev = &mut traj.events[idx];
                if o.get("error").is_some_and(|e| !e.is_null()) {
                    ev.failed = true;
                }
                keep_output(opts, ev, content_text(content));
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
