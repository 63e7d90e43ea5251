//! Configuration: `.skillgate.yaml` (or `.skillgate.yml` / `.skillgate.toml`),
//! found by walking up from the working directory, or `--config FILE`; strict
//! (an unknown key is an error with its line). See docs/config.md.
//!
//! Layers: built-in defaults → the file → command-line flags (applied by the
//! command). Relative paths in a file are relative to the file's folder.

use crate::extract::lexicon::LexiconFile;
pub use crate::score::{Thresholds, Waiver};
use serde::{Deserialize, Deserializer, Serialize};
use std::path::{Path, PathBuf};

/// File names looked for, in each folder, in this order.
pub const CONFIG_NAMES: [&str; 3] = [".skillgate.yaml", ".skillgate.yml", ".skillgate.toml"];

/// Default trajectory root, relative to the git repository holding the skill (else the working directory).
pub const DEFAULT_TRAJECTORIES: &str = ".planning/patterns";
/// Default report folder, relative to the same base.
pub const DEFAULT_REPORT_DIR: &str = ".planning/patterns/skill-coverage";

/// Refuse `[` / `{` nesting deeper than `fsutil::MAX_YAML_DEPTH` before any
/// parser runs (libyaml is quadratic in flow nesting; TOML arrays and inline
/// tables nest the same way).
fn too_deep(path: &Path, text: &str) -> Result<(), ConfigError> {
    match crate::fsutil::yaml_too_deep(text, crate::fsutil::MAX_YAML_DEPTH) {
        Some((line, col)) => Err(ConfigError {
            path: path.to_path_buf(),
            line: Some(line),
            message: format!(
                "`[` / `{{` nest more than {} deep (column {col}); write the values out plainly",
                crate::fsutil::MAX_YAML_DEPTH
            ),
        }),
        None => Ok(()),
    }
}

/// A configuration problem. Maps to exit code 2.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ConfigError {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

fn threshold<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let v = f64::deserialize(d)?;
    if !(0.0..=1.0).contains(&v) {
        return Err(serde::de::Error::custom(format!(
            "a threshold is between 0 and 1, got {v}"
        )));
    }
    Ok(Some(v))
}

/// `escalate:` — what a fail-closed verdict does besides blocking (seed 004:
/// "escalate to the operator"); docs/config.md. Empty: nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Escalate {
    /// A command (argv, no shell) run with the verdict JSON on stdin. A
    /// relative program path containing `/` is relative to the configuration file's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// Seconds the command may run before it is killed (default 60).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
    /// GitHub users asked to review the pull request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reviewers: Vec<String>,
    /// GitHub teams (slugs) asked to review the pull request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub team_reviewers: Vec<String>,
    /// Labels added to the pull request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

impl Escalate {
    pub fn is_empty(&self) -> bool {
        *self == Escalate::default()
    }
    /// Something to ask of GitHub.
    pub fn wants_github(&self) -> bool {
        !(self.reviewers.is_empty() && self.team_reviewers.is_empty() && self.labels.is_empty())
    }
}

/// What the gate does with a `stale` session — one that ran an older text of
/// the skill (SPEC §5): `keep` lists it and still judges it (the default);
/// `discard` drops it with a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StalePolicy {
    #[default]
    Keep,
    Discard,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawThresholds {
    #[serde(default, deserialize_with = "threshold")]
    adequacy: Option<f64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    #[serde(default)]
    trajectories: Option<Vec<String>>,
    #[serde(default)]
    report_dir: Option<String>,
    #[serde(default)]
    thresholds: Option<RawThresholds>,
    #[serde(default)]
    lexicon: Option<LexiconFile>,
    #[serde(default)]
    waivers: Option<Vec<Waiver>>,
    #[serde(default)]
    audit: Option<crate::audit::AuditConfig>,
    #[serde(default)]
    escalate: Option<Escalate>,
    #[serde(default)]
    stale: Option<StalePolicy>,
}

/// The effective configuration.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Config {
    /// The file it was read from (none: built-in defaults).
    pub file: Option<PathBuf>,
    /// Trajectory roots (resolved against the file's folder); `None`: the default
    /// `.planning/patterns` of the repository holding each skill.
    pub trajectories: Option<Vec<PathBuf>>,
    /// Report folder (resolved); `None`: `.planning/patterns/skill-coverage` of that repository.
    pub report_dir: Option<PathBuf>,
    pub thresholds: Thresholds,
    /// Scope and extraction lexicon additions (or replacement).
    pub lexicon: LexiconFile,
    pub waivers: Vec<Waiver>,
    /// The tool-usage database settings (`ingest`, `stats`, `federate`...; docs/audit.md).
    pub audit: crate::audit::AuditConfig,
    /// What a fail-closed verdict triggers (a command, GitHub reviewers/labels).
    pub escalate: Escalate,
    /// Sessions that ran an older text of the skill: kept (listed) or discarded.
    pub stale: StalePolicy,
}

impl Config {
    /// The first configuration file in `start` or one of its ancestors.
    pub fn discover(start: &Path) -> Result<Option<PathBuf>, ConfigError> {
        for dir in start.ancestors() {
            let found: Vec<PathBuf> = CONFIG_NAMES
                .iter()
                .map(|n| dir.join(n))
                // anything there counts: a dangling symlink, a FIFO or a folder
                // is an error when loaded, never a silent "no configuration"
                .filter(|p| crate::fsutil::entry_exists(p))
                .collect();
            match found.len() {
                0 => continue,
                1 => return Ok(found.into_iter().next()),
                _ => {
                    return Err(ConfigError {
                        path: found[1].clone(),
                        line: None,
                        message: format!(
                            "two configuration files in one folder ({}); keep one",
                            found
                                .iter()
                                .filter_map(|p| p.file_name())
                                .map(|n| n.to_string_lossy())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    })
                }
            }
        }
        Ok(None)
    }

    /// The configuration a command runs with: `explicit` (`--config FILE`)
    /// when given, else the first file found walking up from `start`, else
    /// the defaults.
    pub fn load_or_discover(explicit: Option<&Path>, start: &Path) -> Result<Config, ConfigError> {
        match explicit {
            Some(p) => Config::load(p),
            None => Config::discover_and_load(start),
        }
    }

    /// Discover from `start`, or the defaults when no file is found.
    pub fn discover_and_load(start: &Path) -> Result<Config, ConfigError> {
        match Config::discover(start)? {
            Some(p) => Config::load(&p),
            None => Ok(Config::default()),
        }
    }

    /// Read one configuration file (YAML, or TOML by its `.toml` extension).
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        use crate::fsutil::{self, InputError};
        let text = fsutil::read_text(path, fsutil::MAX_CONFIG_BYTES).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            line: e.line(),
            message: match e {
                InputError::NotUtf8 { .. } => "the configuration is not valid UTF-8".into(),
                e => format!("cannot read the configuration: {e}"),
            },
        })?;
        if path.extension().is_some_and(|e| e == "toml") {
            Config::from_toml_str(path, &text)
        } else {
            Config::from_yaml_str(path, &text)
        }
    }

    /// Parse YAML text read from `path`.
    pub fn from_yaml_str(path: &Path, text: &str) -> Result<Config, ConfigError> {
        too_deep(path, text)?;
        let raw: RawConfig = if text.trim().is_empty() {
            RawConfig::default()
        } else {
            yaml_serde::from_str::<Option<RawConfig>>(text)
                .map_err(|e| ConfigError {
                    path: path.to_path_buf(),
                    line: e.location().map(|l| l.line()),
                    message: crate::fsutil::redact_quotes(&strip_location(&e.to_string())),
                })?
                .unwrap_or_default()
        };
        Config::from_raw(path, raw)
    }

    /// Parse TOML text read from `path`.
    pub fn from_toml_str(path: &Path, text: &str) -> Result<Config, ConfigError> {
        too_deep(path, text)?;
        let raw: RawConfig = toml::from_str(text).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            line: e.span().map(|s| line_of_offset(text, s.start)),
            message: crate::fsutil::redact_quotes(e.message()),
        })?;
        Config::from_raw(path, raw)
    }

    fn from_raw(path: &Path, raw: RawConfig) -> Result<Config, ConfigError> {
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let resolve = |p: &str| {
            let pb = PathBuf::from(p);
            if pb.is_absolute() || base.as_os_str().is_empty() {
                pb
            } else {
                base.join(pb)
            }
        };
        if let Some(l) = &raw.lexicon {
            crate::extract::lexicon::Lexicon::with_overrides(l).map_err(|message| ConfigError {
                path: path.to_path_buf(),
                line: find_key_line(path, "lexicon"),
                message: format!("invalid lexicon: {message}"),
            })?;
        }
        Ok(Config {
            file: Some(path.to_path_buf()),
            trajectories: raw
                .trajectories
                .map(|v| v.iter().map(|p| resolve(p)).collect()),
            report_dir: raw.report_dir.as_deref().map(resolve),
            thresholds: Thresholds {
                adequacy: raw
                    .thresholds
                    .and_then(|t| t.adequacy)
                    .unwrap_or(Thresholds::default().adequacy),
            },
            lexicon: raw.lexicon.unwrap_or_default(),
            waivers: raw.waivers.unwrap_or_default(),
            audit: raw.audit.unwrap_or_default().resolved(&base),
            escalate: {
                let mut e = raw.escalate.unwrap_or_default();
                if let Some(cmd) = e.command.as_mut() {
                    if cmd.first().is_none_or(|p| p.trim().is_empty()) {
                        return Err(ConfigError {
                            path: path.to_path_buf(),
                            line: find_key_line(path, "escalate"),
                            message: "escalate.command needs a program (a list: [program, args…])"
                                .into(),
                        });
                    }
                    let prog = PathBuf::from(&cmd[0]);
                    if prog.is_relative() && cmd[0].contains('/') {
                        cmd[0] = resolve(&cmd[0]).display().to_string();
                    }
                }
                e
            },
            stale: raw.stale.unwrap_or_default(),
        })
    }

    /// The effective configuration as YAML, defaults spelled out.
    pub fn to_yaml(&self) -> String {
        #[derive(Serialize)]
        #[serde(rename_all = "kebab-case")]
        struct Shown<'a> {
            trajectories: Vec<String>,
            report_dir: String,
            thresholds: Thresholds,
            lexicon: &'a LexiconFile,
            waivers: &'a [Waiver],
            stale: StalePolicy,
            #[serde(skip_serializing_if = "crate::audit::AuditConfig::is_empty")]
            audit: &'a crate::audit::AuditConfig,
            #[serde(skip_serializing_if = "Escalate::is_empty")]
            escalate: &'a Escalate,
        }
        let shown = Shown {
            trajectories: match &self.trajectories {
                Some(v) => v.iter().map(|p| p.display().to_string()).collect(),
                None => vec![DEFAULT_TRAJECTORIES.to_string()],
            },
            report_dir: self
                .report_dir
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| DEFAULT_REPORT_DIR.to_string()),
            thresholds: self.thresholds,
            lexicon: &self.lexicon,
            waivers: &self.waivers,
            stale: self.stale,
            audit: &self.audit,
            escalate: &self.escalate,
        };
        let mut out = String::new();
        match &self.file {
            Some(f) => out.push_str(&format!("# configuration file: {}\n", f.display())),
            None => out.push_str("# no configuration file found: built-in defaults\n"),
        }
        if self.trajectories.is_none() {
            out.push_str("# trajectories and report-dir: relative to the git repository holding each skill (else the working directory)\n");
        }
        out.push_str(&yaml_serde::to_string(&shown).unwrap_or_default());
        out
    }
}

fn line_of_offset(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

fn find_key_line(path: &Path, key: &str) -> Option<usize> {
    let text = crate::fsutil::read_text(path, crate::fsutil::MAX_CONFIG_BYTES).ok()?;
    text.lines()
        .position(|l| {
            l.trim_start().starts_with(&format!("{key}:")) || l.trim() == format!("[{key}]")
        })
        .map(|i| i + 1)
}

fn strip_location(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Result<Config, ConfigError> {
        Config::from_yaml_str(Path::new("/r/.skillgate.yaml"), text)
    }

    #[test]
    fn reads_every_key_and_resolves_paths_against_the_file() {
        let c = yaml(
            "trajectories: [runs, /abs/t]\nreport-dir: out\nthresholds: {adequacy: 0.5}\nwaivers:\n  - id: no-force-push\n    skill: s\n    reason: the user consents in chat\n",
        )
        .unwrap();
        assert_eq!(
            c.trajectories,
            Some(vec![PathBuf::from("/r/runs"), PathBuf::from("/abs/t")])
        );
        assert_eq!(c.report_dir, Some(PathBuf::from("/r/out")));
        assert_eq!(c.thresholds.adequacy, 0.5);
        assert_eq!(c.waivers[0].skill.as_deref(), Some("s"));
        assert_eq!(yaml("").unwrap().thresholds.adequacy, 0.60);
        assert_eq!(yaml("# only a comment\n").unwrap().waivers, vec![]);
        assert_eq!(yaml("").unwrap().stale, StalePolicy::Keep);
        assert_eq!(
            yaml("stale: discard\n").unwrap().stale,
            StalePolicy::Discard
        );
        let e = yaml("stale: drop\n").unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
    }

    #[test]
    fn unknown_keys_and_bad_values_name_their_line() {
        let e = yaml("thresholds:\n  adequacy: 0.5\nreport_dir: x\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("report_dir"), "{e}");
        let e =
            yaml("waivers:\n  - id: a\n    reason: a\n  - id: b\n    reason: \"\"\n").unwrap_err();
        // The line of the waiver entry that lacks a reason.
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("needs a reason"), "{e}");
        let e = yaml("waivers:\n  - id: b\n").unwrap_err();
        assert!(e.message.contains("reason"), "{e}");
        let e = yaml("thresholds:\n  adequacy: 1.5\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.to_string().starts_with("/r/.skillgate.yaml:2: "), "{e}");
    }

    #[test]
    fn toml_is_accepted_and_strict() {
        let p = Path::new("/r/.skillgate.toml");
        let c =
            Config::from_toml_str(p, "report-dir = \"x\"\n[thresholds]\nadequacy = 0.7\n").unwrap();
        assert_eq!(c.thresholds.adequacy, 0.7);
        let e = Config::from_toml_str(p, "report-dir = \"x\"\nbogus = 1\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn deep_nesting_is_refused_by_every_parse_path_before_parsing() {
        // not only `load`: `review` checks the text it would write with
        // `from_yaml_str`, and the fuzz target calls both directly
        let deep = format!("trajectories = {}\n", "[".repeat(100_000));
        for (p, text) in [
            ("/r/.skillgate.yaml", deep.replace(" = ", ": ")),
            ("/r/.skillgate.toml", deep.clone()),
        ] {
            let start = std::time::Instant::now();
            let e = if p.ends_with("toml") {
                Config::from_toml_str(Path::new(p), &text)
            } else {
                Config::from_yaml_str(Path::new(p), &text)
            }
            .unwrap_err();
            assert!(e.message.contains("nest more than 64 deep"), "{e}");
            assert_eq!(e.line, Some(1));
            assert!(start.elapsed() < std::time::Duration::from_secs(5));
        }
    }

    #[test]
    fn discovery_walks_up_and_refuses_two_files() {
        let d = tempfile::tempdir().unwrap();
        let sub = d.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        assert_eq!(Config::discover(&sub).unwrap(), None);
        std::fs::write(d.path().join(".skillgate.yaml"), "report-dir: r\n").unwrap();
        assert_eq!(
            Config::discover(&sub).unwrap(),
            Some(d.path().join(".skillgate.yaml"))
        );
        let c = Config::discover_and_load(&sub).unwrap();
        assert_eq!(c.report_dir, Some(d.path().join("r")));
        std::fs::write(d.path().join(".skillgate.toml"), "").unwrap();
        assert!(Config::discover(&sub).is_err());
    }

    #[test]
    fn effective_configuration_prints_defaults() {
        let y = Config::default().to_yaml();
        assert!(
            y.contains("report-dir: .planning/patterns/skill-coverage"),
            "{y}"
        );
        assert!(y.contains("adequacy: 0.6"), "{y}");
        assert!(y.contains("stale: keep"), "{y}");
    }
}
