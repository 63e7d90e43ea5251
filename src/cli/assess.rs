//! `skillgate assess RUN_DIR`: findings.jsonl → assessment.json (seed 002;
//! `docs/assess.md`). The I/O around the pure `skillgate::assess` stage:
//! reading the run folder, the clock, writing, printing.

use anyhow::{bail, Context};
use skillgate::assess::{self, Severity, Skip};
use skillgate::exit::Exit;
use skillgate::fsutil::{self, InputError};
use std::fs;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};

/// The file names inside RUN_DIR.
const FINDINGS: &str = "findings.jsonl";
const ASSESSMENT: &str = "assessment.json";
const ASSESSMENT_TMP: &str = "assessment.json.tmp";
const STACK: &str = "stack.json";
const EVALUATION: &str = "evaluation.md";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The run folder `evaluate-run` wrote (holds findings.jsonl; stack.json
    /// and evaluation.md are optional).
    pub run_dir: PathBuf,
    /// Skip findings below this severity (critical > high > medium > low > info).
    #[arg(long, value_enum, default_value_t = SeverityArg::Info, value_name = "LEVEL")]
    pub min_severity: SeverityArg,
    /// Print the assessment JSON to stdout; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `--min-severity` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SeverityArg {
    Critical,
    High,
    Medium,
    Low,
    Info,
}

impl From<SeverityArg> for Severity {
    fn from(s: SeverityArg) -> Severity {
        match s {
            SeverityArg::Critical => Severity::Critical,
            SeverityArg::High => Severity::High,
            SeverityArg::Medium => Severity::Medium,
            SeverityArg::Low => Severity::Low,
            SeverityArg::Info => Severity::Info,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let dir = &args.run_dir;
    let findings_path = dir.join(FINDINGS);
    if !dir.exists() {
        bail!("{}: no such run folder", dir.display());
    }
    if !dir.is_dir() {
        bail!(
            "{}: not a folder (RUN_DIR is the folder holding findings.jsonl)",
            dir.display()
        );
    }
    if !findings_path.exists() {
        bail!(
            "no findings.jsonl — run evaluate-run first (looked for {})",
            findings_path.display()
        );
    }
    if !findings_path.is_file() {
        bail!("{}: not a file", findings_path.display());
    }
    let file = fs::File::open(&findings_path)
        .with_context(|| format!("{}: cannot open", findings_path.display()))?;

    // Skipped lines are reported as they are met, with their line numbers.
    let stderr = io::stderr();
    let mut err = io::BufWriter::new(stderr.lock());
    let shown = findings_path.display().to_string();
    let report = |s: &Skip| {
        let _ = writeln!(err, "warning: {shown}:{}: skipped: {}", s.line, s.reason);
    };
    let tally = assess::tally_findings(
        BufReader::with_capacity(1 << 18, file),
        args.min_severity.into(),
        assess::MAX_LINE_BYTES,
        report,
    )
    .map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    let _ = err.flush();
    drop(err);
    let skipped = tally.skipped();
    tracing::info!(
        findings = tally.findings(),
        below_min = tally.below_min(),
        skipped,
        "read {shown}"
    );

    let evaluation = read_evaluation(&dir.join(EVALUATION))?;
    let model = read_model(&dir.join(STACK))?;
    let assessment = tally.finish(evaluation.as_ref(), model, now_utc()?);
    let json = assessment.to_json_pretty();

    let mut out = io::stdout().lock();
    if args.dry_run {
        out.write_all(json.as_bytes())?;
        if skipped > 0 {
            eprintln!("warning: {skipped} malformed line(s) of {shown} skipped (reported above)");
        }
        return Ok(Exit::Ok);
    }
    let written = write_assessment(dir, json.as_bytes())?;
    let summary = assess::render_summary(&assessment, &written.display().to_string(), skipped);
    out.write_all(summary.as_bytes())?;
    Ok(Exit::Ok)
}

/// evaluation.md's requirement list; a missing file is `None` (the coverage
/// then falls back to the R ids seen). One that is there but cannot be read
/// (a FIFO, a device, a folder, a broken symlink, over
/// [`fsutil::MAX_DOCUMENT_BYTES`]) is an input error.
fn read_evaluation(path: &Path) -> anyhow::Result<Option<assess::EvaluationRequirements>> {
    let bytes = match fsutil::read_bounded(path, fsutil::MAX_DOCUMENT_BYTES) {
        Ok(b) => b,
        Err(e) if e.is_not_found() && !fsutil::entry_exists(path) => return Ok(None),
        // there but not readable (a FIFO, a device, a folder, a dangling or
        // looping symlink, too large, no permission): an input error
        Err(e) => bail!("{}: {e}", path.display()),
    };
    let found = assess::evaluation_requirements(&String::from_utf8_lossy(&bytes));
    match &found {
        Some(r) => tracing::info!(
            "{}: {} requirement(s) from its {:?}",
            path.display(),
            r.len(),
            r.source()
        ),
        None => tracing::info!(
            "{}: lists no R<N> requirement; requirement total from the findings",
            path.display()
        ),
    }
    Ok(found)
}

/// `.model // .agent // "unknown"` of stack.json (absent or not JSON:
/// "unknown"). One that is there but cannot be read (a FIFO, a device, a
/// folder, a broken symlink, over [`fsutil::MAX_SIDE_FILE_BYTES`]) is an
/// input error.
fn read_model(path: &Path) -> anyhow::Result<String> {
    let text = match fsutil::read_text(path, fsutil::MAX_SIDE_FILE_BYTES) {
        Ok(t) => t,
        Err(e) if e.is_not_found() && !fsutil::entry_exists(path) => {
            tracing::info!("{}: absent; model \"unknown\"", path.display());
            return Ok(assess::UNKNOWN_MODEL.to_string());
        }
        // not UTF-8: not JSON either, so the model is unknown (as for bad JSON)
        Err(e @ InputError::NotUtf8 { .. }) => {
            tracing::warn!("{}: {e}; model \"unknown\"", path.display());
            return Ok(assess::UNKNOWN_MODEL.to_string());
        }
        // there but not readable: an input error
        Err(e) => bail!("{}: {e}", path.display()),
    };
    Ok(assess::model_from_stack_json(&text).unwrap_or_else(|e| {
        tracing::warn!(
            "{}: not valid JSON ({e}); model \"unknown\"",
            path.display()
        );
        assess::UNKNOWN_MODEL.to_string()
    }))
}

/// An exclusive advisory lock on `dir`, held until the value is dropped
/// (`None` where the platform or the folder does not allow it).
fn lock_dir(dir: &Path) -> Option<fs::File> {
    let f = fs::File::open(dir).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on a descriptor we own; released when `f` is closed.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return None;
        }
    }
    Some(f)
}

/// Now, ISO 8601 UTC to the second: `2026-04-18T21:00:00Z`.
fn now_utc() -> anyhow::Result<String> {
    let format =
        time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    time::OffsetDateTime::now_utc()
        .format(&format)
        .context("formatting the current time")
}

/// Write `assessment.json.tmp`, then rename it to `assessment.json` (seed
/// step 8). When that fails (say the folder forbids the rename), warn and
/// write `assessment.json` directly, as the seed's troubleshooting says.
fn write_assessment(dir: &Path, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    let target = dir.join(ASSESSMENT);
    // Parallel runs on one folder take turns (an advisory lock on the folder),
    // so they never share the temporary file nor fall back to a direct write.
    let _turn = lock_dir(dir);
    let tmp = dir.join(ASSESSMENT_TMP);
    let atomic = (|| -> io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, &target)
    })();
    if let Err(e) = atomic {
        if tmp.is_file() {
            let _ = fs::remove_file(&tmp);
        }
        tracing::warn!(
            "could not write {} and rename it ({e}); writing {} directly",
            tmp.display(),
            target.display()
        );
        fs::write(&target, bytes).with_context(|| format!("{}: cannot write", target.display()))?;
    }
    Ok(target)
}
