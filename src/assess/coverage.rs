//! requirement_coverage: which requirements exist (evaluation.md, else the
//! highest `R<N>` id seen) and which the findings say are not implemented.
//!
//! The exact rule is in `docs/assess.md` ("Requirement coverage"); in short:
//!
//! - requirement ids are `R<N>` (N ≥ 1, see [`parse_requirement_number`]);
//! - the known requirements are those evaluation.md lists (table rows whose
//!   first cell is `R<N>`, else the `Requirements: A/B implemented` summary
//!   line meaning R1..RB), united with every `R<N>` id of a well-formed
//!   finding; without evaluation.md (or when it lists none) they are R1..R(max N seen);
//! - unimplemented: the distinct ids of kept findings whose kind is
//!   `requirement_missing` or `requirement_partial`; such an id that is not
//!   `R<N>` counts as one more requirement, not implemented;
//! - coverage = (total − unimplemented) / total, rounded to 4 places; null
//!   when no requirement id is known at all.

use super::finding::parse_requirement_number;
use super::round4;
use std::collections::{BTreeSet, HashSet};

/// The two kinds that mark a requirement as not (fully) implemented.
pub const REQUIREMENT_KINDS: [&str; 2] = ["requirement_missing", "requirement_partial"];

/// What the findings said about requirements, gathered while streaming.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequirementTally {
    /// `R<N>` numbers of every well-formed finding, kept or filtered out.
    seen: HashSet<u32>,
    max_seen: u32,
    /// Kept requirement findings with an `R<N>` id (by N: `R7` and `R07` are one).
    unimplemented_r: HashSet<u32>,
    /// Kept requirement findings whose id is not `R<N>` (by exact id).
    unimplemented_other: HashSet<String>,
}

impl RequirementTally {
    /// Note the id of a well-formed finding (before the severity filter).
    pub fn see_id(&mut self, id: &str) {
        if let Some(n) = parse_requirement_number(id) {
            self.seen.insert(n);
            self.max_seen = self.max_seen.max(n);
        }
    }

    /// Note a kept finding; counts it when its kind is a requirement kind.
    pub fn see_kept(&mut self, id: &str, kind: &str) {
        if !REQUIREMENT_KINDS.contains(&kind) {
            return;
        }
        match parse_requirement_number(id) {
            Some(n) => {
                self.unimplemented_r.insert(n);
            }
            None => {
                if !self.unimplemented_other.contains(id) {
                    self.unimplemented_other.insert(id.to_string());
                }
            }
        }
    }

    /// Highest `R<N>` seen, 0 when none.
    pub fn max_seen(&self) -> u32 {
        self.max_seen
    }

    /// Distinct unimplemented requirements (R ids plus other ids).
    pub fn unimplemented(&self) -> usize {
        self.unimplemented_r.len() + self.unimplemented_other.len()
    }
}

/// Where evaluation.md's requirement list came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequirementSource {
    /// Table rows whose first cell is `R<N>`.
    Table,
    /// The summary line `Requirements: A/B implemented` (R1..RB).
    SummaryLine,
}

/// The requirements evaluation.md lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvaluationRequirements {
    /// Distinct `R<N>` numbers of the table rows.
    Listed(BTreeSet<u32>),
    /// B from `Requirements: A/B implemented`: R1..RB.
    Count(u32),
}

impl EvaluationRequirements {
    pub fn source(&self) -> RequirementSource {
        match self {
            EvaluationRequirements::Listed(_) => RequirementSource::Table,
            EvaluationRequirements::Count(_) => RequirementSource::SummaryLine,
        }
    }

    /// How many requirements evaluation.md lists.
    pub fn len(&self) -> u64 {
        match self {
            EvaluationRequirements::Listed(ids) => ids.len() as u64,
            EvaluationRequirements::Count(b) => u64::from(*b),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn contains(&self, n: u32) -> bool {
        match self {
            EvaluationRequirements::Listed(ids) => ids.contains(&n),
            EvaluationRequirements::Count(b) => n <= *b,
        }
    }
}

/// Read the requirement list of an evaluation.md (the retort `evaluate-run`
/// layout: a `| ID | Requirement | Status | Evidence |` table with one row per
/// `R<N>`, and a `- **Requirements:** 12/12 implemented, …` summary line).
///
/// 1. Every Markdown table row (a line whose first non-blank character is
///    `|`) whose first cell, trimmed and with surrounding `*` / `` ` `` removed,
///    is `R<N>` lists requirement N. Other rows (`P1`, headers, separators,
///    metric tables) are ignored.
/// 2. If no row lists one, the first line matching
///    `Requirements:` `A/B implemented` (case-insensitive, `**` allowed after
///    the colon) lists R1..RB, when B ≥ 1.
/// 3. Otherwise `None`: evaluation.md says nothing usable.
pub fn evaluation_requirements(text: &str) -> Option<EvaluationRequirements> {
    let mut listed = BTreeSet::new();
    for line in text.lines() {
        let Some(row) = line.trim_start().strip_prefix('|') else {
            continue;
        };
        let cell = row.split('|').next().unwrap_or("");
        let cell = cell.trim().trim_matches(|c| c == '*' || c == '`').trim();
        if let Some(n) = parse_requirement_number(cell) {
            listed.insert(n);
        }
    }
    if !listed.is_empty() {
        return Some(EvaluationRequirements::Listed(listed));
    }
    let re = regex::Regex::new(r"(?i)requirements:\**\s*\d+\s*/\s*(\d+)\s+implemented")
        .expect("static regex");
    text.lines()
        .find_map(|l| re.captures(l))
        .and_then(|c| c[1].parse::<u32>().ok())
        .filter(|b| *b >= 1)
        .map(EvaluationRequirements::Count)
}

/// The coverage value (see the module doc); `None` when no requirement id is
/// known from evaluation.md or from the findings.
pub fn requirement_coverage(
    evaluation: Option<&EvaluationRequirements>,
    tally: &RequirementTally,
) -> Option<f64> {
    let known: u64 = match evaluation.filter(|e| !e.is_empty()) {
        Some(e) => e.len() + tally.seen.iter().filter(|n| !e.contains(**n)).count() as u64,
        None => u64::from(tally.max_seen),
    };
    if known == 0 {
        return None;
    }
    let other = tally.unimplemented_other.len() as u64;
    let total = known + other;
    // Every unimplemented R id was also seen, so it is among the known ones.
    let unimplemented = tally.unimplemented_r.len() as u64 + other;
    let implemented = total.saturating_sub(unimplemented);
    Some(round4(implemented as f64 / total as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(findings: &[(&str, &str)]) -> RequirementTally {
        let mut t = RequirementTally::default();
        for (id, kind) in findings {
            t.see_id(id);
            t.see_kept(id, kind);
        }
        t
    }

    const RETORT_TABLE: &str = "\
# Evaluation: language=go · rep 1

- **Requirements:** 12/12 implemented, 0 partial, 0 missing

| ID | Requirement (short) | Status | Evidence |
|----|----|----|----|
| R1 | MCP server | ✓ implemented | `server.go` |
| R2 | Loads datasets | ✓ implemented | `loader.go:288` |
| **R3** | bold id | ✗ missing | - |
|   `R3`   | duplicate row | ✓ | - |
| P1 | Follow TDD | ✓ followed | - |

| Metric | Value |
|--------|-------|
| R9 lines | 12 |
";

    #[test]
    fn table_rows_list_requirements() {
        let e = evaluation_requirements(RETORT_TABLE).unwrap();
        assert_eq!(
            e,
            EvaluationRequirements::Listed([1, 2, 3].into_iter().collect())
        );
        assert_eq!(e.source(), RequirementSource::Table);
    }

    #[test]
    fn the_summary_line_is_the_fallback() {
        let md = "## Summary\n\n- **Requirements:** 9/12 implemented, 2 partial, 1 missing\n";
        assert_eq!(
            evaluation_requirements(md),
            Some(EvaluationRequirements::Count(12))
        );
        assert_eq!(
            evaluation_requirements("Requirements: 3 / 4 implemented"),
            Some(EvaluationRequirements::Count(4))
        );
        assert_eq!(
            evaluation_requirements("Requirements: 0/0 implemented"),
            None
        );
        assert_eq!(
            evaluation_requirements("# nothing here\n| ID | x |\n"),
            None
        );
        assert_eq!(evaluation_requirements(""), None);
    }

    #[test]
    fn coverage_from_the_table_unites_finding_ids() {
        let e = EvaluationRequirements::Listed((1..=11).collect());
        // The real rep3-failed run: R1 missing, 11 listed.
        let t = tally(&[
            ("run-failed", "build_failure"),
            ("R1", "requirement_missing"),
        ]);
        assert_eq!(requirement_coverage(Some(&e), &t), Some(0.9091));
        // R12 seen in a finding but not in the table: known = 12.
        let t = tally(&[("R12", "enhancement"), ("R2", "requirement_partial")]);
        assert_eq!(
            requirement_coverage(Some(&e), &t),
            Some(round4(11.0 / 12.0))
        );
    }

    #[test]
    fn coverage_from_the_summary_count() {
        let e = EvaluationRequirements::Count(4);
        let t = tally(&[("R1", "requirement_missing"), ("R2", "requirement_partial")]);
        assert_eq!(requirement_coverage(Some(&e), &t), Some(0.5));
        let t = tally(&[("R6", "requirement_missing")]);
        assert_eq!(requirement_coverage(Some(&e), &t), Some(0.8));
    }

    #[test]
    fn coverage_from_the_highest_r_id() {
        // The reference example: R1, R2, R3 all unimplemented → 0.0.
        let t = tally(&[
            ("R1", "requirement_missing"),
            ("R2", "requirement_partial"),
            ("R3", "requirement_missing"),
        ]);
        assert_eq!(requirement_coverage(None, &t), Some(0.0));
        // R8 seen (any kind) → 8 requirements; R3 and R5 unimplemented → 6/8.
        let t = tally(&[
            ("R3", "requirement_missing"),
            ("R8", "enhancement"),
            ("R5", "requirement_partial"),
        ]);
        assert_eq!(requirement_coverage(None, &t), Some(0.75));
    }

    #[test]
    fn duplicates_count_once() {
        let t = tally(&[
            ("R2", "requirement_missing"),
            ("R2", "requirement_partial"),
            ("R02", "requirement_partial"),
            ("R4", "enhancement"),
        ]);
        assert_eq!(t.unimplemented(), 1);
        assert_eq!(requirement_coverage(None, &t), Some(0.75));
    }

    #[test]
    fn non_r_requirement_ids_add_one_each() {
        let t = tally(&[
            ("auth", "requirement_missing"),
            ("auth", "requirement_missing"),
            ("R4", "enhancement"),
        ]);
        // known R1..R4 plus "auth": 5 requirements, 1 unimplemented.
        assert_eq!(requirement_coverage(None, &t), Some(0.8));
    }

    #[test]
    fn null_when_nothing_is_known() {
        assert_eq!(
            requirement_coverage(None, &RequirementTally::default()),
            None
        );
        let t = tally(&[("auth", "requirement_missing"), ("Q1", "lint_warning")]);
        assert_eq!(requirement_coverage(None, &t), None);
    }

    #[test]
    fn huge_ids_do_not_allocate() {
        let t = tally(&[
            ("R4000000000", "enhancement"),
            ("R1", "requirement_missing"),
        ]);
        assert_eq!(t.max_seen(), 4_000_000_000);
        assert_eq!(requirement_coverage(None, &t), Some(1.0));
        let e = EvaluationRequirements::Count(u32::MAX);
        assert_eq!(requirement_coverage(Some(&e), &t), Some(1.0));
    }
}
