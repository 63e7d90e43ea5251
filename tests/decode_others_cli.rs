//! `skillgate trajectory` over the decode-others formats, through the binary.

use assert_cmd::Command;

const REAL: &[&str] = &[
    "../shared/realdata/transcripts/swe-agent/function_calling_simple.traj",
    "../shared/realdata/transcripts/swe-agent/marshmallow-1867__function_calling_replace.traj",
    "../shared/realdata/transcripts/openhands/basic_gui_mode.json",
    "../shared/realdata/transcripts/openhands/wrong_initial_state.json",
    "../shared/realdata/transcripts/openhands/multi_swe_bench_output.jsonl",
    "../shared/realdata/transcripts/inspect-ai/2025-05-12T20-27-36-04-00_browser.json",
    "../shared/realdata/transcripts/aider/aider__chat-history.prefix.md",
    "../shared/realdata/transcripts/aider/zen-mcp-server__.aider.chat.history.md",
    "../shared/realdata/transcripts/synthetic-schema-fixtures/agent-sessions__gemini_jsonl_v040.jsonl",
    "../shared/realdata/transcripts/synthetic-schema-fixtures/agent-sessions__gemini_large.json",
];

fn skillgate() -> Command {
    Command::cargo_bin("skillgate").unwrap()
}

#[test]
fn trajectory_exits_0_on_every_real_file_of_these_formats() {
    for p in REAL {
        let out = skillgate().args(["trajectory", p]).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{p}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.starts_with(p), "{p}: header names the file");
    }
    // All at once, as JSON: one array entry per file, each with its events.
    let out = skillgate()
        .args(["trajectory", "--format", "json"])
        .args(REAL)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v
        .as_array()
        .or_else(|| v.get("trajectories").and_then(|t| t.as_array()))
        .expect("a list of trajectories");
    assert_eq!(items.len(), REAL.len());
}

#[test]
fn trajectory_text_view_snapshots() {
    for p in [
        "../shared/realdata/transcripts/openhands/wrong_initial_state.json",
        "fixtures/decode-others/aider/session.aider.chat.history.md",
        "fixtures/decode-others/gemini/activate_skill.jsonl",
    ] {
        let out = skillgate().args(["trajectory", p]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{p}");
        let name = p.rsplit('/').next().unwrap().replace('.', "_");
        insta::assert_snapshot!(name, String::from_utf8(out.stdout).unwrap());
    }
}

#[test]
fn trajectory_view_never_prints_message_text() {
    let out = skillgate()
        .args([
            "trajectory",
            "fixtures/decode-others/gemini/activate_skill.jsonl",
            "fixtures/decode-others/aider/session.aider.chat.history.md",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    for text in [
        "Convert report.pdf",
        "the push was rejected",
        "I'll rename it",
        "activated_skill",
        "3 passed",
    ] {
        assert!(!stdout.contains(text), "trajectory view leaked `{text}`");
    }
}

#[test]
fn trajectory_unrecognised_file_exits_2_naming_it() {
    let out = skillgate()
        .args(["trajectory", "fixtures/decode-others/other/config.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("fixtures/decode-others/other/config.json"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("settings"),
        "no content in errors: {stderr}"
    );
}

#[test]
fn trajectory_forced_format() {
    let out = skillgate()
        .args([
            "trajectory",
            "--input-format",
            "anthropic-messages",
            "fixtures/decode-others/openai-chat/plain_bare.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("anthropic-messages"));
}
