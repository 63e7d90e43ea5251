//! How to resolve a constraint that blocks (SPEC §6: "every blocking
//! constraint says exactly how to resolve it"), or that waits for a person.

use super::verdict::{ConstraintVerdict, Evidence, Outcome, Resolution, SkillRef, SourceInfo};
use crate::extract::{Constraint, Modality, ScopeTag};
use crate::label::{Label, Reason};

/// How many cited locations a hint spells out.
const SHOWN: usize = 3;

fn res(kind: &str, hint: String, example: Option<String>) -> Resolution {
    Resolution {
        kind: kind.to_string(),
        hint,
        example,
    }
}

/// `path event N (line L)` — a location, never content.
pub fn location(e: &Evidence) -> String {
    let mut s = e.file.clone().unwrap_or_else(|| e.trajectory.clone());
    match e.event {
        Some(i) => s.push_str(&format!(" event {i}")),
        None => s.push_str(" undecodable record"),
    }
    if let Some(l) = e.line {
        s.push_str(&format!(" (line {l})"));
    } else if let Some(p) = &e.pointer {
        s.push_str(&format!(" ({p})"));
    }
    if let Some(a) = &e.subagent {
        s.push_str(&format!(" [subagent {a}]"));
    }
    s
}

fn inspect(cv: &ConstraintVerdict, labels: &[Label], what: &str) -> Option<Resolution> {
    // The first few built, the rest only counted (the list grows with the corpus).
    let mut ev = cv.evidence.iter_labelled(|l| labels.contains(&l));
    let shown: Vec<String> = ev.by_ref().take(SHOWN).map(|e| location(&e)).collect();
    if shown.is_empty() {
        return None;
    }
    let rest = ev.count();
    let more = if rest > 0 {
        format!(" and {rest} more listed in the evidence")
    } else {
        String::new()
    };
    Some(res(
        "inspect-events",
        format!("{what}: {}{more}", shown.join("; ")),
        None,
    ))
}

fn lockfile_where(c: &Constraint, skill: &SkillRef, source: &SourceInfo) -> String {
    match &source.lockfile {
        Some(p) => format!("in {p}, under `- id: {}`", c.id),
        None => format!(
            "in the lockfile (create it with `skillgate extract {} --write`), under `- id: {}`",
            skill.path, c.id
        ),
    }
}

/// A plausible predicate line for the constraint, from its modality and
/// scope (one valid lockfile line; add a `when:` line to narrow when it applies).
pub fn example_predicate(c: &Constraint) -> String {
    let negative = matches!(c.modality, Modality::MustNot | Modality::ShouldNot);
    let tag = c.scope.first().copied();
    match (negative, tag) {
        (true, Some(ScopeTag::SensitiveMemory)) => r#"forbid: {read: "**/.env*"}"#.into(),
        (true, Some(ScopeTag::SelfModification)) => {
            r#"forbid: {touch: ".claude/skills/**"}"#.into()
        }
        (true, _) => r#"forbid: {git: push, args: ["--force"]}"#.into(),
        (false, Some(ScopeTag::SensitiveMemory)) => {
            r#"require: {command: "git check-ignore*"}"#.into()
        }
        (false, Some(ScopeTag::SelfModification)) => {
            r#"require: {command: "skillgate validate*"}"#.into()
        }
        (false, _) => r#"require: {command: "cargo test*"}"#.into(),
    }
}

fn waive(c: &Constraint, skill: &SkillRef) -> Resolution {
    res(
        "waive",
        "waive it in .skillgate.yaml when its exceptions live in the conversation (a waived rule never blocks and is listed in every report)".into(),
        Some(format!(
            "waivers: [{{id: {}, skill: {}, reason: \"<why this rule may be broken>\"}}]",
            c.id, skill.name
        )),
    )
}

fn mark_manual(c: &Constraint, skill: &SkillRef, source: &SourceInfo) -> Resolution {
    res(
        "mark-manual",
        format!(
            "if people decide this rule, mark it manual {} (it then raises needs-review instead of blocking)",
            lockfile_where(c, skill, source)
        ),
        Some("manual: \"<why the gate cannot decide it; reviewers check the sessions the gate lists>\"".into()),
    )
}

fn pin(c: &Constraint, skill: &SkillRef, source: &SourceInfo, what: &str) -> Resolution {
    res(
        "pin-predicate",
        format!("pin {what} {}", lockfile_where(c, skill, source)),
        Some(example_predicate(c)),
    )
}

/// The resolutions of one judged constraint (empty when nothing is to be done).
pub fn resolutions(
    cv: &ConstraintVerdict,
    c: &Constraint,
    skill: &SkillRef,
    source: &SourceInfo,
) -> Vec<Resolution> {
    let mut out = Vec::new();
    match cv.outcome {
        Outcome::Ok | Outcome::Waived | Outcome::CheckedByPeople => {}
        Outcome::NeedsReview => {
            out.extend(inspect(
                cv,
                &[Label::Ambiguous],
                "a person should look at these events",
            ));
        }
        Outcome::ComplianceGap => {
            out.extend(inspect(cv, &[Label::Violated], "the rule was broken at"));
            out.push(res(
                "fix-skill",
                format!(
                    "make the rule at SKILL.md lines {}-{} explicit or narrow its trigger (see the proposals)",
                    c.lines[0], c.lines[1]
                ),
                None,
            ));
        }
        Outcome::FailClosed => match cv.label {
            Label::Violated => {
                out.extend(inspect(cv, &[Label::Violated], "the rule was broken at"));
                out.push(res(
                    "fix-skill",
                    format!(
                        "fix the behavior, or make the rule at SKILL.md lines {}-{} explicit so agents follow it, then capture a new run",
                        c.lines[0], c.lines[1]
                    ),
                    None,
                ));
                out.push(waive(c, skill));
            }
            Label::Unverifiable => {
                out.push(pin(
                    c,
                    skill,
                    source,
                    "a `forbid` or `require` predicate (and a `when` line if it applies only after some action)",
                ));
                out.push(mark_manual(c, skill, source));
                out.push(waive(c, skill));
            }
            _ => {
                let reasons: Vec<Reason> = cv
                    .per_trajectory
                    .rows()
                    .filter(|p| p.label == Label::Ambiguous)
                    .map(|p| p.reason)
                    .collect();
                out.extend(inspect(cv, &[Label::Ambiguous], "look at"));
                if reasons.contains(&Reason::Undecidable) {
                    out.push(pin(
                        c,
                        skill,
                        source,
                        "a `forbid` or `require` predicate beside its `when`",
                    ));
                }
                if reasons.contains(&Reason::OpenAtEnd) {
                    out.push(res(
                        "capture-run",
                        "capture a run that reaches its final turn: the trajectory ended with the requirement still open".into(),
                        None,
                    ));
                }
                if reasons.contains(&Reason::UndecodableRecords) {
                    out.push(res(
                        "repair-transcript",
                        "the cited records could not be decoded and could hide a forbidden action: re-capture the session or check those lines with `skillgate trajectory`".into(),
                        None,
                    ));
                }
                if reasons.contains(&Reason::BranchUnknown) {
                    out.push(pin(
                        c,
                        skill,
                        source,
                        "a predicate that does not need the git branch (the trajectory does not record it)",
                    ));
                }
                out.push(mark_manual(c, skill, source));
                out.push(waive(c, skill));
            }
        },
    }
    out
}
