//! `SKILL.constraints.yaml` (SPEC §4.2): the reviewed, committed constraint list.
//!
//! Reading is strict: an unknown key, a bad glob or regex, `require` beside
//! `forbid`, `manual` beside a behavior predicate, an empty or TODO manual
//! reason, a duplicate or non-kebab id, or a version other than 1 is an error
//! naming the file and the line. Writing is deterministic (a fixed key order,
//! one line per predicate), so refreshing an unchanged skill rewrites the same
//! bytes.

use super::constraint::{Constraint, Modality};
use super::predicate::Predicate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The lockfile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lockfile {
    pub version: u32,
    pub skill: String,
    pub source_sha256: String,
    pub constraints: Vec<Constraint>,
    /// Ids a person accepted in `skillgate review` (docs/review.md): decided
    /// rules that a second review does not show again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reviewed: Vec<String>,
    /// Texts a person said are not rules: `extract --write` never brings
    /// them back (matched after [`normalize_text`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_rules: Vec<String>,
}

/// The lockfile's name beside SKILL.md.
pub const LOCKFILE_NAME: &str = "SKILL.constraints.yaml";

/// The only lockfile version this build reads and writes.
pub const LOCKFILE_VERSION: u32 = 1;

/// One problem in a lockfile, at a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockfileProblem {
    /// 1-based line in the lockfile.
    pub line: u32,
    /// Stable kebab-case code (`unknown-key`, `bad-glob`, …).
    pub code: &'static str,
    pub message: String,
}

/// A lockfile that cannot be used. Maps to exit code 2. `Display` prints one
/// `file:line: message` per problem, first line first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockfileError {
    pub path: PathBuf,
    /// At least one problem, sorted by line.
    pub problems: Vec<LockfileProblem>,
}

impl LockfileError {
    fn one(path: &Path, line: u32, code: &'static str, message: String) -> Self {
        LockfileError {
            path: path.to_path_buf(),
            problems: vec![LockfileProblem {
                line,
                code,
                message,
            }],
        }
    }
    /// The first problem's line.
    pub fn line(&self) -> u32 {
        self.problems.first().map_or(1, |p| p.line)
    }
    /// The first problem's code.
    pub fn code(&self) -> &'static str {
        self.problems.first().map_or("lockfile", |p| p.code)
    }
}

impl fmt::Display for LockfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "{}:{}: {} [{}]",
                self.path.display(),
                p.line,
                p.message,
                p.code
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for LockfileError {}

/// Every code a lockfile problem can carry, with what it means.
pub const LOCKFILE_CODES: &[(&str, &str)] = &[
    ("unreadable", "the file cannot be read or is not UTF-8"),
    (
        "invalid-yaml",
        "the file is not YAML of the lockfile's shape",
    ),
    ("unknown-key", "a key the lockfile grammar does not have"),
    (
        "bad-predicate",
        "a predicate with no key, two keys, or `args` without `git`",
    ),
    ("bad-version", "`version` is not 1"),
    ("bad-glob", "a glob that does not compile"),
    ("bad-regex", "a `command_re` that does not compile"),
    (
        "bad-predicate-shape",
        "a modifier outside `all`, an empty list, a bad git subcommand or flag",
    ),
    (
        "require-and-forbid",
        "both `require` and `forbid` on one constraint",
    ),
    (
        "manual-with-behavior",
        "`manual` beside `require` or `forbid`",
    ),
    ("manual-without-reason", "an empty or TODO `manual` reason"),
    ("order-without-require", "`order` without `require`"),
    ("bad-id", "an id that is not kebab-case"),
    ("duplicate-id", "two constraints with one id"),
    (
        "bad-lines",
        "`lines` not [first, last] with 1 <= first <= last",
    ),
    ("empty-text", "an empty `text`"),
];

impl Lockfile {
    /// Read and validate a lockfile.
    pub fn read(path: &Path) -> Result<Lockfile, LockfileError> {
        use crate::fsutil::{self, InputError};
        let text = fsutil::read_text(path, fsutil::MAX_LOCKFILE_BYTES).map_err(|e| match e {
            InputError::NotUtf8 { line } => LockfileError::one(
                path,
                line as u32,
                "unreadable",
                "the lockfile is not valid UTF-8".into(),
            ),
            e => LockfileError::one(
                path,
                1,
                "unreadable",
                format!("cannot read the lockfile: {e}"),
            ),
        })?;
        Lockfile::parse(path, &text)
    }

    /// Parse and validate lockfile text; `path` is only used in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Lockfile, LockfileError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if let Some((line, col)) = crate::fsutil::yaml_too_deep(text, crate::fsutil::MAX_YAML_DEPTH)
        {
            return Err(LockfileError::one(
                path,
                line as u32,
                "invalid-yaml",
                format!(
                    "`[` / `{{` nest more than {} deep (column {col}); write the predicates out plainly",
                    crate::fsutil::MAX_YAML_DEPTH
                ),
            ));
        }
        let layout = Layout::of(text);
        let lf: Lockfile = yaml_serde::from_str(text).map_err(|e| {
            let mut line = e.location().map_or(1, |l| l.line() as u32);
            let msg = strip_location(&e.to_string());
            // A predicate's own errors are reported at the start of its
            // constraint: find the predicate that fails, for its line.
            if let Some(i) = item_index(&msg) {
                if let Some(key) = failing_predicate_key(text, i) {
                    line = layout.item_key(i, key);
                }
            }
            let code = classify_serde(&msg);
            LockfileError::one(path, line.max(1), code, crate::fsutil::redact_quotes(&msg))
        })?;
        let mut problems = Vec::new();
        if lf.version != LOCKFILE_VERSION {
            problems.push(LockfileProblem {
                line: layout.top_key("version"),
                code: "bad-version",
                message: format!(
                    "lockfile version {} is not supported: this build reads version {LOCKFILE_VERSION}",
                    lf.version
                ),
            });
        }
        let mut seen: BTreeMap<&str, u32> = BTreeMap::new();
        for (i, c) in lf.constraints.iter().enumerate() {
            for (key, message) in c.problems() {
                problems.push(LockfileProblem {
                    line: layout.item_key(i, key),
                    code: classify(key, &message),
                    message,
                });
            }
            let line = layout.item_key(i, "id");
            if let Some(first) = seen.insert(&c.id, line) {
                seen.insert(&c.id, first);
                problems.push(LockfileProblem {
                    line,
                    code: "duplicate-id",
                    message: format!(
                        "id {:?} is used twice (first at line {first}); ids are unique",
                        c.id
                    ),
                });
            }
        }
        if problems.is_empty() {
            Ok(lf)
        } else {
            problems.sort_by_key(|p| p.line);
            Err(LockfileError {
                path: path.to_path_buf(),
                problems,
            })
        }
    }

    /// The lockfile as YAML: a fixed key order, one line per key, predicates
    /// in flow style. Deterministic: the same value always gives the same bytes.
    pub fn to_yaml(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "# Reviewed constraints of SKILL.md (skillgate, SPEC §4.2). Edit ids, predicates\n",
        );
        out.push_str(
            "# and `manual` reasons by hand; `skillgate extract --write` keeps entries whose\n",
        );
        out.push_str("# text is still in the skill. Grammar: docs/constraints.md\n");
        out.push_str(&format!("version: {}\n", self.version));
        out.push_str(&format!("skill: {}\n", flow_str(&self.skill)));
        out.push_str(&format!(
            "source_sha256: {}\n",
            flow_str(&self.source_sha256)
        ));
        if self.constraints.is_empty() {
            out.push_str("constraints: []\n");
        } else {
            out.push_str("constraints:\n");
        }
        for c in &self.constraints {
            out.push_str(&format!("  - id: {}\n", flow_str(&c.id)));
            out.push_str(&format!("    text: {}\n", quoted(&c.text)));
            out.push_str(&format!("    lines: [{}, {}]\n", c.lines[0], c.lines[1]));
            out.push_str(&format!("    modality: {}\n", modality_str(c.modality)));
            if !c.scope.is_empty() {
                let tags: Vec<&str> = c.scope.iter().map(|t| t.as_str()).collect();
                out.push_str(&format!("    scope: [{}]\n", tags.join(", ")));
            }
            for (key, p) in [
                ("when", &c.when),
                ("require", &c.require),
                ("forbid", &c.forbid),
            ] {
                if let Some(p) = p {
                    out.push_str(&format!("    {key}: {}\n", predicate_flow(p)));
                }
            }
            if let Some(o) = c.order {
                out.push_str(&format!("    order: {}\n", o.as_str()));
            }
            if let Some(m) = &c.manual {
                out.push_str(&format!("    manual: {}\n", quoted(m)));
            }
        }
        if !self.reviewed.is_empty() {
            out.push_str("# Accepted in `skillgate review`; a second review skips them.\n");
            out.push_str("reviewed:\n");
            for id in &self.reviewed {
                out.push_str(&format!("  - {}\n", flow_str(id)));
            }
        }
        if !self.not_rules.is_empty() {
            out.push_str("# Not rules (`skillgate review`): extraction never brings them back.\n");
            out.push_str("not_rules:\n");
            for t in &self.not_rules {
                out.push_str(&format!("  - {}\n", quoted(t)));
            }
        }
        out
    }
}

/// The outcome of refreshing a lockfile from a fresh extraction.
#[derive(Debug, Clone, PartialEq)]
pub struct Refresh {
    pub lockfile: Lockfile,
    /// Entries taken from the old lockfile (their id, predicates, manual kept).
    pub kept: usize,
    /// Entries new in this extraction.
    pub added: usize,
    /// Ids of old entries whose text is no longer in the skill.
    pub dropped: Vec<String>,
}

/// Whitespace collapsed and emphasis markers removed, for matching rule texts.
pub fn normalize_text(s: &str) -> String {
    s.replace("**", "")
        .replace("__", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Merge a fresh extraction into the old lockfile: an old entry whose text
/// is extracted again is kept as reviewed (id, predicates, scope, manual),
/// with its lines updated; an old entry whose text still occurs in the skill
/// (a hand-written one) is kept as is; the others are dropped. New entries
/// get ids that do not collide with kept ones. Deterministic: refreshing
/// again with the same inputs gives the same lockfile.
pub fn refresh(
    old: Option<&Lockfile>,
    skill: &crate::parse::Skill,
    extracted: Vec<Constraint>,
) -> Refresh {
    let mut pool: Vec<(String, Constraint, bool)> = old
        .map(|o| {
            o.constraints
                .iter()
                .map(|c| (normalize_text(&c.text), c.clone(), false))
                .collect()
        })
        .unwrap_or_default();
    let not_rules: Vec<String> = old.map(|o| o.not_rules.clone()).unwrap_or_default();
    let rejected: std::collections::BTreeSet<String> =
        not_rules.iter().map(|t| normalize_text(t)).collect();
    let mut out: Vec<(Constraint, bool)> = Vec::new();
    let (mut kept, mut added) = (0, 0);
    for e in extracted {
        let key = normalize_text(&e.text);
        if rejected.contains(&key) {
            continue;
        }
        if let Some(slot) = pool.iter_mut().find(|(t, _, used)| !*used && *t == key) {
            slot.2 = true;
            let mut c = slot.1.clone();
            c.lines = e.lines;
            out.push((c, true));
            kept += 1;
        } else {
            out.push((e, false));
            added += 1;
        }
    }
    let body: Vec<(u32, String)> = skill
        .body_lines()
        .map(|(n, l)| (n, normalize_text(l)))
        .collect();
    let whole = normalize_text(
        &body
            .iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    );
    let mut dropped = Vec::new();
    for (key, c, used) in pool {
        if used {
            continue;
        }
        if !key.is_empty() && whole.contains(&key) {
            let mut c = c;
            if let Some((n, _)) = body.iter().find(|(_, l)| l.contains(&key)) {
                c.lines = [*n, *n];
            }
            out.push((c, true));
            kept += 1;
        } else {
            dropped.push(c.id);
        }
    }
    // Kept ids are reserved; new ids avoid them.
    let mut taken: std::collections::BTreeSet<String> = out
        .iter()
        .filter(|(_, k)| *k)
        .map(|(c, _)| c.id.clone())
        .collect();
    for (c, k) in out.iter_mut() {
        if *k {
            continue;
        }
        let base = c.id.clone();
        let mut id = base.clone();
        let mut n = 2;
        while taken.contains(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        taken.insert(id.clone());
        c.id = id;
    }
    let mut constraints: Vec<Constraint> = out.into_iter().map(|(c, _)| c).collect();
    constraints.sort_by(|a, b| a.lines.cmp(&b.lines).then_with(|| a.id.cmp(&b.id)));
    // A review decision follows its entry: accepted ids that are still here.
    let reviewed: Vec<String> = old
        .map(|o| {
            o.reviewed
                .iter()
                .filter(|id| constraints.iter().any(|c| &c.id == *id))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    Refresh {
        lockfile: Lockfile {
            version: LOCKFILE_VERSION,
            skill: skill.name(),
            source_sha256: skill.sha256.clone(),
            constraints,
            reviewed,
            not_rules,
        },
        kept,
        added,
        dropped,
    }
}

fn modality_str(m: Modality) -> &'static str {
    match m {
        Modality::Must => "must",
        Modality::MustNot => "must-not",
        Modality::Should => "should",
        Modality::ShouldNot => "should-not",
    }
}

/// A predicate on one line in YAML flow style: `{git: push, args: ["--force"]}`.
pub fn predicate_flow(p: &Predicate) -> String {
    let v = serde_json::to_value(p).unwrap_or(serde_json::Value::Null);
    flow_value(&v)
}

fn flow_value(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k}: {}", flow_value(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(flow_value).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::String(s) => flow_str(s),
        other => other.to_string(),
    }
}

/// A string bare when YAML reads it back as the same plain string, else quoted.
fn flow_str(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.' || b == b'/')
        && s.as_bytes()[0].is_ascii_alphabetic()
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        s.to_string()
    } else {
        quoted(s)
    }
}

/// A YAML double-quoted scalar (JSON string syntax is a subset of it). JSON
/// leaves DEL, the C1 controls and the noncharacters raw, but YAML refuses
/// them as unprintable: those are written as `\uXXXX` escapes, so the
/// lockfile always reads back.
fn quoted(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string());
    if !json.chars().any(yaml_unprintable) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if yaml_unprintable(c) {
            out.push_str(&format!("\\u{:04X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Characters YAML 1.2 does not allow unescaped (beyond the C0 controls,
/// which JSON escapes already).
fn yaml_unprintable(c: char) -> bool {
    matches!(
        c,
        '\u{7F}'..='\u{9F}' | '\u{FEFF}' | '\u{FFFE}' | '\u{FFFF}'
    )
}

fn strip_location(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// `N` of a serde path `constraints[N]…` at the start of an error message.
fn item_index(msg: &str) -> Option<usize> {
    let rest = msg.strip_prefix("constraints[")?;
    rest[..rest.find(']')?].parse().ok()
}

/// Which of `when` / `require` / `forbid` of item `i` does not deserialize.
fn failing_predicate_key(text: &str, i: usize) -> Option<&'static str> {
    let doc: yaml_serde::Value = yaml_serde::from_str(text).ok()?;
    let item = doc.get("constraints")?.get(i)?;
    ["when", "require", "forbid"].into_iter().find(|k| {
        item.get(*k)
            .is_some_and(|v| yaml_serde::from_value::<Predicate>(v.clone()).is_err())
    })
}

fn classify_serde(msg: &str) -> &'static str {
    if msg.contains("unknown field") {
        "unknown-key"
    } else if msg.contains("predicate") || msg.contains("`args`") {
        "bad-predicate"
    } else {
        "invalid-yaml"
    }
}

fn classify(key: &str, message: &str) -> &'static str {
    match key {
        "id" => "bad-id",
        "lines" => "bad-lines",
        "text" => "empty-text",
        "order" => "order-without-require",
        "manual" if message.contains("reason") => "manual-without-reason",
        "manual" => "manual-with-behavior",
        "forbid" if message.contains("not both") => "require-and-forbid",
        _ if message.contains("not a valid glob") => "bad-glob",
        _ if message.contains("not a valid regex") => "bad-regex",
        _ => "bad-predicate-shape",
    }
}

/// Where things are in a block-style lockfile: the line of each top-level
/// key, and of each key of each `constraints` item. Flow-style files (legal,
/// but not what `--write` produces) fall back to the item's or file's start.
struct Layout {
    top: BTreeMap<String, u32>,
    /// Per item: (first line, key indentation, key → line).
    items: Vec<(u32, BTreeMap<String, u32>)>,
}

impl Layout {
    fn of(text: &str) -> Layout {
        let mut top = BTreeMap::new();
        let mut items: Vec<(u32, BTreeMap<String, u32>)> = Vec::new();
        let mut in_constraints = false;
        let mut item_indent: Option<usize> = None;
        let mut key_indent = 0usize;
        for (i, raw) in text.lines().enumerate() {
            let n = i as u32 + 1;
            let trimmed = raw.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let indent = raw.len() - trimmed.len();
            if indent == 0 && !trimmed.starts_with('-') {
                let key = trimmed.split(':').next().unwrap_or("").trim().to_string();
                in_constraints = key == "constraints";
                top.entry(key).or_insert(n);
                continue;
            }
            if !in_constraints {
                continue;
            }
            if let Some(rest) = trimmed.strip_prefix('-') {
                if item_indent.is_none_or(|ii| ii == indent)
                    && (rest.is_empty() || rest.starts_with(' '))
                {
                    item_indent = Some(indent);
                    let after = rest.trim_start();
                    key_indent = indent + 1 + (rest.len() - after.len());
                    let mut keys = BTreeMap::new();
                    if let Some(k) = key_of(after) {
                        keys.insert(k, n);
                    }
                    items.push((n, keys));
                    continue;
                }
            }
            if indent == key_indent {
                if let (Some(k), Some(item)) = (key_of(trimmed), items.last_mut()) {
                    item.1.entry(k).or_insert(n);
                }
            }
        }
        Layout { top, items }
    }

    fn top_key(&self, key: &str) -> u32 {
        self.top.get(key).copied().unwrap_or(1)
    }

    fn item_key(&self, item: usize, key: &str) -> u32 {
        match self.items.get(item) {
            Some((start, keys)) => keys.get(key).copied().unwrap_or(*start),
            None => self.top_key("constraints"),
        }
    }
}

fn key_of(s: &str) -> Option<String> {
    let (k, _) = s.split_once(':')?;
    let k = k.trim();
    (!k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    .then(|| k.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::constraint::ScopeTag;

    fn parse(text: &str) -> Result<Lockfile, LockfileError> {
        Lockfile::parse(Path::new("SKILL.constraints.yaml"), text)
    }

    const GOOD: &str = "version: 1
skill: demo
source_sha256: abc
constraints:
  - id: no-force-push
    text: \"Never run `git push --force`.\"
    lines: [7, 7]
    modality: must-not
    scope: [shared-repo-state]
    forbid: {git: push, args: [\"--force\"]}
  - id: offer-merge-options
    text: Before merging, present the options.
    lines: [9, 9]
    modality: must
    when: {any: [{git: merge}, {command: \"gh pr merge*\"}]}
    manual: The options are in the conversation, not in actions.
";

    #[test]
    fn reads_a_good_lockfile() {
        let lf = parse(GOOD).unwrap();
        assert_eq!(lf.constraints.len(), 2);
        assert_eq!(lf.constraints[0].scope, vec![ScopeTag::SharedRepoState]);
        assert_eq!(
            lf.constraints[0].forbid,
            Some(Predicate::Git {
                subcommand: "push".into(),
                args: vec!["--force".into()]
            })
        );
    }

    #[test]
    fn to_yaml_round_trips_and_is_stable() {
        let lf = parse(GOOD).unwrap();
        let y = lf.to_yaml();
        let back = parse(&y).unwrap();
        assert_eq!(lf, back);
        assert_eq!(y, back.to_yaml());
        assert!(
            y.contains("    forbid: {git: push, args: [\"--force\"]}\n"),
            "{y}"
        );
    }

    fn err(text: &str) -> LockfileError {
        parse(text).unwrap_err()
    }

    #[test]
    fn errors_name_the_line_and_code() {
        let e = err(&GOOD.replace(
            "    modality: must-not\n",
            "    modality: must-not\n    severity: high\n",
        ));
        assert_eq!((e.line(), e.code()), (9, "unknown-key"), "{e}");

        let e = err(&GOOD.replace("version: 1", "version: 2"));
        assert_eq!((e.line(), e.code()), (1, "bad-version"));

        let e = err(&GOOD.replace(
            "forbid: {git: push, args: [\"--force\"]}",
            "forbid: {touch: \"a/[b\"}",
        ));
        assert_eq!((e.line(), e.code()), (10, "bad-glob"), "{e}");

        let e = err(&GOOD.replace(
            "forbid: {git: push, args: [\"--force\"]}",
            "forbid: {command_re: \"(x\"}",
        ));
        assert_eq!((e.line(), e.code()), (10, "bad-regex"), "{e}");

        let e = err(&GOOD.replace(
            "    forbid: {git: push, args: [\"--force\"]}\n",
            "    forbid: {git: push}\n    require: {git: fetch}\n",
        ));
        assert_eq!((e.line(), e.code()), (10, "require-and-forbid"), "{e}");

        let e = err(&GOOD.replace(
            "    when: {any:",
            "    forbid: {git: merge}\n    when: {any:",
        ));
        assert_eq!((e.line(), e.code()), (17, "manual-with-behavior"), "{e}");

        let e = err(&GOOD.replace(
            "manual: The options are in the conversation, not in actions.",
            "manual: TODO",
        ));
        assert_eq!((e.line(), e.code()), (16, "manual-without-reason"), "{e}");
        let e = err(&GOOD.replace(
            "manual: The options are in the conversation, not in actions.",
            "manual: \"  \"",
        ));
        assert_eq!(e.code(), "manual-without-reason");

        let e = err(&GOOD.replace("id: offer-merge-options", "id: no-force-push"));
        assert_eq!((e.line(), e.code()), (11, "duplicate-id"), "{e}");
        assert!(e.to_string().contains("first at line 5"));

        let e = err(&GOOD.replace("id: offer-merge-options", "id: Offer_Merge"));
        assert_eq!((e.line(), e.code()), (11, "bad-id"));

        let e = err(&GOOD.replace("{git: push, args: [\"--force\"]}", "{gti: push}"));
        assert_eq!(e.line(), 10, "{e}");
        assert!(
            e.to_string().starts_with("SKILL.constraints.yaml:10: "),
            "{e}"
        );

        let e = err(&GOOD.replace("{git: push, args: [\"--force\"]}", "{tool: a, command: b}"));
        assert_eq!(e.line(), 10, "{e}");
        assert_eq!(e.code(), "bad-predicate", "{e}");

        let e = err(&GOOD.replace("lines: [7, 7]", "lines: [8, 7]"));
        assert_eq!((e.line(), e.code()), (7, "bad-lines"));
    }

    #[test]
    fn every_code_is_listed_once() {
        let mut seen = std::collections::BTreeSet::new();
        for (code, _) in LOCKFILE_CODES {
            assert!(seen.insert(*code), "duplicate code {code}");
            assert!(crate::extract::constraint::is_kebab_id(code));
        }
        for code in [
            "require-and-forbid",
            "manual-with-behavior",
            "bad-glob",
            "bad-regex",
            "duplicate-id",
        ] {
            assert!(seen.contains(code));
        }
    }
}
