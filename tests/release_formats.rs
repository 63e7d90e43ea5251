//! `gate --format sarif|github|junit` through the binary: SARIF validated
//! against the official SARIF 2.1.0 schema (../shared/schemas), annotation
//! escaping and the per-level cap, the job summary, JUnit cases, and one
//! snapshot per format for the demo's violating session.

mod release_common;

use release_common::*;
use serde_json::Value;
use std::path::Path;

const SKILL: &str = "fixtures/release/demo/skills/tidy-branches";
const FORCED: &str = "fixtures/release/demo/sessions/forced.jsonl";
const CLEAN: &str = "fixtures/release/demo/sessions/clean.jsonl";

fn gate(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut a = vec!["gate"];
    a.extend_from_slice(args);
    a.push("--no-report");
    run(&repo_root(), &a, "", env)
}

/// The official OASIS SARIF 2.1.0 schema, as shared beside the project.
fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo_root().join("../shared/schemas/sarif-2.1.0.json"))
        .expect("../shared/schemas/sarif-2.1.0.json (the official SARIF schema)");
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn assert_valid_sarif(text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let validator = validator();
    let errors: Vec<String> = validator
        .iter_errors(&v)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_sarif_rules_the_schema_cannot_express(&v);
    v
}

/// SARIF rules the JSON schema cannot check: §3.27.10 (a `kind` other than
/// `fail` has level `none` or none at all), GitHub's 1,000 related
/// locations per result, bounded messages, absolute documentation URIs.
fn assert_sarif_rules_the_schema_cannot_express(v: &Value) {
    let run = &v["runs"][0];
    assert!(run["tool"]["driver"]["informationUri"]
        .as_str()
        .is_some_and(|u| u.starts_with("https://")));
    for rule in run["tool"]["driver"]["rules"].as_array().unwrap() {
        assert!(
            rule["helpUri"]
                .as_str()
                .is_some_and(|u| u.starts_with("https://") && u.contains("/docs/")),
            "{rule}"
        );
    }
    for r in run["results"].as_array().unwrap() {
        let kind = r["kind"].as_str().unwrap_or("fail");
        if kind != "fail" {
            assert!(
                r.get("level").is_none() || r["level"] == "none",
                "§3.27.10: kind {kind} with level {}",
                r["level"]
            );
        }
        let related = r["relatedLocations"].as_array().map_or(0, Vec::len);
        assert!(related <= 1000, "{related} related locations");
        let text = r["message"]["text"].as_str().unwrap();
        assert!(text.chars().count() <= 4000, "{} characters", text.len());
    }
}

#[test]
fn the_vendored_schema_rejects_what_sarif_forbids() {
    let validator = validator();
    let ok: Value = serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [
        {"message": {"text": "m"}, "level": "error", "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a/b.md"}, "region": {"startLine": 1}}}]}
    ]}]});
    assert!(validator.is_valid(&ok));
    let bad = |patch: &dyn Fn(&mut Value)| {
        let mut v = ok.clone();
        patch(&mut v);
        !validator.is_valid(&v)
    };
    assert!(bad(&|v| v["version"] = "2.0.0".into()));
    assert!(bad(
        &|v| v["runs"][0]["results"][0]["level"] = "fatal".into()
    ));
    assert!(bad(&|v| v["runs"][0]["results"][0]["locations"][0]
        ["physicalLocation"]["region"]["startLine"] =
        0.into()));
    assert!(bad(
        &|v| v["runs"][0]["results"][0]["message"] = serde_json::json!({})
    ));
    assert!(bad(
        &|v| v["runs"][0]["tool"]["driver"] = serde_json::json!({"version": "1"})
    ));
    assert!(bad(
        &|v| v["runs"][0]["results"][0]["invented"] = true.into()
    ));
    assert!(bad(&|v| {
        v.as_object_mut().unwrap().remove("runs");
    }));
}

#[test]
fn sarif_of_a_fail_closed_run_validates_and_sits_on_skill_md_lines() {
    let r = gate(&[SKILL, "--trajectories", FORCED, "--format", "sarif"], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = assert_valid_sarif(&r.stdout);
    assert_eq!(v["version"], "2.1.0");
    let run = &v["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "skillgate");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 6);
    for rule in rules {
        for k in ["shortDescription", "fullDescription", "help"] {
            assert!(
                rule[k]["text"].as_str().is_some_and(|t| !t.is_empty()),
                "{rule}"
            );
        }
    }
    let results = run["results"].as_array().unwrap();
    let by_rule = |id: &str| results.iter().find(|x| x["ruleId"] == id).cloned();
    let force = by_rule("tidy-branches/no-force-push").unwrap();
    assert_eq!(force["level"], "error");
    let loc = &force["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], format!("{SKILL}/SKILL.md"));
    assert_eq!(loc["region"]["startLine"], 11);
    assert_eq!(
        force["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        FORCED
    );
    assert_eq!(
        force["relatedLocations"][0]["physicalLocation"]["region"]["startLine"],
        7
    );
    assert!(force["message"]["text"]
        .as_str()
        .unwrap()
        .contains(&format!("Evidence: {FORCED} event 3 (line 7)")));
    let index = force["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "tidy-branches/no-force-push");
    assert_eq!(
        by_rule("tidy-branches/no-tag-deletes").unwrap()["level"],
        "warning"
    );
    // Unverifiable without scope: for a person to review, so level none.
    let review = by_rule("tidy-branches/readable-changelog").unwrap();
    assert_eq!(
        (review["kind"].as_str(), review["level"].as_str()),
        (Some("review"), Some("none"))
    );
    assert!(
        by_rule("tidy-branches/run-tests-first").is_none(),
        "exercised rules have no result"
    );
    assert!(
        by_rule("tidy-branches/announce-merge").is_none(),
        "untested rules have no result"
    );
    // Locations only: no session content.
    assert!(!r.stdout.contains("Tidy the release branch"));
    assert!(!r.stdout.contains("Deleted tag"));
}

#[test]
fn sarif_with_a_waiver_nothing_to_measure_and_an_empty_run_validates() {
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("waive.yaml");
    std::fs::write(
        &cfg,
        "waivers:\n  - id: no-force-push\n    reason: \"Asked for by the user, see the session.\"\n",
    )
    .unwrap();
    let r = gate(
        &[
            SKILL,
            "--trajectories",
            FORCED,
            "--format",
            "sarif",
            "--config",
            cfg.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = assert_valid_sarif(&r.stdout);
    let results = v["runs"][0]["results"].as_array().unwrap();
    let waived = results
        .iter()
        .find(|x| x["ruleId"] == "tidy-branches/no-force-push")
        .unwrap();
    assert_eq!(waived["level"], "note");
    assert_eq!(waived["suppressions"][0]["kind"], "external");
    assert_eq!(
        waived["suppressions"][0]["justification"],
        "Asked for by the user, see the session."
    );

    let empty = d.path().join("none");
    std::fs::create_dir(&empty).unwrap();
    let r = gate(
        &[
            SKILL,
            "--trajectories",
            empty.to_str().unwrap(),
            "--format",
            "sarif",
        ],
        &[],
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v = assert_valid_sarif(&r.stdout);
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:#?}");
    assert_eq!(results[0]["ruleId"], "skillgate/nothing-to-measure");

    let t = TestRepo::new();
    t.write("README.md", "x\n");
    t.commit("c");
    let r = run(
        &t.work(),
        &["gate", "--changed-since", "HEAD", "--format", "sarif"],
        "",
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = assert_valid_sarif(&r.stdout);
    assert_eq!(v["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn github_annotations_escape_messages_and_properties() {
    let d = tempfile::tempdir().unwrap();
    let folder = d.path().join("odd,dir:1");
    std::fs::create_dir_all(&folder).unwrap();
    let md = "---\nname: odd\ndescription: A skill in an awkward folder.\n---\n\n# odd\n\nNever run `rm -rf` on 100% of files: ask, first.\n";
    std::fs::write(folder.join("SKILL.md"), md).unwrap();
    let lock = "version: 1\nskill: odd\nsource_sha256: \"0\"\nconstraints:\n  - id: no-rm\n    text: \"Never run `rm -rf` on 100% of files:\\nask, first.\"\n    lines: [8, 8]\n    modality: must-not\n    scope: [shared-repo-state]\n    forbid: {command: \"rm -rf*\"}\n";
    std::fs::write(folder.join("SKILL.constraints.yaml"), lock).unwrap();
    let session = d.path().join("s.jsonl");
    let text = fixture("sessions/clean.jsonl")
        .replace("tidy-branches", "odd")
        .replace("git push origin main", "rm -rf build");
    std::fs::write(&session, text).unwrap();
    let r = run(
        d.path(),
        &[
            "gate",
            "odd,dir:1",
            "--trajectories",
            "s.jsonl",
            "--format",
            "github",
            "--no-report",
        ],
        "",
        &[],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let first = r.stdout.lines().next().unwrap();
    assert!(
        first.starts_with("::error file=odd%2Cdir%3A1/SKILL.md,line=8,endLine=8,title=odd%3A no-rm (violated%2C fail-closed)::no-rm is violated"),
        "{first}"
    );
    assert!(
        first.contains("Rule: \"Never run `rm -rf` on 100%25 of files:%0Aask, first.\""),
        "{first}"
    );
    assert!(
        first.contains("Evidence: s.jsonl event 3 (line 7)"),
        "{first}"
    );
    assert!(!first.contains('\r'));
}

#[test]
fn github_format_caps_each_level_and_appends_the_job_summary() {
    let d = tempfile::tempdir().unwrap();
    let folder = d.path().join("many");
    std::fs::create_dir_all(&folder).unwrap();
    let mut body = String::new();
    let mut lock = String::from("version: 1\nskill: many\nsource_sha256: \"0\"\nconstraints:\n");
    for i in 0..12 {
        body.push_str(&format!("Never push {i}.\n"));
        lock.push_str(&format!(
            "  - id: rule-{i:02}\n    text: \"Never push {i}.\"\n    lines: [{l}, {l}]\n    modality: must-not\n    scope: [shared-repo-state]\n    forbid: {{git: push}}\n",
            l = 8 + i
        ));
    }
    let md = format!("---\nname: many\ndescription: Many rules.\n---\n\n# many\n\n{body}");
    std::fs::write(folder.join("SKILL.md"), md).unwrap();
    std::fs::write(folder.join("SKILL.constraints.yaml"), lock).unwrap();
    let session = d.path().join("s.jsonl");
    std::fs::write(
        &session,
        fixture("sessions/clean.jsonl").replace("tidy-branches", "many"),
    )
    .unwrap();
    let summary = d.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let env = [("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())];
    let r = run(
        d.path(),
        &[
            "gate",
            "many",
            "--trajectories",
            "s.jsonl",
            "--format",
            "github",
            "--no-report",
        ],
        "",
        &env,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let errors: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error "))
        .collect();
    assert_eq!(errors.len(), 10, "{}", r.stdout);
    assert!(errors[8].contains("rule-08"), "{}", errors[8]);
    assert_eq!(
        errors[9],
        "::error title=skillgate::3 more error annotations are not shown (GitHub shows 10 per level and step): see the job summary or the SARIF / JSON output"
    );
    let s = std::fs::read_to_string(&summary).unwrap();
    assert!(
        s.starts_with("earlier step\n### skillgate — fail-closed\n"),
        "{s}"
    );
    assert!(s.contains("| `many` | **fail-closed** |"), "{s}");
    assert!(
        s.contains("- **blocking** `rule-11` — violated (fail-closed)"),
        "{s}"
    );
}

#[test]
fn junit_has_one_case_per_constraint_and_failures_for_violated_and_scoped_ambiguous() {
    let r = gate(&[SKILL, "--trajectories", FORCED, "--format", "junit"], &[]);
    assert_eq!(r.code, 1);
    let x = &r.stdout;
    assert!(x.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"skillgate\" tests=\"6\" failures=\"1\" errors=\"0\" time=\""), "{x}");
    assert_eq!(x.matches("<testcase ").count(), 6);
    assert!(x.contains("<testcase name=\"no-force-push\" classname=\"tidy-branches\" time=\"0\">"));
    assert!(x.contains("<failure message=\"violated (fail-closed)"));
    // A compliance gap does not block: a warning in system-out, not a failure.
    assert!(!x.contains("<failure message=\"violated (compliance-gap)"));
    assert!(
        x.contains("<system-out>WARNING: violated (compliance-gap)"),
        "{x}"
    );
    assert!(
        x.contains("\nRule at fixtures/release/demo/skills/tidy-branches/SKILL.md:13: "),
        "{x}"
    );

    // A scope-tagged rule that fires but cannot be decided: ambiguous → failure.
    let d = tempfile::tempdir().unwrap();
    let folder = d.path().join("amb");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("SKILL.md"),
        "---\nname: amb\ndescription: d\n---\n\n# amb\n\nBefore pushing, say so.\nBefore pushing, tell the reviewer.\n",
    )
    .unwrap();
    std::fs::write(
        folder.join("SKILL.constraints.yaml"),
        "version: 1\nskill: amb\nsource_sha256: \"0\"\nconstraints:\n  - id: say-so\n    text: \"Before pushing, say so.\"\n    lines: [8, 8]\n    modality: must\n    scope: [shared-repo-state]\n    when: {git: push}\n  - id: tell-reviewer\n    text: \"Before pushing, tell the reviewer.\"\n    lines: [9, 9]\n    modality: must\n    scope: [shared-repo-state]\n    when: {git: push}\n    manual: \"Said in the conversation; reviewers read the listed sessions.\"\n",
    )
    .unwrap();
    std::fs::write(
        d.path().join("s.jsonl"),
        fixture("sessions/clean.jsonl").replace("tidy-branches", "amb"),
    )
    .unwrap();
    let r = run(
        d.path(),
        &[
            "gate",
            "amb",
            "--trajectories",
            "s.jsonl",
            "--format",
            "junit",
            "--no-report",
        ],
        "",
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("failures=\"1\""), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("<failure message=\"ambiguous (fail-closed)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("<system-out>WARNING: ambiguous (needs-review)"),
        "{}",
        r.stdout
    );
}

/// JUnit with the run's wall time replaced (it differs per run).
fn without_time(x: &str) -> String {
    regex::Regex::new(r#"time="[0-9.]+""#)
        .unwrap()
        .replace_all(x, "time=\"[time]\"")
        .into_owned()
}

fn without_version(mut v: Value) -> Value {
    v["runs"][0]["tool"]["driver"]["version"] = "[version]".into();
    v["runs"][0]["tool"]["driver"]["semanticVersion"] = "[version]".into();
    v
}

#[test]
fn snapshots_of_each_ci_format() {
    let sarif = gate(&[SKILL, "--trajectories", FORCED, "--format", "sarif"], &[]);
    insta::assert_json_snapshot!(
        "sarif_forced",
        without_version(serde_json::from_str(&sarif.stdout).unwrap())
    );
    let d = tempfile::tempdir().unwrap();
    let summary = d.path().join("summary.md");
    let github = gate(
        &[SKILL, "--trajectories", FORCED, "--format", "github"],
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
    );
    insta::assert_snapshot!("github_forced", github.stdout);
    insta::assert_snapshot!(
        "github_summary_forced",
        std::fs::read_to_string(&summary).unwrap()
    );
    let junit = gate(&[SKILL, "--trajectories", FORCED, "--format", "junit"], &[]);
    insta::assert_snapshot!("junit_forced", without_time(&junit.stdout));
    assert!(Path::new(&repo_root()).join(SKILL).is_dir());
    let clean = gate(&[SKILL, "--trajectories", CLEAN, "--format", "junit"], &[]);
    assert_eq!(clean.code, 0);
    assert!(clean.stdout.contains("failures=\"0\""), "{}", clean.stdout);
}

/// `xmllint --schema junit-10.xsd` on the output; `None` (and a printed
/// reason) when xmllint is missing.
fn xmllint(xml: &str) -> Option<(bool, String)> {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("report.xml");
    std::fs::write(&f, xml).unwrap();
    let out = std::process::Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(repo_root().join("fixtures/release/junit/junit-10.xsd"))
        .arg(&f)
        .output();
    match out {
        Ok(o) => Some((
            o.status.success(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )),
        Err(e) => {
            eprintln!("SKIPPED: xmllint is not installed ({e}); install libxml2-utils (.ci/run does) to validate JUnit against junit-10.xsd");
            None
        }
    }
}

#[test]
fn junit_validates_against_the_jenkins_xsd_and_keeps_newlines_in_attributes() {
    // A waiver reason with a newline (read back as a space without &#10;).
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("waive.yaml");
    std::fs::write(
        &cfg,
        "waivers:\n  - id: no-force-push\n    reason: \"line one\\nline two\"\n",
    )
    .unwrap();
    let waived = gate(
        &[
            SKILL,
            "--trajectories",
            FORCED,
            "--format",
            "junit",
            "--config",
            cfg.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(waived.code, 0, "{}", waived.stderr);
    assert!(
        waived.stdout.contains("line one&#10;line two"),
        "{}",
        waived.stdout
    );
    // A passing gate reports no failed test.
    assert!(
        waived.stdout.contains("failures=\"0\""),
        "{}",
        waived.stdout
    );

    let empty = d.path().join("none");
    std::fs::create_dir(&empty).unwrap();
    let outputs = [
        gate(&[SKILL, "--trajectories", FORCED, "--format", "junit"], &[]).stdout,
        gate(&[SKILL, "--trajectories", CLEAN, "--format", "junit"], &[]).stdout,
        gate(
            &[
                SKILL,
                "--trajectories",
                empty.to_str().unwrap(),
                "--format",
                "junit",
            ],
            &[],
        )
        .stdout,
        waived.stdout,
        skillgate::render::Renderer::render(&skillgate::render::junit::Junit::default(), &[]),
    ];
    // The schema itself rejects what the old output had.
    let old = outputs[0].replace(
        "<testsuites name=\"skillgate\"",
        "<testsuites skipped=\"1\" name=\"skillgate\"",
    );
    let Some((ok, _)) = xmllint(&old) else {
        return;
    };
    assert!(!ok, "the XSD must reject testsuites@skipped");
    for x in &outputs {
        let (ok, err) = xmllint(x).unwrap();
        assert!(ok, "{err}\n{x}");
    }
}

#[test]
fn sarif_help_is_stable_across_runs_and_results_are_capped() {
    let forced = assert_valid_sarif(
        &gate(&[SKILL, "--trajectories", FORCED, "--format", "sarif"], &[]).stdout,
    );
    let clean = assert_valid_sarif(
        &gate(&[SKILL, "--trajectories", CLEAN, "--format", "sarif"], &[]).stdout,
    );
    let rules = |v: &Value| v["runs"][0]["tool"]["driver"]["rules"].clone();
    assert_eq!(
        rules(&forced),
        rules(&clean),
        "rule text must not depend on the run"
    );

    // 1,200 cited locations and a huge rule: capped for GitHub.
    let options = skillgate::gate::GateOptions {
        trajectories: vec![std::path::PathBuf::from(FORCED)],
        cwd: repo_root(),
    };
    let mut verdicts = skillgate::gate::run_gate(
        &[repo_root().join(SKILL)],
        &options,
        &skillgate::config::Config::default(),
    )
    .unwrap();
    let c = verdicts[0]
        .constraints
        .iter_mut()
        .find(|c| c.id == "no-force-push")
        .unwrap();
    let one = c.evidence.get(0).unwrap();
    c.evidence = (0..1200)
        .map(|i| {
            let mut e = one.clone();
            e.event = Some(i);
            e.trajectory = format!("{}-{i}-{}", one.trajectory, "x".repeat(40));
            e
        })
        .collect();
    let v = skillgate::render::sarif::sarif_value(&verdicts);
    let result = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "tidy-branches/no-force-push")
        .unwrap();
    assert_eq!(result["relatedLocations"].as_array().unwrap().len(), 1000);
    let text = result["message"]["text"].as_str().unwrap();
    assert!(text.contains("(+1190 more in the JSON report)"), "{text}");
    assert!(text.chars().count() <= 4000);
    assert_sarif_rules_the_schema_cannot_express(&v);
}
