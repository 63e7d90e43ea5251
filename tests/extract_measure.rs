//! Extraction measured against the hand-labelled development set (357 rules
//! of 11 skills plus 4 normative fenced blocks; definitions in
//! `tests/extract_support/measure.rs`). Prints the figures
//! (`cargo test --test extract_measure -- --nocapture`; every miss with
//! `EXTRACT_MEASURE_VERBOSE=1`) and asserts floors, so a regression fails the
//! build. The per-skill table: `cargo run --release --example extract_all`.

#[path = "extract_support/measure.rs"]
mod measure;

use skillgate::extract::Lexicon;

#[test]
fn extraction_against_the_dev_labels() {
    let verbose = std::env::var_os("EXTRACT_MEASURE_VERBOSE").is_some();
    let (per, f) = measure::measure(&measure::shared(), &Lexicon::builtin(), |l| {
        if verbose {
            println!("{l}");
        }
    });
    println!("{}", measure::HEADER);
    for (name, s) in &per {
        println!("{}", s.row(name));
    }
    println!("{}", f.row("total"));
    assert_eq!(per.len(), 11, "eleven labelled skills");
    assert_eq!(f.labelled, 361, "357 labelled rules and 4 fenced blocks");
    // Floors: a little under the figures measured (docs/constraints.md).
    let floors = [
        ("rules found", f.recall(), 0.89),
        ("extracted rules matching a label", f.precision(), 0.96),
        ("checkable rules with a predicate", f.checkable(), 0.70),
        (
            "behavior predicates on checkable rules",
            f.behavior_precision(),
            0.65,
        ),
        ("scope recall", f.scope_recall(), 0.85),
        ("scope precision", f.scope_precision(), 0.95),
    ];
    measure::assert_floors(&floors);
}
