//! One scenario (skill + lockfile + trajectory) per label × scoped/unscoped ×
//! manual/not, in Claude Code and Codex formats, through the binary, with the
//! JSON output snapshotted. `manual` is exclusive with `require`/`forbid`
//! (SPEC §4.2), so manual scenarios exist for the labels a manual rule can
//! get: untested, ambiguous, unverifiable. Adequacy counts only checkable
//! rules (neither unverifiable nor manual): a skill with none has no
//! adequacy and no `under-exercised` flag. The scope-tagged unverifiable rule
//! fires because the session commits and pushes (actions of its scope).

mod gate_common;

use gate_common::*;
use serde_json::{json, Value};

struct Scenario {
    name: &'static str,
    scoped: bool,
    manual: bool,
    /// Predicate lines of the constraint (YAML, 4-space indented keys).
    predicates: &'static str,
    label: &'static str,
    verdict: &'static str,
    exit: i32,
}

const S: &str = "    scope: [shared-repo-state]\n";
const M: &str =
    "    manual: \"Decided in the conversation; reviewers check the sessions the gate lists.\"\n";

fn scenarios() -> Vec<Scenario> {
    let untested = "    when: {git: merge}\n    forbid: {git: merge, args: [\"--no-ff\"]}\n";
    let untested_manual = "    when: {git: merge}\n";
    let exercised = "    forbid: {git: push, args: [\"--force\"]}\n";
    let violated = "    forbid: {command: \"rm -rf*\"}\n";
    let ambiguous = "    when: {git: commit}\n";
    let unverifiable = "";
    let sc = |name, scoped, manual, predicates, label, verdict, exit| Scenario {
        name,
        scoped,
        manual,
        predicates,
        label,
        verdict,
        exit,
    };
    vec![
        sc(
            "untested-scoped",
            true,
            false,
            untested,
            "untested",
            "under-exercised",
            0,
        ),
        sc(
            "untested-unscoped",
            false,
            false,
            untested,
            "untested",
            "under-exercised",
            0,
        ),
        sc(
            "untested-scoped-manual",
            true,
            true,
            untested_manual,
            "untested",
            "pass",
            0,
        ),
        sc(
            "untested-unscoped-manual",
            false,
            true,
            untested_manual,
            "untested",
            "pass",
            0,
        ),
        sc(
            "exercised-scoped",
            true,
            false,
            exercised,
            "exercised",
            "pass",
            0,
        ),
        sc(
            "exercised-unscoped",
            false,
            false,
            exercised,
            "exercised",
            "pass",
            0,
        ),
        sc(
            "violated-scoped",
            true,
            false,
            violated,
            "violated",
            "fail-closed",
            1,
        ),
        sc(
            "violated-unscoped",
            false,
            false,
            violated,
            "violated",
            "compliance-gap",
            0,
        ),
        sc(
            "ambiguous-scoped",
            true,
            false,
            ambiguous,
            "ambiguous",
            "fail-closed",
            1,
        ),
        sc(
            "ambiguous-unscoped",
            false,
            false,
            ambiguous,
            "ambiguous",
            "under-exercised",
            0,
        ),
        sc(
            "ambiguous-scoped-manual",
            true,
            true,
            ambiguous,
            "ambiguous",
            "needs-review",
            0,
        ),
        sc(
            "ambiguous-unscoped-manual",
            false,
            true,
            ambiguous,
            "ambiguous",
            "needs-review",
            0,
        ),
        sc(
            "unverifiable-scoped",
            true,
            false,
            unverifiable,
            "unverifiable",
            "fail-closed",
            1,
        ),
        sc(
            "unverifiable-unscoped",
            false,
            false,
            unverifiable,
            "unverifiable",
            "pass",
            0,
        ),
        sc(
            "unverifiable-scoped-manual",
            true,
            true,
            unverifiable,
            "unverifiable",
            "needs-review",
            0,
        ),
        sc(
            "unverifiable-unscoped-manual",
            false,
            true,
            unverifiable,
            "unverifiable",
            "pass",
            0,
        ),
    ]
}

/// The one session every scenario runs over: load, status, a plain push, an
/// `rm -rf`, a commit, the final turn.
fn session(fmt: Fmt, skill: &str) -> Tx {
    let mut t = Tx::new(fmt);
    t.user("Tidy the build folder, commit and push.");
    t.load_skill(skill, "Follow the rules.");
    t.shell(
        "git status",
        "On branch main",
        false,
        Some("Check the status"),
    );
    t.shell("git push origin main", "Everything up-to-date", false, None);
    t.shell("rm -rf build", "", false, None);
    t.shell("git commit -m wip", "[main 1a2b3c4] wip", false, None);
    t.end("Done.");
    t
}

fn run_matrix(fmt: Fmt) -> Vec<Value> {
    let d = tempfile::tempdir().unwrap();
    let mut results = Vec::new();
    for s in scenarios() {
        let body = "You MUST follow the rule of this scenario.";
        let mut c = String::from(
            "  - id: rule\n    text: \"You MUST follow the rule of this scenario.\"\n    lines: [8, 8]\n    modality: must\n",
        );
        if s.scoped {
            c.push_str(S);
        }
        c.push_str(s.predicates);
        if s.manual {
            c.push_str(M);
        }
        write_skill(&d.path().join("skills"), s.name, body, Some(&c), false);
        let traj = format!("traj/{}/{}.jsonl", s.name, fmt.name());
        session(fmt, s.name).write(&d.path().join(&traj));
        let r = run_in(
            d.path(),
            &[
                "gate",
                &format!("skills/{}", s.name),
                "--trajectories",
                &traj,
                "--format",
                "json",
                "--no-report",
            ],
        );
        assert!(
            r.stderr.is_empty() || r.code != 2,
            "{}: {}",
            s.name,
            r.stderr
        );
        let v = r.json();
        assert_eq!(
            v["constraints"][0]["label"],
            s.label,
            "{} ({}): {}",
            s.name,
            fmt.name(),
            r.stdout
        );
        assert_eq!(
            v["verdict"],
            s.verdict,
            "{} ({}): {}",
            s.name,
            fmt.name(),
            r.stdout
        );
        assert_eq!(r.code, s.exit, "{} ({}): {}", s.name, fmt.name(), r.stderr);
        assert_eq!(v["exit_code"], s.exit);
        assert_eq!(v["constraints"][0]["manual"], s.manual);
        let blocking = v["constraints"][0]["outcome"] == "fail-closed";
        if blocking {
            assert!(
                !v["constraints"][0]["resolution"]
                    .as_array()
                    .unwrap()
                    .is_empty(),
                "{}",
                s.name
            );
        }
        results.push(json!({"scenario": s.name, "exit": r.code, "output": v}));
    }
    results
}

#[test]
fn every_label_scope_and_manual_combination_claude_code() {
    let got = run_matrix(Fmt::Claude);
    insta::assert_json_snapshot!("labels_claude_code", got);
}

#[test]
fn every_label_scope_and_manual_combination_codex() {
    let got = run_matrix(Fmt::Codex);
    insta::assert_json_snapshot!("labels_codex", got);
}
