//! propose: unified-diff proposals for violated or undecidable constraints
//! (SPEC §7; seed 003's `proposal_allowed` made deterministic).
//!
//! [`proposals`] is pure: from a judged skill, the exact text of its SKILL.md
//! and of its lockfile (if any) and the constraints the gate judged, it builds
//! proposals whose unified diffs apply with `git apply` to those exact bytes.
//! [`attach`] (in `load`) reads the files for the gate's callers.
//!
//! When a proposal is made (docs/proposals.md):
//! - a constraint violated in two or more trajectories, or in one when it is
//!   scope-tagged → make the rule explicit: strengthen its line where it
//!   stands (`strengthen-rule`), or add it to a `## Constraints` section when
//!   the skill only implied it (`add-constraint`);
//! - a scope-tagged constraint the gate cannot decide (ambiguous or
//!   unverifiable, not `manual`, not waived) → pin a predicate derived from a
//!   command the rule quotes (`pin-predicate`), else a `mark-manual`
//!   proposal: a comment in the lockfile entry saying what a person must
//!   write (`manual: "<reason>"`) — the lockfile stays valid, and the rule
//!   keeps blocking until a person writes the reason.
//!
//! Only rules with a predicate that fired get a "make it explicit" proposal:
//! a `when` that matched, or a `forbid` that did. A `require` without `when`
//! (fired by the skill load alone) or one that asks for another skill is
//! more likely a misreading than a rule to harden, so it gets none.
//!
//! Narrowing a trigger is not proposed: whether the skill "should not have
//! applied" is a judgment about the user's task, which lives in conversation
//! text the gate never reads, not in actions (see docs/proposals.md).

mod load;
pub mod text;

pub use load::{apply, attach, diff_path, write_patches, ProposeError};

use crate::extract::{Constraint, Lockfile, Modality, Order, Predicate};
use crate::label::Label;
use crate::score::resolve::location;
use crate::score::{ConstraintVerdict, Outcome, Proposal, ProposalTrace, SkillVerdict};
use std::path::Path;

/// The files of one skill, as the proposals see them.
#[derive(Debug, Clone)]
pub struct Inputs<'a> {
    pub verdict: &'a SkillVerdict,
    /// The exact text of SKILL.md.
    pub skill_text: &'a str,
    /// sha256 of SKILL.md's bytes (for a lockfile created from nothing).
    pub skill_sha256: &'a str,
    /// SKILL.md's path in diff headers (`a/PATH`), relative to the repository root.
    pub skill_diff_path: &'a str,
    /// SKILL.md's path as shown (`target`).
    pub skill_shown: &'a str,
    /// The exact text of the lockfile; `None` when there is none.
    pub lockfile_text: Option<&'a str>,
    pub lockfile_diff_path: &'a str,
    pub lockfile_shown: &'a str,
    /// The constraints the gate judged (pinned or extracted).
    pub constraints: &'a [Constraint],
}

/// A rule whose own predicate fired can be made explicit from it: a `when`,
/// or a `forbid`. Not a `require` fired by the load, nor one naming a skill.
fn explicit_allowed(c: &Constraint) -> bool {
    let names_skill = |p: &Predicate| p.any_node(&|q| matches!(q, Predicate::Skill(_)));
    let fired_by_own = c.when.is_some() || c.forbid.is_some();
    let skill = [&c.when, &c.require, &c.forbid]
        .iter()
        .any(|p| p.as_ref().is_some_and(names_skill));
    fired_by_own && !skill
}

/// Why a constraint gets a proposal, if it does.
fn trigger(cv: &ConstraintVerdict, c: &Constraint) -> Option<(Want, String)> {
    if cv.waived {
        return None;
    }
    let violated = cv
        .per_trajectory
        .rows()
        .filter(|p| p.label == Label::Violated)
        .count();
    let scoped = !cv.scope.is_empty();
    if violated >= 1 && !explicit_allowed(c) {
        return None;
    }
    if violated >= 2 {
        return Some((
            Want::Explicit,
            format!("violated in {violated} trajectories"),
        ));
    }
    if violated == 1 && scoped {
        return Some((
            Want::Explicit,
            "violated in 1 trajectory on scope-tagged ground".into(),
        ));
    }
    if scoped
        && !cv.manual
        && cv.outcome == Outcome::FailClosed
        && matches!(cv.label, Label::Ambiguous | Label::Unverifiable)
    {
        return Some((
            Want::Decide,
            format!(
                "{} on scope-tagged ground: the gate cannot decide it",
                cv.label.as_str()
            ),
        ));
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Explicit,
    Decide,
}

/// The proposals for one judged skill, in constraint order. Deterministic.
pub fn proposals(inp: &Inputs) -> Vec<Proposal> {
    let mut out = Vec::new();
    for cv in &inp.verdict.constraints {
        let Some(c) = inp.constraints.iter().find(|c| c.id == cv.id) else {
            tracing::debug!(constraint = %cv.id, "no judged constraint with this id");
            continue;
        };
        let Some((want, why)) = trigger(cv, c) else {
            continue;
        };
        // One per violated or ambiguous location: kept where the evidence is.
        let mut locations = crate::score::StrList::alongside(&cv.evidence);
        for e in cv
            .evidence
            .iter_labelled(|l| matches!(l, Label::Violated | Label::Ambiguous))
        {
            locations.push(&location(&e));
        }
        let trace = ProposalTrace {
            constraint: cv.id.clone(),
            trigger: why,
            locations,
        };
        let made = match want {
            Want::Explicit => explicit(inp, c),
            Want::Decide => decide(inp, c),
        };
        if let Some(mut p) = made {
            p.trace = trace;
            out.push(p);
        }
    }
    out
}

/// A unified diff from `old` to `new` (`old` `None`: a file created from /dev/null).
pub fn unified(old: Option<&str>, new: &str, diff_path: &str) -> String {
    let a = match old {
        Some(_) => format!("a/{diff_path}"),
        None => "/dev/null".to_string(),
    };
    let b = format!("b/{diff_path}");
    let old = old.unwrap_or("");
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&a, &b)
        .to_string()
}

fn proposal(
    kind: &str,
    c: &Constraint,
    rule: String,
    target: &str,
    old: Option<&str>,
    new: String,
    diff_path: &str,
) -> Proposal {
    Proposal {
        constraint: c.id.clone(),
        patch: unified(old, &new, diff_path),
        id: format!("{kind}-{}", c.id),
        kind: kind.to_string(),
        rule,
        target: target.to_string(),
        trace: ProposalTrace::default(),
        new_text: Some(new),
    }
}

/// Make a violated rule explicit in SKILL.md.
fn explicit(inp: &Inputs, c: &Constraint) -> Option<Proposal> {
    let lines = text::split_lines(inp.skill_text);
    let (first, last) = (c.lines[0] as usize, c.lines[1] as usize);
    let in_file = first >= 1 && last >= first && last <= lines.len();
    let stated = in_file && (first..=last).any(|n| text::has_modal(lines[n - 1].0));
    let pre = text::precondition(c);
    if stated {
        let mut new_lines: Vec<(String, &str)> =
            lines.iter().map(|(t, e)| (t.to_string(), *e)).collect();
        // Strengthen the wording where the modal word stands.
        for n in first..=last {
            if text::has_modal(&new_lines[n - 1].0) {
                new_lines[n - 1].0 = text::strengthen(&new_lines[n - 1].0, c.modality);
                break;
            }
        }
        // Spell out the precondition at the end of the rule (not inside a table row).
        let end = &mut new_lines[last - 1].0;
        if let Some(pre) = &pre {
            if !end.trim_start().starts_with('|') && !end.contains(text::PRE_MARK) {
                let trimmed = end.trim_end().len();
                let tail = end[trimmed..].to_string();
                end.truncate(trimmed);
                end.push(' ');
                end.push_str(pre);
                end.push_str(&tail);
            }
        }
        let new = text::join_lines(&new_lines);
        if new == inp.skill_text {
            return None;
        }
        let rule = (first..=last)
            .map(|n| new_lines[n - 1].0.trim())
            .collect::<Vec<_>>()
            .join(" ");
        return Some(proposal(
            "strengthen-rule",
            c,
            rule,
            inp.skill_shown,
            Some(inp.skill_text),
            new,
            inp.skill_diff_path,
        ));
    }
    // Implied: add it to a `## Constraints` section.
    let bullet = text::constraint_bullet(c, pre.as_deref());
    if inp.skill_text.contains(&bullet) {
        return None;
    }
    let new = text::add_to_constraints_section(inp.skill_text, &bullet);
    Some(proposal(
        "add-constraint",
        c,
        bullet,
        inp.skill_shown,
        Some(inp.skill_text),
        new,
        inp.skill_diff_path,
    ))
}

/// What a person must write as a `manual` reason (a placeholder shown in the
/// report and in a lockfile comment, never written as a key: the lockfile
/// stays valid and the rule keeps blocking until a person writes it).
pub const MANUAL_PLACEHOLDER: &str =
    "<why the gate cannot decide this rule from actions, and who reviews the sessions it lists>";

/// The `manual` line a person must write for a rule.
pub fn manual_line() -> String {
    format!(
        "manual: {}",
        serde_json::to_string(MANUAL_PLACEHOLDER).unwrap_or_default()
    )
}

/// Pin a predicate, or propose `manual`, in the lockfile.
fn decide(inp: &Inputs, c: &Constraint) -> Option<Proposal> {
    let (kind, lines, changed) = match text::derive_predicate(c) {
        Some((key, p, order)) => {
            let mut changed = c.clone();
            match key {
                "forbid" => changed.forbid = Some(p.clone()),
                _ => changed.require = Some(p.clone()),
            }
            changed.order = order;
            let mut lines = vec![format!(
                "{key}: {}",
                crate::extract::lockfile::predicate_flow(&p)
            )];
            if let Some(o) = order {
                lines.push(format!("order: {}", order_str(o)));
            }
            ("pin-predicate", lines, changed)
        }
        None => (
            "mark-manual",
            vec![
                "# skillgate: people decide this rule (the gate cannot, from actions). A person"
                    .to_string(),
                format!("# must write, in place of this comment: {}", manual_line()),
            ],
            c.clone(),
        ),
    };
    let new = match inp.lockfile_text {
        Some(old) => text::insert_keys(old, &c.id, &lines)?,
        None if kind == "mark-manual" => {
            let lf = Lockfile {
                version: crate::extract::lockfile::LOCKFILE_VERSION,
                skill: inp.verdict.skill.name.clone(),
                source_sha256: inp.skill_sha256.to_string(),
                constraints: inp.constraints.to_vec(),
                reviewed: Vec::new(),
                not_rules: Vec::new(),
            };
            text::insert_keys(&lf.to_yaml(), &c.id, &lines)?
        }
        None => {
            let lf = Lockfile {
                version: crate::extract::lockfile::LOCKFILE_VERSION,
                skill: inp.verdict.skill.name.clone(),
                source_sha256: inp.skill_sha256.to_string(),
                constraints: inp
                    .constraints
                    .iter()
                    .map(|k| {
                        if k.id == c.id {
                            changed.clone()
                        } else {
                            k.clone()
                        }
                    })
                    .collect(),
                reviewed: Vec::new(),
                not_rules: Vec::new(),
            };
            lf.to_yaml()
        }
    };
    // Every proposal leaves a lockfile the gate accepts.
    match Lockfile::parse(Path::new(inp.lockfile_shown), &new) {
        Ok(_) => {}
        Err(e) => {
            tracing::debug!(constraint = %c.id, error = %e, "proposed lockfile does not validate");
            return None;
        }
    }
    let rule = if kind == "mark-manual" {
        manual_line()
    } else {
        lines.join("\n")
    };
    Some(proposal(
        kind,
        c,
        rule,
        inp.lockfile_shown,
        inp.lockfile_text,
        new,
        inp.lockfile_diff_path,
    ))
}

fn order_str(o: Order) -> &'static str {
    o.as_str()
}

/// The modal words of a modality, in capitals.
pub fn modal_word(m: Modality) -> &'static str {
    match m {
        Modality::Must | Modality::Should => "MUST",
        Modality::MustNot | Modality::ShouldNot => "MUST NOT",
    }
}

/// Render a predicate for people (skill or lockfile text, never trajectory text).
pub fn describe(p: &Predicate) -> String {
    text::describe(p)
}

#[cfg(test)]
mod tests;
