//! Shared helpers of the gate's end-to-end tests: transcript writers that
//! imitate real shapes, skill + lockfile writers, and a binary runner.
//!
//! Shapes imitated (see ../shared/research/transcript-formats.md):
//! - Claude Code session JSONL (CC 2.1.x envelope, §1.2; records split per
//!   content block, §0.4), with the model-invoked `Skill` tool of §1.6: the
//!   `Skill` tool_use, its `Launching skill:` tool_result with
//!   `toolUseResult.commandName`, then the `isMeta` "Base directory for this
//!   skill" user record.
//! - Codex CLI rollout JSONL (codex_cli_rs 0.58, §2.2–2.5, as in the real
//!   realdata/transcripts/codex rollout): session_meta, turn_context, user and
//!   assistant `message` items, `reasoning`, `shell` function_call with an argv
//!   `bash -lc` and its JSON-string `function_call_output`; the skill is read
//!   with `cat …/skills/<name>/SKILL.md` (Codex has no Skill tool, §0.3), and a
//!   `task_complete` event ends the session.

#![allow(dead_code)]

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

pub const CWD: &str = "/work/demo";
pub const TS: &str = "2026-01-02T03:04:05.000Z";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fmt {
    Claude,
    Codex,
}

impl Fmt {
    pub fn name(self) -> &'static str {
        match self {
            Fmt::Claude => "claude-code",
            Fmt::Codex => "codex",
        }
    }
}

/// A transcript being written, one JSON line per record.
pub struct Tx {
    pub fmt: Fmt,
    lines: Vec<String>,
    n: usize,
    /// uuid of the last Claude Code record (the `parentUuid` chain).
    last_uuid: Option<String>,
    /// Text appended raw (a torn last line).
    tail: String,
    /// The git branch the records carry (Claude Code `gitBranch`).
    pub branch: Option<String>,
    /// Records written now belong to this subagent (old-layout sidechain).
    sidechain: Option<String>,
}

impl Tx {
    pub fn new(fmt: Fmt) -> Tx {
        let mut t = Tx {
            fmt,
            lines: Vec::new(),
            n: 0,
            last_uuid: None,
            tail: String::new(),
            branch: Some("main".into()),
            sidechain: None,
        };
        if fmt == Fmt::Codex {
            t.push(json!({"timestamp": TS, "type": "session_meta", "payload": {
                "id": "019a93b9-0000-7000-8000-000000000001", "timestamp": TS, "cwd": CWD,
                "originator": "codex_cli_rs", "cli_version": "0.58.0", "instructions": null,
                "source": "cli", "model_provider": "openai",
                "git": {"commit_hash": "0f022a043b3f8ca67224e1c56d5b85e28a81b910", "branch": "main",
                        "repository_url": "git@example.com:demo/demo.git"}}}));
            t.push(json!({"timestamp": TS, "type": "turn_context", "payload": {
                "cwd": CWD, "approval_policy": "never", "sandbox_policy": {"mode": "danger-full-access"},
                "model": "gpt-5.1-codex", "effort": "high", "summary": "auto"}}));
        }
        t
    }

    fn push(&mut self, v: Value) -> usize {
        self.lines.push(serde_json::to_string(&v).unwrap());
        self.lines.len()
    }

    fn id(&mut self) -> String {
        self.n += 1;
        format!("{:08x}-0000-4000-8000-{:012x}", self.n, self.n)
    }

    fn claude(&mut self, kind: &str, message: Value, extra: Value) -> usize {
        let uuid = self.id();
        let parent = self.last_uuid.replace(uuid.clone());
        let mut v = json!({
            "parentUuid": parent, "isSidechain": self.sidechain.is_some(), "userType": "external", "cwd": CWD,
            "sessionId": "5e55a7e1-0000-4000-8000-000000000001", "version": "2.1.19",
            "type": kind, "message": message, "uuid": uuid, "timestamp": TS
        });
        if let Some(b) = &self.branch {
            v["gitBranch"] = json!(b);
        }
        if let Some(a) = &self.sidechain {
            v["agentId"] = json!(a);
        }
        if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            for (k, x) in e {
                o.insert(k.clone(), x.clone());
            }
        }
        self.push(v)
    }

    fn assistant_block(&mut self, block: Value, stop: Value) -> usize {
        let id = format!("msg_{}", self.n + 1);
        self.claude(
            "assistant",
            json!({"id": id, "type": "message", "role": "assistant", "model": "claude-opus-4-5",
                   "content": [block], "stop_reason": stop, "stop_sequence": null,
                   "usage": {"input_tokens": 1, "output_tokens": 1}}),
            json!({"requestId": "req_1"}),
        )
    }

    /// A typed user prompt.
    pub fn user(&mut self, text: &str) -> usize {
        match self.fmt {
            Fmt::Claude => self.claude("user", json!({"role": "user", "content": text}), json!({})),
            Fmt::Codex => {
                self.push(json!({"timestamp": TS, "type": "response_item", "payload": {
                    "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}}));
                self.push(json!({"timestamp": TS, "type": "event_msg", "payload": {
                    "type": "user_message", "message": text, "images": []}}))
            }
        }
    }

    /// Assistant text.
    pub fn say(&mut self, text: &str) -> usize {
        match self.fmt {
            Fmt::Claude => self.assistant_block(json!({"type": "text", "text": text}), Value::Null),
            Fmt::Codex => {
                self.push(json!({"timestamp": TS, "type": "event_msg", "payload": {"type": "agent_message", "message": text}}));
                self.push(json!({"timestamp": TS, "type": "response_item", "payload": {
                    "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}}))
            }
        }
    }

    /// A thinking / reasoning block.
    pub fn think(&mut self, text: &str) -> usize {
        match self.fmt {
            Fmt::Claude => self.assistant_block(
                json!({"type": "thinking", "thinking": text, "signature": "c2ln"}),
                Value::Null,
            ),
            Fmt::Codex => {
                self.push(json!({"timestamp": TS, "type": "event_msg", "payload": {"type": "agent_reasoning", "text": text}}));
                self.push(
                    json!({"timestamp": TS, "type": "response_item", "payload": {
                    "type": "reasoning", "summary": [{"type": "summary_text", "text": text}],
                    "content": null, "encrypted_content": "gAAAAABpRedacted"}}),
                )
            }
        }
    }

    /// Load a skill: Claude Code's `Skill` tool (§1.6); Codex reads the SKILL.md (§0.3).
    /// Returns the line of the load call.
    pub fn load_skill(&mut self, name: &str, body_text: &str) -> usize {
        match self.fmt {
            Fmt::Claude => {
                let call = format!("toolu_skill_{}", self.n + 1);
                let at = self.assistant_block(
                    json!({"type": "tool_use", "id": call, "name": "Skill", "input": {"skill": name}}),
                    json!("tool_use"),
                );
                self.claude(
                    "user",
                    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": call,
                           "content": format!("Launching skill: {name}")}]}),
                    json!({"toolUseResult": {"success": true, "commandName": name, "allowedTools": ["Bash", "Read"]}}),
                );
                self.claude(
                    "user",
                    json!({"role": "user", "content": [{"type": "text",
                           "text": format!("Base directory for this skill: {CWD}/.claude/skills/{name}\n\n# {name}\n\n{body_text}")}]}),
                    json!({"isMeta": true, "sourceToolUseID": call}),
                );
                at
            }
            Fmt::Codex => {
                let path = format!("{CWD}/.codex/skills/{name}/SKILL.md");
                self.shell(&format!("cat {path}"), body_text, false, None)
            }
        }
    }

    /// A shell command with its output; `extra` adds non-path input fields
    /// (a Bash `description`, a Codex `justification`). Returns the call's line.
    pub fn shell(&mut self, cmd: &str, output: &str, failed: bool, extra: Option<&str>) -> usize {
        let call = format!("call_{}", self.n + 1);
        self.n += 1;
        match self.fmt {
            Fmt::Claude => {
                let mut input = json!({"command": cmd});
                if let Some(x) = extra {
                    input["description"] = json!(x);
                }
                let at = self.assistant_block(
                    json!({"type": "tool_use", "id": call, "name": "Bash", "input": input}),
                    json!("tool_use"),
                );
                self.claude(
                    "user",
                    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": call,
                           "content": output, "is_error": failed}]}),
                    json!({"toolUseResult": {"stdout": output, "stderr": "", "interrupted": false, "isImage": false}}),
                );
                at
            }
            Fmt::Codex => {
                let mut args = json!({"command": ["bash", "-lc", cmd], "workdir": CWD});
                if let Some(x) = extra {
                    args["justification"] = json!(x);
                }
                let at = self.push(json!({"timestamp": TS, "type": "response_item", "payload": {
                    "type": "function_call", "name": "shell", "arguments": serde_json::to_string(&args).unwrap(),
                    "call_id": call}}));
                let out = json!({"output": output, "metadata": {"exit_code": if failed { 1 } else { 0 }, "duration_seconds": 0.1}});
                self.push(json!({"timestamp": TS, "type": "response_item", "payload": {
                    "type": "function_call_output", "call_id": call, "output": serde_json::to_string(&out).unwrap()}}));
                at
            }
        }
    }

    /// A file write with content (Claude `Write`; Codex `apply_patch` add).
    pub fn write_file(&mut self, path: &str, content: &str) -> usize {
        match self.fmt {
            Fmt::Claude => {
                let call = format!("toolu_w_{}", self.n + 1);
                self.n += 1;
                let at = self.assistant_block(
                    json!({"type": "tool_use", "id": call, "name": "Write", "input": {"file_path": path, "content": content}}),
                    json!("tool_use"),
                );
                self.claude(
                    "user",
                    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": call,
                           "content": format!("File created successfully at: {path}")}]}),
                    json!({"toolUseResult": {"type": "create", "filePath": path, "content": content, "structuredPatch": []}}),
                );
                at
            }
            Fmt::Codex => {
                let patch = format!("apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: {path}\n+{content}\n*** End Patch\nPATCH");
                self.shell(
                    &patch,
                    "Success. Updated the following files:\nA x\n",
                    false,
                    None,
                )
            }
        }
    }

    /// A file edited in place (Claude `Edit`; Codex `apply_patch` update).
    pub fn edit_file(&mut self, path: &str) -> usize {
        match self.fmt {
            Fmt::Claude => {
                let call = format!("toolu_e_{}", self.n + 1);
                self.n += 1;
                let at = self.assistant_block(
                    json!({"type": "tool_use", "id": call, "name": "Edit",
                           "input": {"file_path": path, "old_string": "a", "new_string": "b"}}),
                    json!("tool_use"),
                );
                self.claude(
                    "user",
                    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": call,
                           "content": format!("The file {path} has been updated.")}]}),
                    json!({"toolUseResult": {"filePath": path, "oldString": "a", "newString": "b",
                           "originalFile": "a", "structuredPatch": [], "userModified": false, "replaceAll": false}}),
                );
                at
            }
            Fmt::Codex => {
                let patch = format!("apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: {path}\n@@\n-a\n+b\n*** End Patch\nPATCH");
                self.shell(
                    &patch,
                    "Success. Updated the following files:\nM x\n",
                    false,
                    None,
                )
            }
        }
    }

    /// Claude Code: the user's `/exit` (CC 2.x shape: the command record,
    /// then its local stdout). Ends the session normally.
    pub fn exit_command(&mut self) -> usize {
        let at = self.claude(
            "user",
            json!({"role": "user", "content": "<command-name>/exit</command-name>\n            <command-message>exit</command-message>\n            <command-args></command-args>"}),
            json!({}),
        );
        self.claude(
            "user",
            json!({"role": "user", "content": "<local-command-stdout>Goodbye!</local-command-stdout>"}),
            json!({}),
        );
        at
    }

    /// Claude Code: a resumed session repeats earlier records (same `uuid`)
    /// at the start of the new file: the first `n` lines written so far are
    /// written again.
    pub fn repeat_first(&mut self, n: usize) {
        let again: Vec<String> = self.lines.iter().take(n).cloned().collect();
        self.lines.extend(again);
    }

    /// Claude Code: a `Task` call starting subagent `agent_id`; the records
    /// written until [`Tx::main_agent`] are its sidechain (CC ≤ 1.0 layout, §1.7).
    pub fn task(&mut self, agent_id: &str, prompt: &str) -> usize {
        let call = format!("toolu_task_{}", self.n + 1);
        self.n += 1;
        let at = self.assistant_block(
            json!({"type": "tool_use", "id": call, "name": "Task",
                   "input": {"description": "Delegate", "prompt": prompt, "subagent_type": "general-purpose"}}),
            json!("tool_use"),
        );
        self.sidechain = Some(agent_id.to_string());
        at
    }

    /// Back to the main agent.
    pub fn main_agent(&mut self) {
        self.sidechain = None;
    }

    /// The final assistant turn (the session is complete).
    pub fn end(&mut self, text: &str) -> usize {
        match self.fmt {
            Fmt::Claude => {
                self.assistant_block(json!({"type": "text", "text": text}), json!("end_turn"))
            }
            Fmt::Codex => {
                self.say(text);
                self.push(json!({"timestamp": TS, "type": "event_msg", "payload": {
                    "type": "task_complete", "turn_id": "1", "last_agent_message": text}}))
            }
        }
    }

    /// A record in the middle that is not JSON.
    pub fn garbage(&mut self) -> usize {
        self.lines
            .push("{\"type\": \"assistant\", \"message\": {oops".to_string());
        self.lines.len()
    }

    /// A torn last line (no newline, not valid JSON).
    pub fn torn(&mut self) {
        self.tail =
            "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"te".to_string();
    }

    pub fn text(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s.push_str(&self.tail);
        s
    }

    pub fn write(&self, path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, self.text()).unwrap();
    }
}

/// A skill's SKILL.md text.
pub fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: Test skill {name} for the gate's end-to-end tests.\n---\n\n# {name}\n\n{body}\n")
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Write `<root>/<folder>/SKILL.md` with exactly `text` (a skill whose
/// frontmatter a test shapes itself).
pub fn raw_skill(root: &Path, folder: &str, text: &str) {
    let f = root.join(folder);
    std::fs::create_dir_all(&f).unwrap();
    std::fs::write(f.join("SKILL.md"), text).unwrap();
}

/// Write `<dir>/<name>/SKILL.md` and, when `constraints` is given, its
/// lockfile (matching sha unless `drift`). Returns the SKILL.md path.
pub fn write_skill(
    dir: &Path,
    name: &str,
    body: &str,
    constraints: Option<&str>,
    drift: bool,
) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let md = skill_md(name, body);
    let path = folder.join("SKILL.md");
    std::fs::write(&path, &md).unwrap();
    if let Some(c) = constraints {
        let sha = if drift {
            "0".repeat(64)
        } else {
            sha256_hex(md.as_bytes())
        };
        let lock = format!("version: 1\nskill: {name}\nsource_sha256: {sha}\nconstraints:\n{c}");
        std::fs::write(folder.join("SKILL.constraints.yaml"), lock).unwrap();
    }
    path
}

/// Output of one run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The whole stdout as JSON (for `gate`: the envelope
    /// `{"version", "exit_code", "skills"}`, schemas/gate.schema.json).
    pub fn envelope(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr))
    }

    /// The skills of a `gate --format json` envelope: the one skill object
    /// when there is one, else the array (other commands' JSON unchanged).
    pub fn json(&self) -> Value {
        let v = self.envelope();
        match v.get("skills") {
            Some(Value::Array(a)) if v.get("version").is_some() => {
                assert_eq!(
                    v["exit_code"], self.code,
                    "the envelope's exit_code is the process's"
                );
                match a.as_slice() {
                    [one] => one.clone(),
                    _ => Value::Array(a.clone()),
                }
            }
            _ => v,
        }
    }
}

/// Run `skillgate ARGS` in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    run_env(dir, args, &[])
}

pub fn run_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = assert_cmd::Command::cargo_bin("skillgate").unwrap();
    cmd.current_dir(dir).args(args).env_remove("RUST_LOG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The repository root (for ../shared/realdata).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
