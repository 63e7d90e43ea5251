//! Part of stage 2 (rule candidates): lead-ins — a paragraph or a parent item
//! ending in ':' — and what they say about the items under them (conditions,
//! consent, speech, descriptions, remedies).

use super::*;

/// What governs a list: a lead-in paragraph or a parent item ending in ':'.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lead {
    /// The lead-in is a rule marker or says a rule ("Always:", "Confirm:").
    pub(crate) normative: bool,
    /// Modality its items inherit when they say none themselves.
    pub(crate) modality: Option<Modality>,
    /// "ALWAYS before:" / "STOP when:": the items are the conditions.
    pub(crate) items_are_conditions: Option<Order>,
    /// "Before marking work complete:": the lead-in's own condition text.
    pub(crate) condition: Option<(String, Order)>,
    /// The lead-in also has a main clause ("When X, read Y:"): a rule itself.
    pub(crate) has_main: bool,
    /// The lead-in names branches ("Never touch these branches:"): its
    /// items are branch names.
    pub(crate) branches: bool,
    /// The lead-in's verb writes files ("Generate these files:"): an item
    /// naming a file is a file to write.
    pub(crate) path_verb: Option<String>,
    /// "Use when:" / "Don't use when:" / "When to use:": the items say when
    /// the skill applies, they are not rules.
    pub(crate) use_conditions: bool,
    /// "Use option 3 instead. This workflow:": a lead-in with a rule of its
    /// own whose last sentence says the items describe what something does.
    pub(crate) describes_items: bool,
    /// A short lead-in ending in when / if / for ("Create when:", "Don't
    /// create for:"): under a "When to …" heading, its items say when.
    pub(crate) short_conditional: bool,
    /// "Offer exactly these choices:", "Present the options:": the items
    /// are what to say, part of the lead-in's rule.
    pub(crate) speech_items: bool,
    /// "Each agent gets:" / "The reviewer checks:": the items are another
    /// agent's brief, not acts of the agent the skill steers.
    pub(crate) other_actor: bool,
    /// "Requires confirmation, including:": the items are acts that wait
    /// on the user's word.
    pub(crate) approval: bool,
    /// "NEVER force push to:": a negative act whose objects are the items
    /// (branch names); the act itself.
    pub(crate) act_on_items: Option<Predicate>,
    /// "You must ask before:", "Check with the user before:": each item is
    /// an act that waits on the user's word (a consent gate per item).
    pub(crate) consent_before: bool,
    /// "Only after user approval:": the items are done once the user's word
    /// is given — those that change something wait for it (a test run or a
    /// look does not).
    pub(crate) after_approval: bool,
    /// "Never commit:", "Do NOT commit files that are:": the items are what
    /// is not to be staged; the lead-in's verb.
    pub(crate) stage_verb: Option<String>,
    /// "Mock external factors:", "Stub these in unit tests:": the items
    /// are what the lead-in's verb acts on, not acts of the session.
    pub(crate) topic_items: bool,
    /// "You do not need to:", "No need to:": each item is an act the
    /// reader may skip — not needed, so nothing is forbidden.
    pub(crate) needless: bool,
}

/// Words that ask for the user's approval: "approval", "confirm",
/// "consent", "permission" (also inside `requires_approval`).
pub(crate) fn asks_approval(text: &str) -> bool {
    let t = text.to_lowercase();
    ["approv", "confirm", "consent", "permission"]
        .iter()
        .any(|w| t.contains(w))
}

/// A step that waits on the user: it asks, presents or offers something,
/// or gets an approval or answer ("Present design — get user approval").
pub(crate) fn waits_on_user(text: &str, lex: &Lexicon) -> bool {
    let t = strip_emphasis(text);
    // ("**notes/guide.md** - …" names a file; "notes" is no verb.)
    if unquoted_file_head(&t).is_some() {
        return false;
    }
    let w = words(&mask(&t).0);
    let verb = main_verb(&w);
    let to_person = w
        .iter()
        .any(|x| matches!(x.text.as_str(), "user" | "partner" | "human"));
    // "Confirm the base branch exists", "Note the path": a check or a
    // remark waits on no one; "Confirm with the user" does.
    let checks = verb
        .as_deref()
        .is_some_and(|v| matches!(v, "confirm" | "note" | "state" | "name" | "output" | "flag"));
    verb.as_deref()
        .is_some_and(|v| lex.is_speech(v) || matches!(v, "ask" | "offer" | "propose"))
        && (!checks || to_person)
        || w.iter().any(|x| x.text.starts_with("approv") || x.text.starts_with("consent"))
        // A step that names the user waits on them where it asks or hears
        // back ("get the user's answer", "until the user agrees"); telling
        // them ("state the cause to the user before acting") waits on no one.
        || (to_person
            && !checks
            && !verb.as_deref().is_some_and(|v| lex.is_speech(v) && !matches!(v, "ask"))
            && w.iter().any(|x| {
                matches!(
                    x.text.as_str(),
                    "ask"
                        | "asks"
                        | "answer"
                        | "answers"
                        | "respond"
                        | "responds"
                        | "response"
                        | "reply"
                        | "replies"
                        | "decide"
                        | "decides"
                        | "decision"
                        | "choose"
                        | "chooses"
                        | "choice"
                        | "pick"
                        | "picks"
                        | "confirm"
                        | "confirms"
                        | "confirmation"
                        | "agree"
                        | "agrees"
                        | "feedback"
                        | "input"
                        | "wait"
                        | "waits"
                        | "go-ahead"
                        | "ahead"
                        | "ok"
                        | "okay"
                        | "sign"
                        | "signs"
                        | "review"
                        | "reviews"
                        | "says"
                        | "accept"
                        | "accepts"
                        | "wants"
                        | "selects"
                        | "select"
                )
            }))
}

/// A lead-in that only names what is barred: "Forbidden actions",
/// "Prohibited commands", "Not allowed", "Banned".
pub(super) fn forbidding_lead(t: &[&str]) -> bool {
    let barred = |x: &str| matches!(x, "forbidden" | "prohibited" | "banned" | "disallowed");
    (t.len() <= 3 && t.iter().any(|x| barred(x)))
        || matches!(t, ["not", "allowed"] | ["never", "allowed"])
}

/// "Report back:", "Reply with:", "Output:": a bare lead-in whose verb
/// says what the agent tells (over the template it is to fill).
pub(super) fn reports_in_form(text: &str, lex: &Lexicon) -> bool {
    let w = words(&mask(text).0);
    let w = &w[heading_number(&w)..];
    w.len() <= 3
        && w.first().is_some_and(|v| {
            lex.is_speech(&v.text)
                || matches!(
                    v.text.as_str(),
                    "report" | "reply" | "respond" | "output" | "return"
                )
        })
}

/// "Every commit message follows:", "Branch names follow this pattern",
/// "PR titles use the imperative": a name or message said to follow a
/// form is a norm on what the agent writes.
pub(super) fn names_a_format(t: &[&str]) -> bool {
    // "Each finding follows this format:", "Entries use the following
    // template:": what is written takes that form.
    let form = t.windows(3).any(|p| {
        matches!(p[0], "follows" | "follow" | "uses" | "matches")
            && matches!(p[1], "this" | "the" | "that")
            && matches!(
                p[2],
                "format" | "template" | "structure" | "layout" | "shape" | "following"
            )
    });
    form || t.windows(2).any(|p| {
        matches!(
            p[0],
            "message" | "messages" | "name" | "names" | "title" | "titles" | "subject" | "subjects"
        ) && matches!(p[1], "follow" | "follows" | "match" | "matches")
    })
}

/// "What never gets committed:", "What must never be pushed to
/// `main`:" — a list title naming what is never done to its items: the
/// same lead-in as "Never commit these:".
pub(crate) fn never_done_title(text: &str, lex: &Lexicon) -> Option<String> {
    let body = text.trim().trim_end_matches(':');
    let toks: Vec<&str> = body.split_whitespace().collect();
    let low: Vec<String> = toks.iter().map(|t| t.to_lowercase()).collect();
    if low.first().map(String::as_str) != Some("what") {
        return None;
    }
    let mut i = 1;
    if low
        .get(i)
        .is_some_and(|t| matches!(t.as_str(), "must" | "should" | "shall"))
    {
        i += 1;
    }
    if low.get(i).map(String::as_str) != Some("never") {
        return None;
    }
    i += 1;
    if !low
        .get(i)
        .is_some_and(|t| matches!(t.as_str(), "gets" | "get" | "is" | "are" | "be" | "goes"))
    {
        return None;
    }
    let participle = low.get(i + 1)?;
    if !participle.ends_with("ed") {
        return None;
    }
    let base = lex
        .imperatives
        .iter()
        .find(|b| crate::extract::lexicon::verb_matches(participle, b))?;
    let rest = toks[i + 2..].join(" ");
    Some(format!("Never {base} these {rest}").trim_end().to_string() + ":")
}

pub(crate) fn lead_of(text: &str, lex: &Lexicon) -> Lead {
    let text = strip_emphasis(text);
    // "**Handling violations**: If a secret is found:": the label names
    // the step, the condition after it is the lead-in's.
    let text = match split_label(&text) {
        Some((_, after))
            if words(&after)
                .first()
                .is_some_and(|w| is_condition_word(&w.text)) =>
        {
            after
        }
        _ => text,
    };
    // ("What NEVER gets committed:": "Never commit these:" said as a list
    // title.)
    let restated = never_done_title(&text, lex);
    let text = restated.unwrap_or(text);
    let body = text.trim_end().trim_end_matches(':');
    let (masked, _, _) = mask(body);
    let w = words(&masked);
    let t: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .collect();
    // ("Only after user approval:": the items wait on the word given.)
    let after_approval = approval_given(strip_emphasis(body).trim_end().trim_end_matches(':'));
    let mut lead = Lead {
        modality: own_modal(&w),
        branches: w.iter().any(|x| x.text == "branch" || x.text == "branches"),
        // ("NEVER run these operations unless the user gives explicit,
        // written instruction:": the items wait on the user's word.)
        approval: asks_approval(body)
            || (matches!(own_modal(&w), Some(Modality::MustNot | Modality::ShouldNot))
                && t.iter().any(|x| matches!(*x, "unless" | "without"))
                && user_consent(body)),
        consent_before: before_the_items(&t)
            && (t.iter().any(|x| matches!(*x, "ask" | "asking"))
                || t.windows(3).any(|p| p[0] == "check" && p[1] == "with")
                || asks_approval(body))
            || after_approval,
        after_approval,
        ..Lead::default()
    };
    // "NEVER force push to:", "Never commit directly on:": the items name
    // where the act is forbidden.
    if matches!(lead.modality, Some(Modality::MustNot | Modality::ShouldNot))
        && t.last().is_some_and(|x| matches!(*x, "to" | "into" | "on"))
    {
        lead.act_on_items = clause_info(body, lex).behavior(false);
        lead.branches |= lead.act_on_items.is_some();
    }
    if t.iter().any(|x| matches!(*x, "avoid")) {
        lead.modality = Some(Modality::ShouldNot);
    }
    // "You don't need a new branch for every commit:" over ways to work:
    // the lead-in's act, with its object, is the one not needed — its
    // items are alternatives offered, not acts skipped too.
    if no_need(&t) {
        let obj = t
            .iter()
            .position(|x| matches!(*x, "need" | "needs" | "needed" | "have" | "has"))
            .map_or(0, |i| {
                // ("No need to run these:", "… the following:": the items
                // are its object.)
                t[i + 1..]
                    .iter()
                    .filter(|x| {
                        !matches!(
                            **x,
                            "to" | "not"
                                | "the"
                                | "these"
                                | "those"
                                | "them"
                                | "following"
                                | "any"
                                | "of"
                                | "below"
                        )
                    })
                    .count()
            });
        if obj >= 2 {
            lead.modality = Some(Modality::Should);
        } else {
            lead.needless = true;
        }
    }
    // "**Forbidden actions:**", "Prohibited:", "Not allowed:": the items
    // are acts never to take.
    if lead.modality.is_none() && forbidding_lead(&t) {
        lead.modality = Some(Modality::MustNot);
    }
    if t.iter().any(|x| matches!(*x, "stop")) && lead.modality.is_none() {
        lead.modality = Some(Modality::Must);
    }
    let marker = t.iter().any(|x| {
        matches!(
            *x,
            "always"
                | "never"
                | "must"
                | "should"
                | "don't"
                | "avoid"
                | "required"
                | "requirements"
                | "confirm"
                | "rules"
                | "rule"
                | "checklist"
                | "exceptions"
                | "stop"
                | "verify"
                | "ensure"
                | "mandatory"
        )
    }) || text.to_lowercase().contains("done when")
        || forbidding_lead(&t);
    // "ALWAYS before:" / "STOP executing immediately when:": the items are conditions.
    if let Some(last) = t.last() {
        let order = match *last {
            "before" => Some(Order::Before),
            "when" | "if" | "after" | "whenever" => Some(Order::After),
            _ => None,
        };
        if order.is_some() {
            lead.items_are_conditions = order;
        }
    }
    // "Before marking work complete:": the lead-in is the condition.
    if let Some(first) = t.first() {
        if is_condition_word(first) && lead.items_are_conditions.is_none() && t.len() > 1 {
            let order = if *first == "before" {
                Order::Before
            } else {
                Order::After
            };
            match split_leading_condition(body) {
                // "When writing a test, read X:": the condition, and a rule of its own.
                Some((cond, _)) => {
                    lead.condition = Some((cond, order));
                    lead.has_main = true;
                }
                None => {
                    let rest = body.trim_start();
                    let rest = rest.split_once(char::is_whitespace).map_or("", |(_, r)| r);
                    lead.condition = Some((rest.to_string(), order));
                }
            }
        }
    }
    // "Always use option 3 instead. This workflow:": the lead-in's last
    // sentence introduces the items.
    let last: Vec<String> = body
        .rsplit_once(". ")
        .map(|(_, last)| {
            words(&mask(last).0)
                .into_iter()
                .filter(|x| !x.barrier)
                .map(|x| x.text)
                .collect()
        })
        .unwrap_or_default();
    let last: Vec<&str> = last.iter().map(String::as_str).collect();
    // ("Recognize debugging mode when the user:" / "- Describes …": the
    // items are what the user does, conditions, not rules.)
    let user_cases = t.len() >= 3
        && matches!(t[t.len() - 1], "user" | "users" | "they")
        && (matches!(t[t.len() - 2], "when" | "if" | "whenever")
            || (t[t.len() - 2] == "the" && matches!(t[t.len() - 3], "when" | "if" | "whenever")));
    // ("Read the error message. Common causes:": the items say why
    // something failed, not what to do.)
    let names_causes = |t: &[&str]| {
        t.len() <= 3
            && t.last().is_some_and(|x| {
                matches!(
                    *x,
                    "causes" | "cause" | "reasons" | "symptoms" | "signs" | "culprits"
                )
            })
    };
    lead.use_conditions = says_when_to_use(&t)
        || says_when_to_use(&last)
        || describes_effects(&t)
        || user_cases
        || names_causes(&t);
    // ("You may apply these fixes without asking:": the items are
    // permitted, never required.)
    let permits = lead.modality.is_none()
        && t.iter()
            .any(|x| matches!(*x, "may" | "can" | "allowed" | "permitted"));
    lead.topic_items = permits
        || main_verb(&w).is_some_and(|v| {
            matches!(
                v.as_str(),
                "mock" | "stub" | "fake" | "simulate" | "emulate" | "document" | "cover"
            )
        });
    // ("Always use the slash commands because they:" / "- Handle all
    // configuration": the items say why, the lead-in is the rule.)
    let gives_reasons = t.iter().rev().take(2).any(|x| *x == "because")
        || (t.len() >= 2
            && matches!(t[t.len() - 2], "since" | "as")
            && matches!(t[t.len() - 1], "they" | "it" | "this"));
    lead.describes_items =
        gives_reasons || (!last.is_empty() && (describes_effects(&last) || names_causes(&last)));
    lead.speech_items = main_verb(&w).is_some_and(|v| lex.is_speech(&v))
        && t.iter()
            .any(|x| matches!(*x, "options" | "choices" | "alternatives"))
        || (tells_the_user(&t, lex) && !lead.consent_before);
    lead.short_conditional = t.len() <= 4
        && t.last()
            .is_some_and(|l| matches!(*l, "when" | "if" | "for" | "whenever"));
    lead.other_actor = names_another_agent(&t);
    let verb = main_verb(&w);
    // ("Read these files first:" lists the files to read; a read named in
    // passing — "Supporting files:" — is only a reference.)
    let reads_these = t.windows(2).any(|p| {
        matches!(p[0], "these" | "the" | "following")
            && matches!(
                p[1],
                "files" | "documents" | "docs" | "notes" | "guides" | "references" | "following"
            )
    });
    lead.stage_verb = verb
        .clone()
        .filter(|v| {
            matches!(lead.modality, Some(Modality::MustNot | Modality::ShouldNot))
                && matches!(v.as_str(), "commit" | "stage" | "push" | "add")
        })
        // ("Never commit to main:" names where, its items are not what.)
        .filter(|_| {
            !t.iter()
                .any(|x| matches!(*x, "to" | "on" | "into" | "onto"))
        });
    // "Files to NEVER modify:": the items are the files, the verb after
    // "to" what is (not) done to them.
    let files_to = match t.as_slice() {
        [f, "to", rest @ ..] if matches!(*f, "files" | "paths" | "documents") => {
            rest.iter().find(|x| !is_filler(x)).map(|x| x.to_string())
        }
        _ => None,
    };
    let negated = files_to.is_some()
        && t.iter()
            .any(|x| matches!(*x, "never" | "not" | "don't" | "dont"));
    let verb = files_to.or(verb);
    lead.path_verb = verb
        .clone()
        .filter(|v| {
            lex.path_action(v)
                .is_some_and(|a| a != PathAction::Read || reads_these)
        })
        .map(|v| if negated { format!("Never {v}") } else { v });
    lead.normative = marker
        || lead.needless
        // "Do NOT:", "Should not:": a modal of its own.
        || (lead.modality.is_some() && t.len() <= 3)
        || lead.items_are_conditions.is_some()
        || lead.condition.is_some()
        || verb.as_deref().is_some_and(|v| lex.is_imperative(v));
    lead
}

/// A lead-in whose "before" governs its items: "… ask before:", "Before
/// running these commands, stop and ask the user:", "Ask before any of
/// the following:".
pub(super) fn before_the_items(t: &[&str]) -> bool {
    t.last() == Some(&"before")
        || t.iter().enumerate().any(|(i, x)| {
            *x == "before"
                && t[i + 1..]
                    .iter()
                    .take(4)
                    .any(|y| matches!(*y, "these" | "following" | "below" | "them"))
        })
}

/// The words of a lead-in that says when the skill applies: "use when",
/// "don't use this skill if", "when to use", "when not to use it".
pub(super) fn says_when_to_use(t: &[&str]) -> bool {
    // ("Use this skill only when the user asks for:": "only" changes
    // nothing.)
    let t: Vec<&str> = t
        .iter()
        .copied()
        .filter(|x| !matches!(*x, "do" | "don't" | "not" | "never" | "only"))
        .collect();
    let object = |rest: &[&str]| {
        matches!(
            rest,
            [] | ["it"] | ["this"] | ["this", "skill"] | ["the", "skill"] | ["them"]
        )
    };
    let calls = |v: &str| {
        matches!(
            v,
            "use" | "invoke" | "trigger" | "activate" | "load" | "apply"
        )
    };
    match t.as_slice() {
        ["when", "to", v, rest @ ..] if calls(v) => object(rest),
        ["use", rest @ .., last] if matches!(*last, "when" | "if" | "for") && object(rest) => true,
        // "ALWAYS. Use this skill:" / "- After EVERY code modification":
        // the items are the occasions.
        [v, rest @ ..] if calls(v) && !rest.is_empty() && object(rest) => true,
        // "Invoke this skill when you need to:": what follows is when.
        [v, rest @ ..] if calls(v) => rest
            .iter()
            .position(|x| matches!(*x, "when" | "whenever" | "if"))
            .is_some_and(|i| i > 0 && object(&rest[..i])),
        _ => false,
    }
}

/// "This will:", "The script updates:": what follows describes what
/// something does, not what the agent must do.
pub(super) fn describes_effects(t: &[&str]) -> bool {
    // "On success, the following items are verified:", "These checks are
    // run:": a passive statement of what happens, not an instruction.
    // ("After a theme is selected:" is a condition, its items are rules.)
    // ("Delete the branch (after the worktree is removed):" ends in a
    // condition, not a passive statement.)
    if let [first, middle @ .., be, done] = t {
        if !is_condition_word(first)
            && !middle.iter().any(|x| is_condition_word(x))
            && matches!(*be, "are" | "is" | "get" | "gets")
            && ((done.len() > 4 && done.ends_with("ed"))
                || matches!(*done, "done" | "run" | "covered"))
        {
            return true;
        }
    }
    // "Choices:", "Options:": a menu the user picks from.
    if t.len() <= 3
        && t.iter()
            .any(|x| matches!(*x, "choices" | "options" | "menu"))
    {
        return true;
    }
    matches!(
        t,
        ["this" | "it" | "that", "will" | "does" | "also", ..]
            | [
                "the" | "this" | "that",
                "script" | "command" | "tool" | "workflow" | "skill" | "hook",
                "will" | "does" | "updates" | "creates" | "runs" | "also",
                ..
            ]
            | [
                "this" | "it",
                "updates" | "creates" | "runs" | "performs" | "handles" | "includes"
                    // ("This helps ensure we're:" / "- On the right branch":
                    // what the step is for.)
                    | "helps" | "ensures" | "keeps" | "lets" | "allows",
                ..
            ]
    ) || matches!(t, ["this" | "that", noun]
        // "Use option 3 instead. This workflow:": the bare name of what the
        // items describe (a list of rules names itself: "This checklist:").
        if !matches!(*noun, "checklist" | "list" | "rule" | "order" | "sequence" | "means"))
}

/// A lead-in whose subject is another agent ("Each agent gets", "The
/// subagent receives", "Every reviewer must check").
pub(super) fn names_another_agent(t: &[&str]) -> bool {
    let t = match t.first() {
        Some(&("each" | "every" | "the" | "a" | "an" | "your")) => &t[1..],
        _ => t,
    };
    let agent = |w: &str| {
        let w = w.strip_suffix('s').unwrap_or(w);
        matches!(
            w,
            "agent" | "subagent" | "sub-agent" | "reviewer" | "implementer" | "worker" | "helper"
        )
    };
    t.len() >= 2 && agent(t[0]) && !matches!(t[1], "is" | "are" | "was" | "were" | "when" | "if")
}

/// "**Problem**: committing on main / **Fix**: create a branch first": a
/// paragraph of labelled lines that pairs what goes wrong with what to do.
/// The problem describes; each remedy, its label dropped, is the rule.
/// `None` where the paragraph is not such a pair.
pub(super) fn remedies(body: &Lined) -> Option<Vec<Lined>> {
    const PROBLEM: &[&str] = &[
        "problem",
        "symptom",
        "issue",
        "mistake",
        "cause",
        "error",
        "bad",
        "wrong",
        "why",
        "pitfall",
        "trap",
        "anti-pattern",
    ];
    const REMEDY: &[&str] = &[
        "fix",
        "solution",
        "instead",
        "remedy",
        "do",
        "correct",
        "good",
        "better",
        "resolution",
        "workaround",
    ];
    let mut parts: Vec<(Option<bool>, Lined)> = Vec::new();
    let ends = body
        .starts
        .iter()
        .skip(1)
        .map(|(o, _)| *o)
        .chain([body.text.len()]);
    for (&(start, line), end) in body.starts.iter().zip(ends) {
        let text = body.text[start..end].trim();
        let label = text.split_once(':').and_then(|(head, rest)| {
            let head = strip_emphasis(head).trim().to_lowercase();
            let head = head.trim_matches(|c: char| !c.is_alphanumeric());
            (head.split_whitespace().count() <= 2 && !head.is_empty())
                .then(|| (head.to_string(), rest.trim_start_matches(['*', ' '])))
        });
        match label {
            Some((head, rest)) if PROBLEM.contains(&head.as_str()) => {
                parts.push((Some(false), Lined::default()));
                parts.last_mut()?.1.push_line(line, rest);
            }
            Some((head, rest)) if REMEDY.contains(&head.as_str()) => {
                parts.push((Some(true), Lined::default()));
                parts.last_mut()?.1.push_line(line, rest);
            }
            // A wrapped line continues the part above it.
            _ => parts.last_mut()?.1.push_line(line, text),
        }
    }
    let has = |kind: bool| parts.iter().any(|(k, _)| *k == Some(kind));
    (has(false) && has(true)).then(|| {
        parts
            .into_iter()
            .filter(|(k, _)| *k == Some(true))
            .map(|(_, l)| l)
            .collect()
    })
}
