//! Any bytes as a session → decode with content → the doctor's diagnosis and
//! its HTML page.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skillgate::decode::{decode_path, DecodeOptions};
use skillgate::doctor::{diagnose, DoctorOptions, SessionInput};

fuzz_target!(|data: &[u8]| {
    let p = std::env::temp_dir().join(format!(
        "skillgate-fuzz-doctor-{}.jsonl",
        std::process::id()
    ));
    std::fs::write(&p, data).unwrap();
    let input = match decode_path(&p, None, &DecodeOptions { keep_content: true }) {
        Ok(t) => SessionInput::Decoded(Box::new(t)),
        Err(e) => SessionInput::Undecodable {
            path: p.clone(),
            line: e.line,
            message: e.message,
            recovered: skillgate::doctor::turns::from_plain_text(&String::from_utf8_lossy(data)),
        },
    };
    let report = diagnose(&input, &DoctorOptions::default());
    let _ = skillgate::doctor::html::render(
        &report,
        &skillgate::doctor::html::RenderContext {
            generated_at: "2026-01-01T00:00:00Z",
            version: "fuzz",
        },
    );
});
