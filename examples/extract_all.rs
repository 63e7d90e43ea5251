//! Extraction speed over every real skill: parse + extract each SKILL.md
//! under `../shared/realdata/skills` (or the folder given), and print the
//! figures. A benchmark, not a test: run it in release mode.
//!
//! ```text
//! cargo run --release --example extract_all [-- SKILLS_DIR]
//! ```

use skillgate::extract::{extract, Lexicon};
use skillgate::parse::walk::find_skills;
use skillgate::parse::Skill;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let root = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realdata/skills")
        });
    let files = find_skills(std::slice::from_ref(&root)).expect("skills folder");
    let started = Instant::now();
    let lexicon = Lexicon::builtin();
    let lexicon_time = started.elapsed();
    let pass = |lexicon: &Lexicon| {
        let mut constraints = 0usize;
        let mut lines = 0usize;
        for f in &files {
            let skill = Skill::read(f).expect("skill parses");
            lines += skill.source.lines().count();
            constraints += extract(&skill, lexicon).len();
        }
        (constraints, lines)
    };
    let t = Instant::now();
    let (constraints, lines) = pass(&lexicon);
    let first = t.elapsed();
    let runs = 20;
    let t = Instant::now();
    for _ in 0..runs {
        pass(&lexicon);
    }
    let per_pass = t.elapsed() / runs;
    println!(
        "skills: {} ({} lines) under {}",
        files.len(),
        lines,
        root.display()
    );
    println!("constraints extracted: {constraints}");
    println!(
        "lexicon compile: {:.2} ms",
        lexicon_time.as_secs_f64() * 1e3
    );
    println!(
        "first pass (read + parse + extract, all skills): {:.2} ms",
        first.as_secs_f64() * 1e3
    );
    println!(
        "mean of {runs} passes: {:.2} ms",
        per_pass.as_secs_f64() * 1e3
    );
}
