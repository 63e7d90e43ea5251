//! The model from stack.json and the terminal summary (seed step 9).

use super::Assessment;
use serde_json::Value;

/// The model when stack.json is missing, unreadable or names none.
pub const UNKNOWN_MODEL: &str = "unknown";

/// Longest title shown on the "Top finding" line, in characters.
const TITLE_CHARS: usize = 200;

/// `jq -r '.model // .agent // "unknown"'` over stack.json's text: a field
/// that is absent, `null` or `false` falls through to the next; a string is
/// used as it is; any other value as its JSON text. Invalid JSON is an error
/// for the caller to log (it then uses [`UNKNOWN_MODEL`]).
pub fn model_from_stack_json(text: &str) -> Result<String, serde_json::Error> {
    let v: Value = serde_json::from_str(text)?;
    for key in ["model", "agent"] {
        match v.get(key) {
            None | Some(Value::Null) | Some(Value::Bool(false)) => continue,
            Some(Value::String(s)) => return Ok(s.clone()),
            Some(other) => return Ok(other.to_string()),
        }
    }
    Ok(UNKNOWN_MODEL.to_string())
}

/// The summary printed after a write, in the seed's layout:
///
/// ```text
/// Assessment written to run/assessment.json
///   Severity counts: critical=0 high=2 medium=5 low=3 info=1
///   Penalty score:   0.6200  (1.0 = clean, 0.0 = critical failures)
///   Req coverage:    75.0%
///   Model:           haiku
///   Top finding:     [high] No pagination support on GET /books
/// ```
///
/// `Req coverage` is `n/a` when null, `Top finding` is `none` when there is
/// none, and a last line `Skipped lines:` appears only when lines were skipped.
pub fn render_summary(a: &Assessment, written_to: &str, skipped: u64) -> String {
    let c = &a.severity_counts;
    let coverage = match a.requirement_coverage {
        Some(v) => format!("{:.1}%", v * 100.0),
        None => "n/a".to_string(),
    };
    let top = match a.top_findings.first() {
        Some(f) => format!(
            "[{}] {}",
            f.get("severity").and_then(Value::as_str).unwrap_or("?"),
            printable(
                f.get("title").and_then(Value::as_str).unwrap_or(""),
                TITLE_CHARS
            )
        ),
        None => "none".to_string(),
    };
    let mut out = format!(
        "Assessment written to {written_to}\n\
         \x20 Severity counts: critical={} high={} medium={} low={} info={}\n\
         \x20 Penalty score:   {:.4}  (1.0 = clean, 0.0 = critical failures)\n\
         \x20 Req coverage:    {coverage}\n\
         \x20 Model:           {}\n\
         \x20 Top finding:     {top}\n",
        c.critical,
        c.high,
        c.medium,
        c.low,
        c.info,
        a.penalty_score,
        printable(&a.model, TITLE_CHARS),
    );
    if skipped > 0 {
        let s = if skipped == 1 { "" } else { "s" };
        out.push_str(&format!(
            "  Skipped lines:   {skipped} malformed line{s} (reported on stderr)\n"
        ));
    }
    out
}

/// One terminal line: control characters (newlines, escapes) become spaces,
/// and the text is cut to `max` characters with an ellipsis.
fn printable(s: &str, max: usize) -> String {
    let mut out: String = s
        .chars()
        .take(max)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assess::SeverityCounts;

    fn seed_sample() -> Assessment {
        Assessment {
            severity_counts: SeverityCounts {
                critical: 0,
                high: 2,
                medium: 5,
                low: 3,
                info: 1,
            },
            penalty_score: 0.67,
            top_findings: vec![serde_json::json!({
                "id": "R3", "kind": "requirement_missing", "severity": "high",
                "title": "No pagination support on GET /books", "evidence": "", "suggestion": ""
            })],
            requirement_coverage: Some(0.75),
            model: "haiku".into(),
            evaluated_at: "2026-04-18T21:00:00Z".into(),
        }
    }

    #[test]
    fn the_seed_layout_byte_for_byte() {
        // The seed's own sample (with its 0.67, which the formula would not give).
        let text = render_summary(&seed_sample(), "{run_dir}/assessment.json", 0);
        assert_eq!(
            text,
            "Assessment written to {run_dir}/assessment.json
  Severity counts: critical=0 high=2 medium=5 low=3 info=1
  Penalty score:   0.6700  (1.0 = clean, 0.0 = critical failures)
  Req coverage:    75.0%
  Model:           haiku
  Top finding:     [high] No pagination support on GET /books
"
        );
    }

    #[test]
    fn empty_values_and_skips() {
        let mut a = seed_sample();
        a.top_findings.clear();
        a.requirement_coverage = None;
        a.model = "a\nb\u{1b}[31m".into();
        let text = render_summary(&a, "x/assessment.json", 1);
        assert!(text.contains("  Req coverage:    n/a\n"));
        assert!(text.contains("  Top finding:     none\n"));
        assert!(text.contains("  Model:           a b [31m\n"));
        assert!(text.ends_with("  Skipped lines:   1 malformed line (reported on stderr)\n"));
        assert!(render_summary(&a, "x", 2).contains("2 malformed lines"));
    }

    #[test]
    fn long_titles_are_cut() {
        assert_eq!(printable("abcdef", 3), "abc…");
        assert_eq!(printable("abc", 3), "abc");
    }

    #[test]
    fn model_follows_jq_alternatives() {
        let m = |s: &str| model_from_stack_json(s).unwrap();
        assert_eq!(m(r#"{"model": "haiku", "agent": "claude-code"}"#), "haiku");
        assert_eq!(m(r#"{"agent": "claude-code"}"#), "claude-code");
        assert_eq!(m(r#"{"model": null, "agent": "codex"}"#), "codex");
        assert_eq!(m(r#"{"model": false}"#), "unknown");
        assert_eq!(m(r#"{"model": 4}"#), "4");
        assert_eq!(m(r#"{"language": "rust"}"#), "unknown");
        assert_eq!(m(r#"["model"]"#), "unknown");
        assert!(model_from_stack_json("{oops").is_err());
    }
}
