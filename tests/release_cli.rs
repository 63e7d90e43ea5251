//! CLI conventions (issue 18, point 9): every subcommand's `--help` says what
//! it reads, what it writes, its exit codes and one example; shell
//! completions and man pages are generated from the same definition; a local
//! `gate` run leaves no file behind.

mod release_common;

use release_common::*;

/// Every subcommand name, from the top-level help's command list.
fn subcommands() -> Vec<String> {
    let r = run(&repo_root(), &["--help"], "", &[]);
    assert_eq!(r.code, 0);
    let mut names = Vec::new();
    let mut inside = false;
    for line in r.stdout.lines() {
        if line.starts_with("Commands:") {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with("  ") {
                break;
            }
            let name = line.split_whitespace().next().unwrap_or("");
            if !name.is_empty() && name != "help" {
                names.push(name.to_string());
            }
        }
    }
    names
}

#[test]
fn every_subcommand_help_says_what_it_reads_writes_exits_with_and_shows_an_example() {
    let names = subcommands();
    for must in [
        "gate",
        "config",
        "ship",
        "hook",
        "completions",
        "man",
        "propose",
    ] {
        assert!(names.iter().any(|n| n == must), "{must} missing: {names:?}");
    }
    let mut pages: Vec<Vec<&str>> = names.iter().map(|n| vec![n.as_str()]).collect();
    for nested in ["pre-push", "pre-commit", "install"] {
        pages.push(vec!["hook", nested]);
    }
    for args in pages {
        let mut a = args.clone();
        a.push("--help");
        let r = run(&repo_root(), &a, "", &[]);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        for section in ["Reads:", "Writes:", "Exit:", "Example:\n  skillgate "] {
            assert!(
                r.stdout.contains(section),
                "{args:?} --help lacks {section:?}:\n{}",
                r.stdout
            );
        }
    }
    // The top-level page lists the exit codes and examples too.
    let r = run(&repo_root(), &["--help"], "", &[]);
    assert!(
        r.stdout.contains("Exit codes (every command): 0"),
        "{}",
        r.stdout
    );
    // `propose` lists; it applies only when asked.
    let r = run(&repo_root(), &["--help"], "", &[]);
    let line = r
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("propose"))
        .unwrap();
    assert!(line.contains("List the proposals"), "{line}");
}

#[test]
fn completions_for_each_shell_cover_every_subcommand() {
    let names = subcommands();
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let r = run(&repo_root(), &["completions", shell], "", &[]);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        for n in &names {
            assert!(
                r.stdout.contains(n.as_str()),
                "{shell} completion lacks {n}"
            );
        }
        assert!(r.stdout.contains("changed-since"), "{shell}: gate's flags");
    }
    // The bash script parses.
    let r = run(&repo_root(), &["completions", "bash"], "", &[]);
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("skillgate.bash");
    std::fs::write(&f, &r.stdout).unwrap();
    let ok = std::process::Command::new("bash")
        .arg("-n")
        .arg(&f)
        .status()
        .unwrap();
    assert!(ok.success());
    // A snapshot of the stable head of the fish script (its first lines
    // name the subcommands; the flags below change with every release).
    let r = run(&repo_root(), &["completions", "fish"], "", &[]);
    let head: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains("needs_command\" -f -a"))
        .filter(|l| {
            ["\"gate\"", "\"ship\"", "\"completions\""]
                .iter()
                .any(|n| l.contains(n))
        })
        .collect();
    insta::assert_snapshot!("completions_fish_commands", head.join("\n"));
    let r = run(&repo_root(), &["completions", "nushell-2000"], "", &[]);
    assert_eq!(r.code, 2);
}

#[test]
fn man_pages_render_for_the_tool_and_each_subcommand() {
    let r = run(&repo_root(), &["man"], "", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(".ie \\n(.g .ds Aq"),
        "roff: {}",
        &r.stdout[..80.min(r.stdout.len())]
    );
    assert!(r.stdout.contains(".TH skillgate 1"), "{}", &r.stdout[..200]);
    assert!(
        r.stdout.contains("Exit codes"),
        "the closing section is in the page"
    );
    let d = tempfile::tempdir().unwrap();
    let r = run(
        &repo_root(),
        &["man", "--dir", d.path().to_str().unwrap()],
        "",
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for n in subcommands() {
        let page = d.path().join(format!("skillgate-{n}.1"));
        let text =
            std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        assert!(text.contains(&format!(".TH skillgate-{n} 1")), "{n}");
    }
    assert!(d.path().join("skillgate.1").is_file());
}

#[test]
fn a_local_gate_run_leaves_no_file_and_report_writes_one() {
    let t = TestRepo::new();
    t.add_skill();
    t.add_session("forced", "forced");
    t.commit("skill");
    let before = git2::Repository::open(t.work())
        .unwrap()
        .statuses(None)
        .unwrap()
        .len();
    for _ in 0..2 {
        let r = run(&t.work(), &["gate", "skills/tidy-branches"], "", &[]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(!r.stderr.contains("report:"), "{}", r.stderr);
    }
    let repo = git2::Repository::open(t.work()).unwrap();
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true);
    assert_eq!(
        repo.statuses(Some(&mut opts)).unwrap().len(),
        before,
        "two runs, no new file"
    );
    let r = run(
        &t.work(),
        &["gate", "skills/tidy-branches", "--report"],
        "",
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("report: .planning/patterns/skill-coverage/tidy-branches-"),
        "{}",
        r.stderr
    );
    let r = run(
        &t.work(),
        &["gate", "skills/tidy-branches", "--report", "--no-report"],
        "",
        &[],
    );
    assert_eq!(
        r.code, 2,
        "conflicting flags are a usage error: {}",
        r.stderr
    );
}
