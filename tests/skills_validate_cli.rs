//! `skillgate validate` through the binary: real skills, lint fixtures, hostile input.

use assert_cmd::Command;
use std::path::Path;
use std::time::Duration;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn skillgate() -> Command {
    let mut c = Command::cargo_bin("skillgate").unwrap();
    c.current_dir(ROOT).timeout(Duration::from_secs(20));
    c
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn validate(args: &[&str]) -> Run {
    let out = skillgate().arg("validate").args(args).output().unwrap();
    Run {
        code: out
            .status
            .code()
            .expect("exited, not killed by a signal or the timeout"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

#[test]
fn real_skills_text_snapshot() {
    let r = validate(&["../shared/realdata/skills"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("validated 31 skill(s): 0 error(s), 1 warning(s), 0 info"),
        "{}",
        r.stderr
    );
    insta::assert_snapshot!("validate_realdata_text", r.stdout);
}

#[test]
fn real_skills_json_is_an_array_of_located_diagnostics() {
    let r = validate(&["../shared/realdata/skills", "--format", "json"]);
    assert_eq!(r.code, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 1);
    assert_eq!(
        arr[0],
        serde_json::json!({
            "file": "../shared/realdata/skills/obra-superpowers/writing-skills/SKILL.md",
            "line": 504, "col": 1, "level": "warning", "code": "body-too-long",
            "message": "the body reaches 500 lines here; keep SKILL.md short and move detail into referenced files"
        })
    );
}

#[test]
fn valid_fixture_is_clean() {
    let r = validate(&["fixtures/skills/valid/tidy-commits/SKILL.md"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    // A skill folder works the same as its SKILL.md.
    let r = validate(&["fixtures/skills/valid/tidy-commits"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
}

#[test]
fn lint_fixtures_text_and_json_snapshots() {
    let r = validate(&["fixtures/skills/lint"]);
    assert_eq!(r.code, 1, "errors found → exit 1");
    assert!(
        r.stderr
            .contains("validated 7 skill(s): 10 error(s), 7 warning(s), 1 info"),
        "{}",
        r.stderr
    );
    insta::assert_snapshot!("validate_lint_text", r.stdout);
    let r = validate(&["fixtures/skills/lint", "--format", "json"]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    insta::assert_json_snapshot!("validate_lint_json", v);
}

#[test]
fn warnings_alone_exit_0() {
    let r = validate(&["fixtures/skills/lint/claude-helper"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("claude-helper/SKILL.md:4:15: warning[allowed-tools-list]:"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("claude-helper/SKILL.md:17:1: info[unknown-key]:"),
        "{}",
        r.stdout
    );
}

/// Each hostile input: exit 2, one `file:line:col: error[code]` line, no panic.
#[test]
fn hostile_fixtures_exit_2_with_file_and_line() {
    let cases = [
        ("unclosed-frontmatter", "1:1", "unclosed-frontmatter"),
        ("invalid-yaml", "3:28", "invalid-yaml"),
        ("tabs", "3:1", "invalid-yaml"),
        ("invalid-utf8", "8:4", "invalid-utf8"),
        ("alias-bomb", "4:", "yaml-too-complex"),
        ("empty-file", "1:1", "empty-file"),
        ("deep-nesting", "4:132", "yaml-too-complex"),
        ("duplicate-key", "4:1", "invalid-yaml"),
        ("not-a-mapping", "2:1", "frontmatter-not-mapping"),
    ];
    for (dir, at, code) in cases {
        let file = format!("fixtures/skills/hostile/{dir}/SKILL.md");
        for arg in [file.clone(), format!("fixtures/skills/hostile/{dir}")] {
            let r = validate(&[&arg]);
            assert_eq!(r.code, 2, "{dir}: {}{}", r.stdout, r.stderr);
            let want = format!("{file}:{at}");
            assert!(
                r.stdout.starts_with(&want),
                "{dir}: want {want}, got {}",
                r.stdout
            );
            assert!(
                r.stdout.contains(&format!(": error[{code}]: ")),
                "{dir}: {}",
                r.stdout
            );
            assert_eq!(r.stdout.lines().count(), 1, "{dir}: {}", r.stdout);
            assert!(!r.stderr.contains("panicked"), "{dir}: {}", r.stderr);
        }
    }
}

#[test]
fn hostile_json_keeps_the_location() {
    let r = validate(&["fixtures/skills/hostile/tabs", "--format", "json"]);
    assert_eq!(r.code, 2);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v[0]["file"], "fixtures/skills/hostile/tabs/SKILL.md");
    assert_eq!(
        (v[0]["line"].as_u64(), v[0]["col"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(v[0]["code"], "invalid-yaml");
    assert!(v[0]["message"]
        .as_str()
        .unwrap()
        .contains("tabs for indentation"));
}

#[test]
fn ten_megabyte_line_exits_2_at_its_line() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("huge-line");
    std::fs::create_dir(&dir).unwrap();
    let mut text = b"---\nname: huge-line\ndescription: d\n---\n\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 10 * 1024 * 1024));
    text.push(b'\n');
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
    let r = validate(&[dir.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    let want = format!(
        "{}:6:65537: error[line-too-long]:",
        dir.join("SKILL.md").display()
    );
    assert!(r.stdout.starts_with(&want), "{}", r.stdout);
}

#[test]
fn ten_megabyte_yaml_value_in_frontmatter_exits_2() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("SKILL.md");
    let mut text = b"---\nname: x\ndescription: ".to_vec();
    text.extend(std::iter::repeat_n(b'y', 10 * 1024 * 1024));
    text.extend(b"\n---\n");
    std::fs::write(&f, text).unwrap();
    let r = validate(&[f.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stdout
            .starts_with(&format!("{}:3:65537: error[line-too-long]:", f.display())),
        "{}",
        r.stdout
    );
}

#[test]
fn folder_without_skill_md_exits_2_naming_it() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("notes/deeper")).unwrap();
    std::fs::write(t.path().join("notes/README.md"), "# not a skill\n").unwrap();
    let dir = t.path().join("notes");
    let r = validate(&[dir.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stdout,
        format!(
            "{}: error[no-skill-found]: no SKILL.md in this folder or below it; pass a SKILL.md, a skill folder or a tree of skills\n",
            dir.display()
        )
    );
}

#[test]
fn missing_path_exits_2() {
    let r = validate(&["fixtures/skills/does-not-exist"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stdout,
        "fixtures/skills/does-not-exist: error[path-not-found]: no such file or folder\n"
    );
}

#[test]
fn every_input_is_checked_when_one_is_unreadable() {
    let r = validate(&[
        "fixtures/skills/hostile/empty-file",
        "fixtures/skills/lint/Bad_Name",
    ]);
    assert_eq!(r.code, 2, "an unreadable input wins over lint errors");
    assert!(r
        .stdout
        .contains("empty-file/SKILL.md:1:1: error[empty-file]"));
    assert!(r
        .stdout
        .contains("Bad_Name/SKILL.md:2:7: error[name-characters]"));
    assert!(
        r.stderr.contains("1 input(s) could not be read"),
        "{}",
        r.stderr
    );
}

#[test]
fn no_path_is_a_usage_error() {
    let r = validate(&[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("PATH"), "{}", r.stderr);
}

#[test]
fn bare_skill_md_checks_the_working_folder_name() {
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .current_dir(Path::new(ROOT).join("fixtures/skills/lint/xml-in-description"))
        .args(["validate", "SKILL.md"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("SKILL.md:2:7: error[name-folder-mismatch]: `name` is `xml-description` but the folder is `xml-in-description`"), "{stdout}");
}

#[cfg(unix)]
#[test]
fn symlink_out_of_the_tree_is_reported_not_followed() {
    let outside = tempfile::tempdir().unwrap();
    let evil = outside.path().join("evil");
    std::fs::create_dir(&evil).unwrap();
    std::fs::write(
        evil.join("SKILL.md"),
        "---\nname: evil\ndescription: d\n---\nbody\n",
    )
    .unwrap();
    let t = tempfile::tempdir().unwrap();
    let good = t.path().join("good");
    std::fs::create_dir(&good).unwrap();
    std::fs::write(
        good.join("SKILL.md"),
        "---\nname: good\ndescription: d\n---\nbody\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(&evil, t.path().join("evil")).unwrap();
    let r = validate(&[t.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(
        r.stdout,
        format!(
            "{}: warning[symlink-outside-tree]: symbolic link to a folder outside the tree; not followed\n",
            t.path().join("evil").display()
        )
    );
    assert!(r.stderr.contains("validated 1 skill(s)"));
}

#[test]
fn an_unquoted_colon_is_an_error_to_validate_and_a_warning_to_extract() {
    let skill = "fixtures/skills/colon/release-notes";
    let r = validate(&[skill]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.starts_with(
            "fixtures/skills/colon/release-notes/SKILL.md:3:69: error[invalid-yaml]: invalid YAML frontmatter: mapping values"
        ),
        "{}",
        r.stdout
    );
    let out = skillgate()
        .args(["extract", skill, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(
            "warning: fixtures/skills/colon/release-notes/SKILL.md:3:69: frontmatter is not valid YAML"
        ),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &v["constraints"][0];
    assert_eq!(c["lines"], serde_json::json!([10, 10]));
    assert_eq!(c["scope"], serde_json::json!(["shared-repo-state"]));
    assert_eq!(c["forbid"]["any"][0]["git"], "push");
}
