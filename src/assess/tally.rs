//! Streaming over findings.jsonl: one line at a time, keeping only counts,
//! the top-five candidates and requirement ids.

use super::coverage::{requirement_coverage, EvaluationRequirements, RequirementTally};
use super::finding::{json_error, parse_line, Severity, SkipReason};
use super::{penalty_score, Assessment, SeverityCounts};
use serde_json::Value;
use std::io::{self, BufRead};

/// How many findings `top_findings` holds.
pub const TOP_N: usize = 5;

/// Longest line read (16 MiB); a longer line is skipped without being held
/// in memory.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// A skipped line: its 1-based number and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    pub line: u64,
    pub reason: SkipReason,
}

/// The reader failed (I/O error) while reading line `line`.
#[derive(Debug, thiserror::Error)]
#[error("read failed at line {line}: {source}")]
pub struct ReadError {
    pub line: u64,
    #[source]
    pub source: io::Error,
}

/// What one line contributed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRead {
    /// Empty or only whitespace: not a record, ignored.
    Blank,
    /// A finding at or above `--min-severity`: counted.
    Kept(Severity),
    /// A well-formed finding below `--min-severity`: dropped by the filter.
    BelowMin(Severity),
}

/// The running aggregate of findings.jsonl.
#[derive(Debug, Clone)]
pub struct Tally {
    min_severity: Severity,
    counts: SeverityCounts,
    /// Per level (critical first), the first [`TOP_N`] kept findings in file
    /// order: enough to pick the top five by severity, file order within a level.
    top: [Vec<Value>; 5],
    requirements: RequirementTally,
    findings: u64,
    below_min: u64,
    skipped: u64,
}

impl Tally {
    /// An empty tally keeping findings at `min_severity` or above.
    pub fn new(min_severity: Severity) -> Tally {
        Tally {
            min_severity,
            counts: SeverityCounts::default(),
            top: Default::default(),
            requirements: RequirementTally::default(),
            findings: 0,
            below_min: 0,
            skipped: 0,
        }
    }

    /// Take one line (without its line ending). A bad line is counted as
    /// skipped and its reason returned; the tally is otherwise unchanged.
    pub fn push_line(&mut self, bytes: &[u8]) -> Result<LineRead, SkipReason> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(LineRead::Blank);
        }
        let parsed = match parse_line(bytes) {
            Ok(p) => p,
            Err(reason) => {
                self.skipped += 1;
                return Err(reason);
            }
        };
        let severity = parsed.severity;
        let kept = severity.at_least(self.min_severity);
        let bucket = severity.rank();
        // Only a finding that can still reach the top five is parsed whole.
        let full = if kept && self.top[bucket].len() < TOP_N {
            match serde_json::from_slice::<Value>(bytes) {
                Ok(v) => Some(v),
                Err(e) => {
                    self.skipped += 1;
                    return Err(json_error(&e));
                }
            }
        } else {
            None
        };
        self.findings += 1;
        self.requirements.see_id(&parsed.head.id);
        if !kept {
            self.below_min += 1;
            return Ok(LineRead::BelowMin(severity));
        }
        self.counts.bump(severity);
        self.requirements
            .see_kept(&parsed.head.id, &parsed.head.kind);
        if let Some(v) = full {
            self.top[bucket].push(v);
        }
        Ok(LineRead::Kept(severity))
    }

    /// Count a line skipped before parsing (too long).
    pub fn note_skip(&mut self) {
        self.skipped += 1;
    }

    pub fn min_severity(&self) -> Severity {
        self.min_severity
    }

    /// Counts of the kept findings.
    pub fn counts(&self) -> &SeverityCounts {
        &self.counts
    }

    pub fn requirements(&self) -> &RequirementTally {
        &self.requirements
    }

    /// Well-formed findings read, kept or filtered out.
    pub fn findings(&self) -> u64 {
        self.findings
    }

    /// Well-formed findings dropped by `--min-severity`.
    pub fn below_min(&self) -> u64 {
        self.below_min
    }

    /// Lines skipped as malformed (including unknown severities and over-long lines).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// The top five kept findings: by severity, file order within a level.
    pub fn top_findings(&self) -> Vec<Value> {
        self.top.iter().flatten().take(TOP_N).cloned().collect()
    }

    /// The assessment, given evaluation.md's requirement list (if any), the
    /// model and the time stamp (the caller reads files and the clock).
    pub fn finish(
        self,
        evaluation: Option<&EvaluationRequirements>,
        model: String,
        evaluated_at: String,
    ) -> Assessment {
        Assessment {
            severity_counts: self.counts,
            penalty_score: penalty_score(&self.counts),
            top_findings: self.top.into_iter().flatten().take(TOP_N).collect(),
            requirement_coverage: requirement_coverage(evaluation, &self.requirements),
            model,
            evaluated_at,
        }
    }
}

/// Stream `reader` (findings.jsonl) into a [`Tally`]. Lines end with `\n`
/// (a `\r` before it is dropped); a UTF-8 byte-order mark on line 1 is
/// ignored; a line over `max_line_bytes` is skipped without being buffered.
/// `on_skip` hears of every skipped line as it happens.
pub fn tally_findings<R: BufRead>(
    mut reader: R,
    min_severity: Severity,
    max_line_bytes: usize,
    mut on_skip: impl FnMut(&Skip),
) -> Result<Tally, ReadError> {
    let mut tally = Tally::new(min_severity);
    let mut buf = Vec::with_capacity(4096);
    let mut line: u64 = 0;
    loop {
        let len = read_line_capped(&mut reader, &mut buf, max_line_bytes).map_err(|source| {
            ReadError {
                line: line + 1,
                source,
            }
        })?;
        let Some(len) = len else { break };
        line += 1;
        if len > max_line_bytes as u64 {
            tally.note_skip();
            on_skip(&Skip {
                line,
                reason: SkipReason::TooLong {
                    bytes: len,
                    limit: max_line_bytes,
                },
            });
            continue;
        }
        let mut bytes = &buf[..];
        if line == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        if let Err(reason) = tally.push_line(bytes) {
            on_skip(&Skip { line, reason });
        }
    }
    Ok(tally)
}

/// Read one line into `buf` (without the `\n`), holding at most `cap` bytes
/// of it; returns the line's full length, or `None` at end of input.
fn read_line_capped<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<u64>> {
    buf.clear();
    let mut total: u64 = 0;
    let mut started = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(started.then_some(total));
        }
        started = true;
        let (len, newline) = match memchr::memchr(b'\n', available) {
            Some(i) => (i, true),
            None => (available.len(), false),
        };
        // Keep one byte past the cap so an over-long line is recognised.
        let room = (cap + 1).saturating_sub(buf.len()).min(len);
        buf.extend_from_slice(&available[..room]);
        total += len as u64;
        reader.consume(len + usize::from(newline));
        if newline {
            return Ok(Some(total));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn finding(id: &str, kind: &str, sev: &str) -> String {
        format!(
            r#"{{"id": "{id}", "kind": "{kind}", "severity": "{sev}", "title": "{id} title", "evidence": "e", "suggestion": "s"}}"#
        )
    }

    fn run(text: &str, min: Severity) -> (Tally, Vec<Skip>) {
        let mut skips = vec![];
        let t = tally_findings(Cursor::new(text.as_bytes()), min, MAX_LINE_BYTES, |s| {
            skips.push(s.clone())
        })
        .unwrap();
        (t, skips)
    }

    fn ids(v: &[Value]) -> Vec<&str> {
        v.iter().map(|f| f["id"].as_str().unwrap()).collect()
    }

    #[test]
    fn top_five_by_severity_keeping_file_order() {
        let lines = [
            finding("M1", "k", "medium"),
            finding("L1", "k", "low"),
            finding("H1", "k", "high"),
            finding("M2", "k", "medium"),
            finding("I1", "k", "info"),
            finding("H2", "k", "high"),
            finding("M3", "k", "medium"),
            finding("M4", "k", "medium"),
        ];
        let (t, skips) = run(&lines.join("\n"), Severity::Info);
        assert!(skips.is_empty());
        assert_eq!(ids(&t.top_findings()), ["H1", "H2", "M1", "M2", "M3"]);
        assert_eq!(t.counts().medium, 4);
        assert_eq!(t.findings(), 8);
    }

    #[test]
    fn more_than_five_of_one_level_keeps_the_first_five() {
        let lines: Vec<String> = (1..=9)
            .map(|i| finding(&format!("C{i}"), "k", "critical"))
            .collect();
        let (t, _) = run(&lines.join("\n"), Severity::Info);
        assert_eq!(ids(&t.top_findings()), ["C1", "C2", "C3", "C4", "C5"]);
        assert_eq!(t.counts().critical, 9);
    }

    #[test]
    fn the_filter_drops_lower_levels_everywhere() {
        let lines = [
            finding("C1", "k", "critical"),
            finding("H1", "k", "high"),
            finding("M1", "k", "medium"),
            finding("L1", "k", "low"),
            finding("I1", "k", "info"),
        ];
        let (t, _) = run(&lines.join("\n"), Severity::High);
        assert_eq!(
            *t.counts(),
            SeverityCounts {
                critical: 1,
                high: 1,
                medium: 0,
                low: 0,
                info: 0
            }
        );
        assert_eq!(t.below_min(), 3);
        assert_eq!(ids(&t.top_findings()), ["C1", "H1"]);
    }

    #[test]
    fn blank_lines_crlf_and_bom() {
        let text = format!(
            "\u{feff}{}\r\n\r\n   \n{}\r\n",
            finding("A", "k", "low"),
            finding("B", "k", "info")
        );
        let (t, skips) = run(&text, Severity::Info);
        assert!(skips.is_empty(), "{skips:?}");
        assert_eq!(t.findings(), 2);
        assert_eq!(t.skipped(), 0);
    }

    #[test]
    fn skips_carry_their_line_numbers() {
        let text = [
            finding("A", "k", "low"),
            "{not json".to_string(),
            finding("B", "k", "urgent"),
            String::new(),
            "[]".to_string(),
            finding("C", "k", "high"),
        ]
        .join("\n");
        let (t, skips) = run(&text, Severity::Info);
        let lines: Vec<u64> = skips.iter().map(|s| s.line).collect();
        assert_eq!(lines, [2, 3, 5]);
        assert_eq!(
            skips[1].reason,
            SkipReason::UnknownSeverity("urgent".into())
        );
        assert_eq!(t.skipped(), 3);
        assert_eq!(t.counts().total(), 2);
    }

    #[test]
    fn an_over_long_line_is_skipped_and_the_next_one_read() {
        let long = finding("X", "k", "critical").replace("e\"", &format!("{}\"", "e".repeat(500)));
        let text = format!("{long}\n{}\n", finding("Y", "k", "low"));
        let mut skips = vec![];
        let t = tally_findings(Cursor::new(text.as_bytes()), Severity::Info, 100, |s| {
            skips.push(s.clone())
        })
        .unwrap();
        assert_eq!(skips.len(), 1);
        assert_eq!(skips[0].line, 1);
        assert!(matches!(
            skips[0].reason,
            SkipReason::TooLong { limit: 100, .. }
        ));
        assert_eq!(t.counts().low, 1);
        assert_eq!(t.skipped(), 1);
    }

    #[test]
    fn a_line_at_the_cap_is_read() {
        let f = finding("Y", "k", "low");
        let t = tally_findings(Cursor::new(f.as_bytes()), Severity::Info, f.len(), |_| {
            panic!("no skip expected")
        })
        .unwrap();
        assert_eq!(t.counts().low, 1);
    }

    #[test]
    fn small_reader_buffers_split_lines_correctly() {
        let text = [finding("A", "k", "low"), finding("B", "k", "high")].join("\n");
        let reader = io::BufReader::with_capacity(7, Cursor::new(text.into_bytes()));
        let t =
            tally_findings(reader, Severity::Info, MAX_LINE_BYTES, |s| panic!("{s:?}")).unwrap();
        assert_eq!(ids(&t.top_findings()), ["B", "A"]);
    }

    #[test]
    fn empty_input_is_a_clean_run() {
        let (t, _) = run("", Severity::Info);
        let a = t.finish(None, "m".into(), "now".into());
        assert_eq!(a.penalty_score, 1.0);
        assert!(a.top_findings.is_empty());
        assert_eq!(a.requirement_coverage, None);
        assert_eq!(a.severity_counts, SeverityCounts::default());
    }

    #[test]
    fn every_original_field_is_kept_in_order() {
        let line = r#"{"zeta": 1, "id": "R1", "kind": "requirement_missing", "severity": "high", "title": "t", "evidence": ["a", "b"], "suggestion": null, "alpha": {"x": [1, 2]}}"#;
        let (t, _) = run(line, Severity::Info);
        let top = t.top_findings();
        let keys: Vec<&String> = top[0].as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "zeta",
                "id",
                "kind",
                "severity",
                "title",
                "evidence",
                "suggestion",
                "alpha"
            ]
        );
        assert_eq!(top[0]["alpha"]["x"][1], 2);
    }

    #[test]
    fn a_read_error_names_the_line() {
        struct Failing(u8);
        impl io::Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk on fire"));
                }
                self.0 -= 1;
                buf[0] = b'\n';
                Ok(1)
            }
        }
        let err =
            tally_findings(io::BufReader::new(Failing(2)), Severity::Info, 10, |_| {}).unwrap_err();
        assert_eq!(err.line, 3);
        assert_eq!(err.to_string(), "read failed at line 3: disk on fire");
    }
}
