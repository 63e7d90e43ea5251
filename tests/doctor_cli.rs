//! `skillgate doctor` through the binary: input resolution (file, folder,
//! default session folders, overrides), the report folder (default name,
//! atomic write, existing folder), every failure class of seed 000 and its
//! exit code, redaction and escaping in the written report.html.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::json;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

fn realdata(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/realdata/transcripts")
        .join(rel)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/doctor")
        .join(name)
}

const CLAUDE: &str = "claude-code/sniffly__ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl";
const CODEX: &str =
    "codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl";

/// The binary with a clean environment for session lookup.
fn doctor(cwd: &Path, home: &Path) -> Command {
    let mut c = Command::cargo_bin("skillgate").unwrap();
    c.current_dir(cwd)
        .env("HOME", home)
        .env_remove("SKILLGATE_SESSIONS_ROOTS")
        .arg("doctor");
    c
}

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn set_mtime(p: &Path, secs_ago: u64) {
    let f = fs::File::options().write(true).open(p).unwrap();
    f.set_modified(SystemTime::now() - Duration::from_secs(secs_ago))
        .unwrap();
}

#[test]
fn a_real_claude_session_writes_a_scored_report() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report");
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CLAUDE))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(format!(
            "Efficiency 7/10, code quality 8/10; 3 finding(s); report written to {}/report.html\n",
            out.display()
        ));
    let page = fs::read_to_string(out.join("report.html")).unwrap();
    for needle in [
        "<h1>Skill Doctor Report</h1>",
        "<code>ba79134d-b6e9-4867-af0c-6941038c9e4b</code>",
        "id=\"score-summary\"",
        "<span class=\"total\">7/10</span>",
        "<span class=\"total\">8/10</span>",
        "id=\"finding-unnecessary-exploration\"",
        "<li class=\"suggestion\"><span class=\"gain\">+3</span>",
        "Turn 5 · line 5",
    ] {
        assert!(page.contains(needle), "missing {needle}");
    }
    // The folder holds report.html only; no temporary sibling is left.
    assert_eq!(listing(&out), vec!["report.html"]);
    assert_eq!(listing(tmp.path()), vec!["report"]);
}

#[test]
fn the_codex_rollout_writes_a_scored_report() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CODEX))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(
            "Efficiency 5/10, code quality 8/10; 5 finding(s); report written to ",
        ));
    let page = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("codex (codex-rollout)"));
    assert!(page.contains("the session ends without a final answer"));
}

#[test]
fn the_default_output_folder_is_timestamped_in_the_working_directory() {
    let tmp = tempfile::tempdir().unwrap();
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CLAUDE))
        .assert()
        .code(0);
    let names = listing(tmp.path());
    assert_eq!(names.len(), 1, "{names:?}");
    let re = regex::Regex::new(r"^skill-doctor-report-\d{8}T\d{6}Z$").unwrap();
    assert!(re.is_match(&names[0]), "{}", names[0]);
    assert_eq!(listing(&tmp.path().join(&names[0])), vec!["report.html"]);
}

#[test]
fn no_input_and_no_sessions_is_no_history() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    doctor(tmp.path(), tmp.path())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3)
        .stdout(predicate::str::starts_with(
            "No conversation history found: report written to",
        ));
    let page = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("<h2>No conversation history found</h2>"));
    for root in [".claude/projects", ".codex/sessions", ".gemini/tmp"] {
        assert!(
            page.contains(&format!("{}/{root}", tmp.path().display())),
            "{root} not listed"
        );
    }
    assert!(!page.contains("id=\"score-summary\""));
}

#[test]
fn harness_restricts_the_default_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    doctor(tmp.path(), tmp.path())
        .args(["--harness", "codex", "--out"])
        .arg(&out)
        .assert()
        .code(3);
    let page = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains(".codex/sessions"));
    assert!(!page.contains(".claude/projects"));
}

#[test]
fn no_input_picks_the_most_recent_session_under_home() {
    let home = tempfile::tempdir().unwrap();
    let project = home.path().join(".claude/projects/-home-dev-app");
    fs::create_dir_all(project.join("old-session/subagents")).unwrap();
    let older = project.join("11111111-1111-4111-8111-111111111111.jsonl");
    let newer = home
        .path()
        .join(".codex/sessions/2025/11/17/rollout-a.jsonl");
    fs::create_dir_all(newer.parent().unwrap()).unwrap();
    fs::copy(realdata(CLAUDE), &older).unwrap();
    fs::copy(realdata(CODEX), &newer).unwrap();
    // A subagent file is newest of all but never picked.
    let sub = project.join("old-session/subagents/agent-x.jsonl");
    fs::copy(realdata(CLAUDE), &sub).unwrap();
    set_mtime(&older, 3600);
    set_mtime(&newer, 60);
    set_mtime(&sub, 0);
    let cwd = tempfile::tempdir().unwrap();
    let out = cwd.path().join("r");
    doctor(cwd.path(), home.path())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Efficiency 5/10"));
    assert!(fs::read_to_string(out.join("report.html"))
        .unwrap()
        .contains("rollout-a.jsonl"));
    // --harness claude looks at ~/.claude/projects only.
    let out2 = cwd.path().join("r2");
    doctor(cwd.path(), home.path())
        .args(["--harness", "claude", "--out"])
        .arg(&out2)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Efficiency 7/10"));
}

#[test]
fn sessions_root_flag_and_environment_override_the_defaults() {
    let root = tempfile::tempdir().unwrap();
    let a = root.path().join("a.jsonl");
    let b = root.path().join("nested/b.jsonl");
    fs::create_dir_all(b.parent().unwrap()).unwrap();
    fs::copy(realdata(CLAUDE), &a).unwrap();
    fs::copy(realdata(CODEX), &b).unwrap();
    set_mtime(&a, 10);
    set_mtime(&b, 500);
    let cwd = tempfile::tempdir().unwrap();
    doctor(cwd.path(), cwd.path())
        .arg("--sessions-root")
        .arg(root.path())
        .arg("--out")
        .arg(cwd.path().join("r1"))
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Efficiency 7/10"));
    doctor(cwd.path(), cwd.path())
        .env("SKILLGATE_SESSIONS_ROOTS", root.path().join("nested"))
        .arg("--out")
        .arg(cwd.path().join("r2"))
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Efficiency 5/10"));
}

#[test]
fn a_directory_input_uses_its_most_recent_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    fs::copy(realdata(CLAUDE), &a).unwrap();
    fs::copy(realdata(CODEX), &b).unwrap();
    set_mtime(&a, 100);
    set_mtime(&b, 5);
    let cwd = tempfile::tempdir().unwrap();
    doctor(cwd.path(), cwd.path())
        .arg(dir.path())
        .arg("--out")
        .arg(cwd.path().join("r"))
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Efficiency 5/10"));
    // An empty folder: no history.
    let empty = tempfile::tempdir().unwrap();
    doctor(cwd.path(), cwd.path())
        .arg(empty.path())
        .arg("--out")
        .arg(cwd.path().join("r2"))
        .assert()
        .code(3)
        .stdout(predicate::str::starts_with("No conversation history found"));
}

#[test]
fn a_missing_path_is_no_history() {
    let tmp = tempfile::tempdir().unwrap();
    doctor(tmp.path(), tmp.path())
        .arg(tmp.path().join("nope.jsonl"))
        .arg("--out")
        .arg(tmp.path().join("r"))
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "nope.jsonl: no such file or folder",
        ));
    let page = fs::read_to_string(tmp.path().join("r/report.html")).unwrap();
    assert!(page.contains("No conversation history found"));
    assert!(page.contains("nope.jsonl"));
}

#[test]
fn an_empty_or_one_turn_session_is_too_short() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty.jsonl");
    fs::write(&empty, "\n\n").unwrap();
    doctor(tmp.path(), tmp.path())
        .arg(&empty)
        .arg("--out")
        .arg(tmp.path().join("r"))
        .assert()
        .code(3)
        .stdout(predicate::str::starts_with("Session too short to assess"));
    assert!(fs::read_to_string(tmp.path().join("r/report.html"))
        .unwrap()
        .contains("<h2>Session too short to assess</h2>"));
    // A real Claude Code file holding only a summary record.
    doctor(tmp.path(), tmp.path())
        .arg(realdata(
            "claude-code/sniffly__ff71dbed-a4f2-4284-a4fc-fe2fb90de929.jsonl",
        ))
        .arg("--out")
        .arg(tmp.path().join("r2"))
        .assert()
        .code(3)
        .stdout(predicate::str::starts_with("Session too short to assess"));
}

#[test]
fn a_plain_text_log_is_scored() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    doctor(tmp.path(), tmp.path())
        .arg(fixture("plain-text-log.txt"))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Efficiency "))
        .stderr(predicate::str::contains(
            "scored as a plain-text log (5 turn(s) split by role markers",
        ));
    let page = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(!page.contains("<h2>Parsing error</h2>"));
    assert!(page.contains("plain-text (role markers)"));
    // The failed `cargo build` of the `Tool:` turn is a tool call the rubric reads.
    assert!(page.contains("turn 3"), "the failed tool turn is cited");
    assert!(!page.contains("<script>alert(1)</script>"));
}

#[test]
fn an_unrecognised_file_gets_a_parsing_error_report_with_partial_turns() {
    let tmp = tempfile::tempdir().unwrap();
    // No marker at all: the note says so and the list is empty.
    let out2 = tmp.path().join("r2");
    doctor(tmp.path(), tmp.path())
        .arg(fixture("unrecognised.txt"))
        .arg("--out")
        .arg(&out2)
        .assert()
        .code(2);
    let page = fs::read_to_string(out2.join("report.html")).unwrap();
    assert!(page.contains("No turn could be recovered from plain-text role markers"));
    // --harness names a harness the file is not from.
    let out3 = tmp.path().join("r3");
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CLAUDE))
        .args(["--harness", "codex", "--out"])
        .arg(&out3)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "not a codex transcript (it looks like claude-code-jsonl)",
        ));
}

#[test]
fn a_corrupt_record_mid_file_gives_a_parsing_error_report_with_the_decoded_turns() {
    let tmp = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(fixture("claude-script-injection.jsonl")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[5] = "{\"type\": \"assistant\", \"message\": {not json";
    let session = tmp.path().join("corrupt.jsonl");
    fs::write(&session, lines.join("\n") + "\n").unwrap();
    let out = tmp.path().join("r");
    doctor(tmp.path(), tmp.path())
        .arg(&session)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "1 record(s) could not be decoded (line 6); scores are N/A",
        ));
    let page = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        page.contains("could not be decoded (line 6)"),
        "no line cited"
    );
    assert!(page.contains("id=\"turns\""));
    assert_eq!(page.matches("<strong>N/A</strong>").count(), 2);
}

#[test]
fn a_write_failure_exits_nonzero_and_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    fs::write(&file, "keep me").unwrap();
    let before = listing(tmp.path());
    // The output folder's parent is a regular file: nothing can be created.
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CLAUDE))
        .arg("--out")
        .arg(file.join("sub/report-dir"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("cannot write the report to")
                .and(predicate::str::contains("nothing was left behind")),
        );
    assert_eq!(listing(tmp.path()), before);
    // The output path is an existing regular file: the report is written to a
    // temporary sibling folder whose rename fails, and that folder is removed.
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CLAUDE))
        .arg("--out")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot write the report to"));
    assert_eq!(listing(tmp.path()), before);
    assert_eq!(fs::read_to_string(&file).unwrap(), "keep me");
    // Minimal reports fail the same way.
    doctor(tmp.path(), tmp.path())
        .arg(tmp.path().join("missing.jsonl"))
        .arg("--out")
        .arg(file.join("x"))
        .assert()
        .code(2);
    assert_eq!(listing(tmp.path()), before);
}

#[test]
fn an_existing_output_folder_gets_report_html_replaced_atomically() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("existing");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("notes.txt"), "mine").unwrap();
    fs::write(out.join("report.html"), "old").unwrap();
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CLAUDE))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    assert_eq!(listing(&out), vec!["notes.txt", "report.html"]);
    assert!(fs::read_to_string(out.join("report.html"))
        .unwrap()
        .starts_with("<!DOCTYPE html>"));
    // Missing parents are created.
    let deep = tmp.path().join("a/b/c");
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CLAUDE))
        .arg("--out")
        .arg(&deep)
        .assert()
        .code(0);
    assert!(deep.join("report.html").is_file());
}

#[test]
fn no_excerpts_keeps_session_text_out_of_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let with = tmp.path().join("with");
    let without = tmp.path().join("without");
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CODEX))
        .arg("--out")
        .arg(&with)
        .assert()
        .code(0);
    doctor(tmp.path(), tmp.path())
        .arg(realdata(CODEX))
        .arg("--no-excerpts")
        .arg("--out")
        .arg(&without)
        .assert()
        .code(0);
    let a = fs::read_to_string(with.join("report.html")).unwrap();
    let b = fs::read_to_string(without.join("report.html")).unwrap();
    // Commands of the session appear as excerpts only with excerpts on.
    assert!(a.contains("sed -n"));
    assert!(!b.contains("sed -n"));
    assert!(!b.contains("class=\"excerpt\""));
    assert!(b.contains("Excerpts were turned off (--no-excerpts)"));
}

#[test]
fn markup_in_the_session_renders_as_text() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    doctor(tmp.path(), tmp.path())
        .arg(fixture("claude-script-injection.jsonl"))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    let page = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(!page.to_ascii_lowercase().contains("<script"), "raw script");
    assert!(!page.contains("<img"), "raw img");
    assert!(
        page.contains("&lt;script&gt;alert(4)&lt;/script&gt;"),
        "tool output not shown escaped"
    );
    assert!(
        page.contains("&lt;img src=x onerror=alert(3)&gt;"),
        "command not shown escaped"
    );
}

/// A Claude Code session file (same record shape as the sniffly sessions)
/// whose failing Bash call prints `secret`, twice (so the retry is cited
/// with its output).
fn claude_session_printing(secret: &str) -> String {
    let mut lines = Vec::new();
    let mut parent: Option<String> = None;
    let mut n = 0;
    let mut push = |kind: &str, message: serde_json::Value, lines: &mut Vec<String>| {
        n += 1;
        let uuid = format!("00000000-0000-4000-8000-{n:012}");
        lines.push(
            json!({"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": "/home/dev/app",
                   "sessionId": "5ec12e75-0000-4000-8000-000000000000", "version": "1.0.17", "type": kind,
                   "uuid": uuid, "timestamp": format!("2025-06-10T12:00:{n:02}.000Z"), "message": message})
            .to_string(),
        );
        parent = Some(uuid);
    };
    push(
        "user",
        json!({"role": "user", "content": "Print the deploy config"}),
        &mut lines,
    );
    for i in 0..2 {
        let id = format!("toolu_{i}");
        push(
            "assistant",
            json!({"id": format!("msg_{i}"), "type": "message", "role": "assistant", "model": "m",
                   "content": [{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": "cat deploy.env"}}]}),
            &mut lines,
        );
        push(
            "user",
            json!({"role": "user", "content": [{"tool_use_id": id, "type": "tool_result",
                   "content": format!("line one\n{secret}\nexit 1"), "is_error": true}]}),
            &mut lines,
        );
    }
    push(
        "assistant",
        json!({"id": "msg_9", "type": "message", "role": "assistant", "model": "m",
               "content": [{"type": "text", "text": format!("The config holds {secret}.")}]}),
        &mut lines,
    );
    lines.join("\n") + "\n"
}

/// One planted value per redaction shape, built at run time.
fn secrets() -> Vec<String> {
    let x = |n: usize| "k3".repeat(n / 2);
    vec![
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEow{}\n-----END RSA PRIVATE KEY-----",
            x(40)
        ),
        format!("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.{}", x(22)),
        format!("Authorization: Bearer {}", x(32)),
        format!("https://deploy:{}@git.example.com/app.git", x(14)),
        format!("sk-proj-{}", x(40)),
        format!("sk_live_{}", x(24)),
        format!("ghp_{}", x(36)),
        format!("gho_{}", x(36)),
        format!("github_pat_11AB{}", x(40)),
        format!("glpat-{}", x(20)),
        format!("xoxb-2222-3333-{}", x(24)),
        format!("xoxp-2222-3333-{}", x(24)),
        format!("AKIA{}", "K3".repeat(8)),
        format!("aws_secret_access_key = {}", x(40)),
        format!("AIza{}", &x(36)[..35]),
        format!("hf_{}", x(34)),
        format!("npm_{}", x(36)),
        format!("DB_PASSWORD={}", x(20)),
        format!("client_secret: {}", x(20)),
        format!("api_token={}", x(20)),
    ]
}

#[test]
fn every_secret_shape_in_a_tool_output_is_redacted_in_report_html() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, secret) in secrets().iter().enumerate() {
        let session = tmp.path().join(format!("s{i}.jsonl"));
        fs::write(&session, claude_session_printing(secret)).unwrap();
        let out = tmp.path().join(format!("r{i}"));
        doctor(tmp.path(), tmp.path())
            .arg(&session)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(0);
        let page = fs::read_to_string(out.join("report.html")).unwrap();
        let core = secret
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .max_by_key(|w| w.len())
            .unwrap();
        assert!(!page.contains(core), "secret {i} leaked: {core}");
        assert!(
            page.contains("[REDACTED:"),
            "secret {i}: no redaction marker"
        );
    }
}
