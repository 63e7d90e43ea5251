//! A lockfile's text → parse and validate; a valid one also round-trips.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skillgate::extract::Lockfile;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz/SKILL.constraints.yaml");
    if let Ok(lf) = Lockfile::parse(path, text) {
        let yaml = lf.to_yaml();
        if let Err(e) = Lockfile::parse(path, &yaml) {
            panic!("a valid lockfile does not survive its own writer: {e}\n{yaml}");
        }
    }
});
