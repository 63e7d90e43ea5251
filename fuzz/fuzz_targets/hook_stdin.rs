//! The pre-push hook's standard input (git's ref lines).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(refs) = skillgate::release::push::parse_push_lines(text) {
            for r in &refs {
                let _ = r.kind();
                let _ = r.describe();
            }
        }
    }
});
