//! The doctor on the real sessions of `../shared/realdata/transcripts`, one
//! or more per harness family: scores are snapshotted together with the
//! evidence (turn numbers, lines, notes) and the basis that set them, and
//! the suggestions. Excerpts are checked for their bounds rather than
//! snapshotted (they quote the decoders' content, which may be refined).

use serde_json::{json, Value};
use skillgate::decode::{decode_path, DecodeOptions};
use skillgate::doctor::{self, html, DoctorOptions, Outcome, Report, Score, SessionInput};
use std::path::{Path, PathBuf};

fn realdata(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/realdata/transcripts")
        .join(rel)
}

fn report_of(rel: &str, opts: DoctorOptions) -> Report {
    let path = realdata(rel);
    let traj = decode_path(&path, None, &DecodeOptions { keep_content: true })
        .unwrap_or_else(|e| panic!("{rel}: {e}"));
    doctor::diagnose(&SessionInput::Decoded(Box::new(traj)), &opts)
}

fn score_projection(s: &Option<Score>) -> Value {
    match s {
        None => Value::Null,
        Some(Score::NotApplicable { reason }) => json!({ "n/a": reason }),
        Some(Score::Scored { total, subs }) => json!({
            "total": total,
            "subs": subs.iter().map(|s| json!({
                "code": s.code,
                "score": format!("{}/{}", s.score, s.max),
                "basis": s.basis,
                "evidence": s.evidence.iter().map(|e| match e.line {
                    Some(l) => format!("turn {} (line {l}): {}", e.turn, e.note),
                    None => format!("turn {}: {}", e.turn, e.note),
                }).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }),
    }
}

fn projection(r: &Report) -> Value {
    let session = r.session.as_ref().map(|s| {
        json!({
            "file": Path::new(&s.path).file_name().unwrap().to_string_lossy(),
            "session_id": s.session_id,
            "harness": s.harness,
            "format": s.format,
            "turns": s.turns,
        })
    });
    json!({
        "outcome": serde_json::to_value(&r.outcome).unwrap(),
        "session": session,
        "efficiency": score_projection(&r.efficiency),
        "code_quality": score_projection(&r.code_quality),
        "findings": r.findings.iter().map(|f| format!("{} {}/{}", f.code, f.score, f.max)).collect::<Vec<_>>(),
        "suggestions": r.suggestions.iter().map(|s| format!("{}. +{} {}: {}", s.rank, s.gain, s.code, s.text)).collect::<Vec<_>>(),
        "facts": r.facts,
    })
}

/// The invariants every real report keeps.
fn check_invariants(rel: &str, r: &Report) {
    // Findings exactly for the sub-scores below max; suggestions ranked.
    let below: Vec<&str> = [&r.efficiency, &r.code_quality]
        .iter()
        .filter_map(|s| s.as_ref())
        .flat_map(|s| s.subs())
        .filter(|s| s.score < s.max)
        .map(|s| s.code)
        .collect();
    let found: Vec<&str> = r.findings.iter().map(|f| f.code).collect();
    assert_eq!(found, below, "{rel}: findings");
    assert!(
        r.suggestions.windows(2).all(|w| w[0].gain >= w[1].gain),
        "{rel}: ranking"
    );
    for s in [&r.efficiency, &r.code_quality].into_iter().flatten() {
        if let Score::Scored { total, subs } = s {
            assert_eq!(
                *total,
                subs.iter().map(|s| s.score).sum::<u8>(),
                "{rel}: total"
            );
            assert_eq!(subs.iter().map(|s| s.max).sum::<u8>(), 10, "{rel}: maxima");
        }
    }
    // Excerpts are short; findings cite turns.
    for f in &r.findings {
        for e in &f.evidence {
            if let Some(x) = &e.excerpt {
                assert!(
                    x.chars().count() <= 240,
                    "{rel}: excerpt of {} chars",
                    x.chars().count()
                );
            }
        }
    }
    // The page renders and passes its own final check, with no raw script.
    let page = html::render(
        r,
        &html::RenderContext {
            generated_at: "2025-01-01T00:00:00Z",
            version: "test",
        },
    );
    html::verify(&page, r).unwrap_or_else(|m| panic!("{rel}: missing {m:?}"));
    assert!(
        !page.to_ascii_lowercase().contains("<script"),
        "{rel}: raw script tag"
    );
}

fn snapshot(rel: &str, name: &str) -> Report {
    let r = report_of(rel, DoctorOptions::default());
    check_invariants(rel, &r);
    insta::assert_yaml_snapshot!(name, projection(&r));
    r
}

#[test]
fn claude_code_jsonl_sniffly_ai_music() {
    let r = snapshot(
        "claude-code/sniffly__ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl",
        "claude_sniffly_ba79134d",
    );
    assert_eq!(r.efficiency.as_ref().unwrap().total(), Some(7));
    assert_eq!(r.code_quality.as_ref().unwrap().total(), Some(8));
}

#[test]
fn claude_code_jsonl_rejected_write_has_no_code_change() {
    let r = snapshot(
        "claude-code/claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
        "claude_viewer_1af7fc5e",
    );
    assert!(matches!(r.code_quality, Some(Score::NotApplicable { .. })));
}

#[test]
fn claude_code_jsonl_with_subagents() {
    snapshot(
        "claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
        "claude_viewer_fe5e1c67",
    );
}

#[test]
fn claude_code_summary_only_is_too_short() {
    let r = report_of(
        "claude-code/sniffly__ff71dbed-a4f2-4284-a4fc-fe2fb90de929.jsonl",
        DoctorOptions::default(),
    );
    assert_eq!(r.outcome, Outcome::TooShort { turns: 0 });
}

#[test]
fn claude_chat_json_exports() {
    snapshot(
        "claude-code-chat-json/a-sdlc__logs_chat.json",
        "claude_chat_json_a_sdlc",
    );
    snapshot(
        "claude-code-chat-json/loopkit__logs_chat.json",
        "claude_chat_json_loopkit",
    );
}

#[test]
fn codex_rollout() {
    let r = snapshot(
        "codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
        "codex_rollout_acidicsoil",
    );
    // The rollout stops after its second apply_patch: no final answer.
    let tc = &r.efficiency.as_ref().unwrap().subs()[0];
    assert_eq!((tc.code, tc.score), ("task-completion", 1));
}

#[test]
fn gemini_chats() {
    snapshot(
        "synthetic-schema-fixtures/agent-sessions__gemini_jsonl_v040.jsonl",
        "gemini_jsonl_v040",
    );
    snapshot(
        "synthetic-schema-fixtures/agent-sessions__gemini_large.json",
        "gemini_large_json",
    );
}

#[test]
fn swe_agent_trajectories() {
    let r = snapshot(
        "swe-agent/marshmallow-1867__function_calling_replace.traj",
        "swe_agent_marshmallow",
    );
    // reproduce.py is created, run and deleted: a scratch file, and running it
    // after the fix is the test run that sets regression avoidance.
    assert_eq!(r.facts.as_ref().unwrap().scratch_files, 1);
    snapshot("swe-agent/function_calling_simple.traj", "swe_agent_simple");
}

#[test]
fn openhands_event_lists() {
    snapshot(
        "openhands/wrong_initial_state.json",
        "openhands_wrong_initial_state",
    );
    snapshot("openhands/basic_gui_mode.json", "openhands_basic_gui_mode");
}

#[test]
fn inspect_ai_log() {
    snapshot(
        "inspect-ai/2025-05-12T20-27-36-04-00_browser.json",
        "inspect_ai_browser",
    );
}

#[test]
fn aider_history() {
    snapshot(
        "aider/zen-mcp-server__.aider.chat.history.md",
        "aider_zen_mcp",
    );
}

#[test]
fn no_excerpts_reports_carry_no_excerpt() {
    let r = report_of(
        "codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
        DoctorOptions { excerpts: false },
    );
    assert!(!r.findings.is_empty());
    assert!(r
        .findings
        .iter()
        .all(|f| f.evidence.iter().all(|e| e.excerpt.is_none())));
    let with = report_of(
        "codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
        DoctorOptions::default(),
    );
    // Same scores either way.
    assert_eq!(projection(&r), projection(&with));
}
