//! The audit database: schema, versioned migrations, opening.
//!
//! The version lives in `PRAGMA user_version` (what SQLite checks cheaply) and,
//! for people reading the file, in a `schema_version` table with one row per
//! applied migration. Each migration runs in its own transaction.

use super::{AuditError, Result};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

/// One step of the schema.
struct Migration {
    version: i64,
    description: &'static str,
    sql: &'static str,
}

const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        description: "sessions, tool calls, ingested files, calibration",
        sql: r#"
CREATE TABLE schema_version (
    version     INTEGER PRIMARY KEY,
    description TEXT NOT NULL
);
CREATE TABLE sessions (
    id              INTEGER PRIMARY KEY,
    path            TEXT NOT NULL UNIQUE,
    harness         TEXT NOT NULL,
    format          TEXT NOT NULL,
    harness_version TEXT,
    session_id      TEXT,
    cwd             TEXT,
    git_branch      TEXT,
    started_at      TEXT,
    ended_at        TEXT,
    complete        INTEGER NOT NULL,
    truncated       INTEGER NOT NULL,
    events          INTEGER NOT NULL,
    problems        INTEGER NOT NULL,
    skills          TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE ingested_files (
    path        TEXT PRIMARY KEY,
    size        INTEGER NOT NULL,
    sha256      TEXT NOT NULL,
    extra       TEXT NOT NULL DEFAULT '[]',
    session     INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    ingested_at TEXT NOT NULL
);
CREATE TABLE tool_calls (
    id           INTEGER PRIMARY KEY,
    session      INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    record_key   TEXT NOT NULL,
    event_index  INTEGER NOT NULL,
    location     TEXT NOT NULL,
    called_at    TEXT,
    called_at_ms INTEGER,
    harness      TEXT NOT NULL,
    agent        TEXT NOT NULL,
    raw_tool     TEXT NOT NULL,
    tool         TEXT NOT NULL,
    action       TEXT NOT NULL,
    success      INTEGER NOT NULL,
    vetoed       INTEGER NOT NULL,
    duration_ms  INTEGER,
    exit_code    INTEGER,
    error_kind   TEXT,
    input_keys   TEXT NOT NULL DEFAULT '{}',
    input_hash   TEXT,
    programs     TEXT NOT NULL DEFAULT '[]',
    skills       TEXT NOT NULL DEFAULT '[]',
    UNIQUE (session, record_key)
);
CREATE INDEX tool_calls_by_tool ON tool_calls(tool);
CREATE INDEX tool_calls_by_time ON tool_calls(called_at_ms);
CREATE TABLE calibration (
    id        INTEGER PRIMARY KEY,
    source    TEXT NOT NULL,
    line      INTEGER NOT NULL,
    tag       TEXT NOT NULL,
    predicted REAL NOT NULL,
    outcome   INTEGER NOT NULL,
    UNIQUE (source, line)
);
"#,
    },
    Migration {
        version: 2,
        description: "audit log (refine intents) and gate results",
        sql: r#"
CREATE TABLE audit_log (
    id     INTEGER PRIMARY KEY,
    at     TEXT NOT NULL,
    kind   TEXT NOT NULL,
    tool   TEXT,
    detail TEXT NOT NULL
);
CREATE TABLE gate_results (
    id            INTEGER PRIMARY KEY,
    recorded_at   TEXT NOT NULL,
    skill         TEXT NOT NULL,
    constraint_id TEXT NOT NULL,
    scope         TEXT NOT NULL DEFAULT '[]',
    label         TEXT NOT NULL,
    trajectory    TEXT,
    event_index   INTEGER,
    raw_tool      TEXT,
    tool          TEXT
);
CREATE INDEX gate_results_by_event ON gate_results(trajectory, event_index);
"#,
    },
];

/// The schema version this build writes.
pub const CURRENT_VERSION: i64 = 2;

/// Open (creating folders and file if needed) and migrate a database for writing.
pub fn open_rw(path: &Path) -> Result<Connection> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| AuditError::io(dir, e))?;
        }
    }
    let mut conn = Connection::open(path).map_err(|e| AuditError::db(path, e))?;
    prepare(&conn, path)?;
    migrate(&mut conn, path)?;
    Ok(conn)
}

/// Open an existing database for reading; `None` when the file does not exist
/// (the read commands fail open on that). An older schema is migrated first.
pub fn open_existing(path: &Path) -> Result<Option<Connection>> {
    if !path.exists() {
        return Ok(None);
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags).map_err(|e| AuditError::db(path, e))?;
    prepare(&conn, path)?;
    migrate(&mut conn, path)?;
    Ok(Some(conn))
}

fn prepare(conn: &Connection, path: &Path) -> Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(|e| AuditError::db(path, e))?;
    conn.execute_batch("PRAGMA foreign_keys = ON;")
        .map_err(|e| AuditError::db(path, e))?;
    // WAL: readers never block the writer and parallel `ingest` runs queue
    // on the write lock instead of failing (docs/reliability.md). A database
    // on a file system without shared memory keeps its journal mode.
    let _ = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0));
    Ok(())
}

/// The schema version of an open database.
pub fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    // The version and the table count in one statement, so one snapshot: a
    // parallel run that creates the tables sets the version in the same
    // commit, and two separate reads could see its tables but not its
    // version.
    let (current, tables): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT user_version FROM pragma_user_version), \
                    (SELECT count(*) FROM sqlite_master)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(|e| not_a_database(path, e))?;
    if current > CURRENT_VERSION {
        return Err(AuditError::Schema {
            path: path.to_path_buf(),
            message: format!(
                "schema version {current} is newer than this skillgate understands ({CURRENT_VERSION}); upgrade skillgate"
            ),
        });
    }
    if current == 0 {
        // A non-empty file with user_version 0 is not one of ours.
        if tables > 0 {
            return Err(AuditError::Schema {
                path: path.to_path_buf(),
                message: "not a skillgate audit database (it has tables but no schema version)"
                    .into(),
            });
        }
    }
    for m in MIGRATIONS.iter().filter(|m| m.version > current) {
        // the write lock first, then look again: a parallel run may have migrated
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| AuditError::db(path, e))?;
        if version(&tx).map_err(|e| not_a_database(path, e))? >= m.version {
            continue;
        }
        tx.execute_batch(m.sql)
            .map_err(|e| AuditError::db(path, e))?;
        tx.execute(
            "INSERT INTO schema_version (version, description) VALUES (?1, ?2)",
            rusqlite::params![m.version, m.description],
        )
        .map_err(|e| AuditError::db(path, e))?;
        tx.pragma_update(None, "user_version", m.version)
            .map_err(|e| AuditError::db(path, e))?;
        tx.commit().map_err(|e| AuditError::db(path, e))?;
        tracing::info!(db = %path.display(), version = m.version, "migrated audit database");
    }
    Ok(())
}

fn not_a_database(path: &Path, e: rusqlite::Error) -> AuditError {
    AuditError::Schema {
        path: path.to_path_buf(),
        message: format!("not a readable SQLite database: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_and_reports_the_current_version() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub").join("audit.db");
        let conn = open_rw(&p).unwrap();
        assert_eq!(version(&conn).unwrap(), CURRENT_VERSION);
        let rows: Vec<(i64, String)> = conn
            .prepare("SELECT version, description FROM schema_version ORDER BY version")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(rows.len(), MIGRATIONS.len());
        assert_eq!(rows.last().unwrap().0, CURRENT_VERSION);
        // Reopening is a no-op.
        drop(conn);
        let conn = open_rw(&p).unwrap();
        let n: i64 = conn
            .query_row("SELECT count(*) FROM schema_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, MIGRATIONS.len() as i64);
    }

    #[test]
    fn migrates_a_version_1_database() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("audit.db");
        {
            let conn = Connection::open(&p).unwrap();
            conn.execute_batch(MIGRATIONS[0].sql).unwrap();
            conn.execute("INSERT INTO schema_version VALUES (1, 'v1')", [])
                .unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
        }
        let conn = open_existing(&p).unwrap().unwrap();
        assert_eq!(version(&conn).unwrap(), 2);
        conn.query_row("SELECT count(*) FROM gate_results", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap();
    }

    #[test]
    fn refuses_newer_and_foreign_databases() {
        let dir = tempfile::tempdir().unwrap();
        let newer = dir.path().join("newer.db");
        Connection::open(&newer)
            .unwrap()
            .pragma_update(None, "user_version", 99)
            .unwrap();
        assert!(open_existing(&newer)
            .unwrap_err()
            .to_string()
            .contains("newer"));

        let foreign = dir.path().join("foreign.db");
        Connection::open(&foreign)
            .unwrap()
            .execute_batch("CREATE TABLE t (x);")
            .unwrap();
        assert!(open_existing(&foreign)
            .unwrap_err()
            .to_string()
            .contains("not a skillgate audit database"));

        let text = dir.path().join("text.db");
        std::fs::write(
            &text,
            "this is not sqlite at all, just some text padding padding padding",
        )
        .unwrap();
        assert!(open_existing(&text).is_err());
    }

    #[test]
    fn missing_database_is_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(open_existing(&dir.path().join("nope.db"))
            .unwrap()
            .is_none());
    }
}
