//! `skillgate ingest [PATH...]`: decode trajectories into the audit database
//! (docs/audit.md). Incremental and idempotent; one transaction per file.
//! Files that fail to decode are counted and reported on stderr; a path the
//! user named that cannot be read is an error (exit 2).

use super::stats::{project_root, DbArgs};
use anyhow::{bail, Context};
use serde_json::json;
use skillgate::audit::ingest::{self, FileStatus, IngestOptions};
use skillgate::audit::{calibration, format_timestamp, schema, AuditDefaults};
use skillgate::config::Config;
use skillgate::decode::discover::Discovery;
use skillgate::exit::Exit;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Transcript files or folders (searched recursively). Default: the harness
    /// log folders under your home (~/.claude/projects, ~/.codex/sessions,
    /// ~/.gemini/tmp) and .planning/patterns under the project root, where they exist.
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
    /// Also import calibration rows (JSONL of {"tag", "predicted", "outcome"}).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let (cfg, db) = args.db.resolve()?;
    let named = !args.paths.is_empty();
    let roots = if named {
        args.paths.clone()
    } else {
        default_roots(&cfg)?
    };

    let mut files: Vec<PathBuf> = Vec::new();
    let mut skipped: Vec<(PathBuf, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for root in &roots {
        let found = match collect(root) {
            Ok(f) => f,
            Err(e) if named => bail!("{}: cannot read: {e}", root.display()),
            Err(e) => {
                eprintln!("warning: {}: skipped default folder: {e}", root.display());
                continue;
            }
        };
        skipped.extend(found.skipped);
        for f in found.files {
            let key = f.canonicalize().unwrap_or_else(|_| f.clone());
            if seen.insert(key) {
                files.push(f);
            }
        }
    }

    let mut conn = schema::open_rw(&db)?;
    let calibration_rows = match &args.calibration {
        Some(f) => Some(calibration::import(&mut conn, &db, f)?),
        None => None,
    };

    let opts = IngestOptions {
        now: format_timestamp(time::OffsetDateTime::now_utc()),
        fail_after_rows: None,
    };
    let bar = progress_bar(files.len());
    let (reports, counts) = ingest::ingest_files(&mut conn, &db, &files, &opts, &mut |_r| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    })
    .with_context(|| {
        format!(
            "ingest stopped; files before this one are saved in {}",
            db.display()
        )
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let totals = ingest::table_counts(&conn)
        .with_context(|| format!("{}: cannot count rows", db.display()))?;

    let failed: Vec<_> = reports
        .iter()
        .filter(|r| r.status == FileStatus::Failed)
        .map(|r| json!({"path": r.path, "reason": r.reason}))
        .collect();
    for (p, why) in &skipped {
        eprintln!("skipped {}: {why}", p.display());
    }
    for r in reports.iter().filter(|r| r.status == FileStatus::Failed) {
        eprintln!(
            "skipped {}: {}",
            r.path.display(),
            r.reason.as_deref().unwrap_or("failed")
        );
    }
    eprintln!(
        "ingested {} files into {}: {} new, {} grown, {} replaced, {} unchanged, {} failed; +{} tool calls ({} updated)",
        counts.files,
        db.display(),
        counts.new,
        counts.grown,
        counts.replaced,
        counts.unchanged,
        counts.failed,
        counts.tool_calls_added,
        counts.tool_calls_updated
    );
    let out = json!({
        "db": db,
        "files": counts,
        "failed": failed,
        "skipped": skipped.iter().map(|(p, why)| json!({"path": p, "reason": why})).collect::<Vec<_>>(),
        "calibrationRows": calibration_rows,
        "totals": totals,
    });
    super::stats::print_out(&format!("{}\n", serde_json::to_string_pretty(&out)?))?;
    Ok(Exit::Ok)
}

/// The roots `ingest` reads without PATH arguments, those that exist: the
/// configuration's `audit.ingest-roots`, else the harness log folders under
/// HOME and the project's trajectory folder.
fn default_roots(cfg: &Config) -> anyhow::Result<Vec<PathBuf>> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let mut roots = Vec::new();
    match &cfg.audit.ingest_roots {
        Some(list) => {
            for r in list {
                match (r.strip_prefix("~/").or((r == "~").then_some("")), &home) {
                    (Some(rest), Some(h)) => roots.push(h.join(rest)),
                    (Some(_), None) => {}
                    (None, _) => roots.push(PathBuf::from(r)),
                }
            }
        }
        None => {
            let d = AuditDefaults::default();
            if let Some(h) = &home {
                roots.extend(d.home_roots.iter().map(|r| h.join(r)));
            }
            let project = project_root()?;
            roots.extend(d.project_roots.iter().map(|r| project.join(r)));
        }
    }
    Ok(roots.into_iter().filter(|r| r.exists()).collect())
}

/// A file is itself; a folder is the transcripts found under it.
/// (Discovery skips sidecars, symlinks out of the tree, unreadable folders: they are reported.)
fn collect(root: &Path) -> std::io::Result<Discovery> {
    let meta = std::fs::metadata(root)?;
    if meta.is_dir() {
        std::fs::read_dir(root)?;
    } else {
        // a FIFO would block `open`, a device never ends: regular files only
        skillgate::fsutil::open_regular(root).map_err(|e| match e {
            skillgate::fsutil::InputError::Io(e) => e,
            e => std::io::Error::other(e.to_string()),
        })?;
    }
    skillgate::decode::discover::discover_all(root)
}

/// A progress bar on a terminal, none in CI or when stderr is redirected.
fn progress_bar(len: usize) -> Option<indicatif::ProgressBar> {
    if len < 2 || !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("ingest {bar:30} {pos}/{len} files {elapsed}")
    {
        bar.set_style(style);
    }
    Some(bar)
}
