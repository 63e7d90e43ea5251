//! `skillgate review` through a real pseudo-terminal (rexpect), and its
//! non-interactive faces: `--list` exit codes and the refusal without a
//! terminal. The fixture (fixtures/review) has five rules of the shapes the
//! review sorts: a scope-tagged forbid a session broke, two scope-tagged
//! rules with no predicate, a checked rule without scope, a speech rule.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixture() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_path_buf();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/review");
    copy_dir(&src, &root);
    let skill_md = root.join("skills/release-helper/SKILL.md");
    let sha = skillgate::parse::Skill::read(&skill_md).unwrap().sha256;
    let template = std::fs::read_to_string(root.join("lockfile.template.yaml")).unwrap();
    std::fs::write(
        root.join("skills/release-helper/SKILL.constraints.yaml"),
        template.replace("SHA", &sha),
    )
    .unwrap();
    (tmp, root)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

fn list(root: &Path) -> (i32, String) {
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .current_dir(root)
        .args([
            "review",
            "--list",
            "skills",
            "--trajectories",
            "transcripts",
        ])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn lockfile(root: &Path) -> String {
    std::fs::read_to_string(root.join("skills/release-helper/SKILL.constraints.yaml")).unwrap()
}

#[test]
fn list_shows_undecided_rules_blocking_first_and_exits_1() {
    let (_t, root) = fixture();
    let (code, out) = list(&root);
    assert_eq!(code, 1, "{out}");
    let ids: Vec<&str> = out
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().nth(1))
        .take(5)
        .collect();
    assert_eq!(
        ids,
        vec![
            "no-force-push",
            "confirm-branch-delete",
            "no-secrets-in-memory",
            "run-tests-first",
            "say-shipping"
        ],
        "{out}"
    );
    assert!(out.contains("undecided: 5 rule(s), 3 would block"), "{out}");
    // Listing never writes.
    assert!(!root.join(".skillgate.yaml").exists());
}

#[test]
fn without_a_terminal_review_refuses_and_says_what_to_do() {
    let (_t, root) = fixture();
    let before = lockfile(&root);
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .current_dir(&root)
        .args(["review", "skills", "--trajectories", "transcripts"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(err.contains("skillgate review --list"), "{err}");
    assert_eq!(lockfile(&root), before, "nothing written");
}

#[cfg(unix)]
mod pty {
    use super::*;
    use rexpect::session::{spawn_command, PtySession};

    fn spawn(root: &Path) -> PtySession {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_skillgate"));
        cmd.current_dir(root)
            .args(["review", "skills", "--trajectories", "transcripts"])
            .env("NO_COLOR", "1")
            .env("CLICOLOR", "0")
            .env("TERM", "dumb");
        spawn_command(cmd, Some(30_000)).unwrap()
    }

    fn key(p: &mut PtySession, k: &str) {
        p.send(k).unwrap();
        p.flush().unwrap();
    }

    fn line(p: &mut PtySession, text: &str) {
        p.send(text).unwrap();
        p.send("\r").unwrap();
        p.flush().unwrap();
    }

    #[test]
    fn review_waive_edit_manual_accept_not_a_rule_quit_and_resume() {
        let (_t, root) = fixture();

        // First run: waive the violated rule, fix a typed predicate after a
        // grammar error, then quit.
        let mut p = spawn(&root);
        p.exp_string("[1/5]").unwrap();
        p.exp_string("no-force-push").unwrap();
        p.exp_string("event 3 (line 7): violated").unwrap();
        key(&mut p, "w");
        p.exp_string("why this rule may be broken").unwrap();
        line(&mut p, "release branches are rebuilt by CI");
        p.exp_string("waived in").unwrap();

        p.exp_string("[2/5]").unwrap();
        p.exp_string("confirm-branch-delete").unwrap();
        key(&mut p, "e");
        p.exp_string("choose").unwrap();
        key(&mut p, "1");
        p.exp_string("when").unwrap();
        line(&mut p, "{gti: branch}");
        p.exp_string("column").unwrap();
        p.exp_string("gti").unwrap();
        // The prompt repeats; clear what is there and type a valid one.
        for _ in 0..20 {
            key(&mut p, "\x7f");
        }
        line(&mut p, r#"{git: branch, args: ["--delete"]}"#);
        p.exp_string("behavior").unwrap();
        key(&mut p, "r");
        p.exp_string("require").unwrap();
        line(&mut p, r#"{command: "gh api*"}"#);
        p.exp_string("order").unwrap();
        line(&mut p, "before");
        p.exp_string("saved").unwrap();

        p.exp_string("[3/5]").unwrap();
        p.exp_string("no-secrets-in-memory").unwrap();
        key(&mut p, "q");
        p.exp_eof().unwrap();

        let lf = lockfile(&root);
        assert!(
            lf.contains(r#"when: {git: branch, args: ["--delete"]}"#),
            "{lf}"
        );
        assert!(
            lf.contains("reviewed:\n  - confirm-branch-delete\n"),
            "{lf}"
        );
        let config = std::fs::read_to_string(root.join(".skillgate.yaml")).unwrap();
        assert!(
            config.contains(r#"{id: "no-force-push", skill: "release-helper", reason: "release branches are rebuilt by CI"}"#),
            "{config}"
        );
        // Progress is kept: the decided rules no longer show.
        let (code, out) = list(&root);
        assert_eq!(code, 1, "no-secrets-in-memory still blocks:\n{out}");
        assert!(!out.contains("no-force-push"), "{out}");
        assert!(!out.contains("confirm-branch-delete"), "{out}");

        // Second run: only what is still undecided; a manual reason must be real.
        let mut p = spawn(&root);
        p.exp_string("[1/3]").unwrap();
        p.exp_string("no-secrets-in-memory").unwrap();
        key(&mut p, "m");
        p.exp_string("why people").unwrap();
        line(&mut p, "");
        p.exp_string("a reason is required").unwrap();
        line(&mut p, "Reviewers read the sessions that wrote MEMORY.md");
        p.exp_string("saved").unwrap();
        p.exp_string("[2/3]").unwrap();
        p.exp_string("run-tests-first").unwrap();
        key(&mut p, "a");
        p.exp_string("saved").unwrap();
        p.exp_string("[3/3]").unwrap();
        p.exp_string("say-shipping").unwrap();
        key(&mut p, "r");
        p.exp_string("saved").unwrap();
        p.exp_eof().unwrap();

        let lf = lockfile(&root);
        assert!(
            lf.contains(r#"manual: "Reviewers read the sessions that wrote MEMORY.md""#),
            "{lf}"
        );
        assert!(!lf.contains("id: say-shipping"), "{lf}");
        assert!(
            lf.contains("not_rules:\n  - \"Say \\\"shipping now\\\" before you push.\"\n"),
            "{lf}"
        );
        let (code, out) = list(&root);
        assert_eq!((code, out.trim()), (0, "release-helper (skills/release-helper/SKILL.md): 4 of 4 rules decided\nevery rule is decided"));

        // The reviewed lockfile is one the gate accepts, and the waiver holds.
        let gate = Command::cargo_bin("skillgate")
            .unwrap()
            .current_dir(&root)
            .args([
                "gate",
                "skills",
                "--trajectories",
                "transcripts",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert_eq!(
            gate.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&gate.stderr)
        );
    }
}
