//! A parsed SKILL.md: frontmatter with line offsets, body with line numbers.
//!
//! The frontmatter is split by hand (not by gray_matter) so every key keeps its
//! line, and the YAML is read with a node budget so a hostile file (an alias
//! bomb, a 10 MB line) is rejected with its location instead of eating memory:
//! see docs/skills.md.

use super::diag::Code;
use regex::Regex;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use sha2::{Digest, Sha256};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The largest SKILL.md read (bytes). The biggest public skill is ~33 KB; a
/// model reads a skill whole, so a megabyte is already far past any real one.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// The longest line accepted (bytes).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The largest frontmatter accepted (bytes between the fences).
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;
/// The most YAML nodes the frontmatter may expand to, aliases expanded. Real
/// frontmatter holds a few dozen; an alias bomb holds billions.
pub const MAX_YAML_NODES: usize = 10_000;
/// The deepest `[` / `{` nesting accepted in the frontmatter (yaml_serde's own
/// recursion limit is 128 too).
pub const MAX_YAML_DEPTH: usize = 128;

/// A SKILL.md (or a path given as one) that cannot be parsed at all. Maps to
/// exit code 2. `line` 0 means the error is about the whole file or folder.
#[derive(Debug, Clone, thiserror::Error)]
pub struct ParseError {
    pub path: PathBuf,
    pub line: u32,
    pub col: u32,
    pub message: String,
    /// The stable diagnostic code (docs/validate.md).
    pub code: Code,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.col.max(1))?;
        }
        write!(f, ": {}", self.message)
    }
}

impl ParseError {
    pub fn new(path: &Path, line: u32, col: u32, code: Code, message: impl Into<String>) -> Self {
        ParseError {
            path: path.to_path_buf(),
            line,
            col,
            message: message.into(),
            code,
        }
    }
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
    /// Every top-level key as written, with its value (typed fields included),
    /// in file order.
    pub raw: yaml_serde::Mapping,
    /// Line of each top-level key.
    pub key_lines: BTreeMap<String, u32>,
    /// Line of each key one level down, for top-level keys whose value is a
    /// block mapping (`metadata`, `hooks`...): `sub_key_lines["metadata"]["author"]`.
    pub sub_key_lines: BTreeMap<String, BTreeMap<String, u32>>,
    /// The frontmatter was not valid YAML only because a plain value holds
    /// `: ` (`description: Use it for X: Y`), and was read as if that value
    /// were quoted, as the Agent Skills client guide advises: the error as
    /// YAML reports it (`validate` still reports it; some clients skip such
    /// a skill).
    pub recovered: Option<Recovered>,
}

/// Where and why a frontmatter was not valid YAML before it was read with
/// its colon-holding plain values quoted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl Frontmatter {
    /// The keys that are not typed fields (harness extensions and others), in
    /// file order.
    pub fn extra_keys(&self) -> impl Iterator<Item = (&yaml_serde::Value, &yaml_serde::Value)> {
        self.raw
            .iter()
            .filter(|(k, _)| !k.as_str().is_some_and(|k| SPEC_KEYS.contains(&k)))
    }

    /// Line of a top-level key, else the opening fence.
    pub fn line_of(&self, key: &str) -> u32 {
        self.key_lines.get(key).copied().unwrap_or(self.start_line)
    }
}

/// The Agent Skills fields (agentskills.io specification).
pub const SPEC_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "allowed-tools",
    "metadata",
];

/// A parsed skill.
#[derive(Debug, Clone)]
pub struct Skill {
    /// Path of the SKILL.md file.
    pub path: PathBuf,
    /// The file's text (UTF-8, a leading byte-order mark removed).
    pub source: String,
    /// sha256 of the file's bytes, lowercase hex.
    pub sha256: String,
    pub frontmatter: Option<Frontmatter>,
    /// First line of the body (1-based).
    pub body_start: u32,
}

impl Skill {
    /// The warning to print when the frontmatter was read with its
    /// colon-holding plain values quoted ([`Frontmatter::recovered`]).
    pub fn recovered_warning(&self) -> Option<String> {
        let r = self.frontmatter.as_ref()?.recovered.as_ref()?;
        Some(format!(
            "{}:{}:{}: frontmatter is not valid YAML ({}); read as if its values holding `: ` were quoted — quote them (`skillgate validate` reports it)",
            self.path.display(),
            r.line,
            r.col,
            r.message
        ))
    }

    /// The skill's name: frontmatter `name`, else the folder's name.
    ///
    /// This is text from the file: callers that build paths from it must
    /// sanitize it (a hostile `name: ../../x` is a validate error, not a path).
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
        self.source
            .lines()
            .enumerate()
            .map(|(i, l)| (i as u32 + 1, l))
    }

    /// The body's lines with their 1-based numbers (frontmatter counted).
    pub fn body_lines(&self) -> impl Iterator<Item = (u32, &str)> {
        let start = self.body_start;
        self.lines().filter(move |(n, _)| *n >= start)
    }

    /// The text of one line (1-based), without its line ending.
    pub fn line(&self, n: u32) -> Option<&str> {
        if n == 0 {
            return None;
        }
        self.source.lines().nth(n as usize - 1)
    }

    /// Read and parse a SKILL.md file. Never reads more than
    /// [`MAX_FILE_BYTES`] + 1 bytes, so a huge file costs no memory.
    pub fn read(path: &Path) -> Result<Skill, ParseError> {
        let unreadable = |e: std::io::Error| {
            let code = if e.kind() == std::io::ErrorKind::NotFound {
                Code::PathNotFound
            } else {
                Code::Unreadable
            };
            ParseError::new(path, 0, 0, code, format!("cannot read: {e}"))
        };
        // a FIFO would block `open`, a device never ends: regular files only
        let file = crate::fsutil::open_regular(path).map_err(|e| match e {
            crate::fsutil::InputError::Io(e) => unreadable(e),
            e => ParseError::new(path, 0, 0, Code::Unreadable, e.to_string()),
        })?;
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        Skill::parse_bytes(path, &bytes)
    }

    /// Parse a SKILL.md from bytes.
    pub fn parse_bytes(path: &Path, bytes: &[u8]) -> Result<Skill, ParseError> {
        let err = |line: u32, col: u32, code: Code, message: String| {
            ParseError::new(path, line, col, code, message)
        };
        check_size(bytes).map_err(|(line, col, code, message)| err(line, col, code, message))?;
        let source = match std::str::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                let (line, col) = line_col(bytes, e.valid_up_to());
                return Err(err(
                    line,
                    col,
                    Code::InvalidUtf8,
                    format!(
                        "not valid UTF-8 (byte 0x{:02x}); save the file as UTF-8",
                        bytes[e.valid_up_to()]
                    ),
                ));
            }
        };
        let sha256 = hex(&Sha256::digest(bytes));
        let source = source
            .strip_prefix('\u{feff}')
            .unwrap_or(source)
            .to_string();
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
                return Err(err(
                    1,
                    1,
                    Code::UnclosedFrontmatter,
                    format!(
                        "frontmatter opened with `---` is never closed (no `---` line in the {} lines after it); \
                         add one after the last key",
                        lines.len() - 1
                    ),
                ));
            };
            frontmatter = Some(parse_frontmatter(path, &lines[1..close], close as u32 + 1)?);
            body_start = close as u32 + 2;
        }
        Ok(Skill {
            path: path.to_path_buf(),
            source,
            sha256,
            frontmatter,
            body_start,
        })
    }
}

/// Empty file, over-long line, over-large file: checked on bytes, before UTF-8,
/// so the location is exact even when the text is not.
fn check_size(bytes: &[u8]) -> Result<(), (u32, u32, Code, String)> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err((
            1,
            1,
            Code::EmptyFile,
            "the file is empty; a SKILL.md needs `---` frontmatter and a body".into(),
        ));
    }
    let mut start = 0usize;
    let ends = memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len()));
    for (line, nl) in (1u32..).zip(ends) {
        if nl - start > MAX_LINE_BYTES {
            return Err((
                line,
                MAX_LINE_BYTES as u32 + 1,
                Code::LineTooLong,
                format!(
                    "line is longer than {MAX_LINE_BYTES} bytes; no real skill has such a line"
                ),
            ));
        }
        start = nl + 1;
    }
    if bytes.len() > MAX_FILE_BYTES {
        let (line, col) = line_col(bytes, MAX_FILE_BYTES);
        return Err((
            line,
            col,
            Code::FileTooLarge,
            format!("file is larger than {MAX_FILE_BYTES} bytes (the limit is reached here); no real skill is this large"),
        ));
    }
    Ok(())
}

/// 1-based line and column (in bytes) of a byte offset.
fn line_col(bytes: &[u8], offset: usize) -> (u32, u32) {
    let upto = &bytes[..offset.min(bytes.len())];
    let line = memchr::memchr_iter(b'\n', upto).count() as u32 + 1;
    let col = upto.len() - memchr::memrchr(b'\n', upto).map_or(0, |p| p + 1);
    (line, col as u32 + 1)
}

/// `yaml_lines` are the lines between the fences; the first is file line 2.
fn parse_frontmatter(
    path: &Path,
    yaml_lines: &[&str],
    end_line: u32,
) -> Result<Frontmatter, ParseError> {
    let yaml = yaml_lines.join("\n");
    if yaml.len() > MAX_FRONTMATTER_BYTES {
        return Err(ParseError::new(
            path,
            end_line,
            1,
            Code::FrontmatterTooLarge,
            format!(
                "frontmatter is {} bytes; the limit is {MAX_FRONTMATTER_BYTES} (it is loaded into every session)",
                yaml.len()
            ),
        ));
    }
    if let Some((line, col)) = flow_too_deep(yaml_lines) {
        return Err(ParseError::new(
            path,
            line,
            col,
            Code::YamlTooComplex,
            format!("frontmatter nests `[` / `{{` more than {MAX_YAML_DEPTH} deep; write the values out plainly"),
        ));
    }
    let mut recovered = None;
    let value = if yaml.trim().is_empty() {
        yaml_serde::Value::Mapping(Default::default())
    } else {
        load_bounded(&yaml).or_else(|e| {
            // `description: Use it for X: Y` — a plain value holding `: ` —
            // is read as if quoted when that alone makes it valid.
            let retried = quote_colon_values(yaml_lines).and_then(|q| load_bounded(&q).ok());
            match retried {
                Some(v) if is_plain_yaml_error(&e) => {
                    let (line, col) = e
                        .location()
                        .map_or((2, 1), |l| (l.line() as u32 + 1, l.column() as u32));
                    recovered = Some(Recovered {
                        line: line.max(2),
                        col,
                        message: relocate(&e.to_string()),
                    });
                    Ok(v)
                }
                _ => Err(e),
            }
        })
        .map_err(|e| {
            // yaml_serde locations are 1-based within the YAML, which starts on file line 2.
            let (mut line, mut col) = e.location().map_or((1, 1), |l| (l.line() as u32 + 1, l.column() as u32));
            let msg = relocate(&e.to_string());
            if let Some(at) = duplicate_key_line(&msg, yaml_lines, line) {
                (line, col) = at;
            }
            let (code, message) = if msg.contains(BUDGET_MARK) {
                (
                    Code::YamlTooComplex,
                    format!(
                        "frontmatter expands to more than {MAX_YAML_NODES} YAML nodes \
                         (anchors and aliases make an alias bomb); write the values out plainly"
                    ),
                )
            } else if msg.contains("recursion limit exceeded") {
                (
                    Code::YamlTooComplex,
                    format!("frontmatter nests more than {MAX_YAML_DEPTH} levels deep; write the values out plainly"),
                )
            } else if msg.contains("repetition limit exceeded") {
                (Code::YamlTooComplex, "frontmatter repeats its aliases too often (an alias bomb); write the values out plainly".into())
            } else {
                let hint = if yaml_lines.get(line.saturating_sub(2) as usize).is_some_and(|l| l.contains('\t')) {
                    " (YAML does not allow tabs for indentation; use spaces)"
                } else {
                    ""
                };
                (Code::InvalidYaml, format!("invalid YAML frontmatter: {msg}{hint}"))
            };
            ParseError::new(path, line.max(2), col, code, message)
        })?
    };
    let raw = match value {
        yaml_serde::Value::Mapping(m) => m,
        yaml_serde::Value::Null => Default::default(),
        _ => return Err(ParseError::new(
            path,
            2,
            1,
            Code::FrontmatterNotMapping,
            "frontmatter is not a mapping of keys to values (expected lines like `name: my-skill`)",
        )),
    };
    let (key_lines, sub_key_lines) = scan_key_lines(yaml_lines, &raw);
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
        sub_key_lines,
        recovered,
    })
}

/// Not one of the budget errors `load_bounded` raises for alias bombs and
/// deep nesting (those are never retried).
fn is_plain_yaml_error(e: &yaml_serde::Error) -> bool {
    let m = e.to_string();
    !m.contains(BUDGET_MARK)
        && !m.contains("recursion limit exceeded")
        && !m.contains("repetition limit exceeded")
}

/// The frontmatter with every top-level plain value that holds `: ` (or
/// ends in `:`) written as a double-quoted string, its continuation lines
/// folded into it (and left blank, so line numbers stay); None when no
/// value needs it.
fn quote_colon_values(yaml_lines: &[&str]) -> Option<String> {
    let mut out: Vec<String> = yaml_lines.iter().map(|l| l.to_string()).collect();
    let mut changed = false;
    let mut i = 0;
    while i < yaml_lines.len() {
        let line = yaml_lines[i];
        let Some(key) = key_at_line_start(line).filter(|k| line.starts_with(k.as_str())) else {
            i += 1;
            continue;
        };
        let value = line[key.len()..]
            .trim_start()
            .trim_start_matches(':')
            .trim();
        let mut end = i + 1;
        while end < yaml_lines.len()
            && yaml_lines[end].starts_with(' ')
            && !yaml_lines[end].trim_start().starts_with(['#', '-'])
        {
            end += 1;
        }
        let plain = !value.is_empty()
            && !value.starts_with([
                '"', '\'', '[', '{', '|', '>', '&', '*', '!', '#', '%', '@', '`',
            ]);
        let mut whole = value.to_string();
        for more in &yaml_lines[i + 1..end] {
            whole.push(' ');
            whole.push_str(more.trim());
        }
        if plain && (whole.contains(": ") || whole.ends_with(':')) {
            let escaped = whole.replace('\\', "\\\\").replace('"', "\\\"");
            out[i] = format!("{key}: \"{escaped}\"");
            for o in &mut out[i + 1..end] {
                o.clear();
            }
            changed = true;
        }
        i = end;
    }
    changed.then(|| out.join("\n"))
}

/// A key written at the start of `line` (`key:`, `"key":`, `'key':`), if any.
fn key_at_line_start(line: &str) -> Option<String> {
    let first = line.chars().next()?;
    match first {
        '"' | '\'' => {
            let rest = &line[1..];
            let end = rest.find(first)?;
            let after = rest[end + 1..].trim_start();
            after.starts_with(':').then(|| rest[..end].to_string())
        }
        '#' | '-' | '[' | '{' | ' ' | '\t' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`' => None,
        _ => {
            let colon = line.char_indices().find(|&(i, c)| {
                c == ':'
                    && line[i + 1..]
                        .chars()
                        .next()
                        .is_none_or(|n| n == ' ' || n == '\t')
            })?;
            Some(line[..colon.0].trim_end().to_string())
        }
    }
}

/// Lines of the top-level keys and of the keys one level under them.
///
/// Block scalars and nested values are indented, so a top-level key is a line
/// at column 1; keys are matched in file order against the keys the YAML parser
/// found, so text that only looks like a key is never taken for one.
#[allow(clippy::type_complexity)]
fn scan_key_lines(
    yaml_lines: &[&str],
    raw: &yaml_serde::Mapping,
) -> (
    BTreeMap<String, u32>,
    BTreeMap<String, BTreeMap<String, u32>>,
) {
    let keys: Vec<&str> = raw.keys().filter_map(|k| k.as_str()).collect();
    let mut key_lines = BTreeMap::new();
    let mut sub = BTreeMap::new();
    let mut current: Option<(String, Option<usize>)> = None; // key, child indent
    let mut next = 0; // keys are found in file order
    for (i, line) in yaml_lines.iter().enumerate() {
        let file_line = i as u32 + 2;
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if indent == 0 {
            current = None;
            if let Some(k) = key_at_line_start(line) {
                if let Some(pos) = keys[next.min(keys.len())..].iter().position(|x| *x == k) {
                    next += pos + 1;
                    key_lines.entry(k.clone()).or_insert(file_line);
                    if raw.get(k.as_str()).is_some_and(|v| v.is_mapping()) {
                        current = Some((k, None));
                    }
                }
            }
            continue;
        }
        if let Some((parent, child_indent)) = current.as_mut() {
            let want = *child_indent.get_or_insert(indent);
            if indent == want {
                if let Some(k) = key_at_line_start(trimmed) {
                    let known = raw
                        .get(parent.as_str())
                        .and_then(|m| m.get(k.as_str()))
                        .is_some();
                    if known {
                        sub.entry(parent.clone())
                            .or_insert_with(BTreeMap::new)
                            .entry(k)
                            .or_insert(file_line);
                    }
                }
            }
        }
    }
    (key_lines, sub)
}

const BUDGET_MARK: &str = "skillgate-node-budget-exceeded";

/// `yaml_serde::from_str::<Value>` with a node budget: aliases are expanded
/// while deserializing, so counting nodes as they are built stops an alias
/// bomb before it allocates (yaml_serde's own repetition limit scales with the
/// document and still lets a 64 KiB document expand to ~10^8 nodes).
fn load_bounded(yaml: &str) -> Result<yaml_serde::Value, yaml_serde::Error> {
    let budget = Cell::new(MAX_YAML_NODES);
    let de = yaml_serde::Deserializer::from_str(yaml);
    Budgeted(&budget).deserialize(de)
}

#[derive(Clone, Copy)]
struct Budgeted<'a>(&'a Cell<usize>);

impl Budgeted<'_> {
    fn take<E: de::Error>(self) -> Result<(), E> {
        let left = self.0.get();
        if left == 0 {
            return Err(E::custom(BUDGET_MARK));
        }
        self.0.set(left - 1);
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Budgeted<'_> {
    type Value = yaml_serde::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Budgeted<'_> {
    type Value = yaml_serde::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
        self.take()?;
        Ok(yaml_serde::Value::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Self::Value, E> {
        self.take()?;
        Ok(yaml_serde::Value::Number(i.into()))
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Self::Value, E> {
        self.take()?;
        Ok(yaml_serde::Value::Number(u.into()))
    }
    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Self::Value, E> {
        self.take()?;
        Ok(yaml_serde::Value::Number(f.into()))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        self.take()?;
        Ok(yaml_serde::Value::String(s.to_owned()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
        self.take()?;
        Ok(yaml_serde::Value::String(s))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.take()?;
        Ok(yaml_serde::Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        self.take()?;
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            out.push(v);
        }
        Ok(yaml_serde::Value::Sequence(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        self.take()?;
        let mut out = yaml_serde::Mapping::new();
        while let Some(k) = map.next_key_seed(self)? {
            let v = map.next_value_seed(self)?;
            if out.contains_key(&k) {
                let shown = match &k {
                    yaml_serde::Value::String(s) => format!("`{s}`"),
                    _ => "a key".to_string(),
                };
                return Err(de::Error::custom(format!("duplicate key {shown}")));
            }
            out.insert(k, v);
        }
        Ok(yaml_serde::Value::Mapping(out))
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        // A `!tag value`: kept as a tagged value.
        self.take()?;
        let (tag, contents) = data.variant::<String>()?;
        if tag.is_empty() {
            return Err(de::Error::custom("empty YAML tag"));
        }
        let value = contents.newtype_variant_seed(self)?;
        Ok(yaml_serde::Value::Tagged(Box::new(
            yaml_serde::value::TaggedValue {
                tag: yaml_serde::value::Tag::new(tag),
                value,
            },
        )))
    }
}

/// A YAML error message without its leading location (the diagnostic carries
/// it) and with the lines it mentions turned into file lines.
fn relocate(msg: &str) -> String {
    static AT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r" at line (\d+) column (\d+)").expect("valid regex"));
    let mut first = true;
    AT.replace_all(msg, |c: &regex::Captures| {
        if std::mem::take(&mut first) {
            return String::new();
        }
        let line: u64 = c[1].parse().unwrap_or(0);
        format!(" at line {} column {}", line + 1, &c[2])
    })
    .into_owned()
}

/// For a duplicate-key error (reported by yaml_serde at the start of the
/// mapping), the line and column of the key's second occurrence.
fn duplicate_key_line(msg: &str, yaml_lines: &[&str], map_line: u32) -> Option<(u32, u32)> {
    let key = msg.split_once("duplicate key `")?.1.split('`').next()?;
    let from = map_line.saturating_sub(2) as usize;
    let mut hits = yaml_lines
        .iter()
        .enumerate()
        .skip(from)
        .filter_map(|(i, l)| {
            let t = l.trim_start();
            let k = key_at_line_start(t.strip_prefix("- ").unwrap_or(t))?;
            (k == key).then(|| (i as u32 + 2, (l.len() - t.len()) as u32 + 1))
        });
    hits.nth(1)
}

/// Where `[` / `{` nest deeper than [`MAX_YAML_DEPTH`], counted lexically.
/// libyaml takes quadratic time on deep flow nesting (30,000 levels: seconds),
/// and yaml_serde rejects more than 128 levels anyway, so this is checked
/// before parsing. Brackets inside strings count too; only a string with more
/// than 128 unclosed brackets could be refused wrongly.
fn flow_too_deep(yaml_lines: &[&str]) -> Option<(u32, u32)> {
    let mut depth = 0usize;
    for (i, line) in yaml_lines.iter().enumerate() {
        for (col, c) in line.chars().enumerate() {
            match c {
                '[' | '{' => {
                    depth += 1;
                    if depth > MAX_YAML_DEPTH {
                        return Some((i as u32 + 2, col as u32 + 1));
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    None
}

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Skill, ParseError> {
        Skill::parse_bytes(Path::new("s/SKILL.md"), text.as_bytes())
    }

    #[test]
    fn frontmatter_fields_and_key_lines() {
        let s = parse(
            "---\nname: s\ndescription: >\n  Does a thing.\n  Use when x.\nmetadata:\n  author: me\n  version: \"1\"\n\
             allowed-tools: Read Bash(git:*)\nargument-hint: \"[file]\"\n---\n# Title\n\nNever do x.\n",
        )
        .unwrap();
        let fm = s.frontmatter.as_ref().unwrap();
        assert_eq!(fm.name.as_deref(), Some("s"));
        assert_eq!(
            fm.description.as_deref(),
            Some("Does a thing. Use when x.\n")
        );
        assert_eq!(
            fm.allowed_tools.as_ref().and_then(|v| v.as_str()),
            Some("Read Bash(git:*)")
        );
        assert_eq!(fm.key_lines["name"], 2);
        assert_eq!(fm.key_lines["description"], 3);
        assert_eq!(fm.key_lines["metadata"], 6);
        assert_eq!(fm.key_lines["allowed-tools"], 9);
        assert_eq!(fm.key_lines["argument-hint"], 10);
        assert_eq!(fm.sub_key_lines["metadata"]["author"], 7);
        assert_eq!(fm.sub_key_lines["metadata"]["version"], 8);
        assert_eq!((fm.start_line, fm.end_line, s.body_start), (1, 11, 12));
        let extra: Vec<_> = fm.extra_keys().map(|(k, _)| k.as_str().unwrap()).collect();
        assert_eq!(extra, ["argument-hint"]);
        let body: Vec<_> = s.body_lines().collect();
        assert_eq!(body[0], (12, "# Title"));
        assert_eq!(body[2], (14, "Never do x."));
        assert_eq!(s.line(14), Some("Never do x."));
        assert_eq!(s.name(), "s");
    }

    #[test]
    fn key_lines_ignore_lookalikes_inside_values() {
        let s = parse("---\ndescription: |\n  name: not a key\nname: real\n---\nbody\n").unwrap();
        let fm = s.frontmatter.unwrap();
        assert_eq!(fm.key_lines["name"], 4);
        assert_eq!(fm.key_lines["description"], 2);
    }

    #[test]
    fn quoted_keys_and_crlf() {
        let s = parse("---\r\n\"name\": a\r\n'description': b\r\n---\r\nbody\r\n").unwrap();
        let fm = s.frontmatter.unwrap();
        assert_eq!(fm.key_lines["name"], 2);
        assert_eq!(fm.key_lines["description"], 3);
        assert_eq!(s.body_start, 5);
    }

    #[test]
    fn no_frontmatter_is_parsed_with_body_from_line_1() {
        let s = parse("# Just a body\n").unwrap();
        assert!(s.frontmatter.is_none());
        assert_eq!(s.body_start, 1);
        assert_eq!(s.name(), "s");
    }

    #[test]
    fn bom_is_removed_and_hash_is_of_the_bytes() {
        let text = "\u{feff}---\nname: s\n---\n";
        let s = parse(text).unwrap();
        assert!(s.source.starts_with("---"));
        assert_eq!(s.sha256, hex(&Sha256::digest(text.as_bytes())));
        assert_eq!(s.sha256.len(), 64);
    }

    fn code_at(text: &[u8]) -> (Code, u32, u32) {
        let e = Skill::parse_bytes(Path::new("x/SKILL.md"), text).unwrap_err();
        (e.code, e.line, e.col)
    }

    #[test]
    fn hostile_inputs_are_located_errors() {
        assert_eq!(code_at(b""), (Code::EmptyFile, 1, 1));
        assert_eq!(code_at(b" \n\n"), (Code::EmptyFile, 1, 1));
        assert_eq!(
            code_at(b"---\nname: a\nbody\n"),
            (Code::UnclosedFrontmatter, 1, 1)
        );
        assert_eq!(code_at(b"---\nname: a\nb: [\n---\n").0, Code::InvalidYaml);
        assert_eq!(
            code_at(b"---\nname: a\n\tdescription: b\n---\n"),
            (Code::InvalidYaml, 3, 1)
        );
        assert_eq!(
            code_at(b"---\nname: a\nname: b\n---\n").0,
            Code::InvalidYaml
        );
        assert_eq!(
            code_at(b"---\n- a\n- b\n---\n"),
            (Code::FrontmatterNotMapping, 2, 1)
        );
        assert_eq!(
            code_at(b"---\nname: a\n---\nok\nbad \xff here\n"),
            (Code::InvalidUtf8, 5, 5)
        );
        let mut long = b"---\nname: a\n---\n".to_vec();
        long.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 1));
        assert_eq!(
            code_at(&long),
            (Code::LineTooLong, 4, MAX_LINE_BYTES as u32 + 1)
        );
        let big = "a line\n".repeat(MAX_FILE_BYTES / 7 + 2);
        assert_eq!(code_at(big.as_bytes()).0, Code::FileTooLarge);
    }

    #[test]
    fn invalid_yaml_line_is_a_file_line() {
        let e = parse("---\nname: a\ndescription: \"open\n---\nbody\n").unwrap_err();
        assert_eq!(e.code, Code::InvalidYaml);
        assert!(e.line >= 3, "{e}");
        assert!(e.to_string().starts_with("s/SKILL.md:"), "{e}");
    }

    #[test]
    fn alias_bomb_is_rejected_quickly() {
        let mut y = String::from("---\nname: bomb\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (prev, cur) in ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
            .windows(2)
            .map(|w| (w[0], w[1]))
        {
            y.push_str(&format!("{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
        }
        y.push_str("---\nbody\n");
        let e = parse(&y).unwrap_err();
        assert_eq!(e.code, Code::YamlTooComplex, "{e}");
    }

    #[test]
    fn tagged_values_are_kept() {
        let s = parse("---\nname: a\nx: !custom v\n---\n").unwrap();
        let fm = s.frontmatter.unwrap();
        assert!(matches!(
            fm.raw.get("x"),
            Some(yaml_serde::Value::Tagged(_))
        ));
    }

    #[test]
    fn an_unquoted_colon_in_a_value_is_read_as_quoted_and_remembered() {
        let text = "---\nname: notes\ndescription: Keep notes. Use when: the user asks\n  for a summary: short\nlicense: MIT\n---\n# Notes\n";
        let s = Skill::parse_bytes(Path::new("notes/SKILL.md"), text.as_bytes()).unwrap();
        let fm = s.frontmatter.as_ref().unwrap();
        assert_eq!(
            fm.description.as_deref(),
            Some("Keep notes. Use when: the user asks for a summary: short")
        );
        assert_eq!(fm.license.as_deref(), Some("MIT"));
        assert_eq!(fm.line_of("license"), 5);
        let r = fm.recovered.as_ref().expect("remembered");
        assert_eq!(r.line, 3);
        assert!(r.message.contains("mapping values"), "{}", r.message);
        let w = s.recovered_warning().unwrap();
        assert!(w.starts_with("notes/SKILL.md:3:"), "{w}");
        // Valid YAML is not marked.
        let ok = Skill::parse_bytes(
            Path::new("n/SKILL.md"),
            b"---\nname: n\ndescription: \"a: b\"\n---\n",
        )
        .unwrap();
        assert!(ok.frontmatter.unwrap().recovered.is_none());
    }

    #[test]
    fn yaml_that_quoting_does_not_mend_stays_an_error() {
        assert_eq!(code_at(b"---\nname: a\nb: [\n---\n").0, Code::InvalidYaml);
        assert_eq!(
            code_at(b"---\nname: a: b\n  - c\n  d: [\n---\n").0,
            Code::InvalidYaml
        );
    }
}
