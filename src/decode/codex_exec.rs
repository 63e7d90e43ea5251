//! Decoder for `codex exec --json` (the headless event stream, formats note §2.9):
//! `thread.started` (thread id), `turn.started`, `item.started` / `item.updated`
//! / `item.completed` (`{item: {id, type, …}}`), `turn.completed`, `turn.failed`,
//! `error`.
//!
//! Only `item.completed` makes events (started/updated are earlier states of the
//! same item): `command_execution` (a shell line, usually `/bin/bash -lc "…"`,
//! with `exit_code`), `file_change` (`changes: [{path, kind: add|delete|update}]`),
//! `mcp_tool_call`, `web_search`, `agent_message`, `todo_list`; `reasoning` is
//! skipped. The trajectory is complete when the last turn event is `turn.completed`.

use super::jsonl::{self, JsonlLines};
use super::probe::{LooseInt, LooseStr, Text};
use super::tools::action_for_tool;
use super::{
    shell, Action, DecodeError, DecodeOptions, DecodeProblem, Decoder, Event, EventContent,
    FileEffect, Harness, Location, ProblemKind, Role, Trajectory,
};
use serde::Deserialize;
use serde_json::Value;
use std::path::Path;

pub struct CodexExecDecoder;

impl Decoder for CodexExecDecoder {
    fn format(&self) -> &'static str {
        "codex-exec"
    }
    fn harness(&self) -> Harness {
        Harness::Codex
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        if !jsonl::looks_like_jsonl(head) {
            return 0;
        }
        // `"type":"T"` or `"type": "T"` for one of four event types in the
        // first six lines; most heads hold none of their endings.
        let lines = jsonl::first_lines(head, 6);
        let has = |tok: &[u8]| memchr::memmem::find(lines, tok).is_some();
        if !has(b".started\"") && !has(b".completed\"") {
            return 0;
        }
        const TYPED: [&[u8]; 8] = [
            b"\"type\":\"thread.started\"",
            b"\"type\": \"thread.started\"",
            b"\"type\":\"turn.started\"",
            b"\"type\": \"turn.started\"",
            b"\"type\":\"item.completed\"",
            b"\"type\": \"item.completed\"",
            b"\"type\":\"item.started\"",
            b"\"type\": \"item.started\"",
        ];
        if TYPED.iter().any(|t| has(t)) {
            95
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        if opts.keep_content {
            decode_exec::<true>(path)
        } else {
            decode_exec::<false>(path)
        }
    }
}

#[derive(Deserialize, Default)]
struct Line<const K: bool> {
    #[serde(rename = "type", default)]
    ty: LooseStr,
    #[serde(default)]
    thread_id: LooseStr,
    #[serde(default)]
    item: Option<Item<K>>,
}

#[derive(Deserialize, Default)]
struct Item<const K: bool> {
    #[serde(rename = "type", alias = "item_type", default)]
    ty: LooseStr,
    #[serde(default)]
    command: LooseStr,
    #[serde(default)]
    aggregated_output: Option<super::scantext::ScanText<K, true>>,
    #[serde(default)]
    exit_code: LooseInt,
    #[serde(default)]
    status: LooseStr,
    #[serde(default)]
    changes: Option<Vec<Change>>,
    #[serde(default)]
    server: LooseStr,
    #[serde(default)]
    tool: LooseStr,
    #[serde(default)]
    arguments: Option<Value>,
    #[serde(default)]
    text: Option<Text<K>>,
}

#[derive(Deserialize, Default)]
struct Change {
    #[serde(default)]
    path: LooseStr,
    #[serde(default)]
    kind: LooseStr,
}

fn decode_exec<const K: bool>(path: &Path) -> Result<Trajectory, DecodeError> {
    let mut traj = Trajectory::new(path.to_path_buf(), Harness::Codex, "codex-exec");
    let mut lines = JsonlLines::open(path)?;
    let mut turn_completed = false;
    let mut last_is_message = false;
    while let Some(line) = lines.next_line()? {
        let loc = line.location();
        let Some(l) = line.parse::<Line<K>>(&mut traj) else {
            continue;
        };
        match l.ty.as_deref().unwrap_or("") {
            "thread.started" => {
                if traj.session_id.is_none() {
                    traj.session_id = l.thread_id.non_empty().map(str::to_string);
                }
            }
            "turn.started" => turn_completed = false,
            "turn.completed" => turn_completed = true,
            "turn.failed" | "error" => turn_completed = false,
            "item.started" | "item.updated" => {}
            "item.completed" => {
                let Some(item) = l.item else { continue };
                if let Some(is_msg) = item_event(&mut traj, item, loc) {
                    last_is_message = is_msg;
                }
            }
            other => {
                let name: String = other.chars().take(40).collect();
                traj.problems.push(DecodeProblem {
                    location: loc,
                    kind: ProblemKind::UnknownRecordType,
                    detail: format!("unknown event type `{name}`"),
                });
            }
        }
    }
    traj.complete = turn_completed && last_is_message && !traj.truncated;
    Ok(traj)
}

/// The event of a completed item; `Some(true)` for an agent message, `Some(false)`
/// for another event, `None` when the item makes no event.
fn item_event<const K: bool>(traj: &mut Trajectory, item: Item<K>, loc: Location) -> Option<bool> {
    let ty = item.ty.0.clone().unwrap_or_default();
    let failed_status = matches!(item.status.as_deref(), Some("failed") | Some("declined"));
    // a test runner's summary in a command's output (SPEC §5 masked failures)
    let tests = item.aggregated_output.as_ref().and_then(|o| o.facts.tests);
    let (role, tool, action, content) = match ty.as_str() {
        "command_execution" => {
            let cmd = item.command.0.clone().unwrap_or_default();
            let content = EventContent {
                tool_input: Some(Value::String(cmd.clone())),
                tool_output: item.aggregated_output.and_then(|o| o.text.into_full()),
                ..Default::default()
            };
            (
                Role::Assistant,
                Some("command_execution".to_string()),
                Action::Shell(shell::parse_line(&cmd)),
                content,
            )
        }
        "file_change" => {
            let effects = item
                .changes
                .unwrap_or_default()
                .into_iter()
                .filter_map(|c| {
                    let path = c.path.0?;
                    Some(match c.kind.as_deref() {
                        Some("add") => FileEffect::Write { path },
                        Some("delete") => FileEffect::Delete { path },
                        _ => FileEffect::Edit { path },
                    })
                })
                .collect();
            (
                Role::Assistant,
                Some("file_change".to_string()),
                Action::File { effects },
                EventContent::default(),
            )
        }
        "mcp_tool_call" => {
            let tool = item.tool.0.clone().unwrap_or_default();
            let args = item.arguments.clone().unwrap_or(Value::Null);
            let name = match item.server.non_empty() {
                Some(s) => format!("mcp__{s}__{tool}"),
                None => tool.clone(),
            };
            let content = EventContent {
                tool_input: Some(args.clone()),
                ..Default::default()
            };
            (
                Role::Assistant,
                Some(name),
                action_for_tool(&tool, &args),
                content,
            )
        }
        "web_search" => (
            Role::Assistant,
            Some("web_search".to_string()),
            Action::Other,
            EventContent::default(),
        ),
        "todo_list" => (
            Role::Assistant,
            Some("todo_list".to_string()),
            Action::Other,
            EventContent::default(),
        ),
        "agent_message" => {
            let content = EventContent {
                text: item.text.and_then(Text::into_full),
                ..Default::default()
            };
            (Role::Assistant, None, Action::Message, content)
        }
        "reasoning" | "error" => return None,
        other => {
            let name: String = other.chars().take(40).collect();
            traj.problems.push(DecodeProblem {
                location: loc,
                kind: ProblemKind::UnknownRecordType,
                detail: format!("unknown item type `{name}`"),
            });
            return None;
        }
    };
    let is_message = matches!(action, Action::Message);
    let mut ev = Event::new(loc, role, action);
    ev.tool = tool;
    ev.exit_code = item.exit_code.0;
    ev.failed = failed_status || ev.exit_code.is_some_and(|c| c != 0);
    ev.rejected = item.status.as_deref() == Some("declined");
    if !ev.rejected {
        super::testsummary::apply(&mut ev, tests);
    }
    if K {
        ev.content = Some(Box::new(content));
    }
    traj.events.push(ev);
    Some(is_message)
}
