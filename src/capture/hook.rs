//! `capture --install-hook` / `--uninstall-hook`: the exact edits to an agent's
//! own configuration that make it run `skillgate capture` by itself.
//!
//! Pure text → text functions (the CLI reads, shows, asks and writes):
//! - Claude Code, `~/.claude/settings.json`: one `SessionEnd` hook entry
//!   running [`CLAUDE_COMMAND`] (Claude Code passes the session's
//!   `session_id`, `transcript_path` and `cwd` as JSON on stdin);
//! - Codex, `~/.codex/config.toml`: `notify = [...]` running
//!   [`CODEX_NOTIFY`] (Codex appends a JSON argument with `thread-id` and
//!   `cwd` after each turn). Codex has one `notify` program: one that is
//!   already set to something else is never replaced.
//!
//! Installing twice changes nothing; uninstalling removes exactly the entry
//! that installing added and nothing else.

use serde_json::{json, Map, Value};

/// The command Claude Code's `SessionEnd` hook runs.
pub const CLAUDE_COMMAND: &str = "skillgate capture --hook-input claude";
/// The program and arguments Codex's `notify` runs.
pub const CODEX_NOTIFY: &[&str] = &["skillgate", "capture", "--hook-input", "codex"];

/// A configuration edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The file's text before (`None`: it did not exist).
    pub before: Option<String>,
    /// The text after (`None`: the file is to be removed, it held only our entry).
    pub after: Option<String>,
}

impl Change {
    pub fn is_noop(&self) -> bool {
        self.before == self.after
    }
}

/// The configuration cannot be edited safely.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct HookError {
    pub line: Option<u64>,
    pub message: String,
}

fn err(line: Option<u64>, message: impl Into<String>) -> HookError {
    HookError {
        line,
        message: message.into(),
    }
}

fn parse_settings(text: Option<&str>) -> Result<Map<String, Value>, HookError> {
    let Some(t) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Map::new());
    };
    match serde_json::from_str::<Value>(t) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(err(Some(1), "settings are not a JSON object; not edited")),
        Err(e) => Err(err(
            Some(e.line() as u64),
            format!(
                "not valid JSON ({}); not edited",
                crate::decode::jsonl::describe_json_error(&e)
            ),
        )),
    }
}

fn render(m: &Map<String, Value>) -> String {
    let mut s = serde_json::to_string_pretty(&Value::Object(m.clone())).unwrap_or_default();
    s.push('\n');
    s
}

fn is_ours(hook: &Value) -> bool {
    hook.get("command").and_then(Value::as_str) == Some(CLAUDE_COMMAND)
}

fn has_claude_hook(m: &Map<String, Value>) -> bool {
    m.get("hooks")
        .and_then(|h| h.get("SessionEnd"))
        .and_then(Value::as_array)
        .is_some_and(|entries| {
            entries.iter().any(|e| {
                e.get("hooks")
                    .and_then(Value::as_array)
                    .is_some_and(|hs| hs.iter().any(is_ours))
            })
        })
}

/// Add the `SessionEnd` hook to Claude Code settings (`None`: no file yet).
pub fn claude_install(settings: Option<&str>) -> Result<Change, HookError> {
    let mut m = parse_settings(settings)?;
    let before = settings.map(str::to_string);
    if has_claude_hook(&m) {
        return Ok(Change {
            after: before.clone(),
            before,
        });
    }
    let hooks = m
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err(err(None, "`hooks` is not an object; not edited"));
    };
    let end = hooks
        .entry("SessionEnd")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(end) = end else {
        return Err(err(None, "`hooks.SessionEnd` is not a list; not edited"));
    };
    end.push(json!({"hooks": [{"type": "command", "command": CLAUDE_COMMAND}]}));
    Ok(Change {
        before,
        after: Some(render(&m)),
    })
}

/// Remove the hook [`claude_install`] added (and the containers it created
/// when they are left empty).
pub fn claude_uninstall(settings: Option<&str>) -> Result<Change, HookError> {
    let before = settings.map(str::to_string);
    let mut m = parse_settings(settings)?;
    if !has_claude_hook(&m) {
        return Ok(Change {
            after: before.clone(),
            before,
        });
    }
    if let Some(Value::Object(hooks)) = m.get_mut("hooks") {
        if let Some(Value::Array(entries)) = hooks.get_mut("SessionEnd") {
            for e in entries.iter_mut() {
                if let Some(Value::Array(hs)) = e.get_mut("hooks") {
                    hs.retain(|h| !is_ours(h));
                }
            }
            entries.retain(|e| {
                e.get("hooks")
                    .and_then(Value::as_array)
                    .is_none_or(|hs| !hs.is_empty())
            });
            if entries.is_empty() {
                hooks.remove("SessionEnd");
            }
        }
        if hooks.is_empty() {
            m.remove("hooks");
        }
    }
    Ok(Change {
        before,
        after: (!m.is_empty()).then(|| render(&m)),
    })
}

fn notify_line() -> String {
    let items: Vec<String> = CODEX_NOTIFY.iter().map(|a| format!("\"{a}\"")).collect();
    format!("notify = [{}]", items.join(", "))
}

fn parse_toml(text: &str) -> Result<toml::Table, HookError> {
    text.parse::<toml::Table>().map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() as u64 + 1);
        err(line, "not valid TOML; not edited")
    })
}

fn is_our_notify(v: &toml::Value) -> bool {
    v.as_array().is_some_and(|a| {
        a.len() == CODEX_NOTIFY.len()
            && a.iter()
                .zip(CODEX_NOTIFY)
                .all(|(x, y)| x.as_str() == Some(*y))
    })
}

/// Set Codex's `notify` (`None`: no config file yet). An existing different
/// `notify` is an error: Codex runs one program only.
pub fn codex_install(config: Option<&str>) -> Result<Change, HookError> {
    let text = config.unwrap_or("");
    let table = parse_toml(text)?;
    let before = config.map(str::to_string);
    if let Some(v) = table.get("notify") {
        if is_our_notify(v) {
            return Ok(Change {
                after: before.clone(),
                before,
            });
        }
        return Err(err(
            None,
            "Codex already runs another `notify` program and allows only one; not edited (chain skillgate from your program instead: see docs/capture.md)",
        ));
    }
    // A top-level key must come before the first table header.
    let line = notify_line();
    let mut out = String::with_capacity(text.len() + line.len() + 80);
    out.push_str("# added by `skillgate capture --install-hook codex`\n");
    out.push_str(&line);
    out.push('\n');
    if !text.is_empty() {
        out.push('\n');
        out.push_str(text);
    }
    parse_toml(&out)?;
    Ok(Change {
        before,
        after: Some(out),
    })
}

/// Remove the `notify` line [`codex_install`] added (and its comment).
pub fn codex_uninstall(config: Option<&str>) -> Result<Change, HookError> {
    let before = config.map(str::to_string);
    let Some(text) = config else {
        return Ok(Change {
            before: None,
            after: None,
        });
    };
    let table = parse_toml(text)?;
    if !table.get("notify").is_some_and(is_our_notify) {
        return Ok(Change {
            after: before.clone(),
            before,
        });
    }
    let ours = notify_line();
    let added = format!("# added by `skillgate capture --install-hook codex`\n{ours}\n");
    let after = if let Some(rest) = text.strip_prefix(&format!("{added}\n")) {
        rest.to_string()
    } else if let Some(rest) = text.strip_prefix(&added) {
        rest.to_string()
    } else {
        // Moved or reformatted by hand: drop the line that sets it.
        text.split_inclusive('\n')
            .filter(|l| {
                let t = l.trim();
                !(t.starts_with("notify") && t.contains("--hook-input") && t.contains("codex"))
            })
            .collect()
    };
    parse_toml(&after)?;
    Ok(Change {
        before,
        after: (!after.is_empty()).then_some(after),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const USER: &str = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "echo pre"
          }
        ]
      }
    ]
  }
}
"#;

    #[test]
    fn claude_install_is_idempotent_and_uninstall_restores() {
        let c = claude_install(Some(USER)).unwrap();
        let after = c.after.clone().unwrap();
        assert!(after.contains(CLAUDE_COMMAND));
        assert!(after.contains("\"PreToolUse\""));
        let again = claude_install(Some(&after)).unwrap();
        assert!(again.is_noop());
        let back = claude_uninstall(Some(&after)).unwrap();
        assert_eq!(back.after.as_deref(), Some(USER));
        // from nothing and back to nothing
        let c = claude_install(None).unwrap();
        let u = claude_uninstall(c.after.as_deref()).unwrap();
        assert_eq!(u.after, None);
        // a broken file is never edited
        assert_eq!(claude_install(Some("{ nope")).unwrap_err().line, Some(1));
    }

    #[test]
    fn codex_notify_is_set_once_and_removed_exactly() {
        let user = "model = \"o4\"\n\n[profiles.x]\nmodel = \"y\"\n";
        let c = codex_install(Some(user)).unwrap();
        let after = c.after.unwrap();
        let t: toml::Table = after.parse().unwrap();
        assert!(is_our_notify(&t["notify"]));
        assert_eq!(t["profiles"]["x"]["model"].as_str(), Some("y"));
        assert!(codex_install(Some(&after)).unwrap().is_noop());
        assert_eq!(
            codex_uninstall(Some(&after)).unwrap().after.as_deref(),
            Some(user)
        );
        let other = "notify = [\"notify-send\"]\n";
        assert!(codex_install(Some(other)).is_err());
        assert!(codex_uninstall(Some(other)).unwrap().is_noop());
    }
}
