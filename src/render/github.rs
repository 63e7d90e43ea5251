//! GitHub Actions output: workflow-command annotations (`--format github`)
//! and the Markdown summary used for `$GITHUB_STEP_SUMMARY`, the check run
//! and the PR comment.
//!
//! Annotations: `::error file=F,line=L,endLine=E,title=T::message`. In the
//! message `%`, CR and LF are escaped (`%25`, `%0D`, `%0A`); in property
//! values `:` and `,` too (`%3A`, `%2C`). GitHub shows only 10 annotations of
//! each level per step, so at most [`PER_LEVEL`] are written per level: when
//! there are more, the first nine and a tenth that counts the rest.

use super::markdown::{numbers_line, source_line, MarkdownTable};
use super::sarif::{deciding_evidence, outcome_sentence, rule_location, severity, Severity};
use super::{cell, percent, Renderer};
use crate::score::{ConstraintVerdict, Outcome, SkillVerdict, Verdict};
use std::fmt::Write;

/// Annotations written per level at most.
pub const PER_LEVEL: usize = 10;

/// Escape the message (data) of a workflow command.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a property value of a workflow command.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation before escaping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    pub severity: Severity,
    /// The SKILL.md path; `None` for an annotation without a file.
    pub file: Option<String>,
    pub line: u32,
    pub end_line: u32,
    pub title: String,
    pub message: String,
}

impl Annotation {
    /// The workflow command line (no trailing newline).
    pub fn command(&self) -> String {
        let mut props = Vec::new();
        if let Some(f) = &self.file {
            props.push(format!("file={}", escape_property(f)));
            props.push(format!("line={}", self.line.max(1)));
            props.push(format!("endLine={}", self.end_line.max(self.line).max(1)));
        }
        props.push(format!("title={}", escape_property(&self.title)));
        format!(
            "::{} {}::{}",
            self.severity.workflow(),
            props.join(","),
            escape_data(&self.message)
        )
    }
}

/// The message of a constraint's annotation (rule wording, outcome,
/// evidence locations, first resolution) — never trajectory content.
pub fn constraint_message(v: &SkillVerdict, c: &ConstraintVerdict) -> String {
    let mut m = format!(
        "{} is {} — {}.\nRule: \"{}\"\nChecks: {}",
        c.id,
        c.label,
        outcome_sentence(c),
        c.text,
        c.check
    );
    let ev = deciding_evidence(c);
    if !ev.is_empty() {
        m.push_str("\nEvidence: ");
        m.push_str(&ev.join("; "));
    }
    for r in c.resolution.iter().filter(|r| r.kind != "inspect-events") {
        let _ = write!(m, "\nResolve ({}): {}", r.kind, r.hint);
        if let Some(e) = &r.example {
            let _ = write!(m, " — {e}");
        }
    }
    let _ = v;
    m
}

/// Every annotation of a run, most severe first (not yet capped).
pub fn annotations(verdicts: &[SkillVerdict]) -> Vec<Annotation> {
    let mut out = Vec::new();
    for v in verdicts {
        let measured = !v.trajectories.valid.is_empty();
        for c in v.constraints.iter().filter(|_| measured) {
            if let Some(sev) = severity(c) {
                out.push(Annotation {
                    severity: sev,
                    file: Some(v.skill.path.clone()),
                    line: c.lines[0],
                    end_line: c.lines[1],
                    title: format!(
                        "{}: {} ({}, {})",
                        v.skill.name,
                        c.id,
                        c.label,
                        c.outcome.as_str()
                    ),
                    message: constraint_message(v, c),
                });
            }
        }
        if v.trajectories.valid.is_empty() {
            out.push(Annotation {
                severity: Severity::Error,
                file: Some(v.skill.path.clone()),
                line: 1,
                end_line: 1,
                title: format!("{}: nothing to measure (exit 3)", v.skill.name),
                message: format!(
                    "No valid trajectory loads {} ({} discarded): verdict nothing-to-measure, exit 3 — capture a run first.",
                    v.skill.name,
                    v.trajectories.discarded.len()
                ),
            });
        }
    }
    out.sort_by_key(|a| std::cmp::Reverse(a.severity));
    out
}

/// At most [`PER_LEVEL`] per level: past that, nine and one counting the rest.
pub fn capped(all: Vec<Annotation>) -> Vec<Annotation> {
    let mut out = Vec::new();
    for sev in [Severity::Error, Severity::Warning, Severity::Note] {
        let of: Vec<Annotation> = all.iter().filter(|a| a.severity == sev).cloned().collect();
        if of.len() <= PER_LEVEL {
            out.extend(of);
            continue;
        }
        let rest = of.len() - (PER_LEVEL - 1);
        out.extend(of.into_iter().take(PER_LEVEL - 1));
        out.push(Annotation {
            severity: sev,
            file: None,
            line: 0,
            end_line: 0,
            title: "skillgate".into(),
            message: format!(
                "{rest} more {} annotations are not shown (GitHub shows {PER_LEVEL} per level and step): see the job summary or the SARIF / JSON output",
                sev.workflow()
            ),
        });
    }
    out
}

/// `--format github`: workflow-command annotations, one per line.
#[derive(Debug, Clone, Copy, Default)]
pub struct GithubAnnotations;

impl Renderer for GithubAnnotations {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        let mut out = String::new();
        for a in capped(annotations(verdicts)) {
            out.push_str(&a.command());
            out.push('\n');
        }
        if verdicts.is_empty() {
            out.push_str("skillgate: no skill changed: nothing to gate\n");
            return out;
        }
        let blocking: usize = verdicts.iter().map(|v| v.blocking().count()).sum();
        let _ = writeln!(
            out,
            "skillgate: {} skill(s), {} blocking rule(s), verdict {}, exit {}",
            verdicts.len(),
            blocking,
            overall(verdicts),
            crate::score::worst_exit(verdicts) as u8
        );
        out
    }
}

/// The run's headline verdict: the most severe skill verdict
/// (`nothing-to-measure` only when no skill had a valid trajectory), `no
/// skill changed` for an empty run.
pub fn overall(verdicts: &[SkillVerdict]) -> String {
    if verdicts.is_empty() {
        return "no skill changed".into();
    }
    match verdicts.iter().map(|v| v.verdict).max() {
        Some(v) => v.to_string(),
        None => Verdict::NothingToMeasure.to_string(),
    }
}

fn blocking_list(out: &mut String, v: &SkillVerdict) {
    let rules: Vec<&ConstraintVerdict> = v
        .constraints
        .iter()
        .filter(|c| {
            matches!(
                c.outcome,
                Outcome::FailClosed | Outcome::NeedsReview | Outcome::ComplianceGap
            )
        })
        .collect();
    for c in rules {
        let mark = match c.outcome {
            Outcome::FailClosed => "**blocking**",
            _ => "non-blocking",
        };
        let scope: Vec<&str> = c.scope.iter().map(|s| s.as_str()).collect();
        let _ = writeln!(
            out,
            "- {mark} `{}` — {} ({}), {} — `{}`",
            cell(&c.id),
            c.label,
            c.outcome.as_str(),
            if scope.is_empty() {
                "no scope tag".to_string()
            } else {
                format!("scope {}", scope.join(", "))
            },
            cell(&rule_location(v, c))
        );
        let _ = writeln!(out, "  - rule: {}", cell(&c.text));
        let _ = writeln!(out, "  - checks: `{}`", cell(&c.check).replace('`', "'"));
        let ev = deciding_evidence(c);
        if !ev.is_empty() {
            let shown: Vec<String> = ev
                .iter()
                .take(5)
                .map(|e| format!("`{}`", cell(e)))
                .collect();
            let more = if ev.len() > 5 {
                format!(" (+{} more)", ev.len() - 5)
            } else {
                String::new()
            };
            let _ = writeln!(out, "  - evidence: {}{more}", shown.join(", "));
        }
        for r in c.resolution.iter().filter(|r| r.kind != "inspect-events") {
            let _ = write!(out, "  - {}: {}", r.kind, cell(&r.hint));
            if let Some(e) = &r.example {
                let _ = write!(out, " — `{}`", cell(e));
            }
            out.push('\n');
        }
    }
}

/// The Markdown summary (job summary, check-run summary, PR comment body).
#[derive(Debug, Clone, Copy, Default)]
pub struct GithubSummary;

impl Renderer for GithubSummary {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "### skillgate — {}\n", overall(verdicts));
        if verdicts.is_empty() {
            out.push_str("No skill is touched by this change: nothing to gate.\n");
            return out;
        }
        out.push_str("| skill | verdict | coverage | compliance | adequacy | blocking | trajectories |\n|---|---|---|---|---|---|---|\n");
        for v in verdicts {
            let verdict = if v.verdict == Verdict::FailClosed {
                format!("**{}**", v.verdict)
            } else {
                v.verdict.to_string()
            };
            let _ = writeln!(
                out,
                "| `{}` | {verdict} | {} | {} | {} | {} | {} valid, {} discarded |",
                cell(&v.skill.name),
                percent(v.numbers.coverage),
                percent(v.numbers.compliance),
                percent(v.numbers.adequacy),
                v.blocking().count(),
                v.trajectories.valid.len(),
                v.trajectories.discarded.len()
            );
        }
        for v in verdicts {
            let _ = writeln!(out, "\n#### `{}` — {}\n", cell(&v.skill.name), v.verdict);
            let _ = writeln!(
                out,
                "`{}` · {}\n",
                cell(&v.skill.path),
                cell(&source_line(v))
            );
            if v.trajectories.valid.is_empty() {
                out.push_str("Nothing to measure: no valid trajectory loads this skill — capture a run first (exit 3).\n");
            } else {
                let _ = writeln!(out, "{}\n", numbers_line(v));
            }
            blocking_list(&mut out, v);
            if !v.waivers.is_empty() {
                out.push_str("\nWaivers:\n");
                for w in &v.waivers {
                    let _ = writeln!(out, "- `{}`: {}", cell(&w.id), cell(&w.reason));
                }
            }
            let _ = writeln!(
                out,
                "\n<details><summary>All {} constraints</summary>\n",
                v.constraints.len()
            );
            out.push_str(&MarkdownTable.render(std::slice::from_ref(v)));
            out.push_str("\n</details>\n");
        }
        out.push_str("\n<sub>Evidence is cited by location (trajectory path, event index, line); no session content is reproduced.</sub>\n");
        out
    }
}

/// Cut Markdown to at most `max` bytes on a line boundary, saying so.
pub fn truncate_markdown(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let note = "\n\n… truncated: the full report is in the job log and the Markdown report.\n";
    let budget = max.saturating_sub(note.len());
    let mut cut = budget.min(text.len());
    while cut > 0 && !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = &text[..cut];
    let head = match head.rfind('\n') {
        Some(i) => &head[..i],
        None => head,
    };
    format!("{head}{note}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_of_data_and_properties() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_data("a: b, c"), "a: b, c");
        assert_eq!(escape_property("a: b, c%"), "a%3A b%2C c%25");
        assert_eq!(escape_property("x\ny"), "x%0Ay");
        // `%` is escaped first, so an escape sequence in the input stays literal.
        assert_eq!(escape_data("%0A"), "%250A");
    }

    #[test]
    fn annotation_commands() {
        let a = Annotation {
            severity: Severity::Error,
            file: Some("skills/a,b/SKILL.md".into()),
            line: 11,
            end_line: 12,
            title: "a: b (violated)".into(),
            message: "line one\nline two: 100%".into(),
        };
        assert_eq!(
            a.command(),
            "::error file=skills/a%2Cb/SKILL.md,line=11,endLine=12,title=a%3A b (violated)::line one%0Aline two: 100%25"
        );
        let b = Annotation {
            file: None,
            severity: Severity::Note,
            ..a
        };
        assert_eq!(
            b.command(),
            "::notice title=a%3A b (violated)::line one%0Aline two: 100%25"
        );
    }

    #[test]
    fn at_most_ten_per_level_with_a_count_of_the_rest() {
        let mk = |sev, i: u32| Annotation {
            severity: sev,
            file: Some("S.md".into()),
            line: i,
            end_line: i,
            title: format!("t{i}"),
            message: "m".into(),
        };
        let mut all: Vec<Annotation> = (1..=13).map(|i| mk(Severity::Error, i)).collect();
        all.extend((1..=10).map(|i| mk(Severity::Warning, i)));
        let c = capped(all);
        let errors: Vec<_> = c.iter().filter(|a| a.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 10);
        assert_eq!(errors[8].line, 9);
        assert_eq!(errors[9].file, None);
        assert!(
            errors[9].message.starts_with("4 more error annotations"),
            "{}",
            errors[9].message
        );
        assert_eq!(
            c.iter().filter(|a| a.severity == Severity::Warning).count(),
            10
        );
    }

    #[test]
    fn truncation_keeps_whole_lines() {
        let t = "a\n".repeat(100);
        let cut = truncate_markdown(&t, 120);
        assert!(cut.len() <= 120, "{}", cut.len());
        assert!(cut.ends_with("Markdown report.\n"));
        assert_eq!(truncate_markdown("short", 120), "short");
    }
}
