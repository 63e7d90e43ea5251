//! Escalation on a fail-closed verdict (seed 004: "block the ship, do NOT
//! silently proceed, and escalate to the operator"): the `escalate:` section
//! of the configuration (docs/config.md) names a command, run with the
//! verdict JSON on stdin, and/or GitHub reviewers, teams and labels asked of
//! the pull request through the GitHub API (the integration of
//! `skillgate github report`). Escalation never changes the exit code: its
//! failures are warnings on stderr, and the verdict still blocks.

use skillgate::config::Escalate;
use skillgate::release::github as gh;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Default time a command may run.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;

fn env(k: &str) -> Option<String> {
    std::env::var(k).ok().filter(|v| !v.trim().is_empty())
}

/// Escalate `verdict_json` (what the command prints on stdout) when `fail_closed`.
/// Returns one line per action taken or failed, already printed on stderr.
pub fn on_fail_closed(cfg: &Escalate, fail_closed: bool, verdict_json: &str) -> Vec<String> {
    if !fail_closed || cfg.is_empty() {
        return Vec::new();
    }
    let mut lines = Vec::new();
    if let Some(argv) = &cfg.command {
        lines.push(run_command(
            argv,
            verdict_json,
            Duration::from_secs(cfg.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS).max(1)),
        ));
    }
    if cfg.wants_github() {
        lines.extend(github(cfg));
    }
    for l in &lines {
        eprintln!("skillgate: escalate: {l}");
    }
    lines
}

fn run_command(argv: &[String], input: &str, timeout: Duration) -> String {
    let shown = argv.join(" ");
    // The command's own output goes to our stderr: stdout carries the verdict.
    let child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(std::io::stderr())
        .stderr(std::io::stderr())
        .env("SKILLGATE_ESCALATION", "fail-closed")
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return format!("warning: `{shown}` could not start: {e}"),
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A command that does not read its input closes the pipe: not an error.
        let _ = stdin.write_all(input.as_bytes());
    }
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return format!("ran `{shown}` (exit 0)"),
            Ok(Some(status)) => {
                return format!("warning: `{shown}` failed ({status}); the verdict still blocks")
            }
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return format!(
                    "warning: `{shown}` was killed after {} s; the verdict still blocks",
                    timeout.as_secs()
                );
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return format!("warning: `{shown}`: {e}"),
        }
    }
}

/// Request reviewers and add labels on the pull request of this run.
fn github(cfg: &Escalate) -> Vec<String> {
    let Some(token) = env("GITHUB_TOKEN") else {
        return vec![
            "warning: GITHUB_TOKEN is not set: no reviewer requested, no label added".into(),
        ];
    };
    let event = env("GITHUB_EVENT_PATH")
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
    let pr_flag = env("SKILLGATE_PR").and_then(|n| n.parse().ok());
    let flags = gh::Overrides {
        pr: pr_flag,
        ..gh::Overrides::default()
    };
    let ctx = match gh::context(&flags, &|k| env(k), event.as_ref()) {
        Ok(c) => c,
        Err(e) => {
            return vec![format!(
                "warning: {e}: no reviewer requested, no label added"
            )]
        }
    };
    let Some(pr) = ctx.pr else {
        return vec!["warning: no pull request in this run (GITHUB_EVENT_PATH, or SKILLGATE_PR=N): no reviewer requested, no label added".into()];
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return vec![format!("warning: cannot start the async runtime: {e}")],
    };
    rt.block_on(async {
        let mut out = Vec::new();
        let crab = match gh::client(&ctx.api_url, &token) {
            Ok(c) => c,
            Err(e) => return vec![format!("warning: {e}")],
        };
        let describe = |e: octocrab::Error| -> String {
            match &e {
                octocrab::Error::GitHub { source, .. } => {
                    format!("HTTP {}: {}", source.status_code.as_u16(), source.message)
                }
                _ => e.to_string().lines().next().unwrap_or("").to_string(),
            }
        };
        if !(cfg.reviewers.is_empty() && cfg.team_reviewers.is_empty()) {
            let route = format!(
                "/repos/{}/{}/pulls/{pr}/requested_reviewers",
                ctx.owner, ctx.repo
            );
            let body = serde_json::json!({"reviewers": cfg.reviewers, "team_reviewers": cfg.team_reviewers});
            match crab.post::<_, serde_json::Value>(route, Some(&body)).await {
                Ok(_) => out.push(format!(
                    "requested review from {} on pull request #{pr}",
                    cfg.reviewers
                        .iter()
                        .cloned()
                        .chain(cfg.team_reviewers.iter().map(|t| format!("team {t}")))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                Err(e) => out.push(format!("warning: requesting reviewers failed: {}", describe(e))),
            }
        }
        if !cfg.labels.is_empty() {
            let route = format!("/repos/{}/{}/issues/{pr}/labels", ctx.owner, ctx.repo);
            let body = serde_json::json!({"labels": cfg.labels});
            match crab.post::<_, serde_json::Value>(route, Some(&body)).await {
                Ok(_) => out.push(format!(
                    "added label(s) {} to pull request #{pr}",
                    cfg.labels.join(", ")
                )),
                Err(e) => out.push(format!("warning: adding labels failed: {}", describe(e))),
            }
        }
        out
    })
}
