//! A constraint (SPEC §4): the unit the gate labels.

use super::predicate::Predicate;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Modality {
    Must,
    MustNot,
    Should,
    ShouldNot,
}

/// The scope tags of SPEC §4. A scope-tagged constraint fails closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScopeTag {
    SharedRepoState,
    SensitiveMemory,
    SelfModification,
}

impl ScopeTag {
    pub const ALL: [ScopeTag; 3] =
        [ScopeTag::SharedRepoState, ScopeTag::SensitiveMemory, ScopeTag::SelfModification];
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeTag::SharedRepoState => "shared-repo-state",
            ScopeTag::SensitiveMemory => "sensitive-memory",
            ScopeTag::SelfModification => "self-modification",
        }
    }
}

/// Where a `require` looks for its matching event, relative to the firing event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Between the skill load and the firing event.
    Before,
    /// After the firing event (the default).
    #[default]
    After,
    /// Anywhere in scope.
    Anywhere,
}

/// One constraint, as extracted or as pinned in the lockfile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraint {
    pub id: String,
    pub text: String,
    /// First and last line in SKILL.md (1-based, frontmatter counted).
    pub lines: [u32; 2],
    pub modality: Modality,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope: Vec<ScopeTag>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Predicate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub require: Option<Predicate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbid: Option<Predicate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Order>,
    /// A person reviewed the rule and accepts that its behavior is decided by people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manual: Option<String>,
}

impl Constraint {
    pub fn is_scoped(&self) -> bool {
        !self.scope.is_empty()
    }
    pub fn is_manual(&self) -> bool {
        self.manual.is_some()
    }
    /// The behavior predicate, if any.
    pub fn behavior(&self) -> Option<&Predicate> {
        self.require.as_ref().or(self.forbid.as_ref())
    }
}
