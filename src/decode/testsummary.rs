//! Test-runner summaries in tool output (SPEC §5 masked failures).
//!
//! `cargo test 2>&1 | tail` and `rspec … | head -80` exit with the status of
//! `tail` / `head`: a red run looks green. Decoders call [`scan`] on the output
//! of a shell call (in memory; no text is kept) and [`apply`] to set
//! [`Event::test_outcome`] and, for a red run or an environment error,
//! [`Event::failed`] — only when the shell line runs a test runner
//! ([`is_test_command`]), so a `grep FAILED log` is never a red test.
//!
//! Recognised summaries: cargo test / nextest, pytest, jest, vitest, go test,
//! rspec, minitest (and `rails test`), mocha, bun test, and the npm / yarn /
//! pnpm / make / mise wrappers around them. An error that stops the tests from
//! running (command not found, a missing gem, Bundler, a missing npm script, no
//! pytest module) is [`TestOutcome::NotRun`]: the call failed, but it is not a
//! red test. Precedence: failing tests beat an environment error, which beats
//! a build or collection error, which beats a passing summary.

use super::{Action, Event, TestOutcome};

/// What the lines of one output said.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Seen {
    /// Tests failed (a failure count > 0, a FAIL line, `test result: FAILED`).
    failed: bool,
    /// The tests could not run (environment).
    env: bool,
    /// A build / collection / wrapper error (red, but weaker than `env`).
    error: bool,
    /// A passing summary.
    passed: bool,
}

/// The outcome a test runner's output reports, or `None` when it holds no
/// recognised summary. Reads the text once, line by line; keeps nothing.
pub fn scan(output: &str) -> Option<TestOutcome> {
    let mut seen = Seen::default();
    let mut buf = String::new();
    for raw in output.lines() {
        if raw.len() > 400 {
            continue; // summaries are short lines
        }
        let line = if raw.contains('\u{1b}') {
            buf.clear();
            strip_ansi(raw, &mut buf);
            buf.as_str()
        } else {
            raw
        };
        line_facts(line, &mut seen);
    }
    if seen.failed {
        Some(TestOutcome::Failed)
    } else if seen.env {
        Some(TestOutcome::NotRun)
    } else if seen.error {
        Some(TestOutcome::Failed)
    } else if seen.passed {
        Some(TestOutcome::Passed)
    } else {
        None
    }
}

/// Set `test_outcome` (and `failed` for a red run or an environment error) on
/// a shell event that runs a test runner. Other events are left alone.
pub fn apply(ev: &mut Event, outcome: Option<TestOutcome>) {
    let Some(outcome) = outcome else { return };
    let Action::Shell(sh) = &ev.action else {
        return;
    };
    if !sh.commands.iter().any(|c| is_test_command(&c.argv)) {
        return;
    }
    ev.test_outcome = Some(outcome);
    if matches!(outcome, TestOutcome::Failed | TestOutcome::NotRun) {
        ev.failed = true;
    }
}

/// Scan `output` and [`apply`] the outcome: the one call a decoder makes.
pub fn apply_output(ev: &mut Event, output: &str) {
    if is_test_shell(ev) {
        apply(ev, scan(output));
    }
}

/// A shell event with a test-runner command (worth scanning its output).
pub fn is_test_shell(ev: &Event) -> bool {
    match &ev.action {
        Action::Shell(sh) => sh.commands.iter().any(|c| is_test_command(&c.argv)),
        _ => false,
    }
}

/// Does this simple command (words after quote removal) run tests?
pub fn is_test_command(argv: &[String]) -> bool {
    let mut w: Vec<&str> = argv.iter().map(String::as_str).collect();
    // wrappers: time, timeout N, env VAR=x, nice, nohup, xvfb-run
    loop {
        match w.first().map(|s| base(s)) {
            Some("time" | "nice" | "nohup" | "xvfb-run" | "stdbuf" | "caffeinate") => {
                w.remove(0);
                while w.first().is_some_and(|s| s.starts_with('-')) {
                    w.remove(0);
                }
            }
            Some("timeout" | "gtimeout") => {
                w.remove(0);
                while w.first().is_some_and(|s| s.starts_with('-')) {
                    w.remove(0);
                }
                if !w.is_empty() {
                    w.remove(0); // the duration
                }
            }
            Some("env") => {
                w.remove(0);
                while w
                    .first()
                    .is_some_and(|s| s.contains('=') || s.starts_with('-'))
                {
                    w.remove(0);
                }
            }
            _ => break,
        }
    }
    let Some(first) = w.first() else {
        return false;
    };
    let cmd = base(first);
    let arg = |i: usize| w.get(i).copied().unwrap_or("");
    let testish = |s: &str| {
        let s = s.to_ascii_lowercase();
        s.starts_with("test") || s.starts_with("spec") || s == "t" || s == "check"
    };
    match cmd {
        "pytest" | "py.test" | "jest" | "vitest" | "mocha" | "rspec" | "tox" | "nox"
        | "phpunit" | "ctest" | "nextest" | "ava" | "tap" | "karma" | "playwright" => true,
        "cargo" => {
            matches!(arg(1), "test" | "t" | "nextest")
                || (arg(1).starts_with('+') && matches!(arg(2), "test" | "t" | "nextest"))
        }
        "go" | "deno" | "dotnet" | "mix" | "swift" | "zig" => arg(1) == "test",
        "python" | "python3" | "py" | "uv" | "poetry" | "pipenv" | "hatch" | "pdm" => w
            .iter()
            .any(|a| matches!(*a, "pytest" | "unittest" | "py.test") || testish(a)),
        "bundle" | "bin/bundle" => arg(1) == "exec" && is_test_command(&to_owned(&w[2..])),
        "rake" | "bin/rake" => w[1..].iter().any(|a| testish(a)),
        "rails" | "bin/rails" => arg(1) == "test" || arg(1).starts_with("test:"),
        "ruby" => w[1..]
            .iter()
            .any(|a| a.contains("test") || a.contains("spec")),
        "npx" | "pnpx" | "bunx" => {
            let rest: Vec<&str> = w[1..]
                .iter()
                .copied()
                .filter(|a| !a.starts_with('-'))
                .collect();
            is_test_command(&to_owned(&rest))
        }
        "npm" | "yarn" | "pnpm" | "bun" => {
            let rest: Vec<&str> = w[1..]
                .iter()
                .copied()
                .filter(|a| !a.starts_with('-'))
                .collect();
            match rest.first().copied() {
                Some("run" | "run-script") => rest.get(1).is_some_and(|s| testish(s)),
                Some("exec" | "dlx") => is_test_command(&to_owned(&rest[1..])),
                Some(s) if testish(s) => true,
                Some("jest" | "vitest" | "mocha") => true,
                _ => false,
            }
        }
        "make" | "gmake" | "just" | "task" | "mise" | "gradle" | "./gradlew" | "gradlew"
        | "mvn" | "./mvnw" | "mvnw" | "sbt" => w[1..]
            .iter()
            .filter(|a| !a.starts_with('-') && **a != "run")
            .take(1)
            .any(|a| testish(a.rsplit(':').next_back().unwrap_or(a)) || a.starts_with("test")),
        other => {
            // a project script: ./scripts/run_tests.sh, bin/test
            let name = other.to_ascii_lowercase();
            first.contains('/') && (name.contains("test") || name.contains("spec"))
        }
    }
}

fn to_owned(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

fn base(s: &str) -> &str {
    if s.starts_with("./") || s.starts_with("bin/") {
        return s.trim_start_matches("./");
    }
    s.rsplit('/').next().unwrap_or(s)
}

fn strip_ansi(s: &str, out: &mut String) {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
}

/// The leading integer of `s` (after spaces), if any.
fn lead_num(s: &str) -> Option<u64> {
    let s = s.trim_start();
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    s[..n].parse().ok()
}

/// The number just before `word` in `line` ("3 failed" → 3), for every occurrence.
fn count_before(line: &str, word: &str) -> Option<u64> {
    let mut total = None;
    let mut from = 0;
    while let Some(i) = line[from..].find(word) {
        let at = from + i;
        let before = line[..at].trim_end();
        let digits = before.bytes().rev().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            if let Ok(n) = before[before.len() - digits..].parse::<u64>() {
                total = Some(total.unwrap_or(0) + n);
            }
        }
        from = at + word.len();
    }
    total
}

/// Markers of an environment error (the tests did not run), anywhere in a line.
const ENV: &[&str] = &[
    "command not found",
    "Could not find gem",
    "Bundler::GemNotFound",
    "Bundler could not find",
    "Could not locate Gemfile",
    "cannot load such file -- bundler",
    "Your Ruby version is",
    "is not installed (set by",
    "Run `bundle install` to install missing gems",
    "No module named pytest",
    "No module named 'pytest'",
    "error: no such command:",
    "npm ERR! Missing script",
    "npm ERR! missing script",
    "npm error Missing script",
    "ERR_PNPM_NO_SCRIPT",
    "ERR_PNPM_NO_IMPORTER_MANIFEST",
    "error Command \"test\" not found",
    "Cannot find module 'jest'",
    "Cannot find module 'vitest'",
    "Cannot find module 'mocha'",
    "go: cannot find main module",
    "go.mod file not found",
    "go: updates to go.mod needed",
    "missing go.sum entry",
    "ENOENT: no such file or directory, open '",
];

/// Substrings that the later rules look for anywhere in a line (bit `i` of
/// [`Hits::words`] is `WORDS[i]`).
const WORDS: &[&str] = &[
    " example",
    " runs, ",
    " failing",
    "ELIFECYCLE",
    "ERROR task failed",
];
const W_EXAMPLE: u8 = 1;
const W_RUNS: u8 = 1 << 1;
const W_FAILING: u8 = 1 << 2;
const W_ELIFECYCLE: u8 = 1 << 3;
const W_TASK_FAILED: u8 = 1 << 4;

/// [`ENV`] and [`WORDS`] compiled once: one pass over a line finds every one
/// of them (a substring search per marker and per line was the decoders'
/// hottest loop).
fn markers() -> &'static aho_corasick::AhoCorasick {
    static CELL: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        aho_corasick::AhoCorasick::new(ENV.iter().chain(WORDS)).expect("fixed literal patterns")
    })
}

/// Which markers a line contains.
struct Hits {
    env: bool,
    words: u8,
}

fn hits(t: &str) -> Hits {
    let mut h = Hits {
        env: false,
        words: 0,
    };
    for m in markers().find_overlapping_iter(t) {
        match m.pattern().as_usize().checked_sub(ENV.len()) {
            None => h.env = true,
            Some(w) => h.words |= 1 << w,
        }
    }
    h
}

fn line_facts(line: &str, s: &mut Seen) {
    let t = line.trim();
    if t.is_empty() {
        return;
    }
    // ---- environment errors: the tests did not run
    // `sh: 1: jest: not found` (dash)
    let h = hits(t);
    if h.env || (t.ends_with(": not found") && t.matches(": ").count() >= 2) {
        s.env = true;
        return;
    }

    // ---- cargo test / nextest
    if let Some(rest) = t.strip_prefix("test result: ") {
        if rest.starts_with("FAILED") || count_before(rest, " failed").is_some_and(|n| n > 0) {
            s.failed = true;
        } else if rest.starts_with("ok") {
            s.passed = true;
        }
        return;
    }
    if t.starts_with("error: test failed")
        || t.starts_with("error: test run failed")
        || (t.starts_with("test ") && t.ends_with("... FAILED"))
        || t == "failures:"
    {
        s.failed = true;
        return;
    }
    if t.starts_with("error: could not compile") || t.starts_with("error[E") {
        s.error = true;
        return;
    }
    if t.starts_with("Summary [") && t.contains(" tests run: ") {
        if count_before(t, " failed").is_some_and(|n| n > 0) {
            s.failed = true;
        } else if t.contains(" passed") {
            s.passed = true;
        }
        return;
    }

    // ---- go test
    if t.starts_with("--- FAIL:") || t == "FAIL" || t.starts_with("FAIL\t") {
        if t.ends_with("[build failed]") || t.ends_with("[setup failed]") {
            s.error = true;
        } else {
            s.failed = true;
        }
        return;
    }
    if t == "PASS" || (t.starts_with("ok ") || t.starts_with("ok\t")) && t.contains('\t') {
        s.passed = true;
        return;
    }

    // ---- rspec: "12 examples, 2 failures", "Failures:", "Failed examples:"
    if h.words & W_EXAMPLE != 0 && t.contains(" failure") {
        let ex = lead_num(t);
        let f = count_before(t, " failure");
        if ex.is_some() {
            match f {
                Some(n) if n > 0 => s.failed = true,
                _ if t.contains("error") && t.contains("occurred outside of examples") => {
                    s.error = true
                }
                _ => s.passed = true,
            }
            return;
        }
    }
    if t == "Failures:" || t == "Failed examples:" {
        s.failed = true;
        return;
    }

    // ---- minitest / rails test: "10 runs, 20 assertions, 1 failures, 0 errors, 0 skips"
    if h.words & W_RUNS != 0 && t.contains(" assertions, ") {
        let f = count_before(t, " failures").unwrap_or(0) + count_before(t, " errors").unwrap_or(0);
        if f > 0 {
            s.failed = true;
        } else {
            s.passed = true;
        }
        return;
    }

    // ---- jest: "Tests:       1 failed, 2 passed, 3 total"; "Test Suites: 1 failed, …"
    if let Some(rest) = t
        .strip_prefix("Tests:")
        .or_else(|| t.strip_prefix("Test Suites:"))
    {
        if count_before(rest, " failed").is_some_and(|n| n > 0) {
            s.failed = true;
        } else if rest.contains(" passed") {
            s.passed = true;
        }
        return;
    }
    // ---- vitest: "Test Files  1 failed | 2 passed (3)", "Tests  1 failed | 5 passed (6)"
    if let Some(rest) = t
        .strip_prefix("Test Files ")
        .or_else(|| t.strip_prefix("Tests "))
    {
        if count_before(rest, " failed").is_some_and(|n| n > 0) {
            s.failed = true;
        } else if rest.contains(" passed") {
            s.passed = true;
        }
        return;
    }
    if t.starts_with("FAIL ") && (t.contains(".test.") || t.contains(".spec.") || t.contains('>')) {
        s.failed = true; // jest / vitest per-file FAIL line
        return;
    }

    // ---- pytest: "==== 1 failed, 2 passed in 0.12s ====", "-q": "1 failed, 2 passed in 0.1s"
    let core = t.trim_matches(|c| c == '=' || c == ' ');
    if core != t || lead_num(core).is_some() {
        if let Some(n) = lead_num(core) {
            let _ = n;
            let is_summary = core.contains(" in ")
                && [
                    " passed",
                    " failed",
                    " error",
                    " skipped",
                    " xfailed",
                    " deselected",
                ]
                .iter()
                .any(|w| core.contains(w));
            if is_summary {
                if count_before(core, " failed").is_some_and(|n| n > 0) {
                    s.failed = true;
                } else if count_before(core, " error").is_some_and(|n| n > 0) {
                    s.error = true;
                } else if core.contains(" passed") {
                    s.passed = true;
                }
                return;
            }
        }
        if core.starts_with("no tests ran") {
            return;
        }
    }
    if t.starts_with("FAILED ") && t.contains("::") {
        s.failed = true; // pytest short test summary
        return;
    }
    if t.starts_with("ERROR collecting") || t.starts_with("ERROR ") && t.contains("::") {
        s.error = true;
        return;
    }

    // ---- mocha: "  3 passing (12ms)", "  1 failing"; bun: " 3 pass", " 1 fail"
    let failing = if h.words & W_FAILING != 0 {
        count_before(t, " failing")
    } else {
        None
    };
    if let Some(n) = failing.or_else(|| {
        (t.ends_with(" fail") && lead_num(t).is_some())
            .then(|| lead_num(t))
            .flatten()
    }) {
        if lead_num(t).is_some() {
            if n > 0 {
                s.failed = true;
            }
            return;
        }
    }
    if lead_num(t).is_some() && (t.contains(" passing (") || t.ends_with(" pass")) {
        s.passed = true;
        return;
    }

    // ---- wrappers: npm / yarn / pnpm / make / mise
    if t.starts_with("npm ERR! Test failed")
        || t.starts_with("npm error Test failed")
        || t.starts_with("ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL")
        || h.words & W_ELIFECYCLE != 0 && t.contains("Test failed")
    {
        s.failed = true;
        return;
    }
    if (t.starts_with("error Command failed with exit code")
        || t.starts_with("make: *** ") && t.contains("Error")
        || h.words & W_TASK_FAILED != 0
        || t.starts_with(" ELIFECYCLE ") && t.contains("Command failed"))
        && !s.env
    {
        s.error = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::shell::parse_line;
    use crate::decode::{Location, Role};
    use TestOutcome::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn cargo() {
        let red = "running 3 tests\ntest a ... ok\ntest b ... FAILED\n\nfailures:\n\n---- b stdout ----\npanicked\n\nfailures:\n    b\n\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nerror: test failed, to rerun pass `--lib`\n";
        assert_eq!(scan(red), Some(Failed));
        // `| tail -3` keeps only the summary
        assert_eq!(
            scan("test result: FAILED. 2 passed; 1 failed; 0 ignored\n\nerror: test failed, to rerun pass `--lib`"),
            Some(Failed)
        );
        assert_eq!(
            scan("test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"),
            Some(Passed)
        );
        assert_eq!(
            scan("error[E0425]: cannot find function `add` in this scope\nerror: could not compile `x` (lib test) due to 1 previous error"),
            Some(Failed)
        );
        assert_eq!(
            scan("error: no such command: `nextest`\n\n\tView all installed commands with `cargo --list`"),
            Some(NotRun)
        );
        assert_eq!(
            scan("     Summary [   0.210s] 10 tests run: 9 passed, 1 failed, 0 skipped"),
            Some(Failed)
        );
    }

    #[test]
    fn pytest() {
        assert_eq!(
            scan("FAILED tests/test_a.py::test_x - assert 1 == 2\n========================= 1 failed, 4 passed in 0.12s ========================="),
            Some(Failed)
        );
        assert_eq!(scan("....\n4 passed in 0.05s"), Some(Passed));
        assert_eq!(scan("1 failed, 3 passed in 0.20s"), Some(Failed));
        assert_eq!(
            scan("==== 5 passed, 1 skipped, 2 warnings in 1.01s ===="),
            Some(Passed)
        );
        assert_eq!(
            scan("ERROR collecting tests/test_new.py\nE   ImportError: cannot import name 'thing'\n=== 1 error in 0.10s ==="),
            Some(Failed)
        );
        assert_eq!(
            scan("/usr/bin/python3: No module named pytest"),
            Some(NotRun)
        );
    }

    #[test]
    fn jest_and_vitest() {
        assert_eq!(
            scan("FAIL src/sum.test.js\n  ● sum › adds\n\nTest Suites: 1 failed, 1 total\nTests:       1 failed, 2 passed, 3 total\nSnapshots:   0 total\nTime:        0.5 s"),
            Some(Failed)
        );
        assert_eq!(
            scan("Test Suites: 2 passed, 2 total\nTests:       9 passed, 9 total"),
            Some(Passed)
        );
        assert_eq!(
            scan(" \u{1b}[31m❯\u{1b}[39m src/a.test.ts (2 tests | 1 failed)\n\n Test Files  1 failed | 3 passed (4)\n      Tests  1 failed | 11 passed (12)\n   Start at  10:00:00"),
            Some(Failed)
        );
        assert_eq!(
            scan(" Test Files  4 passed (4)\n      Tests  12 passed (12)"),
            Some(Passed)
        );
        assert_eq!(scan("sh: 1: vitest: not found"), Some(NotRun));
        assert_eq!(
            scan("Error: Cannot find module 'jest'\nRequire stack:"),
            Some(NotRun)
        );
    }

    #[test]
    fn go_test() {
        assert_eq!(
            scan("=== RUN   TestX\n--- FAIL: TestX (0.00s)\n    x_test.go:9: got 1\nFAIL\nFAIL\texample.com/x\t0.003s\nFAIL"),
            Some(Failed)
        );
        assert_eq!(
            scan("ok  \texample.com/x\t0.003s\n?   \texample.com/y\t[no test files]"),
            Some(Passed)
        );
        assert_eq!(
            scan("# example.com/x\n./x.go:3:2: undefined: y\nFAIL\texample.com/x [build failed]"),
            Some(Failed)
        );
        assert_eq!(
            scan("go: go.mod file not found in current directory or any parent directory"),
            Some(NotRun)
        );
    }

    #[test]
    fn rspec() {
        // `rspec … | head -80`: the summary at the bottom is cut, "Failures:" is not
        assert_eq!(
            scan("..F..\n\nFailures:\n\n  1) Cart totals sums items\n     Failure/Error: expect(total).to eq(3)"),
            Some(Failed)
        );
        assert_eq!(
            scan("Finished in 0.1 seconds (files took 0.2 seconds to load)\n12 examples, 2 failures\n\nFailed examples:\n\nrspec ./spec/cart_spec.rb:4 # Cart"),
            Some(Failed)
        );
        assert_eq!(scan("12 examples, 0 failures"), Some(Passed));
        assert_eq!(
            scan("An error occurred while loading ./spec/cart_spec.rb.\nNameError: uninitialized constant Cart\n0 examples, 0 failures, 1 error occurred outside of examples"),
            Some(Failed)
        );
        // an environment error after the fix is not a red test
        assert_eq!(
            scan("Could not find gem 'rspec-rails (~> 6.0)' in locally installed gems.\nRun `bundle install` to install missing gems."),
            Some(NotRun)
        );
        assert_eq!(
            scan("bundler: failed to load command: rspec\n/x/lib/bundler/spec_set.rb:1: Bundler::GemNotFound"),
            Some(NotRun)
        );
        assert_eq!(scan("zsh: command not found: rspec"), Some(NotRun));
    }

    #[test]
    fn minitest_and_mocha() {
        assert_eq!(
            scan("Finished in 0.01s\n10 runs, 20 assertions, 1 failures, 0 errors, 0 skips"),
            Some(Failed)
        );
        assert_eq!(
            scan("10 runs, 20 assertions, 0 failures, 1 errors, 0 skips"),
            Some(Failed)
        );
        assert_eq!(
            scan("10 runs, 20 assertions, 0 failures, 0 errors, 0 skips"),
            Some(Passed)
        );
        assert_eq!(scan("  3 passing (12ms)\n  1 failing\n"), Some(Failed));
        assert_eq!(scan("  3 passing (12ms)\n"), Some(Passed));
        assert_eq!(scan(" 3 pass\n 1 fail\nRan 4 tests"), Some(Failed));
    }

    #[test]
    fn npm_wrappers() {
        assert_eq!(
            scan("> x@1.0.0 test\n> jest\n\nTests:       1 failed, 1 total\nnpm ERR! Test failed.  See above for more details."),
            Some(Failed)
        );
        assert_eq!(scan("npm error Missing script: \"test\""), Some(NotRun));
        assert_eq!(scan("error Command failed with exit code 1."), Some(Failed));
        assert_eq!(scan("nothing to see here\nall good"), None);
        // failing tests beat an environment message printed along the way
        assert_eq!(
            scan("warn: command not found: foo\n1 failed, 2 passed in 0.1s"),
            Some(Failed)
        );
    }

    #[test]
    fn test_commands() {
        for yes in [
            "cargo test",
            "cargo +nightly test --lib",
            "cargo nextest run",
            "pytest -x tests/",
            "python -m pytest",
            "uv run pytest",
            "go test ./...",
            "bundle exec rspec spec/cart_spec.rb",
            "rspec",
            "bin/rails test",
            "bundle exec rake test",
            "ruby -Itest test/cart_test.rb",
            "npx jest",
            "npx vitest run",
            "npm test",
            "npm run test:unit",
            "yarn test",
            "pnpm test",
            "pnpm vitest",
            "bun test",
            "mocha",
            "make test",
            "mise run test",
            "mise run test:integration",
            "just test",
            "timeout 60 cargo test",
            "env RUST_LOG=1 cargo test",
            "./scripts/run_tests.sh",
        ] {
            assert!(is_test_command(&argv(yes)), "{yes}");
        }
        for no in [
            "cargo build",
            "grep FAILED log.txt",
            "tail -20",
            "npm install",
            "go build ./...",
            "cat test_output.log",
            "make",
            "git commit -m test",
        ] {
            assert!(!is_test_command(&argv(no)), "{no}");
        }
    }

    #[test]
    fn apply_sets_failed_only_on_test_shell_lines() {
        let mut ev = Event::new(
            Location::line(1),
            Role::Assistant,
            Action::Shell(parse_line("cargo test 2>&1 | tail -5")),
        );
        ev.exit_code = Some(0);
        apply_output(&mut ev, "test result: FAILED. 1 passed; 1 failed;");
        assert!(ev.failed);
        assert_eq!(ev.test_outcome, Some(Failed));

        let mut grep = Event::new(
            Location::line(2),
            Role::Assistant,
            Action::Shell(parse_line("grep -h 'test result' ci.log | tail -1")),
        );
        apply_output(&mut grep, "test result: FAILED. 1 passed; 1 failed;");
        assert!(!grep.failed);
        assert_eq!(grep.test_outcome, None);

        let mut env = Event::new(
            Location::line(3),
            Role::Assistant,
            Action::Shell(parse_line("bundle exec rspec 2>&1 | head -80")),
        );
        apply_output(
            &mut env,
            "Could not find gem 'rspec' in locally installed gems.",
        );
        assert!(env.failed);
        assert_eq!(env.test_outcome, Some(NotRun));

        let mut green = Event::new(
            Location::line(4),
            Role::Assistant,
            Action::Shell(parse_line("pytest -q | tail -2")),
        );
        apply_output(&mut green, "5 passed in 0.1s");
        assert!(!green.failed);
        assert_eq!(green.test_outcome, Some(Passed));
    }
}
