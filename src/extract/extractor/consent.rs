//! Part of stage 3 (conditions): what a rule says about the user's word —
//! consent gates (SPEC §4.2), the user's request or approval in its many
//! phrasings, and acts done unasked.

use super::*;

/// "automatically", "silently", "on your own": the act done without the
/// user asking, which a negative rule forbids (a consent gate).
pub(super) fn acts_unasked(main: &str) -> bool {
    // (Only the act's own words: "…: it accepts empty input silently"
    // explains what a program does.)
    let masked = mask(main).0;
    let own = masked.split(':').next().unwrap_or("");
    let w: Vec<String> = words(own).into_iter().map(|x| x.text).collect();
    w.iter().any(|t| {
        matches!(
            t.as_str(),
            "automatically"
                | "automatic"
                | "silently"
                | "proactively"
                | "unprompted"
                | "unasked"
                | "unrequested"
                | "unilaterally"
        )
    }) || w.windows(3).any(|p| {
        p[0] == "on" && matches!(p[1].as_str(), "your" | "its" | "my" | "their") && p[2] == "own"
    }) || w
        .windows(2)
        .any(|p| p[0] == "own" && p[1] == "initiative")
        || w.windows(3).any(|p| {
            p[0] == "without" && p[1] == "being" && matches!(p[2].as_str(), "asked" | "told")
        })
        // "Never push to a remote the user has not confirmed": only to
        // what the user confirmed — the act waits on the user's word.
        || w.windows(4).any(|p| {
            matches!(p[0].as_str(), "user" | "human" | "partner" | "they")
                && matches!(p[1].as_str(), "has" | "have" | "did" | "does")
                && matches!(p[2].as_str(), "not" | "n't")
                && ["confirm", "approv", "chose", "choos", "agree", "ask", "request", "select"]
                    .iter()
                    .any(|v| p[3].starts_with(v))
        })
}

/// A consent gate (SPEC §4.2): `when` the guarded action, `require` a user
/// turn, `before-each` (or `before` where one consent covers the batch).
pub(super) fn consent_gate(d: &mut Draft, guarded: Predicate, each: bool) {
    d.when = Some(guarded);
    d.require = Some(Predicate::UserTurn);
    d.forbid = None;
    d.order = Some(if each {
        Order::BeforeEach
    } else {
        Order::Before
    });
}

/// "If the user only wants commit and push": what the user wants, whatever
/// act it names, is no act of the session.
pub(super) fn user_wants(c: &str) -> bool {
    let w = plain_words(c);
    w.iter()
        .any(|x| matches!(x.as_str(), "user" | "users" | "partner" | "human"))
        && w.iter().any(|x| {
            matches!(
                x.as_str(),
                "wants" | "want" | "prefers" | "needs" | "wishes" | "chooses" | "picks"
            )
        })
}

/// Words of consent or approval by a person.
/// The user (or partner) asks, requests, approves or confirms: consent
/// given in the conversation, whatever act it names.
pub(super) fn user_consent(text: &str) -> bool {
    let w = words(&mask(text).0);
    // ("Push only if I say so": a skill written in the user's own voice.)
    let who = w.iter().any(|x| {
        matches!(
            possessed(&x.text),
            "user" | "users" | "partner" | "human" | "they" | "i" | "me"
        )
    });
    // "unless instructed", "unless explicitly asked to": the user's word
    // in the passive.
    const GIVEN: &[&str] = &[
        "instructed",
        "told",
        "asked",
        "requested",
        "approved",
        "authorized",
        "authorised",
        "directed",
        // ("On approval:", "After confirmation:": the word as a noun.)
        "approval",
        "confirmation",
        "consent",
    ];
    let passive = w.iter().any(|x| GIVEN.contains(&x.text.as_str()))
        && w.iter().all(|x| {
            x.barrier
                || GIVEN.contains(&x.text.as_str())
                || matches!(
                    x.text.as_str(),
                    "explicitly"
                        | "specifically"
                        | "expressly"
                        | "to"
                        | "so"
                        | "do"
                        | "first"
                        | "you"
                        | "are"
                        | "were"
                        | "have"
                        | "been"
                        | "by"
                        | "the"
                        | "on"
                        | "upon"
                        | "after"
                        | "once"
                        | "if"
                        | "when"
                        | "with"
                        | "explicit"
                        | "their"
                )
        });
    passive
        || who
            && w.iter().any(|x| {
                let t = x.text.as_str();
                // ("until the user has reviewed the diff": their review.)
                [
                    "ask", "request", "approv", "confirm", "consent", "agree", "instruct", "tell",
                    "told", "say", "said", "want", "review",
                ]
                .iter()
                .any(|v| t.starts_with(v))
            })
}

/// "user approval", "the user has confirmed", "approved", "receiving
/// explicit consent": a condition that is the user's word given, and
/// nothing else (not what they asked for: "the user asks to commit").
pub(super) fn approval_given(text: &str) -> bool {
    let w = words(&mask(text).0);
    let given = |t: &str| {
        [
            "approv", "confirm", "consent", "agree", "sign-off", "go-ahead",
        ]
        .iter()
        .any(|v| t.starts_with(v))
    };
    w.iter().any(|x| given(&x.text))
        && w.iter().all(|x| {
            x.barrier
                || given(&x.text)
                || matches!(
                    possessed(&x.text),
                    "after"
                        | "only"
                        | "once"
                        | "upon"
                        | "on"
                        | "with"
                        | "the"
                        | "their"
                        | "your"
                        | "user"
                        | "users"
                        | "human"
                        | "partner"
                        | "they"
                        | "explicit"
                        | "explicitly"
                        | "written"
                        | "has"
                        | "have"
                        | "is"
                        | "been"
                        | "given"
                        | "getting"
                        | "receiving"
                        | "obtaining"
                        | "it"
                        | "this"
                        | "that"
                        | "plan"
                        | "changes"
                        | "report"
                        | "proposal"
                        | "proposals"
                        | "draft"
                        | "edits"
                        | "diff"
                        | "summary"
                )
        })
}

/// "explicit \"yes\"", "an explicit 'go'": the user's word, quoted (in
/// lower case text).
pub(super) fn explicit_quoted_word(lower: &str) -> bool {
    ["explicit \"", "explicit '", "explicit \u{201c}"]
        .iter()
        .any(|q| lower.contains(q))
}

pub(super) fn mentions_consent(text: &str) -> bool {
    let lower = text.to_lowercase();
    if lower.contains("sign-off") || lower.contains("sign off") || lower.contains("go-ahead") {
        return true;
    }
    // "without explicit \"push\" keyword", "without an explicit
    // instruction", "wait for explicit \"yes\"": the user's own word,
    // quoted or named.
    if explicit_quoted_word(&lower) {
        return true;
    }
    if words(&mask(text).0).windows(2).any(|p| {
        p[0].text == "explicit"
            && (p[1].barrier
                || matches!(
                    p[1].text.as_str(),
                    "instruction"
                        | "instructions"
                        | "keyword"
                        | "keywords"
                        | "word"
                        | "say-so"
                        | "command"
                        | "direction"
                        | "directive"
                        | "ok"
                        | "okay"
                ))
    }) {
        return true;
    }
    // "without asking first", "without being told".
    if words(&mask(text).0).iter().any(|w| {
        matches!(
            w.text.as_str(),
            "asking" | "asked" | "instructed" | "told" | "ok" | "okay"
        )
    }) {
        return true;
    }
    words(&mask(text).0).iter().any(|w| {
        w.text.starts_with("approv")
            || w.text.starts_with("consent")
            || w.text.starts_with("permission")
            || w.text.starts_with("agree")
            || matches!(
                possessed(&w.text),
                "user"
                    | "users"
                    | "partner"
                    | "human"
                    | "confirm"
                    | "confirms"
                    | "confirmed"
                    | "confirmation"
                    | "request"
                    | "requests"
                    | "requested"
                    | "says"
                    | "explicitly"
                    | "responds"
                    | "replies"
                    | "answers"
            )
    })
}

/// The owner of a possessive ("user's" → "user", "users'" → "users").
fn possessed(w: &str) -> &str {
    w.strip_suffix("'s")
        .or_else(|| w.strip_suffix('\''))
        .unwrap_or(w)
}

/// "Push the branch (ask first).", "`git worktree remove <path>` (use
/// `--force` only with approval)": a closing parenthetical that puts the
/// act — or one flag of it — behind the user's word. The sentence without
/// it, the aside's text, and the flag it names (`--force`, or "force" as a
/// word), if any.
pub(super) fn consent_aside(s: &str) -> Option<(String, String, Option<String>)> {
    let t = s.trim_end();
    let body = t.trim_end_matches(['.', ';']).trim_end();
    if let Some(tail) = asks_first_tail(body) {
        return Some(tail);
    }
    let inner_end = body.strip_suffix(')')?;
    let open = inner_end.rfind('(')?;
    let inner = &inner_end[open + 1..];
    let main = inner_end[..open].trim_end();
    if main.is_empty() || inner.contains('(') {
        return None;
    }
    let w = plain_words(inner);
    // ("(user confirms)", "(if the user agrees)": the person whose word it
    // is marks it as much as "with" or "after" does.)
    let who = w
        .iter()
        .any(|x| matches!(x.as_str(), "user" | "user's" | "human" | "partner"));
    let consent = w.iter().any(|x| {
        x.starts_with("approv")
            || x.starts_with("confirm")
            || x.starts_with("consent")
            || x.starts_with("permission")
            || (who && x.starts_with("agree"))
    }) && (who
        || w.iter().any(|x| {
            x == "only" || x == "with" || x == "after" || x == "needs" || x == "requires"
        }));
    let ask_first = w.len() <= 4
        && w.first().is_some_and(|x| x == "ask" || x == "confirm")
        && w.iter().any(|x| x == "first" || x == "before");
    if !(consent || ask_first) {
        return None;
    }
    let flag = mask(inner)
        .1
        .into_iter()
        .find(|c| c.starts_with('-') && !c.contains(char::is_whitespace))
        .or_else(|| w.iter().any(|x| x == "force").then(|| "force".to_string()));
    Some((format!("{main}."), inner.trim().to_string(), flag))
}

/// "Never push to main — ask the user first", "Do not rebase; if
/// necessary, ask first": a closing clause after a dash or a semicolon
/// that asks before the act (the sentence without it, the clause, no
/// flag).
fn asks_first_tail(body: &str) -> Option<(String, String, Option<String>)> {
    let at = [" \u{2014} ", " -- ", " - ", "; "]
        .iter()
        .filter_map(|sep| find_outside_code(body, sep).map(|i| (i, sep.len())))
        .max()?;
    let (main, tail) = (body[..at.0].trim_end(), body[at.0 + at.1..].trim());
    let w = plain_words(tail);
    let w: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .skip_while(|x| {
            matches!(
                *x,
                "if" | "necessary" | "needed" | "required" | "otherwise" | "and"
            )
        })
        .collect();
    // ("check with the user first", "confirm with them before")
    let with_user = w.len() >= 3
        && matches!(w[0], "check" | "confirm")
        && w[1] == "with"
        && matches!(w[2], "the" | "user" | "them" | "your");
    // ("present the proposal for human review first", "show the diff to
    // the user for approval first": the act waits on the user's review.)
    let for_review = w.len() <= 10
        && w.first()
            .is_some_and(|x| matches!(*x, "present" | "show" | "propose" | "share"))
        && w.iter()
            .any(|x| matches!(possessed(x), "user" | "human" | "them" | "maintainer"))
        && w.iter().any(|x| {
            matches!(
                *x,
                "review" | "approval" | "confirmation" | "sign-off" | "consent"
            )
        });
    let asks = (((w.first() == Some(&"ask") || with_user) && w.len() <= 6) || for_review)
        && w.last().is_some_and(|x| matches!(*x, "first" | "before"));
    (asks && !main.is_empty()).then(|| (format!("{main}."), tail.to_string(), None))
}

/// A command carrying a flag: `--force` itself, or "force" as a word
/// (`--force` or `-f`).
pub(super) fn with_flag(act: Predicate, flag: &str) -> Predicate {
    let carries = if flag == "force" {
        Predicate::Any(vec![flag_predicate("--force"), flag_predicate("-f")])
    } else {
        flag_predicate(flag)
    };
    Predicate::All(vec![act, carries])
}

/// "telling the user", "informing them", "letting the user know": the
/// agent speaks to the user; no word of theirs is asked for.
pub(super) fn informs_the_user(text: &str) -> bool {
    let w = plain_words(text);
    w.windows(2).any(|p| {
        matches!(
            p[0].as_str(),
            "telling"
                | "informing"
                | "notifying"
                | "letting"
                | "warning"
                | "updating"
                | "reminding"
        ) && matches!(p[1].as_str(), "the" | "user" | "them" | "your" | "users")
    })
}
