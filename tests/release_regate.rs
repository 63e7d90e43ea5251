//! `ship` and the pre-push hook agree (seed 004, "when to skip: a pure
//! metadata/frontmatter change … needs no trajectory"): a change to a skill's
//! frontmatter or non-normative text only is not re-gated by either; a
//! change to a rule is re-gated by both (release::normative, docs/integrations.md).

mod release_common;

use release_common::*;
use serde_json::Value;

const SKILL_MD: &str = "skills/tidy-branches/SKILL.md";

fn edit(t: &TestRepo, from: &str, to: &str) {
    let p = t.work().join(SKILL_MD);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from));
    std::fs::write(&p, text.replace(from, to)).unwrap();
}

fn ship(t: &TestRepo, extra: &[&str]) -> (Run, Value) {
    let mut args = vec!["ship", "skills/tidy-branches", "--no-report"];
    args.extend_from_slice(extra);
    let r = run(&t.work(), &args, "", &[]);
    let v = serde_json::from_str(&r.stdout).unwrap_or(Value::Null);
    (r, v)
}

#[test]
fn a_frontmatter_only_change_is_not_re_gated_by_ship_nor_the_hook() {
    let t = TestRepo::new();
    t.add_skill();
    t.add_session("forced", "s1");
    let c1 = t.commit("a skill and a session that breaks its scoped rule");
    edit(
        &t,
        "description: Cleans up and pushes release branches.",
        "description: Tidies and pushes release branches, then reports what moved.",
    );
    edit(
        &t,
        "# Tidy branches\n",
        "# Tidy branches\n\nBackground: branches pile up after releases.\n",
    );
    let c2 = t.commit("frontmatter and prose only");

    let hook = pre_push(
        &t,
        &line(
            "refs/heads/main",
            &c2.to_string(),
            "refs/heads/main",
            &c1.to_string(),
        ),
    );
    assert_eq!(hook.code, 0, "{}", hook.stderr);
    assert!(
        hook.stderr.contains(
            "skills/tidy-branches/SKILL.md: frontmatter or non-normative text only: not re-gated (no rule changed)"
        ),
        "{}",
        hook.stderr
    );
    let (r, v) = ship(&t, &["--base", &c1.to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(v["ship"], true);
    assert!(
        v["reasons"][0]
            .as_str()
            .unwrap()
            .starts_with("not re-gated: since "),
        "{v}"
    );
    assert_eq!(v["gate"], Value::Null);

    // A rule change is re-gated by both, and both block on the session.
    edit(
        &t,
        "Keep the changelog readable.",
        "Keep the changelog readable.\nYou MUST NOT push to `main` directly.",
    );
    let c3 = t.commit("a new rule");
    let hook = pre_push(
        &t,
        &line(
            "refs/heads/main",
            &c3.to_string(),
            "refs/heads/main",
            &c2.to_string(),
        ),
    );
    assert_eq!(hook.code, 1, "{}", hook.stderr);
    let (r, v) = ship(&t, &["--base", &c2.to_string()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(v["verdict"], "fail-closed");
}

#[test]
fn ship_measures_an_uncommitted_change_from_head_by_default() {
    let t = TestRepo::new();
    t.add_skill();
    t.commit("a skill without sessions");
    // Unchanged since HEAD: the gate runs, nothing to measure (exit 3).
    let (r, _) = ship(&t, &[]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    // Frontmatter only: not re-gated, ships (the hook lets it through too).
    edit(
        &t,
        "name: tidy-branches\ndescription: Cleans",
        "name: tidy-branches\nlicense: MIT\ndescription: Cleans",
    );
    let (r, v) = ship(&t, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        v["reasons"][0]
            .as_str()
            .unwrap()
            .contains("since HEAD only frontmatter"),
        "{v}"
    );
    // A changed rule: re-gated (nothing to measure again).
    edit(
        &t,
        "You MUST NOT read `.env` files",
        "You MUST NOT read or print `.env` files",
    );
    let (r, _) = ship(&t, &[]);
    assert_eq!(r.code, 3, "{}", r.stderr);
}
