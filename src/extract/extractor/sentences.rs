//! Stage 1: sentences and groups. A paragraph's or item's text is split
//! into sentences (never inside code spans or quotes, never after an
//! abbreviation); a question opens a group as its condition, and short
//! sentences on one line join the rule before them.

use super::*;

/// Sentences of a paragraph or item, grouped: a question opens a group as
/// its condition ("Test fails? Fix code."), short sentences on the same line
/// join the rule before them ("Delete it. Start over.").
#[derive(Debug, Clone)]
pub(super) struct Group {
    pub(super) question: Option<String>,
    pub(super) sentences: Vec<String>,
    pub(super) full_text: String,
    pub(super) lines: [u32; 2],
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Group {
    pub(super) fn text_of(&self, body: &Lined) -> String {
        strip_emphasis(&body.text[self.start..self.end])
    }
}

pub(super) fn sentence_groups(body: &Lined, lex: &Lexicon) -> Vec<Group> {
    let spans = split_sentences(&body.text);
    let mut groups: Vec<Group> = Vec::new();
    let mut pending_q: Option<(usize, usize)> = None;
    for (start, end) in spans {
        let raw = &body.text[start..end];
        let s = strip_emphasis(raw);
        if s.trim().is_empty() {
            continue;
        }
        let is_q = s.trim_end().ends_with('?');
        let nwords = words(&s).len();
        if is_q && pending_q.is_none() {
            pending_q = Some((start, end));
            continue;
        }
        // "**The diff holds a secret** — stop and report it": a situation
        // in bold, then what to do in it; the situation is the condition.
        if let Some((situation, response)) = (start == 0 && pending_q.is_none())
            .then(|| bold_situation(raw, lex))
            .flatten()
        {
            groups.push(Group {
                question: Some(situation),
                sentences: vec![response],
                full_text: s,
                lines: [body.line_at(start), body.line_at(end.saturating_sub(1))],
                start,
                end,
            });
            continue;
        }
        if let Some((qs, qe)) = pending_q.take() {
            let q = strip_emphasis(&body.text[qs..qe]);
            groups.push(Group {
                question: Some(q),
                sentences: vec![s],
                full_text: strip_emphasis(&body.text[qs..end]),
                lines: [body.line_at(qs), body.line_at(end.saturating_sub(1))],
                start: qs,
                end,
            });
            continue;
        }
        if let Some(prev) = groups.last_mut() {
            let same_line = body.line_at(prev.end.saturating_sub(1)) == body.line_at(start);
            let starts_condition = words(&s)
                .first()
                .is_some_and(|w| is_condition_word(&w.text));
            // ("Run the tests. Never push to main.": a short sentence that
            // names an act of its own, other than the rule's, is a rule of
            // its own.)
            // (After "If a check fails, stop.", "Do NOT merge." keeps the
            // condition.)
            let conditional = words(&prev.sentences[0])
                .first()
                .is_some_and(|w| is_condition_word(&w.text));
            // ("Write the test first. Watch it fail." is one sequence: only
            // a forbid beside a requirement, or the other way round, parts.)
            let negative = |t: &str| negation(&words(&mask(t).0)).0;
            let own_act = !conditional
                && negative(&s) != negative(&prev.sentences[0])
                && clause_info(&s, lex).behavior(true).is_some_and(|a| {
                    prev.sentences
                        .iter()
                        .all(|p| clause_info(p, lex).behavior(true).as_ref() != Some(&a))
                });
            // ("Never hardcode secrets. Never commit secrets.": parallel
            // rules, each opening with its own modal word.)
            let parallel = opens_with_modal(&s) && opens_with_modal(&prev.sentences[0]);
            // ("… in the chat (do not write to disk yet). Apply these:": a
            // prohibition split out of its parentheses takes no sentence
            // after it.)
            let bracketed = prev.start > 0 && body.text.as_bytes()[prev.start - 1] == b'(';
            if same_line
                && !bracketed
                && nwords <= 5
                && !starts_condition
                && !own_act
                && !parallel
                && is_rule_like(&prev.sentences[0], lex)
            {
                prev.sentences.push(s);
                prev.full_text = strip_emphasis(&body.text[prev.start..end]);
                prev.end = end;
                prev.lines[1] = body.line_at(end.saturating_sub(1));
                continue;
            }
        }
        groups.push(Group {
            question: None,
            sentences: vec![s.clone()],
            full_text: s,
            lines: [body.line_at(start), body.line_at(end.saturating_sub(1))],
            start,
            end,
        });
    }
    if let Some((qs, qe)) = pending_q {
        // A trailing question alone: a sentence like any other.
        let s = strip_emphasis(&body.text[qs..qe]);
        groups.push(Group {
            question: None,
            sentences: vec![s.clone()],
            full_text: s,
            lines: [body.line_at(qs), body.line_at(qe.saturating_sub(1))],
            start: qs,
            end: qe,
        });
    }
    groups
}

/// "**Tests fail** — fix them first", "**On the default branch** — offer
/// to branch": a bold situation of two words or more (no act told, no
/// condition word of its own, no label), a dash, then an instruction. The
/// situation and the instruction, each without markup.
fn bold_situation(raw: &str, lex: &Lexicon) -> Option<(String, String)> {
    let t = raw.trim_start();
    let inner = t.strip_prefix("**")?;
    let close = inner.find("**")?;
    let head = inner[..close].trim();
    let after = inner[close + 2..].trim_start();
    let tail = ["\u{2014}", "\u{2013}", "--", "- "]
        .iter()
        .find_map(|d| after.strip_prefix(d))?
        .trim_start();
    let hw = words(head);
    let first = hw.first()?.text.as_str();
    // (A file, skill or link named in bold is a reference, not a situation.)
    let plain = head
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '\'' | '\u{2019}' | '-' | ','));
    // A situation states something ("Tests fail", "The diff contains a
    // secret", "On the default branch", "Nothing to commit"); a step's
    // label names an act ("Transition to implementation").
    let stating = |t: &str| {
        matches!(
            t,
            "is" | "are"
                | "was"
                | "were"
                | "has"
                | "have"
                | "had"
                | "does"
                | "do"
                | "did"
                | "can't"
                | "cannot"
                | "isn't"
                | "aren't"
                | "doesn't"
                | "don't"
                | "fail"
                | "pass"
        )
    };
    let by_words = matches!(first, "on" | "in" | "during" | "nothing")
        || hw.iter().skip(1).any(|w| stating(&w.text));
    // (Or by a word's form alone: a verb in -s or -ed, "CI fails".)
    let by_form = hw.iter().skip(1).any(|w| {
        let t = w.text.as_str();
        t.len() > 3 && (t.ends_with('s') && !t.ends_with("ss") || t.ends_with("ed"))
    });
    let states = by_words || by_form;
    // ("**Protected Branches** - Never delete main …": a title in capitals,
    // or a noun the rule after it names again, is a topic, not a state.)
    let title = hw.iter().all(|w| {
        head.split_whitespace().any(|x| {
            x.to_lowercase()
                .trim_matches(|c: char| !c.is_alphanumeric())
                == w.text
                && x.starts_with(|c: char| c.is_uppercase())
        })
    });
    let told_again = hw
        .last()
        .is_some_and(|l| l.text.len() > 3 && words(tail).iter().any(|w| w.text == l.text));
    if hw.len() < 2
        || !states
        || (!by_words && (title || told_again))
        || !plain
        || is_condition_word(first)
        || lex.is_imperative(first)
        || matches!(
            first,
            "never" | "always" | "do" | "don't" | "must" | "no" | "not"
        )
    {
        return None;
    }
    let tail = strip_emphasis(tail);
    let tw = words(&tail);
    let opens = tw.first()?.text.as_str();
    let instructs = lex.is_imperative(opens)
        || matches!(opens, "never" | "always" | "don't" | "stop" | "ask")
        || (opens == "do" && tw.get(1).is_some_and(|w| w.text == "not"));
    instructs.then(|| (strip_emphasis(head), tail))
}

/// A sentence that opens with its own modal word ("Never …", "Always …",
/// "Do not …", "Must …").
fn opens_with_modal(s: &str) -> bool {
    let w = words(&mask(s).0);
    let first = w.first().map(|x| x.text.as_str());
    let second = w.get(1).map(|x| x.text.as_str());
    matches!(first, Some("never" | "always" | "don't" | "dont" | "must"))
        || (first == Some("do") && second == Some("not"))
}

/// Could this sentence open a rule (cheap check used for grouping)?
pub(super) fn is_rule_like(s: &str, lex: &Lexicon) -> bool {
    let s = bounded(s);
    let s = split_label(s).map_or(s.to_string(), |(_, rest)| rest);
    let w = words(&mask(&s).0);
    own_modal(&w).is_some() || main_verb(&w).is_some_and(|v| lex.is_imperative(&v))
}

/// `rest` (from an opening parenthesis) holds a prohibition — "(never
/// …)", "(do not …)", "(no `--amend`)" — whose closing parenthesis ends
/// its sentence: nothing but a full stop or emphasis follows before the
/// next sentence.
/// The offset of that closing parenthesis in `rest`.
fn closing_prohibition(rest: &str) -> Option<usize> {
    let inner = &rest[1..];
    let lower = inner.to_lowercase();
    let opens = ["never ", "do not ", "don't ", "not ever "]
        .iter()
        .any(|p| lower.starts_with(p))
        || lower.starts_with("no `");
    if !opens {
        return None;
    }
    let close = inner.find(')')?;
    if inner[..close].contains('(') {
        return None;
    }
    let after = inner[close + 1..].trim_start_matches(['.', '*', '_', '!']);
    let ends = after.trim().is_empty()
        || after.starts_with(' ') && after.trim_start().starts_with(|c: char| c.is_uppercase());
    ends.then_some(close + 1)
}

/// Byte spans of sentences: a split after `.`, `!` or `?` followed by a
/// space and an upper-case letter, a digit, or markup — never inside a code
/// span, never after an abbreviation (e.g., i.e., etc., vs.).
pub(super) fn split_sentences(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_code = false;
    let mut in_quote = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'`' {
            in_code = !in_code;
            // "Check for a PR: `gh pr view` If this succeeds, …": a code
            // span on a line of its own ends its sentence where a capital
            // condition word opens the next.
            if !in_code && !in_quote {
                let next = &text[i + 1..];
                if [" If ", " When ", " Otherwise", " Then ", " Else"]
                    .iter()
                    .any(|k| next.starts_with(k))
                {
                    out.push((start, i + 1));
                    start = i + 2;
                }
            }
        } else if c == b'"' && !in_code {
            in_quote = !in_quote;
        } else if !in_code && !in_quote && c == b';' {
            // "Default to edits only; do not run `git push` without
            // confirmation": a prohibition after a semicolon is a rule of
            // its own.
            let next = text[i + 1..].trim_start().to_lowercase();
            if ["do not ", "don't ", "never ", "must not ", "avoid ", "no "]
                .iter()
                .any(|p| next.starts_with(p))
            {
                out.push((start, i + 1));
                start = i + 1;
            }
        } else if let Some(close) = (!in_code && !in_quote && c == b'(')
            .then(|| closing_prohibition(&text[i..]))
            .flatten()
        {
            // "Make a new commit (never amend).", "Stage files by path
            // (never `git add -A`)": a prohibition in parentheses that ends
            // the sentence is a rule of its own, without its brackets.
            out.push((start, i));
            out.push((i + 1, i + close));
            let mut j = i + close + 1;
            while j < bytes.len() && matches!(bytes[j], b'.' | b'*' | b'_' | b'!') {
                j += 1;
            }
            start = j;
            i = j;
            continue;
        } else if !in_code && !in_quote && c == b',' && text[i..].starts_with(", but ") && {
            // "It may draft comments, but do not post them without
            // approval": a prohibition after ", but" is a rule of its own.
            let next = text[i + ", but ".len()..].to_lowercase();
            ["do not ", "don't ", "never "]
                .iter()
                .any(|p| next.starts_with(p))
        } {
            out.push((start, i));
            start = i + ", but ".len();
            i = start;
            continue;
        } else if !in_code && !in_quote && c == b' ' && dash_then_modal(&text[i..]).is_some() {
            // "**ALWAYS use the script** - Do NOT use manual git commands":
            // a capitalised modal after a spaced dash opens a rule of its
            // own, where an instruction of three words or more came first
            // ("Never commit secrets - stop and warn" goes on in lower case).
            // ("**One question at a time** - Don't …": a bold label and its
            // rule, one sentence.)
            let raw = text[start..i].trim();
            let label = raw.starts_with("**")
                && raw.ends_with("**")
                && raw.len() > 4
                && !opens_with_modal(&strip_emphasis(raw));
            let before = words(&mask(&strip_emphasis(raw)).0);
            if before.len() >= 3 && !label {
                let skip = dash_then_modal(&text[i..]).unwrap_or(0);
                out.push((start, i));
                start = i + skip;
                i += skip;
                continue;
            }
        } else if !in_code && !in_quote && matches!(c, b'.' | b'!' | b'?') {
            // Closers that belong to this sentence.
            let mut j = i + 1;
            while j < bytes.len() && matches!(bytes[j], b'*' | b'_' | b')' | b'\'') {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b' ' {
                let next = text[j..].trim_start();
                let nc = next.chars().next().unwrap_or(' ');
                let word_before = text[start..i]
                    .rsplit(|c: char| c.is_whitespace() || c == '(')
                    .next()
                    .unwrap_or("");
                let abbrev = matches!(
                    word_before.to_lowercase().as_str(),
                    "e.g"
                        | "i.e"
                        | "etc"
                        | "vs"
                        | "cf"
                        | "approx"
                        | "e"
                        | "i"
                        | "dr"
                        | "mr"
                        | "ms"
                ) || (c == b'.'
                    && word_before.chars().all(|x| x.is_ascii_digit())
                    && !word_before.is_empty())
                    // "No. 5" is an abbreviation; "No. Tests-after …" is an answer.
                    || (word_before.eq_ignore_ascii_case("no") && nc.is_ascii_digit());
                // A lowercase start ends a sentence too after a plain word
                // ("… any other skill. writing-plans is next."), never after
                // an abbreviation or a number.
                let plain_word =
                    word_before.len() >= 3 && word_before.chars().all(|x| x.is_alphabetic());
                let starts_new = (nc.is_lowercase() && plain_word)
                    || nc.is_uppercase()
                    || nc.is_ascii_digit()
                    || matches!(nc, '*' | '`' | '"' | '[' | '“' | '(');
                if starts_new && !abbrev {
                    out.push((start, j));
                    start = j + 1;
                    i = j;
                }
            }
        }
        i += 1;
    }
    if start < text.len() {
        out.push((start, text.len()));
    }
    out.into_iter()
        .filter(|(s, e)| !text[*s..*e].trim().is_empty())
        .collect()
}

/// " - Do NOT …", " — Never …": a spaced dash and a capitalised modal
/// opener; the bytes up to the opener.
fn dash_then_modal(t: &str) -> Option<usize> {
    let dash = [" - ", " \u{2014} ", " \u{2013} ", " -- "]
        .iter()
        .find(|d| t.starts_with(**d))?;
    let plain = t[dash.len()..].trim_start_matches(['*', '_']);
    (plain.starts_with(|c: char| c.is_uppercase()) && opens_with_modal(plain)).then_some(dash.len())
}

/// Remove bold / italic markers (`**`, `__`) and turn links into their text.
pub(super) fn strip_emphasis(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_code = false;
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            in_code = !in_code;
            out.push(c);
        } else if !in_code && (c == '*' || c == '_') && chars.get(i + 1) == Some(&c) {
            i += 1;
        } else {
            out.push(c);
        }
        i += 1;
    }
    out.trim().to_string()
}

/// The text with code spans, quotations and link targets replaced by a
/// barrier (`\u{1}`), plus the code spans and relative link targets found.
pub(super) fn mask(s: &str) -> (String, Vec<String>, Vec<String>) {
    let mut out = String::with_capacity(s.len());
    let mut code = Vec::new();
    let mut links = Vec::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            if let Some(j) = chars[i + 1..].iter().position(|x| *x == '`') {
                let span: String = chars[i + 1..i + 1 + j].iter().collect();
                // A capitalised file name in code (`CHANGELOG`, `README`)
                // is still a word of the sentence: the file it names.
                // So is the default branch (`main`, `master`): "on `main`".
                // So is a branch's name before "branch" ("the `develop`
                // branch"): the phrase reads through it.
                let after: String = chars[i + j + 2..].iter().take(9).collect();
                let names_branch = after.starts_with(" branch")
                    && !span.is_empty()
                    && span
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/' | '.'));
                if (span.len() > 2 && span.chars().all(|c| c.is_ascii_uppercase()))
                    || matches!(span.as_str(), "main" | "master")
                    || names_branch
                {
                    out.push_str(&span);
                } else {
                    out.push('\u{1}');
                }
                code.push(span);
                i += j + 2;
                continue;
            }
        }
        if c == '"' || c == '“' {
            let close = if c == '"' { '"' } else { '”' };
            if let Some(j) = chars[i + 1..].iter().position(|x| *x == close) {
                out.push('\u{1}');
                i += j + 2;
                continue;
            }
        }
        if c == ']' && chars.get(i + 1) == Some(&'(') {
            if let Some(j) = chars[i + 2..].iter().position(|x| *x == ')') {
                let target: String = chars[i + 2..i + 2 + j].iter().collect();
                if !target.contains("://")
                    && !target.starts_with('#')
                    && !target.starts_with("mailto:")
                {
                    links.push(target.split('#').next().unwrap_or("").to_string());
                }
                i += j + 3;
                continue;
            }
        }
        if c == '[' {
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    (out, code, links)
}

/// At most this many bytes of one rule are analysed: real rules are far
/// shorter, and the bound keeps hostile input (a megabyte-long sentence)
/// linear.
pub(super) const MAX_ANALYSED: usize = 4000;

/// `s` cut to at most `MAX_ANALYSED` bytes, on a character boundary.
pub(super) fn bounded(s: &str) -> &str {
    if s.len() <= MAX_ANALYSED {
        return s;
    }
    let mut end = MAX_ANALYSED;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}
