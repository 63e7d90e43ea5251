//! Deterministic extraction of constraints from a skill body (SPEC §4).
//!
//! The body is segmented ([`super::markdown`]) into paragraphs, list items,
//! table rows and fenced blocks; each sentence, item, decision-table row and
//! normative fenced block is a candidate rule. A candidate is a rule when it
//! says so (RFC 2119 words, NEVER / ALWAYS / ONLY, "do not", "avoid"…), when
//! it starts with an imperative verb, when it is an If/When/Before/After
//! clause with an imperative main clause, or when a normative lead-in or
//! heading governs it ("**Never:**", "Red Flags", "Done when", checklists).
//!
//! A rule is split into its condition (leading If/When/Before/After…, a
//! question that opens it, a lead-in's condition, a trailing before/after/
//! until/when clause) and its main clause. The lexicon turns words, code
//! spans, paths and links of each part into predicates: the condition gives
//! `when`, the main clause gives `require` (positive rules) or `forbid`
//! (negative ones); "never X without Y" gives `when: X, require: Y, order:
//! before`. A main clause that only produces text (announce, tell, ask…)
//! gives no behavior, only `when`. docs/constraints.md walks through it.
//!
//! The stages, one file each under `extractor/`, in the order a rule passes
//! them (to find where one was dropped, follow it down this list):
//! 1. [`sentences`] — sentences of a paragraph or item, and their groups;
//! 2. [`candidates`] — which blocks and groups are rules (examples,
//!    explanations, headings are not), with their lead-ins and modality;
//! 3. [`conditions`] — condition parts and main clause, composed into
//!    `when` / `require` / `forbid` / `order` (with [`consent`]: the
//!    user's word; [`readings`]: content vs act, bare nouns, shapes;
//!    [`clauses`]: splitting a sentence into its clauses);
//! 4. [`predicates`] — what a clause's words, commands and paths denote;
//! 5. [`scope`] — the scope tags a rule's predicates carry;
//! 6. [`document`] — passes over the whole document (consent over the
//!    following steps, look-ups before the next scoped step, batches).
//!
//! Ids are given here, last.

use super::constraint::{Constraint, Modality, Order, ScopeTag};
use super::lexicon::{verb_matches, words, Lexicon, PathAction, Word};
use super::markdown::{self, Block, Lined};
use super::predicate::Predicate;
use crate::parse::Skill;
use std::collections::{BTreeMap, BTreeSet};

mod candidates;
mod clauses;
mod conditions;
mod consent;
mod document;
mod predicates;
mod readings;
mod scope;
mod sentences;

use candidates::*;
use clauses::*;
use conditions::*;
use consent::*;
use document::*;
use predicates::*;
use scope::*;
use sentences::*;

/// Extract the constraints of a skill with a lexicon.
pub fn extract(skill: &Skill, lexicon: &Lexicon) -> Vec<Constraint> {
    let blocks = markdown::blocks(skill.body_lines());
    // (The tools the skill lists as its own are names its rules call.)
    let tools = listed_tools(&blocks);
    let with_tools;
    let lexicon = if tools.is_empty() {
        lexicon
    } else {
        with_tools = Lexicon {
            skill_tools: tools,
            ..lexicon.clone()
        };
        &with_tools
    };
    // (A SKILL.md without a description — its frontmatter missing or
    // broken — says what it is for in its opening paragraph.)
    let opening = opening_paragraph(&blocks).map(|b| b.text.clone());
    let description = skill
        .frontmatter
        .as_ref()
        .and_then(|f| f.description.as_deref())
        .filter(|d| !d.trim().is_empty())
        .or(opening.as_deref())
        .unwrap_or("");
    let mut ex = Extractor {
        lex: lexicon,
        drafts: Vec::new(),
        subject: subject_acts(description, lexicon),
        topic: stored_topic(description, lexicon),
        object: skill_object(description, &skill.name()),
        activity: activity_verbs(description, lexicon),
    };
    ex.run(&blocks);
    let authors_skills = authors_skills(description, &ex.subject);
    let subject = ex.subject;
    let mut drafts = ex.drafts;
    if authors_skills {
        for d in &mut drafts {
            for p in [&mut d.when, &mut d.require].into_iter().flatten() {
                test_runs_include_subagents(p);
            }
            skill_tests_around_writes(d);
            if gates_skill_writing(d, lexicon) {
                d.scope.insert(ScopeTag::SelfModification);
            }
        }
    }
    consent_before_the_subject_act(&mut drafts, &subject);
    if let Some(subject) = subject_writes(description, lexicon) {
        consent_on_the_subject(&mut drafts, &subject, lexicon);
    }
    non_goals_forbid_nothing(&mut drafts, &blocks);
    purpose_statement(&mut drafts, &blocks, description);
    case_lists(&mut drafts, &blocks, lexicon);
    recipes_are_cases(&mut drafts, lexicon);
    branch_name_prefixes(&mut drafts, &blocks);
    protected_branches_inline(&mut drafts);
    tag_name_format(&mut drafts);
    required_forms(&mut drafts);
    flags_of_the_nearby_command(&mut drafts, &blocks, lexicon);
    attribution_in_commits(&mut drafts);
    checks_the_lead_in_names(&mut drafts, &blocks, lexicon);
    gate_following_acts(&mut drafts, &blocks, lexicon);
    consent_to_the_offered_acts(&mut drafts, lexicon);
    case_forbids_what_no_rule_asks(&mut drafts, lexicon);
    workflow_steps_around_their_acts(&mut drafts, &blocks, lexicon);
    case_steps_before_the_case_act(&mut drafts, &blocks, lexicon);
    look_ups_before_the_next_act(&mut drafts, &blocks, lexicon);
    file_looks_before_the_work(&mut drafts, lexicon);
    if let Some(act) = skill_act(description, lexicon) {
        due_where_the_skill_applies(&mut drafts, &act);
    }
    skill_anaphora(&mut drafts);
    own_skill_named(&mut drafts, skill);
    one_question_per_batch(&mut drafts);
    for d in &mut drafts {
        judged_where_work_was_done(d);
    }
    assign_ids(drafts)
}

/// "## Available MCP Tools" / "### `list_secrets`", "- `run_command` —
/// …": the tools a skill lists under a heading on tools, each named alone
/// in code (a subheading, or the code an item or row opens with) — an
/// identifier, not a command, path or call.
fn listed_tools(blocks: &[markdown::Block]) -> Vec<String> {
    use markdown::Block;
    let ident = |t: &str| {
        let t = t.trim();
        let inner = t.strip_prefix('`').and_then(|r| r.strip_suffix('`'))?;
        // (An all-capitals name is an environment variable, not a tool.)
        (inner.len() >= 3
            && inner.contains(|c: char| c == '_' || c.is_ascii_uppercase())
            && inner.contains(|c: char| c.is_ascii_lowercase())
            && inner.starts_with(|c: char| c.is_ascii_alphabetic())
            && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| inner.to_string())
    };
    let opening_span = |t: &str| {
        let t = strip_emphasis(t.trim());
        let end = t.strip_prefix('`')?.find('`')? + 2;
        ident(&t[..end])
    };
    let mut out: Vec<String> = Vec::new();
    let mut under: Option<usize> = None;
    for b in blocks {
        let name = match b {
            Block::Heading { level, text, .. } => {
                if under.is_some_and(|l| *level <= l) {
                    under = None;
                }
                let w = words(&text.to_lowercase());
                if w.iter().any(|x| matches!(x.text.as_str(), "tools" | "mcp")) {
                    under = Some(*level);
                    continue;
                }
                under.and_then(|_| ident(&strip_emphasis(text)))
            }
            Block::Item { body, .. } if under.is_some() => opening_span(&body.text),
            Block::Row { cells, .. } if under.is_some() => {
                cells.first().and_then(|c| opening_span(c))
            }
            _ => None,
        };
        if let Some(n) = name.filter(|n| !out.contains(n)) {
            out.push(n);
        }
    }
    out
}

/// "Invoke this skill for PR creation": the skill's own name where a rule
/// stood for it ([`conditions::OWN_SKILL`]) — the frontmatter's, else the
/// folder's (as the harness names it); with neither, the rule requires no
/// load it could name.
fn own_skill_named(drafts: &mut [Draft], skill: &Skill) {
    let name = skill
        .frontmatter
        .as_ref()
        .and_then(|f| f.name.clone())
        .filter(|n| !n.trim().is_empty())
        .or_else(|| {
            skill
                .path
                .parent()
                .and_then(|d| d.file_name())
                .map(|n| n.to_string_lossy().into_owned())
        });
    fn rename(p: &mut Predicate, name: &str) {
        match p {
            Predicate::Skill(s) if s == conditions::OWN_SKILL => *s = name.to_string(),
            Predicate::Any(v) | Predicate::All(v) => v.iter_mut().for_each(|p| rename(p, name)),
            Predicate::Not(p) => rename(p, name),
            _ => {}
        }
    }
    for d in drafts {
        match &name {
            Some(n) => [&mut d.when, &mut d.require, &mut d.forbid]
                .into_iter()
                .flatten()
                .for_each(|p| rename(p, n)),
            None => {
                let own =
                    |p: &Predicate| matches!(p, Predicate::Skill(s) if s == conditions::OWN_SKILL);
                if d.require.as_ref().is_some_and(|p| p.any_node(&own)) {
                    d.require = None;
                    d.order = None;
                }
            }
        }
    }
}

/// A rule before it gets its id.
#[derive(Debug, Clone)]
struct Draft {
    text: String,
    lines: [u32; 2],
    modality: Modality,
    scope: BTreeSet<ScopeTag>,
    when: Option<Predicate>,
    require: Option<Predicate>,
    forbid: Option<Predicate>,
    order: Option<Order>,
    /// A consent gate on "what comes next" ("Wait for approval."): its
    /// `when` is the work's edits until the document pass finds the scoped
    /// commands the following steps run ([`gate_following_acts`]).
    awaits: bool,
    /// A forbid held back because only its section's heading states its
    /// case ("### When a new PR is opened" / "Do NOT approve"): the act,
    /// kept as a trigger until the document pass sees no rule asks for it.
    case_forbid: Option<Predicate>,
    /// A step held back because only its section's heading states its
    /// case ("### When a new PR is opened" / "1. Run `gh pr diff`"): the
    /// act, due before the case's own scoped act where the document pass
    /// finds one ([`case_steps_before_the_case_act`]); else unverifiable.
    case_require: Option<Predicate>,
    /// That step belongs to one of several workflows ("## Workflows" /
    /// "### Commit Workflow"): it binds around the acts of its own
    /// workflow ([`workflow_steps_around_their_acts`]).
    workflow: bool,
}

impl Draft {
    /// Whether any predicate is set.
    fn behavior_is_set(&self) -> bool {
        self.when.is_some() || self.require.is_some() || self.forbid.is_some()
    }

    /// A rule with no scope and no predicates yet.
    fn new(text: String, lines: [u32; 2], modality: Modality) -> Draft {
        Draft {
            text,
            lines,
            modality,
            scope: BTreeSet::new(),
            when: None,
            require: None,
            forbid: None,
            order: None,
            awaits: false,
            case_forbid: None,
            case_require: None,
            workflow: false,
        }
    }
}

/// Ids: kebab-case from the rule's own words (so inserting an unrelated line
/// above a rule leaves its id alone), deduplicated with `-2`, `-3`… in
/// document order.
fn assign_ids(drafts: Vec<Draft>) -> Vec<Constraint> {
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::with_capacity(drafts.len());
    for d in drafts {
        let base = id_base(&d.text);
        let n = used.entry(base.clone()).or_insert(0);
        *n += 1;
        let id = if *n == 1 { base } else { format!("{base}-{n}") };
        out.push(Constraint {
            id,
            text: d.text,
            lines: d.lines,
            modality: d.modality,
            scope: d.scope.into_iter().collect(),
            when: d.when,
            require: d.require,
            forbid: d.forbid,
            order: d.order,
            manual: None,
        });
    }
    // A base that happens to equal another's suffixed form ("x-2"): make unique.
    let mut seen = BTreeSet::new();
    for c in &mut out {
        let mut id = c.id.clone();
        let mut k = 2;
        while !seen.insert(id.clone()) {
            id = format!("{}-{k}", c.id);
            k += 1;
        }
        c.id = id;
    }
    out
}

const STOPWORDS: &[&str] = &[
    "a", "an", "the", "to", "of", "in", "on", "at", "for", "and", "or", "but", "is", "are", "be",
    "been", "it", "its", "this", "that", "these", "those", "with", "as", "by", "from", "into",
    "your", "you", "we", "our", "their", "them", "they", "i", "me", "my", "so", "than", "then",
    "there", "here", "what", "which", "who", "will", "would", "can", "could", "may", "might",
    "just", "very", "also", "some", "such", "own", "about", "up", "out", "s", "t",
];

fn id_base(text: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut len = 0;
    for w in words(text) {
        let t: String = w
            .text
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        if t.is_empty() || STOPWORDS.contains(&w.text.as_str()) {
            continue;
        }
        if parts.len() >= 6 || len + t.len() > 48 {
            break;
        }
        len += t.len() + 1;
        parts.push(t);
    }
    if parts.is_empty() {
        "rule".to_string()
    } else {
        parts.join("-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn ex(body: &str) -> Vec<Constraint> {
        let src = format!("---\nname: demo\ndescription: d\n---\n{body}");
        match Skill::parse_bytes(Path::new("demo/SKILL.md"), src.as_bytes()) {
            Ok(skill) => extract(&skill, &Lexicon::builtin()),
            Err(_) => Vec::new(),
        }
    }

    fn one(body: &str) -> Constraint {
        let c = ex(body);
        assert_eq!(c.len(), 1, "{c:#?}");
        c.into_iter().next().unwrap()
    }

    fn p(s: &str) -> Predicate {
        yaml_serde::from_str(s).unwrap()
    }

    #[test]
    fn never_force_push_forbids_it_in_shared_repo_state() {
        let c = one("Never run `git push --force`.\n");
        assert_eq!(c.modality, Modality::MustNot);
        assert_eq!(c.forbid, Some(p("{git: push, args: [\"--force\"]}")));
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
        assert_eq!(c.lines, [5, 5]);
        assert_eq!(c.id, "never-run-git-push-force");
    }

    #[test]
    fn do_not_edit_skills_forbids_touching_them_as_self_modification() {
        let c = one("Do not edit anything under `.claude/skills/`.\n");
        assert_eq!(c.modality, Modality::MustNot);
        assert_eq!(c.forbid, Some(p("{touch: \".claude/skills/**\"}")));
        assert_eq!(c.scope, vec![ScopeTag::SelfModification]);
    }

    #[test]
    fn plain_phrases_become_predicates() {
        let c = one("Never force-push to a shared branch.\n");
        assert_eq!(c.forbid, Some(p("{git: push, args: [\"--force\"]}")));
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
        let c = one("Do not make network calls.\n");
        assert_eq!(c.forbid, Some(p("{fetch: \"**\"}")));
        assert!(c.scope.is_empty());
        let c = one("Never commit on the main branch.\n");
        assert_eq!(
            c.forbid,
            Some(p(
                "{all: [{git: commit}, {any: [{branch: main}, {branch: master}]}]}"
            ))
        );
    }

    #[test]
    fn before_merging_sets_only_when_for_a_speech_rule() {
        let c = one("Before merging, present exactly these 4 options to the user.\n");
        assert_eq!(c.modality, Modality::Must);
        assert!(c.when.is_some());
        assert!(c.require.is_none() && c.forbid.is_none());
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
    }

    #[test]
    fn run_the_tests_before_committing_requires_tests_before_the_commit() {
        let c = one("Run the tests before committing.\n");
        assert_eq!(c.when, Some(p("{git: commit}")));
        assert!(matches!(c.require, Some(Predicate::CommandRe(_))));
        assert_eq!(c.order, Some(Order::Before));
    }

    #[test]
    fn never_x_without_y_is_a_require_before_x() {
        let c = one("Never fix bugs without a test.\n");
        assert_eq!(c.modality, Modality::MustNot);
        assert!(c.when.is_some() && c.require.is_some());
        assert_eq!(c.order, Some(Order::Before));
    }

    #[test]
    fn code_blocks_and_examples_are_not_rules_but_iron_laws_are() {
        let c = ex("```bash\ngit push --force\n```\n\n<Bad>\nNever do this.\n</Bad>\n\n## The Iron Law\n\n```\nNO PRODUCTION CODE WITHOUT A FAILING TEST FIRST\n```\n");
        assert_eq!(c.len(), 1, "{c:#?}");
        assert_eq!(c[0].text, "NO PRODUCTION CODE WITHOUT A FAILING TEST FIRST");
        assert_eq!(c[0].lines, [16, 16]);
        assert_eq!(c[0].modality, Modality::MustNot);
        assert_eq!(c[0].order, Some(Order::Before));
    }

    #[test]
    fn explanations_are_not_rules() {
        assert!(ex("This skill helps with plans.\n\nThe tool is fast.\n").is_empty());
        assert!(
            ex("| Excuse | Reality |\n|---|---|\n| \"Too simple\" | Simple code breaks. |\n")
                .is_empty()
        );
    }

    #[test]
    fn lists_inherit_their_lead_in() {
        let c =
            ex("**Never:**\n- Push to main\n- Rebase shared branches\n- Skip running the tests\n");
        assert_eq!(c.len(), 3, "{c:#?}");
        assert!(c[..2].iter().all(|c| c.modality == Modality::MustNot));
        assert_eq!(c[0].scope, vec![ScopeTag::SharedRepoState]);
        assert_eq!(
            c[1].forbid,
            Some(Predicate::Git {
                subcommand: "rebase".into(),
                args: vec![]
            })
        );
        // "Never skip X" requires X.
        assert_eq!(c[2].modality, Modality::Must);
        assert!(matches!(c[2].require, Some(Predicate::CommandRe(_))));
        let c = ex("ALWAYS before:\n- Committing, PR creation\n");
        assert_eq!(c.len(), 1, "{c:#?}");
        assert!(c[0].when.is_some() && c[0].behavior().is_none());
    }

    #[test]
    fn decision_table_rows_are_rules() {
        let c = ex("| Avoid | Use Instead |\n|---|---|\n| `uv pip install` | `uv add` |\n");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].modality, Modality::ShouldNot);
        assert_eq!(c[0].forbid, Some(p("{command: \"uv pip install*\"}")));
        assert_eq!(c[0].text, "`uv pip install` | `uv add`");
    }

    #[test]
    fn ids_are_stable_when_a_line_is_inserted_above_and_unique() {
        let a =
            ex("Never run `git push --force`.\n\nAlways run the tests.\n\nAlways run the tests.\n");
        let b = ex("Intro text.\n\nNever run `git push --force`.\n\nSome more.\n\nAlways run the tests.\n\nAlways run the tests.\n");
        let ids = |v: &[Constraint]| v.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&a), ids(&b));
        assert_eq!(
            ids(&a),
            vec![
                "never-run-git-push-force",
                "always-run-tests",
                "always-run-tests-2"
            ]
        );
    }

    #[test]
    fn done_when_criteria_are_rules() {
        let c = ex("## Done when\n\n- The branch is pushed\n\nDone when: the PR is merged.\n");
        assert_eq!(c.len(), 2, "{c:#?}");
        assert_eq!(c[0].require, Some(p("{git: push}")));
        assert_eq!(c[1].modality, Modality::Must);
        assert!(c[1].require.is_some());
        assert!(c.iter().all(|c| c.scope == vec![ScopeTag::SharedRepoState]));
    }

    #[test]
    fn a_condition_about_the_user_blocks_a_require() {
        let c = one("When the user asks for a release, create a tag.\n");
        assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
        let c = one("After pushing, open a pull request.\n");
        assert_eq!(c.when, Some(p("{git: push}")));
        assert_eq!(c.require, Some(p("{command: \"gh pr create*\"}")));
    }

    #[test]
    fn a_bare_modal_rule_is_about_its_heading() {
        let c = one("### Verify RED - Watch It Fail\n\n**MANDATORY. Never skip.**\n");
        assert_eq!(c.modality, Modality::Must);
        assert!(
            matches!(&c.require, Some(Predicate::All(v)) if v.contains(&Predicate::Failed(true))),
            "{c:#?}"
        );
    }

    #[test]
    fn prefer_x_over_y_forbids_y() {
        let c = one("Prefer `gh pr view` over unauthenticated `curl` or `wget`.\n");
        assert_eq!(c.modality, Modality::ShouldNot);
        assert!(
            matches!(&c.forbid, Some(Predicate::Any(v)) if v.len() == 2),
            "{c:#?}"
        );
    }

    #[test]
    fn stop_phrases_hide_false_actions() {
        let c = one("Push back with technical reasoning if the reviewer is wrong.\n");
        assert!(c.require.is_none() && c.scope.is_empty(), "{c:#?}");
        let c = one("Never rewrite the commit list by hand.\n");
        assert!(c.scope.is_empty(), "{c:#?}");
        let c = one("Install the hooks with `prek`, never with pre-commit.\n");
        assert!(c.scope.is_empty(), "{c:#?}");
    }

    #[test]
    fn hostile_input_gives_no_panic() {
        let _ = ex("```\nunclosed\n");
        let _ = ex(&"x".repeat(100_000));
        let _ = ex("| a |\n|\n| `b` |\n- [ ]\n1.\n* \n> \n<x>\n</x>\n`\n\"\n[a](\n");
        let _ = ex("If , : then\n\nNever \u{1} `` without\n");
    }
}
