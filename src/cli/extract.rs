//! `skillgate extract SKILL.md [--format md|json|yaml] [--write]`.
//!
//! Prints the constraints extracted from a skill. `--write` creates or
//! refreshes `SKILL.constraints.yaml` beside it (atomically), keeping
//! reviewed entries whose text is still in the skill, and prints the result.

use anyhow::Context as _;
use skillgate::exit::Exit;
use skillgate::extract::lockfile::{
    self, predicate_flow, Lockfile, LOCKFILE_NAME, LOCKFILE_VERSION,
};
use skillgate::extract::{extract, Constraint, Lexicon};
use skillgate::parse::Skill;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Md,
    Json,
    Yaml,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The SKILL.md (or the folder that holds it).
    pub skill: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: Format,
    /// Create or refresh SKILL.constraints.yaml beside SKILL.md.
    #[arg(long)]
    pub write: bool,
    /// Configuration file whose `lexicon:` extends the built-in one (default:
    /// `.skillgate.yaml` found walking up from the working directory).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let path = skill_path(&args.skill);
    let skill = match Skill::read(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(Exit::Error);
        }
    };
    if let Some(w) = skill.recovered_warning() {
        eprintln!("warning: {w}");
    }
    let cwd = std::env::current_dir()?;
    let config = skillgate::config::Config::load_or_discover(args.config.as_deref(), &cwd)?;
    let lexicon = match Lexicon::with_overrides(&config.lexicon) {
        Ok(l) => l,
        Err(m) => {
            let at = config
                .file
                .as_ref()
                .map(|f| format!("{}: ", f.display()))
                .unwrap_or_default();
            eprintln!("error: {at}invalid lexicon: {m}");
            return Ok(Exit::Error);
        }
    };
    let extracted = extract(&skill, &lexicon);
    // An existing lockfile is read (and must be valid) with or without
    // --write: a malformed one is an input error either way (docs/constraints.md).
    let lock_path = skill.dir().join(LOCKFILE_NAME);
    let old = if skillgate::fsutil::entry_exists(&lock_path) {
        match Lockfile::read(&lock_path) {
            Ok(l) => Some(l),
            Err(e) => {
                eprintln!("error: {e}");
                eprintln!("fix the lockfile (or delete it to start over), then run `skillgate extract --write` again");
                return Ok(Exit::Error);
            }
        }
    } else {
        None
    };
    let lockfile = if args.write {
        let r = lockfile::refresh(old.as_ref(), &skill, extracted);
        let yaml = r.lockfile.to_yaml();
        // What we write must read back: never leave a lockfile the gate rejects.
        if let Err(e) = Lockfile::parse(&lock_path, &yaml) {
            anyhow::bail!("refusing to write an invalid lockfile (a skillgate defect):\n{e}");
        }
        let unchanged =
            skillgate::fsutil::read_bounded(&lock_path, skillgate::fsutil::MAX_LOCKFILE_BYTES)
                .is_ok_and(|b| b == yaml.as_bytes());
        if !unchanged {
            skillgate::fsutil::atomic_write(&lock_path, yaml.as_bytes())
                .with_context(|| format!("cannot write {}", lock_path.display()))?;
        }
        eprintln!(
            "{} {}: {} constraints ({} kept from review, {} new{})",
            if unchanged { "unchanged" } else { "wrote" },
            lock_path.display(),
            r.lockfile.constraints.len(),
            r.kept,
            r.added,
            if r.dropped.is_empty() {
                String::new()
            } else {
                format!(
                    ", dropped because their text is gone: {}",
                    r.dropped.join(", ")
                )
            }
        );
        // `--write` reports its one summary line above; the table is what
        // `extract` without `--write` (or the lockfile itself) shows.
        return Ok(Exit::Ok);
    } else {
        Lockfile {
            version: LOCKFILE_VERSION,
            skill: skill.name(),
            source_sha256: skill.sha256.clone(),
            constraints: extracted,
            reviewed: Vec::new(),
            not_rules: Vec::new(),
        }
    };
    let out = match args.format {
        Format::Json => serde_json::to_string_pretty(&lockfile)? + "\n",
        Format::Yaml => lockfile.to_yaml(),
        Format::Md => markdown(&lockfile, &path),
    };
    print!("{out}");
    Ok(Exit::Ok)
}

fn skill_path(p: &Path) -> PathBuf {
    if p.is_dir() {
        let upper = p.join("SKILL.md");
        if upper.exists() {
            return upper;
        }
        let lower = p.join("skill.md");
        if lower.exists() {
            return lower;
        }
        return upper;
    }
    p.to_path_buf()
}

fn markdown(l: &Lockfile, path: &Path) -> String {
    let mut s = format!("# Constraints of `{}` ({})\n\n", l.skill, path.display());
    if l.constraints.is_empty() {
        s.push_str("No rule found.\n");
        return s;
    }
    s.push_str(
        "| id | lines | modality | scope | when | require / forbid |\n|---|---|---|---|---|---|\n",
    );
    for c in &l.constraints {
        s.push_str(&format!(
            "| `{}` | {}–{} | {} | {} | {} | {} |\n",
            c.id,
            c.lines[0],
            c.lines[1],
            serde_json::to_value(c.modality)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            c.scope
                .iter()
                .map(|t| t.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            c.when
                .as_ref()
                .map(|p| format!("`{}`", cell(&predicate_flow(p))))
                .unwrap_or_default(),
            behavior(c),
        ));
    }
    s.push('\n');
    for c in &l.constraints {
        s.push_str(&format!(
            "- `{}` (line {}): {}\n",
            c.id,
            c.lines[0],
            c.text.replace('\n', " / ")
        ));
    }
    s
}

fn behavior(c: &Constraint) -> String {
    if let Some(p) = &c.require {
        let order = match c.order {
            Some(skillgate::extract::Order::Before) => " (before)",
            Some(skillgate::extract::Order::BeforeEach) => " (before-each)",
            Some(skillgate::extract::Order::Anywhere) => " (anywhere)",
            _ => "",
        };
        format!("require `{}`{order}", cell(&predicate_flow(p)))
    } else if let Some(p) = &c.forbid {
        format!("forbid `{}`", cell(&predicate_flow(p)))
    } else if let Some(m) = &c.manual {
        format!("manual: {}", cell(m))
    } else {
        String::new()
    }
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}
