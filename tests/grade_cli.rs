//! `skillgate grade` end to end (seed 003): the execution example
//! (PASS, FAIL, UNVERIFIABLE → COMPLETE, 1/1/1/3), both outputs validated
//! against schemas/, INCONCLUSIVE without a sample boundary, evidence outside
//! the boundary ignored, invalid mode → exit 2. Fixtures: fixtures/grade/README.md.

use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn grade(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("skillgate")
        .unwrap()
        .current_dir(dir)
        .arg("grade")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn valid(schema: &str, v: &Value) {
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(schema)).unwrap()).unwrap();
    let errors: Vec<String> = jsonschema::validator_for(&s)
        .unwrap()
        .iter_errors(v)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{v}");
}

#[test]
fn execution_pass_fail_unverifiable_is_complete_with_seed_rates() {
    let (code, out, err) = grade(
        &root(),
        &[
            "--mode",
            "execution",
            "--contract",
            "fixtures/grade/contract.yaml",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["mode"], "execution_grade");
    assert_eq!(v["terminal_status"], "COMPLETE");
    let s = &v["summary"];
    assert_eq!(
        (
            s["passed"].as_u64(),
            s["failed"].as_u64(),
            s["unverifiable"].as_u64(),
            s["total"].as_u64()
        ),
        (Some(1), Some(1), Some(1), Some(3))
    );
    assert!((s["pass_rate"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert!((s["verified_rate"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    let verdicts: Vec<&str> = v["expectations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["PASS", "FAIL", "UNVERIFIABLE"]);
    assert_eq!(
        v["expectations"][1]["evidence_records"][0]["location"],
        "forced.jsonl event 3 (line 7)"
    );
    // The claim names a file outside the boundary: ignored, and said so.
    assert_eq!(v["claims"][0]["verdict"], "UNVERIFIABLE");
    assert_eq!(
        v["claims"][0]["evidence_records"][0]["observation"],
        "outside the frozen evidence boundary: ignored"
    );
    // Never trajectory content.
    assert!(!out.contains("Ship the release"));
    valid("schemas/grade-execution.schema.json", &v);
}

#[test]
fn no_criteria_is_not_graded_with_null_rates() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("c.yaml"), "criteria: []\n").unwrap();
    let (code, out, _) = grade(d.path(), &["--mode", "execution", "--contract", "c.yaml"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["terminal_status"], "NOT_GRADED");
    assert_eq!(v["summary"]["pass_rate"], Value::Null);
    assert_eq!(v["summary"]["verified_rate"], Value::Null);
    valid("schemas/grade-execution.schema.json", &v);
}

#[test]
fn audit_grades_conversations_and_ignores_evidence_outside_the_boundary() {
    let (code, out, err) = grade(
        &root(),
        &["--mode", "audit", "--contract", "fixtures/grade/audit.yaml"],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["terminal_status"], "COMPLETE");
    assert_eq!(
        v["results"],
        serde_json::json!({"passed": 0, "failed": 2, "unverifiable": 0, "not_graded": 0, "total": 2})
    );
    assert_eq!(
        v["sample"]["excluded"][0]["id"],
        "../gate/force-push/transcripts/hidden.jsonl"
    );
    assert_eq!(
        v["conversations"][0]["skill_sets"]["detected"],
        serde_json::json!(["release-helper"])
    );
    valid("schemas/grade-audit.schema.json", &v);
}

#[test]
fn audit_without_a_sample_boundary_is_inconclusive() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("a.yaml"), "skills: [x]\ncriteria:\n  - {id: a, text: t, source: {kind: task_derived}, check: {manual: m}}\n").unwrap();
    let (code, out, _) = grade(d.path(), &["--mode", "audit", "--contract", "a.yaml"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["terminal_status"], "INCONCLUSIVE");
    assert_eq!(v["effectiveness"], serde_json::json!([]));
    valid("schemas/grade-audit.schema.json", &v);
}

#[test]
fn an_invalid_mode_or_contract_exits_2() {
    let (code, _, _) = grade(
        &root(),
        &[
            "--mode",
            "both",
            "--contract",
            "fixtures/grade/contract.yaml",
        ],
    );
    assert_eq!(code, 2);
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("c.yaml"),
        "criteria:\n  - {id: a, text: t, source: {kind: nope}}\n",
    )
    .unwrap();
    let (code, _, err) = grade(d.path(), &["--mode", "execution", "--contract", "c.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("c.yaml:2"), "{err}");
}

/// The audit fixture: forced.jsonl force-pushes to main (the skill forbids
/// force-pushes: the agent deviated), plain.jsonl pushes to main while
/// following every rule of the skill (no rule covers the branch: a gap).
fn audit_fixture() -> Value {
    let (code, out, err) = grade(
        &root(),
        &["--mode", "audit", "--contract", "fixtures/grade/audit.yaml"],
    );
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn audit_failures_become_findings_with_evidence_records() {
    let v = audit_fixture();
    let f = v["findings"].as_array().unwrap();
    let got: Vec<(&str, &str, &str)> = f
        .iter()
        .map(|x| {
            (
                x["conversation"].as_str().unwrap(),
                x["criterion"].as_str().unwrap(),
                x["severity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("forced.jsonl", "no-force-push", "high"),
            ("forced.jsonl", "no-push-to-main", "high"),
            ("plain.jsonl", "no-push-to-main", "high"),
        ]
    );
    assert_eq!(f[0]["type"], "contract_failure");
    assert_eq!(
        f[0]["evidence_records"][0]["location"],
        "forced.jsonl event 3 (line 7)"
    );
    assert_eq!(f[0]["evidence_records"][0]["kind"], "transcript");
}

#[test]
fn audit_relevance_adherence_and_attribution_are_computed() {
    let v = audit_fixture();
    let a0 = &v["conversations"][0]["assessment"][0];
    let a1 = &v["conversations"][1]["assessment"][0];
    let triple = |a: &Value| {
        (
            a["relevance"].as_str().unwrap().to_string(),
            a["adherence"].as_str().unwrap().to_string(),
            a["attribution"].as_str().unwrap().to_string(),
        )
    };
    // forced: the skill already forbids force-pushes; the agent broke it.
    assert_eq!(
        triple(a0),
        (
            "relevant".into(),
            "deviated".into(),
            "not_skill_caused".into()
        )
    );
    assert!(a0["evidence"]
        .as_array()
        .unwrap()
        .contains(&Value::from("forced.jsonl event 3 (line 7)")));
    // plain: every skill rule followed, and the push to main that fails the
    // owned criterion is covered by no rule: a verified gap.
    assert_eq!(
        triple(a1),
        ("relevant".into(), "followed".into(), "verified".into())
    );
    assert_eq!(
        v["conversations"][1]["skill_sets"]["relevant"],
        serde_json::json!(["release-helper"])
    );
    // A binding rule failed once where the skill has no rule: one proposal,
    // a unified diff against the skill's SKILL.md (path from the repository root).
    let p = v["proposals"].as_array().unwrap();
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0]["criterion"], "no-push-to-main");
    assert_eq!(p[0]["instruction"], "missing");
    let patch = p[0]["patch"].as_str().unwrap();
    assert!(
        patch.starts_with("--- a/fixtures/gate/force-push/skills/release-helper/SKILL.md\n"),
        "{patch}"
    );
    assert!(
        patch.contains("\n+- Never push directly to main"),
        "{patch}"
    );
    assert_eq!(v["effectiveness"][0]["value"], "inconclusive");
}

/// A scratch copy of fixtures/grade with `contract` as audit.yaml.
fn scratch(contract: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for f in ["forced.jsonl", "plain.jsonl"] {
        std::fs::copy(root().join("fixtures/grade").join(f), d.path().join(f)).unwrap();
    }
    let skill = d.path().join("skills/release-helper");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::copy(
        root().join("fixtures/gate/force-push/skills/release-helper/SKILL.md"),
        skill.join("SKILL.md"),
    )
    .unwrap();
    std::fs::write(d.path().join("audit.yaml"), contract).unwrap();
    d
}

const CRITERION: &str = "criteria:\n  - {id: no-force-push, text: Never force-push, source: {kind: repository_rule}, check: {predicate: {forbid: {git: push, args: [--force]}}}}\n";

#[test]
fn a_skill_never_loaded_is_not_observed() {
    let d = scratch(&format!(
        "boundary: {{evidence: [forced.jsonl, plain.jsonl], selection_method: all, fixture_boundary: here}}\n\
         skills: [release-helper, never-loaded]\n\
         conversations: [{{trajectory: forced.jsonl}}, {{trajectory: plain.jsonl}}]\n{CRITERION}"
    ));
    let other = tempfile::tempdir().unwrap();
    let contract = d.path().join("audit.yaml");
    let (code, out, err) = grade(
        other.path(),
        &["--mode", "audit", "--contract", contract.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let eff: Vec<(&str, &str)> = v["effectiveness"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["skill"].as_str().unwrap(), e["value"].as_str().unwrap()))
        .collect();
    assert_eq!(
        eff,
        [
            ("release-helper", "inconclusive"),
            ("never-loaded", "not_observed")
        ]
    );
    assert_eq!(
        v["conversations"][0]["assessment"][1]["activation"],
        "not_detected"
    );
    valid("schemas/grade-audit.schema.json", &v);
}

#[test]
fn a_comparator_arm_decides_effectiveness() {
    let d = scratch(&format!(
        "boundary: {{evidence: [forced.jsonl, plain.jsonl], selection_method: paired probe, fixture_boundary: here}}\n\
         skills: [release-helper]\n\
         conversations: [{{trajectory: plain.jsonl}}, {{trajectory: forced.jsonl, without_skills: [release-helper]}}]\n{CRITERION}"
    ));
    let (code, out, err) = grade(d.path(), &["--mode", "audit", "--contract", "audit.yaml"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    // forced.jsonl loads the skill, so it is not a clean without-arm: no comparator.
    assert_eq!(v["effectiveness"][0]["value"], "inconclusive");
    // A probe run with another skill instead: now the arms compare (1/1 vs 0/1).
    let forced = std::fs::read_to_string(d.path().join("forced.jsonl")).unwrap();
    std::fs::write(
        d.path().join("forced.jsonl"),
        forced.replace("release-helper", "other-skill"),
    )
    .unwrap();
    let (_, out, _) = grade(d.path(), &["--mode", "audit", "--contract", "audit.yaml"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["effectiveness"][0]["value"], "verified_improvement",
        "{}",
        v["effectiveness"]
    );
    assert!(v["effectiveness"][0]["rationale"]
        .as_str()
        .unwrap()
        .contains(
            "PASS in 1 of 1 decided conversation(s) with the skill loaded, 0 of 1 without it"
        ));
}

#[test]
fn inconclusive_still_reports_what_it_graded_and_why_it_stopped() {
    let d = scratch(&format!(
        "boundary: {{evidence: [forced.jsonl, plain.jsonl]}}\n\
         skills: [{{name: release-helper, path: skills/release-helper/SKILL.md, criteria: [no-force-push]}}]\n\
         conversations: [{{trajectory: forced.jsonl}}, {{trajectory: plain.jsonl}}]\n{CRITERION}"
    ));
    let (code, out, err) = grade(d.path(), &["--mode", "audit", "--contract", "audit.yaml"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["terminal_status"], "INCONCLUSIVE");
    assert_eq!(v["sample"]["conversations_analyzed"], 2);
    assert_eq!(
        v["results"],
        serde_json::json!({"passed": 1, "failed": 1, "unverifiable": 0, "not_graded": 0, "total": 2})
    );
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    assert_eq!(v["effectiveness"], serde_json::json!([]));
    assert_eq!(v["proposals"], serde_json::json!([]));
    let lim = v["sample"]["limitations"].to_string();
    assert!(lim.contains("sample boundary is undefined"), "{lim}");
    assert!(lim.contains("2 conversation(s) were graded"), "{lim}");
    assert!(err.contains("INCONCLUSIVE"), "{err}");
    valid("schemas/grade-audit.schema.json", &v);
}

#[test]
fn paths_resolve_against_the_contract_from_any_folder() {
    let other = tempfile::tempdir().unwrap();
    let contract = root().join("fixtures/grade/contract.yaml");
    let (code, out, err) = grade(
        other.path(),
        &[
            "--mode",
            "execution",
            "--contract",
            contract.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let verdicts: Vec<&str> = v["expectations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["PASS", "FAIL", "UNVERIFIABLE"]);
}

#[test]
fn missing_evidence_is_unverifiable_and_reported_loudly() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("c.yaml"),
        "boundary: {evidence: [out, session.jsonl]}\n\
         criteria:\n\
         \x20 - {id: report, text: t, source: {kind: task_derived}, check: {file_exists: out/report.md}}\n\
         \x20 - {id: tests, text: t, source: {kind: task_derived}, check: {exit_code: {trajectory: session.jsonl, command: 'cargo test*'}}}\n",
    )
    .unwrap();
    let other = tempfile::tempdir().unwrap();
    let contract = d.path().join("c.yaml");
    let (code, out, err) = grade(
        other.path(),
        &[
            "--mode",
            "execution",
            "--contract",
            contract.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    // Never a FAIL "does not exist": the evidence itself is missing.
    assert_eq!(v["expectations"][0]["verdict"], "UNVERIFIABLE");
    assert_eq!(
        v["expectations"][0]["evidence_records"][0]["observation"],
        "listed evidence not found on disk: missing"
    );
    assert_eq!(v["expectations"][1]["verdict"], "UNVERIFIABLE");
    let lim = v["limitations"].to_string();
    assert!(lim.contains("missing evidence: out is listed"), "{lim}");
    assert!(
        lim.contains("missing evidence: session.jsonl is listed"),
        "{lim}"
    );
    assert_eq!(
        v["boundary"]["missing"],
        serde_json::json!(["out", "session.jsonl"])
    );
    assert_eq!(err.matches("missing evidence").count(), 2, "{err}");
    valid("schemas/grade-execution.schema.json", &v);
}

#[test]
fn evaluation_feedback_detects_criterion_defects() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("out")).unwrap();
    std::fs::write(d.path().join("out/report.md"), "# Report\n").unwrap();
    std::fs::write(
        d.path().join("c.yaml"),
        "boundary: {evidence: [out]}\n\
         criteria:\n\
         \x20 - {id: a, text: report exists, source: {kind: task_derived}, check: {file_exists: out/report.md}}\n\
         \x20 - {id: a, text: report again, source: {kind: task_derived}, check: {file_contains: {path: out/report.md, pattern: Report}}}\n\
         \x20 - {id: b, text: changelog updated, source: {kind: task_derived}, check: {file_exists: CHANGELOG.md}}\n\
         \x20 - {id: c, text: the reviewer agreed, source: {kind: task_derived}, check: {manual: the reviewer's reply}}\n\
         \x20 - {id: d, text: docs/usage.md explains it, source: {kind: task_derived}}\n\
         evaluation_feedback: [\"a note from the author\"]\n",
    )
    .unwrap();
    let (code, out, err) = grade(d.path(), &["--mode", "execution", "--contract", "c.yaml"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let fb: Vec<(String, String)> = v["evaluation_feedback"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["source"] == "detected")
        .map(|f| {
            (
                f["criterion"].as_str().unwrap().to_string(),
                f["defect"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("a", "duplicate"),
        ("b", "no_evidence_source"),
        ("c", "untestable"),
        ("d", "untestable"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(fb, want);
    let d_fb = &v["evaluation_feedback"][3];
    assert!(
        d_fb["smallest_stronger_check"]
            .as_str()
            .unwrap()
            .contains("docs/usage.md"),
        "{d_fb}"
    );
    assert_eq!(v["evaluation_feedback"][4]["source"], "contract");
    // The denominator is unchanged: all five criteria are graded.
    assert_eq!(v["summary"]["total"], 5);
    assert!(err.contains("criterion `a`: duplicate"), "{err}");
    valid("schemas/grade-execution.schema.json", &v);
}

#[test]
fn help_says_what_a_contract_looks_like() {
    let out = assert_cmd::Command::cargo_bin("skillgate")
        .unwrap()
        .args(["grade", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "docs/grade.md",
        "criteria:",
        "boundary:",
        "check: {file_contains:",
        "relative to the contract file",
        "Exit:",
    ] {
        assert!(text.contains(want), "{want} missing from:\n{text}");
    }
}

/// An audit over the eight real Claude Code sessions that load superpowers
/// skills (shared/realdata): loads are detected per conversation, a skill
/// loaded nowhere is `not_observed`, one loaded somewhere without a
/// comparator is `inconclusive`, and no trajectory content reaches the output.
#[test]
fn audit_over_real_skill_load_sessions() {
    let real = root().join("../shared/realdata");
    let sessions = real.join("transcripts/claude-code-skill-loads");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&sessions)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 8);
    let skill = |v: &str, n: &str| {
        real.join(format!(
            "skills-for-sessions/obra-superpowers@{v}/{n}/SKILL.md"
        ))
        .display()
        .to_string()
    };
    let mut contract = format!(
        "boundary:\n  evidence: [{}]\n  selection_method: every real skill-load session\n  fixture_boundary: shared/realdata\n\
         skills:\n  - {{name: systematic-debugging, path: {}}}\n  - {{name: writing-plans, path: {}}}\n  - brainstorming\n  - never-used-skill\n\
         criteria:\n  - {{id: no-force-push, text: Never force-push, source: {{kind: repository_rule}}, check: {{predicate: {{forbid: {{git: push, args: [--force]}}}}}}}}\n\
         conversations:\n",
        sessions.display(),
        skill("v4.1.1", "systematic-debugging"),
        skill("v4.1.1", "writing-plans"),
    );
    for f in &files {
        contract.push_str(&format!("  - {{trajectory: {}}}\n", f.display()));
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("audit.yaml"), contract).unwrap();
    let (code, out, err) = grade(d.path(), &["--mode", "audit", "--contract", "audit.yaml"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["terminal_status"], "COMPLETE");
    assert_eq!(v["sample"]["conversations_analyzed"], 8);
    let detected: Vec<(String, Vec<String>)> = v["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let name = c["trajectory"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap();
            let d: Vec<String> = c["skill_sets"]["detected"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            (name[..name.find("-").unwrap()].to_string(), d)
        })
        .collect();
    let loaded = |skill: &str| {
        detected
            .iter()
            .filter(|(_, d)| d.iter().any(|x| x == skill))
            .count()
    };
    assert_eq!(loaded("systematic-debugging"), 2, "{detected:?}");
    assert_eq!(loaded("writing-plans"), 3, "{detected:?}");
    assert_eq!(loaded("never-used-skill"), 0);
    // Not loaded, nothing owned decided: relevance is not guessed.
    for c in v["conversations"].as_array().unwrap() {
        for a in c["assessment"].as_array().unwrap() {
            if a["activation"] == "not_detected" {
                assert_eq!(a["relevance"], "uncertain", "{a}");
                assert_eq!(a["adherence"], "not_applicable", "{a}");
            }
        }
    }
    let eff: Vec<(&str, &str)> = v["effectiveness"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["skill"].as_str().unwrap(), e["value"].as_str().unwrap()))
        .collect();
    assert_eq!(
        eff,
        [
            ("systematic-debugging", "inconclusive"),
            ("writing-plans", "inconclusive"),
            ("brainstorming", "inconclusive"),
            ("never-used-skill", "not_observed"),
        ]
    );
    // Locations only: no message text of the sessions.
    assert!(!out.contains("\"content\""));
    valid("schemas/grade-audit.schema.json", &v);
}
