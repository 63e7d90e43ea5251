//! One line of findings.jsonl: its severity, the fields a finding must carry,
//! and why a line is skipped.

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// A finding's severity, highest first. The derived order follows the
/// declaration: `Critical < High < … < Info`, i.e. "more severe sorts first".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Critical,
    High,
    Medium,
    Low,
    Info,
}

impl Severity {
    /// Every level, highest first.
    pub const ALL: [Severity; 5] = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
        Severity::Info,
    ];

    /// The spelling used in findings.jsonl and assessment.json.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
            Severity::Info => "info",
        }
    }

    /// Exact, lower-case match only: `"High"` is an unknown severity.
    pub fn parse(s: &str) -> Option<Severity> {
        Severity::ALL.into_iter().find(|l| l.as_str() == s)
    }

    /// 0 for critical … 4 for info.
    pub fn rank(self) -> usize {
        self as usize
    }

    /// Whether a finding of this level is kept under `--min-severity min`.
    pub fn at_least(self, min: Severity) -> bool {
        self <= min
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a line of findings.jsonl was skipped. Messages cite positions and
/// field names; the only value quoted is an unknown severity (cut to 40 chars).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// Not valid JSON (syntax error, truncated line, invalid UTF-8).
    InvalidJson { column: usize, message: String },
    /// Valid JSON, but not an object.
    NotAnObject,
    /// An object, but not a finding: a required field missing, a field of the
    /// wrong type, a field given twice.
    NotAFinding { message: String },
    /// `severity` is a string outside critical|high|medium|low|info.
    UnknownSeverity(String),
    /// Longer than the per-line limit; the rest of the line was discarded unread.
    TooLong { bytes: u64, limit: usize },
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::InvalidJson { column, message } => {
                write!(f, "invalid JSON at column {column}: {message}")
            }
            SkipReason::NotAnObject => f.write_str("not a JSON object"),
            SkipReason::NotAFinding { message } => write!(f, "not a finding: {message}"),
            SkipReason::UnknownSeverity(s) => {
                let shown: String = s.chars().take(40).collect();
                let cut = if shown.len() < s.len() { "…" } else { "" };
                write!(
                    f,
                    "unknown severity {shown:?}{cut} (expected critical, high, medium, low or info)"
                )
            }
            SkipReason::TooLong { bytes, limit } => {
                write!(f, "line is {bytes} bytes, over the {limit}-byte limit")
            }
        }
    }
}

/// The fields every finding must have (seed step 1): `id`, `kind`,
/// `severity`, `title` (strings), `evidence`, `suggestion` (any value).
///
/// Every other value on the line is walked with serde_json's `deserialize_any`
/// ([`Checked`]) rather than skipped, so a line passes here exactly when a full
/// parse into `serde_json::Value` would pass too (number range, nesting depth,
/// escapes): whether a line is malformed never depends on whether it is
/// parsed again later as a top-five candidate.
#[derive(Debug)]
pub(crate) struct Head<'a> {
    pub id: Cow<'a, str>,
    pub kind: Cow<'a, str>,
    pub severity: Cow<'a, str>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Head<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(HeadVisitor(PhantomData))
    }
}

struct HeadVisitor<'a>(PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for HeadVisitor<'a> {
    type Value = Head<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a finding object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Head<'a>, A::Error> {
        const FIELDS: [&str; 6] = ["id", "kind", "severity", "title", "evidence", "suggestion"];
        let mut text: [Option<Cow<'a, str>>; 4] = [None, None, None, None];
        let mut present = [false; 6];
        while let Some(key) = map.next_key::<Text<'de>>()? {
            match FIELDS.iter().position(|f| *f == key.0) {
                Some(i) => {
                    if present[i] {
                        return Err(de::Error::duplicate_field(FIELDS[i]));
                    }
                    present[i] = true;
                    if i < 4 {
                        text[i] = Some(map.next_value::<Text<'de>>()?.0);
                    } else {
                        map.next_value::<Checked>()?;
                    }
                }
                None => {
                    map.next_value::<Checked>()?;
                }
            }
        }
        if let Some(i) = present.iter().position(|p| !p) {
            return Err(de::Error::missing_field(FIELDS[i]));
        }
        let [id, kind, severity, _title] = text;
        match (id, kind, severity) {
            (Some(id), Some(kind), Some(severity)) => Ok(Head { id, kind, severity }),
            _ => Err(de::Error::custom("internal: fields present but not read")),
        }
    }
}

/// A JSON string, borrowed from the line when it has no escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(V(PhantomData))
    }
}

/// Any JSON value, walked and checked as a full parse would, built into nothing.
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckedVisitor)
    }
}

struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_none<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Checked, D::Error> {
        Checked::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        while map.next_entry::<Checked, Checked>()?.is_some() {}
        Ok(Checked)
    }
}

/// A checked line: its head and its severity.
pub(crate) struct Parsed<'a> {
    pub head: Head<'a>,
    pub severity: Severity,
}

/// Check one line (without its newline) as a finding.
pub(crate) fn parse_line(bytes: &[u8]) -> Result<Parsed<'_>, SkipReason> {
    // Anything but an object: say whether it is other JSON or not JSON at all.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return match serde_json::from_slice::<Checked>(bytes) {
            Ok(_) => Err(SkipReason::NotAnObject),
            Err(e) => Err(json_error(&e)),
        };
    }
    let head: Head<'_> = serde_json::from_slice(bytes).map_err(|e| json_error(&e))?;
    let severity = Severity::parse(&head.severity)
        .ok_or_else(|| SkipReason::UnknownSeverity(head.severity.to_string()))?;
    Ok(Parsed { head, severity })
}

/// `R<N>` → N, for N ≥ 1 that fits in a u32 (`R7`, `R12`, `R007` → 7).
/// Anything else (`r7`, `R`, `R0`, `R7a`, `REQ-7`) is not a requirement number.
pub fn parse_requirement_number(id: &str) -> Option<u32> {
    let digits = id.strip_prefix('R')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match digits.parse::<u32>() {
        Ok(0) | Err(_) => None,
        Ok(n) => Some(n),
    }
}

pub(crate) fn json_error(e: &serde_json::Error) -> SkipReason {
    use serde_json::error::Category;
    // serde_json appends " at line L column C"; the line is always 1 here.
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
    match e.classify() {
        Category::Data => SkipReason::NotAFinding { message },
        Category::Syntax | Category::Eof | Category::Io => SkipReason::InvalidJson {
            column: e.column(),
            message,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = r#"{"id": "R3", "kind": "requirement_missing", "severity": "high", "title": "t", "evidence": "e", "suggestion": "s"}"#;

    #[test]
    fn a_complete_finding_parses() {
        let p = parse_line(OK.as_bytes()).unwrap();
        assert_eq!(p.severity, Severity::High);
        assert_eq!(p.head.id, "R3");
        assert_eq!(p.head.kind, "requirement_missing");
    }

    #[test]
    fn severity_order_and_filter() {
        assert!(Severity::Critical < Severity::High);
        assert!(Severity::Low < Severity::Info);
        assert!(Severity::High.at_least(Severity::Medium));
        assert!(Severity::Medium.at_least(Severity::Medium));
        assert!(!Severity::Low.at_least(Severity::Medium));
        assert_eq!(Severity::parse("critical"), Some(Severity::Critical));
        assert_eq!(Severity::parse("High"), None);
        assert_eq!(Severity::parse("warning"), None);
    }

    #[test]
    fn bad_lines_say_why() {
        let unknown = OK.replace("\"high\"", "\"warning\"");
        assert_eq!(
            parse_line(unknown.as_bytes()).err().unwrap().to_string(),
            "unknown severity \"warning\" (expected critical, high, medium, low or info)"
        );
        let missing = OK.replace(", \"suggestion\": \"s\"", "");
        assert_eq!(
            parse_line(missing.as_bytes()).err().unwrap().to_string(),
            "not a finding: missing field `suggestion`"
        );
        let wrong_type = OK.replace("\"title\": \"t\"", "\"title\": 5");
        assert_eq!(
            parse_line(wrong_type.as_bytes()).err().unwrap().to_string(),
            "not a finding: invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            parse_line(b"[1, 2]").err().unwrap(),
            SkipReason::NotAnObject
        );
        assert_eq!(parse_line(b"42").err().unwrap(), SkipReason::NotAnObject);
        let truncated = &OK[..40];
        assert!(matches!(
            parse_line(truncated.as_bytes()).err().unwrap(),
            SkipReason::InvalidJson { column: 40, .. }
        ));
        assert!(matches!(
            parse_line(b"not json").err().unwrap(),
            SkipReason::InvalidJson { column: 2, .. }
        ));
        // A positional array is not a finding even with six strings.
        assert_eq!(
            parse_line(br#"["R1","k","high","t","e","s"]"#)
                .err()
                .unwrap(),
            SkipReason::NotAnObject
        );
        let twice = OK.replace("\"kind\"", "\"severity\": \"low\", \"kind\"");
        assert!(matches!(
            parse_line(twice.as_bytes()).err().unwrap(),
            SkipReason::NotAFinding { .. }
        ));
    }

    #[test]
    fn a_line_passes_exactly_when_a_full_parse_would() {
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let cases = [
            OK.replace("\"e\"", "1e400"),
            OK.replace("\"e\"", &deep),
            OK.replace("}", ", \"extra\": -1e999}"),
            OK.replace("}", &format!(", \"extra\": {{\"a\": {deep}}}}}")),
            OK.replace("\"s\"", "\"\\ud800\""),
        ];
        for line in &cases {
            let full = serde_json::from_slice::<serde_json::Value>(line.as_bytes());
            let ours = parse_line(line.as_bytes());
            assert!(full.is_err(), "{line}");
            assert!(
                matches!(
                    ours,
                    Err(SkipReason::NotAFinding { .. } | SkipReason::InvalidJson { .. })
                ),
                "{line}"
            );
        }
        let fine = [
            OK.replace("\"e\"", "[1, 2.5, -3, 1e300, null, true, {\"k\": []}]"),
            OK.replace("}", ", \"extra\": {\"a\": \"\\u00e9\\n\"}}"),
            OK.replace("\"R3\"", "\"R\\u0033\""),
        ];
        for line in &fine {
            assert!(
                serde_json::from_slice::<serde_json::Value>(line.as_bytes()).is_ok(),
                "{line}"
            );
            assert!(parse_line(line.as_bytes()).is_ok(), "{line}");
        }
        assert_eq!(parse_line(fine[2].as_bytes()).unwrap().head.id, "R3");
    }

    #[test]
    fn invalid_utf8_is_invalid_json() {
        let mut bytes = OK.as_bytes().to_vec();
        let at = OK.find("\"t\"").unwrap() + 1;
        bytes[at] = 0xff;
        assert!(matches!(
            parse_line(&bytes).err().unwrap(),
            SkipReason::InvalidJson { .. }
        ));
    }

    #[test]
    fn a_long_unknown_severity_is_cut() {
        let s = SkipReason::UnknownSeverity("x".repeat(100)).to_string();
        assert!(s.contains(&format!("\"{}\"…", "x".repeat(40))));
    }

    #[test]
    fn requirement_numbers() {
        assert_eq!(parse_requirement_number("R7"), Some(7));
        assert_eq!(parse_requirement_number("R12"), Some(12));
        assert_eq!(parse_requirement_number("R007"), Some(7));
        for no in [
            "r7",
            "R",
            "R0",
            "R7a",
            "REQ-7",
            " R7",
            "R-1",
            "R99999999999",
        ] {
            assert_eq!(parse_requirement_number(no), None, "{no}");
        }
    }
}
