//! The judgement of issue 13 end to end, through the binary, on small
//! transcripts with the shapes of the real Claude Code sessions under
//! ../shared/realdata/transcripts/claude-code-skill-loads/ (Skill tool load,
//! injected "Base directory" body, Bash / Edit tool calls, typed prompts,
//! `/exit`, resumed history):
//! - every firing event judged (`before-each`), evidence at the events that
//!   lacked their requirement;
//! - piped red runs (`cargo test 2>&1 | tail`) and an environment error;
//! - a session the user ended with `/exit` is complete;
//! - a resumed session counts each action once;
//! - a consent gate with and without a user turn;
//! - a stale body (listed, judged; `stale: discard` drops it);
//! - a forbid without `when` in a read-only session; a scope-tagged rule
//!   without predicate in a session that only read project files;
//! - a skill with nothing to measure, in all five formats.

mod gate_common;

use gate_common::*;
use serde_json::Value;
use std::path::Path;

const TDD_LOCK: &str = r#"  - id: red-before-each-edit
    text: "Write a failing test before each production change."
    lines: [8, 8]
    modality: must
    when: {edit: "src/**"}
    require: {all: [{command: "cargo test*"}, {failed: true}]}
    order: before-each
"#;

const CONSENT_LOCK: &str = r#"  - id: force-push-on-request
    text: "Force-push only on the user's explicit request."
    lines: [8, 8]
    modality: must
    scope: [shared-repo-state]
    when: {git: push, args: ["--force"]}
    require: {user_turn: true}
    order: before-each
"#;

const BODY: &str = "Write a failing test before each production change.";

fn gate(dir: &Path, skill: &Path, extra: &[&str]) -> Run {
    let skill = skill.to_str().unwrap();
    let mut args = vec![
        "gate",
        skill,
        "--trajectories",
        "t",
        "--format",
        "json",
        "--no-report",
    ];
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

fn lines_of(c: &Value, why: &str) -> Vec<u64> {
    c["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["why"] == why)
        .map(|e| e["line"].as_u64().unwrap())
        .collect()
}

#[test]
fn every_production_edit_needs_its_own_red_run() {
    let d = tempfile::tempdir().unwrap();
    let skill = write_skill(d.path(), "tdd", BODY, Some(TDD_LOCK), false);
    let mut t = Tx::new(Fmt::Claude);
    t.user("add the parser");
    t.load_skill("tdd", BODY);
    // A compliant first cycle: red, then the production edit.
    t.shell(
        "cargo test",
        "test result: FAILED. 0 passed; 1 failed",
        true,
        None,
    );
    let first = t.edit_file(&format!("{CWD}/src/parser.rs"));
    t.shell(
        "cargo test",
        "test result: ok. 1 passed; 0 failed",
        false,
        None,
    );
    // Two later production edits with no failing test before them.
    let second = t.edit_file(&format!("{CWD}/src/lexer.rs"));
    t.shell(
        "cargo test",
        "test result: ok. 2 passed; 0 failed",
        false,
        None,
    );
    let third = t.edit_file(&format!("{CWD}/src/ast.rs"));
    t.end("done");
    t.write(&d.path().join("t/session.jsonl"));

    let r = gate(d.path(), &skill, &[]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    let c = &v["constraints"][0];
    assert_eq!(c["label"], "violated", "{c}");
    assert_eq!(v["verdict"], "compliance-gap");
    // The evidence is at the two uncovered edits, not at the compliant one.
    assert_eq!(
        lines_of(c, "requirement-unmet"),
        vec![second as u64, third as u64]
    );
    assert!(!lines_of(c, "requirement-unmet").contains(&(first as u64)));
    assert_eq!(c["per_trajectory"][0]["events"], 2);
    // What was checked is in the JSON and in one line.
    assert_eq!(c["when"], serde_json::json!({"edit": "src/**"}));
    assert_eq!(c["order"], "before-each");
    assert_eq!(
        c["check"],
        r#"when {edit: "src/**"} · require {all: [{command: "cargo test*"}, {failed: true}]} (order before-each)"#
    );
    let md = run_in(
        d.path(),
        &[
            "gate",
            skill.to_str().unwrap(),
            "--trajectories",
            "t",
            "--no-report",
        ],
    );
    assert!(
        md.stdout.contains("(order before-each)"),
        "the markdown shows the predicate: {}",
        md.stdout
    );
}

#[test]
fn piped_red_runs_count_and_an_environment_error_does_not() {
    let d = tempfile::tempdir().unwrap();
    let skill = write_skill(d.path(), "tdd", BODY, Some(TDD_LOCK), false);
    // Red runs whose exit status a pipe hides (exit 0, summary says FAILED).
    let mut t = Tx::new(Fmt::Claude);
    t.user("fix the bug");
    t.load_skill("tdd", BODY);
    t.shell(
        "cargo test 2>&1 | tail -20",
        "failures:\n    parser::tests::rejects_empty\n\ntest result: FAILED. 3 passed; 1 failed; 0 ignored\n",
        false,
        None,
    );
    t.edit_file(&format!("{CWD}/src/parser.rs"));
    t.shell(
        "cargo test 2>&1 | head -80",
        "test result: FAILED. 3 passed; 1 failed; 0 ignored\n",
        false,
        None,
    );
    t.edit_file(&format!("{CWD}/src/lexer.rs"));
    t.end("done");
    t.write(&d.path().join("t/piped.jsonl"));
    let v = gate(d.path(), &skill, &[]).json();
    assert_eq!(v["constraints"][0]["label"], "exercised", "{v}");

    // An environment error is not the failing test.
    let mut t = Tx::new(Fmt::Claude);
    t.user("fix the bug");
    t.load_skill("tdd", BODY);
    t.shell(
        "cargo test 2>&1 | tail",
        "bash: cargo: command not found\n",
        true,
        None,
    );
    let edit = t.edit_file(&format!("{CWD}/src/parser.rs"));
    t.end("done");
    std::fs::remove_dir_all(d.path().join("t")).unwrap();
    t.write(&d.path().join("t/env-error.jsonl"));
    let v = gate(d.path(), &skill, &[]).json();
    let c = &v["constraints"][0];
    assert_eq!(c["label"], "violated", "{c}");
    assert_eq!(lines_of(c, "requirement-unmet"), vec![edit as u64]);
}

#[test]
fn a_session_ended_with_exit_is_complete_and_a_resumed_one_counts_once() {
    let d = tempfile::tempdir().unwrap();
    let lock = r#"  - id: test-after-edit
    text: "Run the tests after every change."
    lines: [8, 8]
    modality: must
    when: {edit: "src/**"}
    require: {command: "cargo test*"}
"#;
    let skill = write_skill(d.path(), "tdd", BODY, Some(lock), false);
    let mut t = Tx::new(Fmt::Claude);
    t.user("change it");
    t.load_skill("tdd", BODY);
    let edit = t.edit_file(&format!("{CWD}/src/a.rs"));
    t.say("Changed it.");
    t.exit_command();
    t.write(&d.path().join("t/exit.jsonl"));
    let v = gate(d.path(), &skill, &[]).json();
    assert_eq!(v["trajectories"]["loads"][0]["complete"], true, "{v}");
    let c = &v["constraints"][0];
    // Complete: the open requirement is a violation, not "ambiguous".
    assert_eq!(c["label"], "violated", "{c}");
    assert_eq!(lines_of(c, "requirement-unmet"), vec![edit as u64]);

    // Resumed: the new file repeats the old records; each action counts once.
    let lock = r#"  - id: no-force-push
    text: "Never force-push."
    lines: [8, 8]
    modality: must-not
    scope: [shared-repo-state]
    forbid: {git: push, args: ["--force"]}
"#;
    let d = tempfile::tempdir().unwrap();
    let skill = write_skill(d.path(), "rel", BODY, Some(lock), false);
    let mut t = Tx::new(Fmt::Claude);
    t.user("ship it");
    t.load_skill("rel", BODY);
    t.shell("git push --force", "", false, None);
    t.end("pushed");
    t.repeat_first(9);
    t.user("and again?");
    t.end("nothing to do");
    t.write(&d.path().join("t/resumed.jsonl"));
    let v = gate(d.path(), &skill, &[]).json();
    let c = &v["constraints"][0];
    assert_eq!(c["label"], "violated");
    assert_eq!(c["per_trajectory"][0]["events"], 1, "{c}");
    assert_eq!(c["evidence"].as_array().unwrap().len(), 1, "{c}");
}

#[test]
fn a_consent_gate_takes_the_user_turn_or_blocks_without_one() {
    let d = tempfile::tempdir().unwrap();
    let skill = write_skill(d.path(), "rel", BODY, Some(CONSENT_LOCK), false);
    let mut t = Tx::new(Fmt::Claude);
    t.user("prepare the release");
    t.load_skill("rel", BODY);
    t.say("The branch diverged. Force-push?");
    let turn = t.user("yes, force push");
    let push = t.shell("git push --force origin rel", "", false, None);
    t.end("pushed");
    t.write(&d.path().join("t/asked.jsonl"));
    let r = gate(d.path(), &skill, &[]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let c = &r.json()["constraints"][0];
    assert_eq!(c["label"], "exercised", "{c}");
    assert_eq!(c["per_trajectory"][0]["reason"], "consent-taken");
    assert_eq!(lines_of(c, "consent-turn"), vec![turn as u64]);
    assert_eq!(lines_of(c, "when-matched"), vec![push as u64]);
    let md = run_in(
        d.path(),
        &[
            "gate",
            skill.to_str().unwrap(),
            "--trajectories",
            "t",
            "--no-report",
        ],
    );
    assert!(
        md.stdout
            .contains("consent taken from the user turn at t/asked.jsonl event"),
        "{}",
        md.stdout
    );

    // No user turn since the load: a certain violation, at the push.
    let mut t = Tx::new(Fmt::Claude);
    t.user("prepare the release");
    t.load_skill("rel", BODY);
    let push = t.shell("git push --force origin rel", "", false, None);
    t.end("pushed");
    std::fs::remove_dir_all(d.path().join("t")).unwrap();
    t.write(&d.path().join("t/unasked.jsonl"));
    let r = gate(d.path(), &skill, &[]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    let c = &v["constraints"][0];
    assert_eq!(c["label"], "violated");
    assert_eq!(c["per_trajectory"][0]["reason"], "no-consent");
    assert_eq!(lines_of(c, "requirement-unmet"), vec![push as u64]);
    assert_eq!(v["verdict"], "fail-closed");
}

#[test]
fn a_stale_body_is_listed_and_judged_or_discarded_by_configuration() {
    let d = tempfile::tempdir().unwrap();
    let skill = write_skill(d.path(), "rel", BODY, Some(CONSENT_LOCK), false);
    let mut t = Tx::new(Fmt::Claude);
    t.user("release");
    // The session ran an older text of the skill.
    t.load_skill("rel", "Force-push whenever the branch diverged.");
    t.shell("git push --force", "", false, None);
    t.end("done");
    t.write(&d.path().join("t/old.jsonl"));
    let mut t = Tx::new(Fmt::Claude);
    t.user("release");
    t.load_skill("rel", BODY);
    t.end("nothing to push");
    t.write(&d.path().join("t/current.jsonl"));

    let r = gate(d.path(), &skill, &[]);
    let v = r.json();
    assert_eq!(
        v["trajectories"]["stale"],
        serde_json::json!(["t/old.jsonl"]),
        "{v}"
    );
    let loads = v["trajectories"]["loads"].as_array().unwrap();
    let stale: Vec<bool> = loads
        .iter()
        .map(|l| l["stale"].as_bool().unwrap())
        .collect();
    assert_eq!(stale, vec![false, true]);
    // Still judged: its force-push without consent is a violation.
    assert_eq!(v["constraints"][0]["label"], "violated");
    assert_eq!(r.code, 1);
    let md = run_in(
        d.path(),
        &[
            "gate",
            skill.to_str().unwrap(),
            "--trajectories",
            "t",
            "--no-report",
        ],
    );
    assert!(md.stdout.contains("Stale trajectories"), "{}", md.stdout);

    std::fs::write(d.path().join(".skillgate.yaml"), "stale: discard\n").unwrap();
    let r = gate(d.path(), &skill, &[]);
    let v = r.json();
    assert_eq!(
        v["trajectories"]["valid"],
        serde_json::json!(["t/current.jsonl"])
    );
    let why = v["trajectories"]["discarded"][0]["reason"]
        .as_str()
        .unwrap();
    assert!(why.starts_with("stale:"), "{why}");
    assert_eq!(v["constraints"][0]["label"], "untested");
}

#[test]
fn rules_that_never_applied_do_not_block_a_read_only_session() {
    let d = tempfile::tempdir().unwrap();
    let lock = r#"  - id: no-memory-edit
    text: "Never edit MEMORY.md."
    lines: [8, 8]
    modality: must-not
    scope: [sensitive-memory]
    forbid: {edit: "**/MEMORY.md"}
  - id: keep-history
    text: "Keep the shared history intact."
    lines: [9, 9]
    modality: must
    scope: [shared-repo-state]
"#;
    let skill = write_skill(d.path(), "mem", BODY, Some(lock), false);
    let mut t = Tx::new(Fmt::Claude);
    t.user("look around");
    t.load_skill("mem", BODY);
    t.shell("cat README.md", "", false, None);
    t.shell("git log --oneline", "", false, None);
    t.end("read it");
    t.write(&d.path().join("t/read.jsonl"));
    let r = gate(d.path(), &skill, &[]);
    let v = r.json();
    assert_eq!(r.code, 0, "{v}");
    assert_eq!(
        v["constraints"][0]["label"], "untested",
        "never tested, not verified"
    );
    assert_eq!(v["constraints"][1]["label"], "unverifiable");
    assert_eq!(v["constraints"][1]["outcome"], "ok");
    // One checkable rule, not exercised.
    assert_eq!(v["numbers"]["adequacy"], 0.0);
    assert_eq!(v["numbers"]["checkable"], 1);
    assert_eq!(v["verdict"], "under-exercised");

    // A commit is an action of shared-repo-state: now the rule fires and blocks.
    let mut t = Tx::new(Fmt::Claude);
    t.user("commit");
    t.load_skill("mem", BODY);
    let commit = t.shell("git commit -m x", "", false, None);
    t.end("committed");
    t.write(&d.path().join("t/commit.jsonl"));
    let r = gate(d.path(), &skill, &[]);
    let v = r.json();
    assert_eq!(r.code, 1, "{v}");
    assert_eq!(v["constraints"][1]["outcome"], "fail-closed");
    assert_eq!(
        lines_of(&v["constraints"][1], "scope-action"),
        vec![commit as u64]
    );
}

#[test]
fn nothing_to_measure_says_so_in_every_format() {
    let d = tempfile::tempdir().unwrap();
    let lock = r#"  - id: keep-history
    text: "Keep the shared history intact."
    lines: [8, 8]
    modality: must
    scope: [shared-repo-state]
  - id: no-force-push
    text: "Never force-push."
    lines: [9, 9]
    modality: must-not
    scope: [shared-repo-state]
    forbid: {git: push, args: ["--force"]}
"#;
    let skill = write_skill(d.path(), "idle", BODY, Some(lock), false);
    let mut t = Tx::new(Fmt::Claude);
    t.user("hello");
    t.load_skill("another-skill", "Other text.");
    t.end("hi");
    t.write(&d.path().join("t/other.jsonl"));
    let s = skill.to_str().unwrap();
    let run = |fmt: &str| {
        let r = run_in(
            d.path(),
            &[
                "gate",
                s,
                "--trajectories",
                "t",
                "--format",
                fmt,
                "--no-report",
            ],
        );
        assert_eq!(r.code, 3, "{fmt}: {}\n{}", r.stdout, r.stderr);
        assert!(!r.stdout.contains("fail-closed"), "{fmt}: {}", r.stdout);
        r.stdout
    };
    let md = run("md");
    assert!(md.contains("## idle — nothing-to-measure"), "{md}");
    assert!(md.contains("verdict: nothing-to-measure (exit 3)"), "{md}");
    // The JSON: verdict and exit code agree, no flag.
    let j: Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(j["exit_code"], 3);
    assert_eq!(j["skills"][0]["verdict"], "nothing-to-measure");
    assert_eq!(j["skills"][0]["flags"], serde_json::json!([]));
    assert_eq!(j["skills"][0]["exit_code"], 3);
    // SARIF: an error result of the nothing-to-measure rule.
    let sarif: Value = serde_json::from_str(&run("sarif")).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["ruleId"], "skillgate/nothing-to-measure");
    assert_eq!(results[0]["level"], "error");
    assert_eq!(
        sarif["runs"][0]["properties"]["skills"][0]["verdict"],
        "nothing-to-measure"
    );
    // GitHub: an error annotation and the summary line with the exit code.
    let gh = run("github");
    assert!(gh.contains("::error file="), "{gh}");
    assert!(gh.contains("nothing to measure (exit 3)"), "{gh}");
    assert!(gh.contains("verdict nothing-to-measure, exit 3"), "{gh}");
    // JUnit: one error case, the verdict and exit code as properties.
    let junit = run("junit");
    assert!(junit.contains("errors=\"1\""), "{junit}");
    assert!(
        junit.contains("<testcase name=\"nothing-to-measure\""),
        "{junit}"
    );
    assert!(
        junit.contains("<property name=\"verdict\" value=\"nothing-to-measure\"/>"),
        "{junit}"
    );
    assert!(
        junit.contains("<property name=\"exit-code\" value=\"3\"/>"),
        "{junit}"
    );
}
