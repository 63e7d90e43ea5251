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

use super::fastjson::{array_of, put, skip_checked, Cursor, Fast, GiveUp};
use super::generic::*;
use super::model::*;
use super::sniffjson::Json;
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use serde_json::{Map, Value};
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
        let Some(o) = p.value().as_object() else {
            return 0;
        };
        let eval_like = o
            .get("eval")
            .and_then(Json::as_object)
            .is_some_and(|e| e.contains_key("task") || e.contains_key("eval_id"));
        let samples = o.get("samples").is_some_and(Json::is_array);
        if eval_like && (o.contains_key("version") || samples || o.contains_key("plan")) {
            90
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        decode_log(path, opts, true)
    }
}

/// Decode an eval log; `fast`: read it by [`lean_log`] (the tests compare
/// both ways).
fn decode_log(path: &Path, opts: &DecodeOptions, fast: bool) -> Result<Trajectory, DecodeError> {
    let (doc, torn) = if fast {
        read_json_file_lean(path, lean_log)?
    } else {
        read_json_file(path)?
    };
    let Some(o) = doc.as_object() else {
        return Err(DecodeError::new(
            path,
            Some(1),
            "not an Inspect AI eval log (expected a JSON object)",
        ));
    };
    let mut traj = Trajectory::new(path.to_path_buf(), Harness::InspectAi, "inspect-ai");
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

/// An eval log as a `Value` holding only what [`decode_log`]
/// reads: `eval.eval_id`, `eval.packages`, `status`, and of each sample its
/// `messages`, `error`, and of each of its `events` the `event`, `id`,
/// `timestamp`, `completed` and `error`. The rest (the plan, results, stats,
/// reductions, each sample's input, output, scores, store and attachments, and
/// the model and sandbox events' payloads: most of a log's bytes) is stepped
/// over by the fast path instead of becoming a `Value` tree. Gives up — the
/// file is then read whole by serde_json, as before — on anything the fast
/// path cannot vouch for, on a repeated kept key, and on a stepped-over value
/// serde_json would refuse as a `Value`, so that what is read, and every
/// error, stays the same.
fn lean_log(text: &str) -> Fast<Value> {
    let mut c = Cursor::new(text);
    if c.peek() != Some(b'{') {
        return Err(GiveUp);
    }
    let mut top = Map::new();
    c.object(0, |c, key| match key {
        "eval" if c.peek() == Some(b'{') => {
            let v = kept_fields(c, 1, &["eval_id", "packages"])?;
            put(&mut top, key, v)
        }
        "samples" if c.peek() == Some(b'[') => {
            let v = array_of(c, 1, lean_sample)?;
            put(&mut top, key, v)
        }
        "eval" | "samples" | "status" => {
            let v = c.value_tree(1)?;
            put(&mut top, key, v)
        }
        _ => skip_checked(c, 1),
    })?;
    if !c.at_end() {
        return Err(GiveUp);
    }
    Ok(Value::Object(top))
}

/// One sample of [`lean_log`] (inside two containers).
fn lean_sample(c: &mut Cursor) -> Fast<Value> {
    if c.peek() != Some(b'{') {
        return c.value_tree(2);
    }
    let mut m = Map::new();
    c.object(2, |c, key| match key {
        "events" if c.peek() == Some(b'[') => {
            let v = array_of(c, 3, |c| {
                if c.peek() == Some(b'{') {
                    kept_fields(c, 4, &["event", "id", "timestamp", "completed", "error"])
                } else {
                    c.value_tree(4)
                }
            })?;
            put(&mut m, key, v)
        }
        "events" | "messages" | "error" => {
            let v = c.value_tree(3)?;
            put(&mut m, key, v)
        }
        _ => skip_checked(c, 3),
    })?;
    Ok(Value::Object(m))
}

/// The object at the cursor (inside `depth` containers) with only the `keep`
/// keys, each as a whole `Value`.
fn kept_fields(c: &mut Cursor, depth: usize, keep: &[&str]) -> Fast<Value> {
    let mut m = Map::new();
    c.object(depth, |c, key| {
        if keep.contains(&key) {
            let v = c.value_tree(depth + 1)?;
            put(&mut m, key, v)
        } else {
            skip_checked(c, depth + 1)
        }
    })?;
    Ok(Value::Object(m))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A log decoded with and without [`lean_log`], as JSON (default
    /// options, then `keep_content`), or the error's text.
    fn both_ways(path: &Path) -> (String, String) {
        let run = |fast: bool| {
            [false, true]
                .map(
                    |keep_content| match decode_log(path, &DecodeOptions { keep_content }, fast) {
                        Ok(t) => serde_json::to_string(&t).unwrap(),
                        Err(e) => e.to_string(),
                    },
                )
                .join("\n")
        };
        (run(true), run(false))
    }

    #[test]
    fn lean_logs_decode_as_value_trees_do() {
        let files = [
            "fixtures/decode-others/inspect-ai/two_samples.json",
            "../shared/realdata/transcripts/inspect-ai/2025-05-12T20-27-36-04-00_browser.json",
        ];
        for f in files {
            let (fast, slow) = both_ways(Path::new(f));
            assert!(fast == slow, "{f} decodes differently");
            let text = std::fs::read_to_string(f).unwrap();
            assert!(lean_log(&text).is_ok(), "{f} is read by the fast path");
        }
        // crafted logs: kept and stepped-over fields of every kind, repeated
        // keys, values serde_json refuses, torn and broken files
        let dir = tempfile::tempdir().unwrap();
        let sample = r#"{"id":1,"input":[{"x":1.5e3}],"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"","tool_calls":[{"id":"c1","function":"bash","arguments":{"cmd":"cargo test"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}],"events":[{"event":"model","input":[{"a":[1,2,{"b":null}]}],"id":"m"},{"event":"tool","id":"c1","timestamp":"2025-05-12T20:27:36Z","completed":"2025-05-12T20:27:40Z","error":null,"result":"x"},7,null],"error":null}"#;
        let logs = [
            format!(
                r#"{{"version":2,"status":"success","eval":{{"eval_id":"e1","task":"t","packages":{{"inspect_ai":"0.3"}}}},"samples":[{sample}],"stats":{{"n":1}}}}"#
            ),
            format!(
                r#"{{"status":"error","eval":{{"eval_id":"e1"}},"samples":[{sample},{sample},"odd"]}}"#
            ),
            format!(r#"{{"eval":{{"eval_id":"e1","eval_id":"e2"}},"samples":[{sample}]}}"#),
            format!(r#"{{"samples":[{sample}],"samples":[]}}"#),
            r#"{"eval":[],"samples":{},"status":null,"plan":{"big":1e400}}"#.to_string(),
            format!(r#"{{"eval":{{"eval_id":"e1"}},"samples":[{sample}],"x":"\ud800"}}"#),
            format!(r#"{{"eval":{{"eval_id":"e1"}},"samples":[{sample}],"status":NaN}}"#),
            format!(r#"{{"eval":{{"eval_id":"e1"}},"samples":[{sample},{sample}"#),
            format!(r#"{{"eval":{{"eval_id":"e1"}},"samples":[{sample}]}} trailing"#),
            r#"[{"eval":{}}]"#.to_string(),
            "\u{feff}  {\"eval\":{\"eval_id\":\"\\u00e9\"},\"samples\":[]}  \n".to_string(),
        ];
        assert!(lean_log(&logs[0]).is_ok() && lean_log(&logs[1]).is_ok());
        for i in [2, 3, 4, 5, 7, 8, 9] {
            assert!(lean_log(&logs[i]).is_err(), "log {i} gives up");
        }
        for (i, log) in logs.iter().enumerate() {
            let f = dir.path().join(format!("{i}.json"));
            std::fs::write(&f, log).unwrap();
            let (fast, slow) = both_ways(&f);
            assert!(fast == slow, "log {i} decodes differently:\n{fast}\n{slow}");
        }
    }
}
