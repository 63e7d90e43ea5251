//! A grade contract's text → parse → execution grade and effectiveness audit
//! against an evidence folder of seeds (never outside it).
#![no_main]
use libfuzzer_sys::fuzz_target;
use skillgate::grade::{audit, execution, read_contract};

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("skillgate-fuzz-grade-{}", std::process::id()));
    let _ = std::fs::create_dir_all(dir.join("out"));
    let _ = std::fs::write(dir.join("out/result.txt"), "ok\nPASS 3 tests\n");
    let p = dir.join("contract.yaml");
    std::fs::write(&p, data).unwrap();
    if let Ok(c) = read_contract(&p) {
        let _ = execution(&c, &[], &dir);
        let _ = audit(&c, &[], &dir);
    }
});
