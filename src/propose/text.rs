//! Text edits behind the proposals: line splitting that keeps the exact line
//! endings, modal-word strengthening, predicate rendering, the `## Constraints`
//! section and lockfile key insertion.

use crate::extract::{Constraint, Modality, Order, Predicate};
use regex::Regex;
use std::sync::OnceLock;

/// The words that open a spelled-out precondition (so a second run adds nothing).
pub const PRE_MARK: &str = "(Precondition:";

/// Lines with their exact endings (`"\n"`, `"\r\n"` or `""` for a last line without one).
pub fn split_lines(s: &str) -> Vec<(&str, &str)> {
    s.split_inclusive('\n')
        .map(|l| {
            if let Some(t) = l.strip_suffix("\r\n") {
                (t, "\r\n")
            } else if let Some(t) = l.strip_suffix('\n') {
                (t, "\n")
            } else {
                (l, "")
            }
        })
        .collect()
}

pub fn join_lines(lines: &[(String, &str)]) -> String {
    let mut out = String::new();
    for (t, e) in lines {
        out.push_str(t);
        out.push_str(e);
    }
    out
}

fn modal_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(must not|mustn't|must|should not|shouldn't|should|shall not|shall|never|always|do not|don't|required|only)\b")
            .expect("static regex")
    })
}

/// The line states its rule with a modal word.
pub fn has_modal(line: &str) -> bool {
    modal_re().is_match(line)
}

/// The first modal word made MUST / MUST NOT / NEVER / ALWAYS.
pub fn strengthen(line: &str, modality: Modality) -> String {
    let Some(m) = modal_re().find(line) else {
        return line.to_string();
    };
    let word = m.as_str().to_ascii_lowercase();
    let negative = matches!(modality, Modality::MustNot | Modality::ShouldNot);
    let repl = match word.as_str() {
        "must not" | "mustn't" | "should not" | "shouldn't" | "shall not" | "do not" | "don't" => {
            "MUST NOT"
        }
        "must" | "should" | "shall" if negative => return line.to_string(),
        "must" | "should" | "shall" => "MUST",
        "never" => "NEVER",
        "always" => "ALWAYS",
        "required" => "REQUIRED",
        _ => return line.to_string(),
    };
    format!("{}{}{}", &line[..m.start()], repl, &line[m.end()..])
}

fn glob_text(g: &str) -> String {
    g.trim_end_matches('*').trim_end().to_string()
}

/// A predicate for people.
pub fn describe(p: &Predicate) -> String {
    match p {
        Predicate::Tool(t) => format!("a `{t}` tool call"),
        Predicate::Command(g) => format!("`{}`", glob_text(g)),
        Predicate::CommandRe(r) => format!("a command matching `{r}`"),
        Predicate::Git { subcommand, args } => {
            let mut s = format!("git {subcommand}");
            for a in args {
                s.push(' ');
                s.push_str(a);
            }
            format!("`{s}`")
        }
        Predicate::Read(g) => format!("a read of `{g}`"),
        Predicate::Write(g) => format!("a write to `{g}`"),
        Predicate::Edit(g) => format!("an edit of `{g}`"),
        Predicate::Delete(g) => format!("a deletion of `{g}`"),
        Predicate::Rename { from, to } => format!("a rename from `{from}` to `{to}`"),
        Predicate::Touch(g) => format!("a change to `{g}`"),
        Predicate::Fetch(g) => format!("a fetch of `{g}`"),
        Predicate::Skill(s) => format!("a load of skill `{s}`"),
        Predicate::Subagent(_) => "a subagent call".into(),
        Predicate::Failed(true) => "that fails".into(),
        Predicate::Failed(false) => "that succeeds".into(),
        Predicate::Branch(b) => format!("on branch `{b}`"),
        Predicate::UserTurn => "a user turn".into(),
        Predicate::Any(v) => v.iter().map(describe).collect::<Vec<_>>().join(" or "),
        Predicate::All(v) => v.iter().map(describe).collect::<Vec<_>>().join(" "),
        Predicate::Not(p) => format!("anything but {}", describe(p)),
    }
}

/// The precondition of a constraint, spelled out from its predicates.
pub fn precondition(c: &Constraint) -> Option<String> {
    let order = match c.order.unwrap_or_default() {
        Order::Before => "before it",
        Order::BeforeEach => "before each one (after the previous one)",
        Order::After => "after it",
        Order::Anywhere => "in the same session",
    };
    // Worded from the rule's own condition (its `when`), never from the load.
    let s = match (&c.when, &c.require, &c.forbid) {
        (Some(w), _, Some(f)) => format!(
            "{PRE_MARK} whenever there is {}, {} is not allowed.)",
            describe(w),
            describe(f)
        ),
        (None, _, Some(f)) => format!(
            "{PRE_MARK} this applies to every {}, with no exception.)",
            describe(f)
        ),
        (Some(w), Some(Predicate::UserTurn), None) => format!(
            "{PRE_MARK} before each {}, wait for the user's explicit go-ahead: a user turn since the previous one.)",
            describe(w)
        ),
        (Some(w), Some(r), None) => format!(
            "{PRE_MARK} whenever there is {}, {} MUST happen {order}.)",
            describe(w),
            describe(r)
        ),
        (Some(w), None, None) => format!(
            "{PRE_MARK} this applies whenever there is {}.)",
            describe(w)
        ),
        (None, _, None) => return None,
    };
    Some(s)
}

/// The bullet that states an implied rule in `## Constraints`.
pub fn constraint_bullet(c: &Constraint, pre: Option<&str>) -> String {
    let text = crate::extract::lockfile::normalize_text(&c.text);
    let mut s = format!(
        "- You {}: {}",
        super::modal_word(c.modality),
        text.trim_start_matches(['-', '*', ' '])
    );
    if let Some(p) = pre {
        s.push(' ');
        s.push_str(p);
    }
    s
}

fn is_constraints_heading(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("## ") && t[3..].trim().eq_ignore_ascii_case("constraints")
}

fn is_section_end(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("# ") || t.starts_with("## ")
}

/// Add `bullet` at the end of the `## Constraints` section (created at the end of the file if absent).
pub fn add_to_constraints_section(text: &str, bullet: &str) -> String {
    let lines = split_lines(text);
    let eol = lines
        .iter()
        .map(|(_, e)| *e)
        .find(|e| !e.is_empty())
        .unwrap_or("\n");
    let mut owned: Vec<(String, &str)> = lines.iter().map(|(t, e)| (t.to_string(), *e)).collect();
    if let Some(h) = lines.iter().position(|(t, _)| is_constraints_heading(t)) {
        let end = (h + 1..lines.len())
            .find(|&i| is_section_end(lines[i].0))
            .unwrap_or(lines.len());
        // After the section's last non-blank line.
        let mut at = end;
        while at > h + 1 && lines[at - 1].0.trim().is_empty() {
            at -= 1;
        }
        if at > 0 && owned[at - 1].1.is_empty() {
            owned[at - 1].1 = eol;
        }
        let mut ins = vec![(bullet.to_string(), eol)];
        if at == h + 1 {
            ins.insert(0, (String::new(), eol));
        }
        let tail_missing_newline = at == owned.len();
        for (k, l) in ins.into_iter().enumerate() {
            owned.insert(at + k, l);
        }
        if tail_missing_newline && !text.ends_with('\n') {
            // The old file had no final newline: keep the new last line the same way.
            if let Some(last) = owned.last_mut() {
                last.1 = "";
            }
        }
        return join_lines(&owned);
    }
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push_str(eol);
    }
    if !out.is_empty() && !out.ends_with(&format!("{eol}{eol}")) {
        out.push_str(eol);
    }
    out.push_str("## Constraints");
    out.push_str(eol);
    out.push_str(eol);
    out.push_str(bullet);
    out.push_str(eol);
    out
}

fn span_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"`([^`\n]+)`").expect("static regex"))
}

/// Command-line tools whose quoted invocations are taken as commands.
const TOOLS: &[&str] = &[
    "git",
    "gh",
    "cargo",
    "npm",
    "pnpm",
    "yarn",
    "npx",
    "bun",
    "deno",
    "node",
    "make",
    "just",
    "pytest",
    "python",
    "python3",
    "uv",
    "pip",
    "ruff",
    "tox",
    "go",
    "mvn",
    "gradle",
    "docker",
    "kubectl",
    "helm",
    "terraform",
    "rm",
    "curl",
    "wget",
    "bd",
    "skillgate",
    "bundle",
    "rake",
];

/// The commands a rule quotes in backticks.
pub fn quoted_commands(text: &str) -> Vec<String> {
    span_re()
        .captures_iter(text)
        .filter_map(|c| {
            let s = c[1].trim();
            let first = s.split_whitespace().next()?;
            TOOLS.contains(&first).then(|| s.to_string())
        })
        .collect()
}

fn when_command(c: &Constraint) -> Option<String> {
    match c.when.as_ref()? {
        Predicate::Command(g) => Some(glob_text(g)),
        Predicate::Git { subcommand, .. } => Some(format!("git {subcommand}")),
        _ => None,
    }
}

/// A behavior predicate derived from a command the rule quotes:
/// `(key, predicate, order)`; `None` when the rule quotes no command.
pub fn derive_predicate(c: &Constraint) -> Option<(&'static str, Predicate, Option<Order>)> {
    let when = when_command(c);
    let negative = matches!(c.modality, Modality::MustNot | Modality::ShouldNot);
    let cmd = quoted_commands(&c.text)
        .into_iter()
        .find(|s| negative || when.as_deref().is_none_or(|w| !s.starts_with(w)))?;
    let glob = if cmd.contains(['*', '?', '[']) {
        cmd
    } else {
        format!("{cmd}*")
    };
    let p = Predicate::Command(glob);
    if negative {
        return Some(("forbid", p, None));
    }
    static BEFORE: OnceLock<Regex> = OnceLock::new();
    let before = BEFORE.get_or_init(|| Regex::new(r"(?i)\bbefore\b").expect("static regex"));
    let order = (c.when.is_some() && before.is_match(&c.text)).then_some(Order::Before);
    Some(("require", p, order))
}

/// Insert `keys` (one `key: value` each) at the end of the lockfile item
/// `- id: ID`, at that item's key indentation. `None` when the item is not found.
pub fn insert_keys(text: &str, id: &str, keys: &[String]) -> Option<String> {
    let lines = split_lines(text);
    let (start, key_col, dash_col) = lines.iter().enumerate().find_map(|(i, (t, _))| {
        let dash = t.find("- id:")?;
        if !t[..dash].trim().is_empty() {
            return None;
        }
        let v = t[dash + 5..].trim().trim_matches(['"', '\'']);
        (v == id).then_some((i, dash + 2, dash))
    })?;
    let mut end = lines.len();
    for (i, (t, _)) in lines.iter().enumerate().skip(start + 1) {
        if t.trim().is_empty() || t.trim_start().starts_with('#') {
            continue;
        }
        let indent = t.len() - t.trim_start().len();
        if indent <= dash_col {
            end = i;
            break;
        }
    }
    let mut at = end;
    while at > start + 1 && {
        let t = lines[at - 1].0.trim();
        t.is_empty() || t.starts_with('#')
    } {
        at -= 1;
    }
    let eol = lines
        .iter()
        .map(|(_, e)| *e)
        .find(|e| !e.is_empty())
        .unwrap_or("\n");
    let mut owned: Vec<(String, &str)> = lines.iter().map(|(t, e)| (t.to_string(), *e)).collect();
    let was_last_without_eol = at == owned.len() && owned.last().is_some_and(|l| l.1.is_empty());
    if at > 0 && owned[at - 1].1.is_empty() {
        owned[at - 1].1 = eol;
    }
    let pad = " ".repeat(key_col);
    for (k, key) in keys.iter().enumerate() {
        owned.insert(at + k, (format!("{pad}{key}"), eol));
    }
    if was_last_without_eol {
        if let Some(last) = owned.last_mut() {
            last.1 = "";
        }
    }
    Some(join_lines(&owned))
}
