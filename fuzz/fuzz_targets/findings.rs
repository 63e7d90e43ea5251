//! findings.jsonl bytes → tally → assessment JSON.
//! The body is `entries::findings` (shared with tests/fuzz_regressions.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../entries.rs"]
mod entries;

fuzz_target!(|data: &[u8]| entries::findings(data));
