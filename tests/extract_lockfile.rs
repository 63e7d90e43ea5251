//! `SKILL.constraints.yaml`: `skillgate extract --write` (create, refresh,
//! byte-identical on an unchanged skill, hand edits kept), the lockfile's
//! error cases (file:line, exit 2), and `load_constraints` (drift).

use assert_cmd::Command;
use skillgate::extract::{
    load_constraints, ConstraintSource, Lexicon, Lockfile, Predicate, LOCKFILE_NAME,
};
use skillgate::parse::Skill;
use std::path::{Path, PathBuf};

fn fixture_skill() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extract/guarded-skill/SKILL.md"),
    )
    .unwrap()
}

/// A temporary copy of the fixture skill: (tempdir guard, SKILL.md path).
fn copy_skill() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = dir.path().join("guarded-skill");
    std::fs::create_dir(&skill_dir).unwrap();
    let p = skill_dir.join("SKILL.md");
    std::fs::write(&p, fixture_skill()).unwrap();
    (dir, p)
}

fn extract(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .arg("extract")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn lock_of(skill: &Path) -> PathBuf {
    skill.with_file_name(LOCKFILE_NAME)
}

#[test]
fn write_creates_the_lockfile_and_a_second_write_is_byte_identical() {
    let (_d, skill) = copy_skill();
    let (code, out, err) = extract(&[skill.to_str().unwrap(), "--write"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote"), "{err}");
    // One summary line, not the table.
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let first = std::fs::read(lock_of(&skill)).unwrap();
    let lf = Lockfile::read(&lock_of(&skill)).unwrap();
    assert_eq!(lf.skill, "guarded-skill");
    assert_eq!(lf.source_sha256, Skill::read(&skill).unwrap().sha256);
    assert!(lf
        .constraints
        .iter()
        .any(|c| c.id == "never-run-git-push-force"));
    let (code, _, err) = extract(&[skill.to_str().unwrap(), "--write", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("unchanged"), "{err}");
    assert_eq!(std::fs::read(lock_of(&skill)).unwrap(), first);
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(skill.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn refresh_keeps_hand_edits_whose_text_remains_and_drops_the_others() {
    let (_d, skill) = copy_skill();
    assert_eq!(extract(&[skill.to_str().unwrap(), "--write"]).0, 0);
    let lock = lock_of(&skill);
    // A reviewer renames an id, pins a predicate, marks a rule manual, and
    // adds an entry of their own for a sentence extraction skips.
    let text = std::fs::read_to_string(&lock).unwrap();
    let text = text
        .replace("id: never-run-git-push-force", "id: no-force-push")
        .replace(
            "    when: {any: [{git: merge}, {command: \"gh pr merge*\"}, {command: \"glab mr merge*\"}]}\n",
            "    when: {git: merge}\n    manual: \"The options are offered in the conversation; reviewers read it.\"\n",
        );
    let text = format!(
        "{text}  - id: tool-explanation\n    text: \"This explains what the tool does; it is not a rule.\"\n    lines: [1, 1]\n    modality: should\n    manual: \"Kept to test hand-added entries.\"\n"
    );
    std::fs::write(&lock, &text).unwrap();
    Lockfile::read(&lock).expect("the hand-edited lockfile is valid");
    // The skill changes: a line above every rule, one rule removed.
    let src = fixture_skill()
        .replace(
            "## Rules\n",
            "## Rules\n\nAn unrelated introduction line.\n",
        )
        .replace("Run the tests before committing.\n", "");
    std::fs::write(&skill, src).unwrap();
    let (code, _, err) = extract(&[skill.to_str().unwrap(), "--write"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("dropped because their text is gone: run-tests-before-committing"),
        "{err}"
    );
    let lf = Lockfile::read(&lock).unwrap();
    let by_id = |id: &str| {
        lf.constraints
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    let push = by_id("no-force-push");
    assert_eq!(push.lines, [15, 15], "lines follow the text");
    let merge = by_id("before-merging-present-exactly-4-options");
    assert_eq!(
        merge.when,
        Some(Predicate::Git {
            subcommand: "merge".into(),
            args: vec![]
        })
    );
    assert!(merge.manual.as_deref().unwrap().starts_with("The options"));
    assert_eq!(
        by_id("tool-explanation").lines[0],
        36,
        "a hand-added entry is relocated to its text"
    );
    assert!(!lf
        .constraints
        .iter()
        .any(|c| c.id == "never-run-git-push-force"));
    assert!(!lf
        .constraints
        .iter()
        .any(|c| c.id == "run-tests-before-committing"));
    // And once more: byte-identical.
    let before = std::fs::read(&lock).unwrap();
    assert_eq!(extract(&[skill.to_str().unwrap(), "--write"]).0, 0);
    assert_eq!(std::fs::read(&lock).unwrap(), before);
}

fn bad_lockfile(body: &str) -> (i32, String) {
    let (_d, skill) = copy_skill();
    std::fs::write(lock_of(&skill), body).unwrap();
    let (code, _, err) = extract(&[skill.to_str().unwrap(), "--write"]);
    // The gate's loader agrees with the CLI.
    let loaded = load_constraints(&Skill::read(&skill).unwrap(), &Lexicon::builtin());
    assert!(loaded.is_err());
    (code, err)
}

const HEAD: &str = "version: 1\nskill: guarded-skill\nsource_sha256: abc\nconstraints:\n";

#[test]
fn lockfile_errors_name_file_and_line_and_exit_2() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "unknown key",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must\n    severity: high\n",
            ":9: constraints[0]: unknown field `severity`",
        ),
        (
            "bad glob",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must-not\n    forbid: {touch: \"src/[oops\"}\n",
            ":9: `forbid`: `touch: \"src/[oops\"` is not a valid glob",
        ),
        (
            "bad regex",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must-not\n    forbid: {command_re: \"(git\"}\n",
            ":9: `forbid`: `command_re: \"(git\"` is not a valid regex",
        ),
        (
            "both require and forbid",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must\n    require: {git: fetch}\n    forbid: {git: push}\n",
            ":10: a constraint has `require` or `forbid`, not both",
        ),
        (
            "manual beside a behavior predicate",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must\n    require: {git: fetch}\n    manual: \"People check.\"\n",
            ":10: `manual` says people judge this rule, so it cannot stand beside `require`",
        ),
        (
            "TODO manual reason",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must\n    manual: TODO\n",
            ":9: `manual` needs a real reason",
        ),
        (
            "empty manual reason",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must\n    manual: \"\"\n",
            ":9: `manual` needs a real reason",
        ),
        (
            "duplicate ids",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must\n  - id: a\n    text: y\n    lines: [2, 2]\n    modality: must\n",
            ":9: id \"a\" is used twice (first at line 5)",
        ),
        (
            "non-kebab id",
            "  - id: Not_Kebab\n    text: x\n    lines: [1, 1]\n    modality: must\n",
            ":5: id \"Not_Kebab\" is not kebab-case",
        ),
        (
            "a predicate with two keys",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must-not\n    forbid: {tool: Bash, command: \"rm*\"}\n",
            ":9: constraints[0]: a predicate has exactly one key",
        ),
        (
            "args without git",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must-not\n    forbid: {args: [\"--force\"]}\n",
            ":9: constraints[0]: `args` is only allowed beside `git`",
        ),
        (
            "a modifier alone",
            "  - id: a\n    text: x\n    lines: [1, 1]\n    modality: must-not\n    forbid: {branch: main}\n",
            ":9: `forbid`: `branch` is a modifier",
        ),
    ];
    for (name, body, want) in cases {
        let (code, err) = bad_lockfile(&format!("{HEAD}{body}"));
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains(&format!("{LOCKFILE_NAME}{want}")),
            "{name}: got {err}"
        );
    }
    let (code, err) = bad_lockfile("version: 2\nskill: s\nsource_sha256: abc\nconstraints: []\n");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "{LOCKFILE_NAME}:1: lockfile version 2 is not supported"
        )),
        "{err}"
    );
    let (code, err) = bad_lockfile("version: 1\nskill: [unclosed\n");
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{LOCKFILE_NAME}:")), "{err}");
}

#[test]
fn load_constraints_prefers_the_lockfile_and_reports_drift() {
    let (_d, skill_path) = copy_skill();
    let lex = Lexicon::builtin();
    let skill = Skill::read(&skill_path).unwrap();
    let loaded = load_constraints(&skill, &lex).unwrap();
    assert_eq!(loaded.source, ConstraintSource::Extracted);
    assert!(!loaded.constraints.is_empty());

    assert_eq!(extract(&[skill_path.to_str().unwrap(), "--write"]).0, 0);
    let loaded = load_constraints(&skill, &lex).unwrap();
    assert_eq!(
        loaded.source,
        ConstraintSource::Lockfile {
            path: lock_of(&skill_path),
            drift: false
        }
    );

    std::fs::write(&skill_path, fixture_skill() + "\nAlways run `cargo fmt`.\n").unwrap();
    let changed = Skill::read(&skill_path).unwrap();
    let loaded = load_constraints(&changed, &lex).unwrap();
    assert_eq!(
        loaded.source,
        ConstraintSource::Lockfile {
            path: lock_of(&skill_path),
            drift: true
        }
    );
    assert!(
        !loaded
            .constraints
            .iter()
            .any(|c| c.text.contains("cargo fmt")),
        "the pinned constraints are used"
    );
}
