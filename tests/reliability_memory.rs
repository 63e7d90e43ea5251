//! Issue 19 point 7: memory stays flat in bad records. Its own test binary,
//! so the children's peak memory (getrusage) is this one run's alone.

use std::process::Command;

/// Peak resident memory of the children waited for so far, in KiB.
#[cfg(target_os = "linux")]
fn children_max_rss_kib() -> i64 {
    // SAFETY: getrusage fills the struct it is given.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
        u.ru_maxrss
    }
}

#[cfg(target_os = "linux")]
#[test]
fn p07_memory_is_flat_in_a_million_bad_records() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("s.jsonl");
    let first =
        r#"{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"hi"}}"#;
    let mut text = String::with_capacity(4 << 20);
    text.push_str(first);
    text.push('\n');
    // half undecodable, half records of no known type: both are counted problems
    for i in 0..500_000 {
        text.push_str(if i % 2 == 0 { "{}\n" } else { "{oops\n" });
    }
    std::fs::write(&p, &text).unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("skillgate"))
        .args(["trajectory", p.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rss_mib = children_max_rss_kib() / 1024;
    // before the fix: ~125 bytes per record held (and ~1 KB each in JSON output)
    assert!(
        rss_mib < 50,
        "peak memory {rss_mib} MiB for 500,000 bad records"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = v[0]["problems"].as_array().unwrap().len();
    assert!(
        problems <= skillgate::decode::MAX_KEPT_PROBLEMS,
        "{problems}"
    );
    // the text view says how many were counted beyond the kept ones
    let out = Command::new(assert_cmd::cargo::cargo_bin("skillgate"))
        .args(["trajectory", p.to_str().unwrap()])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("more, counted but not listed"), "{shown}");
}
