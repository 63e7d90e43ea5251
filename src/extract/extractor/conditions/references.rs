//! Part of stage 3 (conditions): sentences that refer to a skill or a file
//! rather than state a rule of their own.

use super::*;

/// A line that opens with a skill reference (`namespace:skill-name`, bold or
/// in a code span) and then a dash or colon: the reference and the rest.
pub(crate) fn skill_reference_head(s: &str) -> Option<(&str, &str)> {
    let t = s.trim_start().trim_start_matches(['*', '_', '`']);
    let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == ':'))?;
    let (head, tail) = t.split_at(end);
    let (ns, name) = head.split_once(':')?;
    let kebab = |x: &str| {
        x.len() > 2
            && x.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && x.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    if !kebab(ns) || !kebab(name) || matches!(ns, "http" | "https" | "localhost") {
        return None;
    }
    let tail = tail.trim_start_matches(['*', '_', '`']).trim_start();
    let rest = ["- ", "— ", "– ", ": "]
        .iter()
        .find_map(|sep| tail.strip_prefix(sep))?;
    Some((head, rest.trim()))
}

/// The words after a skill reference instruct ("REQUIRED: set up …",
/// "Complete development after all tasks"), rather than describe the skill
/// ("Creates the plan", "Code review template") or say when it is the
/// alternative ("Use for parallel sessions").
pub(super) fn skill_rest_instructs(rest: &str, lex: &Lexicon) -> bool {
    let w = words(&mask(rest).0);
    if own_modal(&w).is_some() {
        return true;
    }
    main_verb(&w).is_some_and(|v| lex.is_imperative(&v) && v != "use")
        && !starts_with_third_person(&w)
}

/// "Any file matching `.env.*`", "anything under `secrets/`": the pattern
/// after the words that say it names files; any other text as it is.
pub(crate) fn files_matching(s: &str) -> &str {
    let t = s.trim_start();
    let lower = t.to_lowercase();
    [
        "any file matching ",
        "any files matching ",
        "files matching ",
        "anything matching ",
        "any file named ",
        "any file under ",
        "anything under ",
        "anything in ",
    ]
    .iter()
    .find(|p| lower.starts_with(**p) && t.is_char_boundary(p.len()))
    .map_or(s, |p| &t[p.len()..])
}

/// A line that opens with a backticked file name or path (`` `a.json` - … ``).
pub(crate) fn opens_with_file(s: &str) -> bool {
    let t = s.trim_start();
    t.strip_prefix('`')
        .and_then(|inner| inner.find('`').map(|j| &inner[..j]))
        .is_some_and(|p| path_glob(p).is_some())
}

/// A line that opens with a file path written without a code span
/// ("docs/guide.md - the method"): a path with a folder and a file name
/// the kinds of [`looks_like_file`]; the path and the rest of the line.
pub(crate) fn unquoted_file_head(s: &str) -> Option<(&str, &str)> {
    let t = s.trim_start();
    let end = t.find(char::is_whitespace).unwrap_or(t.len());
    let (head, rest) = t.split_at(end);
    let head = head.trim_end_matches([':', ',']);
    (head.contains('/') && looks_like_file(head) && path_glob(head).is_some())
        .then(|| (head, &t[head.len()..]))
        .filter(|_| rest.is_empty() || rest.starts_with(' '))
}

/// A line that opens with a file reference (a code span or a link naming a
/// file) followed by a dash or colon and its description.
pub(crate) fn is_file_reference(s: &str) -> bool {
    let t = s.trim_start();
    let (head, rest) = if let Some(inner) = t.strip_prefix('`') {
        match inner.find('`') {
            Some(j) => (&inner[..j], &inner[j + 1..]),
            None => return false,
        }
    } else if let Some(inner) = t.strip_prefix('[') {
        match inner.find("](") {
            Some(j) => match inner[j + 2..].find(')') {
                Some(k) => (&inner[j + 2..j + 2 + k], &inner[j + 2 + k + 1..]),
                None => return false,
            },
            None => return false,
        }
    } else {
        return false;
    };
    let named_file = head.rsplit('/').next().is_some_and(|f| {
        f.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && matches!(ext, "md" | "txt" | "pdf" | "html")
        })
    });
    let r = rest.trim_start();
    named_file && (r.starts_with(['-', '–', '—', ':']) || r.is_empty())
}
