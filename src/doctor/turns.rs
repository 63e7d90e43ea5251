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
/// `Assistant:`, `Tool:`, … at the start of a line). Used only for files no
/// decoder recognises: the turns are listed, never scored.
pub fn from_plain_text(text: &str) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some((role, rest)) = marker(line) {
            turns.push(Turn {
                number: turns.len() + 1,
                line: Some(i as u64 + 1),
                pointer: None,
                role,
                text: Some(rest.trim().to_string()),
                tool_name: None,
                tool_input: None,
                tool_output: None,
                timestamp: None,
                subagent: false,
                action: Action::Message,
                failed: false,
                rejected: false,
                exit_code: None,
            });
        } else if let Some(last) = turns.last_mut() {
            let t = last.text.get_or_insert_with(String::new);
            if !t.is_empty() {
                t.push('\n');
            }
            t.push_str(line);
        }
    }
    turns
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
    fn prose_without_markers_gives_no_turns() {
        assert!(from_plain_text("just some text\nwith: colons in it\n").is_empty());
    }
}
