//! JUnit XML (`--format junit`): one `<testsuite>` per skill, one
//! `<testcase>` per constraint (classname = skill, name = constraint id).
//!
//! - `<failure>`: violated (any scope), and scope-tagged rules the gate could
//!   not decide (ambiguous, or unverifiable and not marked manual) — the
//!   failure's `type` is the label;
//! - `<skipped>`: untested (the rule never fired), waived (with the reason),
//!   checked by people, unverifiable without scope, and every rule of a skill
//!   with nothing to measure;
//! - passed: exercised.
//!
//! Written by hand: attribute and text escaping of `& < > " '`, and
//! characters XML 1.0 cannot hold (most control characters) replaced by
//! U+FFFD.

use super::sarif::{deciding_evidence, outcome_sentence, rule_location};
use super::Renderer;
use crate::label::Label;
use crate::score::{ConstraintVerdict, Outcome, SkillVerdict};
use std::fmt::Write;

/// Escape text for an XML attribute or element.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// What a constraint is in JUnit terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Case {
    Passed,
    Failed { kind: String, message: String },
    Skipped { message: String },
}

/// The JUnit case of a judged constraint of a measured skill.
pub fn case(c: &ConstraintVerdict) -> Case {
    let scoped = !c.scope.is_empty();
    if c.outcome == Outcome::Waived {
        return Case::Skipped {
            message: format!(
                "waived ({}): {}",
                c.label,
                c.waiver_reason.as_deref().unwrap_or("no reason recorded")
            ),
        };
    }
    let fails = match c.label {
        Label::Violated => true,
        Label::Ambiguous => scoped,
        Label::Unverifiable => scoped && !c.manual,
        Label::Exercised | Label::Untested => false,
    };
    if fails {
        return Case::Failed {
            kind: c.label.as_str().to_string(),
            message: format!(
                "{} ({}): {}",
                c.label,
                c.outcome.as_str(),
                outcome_sentence(c)
            ),
        };
    }
    match c.label {
        Label::Exercised => Case::Passed,
        _ => Case::Skipped {
            message: outcome_sentence(c),
        },
    }
}

/// `--format junit`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Junit;

impl Renderer for Junit {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        let mut suites = String::new();
        let (mut tests, mut failures, mut skipped) = (0usize, 0usize, 0usize);
        for v in verdicts {
            let measured = !v.trajectories.valid.is_empty();
            let cases: Vec<(&ConstraintVerdict, Case)> = v
                .constraints
                .iter()
                .map(|c| {
                    let k = if measured {
                        case(c)
                    } else {
                        Case::Skipped {
                            message: "nothing to measure: no valid trajectory loads this skill"
                                .into(),
                        }
                    };
                    (c, k)
                })
                .collect();
            let f = cases
                .iter()
                .filter(|(_, k)| matches!(k, Case::Failed { .. }))
                .count();
            let s = cases
                .iter()
                .filter(|(_, k)| matches!(k, Case::Skipped { .. }))
                .count();
            tests += cases.len();
            failures += f;
            skipped += s;
            let _ = writeln!(
                suites,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"0\" skipped=\"{s}\" file=\"{}\">",
                xml_escape(&v.skill.name),
                cases.len(),
                xml_escape(&v.skill.path)
            );
            suites.push_str("    <properties>\n");
            let flags: Vec<&str> = v.flags.iter().map(|f| f.as_str()).collect();
            for (k, val) in [
                ("verdict", v.verdict.as_str().to_string()),
                ("flags", flags.join(",")),
                ("exit-code", v.exit_code.to_string()),
                ("valid-trajectories", v.trajectories.valid.len().to_string()),
                (
                    "discarded-trajectories",
                    v.trajectories.discarded.len().to_string(),
                ),
            ] {
                let _ = writeln!(
                    suites,
                    "      <property name=\"{k}\" value=\"{}\"/>",
                    xml_escape(&val)
                );
            }
            suites.push_str("    </properties>\n");
            for (c, k) in &cases {
                let _ = write!(
                    suites,
                    "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\"",
                    xml_escape(&c.id),
                    xml_escape(&v.skill.name),
                    xml_escape(&v.skill.path),
                    c.lines[0]
                );
                match k {
                    Case::Passed => suites.push_str("/>\n"),
                    Case::Skipped { message } => {
                        let _ = writeln!(
                            suites,
                            ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                            xml_escape(message)
                        );
                    }
                    Case::Failed { kind, message } => {
                        let mut body = format!("Rule at {}: \"{}\"", rule_location(v, c), c.text);
                        for e in deciding_evidence(c) {
                            let _ = write!(body, "\nEvidence: {e}");
                        }
                        for r in c.resolution.iter().filter(|r| r.kind != "inspect-events") {
                            let _ = write!(body, "\nResolve ({}): {}", r.kind, r.hint);
                        }
                        let _ = writeln!(
                            suites,
                            ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                            xml_escape(message),
                            xml_escape(kind),
                            xml_escape(&body)
                        );
                    }
                }
            }
            suites.push_str("  </testsuite>\n");
        }
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<testsuites name=\"skillgate\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">"
        );
        out.push_str(&suites);
        out.push_str("</testsuites>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_control_characters() {
        assert_eq!(
            xml_escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(xml_escape("x\u{1}y\tz\n"), "x\u{FFFD}y\tz\n");
        assert_eq!(xml_escape("é✓"), "é✓");
    }

    #[test]
    fn an_empty_run_is_a_valid_document() {
        assert_eq!(
            Junit.render(&[]),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"skillgate\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n</testsuites>\n"
        );
    }
}
