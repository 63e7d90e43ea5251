//! assess: findings.jsonl → assessment.json (seed 002; `docs/assess.md`).
//!
//! `skillgate assess RUN_DIR` aggregates the findings `evaluate-run` wrote, one
//! JSON object per line, into a compact summary: severity counts, a penalty
//! score, the top five findings, requirement coverage, the model and a time.
//!
//! Everything here is pure: the command (`src/cli/assess.rs`) opens the files,
//! reads the clock and prints. The findings file is streamed line by line
//! ([`tally_findings`]): whatever its size, memory holds the counts, at most
//! five findings per severity level (the top-five candidates) and the sets of
//! requirement ids, never the whole file.

mod coverage;
mod finding;
mod summary;
mod tally;

pub use coverage::{
    evaluation_requirements, requirement_coverage, EvaluationRequirements, RequirementSource,
    RequirementTally,
};
pub use finding::{parse_requirement_number, Severity, SkipReason};
pub use summary::{model_from_stack_json, render_summary, UNKNOWN_MODEL};
pub use tally::{tally_findings, LineRead, ReadError, Skip, Tally, MAX_LINE_BYTES, TOP_N};

use serde::Serialize;

/// How many findings of each severity were kept (after `--min-severity`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SeverityCounts {
    pub critical: u64,
    pub high: u64,
    pub medium: u64,
    pub low: u64,
    pub info: u64,
}

impl SeverityCounts {
    /// The count of one level.
    pub fn get(&self, s: Severity) -> u64 {
        match s {
            Severity::Critical => self.critical,
            Severity::High => self.high,
            Severity::Medium => self.medium,
            Severity::Low => self.low,
            Severity::Info => self.info,
        }
    }

    /// Add one finding of level `s`.
    pub fn bump(&mut self, s: Severity) {
        let c = match s {
            Severity::Critical => &mut self.critical,
            Severity::High => &mut self.high,
            Severity::Medium => &mut self.medium,
            Severity::Low => &mut self.low,
            Severity::Info => &mut self.info,
        };
        *c = c.saturating_add(1);
    }

    /// All findings counted.
    pub fn total(&self) -> u64 {
        Severity::ALL
            .iter()
            .fold(0u64, |acc, s| acc.saturating_add(self.get(*s)))
    }
}

/// `penalty_score` = 1.0 − (0.25·critical + 0.10·high + 0.03·medium + 0.01·low),
/// clamped to [0, 1] and rounded to 4 decimal places. `info` costs nothing.
///
/// Computed in whole hundredths so that the result is exact (0/2/5/3/1 gives
/// exactly 0.62, never 0.6199999…).
pub fn penalty_score(counts: &SeverityCounts) -> f64 {
    let hundredths = counts
        .critical
        .saturating_mul(25)
        .saturating_add(counts.high.saturating_mul(10))
        .saturating_add(counts.medium.saturating_mul(3))
        .saturating_add(counts.low);
    if hundredths >= 100 {
        return 0.0;
    }
    round4((100 - hundredths) as f64 / 100.0)
}

/// Round to 4 decimal places (half away from zero).
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The content of `assessment.json`, in the seed's key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    pub severity_counts: SeverityCounts,
    pub penalty_score: f64,
    /// Up to five findings, every original field kept in its original order.
    pub top_findings: Vec<serde_json::Value>,
    /// implemented / total requirements; `None` (JSON null) when no total is known.
    pub requirement_coverage: Option<f64>,
    pub model: String,
    /// ISO 8601 UTC, e.g. `2026-04-18T21:00:00Z`.
    pub evaluated_at: String,
}

impl Assessment {
    /// Pretty JSON (two-space indent) with a final newline: the bytes written
    /// to `assessment.json` and printed by `--dry-run`.
    pub fn to_json_pretty(&self) -> String {
        // Serializing plain structs, strings, finite floats and parsed JSON
        // values cannot fail.
        let mut s = serde_json::to_string_pretty(self).unwrap_or_else(|_| String::from("{}"));
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(c: u64, h: u64, m: u64, l: u64, i: u64) -> SeverityCounts {
        SeverityCounts {
            critical: c,
            high: h,
            medium: m,
            low: l,
            info: i,
        }
    }

    #[test]
    fn the_seed_examples() {
        assert_eq!(penalty_score(&counts(0, 0, 0, 0, 0)), 1.0);
        assert_eq!(penalty_score(&counts(1, 0, 0, 0, 0)), 0.75);
        assert_eq!(penalty_score(&counts(4, 0, 0, 0, 0)), 0.0);
        assert_eq!(penalty_score(&counts(5, 0, 0, 0, 0)), 0.0);
        // The formula, not the sample's 0.67.
        assert_eq!(penalty_score(&counts(0, 2, 5, 3, 1)), 0.62);
        assert_eq!(penalty_score(&counts(0, 0, 0, 0, 1000)), 1.0);
        assert_eq!(penalty_score(&counts(0, 0, 1, 0, 0)), 0.97);
        assert_eq!(penalty_score(&counts(u64::MAX, u64::MAX, 0, 0, 0)), 0.0);
    }

    #[test]
    fn json_keeps_the_seed_key_order() {
        let a = Assessment {
            severity_counts: counts(0, 2, 5, 3, 1),
            penalty_score: 0.62,
            top_findings: vec![],
            requirement_coverage: None,
            model: "haiku".into(),
            evaluated_at: "2026-04-18T21:00:00Z".into(),
        };
        let json = a.to_json_pretty();
        let keys: Vec<&str> = json
            .lines()
            .filter_map(|l| l.strip_prefix("  \""))
            .collect();
        let keys: Vec<&str> = keys.iter().map(|k| k.split('"').next().unwrap()).collect();
        assert_eq!(
            keys,
            [
                "severity_counts",
                "penalty_score",
                "top_findings",
                "requirement_coverage",
                "model",
                "evaluated_at"
            ]
        );
        assert!(json.contains("\"penalty_score\": 0.62,"));
        assert!(json.contains("\"requirement_coverage\": null,"));
        assert!(json.ends_with("}\n"));
    }
}
