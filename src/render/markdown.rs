//! The readable table printed on stdout (`--format md`, the default).

use super::{cell, percent, Renderer};
use crate::score::{ConstraintVerdict, Outcome, SkillVerdict};
use std::fmt::Write;

/// The stdout table: one section per skill.
#[derive(Debug, Clone, Copy, Default)]
pub struct MarkdownTable;

/// At most this many evidence locations per table cell.
const CELL_EVIDENCE: usize = 2;

/// The evidence cell of a constraint row: the locations behind its label
/// first (a violated rule shows where it was broken).
pub fn evidence_cell(c: &ConstraintVerdict) -> String {
    let primary: Vec<_> = c.evidence.iter_labelled(|l| l == c.label).collect();
    let (list, total) = if primary.is_empty() {
        let total: usize = c.per_trajectory.rows().map(|p| p.events).sum();
        (c.evidence.iter().collect::<Vec<_>>(), total)
    } else {
        let total: usize = c
            .per_trajectory
            .rows()
            .filter(|p| p.label == c.label)
            .map(|p| p.events)
            .sum();
        (primary, total)
    };
    let shown: Vec<String> = list
        .iter()
        .take(CELL_EVIDENCE)
        .map(|e| cell(&super::cited(e)))
        .collect();
    let mut s = shown.join("<br>");
    let total = total.max(list.len());
    if total > shown.len() {
        let _ = write!(s, " (+{} more)", total - shown.len());
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// What a constraint checks, as a table cell.
pub fn check_cell(c: &ConstraintVerdict) -> String {
    if c.check.is_empty() {
        "-".into()
    } else {
        format!("`{}`", cell(&c.check).replace('`', "'"))
    }
}

/// The proposals of a skill, one line each: id, target and the rule as
/// proposed; for `mark-manual`, what a person must write.
pub fn proposals(out: &mut String, v: &SkillVerdict) {
    if v.proposals.is_empty() {
        return;
    }
    out.push_str("\nProposals (`skillgate propose SKILL.md --apply ID`):\n");
    proposal_lines(out, v);
}

/// One line per proposal (see [`proposals`]).
pub fn proposal_lines(out: &mut String, v: &SkillVerdict) {
    for p in &v.proposals {
        if p.kind == "mark-manual" {
            let _ = writeln!(
                out,
                "- `{}` ({}): a person must write `{}` under `- id: {}` in {} (until then the rule blocks)",
                p.id,
                p.trace.trigger,
                cell(&p.rule),
                p.constraint,
                p.target
            );
        } else {
            let _ = writeln!(
                out,
                "- `{}` ({}) → {}: {}",
                p.id,
                p.trace.trigger,
                p.target,
                cell(&p.rule)
            );
        }
    }
}

/// The numbers line.
pub fn numbers_line(v: &SkillVerdict) -> String {
    let n = &v.numbers;
    format!(
        "coverage {} · compliance {} · adequacy {} (threshold {}) · extracted {}: exercised {}, violated {}, ambiguous {}, untested {}, unverifiable {}",
        percent(n.coverage),
        percent(n.compliance),
        percent(n.adequacy),
        percent(Some(v.thresholds.adequacy)),
        n.extracted,
        n.exercised,
        n.violated,
        n.ambiguous,
        n.untested,
        n.unverifiable
    )
}

/// Where the constraints came from, in one line.
pub fn source_line(v: &SkillVerdict) -> String {
    let mut s = match &v.source.lockfile {
        Some(p) => format!("constraints from the lockfile {p}"),
        None => "constraints extracted heuristically (no lockfile; `skillgate extract --write` pins them)".to_string(),
    };
    if v.source.drift {
        s.push_str(" — DRIFT: SKILL.md changed since the lockfile was written; the pinned constraints are used, refresh with `skillgate extract --write`");
    }
    s
}

/// The resolution list of the constraints that need action.
pub fn resolutions(out: &mut String, v: &SkillVerdict) {
    let todo: Vec<&ConstraintVerdict> = v
        .constraints
        .iter()
        .filter(|c| {
            matches!(c.outcome, Outcome::FailClosed | Outcome::NeedsReview)
                && !c.resolution.is_empty()
        })
        .collect();
    if todo.is_empty() {
        return;
    }
    out.push_str("\nTo resolve:\n");
    for c in todo {
        let _ = writeln!(out, "- `{}` ({}, {}):", c.id, c.label, c.outcome.as_str());
        for r in &c.resolution {
            let _ = write!(out, "  - {}: {}", r.kind, r.hint);
            if let Some(e) = &r.example {
                let _ = write!(out, " — `{e}`");
            }
            out.push('\n');
        }
    }
}

impl Renderer for MarkdownTable {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        let mut out = String::new();
        for (i, v) in verdicts.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let _ = writeln!(out, "## {} — {}", v.skill.name, v.verdict);
            let _ = writeln!(out, "\n{} · {}", v.skill.path, source_line(v));
            let _ = writeln!(
                out,
                "trajectories: {} valid, {} discarded",
                v.trajectories.valid.len(),
                v.trajectories.discarded.len()
            );
            if v.constraints.is_empty() {
                out.push_str("\nNo constraints.\n");
            } else {
                out.push_str(
                    "\n| id | label | outcome | scope | checks | evidence |\n|---|---|---|---|---|---|\n",
                );
                for c in &v.constraints {
                    let scope: Vec<&str> = c.scope.iter().map(|s| s.as_str()).collect();
                    let mut label = c.label.to_string();
                    if c.manual {
                        label.push_str(" (manual)");
                    }
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} | {} | {} |",
                        cell(&c.id),
                        label,
                        c.outcome.as_str(),
                        if scope.is_empty() {
                            "-".to_string()
                        } else {
                            scope.join(", ")
                        },
                        check_cell(c),
                        evidence_cell(c)
                    );
                }
            }
            let _ = writeln!(out, "\n{}", numbers_line(v));
            if !v.flags.is_empty() {
                let flags: Vec<&str> = v.flags.iter().map(|f| f.as_str()).collect();
                let _ = writeln!(out, "flags: {}", flags.join(", "));
            }
            resolutions(&mut out, v);
            proposals(&mut out, v);
            if !v.waivers.is_empty() {
                out.push_str("\nWaivers:\n");
                for w in &v.waivers {
                    let unused = if w.matched {
                        ""
                    } else {
                        " (matches no constraint)"
                    };
                    let _ = writeln!(out, "- `{}`: {}{unused}", w.id, w.reason);
                }
            }
            if !v.trajectories.discarded.is_empty() {
                out.push_str("\nDiscarded trajectories:\n");
                for d in &v.trajectories.discarded {
                    let _ = writeln!(out, "- {}: {}", d.path, d.reason);
                }
            }
            if !v.trajectories.stale.is_empty() {
                out.push_str(
                    "\nStale trajectories (ran an older text of the skill; still judged):\n",
                );
                for p in &v.trajectories.stale {
                    let _ = writeln!(out, "- {p}");
                }
            }
            if v.trajectories.valid.is_empty() {
                out.push_str("\nNothing to measure: no valid trajectory loads this skill — capture a run first (exit 3).\n");
            }
            let _ = writeln!(out, "\nverdict: {} (exit {})", v.verdict, v.exit_code);
        }
        out
    }
}
