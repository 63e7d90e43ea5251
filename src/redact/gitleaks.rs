//! gitleaks' default rule set, vendored (`src/redact/gitleaks.toml`, MIT,
//! `src/redact/gitleaks.LICENSE`; refreshed by `scripts/refresh-gitleaks.sh`).
//!
//! What gitleaks does with a rule, and what is kept here:
//! - `keywords`: a rule runs only on text containing one of them
//!   (case-insensitive). One Aho-Corasick automaton finds them all in one pass,
//!   so the cost per text is one scan plus the few rules whose keywords hit.
//! - `regex` and `secretGroup`: the secret is that group, else the first
//!   non-empty group, else the whole match; only the secret is replaced.
//! - `entropy`: the secret's Shannon entropy must exceed it (and a `generic*`
//!   rule's secret must hold a digit), as gitleaks checks.
//! - allowlists (global and per rule): `regexes` (against the secret, the match
//!   or the line, per `regexTarget`) and `stopwords`. `paths` and `commits`
//!   have nothing to match here (a command is not a file in a repository), so a
//!   rule scoped by `path` is skipped, and so is an allowlist that needs a path.
//! - A regex the Rust `regex` crate does not accept (Go syntax) is skipped too.
//!   Skipped rules are listed by [`skipped`] and counted in a test, never
//!   silently dropped.
//!
//! Each rule's regex is compiled the first time its keywords hit (most texts
//! need none of the 222), so loading costs one TOML parse (about a
//! millisecond) and one automaton build.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::Regex;
use serde::Deserialize;
use std::sync::OnceLock;

/// The vendored file, verbatim.
pub const TOML: &str = include_str!("gitleaks.toml");

#[derive(Debug, Deserialize)]
struct File {
    #[serde(default)]
    allowlist: Option<AllowDef>,
    #[serde(default)]
    rules: Vec<RuleDef>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuleDef {
    id: String,
    #[serde(default)]
    regex: Option<String>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    secret_group: usize,
    #[serde(default)]
    entropy: Option<f64>,
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    allowlists: Vec<AllowDef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AllowDef {
    #[serde(default)]
    condition: Option<String>,
    #[serde(default)]
    paths: Vec<String>,
    #[serde(default)]
    commits: Vec<String>,
    #[serde(default)]
    regex_target: Option<String>,
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

/// One usable allowlist.
#[derive(Debug)]
struct Allow {
    target: Target,
    regexes: Vec<Regex>,
    stopwords: Vec<String>,
}

impl Allow {
    /// True when this allowlist lets the finding go (gitleaks' OR condition).
    fn allows(&self, secret: &str, whole: &str, line: &str) -> bool {
        let t = match self.target {
            Target::Secret => secret,
            Target::Match => whole,
            Target::Line => line,
        };
        if self.regexes.iter().any(|r| r.is_match(t.as_bytes())) {
            return true;
        }
        if !self.stopwords.is_empty() {
            let lower = secret.to_ascii_lowercase();
            if self.stopwords.iter().any(|w| lower.contains(w.as_str())) {
                return true;
            }
        }
        false
    }
}

/// One vendored rule.
#[derive(Debug)]
pub struct Rule {
    /// gitleaks' rule id (kebab-case), used in `[REDACTED:<id>]`.
    pub id: &'static str,
    pattern: String,
    secret_group: usize,
    entropy: Option<f64>,
    allows: Vec<Allow>,
    regex: OnceLock<Option<Regex>>,
}

impl Rule {
    fn regex(&self) -> Option<&Regex> {
        self.regex
            .get_or_init(|| compile(&self.pattern).ok())
            .as_ref()
    }
}

/// Compile as Go's RE2 reads it: `\w`, `\s`, `\d`, `\b` and case folding
/// are ASCII-only there, so they are here (which also keeps the automata of
/// patterns like `[\w.-]{0,50}?` small and fast to build).
fn compile(pattern: &str) -> Result<Regex, regex::Error> {
    regex::bytes::RegexBuilder::new(&go_braces(pattern))
        .unicode(false)
        .size_limit(32 * 1024 * 1024)
        .build()
}

/// The loaded rule set.
pub struct RuleSet {
    pub rules: Vec<Rule>,
    /// Rules without keywords: run on every text.
    always: Vec<usize>,
    /// Keyword automaton; pattern i belongs to the rules `keyword_rules[i]`.
    keywords: AhoCorasick,
    keyword_rules: Vec<Vec<usize>>,
    global: Vec<Allow>,
    /// Rules not used, with the reason.
    pub skipped: Vec<(String, String)>,
}

fn allows(
    defs: Vec<AllowDef>,
    rule: &str,
    skipped_allow: &mut Vec<(String, String)>,
) -> Vec<Allow> {
    let mut out = Vec::new();
    for a in defs {
        let and = a
            .condition
            .as_deref()
            .is_some_and(|c| c.eq_ignore_ascii_case("and"));
        let needs_path = !a.paths.is_empty() || !a.commits.is_empty();
        if needs_path && (and || (a.regexes.is_empty() && a.stopwords.is_empty())) {
            // Only a path or commit could satisfy it: never here.
            continue;
        }
        let target = match a.regex_target.as_deref() {
            Some("match") => Target::Match,
            Some("line") => Target::Line,
            _ => Target::Secret,
        };
        let mut regexes = Vec::new();
        for r in &a.regexes {
            match compile(r) {
                Ok(re) => regexes.push(re),
                Err(_) => skipped_allow.push((
                    rule.to_string(),
                    format!("allowlist regex not accepted: {r}"),
                )),
            }
        }
        out.push(Allow {
            target,
            regexes,
            stopwords: a.stopwords.iter().map(|s| s.to_ascii_lowercase()).collect(),
        });
    }
    out
}

fn load() -> RuleSet {
    let file: File = toml::from_str(TOML).expect("the vendored gitleaks.toml parses (tested)");
    let mut skipped = Vec::new();
    let mut allow_problems = Vec::new();
    let global = allows(
        file.allowlist.into_iter().collect(),
        "(global)",
        &mut allow_problems,
    );
    let mut rules = Vec::new();
    let mut always = Vec::new();
    let mut kw_list: Vec<String> = Vec::new();
    let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
    for def in file.rules {
        if def.path.is_some() {
            skipped.push((def.id, "scoped to file paths".into()));
            continue;
        }
        let Some(pattern) = def.regex else {
            skipped.push((def.id, "no regex".into()));
            continue;
        };
        let idx = rules.len();
        if def.keywords.is_empty() {
            always.push(idx);
        }
        for k in &def.keywords {
            let k = k.to_ascii_lowercase();
            match kw_list.iter().position(|x| *x == k) {
                Some(p) => keyword_rules[p].push(idx),
                None => {
                    kw_list.push(k);
                    keyword_rules.push(vec![idx]);
                }
            }
        }
        let id: &'static str = Box::leak(def.id.into_boxed_str());
        let allows = allows(def.allowlists, id, &mut allow_problems);
        rules.push(Rule {
            id,
            pattern,
            secret_group: def.secret_group,
            entropy: def.entropy,
            allows,
            regex: OnceLock::new(),
        });
    }
    skipped.extend(allow_problems);
    let keywords = AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .build(&kw_list)
        .expect("keyword automaton builds");
    RuleSet {
        rules,
        always,
        keywords,
        keyword_rules,
        global,
        skipped,
    }
}

/// The rule set, loaded once.
pub fn rules() -> &'static RuleSet {
    static SET: OnceLock<RuleSet> = OnceLock::new();
    SET.get_or_init(load)
}

/// Rules not used here, with the reason (path-scoped rules, regexes the Rust
/// engine rejects). Compiles every regex: for tests and diagnostics.
pub fn skipped() -> Vec<(String, String)> {
    let set = rules();
    let mut out = set.skipped.clone();
    for r in &set.rules {
        if let Err(e) = compile(&r.pattern) {
            let first = e.to_string().lines().last().unwrap_or_default().to_string();
            out.push((
                r.id.to_string(),
                format!("regex not accepted by the Rust engine: {first}"),
            ));
        }
    }
    out
}

/// Shannon entropy in bits per character (gitleaks' definition).
pub fn shannon_entropy(s: &str) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let mut counts = std::collections::HashMap::<char, usize>::new();
    let mut n = 0usize;
    for c in s.chars() {
        *counts.entry(c).or_default() += 1;
        n += 1;
    }
    let n = n as f64;
    counts
        .values()
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

impl RuleSet {
    /// Indices of the rules worth running on `text`, in file order.
    pub fn candidates(&self, text: &str) -> Vec<usize> {
        let mut hit = vec![false; self.rules.len()];
        for i in &self.always {
            hit[*i] = true;
        }
        for m in self.keywords.find_overlapping_iter(text) {
            for r in &self.keyword_rules[m.pattern().as_usize()] {
                hit[*r] = true;
            }
        }
        hit.iter()
            .enumerate()
            .filter_map(|(i, h)| h.then_some(i))
            .collect()
    }

    /// The secret spans rule `i` finds in `text` (byte ranges), after
    /// entropy and allowlists.
    pub fn find(&self, i: usize, text: &str) -> Vec<std::ops::Range<usize>> {
        let rule = &self.rules[i];
        let Some(re) = rule.regex() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for caps in re.captures_iter(text.as_bytes()) {
            let whole = caps.get(0).expect("group 0");
            // ASCII classes can stop inside a multi-byte character: widen to
            // character boundaries.
            let whole = widen(text, whole.range());
            let secret = if rule.secret_group > 0 {
                caps.get(rule.secret_group)
            } else {
                (1..caps.len())
                    .filter_map(|g| caps.get(g))
                    .find(|m| !m.is_empty())
            }
            .map_or(whole.clone(), |m| widen(text, m.range()));
            let s = &text[secret.clone()];
            if s.is_empty() {
                continue;
            }
            if let Some(min) = rule.entropy {
                if shannon_entropy(s) <= min {
                    continue;
                }
                if rule.id.starts_with("generic") && !s.bytes().any(|b| b.is_ascii_digit()) {
                    continue;
                }
            }
            let line = line_of(text, whole.start, whole.end);
            let allowed = self
                .global
                .iter()
                .chain(rule.allows.iter())
                .any(|a| a.allows(s, &text[whole.clone()], line));
            if allowed {
                continue;
            }
            out.push(secret);
        }
        out
    }
}

/// Go reads a `{` that does not start a repetition (`{2}`, `{2,}`, `{2,5}`)
/// as a literal brace; Rust wants it escaped.
fn go_braces(pattern: &str) -> std::borrow::Cow<'_, str> {
    if !pattern.contains('{') {
        return pattern.into();
    }
    let b = pattern.as_bytes();
    let mut out = String::with_capacity(pattern.len() + 8);
    let (mut i, mut class) = (0, false);
    while i < b.len() {
        let c = b[i];
        match c {
            b'\\' => {
                let n = pattern[i + 1..].chars().next().map_or(0, char::len_utf8);
                out.push_str(&pattern[i..i + 1 + n]);
                i += 1 + n;
                continue;
            }
            b'[' if !class => {
                class = true;
                out.push('[');
                i += 1;
                // a leading `]` (or `^]`) is a literal member
                if b.get(i) == Some(&b'^') {
                    out.push('^');
                    i += 1;
                }
                if b.get(i) == Some(&b']') {
                    out.push(']');
                    i += 1;
                }
                continue;
            }
            b']' if class => class = false,
            b'{' if !class => {
                let rest = &pattern[i + 1..];
                let close = rest.find('}');
                let valid = close.is_some_and(|e| {
                    let inner = &rest[..e];
                    let (lo, hi) = inner.split_once(',').unwrap_or((inner, "0"));
                    !lo.is_empty()
                        && lo.bytes().all(|d| d.is_ascii_digit())
                        && hi.bytes().all(|d| d.is_ascii_digit())
                });
                if let (true, Some(e)) = (valid, close) {
                    out.push_str(&pattern[i..i + 2 + e]);
                    i += 2 + e;
                } else {
                    out.push_str("\\{");
                    i += 1;
                }
                continue;
            }
            b'}' if !class => {
                out.push_str("\\}");
                i += 1;
                continue;
            }
            _ => {}
        }
        let n = pattern[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&pattern[i..i + n]);
        i += n;
    }
    out.into()
}

/// `r` widened to the nearest character boundaries of `text`.
fn widen(text: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let mut start = r.start;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = r.end;
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// The line of `text` holding `start..end`.
fn line_of(text: &str, start: usize, end: usize) -> &str {
    let from = text[..start].rfind('\n').map_or(0, |p| p + 1);
    let to = text[end..].find('\n').map_or(text.len(), |p| end + p);
    &text[from..to]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendored_rules_load_and_skips_are_counted() {
        let set = rules();
        let skipped = skipped();
        // 222 rules in the vendored file: every one is either usable or listed.
        let unusable: std::collections::HashSet<&str> =
            skipped.iter().map(|(id, _)| id.as_str()).collect();
        let usable = set
            .rules
            .iter()
            .filter(|r| !unusable.contains(r.id))
            .count();
        // Only the five rules scoped to file paths (Terraform, Kubernetes
        // YAML, NuGet config, PKCS#12 files, Freemius PHP) are left out; a
        // refreshed file that brings an unusable regex fails here.
        assert_eq!(usable, 217, "{skipped:?}");
        assert_eq!(usable + skipped.len(), 222, "{skipped:?}");
        assert!(
            skipped.iter().all(|(_, why)| why == "scoped to file paths"),
            "{skipped:?}"
        );
    }

    #[test]
    #[ignore]
    fn compile_times() {
        for r in &rules().rules {
            let t = std::time::Instant::now();
            let ok = compile(&r.pattern).is_ok();
            let ms = t.elapsed().as_millis();
            if ms > 50 {
                eprintln!("{ms:>6} ms {} ok={ok}", r.id);
            }
        }
    }

    #[test]
    fn entropy_matches_gitleaks_definition() {
        assert_eq!(shannon_entropy(""), 0.0);
        assert_eq!(go_braces(r"^\${(?:[A-Z_]+)}$"), r"^\$\{(?:[A-Z_]+)\}$");
        assert_eq!(go_braces(r"a{2,5}[{}]b{3}"), r"a{2,5}[{}]b{3}");
        assert_eq!(shannon_entropy("aaaa"), 0.0);
        assert!((shannon_entropy("ab") - 1.0).abs() < 1e-9);
    }
}
