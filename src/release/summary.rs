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

/// The hook's report. `checked` describes the pushed ranges (one line each).
pub fn push_summary(verdicts: &[SkillVerdict], checked: &[String]) -> String {
    let mut out = String::new();
    let n = verdicts.len();
    let _ = writeln!(
        out,
        "skillgate pre-push: {n} skill{} touched",
        if n == 1 { "" } else { "s" }
    );
    for c in checked {
        let _ = writeln!(out, "  {c}");
    }
    out.push('\n');
    let mut blocking_rules = 0usize;
    let mut blocking_skills = Vec::new();
    for (i, v) in verdicts.iter().enumerate() {
        let blocking: Vec<&ConstraintVerdict> = v.blocking().collect();
        if !blocking.is_empty() {
            blocking_rules += blocking.len();
            blocking_skills.push(v.skill.path.clone());
        }
        if i >= SHOWN_SKILLS {
            continue;
        }
        if v.trajectories.valid.is_empty() {
            let _ = writeln!(
                out,
                "note    {} — nothing to measure: no valid trajectory ({} discarded); capture a run first (does not block the push)",
                v.skill.name,
                v.trajectories.discarded.len()
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
            let _ = writeln!(out, "ok      {} — {}{waived}", v.skill.name, v.verdict);
            continue;
        }
        let _ = writeln!(
            out,
            "BLOCKED {} — {}: {} blocking rule{}",
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
                "  … and {} more blocking rule(s): skillgate gate {}",
                blocking.len() - SHOWN_RULES,
                v.skill.path
            );
        }
    }
    if n > SHOWN_SKILLS {
        let _ = writeln!(out, "… and {} more skill(s)", n - SHOWN_SKILLS);
    }
    out.push('\n');
    if blocking_skills.is_empty() {
        out.push_str("skillgate: no blocking rule; the push goes ahead.\n");
    } else {
        let _ = writeln!(
            out,
            "Push refused: {blocking_rules} blocking rule{} in {} skill{}. Full table: skillgate gate {}",
            if blocking_rules == 1 { "" } else { "s" },
            blocking_skills.len(),
            if blocking_skills.len() == 1 { "" } else { "s" },
            blocking_skills.join(" ")
        );
        out.push_str("(Bypassing the check, at your own risk: git push --no-verify.)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_cuts_on_characters_and_flattens_lines() {
        assert_eq!(clip("abc", 5), "abc");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("a\nb", 5), "a b");
        assert_eq!(clip("ééééé", 3), "éé…");
    }
}
