//! The fuzzed entry points, one function per libFuzzer target: shared by the
//! targets in `fuzz/fuzz_targets/` and by `tests/fuzz_regressions.rs` (which
//! replays every saved input in `fuzz/regressions/TARGET/` through the same
//! function), so a crash input found by fuzzing is a regression test.
//! Every function must return normally for any input: a panic (or a hang,
//! or unbounded memory) is a skillgate defect.
#![allow(dead_code)]

use skillgate::config::Config;
use skillgate::extract::{extract, Lexicon, Lockfile};
use skillgate::parse::Skill;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The fuzz target names, in the order `scripts/fuzz.sh` lists them.
pub const TARGETS: [&str; 8] = [
    "skill_extract_lockfile",
    "lockfile",
    "config",
    "transcript_label",
    "doctor",
    "contract_grade",
    "findings",
    "hook_stdin",
];

/// Run `data` through the entry point of `target`.
pub fn run(target: &str, data: &[u8]) {
    match target {
        "skill_extract_lockfile" => skill_extract_lockfile(data),
        "lockfile" => lockfile(data),
        "config" => config(data),
        "transcript_label" => transcript_label(data),
        "doctor" => doctor(data),
        "contract_grade" => contract_grade(data),
        "findings" => findings(data),
        "hook_stdin" => hook_stdin(data),
        other => panic!("unknown fuzz target {other}"),
    }
}

/// A scratch path unique to this process and thread (the regression test
/// runs targets on several threads at once).
fn scratch(name: &str) -> PathBuf {
    let thread = format!("{:?}", std::thread::current().id())
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>();
    std::env::temp_dir().join(format!(
        "skillgate-fuzz-{}-{thread}-{name}",
        std::process::id()
    ))
}

/// SKILL.md → parse → extract → lockfile YAML → parse back: every lockfile
/// skillgate writes must read back.
pub fn skill_extract_lockfile(data: &[u8]) {
    let path = Path::new("fuzz/SKILL.md");
    let Ok(skill) = Skill::parse_bytes(path, data) else {
        return;
    };
    let lexicon = Lexicon::builtin();
    let constraints = extract(&skill, &lexicon);
    let lf = Lockfile {
        version: skillgate::extract::lockfile::LOCKFILE_VERSION,
        skill: skill.name(),
        source_sha256: skill.sha256.clone(),
        constraints,
        reviewed: Vec::new(),
        not_rules: Vec::new(),
    };
    let yaml = lf.to_yaml();
    if let Err(e) = Lockfile::parse(Path::new("fuzz/SKILL.constraints.yaml"), &yaml) {
        panic!("a lockfile skillgate wrote does not read back: {e}\n{yaml}");
    }
}

/// A lockfile's text → parse and validate; a valid one also round-trips.
pub fn lockfile(data: &[u8]) {
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
}

const LEXICON_SKILL: &str = include_str!("seeds/lexicon-skill.md");

fn lexicon_skill() -> &'static Skill {
    static S: OnceLock<Skill> = OnceLock::new();
    S.get_or_init(|| {
        Skill::parse_bytes(
            Path::new("lexicon-skill/SKILL.md"),
            LEXICON_SKILL.as_bytes(),
        )
        .expect("seed skill parses")
    })
}

fn with_lexicon(c: &Config) {
    if c.lexicon == Default::default() {
        return;
    }
    if let Ok(lexicon) = Lexicon::with_overrides(&c.lexicon) {
        let _ = extract(lexicon_skill(), &lexicon);
    }
}

/// `.skillgate.yaml` / `.skillgate.toml` text → configuration (and its
/// printout); a configuration with a `lexicon:` then extracts the rules of a
/// skill of long sentences (seeds/lexicon-skill.md), so configured phrases —
/// many `...` gaps, long alternatives — meet long nearly-matching text.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = Config::from_yaml_str(Path::new("/r/.skillgate.yaml"), text) {
        let _ = c.to_yaml();
        with_lexicon(&c);
    }
    if let Ok(c) = Config::from_toml_str(Path::new("/r/.skillgate.toml"), text) {
        with_lexicon(&c);
    }
}

const LABEL_LOCK: &str = include_str!("seeds/labels.constraints.yaml");

fn label_set() -> &'static skillgate::label::CompiledSet {
    static S: OnceLock<skillgate::label::CompiledSet> = OnceLock::new();
    S.get_or_init(|| {
        let lf = Lockfile::parse(Path::new("labels.constraints.yaml"), LABEL_LOCK)
            .expect("seed lockfile");
        skillgate::label::CompiledSet::compile(&lf.constraints).expect("seed lockfile compiles")
    })
}

/// Any bytes as a transcript file → sniff, decode (every decoder, with and
/// without content) → label against constraints that touch every predicate kind.
pub fn transcript_label(data: &[u8]) {
    use skillgate::decode::{decode_path, DecodeOptions};
    use skillgate::label::{label_all, ScopeStart};
    // the extension matters to some sniffers: try the two shapes
    for ext in ["jsonl", "json"] {
        let p = scratch(&format!("transcript.{ext}"));
        std::fs::write(&p, data).expect("write the scratch transcript");
        for keep_content in [false, true] {
            if let Ok(t) = decode_path(&p, None, &DecodeOptions { keep_content }) {
                let load = skillgate::decode::skills::first_load(&t, "demo")
                    .map(|l| l.index)
                    .filter(|i| *i < t.events.len());
                let _ = label_all(label_set(), &[(&t, ScopeStart { load })]);
            }
        }
        let _ = std::fs::remove_file(&p);
    }
}

/// Any bytes as a session → decode with content (or plain-text recovery) →
/// the doctor's diagnosis and its HTML page.
pub fn doctor(data: &[u8]) {
    use skillgate::decode::{decode_path, DecodeOptions};
    use skillgate::doctor::{diagnose, DoctorOptions, SessionInput};
    let p = scratch("doctor.jsonl");
    std::fs::write(&p, data).expect("write the scratch session");
    let input = match decode_path(&p, None, &DecodeOptions { keep_content: true }) {
        Ok(t) => SessionInput::Decoded(Box::new(t)),
        Err(e) => SessionInput::Undecodable {
            path: p.clone(),
            line: e.line,
            message: e.message,
            recovered: skillgate::doctor::turns::from_plain_text(&String::from_utf8_lossy(data)),
        },
    };
    let _ = std::fs::remove_file(&p);
    let report = diagnose(&input, &DoctorOptions::default());
    let _ = skillgate::doctor::html::render(
        &report,
        &skillgate::doctor::html::RenderContext {
            generated_at: "2026-01-01T00:00:00Z",
            version: "fuzz",
        },
    );
}

/// A grade contract's text → parse → execution grade and effectiveness audit
/// against an evidence folder of seeds (never outside it).
pub fn contract_grade(data: &[u8]) {
    use skillgate::grade::{audit, execution, read_contract};
    let dir = scratch("grade");
    let _ = std::fs::create_dir_all(dir.join("out"));
    let _ = std::fs::write(dir.join("out/result.txt"), "ok\nPASS 3 tests\n");
    let p = dir.join("contract.yaml");
    std::fs::write(&p, data).expect("write the scratch contract");
    if let Ok(c) = read_contract(&p) {
        let _ = execution(&c, &[], &dir);
        let _ = audit(&c, &[], &dir);
    }
    // (The scratch directory goes with the input: no run leaves one behind.)
    let _ = std::fs::remove_dir_all(&dir);
}

/// findings.jsonl bytes → tally → assessment JSON.
pub fn findings(data: &[u8]) {
    use skillgate::assess::{tally_findings, Severity};
    if let Ok(t) = tally_findings(data, Severity::Low, 1 << 16, |_| {}) {
        let a = t.finish(None, "model".into(), "2026-01-01T00:00:00Z".into());
        let _ = a.to_json_pretty();
    }
}

/// The pre-push hook's standard input (git's ref lines).
pub fn hook_stdin(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(refs) = skillgate::release::push::parse_push_lines(text) {
            for r in &refs {
                let _ = r.kind();
                let _ = r.describe();
            }
        }
    }
}
