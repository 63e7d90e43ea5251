use super::*;
use crate::extract::{Modality, ScopeTag};

fn rule(id: &str, line: u32, scope: &[ScopeTag]) -> Constraint {
    Constraint {
        id: id.into(),
        text: format!("Rule {id} about `MEMORY.md`."),
        lines: [line, line],
        modality: Modality::Must,
        scope: scope.to_vec(),
        when: None,
        require: None,
        forbid: None,
        order: None,
        manual: None,
    }
}

fn lockfile(constraints: Vec<Constraint>) -> Lockfile {
    Lockfile {
        version: 1,
        skill: "demo".into(),
        source_sha256: "0".repeat(64),
        constraints,
        reviewed: Vec::new(),
        not_rules: Vec::new(),
    }
}

fn pred(s: &str) -> Predicate {
    parse_predicate(s).unwrap().unwrap()
}

#[test]
fn blocking_rules_come_first_and_decided_ones_are_gone() {
    let mut guarded = rule("no-force-push", 9, &[ScopeTag::SharedRepoState]);
    guarded.forbid = Some(pred(r#"{git: push, args: ["--force"]}"#));
    let open = rule("say-hello", 3, &[]);
    let undecidable = rule("ask-first", 12, &[ScopeTag::SharedRepoState]);
    let mut manual = rule("checked-by-people", 14, &[ScopeTag::SensitiveMemory]);
    manual.manual = Some("reviewers read the sessions".into());
    let mut lf = lockfile(vec![open, guarded, undecidable, manual]);
    let q: Vec<(&str, Urgency)> = queue(&lf, None)
        .iter()
        .map(|i| (i.constraint.id.as_str(), i.urgency))
        .collect();
    // A scope-tagged forbid with a predicate blocks only when it fails closed.
    assert_eq!(
        q,
        vec![
            ("ask-first", Urgency::Blocks),
            ("say-hello", Urgency::Open),
            ("no-force-push", Urgency::Open),
        ]
    );
    apply(&mut lf, "ask-first", Decision::Accept).unwrap();
    let q: Vec<&str> = queue(&lf, None)
        .iter()
        .map(|i| i.constraint.id.as_str())
        .collect();
    assert_eq!(q, vec!["say-hello", "no-force-push"]);
}

#[test]
fn manual_needs_a_real_reason_and_drops_the_behavior() {
    let mut c = rule("keep-memory", 5, &[ScopeTag::SensitiveMemory]);
    c.forbid = Some(pred(r#"{edit: "**/MEMORY.md"}"#));
    let mut lf = lockfile(vec![c]);
    for bad in ["", "  ", "TODO", "todo"] {
        let err = apply(&mut lf, "keep-memory", Decision::Manual(bad.into())).unwrap_err();
        assert!(err.0.contains("reason"), "{bad:?}: {err}");
    }
    assert!(
        lf.constraints[0].manual.is_none(),
        "a refusal changes nothing"
    );
    apply(
        &mut lf,
        "keep-memory",
        Decision::Manual("people read the sessions".into()),
    )
    .unwrap();
    let c = &lf.constraints[0];
    assert_eq!(c.manual.as_deref(), Some("people read the sessions"));
    assert!(c.forbid.is_none());
    assert_eq!(lf.reviewed, vec!["keep-memory".to_string()]);
    // The result is a lockfile the gate reads.
    Lockfile::parse(Path::new("x"), &lf.to_yaml()).unwrap();
}

#[test]
fn not_a_rule_is_removed_and_remembered() {
    let mut lf = lockfile(vec![rule("a", 1, &[]), rule("b", 2, &[])]);
    apply(&mut lf, "a", Decision::Accept).unwrap();
    apply(&mut lf, "a", Decision::NotRule).unwrap();
    assert_eq!(lf.constraints.len(), 1);
    assert!(lf.reviewed.is_empty());
    assert_eq!(lf.not_rules, vec!["Rule a about `MEMORY.md`.".to_string()]);
    let back = Lockfile::parse(Path::new("x"), &lf.to_yaml()).unwrap();
    assert_eq!(back, lf, "reviewed and not_rules round-trip");
}

#[test]
fn edits_replace_the_predicates() {
    let mut lf = lockfile(vec![rule("a", 1, &[ScopeTag::SharedRepoState])]);
    apply(
        &mut lf,
        "a",
        Decision::Edit(Edit {
            when: Some(pred("{git: push}")),
            behavior: Some((Behavior::Require, pred(r#"{command: "cargo test*"}"#))),
            order: Some(Order::Before),
        }),
    )
    .unwrap();
    assert_eq!(
        checks(&lf.constraints[0]),
        r#"when {git: push} · require {command: "cargo test*"} · order before"#
    );
    // `order` without `require` is dropped, not written into an invalid file.
    apply(
        &mut lf,
        "a",
        Decision::Edit(Edit {
            when: None,
            behavior: Some((Behavior::Forbid, pred("{git: push}"))),
            order: Some(Order::Before),
        }),
    )
    .unwrap();
    assert_eq!(lf.constraints[0].order, None);
}

#[test]
fn typed_predicates_report_the_column() {
    let e = parse_predicate(r#"{wirte: "x"}"#).unwrap_err();
    assert!(e.message.contains("wirte"), "{e}");
    assert!(e.column >= 1);
    let e = parse_predicate(r#"  {command_re: "("}"#).unwrap_err();
    assert_eq!(e.column, 3, "{e}");
    assert!(e.message.contains("regex"), "{e}");
    assert_eq!(parse_predicate("  ").unwrap(), None);
    assert!(parse_order("sideways").is_err());
    assert_eq!(parse_order("before").unwrap(), Some(Order::Before));
}

#[test]
fn ready_forms_come_from_the_rule() {
    let mut c = rule("keep-memory", 5, &[ScopeTag::SensitiveMemory]);
    c.when = Some(pred(r#"{git: branch, args: ["--delete"]}"#));
    let forms = ready_forms(&c);
    let names: Vec<&str> = forms.iter().map(|(n, _)| *n).collect();
    assert!(names.contains(&"forbid the guarded action"), "{names:?}");
    let guard = forms
        .iter()
        .find(|(n, _)| n.starts_with("path guard"))
        .expect("a path guard from the `MEMORY.md` span");
    assert_eq!(
        guard.1.behavior,
        Some((Behavior::Forbid, pred(r#"{touch: "**/MEMORY.md"}"#)))
    );
}

#[test]
fn waivers_are_added_without_losing_hand_edits() {
    let new = add_waiver(None, false, "demo", "a", "consent is in the chat").unwrap();
    assert_eq!(
        new,
        "# skillgate configuration (docs/config.md)\nwaivers:\n  - {id: \"a\", skill: \"demo\", reason: \"consent is in the chat\"}\n"
    );
    let text =
        "# team settings\nwaivers:\n  # old one\n  - {id: x, reason: \"y\"}\nreport-dir: out\n";
    let out = add_waiver(Some(text), false, "demo", "a", "why").unwrap();
    assert_eq!(
        out,
        "# team settings\nwaivers:\n  # old one\n  - {id: x, reason: \"y\"}\n  - {id: \"a\", skill: \"demo\", reason: \"why\"}\nreport-dir: out\n"
    );
    let out = add_waiver(Some("waivers: []\n"), false, "demo", "a", "why").unwrap();
    assert!(out.starts_with("waivers:\n  - {id: \"a\""), "{out}");
    let out = add_waiver(Some("report-dir: out"), false, "demo", "a", "why").unwrap();
    assert_eq!(
        out,
        "report-dir: out\nwaivers:\n  - {id: \"a\", skill: \"demo\", reason: \"why\"}\n"
    );
    assert!(add_waiver(
        Some("waivers: [{id: x, reason: y}]\n"),
        false,
        "d",
        "a",
        "why"
    )
    .is_err());
    assert!(add_waiver(None, true, "d", "a", "why").is_err());
    assert!(add_waiver(None, false, "d", "a", " ").is_err());
    // Every text produced is a configuration skillgate reads.
    for t in [new, out] {
        crate::config::Config::from_yaml_str(Path::new(".skillgate.yaml"), &t).unwrap();
    }
}
