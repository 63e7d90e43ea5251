//! The decoded session as an ordered list of turn records (seed 000, step 2).
//!
//! Turn *N* is event *N − 1* of the decoded trajectory (the numbering of
//! `skillgate trajectory`), so a reader can find every cited turn. A tool call
//! and its result are one turn (decoders pair them).

use crate::decode::{Action, AgentPath, Event, Role, Trajectory};
use serde::Serialize;

/// Who a turn belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TurnRole {
    User,
    Assistant,
    /// A tool call together with its result.
    Tool,
    System,
}

impl TurnRole {
    pub fn as_str(self) -> &'static str {
        match self {
            TurnRole::User => "user",
            TurnRole::Assistant => "assistant",
            TurnRole::Tool => "tool",
            TurnRole::System => "system",
        }
    }
}

/// One turn record: role, text, tool name, tool input, tool output, timestamp.
#[derive(Debug, Clone)]
pub struct Turn {
    /// 1-based; event index + 1.
    pub number: usize,
    /// Source line (JSONL, markdown) where the decoder recorded one.
    pub line: Option<u64>,
    /// JSON pointer for one-object files.
    pub pointer: Option<String>,
    pub role: TurnRole,
    pub text: Option<String>,
    pub tool_name: Option<String>,
    pub tool_input: Option<serde_json::Value>,
    pub tool_output: Option<String>,
    pub timestamp: Option<String>,
    /// The turn belongs to a subagent, not the main agent.
    pub subagent: bool,
    pub action: Action,
    pub failed: bool,
    pub rejected: bool,
    pub exit_code: Option<i64>,
}

impl Turn {
    /// A tool call (with its result), as opposed to a message.
    pub fn is_tool(&self) -> bool {
        self.role == TurnRole::Tool
    }

    /// An assistant message of the main agent or a subagent.
    pub fn is_assistant_message(&self) -> bool {
        self.role == TurnRole::Assistant && matches!(self.action, Action::Message)
    }

    /// "turn 12" or "turn 12 (line 30)".
    pub fn cite(&self) -> String {
        match self.line {
            Some(l) => format!("turn {} (line {l})", self.number),
            None => format!("turn {}", self.number),
        }
    }
}

fn turn_role(e: &Event) -> TurnRole {
    let tool_action = matches!(
        e.action,
        Action::File { .. } | Action::Shell(_) | Action::Fetch { .. } | Action::Subagent { .. }
    );
    // A decoder may name the tool of a message-like action (OpenHands
    // `finish`, a `message` action): it stays a message of its role.
    if matches!(e.action, Action::Message | Action::UserTurn { .. })
        && matches!(e.role, Role::User | Role::Assistant)
    {
        return if e.role == Role::User {
            TurnRole::User
        } else {
            TurnRole::Assistant
        };
    }
    if e.tool.is_some() || e.role == Role::Tool || tool_action {
        return TurnRole::Tool;
    }
    match e.role {
        Role::User => TurnRole::User,
        Role::Assistant => TurnRole::Assistant,
        Role::System => TurnRole::System,
        Role::Tool => TurnRole::Tool,
    }
}

/// The turns of a decoded trajectory, in order.
pub fn from_trajectory(traj: &Trajectory) -> Vec<Turn> {
    traj.events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let content = e.content.as_deref();
            Turn {
                number: i + 1,
                line: e.location.line,
                pointer: e.location.pointer.clone(),
                role: turn_role(e),
                text: content.and_then(|c| c.text.clone()),
                tool_name: e.tool.clone(),
                tool_input: content.and_then(|c| c.tool_input.clone()),
                tool_output: content.and_then(|c| c.tool_output.clone()),
                timestamp: e.timestamp.clone(),
                subagent: matches!(e.agent, AgentPath::Subagent(_)),
                action: e.action.clone(),
                failed: e.failed || e.rejected,
                rejected: e.rejected,
                exit_code: e.exit_code,
            }
        })
        .collect()
}

/// Role markers of plain-text logs, matched at the start of a line
/// (case-insensitive, followed by `:`).
pub const PLAIN_TEXT_MARKERS: &[(&str, TurnRole)] = &[
    ("user", TurnRole::User),
    ("human", TurnRole::User),
    ("you", TurnRole::User),
    ("assistant", TurnRole::Assistant),
    ("ai", TurnRole::Assistant),
    ("claude", TurnRole::Assistant),
    ("codex", TurnRole::Assistant),
    ("gemini", TurnRole::Assistant),
    ("model", TurnRole::Assistant),
    ("tool", TurnRole::Tool),
    ("function", TurnRole::Tool),
    ("observation", TurnRole::Tool),
    ("system", TurnRole::System),
];

fn marker(line: &str) -> Option<(TurnRole, &str)> {
    let trimmed = line.trim_start_matches(['#', '*', '>', ' ']);
    let colon = trimmed.find(':')?;
    let word = trimmed[..colon].trim_end_matches('*').trim();
    if word.is_empty() || word.len() > 12 {
        return None;
    }
    let role = PLAIN_TEXT_MARKERS
        .iter()
        .find(|(m, _)| m.eq_ignore_ascii_case(word))
        .map(|(_, r)| *r)?;
    let rest = trimmed[colon + 1..].trim_start_matches('*');
    Some((role, rest))
}

/// Recover turns from a plain-text log by its role markers (`User:`,
/// `Assistant:`, `Tool:`, … at the start of a line; seed 000 step 2), with
/// the tool calls it shows:
/// - a `Tool:` turn is a shell call: its first line is the command (a
///   leading `$ ` dropped), the rest its output; the call failed when the
///   output shows an error ([`output_failed`]);
/// - a fenced block in an assistant turn is a tool call of its own, right
///   after the message: `bash`/`sh`/`shell`/`console`/`zsh` blocks are shell
///   calls (`$ ` prompts dropped), `diff`/`patch` blocks are edits of the
///   files their `+++ ` headers name.
///
/// Turns are numbered in order; each keeps the line of its marker (or fence).
pub fn from_plain_text(text: &str) -> Vec<Turn> {
    let mut raw: Vec<(TurnRole, u64, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some((role, rest)) = marker(line) {
            raw.push((role, i as u64 + 1, rest.trim().to_string()));
        } else if let Some(last) = raw.last_mut() {
            if !last.2.is_empty() {
                last.2.push('\n');
            }
            last.2.push_str(line);
        }
    }
    let mut turns: Vec<Turn> = Vec::new();
    let blank = |role: TurnRole, line: u64, text: String| Turn {
        number: 0,
        line: Some(line),
        pointer: None,
        role,
        text: Some(text),
        tool_name: None,
        tool_input: None,
        tool_output: None,
        timestamp: None,
        subagent: false,
        action: Action::Message,
        failed: false,
        rejected: false,
        exit_code: None,
    };
    for (role, line, body) in raw {
        match role {
            TurnRole::Tool => {
                let mut t = blank(role, line, body.clone());
                let (first, rest) = body.split_once('\n').unwrap_or((body.as_str(), ""));
                let cmd = first.trim().trim_start_matches("$ ").trim();
                if !cmd.is_empty() {
                    t.action = Action::Shell(crate::decode::shell::parse_line(cmd));
                    t.tool_name = Some("shell".into());
                    t.tool_input = Some(serde_json::json!({ "command": cmd }));
                    t.tool_output = Some(rest.to_string());
                    t.failed = output_failed(rest);
                }
                turns.push(t);
            }
            TurnRole::Assistant => {
                let calls = fenced_calls(&body, line);
                turns.push(blank(role, line, body));
                for (fence_line, action, name, input) in calls {
                    let mut t = blank(TurnRole::Tool, fence_line, String::new());
                    t.text = None;
                    t.action = action;
                    t.tool_name = Some(name.into());
                    t.tool_input = Some(input);
                    turns.push(t);
                }
            }
            _ => turns.push(blank(role, line, body)),
        }
    }
    for (i, t) in turns.iter_mut().enumerate() {
        t.number = i + 1;
    }
    turns
}

/// Does a tool output (of a plain-text log) show a failure?
pub fn output_failed(out: &str) -> bool {
    out.lines().any(|l| {
        let t = l.trim_start();
        let lower = t.to_ascii_lowercase();
        lower.starts_with("error")
            || lower.starts_with("fatal:")
            || lower.starts_with("traceback (most recent call last)")
            || lower.contains("command not found")
            || lower.contains("no such file or directory")
            || lower.starts_with("failed")
            || lower.contains("test result: failed")
            || lower.contains("tests failed")
            || lower
                .strip_prefix("exit code")
                .or_else(|| lower.strip_prefix("exit status"))
                .map(|r| r.trim_start_matches([':', ' ']))
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() && c != '0'))
    })
}

/// The tool calls of the fenced blocks of an assistant message.
fn fenced_calls(
    body: &str,
    first_line: u64,
) -> Vec<(u64, Action, &'static str, serde_json::Value)> {
    let mut out = Vec::new();
    let mut open: Option<(u64, String, Vec<&str>)> = None;
    for (i, l) in body.lines().enumerate() {
        let t = l.trim_start();
        let here = first_line + i as u64;
        if let Some(info) = t.strip_prefix("```") {
            match open.take() {
                None => open = Some((here, info.trim().to_ascii_lowercase(), Vec::new())),
                Some((at, lang, lines)) => {
                    if let Some(call) = fenced_call(&lang, &lines) {
                        out.push((at, call.0, call.1, call.2));
                    }
                }
            }
        } else if let Some((_, _, lines)) = open.as_mut() {
            lines.push(l);
        }
    }
    out
}

fn fenced_call(lang: &str, lines: &[&str]) -> Option<(Action, &'static str, serde_json::Value)> {
    match lang {
        "bash" | "sh" | "shell" | "console" | "zsh" | "shell-session" => {
            let prompted = lines.iter().any(|l| l.trim_start().starts_with("$ "));
            let cmds: Vec<&str> = lines
                .iter()
                .map(|l| l.trim())
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .filter(|l| !prompted || l.starts_with("$ "))
                .map(|l| l.trim_start_matches("$ "))
                .collect();
            if cmds.is_empty() {
                return None;
            }
            let script = cmds.join("\n");
            Some((
                Action::Shell(crate::decode::shell::parse_line(&script)),
                "shell",
                serde_json::json!({ "command": script }),
            ))
        }
        "diff" | "patch" => {
            let effects: Vec<crate::decode::FileEffect> = lines
                .iter()
                .filter_map(|l| l.strip_prefix("+++ "))
                .map(|p| p.split('\t').next().unwrap_or(p).trim())
                .filter(|p| *p != "/dev/null")
                .map(|p| crate::decode::FileEffect::Edit {
                    path: p.strip_prefix("b/").unwrap_or(p).to_string(),
                })
                .collect();
            if effects.is_empty() {
                return None;
            }
            Some((
                Action::File { effects },
                "apply_patch",
                serde_json::json!({ "patch": lines.join("\n") }),
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_markers_split_turns() {
        let log = "User: fix the bug\nplease\nAssistant: looking\n**Tool:** ls\nREADME.md\nnot a marker: here\n";
        let turns = from_plain_text(log);
        assert_eq!(turns.len(), 3);
        assert_eq!(turns[0].role, TurnRole::User);
        assert_eq!(turns[0].text.as_deref(), Some("fix the bug\nplease"));
        assert_eq!(turns[1].role, TurnRole::Assistant);
        assert_eq!(turns[2].role, TurnRole::Tool);
        assert_eq!(turns[2].line, Some(4));
        assert_eq!(
            turns[2].text.as_deref(),
            Some("ls\nREADME.md\nnot a marker: here")
        );
    }

    #[test]
    fn plain_text_tool_calls_come_from_tool_turns_and_fenced_blocks() {
        let log = "User: fix the build\n\
                   Assistant: Running it.\n```bash\n$ cargo build\n```\n\
                   Tool: cargo build\nerror[E0425]: cannot find value `x`\n\
                   Assistant: Patch:\n```diff\n--- a/src/main.rs\n+++ b/src/main.rs\n@@\n-x\n+let x = 1;\n```\n\
                   Tool: $ cargo test\ntest result: ok. 3 passed\n";
        let turns = from_plain_text(log);
        let roles: Vec<(&str, Option<&str>, bool)> = turns
            .iter()
            .map(|t| (t.role.as_str(), t.tool_name.as_deref(), t.failed))
            .collect();
        assert_eq!(
            roles,
            vec![
                ("user", None, false),
                ("assistant", None, false),
                ("tool", Some("shell"), false),
                ("tool", Some("shell"), true),
                ("assistant", None, false),
                ("tool", Some("apply_patch"), false),
                ("tool", Some("shell"), false),
            ]
        );
        assert_eq!(turns[2].line, Some(3));
        assert_eq!(turns[6].number, 7);
        assert!(matches!(&turns[5].action, Action::File { effects } if effects.len() == 1));
        assert!(output_failed("Exit code: 2"));
        assert!(!output_failed("exit code 0\nall good"));
    }

    #[test]
    fn prose_without_markers_gives_no_turns() {
        assert!(from_plain_text("just some text\nwith: colons in it\n").is_empty());
    }
}
