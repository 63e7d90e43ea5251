//! The effectiveness audit (seed 003, mode A): every conversation is graded
//! (criteria, claims, summary, verdict), each listed skill is assessed in it
//! (relevance, activation, adherence, attribution), failures become findings,
//! effectiveness is decided per skill, and a proposal is emitted only when
//! the seed's `proposal_allowed` holds. The rules are in docs/grade.md
//! ("Audit mode"); every value cites locations, never trajectory content.

use super::{
    claims, conversation_verdict, criteria, feedback, limitations, missing_lines, summarize,
    Boundary, Check, ClaimResult, Contract, CriterionResult, Graded, SkillSpec, SourceKind,
};
use crate::decode::{self, DecodeOptions, Trajectory};
use crate::extract::lexicon::Lexicon;
use crate::label::{self, Cite, CompiledSet, Label, ScopeStart, TrajectoryLabel};
use crate::parse::Skill;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A skill's SKILL.md, read in full, with its rules compiled.
struct SkillRules {
    /// For the patch header: relative to the repository root holding it, else as written.
    path: String,
    text: String,
    ids: Vec<String>,
    set: CompiledSet,
}

fn read_skill(b: &Boundary, spec: &SkillSpec) -> Result<Option<SkillRules>, String> {
    let Some(p) = spec.path() else {
        return Ok(None);
    };
    let abs = b.resolve(p);
    let skill = Skill::read(&abs).map_err(|e| format!("skill `{}`: {e}", spec.name()))?;
    let loaded = crate::extract::load_constraints(&skill, &Lexicon::builtin())
        .map_err(|e| format!("skill `{}`: {e}", spec.name()))?;
    let set = CompiledSet::compile(&loaded.constraints)
        .map_err(|e| format!("skill `{}`: {e}", spec.name()))?;
    let shown = crate::gate::repo_root(abs.parent().unwrap_or(&abs))
        .and_then(|root| abs.strip_prefix(&root).ok().map(Path::to_path_buf))
        .map(|r| r.to_string_lossy().replace('\\', "/"))
        .unwrap_or_else(|| p.to_string());
    Ok(Some(SkillRules {
        path: shown,
        text: skill.source.clone(),
        ids: loaded.constraints.iter().map(|c| c.id.clone()).collect(),
        set,
    }))
}

/// Why a governed criterion failed, as far as the evidence links it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// No skill rule covers the failing action: the instruction is missing.
    Gap,
    /// A skill rule was followed at the failing action: the instruction is wrong.
    Wrong,
    /// A skill rule was broken at the failing action: the skill already has it.
    Deviation,
}

/// One skill in one conversation.
struct Assessed {
    json: Value,
    relevant: bool,
    detected: bool,
    /// (criterion id, cause) for each governed criterion that failed with a traced cause.
    causes: Vec<(String, Cause)>,
}

fn loc(tp: &str, t: &Trajectory, ev: usize) -> String {
    match t.events.get(ev).and_then(|e| e.location.line) {
        Some(l) => format!("{tp} event {ev} (line {l})"),
        None => format!("{tp} event {ev}"),
    }
}

fn fired(l: &TrajectoryLabel) -> bool {
    matches!(
        l.label,
        Label::Exercised | Label::Violated | Label::Ambiguous
    )
}

fn assess(
    spec: &SkillSpec,
    rules: Option<&SkillRules>,
    tp: &str,
    traj: Option<&Trajectory>,
    cs: &[CriterionResult],
) -> Assessed {
    let name = spec.name();
    let mut evidence: Vec<String> = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    let Some(t) = traj else {
        return Assessed {
            json: json!({
                "skill": name, "relevance": "uncertain", "activation": "unverifiable",
                "adherence": "unverifiable", "attribution": "uncertain",
                "evidence": [tp], "reason": "the conversation's trajectory could not be decoded",
            }),
            relevant: false,
            detected: false,
            causes: Vec::new(),
        };
    };
    let load = crate::gate::first_load(t, name);
    let detected = load.is_some();
    match load.and_then(|l| l.index) {
        Some(i) => evidence.push(loc(tp, t, i)),
        None if detected => evidence.push(format!("{tp} (session-retro loaded_skills)")),
        None => {}
    }
    // The skill's own rules, labelled from its load. A skill that was not
    // loaded has no rules in effect: whether it applied is then read only
    // from the criteria it owns (its trigger is prose no action decides).
    let labels: Option<Vec<TrajectoryLabel>> = rules.filter(|_| detected).map(|r| {
        label::label_trajectory(
            &r.set,
            t,
            ScopeStart {
                load: load.and_then(|l| l.index),
            },
        )
    });
    let governed: Vec<&CriterionResult> = cs
        .iter()
        .filter(|c| spec.criteria().contains(&c.id))
        .collect();
    let governed_decided = governed.iter().any(|c| c.verdict != "UNVERIFIABLE");
    let rules_fired = labels.as_ref().is_some_and(|ls| ls.iter().any(fired));
    let relevance = if rules_fired || governed_decided {
        if rules_fired {
            reasons.push("a rule of the skill applied in this conversation".into());
        }
        if governed_decided {
            reasons.push("a criterion the skill owns was decided here".into());
        }
        "relevant"
    } else if labels.is_some() && governed.iter().all(|c| c.verdict == "UNVERIFIABLE") {
        reasons
            .push("none of the skill's rules applied and no criterion it owns was decided".into());
        "not_relevant"
    } else if !detected {
        reasons.push("the skill was not loaded and no criterion it owns was decided".into());
        "uncertain"
    } else {
        reasons.push("no SKILL.md path and no owned criterion decides relevance".into());
        "uncertain"
    };
    let activation = if detected { "detected" } else { "not_detected" };
    let adherence = if relevance == "not_relevant" || !detected {
        "not_applicable"
    } else {
        match &labels {
            None => "unverifiable",
            Some(ls) if ls.iter().any(|l| l.label == Label::Violated) => "deviated",
            Some(ls) if ls.iter().any(|l| l.label == Label::Ambiguous) => "unverifiable",
            Some(ls) if ls.iter().any(|l| l.label == Label::Exercised) => "followed",
            Some(_) => "unverifiable",
        }
    };
    if let (Some(ls), Some(r)) = (&labels, rules) {
        for (l, id) in ls.iter().zip(&r.ids) {
            if l.label == Label::Violated {
                reasons.push(format!("skill rule `{id}` was violated"));
                evidence.extend(
                    l.cited
                        .iter()
                        .filter_map(|c| c.event)
                        .map(|e| loc(tp, t, e)),
                );
            }
        }
    }
    // Attribution: trace a failed owned criterion to the action that failed
    // it, then to the skill rule (or its absence) at that action.
    let mut causes = Vec::new();
    let attribution = if relevance == "not_relevant" {
        "not_skill_caused"
    } else {
        let failed: Vec<&&CriterionResult> =
            governed.iter().filter(|c| c.verdict == "FAIL").collect();
        for c in &failed {
            evidence.extend(c.evidence.iter().cloned());
        }
        match (&labels, detected) {
            (Some(ls), true) if !failed.is_empty() => {
                let mut any_unknown = false;
                for c in &failed {
                    if c.events.is_empty() {
                        any_unknown = true;
                        continue;
                    }
                    let at = |want: Label, required: bool| {
                        ls.iter().any(|l| {
                            l.label == want
                                && l.cited.iter().any(|ci| {
                                    ci.event.is_some_and(|e| c.events.contains(&e))
                                        && (!required || ci.why == Cite::RequireMatched)
                                })
                        })
                    };
                    let cause = if at(Label::Violated, false) {
                        Cause::Deviation
                    } else if at(Label::Exercised, true) {
                        Cause::Wrong
                    } else {
                        Cause::Gap
                    };
                    reasons.push(match cause {
                        Cause::Deviation => format!("criterion `{}` failed at an action where the agent broke a rule the skill already has", c.id),
                        Cause::Wrong => format!("criterion `{}` failed at an action a skill rule led to", c.id),
                        Cause::Gap => format!("criterion `{}` failed at an action no rule of the loaded skill covers", c.id),
                    });
                    causes.push((c.id.clone(), cause));
                }
                if any_unknown {
                    "uncertain"
                } else if causes.iter().any(|(_, c)| *c != Cause::Deviation) {
                    "verified"
                } else {
                    "not_skill_caused"
                }
            }
            (_, false) if !failed.is_empty() => {
                reasons.push("the skill was not loaded, so its rules could not cause the failure; a missed trigger is listed in missed_applicable".into());
                "uncertain"
            }
            (None, true) if !failed.is_empty() => {
                reasons.push(
                    "without the skill's SKILL.md the failing action cannot be traced to a rule"
                        .into(),
                );
                "uncertain"
            }
            _ => {
                reasons.push("no failure of an owned criterion to attribute, and an effect needs a comparator".into());
                "uncertain"
            }
        }
    };
    evidence.dedup();
    if evidence.is_empty() {
        evidence.push(tp.to_string());
    }
    Assessed {
        json: json!({
            "skill": name,
            "relevance": relevance,
            "activation": activation,
            "adherence": adherence,
            "attribution": attribution,
            "evidence": evidence,
            "reason": reasons.join("; "),
        }),
        relevant: relevance == "relevant",
        detected,
        causes,
    }
}

fn severity_of(kind: SourceKind) -> &'static str {
    match kind {
        SourceKind::UserExplicit | SourceKind::RepositoryRule | SourceKind::EnvironmentContract => {
            "high"
        }
        SourceKind::TaskDerived => "medium",
    }
}

fn findings_of(
    c: &Contract,
    conv_id: &str,
    cs: &[CriterionResult],
    qs: &[ClaimResult],
) -> Vec<Value> {
    let mut out = Vec::new();
    for r in cs.iter().filter(|r| r.verdict == "FAIL") {
        let kind = c
            .criteria
            .iter()
            .find(|k| k.id == r.id)
            .map_or(SourceKind::TaskDerived, |k| k.source.kind);
        out.push(json!({
            "conversation": conv_id,
            "type": "contract_failure",
            "criterion": r.id,
            "severity": severity_of(kind),
            "evidence": r.evidence,
            "evidence_records": r.evidence_records,
            "reason": r.reason,
        }));
    }
    for q in qs.iter().filter(|q| q.verdict == "CONTRADICTED") {
        out.push(json!({
            "conversation": conv_id,
            "type": "unsupported_claim",
            "claim": q.claim,
            "severity": if q.consequence_if_false.trim().is_empty() { "medium" } else { "high" },
            "consequence_if_false": q.consequence_if_false,
            "evidence": q.evidence,
            "evidence_records": q.evidence_records,
            "reason": q.reason,
        }));
    }
    out
}

/// The effectiveness audit (top-level schema of seed 003). `base` is the
/// contract's folder; `extra` are `--evidence` paths.
pub fn audit(c: &Contract, extra: &[PathBuf], base: &Path) -> Graded {
    let b = Boundary::freeze(c.boundary.clone(), extra, base);
    let sample_defined = !b.spec.selection_method.trim().is_empty()
        && (!b.spec.time_range.trim().is_empty() || !b.spec.fixture_boundary.trim().is_empty());
    let mut warnings = missing_lines(&b);
    let mut lim = limitations(&b);
    let defects = feedback::detect(c, &b, true);
    for d in &defects {
        warnings.push(d.line());
        lim.push(format!("evaluation feedback: {}", d.line()));
    }
    let mut skill_rules: Vec<Option<SkillRules>> = Vec::new();
    for s in &c.skills {
        match read_skill(&b, s) {
            Ok(r) => skill_rules.push(r),
            Err(e) => {
                let line = format!("missing evidence: {e}; its rules are not assessed");
                warnings.push(line.clone());
                lim.push(line);
                skill_rules.push(None);
            }
        }
    }
    let mut conversations = Vec::new();
    let (mut p, mut f, mut u, mut n) = (0, 0, 0, 0);
    let mut included = Vec::new();
    let mut excluded = Vec::new();
    let mut findings = Vec::new();
    let mut per_skill: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    for conv in &c.conversations {
        let abs = b.resolve(&conv.trajectory);
        if !b.contains(&abs) {
            excluded.push(json!({"id": conv.trajectory, "reason": "outside the frozen evidence boundary: ignored"}));
            continue;
        }
        let id = conv.id.clone().unwrap_or_else(|| conv.trajectory.clone());
        included.push(conv.trajectory.clone());
        if !abs.exists() {
            let line = format!(
                "missing evidence: conversation {} is not found (paths are relative to the contract's folder); its criteria are UNVERIFIABLE",
                conv.trajectory
            );
            warnings.push(line.clone());
            lim.push(line);
        }
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
        let mut relevant = Vec::new();
        let mut detected = Vec::new();
        let mut missed = Vec::new();
        let mut assessment = Vec::new();
        for (spec, rules) in c.skills.iter().zip(&skill_rules) {
            let a = assess(spec, rules.as_ref(), &conv.trajectory, traj.as_ref(), &cs);
            if a.relevant {
                relevant.push(spec.name().to_string());
            }
            if a.detected {
                detected.push(spec.name().to_string());
            }
            if a.relevant && !a.detected {
                missed.push(spec.name().to_string());
            }
            per_skill.entry(spec.name().to_string()).or_default().push((
                id.clone(),
                v,
                a.detected,
                conv.without_skills.iter().any(|w| w == spec.name()),
                a.causes.clone(),
            ));
            assessment.push(a.json);
        }
        findings.extend(findings_of(c, &id, &cs, &qs));
        conversations.push(json!({
            "id": id,
            "trajectory": conv.trajectory,
            "expectations": cs,
            "summary": s,
            "verdict": v,
            "claims": qs,
            "skill_sets": {"relevant": relevant, "detected": detected, "missed_applicable": missed},
            "assessment": assessment,
        }));
    }
    let total = p + f + u + n;
    let terminal = if !sample_defined {
        "INCONCLUSIVE"
    } else if c.criteria.is_empty() {
        "NOT_GRADED"
    } else {
        "COMPLETE"
    };
    let mut effectiveness = Vec::new();
    let mut proposals = Vec::new();
    if terminal == "INCONCLUSIVE" {
        let line = format!(
            "INCONCLUSIVE: the sample boundary is undefined (selection_method and time_range or fixture_boundary are required); {} conversation(s) were graded and are reported, but no effectiveness or representativeness claim and no proposal is made",
            conversations.len()
        );
        warnings.push(line.clone());
        lim.push(line);
    } else {
        for (spec, rules) in c.skills.iter().zip(&skill_rules) {
            let rows = per_skill.get(spec.name()).cloned().unwrap_or_default();
            effectiveness.push(effect(spec.name(), &rows));
            if terminal == "COMPLETE" {
                proposals.extend(proposal(c, spec, rules.as_ref(), &rows));
            }
        }
    }
    Graded {
        json: json!({
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
            "findings": findings,
            "proposals": proposals,
        }),
        warnings,
    }
}

/// Per skill and conversation: (conversation id, verdict, detected, in the without-arm, traced causes).
type Row = (String, &'static str, bool, bool, Vec<(String, Cause)>);

/// Effectiveness of one skill over the sample.
fn effect(name: &str, rows: &[Row]) -> Value {
    let with: Vec<&Row> = rows.iter().filter(|r| r.2 && !r.3).collect();
    let without: Vec<&Row> = rows.iter().filter(|r| r.3 && !r.2).collect();
    if rows.iter().all(|r| !r.2) {
        return json!({
            "skill": name, "value": "not_observed",
            "evidence": rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
            "rationale": format!("the skill was loaded in none of the {} graded conversation(s)", rows.len()),
        });
    }
    let pass = |rs: &[&Row]| rs.iter().filter(|r| r.1 == "PASS").count();
    let graded = |rs: &[&Row]| rs.iter().filter(|r| r.1 == "PASS" || r.1 == "FAIL").count();
    if graded(&with) > 0 && graded(&without) > 0 {
        let a = pass(&with) as f64 / graded(&with) as f64;
        let z = pass(&without) as f64 / graded(&without) as f64;
        let value = if a > z {
            "verified_improvement"
        } else if a < z {
            "verified_harm"
        } else {
            "verified_no_effect"
        };
        return json!({
            "skill": name, "value": value,
            "evidence": with.iter().chain(without.iter()).map(|r| r.0.clone()).collect::<Vec<_>>(),
            "rationale": format!(
                "comparator supplied by the contract (without_skills): PASS in {} of {} decided conversation(s) with the skill loaded, {} of {} without it; raw counts, no extrapolation",
                pass(&with), graded(&with), pass(&without), graded(&without)
            ),
        });
    }
    let verified = rows
        .iter()
        .filter(|r| r.4.iter().any(|(_, c)| *c != Cause::Deviation))
        .count();
    json!({
        "skill": name, "value": "inconclusive",
        "evidence": with.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
        "rationale": format!(
            "loaded in {} of {} conversation(s); a failure is traced to the skill in {}; an effect needs a comparator (conversations marked without_skills), which the contract does not supply",
            rows.iter().filter(|r| r.2).count(), rows.len(), verified
        ),
    })
}

/// The seed's `proposal_allowed`, and the proposal when it holds.
fn proposal(
    c: &Contract,
    spec: &SkillSpec,
    rules: Option<&SkillRules>,
    rows: &[Row],
) -> Vec<Value> {
    let Some(rules) = rules else {
        return Vec::new(); // the owning skill was not read in full
    };
    let mut out = Vec::new();
    for crit in spec.criteria() {
        let Some(k) = c.criteria.iter().find(|k| &k.id == crit) else {
            continue;
        };
        // The proposed rule would have prevented the failure only when the
        // criterion's own check is a behavior predicate the skill can state.
        if !matches!(k.check, Some(Check::Predicate { .. })) {
            continue;
        }
        let traced: Vec<(&str, Cause)> = rows
            .iter()
            .filter(|r| r.1 == "FAIL")
            .flat_map(|r| {
                r.4.iter()
                    .filter(|(id, cause)| id == crit && *cause != Cause::Deviation)
                    .map(move |(_, cause)| (r.0.as_str(), *cause))
            })
            .collect();
        if traced.is_empty() {
            continue;
        }
        let severe = severity_of(k.source.kind) == "high";
        if traced.len() < 2 && !severe {
            continue;
        }
        let rule = format!(
            "- {} (from `skillgate grade`: criterion `{}`)",
            k.text.trim(),
            k.id
        );
        let mut new_text = rules.text.clone();
        if !new_text.ends_with('\n') {
            new_text.push('\n');
        }
        new_text.push_str(&rule);
        new_text.push('\n');
        let patch = similar::TextDiff::from_lines(&rules.text, &new_text)
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{}", rules.path), &format!("b/{}", rules.path))
            .to_string();
        let missing = if traced.iter().any(|(_, c)| *c == Cause::Wrong) {
            "wrong"
        } else {
            "missing"
        };
        out.push(json!({
            "skill": spec.name(),
            "criterion": k.id,
            "rule": rule.trim_start_matches("- "),
            "instruction": missing,
            "trace": traced.iter().map(|(conv, cause)| json!({
                "conversation": conv,
                "cause": match cause { Cause::Gap => "no rule of the skill covers the failing action", Cause::Wrong => "a rule of the skill led to the failing action", Cause::Deviation => "deviation" },
            })).collect::<Vec<_>>(),
            "why": if traced.len() >= 2 { format!("the gap repeats in {} conversations", traced.len()) } else { "one occurrence of a binding (user, repository or environment) contract".to_string() },
            "smallest_change": format!("append one rule line to {}", rules.path),
            "patch": patch,
        }));
    }
    out
}
