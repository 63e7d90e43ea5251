//! Any bytes as a transcript file → sniff, decode (every decoder) → label
//! against a fixed set of constraints that touch every predicate kind.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skillgate::decode::{decode_path, DecodeOptions};
use skillgate::extract::Lockfile;
use skillgate::label::{label_all, CompiledSet, ScopeStart};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const LOCK: &str = include_str!("../seeds/labels.constraints.yaml");

fn set() -> &'static CompiledSet {
    static S: OnceLock<CompiledSet> = OnceLock::new();
    S.get_or_init(|| {
        let lf =
            Lockfile::parse(Path::new("labels.constraints.yaml"), LOCK).expect("seed lockfile");
        CompiledSet::compile(&lf.constraints).expect("seed lockfile compiles")
    })
}

fn file(ext: &str) -> PathBuf {
    std::env::temp_dir().join(format!("skillgate-fuzz-{}.{ext}", std::process::id()))
}

fuzz_target!(|data: &[u8]| {
    // the extension matters to some sniffers: try the two shapes
    for ext in ["jsonl", "json"] {
        let p = file(ext);
        std::fs::write(&p, data).unwrap();
        for keep_content in [false, true] {
            if let Ok(t) = decode_path(&p, None, &DecodeOptions { keep_content }) {
                let load = skillgate::decode::skills::first_load(&t, "demo")
                    .map(|l| l.index)
                    .filter(|i| *i < t.events.len());
                let _ = label_all(set(), &[(&t, ScopeStart { load })]);
            }
        }
    }
});
