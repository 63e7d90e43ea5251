//! Gate results in the audit database (`skillgate gate --record`): the gate's
//! per-constraint, per-trajectory labels, so `stats` can show how many
//! scope-tagged violations each tool's calls caused.
//!
//! The gate calls [`record_gate_results`] with one row per (constraint,
//! trajectory, evidence event). `stats` joins a row to the tool call at the
//! same trajectory path and event index (both come from `decode_path`, so the
//! numbering agrees); a row naming a raw tool but no ingested call still counts
//! for that tool's dot name. [`rows_from_verdicts`] turns the gate's verdicts
//! into rows.

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

/// The rows of gate verdicts, ready for [`record_gate_results`]: for each
/// constraint, one row per cited event (the evidence, with its label), and
/// one row (no event) per valid trajectory whose label cites no event.
/// Trajectory paths in a verdict are shown relative to `cwd`; they are made
/// absolute here. Raw tool names are left for the `stats` join to find (the
/// trajectories must be ingested for their violations to count per tool).
pub fn rows_from_verdicts(
    verdicts: &[crate::score::verdict::SkillVerdict],
    recorded_at: &str,
    cwd: &Path,
) -> Vec<GateResultRow> {
    let text = |v: serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let mut rows = Vec::new();
    for v in verdicts {
        for c in &v.constraints {
            let scope: Vec<String> = c
                .scope
                .iter()
                .map(|t| text(serde_json::to_value(t).unwrap_or_default()))
                .collect();
            let row =
                |trajectory: &str, event: Option<usize>, label: serde_json::Value| GateResultRow {
                    recorded_at: recorded_at.to_string(),
                    skill: v.skill.name.clone(),
                    constraint_id: c.id.clone(),
                    scope: scope.clone(),
                    label: text(label),
                    trajectory: Some(cwd.join(trajectory)),
                    event_index: event,
                    raw_tool: None,
                };
            for e in &c.evidence {
                rows.push(row(
                    &e.trajectory,
                    e.event,
                    serde_json::to_value(e.label).unwrap_or_default(),
                ));
            }
            for p in &c.per_trajectory {
                if !c.evidence.iter().any(|e| e.trajectory == p.trajectory) {
                    rows.push(row(
                        &p.trajectory,
                        None,
                        serde_json::to_value(p.label).unwrap_or_default(),
                    ));
                }
            }
        }
    }
    rows
}

/// Append gate results to the database at `db` (created and migrated if needed),
/// all in one transaction.
pub fn record_gate_results(db: &Path, rows: &[GateResultRow]) -> Result<()> {
    let mut conn = schema::open_rw(db)?;
    let dberr = |e| AuditError::db(db, e);
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(dberr)?;
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
