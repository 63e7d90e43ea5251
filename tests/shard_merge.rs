//! Sharded gate runs merged into the exact single-run verdict (docs/shards.md):
//! for every fixture with skills and sessions and for the shared real corpus,
//! `merge` of N = 1, 2, 3 and 7 shards prints byte for byte what one
//! unsharded `gate` prints, with the same exit code; shards that do not
//! belong together are refused with exit 2, naming the file.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(cwd: &Path, args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .current_dir(cwd)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The unsharded output, then the merge of `n` shards, in `format`.
fn compare(cwd: &Path, skills: &str, sessions: &str, n: u32, format: &str, tmp: &Path) {
    let (code, whole, err) = run(
        cwd,
        &[
            "gate",
            skills,
            "--trajectories",
            sessions,
            "--format",
            format,
            "--no-report",
        ],
    );
    assert_ne!(code, 2, "{skills}: {err}");
    let mut files = Vec::new();
    for k in 1..=n {
        let shard = format!("{k}/{n}");
        let (c, out, err) = run(
            cwd,
            &[
                "gate",
                skills,
                "--trajectories",
                sessions,
                "--format",
                "json",
                "--shard",
                &shard,
            ],
        );
        assert_eq!(c, 0, "{skills} shard {shard}: {err}");
        let f = tmp.join(format!("shard-{k}-of-{n}.json"));
        std::fs::write(&f, out).unwrap();
        files.push(f.display().to_string());
    }
    // Any order of the shard files gives the same result.
    files.reverse();
    let mut args = vec!["merge".to_string()];
    args.extend(files);
    args.extend(["--format".into(), format.into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (mc, merged, merr) = run(cwd, &args);
    // JUnit carries the run's own duration: the one field allowed to differ.
    let (whole, merged) = (untimed(&whole), untimed(&merged));
    assert_eq!(mc, code, "{skills} N={n} {format}: {merr}");
    assert!(
        merged == whole,
        "{skills} N={n} {format}: the merge differs from one run\n--- one run\n{}\n--- merge\n{}",
        String::from_utf8_lossy(&whole),
        String::from_utf8_lossy(&merged)
    );
}

/// The bytes with JUnit `time="…"` attributes blanked.
fn untimed(b: &[u8]) -> Vec<u8> {
    let s = String::from_utf8_lossy(b);
    let mut out = String::new();
    let mut rest: &str = &s;
    while let Some(i) = rest.find(" time=\"") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 7..];
        let end = after.find('"').map_or(after.len(), |e| e + 1);
        out.push_str(" time=\"…\"");
        rest = &after[end..];
    }
    out.push_str(rest);
    out.into_bytes()
}

/// Every fixture folder holding a `skills/` tree and a folder of sessions.
fn fixture_sets() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![repo().join("fixtures")];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut subdirs: Vec<PathBuf> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        subdirs.sort();
        let skills = dir.join("skills");
        let sessions = ["transcripts", "sessions"]
            .iter()
            .map(|s| dir.join(s))
            .find(|p| p.is_dir());
        if let (true, Some(sessions)) = (skills.is_dir(), sessions) {
            let rel = |p: &Path| p.strip_prefix(repo()).unwrap().display().to_string();
            out.push((rel(&skills), rel(&sessions)));
        }
        stack.extend(subdirs);
    }
    out.sort();
    out
}

#[test]
fn merged_shards_of_every_fixture_equal_one_run() {
    let sets = fixture_sets();
    assert!(!sets.is_empty());
    let tmp = tempfile::tempdir().unwrap();
    for (skills, sessions) in &sets {
        for n in [1, 2, 3, 7] {
            compare(&repo(), skills, sessions, n, "json", tmp.path());
        }
        for format in ["md", "sarif", "junit"] {
            compare(&repo(), skills, sessions, 3, format, tmp.path());
        }
    }
}

#[test]
fn merged_shards_of_the_real_corpus_equal_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    for n in [1, 2, 3, 7] {
        compare(
            &repo(),
            "../shared/realdata/skills",
            "../shared/realdata/transcripts",
            n,
            "json",
            tmp.path(),
        );
    }
}

#[test]
fn shards_that_do_not_belong_together_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let src = repo().join("fixtures/gate/force-push");
    for sub in ["skills/release-helper", "transcripts"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
        for e in std::fs::read_dir(src.join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), root.join(sub).join(e.file_name())).unwrap();
        }
    }
    let shard = |k: u32, n: u32, name: &str| {
        let (c, out, err) = run(
            root,
            &[
                "gate",
                "skills",
                "--trajectories",
                "transcripts",
                "--format",
                "json",
                "--shard",
                &format!("{k}/{n}"),
            ],
        );
        assert_eq!(c, 0, "{err}");
        std::fs::write(root.join(name), out).unwrap();
    };
    shard(1, 2, "a1.json");
    shard(2, 2, "a2.json");
    shard(1, 3, "b1.json");
    let merge = |files: &[&str]| {
        let mut args = vec!["merge"];
        args.extend_from_slice(files);
        let (c, _, err) = run(root, &args);
        (c, err)
    };
    assert_eq!(
        merge(&["a1.json", "a2.json"]).0,
        1,
        "the force-push fixture fails closed"
    );
    let (c, err) = merge(&["a1.json"]);
    assert_eq!(c, 2);
    assert!(
        err.contains("a1.json") && err.contains("2/2 of this run are missing"),
        "{err}"
    );
    let (c, err) = merge(&["a1.json", "a1.json", "a2.json"]);
    assert_eq!(c, 2);
    assert!(err.contains("given twice"), "{err}");
    let (c, err) = merge(&["a1.json", "b1.json"]);
    assert_eq!(c, 2);
    assert!(
        err.contains("b1.json") && err.contains("split into 3"),
        "{err}"
    );

    // The skill changes between two shard jobs: its hash differs.
    let skill = root.join("skills/release-helper/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(
        &skill,
        format!("{text}\nAlways say which branch you pushed.\n"),
    )
    .unwrap();
    shard(2, 2, "c2.json");
    let (c, err) = merge(&["a1.json", "c2.json"]);
    assert_eq!(c, 2);
    assert!(
        err.contains("c2.json") && err.contains("same SKILL.md"),
        "{err}"
    );
    // ... and a merge after the change refuses the old shards.
    shard(1, 2, "c1.json");
    let (c, err) = merge(&["a1.json", "a2.json"]);
    assert_eq!(c, 2);
    assert!(
        err.contains("changed since the shards were judged"),
        "{err}"
    );
    assert_eq!(merge(&["c1.json", "c2.json"]).0, 1);

    // Not a shard result at all.
    std::fs::write(root.join("junk.json"), "{\"version\": 1}").unwrap();
    let (c, err) = merge(&["junk.json"]);
    assert_eq!(c, 2);
    assert!(
        err.contains("junk.json") && err.contains("not a skillgate shard result"),
        "{err}"
    );
    // --shard only writes JSON shard results.
    let (c, _, err) = run(
        root,
        &[
            "gate",
            "skills",
            "--trajectories",
            "transcripts",
            "--shard",
            "1/2",
        ],
    );
    assert_eq!(c, 2);
    assert!(err.contains("--format json"), "{err}");
}
