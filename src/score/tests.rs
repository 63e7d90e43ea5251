//! Unit tests of numbers, outcomes, flags and the verdict.

use super::*;
use crate::label::tests::{constraint, load, shell, traj};
use crate::label::{label_all, CompiledSet, ScopeStart};

fn verdict_of(
    cs: &[Constraint],
    trajs: &[crate::decode::Trajectory],
    waivers: &[Waiver],
) -> SkillVerdict {
    let set = CompiledSet::compile(cs).unwrap();
    let pairs: Vec<_> = trajs
        .iter()
        .map(|t| (t, ScopeStart { load: Some(0) }))
        .collect();
    let labels = label_all(&set, &pairs);
    let valid: Vec<std::sync::Arc<str>> = (0..trajs.len())
        .map(|i| format!("t{i}.jsonl").into())
        .collect();
    score(ScoreInput {
        skill: SkillRef {
            name: "s".into(),
            path: "skills/s/SKILL.md".into(),
        },
        constraints: cs,
        columns: columns(&valid, labels),
        trajectories: TrajectorySet {
            valid: valid.into(),
            ..Default::default()
        },
        source: SourceInfo {
            kind: "lockfile".into(),
            lockfile: Some("skills/s/SKILL.constraints.yaml".into()),
            drift: false,
        },
        waivers,
        thresholds: Thresholds::default(),
    })
}

#[test]
fn numbers_follow_the_spec() {
    use Label::*;
    let n = numbers(
        &[
            Exercised,
            Exercised,
            Violated,
            Ambiguous,
            Untested,
            Unverifiable,
        ],
        5,
    );
    assert_eq!(
        (
            n.extracted,
            n.exercised,
            n.violated,
            n.ambiguous,
            n.untested,
            n.unverifiable
        ),
        (6, 2, 1, 1, 1, 1)
    );
    assert_eq!(n.coverage, Some(0.5));
    // Rounded to 4 decimals: 0.6667, never 0.6666666666666667.
    assert_eq!(n.compliance, Some(0.6667));
    // Adequacy is over the checkable rules (the unverifiable one is out).
    assert_eq!(n.adequacy, Some(0.4));
    let n = numbers(&[Untested, Unverifiable], 1);
    assert_eq!(
        (n.coverage, n.compliance, n.adequacy),
        (None, None, Some(0.0))
    );
    let n = numbers(&[Ambiguous], 1);
    assert_eq!((n.coverage, n.compliance), (Some(0.0), None));
    // Nothing checkable: adequacy is null (and raises no flag).
    assert_eq!(numbers(&[Unverifiable], 0).adequacy, None);
    assert_eq!(numbers(&[], 0).adequacy, None);
    // 1 − 4/5 in floating point is 0.19999999999999996; the output is 0.2.
    let mut labels = vec![Violated; 4];
    labels.push(Exercised);
    assert_eq!(numbers(&labels, 5).compliance, Some(0.2));
    assert_eq!(
        serde_json::to_string(&numbers(&labels, 5).compliance).unwrap(),
        "0.2"
    );
}

#[test]
fn outcome_table() {
    use Label::*;
    assert_eq!(
        outcome(Violated, true, false, false, true),
        Outcome::FailClosed
    );
    assert_eq!(
        outcome(Violated, false, false, false, true),
        Outcome::ComplianceGap
    );
    assert_eq!(
        outcome(Ambiguous, true, false, false, true),
        Outcome::FailClosed
    );
    assert_eq!(
        outcome(Ambiguous, true, true, false, true),
        Outcome::NeedsReview
    );
    assert_eq!(outcome(Ambiguous, false, false, false, true), Outcome::Ok);
    // A scope-tagged rule without predicate blocks only where it fired.
    assert_eq!(
        outcome(Unverifiable, true, false, false, true),
        Outcome::FailClosed
    );
    assert_eq!(
        outcome(Unverifiable, true, false, false, false),
        Outcome::Ok
    );
    assert_eq!(
        outcome(Unverifiable, true, true, false, true),
        Outcome::NeedsReview
    );
    assert_eq!(
        outcome(Unverifiable, true, true, false, false),
        Outcome::CheckedByPeople
    );
    assert_eq!(
        outcome(Unverifiable, false, false, false, true),
        Outcome::Ok
    );
    assert_eq!(outcome(Violated, true, false, true, true), Outcome::Waived);
}

#[test]
fn scoped_violation_fails_closed_with_resolutions() {
    let c = constraint(
        "no-force-push",
        "modality: must-not\nscope: [shared-repo-state]\nforbid: {git: push, args: [\"--force\"]}",
    );
    let t = traj(vec![
        load("s"),
        shell(
            "git push --force origin main",
            &[&["git", "push", "--force", "origin", "main"]],
        ),
    ]);
    let v = verdict_of(&[c], &[t], &[]);
    assert_eq!(v.verdict, Verdict::FailClosed);
    assert_eq!(v.flags, vec![Flag::FailClosed, Flag::UnderExercised]);
    assert_eq!(
        v.constraints[0].check,
        r#"forbid {git: push, args: ["--force"]}"#
    );
    assert_eq!(v.exit(), crate::exit::Exit::Fail);
    assert_eq!(v.exit_code, 1);
    let cv = &v.constraints[0];
    let first = cv.evidence.get(0).unwrap();
    assert_eq!(first.trajectory, "t0.jsonl");
    assert_eq!((first.event, first.line), (Some(1), Some(2)));
    let kinds: Vec<&str> = cv.resolution.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, vec!["inspect-events", "fix-skill", "waive"]);
    assert!(
        cv.resolution[0].hint.contains("t0.jsonl event 1 (line 2)"),
        "{:?}",
        cv.resolution[0]
    );
    assert!(cv.resolution[2]
        .example
        .as_deref()
        .unwrap()
        .contains("id: no-force-push, skill: s"));
}

#[test]
fn waivers_never_block_and_are_listed() {
    let c = constraint(
        "no-force-push",
        "scope: [shared-repo-state]\nforbid: {git: push, args: [\"--force\"]}",
    );
    let t = traj(vec![
        load("s"),
        shell("git push -f", &[&["git", "push", "-f"]]),
    ]);
    let w = vec![
        Waiver {
            id: "no-force-push".into(),
            skill: Some("s".into()),
            reason: "consent in chat".into(),
        },
        Waiver {
            id: "other".into(),
            skill: None,
            reason: "r".into(),
        },
        Waiver {
            id: "x".into(),
            skill: Some("another-skill".into()),
            reason: "r".into(),
        },
    ];
    let v = verdict_of(&[c], &[t], &w);
    assert_eq!(v.constraints[0].label, Label::Violated);
    assert!(v.constraints[0].waived);
    assert_eq!(v.constraints[0].outcome, Outcome::Waived);
    // Nothing was exercised: only the non-blocking flag remains.
    assert_eq!(v.verdict, Verdict::UnderExercised);
    assert_eq!(v.exit_code, 0);
    assert_eq!(v.waivers.len(), 2);
    assert!(v.waivers[0].matched && !v.waivers[1].matched);
}

#[test]
fn manual_rules_need_review_or_are_checked_by_people() {
    let m = constraint(
        "offer-options",
        "scope: [shared-repo-state]\nwhen: {git: merge}\nmanual: \"in conversation\"",
    );
    let u = constraint(
        "tone",
        "scope: [shared-repo-state]\nmanual: \"people check tone\"",
    );
    let e = constraint("ran", "require: {command: \"ls*\"}");
    let t = traj(vec![
        load("s"),
        shell("git merge x", &[&["git", "merge", "x"]]),
        shell("ls", &[&["ls"]]),
    ]);
    let v = verdict_of(&[m, u, e], &[t], &[]);
    assert_eq!(v.constraints[0].outcome, Outcome::NeedsReview);
    // `git merge` is an action of its scope: the manual rule fired, people look.
    assert_eq!(v.constraints[1].outcome, Outcome::NeedsReview);
    assert_eq!(v.verdict, Verdict::NeedsReview);
    // One checkable rule, exercised: adequacy 1.
    assert_eq!(v.numbers.adequacy, Some(1.0));
    assert_eq!(v.flags, vec![Flag::NeedsReview]);
    assert_eq!(v.exit(), crate::exit::Exit::Ok);
    assert!(v.constraints[0].resolution[0]
        .hint
        .contains("t0.jsonl event 1"));
}

#[test]
fn undecided_scoped_rules_fail_closed_and_say_how_to_resolve() {
    let w = constraint(
        "offer-options",
        "scope: [shared-repo-state]\nwhen: {git: merge}",
    );
    let n = constraint("careful", "scope: [sensitive-memory]\nmodality: must-not");
    let t = traj(vec![
        load("s"),
        shell("git merge x", &[&["git", "merge", "x"]]),
        shell("cat .env", &[&["cat", ".env"]]),
    ]);
    let v = verdict_of(&[w, n], &[t], &[]);
    assert_eq!(v.verdict, Verdict::FailClosed);
    for c in &v.constraints {
        assert_eq!(c.outcome, Outcome::FailClosed);
        let kinds: Vec<&str> = c.resolution.iter().map(|r| r.kind.as_str()).collect();
        assert!(
            kinds.contains(&"pin-predicate")
                && kinds.contains(&"mark-manual")
                && kinds.contains(&"waive"),
            "{kinds:?}"
        );
    }
    assert_eq!(
        v.constraints[1].resolution[0].example.as_deref(),
        Some(r#"forbid: {read: "**/.env*"}"#)
    );
}

#[test]
fn unscoped_violation_is_a_compliance_gap_and_adequacy_is_configurable() {
    let c = constraint(
        "tests-first",
        "when: {git: push}\nrequire: {command: \"cargo test*\"}\norder: before",
    );
    let ok = constraint("ok", "forbid: {command: \"rm -rf*\"}");
    // `rm x` is an action of the forbidden kind (any `rm`): the forbid is exercised.
    let t = traj(vec![
        load("s"),
        shell("git push", &[&["git", "push"]]),
        shell("rm x", &[&["rm", "x"]]),
    ]);
    let v = verdict_of(&[c, ok], &[t], &[]);
    assert_eq!(v.verdict, Verdict::ComplianceGap);
    assert_eq!(v.flags, vec![Flag::ComplianceGap, Flag::UnderExercised]);
    assert_eq!(v.numbers.adequacy, Some(0.5));
    assert_eq!(v.exit_code, 0);
}

#[test]
fn no_valid_trajectory_is_nothing_to_measure() {
    let c = constraint("a", "forbid: {command: \"x\"}");
    let s = constraint("careful", "scope: [sensitive-memory]");
    let v = verdict_of(&[c, s], &[], &[]);
    assert_eq!(v.exit(), crate::exit::Exit::NothingToMeasure);
    assert_eq!(v.exit_code, 3);
    // The verdict says so too: not fail-closed, no flag.
    assert_eq!(v.verdict, Verdict::NothingToMeasure);
    assert!(v.flags.is_empty());
    assert_eq!(v.constraints[0].label, Label::Untested);
    assert_eq!(v.constraints[1].outcome, Outcome::Ok);
}

#[test]
fn every_code_is_kebab_case_unique_and_matches_its_serde_name() {
    use crate::label::{Cite, Reason};
    fn check<T: serde::Serialize>(items: &[(T, &str)]) {
        let mut seen = std::collections::HashSet::new();
        for (v, s) in items {
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(s));
            assert!(s.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{s}");
            assert!(seen.insert(s.to_string()), "duplicate code {s}");
        }
    }
    check(&Label::ALL.map(|l| (l, l.as_str())));
    check(&Flag::ALL.map(|f| (f, f.as_str())));
    let verdicts = [
        Verdict::NothingToMeasure,
        Verdict::Pass,
        Verdict::UnderExercised,
        Verdict::NeedsReview,
        Verdict::ComplianceGap,
        Verdict::FailClosed,
    ];
    check(&verdicts.map(|v| (v, v.as_str())));
    let outcomes = [
        Outcome::Ok,
        Outcome::FailClosed,
        Outcome::NeedsReview,
        Outcome::CheckedByPeople,
        Outcome::ComplianceGap,
        Outcome::Waived,
    ];
    check(&outcomes.map(|o| (o, o.as_str())));
    let reasons = [
        Reason::NotFired,
        Reason::Complied,
        Reason::Satisfied,
        Reason::ForbiddenAction,
        Reason::RequirementUnmet,
        Reason::OpenAtEnd,
        Reason::UndecodableRecords,
        Reason::BranchUnknown,
        Reason::Undecidable,
        Reason::NoPredicate,
        Reason::ScopeAction,
        Reason::ConsentTaken,
        Reason::NoConsent,
    ];
    check(&reasons.map(|r| (r, r.as_str())));
    assert!(reasons.iter().all(|r| !r.describe().is_empty()));
    let cites = [
        Cite::SkillLoad,
        Cite::WhenMatched,
        Cite::ForbidMatched,
        Cite::ForbidMaybe,
        Cite::RequireMatched,
        Cite::RequireMaybe,
        Cite::RequirementUnmet,
        Cite::RequirementOpen,
        Cite::UndecodableRecord,
        Cite::KindMatched,
        Cite::ScopeAction,
        Cite::ConsentTurn,
    ];
    check(&cites.map(|c| (c, c.as_str())));
    // Verdict severity follows SPEC §6.
    let mut sorted = verdicts;
    sorted.sort();
    assert_eq!(sorted, verdicts);
}
