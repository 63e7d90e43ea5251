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
        "fixtures/grade/forced.jsonl event 3 (line 7)"
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
        serde_json::json!({"passed": 1, "failed": 1, "unverifiable": 0, "not_graded": 0, "total": 2})
    );
    assert_eq!(
        v["sample"]["excluded"][0]["id"],
        "fixtures/gate/force-push/transcripts/hidden.jsonl"
    );
    assert_eq!(
        v["conversations"][0]["skill_sets"]["detected"],
        serde_json::json!(["release-helper"])
    );
    assert_eq!(v["proposals"], serde_json::json!([]));
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
