//! The scoring rubric (seed 000 steps 3–6), exactly as `docs/doctor.md`
//! states it. Every sub-score is a pure function of the turns; each records
//! the turns that set it.

use super::redact::{redact_collapsed, shorten, EXCERPT_CHARS};
use super::signals::{self, ChangeOp, CheckKind, Indent, TextChange};
use super::turns::{Turn, TurnRole};
use super::{DoctorOptions, Evidence, Facts, Finding, Score, SubScore, Suggestion};
use crate::decode::Action;
use std::collections::{BTreeSet, HashMap};

/// Tools whose successful call ends a task (SWE-agent `submit`, OpenHands
/// `finish`, Cline-style `attempt_completion`): a final answer.
pub const COMPLETION_TOOLS: &[&str] = &["submit", "finish", "attempt_completion", "task_complete"];

/// Evidence items that carry an excerpt, per sub-score (the rest cite turn numbers).
pub const EXCERPTS_PER_SCORE: usize = 5;

/// Turn budget per user request and per changed file (turn economy).
pub const TURNS_PER_REQUEST: usize = 20;
pub const TURNS_PER_CHANGED_FILE: usize = 5;

/// What an excerpt of a turn shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// Message text for messages; the call (and output when it failed) for tools.
    Auto,
    /// The call only.
    Call,
    /// The call and the start of its output.
    CallAndOutput,
}

/// A short summary of a tool call's input: its command, path, pattern,
/// query or URL when it has one, else its JSON.
fn input_summary(t: &Turn) -> Option<String> {
    if let Action::Shell(sh) = &t.action {
        if !sh.line.trim().is_empty() {
            return Some(sh.line.clone());
        }
    }
    let input = t.tool_input.as_ref()?;
    if let Some(s) = input.as_str() {
        return Some(s.to_string());
    }
    for key in [
        "command",
        "cmd",
        "file_path",
        "path",
        "pattern",
        "query",
        "url",
        "skill",
        "description",
    ] {
        match input.get(key) {
            Some(serde_json::Value::String(s)) => return Some(s.clone()),
            Some(serde_json::Value::Array(a)) => {
                let words: Vec<&str> = a.iter().filter_map(|v| v.as_str()).collect();
                if !words.is_empty() {
                    return Some(words.join(" "));
                }
            }
            _ => {}
        }
    }
    serde_json::to_string(input).ok()
}

/// A redacted excerpt (≤ 240 characters) of one turn.
pub fn turn_excerpt(t: &Turn, focus: Focus) -> Option<String> {
    // Messages, and tool turns known only by their text (plain-text logs).
    let message = !t.is_tool()
        || (t.tool_input.is_none() && !matches!(t.action, Action::Shell(_)) && t.text.is_some());
    if message {
        let text = t.text.as_deref()?;
        let e = shorten(&redact_collapsed(text), EXCERPT_CHARS);
        return (!e.is_empty()).then_some(e);
    }
    let tool = t.tool_name.as_deref().unwrap_or("tool");
    let call = match input_summary(t) {
        Some(s) => format!("{}: {}", redact_collapsed(tool), redact_collapsed(&s)),
        None => redact_collapsed(tool),
    };
    let with_output = match focus {
        Focus::Call => false,
        Focus::CallAndOutput => true,
        Focus::Auto => t.failed,
    };
    let mut text = call;
    if with_output {
        if let Some(out) = t.tool_output.as_deref() {
            let out = redact_collapsed(out);
            if !out.is_empty() {
                // Give the output at least a third of the room.
                let room = EXCERPT_CHARS * 2 / 3;
                if text.chars().count() > room {
                    text = shorten(&text, room);
                }
                text = format!("{text} ⇒ {out}");
            }
        } else if t.failed {
            text.push_str(" ⇒ (failed)");
        }
    }
    Some(shorten(&text, EXCERPT_CHARS))
}

/// A change attempt on one file.
#[derive(Debug, Clone)]
struct Change {
    idx: usize,
    key: String,
    op: ChangeOp,
    ok: bool,
    rejected: bool,
}

/// A check run (test / build / lint).
#[derive(Debug, Clone)]
struct Check {
    idx: usize,
    kind: CheckKind,
    passed: bool,
}

/// Everything the sub-scores share, computed once.
struct Ctx<'a> {
    turns: &'a [Turn],
    cwd: Option<&'a str>,
    truncated: bool,
    excerpts: bool,
    requests: Vec<usize>,
    interrupts: Vec<usize>,
    /// Normalised paths each turn reads.
    reads: Vec<Vec<String>>,
    /// Files created and deleted within the session (left out of code quality).
    scratch: Vec<String>,
    /// Change attempts on files other than scratch files.
    changes: Vec<Change>,
    /// Distinct keys of successfully changed files, in first-change order.
    changed: Vec<String>,
    code_changed: Vec<String>,
    last_code_change: Option<usize>,
    checks: Vec<Check>,
    /// Lower-cased message text + tool input of each turn, for mention search.
    haystacks: Vec<String>,
}

impl<'a> Ctx<'a> {
    fn new(turns: &'a [Turn], cwd: Option<&'a str>, truncated: bool, excerpts: bool) -> Self {
        let requests: Vec<usize> = (0..turns.len())
            .filter(|&i| signals::is_user_request(&turns[i]))
            .collect();
        let interrupts = interrupts(turns);
        // Raw keys: paths normalised against the turn's working directory.
        let mut raw_changes = Vec::new();
        let mut raw_reads: Vec<Vec<String>> = Vec::with_capacity(turns.len());
        for (i, t) in turns.iter().enumerate() {
            let wd = signals::turn_workdir(t, cwd);
            for (path, op) in signals::changed_paths(t) {
                raw_changes.push(Change {
                    idx: i,
                    key: signals::normalize_path(&path, wd),
                    op,
                    ok: !t.failed,
                    rejected: t.rejected,
                });
            }
            raw_reads.push(
                signals::read_paths(t)
                    .iter()
                    .map(|p| signals::normalize_path(p, wd))
                    .collect(),
            );
        }
        // One key per file: a relative path names the absolute path seen in
        // the session that ends with it (`reproduce.py` = `/testbed/reproduce.py`).
        let absolute: BTreeSet<String> = raw_changes
            .iter()
            .map(|c| c.key.clone())
            .chain(raw_reads.iter().flatten().cloned())
            .filter(|k| k.starts_with('/'))
            .collect();
        let unify = |k: &str| -> String {
            if k.starts_with('/') {
                return k.to_string();
            }
            let suffix = format!("/{k}");
            absolute
                .iter()
                .find(|a| a.ends_with(&suffix))
                .cloned()
                .unwrap_or_else(|| k.to_string())
        };
        for c in raw_changes.iter_mut() {
            c.key = unify(&c.key);
        }
        let reads: Vec<Vec<String>> = raw_reads
            .iter()
            .map(|r| r.iter().map(|k| unify(k)).collect())
            .collect();
        // Scratch files: created in the session and deleted again.
        let mut scratch: Vec<String> = Vec::new();
        for c in raw_changes.iter().filter(|c| c.ok) {
            if scratch.contains(&c.key) {
                continue;
            }
            let ok: Vec<&Change> = raw_changes
                .iter()
                .filter(|x| x.ok && x.key == c.key)
                .collect();
            let first = ok[0];
            let created = first.op == ChangeOp::Write
                && !existed(turns, &reads, &raw_changes, first.idx, &c.key);
            let deleted = ok
                .iter()
                .any(|x| x.op == ChangeOp::Delete && x.idx > first.idx);
            if created && deleted {
                scratch.push(c.key.clone());
            }
        }
        let scratch_names: Vec<String> = scratch
            .iter()
            .map(|k| signals::file_name(k).to_string())
            .collect();
        let changes: Vec<Change> = raw_changes
            .into_iter()
            .filter(|c| !scratch.contains(&c.key))
            .collect();
        let mut changed: Vec<String> = Vec::new();
        for c in changes.iter().filter(|c| c.ok) {
            if !changed.contains(&c.key) {
                changed.push(c.key.clone());
            }
        }
        let code_changed: Vec<String> = changed
            .iter()
            .filter(|k| !signals::is_documentation(k))
            .cloned()
            .collect();
        let last_code_change = changes
            .iter()
            .filter(|c| c.ok && !signals::is_documentation(&c.key))
            .map(|c| c.idx)
            .max();
        // Running a changed file or a scratch script counts as a test run.
        let changed_names: Vec<String> = changed
            .iter()
            .map(|k| signals::file_name(k).to_string())
            .chain(scratch_names)
            .collect();
        let mut checks = Vec::new();
        for (i, t) in turns.iter().enumerate() {
            let kinds: BTreeSet<CheckKind> = signals::shell_commands(t)
                .iter()
                .filter_map(|argv| signals::classify_check(argv, &changed_names))
                .collect();
            let passed = !t.failed && t.exit_code.is_none_or(|c| c == 0);
            for kind in kinds {
                checks.push(Check {
                    idx: i,
                    kind,
                    passed,
                });
            }
        }
        let haystacks = turns
            .iter()
            .map(|t| {
                let mut h = t.text.clone().unwrap_or_default();
                if let Some(input) = &t.tool_input {
                    h.push('\n');
                    h.push_str(&input.to_string());
                }
                if let Action::Shell(sh) = &t.action {
                    h.push('\n');
                    h.push_str(&sh.line);
                }
                h.to_lowercase()
            })
            .collect();
        Ctx {
            turns,
            cwd,
            truncated,
            excerpts,
            requests,
            interrupts,
            reads,
            scratch,
            changes,
            changed,
            code_changed,
            last_code_change,
            checks,
            haystacks,
        }
    }

    fn ev(&self, idx: usize, note: impl Into<String>, focus: Focus) -> Evidence {
        let t = &self.turns[idx];
        Evidence {
            turn: t.number,
            line: t.line,
            note: note.into(),
            excerpt: if self.excerpts {
                turn_excerpt(t, focus)
            } else {
                None
            },
        }
    }

    fn num(&self, idx: usize) -> usize {
        self.turns[idx].number
    }

    /// Main-agent turns that are not system turns.
    fn main_turns(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.turns.len())
            .filter(|&i| !self.turns[i].subagent && self.turns[i].role != TurnRole::System)
    }

    fn tool_turns(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.turns.len()).filter(|&i| self.turns[i].is_tool())
    }

    /// Same tool and identical input.
    fn call_key(&self, idx: usize) -> String {
        let t = &self.turns[idx];
        let input = match (&t.tool_input, &t.action) {
            (Some(v), _) => v.to_string(),
            (None, Action::Shell(sh)) => sh.line.clone(),
            (None, a) => format!("{a:?}"),
        };
        format!("{}\u{0}{input}", t.tool_name.as_deref().unwrap_or(""))
    }

    /// A successful file change strictly between two turns.
    fn changed_between(&self, a: usize, b: usize) -> bool {
        self.changes.iter().any(|c| c.ok && c.idx > a && c.idx < b)
    }

    /// Checks after the last code change, of the given kinds.
    fn checks_after_last_change(&self, kinds: &[CheckKind]) -> Vec<&Check> {
        let Some(last) = self.last_code_change else {
            return Vec::new();
        };
        self.checks
            .iter()
            .filter(|c| c.idx > last && kinds.contains(&c.kind))
            .collect()
    }

    fn read_keys(&self, idx: usize) -> &[String] {
        &self.reads[idx]
    }
}

/// Interrupt turns, leaving out Claude Code's "[Request interrupted by user
/// for tool use]" echo of a rejection that is already counted as one.
fn interrupts(turns: &[Turn]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut since_request_rejected = false;
    for (i, t) in turns.iter().enumerate() {
        if signals::is_user_request(t) {
            since_request_rejected = false;
        }
        if t.rejected {
            since_request_rejected = true;
        }
        if signals::is_interrupt_turn(t) {
            let echo = t.text.as_deref().is_some_and(|x| {
                x.trim_start()
                    .starts_with("[Request interrupted by user for tool use]")
            });
            if !(echo && since_request_rejected) {
                out.push(i);
            }
        }
    }
    out
}

fn list(nums: &[usize]) -> String {
    let shown: Vec<String> = nums.iter().take(12).map(|n| n.to_string()).collect();
    let more = nums.len().saturating_sub(12);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

fn turns_phrase(nums: &[usize]) -> String {
    match nums.len() {
        0 => "no turn".to_string(),
        1 => format!("turn {}", nums[0]),
        _ => format!("turns {}", list(nums)),
    }
}

/// Keep excerpts on the first few items only.
fn cap_excerpts(mut ev: Vec<Evidence>) -> Vec<Evidence> {
    for e in ev.iter_mut().skip(EXCERPTS_PER_SCORE) {
        e.excerpt = None;
    }
    ev
}

/// The ecosystem's usual commands, from the changed code files.
fn ecosystem(code: &[String]) -> (&'static str, &'static str) {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for k in code {
        let ext = signals::file_name(k)
            .rsplit_once('.')
            .map(|(_, e)| e)
            .unwrap_or("");
        let eco = match ext {
            "rs" => "rust",
            "py" => "python",
            "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" | "vue" | "svelte" => "js",
            "go" => "go",
            "rb" => "ruby",
            _ => "",
        };
        if !eco.is_empty() {
            *counts.entry(eco).or_default() += 1;
        }
    }
    let best = counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map(|(e, _)| e);
    match best {
        Some("rust") => ("`cargo fmt --check` and `cargo clippy`", "`cargo test`"),
        Some("python") => (
            "`ruff check` (or black/flake8 as the project uses)",
            "`pytest`",
        ),
        Some("js") => ("`npx eslint` and `npx prettier --check`", "`npm test`"),
        Some("go") => ("`gofmt -l` and `go vet`", "`go test ./...`"),
        Some("ruby") => ("`rubocop`", "`bundle exec rspec`"),
        _ => (
            "the project's formatter and linter",
            "the project's tests or build",
        ),
    }
}

// ------------------------------------------------------------------ efficiency

fn task_completion(c: &Ctx) -> SubScore {
    let (code, category, max) = ("task-completion", "Task completion", 3);
    let first_req = c.requests.first().copied().unwrap_or(0);
    let progress = (first_req..c.turns.len()).any(|i| {
        let t = &c.turns[i];
        (t.is_assistant_message() && t.text.as_deref().is_some_and(|x| !x.trim().is_empty()))
            || (t.is_tool() && !t.failed)
    });
    let mut evidence = Vec::new();
    if !progress {
        if let Some(&r) = c.requests.first() {
            evidence.push(c.ev(r, "the first request", Focus::Auto));
        }
        return SubScore {
            code,
            category,
            score: 0,
            max,
            basis: format!(
                "No assistant answer and no successful tool call after the first request (turn {}): no progress → 0/3.",
                c.num(first_req)
            ),
            evidence,
            suggestion: Some(
                "Start with one small, verifiable step toward the request and report its result; \
                 the session produced no answer and no successful action."
                    .into(),
            ),
        };
    }
    let last = c.main_turns().last().unwrap_or(c.turns.len() - 1);
    let lt = &c.turns[last];
    let finished_by_tool = lt.is_tool()
        && !lt.failed
        && lt
            .tool_name
            .as_deref()
            .is_some_and(|n| COMPLETION_TOOLS.contains(&n));
    let ended_on_answer = (lt.is_assistant_message() || finished_by_tool) && !c.truncated;
    let mut parts = Vec::new();
    let mut gaps = 0u8;
    let mut suggestion = None;
    if ended_on_answer && finished_by_tool {
        parts.push(format!(
            "the session ends with a successful completion call (turn {})",
            c.num(last)
        ));
        evidence.push(c.ev(last, "completion call", Focus::Call));
    } else if ended_on_answer {
        parts.push(format!(
            "the session ends with an assistant answer (turn {})",
            c.num(last)
        ));
        evidence.push(c.ev(last, "final answer", Focus::Auto));
    } else {
        let why = if c.truncated {
            "the transcript is truncated".to_string()
        } else {
            format!(
                "the last turn (turn {}) is a {} turn, not an assistant answer",
                c.num(last),
                c.turns[last].role.as_str()
            )
        };
        parts.push(format!("the session ends without a final answer: {why}"));
        evidence.push(c.ev(last, "last turn: no final answer after it", Focus::Auto));
        suggestion = Some(
            "Finish every request with a short answer that says what was done, what was verified \
             and what is left; this session stopped without one."
                .to_string(),
        );
    }
    if let Some(lt) = c.tool_turns().last() {
        if c.turns[lt].failed {
            gaps += 1;
            let what = if c.turns[lt].rejected {
                "was rejected by the user"
            } else {
                "failed"
            };
            parts.push(format!(
                "gap: the last tool call (turn {}) {what}",
                c.num(lt)
            ));
            evidence.push(c.ev(lt, format!("last tool call {what}"), Focus::CallAndOutput));
            suggestion.get_or_insert_with(|| {
                "Do not stop on a failed action: fix the cause or say plainly that the step is \
                 unresolved and what the user should do."
                    .to_string()
            });
        } else {
            parts.push(format!("the last tool call (turn {}) succeeded", c.num(lt)));
        }
    }
    let after = c.checks_after_last_change(&[CheckKind::Test, CheckKind::Build, CheckKind::Lint]);
    if let Some(chk) = after.last() {
        if !chk.passed {
            gaps += 1;
            parts.push(format!(
                "gap: the last check after the last code change ({} run, turn {}) failed",
                chk.kind.as_str(),
                c.num(chk.idx)
            ));
            evidence.push(c.ev(
                chk.idx,
                format!("last {} run failed", chk.kind.as_str()),
                Focus::CallAndOutput,
            ));
            suggestion.get_or_insert_with(|| {
                "Fix the failing check and run it again until it passes before calling the task done.".to_string()
            });
        } else {
            parts.push(format!(
                "the last check after the last code change (turn {}) passed",
                c.num(chk.idx)
            ));
        }
    }
    if let Some(&lr) = c.requests.last() {
        let late: Vec<usize> = c.interrupts.iter().copied().filter(|&i| i > lr).collect();
        if let Some(&i) = late.first() {
            gaps += 1;
            parts.push(format!(
                "gap: the user interrupted the last request (turn {})",
                c.num(i)
            ));
            evidence.push(c.ev(i, "interrupt during the last request", Focus::Auto));
            suggestion.get_or_insert_with(|| {
                "Confirm the plan for the request before long runs so the user does not have to \
                 interrupt; after an interrupt, ask what to change."
                    .to_string()
            });
        } else {
            parts.push(format!(
                "no interrupt after the last request (turn {})",
                c.num(lr)
            ));
        }
    }
    // What the session says about the outcome: the agent's last answer
    // admitting it could not reach the goal, the user's last message
    // complaining or correcting.
    let mut cap: Option<(u8, String)> = None;
    let last_answer = (first_req..c.turns.len()).rev().find(|&i| {
        let t = &c.turns[i];
        t.is_assistant_message()
            && !t.subagent
            && t.text.as_deref().is_some_and(|x| !x.trim().is_empty())
    });
    if let Some(a) = last_answer {
        if let Some(phrase) = c.turns[a].text.as_deref().and_then(signals::admits_failure) {
            let limit = if c.changed.is_empty() { 0 } else { 1 };
            parts.push(format!(
                "gap: the agent's last answer (turn {}) says it did not reach the goal (\"{phrase}\")",
                c.num(a)
            ));
            evidence.retain(|e| e.turn != c.num(a));
            evidence.push(c.ev(
                a,
                format!("the agent says it did not reach the goal (\"{phrase}\")"),
                Focus::Auto,
            ));
            cap = Some((
                limit,
                if limit == 0 {
                    "capped at 0: the agent gave up and changed nothing".to_string()
                } else {
                    "capped at 1: the agent gave up after partial changes".to_string()
                },
            ));
            suggestion = Some(
                "The agent stopped short of the goal: break the task into a step it can verify, \
                 read the error it stopped on, and ask the user for what is missing instead of giving up."
                    .to_string(),
            );
        }
    }
    let last_user = (0..c.turns.len())
        .rev()
        .find(|&i| signals::is_user_request(&c.turns[i]) && !c.turns[i].subagent);
    if let Some(u) = last_user.filter(|&u| u > first_req) {
        if c.turns[u]
            .text
            .as_deref()
            .is_some_and(signals::is_complaint)
        {
            let acted_after =
                (u + 1..c.turns.len()).any(|i| c.turns[i].is_tool() && !c.turns[i].failed);
            evidence.retain(|e| e.turn != c.num(u));
            evidence.push(c.ev(
                u,
                "the user's last message is a complaint or correction",
                Focus::Auto,
            ));
            if acted_after {
                gaps += 1;
                parts.push(format!(
                    "gap: the user's last message (turn {}) is a complaint or correction",
                    c.num(u)
                ));
            } else {
                parts.push(format!(
                    "gap: the user's last message (turn {}) is a complaint or correction, and nothing was done after it",
                    c.num(u)
                ));
                if cap.as_ref().is_none_or(|(l, _)| *l > 1) {
                    cap = Some((
                        1,
                        "capped at 1: the session ends on the user's complaint".to_string(),
                    ));
                }
            }
            suggestion.get_or_insert_with(|| {
                "The user had to correct the result: restate the goal and check the result against it \
                 before calling the task done."
                    .to_string()
            });
        }
    }
    let mut score = 3u8.saturating_sub(gaps).max(1);
    let mut tail = format!("3 − {gaps} gap(s) = {}", 3u8.saturating_sub(gaps));
    if !ended_on_answer && score > 1 {
        score = 1;
        tail.push_str(", capped at 1 without a final answer");
    }
    if 3u8.saturating_sub(gaps) == 0 {
        tail.push_str(", at least 1 since there was progress");
    }
    if let Some((limit, why)) = cap {
        if score > limit {
            score = limit;
            tail.push_str(&format!(", {why}"));
        }
    }
    // The goal the outcome is judged against.
    if let Some(&r) = c.requests.first() {
        parts.insert(
            0,
            format!("the stated goal is the first request (turn {})", c.num(r)),
        );
        if score < max && !evidence.iter().any(|e| e.turn == c.num(r)) {
            evidence.insert(0, c.ev(r, "the stated goal", Focus::Auto));
        }
    }
    SubScore {
        code,
        category,
        score,
        max,
        basis: format!("{}; {tail} → {score}/3.", capitalize(&parts.join("; "))),
        evidence: cap_excerpts(evidence),
        suggestion: (score < max).then(|| suggestion.unwrap_or_default()),
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waste {
    Empty,
    Repeat(usize),
    Unused,
}

fn exploration_waste(c: &Ctx) -> (Vec<usize>, Vec<(usize, Waste)>, BTreeSet<String>) {
    let explore: Vec<usize> = (0..c.turns.len())
        .filter(|&i| signals::is_exploration(&c.turns[i]))
        .collect();
    let mut wasted = Vec::new();
    let mut files_read = BTreeSet::new();
    for (n, &i) in explore.iter().enumerate() {
        let reads = c.read_keys(i);
        files_read.extend(reads.iter().cloned());
        if signals::is_empty_result(&c.turns[i]) {
            wasted.push((i, Waste::Empty));
            continue;
        }
        let key = c.call_key(i);
        if let Some(&prev) = explore[..n].iter().rev().find(|&&p| c.call_key(p) == key) {
            if !c.changed_between(prev, i) {
                wasted.push((i, Waste::Repeat(prev)));
                continue;
            }
        }
        if !reads.is_empty() && reads.iter().all(|k| !read_used(c, i, k)) {
            wasted.push((i, Waste::Unused));
        }
    }
    (explore, wasted, files_read)
}

/// A read is used when the file is changed later, or its file name appears
/// in a later turn's message text or tool input (other than a re-read of it).
fn read_used(c: &Ctx, idx: usize, key: &str) -> bool {
    if c.changes
        .iter()
        .any(|ch| ch.ok && ch.idx > idx && ch.key == key)
    {
        return true;
    }
    let name = signals::file_name(key).to_lowercase();
    if name.is_empty() {
        return true;
    }
    (idx + 1..c.turns.len())
        .any(|j| c.haystacks[j].contains(&name) && !c.read_keys(j).iter().any(|k| k == key))
}

fn unnecessary_exploration(c: &Ctx) -> (SubScore, usize, usize, usize) {
    let (code, category, max) = ("unnecessary-exploration", "Unnecessary exploration", 3);
    let (explore, wasted, files_read) = exploration_waste(c);
    let (e, w) = (explore.len(), wasted.len());
    let score = if w == 0 {
        3
    } else if w <= 2 || w * 5 <= e {
        2
    } else if w * 2 <= e {
        1
    } else {
        0
    };
    let count = |k: fn(&Waste) -> bool| wasted.iter().filter(|(_, x)| k(x)).count();
    let (empty, repeat, unused) = (
        count(|x| *x == Waste::Empty),
        count(|x| matches!(x, Waste::Repeat(_))),
        count(|x| *x == Waste::Unused),
    );
    let rule = match score {
        3 => "none wasted → 3/3".to_string(),
        2 => "at most 2 wasted or at most 20% → 2/3".to_string(),
        1 => "at most 50% wasted → 1/3".to_string(),
        _ => "more than 50% (and more than 2) wasted → 0/3".to_string(),
    };
    let basis = format!(
        "{e} exploration turn(s) (reads, searches, listings); {w} wasted: {empty} found nothing or failed, \
         {repeat} repeated an identical earlier call with no file change in between, {unused} read only files \
         never used later; {rule}."
    );
    let evidence: Vec<Evidence> = wasted
        .iter()
        .map(|&(i, k)| match k {
            Waste::Empty => c.ev(i, "found nothing or failed", Focus::CallAndOutput),
            Waste::Repeat(p) => c.ev(i, format!("repeats turn {}", c.num(p)), Focus::Call),
            Waste::Unused => c.ev(i, "file read but never used later", Focus::Call),
        })
        .collect();
    let suggestion = (score < max).then(|| {
        let mut s = Vec::new();
        if empty >= repeat && empty >= unused {
            s.push(format!(
                "Search once with a combined pattern (one glob with alternatives, one `rg` over the tree) \
                 and read only what it names: {empty} exploration call(s) found nothing."
            ));
        } else if unused >= repeat {
            s.push(format!(
                "Read a file only when the task needs it, guided by a search: {unused} read(s) were never \
                 used (the file was not changed or mentioned again)."
            ));
        } else {
            s.push(format!(
                "Keep what a read or search returned instead of running it again: {repeat} call(s) repeated \
                 an identical earlier one with nothing changed in between."
            ));
        }
        s.join(" ")
    });
    (
        SubScore {
            code,
            category,
            score,
            max,
            basis,
            evidence: cap_excerpts(evidence),
            suggestion,
        },
        e,
        w,
        files_read.len(),
    )
}

fn retry_waste(c: &Ctx) -> (SubScore, usize, usize) {
    let (code, category, max) = ("retry-waste", "Retry waste", 2);
    let tools: Vec<usize> = c.tool_turns().collect();
    let mut retries: Vec<(usize, usize)> = Vec::new();
    for (n, &f) in tools.iter().enumerate() {
        if !c.turns[f].failed {
            continue;
        }
        let key = c.call_key(f);
        if let Some(&g) = tools[n + 1..].iter().find(|&&g| c.call_key(g) == key) {
            // Blind: nothing in between succeeded (no read of the error's
            // cause, no fix) — only failed calls, if any.
            let acted = tools.iter().any(|&k| k > f && k < g && !c.turns[k].failed);
            if !acted && !retries.iter().any(|&(_, x)| x == g) {
                retries.push((f, g));
            }
        }
    }
    let rejected: Vec<usize> = tools
        .iter()
        .copied()
        .filter(|&i| c.turns[i].rejected)
        .collect();
    let w = retries.len() + rejected.len();
    let score = match w {
        0 => 2,
        1 => 1,
        _ => 0,
    };
    let mut evidence = Vec::new();
    for &(f, g) in &retries {
        evidence.push(c.ev(
            g,
            format!("repeats failed turn {} unchanged", c.num(f)),
            Focus::CallAndOutput,
        ));
    }
    for &r in &rejected {
        evidence.push(c.ev(r, "rejected by the user", Focus::Call));
    }
    evidence.sort_by_key(|e| e.turn);
    let basis = format!(
        "{} blind retr{} (a failed call repeated with identical input and no successful call in between) + {} call(s) \
         rejected by the user = {w}; {} → {score}/2.",
        retries.len(),
        if retries.len() == 1 { "y" } else { "ies" },
        rejected.len(),
        match w {
            0 => "none",
            1 => "one",
            _ => "two or more",
        }
    );
    let suggestion = (score < max).then(|| {
        if retries.len() >= rejected.len() {
            format!(
                "After a failure, read the error and change the command or the code before trying again: \
                 {} call(s) were repeated unchanged ({}).",
                retries.len(),
                turns_phrase(&retries.iter().map(|&(_, g)| c.num(g)).collect::<Vec<_>>())
            )
        } else {
            format!(
                "Ask before actions the user may refuse (writes outside the task, commits, installs) and \
                 explain why they are needed: {} call(s) were rejected ({}).",
                rejected.len(),
                turns_phrase(&rejected.iter().map(|&i| c.num(i)).collect::<Vec<_>>())
            )
        }
    });
    (
        SubScore {
            code,
            category,
            score,
            max,
            basis,
            evidence: cap_excerpts(evidence),
            suggestion,
        },
        retries.len(),
        rejected.len(),
    )
}

fn turn_economy(c: &Ctx) -> (SubScore, usize) {
    let (code, category, max) = ("turn-economy", "Turn economy", 2);
    // Main agent and subagents alike: delegated turns are turns spent on the task.
    let agent: Vec<usize> = (0..c.turns.len())
        .filter(|&i| c.turns[i].is_tool() || c.turns[i].is_assistant_message())
        .collect();
    let a = agent.len();
    let r = c.requests.len().max(1);
    let f = c.changed.len();
    let budget = TURNS_PER_REQUEST * r + TURNS_PER_CHANGED_FILE * f;
    let base: u8 = if a <= budget {
        2
    } else if a <= 2 * budget {
        1
    } else {
        0
    };
    let i = c.interrupts.len();
    let score = base.saturating_sub(i.min(2) as u8);
    let basis = format!(
        "{a} agent turn(s) (assistant messages and tool calls, subagents included) against a budget of \
         {TURNS_PER_REQUEST} × {r} request(s) + {TURNS_PER_CHANGED_FILE} × {f} changed file(s) = {budget}: {} → {base}; \
         − {} for {i} user interrupt(s) → {score}/2.",
        if base == 2 {
            "within budget"
        } else if base == 1 {
            "up to twice the budget"
        } else {
            "more than twice the budget"
        },
        i.min(2)
    );
    let mut evidence: Vec<Evidence> = c
        .interrupts
        .iter()
        .map(|&k| c.ev(k, "user interrupt", Focus::Auto))
        .collect();
    if base < 2 {
        if let Some(&last) = agent.last() {
            evidence.push(c.ev(
                last,
                format!("agent turn {a} of a budget of {budget}"),
                Focus::Call,
            ));
        }
    }
    let suggestion = (score < max).then(|| {
        if base < 2 {
            format!(
                "Plan the steps before acting and batch independent reads and searches into one turn: \
                 {a} agent turns for {r} request(s) exceeded the budget of {budget}."
            )
        } else {
            format!(
                "Check in with the user before long or risky runs: the user interrupted {i} time(s) ({}).",
                turns_phrase(&c.interrupts.iter().map(|&k| c.num(k)).collect::<Vec<_>>())
            )
        }
    });
    (
        SubScore {
            code,
            category,
            score,
            max,
            basis,
            evidence: cap_excerpts(evidence),
            suggestion,
        },
        a,
    )
}

// ------------------------------------------------------------------ code quality

/// Which change texts apply to which file key.
fn keyed_text_changes(c: &Ctx) -> Vec<(usize, String, TextChange)> {
    let mut out = Vec::new();
    for (i, t) in c.turns.iter().enumerate() {
        if t.failed {
            continue;
        }
        let own: Vec<&Change> = c.changes.iter().filter(|ch| ch.idx == i).collect();
        if own.is_empty() {
            continue;
        }
        let wd = signals::turn_workdir(t, c.cwd);
        for tc in signals::text_changes(t) {
            let path = match &tc {
                TextChange::Replace { path, .. } | TextChange::Full { path, .. } => path.clone(),
            };
            let key = match path {
                Some(p) => {
                    let k = signals::normalize_path(&p, wd);
                    // Prefer the decoder's key when it names the same file.
                    own.iter()
                        .find(|ch| {
                            ch.key == k
                                || ch
                                    .key
                                    .ends_with(&format!("/{}", p.trim_start_matches("./")))
                        })
                        .map(|ch| ch.key.clone())
                        .unwrap_or(k)
                }
                None if own.len() == 1 => own[0].key.clone(),
                None => continue,
            };
            out.push((i, key, tc));
        }
    }
    out
}

/// Did the file exist before turn `idx`: read or changed earlier, or the
/// write's output says it updated / overwrote a file.
fn existed_before(c: &Ctx, idx: usize, key: &str) -> bool {
    existed(c.turns, &c.reads, &c.changes, idx, key)
}

fn existed(
    turns: &[Turn],
    reads: &[Vec<String>],
    changes: &[Change],
    idx: usize,
    key: &str,
) -> bool {
    let earlier_read = (0..idx).any(|j| reads[j].iter().any(|k| k == key));
    let earlier_change = changes.iter().any(|ch| ch.idx < idx && ch.key == key);
    let says_updated = turns[idx].tool_output.as_deref().is_some_and(|o| {
        let o = o.to_ascii_lowercase();
        o.contains("has been updated") || o.contains("overwrote") || o.contains("overwritten")
    });
    earlier_read || earlier_change || says_updated
}

fn multiset(lines: Vec<String>) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for l in lines {
        *m.entry(l).or_insert(0) += 1;
    }
    m
}

/// Lines in `a` not in `b`, as a multiset difference.
fn minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut bm = multiset(b.to_vec());
    let mut out = Vec::new();
    for l in a {
        match bm.get_mut(l) {
            Some(n) if *n > 0 => *n -= 1,
            _ => out.push(l.clone()),
        }
    }
    out
}

fn correct_files(c: &Ctx) -> SubScore {
    let (code, category, max) = ("file-identification", "Correct file identification", 3);
    let mut attempted: Vec<String> = Vec::new();
    for ch in &c.changes {
        if !attempted.contains(&ch.key) {
            attempted.push(ch.key.clone());
        }
    }
    // Edits that exactly reverse an earlier edit of the same file: (earlier, reverting).
    let texts = keyed_text_changes(c);
    let mut reverts: Vec<(String, usize, usize)> = Vec::new();
    for (n, (i, key, tc)) in texts.iter().enumerate() {
        if let TextChange::Replace { old, new, .. } = tc {
            let undone = texts[..n].iter().find(|(j, k, prev)| {
                k == key
                    && !reverts.iter().any(|(_, a, _)| a == j)
                    && matches!(prev, TextChange::Replace { old: po, new: pn, .. }
                        if po.trim() == new.trim() && pn.trim() == old.trim() && po.trim() != pn.trim())
            });
            if let Some((j, _, _)) = undone {
                reverts.push((key.clone(), *j, *i));
            }
        }
    }
    // `git checkout -- FILE` / `git restore FILE` after changing it.
    let mut discarded: Vec<(String, usize)> = Vec::new();
    for (i, t) in c.turns.iter().enumerate() {
        let wd = signals::turn_workdir(t, c.cwd);
        for argv in signals::shell_commands(t) {
            let git = argv.first().map(|p| signals::file_name(p)) == Some("git");
            if !git
                || !matches!(
                    argv.get(1).map(String::as_str),
                    Some("checkout" | "restore")
                )
            {
                continue;
            }
            for w in argv
                .iter()
                .skip(2)
                .filter(|w| !w.starts_with('-') && *w != ".")
            {
                let k = signals::normalize_path(w, wd);
                if c.changes
                    .iter()
                    .any(|ch| ch.ok && ch.idx < i && ch.key == k)
                {
                    discarded.push((k, i));
                }
            }
        }
    }
    // Wrong files: nothing of the agent's changes to them stands.
    let mut wrong: Vec<(usize, String)> = Vec::new();
    // Missed targets on files that were changed: a failed or rejected change,
    // an edit reverted later.
    let mut misses: Vec<(usize, String)> = Vec::new();
    for key in &attempted {
        let all: Vec<&Change> = c.changes.iter().filter(|ch| &ch.key == key).collect();
        let ok: Vec<&Change> = all.iter().copied().filter(|ch| ch.ok).collect();
        let failed: Vec<&Change> = all.iter().copied().filter(|ch| !ch.ok).collect();
        let last_ok = ok.iter().map(|ch| ch.idx).max();
        let file_reverts: Vec<&(String, usize, usize)> =
            reverts.iter().filter(|(k, _, _)| k == key).collect();
        let all_reverted = !ok.is_empty()
            && ok.iter().all(|ch| {
                file_reverts
                    .iter()
                    .any(|(_, a, b)| *a == ch.idx || *b == ch.idx)
            });
        let restored = discarded
            .iter()
            .find(|(k, i)| k == key && last_ok.is_some_and(|l| *i > l));
        let why_failed = |ch: &Change| {
            if ch.rejected {
                "a change to this file was rejected by the user".to_string()
            } else {
                "a change to this file failed (target text or file not as expected)".to_string()
            }
        };
        if ok.is_empty() {
            let first = failed[0];
            wrong.push((
                first.idx,
                format!(
                    "wrong file: every change attempt failed; {}",
                    why_failed(first)
                ),
            ));
        } else if let Some((_, i)) = restored {
            wrong.push((
                *i,
                "wrong file: its changes were discarded with git checkout/restore".into(),
            ));
        } else if all_reverted {
            let (_, _, b) = file_reverts.last().unwrap();
            wrong.push((*b, "wrong file: every edit to it was reverted".into()));
        } else {
            for ch in &failed {
                misses.push((ch.idx, format!("missed target: {}", why_failed(ch))));
            }
            for (_, a, b) in &file_reverts {
                misses.push((
                    *b,
                    format!("missed target: this edit reverts turn {}", c.num(*a)),
                ));
            }
        }
    }
    wrong.sort_by_key(|(i, _)| *i);
    misses.sort_by_key(|(i, _)| *i);
    let (w, m, total) = (wrong.len(), misses.len(), attempted.len());
    let base: u8 = if w == 0 {
        3
    } else if w >= total {
        0
    } else if w == 1 {
        2
    } else {
        1
    };
    let miss_loss = u8::from(m > 0 && base > 0);
    let score = base - miss_loss;
    let basis = format!(
        "{total} file(s) with change attempts ({} scratch file(s) created and deleted in the session not \
         counted); {w} wrong file(s) (no change to it stands: every attempt failed or was rejected, its edits were \
         reverted, or git discarded them) → {} = {base}; {m} missed target(s) on files that were changed (a failed \
         or rejected change, an edit reverted later) (−{miss_loss}) → {score}/3.",
        c.scratch.len(),
        match base {
            3 => "all correct",
            2 => "one wrong file",
            1 => "several wrong files",
            _ => "every target wrong",
        }
    );
    let mut evidence: Vec<Evidence> = wrong
        .iter()
        .chain(misses.iter())
        .map(|(i, why)| c.ev(*i, why.clone(), Focus::CallAndOutput))
        .collect();
    evidence.sort_by_key(|e| e.turn);
    let suggestion = (score < max).then(|| {
        if w > 0 {
            format!(
                "Find the right file before changing it: search for the symbol and read the file first; \
                 {w} file(s) were changed to no effect ({}).",
                turns_phrase(&wrong.iter().map(|(i, _)| c.num(*i)).collect::<Vec<_>>())
            )
        } else {
            format!(
                "Read the exact text you are about to replace (fresh, after earlier edits) so each edit lands \
                 the first time; {m} change(s) missed ({}).",
                turns_phrase(&misses.iter().map(|(i, _)| c.num(*i)).collect::<Vec<_>>())
            )
        }
    });
    SubScore {
        code,
        category,
        score,
        max,
        basis,
        evidence: cap_excerpts(evidence),
        suggestion,
    }
}

fn minimal_diff(c: &Ctx) -> SubScore {
    let (code, category, max) = ("minimal-diff", "Minimal diff", 3);
    // Whole-file rewrites of files that already existed.
    let mut rewrites: Vec<usize> = Vec::new();
    for ch in c
        .changes
        .iter()
        .filter(|ch| ch.ok && ch.op == ChangeOp::Write)
    {
        if existed_before(c, ch.idx, &ch.key) && !rewrites.contains(&ch.idx) {
            rewrites.push(ch.idx);
        }
    }
    // Churn: session-added lines later removed.
    let mut added: HashMap<String, HashMap<String, usize>> = HashMap::new();
    let mut total_added = 0usize;
    let mut churn = 0usize;
    let mut churn_turns: Vec<usize> = Vec::new();
    let take = |file: &mut HashMap<String, usize>, lines: &[String]| -> usize {
        let mut n = 0;
        for l in lines {
            if let Some(k) = file.get_mut(l) {
                if *k > 0 {
                    *k -= 1;
                    n += 1;
                }
            }
        }
        n
    };
    let mut events: Vec<(usize, String, Option<TextChange>)> = keyed_text_changes(c)
        .into_iter()
        .map(|(i, k, t)| (i, k, Some(t)))
        .collect();
    for ch in c
        .changes
        .iter()
        .filter(|ch| ch.ok && ch.op == ChangeOp::Delete)
    {
        events.push((ch.idx, ch.key.clone(), None));
    }
    events.sort_by_key(|(i, _, _)| *i);
    for (i, key, tc) in events {
        let file = added.entry(key).or_default();
        let (removed, new_lines, reset) = match tc {
            Some(TextChange::Replace { old, new, .. }) => {
                let o = signals::significant_lines(&old);
                let n = signals::significant_lines(&new);
                (minus(&o, &n), minus(&n, &o), false)
            }
            Some(TextChange::Full { content, .. }) => {
                let n = signals::significant_lines(&content);
                let mut prev: Vec<String> = Vec::new();
                for (l, k) in file.iter() {
                    prev.extend(std::iter::repeat_n(l.clone(), *k));
                }
                (minus(&prev, &n), n, true)
            }
            None => {
                let mut prev: Vec<String> = Vec::new();
                for (l, k) in file.iter() {
                    prev.extend(std::iter::repeat_n(l.clone(), *k));
                }
                (prev, Vec::new(), true)
            }
        };
        let n = take(file, &removed);
        if n > 0 {
            churn += n;
            if !churn_turns.contains(&i) {
                churn_turns.push(i);
            }
        }
        if reset {
            file.clear();
        }
        total_added += new_lines.len();
        for l in new_lines {
            *file.entry(l).or_insert(0) += 1;
        }
    }
    let rewrite_loss: u8 = match rewrites.len() {
        0 => 0,
        1 => 1,
        _ => 2,
    };
    let pct = (churn * 100).checked_div(total_added).unwrap_or(0);
    let churn_loss: u8 = if churn >= 3 && pct >= 30 {
        2
    } else if churn >= 3 && pct >= 10 {
        1
    } else {
        0
    };
    let score = 3u8.saturating_sub(rewrite_loss + churn_loss);
    let basis = format!(
        "{} whole-file rewrite(s) of an existing file (−{rewrite_loss}); churn: {churn} of {total_added} added line(s) \
         ({pct}%) were removed or rewritten later in the session (−{churn_loss}; −1 from 10%, −2 from 30%, \
         needing at least 3 lines) → 3 − {} = {score}/3.",
        rewrites.len(),
        rewrite_loss + churn_loss
    );
    let mut evidence: Vec<Evidence> = rewrites
        .iter()
        .map(|&i| c.ev(i, "whole-file rewrite of an existing file", Focus::Call))
        .collect();
    if churn_loss > 0 {
        evidence.extend(churn_turns.iter().map(|&i| {
            c.ev(
                i,
                "removes or rewrites lines added earlier in the session",
                Focus::Call,
            )
        }));
    }
    evidence.sort_by_key(|e| e.turn);
    let suggestion = (score < max).then(|| {
        if rewrite_loss >= churn_loss {
            format!(
                "Change existing files with targeted edits (Edit / replace / a patch hunk) instead of rewriting \
                 them whole: {} rewrite(s) ({}).",
                rewrites.len(),
                turns_phrase(&rewrites.iter().map(|&i| c.num(i)).collect::<Vec<_>>())
            )
        } else {
            format!(
                "Settle the design before writing code, then write it once: {churn} of {total_added} added lines \
                 ({pct}%) were rewritten or removed later ({}).",
                turns_phrase(&churn_turns.iter().map(|&i| c.num(i)).collect::<Vec<_>>())
            )
        }
    });
    SubScore {
        code,
        category,
        score,
        max,
        basis,
        evidence: cap_excerpts(evidence),
        suggestion,
    }
}

fn pattern_adherence(c: &Ctx) -> SubScore {
    let (code, category, max) = ("pattern-adherence", "Pattern adherence", 2);
    let lints = c.checks_after_last_change(&[CheckKind::Lint]);
    let last = c.last_code_change.map(|i| c.num(i)).unwrap_or(0);
    let mut evidence = Vec::new();
    if let Some(i) = c.last_code_change {
        evidence.push(c.ev(i, "last code change", Focus::Call));
    }
    let (base, why) = match lints.last() {
        Some(l) if l.passed => {
            evidence.push(c.ev(l.idx, "lint/format run after the last code change passed", Focus::Call));
            (2u8, format!("the last lint/format run after the last code change (turn {last}) passed (turn {})", c.num(l.idx)))
        }
        Some(l) => {
            evidence.push(c.ev(l.idx, "lint/format run after the last code change failed", Focus::CallAndOutput));
            (0u8, format!("the last lint/format run after the last code change (turn {last}) failed (turn {})", c.num(l.idx)))
        }
        None => (1u8, format!("no lint/format run after the last code change (turn {last}): conventions unverified")),
    };
    // Indentation that does not match the text it replaces.
    let mut mismatches = Vec::new();
    for (i, key, tc) in keyed_text_changes(c) {
        if signals::is_documentation(&key) {
            continue;
        }
        if let TextChange::Replace { old, new, .. } = tc {
            let added: String = minus(
                &new.lines().map(str::to_string).collect::<Vec<_>>(),
                &old.lines().map(str::to_string).collect::<Vec<_>>(),
            )
            .join("\n");
            let (o, n) = (signals::indent_style(&old), signals::indent_style(&added));
            let clash = matches!(
                (o, n),
                (Indent::Spaces, Indent::Tabs | Indent::Mixed)
                    | (Indent::Tabs, Indent::Spaces | Indent::Mixed)
            );
            if clash && !mismatches.contains(&i) {
                mismatches.push(i);
            }
        }
    }
    let loss = u8::from(!mismatches.is_empty());
    let score = base.saturating_sub(loss);
    for &i in &mismatches {
        evidence.push(c.ev(
            i,
            "added lines indent differently from the text they replace",
            Focus::Call,
        ));
    }
    let basis = format!(
        "{} → {base}; {} edit(s) with indentation unlike the replaced text (−{loss}) → {score}/2.",
        capitalize(&why),
        mismatches.len()
    );
    let (lint_cmd, _) = ecosystem(&c.code_changed);
    let suggestion = (score < max).then(|| {
        if !mismatches.is_empty() && base == 2 {
            format!(
                "Match the file's indentation (tabs vs spaces) in every edit: {}.",
                turns_phrase(&mismatches.iter().map(|&i| c.num(i)).collect::<Vec<_>>())
            )
        } else if base == 0 {
            format!("Fix what {lint_cmd} reports and run it again until it is clean before finishing.")
        } else {
            format!("Run {lint_cmd} after the last edit and fix what it reports, so the change follows the project's conventions.")
        }
    });
    SubScore {
        code,
        category,
        score,
        max,
        basis,
        evidence: cap_excerpts(evidence),
        suggestion,
    }
}

fn regression_avoidance(c: &Ctx) -> SubScore {
    let (code, category, max) = ("regression-avoidance", "Regression avoidance", 2);
    let runs = c.checks_after_last_change(&[CheckKind::Test, CheckKind::Build]);
    let last = c.last_code_change.map(|i| c.num(i)).unwrap_or(0);
    let mut evidence = Vec::new();
    let (score, why) = match runs.last() {
        Some(r) if r.passed => {
            evidence.push(c.ev(r.idx, format!("{} run after the last code change passed", r.kind.as_str()), Focus::Call));
            (2u8, format!("the last test/build run after the last code change (turn {last}) passed (turn {})", c.num(r.idx)))
        }
        Some(r) => {
            evidence.push(c.ev(r.idx, format!("{} run after the last code change failed", r.kind.as_str()), Focus::CallAndOutput));
            (0u8, format!("the last test/build run after the last code change (turn {last}) failed (turn {})", c.num(r.idx)))
        }
        None => (1u8, format!("no test or build ran after the last code change (turn {last}): regressions unverified")),
    };
    if let Some(i) = c.last_code_change {
        evidence.insert(0, c.ev(i, "last code change", Focus::Call));
    }
    let (_, test_cmd) = ecosystem(&c.code_changed);
    let suggestion = (score < max).then(|| {
        if score == 0 {
            format!("Fix the failure {test_cmd} reported after the last change and re-run until it passes.")
        } else {
            format!("Run {test_cmd} after the last edit (turn {last}) and fix what fails before finishing.")
        }
    });
    SubScore {
        code,
        category,
        score,
        max,
        basis: format!("{} → {score}/2.", capitalize(&why)),
        evidence: cap_excerpts(evidence),
        suggestion,
    }
}

/// Scores and facts of a session.
pub struct Assessed {
    pub efficiency: Score,
    pub code_quality: Score,
    pub facts: Facts,
}

/// Score a session (at least two non-system turns).
pub fn assess(
    turns: &[Turn],
    cwd: Option<&str>,
    truncated: bool,
    opts: &DoctorOptions,
) -> Assessed {
    let c = Ctx::new(turns, cwd, truncated, opts.excerpts);
    let completion = task_completion(&c);
    let (exploration, explore_n, wasted_n, files_read) = unnecessary_exploration(&c);
    let (retry, retries, rejected) = retry_waste(&c);
    let (economy, agent_turns) = turn_economy(&c);
    let subs = vec![completion, exploration, retry, economy];
    let total = subs.iter().map(|s| s.score).sum();
    let efficiency = Score::Scored { total, subs };
    let code_quality = if c.code_changed.is_empty() {
        let reason = if c.changed.is_empty() {
            let attempts = c.changes.len();
            if attempts == 0 {
                "The session changed no code (no file was written, edited, deleted or renamed)."
                    .to_string()
            } else {
                format!(
                    "The session changed no code ({attempts} attempted change(s) did not succeed)."
                )
            }
        } else {
            format!(
                "The session changed no code; the {} file(s) it changed are documentation.",
                c.changed.len()
            )
        };
        Score::NotApplicable { reason }
    } else {
        let subs = vec![
            correct_files(&c),
            minimal_diff(&c),
            pattern_adherence(&c),
            regression_avoidance(&c),
        ];
        let total = subs.iter().map(|s| s.score).sum();
        Score::Scored { total, subs }
    };
    let tool_calls = c.tool_turns().count();
    let facts = Facts {
        turns: turns.len(),
        user_requests: c.requests.len(),
        interrupts: c.interrupts.len(),
        agent_turns,
        subagent_turns: turns.iter().filter(|t| t.subagent).count(),
        tool_calls,
        failed_calls: c.tool_turns().filter(|&i| turns[i].failed).count(),
        rejected_calls: rejected,
        exploration_turns: explore_n,
        wasted_exploration: wasted_n,
        blind_retries: retries,
        files_read,
        files_changed: c.changed.len(),
        scratch_files: c.scratch.len(),
        code_files_changed: c.code_changed.len(),
        last_code_change_turn: c.last_code_change.map(|i| c.num(i)),
        checks_after_last_change: c
            .checks_after_last_change(&[CheckKind::Test, CheckKind::Build, CheckKind::Lint])
            .iter()
            .map(|k| k.idx)
            .collect::<BTreeSet<_>>()
            .len(),
    };
    Assessed {
        efficiency,
        code_quality,
        facts,
    }
}

/// Findings for every sub-score below its maximum, and the suggestions
/// ranked by potential gain (ties keep rubric order).
pub fn findings(efficiency: &Score, code_quality: &Score) -> (Vec<Finding>, Vec<Suggestion>) {
    let mut findings = Vec::new();
    for (area, score) in [("Efficiency", efficiency), ("Code quality", code_quality)] {
        for s in score.subs() {
            if s.score < s.max {
                findings.push(Finding {
                    code: s.code,
                    area,
                    category: s.category,
                    score: s.score,
                    max: s.max,
                    basis: s.basis.clone(),
                    evidence: s.evidence.clone(),
                    suggestion: s.suggestion.clone().unwrap_or_default(),
                });
            }
        }
    }
    let mut ranked: Vec<&Finding> = findings.iter().collect();
    ranked.sort_by_key(|f| std::cmp::Reverse(f.max - f.score));
    let suggestions = ranked
        .iter()
        .enumerate()
        .map(|(i, f)| Suggestion {
            rank: i + 1,
            code: f.code,
            category: f.category,
            gain: f.max - f.score,
            text: f.suggestion.clone(),
        })
        .collect();
    (findings, suggestions)
}

/// Every sub-score code, in rubric order.
pub const CODES: &[&str] = &[
    "task-completion",
    "unnecessary-exploration",
    "retry-waste",
    "turn-economy",
    "file-identification",
    "minimal-diff",
    "pattern-adherence",
    "regression-avoidance",
];
