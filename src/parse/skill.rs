//! A parsed SKILL.md: frontmatter with line offsets, body with line numbers.
//!
//! The frontmatter is split by hand (not by gray_matter) so every key keeps its
//! line: see docs/skills.md.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A SKILL.md that cannot be parsed at all. Maps to exit code 2.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}:{line}:{col}: {message}", path.display())]
pub struct ParseError {
    pub path: PathBuf,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// The YAML frontmatter.
#[derive(Debug, Clone, Default)]
pub struct Frontmatter {
    /// Line of the opening `---` (1-based).
    pub start_line: u32,
    /// Line of the closing `---`.
    pub end_line: u32,
    pub name: Option<String>,
    pub description: Option<String>,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    /// As written: a string (the spec form) or a list.
    pub allowed_tools: Option<yaml_serde::Value>,
    pub metadata: Option<yaml_serde::Value>,
    /// Every top-level key as written, with its value (typed fields included).
    pub raw: yaml_serde::Mapping,
    /// Line of each top-level key.
    pub key_lines: BTreeMap<String, u32>,
}

/// A parsed skill.
#[derive(Debug, Clone)]
pub struct Skill {
    /// Path of the SKILL.md file.
    pub path: PathBuf,
    /// The file's text (UTF-8).
    pub source: String,
    /// sha256 of the file's bytes, lowercase hex.
    pub sha256: String,
    pub frontmatter: Option<Frontmatter>,
    /// First line of the body (1-based).
    pub body_start: u32,
}

impl Skill {
    /// The skill's name: frontmatter `name`, else the folder's name.
    pub fn name(&self) -> String {
        if let Some(n) = self.frontmatter.as_ref().and_then(|f| f.name.clone()) {
            return n;
        }
        self.path
            .parent()
            .and_then(|p| p.file_name())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "skill".to_string())
    }

    /// Folder holding SKILL.md.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    /// Every line of the file with its 1-based number.
    pub fn lines(&self) -> impl Iterator<Item = (u32, &str)> {
        self.source.lines().enumerate().map(|(i, l)| (i as u32 + 1, l))
    }

    /// The body's lines with their 1-based numbers (frontmatter counted).
    pub fn body_lines(&self) -> impl Iterator<Item = (u32, &str)> {
        let start = self.body_start;
        self.lines().filter(move |(n, _)| *n >= start)
    }

    /// Read and parse a SKILL.md file.
    pub fn read(path: &Path) -> Result<Skill, ParseError> {
        let bytes = std::fs::read(path).map_err(|e| ParseError {
            path: path.to_path_buf(),
            line: 1,
            col: 1,
            message: format!("cannot read: {e}"),
        })?;
        Skill::parse_bytes(path, &bytes)
    }

    /// Parse a SKILL.md from bytes.
    pub fn parse_bytes(path: &Path, bytes: &[u8]) -> Result<Skill, ParseError> {
        let err = |line: u32, col: u32, message: String| ParseError {
            path: path.to_path_buf(),
            line,
            col,
            message,
        };
        let source = match std::str::from_utf8(bytes) {
            Ok(s) => s.to_string(),
            Err(e) => {
                let upto = &bytes[..e.valid_up_to()];
                let line = upto.iter().filter(|b| **b == b'\n').count() as u32 + 1;
                let col = (upto.len() - upto.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1)) as u32 + 1;
                return Err(err(line, col, "not valid UTF-8".into()));
            }
        };
        let sha256 = hex(&Sha256::digest(bytes));
        let source = source.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(source);
        let lines: Vec<&str> = source.lines().collect();
        let mut frontmatter = None;
        let mut body_start = 1;
        if lines.first().map(|l| l.trim_end()) == Some("---") {
            let close = lines
                .iter()
                .enumerate()
                .skip(1)
                .find(|(_, l)| l.trim_end() == "---")
                .map(|(i, _)| i);
            let Some(close) = close else {
                return Err(err(1, 1, "frontmatter opened with `---` is never closed".into()));
            };
            let yaml = lines[1..close].join("\n");
            frontmatter = Some(parse_frontmatter(path, &yaml, close as u32 + 1)?);
            body_start = close as u32 + 2;
        }
        Ok(Skill { path: path.to_path_buf(), source, sha256, frontmatter, body_start })
    }
}

fn parse_frontmatter(path: &Path, yaml: &str, end_line: u32) -> Result<Frontmatter, ParseError> {
    let value: yaml_serde::Value = if yaml.trim().is_empty() {
        yaml_serde::Value::Mapping(Default::default())
    } else {
        yaml_serde::from_str(yaml).map_err(|e| {
            let (line, col) = e.location().map_or((0, 0), |l| (l.line() as u32, l.column() as u32));
            ParseError {
                path: path.to_path_buf(),
                line: line + 1,
                col: col.max(1),
                message: format!("invalid YAML frontmatter: {}", strip_location(&e.to_string())),
            }
        })?
    };
    let raw = match value {
        yaml_serde::Value::Mapping(m) => m,
        yaml_serde::Value::Null => Default::default(),
        _ => {
            return Err(ParseError {
                path: path.to_path_buf(),
                line: 2,
                col: 1,
                message: "frontmatter is not a mapping of keys to values".into(),
            })
        }
    };
    let mut key_lines = BTreeMap::new();
    for (i, l) in yaml.lines().enumerate() {
        if l.starts_with([' ', '\t', '#', '-']) || l.is_empty() {
            continue;
        }
        if let Some((k, _)) = l.split_once(':') {
            key_lines.entry(k.trim().trim_matches(['"', '\'']).to_string()).or_insert(i as u32 + 2);
        }
    }
    let s = |k: &str| raw.get(k).and_then(|v| v.as_str()).map(str::to_string);
    Ok(Frontmatter {
        start_line: 1,
        end_line,
        name: s("name"),
        description: s("description"),
        license: s("license"),
        compatibility: s("compatibility"),
        allowed_tools: raw.get("allowed-tools").cloned(),
        metadata: raw.get("metadata").cloned(),
        raw,
        key_lines,
    })
}

fn strip_location(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
