//! `refine`: mistake patterns of one tool and a refinement proposal (seed 001
//! `skill.refine`). It never patches anything; without dry run it records the
//! intent in the `audit_log` table.
//!
//! Patterns, over all recorded calls of the tool (thresholds are constants
//! documented in docs/audit.md):
//! - a recurring error kind: at least [`MIN_RECURRING`] failures of one kind
//!   (user vetoes are their own pattern);
//! - user vetoes: at least one vetoed call;
//! - retry loops: a failed call immediately followed (no other call between,
//!   same session) by a call of the same tool with the identical input;
//! - failures clustered after a skill's load: at least [`MIN_RECURRING`]
//!   failures with skill S loaded, and a failure rate with S at least
//!   [`CLUSTER_MARGIN`] above the rate of the calls made without it (there
//!   must be some);
//! - failures concentrated in one program of a shell line: at least
//!   [`MIN_RECURRING`] failed calls running it.

use super::errors::ErrorKind;
use super::explain::{resolve, Resolved};
use rusqlite::{params, Connection};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Failures of one kind (or in one program, or after one skill) needed to report a pattern.
pub const MIN_RECURRING: u64 = 2;
/// How much higher the failure rate after a skill's load must be than without it.
pub const CLUSTER_MARGIN: f64 = 0.2;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Issue {
    pub pattern: String,
    pub occurrences: u64,
    pub suggestion: String,
}

/// The seed's proposal object.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Proposal {
    pub tool_name: String,
    /// When the name was read as a category: the dot names it covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<Vec<String>>,
    pub issues: Vec<Issue>,
    pub proposed_patch_hints: Vec<String>,
    pub source_file_found: bool,
    pub source_file_path: Option<String>,
    pub dry_run: bool,
    pub generated_at: String,
}

struct Call {
    session: i64,
    tool: String,
    raw: String,
    success: bool,
    vetoed: bool,
    error_kind: Option<String>,
    input_hash: Option<String>,
    skills: Vec<String>,
    programs: Vec<String>,
}

/// Build the proposal. `conn == None` (no database): no issues (fail open).
/// `repo_root`: where to look for the tool's SKILL.md or definition.
pub fn propose(
    conn: Option<&Connection>,
    tool: &str,
    dry_run: bool,
    generated_at: &str,
    repo_root: Option<&Path>,
) -> rusqlite::Result<Proposal> {
    let resolved = resolve(conn, tool)?;
    let tool_name = resolved.name(tool);
    let mut issues = match conn {
        Some(c) => find_issues(c, &resolved)?,
        None => Vec::new(),
    };
    issues.sort_by(|a, b| {
        b.occurrences
            .cmp(&a.occurrences)
            .then_with(|| a.pattern.cmp(&b.pattern))
    });

    let mut raw_names: BTreeSet<String> = BTreeSet::new();
    raw_names.insert(tool.to_string());
    if let (Some(c), None) = (conn, &resolved.raw) {
        let mut st =
            c.prepare_cached("SELECT DISTINCT raw_tool FROM tool_calls WHERE tool = ?1")?;
        for dot in &resolved.dot_names {
            for r in st.query_map([dot], |r| r.get::<_, String>(0))? {
                raw_names.insert(r?);
            }
        }
    }
    let source = repo_root.and_then(|root| find_source(root, &resolved.dot_names, &raw_names));
    let target = match &source {
        Some(p) => format!("`{p}`"),
        None => format!("the description of `{}`", resolved.title(tool)),
    };
    let mut hints: Vec<String> = Vec::new();
    for i in &issues {
        let h = hint_for(i, &target);
        if !hints.contains(&h) {
            hints.push(h);
        }
    }
    Ok(Proposal {
        category: resolved.category.then(|| resolved.dot_names.clone()),
        tool_name,
        issues,
        proposed_patch_hints: hints,
        source_file_found: source.is_some(),
        source_file_path: source,
        dry_run,
        generated_at: generated_at.to_string(),
    })
}

/// Record the intent to refine (never a patch): one `audit_log` row.
pub fn record_intent(conn: &Connection, at: &str, proposal: &Proposal) -> rusqlite::Result<i64> {
    let detail = serde_json::to_string(proposal).unwrap_or_else(|_| "{}".into());
    conn.execute(
        "INSERT INTO audit_log (at, kind, tool, detail) VALUES (?1, 'refine.intent', ?2, ?3)",
        params![at, proposal.tool_name, detail],
    )?;
    Ok(conn.last_insert_rowid())
}

fn load_calls(conn: &Connection) -> rusqlite::Result<Vec<Call>> {
    let mut st = conn.prepare_cached(
        "SELECT session, tool, success, vetoed, error_kind, input_hash, skills, programs, raw_tool
         FROM tool_calls ORDER BY session, event_index, id",
    )?;
    let rows = st.query_map([], |r| {
        let skills: String = r.get(6)?;
        let programs: String = r.get(7)?;
        Ok(Call {
            session: r.get(0)?,
            tool: r.get(1)?,
            raw: r.get(8)?,
            success: r.get(2)?,
            vetoed: r.get(3)?,
            error_kind: r.get(4)?,
            input_hash: r.get(5)?,
            skills: serde_json::from_str(&skills).unwrap_or_default(),
            programs: serde_json::from_str(&programs).unwrap_or_default(),
        })
    })?;
    rows.collect()
}

fn find_issues(conn: &Connection, resolved: &Resolved) -> rusqlite::Result<Vec<Issue>> {
    let all = load_calls(conn)?;
    let mine = |c: &Call| resolved.covers(&c.tool, &c.raw);
    let calls: Vec<&Call> = all.iter().filter(|c| mine(c)).collect();
    let total = calls.len() as u64;
    let mut issues = Vec::new();
    if total == 0 {
        return Ok(issues);
    }

    // Recurring error kinds.
    let mut kinds: BTreeMap<ErrorKind, u64> = BTreeMap::new();
    for c in &calls {
        if let Some(k) = c.error_kind.as_deref().and_then(ErrorKind::parse) {
            *kinds.entry(k).or_default() += 1;
        }
    }
    for (k, n) in &kinds {
        if *k != ErrorKind::RejectedByUser && *n >= MIN_RECURRING {
            issues.push(Issue {
                pattern: format!("recurring {k} failures ({n} of {total} calls)"),
                occurrences: *n,
                suggestion: k.suggestion().to_string(),
            });
        }
    }

    // User vetoes.
    let vetoes = calls.iter().filter(|c| c.vetoed).count() as u64;
    if vetoes > 0 {
        issues.push(Issue {
            pattern: format!("user vetoed {vetoes} of {total} calls"),
            occurrences: vetoes,
            suggestion: ErrorKind::RejectedByUser.suggestion().to_string(),
        });
    }

    // Retry loops: a failed call, then at once the same tool with the same input.
    let mut retries = 0u64;
    for w in all.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if a.session == b.session
            && mine(a)
            && a.tool == b.tool
            && a.raw == b.raw
            && !a.success
            && !a.vetoed
            && a.input_hash.is_some()
            && a.input_hash == b.input_hash
        {
            retries += 1;
        }
    }
    if retries > 0 {
        issues.push(Issue {
            pattern: format!(
                "retry loop: a failed call repeated at once with identical input ({retries} {})",
                if retries == 1 { "time" } else { "times" }
            ),
            occurrences: retries,
            suggestion: "Retrying the same input after a failure rarely helps: tell the agent to read the error and change the input, or stop and report."
                .to_string(),
        });
    }

    // Failures clustered after one skill's load.
    let mut skill_names: BTreeSet<&str> = BTreeSet::new();
    for c in &calls {
        for s in &c.skills {
            skill_names.insert(s);
        }
    }
    for s in skill_names {
        let (mut with, mut fail_with, mut without, mut fail_without) = (0u64, 0u64, 0u64, 0u64);
        for c in &calls {
            if c.skills.iter().any(|x| x == s) {
                with += 1;
                fail_with += u64::from(!c.success);
            } else {
                without += 1;
                fail_without += u64::from(!c.success);
            }
        }
        let rate_with = fail_with as f64 / with.max(1) as f64;
        let rate_without = if without == 0 {
            0.0
        } else {
            fail_without as f64 / without as f64
        };
        // Without calls lacking the skill there is nothing to compare with.
        if without > 0 && fail_with >= MIN_RECURRING && rate_with >= rate_without + CLUSTER_MARGIN {
            issues.push(Issue {
                pattern: format!(
                    "failures cluster after skill `{s}` loads ({fail_with} of {with} calls fail with it, {fail_without} of {without} without)"
                ),
                occurrences: fail_with,
                suggestion: format!(
                    "Review what skill `{s}` tells the agent about this tool: its SKILL.md may give a wrong command, path or order."
                ),
            });
        }
    }

    // Failures concentrated in one program of a shell line.
    let mut programs: BTreeMap<&str, u64> = BTreeMap::new();
    for c in calls.iter().filter(|c| !c.success && !c.vetoed) {
        for p in &c.programs {
            *programs.entry(p).or_default() += 1;
        }
    }
    let mut programs: Vec<(&str, u64)> = programs
        .into_iter()
        .filter(|(_, n)| *n >= MIN_RECURRING)
        .collect();
    programs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    for (p, n) in programs.into_iter().take(3) {
        issues.push(Issue {
            pattern: format!("failed calls running `{p}` ({n})"),
            occurrences: n,
            suggestion: format!(
                "Document how `{p}` is run in this project (working folder, flags, prerequisites) where the agent reads it."
            ),
        });
    }
    Ok(issues)
}

fn hint_for(i: &Issue, target: &str) -> String {
    if i.pattern.starts_with("recurring ") {
        let kind = i
            .pattern
            .trim_start_matches("recurring ")
            .split(' ')
            .next()
            .unwrap_or("");
        let what = match ErrorKind::parse(kind) {
            Some(ErrorKind::Timeout) => "a note on expected run times and the timeout parameter",
            Some(ErrorKind::PermissionDenied) => "the allowed paths and commands",
            Some(ErrorKind::NotFound) => "a rule to list or search before using a path",
            Some(ErrorKind::InvalidInput) => "a valid input example and its preconditions",
            Some(ErrorKind::NonzeroExit) => "the project's real build and test commands",
            _ => "the observed failure modes",
        };
        return format!("Add to {target}: {what}.");
    }
    if i.pattern.starts_with("user vetoed") {
        return format!("Add to {target}: when to ask the user before calling it.");
    }
    if i.pattern.starts_with("retry loop") {
        return format!(
            "Add to {target}: after a failure, change the input instead of repeating it."
        );
    }
    if let Some(rest) = i.pattern.strip_prefix("failures cluster after skill `") {
        let skill = rest.split('`').next().unwrap_or("");
        return format!(
            "Review skills/{skill}/SKILL.md: its guidance precedes most failures of this tool."
        );
    }
    if let Some(rest) = i.pattern.strip_prefix("failed calls running `") {
        let program = rest.split('`').next().unwrap_or("");
        return format!("Add to {target}: how to run `{program}` here.");
    }
    format!("Review {target}.")
}

/// Folders never searched for a tool's source.
const SKIP_DIRS: &[&str] = &[
    "node_modules",
    "target",
    "dist",
    "build",
    "vendor",
    "__pycache__",
];
/// Hidden folders that are searched (agent configuration lives there).
const HIDDEN_OK: &[&str] = &[".claude", ".codex", ".gemini", ".agents", ".github"];
const CODE_EXT: &[&str] = &[
    "ts", "tsx", "js", "mjs", "py", "rs", "go", "md", "json", "yaml", "yml", "toml",
];
/// Files looked at, at most (keeps a huge tree from stalling the command).
const MAX_FILES: usize = 50_000;

/// The SKILL.md or tool definition of a tool under `root`, relative to it:
/// 1. `<dir>/SKILL.md` whose folder is named after the tool (a raw name, or the
///    dot name with `-` for `.`);
/// 2. `.claude/commands/<name>.md` or `.claude/agents/<name>.md`;
/// 3. a source file whose path ends with the dot name as folders
///    (`browser/navigate.ts` for `browser.navigate`) or is named after it
///    (`browser.navigate.ts`).
pub fn find_source(root: &Path, dots: &[String], raw_names: &BTreeSet<String>) -> Option<String> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    for r in raw_names {
        names.insert(r.to_lowercase());
        names.insert(r.to_lowercase().replace('_', "-"));
    }
    for d in dots {
        names.insert(d.to_lowercase().replace('.', "-"));
    }
    let suffixes: Vec<String> = dots
        .iter()
        .flat_map(|d| {
            let d = d.to_lowercase();
            let segs: Vec<&str> = d.split('.').collect();
            let mut v = vec![segs.join("/")];
            if segs.len() > 2 {
                v.push(segs[segs.len() - 2..].join("/"));
            }
            v
        })
        .collect();
    let mut best: Option<(u8, String)> = None;
    let mut seen = 0usize;
    let mut stack: Vec<PathBuf> = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries.into_iter().rev() {
            seen += 1;
            if seen > MAX_FILES {
                return best.map(|b| b.1);
            }
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(ft) = e.file_type() else { continue };
            let path = e.path();
            if ft.is_dir() {
                let hidden = name.starts_with('.') && !HIDDEN_OK.contains(&name.as_str());
                if !hidden && !SKIP_DIRS.contains(&name.as_str()) {
                    stack.push(path);
                }
                continue;
            }
            if !ft.is_file() {
                continue;
            }
            let Ok(rel) = path.strip_prefix(root) else {
                continue;
            };
            let rel_s = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let rank = rank_file(&rel_s, &names, &suffixes);
            if let Some(rank) = rank {
                if best.as_ref().is_none_or(|b| (rank, &rel_s) < (b.0, &b.1)) {
                    best = Some((rank, rel_s));
                }
            }
        }
    }
    best.map(|b| b.1)
}

fn rank_file(rel: &str, names: &BTreeSet<String>, suffixes: &[String]) -> Option<u8> {
    let lower = rel.to_lowercase();
    let parts: Vec<&str> = lower.split('/').collect();
    let file = *parts.last()?;
    if file == "skill.md" && parts.len() >= 2 && names.contains(parts[parts.len() - 2]) {
        return Some(0);
    }
    if parts.len() >= 3
        && parts[parts.len() - 3] == ".claude"
        && matches!(parts[parts.len() - 2], "commands" | "agents")
    {
        if let Some(stem) = file.strip_suffix(".md") {
            if names.contains(stem) {
                return Some(1);
            }
        }
    }
    let (stem_path, ext) = lower.rsplit_once('.')?;
    if !CODE_EXT.contains(&ext) {
        return None;
    }
    let stem = stem_path.rsplit('/').next().unwrap_or(stem_path);
    for s in suffixes {
        if stem_path == s.as_str()
            || stem_path.ends_with(&format!("/{s}"))
            || stem == s.replace('/', ".")
        {
            return Some(2);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_skill_files_commands_and_tool_sources() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let mk = |p: &str| {
            let p = root.join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        };
        mk("src/core/tools/builtin/browser/navigate.ts");
        mk("node_modules/x/browser/navigate.ts");
        mk("skills/deploy/SKILL.md");
        mk(".claude/commands/ship.md");
        mk("src/decode/shell.rs");
        let raw = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(
            find_source(
                root,
                &["browser.navigate".into()],
                &raw(&["web_browser_go"])
            )
            .as_deref(),
            Some("src/core/tools/builtin/browser/navigate.ts")
        );
        assert_eq!(
            find_source(root, &["other.deploy".into()], &raw(&["deploy"])).as_deref(),
            Some("skills/deploy/SKILL.md")
        );
        assert_eq!(
            find_source(root, &["other.ship".into()], &raw(&["ship"])).as_deref(),
            Some(".claude/commands/ship.md")
        );
        assert_eq!(
            find_source(root, &["shell.exec".into()], &raw(&["Bash", "shell"])),
            None
        );
    }

    #[test]
    fn without_a_database_the_proposal_is_empty_but_emitted() {
        let p = propose(
            None,
            "browser.navigate",
            true,
            "2026-04-13T00:00:00.000Z",
            None,
        )
        .unwrap();
        assert_eq!(p.tool_name, "browser.navigate");
        assert!(p.issues.is_empty());
        assert!(p.proposed_patch_hints.is_empty());
        assert!(!p.source_file_found);
        assert_eq!(p.source_file_path, None);
        assert!(p.dry_run);
    }
}
