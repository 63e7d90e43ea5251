//! `capture --full`: the whole transcript, in its own format, redacted.
//!
//! JSON is redacted as JSON, so a replacement can never break an escape:
//! - a JSON Lines file line by line: each line that parses has every string
//!   value (and object key) redacted and is written back compactly on its
//!   own line, so line numbers — and the gate's evidence — stay the same; a
//!   line that does not parse is redacted as text;
//! - a one-object JSON file as a whole, written back pretty-printed (those
//!   formats cite JSON pointers, which do not move);
//! - anything else (aider's markdown) line by line as text.
//!
//! Numbers may be re-spelled by the JSON round trip (`1.0` → `1.0`, exponents
//! normalised); no value changes.

use crate::redact;
use serde_json::Value;

/// A redacted transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct FullRedacted {
    pub bytes: Vec<u8>,
    /// Rule ids of the replaced secrets, one per secret.
    pub redactions: Vec<&'static str>,
}

fn redact_json(v: &mut Value, hits: &mut Vec<&'static str>) {
    match v {
        Value::String(s) => {
            let r = redact::redact_counted(s);
            if r.count() > 0 {
                hits.extend(r.hits);
                *s = r.text.into_owned();
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| redact_json(x, hits)),
        Value::Object(o) => {
            let needs_key = o.keys().any(|k| redact::redact_counted(k).count() > 0);
            if needs_key {
                let old = std::mem::take(o);
                for (k, mut x) in old {
                    redact_json(&mut x, hits);
                    let r = redact::redact_counted(&k);
                    hits.extend(r.hits.iter().copied());
                    o.insert(r.text.into_owned(), x);
                }
            } else {
                o.values_mut().for_each(|x| redact_json(x, hits));
            }
        }
        _ => {}
    }
}

fn redact_text_line(line: &str, hits: &mut Vec<&'static str>) -> String {
    let r = redact::redact_counted(line);
    hits.extend(r.hits.iter().copied());
    r.text.into_owned()
}

/// Redact a transcript's bytes (see the module docs). Invalid UTF-8 is
/// replaced by U+FFFD before redaction.
pub fn redact_transcript(raw: &[u8]) -> FullRedacted {
    let mut hits = Vec::new();
    let text = String::from_utf8_lossy(raw);
    let body = text.trim_start_matches('\u{FEFF}');
    let trimmed = body.trim_start();
    // one JSON document spread over lines (pretty-printed or not)
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let first_line = trimmed.lines().next().unwrap_or("");
        let jsonl = first_line.trim() != "{"
            && first_line.trim() != "["
            && serde_json::from_str::<Value>(first_line).is_ok();
        if !jsonl {
            if let Ok(mut v) = serde_json::from_str::<Value>(body) {
                redact_json(&mut v, &mut hits);
                let mut bytes = serde_json::to_vec_pretty(&v).unwrap_or_default();
                bytes.push(b'\n');
                return FullRedacted {
                    bytes,
                    redactions: hits,
                };
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    for piece in text.split_inclusive('\n') {
        let (line, end) = match piece.strip_suffix('\n') {
            Some(l) => match l.strip_suffix('\r') {
                Some(l2) => (l2, "\r\n"),
                None => (l, "\n"),
            },
            None => (piece, ""),
        };
        let t = line.trim_start();
        let redacted = if t.starts_with('{') || t.starts_with('[') {
            match serde_json::from_str::<Value>(line) {
                Ok(mut v) => {
                    let before = hits.len();
                    redact_json(&mut v, &mut hits);
                    if hits.len() > before {
                        serde_json::to_string(&v).unwrap_or_default()
                    } else {
                        line.to_string()
                    }
                }
                Err(_) => redact_text_line(line, &mut hits),
            }
        } else {
            redact_text_line(line, &mut hits)
        };
        out.push_str(&redacted);
        out.push_str(end);
    }
    FullRedacted {
        bytes: out.into_bytes(),
        redactions: hits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonl_lines_stay_lines_and_escapes_survive() {
        let pw = "Zq8".repeat(6);
        let raw = format!(
            "{{\"a\":\"export DB_PASSWORD=\\\"{pw}\\\" && ls\"}}\n{{\"b\":1}}\nnot json --password {pw}\n"
        );
        let r = redact_transcript(raw.as_bytes());
        let out = String::from_utf8(r.bytes).unwrap();
        assert_eq!(out.lines().count(), 3);
        assert!(!out.contains(&pw), "{out}");
        let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        assert!(first["a"].as_str().unwrap().contains("[REDACTED:"));
        // untouched lines are byte-identical
        assert_eq!(out.lines().nth(1), Some("{\"b\":1}"));
        assert_eq!(r.redactions.len(), 2);
    }

    #[test]
    fn one_object_json_is_redacted_as_json() {
        let tok = format!("ghp_{}", "aB3".repeat(12));
        let raw = format!("{{\n  \"messages\": [{{\"content\": \"use {tok}\"}}]\n}}\n");
        let r = redact_transcript(raw.as_bytes());
        let out = String::from_utf8(r.bytes).unwrap();
        assert!(!out.contains(&tok));
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["messages"][0]["content"], "use [REDACTED:github-token]");
    }
}
