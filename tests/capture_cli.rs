//! `skillgate capture` end to end (issue #20): no content survives an
//! actions-only capture, secrets in commands are redacted and counted,
//! sessions are found in a harness's default folder by repository, captures
//! are idempotent, `--full` warns, and the agent hooks install, stay single
//! and uninstall exactly — all on a temporary HOME.

mod gate_common;

use gate_common::*;
use std::path::{Path, PathBuf};

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

/// A session with a canary in every content field (as gate_canary plants
/// them), a secret in a command, run in `cwd`.
fn session(fmt: Fmt, cwd: &str, secret: &str) -> String {
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
        &format!("mysql -uroot -p{secret} app -e 'select 1'"),
        "ok",
        false,
        None,
    );
    t.shell(
        &format!("cat > notes/body.md <<'EOF'\n{}\nEOF", CANARIES[5]),
        "",
        false,
        None,
    );
    t.shell(
        "git push --force origin main",
        &format!("rejected {}", CANARIES[7]),
        true,
        Some(CANARIES[4]),
    );
    t.end(&format!("Done. {}", CANARIES[1]));
    t.text().replace(CWD, cwd)
}

fn secret() -> String {
    format!("Pw{}", "k3Xq9".repeat(3))
}

/// A git repository holding skills/canary/SKILL.md.
fn repo_with_skill() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(d.path())
        .status()
        .unwrap();
    write_skill(
        &d.path().join("skills"),
        "canary",
        "You MUST NOT force-push.",
        None,
        false,
    );
    d
}

fn all_text(dir: &Path) -> String {
    let mut out = String::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push_str(&String::from_utf8_lossy(&std::fs::read(&p).unwrap()));
            }
        }
    }
    out
}

fn capture_files(patterns: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Ok(rd) = std::fs::read_dir(patterns) {
        for d in rd {
            for f in std::fs::read_dir(d.unwrap().path()).unwrap() {
                let p = f.unwrap().path();
                if !p.to_string_lossy().ends_with(".retro.yaml") {
                    v.push(p);
                }
            }
        }
    }
    v.sort();
    v
}

#[test]
fn no_canary_survives_an_actions_only_capture_and_secrets_are_counted() {
    let d = repo_with_skill();
    let cwd = d.path().to_str().unwrap().to_string();
    let raw = d.path().join("raw");
    std::fs::create_dir_all(&raw).unwrap();
    std::fs::write(
        raw.join("claude.jsonl"),
        session(Fmt::Claude, &cwd, &secret()),
    )
    .unwrap();
    std::fs::write(
        raw.join("codex.jsonl"),
        session(Fmt::Codex, &cwd, &secret()),
    )
    .unwrap();
    // The raw files do carry every canary and the secret.
    let raw_text = all_text(&raw);
    for c in CANARIES {
        assert!(raw_text.contains(c), "{c} not planted");
    }
    let r = run_in(d.path(), &["capture", "--skill", "canary", "raw"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let patterns = d.path().join(".planning/patterns");
    let files = capture_files(&patterns);
    assert_eq!(files.len(), 2, "{}", r.stdout);
    let out = all_text(&patterns) + &r.stdout + &r.stderr;
    for c in CANARIES {
        assert!(!out.contains(c), "{c} survived the capture");
    }
    assert!(!out.contains(&secret()), "the secret survived");
    assert!(out.contains("[REDACTED:mysql-password]"), "{out}");
    assert!(r.stdout.contains("2 captured"), "{}", r.stdout);
    assert!(r.stdout.contains("2 secrets redacted"), "{}", r.stdout);
    // Each capture has its sidecar and reads back as the capture format.
    for f in &files {
        let side = format!("{}.retro.yaml", f.display());
        let s = std::fs::read_to_string(&side).unwrap();
        assert!(s.contains("loaded_skills:") && s.contains("canary"), "{s}");
        assert!(
            s.contains("harness:") && s.contains("complete: true"),
            "{s}"
        );
        let t = run_in(
            d.path(),
            &["trajectory", f.to_str().unwrap(), "--format", "json"],
        );
        assert_eq!(t.code, 0, "{}", t.stderr);
        assert!(t.stdout.contains("skillgate-capture"), "{}", t.stdout);
    }
    // The gate judges the capture: the force-push is a violation.
    let g = run_in(
        d.path(),
        &["gate", "skills/canary", "--format", "json", "--no-report"],
    );
    assert_eq!(g.code, 1, "{}\n{}", g.stdout, g.stderr);
}

#[test]
fn sessions_are_found_by_repository_and_captured_once() {
    let d = repo_with_skill();
    let home = tempfile::tempdir().unwrap();
    let repo = d.path().canonicalize().unwrap();
    let cwd = repo.to_str().unwrap();
    let mangled: String = cwd
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let projects = home.path().join(".claude/projects");
    let mine = projects.join(&mangled);
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(
        mine.join("5e55a7e1-0000-4000-8000-000000000001.jsonl"),
        session(Fmt::Claude, cwd, &secret()),
    )
    .unwrap();
    // another project's session (same shape, other cwd) is never taken
    let other = projects.join("-elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(
        other.join("other.jsonl"),
        session(Fmt::Claude, "/elsewhere", &secret()).replace("5e55a7e1", "0ddba11e"),
    )
    .unwrap();
    let home_s = home.path().to_str().unwrap();
    let env = [("HOME", home_s)];
    let r = run_env(&repo, &["capture"], &env);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("1 captured"), "{}", r.stdout);
    let files = capture_files(&repo.join(".planning/patterns"));
    assert_eq!(files.len(), 1);
    let name = files[0].file_name().unwrap().to_str().unwrap().to_string();
    assert_eq!(
        name,
        "2026-01-02-5e55a7e1-0000-4000-8000-000000000001.jsonl"
    );
    assert!(files[0].parent().unwrap().ends_with("canary"));
    let first = std::fs::read(&files[0]).unwrap();
    // again: nothing new, nothing rewritten
    let r = run_env(&repo, &["capture"], &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("0 captured, 1 skipped (1 already captured"),
        "{}",
        r.stdout
    );
    assert_eq!(std::fs::read(&files[0]).unwrap(), first);
    // --session and --last name the same session
    let r = run_env(
        &repo,
        &[
            "capture",
            "--session",
            "5e55a7e1-0000-4000-8000-000000000001",
            "--dry-run",
        ],
        &env,
    );
    assert!(r.stdout.contains("already captured"), "{}", r.stdout);
    let r = run_env(&repo, &["capture", "--session", "nope"], &env);
    assert_eq!(r.code, 2, "{}", r.stdout);
    // the session went on: the capture is refreshed in place
    let grown = session(Fmt::Claude, cwd, &secret())
        + &{
            let mut t = Tx::new(Fmt::Claude);
            t.shell("git status", "", false, None);
            t.text().replace(CWD, cwd)
        };
    std::fs::write(
        mine.join("5e55a7e1-0000-4000-8000-000000000001.jsonl"),
        grown,
    )
    .unwrap();
    let r = run_env(&repo, &["capture", "--last", "1"], &env);
    assert!(r.stdout.contains("re-captured"), "{}", r.stdout);
    assert_ne!(std::fs::read(&files[0]).unwrap(), first);
    assert_eq!(capture_files(&repo.join(".planning/patterns")).len(), 1);
}

#[test]
fn full_capture_warns_keeps_the_format_and_redacts() {
    let d = repo_with_skill();
    let cwd = d.path().to_str().unwrap().to_string();
    std::fs::write(
        d.path().join("s.jsonl"),
        session(Fmt::Claude, &cwd, &secret()),
    )
    .unwrap();
    let r = run_in(
        d.path(),
        &["capture", "--skill", "canary", "--full", "s.jsonl"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("warning: --full keeps the whole transcript"),
        "{}",
        r.stderr
    );
    let files = capture_files(&d.path().join(".planning/patterns"));
    assert_eq!(files.len(), 1);
    assert!(files[0].to_str().unwrap().ends_with(".full.jsonl"));
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains(CANARIES[0]), "full keeps content");
    assert!(!text.contains(&secret()));
    assert_eq!(
        text.lines().count(),
        session(Fmt::Claude, &cwd, &secret()).lines().count()
    );
    let g = run_in(
        d.path(),
        &["gate", "skills/canary", "--format", "json", "--no-report"],
    );
    assert_eq!(g.code, 1, "{}", g.stderr);
}

const SETTINGS: &str = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"say done\"\n          }\n        ]\n      }\n    ]\n  }\n}\n";

#[test]
fn claude_hook_installs_once_and_uninstalls_exactly() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path().to_str().unwrap();
    let settings = home.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, SETTINGS).unwrap();
    let env = [("HOME", h)];
    // no --yes and no terminal: shown, not applied
    let r = run_env(home.path(), &["capture", "--install-hook", "claude"], &env);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stdout.contains("+") && r.stdout.contains("skillgate capture --hook-input claude"),
        "{}",
        r.stdout
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), SETTINGS);
    let r = run_env(
        home.path(),
        &["capture", "--install-hook", "claude", "--yes"],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let after = std::fs::read_to_string(&settings).unwrap();
    let v: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(
        v["hooks"]["SessionEnd"][0]["hooks"][0]["command"],
        "skillgate capture --hook-input claude"
    );
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "say done");
    assert_eq!(v["model"], "opus");
    // idempotent
    let r = run_env(
        home.path(),
        &["capture", "--install-hook", "claude", "--yes"],
        &env,
    );
    assert!(r.stdout.contains("already installed"), "{}", r.stdout);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), after);
    // uninstall restores the file byte for byte
    let r = run_env(
        home.path(),
        &["capture", "--uninstall-hook", "claude", "--yes"],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), SETTINGS);
    // from no file at all, and back to none
    std::fs::remove_file(&settings).unwrap();
    run_env(
        home.path(),
        &["capture", "--install-hook", "claude", "--yes"],
        &env,
    );
    assert!(settings.exists());
    run_env(
        home.path(),
        &["capture", "--uninstall-hook", "claude", "--yes"],
        &env,
    );
    assert!(!settings.exists());
}

#[test]
fn codex_notify_installs_and_uninstalls() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path().to_str().unwrap();
    let config = home.path().join(".codex/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    let before = "model = \"gpt-5.1-codex\"\n\n[mcp_servers.x]\ncommand = \"x\"\n";
    std::fs::write(&config, before).unwrap();
    let env = [("HOME", h)];
    let r = run_env(
        home.path(),
        &["capture", "--install-hook", "codex", "--yes"],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let after = std::fs::read_to_string(&config).unwrap();
    assert!(after.contains("notify = [\"skillgate\", \"capture\", \"--hook-input\", \"codex\"]"));
    let r = run_env(
        home.path(),
        &["capture", "--uninstall-hook", "codex", "--yes"],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), before);
    // a user's own notify program is never replaced
    std::fs::write(&config, "notify = [\"notify-send\", \"codex\"]\n").unwrap();
    let r = run_env(
        home.path(),
        &["capture", "--install-hook", "codex", "--yes"],
        &env,
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("allows only one"), "{}", r.stderr);
}

#[test]
fn the_claude_hook_input_captures_the_ended_session() {
    let d = repo_with_skill();
    let cwd = d.path().canonicalize().unwrap();
    let t = cwd.join("t.jsonl");
    std::fs::write(&t, session(Fmt::Claude, cwd.to_str().unwrap(), &secret())).unwrap();
    let input = serde_json::json!({
        "session_id": "5e55a7e1-0000-4000-8000-000000000001",
        "transcript_path": t, "cwd": cwd, "hook_event_name": "SessionEnd", "reason": "exit"
    });
    let mut cmd = assert_cmd::Command::cargo_bin("skillgate").unwrap();
    let out = cmd
        .current_dir("/")
        .args(["capture", "--hook-input", "claude"])
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(capture_files(&cwd.join(".planning/patterns")).len(), 1);
    // garbage on stdin never fails the agent's session end
    let mut cmd = assert_cmd::Command::cargo_bin("skillgate").unwrap();
    let out = cmd
        .args(["capture", "--hook-input", "claude"])
        .write_stdin("not json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not JSON"));
}

#[test]
fn commit_commits_the_captures_and_nothing_else() {
    let d = repo_with_skill();
    let dir = d.path();
    let git = |args: &[&str]| {
        let o = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    git(&["config", "user.name", "t"]);
    git(&["config", "user.email", "t@example.invalid"]);
    let cwd = dir.to_str().unwrap().to_string();
    std::fs::write(dir.join("s.jsonl"), session(Fmt::Claude, &cwd, &secret())).unwrap();
    let r = run_in(
        dir,
        &["capture", "--skill", "canary", "--commit", "s.jsonl"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("committed 1 capture as "), "{}", r.stdout);
    let files = git(&["show", "--name-only", "--format=%s", "HEAD"]);
    let lines: Vec<&str> = files.lines().filter(|l| !l.is_empty()).collect();
    assert!(
        lines[0].starts_with(
            "skillgate capture: 1 session of canary (actions only, 1 secret redacted)"
        ),
        "{files}"
    );
    assert_eq!(lines.len(), 3, "{files}");
    assert!(
        lines[1].starts_with(".planning/patterns/canary/2026-01-02-"),
        "{files}"
    );
    assert!(lines[2].ends_with(".jsonl.retro.yaml"), "{files}");
    // the SKILL.md and the raw transcript stay untracked
    let status = git(&["status", "--porcelain"]);
    assert!(
        status.contains("?? s.jsonl") && status.contains("?? skills/"),
        "{status}"
    );
    assert!(!status.contains(".planning"), "{status}");
}
