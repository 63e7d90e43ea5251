//! `skillgate trajectory` through the binary: output snapshots (text and JSON),
//! folders, exit codes, and the rule that no message text or tool output is
//! ever printed.

use assert_cmd::Command;

fn cmd() -> Command {
    Command::cargo_bin("skillgate").unwrap()
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = cmd().arg("trajectory").args(args).output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn no_content(r: &Run) {
    assert!(
        !r.stdout.contains("SECRET") && !r.stderr.contains("SECRET"),
        "content leaked:\n{}",
        r.stdout
    );
}

#[test]
fn text_view_of_a_claude_session() {
    let r = run(&["fixtures/decode/claude-skill-tool.jsonl"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    no_content(&r);
    insta::assert_snapshot!("claude_skill_tool_text", r.stdout);
}

#[test]
fn json_view_of_a_codex_rollout() {
    let r = run(&[
        "--format",
        "json",
        "fixtures/decode/codex-rollout-forms.jsonl",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    no_content(&r);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let events = v[0]["events"].as_array().unwrap();
    assert!(
        events.iter().all(|e| e["action"].get("line").is_none()),
        "no raw shell line (heredoc bodies) in the view"
    );
    assert_eq!(v[0]["action_counts"]["git commit"], 1);
    insta::assert_json_snapshot!("codex_rollout_forms_json", v);
}

#[test]
fn folders_are_walked_and_subagent_files_join_their_session() {
    let r = run(&["fixtures/decode/claude-subagents"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.matches("format claude-code-jsonl").count(), 1);
    assert!(r.stdout.contains("[sub abc123] Bash: shell"));
    insta::assert_snapshot!("claude_subagents_text", r.stdout);
}

#[test]
fn every_fixture_is_decoded_without_content() {
    let r = run(&[
        "fixtures/decode/claude-skill-tool.jsonl",
        "fixtures/decode/codex-rollout-forms.jsonl",
        "fixtures/decode/claude-stream-skill.jsonl",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    no_content(&r);
    let r = run(&[
        "--format",
        "json",
        "fixtures/decode/claude-skill-tool.jsonl",
    ]);
    no_content(&r);
}

#[test]
fn all_real_transcripts_exit_zero() {
    let r = run(&["../shared/realdata/transcripts"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for f in [
        "sniffly__ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl",
        "loopkit__logs_chat.json",
        "codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
    ] {
        assert!(r.stdout.contains(f), "{f} listed");
    }
    // loopkit's /goal, its git line, and the Codex apply_patch heredoc edits
    assert!(r.stdout.contains("skill-load goal (via slash-command)"));
    assert!(r.stdout.contains("[git add flags=--all]"));
    assert!(r.stdout.contains("[git init]"));
    assert!(r
        .stdout
        .contains("-> edit components/chat/chat-helpers/index.ts"));
    // the subagent file and its meta.json are not listed on their own
    assert!(!r
        .stdout
        .lines()
        .any(|l| l.ends_with("agent-a0ad4f44468bdf20d.jsonl") && !l.starts_with("  +")));
}

#[test]
fn unrecognised_input_exits_2_naming_file_and_line() {
    let r = run(&["fixtures/decode/README.md"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("fixtures/decode/README.md:1: not a recognised transcript format"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty());
}

#[test]
fn bad_sidecar_exits_2_naming_sidecar_and_line() {
    let r = run(&["fixtures/decode/retro-bad/session.jsonl"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("retro-bad/session.jsonl.retro.yaml:2:"),
        "{}",
        r.stderr
    );
}

#[test]
fn missing_path_and_bad_flags_exit_2() {
    let r = run(&["fixtures/decode/does-not-exist.jsonl"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("does-not-exist.jsonl"));
    let r = run(&[
        "--input-format",
        "bogus",
        "fixtures/decode/claude-skill-tool.jsonl",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown --input-format `bogus`"));
    let r = run(&[]);
    assert_eq!(r.code, 2);
}

#[test]
fn input_format_override() {
    let r = run(&[
        "--input-format",
        "claude-code-jsonl",
        "fixtures/decode/claude-stream-skill.jsonl",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("format claude-code-jsonl"));
}

#[test]
fn a_sidecar_named_on_the_command_line_is_skipped_with_a_note() {
    let r = run(&["fixtures/decode/retro/session.jsonl.retro.yaml"]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains("note: skipped"), "{}", r.stderr);
}

#[test]
fn decode_problems_are_listed_with_lines() {
    let r = run(&[
        "fixtures/decode/claude-truncated.jsonl",
        "fixtures/decode/claude-invalid-utf8.jsonl",
    ]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("L3 truncated-last-line"));
    assert!(r.stdout.contains("L3 invalid-utf8"));
}
