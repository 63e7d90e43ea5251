//! Part of stage 3 (conditions): readings of a sentence's wording before
//! and after its conditions are split — what is content rather than an act
//! (a plan's tasks, a message's wording, what the skill is), what a
//! condition's bare noun or a parenthesis means, and shapes that stand for
//! an act ("work on a feature branch", "never skip X").

use super::*;

/// "proceeding", "continuing", "moving on": going on to the next step.
/// "Read the changelog (`CHANGELOG.md`, or `CHANGELOG` if missing)": a
/// parenthesis that offers an alternative under a condition; the condition
/// is the alternative's, not the rule's. The text without it, or `None`.
pub(super) fn alternative_conditions_dropped(s: &str) -> Option<String> {
    let open = s.find('(')?;
    let close = open + s[open..].find(')')?;
    let inner = &s[open + 1..close];
    let or = inner.find(" or ")?;
    let cond = or + inner[or..].find(" if ")?;
    Some(format!(
        "{}{}{}",
        &s[..open + 1],
        &inner[..cond],
        &s[close..]
    ))
}

/// "Check if there are changes": after a verb of finding out, "if" means
/// "whether" and opens the verb's object, not a condition.
pub(super) fn if_as_whether(s: &str) -> std::borrow::Cow<'_, str> {
    const VERBS: &[&str] = &[
        "check",
        "see",
        "verify",
        "determine",
        "confirm",
        "decide",
        "know",
        "test",
        "find out",
        "ask",
        "assess",
        "evaluate",
    ];
    let lower = s.to_lowercase();
    let mut out = String::new();
    let mut last = 0;
    for (i, _) in lower.match_indices(" if ") {
        let before = lower[..i].trim_end();
        if VERBS.iter().any(|v| {
            before.ends_with(v)
                && before[..before.len() - v.len()]
                    .chars()
                    .last()
                    .is_none_or(|c| !c.is_alphanumeric())
        }) {
            out.push_str(&s[last..i]);
            out.push_str(" whether ");
            last = i + " if ".len();
        }
    }
    if last == 0 {
        return s.into();
    }
    out.push_str(&s[last..]);
    out.into()
}

/// "skip the tests or code review" → "run the tests or code review".
pub(super) fn skipped_as_run(main: &str) -> Option<String> {
    let lower = main.to_lowercase();
    ["skip ", "skipping ", "omit ", "forget ", "neglect "]
        .iter()
        .find_map(|v| lower.find(v).map(|i| (i, v.len())))
        .map(|(i, n)| format!("{}run {}", &main[..i], &main[i + n..]))
}

/// "Work in feature branches", "work on a separate branch".
pub(super) fn works_off_the_default_branch(main: &str) -> bool {
    let t = plain_words(main);
    let Some(i) = t.iter().position(|x| x != "always") else {
        return false;
    };
    t[i] == "work"
        && matches!(t.get(i + 1).map(String::as_str), Some("in" | "on" | "from"))
        && t[i + 2..].iter().take(3).any(|x| {
            matches!(
                x.as_str(),
                "feature" | "topic" | "separate" | "dedicated" | "own" | "new"
            )
        })
        && t[i + 2..]
            .iter()
            .take(4)
            .any(|x| x == "branch" || x == "branches")
}

/// "Work from the `dev` branch", "Always work on `release`": the branch
/// the work is committed on, named in code.
pub(super) fn works_on_a_named_branch(main: &str) -> Option<String> {
    let t = strip_emphasis(main);
    let words: Vec<&str> = t.split_whitespace().collect();
    let mut i = 0;
    if words.first()?.eq_ignore_ascii_case("always") {
        i = 1;
    }
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let at = |k: usize, w: &str| lower.get(k).is_some_and(|x| x == w);
    // "Work from …", "Ensure you're on …", "Make sure you are on …".
    let mut j = if at(i, "work") && (at(i + 1, "from") || at(i + 1, "on") || at(i + 1, "in")) {
        i + 2
    } else {
        let k = if at(i, "ensure") {
            i + 1
        } else if at(i, "make") && at(i + 1, "sure") {
            i + 2
        } else {
            return None;
        };
        if at(k, "you're") && at(k + 1, "on") {
            k + 2
        } else if at(k, "you") && at(k + 1, "are") && at(k + 2, "on") {
            k + 3
        } else {
            return None;
        }
    };
    if words.get(j).is_some_and(|w| w.eq_ignore_ascii_case("the")) {
        j += 1;
    }
    let token = words.get(j)?.trim_end_matches(['.', ',', ';']);
    // A branch every repository knows needs no code span ("on main branch").
    let well_known = |t: &str| matches!(t, "main" | "master" | "dev" | "develop" | "trunk");
    let name = token
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .or_else(|| Some(token.trim_matches('*')).filter(|t| well_known(t)))?;
    let after = words
        .get(j + 1)
        .map(|w| w.trim_end_matches(['.', ',', ';']));
    // ("Work in `src/`" names a folder: the word "branch", or a branch
    // name every repository knows.)
    let known = well_known(name);
    let ends =
        (j + 1 == words.len() && known) || after.is_some_and(|w| w.eq_ignore_ascii_case("branch"));
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/' | '.'));
    (ends && ok && words.len() <= j + 2).then(|| name.to_string())
}

/// "Current branch is main/master", "on main": the session sits on the
/// default branch.
pub(super) fn sits_on_the_default_branch(main: &str) -> bool {
    let t = plain_words(main);
    let s = t.join(" ");
    s.starts_with("current branch is main") || s.starts_with("current branch is master")
}

/// "This skill enforces the team's git workflow", "The skill works
/// standalone": what the skill is or does, not what the agent must do
/// ("This skill must not be used for releases" and "This skill requires
/// …" still bind).
pub(super) fn describes_the_skill(s: &str) -> bool {
    let w = plain_words(&strip_emphasis(s));
    // ("This skill does not push": a boundary the agent keeps.)
    let t: Vec<&str> = w.iter().map(String::as_str).collect();
    if self_subject(&t) > 0 {
        return false;
    }
    matches!(
        w.as_slice(),
        [a, b, verb, ..]
            if matches!(a.as_str(), "this" | "the")
                && b == "skill"
                && verb.ends_with('s')
                && !matches!(
                    verb.as_str(),
                    "requires" | "needs" | "demands" | "expects" | "forbids" | "assumes"
                )
    )
}

/// A rule about how a message, title or description is worded.
pub(super) fn about_wording(main: &str) -> bool {
    let (masked, code, _) = mask(main);
    code.is_empty()
        && words(&masked).iter().any(|x| {
            matches!(
                x.text.as_str(),
                "message"
                    | "messages"
                    | "subject"
                    | "title"
                    | "titles"
                    | "description"
                    | "body"
                    | "summary"
                    | "bullet"
                    | "bullets"
                    | "chars"
                    | "characters"
                    | "attribution"
                    | "wording"
                    | "tone"
            )
        })
}

/// "Tasks are atomic and follow RED → GREEN → COMMIT", "Each task includes
/// exact file paths", "The plan lacks verification steps": a statement
/// about what a plan, its tasks or a spec contains. The words it uses name
/// the document's content, not an act of the session (a commit named as a
/// step of each task is no commit); approval ("the plan is approved") is
/// left to the consent rules.
pub(super) fn describes_a_document(main: &str) -> bool {
    let w = plain_words(main);
    let t: Vec<&str> = w.iter().map(String::as_str).collect();
    let at = t
        .iter()
        .position(|x| !matches!(*x, "the" | "each" | "every" | "all" | "a" | "an" | "your"))
        .unwrap_or(t.len());
    let subject = t.get(at).copied().unwrap_or("");
    let verb = t.get(at + 1).copied().unwrap_or("");
    matches!(
        subject,
        "plan" | "plans" | "task" | "tasks" | "spec" | "specs" | "design" | "designs"
    ) && matches!(
        verb,
        "is" | "are"
            | "includes"
            | "include"
            | "has"
            | "have"
            | "lacks"
            | "lack"
            | "follows"
            | "follow"
            | "contains"
            | "contain"
            | "lists"
            | "list"
            | "covers"
            | "cover"
            | "names"
            | "name"
            | "describes"
            | "describe"
    ) && !t.iter().any(|x| x.starts_with("approv"))
}

/// "before the first commit", "after each commit", "before the PR": a
/// condition that names the commit or the pull request alone names the act
/// of committing or opening it (elsewhere "the commit" is a thing: "the
/// commit message").
pub(super) fn commit_as_act(c: &str) -> std::borrow::Cow<'_, str> {
    let w = plain_words(c);
    let t: Vec<&str> = w.iter().map(String::as_str).collect();
    let noun = match t.as_slice() {
        [n] => Some(*n),
        [d, n] | [d, _, n] if matches!(*d, "the" | "a" | "each" | "every" | "any" | "your") => {
            Some(*n)
        }
        _ => None,
    };
    if t.len() == 3 && !matches!(t[1], "first" | "next" | "final" | "last" | "new") {
        return c.into();
    }
    match noun {
        Some("commit" | "commits") => "committing".into(),
        // "before the PR", "before PR": before opening it.
        Some("pr" | "prs") => "opening the pr".into(),
        // "After deployment:", "before each deploy": deploying.
        Some("deployment" | "deployments" | "deploy" | "deploys") => "deploying".into(),
        _ => c.into(),
    }
}

/// What a condition says happened: its act (`commit_as_act`), or where it
/// says an act failed ("If the commit fails due to a hook", "when the push
/// is rejected", "if `git rebase` fails") that act with `failed: true` —
/// "the commit" alone is a thing, "the commit fails" is a commit that
/// failed.
pub(super) fn condition_info(c: &str, lex: &Lexicon) -> ClauseInfo {
    let info = clause_info(&commit_as_act(c), lex);
    if names_a_failure(&info) {
        return info;
    }
    // ("Push rejected", "Remote rejected the push": the act refused is
    // before a bare participle, or the object of an active verb.)
    let acts = [failed_subject(c), failed_object(c)]
        .into_iter()
        .flatten()
        .map(|t| clause_info(&commit_as_act(t), lex))
        .find(|a| !a.actions.is_empty());
    let Some(acts) = acts else {
        return info;
    };
    ClauseInfo {
        actions: acts
            .actions
            .into_iter()
            .map(|(p, req)| (Predicate::All(vec![p, Predicate::Failed(true)]), req))
            .collect(),
        ..acts
    }
}

/// The subject of "<act> fails / failed / is rejected / errors": the words
/// before the failure verb ("the commit" of "the commit fails due to a
/// hook"). None where no failure verb follows a subject.
fn failed_subject(c: &str) -> Option<&str> {
    let lower = c.to_lowercase();
    const FAILS: &[&str] = &[
        " fails",
        " failed",
        " fail ",
        " errors",
        " errored",
        " is rejected",
        " was rejected",
        " rejected",
        " gets rejected",
        " is blocked",
        " was blocked",
    ];
    let at = FAILS
        .iter()
        .filter_map(|f| {
            let i = lower.find(f)?;
            let end = i + f.len();
            // (A whole word: "fails", not "failsafe".)
            let whole = lower[end..]
                .chars()
                .next()
                .is_none_or(|ch| !ch.is_alphanumeric());
            whole.then_some(i)
        })
        .min()?;
    // (Offsets of the lower-cased text: `get`, as case mapping can move
    // them in other scripts.)
    let subject = c.get(..at)?.trim();
    (!subject.is_empty()).then_some(subject)
}

/// The act a refusal names as its object: "the push" of "Remote rejected
/// the push", "the commit" of "The hook blocked the commit".
fn failed_object(c: &str) -> Option<&str> {
    let lower = c.to_lowercase();
    [" rejected ", " refused ", " blocked ", " denied "]
        .iter()
        .filter_map(|v| lower.find(v).map(|i| i + v.len()))
        .min()
        .and_then(|at| c.get(at..))
        .map(str::trim)
        .filter(|o| {
            let w = plain_words(o);
            !w.is_empty() && !matches!(w[0].as_str(), "by" | "because" | "due" | "with" | "for")
        })
}

/// "Deleting a pushed tag is outward-facing, so ask the user first": a
/// statement about an act (a gerund subject) whose consequence is an
/// imperative after ", so" reads "Before deleting a pushed tag, ask the
/// user first" — the act is the trigger, the imperative the rule.
pub(super) fn act_then_so(s: &str, lex: &Lexicon) -> Option<String> {
    let (head, rest) = s.split_once(", so ")?;
    let verb = rest.split_whitespace().next()?.to_lowercase();
    if !lex.is_imperative(&verb) {
        return None;
    }
    let first = head.split_whitespace().next()?.to_lowercase();
    let first = first.trim_matches(|c: char| !c.is_alphanumeric());
    if !first.ends_with("ing") || first.len() < 5 {
        return None;
    }
    let subject = [
        " is ", " are ", " can ", " will ", " would ", " may ", " has ", " could ",
    ]
    .iter()
    .filter_map(|v| head.find(v))
    .min()
    .map(|i| &head[..i])?;
    let subject = first_lower(subject);
    Some(format!("Before {subject}, {rest}"))
}

/// "The repo is public, so never paste keys into issues", "It is private,
/// but avoid tokens in PR text": a statement, then the rule it motivates —
/// the rule is the clause after ", so" / ", but", negation and all.
pub(super) fn reason_then_rule(s: &str, lex: &Lexicon) -> Option<String> {
    let (at, kw) = [", so ", ", but ", "; so ", "; but "]
        .iter()
        .filter_map(|k| s.find(k).map(|i| (i, *k)))
        .min()?;
    let rest = s[at + kw.len()..].trim_start();
    let w: Vec<String> = rest
        .split_whitespace()
        .take(2)
        .map(|x| x.to_lowercase())
        .collect();
    let opens = match w.first().map(String::as_str) {
        Some("never" | "always" | "don't" | "dont" | "avoid") => true,
        Some("do") => w.get(1).is_some_and(|x| x == "not"),
        Some(v) => lex.is_imperative(v) && !matches!(v, "it" | "this" | "that"),
        None => false,
    };
    // The statement is one short clause saying what something is ("The
    // repo is public"), with no imperative of its own.
    let head = s[..at].to_lowercase();
    let hw: Vec<&str> = head.split_whitespace().collect();
    let head_first = hw.first().copied().unwrap_or("");
    let states = hw
        .iter()
        .any(|x| matches!(*x, "is" | "are" | "was" | "were" | "has" | "have"));
    if !opens
        || !states
        || hw.len() > 12
        || head.contains(['—', ':', ';'])
        || lex.is_imperative(head_first)
        || is_condition_word(head_first)
    {
        return None;
    }
    Some(first_upper(rest))
}

/// A paragraph that is one quoted imperative, a motto ("\"Write a failing
/// test before fixing.\" (TDD for bug fixes)"): the words in the quotes are
/// the rule. (A quoted thought in a list — a red flag — is not read here.)
pub(super) fn quoted_motto(s: &str, lex: &Lexicon) -> Option<String> {
    let t = s.trim();
    let t = match t.rfind(" (") {
        Some(i) if t.ends_with(')') => t[..i].trim_end(),
        _ => t,
    };
    let inner = t
        .strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .or_else(|| {
            t.strip_prefix('\u{201c}')
                .and_then(|x| x.strip_suffix('\u{201d}'))
        })?;
    if inner.contains(['"', '\u{201c}', '\u{201d}']) {
        return None;
    }
    let first = inner.split_whitespace().next()?.to_lowercase();
    let first = first.trim_matches(|c: char| !c.is_alphanumeric());
    (lex.is_imperative(first) || matches!(first, "never" | "always"))
        .then(|| inner.trim().to_string())
}

/// "Run the full suite per commit", "Run the linter on every push": the
/// act named after "per" / "on every" / "with each" is the occasion —
/// due before each one ("… before each commit"). Only acts a session
/// shows (commit, push, merge, release, tag, pull request).
pub(super) fn per_act(s: &str) -> Option<String> {
    let lower = s.to_lowercase();
    if lower.len() != s.len() {
        return None;
    }
    const LEADS: &[&str] = &[
        " per ",
        " on every ",
        " on each ",
        " with every ",
        " with each ",
        " for every ",
        " for each ",
    ];
    const ACTS: &[&str] = &[
        "commit",
        "push",
        "merge",
        "release",
        "tag",
        "pull request",
        "pr",
    ];
    for (i, lead) in LEADS
        .iter()
        .flat_map(|l| lower.match_indices(l).map(move |(i, _)| (i, *l)))
    {
        let rest = &lower[i + lead.len()..];
        let Some(act) = ACTS.iter().find(|a| {
            rest.strip_prefix(**a).is_some_and(|r| {
                r.is_empty()
                    || r.starts_with(['.', ',', ';', ' ', ')', ':']) && !r.starts_with(" message")
            })
        }) else {
            continue;
        };
        let end = i + lead.len() + act.len();
        return Some(format!("{} before each {act}{}", &s[..i], &s[end..]));
    }
    None
}

/// "Don't auto-install the CLI", "Never auto-merge PRs": the act, done
/// without the user's go ("install … automatically"). Outside code spans;
/// the hyphenated word is otherwise one word no lexicon entry knows.
pub(super) fn auto_prefixed(s: &str) -> Option<String> {
    rewrite_prose(s, |i, _, part| {
        let mut out = String::with_capacity(part.len() + 16);
        let mut changed = false;
        let mut prev: Option<String> = None;
        for tok in part.split(' ') {
            if prev.is_some() {
                out.push(' ');
            }
            // (An act told or forbidden — "Don't auto-install", "never
            // auto-merge", "Auto-merge the PR" opening a step — not the
            // feature named: "no checks and no auto-merge".)
            let told = match prev.as_deref() {
                None => i == 0,
                Some(p) => matches!(
                    p.to_lowercase().as_str(),
                    "don't"
                        | "dont"
                        | "not"
                        | "never"
                        | "to"
                        | "always"
                        | "must"
                        | "should"
                        | "shouldn't"
                        | "cannot"
                        | "can't"
                        | "won't"
                ),
            };
            prev = Some(tok.to_string());
            let rest = tok
                .get(..5)
                .filter(|h| told && h.eq_ignore_ascii_case("auto-"))
                .and_then(|_| tok.get(5..));
            match rest {
                Some(r) if r.len() > 2 && r.chars().all(|c| c.is_ascii_alphabetic()) => {
                    out.push_str(r);
                    out.push_str(" automatically");
                    changed = true;
                }
                _ => out.push_str(tok),
            }
        }
        changed.then_some(out)
    })
}

/// `s` with each stretch outside code spans rewritten by `f` (its index
/// among the backtick-separated parts, their count, its text), code spans
/// as they are; None where `f` rewrote nothing.
fn rewrite_prose(
    s: &str,
    mut f: impl FnMut(usize, usize, &str) -> Option<String>,
) -> Option<String> {
    let parts = s.split('`').count();
    let mut out = String::with_capacity(s.len() + 16);
    let mut changed = false;
    for (i, part) in s.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        match (i % 2 == 0).then(|| f(i, parts, part)).flatten() {
            Some(new) => {
                out.push_str(&new);
                changed = true;
            }
            None => out.push_str(part),
        }
    }
    changed.then_some(out)
}

/// "YOU CANNOT WRITE TESTS WITHOUT the test-writer skill - No exceptions,
/// no shortcuts, every test, every time": a rule, then a dash and words
/// that only insist. The insistence acts on nothing ("every test" runs no
/// test); the rule is the head.
pub(super) fn rule_then_insistence(s: &str) -> Option<String> {
    let (head, tail) = s
        .split_once(" \u{2014} ")
        .or_else(|| s.split_once(" -- "))
        .or_else(|| s.split_once(" - "))?;
    let parts: Vec<Vec<String>> = tail
        .split([',', ';', '.', '!'])
        .map(|p| words(p).into_iter().map(|w| w.text).collect::<Vec<_>>())
        .filter(|w| !w.is_empty())
        .collect();
    // ("— never your session's history", "— no force pushes": a rule of
    // their own, not insistence.)
    let insists = !parts.is_empty()
        && parts.iter().all(|w| match w.as_slice() {
            [no, what] if no == "no" => matches!(
                what.as_str(),
                "exceptions"
                    | "exception"
                    | "shortcuts"
                    | "shortcut"
                    | "excuses"
                    | "excuse"
                    | "compromises"
                    | "negotiation"
                    | "debate"
            ),
            [every, _] if matches!(every.as_str(), "every" | "each") => true,
            [always] => always == "always",
            _ => false,
        });
    (insists && words(head).len() >= 2).then(|| head.trim_end().to_string())
}

/// "Never debug forward on red — the last commit is seconds away": a rule,
/// then a dash and a statement of why. The statement is no part of the
/// rule (what it names is not what the rule acts on); the rule is the
/// head. The tail must state (a subject, then "is"/"are"/"has"…) and hold
/// no rule word of its own.
pub(super) fn rule_then_reason(s: &str) -> Option<String> {
    let (head, tail) = s
        .split_once(" \u{2014} ")
        .or_else(|| s.split_once(" -- "))
        .or_else(|| s.split_once(" - "))?;
    let head = head.trim();
    if head.contains('`') && !head.contains(' ') {
        return None;
    }
    let tw: Vec<String> = words(tail).into_iter().map(|w| w.text).collect();
    let opens_with_subject = tw.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "the" | "it" | "its" | "this" | "that" | "these" | "those" | "they" | "there" | "your"
        )
    });
    let states = tw.iter().take(6).any(|w| {
        matches!(
            w.as_str(),
            "is" | "are" | "was" | "were" | "has" | "have" | "makes" | "keeps" | "costs"
        )
    });
    let ruled = tw.iter().any(|w| {
        matches!(
            w.as_str(),
            "never" | "always" | "must" | "should" | "don't" | "ask" | "only" | "unless" | "until"
        )
    }) || tw.windows(2).any(|p| p[0] == "do" && p[1] == "not");
    (((opens_with_subject && states) || others_act(head, &tw)) && !ruled && words(head).len() >= 2)
        .then(|| format!("{}.", head.trim_end_matches(['.', ',', ';', ':'])))
}

/// "Hand off to the user — they review and merge", "… — the maintainer
/// tags the release": what the other party then does, in the present,
/// which is no act of the agent's (not their word of consent, which gates
/// the agent's act: "— the user approves it").
fn others_act(head: &str, tail: &[String]) -> bool {
    let party = |w: &str| {
        matches!(
            w.trim_end_matches("'s"),
            "user"
                | "users"
                | "human"
                | "humans"
                | "reviewer"
                | "reviewers"
                | "maintainer"
                | "maintainers"
                | "owner"
                | "owners"
                | "partner"
        )
    };
    let subject = match tail {
        [they, ..] if they == "they" && plain_words(head).iter().any(|x| party(x)) => 1,
        [the, x, ..] if matches!(the.as_str(), "the" | "your") && party(x) => 2,
        _ => 0,
    };
    subject > 0
        && tail.get(subject).is_some_and(|v| {
            v.len() > 2
                && !matches!(
                    v.as_str(),
                    "will"
                        | "can"
                        | "may"
                        | "might"
                        | "would"
                        | "could"
                        | "need"
                        | "needs"
                        | "has"
                        | "have"
                        | "is"
                        | "are"
                        | "decides"
                        | "decide"
                        | "chooses"
                        | "choose"
                        | "says"
                        | "say"
                        | "tells"
                        | "tell"
                        | "requests"
                )
                && !["approv", "confirm", "consent", "agree", "sign", "ok"]
                    .iter()
                    .any(|c| v.starts_with(c))
        })
}

/// "Read `~/code/CLAUDE.md` for the full standards this release must
/// satisfy", "See `docs/api.md` for the endpoints": a file read, then what
/// it is read for. What the purpose names (a release here) is no act of
/// the rule; the rule is the read.
pub(super) fn read_for_purpose(s: &str) -> Option<String> {
    let w = words(s);
    let verb = w.iter().find(|x| !x.barrier && !is_filler(&x.text))?;
    if !matches!(
        verb.text.as_str(),
        "read" | "see" | "consult" | "open" | "check" | "review" | "load"
    ) {
        return None;
    }
    // The file in code, straight after the verb, then " for ".
    let lower = s.to_lowercase();
    let at = lower.find(&verb.text)? + verb.text.len();
    let rest = s[at..].trim_start();
    let inner = rest.strip_prefix('`')?;
    let end = inner.find('`')?;
    let file = &inner[..end];
    if !(file.contains('/') || file.contains('.')) || file.contains(' ') {
        return None;
    }
    let after = &inner[end + 1..];
    after
        .starts_with(" for ")
        .then(|| format!("{}`{file}`.", &s[..s.len() - rest.len()]))
}

/// "Read the current documentation: @CLAUDE.md": an `@path` reference (a
/// file the agent's harness loads by name) is that file, as a code span
/// would name it. Not a handle ("@octocat"), an address nor a package.
pub(super) fn at_file_reference(s: &str) -> Option<String> {
    let mut changed = false;
    let pieces: Vec<String> = s
        .split(' ')
        .map(|piece| {
            let Some(body) = piece.strip_prefix('@') else {
                return piece.to_string();
            };
            let path = body.trim_end_matches(['.', ',', ';', ':', ')']);
            // (Not code, nor a scoped package: `npx @scope/tool`.)
            let file = path.rsplit('/').next().unwrap_or(path);
            if !path.contains('`') && looks_like_file(file) {
                changed = true;
                format!("`{path}`{}", &body[path.len()..])
            } else {
                piece.to_string()
            }
        })
        .collect();
    changed.then(|| pieces.join(" "))
}

/// "Confirm the branch is clean before pushing", "Confirm that all tests
/// pass": a state confirmed is a look at it ("Verify …"), not the user's
/// confirmation sought — that names the user or confirms nothing stated
/// ("Confirm with the user before pushing", "Confirm before deleting",
/// "Confirm that deleting the branch is fine").
pub(super) fn confirmed_state(s: &str) -> Option<String> {
    let w = words(s);
    let first = w.iter().find(|x| !x.barrier)?;
    if first.text != "confirm" {
        return None;
    }
    // The clause confirmed: up to its condition.
    let rest: Vec<&str> = w
        .iter()
        .skip_while(|x| x.text != "confirm")
        .skip(1)
        .map(|x| x.text.as_str())
        .take_while(|t| !matches!(*t, "before" | "after" | "when" | "if" | "once" | "until"))
        .collect();
    let user = w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "user" | "user's" | "users" | "human" | "partner" | "maintainer" | "they" | "them"
        )
    });
    let states = rest.first() == Some(&"that")
        || rest.iter().skip(1).any(|t| {
            matches!(
                *t,
                "is" | "are"
                    | "was"
                    | "were"
                    | "has"
                    | "have"
                    | "exists"
                    | "exist"
                    | "pass"
                    | "passes"
                    | "succeeds"
                    | "succeeded"
                    | "works"
                    | "matches"
                    | "match"
                    | "contains"
                    | "points"
                    | "compiles"
                    | "builds"
            )
        });
    // ("Confirm that deleting the branch is fine": whether an act is
    // acceptable is the user's call.)
    let acceptable = rest.iter().any(|t| {
        matches!(
            *t,
            "fine" | "ok" | "okay" | "acceptable" | "alright" | "allowed" | "wanted" | "desired"
        )
    });
    if user || acceptable || !states || rest.first().is_some_and(|t| *t == "with") {
        return None;
    }
    let at = s.to_lowercase().find("confirm")?;
    Some(format!("{}Verify{}", &s[..at], &s[at + "confirm".len()..]))
}

/// "Version tags use semantic versioning with 'v' prefix", "Release tags
/// follow semver": a convention the tags keep, stated as a fact — read as
/// the rule it is ("Version tags must use …"). Only a statement whose
/// subject is the tags and whose format is a semantic version.
pub(super) fn stated_tag_convention(s: &str) -> Option<String> {
    semver_format(s)?;
    let w: Vec<String> = words(s).into_iter().map(|w| w.text).collect();
    let subject = w.iter().take(3).position(|x| x == "tag" || x == "tags")?;
    let verb = w.get(subject + 1)?;
    if !matches!(
        verb.as_str(),
        "use" | "follow" | "are" | "match" | "take" | "carry"
    ) {
        return None;
    }
    // The verb's own word in the text, after the subject's words.
    let lower = s.to_lowercase();
    let at = lower.find(&format!(" {verb} "))?;
    let tail = &s[at + 1 + verb.len()..];
    let verb = if verb == "are" { "be" } else { verb };
    Some(format!("{} must {verb}{tail}", &s[..at]))
}

/// "Never delete a release -- bump the version instead": a forbid, then
/// what to do in its place after a dash. The forbid is the rule; the
/// alternative names no act it forbids.
pub(super) fn rule_then_alternative(s: &str) -> Option<String> {
    let (head, tail) = s
        .split_once(" \u{2014} ")
        .or_else(|| s.split_once(" -- "))
        .or_else(|| s.split_once(" - "))?;
    let tw = words(tail);
    let hw: Vec<String> = words(head).into_iter().map(|w| w.text).collect();
    let negative = hw
        .first()
        .is_some_and(|w| matches!(w.as_str(), "never" | "don't" | "avoid"))
        || hw.windows(2).take(1).any(|p| p[0] == "do" && p[1] == "not");
    // ("`git add .` from the root — prefer naming files", under a list of
    // things to avoid: the command is the item, the preference its way
    // round.)
    let command_item = head.trim_start().starts_with('`')
        && !plain_words(&mask(head).0).is_empty()
        && tw
            .iter()
            .find(|w| !w.barrier)
            .is_some_and(|w| w.text == "prefer");
    let instead = tw.last().is_some_and(|w| w.text == "instead");
    (((negative && instead) || command_item) && hw.len() >= 2)
        .then(|| format!("{}.", head.trim().trim_end_matches(['.', ',', ';', ':'])))
}

/// "`rm -rf`, `kubectl delete`, force-pushes — describe the command and ask
/// the user before running it": the acts listed before the dash are what
/// "it" runs ("… ask the user before running `rm -rf`, `kubectl delete`,
/// force-pushes").
pub(super) fn acts_before_the_dash(s: &str) -> Option<String> {
    let (head, tail) = s
        .split_once(" \u{2014} ")
        .or_else(|| s.split_once(" -- "))?;
    let head = head.trim();
    // A list of acts: code spans or commas, no sentence of its own (nor a
    // condition and its rule: "If it is a candidate, switch away first —
    // but check `git status` before doing so").
    if !(head.contains('`') || head.contains(','))
        || head.contains(['.', ':', ';'])
        || words(head)
            .first()
            .is_some_and(|w| is_condition_word(&w.text))
    {
        return None;
    }
    // ("… ask the user before running." names no object at all.)
    let tail = tail.trim_end();
    let bare_end = tail.trim_end_matches('.');
    let tail_owned;
    let tail = if [" before running", " before using", " before doing"]
        .iter()
        .any(|k| bare_end.to_lowercase().ends_with(k))
    {
        tail_owned = format!("{bare_end} it.");
        tail_owned.as_str()
    } else {
        tail
    };
    let lower = tail.to_lowercase();
    let at = [
        " before running it",
        " before running them",
        " before using it",
        " before using them",
        " before doing it",
        " before doing so",
    ]
    .iter()
    .find_map(|k| lower.find(k).map(|i| (i, k.len())))?;
    // Byte offsets found in the lowercase text index the original.
    if lower.len() != tail.len() {
        return None;
    }
    let (i, n) = at;
    let verb = tail[i + " before ".len()..].split_whitespace().next()?;
    Some(format!(
        "{} before {verb} {head}{}",
        &tail[..i],
        &tail[i + n..]
    ))
}

/// Consent said as a condition of the act itself: "Only push with explicit
/// permission" reads "Never push without explicit permission"; "Pushing
/// requires the user's approval" reads "Before pushing, get the user's
/// approval". `None` for any other sentence.
pub(super) fn consent_phrasing(s: &str) -> Option<String> {
    const CONSENT: &[&str] = &[
        "permission",
        "approval",
        "consent",
        "confirmation",
        "sign-off",
        "go-ahead",
        "authorization",
        "authorisation",
        "request",
    ];
    let lower = s.to_lowercase();
    // Byte offsets found in the lowercase text index the original.
    if lower.len() != s.len() {
        return None;
    }
    let names_consent = |t: &str| CONSENT.iter().any(|c| t.contains(c));
    // "Merge or review as directed by the user": the act at the user's word.
    if let Some(at) = [
        " as directed by the user",
        " as instructed by the user",
        " as requested by the user",
        " as the user directs",
        " as the user instructs",
    ]
    .iter()
    .find_map(|k| lower.find(k))
    {
        let act = s[..at].trim_end_matches([',', ' ']);
        let first = lower.split_whitespace().next().unwrap_or("");
        if !act.contains([';', ':'])
            && !matches!(first, "never" | "don't" | "do" | "if" | "when" | "only")
        {
            return Some(format!(
                "Never {} without the user's approval",
                first_lower(act)
            ));
        }
    }
    if let Some(gate) = wish_asked(s, &lower)
        .or_else(|| confirmed_ok(s, &lower))
        .or_else(|| approved_only(s, &lower))
        .or_else(|| approval_to(s, &lower))
    {
        return Some(gate);
    }
    if let Some(rest) = lower.strip_prefix("only ") {
        let at = rest.find(" with ")?;
        let from = "only ".len();
        let tail = &s[from + at + " with ".len()..];
        return names_consent(&tail.to_lowercase())
            .then(|| format!("Never {} without {tail}", &s[from..from + at]));
    }
    // "Use `--force` only with approval", "Delete the branch only with the
    // user's consent": the same gate, "only" after the act.
    if let Some(at) = lower.find(" only with ") {
        let tail = &s[at + " only with ".len()..];
        let act = &s[..at];
        let first = lower.split_whitespace().next().unwrap_or("");
        if names_consent(&tail.to_lowercase())
            && !act.contains([',', ';', ':'])
            && !matches!(first, "never" | "don't" | "do" | "always" | "if" | "when")
        {
            return Some(format!("Never {} without {tail}", first_lower(act)));
        }
    }
    // "Delete the branch with user confirmation", "Tag it with the
    // user's approval": the act's closing "with" names the user's word.
    if let Some(at) = lower.rfind(" with ") {
        let tail = s[at + " with ".len()..].trim_end_matches(['.', ' ']);
        let tw: Vec<&str> = tail.split_whitespace().collect();
        let act = &s[..at];
        let first = lower.split_whitespace().next().unwrap_or("");
        let by_user = tw.iter().any(|x| {
            matches!(
                x.to_lowercase().as_str(),
                "user" | "user's" | "users'" | "human" | "human's" | "partner's"
            )
        });
        if by_user
            && tw.len() <= 5
            && names_consent(&tail.to_lowercase())
            && !act.contains([',', ';', ':', '`'])
            && !matches!(
                first,
                "never" | "don't" | "do" | "always" | "if" | "when" | "only" | "ask" | "confirm"
            )
        {
            return Some(format!("Never {} without {tail}", first_lower(act)));
        }
    }
    let first = lower.split_whitespace().next()?;
    let first = first.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
    if first.len() < 5 || !first.ends_with("ing") {
        return None;
    }
    let (at, verb) = [" requires ", " needs ", " require ", " need "]
        .iter()
        .filter_map(|v| lower.find(v).map(|i| (i, v.len())))
        .min()?;
    let tail = &s[at + verb..];
    // "Pushing and tagging are separate actions that need their own
    // request": the acts are the subject before the copula.
    let head = &lower[..at];
    let end = match [" are ", " is "].iter().find_map(|c| head.find(c)) {
        Some(i) if head.ends_with(" that") || head.ends_with(" which") => i,
        _ => at,
    };
    let tail_lower = tail.to_lowercase();
    names_consent(&tail_lower).then(|| {
        let subject = first_lower(&s[..end]);
        // ("… need their own explicit request": the user's word, asked for.)
        if CONSENT
            .iter()
            .any(|c| *c != "request" && tail_lower.contains(c))
        {
            format!("Before {subject}, get {tail}")
        } else {
            format!("Before {subject}, get the user's approval.")
        }
    })
}

/// The persons whose word is consent, as a skill names them.
const WHO: &[&str] = &[
    "the user ",
    "the user's ",
    "user ",
    "they ",
    "the human ",
    "your partner ",
    "your human partner ",
];

/// "Ask whether the user wants the edits applied", "Ask if they want to
/// push": the question seeks consent for the act wished for.
fn wish_asked(s: &str, lower: &str) -> Option<String> {
    // ("Offer cleanup: Ask if user wants to …": the step's label, then
    // the question.)
    let Some(rest) = lower.strip_prefix("ask ") else {
        let (_, after) = split_label(s)?;
        let after_lower = after.to_lowercase();
        return after_lower
            .starts_with("ask ")
            .then(|| wish_asked(&after, &after_lower))
            .flatten();
    };
    let rest = rest.strip_prefix("the user ").unwrap_or(rest);
    let rest = rest
        .strip_prefix("whether ")
        .or_else(|| rest.strip_prefix("if "))?;
    let rest = WHO.iter().find_map(|w| rest.strip_prefix(w))?;
    let rest = ["wants to ", "want to ", "wants ", "want "]
        .iter()
        .find_map(|w| rest.strip_prefix(w))?;
    let act = &s[s.len() - rest.len()..];
    let act = act.trim_end_matches(['.', '?', '!']);
    (!act.trim().is_empty()).then(|| format!("Never {act} without the user's approval"))
}

/// "Only edit the files they approve", "Only change what the user
/// approved": the approval is consent for each such act.
fn approved_only(s: &str, lower: &str) -> Option<String> {
    let rest = lower.strip_prefix("only ")?;
    let at = WHO
        .iter()
        .filter_map(|w| rest.find(&format!(" {w}")))
        .min()?;
    let tail = rest[at..].trim_start();
    let approves = WHO.iter().filter_map(|w| tail.strip_prefix(w)).any(|t| {
        [
            "approve",
            "approves",
            "approved",
            "confirm",
            "confirms",
            "confirmed",
            "accept",
            "accepts",
            "accepted",
            "has approved",
            "have approved",
        ]
        .iter()
        .any(|v| t.starts_with(v))
    });
    if !approves {
        return None;
    }
    let from = "only ".len();
    let act = s[from..from + at].trim_end();
    // "Only proceed once the user approves": a time, not an object the
    // approval names (read by the consent readings).
    let last = act.rsplit(' ').next().unwrap_or("").to_lowercase();
    if matches!(
        last.as_str(),
        "once" | "when" | "after" | "if" | "until" | "before" | "unless" | "as"
    ) {
        return None;
    }
    let act = act
        .strip_suffix(" that")
        .or_else(|| act.strip_suffix(" which"))
        .or_else(|| act.strip_suffix(" what"))
        .unwrap_or(act);
    Some(format!("Never {act} without the user's approval"))
}

/// "Confirm force-push is OK first", "Confirm that the deletion is
/// acceptable": whether an act is all right is the user's word on it.
fn confirmed_ok(s: &str, lower: &str) -> Option<String> {
    let rest = lower.strip_prefix("confirm ")?;
    let rest = rest.strip_prefix("that ").unwrap_or(rest);
    let at = [
        " is ok",
        " is okay",
        " is fine",
        " is acceptable",
        " is allowed",
    ]
    .iter()
    .find_map(|k| rest.find(k))?;
    let from = lower.len() - rest.len();
    let act = s[from..from + at].trim();
    // (Only an act: "Confirm the output is fine" names no act.)
    let first = act.split_whitespace().next()?.to_lowercase();
    (act.split_whitespace().count() <= 3
        && !matches!(
            first.as_str(),
            "the" | "a" | "an" | "this" | "that" | "it" | "your" | "its" | "all" | "everything"
        ))
    .then(|| format!("Never {act} without the user's approval"))
}

/// "Confirm user approval to discard local changes", "Get the user's
/// consent before deleting the branch": consent for the act named.
fn approval_to(s: &str, lower: &str) -> Option<String> {
    let w: Vec<&str> = lower.split_whitespace().collect();
    let verb = *w.first()?;
    if !matches!(
        verb,
        "confirm" | "get" | "obtain" | "seek" | "request" | "secure"
    ) {
        return None;
    }
    let noun = w.iter().position(|x| {
        matches!(
            x.trim_end_matches([',', ':']),
            "approval" | "consent" | "permission" | "confirmation" | "sign-off" | "go-ahead"
        )
    })?;
    // Only who gives it may stand between the verb and the noun.
    if noun > 4
        || !w[1..noun].iter().all(|x| {
            matches!(
                *x,
                "the"
                    | "user"
                    | "user's"
                    | "users'"
                    | "explicit"
                    | "written"
                    | "human"
                    | "partner's"
                    | "your"
            )
        })
    {
        return None;
    }
    let link = *w.get(noun + 1)?;
    if !matches!(link, "to" | "for" | "before") {
        return None;
    }
    // The words after the link, in the original's case.
    let skip: usize = w[..noun + 2].iter().map(|x| x.len()).sum();
    let mut seen = 0;
    let mut at = 0;
    for (i, c) in lower.char_indices() {
        if !c.is_whitespace() {
            seen += c.len_utf8();
            if seen == skip {
                at = i + c.len_utf8();
                break;
            }
        }
    }
    let act = s.get(at..)?.trim().trim_end_matches(['.', '!', ':']);
    // "… before continuing": which acts go on, the steps after it say
    // (a wait on the user's word, not a prohibition of "continuing").
    if link == "before" && super::conditions::names_going_on(act) {
        return None;
    }
    (!act.is_empty()).then(|| format!("Never {act} without the user's approval"))
}

/// "Only merge when the checks pass" reads "Merge only when the checks
/// pass": the act is the trigger, the condition is due first. (Consent
/// — "Only push with explicit permission" — is read by
/// [`consent_phrasing`] first.)
pub(super) fn only_first(s: &str) -> Option<String> {
    let lower = s.to_lowercase();
    if lower.len() != s.len() {
        return None;
    }
    let rest = lower.strip_prefix("only ")?;
    let (at, kw) = [" when ", " after ", " once "]
        .iter()
        .filter_map(|k| rest.find(k).map(|i| (i, *k)))
        .min()?;
    let from = "only ".len();
    let act = &s[from..from + at];
    // The user's word is consent, read elsewhere ("Only bypass hooks when
    // the user asks").
    let person = rest[at..].split_whitespace().any(|w| {
        matches!(
            w.trim_matches(|c: char| !c.is_alphanumeric()),
            "user" | "users" | "they" | "partner" | "human" | "you're" | "i"
        )
    });
    if act.trim().is_empty() || act.contains(',') || person {
        return None;
    }
    let cond = &s[from + at + kw.len()..];
    let act = first_upper(act);
    Some(format!("{act} only{kw}{cond}"))
}

/// "<subject> require(s)/need(s) <rest>": the sentence without its end
/// mark, its lower case, where the verb starts and where what follows it
/// starts.
fn subject_needs(s: &str) -> Option<(&str, String, usize, usize)> {
    let t = s.trim().trim_end_matches(['.', '!']);
    let lower = t.to_lowercase();
    if lower.len() != t.len() {
        return None;
    }
    let (at, kw) = [" require ", " requires ", " need ", " needs "]
        .iter()
        .find_map(|k| lower.find(k).map(|i| (i, *k)))?;
    Some((t, lower, at, at + kw.len()))
}

/// "Commits require explicit request", "Force pushes need the user's
/// approval": acts named as a noun, then what they wait on — read as
/// "Never commit without explicit request" (a consent gate).
pub(super) fn act_needs_consent(s: &str) -> Option<String> {
    let (_, lower, at, from) = subject_needs(s)?;
    let subject: Vec<&str> = lower[..at].split_whitespace().collect();
    let rest = &lower[from..];
    let consent = [
        "request",
        "approval",
        "confirmation",
        "permission",
        "consent",
        "go-ahead",
        "sign-off",
    ]
    .iter()
    .any(|w| {
        rest.split(|c: char| !c.is_alphanumeric() && c != '-')
            .any(|x| x == *w)
    });
    if !consent || rest.split_whitespace().count() > 6 || subject.is_empty() || subject.len() > 3 {
        return None;
    }
    let subject: Vec<&str> = subject
        .into_iter()
        .skip_while(|w| matches!(*w, "all" | "any" | "every" | "the"))
        .collect();
    let (noun, lead) = subject.split_last()?;
    let verb = match *noun {
        "commits" | "commit" => "commit",
        "pushes" | "push" => "push",
        "force-pushes" => "force-push",
        "merges" | "merge" => "merge",
        "deletions" | "deletes" => "delete anything",
        "releases" | "release" => "publish a release",
        "deploys" | "deployments" => "deploy",
        "tags" => "create a tag",
        "rebases" => "rebase",
        _ => return None,
    };
    let lead = lead.join(" ");
    let act = if lead.is_empty() {
        verb.to_string()
    } else {
        format!("{lead} {verb}")
    };
    Some(format!("Never {act} without {}.", rest.trim()))
}

/// "C++ changes require `npm run rebuild-run`", "Database changes need
/// schema verification": the kind of change is the rule's condition —
/// read as "After C++ changes, run …", never a requirement of every
/// session.
pub(super) fn change_kind_requires(s: &str) -> Option<String> {
    let (t, lower, at, from) = subject_needs(s)?;
    let subject: Vec<&str> = lower[..at].split_whitespace().collect();
    let last = *subject.last()?;
    let changes = matches!(
        last,
        "changes" | "change" | "edits" | "modifications" | "updates" | "migrations" | "additions"
    );
    let first = subject.first().copied().unwrap_or("");
    if !changes
        || subject.len() < 2
        || subject.len() > 4
        || matches!(
            first,
            "you" | "we" | "this" | "these" | "those" | "all" | "any" | "the"
        )
    {
        return None;
    }
    let rest = t[from..].trim();
    (!rest.is_empty()).then(|| format!("After {}, run {rest}.", &t[..at]))
}

/// "Do not commit first and update the changelog after": the order
/// forbidden, read as the order required ("Update the changelog before
/// you commit") — never a ban on either act.
pub(super) fn wrong_order(s: &str) -> Option<String> {
    let t = s.trim().trim_end_matches(['.', '!']);
    let lower = t.to_lowercase();
    if lower.len() != t.len() {
        return None;
    }
    let from = ["do not ", "don't ", "never "]
        .iter()
        .find(|p| lower.starts_with(*p))?
        .len();
    let (mid, sep) = [
        " first and ",
        " first, then ",
        " first, and ",
        " first then ",
    ]
    .iter()
    .find_map(|k| lower.find(k).map(|i| (i, k.len())))?;
    let tail = ["after", "afterwards", "later", "after that", "afterward"]
        .iter()
        .find(|e| lower.ends_with(&format!(" {e}")))?;
    let x = t[from..mid].trim();
    let y = t[mid + sep..t.len() - tail.len()].trim();
    if x.is_empty() || y.is_empty() || x.contains(',') {
        return None;
    }
    Some(format!("{} before you {}.", first_upper(y), x))
}

/// "By default, run the quick checks", "As a rule, commit small": an
/// adverbial that restricts nothing opens the sentence; the instruction
/// after its comma is the rule. (A phrase that names a context — "In
/// production, …", "For new files, …" — is a condition, kept.)
pub(super) fn sentence_adverbial(s: &str) -> Option<String> {
    let t = s.trim_start();
    const OPENERS: &[&str] = &[
        "by default",
        "as a default",
        "by convention",
        "in general",
        "as a rule",
        "as a general rule",
        "at minimum",
        "at a minimum",
        "in most cases",
        "in practice",
        "in all cases",
        "in any case",
        "in every case",
        "without exception",
        "for now",
        "of course",
    ];
    let rest = after_opener(t, OPENERS, &[", ", " — "])?
        .trim_start_matches([',', ' ', '—'])
        .trim_start();
    (!rest.is_empty()).then(|| first_upper(rest))
}

/// The text after the first of `openers` it opens with (in any case) where
/// one of `then` follows the opener.
fn after_opener<'t>(t: &'t str, openers: &[&str], then: &[&str]) -> Option<&'t str> {
    let lower = t.to_lowercase();
    if lower.len() != t.len() {
        return None;
    }
    let opener = openers.iter().find(|o| {
        lower
            .strip_prefix(**o)
            .is_some_and(|r| then.iter().any(|s| r.starts_with(s)))
    })?;
    Some(&t[opener.len()..])
}

/// "Otherwise `git cherry-pick -x <sha>`.", "Then `git push`.": a step that
/// names its command after a sequence word and no verb, read as "Run …".
/// Only a known command counts (a path or a name in backticks is not a
/// step), and nothing but a parenthetical may follow it.
pub(super) fn connective_command(s: &str, lex: &Lexicon) -> Option<String> {
    let t = s.trim();
    const OPENERS: &[&str] = &[
        "otherwise",
        "else",
        "then",
        "and then",
        "next",
        "finally",
        "afterwards",
        "after that",
    ];
    let rest = after_opener(t, OPENERS, &[" `", ", `"])?.trim_start_matches([',', ' ']);
    let inner = rest.strip_prefix('`')?;
    let end = inner.find('`')?;
    let cmd = &inner[..end];
    let first = cmd.split_whitespace().next()?.to_lowercase();
    if !lex.is_command_word(&first) {
        return None;
    }
    let after = inner[end + 1..].trim().trim_end_matches(['.', ';']).trim();
    let parenthetical = after.is_empty() || (after.starts_with('(') && after.ends_with(')'));
    parenthetical.then(|| format!("Run `{cmd}` {after}").trim_end().to_string() + ".")
}

/// The base of a third-person verb form: "runs" → "run", "pushes" →
/// "push", "applies" → "apply"; None for a word without the -s.
pub(super) fn third_person_base(v: &str) -> Option<String> {
    if let Some(stem) = v.strip_suffix("ies") {
        Some(format!("{stem}y"))
    } else if ["ches", "shes", "sses", "xes", "zes"]
        .iter()
        .any(|e| v.ends_with(e))
    {
        Some(v[..v.len() - 2].to_string())
    } else {
        v.strip_suffix('s').map(str::to_string)
    }
}

/// "This skill never commits or pushes", "It does not push or commit": a
/// boundary the skill states of itself, read as the prohibition ("Never
/// commit or push"), where what it never does changes state.
fn skill_boundary(s: &str, lex: &Lexicon) -> Option<String> {
    let w = plain_words(&strip_emphasis(s));
    let t: Vec<&str> = w.iter().map(String::as_str).collect();
    let n = self_subject(&t);
    if n == 0 {
        return None;
    }
    let aux = |x: &str| {
        matches!(
            x,
            "does"
                | "doesn't"
                | "will"
                | "won't"
                | "not"
                | "never"
                | "must"
                | "should"
                | "shall"
                | "ever"
        )
    };
    let mut tokens = strip_emphasis(s)
        .split_whitespace()
        .skip(n)
        .map(str::to_string)
        .collect::<Vec<_>>();
    let lead = tokens
        .iter()
        .take_while(|x| aux(&x.to_lowercase().replace('\u{2019}', "'")))
        .count();
    tokens.drain(..lead);
    // The verbs of the list, each in the base form ("commits or pushes").
    let mut verb_next = true;
    for tok in tokens.iter_mut() {
        let lower = tok.to_lowercase();
        let bare = lower.trim_end_matches([',', '.', ';', ':']);
        if verb_next && lower.len() == tok.len() {
            if let Some(base) = third_person_base(bare).filter(|b| lex.is_imperative(b)) {
                *tok = format!("{base}{}", &tok[bare.len()..]);
            }
        }
        verb_next = matches!(bare, "or" | "and" | "nor") || lower.ends_with(',');
    }
    (!tokens.is_empty()).then(|| format!("Never {}", tokens.join(" ")))
}

/// "Claude runs `envsec sync`", "The agent never commits the build": a
/// procedure told as what the agent does, read as the imperative ("Run
/// `envsec sync`", "Never commit the build").
pub(super) fn agent_narration(s: &str, lex: &Lexicon) -> Option<String> {
    if let Some(r) = skill_boundary(s, lex) {
        return Some(r);
    }
    let t = s.trim_start();
    let lower = t.to_lowercase();
    let subject = ["claude ", "codex ", "the agent ", "the assistant "]
        .iter()
        .find(|p| lower.starts_with(*p))?;
    // (Lower-casing may move byte offsets in other scripts: `get`.)
    let rest = t.get(subject.len()..)?;
    // "The agent does not merge the PR itself", "Claude won't push or
    // tag": the act denied, its verb already bare.
    if let Some(denied) = [
        "does not ",
        "doesn't ",
        "will not ",
        "won't ",
        "will never ",
    ]
    .iter()
    .find_map(|n| {
        rest.to_lowercase()
            .starts_with(n)
            .then(|| rest.get(n.len()..))
    })
    .flatten()
    {
        let verb = denied.split(' ').next().unwrap_or("").to_lowercase();
        if !lex.is_imperative(&verb) || lex.is_speech(&verb) {
            return None;
        }
        let denied = [
            "and does not ",
            "and doesn't ",
            "and will not ",
            "and won't ",
        ]
        .iter()
        .fold(denied.to_string(), |acc, n| acc.replace(n, "or "));
        return Some(format!("Never {denied}"));
    }
    let (first, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    let (adverb, verb, tail) = match first.to_lowercase().as_str() {
        a @ ("never" | "always" | "then" | "first" | "also" | "only") => {
            let (v, tail) = tail.split_once(' ').unwrap_or((tail, ""));
            (Some(a.to_string()), v.to_string(), tail)
        }
        _ => (None, first.to_string(), tail),
    };
    let base = third_person_base(&verb.to_lowercase())?;
    if base.len() < 2 || !lex.is_imperative(&base) || lex.is_speech(&base) {
        return None;
    }
    let verb = match &adverb {
        Some(_) => base,
        None => first_upper(&base),
    };
    Some(match adverb {
        Some(a) => format!("{} {verb} {tail}", first_upper(&a)),
        None => format!("{verb} {tail}"),
    })
}

/// "Never merge with failing CI", "Do not push with failing tests": never
/// the act before they pass.
pub(super) fn never_with_failing(s: &str) -> Option<String> {
    let lower = s.to_lowercase();
    if lower.len() != s.len() {
        return None;
    }
    let (neg, rest) = ["never ", "do not ", "don't ", "don’t "]
        .iter()
        .find_map(|n| lower.strip_prefix(n).map(|r| (n.len(), r)))?;
    // ("Never push broken builds": the verb's object is what fails.)
    let bare = || {
        let verb = rest.split(' ').next()?;
        let after = &rest[verb.len()..];
        ["failing", "broken", "red"]
            .iter()
            .find(|k| after.starts_with(&format!(" {k} ")))
            .map(|k| (verb.len(), k.len() + 2))
    };
    let (at, kw_len) = [" with failing ", " with broken ", " with red "]
        .iter()
        .filter_map(|k| rest.find(k).map(|i| (i, k.len())))
        .min()
        .or_else(bare)?;
    let act = &s[neg..neg + at];
    let thing = s[neg + at + kw_len..].trim_end_matches(['.', '!']);
    let thing = match thing {
        "builds" => "build",
        t => t,
    };
    if act.trim().is_empty() || thing.trim().is_empty() {
        return None;
    }
    Some(format!("Never {act} before the {thing} pass."))
}

/// The text with its first letter in lower case ("Pushing" → "pushing").
pub(super) fn first_lower(s: &str) -> String {
    let mut cs = s.chars();
    cs.next()
        .map(|c| c.to_lowercase().chain(cs).collect())
        .unwrap_or_default()
}

/// The text with its first letter in upper case ("merge" → "Merge").
fn first_upper(s: &str) -> String {
    let mut cs = s.chars();
    cs.next()
        .map(|c| c.to_uppercase().chain(cs).collect())
        .unwrap_or_default()
}

/// "`git gc --prune=now` - BANNED", "`git reset --hard` — forbidden
/// without explicit user request", "`git add -f` on ignored files: never
/// (loses data)": a command named first, then the verdict on it. Read as
/// "Never run `git gc --prune=now`" (with the verdict's own "without …" or
/// "unless …" kept: a consent gate). `None` for any other sentence.
pub(super) fn command_then_verdict(s: &str) -> Option<String> {
    let t = s.trim();
    if !t.starts_with('`') {
        return None;
    }
    let (head, tail) = [" - ", " \u{2014} ", " \u{2013} ", ": "]
        .iter()
        .filter_map(|sep| t.find(sep).map(|i| (i, sep.len())))
        .min()
        .map(|(i, n)| (t[..i].trim(), t[i + n..].trim()))?;
    // The head names the command (and what it acts on), no sentence of its
    // own; its code spans are closed.
    if head.matches('`').count() % 2 != 0 || head.contains(['.', ';', '!', '?']) {
        return None;
    }
    let lower = tail.to_lowercase();
    if lower.len() != tail.len() {
        return None;
    }
    const VERDICTS: &[&str] = &[
        "banned",
        "forbidden",
        "prohibited",
        "disallowed",
        "not allowed",
        "not permitted",
        "never",
    ];
    let verdict = VERDICTS.iter().find(|v| {
        lower
            .strip_prefix(**v)
            .is_some_and(|r| r.is_empty() || r.starts_with(|c: char| !c.is_alphanumeric()))
    })?;
    let rest = tail[verdict.len()..].trim_start();
    let rest_lower = rest.to_lowercase();
    let gate = ["without ", "unless "]
        .iter()
        .any(|k| rest_lower.starts_with(k))
        .then(|| {
            // Up to the reason in parentheses or the sentence's end.
            let end = rest.find(" (").unwrap_or(rest.len());
            rest[..end].trim_end_matches(['.', '!', ' '])
        });
    Some(match gate {
        Some(g) => format!("Never run {head} {g}."),
        None => format!("Never run {head}."),
    })
}

/// "Run git status, diff, log in parallel", "git add, commit and push": one
/// `git` over a list of its subcommands names each ("git status, git diff,
/// git log"). `None` when the text holds no such list.
pub(super) fn git_subcommand_list(s: &str) -> Option<String> {
    const SUBS: &[&str] = &[
        "status", "diff", "log", "show", "add", "commit", "push", "pull", "fetch", "branch",
        "stash", "rebase", "merge", "tag", "checkout", "switch", "restore", "reset",
    ];
    let toks: Vec<&str> = s.split(' ').collect();
    let bare = |t: &str| t.trim_end_matches([',', '.', ';', ':']).to_string();
    let mut out: Vec<String> = Vec::new();
    let mut changed = false;
    let mut i = 0;
    while i < toks.len() {
        out.push(toks[i].to_string());
        if toks[i] == "git"
            && toks
                .get(i + 1)
                .is_some_and(|t| SUBS.contains(&bare(t).as_str()))
        {
            // The list goes on while a comma or "and"/"or" joins subcommands.
            let mut j = i + 1;
            out.push(toks[j].to_string());
            while toks[j].ends_with(',') || matches!(toks.get(j + 1), Some(&"and" | &"or")) {
                let mut k = j + 1;
                if matches!(toks.get(k), Some(&"and" | &"or")) {
                    k += 1;
                }
                match toks.get(k) {
                    Some(t) if SUBS.contains(&bare(t).as_str()) => {
                        for t in &toks[j + 1..k] {
                            out.push(t.to_string());
                        }
                        out.push("git".to_string());
                        out.push(toks[k].to_string());
                        changed = true;
                        j = k;
                    }
                    _ => break,
                }
            }
            i = j + 1;
            continue;
        }
        i += 1;
    }
    changed.then(|| out.join(" "))
}

/// "`git push` with the `--mirror` flag", "`git commit` with `--no-verify`":
/// the flag is an argument of the command before it ("`git push
/// --mirror`"), not an act of its own. `None` when the text names no
/// command with a flag so.
pub(super) fn flag_with_command(s: &str) -> Option<String> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)`([a-z][^`]*)`\s+with\s+(?:the\s+|a\s+|an\s+)?`(--?[a-z][^`]*)`(?:\s+(?:flag|option|switch)s?\b)?",
        )
        .expect("a valid pattern")
    });
    re.is_match(s)
        .then(|| re.replace_all(s, "`$1 $2`").into_owned())
}

/// "No uncommitted changes: `git status`", "Clean tree: `git status
/// --porcelain`": a state a checklist expects, then the command that
/// checks it — the command is run, never forbidden. Read as "Run `cmd`".
/// `None` for any other sentence.
pub(super) fn state_checked_by(s: &str) -> Option<String> {
    let (label, after) = s.split_once(':')?;
    let after = after.trim().trim_end_matches('.');
    let inner = after.strip_prefix('`')?.strip_suffix('`')?;
    if inner.is_empty() || inner.contains('`') || label.contains('`') {
        return None;
    }
    let first = label.split_whitespace().next()?.to_lowercase();
    let words = label.split_whitespace().count();
    (matches!(first.as_str(), "no" | "nothing" | "clean" | "all" | "zero")
        && (2..=8).contains(&words))
    .then(|| format!("Run `{inner}`."))
}

/// "Otherwise run `/refactor` …", "Otherwise, ask the user": the case
/// is whatever the sentence before it did not cover, which no action
/// shows — read as a condition of its own ("If no earlier case applies,
/// …"), never a step due from the load.
pub(super) fn otherwise_case(s: &str) -> Option<String> {
    let t = s.trim_start();
    // "Anything else (open PR, ambiguous): do not delete": the case the
    // items before it did not cover, labelled.
    if let Some(rest) = [
        "Anything else",
        "Everything else",
        "Any other case",
        "All other cases",
    ]
    .iter()
    .find_map(|k| strip_emphasis(t).strip_prefix(k).map(str::to_string))
    {
        let rest = rest.trim_start();
        let rest = match rest.strip_prefix('(') {
            Some(r) => r.split_once(')')?.1,
            None => rest,
        };
        let rest = rest
            .trim_start_matches(['*', '_'])
            .strip_prefix(':')
            .or_else(|| rest.strip_prefix(" \u{2014}"))?
            .trim();
        return (!rest.is_empty())
            .then(|| format!("If no earlier case applies, {}", first_lower(rest)));
    }
    let rest = t
        .strip_prefix("Otherwise")
        .or_else(|| t.strip_prefix("otherwise"))
        .or_else(|| t.strip_prefix("Else"))?;
    let rest = rest.strip_prefix(',').unwrap_or(rest);
    if !rest.starts_with(' ') {
        return None;
    }
    let rest = rest.trim_start();
    (!rest.is_empty()).then(|| format!("If no earlier case applies, {rest}"))
}

/// "Use `--force-with-lease`, not `--force`", "Use `uv` instead of
/// `pip`": the alternative named second is what the rule forbids ("Never
/// use `--force`."); the one named first is the way to do an act the
/// session may never take, not a step due from the load.
pub(super) fn use_not_the_other(s: &str) -> Option<String> {
    let t = strip_emphasis(s);
    // ("⚠️ Use `A` - safer than `B`": a warning sign before the rule.)
    let t = t
        .trim()
        .trim_start_matches(|c: char| !c.is_alphanumeric() && c != '`')
        .trim();
    let lower = t.to_lowercase();
    let rest = lower
        .strip_prefix("always use ")
        .or_else(|| lower.strip_prefix("use "))?;
    let at = t.len().checked_sub(rest.len())?;
    let rest = t.get(at..)?;
    let (_, after) = rest.strip_prefix('`')?.split_once('`')?;
    let after = after.trim_start_matches([',', ' ', '-', '\u{2014}', ';']);
    let la = after.to_lowercase();
    // ("Use `--force-with-lease` - safer than `--force`", "Use `rg` over
    // `grep`": the other is what is avoided.)
    let other = [
        "not ",
        "rather than ",
        "instead of ",
        "never ",
        "safer than ",
        "better than ",
        "over ",
    ]
    .iter()
    .find_map(|k| la.starts_with(k).then(|| after.get(k.len()..)).flatten())?;
    let (_, b) = other
        .trim_start()
        .strip_prefix('`')?
        .split_once('`')
        .map(|(b, r)| (r, b))?;
    (!b.trim().is_empty()).then(|| format!("Never use `{b}`."))
}

/// "Show the summary and offer choices (push, rebase, or leave it)": the
/// acts after a spoken conjunct (offer, propose, suggest, recommend) are
/// what the user is offered, not acts of the rule — the rule is its first
/// conjunct.
pub(super) fn spoken_conjunct(s: &str) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    let at = [
        " and offer ",
        " and propose ",
        " and suggest ",
        " and recommend ",
    ]
    .iter()
    .find_map(|k| find_outside_code(&lower, k))?;
    let head = s.get(..at)?.trim();
    (words(head).len() >= 2).then(|| format!("{}.", head.trim_end_matches([',', ';', ':'])))
}

/// A sentence with "rather than" / "instead of" outside code spans: its
/// text without emphasis, that text in ASCII lower case (the same byte
/// offsets), and the offset of what comes after the contrast.
fn contrasted(s: &str) -> Option<(String, String, usize)> {
    let t = strip_emphasis(s);
    let lower = t.to_ascii_lowercase();
    let at = [" rather than ", " instead of "]
        .iter()
        .find_map(|k| find_outside_code(&lower, k).map(|i| i + k.len()))?;
    Some((t, lower, at))
}

/// "Stage files by name rather than using `git add -A`", "Read the file
/// instead of running `cat`": the command named after "rather than" /
/// "instead of" is what the rule forbids; the way named first is how to
/// act when the session acts at all.
pub(super) fn act_rather_than_command(s: &str) -> Option<String> {
    let (t, lower, at) = contrasted(s)?;
    // The head is an instruction of its own (not "never"; "Use `a` rather
    // than `b`" is read before).
    let head = words(&mask(t.get(..at)?).0);
    if negation(&head).0 || head.first().is_some_and(|w| w.text == "use") {
        return None;
    }
    let lower_tail = lower.get(at..)?;
    let skip = ["using ", "running ", "calling ", "with ", "a ", "the "]
        .iter()
        .find_map(|k| lower_tail.starts_with(k).then_some(k.len()))
        .unwrap_or(0);
    let tail = t.get(at + skip..)?;
    let (b, rest) = tail.strip_prefix('`')?.split_once('`')?;
    let rest = rest.trim().trim_end_matches(['.', ':', ';']).trim();
    (!b.trim().is_empty() && b.contains(' ') && rest.is_empty())
        .then(|| format!("Never use `{b}`."))
}

/// "Stop and diagnose rather than reaching for `--force`", "Create a new
/// commit instead of amending": a way around a safeguard
/// ([`overrides_a_safeguard`]) named after "rather than" / "instead of" is
/// what the rule forbids (it had been read as an act the rule asks for).
/// Other acts there stay as they are ("Report the error rather than
/// retrying the push" does not forbid pushing).
pub(super) fn bypass_rather_than(s: &str, lex: &Lexicon) -> Option<String> {
    let (t, lower, at) = contrasted(s)?;
    let head = words(&mask(t.get(..at)?).0);
    if negation(&head).0 {
        return None;
    }
    let lower_tail = lower.get(at..)?;
    let skip = [
        "reaching for ",
        "resorting to ",
        "falling back to ",
        "using ",
        "running ",
        "a ",
        "an ",
        "the ",
    ]
    .iter()
    .find_map(|k| lower_tail.starts_with(k).then_some(k.len()))
    .unwrap_or(0);
    let tail = t
        .get(at + skip..)?
        .trim()
        .trim_end_matches(['.', ':', ';', '!'])
        .trim();
    if tail.is_empty() || tail.contains([',', ';']) {
        return None;
    }
    let rule = format!("Never {tail}.");
    let act = clause_info(&rule, lex).behavior(false)?;
    overrides_a_safeguard(&act).then_some(rule)
}

/// "`tests/run.sh` fails — do not tag a red tree", "CI is red: do not
/// merge": a short failure before a dash or colon is the case the
/// prohibition after it holds in — "If `tests/run.sh` fails, do not tag …".
pub(super) fn failure_then_rule(s: &str) -> Option<String> {
    let t = strip_emphasis(s);
    let t = t.trim();
    let (head, rest) = [" \u{2014} ", " -- ", " - ", ": "]
        .iter()
        .find_map(|d| find_outside_code(t, d).map(|i| (&t[..i], &t[i + d.len()..])))?;
    let lower = head.to_lowercase();
    let fails = [" fails", " failed", " is red", " errors", " errored"]
        .iter()
        .any(|k| lower.ends_with(k));
    let short = words(head).len() <= 6;
    let conditional = words(head)
        .first()
        .is_some_and(|w| is_condition_word(&w.text));
    let rest = rest.trim();
    // (Only a prohibition: what a failure calls for otherwise — "Push
    // fails: check …, suggest a force push" — is left as it was.)
    let bars = ["do not ", "don't ", "never ", "must not "]
        .iter()
        .any(|p| rest.to_lowercase().starts_with(p));
    (fails && short && !conditional && bars).then(|| format!("If {head}, {}", first_lower(rest)))
}

/// "Ask the user to confirm the push", "Confirm deletion of branches with
/// the user", "Use `ask_user` to confirm the deletion": the act confirmed
/// waits on the user's word — "Never carry out the push without the
/// user's confirmation" (each had gated every edit, or nothing). Only where
/// what is confirmed names an act.
pub(super) fn confirm_the_act(s: &str, lex: &Lexicon) -> Option<String> {
    let t = strip_emphasis(s);
    let t = t.trim().trim_end_matches(['.', '!', ';', ':']).trim();
    let lower = t.to_ascii_lowercase();
    let lower = lower
        .strip_prefix("always ")
        .or_else(|| lower.strip_prefix("first "))
        .or_else(|| lower.strip_prefix("then "))
        .unwrap_or(&lower);
    let at = t.len() - lower.len();
    const LEADS: &[&str] = &[
        "ask the user to confirm ",
        "ask the user to approve ",
        "ask user to confirm ",
        "have the user confirm ",
        "have the user approve ",
        "let the user confirm ",
        "get the user to confirm ",
        "get the user's confirmation of ",
        "get user confirmation of ",
    ];
    let object = if let Some(k) = LEADS.iter().find(|k| lower.starts_with(**k)) {
        t.get(at + k.len()..)?
    } else if let Some(rest) = lower.strip_prefix("confirm ") {
        // "Confirm deletion with the user".
        let body = rest
            .strip_suffix(" with the user")
            .or_else(|| rest.strip_suffix(" with user"))?;
        t.get(at + "confirm ".len()..at + "confirm ".len() + body.len())?
    } else if lower.starts_with("use `") {
        // "Use `ask_user` (tool) to confirm deletion".
        let (_, after) = lower.split_once("` ")?;
        let after = after.strip_prefix("tool ").unwrap_or(after);
        let rest = after.strip_prefix("to confirm ")?;
        t.get(t.len() - rest.len()..)?
    } else {
        return None;
    };
    let object = object.trim();
    let ol = format!(" {} ", object.to_ascii_lowercase());
    if object.is_empty()
        || object.contains(['`', ',', ';'])
        || [
            " before ",
            " after ",
            " that ",
            " whether ",
            " if ",
            " which ",
        ]
        .iter()
        .any(|k| ol.contains(k))
        || clause_info(object, lex).actions.is_empty()
    {
        return None;
    }
    Some(format!(
        "Never carry out {object} without the user's confirmation."
    ))
}

/// "Confirm with the user before deleting", "No automatic deletions",
/// "Always preview before delete": a deletion whose object the rule leaves
/// out deletes the skill's object ([`skill_object`]) — "before deleting
/// branches", "No automatic deletion of branches". Only where the word ends
/// its clause or a condition or manner word follows; outside code spans.
pub(super) fn deletion_object(s: &str, object: &str) -> Option<String> {
    const VERBS: &[&str] = &[
        "delete", "deleting", "remove", "removing", "prune", "pruning",
    ];
    const NOUNS: &[(&str, &str)] = &[
        ("deletion", "deletion"),
        ("deletions", "deletion"),
        ("removal", "removal"),
        ("removals", "removal"),
    ];
    const FOLLOWERS: &[&str] = &[
        "without",
        "with",
        "until",
        "unless",
        "if",
        "when",
        "and",
        "or",
        "first",
        "yet",
        "automatically",
    ];
    rewrite_prose(s, |i, parts, part| {
        let mut out = String::with_capacity(part.len() + 16);
        let mut changed = false;
        let toks: Vec<&str> = part.split(' ').collect();
        // ("before deleting it": the pronoun is the skill's object too.)
        let mut pronoun_next = false;
        for (j, tok) in toks.iter().enumerate() {
            if j > 0 {
                out.push(' ');
            }
            let bare = tok.trim_end_matches(['.', ',', ';', ':', ')', '!', '?', '*']);
            if std::mem::take(&mut pronoun_next) {
                out.push_str(&format!("{object}{}", &tok[bare.len()..]));
                continue;
            }
            let lower = bare.to_lowercase();
            let punct = bare.len() < tok.len();
            // The next word of this part; none where a code span follows
            // ("delete `main`": its object) or the text ends.
            let rest: Vec<String> = toks[j + 1..]
                .iter()
                .filter(|n| !n.is_empty())
                .map(|n| n.to_lowercase())
                .collect();
            let next = rest.first().cloned();
            // ("removing or renaming an API route": one object for both.)
            let shared = matches!(next.as_deref(), Some("and" | "or"))
                && rest
                    .get(1)
                    .is_some_and(|v| v.ends_with("ing") || VERBS.contains(&v.as_str()));
            let ends = punct
                || match next.as_deref() {
                    None => i + 1 == parts,
                    Some(n) => {
                        !shared
                            && (FOLLOWERS.contains(&n.trim_end_matches(['.', ',', ';', ':']))
                                || n.starts_with(['\u{2014}', '-', '(']))
                    }
                };
            let verb = VERBS.contains(&lower.as_str());
            // ("`trunk` — never a target for deletion", "marked for
            // deletion": a state of the things named, not the act.)
            let marked = j > 0 && matches!(toks[j - 1].to_lowercase().as_str(), "for" | "from");
            let noun = NOUNS
                .iter()
                .find(|(n, _)| *n == lower && !marked)
                .map(|(_, base)| *base);
            // (Only a deletion the rule is conditioned on: "… before
            // deleting it"; "Remove it, then push" is left as it was.)
            let conditioned = j > 0
                && lower.ends_with("ing")
                && matches!(
                    toks[j - 1].to_lowercase().as_str(),
                    "before" | "after" | "when" | "until" | "without"
                );
            let pronoun = !punct
                && conditioned
                && matches!(
                    next.as_deref()
                        .map(|n| n.trim_end_matches(['.', ',', ';', ':', '!'])),
                    Some("it" | "them")
                );
            if verb && pronoun {
                out.push_str(tok);
                pronoun_next = true;
                changed = true;
                continue;
            }
            if ends && (verb || noun.is_some()) {
                let (word, rest) = tok.split_at(bare.len());
                match noun {
                    Some(base) => out.push_str(&format!("{base} of {object}{rest}")),
                    None => out.push_str(&format!("{word} {object}{rest}")),
                }
                changed = true;
                continue;
            }
            out.push_str(tok);
        }
        changed.then_some(out)
    })
}

/// "Stage specific files by name", "Keep staging explicit", "Never blindly
/// add all files": staging by name is the rule, so the blanket forms
/// (`git add -A`, `--all`, `.`) are what it forbids — the act a session
/// shows. (A rule that names its command in code is read as it stands.)
pub(super) fn explicit_staging(s: &str) -> Option<String> {
    if s.contains('`') {
        return None;
    }
    let w: Vec<String> = words(s).into_iter().map(|x| x.text).collect();
    let has = |x: &str| w.iter().any(|t| t == x);
    let pair = |a: &str, b: &str| w.windows(2).any(|p| p[0] == a && p[1] == b);
    let stages = w
        .iter()
        .any(|t| matches!(t.as_str(), "stage" | "staging" | "staged"))
        || (w.iter().any(|t| matches!(t.as_str(), "add" | "adding"))
            && w.iter()
                .any(|t| matches!(t.as_str(), "file" | "files" | "everything")));
    // "require staging validation", "deploy to staging": the environment,
    // not git's index.
    let environment = w.windows(2).any(|p| {
        p[1] == "staging" && matches!(p[0].as_str(), "on" | "to" | "in" | "into" | "from")
            || p[0] == "staging"
                && matches!(
                    p[1].as_str(),
                    "validation"
                        | "environment"
                        | "env"
                        | "server"
                        | "servers"
                        | "deploy"
                        | "deploys"
                        | "deployment"
                        | "deployments"
                        | "cluster"
                        | "site"
                        | "database"
                        | "db"
                        | "instance"
                        | "slot"
                        | "url"
                        | "stack"
                        | "release"
                        | "run"
                        | "test"
                        | "tests"
                        | "testing"
                        | "data"
                        | "first"
                )
    });
    if !stages || environment {
        return None;
    }
    let negative = w.iter().any(|t| {
        matches!(
            t.as_str(),
            "never" | "not" | "don't" | "dont" | "avoid" | "no"
        )
    });
    let explicit = pair("by", "name")
        || pair("by", "path")
        || has("explicit")
        || has("explicitly")
        || has("selectively")
        || pair("specific", "files")
        || pair("individual", "files")
        || pair("relevant", "files");
    let blanket = pair("all", "files") || has("everything") || has("blindly");
    ((explicit && !negative) || (blanket && negative))
        .then(|| "Never use `git add -A`, `git add --all` or `git add .`.".to_string())
}
