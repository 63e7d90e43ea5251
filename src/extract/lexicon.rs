//! The extraction and scope lexicon: data (phrases → predicates, words and
//! paths → scope tags), shipped as a default file, overridable by config.

use serde::{Deserialize, Serialize};

/// The on-disk / in-config form of a lexicon (the shipped default uses it too).
/// Entries given in configuration are added to the built-in ones unless
/// `replace: true`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LexiconFile {
    /// Drop the built-in entries and use only these.
    #[serde(default)]
    pub replace: bool,
    /// Phrase → predicate entries.
    #[serde(default)]
    pub phrases: Vec<yaml_serde::Value>,
    /// Word / path / command → scope-tag entries.
    #[serde(default)]
    pub scopes: Vec<yaml_serde::Value>,
}

/// The lexicon used by extraction.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {}

impl Lexicon {
    /// The built-in default lexicon.
    pub fn builtin() -> Self {
        Lexicon {}
    }

    /// The built-in lexicon extended (or replaced) by a configured one.
    pub fn with_overrides(file: &LexiconFile) -> Result<Self, String> {
        let _ = file;
        Ok(Lexicon::builtin())
    }
}
