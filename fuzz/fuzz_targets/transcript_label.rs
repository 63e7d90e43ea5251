//! Any bytes as a transcript file → sniff, decode (every decoder) → label
//! against a fixed set of constraints that touch every predicate kind.
//! The body is `entries::transcript_label` (shared with tests/fuzz_regressions.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../entries.rs"]
mod entries;

fuzz_target!(|data: &[u8]| entries::transcript_label(data));
