//! Proposals end to end (issue 6): `gate --proposals DIR` writes patches that
//! `git apply --check` accepts on the exact bytes; `propose --apply ID`
//! applies one atomically; a lockfile pin turns an ambiguous constraint into
//! a decided one; a lockfile created from /dev/null. Fixtures: fixtures/propose/README.md.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The JSON on stdout; for a `gate --format json` envelope, its one
    /// skill object (or the array of several).
    fn json(&self) -> Value {
        let v: Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr));
        match v.get("skills") {
            Some(Value::Array(a)) if v.get("version").is_some() => match a.as_slice() {
                [one] => one.clone(),
                _ => Value::Array(a.clone()),
            },
            _ => v,
        }
    }
}

fn sg(dir: &Path, args: &[&str]) -> Run {
    let out = assert_cmd::Command::cargo_bin("skillgate")
        .unwrap()
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .args(args)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let q = to.join(e.file_name());
        if p.is_dir() {
            copy_tree(&p, &q);
        } else {
            std::fs::copy(&p, &q).unwrap();
        }
    }
}

fn git(dir: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// A temporary git repository holding fixture `name`'s skill and the transcripts.
fn workspace(name: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/propose");
    copy_tree(&root.join(name).join("skills"), &d.path().join("skills"));
    copy_tree(&root.join("transcripts"), &d.path().join("transcripts"));
    assert!(git(d.path(), &["init", "-q"]).0);
    d
}

const SKILL: &str = "skills/release-helper/SKILL.md";
const LOCK: &str = "skills/release-helper/SKILL.constraints.yaml";

fn gate(dir: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "gate",
        SKILL,
        "--trajectories",
        "transcripts",
        "--format",
        "json",
        "--no-report",
    ];
    args.extend_from_slice(extra);
    sg(dir, &args)
}

fn patches(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "patch"))
        .collect();
    v.sort();
    v
}

fn assert_all_apply(ws: &Path, out: &Path, expected: usize) {
    let ps = patches(out);
    assert_eq!(ps.len(), expected, "{ps:?}");
    for p in ps {
        let (ok, msg) = git(ws, &["apply", "--check", p.to_str().unwrap()]);
        assert!(
            ok,
            "{}: {msg}\n{}",
            p.display(),
            std::fs::read_to_string(&p).unwrap()
        );
    }
}

#[test]
fn violated_twice_gives_patches_that_git_apply_accepts() {
    let ws = workspace("twice");
    let r = gate(ws.path(), &["--proposals", "out"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["verdict"], "compliance-gap");
    let props = v["proposals"].as_array().unwrap();
    let ids: Vec<&str> = props.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        ["strengthen-rule-no-force-push", "add-constraint-plain-push"]
    );
    let p = &props[0];
    assert_eq!(p["constraint"], "no-force-push");
    assert_eq!(p["kind"], "strengthen-rule");
    assert_eq!(p["target"], SKILL);
    assert!(p["rule"].as_str().unwrap().starts_with("3. MUST NOT force-push a shared branch. (Precondition: this applies to every `git push --force`"), "{p}");
    assert_eq!(p["trace"]["trigger"], "violated in 2 trajectories");
    assert_eq!(
        p["trace"]["locations"],
        serde_json::json!([
            "transcripts/forced.jsonl event 3 (line 7)",
            "transcripts/hidden.jsonl event 3 (line 7)"
        ])
    );
    // The SKILL.md has no final newline: the diff says so.
    assert!(p["patch"]
        .as_str()
        .unwrap()
        .contains("\\ No newline at end of file"));
    let add = &props[1];
    assert_eq!(add["kind"], "add-constraint");
    assert!(
        add["patch"].as_str().unwrap().contains("+## Constraints"),
        "{add}"
    );
    // Never trajectory content.
    assert!(!r.stdout.contains("Ship the release"), "{}", r.stdout);
    assert_all_apply(ws.path(), &ws.path().join("out"), 2);
    // Each applies for real, and the patched file is the proposal's text.
    let (ok, msg) = git(
        ws.path(),
        &[
            "apply",
            "out/release-helper--add-constraint-plain-push.patch",
        ],
    );
    assert!(ok, "{msg}");
    let text = std::fs::read_to_string(ws.path().join(SKILL)).unwrap();
    assert!(text.ends_with(
        "## Constraints\n\n- You MUST: Push the release branch with `git push origin <branch>`. (Precondition: this applies to every `git push --force`, with no exception.)\n"
    ), "{text}");
}

#[test]
fn propose_lists_without_writing_and_applies_only_when_asked() {
    let ws = workspace("twice");
    let before = std::fs::read(ws.path().join(SKILL)).unwrap();
    let r = sg(
        ws.path(),
        &["propose", SKILL, "--trajectories", "transcripts"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .starts_with("strengthen-rule-no-force-push\tstrengthen-rule\t"),
        "{}",
        r.stdout
    );
    assert_eq!(std::fs::read(ws.path().join(SKILL)).unwrap(), before);

    let r = sg(
        ws.path(),
        &[
            "propose",
            SKILL,
            "--trajectories",
            "transcripts",
            "--apply",
            "nope",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("no proposal `nope`"), "{}", r.stderr);

    let r = sg(
        ws.path(),
        &[
            "propose",
            SKILL,
            "--trajectories",
            "transcripts",
            "--apply",
            "strengthen-rule-no-force-push",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(ws.path().join(SKILL)).unwrap();
    assert!(
        text.contains("3. MUST NOT force-push a shared branch. (Precondition:"),
        "{text}"
    );
    // Applied once: the same proposal is not made again.
    let v = gate(ws.path(), &[]).json();
    let ids: Vec<&str> = v["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["add-constraint-plain-push"]);
}

#[test]
fn a_lockfile_pin_turns_the_ambiguous_constraint_into_a_decided_one() {
    let ws = workspace("ambiguous");
    let r = gate(ws.path(), &["--proposals", "out"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["constraints"][0]["label"], "ambiguous");
    let props = v["proposals"].as_array().unwrap();
    assert_eq!(props[0]["id"], "pin-predicate-test-before-push");
    assert_eq!(props[0]["target"], LOCK);
    assert_eq!(
        props[0]["rule"],
        "require: {command: \"cargo test*\"}\norder: before"
    );
    assert_eq!(props[1]["id"], "mark-manual-tell-branch");
    assert_all_apply(ws.path(), &ws.path().join("out"), 2);

    let r = sg(
        ws.path(),
        &[
            "propose",
            SKILL,
            "--trajectories",
            "transcripts",
            "--apply",
            "pin-predicate-test-before-push",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = gate(ws.path(), &[]).json();
    let c = &v["constraints"][0];
    assert_eq!(c["id"], "test-before-push");
    // Every transcript runs `cargo test` (line 5) before pushing (line 7): decided.
    assert_eq!(c["label"], "exercised", "{c}");
    assert_eq!(c["outcome"], "ok", "{c}");

    // Marking manual leaves a valid lockfile and says what a person must write;
    // the rule keeps blocking until a person writes the reason.
    assert_eq!(
        props[1]["rule"],
        skillgate::propose::manual_line(),
        "{}",
        props[1]
    );
    let r = sg(
        ws.path(),
        &[
            "propose",
            SKILL,
            "--trajectories",
            "transcripts",
            "--apply",
            "mark-manual-tell-branch",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("a person must now write `manual: "),
        "{}",
        r.stderr
    );
    let r = gate(ws.path(), &[]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(r.json()["constraints"][1]["outcome"], "fail-closed");
    let lock = std::fs::read_to_string(ws.path().join(LOCK)).unwrap();
    // A person writes the reason in place of the two comment lines.
    let mut done = String::new();
    for l in lock.lines() {
        let t = l.trim_start();
        if t.starts_with("# skillgate: people decide") {
            continue;
        }
        if t.starts_with("# must write, in place of this comment:") {
            let indent = &l[..l.len() - t.len()];
            done.push_str(&format!("{indent}manual: \"What is said to the user is in the conversation; reviewers read the sessions listed.\"\n"));
            continue;
        }
        done.push_str(l);
        done.push('\n');
    }
    std::fs::write(ws.path().join(LOCK), done).unwrap();
    let v = gate(ws.path(), &[]).json();
    assert_eq!(v["constraints"][1]["outcome"], "needs-review");
}

#[test]
fn without_a_lockfile_the_proposal_creates_it_from_dev_null() {
    let ws = workspace("nolock");
    let r = gate(ws.path(), &["--proposals", "out"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["source"]["kind"], "extracted");
    let props = v["proposals"].as_array().unwrap();
    assert_eq!(props.len(), 1, "{props:?}");
    assert!(props[0]["patch"]
        .as_str()
        .unwrap()
        .starts_with("--- /dev/null\n+++ b/skills/release-helper/SKILL.constraints.yaml\n"));
    assert_all_apply(ws.path(), &ws.path().join("out"), 1);
    let id = props[0]["id"].as_str().unwrap().to_string();
    let r = sg(
        ws.path(),
        &[
            "propose",
            SKILL,
            "--trajectories",
            "transcripts",
            "--apply",
            &id,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(ws.path().join(LOCK).exists());
    // Applying again is refused: the file exists now.
    let lock = std::fs::read_to_string(ws.path().join(LOCK)).unwrap();
    assert!(
        lock.contains("# must write, in place of this comment: manual: "),
        "{lock}"
    );
    // The created lockfile is valid: the gate reads it (the rule still blocks).
    let r = gate(ws.path(), &[]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
}

#[test]
fn the_gate_json_always_carries_the_proposals_and_no_dir_means_no_files() {
    let ws = workspace("ambiguous");
    let r = gate(ws.path(), &[]);
    assert_eq!(r.json()["proposals"].as_array().unwrap().len(), 2);
    assert!(!ws.path().join("out").exists());
}
