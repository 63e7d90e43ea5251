//! grade: execution grade and effectiveness audit (seed 003, docs/grade.md).
//!
//! A contract (YAML) lists criteria C and claims Q with machine checks; the
//! evidence boundary B is frozen from the contract's `boundary.evidence` plus
//! the `--evidence` paths: a check that names a file outside B is not read, and
//! is UNVERIFIABLE with a `missing` evidence record saying so. Checks a
//! machine decides: a file exists, a file contains a regex, a SPEC §4.1
//! predicate over a trajectory, a command's recorded exit code. Everything
//! else is UNVERIFIABLE with the missing evidence recorded. Evidence records
//! cite locations, never trajectory content. Never prints; reads only the
//! files inside B.

use crate::decode::{self, DecodeOptions, Trajectory};
use crate::extract::{Constraint, Modality, Predicate};
use crate::label::{self, CompiledSet, Label, ScopeStart};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The two modes; never both at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Execution,
    Audit,
}

/// A contract file that cannot be used (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {message}", path.display())]
pub struct ContractError {
    pub path: PathBuf,
    pub line: usize,
    pub message: String,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Contract {
    #[serde(default)]
    pub boundary: BoundarySpec,
    #[serde(default)]
    pub criteria: Vec<CriterionSpec>,
    #[serde(default)]
    pub claims: Vec<ClaimSpec>,
    /// Audit: the conversations (trajectory files) of the sample.
    #[serde(default)]
    pub conversations: Vec<ConversationSpec>,
    /// Audit: the skills assessed.
    #[serde(default)]
    pub skills: Vec<String>,
    #[serde(default)]
    pub evaluation_feedback: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct BoundarySpec {
    #[serde(default)]
    pub evidence: Vec<String>,
    #[serde(default)]
    pub excluded: Vec<String>,
    #[serde(default)]
    pub missing: Vec<String>,
    #[serde(default)]
    pub environment: String,
    #[serde(default)]
    pub cutoff: String,
    /// Audit: the sample.
    #[serde(default)]
    pub sample_scope: String,
    #[serde(default)]
    pub selection_method: String,
    #[serde(default)]
    pub time_range: String,
    #[serde(default)]
    pub fixture_boundary: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub kind: SourceKind,
    #[serde(default)]
    pub location: String,
    #[serde(default)]
    pub original: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    UserExplicit,
    TaskDerived,
    RepositoryRule,
    EnvironmentContract,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriterionSpec {
    pub id: String,
    pub text: String,
    pub source: Source,
    #[serde(default)]
    pub check: Option<Check>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimSpec {
    pub claim: String,
    #[serde(default, rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub check: Option<Check>,
    #[serde(default)]
    pub consequence_if_false: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConversationSpec {
    pub trajectory: String,
    #[serde(default)]
    pub id: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFileContains {
    path: String,
    pattern: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPredicate {
    #[serde(default)]
    trajectory: Option<String>,
    #[serde(default)]
    forbid: Option<Predicate>,
    #[serde(default)]
    require: Option<Predicate>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExit {
    #[serde(default)]
    trajectory: Option<String>,
    command: String,
    #[serde(default)]
    equals: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    #[serde(default)]
    file_exists: Option<String>,
    #[serde(default)]
    file_contains: Option<RawFileContains>,
    #[serde(default)]
    predicate: Option<RawPredicate>,
    #[serde(default)]
    exit_code: Option<RawExit>,
    #[serde(default)]
    manual: Option<String>,
}

impl TryFrom<RawCheck> for Check {
    type Error = String;
    fn try_from(r: RawCheck) -> Result<Check, String> {
        let n = usize::from(r.file_exists.is_some())
            + usize::from(r.file_contains.is_some())
            + usize::from(r.predicate.is_some())
            + usize::from(r.exit_code.is_some())
            + usize::from(r.manual.is_some());
        if n != 1 {
            return Err("a check has exactly one of file_exists, file_contains, predicate, exit_code, manual".into());
        }
        Ok(if let Some(p) = r.file_exists {
            Check::FileExists(p)
        } else if let Some(f) = r.file_contains {
            Check::FileContains {
                path: f.path,
                pattern: f.pattern,
            }
        } else if let Some(p) = r.predicate {
            if p.forbid.is_some() == p.require.is_some() {
                return Err("a predicate check has exactly one of forbid, require".into());
            }
            Check::Predicate {
                trajectory: p.trajectory,
                forbid: p.forbid,
                require: p.require,
            }
        } else if let Some(e) = r.exit_code {
            Check::ExitCode {
                trajectory: e.trajectory,
                command: e.command,
                equals: e.equals,
            }
        } else {
            Check::Manual(r.manual.unwrap_or_default())
        })
    }
}

/// A machine check (one key).
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "RawCheck")]
pub enum Check {
    FileExists(String),
    FileContains {
        path: String,
        pattern: String,
    },
    /// A SPEC §4.1 predicate over a trajectory (`forbid` or `require`).
    /// In audit mode `trajectory` may be omitted: the conversation's own.
    Predicate {
        trajectory: Option<String>,
        forbid: Option<Predicate>,
        require: Option<Predicate>,
    },
    /// The recorded exit code of the last command matching `command` (glob).
    ExitCode {
        trajectory: Option<String>,
        command: String,
        equals: i64,
    },
    /// Not machine-decidable: what evidence would decide it.
    Manual(String),
}

/// ER.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceRecord {
    pub kind: &'static str,
    pub relation: &'static str,
    pub location: String,
    pub observation: String,
}

/// C.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CriterionResult {
    pub id: String,
    pub text: String,
    pub source: serde_json::Value,
    pub check: String,
    pub verdict: &'static str,
    pub evidence: Vec<String>,
    pub evidence_records: Vec<EvidenceRecord>,
    pub reason: String,
}

/// Q.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimResult {
    pub claim: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub verdict: &'static str,
    pub evidence: Vec<String>,
    pub evidence_records: Vec<EvidenceRecord>,
    pub reason: String,
    pub consequence_if_false: String,
}

/// The reducer's summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub unverifiable: usize,
    pub total: usize,
    pub pass_rate: Option<f64>,
    pub verified_rate: Option<f64>,
}

/// summary = {p, f, u, t, p/t, (p+f)/t} (null rates when t = 0).
pub fn summarize(results: &[CriterionResult]) -> Summary {
    let p = results.iter().filter(|r| r.verdict == "PASS").count();
    let f = results.iter().filter(|r| r.verdict == "FAIL").count();
    let u = results
        .iter()
        .filter(|r| r.verdict == "UNVERIFIABLE")
        .count();
    let t = p + f + u;
    Summary {
        passed: p,
        failed: f,
        unverifiable: u,
        total: t,
        pass_rate: (t > 0).then(|| p as f64 / t as f64),
        verified_rate: (t > 0).then(|| (p + f) as f64 / t as f64),
    }
}

/// The conversation verdict of a summary.
pub fn conversation_verdict(s: &Summary) -> &'static str {
    if s.failed > 0 {
        "FAIL"
    } else if s.unverifiable > 0 {
        "UNVERIFIABLE"
    } else if s.total > 0 {
        "PASS"
    } else {
        "NOT_GRADED"
    }
}

/// The frozen boundary B.
#[derive(Debug, Clone)]
pub struct Boundary {
    pub spec: BoundarySpec,
    /// Listed evidence: contract paths plus `--evidence`, resolved against `base`.
    pub included: Vec<PathBuf>,
    pub base: PathBuf,
}

impl Boundary {
    pub fn freeze(spec: BoundarySpec, extra: &[PathBuf], base: &Path) -> Boundary {
        let mut included: Vec<PathBuf> = spec.evidence.iter().map(|e| base.join(e)).collect();
        included.extend(extra.iter().map(|e| base.join(e)));
        included.sort();
        included.dedup();
        Boundary {
            spec,
            included,
            base: base.to_path_buf(),
        }
    }
    fn resolve(&self, p: &str) -> PathBuf {
        self.base.join(p)
    }
    /// The path is listed, or lies under a listed folder.
    pub fn contains(&self, p: &Path) -> bool {
        self.included.iter().any(|i| p == i || p.starts_with(i))
    }
}

fn er(
    kind: &'static str,
    relation: &'static str,
    location: String,
    observation: String,
) -> EvidenceRecord {
    EvidenceRecord {
        kind,
        relation,
        location,
        observation,
    }
}

/// (verdict: Some(true) pass, Some(false) fail, None unverifiable; records; reason)
type Outcome = (Option<bool>, Vec<EvidenceRecord>, String);

fn outside(path: &str) -> Outcome {
    (
        None,
        vec![er(
            "missing",
            "absent",
            path.to_string(),
            "outside the frozen evidence boundary: ignored".into(),
        )],
        format!("{path} is not in the evidence boundary, so it was not read"),
    )
}

fn load_traj(b: &Boundary, p: &str) -> Result<Trajectory, Outcome> {
    let abs = b.resolve(p);
    if !b.contains(&abs) {
        return Err(outside(p));
    }
    decode::decode_path(&abs, None, &DecodeOptions::default()).map_err(|e| {
        (
            None,
            vec![er(
                "missing",
                "absent",
                format!("{p}:{}", e.line.unwrap_or(0)),
                "trajectory not decodable".into(),
            )],
            format!("{p} could not be decoded"),
        )
    })
}

/// Evaluate one check inside the boundary. `conv` is the audit conversation's trajectory.
pub fn evaluate(check: Option<&Check>, b: &Boundary, conv: Option<&str>) -> Outcome {
    let Some(check) = check else {
        return (
            None,
            vec![er(
                "missing",
                "absent",
                "contract".into(),
                "no machine check is given".into(),
            )],
            "no check: the criterion cannot be decided from the evidence".into(),
        );
    };
    match check {
        Check::Manual(what) => (
            None,
            vec![er(
                "missing",
                "absent",
                "contract".into(),
                format!("needs: {what}"),
            )],
            "not machine-decidable; the evidence that would decide it is recorded".into(),
        ),
        Check::FileExists(p) => {
            let abs = b.resolve(p);
            if !b.contains(&abs) {
                return outside(p);
            }
            if abs.exists() {
                (
                    Some(true),
                    vec![er("artifact", "supports", p.clone(), "file exists".into())],
                    format!("{p} exists"),
                )
            } else {
                (
                    Some(false),
                    vec![er(
                        "artifact",
                        "contradicts",
                        p.clone(),
                        "file does not exist (inspected)".into(),
                    )],
                    format!("{p} does not exist"),
                )
            }
        }
        Check::FileContains { path, pattern } => {
            let abs = b.resolve(path);
            if !b.contains(&abs) {
                return outside(path);
            }
            let re = match regex::Regex::new(pattern) {
                Ok(r) => r,
                Err(_) => {
                    return (
                        None,
                        vec![er(
                            "missing",
                            "absent",
                            path.clone(),
                            "the pattern is not a valid regex".into(),
                        )],
                        "invalid pattern".into(),
                    )
                }
            };
            match std::fs::read_to_string(&abs) {
                Err(_) => (
                    None,
                    vec![er(
                        "missing",
                        "absent",
                        path.clone(),
                        "file unreadable or missing".into(),
                    )],
                    format!("{path} cannot be read"),
                ),
                Ok(text) => match text.lines().position(|l| re.is_match(l)) {
                    Some(i) => (
                        Some(true),
                        vec![er(
                            "artifact",
                            "supports",
                            format!("{path}:{}", i + 1),
                            "pattern matches".into(),
                        )],
                        format!("{path} matches the pattern"),
                    ),
                    None => (
                        Some(false),
                        vec![er(
                            "artifact",
                            "contradicts",
                            path.clone(),
                            "pattern matches no line (whole file inspected)".into(),
                        )],
                        format!("{path} does not match the pattern"),
                    ),
                },
            }
        }
        Check::Predicate {
            trajectory,
            forbid,
            require,
        } => {
            let Some(tp) = trajectory.as_deref().or(conv) else {
                return (
                    None,
                    vec![er(
                        "missing",
                        "absent",
                        "contract".into(),
                        "no trajectory named".into(),
                    )],
                    "no trajectory".into(),
                );
            };
            let t = match load_traj(b, tp) {
                Ok(t) => t,
                Err(o) => return o,
            };
            let c = Constraint {
                id: "check".into(),
                text: "check".into(),
                lines: [1, 1],
                modality: if forbid.is_some() {
                    Modality::MustNot
                } else {
                    Modality::Must
                },
                scope: vec![],
                when: None,
                require: require.clone(),
                forbid: forbid.clone(),
                order: None,
                manual: None,
            };
            let set = match CompiledSet::compile(std::slice::from_ref(&c)) {
                Ok(s) => s,
                Err(e) => {
                    return (
                        None,
                        vec![er(
                            "missing",
                            "absent",
                            "contract".into(),
                            format!("predicate does not compile: {e}"),
                        )],
                        "bad predicate".into(),
                    )
                }
            };
            let l = label::label_trajectory(&set, &t, ScopeStart { load: None });
            let Some(l) = l.into_iter().next() else {
                return (None, vec![], "no label".into());
            };
            let loc = |ci: &label::Cited| match (ci.event, ci.line) {
                (Some(e), Some(n)) => format!("{tp} event {e} (line {n})"),
                (Some(e), None) => format!("{tp} event {e}"),
                _ => tp.to_string(),
            };
            let locs: Vec<String> = l.cited.iter().map(loc).collect();
            let first = locs.first().cloned().unwrap_or_else(|| tp.to_string());
            match l.label {
                Label::Exercised => (
                    Some(true),
                    vec![er(
                        "transcript",
                        "supports",
                        first,
                        "predicate holds (action and result)".into(),
                    )],
                    "the trajectory's actions satisfy the predicate".into(),
                ),
                Label::Violated => (
                    Some(false),
                    vec![er(
                        "transcript",
                        "contradicts",
                        first,
                        "predicate broken (action and result)".into(),
                    )],
                    "the trajectory's actions break the predicate".into(),
                ),
                other => (
                    None,
                    vec![er(
                        "transcript",
                        "absent",
                        first,
                        format!("predicate {}", other.as_str()),
                    )],
                    format!("the trajectory leaves the predicate {}", other.as_str()),
                ),
            }
        }
        Check::ExitCode {
            trajectory,
            command,
            equals,
        } => {
            let Some(tp) = trajectory.as_deref().or(conv) else {
                return (
                    None,
                    vec![er(
                        "missing",
                        "absent",
                        "contract".into(),
                        "no trajectory named".into(),
                    )],
                    "no trajectory".into(),
                );
            };
            let t = match load_traj(b, tp) {
                Ok(t) => t,
                Err(o) => return o,
            };
            let glob = match globset::Glob::new(command) {
                Ok(g) => g.compile_matcher(),
                Err(_) => {
                    return (
                        None,
                        vec![er(
                            "missing",
                            "absent",
                            "contract".into(),
                            "bad command glob".into(),
                        )],
                        "bad glob".into(),
                    )
                }
            };
            let hit = t.events.iter().rev().find(|e| match &e.action {
                decode::model::Action::Shell(s) => {
                    s.commands.iter().any(|c| glob.is_match(&c.text))
                }
                _ => false,
            });
            match hit {
                None => (
                    None,
                    vec![er(
                        "missing",
                        "absent",
                        tp.to_string(),
                        "no matching command recorded".into(),
                    )],
                    "the command was not run in this trajectory".into(),
                ),
                Some(e) => {
                    let loc = format!(
                        "{tp} event {} (line {})",
                        e.index,
                        e.location.line.unwrap_or(0)
                    );
                    match e.exit_code {
                        Some(code) if code == *equals => (
                            Some(true),
                            vec![er(
                                "machine_result",
                                "supports",
                                loc,
                                format!("recorded exit code {code}"),
                            )],
                            format!("exit code {code}"),
                        ),
                        Some(code) => (
                            Some(false),
                            vec![er(
                                "machine_result",
                                "contradicts",
                                loc,
                                format!("recorded exit code {code}"),
                            )],
                            format!("exit code {code}, expected {equals}"),
                        ),
                        None => (
                            None,
                            vec![er("missing", "absent", loc, "no exit code recorded".into())],
                            "the exit code was not recorded".into(),
                        ),
                    }
                }
            }
        }
    }
}

fn check_text(c: Option<&Check>) -> String {
    match c {
        None => "none".into(),
        Some(Check::FileExists(p)) => format!("file_exists {p}"),
        Some(Check::FileContains { path, pattern }) => format!("file_contains {path} /{pattern}/"),
        Some(Check::Predicate {
            forbid, require, ..
        }) => match (forbid, require) {
            (Some(p), _) => format!(
                "predicate forbid {}",
                crate::extract::lockfile::predicate_flow(p)
            ),
            (_, Some(p)) => format!(
                "predicate require {}",
                crate::extract::lockfile::predicate_flow(p)
            ),
            _ => "predicate (empty)".into(),
        },
        Some(Check::ExitCode {
            command, equals, ..
        }) => format!("exit_code {command} == {equals}"),
        Some(Check::Manual(m)) => format!("manual: {m}"),
    }
}

fn criteria(c: &Contract, b: &Boundary, conv: Option<&str>) -> Vec<CriterionResult> {
    c.criteria
        .iter()
        .map(|k| {
            let (v, records, reason) = evaluate(k.check.as_ref(), b, conv);
            CriterionResult {
                id: k.id.clone(),
                text: k.text.clone(),
                source: serde_json::json!({"kind": k.source.kind, "location": k.source.location, "original": k.source.original}),
                check: check_text(k.check.as_ref()),
                verdict: match v {
                    Some(true) => "PASS",
                    Some(false) => "FAIL",
                    None => "UNVERIFIABLE",
                },
                evidence: records.iter().map(|r| r.location.clone()).collect(),
                evidence_records: records,
                reason,
            }
        })
        .collect()
}

fn claims(c: &Contract, b: &Boundary, conv: Option<&str>) -> Vec<ClaimResult> {
    c.claims
        .iter()
        .map(|q| {
            let (v, records, reason) = evaluate(q.check.as_ref(), b, conv);
            ClaimResult {
                claim: q.claim.clone(),
                kind: q.kind.clone(),
                verdict: match v {
                    Some(true) => "VERIFIED",
                    Some(false) => "CONTRADICTED",
                    None => "UNVERIFIABLE",
                },
                evidence: records.iter().map(|r| r.location.clone()).collect(),
                evidence_records: records,
                reason,
                consequence_if_false: q.consequence_if_false.clone(),
            }
        })
        .collect()
}

fn limitations(b: &Boundary, extra: &[PathBuf]) -> Vec<String> {
    let mut out: Vec<String> = b
        .spec
        .missing
        .iter()
        .map(|m| format!("missing evidence: {m}"))
        .collect();
    for e in extra {
        if !b.base.join(e).exists() {
            out.push(format!("listed evidence not found: {}", e.display()));
        }
    }
    out.push(
        "evidence outside the frozen boundary is ignored; post-run checks prove only current state"
            .into(),
    );
    out
}

fn boundary_json(b: &Boundary) -> serde_json::Value {
    serde_json::json!({
        "included": b.spec.evidence,
        "excluded": b.spec.excluded,
        "evidence": b.included.iter().map(|p| crate::gate::display_path(p, &b.base)).collect::<Vec<_>>(),
        "missing": b.spec.missing,
        "environment": b.spec.environment,
        "cutoff": b.spec.cutoff,
    })
}

/// The execution grade (top-level schema of seed 003).
pub fn execution(c: &Contract, extra: &[PathBuf], base: &Path) -> serde_json::Value {
    let b = Boundary::freeze(c.boundary.clone(), extra, base);
    let cs = criteria(c, &b, None);
    let qs = claims(c, &b, None);
    let s = summarize(&cs);
    let terminal = if s.total == 0 {
        "NOT_GRADED"
    } else {
        "COMPLETE"
    };
    serde_json::json!({
        "mode": "execution_grade",
        "terminal_status": terminal,
        "boundary": boundary_json(&b),
        "expectations": cs,
        "summary": s,
        "claims": qs,
        "evaluation_feedback": c.evaluation_feedback,
        "limitations": limitations(&b, extra),
    })
}

/// The effectiveness audit (top-level schema of seed 003).
pub fn audit(c: &Contract, extra: &[PathBuf], base: &Path) -> serde_json::Value {
    let b = Boundary::freeze(c.boundary.clone(), extra, base);
    let sample_defined = !b.spec.selection_method.trim().is_empty()
        && (!b.spec.time_range.trim().is_empty() || !b.spec.fixture_boundary.trim().is_empty());
    let mut conversations = Vec::new();
    let (mut p, mut f, mut u, mut n) = (0, 0, 0, 0);
    let mut included = Vec::new();
    let mut excluded = Vec::new();
    if sample_defined {
        for conv in &c.conversations {
            let abs = b.resolve(&conv.trajectory);
            if !b.contains(&abs) {
                excluded.push(serde_json::json!({"id": conv.trajectory, "reason": "outside the frozen evidence boundary: ignored"}));
                continue;
            }
            included.push(conv.trajectory.clone());
            let cs = criteria(c, &b, Some(&conv.trajectory));
            let qs = claims(c, &b, Some(&conv.trajectory));
            let s = summarize(&cs);
            let v = conversation_verdict(&s);
            match v {
                "PASS" => p += 1,
                "FAIL" => f += 1,
                "UNVERIFIABLE" => u += 1,
                _ => n += 1,
            }
            let traj = decode::decode_path(&abs, None, &DecodeOptions::default()).ok();
            let detected: Vec<String> = c
                .skills
                .iter()
                .filter(|s| {
                    traj.as_ref()
                        .is_some_and(|t| decode::skills::first_load(t, s).is_some())
                })
                .cloned()
                .collect();
            let assessment: Vec<serde_json::Value> = c
                .skills
                .iter()
                .map(|s| {
                    let act = match &traj {
                        None => "unverifiable",
                        Some(_) if detected.contains(s) => "detected",
                        Some(_) => "not_detected",
                    };
                    serde_json::json!({
                        "skill": s,
                        "relevance": "uncertain",
                        "activation": act,
                        "adherence": "unverifiable",
                        "attribution": "uncertain",
                        "evidence": [conv.trajectory],
                        "reason": "relevance, adherence and attribution need the conversation's task and a comparator, which actions alone do not give",
                    })
                })
                .collect();
            conversations.push(serde_json::json!({
                "id": conv.id.clone().unwrap_or_else(|| conv.trajectory.clone()),
                "trajectory": conv.trajectory,
                "expectations": cs,
                "summary": s,
                "verdict": v,
                "claims": qs,
                "skill_sets": {"relevant": [], "detected": detected, "missed_applicable": []},
                "assessment": assessment,
            }));
        }
    }
    let total = p + f + u + n;
    let terminal = if !sample_defined {
        "INCONCLUSIVE"
    } else if c.criteria.is_empty() {
        "NOT_GRADED"
    } else {
        "COMPLETE"
    };
    let effectiveness: Vec<serde_json::Value> = if terminal == "INCONCLUSIVE" {
        Vec::new()
    } else {
        c.skills
            .iter()
            .map(|s| serde_json::json!({"skill": s, "value": "inconclusive", "evidence": included, "rationale": "no attribution is verified and no comparator was supplied"}))
            .collect()
    };
    let mut lim = limitations(&b, extra);
    if !sample_defined {
        lim.push("sample boundary undefined (selection_method and time_range or fixture_boundary are required): no effectiveness or representativeness claim".into());
    }
    serde_json::json!({
        "mode": "effectiveness_audit",
        "terminal_status": terminal,
        "sample": {
            "conversations_analyzed": conversations.len(),
            "time_range": if b.spec.time_range.is_empty() { b.spec.fixture_boundary.clone() } else { b.spec.time_range.clone() },
            "selection_method": b.spec.selection_method,
            "included": included,
            "excluded": excluded,
            "limitations": lim,
        },
        "conversations": conversations,
        "results": {"passed": p, "failed": f, "unverifiable": u, "not_graded": n, "total": total},
        "effectiveness": effectiveness,
        "findings": [],
        "proposals": [],
    })
}

/// Read and parse a contract file.
pub fn read_contract(path: &Path) -> Result<Contract, ContractError> {
    let text = std::fs::read_to_string(path).map_err(|e| ContractError {
        path: path.to_path_buf(),
        line: 1,
        message: format!("cannot read the contract: {e}"),
    })?;
    yaml_serde::from_str(&text).map_err(|e| ContractError {
        path: path.to_path_buf(),
        line: e.location().map_or(1, |l| l.line()),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests;
