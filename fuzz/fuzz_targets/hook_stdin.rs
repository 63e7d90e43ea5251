//! The pre-push hook's standard input (git's ref lines).
//! The body is `entries::hook_stdin` (shared with tests/fuzz_regressions.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../entries.rs"]
mod entries;

fuzz_target!(|data: &[u8]| entries::hook_stdin(data));
