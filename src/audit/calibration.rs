//! Calibration rows (tag, predicted probability, outcome) and the Brier score
//! of a tool.
//!
//! Import format: JSONL, one object per line:
//! `{"tag": "shell.exec", "predicted": 0.9, "outcome": true}`
//! (`probability` is accepted for `predicted`; `outcome` is a boolean or 0/1).
//! Re-importing a file replaces the rows that came from it.
//!
//! A tag matches a tool (case-insensitively) when it equals the tool's dot
//! name, equals one of its raw names, or is a dot prefix of its dot name
//! (`shell` matches `shell.exec`; `mcp.github` matches `mcp.github.create_issue`).

use super::{AuditError, Result};
use rusqlite::{params, Connection};
use std::path::Path;

/// Import a calibration JSONL file; returns the number of rows stored.
pub fn import(conn: &mut Connection, db_path: &Path, file: &Path) -> Result<usize> {
    let text =
        crate::fsutil::read_bounded(file, crate::fsutil::MAX_DOCUMENT_BYTES).map_err(|e| {
            AuditError::io(
                file,
                match e {
                    crate::fsutil::InputError::Io(e) => e,
                    e => std::io::Error::other(e.to_string()),
                },
            )
        })?;
    let source = file
        .canonicalize()
        .unwrap_or_else(|_| file.to_path_buf())
        .display()
        .to_string();
    let mut rows = Vec::new();
    for (i, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line = i as u64 + 1;
        let bad = |message: String| AuditError::Input {
            path: file.to_path_buf(),
            line,
            message,
        };
        let s = std::str::from_utf8(raw)
            .map_err(|_| bad("not valid UTF-8".into()))?
            .trim();
        if s.is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(s).map_err(|e| bad(format!("not a JSON object: {e}")))?;
        let o = v
            .as_object()
            .ok_or_else(|| bad("not a JSON object".into()))?;
        let tag = o
            .get("tag")
            .and_then(|t| t.as_str())
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| bad("`tag` must be a non-empty string".into()))?;
        let p = o
            .get("predicted")
            .or_else(|| o.get("probability"))
            .and_then(|p| p.as_f64())
            .ok_or_else(|| bad("`predicted` must be a number".into()))?;
        if !(0.0..=1.0).contains(&p) {
            return Err(bad(format!(
                "`predicted` must be between 0 and 1 (got {p})"
            )));
        }
        let outcome = match o.get("outcome") {
            Some(serde_json::Value::Bool(b)) => *b,
            Some(n) if n.as_f64() == Some(1.0) => true,
            Some(n) if n.as_f64() == Some(0.0) => false,
            _ => return Err(bad("`outcome` must be true/false or 1/0".into())),
        };
        rows.push((line, tag.to_string(), p, outcome));
    }
    let db = |e| AuditError::db(db_path, e);
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(db)?;
    tx.execute("DELETE FROM calibration WHERE source = ?1", [&source])
        .map_err(db)?;
    {
        let mut st = tx
            .prepare("INSERT INTO calibration (source, line, tag, predicted, outcome) VALUES (?1, ?2, ?3, ?4, ?5)")
            .map_err(db)?;
        for (line, tag, p, o) in &rows {
            st.execute(params![source, *line as i64, tag, p, o])
                .map_err(db)?;
        }
    }
    tx.commit().map_err(db)?;
    Ok(rows.len())
}

/// Whether a calibration tag matches a tool with this dot name and raw names.
pub fn tag_matches(tag: &str, dot: &str, raw_names: &[String]) -> bool {
    let tag = tag.to_ascii_lowercase();
    let dot = dot.to_ascii_lowercase();
    tag == dot
        || raw_names.iter().any(|r| r.eq_ignore_ascii_case(&tag))
        || (dot.len() > tag.len() && dot.starts_with(&tag) && dot.as_bytes()[tag.len()] == b'.')
}

/// All calibration rows (tag, predicted, outcome).
pub fn load(conn: &Connection) -> rusqlite::Result<Vec<(String, f64, bool)>> {
    let mut st = conn.prepare("SELECT tag, predicted, outcome FROM calibration ORDER BY id")?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    rows.collect()
}

/// Mean squared error of the matching rows' predictions; `None` when no tag matches.
pub fn brier(rows: &[(String, f64, bool)], dot: &str, raw_names: &[String]) -> Option<f64> {
    let (mut n, mut sum) = (0usize, 0f64);
    for (tag, p, o) in rows {
        if tag_matches(tag, dot, raw_names) {
            let y = if *o { 1.0 } else { 0.0 };
            sum += (p - y) * (p - y);
            n += 1;
        }
    }
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_match_dot_names_raw_names_and_prefixes() {
        let raw = vec!["Bash".to_string()];
        assert!(tag_matches("shell.exec", "shell.exec", &raw));
        assert!(tag_matches("bash", "shell.exec", &raw));
        assert!(tag_matches("shell", "shell.exec", &raw));
        assert!(!tag_matches("shel", "shell.exec", &raw));
        assert!(!tag_matches("file", "shell.exec", &raw));
        assert!(tag_matches("mcp.github", "mcp.github.create_issue", &[]));
    }

    #[test]
    fn brier_is_the_mean_squared_error() {
        let rows = vec![
            ("shell.exec".to_string(), 0.9, true),
            ("shell.exec".to_string(), 0.6, false),
            ("file.read".to_string(), 0.1, true),
        ];
        let b = brier(&rows, "shell.exec", &[]).unwrap();
        assert!((b - (0.01 + 0.36) / 2.0).abs() < 1e-12);
        assert_eq!(brier(&rows, "web.fetch", &[]), None);
    }

    #[test]
    fn import_validates_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("a.db");
        let mut conn = super::super::schema::open_rw(&db).unwrap();
        let f = dir.path().join("cal.jsonl");
        std::fs::write(&f, "{\"tag\":\"shell\",\"predicted\":0.8,\"outcome\":true}\n\n{\"tag\":\"x\",\"probability\":0.2,\"outcome\":0}\n").unwrap();
        assert_eq!(import(&mut conn, &db, &f).unwrap(), 2);
        assert_eq!(import(&mut conn, &db, &f).unwrap(), 2);
        assert_eq!(load(&conn).unwrap().len(), 2);

        std::fs::write(
            &f,
            "{\"tag\":\"shell\",\"predicted\":1.5,\"outcome\":true}\n",
        )
        .unwrap();
        let e = import(&mut conn, &db, &f).unwrap_err().to_string();
        assert!(
            e.ends_with(":1: `predicted` must be between 0 and 1 (got 1.5)"),
            "{e}"
        );
        std::fs::write(&f, "{}\nnot json\n").unwrap();
        let e = import(&mut conn, &db, &f).unwrap_err().to_string();
        assert!(e.contains(":1: `tag`"), "{e}");
        // A failed import leaves the earlier rows.
        assert_eq!(load(&conn).unwrap().len(), 2);
    }
}
