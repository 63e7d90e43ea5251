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
    measure::assert_figures_at_least(&f, [0.89, 0.96, 0.70, 0.65, 0.85, 0.95]);
}
