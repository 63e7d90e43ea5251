//! Extraction measured on a second held-out set, never used for tuning: four
//! real skills of `../shared/realdata/skills` that are in neither the
//! development set nor the first held-out set (which has since been tuned
//! on), labelled blind with the dev set's conventions in
//! `tests/fixtures/extract/heldout2-labels.tsv` (hard calls in the `.md`
//! beside it). Same definitions and table as `tests/extract_measure.rs`
//! (`tests/extract_support/measure.rs`).
//!
//! `cargo test --test extract_heldout2 -- --nocapture` prints the table;
//! `EXTRACT_MEASURE_VERBOSE=1` also lists every miss, missing predicate,
//! scope difference and extracted rule matching no label. The floors sit a
//! little under what is measured now, so a regression fails the build; they
//! are not targets: do not tune the extractor on these skills.

#[path = "extract_support/measure.rs"]
mod measure;

use skillgate::extract::Lexicon;
use skillgate::review::{parse_order, parse_predicate};
use std::path::{Path, PathBuf};

const SD: &str = "realdata/skills/obra-superpowers/systematic-debugging/SKILL.md";

fn label_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/extract/heldout2-labels.tsv")
}

/// The normative fenced blocks (no language, pseudo-code directives) the
/// `.md` names: counted for rules found and unmatched extractions only.
fn fenced_notes() -> Vec<measure::Label> {
    [
        (SD, 16, 18, "Iron Law: NO FIXES WITHOUT ROOT CAUSE"),
        (SD, 75, 85, "For EACH component boundary"),
    ]
    .into_iter()
    .map(|(file, first, last, quote)| measure::fenced(file, first, last, quote))
    .collect()
}

/// A TSV cell as written (CSV-style quoting: `"…"` with `""` inside).
fn cell(raw: &str) -> String {
    match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => raw.to_string(),
    }
}

#[test]
fn heldout2_labels_are_well_formed() {
    let text = std::fs::read_to_string(label_file()).expect("second held-out labels");
    let shared = measure::shared();
    let mut rows = 0;
    for (i, line) in text.lines().enumerate().skip(1) {
        let at = format!("heldout2-labels.tsv:{}", i + 1);
        let f: Vec<String> = line.split('\t').map(cell).collect();
        assert_eq!(f.len(), 11, "{at}: 11 columns");
        let skill = std::fs::read_to_string(shared.join(&f[0]))
            .unwrap_or_else(|e| panic!("{at}: {}: {e}", f[0]));
        let (first, last): (usize, usize) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        assert!(
            1 <= first && first <= last && last <= skill.lines().count(),
            "{at}: lines {first}-{last}"
        );
        assert!(
            ["must", "must-not", "should", "should-not"].contains(&f[3].as_str()),
            "{at}: modality {}",
            f[3]
        );
        assert!(["yes", "no"].contains(&f[4].as_str()), "{at}: checkable");
        for tag in f[5].split(',') {
            assert!(
                [
                    "none",
                    "shared-repo-state",
                    "sensitive-memory",
                    "self-modification"
                ]
                .contains(&tag.trim()),
                "{at}: scope {tag}"
            );
        }
        let pred = |j: usize| {
            if f[j] == "-" {
                None
            } else {
                parse_predicate(&f[j]).unwrap_or_else(|e| panic!("{at}: column {j}: {}", e.message))
            }
        };
        let (when, require, forbid) = (pred(7), pred(8), pred(9));
        assert_eq!(
            f[4] == "yes",
            require.is_some() || forbid.is_some(),
            "{at}: a checkable row has a behavior predicate, and only it"
        );
        assert!(
            require.is_none() || forbid.is_none(),
            "{at}: require xor forbid"
        );
        assert!(
            when.is_none() || f[4] == "yes",
            "{at}: when only on checkable rows"
        );
        if f[10] != "-" {
            assert!(require.is_some(), "{at}: order only with require");
            parse_order(&f[10]).unwrap_or_else(|e| panic!("{at}: order: {}", e.message));
        }
        rows += 1;
    }
    assert_eq!(rows, 111, "111 labelled rules");
}

#[test]
fn extraction_against_the_second_heldout_labels() {
    let verbose = std::env::var_os("EXTRACT_MEASURE_VERBOSE").is_some();
    let mut labels = measure::load_labels(&label_file());
    labels.extend(fenced_notes());
    let (per, f) = measure::measure_labels(&measure::shared(), &labels, &Lexicon::builtin(), |l| {
        if verbose {
            println!("{l}");
        }
    });
    println!("{}", measure::HEADER);
    for (name, s) in &per {
        println!("{}", s.row(name));
    }
    println!("{}", f.row("total"));
    println!(
        "behavior predicates on rules labelled checkable: {}/{} = {:.2}",
        f.with_behavior_on_decidable,
        f.with_behavior,
        f.behavior_precision()
    );
    assert_eq!(per.len(), 4, "four held-out skills");
    assert_eq!(f.labelled, 113, "111 labelled rules and 2 fenced blocks");
    // Floors: a little under the figures measured at 21bfbcf, the labels
    // untouched since they were written (docs/constraints.md, "Second
    // held-out set (never tuned on)"): found 95/113, matching a label
    // 160/162, checkable 3/20, behavior predicates on checkable rules 3/4,
    // scope 2/3 and 2/2. They are regression alarms, not targets. Checkable
    // is 5/20 since the regression it revealed was fixed (a later step of a
    // procedure under a conditional heading follows the first step again).
    let floors = [
        ("rules found", f.recall(), 0.82),
        ("extracted rules matching a label", f.precision(), 0.95),
        ("checkable rules with a predicate", f.checkable(), 0.20),
        (
            "behavior predicates on checkable rules",
            f.behavior_precision(),
            0.60,
        ),
        // Three tagged rows: one pair moves these by a third.
        ("scope recall", f.scope_recall(), 0.60),
        ("scope precision", f.scope_precision(), 0.60),
    ];
    for (what, got, floor) in floors {
        assert!(got >= floor, "{what} fell to {got:.3} (floor {floor})");
    }
}
