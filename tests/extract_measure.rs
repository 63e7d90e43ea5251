//! Extraction measured against the hand-labelled development set
//! (`../shared/research/extraction-dev-labels.tsv`, conventions in the `.md`
//! beside it). Prints the figures (`cargo test --test extract_measure --
//! --nocapture`) and asserts floors, so a regression fails the build.
//!
//! Definitions (one labelled row = one rule of a skill, with its lines):
//! - rules found (recall): labelled rows overlapped by the lines of at least
//!   one extracted constraint;
//! - precision of found rules: extracted constraints (in the five skills)
//!   whose lines overlap at least one labelled row;
//! - decidable rules given a behavior predicate: labelled rows marked
//!   decidable that an overlapping constraint gives a `require` or `forbid`;
//!   and, the other way, the share of constraints with a behavior predicate
//!   whose overlapping rule is labelled decidable;
//! - scope tags: over (rule, tag) pairs — a tag predicted for a labelled row
//!   is the union of the tags of the constraints that overlap it; tags of
//!   constraints overlapping no labelled row count as false positives.

use skillgate::extract::{extract, Constraint, Lexicon, ScopeTag};
use skillgate::parse::Skill;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

struct Label {
    file: String,
    first: u32,
    last: u32,
    decidable: bool,
    scope: BTreeSet<String>,
    quote: String,
    /// From the notes, not the TSV.
    note: bool,
}

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

fn labels() -> Vec<Label> {
    let text = std::fs::read_to_string(shared().join("research/extraction-dev-labels.tsv"))
        .expect("dev labels");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Label {
                file: f[0].to_string(),
                first: f[1].parse().expect("first"),
                last: f[2].parse().expect("last"),
                decidable: f[4] == "yes",
                scope: f[5]
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty() && *s != "none")
                    .map(String::from)
                    .collect(),
                quote: f[6].to_string(),
                note: false,
            }
        })
        .collect()
}

/// The normative fenced blocks the labels' notes name as rules an extractor
/// should find, though the TSV leaves them out (counted for rules found and
/// precision only: the notes give no modality, decidability or scope).
fn fenced_notes() -> Vec<Label> {
    let tdd = "realdata/skills/obra-superpowers/test-driven-development/SKILL.md";
    let vbc = "realdata/skills/obra-superpowers/verification-before-completion/SKILL.md";
    [
        (tdd, 33, 35, "Iron Law"),
        (tdd, 315, 318, "Final Rule"),
        (vbc, 16, 18, "Iron Law"),
        (vbc, 24, 36, "Gate Function"),
    ]
    .into_iter()
    .map(|(file, first, last, quote)| Label {
        file: file.to_string(),
        first,
        last,
        decidable: false,
        scope: BTreeSet::new(),
        quote: format!("(fenced) {quote}"),
        note: true,
    })
    .collect()
}

fn overlaps(c: &Constraint, l: &Label) -> bool {
    c.lines[0] <= l.last && l.first <= c.lines[1]
}

#[derive(Debug, Default)]
struct Figures {
    labelled: usize,
    found: usize,
    extracted: usize,
    extracted_on_rules: usize,
    decidable: usize,
    decidable_with_behavior: usize,
    with_behavior: usize,
    with_behavior_on_decidable: usize,
    tag_tp: usize,
    tag_fp: usize,
    tag_fn: usize,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

fn measure(verbose: bool) -> Figures {
    let mut labels = labels();
    labels.extend(fenced_notes());
    let lexicon = Lexicon::builtin();
    let mut by_file: BTreeMap<&str, Vec<&Label>> = BTreeMap::new();
    for l in &labels {
        by_file.entry(l.file.as_str()).or_default().push(l);
    }
    let mut f = Figures::default();
    for (file, rows) in &by_file {
        let skill = Skill::read(&shared().join(file)).expect("skill parses");
        let cs = extract(&skill, &lexicon);
        f.labelled += rows.len();
        f.extracted += cs.len();
        for c in &cs {
            let on: Vec<&&Label> = rows.iter().filter(|l| overlaps(c, l)).collect();
            if on.is_empty() {
                f.tag_fp += c.scope.len();
                if verbose {
                    println!(
                        "  extra   {file}:{}-{} {:?}",
                        c.lines[0], c.lines[1], c.text
                    );
                }
            } else {
                f.extracted_on_rules += 1;
            }
            if c.behavior().is_some() {
                f.with_behavior += 1;
                if on.iter().any(|l| l.decidable) {
                    f.with_behavior_on_decidable += 1;
                }
            }
        }
        for l in rows {
            let on: Vec<&Constraint> = cs.iter().filter(|c| overlaps(c, l)).collect();
            if on.is_empty() {
                if verbose {
                    println!("  missed  {file}:{}-{} {}", l.first, l.last, l.quote);
                }
            } else {
                f.found += 1;
            }
            if l.note {
                continue;
            }
            if l.decidable {
                f.decidable += 1;
                if on.iter().any(|c| c.behavior().is_some()) {
                    f.decidable_with_behavior += 1;
                } else if verbose {
                    println!("  no-pred {file}:{}-{} {}", l.first, l.last, l.quote);
                }
            }
            let pred: BTreeSet<String> = on
                .iter()
                .flat_map(|c| c.scope.iter().map(|t: &ScopeTag| t.as_str().to_string()))
                .collect();
            f.tag_tp += pred.intersection(&l.scope).count();
            f.tag_fp += pred.difference(&l.scope).count();
            f.tag_fn += l.scope.difference(&pred).count();
            if verbose && pred != l.scope {
                println!(
                    "  scope   {file}:{}-{} got {pred:?} want {:?}: {}",
                    l.first, l.last, l.scope, l.quote
                );
            }
        }
    }
    f
}

#[test]
fn extraction_against_the_dev_labels() {
    let verbose = std::env::var_os("EXTRACT_MEASURE_VERBOSE").is_some();
    let f = measure(verbose);
    let recall = ratio(f.found, f.labelled);
    let precision = ratio(f.extracted_on_rules, f.extracted);
    let decidable = ratio(f.decidable_with_behavior, f.decidable);
    let behavior_precision = ratio(f.with_behavior_on_decidable, f.with_behavior);
    let tag_recall = ratio(f.tag_tp, f.tag_tp + f.tag_fn);
    let tag_precision = ratio(f.tag_tp, f.tag_tp + f.tag_fp);
    println!(
        "extraction vs extraction-dev-labels.tsv ({} labelled rules incl. 4 normative fenced blocks, 5 skills)",
        f.labelled
    );
    println!(
        "  rules found (recall):                 {}/{} = {:.3}",
        f.found, f.labelled, recall
    );
    println!(
        "  precision of extracted rules:         {}/{} = {:.3}",
        f.extracted_on_rules, f.extracted, precision
    );
    println!(
        "  decidable rules with a behavior pred: {}/{} = {:.3}",
        f.decidable_with_behavior, f.decidable, decidable
    );
    println!(
        "  behavior preds on decidable rules:    {}/{} = {:.3}",
        f.with_behavior_on_decidable, f.with_behavior, behavior_precision
    );
    println!(
        "  scope-tag recall:                     {}/{} = {:.3}",
        f.tag_tp,
        f.tag_tp + f.tag_fn,
        tag_recall
    );
    println!(
        "  scope-tag precision:                  {}/{} = {:.3}",
        f.tag_tp,
        f.tag_tp + f.tag_fp,
        tag_precision
    );
    // Floors: a little under today's figures, so a regression fails.
    assert!(recall >= 0.95, "rules found fell to {recall:.3}");
    assert!(precision >= 0.95, "precision fell to {precision:.3}");
    assert!(
        decidable >= 0.55,
        "decidable-with-predicate fell to {decidable:.3}"
    );
    assert!(
        behavior_precision >= 0.50,
        "behavior predicates on decidable rules fell to {behavior_precision:.3}"
    );
    assert!(
        tag_recall >= 0.75,
        "scope-tag recall fell to {tag_recall:.3}"
    );
    assert!(
        tag_precision >= 0.90,
        "scope-tag precision fell to {tag_precision:.3}"
    );
}
