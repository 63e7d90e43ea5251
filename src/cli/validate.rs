//! `skillgate validate PATH... [--format text|json]`: lint skills against the
//! Agent Skills spec (docs/validate.md).
//!
//! Exit codes: 0 no error (warnings and info allowed), 1 at least one
//! error-level diagnostic, 2 an input that cannot be read as a SKILL.md
//! (missing path, folder without SKILL.md, invalid UTF-8 or YAML...). Every
//! input is still checked when one fails, so one run shows every problem.

use skillgate::exit::Exit;
use skillgate::parse::diag::{Code, Diagnostic, Level};
use skillgate::parse::walk::walk_path;
use skillgate::parse::{validate, ParseError, Skill};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `file:line:col: level[code]: message`, one per line.
    Text,
    /// A JSON array of {file, line, col, level, code, message}.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// SKILL.md files, skill folders, or trees holding many skills.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// What one run found.
struct Outcome {
    diagnostics: Vec<Diagnostic>,
    skills: usize,
    unreadable: usize,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let outcome = check(&args.paths);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.format {
        Format::Text => {
            for d in &outcome.diagnostics {
                writeln!(out, "{d}")?;
            }
        }
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &outcome.diagnostics)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    let count = |l: Level| outcome.diagnostics.iter().filter(|d| d.level == l).count();
    let (errors, warnings, infos) = (
        count(Level::Error),
        count(Level::Warning),
        count(Level::Info),
    );
    let mut summary = format!(
        "validated {} skill(s): {errors} error(s), {warnings} warning(s), {infos} info",
        outcome.skills
    );
    if outcome.unreadable > 0 {
        summary.push_str(&format!(
            "; {} input(s) could not be read",
            outcome.unreadable
        ));
    }
    eprintln!("{summary}");
    Ok(if outcome.unreadable > 0 {
        Exit::Error
    } else if errors > 0 {
        Exit::Fail
    } else {
        Exit::Ok
    })
}

fn check(paths: &[PathBuf]) -> Outcome {
    let mut o = Outcome {
        diagnostics: Vec::new(),
        skills: 0,
        unreadable: 0,
    };
    let mut seen = HashSet::new();
    for root in paths {
        let walk = match walk_path(root) {
            Ok(w) => w,
            Err(e) => {
                o.unreadable += 1;
                o.diagnostics.push(parse_error(&e));
                continue;
            }
        };
        for s in &walk.skipped {
            o.diagnostics.push(Diagnostic::new(
                &s.path,
                0,
                0,
                Code::SymlinkOutsideTree,
                s.reason.clone(),
            ));
        }
        for path in walk.skills {
            if !seen.insert(path.clone()) {
                continue;
            }
            tracing::debug!(path = %path.display(), "validating");
            match Skill::read(&path) {
                Ok(skill) => {
                    o.skills += 1;
                    let folder = folder_name(&path);
                    o.diagnostics
                        .extend(validate::validate_in(&skill, folder.as_deref()));
                }
                Err(e) => {
                    o.unreadable += 1;
                    o.diagnostics.push(parse_error(&e));
                }
            }
        }
    }
    o
}

/// The name of the folder holding a SKILL.md, resolving `SKILL.md` and
/// `./SKILL.md` against the working directory.
fn folder_name(path: &Path) -> Option<String> {
    let parent = path.parent()?;
    if let Some(n) = parent.file_name() {
        return Some(n.to_string_lossy().into_owned());
    }
    let dir = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    std::fs::canonicalize(dir)
        .ok()?
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
}

fn parse_error(e: &ParseError) -> Diagnostic {
    Diagnostic::new(
        &e.path,
        e.line,
        if e.line > 0 { e.col.max(1) } else { 0 },
        e.code,
        e.message.clone(),
    )
}
