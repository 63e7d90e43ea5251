//! Part of stage 3 (conditions): the occasion a skill's description
//! names ("Use when implementing any feature …"), which the rules that
//! would otherwise be due from the skill's load hang on.

use super::*;

/// The act a skill's description says it is used around ("Use when
/// implementing any feature or bugfix, before writing implementation
/// code": the work's edits): the acts its "Use when …" occasions name.
/// "before …" / "after …" parts say what the skill precedes or follows and
/// are skipped. None where an occasion is the user's request or a
/// situation no action shows.
pub(crate) fn skill_act(description: &str, lex: &Lexicon) -> Option<Predicate> {
    let lower = description.to_lowercase();
    let mut acts: Vec<Predicate> = Vec::new();
    for sentence in lower.split(". ") {
        let Some(at) = ["use when ", "use this skill when ", "use it when "]
            .iter()
            .find_map(|k| sentence.find(k).map(|i| i + k.len()))
        else {
            continue;
        };
        for part in sentence[at..]
            .split([',', ';', '-', '\u{2014}'])
            .flat_map(split_occasions)
        {
            let part = part.trim().trim_start_matches("or ").trim();
            // ("… before writing implementation code", "before touching
            // code": what the skill precedes, not its occasion — a plan
            // written and handed on never touched code.)
            if part.starts_with("before ") || part.starts_with("after ") || part.is_empty() {
                continue;
            }
            let w = words(part);
            if w.iter().any(|x| {
                matches!(
                    x.text.as_str(),
                    "user"
                        | "users"
                        | "asks"
                        | "asked"
                        | "wants"
                        | "requests"
                        | "requested"
                        | "says"
                )
            }) {
                return None;
            }
            // Every occasion must be an act: one that no action shows
            // ("completing tasks", "you have a spec") is a use the load
            // alone attests.
            let p = clause_info(part, lex).behavior(false)?;
            if !acts.contains(&p) {
                acts.push(p);
            }
        }
    }
    any_of(acts).or_else(|| opening_act(description, lex))
}

/// "Creates a pull request from current changes, monitors CI …", "Set up
/// Claude Code hooks to block …": a description that opens with the act the
/// skill performs, where that act is on shared state, secrets or the
/// agent's configuration (a visible, scoped act — not "Review a pull
/// request" or "Systematic debugging"). Its first clause, third-person
/// verbs read as imperatives.
fn opening_act(description: &str, lex: &Lexicon) -> Option<Predicate> {
    let first = description
        .trim()
        .trim_matches('"')
        .split(['.', ':', ';', ',', '\u{2014}'])
        .next()?
        .split(" - ")
        .next()?;
    let mut w: Vec<String> = first.split_whitespace().map(str::to_string).collect();
    // ("Creates and manages …": each opening verb in its base form.)
    for i in [0, 2] {
        let Some(v) = w.get(i).map(|x| x.to_lowercase()) else {
            continue;
        };
        if i == 2 && !matches!(w[1].to_lowercase().as_str(), "and" | "or") {
            break;
        }
        let base = if lex.is_imperative(&v) {
            v
        } else {
            third_person_base(&v).filter(|b| lex.is_imperative(b))?
        };
        // ("Help address review comments on the open PR": a means or a
        // manner names no act of its own.)
        if lex.is_speech(&base)
            || matches!(
                base.as_str(),
                "help" | "use" | "follow" | "apply" | "ensure" | "guide" | "assist" | "provide"
            )
        {
            return None;
        }
        w[i] = base;
    }
    let clause = w.join(" ");
    let p = clause_info(&clause, lex).behavior(false)?;
    (!predicate_scopes(&p, lex).is_empty()).then_some(p)
}

/// "implementing major features or before merging": occasions joined by
/// "or" where a gerund, "before" or "after" follows it ("any feature or
/// bugfix" is one).
fn split_occasions(part: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = part;
    while let Some(i) = rest.find(" or ") {
        let next = rest[i + 4..].split_whitespace().next().unwrap_or("");
        if next.ends_with("ing") || next == "before" || next == "after" {
            out.push(&rest[..i]);
            rest = &rest[i + 4..];
        } else {
            break;
        }
    }
    out.push(rest);
    out
}

/// A requirement due from the skill's load in a skill used around an act
/// ([`skill_act`]): a session that never did the act never needed it —
/// `when` that act, `anywhere`. Rules that say they hold from the start
/// ("first", "at start", "always", "before any …") keep the load.
pub(crate) fn due_where_the_skill_applies(drafts: &mut [Draft], act: &Predicate) {
    for d in drafts.iter_mut() {
        if d.when.is_some() || d.forbid.is_some() {
            continue;
        }
        let Some(r) = &d.require else {
            continue;
        };
        if r == act {
            continue;
        }
        if holds_from_the_start(&d.text) {
            continue;
        }
        d.when = Some(act.clone());
        d.order = Some(Order::Anywhere);
    }
}

/// A rule that says it holds from the start of the session: "first",
/// "at start", "always", "immediately", "before …", "every"/"each".
pub(crate) fn holds_from_the_start(text: &str) -> bool {
    // (Words inside an aside are the aside's: "Generate the package (BASE
    // is the commit recorded before dispatching)" says nothing of when.)
    let w = words(&without_parentheses(text).to_lowercase());
    w.iter().enumerate().any(|(i, x)| {
        matches!(
            x.text.as_str(),
            "first" | "always" | "announce" | "immediately" | "before"
        ) || (matches!(x.text.as_str(), "every" | "each")
            // "Every session", "each time", "every response": the whole
            // session, from its start — not "for each imported file" (a
            // step over things the work meets, due where it meets them).
            // ("every working session": one word may qualify it.)
            && w[i + 1..].iter().take(2).any(|n| {
                matches!(
                    n.text.as_str(),
                    "time"
                        | "session"
                        | "run"
                        | "response"
                        | "reply"
                        | "answer"
                        | "turn"
                        | "message"
                        | "invocation"
                        | "conversation"
                        | "request"
                        | "interaction"
                        | "use"
                        | "step"
                        | "task"
                        | "change"
                        | "commit"
                        | "edit"
                )
            }))
            || (x.text == "start"
            // "At the start", "from the start" — not "wait for CI to
            // start", nor "Start with the sitemap" (a first look at the
            // work, due where work was done).
            && i > 0
            && matches!(w[i - 1].text.as_str(), "the" | "at" | "from" | "on"))
    })
}

/// The things a skill exists to delete or clean up, where its description
/// (or else its name) names them: the first of branches, tags, worktrees,
/// releases or stashes it mentions ("Prune local branches that are gone on
/// the remote", a skill named `branch-cleanup`).
pub(crate) fn skill_object(description: &str, name: &str) -> Option<&'static str> {
    const OBJECTS: &[(&str, &str)] = &[
        ("branches", "branch"),
        ("tags", "tag"),
        ("worktrees", "worktree"),
        ("releases", "release"),
        ("stashes", "stash"),
    ];
    let described = words(description)
        .into_iter()
        .find_map(|w| OBJECTS.iter().find(|(plural, _)| w.text == *plural))
        .map(|(plural, _)| *plural);
    described.or_else(|| {
        let parts: Vec<String> = name
            .to_lowercase()
            .split(['-', '_', ' '])
            .map(str::to_string)
            .collect();
        OBJECTS
            .iter()
            .find(|(plural, single)| parts.iter().any(|p| p == plural || p == single))
            .map(|(plural, _)| *plural)
    })
}
