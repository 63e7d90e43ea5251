//! The published JSON Schemas under schemas/ (docs/json.md): the outputs of
//! `gate --format json` (every count of skills, every exit code), `ship`
//! (ship, blocked, input error, nothing to measure) and the audit commands
//! (`ingest`, `stats`, `refine`, `compose` over real transcripts) validate
//! against them, and the schemas' enums are the code's.

mod release_common;

use release_common::*;
use serde_json::{json, Value};
use std::path::Path;

const SKILL: &str = "fixtures/release/demo/skills/tidy-branches";
const FORCED: &str = "fixtures/release/demo/sessions/forced.jsonl";
const CLEAN: &str = "fixtures/release/demo/sessions/clean.jsonl";

/// Resolves `gate.schema.json#/...` references between our schemas from disk.
struct Local;

impl jsonschema::Retrieve for Local {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri.as_str().rsplit('/').next().unwrap_or_default();
        let text = std::fs::read_to_string(repo_root().join("schemas").join(name))?;
        Ok(serde_json::from_str(&text)?)
    }
}

fn schema(name: &str) -> Value {
    let text = std::fs::read_to_string(repo_root().join("schemas").join(name)).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::options()
        .with_retriever(Local)
        .build(&schema(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[track_caller]
fn assert_valid(name: &str, text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let errors: Vec<String> = validator(name)
        .iter_errors(&v)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:#?}\n{text}");
    v
}

fn gate(dir: &Path, args: &[&str]) -> Run {
    let mut a = vec!["gate", "--format", "json", "--no-report"];
    a.extend_from_slice(args);
    run(dir, &a, "", &[])
}

#[test]
fn every_schema_is_a_valid_2020_12_schema() {
    let mut n = 0;
    for e in std::fs::read_dir(repo_root().join("schemas")).unwrap() {
        let p = e.unwrap().path();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert!(
            jsonschema::draft202012::meta::is_valid(&v),
            "{}",
            p.display()
        );
        n += 1;
    }
    assert!(n >= 6, "{n} schemas");
}

#[test]
fn gate_json_is_one_envelope_for_one_several_and_no_skills() {
    // One skill, failing closed.
    let r = gate(&repo_root(), &[SKILL, "--trajectories", FORCED]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = assert_valid("gate.schema.json", &r.stdout);
    assert_eq!(v["version"], 1);
    assert_eq!(v["exit_code"], 1);
    assert_eq!(v["skills"].as_array().unwrap().len(), 1);
    assert_eq!(v["skills"][0]["verdict"], "fail-closed");
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["version", "exit_code", "skills"]);

    // One skill, passing.
    let r = gate(&repo_root(), &[SKILL, "--trajectories", CLEAN]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = assert_valid("gate.schema.json", &r.stdout);
    assert_eq!(v["exit_code"], 0);

    // Nothing to measure: exit 3, still the envelope.
    let empty = tempfile::tempdir().unwrap();
    let r = gate(
        &repo_root(),
        &[SKILL, "--trajectories", empty.path().to_str().unwrap()],
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v = assert_valid("gate.schema.json", &r.stdout);
    assert_eq!(v["exit_code"], 3);

    // Every real skill over every real transcript: several skills.
    let r = gate(
        &repo_root(),
        &[
            "../shared/realdata/skills",
            "--trajectories",
            "../shared/realdata/transcripts",
        ],
    );
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v = assert_valid("gate.schema.json", &r.stdout);
    assert!(v["skills"].as_array().unwrap().len() > 1);
    assert_eq!(v["exit_code"], r.code);

    // No skill changed: an empty list in the same envelope.
    let t = TestRepo::new();
    t.add_skill();
    let base = t.commit("base");
    t.write("README.md", "x\n");
    t.commit("docs");
    let r = gate(&t.work(), &["--changed-since", &base.to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = assert_valid("gate.schema.json", &r.stdout);
    assert_eq!(v, json!({"version": 1, "exit_code": 0, "skills": []}));
}

#[test]
fn the_gate_schema_rejects_the_old_shapes_and_accepts_added_fields() {
    let r = gate(&repo_root(), &[SKILL, "--trajectories", FORCED]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let val = validator("gate.schema.json");
    assert!(val.is_valid(&v));
    // The shapes before the envelope: a bare object, a bare array.
    assert!(!val.is_valid(&v["skills"][0]));
    assert!(!val.is_valid(&v["skills"]));
    let mut bad = v.clone();
    bad["version"] = json!(2);
    assert!(!val.is_valid(&bad));
    let mut bad = v.clone();
    bad["skills"][0]["verdict"] = json!("fine");
    assert!(!val.is_valid(&bad));
    let mut bad = v.clone();
    bad["skills"][0]["numbers"]["coverage"] = json!(1.5);
    assert!(!val.is_valid(&bad));
    // Fields added to a skill or a constraint (later releases) stay valid.
    let mut more = v.clone();
    more["skills"][0]["stale"] = json!([]);
    more["skills"][0]["constraints"][0]["order"] = json!("before");
    assert!(val.is_valid(&more));
}

#[test]
fn the_schema_enums_are_the_codes_enums() {
    let s = schema("gate.schema.json");
    let enum_of = |def: &str| -> Vec<String> {
        s["$defs"][def]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{def}"))
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    let names = |v: Vec<Value>| -> Vec<String> {
        v.into_iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    use skillgate::extract::ScopeTag;
    use skillgate::label::Label;
    use skillgate::score::{Flag, Verdict};
    assert_eq!(
        enum_of("label"),
        names(
            Label::ALL
                .iter()
                .map(|l| serde_json::to_value(l).unwrap())
                .collect()
        )
    );
    assert_eq!(
        enum_of("scope"),
        names(
            ScopeTag::ALL
                .iter()
                .map(|l| serde_json::to_value(l).unwrap())
                .collect()
        )
    );
    assert_eq!(
        enum_of("flag"),
        names(
            Flag::ALL
                .iter()
                .map(|l| serde_json::to_value(l).unwrap())
                .collect()
        )
    );
    let mut verdicts = vec![
        serde_json::to_value(Verdict::NothingToMeasure).unwrap(),
        serde_json::to_value(Verdict::Pass).unwrap(),
    ];
    verdicts.extend(
        Flag::ALL
            .iter()
            .map(|f| serde_json::to_value(f.verdict()).unwrap()),
    );
    assert_eq!(enum_of("verdict"), names(verdicts));
}

#[test]
fn ship_output_validates_for_every_exit_code() {
    let ship = |args: &[&str]| {
        let mut a = vec!["ship"];
        a.extend_from_slice(args);
        run(&repo_root(), &a, "", &[])
    };
    let r = ship(&[SKILL, "--trajectories", CLEAN, "--no-report"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = assert_valid("ship.schema.json", &r.stdout);
    assert_eq!(
        (v["version"].clone(), v["ship"].clone()),
        (json!(1), json!(true))
    );

    let r = ship(&[SKILL, "--trajectories", FORCED, "--no-report"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = assert_valid("ship.schema.json", &r.stdout);
    assert_eq!(v["blocking"][0]["id"], "no-force-push");

    let r = ship(&["fixtures/release/no-such-skill"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let v = assert_valid("ship.schema.json", &r.stdout);
    assert!(v["error"]["message"].is_string());

    let empty = tempfile::tempdir().unwrap();
    let r = ship(&[
        SKILL,
        "--trajectories",
        empty.path().to_str().unwrap(),
        "--no-report",
    ]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert_valid("ship.schema.json", &r.stdout);

    // A ship object that claims to ship with a nonzero code is invalid.
    let mut bad: Value = serde_json::from_str(&r.stdout).unwrap();
    bad["ship"] = json!(true);
    assert!(!validator("ship.schema.json").is_valid(&bad));
}

#[test]
fn audit_outputs_over_real_transcripts_validate() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    let db_s = db.to_str().unwrap();
    let corpus = repo_root().join("../shared/realdata/transcripts/claude-code");
    let env = [("SKILLGATE_AUDIT_DB", db_s), ("CI", "1")];
    let r = run(dir.path(), &["ingest", corpus.to_str().unwrap()], "", &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = assert_valid("audit-ingest.schema.json", &r.stdout);
    assert!(v["files"]["toolCallsAdded"].as_u64().unwrap() > 0, "{v}");

    let r = run(dir.path(), &["stats", "--window-days", "0"], "", &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = assert_valid("audit-stats.schema.json", &r.stdout);
    assert!(!v["stats"].as_array().unwrap().is_empty());

    let r = run(dir.path(), &["refine", "--tool", "Bash"], "", &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_valid("audit-refine.schema.json", &r.stdout);

    let r = run(
        dir.path(),
        &["compose", "--goal", "fix the failing test and push"],
        "",
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = assert_valid("audit-compose.schema.json", &r.stdout);
    assert!(!v["proposal"]["chain"].as_array().unwrap().is_empty());
}
