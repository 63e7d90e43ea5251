//! A grade contract's text → parse → execution grade and effectiveness audit
//! against an evidence folder of seeds (never outside it).
//! The body is `entries::contract_grade` (shared with tests/fuzz_regressions.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../entries.rs"]
mod entries;

fuzz_target!(|data: &[u8]| entries::contract_grade(data));
