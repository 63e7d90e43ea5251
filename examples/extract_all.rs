//! Extraction quality and speed.
//!
//! ```text
//! cargo run --release --example extract_all                 # dev-set figures, per skill and in total
//! cargo run --release --example extract_all -- --verbose    # ... and every miss, extra, scope difference
//! cargo run --release --example extract_all -- --survey DIR # per SKILL.md under DIR: rules, predicates, scope
//! cargo run --release --example extract_all -- --bench [DIR] # speed over every SKILL.md under DIR
//! cargo run --release --example extract_all -- --labels FILE --root DIR [--verbose]
//!                  # figures against any label file whose paths are relative to DIR
//! ```
//!
//! `--labels` measures a key kept outside the repository (real public skills
//! labelled blind that are not ours to commit): same table, same definitions.
//!
//! The dev-set figures compare extraction with the hand-labelled rules of
//! `../shared/research/extraction-dev-labels.tsv` (definitions in
//! `tests/extract_support/measure.rs`): rules found, checkable rules given a
//! behavior predicate, scope recall and precision, and the extracted rules
//! that match no labelled rule.

#[path = "../tests/extract_support/measure.rs"]
mod measure;

use skillgate::extract::{extract, Lexicon};
use skillgate::parse::walk::find_skills;
use skillgate::parse::Skill;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shared = measure::shared();
    match args.first().map(String::as_str) {
        Some("--bench") => bench(
            args.get(1)
                .map(PathBuf::from)
                .unwrap_or_else(|| shared.join("realdata/skills")),
        ),
        Some("--labels") => {
            let (Some(file), Some("--root"), Some(root)) =
                (args.get(1), args.get(2).map(String::as_str), args.get(3))
            else {
                eprintln!("usage: extract_all --labels FILE --root DIR");
                std::process::exit(2);
            };
            let verbose = args.get(4).map(String::as_str) == Some("--verbose");
            let labels = measure::load_labels(std::path::Path::new(file));
            // A skill that does not parse is named with its error (exit 2)
            // before any figure is printed, not a panic mid-table.
            let files: std::collections::BTreeSet<&str> =
                labels.iter().map(|l| l.file.as_str()).collect();
            for f in files {
                let path = std::path::Path::new(root).join(f);
                if let Err(e) = Skill::read(&path) {
                    eprintln!("error: {e}");
                    std::process::exit(2);
                }
            }
            let (per, total) = measure::measure_labels(
                std::path::Path::new(root),
                &labels,
                &Lexicon::builtin(),
                |l| {
                    if verbose {
                        println!("{l}");
                    }
                },
            );
            println!(
                "extraction vs {file} ({} labelled rules, {} skills)",
                total.labelled,
                per.len()
            );
            measure::print_table(&per, &total);
        }
        Some("--survey") => survey(
            args.get(1)
                .map(PathBuf::from)
                .unwrap_or_else(|| shared.join("realdata/skills")),
        ),
        other => {
            let verbose = other == Some("--verbose");
            let lexicon = Lexicon::builtin();
            let mut lines = Vec::new();
            let (per, total) = measure::measure(&shared, &lexicon, |l| lines.push(l));
            if verbose {
                for l in &lines {
                    println!("{l}");
                }
                println!();
            }
            println!(
                "extraction vs extraction-dev-labels.tsv ({} labelled rules incl. 4 normative fenced blocks, {} skills)",
                total.labelled,
                per.len()
            );
            measure::print_table(&per, &total);
        }
    }
}

/// Per skill: rules, rules with a behavior predicate, with only `when`,
/// scope-tagged, and scope-tagged with no predicate at all (those fire on
/// any action of their scope: SPEC §6).
fn survey(root: PathBuf) {
    let files = find_skills(std::slice::from_ref(&root)).expect("skills folder");
    let lexicon = Lexicon::builtin();
    println!("| skill | rules | with require/forbid | when only | unverifiable | scope-tagged | scope-tagged, no predicate |");
    println!("|---|---|---|---|---|---|---|");
    let mut tot = [0usize; 6];
    for f in &files {
        let skill = Skill::read(f).expect("skill parses");
        let cs = extract(&skill, &lexicon);
        let behavior = cs.iter().filter(|c| c.behavior().is_some()).count();
        let when_only = cs
            .iter()
            .filter(|c| c.behavior().is_none() && c.when.is_some())
            .count();
        let unverifiable = cs
            .iter()
            .filter(|c| c.behavior().is_none() && c.when.is_none())
            .count();
        let scoped = cs.iter().filter(|c| !c.scope.is_empty()).count();
        let scoped_blind = cs
            .iter()
            .filter(|c| !c.scope.is_empty() && c.behavior().is_none() && c.when.is_none())
            .count();
        let name = f
            .strip_prefix(&root)
            .unwrap_or(f)
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        println!(
            "| {name} | {} | {behavior} | {when_only} | {unverifiable} | {scoped} | {scoped_blind} |",
            cs.len()
        );
        for (t, v) in tot.iter_mut().zip([
            cs.len(),
            behavior,
            when_only,
            unverifiable,
            scoped,
            scoped_blind,
        ]) {
            *t += v;
        }
    }
    println!(
        "| **total ({} skills)** | {} | {} | {} | {} | {} | {} |",
        files.len(),
        tot[0],
        tot[1],
        tot[2],
        tot[3],
        tot[4],
        tot[5]
    );
}

fn bench(root: PathBuf) {
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
