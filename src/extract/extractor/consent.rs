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
                )
        });
    passive
        || who
            && w.iter().any(|x| {
                let t = x.text.as_str();
                [
                    "ask", "request", "approv", "confirm", "consent", "agree", "instruct", "tell",
                    "told", "say", "said", "want",
                ]
                .iter()
                .any(|v| t.starts_with(v))
            })
}

pub(super) fn mentions_consent(text: &str) -> bool {
    let lower = text.to_lowercase();
    if lower.contains("sign-off") || lower.contains("sign off") || lower.contains("go-ahead") {
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
