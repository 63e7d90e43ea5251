//! No trajectory content anywhere (SPEC §7): distinct canary strings are
//! planted in user messages, assistant text, thinking blocks, the injected
//! skill body, non-path tool-input fields (a Bash `description`, a Codex
//! `justification`, a written file's content) and tool outputs, in Claude Code
//! and Codex trajectories. Every output format (md, json, sarif, github with
//! its step summary, junit), the proposals and the report writer run over
//! them; no canary may reach stdout, stderr or any written file.

mod gate_common;

use gate_common::*;
use std::path::Path;

const CANARIES: [&str; 8] = [
    "CANARY-USER-7f3a",
    "CANARY-ASSISTANT-91bc",
    "CANARY-THINKING-44d0",
    "CANARY-SKILLBODY-0e12",
    "CANARY-INPUT-5a77",
    "CANARY-CONTENT-c3f9",
    "CANARY-OUTPUT-8812",
    "CANARY-FAILED-OUTPUT-2b6e",
];

fn plant(fmt: Fmt, path: &Path, truncated: bool) {
    let mut t = Tx::new(fmt);
    t.user(&format!("Please push. {}", CANARIES[0]));
    t.load_skill("canary", &format!("Skill body {}", CANARIES[3]));
    t.think(&format!("Thinking {}", CANARIES[2]));
    t.say(&format!("I will push. {}", CANARIES[1]));
    t.shell(
        "git status",
        &format!("On branch main {}", CANARIES[6]),
        false,
        Some(CANARIES[4]),
    );
    t.write_file("notes/out.txt", CANARIES[5]);
    t.shell(
        "git push --force origin main",
        &format!("rejected {}", CANARIES[7]),
        true,
        Some(CANARIES[4]),
    );
    t.shell("git merge feature", CANARIES[6], false, None);
    t.garbage();
    if truncated {
        t.torn();
    } else {
        t.end(&format!("Done. {}", CANARIES[1]));
    }
    t.write(path);
}

const RULES: &str = "  - id: no-force-push\n    text: \"You MUST NOT force-push.\"\n    lines: [8, 8]\n    modality: must-not\n    scope: [shared-repo-state]\n    forbid: {git: push, args: [\"--force\"]}\n  - id: offer-options\n    text: \"Offer the merge options.\"\n    lines: [8, 8]\n    modality: must\n    scope: [shared-repo-state]\n    when: {git: merge}\n  - id: review-merge\n    text: \"Offer the merge options.\"\n    lines: [8, 8]\n    modality: must\n    when: {git: merge}\n    manual: \"Checked by reviewers.\"\n  - id: notes\n    text: \"Write notes.\"\n    lines: [8, 8]\n    modality: must\n    when: {write: \"notes/**\"}\n    require: {command: \"git add*\"}\n  - id: no-secrets\n    text: \"Never print secrets.\"\n    lines: [8, 8]\n    modality: must-not\n    scope: [sensitive-memory]\n";

fn all_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn no_canary_reaches_any_output() {
    let d = tempfile::tempdir().unwrap();
    write_skill(
        &d.path().join("skills"),
        "canary",
        "You MUST NOT force-push. Offer the merge options.",
        Some(RULES),
        false,
    );
    plant(Fmt::Claude, &d.path().join("runs/claude.jsonl"), false);
    plant(Fmt::Codex, &d.path().join("runs/codex.jsonl"), false);
    plant(Fmt::Claude, &d.path().join("runs/claude-torn.jsonl"), true);
    plant(Fmt::Codex, &d.path().join("runs/codex-torn.jsonl"), true);
    let before: usize = {
        let mut v = Vec::new();
        all_files(d.path(), &mut v);
        v.len()
    };
    let mut outputs = Vec::new();
    let summary = d.path().join("step-summary.md");
    let summary_env = summary.to_str().unwrap().to_string();
    for format in ["md", "json", "sarif", "github", "junit"] {
        for verbose in [None, Some("-vv")] {
            let mut args = vec![
                "gate",
                "skills/canary",
                "--trajectories",
                "runs",
                "--format",
                format,
                "--report-dir",
                "reports",
                "--proposals",
                "patches",
            ];
            if let Some(v) = verbose {
                args.push(v);
            }
            let r = run_env(d.path(), &args, &[("GITHUB_STEP_SUMMARY", &summary_env)]);
            assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
            outputs.push((format!("stdout {format} {verbose:?}"), r.stdout));
            outputs.push((format!("stderr {format} {verbose:?}"), r.stderr));
        }
        // Each named file too (a user-named file goes through another path).
        let r = run_in(
            d.path(),
            &[
                "gate",
                "skills/canary",
                "--trajectories",
                "runs/codex.jsonl",
                "--trajectories",
                "runs/claude.jsonl",
                "--format",
                format,
                "--no-report",
            ],
        );
        outputs.push((format!("stdout named {format}"), r.stdout));
        outputs.push((format!("stderr named {format}"), r.stderr));
    }
    let mut files = Vec::new();
    all_files(d.path(), &mut files);
    let reports = files
        .iter()
        .filter(|p| p.starts_with(d.path().join("reports")))
        .count();
    assert_eq!(reports, 10, "one report per run");
    let written: Vec<_> = files
        .iter()
        .filter(|p| !p.starts_with(d.path().join("runs")))
        .collect();
    assert!(
        written
            .iter()
            .any(|p| p.starts_with(d.path().join("patches"))),
        "{written:?}"
    );
    assert!(written.contains(&&summary), "{written:?}");
    assert!(files.len() > before);
    for p in written {
        outputs.push((p.display().to_string(), std::fs::read_to_string(p).unwrap()));
    }
    // The outputs do cite the trajectories (so the check is not vacuous).
    let json = &outputs
        .iter()
        .find(|(w, _)| w == "stdout json None")
        .unwrap()
        .1;
    assert!(
        json.contains("runs/codex.jsonl") && json.contains("runs/claude.jsonl"),
        "{json}"
    );
    assert!(json.contains("\"forbid-matched\""), "{json}");
    for (what, text) in &outputs {
        for c in CANARIES {
            assert!(!text.contains(c), "{c} leaked into {what}:\n{text}");
        }
    }
}
