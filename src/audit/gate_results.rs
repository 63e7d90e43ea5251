//! Gate results in the audit database (`skillgate gate --record`): the gate's
//! per-constraint, per-trajectory labels, so `stats` can show how many
//! scope-tagged violations each tool's calls caused.
//!
//! The gate calls [`record_gate_results`] with one row per (constraint,
//! trajectory, evidence event). `stats` joins a row to the tool call at the
//! same trajectory path and event index (both come from `decode_path`, so the
//! numbering agrees); a row naming a raw tool but no ingested call still counts
//! for that tool's dot name.

use super::{names, schema, AuditError, Result};
use rusqlite::params;
use std::path::{Path, PathBuf};

/// One gate result to record.
#[derive(Debug, Clone, PartialEq)]
pub struct GateResultRow {
    /// When the gate ran (RFC 3339); the caller reads the clock.
    pub recorded_at: String,
    pub skill: String,
    pub constraint_id: String,
    /// The constraint's scope tags (`shared-repo-state`...); empty for untagged rules.
    pub scope: Vec<String>,
    /// The label in this trajectory: violated | ambiguous | exercised | untested | unverifiable.
    pub label: String,
    /// The trajectory file, when the row is about one.
    pub trajectory: Option<PathBuf>,
    /// The evidence event's index in the decoded trajectory.
    pub event_index: Option<usize>,
    /// The evidence event's raw tool name, when it has one.
    pub raw_tool: Option<String>,
}

/// Append gate results to the database at `db` (created and migrated if needed),
/// all in one transaction.
pub fn record_gate_results(db: &Path, rows: &[GateResultRow]) -> Result<()> {
    let mut conn = schema::open_rw(db)?;
    let dberr = |e| AuditError::db(db, e);
    let tx = conn.transaction().map_err(dberr)?;
    {
        let mut st = tx
            .prepare(
                "INSERT INTO gate_results (recorded_at, skill, constraint_id, scope, label, trajectory,
                     event_index, raw_tool, tool)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )
            .map_err(dberr)?;
        for r in rows {
            // Same key as ingest: the canonical path when the file exists.
            let trajectory = r.trajectory.as_ref().map(|p| {
                p.canonicalize()
                    .unwrap_or_else(|_| p.clone())
                    .display()
                    .to_string()
            });
            let tool = r
                .raw_tool
                .as_deref()
                .map(|t| names::dot_name(t, &crate::decode::Action::Other));
            st.execute(params![
                r.recorded_at,
                r.skill,
                r.constraint_id,
                serde_json::to_string(&r.scope).unwrap_or_else(|_| "[]".into()),
                r.label,
                trajectory,
                r.event_index.map(|i| i as i64),
                r.raw_tool,
                tool,
            ])
            .map_err(dberr)?;
        }
    }
    tx.commit().map_err(dberr)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_rows_in_a_new_database() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join(".skillgate/audit.db");
        let row = GateResultRow {
            recorded_at: "2026-01-01T00:00:00.000Z".into(),
            skill: "git-cleanup".into(),
            constraint_id: "no-force-push".into(),
            scope: vec!["shared-repo-state".into()],
            label: "violated".into(),
            trajectory: Some(dir.path().join("t.jsonl")),
            event_index: Some(4),
            raw_tool: Some("Bash".into()),
        };
        record_gate_results(&db, &[row.clone(), row]).unwrap();
        let conn = schema::open_existing(&db).unwrap().unwrap();
        let (n, tool, scope): (i64, String, String) = conn
            .query_row(
                "SELECT count(*), max(tool), max(scope) FROM gate_results",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            (n, tool.as_str(), scope.as_str()),
            (2, "shell.exec", r#"["shared-repo-state"]"#)
        );
    }
}
