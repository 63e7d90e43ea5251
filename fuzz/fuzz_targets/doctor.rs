//! Any bytes as a session → decode with content → the doctor's diagnosis and
//! its HTML page.
//! The body is `entries::doctor` (shared with tests/fuzz_regressions.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../entries.rs"]
mod entries;

fuzz_target!(|data: &[u8]| entries::doctor(data));
