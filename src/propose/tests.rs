use super::text::*;
use crate::extract::{Constraint, Modality, Predicate};

fn c(text: &str, m: Modality) -> Constraint {
    Constraint {
        id: "r".into(),
        text: text.into(),
        lines: [1, 1],
        modality: m,
        scope: vec![],
        when: None,
        require: None,
        forbid: None,
        order: None,
        manual: None,
    }
}

#[test]
fn strengthen_turns_soft_words_into_must() {
    assert_eq!(
        strengthen("You should not push to main.", Modality::ShouldNot),
        "You MUST NOT push to main."
    );
    assert_eq!(
        strengthen("You should run tests.", Modality::Should),
        "You MUST run tests."
    );
    assert_eq!(
        strengthen("never delete it", Modality::MustNot),
        "NEVER delete it"
    );
    assert_eq!(
        strengthen("Don't do it", Modality::MustNot),
        "MUST NOT do it"
    );
}

#[test]
fn lines_keep_their_endings() {
    let s = "a\r\nb\nc";
    let l = split_lines(s);
    assert_eq!(l, vec![("a", "\r\n"), ("b", "\n"), ("c", "")]);
    let owned: Vec<(String, &str)> = l.iter().map(|(t, e)| (t.to_string(), *e)).collect();
    assert_eq!(join_lines(&owned), s);
}

#[test]
fn insert_keys_at_the_item_end_without_final_newline() {
    let lf = "constraints:\n  - id: a\n    text: \"x\"\n  - id: b\n    text: \"y\"";
    let out = insert_keys(lf, "a", &["require: {command: \"cargo test*\"}".into()]).unwrap();
    assert_eq!(
        out,
        "constraints:\n  - id: a\n    text: \"x\"\n    require: {command: \"cargo test*\"}\n  - id: b\n    text: \"y\""
    );
    let out = insert_keys(lf, "b", &["manual: \"m\"".into()]).unwrap();
    assert!(out.ends_with("    text: \"y\"\n    manual: \"m\""), "{out}");
    assert!(insert_keys(lf, "zz", &[]).is_none());
}

#[test]
fn derive_takes_the_quoted_command_not_the_trigger() {
    let mut k = c(
        "Before any `git push`, you MUST run `cargo test`.",
        Modality::Must,
    );
    k.when = Some(Predicate::Git {
        subcommand: "push".into(),
        args: vec![],
    });
    let (key, p, order) = derive_predicate(&k).unwrap();
    assert_eq!(key, "require");
    assert_eq!(p, Predicate::Command("cargo test*".into()));
    assert_eq!(order, Some(crate::extract::Order::Before));
    assert!(derive_predicate(&c("Tell the user first.", Modality::Must)).is_none());
}

#[test]
fn constraints_section_is_created_or_extended() {
    let out = add_to_constraints_section("# T\n\ntext", "- You MUST: x");
    assert_eq!(out, "# T\n\ntext\n\n## Constraints\n\n- You MUST: x\n");
    let out = add_to_constraints_section("# T\n\n## Constraints\n\n- a\n\n## Next\n", "- b");
    assert_eq!(out, "# T\n\n## Constraints\n\n- a\n- b\n\n## Next\n");
}

#[test]
fn preconditions_are_worded_from_the_rules_own_condition() {
    let mut k = c("Run the tests.", Modality::Must);
    // A require fired by the load alone has no precondition to spell out.
    k.require = Some(Predicate::Command("git commit*".into()));
    assert_eq!(precondition(&k), None);
    k.when = Some(Predicate::Edit("src/**".into()));
    k.require = Some(Predicate::Command("cargo test*".into()));
    k.order = Some(crate::extract::Order::BeforeEach);
    let p = precondition(&k).unwrap();
    assert!(p.contains("whenever there is an edit of `src/**`"), "{p}");
    assert!(!p.contains("from the moment this skill is loaded"), "{p}");
    // A consent gate says what the user must do.
    k.when = Some(Predicate::Git {
        subcommand: "push".into(),
        args: vec!["--force".into()],
    });
    k.require = Some(Predicate::UserTurn);
    let p = precondition(&k).unwrap();
    assert!(
        p.contains("before each `git push --force`, wait for the user's explicit go-ahead"),
        "{p}"
    );
}
