//! The extraction and scope lexicon: data (phrases → predicates, words and
//! paths → scope tags), shipped as a default file, overridable by config.

/// The lexicon used by extraction.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {}

impl Lexicon {
    /// The built-in default lexicon.
    pub fn builtin() -> Self {
        Lexicon {}
    }
}
