//! Issue 19, one test per point (docs/reliability.md): each of these failed
//! before the fix. Every run of the binary has a deadline, so a hang fails
//! the test instead of stalling the suite.

#[path = "gate_common/mod.rs"]
mod gate_common;

use gate_common::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run `skillgate ARGS` in `dir` with `stdin` bytes, killed after `limit`.
fn run_limited(dir: &Path, args: &[&str], stdin: Option<Vec<u8>>, limit: Duration) -> Run {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("skillgate"));
    cmd.current_dir(dir)
        .args(args)
        .env_remove("RUST_LOG")
        .env("HOME", dir)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(bytes) = stdin {
        let mut w = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = w.write_all(&bytes);
        });
    }
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("skillgate {args:?} still running after {limit:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn run10(dir: &Path, args: &[&str]) -> Run {
    run_limited(dir, args, None, Duration::from_secs(20))
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a plain libc call with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

const NO_FORCE: &str = "  - id: no-force-push\n    text: \"You MUST NOT force-push.\"\n    lines: [8, 8]\n    modality: must-not\n    scope: [shared-repo-state]\n    forbid: {git: push, args: [\"--force\"]}\n";

/// A skill `demo` with the force-push rule, and two sessions under the default
/// root: a clean one and a violating one whose text is prefixed by `prefix`.
fn gate_repo(prefix: &[u8]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    write_skill(
        &d.path().join("skills"),
        "demo",
        "You MUST NOT force-push.",
        Some(NO_FORCE),
        false,
    );
    std::fs::create_dir(d.path().join(".git")).unwrap();
    let mut clean = Tx::new(Fmt::Claude);
    clean.load_skill("demo", "x");
    clean.shell("git push", "", false, None);
    clean.end("Done.");
    clean.write(&d.path().join(".planning/patterns/clean.jsonl"));
    let mut bad = Tx::new(Fmt::Claude);
    bad.load_skill("demo", "x");
    bad.shell("git push --force", "", false, None);
    bad.end("Done.");
    let mut bytes = prefix.to_vec();
    bytes.extend_from_slice(bad.text().as_bytes());
    std::fs::write(d.path().join(".planning/patterns/violating.jsonl"), bytes).unwrap();
    d
}

// 1 ------------------------------------------------------------------------

#[test]
fn p01_a_bad_first_line_does_not_turn_a_block_into_a_pass() {
    let deep = format!("{}\n", "[".repeat(100_000));
    let blanks = "\n".repeat(64 * 1024);
    for (what, prefix) in [
        ("a garbage line", b"garbage, not JSON\n".to_vec()),
        ("a 100k-deep array", deep.into_bytes()),
        ("64 KiB of blank lines", blanks.into_bytes()),
    ] {
        let d = gate_repo(&prefix);
        let r = run10(
            d.path(),
            &["gate", "skills/demo", "--format", "json", "--no-report"],
        );
        assert_eq!(r.code, 1, "{what}: {}\n{}", r.stdout, r.stderr);
        let v = r.json();
        assert_eq!(v["verdict"], "fail-closed", "{what}");
        assert_eq!(
            v["trajectories"]["valid"].as_array().unwrap().len(),
            2,
            "{what}"
        );
    }
}

#[test]
fn p01_a_discovered_file_that_cannot_be_decoded_is_refused() {
    let d = gate_repo(b"");
    std::fs::write(
        d.path().join(".planning/patterns/junk.jsonl"),
        "hello\nworld\n",
    )
    .unwrap();
    let r = run10(d.path(), &["gate", "skills/demo", "--no-report"]);
    assert_eq!(r.code, 2, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(".planning/patterns/junk.jsonl:1:"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("could hide a violation"), "{}", r.stderr);
}

// 2 ------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn p02_a_closed_stdout_ends_quietly_by_sigpipe() {
    use std::os::unix::process::ExitStatusExt;
    let force = "fixtures/gate/force-push";
    let skill = format!("{force}/skills/release-helper/SKILL.md");
    let traj = format!("{force}/transcripts/forced.jsonl");
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "gate",
            &skill,
            "--trajectories",
            &traj,
            "--format",
            "json",
            "--no-report",
        ],
        vec![
            "gate",
            &skill,
            "--trajectories",
            &traj,
            "--format",
            "sarif",
            "--no-report",
        ],
        vec!["gate", &skill, "--trajectories", &traj, "--no-report"],
        vec!["extract", &skill, "--format", "json"],
        vec!["trajectory", &traj, "--format", "json"],
        vec![
            "grade",
            "--mode",
            "execution",
            "--contract",
            "fixtures/grade/contract.yaml",
        ],
    ];
    for args in cases {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("skillgate"))
            .current_dir(repo())
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away before any output
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            out.status.signal() == Some(libc::SIGPIPE) || out.status.code().is_some_and(|c| c <= 3),
            "{args:?}: {:?}",
            out.status
        );
    }
}

#[cfg(unix)]
#[test]
fn p02_a_stdout_closed_outright_is_not_a_panic() {
    let bin = assert_cmd::cargo::cargo_bin("skillgate");
    let out = Command::new("sh")
        .current_dir(repo())
        .arg("-c")
        .arg(format!(
            "'{}' extract fixtures/gate/force-push/skills/release-helper --format json >&-",
            bin.display()
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

// 3 ------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn p03_fifos_are_refused_not_waited_on() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    // a skill folder whose lockfile is a FIFO
    std::fs::create_dir_all(dir.join("lock/demo")).unwrap();
    std::fs::write(
        dir.join("lock/demo/SKILL.md"),
        skill_md("demo", "You MUST NOT force-push."),
    )
    .unwrap();
    mkfifo(&dir.join("lock/demo/SKILL.constraints.yaml"));
    mkfifo(&dir.join("SKILL.md"));
    mkfifo(&dir.join("contract.yaml"));
    mkfifo(&dir.join("config.yaml"));
    mkfifo(&dir.join("session.jsonl"));
    std::fs::create_dir(dir.join("run")).unwrap();
    std::fs::write(dir.join("run/findings.jsonl"), "").unwrap();
    mkfifo(&dir.join("run/stack.json"));
    std::fs::create_dir(dir.join("run2")).unwrap();
    std::fs::write(dir.join("run2/findings.jsonl"), "").unwrap();
    mkfifo(&dir.join("run2/evaluation.md"));
    let db = dir.join("audit.db");
    let db = db.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["validate", "SKILL.md"], "SKILL.md"),
        (vec!["extract", "SKILL.md"], "SKILL.md"),
        (
            vec!["gate", "lock/demo", "--trajectories", "."],
            "SKILL.constraints.yaml",
        ),
        (vec!["extract", "lock/demo"], "SKILL.constraints.yaml"),
        (
            vec![
                "grade",
                "--mode",
                "execution",
                "--contract",
                "contract.yaml",
            ],
            "contract.yaml",
        ),
        (vec!["config", "--config", "config.yaml"], "config.yaml"),
        (vec!["ingest", "session.jsonl", "--db", db], "session.jsonl"),
        (vec!["trajectory", "session.jsonl"], "session.jsonl"),
        (vec!["assess", "run", "--dry-run"], "stack.json"),
        (vec!["assess", "run2", "--dry-run"], "evaluation.md"),
    ];
    for (args, named) in cases {
        let r = run10(dir, &args);
        assert_eq!(r.code, 2, "{args:?}: {}\n{}", r.stdout, r.stderr);
        let said = format!("{}{}", r.stdout, r.stderr);
        assert!(said.contains(named), "{args:?} should name {named}: {said}");
    }
}

// 4 ------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn p04_endless_and_huge_inputs_hit_a_limit() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::create_dir_all(dir.join("lock/demo")).unwrap();
    std::fs::write(
        dir.join("lock/demo/SKILL.md"),
        skill_md("demo", "You MUST NOT force-push."),
    )
    .unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("lock/demo/SKILL.constraints.yaml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("contract.yaml")).unwrap();
    std::fs::create_dir(dir.join("run")).unwrap();
    std::fs::write(dir.join("run/findings.jsonl"), "").unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("run/stack.json")).unwrap();
    // a huge (sparse) configuration
    let f = std::fs::File::create(dir.join("big.yaml")).unwrap();
    f.set_len(3 << 30).unwrap();
    for (args, named) in [
        (
            vec!["gate", "lock/demo", "--trajectories", "."],
            "SKILL.constraints.yaml",
        ),
        (
            vec![
                "grade",
                "--mode",
                "execution",
                "--contract",
                "contract.yaml",
            ],
            "contract.yaml",
        ),
        (vec!["assess", "run", "--dry-run"], "stack.json"),
        (vec!["config", "--config", "big.yaml"], "big.yaml"),
    ] {
        let r = run10(dir, &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(named), "{args:?}: {}", r.stderr);
    }
    let r = run10(dir, &["config", "--config", "big.yaml"]);
    assert!(r.stderr.contains("limit"), "{}", r.stderr);
}

#[test]
fn p04_the_pre_push_hook_reads_a_bounded_stdin() {
    let d = tempfile::tempdir().unwrap();
    git2::Repository::init(d.path()).unwrap();
    let zero = "0".repeat(40);
    // deletions only: on their own they pass (nothing to check)
    let line = format!("refs/heads/x {zero} refs/heads/x {zero}\n");
    let small = line.repeat(3).into_bytes();
    let r = run_limited(
        d.path(),
        &[
            "hook",
            "pre-push",
            "origin",
            "https://example.invalid/r.git",
        ],
        Some(small),
        Duration::from_secs(20),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let big = line.repeat((2 << 20) / line.len()).into_bytes();
    let r = run_limited(
        d.path(),
        &[
            "hook",
            "pre-push",
            "origin",
            "https://example.invalid/r.git",
        ],
        Some(big),
        Duration::from_secs(20),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("limit"), "{}", r.stderr);
}

// 5 ------------------------------------------------------------------------

#[test]
fn p05_deep_yaml_is_refused_before_parsing() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let deep = "[".repeat(100_000);
    std::fs::create_dir_all(dir.join("s/demo")).unwrap();
    std::fs::write(
        dir.join("s/demo/SKILL.md"),
        skill_md("demo", "You MUST NOT force-push."),
    )
    .unwrap();
    std::fs::write(
        dir.join("s/demo/SKILL.constraints.yaml"),
        format!("version: 1\nskill: demo\nsource_sha256: x\nconstraints: {deep}\n"),
    )
    .unwrap();
    std::fs::write(dir.join("c.yaml"), format!("trajectories: {deep}\n")).unwrap();
    std::fs::write(dir.join("k.yaml"), format!("criteria: {deep}\n")).unwrap();
    for (args, named) in [
        (vec!["extract", "s/demo"], "SKILL.constraints.yaml:4"),
        (vec!["config", "--config", "c.yaml"], "c.yaml"),
        (
            vec!["grade", "--mode", "execution", "--contract", "k.yaml"],
            "k.yaml:1",
        ),
    ] {
        let t = Instant::now();
        let r = run10(dir, &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(named), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("nest more than 64"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{args:?}: {:?}",
            t.elapsed()
        );
    }
}

// 8 ------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn p08_a_broken_configuration_or_lockfile_is_an_error_not_absent() {
    use std::os::unix::fs::symlink;
    for (what, make) in [("dangling symlink", 0), ("symlink loop", 1), ("folder", 2)] {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        let cfg = dir.join(".skillgate.yaml");
        let lock_dir = dir.join("s/demo");
        std::fs::create_dir_all(&lock_dir).unwrap();
        std::fs::write(
            lock_dir.join("SKILL.md"),
            skill_md("demo", "You MUST NOT force-push."),
        )
        .unwrap();
        let lock = lock_dir.join("SKILL.constraints.yaml");
        for p in [&cfg, &lock] {
            match make {
                0 => symlink(dir.join("missing"), p).unwrap(),
                1 => symlink(p, p).unwrap(),
                _ => std::fs::create_dir(p).unwrap(),
            }
        }
        let r = run10(dir, &["config"]);
        assert_eq!(r.code, 2, "config, {what}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(".skillgate.yaml"), "{what}: {}", r.stderr);
        std::fs::remove_file(&cfg)
            .or_else(|_| std::fs::remove_dir(&cfg))
            .unwrap();
        let r = run10(dir, &["extract", "s/demo"]);
        assert_eq!(r.code, 2, "extract, {what}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("SKILL.constraints.yaml"),
            "{what}: {}",
            r.stderr
        );
        let r = run10(dir, &["gate", "s/demo", "--trajectories", "s"]);
        assert_eq!(r.code, 2, "gate, {what}: {}{}", r.stdout, r.stderr);
    }
}

#[cfg(unix)]
#[test]
fn p08_a_device_named_as_a_transcript_is_an_input_error() {
    let d = tempfile::tempdir().unwrap();
    for dev in ["/dev/null", "/dev/zero"] {
        for args in [
            vec!["trajectory", dev],
            vec![
                "gate",
                "fixtures/gate/force-push/skills/release-helper",
                "--trajectories",
                dev,
                "--no-report",
            ],
        ] {
            let r = run_limited(&repo(), &args, None, Duration::from_secs(20));
            assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
            assert!(r.stderr.contains(dev), "{args:?}: {}", r.stderr);
        }
    }
    drop(d);
}

#[test]
fn p08_extract_without_write_rejects_a_malformed_lockfile() {
    let d = tempfile::tempdir().unwrap();
    write_skill(
        d.path(),
        "demo",
        "You MUST NOT force-push.",
        Some("  - id: a\n    bogus: 1\n"),
        false,
    );
    let r = run10(d.path(), &["extract", "demo"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("SKILL.constraints.yaml:"), "{}", r.stderr);
}

// 9 ------------------------------------------------------------------------

#[test]
fn p09_errors_never_echo_a_secret_file() {
    let d = tempfile::tempdir().unwrap();
    let secret = "OPENAI_API_KEY=sk-proj-a1b2c3d4e5f6a7b8c9d0 DB_PASSWORD=hunter2hunter2";
    std::fs::write(d.path().join(".env"), format!("{secret}\n")).unwrap();
    for args in [
        vec!["grade", "--mode", "execution", "--contract", ".env"],
        vec!["config", "--config", ".env"],
    ] {
        let r = run10(d.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(".env"), "{args:?}: {}", r.stderr);
        for leak in ["sk-proj", "hunter2", "OPENAI_API_KEY"] {
            assert!(
                !r.stderr.contains(leak),
                "{args:?} leaks {leak}: {}",
                r.stderr
            );
        }
    }
}

// 10 -----------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn p10_the_grade_boundary_does_not_escape_with_dotdot_or_symlinks() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::create_dir_all(dir.join("work/out")).unwrap();
    std::fs::write(dir.join("secret.txt"), "root:x:0:0\n").unwrap();
    std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("work/out/link.txt")).unwrap();
    std::fs::copy(
        repo().join("fixtures/grade/forced.jsonl"),
        dir.join("forced.jsonl"),
    )
    .unwrap();
    let contract = r#"boundary:
  evidence: [out]
criteria:
  - id: dotdot
    text: "escapes with .."
    source: {kind: user_explicit, location: "t", original: "t"}
    check: {file_contains: {path: "out/../../secret.txt", pattern: "root"}}
  - id: link
    text: "escapes through a symlink"
    source: {kind: user_explicit, location: "t", original: "t"}
    check: {file_contains: {path: "out/link.txt", pattern: "root"}}
  - id: trajectory
    text: "a trajectory outside"
    source: {kind: user_explicit, location: "t", original: "t"}
    check: {predicate: {trajectory: "out/../../forced.jsonl", forbid: {git: push}}}
"#;
    std::fs::write(dir.join("work/contract.yaml"), contract).unwrap();
    let r = run10(
        &dir.join("work"),
        &[
            "grade",
            "--mode",
            "execution",
            "--contract",
            "contract.yaml",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    for e in v["expectations"].as_array().unwrap() {
        assert!(
            e["passed"].is_null(),
            "{} was judged from outside the boundary: {e}",
            e["id"]
        );
    }
    assert!(!r.stdout.contains("pattern matches"), "{}", r.stdout);
}

// 12 -----------------------------------------------------------------------

#[test]
fn p12_parallel_ingests_into_one_database_all_succeed() {
    let d = tempfile::tempdir().unwrap();
    let db = d.path().join("audit.db");
    let src = repo().join("fixtures/gate/force-push/transcripts");
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let db = db.clone();
            let src = src.clone();
            let home = d.path().to_path_buf();
            std::thread::spawn(move || {
                let out = Command::new(assert_cmd::cargo::cargo_bin("skillgate"))
                    .current_dir(&home)
                    .env("HOME", &home)
                    .args([
                        "ingest",
                        src.to_str().unwrap(),
                        "--db",
                        db.to_str().unwrap(),
                    ])
                    .output()
                    .unwrap();
                (i, out)
            })
        })
        .collect();
    for h in handles {
        let (i, out) = h.join().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "run {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn
        .query_row("SELECT count(*) FROM ingested_files", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 3);
}

#[test]
fn p12_parallel_assess_runs_write_atomically() {
    let d = tempfile::tempdir().unwrap();
    let run = d.path().join("run");
    std::fs::create_dir(&run).unwrap();
    for f in ["findings.jsonl", "evaluation.md", "stack.json"] {
        std::fs::copy(
            repo().join("fixtures/assess/seed-sample").join(f),
            run.join(f),
        )
        .unwrap();
    }
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let run = run.clone();
            std::thread::spawn(move || {
                Command::new(assert_cmd::cargo::cargo_bin("skillgate"))
                    .args(["assess", run.to_str().unwrap()])
                    .env("RUST_LOG", "warn")
                    .output()
                    .unwrap()
            })
        })
        .collect();
    for h in handles {
        let out = h.join().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(
            !stderr.contains("directly"),
            "fell back to a non-atomic write: {stderr}"
        );
    }
    let names: Vec<String> = std::fs::read_dir(&run)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(run.join("assessment.json")).unwrap()).unwrap();
    assert!(v.is_object());
}

// 13 -----------------------------------------------------------------------

#[test]
fn p13_a_byte_order_mark_is_read_past() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    // a BOM before a document start marker: "invalid type: string \"--- …\"" before
    std::fs::write(dir.join("c.yaml"), "\u{feff}---\ntrajectories: [runs]\n").unwrap();
    let r = run10(dir, &["config", "--config", "c.yaml"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let skill = write_skill(
        &dir.join("s"),
        "demo",
        "You MUST NOT force-push.",
        Some(NO_FORCE),
        false,
    );
    let lock = skill.with_file_name("SKILL.constraints.yaml");
    let text = std::fs::read_to_string(&lock).unwrap();
    std::fs::write(&lock, format!("\u{feff}---\n{text}")).unwrap();
    let r = run10(dir, &["extract", "s/demo", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::write(
        dir.join("k.yaml"),
        "\u{feff}---\ncriteria:\n  - id: a\n    text: t\n    source: {kind: user_explicit, location: t, original: t}\n    check: {manual: x}\n",
    )
    .unwrap();
    let r = run10(
        dir,
        &["grade", "--mode", "execution", "--contract", "k.yaml"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn p13_nan_in_one_object_json_transcripts_is_read_as_null() {
    let d = tempfile::tempdir().unwrap();
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realdata/transcripts");
    let cases: Vec<PathBuf> = vec![
        real.join("swe-agent/function_calling_simple.traj"),
        real.join("openhands/basic_gui_mode.json"),
        real.join("inspect-ai/2025-05-12T20-27-36-04-00_browser.json"),
    ];
    for src in cases {
        if !src.exists() {
            panic!("missing real file {}", src.display());
        }
        let text = std::fs::read_to_string(&src).unwrap();
        // Python's json.dump default: a float field that is NaN
        let with_nan = match text.find('{') {
            Some(i) => format!("{}{{\"cost_nan\": NaN, {}", &text[..i], &text[i + 1..]),
            None => unreachable!(),
        };
        let p = d.path().join(src.file_name().unwrap());
        std::fs::write(&p, with_nan).unwrap();
        let before = run10(
            &repo(),
            &["trajectory", src.to_str().unwrap(), "--format", "json"],
        );
        let after = run10(
            &repo(),
            &["trajectory", p.to_str().unwrap(), "--format", "json"],
        );
        assert_eq!(before.code, 0, "{}", before.stderr);
        assert_eq!(after.code, 0, "{}: {}", p.display(), after.stderr);
        let events = |r: &Run| {
            serde_json::from_str::<serde_json::Value>(&r.stdout).unwrap()[0]["events"]
                .as_array()
                .map_or(0, Vec::len)
        };
        assert_eq!(events(&before), events(&after), "{}", p.display());
    }
}

#[test]
fn p13_the_lockfile_writer_reads_its_own_file() {
    let d = tempfile::tempdir().unwrap();
    let body = "You MUST NOT force-push \u{7f} or \u{85} or \u{9f} or \u{fffe} here.";
    write_skill(d.path(), "demo", body, None, false);
    let r = run10(d.path(), &["extract", "demo", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lock = std::fs::read_to_string(d.path().join("demo/SKILL.constraints.yaml")).unwrap();
    assert!(
        lock.contains("\\u007F") && lock.contains("\\uFFFE"),
        "{lock}"
    );
    let r = run10(d.path(), &["extract", "demo", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run10(
        d.path(),
        &["gate", "demo", "--trajectories", "demo", "--no-report"],
    );
    assert_ne!(r.code, 2, "{}", r.stderr);
}
