//! `.skillgate.yaml` / `.skillgate.toml` text → configuration (and its
//! printout); a configuration with a `lexicon:` is then used to extract the
//! rules of a skill made of long sentences (seeds/lexicon-skill.md), so
//! configured phrases — many `...` gaps, long alternatives — meet long
//! nearly-matching text (issue 19, point 6).
//! The body is `entries::config` (shared with tests/fuzz_regressions.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../entries.rs"]
mod entries;

fuzz_target!(|data: &[u8]| entries::config(data));
