//! `skillgate hook pre-push` and `hook install` on throwaway repositories
//! built with git2 beside a local bare remote: the refused push, a push that
//! touches no skill (the gate never runs), a new branch, a deletion, a
//! force-push range, two refs at once, the pre-commit framework's variables,
//! and real `git push` runs through the installed hook.

mod release_common;

use release_common::*;

fn refused_push_names_rule_line_and_location(r: &Run) {
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("BLOCKED tidy-branches — fail-closed: 1 blocking rule"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("no-force-push (violated, scope shared-repo-state)"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("rule:     skills/tidy-branches/SKILL.md:11  \"You MUST NOT force-push"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(
            "evidence: .planning/patterns/forced.jsonl event 3 (line 7) (forbid-matched)"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("Push refused: 1 blocking rule in 1 skill: "),
        "{}",
        r.stderr
    );
    // One screen.
    assert!(r.stderr.lines().count() <= 24, "{}", r.stderr);
    // Locations only: nothing of the session's content (its prompt, tool output).
    assert!(
        !r.stderr.contains("Tidy the release branch"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("example.com:demo"), "{}", r.stderr);
}

#[test]
fn a_push_of_a_skill_with_a_scoped_violation_is_refused() {
    let t = TestRepo::new();
    t.add_skill();
    t.add_session("forced", "forced");
    let c = t.commit("skill and a session that force-pushed");
    let r = pre_push(
        &t,
        &line("refs/heads/main", &c.to_string(), "refs/heads/main", ZERO),
    );
    refused_push_names_rule_line_and_location(&r);
    assert!(
        r.stderr.contains("refs/heads/main (root).."),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("(new branch, 1 commit(s))"),
        "{}",
        r.stderr
    );
    // No report is written by the hook by default.
    assert!(!t.work().join(".planning/patterns/skill-coverage").exists());
}

#[test]
fn a_push_touching_no_skill_passes_without_running_the_gate() {
    let t = TestRepo::new();
    t.add_skill();
    // A lockfile the gate would reject (exit 2) if it ever ran on this skill.
    t.write(
        "skills/tidy-branches/SKILL.constraints.yaml",
        "version: [not, a, lockfile\n",
    );
    let c1 = t.commit("skill");
    t.set_remote_ref("main", c1);
    t.write("README.md", "# docs\n");
    t.write(
        ".planning/patterns/skill-coverage/tidy-branches-20260101T000000Z.md",
        "# report\n",
    );
    let c2 = t.commit("docs and a report");
    let r = pre_push(
        &t,
        &line(
            "refs/heads/main",
            &c2.to_string(),
            "refs/heads/main",
            &c1.to_string(),
        ),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "skillgate: no skill touched by this push (2 changed path(s)); nothing to gate\n"
    );
    // The same skill, touched, is gated (and its lockfile is an input error).
    t.write("skills/tidy-branches/notes.md", "x\n");
    let c3 = t.commit("touch the skill");
    let r = pre_push(
        &t,
        &line(
            "refs/heads/main",
            &c3.to_string(),
            "refs/heads/main",
            &c2.to_string(),
        ),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("SKILL.constraints.yaml"), "{}", r.stderr);
    assert!(r.stderr.contains("git push --no-verify"), "{}", r.stderr);
}

#[test]
fn a_new_branch_checks_only_commits_on_no_remote_tracking_ref() {
    let t = TestRepo::new();
    t.add_skill();
    t.add_session("forced", "forced");
    let c1 = t.commit("already on the remote");
    t.set_remote_ref("main", c1);
    // The violation is already on the remote: a branch adding a README does not touch the skill.
    t.write("README.md", "x\n");
    let c2 = t.commit("readme");
    let r = pre_push(
        &t,
        &line(
            "refs/heads/feature",
            &c2.to_string(),
            "refs/heads/feature",
            ZERO,
        ),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("no skill touched"), "{}", r.stderr);
    // A branch that adds a session touches every skill whose roots hold it.
    t.add_session("clean", "clean");
    let c3 = t.commit("a clean session");
    let r = pre_push(
        &t,
        &line(
            "refs/heads/feature",
            &c3.to_string(),
            "refs/heads/feature",
            ZERO,
        ),
    );
    // Both sessions are under the roots: the old violation still blocks.
    refused_push_names_rule_line_and_location(&r);
    assert!(
        r.stderr.contains("(new branch, 2 commit(s))"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(&format!("{}..", &c1.to_string()[..7])),
        "{}",
        r.stderr
    );
}

#[test]
fn a_deleted_ref_is_skipped() {
    let t = TestRepo::new();
    t.add_skill();
    t.add_session("forced", "forced");
    let c = t.commit("c");
    let r = pre_push(
        &t,
        &line("(delete)", ZERO, "refs/heads/old", &c.to_string()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("skillgate: refs/heads/old: deletion, nothing to check"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("no skill touched"), "{}", r.stderr);
}

#[test]
fn a_force_push_range_starts_at_the_merge_base() {
    let t = TestRepo::new();
    t.add_skill();
    t.add_session("clean", "clean");
    let base = t.commit("base: a clean skill");
    // What the remote has: base + a README commit.
    t.write("README.md", "remote\n");
    let old = t.commit("remote-only");
    t.set_remote_ref("main", old);
    // Local history rewritten: base + a violating session.
    t.checkout("main", base);
    t.add_session("forced", "forced");
    let new = t.commit("rewritten");
    let r = pre_push(
        &t,
        &line(
            "refs/heads/main",
            &new.to_string(),
            "refs/heads/main",
            &old.to_string(),
        ),
    );
    refused_push_names_rule_line_and_location(&r);
    assert!(
        r.stderr.contains(&format!(
            "refs/heads/main {}..{} (force-push, 1 commit(s); remote was {})",
            &base.to_string()[..7],
            &new.to_string()[..7],
            &old.to_string()[..7]
        )),
        "{}",
        r.stderr
    );
    // A remote id never fetched here is handled the same way.
    let unknown = "1234567890123456789012345678901234567890";
    let r = pre_push(
        &t,
        &line(
            "refs/heads/main",
            &new.to_string(),
            "refs/heads/main",
            unknown,
        ),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    // A fast-forward of the same commit from `base` is remote..local.
    let r = pre_push(
        &t,
        &line(
            "refs/heads/main",
            &new.to_string(),
            "refs/heads/main",
            &base.to_string(),
        ),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("(fast-forward, 1 commit(s))"),
        "{}",
        r.stderr
    );
}

#[test]
fn two_refs_at_once_and_a_branch_that_is_not_checked_out() {
    let t = TestRepo::new();
    t.add_skill();
    t.add_session("clean", "clean");
    let c1 = t.commit("clean skill");
    t.set_remote_ref("main", c1);
    t.write("README.md", "x\n");
    let main2 = t.commit("readme on main");
    // feature: c1 + a violating session, not checked out.
    t.add_session("forced", "forced");
    let feature = t.commit_detached("violation on feature", c1);
    t.repo
        .reference("refs/heads/feature", feature, true, "t")
        .unwrap();
    t.checkout("main", main2);
    assert!(!t.work().join(".planning/patterns/forced.jsonl").exists());

    let stdin = line(
        "refs/heads/main",
        &main2.to_string(),
        "refs/heads/main",
        &c1.to_string(),
    ) + &line(
        "refs/heads/feature",
        &feature.to_string(),
        "refs/heads/feature",
        ZERO,
    );
    let r = pre_push(&t, &stdin);
    refused_push_names_rule_line_and_location(&r);
    assert!(r.stderr.contains("refs/heads/feature"), "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "(commit {} is not checked out: gated on an export of it)",
            &feature.to_string()[..7]
        )),
        "{}",
        r.stderr
    );
    // The export is removed afterwards.
    let leftovers: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .contains(&format!("-{}", &feature.to_string()[..7]))
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // main alone touches no skill.
    let r = pre_push(
        &t,
        &line(
            "refs/heads/main",
            &main2.to_string(),
            "refs/heads/main",
            &c1.to_string(),
        ),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn pre_commit_framework_variables_replace_stdin() {
    let t = TestRepo::new();
    t.add_skill();
    let c1 = t.commit("skill");
    t.add_session("forced", "forced");
    let c2 = t.commit("violating session");
    let env = [
        ("PRE_COMMIT_FROM_REF", c1.to_string()),
        ("PRE_COMMIT_TO_REF", c2.to_string()),
        ("PRE_COMMIT_REMOTE_NAME", "origin".to_string()),
    ];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = run(&t.work(), &["hook", "pre-push"], "", &env);
    refused_push_names_rule_line_and_location(&r);
    assert!(
        r.stderr.contains("PRE_COMMIT_FROM_REF..PRE_COMMIT_TO_REF"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("(merge base, 1 commit(s))"),
        "{}",
        r.stderr
    );
    // Run by pre-commit without a push range: the whole tree is checked.
    let r = run(&t.work(), &["hook", "pre-push"], "", &[("PRE_COMMIT", "1")]);
    refused_push_names_rule_line_and_location(&r);
    assert!(
        r.stderr
            .contains("(no push range from pre-commit: whole tree)"),
        "{}",
        r.stderr
    );
    // One of the two alone is an error.
    let r = run(&t.work(), &["hook", "pre-push"], "", &env[1..2]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("must be set together"), "{}", r.stderr);
}

#[test]
fn bad_stdin_is_an_input_error_naming_the_line() {
    let t = TestRepo::new();
    t.write("a", "a");
    let c = t.commit("c");
    let r = pre_push(&t, &format!("refs/heads/main {c} refs/heads/main\n"));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("pre-push input line 1: expected"),
        "{}",
        r.stderr
    );
    let r = pre_push(
        &t,
        &line("refs/heads/main", &"ab".repeat(20), "refs/heads/main", ZERO),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("is not in this repository"),
        "{}",
        r.stderr
    );
    // Empty stdin (nothing pushed) is fine.
    let r = pre_push(&t, "");
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn nothing_to_measure_does_not_block_a_push() {
    let t = TestRepo::new();
    t.add_skill();
    let c = t.commit("a skill without sessions");
    let r = pre_push(
        &t,
        &line("refs/heads/main", &c.to_string(), "refs/heads/main", ZERO),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("note    tidy-branches — nothing to measure: no valid trajectory ("),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("capture a run first (does not block the push)"),
        "{}",
        r.stderr
    );
}

// ---- hook install and real `git push` ----

fn git(dir: &std::path::Path, args: &[&str], home: &std::path::Path) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("skillgate");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("PATH", path)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env_remove("GIT_DIR")
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

#[test]
fn install_then_git_push_is_refused_then_allowed_after_a_waiver() {
    let t = TestRepo::new();
    let home = t.dir.path();
    let r = run(
        &t.work(),
        &["hook", "install"],
        "",
        &[("HOME", home.to_str().unwrap())],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "skillgate: pre-push hook installed at .git/hooks/pre-push\n"
    );
    let installed = std::fs::read_to_string(t.work().join(".git/hooks/pre-push")).unwrap();
    let shipped = std::fs::read_to_string(repo_root().join("hooks/pre-push")).unwrap();
    assert_eq!(
        installed, shipped,
        "hooks/pre-push is the script `hook install` writes"
    );

    t.add_skill();
    t.add_session("forced", "forced");
    t.commit("skill and a violating session");
    let out = git(&t.work(), &["push", "origin", "main"], home);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("no-force-push (violated, scope shared-repo-state)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skills/tidy-branches/SKILL.md:11"),
        "{stderr}"
    );
    assert!(
        stderr.contains(".planning/patterns/forced.jsonl event 3 (line 7)"),
        "{stderr}"
    );
    assert!(stderr.contains("failed to push some refs"), "{stderr}");
    let remote = git2::Repository::open_bare(t.remote_path()).unwrap();
    assert!(
        remote.find_reference("refs/heads/main").is_err(),
        "nothing reached the remote"
    );

    t.write(
        ".skillgate.yaml",
        "waivers:\n  - id: no-force-push\n    skill: tidy-branches\n    reason: \"The user asked for this force-push to repair the release branch.\"\n",
    );
    let waived = t.commit("waive no-force-push with a reason");
    let out = git(&t.work(), &["push", "origin", "main"], home);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("no blocking rule; the push goes ahead"),
        "{stderr}"
    );
    assert!(stderr.contains("(waived: no-force-push)"), "{stderr}");
    let remote = git2::Repository::open_bare(t.remote_path()).unwrap();
    assert_eq!(
        remote.find_reference("refs/heads/main").unwrap().target(),
        Some(waived)
    );
}

#[test]
fn removing_the_violating_session_lets_the_same_push_through() {
    let t = TestRepo::new();
    let home = t.dir.path();
    assert_eq!(run(&t.work(), &["hook", "install"], "", &[]).code, 0);
    t.add_skill();
    t.add_session("clean", "clean");
    t.add_session("forced", "forced");
    t.commit("skill and sessions");
    assert!(!git(&t.work(), &["push", "origin", "main"], home)
        .status
        .success());
    t.remove(".planning/patterns/forced.jsonl");
    t.commit("drop the violating session");
    let out = git(&t.work(), &["push", "origin", "main"], home);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("ok      tidy-branches — "), "{stderr}");
    // A later push of a README is not gated at all.
    t.write("README.md", "x\n");
    t.commit("readme");
    let out = git(&t.work(), &["push", "origin", "main"], home);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("no skill touched by this push (1 changed path(s))"),
        "{stderr}"
    );
    // Deleting the remote branch runs the hook and checks nothing.
    let out = git(&t.work(), &["push", "origin", ":main"], home);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("deletion, nothing to check"), "{stderr}");
}

#[test]
fn install_refuses_a_foreign_hook_unless_forced_and_respects_core_hooks_path() {
    let t = TestRepo::new();
    t.write(".git/hooks/pre-push", "#!/bin/sh\necho mine\n");
    let r = run(&t.work(), &["hook", "install"], "", &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "a pre-push hook that skillgate did not write is already there; rerun with --force"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(t.work().join(".git/hooks/pre-push")).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    let r = run(&t.work(), &["hook", "install", "--force"], "", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("the previous hook is kept at .git/hooks/pre-push.skillgate-backup"),
        "{}",
        r.stdout
    );
    assert_eq!(
        std::fs::read_to_string(t.work().join(".git/hooks/pre-push.skillgate-backup")).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    // Reinstalling over our own hook needs no --force.
    let r = run(&t.work(), &["hook", "install"], "", &[]);
    assert_eq!(
        r.stdout,
        "skillgate: pre-push hook already up to date at .git/hooks/pre-push\n"
    );

    t.repo
        .config()
        .unwrap()
        .set_str("core.hooksPath", "githooks")
        .unwrap();
    let r = run(&t.work(), &["hook", "install"], "", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "skillgate: pre-push hook installed at githooks/pre-push (the folder core.hooksPath names)\n"
    );
    assert!(t.work().join("githooks/pre-push").is_file());
}
