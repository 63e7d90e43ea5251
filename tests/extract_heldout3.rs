//! Extraction measured on a third held-out set, labelled blind (its miss
//! causes were worked on in stop 24; the fourth set is the blind one): five real skills of `../shared/realdata/skills` in none
//! of the other label files (brainstorming, using-superpowers,
//! property-based-testing, web-artifacts-builder, mcp-builder) and the last
//! section of a sixth (writing-skills lines 614–679), with the dev set's
//! conventions, in `tests/fixtures/extract/heldout3-labels.tsv` (hard calls
//! in the `.md` beside it). Same definitions and table as
//! `tests/extract_measure.rs` (`tests/extract_support/measure.rs`).
//!
//! writing-skills is labelled on one window only, so it is measured on a
//! copy whose body lines outside the window are blank (frontmatter and line
//! numbers kept): constraints elsewhere in that long skill then neither
//! count as unmatched nor as found.
//!
//! `cargo test --test extract_heldout3 -- --nocapture` prints the table;
//! `EXTRACT_MEASURE_VERBOSE=1` also lists every miss, missing predicate,
//! scope difference and extracted rule matching no label. The floors sit a
//! little under what is measured now, so a regression fails the build; they
//! are not targets.

#[path = "extract_support/measure.rs"]
mod measure;

use std::path::{Path, PathBuf};

const WS: &str = "realdata/skills/obra-superpowers/writing-skills/SKILL.md";
/// The labelled window of writing-skills (1-based, inclusive).
const WS_WINDOW: (usize, usize) = (614, 679);

fn label_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/extract/heldout3-labels.tsv")
}

#[test]
fn heldout3_labels_are_well_formed() {
    let rows = measure::check_label_file(&label_file());
    assert_eq!(rows, 179, "179 labelled rules");
    assert_eq!(
        measure::shared_lines(WS).len(),
        WS_WINDOW.1,
        "the window runs to the end of the file"
    );
    let ws = measure::rows_in_window(&label_file(), WS, WS_WINDOW);
    assert_eq!(ws, 34, "34 writing-skills rows in the window");
}

#[test]
fn extraction_against_the_third_heldout_labels() {
    let (per, f) = measure::measure_with_window(&label_file(), Vec::new(), WS, WS_WINDOW);
    assert_eq!(per.len(), 6, "five held-out skills and one window");
    assert_eq!(f.labelled, 179, "179 labelled rules, no fenced blocks");
    // Floors: a little under the first (blind) measurement, the key
    // (6a82de1) on main d7870e3 and again on fe0052c (docs/constraints.md,
    // "Third held-out set (blind)"):
    // found 157/179, matching a label 185/199, checkable 20/45, behavior
    // predicates on checkable rules 19/20, scope 3/12 and 3/3. They are
    // regression alarms, not targets.
    // Raised in stop 24, after its cause list was worked on (so it is no
    // longer blind; key 4 is): found 168/179, checkable 33/45, scope 5/12
    // and 5/5. Twelve tagged rows: one pair moves recall by 0.08.
    // Stop 25 (skills about writing skills: tests are subagent runs ordered
    // around the skill's write, and such rules are self-modification):
    // checkable 37/45, scope 10/12 recall and 10/10 precision (twelve
    // tagged rows: one wrong tag moves precision by 0.09, so its floor sits
    // at 0.80).
    measure::assert_figures_at_least(&f, [0.90, 0.90, 0.75, 0.85, 0.70, 0.80]);
}
