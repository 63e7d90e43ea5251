//! The audit stage through its library API, on hand-built trajectories whose
//! every number is known: stats and Brier scores, windows, refine patterns,
//! explain's parameters, compose with observed durations, and the gate-results
//! join. The shapes imitate decoded Claude Code and Codex sessions (see
//! ../shared/research/transcript-formats.md §1.5 and §2.5): raw tool names,
//! result texts and exit codes as those harnesses write them.

use rusqlite::Connection;
use serde_json::json;
use skillgate::audit::ingest::{ingest_file_with, FileStatus, IngestOptions};
use skillgate::audit::stats::{usage, ToolFilter};
use skillgate::audit::{
    calibration, compose, explain, parse_timestamp, record_gate_results, refine, schema,
    GateResultRow, Window,
};
use skillgate::decode::{
    Action, DecodeError, Event, EventContent, Harness, LoadVia, Location, Role, ShellAction,
    SimpleCommand, Trajectory,
};
use std::path::{Path, PathBuf};

struct Call<'a> {
    tool: &'a str,
    at: &'a str,
    ms: i64,
    failed: bool,
    rejected: bool,
    exit: Option<i64>,
    output: &'a str,
    input: serde_json::Value,
    shell: Option<&'a str>,
}

fn call<'a>(tool: &'a str, at: &'a str, ms: i64) -> Call<'a> {
    Call {
        tool,
        at,
        ms,
        failed: false,
        rejected: false,
        exit: None,
        output: "ok",
        input: json!({}),
        shell: None,
    }
}

fn event(line: u64, c: &Call) -> Event {
    let action = match c.shell {
        Some(line) => Action::Shell(ShellAction {
            line: line.into(),
            commands: vec![SimpleCommand {
                text: line.into(),
                argv: line.split_whitespace().map(String::from).collect(),
                git: None,
            }],
            ..Default::default()
        }),
        None => Action::Other,
    };
    let mut e = Event::new(Location::line(line), Role::Assistant, action);
    e.tool = Some(c.tool.into());
    e.timestamp = Some(c.at.into());
    let t = parse_timestamp(c.at).unwrap() + time::Duration::milliseconds(c.ms);
    e.result_timestamp = Some(skillgate::audit::format_timestamp(t));
    e.failed = c.failed || c.rejected;
    e.rejected = c.rejected;
    e.exit_code = c.exit;
    e.content = Some(Box::new(EventContent {
        text: None,
        tool_input: Some(c.input.clone()),
        tool_output: Some(c.output.into()),
    }));
    e
}

fn trajectory(path: &Path, harness: Harness, skill: Option<&str>, calls: &[Call]) -> Trajectory {
    let mut t = Trajectory::new(path.to_path_buf(), harness, "hand-built");
    let mut line = 1;
    if let Some(s) = skill {
        t.events.push(Event::new(
            Location::line(1),
            Role::User,
            Action::SkillLoad {
                name: s.into(),
                via: LoadVia::BaseDirectory,
                body_sha256: None,
            },
        ));
        line += 1;
    }
    for c in calls {
        t.events.push(event(line, c));
        line += 1;
    }
    for (i, e) in t.events.iter_mut().enumerate() {
        e.index = i;
    }
    t
}

/// Session A (Claude Code, 2025-06-10, skill `tdd` loaded) and B (Codex, 2025-06-01).
fn session_a(path: &Path) -> Trajectory {
    let cargo = json!({"command": "cargo test", "timeout": 120000});
    trajectory(
        path,
        Harness::ClaudeCode,
        Some("tdd"),
        &[
            Call {
                failed: true,
                exit: Some(101),
                output: "test result: FAILED. 1 passed; 1 failed",
                input: cargo.clone(),
                shell: Some("cargo test"),
                ..call("Bash", "2025-06-10T10:00:00Z", 2000)
            },
            Call {
                failed: true,
                exit: Some(101),
                output: "test result: FAILED. 1 passed; 1 failed",
                input: cargo,
                shell: Some("cargo test"),
                ..call("Bash", "2025-06-10T10:01:00Z", 3000)
            },
            Call {
                input: json!({"command": "ls"}),
                shell: Some("ls"),
                ..call("Bash", "2025-06-10T10:02:00Z", 1000)
            },
            Call {
                rejected: true,
                output:
                    "The user doesn't want to proceed with this tool use. The tool use was rejected",
                input: json!({"file_path": "/a", "old_string": "x", "new_string": "y"}),
                ..call("Edit", "2025-06-10T10:03:00Z", 500)
            },
            Call {
                failed: true,
                output: "File does not exist.",
                input: json!({"file_path": "/b"}),
                ..call("Read", "2025-06-10T10:04:00Z", 100)
            },
            Call {
                input: json!({"file_path": "/a", "limit": 20}),
                ..call("Read", "2025-06-10T10:05:00Z", 300)
            },
            Call {
                input: json!({"query": "x"}),
                ..call("mcp__exa__web_fetch_exa", "2025-06-10T10:06:00Z", 4000)
            },
        ],
    )
}

fn session_b(path: &Path) -> Trajectory {
    trajectory(
        path,
        Harness::Codex,
        None,
        &[
            Call {
                failed: true,
                exit: Some(124),
                output: "command timed out",
                input: json!({"command": ["bash", "-lc", "cargo build"]}),
                shell: Some("cargo build"),
                ..call("shell", "2025-06-01T09:00:00Z", 10000)
            },
            Call {
                input: json!({"command": ["bash", "-lc", "ls"]}),
                shell: Some("ls"),
                ..call("shell", "2025-06-01T09:01:00Z", 2000)
            },
        ],
    )
}

struct Fixture {
    _dir: tempfile::TempDir,
    db: PathBuf,
    conn: Connection,
    a: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    std::fs::write(&a, "a\n").unwrap();
    std::fs::write(&b, "b\n").unwrap();
    let mut conn = schema::open_rw(&db).unwrap();
    let decode = |p: &Path| -> Result<Trajectory, DecodeError> {
        if p.file_name().unwrap() == "a.jsonl" {
            Ok(session_a(p))
        } else {
            Ok(session_b(p))
        }
    };
    let opts = IngestOptions {
        now: "2025-06-11T00:00:00.000Z".into(),
        fail_after_rows: None,
    };
    for f in [&a, &b] {
        let r = ingest_file_with(&mut conn, &db, f, &opts, &decode).unwrap();
        assert_eq!(r.status, FileStatus::New);
    }
    Fixture {
        _dir: dir,
        db,
        conn,
        a,
    }
}

fn now() -> time::OffsetDateTime {
    parse_timestamp("2025-06-11T00:00:00Z").unwrap()
}

#[test]
fn stats_all_time_match_the_hand_count() {
    let f = fixture();
    let r = usage(Some(&f.conn), &ToolFilter::All, Window::all_time(), 20).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(
        v,
        json!({
            "stats": [
                {"toolName": "shell.exec", "totalCalls": 5, "successCount": 2, "failureCount": 3, "vetoCount": 0,
                 "avgDurationMs": 3600, "successRate": 0.4, "brierForTool": null,
                 "topErrorKinds": ["nonzero_exit", "timeout"]},
                {"toolName": "file.read", "totalCalls": 2, "successCount": 1, "failureCount": 1, "vetoCount": 0,
                 "avgDurationMs": 200, "successRate": 0.5, "brierForTool": null, "topErrorKinds": ["not_found"]},
                {"toolName": "file.edit", "totalCalls": 1, "successCount": 0, "failureCount": 1, "vetoCount": 1,
                 "avgDurationMs": 500, "successRate": 0.0, "brierForTool": null,
                 "topErrorKinds": ["rejected_by_user"]},
                {"toolName": "mcp.exa.web_fetch_exa", "totalCalls": 1, "successCount": 1, "failureCount": 0,
                 "vetoCount": 0, "avgDurationMs": 4000, "successRate": 1.0, "brierForTool": null, "topErrorKinds": []}
            ],
            "windowDays": 0,
            "toolName": null
        })
    );
}

#[test]
fn window_filter_top_n_and_no_rows() {
    let f = fixture();
    // 7 days before 2025-06-11: session B (2025-06-01) is outside.
    let r = usage(
        Some(&f.conn),
        &ToolFilter::Substring("bash".into()),
        Window::new(7, now()),
        20,
    )
    .unwrap();
    assert_eq!(r.tool_name.as_deref(), Some("bash"));
    assert_eq!(r.window_days, 7);
    assert_eq!(r.stats.len(), 1);
    assert_eq!(
        (r.stats[0].tool_name.as_str(), r.stats[0].total_calls),
        ("shell.exec", 3)
    );
    assert_eq!(r.stats[0].avg_duration_ms, Some(2000));
    assert_eq!(r.stats[0].success_rate, 0.333);

    let r = usage(Some(&f.conn), &ToolFilter::All, Window::all_time(), 2).unwrap();
    assert_eq!(r.stats.len(), 2);

    // No rows in the window → empty array (seed decision table).
    let later = parse_timestamp("2026-01-01T00:00:00Z").unwrap();
    let r = usage(Some(&f.conn), &ToolFilter::All, Window::new(7, later), 20).unwrap();
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        json!({"stats": [], "windowDays": 7, "toolName": null})
    );

    // No database → empty stats (fail open).
    let r = usage(None, &ToolFilter::All, Window::new(7, now()), 20).unwrap();
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        json!({"stats": [], "windowDays": 7, "toolName": null})
    );
}

#[test]
fn brier_from_matching_calibration_tags_else_null() {
    let mut f = fixture();
    let cal = f.db.with_file_name("cal.jsonl");
    std::fs::write(
        &cal,
        "{\"tag\":\"shell\",\"predicted\":0.9,\"outcome\":true}\n\
         {\"tag\":\"Bash\",\"predicted\":0.5,\"outcome\":false}\n\
         {\"tag\":\"browser.navigate\",\"predicted\":0.5,\"outcome\":true}\n",
    )
    .unwrap();
    assert_eq!(calibration::import(&mut f.conn, &f.db, &cal).unwrap(), 3);
    let r = usage(Some(&f.conn), &ToolFilter::All, Window::all_time(), 20).unwrap();
    let get = |n: &str| {
        r.stats
            .iter()
            .find(|s| s.tool_name == n)
            .unwrap()
            .brier_for_tool
    };
    assert_eq!(get("shell.exec"), Some(0.13)); // ((0.9-1)^2 + (0.5-0)^2) / 2
    assert_eq!(get("file.read"), None); // no calibration tag match → null
}

#[test]
fn refine_finds_the_planted_patterns() {
    let f = fixture();
    let p = refine::propose(
        Some(&f.conn),
        "shell.exec",
        true,
        "2025-06-11T00:00:00.000Z",
        None,
    )
    .unwrap();
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(
        v,
        json!({
            "toolName": "shell.exec",
            "issues": [
                {"pattern": "failed calls running `cargo` (3)", "occurrences": 3,
                 "suggestion": "Document how `cargo` is run in this project (working folder, flags, prerequisites) where the agent reads it."},
                {"pattern": "recurring nonzero_exit failures (2 of 5 calls)", "occurrences": 2,
                 "suggestion": "Commands exit nonzero: document the project's real build/test commands and how to read their failures before retrying."},
                {"pattern": "retry loop: a failed call repeated at once with identical input (1 time)", "occurrences": 1,
                 "suggestion": "Retrying the same input after a failure rarely helps: tell the agent to read the error and change the input, or stop and report."}
            ],
            "proposedPatchHints": [
                "Add to the description of `shell.exec`: how to run `cargo` here.",
                "Add to the description of `shell.exec`: the project's real build and test commands.",
                "Add to the description of `shell.exec`: after a failure, change the input instead of repeating it."
            ],
            "sourceFileFound": false,
            "sourceFilePath": null,
            "dryRun": true,
            "generatedAt": "2025-06-11T00:00:00.000Z"
        })
    );
    // A raw name: only that harness name's calls (Bash: 3 of the 5 shell calls).
    let p = refine::propose(Some(&f.conn), "Bash", true, "t", None).unwrap();
    assert_eq!(p.tool_name, "Bash");
    let patterns: Vec<&str> = p.issues.iter().map(|i| i.pattern.as_str()).collect();
    assert_eq!(
        patterns,
        vec![
            "failed calls running `cargo` (2)",
            "recurring nonzero_exit failures (2 of 3 calls)",
            "retry loop: a failed call repeated at once with identical input (1 time)"
        ]
    );
    assert_eq!(
        p.proposed_patch_hints[0],
        "Add to the description of `Bash (shell.exec)`: how to run `cargo` here."
    );

    let p = refine::propose(Some(&f.conn), "Edit", true, "t", None).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].pattern, "user vetoed 1 of 1 calls");

    // Intent recording writes one audit_log row and nothing else.
    let id = refine::record_intent(&f.conn, "2025-06-11T00:00:00.000Z", &p).unwrap();
    let (kind, tool): (String, String) = f
        .conn
        .query_row(
            "SELECT kind, tool FROM audit_log WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((kind.as_str(), tool.as_str()), ("refine.intent", "Edit"));
}

#[test]
fn failures_clustered_after_a_skill_load() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    let mut conn = schema::open_rw(&db).unwrap();
    let with = dir.path().join("with.jsonl");
    let without = dir.path().join("without.jsonl");
    std::fs::write(&with, "w").unwrap();
    std::fs::write(&without, "o").unwrap();
    let decode = |p: &Path| -> Result<Trajectory, DecodeError> {
        let failing = |at| Call {
            failed: true,
            output: "boom",
            input: json!({"u": at}),
            ..call("WebFetch", at, 10)
        };
        Ok(if p.ends_with("with.jsonl") {
            trajectory(
                p,
                Harness::ClaudeCode,
                Some("scraper"),
                &[
                    failing("2025-06-10T10:00:00Z"),
                    failing("2025-06-10T10:01:00Z"),
                ],
            )
        } else {
            trajectory(
                p,
                Harness::ClaudeCode,
                None,
                &[call("WebFetch", "2025-06-10T11:00:00Z", 10)],
            )
        })
    };
    let opts = IngestOptions {
        now: "x".into(),
        fail_after_rows: None,
    };
    ingest_file_with(&mut conn, &db, &with, &opts, &decode).unwrap();
    ingest_file_with(&mut conn, &db, &without, &opts, &decode).unwrap();
    let p = refine::propose(Some(&conn), "web.fetch", true, "t", None).unwrap();
    let patterns: Vec<&str> = p.issues.iter().map(|i| i.pattern.as_str()).collect();
    assert_eq!(
        patterns,
        vec![
            "failures cluster after skill `scraper` loads (2 of 2 calls fail with it, 0 of 1 without)",
            "recurring other failures (2 of 3 calls)",
        ]
    );
    assert!(p.proposed_patch_hints[0].starts_with("Review skills/scraper/SKILL.md"));
}

#[test]
fn explain_shows_observed_parameters_usage_and_failures() {
    let f = fixture();
    let md = explain::explain(Some(&f.conn), "shell.exec", Window::all_time()).unwrap();
    assert_eq!(
        md,
        "## shell.exec\n\n\
         **Description:** Run a shell command and return its output and exit code (Bash, shell, run_shell_command).\n\n\
         **Parameters:**\n\
         - `command` (array | string, required): The command line to run. (seen in 5 of 5 calls)\n\
         - `timeout` (integer, optional): Time limit in milliseconds. (seen in 2 of 5 calls)\n\n\
         **Usage (all time):** 5 calls, 40% success\n\
         **Seen as:** `Bash` (3), `shell` (2)\n\n\
         **Common failures:**\n- nonzero_exit\n- timeout\n"
    );
    // A raw name: only its calls.
    let md = explain::explain(Some(&f.conn), "Bash", Window::all_time()).unwrap();
    assert!(md.starts_with("## Bash (shell.exec)\n"), "{md}");
    assert!(md.contains(
        "- `command` (string, required): The command line to run. (seen in 3 of 3 calls)\n"
    ));
    assert!(md.contains("**Usage (all time):** 3 calls, 33.3% success\n\n"));
    assert!(md.ends_with("**Common failures:**\n- nonzero_exit\n"));
    // A tool only the database knows: not in the registry, parameters observed.
    let md = explain::explain(
        Some(&f.conn),
        "mcp__exa__web_fetch_exa",
        Window::new(7, now()),
    )
    .unwrap();
    assert!(md.starts_with(
        "## mcp__exa__web_fetch_exa (mcp.exa.web_fetch_exa)\n\n**Description:** (Tool not found in active registry)\n"
    ));
    assert!(md.contains("- `query` (string, required): seen in 1 of 1 calls\n"));
    assert!(md.contains("**Usage (last 7d):** 1 calls, 100% success\n"));
    assert!(md.ends_with("**Common failures:**\n- none observed\n"));
}

#[test]
fn compose_uses_observed_durations_and_database_tools() {
    let f = fixture();
    let p = compose::compose(Some(&f.conn), "fix the failing test and push", 5).unwrap();
    assert_eq!(p.chain, vec!["file.read", "file.edit", "shell.exec"]);
    // file.read 200 + file.edit 500 + shell.exec 3600.
    assert_eq!(p.estimated_duration_ms, Some(4300));
    assert!(p.rationale.starts_with(
        "Proposed 3-step chain from 17 known tools (4 observed in the audit database, 16 in the built-in catalog)"
    ));
    // A database-only tool is matched on the words of its name.
    let p = compose::compose(Some(&f.conn), "use exa", 5).unwrap();
    assert_eq!(p.chain, vec!["mcp.exa.web_fetch_exa"]);
    assert_eq!(p.estimated_duration_ms, Some(4000));
}

#[test]
fn gate_results_join_tool_calls_in_stats() {
    let f = fixture();
    let row = |event: usize, scope: &[&str], label: &str| GateResultRow {
        recorded_at: "2025-06-11T00:00:00.000Z".into(),
        skill: "tdd".into(),
        constraint_id: "c".into(),
        scope: scope.iter().map(|s| s.to_string()).collect(),
        label: label.into(),
        trajectory: Some(f.a.clone()),
        event_index: Some(event),
        raw_tool: None,
    };
    // Event 1 is the first Bash call (event 0 is the skill load); event 4 the Edit.
    record_gate_results(
        &f.db,
        &[
            row(1, &["shared-repo-state"], "violated"),
            row(2, &["shared-repo-state"], "violated"),
            row(4, &["self-modification"], "violated"),
            row(4, &[], "violated"), // untagged: not counted
            row(1, &["shared-repo-state"], "exercised"), // not a violation
        ],
    )
    .unwrap();
    let r = usage(Some(&f.conn), &ToolFilter::All, Window::all_time(), 20).unwrap();
    let v: Vec<(String, Option<u64>)> = r
        .stats
        .iter()
        .map(|s| (s.tool_name.clone(), s.scope_violations))
        .collect();
    assert_eq!(
        v,
        vec![
            ("shell.exec".into(), Some(2)),
            ("file.read".into(), Some(0)),
            ("file.edit".into(), Some(1)),
            ("mcp.exa.web_fetch_exa".into(), Some(0)),
        ]
    );
    assert_eq!(
        serde_json::to_value(&r.stats[0]).unwrap()["scopeViolations"],
        2
    );
}

/// Item 7 end to end through the library: the gate judges a real-shaped
/// force-push session (fixtures/gate/force-push, a Claude Code 2.1 session),
/// its results are recorded, the session is ingested, and `stats` attributes
/// the scope-tagged violation to the shell tool.
#[test]
fn gate_verdicts_recorded_then_joined_in_stats() {
    use skillgate::audit::gate_results::rows_from_verdicts;
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = repo.join("fixtures/gate/force-push");
    let options = skillgate::gate::GateOptions {
        trajectories: vec![fixture.join("transcripts/forced.jsonl")],
        cwd: repo.to_path_buf(),
    };
    let verdicts = skillgate::gate::run_gate(
        &[fixture.join("skills/release-helper/SKILL.md")],
        &options,
        &skillgate::config::Config::default(),
    )
    .unwrap();
    let rows = rows_from_verdicts(&verdicts, "2026-01-01T00:00:00.000Z", repo);
    let violated: Vec<&GateResultRow> = rows.iter().filter(|r| r.label == "violated").collect();
    assert_eq!(violated.len(), 1, "{rows:?}");
    assert_eq!(violated[0].constraint_id, "no-force-push");
    assert_eq!(violated[0].scope, vec!["shared-repo-state".to_string()]);

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    record_gate_results(&db, &rows).unwrap();
    let mut conn = schema::open_rw(&db).unwrap();
    let opts = IngestOptions {
        now: "2026-01-01T00:00:00.000Z".into(),
        fail_after_rows: None,
    };
    skillgate::audit::ingest::ingest_file(
        &mut conn,
        &db,
        &fixture.join("transcripts/forced.jsonl"),
        &opts,
    )
    .unwrap();
    let r = usage(Some(&conn), &ToolFilter::All, Window::all_time(), 20).unwrap();
    let shell = r
        .stats
        .iter()
        .find(|s| s.tool_name == "shell.exec")
        .unwrap();
    assert_eq!(shell.scope_violations, Some(1));
    assert!(r
        .stats
        .iter()
        .filter(|s| s.tool_name != "shell.exec")
        .all(|s| s.scope_violations == Some(0)));
}

/// `shell` is a category (every `shell.*` call) before it is Codex's raw tool
/// name: `explain shell` and `refine shell` cover all 5 shell calls, and say
/// that 2 of them were made under the raw name `shell`.
#[test]
fn a_category_name_matches_its_category_before_a_raw_name() {
    let f = fixture();
    let md = explain::explain(Some(&f.conn), "shell", Window::all_time()).unwrap();
    assert!(md.starts_with("## shell (category: shell.exec)\n"), "{md}");
    assert!(
        md.contains("**Usage (all time):** 5 calls, 40% success\n"),
        "{md}"
    );
    assert!(
        md.contains("**Note:** `shell` is read as the category (all 5 calls above); it is also a raw harness tool name, under which 2 of these calls were made.\n"),
        "{md}"
    );
    let p = refine::propose(Some(&f.conn), "shell", true, "t", None).unwrap();
    assert_eq!(p.category, Some(vec!["shell.exec".to_string()]));
    let exec = refine::propose(Some(&f.conn), "shell.exec", true, "t", None).unwrap();
    assert_eq!(p.issues, exec.issues);
    assert!(!p.issues.is_empty());
    // Without a database the category comes from the mapping table.
    let md = explain::explain(None, "shell", Window::all_time()).unwrap();
    assert!(
        md.starts_with("## shell (category: shell.exec, shell.input, shell.kill, shell.output)\n"),
        "{md}"
    );
    // A raw name that is no category still means only its calls.
    let md = explain::explain(Some(&f.conn), "Bash", Window::all_time()).unwrap();
    assert!(md.contains("**Usage (all time):** 3 calls"), "{md}");
}
