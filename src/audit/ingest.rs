//! Ingest: decoded trajectories → `sessions` and `tool_calls` rows.
//!
//! Incremental and idempotent, one transaction per file:
//! - a file whose path, size and SHA-256 match the stored ones is skipped;
//! - a file that grew (its stored bytes are a prefix of the new ones: the hash
//!   of its first `stored size` bytes equals the stored hash) is decoded again
//!   and only calls at record locations not stored yet are added; stored calls
//!   whose outcome arrived in the new bytes (a result after the call) are updated;
//! - any other change (a rewritten file) replaces the session's rows.
//!
//! Rows are keyed by the call's source location (file, line or JSON pointer,
//! and its ordinal at that location), which appending cannot change.
//! Only derived facts are stored: names, flags, times, exit codes, error kinds,
//! the keys (not the values) of the tool input, a hash of the input (to spot
//! retries), program names of shell commands, and the skills loaded. Never
//! message text, input values or tool output.

use super::errors::{classify, FailureFacts};
use super::{format_timestamp, names, parse_timestamp, unix_ms, AuditError, Result};
use crate::decode::{self, Action, AgentPath, DecodeOptions, Event, Role, Trajectory};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Options of one ingest run.
#[derive(Debug, Clone, Default)]
pub struct IngestOptions {
    /// When this run happens (RFC 3339), stored as `ingested_at`; the CLI reads the clock.
    pub now: String,
    /// Test hook: fail a file's transaction after this many row writes, to
    /// prove that an interrupted ingest leaves the previous state intact.
    pub fail_after_rows: Option<usize>,
}

/// What happened to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FileStatus {
    /// Never seen before: all its calls were added.
    New,
    /// Appended to since the last ingest: only new calls were added.
    Grown,
    /// Rewritten since the last ingest: the session's rows were replaced.
    Replaced,
    /// Same path, size and hash: skipped.
    Unchanged,
    /// Could not be read or decoded: counted and reported, nothing written.
    Failed,
}

/// One file's outcome.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileReport {
    pub path: PathBuf,
    pub status: FileStatus,
    /// Tool-call rows added.
    pub added: usize,
    /// Stored tool-call rows whose outcome changed (a result that arrived later).
    pub updated: usize,
    /// Tool events the user typed (aider `/diff`), seen in this decode and not stored.
    pub user_commands: usize,
    /// Why the file failed (never trajectory content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Totals of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngestCounts {
    pub files: usize,
    pub new: usize,
    pub grown: usize,
    pub replaced: usize,
    pub unchanged: usize,
    pub failed: usize,
    pub tool_calls_added: usize,
    pub tool_calls_updated: usize,
    /// Tool events typed by the user (aider's `/diff`...): not the agent's calls, not stored.
    pub user_commands_skipped: usize,
}

impl IngestCounts {
    pub fn add(&mut self, r: &FileReport) {
        self.files += 1;
        match r.status {
            FileStatus::New => self.new += 1,
            FileStatus::Grown => self.grown += 1,
            FileStatus::Replaced => self.replaced += 1,
            FileStatus::Unchanged => self.unchanged += 1,
            FileStatus::Failed => self.failed += 1,
        }
        self.tool_calls_added += r.added;
        self.tool_calls_updated += r.updated;
        self.user_commands_skipped += r.user_commands;
    }
}

/// Ingest several files; `progress` is called after each. A database error
/// stops the run (files committed before it stay); decode failures do not.
pub fn ingest_files(
    conn: &mut Connection,
    db_path: &Path,
    files: &[PathBuf],
    opts: &IngestOptions,
    progress: &mut dyn FnMut(&FileReport),
) -> Result<(Vec<FileReport>, IngestCounts)> {
    let mut reports = Vec::with_capacity(files.len());
    let mut counts = IngestCounts::default();
    for f in files {
        let r = ingest_file(conn, db_path, f, opts)?;
        counts.add(&r);
        progress(&r);
        reports.push(r);
    }
    Ok((reports, counts))
}

/// Size and SHA-256 of a file, plus the SHA-256 of its first `prefix_len` bytes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, Serialize)]
struct Fingerprint {
    path: String,
    size: u64,
    sha256: String,
}

fn fingerprint(
    path: &Path,
    prefix_len: Option<u64>,
) -> std::io::Result<(Fingerprint, Option<String>)> {
    let mut f = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut prefix_hash = None;
    let mut read: u64 = 0;
    let mut buf = vec![0u8; 64 * 1024];
    if prefix_len == Some(0) {
        prefix_hash = Some(hex(&hasher.clone().finalize()));
    }
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        match prefix_len {
            Some(p) if prefix_hash.is_none() && read + n as u64 >= p => {
                let cut = (p - read) as usize;
                hasher.update(&chunk[..cut]);
                prefix_hash = Some(hex(&hasher.clone().finalize()));
                hasher.update(&chunk[cut..]);
            }
            _ => hasher.update(chunk),
        }
        read += n as u64;
    }
    let fp = Fingerprint {
        path: path.display().to_string(),
        size: read,
        sha256: hex(&hasher.finalize()),
    };
    Ok((fp, prefix_hash))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[derive(PartialEq)]
struct Stored {
    main: Fingerprint,
    extra: Vec<Fingerprint>,
    session: i64,
}

/// Ingest one transcript file.
pub fn ingest_file(
    conn: &mut Connection,
    db_path: &Path,
    path: &Path,
    opts: &IngestOptions,
) -> Result<FileReport> {
    let decode = |p: &Path| decode::decode_path(p, None, &DecodeOptions { keep_content: true });
    ingest_file_with(conn, db_path, path, opts, &decode)
}

/// [`ingest_file`] with the decoder passed in (tests use a small fake format).
pub fn ingest_file_with(
    conn: &mut Connection,
    db_path: &Path,
    path: &Path,
    opts: &IngestOptions,
    decode: &dyn Fn(&Path) -> std::result::Result<Trajectory, decode::DecodeError>,
) -> Result<FileReport> {
    let failed = |reason: String| FileReport {
        path: path.to_path_buf(),
        status: FileStatus::Failed,
        added: 0,
        updated: 0,
        user_commands: 0,
        reason: Some(reason),
    };
    let canonical = match path.canonicalize() {
        Ok(p) => p,
        Err(e) => return Ok(failed(format!("cannot read: {e}"))),
    };
    let key = canonical.display().to_string();
    let stored = load_stored(conn, db_path, &key)?;

    let (main, main_prefix) = match fingerprint(&canonical, stored.as_ref().map(|s| s.main.size)) {
        Ok(x) => x,
        Err(e) => return Ok(failed(format!("cannot read: {e}"))),
    };
    let mut extras_prefix_ok = true;
    let mut extras_same = true;
    if let Some(s) = &stored {
        for old in &s.extra {
            match fingerprint(Path::new(&old.path), Some(old.size)) {
                Ok((now, prefix)) => {
                    extras_same &= now == *old;
                    extras_prefix_ok &= prefix.as_deref() == Some(old.sha256.as_str());
                }
                Err(_) => {
                    extras_same = false;
                    extras_prefix_ok = false;
                }
            }
        }
        if s.main.size == main.size && s.main.sha256 == main.sha256 && extras_same {
            return Ok(FileReport {
                path: path.to_path_buf(),
                status: FileStatus::Unchanged,
                added: 0,
                updated: 0,
                user_commands: 0,
                reason: None,
            });
        }
    }

    let traj = match decode(&canonical) {
        Ok(t) => t,
        Err(e) => return Ok(failed(e.message.clone())),
    };
    let mut extra = Vec::new();
    for p in &traj.extra_files {
        match fingerprint(p, None) {
            Ok((fp, _)) => extra.push(fp),
            Err(e) => return Ok(failed(format!("cannot read {}: {e}", p.display()))),
        }
    }

    // One IMMEDIATE transaction per file: it takes the write lock up front
    // (a deferred one that upgrades can fail at once with "database is
    // locked", busy timeout or not). Another `ingest` may have stored this
    // file since it was read above: then judge against what is stored now.
    let rows = call_rows(&traj);
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(|e| AuditError::db(db_path, e))?;
    let now_stored = load_stored(&tx, db_path, &key)?;
    let mut main_prefix = main_prefix;
    if now_stored != stored {
        if now_stored
            .as_ref()
            .is_some_and(|s| s.main == main && s.extra == extra)
        {
            return Ok(FileReport {
                path: path.to_path_buf(),
                status: FileStatus::Unchanged,
                added: 0,
                updated: 0,
                user_commands: 0,
                reason: None,
            });
        }
        main_prefix = None; // the prefix was hashed for another stored size
        extras_prefix_ok = false;
    }
    let stored = now_stored;
    let status = match &stored {
        None => FileStatus::New,
        Some(s) => {
            let grown = main.size >= s.main.size
                && main_prefix.as_deref() == Some(s.main.sha256.as_str())
                && extras_prefix_ok;
            if grown {
                FileStatus::Grown
            } else {
                FileStatus::Replaced
            }
        }
    };

    let (added, updated) = write_session(
        &tx,
        db_path,
        &key,
        &traj,
        &rows,
        status,
        stored.as_ref(),
        opts,
    )?;
    let extra_json = serde_json::to_string(&extra).unwrap_or_else(|_| "[]".into());
    let session: i64 = tx
        .query_row("SELECT id FROM sessions WHERE path = ?1", [&key], |r| {
            r.get(0)
        })
        .map_err(|e| AuditError::db(db_path, e))?;
    tx.execute(
        "INSERT INTO ingested_files (path, size, sha256, extra, session, ingested_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(path) DO UPDATE SET size = excluded.size, sha256 = excluded.sha256,
           extra = excluded.extra, session = excluded.session, ingested_at = excluded.ingested_at",
        params![
            key,
            main.size as i64,
            main.sha256,
            extra_json,
            session,
            opts.now
        ],
    )
    .map_err(|e| AuditError::db(db_path, e))?;
    tx.commit().map_err(|e| AuditError::db(db_path, e))?;
    Ok(FileReport {
        path: path.to_path_buf(),
        status,
        added,
        updated,
        user_commands: traj
            .events
            .iter()
            .filter(|e| e.role == Role::User && e.tool.is_some())
            .count(),
        reason: None,
    })
}

fn load_stored(conn: &Connection, db_path: &Path, key: &str) -> Result<Option<Stored>> {
    let row: Option<(i64, String, String, i64)> = conn
        .query_row(
            "SELECT size, sha256, extra, session FROM ingested_files WHERE path = ?1",
            [key],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()
        .map_err(|e| AuditError::db(db_path, e))?;
    Ok(row.map(|(size, sha256, extra, session)| Stored {
        main: Fingerprint {
            path: key.to_string(),
            size: size as u64,
            sha256,
        },
        extra: serde_json::from_str(&extra).unwrap_or_default(),
        session,
    }))
}

/// The stored columns of a call a later ingest may change: event index,
/// success, vetoed, duration, exit code, error kind.
type StoredOutcome = (i64, bool, bool, Option<i64>, Option<i64>, Option<String>);

/// One `tool_calls` row, before it has a session id.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRow {
    pub record_key: String,
    pub event_index: usize,
    pub location: String,
    pub called_at: Option<String>,
    pub called_at_ms: Option<i64>,
    pub agent: String,
    pub raw_tool: String,
    pub tool: String,
    pub action: &'static str,
    pub success: bool,
    pub vetoed: bool,
    pub duration_ms: Option<i64>,
    pub exit_code: Option<i64>,
    pub error_kind: Option<&'static str>,
    /// JSON object: input key → JSON type name.
    pub input_keys: String,
    pub input_hash: Option<String>,
    /// JSON array of program names of a shell line (`git`, `cargo`).
    pub programs: String,
    /// JSON array of the skills loaded before this call, in load order.
    pub skills: String,
}

impl CallRow {
    /// The columns a later ingest may legitimately change: a result that
    /// arrived, and the event index (a decoder may place events that arrived
    /// later, such as subagent records, before earlier ones).
    fn outcome(&self) -> StoredOutcome {
        (
            self.event_index as i64,
            self.success,
            self.vetoed,
            self.duration_ms,
            self.exit_code,
            self.error_kind.map(str::to_string),
        )
    }
}

/// The rows of every tool call of a trajectory.
pub fn call_rows(traj: &Trajectory) -> Vec<CallRow> {
    let mut rows = Vec::new();
    let mut skills: Vec<String> = Vec::new();
    let mut ordinals: HashMap<String, usize> = HashMap::new();
    let mut last_ts: Option<(String, i64)> = None;
    for e in &traj.events {
        let ts = e
            .timestamp
            .as_deref()
            .and_then(|s| parse_timestamp(s).map(|t| (format_timestamp(t), unix_ms(t))));
        if ts.is_some() {
            last_ts = ts.clone();
        }
        let loc = location_key(e);
        let ordinal = ordinals.entry(loc.clone()).or_insert(0);
        let record_key = format!("{loc}#{ordinal}");
        *ordinal += 1;
        // Commands the user typed (aider's `/diff`, `/run`) are not the agent's calls.
        if let (Some(raw), false) = (&e.tool, e.role == Role::User) {
            rows.push(row_for(
                e,
                raw,
                record_key,
                ts.or_else(|| last_ts.clone()),
                &skills,
            ));
        }
        if let Action::SkillLoad { name, via, .. } = &e.action {
            if !via.is_weak() && !skills.contains(name) {
                skills.push(name.clone());
            }
        }
    }
    rows
}

fn row_for(
    e: &Event,
    raw: &str,
    record_key: String,
    ts: Option<(String, i64)>,
    skills: &[String],
) -> CallRow {
    let input = e.content.as_ref().and_then(|c| c.tool_input.as_ref());
    let output = e.content.as_ref().and_then(|c| c.tool_output.as_deref());
    let duration_ms = match (e.timestamp.as_deref(), e.result_timestamp.as_deref()) {
        (Some(a), Some(b)) => match (parse_timestamp(a), parse_timestamp(b)) {
            (Some(a), Some(b)) if b >= a => Some(unix_ms(b) - unix_ms(a)),
            _ => None,
        },
        _ => None,
    };
    let error_kind = e.failed.then(|| {
        classify(&FailureFacts {
            rejected: e.rejected,
            exit_code: e.exit_code,
            output,
            tool: Some(raw),
        })
        .as_str()
    });
    CallRow {
        record_key,
        event_index: e.index,
        location: location_text(e),
        called_at: ts.as_ref().map(|t| t.0.clone()),
        called_at_ms: ts.map(|t| t.1),
        agent: match &e.agent {
            AgentPath::Main => "main".to_string(),
            AgentPath::Subagent(id) => format!("subagent:{id}"),
        },
        raw_tool: raw.to_string(),
        tool: names::dot_name(raw, &e.action),
        action: action_kind(&e.action),
        success: !e.failed,
        vetoed: e.rejected,
        duration_ms,
        exit_code: e.exit_code,
        error_kind,
        input_keys: input_keys(input),
        input_hash: input.map(|v| hex(&Sha256::digest(v.to_string().as_bytes())[..8])),
        programs: programs(&e.action),
        skills: serde_json::to_string(skills).unwrap_or_else(|_| "[]".into()),
    }
}

fn location_key(e: &Event) -> String {
    let l = &e.location;
    format!(
        "{}|{}|{}",
        l.file
            .as_ref()
            .map(|f| f.display().to_string())
            .unwrap_or_default(),
        l.line.map(|n| n.to_string()).unwrap_or_default(),
        l.pointer.as_deref().unwrap_or_default()
    )
}

/// A location people can open: `line 12`, `/messages/3`, `agent-x.jsonl line 4`.
fn location_text(e: &Event) -> String {
    let l = &e.location;
    let mut parts = Vec::new();
    if let Some(f) = &l.file {
        parts.push(
            f.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
    }
    if let Some(n) = l.line {
        parts.push(format!("line {n}"));
    }
    if let Some(p) = &l.pointer {
        parts.push(p.clone());
    }
    if parts.is_empty() {
        parts.push(format!("event {}", e.index));
    }
    parts.join(" ")
}

fn action_kind(a: &Action) -> &'static str {
    match a {
        Action::Message => "message",
        Action::UserTurn { .. } => "user-turn",
        Action::File { .. } => "file",
        Action::Shell(_) => "shell",
        Action::Fetch { .. } => "fetch",
        Action::SkillLoad { .. } => "skill-load",
        Action::Subagent { .. } => "subagent",
        Action::Other => "other",
    }
}

/// JSON type name of a value, as `explain` shows parameters.
pub fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

fn input_keys(input: Option<&serde_json::Value>) -> String {
    let mut map = serde_json::Map::new();
    match input {
        Some(serde_json::Value::Object(o)) => {
            for (k, v) in o {
                map.insert(k.clone(), json_type(v).into());
            }
        }
        // Freeform inputs (Codex `apply_patch`) have one unnamed parameter.
        Some(v) => {
            map.insert("(input)".into(), json_type(v).into());
        }
        None => {}
    }
    serde_json::Value::Object(map).to_string()
}

fn programs(a: &Action) -> String {
    let mut out: Vec<String> = Vec::new();
    if let Action::Shell(s) = a {
        for c in &s.commands {
            if let Some(p) = c.argv.first() {
                let name = p.rsplit('/').next().unwrap_or(p).to_string();
                if !name.is_empty() && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
    }
    serde_json::to_string(&out).unwrap_or_else(|_| "[]".into())
}

#[allow(clippy::too_many_arguments)]
fn write_session(
    tx: &rusqlite::Transaction<'_>,
    db_path: &Path,
    key: &str,
    traj: &Trajectory,
    rows: &[CallRow],
    status: FileStatus,
    stored: Option<&Stored>,
    opts: &IngestOptions,
) -> Result<(usize, usize)> {
    let db = |e| AuditError::db(db_path, e);
    let mut writes = 0usize;
    let tick = |writes: &mut usize| -> Result<()> {
        *writes += 1;
        match opts.fail_after_rows {
            Some(n) if *writes > n => Err(AuditError::Injected {
                path: PathBuf::from(key),
                rows: n,
            }),
            _ => Ok(()),
        }
    };

    let mut times: Vec<i64> = traj
        .events
        .iter()
        .filter_map(|e| {
            e.timestamp
                .as_deref()
                .and_then(parse_timestamp)
                .map(unix_ms)
        })
        .collect();
    times.sort_unstable();
    let fmt_ms = |ms: i64| {
        time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
            .ok()
            .map(format_timestamp)
    };
    let mut session_skills: Vec<&str> = Vec::new();
    for e in &traj.events {
        if let Action::SkillLoad { name, via, .. } = &e.action {
            if !via.is_weak() && !session_skills.contains(&name.as_str()) {
                session_skills.push(name);
            }
        }
    }
    tx.execute(
        "INSERT INTO sessions (path, harness, format, harness_version, session_id, cwd, git_branch,
             started_at, ended_at, complete, truncated, events, problems, skills)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
         ON CONFLICT(path) DO UPDATE SET harness = excluded.harness, format = excluded.format,
             harness_version = excluded.harness_version, session_id = excluded.session_id,
             cwd = excluded.cwd, git_branch = excluded.git_branch, started_at = excluded.started_at,
             ended_at = excluded.ended_at, complete = excluded.complete, truncated = excluded.truncated,
             events = excluded.events, problems = excluded.problems, skills = excluded.skills",
        params![
            key,
            traj.harness.as_str(),
            traj.format,
            traj.harness_version,
            traj.session_id,
            traj.cwd,
            traj.git_branch,
            times.first().and_then(|&t| fmt_ms(t)),
            times.last().and_then(|&t| fmt_ms(t)),
            traj.complete,
            traj.truncated,
            traj.events.len() as i64,
            traj.problems.total() as i64,
            serde_json::to_string(&session_skills).unwrap_or_else(|_| "[]".into()),
        ],
    )
    .map_err(db)?;
    tick(&mut writes)?;
    let session: i64 = tx
        .query_row("SELECT id FROM sessions WHERE path = ?1", [key], |r| {
            r.get(0)
        })
        .map_err(db)?;
    if let Some(s) = stored {
        debug_assert_eq!(s.session, session);
    }

    if status == FileStatus::Replaced {
        tx.execute("DELETE FROM tool_calls WHERE session = ?1", [session])
            .map_err(db)?;
    }
    let mut existing: HashMap<String, StoredOutcome> = HashMap::new();
    if status == FileStatus::Grown {
        let mut st = tx
            .prepare(
                "SELECT record_key, event_index, success, vetoed, duration_ms, exit_code, error_kind
                 FROM tool_calls WHERE session = ?1",
            )
            .map_err(db)?;
        let it = st
            .query_map([session], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    (
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                    ),
                ))
            })
            .map_err(db)?;
        for x in it {
            let (k, v) = x.map_err(db)?;
            existing.insert(k, v);
        }
    }

    let mut insert = tx
        .prepare_cached(
            "INSERT INTO tool_calls (session, record_key, event_index, location, called_at, called_at_ms,
                 harness, agent, raw_tool, tool, action, success, vetoed, duration_ms, exit_code,
                 error_kind, input_keys, input_hash, programs, skills)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
        )
        .map_err(db)?;
    let mut update = tx
        .prepare_cached(
            "UPDATE tool_calls SET event_index = ?3, success = ?4, vetoed = ?5, duration_ms = ?6,
                 exit_code = ?7, error_kind = ?8
             WHERE session = ?1 AND record_key = ?2",
        )
        .map_err(db)?;
    let (mut added, mut updated) = (0, 0);
    for r in rows {
        if let Some(old) = existing.get(&r.record_key) {
            let now = r.outcome();
            if *old != now {
                let (i, s, v, d, x, k) = now;
                update
                    .execute(params![session, r.record_key, i, s, v, d, x, k])
                    .map_err(db)?;
                updated += 1;
                tick(&mut writes)?;
            }
            continue;
        }
        insert
            .execute(params![
                session,
                r.record_key,
                r.event_index as i64,
                r.location,
                r.called_at,
                r.called_at_ms,
                traj.harness.as_str(),
                r.agent,
                r.raw_tool,
                r.tool,
                r.action,
                r.success,
                r.vetoed,
                r.duration_ms,
                r.exit_code,
                r.error_kind,
                r.input_keys,
                r.input_hash,
                r.programs,
                r.skills,
            ])
            .map_err(db)?;
        added += 1;
        tick(&mut writes)?;
    }
    Ok((added, updated))
}

/// Row counts of the main tables (for reports and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableCounts {
    pub sessions: i64,
    pub tool_calls: i64,
    pub ingested_files: i64,
    pub calibration: i64,
}

pub fn table_counts(conn: &Connection) -> rusqlite::Result<TableCounts> {
    let c = |t: &str| {
        conn.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| {
            r.get::<_, i64>(0)
        })
    };
    Ok(TableCounts {
        sessions: c("sessions")?,
        tool_calls: c("tool_calls")?,
        ingested_files: c("ingested_files")?,
        calibration: c("calibration")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{
        EventContent, Harness, LoadVia, Location, Role, ShellAction, SimpleCommand,
    };

    fn call(line: u64, tool: &str, ts: &str, res: &str) -> Event {
        let mut e = Event::new(Location::line(line), Role::Assistant, Action::Other);
        e.tool = Some(tool.into());
        e.timestamp = Some(ts.into());
        e.result_timestamp = Some(res.into());
        e.content = Some(Box::new(EventContent {
            text: None,
            tool_input: Some(serde_json::json!({"command": "ls", "timeout": 5})),
            tool_output: Some("ok".into()),
        }));
        e
    }

    fn traj(events: Vec<Event>) -> Trajectory {
        let mut t = Trajectory::new(
            "/tmp/x.jsonl".into(),
            Harness::ClaudeCode,
            "claude-code-jsonl",
        );
        t.events = events;
        for (i, e) in t.events.iter_mut().enumerate() {
            e.index = i;
        }
        t
    }

    #[test]
    fn rows_carry_derived_facts_only() {
        let mut bash = call(
            3,
            "Bash",
            "2025-06-10T12:00:00.000Z",
            "2025-06-10T12:00:01.500Z",
        );
        bash.action = Action::Shell(ShellAction {
            line: "git status && /usr/bin/cargo test".into(),
            commands: vec![
                SimpleCommand {
                    text: "git status".into(),
                    argv: vec!["git".into(), "status".into()],
                    git: None,
                },
                SimpleCommand {
                    text: "cargo test".into(),
                    argv: vec!["/usr/bin/cargo".into(), "test".into()],
                    git: None,
                },
            ],
            ..Default::default()
        });
        bash.failed = true;
        bash.exit_code = Some(1);
        let load = Event::new(
            Location::line(2),
            Role::User,
            Action::SkillLoad {
                name: "tdd".into(),
                via: LoadVia::BaseDirectory,
                body_sha256: None,
            },
        );
        let mut weak = Event::new(
            Location::line(2),
            Role::User,
            Action::SkillLoad {
                name: "weak".into(),
                via: LoadVia::SkillFileRead,
                body_sha256: None,
            },
        );
        weak.tool = None;
        let rows = call_rows(&traj(vec![load, weak, bash]));
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(r.tool, "shell.exec");
        assert_eq!(r.record_key, "|3|#0");
        assert_eq!(r.duration_ms, Some(1500));
        assert_eq!(r.error_kind, Some("nonzero_exit"));
        assert_eq!(r.input_keys, r#"{"command":"string","timeout":"integer"}"#);
        assert_eq!(r.programs, r#"["git","cargo"]"#);
        assert_eq!(r.skills, r#"["tdd"]"#);
        assert_eq!(r.location, "line 3");
        assert_eq!(r.called_at.as_deref(), Some("2025-06-10T12:00:00.000Z"));
    }

    #[test]
    fn two_calls_on_one_line_get_distinct_keys_and_missing_times_borrow_the_previous() {
        let a = call(7, "Read", "2025-06-10T12:00:00Z", "2025-06-10T12:00:00Z");
        let mut b = call(7, "Read", "x", "y");
        b.timestamp = None;
        let rows = call_rows(&traj(vec![a, b]));
        assert_eq!(rows[0].record_key, "|7|#0");
        assert_eq!(rows[1].record_key, "|7|#1");
        assert_eq!(rows[1].called_at_ms, rows[0].called_at_ms);
        assert_eq!(rows[1].duration_ms, None);
    }

    #[test]
    fn fingerprint_prefix_hash_matches_a_hash_of_the_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        let data: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&p, &data).unwrap();
        for cut in [0usize, 1, 65_536, 70_000, 200_000] {
            let (fp, prefix) = fingerprint(&p, Some(cut as u64)).unwrap();
            assert_eq!(fp.size, 200_000);
            assert_eq!(
                prefix.unwrap(),
                hex(&Sha256::digest(&data[..cut])),
                "cut {cut}"
            );
        }
        let (_, none) = fingerprint(&p, Some(300_000)).unwrap();
        assert_eq!(none, None);
    }

    /// A tiny line format for these tests: `TOOL ok|fail|pending` per line; a
    /// line `!` makes the decode fail. Line N is at 2025-06-10T12:00:N.
    fn fake_decode(p: &Path) -> std::result::Result<Trajectory, decode::DecodeError> {
        let text = std::fs::read_to_string(p)
            .map_err(|e| decode::DecodeError::new(p, None, e.to_string()))?;
        let mut t = Trajectory::new(p.to_path_buf(), Harness::ClaudeCode, "fake");
        for (i, line) in text.lines().enumerate() {
            let n = i as u64 + 1;
            if line == "!" {
                return Err(decode::DecodeError::new(p, Some(n), "not a transcript"));
            }
            let mut it = line.split_whitespace();
            let (Some(tool), Some(state)) = (it.next(), it.next()) else {
                continue;
            };
            if tool == "=>" {
                // `=> N fail`: the result of the call on line N arrives here.
                let target: u64 = state.parse().unwrap();
                let e = t
                    .events
                    .iter_mut()
                    .find(|e| e.location.line == Some(target))
                    .unwrap();
                e.result_timestamp = Some(format!("2025-06-10T12:02:{:02}Z", n % 60));
                e.failed = it.next() == Some("fail");
                continue;
            }
            let mut e = Event::new(Location::line(n), Role::Assistant, Action::Other);
            e.tool = Some(tool.into());
            e.timestamp = Some(format!("2025-06-10T12:00:{:02}Z", n % 60));
            if state != "pending" {
                e.result_timestamp = Some(format!("2025-06-10T12:01:{:02}Z", n % 60));
            }
            e.failed = state == "fail";
            e.index = t.events.len();
            t.events.push(e);
        }
        Ok(t)
    }

    fn setup() -> (tempfile::TempDir, PathBuf, Connection, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("audit.db");
        let conn = super::super::schema::open_rw(&db).unwrap();
        let file = dir.path().join("t.log");
        (dir, db, conn, file)
    }

    fn run(
        conn: &mut Connection,
        db: &Path,
        file: &Path,
        fail_after: Option<usize>,
    ) -> Result<FileReport> {
        let opts = IngestOptions {
            now: "2026-01-01T00:00:00.000Z".into(),
            fail_after_rows: fail_after,
        };
        ingest_file_with(conn, db, file, &opts, &fake_decode)
    }

    fn snapshot(conn: &Connection) -> Vec<String> {
        let mut st = conn
            .prepare(
                "SELECT id || ' ' || record_key || ' ' || raw_tool || ' ' || success || ' ' || ifnull(duration_ms, '-')
                 FROM tool_calls ORDER BY id",
            )
            .unwrap();
        let mut rows: Vec<String> = st
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        rows.push(
            conn.query_row(
                "SELECT size || ' ' || sha256 FROM ingested_files",
                [],
                |r| r.get::<_, String>(0),
            )
            .unwrap(),
        );
        rows
    }

    #[test]
    fn reingest_is_a_noop_and_growth_adds_only_new_rows() {
        let (_d, db, mut conn, file) = setup();
        std::fs::write(&file, "Bash ok\nRead fail\nBash pending\n").unwrap();
        let r = run(&mut conn, &db, &file, None).unwrap();
        assert_eq!((r.status, r.added, r.updated), (FileStatus::New, 3, 0));
        let before = snapshot(&conn);

        let r = run(&mut conn, &db, &file, None).unwrap();
        assert_eq!(
            (r.status, r.added, r.updated),
            (FileStatus::Unchanged, 0, 0)
        );
        assert_eq!(snapshot(&conn), before);

        // Append two calls, and the result of the pending call on line 3.
        std::fs::write(
            &file,
            "Bash ok\nRead fail\nBash pending\nEdit ok\nGrep fail\n=> 3 fail\n",
        )
        .unwrap();
        let r = run(&mut conn, &db, &file, None).unwrap();
        assert_eq!((r.status, r.added, r.updated), (FileStatus::Grown, 2, 1));
        let after = snapshot(&conn);
        assert_eq!(after.len(), before.len() + 2);
        // The first two rows kept their ids and values; the third got its outcome.
        assert_eq!(after[..2], before[..2]);
        assert_eq!(before[2], "3 |3|#0 Bash 1 -");
        assert_eq!(after[2], "3 |3|#0 Bash 0 123000");
        let tc: i64 = conn
            .query_row("SELECT count(*) FROM tool_calls", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tc, 5);
    }

    #[test]
    fn a_rewritten_file_replaces_its_rows() {
        let (_d, db, mut conn, file) = setup();
        std::fs::write(&file, "Bash ok\nRead fail\n").unwrap();
        run(&mut conn, &db, &file, None).unwrap();
        std::fs::write(&file, "Edit ok\n").unwrap();
        let r = run(&mut conn, &db, &file, None).unwrap();
        assert_eq!((r.status, r.added), (FileStatus::Replaced, 1));
        let tools: Vec<String> = conn
            .prepare("SELECT raw_tool FROM tool_calls")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(tools, vec!["Edit"]);
        let sessions: i64 = conn
            .query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(sessions, 1);
    }

    #[test]
    fn a_failure_mid_file_leaves_the_previous_state_intact() {
        let (_d, db, mut conn, file) = setup();
        std::fs::write(&file, "Bash ok\nRead fail\n").unwrap();
        run(&mut conn, &db, &file, None).unwrap();
        let before = snapshot(&conn);

        std::fs::write(&file, "Bash ok\nRead fail\nEdit ok\nGrep ok\nLS ok\n").unwrap();
        // The session row is write 1; fail after the first new call row.
        let e = run(&mut conn, &db, &file, Some(2)).unwrap_err();
        assert!(matches!(e, AuditError::Injected { rows: 2, .. }), "{e}");
        assert_eq!(
            snapshot(&conn),
            before,
            "an interrupted ingest changed the database"
        );

        // A new file failing mid-way leaves nothing behind either.
        let other = file.with_file_name("u.log");
        std::fs::write(&other, "Bash ok\nBash ok\n").unwrap();
        run(&mut conn, &db, &other, Some(1)).unwrap_err();
        let sessions: i64 = conn
            .query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(sessions, 1);

        // The next clean run picks up exactly the new calls.
        let r = run(&mut conn, &db, &file, None).unwrap();
        assert_eq!((r.status, r.added), (FileStatus::Grown, 3));
    }

    #[test]
    fn decode_failures_are_reported_not_fatal() {
        let (_d, db, mut conn, file) = setup();
        std::fs::write(&file, "Bash ok\n!\n").unwrap();
        let r = run(&mut conn, &db, &file, None).unwrap();
        assert_eq!(r.status, FileStatus::Failed);
        assert_eq!(r.reason.as_deref(), Some("not a transcript"));
        let missing = file.with_file_name("missing.log");
        let r = run(&mut conn, &db, &missing, None).unwrap();
        assert_eq!(r.status, FileStatus::Failed);
        assert!(r.reason.unwrap().starts_with("cannot read"));
        let n: i64 = conn
            .query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0);
    }
}
