//! `skillgate gate --record` through the binary: the gate's per-constraint
//! results land in the audit database, and after `ingest` the `stats` row of
//! the shell tool counts the scope-tagged violation its call caused.

use assert_cmd::Command;
use std::path::Path;

fn skillgate() -> Command {
    Command::cargo_bin("skillgate").unwrap()
}

#[test]
fn gate_record_then_ingest_then_stats_shows_the_violation() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = repo.join("fixtures/gate/force-push");
    let traj = fixture.join("transcripts/forced.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");

    let out = skillgate()
        .current_dir(dir.path())
        .args([
            "gate",
            "--no-report",
            "--format",
            "json",
            "--record",
            "--db",
        ])
        .arg(&db)
        .arg(fixture.join("skills/release-helper/SKILL.md"))
        .arg("--trajectories")
        .arg(&traj)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "fail-closed exits 1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("recorded "), "{stderr}");

    skillgate()
        .current_dir(dir.path())
        .args(["ingest", "--db"])
        .arg(&db)
        .arg(&traj)
        .assert()
        .success();

    let out = skillgate()
        .current_dir(dir.path())
        .args(["stats", "--window-days", "0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let shell = v["stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["toolName"] == "shell.exec")
        .expect("a shell.exec row");
    assert_eq!(shell["scopeViolations"], 1, "{shell}");
}

#[test]
fn db_without_record_is_a_usage_error() {
    let out = skillgate()
        .args(["gate", "--db", "x.db", "SKILL.md"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
