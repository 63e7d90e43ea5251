//! Byte-for-byte guard for decode results (issue #15: speed work must not
//! change what is decoded).
//!
//! Every file under the decoders' fixtures (`fixtures/decode`,
//! `fixtures/decode-others`) and `../shared/realdata/transcripts/` is
//! decoded (sniffed, default options and `keep_content`), the whole
//! `Trajectory` is serialised to JSON and hashed, and one line per file —
//! path, format, event and problem counts, the two hashes — is snapshotted.
//! A second snapshot does the same for the gate: every real skill judged over
//! the real transcripts, the verdicts serialised and hashed per skill.
//!
//! Any change to a decoder's output changes a hash. When a decoder change is
//! intended, regenerate and read the counts in the diff:
//! `INSTA_UPDATE=always cargo test --test decode_snapshot`.
//! The hashes never reveal content; the snapshot holds no trajectory text.

use sha2::{Digest, Sha256};
use skillgate::decode::{decode_path, DecodeOptions};
use std::path::{Path, PathBuf};

const REAL: &str = "../shared/realdata/transcripts";

fn files_under(root: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.is_file() {
            out.push(p);
        }
    }
}

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

#[test]
fn gate_verdicts_on_real_data_are_unchanged() {
    let cwd = std::env::current_dir().unwrap();
    let skills = [
        PathBuf::from("../shared/realdata/skills"),
        PathBuf::from("../shared/realdata/skills-for-sessions"),
    ];
    let options = skillgate::gate::GateOptions {
        trajectories: vec![PathBuf::from(REAL)],
        cwd,
    };
    let verdicts =
        skillgate::gate::run_gate(&skills, &options, &skillgate::config::Config::default())
            .expect("the gate runs over the real data");
    assert!(verdicts.len() > 30);
    let mut out = String::new();
    for v in &verdicts {
        let json = serde_json::to_vec(v).unwrap();
        out.push_str(&format!(
            "{} | valid={} discarded={} | {}\n",
            v.skill.name,
            v.trajectories.valid.len(),
            v.trajectories.discarded.len(),
            hash(&json)
        ));
    }
    insta::assert_snapshot!("gate_realdata", out);
}
