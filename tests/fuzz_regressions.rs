//! Every input the fuzzers saved (`fuzz/regressions/TARGET/*`: minimised
//! crashes, hangs and slow inputs, docs/reliability.md "Fuzzing"), replayed
//! through the very entry point its fuzz target calls (`fuzz/entries.rs`),
//! plus the grammar-aware extremes `scripts/fuzz.sh` seeds every corpus with
//! (deep nesting, long phrases, huge sizes) run through every entry point.
//! Each must return normally (no panic) within a deadline.

#[path = "../fuzz/entries.rs"]
mod entries;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Per input, in a debug build on a shared machine; the fuzzers ran with 10 s
/// per input on a release build.
const DEADLINE: Duration = Duration::from_secs(60);

/// Run one input on its own thread; Err with what went wrong.
fn replay(target: &'static str, data: Vec<u8>) -> Result<Duration, String> {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::Builder::new()
        .stack_size(8 << 20) // the main thread's size: a deep recursion must not differ from the CLI's
        .spawn(move || {
            let r = std::panic::catch_unwind(|| entries::run(target, &data));
            let _ = tx.send(r.is_ok());
        })
        .expect("spawn");
    match rx.recv_timeout(DEADLINE) {
        Ok(true) => Ok(start.elapsed()),
        Ok(false) => Err("panicked".into()),
        Err(_) => Err(format!("did not finish within {DEADLINE:?} (a hang)")),
    }
}

fn saved_inputs() -> Vec<(&'static str, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut out = Vec::new();
    for target in entries::TARGETS {
        let dir = root.join(target);
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|p| (target, p)));
    }
    out
}

#[test]
fn saved_fuzz_inputs_replay_without_panic_or_hang() {
    let inputs = saved_inputs();
    let mut failures = Vec::new();
    for (target, path) in &inputs {
        let data = std::fs::read(path).expect("read a saved input");
        if let Err(e) = replay(target, data) {
            failures.push(format!("{target} {}: {e}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} saved inputs fail:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}

#[test]
fn every_saved_input_belongs_to_a_known_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    for e in std::fs::read_dir(&root).expect("fuzz/regressions exists") {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_dir() {
            assert!(
                entries::TARGETS.contains(&name.as_str()),
                "fuzz/regressions/{name} is not a fuzz target"
            );
        }
    }
}

/// The extremes `scripts/fuzz.sh` seeds with, built here.
fn extremes() -> Vec<(&'static str, Vec<u8>)> {
    let mut v: Vec<(&'static str, Vec<u8>)> = vec![
        ("deep flow", format!("a: {}\n", "[".repeat(100_000)).into_bytes()),
        ("deep json", format!("{}\n", "[".repeat(100_000)).into_bytes()),
        (
            "deep block",
            (1..=300)
                .map(|i| format!("{}- \n", " ".repeat(i)))
                .collect::<String>()
                .into_bytes(),
        ),
        (
            "alias fan-out",
            b"a: &a [x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nd: [*c, *c, *c, *c]\n"
                .to_vec(),
        ),
        ("blank lines first", {
            let mut b = vec![b'\n'; 65_536];
            b.extend_from_slice(br#"{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","name":"Bash","id":"t","input":{"command":"git push --force"}}]}}"#);
            b.push(b'\n');
            b
        }),
        (
            "long user turn",
            format!(
                "{{\"type\":\"user\",\"sessionId\":\"s\",\"message\":{{\"content\":\"{}\"}}}}\n",
                "never force push to main ".repeat(20_000)
            )
            .into_bytes(),
        ),
        (
            "NaN in one-object JSON",
            br#"{"trajectory":[{"action":"git push --force","observation":"ok","response":"x","thought":NaN}],"info":{"x":Infinity}}"#.to_vec(),
        ),
        (
            "lexicon with six gaps and long alternatives",
            format!(
                "lexicon:\n  phrases:\n    - match: [\"never ... force ... push ... to ... main ... again ... now\"]\n      action: {{git: push, args: [\"--force\"]}}\n    - match: [\"{}push\"]\n      action: {{git: push}}\n",
                "push|".repeat(30)
            )
            .into_bytes(),
        ),
        ("many rules", {
            let mut s = String::from("---\nname: big\ndescription: d\n---\n");
            for i in 0..2000 {
                s.push_str(&format!(
                    "- Never run `git push --force` to main, rule {i}; always ask before deleting `~/.ssh`.\n"
                ));
            }
            s.into_bytes()
        }),
        (
            "many refs",
            (0..2000)
                .map(|i| format!("refs/heads/b{i} 0123456789abcdef0123456789abcdef01234567 refs/heads/b{i} 0000000000000000000000000000000000000000\n"))
                .collect::<String>()
                .into_bytes(),
        ),
        ("NUL and invalid UTF-8", b"---\nname: a\0b\n---\n\xff\xfe{\"type\":\"user\"}\0\n".to_vec()),
        ("BOM", b"\xEF\xBB\xBF---\nname: x\ndescription: y\n---\nNever push.\n".to_vec()),
    ];
    // Markdown that nests without brackets: the rule extractor's parser
    let body =
        |b: String| format!("---\nname: md\ndescription: d\n---\n{b}\nNever push.\n").into_bytes();
    v.push((
        "deep blockquote",
        body(format!("{} Never force push.\n", ">".repeat(50_000))),
    ));
    v.push((
        "deep list",
        body(format!("{}Never force push.\n", "- ".repeat(50_000))),
    ));
    v.push((
        "deep emphasis",
        body(format!("{}x{}", "*_".repeat(50_000), "_*".repeat(50_000))),
    ));
    v.push((
        "deep links",
        body(format!("{}x{}", "[".repeat(50_000), "](y)".repeat(50_000))),
    ));
    v.push(("unclosed backticks", body("`".repeat(100_000))));
    v.push((
        "one long rule",
        body(format!("Never {} push.", "force ".repeat(100_000))),
    ));
    v.push(("empty", Vec::new()));
    v
}

#[test]
fn grammar_aware_extremes_pass_every_entry_point() {
    let mut failures = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    for (name, data) in extremes() {
        for target in entries::TARGETS {
            match replay(target, data.clone()) {
                Ok(took) if took > slowest.0 => slowest = (took, format!("{target} × {name}")),
                Ok(_) => {}
                Err(e) => failures.push(format!("{target} × {name}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("slowest: {} in {:?}", slowest.1, slowest.0);
}
