//! Decoder for the `aider` format: aider's chat history markdown
//! (`.aider.chat.history.md`), streamed line by line. Locations are lines.
//!
//! The file is a sequence of sessions (`# aider chat started at …`), each a
//! sequence of user input (`#### ` lines), aider's own output (`> ` lines)
//! and the model's replies (plain markdown). Sessions are concatenated; the
//! line numbers tell them apart. Per element:
//!
//! - a user message → a user message event; a slash command → its action:
//!   `/run` / `!` / `/test` → shell, `/git …` → shell `git …` (all role
//!   user), `/add` / `/read-only` → reads, `/web` → fetch, `/ask` / `/code` /
//!   `/architect` / `/context` → user messages, any other command → other
//!   (tool `/<command>`; unique abbreviations such as `/ex` are resolved);
//! - a reply → an assistant message event, and one event per SEARCH/REPLACE
//!   block (tool `search/replace`): an **edit** of the file named above the
//!   block (aider's own rule: the nearest of the three lines before
//!   `<<<<<<< SEARCH`, skipping fences, else the previous block's file), or a
//!   **write** when the SEARCH part is empty (a new file). A block that aider
//!   reports as `SearchReplaceNoExactMatch`, or whose file the user refused
//!   ("Allow creation/edits … ? n", "Skipping edits to …"), is `failed`
//!   (and `rejected` for a refusal). For edit formats without blocks (whole
//!   file, udiff), `> Applied edit to <file>` yields the edit (tool
//!   `applied-edit`);
//! - a shell command the model suggested: `> Running <cmd>` after
//!   "Run shell command(s)? … y" → shell (role assistant, tool `shell`); when
//!   the user answers no, the proposed commands are shell events marked
//!   `rejected`;
//! - aider's bookkeeping is **not** an agent action and yields no event: its
//!   auto-commits (`> Commit <sha> …`), `/undo`'s reset, token reports, lint
//!   output, warnings. Text printed by a command (after `/run`, `/git`,
//!   `> Running …`) is command output, not a reply.
//!
//! aider records no per-message timestamps (only the session start, in local
//! time) and no exit codes. `complete`: the file ends with a reply that was
//! not interrupted (`^C KeyboardInterrupt`).

use super::generic::*;
use super::model::*;
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use serde_json::{json, Value};
use std::hash::{BuildHasher, Hash, Hasher};
use std::path::Path;

pub struct AiderDecoder;

impl Decoder for AiderDecoder {
    fn format(&self) -> &'static str {
        "aider"
    }
    fn harness(&self) -> Harness {
        Harness::Aider
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        // Every claim below needs one of these (ASCII, so a lossy conversion
        // can neither make nor break them): a cheap refusal of other files.
        // One pass for the four (four `memmem` passes read every head four times).
        static TOKENS: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
        let tokens = TOKENS.get_or_init(|| {
            aho_corasick::AhoCorasick::new([
                &b"# aider chat started at "[..],
                b"> Tokens: ",
                b"> Aider v",
                b"<<<<<<< SEARCH",
            ])
            .expect("four literal tokens")
        });
        // Every claim also needs a line that starts with `#` (a session
        // header or a `#### ` input): one `memchr` pass refuses JSON heads.
        let hash_line = head.first() == Some(&b'#') || memchr::memmem::find(head, b"\n#").is_some();
        if !hash_line || !tokens.is_match(head) {
            return 0;
        }
        // simdutf8 settles a valid head several times faster than std's check
        let text = match simdutf8::basic::from_utf8(head) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => String::from_utf8_lossy(head),
        };
        let mut user = 0;
        let mut tool = 0;
        for line in text.lines().take(2000) {
            if line.starts_with("# aider chat started at ") {
                return 95; // a session header decides
            } else if line.starts_with("#### ") {
                user += 1;
            } else if line.starts_with("> ") {
                tool += 1;
            }
        }
        if user > 0
            && tool > 0
            && (text.contains("> Tokens: ")
                || text.contains("> Aider v")
                || text.contains("<<<<<<< SEARCH"))
        {
            // A history cut after its first session header.
            60
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        let mut file = super::open_transcript(path)?;
        let mut traj = Trajectory::new(path.to_path_buf(), Harness::Aider, self.format());
        let mut st = Parser::new(opts.clone());
        let mut line_no = 0u64;
        let mut last_had_newline = true;
        // The file is read in blocks and split into lines in place; the
        // complete lines of a block are checked for UTF-8 at once (a line
        // is valid exactly when the block of whole lines holding it is, or
        // it is checked alone); a line longer than the buffer grows it.
        const BLOCK: usize = 256 * 1024;
        let mut buf: Vec<u8> = Vec::with_capacity(BLOCK);
        let mut eof = false;
        while !eof {
            let n = file.read_up_to(&mut buf, BLOCK as u64).map_err(|e| {
                DecodeError::new(path, Some(line_no + 1), format!("cannot read: {e}"))
            })?;
            eof = n == 0;
            let whole = if eof {
                buf.len()
            } else {
                memchr::memrchr(b'\n', &buf).map_or(0, |i| i + 1)
            };
            let mut each = |raw: &[u8], text: Option<&str>, traj: &mut Trajectory| {
                line_no += 1;
                last_had_newline = raw.last() == Some(&b'\n');
                let mut end = raw.len();
                while end > 0 && matches!(raw[end - 1], b'\n' | b'\r') {
                    end -= 1;
                }
                let line = match text {
                    Some(t) => std::borrow::Cow::Borrowed(&t[..end]),
                    None => match std::str::from_utf8(&raw[..end]) {
                        Ok(s) => std::borrow::Cow::Borrowed(s),
                        Err(_) => {
                            problem(
                                traj,
                                Location::line(line_no),
                                ProblemKind::InvalidUtf8,
                                "line is not valid UTF-8",
                            );
                            String::from_utf8_lossy(&raw[..end])
                        }
                    },
                };
                st.line(line_no, &line, traj);
            };
            let text = simdutf8::basic::from_utf8(&buf[..whole]).ok();
            let mut from = 0;
            let ends = memchr::memchr_iter(b'\n', &buf[..whole]).map(|i| i + 1);
            // at the end of the file, a last line without a line break
            let last = whole > 0 && buf[whole - 1] != b'\n';
            for to in ends.chain(last.then_some(whole)) {
                // a line break is ASCII: a char boundary of a valid text
                each(&buf[from..to], text.map(|t| &t[from..to]), &mut traj);
                from = to;
            }
            buf.drain(..whole);
        }
        st.finish(&mut traj, last_had_newline, line_no);
        Ok(traj)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Before any input in a session, or after aider's own `>` lines.
    Idle,
    /// Collecting `#### ` lines.
    User,
    /// Inside a model reply.
    Reply,
    /// Inside a multi-line aider output whose first line had the `> `: plain
    /// lines up to the one that ends with aider's line break are its text.
    Continuation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    User,
    Reply,
    /// `/exit`, `/quit`, `/clear`, `/reset`.
    End,
}

/// A SEARCH/REPLACE block of the current or last reply.
struct Block {
    event: usize,
    path: String,
    search_hash: u64,
}

enum BlockState {
    None,
    Search {
        path: String,
        line: u64,
        hasher: LinesHasher,
        empty: bool,
    },
    Replace,
    /// A fenced shell block the model suggests running.
    Shell {
        lines: Vec<(u64, String)>,
    },
}

struct Parser {
    opts: DecodeOptions,
    mode: Mode,
    user_start: u64,
    /// The lines of the current user input, joined by line breaks (one
    /// buffer kept from turn to turn: a string per line cost more than
    /// reading them).
    user_text: String,
    /// Index of the current reply's message event.
    reply_event: Option<usize>,
    /// Up to three previous lines of the reply (for the block's file name).
    recent: std::collections::VecDeque<String>,
    block: BlockState,
    last_block_path: Option<String>,
    blocks: Vec<Block>,
    /// Shell blocks of the last reply not yet answered by a "Run shell command?" prompt.
    pending_shell: std::collections::VecDeque<Vec<(u64, String)>>,
    /// Shell commands approved by the last "Run shell command?" answer.
    run_approved: bool,
    /// Echo of a failed SEARCH block: (path, collecting, lines).
    failed_echo: Option<(String, bool, Vec<String>)>,
    last_turn: Option<Turn>,
    interrupted: bool,
}

/// The text after aider's "no exact match" error, if `text` holds it (a
/// searcher built once: `str::split_once` prepares its long needle anew on
/// every output line).
fn no_exact_match(text: &str) -> Option<&str> {
    const NEEDLE: &str =
        "SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in ";
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    let finder = FINDER.get_or_init(|| memchr::memmem::Finder::new(NEEDLE));
    finder
        .find(text.as_bytes())
        .map(|at| &text[at + NEEDLE.len()..])
}

/// Whether aider's output line reports `KeyboardInterrupt` (a searcher built
/// once: `str::contains` prepares its needle anew on every output line).
fn keyboard_interrupt(text: &str) -> bool {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    FINDER
        .get_or_init(|| memchr::memmem::Finder::new("KeyboardInterrupt"))
        .find(text.as_bytes())
        .is_some()
}

fn is_tool_line(line: &str) -> bool {
    line == ">" || line.starts_with("> ") || (line.starts_with('>') && line[1..].trim().is_empty())
}

fn tool_text(line: &str) -> &str {
    line.get(1..)
        .unwrap_or("")
        .strip_prefix(' ')
        .unwrap_or(line.get(1..).unwrap_or(""))
        .trim_end()
}

fn marker(line: &str, c: char, word: &str) -> bool {
    if !line.starts_with(c) {
        return false; // (most lines: no trimming)
    }
    let t = line.trim_end();
    let n = t.chars().take_while(|&x| x == c).count();
    if !(5..=9).contains(&n) {
        return false;
    }
    let rest = &t[n..];
    if word.is_empty() {
        rest.is_empty()
    } else {
        rest.strip_prefix(' ').is_some_and(|r| r.trim() == word)
    }
}

/// The opening fences aider uses (it switches away from ``` when the code holds one).
const FENCES: &[&str] = &[
    "````",
    "```",
    "<sourcecode>",
    "<codeblock>",
    "<source>",
    "<code>",
    "<pre>",
];

fn fence_rest(line: &str) -> Option<&str> {
    let l = line.trim();
    FENCES.iter().find_map(|f| l.strip_prefix(f))
}

/// aider's `strip_filename`: a candidate file name from a line above a block.
fn strip_filename(line: &str) -> Option<String> {
    let l = line.trim();
    if l == "..." || l.is_empty() {
        return None;
    }
    if let Some(c) = fence_rest(l) {
        let c = c.trim();
        return (!c.is_empty() && (c.contains('.') || c.contains('/'))).then(|| c.to_string());
    }
    let l = l
        .trim_end_matches(':')
        .trim_start_matches('#')
        .trim()
        .trim_matches('`')
        .trim_matches('*');
    (!l.is_empty()).then(|| l.to_string())
}

/// An opening fence of a shell block (```bash, ```sh …), which aider offers to run.
fn is_shell_fence(line: &str) -> bool {
    // most reply lines hold no backtick: one `memchr` instead of a trim
    if memchr::memchr(b'`', line.as_bytes()).is_none() {
        return false;
    }
    let Some(lang) = line.trim().strip_prefix("```") else {
        return false;
    };
    matches!(
        lang.trim().to_ascii_lowercase().as_str(),
        "bash"
            | "sh"
            | "shell"
            | "zsh"
            | "fish"
            | "ksh"
            | "csh"
            | "tcsh"
            | "console"
            | "cmd"
            | "batch"
            | "powershell"
            | "ps1"
    )
}

/// The hash of a block's lines, compared only with another block's within one
/// run (foldhash with a fixed seed: std's SipHash cost more than the rest of
/// aider's line tests).
type LinesHasher = foldhash::quality::FoldHasher<'static>;

fn lines_hasher() -> LinesHasher {
    foldhash::quality::FixedState::default().build_hasher()
}

fn hash_lines<'a>(lines: impl Iterator<Item = &'a str>) -> u64 {
    let mut h = lines_hasher();
    for l in lines {
        l.trim_end().hash(&mut h);
    }
    h.finish()
}

const COMMANDS: &[&str] = &[
    "add",
    "architect",
    "ask",
    "chat-mode",
    "clear",
    "code",
    "commit",
    "context",
    "copy",
    "copy-context",
    "diff",
    "drop",
    "edit",
    "editor",
    "editor-model",
    "exit",
    "git",
    "help",
    "lint",
    "load",
    "ls",
    "map",
    "map-refresh",
    "model",
    "models",
    "multiline-mode",
    "paste",
    "quit",
    "read-only",
    "reasoning-effort",
    "report",
    "reset",
    "run",
    "save",
    "settings",
    "test",
    "think-tokens",
    "tokens",
    "undo",
    "voice",
    "weak-model",
    "web",
];

/// The full command name for what the user typed (`/ex` → `exit`), or the word as typed.
fn resolve_command(word: &str) -> String {
    if COMMANDS.contains(&word) || word == "read" {
        return word.to_string();
    }
    let matches: Vec<&&str> = COMMANDS.iter().filter(|c| c.starts_with(word)).collect();
    if matches.len() == 1 {
        matches[0].to_string()
    } else {
        word.to_string()
    }
}

impl Parser {
    fn new(opts: DecodeOptions) -> Self {
        Parser {
            opts,
            mode: Mode::Idle,
            user_start: 0,
            user_text: String::new(),
            reply_event: None,
            recent: Default::default(),
            block: BlockState::None,
            last_block_path: None,
            blocks: Vec::new(),
            pending_shell: Default::default(),
            run_approved: false,
            failed_echo: None,
            last_turn: None,
            interrupted: false,
        }
    }

    fn line(&mut self, n: u64, line: &str, traj: &mut Trajectory) {
        if line.starts_with("# aider chat started at ") {
            self.end_user(traj);
            self.end_reply(traj);
            self.mode = Mode::Idle;
            self.blocks.clear();
            self.last_block_path = None;
            self.pending_shell.clear();
            self.failed_echo = None;
            return;
        }
        // aider ends each of its own lines (`#### ` input, `> ` output) with a
        // markdown line break: two trailing spaces. A multi-line output gets
        // `> ` on its first line only and the break after its last line.
        let aider_break = line.ends_with("  ")
            || (line.starts_with('>') && line.trim_end() == ">")
            || (line.starts_with('#') && line.trim_end() == "####");
        let user_line = line.starts_with("####") && (line.len() == 4 || line.as_bytes()[4] == b' ');
        if self.mode == Mode::Continuation {
            if user_line && aider_break {
                self.mode = Mode::Idle;
            } else {
                if aider_break {
                    self.mode = Mode::Idle;
                }
                return;
            }
        }
        // In a reply, `#### ` / `> ` lines are aider's only with that break;
        // without it they are the reply's own markdown (a heading, a quote).
        let in_reply = self.mode == Mode::Reply;
        if user_line && (!in_reply || aider_break) {
            if self.mode != Mode::User {
                self.end_reply(traj);
                self.mode = Mode::User;
                self.user_start = n;
                self.user_text.clear();
            } else {
                self.user_text.push('\n');
            }
            let text = line.get(5..).unwrap_or("").trim_end();
            self.user_text.push_str(text);
            return;
        }
        if is_tool_line(line) && (!in_reply || aider_break) && !marker(line, '>', "REPLACE") {
            self.end_user(traj);
            if self.mode == Mode::Reply {
                self.end_reply(traj);
            }
            self.mode = if aider_break {
                Mode::Idle
            } else {
                Mode::Continuation
            };
            self.tool_line(n, tool_text(line), traj);
            return;
        }
        match self.mode {
            Mode::Continuation => {}
            Mode::Idle | Mode::User => {
                if line.trim().is_empty() {
                    return;
                }
                self.end_user(traj);
                self.start_reply(n, traj);
                self.reply_line(n, line, traj);
            }
            Mode::Reply => self.reply_line(n, line, traj),
        }
    }

    fn start_reply(&mut self, n: u64, traj: &mut Trajectory) {
        self.mode = Mode::Reply;
        self.blocks.clear();
        self.pending_shell.clear();
        self.recent.clear();
        self.block = BlockState::None;
        traj.events.push(message_event(
            Location::line(n),
            Role::Assistant,
            self.opts.keep_content.then(String::new),
            &self.opts,
        ));
        self.reply_event = Some(traj.events.len() - 1);
        self.last_turn = Some(Turn::Reply);
        self.interrupted = false;
    }

    fn end_reply(&mut self, traj: &mut Trajectory) {
        if let BlockState::Search { line, .. } = self.block {
            problem(
                traj,
                Location::line(line),
                ProblemKind::Skipped,
                "SEARCH/REPLACE block cut off before its divider (an interrupted reply; aider did not apply it)",
            );
        }
        self.reply_event = None;
        self.block = BlockState::None;
        self.recent.clear();
    }

    fn reply_line(&mut self, n: u64, line: &str, traj: &mut Trajectory) {
        if let (Some(idx), true) = (self.reply_event, self.opts.keep_content) {
            if let Some(t) = traj.events[idx]
                .content
                .as_mut()
                .and_then(|c| c.text.as_mut())
            {
                if !t.is_empty() {
                    t.push('\n');
                }
                t.push_str(line);
            }
        }
        match &mut self.block {
            BlockState::None => {
                if is_shell_fence(line) {
                    self.block = BlockState::Shell { lines: Vec::new() };
                } else if marker(line, '<', "SEARCH") {
                    let mut found = None;
                    for prev in self.recent.iter().rev().take(3) {
                        if let Some(f) = strip_filename(prev) {
                            found = Some(f);
                            break;
                        }
                        if fence_rest(prev).is_none() {
                            break;
                        }
                    }
                    match found.or_else(|| self.last_block_path.clone()) {
                        Some(path) => {
                            self.last_block_path = Some(path.clone());
                            self.block = BlockState::Search {
                                path,
                                line: n,
                                hasher: lines_hasher(),
                                empty: true,
                            };
                        }
                        None => {
                            problem(
                                traj,
                                Location::line(n),
                                ProblemKind::Undecodable,
                                "SEARCH/REPLACE block without a file name",
                            );
                            self.block = BlockState::Replace;
                        }
                    }
                } else {
                    // the oldest of three makes room, its buffer reused
                    let mut s = if self.recent.len() >= 3 {
                        self.recent.pop_front().unwrap_or_default()
                    } else {
                        String::new()
                    };
                    s.clear();
                    s.push_str(line);
                    self.recent.push_back(s);
                }
            }
            BlockState::Search {
                path,
                line: start,
                hasher,
                empty,
            } => {
                if marker(line, '=', "") {
                    let path = path.clone();
                    let start = *start;
                    let write = *empty;
                    let search_hash = hasher.clone().finish();
                    let effect = if write {
                        FileEffect::Write { path: path.clone() }
                    } else {
                        FileEffect::Edit { path: path.clone() }
                    };
                    let input = json!({ "path": path });
                    traj.events.push(tool_event(
                        Location::line(start),
                        Role::Assistant,
                        "search/replace",
                        file_action(effect),
                        &input,
                        &self.opts,
                    ));
                    self.blocks.push(Block {
                        event: traj.events.len() - 1,
                        path,
                        search_hash,
                    });
                    self.block = BlockState::Replace;
                } else {
                    line.trim_end().hash(hasher);
                    if !line.trim().is_empty() {
                        *empty = false;
                    }
                }
            }
            BlockState::Replace => {
                if marker(line, '>', "REPLACE") {
                    self.block = BlockState::None;
                    self.recent.clear();
                }
            }
            BlockState::Shell { lines } => {
                if line.trim_start().starts_with("```") {
                    let lines = std::mem::take(lines);
                    self.pending_shell.push_back(lines);
                    self.block = BlockState::None;
                    self.recent.clear();
                } else {
                    lines.push((n, line.to_string()));
                }
            }
        }
    }

    /// A finished run of `#### ` lines: a prompt or a command.
    fn end_user(&mut self, traj: &mut Trajectory) {
        if self.mode != Mode::User {
            return;
        }
        self.mode = Mode::Idle;
        self.last_turn = Some(Turn::User);
        self.interrupted = false;
        let text = std::mem::take(&mut self.user_text);
        self.user_turn(&text, traj);
        self.user_text = text;
    }

    /// The user input `text` (its lines joined by line breaks), ended.
    fn user_turn(&mut self, text: &str, traj: &mut Trajectory) {
        let n = self.user_start;
        // the first line (a command's word), the others only for a command
        let (first, more) = match memchr::memchr(b'\n', text.as_bytes()) {
            Some(at) => (&text[..at], Some(&text[at + 1..])),
            None => (text, None),
        };
        let first = first.trim_start();
        let (word, args) = if let Some(rest) = first.strip_prefix('!') {
            ("run".to_string(), rest.to_string())
        } else if let Some(rest) = first.strip_prefix('/') {
            let (w, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            (resolve_command(w), args.trim().to_string())
        } else {
            let text = self.opts.keep_content.then(|| text.to_string());
            traj.events
                .push(user_turn_event(Location::line(n), text, &self.opts));
            return;
        };
        // A command's arguments may continue on the following `####` lines (a paste).
        let mut all_args = args;
        for l in more.into_iter().flat_map(|m| m.split('\n')) {
            if !l.trim().is_empty() {
                all_args.push(' ');
                all_args.push_str(l.trim());
            }
        }
        let tool = format!("/{word}");
        let input = json!({ "command": tool, "args": all_args });
        let action = match word.as_str() {
            "run" | "test" | "git" => {
                let cmd = if word == "git" {
                    format!("git {all_args}")
                } else {
                    all_args.clone()
                };
                if cmd.trim().is_empty() {
                    Action::Other
                } else {
                    shell_action(cmd.trim(), None)
                }
            }
            "add" | "read-only" | "read" => {
                let effects: Vec<FileEffect> = all_args
                    .split_whitespace()
                    .map(|p| FileEffect::Read {
                        path: p.to_string(),
                    })
                    .collect();
                if effects.is_empty() {
                    Action::Other
                } else {
                    Action::File { effects }
                }
            }
            "web" => match first_url(&all_args) {
                Some(url) => Action::Fetch { url },
                None => Action::Other,
            },
            "ask" | "code" | "architect" | "context" => {
                let text = self.opts.keep_content.then(|| all_args.clone());
                traj.events
                    .push(user_turn_event(Location::line(n), text, &self.opts));
                return;
            }
            "exit" | "quit" | "clear" | "reset" => {
                // a session command: the user ends or resets the chat (complete)
                traj.events.push(Event::new(
                    Location::line(n),
                    Role::User,
                    Action::UserTurn {
                        via: UserTurnVia::SessionCommand,
                        command: Some(word.clone()),
                    },
                ));
                self.last_turn = Some(Turn::End);
                return;
            }
            _ => Action::Other,
        };
        traj.events.push(tool_event(
            Location::line(n),
            Role::User,
            &tool,
            action,
            &input,
            &self.opts,
        ));
    }

    fn tool_line(&mut self, n: u64, text: &str, traj: &mut Trajectory) {
        // Echo of a failed SEARCH block, after "SearchReplaceNoExactMatch".
        if let Some((path, collecting, lines)) = &mut self.failed_echo {
            if !*collecting && marker(text, '<', "SEARCH") {
                *collecting = true;
                return;
            }
            if *collecting {
                if marker(text, '=', "") {
                    let h = hash_lines(lines.iter().map(String::as_str));
                    let path = path.clone();
                    self.failed_echo = None;
                    self.fail_blocks(&path, Some(h), false, traj);
                } else {
                    lines.push(text.to_string());
                }
                return;
            }
        }
        if text.is_empty() {
            return;
        }
        if let Some(v) = text.strip_prefix("Aider v") {
            if traj.harness_version.is_none() {
                traj.harness_version = Some(v.split_whitespace().next().unwrap_or(v).to_string());
            }
        } else if text.starts_with("Commit ") || text.starts_with("Tokens: ") {
            // aider's own auto-commit and token report: bookkeeping, no event.
        } else if keyboard_interrupt(text) {
            self.interrupted = true;
        } else if let Some(path) = text.strip_prefix("Applied edit to ") {
            let path = path.trim();
            if !self.blocks.iter().any(|b| b.path == path) {
                let input = json!({ "path": path });
                let ev = tool_event(
                    Location::line(n),
                    Role::Assistant,
                    "applied-edit",
                    file_action(FileEffect::Edit {
                        path: path.to_string(),
                    }),
                    &input,
                    &self.opts,
                );
                traj.events.push(ev);
            }
        } else if let Some(rest) = no_exact_match(text) {
            self.failed_echo = Some((rest.trim().to_string(), false, Vec::new()));
            // Until the echo is seen, every block of that file counts as failed.
            let path = rest.trim().to_string();
            self.fail_blocks(&path, None, false, traj);
        } else if let Some(path) = text.strip_prefix("Skipping edits to ") {
            let path = path.trim().to_string();
            self.fail_blocks(&path, None, true, traj);
        } else if text.starts_with("Run shell command") {
            let answer = text.rsplit(':').next().unwrap_or("").trim();
            self.run_approved = answer.starts_with('y') || answer.starts_with('a');
            // Each prompt asks about the next suggested shell block of the reply.
            let block = self.pending_shell.pop_front().unwrap_or_default();
            if !self.run_approved {
                for (line, cmd) in block {
                    let cmd = cmd.trim();
                    if cmd.is_empty() || cmd.starts_with('#') {
                        continue;
                    }
                    let input = json!({ "command": cmd });
                    let mut ev = tool_event(
                        Location::line(line),
                        Role::Assistant,
                        "shell",
                        shell_action(cmd, None),
                        &input,
                        &self.opts,
                    );
                    ev.failed = true;
                    ev.rejected = true;
                    traj.events.push(ev);
                }
            }
        } else if let Some(cmd) = text
            .strip_prefix("Running ")
            .filter(|c| !c.starts_with(':'))
        {
            let input = json!({ "command": cmd });
            let mut ev = tool_event(
                Location::line(n),
                Role::Assistant,
                "shell",
                shell_action(cmd.trim(), None),
                &input,
                &self.opts,
            );
            ev.rejected = !self.run_approved;
            ev.failed = ev.rejected;
            traj.events.push(ev);
        } else if let Some(rest) = text
            .strip_prefix("Add ")
            .filter(|r| r.contains(" to the chat?"))
        {
            // aider offering to add a URL or file the model / user mentioned.
            let subject = rest.split(" to the chat?").next().unwrap_or("").trim();
            let answer = text.rsplit(':').next().unwrap_or("").trim();
            if answer.starts_with('y') || answer.starts_with('a') {
                let action = if subject.starts_with("http://") || subject.starts_with("https://") {
                    Some(Action::Fetch {
                        url: subject.to_string(),
                    })
                } else if !subject.contains(' ') && !subject.is_empty() {
                    Some(file_action(FileEffect::Read {
                        path: subject.to_string(),
                    }))
                } else {
                    None
                };
                if let Some(a) = action {
                    let input = Value::String(subject.to_string());
                    traj.events.push(tool_event(
                        Location::line(n),
                        Role::User,
                        "add-to-chat",
                        a,
                        &input,
                        &self.opts,
                    ));
                }
            }
        } else if let Some(rest) = text.strip_prefix("Allow ") {
            // "Allow creation of new file X? … n", "Allow edits to X which was not previously added to chat? … n"
            let answer = text.rsplit(':').next().unwrap_or("").trim();
            if answer.starts_with('n') || answer.starts_with('d') {
                let path = rest
                    .strip_prefix("creation of new file ")
                    .or_else(|| rest.strip_prefix("edits to "))
                    .and_then(|r| r.split(['?', ' ']).next())
                    .unwrap_or("")
                    .to_string();
                if !path.is_empty() {
                    self.fail_blocks(&path, None, true, traj);
                }
            }
        }
    }

    /// Mark the blocks of `path` in the last reply failed (only the one whose
    /// SEARCH text hashes to `hash`, when it can be told apart).
    fn fail_blocks(
        &mut self,
        path: &str,
        hash: Option<u64>,
        rejected: bool,
        traj: &mut Trajectory,
    ) {
        let same_path: Vec<&Block> = self.blocks.iter().filter(|b| b.path == path).collect();
        let exact: Vec<&&Block> = same_path
            .iter()
            .filter(|b| Some(b.search_hash) == hash)
            .collect();
        if hash.is_some() && !exact.is_empty() {
            // The echo names one block: un-fail the others of that file first.
            for b in &same_path {
                traj.events[b.event].failed = false;
            }
            for b in exact {
                traj.events[b.event].failed = true;
            }
            return;
        }
        for b in same_path {
            let ev = &mut traj.events[b.event];
            ev.failed = true;
            ev.rejected |= rejected;
        }
    }

    /// Close the last turn; the file is truncated when its last line has
    /// no newline, complete when it ends on a finished reply or an end.
    fn finish(&mut self, traj: &mut Trajectory, last_had_newline: bool, line_no: u64) {
        self.end_user(traj);
        self.end_reply(traj);
        traj.truncated = !last_had_newline && line_no > 0;
        traj.complete = !traj.truncated
            && match self.last_turn {
                Some(Turn::Reply) => !self.interrupted,
                Some(Turn::End) => true,
                _ => false,
            };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sniff as it read every head (lossy text, all lines counted): the
    /// reference for [`AiderDecoder::sniff`]'s early answer.
    fn sniff_counting_all(head: &[u8]) -> u8 {
        if !(head.first() == Some(&b'#') || memchr::memmem::find(head, b"\n#").is_some()) {
            return 0;
        }
        let text = String::from_utf8_lossy(head);
        let (mut starts, mut user, mut tool) = (0, 0, 0);
        for line in text.lines().take(2000) {
            if line.starts_with("# aider chat started at ") {
                starts += 1;
            } else if line.starts_with("#### ") {
                user += 1;
            } else if line.starts_with("> ") {
                tool += 1;
            }
        }
        let token = ["> Tokens: ", "> Aider v", "<<<<<<< SEARCH"]
            .iter()
            .any(|t| text.contains(t));
        if starts > 0 {
            95
        } else if user > 0 && tool > 0 && token {
            60
        } else {
            0
        }
    }

    #[test]
    fn sniff_answers_as_counting_every_line() {
        let start = "# aider chat started at 2025-01-01 10:00:00\n";
        let many = "x\n".repeat(2100);
        let heads: Vec<Vec<u8>> = vec![
            format!("{start}\n#### fix it\n> Tokens: 1k\n").into(),
            format!("#### fix it\n> Aider v0.80\nreply\n{start}").into(),
            "#### fix it\n> Tokens: 1k sent\nreply\n".into(),
            "#### fix it\nreply\n<<<<<<< SEARCH\n".into(),
            "#### fix it\n> run\nno token\n".into(),
            format!("#### a\n> Tokens: 1\n{many}{start}").into(),
            format!("{many}#### a\n> Tokens: 1\n").into(),
            [&b"#### a\xff\xfe\n> Tokens: 1\n"[..], start.as_bytes()].concat(),
            [&b"\xc3#### a\n> Aider v1\n"[..]].concat(),
            "# not aider\n{\"a\": 1}\n".into(),
            "{\"type\": \"x\"}\n".into(),
            format!("#### a\r\n> Tokens: 1\r\n{start}").into(),
            Vec::new(),
        ];
        for h in &heads {
            assert_eq!(
                AiderDecoder.sniff(Path::new("x.md"), h),
                sniff_counting_all(h),
                "{:?}",
                String::from_utf8_lossy(h)
            );
        }
    }

    /// The file read line by line with `read_until`, as before the block
    /// reader: the reference for [`AiderDecoder::decode`]'s line splitting.
    fn decode_by_read_until(path: &Path) -> Trajectory {
        use std::io::BufRead;
        let mut reader = std::io::BufReader::new(std::fs::File::open(path).unwrap());
        let mut traj = Trajectory::new(path.to_path_buf(), Harness::Aider, "aider");
        let mut st = Parser::new(DecodeOptions::default());
        let (mut buf, mut line_no, mut last_had_newline) = (Vec::new(), 0u64, true);
        loop {
            buf.clear();
            if reader.read_until(b'\n', &mut buf).unwrap() == 0 {
                break;
            }
            line_no += 1;
            last_had_newline = buf.last() == Some(&b'\n');
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            let line = match std::str::from_utf8(&buf) {
                Ok(s) => std::borrow::Cow::Borrowed(s),
                Err(_) => {
                    problem(
                        &mut traj,
                        Location::line(line_no),
                        ProblemKind::InvalidUtf8,
                        "line is not valid UTF-8",
                    );
                    String::from_utf8_lossy(&buf)
                }
            };
            st.line(line_no, &line, &mut traj);
        }
        st.finish(&mut traj, last_had_newline, line_no);
        traj
    }

    #[test]
    fn lines_are_split_as_read_until_splits_them() {
        let session = "# aider chat started at 2025-01-01 10:00:00\r\n\n#### fix the bug  \n\nsrc/a.py\n```python\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n\n> Applied edit to src/a.py  \n\r\r\n#### /run cargo test  \n> Run shell command? (Y)es/(N)o [Yes]: y  \n";
        let mut texts: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"\n".to_vec(),
            b"no line break at the end".to_vec(),
            session.as_bytes().to_vec(),
            session.trim_end().as_bytes().to_vec(),
            session.replace('\n', "\r\n").into_bytes(),
            [
                session.as_bytes(),
                b"bad \xff\xfe utf-8\n",
                session.as_bytes(),
            ]
            .concat(),
            [session.as_bytes(), b"cut \xe6\x97"].concat(),
        ];
        // lines across the 256 KiB blocks, one longer than a block
        let mut big = session.repeat(3000).into_bytes();
        big.extend_from_slice(&[b'x'; 300 * 1024]);
        big.extend_from_slice(b"\n\xc3\xa9\n");
        big.extend_from_slice(session.repeat(3000).as_bytes());
        texts.push(big);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chat.md");
        for text in &texts {
            std::fs::write(&path, text).unwrap();
            let ours = AiderDecoder
                .decode(&path, &DecodeOptions::default())
                .unwrap();
            let want = decode_by_read_until(&path);
            assert_eq!(
                serde_json::to_string(&ours).unwrap(),
                serde_json::to_string(&want).unwrap(),
                "{} bytes",
                text.len()
            );
        }
    }

    #[test]
    fn markers_and_filenames() {
        assert!(marker("<<<<<<< SEARCH", '<', "SEARCH"));
        assert!(marker("=======", '=', ""));
        assert!(marker(">>>>>>> REPLACE  ", '>', "REPLACE"));
        assert!(!marker("<<<< SEARCH", '<', "SEARCH"));
        assert_eq!(strip_filename("```python"), None);
        assert_eq!(
            strip_filename("aider/utils.py").as_deref(),
            Some("aider/utils.py")
        );
        assert_eq!(strip_filename("**src/a.rs**:").as_deref(), Some("src/a.rs"));
        assert_eq!(strip_filename("```src/b.rs").as_deref(), Some("src/b.rs"));
        assert_eq!(strip_filename("<source>python"), None);
    }

    #[test]
    fn command_abbreviations() {
        assert_eq!(resolve_command("ex"), "exit");
        assert_eq!(resolve_command("run"), "run");
        assert_eq!(resolve_command("r"), "r");
        assert_eq!(resolve_command("com"), "commit");
        assert_eq!(resolve_command("undo"), "undo");
    }
}
