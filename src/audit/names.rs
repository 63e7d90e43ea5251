//! Dot-namespaced tool names: one name per kind of tool across harnesses
//! (`Bash`, `shell`, `run_shell_command`, `execute_bash` are all `shell.exec`).
//!
//! The table in [`MAPPING`] is the documented contract (docs/audit.md repeats
//! it). A raw name not in the table falls back to the normalized action the
//! decoder gave the call (a `Shell` action is `shell.exec`, a file read is
//! `file.read`...), and a name nothing explains becomes `other.<raw name>`.

use crate::decode::{Action, FileEffect};

/// Raw tool name (as harnesses write it) → dot-namespaced name.
/// Matching is exact first, then case-insensitive.
pub const MAPPING: &[(&str, &str)] = &[
    // shell
    ("Bash", "shell.exec"),
    ("bash", "shell.exec"),
    ("shell", "shell.exec"),
    ("shell_command", "shell.exec"),
    ("exec_command", "shell.exec"),
    ("local_shell_call", "shell.exec"),
    ("command_execution", "shell.exec"),
    ("container.exec", "shell.exec"),
    ("run_shell_command", "shell.exec"),
    ("execute_bash", "shell.exec"),
    ("execute_command", "shell.exec"),
    ("run", "shell.exec"),
    ("cmd_run", "shell.exec"),
    ("BashOutput", "shell.output"),
    ("TaskOutput", "shell.output"),
    ("write_stdin", "shell.input"),
    ("KillBash", "shell.kill"),
    ("KillShell", "shell.kill"),
    ("TaskStop", "shell.kill"),
    ("python", "code.python"),
    ("run_ipython", "code.python"),
    ("ipython", "code.python"),
    // files
    ("Read", "file.read"),
    ("read", "file.read"),
    ("read_file", "file.read"),
    ("read_many_files", "file.read"),
    ("view", "file.read"),
    ("open", "file.read"),
    ("NotebookRead", "file.read"),
    ("Write", "file.write"),
    ("write", "file.write"),
    ("write_file", "file.write"),
    ("create", "file.write"),
    ("Edit", "file.edit"),
    ("MultiEdit", "file.edit"),
    ("NotebookEdit", "file.edit"),
    ("edit", "file.edit"),
    ("replace", "file.edit"),
    ("insert", "file.edit"),
    ("edit_file", "file.edit"),
    ("str_replace_editor", "file.edit"),
    ("str_replace_based_edit_tool", "file.edit"),
    ("file_editor", "file.edit"),
    ("apply_patch", "file.edit"),
    ("file_change", "file.edit"),
    ("Grep", "file.search"),
    ("grep", "file.search"),
    ("search_file_content", "file.search"),
    ("search_dir", "file.search"),
    ("search_file", "file.search"),
    ("Glob", "file.glob"),
    ("glob", "file.glob"),
    ("find_file", "file.glob"),
    ("LS", "file.list"),
    ("ls", "file.list"),
    ("list_directory", "file.list"),
    // web and browser
    ("WebFetch", "web.fetch"),
    ("web_fetch", "web.fetch"),
    ("fetch", "web.fetch"),
    ("browse", "web.fetch"),
    ("WebSearch", "web.search"),
    ("web_search", "web.search"),
    ("web_search_call", "web.search"),
    ("google_web_search", "web.search"),
    ("web_browser_go", "browser.navigate"),
    ("web_browser_click", "browser.click"),
    ("web_browser_type", "browser.type"),
    ("web_browser_type_submit", "browser.submit"),
    ("web_browser_scroll", "browser.scroll"),
    ("web_browser_back", "browser.back"),
    ("web_browser_forward", "browser.forward"),
    ("web_browser_refresh", "browser.refresh"),
    ("browse_interactive", "browser.interact"),
    // agents, skills, planning
    ("Task", "agent.spawn"),
    ("Agent", "agent.spawn"),
    ("delegate", "agent.spawn"),
    ("SendMessage", "agent.message"),
    ("finish", "agent.finish"),
    ("submit", "agent.finish"),
    ("think", "agent.think"),
    ("Skill", "skill.load"),
    ("activate_skill", "skill.load"),
    ("TodoWrite", "plan.todo"),
    ("TodoRead", "plan.todo"),
    ("write_todos", "plan.todo"),
    ("update_plan", "plan.todo"),
    ("todo_list", "plan.todo"),
    ("TaskCreate", "plan.todo"),
    ("TaskUpdate", "plan.todo"),
    ("TaskList", "plan.todo"),
    ("TaskGet", "plan.todo"),
    ("EnterPlanMode", "plan.mode"),
    ("ExitPlanMode", "plan.mode"),
    ("AskUserQuestion", "user.ask"),
    ("ToolSearch", "tool.search"),
    ("tool_search_call", "tool.search"),
    ("tool_search", "tool.search"),
    ("save_memory", "memory.save"),
    ("ScheduleWakeup", "agent.schedule"),
];

/// The dot-namespaced name of a call with this raw tool name and action.
pub fn dot_name(raw: &str, action: &Action) -> String {
    if let Some(name) = mcp_name(raw) {
        return name;
    }
    if let Some((_, dot)) = MAPPING.iter().find(|(r, _)| *r == raw) {
        return (*dot).to_string();
    }
    if let Some((_, dot)) = MAPPING.iter().find(|(r, _)| r.eq_ignore_ascii_case(raw)) {
        return (*dot).to_string();
    }
    if let Some(dot) = from_action(action) {
        return dot.to_string();
    }
    format!("other.{}", sanitize(raw))
}

/// The raw names the table maps to `dot`, in table order.
pub fn raw_names_for(dot: &str) -> Vec<&'static str> {
    MAPPING
        .iter()
        .filter(|(_, d)| *d == dot)
        .map(|(r, _)| *r)
        .collect()
}

/// The category prefix of a dot name (`file.edit` → `file`; `mcp.github.x` → `mcp.github`).
pub fn category(dot: &str) -> &str {
    if let Some(rest) = dot.strip_prefix("mcp.") {
        return match rest.find('.') {
            Some(i) => &dot[..4 + i],
            None => dot,
        };
    }
    dot.split('.').next().unwrap_or(dot)
}

/// `mcp__server__tool` (Claude Code, Codex) → `mcp.server.tool`.
fn mcp_name(raw: &str) -> Option<String> {
    let rest = raw.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    if server.is_empty() || tool.is_empty() {
        return None;
    }
    Some(format!("mcp.{}.{}", sanitize(server), sanitize(tool)))
}

fn from_action(action: &Action) -> Option<&'static str> {
    Some(match action {
        Action::Shell(_) => "shell.exec",
        Action::Fetch { .. } => "web.fetch",
        Action::SkillLoad { .. } => "skill.load",
        Action::Subagent { .. } => "agent.spawn",
        Action::File { effects } => {
            let mut name = "file.read";
            for e in effects {
                match e {
                    FileEffect::Read { .. } => {}
                    FileEffect::Write { .. } => name = "file.write",
                    FileEffect::Edit { .. }
                    | FileEffect::Delete { .. }
                    | FileEffect::Rename { .. } => return Some("file.edit"),
                }
            }
            name
        }
        Action::Message | Action::UserTurn { .. } | Action::Other => return None,
    })
}

/// Lowercase, and keep only `[a-z0-9_-]` (others become `_`), so a name is one dot segment.
fn sanitize(raw: &str) -> String {
    let s: String = raw
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "unnamed".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::ShellAction;

    #[test]
    fn harness_names_map_to_one_dot_name() {
        for raw in [
            "Bash",
            "shell",
            "run_shell_command",
            "execute_bash",
            "exec_command",
        ] {
            assert_eq!(dot_name(raw, &Action::Other), "shell.exec", "{raw}");
        }
        assert_eq!(dot_name("Edit", &Action::Other), "file.edit");
        assert_eq!(dot_name("replace", &Action::Other), "file.edit");
        assert_eq!(dot_name("TodoWrite", &Action::Other), "plan.todo");
        assert_eq!(
            dot_name("web_browser_go", &Action::Other),
            "browser.navigate"
        );
        assert_eq!(dot_name("Skill", &Action::Other), "skill.load");
        assert_eq!(dot_name("Task", &Action::Other), "agent.spawn");
    }

    #[test]
    fn mcp_tools_are_namespaced_by_server() {
        assert_eq!(
            dot_name("mcp__exa__web_fetch_exa", &Action::Other),
            "mcp.exa.web_fetch_exa"
        );
        assert_eq!(
            dot_name("mcp__GitHub__create_issue", &Action::Other),
            "mcp.github.create_issue"
        );
        assert_eq!(category("mcp.exa.web_fetch_exa"), "mcp.exa");
        assert_eq!(category("file.edit"), "file");
    }

    #[test]
    fn unknown_names_fall_back_to_the_action_then_other() {
        let shell = Action::Shell(ShellAction::default());
        assert_eq!(dot_name("my_runner", &shell), "shell.exec");
        let write = Action::File {
            effects: vec![FileEffect::Write { path: "a".into() }],
        };
        assert_eq!(dot_name("scribble", &write), "file.write");
        assert_eq!(dot_name("Knurl", &Action::Other), "other.knurl");
        assert_eq!(dot_name("weird name!", &Action::Other), "other.weird_name_");
    }

    #[test]
    fn mapping_has_no_duplicate_raw_names() {
        let mut seen = std::collections::HashSet::new();
        for (raw, dot) in MAPPING {
            assert!(seen.insert(*raw), "duplicate raw name {raw}");
            assert!(dot.contains('.'), "{dot} is not dot-namespaced");
        }
    }

    #[test]
    fn case_insensitive_fallback() {
        assert_eq!(dot_name("WEBFETCH", &Action::Other), "web.fetch");
        assert_eq!(
            raw_names_for("shell.kill"),
            vec!["KillBash", "KillShell", "TaskStop"]
        );
    }
}
