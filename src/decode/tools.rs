//! Mapping of harness tool calls (name + JSON input) to normalized actions,
//! shared by the decoders. One table for every harness (formats note §0.6):
//! Claude Code, Codex, Gemini CLI, SWE-agent / OpenHands editors, Inspect's
//! web browser, MCP tools. Unknown tools are [`Action::Other`] (the raw name
//! stays in [`super::Event::tool`]).

use super::model::{Action, FileEffect, LoadVia, ShellAction};
use super::{patch, shell};
use serde_json::Value;

/// The action of a tool call with this raw name and input.
///
/// `input` is the call's argument object. A JSON *string* holding an object
/// (OpenAI `arguments`) is accepted too and parsed first.
pub fn action_for_tool(name: &str, input: &Value) -> Action {
    let parsed;
    let input = match input {
        Value::String(s) if s.trim_start().starts_with('{') => {
            match serde_json::from_str::<Value>(s) {
                Ok(v) => {
                    parsed = v;
                    &parsed
                }
                Err(_) => input,
            }
        }
        _ => input,
    };
    let s = |k: &str| input.get(k).and_then(Value::as_str);
    let first_str = |keys: &[&str]| keys.iter().find_map(|k| s(k));
    let file = |op: fn(String) -> FileEffect, keys: &[&str]| match first_str(keys) {
        Some(p) if !p.is_empty() => Action::File {
            effects: vec![op(p.to_string())],
        },
        _ => Action::Other,
    };
    const PATH_KEYS: &[&str] = &[
        "file_path",
        "path",
        "absolute_path",
        "notebook_path",
        "filename",
        "file",
    ];
    match name {
        // ---- shells
        "Bash" | "bash" | "run_shell_command" | "execute_bash" | "execute_command"
        | "run_command" | "shell_command" | "exec_command" | "terminal" | "run_terminal_cmd"
        | "container.exec" | "cmd" => shell_from_input(input).map_or(Action::Other, Action::Shell),
        // Codex `shell` (argv array) and local_shell_call-shaped inputs
        "shell" | "local_shell" | "container_exec" => {
            shell_from_input(input).map_or(Action::Other, Action::Shell)
        }
        // ---- patches
        "apply_patch" | "applypatch" => {
            let text = first_str(&["input", "patch", "content"]).or(input.as_str());
            match text {
                Some(t) => Action::File {
                    effects: patch::parse_apply_patch(t),
                },
                None => Action::Other,
            }
        }
        // ---- reads
        "Read" | "read_file" | "view_image" | "open" | "open_file" | "read" | "cat" => {
            file(|path| FileEffect::Read { path }, PATH_KEYS)
        }
        "read_many_files" => {
            let paths: Vec<FileEffect> = ["paths", "file_paths", "include"]
                .iter()
                .filter_map(|k| input.get(*k).and_then(Value::as_array))
                .flatten()
                .filter_map(Value::as_str)
                .map(|p| FileEffect::Read {
                    path: p.to_string(),
                })
                .collect();
            if paths.is_empty() {
                Action::Other
            } else {
                Action::File { effects: paths }
            }
        }
        // ---- writes / edits
        "Write" | "write_file" | "create" | "create_file" => {
            file(|path| FileEffect::Write { path }, PATH_KEYS)
        }
        "Edit"
        | "MultiEdit"
        | "NotebookEdit"
        | "replace"
        | "edit"
        | "edit_file"
        | "str_replace"
        | "insert"
        | "str_replace_based_edit_tool"
            if first_str(PATH_KEYS).is_some() && s("command").is_none() =>
        {
            file(|path| FileEffect::Edit { path }, PATH_KEYS)
        }
        // Anthropic / SWE-agent / OpenHands editor tools: {command, path}
        "str_replace_editor"
        | "file_editor"
        | "str_replace_based_edit_tool"
        | "text_editor"
        | "edit"
        | "edit_file" => editor_action(input, PATH_KEYS),
        // ---- web
        "WebFetch" | "web_fetch" | "fetch" | "web_browser_go" | "browser_navigate" | "browse"
        | "goto" => {
            match first_str(&["url", "uri", "href"])
                .map(str::to_string)
                .or_else(|| s("prompt").and_then(first_url))
            {
                Some(url) => Action::Fetch { url },
                None => Action::Other,
            }
        }
        // ---- skills and subagents
        "Skill" => match first_str(&["skill", "command", "name"]) {
            Some(n) if !n.trim().is_empty() => Action::SkillLoad {
                name: n.trim().trim_start_matches('/').to_string(),
                via: LoadVia::SkillTool,
                body_sha256: None,
            },
            _ => Action::Other,
        },
        "activate_skill" => match first_str(&["name", "skill"]) {
            Some(n) if !n.trim().is_empty() => Action::SkillLoad {
                name: n.trim().to_string(),
                via: LoadVia::ActivateSkill,
                body_sha256: None,
            },
            _ => Action::Other,
        },
        "Task" | "Agent" | "spawn_agent" | "delegate" => Action::Subagent {
            agent_type: first_str(&["subagent_type", "agent_type", "agent"]).map(str::to_string),
            agent_id: None,
        },
        _ => {
            // MCP fetch-like tools (`mcp__exa__web_fetch_exa`) with a URL
            let lower = name.to_ascii_lowercase();
            if (lower.contains("fetch") || lower.contains("browse") || lower.contains("navigate"))
                && first_str(&["url", "uri"]).is_some()
            {
                return Action::Fetch {
                    url: first_str(&["url", "uri"]).unwrap_or_default().to_string(),
                };
            }
            Action::Other
        }
    }
}

/// A shell action from a tool input: `command` / `cmd` as a string or an argv
/// array, with the working directory where given (`workdir`, `cwd`, `dir_path`,
/// `directory`, `working_directory`).
pub fn shell_from_input(input: &Value) -> Option<ShellAction> {
    let cmd = input
        .get("command")
        .or_else(|| input.get("cmd"))
        .or_else(|| input.get("code"));
    let mut action = match cmd? {
        Value::String(line) => shell::parse_line(line),
        Value::Array(items) => {
            let argv: Vec<String> = items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect();
            shell::parse_argv(&argv)
        }
        _ => return None,
    };
    action.workdir = [
        "workdir",
        "cwd",
        "dir_path",
        "directory",
        "working_directory",
    ]
    .iter()
    .find_map(|k| input.get(*k).and_then(Value::as_str))
    .map(str::to_string);
    Some(action)
}

/// A shell action from an argv array and an optional working directory
/// (Codex `local_shell_call`).
pub fn shell_from_argv(argv: &[String], workdir: Option<&str>) -> ShellAction {
    let mut a = shell::parse_argv(argv);
    a.workdir = workdir.map(str::to_string);
    a
}

/// `{command: view|create|str_replace|insert|undo_edit|write, path}`.
fn editor_action(input: &Value, path_keys: &[&str]) -> Action {
    let Some(path) = path_keys
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
    else {
        return Action::Other;
    };
    let path = path.to_string();
    let effect = match input.get("command").and_then(Value::as_str).unwrap_or("") {
        "view" | "read" => FileEffect::Read { path },
        "create" | "write" => FileEffect::Write { path },
        "delete" => FileEffect::Delete { path },
        _ => FileEffect::Edit { path },
    };
    Action::File {
        effects: vec![effect],
    }
}

/// The first http(s) URL in a text (Gemini `web_fetch` takes a prompt).
fn first_url(text: &str) -> Option<String> {
    let start = text.find("https://").or_else(|| text.find("http://"))?;
    let url: String = text[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | '<' | '>' | ')' | ']'))
        .collect();
    Some(url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(a: &Action) -> Vec<FileEffect> {
        match a {
            Action::File { effects } => effects.clone(),
            Action::Shell(s) => s.effects.clone(),
            _ => vec![],
        }
    }

    #[test]
    fn claude_code_tools() {
        let a = action_for_tool(
            "Bash",
            &json!({"command": "git push -f", "description": "x"}),
        );
        let Action::Shell(s) = a else { panic!("shell") };
        assert_eq!(s.commands[0].git.as_ref().unwrap().flags, ["--force"]);
        assert_eq!(
            paths(&action_for_tool("Read", &json!({"file_path": "/a/b.rs"}))),
            [FileEffect::Read {
                path: "/a/b.rs".into()
            }]
        );
        assert_eq!(
            paths(&action_for_tool(
                "Write",
                &json!({"file_path": "x", "content": "y"})
            )),
            [FileEffect::Write { path: "x".into() }]
        );
        assert_eq!(
            paths(&action_for_tool(
                "MultiEdit",
                &json!({"file_path": "x", "edits": []})
            )),
            [FileEffect::Edit { path: "x".into() }]
        );
        assert_eq!(
            paths(&action_for_tool(
                "NotebookEdit",
                &json!({"notebook_path": "n.ipynb"})
            )),
            [FileEffect::Edit {
                path: "n.ipynb".into()
            }]
        );
        assert_eq!(
            action_for_tool("WebFetch", &json!({"url": "https://x.y/z", "prompt": "p"})),
            Action::Fetch {
                url: "https://x.y/z".into()
            }
        );
        assert_eq!(
            action_for_tool("Skill", &json!({"skill": "superpowers:brainstorming"})),
            Action::SkillLoad {
                name: "superpowers:brainstorming".into(),
                via: LoadVia::SkillTool,
                body_sha256: None,
            }
        );
        assert_eq!(
            action_for_tool("Skill", &json!({"command": "pdf"})),
            Action::SkillLoad {
                name: "pdf".into(),
                via: LoadVia::SkillTool,
                body_sha256: None,
            }
        );
        assert_eq!(
            action_for_tool("Agent", &json!({"subagent_type": "Explore", "prompt": "p"})),
            Action::Subagent {
                agent_type: Some("Explore".into()),
                agent_id: None
            }
        );
        assert_eq!(
            action_for_tool("TodoWrite", &json!({"todos": []})),
            Action::Other
        );
        assert_eq!(
            action_for_tool("Glob", &json!({"pattern": "**"})),
            Action::Other
        );
        assert_eq!(
            action_for_tool("mcp__exa__web_fetch_exa", &json!({"url": "https://e.x"})),
            Action::Fetch {
                url: "https://e.x".into()
            }
        );
    }

    #[test]
    fn codex_tools() {
        let a = action_for_tool(
            "shell",
            &json!({"command": ["bash", "-lc", "rm a"], "workdir": "/w"}),
        );
        let Action::Shell(s) = a else { panic!("shell") };
        assert_eq!(s.line, "rm a");
        assert_eq!(s.workdir.as_deref(), Some("/w"));
        assert_eq!(s.effects, [FileEffect::Delete { path: "a".into() }]);
        // arguments as a JSON string
        let a = action_for_tool(
            "shell_command",
            &json!("{\"command\":\"git status\",\"workdir\":\"/w\"}"),
        );
        assert!(matches!(a, Action::Shell(ref s) if s.commands[0].git.is_some()));
        let a = action_for_tool("exec_command", &json!({"cmd": "touch t"}));
        assert_eq!(paths(&a), [FileEffect::Write { path: "t".into() }]);
        let a = action_for_tool(
            "apply_patch",
            &json!({"input": "*** Begin Patch\n*** Add File: z\n+1\n*** End Patch"}),
        );
        assert_eq!(paths(&a), [FileEffect::Write { path: "z".into() }]);
        let a = action_for_tool(
            "apply_patch",
            &json!("*** Begin Patch\n*** Delete File: z\n*** End Patch"),
        );
        assert_eq!(paths(&a), [FileEffect::Delete { path: "z".into() }]);
        assert_eq!(
            action_for_tool("update_plan", &json!({"plan": []})),
            Action::Other
        );
    }

    #[test]
    fn gemini_and_editor_tools() {
        assert!(
            matches!(action_for_tool("run_shell_command", &json!({"command": "ls", "dir_path": "d"})), Action::Shell(ref s) if s.workdir.as_deref() == Some("d"))
        );
        assert_eq!(
            paths(&action_for_tool(
                "replace",
                &json!({"file_path": "f", "old_string": "a"})
            )),
            [FileEffect::Edit { path: "f".into() }]
        );
        assert_eq!(
            paths(&action_for_tool(
                "read_file",
                &json!({"absolute_path": "/f"})
            )),
            [FileEffect::Read { path: "/f".into() }]
        );
        assert_eq!(
            paths(&action_for_tool(
                "read_many_files",
                &json!({"paths": ["a", "b"]})
            ))
            .len(),
            2
        );
        assert_eq!(
            action_for_tool("activate_skill", &json!({"name": "figma"})),
            Action::SkillLoad {
                name: "figma".into(),
                via: LoadVia::ActivateSkill,
                body_sha256: None,
            }
        );
        assert_eq!(
            action_for_tool(
                "web_fetch",
                &json!({"prompt": "summarise https://a.b/c please"})
            ),
            Action::Fetch {
                url: "https://a.b/c".into()
            }
        );
        assert_eq!(
            paths(&action_for_tool(
                "str_replace_editor",
                &json!({"command": "view", "path": "/p"})
            )),
            [FileEffect::Read { path: "/p".into() }]
        );
        assert_eq!(
            paths(&action_for_tool(
                "str_replace_editor",
                &json!({"command": "create", "path": "/p"})
            )),
            [FileEffect::Write { path: "/p".into() }]
        );
        assert_eq!(
            paths(&action_for_tool(
                "edit",
                &json!({"command": "str_replace", "path": "/p"})
            )),
            [FileEffect::Edit { path: "/p".into() }]
        );
        assert_eq!(
            action_for_tool("web_browser_go", &json!({"url": "https://x"})),
            Action::Fetch {
                url: "https://x".into()
            }
        );
    }
}
