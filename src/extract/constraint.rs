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
    pub const ALL: [ScopeTag; 3] = [
        ScopeTag::SharedRepoState,
        ScopeTag::SensitiveMemory,
        ScopeTag::SelfModification,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeTag::SharedRepoState => "shared-repo-state",
            ScopeTag::SensitiveMemory => "sensitive-memory",
            ScopeTag::SelfModification => "self-modification",
        }
    }
}

/// Where a `require` looks for its matching event, relative to the firing event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Between the skill load and each firing event.
    Before,
    /// Between the previous firing event (or the load) and each firing event:
    /// every cycle needs its own (a failing test before *each* production edit).
    BeforeEach,
    /// After each firing event, before the trajectory ends (the default).
    #[default]
    After,
    /// Anywhere in scope.
    Anywhere,
}

impl Order {
    /// The lockfile spelling (`before`, `before-each`, `after`, `anywhere`).
    pub fn as_str(self) -> &'static str {
        match self {
            Order::Before => "before",
            Order::BeforeEach => "before-each",
            Order::After => "after",
            Order::Anywhere => "anywhere",
        }
    }
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

    /// Check the rules of SPEC §4.1–4.2 that serde cannot: a kebab-case id,
    /// `lines` in order, at most one of `require` / `forbid`, `manual`
    /// exclusive with them and with a real reason, `order` only beside
    /// `require`, and every predicate valid. Each problem names the key it
    /// belongs to, so a caller can point at its line.
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if !is_kebab_id(&self.id) {
            out.push((
                "id",
                format!(
                    "id {:?} is not kebab-case (a-z, 0-9 and single '-' between them)",
                    self.id
                ),
            ));
        }
        if self.text.trim().is_empty() {
            out.push(("text", "`text` is empty".to_string()));
        }
        if self.lines[0] == 0 || self.lines[0] > self.lines[1] {
            out.push((
                "lines",
                format!(
                    "`lines: [{}, {}]` must be [first, last] with 1 <= first <= last",
                    self.lines[0], self.lines[1]
                ),
            ));
        }
        if self.require.is_some() && self.forbid.is_some() {
            out.push((
                "forbid",
                "a constraint has `require` or `forbid`, not both: split it into two constraints"
                    .to_string(),
            ));
        }
        if let Some(reason) = &self.manual {
            if self.require.is_some() || self.forbid.is_some() {
                let key = if self.require.is_some() {
                    "require"
                } else {
                    "forbid"
                };
                out.push((
                    "manual",
                    format!("`manual` says people judge this rule, so it cannot stand beside `{key}`: keep one"),
                ));
            }
            let r = reason.trim();
            if r.is_empty()
                || r.eq_ignore_ascii_case("todo")
                || r.to_ascii_lowercase().starts_with("todo")
            {
                out.push((
                    "manual",
                    "`manual` needs a real reason (why the gate cannot decide this rule from actions), not an empty or TODO one".to_string(),
                ));
            }
        }
        if self.order.is_some() && self.require.is_none() {
            out.push(("order", "`order` only applies beside `require`".to_string()));
        }
        for (key, p) in [
            ("when", &self.when),
            ("require", &self.require),
            ("forbid", &self.forbid),
        ] {
            if let Some(p) = p {
                if let Err(e) = p.validate() {
                    out.push((key, format!("`{key}`: {e}")));
                }
            }
        }
        out
    }
}

/// A lockfile id: a-z and 0-9 words joined by single '-'.
pub fn is_kebab_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}
