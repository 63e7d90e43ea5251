//! Extraction measured on a second held-out set, labelled blind (tuned on
//! since stop 24; the fourth set is the blind one now): four
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
//! are not targets.

#[path = "extract_support/measure.rs"]
mod measure;

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

#[test]
fn heldout2_labels_are_well_formed() {
    let rows = measure::check_label_file(&label_file());
    assert_eq!(rows, 111, "111 labelled rules");
}

#[test]
fn extraction_against_the_second_heldout_labels() {
    let (per, f) = measure::measure_and_print(&label_file(), fenced_notes());
    assert_eq!(per.len(), 4, "four held-out skills");
    assert_eq!(f.labelled, 113, "111 labelled rules and 2 fenced blocks");
    // Floors: a little under the figures measured at 21bfbcf, the labels
    // untouched since they were written (docs/constraints.md, "Second
    // held-out set (never tuned on)"): found 95/113, matching a label
    // 160/162, checkable 3/20, behavior predicates on checkable rules 3/4,
    // scope 2/3 and 2/2. They are regression alarms, not targets. Checkable
    // is 5/20 since the regression it revealed was fixed (a later step of a
    // procedure under a conditional heading follows the first step again).
    // Raised in stop 24, when this set became a tuning set (its miss causes
    // were fixed: MCP tools, sequences, flags): found 104/113, checkable
    // 13/20. Three tagged rows: one pair moves the scope figures by a third.
    measure::assert_figures_at_least(&f, [0.90, 0.95, 0.60, 0.60, 0.60, 0.60]);
}
