//! audit: the tool-usage database (seed 001, SPEC §8).
//!
//! `skillgate ingest` decodes trajectories into a SQLite file ([`schema`],
//! [`ingest`]); `stats`, `refine`, `compose`, `explain` read it ([`stats`],
//! [`refine`], [`compose`], [`explain`]) and fail open when it is missing;
//! `federate` exchanges refinement events with a peer ([`federate`]);
//! `gate --record` writes gate results beside the usage ([`gate_results`]).
//!
//! Library code here never prints, never reads the clock or the environment:
//! the CLI passes "now" and every setting in.

pub mod calibration;
pub mod catalog;
pub mod compose;
pub mod errors;
pub mod explain;
pub mod federate;
pub mod gate_results;
pub mod ingest;
pub mod names;
pub mod refine;
pub mod schema;
pub mod stats;

pub use errors::ErrorKind;
pub use gate_results::{record_gate_results, GateResultRow};

use std::path::{Path, PathBuf};
use time::OffsetDateTime;

/// Errors of the audit stage. Each names the file it concerns.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: database error: {source}", path.display())]
    Db {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("{}: {message}", path.display())]
    Schema { path: PathBuf, message: String },
    /// Bad input in a file the user gave (calibration JSONL): file and line.
    #[error("{}:{line}: {message}", path.display())]
    Input {
        path: PathBuf,
        line: u64,
        message: String,
    },
    /// A failure injected by a test (see [`ingest::IngestOptions::fail_after_rows`]).
    #[error("{}: injected failure after {rows} rows (test hook)", path.display())]
    Injected { path: PathBuf, rows: usize },
}

impl AuditError {
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        AuditError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
    pub fn db(path: &Path, source: rusqlite::Error) -> Self {
        AuditError::Db {
            path: path.to_path_buf(),
            source,
        }
    }
}

pub type Result<T> = std::result::Result<T, AuditError>;

/// Where the audit commands look by default. The CLI fills the home-relative
/// entries; a configuration file may replace any of them.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditDefaults {
    /// Harness log folders, relative to the user's home folder.
    pub home_roots: Vec<&'static str>,
    /// Trajectory folder relative to the project root (SPEC §5).
    pub project_roots: Vec<&'static str>,
    /// Database file relative to the project root.
    pub db: &'static str,
    /// Rows of `stats` without a `--tool` filter.
    pub top_n: usize,
}

impl Default for AuditDefaults {
    fn default() -> Self {
        AuditDefaults {
            home_roots: vec![".claude/projects", ".codex/sessions", ".gemini/tmp"],
            project_roots: vec![".planning/patterns"],
            db: ".skillgate/audit.db",
            top_n: 20,
        }
    }
}

/// The `audit:` section of the configuration file (docs/audit.md). Every key
/// is optional; flags and environment variables win over it.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AuditConfig {
    /// The database file (relative paths: to the configuration file's folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db: Option<PathBuf>,
    /// What `ingest` reads when no PATH is given, replacing the defaults.
    /// `~/` is the home folder; other relative paths are relative to the
    /// configuration file's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ingest_roots: Option<Vec<String>>,
    /// The federation endpoint (base URL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub federation_url: Option<String>,
    /// This instance's peer name in published events (default: the host name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub federation_peer: Option<String>,
}

impl AuditConfig {
    pub fn is_empty(&self) -> bool {
        *self == AuditConfig::default()
    }

    /// Make relative paths relative to `base` (the configuration file's folder).
    pub fn resolved(mut self, base: &Path) -> Self {
        let join = |p: &Path| {
            if p.is_absolute() || base.as_os_str().is_empty() {
                p.to_path_buf()
            } else {
                base.join(p)
            }
        };
        self.db = self.db.as_deref().map(join);
        if let Some(roots) = &mut self.ingest_roots {
            for r in roots.iter_mut() {
                if !r.starts_with("~/") && r != "~" && !Path::new(r.as_str()).is_absolute() {
                    *r = join(Path::new(r.as_str())).display().to_string();
                }
            }
        }
        self
    }
}

/// The environment variable naming the federation endpoint (the seed's
/// `SUDO_FEDERATION_URL`, renamed for this product).
pub const FEDERATION_URL_ENV: &str = "SKILLGATE_FEDERATION_URL";

/// Parse a timestamp as harnesses write them: RFC 3339, or a date-time
/// without offset (OpenHands, Gemini legacy), read as UTC.
pub fn parse_timestamp(s: &str) -> Option<OffsetDateTime> {
    use time::format_description::well_known::Rfc3339;
    let s = s.trim();
    if let Ok(t) = OffsetDateTime::parse(s, &Rfc3339) {
        return Some(t);
    }
    let fmts: [&[time::format_description::FormatItem<'static>]; 4] = [
        time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond]"
        ),
        time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]"),
        time::macros::format_description!(
            "[year]-[month]-[day] [hour]:[minute]:[second].[subsecond]"
        ),
        time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]"),
    ];
    fmts.iter().find_map(|f| {
        time::PrimitiveDateTime::parse(s, f)
            .ok()
            .map(|p| p.assume_utc())
    })
}

/// Milliseconds since the Unix epoch.
pub fn unix_ms(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

/// RFC 3339 in UTC with milliseconds (`2025-06-10T12:36:27.973Z`).
pub fn format_timestamp(t: OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC);
    let fmt = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    t.format(&fmt)
        .unwrap_or_else(|_| t.unix_timestamp().to_string())
}

/// The window of the read commands: calls at or after `since_ms`; `None` = all time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub days: u32,
    pub since_ms: Option<i64>,
}

impl Window {
    /// `days == 0` means all time (so a corpus recorded long ago stays countable).
    pub fn new(days: u32, now: OffsetDateTime) -> Self {
        let since_ms = (days > 0).then(|| unix_ms(now) - i64::from(days) * 86_400_000);
        Window { days, since_ms }
    }
    pub fn all_time() -> Self {
        Window {
            days: 0,
            since_ms: None,
        }
    }
}

/// Round to `digits` decimals (for rates and scores in JSON).
pub fn round_to(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_of_every_harness_parse() {
        let a = parse_timestamp("2025-06-10T12:36:27.973Z").unwrap();
        assert_eq!(unix_ms(a), 1_749_558_987_973);
        assert_eq!(format_timestamp(a), "2025-06-10T12:36:27.973Z");
        let b = parse_timestamp("2025-01-20T20:29:35.040676").unwrap();
        assert_eq!(b.offset(), time::UtcOffset::UTC);
        let c = parse_timestamp("2025-05-12T20:27:36-04:00").unwrap();
        assert_eq!(format_timestamp(c), "2025-05-13T00:27:36.000Z");
        assert!(parse_timestamp("yesterday").is_none());
    }

    #[test]
    fn windows() {
        let now = parse_timestamp("2025-06-10T00:00:00Z").unwrap();
        let w = Window::new(7, now);
        assert_eq!(w.since_ms, Some(unix_ms(now) - 7 * 86_400_000));
        assert_eq!(Window::new(0, now).since_ms, None);
        assert_eq!(round_to(38.0 / 42.0, 3), 0.905);
    }
}
