//! The doctor's rubric on hand-built sessions: every sub-score's rule, the
//! N/A reasons, findings and ranking, redaction and escaping in the HTML.
//! The sessions imitate Claude Code shapes (Read/Edit/Write/Bash/Glob tool
//! names, "[Request interrupted by user]" markers) as decoders produce them.

mod doctor_support;

use doctor_support::S;
use skillgate::decode::{Action, DecodeProblem, FileEffect, Location, ProblemKind};
use skillgate::doctor::{self, html, DoctorOptions, Outcome, Report, Score, SessionInput};

fn sub(score: &Option<Score>, code: &str) -> (u8, u8) {
    let s = score
        .as_ref()
        .unwrap()
        .subs()
        .iter()
        .find(|s| s.code == code)
        .unwrap_or_else(|| panic!("no {code}"));
    (s.score, s.max)
}

fn evidence_turns(score: &Option<Score>, code: &str) -> Vec<usize> {
    let s = score
        .as_ref()
        .unwrap()
        .subs()
        .iter()
        .find(|s| s.code == code)
        .unwrap();
    s.evidence.iter().map(|e| e.turn).collect()
}

fn render(r: &Report) -> String {
    html::render(
        r,
        &html::RenderContext {
            generated_at: "2025-06-10T13:00:00Z",
            version: "test",
        },
    )
}

/// A clean session: read, surgical edit, formatter and tests pass, answer.
fn clean() -> S {
    let mut s = S::new();
    s.user("Rename the helper in src/lib.rs")
        .say("I'll look at the file first.")
        .read("/repo/src/lib.rs", "fn helper() {}\nfn main() { helper() }")
        .edit(
            "/repo/src/lib.rs",
            "fn helper() {}",
            "fn assist() {}",
            false,
        )
        .edit(
            "/repo/src/lib.rs",
            "fn main() { helper() }",
            "fn main() { assist() }",
            false,
        )
        .bash("cargo fmt --check", "", false)
        .bash("cargo test", "test result: ok. 3 passed", false)
        .say("Renamed `helper` to `assist` in src/lib.rs; fmt and tests pass.");
    s
}

#[test]
fn a_clean_session_scores_ten_and_ten_with_no_findings() {
    let r = clean().report();
    assert_eq!(r.outcome, Outcome::Scored);
    assert_eq!(r.efficiency.as_ref().unwrap().total(), Some(10));
    assert_eq!(r.code_quality.as_ref().unwrap().total(), Some(10));
    assert!(r.findings.is_empty());
    assert!(r.suggestions.is_empty());
    // Evidence is still recorded for sub-scores at their maximum.
    assert_eq!(evidence_turns(&r.efficiency, "task-completion"), vec![8]);
    assert_eq!(
        evidence_turns(&r.code_quality, "regression-avoidance"),
        vec![5, 7]
    );
    let page = render(&r);
    html::verify(&page, &r).unwrap();
    assert!(page.contains("No findings: every scored sub-score is at its maximum."));
    assert!(page.contains("No suggestions."));
}

#[test]
fn no_code_change_makes_code_quality_na_with_its_reason() {
    let mut s = S::new();
    s.user("What does src/lib.rs do?")
        .read("/repo/src/lib.rs", "fn main() {}")
        .say("It defines main in src/lib.rs.");
    let r = s.report();
    assert_eq!(
        r.code_quality,
        Some(Score::NotApplicable {
            reason:
                "The session changed no code (no file was written, edited, deleted or renamed)."
                    .into()
        })
    );
    assert_eq!(r.efficiency.as_ref().unwrap().total(), Some(10));
    let page = render(&r);
    assert!(page.contains("<strong>N/A</strong> The session changed no code"));
    // N/A is not a finding.
    assert!(r.findings.is_empty());
}

#[test]
fn documentation_only_changes_leave_code_quality_na() {
    let mut s = S::new();
    s.user("Write a CLAUDE.md")
        .write(
            "/repo/CLAUDE.md",
            "# Guide\nRun make.",
            "File created successfully",
        )
        .say("Done: CLAUDE.md.");
    let r = s.report();
    match r.code_quality.unwrap() {
        Score::NotApplicable { reason } => assert!(reason.contains("documentation"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn exploration_counts_empty_repeated_and_unused_reads() {
    let mut s = S::new();
    s.user("Fix the typo in src/app.py")
        .glob("**/*.js", "No files found") // 2 empty
        .glob("**/*.ts", "No files found") // 3 empty
        .glob("**/*.py", "/repo/src/app.py\n/repo/src/util.py") // 4 ok
        .read("/repo/src/util.py", "def util(): pass") // 5 unused
        .read("/repo/src/app.py", "print('helo')") // 6 used (edited)
        .glob("**/*.py", "/repo/src/app.py\n/repo/src/util.py") // 7 repeat of 4
        .edit("/repo/src/app.py", "print('helo')", "print('hello')", false) // 8
        .bash("python -m pytest", "1 passed", false) // 9
        .say("Fixed the typo in app.py."); // 10
    let r = s.report();
    // 6 exploration turns, 4 wasted: more than 50% and more than 2 → 0.
    assert_eq!(sub(&r.efficiency, "unnecessary-exploration"), (0, 3));
    assert_eq!(
        evidence_turns(&r.efficiency, "unnecessary-exploration"),
        vec![2, 3, 5, 7]
    );
    let f = r
        .findings
        .iter()
        .find(|f| f.code == "unnecessary-exploration")
        .unwrap();
    assert!(f.basis.starts_with("6 exploration turn(s)"), "{}", f.basis);
    assert!(
        f.basis
            .contains("4 wasted: 2 found nothing or failed, 1 repeated"),
        "{}",
        f.basis
    );
    assert_eq!(
        f.evidence[0].excerpt.as_deref(),
        Some("Glob: **/*.js ⇒ No files found")
    );
    assert_eq!(f.evidence[2].note, "file read but never used later");
    assert_eq!(f.evidence[3].note, "repeats turn 4");
    assert!(
        f.suggestion.contains("2 exploration call(s) found nothing"),
        "{}",
        f.suggestion
    );
    // pytest after the last edit passed, no linter ran.
    assert_eq!(sub(&r.code_quality, "regression-avoidance"), (2, 2));
    assert_eq!(sub(&r.code_quality, "pattern-adherence"), (1, 2));
}

#[test]
fn exploration_thresholds() {
    // 1 wasted of 2 → at most 2 wasted → 2.
    let mut s = S::new();
    s.user("Fix main.rs")
        .glob("*.md", "No files found")
        .read("/repo/main.rs", "x")
        .edit("/repo/main.rs", "x", "y", false)
        .say("Done.");
    assert_eq!(
        sub(&s.report().efficiency, "unnecessary-exploration"),
        (2, 3)
    );
    // 3 wasted of 6 → 50% → 1.
    let mut s = S::new();
    s.user("Fix main.rs");
    for p in ["a", "b", "c"] {
        s.glob(p, "No files found");
    }
    for p in ["x.rs", "y.rs", "main.rs"] {
        s.read(&format!("/repo/{p}"), "x");
    }
    s.edit("/repo/main.rs", "x", "y", false)
        .say("Fixed x.rs, y.rs and main.rs.");
    assert_eq!(
        sub(&s.report().efficiency, "unnecessary-exploration"),
        (1, 3)
    );
}

#[test]
fn retry_waste_counts_blind_retries_and_rejections() {
    let mut s = S::new();
    s.user("Run the build")
        .bash("make", "error: missing", true) // 2 failed
        .bash("make", "error: missing", true) // 3 blind retry
        .edit("/repo/Makefile", "all:", "all: deps", false) // 4 change
        .bash("make", "ok", false) // 5 not blind: a change in between
        .bash("git push --force", "", false)
        .reject_last() // 6 rejected
        .say("Built.");
    let r = s.report();
    assert_eq!(sub(&r.efficiency, "retry-waste"), (0, 2));
    assert_eq!(evidence_turns(&r.efficiency, "retry-waste"), vec![3, 6]);
    let f = r.findings.iter().find(|f| f.code == "retry-waste").unwrap();
    assert!(f.basis.starts_with("1 blind retry"), "{}", f.basis);
    assert!(
        f.basis.contains("+ 1 call(s) rejected by the user = 2"),
        "{}",
        f.basis
    );
    // One retry alone → 1.
    let mut s = S::new();
    s.user("Run ls")
        .bash("ls /nope", "No such file", true)
        .bash("ls /nope", "No such file", true)
        .say("It does not exist.");
    assert_eq!(sub(&s.report().efficiency, "retry-waste"), (1, 2));
}

#[test]
fn task_completion_gaps_and_cap() {
    // Ends on a failed tool call with no answer: capped at 1.
    let mut s = S::new();
    s.user("Make the tests pass")
        .edit("/repo/src/a.rs", "a", "b", false)
        .bash("cargo test", "test result: FAILED. 1 failed", true);
    let r = s.report();
    assert_eq!(sub(&r.efficiency, "task-completion"), (1, 3));
    let basis = &r.efficiency.as_ref().unwrap().subs()[0].basis;
    assert!(
        basis.contains("the session ends without a final answer"),
        "{basis}"
    );
    assert!(
        basis.contains("gap: the last tool call (turn 3) failed"),
        "{basis}"
    );
    assert!(
        basis.contains("gap: the last check after the last code change (test run, turn 3) failed"),
        "{basis}"
    );
    assert!(basis.ends_with("3 − 2 gap(s) = 1 → 1/3."), "{basis}");
    // With an answer after a failing check: 3 − 2 = 1... but one answer → 3 − gaps.
    let mut s = S::new();
    s.user("Make the tests pass")
        .edit("/repo/src/a.rs", "a", "b", false)
        .bash("cargo test", "FAILED", true)
        .say("Tests still fail.");
    assert_eq!(sub(&s.report().efficiency, "task-completion"), (1, 3));
    // Interrupt during the last request: one gap.
    let mut s = S::new();
    s.user("Refactor")
        .edit("/repo/src/a.rs", "a", "b", false)
        .user("[Request interrupted by user]")
        .say("Stopped.");
    let r = s.report();
    assert_eq!(sub(&r.efficiency, "task-completion"), (2, 3));
    assert_eq!(sub(&r.efficiency, "turn-economy"), (1, 2));
    // No progress at all.
    let mut s = S::new();
    s.user("Do it")
        .bash("do-it", "not found", true)
        .bash("do-it2", "not found", true);
    assert_eq!(sub(&s.report().efficiency, "task-completion"), (0, 3));
}

#[test]
fn turn_economy_budget() {
    // 1 request, 1 changed file: budget 25. 26..50 agent turns → 1; 51+ → 0.
    for (n, want) in [(24usize, 2u8), (30, 1), (60, 0)] {
        let mut s = S::new();
        s.user("Fix it");
        for i in 0..n - 2 {
            s.bash(&format!("echo {i}"), "x", false);
        }
        s.edit("/repo/src/a.rs", "a", "b", false).say("Done.");
        let r = s.report();
        assert_eq!(
            sub(&r.efficiency, "turn-economy"),
            (want, 2),
            "{n} agent turns"
        );
        assert_eq!(r.facts.as_ref().unwrap().agent_turns, n);
    }
}

#[test]
fn rejection_echo_is_not_an_interrupt() {
    let mut s = S::new();
    s.user("Commit")
        .bash("git commit -am x", "", false)
        .reject_last()
        .user("[Request interrupted by user for tool use]")
        .say("OK, not committing.");
    let r = s.report();
    assert_eq!(r.facts.as_ref().unwrap().interrupts, 0);
    assert_eq!(sub(&r.efficiency, "turn-economy"), (2, 2));
    assert_eq!(sub(&r.efficiency, "retry-waste"), (1, 2));
}

#[test]
fn file_identification_counts_wrong_targets() {
    let mut s = S::new();
    s.user("Fix a.rs")
        .edit("/repo/src/a.rs", "missing text", "x", true) // 2 failed edit → wrong
        .read("/repo/src/a.rs", "real text")
        .edit("/repo/src/a.rs", "real text", "fixed text", false) // 4
        .write("/repo/src/tmp.rs", "scratch", "File created successfully") // 5
        .bash("rm src/tmp.rs", "", false); // 6
                                           // rm's effect as a decoder records it.
    if let Action::Shell(sh) = &mut s.t.events[5].action {
        sh.effects.push(FileEffect::Delete {
            path: "src/tmp.rs".into(),
        });
    }
    s.edit("/repo/src/b.rs", "x = 1", "x = 2", false) // 7
        .edit("/repo/src/b.rs", "x = 2", "x = 1", false) // 8 reverts 7
        .say("Fixed a.rs.");
    let r = s.report();
    // tmp.rs is a scratch file (created and deleted): not counted. Of the
    // 2 files attempted, b.rs is a wrong file (its edit was reverted) → 2;
    // a.rs has a missed target (a failed edit before the one that landed)
    // → −1 → 1.
    assert_eq!(sub(&r.code_quality, "file-identification"), (1, 3));
    assert_eq!(
        evidence_turns(&r.code_quality, "file-identification"),
        vec![2, 8]
    );
    assert_eq!(r.facts.as_ref().unwrap().scratch_files, 1);
}

#[test]
fn a_missed_edit_on_the_right_file_costs_one_point() {
    let mut s = S::new();
    s.user("Fix a.rs")
        .edit("/repo/src/a.rs", "stale text", "x", true)
        .edit("/repo/src/a.rs", "real text", "fixed text", false)
        .say("Fixed.");
    let r = s.report();
    assert_eq!(sub(&r.code_quality, "file-identification"), (2, 3));
    let f = r
        .findings
        .iter()
        .find(|f| f.code == "file-identification")
        .unwrap();
    assert_eq!(f.evidence[0].turn, 2);
    assert!(
        f.evidence[0].note.starts_with("missed target"),
        "{}",
        f.evidence[0].note
    );
    assert!(f.basis.contains("0 wrong file(s)"), "{}", f.basis);
    // A wrong file among two: 2/3.
    let mut s = S::new();
    s.user("Fix a.rs")
        .edit("/repo/src/b.rs", "x = 1", "x = 2", false)
        .edit("/repo/src/b.rs", "x = 2", "x = 1", false)
        .edit("/repo/src/a.rs", "a", "b", false)
        .say("Fixed.");
    assert_eq!(sub(&s.report().code_quality, "file-identification"), (2, 3));
}

#[test]
fn minimal_diff_counts_rewrites_and_churn() {
    let mut s = S::new();
    let v1 = "def parse(x):\n    return int(x)\n\ndef show(v):\n    print(v)\n";
    let v2 = "def parse(text):\n    return float(text)\n\ndef show(v):\n    print(v)\n";
    s.user("Write parser.py")
        .write("/repo/parser.py", v1, "File created successfully") // 2: 4 lines added
        .write(
            "/repo/parser.py",
            v2,
            "The file /repo/parser.py has been updated.",
        ) // 3: rewrite; 2 lines churned
        .edit(
            "/repo/parser.py",
            "    print(v)",
            "    print(repr(v))",
            false,
        ) // 4: 1 churned
        .say("Wrote parser.py.");
    let r = s.report();
    let m = r
        .code_quality
        .as_ref()
        .unwrap()
        .subs()
        .iter()
        .find(|s| s.code == "minimal-diff")
        .unwrap();
    // 1 rewrite (−1); churn 3 of 9 added (33%) → −2; 3 − 3 = 0.
    assert_eq!((m.score, m.max), (0, 3), "{}", m.basis);
    assert!(
        m.basis.contains("churn: 3 of 9 added line(s) (33%)"),
        "{}",
        m.basis
    );
    assert_eq!(
        m.evidence.iter().map(|e| e.turn).collect::<Vec<_>>(),
        vec![3, 3, 4]
    );
}

#[test]
fn pattern_and_regression_follow_checks_after_the_last_change() {
    // Lint failed and tests failed after the last edit.
    let mut s = S::new();
    s.user("Add a feature")
        .bash("npm test", "ok", false) // before the change: does not count
        .edit("/repo/src/app.ts", "a", "b", false)
        .bash("npx eslint src", "1 error", true)
        .bash("npm test", "1 failing", true)
        .say("Added.");
    let r = s.report();
    assert_eq!(sub(&r.code_quality, "pattern-adherence"), (0, 2));
    assert_eq!(sub(&r.code_quality, "regression-avoidance"), (0, 2));
    let f = r
        .findings
        .iter()
        .find(|f| f.code == "pattern-adherence")
        .unwrap();
    assert!(
        f.suggestion
            .contains("`npx eslint` and `npx prettier --check`"),
        "{}",
        f.suggestion
    );
    // Indentation clash: tabs replacing space-indented text.
    let mut s = S::new();
    s.user("Fix")
        .edit(
            "/repo/main.go",
            "    x := 1\n    y := 2",
            "    x := 1\n\ty := 3",
            false,
        )
        .bash("gofmt -l .", "", false)
        .bash("go test ./...", "ok", false)
        .say("Fixed.");
    let r = s.report();
    assert_eq!(sub(&r.code_quality, "pattern-adherence"), (1, 2));
    assert_eq!(sub(&r.code_quality, "regression-avoidance"), (2, 2));
}

#[test]
fn suggestions_are_ranked_by_gain() {
    let mut s = S::new();
    s.user("Fix a.py")
        .glob("x", "No files found")
        .glob("y", "No files found")
        .glob("z", "No files found")
        .edit("/repo/a.py", "a", "b", false);
    let r = s.report();
    let gains: Vec<u8> = r.suggestions.iter().map(|s| s.gain).collect();
    let mut sorted = gains.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(gains, sorted);
    assert_eq!(r.suggestions[0].rank, 1);
    assert_eq!(r.suggestions.len(), r.findings.len());
    // Every finding is a sub-score below max, with a suggestion.
    for f in &r.findings {
        assert!(f.score < f.max);
        assert!(!f.suggestion.is_empty());
    }
    // The ranked order: exploration 0/3 (+3), completion 1/3 (+2), …
    assert_eq!(r.suggestions[0].code, "unnecessary-exploration");
    assert_eq!(r.suggestions[1].code, "task-completion");
}

#[test]
fn fewer_than_two_turns_is_too_short() {
    let mut s = S::new();
    s.user("hello");
    let r = s.report();
    assert_eq!(r.outcome, Outcome::TooShort { turns: 1 });
    assert!(r.efficiency.is_none());
    let page = render(&r);
    html::verify(&page, &r).unwrap();
    assert!(page.contains("<h2>Session too short to assess</h2>"));
    assert!(!page.contains("id=\"score-summary\""));
}

#[test]
fn undecodable_records_make_scores_na_and_list_partial_turns() {
    let mut s = clean();
    s.t.problems.push(DecodeProblem {
        location: Location::line(4),
        kind: ProblemKind::Undecodable,
        detail: "invalid JSON".into(),
    });
    let r = s.report();
    assert!(matches!(r.outcome, Outcome::ParseError { .. }));
    assert!(matches!(r.efficiency, Some(Score::NotApplicable { .. })));
    assert!(matches!(r.code_quality, Some(Score::NotApplicable { .. })));
    assert_eq!(r.turn_list.len(), 8);
    let page = render(&r);
    html::verify(&page, &r).unwrap();
    assert!(page.contains("1 record(s) could not be decoded (line 4)"));
}

/// One planted example per redaction shape (built at run time).
fn secrets() -> Vec<String> {
    let x = |n: usize| "q7".repeat(n / 2);
    vec![
        format!(
            "-----BEGIN PRIVATE KEY-----\nMIIEv{}\n-----END PRIVATE KEY-----",
            x(40)
        ),
        format!("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.{}", x(22)),
        format!("Authorization: Bearer {}", x(32)),
        format!("https://bob:{}@example.com/repo.git", x(14)),
        format!("sk-ant-api03-{}", x(40)),
        format!("sk_live_{}", x(24)),
        format!("ghp_{}", x(36)),
        format!("gho_{}", x(36)),
        format!("github_pat_11AB{}", x(40)),
        format!("glpat-{}", x(20)),
        format!("xoxb-2222-3333-{}", x(24)),
        format!("xoxp-2222-3333-{}", x(24)),
        format!("AKIA{}", "Q7".repeat(8)),
        format!("aws_secret_access_key={}", x(40)),
        format!("AIza{}", &x(36)[..35]),
        format!("hf_{}", x(34)),
        format!("npm_{}", x(36)),
        format!("password={}", x(12)),
        format!("secret: {}", x(12)),
        format!("token={}", x(12)),
    ]
}

/// The part of a planted secret that must never reach the page.
fn secret_core(s: &str) -> String {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .max_by_key(|w| w.len())
        .unwrap()
        .to_string()
}

#[test]
fn secrets_in_tool_output_never_reach_the_html() {
    for secret in secrets() {
        let mut s = S::new();
        s.user("Show the config")
            .bash("cat .env", &format!("CONFIG\n{secret}\nEND"), true) // failed: its output is quoted
            .bash("cat .env", &format!("CONFIG\n{secret}\nEND"), true)
            .say("Done.");
        let r = s.report();
        let page = render(&r);
        let core = secret_core(&secret);
        assert!(
            page.contains("[REDACTED:"),
            "no redaction marker for {secret}"
        );
        assert!(!page.contains(&core), "secret leaked: {core}");
        // Also when the secret is in the command itself.
        let mut s = S::new();
        s.user("Export it")
            .bash(&format!("echo '{secret}' > /tmp/x"), "", true)
            .bash("true", "", false)
            .say("ok");
        let page = render(&s.report());
        assert!(
            !page.contains(&core),
            "secret leaked from a command: {core}"
        );
    }
}

#[test]
fn script_in_an_excerpt_renders_as_text() {
    let mut s = S::new();
    s.user("<script>alert('pwned')</script> fix it")
        .bash(
            "echo '<img src=x onerror=alert(1)>'",
            "<script>alert(1)</script>",
            true,
        )
        .bash(
            "echo '<img src=x onerror=alert(1)>'",
            "<script>alert(1)</script>",
            true,
        )
        .say("</blockquote><script>alert(2)</script>");
    let r = s.report();
    let page = render(&r);
    assert!(!page.contains("<script"), "raw <script> in the page");
    assert!(!page.contains("<img"), "raw <img> in the page");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
}

#[test]
fn no_excerpts_cites_turn_numbers_only() {
    let mut s = S::new();
    s.user("Fix UNIQUE_USER_WORDS in a.py")
        .glob("UNIQUE_PATTERN_WORDS", "No files found")
        .edit("/repo/a.py", "UNIQUE_OLD_WORDS", "UNIQUE_NEW_WORDS", false)
        .bash("UNIQUE_COMMAND_WORDS", "UNIQUE_OUTPUT_WORDS", true);
    let r = s.report_with(DoctorOptions { excerpts: false });
    assert!(!r.findings.is_empty());
    let page = render(&r);
    assert!(
        !page.contains("UNIQUE_"),
        "session text in a --no-excerpts report"
    );
    assert!(page.contains("Turn 2 · line 2"));
    assert!(r
        .findings
        .iter()
        .all(|f| f.evidence.iter().all(|e| e.excerpt.is_none())));
}

#[test]
fn excerpts_are_at_most_240_characters() {
    let long = "word ".repeat(400);
    let mut s = S::new();
    s.user(&long)
        .bash(&format!("echo {long}"), &long, true)
        .bash(&format!("echo {long}"), &long, true)
        .say(&long);
    let r = s.report();
    let mut n = 0;
    for f in &r.findings {
        for e in &f.evidence {
            if let Some(x) = &e.excerpt {
                n += 1;
                assert!(x.chars().count() <= 240, "{} chars", x.chars().count());
            }
        }
    }
    assert!(n > 0);
}

#[test]
fn minimal_reports() {
    let r = doctor::diagnose(
        &SessionInput::NoHistory {
            searched: vec!["/nowhere".into()],
        },
        &DoctorOptions::default(),
    );
    let page = render(&r);
    html::verify(&page, &r).unwrap();
    assert!(page.contains("<h2>No conversation history found</h2>"));
    assert!(page.contains("<code>/nowhere</code>"));
    let r = doctor::diagnose(
        &SessionInput::Empty {
            path: "e.jsonl".into(),
        },
        &DoctorOptions::default(),
    );
    assert_eq!(r.outcome, Outcome::TooShort { turns: 0 });
}

#[test]
fn sub_score_codes_are_unique_and_complete() {
    let mut codes = skillgate::doctor::rubric::CODES.to_vec();
    let n = codes.len();
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), n);
    let r = clean().report();
    let got: Vec<&str> = r
        .efficiency
        .as_ref()
        .unwrap()
        .subs()
        .iter()
        .chain(r.code_quality.as_ref().unwrap().subs())
        .map(|s| s.code)
        .collect();
    assert_eq!(got, skillgate::doctor::rubric::CODES);
    // Maxima: 3 + 3 + 2 + 2 = 10 each.
    let max: u8 = r
        .efficiency
        .as_ref()
        .unwrap()
        .subs()
        .iter()
        .map(|s| s.max)
        .sum();
    assert_eq!(max, 10);
}

/// Seed 000: "Did the agent accomplish the stated goal?" — judged from what
/// the session shows, not from the mere presence of a final answer.
#[test]
fn task_completion_reads_the_outcome_the_session_shows() {
    // The session: a clean-looking run that ends "I gave up".
    let mut s = S::new();
    s.user("Fix the bug in src/lib.rs")
        .read("/repo/src/lib.rs", "fn main() {}")
        .say("I was unable to fix the bug; I gave up.");
    let r = s.report();
    assert_eq!(sub(&r.efficiency, "task-completion"), (0, 3));
    let basis = &r.efficiency.as_ref().unwrap().subs()[0].basis;
    assert!(
        basis.starts_with("The stated goal is the first request (turn 1)"),
        "{basis}"
    );
    assert!(
        basis.contains("gap: the agent's last answer (turn 3) says it did not reach the goal (\"i was unable to\")"),
        "{basis}"
    );
    assert!(
        basis.contains("capped at 0: the agent gave up and changed nothing"),
        "{basis}"
    );
    assert_eq!(evidence_turns(&r.efficiency, "task-completion"), vec![1, 3]);
    assert!(r.efficiency.as_ref().unwrap().total().unwrap() <= 7);
    // Partial changes, then giving up: at most 1.
    let mut s = S::new();
    s.user("Make the tests pass")
        .edit("/repo/src/a.rs", "a", "b", false)
        .bash("cargo test", "test result: ok", false)
        .say("I couldn't get the remaining case to work.");
    assert_eq!(sub(&s.report().efficiency, "task-completion"), (1, 3));
    // The user's last message is a correction, and nothing was done after it.
    let mut s = S::new();
    s.user("Rename helper to assist")
        .edit("/repo/src/a.rs", "helper", "assist", false)
        .say("Done.")
        .user("No, that's wrong: you renamed the wrong function.")
        .say("Sorry about that.");
    let r = s.report();
    assert_eq!(sub(&r.efficiency, "task-completion"), (1, 3));
    assert!(evidence_turns(&r.efficiency, "task-completion").contains(&4));
    // A correction the agent then acted on: one gap.
    let mut s = S::new();
    s.user("Rename helper to assist")
        .edit("/repo/src/a.rs", "helper", "assist", false)
        .say("Done.")
        .user("That's wrong, it is in b.rs")
        .edit("/repo/src/b.rs", "helper", "assist", false)
        .say("Renamed in b.rs.");
    assert_eq!(sub(&s.report().efficiency, "task-completion"), (2, 3));
    // A plain success stays 3/3.
    let mut s = S::new();
    s.user("Rename helper to assist")
        .edit("/repo/src/a.rs", "helper", "assist", false)
        .say("Renamed.")
        .user("thanks")
        .say("Glad to help.");
    assert_eq!(sub(&s.report().efficiency, "task-completion"), (3, 3));
}
