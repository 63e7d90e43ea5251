//! The audit commands over every real transcript in ../shared/realdata:
//! snapshots of `stats`, `explain Bash`, `refine --tool Bash` and `compose`
//! (durations come from the transcripts' own timestamps), a second ingest that
//! adds nothing, a real Claude Code session that grows, and an interrupted
//! ingest of it that leaves the database as it was.

use assert_cmd::Command;
use rusqlite::Connection;
use serde_json::Value;
use skillgate::audit::ingest::{ingest_file, FileStatus, IngestOptions};
use skillgate::audit::schema;
use std::path::{Path, PathBuf};

const CORPUS: &str = "../shared/realdata/transcripts";
/// The largest real Claude Code session (CC 1.0.x, sidechains, 168 tool calls).
const GROWING: &str =
    "../shared/realdata/transcripts/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl";

fn sg(dir: &Path, db: &Path) -> Command {
    let mut c = Command::cargo_bin("skillgate").unwrap();
    c.current_dir(dir)
        .env("HOME", dir)
        .env("CI", "1")
        .env("SKILLGATE_AUDIT_DB", db)
        .env_remove("SKILLGATE_FEDERATION_URL");
    c
}

fn stdout(c: &mut Command) -> String {
    String::from_utf8(c.assert().success().get_output().stdout.clone()).unwrap()
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS)
}

fn counts(db: &Path) -> (i64, i64, i64) {
    let conn = Connection::open(db).unwrap();
    let c = |t: &str| {
        conn.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap()
    };
    (c("sessions"), c("tool_calls"), c("ingested_files"))
}

#[test]
fn the_real_corpus_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    let first: Value =
        serde_json::from_str(&stdout(sg(dir.path(), &db).arg("ingest").arg(corpus()))).unwrap();
    insta::assert_json_snapshot!("ingest_counts", first["files"]);
    assert_eq!(first["failed"], serde_json::json!([]));
    assert_eq!(
        first["totals"]["toolCalls"],
        first["files"]["toolCallsAdded"]
    );
    let after_first = counts(&db);

    // A second ingest adds no rows and touches no file.
    let second: Value =
        serde_json::from_str(&stdout(sg(dir.path(), &db).arg("ingest").arg(corpus()))).unwrap();
    assert_eq!(second["files"]["unchanged"], first["files"]["files"]);
    assert_eq!(second["files"]["toolCallsAdded"], 0);
    assert_eq!(second["files"]["toolCallsUpdated"], 0);
    assert_eq!(counts(&db), after_first);

    let stats = stdout(sg(dir.path(), &db).args(["stats", "--window-days", "0"]));
    insta::assert_snapshot!("stats_all_time", stats);
    let table =
        stdout(sg(dir.path(), &db).args(["stats", "--window-days", "0", "--format", "table"]));
    insta::assert_snapshot!("stats_table", table);
    // The corpus is from 2025-2026: the default 7-day window before a 2030
    // clock is empty, and stderr says when the newest call was.
    let assert = sg(dir.path(), &db)
        .args(["stats", "--now", "2030-01-01T00:00:00Z"])
        .assert()
        .success();
    let recent: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(
        recent,
        serde_json::json!({"stats": [], "windowDays": 7, "toolName": null})
    );
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(
        err.starts_with(
            "note: no calls in the last 7 days; the database's newest call is from 2026-"
        ),
        "{err}"
    );

    let explain = stdout(sg(dir.path(), &db).args(["explain", "Bash", "--window-days", "0"]));
    insta::assert_snapshot!("explain_bash", explain);
    let refine = stdout(sg(dir.path(), &db).args([
        "refine",
        "--tool",
        "Bash",
        "--now",
        "2026-04-13T10:00:00Z",
    ]));
    insta::assert_snapshot!("refine_bash", refine);
    let compose =
        stdout(sg(dir.path(), &db).args(["compose", "--goal", "fix the failing test and push"]));
    insta::assert_snapshot!("compose_fix_test_push", compose);
}

/// Calibration rows make `brierForTool` a number for the tools their tags
/// match, and leave it null elsewhere.
#[test]
fn calibration_gives_brier_scores_on_the_real_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    let cal = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/audit/calibration.jsonl");
    let v: Value = serde_json::from_str(&stdout(
        sg(dir.path(), &db)
            .arg("ingest")
            .arg(corpus())
            .arg("--calibration")
            .arg(&cal),
    ))
    .unwrap();
    assert_eq!(v["calibrationRows"], 7);
    let v: Value = serde_json::from_str(&stdout(sg(dir.path(), &db).args([
        "stats",
        "--window-days",
        "0",
    ])))
    .unwrap();
    let brier = |tool: &str| {
        v["stats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["toolName"] == tool)
            .unwrap()["brierForTool"]
            .clone()
    };
    // shell.exec: its dot name (0.9→1, 0.8→0) and its raw name Bash (0.7→1):
    // (0.01 + 0.64 + 0.09) / 3 = 0.2467.
    assert_eq!(brier("shell.exec"), serde_json::json!(0.247));
    // file.edit: the `file` prefix (0.95→1) and its own tag (0.6→0): (0.0025 + 0.36) / 2.
    assert_eq!(brier("file.edit"), serde_json::json!(0.181));
    // file.read: only the prefix.
    assert_eq!(brier("file.read"), serde_json::json!(0.003));
    // browser.navigate: its own tag (0.5→1).
    assert_eq!(brier("browser.navigate"), serde_json::json!(0.25));
    // No tag matches: null.
    assert_eq!(brier("plan.todo"), Value::Null);
}

/// Recount from the file itself: Bash tool_use blocks in a Claude Code JSONL.
#[test]
fn bash_calls_recount_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(GROWING);
    stdout(sg(dir.path(), &db).arg("ingest").arg(&file));
    let text = std::fs::read_to_string(&file).unwrap();
    let expected = text.matches(r#""type":"tool_use","id":"#).count();
    let bash = text.matches(r#""name":"Bash","input""#).count();
    let conn = Connection::open(&db).unwrap();
    let (all, bash_rows): (usize, usize) = conn
        .query_row(
            "SELECT count(*), sum(raw_tool = 'Bash') FROM tool_calls",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((all, bash_rows), (expected, bash));
    assert_eq!(bash, 61);
}

fn write_lines(path: &Path, lines: &[&str]) {
    let mut s = lines.join("\n");
    s.push('\n');
    std::fs::write(path, s).unwrap();
}

#[test]
fn a_growing_real_session_adds_only_its_new_calls() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(GROWING)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let half = lines.len() / 2;

    // The whole file at once, for reference.
    let whole_db = dir.path().join("whole.db");
    let whole = dir.path().join("whole.jsonl");
    write_lines(&whole, &lines);
    stdout(sg(dir.path(), &whole_db).arg("ingest").arg(&whole));
    let (_, whole_calls, _) = counts(&whole_db);

    // Half of it, then the rest appended.
    let db = dir.path().join("grow.db");
    let file = dir.path().join("session.jsonl");
    write_lines(&file, &lines[..half]);
    stdout(sg(dir.path(), &db).arg("ingest").arg(&file));
    let (_, half_calls, _) = counts(&db);
    assert!(
        half_calls > 0 && half_calls < whole_calls,
        "{half_calls} of {whole_calls}"
    );
    let before: Vec<(i64, String)> = ids(&db);

    write_lines(&file, &lines);
    let v: Value =
        serde_json::from_str(&stdout(sg(dir.path(), &db).arg("ingest").arg(&file))).unwrap();
    assert_eq!(v["files"]["grown"], 1);
    assert_eq!(v["files"]["toolCallsAdded"], whole_calls - half_calls);
    assert_eq!(counts(&db), (1, whole_calls, 1));
    // Rows stored before keep their ids and keys.
    let after = ids(&db);
    assert_eq!(after[..before.len()], before[..]);
    // And the grown database says exactly what the whole file says.
    assert_eq!(facts(&db), facts(&whole_db));
}

/// Every stored fact of every call but its row id, in key order.
fn facts(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    let mut st = conn
        .prepare(
            "SELECT record_key || '|' || event_index || '|' || raw_tool || '|' || tool || '|' || success
                 || '|' || vetoed || '|' || ifnull(duration_ms, '-') || '|' || ifnull(error_kind, '-')
                 || '|' || ifnull(called_at, '-') || '|' || input_keys || '|' || skills || '|' || agent
             FROM tool_calls ORDER BY record_key",
        )
        .unwrap();
    st.query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

fn ids(db: &Path) -> Vec<(i64, String)> {
    let conn = Connection::open(db).unwrap();
    let mut st = conn
        .prepare("SELECT id, record_key FROM tool_calls ORDER BY id")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

#[test]
fn an_interrupted_ingest_of_a_real_session_leaves_the_database_intact() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(GROWING)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let db = dir.path().join("audit.db");
    let file = dir.path().join("session.jsonl");
    write_lines(&file, &lines[..lines.len() / 3]);
    let mut conn = schema::open_rw(&db).unwrap();
    let opts = IngestOptions {
        now: "2026-01-01T00:00:00.000Z".into(),
        fail_after_rows: None,
    };
    assert_eq!(
        ingest_file(&mut conn, &db, &file, &opts).unwrap().status,
        FileStatus::New
    );
    let snapshot = |conn: &Connection| -> Vec<String> {
        let mut st = conn
            .prepare(
                "SELECT 'c ' || id || record_key || success || ifnull(duration_ms, '-') FROM tool_calls
                 UNION ALL SELECT 'f ' || size || sha256 FROM ingested_files
                 UNION ALL SELECT 's ' || events || ifnull(ended_at, '-') FROM sessions ORDER BY 1",
            )
            .unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .map(|r| r.unwrap())
            .collect()
    };
    let before = snapshot(&conn);

    write_lines(&file, &lines);
    let failing = IngestOptions {
        fail_after_rows: Some(5),
        ..opts.clone()
    };
    assert!(ingest_file(&mut conn, &db, &file, &failing).is_err());
    assert_eq!(snapshot(&conn), before);

    let r = ingest_file(&mut conn, &db, &file, &opts).unwrap();
    assert_eq!(r.status, FileStatus::Grown);
    assert!(r.added > 5);
}

/// Growth at many cut points of every real Claude Code and Codex JSONL ends in
/// exactly the rows of a one-shot ingest.
#[test]
fn growth_at_any_cut_matches_a_one_shot_ingest() {
    let root = corpus();
    let files = [
        "claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
        "claude-code/claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
        "claude-code/sniffly__d3ad4cdc-5657-435d-98fa-0035d53e383d.jsonl",
        "codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
    ];
    let opts = IngestOptions {
        now: "2026-01-01T00:00:00.000Z".into(),
        fail_after_rows: None,
    };
    for name in files {
        let text = std::fs::read_to_string(root.join(name)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let dir = tempfile::tempdir().unwrap();
        let whole_db = dir.path().join("whole.db");
        let file = dir.path().join("s.jsonl");
        write_lines(&file, &lines);
        let mut conn = schema::open_rw(&whole_db).unwrap();
        ingest_file(&mut conn, &whole_db, &file, &opts).unwrap();
        let expected = facts(&whole_db);
        for fifth in 1..5 {
            let cut = lines.len() * fifth / 5;
            let db = dir.path().join(format!("cut{fifth}.db"));
            let mut conn = schema::open_rw(&db).unwrap();
            write_lines(&file, &lines[..cut]);
            ingest_file(&mut conn, &db, &file, &opts).unwrap();
            write_lines(&file, &lines);
            let r = ingest_file(&mut conn, &db, &file, &opts).unwrap();
            assert_eq!(r.status, FileStatus::Grown, "{name} cut at {cut}");
            assert_eq!(facts(&db), expected, "{name} cut at line {cut}");
        }
    }
}
