//! SPEC §5 per-trajectory facts on Claude Code sessions: user turns (prompts,
//! ask-tool answers, session commands), masked test failures, completeness,
//! resumed history counted once, and the injected skill body's hash.
//! Fixtures under fixtures/decode/turns/ (README there says which real shape
//! each imitates); real sessions from ../shared/realdata.

use skillgate::decode::skills::{skill_md_body_sha256, skill_md_matches};
use skillgate::decode::{
    decode_path, Action, DecodeOptions, Event, ProblemKind, TestOutcome, Trajectory, UserTurnVia,
};
use std::path::{Path, PathBuf};

fn fx(rel: &str) -> PathBuf {
    Path::new("fixtures/decode/turns").join(rel)
}

fn decode(p: &Path) -> Trajectory {
    decode_path(p, None, &DecodeOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn user_turns(t: &Trajectory) -> Vec<(usize, UserTurnVia, Option<String>)> {
    t.events
        .iter()
        .filter_map(|e| match &e.action {
            Action::UserTurn { via, command } => Some((e.index, *via, command.clone())),
            _ => None,
        })
        .collect()
}

fn shell_line(e: &Event) -> &str {
    match &e.action {
        Action::Shell(s) => &s.line,
        _ => "",
    }
}

fn shells(t: &Trajectory) -> Vec<(&str, bool, Option<TestOutcome>)> {
    t.events
        .iter()
        .filter(|e| matches!(e.action, Action::Shell(_)))
        .map(|e| (shell_line(e), e.failed, e.test_outcome))
        .collect()
}

fn body_hash(t: &Trajectory) -> Vec<Option<String>> {
    t.events
        .iter()
        .filter_map(|e| match &e.action {
            Action::SkillLoad { body_sha256, .. } => Some(body_sha256.clone()),
            _ => None,
        })
        .collect()
}

const REAL: &str = "../shared/realdata/transcripts/claude-code-skill-loads";
const SKILLS: &str = "../shared/realdata/skills-for-sessions";

fn real(name: &str) -> Option<Trajectory> {
    let p = Path::new(REAL).join(name);
    p.exists().then(|| decode(&p))
}

#[test]
fn piped_red_runs_are_failed_and_an_env_error_is_not_a_red_test() {
    let t = decode(&fx("claude-piped-red-exit.jsonl"));
    assert_eq!(
        shells(&t),
        [
            ("cargo test 2>&1 | tail -5", true, Some(TestOutcome::Failed)),
            (
                "bundle exec rspec spec/cart_spec.rb 2>&1 | head -80",
                true,
                Some(TestOutcome::Failed)
            ),
            (
                "bundle exec rspec spec/cart_spec.rb",
                true,
                Some(TestOutcome::NotRun)
            ),
            (
                "cargo test 2>&1 | tail -3",
                false,
                Some(TestOutcome::Passed)
            ),
        ]
    );
    // the masked runs kept their recorded exit status
    let first = t
        .events
        .iter()
        .find(|e| matches!(e.action, Action::Shell(_)))
        .unwrap();
    assert_eq!(first.exit_code, Some(0));
}

#[test]
fn exit_ends_a_session_completely_and_is_no_consent() {
    let t = decode(&fx("claude-piped-red-exit.jsonl"));
    assert!(t.complete, "ended by /exit");
    let turns = user_turns(&t);
    assert_eq!(turns.len(), 2, "{turns:?}");
    assert_eq!(turns[0].1, UserTurnVia::Prompt);
    assert_eq!(
        (turns[1].1, turns[1].2.as_deref()),
        (UserTurnVia::SessionCommand, Some("exit"))
    );
    let exit = &t.events[turns[1].0];
    assert!(!exit.is_user_turn(), "/exit is not consent");
    assert!(t.events[turns[0].0].is_user_turn());
    // the caveat and the command's stdout are not turns; the question before /exit is answered by it
    assert_eq!(t.events.len(), 9);
}

#[test]
fn a_session_stopping_on_a_question_is_incomplete_and_an_answer_is_a_user_turn() {
    let t = decode(&fx("claude-ask-then-question.jsonl"));
    assert!(!t.complete, "stops on 'Which approach?'");
    assert!(!t.truncated);
    let turns = user_turns(&t);
    assert_eq!(
        turns.iter().map(|(_, v, _)| *v).collect::<Vec<_>>(),
        [UserTurnVia::Prompt, UserTurnVia::Answer]
    );
    // the answer comes right after the ask call, before the Write
    let ask = t
        .events
        .iter()
        .position(|e| e.tool.as_deref() == Some("AskUserQuestion"))
        .unwrap();
    assert_eq!(turns[1].0, ask + 1);
    assert!(t.events[ask + 1].is_user_turn());
    assert_eq!(t.events[ask + 1].location.line, Some(3));
    assert_eq!(t.events[ask + 2].tool.as_deref(), Some("Write"));
}

#[test]
fn a_pending_or_declined_ask_is_no_answer() {
    let t = decode(&fx("claude-pending-ask.jsonl"));
    assert!(!t.complete, "stops on a pending AskUserQuestion");
    let turns = user_turns(&t);
    assert_eq!(turns.len(), 1, "only the prompt: {turns:?}");
    let asks: Vec<_> = t
        .events
        .iter()
        .filter(|e| e.tool.as_deref() == Some("AskUserQuestion"))
        .map(|e| (e.failed, e.rejected))
        .collect();
    assert_eq!(asks, [(true, true), (false, false)]);
}

#[test]
fn resumed_history_counts_once() {
    let t = decode(&fx("claude-resumed.jsonl"));
    let tools: Vec<_> = t.events.iter().filter_map(|e| e.tool.as_deref()).collect();
    assert_eq!(tools, ["Bash", "Edit", "Bash"], "each call once");
    assert_eq!(user_turns(&t).len(), 2);
    assert!(t.complete);
    // one counted note, citing the first repeated record, never an error
    let notes: Vec<_> = t
        .problems
        .iter()
        .filter(|p| p.detail.contains("resumed history"))
        .collect();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].kind, ProblemKind::Skipped);
    assert_eq!(notes[0].location.line, Some(7));
    assert!(
        notes[0].detail.starts_with("8 record(s)"),
        "{}",
        notes[0].detail
    );
    assert_eq!(t.undecodable_count(), 0);
}

#[test]
fn compact_completes_a_session_and_ui_commands_are_no_turns() {
    let t = decode(&fx("claude-stale-compact.jsonl"));
    assert!(t.complete, "ended by /compact");
    let turns = user_turns(&t);
    let vias: Vec<_> = turns.iter().map(|(_, v, c)| (*v, c.as_deref())).collect();
    assert_eq!(
        vias,
        [
            (UserTurnVia::Prompt, None),
            (UserTurnVia::SessionCommand, Some("model")),
            (UserTurnVia::SessionCommand, Some("compact")),
        ]
    );
    assert_eq!(t.events.iter().filter(|e| e.is_user_turn()).count(), 1);
}

#[test]
fn body_hash_tells_a_stale_session_from_a_current_one() {
    let skill = std::fs::read_to_string(fx("SKILL.md")).unwrap();
    let current = decode(&fx("claude-piped-red-exit.jsonl"));
    let h = body_hash(&current);
    assert_eq!(h.len(), 1);
    let h = h[0]
        .as_deref()
        .expect("a Skill-tool load gets the body's hash");
    assert_eq!(h, skill_md_body_sha256(&skill));
    assert!(skill_md_matches(&skill, h));

    let stale = decode(&fx("claude-stale-compact.jsonl"));
    let s = body_hash(&stale);
    let s = s[0]
        .as_deref()
        .expect("a slash-command load gets the body's hash");
    assert!(!skill_md_matches(&skill, s), "an older text of the skill");

    // ARGUMENTS appended by Claude Code are not part of the body
    let args = decode(&fx("claude-skill-args.jsonl"));
    assert_eq!(body_hash(&args), [Some(h.to_string())]);
}

#[test]
fn no_content_in_serialized_events() {
    for f in [
        "claude-piped-red-exit.jsonl",
        "claude-resumed.jsonl",
        "claude-ask-then-question.jsonl",
        "claude-pending-ask.jsonl",
        "claude-stale-compact.jsonl",
        "claude-skill-args.jsonl",
    ] {
        let t = decode(&fx(f));
        let json = serde_json::to_string(&t).unwrap();
        assert!(!json.contains("SECRET"), "{f}");
        assert!(!json.contains("Failures:"), "{f}");
    }
}

// ------------------------------------------------------------ real sessions

/// Every injected body in the eight real sessions hashes to the SKILL.md of
/// the version the session ran (PROVENANCE.tsv), and not to another version's.
#[test]
fn real_bodies_match_the_version_that_ran() {
    let cases = [
        (
            "RecoveryLM__1ee785c22e6a-0_full.jsonl",
            "4.3.1",
            "brainstorming",
        ),
        (
            "RecoveryLM__1ee785c22e6a-0_full.jsonl",
            "4.3.1",
            "writing-plans",
        ),
        (
            "RecoveryLM__1ee785c22e6a-0_full.jsonl",
            "4.3.1",
            "subagent-driven-development",
        ),
        (
            "RecoveryLM__c7a439bc5cb0-0_full.jsonl",
            "4.3.1",
            "systematic-debugging",
        ),
        (
            "RecoveryLM__c7a439bc5cb0-0_full.jsonl",
            "4.3.1",
            "brainstorming",
        ),
        (
            "entireio__18b9cffdf43b-0_full.jsonl",
            "4.2.0",
            "requesting-code-review",
        ),
        (
            "entireio__243ed775b643-0_full.jsonl",
            "4.1.1",
            "receiving-code-review",
        ),
        (
            "entireio__7033bba9319c-2_full.jsonl",
            "4.0.3",
            "brainstorming",
        ),
        (
            "entireio__a4a8d7d25377-3_full.jsonl",
            "4.1.1",
            "systematic-debugging",
        ),
        (
            "entireio__a4a8d7d25377-3_full.jsonl",
            "4.1.1",
            "writing-plans",
        ),
        (
            "entireio__a7f087274d3b-0_full.jsonl",
            "4.1.1",
            "writing-plans",
        ),
        (
            "entireio__e012b8e855d7-0_full.jsonl",
            "4.0.3",
            "requesting-code-review",
        ),
    ];
    let mut checked = 0;
    for (file, version, skill) in cases {
        let Some(t) = real(file) else { continue };
        let md = |v: &str| {
            std::fs::read_to_string(
                Path::new(SKILLS)
                    .join(format!("obra-superpowers@v{v}"))
                    .join(skill)
                    .join("SKILL.md"),
            )
            .ok()
        };
        let this = md(version).unwrap_or_else(|| panic!("{version}/{skill}"));
        let hash = t
            .events
            .iter()
            .find_map(|e| match &e.action {
                Action::SkillLoad {
                    name, body_sha256, ..
                } if name.rsplit(':').next() == Some(skill) => Some(body_sha256.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{file}: no load of {skill}"))
            .unwrap_or_else(|| panic!("{file}: no body hash for {skill}"));
        assert!(skill_md_matches(&this, &hash), "{file} {skill}@{version}");
        for other in ["4.0.3", "4.1.1", "4.2.0", "4.3.1"] {
            if let Some(o) = md(other) {
                if o != this && skill_md_body_sha256(&o) != skill_md_body_sha256(&this) {
                    assert!(!skill_md_matches(&o, &hash), "{file} {skill}@{other}");
                }
            }
        }
        checked += 1;
    }
    assert!(checked == 0 || checked == cases.len());
}

/// What the eight real sessions end with, read line by line (PROVENANCE.tsv):
/// the Entire checkpoints that stop on the agent's question are not complete.
#[test]
fn real_completeness_and_user_turns() {
    let cases = [
        // (file, complete, user turns (session commands and hook messages excluded), answers)
        ("RecoveryLM__1ee785c22e6a-0_full.jsonl", false, 12, 1),
        ("RecoveryLM__c7a439bc5cb0-0_full.jsonl", true, 4, 1),
        ("entireio__18b9cffdf43b-0_full.jsonl", true, 4, 0),
        ("entireio__243ed775b643-0_full.jsonl", true, 2, 0),
        ("entireio__7033bba9319c-2_full.jsonl", false, 9, 1),
        ("entireio__a4a8d7d25377-3_full.jsonl", false, 12, 0),
        ("entireio__a7f087274d3b-0_full.jsonl", false, 7, 0),
        ("entireio__e012b8e855d7-0_full.jsonl", false, 5, 0),
    ];
    for (file, complete, turns, answers) in cases {
        let Some(t) = real(file) else { continue };
        assert_eq!(t.complete, complete, "{file}");
        let got = t.events.iter().filter(|e| e.is_user_turn()).count();
        let ans = t
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.action,
                    Action::UserTurn {
                        via: UserTurnVia::Answer,
                        ..
                    }
                )
            })
            .count();
        assert_eq!((got, ans), (turns, answers), "{file}");
        // no subagent prompt is a user turn
        assert!(t
            .events
            .iter()
            .filter(|e| matches!(e.action, Action::UserTurn { .. }))
            .all(|e| e.agent == skillgate::decode::AgentPath::Main));
    }
}

/// `go: updates to go.mod needed` after `go test` is an environment error, not red.
#[test]
fn real_go_env_error_is_not_a_red_test() {
    let Some(t) = real("entireio__18b9cffdf43b-0_full.jsonl") else {
        return;
    };
    let e = t
        .events
        .iter()
        .find(|e| e.location.line == Some(174))
        .unwrap();
    assert!(shell_line(e).starts_with("go test"));
    assert!(e.failed);
    assert_eq!(e.test_outcome, Some(TestOutcome::NotRun));
}

#[test]
fn codex_turns_answers_masked_failures_and_replayed_calls() {
    let t = decode(&fx("codex-turns.jsonl"));
    assert_eq!(t.format, "codex-rollout");
    assert!(!t.complete, "stops on the agent's question");
    let turns = user_turns(&t);
    assert_eq!(
        turns.iter().map(|(_, v, _)| *v).collect::<Vec<_>>(),
        [UserTurnVia::Prompt, UserTurnVia::Answer],
        "the injected context and the <skill> body are no turns"
    );
    let ask = t
        .events
        .iter()
        .position(|e| e.tool.as_deref() == Some("request_user_input"))
        .unwrap();
    assert_eq!(turns[1].0, ask + 1);
    assert_eq!(
        shells(&t),
        [
            ("cargo test 2>&1 | tail -3", true, Some(TestOutcome::Failed)),
            (
                "bundle exec rspec | head -40",
                true,
                Some(TestOutcome::NotRun)
            ),
        ],
        "the replayed call counts once"
    );
    assert!(t
        .problems
        .iter()
        .any(|p| p.kind == ProblemKind::Skipped && p.detail.starts_with("1 call(s) repeated")));
    let skill = std::fs::read_to_string(fx("SKILL.md")).unwrap();
    let h = body_hash(&t);
    assert!(skill_md_matches(
        &skill,
        h[0].as_deref().expect("<skill> body hashed")
    ));
    let json = serde_json::to_string(&t).unwrap();
    assert!(!json.contains("SECRET"));
}

/// A real masked red run: loopkit's `pytest … 2>&1 | tail -60` exited 0 over
/// "76 passed, 2 failed".
#[test]
fn real_masked_pytest_run_is_failed() {
    let p =
        Path::new("../shared/realdata/transcripts/claude-code-chat-json/loopkit__logs_chat.json");
    if !p.exists() {
        return;
    }
    let t = decode(p);
    let e = t
        .events
        .iter()
        .find(|e| e.location.pointer.as_deref() == Some("/349"))
        .unwrap();
    assert!(shell_line(e).contains("pytest tests/ -v 2>&1 | tail -60"));
    assert_eq!(e.exit_code, Some(0));
    assert!(e.failed);
    assert_eq!(e.test_outcome, Some(TestOutcome::Failed));
}
