//! `skillgate assess RUN_DIR` through the binary (seed 002, issue 7).

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::path::Path;
use tempfile::TempDir;

fn finding(id: &str, kind: &str, severity: &str, title: &str) -> String {
    serde_json::json!({
        "id": id, "kind": kind, "severity": severity, "title": title,
        "evidence": "src/lib.rs:1", "suggestion": "fix it"
    })
    .to_string()
}

/// A run folder holding `findings` as findings.jsonl (one per line).
fn run_dir(findings: &[String]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut text = findings.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    fs::write(dir.path().join("findings.jsonl"), text).unwrap();
    dir
}

/// A copy of `fixtures/assess/<name>` in a temporary folder.
fn fixture(name: &str) -> TempDir {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/assess")
        .join(name);
    let dir = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(&src).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
    }
    dir
}

fn assess(dir: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("skillgate")
        .unwrap()
        .arg("assess")
        .arg(dir)
        .args(extra)
        .assert()
}

fn assessment(dir: &Path) -> Value {
    serde_json::from_slice(&fs::read(dir.join("assessment.json")).unwrap()).unwrap()
}

fn counts(v: &Value) -> [u64; 5] {
    let c = &v["severity_counts"];
    ["critical", "high", "medium", "low", "info"].map(|k| c[k].as_u64().unwrap())
}

fn top_ids(v: &Value) -> Vec<String> {
    v["top_findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_string())
        .collect()
}

fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    n.sort();
    n
}

fn stdout_of(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

fn stderr_of(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stderr.clone()).unwrap()
}

/// Output with the temporary folder's path replaced by `[RUN_DIR]`.
fn normalise(text: &str, dir: &Path) -> String {
    text.replace(&dir.display().to_string(), "[RUN_DIR]")
}

/// `{n} findings of one severity`.
fn many(n: usize, severity: &str) -> Vec<String> {
    (1..=n)
        .map(|i| finding(&format!("F{i}"), "lint_warning", severity, "t"))
        .collect()
}

// ---- the seed's examples -------------------------------------------------

#[test]
fn no_findings_scores_one() {
    let dir = run_dir(&[]);
    assess(dir.path(), &[]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [0, 0, 0, 0, 0]);
    assert_eq!(a["penalty_score"], 1.0);
    assert_eq!(a["top_findings"], serde_json::json!([]));
    assert_eq!(a["requirement_coverage"], Value::Null);
    assert_eq!(a["model"], "unknown");
}

#[test]
fn one_critical_scores_three_quarters() {
    let dir = run_dir(&many(1, "critical"));
    assess(dir.path(), &[]).success();
    assert_eq!(assessment(dir.path())["penalty_score"], 0.75);
}

#[test]
fn four_criticals_score_zero() {
    let dir = run_dir(&many(4, "critical"));
    assess(dir.path(), &[]).success();
    assert_eq!(assessment(dir.path())["penalty_score"], 0.0);
    let dir = run_dir(&many(9, "critical"));
    assess(dir.path(), &[]).success();
    assert_eq!(assessment(dir.path())["penalty_score"], 0.0);
}

#[test]
fn counts_0_2_5_3_1_give_the_formula_not_the_sample() {
    let dir = fixture("seed-sample");
    let out = assess(dir.path(), &[]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [0, 2, 5, 3, 1]);
    // 1 − (2·0.10 + 5·0.03 + 3·0.01) = 0.62; the seed's sample shows 0.67.
    assert_eq!(a["penalty_score"], 0.62);
    assert_eq!(a["requirement_coverage"], 0.75);
    assert_eq!(a["model"], "haiku");
    assert_eq!(top_ids(&a), ["R3", "sec-1", "Q1", "Q2", "Q3"]);
    insta::assert_snapshot!(
        "seed_sample_summary",
        normalise(&stdout_of(&out), dir.path())
    );
    assert_eq!(stderr_of(&out), "");

    // The file's exact bytes, with the time normalised.
    assert_iso_utc(a["evaluated_at"].as_str().unwrap());
    let text = fs::read_to_string(dir.path().join("assessment.json")).unwrap();
    let re = regex::Regex::new(r#""evaluated_at": "[^"]*""#).unwrap();
    let text = re.replace(&text, r#""evaluated_at": "[evaluated_at]""#);
    assert!(text.ends_with("}\n"));
    insta::assert_snapshot!("seed_sample_assessment", text);
}

fn assert_iso_utc(at: &str) {
    let re = regex::Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$").unwrap();
    assert!(re.is_match(at), "{at}");
    time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).unwrap();
}

// ---- filtering and ordering ----------------------------------------------

fn ladder() -> Vec<String> {
    vec![
        finding("L1", "lint_warning", "low", "low one"),
        finding("C1", "build_failure", "critical", "critical one"),
        finding("I1", "enhancement", "info", "info one"),
        finding("M1", "lint_warning", "medium", "medium one"),
        finding("H1", "security", "high", "high one"),
    ]
}

#[test]
fn min_severity_filters_counts_penalty_and_top_findings() {
    let dir = run_dir(&ladder());
    assess(dir.path(), &["--min-severity", "high"]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [1, 1, 0, 0, 0]);
    assert_eq!(a["penalty_score"], 0.65);
    assert_eq!(top_ids(&a), ["C1", "H1"]);

    assess(dir.path(), &["--min-severity", "critical"]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [1, 0, 0, 0, 0]);
    assert_eq!(top_ids(&a), ["C1"]);

    assess(dir.path(), &["--min-severity", "low"]).success();
    assert_eq!(counts(&assessment(dir.path())), [1, 1, 1, 1, 0]);

    // The default is info: everything counts.
    assess(dir.path(), &[]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [1, 1, 1, 1, 1]);
    assert_eq!(a["penalty_score"], 0.61);
    assert_eq!(top_ids(&a), ["C1", "H1", "M1", "L1", "I1"]);
}

#[test]
fn an_unknown_min_severity_is_a_usage_error() {
    let dir = run_dir(&ladder());
    let out = assess(dir.path(), &["--min-severity", "warning"]).code(2);
    assert!(stderr_of(&out).contains("[possible values: critical, high, medium, low, info]"));
    assert!(!dir.path().join("assessment.json").exists());
}

#[test]
fn ties_keep_file_order() {
    let dir = run_dir(&[
        finding("M-a", "k", "medium", "a"),
        finding("H-a", "k", "high", "b"),
        finding("M-b", "k", "medium", "c"),
        finding("L-a", "k", "low", "d"),
        finding("H-b", "k", "high", "e"),
        finding("M-c", "k", "medium", "f"),
        finding("H-c", "k", "high", "g"),
        finding("M-d", "k", "medium", "h"),
    ]);
    assess(dir.path(), &[]).success();
    assert_eq!(
        top_ids(&assessment(dir.path())),
        ["H-a", "H-b", "H-c", "M-a", "M-b"]
    );
}

#[test]
fn top_findings_keep_every_original_field_in_order() {
    let line = r#"{"severity": "critical", "zeta": {"nested": [1, 2.5, null]}, "id": "R2", "kind": "requirement_missing", "title": "t", "evidence": ["a", "b"], "suggestion": "s", "file": "src/x.rs", "line": 7}"#;
    let dir = run_dir(&[line.to_string()]);
    assess(dir.path(), &[]).success();
    let text = fs::read_to_string(dir.path().join("assessment.json")).unwrap();
    let a: Value = serde_json::from_str(&text).unwrap();
    let original: Value = serde_json::from_str(line).unwrap();
    assert_eq!(a["top_findings"][0], original);
    let keys: Vec<&String> = a["top_findings"][0].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "severity",
            "zeta",
            "id",
            "kind",
            "title",
            "evidence",
            "suggestion",
            "file",
            "line"
        ]
    );
}

// ---- writing ---------------------------------------------------------------

#[test]
fn dry_run_prints_the_json_and_writes_nothing() {
    let dir = run_dir(&ladder());
    let before = names(dir.path());
    let out = assess(dir.path(), &["--dry-run"]).success();
    assert_eq!(names(dir.path()), before);
    let printed: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    assert_eq!(counts(&printed), [1, 1, 1, 1, 1]);
    assert_eq!(stderr_of(&out), "");

    // An existing assessment.json is left as it was.
    fs::write(dir.path().join("assessment.json"), "old").unwrap();
    assess(dir.path(), &["--dry-run", "--min-severity", "critical"]).success();
    assert_eq!(
        fs::read_to_string(dir.path().join("assessment.json")).unwrap(),
        "old"
    );
}

#[test]
fn the_write_is_atomic_leaves_no_tmp_and_reruns_overwrite() {
    let dir = run_dir(&many(1, "critical"));
    // A stale temporary file from an interrupted run is replaced, then renamed away.
    fs::write(dir.path().join("assessment.json.tmp"), "stale").unwrap();
    let out = assess(dir.path(), &[]).success();
    assert_eq!(names(dir.path()), ["assessment.json", "findings.jsonl"]);
    assert_eq!(assessment(dir.path())["penalty_score"], 0.75);
    assert_eq!(stderr_of(&out), "");

    fs::write(
        dir.path().join("findings.jsonl"),
        many(2, "high").join("\n"),
    )
    .unwrap();
    assess(dir.path(), &[]).success();
    assert_eq!(names(dir.path()), ["assessment.json", "findings.jsonl"]);
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [0, 2, 0, 0, 0]);
    assert_eq!(a["penalty_score"], 0.8);
}

#[test]
fn when_the_tmp_route_fails_it_writes_directly_and_warns() {
    let dir = run_dir(&many(1, "low"));
    // A folder in the way of assessment.json.tmp makes the atomic route fail.
    fs::create_dir(dir.path().join("assessment.json.tmp")).unwrap();
    let out = assess(dir.path(), &[]).success();
    let err = stderr_of(&out);
    assert!(err.contains("WARN"), "{err}");
    assert!(err.contains("assessment.json.tmp"), "{err}");
    assert!(err.contains("writing") && err.contains("directly"), "{err}");
    assert_eq!(assessment(dir.path())["penalty_score"], 0.99);
    assert!(
        dir.path().join("assessment.json.tmp").is_dir(),
        "not ours to remove"
    );
}

#[test]
fn an_unwritable_assessment_is_an_error() {
    let dir = run_dir(&many(1, "low"));
    // assessment.json is a non-empty folder: neither the rename nor the direct write can work.
    fs::create_dir_all(dir.path().join("assessment.json/x")).unwrap();
    let out = assess(dir.path(), &[]).code(2);
    assert!(
        stderr_of(&out).contains("assessment.json: cannot write"),
        "{}",
        stderr_of(&out)
    );
    assert!(!dir.path().join("assessment.json.tmp").exists());
}

// ---- bad input -------------------------------------------------------------

#[test]
fn missing_findings_is_exit_2_with_the_seed_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = assess(dir.path(), &[]).code(2);
    let err = normalise(&stderr_of(&out), dir.path());
    assert_eq!(
        err,
        "error: no findings.jsonl — run evaluate-run first (looked for [RUN_DIR]/findings.jsonl)\n"
    );
    assert_eq!(stdout_of(&out), "");
    assert!(names(dir.path()).is_empty());
    // Also with --dry-run.
    assess(dir.path(), &["--dry-run"]).code(2);
}

#[test]
fn a_missing_run_folder_or_a_folder_named_findings_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("nope");
    let out = assess(&gone, &[]).code(2);
    assert!(stderr_of(&out).contains("no such run folder"));
    fs::write(&gone, "a file").unwrap();
    let out = assess(&gone, &[]).code(2);
    assert!(stderr_of(&out).contains("nope: not a folder"));
    fs::create_dir(dir.path().join("findings.jsonl")).unwrap();
    let out = assess(dir.path(), &[]).code(2);
    assert!(stderr_of(&out).contains("findings.jsonl: not a file"));
}

#[test]
fn malformed_and_unknown_severity_lines_are_reported_skipped_and_counted() {
    let dir = run_dir(&[
        finding("H1", "security", "high", "kept"),
        "{\"id\": \"T1\", \"kind\": \"k\", \"severity\": \"hi".to_string(),
        finding("W1", "lint_warning", "warning", "unknown level"),
        finding("U1", "lint_warning", "High", "wrong case"),
        String::new(),
        "[\"not\", \"an\", \"object\"]".to_string(),
        r#"{"id": "X1", "kind": "k", "severity": "low"}"#.to_string(),
        finding("L1", "lint_warning", "low", "kept too"),
        "\u{1}garbage".to_string(),
    ]);
    let out = assess(dir.path(), &[]).success();
    insta::assert_snapshot!("malformed_stderr", normalise(&stderr_of(&out), dir.path()));
    insta::assert_snapshot!("malformed_summary", normalise(&stdout_of(&out), dir.path()));
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [0, 1, 0, 1, 0]);
    assert_eq!(top_ids(&a), ["H1", "L1"]);
}

#[test]
fn malformed_lines_in_a_dry_run_go_to_stderr_only() {
    let dir = run_dir(&[
        finding("A", "k", "urgent", "t"),
        finding("B", "k", "low", "t"),
    ]);
    let out = assess(dir.path(), &["--dry-run"]).success();
    let printed: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    assert_eq!(counts(&printed), [0, 0, 0, 1, 0]);
    let err = normalise(&stderr_of(&out), dir.path());
    assert!(err
        .starts_with("warning: [RUN_DIR]/findings.jsonl:1: skipped: unknown severity \"urgent\""));
    assert!(
        err.ends_with("1 malformed line(s) of [RUN_DIR]/findings.jsonl skipped (reported above)\n")
    );
}

#[test]
fn an_empty_or_blank_findings_file_is_a_clean_run() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("findings.jsonl"), "\n  \n\r\n").unwrap();
    let out = assess(dir.path(), &[]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [0, 0, 0, 0, 0]);
    assert_eq!(a["penalty_score"], 1.0);
    assert_eq!(a["top_findings"].as_array().unwrap().len(), 0);
    insta::assert_snapshot!("empty_summary", normalise(&stdout_of(&out), dir.path()));
}

// ---- model -----------------------------------------------------------------

fn model_with_stack(stack: Option<&[u8]>) -> (String, String) {
    let dir = run_dir(&many(1, "info"));
    if let Some(s) = stack {
        fs::write(dir.path().join("stack.json"), s).unwrap();
    }
    let out = assess(dir.path(), &[]).success();
    (
        assessment(dir.path())["model"]
            .as_str()
            .unwrap()
            .to_string(),
        stderr_of(&out),
    )
}

#[test]
fn model_comes_from_stack_json_model_then_agent_then_unknown() {
    assert_eq!(
        model_with_stack(Some(br#"{"model": "opus", "agent": "claude"}"#)).0,
        "opus"
    );
    assert_eq!(model_with_stack(Some(br#"{"agent": "codex"}"#)).0, "codex");
    assert_eq!(
        model_with_stack(Some(br#"{"model": null, "agent": "codex"}"#)).0,
        "codex"
    );
    assert_eq!(
        model_with_stack(Some(br#"{"language": "go"}"#)).0,
        "unknown"
    );
    assert_eq!(
        model_with_stack(None),
        ("unknown".to_string(), String::new())
    );
}

#[test]
fn a_broken_stack_json_is_not_an_error() {
    let (model, err) = model_with_stack(Some(b"{not json"));
    assert_eq!(model, "unknown");
    assert!(err.contains("stack.json: not valid JSON"), "{err}");
    let (model, _) = model_with_stack(Some(b"\xff\xfe"));
    assert_eq!(model, "unknown");
}

// ---- requirement coverage --------------------------------------------------

fn coverage_of(findings: &[String], evaluation: Option<&str>) -> Value {
    let dir = run_dir(findings);
    if let Some(md) = evaluation {
        fs::write(dir.path().join("evaluation.md"), md).unwrap();
    }
    assess(dir.path(), &[]).success();
    assessment(dir.path())["requirement_coverage"].clone()
}

const TABLE_R1_TO_R8: &str = "\
## Requirements

| ID | Requirement (short) | Status | Evidence |
|----|----|----|----|
| R1 | a | ✓ implemented | x |
| R2 | b | ✓ implemented | x |
| R3 | c | ✗ missing | x |
| R4 | d | ✓ implemented | x |
| R5 | e | ◐ partial | x |
| R6 | f | ✓ implemented | x |
| R7 | g | ✓ implemented | x |
| R8 | h | ✓ implemented | x |
| P1 | prompt instruction | ✓ followed | x |
";

#[test]
fn coverage_total_from_the_evaluation_table() {
    let findings = [
        finding("R3", "requirement_missing", "high", "c missing"),
        finding("R5", "requirement_partial", "medium", "e partial"),
        finding("Q1", "lint_warning", "low", "q"),
    ];
    // 8 listed, 2 unimplemented.
    assert_eq!(coverage_of(&findings, Some(TABLE_R1_TO_R8)), 0.75);
    // Without evaluation.md: the highest R id seen is R5 → 3/5.
    assert_eq!(coverage_of(&findings, None), 0.6);
}

#[test]
fn coverage_total_from_the_summary_line_when_there_is_no_table() {
    let findings = [finding("R2", "requirement_missing", "high", "b")];
    let md = "- **Requirements:** 9/10 implemented, 0 partial, 1 missing\n";
    assert_eq!(coverage_of(&findings, Some(md)), 0.9);
}

#[test]
fn an_evaluation_md_without_requirements_falls_back_to_the_findings() {
    let findings = [
        finding("R1", "requirement_missing", "high", "a"),
        finding("R4", "enhancement", "info", "d"),
    ];
    assert_eq!(
        coverage_of(&findings, Some("# Evaluation\n\nNothing listed.\n")),
        0.75
    );
}

#[test]
fn coverage_is_null_and_na_when_undeterminable() {
    let dir = run_dir(&[finding("Q1", "lint_warning", "low", "q")]);
    let out = assess(dir.path(), &[]).success();
    assert_eq!(assessment(dir.path())["requirement_coverage"], Value::Null);
    assert!(stdout_of(&out).contains("  Req coverage:    n/a\n"));
}

#[test]
fn the_filter_leaves_filtered_requirements_counted_as_implemented() {
    // R2 is only low: under --min-severity medium it is not an unimplemented
    // requirement, while R3 still sets the total.
    let dir = run_dir(&[
        finding("R1", "requirement_missing", "high", "a"),
        finding("R2", "requirement_partial", "low", "b"),
        finding("R3", "enhancement", "info", "c"),
    ]);
    assess(dir.path(), &["--min-severity", "medium"]).success();
    assert_eq!(
        assessment(dir.path())["requirement_coverage"],
        round4(2.0 / 3.0)
    );
    assess(dir.path(), &[]).success();
    assert_eq!(
        assessment(dir.path())["requirement_coverage"],
        round4(1.0 / 3.0)
    );
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

// ---- real retort runs ------------------------------------------------------

#[test]
fn real_run_with_a_critical_and_a_missing_requirement() {
    let dir = fixture("real/retort-exp1-clojure-opus-beads-rep3-failed");
    let out = assess(dir.path(), &[]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [1, 1, 0, 0, 0]);
    assert_eq!(a["penalty_score"], 0.65);
    assert_eq!(top_ids(&a), ["run-failed", "R1"]);
    // evaluation.md lists R1–R11; findings say R1 is missing: 10/11.
    assert_eq!(a["requirement_coverage"], 0.9091);
    assert_eq!(a["model"], "unknown");
    insta::assert_snapshot!(
        "real_rep3_failed_summary",
        normalise(&stdout_of(&out), dir.path())
    );
}

#[test]
fn real_run_with_only_low_and_info_findings() {
    let dir = fixture("real/retort-exp13-go-sonnet-tdd-rep1");
    let out = assess(dir.path(), &[]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [0, 0, 0, 3, 2]);
    assert_eq!(a["penalty_score"], 0.97);
    // Low before info; file order within each.
    assert_eq!(top_ids(&a), ["Q1", "Q2", "Q3", "P1", "R12"]);
    // 12 listed (P1 is not R<N>); R12's finding is an enhancement, not missing.
    assert_eq!(a["requirement_coverage"], 1.0);
    insta::assert_snapshot!(
        "real_exp13_summary",
        normalise(&stdout_of(&out), dir.path())
    );

    assess(dir.path(), &["--min-severity", "low"]).success();
    let a = assessment(dir.path());
    assert_eq!(counts(&a), [0, 0, 0, 3, 0]);
    assert_eq!(top_ids(&a), ["Q1", "Q2", "Q3"]);
}

#[test]
fn paths_are_reported_as_given() {
    let dir = fixture("seed-sample");
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .current_dir(dir.path())
        .args(["assess", "."])
        .assert()
        .success();
    assert!(stdout_of(&out).starts_with("Assessment written to ./assessment.json\n"));
    assert!(dir.path().join("assessment.json").is_file());
}
