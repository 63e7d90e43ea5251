//! Extraction measured on a fourth held-out set, labelled blind and never
//! used for tuning: one contiguous window of writing-skills (lines 140–613,
//! next to the third key's 614–679) and five real skills of
//! `../shared/realdata/skills` in none of the other label files
//! (frontend-design, slack-gif-creator, theme-factory, brand-guidelines,
//! internal-comms), with the dev set's conventions, in
//! `tests/fixtures/extract/heldout4-labels.tsv` (hard calls in the `.md`
//! beside it). Same definitions and table as `tests/extract_measure.rs`
//! (`tests/extract_support/measure.rs`).
//!
//! writing-skills is labelled on one window only, so it is measured on a
//! copy whose body lines outside the window are blank (frontmatter and line
//! numbers kept), as in `tests/extract_heldout3.rs`.
//!
//! `cargo test --test extract_heldout4 -- --nocapture` prints the table. The
//! set is kept blind for whoever works on the extractor: its misses are
//! written down nowhere, and `EXTRACT_MEASURE_VERBOSE` (which lists them)
//! is for auditing the key only, not for tuning. The floors sit about 0.10
//! under the first measurement: alarms for large regressions, not targets.

#[path = "extract_support/measure.rs"]
mod measure;

use std::path::{Path, PathBuf};

const WS: &str = "realdata/skills/obra-superpowers/writing-skills/SKILL.md";
/// The labelled window of writing-skills (1-based, inclusive).
const WS_WINDOW: (usize, usize) = (140, 613);

fn label_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/extract/heldout4-labels.tsv")
}

/// The normative fenced block of the window (the Iron Law, no language).
fn fenced_notes() -> Vec<measure::Label> {
    vec![measure::fenced(
        WS,
        376,
        378,
        "NO SKILL WITHOUT A FAILING TEST FIRST",
    )]
}

#[test]
fn heldout4_labels_are_well_formed() {
    let rows = measure::check_label_file(&label_file());
    assert_eq!(rows, 165, "165 labelled rules");
    let lines = measure::shared_lines(WS);
    assert!(lines.len() > WS_WINDOW.1, "the window ends inside the file");
    assert!(
        lines[WS_WINDOW.0 - 1].starts_with("## ") && lines[WS_WINDOW.1].starts_with("## "),
        "the window is whole `##` sections"
    );
    let ws = measure::rows_in_window(&label_file(), WS, WS_WINDOW);
    assert_eq!(ws, 85, "85 writing-skills rows in the window");
    // No skill of this key is in an earlier key (the writing-skills window
    // sits before the third key's 614–679).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/extract");
    let mut earlier = measure::labels(&measure::shared());
    for name in ["heldout", "heldout2", "heldout3"] {
        earlier.extend(measure::load_labels(
            &dir.join(format!("{name}-labels.tsv")),
        ));
    }
    for l in &measure::load_labels(&label_file()) {
        assert!(
            !earlier
                .iter()
                .any(|e| e.file == l.file
                    && (l.file != WS || (e.first <= l.last && l.first <= e.last))),
            "{}:{} is in an earlier key",
            l.file,
            l.first
        );
    }
}

#[test]
fn extraction_against_the_fourth_heldout_labels() {
    let (per, f) = measure::measure_with_window(&label_file(), fenced_notes(), WS, WS_WINDOW);
    assert_eq!(per.len(), 6, "five held-out skills and one window");
    assert_eq!(f.labelled, 166, "165 labelled rules and 1 fenced block");
    // Floors: about 0.10 under the first (blind) measurement, the key
    // 3f80a63 on main a38d9b8 (docs/constraints.md, "Fourth held-out set
    // (blind)"): found 131/166, matching a label 196/215, checkable 1/11,
    // behavior predicates on checkable rules 1/4, scope 0/11 and 0/0; on
    // 09dadd9 the same except 197/216 matching and scope 1/11 and 1/1.
    // Regression alarms only, not targets. Where the figure is already at
    // the bottom (checkable, scope recall) the floor is 0; behavior
    // precision rests on 4 predicates and scope precision is vacuous (no
    // tag predicted), so their floors leave room for a few new predicates
    // or tags before they trip.
    measure::assert_figures_at_least(&f, [0.69, 0.81, 0.00, 0.10, 0.00, 0.50]);
}
