//! Part of stage 2 (rule candidates): the modality words of a sentence — its
//! main verb, negation, modal words, filler, third-person statements and all-
//! caps rules.

use super::*;

/// Words skipped before a main verb.
pub(crate) fn is_filler(w: &str) -> bool {
    matches!(
        w,
        "you"
            | "must"
            | "should"
            | "shall"
            | "always"
            | "never"
            | "do"
            | "don't"
            | "dont"
            | "not"
            | "please"
            | "also"
            | "then"
            | "first"
            | "just"
            | "only"
            | "still"
            | "immediately"
            | "now"
            | "to"
            | "and"
            | "no"
            | "can't"
            | "cannot"
            | "can"
            | "we"
            | "i"
            | "mustn't"
            | "shouldn't"
            | "will"
            | "may"
            | "need"
            | "needs"
            | "otherwise"
            | "instead"
            | "again"
            | "actually"
            | "really"
            | "ever"
            | "auto"
    ) || (w.len() > 4
        && w.ends_with("ly")
        // Verbs that end like adverbs.
        && !matches!(w, "apply" | "reply" | "supply" | "comply" | "multiply" | "rely"))
}

/// The first word of a clause that is not a modal, adverb or pronoun.
/// "Re-run", "force-delete": the verb after a hyphenated prefix.
/// "Show the user, in one message:", "Tell your human partner:": a lead-in
/// addressed to the user lists what to say; its items are content, not acts.
pub(super) fn tells_the_user(t: &[&str], lex: &Lexicon) -> bool {
    let Some(i) = t.iter().position(|x| !is_filler(x)) else {
        return false;
    };
    let verb = t[i];
    let addressee = t[i + 1..]
        .iter()
        .filter(|x| !matches!(**x, "the" | "your" | "to"))
        .take(2)
        .any(|x| matches!(*x, "user" | "users" | "human" | "partner" | "maintainer"));
    (lex.is_speech(verb) || matches!(verb, "show" | "give" | "send" | "present")) && addressee
}

pub(crate) fn main_verb(w: &[Word]) -> Option<String> {
    let w: Vec<&Word> = w.iter().filter(|x| !x.barrier).collect();
    let i = w.iter().position(|x| !is_filler(&x.text))?;
    let t = w[i].text.as_str();
    // "Do the mechanical change in one commit": "do" is the verb where an
    // object follows it, not an auxiliary.
    if i > 0
        && w[i - 1].text == "do"
        && (i == 1 || !matches!(w[i - 2].text.as_str(), "not" | "never"))
        && (is_determiner(t) || matches!(t, "it" | "one"))
    {
        return Some("do".to_string());
    }
    match w.get(i + 1) {
        // "Re-test" is a verb, though "test" alone often is a noun.
        Some(n) if t == "re" && n.text == "test" => Some("retest".to_string()),
        Some(n) if matches!(t, "re" | "force" | "double" | "cross") => Some(n.text.clone()),
        _ => Some(t.to_string()),
    }
}

/// Negation at the head of a clause: (negative, weak = should-not).
pub(crate) fn negation(w: &[Word]) -> (bool, bool) {
    let t: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .collect();
    // Negation before the main verb ("Don't merge", "You must never
    // push"); after it, it belongs to a clause of its own ("Verify fixes
    // don't conflict").
    let verb_at = t
        .iter()
        .position(|x| {
            !is_filler(x)
                && !matches!(
                    *x,
                    "not"
                        | "no"
                        | "never"
                        | "don't"
                        | "dont"
                        | "mustn't"
                        | "cannot"
                        | "can't"
                        | "avoid"
                        | "shouldn't"
                )
        })
        .unwrap_or(t.len());
    let head = &t[..t.len().min(5).min(verb_at + 1)];
    // "No need to re-review": the reader may skip it.
    let needless = head.starts_with(&["no", "need"]);
    if nothing_to_act_on(&t) {
        return (false, false);
    }
    // ("You don't need to rebase": weak, whatever the negation word.)
    if no_need(&t) {
        return (true, true);
    }
    let weak = head.first() == Some(&"avoid")
        || needless
        || head.windows(2).any(|p| p == ["should", "not"])
        // ("Files should not be committed": the modal after its subject.)
        || t[..relative_clause_at(&t)]
            .windows(2)
            .any(|p| p == ["should", "not"])
        || head.contains(&"shouldn't");
    // "cannot" / "can't" only as an instruction ("you cannot claim it passes").
    let you_cannot = head
        .windows(2)
        .any(|p| p[0] == "you" && matches!(p[1], "cannot" | "can't"));
    let strong = head
        .iter()
        .any(|x| matches!(*x, "never" | "don't" | "dont" | "mustn't"))
        || you_cannot
        || head
            .windows(2)
            .any(|p| matches!(p[0], "do" | "must" | "shall") && p[1] == "not")
        || (t.first() == Some(&"no") && !needless)
        || t[..relative_clause_at(&t)]
            .windows(2)
            .any(|p| matches!(p[0], "must" | "shall") && p[1] == "not")
        || passive_never(&t[..relative_clause_at(&t)]);
    (strong || weak, weak && !strong)
}

/// "Secrets must never be committed", "Protected branches are never
/// deleted": a prohibition in the passive, its object first. Not a fact
/// with its agent ("… are never deleted by the script") or a need ("is
/// never required").
fn passive_never(t: &[&str]) -> bool {
    if t.contains(&"by") {
        return false;
    }
    t.windows(3).any(|p| {
        (matches!(p[0], "must" | "shall" | "should") && p[1] == "never" && p[2] == "be")
            || (matches!(p[0], "is" | "are")
                && p[1] == "never"
                && p[2].len() > 4
                && p[2].ends_with("ed")
                && !states_a_need(p[2]))
    })
}

/// "… is never required", "… is never used": a need or a fact, not a
/// prohibition.
pub(crate) fn states_a_need(participle: &str) -> bool {
    matches!(
        participle,
        "needed"
            | "required"
            | "expected"
            | "supported"
            | "guaranteed"
            | "used"
            | "affected"
            | "recommended"
    )
}

/// How many words name the skill itself as the subject ("This skill",
/// "The command", "It"): 0 where none do.
/// Only where what it never does changes state ("It does not push or
/// commit"); "It does not matter", "The command does not need network
/// access" state facts.
pub(crate) fn self_subject(t: &[&str]) -> usize {
    let n = match t {
        ["this" | "the", "skill" | "command" | "workflow", ..] => 2,
        ["it", ..] => 1,
        _ => return 0,
    };
    let verb = t[n..]
        .iter()
        .map(|x| x.trim_end_matches('s'))
        .find(|x| {
            !matches!(
                *x,
                "never"
                    | "doe"
                    | "does"
                    | "doesn't"
                    | "will"
                    | "won't"
                    | "not"
                    | "must"
                    | "should"
                    | "shall"
                    | "ever"
                    | "itself"
            )
        })
        .unwrap_or("");
    let negated = t[n..]
        .iter()
        .take(3)
        .any(|x| matches!(*x, "never" | "not" | "doesn't" | "won't"));
    let changes = matches!(
        verb.strip_suffix("e").unwrap_or(verb),
        "push"
            | "commit"
            | "merg"
            | "delet"
            | "remov"
            | "edit"
            | "modify"
            | "modifie"
            | "writ"
            | "touch"
            | "creat"
            | "publish"
            | "deploy"
            | "install"
            | "amend"
            | "rebas"
            | "tag"
            | "releas"
            | "overwrit"
            | "rewrit"
            | "reset"
            | "clos"
            | "post"
            | "upload"
            | "updat"
            | "chang"
    );
    if negated && changes {
        n
    } else {
        0
    }
}

/// "No need to push", "No verification needed", "No approval is
/// required for `git fetch`": the act may be skipped. Saying it is not
/// needed forbids nothing — a weak negative with no act to check.
/// Also the reader not obliged: "You don't need to open a branch", "You do
/// not have to squash", "You need not rerun it", "There is no need to push".
pub(crate) fn no_need(t: &[&str]) -> bool {
    let t = match t {
        ["there", "is" | "s" | "'s" | "are", rest @ ..] | ["there's", rest @ ..] => rest,
        _ => t,
    };
    let not_obliged = || {
        let lead = t
            .iter()
            .take_while(|x| matches!(**x, "you" | "we" | "i"))
            .count();
        let rest = &t[lead..];
        let neg = match rest {
            ["do" | "does" | "did", "not", ..] => 2,
            ["don't" | "dont" | "doesn't" | "doesnt" | "never", ..] => 1,
            _ => return matches!(rest, ["need", "not", ..]),
        };
        matches!(
            &rest[neg..],
            ["need" | "needs" | "have" | "has", "to", ..] | ["need", ..]
        )
    };
    t.first() == Some(&"no")
        && (t.get(1) == Some(&"need")
            || t.iter()
                .take(5)
                .skip(1)
                .any(|x| matches!(*x, "needed" | "required" | "necessary")))
        || not_obliged()
}

/// "No changes to commit", "No commits to push": a state (nothing there
/// to act on), not a forbid of the act — unlike "No commits to main".
pub(crate) fn nothing_to_act_on(t: &[&str]) -> bool {
    t.first() == Some(&"no")
        && t.get(1) != Some(&"need")
        && t.iter().take(4).position(|x| *x == "to").is_some_and(|i| {
            i >= 2
                && t.get(i + 1).is_some_and(|v| {
                    matches!(
                        *v,
                        "commit"
                            | "push"
                            | "stage"
                            | "merge"
                            | "review"
                            | "fix"
                            | "run"
                            | "test"
                            | "release"
                            | "publish"
                            | "deploy"
                            | "tag"
                            | "report"
                            | "address"
                            | "resolve"
                            | "update"
                            | "clean"
                            | "delete"
                            | "remove"
                            | "process"
                            | "check"
                            | "do"
                    )
                })
        })
}

/// Where a relative clause starts ("files that must not be committed"):
/// its modal words qualify the object, not the rule. The end when none.
pub(super) fn relative_clause_at(t: &[&str]) -> usize {
    t.iter()
        .skip(1)
        .position(|x| matches!(*x, "that" | "which" | "who"))
        .map_or(t.len(), |i| i + 1)
}

/// A clause's own modal word: Some(modality) when it says one.
pub(crate) fn own_modal(w: &[Word]) -> Option<Modality> {
    let (neg, weak) = negation(w);
    if neg {
        return Some(if weak {
            Modality::ShouldNot
        } else {
            Modality::MustNot
        });
    }
    let t: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .collect();
    // ("Check for files that should not be committed": a modal inside a
    // relative clause qualifies the object, not the rule.)
    if t[..relative_clause_at(&t)]
        .iter()
        .any(|x| matches!(*x, "should" | "prefer" | "recommended" | "ideally"))
    {
        return Some(Modality::Should);
    }
    if t.iter().any(|x| {
        matches!(
            *x,
            "must" | "always" | "required" | "mandatory" | "shall" | "ensure" | "never"
        )
    }) || t.windows(2).any(|p| p == ["make", "sure"])
        || t.first() == Some(&"only")
        || names_a_format(&t)
        // ("`--latest` is not optional here": required, said the other way.)
        || t.windows(3).any(|p| matches!(p[0], "is" | "are") && p[1] == "not" && p[2] == "optional")
    {
        return Some(Modality::Must);
    }
    None
}

pub(crate) fn starts_with_third_person(w: &[Word]) -> bool {
    // "Test passes", "Plan has gaps": a noun then a verb in -s is a statement.
    w.len() >= 2
        && w[1].text.ends_with('s')
        && !w[1].text.ends_with("ss")
        && w[0].text != "use"
        && w[0].text != "run"
        && (matches!(
            w[0].text.as_str(),
            "test" | "plan" | "code" | "output" | "build"
        )
            // "Squash keeps history clean", "Rebase rewrites commits": a
            // verb of effect after the first word makes it the subject.
            || matches!(
                w[1].text.as_str(),
                "keeps"
                    | "makes"
                    | "ensures"
                    | "means"
                    | "gives"
                    | "lets"
                    | "helps"
                    | "prevents"
                    | "avoids"
                    | "causes"
                    | "creates"
                    | "leaves"
                    | "produces"
                    | "rewrites"
                    | "preserves"
                    | "guarantees"
                    | "breaks"
                    | "loses"
            ))
}

/// An all-caps rule line ("NO PRODUCTION CODE WITHOUT A FAILING TEST FIRST").
pub(crate) fn is_caps_rule(s: &str) -> bool {
    let ws: Vec<&str> = s
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_alphabetic()))
        .collect();
    ws.len() >= 4 && ws.iter().all(|w| !w.chars().any(|c| c.is_lowercase()))
}
