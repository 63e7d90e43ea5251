//! `compose`: propose a tool chain for a goal by keyword matching (seed 001
//! `skill.compose`). It never executes anything.
//!
//! Known tools are the built-in catalog plus every tool in the audit database.
//! Goal words are lowercased, stop words dropped, and stemmed (`failing` →
//! `fail`, `tests` → `test`); a tool scores one point per goal stem among its
//! keywords (catalog keywords, and the words of its dot and raw names). Of the
//! tools that score, at most 2 per category prefix are kept (highest score,
//! then most observed calls), then the best `max_chain_length`; the chain is
//! ordered by the catalog's phase (plan, find, read, change, run).
//! `estimatedDurationMs` sums the observed average durations of the chain's
//! tools (null when none was observed).

use super::catalog::CATALOG;
use super::names;
use rusqlite::Connection;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Chain length when none is given, and the most allowed.
pub const DEFAULT_MAX_CHAIN: usize = 5;
pub const MAX_CHAIN: usize = 10;
/// Tools kept per category prefix.
pub const PER_CATEGORY: usize = 2;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainProposal {
    pub chain: Vec<String>,
    pub rationale: String,
    pub estimated_duration_ms: Option<i64>,
}

const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "to", "of", "for", "in", "on", "with", "then", "it", "its",
    "this", "that", "my", "our", "is", "are", "be", "please", "all", "from", "into", "by", "at",
    "as", "so", "me", "we", "i", "you", "some", "any", "up", "out", "after", "before", "when",
    "if",
];

/// Lowercase word stem: drop `ing`, `ed`, `es`, `s`, then a final `e`.
pub fn stem(word: &str) -> String {
    let mut w = word.to_lowercase();
    for suffix in ["ing", "ed", "es", "s"] {
        if w.len() > suffix.len() + 2 && w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            break;
        }
    }
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

/// The goal's distinct keyword stems, in order of appearance.
pub fn goal_stems(goal: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in goal
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let lw = w.to_lowercase();
        if STOP_WORDS.contains(&lw.as_str()) {
            continue;
        }
        let s = stem(&lw);
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// Words of a tool name (`mcp__exa__web_fetch_exa`, `WebFetch`, `file.edit`).
fn name_words(name: &str) -> Vec<String> {
    let mut spaced = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_uppercase() && prev_lower {
            spaced.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        spaced.push(c);
    }
    spaced
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1 && !matches!(*w, "mcp" | "other"))
        .map(stem)
        .collect()
}

struct Known {
    name: String,
    stems: BTreeSet<String>,
    phase: u8,
    calls: u64,
    avg_ms: Option<f64>,
}

/// Compose a chain. `conn == None`: the catalog alone (seed: registry unavailable).
pub fn compose(
    conn: Option<&Connection>,
    goal: &str,
    max_chain_length: usize,
) -> rusqlite::Result<ChainProposal> {
    let max = max_chain_length.clamp(1, MAX_CHAIN);
    let mut known: BTreeMap<String, Known> = BTreeMap::new();
    for t in CATALOG {
        let mut stems: BTreeSet<String> = t.keywords.iter().map(|k| stem(k)).collect();
        stems.extend(name_words(t.name));
        known.insert(
            t.name.to_string(),
            Known {
                name: t.name.into(),
                stems,
                phase: t.phase,
                calls: 0,
                avg_ms: None,
            },
        );
    }
    let catalog_count = known.len();
    let mut observed = 0usize;
    if let Some(conn) = conn {
        let mut st = conn.prepare(
            "SELECT tool, group_concat(DISTINCT raw_tool), count(*), avg(duration_ms) FROM tool_calls GROUP BY tool",
        )?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Option<f64>>(3)?,
            ))
        })?;
        for row in rows {
            let (tool, raws, calls, avg) = row?;
            observed += 1;
            let phase = category_phase(&tool);
            let k = known.entry(tool.clone()).or_insert_with(|| Known {
                name: tool.clone(),
                stems: name_words(&tool).into_iter().collect(),
                phase,
                calls: 0,
                avg_ms: None,
            });
            for raw in raws.unwrap_or_default().split(',') {
                k.stems.extend(name_words(raw));
            }
            k.calls = calls as u64;
            k.avg_ms = avg;
        }
    }
    let total_known = known.len();
    let stems = goal_stems(goal);
    let source = match conn {
        Some(_) => format!(
            "{total_known} known tools ({observed} observed in the audit database, {catalog_count} in the built-in catalog)"
        ),
        None => format!("{total_known} tools of the built-in catalog (no audit database)"),
    };
    if stems.is_empty() {
        return Ok(ChainProposal {
            chain: Vec::new(),
            rationale: format!(
                "The goal has no keywords to match against {source}; nothing proposed."
            ),
            estimated_duration_ms: None,
        });
    }

    // Score, then keep the best PER_CATEGORY of each category.
    let mut scored: Vec<(&Known, Vec<&String>)> = known
        .values()
        .map(|k| {
            (
                k,
                stems
                    .iter()
                    .filter(|s| k.stems.contains(*s))
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, m)| !m.is_empty())
        .collect();
    let better = |a: &(&Known, Vec<&String>), b: &(&Known, Vec<&String>)| {
        b.1.len()
            .cmp(&a.1.len())
            .then_with(|| b.0.calls.cmp(&a.0.calls))
            .then_with(|| a.0.name.cmp(&b.0.name))
    };
    scored.sort_by(better);
    let mut per_cat: BTreeMap<String, usize> = BTreeMap::new();
    let mut picked: Vec<(&Known, Vec<&String>)> = Vec::new();
    for s in scored {
        let n = per_cat
            .entry(names::category(&s.0.name).to_string())
            .or_default();
        if *n < PER_CATEGORY {
            *n += 1;
            picked.push(s);
        }
    }
    picked.truncate(max);
    picked.sort_by(|a, b| {
        a.0.phase
            .cmp(&b.0.phase)
            .then_with(|| a.0.name.cmp(&b.0.name))
    });

    if picked.is_empty() {
        let kw: Vec<&str> = stems.iter().map(String::as_str).collect();
        return Ok(ChainProposal {
            chain: Vec::new(),
            rationale: format!(
                "No tool among {source} matches the goal's keywords ({}); nothing proposed.",
                kw.join(", ")
            ),
            estimated_duration_ms: None,
        });
    }
    let with_time: Vec<f64> = picked.iter().filter_map(|p| p.0.avg_ms).collect();
    let estimated = (!with_time.is_empty()).then(|| with_time.iter().sum::<f64>().round() as i64);
    let steps: Vec<String> = picked
        .iter()
        .map(|(k, m)| {
            format!(
                "{} ({})",
                k.name,
                m.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    let duration_note = match estimated {
        Some(_) if with_time.len() == picked.len() => {
            "estimatedDurationMs sums the observed average durations of every step".to_string()
        }
        Some(_) => format!(
            "estimatedDurationMs sums the observed average durations of {} of {} steps (the others were never timed)",
            with_time.len(),
            picked.len()
        ),
        None => "no step has an observed duration, so estimatedDurationMs is null".to_string(),
    };
    Ok(ChainProposal {
        chain: picked.iter().map(|p| p.0.name.clone()).collect(),
        rationale: format!(
            "Proposed {}-step chain from {source}, matched on goal keywords: {}; at most {PER_CATEGORY} tools per category; {duration_note}. Nothing is executed.",
            picked.len(),
            steps.join(", ")
        ),
        estimated_duration_ms: estimated,
    })
}

/// The phase of a tool not in the catalog: its category's, else the middle.
fn category_phase(dot: &str) -> u8 {
    let cat = names::category(dot);
    CATALOG
        .iter()
        .filter(|t| names::category(t.name) == cat)
        .map(|t| t.phase)
        .min()
        .unwrap_or(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        assert_eq!(stem("failing"), "fail");
        assert_eq!(stem("tests"), "test");
        assert_eq!(stem("pushes"), "push");
        assert_eq!(stem("changes"), stem("change"));
        assert_eq!(stem("updated"), stem("update"));
        assert_eq!(
            goal_stems("Fix the failing test and push"),
            vec!["fix", "fail", "test", "push"]
        );
        assert_eq!(
            name_words("mcp__exa__web_fetch_exa"),
            vec!["exa", "web", "fetch", "exa"]
        );
        assert_eq!(name_words("WebFetch"), vec!["web", "fetch"]);
    }

    #[test]
    fn catalog_only_chain_for_the_done_when_goal() {
        let p = compose(None, "fix the failing test and push", 5).unwrap();
        assert_eq!(p.chain, vec!["file.read", "file.edit", "shell.exec"]);
        assert_eq!(p.estimated_duration_ms, None);
        assert!(
            p.rationale.starts_with("Proposed 3-step chain from "),
            "{}",
            p.rationale
        );
    }

    #[test]
    fn nothing_matches_gives_an_empty_chain_with_a_rationale() {
        let p = compose(None, "xyzzy plugh", 5).unwrap();
        assert!(p.chain.is_empty());
        assert!(
            p.rationale
                .contains("matches the goal's keywords (xyzzy, plugh)"),
            "{}",
            p.rationale
        );
        let p = compose(None, "the and of", 5).unwrap();
        assert!(p.chain.is_empty());
        assert!(p.rationale.starts_with("The goal has no keywords"));
    }

    #[test]
    fn at_most_two_per_category_and_the_length_cap() {
        let p = compose(None, "search find read edit write list files", 10).unwrap();
        let files = p.chain.iter().filter(|c| c.starts_with("file.")).count();
        assert_eq!(files, 2, "{:?}", p.chain);
        let p = compose(
            None,
            "plan search fetch read edit run test delegate ask skill",
            3,
        )
        .unwrap();
        assert_eq!(p.chain.len(), 3);
    }
}
