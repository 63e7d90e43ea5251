//! `skillgate ship SKILL_DIR`: validate + gate, one JSON object, and every
//! exit code (0 ship, 1 blocked, 2 input error, 3 nothing to measure).

mod release_common;

use release_common::*;
use serde_json::Value;

const SKILL: &str = "fixtures/release/demo/skills/tidy-branches";

fn ship(dir: &std::path::Path, args: &[&str]) -> (Run, Value) {
    let mut a = vec!["ship"];
    a.extend_from_slice(args);
    let r = run(dir, &a, "", &[]);
    let v: Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", r.stdout, r.stderr));
    (r, v)
}

#[test]
fn a_passing_skill_ships_with_exit_0_and_a_report() {
    let d = tempfile::tempdir().unwrap();
    let (r, v) = ship(
        &repo_root(),
        &[
            SKILL,
            "--trajectories",
            "fixtures/release/demo/sessions/clean.jsonl",
            "--report-dir",
            d.path().to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(v["ship"], true);
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["verdict"], "pass");
    assert_eq!(v["reasons"], serde_json::json!(["gate: pass"]));
    assert_eq!(v["validation"]["errors"], 0);
    assert_eq!(v["gate"]["skill"]["name"], "tidy-branches");
    assert_eq!(v["gate"]["numbers"]["extracted"], 6);
    let report = v["report"].as_str().unwrap();
    assert!(std::path::Path::new(report).is_file(), "{report}");
    assert_eq!(r.stderr, "skillgate ship: ship (exit 0): gate: pass\n");
}

#[test]
fn a_fail_closed_skill_is_blocked_with_exit_1() {
    let (r, v) = ship(
        &repo_root(),
        &[
            SKILL,
            "--trajectories",
            "fixtures/release/demo/sessions/forced.jsonl",
            "--no-report",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(v["ship"], false);
    assert_eq!(v["verdict"], "fail-closed");
    assert_eq!(v["blocking"][0]["id"], "no-force-push");
    assert_eq!(v["blocking"][0]["rule"], format!("{SKILL}/SKILL.md:11"));
    assert_eq!(
        v["blocking"][0]["evidence"][0],
        "fixtures/release/demo/sessions/forced.jsonl event 3 (line 7) (forbid-matched)"
    );
    assert_eq!(v["report"], Value::Null);
    assert_eq!(v["gate"]["verdict"], "fail-closed");
    assert_eq!(v["gate"]["constraints"][1]["id"], "no-force-push");
    // The gate's own object (SPEC §7) is snapshotted by the gate's tests.
    let mut shown = v.clone();
    shown["gate"] = "[the gate's JSON object]".into();
    insta::assert_json_snapshot!("ship_forced", shown);
}

#[test]
fn validation_errors_block_even_when_the_gate_passes() {
    let d = tempfile::tempdir().unwrap();
    let folder = d.path().join("wrong-folder");
    std::fs::create_dir_all(&folder).unwrap();
    for f in ["SKILL.md", "SKILL.constraints.yaml"] {
        std::fs::copy(repo_root().join(SKILL).join(f), folder.join(f)).unwrap();
    }
    let clean = repo_root().join("fixtures/release/demo/sessions/clean.jsonl");
    let (r, v) = ship(
        d.path(),
        &[
            "wrong-folder",
            "--trajectories",
            clean.to_str().unwrap(),
            "--no-report",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(v["verdict"], "pass");
    assert_eq!(v["validation"]["errors"], 1);
    assert_eq!(
        v["validation"]["diagnostics"][0]["code"],
        "name-folder-mismatch"
    );
    assert_eq!(v["reasons"][0], "validation: 1 error(s) in SKILL.md");
}

#[test]
fn nothing_to_measure_is_exit_3() {
    let d = tempfile::tempdir().unwrap();
    let (r, v) = ship(
        &repo_root(),
        &[
            SKILL,
            "--trajectories",
            d.path().to_str().unwrap(),
            "--no-report",
        ],
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert_eq!(v["ship"], false);
    assert_eq!(v["exit_code"], 3);
    assert!(
        v["reasons"][0]
            .as_str()
            .unwrap()
            .starts_with("gate: nothing to measure"),
        "{v}"
    );
}

#[test]
fn input_errors_are_exit_2_with_a_json_object() {
    let d = tempfile::tempdir().unwrap();
    let (r, v) = ship(d.path(), &["missing"]);
    assert_eq!(r.code, 2);
    assert_eq!(v["ship"], false);
    assert_eq!(v["gate"], Value::Null);
    assert!(
        v["error"]["message"].as_str().unwrap().contains("missing"),
        "{v}"
    );

    // Two skills in the folder.
    for name in ["a", "b"] {
        let f = d.path().join("two").join(name);
        std::fs::create_dir_all(&f).unwrap();
        std::fs::write(
            f.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\nbody\n"),
        )
        .unwrap();
    }
    let (r, v) = ship(d.path(), &["two"]);
    assert_eq!(r.code, 2);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("holds 2 skills; ship takes one skill folder"),
        "{v}"
    );

    // A bad lockfile.
    let f = d.path().join("bad");
    std::fs::create_dir_all(&f).unwrap();
    std::fs::write(
        f.join("SKILL.md"),
        "---\nname: bad\ndescription: d\n---\nbody\n",
    )
    .unwrap();
    std::fs::write(
        f.join("SKILL.constraints.yaml"),
        "version: 1\nskill: bad\nconstraints: {oops\n",
    )
    .unwrap();
    let (r, v) = ship(d.path(), &["bad"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("SKILL.constraints.yaml"),
        "{v}"
    );
    assert_eq!(
        v["validation"]["errors"], 0,
        "validation ran before the gate"
    );
}
