//! A lockfile's text → parse and validate; a valid one also round-trips.
//! The body is `entries::lockfile` (shared with tests/fuzz_regressions.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../entries.rs"]
mod entries;

fuzz_target!(|data: &[u8]| entries::lockfile(data));
