//! The lexicon is data: the documented example configuration compiles and
//! changes what extraction finds; a bad configured lexicon is rejected with
//! the entry named.

use skillgate::extract::{extract, Lexicon, LexiconFile, Modality, Predicate, ScopeTag};
use skillgate::parse::Skill;
use std::path::Path;

/// The ```yaml block of docs/constraints.md that starts with `lexicon:`.
fn documented_example() -> LexiconFile {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/constraints.md"))
            .unwrap();
    let block = doc
        .split("```yaml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .find(|b| b.starts_with("lexicon:"))
        .expect("a lexicon example in docs/constraints.md");
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Wrapper {
        lexicon: LexiconFile,
    }
    yaml_serde::from_str::<Wrapper>(block)
        .expect("the documented example parses")
        .lexicon
}

fn skill(body: &str) -> Skill {
    let src = format!("---\nname: demo\ndescription: d\n---\n{body}");
    Skill::parse_bytes(Path::new("demo/SKILL.md"), src.as_bytes()).unwrap()
}

#[test]
fn the_documented_example_extends_the_builtin_lexicon() {
    let file = documented_example();
    let lex = Lexicon::with_overrides(&file).expect("the documented example compiles");
    assert_eq!(
        lex.phrases.len(),
        Lexicon::builtin().phrases.len() + file.phrases.len()
    );
    let s = skill("Never deploy to production on a Friday.\n\nNever commit on a release branch.\n\nDo not share customer data.\n");
    let cs = extract(&s, &lex);
    assert_eq!(cs.len(), 3, "{cs:#?}");
    assert_eq!(
        cs[0].forbid,
        Some(Predicate::Command("kubectl apply*".into()))
    );
    assert_eq!(cs[0].scope, vec![ScopeTag::SharedRepoState]);
    assert_eq!(
        cs[1].forbid,
        Some(Predicate::All(vec![
            Predicate::Git {
                subcommand: "commit".into(),
                args: vec![]
            },
            Predicate::Branch("release/*".into())
        ]))
    );
    assert_eq!(cs[2].modality, Modality::MustNot);
    assert_eq!(cs[2].scope, vec![ScopeTag::SensitiveMemory]);
    assert!(cs[2].behavior().is_none());
    // Without the configuration, the builtin lexicon knows none of this
    // team's words: its deploy is not their `kubectl apply`.
    let plain = extract(&s, &Lexicon::builtin());
    assert_ne!(plain[0].forbid, cs[0].forbid);
    assert!(plain[1].forbid.is_none() || plain[1].forbid != cs[1].forbid);
}

#[test]
fn replace_drops_the_builtin_entries() {
    let mut file = documented_example();
    file.replace = true;
    let lex = Lexicon::with_overrides(&file).unwrap();
    let cs = extract(&skill("Never run the tests.\n\nNever force push.\n"), &lex);
    assert!(cs.iter().all(|c| c.behavior().is_none()), "{cs:#?}");
}

#[test]
fn a_bad_configured_lexicon_names_the_entry() {
    let bad: LexiconFile = yaml_serde::from_str(
        "phrases:\n  - match: [\"ok\"]\n    action: {git: push}\n  - match: [\"x ...\"]\n    action: {git: push}\n",
    )
    .unwrap();
    let e = Lexicon::with_overrides(&bad).unwrap_err();
    assert!(e.starts_with("lexicon phrases[1]"), "{e}");
    let bad: LexiconFile =
        yaml_serde::from_str("scopes:\n  - tag: shared-repo-state\n    paths: [\"a/[\"]\n")
            .unwrap();
    let e = Lexicon::with_overrides(&bad).unwrap_err();
    assert!(e.contains("scopes[0].paths"), "{e}");
    assert!(yaml_serde::from_str::<LexiconFile>("scopes:\n  - tag: nonsense\n").is_err());
    assert!(yaml_serde::from_str::<LexiconFile>(
        "phrases:\n  - match: [x]\n    acton: {git: push}\n"
    )
    .is_err());
}
