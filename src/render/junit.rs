//! JUnit XML (`--format junit`): one `<testsuite>` per skill, one
//! `<testcase>` per constraint (classname = skill, name = constraint id),
//! valid against the Jenkins xUnit plugin's `junit-10.xsd` (the schema most
//! JUnit consumers accept; vendored under fixtures/release/junit).
//!
//! - `<failure>`: exactly the constraints that block (outcome `fail-closed`),
//!   so a gate that passes reports no failed test; the failure's `type` is
//!   the label;
//! - passed with a `WARNING` line in `<system-out>`: a compliance gap and a
//!   rule waiting for review (non-blocking);
//! - `<skipped>`: untested (the rule never fired), waived (with the reason),
//!   checked by people, unverifiable without scope, and every rule of a skill
//!   with nothing to measure;
//! - passed: exercised.
//!
//! The rule's file and line go to each case's `<system-out>` (the schema
//! has no `file`/`line` on a test case); the suite carries `file`. `time` is
//! the run's wall time on `<testsuites>` (and on a lone suite), `0` on cases
//! (constraints are judged in one pass, not one by one).
//!
//! A skill with nothing to measure (exit 3) has one more case,
//! `nothing-to-measure`, with an `<error>`: the run failed, as its exit code
//! says. Every case names what its rule checks (`Checks: when … · require …`).
//!
//! Written by hand: attribute and text escaping of `& < > " '`; in
//! attributes also tab, LF and CR as character references (`&#10;`), which
//! XML parsers would otherwise read back as spaces; characters XML 1.0
//! cannot hold (most control characters) replaced by U+FFFD.

use super::sarif::{deciding_evidence, outcome_sentence, rule_location};
use super::Renderer;
use crate::label::Label;
use crate::score::{ConstraintVerdict, Outcome, SkillVerdict};
use std::fmt::Write;

/// Escape text for an XML element's content.
pub fn xml_escape(s: &str) -> String {
    escape(s, false)
}

/// Escape text for an XML attribute value (whitespace kept as references).
pub fn xml_attr(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, attr: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' if attr => out.push_str("&#10;"),
            '\r' if attr => out.push_str("&#13;"),
            '\t' if attr => out.push_str("&#9;"),
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
    /// Passed, with a non-blocking finding (compliance gap, needs review).
    Warned {
        message: String,
    },
    Failed {
        kind: String,
        message: String,
    },
    Skipped {
        message: String,
    },
}

/// The JUnit case of a judged constraint of a measured skill.
pub fn case(c: &ConstraintVerdict) -> Case {
    match c.outcome {
        Outcome::FailClosed => Case::Failed {
            kind: c.label.as_str().to_string(),
            message: format!(
                "{} ({}): {}",
                c.label,
                c.outcome.as_str(),
                outcome_sentence(c)
            ),
        },
        Outcome::ComplianceGap | Outcome::NeedsReview => Case::Warned {
            message: format!(
                "{} ({}): {}",
                c.label,
                c.outcome.as_str(),
                outcome_sentence(c)
            ),
        },
        Outcome::Waived => Case::Skipped {
            message: format!(
                "waived ({}): {}",
                c.label,
                c.waiver_reason.as_deref().unwrap_or("no reason recorded")
            ),
        },
        Outcome::CheckedByPeople => Case::Skipped {
            message: outcome_sentence(c),
        },
        Outcome::Ok => match c.label {
            Label::Exercised => Case::Passed,
            _ => Case::Skipped {
                message: outcome_sentence(c),
            },
        },
    }
}

/// The evidence and resolutions of a case, one per line (locations only).
fn details(v: &SkillVerdict, c: &ConstraintVerdict) -> String {
    let mut body = format!(
        "Rule at {}: \"{}\"\nChecks: {}",
        rule_location(v, c),
        c.text,
        c.check
    );
    for e in deciding_evidence(c) {
        let _ = write!(body, "\nEvidence: {e}");
    }
    for r in c.resolution.iter().filter(|r| r.kind != "inspect-events") {
        let _ = write!(body, "\nResolve ({}): {}", r.kind, r.hint);
    }
    body
}

/// `--format junit`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Junit {
    /// The run's wall time in seconds (measured by the caller).
    pub seconds: f64,
}

impl Renderer for Junit {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        let time = format!("{:.3}", self.seconds.max(0.0));
        let mut suites = String::new();
        let (mut tests, mut failures, mut errors) = (0usize, 0usize, 0usize);
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
            // A skill with nothing to measure adds one erroring case: exit 3.
            let e = usize::from(!measured);
            tests += cases.len() + e;
            failures += f;
            errors += e;
            let suite_time = if verdicts.len() == 1 {
                time.as_str()
            } else {
                "0"
            };
            let _ = writeln!(
                suites,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"{e}\" skipped=\"{s}\" time=\"{suite_time}\" file=\"{}\">",
                xml_attr(&v.skill.name),
                cases.len() + e,
                xml_attr(&v.skill.path)
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
                    xml_attr(&val)
                );
            }
            suites.push_str("    </properties>\n");
            if !measured {
                let _ = writeln!(
                    suites,
                    "    <testcase name=\"nothing-to-measure\" classname=\"{}\" time=\"0\">\n      <error message=\"{}\" type=\"nothing-to-measure\"/>\n    </testcase>",
                    xml_attr(&v.skill.name),
                    xml_attr(&format!(
                        "nothing to measure: no valid trajectory loads {} ({} discarded); verdict nothing-to-measure, exit {} — capture a run first",
                        v.skill.name,
                        v.trajectories.discarded.len(),
                        v.exit_code
                    ))
                );
            }
            for (c, k) in &cases {
                let _ = writeln!(
                    suites,
                    "    <testcase name=\"{}\" classname=\"{}\" time=\"0\">",
                    xml_attr(&c.id),
                    xml_attr(&v.skill.name),
                );
                match k {
                    Case::Passed => {
                        let _ = writeln!(
                            suites,
                            "      <system-out>{}</system-out>",
                            xml_escape(&format!(
                                "Rule at {}\nChecks: {}",
                                rule_location(v, c),
                                c.check
                            ))
                        );
                    }
                    Case::Warned { message } => {
                        let _ = writeln!(
                            suites,
                            "      <system-out>{}</system-out>",
                            xml_escape(&format!("WARNING: {message}\n{}", details(v, c)))
                        );
                    }
                    Case::Skipped { message } => {
                        let _ = writeln!(
                            suites,
                            "      <skipped message=\"{}\"/>\n      <system-out>{}</system-out>",
                            xml_attr(message),
                            xml_escape(&format!(
                                "Rule at {}\nChecks: {}",
                                rule_location(v, c),
                                c.check
                            ))
                        );
                    }
                    Case::Failed { kind, message } => {
                        let _ = writeln!(
                            suites,
                            "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                            xml_attr(message),
                            xml_attr(kind),
                            xml_escape(&details(v, c))
                        );
                    }
                }
                suites.push_str("    </testcase>\n");
            }
            suites.push_str("  </testsuite>\n");
        }
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<testsuites name=\"skillgate\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{time}\">"
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
        // In attributes, whitespace survives a parser's normalization.
        assert_eq!(xml_attr("a\nb\r\tc"), "a&#10;b&#13;&#9;c");
    }

    #[test]
    fn an_empty_run_is_a_valid_document() {
        assert_eq!(
            Junit { seconds: 0.25 }.render(&[]),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"skillgate\" tests=\"0\" failures=\"0\" errors=\"0\" time=\"0.250\">\n</testsuites>\n"
        );
    }
}
