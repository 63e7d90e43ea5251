//! `skillgate extract` through the binary: the issue's checks on real skills,
//! snapshots of `--format json` for eight real skills, formats, bad input.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn skills() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realdata/skills")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extract")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json_of(skill: &Path) -> Value {
    let (code, out, err) = run(&["extract", skill.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn constraints(v: &Value) -> &Vec<Value> {
    v["constraints"].as_array().unwrap()
}

#[test]
fn tdd_iron_law_is_extracted_with_its_line() {
    let v = json_of(&skills().join("obra-superpowers/test-driven-development/SKILL.md"));
    let law = constraints(&v)
        .iter()
        .find(|c| c["text"] == "NO PRODUCTION CODE WITHOUT A FAILING TEST FIRST")
        .expect("the Iron Law");
    assert_eq!(law["lines"], serde_json::json!([34, 34]));
    assert_eq!(law["modality"], "must-not");
    assert_eq!(law["order"], "before");
    assert!(law["when"].is_object() && law["require"].is_object());
}

#[test]
fn executing_plans_main_branch_rule_is_must_not_and_shared_repo_state() {
    let v = json_of(&skills().join("obra-superpowers/executing-plans/SKILL.md"));
    let c = constraints(&v)
        .iter()
        .find(|c| {
            c["text"]
                .as_str()
                .unwrap()
                .starts_with("Never start implementation on main/master branch")
        })
        .expect("the main-branch rule");
    assert_eq!(c["lines"], serde_json::json!([64, 64]));
    assert_eq!(c["modality"], "must-not");
    assert_eq!(c["scope"], serde_json::json!(["shared-repo-state"]));
    // "… without explicit user consent": a consent gate (SPEC §4.2), one
    // consent before the work starts.
    let when = c["when"].to_string();
    assert!(
        when.contains("\"branch\":\"main\"") && when.contains("\"branch\":\"master\""),
        "{when}"
    );
    assert_eq!(c["require"], serde_json::json!({"user_turn": true}));
    assert_eq!(c["order"], "before");
}

#[test]
fn modern_python_forbids_activating_virtual_environments() {
    let v = json_of(&skills().join("trailofbits-skills/modern-python/SKILL.md"));
    let c = constraints(&v)
        .iter()
        .find(|c| c["lines"] == serde_json::json!([41, 41]))
        .expect("line 41: Never manually activate or manage virtual environments");
    assert_eq!(c["modality"], "must-not");
    assert_eq!(
        c["forbid"]["command_re"],
        "^(source|\\.)\\s+\\S*bin/activate\\b"
    );
    let row = constraints(&v)
        .iter()
        .find(|c| c["lines"] == serde_json::json!([36, 36]))
        .expect("table row 36");
    assert_eq!(row["modality"], "should-not");
    assert!(row["forbid"].to_string().contains("bin/activate"));
}

#[test]
fn the_issue_lines_on_the_fixture_skill() {
    let v = json_of(&fixtures().join("guarded-skill/SKILL.md"));
    let by_text = |t: &str| {
        constraints(&v)
            .iter()
            .find(|c| c["text"] == t)
            .cloned()
            .expect(t)
    };
    let push = by_text("Never run `git push --force`.");
    assert_eq!(
        push["forbid"],
        serde_json::json!({"git": "push", "args": ["--force"]})
    );
    assert_eq!(push["scope"], serde_json::json!(["shared-repo-state"]));
    assert_eq!(push["lines"], serde_json::json!([13, 13]));
    let skills = by_text("Do not edit anything under `.claude/skills/`.");
    assert_eq!(
        skills["forbid"],
        serde_json::json!({"touch": ".claude/skills/**"})
    );
    assert_eq!(skills["scope"], serde_json::json!(["self-modification"]));
    let merge = by_text("Before merging, present exactly these 4 options to the user.");
    assert!(merge["when"].is_object());
    assert!(merge.get("require").is_none() && merge.get("forbid").is_none());
    // The example section's fenced command is not a rule.
    assert!(constraints(&v)
        .iter()
        .all(|c| c["lines"][0].as_u64().unwrap() < 30));
}

#[test]
fn snapshots_of_eight_real_skills() {
    for (name, rel) in [
        ("tdd", "obra-superpowers/test-driven-development"),
        (
            "verification-before-completion",
            "obra-superpowers/verification-before-completion",
        ),
        ("executing-plans", "obra-superpowers/executing-plans"),
        (
            "using-git-worktrees",
            "obra-superpowers/using-git-worktrees",
        ),
        ("modern-python", "trailofbits-skills/modern-python"),
        ("gh-cli", "trailofbits-skills/gh-cli"),
        ("create-plan", "openai-skills/create-plan"),
        ("webapp-testing", "anthropics-skills/webapp-testing"),
    ] {
        let path = skills().join(rel).join("SKILL.md");
        let (code, out, err) = run(&["extract", path.to_str().unwrap(), "--format", "json"]);
        assert_eq!(code, 0, "{rel}: {err}");
        insta::assert_snapshot!(format!("extract_json_{name}"), out);
    }
}

#[test]
fn a_skill_folder_works_like_its_skill_md() {
    let dir = skills().join("trailofbits-skills/gh-cli");
    let a = run(&["extract", dir.to_str().unwrap(), "--format", "json"]);
    let b = run(&[
        "extract",
        dir.join("SKILL.md").to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(a.0, 0);
    assert_eq!(a.1, b.1);
}

#[test]
fn yaml_and_md_formats() {
    let path = fixtures().join("guarded-skill/SKILL.md");
    let (code, yaml, _) = run(&["extract", path.to_str().unwrap(), "--format", "yaml"]);
    assert_eq!(code, 0);
    let lf = skillgate::extract::Lockfile::parse(Path::new("out.yaml"), &yaml)
        .expect("yaml output is a valid lockfile");
    assert_eq!(lf.skill, "guarded-skill");
    insta::assert_snapshot!("extract_yaml_guarded_skill", yaml);
    let (code, md, _) = run(&["extract", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        md.contains("| `never-run-git-push-force` | 13–13 | must-not | shared-repo-state |"),
        "{md}"
    );
}

#[test]
fn bad_input_exits_2_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope/SKILL.md");
    let (code, _, err) = run(&["extract", missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("nope/SKILL.md"), "{err}");

    let bad = dir.path().join("SKILL.md");
    std::fs::write(
        &bad,
        b"---\nname: x\ndescription: d\n---\nok\n\xff\xfe bad\n",
    )
    .unwrap();
    let (code, out, err) = run(&["extract", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("SKILL.md:6:"), "{err}");

    std::fs::write(&bad, "---\nname: [unclosed\n---\nNever push.\n").unwrap();
    let (code, _, err) = run(&["extract", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("SKILL.md:3:1: invalid YAML frontmatter"),
        "{err}"
    );
}

#[test]
fn hostile_bodies_do_not_panic_and_finish_fast() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    let mut body = String::from("---\nname: x\ndescription: d\n---\n");
    for _ in 0..2000 {
        body.push_str(
            "- Never run `git push --force` before merging without running the tests | x |\n",
        );
    }
    body.push_str(&"Never ".repeat(10_000));
    body.push_str("\n\n| Avoid | Use Instead |\n|---|---|\n");
    for _ in 0..3000 {
        body.push_str("| `git push --force` | b |\n");
    }
    // One paragraph of long lines without a sentence end (quadratic traps).
    body.push('\n');
    for _ in 0..8 {
        body.push_str(&"push back commit the merge ".repeat(2000));
        body.push('\n');
    }
    // An unclosed fence at the end runs to the end of the file.
    body.push_str("\n```\nNEVER DO THIS IN AN UNCLOSED FENCE\n");
    std::fs::write(&p, &body).unwrap();
    let t = std::time::Instant::now();
    let (code, out, err) = run(&["extract", p.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(constraints(&v).len() > 5000, "{}", constraints(&v).len());
    let ids: std::collections::BTreeSet<&str> = constraints(&v)
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), constraints(&v).len(), "ids are unique");
    // A hang guard, not a benchmark: quadratic work here would take many
    // minutes; a debug build on a loaded 2-core machine takes about 25 s
    // of wall time for 6 s of CPU.
    assert!(t.elapsed().as_secs() < 120);
}
