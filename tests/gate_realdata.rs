//! The gate over the real corpus: every real skill against every real
//! transcript, through the binary. Most transcripts load none of these
//! skills; the sessions under `claude-code-skill-loads/` load superpowers
//! skills, which are judged.

mod gate_common;

use gate_common::*;

const ARGS: [&str; 7] = [
    "gate",
    "../shared/realdata/skills",
    "--trajectories",
    "../shared/realdata/transcripts",
    "--format",
    "json",
    "--no-report",
];

#[test]
fn real_skills_over_real_transcripts_report_every_discard_with_a_reason() {
    let r = run_in(&repo(), &ARGS);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v = r.json();
    let skills = v.as_array().expect("an array: several skills");
    let expected = walk_count(&repo().join("../shared/realdata/skills"));
    assert_eq!(skills.len(), expected);
    for s in skills {
        let t = &s["trajectories"];
        let seen = t["valid"].as_array().unwrap().len() + t["discarded"].as_array().unwrap().len();
        assert!(
            seen >= 20,
            "{}: {seen} trajectories considered",
            s["skill"]["name"]
        );
        for d in t["discarded"].as_array().unwrap() {
            assert!(
                d["path"]
                    .as_str()
                    .unwrap()
                    .starts_with("../shared/realdata/transcripts/"),
                "{d}"
            );
            assert!(!d["reason"].as_str().unwrap().is_empty(), "{d}");
        }
        for key in [
            "skill",
            "verdict",
            "flags",
            "numbers",
            "trajectories",
            "constraints",
            "proposals",
        ] {
            assert!(s.get(key).is_some(), "missing {key}");
        }
    }
    // Skills no session loaded have nothing to measure; the superpowers
    // skills loaded by the real skill-load sessions are judged.
    assert!(matches!(r.code, 0 | 1), "{}", r.stderr);
    let judged: Vec<&str> = skills
        .iter()
        .filter(|s| !s["trajectories"]["valid"].as_array().unwrap().is_empty())
        .map(|s| s["skill"]["name"].as_str().unwrap())
        .collect();
    for loaded in [
        "brainstorming",
        "writing-plans",
        "subagent-driven-development",
    ] {
        assert!(judged.contains(&loaded), "{loaded} not judged: {judged:?}");
    }
    for s in skills {
        if s["trajectories"]["valid"].as_array().unwrap().is_empty() {
            assert!(
                s["constraints"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|c| c["label"] == "untested" || c["label"] == "unverifiable"),
                "{}",
                s["skill"]["name"]
            );
        }
    }
    // Most real skills are loaded by no real transcript: nothing to measure,
    // and the verdict says so; the superpowers skills of the eight
    // claude-code-skill-loads sessions are measured. The exit is the worst.
    let mut worst = 0;
    for s in skills {
        let measured = !s["trajectories"]["valid"].as_array().unwrap().is_empty();
        let code = s["exit_code"].as_u64().unwrap();
        if measured {
            assert_ne!(s["verdict"], "nothing-to-measure", "{}", s["skill"]);
            assert_ne!(code, 3);
        } else {
            assert_eq!(s["verdict"], "nothing-to-measure", "{}", s["skill"]);
            assert_eq!(code, 3);
            assert_eq!(s["flags"], serde_json::json!([]));
        }
        let rank = |c: u64| match c {
            0 => 0,
            3 => 1,
            _ => 2,
        };
        if rank(code) > rank(worst) {
            worst = code;
        }
    }
    assert_eq!(r.code as u64, worst, "{}", r.stderr);
}

/// `n` sessions in `DIR/runs`, Claude Code and Codex in turn: `load`
/// loads skills into session `i`, then every third commits, every fifth
/// force-pushes, every fourth runs the tests and every sixth builds.
fn write_sessions(dir: &std::path::Path, n: usize, load: impl Fn(usize, &mut Tx)) {
    for i in 0..n {
        let fmt = if i % 2 == 0 { Fmt::Claude } else { Fmt::Codex };
        let mut t = Tx::new(fmt);
        load(i, &mut t);
        for (every, cmd) in [
            (3, "git commit -m x"),
            (5, "git push -f"),
            (4, "cargo test"),
            (6, "cargo build"),
        ] {
            if i % every == 0 {
                t.shell(cmd, "", false, None);
            }
        }
        t.end("Done.");
        t.write(&dir.join(format!("runs/{i:02}.jsonl")));
    }
}

fn walk_count(dir: &std::path::Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            n += walk_count(&p);
        } else if p.file_name().is_some_and(|f| f == "SKILL.md") {
            n += 1;
        }
    }
    n
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let one = run_env(&repo(), &ARGS, &[("RAYON_NUM_THREADS", "1")]);
    let four = run_env(&repo(), &ARGS, &[("RAYON_NUM_THREADS", "4")]);
    assert_eq!(one.code, four.code);
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, four.stdout);
}

#[test]
fn labels_do_not_depend_on_the_thread_count_over_many_trajectories() {
    let d = tempfile::tempdir().unwrap();
    let rules = "  - id: no-force-push\n    text: \"x\"\n    lines: [8, 8]\n    modality: must-not\n    scope: [shared-repo-state]\n    forbid: {git: push, args: [\"--force\"]}\n  - id: commit-review\n    text: \"x\"\n    lines: [8, 8]\n    modality: must\n    when: {git: commit}\n    require: {command: \"cargo test*\"}\n";
    write_skill(
        &d.path().join("skills"),
        "demo",
        "Rules.",
        Some(rules),
        false,
    );
    write_sessions(d.path(), 40, |i, t| {
        if i % 7 != 0 {
            t.load_skill("demo", "x");
        }
    });
    let args = [
        "gate",
        "skills/demo",
        "--trajectories",
        "runs",
        "--format",
        "json",
        "--no-report",
    ];
    let one = run_env(d.path(), &args, &[("RAYON_NUM_THREADS", "1")]);
    let four = run_env(d.path(), &args, &[("RAYON_NUM_THREADS", "4")]);
    assert_eq!(one.code, 1, "{}", one.stderr);
    assert_eq!(one.stdout, four.stdout);
    let v = one.json();
    assert_eq!(v["trajectories"]["valid"].as_array().unwrap().len(), 34);
    assert_eq!(v["trajectories"]["discarded"].as_array().unwrap().len(), 6);
}

/// Skills judged in one run give each the verdict it gets alone, whether
/// they share their lists to the end (a copy loaded wherever the skill
/// is), part ways when one is not loaded in a file (a copy loaded in fewer
/// files), or when the same number of rules label a file differently.
#[test]
fn skills_judged_together_give_each_its_verdict_alone() {
    let d = tempfile::tempdir().unwrap();
    let rule = |id: &str, need: &str| {
        format!("  - id: {id}\n    text: \"x\"\n    lines: [8, 8]\n    modality: must\n    when: {{git: commit}}\n    require: {{command: \"{need}\"}}\n")
    };
    let force = "  - id: no-force-push\n    text: \"x\"\n    lines: [8, 8]\n    modality: must-not\n    scope: [shared-repo-state]\n    forbid: {git: push, args: [\"--force\"]}\n";
    let same = format!("{force}{}", rule("commit-review", "cargo test*"));
    let other = format!("{force}{}", rule("commit-review", "cargo build*"));
    let skills = [
        ("demo", &same),
        ("twin", &same),
        ("copy", &same),
        ("other", &other),
    ];
    for (name, rules) in skills {
        write_skill(&d.path().join("skills"), name, "Rules.", Some(rules), false);
    }
    write_sessions(d.path(), 60, |i, t| {
        if i % 7 != 0 {
            for name in ["demo", "twin", "other"] {
                t.load_skill(name, "x");
            }
            if i % 5 != 1 {
                t.load_skill("copy", "x");
            }
        }
    });
    let args = |skills: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = vec!["gate".into()];
        a.extend(skills.iter().map(|s| format!("skills/{s}")));
        a.extend(["--trajectories", "runs", "--format", "json", "--no-report"].map(String::from));
        a
    };
    let names: Vec<&str> = skills.iter().map(|(n, _)| *n).collect();
    for threads in ["1", "2"] {
        let env = [("RAYON_NUM_THREADS", threads)];
        let all = args(&names);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let together = run_env(d.path(), &all, &env);
        assert_eq!(together.code, 1, "{}", together.stderr);
        let together = together.json();
        let together = together.as_array().expect("one object per skill");
        assert_eq!(together.len(), names.len());
        let of = |name: &str| {
            together
                .iter()
                .find(|v| v["skill"]["name"] == name)
                .unwrap_or_else(|| panic!("{name} in the output"))
        };
        for name in &names {
            let one = args(&[name]);
            let one: Vec<&str> = one.iter().map(String::as_str).collect();
            let alone = run_env(d.path(), &one, &env);
            assert_eq!(*of(name), alone.json(), "{name}, {threads} thread(s)");
        }
        let valid = |name: &str| of(name)["trajectories"]["valid"].as_array().unwrap().len();
        assert_eq!(
            (valid("demo"), valid("copy")),
            (51, 41),
            "copy is loaded in fewer files"
        );
        assert_ne!(of("demo")["constraints"][1], of("other")["constraints"][1]);
    }
}
