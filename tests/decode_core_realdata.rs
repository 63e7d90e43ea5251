//! Every real Claude Code and Codex transcript in ../shared/realdata decodes,
//! with its per-kind action counts snapshotted, plus the facts the issue names:
//! git operations in the sessions, apply_patch heredocs as edits, loopkit's
//! `/goal` as a skill load.

use skillgate::decode::skills::first_load;
use skillgate::decode::{
    decode_path, Action, AgentPath, DecodeOptions, FileEffect, LoadVia, ProblemKind, Trajectory,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const ROOT: &str = "../shared/realdata/transcripts";

fn real(rel: &str) -> PathBuf {
    Path::new(ROOT).join(rel)
}

fn decode(rel: &str) -> Trajectory {
    decode_path(&real(rel), None, &DecodeOptions::default())
        .unwrap_or_else(|e| panic!("{rel} must decode: {e}"))
}

/// The Claude Code and Codex files of the corpus (others are decode-others').
const FILES: &[&str] = &[
    "claude-code/claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
    "claude-code/claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
    "claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
    "claude-code/sniffly__ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl",
    "claude-code/sniffly__d3ad4cdc-5657-435d-98fa-0035d53e383d.jsonl",
    "claude-code/sniffly__ff71dbed-a4f2-4284-a4fc-fe2fb90de929.jsonl",
    "claude-code-chat-json/a-sdlc__logs_chat.json",
    "claude-code-chat-json/loopkit__logs_chat.json",
    "codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
    "synthetic-schema-fixtures/agent-sessions__claude_small.jsonl",
    "synthetic-schema-fixtures/agent-sessions__claude_subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl",
    "synthetic-schema-fixtures/agent-sessions__codex_small.jsonl",
];

/// A content-free summary of a trajectory: what the snapshots hold.
fn summary(t: &Trajectory) -> BTreeMap<String, serde_json::Value> {
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut git: BTreeMap<String, usize> = BTreeMap::new();
    let mut tools: BTreeMap<String, usize> = BTreeMap::new();
    let mut loads = Vec::new();
    let (mut failed, mut rejected, mut sub_events) = (0, 0, 0);
    for e in &t.events {
        let k = serde_json::to_value(&e.action).unwrap()["kind"]
            .as_str()
            .unwrap()
            .to_string();
        *kinds.entry(k).or_default() += 1;
        if let Some(tool) = &e.tool {
            *tools.entry(tool.clone()).or_default() += 1;
        }
        if let Action::Shell(s) = &e.action {
            for c in &s.commands {
                if let Some(g) = &c.git {
                    *git.entry(g.subcommand.clone()).or_default() += 1;
                }
            }
        }
        if let Action::SkillLoad { name, via, .. } = &e.action {
            loads.push(format!(
                "{name} via {}",
                serde_json::to_value(via).unwrap().as_str().unwrap()
            ));
        }
        failed += usize::from(e.failed);
        rejected += usize::from(e.rejected);
        sub_events += usize::from(e.agent != AgentPath::Main);
    }
    let mut problems: BTreeMap<String, usize> = BTreeMap::new();
    for p in &t.problems {
        *problems
            .entry(
                serde_json::to_value(p.kind)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
            .or_default() += 1;
    }
    let j = |v: serde_json::Value| v;
    BTreeMap::from([
        ("format".into(), j(t.format.clone().into())),
        (
            "harness_version".into(),
            j(serde_json::to_value(&t.harness_version).unwrap()),
        ),
        ("complete".into(), j(t.complete.into())),
        ("truncated".into(), j(t.truncated.into())),
        ("events".into(), j(t.events.len().into())),
        ("action_kinds".into(), serde_json::to_value(kinds).unwrap()),
        ("git_subcommands".into(), serde_json::to_value(git).unwrap()),
        ("tools".into(), serde_json::to_value(tools).unwrap()),
        ("skill_loads".into(), serde_json::to_value(loads).unwrap()),
        ("failed".into(), failed.into()),
        ("rejected".into(), rejected.into()),
        ("subagent_events".into(), sub_events.into()),
        ("problems".into(), serde_json::to_value(problems).unwrap()),
        ("extra_files".into(), t.extra_files.len().into()),
    ])
}

#[test]
fn every_claude_and_codex_real_transcript_decodes() {
    for rel in FILES {
        let t = decode(rel);
        let name = rel.replace(['/', '.'], "_");
        insta::assert_yaml_snapshot!(name, summary(&t));
        assert_eq!(
            t.undecodable_count(),
            0,
            "{rel}: no undecodable record in real files"
        );
        for (i, e) in t.events.iter().enumerate() {
            assert_eq!(e.index, i, "{rel}: events are numbered");
            assert!(
                e.content.is_none(),
                "{rel}: no content without keep_content"
            );
        }
    }
}

#[test]
fn loopkit_goal_is_a_slash_command_skill_load_and_git_is_parsed() {
    let t = decode("claude-code-chat-json/loopkit__logs_chat.json");
    assert_eq!(t.format, "claude-chat-json");
    assert_eq!(t.harness_version.as_deref(), Some("2.1.96"));
    assert_eq!(t.git_branch.as_deref(), Some("master"));
    let load = first_load(&t, "goal").expect("/goal loads the goal skill");
    assert!(!load.weak);
    assert_eq!(load.via, LoadVia::SlashCommand);
    let ev = &t.events[load.index];
    assert_eq!(
        ev.location.pointer.as_deref(),
        Some("/180"),
        "the Base-directory body is record 180"
    );
    // git init && git add -A && git commit -m "$(cat <<'EOF' … EOF)"
    let gits: Vec<(String, Vec<String>)> = t
        .events
        .iter()
        .filter_map(|e| match &e.action {
            Action::Shell(s) => Some(s.commands.iter().filter_map(|c| c.git.clone())),
            _ => None,
        })
        .flatten()
        .map(|g| (g.subcommand, g.flags))
        .collect();
    assert!(gits.contains(&("init".into(), vec![])));
    assert!(gits.contains(&("add".into(), vec!["--all".into()])));
    assert!(gits
        .iter()
        .any(|(s, f)| s == "commit" && f.iter().any(|f| f.starts_with("--message="))));
    // the commit message heredoc is data: nothing in it became a command
    assert_eq!(gits.len(), 3);
    // 18 Agent calls, each a subagent action with the agent's id from its result
    let agents: Vec<&Action> = t
        .events
        .iter()
        .filter(|e| e.tool.as_deref() == Some("Agent"))
        .map(|e| &e.action)
        .collect();
    assert_eq!(agents.len(), 18);
    assert!(agents.iter().all(|a| matches!(
        a,
        Action::Subagent {
            agent_id: Some(_),
            ..
        }
    )));
    // the rejected ExitPlanMode
    assert!(t
        .events
        .iter()
        .any(|e| e.rejected && e.failed && e.tool.as_deref() == Some("ExitPlanMode")));
    assert!(!t.complete, "the last user question was never answered");
}

#[test]
fn codex_apply_patch_heredocs_are_edits_of_the_right_paths() {
    let t = decode("codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl");
    assert_eq!(t.format, "codex-rollout");
    assert_eq!(t.harness_version.as_deref(), Some("0.58.0"));
    assert_eq!(
        t.session_id.as_deref(),
        Some("019a93b9-f380-7600-98ff-940e6b99603c")
    );
    let patches: Vec<&Vec<FileEffect>> = t
        .events
        .iter()
        .filter_map(|e| match &e.action {
            Action::Shell(s) if s.line.starts_with("apply_patch <<") => Some(&s.effects),
            _ => None,
        })
        .collect();
    assert_eq!(patches.len(), 2);
    for p in patches {
        assert_eq!(
            p,
            &vec![FileEffect::Edit {
                path: "components/chat/chat-helpers/index.ts".into()
            }]
        );
    }
    // 37 shell calls, each with its exit code from the JSON metadata (three `rg`
    // searches found nothing: exit 1 or 2); no ghost snapshot event
    let shells: Vec<_> = t
        .events
        .iter()
        .filter(|e| e.tool.as_deref() == Some("shell"))
        .collect();
    assert_eq!(shells.len(), 37);
    assert!(shells
        .iter()
        .all(|e| e.exit_code.is_some() && e.failed == (e.exit_code != Some(0))));
    assert_eq!(shells.iter().filter(|e| e.failed).count(), 3);
    assert!(shells
        .iter()
        .all(|e| matches!(&e.action, Action::Shell(s) if !s.line.starts_with("bash"))));
    // `sed -n` / `cat` reads are read effects
    assert!(t.events.iter().any(|e| matches!(&e.action, Action::Shell(s)
        if s.effects.contains(&FileEffect::Read { path: "components/chat/chat-helpers/index.ts".into() }))));
}

#[test]
fn sidechains_are_subagent_events_of_their_task() {
    let t = decode("claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
    let tasks: Vec<String> = t
        .events
        .iter()
        .filter_map(|e| match &e.action {
            Action::Subagent {
                agent_id: Some(id), ..
            } => Some(id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(tasks.len(), 5);
    let sub_ids: std::collections::BTreeSet<String> = t
        .events
        .iter()
        .filter_map(|e| match &e.agent {
            AgentPath::Subagent(id) => Some(id.clone()),
            AgentPath::Main => None,
        })
        .collect();
    assert!(!sub_ids.is_empty());
    assert!(
        sub_ids.iter().all(|id| tasks.contains(id)),
        "every sidechain is tied to a Task call: {sub_ids:?}"
    );
    // sidechains start in a different order than their Task calls: tied by prompt
    let agent_at = |line: u64| {
        t.events
            .iter()
            .find(|e| e.location.line == Some(line))
            .map(|e| e.agent.clone())
    };
    assert_eq!(
        agent_at(16),
        Some(AgentPath::Subagent("toolu_01LS6tcVd796SbQKmZqeVnWY".into()))
    );
    assert_eq!(
        agent_at(38),
        Some(AgentPath::Subagent("toolu_014i9ThHMNShCHocf9xMKasf".into()))
    );
    // most of this session ran in subagents
    let subs = t
        .events
        .iter()
        .filter(|e| e.agent != AgentPath::Main)
        .count();
    assert!(subs > t.events.len() / 2);
}

#[test]
fn new_layout_subagent_file_is_read_with_its_session() {
    let t = decode("synthetic-schema-fixtures/agent-sessions__claude_subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl");
    assert_eq!(t.extra_files.len(), 1);
    assert!(t.extra_files[0].ends_with("subagents/agent-a0ad4f44468bdf20d.jsonl"));
    let sub: Vec<_> = t
        .events
        .iter()
        .filter(|e| e.agent == AgentPath::Subagent("a0ad4f44468bdf20d".into()))
        .collect();
    assert_eq!(sub.len(), 3);
    assert!(sub
        .iter()
        .all(|e| e.location.file.as_ref() == Some(&t.extra_files[0])));
    assert!(sub.iter().any(
        |e| matches!(&e.action, Action::Shell(s) if s.commands[0].argv == ["grep", "-rn", "TODO"])
    ));
    // its .meta.json gave the agent type of the spawning Task
    assert!(t.events.iter().any(|e| matches!(&e.action, Action::Subagent { agent_type: Some(a), .. } if a == "general-purpose")));
}

#[test]
fn summary_only_file_is_empty_and_incomplete() {
    let t = decode("claude-code/sniffly__ff71dbed-a4f2-4284-a4fc-fe2fb90de929.jsonl");
    assert!(t.events.is_empty());
    assert!(!t.complete);
    assert!(t.problems.is_empty());
}

#[test]
fn synthetic_record_zoo_only_counts_truly_unknown_types() {
    let t = decode("synthetic-schema-fixtures/agent-sessions__claude_small.jsonl");
    assert!(
        t.problems
            .iter()
            .all(|p| p.kind != ProblemKind::UnknownRecordType),
        "{:?}",
        t.problems
    );
    let t = decode("synthetic-schema-fixtures/agent-sessions__codex_small.jsonl");
    let unknown: Vec<_> = t
        .problems
        .iter()
        .filter(|p| p.kind == ProblemKind::UnknownRecordType)
        .collect();
    assert_eq!(unknown.len(), 1);
    assert!(unknown[0]
        .detail
        .contains("inter_agent_communication_metadata"));
}

#[test]
fn keep_content_fills_text_and_tool_io() {
    let opts = DecodeOptions { keep_content: true };
    let t = decode_path(
        &real("claude-code-chat-json/loopkit__logs_chat.json"),
        None,
        &opts,
    )
    .unwrap();
    let texts = t
        .events
        .iter()
        .filter(|e| e.content.as_ref().is_some_and(|c| c.text.is_some()))
        .count();
    let outputs = t
        .events
        .iter()
        .filter(|e| e.content.as_ref().is_some_and(|c| c.tool_output.is_some()))
        .count();
    let inputs = t
        .events
        .iter()
        .filter(|e| e.content.as_ref().is_some_and(|c| c.tool_input.is_some()))
        .count();
    assert!(texts > 40, "messages keep their text: {texts}");
    assert_eq!(inputs, 134, "every tool call keeps its input");
    assert!(
        outputs > 120,
        "tool outputs are attached to their call: {outputs}"
    );
    // the same actions either way
    let plain = decode("claude-code-chat-json/loopkit__logs_chat.json");
    let a: Vec<&Action> = t.events.iter().map(|e| &e.action).collect();
    let b: Vec<&Action> = plain.events.iter().map(|e| &e.action).collect();
    assert_eq!(a, b);
    let t = decode_path(
        &real("codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl"),
        None,
        &opts,
    )
    .unwrap();
    let out = t
        .events
        .iter()
        .find_map(|e| e.content.as_ref()?.tool_output.clone())
        .unwrap();
    assert!(
        out.contains("LM Studio configuration.md"),
        "the shell output is unwrapped from its JSON envelope"
    );
}
