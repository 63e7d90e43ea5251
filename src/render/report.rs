//! The Markdown report written to `<report-dir>/<skill>-<UTC timestamp>.md`
//! (SPEC §7): the constraint table (id, label, evidence location), the
//! numbers and the verdict, plus what a reviewer needs to act.

use super::markdown::{
    check_cell, evidence_cell, numbers_line, proposal_lines, resolutions, source_line,
};
use super::{cell, percent, Renderer};
use crate::score::{Outcome, SkillVerdict};
use std::fmt::Write;

/// The full report of one skill. `generated_at` is passed in (stages never read the clock).
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// RFC 3339 UTC time of the run.
    pub generated_at: String,
}

impl Report {
    /// The report of one skill.
    pub fn render_one(&self, v: &SkillVerdict) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# Skill coverage: {}\n", v.skill.name);
        let _ = writeln!(out, "- Skill: `{}`", v.skill.path);
        let _ = writeln!(out, "- Evaluated: {}", self.generated_at);
        let _ = writeln!(out, "- Verdict: **{}** (exit {})", v.verdict, v.exit_code);
        if v.flags.is_empty() {
            out.push_str("- Flags: none\n");
        } else {
            for f in &v.flags {
                let _ = writeln!(out, "- Flag `{}`: {}", f.as_str(), f.describe());
            }
        }
        let _ = writeln!(out, "- Source: {}", source_line(v));
        let _ = writeln!(
            out,
            "- Trajectories: {} valid, {} discarded",
            v.trajectories.valid.len(),
            v.trajectories.discarded.len()
        );

        out.push_str("\n## Numbers\n\n| extracted | exercised | violated | ambiguous | untested | unverifiable | coverage | compliance | adequacy |\n|---|---|---|---|---|---|---|---|---|\n");
        let n = &v.numbers;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} (threshold {}) |",
            n.extracted,
            n.exercised,
            n.violated,
            n.ambiguous,
            n.untested,
            n.unverifiable,
            percent(n.coverage),
            percent(n.compliance),
            percent(n.adequacy),
            percent(Some(v.thresholds.adequacy))
        );
        let _ = writeln!(out, "\n{}", numbers_line(v));

        out.push_str("\n## Constraints\n\n");
        if v.constraints.is_empty() {
            out.push_str("No constraints.\n");
        } else {
            out.push_str(
                "| id | lines | scope | label | outcome | checks | evidence |\n|---|---|---|---|---|---|---|\n",
            );
            for c in &v.constraints {
                let scope: Vec<&str> = c.scope.iter().map(|s| s.as_str()).collect();
                let mut label = c.label.to_string();
                if c.manual {
                    label.push_str(" (manual)");
                }
                if c.waived {
                    label.push_str(" (waived)");
                }
                let _ = writeln!(
                    out,
                    "| {} | {}-{} | {} | {} | {} | {} | {} |",
                    cell(&c.id),
                    c.lines[0],
                    c.lines[1],
                    if scope.is_empty() {
                        "-".to_string()
                    } else {
                        scope.join(", ")
                    },
                    label,
                    c.outcome.as_str(),
                    check_cell(c),
                    evidence_cell(c)
                );
            }
            out.push_str("\n### Rules (SKILL.md wording)\n\n");
            for c in &v.constraints {
                let _ = writeln!(
                    out,
                    "- `{}` (lines {}-{}): {}",
                    c.id,
                    c.lines[0],
                    c.lines[1],
                    cell(&c.text)
                );
            }
        }

        let mut res = String::new();
        resolutions(&mut res, v);
        if !res.is_empty() {
            out.push_str("\n## To resolve\n");
            out.push_str(res.trim_start_matches("\nTo resolve:"));
        }

        if !v.proposals.is_empty() {
            out.push_str("\n## Proposals\n\nApply one with `skillgate propose SKILL.md --apply ID` (never applied unless asked):\n\n");
            proposal_lines(&mut out, v);
        }

        let review: Vec<_> = v
            .constraints
            .iter()
            .filter(|c| c.outcome == Outcome::CheckedByPeople)
            .collect();
        if !review.is_empty() {
            out.push_str("\n## Checked by people\n\n");
            for c in review {
                let _ = writeln!(
                    out,
                    "- `{}`: {}",
                    c.id,
                    cell(c.manual_reason.as_deref().unwrap_or(""))
                );
            }
        }

        if !v.constraints.is_empty() && !v.trajectories.valid.is_empty() {
            out.push_str("\n## Labels per trajectory\n\n| constraint | trajectory | label | reason | events |\n|---|---|---|---|---|\n");
            for c in &v.constraints {
                for p in &c.per_trajectory {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} | {} |",
                        cell(&c.id),
                        cell(&p.trajectory),
                        p.label,
                        p.reason.as_str(),
                        p.events
                    );
                }
            }
            let cited: Vec<_> = v
                .constraints
                .iter()
                .filter(|c| !c.evidence.is_empty())
                .collect();
            if !cited.is_empty() {
                out.push_str("\n## Evidence\n\n");
                for c in cited {
                    let _ = writeln!(out, "- `{}`:", c.id);
                    for e in &c.evidence {
                        let _ = writeln!(
                            out,
                            "  - {} — {}, {}",
                            cell(&super::cited(&e)),
                            e.label,
                            e.why.as_str()
                        );
                    }
                }
            }
        }

        out.push_str("\n## Waivers\n\n");
        if v.waivers.is_empty() {
            out.push_str("None.\n");
        } else {
            for w in &v.waivers {
                let unused = if w.matched {
                    ""
                } else {
                    " (matches no constraint)"
                };
                let _ = writeln!(out, "- `{}`: {}{unused}", w.id, cell(&w.reason));
            }
        }

        out.push_str("\n## Trajectories\n\n");
        if v.trajectories.valid.is_empty() {
            out.push_str(
                "No valid trajectory: nothing to measure — capture a run first (exit 3).\n",
            );
        }
        for l in &v.trajectories.loads {
            let at = match (l.event, l.line) {
                (Some(e), Some(line)) => format!("event {e} (line {line})"),
                (Some(e), None) => format!("event {e}"),
                _ => "session-retro sidecar".to_string(),
            };
            let weak = if l.weak {
                ", weak evidence: a read of the SKILL.md"
            } else {
                ""
            };
            let stale = if l.stale {
                "; STALE: it ran an older text of the skill (still judged; `stale: discard` in the configuration drops such sessions)"
            } else {
                ""
            };
            let complete = if l.complete {
                ""
            } else {
                "; ended early (no final turn, or torn)"
            };
            let _ = writeln!(
                out,
                "- valid: {} ({}; loaded at {at} via {}{weak}{complete}{stale})",
                cell(&l.path),
                l.format,
                l.via
            );
        }
        for d in &v.trajectories.discarded {
            let _ = writeln!(out, "- discarded: {} — {}", cell(&d.path), cell(&d.reason));
        }
        out.push_str("\n---\nEvidence is cited by location only (trajectory path, event index, line); no trajectory content is reproduced in this report.\n");
        out
    }
}

impl Renderer for Report {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        verdicts
            .iter()
            .map(|v| self.render_one(v))
            .collect::<Vec<_>>()
            .join("\n")
    }
}
