//! Extraction measured against the hand-labelled development set
//! (`../shared/research/extraction-dev-labels.tsv`, conventions in the `.md`
//! beside it). Shared by `tests/extract_measure.rs` (floors),
//! `tests/extract_heldout.rs` and `tests/extract_heldout2.rs` (held-out
//! skills: `check_label_file`, `measure_and_print`, `assert_floors`) and
//! `examples/extract_all.rs` (the figures, per skill and in total).
//!
//! Definitions (one labelled row = one rule of a skill, with its lines):
//! - rules found (recall): labelled rows overlapped by the lines of at least
//!   one extracted constraint;
//! - extracted rules matching no label: constraints whose lines overlap no
//!   labelled row (false rules, or rules the labeller merged elsewhere);
//! - checkable rules with a predicate: labelled rows marked decidable that an
//!   overlapping constraint gives a `require` or `forbid`;
//! - behavior predicates on checkable rules: the other way, the share of
//!   constraints with a behavior predicate whose overlapping rule is decidable;
//! - scope tags: over (rule, tag) pairs — a tag predicted for a labelled row
//!   is the union of the tags of the constraints that overlap it; tags of
//!   constraints overlapping no labelled row count as false positives.

#![allow(dead_code)]

use skillgate::extract::{extract, Constraint, Lexicon};
use skillgate::parse::Skill;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub struct Label {
    pub file: String,
    pub first: u32,
    pub last: u32,
    pub decidable: bool,
    pub scope: BTreeSet<String>,
    pub quote: String,
    /// The label gives the rule a trigger (`when`): it holds around an
    /// act, not from the skill's load.
    pub triggered: bool,
    /// The label requires an act (`require`) / forbids one (`forbid`).
    pub requires: bool,
    pub forbids: bool,
    /// From the notes, not the TSV.
    pub note: bool,
}

pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

pub fn labels(shared: &Path) -> Vec<Label> {
    load_labels(&shared.join("research/extraction-dev-labels.tsv"))
}

/// Rows of a label file in the dev set's columns (file relative to `shared`,
/// first, last, modality, checkable, scope, quote, when, require, forbid,
/// order), header skipped.
pub fn load_labels(path: &Path) -> Vec<Label> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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
                triggered: given(f.get(7)),
                requires: given(f.get(8)),
                forbids: given(f.get(9)),
                note: false,
            }
        })
        .collect()
}

/// A predicate cell that holds one (not empty, not `-`).
fn given(cell: Option<&&str>) -> bool {
    cell.is_some_and(|w| !w.trim().is_empty() && w.trim() != "-")
}

/// The normative fenced blocks the labels' notes name as rules an extractor
/// should find, though the TSV leaves them out (counted for rules found and
/// unmatched extractions only: the notes give no decidability or scope).
pub fn fenced_notes() -> Vec<Label> {
    let tdd = "realdata/skills/obra-superpowers/test-driven-development/SKILL.md";
    let vbc = "realdata/skills/obra-superpowers/verification-before-completion/SKILL.md";
    [
        (tdd, 33, 35, "Iron Law"),
        (tdd, 315, 318, "Final Rule"),
        (vbc, 16, 18, "Iron Law"),
        (vbc, 24, 36, "Gate Function"),
    ]
    .into_iter()
    .map(|(file, first, last, quote)| fenced(file, first, last, quote))
    .collect()
}

/// A normative fenced block named in a label file's notes: counted for rules
/// found and unmatched extractions only.
pub fn fenced(file: &str, first: u32, last: u32, quote: &str) -> Label {
    Label {
        file: file.to_string(),
        first,
        last,
        decidable: false,
        scope: BTreeSet::new(),
        quote: format!("(fenced) {quote}"),
        triggered: false,
        requires: false,
        forbids: false,
        note: true,
    }
}

fn overlaps(c: &Constraint, l: &Label) -> bool {
    c.lines[0] <= l.last && l.first <= c.lines[1]
}

#[derive(Debug, Default, Clone)]
pub struct Figures {
    pub labelled: usize,
    pub found: usize,
    pub extracted: usize,
    pub unmatched: usize,
    pub decidable: usize,
    pub decidable_with_behavior: usize,
    pub with_behavior: usize,
    pub with_behavior_on_decidable: usize,
    pub tag_tp: usize,
    pub tag_fp: usize,
    pub tag_fn: usize,
    /// Checkable rules given a predicate, by whether the label and the
    /// extraction give them a trigger: [both, label only, extraction only,
    /// neither].
    pub triggers: [usize; 4],
    /// What would make a false violation: [extracted forbids, of them on no
    /// rule labelled with a forbid; extracted requires due from the load, of
    /// them on no rule labelled with a requirement due from the load].
    pub risks: [usize; 4],
}

pub fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

impl Figures {
    pub fn add(&mut self, o: &Figures) {
        self.labelled += o.labelled;
        self.found += o.found;
        self.extracted += o.extracted;
        self.unmatched += o.unmatched;
        self.decidable += o.decidable;
        self.decidable_with_behavior += o.decidable_with_behavior;
        self.with_behavior += o.with_behavior;
        self.with_behavior_on_decidable += o.with_behavior_on_decidable;
        self.tag_tp += o.tag_tp;
        self.tag_fp += o.tag_fp;
        self.tag_fn += o.tag_fn;
        for (a, b) in self.triggers.iter_mut().zip(o.triggers) {
            *a += b;
        }
        for (a, b) in self.risks.iter_mut().zip(o.risks) {
            *a += b;
        }
    }
    pub fn recall(&self) -> f64 {
        ratio(self.found, self.labelled)
    }
    pub fn precision(&self) -> f64 {
        ratio(self.extracted - self.unmatched, self.extracted)
    }
    pub fn checkable(&self) -> f64 {
        ratio(self.decidable_with_behavior, self.decidable)
    }
    pub fn behavior_precision(&self) -> f64 {
        ratio(self.with_behavior_on_decidable, self.with_behavior)
    }
    pub fn scope_recall(&self) -> f64 {
        ratio(self.tag_tp, self.tag_tp + self.tag_fn)
    }
    pub fn scope_precision(&self) -> f64 {
        ratio(self.tag_tp, self.tag_tp + self.tag_fp)
    }
    /// One table row: `| name | found | checkable | scope R | scope P | unmatched |`.
    pub fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {}/{} = {:.2} | {}/{} = {:.2} | {}/{} = {:.2} | {}/{} = {:.2} | {}/{} |",
            self.found,
            self.labelled,
            self.recall(),
            self.decidable_with_behavior,
            self.decidable,
            self.checkable(),
            self.tag_tp,
            self.tag_tp + self.tag_fn,
            self.scope_recall(),
            self.tag_tp,
            self.tag_tp + self.tag_fp,
            self.scope_precision(),
            self.unmatched,
            self.extracted,
        )
    }
}

pub const HEADER: &str = "| skill | rules found | checkable with a predicate | scope recall | scope precision | extracted matching no label |\n|---|---|---|---|---|---|";

/// Per skill (file relative to `shared`) and in total; `log` gets one line
/// per miss, extra, missing predicate and scope difference.
pub fn measure(
    shared: &Path,
    lexicon: &Lexicon,
    log: impl FnMut(String),
) -> (Vec<(String, Figures)>, Figures) {
    let mut labels = labels(shared);
    labels.extend(fenced_notes());
    measure_labels(shared, &labels, lexicon, log)
}

/// [`measure`] against any label set (the held-out labels of
/// `tests/extract_heldout.rs`, say).
pub fn measure_labels(
    shared: &Path,
    labels: &[Label],
    lexicon: &Lexicon,
    mut log: impl FnMut(String),
) -> (Vec<(String, Figures)>, Figures) {
    let mut by_file: BTreeMap<&str, Vec<&Label>> = BTreeMap::new();
    for l in labels {
        by_file.entry(l.file.as_str()).or_default().push(l);
    }
    let mut per = Vec::new();
    let mut total = Figures::default();
    for (file, rows) in &by_file {
        let skill = Skill::read(&shared.join(file)).expect("skill parses");
        let cs = extract(&skill, lexicon);
        let mut f = Figures {
            labelled: rows.len(),
            extracted: cs.len(),
            ..Figures::default()
        };
        for c in &cs {
            let on: Vec<&&Label> = rows.iter().filter(|l| overlaps(c, l)).collect();
            if on.is_empty() {
                f.unmatched += 1;
                f.tag_fp += c.scope.len();
                log(format!(
                    "  extra   {file}:{}-{} {:?} {:?}",
                    c.lines[0], c.lines[1], c.scope, c.text
                ));
            }
            if c.forbid.is_some() {
                f.risks[0] += 1;
                if !on.iter().any(|l| l.forbids) {
                    f.risks[1] += 1;
                    log(format!(
                        "  false-forbid {file}:{}-{} {:?}",
                        c.lines[0], c.lines[1], c.text
                    ));
                }
            }
            if c.require.is_some() && c.when.is_none() {
                f.risks[2] += 1;
                if !on.iter().any(|l| l.requires && !l.triggered) {
                    f.risks[3] += 1;
                    log(format!(
                        "  false-load-require {file}:{}-{} {:?}",
                        c.lines[0], c.lines[1], c.text
                    ));
                }
            }
            if c.behavior().is_some() {
                f.with_behavior += 1;
                if on.iter().any(|l| l.decidable) {
                    f.with_behavior_on_decidable += 1;
                } else {
                    log(format!(
                        "  pred-on-undecidable {file}:{}-{} {:?}",
                        c.lines[0], c.lines[1], c.text
                    ));
                }
            }
        }
        for l in rows {
            let on: Vec<&Constraint> = cs.iter().filter(|c| overlaps(c, l)).collect();
            if on.is_empty() {
                log(format!(
                    "  missed  {file}:{}-{} {}",
                    l.first, l.last, l.quote
                ));
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
                    let ours = on
                        .iter()
                        .any(|c| c.behavior().is_some() && c.when.is_some());
                    let at = match (l.triggered, ours) {
                        (true, true) => 0,
                        (true, false) => 1,
                        (false, true) => 2,
                        (false, false) => 3,
                    };
                    f.triggers[at] += 1;
                } else {
                    log(format!(
                        "  no-pred {file}:{}-{} {}",
                        l.first, l.last, l.quote
                    ));
                }
            }
            let pred: BTreeSet<String> = on
                .iter()
                .flat_map(|c| c.scope.iter().map(|t| t.as_str().to_string()))
                .collect();
            f.tag_tp += pred.intersection(&l.scope).count();
            f.tag_fp += pred.difference(&l.scope).count();
            f.tag_fn += l.scope.difference(&pred).count();
            if pred != l.scope {
                // (`acts` where some rule it matched has a predicate:
                // its scope follows from what it does, not a mention.)
                let acts = on
                    .iter()
                    .any(|c| c.behavior().is_some() || c.when.is_some());
                log(format!(
                    "  scope   {file}:{}-{} got {pred:?}{} want {:?}: {}",
                    l.first,
                    l.last,
                    if acts { " acts" } else { "" },
                    l.scope,
                    l.quote
                ));
            }
        }
        total.add(&f);
        let name = Path::new(file)
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.to_string());
        per.push((name, f));
    }
    (per, total)
}

/// A TSV cell as written (CSV-style quoting: `"…"` with `""` inside).
fn cell(raw: &str) -> String {
    match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => raw.to_string(),
    }
}

/// Check every row of a label file (columns, lines inside the skill,
/// modality, scope tags, predicates and order that parse, checkable rows
/// and only they with a behavior); returns the number of rows.
pub fn check_label_file(path: &Path) -> usize {
    use skillgate::review::{parse_order, parse_predicate};
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let text = std::fs::read_to_string(path).expect("label file");
    let shared = shared();
    let mut rows = 0;
    for (i, line) in text.lines().enumerate().skip(1) {
        let at = format!("{name}:{}", i + 1);
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
    rows
}

/// Measure a label file (plus its fenced blocks), print the table (every
/// miss too with `EXTRACT_MEASURE_VERBOSE`), and return the figures.
pub fn measure_and_print(path: &Path, fenced: Vec<Label>) -> (Vec<(String, Figures)>, Figures) {
    let verbose = std::env::var_os("EXTRACT_MEASURE_VERBOSE").is_some();
    let mut labels = load_labels(path);
    labels.extend(fenced);
    let (per, f) = measure_labels(&shared(), &labels, &Lexicon::builtin(), |l| {
        if verbose {
            println!("{l}");
        }
    });
    print_table(&per, &f);
    (per, f)
}

/// The table: one row per skill, the total, and the behavior precision.
pub fn print_table(per: &[(String, Figures)], f: &Figures) {
    println!("{HEADER}");
    for (name, s) in per {
        println!("{}", s.row(name));
    }
    println!("{}", f.row("total"));
    println!(
        "behavior predicates on rules labelled checkable: {}/{} = {:.2}",
        f.with_behavior_on_decidable,
        f.with_behavior,
        f.behavior_precision()
    );
    let [both, label, ours, neither] = f.triggers;
    println!(
        "triggers on checkable rules with a predicate (label / extraction): both {both}, label only {label}, extraction only {ours}, neither {neither}; agree {}/{} = {:.2}",
        both + neither,
        both + label + ours + neither,
        ratio(both + neither, both + label + ours + neither)
    );
    let [forbids, false_forbids, requires, false_requires] = f.risks;
    println!(
        "false verdict risks: forbids on no rule labelled with a forbid {false_forbids}/{forbids}; requires due from the load on no rule labelled so {false_requires}/{requires}"
    );
}

/// The rows of a label file that label `file`, each asserted to lie inside
/// `window` (1-based, inclusive): how many.
pub fn rows_in_window(path: &Path, file: &str, window: (usize, usize)) -> usize {
    load_labels(path)
        .iter()
        .filter(|l| l.file == file)
        .inspect(|l| {
            assert!(
                window.0 as u32 <= l.first && l.last <= window.1 as u32,
                "{file} row {}-{} outside the labelled window",
                l.first,
                l.last
            )
        })
        .count()
}

/// The lines of a shared file.
pub fn shared_lines(file: &str) -> Vec<String> {
    std::fs::read_to_string(shared().join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .lines()
        .map(str::to_string)
        .collect()
}

/// A `shared`-like root holding `file` with every line outside its
/// frontmatter and the labelled `window` (1-based, inclusive) blanked, so
/// constraints elsewhere in a long skill neither count as unmatched nor as
/// found; line numbers are kept.
pub fn windowed_root(file: &str, window: (usize, usize)) -> tempfile::TempDir {
    let lines = shared_lines(file);
    let fm_end = lines
        .iter()
        .skip(1)
        .position(|l| l.trim_end() == "---")
        .map(|i| i + 2)
        .expect("frontmatter");
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let n = i + 1;
            if n <= fm_end || (window.0..=window.1).contains(&n) {
                l.as_str()
            } else {
                ""
            }
        })
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(file);
    std::fs::create_dir_all(path.parent().unwrap()).expect("mkdir");
    std::fs::write(&path, kept.join("\n") + "\n").expect("write window");
    dir
}

/// A label file some of whose rows label one window of `file` only: the
/// other skills measured as usual, that file on its windowed copy (its row
/// named with the window), one total, the table printed.
pub fn measure_with_window(
    path: &Path,
    fenced: Vec<Label>,
    file: &str,
    window: (usize, usize),
) -> (Vec<(String, Figures)>, Figures) {
    let verbose = std::env::var_os("EXTRACT_MEASURE_VERBOSE").is_some();
    let log = |l: String| {
        if verbose {
            println!("{l}");
        }
    };
    let (mut in_window, whole): (Vec<Label>, Vec<Label>) =
        load_labels(path).into_iter().partition(|l| l.file == file);
    in_window.extend(fenced);
    let lexicon = Lexicon::builtin();
    let (mut per, mut f) = measure_labels(&shared(), &whole, &lexicon, log);
    let root = windowed_root(file, window);
    let (per_w, f_w) = measure_labels(root.path(), &in_window, &lexicon, log);
    for (name, s) in per_w {
        per.push((format!("{name} {}–{}", window.0, window.1), s));
    }
    f.add(&f_w);
    print_table(&per, &f);
    (per, f)
}

/// Fail when a figure drops below its floor.
/// The floors of one label set, in the table's order: rules found,
/// extracted rules matching a label, checkable rules with a predicate,
/// behavior predicates on checkable rules, scope recall, scope precision.
pub fn assert_figures_at_least(f: &Figures, mins: [f64; 6]) {
    assert_floors(&[
        ("rules found", f.recall(), mins[0]),
        ("extracted rules matching a label", f.precision(), mins[1]),
        ("checkable rules with a predicate", f.checkable(), mins[2]),
        (
            "behavior predicates on checkable rules",
            f.behavior_precision(),
            mins[3],
        ),
        ("scope recall", f.scope_recall(), mins[4]),
        ("scope precision", f.scope_precision(), mins[5]),
    ]);
}

pub fn assert_floors(floors: &[(&str, f64, f64)]) {
    for (what, got, floor) in floors {
        assert!(got >= floor, "{what} fell to {got:.3} (floor {floor})");
    }
}
