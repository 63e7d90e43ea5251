//! `skillgate gate --changed-since REV`: only the skills touched between the
//! merge base with REV and HEAD (pull requests).

mod release_common;

use release_common::*;
use serde_json::Value;

/// Two skills (`skills/tidy-branches` and a copy in `skills/copy`) and a clean session, on main.
fn base() -> (TestRepo, git2::Oid) {
    let t = TestRepo::new();
    t.add_skill();
    t.write(
        "skills/copy/SKILL.md",
        &fixture("skills/tidy-branches/SKILL.md"),
    );
    t.write(
        "skills/copy/SKILL.constraints.yaml",
        &fixture("skills/tidy-branches/SKILL.constraints.yaml"),
    );
    t.add_session("clean", "clean");
    let c = t.commit("base");
    (t, c)
}

fn gate_json(t: &TestRepo, args: &[&str]) -> (Run, Value) {
    let mut a = vec!["gate", "--format", "json", "--no-report"];
    a.extend_from_slice(args);
    let r = run(&t.work(), &a, "", &[]);
    let v: Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", r.stdout, r.stderr));
    // The envelope (schemas/gate.schema.json), whatever the count of skills.
    assert_eq!(v["version"], 1, "{v}");
    assert_eq!(v["exit_code"], r.code, "{v}");
    (r, v)
}

#[test]
fn only_the_skill_changed_on_the_branch_is_gated() {
    let (t, main) = base();
    t.write("skills/copy/notes.md", "more\n");
    t.commit("touch copy");
    let (r, v) = gate_json(&t, &["--changed-since", &main.to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        v["skills"][0]["skill"]["path"], "skills/copy/SKILL.md",
        "{v}"
    );
    assert!(
        r.stderr.contains("skillgate: 1 skill(s) changed since"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_range_starts_at_the_merge_base_not_at_rev() {
    let (t, c0) = base();
    // The base branch moves on after the branch point (it touches tidy-branches).
    t.write("skills/tidy-branches/notes.md", "on main\n");
    let main_tip = t.commit("main moves");
    t.repo
        .reference("refs/heads/main", main_tip, true, "t")
        .unwrap();
    // The pull request branch, from c0, touches only `copy`.
    t.checkout("pr", c0);
    t.write("skills/copy/notes.md", "on the branch\n");
    t.commit("branch work");
    let (r, v) = gate_json(&t, &["--changed-since", "main"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        v["skills"][0]["skill"]["path"], "skills/copy/SKILL.md",
        "{v}"
    );
}

#[test]
fn trajectories_touch_both_and_positional_paths_narrow() {
    let (t, main) = base();
    t.add_session("forced", "forced");
    t.commit("a violating session");
    let (r, v) = gate_json(&t, &["--changed-since", &main.to_string()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let paths: Vec<&str> = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["skill"]["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        vec!["skills/copy/SKILL.md", "skills/tidy-branches/SKILL.md"]
    );
    let (r, v) = gate_json(
        &t,
        &["skills/tidy-branches", "--changed-since", &main.to_string()],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        v["skills"][0]["skill"]["path"],
        "skills/tidy-branches/SKILL.md"
    );
}

#[test]
fn no_changed_skill_is_an_empty_run_with_exit_0() {
    let (t, main) = base();
    t.write("README.md", "x\n");
    t.commit("docs");
    let (r, v) = gate_json(&t, &["--changed-since", &main.to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        v,
        serde_json::json!({"version": 1, "exit_code": 0, "skills": []})
    );
    assert!(r.stderr.contains("no skill changed since"), "{}", r.stderr);
    let r = run(
        &t.work(),
        &["gate", "--changed-since", "no-such-rev"],
        "",
        &[],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("revision `no-such-rev`"), "{}", r.stderr);
    let r = run(&t.work(), &["gate"], "", &[]);
    assert_eq!(r.code, 2, "skills or --changed-since are required");
}
