//! Every false rule and every miss that issue 12 lists, on a fixture skill
//! written with the same shapes (`fixtures/extract/why-shapes/SKILL.md`, no
//! real skill's text): quoted phrases, troubleshooting reads, dropped
//! conditions, rhetoric, supporting-file references, agent types, pressure
//! scenarios, consent gates, protected branches and branch tables.

use skillgate::extract::{extract, Constraint, Lexicon, Modality, Order, Predicate, ScopeTag};
use skillgate::parse::Skill;
use std::path::Path;

fn constraints() -> Vec<Constraint> {
    fixture("why-shapes")
}

/// The constraints of `fixtures/extract/NAME/SKILL.md`.
fn fixture(name: &str) -> Vec<Constraint> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/extract")
        .join(name)
        .join("SKILL.md");
    extract(
        &Skill::read(&path).expect("fixture parses"),
        &Lexicon::builtin(),
    )
}

fn at(cs: &[Constraint], line: u32) -> Option<&Constraint> {
    cs.iter().find(|c| c.lines[0] <= line && line <= c.lines[1])
}

/// The JSON text of a predicate or constraint, to look for a part of it.
fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

fn p(s: &str) -> Predicate {
    yaml_serde::from_str(s).unwrap()
}

/// No trigger of its own: due from the load (`when` absent), or — a step
/// with no trigger — due in a session that did work (changed a file or
/// dispatched a subagent), anywhere.
fn no_trigger_of_its_own(c: &Constraint) -> bool {
    c.when.is_none()
        || (c.when
            == Some(p(
                r#"{any: [{write: "**"}, {edit: "**"}, {subagent: "*"}]}"#,
            ))
            && c.order == Some(Order::Anywhere))
}

/// The rule's act is its trigger, never forbidden outright (a qualified
/// object, a manner, a kind the act does not show).
fn trigger_only(c: &Constraint, line: u32) {
    assert_eq!(c.forbid, None, "line {line}: {c:#?}");
    assert!(c.when.is_some(), "line {line}: {c:#?}");
}

/// The rule requires `require` before an act whose predicate names `when`.
fn due_before(c: &Constraint, require: &str, when: &str) {
    assert_eq!(c.require, Some(p(require)), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(json(&c.when).contains(when), "{c:#?}");
}

#[test]
fn when_to_use_conditions_are_not_rules() {
    let cs = constraints();
    assert!(at(&cs, 10).is_none() && at(&cs, 11).is_none(), "{cs:#?}");
}

#[test]
fn a_quoted_phrase_not_to_say_is_a_speech_rule_without_scope() {
    let cs = constraints();
    let c = at(&cs, 16).expect("the phrase is a rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    assert!(c.behavior().is_none() && c.when.is_none(), "{c:#?}");
}

#[test]
fn checking_a_settings_file_is_not_self_modification() {
    let cs = constraints();
    if let Some(c) = at(&cs, 20) {
        assert!(c.scope.is_empty(), "{c:#?}");
    }
}

#[test]
fn conditions_are_kept_no_require_fires_at_the_load() {
    let cs = constraints();
    // A step after the one that gets the approach approved: the planning
    // phase, due before the first change to the code (never at the load).
    let work = p("{all: [{any: [{write: '**'}, {edit: '**'}]}, {not: {any: [{touch: '**/test/**'}, {touch: '**/tests/**'}, {touch: '**/__tests__/**'}, {touch: '**/spec/**'}, {touch: '**/test_*'}, {touch: '**/*_test.*'}, {touch: '**/*.test.*'}, {touch: '**/*.spec.*'}, {touch: '**/*.md'}]}}]}");
    let c = at(&cs, 26).expect("step 3 is a rule");
    assert_eq!(c.when.as_ref(), Some(&work), "{c:#?}");
    assert_eq!(c.require, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
    // Under a heading that is a planning milestone ("After the Plan Is
    // Approved"): the same.
    let c = at(&cs, 30).expect("commit rule");
    assert_eq!(c.when.as_ref(), Some(&work), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "if available": a condition no action shows.
    let c = at(&cs, 31).expect("use-skill rule");
    assert!(c.require.is_none(), "{c:#?}");
    // A required sub-skill under a WHEN lead-in.
    let c = at(&cs, 35).expect("sub-skill rule");
    assert!(c.require.is_none(), "{c:#?}");
    // No scope-tagged rule requires anything from the load alone.
    for c in &cs {
        if !c.scope.is_empty() && c.require.is_some() {
            assert!(c.when.is_some(), "{c:#?}");
        }
    }
}

#[test]
fn an_faq_rebuttal_and_its_question_are_not_rules() {
    let cs = constraints();
    for line in 39..=41 {
        assert!(at(&cs, line).is_none(), "line {line}: {:#?}", at(&cs, line));
    }
}

#[test]
fn a_supporting_file_reference_is_not_a_required_write() {
    let cs = constraints();
    assert!(at(&cs, 45).is_none(), "{:#?}", at(&cs, 45));
}

#[test]
fn the_task_tool_with_a_type_is_a_subagent_not_a_skill() {
    let cs = constraints();
    let c = at(&cs, 49).expect("dispatch rule");
    assert_eq!(
        c.require,
        Some(p("{subagent: \"*code-checker\"}")),
        "{c:#?}"
    );
}

#[test]
fn the_options_of_a_pressure_scenario_are_not_rules() {
    let cs = constraints();
    for line in 53..=56 {
        assert!(at(&cs, line).is_none(), "line {line}: {:#?}", at(&cs, line));
    }
}

#[test]
fn a_red_flag_thought_gets_no_scope() {
    let cs = constraints();
    if let Some(c) = at(&cs, 60) {
        assert!(c.scope.is_empty() && c.behavior().is_none(), "{c:#?}");
    }
}

#[test]
fn force_push_only_on_explicit_request_in_a_rationalisation_table_is_found() {
    let cs = constraints();
    let c = at(&cs, 66).expect("the Reality cell states a rule");
    // A consent gate (SPEC §4.2): the guarded act needs a user turn before it.
    assert_eq!(c.modality, Modality::MustNot);
    assert_eq!(c.when, Some(p("{git: push, args: [\"--force\"]}")));
    assert_eq!(c.require, Some(p("{user_turn: true}")));
    assert_eq!(c.order, Some(Order::BeforeEach));
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
    // The excuse itself is not a rule of its own.
    assert_eq!(cs.iter().filter(|c| c.lines == [66, 66]).count(), 1);
}

#[test]
fn deletion_without_explicit_confirmation_is_a_consent_gate() {
    let cs = constraints();
    let c = at(&cs, 70).expect("consent rule");
    assert_eq!(c.when, Some(p("{delete: \"**\"}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach));
}

#[test]
fn a_protected_branch_list_forbids_changes_on_each_branch() {
    let cs = constraints();
    for (line, branch) in [(73, "main"), (74, "release/*")] {
        let c = at(&cs, line).expect("protected branch");
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
        let f = serde_json::to_string(c.forbid.as_ref().expect("a forbid")).unwrap();
        assert!(f.contains(&format!("\"branch\":\"{branch}\"")), "{f}");
        assert!(f.contains("git branch -D"), "{f}");
    }
}

#[test]
fn a_branch_table_with_commands_gives_scoped_rules_judged_where_they_act() {
    let cs = constraints();
    let c = at(&cs, 81).expect("abandoned-experiment row");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
    assert_eq!(c.when, Some(p("{command: \"git branch -D*\"}")), "{c:#?}");
    assert!(at(&cs, 80).is_some_and(|c| c.scope == vec![ScopeTag::SharedRepoState]));
}

#[test]
fn each_and_every_give_before_each() {
    let src = "---\nname: demo\ndescription: d\n---\nRun the tests before each commit.\n\nRun the tests before committing.\n";
    let skill = Skill::parse_bytes(Path::new("demo/SKILL.md"), src.as_bytes()).unwrap();
    let cs = extract(&skill, &Lexicon::builtin());
    assert_eq!(cs.len(), 2, "{cs:#?}");
    assert_eq!(cs[0].order, Some(Order::BeforeEach), "{:#?}", cs[0]);
    assert_eq!(cs[1].order, Some(Order::Before), "{:#?}", cs[1]);
}

fn inline(body: &str) -> Vec<Constraint> {
    let src = format!("---\nname: demo\ndescription: d\n---\n{body}");
    let skill = Skill::parse_bytes(Path::new("demo/SKILL.md"), src.as_bytes()).unwrap();
    extract(&skill, &Lexicon::builtin())
}

#[test]
fn a_purpose_clause_is_not_the_rules_act() {
    // "… so it can decide what must be fixed before merge": the merge is a
    // horizon, not the rule's condition or act.
    let cs = inline(
        "Write findings to the notes file so it can decide what must be fixed before merge.\n",
    );
    assert_eq!(cs.len(), 1, "{cs:#?}");
    for c in &cs {
        assert!(c.scope.is_empty(), "{c:#?}");
        assert!(c.when.is_none(), "{c:#?}");
    }
}

#[test]
fn a_script_of_the_skill_is_a_command() {
    let cs = inline("Run `scripts/collect-notes PLAN_FILE` at the start.\n\nRun tools/fetch_threads.py to list the open threads.\n");
    assert_eq!(
        cs[0].require,
        Some(p("{command: \"*collect-notes*\"}")),
        "{:#?}",
        cs[0]
    );
    assert_eq!(
        cs[1].require,
        Some(p("{command: \"*fetch_threads.py*\"}")),
        "{:#?}",
        cs[1]
    );
}

#[test]
fn items_under_a_writing_lead_in_are_files_to_write() {
    let cs = inline("Generate these files:\n\n- `app.json` - the app settings\n- `setup.sh` - the setup script\n");
    let req: Vec<_> = cs.iter().filter_map(|c| c.require.clone()).collect();
    assert!(req.contains(&p("{write: \"**/app.json\"}")), "{cs:#?}");
    assert!(req.contains(&p("{write: \"**/setup.sh\"}")), "{cs:#?}");
}

#[test]
fn an_item_headed_by_a_skill_reference_requires_that_skill_when_it_instructs() {
    let cs = constraints();
    // "REQUIRED: … before starting": the skill before the first change to the code.
    let c = at(&cs, 86).expect("required sub-skill");
    assert_eq!(c.require, Some(p("{skill: isolated-workspace}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(c.when.is_some(), "{c:#?}");
    // A description of the skill, or the alternative to use instead: no requirement.
    for line in [87, 89] {
        if let Some(c) = at(&cs, line) {
            assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
        }
    }
    // "Complete … after all tasks": after the work.
    let c = at(&cs, 88).expect("wrap-up skill");
    assert_eq!(c.require, Some(p("{skill: branch-wrapup}")), "{c:#?}");
}

#[test]
fn guiding_the_user_is_speech_not_a_scoped_act() {
    let cs = constraints();
    let c = at(&cs, 92).expect("guide rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    assert!(c.behavior().is_none(), "{c:#?}");
}

#[test]
fn a_document_template_with_nested_code_blocks_holds_no_rules() {
    let cs = constraints();
    for line in 96..=111 {
        assert!(at(&cs, line).is_none(), "line {line}: {:#?}", at(&cs, line));
    }
}

#[test]
fn later_steps_of_a_conditional_procedure_follow_its_first_step() {
    let cs = constraints();
    let c = at(&cs, 117).expect("step 2 is a rule");
    assert!(c.require.is_some(), "{c:#?}");
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
    let when = serde_json::to_string(&c.when).unwrap();
    assert!(
        when.contains("npm uninstall"),
        "the first step is the trigger: {c:#?}"
    );
}

#[test]
fn a_subagent_dispatch_is_required_and_never_forbidden_wholesale() {
    let cs = constraints();
    // "… before they spread" is the purpose, not a condition.
    let c = at(&cs, 121).expect("dispatch rule");
    assert_eq!(c.require, Some(p("{subagent: '*'}")), "{c:#?}");
    assert!(c.when.is_none(), "{c:#?}");
    // "Never dispatch two at once": no predicate for the qualifier, so no
    // forbid of every dispatch.
    let c = at(&cs, 124).expect("never rule");
    assert!(c.forbid.is_none(), "{c:#?}");
}

#[test]
fn telling_the_user_after_a_scoped_act_carries_no_scope() {
    let cs = constraints();
    let c = at(&cs, 126).expect("speech rule");
    assert!(c.scope.is_empty(), "{c:#?}");
}

/// Scope the words leave implicit (`fixtures/extract/implicit-scope`).
fn implicit() -> Vec<Constraint> {
    fixture("implicit-scope")
}

#[test]
fn an_act_with_its_object_left_out_takes_the_skills_subject() {
    let cs = implicit();
    // The description installs skills: "Install from the catalogue" does too.
    for line in [9, 10] {
        let c = at(&cs, line).expect("install rule");
        assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    }
    // "Pick the catalogue" is no act of the subject's.
    let c = at(&cs, 8).expect("pick rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    // "…, so no need to help users install those": a should-not rule.
    let c = at(&cs, 30).expect("consequence rule");
    assert_eq!(c.modality, Modality::ShouldNot, "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
}

#[test]
fn a_triple_quoted_reply_template_is_not_rules() {
    let cs = implicit();
    for line in 15..=19 {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
    let c = at(&cs, 14).expect("the output rule before the template");
    assert!(c.scope.is_empty() && c.behavior().is_none(), "{c:#?}");
}

#[test]
fn that_skill_is_the_skill_just_named() {
    let cs = implicit();
    let named = at(&cs, 23).expect("sub-skill rule");
    assert_eq!(named.scope, vec![ScopeTag::SharedRepoState], "{named:#?}");
    let c = at(&cs, 24).expect("follow rule");
    assert_eq!(c.scope, named.scope, "{c:#?}");
}

#[test]
fn an_act_after_a_finished_merge_is_not_scoped_by_the_merge() {
    let cs = implicit();
    let c = at(&cs, 26).expect("cleanup rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    assert!(c.when.is_some() && c.require.is_some(), "{c:#?}");
}

/// Shapes of structure (`fixtures/extract/structure-shapes`, written for
/// these tests): what makes an item a rule, or not.
fn structure() -> Vec<Constraint> {
    fixture("structure-shapes")
}

#[test]
fn use_when_and_dont_use_when_lists_are_not_rules() {
    let cs = structure();
    for line in [9, 10, 13] {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
}

#[test]
fn another_agents_brief_has_no_predicates_of_this_agent() {
    let cs = structure();
    for line in [16, 17] {
        let c = at(&cs, line).expect("brief item");
        assert!(c.when.is_none() && c.behavior().is_none(), "{c:#?}");
    }
}

#[test]
fn a_pseudo_code_procedure_in_a_fence_is_a_rule() {
    let cs = structure();
    assert!(at(&cs, 20).is_some(), "{cs:#?}");
}

#[test]
fn an_instruction_glossed_by_a_question_or_a_label_glossed_by_one() {
    let cs = structure();
    let c = at(&cs, 25).expect("compare rule");
    assert!(c.text.starts_with("Check"), "{c:#?}");
    assert!(at(&cs, 26).is_some(), "{cs:#?}");
}

#[test]
fn an_arrow_chain_is_not_a_condition() {
    let cs = structure();
    let c = at(&cs, 27).expect("order rule");
    assert!(c.when.is_none(), "{c:#?}");
}

#[test]
fn a_table_with_an_approach_column_holds_rules() {
    let cs = structure();
    assert!(at(&cs, 31).is_some(), "{cs:#?}");
}

#[test]
fn a_bare_command_under_a_step_keeps_the_outer_condition() {
    let cs = structure();
    let c = at(&cs, 36).expect("the command is a step");
    // The registry being unreachable is not an action: nothing is required
    // of every session.
    assert!(c.require.is_none(), "{c:#?}");
    // The later step is due after the first one, the procedure's visible start.
    let c = at(&cs, 38).expect("the second step's command");
    assert_eq!(
        c.when,
        Some(p(
            "{command: 'npm config set registry https://mirror.example*'}"
        )),
        "{c:#?}"
    );
    assert_eq!(
        c.require,
        Some(p(
            "{command: 'npm login --registry https://mirror.example*'}"
        )),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
}

#[test]
fn a_numbered_conditional_heading_keeps_its_condition() {
    let cs = structure();
    let c = at(&cs, 42).expect("the cache step");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn a_relative_clause_describes_the_object_it_is_not_the_act() {
    let cs = structure();
    let c = at(&cs, 46).expect("build rule");
    assert!(c.behavior().is_none(), "{c:#?}");
}

#[test]
fn a_message_quoted_across_paragraphs_is_not_rules() {
    let cs = structure();
    assert!(at(&cs, 50).is_some(), "the offer is a rule: {cs:#?}");
    for line in [52, 54, 56, 58] {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
}

#[test]
fn when_to_create_lists_are_not_rules_and_do_not_leads_forbid() {
    let cs = structure();
    for line in [63, 66] {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
    let c = at(&cs, 71).expect("do-not item");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
}

#[test]
fn the_clause_after_not_is_what_the_rule_avoids() {
    let cs = structure();
    let c = at(&cs, 75).expect("install rule");
    assert_eq!(c.forbid, Some(p("{command: 'pip install*'}")), "{c:#?}");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    // "not just …" widens, it avoids nothing.
    let c = at(&cs, 76).expect("suite rule");
    assert!(c.forbid.is_none() && c.require.is_some(), "{c:#?}");
}

#[test]
fn guards_on_content_and_on_skipping_are_not_inverted() {
    let cs = structure();
    // Whether a commit holds a secret is in its content: scoped, no forbid
    // of every commit — only of a well-known secret file staged by name.
    let c = at(&cs, 80).expect("secrets rule");
    assert!(c.require.is_none(), "{c:#?}");
    let forbid = json(&c.forbid);
    assert!(
        forbid.contains("git (add|commit)") && forbid.contains("env"),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    // "Skip the hooks" is `--no-verify`: never skipping forbids it.
    let c = at(&cs, 81).expect("hooks rule");
    assert_eq!(
        c.forbid,
        Some(p("{command_re: '\\s--no-verify\\b'}")),
        "{c:#?}"
    );
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn a_prefixed_verb_is_a_verb() {
    let cs = structure();
    let c = at(&cs, 82).expect("re-run rule");
    assert!(c.text.starts_with("Re-run"), "{c:#?}");
}

#[test]
fn asking_before_an_act_is_a_consent_gate() {
    let cs = structure();
    let c = at(&cs, 83).expect("ask rule");
    assert_eq!(c.when, Some(p("{delete: '**'}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
}

#[test]
fn offered_options_are_not_rules_and_an_option_section_is_conditional() {
    let cs = structure();
    assert!(at(&cs, 87).is_some(), "the offer is a rule: {cs:#?}");
    assert!(at(&cs, 88).is_none(), "{cs:#?}");
    let c = at(&cs, 93).expect("merge rule");
    assert!(c.require.is_none(), "chosen, not due every session: {c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn a_named_branch_a_disabled_hook_and_a_means_narrow_the_rule() {
    let cs = structure();
    // The branch named, not every branch.
    let c = at(&cs, 97).expect("branch rule");
    let f = serde_json::to_string(&c.forbid).unwrap();
    assert!(f.contains("git branch -D release"), "{c:#?}");
    assert!(!f.contains("--delete\"]"), "no blanket deletion: {c:#?}");
    // Disabling hooks is skipping them, not running pre-commit.
    let c = at(&cs, 98).expect("hooks rule");
    assert_eq!(
        c.forbid,
        Some(p("{command_re: '\\s--no-verify\\b'}")),
        "{c:#?}"
    );
    // "Only through a PR": the act is the trigger, never required.
    let c = at(&cs, 99).expect("means rule");
    assert!(c.when.is_some() && c.require.is_none(), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
}

#[test]
fn a_conditional_heading_is_the_condition_of_its_rules() {
    let cs = structure();
    let c = at(&cs, 103).expect("suite rule");
    assert!(c.when.is_some(), "due before the work starts: {c:#?}");
    assert!(c.require.is_some(), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn a_branch_in_code_and_an_unseen_without_narrow_the_forbid() {
    let cs = structure();
    // The branch named in code, not every commit.
    let c = at(&cs, 107).expect("trunk rule");
    assert_eq!(
        c.forbid,
        Some(p("{all: [{git: commit}, {branch: trunk}]}")),
        "{c:#?}"
    );
    // What the merge needs (a review) is not visible: the merge is the
    // trigger, not forbidden.
    let c = at(&cs, 108).expect("review rule");
    assert!(c.forbid.is_none() && c.when.is_some(), "{c:#?}");
}

#[test]
fn paths_and_programs_in_code_are_the_objects() {
    let cs = structure();
    let c = at(&cs, 112).expect("append rule");
    // (Appending to a file changes it, by a write or an edit.)
    assert_eq!(c.require, Some(p("{touch: '**/MEMORY.md'}")), "{c:#?}");
    // The path named, not every agent-configuration file.
    let c = at(&cs, 113).expect("settings rule");
    assert_eq!(
        c.forbid,
        Some(p("{write: '.claude/settings.json'}")),
        "{c:#?}"
    );
    // A credentials directory names its contents.
    let c = at(&cs, 114).expect("aws rule");
    assert_eq!(c.forbid, Some(p("{read: '~/.aws/**'}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SensitiveMemory], "{c:#?}");
    // "Avoid running X" forbids running it.
    let c = at(&cs, 115).expect("printenv rule");
    assert!(c.forbid.is_some(), "{c:#?}");
}

#[test]
fn a_negation_or_a_participle_after_the_verb_is_not_the_rules() {
    let cs = structure();
    let c = at(&cs, 119).expect("verify rule");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    // "are configured in X" states where they are; no edit is required.
    let c = at(&cs, 120).expect("hooks rule");
    let r = serde_json::to_string(&c.require).unwrap();
    assert!(!r.contains("touch") && !r.contains("write"), "{c:#?}");
}

#[test]
fn a_procedure_under_a_conditional_heading_follows_its_first_step() {
    let cs = structure();
    let c = at(&cs, 124).expect("first step command");
    assert!(
        c.require.is_none(),
        "the heading's condition is not visible: {c:#?}"
    );
    let c = at(&cs, 126).expect("second step command");
    assert_eq!(c.when, Some(p("{command: 'npm logout*'}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{command: 'npm login*'}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
}

#[test]
fn mcp_tools_and_namespaced_skills_in_code_spans_are_predicates() {
    let cs = structure();
    // `Server:tool` is a tool of that MCP server; "A, then B" orders them.
    let c = at(&cs, 130).expect("look-up rule");
    assert_eq!(c.when, Some(p("{tool: '*read-ticket*'}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{tool: '*find-ticket*'}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // A tool's own name.
    let c = at(&cs, 131).expect("digest rule");
    assert_eq!(
        c.require,
        Some(p("{tool: 'mcp__chat__send_digest'}")),
        "{c:#?}"
    );
    // `ns:name` beside "skill" is that skill; "opening a PR" is the trigger.
    let c = at(&cs, 132).expect("style-check rule");
    assert_eq!(c.when, Some(p("{command: 'gh pr create*'}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{skill: style-check}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn a_lone_flag_is_a_command_carrying_it_unless_options_are_compared() {
    let cs = structure();
    let c = at(&cs, 133).expect("help rule");
    assert_eq!(
        c.require,
        Some(p(r"{command_re: '(^|\s)\-\-help(=|\s|$)'}")),
        "{c:#?}"
    );
    if let Some(c) = at(&cs, 134) {
        assert!(c.behavior().is_none() && c.when.is_none(), "{c:#?}");
    }
}

#[test]
fn a_sequence_makes_the_later_act_the_trigger_of_the_earlier() {
    let cs = structure();
    assert!(
        at(&cs, 135).is_some(),
        "\"Post …\" is an imperative: {cs:#?}"
    );
    let c = at(&cs, 136).expect("build rule");
    assert_eq!(c.when, Some(p("{command: 'make test*'}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{command: 'make*'}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn a_word_before_its_object_after_a_condition_is_a_verb() {
    // "rethink" is in no verb list: after "If …:", a word then "the" is
    // the imperative of the rule.
    let cs = structure();
    let c = at(&cs, 140).expect("rethink rule");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
}

#[test]
fn a_key_activities_column_holds_rules() {
    let cs = structure();
    assert!(at(&cs, 144).is_some(), "{cs:#?}");
}

#[test]
fn a_negative_rule_under_an_unseen_while_is_its_acts_trigger() {
    // Whether the changelog was unfinished is not visible: never a forbid
    // of every tag, the tag is the trigger (judged by people).
    let cs = structure();
    let c = at(&cs, 148).expect("tag rule");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert_eq!(c.when, Some(p("{git: tag}")), "{c:#?}");
}

#[test]
fn a_fix_cell_with_its_own_condition_is_read_as_a_sentence() {
    let cs = structure();
    let c = at(&cs, 152).expect("fix row");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{command: 'make check*'}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn seeking_approval_before_an_act_or_before_going_on_is_a_consent_gate() {
    let cs = structure();
    let edits = |c: &Constraint| serde_json::to_string(&c.when).unwrap().contains("\"edit\"");
    // Before proceeding: the work that comes next, one consent for it.
    for line in [156, 158] {
        let c = at(&cs, line).expect("consent rule");
        assert!(edits(c), "line {line}: {c:#?}");
        assert_eq!(c.require, Some(Predicate::UserTurn), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
        assert!(c.scope.is_empty(), "no commit proxy scopes it: {c:#?}");
    }
    // Before a named act: each one needs its own consent.
    let c = at(&cs, 157).expect("branch rule");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    assert!(json(&c.when).contains("--delete"), "{c:#?}");
}

#[test]
fn a_means_with_a_named_site_requires_fetching_it() {
    let cs = structure();
    let c = at(&cs, 159).expect("fetch rule");
    // The site fetched, or the named tool that fetches it.
    assert_eq!(
        c.require,
        Some(p(
            "{any: [{fetch: '*docs.example.org*'}, {tool: WebFetch}]}"
        )),
        "{c:#?}"
    );
}

#[test]
fn writing_a_skill_is_self_modification_whatever_its_folder() {
    let cs = structure();
    let c = at(&cs, 160).expect("skill rule");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    assert!(json(&c.require).contains("**/SKILL.md"), "{c:#?}");
}

#[test]
fn a_leading_where_or_even_phrase_is_context_not_the_verb() {
    let cs = structure();
    let c = at(&cs, 161).expect("formatter rule");
    assert!(c.require.is_some(), "{c:#?}");
}

#[test]
fn files_named_by_type_plan_mode_and_recent_commits_are_acts() {
    let cs = structure();
    let c = at(&cs, 165).expect("csv rule");
    assert_eq!(c.require, Some(p("{write: '**/*.csv'}")), "{c:#?}");
    let c = at(&cs, 166).expect("plan-mode rule");
    assert_eq!(c.when, Some(p("{tool: ExitPlanMode}")), "{c:#?}");
    assert_eq!(
        c.require,
        Some(p("{any: [{git: log}, {git: show}]}")),
        "{c:#?}"
    );
}

#[test]
fn a_run_lead_in_over_a_shell_block_runs_its_commands() {
    let cs = structure();
    let c = at(&cs, 168).expect("schema rule");
    // The trailing shell comment is not part of the command.
    assert_eq!(
        c.require,
        Some(p("{command: 'python tools/check_schema.py --all*'}")),
        "{c:#?}"
    );
    // "Use X for Y:" over examples chooses a means; it runs nothing.
    let c = at(&cs, 174).expect("helper rule");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn a_noun_verb_before_its_object_is_an_imperative() {
    let cs = structure();
    let c = at(&cs, 182).expect("probe rule");
    assert_eq!(c.require, Some(p("{command: 'npx probe-cli*'}")), "{c:#?}");
    assert!(at(&cs, 182 + 1).is_none(), "a statement: {cs:#?}");
}

#[test]
fn a_situation_table_under_a_lead_in_holds_the_lead_ins_act_per_row() {
    let cs = structure();
    let c = at(&cs, 191).expect("situation row");
    assert_eq!(c.when, Some(p("{read: guides/migrations.md}")), "{c:#?}");
    // A glossary under a label is not a rule.
    assert!(at(&cs, 197).is_none(), "{cs:#?}");
}

#[test]
fn creating_skills_in_any_phrasing_is_self_modification() {
    let cs = structure();
    let c = at(&cs, 201).expect("batch rule");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
}

#[test]
fn placeholders_inside_a_command_token_match_anything() {
    let cs = structure();
    let c = at(&cs, 205).expect("checks rule");
    assert_eq!(
        c.require,
        Some(p("{command: 'gh api repos/*/*/check-runs*'}")),
        "{c:#?}"
    );
    // A reply sent by a command is an act; telling the user to run one is not.
    let c = at(&cs, 205 + 1).expect("reply rule");
    assert_eq!(
        c.require,
        Some(p("{command: 'gh api */replies*'}")),
        "{c:#?}"
    );
    let c = at(&cs, 205 + 2).expect("tell rule");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn what_is_due_before_claiming_success_follows_the_work() {
    let cs = structure();
    let c = at(&cs, 211).expect("final-check rule");
    assert_eq!(
        c.when,
        Some(p("{any: [{write: '**'}, {edit: '**'}]}")),
        "{c:#?}"
    );
    assert_eq!(c.require, Some(p("{skill: final-check}")), "{c:#?}");
    // Due after the changes (the default order), never before the first.
    assert!(matches!(c.order, None | Some(Order::After)), "{c:#?}");
}

#[test]
fn a_trailing_condition_closes_only_the_last_of_two_acts() {
    let cs = structure();
    let c = at(&cs, 215).expect("commit rule");
    assert_eq!(c.require, Some(p("{git: commit}")), "{c:#?}");
}

#[test]
fn the_one_word_skill_is_that_skill_an_adjective_is_not() {
    let cs = structure();
    let c = at(&cs, 215 + 1).expect("linting rule");
    assert_eq!(c.require, Some(p("{skill: linting}")), "{c:#?}");
    assert_eq!(c.when, Some(p("{command: 'gh pr create*'}")), "{c:#?}");
    let c = at(&cs, 215 + 2).expect("right-skill rule");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn asking_for_a_review_before_going_on_waits_for_the_answer() {
    let cs = structure();
    let c = at(&cs, 221).expect("review rule");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(json(&c.when).contains("\"edit\""), "{c:#?}");
}

#[test]
fn a_labelled_yes_no_check_or_a_modal_question_is_an_unverifiable_rule() {
    let cs = structure();
    let c = at(&cs, 225).expect("naming check");
    assert!(
        c.when.is_none() && c.behavior().is_none() && c.scope.is_empty(),
        "{c:#?}"
    );
    assert!(
        at(&cs, 225 + 1).is_none(),
        "an open question is no check: {cs:#?}"
    );
    let c = at(&cs, 225 + 3).expect("module check");
    assert_eq!(c.modality, Modality::Should, "{c:#?}");
}

#[test]
fn a_use_when_description_names_the_subject_act_by_its_gerund() {
    let cs = fixture("gerund-subject");
    let c = at(&cs, 8).expect("install rule");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    let c = at(&cs, 9).expect("read rule");
    assert!(c.scope.is_empty(), "a read names no subject act: {c:#?}");
}

/// The shapes of a real push-guard skill that blocked every push or commit
/// (`fixtures/extract/push-guard`, written for these tests).
fn push_guard() -> Vec<Constraint> {
    fixture("push-guard")
}

#[test]
fn make_sure_no_x_is_committed_is_a_negative_rule_that_forbids_nothing() {
    let cs = push_guard();
    let c = at(&cs, 10).expect("secrets rule");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.forbid.is_none() && c.require.is_none(), "{c:#?}");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
}

#[test]
fn a_labelled_conditional_step_keeps_its_condition_for_nested_steps() {
    let cs = push_guard();
    let c = cs
        .iter()
        .find(|c| c.lines == [13, 13] && c.modality == Modality::MustNot)
        .expect("do-not-push rule");
    assert!(c.forbid.is_none(), "not every push: {c:#?}");
    assert!(c.when.is_some(), "{c:#?}");
}

#[test]
fn platform_alternatives_with_heavy_arrows_require_nothing_from_the_load() {
    let cs = push_guard();
    for line in [15, 16] {
        let c = at(&cs, line).expect("platform row");
        assert!(c.require.is_none(), "line {line}: {c:#?}");
    }
}

#[test]
fn a_negative_rule_about_qualified_code_is_a_trigger_not_a_forbid() {
    let cs = push_guard();
    let c = at(&cs, 20).expect("unreviewed rule");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
}

#[test]
fn unless_the_user_asked_is_a_consent_gate() {
    let cs = push_guard();
    let c = at(&cs, 21).expect("force rule");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    assert!(json(&c.when).contains("--force"), "{c:#?}");
}

/// Shapes of real branch-cleanup and release skills
/// (`fixtures/extract/branch-tidy`, written for these tests).
fn branch_tidy() -> Vec<Constraint> {
    fixture("branch-tidy")
}

#[test]
fn a_labelled_never_item_forbids_deleting_each_branch_it_names() {
    let cs = branch_tidy();
    let c = at(&cs, 10).expect("protect rule");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    let f = serde_json::to_string(&c.forbid).unwrap();
    for name in ["main", "develop", "master"] {
        assert!(f.contains(&format!("git branch -D {name}")), "{name}: {f}");
    }
    assert!(!f.contains("\"branch\""), "not every deletion: {f}");
}

#[test]
fn the_current_branch_and_acting_automatically_are_not_forbids_of_every_act() {
    let cs = branch_tidy();
    let c = at(&cs, 11).expect("current-branch rule");
    assert!(c.forbid.is_none() && c.when.is_some(), "{c:#?}");
    // "Never commit automatically": a commit needs the user's go.
    let c = at(&cs, 12).expect("automatic-commit rule");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn pushing_tags_is_a_push_with_tags_not_a_tag() {
    let cs = branch_tidy();
    let c = at(&cs, 13).expect("force-push-tags rule");
    assert_eq!(
        c.forbid,
        Some(p("{git: push, args: ['--force']}")),
        "{c:#?}"
    );
    let c = at(&cs, 14).expect("push order rule");
    assert_eq!(
        c.when,
        Some(p(
            "{any: [{git: push, args: ['--tags']}, {git: push, args: ['--follow-tags']}]}"
        )),
        "{c:#?}"
    );
    assert_eq!(c.require, Some(p("{git: push}")), "{c:#?}");
}

#[test]
fn trigger_lists_effect_lists_formats_and_recovery_steps_scope_nothing() {
    let cs = branch_tidy();
    // A format rule under a PR heading states, it does not act on the PR.
    let c = at(&cs, 18).expect("title rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    // "Invoke this skill when you need to:" and "This will:" lists.
    for line in [20, 22, 23, 27, 28] {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
    // A recovery step under "Push fails" does not push.
    let c = at(&cs, 34).expect("remote rule");
    assert!(c.scope.is_empty() && c.require.is_none(), "{c:#?}");
}

#[test]
fn states_asides_data_merges_and_menus_are_no_acts() {
    let cs = branch_tidy();
    // A negated or participle condition is a state, not its act.
    for line in [38, 38 + 1] {
        let c = at(&cs, line).expect("state rule");
        assert!(
            c.when.is_none() && c.require.is_none(),
            "line {line}: {c:#?}"
        );
    }
    // A negative aside is not part of what the rule requires.
    let c = at(&cs, 38 + 2).expect("push rule");
    assert!(
        !serde_json::to_string(&c.require).unwrap().contains("main"),
        "{c:#?}"
    );
    // Merging settings, a merge state: no git merge.
    for line in [38 + 3, 38 + 4] {
        let c = at(&cs, line).expect("merge wording");
        assert!(
            c.require.is_none() && c.scope.is_empty(),
            "line {line}: {c:#?}"
        );
    }
    // A menu's items are choices, not rules.
    assert!(
        at(&cs, 38 + 8).is_none() && at(&cs, 38 + 9).is_none(),
        "{cs:#?}"
    );
}

#[test]
fn an_activation_line_and_a_rule_under_a_state_heading_scope_nothing() {
    let cs = branch_tidy();
    assert!(at(&cs, 49).is_none(), "{cs:#?}");
    let c = at(&cs, 53).expect("naming rule");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn how_to_invoke_this_skill_is_not_a_rule() {
    let cs = branch_tidy();
    assert!(at(&cs, 55).is_none(), "{cs:#?}");
}

#[test]
fn discarding_work_and_cleaning_the_tree_are_the_commands_that_do_it() {
    let cs = branch_tidy();
    let c = at(&cs, 59).expect("discard rule");
    let f = serde_json::to_string(&c.forbid).unwrap();
    assert!(f.contains("--hard") && f.contains("\"clean\""), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    let c = at(&cs, 59 + 1).expect("clean rule");
    assert_eq!(c.when, Some(p("{git: clean}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

fn authority() -> Vec<Constraint> {
    fixture("authority")
}

#[test]
fn a_mode_or_a_qualified_object_makes_a_negative_rule_a_trigger() {
    let cs = authority();
    // "In draft mode, do not … commit": the mode is not visible, the commit
    // is — a trigger for people, never a forbid of every commit.
    let c = at(&cs, 10).expect("mode rule");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert!(c.forbid.is_none() && c.require.is_none(), "{c:#?}");
    // "the worktree you're working in": a relative clause with no pronoun.
    let c = at(&cs, 14).expect("worktree rule");
    assert!(c.when.is_some() && c.forbid.is_none(), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn an_automatic_act_waits_for_the_user() {
    let cs = authority();
    let c = at(&cs, 12).expect("automatic commit rule");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
}

#[test]
fn one_consent_covers_a_batch_each_act_needs_its_own_otherwise() {
    let cs = authority();
    // "prune branches": a list the user confirms once.
    let c = at(&cs, 16).expect("prune rule");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.when).contains("--delete"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "push": each push.
    let c = at(&cs, 18).expect("push rule");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
}

#[test]
fn only_after_makes_the_act_the_trigger() {
    let cs = authority();
    // "Push the release tags only after the version commit": the commit is
    // due before the push, not a push after every commit.
    let c = at(&cs, 20).expect("tag rule");
    assert!(json(&c.when).contains("--tags"), "{c:#?}");
    assert_eq!(c.require, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "only when the review is finished": no act shows it.
    let c = at(&cs, 22).expect("PR rule");
    assert_eq!(c.when, Some(p("{command: 'gh pr create*'}")), "{c:#?}");
    assert!(c.require.is_none() && c.forbid.is_none(), "{c:#?}");
}

#[test]
fn an_authority_table_gates_acts_on_the_users_word() {
    let cs = authority();
    // Every column asks for a request or confirmation: a consent gate.
    for (line, act) in [(28, "merge"), (29, "rebase")] {
        let c = at(&cs, line).expect("row");
        assert!(
            serde_json::to_string(&c.when).unwrap().contains(act),
            "line {line}: {c:#?}"
        );
        assert_eq!(c.require, Some(Predicate::UserTurn), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::BeforeEach), "line {line}: {c:#?}");
    }
    // Situations across the top: which applies is not visible; the act is
    // a trigger, never required of every session that edits.
    for (line, act) in [(30, "{git: commit}"), (31, "{git: push}")] {
        let c = at(&cs, line).expect("row");
        assert_eq!(c.when, Some(p(act)), "line {line}: {c:#?}");
        assert!(c.require.is_none(), "line {line}: {c:#?}");
    }
}

#[test]
fn files_never_to_commit_forbid_staging_them_not_every_commit() {
    let cs = authority();
    // The forbid stages the named files by name: the file itself, not one
    // whose name only starts the same (`.envrc`).
    fn matches(p: &Predicate, cmd: &str) -> bool {
        match p {
            Predicate::CommandRe(re) => regex::Regex::new(re).unwrap().is_match(cmd),
            Predicate::Any(v) => v.iter().any(|q| matches(q, cmd)),
            other => panic!("{other:?}"),
        }
    }
    let stages = |c: &Constraint, cmd: &str| matches(c.forbid.as_ref().expect("forbid"), cmd);
    let c = at(&cs, 35).expect(".env item");
    assert!(stages(c, "git add .env"), "{c:#?}");
    assert!(stages(c, "git add config/.env src/x.rs"), "{c:#?}");
    assert!(stages(c, "git add .env.local"), "{c:#?}");
    assert!(!stages(c, "git add .envrc"), "{c:#?}");
    assert!(!stages(c, "git commit -m wip"), "{c:#?}");
    let c = at(&cs, 36).expect("pem rule");
    assert!(stages(c, "git add certs/server.pem"), "{c:#?}");
    assert!(!stages(c, "git add README.md"), "{c:#?}");
    // A clean session commits other files: the staging forbid does not
    // fire. (Key files hold secrets: sensitive memory too.)
    assert_eq!(
        c.scope,
        vec![ScopeTag::SharedRepoState, ScopeTag::SensitiveMemory],
        "{c:#?}"
    );
}

#[test]
fn a_task_runner_in_a_code_span_is_the_command_and_a_test_command() {
    let cs = authority();
    let c = at(&cs, 40).expect("just rule");
    assert_eq!(c.require, Some(p("{command: 'just test*'}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
}

#[test]
fn the_test_command_proxy_knows_task_runners() {
    // "Run the tests before pushing": the proxy is a regex on the command.
    let re = regex::Regex::new(
        &Lexicon::builtin()
            .phrases
            .iter()
            .find_map(|ph| match &ph.action {
                Some(Predicate::CommandRe(r)) if r.contains("phpunit") => Some(r.clone()),
                _ => None,
            })
            .expect("the test-command regex"),
    )
    .unwrap();
    for c in [
        "just test",
        "just check",
        "task test",
        "tox -e py311",
        "nox",
        "cargo test",
    ] {
        assert!(re.is_match(c), "{c}");
    }
    for c in ["justfile", "taskset 1 ls", "toxic"] {
        assert!(!re.is_match(c), "{c}");
    }
}

#[test]
fn a_means_for_a_purpose_and_an_information_source_require_nothing() {
    let cs = authority();
    // "use the `triage` skill for that": for what no act shows.
    if let Some(c) = at(&cs, 42) {
        assert!(c.require.is_none() && c.forbid.is_none(), "{c:#?}");
    }
    // "based on the test results": where facts come from, not a test run.
    if let Some(c) = at(&cs, 44) {
        assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
    }
}

fn workflows() -> Vec<Constraint> {
    fixture("workflows")
}

#[test]
fn a_read_over_a_command_block_is_that_command_or_the_read() {
    let cs = workflows();
    let c = at(&cs, 8).expect("read rule");
    assert_eq!(
        c.require,
        Some(p(
            "{any: [{read: '**/VERSION.txt'}, {command: 'cat VERSION.txt*'}]}"
        )),
        "{c:#?}"
    );
}

#[test]
fn what_a_passive_lead_in_says_is_verified_is_not_a_rule() {
    let cs = workflows();
    assert!(at(&cs, 14).is_none() && at(&cs, 15).is_none(), "{cs:#?}");
}

#[test]
fn a_purpose_and_a_labels_condition_keep_a_rule_from_binding_at_the_load() {
    let cs = workflows();
    for line in [17, 19] {
        let c = at(&cs, line).expect("rule");
        assert!(c.require.is_none(), "line {line}: {c:#?}");
    }
}

#[test]
fn authority_to_act_and_a_contrasted_state_are_not_acts() {
    let cs = workflows();
    let c = at(&cs, 21).expect("authority rule");
    assert!(c.forbid.is_none() && c.scope.is_empty(), "{c:#?}");
    let c = at(&cs, 31).expect("report rule");
    assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
}

#[test]
fn steps_of_one_workflow_among_many_bind_only_where_it_is_followed() {
    let cs = workflows();
    // The first step of a workflow requires nothing from the load (it is
    // due before the push its own workflow runs); the later one follows it.
    let c = at(&cs, 26).expect("tag step");
    assert!(c.require.is_none() || c.when.is_some(), "{c:#?}");
    let c = at(&cs, 27).expect("push step");
    assert!(c.when.is_some(), "{c:#?}");
    let c = at(&cs, 30).expect("list step");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn steps_under_a_failure_heading_hold_only_after_the_failure() {
    let cs = workflows();
    let c = at(&cs, 34).expect("recovery step");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn in_a_skill_about_writing_skills_a_test_run_may_be_a_subagent_run() {
    let cs = fixture("skill-author");
    for line in [8, 12] {
        let c = at(&cs, line).expect("rule");
        let r = serde_json::to_string(&c.require).unwrap();
        assert!(
            r.contains("pytest") && r.contains("\"subagent\":\"*\""),
            "line {line}: {c:#?}"
        );
        assert_eq!(
            c.scope,
            vec![ScopeTag::SelfModification],
            "line {line}: {c:#?}"
        );
    }
    // Ordering the writing around its verification gates a change to the
    // agent's own configuration; a rule on the skill's wording does not.
    let c = at(&cs, 14).expect("verify rule");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    let c = at(&cs, 16).expect("style rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    // "test-driven-development" names a skill to read, not a test.
    let c = at(&cs, 22).expect("background rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    // A remark about testing is no rule on the writing.
    assert!(at(&cs, 24).is_none_or(|c| c.scope.is_empty()), "{cs:#?}");
    // Tests of a skill are subagent runs ordered around its write: a
    // baseline before, a re-test after, and never the next write untested.
    let write = p("{any: [{write: '**/SKILL.md'}, {edit: '**/SKILL.md'}]}");
    for (line, order) in [
        (14, Order::BeforeEach),
        (18, Order::Before),
        (20, Order::After),
    ] {
        let c = at(&cs, line).expect("test rule");
        assert_eq!(c.when.as_ref(), Some(&write), "line {line}: {c:#?}");
        assert_eq!(c.require, Some(p("{subagent: '*'}")), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(order), "line {line}: {c:#?}");
    }
    // Elsewhere a test run stays a test-runner command.
    let cs = authority();
    let c = at(&cs, 40).expect("just rule");
    assert!(!serde_json::to_string(&c.require)
        .unwrap()
        .contains("subagent"));
}

#[test]
fn a_paragraphs_opening_condition_stops_at_the_next_case() {
    let cs = workflows();
    let rules: Vec<&Constraint> = cs.iter().filter(|c| c.lines == [38, 38]).collect();
    assert_eq!(rules.len(), 3, "{rules:#?}");
    assert_eq!(
        rules[0].when,
        Some(p("{command: 'gh pr create*'}")),
        "{rules:#?}"
    );
    // "Never invent results" comes after "If one exists, …": no PR trigger,
    // no scope.
    let last = rules[2];
    assert!(last.when.is_none() && last.scope.is_empty(), "{last:#?}");
}

#[test]
fn a_step_asking_once_for_a_batch_sets_the_order_of_the_summary_gate() {
    let cs = fixture("batch-consent");
    // "Ask the user if they want to push the commit and the tag": a consent
    // gate on the push, one answer for both pushes, scoped.
    let c = at(&cs, 11).expect("ask step");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // "Always ask for confirmation before pushing": the same consent.
    let c = at(&cs, 15).expect("summary rule");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn a_look_up_heading_and_a_wording_heading_lend_no_scope() {
    let cs = workflows();
    // "Determine the last released version": the steps read.
    let c = at(&cs, 42).expect("tag look-up");
    assert!(c.scope.is_empty(), "{c:#?}");
    // "Writing good skills" over a rule on wording: nothing the gate sees.
    let c = at(&cs, 46).expect("wording rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    // "Use this skill to …" says what the skill is for.
    assert!(at(&cs, 48).is_none(), "{cs:#?}");
}

#[test]
fn rows_of_a_text_to_fill_in_are_not_acts() {
    let cs = workflows();
    if let Some(c) = at(&cs, 56) {
        assert!(
            c.when.is_none() && c.require.is_none() && c.forbid.is_none(),
            "{c:#?}"
        );
    }
}

#[test]
fn a_look_up_that_names_a_scoped_act_is_not_scoped() {
    let cs = workflows();
    let c = at(&cs, 60).expect("permissions rule");
    assert!(c.scope.is_empty() && c.behavior().is_none(), "{c:#?}");
}

#[test]
fn commands_listed_under_an_approval_heading_wait_for_the_user() {
    let cs = fixture("guard-lists");
    // One confirmation covers the run (`before`); listing tags is no tag.
    for (line, act) in [
        (9, "{git: commit}"),
        (10, "{git: push}"),
        (
            11,
            "{all: [{git: tag}, {not: {git: tag, args: ['--list']}}]}",
        ),
    ] {
        let c = at(&cs, line).expect("listed command");
        assert_eq!(c.when, Some(p(act)), "line {line}: {c:#?}");
        assert_eq!(c.require, Some(Predicate::UserTurn), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
        assert_eq!(
            c.scope,
            vec![ScopeTag::SharedRepoState],
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn consent_in_the_users_own_voice_and_a_partial_act() {
    let cs = fixture("guard-lists");
    // "Push only if I explicitly say …": the skill's "I" is the user.
    let c = at(&cs, 16).expect("push rule");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    // "Do not commit as part of finishing the task": some commits only.
    let c = at(&cs, 25).expect("commit rule");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
}

#[test]
fn a_negative_act_onto_listed_branches_forbids_it_there_only() {
    let cs = fixture("guard-lists");
    // The lead-in "NEVER force push to:" forbids nothing by itself.
    assert!(at(&cs, 33).is_none(), "{cs:#?}");
    let c = at(&cs, 34).expect("branch item");
    let f = serde_json::to_string(&c.forbid).unwrap();
    assert!(
        f.contains("\"branch\":\"main\"")
            && f.contains("\"branch\":\"master\"")
            && f.contains("--force"),
        "{c:#?}"
    );
    // Every conjunct keeps the force push: a plain push to main is allowed.
    match c.forbid.as_ref().unwrap() {
        Predicate::Any(v) => {
            for q in v {
                assert!(
                    serde_json::to_string(q).unwrap().contains("--force"),
                    "{q:#?}"
                );
            }
        }
        other => panic!("{other:#?}"),
    }
    // "any shared branch": the force push is a trigger for people.
    let c = at(&cs, 35).expect("shared item");
    assert!(c.forbid.is_none() && c.when.is_some(), "{c:#?}");
}

#[test]
fn a_prohibition_after_a_semicolon_is_a_rule_of_its_own() {
    let cs = fixture("guard-lists");
    let on_line: Vec<&Constraint> = cs.iter().filter(|c| c.lines == [37, 37]).collect();
    assert_eq!(on_line.len(), 2, "{on_line:#?}");
    let c = on_line[1];
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn branch_hygiene_rules_read_as_their_acts() {
    let cs = fixture("guard-lists");
    // "before making any changes": before the first write or edit.
    let c = at(&cs, 41).expect("branch rule");
    assert_eq!(
        c.when,
        Some(p("{any: [{write: '**'}, {edit: '**'}]}")),
        "{c:#?}"
    );
    assert!(json(&c.require).contains("git checkout -b"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "Rebase on main": onto main, from the feature branch (no `branch:
    // main` modifier, which would mean the session sat on main).
    let c = at(&cs, 42).expect("rebase rule");
    assert_eq!(c.require, Some(p("{git: rebase}")), "{c:#?}");
    // "on shared branches": a pushed branch is shared; the rewrite is
    // forbidden (as "never force-push to a shared branch" is).
    let c = at(&cs, 43).expect("history rule");
    assert!(c.forbid.is_some(), "{c:#?}");
}

#[test]
fn when_to_use_items_and_what_the_user_wants_are_no_acts() {
    let cs = fixture("guard-lists");
    // "Use this skill only when the user explicitly asks for:" lists when.
    assert!(at(&cs, 48).is_none() && at(&cs, 49).is_none(), "{cs:#?}");
    // "If the user only wants commit and push": the user's wish, not the
    // session's commit; no trigger, no scope, nothing required at the load.
    let c = at(&cs, 51).expect("routing rule");
    assert!(
        c.when.is_none() && c.require.is_none() && c.scope.is_empty(),
        "{c:#?}"
    );
}

#[test]
fn what_to_tell_the_user_is_content_not_acts() {
    let cs = fixture("release-steps");
    // "Tell the maintainer, in a single reply:" lists what to say: the
    // items name a commit and a push, but none of them is one.
    assert!(at(&cs, 13).is_some(), "{cs:#?}");
    for line in 14..=16 {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
}

#[test]
fn waiting_for_approval_gates_the_scoped_commands_that_follow() {
    let cs = fixture("release-steps");
    let c = at(&cs, 18).expect("wait rule");
    // The steps after it commit, tag and push: one consent covers them;
    // the recovery section's tag deletion is not among them.
    assert_eq!(
        c.when,
        Some(p("{any: [{git: commit}, {git: tag}, {git: push}]}")),
        "{c:#?}"
    );
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn look_ups_of_the_repository_are_reads_due_before_the_next_scoped_step() {
    let cs = fixture("pr-workflow");
    let commit = p("{git: commit}");
    // Steps of "1. Look before you act" and "3. Commit" that only look at
    // the repository are due before the commit step 3 names.
    for line in [10, 11, 19] {
        let c = at(&cs, line).expect("look-up");
        assert_eq!(c.when.as_ref(), Some(&commit), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
        assert_eq!(
            c.scope,
            vec![ScopeTag::SharedRepoState],
            "line {line}: {c:#?}"
        );
        let r = serde_json::to_string(&c.require).unwrap();
        assert!(
            r.contains("status") || r.contains("branch"),
            "line {line}: {r}"
        );
    }
    // "before proceeding" is the next step, whatever it is: the tests are
    // required as a step of their own, not dropped for an unseen condition,
    // and as a step of the procedure they come before its next scoped act
    // (the commit of step 3), which they order: SPEC §4 tags them with
    // its scope.
    let c = at(&cs, 12).expect("test step");
    assert!(c.require.is_some(), "{c:#?}");
    assert_eq!(c.when.as_ref(), Some(&commit), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // A reviewer run by the session is a subagent; "a code review before
    // opening the pull request" gates `gh pr create`.
    assert!(
        serde_json::to_string(&at(&cs, 15).unwrap().require)
            .unwrap()
            .contains("subagent"),
        "{cs:#?}"
    );
    let c = at(&cs, 16).expect("review gate");
    assert_eq!(c.require, Some(p("{subagent: '*'}")), "{c:#?}");
    assert_eq!(c.when, Some(p("{command: 'gh pr create*'}")), "{c:#?}");
    // "before amending" is the amend.
    let c = at(&cs, 20).expect("authorship");
    assert_eq!(
        c.when,
        Some(p("{git: commit, args: ['--amend']}")),
        "{c:#?}"
    );
    // Look-ups after the step's own push check its result: no trigger.
    for line in [24, 25] {
        let c = at(&cs, line).expect("after-push look-up");
        assert!(c.require.is_some(), "line {line}: {c:#?}");
        assert!(
            no_trigger_of_its_own(c) && c.scope.is_empty(),
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn a_problem_and_fix_pair_gives_the_fix_as_the_rule() {
    let cs = fixture("pr-workflow");
    // The problem lines describe; no rule starts on them.
    assert!(
        cs.iter().all(|c| c.lines[0] != 29 && c.lines[0] != 32),
        "{cs:#?}"
    );
    // "Create a topic branch before the first commit": the commit is the act.
    let c = at(&cs, 30).expect("fix rule");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert!(c.text.starts_with("Create"), "{c:#?}");
    let c = at(&cs, 33).expect("fix rule");
    assert_eq!(c.require, Some(p("{subagent: '*'}")), "{c:#?}");
}

#[test]
fn numbered_steps_order_look_ups_and_name_secret_sweeps_and_visibility() {
    let cs = fixture("pr-workflow");
    // "1. **Survey.** Inspect the staged changes and sweep them for
    // secrets.": a read of the index and a secret scan, due before the
    // commit step 2 names.
    let c = at(&cs, 37).expect("survey step");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    let r = serde_json::to_string(&c.require).unwrap();
    assert!(r.contains("gitleaks") && r.contains("status"), "{r}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    // Making the repository public waits on an explicit confirm.
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 39 && c.require.is_some())
        .expect("visibility gate");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("--visibility"), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn an_act_then_so_ask_first_is_a_consent_gate_on_the_act() {
    let cs = fixture("release-steps");
    // "Removing a published tag is visible to everyone, so ask the
    // maintainer first": the statement names the act, the imperative after
    // ", so" gates it.
    let c = at(&cs, 37).expect("tag removal gate");
    // (Removing a tag is `git tag -d` or a push of the tag ref.)
    assert!(json(&c.when).contains("git tag -d"), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn commits_as_things_in_wording_rules_carry_no_scope() {
    let cs = fixture("release-steps");
    // "related commits", "the conventional commit format": what the notes
    // say about commits, not a commit.
    for line in [41, 42] {
        let c = at(&cs, line).expect("notes rule");
        assert!(c.scope.is_empty(), "line {line}: {c:#?}");
        assert!(c.behavior().is_none(), "line {line}: {c:#?}");
    }
}

#[test]
fn signal_lists_are_rules_and_plan_approval_gates_the_start_of_work() {
    let cs = fixture("plan-gates");
    let edits = p("{all: [{any: [{write: '**'}, {edit: '**'}]}, {not: {any: [{touch: '**/test/**'}, {touch: '**/tests/**'}, {touch: '**/__tests__/**'}, {touch: '**/spec/**'}, {touch: '**/test_*'}, {touch: '**/*_test.*'}, {touch: '**/*.test.*'}, {touch: '**/*.spec.*'}, {touch: '**/*.md'}]}}]}");
    // "## Warning signs" items are must-not rules; "## Finished when"
    // items are rules.
    assert_eq!(
        at(&cs, 9).expect("warning sign").modality,
        Modality::MustNot
    );
    for line in [14, 15] {
        let c = at(&cs, line).expect("finished-when item");
        // What a plan's tasks list or follow is the document's content:
        // "commit" named as a step of each task is no commit.
        assert!(
            c.behavior().is_none() && c.when.is_none() && c.scope.is_empty(),
            "line {line}: {c:#?}"
        );
    }
    // Moving on without sign-off, the partner's approval before execution,
    // "show the plan and wait for the user's approval", execution not
    // beginning until approved: one consent before the work's first edit.
    for line in [10, 16, 21, 25] {
        let c = at(&cs, line).expect("approval gate");
        assert_eq!(c.when.as_ref(), Some(&edits), "line {line}: {c:#?}");
        assert_eq!(
            c.require,
            Some(p("{user_turn: true}")),
            "line {line}: {c:#?}"
        );
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
        assert!(c.scope.is_empty(), "line {line}: {c:#?}");
    }
}

#[test]
fn wording_rules_under_a_commit_heading_take_no_scope_from_it() {
    let cs = fixture("release-steps");
    for line in [46, 47] {
        let c = at(&cs, line).expect("wording rule");
        assert!(
            c.scope.is_empty() && c.behavior().is_none(),
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn changelog_steps_name_the_changelog_and_keep_their_own_conditions_apart() {
    let cs = fixture("changelog");
    // "(`CHANGES.md`, or `HISTORY.md` if absent)" conditions the
    // alternative, and "check if" is "check whether": the read stands.
    let c = at(&cs, 7).expect("read step");
    let r = serde_json::to_string(&c.require).unwrap();
    assert!(r.contains("CHANGELOG") && r.contains("CHANGES.md"), "{r}");
    // (A read of the project's files is due before the work's first
    // change, not under "if absent".)
    let w = serde_json::to_string(&c.when).unwrap();
    assert!(
        w.contains("\"write\":\"**\"") && !w.contains("HISTORY"),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // Updating the changelog writes it; "the last release and the next
    // version" name no release.
    let c = at(&cs, 8).expect("update step");
    let r = serde_json::to_string(&c.require).unwrap();
    assert!(r.contains("write") && r.contains("CHANGELOG"), "{r}");
    assert!(c.scope.is_empty(), "{c:#?}");
    // A branch's name is no act on the branch.
    assert!(
        at(&cs, 12).expect("branch-name rule").scope.is_empty(),
        "{cs:#?}"
    );
}

#[test]
fn a_script_run_by_name_and_a_bare_pr_condition_are_acts() {
    let cs = fixture("pr-workflow");
    // "Run `verify_schema.py`": the script, however it is started.
    let c = at(&cs, 43).expect("script step");
    assert_eq!(
        c.require,
        Some(p("{command: '*verify_schema.py*'}")),
        "{c:#?}"
    );
    // "before PR": before opening the pull request.
    let c = at(&cs, 44).expect("review step");
    assert_eq!(c.when, Some(p("{command: 'gh pr create*'}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{subagent: '*'}")), "{c:#?}");
}

#[test]
fn working_on_a_topic_branch_forbids_committing_on_the_default_branch() {
    let cs = fixture("pr-workflow");
    let on_default = p("{all: [{git: commit}, {any: [{branch: main}, {branch: master}]}]}");
    // "Work on a topic branch" and the red flag "Current branch is master".
    for line in [48, 52] {
        let c = at(&cs, line).expect("branch rule");
        assert_eq!(c.forbid.as_ref(), Some(&on_default), "line {line}: {c:#?}");
        assert_eq!(c.modality, Modality::MustNot, "line {line}: {c:#?}");
        assert_eq!(
            c.scope,
            vec![ScopeTag::SharedRepoState],
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn never_skip_x_requires_running_x() {
    let cs = fixture("pr-workflow");
    let c = at(&cs, 55).expect("tests rule");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert!(json(&c.require).contains("pytest"), "{c:#?}");
    let c = at(&cs, 56).expect("review rule");
    assert_eq!(c.require, Some(p("{subagent: '*'}")), "{c:#?}");
}

#[test]
fn a_version_bump_command_that_commits_and_tags_is_shared_state() {
    let cs = fixture("release-steps");
    let c = at(&cs, 51).expect("bump rule");
    assert_eq!(c.forbid, Some(p("{command: 'npm version*'}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn consent_in_fourteen_phrasings_is_a_user_turn_before_the_act() {
    let cs = fixture("consent-phrasings");
    // One rule per line 7..=20, each in another wording: "check with the
    // user before", "get the user's OK", "only … with explicit permission",
    // "after the user gives the go-ahead", "unless the user asks", "confirm
    // with the user before", "without asking first", "get approval
    // before", "ask before", "a remote the user has not confirmed", "get
    // sign-off", "requires the user's explicit approval", "on its own
    // initiative", "unless instructed".
    for line in 7..=20 {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(
            c.require,
            Some(p("{user_turn: true}")),
            "line {line}: {c:#?}"
        );
        assert!(
            c.when.is_some() && c.forbid.is_none(),
            "line {line}: {c:#?}"
        );
        assert_eq!(
            c.scope,
            vec![ScopeTag::SharedRepoState],
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn guards_on_config_secrets_and_history_in_sixteen_phrasings() {
    let cs = fixture("guard-phrasings");
    // Every line 7..=22 forbids (or gates) an act in its scope; none is a
    // rule the gate cannot see except pasting keys into chat (line 13).
    for line in 7..=22 {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::MustNot, "line {line}: {c:#?}");
        assert!(!c.scope.is_empty(), "line {line}: {c:#?}");
        if line != 13 {
            assert!(c.behavior().is_some(), "line {line}: {c:#?}");
        }
    }
    // "the memory file" is the memory, not every file.
    assert_eq!(
        at(&cs, 11).unwrap().forbid,
        Some(p(
            "{any: [{touch: '**/MEMORY.md'}, {touch: '**/memory/**'}]}"
        ))
    );
    // Printing `.env` reads it; echoing tokens reads where tokens live.
    assert_eq!(at(&cs, 12).unwrap().forbid, Some(p("{read: '**/.env'}")));
    assert!(serde_json::to_string(&at(&cs, 16).unwrap().forbid)
        .unwrap()
        .contains(".env"));
}

#[test]
fn a_short_step_over_a_shell_block_requires_its_commands() {
    let cs = fixture("commit-steps");
    // "1. Check the status:" over `git status` / `git diff --staged`: the
    // look-ups, due before the commit step 4 names.
    let c = at(&cs, 9).expect("status step");
    assert_eq!(
        c.require,
        Some(p("{any: [{git: status}, {git: diff, args: ['--staged']}]}")),
        "{c:#?}"
    );
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "Never use `git add -A`" (beside "Stage only the files you
    // changed."); "Do not push unless the user asks."
    assert!(cs
        .iter()
        .any(|c| c.lines[0] == 18 && c.forbid == Some(p("{git: add, args: ['-A']}"))));
    let c = at(&cs, 23).expect("push gate");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
}

#[test]
fn a_bold_numbered_step_over_an_assignment_requires_the_command_it_runs() {
    let cs = fixture("commit-steps");
    // "**1. Note the range:**" over `FROM=$(git merge-base …)`: a read
    // (`git merge-base` is no merge).
    let c = at(&cs, 33).expect("range step");
    assert_eq!(
        c.require,
        Some(p("{command: 'git merge-base * origin/main*'}")),
        "{c:#?}"
    );
    assert!(c.scope.is_empty() && no_trigger_of_its_own(c), "{c:#?}");
}

#[test]
fn a_reason_after_because_lends_no_scope() {
    let cs = fixture("release-steps");
    let c = at(&cs, 55).expect("triage rule");
    assert!(c.scope.is_empty() && c.behavior().is_none(), "{c:#?}");
}

#[test]
fn what_the_skill_does_is_no_rule_what_it_must_not_be_used_for_is() {
    let cs = fixture("changelog");
    assert!(at(&cs, 16).is_none(), "{cs:#?}");
    assert!(at(&cs, 18).is_some(), "{cs:#?}");
}

#[test]
fn a_pronoun_object_forbids_no_write_and_a_wait_label_is_a_gate() {
    let cs = fixture("plan-gates");
    // "Do not make any changes to it": "it" is the file shown, not every
    // file — no forbid of all writes.
    assert!(
        cs.iter()
            .filter(|c| c.lines[0] == 29)
            .all(|c| c.forbid.is_none()),
        "{cs:#?}"
    );
    // "**Wait for the choice**: Get explicit confirmation …": a user turn
    // before the work's next edit.
    let c = at(&cs, 30).expect("wait step");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
}

#[test]
fn tagging_version_bumps_and_lint_runs_are_acts() {
    let cs = fixture("tag-guards");
    // "Always bump the version before tagging": the gerund is the tag, the
    // bump an edit of the version's file (or the version tool), before it.
    let c = at(&cs, 10).expect("bump rule");
    assert_eq!(c.when, Some(p("{git: tag}")), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    let req = serde_json::to_string(&c.require).unwrap();
    assert!(
        req.contains("package.json") && req.contains("npm|yarn|pnpm) version"),
        "{c:#?}"
    );
    // "Run the linter", "Run the build": the verification commands.
    for line in [11, 22] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}"));
        let req = serde_json::to_string(&c.require).unwrap();
        assert!(req.contains("eslint") && req.contains("clippy"), "{c:#?}");
    }
    assert_eq!(at(&cs, 11).unwrap().when, Some(p("{git: commit}")));
    // A capitalised file name in code is still the changelog.
    let req = serde_json::to_string(&at(&cs, 12).unwrap().require).unwrap();
    assert!(req.contains("CHANGELOG"), "{req}");
}

#[test]
fn empty_commits_and_commits_on_protected_branches_are_forbidden() {
    let cs = fixture("tag-guards");
    assert_eq!(
        at(&cs, 13).unwrap().forbid,
        Some(p("{git: commit, args: ['--allow-empty']}"))
    );
    let on_main = p("{all: [{git: commit}, {any: [{branch: main}, {branch: master}]}]}");
    for line in [14, 15] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}"));
        assert_eq!(c.forbid, Some(on_main.clone()), "{c:#?}");
        assert!(c.when.is_none(), "{c:#?}");
    }
}

#[test]
fn deleting_a_worktree_and_wished_or_approved_edits_are_consent_gates() {
    let cs = fixture("tag-guards");
    let c = at(&cs, 19).expect("worktree rule");
    assert_eq!(
        c.when,
        Some(p(
            "{any: [{command: 'git worktree remove*'}, {command: 'git worktree prune*'}]}"
        )),
        "{c:#?}"
    );
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    // "Ask whether the user wants the edits applied", "Only change the
    // files they approve": a user turn before the edits.
    for line in [20, 21] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}"));
        assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
        assert_eq!(
            c.when,
            Some(p("{any: [{write: '**'}, {edit: '**'}]}")),
            "{c:#?}"
        );
    }
}

#[test]
fn secrets_in_replies_and_chat_are_sensitive_memory() {
    let cs = fixture("tag-guards");
    // Printing variables' values: the commands that print them.
    let c = at(&cs, 26).expect("print rule");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    assert!(json(&c.forbid).contains("printenv"), "{c:#?}");
    // Asking for secrets in the chat is a speech rule, but about secrets.
    let c = at(&cs, 27).expect("chat rule");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    assert!(c.behavior().is_none(), "{c:#?}");
}

#[test]
fn commits_since_a_tag_are_read_and_head_is_no_branch() {
    let cs = fixture("tag-guards");
    let c = at(&cs, 29).expect("log rule");
    assert_eq!(c.require, Some(p("{git: log}")), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn asking_as_a_second_verb_and_confirming_approval_are_consent_gates() {
    let cs = fixture("tag-guards");
    let c = at(&cs, 30).expect("ask rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(
        c.when,
        Some(p("{any: [{write: '**'}, {edit: '**'}]}")),
        "{c:#?}"
    );
    // "Confirm the user's approval to discard local changes".
    let c = at(&cs, 31).expect("discard rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("reset"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "…; no direct commits to protected branches": a rule of its own.
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 32 && c.forbid.is_some())
        .expect("the prohibition after the semicolon");
    assert_eq!(
        c.forbid,
        Some(p(
            "{all: [{git: commit}, {any: [{branch: main}, {branch: master}]}]}"
        ))
    );
}

#[test]
fn consent_to_the_changes_guards_the_files_the_skill_exists_to_change() {
    // A skill that updates CLAUDE.md: "the additions" and "the files" its
    // gates guard are that file's writes, self-modification.
    let cs = fixture("notes-reviser");
    for line in [10, 11] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
        assert_eq!(c.when, Some(p("{touch: '**/CLAUDE.md'}")), "{c:#?}");
        assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
    }
    // The steps before it act on nothing the gate can see.
    assert!(at(&cs, 8).unwrap().scope.is_empty());
}

#[test]
fn a_modal_in_a_relative_clause_is_not_the_rules() {
    let cs = fixture("notes-reviser");
    let c = at(&cs, 13).expect("check rule");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert!(c.forbid.is_none(), "{c:#?}");
}

#[test]
fn a_templates_outputs_non_goals_and_checks_are_rules() {
    let cs = fixture("template-sections");
    for line in [9, 10, 11, 18, 19] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::Must, "{c:#?}");
    }
    for line in [14, 15] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
        assert!(c.behavior().is_none(), "{c:#?}");
    }
    // "Typecheck and lint pass": the verification commands.
    let req = serde_json::to_string(&at(&cs, 19).unwrap().require).unwrap();
    assert!(req.contains("eslint"), "{req}");
    // The heading and the blank lines are no rules.
    assert!(at(&cs, 8).is_none() && at(&cs, 13).is_none());
    // "Implementing a new parser …" out of scope forbids no edit.
    let c = at(&cs, 22).expect("out-of-scope item");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.behavior().is_none() && c.when.is_none(), "{c:#?}");
}

#[test]
fn tagging_people_is_no_tag_and_a_stated_object_forbids_nothing_visible() {
    let cs = fixture("tag-guards");
    let c = at(&cs, 33).expect("reviewers rule");
    assert!(
        !c.scope.contains(&ScopeTag::SharedRepoState) && c.behavior().is_none(),
        "{c:#?}"
    );
    // "branches with unpushed commits": which branches, no action shows.
    let c = at(&cs, 34).expect("branches rule");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn fixing_is_a_production_edit_a_named_subagent_its_type_and_guidance_is_config() {
    let cs = fixture("delegation");
    // "Write a failing test before fixing": the fix is the trigger.
    let c = at(&cs, 8).expect("test-first rule");
    assert!(json(&c.when).contains("not"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "the `diff-reviewer` subagent": that type.
    let c = at(&cs, 9).expect("review rule");
    assert_eq!(c.require, Some(p("{subagent: diff-reviewer}")), "{c:#?}");
    // "the shared agent instructions": the agent's own instruction files.
    let c = at(&cs, 10).expect("instructions rule");
    assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("AGENTS.md"), "{c:#?}");
}

#[test]
fn callout_quotes_state_rules_and_dialogue_quotes_do_not() {
    let cs = fixture("callouts");
    // "> [!WARNING]" over "> **Never commit tokens …**".
    let c = at(&cs, 9).expect("alert rule");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    // "> ⚠️ Always run the tests before pushing."
    let c = at(&cs, 11).expect("symbol callout");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    // A quoted dialogue is an example.
    assert!(at(&cs, 13).is_none() && at(&cs, 14).is_none(), "{cs:#?}");
}

#[test]
fn a_table_of_skills_to_invoke_names_each_skill_under_its_situation() {
    let cs = fixture("delegation");
    // The situation is no action: the row names the skill, unverifiable.
    let c = at(&cs, 16).expect("row");
    assert_eq!(c.when, Some(p("{skill: profiling}")), "{c:#?}");
    assert!(c.require.is_none() && c.forbid.is_none(), "{c:#?}");
}

#[test]
fn what_is_spawned_is_an_agent_type() {
    let cs = fixture("delegation");
    let c = at(&cs, 17).expect("spawn rule");
    assert_eq!(c.require, Some(p("{subagent: notes-writer}")), "{c:#?}");
}

#[test]
fn other_harnesses_instruction_files_are_self_modification() {
    let cs = fixture("delegation");
    let c = at(&cs, 18).expect("instructions rule");
    assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
}

#[test]
fn a_test_plan_a_purpose_and_where_content_is_kept_give_no_predicate() {
    let cs = fixture("content-rules");
    // "a test plan" is text, not a test file.
    let c = at(&cs, 8).expect("test plan rule");
    assert!(c.behavior().is_none(), "{c:#?}");
    // ", so `git log` readers …": a purpose, not a required log read.
    let c = at(&cs, 9).expect("purpose rule");
    assert!(c.behavior().is_none(), "{c:#?}");
    // Where tokens or output belong: no write shows it.
    for line in [10, 11] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}"));
        assert!(c.behavior().is_none() && c.when.is_none(), "{c:#?}");
    }
    assert!(at(&cs, 10)
        .unwrap()
        .scope
        .contains(&ScopeTag::SensitiveMemory));
}

#[test]
fn a_check_of_the_repository_in_words_before_a_scoped_step_takes_its_scope() {
    let cs = fixture("worktree-steps");
    let c = at(&cs, 9).expect("check step");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    assert!(c.behavior().is_none(), "{c:#?}");
    // Choosing a name is no look at the repository.
    assert!(at(&cs, 8).unwrap().scope.is_empty());
    // A check waits on no one: the next step still requires its act.
    let c = at(&cs, 10).expect("create step");
    assert!(json(&c.require).contains("git worktree add"), "{c:#?}");
}

#[test]
fn a_list_of_branch_prefixes_forbids_a_new_branch_outside_them() {
    let cs = fixture("branch-naming");
    let c = at(&cs, 8).expect("prefix rule");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{all: [{command_re: '^git (checkout -[bB]|switch -[cC]) \S'}, {not: {command_re: '^git (checkout -[bB]|switch -[cC]) (feat|bugfix|ops)/'}}]}"#
        )),
        "{c:#?}"
    );
    assert_eq!(c.lines, [8, 12], "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // A prefix rule with no list of branch prefixes gets no such forbid.
    assert!(at(&cs, 16).is_none_or(|c| c.forbid.is_none()), "{cs:#?}");
}

#[test]
fn branch_prefix_items_are_the_rules_prefixes_not_rules() {
    let cs = fixture("branch-naming");
    assert_eq!(
        cs.iter()
            .filter(|c| c.lines[0] >= 8 && c.lines[1] <= 12)
            .count(),
        1,
        "{cs:#?}"
    );
}

#[test]
fn a_numbered_step_heading_over_a_shell_block_runs_it_before_the_next_act() {
    let cs = fixture("merge-steps");
    // "### Step 1: Check the checks" over `gh pr checks 42`: the check,
    // due before the merge a later step makes.
    due_before(
        at(&cs, 8).expect("check step"),
        "{command: 'gh pr checks 42*'}",
        "gh pr merge",
    );
    // "### Step 3: Update local main" over `git switch main && git pull`.
    let c = at(&cs, 22).expect("update step");
    assert!(json(&c.require).contains("pull"), "{c:#?}");
}

#[test]
fn a_regular_merge_is_one_that_neither_squashes_nor_rebases() {
    let cs = fixture("merge-steps");
    let c = at(&cs, 16).expect("merge rule");
    let f = serde_json::to_string(&c.forbid).unwrap();
    assert!(f.contains("not") && f.contains("--squash"), "{c:#?}");
}

#[test]
fn checks_under_a_lead_in_that_names_an_act_guard_that_act() {
    let cs = fixture("preflight");
    // "Before merging, verify all of the following:" over two numbered
    // sections: the command is due before the merge, the checks in words
    // carry its scope; the next section is not the lead-in's.
    due_before(
        at(&cs, 12).expect("fetch check"),
        "{command: 'git fetch origin*'}",
        "gh pr merge",
    );
    for line in [13, 17] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}"));
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    }
    assert!(at(&cs, 21).unwrap().scope.is_empty());
}

#[test]
fn ci_results_gate_merges_and_failing_tests_gate_pushes() {
    let cs = fixture("ci-gates");
    let passing = p(
        r#"{all: [{command_re: '^gh (pr checks|run (list|view|watch))\b'}, {not: {failed: true}}]}"#,
    );
    for line in [8, 9, 10] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}"));
        assert_eq!(c.require, Some(passing.clone()), "line {line}: {c:#?}");
        assert!(
            serde_json::to_string(&c.when)
                .unwrap()
                .contains("gh pr merge"),
            "line {line}: {c:#?}"
        );
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
    }
    // "Do not push with failing tests": a push waits for a passing run.
    let c = at(&cs, 11).expect("push rule");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert!(json(&c.require).contains("pytest"), "{c:#?}");
    // The user's word stays consent, not a condition to reorder.
    let c = at(&cs, 12).expect("hooks rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    // "Only proceed once the user approves": a time, not "the files they
    // approve" — still the consent gate.
    let c = at(&cs, 13).expect("proceed rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    // "pull request operations" act on the hosting's shared state: scoped,
    // with no command to check.
    let c = at(&cs, 14).expect("cli rule");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    assert!(c.behavior().is_none(), "{c:#?}");
}

#[test]
fn tests_exist_and_pass_before_a_fix_and_a_named_tool_is_called() {
    let cs = fixture("refactor-steps");
    // Tests exist and pass before the fix's first production edit.
    let c = at(&cs, 8).expect("tests-first rule");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(json(&c.require).contains("failed"), "{c:#?}");
    assert!(c.when.is_some(), "{c:#?}");
    // "No bundled refactoring": no act a session shows (not every edit).
    let c = at(&cs, 9).expect("refactoring rule");
    assert!(c.forbid.is_none(), "{c:#?}");
    // "Call AskUserQuestion …": the harness tool.
    let c = at(&cs, 10).expect("tool rule");
    assert_eq!(c.require, Some(p("{tool: AskUserQuestion}")), "{c:#?}");
}

#[test]
fn asking_for_confirmation_gates_the_commands_the_next_steps_run() {
    let cs = fixture("release-ask");
    // "1. Show the new version and ask for confirmation." before a step
    // that commits and tags: one consent for the batch.
    let c = at(&cs, 6).expect("ask step");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(
        c.when,
        Some(p("{any: [{git: commit}, {git: tag}]}")),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn a_step_heading_that_looks_guards_the_acts_the_next_step_runs() {
    let cs = fixture("branch-update");
    // "### Step 1: Inspect the branch" over `git fetch` / `git rev-list`,
    // before "### Step 3" whose options rebase or merge.
    let c = at(&cs, 9).expect("look-up step");
    assert_eq!(
        c.when,
        Some(p("{any: [{git: rebase}, {git: merge}]}")),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn asking_before_updating_the_branch_gates_what_rewrites_it() {
    let cs = fixture("branch-update");
    let c = at(&cs, 18).expect("consent");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    let when = serde_json::to_string(&c.when).unwrap();
    assert!(when.contains("rebase") && when.contains("merge"), "{when}");
    assert!(!when.contains("commit"), "{when}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn if_successful_over_a_block_runs_it_after_the_block_before_succeeded() {
    let cs = fixture("branch-update");
    let c = at(&cs, 28).expect("if successful");
    assert_eq!(
        c.when,
        Some(p(
            "{all: [{command: \"git rebase origin/main*\"}, {not: {failed: true}}]}"
        )),
        "{c:#?}"
    );
    assert_eq!(
        c.require,
        Some(p("{git: push, args: [\"--force-with-lease\"]}")),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
    let c = at(&cs, 39).expect("if it succeeds");
    assert_eq!(c.require, Some(p("{git: push}")), "{c:#?}");
}

#[test]
fn stage_and_commit_is_a_commit() {
    let cs = fixture("branch-update");
    let c = at(&cs, 46).expect("stage and commit");
    assert_eq!(c.require, Some(p("{git: commit}")), "{c:#?}");
}

#[test]
fn remedies_under_known_issues_require_nothing() {
    let cs = fixture("branch-update");
    for line in [56, 59, 60] {
        if let Some(c) = at(&cs, line) {
            assert_eq!(c.require, None, "{c:#?}");
        }
    }
}

#[test]
fn logging_a_secret_is_no_read_of_the_secret_files() {
    let cs = fixture("secrets-table");
    let c = at(&cs, 7).expect("never … tokens");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
}

#[test]
fn the_action_of_a_pressure_scenario_is_a_rule_its_pressure_is_not() {
    let cs = fixture("secrets-table");
    assert!(at(&cs, 12).is_none(), "{:#?}", at(&cs, 12));
    assert!(at(&cs, 14).is_none(), "{:#?}", at(&cs, 14));
    assert!(at(&cs, 16).is_some());
    let c = at(&cs, 21).expect("never commit .env");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.forbid.is_some(), "{c:#?}");
}

#[test]
fn a_dont_column_forbids_its_act_and_the_do_column_requires_nothing() {
    let cs = fixture("secrets-table");
    let row: Vec<&Constraint> = cs.iter().filter(|c| c.lines[0] == 28).collect();
    assert!(
        row.iter().any(|c| c.modality == Modality::MustNot
            && matches!(&c.forbid, Some(Predicate::CommandRe(re)) if re.contains(r"\.env"))),
        "{row:#?}"
    );
    // "Push to your own branch" beside "Force-push `main`": how to push,
    // not that every session pushes.
    for c in cs.iter().filter(|c| c.lines[0] == 29) {
        assert!(c.require.is_none(), "{c:#?}");
    }
    assert!(cs.iter().any(|c| c.lines[0] == 29
        && matches!(&c.forbid, Some(f) if *f == p("{git: push, args: [\"--force\"]}"))));
}

#[test]
fn waiting_on_the_user_in_a_skill_that_writes_skills_gates_those_writes() {
    let cs = fixture("skill-maker");
    // "Keep asking questions until the user confirms the wording." and
    // "After showing the plan, wait for the user's approval.": the user's
    // word comes before the skill files are written.
    for line in [13, 19] {
        let c = at(&cs, line).expect("gate");
        assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
        assert!(json(&c.when).contains(".claude/skills/**"), "{c:#?}");
        assert_eq!(c.order, Some(Order::Before), "{c:#?}");
        assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
    }
}

#[test]
fn writing_a_skill_file_is_self_modification() {
    let cs = fixture("skill-maker");
    let c = at(&cs, 23).expect("write SKILL.md");
    assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
}

#[test]
fn fixing_refactoring_and_each_step_in_a_condition_are_the_works_edits() {
    let cs = fixture("fix-steps");
    let production_edit = |c: &Constraint| {
        let w = serde_json::to_string(&c.when).unwrap();
        w.contains("\"write\":\"**\"") && w.contains("\"not\"")
    };
    // "Write a failing test before fixing.", "… BEFORE attempting to fix
    // it.", "Make sure the tests pass before refactoring.": due before the
    // first production edit.
    for line in [7, 9, 11] {
        let c = at(&cs, line).expect("rule");
        assert!(production_edit(c), "line {line}: {c:#?}");
        assert!(c.require.is_some(), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
    }
    // "After each step, run the whole test suite.": after the edits.
    for line in [13, 15] {
        let c = at(&cs, line).expect("rule");
        assert!(production_edit(c), "line {line}: {c:#?}");
        assert!(
            serde_json::to_string(&c.require)
                .unwrap()
                .contains("pytest"),
            "line {line}: {c:#?}"
        );
        assert!(
            matches!(c.order, None | Some(Order::After)),
            "line {line}: {c:#?}"
        );
    }
    // As the rule's own act, "refactoring" forbids nothing: the session's
    // edits are not a refactoring bundled with a fix.
    let c = at(&cs, 17).expect("bundle rule");
    assert!(c.forbid.is_none() && c.when.is_none(), "{c:#?}");
    // A fix of typos is no code change.
    let c = at(&cs, 19).expect("typos rule");
    assert!(!production_edit(c), "{c:#?}");
}

#[test]
fn asking_the_user_to_pick_an_act_gates_that_act() {
    let cs = fixture("release-picks");
    // "… ask the user to pick a version bump.": the bump waits on the answer.
    let c = at(&cs, 9).expect("pick");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("package.json"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "Display the new version and ask for confirmation." over the bump.
    let c = at(&cs, 15).expect("display and ask");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.when, Some(p("{command: 'npm version minor*'}")), "{c:#?}");
    // "Always pause here for the user's approval." before the push.
    let c = at(&cs, 23).expect("pause");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("push"), "{c:#?}");
}

#[test]
fn a_short_sentence_with_an_act_of_its_own_is_its_own_rule() {
    let cs = fixture("release-picks");
    // "Run the tests. Never push to main.": two rules on one line.
    let line: Vec<&Constraint> = cs.iter().filter(|c| c.lines[0] == 27).collect();
    assert_eq!(line.len(), 2, "{line:#?}");
    assert!(line
        .iter()
        .any(|c| c.require.is_some() && c.forbid.is_none()));
    assert!(line
        .iter()
        .any(|c| c.modality == Modality::MustNot && c.forbid.is_some()));
}

#[test]
fn a_consent_gate_on_a_branch_in_code_guards_only_that_branch() {
    let cs = fixture("release-picks");
    // "Do not continue on `main` or `master` unless the user explicitly
    // says …": edits on those branches wait for the user's word.
    let c = at(&cs, 35).expect("branch gate");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(
        c.when,
        Some(p(
            "{all: [{any: [{write: '**'}, {edit: '**'}]}, {any: [{branch: main}, {branch: master}]}]}"
        )),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn looking_at_the_project_files_is_due_before_the_first_change_not_at_the_load() {
    let cs = fixture("look-first");
    for line in [7, 8] {
        let c = at(&cs, line).expect("look");
        let r = serde_json::to_string(&c.require).unwrap();
        assert!(r.contains("\"read\":\"**\""), "line {line}: {c:#?}");
        assert!(c.when.is_some(), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
        assert!(c.scope.is_empty(), "line {line}: {c:#?}");
    }
}

#[test]
fn a_step_over_a_shell_block_runs_its_commands() {
    let cs = fixture("step-blocks");
    // "Fetch the upstream address:" / "Check the new checkout exists:"
    // over a block: the step runs the block.
    let c = at(&cs, 10).expect("fetch step");
    assert_eq!(c.require, Some(p("{git: remote, args: ['-v']}")), "{c:#?}");
    let c = at(&cs, 16).expect("check step");
    assert_eq!(
        c.require,
        Some(p("{command: 'git worktree list*'}")),
        "{c:#?}"
    );
    // "Confirm nothing stale is left:" checks a state: a requirement, not
    // a prohibition.
    let c = at(&cs, 22).expect("confirm step");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert_eq!(
        c.require,
        Some(p("{command: 'git worktree prune*'}")),
        "{c:#?}"
    );
    // A PowerShell block: the call operator and `./` both run scripts.
    let c = at(&cs, 28).expect("powershell step");
    assert_eq!(
        c.require,
        Some(p(
            "{any: [{command: '*collect.ps1*'}, {command: '*summarize.ps1*'}]}"
        )),
        "{c:#?}"
    );
}

#[test]
fn a_block_marked_as_shell_names_programs_the_lexicon_does_not_know() {
    let cs = fixture("step-blocks");
    // "### 4. Inspect the service" over `svcctl …` lines; `sleep 5` only
    // waits.
    let c = at(&cs, 35).expect("numbered step heading");
    assert_eq!(
        c.require,
        Some(p(
            "{any: [{command: 'svcctl status*'}, {command: 'svcctl events*'}]}"
        )),
        "{c:#?}"
    );
    // "Restart: `svcctl restart <service>`.": a label and its command.
    let c = at(&cs, 43).expect("labelled command");
    assert_eq!(c.require, Some(p("{command: 'svcctl restart*'}")), "{c:#?}");
    // "… when possible" is a hedge, not a condition.
    let c = at(&cs, 45).expect("hedged run");
    assert_eq!(c.require, Some(p("{command: '*bump.sh*'}")), "{c:#?}");
    assert!(no_trigger_of_its_own(c), "{c:#?}");
}

#[test]
fn consent_before_a_forceful_flag_or_overwriting_a_branch_gates_those_commands() {
    let cs = fixture("step-blocks");
    let c = at(&cs, 47).expect("overwrite gate");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("-[BC]"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    let c = at(&cs, 49).expect("flag gate");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    let w = serde_json::to_string(&c.when).unwrap();
    assert!(w.contains("B(=") && w.contains("force(="), "{c:#?}");
    // A lower-case short flag means different things per program: no act.
    let c = at(&cs, 53).expect("lower-case flag");
    assert_eq!(c.behavior(), None, "{c:#?}");
}

#[test]
fn the_session_itself_is_no_condition() {
    let cs = fixture("step-blocks");
    // "After every working session, update `FINDINGS.md`": due by the end.
    let c = at(&cs, 51).expect("session rule");
    assert_eq!(c.when, None, "{c:#?}");
    assert!(json(&c.require).contains("FINDINGS.md"), "{c:#?}");
}

#[test]
fn a_document_a_rule_uses_is_read_and_a_block_belongs_to_its_colon() {
    let cs = fixture("step-blocks");
    // "Use the checklist in `references/review-checklist.md`.": a read.
    let c = at(&cs, 55).expect("document");
    assert!(
        json(&c.require).contains("\"read\":\"references/review-checklist.md\""),
        "{c:#?}"
    );
    // "Update both manifests by hand. The release script does this too:"
    // — the block is the second sentence's, not the rule's act.
    let c = at(&cs, 57).expect("manual update");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn a_look_up_step_is_due_before_the_next_steps_scoped_block() {
    let cs = fixture("step-blocks");
    // "1. Get the remote URL:" under "Step 5", before "Step 6"'s
    // `git worktree add`.
    let c = at(&cs, 65).expect("look-up");
    assert_eq!(c.when, Some(p("{command: 'git worktree add*'}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn parallel_never_sentences_are_rules_of_their_own() {
    let cs = fixture("mentions");
    // "Never hardcode tokens. Never commit tokens. Never log tokens.": only
    // the commit is about repository state.
    let line: Vec<&Constraint> = cs.iter().filter(|c| c.lines[0] == 8).collect();
    assert_eq!(line.len(), 3, "{line:#?}");
    let repo: Vec<&&Constraint> = line
        .iter()
        .filter(|c| c.scope.contains(&ScopeTag::SharedRepoState))
        .collect();
    assert_eq!(repo.len(), 1, "{line:#?}");
    assert!(repo[0].text.contains("commit"), "{line:#?}");
    // Each is about a secret, which logging or hardcoding puts in content.
    assert!(
        line.iter()
            .all(|c| c.scope.contains(&ScopeTag::SensitiveMemory)),
        "{line:#?}"
    );
}

#[test]
fn things_named_in_passing_are_no_acts() {
    let cs = fixture("mentions");
    // "Verify: The new checkout appears in `git worktree list` …": a state
    // the check expects.
    let c = at(&cs, 10).expect("stated check");
    assert_eq!(c.behavior(), None, "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
    // "… — assume everything will be committed before merge": a premise.
    let c = at(&cs, 12).expect("premise");
    let all = serde_json::to_string(&(&c.when, &c.require)).unwrap();
    assert!(!all.contains("commit") && !all.contains("merge"), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
    // "the release version", "the candidate commit", "the merged PR
    // author", "a resolving commit link": things, not a release, a commit
    // or a merge.
    for line in [14, 16, 18, 20] {
        let c = at(&cs, line).expect("mention");
        assert!(c.scope.is_empty(), "line {line}: {c:#?}");
        let all = serde_json::to_string(&(&c.when, &c.require, &c.forbid)).unwrap();
        assert!(
            !all.contains("\"commit\"") && !all.contains("\"merge\""),
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn the_unit_of_committing_is_about_commits_a_past_commit_is_not() {
    let cs = fixture("mentions");
    // "Keep one logical change per commit.": what goes into a commit.
    let c = at(&cs, 22).expect("per commit");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // Its content is what it is about: no commit is required.
    assert_eq!(c.behavior(), None, "{c:#?}");
    // "Read the last commit before you start.": history, read.
    let c = at(&cs, 24).expect("last commit");
    assert!(!c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_look_at_the_repository_is_due_before_the_next_act_the_skill_requires() {
    let cs = fixture("look-then-act");
    // "Run `git status` …" before "Commit the staged work …", with no step
    // structure between them.
    let c = at(&cs, 8).expect("status");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // A look after the last act checks its result: no trigger of its own.
    let c = at(&cs, 14).expect("log");
    assert!(no_trigger_of_its_own(c), "{c:#?}");
}

#[test]
fn working_from_a_named_branch_forbids_acts_on_another() {
    let cs = fixture("look-then-act");
    let c = at(&cs, 16).expect("dev branch");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert_eq!(
        c.forbid,
        Some(p(
            "{all: [{any: [{git: commit}, {git: tag}, {git: push}]}, {not: {branch: dev}}]}"
        )),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // A folder is no branch.
    let c = at(&cs, 18).expect("folder");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn using_a_named_tool_requires_it_unless_as_needed() {
    let cs = fixture("step-blocks");
    // "Use the `AskUserQuestion` tool to pick the bump.": the tool.
    let c = at(&cs, 77).expect("tool");
    assert_eq!(c.require, Some(p("{tool: AskUserQuestion}")), "{c:#?}");
    // "Use `WebSearch` as needed.": a judgement no action shows.
    let c = at(&cs, 79).expect("as needed");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn a_title_naming_troubleshooting_leaves_the_steps_binding() {
    let cs = fixture("troubleshoot-title");
    // "# service-troubleshoot" names the skill: "### 1. Find the failing
    // unit" over its block is a step like any other.
    let c = at(&cs, 10).expect("step heading");
    assert_eq!(
        c.require,
        Some(p("{command: 'svcctl list --failed*'}")),
        "{c:#?}"
    );
    // "2. Restart: `svcctl restart <unit>`.": a step named by its verb
    // (after "1. … state the cause to the user before acting": telling the
    // user waits on no answer).
    let c = at(&cs, 19).expect("labelled step");
    assert_eq!(c.require, Some(p("{command: 'svcctl restart*'}")), "{c:#?}");
    // "Command: …" shows a command; "Mirror: `~/.svc-mirror`" a value.
    for line in [20, 21] {
        assert!(
            at(&cs, line).is_none_or(|c| c.require.is_none()),
            "line {line}: {:#?}",
            at(&cs, line)
        );
    }
}

#[test]
fn items_under_ask_before_are_consent_gates() {
    let cs = fixture("ask-before");
    // "Always ask the user before:" / "- Deleting a branch": each named act
    // waits on its own answer.
    for line in [9, 10] {
        let c = at(&cs, line).expect("gated act");
        assert_eq!(c.require, Some(Predicate::UserTurn), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::BeforeEach), "line {line}: {c:#?}");
        assert!(
            c.scope.contains(&ScopeTag::SharedRepoState),
            "line {line}: {c:#?}"
        );
    }
    // "- Editing files in the user's repo": one consent covers the edits.
    let c = at(&cs, 13).expect("edits");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(
        c.when,
        Some(p("{any: [{write: '**'}, {edit: '**'}]}")),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn being_on_a_named_branch_and_ci_passing_on_github_actions_are_checked() {
    let cs = fixture("look-then-act");
    // "Make sure you are on the `main` branch.": acts elsewhere break it.
    let c = at(&cs, 20).expect("on main");
    assert_eq!(
        c.forbid,
        Some(p(
            "{all: [{any: [{git: commit}, {git: tag}, {git: push}]}, {not: {branch: main}}]}"
        )),
        "{c:#?}"
    );
    // "Confirm the build passed in GitHub Actions after you push.": the
    // run's result, read with `gh`.
    let c = at(&cs, 22).expect("actions");
    assert!(json(&c.require).contains("gh (pr checks|run"), "{c:#?}");
}

#[test]
fn handing_information_over_names_no_act_a_flag_passed_is_one() {
    let cs = fixture("mentions");
    // "Pass the worker … any test commands that were already run …": what
    // is handed over, not a test run.
    let c = at(&cs, 26).expect("hand-off");
    assert_eq!(c.behavior(), None, "{c:#?}");
    // "Pass `--force-with-lease` when you push.": the push carries the flag.
    let c = at(&cs, 28).expect("flag");
    assert!(json(&c.require).contains("force\\\\-with"), "{c:#?}");
}

#[test]
fn refreshing_the_local_main_after_a_merge_pulls_it() {
    let cs = fixture("look-then-act");
    let c = at(&cs, 24).expect("refresh");
    assert_eq!(
        c.require,
        Some(p("{any: [{git: pull}, {git: fetch}]}")),
        "{c:#?}"
    );
    assert!(json(&c.when).contains("merge"), "{c:#?}");
}

#[test]
fn a_step_after_the_users_confirmation_gates_its_block() {
    let cs = fixture("ask-before");
    // "Once the user confirms the work is finished:" / "1. Drop the
    // checkout:" over `git worktree remove`: each removal waits.
    let c = at(&cs, 19).expect("gated step");
    assert_eq!(
        c.when,
        Some(p("{command: 'git worktree remove ../wt*'}")),
        "{c:#?}"
    );
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_skill_about_secrets_scopes_its_rules_that_name_no_object() {
    let cs = fixture("vault-topic");
    // "Never run the loader from a cron job.": in a skill whose
    // description opens on credentials, the loader handles them.
    let c = at(&cs, 11).expect("loader");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    // What to say, and a preference, take no scope from the topic.
    for line in [12, 13] {
        let c = at(&cs, line).expect("rule");
        assert!(c.scope.is_empty(), "{c:#?}");
    }
    // "Always pick the scoped entry instead. This route:": the lead-in is
    // a rule; its items describe what the route does.
    assert!(at(&cs, 15).is_some());
    for line in [16, 17] {
        assert!(at(&cs, line).is_none(), "{:#?}", at(&cs, line));
    }
}

#[test]
fn history_look_ups_guard_the_pull_request_they_describe_not_a_tag() {
    let cs = fixture("pr-lookups");
    // "1. **Collect the branch's story**:" / "- Run `git log …`": the
    // bullets of a numbered step are due before the next step's act.
    for line in [11, 12] {
        let c = at(&cs, line).expect("look-up");
        assert_eq!(
            c.when,
            Some(p("{command: 'gh pr create --fill*'}")),
            "{c:#?}"
        );
        assert_eq!(c.order, Some(Order::Before), "{c:#?}");
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
        // ("Keeps tokens out of its body." is one rule's object, in the
        // description's second sentence: not the skill's topic.)
        assert!(!c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    }
    // Reviewing what a tag will hold reads history; it is not ordered
    // before the tag.
    let c = at(&cs, 17).expect("tag review");
    assert_ne!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn a_step_whose_verb_acts_runs_its_block_where_the_block_changes_shared_state() {
    let cs = fixture("step-blocks");
    // "1. **Drop the checkout**:" over `git worktree remove ../wt`.
    let c = at(&cs, 83).expect("drop step");
    assert_eq!(
        c.require,
        Some(p("{command: 'git worktree remove ../wt*'}")),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "2. **Install the tools**:" over `npm ci`: an ordinary command, and
    // "install" is no step verb — the short title stays a bare lead-in.
    assert!(at(&cs, 87).is_none(), "{:#?}", at(&cs, 87));
}

#[test]
fn path_arithmetic_beside_a_look_up_keeps_it_a_look_before_the_act() {
    let cs = fixture("step-blocks");
    // "1. **Determine the paths**:" over `git rev-parse --show-toplevel`
    // and `basename`: a look before "2. **Make the checkout**:".
    let c = at(&cs, 94).expect("paths step");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(json(&c.when).contains("git worktree add"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_case_over_a_command_is_a_scoped_rule_with_no_predicate() {
    let cs = fixture("step-blocks");
    // "If yes:" over `git push origin main --tags`, and "If unmerged:
    // `git branch -D <branch>`": what to run in a case no action shows.
    for line in [108, 113] {
        let c = at(&cs, line).expect("case");
        assert_eq!(c.behavior(), None, "{c:#?}");
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    }
}

#[test]
fn a_procedure_told_as_what_the_agent_does_reads_as_the_imperative() {
    let cs = fixture("agent-narration");
    // "Claude runs `mkdocs build --strict`."
    let c = at(&cs, 10).expect("runs");
    assert_eq!(
        c.require,
        Some(p("{command: 'mkdocs build --strict*'}")),
        "{c:#?}"
    );
    // "The agent pushes the branch with `git push -u origin docs`."
    let c = at(&cs, 12).expect("pushes");
    assert!(json(&c.require).contains("push"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "Claude never commits the built `site/` folder."
    let c = at(&cs, 14).expect("never commits");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.forbid.is_some(), "{c:#?}");
    // "Claude says which pages changed.": speech, no act.
    assert!(at(&cs, 16).is_none_or(|c| c.behavior().is_none()));
}

#[test]
fn what_follows_a_speech_label_is_said_not_run() {
    let cs = fixture("agent-narration");
    // "Suggest: `git stash` and a fresh build": the command is advice.
    let c = at(&cs, 20).expect("suggest");
    assert_eq!(c.behavior(), None, "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn a_statement_then_so_never_is_the_rule_after_so() {
    let cs = fixture("pr-lookups");
    // "The mirror is public, so never run `git push --force` to it.": a
    // forbid, never a requirement to force-push.
    let c = at(&cs, 22).expect("so never");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.require.is_none(), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "The tracker is private, but avoid pasting access tokens …": the
    // clause after "but" is the rule.
    let c = at(&cs, 24).expect("but avoid");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
}

#[test]
fn items_under_read_these_files_are_reads_of_each() {
    let cs = fixture("agent-narration");
    // "Read these files before the first page …:" / "1. `docs/voice.md`".
    let c = at(&cs, 26).expect("first file");
    assert_eq!(c.require, Some(p("{read: docs/voice.md}")), "{c:#?}");
    let c = at(&cs, 27).expect("second file");
    assert_eq!(c.require, Some(p("{read: docs/layout.md}")), "{c:#?}");
}

#[test]
fn a_quoted_imperative_motto_is_a_rule() {
    let cs = fixture("agent-narration");
    // "**\"Write a failing test before fixing.\"** (test first for bugs)".
    let c = at(&cs, 31).expect("motto");
    assert!(c.behavior().is_some(), "{c:#?}");
}

#[test]
fn a_lead_in_ending_in_a_passive_condition_keeps_its_items() {
    let cs = fixture("step-blocks");
    // "1. Drop the local branch (after the checkout is removed):" ends in
    // a condition, not a statement of what happens: its items are rules.
    let c = at(&cs, 118).expect("item under the lead-in");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn an_act_only_with_approval_is_a_consent_gate_not_a_requirement() {
    let cs = fixture("step-blocks");
    // "Delete the remote branch only with the user's approval.": it had
    // required the deletion.
    let c = at(&cs, 120).expect("gate");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.when).contains("delete"), "{c:#?}");
}

#[test]
fn acts_listed_before_a_dash_are_what_the_consent_gates() {
    let cs = fixture("step-blocks");
    // "`git clean -fdx`, `git reset --hard`, force-pushes — name the
    // command and ask the user before running.": each listed act waits.
    let c = at(&cs, 122).expect("gate");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    let when = serde_json::to_string(&c.when).unwrap();
    assert!(
        when.contains("clean") && when.contains("reset") && when.contains("force"),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn commands_listed_under_a_forbidding_heading_or_lead_are_forbidden_notes_and_all() {
    let cs = fixture("history-guards");
    // "## Never run these" / "- `git filter-branch`": the heading leads.
    let c = at(&cs, 10).expect("bare item under the heading");
    assert_eq!(c.forbid, Some(p("{git: filter-branch}")), "{c:#?}");
    // "- `git gc --prune=now` — drops unreachable objects at once".
    let c = at(&cs, 11).expect("item with a note");
    assert_eq!(
        c.forbid,
        Some(p("{git: gc, args: ['--prune=now']}")),
        "{c:#?}"
    );
    // "Never run these commands:" / "- `git clean -fdx` (deletes …)".
    let c = at(&cs, 29).expect("parenthesised note");
    assert_eq!(c.forbid, Some(p("{git: clean, args: ['-fdx']}")), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "- `git stash clear`: the stashes are gone for good".
    let c = at(&cs, 30).expect("note after a colon");
    assert!(c.forbid.is_some(), "{c:#?}");
    // A lead-in that is no rule ("Useful commands:") forbids nothing.
    assert!(at(&cs, 36).is_none_or(|c| c.behavior().is_none()));
}

#[test]
fn a_command_then_its_verdict_is_a_forbid_or_a_consent_gate() {
    let cs = fixture("history-guards");
    // "`git reflog expire --expire=now` - BANNED".
    let c = at(&cs, 15).expect("banned");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.forbid.is_some(), "{c:#?}");
    // "`git reset --hard` - FORBIDDEN without an explicit user request".
    let c = at(&cs, 16).expect("gate");
    assert_eq!(c.when, Some(p("{git: reset, args: ['--hard']}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "`git add -f` on ignored paths - never (it stages build output)".
    let c = at(&cs, 17).expect("never");
    assert_eq!(c.forbid, Some(p("{git: add, args: ['-f']}")), "{c:#?}");
    // "`npm publish` — not allowed unless the user asks (…)".
    let c = at(&cs, 18).expect("gate unless asked");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn a_possessive_or_bare_request_is_the_users_consent() {
    let cs = fixture("history-guards");
    // "Never rebase a shared branch without the user's request.".
    let c = at(&cs, 22).expect("possessive");
    assert_eq!(c.when, Some(p("{git: rebase}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    // "Do not bypass hooks (--no-verify) without request.".
    let c = at(&cs, 23).expect("bare request");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn acts_that_need_their_own_request_are_each_gated_on_the_users_word() {
    let cs = fixture("commit-situations");
    // "Tagging, pushing, and opening merge requests are acts of their own
    // that need a separate explicit request.": a gerund list stays one
    // subject, the relative clause's request is consent.
    let c = at(&cs, 10).expect("gate");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    let when = serde_json::to_string(&c.when).unwrap();
    assert!(
        when.contains("tag") && when.contains("push") && when.contains("mr create"),
        "{c:#?}"
    );
    // "Never commit as an unrequested by-product of a larger task.".
    let c = at(&cs, 12).expect("unrequested");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn a_bold_situation_before_a_dash_is_the_condition_of_what_follows() {
    let cs = fixture("commit-situations");
    // "**The staged diff holds a credential** — stop, …, do not stage it":
    // the situation names what the rule guards.
    let c = at(&cs, 16).expect("situation");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
}

#[test]
fn files_written_once_planning_is_complete_are_due_before_the_work_starts() {
    let cs = fixture("plan-files");
    // "**Once planning is complete**, record the plan:" / "- Write
    // `docs/plans/outline.md` …": a planning step, due before the first
    // change to the code (it had no predicate: "planning is complete"
    // was not read as the end of planning).
    for (line, path) in [
        (10, "docs/plans/outline.md"),
        (11, "docs/plans/steps.md"),
        (12, "docs/plans/status.json"),
    ] {
        let c = at(&cs, line).expect("plan file");
        assert_eq!(c.require, Some(Predicate::Write(path.into())), "{c:#?}");
        assert_eq!(c.order, Some(Order::Before), "{c:#?}");
        assert!(c.when.is_some(), "{c:#?}");
    }
}

#[test]
fn a_command_on_its_own_line_ends_its_sentence_before_a_capital_if() {
    let cs = fixture("pr-lookups");
    // "1. Find out whether … pull request:" / "`gh pr view --json
    // baseRefName`" / "If it does, take its base …": the command is the
    // step's own; the condition opens the next sentence.
    let c = at(&cs, 29).expect("look-up");
    assert_eq!(
        c.require,
        Some(p("{command: 'gh pr view --json baseRefName*'}")),
        "{c:#?}"
    );
    assert!(cs.iter().any(|c| c.lines == [30, 30]), "{cs:#?}");
}

#[test]
fn a_bold_path_under_read_these_is_a_read_of_that_file() {
    let cs = fixture("agent-narration");
    // "Read these notes before tracing a fault:" / "1.
    // **notes/tracing-method.md** - the whole method": no code span, the
    // path in bold is the file all the same.
    let c = at(&cs, 37).expect("first note");
    assert_eq!(
        c.require,
        Some(p("{read: notes/tracing-method.md}")),
        "{c:#?}"
    );
    let c = at(&cs, 40).expect("second note");
    assert_eq!(c.require, Some(p("{read: notes/leak-guide.md}")), "{c:#?}");
}

#[test]
fn reading_the_diff_or_recent_history_is_a_look_up() {
    let cs = fixture("commit-situations");
    // "Read the whole diff, staged and unstaged.".
    let c = at(&cs, 23).expect("diff");
    assert!(json(&c.require).contains(r#"{"git":"diff"}"#), "{c:#?}");
    // "Study recent history first.".
    let c = at(&cs, 24).expect("history");
    assert!(json(&c.require).contains(r#"{"git":"log"}"#), "{c:#?}");
}

#[test]
fn one_git_over_a_list_of_subcommands_names_each() {
    let cs = fixture("commit-situations");
    // "**Survey** - Run git status, diff, log side by side".
    let c = at(&cs, 25).expect("list");
    let req = serde_json::to_string(&c.require).unwrap();
    for sub in ["status", "diff", "log"] {
        assert!(req.contains(&format!(r#"{{"git":"{sub}"}}"#)), "{c:#?}");
    }
    // "**Confirm** - Ensure clean status".
    let c = at(&cs, 26).expect("status");
    assert_eq!(c.require, Some(p("{git: status}")), "{c:#?}");
}

#[test]
fn a_condition_that_is_the_skills_own_activity_holds_all_session() {
    let cs = fixture("review-prep");
    // A skill that reviews: "Before reviewing, bring the branch up to
    // date:" / "1. `git fetch origin`" — no act shows where reviewing
    // starts, so the steps are due in the session (they had no predicate).
    let c = at(&cs, 10).expect("fetch");
    assert_eq!(
        c.require,
        Some(p("{command: 'git fetch origin*'}")),
        "{c:#?}"
    );
    let c = at(&cs, 11).expect("rebase");
    assert_eq!(
        c.require,
        Some(p("{command: 'git rebase origin/main*'}")),
        "{c:#?}"
    );
    // "When you review the branch, run `npm test` first.".
    let c = at(&cs, 13).expect("tests");
    assert_eq!(c.require, Some(p("{command: 'npm test*'}")), "{c:#?}");
    assert_eq!(c.when, None, "{c:#?}");
    // A condition on a visible act keeps its trigger.
    let c = at(&cs, 15).expect("lint");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
}

#[test]
fn a_heading_that_opens_with_its_modal_word_is_a_rule() {
    let cs = fixture("history-guards");
    // "### 4. Never Print Access Tokens" over only a code example.
    let c = at(&cs, 38).expect("modal heading");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    // "## Always run" leads its list; it is no rule of its own.
    assert!(at(&cs, 46).is_none(), "{:#?}", at(&cs, 46));
    assert_eq!(
        at(&cs, 48).and_then(|c| c.require.clone()),
        Some(p("{git: fsck}"))
    );
}

#[test]
fn a_flag_named_with_a_command_is_that_commands_argument() {
    let cs = fixture("history-guards");
    // "## NEVER RUN `git push` WITH THE `--mirror` FLAG": a mirror push is
    // forbidden, not every push (it had forbidden any push or any
    // `--mirror`).
    let c = at(&cs, 44).expect("flag");
    assert_eq!(
        c.forbid,
        Some(p("{git: push, args: ['--mirror']}")),
        "{c:#?}"
    );
}

#[test]
fn an_arrow_to_a_diagnosis_then_an_instruction_is_a_rule() {
    let cs = fixture("deploy-triage");
    // "`OOMKilled` → the memory limit is too low; run `kubectl describe
    // pod web`": the diagnosis is said, the instruction after it is the
    // rule (it was no rule at all). A status name alone is a state seen,
    // no harness tool used.
    for line in [10, 11] {
        let c = at(&cs, line).expect("arrow rule");
        assert_eq!(c.when, None, "{c:#?}");
        assert!(
            !serde_json::to_string(c).unwrap().contains(r#""tool""#),
            "{c:#?}"
        );
    }
}

#[test]
fn an_act_forbidden_for_one_reason_alone_is_no_forbid_of_every_such_act() {
    let cs = fixture("commit-situations");
    // "Do NOT merge just because the pipeline is green. The user decides
    // when.": every merge had been forbidden; it waits on the user.
    let c = at(&cs, 30).expect("merge");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(serde_json::to_string(&c.when).unwrap().contains("merge"));
    // "Never rebase simply because main moved on.": the rebase is the
    // trigger, judged by people.
    let c = at(&cs, 32).expect("rebase");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: rebase}")), "{c:#?}");
}

#[test]
fn run_it_after_writing_a_test_runs_the_tests_and_its_parenthesis_is_no_modal() {
    let cs = fixture("test-loop");
    // "2. Run it (it should fail on the assertion, …)": "it" is the test
    // step 1 wrote; "should" in the parenthesis says what to expect (the
    // rule had been a "should" with no predicate).
    for line in [9, 11] {
        let c = at(&cs, line).expect("run it");
        assert_eq!(c.modality, Modality::Must, "{c:#?}");
        assert!(json(&c.require).contains("pytest"), "{c:#?}");
    }
}

#[test]
fn a_table_of_patterns_and_their_resolutions_holds_rules() {
    let cs = fixture("deploy-triage");
    // "| Pattern | Resolution |": each row's resolution is a rule (the
    // rows had been read as no rules at all).
    for line in [18, 19] {
        assert!(at(&cs, line).is_some(), "row {line}: {cs:#?}");
    }
}

#[test]
fn abort_and_grep_are_instructions() {
    let cs = fixture("deploy-triage");
    // "If the rollout stalls, abort and investigate.": no rule before.
    assert!(at(&cs, 23).is_some(), "{cs:#?}");
    // "Grep for the failing route …": a search.
    let c = at(&cs, 25).expect("grep");
    assert!(json(&c.require).contains("Grep"), "{c:#?}");
}

#[test]
fn a_coordination_of_bare_release_acts_gates_each() {
    let cs = fixture("commit-situations");
    // "You must not change versions, tags, or publish without the user's
    // go-ahead.": the version bump had been the only act gated.
    let c = at(&cs, 34).expect("gate");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    let when = serde_json::to_string(&c.when).unwrap();
    assert!(
        when.contains(r#"{"git":"tag"}"#)
            && when.contains("npm publish")
            && when.contains("version"),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn items_under_a_lead_in_ending_when_the_user_are_cases_not_rules() {
    let cs = fixture("review-prep");
    // "Switch to review mode when the user:" / "- Pastes a diff": what
    // the user does, not what the agent must.
    assert!(at(&cs, 19).is_none(), "{:#?}", at(&cs, 19));
    assert!(at(&cs, 20).is_none(), "{:#?}", at(&cs, 20));
}

#[test]
fn an_act_as_directed_by_the_user_waits_on_the_users_word() {
    let cs = fixture("review-prep");
    // "Land or close the branch as directed by the user.": it had required
    // a merge after any edit.
    let c = at(&cs, 22).expect("gate");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    // "If the rebase stops, resolve the conflicts.": edits and staging.
    let c = at(&cs, 24).expect("conflicts");
    assert!(json(&c.require).contains(r#"{"git":"add"}"#), "{c:#?}");
}

#[test]
fn a_state_then_the_command_that_checks_it_runs_the_command() {
    let cs = fixture("commit-situations");
    // "No uncommitted changes: `git status --porcelain`": the "No" had
    // made the rule forbid running `git status`.
    let c = at(&cs, 38).expect("status");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(
        c.require,
        Some(p("{git: status, args: ['--porcelain']}")),
        "{c:#?}"
    );
    let c = at(&cs, 39).expect("pr list");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert!(c.require.is_some(), "{c:#?}");
}

#[test]
fn how_an_act_is_done_or_where_the_skill_applies_forbids_no_act() {
    let cs = fixture("history-guards");
    // "Never push hastily.": every push had been forbidden.
    let c = at(&cs, 52).expect("manner");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    // "Never use the backup branch as a substitute for the reflog.".
    let c = at(&cs, 54).expect("use as");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "Do not use for monorepos — use `npm run release` there instead.":
    // where the skill applies; it had forbidden every npm command.
    let c = at(&cs, 56).expect("scope of the skill");
    assert_eq!(c.behavior(), None, "{c:#?}");
}

#[test]
fn what_a_plan_must_not_include_forbids_no_edit() {
    let cs = fixture("plan-files");
    // "Do not include implementation code in the plan.": what the document
    // holds; it had forbidden every edit to the code.
    let c = at(&cs, 14).expect("plan content");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn how_changes_are_grouped_forbids_no_change() {
    let cs = fixture("refactor-guards");
    // "Do not mix the restructuring with new features or bug fixes.", "No
    // bug fixes in the same commit as a rename.": each had forbidden every
    // change to the code.
    for line in [8, 9] {
        let c = at(&cs, line).expect("grouping rule");
        assert_eq!(c.forbid, None, "{c:#?}");
    }
    // "| One huge commit touching every module | Split it … |": a kind of
    // commit no action shows; it had forbidden every commit.
    let c = at(&cs, 15).expect("anti-pattern row");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn what_another_agent_is_made_to_do_is_no_act_of_this_one() {
    let cs = fixture("review-prep");
    // "Never make a subagent read `notes/plan.md` in full.": it had
    // forbidden this agent's own read of the file.
    let c = at(&cs, 26).expect("other actor");
    assert_eq!(c.behavior(), None, "{c:#?}");
}

#[test]
fn items_under_never_commit_are_what_is_not_staged_and_the_lead_in_forbids_nothing() {
    let cs = fixture("history-guards");
    // "Never commit:" / "- `.env` files": staging those files (the items
    // had no predicate).
    for line in [62, 63] {
        let c = at(&cs, line).expect("staged path");
        assert!(json(&c.forbid).contains("git (add|commit)"), "{c:#?}");
    }
    // "Never push to these branches:": the item names the branch; the
    // lead-in alone had forbidden every push.
    let c = at(&cs, 65).expect("lead-in");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn what_an_example_shows_forbids_no_act() {
    let cs = fixture("history-guards");
    // "Examples: \"tidy up\" → NO rebase, …": it had forbidden every rebase.
    let c = at(&cs, 69).expect("examples");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn secrets_named_by_path_are_staged_files_to_forbid() {
    let cs = fixture("history-guards");
    // "Never commit secrets (`.env.local`, `*.p12`).": what a commit holds
    // is its content, but staging the files named is an act (the rule had
    // no predicate).
    let c = at(&cs, 71).expect("named secrets");
    let f = serde_json::to_string(&c.forbid).unwrap();
    assert!(f.contains("env") && f.contains("p12"), "{c:#?}");
}

#[test]
fn where_an_act_is_started_from_forbids_no_act() {
    let cs = fixture("history-guards");
    // "Never run `git gc` from a cron job or shell startup.": it had
    // forbidden every `git gc`, which no action shows the origin of.
    let c = at(&cs, 73).expect("context");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: gc}")), "{c:#?}");
}

#[test]
fn a_before_lead_in_that_asks_gates_each_listed_act_on_consent() {
    let cs = fixture("approval-lists");
    // "Before running any of these, stop and ask …:" / "1. Force pushing
    // …": each item waits on the user's word (the items had no predicate).
    for (line, act) in [(12, "push"), (13, "branch"), (14, "reset")] {
        let c = at(&cs, line).expect("listed act");
        assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
        assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
        assert!(json(&c.when).contains(act), "{c:#?}");
    }
}

#[test]
fn an_adverbial_opening_leaves_the_instruction_a_rule() {
    let cs = fixture("approval-lists");
    // "By default, run the quick checks such as `git diff --check`." was
    // dropped as no instruction.
    let c = at(&cs, 19).expect("default step");
    assert_eq!(c.require, Some(p("{git: diff, args: [--check]}")), "{c:#?}");
}

#[test]
fn a_script_named_alone_is_the_command_run() {
    let cs = fixture("approval-lists");
    let c = at(&cs, 18).expect("run a script");
    assert_eq!(
        c.require,
        Some(p(r#"{command: "*inventory.sh*"}"#)),
        "{c:#?}"
    );
    // "Run … in order: a.py / b.py / c.py": the names after the colon are
    // not a verb ("collect") of a rule of their own.
    let c = at(&cs, 20).expect("scripts in order");
    let r = serde_json::to_string(&c.require).unwrap();
    assert!(
        r.contains("collect.py") && r.contains("summarize.py") && r.contains("report.py"),
        "{c:#?}"
    );
    // "Use prune-stale.sh on …": using a script is running it.
    let c = at(&cs, 21).expect("use a script");
    assert_eq!(
        c.require,
        Some(p(r#"{command: "*prune-stale.sh*"}"#)),
        "{c:#?}"
    );
}

#[test]
fn a_command_given_with_its_arguments_is_forbidden_whatever_the_manner() {
    let cs = fixture("approval-lists");
    // "never `git add .` or `git add -A` blindly": the commands themselves
    // (it had made them a `when`); `git add .` is the folder, never
    // `git add .env`.
    let c = at(&cs, 26).expect("staging rule");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{any: [{command: "git add ."}, {command: "git add . *"}, {git: add, args: [-A]}]}"#
        )),
        "{c:#?}"
    );
    // "Never stage blind": a manner no action shows, still no forbid.
    let c = at(&cs, 27).expect("manner rule");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn being_called_for_a_purpose_is_no_condition_and_bold_script_steps_run() {
    let cs = fixture("approval-lists");
    // "When called to audit, go through this in order:": being invoked
    // holds from the load — the steps had been left unverifiable.
    let c = at(&cs, 33).expect("first step");
    assert_eq!(c.require, Some(p(r#"{command: "*census.ps1*"}"#)), "{c:#?}");
    // "**Read the history** — use history-digest.ps1 …": the script used
    // is run, not a file read.
    let c = at(&cs, 34).expect("second step");
    assert_eq!(
        c.require,
        Some(p(r#"{command: "*history-digest.ps1*"}"#)),
        "{c:#?}"
    );
    let c = at(&cs, 35).expect("third step");
    assert_eq!(c.require, Some(p(r#"{touch: "**/HANDOFF.md"}"#)), "{c:#?}");
}

#[test]
fn files_to_never_edit_forbids_each_listed_file() {
    let cs = fixture("approval-lists");
    // "**Files to NEVER edit:**" / "- `.npmrc`": the item is the file, the
    // lead-in's verb negated (the items had been dropped as references).
    let c = at(&cs, 40).expect("listed file");
    assert_eq!(c.forbid, Some(p(r#"{touch: "**/.npmrc"}"#)), "{c:#?}");
    // "- Any file matching `.secrets.*`": the pattern is the file.
    let c = at(&cs, 41).expect("listed pattern");
    assert_eq!(c.forbid, Some(p(r#"{touch: "**/.secrets.*"}"#)), "{c:#?}");
}

#[test]
fn git_tools_named_without_git_and_slash_commands_are_acts() {
    let cs = fixture("approval-lists");
    // "Do not use filter-branch …": the tool by its own name (no predicate
    // before).
    let c = at(&cs, 45).expect("filter-branch");
    assert_eq!(c.forbid, Some(p("{git: filter-branch}")), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "`reflog expire --all`": a git-only subcommand with its flags.
    let c = at(&cs, 46).expect("reflog");
    assert_eq!(
        c.forbid,
        Some(p(r#"{command: "git reflog expire --all*"}"#)),
        "{c:#?}"
    );
    // "Run /changelog first": a slash command loads that skill.
    let c = at(&cs, 47).expect("slash command");
    assert_eq!(c.require, Some(p("{skill: changelog}")), "{c:#?}");
    // "/tmp" is a folder, not a command.
    let c = at(&cs, 48).expect("folder");
    assert!(
        !serde_json::to_string(c).unwrap().contains("skill"),
        "{c:#?}"
    );
}

#[test]
fn a_block_under_an_approval_heading_waits_on_the_users_word() {
    let cs = fixture("approval-lists");
    // "### Step 5: If Approved" / "1. Run the git commands:" over `git
    // add`, `git commit -m "handoff: [summary]"`, `git push`: the commit
    // and the push wait on a user turn (the step had no predicate); the
    // message template is no part of the commit.
    let c = at(&cs, 52).expect("approved step");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(
        c.when,
        Some(p(
            r#"{any: [{git: commit}, {command: "git push origin main*"}]}"#
        )),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_step_over_a_block_in_a_situation_no_action_shows_is_a_rule() {
    let cs = fixture("approval-lists");
    // "## After Merging" / "Always verify:" over `npm run lint`: a rule
    // (it was dropped), judged by people.
    let c = at(&cs, 61).expect("step over block");
    assert!(c.behavior().is_none() && c.when.is_none(), "{c:#?}");
}

#[test]
fn how_work_is_cut_into_commits_is_shared_repo_state_and_wording_is_not() {
    let cs = fixture("commit-shape");
    // "Keep commits small", "Do the rename in one commit, …" (a rule now:
    // "Do the …" is the verb, not an auxiliary), "Tag format MUST be …":
    // the shape of the shared history.
    for line in [10, 11, 13] {
        let c = at(&cs, line).expect("history rule");
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
        assert!(c.behavior().is_none(), "{c:#?}");
    }
    // "Separate PRs so …": a rule ("separate" is a verb).
    assert!(at(&cs, 12).is_some(), "{cs:#?}");
    // How a message reads stays unscoped.
    let c = at(&cs, 14).expect("wording");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn environment_files_named_in_words_are_the_dotenv_files() {
    let cs = fixture("approval-lists");
    // "NEVER touch environment files": `.env` and its variants (no
    // predicate, no scope before).
    let c = at(&cs, 68).expect("environment files");
    assert_eq!(
        c.forbid,
        Some(p(r#"{any: [{touch: "**/.env"}, {touch: "**/.env.*"}]}"#)),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
}

#[test]
fn what_the_code_under_review_does_forbids_no_act() {
    let cs = fixture("code-not-acts");
    // "No blocking calls inside `async def` (…, subprocess.run)": the
    // "run" of an identifier made `async def` a program — every such
    // "command" forbidden.
    let c = at(&cs, 8).expect("async rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "We don't use `FakeClient`": a class, not a harness tool.
    let c = at(&cs, 9).expect("class rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "No outbound HTTP calls in tests — every service is mocked": what
    // the tests do; it had forbidden every fetch of the session.
    let c = at(&cs, 10).expect("mocked rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    // A harness tool by name stays a tool.
    let c = at(&cs, 11).expect("tool rule");
    assert_eq!(c.require, Some(p(r#"{tool: "AskUserQuestion"}"#)), "{c:#?}");
}

#[test]
fn see_also_and_related_sections_hold_no_rules() {
    let cs = fixture("code-not-acts");
    // "Stands alone — … not prerequisites: … `git bisect` …": it had
    // forbidden every `git bisect`; the skills listed had been rules.
    assert!(at(&cs, 15).is_none(), "{cs:#?}");
    assert!(at(&cs, 19).is_none(), "{cs:#?}");
}

#[test]
fn working_on_branches_of_ones_own_is_shared_repo_state_being_on_one_is_not() {
    let cs = fixture("commit-shape");
    let c = at(&cs, 15).expect("use topic branches");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    let c = at(&cs, 16).expect("on a topic branch");
    assert!(!c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn deleting_a_skill_waits_on_consent_as_self_modification() {
    let cs = fixture("approval-lists");
    // "Never delete a skill without … explicit confirmation": the deletion
    // (not every edit of a skill) waits on the user's word.
    let c = at(&cs, 69).expect("delete a skill");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    let w = serde_json::to_string(&c.when).unwrap();
    assert!(w.contains("delete") && !w.contains("touch"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
}

#[test]
fn when_not_to_use_items_are_situations_unless_they_instruct() {
    let cs = fixture("code-not-acts");
    // "## When NOT to Use" / "- No changes to commit (empty working
    // tree)": a situation; it had forbidden every commit.
    assert!(at(&cs, 23).is_none(), "{cs:#?}");
    // "**Reviewer wants a quick pass**: Skip the style notes …": the
    // instruction after the label is a rule.
    assert!(at(&cs, 24).is_some(), "{cs:#?}");
}

#[test]
fn never_unless_the_user_instructs_gates_each_listed_command_on_consent() {
    let cs = fixture("approval-lists");
    // "NEVER run these operations unless the user gives explicit,
    // written instruction:" / "- `git reset --hard` - …": a consent gate
    // (each had been forbidden outright).
    for (line, sub) in [(75, "stash"), (76, "clean")] {
        let c = at(&cs, line).expect("listed command");
        assert_eq!(c.forbid, None, "{c:#?}");
        assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
        assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
        assert!(json(&c.when).contains(sub), "{c:#?}");
    }
}

#[test]
fn speech_imperatives_open_rules_without_acts() {
    let cs = fixture("commit-shape");
    // "Communicate when …", "Recommend …": rules (they were dropped), of
    // speech, so with no act.
    for line in [17, 18] {
        let c = at(&cs, line).expect("speech rule");
        assert!(c.behavior().is_none(), "{c:#?}");
    }
}

#[test]
fn a_numbered_triage_step_runs_its_block() {
    let cs = fixture("code-not-acts");
    // "## 3. Triage a failing CI run" over `gh run list …` (dropped before).
    let c = at(&cs, 26).expect("triage step");
    assert_eq!(
        c.require,
        Some(p(r#"{command: "gh run list --branch * --limit 5*"}"#)),
        "{c:#?}"
    );
}

#[test]
fn a_checks_label_and_question_after_a_dash_is_a_rule() {
    let cs = fixture("code-not-acts");
    // "## What to Check" / "- Coupling - what else breaks …?": a check,
    // unverifiable (it was dropped as a question).
    for line in [34, 35] {
        let c = at(&cs, line).expect("check item");
        assert!(c.behavior().is_none() && c.when.is_none(), "{c:#?}");
    }
    // The same shape outside a checks section is a question, no rule.
    assert!(at(&cs, 39).is_none(), "{cs:#?}");
}

#[test]
fn a_version_placeholder_matches_any_version() {
    let cs = fixture("commit-shape");
    // "`gh release view vX.Y.Z`": it had required the literal `vX.Y.Z`,
    // which no session runs.
    let c = at(&cs, 19).expect("release check");
    assert_eq!(
        c.require,
        Some(p(r#"{command: "gh release view*"}"#)),
        "{c:#?}"
    );
}

#[test]
fn under_a_users_request_the_forbidden_act_is_the_trigger() {
    let cs = fixture("approval-lists");
    // "### If the User Asks to Drop Files from History" / "Do not use
    // filter-branch": the request is no act of the session (it had made
    // every file deletion the trigger); filter-branch is, judged by people.
    let c = at(&cs, 80).expect("filter-branch under a request");
    assert_eq!(c.when, Some(p("{git: filter-branch}")), "{c:#?}");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn modifying_code_is_editing_it() {
    let cs = fixture("code-not-acts");
    // "**Don't modify code** - the review is read-only": edits of the
    // code are forbidden (no predicate before: "modify" was not read as
    // "edit" next to "code").
    let c = at(&cs, 43).expect("read-only rule");
    assert!(json(&c.forbid).contains("\"edit\""), "{c:#?}");
}

#[test]
fn ssh_named_as_a_word_is_the_program() {
    let cs = fixture("code-not-acts");
    // "Never run SSH by hand": running `ssh` (no predicate before).
    let c = at(&cs, 44).expect("ssh rule");
    assert!(json(&c.forbid).contains("ssh"), "{c:#?}");
}

#[test]
fn a_block_under_a_timed_act_is_due_around_that_act() {
    let cs = fixture("timed-blocks");
    // "Run before every commit:" over `make check`: the commit is the
    // trigger and the block is due before each one (it had kept the
    // commit and dropped the block).
    let c = at(&cs, 8).expect("before every commit");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert_eq!(c.require, Some(p(r#"{command: "make check*"}"#)), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    // "Before tagging a release, run:": once, before.
    let c = at(&cs, 14).expect("before tagging");
    assert_eq!(c.require, Some(p(r#"{command: "make dist*"}"#)), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "After each change to the code, run:": after each edit.
    let c = at(&cs, 20).expect("after each change");
    assert_eq!(c.require, Some(p(r#"{command: "make fmt*"}"#)), "{c:#?}");
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
    // "**Port setup:** Find a free port …:": the verb after the label.
    let c = at(&cs, 26).expect("labelled step");
    assert!(json(&c.require).contains("free-port.sh"), "{c:#?}");
    // "If the check fails, run:": a failure no predicate names binds nothing.
    let c = at(&cs, 32).expect("failure case");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn growing_and_changing_skills_is_self_modification() {
    let cs = fixture("skill-grower");
    for line in [10, 12, 13] {
        let c = at(&cs, line).expect("skill rule");
        assert!(
            c.scope.contains(&ScopeTag::SelfModification),
            "line {line}: {c:#?}"
        );
        // A skill's shape is no act the gate sees.
        assert_eq!(
            (&c.when, &c.require, &c.forbid),
            (&None, &None, &None),
            "{c:#?}"
        );
    }
    // "Always ask before applying skill changes": the consent gate is on
    // writes to skills, not on every write.
    let c = at(&cs, 11).expect("consent gate");
    assert!(json(&c.when).contains("SKILL.md"), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
    // Wording a lesson is not.
    let c = at(&cs, 14).expect("wording rule");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn a_table_headed_by_what_to_do_gives_a_rule_per_row() {
    let cs = fixture("change-map");
    // "When you change… | Update": each row updates its page where its
    // change happened, which no action shows (it had made no rule): the
    // update is the trigger, judged by people.
    let c = at(&cs, 10).expect("option row");
    assert_eq!(c.when, Some(p(r#"{touch: "docs/options.md"}"#)), "{c:#?}");
    assert_eq!((&c.require, &c.forbid), (&None, &None), "{c:#?}");
    let c = at(&cs, 11).expect("format row");
    assert!(json(&c.when).contains("README.md"), "{c:#?}");
    // "Symptom | Likely cause | Look into": the skill to look into.
    let c = at(&cs, 15).expect("symptom row");
    assert_eq!(c.when, Some(p("{skill: lockfile}")), "{c:#?}");
    // "Command | Purpose" only explains.
    assert!(at(&cs, 19).is_none(), "{:#?}", at(&cs, 19));
}

#[test]
fn a_transformation_of_the_code_is_an_edit() {
    let cs = fixture("timed-blocks");
    // "Run the test suite after each transformation": each edit of the
    // code triggers a test run (no predicate before).
    let c = at(&cs, 40).expect("transformation rule");
    assert!(json(&c.when).contains("\"edit\""), "{c:#?}");
    assert!(json(&c.require).contains("pytest"), "{c:#?}");
}

#[test]
fn pulling_is_an_act_on_shared_repo_state() {
    let cs = fixture("sync-first");
    // `git pull` merges others' commits into the local branch (no scope
    // before); `git status` only reads.
    let c = at(&cs, 8).expect("pull rule");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    let c = at(&cs, 10).expect("status rule");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn staging_by_name_forbids_staging_everything() {
    let cs = fixture("sync-first");
    // "Stage the files you changed by name", "Never blindly add
    // everything": the blanket forms are what a session shows (no
    // predicate before), and they decide what the commit holds.
    for line in [14, 16] {
        let c = at(&cs, line).expect("staging rule");
        assert!(json(&c.forbid).contains("--all"), "line {line}: {c:#?}");
        assert!(
            c.scope.contains(&ScopeTag::SharedRepoState),
            "line {line}: {c:#?}"
        );
    }
    // "Stage all changes before the commit" asks for the blanket form.
    let c = at(&cs, 18).expect("stage all");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn never_acting_on_a_broken_thing_waits_for_it_to_pass() {
    let cs = fixture("sync-first");
    // "Never push broken builds": a build is due before the push (no
    // require before: only "with failing …" was read so).
    let c = at(&cs, 22).expect("broken builds rule");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert!(json(&c.require).contains("build"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn destructive_git_operations_are_named_commands() {
    let cs = fixture("destructive-ask");
    // "Get explicit permission for destructive git operations": a consent
    // gate on the commands that throw work away (no predicate before).
    let c = at(&cs, 8).expect("destructive git rule");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    for cmd in ["reset", "clean", "--force", "-D"] {
        assert!(json(&c.when).contains(cmd), "{cmd}: {c:#?}");
    }
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // Destructive commands elsewhere are not git's.
    let c = at(&cs, 10).expect("database rule");
    assert!(!json(c).contains("git"), "{c:#?}");
}

#[test]
fn prefixes_named_inline_forbid_other_branch_names() {
    let cs = fixture("prefix-inline");
    // "Pick a prefix for the new branch: `feat/`, `fix/`, `chore/`": a
    // branch created under any other name breaks it (it had required a
    // branch creation instead).
    let c = at(&cs, 8).expect("prefix rule");
    assert_eq!(c.require, None, "{c:#?}");
    let f = json(&c.forbid);
    assert!(f.contains("(feat|fix|chore)/"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn attribution_trailers_in_commits_are_forbidden_in_the_command() {
    let cs = fixture("no-trailers");
    // "Do not add `Co-Authored-By` lines to commits": the commit whose
    // message carries one breaks the rule (no predicate before), also when
    // the message spans lines in a here-document.
    let re = r"(?is)^git commit\b.*(co-authored-by|generated (with|by)|\x{1F916}|\bclaude\b)";
    for line in [8, 10] {
        let c = at(&cs, line).expect("attribution rule");
        assert_eq!(c.forbid, Some(Predicate::CommandRe(re.into())), "{c:#?}");
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    }
    let r = regex::Regex::new(re).unwrap();
    assert!(
        r.is_match("git commit -m \"$(cat <<'EOF'\nfix: x\n\nCo-Authored-By: A <a@b>\nEOF\n)\"")
    );
    assert!(!r.is_match("git commit -m \"fix: x (PROJ-12)\""));
    // A rule on the message's own content is not.
    let c = at(&cs, 12).expect("ticket rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "No attribution: commits read as written by a person" (no predicate
    // before stop 49).
    let c = at(&cs, 20).expect("bare attribution rule");
    assert_eq!(c.forbid, Some(Predicate::CommandRe(re.into())), "{c:#?}");
}

#[test]
fn committing_a_secret_file_is_also_sensitive() {
    let cs = fixture("sync-first");
    // "Never commit `.env.local` or `*.pem` files": staging those files is
    // the act (as before), and the files hold secrets (that tag is new).
    let c = at(&cs, 24).expect("secret files rule");
    assert!(json(&c.forbid).contains("pem"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_look_for_secrets_keeps_their_scope_and_access_rights_are_no_consent() {
    let cs = fixture("sync-first");
    // "Check for secrets before staging anything": the sweep guards the
    // secrets (a look-up's scope had been dropped).
    let c = at(&cs, 26).expect("secret sweep");
    assert_eq!(c.scope, vec![ScopeTag::SensitiveMemory], "{c:#?}");
    // "Check the branch permissions before deleting anything": access
    // rights looked at, not the user's permission (it had been a consent
    // gate on every deletion).
    let c = at(&cs, 28).expect("permissions look-up");
    assert_ne!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn publishing_a_package_is_shared_state() {
    let cs = fixture("destructive-ask");
    // "Do not run `npm publish` yourself": a release others install (the
    // forbid had no scope).
    let c = at(&cs, 14).expect("publish rule");
    assert_eq!(c.forbid, Some(p(r#"{command: "npm publish*"}"#)), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_qualified_branch_is_no_forbid_of_every_push() {
    let cs = fixture("others-branches");
    // "Never push to a branch others use": which branches others use is
    // not in the push — judged where a push happened (it had forbidden
    // every push).
    let c = at(&cs, 8).expect("others' branch");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    // "Never rewrite published commits": shared history.
    let c = at(&cs, 10).expect("published commits");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "Never use `git push --force` on main": the code is what is used
    // ("Never use … on …" had read as where the skill is not for).
    let c = at(&cs, 12).expect("force push on main");
    assert!(json(&c.forbid).contains("main"), "{c:#?}");
    // "Shared branches" are the default ones: still forbidden.
    let c = at(&cs, 14).expect("shared branches");
    assert!(c.forbid.is_some(), "{c:#?}");
}

#[test]
fn names_said_to_follow_a_form_are_rules() {
    // "For this repo, branch names follow these forms:" over `docs/<topic>`
    // items: a rule (it was no rule), forbidding other prefixes.
    let cs = fixture("prefix-inline");
    let c = at(&cs, 12).expect("names lead");
    assert!(json(&c.forbid).contains("(docs|ops)/"), "{c:#?}");
    // "Every commit message follows:" over its format: a rule.
    let cs = fixture("no-trailers");
    let c = at(&cs, 14).expect("message format lead");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
}

#[test]
fn landing_guards_name_the_acts_they_guard() {
    let cs = fixture("landing-guards");
    // "Do not merge your own PR": whose PR it is is not in the merge —
    // judged where one happened (it had forbidden every merge).
    let c = at(&cs, 8).expect("own PR");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert!(c.when.is_some(), "{c:#?}");
    // "Do not bypass branch protection": the admin merge (no predicate,
    // no scope before).
    let c = at(&cs, 10).expect("bypass");
    assert_eq!(
        c.forbid,
        Some(p(r#"{command_re: '^gh pr merge\b.*\s--admin\b'}"#)),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "Don't use `--no-verify`": a hook bypass, shared state (no scope before).
    let c = at(&cs, 12).expect("no-verify");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "never create merge commits" beside "Squash-merge PRs": a squash
    // merge is allowed (every merge had been forbidden).
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 14 && c.forbid.is_some())
        .expect("merge commits");
    assert!(json(&c.forbid).contains("--squash"), "{c:#?}");
}

#[test]
fn never_and_an_object_after_a_comma_is_what_the_rule_avoids() {
    let cs = fixture("landing-guards");
    // "Push with `--force-with-lease`, never plain `--force`": plain
    // `--force` is what the rule avoids, never part of what it requires
    // (it had required either).
    let c = at(&cs, 16).expect("lease rule");
    let r = json(&c.require);
    assert!(r.contains("lease"), "{c:#?}");
    assert!(!r.contains(r"\\-\\-force(="), "{c:#?}");
}

#[test]
fn committing_a_value_is_in_the_commits_content() {
    let cs = fixture("sync-first");
    // "Do not commit the rotated value to git": which value a commit holds
    // is its content — scoped, no predicate (it had forbidden every
    // commit).
    let c = at(&cs, 30).expect("value rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
}

#[test]
fn cloud_and_crypto_clis_in_code_are_commands() {
    let cs = fixture("secret-store");
    // `openssl …` and `aws secretsmanager …` are programs (no predicate
    // before); storing into a secret store is sensitive memory.
    let c = at(&cs, 8).expect("openssl rule");
    assert!(json(&c.require).contains("openssl rand"), "{c:#?}");
    let c = at(&cs, 10).expect("store rule");
    assert!(json(&c.require).contains("aws secretsmanager"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
}

#[test]
fn a_fact_with_never_after_a_comma_forbids_nothing_new() {
    let cs = fixture("landing-guards");
    // "Keys are never stored in plain text, never committed to git, …":
    // a statement of fact, not "X, never <object>" — it must not forbid
    // every commit.
    let c = at(&cs, 18).expect("fact");
    assert!(!json(&c.forbid).contains("commit"), "{c:#?}");
    // Nor require one after any write: which thing a commit holds is its
    // content (the passive statement had read as "commit").
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn files_under_a_never_commit_heading_are_kept_out_of_commits() {
    let cs = fixture("never-commit-heading");
    // "## Files never to commit" over `.env.local` / `*.pem`, behind a
    // lead-in that only says the ignore file should cover them: staging
    // each file is forbidden (they were no rules).
    for (line, name) in [(12, "local"), (13, "pem")] {
        let c = at(&cs, line).expect("file item");
        assert!(json(&c.forbid).contains(name), "{c:#?}");
        assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    }
    // A list under another heading is not.
    let c = at(&cs, 17).expect("check item");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn a_map_of_changed_paths_to_tests_requires_the_tests_after_the_change() {
    let cs = fixture("test-map");
    // "Area you changed | Suites to run": a change to the row's path is the
    // trigger, a command naming one of its suites the requirement (no
    // predicate before: the cells hold no verb).
    let c = at(&cs, 12).expect("directory row");
    assert_eq!(c.when, Some(p(r#"{touch: "core/solver/**"}"#)), "{c:#?}");
    assert!(json(&c.require).contains("*unit/solver*"), "{c:#?}");
    assert!(json(&c.require).contains("*integration/solve*"), "{c:#?}");
    // A script's path under "changed" is a file changed, not a script run.
    let c = at(&cs, 13).expect("file row");
    assert_eq!(c.when, Some(p(r#"{touch: "io/reader.py"}"#)), "{c:#?}");
    assert_eq!(
        c.require,
        Some(p(r#"{command: "*unit/reader*"}"#)),
        "{c:#?}"
    );
}

#[test]
fn editing_a_script_is_a_change_to_a_file_and_running_a_target_names_it() {
    let cs = fixture("test-map");
    // "Never edit `tools/codegen.py`" had forbidden running the script.
    let c = at(&cs, 16).expect("edit rule");
    assert_eq!(
        c.forbid,
        Some(p(r#"{touch: "tools/codegen.py"}"#)),
        "{c:#?}"
    );
    // "Then run `integration/smoke`": a command that names the suite.
    let c = at(&cs, 18).expect("run rule");
    assert_eq!(
        c.require,
        Some(p(r#"{command: "*integration/smoke*"}"#)),
        "{c:#?}"
    );
}

#[test]
fn a_list_under_a_forbidding_lead_forbids_each_item() {
    let cs = fixture("forbidden-list");
    // "**Forbidden actions:**" had made no rule of its items; a command
    // followed by "or any command that …" still forbids the command.
    let c = at(&cs, 16).expect("tool item");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert_eq!(c.forbid, Some(p(r#"{read: "keys/prod.pem"}"#)), "{c:#?}");
    // Reading a key file is access to a secret.
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    let c = at(&cs, 17).expect("command item");
    assert!(json(&c.forbid).contains("cat keys/prod.pem"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    let c = at(&cs, 21).expect("prohibited item");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(json(&c.forbid).contains("CLAUDE.md"), "{c:#?}");
}

#[test]
fn using_this_skill_is_no_condition() {
    let cs = fixture("forbidden-list");
    // "When using this skill:" / "While this skill is active, …" had made
    // the rules when-only: the condition holds for the whole session.
    let c = at(&cs, 10).expect("item under the lead");
    assert_eq!(c.when, None, "{c:#?}");
    assert!(json(&c.forbid).contains("keys/*.pem"), "{c:#?}");
    let c = at(&cs, 13).expect("sentence");
    assert_eq!(c.when, None, "{c:#?}");
    assert_eq!(c.forbid, Some(p("{git: push, args: [--force]}")), "{c:#?}");
}

#[test]
fn a_secret_s_name_is_no_secret() {
    let cs = fixture("secret-names");
    // "Read the secret prefix": how a secret is found, not its value (it
    // had required reading `.env` files and tagged the rule).
    let c = at(&cs, 8).expect("prefix rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    assert!(!json(&c.require).contains(".env"), "{c:#?}");
    // Listing a store's secret names reads no value; reading one does.
    let c = at(&cs, 10).expect("list rule");
    assert!(c.scope.is_empty(), "{c:#?}");
    let c = at(&cs, 12).expect("value rule");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
}

#[test]
fn a_numbered_step_heading_runs_its_block() {
    let cs = fixture("step-headings");
    // "### Step 2: Upload the bundle" over alternative commands: one of
    // them is run (the step made no rule: its block changes no shared
    // state).
    let c = at(&cs, 16).expect("upload step");
    let r = json(&c.require);
    assert!(
        r.contains("--env prod") && r.contains("--env staging"),
        "{c:#?}"
    );
    // A bare number over an optional setup stays no rule: which
    // sessions set up is not visible.
    assert!(
        at(&cs, 28).is_none_or(|c| c.require.is_none()),
        "{:#?}",
        at(&cs, 28)
    );
}

#[test]
fn a_limit_without_a_verb_is_a_rule_on_what_is_written() {
    let cs = fixture("pr-body-limits");
    // "65 characters max.", "One checkbox per … step", "Max 3 …": norms on
    // the text (no rule before), with no act to check ("test step" runs no
    // test).
    for line in [9, 13, 14] {
        let c = at(&cs, line).expect("limit rule");
        assert_eq!(c.modality, Modality::Must, "line {line}: {c:#?}");
        assert_eq!(
            (&c.require, &c.forbid),
            (&None, &None),
            "line {line}: {c:#?}"
        );
        assert!(c.scope.is_empty(), "line {line}: {c:#?}");
    }
}

#[test]
fn leading_with_something_is_an_instruction() {
    let cs = fixture("pr-body-limits");
    // "Lead with what changed": an imperative (no rule before).
    let c = at(&cs, 17).expect("lead rule");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
}

#[test]
fn an_act_no_rule_forbids_still_waits_on_the_user_s_word() {
    let cs = fixture("consent-unless");
    // "Do not run the test suite during the review unless explicitly
    // asked": a consent gate on test runs (it had been when-only: a test
    // run is never forbidden outright, and "during" hid the exception).
    let c = at(&cs, 10).expect("test rule");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.when).contains("pytest"), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    let c = at(&cs, 12).expect("bench rule");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn a_form_to_report_in_is_a_rule_on_what_is_said() {
    let cs = fixture("report-forms");
    // "Each finding follows this format:" and "Report back:" over a
    // template: what is written takes that form (no rule before); no act
    // to check.
    for line in [8, 14] {
        let c = at(&cs, line).expect("form rule");
        assert_eq!(c.modality, Modality::Must, "line {line}: {c:#?}");
        assert_eq!(
            (&c.require, &c.forbid),
            (&None, &None),
            "line {line}: {c:#?}"
        );
        assert!(c.scope.is_empty(), "line {line}: {c:#?}");
    }
    // "Jump to …": an imperative.
    assert!(at(&cs, 20).is_some());
}

#[test]
fn a_state_in_the_passive_is_the_act_that_makes_it() {
    let cs = fixture("passive-states");
    // "only after its worktree is removed": the removal is due before the
    // deletion (the rule had been when-only).
    let c = at(&cs, 8).expect("delete rule");
    assert!(json(&c.when).contains("--delete"), "{c:#?}");
    assert!(json(&c.require).contains("git worktree remove"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "only after the tests have passed": a passing test run first.
    let c = at(&cs, 12).expect("push rule");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert!(json(&c.require).contains("pytest"), "{c:#?}");
    assert!(json(&c.require).contains("failed"), "{c:#?}");
}

#[test]
fn a_file_tool_s_purpose_is_the_act() {
    let cs = fixture("file-tool-purpose");
    // "Use the Edit tool to update `CONVENTIONS.md`": the update is the
    // act (the means had made it require nothing).
    let c = at(&cs, 8).expect("update rule");
    assert!(json(&c.require).contains("CONVENTIONS.md"), "{c:#?}");
    // "Use `rg` to find …" still only chooses a means.
    let c = at(&cs, 10).expect("search rule");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn a_forbidden_order_is_the_order_required() {
    let cs = fixture("order-and-remedy");
    // "Do not commit first and update the changelog after" had forbidden
    // every commit: the changelog is due before the commit.
    let c = at(&cs, 8).expect("order rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert!(json(&c.require).contains("CHANGELOG"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn a_conditional_lead_in_governs_its_list_before_the_heading() {
    let cs = fixture("order-and-remedy");
    // Files under the "never commit" heading stay out of commits …
    let c = at(&cs, 14).expect("file item");
    let f = json(&c.forbid);
    assert!(
        f.contains("git (add|commit)") && f.contains("local"),
        "{c:#?}"
    );
    // … but a remedy under "If a key was committed by mistake:" is a step
    // to take (it had forbidden `git filter-repo`).
    let c = at(&cs, 19).expect("remedy step");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn what_a_change_puts_in_qualifies_the_file_act() {
    let cs = fixture("content-qualifiers");
    // "… with secrets", "… to add packages": whether the edit held them is
    // not in the act; no ban on every edit of the file (one had been).
    for line in [8, 12] {
        let c = at(&cs, line).expect("qualified rule");
        assert_eq!(c.forbid, None, "line {line}: {c:#?}");
    }
    // A file named alone still is.
    let c = at(&cs, 14).expect("plain rule");
    assert_eq!(
        c.forbid,
        Some(p(r#"{touch: "generated/schema.ts"}"#)),
        "{c:#?}"
    );
}

#[test]
fn a_count_over_the_work_qualifies_the_act() {
    let cs = fixture("content-qualifiers");
    // "Implement the demo in 4+ languages", "more than 3 variants": a count,
    // not one act (the first had forbidden writing any code).
    for line in [17, 18] {
        let c = at(&cs, line).expect("counted rule");
        assert_eq!(c.forbid, None, "line {line}: {c:#?}");
    }
}

#[test]
fn a_table_from_goal_to_tool_or_place_gives_a_rule_per_row() {
    let cs = fixture("goal-tables");
    // "Goal | Tool", "Test type | Location": which tool, which file, per
    // situation (no rule before); none of it is visible as a trigger.
    for line in [10, 11, 15] {
        let c = at(&cs, line).expect("row rule");
        assert_eq!(c.modality, Modality::Must, "line {line}: {c:#?}");
        assert_eq!(
            (&c.require, &c.forbid),
            (&None, &None),
            "line {line}: {c:#?}"
        );
    }
    // "Tool | Purpose" only explains.
    assert!(at(&cs, 19).is_none(), "{:#?}", at(&cs, 19));
}

#[test]
fn only_limits_an_act_and_never_demands_it() {
    let cs = fixture("only-limits");
    // "Only amend your own commits", "Only push to feature branches": had
    // required an amend or a push after any write.
    for line in [8, 10] {
        let c = at(&cs, line).expect("only rule");
        assert_eq!(c.require, None, "line {line}: {c:#?}");
        assert!(c.when.is_some(), "line {line}: {c:#?}");
    }
    // A pipeline is no one command (it had forbidden every `gh secret
    // set`), and what the program does "silently" gates nothing (it had
    // been a consent gate).
    let c = at(&cs, 12).expect("pipe rule");
    assert_eq!((&c.require, &c.forbid), (&None, &None), "{c:#?}");
    // A plain ban stays one.
    assert!(at(&cs, 14).expect("push rule").forbid.is_some());
}

#[test]
fn a_verb_of_effect_after_the_first_word_makes_a_statement() {
    let cs = fixture("only-limits");
    // "Squash keeps `git log` … readable" says what squashing does; it had
    // required a `git log` after any write.
    assert!(
        at(&cs, 16).is_none_or(|c| c.require.is_none()),
        "{:#?}",
        at(&cs, 16)
    );
}

#[test]
fn the_file_things_go_into_or_come_out_of_is_the_one_changed() {
    let cs = fixture("file-containers");
    // "delete it from PLANS.md" edits the file (it had required deleting
    // it); "Add `dist/` and `*.log` to `.gitignore`" changes `.gitignore`
    // (it had required writing `dist/` and `*.log`).
    let c = at(&cs, 8).expect("delete-from rule");
    assert_eq!(c.require, Some(p(r#"{touch: "**/PLANS.md"}"#)), "{c:#?}");
    let c = at(&cs, 10).expect("add-to rule");
    assert_eq!(c.require, Some(p(r#"{touch: "**/.gitignore"}"#)), "{c:#?}");
    // Writing to a file still writes it.
    let c = at(&cs, 12).expect("write rule");
    assert_eq!(
        c.require,
        Some(p(r#"{write: "notes/summary.md"}"#)),
        "{c:#?}"
    );
    // "every time you touch `TODO.md`" is the rule's trigger.
    let c = at(&cs, 14).expect("every-time rule");
    assert_eq!(c.when, Some(p(r#"{touch: "**/TODO.md"}"#)), "{c:#?}");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn an_act_named_as_a_noun_that_needs_approval_is_a_consent_gate() {
    let cs = fixture("consent-unless");
    // "Force pushes need explicit user confirmation": a consent gate on
    // each force push (no rule before).
    let c = at(&cs, 16).expect("force-push rule");
    assert_eq!(c.when, Some(p("{git: push, args: [--force]}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    let c = at(&cs, 14).expect("merge rule");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn returning_to_main_is_a_checkout_of_it() {
    let cs = fixture("back-to-main");
    // "return to `main` after merging": a checkout of main after the merge
    // (no requirement before; the branch named is the checkout's target,
    // not the branch the session must be on).
    let c = at(&cs, 8).expect("return rule");
    let r = json(&c.require);
    assert!(
        r.contains("checkout|switch") && r.contains("main"),
        "{c:#?}"
    );
    assert!(!r.contains("\"branch\""), "{c:#?}");
    // "Run validation": the project's checks.
    let c = at(&cs, 10).expect("validation rule");
    assert!(json(&c.require).contains("lint"), "{c:#?}");
}

#[test]
fn a_branch_named_in_code_before_branch_reads_as_a_word() {
    let cs = fixture("back-to-main");
    // "Check out the `release` branch": the code span had cut the phrase,
    // leaving no predicate and no scope.
    let c = at(&cs, 14).expect("checkout rule");
    assert!(json(&c.require).contains("checkout"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_trouble_with_an_act_is_no_trigger_for_its_remedy() {
    let cs = fixture("trouble-table");
    // "Rebase going wrong | `git rebase --abort`" had required an abort
    // after every rebase: whether it went wrong is not in the act.
    for line in [10, 11] {
        let c = at(&cs, line).expect("remedy row");
        assert_eq!(c.require, None, "line {line}: {c:#?}");
    }
    // A plain situation that an act shows still triggers its row.
    let c = at(&cs, 12).expect("merge row");
    assert!(json(&c.require).contains("npm test"), "{c:#?}");
}

#[test]
fn what_a_lead_in_mocks_is_never_done() {
    let cs = fixture("mock-lead");
    // "Mock the outside world …:" / "- HTTP requests": the items are what
    // is mocked (the first had required a web fetch, the second a push).
    for line in [9, 10] {
        let c = at(&cs, line).expect("mocked item");
        assert_eq!(
            (&c.when, &c.require, &c.forbid),
            (&None, &None, &None),
            "line {line}: {c:#?}"
        );
        assert!(c.scope.is_empty(), "line {line}: {c:#?}");
    }
    assert!(json(&at(&cs, 12).expect("run rule").require).contains("pytest -q"));
}

#[test]
fn what_is_skipped_is_not_required() {
    let cs = fixture("trouble-table");
    // "Skip immediately - one flaky test undermines the entire suite" had
    // required a run of the suite it names.
    let c = at(&cs, 15).expect("skip rule");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn some_deletion_or_download_of_nothing_named_is_no_requirement() {
    let cs = fixture("generic-acts");
    // "Remove files explicitly and safely", "… with elevated network
    // access" had required some deletion or some download from the skill
    // load: how the act is done is the rule, the act its trigger.
    for line in [8, 10] {
        let c = at(&cs, line).expect("generic rule");
        assert_eq!(c.require, None, "line {line}: {c:#?}");
    }
    // A named file is still due.
    let c = at(&cs, 12).expect("named rule");
    assert_eq!(
        c.require,
        Some(p(r#"{delete: "tmp/migration.lock"}"#)),
        "{c:#?}"
    );
}

#[test]
fn a_kind_of_change_that_requires_a_step_is_its_condition() {
    let cs = fixture("generic-acts");
    // "Schema changes require `make migrate-check`" had required the check
    // of every session: only sessions with schema changes owe it, which
    // no act shows.
    let c = at(&cs, 15).expect("change rule");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn a_kind_of_change_leading_a_rule_is_its_condition() {
    let cs = fixture("generic-acts");
    // "For pure docs changes, run …" had required the run of every
    // session: "For <kind> changes" was dropped as a mere context.
    let c = at(&cs, 17).expect("docs rule");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn what_a_lead_in_permits_is_never_required() {
    let cs = fixture("mock-lead");
    // "You may do these without asking:" / "- Restart … (`make restart`)"
    // had required the restart of every session.
    let c = at(&cs, 15).expect("permitted item");
    assert_eq!(c.require, None, "{c:#?}");
}

#[test]
fn a_look_up_step_runs_its_block() {
    let cs = fixture("port-picks");
    // "Locate the fix's commits:" over `gh pr view …` had no predicate:
    // locating is a step whose block is what it runs.
    let c = at(&cs, 8).expect("locate step");
    assert!(json(&c.require).contains("gh pr view"), "{c:#?}");
}

#[test]
fn a_command_after_a_sequence_word_is_a_step() {
    let cs = fixture("port-picks");
    // "Otherwise `git cherry-pick …`" and "Then `git push origin HEAD`"
    // were not rules at all: a sequence word and a command is a step.
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 12 && c.text.starts_with("Otherwise"))
        .expect("otherwise step");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    let c = at(&cs, 13).expect("then step");
    assert!(json(&c.require).contains("git push"), "{c:#?}");
}

#[test]
fn making_commits_is_committing() {
    let cs = fixture("port-picks");
    // "Do not create any commits" had no predicate and no scope.
    let c = at(&cs, 14).expect("commit rule");
    assert_eq!(c.forbid, Some(p("{git: commit}")), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_co_author_trailer_belongs_to_a_commit() {
    let cs = fixture("port-picks");
    // "Never add `Co-Authored-By: Claude` lines" names no commit; the
    // trailer only exists in one.
    let c = at(&cs, 15).expect("trailer rule");
    assert!(json(&c.forbid).contains("git commit"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn a_name_the_text_calls_a_file_is_a_path() {
    let cs = fixture("port-picks");
    // "Delete the `port.scratch` file" had no predicate: the extension is
    // unknown, but the text says it is a file.
    let c = at(&cs, 16).expect("delete rule");
    assert_eq!(
        c.require,
        Some(p(r#"{delete: "**/port.scratch"}"#)),
        "{c:#?}"
    );
}

#[test]
fn a_kind_of_file_or_a_manner_forbids_no_write() {
    let cs = fixture("file-kinds");
    // "Do not write files manually" and "Never edit lock files" had
    // forbidden every write: the manner and the kind are not in the act.
    for line in [8, 9] {
        let c = at(&cs, line).expect("file rule");
        trigger_only(c, line);
    }
    // A commit of the draft files is some commits: the commit is the
    // trigger (it had forbidden every commit).
    let c = at(&cs, 11).expect("commit rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
}

#[test]
fn pasting_a_secret_is_not_reading_one() {
    let cs = fixture("file-kinds");
    // "Never paste a token into a file" had forbidden reading `.env` and
    // every key file: what a file gets is in its content.
    let c = at(&cs, 10).expect("paste rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SensitiveMemory], "{c:#?}");
}

#[test]
fn the_unit_and_target_of_a_pull_request_are_shared_state() {
    let cs = fixture("pr-units");
    // "Keep each guide PR focused", "one chapter per PR", "the PR must
    // target `develop`" had no scope: they shape what is proposed to the
    // shared history (no one action shows it: no predicate).
    for line in [8, 9, 10] {
        let c = at(&cs, line).expect("pr rule");
        assert_eq!(
            c.scope,
            vec![ScopeTag::SharedRepoState],
            "line {line}: {c:#?}"
        );
        assert_eq!(
            (&c.require, &c.forbid),
            (&None, &None),
            "line {line}: {c:#?}"
        );
    }
    // Handing the link over is speech.
    let c = at(&cs, 11).expect("link rule");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn a_consent_aside_gates_its_act_or_its_flag() {
    let cs = fixture("consent-asides");
    // "(use `--force` only with approval)" had joined the step's require;
    // "(only with the user's approval)" and "(ask first)" left no
    // predicate, and made every later step wait on the user.
    let flag = cs
        .iter()
        .find(|c| c.text.starts_with("use `--force`"))
        .expect("flag gate");
    assert_eq!(flag.require, Some(Predicate::UserTurn), "{flag:#?}");
    assert!(json(&flag.when).contains("force"), "{flag:#?}");
    assert_eq!(flag.order, Some(Order::BeforeEach), "{flag:#?}");
    let step = at(&cs, 8).expect("remove step");
    assert!(!json(&step.require).contains("force"), "{step:#?}");
    for (line, act) in [(9, "git branch -D"), (10, "push")] {
        let c = at(&cs, line).expect("gated step");
        assert_eq!(c.require, Some(Predicate::UserTurn), "line {line}: {c:#?}");
        assert!(json(&c.when).contains(act), "line {line}: {c:#?}");
    }
    // The step after them is due as usual.
    assert!(at(&cs, 11).expect("lint step").require.is_some());
}

#[test]
fn on_approval_over_a_block_gates_its_commands() {
    let cs = fixture("consent-asides");
    // "On approval:" over `git commit` / `git push` had made no rule.
    let c = at(&cs, 15).expect("approval lead");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.when).contains("push"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
}

#[test]
fn the_states_under_a_verification_heading_are_rules() {
    let cs = fixture("verification-states");
    // The items of "## Verification" were no rules at all: each is a state
    // the work must leave, judged by people (no act shows it).
    for line in [13, 14, 15] {
        let c = at(&cs, line).expect("verification state");
        assert_eq!(
            (&c.when, &c.require, &c.forbid),
            (&None, &None, &None),
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn steps_before_the_scenarios_are_not_a_scenario() {
    let cs = fixture("before-scenarios");
    // Under "Quick Checks Before Full Scenarios" every step was dropped as
    // an option of a pressure scenario: the scenarios are what the steps
    // come before.
    for line in [10, 11] {
        assert!(at(&cs, line).is_some(), "line {line}: {cs:#?}");
    }
    // A scenario's options are still no rules.
    assert!(at(&cs, 15).is_none(), "{cs:#?}");
}

#[test]
fn a_remark_is_no_rule_unless_it_notes_one() {
    let cs = fixture("remarks");
    // "Note: the cache is flushed …", "Note that reruns are cheap" were
    // rules (the verb "note" read as an act).
    for line in [8, 10] {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
    // A rule after the remark, or a remark that is a rule, stays.
    for line in [12, 14] {
        assert!(at(&cs, line).is_some(), "line {line}: {cs:#?}");
    }
}

#[test]
fn a_criteria_label_heads_a_rule() {
    let cs = fixture("remarks");
    // "**Success criteria:** the nightly build stays green …" was no rule:
    // the label says what follows is one (a state, judged by people).
    let c = at(&cs, 16).expect("criterion");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
}

#[test]
fn an_instruction_over_a_block_that_shows_how_is_a_rule() {
    let cs = fixture("shown-forms");
    // "**Use shared anchors:**" over a markdown example was dropped: a
    // lead-in with no list, whose block is its example.
    let c = at(&cs, 8).expect("shown rule");
    assert_eq!((&c.require, &c.forbid), (&None, &None), "{c:#?}");
    // A one-word label over a block names it, no rule.
    assert!(at(&cs, 13).is_none(), "{cs:#?}");
}

#[test]
fn a_verification_step_checks_the_step_before_it() {
    let cs = fixture("release-verify");
    // "2. Verify the release page with `gh release view …`" after "1.
    // Create the release" had been due before the next step's push: a
    // verification checks what the step before it did.
    let c = at(&cs, 9).expect("verify step");
    assert!(json(&c.when).contains("gh release create"), "{c:#?}");
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
    assert!(json(&c.require).contains("gh release view"), "{c:#?}");
}

#[test]
fn confirming_with_a_command_is_a_check_not_speech() {
    let cs = fixture("release-verify");
    // "Confirm the tag reached the remote: `git ls-remote …`" was speech
    // ("confirm" as in telling the user): the command makes the check.
    let c = at(&cs, 11).expect("confirm step");
    assert!(json(&c.require).contains("git ls-remote"), "{c:#?}");
    assert!(json(&c.when).contains("git push"), "{c:#?}");
}

#[test]
fn less_common_imperatives_open_rules() {
    let cs = fixture("port-picks");
    // "Mirror the original fix's title." was no rule: "mirror" was not
    // known as a verb (nor glance, mask, retire, chase, drain, sweep,
    // redeploy, cherry-pick).
    assert!(at(&cs, 17).is_some(), "{cs:#?}");
}

#[test]
fn a_consent_aside_turns_a_prohibition_into_a_gate() {
    let cs = fixture("consent-asides");
    // "Never force-push … (only with the user's approval)" had forbidden
    // every force-push: the aside allows it once the user agrees.
    let c = at(&cs, 26).expect("gated prohibition");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.when).contains("--force"), "{c:#?}");
}

#[test]
fn asking_first_after_a_prohibition_gates_it() {
    let cs = fixture("consent-asides");
    // "Never rewrite the shared history; if necessary, ask first." had
    // forbidden every rebase, amend and force-push: the closing clause
    // allows them once the user agrees.
    let c = at(&cs, 27).expect("gated prohibition");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.when).contains("rebase"), "{c:#?}");
}

#[test]
fn the_users_word_in_other_phrasings_gates_the_act() {
    let cs = fixture("consent-asides");
    // "…; check with the user first" had forbidden every rebase; "until
    // the user has reviewed the notes" had required a `git diff` of the
    // agent's own before each tag.
    for line in [28, 29] {
        let c = at(&cs, line).expect("gated rule");
        assert_eq!(c.forbid, None, "line {line}: {c:#?}");
        assert_eq!(c.require, Some(Predicate::UserTurn), "line {line}: {c:#?}");
    }
}

#[test]
fn pushed_commits_are_some_commits() {
    let cs = fixture("consent-asides");
    // "Never amend pushed commits" had forbidden every amend.
    let c = at(&cs, 30).expect("amend rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert!(json(&c.when).contains("amend"), "{c:#?}");
}

#[test]
fn a_global_install_is_some_installs() {
    let cs = fixture("file-kinds");
    // "Never install packages globally" had forbidden every install.
    let c = at(&cs, 12).expect("install rule");
    trigger_only(c, c.lines[0]);
}

#[test]
fn a_qualified_object_keeps_the_act_as_its_trigger() {
    let cs = fixture("qualified-objects");
    // Each had forbidden every commit, push, PR, write, test run or version
    // bump: the object is some of them (a kind of branch, experimental or
    // draft work, files outside the workspace, a kind of change, the major
    // version, a detached HEAD), which the act does not show.
    for line in [9, 10, 11, 12, 13, 19, 20] {
        let c = at(&cs, line).expect("qualified rule");
        trigger_only(c, line);
    }
    // A directory named by itself is staged by name: only that commit.
    let c = at(&cs, 8).expect("directory rule");
    assert!(json(&c.forbid).contains("vendor_cache"), "{c:#?}");
    // A verb before "branches" and an exception are no kind.
    for line in [14, 15] {
        let c = at(&cs, line).expect("plain rule");
        assert!(c.forbid.is_some(), "line {line}: {c:#?}");
    }
}

#[test]
fn deleting_a_tag_is_not_making_one() {
    let cs = fixture("qualified-objects");
    // "Never delete release tags" had forbidden every `git tag`, creating
    // one included.
    let c = at(&cs, 16).expect("tag rule");
    let f = json(&c.forbid);
    assert!(f.contains("git tag -d"), "{c:#?}");
    assert_ne!(c.forbid, Some(p("{git: tag}")), "{c:#?}");
}

#[test]
fn telling_the_user_is_no_consent_and_a_relative_clause_qualifies() {
    let cs = fixture("qualified-objects");
    // "Do not edit `AGENTS.md` without telling the user" had been a consent
    // gate (a user turn before each edit): the agent speaks, no answer is
    // asked for.
    let c = at(&cs, 17).expect("telling rule");
    assert_eq!(c.require, None, "{c:#?}");
    assert!(json(&c.when).contains("AGENTS.md"), "{c:#?}");
    // "Never modify skills you did not create" had forbidden touching every
    // skill: the relative clause picks some.
    let c = at(&cs, 18).expect("skills rule");
    trigger_only(c, c.lines[0]);
}

#[test]
fn acts_on_pull_request_and_issue_records_are_shared_state() {
    let cs = fixture("pr-records");
    // Approving, reopening, closing and commenting had no predicate and
    // no scope: each is a record on the shared host, its own command.
    for (line, cmd) in [
        (8, "gh pr review"),
        (9, "gh pr reopen"),
        (10, "gh issue close"),
        (11, "gh pr comment"),
    ] {
        let c = at(&cs, line).expect("record rule");
        assert!(json(&c.forbid).contains(cmd), "line {line}: {c:#?}");
        assert_eq!(
            c.scope,
            vec![ScopeTag::SharedRepoState],
            "line {line}: {c:#?}"
        );
    }
    // Reading the comments or closely reviewing posts nothing.
    for line in [12, 13] {
        let c = at(&cs, line).expect("reading rule");
        assert!(!json(&c.require).contains("gh pr"), "line {line}: {c:#?}");
    }
    // "with a dirty tree", "from stale bases" pick some checkouts.
    for line in [14, 15] {
        let c = at(&cs, line).expect("qualified rule");
        assert_eq!(c.forbid, None, "line {line}: {c:#?}");
    }
}

#[test]
fn a_table_from_goal_to_command_looks_up_and_rules_nothing() {
    let cs = fixture("lookup-tables");
    // "Goal | Command" and "Task | Command" say what each command is for:
    // a cheat sheet, not a rule to rebase, force-push or delete branches.
    for line in [12, 13, 14, 18] {
        assert!(at(&cs, line).is_none(), "line {line}: {:#?}", at(&cs, line));
    }
    // A situation column still makes the row a rule under its condition,
    // and a numbered stage is a step of the procedure.
    let c = at(&cs, 24).expect("situation row");
    assert!(json(&c.require).contains("--abort"), "{c:#?}");
    assert!(at(&cs, 30).is_some(), "stage row");
}

#[test]
fn a_consent_before_continuing_gates_the_acts_the_next_steps_run() {
    let cs = fixture("proceed-gates");
    // "Get the maintainer's approval before continuing:" had read "never
    // continue without approval" (a must-not with no act); "Ask for
    // confirmation before proceeding." waited before the work's edits.
    // Both gate the commands of the steps after them, listed inline.
    let c = at(&cs, 14).expect("approval gate");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("twine upload"), "{c:#?}");
    assert!(
        !json(&c.when).contains("git"),
        "up to the next gate: {c:#?}"
    );
    let c = at(&cs, 26).expect("confirmation gate");
    assert!(json(&c.when).contains("\"push\""), "{c:#?}");
    assert!(!json(&c.when).contains("write"), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // "Explain what changed and ask before continuing": the question is
    // the second verb's.
    let c = at(&cs, 38).expect("explain and ask");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("gh release create"), "{c:#?}");
}

#[test]
fn a_step_over_an_mcp_tool_call_requires_that_tool() {
    let cs = fixture("mcp-steps");
    // A block naming `mcp__server__tool` and its arguments is a call of
    // that tool, not prose: the step over it requires the call.
    let c = at(&cs, 8).expect("read step");
    assert_eq!(
        c.require,
        Some(p("{tool: mcp__forge__list_reviews}")),
        "{c:#?}"
    );
    let c = at(&cs, 14).expect("land step");
    assert!(
        json(&c.require).contains("mcp__forge__merge_pull_request"),
        "{c:#?}"
    );
    // Merging through a hosting server's tool is an act on shared state
    // (the lexicon's scope `tools`), as `gh pr merge` is.
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn steps_of_a_procedure_come_before_its_next_scoped_act() {
    let cs = fixture("steps-before-acts");
    // "1. Run `make lint`", "2. Run `make test`" had been required from the
    // skill's load: a session that stopped before merging broke them. As
    // steps they are due before the merge step 3 names, and a rule that
    // orders a scoped act carries its scope (SPEC §4: "requires, forbids,
    // gates or orders"; the build before stop 45 tagged only look-ups).
    for line in [8, 9] {
        let c = at(&cs, line).expect("step");
        assert!(json(&c.when).contains("gh pr merge"), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
        assert_eq!(
            c.scope,
            vec![ScopeTag::SharedRepoState],
            "line {line}: {c:#?}"
        );
    }
    // A step of a later section that follows the act is no step before it.
    let c = at(&cs, 14).expect("afterwards");
    assert!(no_trigger_of_its_own(c), "{c:#?}");
}

#[test]
fn cases_and_states_of_a_landing_procedure_require_nothing_from_the_load() {
    let cs = fixture("landing-cases");
    // "The branch must have an open PR": a state, not the act of opening
    // one (no `gh pr create` due in every session).
    let c = at(&cs, 10).expect("state rule");
    assert!(!json(&c.require).contains("gh pr create"), "{c:#?}");
    // "### 2. Rebase if stale": a step taken in a case of its own —
    // scoped, but no rebase is due; nor is it the act step 1 comes before.
    let c = at(&cs, 18).expect("case step");
    assert_eq!((&c.require, &c.when), (&None, &None), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    let c = at(&cs, 16).expect("lint step");
    assert_eq!(c.when, Some(p("{command: 'gh pr merge*'}")), "{c:#?}");
    // "Usual causes:" lists why it failed, not what to do; the lead-in's
    // own sentence stays a rule.
    assert!(at(&cs, 33).is_none() && at(&cs, 34).is_none(), "{cs:#?}");
    assert!(at(&cs, 32).is_some(), "lead-in rule");
    // "Push (only if requested):" over its block: each push waits on the
    // user's word.
    let c = at(&cs, 38).expect("consent step");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    // "If the branch is already merged": a state reached perhaps before
    // the session, not its merge — no branch deletion due after every merge.
    let c = at(&cs, 46).expect("cleanup rule");
    assert_eq!((&c.when, &c.require), (&None, &None), "{c:#?}");
}

#[test]
fn confirming_an_act_is_ok_is_asking_the_user_for_it() {
    let cs = fixture("ok-cells");
    // "Confirm force-push is OK first" in a Fix cell, and "Confirm that
    // deleting the branch is fine": the user's word before each such act.
    for (line, act) in [(10, "--force"), (12, "--delete")] {
        let c = at(&cs, line).expect("consent rule");
        assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
        assert!(json(&c.when).contains(act), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    }
    // "Confirm the output is fine" names no act: no gate, no prohibition.
    let c = at(&cs, 14).expect("check rule");
    assert_eq!(
        (&c.when, &c.require, c.modality),
        (&None, &None, Modality::Must),
        "{c:#?}"
    );
}

#[test]
fn the_opening_line_restating_the_description_is_no_step() {
    let cs = fixture("purpose-line");
    // "Safely merge a pull request once the required checks pass." under
    // the title restates what the skill is for: a merge was due from the
    // load in every session, even one that stopped at a question.
    let c = at(&cs, 8).expect("purpose line");
    assert_eq!((&c.when, &c.require), (&None, &None), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // The procedure's own merge step still requires the merge.
    let c = at(&cs, 13).expect("merge step");
    assert!(json(&c.require).contains("gh pr merge"), "{c:#?}");
}

#[test]
fn a_block_marked_not_to_run_forbids_its_acts() {
    let cs = fixture("hand-off");
    // "(DO NOT RUN IT)" over `cd … && git push …`: the push is forbidden,
    // not the `cd` the skill asks for elsewhere.
    let c = at(&cs, 10).expect("hand-off block");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(json(&c.forbid).contains("git push"), "{c:#?}");
    assert!(!json(&c.forbid).contains("cd "), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // "Do not run this:" over a block of unscoped commands forbids them.
    let c = at(&cs, 16).expect("do-not-run block");
    assert!(json(&c.forbid).contains("make clean-all"), "{c:#?}");
    // Nor is the barred push the act the section's steps come before.
    let c = at(&cs, 8).expect("cd step");
    assert!(no_trigger_of_its_own(c), "{c:#?}");
    // "No `--amend`." is about the flag, not the heading it sits under;
    // every flag of a "no …" list is barred.
    let c = at(&cs, 24).expect("flag rule");
    assert!(json(&c.forbid).contains("amend"), "{c:#?}");
    let c = at(&cs, 26).expect("list rule");
    assert!(json(&c.forbid).contains("verify"), "{c:#?}");
    assert!(json(&c.forbid).contains("--force"), "{c:#?}");
}

#[test]
fn items_headed_by_cases_hold_only_in_their_case() {
    let cs = fixture("case-lists");
    // "**Missing**: `git worktree add …`" beside "**Existing** (the folder
    // is there): …": which case applies is not visible — the worktree was
    // due in every session, even one that reused the folder. Its act is
    // the trigger now; the ordered pair of the other case stays.
    let c = at(&cs, 9).expect("missing case");
    assert_eq!(c.require, None, "{c:#?}");
    assert!(json(&c.when).contains("git worktree add"), "{c:#?}");
    let c = at(&cs, 8).expect("existing case");
    assert_eq!(c.require, Some(p("{git: status}")), "{c:#?}");
    // "**Rust client**" / "**Go client**": kinds of one thing, each fetch
    // only for its kind.
    for line in [14, 15] {
        assert_eq!(at(&cs, line).expect("kind").require, None, "line {line}");
    }
    // Principles under bold names are rules each.
    let c = at(&cs, 19).expect("principle");
    assert!(json(&c.require).contains("make test"), "{c:#?}");
}

#[test]
fn content_purposes_and_placements_are_not_acts() {
    let cs = fixture("content-not-acts");
    // "You delegate each rotation to a subagent …" opens the skill: how the method
    // goes, not an instruction with a subagent to require.
    let c = at(&cs, 8).expect("overview");
    assert_eq!((&c.require, &c.when), (&None, &None), "{c:#?}");
    // What is written ("API tokens") is the rule, not every write; what a
    // hook is used for is not the agent's fetch; where advice is "pasted"
    // is not an edit of CLAUDE.md.
    for line in [12, 13, 14] {
        let c = at(&cs, line).expect("rule");
        assert_eq!(c.forbid, None, "line {line}: {c:#?}");
    }
    // (Still a rule about secrets: it fails closed where a session
    // touched them.)
    assert_eq!(at(&cs, 12).unwrap().scope, vec![ScopeTag::SensitiveMemory]);
    // "staging validation" is an environment, not git's index: no forbid
    // of `git add -A`.
    assert!(
        cs.iter().all(|c| !json(&c.forbid).contains("git add")),
        "{cs:#?}"
    );
}

#[test]
fn a_skill_for_the_agents_instruction_file_scopes_only_its_writes() {
    let cs = fixture("instruction-file-topic");
    // "Reviews and trims AGENTS.md project memory files": the memory is
    // the agent's instruction file, so the writes of rules that name no
    // other file are self-modification — and nothing is a secret.
    let c = at(&cs, 10).expect("consent rule");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    assert!(
        cs.iter()
            .all(|c| !c.scope.contains(&ScopeTag::SensitiveMemory)),
        "{cs:#?}"
    );
    // "Merge duplicated advice into one bullet" folds text: no git merge,
    // no scope.
    let c = at(&cs, 9).expect("merge step");
    assert_eq!((&c.require, &c.when), (&None, &None), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn what_a_rule_prevents_is_not_its_act() {
    // "… to avoid creating links to unrelated issues on GitHub": no issue
    // to create, no scope — the rule is about the body's wording.
    let cs = fixture("purpose-clause");
    let c = at(&cs, 8).expect("purpose rule");
    assert_eq!((&c.require, &c.when), (&None, &None), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn a_preparing_step_comes_before_the_dispatch_its_section_requires() {
    let cs = fixture("prepare-then-dispatch");
    // "**1. Note the range:**" / `git rev-parse …` before "**2. Send it
    // out:**" / "Dispatch a `general-purpose` subagent": the look is due
    // before the dispatch, not from the skill's load (a session that
    // stopped before dispatching owes no range).
    let c = at(&cs, 10).expect("preparing step");
    assert_eq!(c.when, Some(p("{subagent: general-purpose}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // The dispatch itself is not made to wait on a dispatch.
    let c = at(&cs, 18).expect("dispatch");
    assert!(no_trigger_of_its_own(c), "{c:#?}");
    assert_eq!(c.require, Some(p("{subagent: general-purpose}")), "{c:#?}");
}

#[test]
fn steps_of_a_skill_used_around_an_act_are_due_where_the_act_happened() {
    // "Use when implementing a change …": a session that loaded the skill
    // and never changed code owed none of its steps — `when` the work's
    // edits, `anywhere` — while a rule that says it holds from the start
    // keeps the load.
    let cs = fixture("skill-occasion");
    for line in [8, 9] {
        let c = at(&cs, line).expect("step");
        assert!(json(&c.when).contains("write"), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::Anywhere), "line {line}: {c:#?}");
    }
    let c = at(&cs, 11).expect("start rule");
    assert_eq!(c.when, None, "{c:#?}");
    // "Use when finishing a task or before merging": an occasion no action
    // shows — the steps are not hung on it (due where work was done).
    let cs = fixture("skill-occasion-situation");
    let c = at(&cs, 8).expect("step");
    assert!(no_trigger_of_its_own(c), "{c:#?}");
    assert_eq!(c.require, Some(p("{command: \"make lint*\"}")), "{c:#?}");
}

#[test]
fn a_when_to_use_column_is_the_situation_and_the_command_column_the_act() {
    // "Kind | When to use | Command": "When to use" holds "to use" but
    // names the situation; the row's act is its command — judged where a
    // tag was made, and scope-tagged like every tag change.
    let cs = fixture("when-to-use-column");
    for line in [10, 11] {
        let c = at(&cs, line).expect("row");
        assert!(json(&c.when).contains("git tag"), "line {line}: {c:#?}");
        assert_eq!(
            c.scope,
            vec![ScopeTag::SharedRepoState],
            "line {line}: {c:#?}"
        );
    }
}

#[test]
fn a_bare_amend_is_a_commit_amend_and_an_amended_document_is_not() {
    let cs = fixture("bare-amend");
    // "Do not amend." with no object: the commit amend, forbidden.
    let c = cs
        .iter()
        .find(|c| c.text == "Do not amend.")
        .expect("bare amend rule");
    assert_eq!(
        c.forbid,
        Some(p("{git: commit, args: [\"--amend\"]}")),
        "{c:#?}"
    );
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // "Never amend the spec …": a document, no git act, no scope.
    let c = at(&cs, 10).expect("spec rule");
    assert_eq!((&c.when, c.behavior()), (&None, None), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn a_protected_branch_list_on_one_line_forbids_its_act_on_those_branches() {
    let cs = fixture("protected-inline");
    // "Protected branches: `trunk`, `release/stable` — never a target for
    // deletion": deleting those branches, nothing else.
    let c = at(&cs, 8).expect("deletion rule");
    let f = json(&c.forbid);
    assert!(f.contains("git branch -D trunk"), "{c:#?}");
    assert!(f.contains("git push * --delete release/stable"), "{c:#?}");
    assert!(!f.contains("\"commit\""), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // "Protected branch: `prod` — never push or commit to it directly":
    // those acts on that branch, not every push (no bare trigger left).
    let c = at(&cs, 9).expect("push rule");
    assert_eq!(c.when, None, "{c:#?}");
    assert!(json(&c.forbid).contains("\"branch\":\"prod\""), "{c:#?}");
}

#[test]
fn what_a_script_does_told_in_the_third_person_is_no_act() {
    // "**Checks the version** - Runs `scripts/check_version.sh` to
    // ensure:": what the script does, not a step the agent is told to
    // take — no requirement due from the skill's load.
    let cs = fixture("script-description");
    let c = at(&cs, 10).expect("description item");
    assert_eq!((&c.require, &c.when), (&None, &None), "{c:#?}");
}

#[test]
fn a_skill_that_authors_agent_hooks_scopes_its_writes() {
    // "Creates and tests lifecycle hooks for the agent's plugins": the
    // agent's configuration — a rule that creates a file there is
    // self-modification; one about the handler's quality is not.
    let cs = fixture("hook-author-topic");
    let c = at(&cs, 9).expect("create rule");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    let c = at(&cs, 8).expect("quality rule");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn a_checkout_step_is_a_step() {
    // "## Step 1: Checkout Trunk" over `git checkout trunk`: "checkout"
    // opens the step as a verb; the step's act is scope-tagged.
    let cs = fixture("checkout-step");
    let c = at(&cs, 8).expect("checkout step");
    assert!(json(&c.require).contains("git checkout trunk"), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn a_pre_act_heading_puts_its_checks_before_that_act() {
    // "## Pre-commit checklist": its items are due before a commit — not
    // before the push the next section ("## Before pushing") names.
    let cs = fixture("pre-act-heading");
    for line in [10, 11] {
        let c = at(&cs, line).expect("checklist item");
        assert_eq!(c.when, Some(p("{git: commit}")), "line {line}: {c:#?}");
        assert_eq!(c.order, Some(Order::Before), "line {line}: {c:#?}");
    }
    let c = at(&cs, 15).expect("push rule");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
}

#[test]
fn coordinated_verbs_each_act_on_the_object() {
    // "Create the version bump commit": a commit whose kind names what it
    // records is the commit (not a version bump); "Review and merge the
    // release PR" is the merge (not a look-up); "Create and push the
    // annotated git tag" creates the tag and pushes it.
    let cs = fixture("coordinated-acts");
    let c = at(&cs, 9).expect("bump commit");
    assert_eq!(c.require, Some(p("{git: commit}")), "{c:#?}");
    let c = at(&cs, 10).expect("merge step");
    assert!(json(&c.require).contains(r#""git":"merge""#), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    let c = at(&cs, 11).expect("tag step");
    let r = json(&c.require);
    assert!(
        r.contains(r#"{"git":"tag"}"#) && r.contains("--tags"),
        "{c:#?}"
    );
    // A kind of commit forbidden is not every commit.
    let c = at(&cs, 12).expect("merge commits");
    assert!(!json(&c.forbid).contains(r#""git":"commit""#), "{c:#?}");
}

#[test]
fn a_failed_act_is_the_trigger_and_a_lead_in_governs_its_own_list() {
    // "When the commit is rejected by a hook:" names a commit that failed
    // (not "the commit" as a thing, which left the steps with nothing);
    // "If the push fails", "If `git rebase` errors" likewise. The bullet
    // list after the numbered one is not under that lead-in.
    let cs = fixture("failed-acts");
    let failed_commit = p("{all: [{git: commit}, {failed: true}]}");
    let c = at(&cs, 9).expect("stage step");
    assert_eq!(c.when, Some(failed_commit.clone()), "{c:#?}");
    assert_eq!(c.require, Some(p("{git: add}")), "{c:#?}");
    let c = at(&cs, 10).expect("commit step");
    assert_eq!(c.when, Some(failed_commit), "{c:#?}");
    assert_eq!(c.require, Some(p("{git: commit}")), "{c:#?}");
    let c = at(&cs, 12).expect("push rule");
    assert_eq!(
        c.when,
        Some(p("{all: [{git: push}, {failed: true}]}")),
        "{c:#?}"
    );
    let c = at(&cs, 13).expect("rebase rule");
    assert_eq!(
        c.when,
        Some(p("{all: [{git: rebase}, {failed: true}]}")),
        "{c:#?}"
    );
    let c = at(&cs, 14).expect("push step");
    assert!(!json(&c.when).contains("failed"), "{c:#?}");
}

#[test]
fn approval_after_a_presentation_gates_the_next_steps_act() {
    // "Present the notes and obtain the maintainer's approval of them"
    // closes its section; the next section runs `gh release create`: the
    // consent is due before that act. "commit subjects" are text, and a
    // consequence cell ("No commit is inspected before it lands") states
    // what happens, neither forbids a commit.
    let cs = fixture("draft-approval");
    let c = at(&cs, 12).expect("approval step");
    assert_eq!(
        c.when,
        Some(p(r#"{command: "gh release create*"}"#)),
        "{c:#?}"
    );
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    let c = at(&cs, 11).expect("subjects rule");
    assert!(c.forbid.is_none() && c.scope.is_empty(), "{c:#?}");
    assert!(at(&cs, 22).is_none_or(|c| c.behavior().is_none() && c.when.is_none()));
}

#[test]
fn recipe_lists_and_script_lists_require_nothing() {
    // "Short log: `git log …`" names what a command shows (a noun label):
    // the command is the case, no step due from the load.
    // "`bin/run_checks.sh` - Run the test suite locally" says what a
    // script is for. A verb label is a step ("Tag: `git tag …`").
    let cs = fixture("recipe-lists");
    for line in [10, 11] {
        let c = at(&cs, line).expect("recipe");
        assert!(
            c.require.is_none() && c.when.is_some(),
            "line {line}: {c:#?}"
        );
    }
    assert!(at(&cs, 15).is_none_or(|c| c.require.is_none() && c.when.is_none()));
    let c = at(&cs, 26).expect("tag step");
    assert!(json(&c.require).contains("git tag -a"), "{c:#?}");
}

#[test]
fn a_program_word_after_run_is_run_and_the_other_option_is_forbidden() {
    // "Run mypy before pushing": mypy is run before the push. "Use
    // `--force-with-lease`, not `--force`": the plain force flag is barred
    // (the lease flag is not it), nothing is due from the load.
    let cs = fixture("preferred-forms");
    let c = at(&cs, 8).expect("mypy rule");
    assert!(json(&c.require).contains("mypy"), "{c:#?}");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    let c = at(&cs, 9).expect("lease rule");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    let Some(Predicate::All(parts)) = &c.forbid else {
        panic!("{c:#?}")
    };
    let matches = |cmd: &str| {
        parts.iter().all(|q| {
            let Predicate::CommandRe(re) = q else {
                panic!("{c:#?}")
            };
            regex::Regex::new(re).unwrap().is_match(cmd)
        })
    };
    assert!(matches("git push --force origin x"));
    assert!(!matches("git push --force-with-lease origin x"));
    assert!(!matches("cp --force a b"));
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn a_review_verdict_named_in_words_is_the_review_command() {
    // "Do not approve or request changes": a review left as a comment; the
    // verdict flags of `gh pr review` are barred. "If they request changes"
    // is the user's word, no act.
    let cs = fixture("review-verdicts");
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("Do not approve"))
        .expect("verdict rule");
    let Some(Predicate::CommandRe(re)) = &c.forbid else {
        panic!("{c:#?}")
    };
    let re = regex::Regex::new(re).unwrap();
    assert!(re.is_match("gh pr review 12 --approve"));
    assert!(re.is_match("gh pr review 12 --request-changes -b x"));
    assert!(!re.is_match("gh pr review 12 --comment -b x"));
    let c = at(&cs, 9).expect("user's word");
    assert!(
        c.when.is_none() && c.forbid.is_none() && c.scope.is_empty(),
        "{c:#?}"
    );
}

#[test]
fn a_tag_format_forbids_tags_named_otherwise() {
    // "Every tag must be semver with a leading v, e.g. `v2.10.0`": creating
    // a tag under another name breaks it; listing tags, or an annotated
    // tag with the right name, does not.
    let cs = fixture("tag-format");
    let c = at(&cs, 8).expect("format rule");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    let Some(Predicate::All(parts)) = &c.forbid else {
        panic!("{c:#?}")
    };
    let [Predicate::CommandRe(creates), Predicate::Not(named)] = &parts[..] else {
        panic!("{c:#?}")
    };
    let Predicate::CommandRe(named) = named.as_ref() else {
        panic!("{c:#?}")
    };
    let (creates, named) = (
        regex::Regex::new(creates).unwrap(),
        regex::Regex::new(named).unwrap(),
    );
    let breaks = |cmd: &str| creates.is_match(cmd) && !named.is_match(cmd);
    assert!(breaks("git tag 2.10.0"));
    assert!(breaks("git tag -a release-7 -m x"));
    assert!(!breaks("git tag -a v2.10.0 -m x"));
    assert!(!breaks("git tag v3.0.0-rc.1"));
    assert!(!breaks("git tag --list"));
    // "Pick the next number using semver conventions" names no tag.
    assert!(at(&cs, 9).expect("decision").forbid.is_none());
}

#[test]
fn a_skill_that_opens_with_its_act_hangs_its_steps_on_it() {
    // "Creates and pushes release tags …": the skill's steps are due where
    // a tag was made or pushed, not from the load (a session that only
    // looked at the tags owes no notes). "Otherwise, run …" holds in a case
    // no action shows: no step due at all.
    let cs = fixture("opening-act");
    let c = at(&cs, 8).expect("notes step");
    assert!(json(&c.when).contains(r#""git":"tag""#), "{c:#?}");
    assert_eq!(c.order, Some(Order::Anywhere), "{c:#?}");
    let c = at(&cs, 9).expect("otherwise step");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn a_why_label_gives_a_reason_not_a_step() {
    // "**Why a second reader:** You hand the diff to a reviewer subagent
    // …" explains the method; the dispatch itself is the next rule.
    let cs = fixture("reason-labels");
    let c = at(&cs, 8).expect("reason");
    assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
    let c = at(&cs, 10).expect("dispatch");
    assert!(json(&c.require).contains("subagent"), "{c:#?}");
}

#[test]
fn a_harness_tool_named_in_words_is_used() {
    // "Use the Agent tool to list …": a subagent dispatch, though the tool
    // is named in plain words, not in code.
    let cs = fixture("tool-words");
    let c = at(&cs, 8).expect("agent rule");
    assert_eq!(c.require, Some(p(r#"{subagent: "*"}"#)), "{c:#?}");
}

#[test]
fn a_step_with_no_trigger_is_due_where_work_was_done() {
    // "Run `make lint`." with nothing saying when: due in a session that
    // changed a file or dispatched a subagent, anywhere — a session that
    // only loaded the skill and read owes nothing.
    let cs = fixture("work-steps");
    let c = at(&cs, 8).expect("lint step");
    assert_eq!(
        c.when,
        Some(p(
            r#"{any: [{write: "**"}, {edit: "**"}, {subagent: "*"}]}"#
        )),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Anywhere), "{c:#?}");
    assert_eq!(c.require, Some(p("{command: 'make lint*'}")), "{c:#?}");
}

#[test]
fn text_whose_case_mapping_moves_offsets_reads_without_a_panic() {
    // "İ" lower-cases to two characters ("Use `İİİİİİ`, not …" panicked):
    // readings that find a word in the
    // lower-cased text and cut the original must not cut mid-character.
    let cs = fixture("case-mapping");
    let c = at(&cs, 10).expect("lease rule");
    assert!(json(&c.forbid).contains("force"), "{c:#?}");
    assert!(at(&cs, 9).is_some());
}

#[test]
fn a_step_whose_act_has_no_word_runs_its_block() {
    // "**Mark the pull request as ready**:" over `gh pr ready`: the step's
    // own verb names no predicate; the block says what it does.
    let cs = fixture("block-steps");
    let c = at(&cs, 9).expect("ready step");
    assert_eq!(c.require, Some(p("{command: 'gh pr ready 42*'}")), "{c:#?}");
    let c = at(&cs, 14).expect("move step");
    assert!(json(&c.require).contains("cd"), "{c:#?}");
    // A block of right and wrong examples runs nothing.
    let c = at(&cs, 26).expect("flag-list step");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn a_harness_tool_call_block_is_that_tool() {
    // "Store … in the metadata:" over "TaskUpdate:" and its arguments: a
    // call of the harness's task tool.
    let cs = fixture("block-steps");
    let c = at(&cs, 19).expect("metadata step");
    assert_eq!(c.require, Some(p("{tool: TaskUpdate}")), "{c:#?}");
    // "At the start, call TaskList": named in plain words, due from the start.
    let c = at(&cs, 36).expect("task list step");
    assert_eq!(c.require, Some(p("{tool: TaskList}")), "{c:#?}");
    assert!(c.when.is_none(), "{c:#?}");
    // "Use the Read tool to find every `package.json`": the files it reads
    // do not hide the tool.
    let c = at(&cs, 38).expect("read tool step");
    assert_eq!(c.require, Some(p("{tool: Read}")), "{c:#?}");
}

#[test]
fn waiting_for_a_start_is_not_a_rule_from_the_start() {
    // "Wait for the CI to start, then follow it:" — "start" is the CI's, not
    // the session's: due where work was done, never from the load.
    let cs = fixture("block-steps");
    let c = at(&cs, 40).expect("watch step");
    assert!(json(&c.require).contains("gh run watch"), "{c:#?}");
    assert!(c.when.is_some(), "{c:#?}");
}

#[test]
fn going_on_only_with_the_users_word_gates_the_next_change() {
    // "Do not go on without approval", "… until the user confirms conflicts
    // are resolved": no act named, so whatever changes files next waits for
    // a user turn (what the user confirms is no act of the session).
    let cs = fixture("proceed-consent");
    let gate = p(r#"{any: [{write: "**"}, {edit: "**"}]}"#);
    for line in [9, 11] {
        let c = cs
            .iter()
            .find(|c| c.lines[0] == line && c.require == Some(p("{user_turn: true}")))
            .unwrap_or_else(|| panic!("no consent gate at {line}: {cs:#?}"));
        assert_eq!(c.when, Some(gate.clone()), "{c:#?}");
        assert!(c.forbid.is_none(), "{c:#?}");
    }
}

#[test]
fn previewing_with_the_user_and_unless_asked_are_consent_gates() {
    let cs = fixture("proceed-consent");
    // "Always preview the release title with the user before creating the
    // release": gone over together — a user turn before the release.
    let c = at(&cs, 13).expect("preview rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("gh release create"), "{c:#?}");
    // "don't squash unless asked": squashing, the commits unnamed.
    let c = at(&cs, 15).expect("squash rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("--squash"), "{c:#?}");
    // "Do not publish the draft … unless the user explicitly asks":
    // making a draft public waits on the user's word.
    let c = at(&cs, 17).expect("publish rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("gh release edit"), "{c:#?}");
    assert!(json(&c.when).contains("gh pr ready"), "{c:#?}");
}

#[test]
fn a_required_form_forbids_the_act_made_without_it() {
    let cs = fixture("required-forms");
    // "Always create the release as a draft": a release made without
    // `--draft` breaks it; "Open the pull request as a draft" the same.
    let c = at(&cs, 9).expect("draft release");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{all: [{command_re: '^gh release create\b'}, {not: {command_re: '\s(--draft|-d)\b'}}]}"#
        )),
        "{c:#?}"
    );
    assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
    let c = at(&cs, 10).expect("draft pr");
    assert!(json(&c.forbid).contains("gh pr create"), "{c:#?}");
    // "Release tags must be annotated", "Never create lightweight tags": a
    // tag with a name and no flag breaks them — not every tag.
    let lightweight = p(r#"{command_re: '^git tag\s+[^-\s]\S*(\s+[^-\s]\S*)?\s*$'}"#);
    for line in [11, 12] {
        let c = at(&cs, line).expect("tag form");
        assert_eq!(c.forbid, Some(lightweight.clone()), "{c:#?}");
    }
    // A preference, a note to draft, a step: no form forced.
    for line in [13, 14, 15] {
        let c = at(&cs, line).expect("rule");
        assert!(c.forbid.is_none(), "{c:#?}");
    }
}

#[test]
fn a_reason_after_a_dash_is_no_part_of_the_rule() {
    // "Work in small steps — the branch is pushed to origin every hour":
    // the statement after the dash says why; the push it names is no act
    // the rule asks for (the old reading required a push and tagged it).
    let cs = fixture("reason-tails");
    let c = at(&cs, 9).expect("small steps rule");
    assert!(c.require.is_none() && c.forbid.is_none(), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
    // A tail that is a rule of its own ("— ask the user first") still is.
    let c = at(&cs, 11).expect("push rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("push"), "{c:#?}");
}

#[test]
fn open_pull_requests_listed_are_a_state_not_an_act() {
    // "… to list local branches and open PRs": the PRs that are open, no PR
    // to open (the old reading required `gh pr create` from a listing).
    let cs = fixture("open-prs-state");
    let c = at(&cs, 7).expect("listing step");
    assert!(json(&c.require).contains("branches.py"), "{c:#?}");
    assert!(!json(&c.require).contains("gh pr create"), "{c:#?}");
    // "Commit the work and open a PR" still opens one.
    let c = at(&cs, 11).expect("open step");
    assert!(json(&c.require).contains("gh pr create"), "{c:#?}");
}

#[test]
fn a_first_step_over_a_block_is_no_rule_from_the_load() {
    // "First, set up the toolchain:" over its block names no act of its own
    // and says it comes first: read off the block, it would be due from
    // the skill's load — the block is left to say nothing.
    let cs = fixture("block-steps");
    let c = at(&cs, 45).expect("first step");
    assert!(c.require.is_none() || c.when.is_some(), "{c:#?}");
}

#[test]
fn a_failed_act_over_a_block_triggers_its_commands() {
    // "If the rebase fails with conflicts:" over `git status --short`, under
    // a case heading: the failed rebase is an act the session shows — the
    // block's commands are due after it.
    let cs = fixture("failed-cases");
    let c = at(&cs, 9).expect("failed rebase case");
    assert_eq!(
        c.when,
        Some(p("{all: [{git: rebase}, {failed: true}]}")),
        "{c:#?}"
    );
    assert!(json(&c.require).contains("status"), "{c:#?}");
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
    // A case no action shows ("If the branch is behind:") gives no trigger.
    assert!(at(&cs, 16).is_none_or(|c| c.when.is_none()), "{cs:#?}");
}

#[test]
fn a_flag_alone_is_about_the_command_its_section_runs() {
    // "Always pass `--cleanup=verbatim`" under `git tag -s …`: a tag made
    // without the flag breaks it; "Do not fall back to `-m`": a tag made
    // with it does. A flag forbidden on its own keeps every command.
    let cs = fixture("nearby-flags");
    let c = at(&cs, 11).expect("cleanup rule");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{all: [{command_re: '^git tag\b'}, {not: {command_re: '(^|\s)\-\-cleanup=verbatim(=|\s|$)'}}]}"#
        )),
        "{c:#?}"
    );
    let c = at(&cs, 12).expect("-m rule");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{all: [{command_re: '^git tag\b'}, {command_re: '(^|\s)\-m(=|\s|$)'}]}"#
        )),
        "{c:#?}"
    );
    let c = at(&cs, 13).expect("no-verify rule");
    assert!(!json(&c.forbid).contains("git tag"), "{c:#?}");
    // An argument the user gives the skill is no flag of a command.
    let c = at(&cs, 17).expect("argument rule");
    assert!(c.forbid.is_none(), "{c:#?}");
}

#[test]
fn a_flag_that_is_not_optional_is_required_on_its_command() {
    // "`--latest` is not optional here" under `gh release create …`: a
    // release made without it breaks the rule (a statement that required,
    // said the other way).
    let cs = fixture("nearby-flags");
    let c = at(&cs, 23).expect("latest rule");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert!(json(&c.forbid).contains("gh release create"), "{c:#?}");
    assert!(json(&c.forbid).contains("latest"), "{c:#?}");
}

#[test]
fn a_flag_near_a_look_up_names_no_command() {
    // "`--paginate` is not optional here" after `gh api …`: the nearest
    // command only looks; the flag may be another command's, so none is
    // forbidden (a forbid on every `gh api` call would be false).
    let cs = fixture("nearby-flags");
    let c = at(&cs, 29).expect("paginate rule");
    assert!(c.forbid.is_none(), "{c:#?}");
}

#[test]
fn an_auto_prefixed_act_waits_on_the_user() {
    // "Don't auto-install the release CLI - let the user do it": the
    // install, done without the user's go — a user turn before it.
    let cs = fixture("proceed-consent");
    let c = at(&cs, 19).expect("auto-install rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("install"), "{c:#?}");
    // "no auto-merge" names the feature: no act.
    let c = at(&cs, 21).expect("skip rule");
    assert!(c.when.is_none() && c.forbid.is_none(), "{c:#?}");
}

#[test]
fn a_warning_sign_before_use_a_not_b_still_avoids_b() {
    // "⚠️ Use `--force-with-lease` - safer than `--force`": the sign is no
    // word of the rule; the plain force is what it avoids — on a push, the
    // one command the lease flag belongs to.
    let cs = fixture("reason-tails");
    let c = at(&cs, 15).expect("lease rule");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{all: [{command_re: '^git push\b'}, {command_re: '(^|\s)\-\-force(=|\s|$)'}]}"#
        )),
        "{c:#?}"
    );
}

#[test]
fn looks_at_the_remote_are_fetches_pulls_and_pr_look_ups() {
    let cs = fixture("remote-looks");
    // "Check for an open PR on the branch (stop if one is found)": the
    // condition inside the aside is the aside's — the look-up still is one.
    let c = at(&cs, 9).expect("pr look-up");
    assert!(
        json(&c.require).contains("gh pr (list|view|status)"),
        "{c:#?}"
    );
    // "Fetch upstream changes", "Pull the latest main".
    assert_eq!(
        at(&cs, 10).and_then(|c| c.require.clone()),
        Some(p("{git: fetch}"))
    );
    assert_eq!(
        at(&cs, 11).and_then(|c| c.require.clone()),
        Some(p("{git: pull}"))
    );
    // "Open a pull request to main" is no pull.
    let c = at(&cs, 12).expect("open pr step");
    assert!(!json(&c.require).contains("pull\""), "{c:#?}");
    assert!(json(&c.require).contains("gh pr create"), "{c:#?}");
}

#[test]
fn a_start_word_inside_an_aside_keeps_no_rule_from_the_load() {
    // "Run `make docs` (the target the team set up first)": "first" is
    // the aside's; the step is due where work was done, not from the load.
    let cs = fixture("remote-looks");
    let c = at(&cs, 16).expect("docs step");
    assert!(no_trigger_of_its_own(c) && c.when.is_some(), "{c:#?}");
}

#[test]
fn viewing_the_pr_is_a_look_on_the_host() {
    // "View the PR before you merge it": `gh pr view` before the merge (the
    // lexicon's pattern once asked for "PR request" and matched nothing).
    let cs = fixture("remote-looks");
    let c = at(&cs, 20).expect("view step");
    assert!(json(&c.require).contains("gh pr view"), "{c:#?}");
}

#[test]
fn acts_on_the_host_and_hyphenated_verbs_have_commands() {
    let cs = fixture("host-acts");
    // "Check out the pull request locally": `gh pr checkout`.
    let c = at(&cs, 9).expect("checkout step");
    assert!(json(&c.require).contains("gh pr checkout"), "{c:#?}");
    // "Cherry-pick the fix …": the hyphenated verb opens a rule.
    let c = at(&cs, 10).expect("cherry-pick step");
    assert_eq!(c.require, Some(p("{git: cherry-pick}")), "{c:#?}");
    // "Request a review from the release team", "Label the PR": edits of
    // the PR on the host, scoped.
    for (line, flag) in [(13, "add-reviewer"), (14, "add-label")] {
        let c = at(&cs, line).expect("host step");
        assert!(json(&c.require).contains(flag), "{c:#?}");
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    }
}

#[test]
fn the_lockfile_and_the_ci_configuration_named_in_words_are_their_files() {
    let cs = fixture("named-files");
    let c = at(&cs, 9).expect("lockfile rule");
    assert!(json(&c.forbid).contains("package-lock.json"), "{c:#?}");
    assert!(json(&c.forbid).contains("Cargo.lock"), "{c:#?}");
    let c = at(&cs, 10).expect("ci rule");
    assert!(json(&c.forbid).contains(".github/workflows/**"), "{c:#?}");
}

#[test]
fn an_act_after_per_or_on_every_is_the_occasion() {
    // "… the whole suite per commit", "Run the formatter on every push":
    // due before each commit / push, not a push the rule asks for.
    let cs = fixture("per-act");
    let c = at(&cs, 7).expect("suite rule");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert!(json(&c.require).contains("test"), "{c:#?}");
    let c = at(&cs, 9).expect("formatter rule");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert!(!json(&c.require).contains("\"push\""), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
}

#[test]
fn showing_the_diff_runs_it() {
    // "Show the diff to the user before committing": the diff shown is one
    // the session ran; "the printed diff path" names no act.
    let cs = fixture("named-files");
    let c = at(&cs, 14).expect("show rule");
    assert!(json(&c.require).contains("\"diff\""), "{c:#?}");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    let c = at(&cs, 16).expect("path rule");
    assert!(!json(&c.require).contains("\"diff\""), "{c:#?}");
}

#[test]
fn branch_and_git_operations_named_as_a_kind_are_scoped() {
    // "Before any branch operations, confirm …": the check gates the
    // commands that make, switch, merge or delete a branch; "ad-hoc git
    // commands" names git's acts as a kind (scoped, no one command).
    let cs = fixture("branch-operations");
    let c = at(&cs, 7).expect("gate rule");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    assert!(json(&c.when).contains("checkout|switch|merge"), "{c:#?}");
    let c = at(&cs, 9).expect("scripts rule");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    let c = at(&cs, 17).expect("forbid rule");
    assert!(json(&c.forbid).contains("checkout|switch|merge"), "{c:#?}");
    // `git branch --list` is a look, not an operation on a branch;
    // `git branch -D old` and `git switch main` are.
    let mut res = Vec::new();
    c.forbid.as_ref().unwrap().for_each_node(&mut |q| {
        if let Predicate::CommandRe(r) = q {
            res.push(regex::Regex::new(r).unwrap());
        }
    });
    let hits = |cmd: &str| res.iter().any(|r| r.is_match(cmd));
    assert!(!hits("git branch --list"), "{c:#?}");
    assert!(
        hits("git branch -D old") && hits("git switch main"),
        "{c:#?}"
    );
}

#[test]
fn an_arrow_case_holds_for_the_sentences_after_it() {
    // "**Ticket open** → **stop**. … Do not perform any branch operations.":
    // the forbid holds in that case only — no action names the case, so the
    // rule is when-only, never a forbid over every session.
    let cs = fixture("branch-operations");
    for line in [13, 14] {
        let c = cs
            .iter()
            .find(|c| c.lines[0] == line && c.text.starts_with("Do not"))
            .expect("case rule");
        assert!(c.forbid.is_none(), "{c:#?}");
    }
}

#[test]
fn a_branch_in_a_condition_narrows_the_condition_and_a_flag_may_carry_a_value() {
    // "Always use `--latest=false` when releasing from non-default
    // branches": a release from such a branch must carry the flag; one from
    // `main` is no case of the rule.
    let cs = fixture("release-branches");
    let c = at(&cs, 7).expect("flag rule");
    let not_default = p("{not: {any: [{branch: main}, {branch: master}]}}");
    match &c.when {
        Some(Predicate::All(v)) => assert!(v.contains(&not_default), "{c:#?}"),
        _ => panic!("when the release on another branch: {c:#?}"),
    }
    assert!(json(&c.when).contains("gh release create"), "{c:#?}");
    assert!(json(&c.require).contains("latest=false"), "{c:#?}");
    assert!(!json(&c.require).contains("branch"), "{c:#?}");
}

#[test]
fn a_branch_other_than_the_default_is_never_the_default() {
    // "Never force-push from a branch other than main": not every force
    // push, and never the pushes from main.
    let cs = fixture("release-branches");
    let c = at(&cs, 9).expect("push rule");
    assert!(json(&c.forbid).contains("\"not\""), "{c:#?}");
    assert!(json(&c.forbid).contains("--force"), "{c:#?}");
}

#[test]
fn releasing_is_publishing_a_release_but_not_a_lock() {
    let cs = fixture("release-branches");
    let c = at(&cs, 13).expect("suite rule");
    assert!(json(&c.when).contains("gh release create"), "{c:#?}");
    let c = at(&cs, 11).expect("lock rule");
    assert!(!json(c).contains("release create"), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn a_flag_alone_belongs_to_the_command_of_its_section() {
    // "Always pass `--sign`" under a `git tag` block: a tag made without it
    // breaks the rule (not: some command, any, carries the flag).
    let cs = fixture("release-branches");
    let c = at(&cs, 21).expect("sign rule");
    assert!(c.require.is_none(), "{c:#?}");
    assert!(json(&c.forbid).contains("^git tag"), "{c:#?}");
}

#[test]
fn a_forbid_then_its_alternative_forbids_the_act_not_the_alternative() {
    // "Never delete a release to fix a typo -- bump the patch version
    // instead": deleting the release breaks the rule; bumping is what to do.
    let cs = fixture("release-hygiene");
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 13 && c.text.starts_with("Never"))
        .expect("forbid rule");
    assert!(json(&c.forbid).contains("gh release delete"), "{c:#?}");
    assert!(!json(&c.forbid).contains("version"), "{c:#?}");
}

#[test]
fn a_statement_about_things_so_treated_requires_nothing() {
    // "Deleted releases keep their tag names reserved forever": what
    // happens to deleted releases — no tag deletion required of anyone.
    let cs = fixture("release-hygiene");
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 13 && c.text.contains("Deleted"))
        .expect("statement");
    assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
}

#[test]
fn topic_sections_are_no_steps_of_a_procedure() {
    // "## Hook setup" then "## Merging": topics, not steps — installing the
    // hooks is not due before the merge the later section shows.
    let cs = fixture("release-hygiene");
    let c = at(&cs, 9).expect("install rule");
    assert!(!json(&c.when).contains("merge"), "{c:#?}");
}

#[test]
fn the_command_named_after_rather_than_is_forbidden() {
    // "Stage files by name rather than using `git add --all`", "Look at the
    // history instead of running `git reflog expire`": the command after
    // "rather than" / "instead of" is what the rule forbids — never a
    // command it requires.
    let cs = fixture("alternative-commands");
    let c = at(&cs, 17).expect("staging rule");
    assert_eq!(c.forbid, Some(p("{git: add, args: [--all]}")), "{c:#?}");
    assert!(c.require.is_none(), "{c:#?}");
    let c = at(&cs, 23).expect("reflog rule");
    assert!(json(&c.forbid).contains("reflog expire"), "{c:#?}");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn a_task_named_for_an_act_is_not_the_act() {
    // "Open the review PR task:" over a `TaskCreate:` block: a to-do item
    // made, no pull request opened.
    let cs = fixture("alternative-commands");
    let c = at(&cs, 9).expect("task rule");
    assert!(!json(c).contains("gh pr"), "{c:#?}");
    assert!(json(&c.require).contains("TaskCreate"), "{c:#?}");
}

#[test]
fn implementing_a_named_part_forbids_no_edit() {
    // "Do not implement retry logic here": which edit is the retry logic no
    // session shows; a forbid on every code edit would flag all work. The
    // gate "… anything until the user approves" still binds.
    let cs = fixture("delegated-logic");
    let c = at(&cs, 7).expect("delegation rule");
    assert!(c.forbid.is_none() && c.require.is_none(), "{c:#?}");
    let c = at(&cs, 9).expect("gate rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
}

#[test]
fn a_step_over_a_directory_tree_writes_its_files() {
    // "2. Lay out the files:" over a tree drawn with `├──`: the step writes
    // the tree's files (under any root; directories are no files); an
    // agent's `hooks.json` is its configuration. A tree under a heading
    // alone ("## Project layout") shows, it asks for nothing.
    let cs = fixture("plugin-hooks");
    let c = at(&cs, 9).expect("layout step");
    let r = json(&c.require);
    for f in [
        "**/manifest.toml",
        "**/config/hooks.json",
        "**/bin/guard.sh",
    ] {
        assert!(r.contains(f), "{f}: {c:#?}");
    }
    assert!(!r.contains("\"**/config\""), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    assert!(!cs.iter().any(|c| json(c).contains("main.rs")), "{cs:#?}");
}

#[test]
fn each_thing_the_work_meets_is_no_start_of_the_session() {
    // "For each changed file, run …": due where the work changed files,
    // not from the skill's load; "… once every session" still is.
    let cs = fixture("each-and-every");
    let c = at(&cs, 7).expect("per-file rule");
    assert!(c.when.is_some(), "{c:#?}");
    let c = at(&cs, 9).expect("per-session rule");
    assert!(c.when.is_none() && c.require.is_some(), "{c:#?}");
}

#[test]
fn a_one_word_harness_tool_in_code_is_that_tool() {
    // "… open it with `Read` before editing it": the harness's Read tool,
    // before each edit (and "for each imported file" keeps no step due from
    // the load).
    let cs = fixture("each-and-every");
    let c = at(&cs, 11).expect("read rule");
    assert_eq!(c.require, Some(p("{tool: Read}")), "{c:#?}");
    assert!(c.when.is_some(), "{c:#?}");
}

#[test]
fn a_gate_after_offered_choices_gates_those_acts() {
    // "Show the summary and offer choices (push, rebase, or leave as is).
    // Do not proceed without approval.": the push or rebase waits for the
    // user's answer; nothing offered is required.
    let cs = fixture("offered-acts");
    let c = at(&cs, 9).expect("gate");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(
        json(&c.when).contains("push") && json(&c.when).contains("rebase"),
        "{c:#?}"
    );
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn an_act_forbidden_if_a_check_fails_needs_the_check_passed_before_it() {
    // "Do not tag the release if the tests fail", "Do NOT proceed to
    // tagging if CI fails", "If the pipeline is red, do not push the tag":
    // the act is the trigger, a passing run of the check is due before it.
    let cs = fixture("failed-checks");
    for line in [7, 9, 11, 13] {
        let c = at(&cs, line).expect("rule");
        assert!(
            c.when.is_some() && !json(&c.when).contains("failed"),
            "{c:#?}"
        );
        assert!(
            json(&c.require).contains("{\"not\":{\"failed\":true}}"),
            "{c:#?}"
        );
        assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    }
    let c = at(&cs, 9).expect("CI rule");
    assert_eq!(c.when, Some(p("{git: tag}")), "{c:#?}");
    assert!(json(&c.require).contains("gh (pr checks"), "{c:#?}");
}

#[test]
fn an_act_alone_before_takes_the_main_clauses_object() {
    // "Always preview the PR description with the user before opening": the
    // PR is opened — a consent gate on `gh pr create`. "Before delivering:"
    // over a checklist names no act of the items.
    let cs = fixture("elided-object");
    let c = at(&cs, 7).expect("preview rule");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("gh pr create"), "{c:#?}");
    let c = at(&cs, 11).expect("checklist item");
    assert!(c.when.is_none(), "{c:#?}");
}

#[test]
fn before_the_first_act_is_before_that_act() {
    // "Before first commit, look for hook configs:" over its block: the
    // look is due before the commit ("the first commit message" is a thing).
    let cs = fixture("first-act");
    let c = at(&cs, 7).expect("hook look");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert!(
        json(&c.require).contains("ls .pre-commit-config.yaml"),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    let c = at(&cs, 13).expect("message rule");
    assert_ne!(c.when, Some(p("{git: commit}")), "{c:#?}");
}

#[test]
fn a_forbid_under_a_heading_case_binds_where_no_rule_asks_for_the_act() {
    // "### When a new PR is opened" / "Do NOT approve or request changes":
    // no part of the skill asks for an approval, so every case forbids it.
    let cs = fixture("case-forbid");
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("Do NOT"))
        .expect("forbid");
    assert!(json(&c.forbid).contains("--approve"), "{c:#?}");
    assert!(c.when.is_none(), "{c:#?}");
    // Where another case asks for it ("### When the maintainer signs off" /
    // "Approve the PR with `gh pr review --approve`"), the heading splits
    // modes: the forbid stays a trigger judged by people.
    let cs = fixture("case-modes");
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("Do NOT"))
        .expect("forbid");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert!(json(&c.when).contains("--approve"), "{c:#?}");
}

#[test]
fn phrases_over_one_act_narrow_it_together() {
    // "Never force-push to main": a force push *to main* — the phrases
    // "force-push" and "push to main" share the word and the command, so
    // they join as one act with both, not as alternatives (a force push
    // to a feature branch, or a plain push to main, keeps the rule).
    let cs = fixture("narrowing-phrases");
    let c = at(&cs, 8).expect("force-push rule");
    match &c.forbid {
        Some(Predicate::All(v)) => {
            assert!(v.contains(&p("{git: push, args: [\"--force\"]}")), "{c:#?}");
            assert!(json(v).contains("git push * main*"), "{c:#?}");
        }
        other => panic!("expected one act with both parts, got {other:?}"),
    }
    // One phrase alone stays as it was.
    let c = at(&cs, 10).expect("tags rule");
    assert_eq!(
        c.forbid,
        Some(p("{git: push, args: [\"--force\"]}")),
        "{c:#?}"
    );
}

#[test]
fn a_rewrite_without_confirmation_is_gated_on_the_skills_file() {
    // "Do not rewrite the file without explicit confirmation" in a skill
    // that optimizes AGENTS.md: a write of that file waits for the user.
    let cs = fixture("rewrite-consent");
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("Do not rewrite"))
        .expect("rewrite gate");
    assert_eq!(c.when, Some(p("{touch: \"**/AGENTS.md\"}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
    // "Never overwrite files without the user's approval": the same gate.
    let c = at(&cs, 10).expect("overwrite gate");
    assert_eq!(c.when, Some(p("{touch: \"**/AGENTS.md\"}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn making_a_file_executable_is_its_mode_set() {
    // "mark it executable": a `chmod +x` (or a mode with the execute bit);
    // "never make downloaded files executable" forbids it.
    let mode = r"^chmod\b.*(\+x|\b[0-7]?[0-7][5-7][0-7]\b)";
    let cs = fixture("executable-scripts");
    let c = at(&cs, 8).expect("mark executable");
    assert_eq!(c.require, Some(Predicate::CommandRe(mode.into())), "{c:#?}");
    let c = at(&cs, 10).expect("never executable");
    assert_eq!(c.forbid, Some(Predicate::CommandRe(mode.into())), "{c:#?}");
    let re = regex::Regex::new(mode).unwrap();
    for (cmd, hit) in [
        ("chmod +x bin/helper", true),
        ("chmod 755 bin/helper", true),
        ("chmod 0750 bin/helper", true),
        ("chmod 644 notes.txt", false),
        ("chmod 600 key.pem", false),
    ] {
        assert_eq!(re.is_match(cmd), hit, "{cmd}");
    }
}

#[test]
fn a_tag_convention_stated_as_a_fact_is_a_rule() {
    // "Release tags follow semver with a leading v": a tag under another
    // name breaks it, though no modal verb says "must".
    let cs = fixture("tag-convention");
    let c = at(&cs, 12).expect("tag convention");
    assert!(json(&c.forbid).contains(r"\\s+v[0-9]+"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // A fact about tags that states no format stays no rule.
    assert!(at(&cs, 13).is_none(), "{:#?}", at(&cs, 13));
}

#[test]
fn secrets_a_skill_guards_against_are_not_its_topic() {
    // "… confirm a repo blocks secrets before commit": the skill's acts
    // are the guards (hooks, configs), not handling of secrets — its rules
    // that name no object take no sensitive-memory scope from it (as the
    // rules of "vault-topic", which keeps credentials, do).
    let cs = fixture("secret-guard");
    for line in [8, 9] {
        let c = at(&cs, line).expect("rule");
        assert!(!c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    }
}

#[test]
fn merging_the_pr_is_the_forges_merge_and_code_names_the_tool() {
    let cs = fixture("merge-words");
    let forge = p("{any: [{command: 'gh pr merge*'}, {command: 'glab mr merge*'}]}");
    // "NEVER merge the PR": the PR's merge, not a `git merge` of the base.
    let c = at(&cs, 20).expect("never merge the PR");
    assert_eq!(c.forbid, Some(forge.clone()), "{c:#?}");
    // "Merge the base branch in with `git merge origin/main`": the code
    // names the tool; the word's other tools (the forge's merge) go.
    let c = at(&cs, 10).expect("sync step");
    assert!(json(&c.require).contains("git merge origin/main"), "{c:#?}");
    assert!(!json(&c.require).contains("gh pr merge"), "{c:#?}");
    // "## If the checks pass" / "do not merge": the forge's merge, which
    // no rule asks for, is forbidden in every case; the `git merge` the
    // sync step asks for stays allowed.
    let c = at(&cs, 15).expect("stop, do not merge");
    assert_eq!(c.forbid, Some(forge), "{c:#?}");
    assert!(c.when.is_none(), "{c:#?}");
}

#[test]
fn a_labelled_step_asking_whether_the_user_wants_an_act_gates_it() {
    // "Offer publishing: Ask if user wants to push the branch now.": the
    // step's label, then the question — the push waits for the answer
    // (also with no article before "user").
    let cs = fixture("labelled-question");
    let c = at(&cs, 9).expect("question");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
}

#[test]
fn the_branch_a_rebase_goes_onto_is_not_the_sessions_branch() {
    // "Rebase the feature branch on main": main is the new base; the
    // session is on the feature branch — no `branch: main` modifier.
    let cs = fixture("rebase-onto");
    let c = at(&cs, 8).expect("rebase step");
    assert_eq!(c.require, Some(p("{git: rebase}")), "{c:#?}");
    // "Never rebase the main branch": main is the branch rebased.
    let c = at(&cs, 10).expect("never rebase main");
    assert!(json(&c.forbid).contains("\"branch\":\"main\""), "{c:#?}");
}

#[test]
fn the_projects_checks_named_in_words_are_its_check_commands() {
    // "Run the local checks before pushing", "before running the
    // pre-flight checks": the project's test / build / lint commands.
    let cs = fixture("preflight-checks");
    let c = at(&cs, 8).expect("local checks");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert!(
        json(&c.require).contains("cargo (test|nextest|build"),
        "{c:#?}"
    );
    let c = at(&cs, 10).expect("approval before the checks");
    assert!(
        json(&c.when).contains("cargo (test|nextest|build"),
        "{c:#?}"
    );
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn adding_to_the_settings_file_changes_the_agents_settings() {
    // "Register the hook in your settings file": a write to the agent's
    // settings — self-modification with a predicate.
    let cs = fixture("settings-add");
    let c = at(&cs, 9).expect("register");
    assert!(
        json(&c.require).contains(".claude/settings*.json"),
        "{c:#?}"
    );
    assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
    // An entry added to another file is no settings change.
    let c = at(&cs, 10).expect("changelog");
    assert!(!json(&c).contains("settings"), "{c:#?}");
}

#[test]
fn checking_whether_the_session_is_in_a_worktree_is_a_look_up() {
    // "verify whether you are currently inside a linked worktree": the
    // repository's directories or its worktree list, looked up.
    let cs = fixture("workspace-check");
    let c = at(&cs, 8).expect("worktree check");
    assert!(json(&c.require).contains("worktree list"), "{c:#?}");
    // Tests run "in the workspace" are no look-up of it.
    let c = at(&cs, 10).expect("tests");
    assert!(!json(&c.require).contains("worktree list"), "{c:#?}");
}

#[test]
fn reading_a_pull_request_is_viewing_it_on_the_host() {
    // "Read each pull request that landed": `gh pr view` / `gh pr diff`.
    let cs = fixture("pr-reading");
    let c = at(&cs, 8).expect("read each PR");
    assert_eq!(
        c.require,
        Some(p(r"{command_re: '^gh pr (view|diff)\b'}")),
        "{c:#?}"
    );
    // "Read the PR template": a file, not the PR.
    for line in [10, 12] {
        if let Some(c) = at(&cs, line) {
            assert!(!json(c).contains("gh pr (view"), "{c:#?}");
        }
    }
}

#[test]
fn a_modal_between_the_check_and_its_verdict_keeps_the_check() {
    // "Tests must pass before you commit": a passing test run before the
    // commit (the modal had broken the phrase: only the trigger was left).
    let cs = fixture("must-pass");
    let c = at(&cs, 8).expect("tests");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert!(
        json(&c.require).contains("pytest") && json(&c.require).contains("failed"),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    let c = at(&cs, 10).expect("build");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert!(
        json(&c.require).contains("cargo (test|nextest|build"),
        "{c:#?}"
    );
}

#[test]
fn waiting_for_the_user_to_confirm_gates_the_act() {
    // "Wait for the user to confirm before deleting any files": the
    // deletion waits on the user's word (as "… to approve" did).
    let cs = fixture("wait-confirm");
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("Wait"))
        .expect("wait rule");
    assert_eq!(c.when, Some(p("{delete: '**'}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    // "Wait until the user agrees before pushing …": the user's word is the
    // condition, the act after "before" what waits for it.
    let c = at(&cs, 10).expect("wait until");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
}

#[test]
fn a_step_held_to_its_headings_case_is_due_before_the_cases_act() {
    // "## When a new PR is opened" / "1. Run `gh pr diff`" … "2. Post one
    // comment with `gh pr comment`": no act shows the case, the comment
    // posted in it does — the diff is due before it.
    let cs = fixture("case-steps");
    let c = at(&cs, 8).expect("diff step");
    assert_eq!(c.when, Some(p("{command: 'gh pr comment 12*'}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{command: 'gh pr diff 12*'}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "## When the maintainer is away" / "1. Run `cargo audit`" … "2. Push
    // the tag": the release procedure pushes the same tag without the
    // audit, so a push shows nothing of the case — unverifiable.
    let c = at(&cs, 16).expect("audit step");
    assert!(c.when.is_none() && c.require.is_none(), "{c:#?}");
}

#[test]
fn overwriting_a_file_is_writing_it_whole() {
    // "Never overwrite the .gitignore file" beside a step that appends to
    // it: replacing the file is forbidden, an edit that appends is not.
    let cs = fixture("overwrite");
    let c = at(&cs, 9).expect("overwrite");
    assert_eq!(c.forbid, Some(p("{write: '**/.gitignore'}")), "{c:#?}");
}

#[test]
fn requesting_a_review_adds_reviewers_to_the_pull_request() {
    // "Never request a review while the checks are red", "Add a reviewer":
    // reviewers added to the PR — an act on shared repo state.
    let cs = fixture("request-review");
    for line in [7, 9] {
        let c = at(&cs, line).expect("review rule");
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
        let acts = format!("{}{}", json(&c.when), json(&c.require));
        assert!(acts.contains("--(add-)?reviewer"), "{c:#?}");
    }
}

#[test]
fn a_state_confirmed_is_looked_at_not_asked_for() {
    // "Confirm the branch is clean before pushing": the status looked at
    // before the push — not the user's word awaited (a session that checked
    // and pushed followed it).
    let cs = fixture("confirm-state");
    let c = at(&cs, 7).expect("clean branch");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(
        c.require,
        Some(p("{any: [{git: status}, {git: diff}]}")),
        "{c:#?}"
    );
    let c = at(&cs, 9).expect("tests pass");
    assert_ne!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.require).contains("cargo (test"), "{c:#?}");
    // "Confirm with the user before pushing", "Confirm before deleting the
    // branch", "Confirm the version number with them": consent, as before.
    for line in [11, 13, 15] {
        let c = at(&cs, line).expect("consent");
        assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    }
}

#[test]
fn standing_rules_keep_their_own_branches_and_acts() {
    let cs = fixture("standing-rules");
    // "Never commit directly to `main` or `master`": both branches, not
    // `main` a second time (which left a commit to `master` allowed).
    let c = at(&cs, 9).expect("no commits to main");
    assert_eq!(
        c.forbid,
        Some(p(
            "{all: [{git: commit}, {any: [{branch: main}, {branch: master}]}]}"
        )),
        "{c:#?}"
    );
    // "Always sign your commits with `-S`": a commit without the flag
    // breaks it — not a flag due before the tag the next bullet makes.
    let c = at(&cs, 10).expect("signed commits");
    assert!(c.when.is_none() && c.require.is_none(), "{c:#?}");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{all: [{command_re: '^git commit\b'}, {not: {command_re: '(^|\s)\-S(=|\s|$)'}}]}"#
        )),
        "{c:#?}"
    );
    // "Always update `CHANGELOG.md`." then "Tag releases …": a bullet that
    // holds throughout is no step before the next bullet's tag.
    let c = at(&cs, 11).expect("changelog");
    assert!(c.when.is_none(), "{c:#?}");
    assert_eq!(c.require, Some(p("{touch: '**/CHANGELOG.md'}")), "{c:#?}");
}

#[test]
fn nothing_to_commit_is_a_case_and_secrets_in_files_no_forbid() {
    let cs = fixture("nothing-to-commit");
    // "**No changes to commit:**": the case its bullets hold in, not a
    // forbid of every commit.
    assert!(
        cs.iter().all(|c| c.forbid != Some(p("{git: commit}"))),
        "{cs:#?}"
    );
    assert!(at(&cs, 7).is_none(), "{:#?}", at(&cs, 7));
    // "Never stage these files:" / "- Any files with API keys or secrets":
    // which files hold a secret no act shows — never a forbid of every
    // `git add`; the file named (`.env`) is forbidden.
    let c = at(&cs, 13).expect("secrets item");
    assert!(c.forbid.is_none(), "{c:#?}");
    // (Staging or committing it is an act on the repository's state.)
    let c = at(&cs, 12).expect(".env");
    assert!(c.forbid.is_some(), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "No commits to main.": a rule all the same.
    let c = at(&cs, 15).expect("no commits to main");
    assert!(json(&c.forbid).contains("main"), "{c:#?}");
}

#[test]
fn always_running_the_checks_is_due_where_work_was_done() {
    // "Always run `just lint` and `just test`": a check of the work — due
    // in a session that changed something, not from the skill's load.
    let cs = fixture("always-checks");
    let c = at(&cs, 7).expect("checks");
    assert_eq!(
        c.when,
        Some(p("{any: [{write: '**'}, {edit: '**'}, {subagent: '*'}]}")),
        "{c:#?}"
    );
    assert!(json(&c.require).contains("just test"), "{c:#?}");
}

#[test]
fn a_rule_drawn_in_a_box_is_read_without_its_frame() {
    // "║  You MUST run `just test` after EVERY code change.  ║" between
    // "╔═══╗" and "╚═══╝": the frame is no text; the rule inside it is.
    let cs = fixture("banner");
    let c = at(&cs, 8).expect("banner rule");
    assert_eq!(c.require, Some(p("{command: 'just test*'}")), "{c:#?}");
    assert!(json(&c.when).contains("write"), "{c:#?}");
    assert!(!c.text.contains('║'), "{c:#?}");
}

#[test]
fn an_at_reference_names_the_file() {
    // "Read the current notes: @docs/NOTES.md": the harness's file
    // reference is the file read (a handle, "@octocat", is no path).
    let cs = fixture("at-reference");
    let c = at(&cs, 9).expect("read notes");
    assert!(json(&c.require).contains("docs/NOTES.md"), "{c:#?}");
    assert!(
        cs.iter().all(|c| !json(&c.require).contains("octocat")),
        "{cs:#?}"
    );
    // A scoped package in a command is no file: `npx @acme/inspector`.
    let c = at(&cs, 13).expect("inspector");
    assert!(json(&c.require).contains("npx @acme/inspector"), "{c:#?}");
}

#[test]
fn a_heading_that_gives_reasons_has_no_rules_under_it() {
    // "### Always use the helper script because it:" / "- Handle all
    // configuration automatically": the items say why, they are no rules;
    // another colon heading's items still are.
    let cs = fixture("reasons-heading");
    assert!(at(&cs, 8).is_none() && at(&cs, 9).is_none(), "{cs:#?}");
    assert!(at(&cs, 12).is_some(), "{cs:#?}");
}

#[test]
fn occasions_and_purposes_under_a_lead_in_are_no_rules() {
    // "ALWAYS. Use this skill:" / "- After EVERY code modification": when
    // the skill applies. "This helps ensure we're:" / "- On the right
    // branch": what the step is for. Neither list holds rules; the step
    // before the purpose is one.
    let cs = fixture("use-this-skill");
    for line in [7, 8, 9, 12, 13] {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
    assert!(at(&cs, 11).is_some_and(|c| c.require.is_some()), "{cs:#?}");
}

#[test]
fn insistence_after_a_dash_acts_on_nothing() {
    // "YOU CANNOT WRITE TESTS WITHOUT test-writer SKILL - No exceptions, no
    // shortcuts, every test, every time": "every test" runs no test (it had
    // forbidden every test run); the skill named is used before a test is
    // written.
    let cs = fixture("insistence");
    let c = at(&cs, 7).expect("rule");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert!(json(&c.when).contains("**/tests/**"), "{c:#?}");
    assert_eq!(c.require, Some(p("{skill: test-writer}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn labelled_examples_are_the_wrong_way_or_the_right_one() {
    // Under "## VIOLATIONS: What NOT To Do": "- WRONG: *Makes 5 changes,
    // then tests once*" is the wrong option (no rule); "- RIGHT: *Make
    // change → test + lint → …*" is the right way — never the heading's
    // forbid (which forbade every edit).
    let cs = fixture("right-wrong");
    for line in [10, 14] {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
    for line in [11, 15] {
        let c = at(&cs, line).expect("right way");
        assert!(c.forbid.is_none() && c.require.is_some(), "{c:#?}");
        assert_eq!(c.modality, Modality::Must, "{c:#?}");
    }
    let c = at(&cs, 11).expect("tests");
    assert_eq!(c.require, Some(p("{command: 'just test*'}")), "{c:#?}");
}

#[test]
fn a_file_read_for_a_purpose_is_only_the_read() {
    // "Read `docs/STANDARDS.md` for the full standards this release must
    // satisfy, specifically the Published Package section": what the file
    // is read for names no act of the rule (it had required a publish).
    let cs = fixture("read-for");
    let c = at(&cs, 7).expect("read");
    assert_eq!(c.require, Some(p("{read: docs/STANDARDS.md}")), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn a_cross_marks_what_not_to_do() {
    // "- ❌ Pushing to main directly": a push to main is forbidden (the old
    // build *required* one, from the first edit on).
    let cs = fixture("crossed-out");
    let c = at(&cs, 9).expect("push to main");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(
        c.require.is_none() && json(&c.forbid).contains("main"),
        "{c:#?}"
    );
    // "- ❌ Skipping the linter": never skip it — run it.
    let c = at(&cs, 10).expect("linter");
    assert!(json(&c.require).contains("lint"), "{c:#?}");
    // "❌ **Committing `.env` files**" on its own line: a rule too.
    let c = at(&cs, 12).expect(".env");
    assert!(json(&c.forbid).contains(".env"), "{c:#?}");
    // A crossed-out thought in quotes stays no act.
    assert!(at(&cs, 14).is_none_or(|c| c.forbid.is_none() && c.require.is_none()));
}

#[test]
fn a_run_paragraph_runs_the_block_under_it() {
    // "Run every check in order. Each one must pass before continuing." over
    // `make verify`: the paragraph runs the block though it ends in a full
    // stop, and "before continuing" is the next step, no condition.
    let cs = fixture("run-paragraph");
    let c = at(&cs, 8).expect("run");
    assert_eq!(c.require, Some(p("{command: 'make verify*'}")), "{c:#?}");
    // Under an example heading the block is output, no rule.
    assert!(at(&cs, 16).is_none());
}

#[test]
fn what_not_to_attempt_by_hand_is_the_means_not_the_act() {
    // "### Do NOT attempt to:" / "- Manually edit environment files": the
    // manual way is barred, not every `.env` change (it forbade each one).
    let cs = fixture("attempt-not");
    let c = at(&cs, 9).expect("env files");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert!(json(&c.when).contains(".env"), "{c:#?}");
    // "- Use the shell to remove folders directly": removing a folder is a
    // delete.
    let c = at(&cs, 10).expect("folders");
    assert_eq!(c.forbid, Some(p("{delete: '**'}")), "{c:#?}");
}

#[test]
fn a_flag_only_one_command_takes_names_that_command() {
    // "Use `--force-with-lease`, not `--force`": the force is forbidden on a
    // push (it was forbidden on every command, with no scope), never the
    // lease.
    let cs = fixture("force-lease");
    let c = at(&cs, 9).expect("lease");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{all: [{command_re: '^git push\b'}, {command_re: '(^|\s)\-\-force(=|\s|$)'}]}"#
        )),
        "{c:#?}"
    );
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // "Merge with `--no-ff` only": a merge without the flag is forbidden —
    // no merge is required from the first edit on.
    let c = at(&cs, 10).expect("no-ff");
    assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
    assert!(
        json(&c.forbid).contains("git merge") && json(&c.forbid).contains("not"),
        "{c:#?}"
    );
}

#[test]
fn deploying_is_an_act_and_a_dont_list_says_never() {
    let cs = fixture("deploying");
    let deploys = |p: &Option<Predicate>| {
        let Some(Predicate::CommandRe(re)) = p else {
            return false;
        };
        let re = regex::Regex::new(re).unwrap();
        re.is_match("vercel deploy --prod")
            && re.is_match("fly deploy")
            && re.is_match("npm run deploy")
            && !re.is_match("npm test")
    };
    // "Run the full test suite before deploying": tests before the deploy.
    let c = at(&cs, 8).expect("tests before deploying");
    assert!(deploys(&c.when), "{c:#?}");
    assert!(json(&c.require).contains("pytest"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "Keep the deployment guide up to date": a thing named, no deploy.
    assert!(at(&cs, 9).is_none_or(|c| !deploys(&c.when) && !deploys(&c.require)));
    // "### DON'T" / "- Push with failing tests": the tests pass before the
    // push (it was a rule on any push or any failed run, requiring nothing).
    let c = at(&cs, 13).expect("push");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert!(json(&c.require).contains("failed"), "{c:#?}");
    let c = at(&cs, 12).expect("deploy");
    assert!(deploys(&c.when) && c.require.is_some(), "{c:#?}");
    // A deploy is no change of the repository.
    assert!(c.scope.is_empty(), "{c:#?}");
    // "After deployment:" / "1. Run the smoke tests": after a deploy.
    let c = at(&cs, 18).expect("after deployment");
    assert!(deploys(&c.when), "{c:#?}");
    // "## Pre-Deployment Checklist" / "### Code Quality" / "- [ ] All tests
    // passing": the topic under the checklist holds before the deploy too.
    let c = at(&cs, 23).expect("checklist item");
    assert!(deploys(&c.when), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
}

#[test]
fn a_goal_label_states_what_the_phase_is_for() {
    // "Goal: Create an annotated tag …": no step and no policy — it forbade
    // every lightweight tag (and so flagged a session that made none).
    let cs = fixture("goal-label");
    let c = at(&cs, 8).expect("goal");
    assert!(
        c.forbid.is_none() && c.require.is_none() && c.when.is_none(),
        "{c:#?}"
    );
    // "Always create annotated tags": the policy still is one.
    let c = at(&cs, 10).expect("policy");
    assert!(json(&c.forbid).contains("git tag"), "{c:#?}");
}

#[test]
fn a_file_the_work_draws_on_is_read() {
    // "Create the hook structure using patterns from `PATTERNS.md`": the
    // patterns are read; the old build required a write of PATTERNS.md.
    let cs = fixture("path-sources");
    let c = at(&cs, 8).expect("patterns");
    assert_eq!(c.require, Some(p("{read: '**/PATTERNS.md'}")), "{c:#?}");
    // "Write `notes.md`": the file written.
    let c = at(&cs, 9).expect("notes");
    assert_eq!(c.require, Some(p("{write: '**/notes.md'}")), "{c:#?}");
    // "Identify the event from `references/events.md`": a document looked
    // up, whatever the verb.
    let c = at(&cs, 11).expect("identify");
    assert_eq!(c.require, Some(p("{read: references/events.md}")), "{c:#?}");
}

#[test]
fn a_step_verb_that_names_a_stage_is_still_a_verb() {
    // "2. **Stage relevant files**:" over `git add …`: "stage" with no number
    // after it is the step's verb, not "Stage 2" of a heading (the step was
    // dropped); "**Analyze the changes**:" runs its block.
    let cs = fixture("stage-step");
    let c = at(&cs, 13).expect("stage");
    assert!(json(&c.require).contains("git add"), "{c:#?}");
    let c = at(&cs, 8).expect("analyze");
    assert!(json(&c.require).contains("--stat"), "{c:#?}");
}

#[test]
fn an_act_after_the_users_approval_is_a_consent_gate() {
    // "After user approval, apply the changes": the edits wait for a user
    // turn (one covers the batch); "Once the user confirms, push the
    // branch": each push does. The old build read neither.
    let cs = fixture("after-approval");
    let c = at(&cs, 9).expect("apply");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    let c = at(&cs, 10).expect("push");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    // "When the user asks for a release, run the tests first": what they
    // ask for is no consent to the tests.
    assert!(at(&cs, 11).is_none_or(|c| c.require != Some(p("{user_turn: true}"))));
}

#[test]
fn only_after_approval_gates_the_changes_of_its_steps() {
    // "Only after user approval:" / "1. Make the necessary code changes":
    // the edits wait for a user turn — the old build read `make` the
    // program ("Make the necessary code changes*"), which nothing runs.
    let cs = fixture("after-approval");
    let c = at(&cs, 17).expect("changes");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("edit"), "{c:#?}");
    assert!(!json(&c.when).contains("Make the"), "{c:#?}");
    // "2. Run the affected tests": a test run needs no consent.
    let c = at(&cs, 18).expect("tests");
    assert_ne!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
}

#[test]
fn a_labelled_run_when_the_skill_is_invoked_runs_its_block() {
    // "**AGENT: When this skill is invoked with `/land`, immediately run:**"
    // over `./scripts/land.sh`: the skill's load is no condition; the label
    // kept the block unread.
    let cs = fixture("invoked-run");
    let c = at(&cs, 8).expect("run");
    assert_eq!(c.require, Some(p("{command: '*land.sh*'}")), "{c:#?}");
    // "**Step 3:** If the gate fails, run:": a case after its label is
    // still one — nothing due from the load.
    let c = at(&cs, 13).expect("case");
    assert!(c.require.is_none() || c.when.is_some(), "{c:#?}");
}

#[test]
fn a_means_then_its_step_runs_the_block() {
    // "Use the GitHub CLI to get the PR details:" over `gh pr view …`: the
    // step the means takes runs the block; "Use the bundled helper for
    // one-off runs:" only names a means.
    let cs = fixture("run-paragraph");
    let c = at(&cs, 24).expect("gh");
    assert!(json(&c.require).contains("gh pr view"), "{c:#?}");
    assert!(at(&cs, 30).is_none_or(|c| c.require.is_none()));
}

#[test]
fn a_list_of_tool_names_holds_no_rules() {
    // "## Tools" over "- Read", "- Grep", "- Edit": the harness's tools the
    // skill uses — the old build required a Grep call before every edit.
    let cs = fixture("instructions-tidier");
    for line in 10..=13 {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
}

#[test]
fn asking_before_a_bare_update_gates_the_edits() {
    // "ask the user for confirmation before updating": no object named —
    // the skill's own edits wait on the user's word; in a skill that edits
    // AGENTS.md that is a change to the agent's configuration.
    let cs = fixture("instructions-tidier");
    let c = at(&cs, 17).expect("gate");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("edit"), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    let c = at(&cs, 19).expect("changes");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
}

#[test]
fn committing_secrets_names_the_files_it_gives() {
    // "Never commit secrets such as `.env` files or `service-account.json`":
    // the files named narrow the act (staging them by name); without names,
    // the well-known secret files.
    let cs = fixture("secret-files");
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 10 && c.text.contains("secrets"))
        .expect("named");
    let forbid = json(&c.forbid);
    assert!(forbid.contains("account"), "{c:#?}");
    assert!(!forbid.contains("pem"), "{c:#?}");
    let c = at(&cs, 11).expect("general");
    assert!(json(&c.forbid).contains("pem"), "{c:#?}");
    assert!(c.when.is_none() && c.require.is_none(), "{c:#?}");
}

#[test]
fn a_flag_of_the_act_named_goes_with_the_skills_command_for_it() {
    // "Always merge with `--merge` only" in a skill that merges with
    // `gh pr merge`: the flag is that command's — the old build forbade
    // every `git merge` without `--merge`.
    let cs = fixture("merge-strategy");
    let c = at(&cs, 20).expect("strategy");
    let forbid = json(&c.forbid);
    assert!(forbid.contains("^gh pr merge"), "{c:#?}");
    assert!(!forbid.contains("^git merge"), "{c:#?}");
    // "Offer to delete it and merge with `--delete-branch`" in a case: how
    // it is done this once, no forbid of merges without the flag.
    let c = at(&cs, 14);
    assert!(c.is_none_or(|c| c.forbid.is_none()), "{c:#?}");
}

#[test]
fn blocking_an_act_is_not_doing_it() {
    // "do NOT block the merge for it": the merge goes ahead — the old build
    // forbade every merge.
    let cs = fixture("merge-strategy");
    for c in cs.iter().filter(|c| c.lines[0] == 15) {
        assert!(c.forbid.is_none() && c.require.is_none(), "{c:#?}");
    }
}

#[test]
fn a_negative_clause_after_never_is_avoided_not_required() {
    // "Always rebase the branch, never merge trunk into it": the old build
    // required a merge (or a rebase); the merge is what the rule forbids.
    let cs = fixture("merge-strategy");
    let c = at(&cs, 19).expect("strategy");
    assert!(json(&c.forbid).contains("squash"), "{c:#?}");
    assert!(c.require.is_none(), "{c:#?}");
    let c = at(&cs, 21).expect("rebase");
    assert!(json(&c.forbid).contains("merge"), "{c:#?}");
    assert!(!json(&c.require).contains("merge"), "{c:#?}");
    let c = at(&cs, 22).expect("stage");
    assert!(json(&c.forbid).contains("commit"), "{c:#?}");
    assert!(!json(&c.require).contains("commit"), "{c:#?}");
}

#[test]
fn a_modal_after_a_spaced_dash_opens_a_rule_of_its_own() {
    // "**ALWAYS run the publish.sh script** - Do NOT push to the `gh-pages`
    // branch by hand": two rules — the old build kept one, with neither
    // the script run nor the push forbidden.
    let cs = fixture("dash-rules");
    let on: Vec<&Constraint> = cs.iter().filter(|c| c.lines[0] == 8).collect();
    assert_eq!(on.len(), 2, "{on:#?}");
    assert!(json(&on[0].require).contains("publish.sh"), "{on:#?}");
    // The push of that branch only, not every push.
    assert_eq!(
        on[1].forbid,
        Some(p("{all: [{git: push}, {branch: gh-pages}]}")),
        "{on:#?}"
    );
    // "**Small batches** - Never publish …": a bold label and its rule.
    assert_eq!(cs.iter().filter(|c| c.lines[0] == 10).count(), 1);
}

#[test]
fn committing_a_kind_of_content_forbids_no_commit() {
    // "Never commit build output": which files are output no commit shows
    // — the old build forbade every commit.
    let cs = fixture("dash-rules");
    let c = at(&cs, 11).expect("output");
    assert!(c.forbid.is_none(), "{c:#?}");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
}

#[test]
fn do_not_activate_for_names_where_the_skill_does_not_apply() {
    // "Do not activate for: editing existing files, …": the old build
    // forbade every edit.
    let cs = fixture("activate-not-for");
    let c = at(&cs, 8).expect("not for");
    assert!(
        c.forbid.is_none() && c.require.is_none() && c.when.is_none(),
        "{c:#?}"
    );
}

#[test]
fn consent_before_a_flag_is_for_the_command_it_belongs_to() {
    // "ask for confirmation before using `-D`" under `git branch -d`: the
    // old build gated every command with a `-D` (`npm install -D` too),
    // with no scope.
    let cs = fixture("flag-consent");
    let c = at(&cs, 14).expect("gate");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("^git branch"), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn a_commit_or_stage_noun_stages_no_named_file() {
    // "Do not leave these to the review stage; the `schema-check.yml` gate
    // …", "… reach a commit message": "stage" and "commit" are nouns — the
    // old build forbade staging the files named.
    let cs = fixture("noun-stage");
    for line in [8, 10] {
        let c = at(&cs, line).expect("rule");
        assert!(c.forbid.is_none(), "{c:#?}");
    }
    // "Never commit `local.env`": the verb, the file staged by name.
    let c = at(&cs, 12).expect("commit");
    assert!(json(&c.forbid).contains("local"), "{c:#?}");
    // "Never stage unrelated files": a staging (which files are unrelated
    // no act shows) — the old build read no act at all.
    let c = at(&cs, 14).expect("stage");
    assert_eq!(c.when, Some(p("{git: add}")), "{c:#?}");
    assert!(c.forbid.is_none(), "{c:#?}");
}

#[test]
fn a_label_stating_a_case_keeps_its_prohibition_to_that_case() {
    // "`Status: needs-info`: do not implement", "**Blocked**: do not
    // merge": the old build forbade every edit and every merge; the case is
    // a condition no action shows.
    let cs = fixture("case-labels");
    for line in [9, 10] {
        let c = at(&cs, line).expect("case");
        assert!(c.forbid.is_none() && c.when.is_some(), "{c:#?}");
    }
    // "**Safety**: never force-push": a topic, the prohibition holds.
    let c = at(&cs, 11).expect("topic");
    assert!(json(&c.forbid).contains("--force"), "{c:#?}");
}

#[test]
fn an_aside_with_a_prohibition_of_its_own_is_no_condition() {
    // "… before merging (warn if it is closed, do not block)": the aside is
    // a rule of its own — the old build read "it is closed" as the rule's
    // condition and dropped the merge it holds before.
    let cs = fixture("aside-rule");
    let c = at(&cs, 8).expect("check");
    assert!(json(&c.when).contains("merge"), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn a_skill_about_the_harness_configuration_writes_the_agents_own_files() {
    // Description "Review a project's Claude Code configuration …": its
    // rules that write and name no other file change the agent's own
    // configuration — the old build tagged none of them.
    let cs = fixture("harness-config");
    // ("Never silently overwrite an existing file": a consent gate on the
    // writes, which are to the agent's configuration.)
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("Never silently overwrite"))
        .expect("overwrite");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SelfModification], "{c:#?}");
    // Wording the findings is no write.
    assert!(at(&cs, 8).is_none_or(|c| c.scope.is_empty()));
}

#[test]
fn a_prohibition_after_but_is_a_rule_of_its_own() {
    // "Draft the release notes, but never push the tag yourself": the old
    // build required a tag push from the first edit.
    let cs = fixture("but-never");
    assert!(
        cs.iter().all(|c| !json(&c.require).contains("push")),
        "{cs:#?}"
    );
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("never push"))
        .expect("never");
    assert!(json(&c.forbid).contains("push"), "{c:#?}");
}

#[test]
fn an_act_done_as_a_fix_is_forbidden_for_that_purpose_only() {
    // "Never rewrite test assertions or add packages as a quick fix": the
    // purpose no action shows — the old build forbade every edit of a test
    // file and every install.
    let cs = fixture("purpose-fix");
    let c = at(&cs, 8).expect("purpose");
    assert!(c.forbid.is_none() && c.when.is_some(), "{c:#?}");
    // Without the purpose, the install is forbidden.
    let c = at(&cs, 9).expect("plain");
    assert!(c.forbid.is_some(), "{c:#?}");
}

#[test]
fn an_otherwise_label_is_a_case_no_action_shows() {
    // "- Otherwise: use the flaky-hunter skill to find the cause": the old
    // build required the skill after any edit, though the case (the run
    // did not pass) may never come.
    let cs = fixture("case-labels");
    let c = at(&cs, 13).expect("otherwise");
    assert!(c.require.is_none(), "{c:#?}");
}

#[test]
fn an_adjective_before_a_code_span_describes_the_command() {
    // "… or the experimental `git replay` command": the span names the
    // command; the old build read "experimental" as picking out some acts
    // and forbade nothing.
    let cs = fixture("adjective-before-code");
    let c = at(&cs, 8).expect("replay");
    assert!(json(&c.forbid).contains("replay"), "{c:#?}");
    // "experimental work" still picks out some commits only.
    let c = at(&cs, 9).expect("work");
    assert!(c.forbid.is_none(), "{c:#?}");
}

#[test]
fn a_lead_in_over_a_block_does_not_govern_the_list_after_it() {
    // "When the working tree holds two topics, stage the first one by
    // path:" over a shell block, then "- Do not use `git add --patch`.":
    // the old build put the list under the lead-in's case and forbade
    // nothing.
    let cs = fixture("lead-in-over-block");
    let c = at(&cs, 14).expect("patch");
    assert!(json(&c.forbid).contains("--patch"), "{c:#?}");
    assert!(c.when.is_none(), "{c:#?}");
}

#[test]
fn changing_the_history_or_the_git_configuration_names_their_commands() {
    // "Never alter the branch history …", "do not modify git settings":
    // the old build found no act in either.
    let cs = fixture("history-and-config");
    let c = at(&cs, 8).expect("history");
    assert!(json(&c.when).contains("rebase"), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 9 && c.forbid.is_some())
        .expect("config");
    assert!(json(&c.forbid).contains("git config"), "{c:#?}");
    assert!(c.scope.is_empty(), "{c:#?}");
    // A history file is no history.
    assert!(
        at(&cs, 10).is_none_or(|c| c.when.is_none() && c.forbid.is_none() && c.require.is_none())
    );
}

#[test]
fn a_reply_to_review_comments_is_posted_on_the_host() {
    // "Never reply to review comments from this skill": the old build read
    // "reply" as speech and kept no predicate and no scope.
    let cs = fixture("reply-on-host");
    let c = at(&cs, 8).expect("reply");
    assert!(json(&c.forbid).contains("gh pr comment"), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // A reply to the user is speech.
    assert!(
        at(&cs, 9).is_none_or(|c| c.forbid.is_none() && c.require.is_none() && c.scope.is_empty())
    );
}

#[test]
fn a_short_condition_over_a_block_runs_it_before_the_act() {
    // "Before pushing, run:" over `go vet` / `gofmt`: the old build read
    // the three words as a bare lead-in with no list and kept no rule.
    let cs = fixture("run-before-block");
    let c = at(&cs, 8).expect("run before push");
    assert!(json(&c.when).contains("push"), "{c:#?}");
    assert!(json(&c.require).contains("go vet"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // "Run after merging:" — the condition after the verb.
    let c = at(&cs, 15).expect("run after merge");
    assert!(json(&c.when).contains("merge"), "{c:#?}");
    assert!(json(&c.require).contains("git branch -d"), "{c:#?}");
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
}

#[test]
fn branches_named_in_a_list_are_the_ones_deletion_is_forbidden_for() {
    // "**Long-Lived Branches** - Never remove trunk, staging, or team-owned
    // branches": the old build read the title as a situation and the last
    // item as a qualifier, and kept no predicate.
    let cs = fixture("branch-lists");
    let c = at(&cs, 8).expect("named list");
    let f = json(&c.forbid);
    assert!(
        f.contains("git branch -d trunk") && f.contains("git push * --delete staging"),
        "{c:#?}"
    );
    assert!(!f.contains("\"git\":\"branch\""), "only the names: {c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
    // Protected branches, force-deleted: `-D` of the default branches, not
    // every deletion (the old build forbade each `git branch -d`).
    let c = at(&cs, 9).expect("protected");
    assert_eq!(
        c.forbid,
        Some(p(
            r#"{all: [{git: branch, args: ["--delete", "--force"]}, {any: [{command: "git branch * main"}, {command: "git branch * master"}]}]}"#
        )),
        "{c:#?}"
    );
    // "ask the user before remote deletion": a consent gate on a push that
    // deletes a ref, after a bold label and "Always".
    let c = at(&cs, 10).expect("remote deletion");
    assert!(json(&c.when).contains("git push * --delete"), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    // A kind of branch no act shows stays when-only.
    let c = at(&cs, 11).expect("kind");
    assert!(c.forbid.is_none(), "{c:#?}");
    // "Mistake -- never run X without approval": an ASCII dash glosses the
    // label; the old build required `gh pr create` after any write.
    let c = at(&cs, 16).expect("gloss");
    assert!(json(&c.when).contains("gh pr create"), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    // "a branch you do not own": whose it is is not in the act, so no
    // forbid of every push (and no requirement to push: the old build).
    let c = at(&cs, 17).expect("not own");
    assert!(c.forbid.is_none() && c.require.is_none(), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn a_skill_that_says_it_never_acts_forbids_the_act() {
    // "It does not push or commit": the old build kept no rule; "This
    // skill never merges or deletes branches" became a *requirement* to
    // merge (the "never" read as "always").
    let cs = fixture("self-boundary");
    let c = at(&cs, 8).expect("does not push");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    let f = json(&c.forbid);
    assert!(f.contains("\"push\"") && f.contains("\"commit\""), "{c:#?}");
    let c = at(&cs, 9).expect("never merges");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(c.require.is_none(), "{c:#?}");
    assert!(
        json(&c.forbid).contains("merge") && json(&c.forbid).contains("--delete"),
        "{c:#?}"
    );
    // Facts about the skill stay no rule.
    assert!(at(&cs, 10).is_none() && at(&cs, 11).is_none(), "{cs:#?}");
    // A "secret-scrubbed" summary is no secret: the skill's topic is not
    // sensitive memory (the old build tagged every rule of it).
    let c = at(&cs, 12).expect("record");
    assert!(c.scope.is_empty(), "{c:#?}");
}

#[test]
fn parts_of_a_message_format_are_wording_rules() {
    // "Shape: `<kind>(<area>): <headline>`", "`<kind>` is one of: …",
    // "Title: under 60 characters" under "Message format": how the message
    // is written (the old build kept none of these three).
    let cs = fixture("message-parts");
    for line in [8, 10, 13] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("line {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::Must, "{c:#?}");
        assert!(
            c.when.is_none() && c.require.is_none() && c.forbid.is_none(),
            "{c:#?}"
        );
        assert!(c.scope.is_empty(), "{c:#?}");
    }
    // A note on a tool, outside a format section, is no rule.
    assert!(at(&cs, 17).is_none(), "{cs:#?}");
}

#[test]
fn an_approval_step_gates_the_act_a_named_step_runs() {
    // "**Review** -- … Wait for their approval." then "**Open** -- Run `gh
    // pr create --fill`": the old build read the step's name as its verb,
    // found no act after the gate and held it to every code edit.
    let cs = fixture("named-steps");
    let c = at(&cs, 9).expect("gate");
    assert!(json(&c.when).contains("gh pr create"), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn stated_cases_keep_their_rules() {
    let cs = fixture("stated-cases");
    // A case label glossed in parentheses with commas is still a label:
    // "Everything else (draft work, stale, unknown owner): never remove
    // them" is a prohibition (the old build read a requirement).
    let c = at(&cs, 9).expect("everything else");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    let c = at(&cs, 8).expect("fully merged");
    assert!(json(&c.require).contains("branch"), "{c:#?}");
    // "If …, <what that means> — say so and stop": the instruction after
    // the dash holds under the condition (the old build kept no rule).
    let c = at(&cs, 11).expect("stated case");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert!(c.forbid.is_none() && c.require.is_none(), "{c:#?}");
    // "If …, archive it first — but check … before doing so": a condition
    // and its rule, not a list of acts before the dash.
    let c = at(&cs, 13).expect("archive first");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    // "If …, summarize: file, owner, and age": the condition ends at the
    // comma; "file" after the colon is no verb.
    assert!(at(&cs, 15).is_some(), "{cs:#?}");
    // "To prune a single remote (not origin): `git remote prune …`": the
    // means to a purpose no action shows — never required after any work.
    let c = at(&cs, 17).expect("purpose");
    assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
    // A setext heading ("Keep the owner map current" over dashes) heads a
    // section; it is no rule.
    assert!(at(&cs, 19).is_none() && at(&cs, 20).is_none(), "{cs:#?}");
    assert!(at(&cs, 22).is_some(), "{cs:#?}");
    // "For a `develop` → `main` merge, run …": the arrow joins two names,
    // no case and its answer (the old build kept no rule).
    let c = at(&cs, 24).expect("arrow between names");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
}

#[test]
fn consent_said_in_an_aside_or_a_closing_with_gates_the_act() {
    let cs = fixture("consent-forms");
    // "Tag the release if the build is green (user confirms)": the case no
    // action shows leaves no requirement, yet every tag waits on the
    // user's word (the old build required a tag after every build).
    let c = at(&cs, 9).expect("tag");
    assert_eq!(c.when, Some(p("{git: tag}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    // "Remove the release branch with user approval": a gate on the
    // deletion, not a deletion required after any edit.
    let c = at(&cs, 10).expect("remove");
    assert!(json(&c.when).contains("delete"), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
}

#[test]
fn a_skill_without_frontmatter_is_described_by_its_opening() {
    // No frontmatter: the opening paragraph says what the skill does. It
    // is no step required after any edit, and "Confirm with the user
    // before opening" gates the act it names (the old build kept no gate).
    let cs = fixture("no-frontmatter");
    let c = at(&cs, 3).expect("opening");
    assert!(c.require.is_none(), "{c:#?}");
    let c = at(&cs, 9).expect("confirm");
    assert!(json(&c.when).contains("gh pr create"), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert_eq!(c.scope, vec![ScopeTag::SharedRepoState], "{c:#?}");
}

#[test]
fn branches_named_in_code_are_the_ones_guarded() {
    let cs = fixture("coded-branches");
    // "delete `main` or `hotfix`": both names (the old build kept `main`,
    // a well-known name, and dropped `hotfix`).
    let c = at(&cs, 7).expect("delete");
    let f = json(&c.forbid);
    assert!(
        f.contains("git branch -D hotfix") && f.contains("git branch -D main"),
        "{c:#?}"
    );
    // "remove `qa`, `uat`, or `perf` branches", "push to `release/*`
    // branches": branches named, not a kind no act shows — a forbid, not
    // a bare trigger (the old build forbade nothing).
    let c = at(&cs, 8).expect("remove");
    let f = json(&c.forbid);
    assert!(
        ["qa", "uat", "perf"]
            .iter()
            .all(|n| f.contains(&format!("git branch -d {n}"))),
        "{c:#?}"
    );
    assert!(c.when.is_none(), "{c:#?}");
    let c = at(&cs, 9).expect("push");
    assert_eq!(
        c.forbid,
        Some(p("{all: [{git: push}, {branch: 'release/*'}]}")),
        "{c:#?}"
    );
}

#[test]
fn a_stop_that_asks_the_user_to_report_back_gates_the_next_step() {
    // "**STOP** — Tell the user: "… Let me know when it is approved."": the
    // session waits for the user's word before the next step's acts (the
    // old build kept a rule with no behavior).
    let cs = fixture("report-back");
    let c = at(&cs, 12).expect("stop");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    let w = json(&c.when);
    assert!(w.contains("glab mr merge") && w.contains("tag"), "{c:#?}");
    assert!(!w.contains("mr create"), "{c:#?}");
}

#[test]
fn a_fence_holding_only_a_heading_is_a_stray_fence() {
    // A "```" too many before "### Error: …" pairs every later fence the
    // wrong way round: the sample messages became text and the rules at
    // the end code (the old build kept "Run the login command" and dropped
    // both rules).
    let cs = fixture("stray-fence");
    assert!((15..=22).all(|l| at(&cs, l).is_none()), "{cs:#?}");
    let c = at(&cs, 27).expect("never push");
    assert!(json(&c.forbid).contains("push"), "{c:#?}");
    assert!(at(&cs, 28).is_some(), "{cs:#?}");
}

#[test]
fn pushed_commits_are_a_state_not_a_push() {
    // What a force push rewrites was pushed, always: "already-pushed"
    // qualifies nothing (the old build kept a bare trigger).
    let cs = fixture("pushed-commits");
    let c = at(&cs, 6).expect("force-push");
    assert_eq!(
        c.forbid,
        Some(p("{git: push, args: ['--force']}")),
        "{c:#?}"
    );
    // "pushed branches", "the published commits": no push of their own
    // (the old build forbade or triggered on every push).
    for line in [7, 8] {
        let c = at(&cs, line).expect("rule");
        let all = format!("{}{}", json(&c.when), json(&c.forbid));
        assert!(!all.contains("\"push\""), "{c:#?}");
    }
    assert!(json(&at(&cs, 7).unwrap().when).contains("rebase"));
}

#[test]
fn lines_led_by_marks_are_a_list() {
    // "❌ …" and "✅ …" lines with no list markers: one rule each (the old
    // build read each run as one paragraph and kept one rule of it).
    let cs = fixture("marked-lines");
    for line in [8, 9, 10, 15] {
        let c = at(&cs, line).expect("rule");
        assert_eq!(c.lines, [line, line], "{c:#?}");
    }
    let c = at(&cs, 8).expect("committing");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    assert!(json(&c.require).contains("diff"), "{c:#?}");
    let c = at(&cs, 9).expect("pushing");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert!(json(&c.require).contains("branch"), "{c:#?}");
    assert!(json(&at(&cs, 10).unwrap().forbid).contains("-A"));
    let c = at(&cs, 15).expect("push only");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
}

#[test]
fn a_skill_that_is_the_way_to_an_act_is_loaded_before_it() {
    // "You MUST use this skill to open pull requests", "If you need to
    // create a PR, invoke this skill": the skill, by its frontmatter name,
    // loaded before each PR is opened (the old build kept no rule).
    let cs = fixture("own-skill");
    for line in [6, 8] {
        let c = at(&cs, line).expect("rule");
        assert_eq!(c.when, Some(p("{command: 'gh pr create*'}")), "{c:#?}");
        assert_eq!(c.require, Some(p("{skill: open-pr}")), "{c:#?}");
        assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    }
    // How the skill is loaded is no rule.
    assert!(at(&cs, 10).is_none(), "{cs:#?}");
}

#[test]
fn draft_before_the_noun_is_the_form_of_the_act() {
    // "Always create draft PRs", "Default to a draft PR": a PR opened
    // without `--draft` breaks them (the old build required some PR after
    // any edit, or nothing).
    let cs = fixture("draft-forms");
    for line in [6, 8] {
        let c = at(&cs, line).expect("rule");
        let f = json(&c.forbid);
        assert!(
            f.contains("gh pr create") && f.contains("--draft"),
            "{c:#?}"
        );
    }
    // "Review the draft PR": no form of any act.
    assert!(at(&cs, 10).is_none_or(|c| c.forbid.is_none()), "{cs:#?}");
}

#[test]
fn a_prohibition_in_the_passive_forbids_the_act_on_its_object() {
    // "The `main` branch is never force-pushed", "API keys must never be
    // committed": prohibitions with the object first (the old build read
    // them as musts, requiring a force push to main and a commit).
    let cs = fixture("passive-never");
    let c = at(&cs, 6).expect("force-push");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    let f = json(&c.forbid);
    assert!(f.contains("--force") && f.contains("main"), "{c:#?}");
    assert!(c.require.is_none(), "{c:#?}");
    let c = at(&cs, 8).expect("api keys");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(json(&c.forbid).contains(".env"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    assert_eq!(at(&cs, 10).map(|c| c.modality), Some(Modality::MustNot));
    // With its agent it states what a script does.
    assert!(at(&cs, 12).is_none_or(|c| c.modality != Modality::MustNot && c.forbid.is_none()));
    // "… is never required": a need, not a prohibition.
    assert!(
        at(&cs, 14).is_none_or(|c| c.modality != Modality::MustNot),
        "{cs:#?}"
    );
}

#[test]
fn a_step_of_one_of_several_workflows_binds_around_its_workflows_act() {
    // "## Workflows" / "### Save Workflow": which workflow a session
    // follows no act shows, but the commit a later step runs does. The
    // look-ups before it are due before each commit, the check after it
    // after (the old build kept no predicate on any step).
    let cs = fixture("workflow-steps");
    for line in [16, 17] {
        let c = at(&cs, line).expect("look-up");
        assert_eq!(json(&c.when), json(&Some(p("{git: commit}"))), "{c:#?}");
        assert_eq!(c.order, Some(Order::Before), "{c:#?}");
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    }
    assert!(json(&at(&cs, 16).unwrap().require).contains("status"));
    let c = at(&cs, 22).expect("check");
    assert_eq!(json(&c.when), json(&Some(p("{git: commit}"))), "{c:#?}");
    assert_eq!(c.order, Some(Order::After), "{c:#?}");
    assert!(json(&c.require).contains("log"), "{c:#?}");
    // The commit step itself stays unverifiable: it is the workflow's act.
    let c = at(&cs, 21).expect("commit step");
    assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
    // Tests before the push of their own workflow.
    let c = at(&cs, 26).expect("tests");
    assert_eq!(json(&c.when), json(&Some(p("{git: push}"))), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // A workflow with no act of its own binds nothing.
    assert!(at(&cs, 31).is_none_or(|c| c.require.is_none()), "{cs:#?}");
}

#[test]
fn a_numbered_step_title_over_its_list_is_no_rule() {
    // "**1. Look**" / "- Inspect …": the title of a step whose items say
    // what to do (the old build made each title a rule of its own).
    let cs = fixture("workflow-steps");
    for line in [14, 19] {
        assert!(at(&cs, line).is_none(), "line {line}: {cs:#?}");
    }
}

#[test]
fn a_flag_always_passed_to_a_named_command_forbids_that_command_without_it() {
    // "Always pass `--no-ff` to `git merge`", "Use `--signoff` on every
    // `git commit`": the command run without the flag breaks the rule (the
    // old build required a merge after any edit, or kept no predicate).
    let cs = fixture("flag-forms");
    for (line, cmd, flag) in [
        (6, "merge", "no\\\\-ff"),
        (8, "vault", "namespace"),
        (10, "commit", "signoff"),
        (14, "deploy.sh", "\\\\-env"),
    ] {
        let c = at(&cs, line).expect("rule");
        let f = json(&c.forbid);
        assert!(
            f.contains(cmd) && f.contains("\"not\"") && f.contains(flag),
            "line {line}: {c:#?}"
        );
        assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
    }
    // A step that says how, this once, forbids nothing.
    assert!(at(&cs, 12).is_some_and(|c| c.forbid.is_none()), "{cs:#?}");
}

#[test]
fn a_consent_before_an_act_named_by_its_noun_gates_that_act() {
    // "… ask the user for confirmation before deletion": the noun names the
    // act, here on the branches the sentence shows (the old build kept no
    // predicate).
    let cs = fixture("consent-nouns");
    let c = at(&cs, 6).expect("gate");
    assert_eq!(json(&c.require), json(&Some(Predicate::UserTurn)), "{c:#?}");
    assert!(json(&c.when).contains("--delete"), "{c:#?}");
    assert_eq!(c.order, Some(Order::BeforeEach), "{c:#?}");
    let c = at(&cs, 8).expect("tag gate");
    assert_eq!(json(&c.when), json(&Some(p("{git: tag}"))), "{c:#?}");
}

#[test]
fn a_case_label_inside_a_numbered_step_leaves_the_block_to_the_step() {
    // "### 1. List the outgoing commits" / "**Tracked branch:**" / its
    // block: the step runs the block (the old build kept no rule: the
    // label took the block and made nothing of it).
    let cs = fixture("case-label-step");
    let c = at(&cs, 8).expect("step");
    assert!(json(&c.require).contains("git log"), "{c:#?}");
}

#[test]
fn pruning_remote_tracking_branches_is_repo_state() {
    // `git fetch --prune`, `git remote prune`: the remote-tracking branches
    // gone from the remote are deleted (the old build tagged no scope).
    let cs = fixture("prune-scope");
    for line in [6, 8] {
        let c = at(&cs, line).expect("rule");
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    }
}

#[test]
fn an_error_table_holds_a_remedy_per_row() {
    // "| Error | Recovery |": each row is a rule (the old build read the
    // table as an explanation and kept none). A refused act is the trigger
    // only where it failed; a trouble no act shows triggers nothing, and
    // "Prompt to commit …" asks, it requires no commit.
    let cs = fixture("error-table");
    for line in [10, 11, 12] {
        assert!(at(&cs, line).is_some(), "line {line}: {cs:#?}");
    }
    let c = at(&cs, 10).unwrap();
    assert_eq!(
        json(&c.when),
        json(&Some(p("{all: [{git: push}, {failed: true}]}"))),
        "{c:#?}"
    );
    assert!(json(&c.require).contains("--rebase"), "{c:#?}");
    let c = at(&cs, 12).unwrap();
    assert!(!json(&c.require).contains("commit"), "{c:#?}");
}

#[test]
fn a_when_not_to_heading_over_things_forbids_the_act_on_each() {
    // "## When NOT to Record" / "- Access tokens or passwords": each item is
    // a thing never recorded (the old build read the heading as a case and
    // the items as no rules). "When Not to Use" stays the skill's scope.
    let cs = fixture("when-not-to");
    for line in [8, 9] {
        let c = at(&cs, line).expect("item");
        assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    }
    assert!(at(&cs, 9)
        .unwrap()
        .scope
        .contains(&ScopeTag::SensitiveMemory));
    assert!(at(&cs, 13).is_none(), "{cs:#?}");
}

#[test]
fn a_tool_the_skill_lists_is_called_by_its_bare_name() {
    // "## MCP Tools" / "### `find_ticket`": the rules' `close_ticket` and
    // `find_ticket` are those tools, whatever server prefix the harness adds
    // (the old build kept no predicate). A name the skill does not list
    // (`parse_args`) stays no tool.
    let cs = fixture("listed-tools");
    let c = at(&cs, 16).expect("order rule");
    assert_eq!(
        json(&c.when),
        json(&Some(p(r#"{tool: "*close_ticket"}"#))),
        "{c:#?}"
    );
    assert_eq!(
        json(&c.require),
        json(&Some(p(r#"{tool: "*find_ticket"}"#))),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert!(!json(&at(&cs, 17).expect("other").require).contains("tool"));
    // An all-capitals name under a tools heading is a variable, no tool.
    let c = at(&cs, 23).expect("token rule");
    assert!(!json(&c.require).contains("TRACKER_TOKEN"), "{c:#?}");
}

#[test]
fn a_way_around_a_safeguard_is_forbidden_whatever_case_the_rule_names() {
    let cs = fixture("bypass-under-condition");
    // "If the pre-commit hook fails, … Never use `--no-verify` to get past
    // it.", "When the lease check fails, do not retry with a plain
    // `--force`.": whether the case held no act shows, but the bypass is
    // the act the rule is about — a forbid (each was the trigger of a
    // judgement alone).
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 8 && c.text.contains("--no-verify"))
        .expect("no-verify rule");
    assert!(json(&c.forbid).contains("no\\\\-verify"), "{c:#?}");
    assert_eq!(c.when, None, "{c:#?}");
    let c = at(&cs, 10).expect("lease rule");
    assert!(json(&c.forbid).contains("force"), "{c:#?}");
    // "Never force-push a branch that teammates have already pulled.": a
    // qualified object — force-pushing a branch nobody pulled is no
    // breach — keeps the act as the trigger.
    let c = at(&cs, 11).expect("force-push rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: push, args: [--force]}")), "{c:#?}");
    // "If the linter is unavailable, do not commit.": an ordinary act
    // under a case no act shows stays the trigger of a judgement.
    let c = at(&cs, 12).expect("commit rule");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p("{git: commit}")), "{c:#?}");
    // "Never amend other developers' commits.": whose commit it is no
    // action shows; amending one's own is no breach.
    let c = at(&cs, 21).expect("others' commits rule");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn a_prohibition_in_closing_parentheses_is_a_rule_of_its_own() {
    let cs = fixture("bypass-under-condition");
    // "If a hook rejects the commit, make a new commit (never amend).": the
    // bracketed prohibition forbids the amend (it was lost in the
    // requirement), and its text has no brackets.
    let amend = cs
        .iter()
        .find(|c| c.lines[0] == 13 && c.modality == Modality::MustNot)
        .expect("bracketed prohibition");
    assert_eq!(amend.text, "never amend", "{amend:#?}");
    assert_eq!(
        amend.forbid,
        Some(p("{git: commit, args: [--amend]}")),
        "{amend:#?}"
    );
    // "… (do not write it to disk yet). Apply these edits:": the lead-in
    // after it is not drawn into the prohibition, so its item stays a must.
    let item = at(&cs, 17).expect("item");
    assert_eq!(item.modality, Modality::Must, "{item:#?}");
}

#[test]
fn a_barred_flag_and_a_bypass_after_rather_than_are_forbidden() {
    let cs = fixture("bypass-contrast");
    // "no `--amend`, no rebase, and no forced push": each barred (the flag
    // alone had been no act, and "forced push" had been any push).
    let c = at(&cs, 8).expect("list of bars");
    let f = json(&c.forbid);
    assert!(f.contains("amend") && f.contains("rebase"), "{c:#?}");
    assert!(f.contains("--force"), "{c:#?}");
    assert!(!f.contains(r#"{"git":"push"}"#), "{c:#?}");
    // "Never `--amend` here": a bare flag barred, of shared repo state.
    let c = at(&cs, 9).expect("bare flag");
    assert!(json(&c.forbid).contains("amend"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // "… rather than reaching for `--force`", "… instead of amending": the
    // bypass named after the contrast is forbidden (each had been
    // required).
    let c = at(&cs, 10).expect("rather than force");
    assert!(json(&c.forbid).contains("force"), "{c:#?}");
    assert_eq!(c.require, None, "{c:#?}");
    let c = at(&cs, 11).expect("instead of amending");
    assert_eq!(
        c.forbid,
        Some(p("{git: commit, args: [--amend]}")),
        "{c:#?}"
    );
    assert_eq!(c.require, None, "{c:#?}");
    // "Report the error rather than retrying the push": an ordinary act
    // after the contrast forbids nothing.
    let c = at(&cs, 12).expect("report rule");
    assert_eq!(c.forbid, None, "{c:#?}");
}

#[test]
fn a_deletion_with_no_object_deletes_what_the_skill_tidies() {
    let cs = fixture("skill-object");
    let branch_deletion = "{any: [{git: branch, args: [--delete]}, {command: 'git push * --delete*'}, {command: 'git push * :*'}]}";
    // "Check with the user before deleting.", "No automatic deletions.": in
    // a skill that tidies up branches, the deletion is of branches — a
    // consent gate on each (both had kept no act).
    for line in [8, 9] {
        let c = at(&cs, line).expect("consent rule");
        assert_eq!(c.when, Some(p(branch_deletion)), "line {line}: {c:#?}");
        assert_eq!(c.require, Some(Predicate::UserTurn), "line {line}: {c:#?}");
        assert!(
            c.scope.contains(&ScopeTag::SharedRepoState),
            "line {line}: {c:#?}"
        );
    }
    // "Ask the user to confirm the push.": the act confirmed is gated (it
    // had gated every edit).
    let c = at(&cs, 10).expect("confirm push");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    // "Never delete `main` or `trunk`.": the code spans are the object; the
    // forbid stays on those branches only.
    let c = at(&cs, 11).expect("protected branches");
    assert!(json(&c.forbid).contains("main"), "{c:#?}");
    assert_ne!(c.forbid, Some(p(branch_deletion)), "{c:#?}");
    // "Anything else (…): do not delete": the case no item covered, which
    // no act shows — the trigger of a judgement, not a forbid of every
    // deletion.
    let c = at(&cs, 12).expect("anything else");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.when, Some(p(branch_deletion)), "{c:#?}");
    // "removing or renaming a public API": the object is the API's.
    let c = at(&cs, 13).expect("api note");
    assert_eq!(c.when, None, "{c:#?}");
    assert_eq!(c.require, None, "{c:#?}");
    // "Ask the user to confirm the version number.": no act confirmed, no
    // new gate.
    let c = at(&cs, 14).expect("version number");
    assert!(!json(&c.when).contains("branch"), "{c:#?}");
    // "… before deleting it": the pronoun is a branch too.
    let c = at(&cs, 15).expect("before deleting it");
    assert_eq!(c.when, Some(p(branch_deletion)), "{c:#?}");
}

#[test]
fn a_short_failure_before_a_dash_is_the_case_of_the_prohibition_after_it() {
    let cs = fixture("failure-case");
    // "`scripts/check.sh` fails — do not tag a broken tree.": the tag needs
    // the check passed before it (the start kept no act: "tag" with no
    // release or version after it was no act).
    let c = at(&cs, 8).expect("failure case");
    assert_eq!(c.when, Some(p("{git: tag}")), "{c:#?}");
    assert_eq!(
        c.require,
        Some(p("{all: [{command: '*check.sh*'}, {not: {failed: true}}]}")),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "The deploy fails: check the logs and suggest a rollback.": only a
    // prohibition is read so; this keeps no act.
    let c = at(&cs, 9).expect("deploy case");
    assert_eq!(c.require, None, "{c:#?}");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "Do not tag; …": the act barred, alone; "Do not tag the container
    // image" is another sense of tagging.
    assert_eq!(at(&cs, 10).expect("no tag").forbid, Some(p("{git: tag}")));
    assert_eq!(at(&cs, 11).expect("image").forbid, None);
}

#[test]
fn rules_said_as_statements_keep_their_act_and_their_strength() {
    let cs = fixture("statement-forms");
    // "Tags should not be pushed.": a weak prohibition
    // in the passive (the start read "should" alone: a positive rule).
    let c = at(&cs, 8).expect("passive should-not");
    assert_eq!(c.modality, Modality::ShouldNot, "{c:#?}");
    assert!(json(&c.forbid).contains("--tags"), "{c:#?}");
    assert_eq!(c.require, None, "{c:#?}");
    // "If the checks are red, the branch must not be merged.": the
    // condition stays in front of the active rule; no merge is forbidden
    // outright.
    let c = at(&cs, 9).expect("passive must-not with condition");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert!(json(&c.when).contains("merge"), "{c:#?}");
    // "Never commit credentials …: they end up in every clone.": the
    // reason after the colon does not take the rule's place.
    let c = at(&cs, 10).expect("reason after colon");
    assert!(json(&c.forbid).contains("git (add|commit)"), "{c:#?}");
    // "Don't use: emoji …": a verb alone before the colon is a label.
    let c = at(&cs, 11).expect("label");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "The agent does not enable auto-merge and does not merge the PR
    // itself.": both acts denied.
    let c = at(&cs, 12).expect("narrated denial");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    let f = json(&c.forbid);
    assert!(f.contains("--auto") && f.contains("gh pr merge*"), "{c:#?}");
    // "Ask for a review — the maintainers review and merge.": what the
    // other party does is no requirement of the agent.
    let c = at(&cs, 13).expect("others' act");
    assert!(!json(&c.require).contains("merge"), "{c:#?}");
    // "NEVER push without an explicit \"ship it\" from the user.": the
    // user's quoted word is a consent gate.
    let c = at(&cs, 14).expect("explicit word");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    // "Do not edit `CHANGELOG.md` directly — present the draft for the
    // user's review first.": a consent gate, not a forbid of every edit.
    let c = at(&cs, 16).expect("review first");
    assert_eq!(c.forbid, None, "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.when).contains("CHANGELOG.md"), "{c:#?}");
    // "Do not force-remove other worktrees.": only the forced removal.
    let c = at(&cs, 15).expect("force-remove");
    assert_eq!(
        c.forbid,
        Some(p(
            "{command_re: '^git worktree remove\\b.*\\s(--force|-f)\\b'}"
        )),
        "{c:#?}"
    );
}

#[test]
fn an_avoided_command_keeps_its_heading_and_a_barred_flag_or_tag_reuse_is_forbidden() {
    let cs = fixture("avoid-list");
    // "`git add -A` — prefer naming each file.": a command alone stays
    // forbidden.
    let c = at(&cs, 8).expect("add -A");
    assert_eq!(c.forbid, Some(p("{git: add, args: [-A]}")), "{c:#?}");
    // "`git commit -a` for quick saves — prefer staging by path." under
    // "Things to avoid": the preference after the dash is the way round,
    // not the rule's modal (the start read it as a positive "should").
    let c = at(&cs, 10).expect("commit -a");
    assert_eq!(c.modality, Modality::ShouldNot, "{c:#?}");
    // "(never bare `--force`)": the flag alone, barred.
    let c = cs
        .iter()
        .find(|c| c.lines[0] == 14 && c.modality == Modality::MustNot)
        .expect("bare force");
    assert!(json(&c.forbid).contains("force"), "{c:#?}");
    // "Never re-use a tag name": the tag moved by force.
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("Never re-use"))
        .expect("tag reuse");
    assert!(json(&c.forbid).contains("^git tag"), "{c:#?}");
    assert!(json(&c.forbid).contains("--force"), "{c:#?}");
}

#[test]
fn a_task_table_names_the_guide_to_read_first_and_a_checklist_asks_its_checks() {
    let cs = fixture("task-guides");
    // "Task | Read": each row's work needs its guide read before it (the
    // start read no rule from the table).
    let c = at(&cs, 10).expect("commit row");
    assert_eq!(
        c.when,
        Some(p("{any: [{git: commit}, {git: rebase}]}")),
        "{c:#?}"
    );
    assert_eq!(c.require, Some(p("{read: '**/commits.md'}")), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "resolve conflicts" is any edit: no trigger of its own — the merge is.
    let c = at(&cs, 11).expect("merge row");
    assert!(!json(&c.when).contains("edit"), "{c:#?}");
    assert!(json(&c.when).contains("gh pr merge"), "{c:#?}");
    // "- [ ] Is the changelog updated …?": a checklist's questions are
    // its checks, rules no act shows.
    for line in [15, 16] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no check at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::Must, "{c:#?}");
        assert_eq!(c.require, None, "{c:#?}");
    }
}

#[test]
fn a_command_step_runs_a_means_list_and_common_mistakes_are_rules_and_destructive_acts_wait() {
    let cs = fixture("fork-sync");
    // "1. `git fetch upstream`": a numbered step that is a command alone is
    // the command to run, before the later step's merge (the start read
    // no rule).
    let c = at(&cs, 7).expect("fetch step");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert_eq!(
        c.require,
        Some(p("{command: 'git fetch upstream*'}")),
        "{c:#?}"
    );
    assert_eq!(
        c.when,
        Some(p("{command: 'git merge upstream/main*'}")),
        "{c:#?}"
    );
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "**NEVER** print credentials … This means:" / "- No `echo
    // $DEPLOY_TOKEN`": the items spell the rule out, each its own rule
    // (the start took "This means:" for a description); the secret's value
    // on a command line is any secret-named variable, not every `echo`.
    let c = at(&cs, 14).expect("echo item");
    assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
    assert!(!json(&c.forbid).contains("echo*"), "{c:#?}");
    assert!(json(&c.forbid).contains("token"), "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SensitiveMemory), "{c:#?}");
    assert!(at(&cs, 15).is_some(), "printenv item: {cs:#?}");
    // "Always confirm before destructive actions": the destructive git acts
    // each wait on the user's word.
    let c = at(&cs, 17).expect("destructive");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    assert!(json(&c.when).contains("reset"), "{c:#?}");
    // "## Common Mistakes" / "- Rebasing without the user's permission": a
    // mistake is an act to avoid, here a consent gate.
    let c = at(&cs, 20).expect("rebase mistake");
    assert_eq!(c.when, Some(p("{git: rebase}")), "{c:#?}");
    assert_eq!(c.require, Some(p("{user_turn: true}")), "{c:#?}");
    // "- **Guessing …** -- read `git remote show upstream` first.": the fix
    // after the mistake stays a positive rule.
    let c = at(&cs, 21).expect("fix");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "- `git add .` from the top of the fork" under "Things to avoid": the
    // place it runs from keeps the command forbidden (the start kept none).
    let c = at(&cs, 25).expect("add from the top");
    assert_eq!(c.modality, Modality::ShouldNot, "{c:#?}");
    assert!(json(&c.forbid).contains("git add ."), "{c:#?}");
    // "Wait for an explicit \"ship it\" before pushing.": the user's quoted
    // word is consent (the start kept only the trigger).
    let c = at(&cs, 29).expect("quoted consent");
    assert_eq!(c.when, Some(p("{git: push}")), "{c:#?}");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    // "Confirm with the user before going on.": the work after it waits on
    // the user's word, as "before proceeding" does.
    let c = cs
        .iter()
        .find(|c| c.text.starts_with("Confirm with the user"))
        .expect("going on");
    assert_eq!(c.require, Some(Predicate::UserTurn), "{c:#?}");
    assert!(json(&c.when).contains("edit"), "{c:#?}");
}

#[test]
fn a_numbered_step_heading_runs_the_commands_listed_under_it() {
    let cs = fixture("context-steps");
    // "### 1. Collect the state" / "- `git status --short` — what is
    // uncommitted": the step's commands to run (the start read none).
    let c = at(&cs, 10).expect("status item");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert!(json(&c.require).contains("status"), "{c:#?}");
    let c = at(&cs, 11).expect("log item");
    assert!(json(&c.require).contains("git log"), "{c:#?}");
    // "## Handy commands": a listing under a heading that instructs
    // nothing stays no rule.
    assert!(at(&cs, 19).is_none(), "{cs:#?}");
}

#[test]
fn what_a_commit_holds_or_a_tool_is_given_forbids_no_act() {
    let cs = fixture("qualified-forbids");
    // "never one combined commit across fixes", "squash two fixes into one
    // combined commit": what a commit holds, which no act shows — the start
    // forbade every commit (and every squash, rebase and merge).
    for line in [8, 10] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
        assert_eq!(c.forbid, None, "{c:#?}");
    }
    // "Do not paste the diff inside AskUserQuestion": what the tool is
    // given, not every use of it.
    let c = at(&cs, 12).expect("tool input");
    assert_eq!(c.forbid, None, "{c:#?}");
    // A file named stays forbidden.
    let c = at(&cs, 14).expect("env");
    assert!(json(&c.forbid).contains(".env"), "{c:#?}");
    // "Never open a PR against main": the PR whose base is main, not every
    // PR (the start forbade `gh pr create*`).
    // "Never infer the next version from `NOTES.md`": what is concluded from
    // the file, not every read of it (the start forbade reading it).
    let c = at(&cs, 18).expect("infer from");
    assert_eq!(c.forbid, None, "{c:#?}");
    let c = at(&cs, 16).expect("base main");
    assert_eq!(
        c.forbid,
        Some(p(
            "{command_re: '^gh pr create\\b.*\\s(--base|-B)(=|\\s+)(main|master)\\b'}"
        )),
        "{c:#?}"
    );
}

#[test]
fn a_text_block_of_commands_is_run_and_running_a_config_script_changes_no_config() {
    let cs = fixture("text-fences");
    // "## Step 1: start the replay" over a ```text block holding a command:
    // the step runs it (the start read the block as text and kept no rule).
    let c = at(&cs, 8).expect("step 1");
    assert_eq!(
        c.require,
        Some(p(
            "{command: 'bash .claude/skills/tidy-rebase/scripts/replay.sh*'}"
        )),
        "{c:#?}"
    );
    // Running a script kept under `.claude/skills` writes none of it.
    assert!(!c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
    // A text block of output is no command.
    assert!(at(&cs, 14).is_none(), "{cs:#?}");
    let c = at(&cs, 21).expect("step 3");
    assert!(json(&c.require).contains("cargo test"), "{c:#?}");
    // Copying into `.claude/skills` does change it.
    let c = at(&cs, 27).expect("step 4");
    assert!(c.scope.contains(&ScopeTag::SelfModification), "{c:#?}");
}

#[test]
fn a_step_of_one_workflow_among_several_is_a_rule_judged_by_people() {
    let cs = fixture("setup-steps");
    // "1. **Copy sample config:**" over `cp …` in "### Workflow 2: Create a
    // new config from scratch" (one of several workflows): a step of the
    // workflow chosen — a rule with no act to check (the start kept none).
    let c = at(&cs, 25).expect("copy step");
    assert_eq!(c.modality, Modality::Must, "{c:#?}");
    assert_eq!(
        (&c.when, &c.require, &c.forbid),
        (&None, &None, &None),
        "{c:#?}"
    );
    // Its commit step is scoped by what its block changes.
    let c = at(&cs, 35).expect("commit step");
    assert_eq!(c.require, None, "{c:#?}");
    assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    // ("### 1. Create the cache folder" over `mkdir -p …` outside the
    // workflows: setup whose block changes nothing shared stays a bare
    // lead-in, as the development set counts it.)
    assert!(at(&cs, 43).is_none(), "{:#?}", at(&cs, 43));
}

#[test]
fn an_act_not_needed_or_where_work_stops_is_neither_forbidden_nor_required() {
    let cs = fixture("needless");
    // "no review needed", "No need to run the tests", "No approval required:
    // `git fetch` …": the act may be skipped — nothing is forbidden. (The
    // start required the tests and forbade fetch, log and status.)
    for line in [10, 11, 12] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::ShouldNot, "{c:#?}");
        assert_eq!((&c.require, &c.forbid), (&None, &None), "{c:#?}");
    }
    // "Don't stop at PR creation", "Stop at the first failing check":
    // where the work stops, not an act forbidden or required.
    for line in [13, 14] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!((&c.require, &c.forbid), (&None, &None), "{c:#?}");
    }
    // "No changes to commit means …": a state, which requires no commit.
    let c = at(&cs, 15).expect("state");
    assert_eq!(c.require, None, "{c:#?}");
    // "No force pushes." stays a prohibition.
    let c = at(&cs, 16).expect("force");
    assert_eq!(c.forbid, Some(p("{git: push, args: [--force]}")), "{c:#?}");
}

#[test]
fn a_step_over_each_item_it_picks_is_scoped_by_what_its_block_changes() {
    let cs = fixture("per-item");
    // "For each remote tag older than …:" over `git push origin --delete
    // …`: which tags is a choice no action shows — a rule with no
    // predicate, scoped by the deletion (the start kept no rule).
    // "For every local tag, check if …:" over `git tag -d …`: the same
    // scope (the start kept the rule unscoped).
    for line in [10, 16] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::Must, "{c:#?}");
        assert_eq!((&c.require, &c.forbid), (&None, &None), "{c:#?}");
        assert!(c.scope.contains(&ScopeTag::SharedRepoState), "{c:#?}");
    }
}

#[test]
fn a_list_titled_what_never_gets_done_forbids_that_act_on_each_item() {
    let cs = fixture("never-title");
    // "**What NEVER gets committed:**" over file items: "Never commit
    // these:" said as a title — each item's file is never committed (the
    // start kept no rule). The title itself requires no commit.
    assert!(at(&cs, 11).is_none(), "{cs:#?}");
    for (line, file) in [(12, "p12"), (13, "pass(")] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::MustNot, "{c:#?}");
        let f = json(&c.forbid);
        assert!(f.contains("git (add|commit)") && f.contains(file), "{c:#?}");
    }
    // "**What gets committed:**" forbids nothing.
    assert!(at(&cs, 9).is_none_or(|c| c.forbid.is_none()), "{cs:#?}");
}

#[test]
fn code_after_a_conditions_colon_shows_the_main_act_not_the_condition() {
    let cs = fixture("colon-example");
    // "Confirm the checked-out branch before tagging: `git rev-parse …`":
    // the command is how the branch is confirmed — required before the
    // tag (the start made it a second trigger beside the tag).
    let c = at(&cs, 8).expect("confirm");
    assert_eq!(c.when, Some(p("{git: tag}")), "{c:#?}");
    assert!(json(&c.require).contains("git rev-parse"), "{c:#?}");
    assert_eq!(c.order, Some(Order::Before), "{c:#?}");
    // "Refresh the remote tags before you tag: `git fetch --tags`": the
    // fetch is never the trigger of its own rule.
    let c = at(&cs, 9).expect("refresh");
    assert!(!json(&c.when).contains("fetch"), "{c:#?}");
    // Without a colon, unchanged: a condition with its act.
    let c = at(&cs, 10).expect("list");
    assert_eq!(c.when, Some(p("{git: tag}")), "{c:#?}");
}

#[test]
fn an_act_the_reader_need_not_take_is_weak_and_forbids_nothing() {
    let cs = fixture("not-obliged");
    // "You do not need to rerun the full test suite …", "You don't have to
    // rebase …", "There is no need to tag …": not obliged — should-not,
    // nothing forbidden or required (the start forbade the tests and
    // required a PR after a rebase).
    for line in [8, 9, 10, 12] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::ShouldNot, "{c:#?}");
        assert_eq!((&c.require, &c.forbid), (&None, &None), "{c:#?}");
    }
    // "You don't need a separate branch for every fix:" over ways to work:
    // the items are alternatives offered, not acts forbidden (the start
    // forbade every commit).
    let c = at(&cs, 14).expect("one more fix");
    assert_eq!(c.modality, Modality::Should, "{c:#?}");
    assert_eq!(c.forbid, None, "{c:#?}");
    // "You do not need to:" over acts: each is one not needed (the start
    // required a push after each commit and a second lint run).
    // ("No need to run these:" over `npm test`: the items are its object,
    // no alternatives.)
    for line in [18, 19, 23] {
        let c = at(&cs, line).unwrap_or_else(|| panic!("no rule at {line}: {cs:#?}"));
        assert_eq!(c.modality, Modality::ShouldNot, "{c:#?}");
        assert_eq!((&c.require, &c.forbid), (&None, &None), "{c:#?}");
    }
}

#[test]
fn a_concession_after_a_prohibition_is_no_condition_of_it() {
    let cs = fixture("concession");
    // "Never delete the protected branches (`main`, `develop`) even if they
    // show up as merged": the branches named are never deleted — "even
    // if" says where the rule still holds (the start made the merge the
    // trigger and forbade nothing).
    let c = at(&cs, 8).expect("protected");
    assert_eq!(c.when, None, "{c:#?}");
    let f = json(&c.forbid);
    assert!(
        f.contains("git branch -D main") && f.contains("develop"),
        "{c:#?}"
    );
    let c = at(&cs, 9).expect("force");
    assert_eq!(c.forbid, Some(p("{git: push, args: [--force]}")), "{c:#?}");
    // "(`stable`, `release/*`)" after "protected branches": the names are
    // branches deleted, not files (the start forbade deleting a file
    // `release/*` and left `stable` out).
    let c = at(&cs, 11).expect("names");
    let f = json(&c.forbid);
    assert!(f.contains("git branch -D stable"), "{c:#?}");
    assert!(f.contains("git branch -D release/*"), "{c:#?}");
    assert!(!f.contains("\"delete\""), "{c:#?}");
}
