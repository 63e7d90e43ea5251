//! `skillgate doctor [TRANSCRIPT|DIR]`: score one agent session and write a
//! self-contained report.html (seed 000; `docs/doctor.md`).
//!
//! The I/O around the pure `skillgate::doctor` stage: locating the session,
//! decoding it, the clock, writing the report folder atomically, the final
//! check of the written file, and the one-line summary.

use anyhow::{anyhow, Context};
use skillgate::decode::{self, DecodeOptions, Harness, SNIFF_BYTES};
use skillgate::doctor::{self, html, DoctorOptions, Outcome, Report, SessionInput};
use skillgate::exit::Exit;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The environment variable that overrides the default session folders
/// (a list in the platform's PATH syntax: `dir1:dir2`).
pub const SESSIONS_ROOTS_ENV: &str = "SKILLGATE_SESSIONS_ROOTS";

/// The report file inside the output folder.
pub const REPORT_FILE: &str = "report.html";

/// The largest file read as plain text when no decoder recognises it.
const PLAIN_TEXT_LIMIT: u64 = 8 * 1024 * 1024;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A transcript file, or a folder (its most recent transcript by
    /// modification time is used). Default: the most recent session under
    /// ~/.claude/projects, ~/.codex/sessions and ~/.gemini/tmp.
    #[arg(value_name = "TRANSCRIPT|DIR")]
    pub input: Option<PathBuf>,
    /// The report folder to create (default: ./skill-doctor-report-<UTC timestamp>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Which harness wrote the session: restricts the default folders and the decoders tried.
    #[arg(long, value_enum, default_value_t = HarnessArg::Auto)]
    pub harness: HarnessArg,
    /// Cite turn numbers only: no excerpt of the session in the report.
    #[arg(long)]
    pub no_excerpts: bool,
    /// A folder to search for the most recent session instead of the default
    /// ones (repeatable; also SKILLGATE_SESSIONS_ROOTS).
    #[arg(long = "sessions-root", value_name = "DIR")]
    pub sessions_roots: Vec<PathBuf>,
}

/// `--harness` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HarnessArg {
    Claude,
    Codex,
    Gemini,
    Auto,
}

impl HarnessArg {
    fn harness(self) -> Option<Harness> {
        match self {
            HarnessArg::Claude => Some(Harness::ClaudeCode),
            HarnessArg::Codex => Some(Harness::Codex),
            HarnessArg::Gemini => Some(Harness::Gemini),
            HarnessArg::Auto => None,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let now = time::OffsetDateTime::now_utc();
    let out_dir = match &args.out {
        Some(d) => d.clone(),
        None => PathBuf::from(format!("skill-doctor-report-{}", stamp(now))),
    };
    let input = locate_and_decode(&args)?;
    let opts = DoctorOptions {
        excerpts: !args.no_excerpts,
    };
    let report = doctor::diagnose(&input, &opts);
    let generated_at = now
        .replace_nanosecond(0)
        .unwrap_or(now)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    let page = html::render(
        &report,
        &html::RenderContext {
            generated_at: &generated_at,
            version: env!("CARGO_PKG_VERSION"),
        },
    );
    let written = write_report(&out_dir, &page, &report).map_err(|e| {
        anyhow!(
            "cannot write the report to {}: {e:#}; nothing was left behind",
            out_dir.display()
        )
    })?;
    summarize(&report, &written, &input)
}

/// `20250101T120000Z`.
fn stamp(t: time::OffsetDateTime) -> String {
    let f = time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
    t.format(&f).unwrap_or_else(|_| "now".into())
}

// ------------------------------------------------------------------ input

fn locate_and_decode(args: &Args) -> anyhow::Result<SessionInput> {
    let harness = args.harness.harness();
    let path = match &args.input {
        // a dangling or looping symlink is there but broken: an error below
        Some(p) if !skillgate::fsutil::entry_exists(p) => {
            eprintln!("warning: {}: no such file or folder", p.display());
            return Ok(SessionInput::NoHistory {
                searched: vec![p.display().to_string()],
            });
        }
        Some(p) if p.is_dir() => match most_recent(std::slice::from_ref(p))? {
            Some(f) => f,
            None => {
                return Ok(SessionInput::NoHistory {
                    searched: vec![p.display().to_string()],
                })
            }
        },
        Some(p) => p.clone(),
        None => {
            let roots = session_roots(args, harness);
            let existing: Vec<PathBuf> = roots.iter().filter(|r| r.is_dir()).cloned().collect();
            match most_recent(&existing)? {
                Some(f) => f,
                None => {
                    return Ok(SessionInput::NoHistory {
                        searched: roots.iter().map(|r| r.display().to_string()).collect(),
                    })
                }
            }
        }
    };
    decode_file(&path, harness)
}

/// The folders searched when no input is given: `--sessions-root`, else
/// SKILLGATE_SESSIONS_ROOTS, else the harnesses' default folders under HOME.
/// (Configuration-file integration is owned by `skillgate config`.)
fn session_roots(args: &Args, harness: Option<Harness>) -> Vec<PathBuf> {
    if !args.sessions_roots.is_empty() {
        return args.sessions_roots.clone();
    }
    if let Some(v) = std::env::var_os(SESSIONS_ROOTS_ENV) {
        let roots: Vec<PathBuf> = std::env::split_paths(&v)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        if !roots.is_empty() {
            return roots;
        }
    }
    let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else {
        return Vec::new();
    };
    let all = [
        (Harness::ClaudeCode, home.join(".claude").join("projects")),
        (Harness::Codex, home.join(".codex").join("sessions")),
        (Harness::Gemini, home.join(".gemini").join("tmp")),
    ];
    all.into_iter()
        .filter(|(h, _)| harness.is_none_or(|x| x == *h))
        .map(|(_, p)| p)
        .collect()
}

/// Is this file a transcript candidate?
fn is_transcript_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if name.starts_with('.') && !name.ends_with(".chat.history.md") {
        return false;
    }
    if name.ends_with(".meta.json") || name == "sessions-index.json" || name == "logs.json" {
        return false;
    }
    name.ends_with(".jsonl")
        || name.ends_with(".json")
        || name.ends_with(".traj")
        || name.ends_with(".chat.history.md")
        || name.ends_with(".log")
        || name.ends_with(".txt")
}

/// The most recently modified transcript under `roots` (recursively; never
/// following symlinks; skipping subagent folders and doctor report folders).
/// Ties are broken by path, so the choice is deterministic.
fn most_recent(roots: &[PathBuf]) -> anyhow::Result<Option<PathBuf>> {
    let mut best: Option<(SystemTime, PathBuf)> = None;
    let mut stack: Vec<PathBuf> = roots.to_vec();
    while let Some(dir) = stack.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!("{}: cannot list: {e}", dir.display());
                continue;
            }
        };
        for entry in entries.flatten() {
            let Ok(ft) = entry.file_type() else { continue };
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if ft.is_dir() {
                if name == "subagents"
                    || name.starts_with("skill-doctor-report-")
                    || name.starts_with('.')
                {
                    continue;
                }
                stack.push(path);
            } else if ft.is_file() && is_transcript_name(&path) {
                let mtime = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(SystemTime::UNIX_EPOCH);
                let better = match &best {
                    None => true,
                    Some((t, p)) => mtime > *t || (mtime == *t && path > *p),
                };
                if better {
                    best = Some((mtime, path));
                }
            }
        }
    }
    Ok(best.map(|(_, p)| p))
}

/// Pick the decoder (all, or one harness's best sniff), decode with content,
/// and fall back to plain-text role markers when nothing decodes it.
fn decode_file(path: &Path, harness: Option<Harness>) -> anyhow::Result<SessionInput> {
    let meta = fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if !meta.is_file() {
        // a FIFO would block, a device never ends (docs/reliability.md)
        let e = skillgate::fsutil::open_regular(path).err();
        anyhow::bail!(
            "{}: {}",
            path.display(),
            e.map_or_else(|| "not a regular file".to_string(), |e| e.to_string())
        );
    }
    if meta.len() == 0 {
        return Ok(SessionInput::Empty {
            path: path.to_path_buf(),
        });
    }
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    fs::File::open(path)
        .and_then(|f| f.take(SNIFF_BYTES as u64).read_to_end(&mut head))
        .with_context(|| format!("{}: cannot read", path.display()))?;
    if meta.len() <= SNIFF_BYTES as u64 && head.iter().all(|b| b.is_ascii_whitespace()) {
        return Ok(SessionInput::Empty {
            path: path.to_path_buf(),
        });
    }
    let format: Option<&'static str> = match harness {
        None => None,
        Some(h) => {
            let best = decode::decoders()
                .into_iter()
                .filter(|d| d.harness() == h)
                .map(|d| (d.sniff(path, &head), d.format()))
                .filter(|(s, _)| *s > 0)
                .max_by_key(|(s, _)| *s);
            match best {
                Some((_, f)) => Some(f),
                None => {
                    let looks = decode::pick_decoder(path, None).map(|d| d.format()).ok();
                    let message = match looks {
                        Some(f) => format!("not a {} transcript (it looks like {f})", h.as_str()),
                        None => format!("not a {} transcript", h.as_str()),
                    };
                    return Ok(undecodable(path, Some(1), message));
                }
            }
        }
    };
    match decode::decode_path(path, format, &DecodeOptions { keep_content: true }) {
        Ok(traj) => Ok(SessionInput::Decoded(Box::new(traj))),
        // The decoders' hint names the gate's flag; the doctor's is --harness.
        Err(e) => Ok(undecodable(
            path,
            e.line,
            e.message.replace(
                "use --input-format to name one",
                "use --harness to name the harness",
            ),
        )),
    }
}

fn undecodable(path: &Path, line: Option<u64>, message: String) -> SessionInput {
    let mut bytes = Vec::new();
    if let Ok(f) = fs::File::open(path) {
        let _ = f.take(PLAIN_TEXT_LIMIT).read_to_end(&mut bytes);
    }
    let text = String::from_utf8_lossy(&bytes);
    let recovered = doctor::turns::from_plain_text(&text);
    // A plain-text log (not JSON that failed to decode) split by role
    // markers is a session like any other: it is scored.
    let json_like = text.trim_start().starts_with(['{', '[']);
    if !json_like && !recovered.is_empty() {
        return SessionInput::PlainText {
            path: path.to_path_buf(),
            turns: recovered,
        };
    }
    SessionInput::Undecodable {
        path: path.to_path_buf(),
        line,
        message,
        recovered,
    }
}

// ------------------------------------------------------------------ output

/// Write report.html into `out`:
/// - `out` is an existing folder: report.html is replaced atomically inside it;
/// - otherwise the report is written into a temporary sibling folder that is
///   then renamed to `out` (missing parent folders are created, and removed
///   again on failure).
///
/// Then the written file is read back and checked for its required sections.
/// On any failure nothing the command created is left behind.
fn write_report(out: &Path, page: &str, report: &Report) -> anyhow::Result<PathBuf> {
    let target = out.join(REPORT_FILE);
    if out.is_dir() {
        skillgate::fsutil::atomic_write(&target, page.as_bytes())?;
        if let Err(e) = final_check(&target, report) {
            let _ = fs::remove_file(&target);
            return Err(e);
        }
        return Ok(target);
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .ok_or_else(|| anyhow!("{}: not a folder name", out.display()))?;
    let created = create_ancestors(&parent)?;
    let tmp = parent.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let mut renamed = false;
    let mut attempt = || -> anyhow::Result<()> {
        fs::create_dir(&tmp)?;
        let mut f = fs::File::create(tmp.join(REPORT_FILE))?;
        f.write_all(page.as_bytes())?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, out)?;
        renamed = true;
        final_check(&target, report)
    };
    if let Err(e) = attempt() {
        let _ = fs::remove_dir_all(&tmp);
        if renamed {
            // The folder is ours: the check failed after the rename.
            let _ = fs::remove_dir_all(out);
        }
        remove_created(&created);
        return Err(e);
    }
    Ok(target)
}

/// Create the missing ancestors of `dir`, returning those created (deepest last).
fn create_ancestors(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut cur = Some(dir);
    while let Some(d) = cur {
        if d.as_os_str().is_empty() || d.exists() {
            break;
        }
        missing.push(d.to_path_buf());
        cur = d.parent();
    }
    missing.reverse();
    let mut created = Vec::new();
    for d in missing {
        if let Err(e) = fs::create_dir(&d) {
            remove_created(&created);
            return Err(anyhow!("cannot create {}: {e}", d.display()));
        }
        created.push(d);
    }
    Ok(created)
}

fn remove_created(created: &[PathBuf]) {
    for d in created.iter().rev() {
        let _ = fs::remove_dir(d);
    }
}

/// Read the written report back and confirm its required sections.
fn final_check(target: &Path, report: &Report) -> anyhow::Result<()> {
    let written = fs::read_to_string(target)
        .with_context(|| format!("{}: cannot read back", target.display()))?;
    html::verify(&written, report).map_err(|missing| {
        anyhow!(
            "{}: the written report lacks required sections: {}",
            target.display(),
            missing.join(", ")
        )
    })
}

/// One line per score on stdout; the exit code of the outcome.
fn summarize(report: &Report, written: &Path, input: &SessionInput) -> anyhow::Result<Exit> {
    let mut out = std::io::stdout().lock();
    let shown = written.display();
    match &report.outcome {
        Outcome::NoHistory { .. } => {
            writeln!(out, "{}: report written to {shown}", doctor::NO_HISTORY)?;
            Ok(Exit::NothingToMeasure)
        }
        Outcome::TooShort { .. } => {
            writeln!(out, "{}: report written to {shown}", doctor::TOO_SHORT)?;
            Ok(Exit::NothingToMeasure)
        }
        Outcome::ParseError { .. } => {
            if let SessionInput::Undecodable {
                path,
                line,
                message,
                ..
            } = input
            {
                let at = line.map(|l| format!(":{l}")).unwrap_or_default();
                eprintln!("error: {}{at}: {message}", path.display());
            } else if let SessionInput::Decoded(t) = input {
                let locs = doctor::undecodable_locations(t);
                eprintln!(
                    "error: {}: {} record(s) could not be decoded ({}); scores are N/A",
                    t.path.display(),
                    locs.len(),
                    doctor::list_locations(&locs)
                );
            }
            writeln!(out, "Parsing error: scores N/A; report written to {shown}")?;
            Ok(Exit::Error)
        }
        Outcome::Scored => {
            if let SessionInput::PlainText { path, turns } = input {
                eprintln!(
                    "note: {}: no transcript decoder recognised it; scored as a plain-text log ({} turn(s) split by role markers, tool calls from `Tool:` turns and fenced blocks)",
                    path.display(),
                    turns.len()
                );
            }
            let fmt = |s: &Option<doctor::Score>| match s.as_ref().and_then(|s| s.total()) {
                Some(t) => format!("{t}/10"),
                None => "N/A".to_string(),
            };
            writeln!(
                out,
                "Efficiency {}, code quality {}; {} finding(s); report written to {shown}",
                fmt(&report.efficiency),
                fmt(&report.code_quality),
                report.findings.len()
            )?;
            Ok(Exit::Ok)
        }
    }
}
