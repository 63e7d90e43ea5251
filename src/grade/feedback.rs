//! `evaluation_feedback`: criterion defects found in the contract itself
//! (seed 003: "put criterion defects … and smallest stronger check in
//! `evaluation_feedback`; never alter contract or denominator"). Detected:
//! duplicate ids, duplicate checks, criteria with no evidence source (the
//! check reads nothing inside B, or evidence listed in B is missing), and
//! criteria no artifact can decide (no check, or `manual`). Every defective
//! criterion is still graded: the denominator never changes.

use super::{Boundary, Check, Contract};
use serde_json::json;

/// One criterion defect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defect {
    pub criterion: String,
    /// `duplicate`, `no_evidence_source`, `untestable`.
    pub defect: &'static str,
    pub detail: String,
    pub smallest_stronger_check: String,
}

impl Defect {
    pub fn json(&self) -> serde_json::Value {
        json!({
            "source": "detected",
            "criterion": self.criterion,
            "defect": self.defect,
            "detail": self.detail,
            "smallest_stronger_check": self.smallest_stronger_check,
        })
    }
    /// One line for people (stderr, audit limitations).
    pub fn line(&self) -> String {
        format!(
            "criterion `{}`: {} — {}; stronger: {}",
            self.criterion, self.defect, self.detail, self.smallest_stronger_check
        )
    }
}

/// The paths a check reads (files, or a named trajectory).
fn check_paths(c: &Check) -> Vec<&str> {
    match c {
        Check::FileExists(p) => vec![p.as_str()],
        Check::FileContains { path, .. } => vec![path.as_str()],
        Check::Predicate { trajectory, .. } | Check::ExitCode { trajectory, .. } => {
            trajectory.as_deref().into_iter().collect()
        }
        Check::Manual(_) => Vec::new(),
    }
}

fn reads_trajectory(c: &Check) -> bool {
    matches!(c, Check::Predicate { .. } | Check::ExitCode { .. })
}

/// Detect criterion defects. `audit`: a check without a named trajectory
/// reads each conversation's.
pub fn detect(c: &Contract, b: &Boundary, audit: bool) -> Vec<Defect> {
    let mut out = Vec::new();
    for (i, k) in c.criteria.iter().enumerate() {
        if let Some(first) = c.criteria[..i].iter().position(|o| o.id == k.id) {
            out.push(Defect {
                criterion: k.id.clone(),
                defect: "duplicate",
                detail: format!(
                    "id `{}` is used by criteria {} and {}; both are graded, so the total counts it twice",
                    k.id,
                    first + 1,
                    i + 1
                ),
                smallest_stronger_check: "give each criterion its own id, or merge the two into one".into(),
            });
        } else if let Some(k0) = k.check.as_ref().and_then(|ch| {
            let text = super::check_text(Some(ch));
            c.criteria[..i].iter().find(|o| {
                !matches!(ch, Check::Manual(_)) && super::check_text(o.check.as_ref()) == text
            })
        }) {
            out.push(Defect {
                criterion: k.id.clone(),
                defect: "duplicate",
                detail: format!("runs the same check as criterion `{}`", k0.id),
                smallest_stronger_check: "check what distinguishes the two criteria, or merge them"
                    .into(),
            });
        }
        match &k.check {
            None => out.push(Defect {
                criterion: k.id.clone(),
                defect: "untestable",
                detail: "no check: no artifact can decide it, so it is always UNVERIFIABLE".into(),
                smallest_stronger_check: suggest(&k.text),
            }),
            Some(Check::Manual(what)) => out.push(Defect {
                criterion: k.id.clone(),
                defect: "untestable",
                detail: format!(
                    "`manual` ({what}): no artifact in the boundary can decide it, so it is always UNVERIFIABLE"
                ),
                smallest_stronger_check: suggest(&k.text),
            }),
            Some(ch) => {
                let paths = check_paths(ch);
                if paths.is_empty() && reads_trajectory(ch) {
                    if !audit {
                        out.push(Defect {
                            criterion: k.id.clone(),
                            defect: "no_evidence_source",
                            detail: "the check names no trajectory, and an execution grade has no conversation to read".into(),
                            smallest_stronger_check: "name the trajectory: `trajectory: PATH` inside the boundary".into(),
                        });
                    } else if c.conversations.is_empty() {
                        out.push(Defect {
                            criterion: k.id.clone(),
                            defect: "no_evidence_source",
                            detail: "the check reads each conversation's trajectory, and the contract lists no conversation".into(),
                            smallest_stronger_check: "list the sample under `conversations:`".into(),
                        });
                    }
                }
                for p in paths {
                    let abs = b.resolve(p);
                    if !b.contains(&abs) {
                        out.push(Defect {
                            criterion: k.id.clone(),
                            defect: "no_evidence_source",
                            detail: format!("its check reads `{p}`, which is outside the evidence boundary"),
                            smallest_stronger_check: format!("add `{p}` to `boundary.evidence`, or check an artifact inside it"),
                        });
                    } else if b.listed_but_missing(&abs) || (reads_trajectory(ch) && !abs.exists()) {
                        out.push(Defect {
                            criterion: k.id.clone(),
                            defect: "no_evidence_source",
                            detail: format!("its check reads `{p}`, which is listed but not on disk"),
                            smallest_stronger_check: format!("supply `{p}` (paths are relative to the contract), or list the evidence that exists"),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The smallest machine check that could decide a criterion, from its wording.
fn suggest(text: &str) -> String {
    let path = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| "`'\"(),;:".contains(c))
                .trim_end_matches('.')
        })
        .find(|w| w.contains('/') || (w.contains('.') && w.len() > 2 && !w.ends_with('.')));
    match path {
        Some(p) => format!("`file_contains: {{path: {p}, pattern: …}}` on the artifact the criterion names"),
        None => "a `predicate` over the trajectory (the action that shows it), or `file_contains` on the artifact that records it".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_missing_sources_and_untestable_criteria_are_found() {
        let c: Contract = yaml_serde::from_str(
            r#"
boundary: {evidence: [out]}
criteria:
  - {id: a, text: "report in out/r.md", source: {kind: task_derived}, check: {file_exists: out/r.md}}
  - {id: a, text: "again", source: {kind: task_derived}, check: {file_exists: out/x.md}}
  - {id: b, text: "same check", source: {kind: task_derived}, check: {file_exists: out/r.md}}
  - {id: c, text: "outside", source: {kind: task_derived}, check: {file_exists: elsewhere.md}}
  - {id: d, text: "the reviewer agreed", source: {kind: task_derived}, check: {manual: "the reviewer's reply"}}
  - {id: e, text: "notes.md is updated", source: {kind: task_derived}}
  - {id: f, text: "no force push", source: {kind: task_derived}, check: {predicate: {forbid: {git: push}}}}
"#,
        )
        .unwrap();
        let d = tempfile::tempdir().unwrap();
        let b = Boundary::freeze(c.boundary.clone(), &[], d.path());
        let got: Vec<(String, &str)> = detect(&c, &b, false)
            .into_iter()
            .map(|d| (d.criterion, d.defect))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a".to_string(), "no_evidence_source"),
                ("a".to_string(), "duplicate"),
                ("a".to_string(), "no_evidence_source"),
                ("b".to_string(), "duplicate"),
                ("b".to_string(), "no_evidence_source"),
                ("c".to_string(), "no_evidence_source"),
                ("d".to_string(), "untestable"),
                ("e".to_string(), "untestable"),
                ("f".to_string(), "no_evidence_source"),
            ]
        );
        let e = detect(&c, &b, false)
            .into_iter()
            .find(|d| d.criterion == "e")
            .unwrap();
        assert!(e.smallest_stronger_check.contains("notes.md"), "{e:?}");
    }
}
