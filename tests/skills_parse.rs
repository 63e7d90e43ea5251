//! Parse and walk over the real skills in ../shared/realdata/skills.

use skillgate::parse::walk::find_skills;
use skillgate::parse::Skill;
use std::path::{Path, PathBuf};

const REAL: &str = "../shared/realdata/skills";

#[test]
fn every_real_skill_is_found_in_sorted_order() {
    let found = find_skills(&[PathBuf::from(REAL)]).unwrap();
    assert_eq!(found.len(), 31);
    let mut sorted = found.clone();
    sorted.sort();
    assert_eq!(found, sorted);
    assert_eq!(
        found[0],
        Path::new(REAL).join("anthropics-skills/brand-guidelines/SKILL.md")
    );
    assert!(found.iter().all(|p| p.ends_with("SKILL.md")));
}

#[test]
fn every_real_skill_parses_with_name_description_and_lines() {
    for path in find_skills(&[PathBuf::from(REAL)]).unwrap() {
        let skill = Skill::read(&path).unwrap_or_else(|e| panic!("{e}"));
        let fm = skill
            .frontmatter
            .as_ref()
            .expect("real skills have frontmatter");
        let folder = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        assert_eq!(fm.name.as_deref(), Some(folder), "{}", path.display());
        assert!(fm.description.as_deref().is_some_and(|d| !d.is_empty()));
        assert_eq!(fm.key_lines["name"], 2, "{}", path.display());
        // The closing fence is the line before the body.
        assert_eq!(skill.line(fm.end_line), Some("---"));
        assert_eq!(skill.body_start, fm.end_line + 1);
        // Every recorded key line really starts with that key.
        for (k, n) in &fm.key_lines {
            assert!(
                skill.line(*n).unwrap().starts_with(k.as_str()),
                "{}:{n}",
                path.display()
            );
        }
        assert_eq!(skill.sha256.len(), 64);
    }
}

#[test]
fn real_frontmatter_shapes() {
    let s = Skill::read(
        Path::new(REAL)
            .join("openai-skills/create-plan/SKILL.md")
            .as_path(),
    )
    .unwrap();
    let fm = s.frontmatter.unwrap();
    assert_eq!(fm.key_lines["metadata"], 4);
    assert_eq!(fm.sub_key_lines["metadata"]["short-description"], 5);
    assert_eq!(
        fm.metadata.unwrap()["short-description"].as_str(),
        Some("Create a plan")
    );

    let s = Skill::read(
        Path::new(REAL)
            .join("trailofbits-skills/differential-review/SKILL.md")
            .as_path(),
    )
    .unwrap();
    let fm = s.frontmatter.unwrap();
    assert_eq!(
        fm.allowed_tools.unwrap().as_str(),
        Some("Read Write Grep Glob Bash")
    );
    assert!(fm
        .description
        .unwrap()
        .starts_with("Performs security-focused differential review"));
    assert_eq!(fm.key_lines["allowed-tools"], 8);

    let s = Skill::read(
        Path::new(REAL)
            .join("trailofbits-skills/property-based-testing/SKILL.md")
            .as_path(),
    )
    .unwrap();
    let fm = s.frontmatter.unwrap();
    assert_eq!(fm.key_lines["effort"], 3);
    let extra: Vec<_> = fm
        .extra_keys()
        .map(|(k, _)| k.as_str().unwrap().to_string())
        .collect();
    assert_eq!(extra, ["effort"]);
}

mod robustness {
    use proptest::prelude::*;
    use skillgate::parse::validate::validate;
    use skillgate::parse::Skill;
    use std::path::Path;

    /// Pieces of frontmatter and markdown, so generated files look like skills
    /// often enough to reach the YAML and lint code, not only the byte checks.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("---\n".to_string()),
            Just("name: a-b\n".to_string()),
            Just("description: >\n  x\n".to_string()),
            Just("metadata:\n  k: [1, {a: b}]\n".to_string()),
            Just("allowed-tools:\n  - Read\n".to_string()),
            Just("a: &x [1, 2]\nb: *x\n".to_string()),
            Just("\t".to_string()),
            Just("```\n".to_string()),
            Just("~~~~\n".to_string()),
            Just("[{".to_string()),
            Just("\"".to_string()),
            Just("<b>".to_string()),
            "[ -~]{0,20}\n",
            "\\PC{0,10}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            if let Ok(s) = Skill::parse_bytes(Path::new("p/SKILL.md"), &bytes) {
                let _ = validate(&s);
            }
        }

        #[test]
        fn skill_shaped_text_never_panics_and_locates_errors(parts in proptest::collection::vec(piece(), 0..16)) {
            let text = parts.concat();
            match Skill::parse_bytes(Path::new("p/SKILL.md"), text.as_bytes()) {
                Ok(s) => {
                    let lines = text.lines().count().max(1) as u32;
                    for d in validate(&s) {
                        prop_assert!(d.line >= 1 && d.line <= lines + 1, "{d} in {lines} lines");
                        prop_assert!(d.col >= 1);
                    }
                }
                Err(e) => {
                    prop_assert!(e.line >= 1, "{e}");
                    prop_assert!(e.line as usize <= text.lines().count().max(1), "{e}");
                }
            }
        }
    }
}
