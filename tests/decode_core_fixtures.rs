//! Hand-made fixtures (fixtures/decode/README.md says which real shape each
//! imitates): skill loads, torn and corrupt lines, unknown record types,
//! new-layout subagent files, retro sidecars, every Codex patch form, and a
//! 5 MB single line generated at test time.

use skillgate::decode::skills::{first_load, LoadPoint};
use skillgate::decode::{
    decode_path, discover, pick_decoder, Action, AgentPath, DecodeOptions, FileEffect, LoadVia,
    ProblemKind, Trajectory,
};
use std::path::{Path, PathBuf};

fn fx(rel: &str) -> PathBuf {
    Path::new("fixtures/decode").join(rel)
}

fn decode(rel: &str) -> Trajectory {
    decode_path(&fx(rel), None, &DecodeOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn loads(t: &Trajectory) -> Vec<(String, LoadVia)> {
    t.events
        .iter()
        .filter_map(|e| match &e.action {
            Action::SkillLoad { name, via, .. } => Some((name.clone(), *via)),
            _ => None,
        })
        .collect()
}

fn kinds(t: &Trajectory) -> Vec<ProblemKind> {
    t.problems.iter().map(|p| p.kind).collect()
}

#[test]
fn skill_tool_load_is_one_load_and_the_body_is_not_another() {
    let t = decode("claude-skill-tool.jsonl");
    assert_eq!(t.format, "claude-code-jsonl");
    assert_eq!(
        loads(&t),
        [("superpowers:brainstorming".to_string(), LoadVia::SkillTool)]
    );
    let p = first_load(&t, "brainstorming").unwrap();
    assert_eq!(
        p,
        LoadPoint {
            index: 1,
            weak: false,
            via: LoadVia::SkillTool
        }
    );
    assert_eq!(t.events[1].tool.as_deref(), Some("Skill"));
    // the git line after it
    let Action::Shell(s) = &t.events[3].action else {
        panic!("shell at #3")
    };
    let gits: Vec<_> = s.commands.iter().map(|c| c.git.clone().unwrap()).collect();
    assert_eq!(
        gits.iter()
            .map(|g| g.subcommand.as_str())
            .collect::<Vec<_>>(),
        ["add", "commit", "push"]
    );
    assert_eq!(gits[2].flags, ["--force"]);
    assert_eq!(gits[2].args, ["origin", "feature/x"]);
    assert_eq!(t.events[3].exit_code, Some(0));
    // a user rejection and a failing command
    assert!(t.events[4].rejected && t.events[4].failed);
    assert_eq!(
        t.events[4].action,
        Action::File {
            effects: vec![FileEffect::Edit {
                path: "/home/dev/proj/src/lib.rs".into()
            }]
        }
    );
    assert!(t.events[5].failed && !t.events[5].rejected);
    assert_eq!(t.events[5].exit_code, Some(101));
    assert_eq!(
        t.events[5].result_timestamp.as_deref(),
        Some("2026-01-10T10:00:10.000Z")
    );
    assert!(t.complete);
    assert_eq!(t.git_branch.as_deref(), Some("feature/x"));
}

#[test]
fn stream_json_skill_load_and_subagent() {
    let path = fx("claude-stream-skill.jsonl");
    assert_eq!(
        pick_decoder(&path, None).unwrap().format(),
        "claude-stream-json"
    );
    let t = decode("claude-stream-skill.jsonl");
    assert_eq!(
        loads(&t),
        [("citation-management".to_string(), LoadVia::SkillTool)]
    );
    assert_eq!(t.harness_version.as_deref(), Some("2.1.19"));
    assert_eq!(t.cwd.as_deref(), Some("/root"));
    assert!(t.complete, "a `result` success line ends the run");
    let sub: Vec<_> = t
        .events
        .iter()
        .filter(|e| e.agent == AgentPath::Subagent("a1b2c3".into()))
        .collect();
    assert_eq!(
        sub.len(),
        1,
        "parent_tool_use_id ties the Read to the Task, renamed to its agentId"
    );
}

#[test]
fn older_skill_command_input_is_a_load() {
    let t = decode("claude-skill-command-input.jsonl");
    assert_eq!(loads(&t), [("pdf".to_string(), LoadVia::SkillTool)]);
}

#[test]
fn slash_command_with_skill_body_is_a_load_and_plugin_command_is_not() {
    let t = decode("claude-slash-command.jsonl");
    assert_eq!(loads(&t), [("goal".to_string(), LoadVia::SlashCommand)]);
    assert_eq!(first_load(&t, "goal").unwrap().index, 3);
    assert_eq!(first_load(&t, "git-tools:commit"), None);
    assert_eq!(t.events[3].location.line, Some(6));
}

#[test]
fn truncated_last_line_marks_truncation_not_an_undecodable_record() {
    let t = decode("claude-truncated.jsonl");
    assert!(t.truncated);
    assert!(!t.complete);
    assert_eq!(kinds(&t), [ProblemKind::TruncatedLastLine]);
    assert_eq!(t.problems[0].location.line, Some(3));
    assert_eq!(t.undecodable_count(), 0);
    assert_eq!(t.events.len(), 2);
}

#[test]
fn invalid_utf8_line_is_counted_and_decoding_goes_on() {
    let t = decode("claude-invalid-utf8.jsonl");
    assert_eq!(kinds(&t), [ProblemKind::InvalidUtf8]);
    assert_eq!(t.problems[0].location.line, Some(3));
    assert_eq!(t.undecodable_count(), 1);
    assert!(!t.truncated);
    assert_eq!(t.events.len(), 3, "lines after the bad one are decoded");
    // the call whose result was lost keeps no failure
    assert!(!t.events[1].failed);
}

#[test]
fn unknown_record_types_are_counted_never_errors() {
    let t = decode("claude-unknown-types.jsonl");
    assert_eq!(
        kinds(&t),
        [
            ProblemKind::UnknownRecordType,
            ProblemKind::UnknownRecordType
        ]
    );
    assert!(t.problems[0].detail.contains("holographic-snapshot"));
    assert_eq!(t.undecodable_count(), 0);
    // invoked_skills after compaction is a load; the compact summary is not a prompt
    assert_eq!(loads(&t), [("goal".to_string(), LoadVia::InvokedSkills)]);
    // the prompt is a user turn, the reply a message
    assert_eq!(
        t.events
            .iter()
            .filter(|e| e.action == Action::Message)
            .count(),
        1
    );
    assert_eq!(t.events.iter().filter(|e| e.is_user_turn()).count(), 1);
}

#[test]
fn new_layout_subagent_files_join_their_session() {
    let session = "claude-subagents/33333333-4444-4555-8666-777777777777.jsonl";
    let t = decode(session);
    let agent_file =
        fx("claude-subagents/33333333-4444-4555-8666-777777777777/subagents/agent-abc123.jsonl");
    assert_eq!(t.extra_files, std::slice::from_ref(&agent_file));
    // spliced in right after the Agent call (found by the .meta.json toolUseId)
    assert_eq!(
        t.events[1].action,
        Action::Subagent {
            agent_type: Some("Explore".into()),
            agent_id: Some("abc123".into())
        }
    );
    let sub: Vec<usize> = t
        .events
        .iter()
        .filter(|e| e.agent == AgentPath::Subagent("abc123".into()))
        .map(|e| e.index)
        .collect();
    assert_eq!(sub, [2, 3, 4, 5]);
    let Action::Shell(s) = &t.events[3].action else {
        panic!("shell")
    };
    assert_eq!(
        s.commands[1].git.as_ref().unwrap().dir.as_deref(),
        Some("web")
    );
    assert_eq!(t.events[3].location.file.as_ref(), Some(&agent_file));
    assert_eq!(t.events[3].location.line, Some(2));
    // the subagent read a SKILL.md: weak evidence, in the subagent
    assert_eq!(
        t.events[4].action,
        Action::SkillLoad {
            name: "review".into(),
            via: LoadVia::SkillFileRead,
            body_sha256: None,
        }
    );
    assert_eq!(first_load(&t, "review").map(|p| p.weak), Some(true));
    assert!(t.complete);
    // discovery returns the session only: the subagent file belongs to it
    let files = discover::discover(&fx("claude-subagents")).unwrap();
    assert_eq!(files, [fx(session)]);
}

#[test]
fn retro_sidecar_is_authoritative() {
    let t = decode("retro/session.jsonl");
    let r = t.retro.as_ref().expect("sidecar read");
    assert_eq!(
        r.loaded_skills.as_deref(),
        Some(&["test-driven-development".to_string()][..])
    );
    assert!(t.complete, "sidecar `complete: true` overrides the decoder");
    assert_eq!(
        first_load(&t, "test-driven-development"),
        Some(LoadPoint {
            index: 0,
            weak: false,
            via: LoadVia::Retro
        })
    );
    assert_eq!(first_load(&t, "other"), None);
    let e = decode_path(
        &fx("retro-bad/session.jsonl"),
        None,
        &DecodeOptions::default(),
    )
    .unwrap_err();
    assert!(e.path.ends_with("session.jsonl.retro.yaml"));
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("completed"));
}

#[test]
fn codex_rollout_every_patch_and_shell_form() {
    let t = decode("codex-rollout-forms.jsonl");
    assert_eq!(t.format, "codex-rollout");
    assert_eq!(
        (t.harness_version.as_deref(), t.git_branch.as_deref()),
        (Some("0.146.0"), Some("main"))
    );
    assert_eq!(
        loads(&t),
        [("gh-fix-ci".to_string(), LoadVia::CodexMention)]
    );
    let by_tool = |tool: &str| {
        t.events
            .iter()
            .filter(|e| e.tool.as_deref() == Some(tool))
            .collect::<Vec<_>>()
    };
    // custom_tool_call and function_call apply_patch
    let ap = by_tool("apply_patch");
    assert_eq!(
        ap[0].action,
        Action::File {
            effects: vec![
                FileEffect::Write {
                    path: "docs/new.md".into()
                },
                FileEffect::Delete {
                    path: "old.txt".into()
                }
            ]
        }
    );
    assert_eq!(
        ap[1].action,
        Action::File {
            effects: vec![FileEffect::Edit {
                path: "src/app.ts".into()
            }]
        }
    );
    // apply_patch heredoc inside shell, with a move
    let shells = by_tool("shell");
    let Action::Shell(s) = &shells[1].action else {
        panic!()
    };
    assert_eq!(
        s.effects,
        [
            FileEffect::Rename {
                from: "lib/a.rs".into(),
                to: "lib/b.rs".into()
            },
            FileEffect::Edit {
                path: "lib/b.rs".into()
            }
        ]
    );
    // exec_command: `Exit code: 101` header
    let ex = by_tool("exec_command")[0];
    assert_eq!((ex.exit_code, ex.failed), (Some(101), true));
    // shell_command rejected by the user
    let sc = by_tool("shell_command")[0];
    assert!(sc.rejected && sc.failed);
    // local_shell_call argv
    let ls = by_tool("local_shell_call")[0];
    assert!(
        matches!(&ls.action, Action::Shell(s) if s.effects == [FileEffect::Delete { path: "tmp.log".into() }]
        && s.workdir.as_deref() == Some("/work/repo"))
    );
    // event_msg duplicates made no events; the ghost snapshot is not an action
    assert_eq!(t.events.len(), 10);
    assert!(t.problems.is_empty());
    assert!(t.complete);
}

#[test]
fn codex_legacy_and_exec_formats() {
    let t = decode("codex-legacy.jsonl");
    assert_eq!(t.format, "codex-rollout");
    assert_eq!(
        t.session_id.as_deref(),
        Some("4b8e0000-0000-4000-8000-000000000001")
    );
    assert_eq!(t.git_branch.as_deref(), Some("dev"));
    assert_eq!(t.events.len(), 3);
    assert_eq!(t.events[1].exit_code, Some(0));
    let t = decode("codex-exec.jsonl");
    assert_eq!(t.format, "codex-exec");
    assert_eq!(t.events.len(), 5, "item.started does not double-count");
    assert!(matches!(&t.events[0].action, Action::Shell(s) if s.line == "git status"));
    assert_eq!(
        t.events[1].action,
        Action::File {
            effects: vec![
                FileEffect::Edit {
                    path: "src/a.rs".into()
                },
                FileEffect::Write {
                    path: "src/b.rs".into()
                }
            ]
        }
    );
    assert!(t.events[2].failed);
    assert!(t.complete);
}

#[test]
fn torn_chat_json_keeps_what_was_read() {
    let t = decode("claude-chat-torn.json");
    assert_eq!(t.format, "claude-chat-json");
    assert!(t.truncated);
    assert_eq!(kinds(&t), [ProblemKind::TruncatedLastLine]);
    assert_eq!(t.problems[0].location.pointer.as_deref(), Some("/1"));
    assert_eq!(t.events[0].location.pointer.as_deref(), Some("/0"));
}

/// A 5 MB single line (a huge tool output) decodes, in both decoders, without
/// keeping the output unless asked.
#[test]
fn five_megabyte_single_line() {
    let dir = tempfile::tempdir().unwrap();
    let big = "x".repeat(5 * 1024 * 1024);
    let claude = dir.path().join("big.jsonl");
    let lines = [
        serde_json::json!({"type":"user","sessionId":"s","uuid":"1","parentUuid":null,"message":{"role":"user","content":"go"}}),
        serde_json::json!({"type":"assistant","sessionId":"s","uuid":"2","parentUuid":"1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cat big.log"}}]}}),
        serde_json::json!({"type":"user","sessionId":"s","uuid":"3","parentUuid":"2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":big}]},"toolUseResult":{"stdout":big,"stderr":""}}),
        serde_json::json!({"type":"assistant","sessionId":"s","uuid":"4","parentUuid":"3","message":{"role":"assistant","content":[{"type":"text","text":"done"}]}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    assert!(text.lines().nth(2).unwrap().len() > 10 * 1024 * 1024);
    std::fs::write(&claude, text).unwrap();
    let t = decode_path(&claude, None, &DecodeOptions::default()).unwrap();
    assert_eq!(
        t.events.len(),
        3,
        "prompt, Bash call (with its result), answer"
    );
    assert!(t.problems.is_empty() && t.complete);
    assert!(t.events.iter().all(|e| e.content.is_none()));
    let t = decode_path(&claude, None, &DecodeOptions { keep_content: true }).unwrap();
    assert_eq!(
        t.events[1]
            .content
            .as_ref()
            .unwrap()
            .tool_output
            .as_ref()
            .map(String::len),
        Some(big.len())
    );

    let codex = dir.path().join("rollout.jsonl");
    let out = serde_json::json!({"output": big, "metadata": {"exit_code": 0}}).to_string();
    let lines = [
        serde_json::json!({"timestamp":"t","type":"session_meta","payload":{"id":"c","cwd":"/w","cli_version":"0.58.0"}}),
        serde_json::json!({"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"cat big.log\"]}","call_id":"c1"}}),
        serde_json::json!({"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":out}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&codex, text).unwrap();
    let t = decode_path(&codex, None, &DecodeOptions::default()).unwrap();
    assert_eq!(t.events.len(), 1);
    assert_eq!(t.events[0].exit_code, Some(0));
    assert!(t.problems.is_empty());
}

#[test]
fn input_format_override_and_unrecognised_files() {
    let e = decode_path(&fx("README.md"), None, &DecodeOptions::default()).unwrap_err();
    assert_eq!(e.line, Some(1));
    assert!(e.message.contains("not a recognised transcript format"));
    let e = decode_path(
        &fx("claude-skill-tool.jsonl"),
        Some("nope"),
        &DecodeOptions::default(),
    )
    .unwrap_err();
    assert!(e.message.contains("unknown input format"));
    // naming the format decodes a file the sniffer would not pick
    let t = decode_path(
        &fx("claude-stream-skill.jsonl"),
        Some("claude-code-jsonl"),
        &DecodeOptions::default(),
    )
    .unwrap();
    assert_eq!(t.format, "claude-code-jsonl");
}
