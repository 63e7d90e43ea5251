//! grade: execution grade and effectiveness audit (seed 003, docs/grade.md).
//!
//! A contract (YAML) lists criteria C and claims Q with machine checks; the
//! evidence boundary B is frozen from the contract's `boundary.evidence` plus
//! the `--evidence` paths. Contract paths are relative to the contract file's
//! folder. A check that names a file outside B is not read, and is
//! UNVERIFIABLE with a `missing` evidence record saying so; evidence listed in
//! B that is not on disk is missing evidence (UNVERIFIABLE, never FAIL) and is
//! reported in `limitations` and in [`Graded::warnings`]. Checks a machine
//! decides: a file exists, a file contains a regex, a SPEC §4.1 predicate over
//! a trajectory, a command's recorded exit code. Everything else is
//! UNVERIFIABLE with the missing evidence recorded. Criterion defects are
//! detected ([`feedback`]). Audit mode ([`audit`]) grades every conversation
//! and assesses skills, attribution, findings and proposals. Evidence records
//! cite locations, never trajectory content. Never prints; reads only the
//! files inside B (and, in audit mode, the SKILL.md files the contract names).

use crate::decode::{self, DecodeOptions, Trajectory};
use crate::extract::{Constraint, Modality, Predicate};
use crate::label::{self, CompiledSet, Label, ScopeStart};
use serde::{Deserialize, Serialize};
use std::path::{Component, Path, PathBuf};

mod audit;
pub mod feedback;
pub use audit::audit;

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
    /// Audit: the skills assessed (a name, or `{name, path, criteria}`).
    #[serde(default)]
    pub skills: Vec<SkillSpec>,
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
    /// Comparator arm: this conversation was run without these skills (a
    /// counterfactual probe); see docs/grade.md "Effectiveness".
    #[serde(default)]
    pub without_skills: Vec<String>,
}

/// A skill assessed in audit mode.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum SkillSpec {
    Name(String),
    Full(SkillDetail),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillDetail {
    pub name: String,
    /// Its SKILL.md (relative to the contract): read in full, its rules are
    /// labelled on each conversation by the gate's labeller.
    #[serde(default)]
    pub path: Option<String>,
    /// The criteria whose behavior this skill owns.
    #[serde(default)]
    pub criteria: Vec<String>,
}

impl SkillSpec {
    pub fn name(&self) -> &str {
        match self {
            SkillSpec::Name(n) => n,
            SkillSpec::Full(d) => &d.name,
        }
    }
    pub fn path(&self) -> Option<&str> {
        match self {
            SkillSpec::Name(_) => None,
            SkillSpec::Full(d) => d.path.as_deref(),
        }
    }
    pub fn criteria(&self) -> &[String] {
        match self {
            SkillSpec::Name(_) => &[],
            SkillSpec::Full(d) => &d.criteria,
        }
    }
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
    /// Trajectory events that decided it (for attribution; not serialized).
    #[serde(skip)]
    pub events: Vec<usize>,
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

/// `a/./b/../c` → `a/c`, without touching the file system.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// `p` normalised with symlinks followed as far as the path exists (the
/// longest existing ancestor is canonicalised, the rest appended).
pub fn real_path(p: &Path) -> PathBuf {
    // canonicalise the raw path first: `link/..` is the link target's parent
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let lexical = normalize(p);
    let mut rest = Vec::new();
    let mut cur = lexical.as_path();
    loop {
        if let Ok(c) = cur.canonicalize() {
            let mut out = c;
            for r in rest.iter().rev() {
                out.push(r);
            }
            return out;
        }
        match (cur.parent(), cur.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                cur = parent;
            }
            _ => return lexical,
        }
    }
}

/// The frozen boundary B.
#[derive(Debug, Clone)]
pub struct Boundary {
    pub spec: BoundarySpec,
    /// Listed evidence: contract paths (resolved against `base`, the contract's
    /// folder) plus `--evidence` (absolute, or resolved against `base`).
    pub included: Vec<PathBuf>,
    /// Listed evidence that is not on disk, as listed.
    pub missing_listed: Vec<String>,
    pub base: PathBuf,
}

impl Boundary {
    pub fn freeze(spec: BoundarySpec, extra: &[PathBuf], base: &Path) -> Boundary {
        let mut listed: Vec<(String, PathBuf)> = spec
            .evidence
            .iter()
            .map(|e| (e.clone(), normalize(&base.join(e))))
            .collect();
        listed.extend(
            extra
                .iter()
                .map(|e| (e.display().to_string(), normalize(&base.join(e)))),
        );
        let mut missing_listed: Vec<String> = listed
            .iter()
            .filter(|(_, p)| !p.exists())
            .map(|(s, _)| s.clone())
            .collect();
        missing_listed.dedup();
        let mut included: Vec<PathBuf> = listed.into_iter().map(|(_, p)| p).collect();
        included.sort();
        included.dedup();
        Boundary {
            spec,
            included,
            missing_listed,
            base: base.to_path_buf(),
        }
    }
    fn resolve(&self, p: &str) -> PathBuf {
        normalize(&self.base.join(p))
    }
    /// The path is listed, or lies under a listed folder. Both sides are
    /// compared normalised and with symlinks resolved, so a link out of a
    /// listed folder (or a `..` through one) is outside.
    pub fn contains(&self, p: &Path) -> bool {
        let lexical = self.included.iter().any(|i| p == i || p.starts_with(i));
        if !lexical {
            return false;
        }
        let p = real_path(p);
        self.included.iter().any(|i| {
            let i = real_path(i);
            p == i || p.starts_with(&i)
        })
    }
    /// The path is inside B but the listed entry holding it is not on disk:
    /// the evidence is missing (not inspected), so nothing can be proven absent.
    pub fn listed_but_missing(&self, p: &Path) -> bool {
        self.contains(p)
            && !self
                .included
                .iter()
                .any(|i| (p == i || p.starts_with(i)) && i.exists())
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

/// What a check established.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Some(true) pass, Some(false) fail, None unverifiable.
    pub verdict: Option<bool>,
    pub records: Vec<EvidenceRecord>,
    pub reason: String,
    /// Trajectory events that decided it.
    pub events: Vec<usize>,
}

fn outcome(verdict: Option<bool>, records: Vec<EvidenceRecord>, reason: String) -> Outcome {
    Outcome {
        verdict,
        records,
        reason,
        events: Vec::new(),
    }
}

fn unverifiable(
    location: impl Into<String>,
    observation: &str,
    reason: impl Into<String>,
) -> Outcome {
    outcome(
        None,
        vec![er("missing", "absent", location.into(), observation.into())],
        reason.into(),
    )
}

fn outside(path: &str) -> Outcome {
    unverifiable(
        path,
        "outside the frozen evidence boundary: ignored",
        format!("{path} is not in the evidence boundary, so it was not read"),
    )
}

fn missing_evidence(path: &str) -> Outcome {
    unverifiable(
        path,
        "listed evidence not found on disk: missing",
        format!(
            "{path} is listed in the evidence boundary but does not exist: the evidence is missing"
        ),
    )
}

/// The reason a path cannot be read as evidence, if any.
fn gatekeep(b: &Boundary, p: &str) -> Result<PathBuf, Outcome> {
    let abs = b.resolve(p);
    if !b.contains(&abs) {
        return Err(outside(p));
    }
    if b.listed_but_missing(&abs) {
        return Err(missing_evidence(p));
    }
    Ok(abs)
}

/// Decode a trajectory inside B.
pub fn load_traj(b: &Boundary, p: &str) -> Result<Trajectory, Outcome> {
    let abs = gatekeep(b, p)?;
    if !abs.exists() {
        return Err(missing_evidence(p));
    }
    decode::decode_path(&abs, None, &DecodeOptions::default()).map_err(|e| {
        unverifiable(
            format!("{p}:{}", e.line.unwrap_or(0)),
            "trajectory not decodable",
            format!("{p} could not be decoded"),
        )
    })
}

/// The location of a cited event.
fn event_loc(tp: &str, event: Option<usize>, line: Option<u64>) -> String {
    match (event, line) {
        (Some(e), Some(n)) => format!("{tp} event {e} (line {n})"),
        (Some(e), None) => format!("{tp} event {e}"),
        _ => tp.to_string(),
    }
}

/// Evaluate one check inside the boundary. `conv` is the audit conversation's trajectory.
pub fn evaluate(check: Option<&Check>, b: &Boundary, conv: Option<&str>) -> Outcome {
    let Some(check) = check else {
        return unverifiable(
            "contract",
            "no machine check is given",
            "no check: the criterion cannot be decided from the evidence",
        );
    };
    match check {
        Check::Manual(what) => outcome(
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
            let abs = match gatekeep(b, p) {
                Ok(a) => a,
                Err(o) => return o,
            };
            if abs.exists() {
                outcome(
                    Some(true),
                    vec![er("artifact", "supports", p.clone(), "file exists".into())],
                    format!("{p} exists"),
                )
            } else {
                outcome(
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
            let abs = match gatekeep(b, path) {
                Ok(a) => a,
                Err(o) => return o,
            };
            let re = match regex::Regex::new(pattern) {
                Ok(r) => r,
                Err(_) => {
                    return unverifiable(
                        path.clone(),
                        "the pattern is not a valid regex",
                        "invalid pattern",
                    )
                }
            };
            match crate::fsutil::read_text(&abs, crate::fsutil::MAX_DOCUMENT_BYTES) {
                Err(_) => unverifiable(
                    path.clone(),
                    "file unreadable or missing",
                    format!("{path} cannot be read"),
                ),
                Ok(text) => match text.lines().position(|l| re.is_match(l)) {
                    Some(i) => outcome(
                        Some(true),
                        vec![er(
                            "artifact",
                            "supports",
                            format!("{path}:{}", i + 1),
                            "pattern matches".into(),
                        )],
                        format!("{path} matches the pattern"),
                    ),
                    None => outcome(
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
                return unverifiable("contract", "no trajectory named", "no trajectory");
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
                    return outcome(
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
                return outcome(None, vec![], "no label".into());
            };
            let first = l
                .cited
                .first()
                .map(|ci| event_loc(tp, ci.event, ci.line))
                .unwrap_or_else(|| tp.to_string());
            let events: Vec<usize> = l.cited.iter().filter_map(|ci| ci.event).collect();
            let mut o = match l.label {
                Label::Exercised => outcome(
                    Some(true),
                    vec![er(
                        "transcript",
                        "supports",
                        first,
                        "predicate holds (action and result)".into(),
                    )],
                    "the trajectory's actions satisfy the predicate".into(),
                ),
                Label::Violated => outcome(
                    Some(false),
                    vec![er(
                        "transcript",
                        "contradicts",
                        first,
                        "predicate broken (action and result)".into(),
                    )],
                    "the trajectory's actions break the predicate".into(),
                ),
                other => outcome(
                    None,
                    vec![er(
                        "transcript",
                        "absent",
                        first,
                        format!("predicate {}", other.as_str()),
                    )],
                    format!("the trajectory leaves the predicate {}", other.as_str()),
                ),
            };
            o.events = events;
            o
        }
        Check::ExitCode {
            trajectory,
            command,
            equals,
        } => {
            let Some(tp) = trajectory.as_deref().or(conv) else {
                return unverifiable("contract", "no trajectory named", "no trajectory");
            };
            let t = match load_traj(b, tp) {
                Ok(t) => t,
                Err(o) => return o,
            };
            let glob = match globset::Glob::new(command) {
                Ok(g) => g.compile_matcher(),
                Err(_) => return unverifiable("contract", "bad command glob", "bad glob"),
            };
            let hit = t.events.iter().rev().find(|e| match &e.action {
                decode::model::Action::Shell(s) => {
                    s.commands.iter().any(|c| glob.is_match(&c.text))
                }
                _ => false,
            });
            match hit {
                None => unverifiable(
                    tp,
                    "no matching command recorded",
                    "the command was not run in this trajectory",
                ),
                Some(e) => {
                    let loc = event_loc(tp, Some(e.index), Some(e.location.line.unwrap_or(0)));
                    let mut o = match e.exit_code {
                        Some(code) if code == *equals => outcome(
                            Some(true),
                            vec![er(
                                "machine_result",
                                "supports",
                                loc,
                                format!("recorded exit code {code}"),
                            )],
                            format!("exit code {code}"),
                        ),
                        Some(code) => outcome(
                            Some(false),
                            vec![er(
                                "machine_result",
                                "contradicts",
                                loc,
                                format!("recorded exit code {code}"),
                            )],
                            format!("exit code {code}, expected {equals}"),
                        ),
                        None => unverifiable(
                            loc,
                            "no exit code recorded",
                            "the exit code was not recorded",
                        ),
                    };
                    o.events = vec![e.index];
                    o
                }
            }
        }
    }
}

/// One-line description of a check.
pub fn check_text(c: Option<&Check>) -> String {
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
            let o = evaluate(k.check.as_ref(), b, conv);
            CriterionResult {
                id: k.id.clone(),
                text: k.text.clone(),
                source: serde_json::json!({"kind": k.source.kind, "location": k.source.location, "original": k.source.original}),
                check: check_text(k.check.as_ref()),
                verdict: match o.verdict {
                    Some(true) => "PASS",
                    Some(false) => "FAIL",
                    None => "UNVERIFIABLE",
                },
                evidence: o.records.iter().map(|r| r.location.clone()).collect(),
                evidence_records: o.records,
                reason: o.reason,
                events: o.events,
            }
        })
        .collect()
}

fn claims(c: &Contract, b: &Boundary, conv: Option<&str>) -> Vec<ClaimResult> {
    c.claims
        .iter()
        .map(|q| {
            let o = evaluate(q.check.as_ref(), b, conv);
            ClaimResult {
                claim: q.claim.clone(),
                kind: q.kind.clone(),
                verdict: match o.verdict {
                    Some(true) => "VERIFIED",
                    Some(false) => "CONTRADICTED",
                    None => "UNVERIFIABLE",
                },
                evidence: o.records.iter().map(|r| r.location.clone()).collect(),
                evidence_records: o.records,
                reason: o.reason,
                consequence_if_false: q.consequence_if_false.clone(),
            }
        })
        .collect()
}

/// Missing evidence, loudly: each line also goes to [`Graded::warnings`].
fn missing_lines(b: &Boundary) -> Vec<String> {
    let mut out: Vec<String> = b
        .spec
        .missing
        .iter()
        .map(|m| format!("missing evidence: {m}"))
        .collect();
    for m in &b.missing_listed {
        out.push(format!(
            "missing evidence: {m} is listed in the evidence boundary but not found (paths are relative to the contract's folder {}); every check that needs it is UNVERIFIABLE",
            b.base.display()
        ));
    }
    out
}

fn limitations(b: &Boundary) -> Vec<String> {
    let mut out = missing_lines(b);
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
        "missing": b.spec.missing.iter().chain(b.missing_listed.iter()).collect::<Vec<_>>(),
        "environment": b.spec.environment,
        "cutoff": b.spec.cutoff,
    })
}

/// A grade: the mode's JSON and the lines a person must see (missing
/// evidence, criterion defects) — the command prints them on stderr.
#[derive(Debug, Clone)]
pub struct Graded {
    pub json: serde_json::Value,
    pub warnings: Vec<String>,
}

/// The execution grade (top-level schema of seed 003). `base` is the
/// contract's folder; `extra` are `--evidence` paths (absolute, or relative to `base`).
pub fn execution(c: &Contract, extra: &[PathBuf], base: &Path) -> Graded {
    let b = Boundary::freeze(c.boundary.clone(), extra, base);
    let cs = criteria(c, &b, None);
    let qs = claims(c, &b, None);
    let s = summarize(&cs);
    let terminal = if s.total == 0 {
        "NOT_GRADED"
    } else {
        "COMPLETE"
    };
    let fb = feedback::detect(c, &b, false);
    let mut warnings = missing_lines(&b);
    warnings.extend(fb.iter().map(feedback::Defect::line));
    let mut feedback_json: Vec<serde_json::Value> = fb.iter().map(feedback::Defect::json).collect();
    feedback_json.extend(
        c.evaluation_feedback
            .iter()
            .map(|s| serde_json::json!({"source": "contract", "detail": s})),
    );
    Graded {
        json: serde_json::json!({
            "mode": "execution_grade",
            "terminal_status": terminal,
            "boundary": boundary_json(&b),
            "expectations": cs,
            "summary": s,
            "claims": qs,
            "evaluation_feedback": feedback_json,
            "limitations": limitations(&b),
        }),
        warnings,
    }
}

/// Read and parse a contract file: a regular file of at most
/// [`crate::fsutil::MAX_CONTRACT_BYTES`], nesting bounded before parsing;
/// errors never quote the file's values.
pub fn read_contract(path: &Path) -> Result<Contract, ContractError> {
    use crate::fsutil;
    let err = |line: usize, message: String| ContractError {
        path: path.to_path_buf(),
        line,
        message,
    };
    let text = fsutil::read_text(path, fsutil::MAX_CONTRACT_BYTES).map_err(|e| {
        err(
            e.line().unwrap_or(1),
            format!("cannot read the contract: {e}"),
        )
    })?;
    if let Some((line, col)) = fsutil::yaml_too_deep(&text, fsutil::MAX_YAML_DEPTH) {
        return Err(err(
            line,
            format!(
                "`[` / `{{` nest more than {} deep (column {col}); write the values out plainly",
                fsutil::MAX_YAML_DEPTH
            ),
        ));
    }
    yaml_serde::from_str(&text).map_err(|e| {
        let msg = e.to_string();
        let msg = match msg.find(" at line ") {
            Some(i) => &msg[..i],
            None => &msg,
        };
        err(
            e.location().map_or(1, |l| l.line()),
            fsutil::redact_quotes(msg),
        )
    })
}

#[cfg(test)]
mod tests;
