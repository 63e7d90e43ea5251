//! Every real transcript of the decode-others formats in ../shared/realdata
//! decodes without error, is sniffed as its own format (and by no other
//! decoder of this group), and its per-kind action counts are snapshotted.

use serde::Serialize;
use skillgate::decode::{self, Action, DecodeOptions, FileEffect, ProblemKind, Trajectory};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const REAL: &str = "../shared/realdata/transcripts";

/// Per-kind counts of a trajectory: what the snapshots pin down.
#[derive(Serialize)]
struct Summary {
    format: String,
    harness: String,
    harness_version: Option<String>,
    session_id: Option<String>,
    complete: bool,
    truncated: bool,
    events: usize,
    actions: BTreeMap<String, usize>,
    git: BTreeMap<String, usize>,
    tools: BTreeMap<String, usize>,
    failed: usize,
    rejected: usize,
    with_exit_code: usize,
    with_timestamp: usize,
    subagent_events: usize,
    problems: BTreeMap<String, usize>,
}

fn kind_name(a: &Action) -> Vec<String> {
    match a {
        Action::Message => vec!["message".into()],
        Action::UserTurn { .. } => vec!["user-turn".into()],
        Action::File { effects } => effects
            .iter()
            .map(|e| match e {
                FileEffect::Read { .. } => "file-read",
                FileEffect::Write { .. } => "file-write",
                FileEffect::Edit { .. } => "file-edit",
                FileEffect::Delete { .. } => "file-delete",
                FileEffect::Rename { .. } => "file-rename",
            })
            .map(String::from)
            .collect(),
        Action::Shell(_) => vec!["shell".into()],
        Action::Fetch { .. } => vec!["fetch".into()],
        Action::SkillLoad { .. } => vec!["skill-load".into()],
        Action::Subagent { .. } => vec!["subagent".into()],
        Action::Other => vec!["other".into()],
    }
}

fn summarize(t: &Trajectory) -> Summary {
    let mut actions = BTreeMap::new();
    let mut git = BTreeMap::new();
    let mut tools = BTreeMap::new();
    for e in &t.events {
        for k in kind_name(&e.action) {
            *actions.entry(k).or_default() += 1;
        }
        if let Action::Shell(sa) = &e.action {
            for c in &sa.commands {
                if let Some(g) = &c.git {
                    *git.entry(g.subcommand.clone()).or_default() += 1;
                }
            }
        }
        if let Some(tool) = &e.tool {
            *tools.entry(tool.clone()).or_default() += 1;
        }
    }
    let mut problems = BTreeMap::new();
    for p in &t.problems {
        let k = match p.kind {
            ProblemKind::Undecodable => "undecodable",
            ProblemKind::InvalidUtf8 => "invalid-utf8",
            ProblemKind::TruncatedLastLine => "truncated-last-line",
            ProblemKind::UnknownRecordType => "unknown-record-type",
            ProblemKind::Skipped => "skipped",
        };
        *problems.entry(k.to_string()).or_default() += 1;
    }
    Summary {
        format: t.format.clone(),
        harness: t.harness.as_str().to_string(),
        harness_version: t.harness_version.clone(),
        session_id: t.session_id.clone(),
        complete: t.complete,
        truncated: t.truncated,
        events: t.events.len(),
        actions,
        git,
        tools,
        failed: t.events.iter().filter(|e| e.failed).count(),
        rejected: t.events.iter().filter(|e| e.rejected).count(),
        with_exit_code: t.events.iter().filter(|e| e.exit_code.is_some()).count(),
        with_timestamp: t.events.iter().filter(|e| e.timestamp.is_some()).count(),
        subagent_events: t
            .events
            .iter()
            .filter(|e| e.agent != decode::AgentPath::Main)
            .count(),
        problems,
    }
}

/// (path under the real-data folder, expected decoder format name)
const FILES: &[(&str, &str)] = &[
    ("swe-agent/function_calling_simple.traj", "swe-agent"),
    (
        "swe-agent/marshmallow-1867__function_calling_replace.traj",
        "swe-agent",
    ),
    ("openhands/basic_gui_mode.json", "openhands"),
    ("openhands/wrong_initial_state.json", "openhands"),
    ("openhands/multi_swe_bench_output.jsonl", "openhands"),
    (
        "inspect-ai/2025-05-12T20-27-36-04-00_browser.json",
        "inspect-ai",
    ),
    ("aider/aider__chat-history.prefix.md", "aider"),
    ("aider/zen-mcp-server__.aider.chat.history.md", "aider"),
    (
        "synthetic-schema-fixtures/agent-sessions__gemini_jsonl_v040.jsonl",
        "gemini-chat",
    ),
    (
        "synthetic-schema-fixtures/agent-sessions__gemini_large.json",
        "gemini-chat",
    ),
];

const MINE: &[&str] = &[
    "gemini-chat",
    "swe-agent",
    "openhands",
    "inspect-ai",
    "aider",
    "openai-chat",
    "anthropic-messages",
];

fn real(p: &str) -> PathBuf {
    Path::new(REAL).join(p)
}

fn snapshot_name(p: &str) -> String {
    p.replace(['/', '.'], "_")
}

#[test]
fn every_real_file_decodes_and_is_snapshotted() {
    for (p, format) in FILES {
        let path = real(p);
        let d = decode::pick_decoder(&path, None).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(d.format(), *format, "{p} sniffed as {}", d.format());
        let t = decode::decode_path(&path, None, &DecodeOptions::default())
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(
            t.events.iter().all(|e| e.content.is_none()),
            "{p}: content kept without keep_content"
        );
        insta::assert_yaml_snapshot!(snapshot_name(p), summarize(&t));
    }
}

#[test]
fn sniffs_are_mutually_exclusive_on_real_files() {
    use std::io::Read;
    let mut all: Vec<PathBuf> = Vec::new();
    let mut stack = vec![PathBuf::from(REAL)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                all.push(p);
            }
        }
    }
    all.sort();
    assert!(
        all.len() >= 20,
        "real-data corpus missing? found {}",
        all.len()
    );
    for path in all {
        let mut head = Vec::new();
        std::fs::File::open(&path)
            .unwrap()
            .take(decode::SNIFF_BYTES as u64)
            .read_to_end(&mut head)
            .unwrap();
        let rel = path
            .strip_prefix(REAL)
            .unwrap()
            .to_string_lossy()
            .to_string();
        let expected = FILES.iter().find(|(p, _)| *p == rel).map(|(_, f)| *f);
        // Every decoder (decode-core's included): exactly one claims each transcript.
        let claims: Vec<&str> = decode::decoders()
            .into_iter()
            .filter(|d| d.sniff(&path, &head) > 0)
            .map(|d| d.format())
            .collect();
        match expected {
            Some(f) => assert_eq!(claims, vec![f], "{rel}"),
            None if rel.ends_with(".meta.json") => assert!(claims.is_empty(), "{rel}: {claims:?}"),
            None => {
                assert_eq!(claims.len(), 1, "{rel}: {claims:?}");
                assert!(
                    !MINE.contains(&claims[0]),
                    "{rel} is not ours but {claims:?} claim it"
                );
            }
        }
    }
}

#[test]
fn keep_content_fills_text_and_tool_io() {
    let opts = DecodeOptions { keep_content: true };
    let t = decode::decode_path(&real("openhands/wrong_initial_state.json"), None, &opts).unwrap();
    let user = t
        .events
        .iter()
        .find(|e| e.role == decode::Role::User)
        .unwrap();
    assert_eq!(
        user.content.as_ref().unwrap().text.as_deref(),
        Some("Please rename game_2048.py to 2048.py")
    );
    let mv = t
        .events
        .iter()
        .find(|e| matches!(e.action, Action::Shell(_)))
        .unwrap();
    let c = mv.content.as_ref().unwrap();
    assert_eq!(
        c.tool_input.as_ref().unwrap()["command"],
        "mv /workspace/game_2048.py /workspace/2048.py"
    );
}
