//! `skillgate capture` round trip over the real corpus (issue #20): for every
//! session in ../shared/realdata/transcripts, `gate` over the actions-only
//! capture gives exactly the labels, evidence (trajectory, event index, line)
//! and verdict it gives over the raw file.
//!
//! Two gates run on each side:
//! - a probe skill with a lockfile whose constraints exercise every predicate
//!   kind (git, command, command_re, read/write/edit/delete/touch, fetch,
//!   skill, subagent, failed, user turns via `order`), loaded in every session
//!   by a `loaded_skills: [probe]` sidecar beside each raw file — so every
//!   event of every format is judged;
//! - the real skills of `skills-for-sessions/` over the eight real Claude Code
//!   sessions that loaded them, raw files WITHOUT a sidecar against captures
//!   (whose sidecar `capture` writes from what the transcript shows).
//!
//! The capture side is the gate's JSON with each capture's path replaced by
//! the raw file it came from (its header names it); everything else must be
//! byte-identical.

mod gate_common;

use gate_common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

const PROBE_RULES: &str = r#"  - id: no-force-push
    text: "You MUST NOT force-push."
    lines: [8, 8]
    modality: must-not
    scope: [shared-repo-state]
    forbid: {git: push, args: ["--force"]}
  - id: test-before-commit
    text: "Run the tests before committing."
    lines: [8, 8]
    modality: must
    when: {git: commit}
    require: {any: [{command: "cargo test*"}, {command: "npm test*"}, {command: "pytest*"}, {command_re: "\\bpytest\\b"}]}
    order: before
  - id: consent-before-delete
    text: "Never delete without the user's confirmation."
    lines: [8, 8]
    modality: must-not
    scope: [shared-repo-state]
    when: {any: [{delete: "**"}, {command: "rm *"}]}
    require: {user_turn: true}
    order: before-each
  - id: consent-before-push
    text: "Push only when the user asks."
    lines: [8, 8]
    modality: must
    scope: [shared-repo-state]
    when: {git: push}
    require: {user_turn: true}
    order: before-each
  - id: read-before-edit
    text: "Read a file before editing it."
    lines: [8, 8]
    modality: must
    when: {edit: "**"}
    require: {read: "**"}
    order: before
  - id: no-env-files
    text: "Never touch .env files."
    lines: [8, 8]
    modality: must-not
    scope: [sensitive-memory]
    forbid: {any: [{touch: "**/.env*"}, {read: "**/.env*"}]}
  - id: no-agent-config
    text: "Never modify agent settings."
    lines: [8, 8]
    modality: must-not
    scope: [self-modification]
    forbid: {touch: "**/.claude/**"}
  - id: fetch-https-only
    text: "Only fetch over https."
    lines: [8, 8]
    modality: must-not
    forbid: {fetch: "http://*"}
  - id: writes-are-checked
    text: "After writing a file, run a check."
    lines: [8, 8]
    modality: must
    when: {write: "**"}
    require: {any: [{tool: "Bash"}, {tool: "shell"}, {tool: "run_shell_command"}, {all: [{tool: "*"}, {failed: true}]}]}
    order: after
  - id: subagents-reviewed
    text: "Review what subagents did."
    lines: [8, 8]
    modality: must
    when: {subagent: "*"}
    manual: "Read from the conversation."
  - id: no-failed-pushes
    text: "Do not retry failed pushes blindly."
    lines: [8, 8]
    modality: must-not
    forbid: {all: [{git: push}, {failed: true}]}
  - id: other-skill
    text: "Use the brainstorming skill first."
    lines: [8, 8]
    modality: must
    when: {git: commit}
    require: {skill: "*brainstorming"}
    order: anywhere
"#;

/// Every file under `dir`, recursively.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn copy_tree(from: &Path, to: &Path) {
    let mut all = Vec::new();
    files(from, &mut all);
    for f in all {
        let dest = to.join(f.strip_prefix(from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&f, &dest).unwrap();
    }
}

/// The gate's JSON over `trajectories` (an array, one entry per skill).
fn gate(dir: &Path, skills: &Path, trajectories: &Path) -> (i32, Value) {
    let r = run_in(
        dir,
        &[
            "gate",
            skills.to_str().unwrap(),
            "--trajectories",
            trajectories.to_str().unwrap(),
            "--format",
            "json",
            "--no-report",
        ],
    );
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v = r.json();
    (
        r.code,
        if v.is_array() {
            v
        } else {
            Value::Array(vec![v])
        },
    )
}

/// Capture every session under `raw` into `into`; returns the capture → raw
/// path map (as the gate displays them, relative to `dir`).
fn capture_all(dir: &Path, raw: &Path, into: &Path, skill: &str) -> Vec<(String, String)> {
    let r = run_in(
        dir,
        &[
            "capture",
            "--skill",
            skill,
            "--into",
            into.to_str().unwrap(),
            "--format",
            "json",
            raw.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    let show = |p: &str| {
        Path::new(p)
            .strip_prefix(dir)
            .map(|x| x.display().to_string())
            .unwrap_or_else(|_| p.to_string())
    };
    let skipped = v["skipped"].as_array().unwrap();
    assert!(
        skipped.is_empty(),
        "sessions not captured: {}",
        serde_json::to_string_pretty(skipped).unwrap()
    );
    v["captured"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                show(c["target"].as_str().unwrap()),
                show(c["source"].as_str().unwrap()),
            )
        })
        .collect()
}

/// Replace capture paths by their raw paths, everywhere in the JSON.
fn map_paths(v: &mut Value, map: &[(String, String)]) {
    match v {
        Value::String(s) => {
            for (c, raw) in map {
                if s.contains(c.as_str()) {
                    *s = s.replace(c.as_str(), raw);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| map_paths(x, map)),
        Value::Object(o) => o.values_mut().for_each(|x| map_paths(x, map)),
        _ => {}
    }
}

/// Arrays of per-trajectory items sorted (discovery order differs between
/// the two trees: capture names start with the session's date).
fn sort_per_trajectory(v: &mut Value) {
    match v {
        Value::Array(a) => {
            a.iter_mut().for_each(sort_per_trajectory);
            if a.iter()
                .all(|x| x.get("trajectory").is_some() || x.get("path").is_some() || x.is_string())
            {
                a.sort_by_key(|x| x.to_string());
            }
        }
        Value::Object(o) => {
            // Prose that lists evidence in discovery order; the evidence
            // itself is compared.
            o.remove("hint");
            o.values_mut().for_each(sort_per_trajectory)
        }
        _ => {}
    }
}

/// Sorted trajectory lists (discovery order differs between the two trees).
fn normalise(v: &mut Value) {
    sort_per_trajectory(v);
    if let Some(skills) = v.as_array_mut() {
        for s in skills {
            if let Some(Value::Array(valid)) = s.pointer_mut("/trajectories/valid") {
                valid.sort_by_key(|x| x.to_string());
            }
            // A discard's wording names its evidence ("the sidecar does not
            // list it" vs "never loaded"): the set of discarded files must match.
            if let Some(Value::Array(disc)) = s.pointer_mut("/trajectories/discarded") {
                for x in disc.iter_mut() {
                    if let Some(o) = x.as_object_mut() {
                        o.remove("reason");
                    }
                }
                disc.sort_by_key(|x| x.to_string());
            }
            // A load's `format` names the file read (`skillgate-capture`);
            // where the load is (event, line) must match.
            if let Some(Value::Array(loads)) = s.pointer_mut("/trajectories/loads") {
                for x in loads.iter_mut() {
                    if let Some(o) = x.as_object_mut() {
                        o.remove("format");
                    }
                }
                loads.sort_by_key(|x| x.to_string());
            }
            if let Some(Value::Array(cs)) = s.get_mut("constraints") {
                for c in cs {
                    if let Some(Value::Array(ev)) = c.get_mut("evidence") {
                        ev.sort_by_key(|x| x.to_string());
                    }
                }
            }
        }
    }
}

/// The first difference between two JSON values, as a pointer.
fn first_diff(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                let (p, q) = (x.get(k), y.get(k));
                match (p, q) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_diff(p, q, format!("{at}/{k}")) {
                            return Some(d);
                        }
                    }
                    _ => return Some(format!("{at}/{k}: {p:?} vs {q:?}")),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at}: {} vs {} items", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| first_diff(p, q, format!("{at}/{i}")))
        }
        _ => (a != b).then(|| format!("{at}: {a} vs {b}")),
    }
}

fn assert_same(raw: &Value, cap: &Value) {
    if let Some(d) = first_diff(raw, cap, String::new()) {
        panic!("gate over the capture differs from the raw file at {d}");
    }
}

#[test]
fn gate_over_captures_equals_gate_over_raw_for_every_real_session() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir)
        .status()
        .unwrap();
    let raw = dir.join("raw");
    copy_tree(&repo().join("../shared/realdata/transcripts"), &raw);
    // Force the probe skill loaded in every session (sidecar beside each transcript).
    let found = skillgate::decode::discover::discover(&raw).unwrap();
    assert!(found.len() >= 25, "{} sessions", found.len());
    for f in &found {
        let side = skillgate::decode::retro::sidecar_path(f);
        std::fs::write(side, "loaded_skills: [probe]\n").unwrap();
    }
    write_skill(
        &dir.join("skills"),
        "probe",
        "You MUST NOT force-push.",
        Some(PROBE_RULES),
        false,
    );
    let into = dir.join("captures");
    let map = capture_all(dir, &raw, &into, "probe");
    assert_eq!(map.len(), found.len(), "one capture per session");

    let (code_raw, mut g_raw) = gate(dir, Path::new("skills/probe"), Path::new("raw"));
    let (code_cap, mut g_cap) = gate(dir, Path::new("skills/probe"), Path::new("captures"));
    map_paths(&mut g_cap, &map);
    normalise(&mut g_raw);
    normalise(&mut g_cap);
    assert_eq!(code_raw, code_cap);
    let valid = g_raw[0]["trajectories"]["valid"].as_array().unwrap().len();
    assert_eq!(valid, found.len(), "every raw session judged");
    // The probe really judged events: some constraint fired with evidence lines.
    let evidence: usize = g_raw[0]["constraints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["evidence"].as_array().map_or(0, |e| e.len()))
        .sum();
    assert!(evidence >= 20, "only {evidence} evidence items");
    assert_same(&g_raw, &g_cap);
}

#[test]
fn real_skills_over_their_real_sessions_judge_the_same_after_capture() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir)
        .status()
        .unwrap();
    let raw = dir.join("raw");
    copy_tree(
        &repo().join("../shared/realdata/transcripts/claude-code-skill-loads"),
        &raw,
    );
    let skills = repo().join("../shared/realdata/skills-for-sessions");
    let names = [
        "brainstorming",
        "writing-plans",
        "systematic-debugging",
        "requesting-code-review",
        "receiving-code-review",
        "subagent-driven-development",
    ];
    let into = dir.join("captures");
    let mut map = Vec::new();
    let mut captured = std::collections::HashSet::new();
    for name in names {
        let r = run_in(
            dir,
            &[
                "capture",
                "--skill",
                name,
                "--into",
                into.to_str().unwrap(),
                "--format",
                "json",
                raw.to_str().unwrap(),
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        for c in r.json()["captured"].as_array().unwrap() {
            let t = c["target"].as_str().unwrap();
            let s = c["source"].as_str().unwrap();
            let rel = |p: &str| {
                Path::new(p)
                    .strip_prefix(dir)
                    .unwrap()
                    .display()
                    .to_string()
            };
            map.push((rel(t), rel(s)));
            captured.insert(s.to_string());
        }
    }
    // every real session loaded one of these skills
    assert_eq!(captured.len(), 8, "{captured:?}");
    let (code_raw, mut g_raw) = gate(dir, &skills, Path::new("raw"));
    let (code_cap, mut g_cap) = gate(dir, &skills, Path::new("captures"));
    map_paths(&mut g_cap, &map);
    normalise(&mut g_raw);
    normalise(&mut g_cap);
    assert_eq!(code_raw, code_cap);
    let judged: usize = g_raw
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["trajectories"]["valid"].as_array().unwrap().len())
        .sum();
    assert!(judged >= 8, "{judged}");
    // The loads' `weak` flag and the sidecar `via` may differ (a capture's
    // sidecar lists the loaded skills); labels, evidence and verdicts may not.
    strip_load_notes(&mut g_raw);
    strip_load_notes(&mut g_cap);
    assert_same(&g_raw, &g_cap);
}

/// Drop what a sidecar legitimately changes: nothing today (kept as the one
/// place to say so if a field is ever added).
fn strip_load_notes(_v: &mut Value) {}
