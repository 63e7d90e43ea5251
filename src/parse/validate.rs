//! The lint rules of `skillgate validate` (SPEC §3), as a pure function of a
//! parsed [`Skill`]: no I/O, no printing. docs/validate.md lists every rule.

use super::diag::{Code, Diagnostic};
use super::skill::{Frontmatter, Skill};
use regex::Regex;
use std::sync::LazyLock;
use yaml_serde::Value;

/// Longest `name` (characters).
pub const MAX_NAME_CHARS: usize = 64;
/// Longest `description` (characters).
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Longest `compatibility` (characters).
pub const MAX_COMPATIBILITY_CHARS: usize = 500;
/// The body should stay under this many lines.
pub const MAX_BODY_LINES: usize = 500;

/// Frontmatter keys of harnesses (Claude Code, Codex, Gemini CLI...) that
/// extend the Agent Skills spec: accepted without a diagnostic.
pub const HARNESS_KEYS: &[&str] = &[
    "disable-model-invocation",
    "user-invocable",
    "argument-hint",
    "model",
    "hooks",
    "context",
    "agent",
    "effort",
    "when_to_use",
    "when-to-use",
    "paths",
    "shell",
    "version",
];

/// Cursor rule keys: meaningful in `.cursor/rules/*.mdc`, inert in a SKILL.md.
pub const CURSOR_KEYS: &[&str] = &["globs", "alwaysApply"];

/// Words Anthropic's platform reserves in a skill name.
pub const RESERVED_WORDS: &[&str] = &["anthropic", "claude"];

static XML_TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"</?[A-Za-z][A-Za-z0-9_:.-]*(\s[^<>]*)?/?>").expect("valid regex")
});

/// Lint one skill. The folder name `name` must match is the one holding the
/// SKILL.md path; use [`validate_in`] when the path has none (`SKILL.md`).
pub fn validate(skill: &Skill) -> Vec<Diagnostic> {
    let folder = skill
        .path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    validate_in(skill, folder.as_deref())
}

/// Lint one skill whose folder is named `folder` (None: skip the folder check).
pub fn validate_in(skill: &Skill, folder: Option<&str>) -> Vec<Diagnostic> {
    let mut v = Lint {
        skill,
        out: Vec::new(),
    };
    match &skill.frontmatter {
        None => v.push(
            1,
            1,
            Code::MissingFrontmatter,
            "no frontmatter: start the file with `---`, `name: …`, `description: …`, `---`",
        ),
        Some(fm) => {
            if let Some(r) = &fm.recovered {
                v.push(
                    r.line,
                    r.col,
                    Code::InvalidYaml,
                    format!(
                        "invalid YAML frontmatter: {}; a value holds `: ` unquoted — quote it \
                         (extract and gate read it as if quoted; other clients may skip the skill \
                         or drop its frontmatter)",
                        r.message
                    ),
                );
            }
            v.name(fm, folder);
            v.description(fm);
            v.optional_strings(fm);
            v.metadata(fm);
            v.allowed_tools(fm);
            v.other_keys(fm);
        }
    }
    v.body();
    v.out.sort_by_key(|d| (d.line, d.col, d.code));
    v.out
}

struct Lint<'a> {
    skill: &'a Skill,
    out: Vec<Diagnostic>,
}

impl Lint<'_> {
    fn push(&mut self, line: u32, col: u32, code: Code, message: impl Into<String>) {
        self.out
            .push(Diagnostic::new(&self.skill.path, line, col, code, message));
    }

    /// Line and column of a top-level key's value (column of its first
    /// character, inside quotes when quoted).
    fn value_pos(&self, fm: &Frontmatter, key: &str) -> (u32, u32) {
        let line = fm.line_of(key);
        let col = self.skill.line(line).map_or(1, |t| value_col(t, key));
        (line, col)
    }

    fn name(&mut self, fm: &Frontmatter, folder: Option<&str>) {
        let name = match fm.raw.get("name") {
            None => {
                let hint = folder.map_or(String::new(), |f| {
                    format!(" (`name: {f}`, the folder's name)")
                });
                return self.push(
                    fm.start_line,
                    1,
                    Code::MissingName,
                    format!("the frontmatter has no `name`{hint}"),
                );
            }
            Some(Value::Null) => "",
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                let (l, c) = self.value_pos(fm, "name");
                return self.push(
                    l,
                    c,
                    Code::FieldNotString,
                    format!("`name` is {}, not a string", kind(other)),
                );
            }
        };
        let (line, col) = self.value_pos(fm, "name");
        let n_chars = name.chars().count();
        if let Some(m) = XML_TAG.find(name) {
            let at = col + name[..m.start()].chars().count() as u32;
            self.push(
                line,
                at,
                Code::XmlTag,
                format!("`name` holds the XML tag `{}`", m.as_str()),
            );
        } else if let Some((i, ch)) = name
            .chars()
            .enumerate()
            .find(|(_, c)| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
        {
            self.push(
                line,
                col + i as u32,
                Code::NameCharacters,
                format!(
                    "`name` holds {ch:?}; use only lowercase a-z, 0-9 and '-' (e.g. `{}`)",
                    suggest_name(name)
                ),
            );
        }
        if n_chars == 0 || n_chars > MAX_NAME_CHARS {
            let what = if n_chars == 0 {
                "empty".to_string()
            } else {
                format!("{n_chars} characters")
            };
            self.push(
                line,
                col,
                Code::NameLength,
                format!("`name` is {what}; it must be 1 to {MAX_NAME_CHARS}"),
            );
        }
        if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
            let at = if name.starts_with('-') {
                0
            } else if let Some(i) = name.find("--") {
                name[..i].chars().count()
            } else {
                n_chars.saturating_sub(1)
            };
            self.push(
                line,
                col + at as u32,
                Code::NameHyphens,
                "`name` must not start or end with '-' nor hold \"--\"",
            );
        }
        let lower = name.to_ascii_lowercase();
        for word in RESERVED_WORDS {
            if let Some(i) = lower.find(word) {
                self.push(
                    line,
                    col + name[..i].chars().count() as u32,
                    Code::NameReservedWord,
                    format!("`name` holds the reserved word `{word}`; Anthropic's platform rejects such names"),
                );
            }
        }
        if let Some(folder) = folder {
            if !name.is_empty() && name != folder {
                self.push(
                    line,
                    col,
                    Code::NameFolderMismatch,
                    format!(
                        "`name` is `{name}` but the folder is `{folder}`; rename one so they match"
                    ),
                );
            }
        }
    }

    fn description(&mut self, fm: &Frontmatter) {
        let text = match fm.raw.get("description") {
            None => return self.push(
                fm.start_line,
                1,
                Code::MissingDescription,
                "the frontmatter has no `description` (say what the skill does and when to use it)",
            ),
            Some(Value::Null) => "",
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                let (l, c) = self.value_pos(fm, "description");
                return self.push(
                    l,
                    c,
                    Code::FieldNotString,
                    format!("`description` is {}, not a string", kind(other)),
                );
            }
        };
        let (line, col) = self.value_pos(fm, "description");
        let n = text.trim().chars().count();
        if n == 0 {
            self.push(
                line,
                col,
                Code::DescriptionLength,
                "`description` is empty; say what the skill does and when to use it",
            );
        } else if text.chars().count() > MAX_DESCRIPTION_CHARS {
            self.push(
                line,
                col,
                Code::DescriptionLength,
                format!(
                    "`description` is {} characters; the limit is {MAX_DESCRIPTION_CHARS} (harnesses drop or truncate longer ones)",
                    text.chars().count()
                ),
            );
        }
        if let Some(m) = XML_TAG.find(text) {
            // Point at the frontmatter line that holds the tag (descriptions may span lines).
            let (l, c) = self
                .find_in_frontmatter(fm, line, m.as_str())
                .unwrap_or((line, col));
            self.push(
                l,
                c,
                Code::XmlTag,
                format!("`description` holds the XML tag `{}`", m.as_str()),
            );
        }
    }

    /// The first frontmatter line at or after `from` holding `needle`.
    fn find_in_frontmatter(&self, fm: &Frontmatter, from: u32, needle: &str) -> Option<(u32, u32)> {
        (from..fm.end_line).find_map(|n| {
            let t = self.skill.line(n)?;
            t.find(needle)
                .map(|i| (n, t[..i].chars().count() as u32 + 1))
        })
    }

    fn optional_strings(&mut self, fm: &Frontmatter) {
        for key in ["license", "compatibility"] {
            let Some(v) = fm.raw.get(key) else { continue };
            let (line, col) = self.value_pos(fm, key);
            let Some(s) = v.as_str() else {
                self.push(
                    line,
                    col,
                    Code::FieldNotString,
                    format!("`{key}` is {}, not a string", kind(v)),
                );
                continue;
            };
            if key == "compatibility" {
                let n = s.chars().count();
                if s.trim().is_empty() || n > MAX_COMPATIBILITY_CHARS {
                    let what = if s.trim().is_empty() {
                        "empty".to_string()
                    } else {
                        format!("{n} characters")
                    };
                    self.push(
                        line,
                        col,
                        Code::CompatibilityLength,
                        format!("`compatibility` is {what}; it must be 1 to {MAX_COMPATIBILITY_CHARS} (or left out)"),
                    );
                }
            }
        }
    }

    fn metadata(&mut self, fm: &Frontmatter) {
        let Some(meta) = fm.raw.get("metadata") else {
            return;
        };
        let (line, col) = self.value_pos(fm, "metadata");
        let map = match meta {
            Value::Null => return,
            Value::Mapping(m) => m,
            other => {
                return self.push(
                    line,
                    col,
                    Code::MetadataNotMapping,
                    format!(
                        "`metadata` is {}; it must be a mapping of string keys to string values",
                        kind(other)
                    ),
                )
            }
        };
        let subs = fm.sub_key_lines.get("metadata");
        for (k, v) in map {
            let key = match k {
                Value::String(s) => s.clone(),
                other => {
                    self.push(
                        line,
                        col,
                        Code::MetadataNotString,
                        format!(
                            "a `metadata` key is {} ({}); quote it",
                            kind(other),
                            scalar_text(other)
                        ),
                    );
                    continue;
                }
            };
            let kline = subs.and_then(|s| s.get(&key)).copied().unwrap_or(line);
            let kcol = self
                .skill
                .line(kline)
                .map_or(1, |t| (t.len() - t.trim_start().len()) as u32 + 1);
            match v {
                Value::String(_) => {}
                Value::Mapping(_) | Value::Sequence(_) => self.push(
                    kline,
                    kcol,
                    Code::MetadataNested,
                    format!(
                        "`metadata.{key}` is {}; the spec allows only string values",
                        kind(v)
                    ),
                ),
                Value::Tagged(_) => self.push(
                    kline,
                    kcol,
                    Code::MetadataNested,
                    format!(
                        "`metadata.{key}` is a tagged value; the spec allows only string values"
                    ),
                ),
                other => self.push(
                    kline,
                    kcol,
                    Code::MetadataNotString,
                    format!(
                        "`metadata.{key}` is {}; quote it (`\"{}\"`) to make it a string",
                        kind(other),
                        scalar_text(other)
                    ),
                ),
            }
        }
    }

    fn allowed_tools(&mut self, fm: &Frontmatter) {
        let Some(v) = fm.raw.get("allowed-tools") else {
            return;
        };
        let (line, col) = self.value_pos(fm, "allowed-tools");
        match v {
            Value::String(_) | Value::Null => {}
            Value::Sequence(items) if items.iter().all(Value::is_string) => {
                let joined: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                self.push(
                    line,
                    col,
                    Code::AllowedToolsList,
                    format!(
                        "`allowed-tools` is a list; the spec form is one space-separated string: `allowed-tools: {}`",
                        joined.join(" ")
                    ),
                );
            }
            other => self.push(
                line,
                col,
                Code::AllowedToolsType,
                format!(
                    "`allowed-tools` is {}; write the tools as one space-separated string",
                    kind(other)
                ),
            ),
        }
    }

    fn other_keys(&mut self, fm: &Frontmatter) {
        for (k, _) in fm.extra_keys() {
            let Some(key) = k.as_str() else {
                self.push(
                    fm.start_line,
                    1,
                    Code::UnknownKey,
                    format!(
                        "frontmatter key {} is not a string; no harness reads it",
                        scalar_text(k)
                    ),
                );
                continue;
            };
            if HARNESS_KEYS.contains(&key) {
                continue;
            }
            let line = fm.line_of(key);
            if CURSOR_KEYS.contains(&key) {
                self.push(
                    line,
                    1,
                    Code::CursorKey,
                    format!("`{key}` is a Cursor rule key; skills are chosen by their description, so it has no effect here"),
                );
            } else {
                self.push(
                    line,
                    1,
                    Code::UnknownKey,
                    format!("`{key}` is neither an Agent Skills field nor a known harness extension; harnesses ignore it (put custom data under `metadata`)"),
                );
            }
        }
    }

    fn body(&mut self) {
        let skill = self.skill;
        let mut count = 0usize;
        let mut blank = true;
        let mut fence: Option<(u32, char, usize)> = None;
        for (n, text) in skill.body_lines() {
            count += 1;
            if count == MAX_BODY_LINES {
                self.push(
                    n,
                    1,
                    Code::BodyTooLong,
                    format!(
                        "the body reaches {MAX_BODY_LINES} lines here; keep SKILL.md short and move detail into referenced files"
                    ),
                );
            }
            blank &= text.trim().is_empty();
            let t = text.trim_start();
            let ch = match t.chars().next() {
                Some(c @ ('`' | '~')) => c,
                _ => continue,
            };
            let run = t.chars().take_while(|c| *c == ch).count();
            if run < 3 {
                continue;
            }
            match fence {
                None => {
                    // A backtick fence's info string may not hold a backtick.
                    if ch == '`' && t[run..].contains('`') {
                        continue;
                    }
                    fence = Some((n, ch, run));
                }
                Some((_, open, len)) if open == ch && run >= len && t[run..].trim().is_empty() => {
                    fence = None
                }
                Some(_) => {}
            }
        }
        if blank {
            let at = skill.frontmatter.as_ref().map_or(1, |f| f.end_line);
            self.push(
                at,
                1,
                Code::EmptyBody,
                "nothing after the frontmatter: the skill gives the model no instructions",
            );
        }
        if let Some((n, ch, len)) = fence {
            let marker: String = std::iter::repeat_n(ch, len).collect();
            self.push(
                n,
                1,
                Code::UnclosedCodeFence,
                format!("the code fence {marker} opened here is never closed: every line after it reads as code, so rules below it may be taken for examples"),
            );
        }
    }
}

/// Column (1-based, in characters) of a key's value on its line.
fn value_col(line: &str, key: &str) -> u32 {
    // Skip the key (maybe quoted) and the colon.
    let after_key = line
        .find(':')
        .filter(|_| line.trim_start_matches(['"', '\'']).starts_with(key));
    let Some(colon) = after_key else { return 1 };
    let rest = &line[colon + 1..];
    let spaces = rest.len() - rest.trim_start().len();
    let mut byte = colon + 1 + spaces;
    if line[byte..].starts_with(['"', '\'']) {
        byte += 1;
    }
    line[..byte.min(line.len())].chars().count() as u32 + 1
}

/// What kind of YAML value this is, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

/// A scalar as YAML would print it (for messages).
fn scalar_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        other => kind(other).into(),
    }
}

/// A name that would pass the character rules, for the message.
fn suggest_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let s = out.trim_matches('-');
    if s.is_empty() {
        "my-skill".into()
    } else {
        s.chars()
            .take(MAX_NAME_CHARS)
            .collect::<String>()
            .trim_end_matches('-')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn lint_at(path: &str, text: &str) -> Vec<(u32, u32, Code)> {
        let skill = Skill::parse_bytes(Path::new(path), text.as_bytes()).unwrap();
        validate(&skill)
            .into_iter()
            .map(|d| (d.line, d.col, d.code))
            .collect()
    }

    fn lint(text: &str) -> Vec<(u32, u32, Code)> {
        lint_at("skills/my-skill/SKILL.md", text)
    }

    fn codes(text: &str) -> Vec<Code> {
        lint(text).into_iter().map(|d| d.2).collect()
    }

    const BODY: &str = "# Title\n\nDo the thing.\n";

    fn fm(lines: &str) -> String {
        format!("---\n{lines}---\n{BODY}")
    }

    #[test]
    fn a_clean_skill_has_no_diagnostics() {
        assert_eq!(
            lint(&fm("name: my-skill\ndescription: Does x. Use when y.\n")),
            vec![]
        );
        let all = "name: my-skill\ndescription: d\nlicense: MIT\ncompatibility: needs git\nallowed-tools: Read Bash(git:*)\nmetadata:\n  author: me\n";
        assert_eq!(lint(&fm(all)), vec![]);
    }

    #[test]
    fn missing_frontmatter_name_description() {
        assert_eq!(lint(BODY), vec![(1, 1, Code::MissingFrontmatter)]);
        assert_eq!(
            lint(&fm("description: d\n")),
            vec![(1, 1, Code::MissingName)]
        );
        assert_eq!(
            lint(&fm("name: my-skill\n")),
            vec![(1, 1, Code::MissingDescription)]
        );
    }

    #[test]
    fn name_rules() {
        assert_eq!(
            lint(&fm("name: My_Skill\ndescription: d\n")),
            vec![
                (2, 7, Code::NameCharacters),
                (2, 7, Code::NameFolderMismatch)
            ]
        );
        assert_eq!(
            lint(&fm("name: my--skill\ndescription: d\n")),
            vec![(2, 7, Code::NameFolderMismatch), (2, 9, Code::NameHyphens)]
        );
        assert_eq!(
            lint(&fm("name: -my-skill\ndescription: d\n"))[0],
            (2, 7, Code::NameHyphens)
        );
        assert_eq!(
            lint(&fm("name: my-skill-\ndescription: d\n"))[1],
            (2, 15, Code::NameHyphens)
        );
        assert_eq!(
            codes(&fm("name: \"\"\ndescription: d\n")),
            [Code::NameLength]
        );
        assert_eq!(codes(&fm("name:\ndescription: d\n")), [Code::NameLength]);
        let long = "a".repeat(65);
        assert_eq!(
            codes(&fm(&format!("name: {long}\ndescription: d\n"))),
            [Code::NameLength, Code::NameFolderMismatch]
        );
        let ok64 = "a".repeat(64);
        assert_eq!(
            lint_at(
                &format!("s/{ok64}/SKILL.md"),
                &fm(&format!("name: {ok64}\ndescription: d\n"))
            ),
            vec![]
        );
        assert_eq!(
            codes(&fm("name: 42\ndescription: d\n")),
            [Code::FieldNotString]
        );
        assert_eq!(lint(&fm("name: \"my-skill\"\ndescription: d\n")), vec![]);
    }

    #[test]
    fn name_must_equal_folder_unless_folder_unknown() {
        assert_eq!(
            lint_at("x/other/SKILL.md", &fm("name: my-skill\ndescription: d\n")),
            vec![(2, 7, Code::NameFolderMismatch)]
        );
        assert_eq!(
            lint_at("SKILL.md", &fm("name: my-skill\ndescription: d\n")),
            vec![]
        );
        let s = Skill::parse_bytes(
            Path::new("SKILL.md"),
            fm("name: my-skill\ndescription: d\n").as_bytes(),
        )
        .unwrap();
        assert_eq!(validate_in(&s, Some("else")).len(), 1);
    }

    #[test]
    fn reserved_words_warn() {
        let d = lint_at(
            "s/claude-helper/SKILL.md",
            &fm("name: claude-helper\ndescription: d\n"),
        );
        assert_eq!(d, vec![(2, 7, Code::NameReservedWord)]);
        assert_eq!(
            Code::NameReservedWord.level(),
            crate::parse::diag::Level::Warning
        );
        let d = lint_at(
            "s/my-anthropic/SKILL.md",
            &fm("name: my-anthropic\ndescription: d\n"),
        );
        assert_eq!(d, vec![(2, 10, Code::NameReservedWord)]);
    }

    #[test]
    fn xml_tags_in_name_and_description_are_errors() {
        assert_eq!(
            codes(&fm("name: <b>x</b>\ndescription: d\n")),
            [Code::NameFolderMismatch, Code::XmlTag]
        );
        assert_eq!(
            lint(&fm("name: my-skill\ndescription: Use <tool> here\n")),
            vec![(3, 18, Code::XmlTag)]
        );
        // A tag on the second line of a folded description is located there.
        assert_eq!(
            lint(&fm(
                "name: my-skill\ndescription: >\n  first line\n  then </system> end\n"
            )),
            vec![(5, 8, Code::XmlTag)]
        );
        // Comparisons are not tags.
        assert_eq!(
            lint(&fm("name: my-skill\ndescription: when a < b and c > d\n")),
            vec![]
        );
    }

    #[test]
    fn description_and_compatibility_lengths() {
        let d = "x".repeat(1025);
        assert_eq!(
            lint(&fm(&format!("name: my-skill\ndescription: {d}\n"))),
            vec![(3, 14, Code::DescriptionLength)]
        );
        let d = "é".repeat(1024); // characters, not bytes
        assert_eq!(
            lint(&fm(&format!("name: my-skill\ndescription: {d}\n"))),
            vec![]
        );
        assert_eq!(
            codes(&fm("name: my-skill\ndescription: \"  \"\n")),
            [Code::DescriptionLength]
        );
        assert_eq!(
            codes(&fm("name: my-skill\ndescription: [a]\n")),
            [Code::FieldNotString]
        );
        let c = "c".repeat(501);
        assert_eq!(
            lint(&fm(&format!(
                "name: my-skill\ndescription: d\ncompatibility: {c}\n"
            ))),
            vec![(4, 16, Code::CompatibilityLength)]
        );
        assert_eq!(
            codes(&fm("name: my-skill\ndescription: d\ncompatibility: \"\"\n")),
            [Code::CompatibilityLength]
        );
        assert_eq!(
            codes(&fm("name: my-skill\ndescription: d\nlicense: 3\n")),
            [Code::FieldNotString]
        );
    }

    #[test]
    fn metadata_rules() {
        let nested = "name: my-skill\ndescription: d\nmetadata:\n  author: me\n  openclaw:\n    emoji: x\n  version: 1.0\n";
        assert_eq!(
            lint(&fm(nested)),
            vec![
                (6, 3, Code::MetadataNested),
                (8, 3, Code::MetadataNotString)
            ]
        );
        assert_eq!(
            Code::MetadataNested.level(),
            crate::parse::diag::Level::Warning
        );
        assert_eq!(
            codes(&fm("name: my-skill\ndescription: d\nmetadata: just text\n")),
            [Code::MetadataNotMapping]
        );
        assert_eq!(
            codes(&fm(
                "name: my-skill\ndescription: d\nmetadata:\n  tags: [a, b]\n"
            )),
            [Code::MetadataNested]
        );
    }

    #[test]
    fn allowed_tools_rules() {
        assert_eq!(
            lint(&fm(
                "name: my-skill\ndescription: d\nallowed-tools:\n  - Read\n  - Grep\n"
            )),
            vec![(4, 15, Code::AllowedToolsList)]
        );
        assert_eq!(
            codes(&fm(
                "name: my-skill\ndescription: d\nallowed-tools: [Read, Grep]\n"
            )),
            [Code::AllowedToolsList]
        );
        assert_eq!(
            codes(&fm(
                "name: my-skill\ndescription: d\nallowed-tools: {a: b}\n"
            )),
            [Code::AllowedToolsType]
        );
    }

    #[test]
    fn harness_cursor_and_unknown_keys() {
        let harness = "name: my-skill\ndescription: d\ndisable-model-invocation: true\nargument-hint: \"[file]\"\nmodel: opus\nhooks:\n  PreToolUse: []\nuser-invocable: false\ncontext: fork\nagent: Explore\neffort: low\n";
        assert_eq!(lint(&fm(harness)), vec![]);
        assert_eq!(
            lint(&fm("name: my-skill\ndescription: d\nglobs: \"*.py\"\n")),
            vec![(4, 1, Code::CursorKey)]
        );
        assert_eq!(
            lint(&fm("name: my-skill\ndescription: d\ntags: [x]\n")),
            vec![(4, 1, Code::UnknownKey)]
        );
        assert_eq!(Code::UnknownKey.level(), crate::parse::diag::Level::Info);
    }

    #[test]
    fn body_rules() {
        assert_eq!(
            lint("---\nname: my-skill\ndescription: d\n---\n\n  \n"),
            vec![(4, 1, Code::EmptyBody)]
        );
        let long = format!(
            "---\nname: my-skill\ndescription: d\n---\n{}",
            "line\n".repeat(500)
        );
        assert_eq!(lint(&long), vec![(504, 1, Code::BodyTooLong)]);
        let ok = format!(
            "---\nname: my-skill\ndescription: d\n---\n{}",
            "line\n".repeat(499)
        );
        assert_eq!(lint(&ok), vec![]);
        let fences = "---\nname: my-skill\ndescription: d\n---\n```bash\nls\n```\n  ~~~\n  x\n  ~~~\n````\n```\nstill code\n";
        assert_eq!(lint(fences), vec![(11, 1, Code::UnclosedCodeFence)]);
    }

    #[test]
    fn suggestions_and_value_columns() {
        assert_eq!(suggest_name("My Cool_Skill!"), "my-cool-skill");
        assert_eq!(suggest_name("___"), "my-skill");
        assert_eq!(value_col("name: x", "name"), 7);
        assert_eq!(value_col("name:   \"x\"", "name"), 10);
        assert_eq!(value_col("\"name\": x", "name"), 9);
    }
}
