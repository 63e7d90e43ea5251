//! The audit commands through the binary: seed 001's fail-open decision-table
//! rows (no database, tool not in registry, federation not configured), usage
//! errors (exit 2), and intent recording.

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::Path;

fn sg(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("skillgate").unwrap();
    c.current_dir(dir)
        .env("HOME", dir)
        .env("CI", "1")
        .env_remove("SKILLGATE_AUDIT_DB")
        .env_remove("SKILLGATE_FEDERATION_URL");
    c
}

fn json_out(c: &mut Command) -> Value {
    let out = c.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn stats_without_a_database_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let v = json_out(sg(dir.path()).args(["stats"]));
    assert_eq!(v, json!({"stats": [], "windowDays": 7, "toolName": null}));
    let v = json_out(sg(dir.path()).args(["stats", "--tool", "Bash", "--window-days", "30"]));
    assert_eq!(
        v,
        json!({"stats": [], "windowDays": 30, "toolName": "Bash"})
    );
    // Read commands never create the database.
    assert!(!dir.path().join(".skillgate").exists());
    let out = sg(dir.path())
        .args(["stats", "--format", "table"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "Tool usage (last 7d)\n(no calls)\n"
    );
}

#[test]
fn explain_without_a_database_shows_zero_usage() {
    let dir = tempfile::tempdir().unwrap();
    let out = sg(dir.path())
        .args(["explain", "Bash"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let md = String::from_utf8(out).unwrap();
    assert!(
        md.starts_with("## Bash (shell.exec)\n\n**Description:** Run a shell command"),
        "{md}"
    );
    assert!(md.contains("- `command` (string, required): The command line to run.\n"));
    assert!(md.contains("**Usage (last 7d):** 0 calls, 0% success\n"));

    let out = sg(dir.path())
        .args(["explain", "acme.frobnicate"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "## acme.frobnicate\n\n**Description:** (Tool not found in active registry)\n\n**Parameters:**\n- (none known)\n\n\
         **Usage (last 7d):** 0 calls, 0% success\n\n**Common failures:**\n- none observed\n"
    );
}

#[test]
fn refine_without_a_database_emits_an_empty_proposal() {
    let dir = tempfile::tempdir().unwrap();
    let v = json_out(sg(dir.path()).args([
        "refine",
        "--tool",
        "Bash",
        "--now",
        "2026-04-13T10:00:00Z",
    ]));
    assert_eq!(
        v,
        json!({"proposal": {"toolName": "Bash", "issues": [], "proposedPatchHints": [],
               "sourceFileFound": false, "sourceFilePath": null, "dryRun": true,
               "generatedAt": "2026-04-13T10:00:00.000Z"}})
    );
    assert!(!dir.path().join(".skillgate").exists());
}

#[test]
fn refine_finds_a_tool_definition_in_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let def = dir.path().join("src/tools/browser/navigate.ts");
    std::fs::create_dir_all(def.parent().unwrap()).unwrap();
    std::fs::write(&def, "export const navigate = 1;\n").unwrap();
    let sub = dir.path().join("src");
    let v = json_out(sg(&sub).args(["refine", "--tool", "browser.navigate"]));
    assert_eq!(v["proposal"]["sourceFileFound"], true);
    assert_eq!(
        v["proposal"]["sourceFilePath"],
        "src/tools/browser/navigate.ts"
    );
}

#[test]
fn refine_no_dry_run_records_the_intent_only() {
    let dir = tempfile::tempdir().unwrap();
    let v = json_out(sg(dir.path()).args(["refine", "--tool", "Edit", "--no-dry-run"]));
    assert_eq!(v["proposal"]["dryRun"], false);
    assert_eq!(v["intentRecorded"], json!({"auditLogId": 1}));
    let db = dir.path().join(".skillgate/audit.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (kind, tool): (String, String) = conn
        .query_row("SELECT kind, tool FROM audit_log", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!((kind.as_str(), tool.as_str()), ("refine.intent", "Edit"));
}

#[test]
fn compose_without_a_database_uses_the_catalog_and_checks_its_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let v = json_out(sg(dir.path()).args(["compose", "--goal", "fix the failing test and push"]));
    assert_eq!(
        v["proposal"]["chain"],
        json!(["file.read", "file.edit", "shell.exec"])
    );
    assert_eq!(v["proposal"]["estimatedDurationMs"], Value::Null);
    let v = json_out(sg(dir.path()).args(["compose", "--goal", "xyzzy"]));
    assert_eq!(v["proposal"]["chain"], json!([]));
    assert!(v["proposal"]["rationale"]
        .as_str()
        .unwrap()
        .contains("matches the goal's keywords (xyzzy)"));
    sg(dir.path())
        .args(["compose", "--goal", "x", "--max-chain-length", "11"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("11 is not in 1..=10"));
}

#[test]
fn federate_not_configured() {
    let dir = tempfile::tempdir().unwrap();
    for action in [
        ["federate", "--action", "fetch"].as_slice(),
        &["federate", "--action", "publish", "--payload", "{}"],
    ] {
        let v = json_out(sg(dir.path()).args(action));
        assert_eq!(
            v,
            json!({"ok": false, "reason": "federation not configured"})
        );
    }
    sg(dir.path())
        .args(["federate", "--action", "publish", "--payload", "[1]"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--payload: must be a JSON object",
        ));
}

#[test]
fn ingest_errors_and_skips() {
    let dir = tempfile::tempdir().unwrap();
    // A path the user named that cannot be read: exit 2.
    sg(dir.path())
        .args(["ingest", "no-such-folder"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no-such-folder: cannot read"));
    // A file that is not a transcript: counted and reported, not fatal.
    std::fs::write(dir.path().join("notes.txt"), "hello\n").unwrap();
    let assert = sg(dir.path())
        .args(["ingest", "notes.txt"])
        .assert()
        .success();
    let out = assert.get_output();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"]["failed"], 1);
    assert_eq!(v["failed"][0]["path"], "notes.txt");
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(err.contains("skipped notes.txt: "), "{err}");
    assert!(err.contains("ingested 1 files into "), "{err}");
    assert!(err.contains("1 failed; +0 tool calls"), "{err}");
    // A bad calibration line: exit 2 naming file and line.
    std::fs::write(
        dir.path().join("cal.jsonl"),
        "{\"tag\":\"x\",\"predicted\":0.5,\"outcome\":true}\n{\"tag\":\"x\"}\n",
    )
    .unwrap();
    sg(dir.path())
        .args(["ingest", "notes.txt", "--calibration", "cal.jsonl"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "cal.jsonl:2: `predicted` must be a number",
        ));
}

#[test]
fn a_corrupt_database_is_an_error_not_empty_stats() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bad.db");
    std::fs::write(&db, vec![b'x'; 4096]).unwrap();
    sg(dir.path())
        .args(["stats", "--db", "bad.db"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad.db"));
}

#[test]
fn bad_now_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    sg(dir.path())
        .args(["stats", "--now", "yesterday"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--now \"yesterday\": not an RFC 3339 timestamp",
        ));
}

#[test]
fn the_configuration_sets_database_roots_and_endpoint() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::create_dir(root.join("logs")).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::write(
        root.join(".skillgate.yaml"),
        format!(
            "audit:\n  db: data/usage.db\n  ingest-roots: [logs, ~/elsewhere]\n  federation-url: http://127.0.0.1:{port}\n"
        ),
    )
    .unwrap();
    std::fs::copy(
        "../shared/realdata/transcripts/synthetic-schema-fixtures/agent-sessions__gemini_large.json",
        root.join("logs/session.json"),
    )
    .unwrap();
    let v = json_out(sg(root).args(["ingest", "logs/session.json"]));
    assert_eq!(v["db"], root.join("data/usage.db").display().to_string());
    assert_eq!(v["files"]["new"], 1);
    let v = json_out(sg(root).args(["stats", "--window-days", "0"]));
    assert_eq!(v["stats"][0]["toolName"], "shell.exec");
    assert_eq!(v["stats"][0]["totalCalls"], 2);
    // The endpoint from the configuration: nobody listens there.
    let v = json_out(sg(root).args(["federate", "--action", "fetch"]));
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .starts_with("peer unavailable: "),
        "{v}"
    );

    std::fs::write(root.join(".skillgate.yaml"), "audit:\n  database: x.db\n").unwrap();
    sg(root)
        .args(["stats"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(".skillgate.yaml:2"))
        .stderr(predicates::str::contains("database"));
}

#[test]
fn ingest_without_paths_reads_the_default_harness_folders() {
    let home = tempfile::tempdir().unwrap();
    let project = home.path().join("work/proj");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let real = Path::new("../shared/realdata/transcripts");
    let put = |from: &str, to: &Path| {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(real.join(from), to).unwrap();
    };
    put(
        "claude-code/claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
        &home
            .path()
            .join(".claude/projects/-work-proj/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"),
    );
    put(
        "codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
        &home
            .path()
            .join(".codex/sessions/2025/11/17/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl"),
    );
    put(
        "synthetic-schema-fixtures/agent-sessions__gemini_jsonl_v040.jsonl",
        &project.join(".planning/patterns/gemini-session.jsonl"),
    );
    // A symlink out of the tree is reported, not followed.
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        home.path().join(".codex"),
        project.join(".planning/patterns/escape"),
    )
    .unwrap();

    let mut c = sg(&project);
    c.env("HOME", home.path()).arg("ingest");
    let assert = c.assert().success();
    let v: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(
        v["db"],
        project.join(".skillgate/audit.db").display().to_string()
    );
    assert_eq!(v["files"]["new"], 3, "{v}");
    assert_eq!(v["files"]["failed"], 0, "{v}");
    #[cfg(unix)]
    assert_eq!(
        v["skipped"][0]["reason"],
        "symlink pointing out of the tree, not followed"
    );
    assert!(project.join(".skillgate/audit.db").exists());
    let v = json_out(sg(&project).args(["stats", "--window-days", "0"]));
    let harness_tools: Vec<&str> = v["stats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["toolName"].as_str().unwrap())
        .collect();
    assert!(harness_tools.contains(&"shell.exec"), "{harness_tools:?}");
}
