//! redact: secrets in a text → `[REDACTED:<rule>]` (issue #19 point 11).
//!
//! One redactor for every place skillgate keeps or shows session text: the
//! doctor's excerpts and `capture`'s commands, paths and full transcripts.
//! A pure function: no I/O, no clock, no environment.
//!
//! The order of work on one text:
//! 1. invisible characters are normalised ([`normalize_invisible`]): zero-width
//!    spaces, joiners, soft hyphens, bidi controls and tag characters are
//!    removed and exotic spaces become a plain space, so `pass\u{200B}word=…`
//!    is seen as `password=…`;
//! 2. skillgate's own rules ([`rules::CORE_RULES`], then [`rules::EXTRA_RULES`]);
//! 3. gitleaks' maintained default rule set, vendored ([`gitleaks`]);
//! 4. entropy rules for what no shape caught ([`rules::ENTROPY_RULES`]).
//!
//! Each rule replaces only its secret (a pair keeps its key visible) and never
//! touches a marker an earlier rule wrote. When nothing is found the text is
//! returned unchanged (invisible characters included); when something is,
//! the result is the normalised text with the secrets replaced.

pub mod gitleaks;
pub mod rules;

pub use rules::{Check, Rule, CORE_RULES, ENTROPY_RULES, EXTRA_RULES};

use regex::{Regex, RegexSet};
use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

/// The marker prefix of a replaced secret.
pub const MARKER: &str = "[REDACTED:";

/// A redacted text and the rules that fired, one entry per replaced secret.
#[derive(Debug, Clone, PartialEq)]
pub struct Redacted<'a> {
    pub text: Cow<'a, str>,
    pub hits: Vec<&'static str>,
}

impl Redacted<'_> {
    /// How many secrets were replaced.
    pub fn count(&self) -> usize {
        self.hits.len()
    }
}

/// Replace every secret in `text`.
pub fn redact(text: &str) -> String {
    redact_counted(text).text.into_owned()
}

/// True for characters that render as nothing (or nearly): removed before matching.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206F}'
        | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E007F}')
}

/// Unicode spaces that look like a plain space.
fn is_exotic_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Remove invisible characters and turn exotic spaces into plain spaces.
pub fn normalize_invisible(text: &str) -> Cow<'_, str> {
    if text.is_ascii() || !text.chars().any(|c| is_invisible(c) || is_exotic_space(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .filter(|c| !is_invisible(*c))
            .map(|c| if is_exotic_space(c) { ' ' } else { c })
            .collect(),
    )
}

/// skillgate's own rules in application order, compiled once, plus a set that
/// tells in one pass which of them can match at all.
struct Own {
    rules: Vec<(&'static Rule, Regex)>,
    set: RegexSet,
    /// Index in `rules` where the entropy rules start (they run after gitleaks).
    entropy_from: usize,
}

fn own() -> &'static Own {
    static CELL: OnceLock<Own> = OnceLock::new();
    CELL.get_or_init(|| {
        let all: Vec<&'static Rule> = CORE_RULES
            .iter()
            .chain(EXTRA_RULES)
            .chain(ENTROPY_RULES)
            .collect();
        let rules = all
            .iter()
            .map(|r| {
                (
                    *r,
                    Regex::new(r.pattern).expect("redaction patterns are valid (tested)"),
                )
            })
            .collect();
        let set =
            RegexSet::new(all.iter().map(|r| r.pattern)).expect("redaction patterns are valid");
        Own {
            rules,
            set,
            entropy_from: CORE_RULES.len() + EXTRA_RULES.len(),
        }
    })
}

/// Byte ranges of the markers already in `text`.
fn markers(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = text[from..].find(MARKER) {
        let start = from + p;
        let end = text[start..]
            .find(']')
            .map_or(text.len(), |e| start + e + 1);
        out.push(start..end);
        from = end;
    }
    out
}

/// Replace `spans` (sorted, non-overlapping) by `[REDACTED:<kind>]`, skipping
/// spans that touch an existing marker. `None` when nothing was replaced.
fn replace(
    text: &str,
    spans: &[Range<usize>],
    kind: &'static str,
    hits: &mut Vec<&'static str>,
) -> Option<String> {
    if spans.is_empty() {
        return None;
    }
    let marks = markers(text);
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut any = false;
    for s in spans {
        if s.start < last || marks.iter().any(|m| m.start < s.end && s.start < m.end) {
            continue;
        }
        out.push_str(&text[last..s.start]);
        out.push_str(MARKER);
        out.push_str(kind);
        out.push(']');
        last = s.end;
        any = true;
        hits.push(kind);
    }
    if !any {
        return None;
    }
    out.push_str(&text[last..]);
    Some(out)
}

/// Strip one layer of matching quotes.
fn unquote(s: &str) -> &str {
    for q in ['"', '\''] {
        if s.len() >= 2 && s.starts_with(q) && s.ends_with(q) {
            return &s[1..s.len() - 1];
        }
    }
    s
}

fn is_placeholder(v: &str) -> bool {
    let v = unquote(v);
    let Some(rest) = v.strip_prefix('$') else {
        return v.is_empty();
    };
    let rest = rest
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .unwrap_or(rest);
    !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn passes(check: Check, secret: &str) -> bool {
    match check {
        Check::None => true,
        Check::NotPlaceholder => !is_placeholder(secret),
        Check::Random {
            min_len,
            min_entropy,
        } => {
            let v = unquote(secret);
            v.chars().count() >= min_len
                && !is_placeholder(v)
                && !v.chars().any(char::is_whitespace)
                && !v.contains("://")
                && !v.starts_with(['/', '.', '~'])
                && v.matches('/').count() < 3
                && v.bytes().any(|b| b.is_ascii_uppercase())
                && v.bytes().any(|b| b.is_ascii_lowercase())
                && v.bytes().any(|b| b.is_ascii_digit())
                && gitleaks::shannon_entropy(v) > min_entropy
        }
    }
}

fn own_spans(rule: &Rule, re: &Regex, text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for caps in re.captures_iter(text) {
        let m = match rule.group {
            None => caps.get(0),
            Some(g) => caps.get(g),
        };
        let Some(m) = m else { continue };
        if m.as_str().is_empty() || !passes(rule.check, m.as_str()) {
            continue;
        }
        out.push(m.range());
    }
    out
}

/// Redact `text`, saying which rules fired.
pub fn redact_counted(text: &str) -> Redacted<'_> {
    let norm = normalize_invisible(text);
    let own = own();
    let mut hits = Vec::new();
    let mut cur: Cow<str> = Cow::Borrowed(norm.as_ref());
    let may = own.set.matches(&cur);
    let run_own = |range: Range<usize>, cur: &mut Cow<str>, hits: &mut Vec<&'static str>| {
        for i in range {
            if !may.matched(i) {
                continue;
            }
            let (rule, re) = &own.rules[i];
            let spans = own_spans(rule, re, cur);
            if let Some(s) = replace(cur, &spans, rule.kind, hits) {
                *cur = Cow::Owned(s);
            }
        }
    };
    run_own(0..own.entropy_from, &mut cur, &mut hits);
    let gl = gitleaks::rules();
    for i in gl.candidates(&cur) {
        let spans = gl.find(i, &cur);
        if let Some(s) = replace(&cur, &spans, gl.rules[i].id, &mut hits) {
            cur = Cow::Owned(s);
        }
    }
    run_own(own.entropy_from..own.rules.len(), &mut cur, &mut hits);
    if hits.is_empty() {
        return Redacted {
            text: Cow::Borrowed(text),
            hits,
        };
    }
    Redacted {
        text: Cow::Owned(cur.into_owned()),
        hits,
    }
}

#[cfg(test)]
mod tests;
