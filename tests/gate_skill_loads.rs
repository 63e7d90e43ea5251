//! The gate's verdicts on the eight real Claude Code sessions that loaded
//! real superpowers skills (`../shared/realdata/transcripts/claude-code-skill-loads/`),
//! each skill at the exact version the session ran
//! (`../shared/realdata/skills-for-sessions/`), against what a reviewer reads
//! in the transcripts (PROVENANCE.tsv says what the agent did after each
//! load). `docs/gate.md` ("Real sessions") has the table with the reading of
//! each session and the verdicts before and after issue 13.
//!
//! Each case names the verdict and the labels of the rules a reviewer checks
//! in that session. Known misses are asserted as they are (so a change shows
//! up) and marked `miss:` with the reason.

mod gate_common;

use gate_common::*;
use serde_json::Value;

const SKILLS: &str = "../shared/realdata/skills-for-sessions/obra-superpowers";
const SESSIONS: &str = "../shared/realdata/transcripts/claude-code-skill-loads";

struct Case {
    skill: &'static str,
    session: &'static str,
    verdict: &'static str,
    exit: i32,
    /// (constraint id, label): the rules the reviewer checks.
    labels: &'static [(&'static str, &'static str)],
    /// Constraints that block (outcome fail-closed), exactly.
    blocking: &'static [&'static str],
}

fn judge(skill: &str, session: &str) -> (i32, Value) {
    let s = format!("{SKILLS}@{skill}");
    let t = format!("{SESSIONS}/{session}_full.jsonl");
    let r = run_in(
        &repo(),
        &[
            "gate",
            &s,
            "--trajectories",
            &t,
            "--format",
            "json",
            "--no-report",
        ],
    );
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v = r.json();
    let one = match &v {
        Value::Array(a) => a[0].clone(),
        v => v.clone(),
    };
    (r.code, one)
}

fn check(c: &Case) {
    let (code, v) = judge(c.skill, c.session);
    let what = format!("{} × {}", c.skill, c.session);
    assert_eq!(v["verdict"], c.verdict, "{what}: verdict");
    assert_eq!(code, c.exit, "{what}: exit code");
    let constraints = v["constraints"].as_array().expect("constraints");
    let label = |id: &str| {
        constraints
            .iter()
            .find(|k| k["id"] == id)
            .unwrap_or_else(|| panic!("{what}: no constraint {id}"))["label"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for (id, want) in c.labels {
        assert_eq!(label(id), *want, "{what}: {id}");
    }
    let mut blocking: Vec<&str> = constraints
        .iter()
        .filter(|k| k["outcome"] == "fail-closed")
        .map(|k| k["id"].as_str().unwrap())
        .collect();
    blocking.sort_unstable();
    let mut want = c.blocking.to_vec();
    want.sort_unstable();
    assert_eq!(blocking, want, "{what}: blocking constraints");
}

/// writing-plans 4.1.1 (two sessions): the plan is saved under docs/plans and
/// the execution choice offered. The plan *template* (a fenced markdown
/// block holding code blocks) is not instructions to the agent.
#[test]
fn writing_plans_sessions_that_saved_their_plan_pass() {
    for session in ["entireio__a7f087274d3b-0", "entireio__a4a8d7d25377-3"] {
        check(&Case {
            skill: "v4.1.1/writing-plans",
            session,
            verdict: "pass",
            exit: 0,
            labels: &[("save-plans-docs-plans-yyyy-mm", "exercised")],
            blocking: &[],
        });
    }
    check(&Case {
        skill: "v4.3.1/writing-plans",
        session: "RecoveryLM__1ee785c22e6a-0",
        verdict: "pass",
        exit: 0,
        labels: &[("save-plans-docs-plans-yyyy-mm", "exercised")],
        blocking: &[],
    });
}

/// requesting-code-review 4.0.3 and 4.2.0: both sessions dispatched the
/// code-reviewer subagent (the later amend and force-push are not this
/// skill's rules).
#[test]
fn requesting_code_review_sessions_dispatched_the_reviewer() {
    for (skill, session) in [
        ("v4.0.3/requesting-code-review", "entireio__e012b8e855d7-0"),
        ("v4.2.0/requesting-code-review", "entireio__18b9cffdf43b-0"),
    ] {
        check(&Case {
            skill,
            session,
            verdict: "pass",
            exit: 0,
            labels: &[
                ("use-task-tool-superpowers-code-reviewer", "exercised"),
                ("dispatch-code-reviewer-subagent", "exercised"),
            ],
            blocking: &[],
        });
    }
}

/// receiving-code-review 4.1.1: the agent verified the feedback and fixed
/// two items; nothing scope-tagged was broken, nothing blocks.
#[test]
fn receiving_code_review_does_not_block() {
    check(&Case {
        skill: "v4.1.1/receiving-code-review",
        session: "entireio__243ed775b643-0",
        verdict: "under-exercised",
        exit: 0,
        labels: &[],
        blocking: &[],
    });
}

/// systematic-debugging: a fix edited before any failing test. In the
/// RecoveryLM session the fix landed (violated); in the entireio session the
/// user rejected the edit and the session went on elsewhere, so the
/// requirement is still open at the end (ambiguous).
#[test]
fn systematic_debugging_fix_without_a_failing_test() {
    check(&Case {
        skill: "v4.3.1/systematic-debugging",
        session: "RecoveryLM__c7a439bc5cb0-0",
        verdict: "compliance-gap",
        exit: 0,
        labels: &[("create-failing-test-case", "violated")],
        blocking: &[],
    });
    check(&Case {
        skill: "v4.1.1/systematic-debugging",
        session: "entireio__a4a8d7d25377-3",
        verdict: "under-exercised",
        exit: 0,
        labels: &[("create-failing-test-case", "ambiguous")],
        blocking: &[],
    });
}

/// brainstorming: a session that went straight to editing (no design, no
/// design doc, no commit of it, no writing-plans) is blocked for the
/// scope-tagged design-doc commit and flags the hard gate; the 4.0.3 session
/// that implemented without a design doc, a worktree or a plan likewise.
#[test]
fn brainstorming_sessions_that_skipped_the_design_are_blocked() {
    check(&Case {
        skill: "v4.3.1/brainstorming",
        session: "RecoveryLM__c7a439bc5cb0-0",
        verdict: "fail-closed",
        exit: 1,
        labels: &[
            ("do-not-invoke-any-implementation-skill", "violated"),
            ("write-design-doc-save-docs-plans", "violated"),
            ("commit-design-document-git", "violated"),
            ("transition-implementation-invoke-writing-plans", "violated"),
        ],
        blocking: &[
            "commit-design-document-git",
            "write-design-doc-save-docs-plans",
        ],
    });
    check(&Case {
        skill: "v4.0.3/brainstorming",
        session: "entireio__7033bba9319c-2",
        verdict: "fail-closed",
        exit: 1,
        labels: &[
            ("write-validated-design-docs-plans-yyyy", "violated"),
            ("commit-design-document-git", "violated"),
            ("use-superpowers-using-git-worktrees-create", "violated"),
            ("use-superpowers-writing-plans-create-detailed", "violated"),
        ],
        blocking: &[
            "commit-design-document-git",
            "use-superpowers-using-git-worktrees-create",
        ],
    });
}

/// The long RecoveryLM session: brainstorming done step by step (design doc
/// written, writing-plans invoked), then writing-plans, then
/// subagent-driven development with the implementers as subagents. The work
/// starts out of sight (in subagents); its first commit shows it started, so
/// the missing worktree ("REQUIRED: set up an isolated workspace before
/// starting") is violated and blocks.
/// miss: the design doc was never committed, but a commit cannot be due
/// before the first commit, and the main agent never edits code itself, so
/// that rule stays `untested`; two implementers dispatched at once has no
/// predicate in the grammar.
#[test]
fn a_session_whose_work_is_done_by_subagents() {
    check(&Case {
        skill: "v4.3.1/brainstorming",
        session: "RecoveryLM__1ee785c22e6a-0",
        // "explore project context — check files, docs, recent commits" is
        // checked (the session read the log), but "you MUST present it and
        // get approval" gates the work's edits, and the main agent edits no
        // code: one more rule untested puts adequacy at 6/11, under the
        // 0.6 floor — under-exercised, a warning (exit 0), not a pass.
        verdict: "under-exercised",
        exit: 0,
        labels: &[
            ("design-short-few-sentences-truly-simple", "untested"),
            ("explore-project-context-check-files-docs", "exercised"),
            ("do-not-invoke-frontend-design-mcp", "exercised"),
            ("write-validated-design-docs-plans-yyyy", "exercised"),
            (
                "transition-implementation-invoke-writing-plans",
                "exercised",
            ),
            ("commit-design-document-git", "untested"),
        ],
        blocking: &[],
    });
    check(&Case {
        skill: "v4.3.1/subagent-driven-development",
        session: "RecoveryLM__1ee785c22e6a-0",
        verdict: "fail-closed",
        exit: 1,
        labels: &[
            ("make-subagent-read-plan-file-provide", "exercised"),
            ("superpowers-using-git-worktrees-required-set", "violated"),
        ],
        blocking: &["superpowers-using-git-worktrees-required-set"],
    });
}
