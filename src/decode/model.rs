//! The normalized trajectory model (SPEC §5): what every decoder produces.
//!
//! The gate only ever sees actions. Message text and tool I/O live in
//! [`EventContent`], which decoders fill only when [`DecodeOptions::keep_content`]
//! is set (the doctor and the usage statistics need it; the gate never asks).

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Which harness wrote a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Harness {
    ClaudeCode,
    Codex,
    Gemini,
    SweAgent,
    OpenHands,
    InspectAi,
    Aider,
    OpenAiChat,
    AnthropicMessages,
}

impl Harness {
    pub fn as_str(self) -> &'static str {
        match self {
            Harness::ClaudeCode => "claude-code",
            Harness::Codex => "codex",
            Harness::Gemini => "gemini",
            Harness::SweAgent => "swe-agent",
            Harness::OpenHands => "openhands",
            Harness::InspectAi => "inspect-ai",
            Harness::Aider => "aider",
            Harness::OpenAiChat => "openai-chat",
            Harness::AnthropicMessages => "anthropic-messages",
        }
    }
}

/// Options for decoding.
#[derive(Debug, Clone, Default)]
pub struct DecodeOptions {
    /// Keep message text, tool input and tool output in [`Event::content`].
    /// Off for the gate (it must never see content); on for doctor / ingest.
    pub keep_content: bool,
}

/// One decoded session.
#[derive(Debug, Clone, Serialize)]
pub struct Trajectory {
    pub path: PathBuf,
    pub harness: Harness,
    /// Name of the decoder / format variant ("claude-code-jsonl", "codex-rollout", ...).
    pub format: String,
    pub harness_version: Option<String>,
    pub session_id: Option<String>,
    pub cwd: Option<String>,
    pub git_branch: Option<String>,
    /// The session reached a final assistant turn and its file was not torn.
    pub complete: bool,
    /// The last record was torn (a partial line) or the file ended mid-structure.
    pub truncated: bool,
    pub events: Vec<Event>,
    /// Records that could not be decoded, and other counted skips (the first
    /// [`MAX_KEPT_PROBLEMS`] kept with their lines, the rest counted).
    pub problems: Problems,
    /// Session-retro sidecar (`<file>.retro.yaml`), when present.
    pub retro: Option<Retro>,
    /// Extra files that were read as part of this trajectory (new-layout subagent files).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra_files: Vec<PathBuf>,
}

impl Trajectory {
    pub fn new(path: PathBuf, harness: Harness, format: &str) -> Self {
        Trajectory {
            path,
            harness,
            format: format.to_string(),
            harness_version: None,
            session_id: None,
            cwd: None,
            git_branch: None,
            complete: false,
            truncated: false,
            events: Vec::new(),
            problems: Problems::default(),
            retro: None,
            extra_files: Vec::new(),
        }
    }

    /// Records in the middle of the file that could not be decoded (a hidden
    /// action could be among them). Unknown record types and a torn last line
    /// are not counted here.
    pub fn undecodable_count(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.kind.is_hidden_record())
            .count()
            + self.problems.omitted_undecodable
    }
}

/// Session-retro sidecar metadata. `loaded_skills` is authoritative when present.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Retro {
    #[serde(default)]
    pub loaded_skills: Option<Vec<String>>,
    #[serde(default)]
    pub harness: Option<String>,
    #[serde(default)]
    pub complete: Option<bool>,
}

/// Where an event came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Location {
    /// The file, when it is not the trajectory's own path (new-layout subagent files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// 1-based line (JSONL, markdown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// JSON pointer for one-object files (`/messages/3/tool_calls/0`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
}

impl Location {
    pub fn line(line: u64) -> Self {
        Location {
            file: None,
            line: Some(line),
            pointer: None,
        }
    }
    pub fn pointer(p: impl Into<String>) -> Self {
        Location {
            file: None,
            line: None,
            pointer: Some(p.into()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    System,
    Tool,
}

/// Who acted: the main agent or a subagent (by id or type, whatever the format gives).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase", tag = "kind", content = "id")]
pub enum AgentPath {
    #[default]
    Main,
    Subagent(String),
}

/// One normalized event.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Event {
    /// 0-based position in [`Trajectory::events`].
    pub index: usize,
    pub location: Location,
    pub role: Role,
    /// Raw tool name as the harness wrote it (`Bash`, `shell`, `run_shell_command`...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub action: Action,
    /// The action's result was an error (including user rejections).
    pub failed: bool,
    /// The user rejected / vetoed the call (implies `failed`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rejected: bool,
    pub agent: AgentPath,
    /// RFC 3339 timestamp of the call, where recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// RFC 3339 timestamp of the result, where recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_timestamp: Option<String>,
    /// Exit code of a shell command, where recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    /// What a test runner's summary in the output said, where a decoder
    /// recognised one (SPEC §5 masked failures; read in memory, no text kept).
    /// `failed` already reflects it: a `failed` outcome sets `failed`, and
    /// `not-run` (an environment error: command not found, missing gem or
    /// module) sets `failed` too but is not a red test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_outcome: Option<TestOutcome>,
    /// Message text and tool I/O; only with [`DecodeOptions::keep_content`]. Never serialized.
    #[serde(skip)]
    pub content: Option<Box<EventContent>>,
}

impl Event {
    /// A new event with defaults; the caller sets index via [`Trajectory`] push helpers.
    pub fn new(location: Location, role: Role, action: Action) -> Self {
        Event {
            index: 0,
            location,
            role,
            tool: None,
            action,
            failed: false,
            rejected: false,
            agent: AgentPath::Main,
            timestamp: None,
            result_timestamp: None,
            exit_code: None,
            test_outcome: None,
            content: None,
        }
    }

    /// A user turn in the sense of SPEC §4.1 `{user_turn: true}`: the main
    /// agent's user spoke or answered an ask tool (see [`Action::is_user_turn`]).
    pub fn is_user_turn(&self) -> bool {
        self.agent == AgentPath::Main && self.action.is_user_turn()
    }
}

/// What a test runner's output summary said (see [`Event::test_outcome`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestOutcome {
    /// The summary reports no failure.
    Passed,
    /// The summary reports failing tests (a red run).
    Failed,
    /// The tests did not run: an environment error (command not found, a
    /// missing gem / module / package, a build that did not start). Not a red test.
    NotRun,
}

/// Content kept only for the doctor and ingest. Never rendered by the gate.
#[derive(Debug, Clone, Default)]
pub struct EventContent {
    pub text: Option<String>,
    pub tool_input: Option<serde_json::Value>,
    pub tool_output: Option<String>,
}

/// The normalized action of an event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Action {
    /// A plain message turn that is not a user turn (assistant text, a
    /// subagent's prompt, harness-injected user-role text). Text only in `content`.
    Message,
    /// The user acted (SPEC §4.1 `user_turn`, §5): a user message that is not
    /// a tool result, or the answer to an ask tool (`AskUserQuestion`,
    /// `request_user_input`, ...). Content-free: the text is never read by the
    /// gate (it is in `content` only with `keep_content`).
    UserTurn {
        via: UserTurnVia,
        /// For [`UserTurnVia::SessionCommand`]: the built-in session command
        /// (`exit`, `clear`, `compact`, ...) from a closed list; `None` for other
        /// slash commands (their names are project content).
        #[serde(skip_serializing_if = "Option::is_none")]
        command: Option<String>,
    },
    /// File operations of a file tool or patch (one or many effects).
    File { effects: Vec<FileEffect> },
    /// A shell line, split into simple commands, with the file effects it has.
    Shell(ShellAction),
    /// A network fetch (web tools; curl/wget also appear as shell commands).
    Fetch { url: String },
    /// A skill was loaded.
    SkillLoad {
        name: String,
        via: LoadVia,
        /// sha256 (lowercase hex) of the skill body the harness injected, where
        /// the transcript carries it, normalised by
        /// [`crate::decode::skills::body_sha256`]; compare with
        /// [`crate::decode::skills::skill_md_matches`]. `None` when the
        /// transcript does not carry the body or it cannot be compared
        /// (arguments substituted into placeholders).
        #[serde(skip_serializing_if = "Option::is_none")]
        body_sha256: Option<String>,
    },
    /// A subagent was started.
    Subagent {
        #[serde(skip_serializing_if = "Option::is_none")]
        agent_type: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        agent_id: Option<String>,
    },
    /// Any other tool call (TodoWrite, Glob, MCP tools...).
    Other,
}

impl Action {
    /// True for a turn that counts as the user speaking (SPEC §4.1
    /// `{user_turn: true}`, consent gates): a prompt, an answer to an ask tool,
    /// or a slash command other than a session command. A session command
    /// (`/exit`, `/clear`, `/compact`) is a user action that ends or resets the
    /// conversation, not consent to anything: it is a [`Action::UserTurn`] (it
    /// makes a session complete) but not a user turn here.
    pub fn is_user_turn(&self) -> bool {
        match self {
            Action::UserTurn { via, .. } => *via != UserTurnVia::SessionCommand,
            _ => false,
        }
    }
}

/// How the user acted in a [`Action::UserTurn`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UserTurnVia {
    /// A typed message (also `!` shell input and a custom or skill slash command).
    Prompt,
    /// The answer to an ask tool (`AskUserQuestion`, `request_user_input`, an
    /// `ask_user` action): the event sits at the answer's record.
    Answer,
    /// A built-in session command: `/exit`, `/quit`, `/clear`, `/compact`,
    /// `/reset`, `/new` (name in `command`). Not consent; ends or resets the session.
    SessionCommand,
}

/// Built-in session commands (without `/`) that end or reset a conversation.
/// (`compress` is Gemini CLI's `/compact`.)
pub const SESSION_COMMANDS: &[&str] = &[
    "exit", "quit", "clear", "compact", "compress", "reset", "new",
];

/// How a skill load was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoadVia {
    /// Claude Code `Skill` tool call.
    SkillTool,
    /// Injected "Base directory for this skill" body.
    BaseDirectory,
    /// A slash command followed by the skill body.
    SlashCommand,
    /// Claude Code `invoked_skills` attachment (after compaction).
    InvokedSkills,
    /// Gemini CLI `activate_skill`.
    ActivateSkill,
    /// Codex `<skill>` injection or `$skill` mention.
    CodexMention,
    /// Session-retro sidecar `loaded_skills`.
    Retro,
    /// Weak: a read of `.../skills/<name>/SKILL.md`.
    SkillFileRead,
    /// OpenHands `recall` observation naming a triggered microagent (knowledge skill).
    Microagent,
}

impl LoadVia {
    /// True for evidence that is only suggestive (a read of the SKILL.md).
    pub fn is_weak(self) -> bool {
        matches!(self, LoadVia::SkillFileRead)
    }
}

/// One effect on a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "op")]
pub enum FileEffect {
    Read {
        path: String,
    },
    /// Created or overwritten.
    Write {
        path: String,
    },
    /// Changed in place.
    Edit {
        path: String,
    },
    Delete {
        path: String,
    },
    Rename {
        from: String,
        to: String,
    },
}

/// A shell line and what it does.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ShellAction {
    /// The whole line as given to the shell tool (after unwrapping `bash -lc`).
    pub line: String,
    pub commands: Vec<SimpleCommand>,
    /// File effects (redirections, `sed -i`, `rm`, `mv`, `cp`, `tee`, `apply_patch` heredocs).
    pub effects: Vec<FileEffect>,
    /// Working directory given with the call, where recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workdir: Option<String>,
}

/// One simple command of a shell line.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SimpleCommand {
    /// The command's text, env-var prefixes removed, words re-joined with single spaces.
    pub text: String,
    /// Words after quote removal.
    pub argv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git: Option<GitOp>,
}

/// A parsed git invocation.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct GitOp {
    /// `push`, `commit`, `worktree`...
    pub subcommand: String,
    /// Options after the subcommand, normalized to their long form where git has one
    /// (`-f` → `--force`); combined short flags split (`-fu` → `--force`, `--set-upstream`).
    pub flags: Vec<String>,
    /// Positional arguments after the subcommand.
    pub args: Vec<String>,
    /// `git -C dir`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// `git -c key=value` pairs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<String>,
}

/// How many problems a trajectory keeps with their locations; the rest are
/// counted. Memory stays flat in a file of 10^7 bad records.
pub const MAX_KEPT_PROBLEMS: usize = 100;

/// A trajectory's problems: the first [`MAX_KEPT_PROBLEMS`] − 1 and the latest
/// one kept (so a record after the skill load is never lost among the
/// omitted), the others counted. Reads as a slice; serialises as the kept list.
#[derive(Debug, Clone, Default)]
pub struct Problems {
    kept: Vec<DecodeProblem>,
    /// Problems counted but not kept.
    pub omitted: usize,
    /// Of those, undecodable records (see [`ProblemKind::is_hidden_record`]).
    pub omitted_undecodable: usize,
}

impl Problems {
    pub fn push(&mut self, p: DecodeProblem) {
        if self.kept.len() < MAX_KEPT_PROBLEMS {
            self.kept.push(p);
        } else if let Some(last) = self.kept.last_mut() {
            let old = std::mem::replace(last, p);
            self.omitted += 1;
            if old.kind.is_hidden_record() {
                self.omitted_undecodable += 1;
            }
        }
    }
    /// Move `other`'s problems (and counts) into these.
    pub fn append(&mut self, other: &mut Problems) {
        for p in other.kept.drain(..) {
            self.push(p);
        }
        self.omitted += std::mem::take(&mut other.omitted);
        self.omitted_undecodable += std::mem::take(&mut other.omitted_undecodable);
    }
    /// Kept and omitted.
    pub fn total(&self) -> usize {
        self.kept.len() + self.omitted
    }
}

impl std::ops::Deref for Problems {
    type Target = [DecodeProblem];
    fn deref(&self) -> &[DecodeProblem] {
        &self.kept
    }
}

impl std::ops::DerefMut for Problems {
    fn deref_mut(&mut self) -> &mut [DecodeProblem] {
        &mut self.kept
    }
}

impl<'a> IntoIterator for &'a Problems {
    type Item = &'a DecodeProblem;
    type IntoIter = std::slice::Iter<'a, DecodeProblem>;
    fn into_iter(self) -> Self::IntoIter {
        self.kept.iter()
    }
}

impl Serialize for Problems {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.kept.serialize(s)
    }
}

/// A counted record that could not be fully decoded.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecodeProblem {
    pub location: Location,
    pub kind: ProblemKind,
    /// A short description of the problem; never trajectory content.
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    /// A record in the middle of the file is not valid JSON / not decodable.
    Undecodable,
    /// A line that is not valid UTF-8.
    InvalidUtf8,
    /// The last line is torn (no newline and not valid JSON).
    TruncatedLastLine,
    /// A record type this decoder does not know (counted, not an error).
    UnknownRecordType,
    /// Other counted skip (an oversized value not materialised, ...).
    Skipped,
}

impl ProblemKind {
    /// A record in the middle of the file that could hide an action.
    pub fn is_hidden_record(self) -> bool {
        matches!(self, ProblemKind::Undecodable | ProblemKind::InvalidUtf8)
    }
}
