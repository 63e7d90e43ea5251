//! The predicate grammar of SPEC §4.1 — a contract: tests and users write it.
//!
//! A predicate is a YAML/JSON map with one key (plus `args` beside `git`).
//! Matching lives in `label`; this module is only the data and its (de)serialization.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One predicate over a normalized action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Predicate {
    /// Raw tool name, glob.
    Tool(String),
    /// Each simple command of a shell line, glob on its text.
    Command(String),
    /// Each simple command of a shell line, regex on its text.
    CommandRe(String),
    /// Parsed git subcommand, with flags that must all be present.
    Git {
        subcommand: String,
        args: Vec<String>,
    },
    Read(String),
    Write(String),
    Edit(String),
    Delete(String),
    Rename {
        from: String,
        to: String,
    },
    /// write | edit | delete | rename (either side).
    Touch(String),
    Fetch(String),
    Skill(String),
    Subagent(String),
    /// Modifier: the action's result was (or was not) an error.
    Failed(bool),
    /// Modifier: the git branch the session was on (glob), where recorded.
    Branch(String),
    /// A turn where the user spoke or answered an ask tool (`{user_turn: true}`; text never read).
    UserTurn,
    Any(Vec<Predicate>),
    All(Vec<Predicate>),
    Not(Box<Predicate>),
}

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
struct RawPredicate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    command_re: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    git: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    args: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    read: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    write: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    edit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    delete: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rename: Option<RawRename>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    touch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fetch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skill: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subagent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    branch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    user_turn: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    any: Option<Vec<Predicate>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    all: Option<Vec<Predicate>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    not: Option<Box<Predicate>>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawRename {
    from: String,
    to: String,
}

impl<'de> Deserialize<'de> for Predicate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = RawPredicate::deserialize(d)?;
        let mut found: Vec<Predicate> = Vec::new();
        if let Some(v) = r.tool {
            found.push(Predicate::Tool(v));
        }
        if let Some(v) = r.command {
            found.push(Predicate::Command(v));
        }
        if let Some(v) = r.command_re {
            found.push(Predicate::CommandRe(v));
        }
        match (r.git, r.args) {
            (Some(g), args) => found.push(Predicate::Git {
                subcommand: g,
                args: args.unwrap_or_default(),
            }),
            (None, Some(_)) => return Err(D::Error::custom("`args` is only allowed beside `git`")),
            (None, None) => {}
        }
        if let Some(v) = r.read {
            found.push(Predicate::Read(v));
        }
        if let Some(v) = r.write {
            found.push(Predicate::Write(v));
        }
        if let Some(v) = r.edit {
            found.push(Predicate::Edit(v));
        }
        if let Some(v) = r.delete {
            found.push(Predicate::Delete(v));
        }
        if let Some(v) = r.rename {
            found.push(Predicate::Rename {
                from: v.from,
                to: v.to,
            });
        }
        if let Some(v) = r.touch {
            found.push(Predicate::Touch(v));
        }
        if let Some(v) = r.fetch {
            found.push(Predicate::Fetch(v));
        }
        if let Some(v) = r.skill {
            found.push(Predicate::Skill(v));
        }
        if let Some(v) = r.subagent {
            found.push(Predicate::Subagent(v));
        }
        if let Some(v) = r.failed {
            found.push(Predicate::Failed(v));
        }
        if let Some(v) = r.branch {
            found.push(Predicate::Branch(v));
        }
        match r.user_turn {
            Some(true) => found.push(Predicate::UserTurn),
            Some(false) => {
                return Err(D::Error::custom(
                    "`user_turn: false` matches nothing useful: write `user_turn: true` (inside `not` for the opposite)",
                ))
            }
            None => {}
        }
        if let Some(v) = r.any {
            found.push(Predicate::Any(v));
        }
        if let Some(v) = r.all {
            found.push(Predicate::All(v));
        }
        if let Some(v) = r.not {
            found.push(Predicate::Not(v));
        }
        match found.len() {
            1 => Ok(found.pop().expect("one element")),
            0 => Err(D::Error::custom("empty predicate: expected one of tool, command, command_re, git, read, write, edit, delete, rename, touch, fetch, skill, subagent, user_turn, failed, branch, any, all, not")),
            _ => Err(D::Error::custom("a predicate has exactly one key (combine several with `all: [...]`)")),
        }
    }
}

impl Serialize for Predicate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut r = RawPredicate::default();
        match self.clone() {
            Predicate::Tool(v) => r.tool = Some(v),
            Predicate::Command(v) => r.command = Some(v),
            Predicate::CommandRe(v) => r.command_re = Some(v),
            Predicate::Git { subcommand, args } => {
                r.git = Some(subcommand);
                if !args.is_empty() {
                    r.args = Some(args);
                }
            }
            Predicate::Read(v) => r.read = Some(v),
            Predicate::Write(v) => r.write = Some(v),
            Predicate::Edit(v) => r.edit = Some(v),
            Predicate::Delete(v) => r.delete = Some(v),
            Predicate::Rename { from, to } => r.rename = Some(RawRename { from, to }),
            Predicate::Touch(v) => r.touch = Some(v),
            Predicate::Fetch(v) => r.fetch = Some(v),
            Predicate::Skill(v) => r.skill = Some(v),
            Predicate::Subagent(v) => r.subagent = Some(v),
            Predicate::Failed(v) => r.failed = Some(v),
            Predicate::Branch(v) => r.branch = Some(v),
            Predicate::UserTurn => r.user_turn = Some(true),
            Predicate::Any(v) => r.any = Some(v),
            Predicate::All(v) => r.all = Some(v),
            Predicate::Not(v) => r.not = Some(v),
        }
        r.serialize(s)
    }
}

/// A `command_re` pattern compiled (size limit 1 MiB), once per process:
/// validation, the gate's compiled sets and the proposals of every skill ask
/// for the same few patterns, and building a regex's DFA costs ~1 M
/// instructions. Cloning a `Regex` shares the compiled program.
pub fn command_regex(pattern: &str) -> Result<regex::Regex, regex::Error> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Cache = Mutex<HashMap<String, Result<regex::Regex, regex::Error>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(r) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(pattern) {
        return r.clone();
    }
    // Compiled outside the lock (two threads may both compile a new pattern; one wins).
    let r = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build();
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    // Bounded: patterns come from lockfiles, but a long-lived caller (tests,
    // a server) should not grow without end.
    if map.len() >= 4096 {
        map.clear();
    }
    map.insert(pattern.to_string(), r.clone());
    r
}

impl Predicate {
    /// Check what serde cannot: globs and regexes compile, lists are not
    /// empty, `git` names a subcommand and its `args` are flags, and the
    /// modifiers `failed` / `branch` sit inside an `all` beside an action.
    /// The error names the offending key and value.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_in(false)
    }

    fn validate_in(&self, inside_all: bool) -> Result<(), String> {
        let glob = |key: &str, g: &str| -> Result<(), String> {
            if g.is_empty() {
                return Err(format!("`{key}` has an empty glob"));
            }
            globset::GlobBuilder::new(g)
                .literal_separator(true)
                .build()
                .map(|_| ())
                .map_err(|e| format!("`{key}: {g:?}` is not a valid glob: {}", e.kind()))
        };
        match self {
            Predicate::Tool(g) => glob("tool", g),
            Predicate::Command(g) => glob("command", g),
            Predicate::CommandRe(r) => command_regex(r).map(|_| ()).map_err(|e| {
                format!(
                    "`command_re: {r:?}` is not a valid regex: {}",
                    first_line(&e.to_string())
                )
            }),
            Predicate::Git { subcommand, args } => {
                if subcommand.is_empty()
                    || !subcommand
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-')
                {
                    return Err(format!(
                        "`git: {subcommand:?}` must name one git subcommand (letters, digits, '-'), e.g. `git: push`"
                    ));
                }
                for a in args {
                    if !a.starts_with('-') || a.len() < 2 || a.chars().any(char::is_whitespace) {
                        return Err(format!(
                            "`args` beside `git` lists flags such as \"--force\"; {a:?} is not a flag"
                        ));
                    }
                }
                Ok(())
            }
            Predicate::Read(g) => glob("read", g),
            Predicate::Write(g) => glob("write", g),
            Predicate::Edit(g) => glob("edit", g),
            Predicate::Delete(g) => glob("delete", g),
            Predicate::Rename { from, to } => {
                glob("rename.from", from)?;
                glob("rename.to", to)
            }
            Predicate::Touch(g) => glob("touch", g),
            Predicate::Fetch(g) => glob("fetch", g),
            Predicate::Skill(g) => glob("skill", g),
            Predicate::Subagent(g) => glob("subagent", g),
            Predicate::UserTurn => Ok(()),
            Predicate::Failed(_) | Predicate::Branch(_) => {
                if let Predicate::Branch(g) = self {
                    glob("branch", g)?;
                }
                if inside_all {
                    Ok(())
                } else {
                    let key = if matches!(self, Predicate::Failed(_)) {
                        "failed"
                    } else {
                        "branch"
                    };
                    Err(format!(
                        "`{key}` is a modifier: put it inside `all: [...]` beside an action predicate"
                    ))
                }
            }
            Predicate::Any(v) | Predicate::All(v) => {
                let is_all = matches!(self, Predicate::All(_));
                let key = if is_all { "all" } else { "any" };
                if v.is_empty() {
                    return Err(format!("`{key}` needs at least one predicate"));
                }
                v.iter()
                    .try_for_each(|p| p.validate_in(is_all || inside_all))
            }
            Predicate::Not(p) => p.validate_in(inside_all),
        }
    }

    /// Whether `f` holds for this predicate or any predicate inside it
    /// (through `any`, `all` and `not`).
    pub fn any_node(&self, f: &impl Fn(&Predicate) -> bool) -> bool {
        f(self)
            || match self {
                Predicate::Any(v) | Predicate::All(v) => v.iter().any(|q| q.any_node(f)),
                Predicate::Not(q) => q.any_node(f),
                _ => false,
            }
    }

    /// `f` on this predicate and every predicate inside it, outermost first.
    pub fn for_each_node(&self, f: &mut impl FnMut(&Predicate)) {
        f(self);
        match self {
            Predicate::Any(v) | Predicate::All(v) => v.iter().for_each(|q| q.for_each_node(f)),
            Predicate::Not(q) => q.for_each_node(f),
            _ => {}
        }
    }

    /// True when the predicate (or a part of it) is a modifier only
    /// (`failed` / `branch`), which matches no action by itself.
    pub fn is_modifier(&self) -> bool {
        match self {
            Predicate::Failed(_) | Predicate::Branch(_) => true,
            Predicate::Not(p) => p.is_modifier(),
            Predicate::Any(v) | Predicate::All(v) => {
                !v.is_empty() && v.iter().all(Predicate::is_modifier)
            }
            _ => false,
        }
    }

    /// Every glob and regex inside, for validation: (kind, pattern).
    pub fn patterns(&self) -> Vec<(&'static str, &str)> {
        let mut out = Vec::new();
        self.collect_patterns(&mut out);
        out
    }

    fn collect_patterns<'a>(&'a self, out: &mut Vec<(&'static str, &'a str)>) {
        match self {
            Predicate::CommandRe(r) => out.push(("regex", r)),
            Predicate::Tool(g)
            | Predicate::Command(g)
            | Predicate::Read(g)
            | Predicate::Write(g)
            | Predicate::Edit(g)
            | Predicate::Delete(g)
            | Predicate::Touch(g)
            | Predicate::Fetch(g)
            | Predicate::Skill(g)
            | Predicate::Subagent(g)
            | Predicate::Branch(g) => out.push(("glob", g)),
            Predicate::Rename { from, to } => {
                out.push(("glob", from));
                out.push(("glob", to));
            }
            Predicate::Git { .. } | Predicate::Failed(_) | Predicate::UserTurn => {}
            Predicate::Any(v) | Predicate::All(v) => v.iter().for_each(|p| p.collect_patterns(out)),
            Predicate::Not(p) => p.collect_patterns(out),
        }
    }
}

/// The last non-empty line of a multi-line error (regex errors end with the cause).
fn first_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or("")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_node_and_for_each_node_reach_inside_any_all_and_not() {
        let p: Predicate = yaml_serde::from_str(
            r#"{all: [{git: push}, {not: {any: [{skill: "x"}, {failed: true}]}}]}"#,
        )
        .unwrap();
        assert!(p.any_node(&|q| matches!(q, Predicate::Skill(_))));
        assert!(p.any_node(&|q| matches!(q, Predicate::Failed(_))));
        assert!(!p.any_node(&|q| matches!(q, Predicate::Subagent(_))));
        let mut n = 0;
        p.for_each_node(&mut |_| n += 1);
        assert_eq!(n, 6, "all, push, not, any, skill, failed");
    }

    #[test]
    fn round_trips_the_spec_examples() {
        for src in [
            r#"{tool: "Bash"}"#,
            r#"{command: "git push*"}"#,
            r#"{git: push, args: ["--force"]}"#,
            r#"{rename: {from: "*.tmp", to: "assessment.json"}}"#,
            r#"{all: [{touch: ".claude/skills/**"}, {failed: true}]}"#,
            r#"{not: {branch: "main"}}"#,
            r#"{user_turn: true}"#,
        ] {
            let p: Predicate = yaml_serde::from_str(src).unwrap();
            let back = yaml_serde::to_string(&p).unwrap();
            let again: Predicate = yaml_serde::from_str(&back).unwrap();
            assert_eq!(p, again, "{src}");
        }
    }

    #[test]
    fn rejects_two_keys_unknown_keys_and_stray_args() {
        assert!(yaml_serde::from_str::<Predicate>("{tool: a, command: b}").is_err());
        assert!(yaml_serde::from_str::<Predicate>("{shell: a}").is_err());
        assert!(yaml_serde::from_str::<Predicate>("{args: [x]}").is_err());
        assert!(yaml_serde::from_str::<Predicate>("{}").is_err());
        assert!(yaml_serde::from_str::<Predicate>("{user_turn: false}").is_err());
        assert_eq!(
            yaml_serde::from_str::<Predicate>("{user_turn: true}").unwrap(),
            Predicate::UserTurn
        );
    }

    #[test]
    fn validation_catches_bad_globs_regexes_args_and_stray_modifiers() {
        let p = |s: &str| yaml_serde::from_str::<Predicate>(s).unwrap();
        assert!(p(r#"{touch: ".claude/skills/**"}"#).validate().is_ok());
        assert!(p(r#"{all: [{touch: "**"}, {branch: "main"}]}"#)
            .validate()
            .is_ok());
        assert!(p(r#"{all: [{command: "x*"}, {not: {failed: true}}]}"#)
            .validate()
            .is_ok());
        assert!(p(r#"{git: push, args: ["--force"]}"#).validate().is_ok());
        let err = |s: &str| p(s).validate().unwrap_err();
        assert!(err(r#"{touch: "src/[a"}"#).contains("not a valid glob"));
        assert!(err(r#"{command_re: "(unclosed"}"#).contains("not a valid regex"));
        assert!(err(r#"{git: push, args: ["force"]}"#).contains("not a flag"));
        assert!(err(r#"{git: "push --force"}"#).contains("one git subcommand"));
        assert!(err(r#"{failed: true}"#).contains("modifier"));
        assert!(err(r#"{any: [{branch: main}]}"#).contains("modifier"));
        assert!(err(r#"{any: []}"#).contains("at least one"));
    }
}
