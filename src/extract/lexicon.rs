//! The extraction and scope lexicon: data (phrases → predicates, words and
//! paths → scope tags), shipped as a default file, overridable by config.
//!
//! The default lives in `default-lexicon.yaml` beside this file (compiled in);
//! `docs/constraints.md` documents the format. A configured lexicon
//! ([`LexiconFile`], the `lexicon:` key of `.skillgate.yaml`) adds entries to
//! the built-in ones, or replaces them with `replace: true`.

use super::constraint::ScopeTag;
use super::predicate::Predicate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The default lexicon, as shipped.
pub const DEFAULT_LEXICON: &str = include_str!("default-lexicon.yaml");

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
    pub phrases: Vec<PhraseEntry>,
    /// Word / path / command → scope-tag entries.
    #[serde(default)]
    pub scopes: Vec<ScopeEntry>,
    /// Verbs that, next to a path, say what is done to it (`edit` → `touch`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub path_verbs: BTreeMap<PathAction, Vec<String>>,
    /// First words that make a backticked span a shell command (`git`, `npm`…).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command_words: Vec<String>,
    /// Names of programs that, written as plain words ("Poetry", "mypy"),
    /// mean running that program when a rule forbids or avoids them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub program_words: Vec<String>,
    /// Verbs whose rules only produce text (`announce`, `tell`…): such a rule
    /// gets no behavior predicate, and scope words in it do not tag it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub speech_verbs: Vec<String>,
    /// Verbs that make a sentence or list item that starts with them an
    /// imperative rule (`run`, `use`, `delete`…).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imperatives: Vec<String>,
    /// The agent harnesses' own tools (`TodoWrite`, `AskUserQuestion`…): a
    /// code span naming one is that tool, where a rule need not say "tool".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_names: Vec<String>,
}

/// One phrase entry: when any pattern of `match` occurs in a rule, the rule
/// is about `action` (an action predicate) or, for `modifier`, about actions
/// done under a condition (`{branch: main}`) that is combined with the rule's
/// action by `all`. An entry with only `match` is a stop phrase: it means
/// nothing, and hides the shorter phrases and scope words inside it
/// ("push back" is not a push).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhraseEntry {
    /// Phrase patterns: words (case-insensitive), `word*` for a prefix,
    /// `a|b` for alternatives, `...` for up to three words of anything.
    #[serde(rename = "match")]
    pub patterns: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Predicate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modifier: Option<Predicate>,
    /// `false`: the action is a trigger or a forbidden act, never something a
    /// rule requires (editing code satisfies no rule by itself).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub requirable: bool,
    /// Scope tags a rule about this phrase gets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope: Vec<ScopeTag>,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// Words, commands and paths that put a rule in a scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopeEntry {
    pub tag: ScopeTag,
    /// Phrase patterns (same syntax as `phrases`), matched in a rule's words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<String>,
    /// Globs over a command's text (`git push*`, `gh pr merge*`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<String>,
    /// Path globs (`.claude/skills/**`, `**/.env*`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Globs over a tool call's name, for tools that act without a shell
    /// (`*merge_pull_request` matches the GitHub MCP server's
    /// `mcp__github__merge_pull_request`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
}

/// What a verb next to a path does to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathAction {
    Read,
    Write,
    Edit,
    Delete,
    Touch,
}

impl PathAction {
    /// The predicate for this action on a glob.
    pub fn predicate(self, glob: String) -> Predicate {
        match self {
            PathAction::Read => Predicate::Read(glob),
            PathAction::Write => Predicate::Write(glob),
            PathAction::Edit => Predicate::Edit(glob),
            PathAction::Delete => Predicate::Delete(glob),
            PathAction::Touch => Predicate::Touch(glob),
        }
    }
}

/// One token of a compiled phrase pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PatTok {
    /// Alternatives: (word, is_prefix).
    Word(Vec<(String, bool)>),
    /// Up to this many words of anything (not across a barrier).
    Gap(usize),
}

/// A compiled phrase pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    source: String,
    toks: Vec<PatTok>,
}

impl Pattern {
    /// How many words the pattern names (its gaps left out): of two
    /// patterns that match the same words, the one naming more is the more
    /// specific ("write … memory file" over "write … file").
    pub fn words_named(&self) -> usize {
        self.toks
            .iter()
            .filter(|t| matches!(t, PatTok::Word(_)))
            .count()
    }

    /// Compile a pattern; an error says what is wrong with it.
    pub fn parse(src: &str) -> Result<Pattern, String> {
        let mut toks = Vec::new();
        for raw in src.split_whitespace() {
            if raw == "..." {
                if toks.is_empty() {
                    return Err(format!("pattern {src:?} cannot start with `...`"));
                }
                toks.push(PatTok::Gap(MAX_GAP));
                continue;
            }
            // Split like the text tokenizer (`force-push` is two words), but
            // keep `|` alternatives and `*` prefixes inside one token.
            let mut pieces: Vec<String> = vec![String::new()];
            for c in raw.chars() {
                if c == '|' || c == '*' || c == '\'' || is_word_char(c) {
                    pieces
                        .last_mut()
                        .expect("non-empty")
                        .push(c.to_ascii_lowercase());
                } else if !pieces.last().expect("non-empty").is_empty() {
                    pieces.push(String::new());
                }
            }
            // `re-read|read` would be "re" then "read|…": an alternative
            // of two words never matches what its author meant.
            if raw.contains('|') && pieces.iter().filter(|p| !p.is_empty()).count() > 1 {
                return Err(format!(
                    "pattern {src:?}: in {raw:?} an alternative holds two words; alternatives are single words (write a two-word alternative as a pattern of its own)"
                ));
            }
            for piece in pieces.into_iter().filter(|p| !p.is_empty()) {
                let mut alts = Vec::new();
                for alt in piece.split('|') {
                    let (w, prefix) = match alt.strip_suffix('*') {
                        Some(w) => (w, true),
                        None => (alt, false),
                    };
                    if w.is_empty() || w.contains('*') {
                        return Err(format!("pattern {src:?}: {alt:?} is not a word or `word*`"));
                    }
                    alts.push((w.to_string(), prefix));
                }
                toks.push(PatTok::Word(alts));
            }
        }
        if matches!(toks.last(), Some(PatTok::Gap(_))) {
            return Err(format!("pattern {src:?} cannot end with `...`"));
        }
        if toks.is_empty() {
            return Err(format!("pattern {src:?} has no words"));
        }
        let gaps = toks.iter().filter(|t| matches!(t, PatTok::Gap(_))).count();
        if gaps > MAX_GAPS {
            return Err(format!(
                "pattern {src:?} has {gaps} `...` gaps; at most {MAX_GAPS} are allowed"
            ));
        }
        if toks.len() > MAX_PATTERN_TOKENS {
            return Err(format!(
                "pattern {src:?} has {} words and gaps; at most {MAX_PATTERN_TOKENS} are allowed",
                toks.len()
            ));
        }
        Ok(Pattern {
            source: src.to_string(),
            toks,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Every match in `words` as (first, last) token index, leftmost first,
    /// non-overlapping.
    ///
    /// Matching is a memoised search over (word, pattern token): each pair is
    /// decided once, so a pattern of `t` tokens and `g` gaps costs
    /// O(words × t × (MAX_GAP + 1)) however many gaps it has — never the
    /// exponential backtracking of trying every gap length at every gap.
    pub fn find_all(&self, words: &[Word]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut memo = Memo::new(words.len(), self.toks.len());
        let mut i = 0;
        while i < words.len() {
            if words[i].joined {
                i += 1;
                continue;
            }
            if let Some(end) = self.match_at(words, i, 0, &mut memo) {
                out.push((i, end));
                i = end + 1;
            } else {
                i += 1;
            }
        }
        out
    }

    /// The end of the first match of tokens `t..` starting at word `at`
    /// (gaps tried shortest first), memoised per (at, t).
    fn match_at(&self, words: &[Word], at: usize, t: usize, memo: &mut Memo) -> Option<usize> {
        if let Some(known) = memo.get(at, t) {
            return known;
        }
        let found = match self.toks.get(t)? {
            PatTok::Word(alts) => {
                let ok = words.get(at).is_some_and(|w| {
                    !w.barrier
                        && alts.iter().any(|(a, p)| {
                            if *p {
                                w.text.starts_with(a.as_str())
                            } else {
                                w.text == *a
                            }
                        })
                });
                if !ok {
                    None
                } else if t + 1 == self.toks.len() {
                    Some(at)
                } else {
                    self.match_at(words, at + 1, t + 1, memo)
                }
            }
            PatTok::Gap(max) => {
                let mut found = None;
                for skip in 0..=*max {
                    if skip > 0
                        && words
                            .get(at + skip - 1)
                            .is_none_or(|w| w.barrier || is_clause_break(&w.text))
                    {
                        break;
                    }
                    if let Some(end) = self.match_at(words, at + skip, t + 1, memo) {
                        found = Some(end);
                        break;
                    }
                }
                found
            }
        };
        memo.set(at, t, found);
        found
    }
}

/// Most words one `...` gap skips.
pub const MAX_GAP: usize = 3;
/// Most `...` gaps in one pattern (real phrases use one or two).
pub const MAX_GAPS: usize = 6;
/// Most words (and gaps) in one pattern.
pub const MAX_PATTERN_TOKENS: usize = 32;

/// Decided (word, token) pairs of one `find_all` call.
struct Memo {
    toks: usize,
    cells: Vec<Option<Option<usize>>>,
}

impl Memo {
    fn new(words: usize, toks: usize) -> Memo {
        Memo {
            toks,
            cells: vec![None; (words + MAX_GAP + 2) * toks.max(1)],
        }
    }
    fn get(&self, at: usize, t: usize) -> Option<Option<usize>> {
        self.cells.get(at * self.toks + t).copied().flatten()
    }
    fn set(&mut self, at: usize, t: usize, v: Option<usize>) {
        if let Some(c) = self.cells.get_mut(at * self.toks + t) {
            *c = Some(v);
        }
    }
}

/// A word of a rule's text, lowercased; a barrier stands for removed text
/// (a code span, a quotation) that patterns may not match across.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub barrier: bool,
    /// Glued to the previous word by a hyphen (`commit` in `pre-commit`):
    /// a pattern may continue through it but not start on it.
    pub joined: bool,
}

/// Words a `...` gap does not skip: they start another clause
/// ("write code *before* the test" is not "write the test").
fn is_clause_break(w: &str) -> bool {
    matches!(
        w,
        "before"
            | "after"
            | "without"
            | "until"
            | "unless"
            | "if"
            | "when"
            | "while"
            | "than"
            | "but"
            | "then"
            | "instead"
    )
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Split text into lowercase words (letters, digits, `_`, inner apostrophes).
/// The characters just before `end` spell `word` (case-insensitively).
fn text_before_is(chars: &[char], end: usize, word: &str) -> bool {
    let n = word.chars().count();
    end >= n
        && chars[end - n..end]
            .iter()
            .flat_map(|c| c.to_lowercase())
            .eq(word.chars())
}

pub fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_joined = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let c = if c == '’' { '\'' } else { c };
        let inner_apostrophe =
            c == '\'' && !cur.is_empty() && chars.get(i + 1).is_some_and(|n| n.is_alphabetic());
        if is_word_char(c) || inner_apostrophe {
            if cur.is_empty() {
                // A verb after a prefix ("re-run", "force-delete") is a word
                // of its own; after a noun ("pre-commit") it is glued.
                cur_joined = i >= 2
                    && chars[i - 1] == '-'
                    && is_word_char(chars[i - 2])
                    && !out.last().is_some_and(|w: &Word| {
                        !w.barrier
                            && matches!(w.text.as_str(), "re" | "force" | "double" | "cross")
                            && text_before_is(&chars, i - 1, &w.text)
                    });
            }
            cur.extend(c.to_lowercase());
        } else if c == '\u{1}' {
            if !cur.is_empty() {
                out.push(Word {
                    text: std::mem::take(&mut cur),
                    barrier: false,
                    joined: cur_joined,
                });
            }
            out.push(Word {
                text: String::new(),
                barrier: true,
                joined: false,
            });
        } else if !cur.is_empty() {
            out.push(Word {
                text: std::mem::take(&mut cur),
                barrier: false,
                joined: cur_joined,
            });
        }
    }
    if !cur.is_empty() {
        out.push(Word {
            text: cur,
            barrier: false,
            joined: cur_joined,
        });
    }
    out
}

/// A compiled phrase entry.
#[derive(Debug, Clone)]
pub struct Phrase {
    pub patterns: Vec<Pattern>,
    pub action: Option<Predicate>,
    pub modifier: Option<Predicate>,
    pub requirable: bool,
    pub scope: Vec<ScopeTag>,
}

impl Phrase {
    /// A stop phrase: it only hides what it contains.
    pub fn is_stop(&self) -> bool {
        self.action.is_none() && self.modifier.is_none() && self.scope.is_empty()
    }
}

/// A compiled scope entry.
#[derive(Debug, Clone)]
pub struct Scope {
    pub tag: ScopeTag,
    pub words: Vec<Pattern>,
    pub commands: globset::GlobSet,
    pub paths: globset::GlobSet,
    pub tools: globset::GlobSet,
}

/// The lexicon used by extraction.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    pub phrases: Vec<Phrase>,
    pub scopes: Vec<Scope>,
    pub path_verbs: Vec<(String, PathAction)>,
    pub command_words: Vec<String>,
    pub program_words: Vec<String>,
    pub speech_verbs: Vec<String>,
    pub imperatives: Vec<String>,
    pub tool_names: Vec<String>,
    /// Tools the skill itself lists under a tools heading ("## Available
    /// MCP Tools" / "### `list_secrets`"), called by their bare names.
    pub skill_tools: Vec<String>,
}

impl Lexicon {
    /// The built-in default lexicon.
    pub fn builtin() -> Self {
        // The shipped file is tested (`the_default_lexicon_compiles`), so a
        // failure here is a build defect, not bad input.
        Lexicon::compile(&Self::builtin_file()).expect("the shipped default lexicon is valid")
    }

    /// The built-in lexicon as data (what `skillgate config` can print).
    pub fn builtin_file() -> LexiconFile {
        yaml_serde::from_str(DEFAULT_LEXICON).expect("the shipped default lexicon parses")
    }

    /// The scope entries of the built-in lexicon as data: only the
    /// top-level `scopes:` section of the shipped file is parsed (the whole
    /// file's phrases and predicates cost ~14 M instructions to parse).
    fn builtin_scope_entries() -> Vec<ScopeEntry> {
        #[derive(Deserialize)]
        struct ScopesOnly {
            scopes: Vec<ScopeEntry>,
        }
        let text = DEFAULT_LEXICON;
        let start = text
            .find("\nscopes:")
            .map(|i| i + 1)
            .expect("the shipped default lexicon has scopes");
        // the section ends at the next top-level key
        let end = text[start..]
            .match_indices('\n')
            .map(|(i, _)| start + i + 1)
            .find(|&i| text[i..].starts_with(|c: char| c.is_ascii_alphabetic()))
            .unwrap_or(text.len());
        let only: ScopesOnly =
            yaml_serde::from_str(&text[start..end]).expect("the shipped default lexicon parses");
        only.scopes
    }

    /// The built-in lexicon's scopes, compiled once per process.
    pub fn builtin_scopes() -> &'static [Scope] {
        static SCOPES: std::sync::OnceLock<Vec<Scope>> = std::sync::OnceLock::new();
        SCOPES.get_or_init(|| {
            // tested with the whole lexicon (`the_default_lexicon_compiles`)
            compile_scopes(&Self::builtin_scope_entries())
                .expect("the shipped default lexicon is valid")
        })
    }

    /// The scopes of [`Lexicon::with_overrides`] without its phrases (what
    /// the gate needs for skills that have a lockfile), with the same errors:
    /// the configured entries are compiled whole first, as there.
    pub fn scopes_with_overrides(file: &LexiconFile) -> Result<Vec<Scope>, String> {
        if *file == LexiconFile::default() {
            return Ok(Self::builtin_scopes().to_vec());
        }
        let own = Lexicon::compile(file)?;
        if file.replace {
            return Ok(own.scopes);
        }
        let mut scopes = Self::builtin_scopes().to_vec();
        scopes.extend(own.scopes);
        Ok(scopes)
    }

    /// Fails as [`Lexicon::with_overrides`] does on the same file, without
    /// compiling the built-in entries (which are valid).
    pub fn check_overrides(file: &LexiconFile) -> Result<(), String> {
        if *file == LexiconFile::default() {
            return Ok(());
        }
        Lexicon::compile(file).map(drop)
    }

    /// The built-in lexicon extended (or replaced) by a configured one.
    /// Compiled once per process for the same configuration (the gate and
    /// its proposals both ask; compiling costs ~75 M instructions).
    pub fn with_overrides(file: &LexiconFile) -> Result<Self, String> {
        use std::sync::{Mutex, OnceLock};
        type Cache = Mutex<Vec<(LexiconFile, Result<Lexicon, String>)>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        if let Some((_, l)) = cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(f, _)| f == file)
        {
            return l.clone();
        }
        let l = Self::with_overrides_uncached(file);
        let mut v = cache.lock().unwrap_or_else(|e| e.into_inner());
        if v.len() >= 8 {
            v.drain(..1);
        }
        v.push((file.clone(), l.clone()));
        l
    }

    fn with_overrides_uncached(file: &LexiconFile) -> Result<Self, String> {
        // Validate the configured entries alone first, so an error names
        // the entry's index in the configuration, not in the merged list.
        let own = Lexicon::compile(file)?;
        if file.replace {
            return Ok(own);
        }
        let mut merged = Self::builtin_file();
        merged.phrases.extend(file.phrases.iter().cloned());
        merged.scopes.extend(file.scopes.iter().cloned());
        for (action, verbs) in &file.path_verbs {
            merged
                .path_verbs
                .entry(*action)
                .or_default()
                .extend(verbs.iter().cloned());
        }
        merged
            .command_words
            .extend(file.command_words.iter().cloned());
        merged
            .program_words
            .extend(file.program_words.iter().cloned());
        merged
            .speech_verbs
            .extend(file.speech_verbs.iter().cloned());
        merged.imperatives.extend(file.imperatives.iter().cloned());
        merged.tool_names.extend(file.tool_names.iter().cloned());
        Lexicon::compile(&merged)
    }

    /// Compile a lexicon file; errors name the entry (`phrases[3]`, `scopes[0].paths`).
    pub fn compile(file: &LexiconFile) -> Result<Self, String> {
        let mut phrases = Vec::new();
        for (i, e) in file.phrases.iter().enumerate() {
            let at = format!("lexicon phrases[{i}]");
            if e.patterns.is_empty() {
                return Err(format!("{at}: `match` lists no phrase"));
            }
            let patterns = e
                .patterns
                .iter()
                .map(|p| Pattern::parse(p).map_err(|m| format!("{at}: {m}")))
                .collect::<Result<Vec<_>, _>>()?;
            if let Some(a) = &e.action {
                a.validate().map_err(|m| format!("{at}.action: {m}"))?;
            }
            if let Some(m) = &e.modifier {
                // A modifier is valid where the extractor puts it: inside `all`.
                Predicate::All(vec![Predicate::Tool("*".into()), m.clone()])
                    .validate()
                    .map_err(|msg| format!("{at}.modifier: {msg}"))?;
            }
            phrases.push(Phrase {
                patterns,
                action: e.action.clone(),
                modifier: e.modifier.clone(),
                requirable: e.requirable,
                scope: e.scope.clone(),
            });
        }
        let scopes = compile_scopes(&file.scopes)?;
        let mut path_verbs = Vec::new();
        for (action, verbs) in &file.path_verbs {
            for v in verbs {
                path_verbs.push((v.to_lowercase(), *action));
            }
        }
        let lower = |v: &[String]| v.iter().map(|s| s.to_lowercase()).collect::<Vec<_>>();
        Ok(Lexicon {
            phrases,
            scopes,
            path_verbs,
            command_words: lower(&file.command_words),
            program_words: lower(&file.program_words),
            speech_verbs: lower(&file.speech_verbs),
            imperatives: lower(&file.imperatives),
            tool_names: file.tool_names.clone(),
            skill_tools: Vec::new(),
        })
    }

    /// What a verb does to a path, if it is a path verb (`edits` → touch).
    pub fn path_action(&self, verb: &str) -> Option<PathAction> {
        self.path_verbs
            .iter()
            .find(|(v, _)| verb_matches(verb, v))
            .map(|(_, a)| *a)
    }

    /// A speech verb (`announce`, `tells`)?
    pub fn is_speech(&self, verb: &str) -> bool {
        self.speech_verbs.iter().any(|v| verb_matches(verb, v))
    }

    /// An imperative verb, in its base form?
    pub fn is_imperative(&self, word: &str) -> bool {
        self.imperatives.iter().any(|v| v == word)
    }

    /// A harness's own tool, by its exact name (`TodoWrite`)?
    /// A tool the skill lists as its own (an MCP server's, by bare name)?
    pub fn is_skill_tool(&self, name: &str) -> bool {
        self.skill_tools.iter().any(|t| t == name)
    }

    pub fn is_harness_tool(&self, name: &str) -> bool {
        self.tool_names.iter().any(|t| t == name)
    }

    /// A plain word that names a program (`poetry`, `mypy`)?
    pub fn is_program_word(&self, word: &str) -> bool {
        self.program_words.iter().any(|v| v == word)
    }

    /// A first word that makes a code span a command?
    pub fn is_command_word(&self, word: &str) -> bool {
        self.command_words.iter().any(|v| v == word)
    }
}

/// Compile scope entries; errors name the entry (`scopes[0].paths`).
fn compile_scopes(entries: &[ScopeEntry]) -> Result<Vec<Scope>, String> {
    let mut scopes = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let at = format!("lexicon scopes[{i}]");
        let words = e
            .words
            .iter()
            .map(|p| Pattern::parse(p).map_err(|m| format!("{at}.words: {m}")))
            .collect::<Result<Vec<_>, _>>()?;
        scopes.push(Scope {
            tag: e.tag,
            words,
            commands: globs(&e.commands, false).map_err(|m| format!("{at}.commands: {m}"))?,
            paths: globs(&e.paths, true).map_err(|m| format!("{at}.paths: {m}"))?,
            tools: globs(&e.tools, false).map_err(|m| format!("{at}.tools: {m}"))?,
        });
    }
    Ok(scopes)
}

/// `word` is `base` or an inflection of it (edits, editing, edited; writes, writing).
pub fn verb_matches(word: &str, base: &str) -> bool {
    if word == base {
        return true;
    }
    let stem = base.strip_suffix('e').unwrap_or(base);
    match word.strip_prefix(base).or_else(|| word.strip_prefix(stem)) {
        Some(rest) => {
            matches!(rest, "s" | "es" | "ed" | "d" | "ing")
                || (rest.len() >= 3
                    && rest[1..].starts_with("ing")
                    && rest.as_bytes()[0] == *base.as_bytes().last().unwrap_or(&0))
                || (rest.len() >= 2
                    && rest[1..].starts_with("ed")
                    && rest.as_bytes()[0] == *base.as_bytes().last().unwrap_or(&0))
        }
        None => false,
    }
}

fn globs(list: &[String], paths: bool) -> Result<globset::GlobSet, String> {
    let mut b = globset::GlobSetBuilder::new();
    for g in list {
        let glob = globset::GlobBuilder::new(g)
            .literal_separator(paths)
            .case_insensitive(!paths)
            .build()
            .map_err(|e| format!("{g:?} is not a valid glob: {}", e.kind()))?;
        b.add(glob);
    }
    b.build().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a compiled scope is made of, comparable.
    fn shape(scopes: &[Scope]) -> Vec<(ScopeTag, Vec<String>, usize, usize)> {
        scopes
            .iter()
            .map(|s| {
                let words = s.words.iter().map(|p| p.as_str().to_string()).collect();
                (s.tag, words, s.commands.len(), s.paths.len())
            })
            .collect()
    }

    #[test]
    fn the_scopes_alone_are_the_whole_lexicons_scopes() {
        assert_eq!(
            Lexicon::builtin_scope_entries(),
            Lexicon::builtin_file().scopes
        );
        let configured = |replace: bool, scopes: &str, phrases: &str| LexiconFile {
            replace,
            scopes: yaml_serde::from_str(scopes).unwrap(),
            phrases: yaml_serde::from_str(phrases).unwrap(),
            ..LexiconFile::default()
        };
        let good_phrase = "[{match: [ship it], action: {git: push}}]";
        let files = [
            LexiconFile::default(),
            configured(
                false,
                "[{tag: shared-repo-state, commands: ['deploy *']}]",
                "[]",
            ),
            configured(
                true,
                "[{tag: sensitive-memory, paths: ['**/*.key'], words: [vault]}]",
                good_phrase,
            ),
            configured(false, "[]", good_phrase),
            configured(false, "[{tag: shared-repo-state, paths: ['a[']}]", "[]"),
            configured(true, "[{tag: shared-repo-state, words: ['']}]", "[]"),
            configured(false, "[]", "[{match: []}]"),
            configured(false, "[]", "[{match: [x], action: {command_re: '('}}]"),
        ];
        for file in &files {
            let whole = Lexicon::with_overrides(file);
            let scopes = Lexicon::scopes_with_overrides(file);
            match (&whole, &scopes) {
                (Ok(w), Ok(s)) => assert_eq!(shape(&w.scopes), shape(s), "{file:?}"),
                (Err(a), Err(b)) => assert_eq!(a, b),
                _ => panic!("{file:?}: {:?} vs {:?}", whole.is_ok(), scopes.is_ok()),
            }
            assert_eq!(
                Lexicon::check_overrides(file),
                whole.as_ref().map(drop).map_err(Clone::clone)
            );
        }
        assert!(Lexicon::check_overrides(&files[4]).is_err());
        assert!(Lexicon::check_overrides(&files[7]).is_err());
    }

    #[test]
    fn the_default_lexicon_compiles() {
        let file: LexiconFile = yaml_serde::from_str(DEFAULT_LEXICON).unwrap();
        let lex = Lexicon::compile(&file).unwrap();
        assert!(lex.phrases.len() > 20);
        assert_eq!(
            lex.scopes
                .iter()
                .map(|s| s.tag)
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            3
        );
        assert_eq!(lex.path_action("edit"), Some(PathAction::Touch));
        assert!(lex.is_speech("announce"));
        assert!(lex.is_imperative("run"));
    }

    #[test]
    fn an_alternative_of_two_words_is_an_error() {
        let e = Pattern::parse("read|re-read ... files").unwrap_err();
        assert!(e.contains("alternatives are single words"), "{e}");
        assert!(Pattern::parse("force-push ... main").is_ok());
    }

    #[test]
    fn patterns_match_words_prefixes_alternatives_and_gaps() {
        let p = Pattern::parse("force-push*").unwrap();
        assert_eq!(
            p.find_all(&words("Never force-pushing to main")),
            vec![(1, 2)]
        );
        let p = Pattern::parse("activat* ... virtual env*|venv*").unwrap();
        assert_eq!(
            p.find_all(&words(
                "Never manually activate or manage virtual environments"
            )),
            vec![(2, 6)]
        );
        assert!(p
            .find_all(&words("activate the x y z w virtual env"))
            .is_empty());
        // A barrier (removed code span) stops a gap.
        assert!(p.find_all(&words("activate \u{1} virtual env")).is_empty());
        // Nor does a clause word.
        let p = Pattern::parse("writ* ... test").unwrap();
        assert!(p.find_all(&words("Write code before the test")).is_empty());
        assert!(Pattern::parse("... x").is_err());
        assert!(Pattern::parse("x ...").is_err());
        assert!(Pattern::parse("a*b").is_err());
        assert_eq!(words("Don’t run `x`")[0].text, "don't");
        // `commit` inside `pre-commit` is not the word commit.
        let p = Pattern::parse("commit").unwrap();
        assert!(p.find_all(&words("use pre-commit hooks")).is_empty());
        assert_eq!(p.find_all(&words("never commit")), vec![(1, 1)]);
    }

    #[test]
    fn many_gaps_match_in_polynomial_time_and_too_many_are_refused() {
        // Six gaps (the cap) against a long sentence that almost matches:
        // backtracking tried 4^6 gap lengths at each of thousands of starts.
        let pat = "a ... a ... a ... a ... a ... a ... b";
        let p = Pattern::parse(pat).unwrap();
        let long = vec!["a"; 20_000].join(" ");
        let w = words(&long);
        let t = std::time::Instant::now();
        assert!(p.find_all(&w).is_empty());
        let mut hit = long.clone();
        hit.push_str(" b");
        assert_eq!(p.find_all(&words(&hit)).len(), 1);
        assert!(
            t.elapsed() < std::time::Duration::from_secs(2),
            "took {:?}",
            t.elapsed()
        );
        // The memo keeps the old answer: the shortest gaps first.
        let p = Pattern::parse("run ... tests").unwrap();
        assert_eq!(p.find_all(&words("run the tests tests")), vec![(0, 2)]);
        // More gaps than the cap, or an over-long pattern: a clear error.
        let e = Pattern::parse("a ... b ... c ... d ... e ... f ... g ... h").unwrap_err();
        assert!(e.contains("7 `...` gaps; at most 6"), "{e}");
        let e = Pattern::parse(&vec!["w"; 40].join(" ")).unwrap_err();
        assert!(e.contains("at most 32"), "{e}");
    }

    #[test]
    fn verbs_match_their_inflections() {
        assert!(verb_matches("edits", "edit"));
        assert!(verb_matches("editing", "edit"));
        assert!(verb_matches("writing", "write"));
        assert!(verb_matches("committing", "commit"));
        assert!(verb_matches("deleted", "delete"));
        assert!(!verb_matches("editor", "edit"));
    }

    #[test]
    fn overrides_add_or_replace_and_errors_name_the_entry() {
        let base = Lexicon::builtin().phrases.len();
        let add: LexiconFile = yaml_serde::from_str(
            "phrases:\n  - match: [\"deploy* ... production\"]\n    action: {command: \"kubectl apply*\"}\n    scope: [shared-repo-state]\n",
        )
        .unwrap();
        assert_eq!(
            Lexicon::with_overrides(&add).unwrap().phrases.len(),
            base + 1
        );
        let replace = LexiconFile {
            replace: true,
            ..add.clone()
        };
        assert_eq!(Lexicon::with_overrides(&replace).unwrap().phrases.len(), 1);
        let bad: LexiconFile =
            yaml_serde::from_str("phrases:\n  - match: [x]\n    action: {touch: \"[\"}\n").unwrap();
        let e = Lexicon::with_overrides(&bad).unwrap_err();
        assert!(
            e.contains("phrases[") && e.contains("not a valid glob"),
            "{e}"
        );
        assert!(yaml_serde::from_str::<LexiconFile>("phrase: []").is_err());
    }
}
