//! Part of stage 3 (conditions): splitting a sentence into its clauses —
//! leading and trailing conditions, a label, a parenthesis, a sequence, an
//! alternative, the clause up to a purpose or reason.

use super::*;

/// The text with its other arrows written `→`.
pub(super) fn normalize_arrows(s: &str) -> String {
    s.replace(['➔', '➜', '➡', '⇒', '⟶', '⮕'], "→")
        .replace(" => ", " → ")
}

/// A yes/no question: it opens with an auxiliary ("Do the names match?").
pub(super) fn opens_yes_no(q: &str) -> bool {
    words(&mask(q).0).first().is_some_and(|w| {
        matches!(
            w.text.as_str(),
            "do" | "does"
                | "did"
                | "is"
                | "are"
                | "was"
                | "were"
                | "has"
                | "have"
                | "can"
                | "could"
                | "will"
                | "would"
                | "should"
        )
    })
}

/// The clause up to a purpose, reason or relative clause (" so that ", " so
/// it ", " which ", " in order to ", " because "), outside code and quotes.
///
/// With `relative_that`, also a " that " clause after a plural noun ("Create
/// servers that enable LLMs to call services"): it describes the object.
/// Only for positive rules: dropping it widens a requirement (easier to
/// meet), while a forbid would widen into blocking what the rule allows
/// ("never commit files that contain secrets").
pub(super) fn cut_purpose(s: &str, relative_that: bool) -> String {
    let lower = s.to_lowercase();
    // Verbs and words after which "that" opens what is said or ensured.
    let complement = |head: &str| {
        let prev = head
            .rsplit(|c: char| !c.is_alphanumeric() && c != '\'')
            .find(|w| !w.is_empty())
            .unwrap_or("")
            .to_lowercase();
        // Only after a plural noun ("servers that …"): after a verb or a
        // preposition "that" points ("follow that skill").
        prev.is_empty()
            || !prev.ends_with('s')
            || prev.ends_with("ss")
            || matches!(
                prev.as_str(),
                "ensure"
                    | "ensures"
                    | "verify"
                    | "verifies"
                    | "check"
                    | "checks"
                    | "confirm"
                    | "confirms"
                    | "sure"
                    | "show"
                    | "shows"
                    | "prove"
                    | "proves"
                    | "assume"
                    | "note"
                    | "mean"
                    | "means"
                    | "say"
                    | "says"
                    | "state"
                    | "states"
                    | "tell"
                    | "know"
                    | "think"
                    | "claim"
                    | "claims"
                    | "assert"
                    | "expect"
                    | "so"
                    | "such"
                    | "now"
                    | "given"
                    | "than"
                    | "except"
                    | "demonstrate"
                    | "remember"
                    | "mention"
                    | "explain"
                    | "report"
                    | "indicate"
            )
    };
    let mut in_code = false;
    let mut in_quote = false;
    for (i, c) in s.char_indices() {
        match c {
            '`' => in_code = !in_code,
            '"' => in_quote = !in_quote,
            ' ' if !in_code && !in_quote => {
                let l = &lower[i..];
                if [
                    " so that ",
                    " so it ",
                    " so they ",
                    " so you ",
                    " so the ",
                    " so `",
                    " so future ",
                    " so a ",
                    " so history ",
                    " which ",
                    " in order to ",
                    // ("… phrased "item N" to avoid creating links to
                    // issues": what the rule prevents is no act of it.)
                    " to avoid ",
                    " to prevent ",
                    " based on ",
                    " because ",
                    " since it ",
                    " since they ",
                    " since this ",
                ]
                .iter()
                .any(|m| l.starts_with(m))
                    || (relative_that && l.starts_with(" that ") && !complement(&s[..i]))
                {
                    let head = s[..i].trim_end_matches([',', ' ']);
                    if !head.trim().is_empty() {
                        return head.to_string();
                    }
                }
            }
            _ => {}
        }
    }
    s.to_string()
}

/// A parenthetical that states a condition ("(if available)", "(when
/// continuing)", "(optional)"), outside code: (its condition, the text
/// without it).
/// Where a parenthetical condition ends the text (`with` is the text
/// without it) and the text joins two acts by " and ", each naming an act:
/// the first act's clause.
pub(super) fn first_act_before_trailing_condition(
    s: &str,
    without: &str,
    lex: &Lexicon,
) -> Option<String> {
    let trimmed = s.trim_end().trim_end_matches(['.', ';']);
    if !trimmed.ends_with(')') {
        return None;
    }
    let at = find_outside_code(without, " and ")?;
    let (a, b) = (&without[..at], &without[at + 5..]);
    let acts = |t: &str| clause_info(t, lex).behavior(true);
    let (first, second) = (acts(a)?, acts(b)?);
    (first != second).then(|| a.trim().to_string())
}

/// The text without parentheticals that open with a negation ("(never
/// push to main)", "(not the docs)").
pub(super) fn drop_negative_asides(s: &str) -> String {
    let mut out = s.to_string();
    let mut from = 0;
    while let Some(i) = out[from..].find('(').map(|i| i + from) {
        let Some(len) = out[i + 1..].find(')') else {
            break;
        };
        let inner = &out[i + 1..i + 1 + len];
        let first = words(inner)
            .first()
            .map(|w| w.text.clone())
            .unwrap_or_default();
        // ("… before merging (warn if missing, do not block)": an aside
        // with a prohibition of its own is a rule of its own, whatever
        // word opens it.)
        let iw: Vec<String> = words(inner).into_iter().map(|w| w.text).collect();
        // (Not one that names a command: "(`scripts/pkg …` — never
        // `HEAD~1`)" says how the step is run.)
        let forbids_too = iw.len() > 3
            && !inner.contains('`')
            && iw.windows(2).any(|p| {
                matches!(p[0].as_str(), "do" | "does") && p[1] == "not" || p[0] == "never"
            });
        if matches!(
            first.as_str(),
            "never" | "not" | "don't" | "do" | "no" | "avoid"
        ) || forbids_too
        {
            out.replace_range(i..i + len + 2, "");
        } else {
            from = i + 1;
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// "Treat the changes as one unit — assume everything will be committed
/// before merge": what the reader is to assume is a premise, not an act;
/// the rule ends before it.
pub(super) fn drop_premise(s: &str) -> String {
    let lower = s.to_lowercase();
    // (Offsets in the lower-cased text are offsets in `s` only where
    // lower-casing kept every character's length.)
    if lower.len() != s.len() {
        return s.to_string();
    }
    for sep in [" — ", " - ", " – ", "; ", ", ", ": "] {
        for verb in ["assume", "suppose", "imagine", "pretend"] {
            let key = format!("{sep}{verb} ");
            if let Some(i) = lower.find(&key) {
                if s.is_char_boundary(i) && !s[..i].contains('`') {
                    return s[..i].trim().to_string();
                }
            }
        }
    }
    s.to_string()
}

pub(super) fn parenthetical_condition(s: &str) -> Option<(String, String)> {
    let mut in_code = false;
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if in_code || c != '(' {
            continue;
        }
        let len = s[i + 1..].find(')')?;
        let inner = s[i + 1..i + 1 + len].trim();
        let w = words(inner);
        let first = w.first().map(|x| x.text.as_str()).unwrap_or("");
        if is_condition_word(first) || matches!(first, "optional" | "optionally" | "where") {
            let cond = if matches!(first, "optional" | "optionally") {
                "optional".to_string()
            } else {
                inner
                    .split_once(char::is_whitespace)
                    .map_or("", |(_, r)| r)
                    .trim()
                    .to_string()
            };
            let cond = if cond.is_empty() {
                inner.to_string()
            } else {
                cond
            };
            let mut rest = String::with_capacity(s.len());
            rest.push_str(s[..i].trim_end());
            let after = &s[i + 1 + len + 1..];
            if !after.is_empty() && !after.starts_with([',', '.', ';', ':']) {
                rest.push(' ');
            }
            rest.push_str(after.trim_start());
            return Some((cond, rest.trim().to_string()));
        }
    }
    None
}

/// The text without its parenthesised parts.
pub(super) fn without_parentheses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// `Label: rest` where the label is short (at most six words) and is not a
/// sentence. A parenthesis in the label glosses it ("Anything else (open
/// PR, no PR record, ambiguous): do not delete"): its words do not count.
pub(super) fn split_label(s: &str) -> Option<(String, String)> {
    let (m, _, _) = mask(s);
    let idx = m.find(": ")?;
    let label = without_parentheses(&m[..idx]);
    if label.split_whitespace().count() > 6 || label.contains(['.', '!', '?', '\u{1}']) {
        return None;
    }
    // Map the masked index back: masks shorten the text, so split the original
    // at the first ": " outside code spans instead.
    let orig = find_outside_code(s, ": ")?;
    Some((
        s[..orig].trim().to_string(),
        s[orig + 2..].trim().to_string(),
    ))
}

pub(super) fn find_outside_code(s: &str, pat: &str) -> Option<usize> {
    let mut in_code = false;
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code && s[i..].starts_with(pat) {
            return Some(i);
        }
    }
    None
}

/// "A, then B" / "A and then B" / "A; then B" in a main clause, each part
/// naming a different act: (A's act, B's act). `None` where either part
/// names none, so a sequence of unseen steps stays what it was.
pub(super) fn split_sequence(main: &str, lex: &Lexicon) -> Option<(Predicate, Predicate)> {
    let lower = main.to_lowercase();
    if lower.len() != main.len() {
        return None;
    }
    let at = [", then ", " and then ", "; then ", ", and then "]
        .iter()
        .filter_map(|pat| find_outside_code(&lower, pat).map(|i| (i, pat.len())))
        .min()?;
    let (a, b) = (&main[..at.0], &main[at.0 + at.1..]);
    let first = clause_info(a, lex).behavior(true)?;
    let next = clause_info(b, lex).behavior(true)?;
    (first != next).then_some((first, next))
}

/// "If X, Y" → (X, Y), splitting at the first comma or colon outside code
/// (or at " then ").
pub(super) fn split_leading_condition(s: &str) -> Option<(String, String)> {
    let mut in_code = false;
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if c == ',' || c == ':' || c == '—' {
            let after = s[i + c.len_utf8()..].trim();
            let cond_so_far = s[..i]
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r);
            if c == ','
                && continues_gerund_list(cond_so_far)
                && continues_gerund_list(after)
                && after.contains(',')
            {
                continue;
            }
            if !after.is_empty() {
                let cond = s[..i]
                    .split_once(char::is_whitespace)
                    .map_or("", |(_, r)| r);
                return Some((cond.trim().to_string(), after.to_string()));
            }
        }
        if s[i..].starts_with(" then ") {
            let cond = s[..i]
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r);
            return Some((cond.trim().to_string(), s[i + 6..].trim().to_string()));
        }
    }
    None
}

/// Text that opens on an act named by its gerund ("tagging, …", "and
/// opening …"): after a comma that follows one, with a later comma to
/// close the list ("Before pushing, tagging, and opening a PR, ask"), the
/// condition goes on.
fn continues_gerund_list(after: &str) -> bool {
    let mut w = after.split_whitespace();
    let first = match w.next() {
        Some("and" | "or") => w.next(),
        f => f,
    };
    let gerund = first.is_some_and(|f| {
        let f = f.trim_end_matches(',');
        f.len() > 4 && f.ends_with("ing") && f.chars().all(|c| c.is_ascii_lowercase())
    });
    gerund
}

/// The first clause of a main part: up to an em dash, a semicolon or " - ".
pub(super) fn first_clause(s: &str) -> String {
    let mut in_code = false;
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code
            && (c == '—' || c == ';' || s[i..].starts_with(" - ") || s[i..].starts_with(" – "))
        {
            let head = s[..i].trim();
            if !head.is_empty() {
                return head.to_string();
            }
        }
    }
    s.trim().to_string()
}

/// The clauses of a positive main part that still instruct: the first, and
/// each later one (after an em dash or semicolon) without a negation or an
/// alternative ("Write design doc — save it and commit" keeps "commit";
/// "Use X — not Y" drops "not Y").
pub(super) fn positive_clauses(s: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = s.trim().to_string();
    loop {
        let head = first_clause(&rest);
        if head.len() >= rest.len() {
            parts.push(rest.clone());
            break;
        }
        parts.push(head.clone());
        rest = rest[head.len()..]
            .trim_start_matches(['—', ';', '-', '–', ' '])
            .to_string();
        if rest.is_empty() {
            break;
        }
    }
    let mut out = vec![parts[0].clone()];
    for p in parts.iter().skip(1) {
        let w = words(&mask(p).0);
        let negated = w.iter().any(|x| {
            matches!(
                x.text.as_str(),
                "not"
                    | "never"
                    | "don't"
                    | "no"
                    | "instead"
                    | "rather"
                    | "avoid"
                    | "without"
                    | "unless"
            )
        });
        if !negated {
            out.push(p.clone());
        }
    }
    out.join(" ; ")
}

/// "X over Y" / "X instead of Y" / "X rather than Y" → (X, Y), outside code.
pub(super) fn split_alternative(s: &str) -> Option<(String, String)> {
    let mut in_code = false;
    let lower = s.to_lowercase();
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if in_code || c != ' ' {
            continue;
        }
        for kw in [" over ", " instead of ", " rather than "] {
            if lower[i..].starts_with(kw) {
                let head = s[..i].trim();
                let tail = s[i + kw.len()..].trim();
                if !head.is_empty() && !tail.is_empty() {
                    return Some((head.to_string(), tail.to_string()));
                }
            }
        }
    }
    None
}

/// Split a main clause at its first trailing condition keyword outside code
/// and quotes: (head, keyword, tail).
pub(super) fn split_trailing(s: &str) -> Option<(String, String, String)> {
    // "Use web search as needed": a judgement no action shows, as "if
    // needed" is.
    let trimmed = s.trim_end().trim_end_matches(['.', ';', ')']);
    let lower_t = trimmed.to_lowercase();
    for tail in [
        " as needed",
        " as necessary",
        " as appropriate",
        " as required",
    ] {
        if lower_t.ends_with(tail) && trimmed.is_char_boundary(trimmed.len() - tail.len()) {
            let head = trimmed[..trimmed.len() - tail.len()].trim();
            if !head.is_empty() {
                return Some((head.to_string(), "if".to_string(), tail[4..].to_string()));
            }
        }
    }
    let mut in_code = false;
    let mut in_quote = false;
    // ("Check for an existing PR (exit if found)": a condition inside an
    // aside is the aside's own; one that opens it is read by
    // `parenthetical_condition`.)
    // ("Push (only if requested)": an aside that is the condition, after
    // "only", still is one.)
    let mut in_paren = 0usize;
    let mut paren_at = 0usize;
    let lower = s.to_lowercase();
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if c == '"' {
            in_quote = !in_quote;
            continue;
        }
        if !in_code && !in_quote {
            match c {
                '(' => {
                    in_paren += 1;
                    paren_at = i;
                }
                ')' => in_paren = in_paren.saturating_sub(1),
                _ => {}
            }
        }
        let aside_opens = in_paren > 0
            && s.get(paren_at + 1..i)
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("only"));
        if in_code || in_quote || (in_paren > 0 && !aside_opens) || c != ' ' {
            continue;
        }
        for kw in [
            "without",
            "before",
            "until",
            "unless",
            "after",
            "when",
            "whenever",
            "once",
            "if",
            "while",
            "during",
            "every time",
            "each time",
            "any time",
        ] {
            let l = &lower[i + 1..];
            if l.starts_with(kw) && l[kw.len()..].starts_with([' ', ',']) {
                let head = s[..i].trim();
                let tail = s[i + 1 + kw.len()..].trim();
                // "… when possible", "… if feasible": a hedge, not a condition.
                let hedge = matches!(
                    tail.trim_end_matches(['.', ',', ';', ')'])
                        .to_lowercase()
                        .as_str(),
                    "possible" | "feasible" | "practical" | "practicable" | "you can"
                );
                // ("… during this review unless explicitly asked": the span
                // of time is context; the exception after it is the
                // clause that counts.)
                let tail_lower = tail.to_lowercase();
                let framed = matches!(kw, "during" | "while")
                    && [" unless ", " without "]
                        .iter()
                        .any(|k| tail_lower.contains(k));
                if !head.is_empty() && !tail.is_empty() && !hedge && !framed {
                    // "Check the branch before committing: `git branch
                    // --show-current`": the code after the colon shows the
                    // main act, not the condition.
                    if let Some(j) = find_outside_code(tail, ": `").filter(|j| *j > 0) {
                        return Some((
                            format!("{head}{}", &tail[j..]),
                            kw.to_string(),
                            tail[..j].trim().to_string(),
                        ));
                    }
                    return Some((head.to_string(), kw.to_string(), tail.to_string()));
                }
            }
        }
    }
    None
}

/// A determiner: the word before a noun that makes what precedes it a
/// verb with an object ("do *the* change", "would *your* …").
pub(super) fn is_determiner(w: &str) -> bool {
    matches!(
        w,
        "the"
            | "a"
            | "an"
            | "this"
            | "that"
            | "these"
            | "those"
            | "your"
            | "its"
            | "their"
            | "each"
            | "every"
            | "all"
            | "any"
            | "both"
    )
}
