//! Predicates compiled once per skill: every glob of every constraint goes into
//! one of two `GlobSet`s (paths, where `*` stays inside a segment; text, where
//! `*` matches anything), every regex is built once. Labelling then asks each
//! set once per string of an event and evaluates the predicate trees against
//! the matched ids.

use super::gitflags;
use crate::extract::lexicon::{Lexicon, Scope};
use crate::extract::{Constraint, Order, Predicate, ScopeTag};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use regex::Regex;
use std::collections::HashMap;

/// A glob or regex of a constraint that does not compile. Maps to exit 2.
#[derive(Debug, Clone, thiserror::Error)]
#[error("constraint `{constraint}`: invalid {kind} `{pattern}`: {message}")]
pub struct CompileError {
    pub constraint: String,
    pub kind: &'static str,
    pub pattern: String,
    pub message: String,
}

/// Which file operations a file predicate accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct OpMask {
    pub read: bool,
    pub write: bool,
    pub edit: bool,
    pub delete: bool,
    /// Either side of a rename.
    pub rename: bool,
}

/// A compiled predicate: leaves refer to glob / regex ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum CPred {
    Tool(usize),
    Command(usize),
    CommandRe(usize),
    Git {
        sub: usize,
        flags: Vec<String>,
        positionals: Vec<String>,
    },
    File {
        ops: OpMask,
        glob: usize,
    },
    Rename {
        from: usize,
        to: usize,
    },
    Fetch(usize),
    Skill(usize),
    Subagent(usize),
    Failed(bool),
    Branch(usize),
    /// A user turn (the user spoke or answered an ask tool).
    UserTurn,
    Any(Vec<CPred>),
    All(Vec<CPred>),
    Not(Box<CPred>),
}

/// How a constraint is judged (SPEC §6).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// Neither `when` nor a behavior predicate.
    Unverifiable,
    /// `when` only, or `manual`: fired → ambiguous, else untested.
    WhenOnly { when: Option<CPred> },
    Forbid {
        when: Option<CPred>,
        forbid: CPred,
        /// Without `when`: the forbid's own kind, relaxed (SPEC §6), fires it.
        kind: Option<CPred>,
    },
    Require {
        when: Option<CPred>,
        require: CPred,
        order: Order,
    },
}

/// Two constraints of sets with the same [`CompiledSet::matcher_key`] that
/// compare equal are judged alike in every trajectory for the same scope
/// ([`super::label_many`] judges them once).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct CConstraint {
    pub kind: Kind,
    pub scoped: bool,
    /// Its scope tags (an unverifiable one fires on an action of these scopes).
    pub scope: Vec<ScopeTag>,
    /// `require: {user_turn: true}`: a consent gate (SPEC §4.2).
    pub consent: bool,
}

/// The constraints of one skill, compiled.
#[derive(Debug, Clone)]
pub struct CompiledSet {
    pub(crate) constraints: Vec<CConstraint>,
    /// A hash of each constraint (equal constraints, equal hashes), so that
    /// [`super::label_many`] finds alike constraints without hashing them
    /// again for every trajectory.
    pub(crate) fingerprints: Vec<u64>,
    pub(crate) path_globs: GlobSet,
    pub(crate) text_globs: GlobSet,
    pub(crate) regexes: Vec<Regex>,
    pub(crate) any_path_glob: bool,
    pub(crate) any_text_glob: bool,
    /// The scope lexicon's commands and paths, for scope-tagged rules
    /// without a predicate (they fire only on an action of their scope).
    pub(crate) scopes: Vec<Scope>,
    /// Some constraint needs the scope facts of every event.
    pub(crate) needs_scopes: bool,
    /// What the event facts depend on: the glob and regex patterns in id
    /// order and whether scope facts are computed. Two sets compiled with the
    /// same lexicon and the same key get the same facts from every event
    /// ([`super::label_many`] computes them once for both).
    pub(crate) matcher_key: String,
}

/// A glob set built from `globs`, once per process for the same list: the
/// skills of one run mostly share their patterns, and building a set (its
/// regexes' DFAs) costs ~3 M instructions. Cloning a `GlobSet` shares the
/// compiled regexes.
fn glob_set(globs: &[globset::Glob]) -> Result<GlobSet, globset::Error> {
    use std::sync::{Mutex, OnceLock};
    type Cache = Mutex<HashMap<Vec<globset::Glob>, GlobSet>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(s) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(globs) {
        return Ok(s.clone());
    }
    let mut sb = GlobSetBuilder::new();
    for g in globs {
        sb.add(g.clone());
    }
    let set = sb.build()?;
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= 1024 {
        map.clear();
    }
    map.insert(globs.to_vec(), set.clone());
    Ok(set)
}

/// The built-in lexicon's scopes, compiled once.
fn builtin_scopes() -> &'static [Scope] {
    static SCOPES: std::sync::OnceLock<Vec<Scope>> = std::sync::OnceLock::new();
    SCOPES.get_or_init(|| Lexicon::builtin().scopes)
}

/// The relaxed kind of a forbidden action (SPEC §6): the same kind of action
/// with its arguments and paths relaxed — any `git push` for a forbidden
/// force-push, any edit for a forbidden edit of MEMORY.md, any `gh` call for
/// a forbidden `gh issue create`. `None` when nothing is left to match
/// (a predicate made of modifiers only).
pub(crate) fn relaxed_kind(p: &Predicate) -> Option<Predicate> {
    fn first_words(glob: &str) -> Option<String> {
        let words: Vec<&str> = glob.split_whitespace().collect();
        let w0 = *words.first()?;
        if w0.contains(['*', '?', '[']) {
            return None;
        }
        // `git <sub>` keeps its subcommand (any `git push`); other programs
        // keep their name only (any `gh` call).
        if w0 == "git" {
            if let Some(sub) = words.get(1).filter(|s| !s.contains(['*', '?', '[', '-'])) {
                return Some(format!("git {sub}*"));
            }
        }
        Some(format!("{w0}*"))
    }
    fn regex_words(re: &str) -> Option<String> {
        let body = re.trim_start_matches('^');
        let lit: String = body
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | '/'))
            .collect();
        // A literal word needs a word boundary after it to be the whole word.
        let complete = lit.ends_with(' ') || lit.len() == body.len();
        let lit = if complete {
            lit
        } else {
            lit.rsplit_once(' ')
                .map(|(a, _)| format!("{a} "))
                .unwrap_or_default()
        };
        first_words(lit.trim()).filter(|_| !lit.trim().is_empty())
    }
    Some(match p {
        Predicate::Tool(g) => Predicate::Tool(g.clone()),
        Predicate::Command(g) => match first_words(g) {
            Some(w) => Predicate::Command(w),
            None => Predicate::Command("*".into()),
        },
        Predicate::CommandRe(r) => match regex_words(r) {
            Some(w) => Predicate::Command(w),
            None => Predicate::Command("*".into()),
        },
        Predicate::Git { subcommand, .. } => Predicate::Git {
            subcommand: subcommand.clone(),
            args: Vec::new(),
        },
        Predicate::Read(_) => Predicate::Read("**".into()),
        Predicate::Write(_) => Predicate::Write("**".into()),
        Predicate::Edit(_) => Predicate::Edit("**".into()),
        Predicate::Delete(_) => Predicate::Delete("**".into()),
        Predicate::Touch(_) => Predicate::Touch("**".into()),
        Predicate::Rename { .. } => Predicate::Rename {
            from: "**".into(),
            to: "**".into(),
        },
        Predicate::Fetch(_) => Predicate::Fetch("*".into()),
        Predicate::Skill(_) => Predicate::Skill("*".into()),
        Predicate::Subagent(_) => Predicate::Subagent("*".into()),
        Predicate::UserTurn => Predicate::UserTurn,
        Predicate::Failed(_) | Predicate::Branch(_) => return None,
        Predicate::Any(v) | Predicate::All(v) => {
            let parts: Vec<Predicate> = v.iter().filter_map(relaxed_kind).collect();
            match parts.len() {
                0 => return None,
                1 => parts.into_iter().next().expect("one part"),
                _ => Predicate::Any(parts),
            }
        }
        // "anything but X" is forbidden: any action is of its kind.
        Predicate::Not(_) => Predicate::Tool("**".into()),
    })
}

impl CompiledSet {
    /// Compile the predicates of `constraints` (in order), with the built-in
    /// scope lexicon.
    pub fn compile(constraints: &[Constraint]) -> Result<CompiledSet, CompileError> {
        Self::compile_with_scopes(constraints, builtin_scopes())
    }

    /// Compile with the scopes of a (configured) lexicon: a scope-tagged rule
    /// without any predicate fires on an action of its scope (SPEC §6).
    pub fn compile_with_scopes(
        constraints: &[Constraint],
        scopes: &[Scope],
    ) -> Result<CompiledSet, CompileError> {
        let mut b = Builder::default();
        let mut out = Vec::with_capacity(constraints.len());
        for c in constraints {
            b.current = c.id.clone();
            let when = c.when.as_ref().map(|p| b.pred(p)).transpose()?;
            let kind = if c.is_manual() {
                match (&c.when, c.behavior()) {
                    (None, None) => Kind::Unverifiable,
                    (Some(_), _) => Kind::WhenOnly { when },
                    // A manual entry with a behavior but no `when` (the lockfile
                    // forbids it; be defensive): the load fires it.
                    (None, Some(_)) => Kind::WhenOnly { when: None },
                }
            } else if let Some(f) = &c.forbid {
                let kind = match (&c.when, relaxed_kind(f)) {
                    (None, Some(k)) => Some(b.pred(&k)?),
                    _ => None,
                };
                Kind::Forbid {
                    when,
                    forbid: b.pred(f)?,
                    kind,
                }
            } else if let Some(r) = &c.require {
                Kind::Require {
                    when,
                    require: b.pred(r)?,
                    order: c.order.unwrap_or_default(),
                }
            } else if when.is_some() {
                Kind::WhenOnly { when }
            } else {
                Kind::Unverifiable
            };
            out.push(CConstraint {
                kind,
                scoped: c.is_scoped(),
                scope: c.scope.clone(),
                consent: !c.is_manual() && c.require == Some(Predicate::UserTurn),
            });
        }
        let build = glob_set;
        let path_globs = build(&b.path_globs).map_err(|e| CompileError {
            constraint: String::new(),
            kind: "glob",
            pattern: String::new(),
            message: e.to_string(),
        })?;
        let text_globs = build(&b.text_globs).map_err(|e| CompileError {
            constraint: String::new(),
            kind: "glob",
            pattern: String::new(),
            message: e.to_string(),
        })?;
        let needs_scopes = out
            .iter()
            .any(|c| matches!(c.kind, Kind::Unverifiable) && c.scoped);
        let mut matcher_key = format!("scopes:{needs_scopes}");
        for (kind, globs) in [("path", &b.path_globs), ("text", &b.text_globs)] {
            for g in globs.iter() {
                matcher_key.push_str(&format!("\n{kind}:{}", g.glob()));
            }
        }
        for r in &b.regexes {
            matcher_key.push_str(&format!("\nre:{}", r.as_str()));
        }
        let fingerprints = out
            .iter()
            .map(|c| {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                c.hash(&mut h);
                h.finish()
            })
            .collect();
        Ok(CompiledSet {
            fingerprints,
            matcher_key,
            needs_scopes,
            scopes: if needs_scopes {
                scopes.to_vec()
            } else {
                Vec::new()
            },
            constraints: out,
            any_path_glob: !b.path_globs.is_empty(),
            any_text_glob: !b.text_globs.is_empty(),
            path_globs,
            text_globs,
            regexes: b.regexes,
        })
    }

    /// Number of constraints.
    pub fn len(&self) -> usize {
        self.constraints.len()
    }

    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty()
    }
}

#[derive(Default)]
struct Builder {
    current: String,
    path_globs: Vec<globset::Glob>,
    path_ids: HashMap<String, usize>,
    text_globs: Vec<globset::Glob>,
    text_ids: HashMap<String, usize>,
    regexes: Vec<Regex>,
    regex_ids: HashMap<String, usize>,
}

impl Builder {
    fn err(&self, kind: &'static str, pattern: &str, message: String) -> CompileError {
        CompileError {
            constraint: self.current.clone(),
            kind,
            pattern: pattern.to_string(),
            message,
        }
    }

    fn path(&mut self, pat: &str) -> Result<usize, CompileError> {
        let pat = normalize_path_glob(pat);
        if let Some(&id) = self.path_ids.get(&pat) {
            return Ok(id);
        }
        let g = GlobBuilder::new(&pat)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| self.err("glob", &pat, e.kind().to_string()))?;
        let id = self.path_globs.len();
        self.path_globs.push(g);
        self.path_ids.insert(pat, id);
        Ok(id)
    }

    fn text(&mut self, pat: &str) -> Result<usize, CompileError> {
        if let Some(&id) = self.text_ids.get(pat) {
            return Ok(id);
        }
        let g = GlobBuilder::new(pat)
            .literal_separator(false)
            .backslash_escape(true)
            .build()
            .map_err(|e| self.err("glob", pat, e.kind().to_string()))?;
        let id = self.text_globs.len();
        self.text_globs.push(g);
        self.text_ids.insert(pat.to_string(), id);
        Ok(id)
    }

    fn regex(&mut self, pat: &str) -> Result<usize, CompileError> {
        if let Some(&id) = self.regex_ids.get(pat) {
            return Ok(id);
        }
        let r = crate::extract::predicate::command_regex(pat)
            .map_err(|e| self.err("regex", pat, e.to_string()))?;
        let id = self.regexes.len();
        self.regexes.push(r);
        self.regex_ids.insert(pat.to_string(), id);
        Ok(id)
    }

    fn file(&mut self, pat: &str, ops: OpMask) -> Result<CPred, CompileError> {
        Ok(CPred::File {
            ops,
            glob: self.path(pat)?,
        })
    }

    fn pred(&mut self, p: &Predicate) -> Result<CPred, CompileError> {
        const NONE: OpMask = OpMask {
            read: false,
            write: false,
            edit: false,
            delete: false,
            rename: false,
        };
        Ok(match p {
            Predicate::Tool(g) => CPred::Tool(self.text(g)?),
            Predicate::Command(g) => CPred::Command(self.text(g)?),
            Predicate::CommandRe(r) => CPred::CommandRe(self.regex(r)?),
            Predicate::Git { subcommand, args } => {
                let mut flags = Vec::new();
                let mut positionals = Vec::new();
                for a in args {
                    if a.starts_with('-') && a.len() > 1 {
                        flags.extend(normalize_git_arg(subcommand, a));
                    } else {
                        positionals.push(a.clone());
                    }
                }
                CPred::Git {
                    sub: self.text(subcommand)?,
                    flags,
                    positionals,
                }
            }
            Predicate::Read(g) => self.file(g, OpMask { read: true, ..NONE })?,
            Predicate::Write(g) => self.file(
                g,
                OpMask {
                    write: true,
                    ..NONE
                },
            )?,
            Predicate::Edit(g) => self.file(g, OpMask { edit: true, ..NONE })?,
            Predicate::Delete(g) => self.file(
                g,
                OpMask {
                    delete: true,
                    ..NONE
                },
            )?,
            Predicate::Touch(g) => self.file(
                g,
                OpMask {
                    write: true,
                    edit: true,
                    delete: true,
                    rename: true,
                    read: false,
                },
            )?,
            Predicate::Rename { from, to } => CPred::Rename {
                from: self.path(from)?,
                to: self.path(to)?,
            },
            Predicate::Fetch(g) => CPred::Fetch(self.text(g)?),
            Predicate::Skill(g) => CPred::Skill(self.text(g)?),
            Predicate::Subagent(g) => CPred::Subagent(self.text(g)?),
            Predicate::Failed(b) => CPred::Failed(*b),
            Predicate::Branch(g) => CPred::Branch(self.text(g)?),
            Predicate::UserTurn => CPred::UserTurn,
            Predicate::Any(v) => {
                CPred::Any(v.iter().map(|p| self.pred(p)).collect::<Result<_, _>>()?)
            }
            Predicate::All(v) => {
                CPred::All(v.iter().map(|p| self.pred(p)).collect::<Result<_, _>>()?)
            }
            Predicate::Not(p) => CPred::Not(Box::new(self.pred(p)?)),
        })
    }
}

/// A predicate's flag in the long form the decoder records: the shell parser
/// reads `git <sub> <flag>` (one table for both sides), else the local table.
fn normalize_git_arg(subcommand: &str, arg: &str) -> Vec<String> {
    let line = format!(
        "git {} {}",
        crate::decode::shell::quote_word(subcommand),
        crate::decode::shell::quote_word(arg)
    );
    let parsed = crate::decode::shell::parse_line(&line);
    match parsed.commands.first().and_then(|c| c.git.as_ref()) {
        Some(g) if g.subcommand == subcommand && !g.flags.is_empty() => g.flags.clone(),
        _ => gitflags::normalize_flags(subcommand, arg),
    }
}

/// `./docs/**` and `docs/**` are the same glob.
fn normalize_path_glob(pat: &str) -> String {
    let mut s = pat;
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    s.to_string()
}
