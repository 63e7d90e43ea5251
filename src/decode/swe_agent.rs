//! Decoder for the `swe-agent` format: SWE-agent `.traj` files, one JSON
//! object `{environment?, trajectory:[…], history:[…], info:{…}, replay_config?}`.
//!
//! Events come from `history[]` when it is present (it carries the message
//! turns and, in function-calling configs, OpenAI-style `tool_calls`), else
//! from `trajectory[]` steps (`{action, observation, thought, state}`).
//! Locations are pointers (`/history/6/tool_calls/0`, `/trajectory/3`).
//!
//! SWE-agent actions are its own command language: `bash` / a plain shell line
//! → shell; `create <f>` → write; `open <f>` → read; `edit …`, `insert …`,
//! `append …` → edit of the **currently open file** (tracked from `open` /
//! `create` and from the `(Open file: …)` footer of each observation);
//! `str_replace_editor <cmd> <path>` → read/write/edit of that path; `submit`,
//! `find_file`, `search_*`, `goto`, `scroll_*` → other. SWE-agent records no
//! exit codes, so `failed` is set only for observations that report an error:
//! a rejected edit ("Your proposed edit has introduced new syntax error"),
//! "No replacement was performed", "command not found", or an observation
//! that starts with `Error` / `ERROR:` / `Usage:`. `complete` is
//! `info.exit_status == "submitted…"`, or a `submit` action when there is no
//! `info`. A history entry whose `agent` is not `main` / `primary` is a
//! subagent's.

use super::generic::*;
use super::model::*;
use super::sniffjson::{Json, Object};
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use serde_json::{json, Map, Value};
use std::path::Path;

pub struct SweAgentDecoder;

impl Decoder for SweAgentDecoder {
    fn format(&self) -> &'static str {
        "swe-agent"
    }
    fn harness(&self) -> Harness {
        Harness::SweAgent
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
        let first_keys = |k: &str| -> Option<Object> {
            o.get(k)
                .and_then(Json::as_array)
                .and_then(|mut a| a.next())
                .and_then(Json::as_object)
        };
        let steps = first_keys("trajectory")
            .is_some_and(|s| s.contains_key("action") || s.contains_key("observation"));
        let hist = first_keys("history").is_some_and(|h| {
            h.contains_key("role") && (h.contains_key("message_type") || h.contains_key("agent"))
        });
        let info = o.contains_key("info")
            && (o.contains_key("trajectory") || o.contains_key("replay_config"));
        if steps || hist || info {
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
                "not a SWE-agent trajectory (expected a JSON object)",
            ));
        };
        let mut traj = Trajectory::new(path.to_path_buf(), Harness::SweAgent, self.format());
        traj.truncated = torn;
        let info = o.get("info").and_then(Value::as_object);
        traj.harness_version = info
            .and_then(|i| i.get("swe_agent_version"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let mut st = State::default();
        match o
            .get("history")
            .and_then(Value::as_array)
            .filter(|h| !h.is_empty())
        {
            Some(history) => decode_history(history, &mut traj, &mut st, opts),
            None => match o.get("trajectory").and_then(Value::as_array) {
                Some(steps) => decode_steps(steps, &mut traj, &mut st, opts),
                None => {
                    return Err(DecodeError::new(
                        path,
                        Some(1),
                        "SWE-agent trajectory has neither `history` nor `trajectory`",
                    ))
                }
            },
        }
        let exit_status = info
            .and_then(|i| i.get("exit_status"))
            .and_then(Value::as_str);
        traj.complete = !torn
            && match exit_status {
                Some(s) => s.starts_with("submitted"),
                None => st.submitted,
            };
        Ok(traj)
    }
}

#[derive(Default)]
struct State {
    open_file: Option<String>,
    cwd: Option<String>,
    submitted: bool,
}

impl State {
    fn edit_of_open_file(&self) -> Action {
        match &self.open_file {
            Some(p) => file_action(FileEffect::Edit { path: p.clone() }),
            None => Action::Other,
        }
    }

    /// Update the open file and directory from an observation's footer.
    fn observe(&mut self, text: &str) {
        if let Some(f) = footer(text, "(Open file: ") {
            self.open_file = (f != "n/a" && !f.is_empty()).then(|| f.to_string());
        }
        if let Some(d) = footer(text, "(Current directory: ") {
            self.cwd = Some(d.to_string());
        }
    }
}

fn footer<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    let start = text.rfind(marker)? + marker.len();
    let rest = &text[start..];
    Some(rest[..rest.find(')')?].trim())
}

fn unquote(w: &str) -> &str {
    let w = w.trim();
    for q in ['"', '\''] {
        if w.len() >= 2 && w.starts_with(q) && w.ends_with(q) {
            return &w[1..w.len() - 1];
        }
    }
    w
}

/// True when an observation reports that its action failed.
fn observation_failed(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("Error")
        || t.starts_with("ERROR:")
        || t.starts_with("Usage:")
        || text.contains("Your proposed edit has introduced new syntax error")
        || text.contains("No replacement was performed")
        || text.contains(": command not found")
}

/// The raw tool name and action of an action line in SWE-agent's command language.
fn line_action(line: &str, st: &mut State) -> (String, Action) {
    let trimmed = line.trim();
    let first = trimmed.lines().next().unwrap_or("");
    let mut words = first.split_whitespace();
    let cmd = words.next().unwrap_or("");
    let arg = || first[cmd.len()..].trim();
    let action = match cmd {
        "submit" => {
            st.submitted = true;
            Action::Other
        }
        "create" => {
            let p = unquote(arg().split_whitespace().next().unwrap_or("")).to_string();
            if p.is_empty() {
                Action::Other
            } else {
                st.open_file = Some(p.clone());
                file_action(FileEffect::Write { path: p })
            }
        }
        "open" => {
            let p = unquote(arg().split_whitespace().next().unwrap_or("")).to_string();
            if p.is_empty() {
                Action::Other
            } else {
                st.open_file = Some(p.clone());
                file_action(FileEffect::Read { path: p })
            }
        }
        "edit" | "insert" | "append" => st.edit_of_open_file(),
        "goto" | "scroll_up" | "scroll_down" | "find_file" | "search_dir" | "search_file"
        | "filemap" | "exit_forfeit" | "exit_cost" | "exit_context" | "exit_error"
        | "exit_format" | "skip" => Action::Other,
        "str_replace_editor" => {
            let w: Vec<&str> = first.split_whitespace().collect();
            match (w.get(1), w.get(2)) {
                (Some(c), Some(p)) => tool_action(
                    "str_replace_editor",
                    &json!({"command": c, "path": unquote(p)}),
                ),
                _ => Action::Other,
            }
        }
        "" => Action::Other,
        _ => return ("bash".to_string(), shell_action(trimmed, st.cwd.as_deref())),
    };
    (cmd.to_string(), action)
}

/// The action of a function-calling tool call.
fn call_action(name: &str, args: &Value, st: &mut State) -> Action {
    match name {
        "bash" => shell_input_action(args, st.cwd.as_deref()).unwrap_or(Action::Other),
        "edit" | "insert" | "append" => st.edit_of_open_file(),
        "create" | "open" => match str_arg(args, &["filename", "path", "file_name"]) {
            Some(p) => {
                st.open_file = Some(p.to_string());
                if name == "create" {
                    file_action(FileEffect::Write { path: p.into() })
                } else {
                    file_action(FileEffect::Read { path: p.into() })
                }
            }
            None => Action::Other,
        },
        "submit" => {
            st.submitted = true;
            Action::Other
        }
        "goto" | "scroll_up" | "scroll_down" | "find_file" | "search_dir" | "search_file"
        | "filemap" => Action::Other,
        _ => tool_action(name, args),
    }
}

fn agent_of(o: &Map<String, Value>) -> AgentPath {
    match o.get("agent").and_then(Value::as_str) {
        None | Some("main" | "primary" | "") => AgentPath::Main,
        Some(a) => AgentPath::Subagent(a.to_string()),
    }
}

/// Apply an observation to the events it answers.
fn observe(
    traj: &mut Trajectory,
    pending: &[usize],
    text: Option<String>,
    st: &mut State,
    opts: &DecodeOptions,
) {
    let text = text.unwrap_or_default();
    st.observe(&text);
    let failed = observation_failed(&text);
    for &idx in pending {
        let ev = &mut traj.events[idx];
        ev.failed |= failed;
        keep_output(opts, ev, Some(text.clone()));
    }
}

fn decode_history(history: &[Value], traj: &mut Trajectory, st: &mut State, opts: &DecodeOptions) {
    let mut pending: Vec<usize> = Vec::new();
    for (i, m) in history.iter().enumerate() {
        let ptr = format!("/history/{i}");
        let Some(o) = m.as_object() else {
            problem(
                traj,
                Location::pointer(ptr),
                ProblemKind::Undecodable,
                "history entry is not a JSON object",
            );
            continue;
        };
        let content = o.get("content").unwrap_or(&Value::Null);
        let agent = agent_of(o);
        match o.get("role").and_then(Value::as_str) {
            Some("system") => {
                let mut ev = message_event(
                    Location::pointer(ptr),
                    Role::System,
                    content_text(content),
                    opts,
                );
                ev.agent = agent;
                traj.events.push(ev);
            }
            Some("assistant") => {
                pending.clear();
                if has_text(content) {
                    let mut ev = message_event(
                        Location::pointer(ptr.clone()),
                        Role::Assistant,
                        content_text(content),
                        opts,
                    );
                    ev.agent = agent.clone();
                    traj.events.push(ev);
                }
                let calls = o
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .filter(|c| !c.is_empty());
                if let Some(calls) = calls {
                    for (j, call) in calls.iter().enumerate() {
                        let cptr = format!("{ptr}/tool_calls/{j}");
                        let func = call.get("function").unwrap_or(call);
                        let Some(name) = func.get("name").and_then(Value::as_str) else {
                            problem(
                                traj,
                                Location::pointer(cptr),
                                ProblemKind::Undecodable,
                                "tool call without a function name",
                            );
                            continue;
                        };
                        let (args, action) = match arguments_value(func.get("arguments")) {
                            Ok(args) => {
                                let a = call_action(name, &args, st);
                                (args, a)
                            }
                            Err(()) => {
                                problem(
                                    traj,
                                    Location::pointer(cptr.clone()),
                                    ProblemKind::Undecodable,
                                    "tool call arguments are not valid JSON",
                                );
                                (Value::Null, Action::Other)
                            }
                        };
                        let mut ev = tool_event(
                            Location::pointer(cptr),
                            Role::Assistant,
                            name,
                            action,
                            &args,
                            opts,
                        );
                        ev.agent = agent.clone();
                        traj.events.push(ev);
                        pending.push(traj.events.len() - 1);
                    }
                } else if let Some(line) = o
                    .get("action")
                    .and_then(Value::as_str)
                    .filter(|a| !a.trim().is_empty())
                {
                    let (tool, action) = line_action(line, st);
                    let input = json!({ "action": line });
                    let mut ev = tool_event(
                        Location::pointer(ptr),
                        Role::Assistant,
                        &tool,
                        action,
                        &input,
                        opts,
                    );
                    ev.agent = agent;
                    traj.events.push(ev);
                    pending.push(traj.events.len() - 1);
                }
            }
            Some("tool") => {
                observe(traj, &pending, content_text(content), st, opts);
                pending.clear();
            }
            Some("user") => {
                if pending.is_empty() {
                    let mut ev = message_event(
                        Location::pointer(ptr),
                        Role::User,
                        content_text(content),
                        opts,
                    );
                    ev.agent = agent;
                    traj.events.push(ev);
                } else {
                    observe(traj, &pending, content_text(content), st, opts);
                    pending.clear();
                }
            }
            Some(other) => {
                let detail = format!(
                    "unknown history role `{}`",
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
                "history entry has no `role`",
            ),
        }
    }
}

fn decode_steps(steps: &[Value], traj: &mut Trajectory, st: &mut State, opts: &DecodeOptions) {
    for (k, step) in steps.iter().enumerate() {
        let ptr = format!("/trajectory/{k}");
        let Some(o) = step.as_object() else {
            problem(
                traj,
                Location::pointer(ptr),
                ProblemKind::Undecodable,
                "trajectory step is not a JSON object",
            );
            continue;
        };
        let thought = o
            .get("thought")
            .or_else(|| o.get("response"))
            .unwrap_or(&Value::Null);
        if has_text(thought) {
            traj.events.push(message_event(
                Location::pointer(ptr.clone()),
                Role::Assistant,
                content_text(thought),
                opts,
            ));
        }
        let Some(line) = o
            .get("action")
            .and_then(Value::as_str)
            .filter(|a| !a.trim().is_empty())
        else {
            continue;
        };
        let (tool, action) = line_action(line, st);
        let input = json!({ "action": line });
        traj.events.push(tool_event(
            Location::pointer(ptr),
            Role::Assistant,
            &tool,
            action,
            &input,
            opts,
        ));
        let idx = traj.events.len() - 1;
        observe(
            traj,
            &[idx],
            o.get("observation").and_then(content_text),
            st,
            opts,
        );
        // The recorded state after the step is authoritative for the next one.
        let state = match o.get("state") {
            Some(Value::String(s)) => serde_json::from_str::<Value>(s).ok(),
            Some(v @ Value::Object(_)) => Some(v.clone()),
            _ => None,
        };
        if let Some(state) = state {
            if let Some(f) = state.get("open_file").and_then(Value::as_str) {
                st.open_file = (f != "n/a" && !f.is_empty()).then(|| f.to_string());
            }
            if let Some(d) = state.get("working_dir").and_then(Value::as_str) {
                st.cwd = Some(d.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_language() {
        let mut st = State::default();
        assert_eq!(
            line_action("create reproduce.py", &mut st).1,
            file_action(FileEffect::Write {
                path: "reproduce.py".into()
            })
        );
        assert_eq!(
            line_action("edit 3:4\nx\nend_of_edit", &mut st).1,
            file_action(FileEffect::Edit {
                path: "reproduce.py".into()
            })
        );
        assert_eq!(
            line_action("open \"src/a.py\" 10", &mut st).1,
            file_action(FileEffect::Read {
                path: "src/a.py".into()
            })
        );
        let (tool, a) = line_action("python reproduce.py", &mut st);
        assert_eq!(tool, "bash");
        assert!(matches!(a, Action::Shell(_)));
        let (tool, a) = line_action("submit", &mut st);
        assert_eq!((tool.as_str(), a), ("submit", Action::Other));
        assert!(st.submitted);
    }

    #[test]
    fn observation_footer_tracks_open_file() {
        let mut st = State::default();
        st.observe("345\n(Open file: /testbed/src/f.py)\n(Current directory: /testbed)\nbash-$");
        assert_eq!(st.open_file.as_deref(), Some("/testbed/src/f.py"));
        assert_eq!(st.cwd.as_deref(), Some("/testbed"));
        st.observe("(Open file: n/a)");
        assert_eq!(st.open_file, None);
    }
}
