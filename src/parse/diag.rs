//! Validation diagnostics: data with stable kebab-case codes; rendering is separate.
//!
//! Every problem `skillgate validate` can report has one [`Code`] with a fixed
//! kebab-case name, a default [`Level`] and a one-line description
//! (docs/validate.md lists them). Codes are a contract: CI filters, editors and
//! people's muscle memory key on them, so a code is never renamed or reused.

use serde::Serialize;
use std::fmt;
use std::path::PathBuf;

/// How serious a diagnostic is. Only errors make `validate` exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    Error,
    Warning,
    Info,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "info",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $level:ident, $desc:literal; )*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The kebab-case name printed in `level[code]`.
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// The level a diagnostic with this code is reported at.
            pub fn level(self) -> Level {
                match self { $( Code::$variant => Level::$level, )* }
            }

            /// One line saying what the code means.
            pub fn description(self) -> &'static str {
                match self { $( Code::$variant => $desc, )* }
            }
        }
    };
}

codes! {
    // ---- input that cannot be read as a SKILL.md at all (exit 2) ----
    /// The path given does not exist.
    PathNotFound = "path-not-found", Error, "a path given on the command line does not exist";
    /// An I/O error while reading a file or listing a folder.
    Unreadable = "unreadable", Error, "a file or folder could not be read (permissions, I/O error)";
    /// A folder (or tree) holds no SKILL.md.
    NoSkillFound = "no-skill-found", Error, "a folder given on the command line holds no SKILL.md anywhere below it";
    /// The file is empty or holds only whitespace.
    EmptyFile = "empty-file", Error, "SKILL.md is empty (or only whitespace)";
    /// Bytes that are not UTF-8.
    InvalidUtf8 = "invalid-utf8", Error, "SKILL.md is not valid UTF-8";
    /// One line is longer than the line limit.
    LineTooLong = "line-too-long", Error, "a line is longer than 64 KiB: not a skill a model can read";
    /// The file is larger than the file limit.
    FileTooLarge = "file-too-large", Error, "SKILL.md is larger than 1 MiB: not a skill a model can read";
    /// `---` on line 1 without a closing `---`.
    UnclosedFrontmatter = "unclosed-frontmatter", Error, "the frontmatter opened with `---` on line 1 is never closed";
    /// The frontmatter is larger than the frontmatter limit.
    FrontmatterTooLarge = "frontmatter-too-large", Error, "the frontmatter is larger than 64 KiB";
    /// The frontmatter is not valid YAML (syntax, tabs used for indentation, duplicate keys...).
    InvalidYaml = "invalid-yaml", Error, "the frontmatter is not valid YAML";
    /// The frontmatter expands to too many YAML nodes (an alias bomb) or nests too deep.
    YamlTooComplex = "yaml-too-complex", Error, "the frontmatter expands to too many YAML nodes (alias bomb) or nests too deep";
    /// The frontmatter is YAML, but not a mapping of keys to values.
    FrontmatterNotMapping = "frontmatter-not-mapping", Error, "the frontmatter is not a mapping of keys to values";

    // ---- the Agent Skills spec (SPEC §3) ----
    /// No frontmatter at all.
    MissingFrontmatter = "missing-frontmatter", Error, "SKILL.md has no `---` frontmatter with name and description";
    /// No `name` key.
    MissingName = "missing-name", Error, "the frontmatter has no `name`";
    /// No `description` key.
    MissingDescription = "missing-description", Error, "the frontmatter has no `description`";
    /// A field that must be a string is a number, list, mapping or null.
    FieldNotString = "field-not-string", Error, "`name`, `description`, `license` or `compatibility` is not a string";
    /// `name` is empty or longer than 64 characters.
    NameLength = "name-length", Error, "`name` must be 1 to 64 characters";
    /// `name` holds a character outside a-z, 0-9 and '-'.
    NameCharacters = "name-characters", Error, "`name` may hold only lowercase a-z, digits 0-9 and '-'";
    /// `name` starts or ends with '-', or holds "--".
    NameHyphens = "name-hyphens", Error, "`name` must not start or end with '-' nor hold \"--\"";
    /// `name` differs from the folder holding SKILL.md.
    NameFolderMismatch = "name-folder-mismatch", Error, "`name` must equal the name of the folder that holds SKILL.md";
    /// `description` is empty or longer than 1024 characters.
    DescriptionLength = "description-length", Error, "`description` must be 1 to 1024 characters";
    /// `compatibility` is empty or longer than 500 characters.
    CompatibilityLength = "compatibility-length", Error, "`compatibility`, when present, must be 1 to 500 characters";
    /// `metadata` is not a mapping.
    MetadataNotMapping = "metadata-not-mapping", Error, "`metadata` must be a mapping of string keys to string values";
    /// A `metadata` value is itself a mapping or a list.
    MetadataNested = "metadata-nested", Warning, "a `metadata` value is a mapping or list; the spec says string to string";
    /// A `metadata` key or value is a number, boolean or null.
    MetadataNotString = "metadata-not-string", Warning, "a `metadata` key or value is a number, boolean or null; quote it";
    /// `allowed-tools` written as a YAML list.
    AllowedToolsList = "allowed-tools-list", Warning, "`allowed-tools` is a list; the spec form is one space-separated string";
    /// `allowed-tools` neither a string nor a list of strings.
    AllowedToolsType = "allowed-tools-type", Error, "`allowed-tools` must be a space-separated string";
    /// The body is 500 lines or longer.
    BodyTooLong = "body-too-long", Warning, "the body is 500 lines or longer; move detail into referenced files";

    // ---- beyond the spec: platform and harness rules ----
    /// `name` holds a reserved word.
    NameReservedWord = "name-reserved-word", Warning, "`name` holds the reserved word `anthropic` or `claude` (rejected by Anthropic's platform)";
    /// An XML tag in `name` or `description`.
    XmlTag = "xml-tag", Error, "`name` or `description` holds an XML tag (it would be injected into the system prompt)";
    /// A Cursor rule key (`globs`, `alwaysApply`) in a SKILL.md.
    CursorKey = "cursor-key", Warning, "a Cursor rule key (`globs`, `alwaysApply`) has no effect in a SKILL.md";
    /// A key that is neither an Agent Skills field nor a known harness extension.
    UnknownKey = "unknown-key", Info, "a frontmatter key that is neither an Agent Skills field nor a known harness extension";
    /// Nothing after the frontmatter.
    EmptyBody = "empty-body", Warning, "the body is empty: the skill gives the model no instructions";
    /// A ``` or ~~~ code fence opened in the body and never closed.
    UnclosedCodeFence = "unclosed-code-fence", Warning, "a code fence in the body is never closed: everything after it reads as code";
    /// A symbolic link under a walked tree that points outside it.
    SymlinkOutsideTree = "symlink-outside-tree", Warning, "a symbolic link points outside the tree being walked; it was not followed";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One finding of `validate`, located in a file (1-based line and column; 0
/// means "the whole file or folder").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    #[serde(serialize_with = "lossy_path")]
    pub file: PathBuf,
    pub line: u32,
    pub col: u32,
    pub level: Level,
    pub code: Code,
    pub message: String,
}

/// Paths print as text even when they are not UTF-8 (never a serialization error).
fn lossy_path<S: serde::Serializer>(p: &std::path::Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&p.to_string_lossy())
}

impl Diagnostic {
    /// A diagnostic at the code's default level.
    pub fn new(
        file: impl Into<PathBuf>,
        line: u32,
        col: u32,
        code: Code,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            file: file.into(),
            line,
            col,
            level: code.level(),
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:col: level[code]: message` (line and column left out when 0).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.col > 0 {
                write!(f, ":{}", self.col)?;
            }
        }
        write!(f, ": {}[{}]: {}", self.level, self.code, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every code, spelled out: adding a code means adding it here too, and a
    /// duplicate name (or a name that is not kebab-case) fails.
    #[test]
    fn codes_are_listed_unique_and_kebab_case() {
        let expected = [
            "path-not-found",
            "unreadable",
            "no-skill-found",
            "empty-file",
            "invalid-utf8",
            "line-too-long",
            "file-too-large",
            "unclosed-frontmatter",
            "frontmatter-too-large",
            "invalid-yaml",
            "yaml-too-complex",
            "frontmatter-not-mapping",
            "missing-frontmatter",
            "missing-name",
            "missing-description",
            "field-not-string",
            "name-length",
            "name-characters",
            "name-hyphens",
            "name-folder-mismatch",
            "description-length",
            "compatibility-length",
            "metadata-not-mapping",
            "metadata-nested",
            "metadata-not-string",
            "allowed-tools-list",
            "allowed-tools-type",
            "body-too-long",
            "name-reserved-word",
            "xml-tag",
            "cursor-key",
            "unknown-key",
            "empty-body",
            "unclosed-code-fence",
            "symlink-outside-tree",
        ];
        let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(names, expected);
        let mut seen = BTreeSet::new();
        for c in Code::ALL {
            assert!(seen.insert(c.as_str()), "duplicate code {}", c.as_str());
            assert!(
                c.as_str().split('-').all(|w| !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
                "{} is not kebab-case",
                c.as_str()
            );
            assert!(!c.description().is_empty() && !c.description().contains('\n'));
        }
    }

    #[test]
    fn display_is_file_line_col_level_code_message() {
        let d = Diagnostic::new("a/SKILL.md", 2, 7, Code::NameCharacters, "bad");
        assert_eq!(d.to_string(), "a/SKILL.md:2:7: error[name-characters]: bad");
        let d = Diagnostic::new("skills", 0, 0, Code::NoSkillFound, "none");
        assert_eq!(d.to_string(), "skills: error[no-skill-found]: none");
        assert_eq!(Code::UnknownKey.level(), Level::Info);
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(
            json,
            r#"{"file":"skills","line":0,"col":0,"level":"error","code":"no-skill-found","message":"none"}"#
        );
    }
}
