//! Hand-made fixtures for the decode-others decoders (see
//! fixtures/decode-others/README.md for the real shape each imitates), plus the
//! aider and skill-load checks on real files.

use skillgate::decode::{
    self, Action, AgentPath, DecodeOptions, Event, FileEffect, LoadVia, ProblemKind, Role,
    Trajectory,
};
use std::path::{Path, PathBuf};

fn fx(p: &str) -> PathBuf {
    Path::new("fixtures/decode-others").join(p)
}

fn decode(p: &Path) -> Trajectory {
    decode::decode_path(p, None, &DecodeOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn decode_keep(p: &Path) -> Trajectory {
    decode::decode_path(p, None, &DecodeOptions { keep_content: true })
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `(subcommand, flags)` of every git operation of an event.
fn git_ops(e: &Event) -> Vec<(String, Vec<String>)> {
    match &e.action {
        Action::Shell(sa) => sa
            .commands
            .iter()
            .filter_map(|c| c.git.as_ref())
            .map(|g| (g.subcommand.clone(), g.flags.clone()))
            .collect(),
        _ => vec![],
    }
}

fn all_git(t: &Trajectory) -> Vec<String> {
    t.events.iter().flat_map(git_ops).map(|(s, _)| s).collect()
}

fn file_effects(t: &Trajectory, tool: &str) -> Vec<FileEffect> {
    t.events
        .iter()
        .filter(|e| e.tool.as_deref() == Some(tool))
        .flat_map(|e| match &e.action {
            Action::File { effects } => effects.clone(),
            _ => vec![],
        })
        .collect()
}

fn problems(t: &Trajectory) -> Vec<(Option<u64>, Option<String>, ProblemKind)> {
    t.problems
        .iter()
        .map(|p| (p.location.line, p.location.pointer.clone(), p.kind))
        .collect()
}

// ---------------------------------------------------------------- Gemini

#[test]
fn gemini_activate_skill_is_a_skill_load_and_upserts_fold() {
    let t = decode(&fx("gemini/activate_skill.jsonl"));
    assert_eq!(t.format, "gemini-chat-jsonl");
    assert_eq!(
        t.session_id.as_deref(),
        Some("f1e2d3c4-0000-4000-8000-000000000001")
    );
    let loads: Vec<&Event> = t
        .events
        .iter()
        .filter(|e| matches!(e.action, Action::SkillLoad { .. }))
        .collect();
    // Message g1 is written twice (executing, then success): one event, from its last version (line 5).
    assert_eq!(loads.len(), 1);
    assert_eq!(
        loads[0].action,
        Action::SkillLoad {
            name: "pdf".into(),
            via: LoadVia::ActivateSkill,
            body_sha256: None,
        }
    );
    assert_eq!(loads[0].location.line, Some(5));
    assert_eq!(loads[0].location.pointer.as_deref(), Some("/toolCalls/0"));
    assert!(!loads[0].failed);
    assert_eq!(
        loads[0].timestamp.as_deref(),
        Some("2026-05-01T10:00:02.100Z")
    );
    // The skill load comes before the actions it governs.
    let load_at = t
        .events
        .iter()
        .position(|e| matches!(e.action, Action::SkillLoad { .. }))
        .unwrap();
    let first_shell = t
        .events
        .iter()
        .position(|e| matches!(e.action, Action::Shell(_)))
        .unwrap();
    assert!(load_at < first_shell);
    assert_eq!(all_git(&t), ["add", "commit", "push"]);
    let push = t
        .events
        .iter()
        .find(|e| git_ops(e).iter().any(|(s, _)| s == "push"))
        .unwrap();
    assert_eq!(git_ops(push)[0].1, ["--force"]);
    assert_eq!(push.exit_code, Some(1));
    assert!(push.failed, "Exit Code: 1 fails the call");
    let commit = t
        .events
        .iter()
        .find(|e| git_ops(e).iter().any(|(s, _)| s == "commit"))
        .unwrap();
    assert_eq!((commit.exit_code, commit.failed), (Some(0), false));
    let Action::Shell(sa) = &commit.action else {
        unreachable!()
    };
    assert_eq!(sa.workdir.as_deref(), Some("/work/repo"));
    // The cancelled write was rewound away, but it is kept (actions ran or were refused).
    let write = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("write_file"))
        .unwrap();
    assert!(write.failed && write.rejected);
    assert!(t.complete);
    assert!(!t.truncated);
    assert!(t.problems.is_empty(), "{:?}", t.problems);
}

#[test]
fn gemini_subagent_file_puts_events_on_the_subagent_path() {
    let t = decode(&fx("gemini/subagent.jsonl"));
    assert_eq!(t.events.len(), 3);
    assert!(t
        .events
        .iter()
        .all(|e| e.agent == AgentPath::Subagent("sub-7f3a".into())));
    assert_eq!(t.cwd.as_deref(), Some("/work/repo"));
    assert_eq!(
        file_effects(&t, "read_file"),
        [FileEffect::Read {
            path: "/work/repo/src/parser.rs".into()
        }]
    );
}

#[test]
fn gemini_stream_json() {
    let t = decode_keep(&fx("gemini/stream.jsonl"));
    assert_eq!(t.format, "gemini-stream-json");
    assert_eq!(
        t.session_id.as_deref(),
        Some("9d8c7b6a-0000-4000-8000-000000000002")
    );
    let load = &t.events[1];
    assert_eq!(
        load.action,
        Action::SkillLoad {
            name: "figma-to-code".into(),
            via: LoadVia::ActivateSkill,
            body_sha256: None,
        }
    );
    assert!(load.failed, "the skill was not found");
    assert_eq!(
        load.result_timestamp.as_deref(),
        Some("2026-05-02T09:00:01.200Z")
    );
    // Two delta chunks make one message; the final "Done." delta after tool calls is its own.
    let msgs: Vec<&str> = t
        .events
        .iter()
        .filter(|e| e.role == Role::Assistant && e.action == Action::Message)
        .map(|e| e.content.as_ref().unwrap().text.as_deref().unwrap())
        .collect();
    assert_eq!(msgs, ["I'll write the component directly.", "Done."]);
    assert_eq!(
        file_effects(&t, "write_file"),
        [FileEffect::Write {
            path: "/work/app/Frame.tsx".into()
        }]
    );
    assert!(t.complete);
}

#[test]
fn gemini_malformed_lines_are_counted_not_errors() {
    let t = decode(&fx("gemini/malformed.jsonl"));
    assert_eq!(
        problems(&t),
        [
            (Some(3), None, ProblemKind::Undecodable),
            (Some(4), None, ProblemKind::UnknownRecordType),
            (Some(5), None, ProblemKind::InvalidUtf8),
            (Some(6), None, ProblemKind::UnknownRecordType),
            (Some(8), None, ProblemKind::TruncatedLastLine),
        ]
    );
    assert!(t.truncated);
    assert!(!t.complete);
    assert_eq!(t.undecodable_count(), 2);
    assert_eq!(
        t.events.len(),
        2,
        "the good user message and shell call survive"
    );
}

#[test]
fn gemini_real_fixture_exit_codes() {
    let t = decode(Path::new("../shared/realdata/transcripts/synthetic-schema-fixtures/agent-sessions__gemini_large.json"));
    let shells: Vec<&Event> = t
        .events
        .iter()
        .filter(|e| matches!(e.action, Action::Shell(_)))
        .collect();
    assert_eq!(
        shells
            .iter()
            .map(|e| (e.exit_code, e.failed))
            .collect::<Vec<_>>(),
        [(Some(0), false), (Some(1), true)]
    );
    assert_eq!(
        shells[0].location.pointer.as_deref(),
        Some("/messages/1/toolCalls/0")
    );
}

// ---------------------------------------------------------------- OpenHands

#[test]
fn openhands_output_jsonl_concatenates_instances_and_counts_bad_lines() {
    let t = decode(&fx("openhands/malformed_output.jsonl"));
    assert_eq!(t.format, "openhands-eval-output");
    assert_eq!(
        problems(&t),
        [
            (
                Some(1),
                Some("/history/3".into()),
                ProblemKind::UnknownRecordType
            ),
            (
                Some(1),
                Some("/history/4".into()),
                ProblemKind::UnknownRecordType
            ),
            (Some(2), None, ProblemKind::Undecodable),
        ]
    );
    // Instances 1 and 3 (lines 1 and 3): every event names its instance by line.
    let lines: Vec<u64> = t.events.iter().map(|e| e.location.line.unwrap()).collect();
    assert_eq!(lines, [1, 1, 1, 1, 3, 3, 3, 3]);
    let run = &t.events[1];
    assert_eq!(all_git(&t), ["checkout"]);
    assert_eq!((run.exit_code, run.failed), (Some(2), true));
    let Action::Shell(sa) = &run.action else {
        panic!()
    };
    assert_eq!(sa.workdir.as_deref(), Some("/workspace/repo"));
    assert_eq!(
        file_effects(&t, "str_replace_editor"),
        [FileEffect::Write {
            path: "/workspace/repo/README.md".into()
        }]
    );
    // Keyboard input to a running process is not a shell command.
    let input = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("run"))
        .unwrap();
    assert_eq!(input.action, Action::Other);
    assert_eq!(t.session_id, None, "two instances: no single session id");
    assert!(!t.complete, "a broken instance line");
}

#[test]
fn openhands_torn_event_list_is_recovered_and_truncated() {
    let t = decode(&fx("openhands/torn_events.json"));
    assert!(t.truncated);
    assert!(!t.complete);
    assert_eq!(t.events.len(), 2);
    assert_eq!(t.events[1].exit_code, Some(0));
    let Action::Shell(sa) = &t.events[1].action else {
        panic!()
    };
    assert_eq!(
        sa.effects,
        [FileEffect::Rename {
            from: "/workspace/a.py".into(),
            to: "/workspace/b.py".into()
        }]
    );
}

#[test]
fn openhands_real_recall_names_microagents() {
    let t = decode(Path::new(
        "../shared/realdata/transcripts/openhands/multi_swe_bench_output.jsonl",
    ));
    let loads: Vec<&Action> = t
        .events
        .iter()
        .filter(|e| matches!(e.action, Action::SkillLoad { .. }))
        .map(|e| &e.action)
        .collect();
    // The first instance's recall lists the keyword-triggered github and gitlab microagents.
    assert_eq!(
        loads,
        [
            &Action::SkillLoad {
                name: "github".into(),
                via: LoadVia::Microagent,
                body_sha256: None,
            },
            &Action::SkillLoad {
                name: "gitlab".into(),
                via: LoadVia::Microagent,
                body_sha256: None,
            },
        ]
    );
    let edits_failed = t
        .events
        .iter()
        .filter(|e| e.tool.as_deref() == Some("str_replace_editor") && e.failed)
        .count();
    assert!(
        edits_failed >= 10,
        "ERROR: edit observations fail their edits ({edits_failed})"
    );
}

// ---------------------------------------------------------------- chat formats

#[test]
fn openai_chat_tool_calls_and_problems() {
    let t = decode(&fx("openai-chat/conversation.json"));
    assert_eq!(t.format, "openai-chat");
    assert_eq!(
        all_git(&t),
        ["add", "commit", "push"],
        "the quoted `git push -f` in the commit message is no push"
    );
    let push = t
        .events
        .iter()
        .find(|e| git_ops(e).iter().any(|(s, _)| s == "push"))
        .unwrap();
    assert!(push.failed, "is_error on the tool message");
    assert_eq!(
        push.location.pointer.as_deref(),
        Some("/messages/4/tool_calls/0")
    );
    assert_eq!(
        problems(&t),
        [
            (
                None,
                Some("/messages/4/tool_calls/1".into()),
                ProblemKind::Undecodable
            ),
            (None, Some("/messages/7".into()), ProblemKind::Skipped),
            (
                None,
                Some("/messages/8".into()),
                ProblemKind::UnknownRecordType
            ),
        ]
    );
    assert!(t.complete);
}

#[test]
fn plain_chat_list_is_openai_chat_only() {
    let d = decode::pick_decoder(&fx("openai-chat/plain_bare.json"), None).unwrap();
    assert_eq!(d.format(), "openai-chat");
    let head = std::fs::read(fx("openai-chat/plain_bare.json")).unwrap();
    let anthropic = decode::decoders()
        .into_iter()
        .find(|d| d.format() == "anthropic-messages")
        .unwrap();
    assert_eq!(
        anthropic.sniff(&fx("openai-chat/plain_bare.json"), &head),
        0
    );
    // Forcing the Anthropic decoder on it works too: it is a valid Messages array.
    let t = decode::decode_path(
        &fx("openai-chat/plain_bare.json"),
        Some("anthropic-messages"),
        &DecodeOptions::default(),
    )
    .unwrap();
    assert_eq!(t.events.len(), 2);
}

#[test]
fn anthropic_messages_skill_tool_and_refusal() {
    let t = decode(&fx("anthropic-messages/request.json"));
    assert_eq!(t.format, "anthropic-messages");
    let load = t
        .events
        .iter()
        .find(|e| matches!(e.action, Action::SkillLoad { .. }))
        .unwrap();
    assert_eq!(
        load.action,
        Action::SkillLoad {
            name: "pdf".into(),
            via: LoadVia::SkillTool,
            body_sha256: None,
        }
    );
    assert_eq!(
        load.location.pointer.as_deref(),
        Some("/messages/1/content/1")
    );
    let bash = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("Bash"))
        .unwrap();
    assert!(bash.failed && bash.rejected);
    // `echo "git push -f"` is text; only the real push counts.
    assert_eq!(
        git_ops(bash),
        [("push".to_string(), vec!["--force".to_string()])]
    );
    assert_eq!(
        file_effects(&t, "Edit"),
        [FileEffect::Edit {
            path: "/repo/a.py".into()
        }]
    );
    assert_eq!(
        problems(&t),
        [(
            None,
            Some("/messages/5/content/0".into()),
            ProblemKind::UnknownRecordType
        )]
    );
    assert!(t.complete);
}

// ---------------------------------------------------------------- SWE-agent, Inspect

#[test]
fn swe_agent_v0_text_actions() {
    let t = decode(&fx("swe-agent/v0_text_actions.traj"));
    assert_eq!(
        file_effects(&t, "open"),
        [FileEffect::Read {
            path: "src/app.py".into()
        }]
    );
    // `edit` edits the open file, named by the observation footer.
    let edit = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("edit"))
        .unwrap();
    assert_eq!(
        edit.action,
        Action::File {
            effects: vec![FileEffect::Edit {
                path: "/repo/src/app.py".into()
            }]
        }
    );
    assert!(
        edit.failed,
        "the edit introduced a syntax error and was rejected"
    );
    assert_eq!(all_git(&t), ["commit"]);
    let bash = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("bash"))
        .unwrap();
    let Action::Shell(sa) = &bash.action else {
        panic!()
    };
    assert_eq!(sa.workdir.as_deref(), Some("/repo"));
    assert_eq!(
        problems(&t),
        [(None, Some("/history/8".into()), ProblemKind::Undecodable)]
    );
    assert!(t.complete);
}

#[test]
fn inspect_ai_samples_tools_and_errors() {
    let t = decode(&fx("inspect-ai/two_samples.json"));
    assert_eq!(t.harness_version.as_deref(), Some("0.3.100"));
    assert_eq!(t.session_id.as_deref(), Some("EvalX1"));
    let bash = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("bash"))
        .unwrap();
    assert_eq!(all_git(&t), ["commit"]);
    assert!(bash.failed);
    assert_eq!(
        bash.timestamp.as_deref(),
        Some("2025-06-01T10:00:05.000000+00:00")
    );
    assert_eq!(
        bash.result_timestamp.as_deref(),
        Some("2025-06-01T10:00:06.000000+00:00")
    );
    assert_eq!(
        file_effects(&t, "text_editor"),
        [FileEffect::Write {
            path: "/repo/NEW.md".into()
        }]
    );
    let fetch = t
        .events
        .iter()
        .find(|e| matches!(e.action, Action::Fetch { .. }))
        .unwrap();
    assert_eq!(
        fetch.location.pointer.as_deref(),
        Some("/samples/1/messages/1/tool_calls/0")
    );
    assert!(!t.complete, "status error and a sample error");
}

// ---------------------------------------------------------------- aider

#[test]
fn aider_blocks_commands_and_auto_commits() {
    let t = decode(&fx("aider/session.aider.chat.history.md"));
    assert_eq!(t.harness_version.as_deref(), Some("0.80.0"));
    assert_eq!(
        file_effects(&t, "search/replace"),
        [
            FileEffect::Edit {
                path: "src/app.py".into()
            },
            FileEffect::Edit {
                path: "src/util.py".into()
            },
            FileEffect::Write {
                path: "tests/test_util.py".into()
            },
            FileEffect::Edit {
                path: "src/util.py".into()
            },
            FileEffect::Edit {
                path: "src/app.py".into()
            },
        ]
    );
    let blocks: Vec<&Event> = t
        .events
        .iter()
        .filter(|e| e.tool.as_deref() == Some("search/replace"))
        .collect();
    assert_eq!(
        blocks
            .iter()
            .map(|e| e.location.line.unwrap())
            .collect::<Vec<_>>(),
        [21, 30, 41, 96, 105]
    );
    // Only the block aider reports as not matching failed.
    assert_eq!(
        blocks.iter().map(|e| e.failed).collect::<Vec<_>>(),
        [false, false, false, true, false]
    );
    assert_eq!(
        file_effects(&t, "/add"),
        [
            FileEffect::Read {
                path: "src/app.py".into()
            },
            FileEffect::Read {
                path: "src/util.py".into()
            }
        ]
    );
    // Auto-commits (`> Commit 1a2b3c4 …`) are not git actions: only the model's
    // suggested push (refused), the user's /git push and /run git log are.
    assert_eq!(all_git(&t), ["push", "push", "log"]);
    let suggested = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("shell") && !git_ops(e).is_empty())
        .unwrap();
    assert!(suggested.rejected && suggested.failed);
    assert_eq!(suggested.role, Role::Assistant);
    let user_push = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("/git"))
        .unwrap();
    assert_eq!(user_push.role, Role::User);
    let ran = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("shell") && git_ops(e).is_empty())
        .unwrap();
    let Action::Shell(sa) = &ran.action else {
        panic!()
    };
    assert_eq!(sa.line, "pytest -q");
    assert!(!ran.rejected);
    assert!(t.problems.is_empty(), "{:?}", t.problems);
    assert!(t.complete);
}

#[test]
fn aider_real_history_auto_commits_are_not_git_actions() {
    let p = Path::new("../shared/realdata/transcripts/aider/aider__chat-history.prefix.md");
    let t = decode(p);
    let text = std::fs::read_to_string(p).unwrap();
    let commit_lines = text.lines().filter(|l| l.starts_with("> Commit ")).count();
    assert!(
        commit_lines >= 200,
        "the real history has aider auto-commits ({commit_lines})"
    );
    let commits = all_git(&t).iter().filter(|s| *s == "commit").count();
    assert_eq!(
        commits, 0,
        "no agent or user ran git commit; aider's {commit_lines} auto-commits are bookkeeping"
    );
    // SEARCH/REPLACE blocks become edits of the file named above them.
    let first = t
        .events
        .iter()
        .find(|e| e.tool.as_deref() == Some("search/replace"))
        .unwrap();
    assert_eq!(
        first.action,
        Action::File {
            effects: vec![FileEffect::Edit {
                path: "aider/utils.py".into()
            }]
        }
    );
    let blocks = t
        .events
        .iter()
        .filter(|e| e.tool.as_deref() == Some("search/replace"))
        .count();
    let cut = t
        .problems
        .iter()
        .filter(|p| p.kind == ProblemKind::Skipped)
        .count();
    let markers = text
        .lines()
        .filter(|l| l.trim_end() == "<<<<<<< SEARCH")
        .count();
    assert_eq!(
        blocks + cut,
        markers,
        "every SEARCH marker is an edit or a counted cut-off block"
    );
}

// ---------------------------------------------------------------- errors

#[test]
fn unrecognised_files_are_decode_errors() {
    for p in ["other/notes.txt", "other/config.json"] {
        let err = decode::decode_path(&fx(p), None, &DecodeOptions::default()).unwrap_err();
        assert!(err.path.ends_with(p));
        assert!(
            err.message.contains("not a recognised transcript format"),
            "{}",
            err.message
        );
    }
}

#[test]
fn forced_format_on_the_wrong_shape_is_a_decode_error_not_a_panic() {
    let cases = [
        ("swe-agent", "openai-chat/plain_bare.json"),
        ("inspect-ai", "other/notes.txt"),
        ("openai-chat", "other/config.json"),
        ("anthropic-messages", "swe-agent/v0_text_actions.traj"),
        ("openhands", "other/config.json"),
        ("gemini-chat", "other/notes.txt"),
    ];
    for (format, p) in cases {
        let r = decode::decode_path(&fx(p), Some(format), &DecodeOptions::default());
        assert!(
            r.is_err(),
            "{format} on {p} should fail, got {:?}",
            r.map(|t| t.events.len())
        );
    }
    // aider reads any text: an unrelated text file decodes to plain replies, never an error.
    let t = decode::decode_path(
        &fx("other/notes.txt"),
        Some("aider"),
        &DecodeOptions::default(),
    )
    .unwrap();
    assert!(t.events.iter().all(|e| e.action == Action::Message));
}

#[test]
fn content_is_kept_only_when_asked() {
    let t = decode(&fx("gemini/activate_skill.jsonl"));
    assert!(t.events.iter().all(|e| e.content.is_none()));
    let t = decode_keep(&fx("gemini/activate_skill.jsonl"));
    let user = t.events.iter().find(|e| e.role == Role::User).unwrap();
    assert_eq!(
        user.content.as_ref().unwrap().text.as_deref(),
        Some("Convert report.pdf to text, then commit and push.")
    );
    let load = t
        .events
        .iter()
        .find(|e| matches!(e.action, Action::SkillLoad { .. }))
        .unwrap();
    let c = load.content.as_ref().unwrap();
    assert_eq!(c.tool_input.as_ref().unwrap()["name"], "pdf");
    assert!(c
        .tool_output
        .as_deref()
        .unwrap()
        .contains("activated_skill"));
    let t = decode_keep(&fx("aider/session.aider.chat.history.md"));
    let reply = t
        .events
        .iter()
        .find(|e| e.role == Role::Assistant && e.action == Action::Message)
        .unwrap();
    assert!(reply
        .content
        .as_ref()
        .unwrap()
        .text
        .as_deref()
        .unwrap()
        .starts_with("I'll rename it in both files."));
}

// ---------------------------------------------------------------- robustness

/// Every file of these formats, cut at many points (a torn write, a partial
/// copy) and with bytes flipped, decodes to a trajectory or a DecodeError with
/// its decoder forced: never a panic.
#[test]
fn torn_and_corrupted_files_never_panic() {
    let files: &[(&str, &str)] = &[
        ("../shared/realdata/transcripts/swe-agent/function_calling_simple.traj", "swe-agent"),
        ("../shared/realdata/transcripts/openhands/wrong_initial_state.json", "openhands"),
        ("../shared/realdata/transcripts/inspect-ai/2025-05-12T20-27-36-04-00_browser.json", "inspect-ai"),
        ("../shared/realdata/transcripts/aider/zen-mcp-server__.aider.chat.history.md", "aider"),
        ("fixtures/decode-others/gemini/activate_skill.jsonl", "gemini-chat"),
        ("fixtures/decode-others/gemini/stream.jsonl", "gemini-chat"),
        ("../shared/realdata/transcripts/synthetic-schema-fixtures/agent-sessions__gemini_large.json", "gemini-chat"),
        ("fixtures/decode-others/openhands/malformed_output.jsonl", "openhands"),
        ("fixtures/decode-others/openai-chat/conversation.json", "openai-chat"),
        ("fixtures/decode-others/anthropic-messages/request.json", "anthropic-messages"),
        ("fixtures/decode-others/swe-agent/v0_text_actions.traj", "swe-agent"),
        ("fixtures/decode-others/aider/session.aider.chat.history.md", "aider"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (src, format) in files {
        let bytes = std::fs::read(src).unwrap();
        for k in 0..40 {
            let mut b = bytes.clone();
            let cut = (next() as usize) % (b.len() + 1);
            b.truncate(cut);
            if k % 2 == 1 && !b.is_empty() {
                for _ in 0..4 {
                    let i = (next() as usize) % b.len();
                    b[i] = (next() & 0xFF) as u8;
                }
            }
            let p = dir.path().join(format!("case-{k}"));
            std::fs::write(&p, &b).unwrap();
            for forced in [Some(*format), None] {
                if let Ok(t) = decode::decode_path(
                    &p,
                    forced,
                    &DecodeOptions {
                        keep_content: k % 3 == 0,
                    },
                ) {
                    // Whatever survives is internally consistent.
                    for (i, e) in t.events.iter().enumerate() {
                        assert_eq!(e.index, i);
                        assert!(
                            e.location.line.is_some() || e.location.pointer.is_some(),
                            "{src} cut {cut}: event without location"
                        );
                    }
                    if cut < bytes.len() && k % 2 == 0 && !t.truncated && *format != "aider" {
                        // A torn JSON document or JSONL file says so (or lost only whitespace).
                        let rest = &bytes[cut..];
                        assert!(
                            rest.iter().all(|c| c.is_ascii_whitespace())
                                || t.problems
                                    .iter()
                                    .any(|p| p.kind != ProblemKind::UnknownRecordType)
                                || bytes[..cut].ends_with(b"\n"),
                            "{src} cut at {cut}/{} not reported as truncated",
                            bytes.len()
                        );
                    }
                }
            }
        }
    }
}
