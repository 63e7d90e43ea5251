//! SKILL.md → parse → extract → lockfile YAML → parse back: every lockfile
//! skillgate writes must read back (a failure here is a skillgate defect).
#![no_main]
use libfuzzer_sys::fuzz_target;
use skillgate::extract::{extract, Lexicon, Lockfile};
use skillgate::parse::Skill;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz/SKILL.md");
    let Ok(skill) = Skill::parse_bytes(path, data) else {
        return;
    };
    let lexicon = Lexicon::builtin();
    let constraints = extract(&skill, &lexicon);
    let lf = Lockfile {
        version: skillgate::extract::lockfile::LOCKFILE_VERSION,
        skill: skill.name(),
        source_sha256: skill.sha256.clone(),
        constraints,
    };
    let yaml = lf.to_yaml();
    if let Err(e) = Lockfile::parse(Path::new("fuzz/SKILL.constraints.yaml"), &yaml) {
        panic!("a lockfile skillgate wrote does not read back: {e}\n{yaml}");
    }
});
