//! `.skillgate.yaml` / `.skillgate.toml` text → configuration (and its printout).
#![no_main]
use libfuzzer_sys::fuzz_target;
use skillgate::config::Config;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = Config::from_yaml_str(Path::new("/r/.skillgate.yaml"), text) {
        let _ = c.to_yaml();
    }
    let _ = Config::from_toml_str(Path::new("/r/.skillgate.toml"), text);
});
