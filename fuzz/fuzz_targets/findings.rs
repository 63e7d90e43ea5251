//! findings.jsonl bytes → tally → assessment JSON.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skillgate::assess::{tally_findings, Severity};

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = tally_findings(data, Severity::Low, 1 << 16, |_| {}) {
        let a = t.finish(None, "model".into(), "2026-01-01T00:00:00Z".into());
        let _ = a.to_json_pretty();
    }
});
