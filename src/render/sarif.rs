//! SARIF 2.1.0 for GitHub code scanning (and any SARIF viewer).
//!
//! One run for all skills (GitHub rejects several runs of one tool and
//! category in an upload). Rules are the constraints, with ids
//! `<skill>/<constraint id>` (constraint ids are unique per skill only), a
//! short description (id, modality, scope), the full rule wording from
//! SKILL.md, and help on how the gate judges and resolves it. Results sit on
//! the rule's SKILL.md lines; the trajectory locations that decided a label
//! are related locations and message text — locations only, never content.
//!
//! Levels ([`severity`]): a blocking (fail-closed) constraint is `error`;
//! a compliance gap is `warning`; a waived rule that would have mattered is
//! `note`; exercised and untested rules have no result. A rule waiting for a
//! person (needs-review, checked by people, unverifiable without scope) is a
//! `kind: review` result, and SARIF §3.27.10 gives every kind other than
//! `fail` the level `none`. A skill with nothing to measure (exit 3) gets an
//! `error` result on its SKILL.md (rule `skillgate/nothing-to-measure`): the
//! run fails, as its exit code says.
//!
//! Rule text (`help`, descriptions) depends only on the skill, never on a
//! run's labels, so it is stable across runs; the per-run verdict lives in
//! the result. GitHub's limits are kept: at most [`MAX_RELATED`] related
//! locations per result and [`MAX_MESSAGE`] characters per message.

use super::Renderer;
use crate::extract::Modality;
use crate::label::Label;
use crate::score::{ConstraintVerdict, Outcome, SkillVerdict};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// The `$schema` written in every log.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The rule id of a skill with no valid trajectory.
pub const NOTHING_TO_MEASURE: &str = "skillgate/nothing-to-measure";
/// Related locations per result (GitHub code scanning keeps 1,000).
pub const MAX_RELATED: usize = 1000;
/// Evidence locations quoted in a result's message text.
pub const MESSAGE_EVIDENCE: usize = 10;
/// Characters of a result's message text.
pub const MAX_MESSAGE: usize = 4000;

/// The project's page (`repository` in Cargo.toml): SARIF's `informationUri`.
pub const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

/// The documentation page a rule's `helpUri` points at.
pub fn help_uri(page_and_anchor: &str) -> String {
    format!("{INFORMATION_URI}/blob/main/docs/{page_and_anchor}")
}

/// `text` cut to `max` characters (on a character boundary), marked when cut.
fn cap(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut t: String = text.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// How loudly a constraint is reported, in every CI format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// SARIF `note`, workflow `notice`, check-run `notice`.
    Note,
    /// `warning` everywhere.
    Warning,
    /// SARIF `error`, workflow `error`, check-run `failure`: it blocks.
    Error,
}

impl Severity {
    pub fn sarif(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
    /// The workflow-command name (`::error`, `::warning`, `::notice`).
    pub fn workflow(self) -> &'static str {
        match self {
            Severity::Note => "notice",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
    /// The Checks API `annotation_level`.
    pub fn check_run(self) -> &'static str {
        match self {
            Severity::Note => "notice",
            Severity::Warning => "warning",
            Severity::Error => "failure",
        }
    }
}

/// The severity of a judged constraint; `None` when there is nothing to report.
pub fn severity(c: &ConstraintVerdict) -> Option<Severity> {
    match c.outcome {
        Outcome::FailClosed => Some(Severity::Error),
        Outcome::ComplianceGap | Outcome::NeedsReview => Some(Severity::Warning),
        Outcome::CheckedByPeople => Some(Severity::Note),
        Outcome::Waived => matches!(
            c.label,
            Label::Violated | Label::Ambiguous | Label::Unverifiable
        )
        .then_some(Severity::Note),
        Outcome::Ok => (c.label == Label::Unverifiable).then_some(Severity::Note),
    }
}

/// The kebab-case modality.
pub fn modality_str(m: Modality) -> &'static str {
    match m {
        Modality::Must => "must",
        Modality::MustNot => "must-not",
        Modality::Should => "should",
        Modality::ShouldNot => "should-not",
    }
}

/// What an outcome means, in one sentence.
pub fn outcome_sentence(c: &ConstraintVerdict) -> String {
    match c.outcome {
        Outcome::FailClosed => match c.label {
            Label::Violated => "a scope-tagged rule was broken: fail-closed, the ship is blocked".into(),
            Label::Unverifiable => "a scope-tagged rule has no predicate, so the gate cannot see whether it applied: fail-closed until it is pinned, marked manual or waived".into(),
            _ => "a scope-tagged rule fired and the gate cannot decide it: fail-closed until it is pinned, marked manual or waived".into(),
        },
        Outcome::ComplianceGap => "a rule without a scope tag was broken: compliance gap (non-blocking)".into(),
        Outcome::NeedsReview => "a rule marked manual fired: a person should look at the cited events (non-blocking)".into(),
        Outcome::CheckedByPeople => "marked manual without a predicate: checked by people, never by the gate".into(),
        Outcome::Waived => format!(
            "waived in configuration ({}): never blocks",
            c.waiver_reason.as_deref().unwrap_or("no reason recorded")
        ),
        Outcome::Ok => match c.label {
            Label::Unverifiable => "the rule has no predicate: the gate cannot see whether it applied (no scope tag, so it does not block)".into(),
            Label::Exercised => "exercised: the rule fired and was followed".into(),
            _ => "untested: the rule fired in no trajectory".into(),
        },
    }
}

/// The trajectory locations that decided the label (the label's own evidence
/// first, else all of it), as `path event N (line L) (why)` — never content.
pub fn deciding_evidence(c: &ConstraintVerdict) -> Vec<String> {
    let mut ev: Vec<_> = c.evidence.iter_labelled(|l| l == c.label).collect();
    if ev.is_empty() {
        ev = c.evidence.iter().collect();
    }
    ev.iter()
        .map(|e| format!("{} ({})", super::cited(e), e.why.as_str()))
        .collect()
}

/// `path:first` or `path:first-last` of a rule in its SKILL.md.
pub fn rule_location(v: &SkillVerdict, c: &ConstraintVerdict) -> String {
    if c.lines[1] > c.lines[0] {
        format!("{}:{}-{}", v.skill.path, c.lines[0], c.lines[1])
    } else {
        format!("{}:{}", v.skill.path, c.lines[0])
    }
}

/// A relative path as a URI reference: `/` separators, everything outside
/// RFC 3986's unreserved set and `/` percent-encoded. Absolute paths become
/// `file://` URIs.
pub fn path_uri(path: &str) -> String {
    let p = path.replace('\\', "/");
    let p = p.strip_prefix("./").unwrap_or(&p);
    let mut out = String::new();
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if p.starts_with('/') {
        format!("file://{out}")
    } else {
        out
    }
}

/// The SARIF rule id of a constraint.
pub fn rule_id(v: &SkillVerdict, c: &ConstraintVerdict) -> String {
    format!("{}/{}", v.skill.name, c.id)
}

fn rule(v: &SkillVerdict, c: &ConstraintVerdict) -> Value {
    let scope: Vec<&str> = c.scope.iter().map(|s| s.as_str()).collect();
    let scope_text = if scope.is_empty() {
        "no scope tag".to_string()
    } else {
        format!("scope {}", scope.join(", "))
    };
    let short = format!(
        "{}: {} ({}, {scope_text})",
        v.skill.name,
        c.id,
        modality_str(c.modality)
    );
    // Stable across runs: the rule and how the gate treats it, never a
    // run's label, evidence or resolution (those are in the result).
    let help = format!(
        "Rule at {} lines {}-{}: \"{}\".\nChecks: {}.\n{}\nResolve a blocking result by fixing the behavior or the skill's wording, pinning a predicate in SKILL.constraints.yaml, marking the rule manual with a reason, or waiving it in .skillgate.yaml (docs/gate.md).",
        v.skill.path,
        c.lines[0],
        c.lines[1],
        c.text,
        c.check,
        if scope.is_empty() {
            "Without a scope tag a broken rule is a compliance gap (non-blocking)."
        } else {
            "Scope-tagged: a violation, or a label the gate cannot decide, fails closed and blocks the ship unless the rule is marked manual or waived."
        },
    );
    let mut tags = vec![
        "skillgate".to_string(),
        modality_str(c.modality).to_string(),
    ];
    tags.extend(scope.iter().map(|s| s.to_string()));
    let level = if scope.is_empty() { "warning" } else { "error" };
    json!({
        "id": rule_id(v, c),
        "name": c.id,
        "shortDescription": {"text": short},
        "fullDescription": {"text": c.text},
        "help": {"text": help},
        "helpUri": help_uri("gate.md"),
        "defaultConfiguration": {"level": level},
        "properties": {"tags": tags, "check": c.check}
    })
}

fn region(first: u32, last: u32) -> Value {
    let start = first.max(1);
    json!({"startLine": start, "endLine": last.max(start)})
}

fn result(v: &SkillVerdict, c: &ConstraintVerdict, index: usize, sev: Severity) -> Value {
    let ev = deciding_evidence(c);
    let mut text = format!(
        "{} is {} — {}. Checks: {}.",
        c.id,
        c.label,
        outcome_sentence(c),
        c.check
    );
    if !ev.is_empty() {
        let quoted: Vec<&str> = ev
            .iter()
            .take(MESSAGE_EVIDENCE)
            .map(String::as_str)
            .collect();
        text.push_str(&format!(" Evidence: {}", quoted.join("; ")));
        if ev.len() > MESSAGE_EVIDENCE {
            text.push_str(&format!(
                " (+{} more in the JSON report)",
                ev.len() - MESSAGE_EVIDENCE
            ));
        }
        text.push('.');
    }
    if let Some(r) = c.resolution.iter().find(|r| r.kind != "inspect-events") {
        text.push_str(&format!(" To resolve: {}.", r.hint.trim_end_matches('.')));
    }
    let mut related = Vec::new();
    let mut shown: Vec<_> = c.evidence.iter_labelled(|l| l == c.label).collect();
    if shown.is_empty() {
        shown = c.evidence.iter().collect();
    }
    for (i, e) in shown.iter().take(MAX_RELATED).enumerate() {
        let file = e.file.clone().unwrap_or_else(|| e.trajectory.clone());
        let mut phys = json!({"artifactLocation": {"uri": path_uri(&file)}});
        if let Some(l) = e.line.filter(|l| *l > 0) {
            phys["region"] = json!({"startLine": l});
        }
        related.push(json!({
            "id": i,
            "physicalLocation": phys,
            "message": {"text": format!("{} — {} ({})", super::cited(e), e.why.as_str(), e.label)}
        }));
    }
    let digest = Sha256::digest(format!("{}\0{}", v.skill.path, rule_id(v, c)).as_bytes());
    let fingerprint: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    let mut r = json!({
        "ruleId": rule_id(v, c),
        "ruleIndex": index,
        "level": sev.sarif(),
        "kind": "fail",
        "message": {"text": cap(text, MAX_MESSAGE)},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": path_uri(&v.skill.path)},
                "region": region(c.lines[0], c.lines[1])
            }
        }],
        "partialFingerprints": {"skillgateConstraint/v1": fingerprint},
        "properties": {
            "skill": v.skill.name,
            "constraint": c.id,
            "label": c.label.as_str(),
            "outcome": c.outcome.as_str(),
            "verdict": v.verdict.as_str(),
            "check": c.check
        }
    });
    if !related.is_empty() {
        r["relatedLocations"] = Value::Array(related);
    }
    if c.outcome == Outcome::Waived {
        r["suppressions"] = json!([{
            "kind": "external",
            "status": "accepted",
            "justification": c.waiver_reason.clone().unwrap_or_default()
        }]);
    }
    if matches!(c.outcome, Outcome::CheckedByPeople | Outcome::NeedsReview)
        || (c.outcome == Outcome::Ok && c.label == Label::Unverifiable)
    {
        // SARIF §3.27.10: a kind other than `fail` has level `none`.
        r["kind"] = json!("review");
        r["level"] = json!("none");
    }
    r
}

/// The SARIF log of a run, as a JSON value.
pub fn sarif_value(verdicts: &[SkillVerdict]) -> Value {
    let mut rules = Vec::new();
    let mut results = Vec::new();
    let mut skills = Vec::new();
    let mut ntm_index = None;
    for v in verdicts {
        skills.push(json!({
            "name": v.skill.name,
            "path": v.skill.path,
            "verdict": v.verdict.as_str(),
            "flags": v.flags.iter().map(|f| f.as_str()).collect::<Vec<_>>(),
            "exitCode": v.exit_code
        }));
        for c in &v.constraints {
            let index = rules.len();
            rules.push(rule(v, c));
            // An unmeasured skill gets one nothing-to-measure result, not per-rule ones.
            if let Some(sev) = severity(c).filter(|_| !v.trajectories.valid.is_empty()) {
                results.push(result(v, c, index, sev));
            }
        }
        if v.trajectories.valid.is_empty() {
            let index = *ntm_index.get_or_insert_with(|| {
                rules.push(json!({
                    "id": NOTHING_TO_MEASURE,
                    "name": "nothing-to-measure",
                    "shortDescription": {"text": "No valid trajectory: the skill was not measured (exit 3)"},
                    "fullDescription": {"text": "No captured session loads this skill, so none of its rules could be judged: the verdict is nothing-to-measure and the exit code 3."},
                    "help": {"text": "Capture a run of an agent that loads the skill and put the transcript under the trajectory roots (default .planning/patterns)."},
                    "helpUri": help_uri("trajectories.md"),
                    "defaultConfiguration": {"level": "error"},
                    "properties": {"tags": ["skillgate"]}
                }));
                rules.len() - 1
            });
            results.push(json!({
                "ruleId": NOTHING_TO_MEASURE,
                "ruleIndex": index,
                "level": "error",
                "kind": "fail",
                "message": {"text": format!(
                    "Nothing to measure for {}: no valid trajectory ({} discarded). Verdict nothing-to-measure, exit 3: capture a run first.",
                    v.skill.name,
                    v.trajectories.discarded.len()
                )},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": path_uri(&v.skill.path)},
                    "region": {"startLine": 1}
                }}],
                "properties": {"skill": v.skill.name, "verdict": v.verdict.as_str(), "exitCode": v.exit_code}
            }));
        }
    }
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skillgate",
                "informationUri": INFORMATION_URI,
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"skills": skills}
        }]
    })
}

/// SARIF 2.1.0 (`--format sarif`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Sarif;

impl Renderer for Sarif {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        let mut s = serde_json::to_string_pretty(&sarif_value(verdicts)).unwrap_or_default();
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(path_uri("skills/a b/SKILL.md"), "skills/a%20b/SKILL.md");
        assert_eq!(path_uri("./x/é.md"), "x/%C3%A9.md");
        assert_eq!(path_uri("/abs/p#1.md"), "file:///abs/p%231.md");
        assert_eq!(path_uri("a\\b"), "a/b");
    }
}
