//! The one-screen explanation the pre-push hook prints on stderr: each
//! skill's verdict, and for each blocking constraint its SKILL.md line, the
//! trajectory locations that decided it (never their content) and how to
//! resolve it. Bounded: at most [`SHOWN_SKILLS`] skills, [`SHOWN_RULES`]
//! blocking rules per skill and [`SHOWN_EVIDENCE`] locations per rule.

use crate::label::Label;
pub use crate::render::sarif::{deciding_evidence, rule_location};
use crate::score::{ConstraintVerdict, Outcome, SkillVerdict};
use std::fmt::Write;

/// Skills listed before "and N more".
pub const SHOWN_SKILLS: usize = 8;
/// Blocking rules detailed per skill.
pub const SHOWN_RULES: usize = 3;
/// Evidence locations per rule.
pub const SHOWN_EVIDENCE: usize = 2;

/// Cut `s` to `n` characters, on one line.
pub fn clip(s: &str, n: usize) -> String {
    let one: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one.chars().count() <= n {
        one
    } else {
        let mut t: String = one.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn rule_block(out: &mut String, v: &SkillVerdict, c: &ConstraintVerdict) {
    let scope: Vec<&str> = c.scope.iter().map(|s| s.as_str()).collect();
    let _ = writeln!(
        out,
        "  {} ({}, scope {})",
        c.id,
        c.label,
        if scope.is_empty() {
            "-".to_string()
        } else {
            scope.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "    rule:     {}  \"{}\"",
        rule_location(v, c),
        clip(&c.text, 90)
    );
    let ev = deciding_evidence(c);
    if ev.is_empty() {
        let why = if c.label == Label::Unverifiable {
            "none: the rule has no predicate, so the gate cannot see whether it applied"
        } else {
            "none recorded"
        };
        let _ = writeln!(out, "    evidence: {why}");
    } else {
        for (i, e) in ev.iter().take(SHOWN_EVIDENCE).enumerate() {
            let head = if i == 0 { "evidence:" } else { "         " };
            let _ = writeln!(out, "    {head} {e}");
        }
        if ev.len() > SHOWN_EVIDENCE {
            let _ = writeln!(out, "              (+{} more)", ev.len() - SHOWN_EVIDENCE);
        }
    }
    let todo: Vec<String> = c
        .resolution
        .iter()
        .filter(|r| r.kind != "inspect-events")
        .map(|r| match (&r.kind[..], &r.example) {
            ("waive", Some(e)) => format!("waive: {e}"),
            (k, _) => format!("{k}: {}", clip(&r.hint, 160)),
        })
        .collect();
    for (i, t) in todo.iter().enumerate() {
        let head = if i == 0 { "resolve:" } else { "        " };
        let _ = writeln!(out, "    {head}  {t}");
    }
}

/// Which hook is reporting (words of the summary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookKind {
    PrePush,
    PreCommit,
}

impl HookKind {
    fn name(self) -> &'static str {
        match self {
            HookKind::PrePush => "pre-push",
            HookKind::PreCommit => "pre-commit",
        }
    }
    fn what(self) -> &'static str {
        match self {
            HookKind::PrePush => "push",
            HookKind::PreCommit => "commit",
        }
    }
}

/// One commit (or staged tree) a hook gated: what led to it and its verdicts.
#[derive(Debug, Clone)]
pub struct Gated {
    /// What was checked, one line each (`refs/heads/main 1a2b3c4..5d6e7f8
    /// (fast-forward, 2 commit(s))`).
    pub what: Vec<String>,
    /// The refs, short, shown beside each skill when several commits were gated.
    pub refs: String,
    pub verdicts: Vec<SkillVerdict>,
    /// A shell command that reproduces exactly these verdicts (shown when one blocks).
    pub reproduce: String,
}

/// The hook's report over every gated commit.
pub fn hook_summary(kind: HookKind, groups: &[Gated]) -> String {
    let mut out = String::new();
    let n: usize = groups.iter().map(|g| g.verdicts.len()).sum();
    let _ = writeln!(
        out,
        "skillgate {}: {n} skill{} touched",
        kind.name(),
        if n == 1 { "" } else { "s" }
    );
    for g in groups {
        for c in &g.what {
            let _ = writeln!(out, "  {c}");
        }
    }
    out.push('\n');
    let several = groups.len() > 1;
    let mut blocking_rules = 0usize;
    let mut blocking_skills = Vec::new();
    let mut reproduce = Vec::new();
    let mut shown = 0usize;
    for g in groups {
        let tag = if several {
            format!("  [{}]", g.refs)
        } else {
            String::new()
        };
        let mut group_blocks = false;
        for v in &g.verdicts {
            let blocking: Vec<&ConstraintVerdict> = v.blocking().collect();
            if !blocking.is_empty() {
                blocking_rules += blocking.len();
                blocking_skills.push(if several {
                    format!("{} [{}]", v.skill.path, g.refs)
                } else {
                    v.skill.path.clone()
                });
                group_blocks = true;
            }
            shown += 1;
            if shown > SHOWN_SKILLS {
                continue;
            }
            if v.trajectories.valid.is_empty() {
                let _ = writeln!(
                    out,
                    "note    {} — nothing to measure: no valid trajectory ({} discarded); capture a run first (does not block the {}){tag}",
                    v.skill.name,
                    v.trajectories.discarded.len(),
                    kind.what()
                );
                continue;
            }
            if blocking.is_empty() {
                let waived: Vec<&str> = v
                    .constraints
                    .iter()
                    .filter(|c| c.outcome == Outcome::Waived)
                    .map(|c| c.id.as_str())
                    .collect();
                let waived = if waived.is_empty() {
                    String::new()
                } else {
                    format!(" (waived: {})", waived.join(", "))
                };
                let _ = writeln!(out, "ok      {} — {}{waived}{tag}", v.skill.name, v.verdict);
                continue;
            }
            let _ = writeln!(
                out,
                "BLOCKED {} — {}: {} blocking rule{}{tag}",
                v.skill.name,
                v.verdict,
                blocking.len(),
                if blocking.len() == 1 { "" } else { "s" }
            );
            for c in blocking.iter().take(SHOWN_RULES) {
                rule_block(&mut out, v, c);
            }
            if blocking.len() > SHOWN_RULES {
                let _ = writeln!(
                    out,
                    "  … and {} more blocking rule(s): see the full table (below)",
                    blocking.len() - SHOWN_RULES,
                );
            }
        }
        if group_blocks {
            reproduce.push((g.refs.clone(), g.reproduce.clone()));
        }
    }
    if n > SHOWN_SKILLS {
        let _ = writeln!(out, "… and {} more skill(s)", n - SHOWN_SKILLS);
    }
    out.push('\n');
    if blocking_skills.is_empty() {
        let _ = writeln!(
            out,
            "skillgate: no blocking rule; the {} goes ahead.",
            kind.what()
        );
    } else {
        let mut head = kind.what().to_string();
        head[..1].make_ascii_uppercase();
        let _ = writeln!(
            out,
            "{head} refused: {blocking_rules} blocking rule{} in {} skill{}: {}",
            if blocking_rules == 1 { "" } else { "s" },
            blocking_skills.len(),
            if blocking_skills.len() == 1 { "" } else { "s" },
            blocking_skills.join(", ")
        );
        for (refs, cmd) in &reproduce {
            if several {
                let _ = writeln!(out, "Full table of the gated commit ({refs}): {cmd}");
            } else {
                let _ = writeln!(out, "Full table of the gated commit: {cmd}");
            }
        }
        let _ = writeln!(
            out,
            "(Bypassing the check, at your own risk: git {} --no-verify.)",
            kind.what()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_run_goes_ahead_in_the_hooks_words() {
        let out = hook_summary(HookKind::PreCommit, &[]);
        assert!(
            out.starts_with("skillgate pre-commit: 0 skills touched\n"),
            "{out}"
        );
        assert!(
            out.contains("no blocking rule; the commit goes ahead."),
            "{out}"
        );
    }

    #[test]
    fn clip_cuts_on_characters_and_flattens_lines() {
        assert_eq!(clip("abc", 5), "abc");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("a\nb", 5), "a b");
        assert_eq!(clip("ééééé", 3), "éé…");
    }
}
