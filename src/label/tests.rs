//! Unit tests of labelling over hand-built trajectories.
#![allow(clippy::cloned_ref_to_slice_refs)]

use super::*;
use crate::decode::{
    Action, AgentPath, DecodeProblem, Event, FileEffect, GitOp, Harness, LoadVia, Location,
    ProblemKind, Role, ShellAction, SimpleCommand, Trajectory,
};
use crate::extract::{Constraint, Modality, ScopeTag};

pub(crate) fn shell(line: &str, cmds: &[&[&str]]) -> Action {
    let commands = cmds
        .iter()
        .map(|argv| {
            let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
            let git = if argv.first().map(String::as_str) == Some("git") && argv.len() > 1 {
                let mut flags = Vec::new();
                let mut args = Vec::new();
                for a in &argv[2..] {
                    if a.starts_with('-') {
                        flags.extend(gitflags::normalize_flags(&argv[1], a));
                    } else {
                        args.push(a.clone());
                    }
                }
                Some(GitOp {
                    subcommand: argv[1].clone(),
                    flags,
                    args,
                    ..Default::default()
                })
            } else {
                None
            };
            SimpleCommand {
                text: argv.join(" "),
                argv,
                git,
            }
        })
        .collect();
    Action::Shell(ShellAction {
        line: line.to_string(),
        commands,
        effects: Vec::new(),
        workdir: None,
    })
}

pub(crate) fn load(name: &str) -> Action {
    Action::SkillLoad {
        name: name.to_string(),
        via: LoadVia::SkillTool,
        body_sha256: None,
    }
}

pub(crate) fn traj(actions: Vec<Action>) -> Trajectory {
    let mut t = Trajectory::new("t.jsonl".into(), Harness::ClaudeCode, "claude-code-jsonl");
    t.complete = true;
    for (i, a) in actions.into_iter().enumerate() {
        let mut e = Event::new(Location::line(i as u64 + 1), Role::Assistant, a);
        e.index = i;
        t.events.push(e);
    }
    t
}

pub(crate) fn constraint(id: &str, yaml: &str) -> Constraint {
    let modality = if yaml.contains("modality:") {
        ""
    } else {
        "modality: must\n"
    };
    let mut c: Constraint = yaml_serde::from_str(&format!(
        "id: {id}\ntext: \"rule {id}\"\nlines: [1, 1]\n{modality}{yaml}"
    ))
    .unwrap();
    c.id = id.to_string();
    c
}

fn run(cs: &[Constraint], t: &Trajectory, load: Option<usize>) -> Vec<TrajectoryLabel> {
    let set = CompiledSet::compile(cs).unwrap();
    label_trajectory(&set, t, ScopeStart { load })
}

fn labels(cs: &[Constraint], t: &Trajectory, load: Option<usize>) -> Vec<Label> {
    run(cs, t, load).into_iter().map(|l| l.label).collect()
}

#[test]
fn forced_push_is_violated_in_every_spelling() {
    let c = constraint(
        "no-force-push",
        "scope: [shared-repo-state]\nforbid: {git: push, args: [\"--force\"]}",
    );
    let short = constraint("no-force-push-short", "forbid: {git: push, args: [\"-f\"]}");
    for action in [
        shell(
            "git push --force origin main",
            &[&["git", "push", "--force", "origin", "main"]],
        ),
        shell(
            "cd repo && git push -f",
            &[&["cd", "repo"], &["git", "push", "-f"]],
        ),
        shell(
            "git push -fu origin x",
            &[&["git", "push", "-fu", "origin", "x"]],
        ),
    ] {
        let t = traj(vec![load("s"), action]);
        let got = run(&[c.clone(), short.clone()], &t, Some(0));
        assert_eq!(got[0].label, Label::Violated);
        assert_eq!(got[1].label, Label::Violated);
        assert_eq!(got[0].cited[0].event, Some(1));
        assert_eq!(got[0].cited[0].line, Some(2));
        assert_eq!(got[0].cited[0].why, Cite::ForbidMatched);
    }
    let t = traj(vec![
        load("s"),
        shell(
            "git push origin main",
            &[&["git", "push", "origin", "main"]],
        ),
    ]);
    assert_eq!(labels(&[c.clone()], &t, Some(0)), vec![Label::Exercised]);
    // --force-with-lease is another flag.
    let t = traj(vec![
        load("s"),
        shell(
            "git push --force-with-lease",
            &[&["git", "push", "--force-with-lease"]],
        ),
    ]);
    assert_eq!(labels(&[c], &t, Some(0)), vec![Label::Exercised]);
}

#[test]
fn a_forced_branch_deletion_is_a_deletion() {
    let c = constraint(
        "no-branch-delete",
        "scope: [shared-repo-state]\nforbid: {git: branch, args: [\"--delete\"]}",
    );
    for (line, argv) in [
        ("git branch -D feature", ["git", "branch", "-D", "feature"]),
        ("git branch -d feature", ["git", "branch", "-d", "feature"]),
        (
            "git branch --delete feature",
            ["git", "branch", "--delete", "feature"],
        ),
    ] {
        let t = traj(vec![load("s"), shell(line, &[&argv])]);
        assert_eq!(
            labels(&[c.clone()], &t, Some(0)),
            vec![Label::Violated],
            "{line}"
        );
    }
    let t = traj(vec![
        load("s"),
        shell("git branch -M main", &[&["git", "branch", "-M", "main"]]),
    ]);
    // A forced rename is no deletion.
    assert_eq!(labels(&[c], &t, Some(0)), vec![Label::Exercised]);
}

#[test]
fn events_before_the_load_are_out_of_scope() {
    let c = constraint("no-force-push", "forbid: {git: push, args: [\"--force\"]}");
    let t = traj(vec![
        shell("git push -f", &[&["git", "push", "-f"]]),
        load("s"),
    ]);
    // No push after the load: the forbid's kind never fired.
    assert_eq!(labels(&[c.clone()], &t, Some(1)), vec![Label::Untested]);
    // Loaded per sidecar, no load event: everything is in scope.
    assert_eq!(labels(&[c], &t, None), vec![Label::Violated]);
}

#[test]
fn subagent_actions_count_and_name_the_subagent() {
    let c = constraint("no-force-push", "forbid: {git: push, args: [\"--force\"]}");
    let mut t = traj(vec![
        load("s"),
        shell("git push -f", &[&["git", "push", "-f"]]),
    ]);
    t.events[1].agent = AgentPath::Subagent("agent-a0ad4f".into());
    let got = run(&[c.clone()], &t, Some(0));
    assert_eq!(got[0].label, Label::Violated);
    assert_eq!(got[0].cited[0].subagent.as_deref(), Some("agent-a0ad4f"));
    // A subagent already running before the load never saw the skill.
    let mut t = traj(vec![
        Action::Other,
        load("s"),
        shell("git push -f", &[&["git", "push", "-f"]]),
    ]);
    t.events[0].agent = AgentPath::Subagent("early".into());
    t.events[2].agent = AgentPath::Subagent("early".into());
    assert_eq!(labels(&[c.clone()], &t, Some(1)), vec![Label::Untested]);
    // An identifier that is not one is not repeated.
    let mut t = traj(vec![
        load("s"),
        shell("git push -f", &[&["git", "push", "-f"]]),
    ]);
    t.events[1].agent = AgentPath::Subagent("free text here".into());
    assert_eq!(
        run(&[c], &t, Some(0))[0].cited[0].subagent.as_deref(),
        Some("subagent")
    );
}

#[test]
fn forbid_with_when_is_untested_until_fired() {
    let c = constraint(
        "no-trackers",
        "when: {command: \"gh *\"}\nforbid: {command: \"gh issue create*\"}",
    );
    let t = traj(vec![load("s"), shell("ls", &[&["ls"]])]);
    assert_eq!(labels(&[c.clone()], &t, Some(0)), vec![Label::Untested]);
    let t = traj(vec![
        load("s"),
        shell("gh pr list", &[&["gh", "pr", "list"]]),
    ]);
    assert_eq!(labels(&[c.clone()], &t, Some(0)), vec![Label::Exercised]);
    let t = traj(vec![
        load("s"),
        shell(
            "gh issue create -t x",
            &[&["gh", "issue", "create", "-t", "x"]],
        ),
    ]);
    assert_eq!(labels(&[c], &t, Some(0)), vec![Label::Violated]);
}

fn write(p: &str) -> Action {
    Action::File {
        effects: vec![FileEffect::Write {
            path: p.to_string(),
        }],
    }
}
fn rename(a: &str, b: &str) -> Action {
    Action::File {
        effects: vec![FileEffect::Rename {
            from: a.to_string(),
            to: b.to_string(),
        }],
    }
}

#[test]
fn require_order_before_after_anywhere() {
    let before = constraint(
        "atomic-write",
        "when: {touch: \"**/assessment.json\"}\nrequire: {write: \"**/assessment.json.tmp\"}\norder: before",
    );
    let ok = traj(vec![
        load("s"),
        write("out/assessment.json.tmp"),
        rename("out/assessment.json.tmp", "out/assessment.json"),
    ]);
    assert_eq!(
        labels(&[before.clone()], &ok, Some(0)),
        vec![Label::Exercised]
    );
    let broken = traj(vec![
        load("s"),
        write("out/assessment.json"),
        write("out/assessment.json.tmp"),
    ]);
    let got = run(&[before.clone()], &broken, Some(0));
    assert_eq!(got[0].label, Label::Violated);
    assert_eq!(got[0].cited[0].event, Some(1));
    assert_eq!(got[0].cited[0].why, Cite::RequirementUnmet);
    // A `before` window is closed at the firing event: truncation does not save it.
    let mut torn = broken.clone();
    torn.truncated = true;
    assert_eq!(labels(&[before], &torn, Some(0)), vec![Label::Violated]);

    let after = constraint(
        "test-after-edit",
        "when: {edit: \"src/**\"}\nrequire: {command: \"cargo test*\"}",
    );
    let edit = Action::File {
        effects: vec![FileEffect::Edit {
            path: "src/a.rs".into(),
        }],
    };
    let test = shell("cargo test", &[&["cargo", "test"]]);
    let ok = traj(vec![load("s"), edit.clone(), test.clone()]);
    assert_eq!(
        labels(&[after.clone()], &ok, Some(0)),
        vec![Label::Exercised]
    );
    let broken = traj(vec![load("s"), test.clone(), edit.clone()]);
    assert_eq!(
        labels(&[after.clone()], &broken, Some(0)),
        vec![Label::Violated]
    );
    let mut open = broken.clone();
    open.complete = false;
    let got = run(&[after.clone()], &open, Some(0));
    assert_eq!(got[0].label, Label::Ambiguous);
    assert_eq!(got[0].reason, Reason::OpenAtEnd);
    assert_eq!(got[0].cited[0].event, Some(2));

    let anywhere = constraint(
        "tests-run",
        "when: {edit: \"src/**\"}\nrequire: {command: \"cargo test*\"}\norder: anywhere",
    );
    assert_eq!(
        labels(&[anywhere], &broken, Some(0)),
        vec![Label::Exercised]
    );

    // Without `when` the load fires the rule; the window is the whole scope.
    let plain = constraint(
        "tests-run",
        "require: {command: \"cargo test*\"}\norder: before",
    );
    assert_eq!(
        labels(&[plain.clone()], &ok, Some(0)),
        vec![Label::Exercised]
    );
    assert_eq!(
        labels(&[plain], &traj(vec![load("s")]), Some(0)),
        vec![Label::Violated]
    );
}

#[test]
fn when_only_manual_and_unverifiable() {
    let when_only = constraint(
        "offer-options",
        "scope: [shared-repo-state]\nwhen: {git: merge}",
    );
    let manual = constraint(
        "offer-options-manual",
        "scope: [shared-repo-state]\nwhen: {git: merge}\nmanual: \"said in conversation\"",
    );
    let none = constraint("be-kind", "");
    let t = traj(vec![
        load("s"),
        shell("git merge x", &[&["git", "merge", "x"]]),
    ]);
    let got = run(
        &[when_only.clone(), manual.clone(), none.clone()],
        &t,
        Some(0),
    );
    assert_eq!(
        got.iter().map(|l| l.label).collect::<Vec<_>>(),
        vec![Label::Ambiguous, Label::Ambiguous, Label::Unverifiable]
    );
    assert_eq!(got[1].cited[0].event, Some(1));
    // An unverifiable rule without scope cites nothing and never fires.
    assert!(got[2].cited.is_empty());
    assert!(!got[2].fired);
    let t = traj(vec![load("s"), shell("ls", &[&["ls"]])]);
    assert_eq!(
        labels(&[when_only, manual, none], &t, Some(0)),
        vec![Label::Untested, Label::Untested, Label::Unverifiable]
    );
}

#[test]
fn undecodable_records_make_scoped_forbids_ambiguous() {
    let scoped = constraint(
        "no-force-push",
        "scope: [shared-repo-state]\nforbid: {git: push, args: [\"--force\"]}",
    );
    let plain = constraint(
        "no-force-push-plain",
        "forbid: {git: push, args: [\"--force\"]}",
    );
    let mut t = traj(vec![load("s"), shell("git push", &[&["git", "push"]])]);
    t.problems.push(DecodeProblem {
        location: Location::line(7),
        kind: ProblemKind::Undecodable,
        detail: "x".into(),
    });
    let got = run(&[scoped.clone(), plain.clone()], &t, Some(0));
    assert_eq!(got[0].label, Label::Ambiguous);
    assert_eq!(got[0].reason, Reason::UndecodableRecords);
    assert_eq!(got[0].cited[0].event, None);
    assert_eq!(got[0].cited[0].line, Some(7));
    assert_eq!(got[1].label, Label::Exercised);
    // Before the load line, or a torn last line: not a hidden action in scope.
    let mut t2 = t.clone();
    t2.events[0].location = Location::line(10);
    assert_eq!(
        labels(&[scoped.clone()], &t2, Some(0)),
        vec![Label::Exercised]
    );
    let mut t3 = traj(vec![load("s")]);
    t3.problems.push(DecodeProblem {
        location: Location::line(9),
        kind: ProblemKind::TruncatedLastLine,
        detail: "x".into(),
    });
    // (and with no push at all the rule never fired)
    assert_eq!(labels(&[scoped], &t3, Some(0)), vec![Label::Untested]);
}

#[test]
fn paths_match_relative_to_the_session_cwd() {
    let c = constraint(
        "no-skill-edits",
        "scope: [self-modification]\nforbid: {touch: \".claude/skills/**\"}",
    );
    let mut t = traj(vec![
        load("s"),
        write("/work/repo/.claude/skills/x/SKILL.md"),
    ]);
    assert_eq!(labels(&[c.clone()], &t, Some(0)), vec![Label::Exercised]);
    t.cwd = Some("/work/repo".into());
    assert_eq!(labels(&[c.clone()], &t, Some(0)), vec![Label::Violated]);
    // `*` stays inside a segment for paths.
    let one = constraint("top-md", "forbid: {write: \"*.md\"}");
    let t = traj(vec![load("s"), write("docs/a.md")]);
    assert_eq!(labels(&[one], &t, Some(0)), vec![Label::Exercised]);
    // Rename either side counts as touch; rename predicate needs both sides.
    let r = constraint(
        "rn",
        "forbid: {rename: {from: \"*.tmp\", to: \"assessment.json\"}}",
    );
    let t = traj(vec![load("s"), rename("a.tmp", "assessment.json")]);
    assert_eq!(
        labels(&[r, c], &t, Some(0)),
        vec![Label::Violated, Label::Exercised]
    );
}

#[test]
fn branch_and_failed_modifiers() {
    let c = constraint(
        "no-push-main",
        "scope: [shared-repo-state]\nforbid: {all: [{git: push}, {branch: main}]}",
    );
    let mut t = traj(vec![load("s"), shell("git push", &[&["git", "push"]])]);
    t.git_branch = Some("main".into());
    assert_eq!(labels(&[c.clone()], &t, Some(0)), vec![Label::Violated]);
    t.git_branch = Some("feature".into());
    assert_eq!(labels(&[c.clone()], &t, Some(0)), vec![Label::Exercised]);
    t.git_branch = None;
    let got = run(&[c], &t, Some(0));
    assert_eq!(
        (got[0].label, got[0].reason),
        (Label::Ambiguous, Reason::BranchUnknown)
    );

    let f = constraint(
        "no-failing-push",
        "forbid: {all: [{git: push}, {failed: true}]}",
    );
    let mut t = traj(vec![load("s"), shell("git push", &[&["git", "push"]])]);
    assert_eq!(labels(&[f.clone()], &t, Some(0)), vec![Label::Exercised]);
    t.events[1].failed = true;
    assert_eq!(labels(&[f], &t, Some(0)), vec![Label::Violated]);
}

#[test]
fn other_leaves_tool_regex_fetch_skill_subagent_not() {
    let cs = [
        constraint("a", "forbid: {tool: \"Web*\"}"),
        constraint("b", "forbid: {command_re: \"^rm -rf\"}"),
        constraint("c", "forbid: {fetch: \"https://evil.example/*\"}"),
        constraint("d", "forbid: {skill: \"other-*\"}"),
        constraint("e", "forbid: {subagent: \"general-*\"}"),
        constraint("f", "forbid: {not: {tool: \"*\"}}"),
    ];
    let mut fetch = Event::new(
        Location::line(2),
        Role::Assistant,
        Action::Fetch {
            url: "https://evil.example/x".into(),
        },
    );
    fetch.tool = Some("WebFetch".into());
    let mut t = traj(vec![load("s")]);
    t.events[0].tool = Some("Skill".into());
    t.events.push(fetch);
    t.events.push(Event::new(
        Location::line(3),
        Role::Assistant,
        shell("rm -rf /", &[&["rm", "-rf", "/"]]),
    ));
    t.events.push(Event::new(
        Location::line(4),
        Role::Assistant,
        load("other-skill"),
    ));
    t.events.push(Event::new(
        Location::line(5),
        Role::Assistant,
        Action::Subagent {
            agent_type: Some("general-purpose".into()),
            agent_id: None,
        },
    ));
    t.events.push(Event::new(
        Location::line(6),
        Role::Assistant,
        shell(
            "curl https://evil.example/y",
            &[&["curl", "https://evil.example/y"]],
        ),
    ));
    for (i, e) in t.events.iter_mut().enumerate() {
        e.index = i;
    }
    let got = run(&cs, &t, Some(0));
    assert!(got.iter().all(|l| l.label == Label::Violated), "{got:?}");
    assert_eq!(got[2].cited_total, 2);
}

#[test]
fn invalid_patterns_are_compile_errors() {
    let c = constraint("bad", "forbid: {command_re: \"(\"}");
    let e = CompiledSet::compile(&[c]).unwrap_err();
    assert_eq!(e.constraint, "bad");
    assert_eq!(e.kind, "regex");
    let c = constraint("bad-glob", "forbid: {read: \"[\"}");
    assert!(CompiledSet::compile(&[c]).is_err());
}

#[test]
fn aggregation_takes_the_worst_and_keeps_each_label() {
    let c = constraint("no-force-push", "forbid: {git: push, args: [\"--force\"]}");
    let w = constraint(
        "when-push",
        "when: {git: push}\nforbid: {git: push, args: [\"--force\"]}",
    );
    let u = constraint("none", "");
    let ok = traj(vec![load("s"), shell("git push", &[&["git", "push"]])]);
    let bad = traj(vec![
        load("s"),
        shell("git push -f", &[&["git", "push", "-f"]]),
    ]);
    let idle = traj(vec![load("s")]);
    let set = CompiledSet::compile(&[c, w, u]).unwrap();
    let s = ScopeStart { load: Some(0) };
    let all = label_all(&set, &[(&ok, s), (&bad, s), (&idle, s)]);
    assert_eq!(all[0].label, Label::Violated);
    assert_eq!(
        all[0]
            .per_trajectory
            .iter()
            .map(|l| l.label)
            .collect::<Vec<_>>(),
        vec![Label::Exercised, Label::Violated, Label::Untested]
    );
    assert_eq!(all[1].per_trajectory[2].label, Label::Untested);
    assert_eq!(all[2].label, Label::Unverifiable);
    let none = label_all(&set, &[]);
    assert_eq!(
        none.iter().map(|c| c.label).collect::<Vec<_>>(),
        vec![Label::Untested, Label::Untested, Label::Unverifiable]
    );
    let _ = (Modality::Must, ScopeTag::SharedRepoState);
}

fn edit(p: &str) -> Action {
    Action::File {
        effects: vec![FileEffect::Edit {
            path: p.to_string(),
        }],
    }
}

fn user_turn() -> Event {
    Event::new(
        Location::default(),
        Role::User,
        Action::UserTurn {
            via: crate::decode::UserTurnVia::Prompt,
            command: None,
        },
    )
}

/// A trajectory of events (indexes and lines set from their position).
fn traj_events(events: Vec<Event>) -> Trajectory {
    let mut t = traj(Vec::new());
    for (i, mut e) in events.into_iter().enumerate() {
        e.index = i;
        e.location = Location::line(i as u64 + 1);
        t.events.push(e);
    }
    t
}

fn ev(a: Action) -> Event {
    Event::new(Location::default(), Role::Assistant, a)
}

fn red_test() -> Action {
    shell("cargo test", &[&["cargo", "test"]])
}

#[test]
fn before_each_judges_every_firing_event() {
    // Shape of a TDD session: a failing test, then a production edit (a
    // compliant cycle); then two more production edits with no failing test.
    let tdd = constraint(
        "red-before-each-edit",
        "when: {edit: \"src/**\"}\nrequire: {all: [{command: \"cargo test*\"}, {failed: true}]}\norder: before-each",
    );
    let before = constraint(
        "red-before",
        "when: {edit: \"src/**\"}\nrequire: {all: [{command: \"cargo test*\"}, {failed: true}]}\norder: before",
    );
    let mut red = ev(red_test());
    red.failed = true;
    let t = traj_events(vec![
        ev(load("s")),
        red.clone(),
        ev(edit("src/a.rs")),
        ev(edit("src/b.rs")),
        ev(Action::Other),
        ev(edit("src/c.rs")),
    ]);
    let got = run(&[tdd.clone(), before], &t, Some(0));
    assert_eq!(got[0].label, Label::Violated);
    assert_eq!(got[0].reason, Reason::RequirementUnmet);
    let at: Vec<Option<usize>> = got[0].cited.iter().map(|c| c.event).collect();
    assert_eq!(at, vec![Some(3), Some(5)], "the two uncovered edits");
    assert!(got[0].cited.iter().all(|c| c.why == Cite::RequirementUnmet));
    assert_eq!(got[0].cited_total, 2);
    // `before`: one red run after the load covers every later edit.
    assert_eq!(got[1].label, Label::Exercised);
    // Each cycle with its own red run: exercised, citing each pair.
    let t = traj_events(vec![
        ev(load("s")),
        red.clone(),
        ev(edit("src/a.rs")),
        red.clone(),
        ev(edit("src/b.rs")),
    ]);
    let got = run(&[tdd], &t, Some(0));
    assert_eq!(got[0].label, Label::Exercised);
    let pairs: Vec<(Option<usize>, Cite)> = got[0].cited.iter().map(|c| (c.event, c.why)).collect();
    assert_eq!(
        pairs,
        vec![
            (Some(2), Cite::WhenMatched),
            (Some(1), Cite::RequireMatched),
            (Some(4), Cite::WhenMatched),
            (Some(3), Cite::RequireMatched),
        ]
    );
}

#[test]
fn after_judges_every_firing_event() {
    let after = constraint(
        "test-after-edit",
        "when: {edit: \"src/**\"}\nrequire: {command: \"cargo test*\"}",
    );
    // edit, test, edit: the second edit has no test after it.
    let t = traj_events(vec![
        ev(load("s")),
        ev(edit("src/a.rs")),
        ev(red_test()),
        ev(edit("src/b.rs")),
    ]);
    let got = run(&[after.clone()], &t, Some(0));
    assert_eq!(got[0].label, Label::Violated);
    assert_eq!(got[0].cited[0].event, Some(3));
    assert_eq!(got[0].cited_total, 1);
    // The same, ended early: the open window may still close.
    let mut open = t.clone();
    open.complete = false;
    let got = run(&[after], &open, Some(0));
    assert_eq!(
        (got[0].label, got[0].reason),
        (Label::Ambiguous, Reason::OpenAtEnd)
    );
}

#[test]
fn consent_gates_take_the_user_turn_as_consent() {
    let gate = constraint(
        "force-push-on-request",
        "scope: [shared-repo-state]\nwhen: {git: push, args: [\"--force\"]}\nrequire: {user_turn: true}\norder: before-each",
    );
    let push = || ev(shell("git push -f", &[&["git", "push", "-f"]]));
    // The user asked: consent taken from the turn, cited.
    let t = traj_events(vec![ev(load("s")), user_turn(), push()]);
    let got = run(&[gate.clone()], &t, Some(0));
    assert_eq!(
        (got[0].label, got[0].reason),
        (Label::Exercised, Reason::ConsentTaken)
    );
    assert_eq!(got[0].cited[1].event, Some(1));
    assert_eq!(got[0].cited[1].why, Cite::ConsentTurn);
    // No user turn since the load: a certain violation, at the push.
    let t = traj_events(vec![ev(load("s")), push()]);
    let got = run(&[gate.clone()], &t, Some(0));
    assert_eq!(
        (got[0].label, got[0].reason),
        (Label::Violated, Reason::NoConsent)
    );
    assert_eq!(got[0].cited[0].event, Some(1));
    // One turn does not cover a second push.
    let t = traj_events(vec![ev(load("s")), user_turn(), push(), push()]);
    let got = run(&[gate.clone()], &t, Some(0));
    assert_eq!(got[0].label, Label::Violated);
    assert_eq!(got[0].cited[0].event, Some(3));
    // A subagent's "user" message is not the user's.
    let mut sub = user_turn();
    sub.agent = AgentPath::Subagent("a1".into());
    let t = traj_events(vec![ev(load("s")), sub, push()]);
    assert_eq!(labels(&[gate], &t, Some(0)), vec![Label::Violated]);
}

#[test]
fn a_forbid_without_when_fires_on_its_own_kind_relaxed() {
    let cs = [
        constraint("no-force-push", "forbid: {git: push, args: [\"--force\"]}"),
        constraint("no-memory-edit", "forbid: {edit: \"**/MEMORY.md\"}"),
        constraint(
            "no-trackers",
            "forbid: {any: [{command: \"gh issue create*\"}, {command: \"bd create*\"}]}",
        ),
        constraint(
            "no-force-re",
            "forbid: {command_re: \"^git push .*(--force|-f)\\\\b\"}",
        ),
    ];
    // A read-only session never tested any of them.
    let read = Action::File {
        effects: vec![FileEffect::Read {
            path: "MEMORY.md".into(),
        }],
    };
    let t = traj(vec![load("s"), read, shell("ls", &[&["ls"]])]);
    assert_eq!(labels(&cs, &t, Some(0)), vec![Label::Untested; 4]);
    // Actions of the same kind that comply: exercised, citing them.
    let t = traj(vec![
        load("s"),
        shell("git push origin x", &[&["git", "push", "origin", "x"]]),
        edit("src/lib.rs"),
        shell("gh pr list", &[&["gh", "pr", "list"]]),
    ]);
    let got = run(&cs, &t, Some(0));
    assert_eq!(
        got.iter().map(|l| l.label).collect::<Vec<_>>(),
        vec![Label::Exercised; 4]
    );
    assert_eq!(
        (got[0].cited[0].event, got[0].cited[0].why),
        (Some(1), Cite::KindMatched)
    );
    assert_eq!(got[1].cited[0].event, Some(2));
    assert_eq!(got[2].cited[0].event, Some(3));
    assert_eq!(got[3].cited[0].event, Some(1));
}

#[test]
fn a_scope_tagged_rule_without_predicate_fires_on_an_action_of_its_scope() {
    let cs = [
        constraint("keep-history", "scope: [shared-repo-state]"),
        constraint("no-secrets", "scope: [sensitive-memory]"),
        constraint("no-self-edit", "scope: [self-modification]"),
        constraint("be-kind", ""),
    ];
    // Reading project files (and the skill's own folder) is no action of any scope.
    let read = |p: &str| Action::File {
        effects: vec![FileEffect::Read { path: p.into() }],
    };
    let t = traj(vec![
        load("s"),
        read("src/lib.rs"),
        read(".claude/skills/s/SKILL.md"),
        shell("git status", &[&["git", "status"]]),
    ]);
    let got = run(&cs, &t, Some(0));
    assert!(got.iter().all(|l| l.label == Label::Unverifiable));
    assert!(got.iter().all(|l| !l.fired), "{got:?}");
    let t = traj(vec![
        load("s"),
        shell("git commit -m x", &[&["git", "commit", "-m", "x"]]),
        read(".env"),
        write(".claude/skills/s/SKILL.md"),
    ]);
    let got = run(&cs, &t, Some(0));
    assert_eq!(
        got.iter().map(|l| l.fired).collect::<Vec<_>>(),
        vec![true, true, true, false]
    );
    assert_eq!(
        (got[0].cited[0].event, got[0].cited[0].why, got[0].reason),
        (Some(1), Cite::ScopeAction, Reason::ScopeAction)
    );
    assert_eq!(got[1].cited[0].event, Some(2));
    assert_eq!(got[2].cited[0].event, Some(3));
}

#[test]
fn a_hosting_tool_that_merges_is_an_action_of_shared_repo_state() {
    let cs = [constraint("keep-history", "scope: [shared-repo-state]")];
    let call = |name: &str| {
        let mut e = Event::new(Location::line(2), Role::Assistant, Action::Other);
        e.tool = Some(name.into());
        e
    };
    // Listing pull requests through the GitHub MCP server changes nothing.
    let mut t = traj(vec![load("s")]);
    t.events.push(call("mcp__github__list_pull_requests"));
    let got = run(&cs, &t, Some(0));
    assert!(!got[0].fired, "{got:?}");
    // Merging one is the same act as `gh pr merge` (lexicon scope `tools`).
    let mut t = traj(vec![load("s")]);
    t.events.push(call("mcp__github__merge_pull_request"));
    let got = run(&cs, &t, Some(0));
    assert!(got[0].fired, "{got:?}");
    assert_eq!(got[0].cited[0].why, Cite::ScopeAction);
    // An issue is the repository's record on GitHub's server, not on a
    // tracker's; a filesystem server's `delete_file` is no repository act.
    for (name, fired) in [
        ("mcp__github__create_issue", true),
        ("mcp__linear-server__create_issue", false),
        ("mcp__filesystem__delete_file", false),
    ] {
        let mut t = traj(vec![load("s")]);
        t.events.push(call(name));
        let got = run(&cs, &t, Some(0));
        assert_eq!(got[0].fired, fired, "{name}: {got:?}");
    }
}

#[test]
fn label_many_is_label_trajectory_per_skill() {
    let a = vec![
        constraint(
            "no-force-push",
            "scope: [shared-repo-state]\nforbid: {git: push, args: [\"--force\"]}",
        ),
        constraint(
            "tests",
            "when: {edit: \"**/*.rs\"}\nrequire: {command: \"*test*\"}",
        ),
    ];
    let b = vec![constraint("no-rm", "forbid: {command_re: \"^rm -rf? /\"}")];
    let (sa, sa2, sb) = (
        CompiledSet::compile(&a).unwrap(),
        CompiledSet::compile(&a).unwrap(),
        CompiledSet::compile(&b).unwrap(),
    );
    assert_eq!(sa.matcher_key, sa2.matcher_key);
    assert_ne!(sa.matcher_key, sb.matcher_key);
    let mut t = traj(vec![
        shell("git push --force", &[&["git", "push", "--force"]]),
        load("s"),
        Action::File {
            effects: vec![FileEffect::Edit {
                path: "src/a.rs".into(),
            }],
        },
        shell("rm -rf /", &[&["rm", "-rf", "/"]]),
        shell("git push --force", &[&["git", "push", "--force"]]),
        shell("cargo test", &[&["cargo", "test"]]),
    ]);
    t.events[4].agent = AgentPath::Subagent("agent-1".into());
    // The same rule twice in one skill, and its rules in another order: the
    // same patterns in another order make another matcher key.
    let c = vec![a[1].clone(), a[0].clone(), a[1].clone()];
    let sc = CompiledSet::compile(&c).unwrap();
    // Same patterns with different scope starts, and another skill between
    // them; skills with the same scope share their alike constraints' labels.
    let sets = [
        (&sa, ScopeStart { load: Some(1) }),
        (&sb, ScopeStart { load: None }),
        (&sa2, ScopeStart { load: Some(3) }),
        (&sa, ScopeStart { load: None }),
        (&sa2, ScopeStart { load: Some(1) }),
        (&sc, ScopeStart { load: Some(1) }),
        (&sc, ScopeStart { load: None }),
        (&sa, ScopeStart { load: Some(1) }),
    ];
    let many = label_many(&sets, &t);
    let compact = label_many_compact(&sets, &t);
    assert_eq!(many.len(), sets.len());
    assert_eq!(compact.len(), sets.len());
    for (((set, scope), got), small) in sets.iter().zip(&many).zip(&compact) {
        let alone = label_trajectory(set, &t, *scope);
        assert_eq!(*got, alone);
        assert_eq!(*small, compact::Labels::from(alone));
    }
    assert_eq!(many[5][1], many[0][0]);
    assert_eq!(many[5][0], many[5][2]);
    assert_eq!(many[0][0].label, Label::Violated);
    assert_eq!(many[2][1].label, Label::Untested);
}

/// A path matched again in the same trajectory (the memo) gets the ids a
/// fresh match gives, whatever the working directory it is seen from.
#[test]
fn memoized_path_matches_are_fresh_matches() {
    let cs = [
        constraint("no-env", "forbid: {read: \"**/.env*\"}"),
        constraint(
            "no-ssh",
            "forbid: {any: [{read: \"~/.ssh/**\"}, {read: \"**/*.pem\"}]}",
        ),
        constraint("no-skill-edits", "forbid: {touch: \".claude/**\"}"),
        constraint(
            "rust",
            "when: {edit: \"src/**/*.rs\"}\nrequire: {command: \"*test*\"}",
        ),
    ];
    let set = CompiledSet::compile(&cs).unwrap();
    let paths = [
        ".env",
        "./a/../.env.local",
        "/work/repo/.claude/settings.json",
        "/home/u/.ssh/id_rsa",
        "key.pem",
        "src/lib.rs",
        "/work/repo/src/x/y.rs",
        "../other/src/z.rs",
        "",
        "/",
    ];
    let cwds = [
        None,
        Some("/work/repo"),
        Some("/work/repo/"),
        Some("relative"),
        Some("/home/u"),
    ];
    let mut memo = facts::PathMemo::default();
    for round in 0..3 {
        for cwd in cwds {
            for p in paths {
                let fresh = set.match_path(p, cwd);
                assert_eq!(
                    set.path_matches(p, cwd, &mut memo),
                    fresh,
                    "{p} {cwd:?} {round}"
                );
            }
        }
    }
    assert!(!set
        .match_path("/work/repo/.claude/x", Some("/work/repo"))
        .is_empty());
}

/// The facts of every event of the real transcripts and the fixtures are
/// the same with the trajectory's memo (paths and texts already matched)
/// as with a fresh one.
#[test]
fn memoized_facts_are_fresh_facts() {
    let cs = [
        constraint(
            "bash-tests",
            "when: {tool: \"Bash\"}\nrequire: {command: \"*test*\"}",
        ),
        constraint("no-force", "forbid: {git: push, args: [\"--force\"]}"),
        constraint("no-curl", "forbid: {fetch: \"*example.com*\"}"),
        constraint(
            "skill",
            "when: {skill: \"*debug*\"}\nrequire: {tool: \"Read\"}",
        ),
        constraint("no-env", "forbid: {read: \"**/.env*\"}"),
    ];
    let set = CompiledSet::compile(&cs).unwrap();
    let mut files = Vec::new();
    for root in ["fixtures/decode", "../shared/realdata/transcripts"] {
        files.extend(
            crate::decode::discover::discover(std::path::Path::new(root)).unwrap_or_default(),
        );
    }
    assert!(files.len() > 20, "the transcripts are there");
    let mut with_tool = 0;
    for f in &files {
        let Ok(t) = crate::decode::decode_path(f, None, &Default::default()) else {
            continue;
        };
        let mut memo = facts::PathMemo::default();
        for round in 0..2 {
            for e in &t.events {
                let cwd = t.cwd.as_deref();
                let got = format!("{:?}", set.facts(e, cwd, &mut memo));
                let fresh = format!("{:?}", set.facts(e, cwd, &mut facts::PathMemo::default()));
                assert_eq!(got, fresh, "{} {round}", f.display());
                with_tool += usize::from(!set.facts(e, cwd, &mut memo).tool.is_empty());
            }
        }
    }
    assert!(with_tool > 0, "some events match a tool glob");
}
