//! Decoder for the `openhands` format, two shapes:
//!
//! - an **event list**: a JSON array of OpenHands events (the UI's "download
//!   trajectory", `tests/runtime/trajs/*.json`), read whole; locations are
//!   pointers (`/7`). A single eval instance saved as one object
//!   (`{instance_id, history:[…]}`) is read the same way (`/history/7`).
//! - an **eval `output.jsonl`**: one instance per line
//!   (`{instance_id, instruction, metadata, history:[…], error, test_result}`),
//!   streamed line by line. The [`super::Decoder`] contract gives one
//!   trajectory per file, so the instances are **concatenated in file order**;
//!   each event's location is the instance's line plus a pointer into its
//!   history (`line 2, /history/12`), which is how an event names its
//!   instance. All events stay on the main agent path (each instance is a
//!   main agent; only `delegate` starts a subagent). `session_id` is the
//!   `instance_id` when the file holds one instance; `complete` holds only
//!   when every instance finished (`finish` action or a final agent message,
//!   and no `error`).
//!
//! Each event is `{id, timestamp, source, message, action|observation,
//! args|extras, cause?, tool_call_metadata?}`. Actions: `run` → shell (not
//! when `is_input`: that is keyboard input to a running process), `read` →
//! read, `edit` → write for `create`, else edit, `write` → write, `browse*`
//! → fetch, `delegate` → subagent, `message` / `system` / `finish` →
//! messages, `think` / `run_ipython` / MCP calls → other; `recall`,
//! `change_agent_state` and `condensation` are harness bookkeeping (no
//! event). Observations are matched to their action by `cause`: a `run`
//! observation sets the exit code (`failed` when non-zero, including `-1`,
//! a command still running at its timeout) and the working directory; an
//! `ERROR:` edit/read result, an `error` or `user_rejected` observation fails
//! the action. A `recall` observation whose `microagent_knowledge` names
//! triggered microagents yields one skill load each (`via: microagent`). The
//! raw tool name is `tool_call_metadata.function_name` when recorded, else
//! the action name. OpenHands timestamps carry no UTC offset and are not kept.

use super::fastjson::{array_of, put, skip_checked, Cursor, Fast, GiveUp};
use super::generic::*;
use super::model::*;
use super::sniffjson::{Json, Object};
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::Path;

pub struct OpenHandsDecoder;

fn is_event(o: &Object) -> bool {
    o.contains_key("source") && (o.contains_key("action") || o.contains_key("observation"))
}

impl Decoder for OpenHandsDecoder {
    fn format(&self) -> &'static str {
        "openhands"
    }
    fn harness(&self) -> Harness {
        Harness::OpenHands
    }
    fn max_sniff(&self) -> u8 {
        90
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        // output.jsonl: the first line is an instance (it may be longer than the head).
        if let Some(first) = sniff_first_line(head) {
            if let Some(o) = first.value().as_object() {
                let instance = o.contains_key("instance_id")
                    && (o.contains_key("history")
                        || o.contains_key("instruction")
                        || o.contains_key("test_result"));
                // A one-line file that is a whole event list is handled below.
                if instance {
                    return 90;
                }
            }
        }
        let Some(p) = sniff_partial(head) else {
            return 0;
        };
        let value = p.value();
        let events = value
            .as_array()
            .or_else(|| value.get("history").and_then(Json::as_array));
        match events.and_then(|mut e| e.next()).and_then(Json::as_object) {
            Some(first) if is_event(&first) => 90,
            _ => 0,
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        let mut traj = Trajectory::new(path.to_path_buf(), Harness::OpenHands, self.format());
        let head = {
            let mut f = super::open_transcript(path)?;
            let mut h = Vec::with_capacity(super::SNIFF_BYTES);
            f.read_up_to(&mut h, super::SNIFF_BYTES as u64)
                .map_err(|e| DecodeError::new(path, None, format!("cannot read: {e}")))?;
            h
        };
        let jsonl = sniff_first_line(&head)
            .and_then(|p| {
                p.value()
                    .as_object()
                    .map(|o| o.contains_key("instance_id") && !o.contains_key("source"))
            })
            .unwrap_or(false)
            && !starts_array(&head);
        if jsonl {
            decode_output_jsonl(path, &mut traj, opts)?;
            traj.format = "openhands-eval-output".into();
            return Ok(traj);
        }
        decode_event_file(path, &mut traj, opts, true)?;
        Ok(traj)
    }
}

/// An event-list file (`[…]`, or `{"history": […], …}`); `fast`: read it
/// by [`lean_event_file`] (the tests compare both ways).
fn decode_event_file(
    path: &Path,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
    fast: bool,
) -> Result<(), DecodeError> {
    let (doc, torn) = if fast {
        read_json_file_lean(path, lean_event_file)?
    } else {
        read_json_file(path)?
    };
    traj.truncated = torn;
    traj.format = "openhands-events".into();
    let (events, prefix) = match &doc {
        Value::Array(a) => (a.as_slice(), String::new()),
        Value::Object(o) => match o.get("history").and_then(Value::as_array) {
            Some(h) => {
                traj.session_id = o
                    .get("instance_id")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                (h.as_slice(), "/history".to_string())
            }
            None => {
                return Err(DecodeError::new(
                    path,
                    Some(1),
                    "not an OpenHands event list (no array of events, no `history`)",
                ))
            }
        },
        _ => {
            return Err(DecodeError::new(
                path,
                Some(1),
                "not an OpenHands event list",
            ))
        }
    };
    let done = decode_events(events, None, &prefix, traj, opts);
    let instance_error = doc.get("error").is_some_and(|e| !e.is_null());
    traj.complete = !torn && done && !instance_error;
    Ok(())
}

/// An event-list file as a `Value` holding only what [`decode_event_file`]
/// reads: of each event what [`lean_event`] keeps, and of a `{"history":
/// …}` object its `history`, `instance_id` and `error`. Gives up where
/// [`lean_instance`] does; the file is then read whole, as before.
fn lean_event_file(text: &str) -> Fast<Value> {
    let mut c = Cursor::new(text);
    let doc = match c.peek() {
        Some(b'[') => array_of(&mut c, 0, lean_event)?,
        Some(b'{') => instance_fields(&mut c)?,
        _ => return Err(GiveUp),
    };
    if !c.at_end() {
        return Err(GiveUp);
    }
    Ok(doc)
}

fn starts_array(head: &[u8]) -> bool {
    head.iter()
        .find(|c| !c.is_ascii_whitespace() && **c != 0xEF && **c != 0xBB && **c != 0xBF)
        == Some(&b'[')
}

fn decode_output_jsonl(
    path: &Path,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
) -> Result<(), DecodeError> {
    decode_output_jsonl_with(path, traj, opts, true)
}

/// [`decode_output_jsonl`]; `fast`: read each instance with
/// [`lean_instance`] first (tests compare both ways).
fn decode_output_jsonl_with(
    path: &Path,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
    fast: bool,
) -> Result<(), DecodeError> {
    let mut instances = 0usize;
    let mut all_done = true;
    let mut ids: Vec<String> = Vec::new();
    let mut each = |line: u64, v: Value, traj: &mut Trajectory| {
        let Some(o) = v.as_object() else {
            problem(
                traj,
                Location::line(line),
                ProblemKind::Undecodable,
                "instance is not a JSON object",
            );
            all_done = false;
            return;
        };
        let Some(history) = o.get("history").and_then(Value::as_array) else {
            problem(
                traj,
                Location::line(line),
                ProblemKind::Undecodable,
                "instance has no `history` list",
            );
            all_done = false;
            return;
        };
        instances += 1;
        if let Some(id) = o.get("instance_id").and_then(Value::as_str) {
            ids.push(id.to_string());
        }
        let done = decode_events(history, Some(line), "/history", traj, opts);
        let errored = o.get("error").is_some_and(|e| !e.is_null());
        all_done &= done && !errored;
    };
    let mut lines = super::jsonl::JsonlLines::open(path)?;
    while let Some(line) = lines.next_line()? {
        let parsed = line.parse_with(traj, |text| match fast.then(|| lean_instance(text)) {
            Some(Ok(v)) => Ok(v),
            _ => serde_json::from_str::<Value>(text),
        });
        if let Some(v) = parsed {
            each(line.number, v, traj);
        }
    }
    if ids.len() == 1 {
        traj.session_id = ids.pop();
    }
    // A line that could not be read is an instance whose end is unknown.
    let unreadable_line = traj.problems.iter().any(|p| {
        p.location.pointer.is_none()
            && matches!(p.kind, ProblemKind::Undecodable | ProblemKind::InvalidUtf8)
    });
    traj.complete = instances > 0 && all_done && !traj.truncated && !unreadable_line;
    Ok(())
}

/// An `output.jsonl` instance as a `Value` holding only what
/// [`decode_output_jsonl`] and [`decode_events`] read: `instance_id`,
/// `error`, and of each `history` event its `id`, `source`, `action`,
/// `observation`, `args`, `message`, `content`, `cause`, `success`,
/// `extras` and `tool_call_metadata.function_name`. The rest of an instance
/// (the model's raw responses under `tool_call_metadata`, `llm_metrics`,
/// `metrics`, the instance's metadata: most of its bytes) is stepped over
/// by the fast path instead of becoming a `Value` tree. Gives up — the line
/// is then parsed whole by serde_json, as before — on anything the fast path
/// cannot vouch for, on a repeated kept key, and on a stepped-over value
/// serde_json would refuse as a `Value` (a number out of range, a lone
/// surrogate), so that what is read, and every error, stays the same.
fn lean_instance(text: &str) -> Fast<Value> {
    let mut c = Cursor::new(text);
    let top = instance_fields(&mut c)?;
    if !c.at_end() {
        return Err(GiveUp);
    }
    Ok(top)
}

/// The top-level object at the cursor with only `history` (each event as
/// [`lean_event`] keeps it), `instance_id` and `error`.
fn instance_fields(c: &mut Cursor) -> Fast<Value> {
    let mut top = Map::new();
    c.object(0, |c, key| match key {
        "history" if c.peek() == Some(b'[') => {
            let v = array_of(c, 1, lean_event)?;
            put(&mut top, key, v)
        }
        "history" | "instance_id" | "error" => {
            let v = c.value_tree(1)?;
            put(&mut top, key, v)
        }
        _ => skip_checked(c, 1),
    })?;
    Ok(Value::Object(top))
}

/// One `history` element of [`lean_instance`] (inside two containers).
fn lean_event(c: &mut Cursor) -> Fast<Value> {
    if c.peek() != Some(b'{') {
        return c.value_tree(2);
    }
    let mut m = Map::new();
    c.object(2, |c, key| match key {
        "id" | "source" | "action" | "observation" | "args" | "message" | "content" | "cause"
        | "success" | "extras" => {
            let v = c.value_tree(3)?;
            put(&mut m, key, v)
        }
        "tool_call_metadata" if c.peek() == Some(b'{') => {
            let mut t = Map::new();
            c.object(3, |c, key| match key {
                "function_name" => {
                    let v = c.value_tree(4)?;
                    put(&mut t, key, v)
                }
                _ => skip_checked(c, 4),
            })?;
            put(&mut m, key, Value::Object(t))
        }
        "tool_call_metadata" => {
            let v = c.value_tree(3)?;
            put(&mut m, key, v)
        }
        _ => skip_checked(c, 3),
    })?;
    Ok(Value::Object(m))
}

/// Decode one event list; returns whether the agent finished (a `finish`
/// action, or its last action is a message to the user).
fn decode_events(
    events: &[Value],
    line: Option<u64>,
    prefix: &str,
    traj: &mut Trajectory,
    opts: &DecodeOptions,
) -> bool {
    let loc = |i: usize| Location {
        file: None,
        line,
        pointer: Some(format!("{prefix}/{i}")),
    };
    // Event id → index of the trajectory event of that action.
    let mut by_id: HashMap<i64, usize> = HashMap::new();
    let mut finished = false;
    let mut last_agent_action: Option<String> = None;
    // a resumed conversation replays its events: each event id counts once (SPEC §5)
    let mut seen_ids: std::collections::HashSet<i64> = std::collections::HashSet::new();
    for (i, e) in events.iter().enumerate() {
        let Some(o) = e.as_object() else {
            problem(
                traj,
                loc(i),
                ProblemKind::Undecodable,
                "event is not a JSON object",
            );
            continue;
        };
        if let Some(id) = o.get("id").and_then(Value::as_i64) {
            if !seen_ids.insert(id) {
                continue;
            }
        }
        let source = o.get("source").and_then(Value::as_str).unwrap_or("");
        let no_args;
        let args = match o.get("args") {
            Some(a) => a,
            None => {
                no_args = Value::Object(Map::new());
                &no_args
            }
        };
        let tool_name = o
            .get("tool_call_metadata")
            .and_then(|m| m.get("function_name"))
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(action) = o.get("action").and_then(Value::as_str) {
            let role = match source {
                "agent" => Role::Assistant,
                "user" => Role::User,
                _ => Role::System,
            };
            if source == "agent" {
                last_agent_action = Some(action.to_string());
            }
            let text_arg = |keys: &[&str]| {
                keys.iter()
                    .find_map(|k| args.get(*k).and_then(Value::as_str))
                    .map(str::to_string)
            };
            let ev = match action {
                "message" => Some(role_message_event(
                    loc(i),
                    role,
                    text_arg(&["content"])
                        .or_else(|| o.get("message").and_then(Value::as_str).map(str::to_string)),
                    opts,
                )),
                "system" => Some(message_event(
                    loc(i),
                    Role::System,
                    text_arg(&["content"]),
                    opts,
                )),
                "finish" => {
                    finished = true;
                    let mut ev =
                        message_event(loc(i), role, text_arg(&["final_thought", "thought"]), opts);
                    ev.tool = Some(tool_name.clone().unwrap_or_else(|| "finish".into()));
                    Some(ev)
                }
                "recall"
                | "change_agent_state"
                | "condensation"
                | "condensation_request"
                | "null" => None,
                _ => {
                    let a = match action {
                        "run" => {
                            if args.get("is_input").and_then(Value::as_bool) == Some(true) {
                                Action::Other
                            } else {
                                shell_input_action(args, None).unwrap_or(Action::Other)
                            }
                        }
                        "read" => str_arg(args, &["path"])
                            .map(|p| file_action(FileEffect::Read { path: p.into() }))
                            .unwrap_or(Action::Other),
                        "edit" => edit_action(args),
                        "write" => str_arg(args, &["path"])
                            .map(|p| file_action(FileEffect::Write { path: p.into() }))
                            .unwrap_or(Action::Other),
                        "browse" | "browse_interactive" => str_arg(args, &["url"])
                            .map(str::to_string)
                            .or_else(|| str_arg(args, &["browser_actions"]).and_then(first_url))
                            .map(|url| Action::Fetch { url })
                            .unwrap_or(Action::Other),
                        "delegate" => Action::Subagent {
                            agent_type: str_arg(args, &["agent"]).map(str::to_string),
                            agent_id: None,
                        },
                        "think" | "run_ipython" | "call_tool_mcp" | "mcp" | "reject"
                        | "task_tracking" => Action::Other,
                        other => {
                            let detail = format!(
                                "unknown OpenHands action `{}`",
                                other.chars().take(40).collect::<String>()
                            );
                            problem(traj, loc(i), ProblemKind::UnknownRecordType, detail);
                            Action::Other
                        }
                    };
                    let name = tool_name.clone().unwrap_or_else(|| match action {
                        "call_tool_mcp" | "mcp" => {
                            str_arg(args, &["name"]).unwrap_or(action).to_string()
                        }
                        _ => action.to_string(),
                    });
                    let mut ev = tool_event(loc(i), role, &name, a, args, opts);
                    if opts.keep_content {
                        if let (Some(c), Some(t)) = (ev.content.as_mut(), text_arg(&["thought"])) {
                            c.text = Some(t);
                        }
                    }
                    Some(ev)
                }
            };
            if let Some(ev) = ev {
                traj.events.push(ev);
                if let Some(id) = o.get("id").and_then(Value::as_i64) {
                    by_id.insert(id, traj.events.len() - 1);
                }
            }
        } else if let Some(obs) = o.get("observation").and_then(Value::as_str) {
            let extras = o.get("extras").unwrap_or(&Value::Null);
            let content = o.get("content").and_then(Value::as_str).map(str::to_string);
            let target = o
                .get("cause")
                .and_then(Value::as_i64)
                .and_then(|c| by_id.get(&c))
                .copied();
            match obs {
                "recall" => {
                    for (k, name) in microagents(extras).into_iter().enumerate() {
                        let mut ev = Event::new(
                            Location {
                                file: None,
                                line,
                                pointer: Some(format!(
                                    "{prefix}/{i}/extras/microagent_knowledge/{k}"
                                )),
                            },
                            Role::System,
                            Action::SkillLoad {
                                name,
                                via: LoadVia::Microagent,
                                body_sha256: None,
                            },
                        );
                        ev.tool = Some("recall".into());
                        traj.events.push(ev);
                    }
                    continue;
                }
                "agent_state_changed" | "null" | "condensation" => continue,
                "run" | "read" | "edit" | "write" | "think" | "browse" | "error"
                | "user_rejected" | "delegate" | "run_ipython" | "mcp" | "success"
                | "file_download" | "task_tracking" => {}
                other => {
                    let detail = format!(
                        "unknown OpenHands observation `{}`",
                        other.chars().take(40).collect::<String>()
                    );
                    problem(traj, loc(i), ProblemKind::UnknownRecordType, detail);
                }
            }
            let Some(idx) = target else {
                if obs == "error" {
                    // An error with no action: the agent's tool call could not become one.
                    let (role, action) = (Role::Assistant, Action::Other);
                    let mut ev = Event::new(loc(i), role, action);
                    ev.tool = tool_name.clone();
                    ev.failed = true;
                    keep_output(opts, &mut ev, content);
                    traj.events.push(ev);
                }
                continue;
            };
            let ev = &mut traj.events[idx];
            match obs {
                "run" => {
                    let meta = extras.get("metadata");
                    if let Some(code) = meta
                        .and_then(|m| m.get("exit_code"))
                        .and_then(Value::as_i64)
                    {
                        ev.exit_code = Some(code);
                        ev.failed |= code != 0;
                    }
                    if let (Action::Shell(sa), Some(dir)) = (
                        &mut ev.action,
                        meta.and_then(|m| m.get("working_dir"))
                            .and_then(Value::as_str),
                    ) {
                        sa.workdir.get_or_insert_with(|| dir.to_string());
                    }
                }
                "error" => ev.failed = true,
                "user_rejected" => {
                    ev.failed = true;
                    ev.rejected = true;
                }
                _ => {
                    if content
                        .as_deref()
                        .is_some_and(|c| c.trim_start().starts_with("ERROR:"))
                    {
                        ev.failed = true;
                    }
                }
            }
            if o.get("success").and_then(Value::as_bool) == Some(false) {
                ev.failed = true;
            }
            keep_output(opts, ev, content);
        } else {
            problem(
                traj,
                loc(i),
                ProblemKind::UnknownRecordType,
                "event is neither an action nor an observation",
            );
        }
    }
    finished || last_agent_action.as_deref() == Some("message")
}

/// `edit` action: `create` (in `command`, or in the `translated_ipython_code`
/// of older ACI edits) writes the file; `view` reads it; anything else edits it.
fn edit_action(args: &Value) -> Action {
    let Some(path) = str_arg(args, &["path"]) else {
        return Action::Other;
    };
    let command = match args
        .get("command")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
    {
        Some(c) => c.to_string(),
        None => {
            let code = args
                .get("translated_ipython_code")
                .and_then(Value::as_str)
                .unwrap_or("");
            if code.contains("'command': 'create'") || code.contains("\"command\": \"create\"") {
                "create".into()
            } else if code.contains("'command': 'view'") {
                "view".into()
            } else {
                String::new()
            }
        }
    };
    let path = path.to_string();
    file_action(match command.as_str() {
        "create" => FileEffect::Write { path },
        "view" => FileEffect::Read { path },
        _ => FileEffect::Edit { path },
    })
}

/// Names in a recall observation's `microagent_knowledge` (a list of
/// `{name, trigger, content}`, or its Python repr in older exports).
fn microagents(extras: &Value) -> Vec<String> {
    match extras.get("microagent_knowledge") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|m| m.get("name").and_then(Value::as_str))
            .map(str::to_string)
            .collect(),
        Some(Value::String(repr)) => {
            static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
            let re = RE.get_or_init(|| {
                regex::Regex::new(r#"['"]name['"]:\s*['"]([^'"]+)['"]"#).expect("valid regex")
            });
            re.captures_iter(repr).map(|c| c[1].to_string()).collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn create_edits_are_writes() {
        let a = edit_action(
            &json!({"path":"/w/i.html","translated_ipython_code":"print(file_editor(**{'command': 'create', 'path': '/w/i.html'}))"}),
        );
        assert_eq!(
            a,
            file_action(FileEffect::Write {
                path: "/w/i.html".into()
            })
        );
        let a = edit_action(&json!({"path":"/w/p.c","command":"str_replace"}));
        assert_eq!(
            a,
            file_action(FileEffect::Edit {
                path: "/w/p.c".into()
            })
        );
    }

    /// An `output.jsonl` decoded with and without [`lean_instance`], as
    /// JSON (default options, then `keep_content`).
    fn both_paths(path: &Path) -> (String, String) {
        let run = |fast: bool, keep_content: bool| {
            let mut traj = Trajectory::new(path.to_path_buf(), Harness::OpenHands, "openhands");
            let opts = DecodeOptions { keep_content };
            decode_output_jsonl_with(path, &mut traj, &opts, fast).unwrap();
            serde_json::to_string(&traj).unwrap()
        };
        (
            format!("{}\n{}", run(true, false), run(true, true)),
            format!("{}\n{}", run(false, false), run(false, true)),
        )
    }

    #[test]
    fn lean_instances_decode_as_value_trees_do() {
        let mut files = Vec::new();
        for root in [
            "fixtures/decode-others/openhands",
            "../shared/realdata/transcripts/openhands",
        ] {
            for e in std::fs::read_dir(root).unwrap().flatten() {
                if e.path().extension().is_some_and(|x| x == "jsonl") {
                    files.push(e.path());
                }
            }
        }
        assert!(files.len() >= 2, "the fixtures and real outputs are there");
        for f in &files {
            let (fast, slow) = both_paths(f);
            assert!(fast == slow, "{} decodes differently", f.display());
        }
        // the real instances are read by the fast path
        let real = "../shared/realdata/transcripts/openhands/multi_swe_bench_output.jsonl";
        let text = std::fs::read_to_string(real).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            assert!(lean_instance(line).is_ok());
        }
    }

    /// An event-list file decoded with and without [`lean_event_file`], as
    /// JSON (default options, then `keep_content`), or the error's text.
    fn event_file_both_ways(path: &Path) -> (String, String) {
        let run = |fast: bool| {
            [false, true]
                .map(|keep_content| {
                    let mut traj =
                        Trajectory::new(path.to_path_buf(), Harness::OpenHands, "openhands");
                    let opts = DecodeOptions { keep_content };
                    match decode_event_file(path, &mut traj, &opts, fast) {
                        Ok(()) => serde_json::to_string(&traj).unwrap(),
                        Err(e) => e.to_string(),
                    }
                })
                .join("\n")
        };
        (run(true), run(false))
    }

    #[test]
    fn lean_event_files_decode_as_value_trees_do() {
        let real = [
            "fixtures/decode-others/openhands/torn_events.json",
            "../shared/realdata/transcripts/openhands/basic_gui_mode.json",
            "../shared/realdata/transcripts/openhands/wrong_initial_state.json",
        ];
        for f in real {
            let (fast, slow) = event_file_both_ways(Path::new(f));
            assert!(fast == slow, "{f} decodes differently");
        }
        for f in &real[1..] {
            let text = std::fs::read_to_string(f).unwrap();
            assert!(
                lean_event_file(&text).is_ok(),
                "{f} is read by the fast path"
            );
        }
        let ev = r#"{"id":1,"source":"agent","action":"run","args":{"command":"cargo test","thought":"t"},"tool_call_metadata":{"function_name":"execute_bash","model_response":{"x":[1.5e3]}},"llm_metrics":{"cost":0.5},"timestamp":"2025"}"#;
        let obs = r#"{"id":2,"source":"environment","observation":"run","content":"ok","cause":1,"extras":{"exit_code":0,"command":"cargo test"},"timestamp":"2025"}"#;
        let files = [
            format!("[{ev},{obs}]"),
            format!(
                r#"{{"instance_id":"i1","history":[{ev},{obs}],"metadata":{{"m":1}},"error":null}}"#
            ),
            format!(r#"{{"instance_id":"i1","history":[{ev}],"error":"boom"}}"#),
            format!(r#"{{"history":[{ev}],"history":[]}}"#),
            r#"{"history":{},"instance_id":7}"#.to_string(),
            format!(r#"{{"history":[{ev}],"x":1e400}}"#),
            format!(r#"[{ev},"odd",7,null,[]]"#),
            format!(r#"[{ev},{obs}"#),
            format!(r#"[{ev}] trailing"#),
            r#"{"instance_id":"i1"}"#.to_string(),
            format!("\u{feff} [{obs}] \n"),
            "42".to_string(),
        ];
        let dir = tempfile::tempdir().unwrap();
        for (i, text) in files.iter().enumerate() {
            let f = dir.path().join(format!("{i}.json"));
            std::fs::write(&f, text).unwrap();
            let (fast, slow) = event_file_both_ways(&f);
            assert!(
                fast == slow,
                "file {i} decodes differently:\n{fast}\n{slow}"
            );
        }
        assert!(lean_event_file(&files[0]).is_ok() && lean_event_file(&files[1]).is_ok());
        for i in [3, 5, 7, 8, 11] {
            assert!(lean_event_file(&files[i]).is_err(), "file {i} gives up");
        }
    }

    #[test]
    fn lean_instances_give_up_on_what_they_cannot_vouch_for() {
        let ev_run = r#"{"id":1,"source":"agent","action":"run","args":{"command":"cargo test","thought":"t"},"tool_call_metadata":{"function_name":"execute_bash","model_response":{"choices":[{"x":1.5e3}],"usage":{"a":[1,2,{"b":null}]}}},"llm_metrics":{"cost":0.5},"timestamp":"2025"}"#;
        let ev_obs = r#"{"id":2,"source":"agent","observation":"run","cause":1,"content":"test result: FAILED. 1 passed; 1 failed;\n","extras":{"metadata":{"exit_code":1,"working_dir":"/w"}},"success":false}"#;
        let deep = format!("{}1{}", "[".repeat(120), "]".repeat(120));
        let inst = |history: &str, extra: &str| {
            format!(
                r#"{{"instance_id":"i1","instruction":"do","metadata":{{"m":[1,{{"k":"v"}}]}},"history":[{history}]{extra},"error":null}}"#
            )
        };
        let both = format!("{ev_run},{ev_obs}");
        let lines = vec![
            inst(&both, ""),
            inst(&both, r#","metrics":{"a":1e400}"#),
            inst(&both, r#","metrics":{"a":1e-5,"b":"\ud800"}"#),
            inst(&both, r#","metrics":{"a":"\ud83d\ude00"}"#),
            inst(&both, &format!(r#","metrics":{deep}"#)),
            inst(&both, r#","history":[]"#),
            inst(&both, r#","error":"boom""#),
            inst(&both, r#","instance_\u0069d":"i2""#),
            inst(&format!(r#"{ev_run},7,null,[1],{{"id":3,"id":4,"source":"agent","action":"message","args":{{"content":"hi"}}}}"#), ""),
            inst(r#"{"id":5,"source":"agent","action":"read","args":{"path":"/a"},"tool_call_metadata":"odd","tool_call_metadata":{}}"#, ""),
            inst(r#"{"id":6,"source":"agent","action":"read","args":{"path":"/a"},"tool_call_metadata":{"function_name":"a","function_name":"b"}}"#, ""),
            inst(r#"{"id":7,"source":"agent","action":"edit","args":{"path":"/a","command":"create"},"tool_call_metadata":{"function_name":7}}"#, ""),
            r#"{"instance_id":"i3","history":{"not":"a list"}}"#.to_string(),
            r#"{"instance_id":"i4","history":[{"id":1,"source":"agent","action":"run","args":{"command":"ls"}}]} trailing"#.to_string(),
            r#"["not","an","object"]"#.to_string(),
            r#"{"instance_id":"i5","history":[{"id":1,"source":"agent","action":"run","args":{"command":"tab	inside"}}]}"#.to_string(),
            r#"{"instance_id":"i6","history":[{"id":1,"x":01}]}"#.to_string(),
            r#"{"instance_id":"i7","history":[{"id":1,"source":"agent","action":"run","args":{"command":"cut"#.to_string(),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("output.jsonl");
        let mut texts: Vec<String> = lines.iter().map(|l| format!("{l}\n")).collect();
        texts.push(lines.join("\n"));
        let all = lines.join("\n");
        for cut in (0..all.len()).step_by(41) {
            if all.is_char_boundary(cut) {
                texts.push(all[..cut].to_string());
            }
        }
        for text in &texts {
            std::fs::write(&path, text).unwrap();
            let (fast, slow) = both_paths(&path);
            assert_eq!(fast, slow, "{text}");
        }
        // what goes which way
        assert!(lean_instance(&lines[0]).is_ok());
        assert!(lean_instance(&lines[2]).is_err()); // a lone surrogate, stepped over
        assert!(lean_instance(&lines[3]).is_ok()); // a surrogate pair is fine
        assert!(lean_instance(&lines[4]).is_err()); // too deep
        assert!(lean_instance(&lines[5]).is_err()); // a repeated kept key
        assert!(lean_instance(&lines[7]).is_err()); // an escaped key
        let v = lean_instance(&lines[0]).unwrap();
        let ev = &v["history"][0];
        assert_eq!(
            ev["tool_call_metadata"],
            json!({"function_name": "execute_bash"})
        );
        assert!(ev.get("llm_metrics").is_none() && v.get("metadata").is_none());
    }

    #[test]
    fn microagent_names_from_list_or_repr() {
        assert_eq!(
            microagents(&json!({"microagent_knowledge":[{"name":"github","trigger":"github"}]})),
            vec!["github"]
        );
        assert_eq!(
            microagents(
                &json!({"microagent_knowledge":"[{'name': 'github', 'trigger': 'github', 'content': 'x'}]"})
            ),
            vec!["github"]
        );
    }
}
