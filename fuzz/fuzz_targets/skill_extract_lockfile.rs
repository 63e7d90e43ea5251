//! SKILL.md → parse → extract → lockfile YAML → parse back: every lockfile
//! skillgate writes must read back (a failure here is a skillgate defect).
//! The body is `entries::skill_extract_lockfile` (shared with tests/fuzz_regressions.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../entries.rs"]
mod entries;

fuzz_target!(|data: &[u8]| entries::skill_extract_lockfile(data));
