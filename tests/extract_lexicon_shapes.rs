//! What the default lexicon's words, phrases and commands give, on a fixture
//! skill written for these tests (`fixtures/extract/lexicon-shapes/SKILL.md`,
//! no real skill's text): common imperative verbs open rules, nouns that look
//! like verbs do not; agents returning, the full suite, git history, report
//! files become predicates; PR comments, GitHub issues and the agent's own
//! MCP configuration are scoped, a tracker's issues and CI workflows are not.

use skillgate::extract::{extract, Constraint, Lexicon, Modality, Predicate, ScopeTag};
use skillgate::parse::Skill;
use std::path::Path;

fn constraints() -> Vec<Constraint> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extract/lexicon-shapes/SKILL.md");
    let skill = Skill::read(&path).expect("fixture parses");
    extract(&skill, &Lexicon::builtin())
}

fn at(cs: &[Constraint], line: u32) -> Option<&Constraint> {
    cs.iter().find(|c| c.lines[0] <= line && line <= c.lines[1])
}

fn rule(cs: &[Constraint], line: u32) -> &Constraint {
    at(cs, line).unwrap_or_else(|| panic!("line {line} is a rule: {cs:#?}"))
}

fn p(s: &str) -> Predicate {
    yaml_serde::from_str(s).unwrap()
}

/// The test-runner predicate of the default lexicon.
const TESTS: &str = r"{command_re: '^(npm (run )?test|npx (jest|vitest|mocha)|yarn test|pnpm test|bun test|cargo (test|nextest)|(uv run )?pytest|python3? -m (pytest|unittest)|go test|make (test|check)|mvn test|gradle test|dotnet test|rspec|bundle exec rspec|phpunit|just (test|check)|task (test|check)|tox|nox|hatch test|pdm (run )?test)\b'}";

#[test]
fn common_imperative_verbs_open_rules() {
    let cs = constraints();
    // restate, involve, calculate, be, find, remember
    for line in 10..=15 {
        let c = rule(&cs, line);
        assert_eq!(c.modality, Modality::Must, "{c:#?}");
        assert!(c.scope.is_empty(), "{c:#?}");
    }
    // change … and test each
    let c = rule(&cs, 29);
    assert_eq!(c.require, Some(p(TESTS)), "{c:#?}");
}

#[test]
fn nouns_that_look_like_verbs_open_no_rule() {
    // "Test coverage …", "Issue tracking …", "Batch jobs …".
    let cs = constraints();
    assert!(at(&cs, 17).is_none(), "{:#?}", at(&cs, 17));
}

#[test]
fn agents_returning_is_the_trigger_of_their_items() {
    let cs = constraints();
    let c = rule(&cs, 22);
    assert_eq!(c.when, Some(p("{subagent: '*'}")), "{c:#?}");
    // "Run full suite": no word "test", still the test runner.
    let c = rule(&cs, 23);
    assert_eq!(c.when, Some(p("{subagent: '*'}")), "{c:#?}");
    assert_eq!(c.require, Some(p(TESTS)), "{c:#?}");
}

#[test]
fn test_each_names_the_test_runner() {
    // In a Mistake | Fix table the runner is found (today as the row's
    // trigger: the table reads its action cell as the condition).
    let cs = constraints();
    let c = rule(&cs, 27);
    let tests = p(TESTS);
    assert!(
        c.when.as_ref() == Some(&tests) || c.require.as_ref() == Some(&tests),
        "{c:#?}"
    );
}

#[test]
fn git_history_review_is_a_log_or_blame() {
    let cs = constraints();
    let c = rule(&cs, 31);
    assert_eq!(c.modality, Modality::Must, "never skip = must: {c:#?}");
    assert_eq!(
        c.require,
        Some(p("{any: [{git: log}, {git: blame}]}")),
        "{c:#?}"
    );
    assert!(c.scope.is_empty(), "reading history is not scope: {c:#?}");
}

#[test]
fn report_and_markdown_files_are_writes() {
    let cs = constraints();
    let c = rule(&cs, 35);
    assert_eq!(c.require, Some(p("{write: '**/*.md'}")), "{c:#?}");
    let c = rule(&cs, 36);
    assert_eq!(
        c.require,
        Some(p("{any: [{write: '**/*.md'}, {write: '**/*report*'}]}")),
        "{c:#?}"
    );
}

#[test]
fn pr_comments_and_reviews_are_shared_repo_state() {
    let cs = constraints();
    let c = rule(&cs, 37);
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    // Only comments "about a failure that is not yet understood" are
    // forbidden, which actions do not show: the comment is the trigger,
    // never a forbid of every PR comment.
    assert_eq!(
        c.when,
        Some(p(
            "{any: [{command: 'gh pr comment*'}, {command: 'gh pr review*'}]}"
        )),
        "{c:#?}"
    );
    assert!(c.forbid.is_none(), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    let c = rule(&cs, 38);
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn an_issue_is_a_github_issue_only_when_the_text_says_so() {
    let cs = constraints();
    let c = rule(&cs, 39);
    assert!(c.scope.is_empty(), "a tracker's issues: {c:#?}");
    assert!(c.behavior().is_none(), "{c:#?}");
    let c = rule(&cs, 40);
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    assert_eq!(
        c.require,
        Some(p(
            "{any: [{command: 'gh issue create*'}, {command: 'glab issue create*'}]}"
        )),
        "{c:#?}"
    );
}

#[test]
fn the_agents_own_mcp_configuration_is_self_modification() {
    let cs = constraints();
    // `claude mcp add …`, "configure the … MCP server", `~/.codex/config.toml`
    // set, `codex --enable …`, `gemini mcp remove …`.
    for line in [44, 45, 46, 49, 50] {
        let c = rule(&cs, line);
        assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    }
    let c = rule(&cs, 46);
    assert_eq!(
        c.require,
        Some(p("{touch: '~/.codex/config.toml'}")),
        "{c:#?}"
    );
}

#[test]
fn a_ci_workflow_is_a_project_file() {
    let cs = constraints();
    let c = rule(&cs, 47);
    assert!(c.scope.is_empty(), "{c:#?}");
    // (Adding a job to the file changes it, by a write or an edit.)
    assert_eq!(
        c.require,
        Some(p("{touch: '.github/workflows/lint.yml'}")),
        "{c:#?}"
    );
}

#[test]
fn checking_a_setting_is_a_read_without_scope() {
    let cs = constraints();
    let c = rule(&cs, 48);
    assert!(c.scope.is_empty(), "{c:#?}");
    assert_eq!(
        c.require,
        Some(p("{read: '.claude/settings.json'}")),
        "{c:#?}"
    );
}

#[test]
fn more_imperatives_and_credential_host_and_harness_commands() {
    let cs = constraints();
    // prioritise, park
    for line in [54, 55] {
        assert_eq!(rule(&cs, line).modality, Modality::Must, "{cs:#?}");
    }
    // A command that prints a stored credential.
    let c = rule(&cs, 56);
    assert_eq!(c.forbid, Some(p("{command: 'gh auth token*'}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SensitiveMemory], "{c:#?}");
    // The project's MCP configuration, under a consent gate.
    let c = rule(&cs, 57);
    assert_eq!(c.when, Some(p("{touch: '**/.mcp.json'}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    // Closing a pull request writes the shared host's records.
    let c = rule(&cs, 58);
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn squash_switch_format_and_stash_are_acts() {
    let cs = constraints();
    let c = rule(&cs, 59);
    assert_eq!(
        c.require,
        Some(p("{any: [{git: rebase}, {git: merge, args: ['--squash']}, {git: reset, args: ['--soft']}]}")),
        "{c:#?}"
    );
    assert_eq!(c.when, Some(p("{command: 'gh pr create*'}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // Switching branches is shared repo state (a condition on a review: no
    // require).
    let c = rule(&cs, 60);
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    assert!(c.require.is_none(), "{c:#?}");
    // Formatting names the formatters (before the commit it gates);
    // stashing is a local act, no scope.
    let c = rule(&cs, 61);
    let fmt = format!("{:?}", c.require);
    assert!(
        fmt.contains("cargo fmt") && fmt.contains("prettier"),
        "{c:#?}"
    );
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    let c = rule(&cs, 62);
    assert_eq!(c.require, Some(p("{git: stash}")), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn restating_and_discussing_are_speech_without_scope() {
    // The words "push" and "merge" inside a speech rule do not scope it.
    let cs = constraints();
    for line in [63, 64] {
        let c = rule(&cs, line);
        assert!(c.scope.is_empty() && c.behavior().is_none(), "{c:#?}");
    }
}

#[test]
fn other_senses_of_commit_push_and_merge_are_not_scoped() {
    let cs = constraints();
    // Committing to a direction, push notifications, reading a merge request.
    for line in [65, 66, 68] {
        let c = rule(&cs, line);
        assert!(c.scope.is_empty() && c.behavior().is_none(), "{c:#?}");
    }
    // Opening a merge request is GitLab's PR.
    let c = rule(&cs, 67);
    assert_eq!(c.require, Some(p("{command: 'glab mr create*'}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn keychains_tokens_and_slash_commands_are_scoped() {
    let cs = constraints();
    for line in [69, 70] {
        let c = rule(&cs, line);
        assert_eq!(c.scope, vec![ScopeTag::SensitiveMemory], "{c:#?}");
    }
    let c = rule(&cs, 71);
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
}

#[test]
fn exploring_the_project_is_reading_its_files() {
    let cs = constraints();
    // "Explore the project context", "Read the relevant modules": reads of
    // the project's files, whichever they are.
    for line in [75, 76] {
        let c = rule(&cs, line);
        assert!(
            serde_json::to_string(&c.require)
                .unwrap()
                .contains("{\"read\":\"**\"}"),
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn a_clean_tree_is_a_look_and_no_changes_no_prohibition() {
    let cs = constraints();
    // "Make sure the working tree is clean": the status look-up.
    let c = rule(&cs, 77);
    assert!(
        serde_json::to_string(&c.require)
            .unwrap()
            .contains("status"),
        "{c:#?}"
    );
    // "Confirm no uncommitted changes" checks a state: no must-not.
    let c = rule(&cs, 78);
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert!(c.forbid.is_none(), "{c:#?}");
    // "Review `CONTRIBUTING.md` before opening a PR": a read of the file,
    // due before the pull request.
    let c = rule(&cs, 79);
    assert_eq!(c.require, Some(p("{read: '**/CONTRIBUTING.md'}")), "{c:#?}");
    assert_eq!(c.when, Some(p("{command: 'gh pr create*'}")), "{c:#?}");
}
