//! Byte-for-byte guard for decode results (issue #15: speed work must not
//! change what is decoded).
//!
//! Every file under the decoders' fixtures (`fixtures/decode`,
//! `fixtures/decode-others`) and `../shared/realdata/transcripts/` is
//! decoded (sniffed, default options and `keep_content`), the whole
//! `Trajectory` is serialised to JSON and hashed, and one line per file —
//! path, format, event and problem counts, the two hashes — is snapshotted.
//!
//! Any change to a decoder's output changes a hash. When a decoder change is
//! intended, regenerate and read the counts in the diff:
//! `INSTA_UPDATE=always cargo test --test decode_snapshot`.
//! The hashes never reveal content; the snapshot holds no trajectory text.

mod files_common;

use files_common::files_under;
use sha2::{Digest, Sha256};
use skillgate::decode::{decode_path, DecodeOptions};
use std::path::Path;

const REAL: &str = "../shared/realdata/transcripts";

fn hash(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn one(path: &Path, keep_content: bool) -> (String, String) {
    let opts = DecodeOptions { keep_content };
    match decode_path(path, None, &opts) {
        Ok(t) => {
            let json = serde_json::to_vec(&t).expect("a trajectory serialises");
            (
                format!(
                    "{} events={} problems={}",
                    t.format,
                    t.events.len(),
                    t.problems.len()
                ),
                hash(&json),
            )
        }
        Err(e) => (format!("error {}", e.message), hash(e.message.as_bytes())),
    }
}

fn decode_lines(roots: &[&str]) -> String {
    let mut files = Vec::new();
    for root in roots {
        files_under(Path::new(root), &mut files);
    }
    assert!(files.len() > 20, "{roots:?} hold the test inputs");
    let mut out = String::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy();
        if name.ends_with(".retro.yaml") {
            continue; // read with its transcript
        }
        let (what, h) = one(f, false);
        let (what_k, hk) = one(f, true);
        assert_eq!(
            what,
            what_k,
            "{}: content changes what is decoded",
            f.display()
        );
        out.push_str(&format!("{} | {what} | {h} {hk}\n", f.display()));
    }
    out
}

#[test]
fn decode_results_on_fixtures_are_unchanged() {
    insta::assert_snapshot!(
        "fixtures",
        decode_lines(&["fixtures/decode", "fixtures/decode-others"])
    );
}

#[test]
fn decode_results_on_real_transcripts_are_unchanged() {
    let lines = decode_lines(&[REAL]);
    assert!(lines.contains("claude-code-jsonl events="));
    insta::assert_snapshot!("realdata", lines);
}
