//! Stage 3: conditions. A rule sentence is split into its condition parts
//! (leading If/When/Before…, a question, an arrow, a lead-in's condition, a
//! trailing before/after/until/without clause) and its main clause; then the
//! parts' predicates are composed into `when` / `require` / `forbid` / `order`.
//! This file holds the analysis of a sentence; beside it: `analysis` (the
//! analysed sentence and its composition into a rule), `qualifiers` (what
//! keeps a negative rule from forbidding every act), `phases` (conditions
//! that name a phase of the work) and `references` (sentences that refer to
//! a skill or a file).

use super::clauses::*;
use super::consent::*;
use super::readings::*;
use super::*;

mod analysis;
mod occasion;
mod phases;
mod qualifiers;
mod references;

pub(crate) use analysis::*;
pub(crate) use occasion::*;
pub(crate) use phases::*;
pub(crate) use qualifiers::*;
pub(crate) use references::*;

/// The condition a sentence opens with ("If X: …", "**If X:** …", "When X, …").
pub(super) fn opening_condition(s: &str) -> Option<(String, Order)> {
    let w = words(&mask(s).0);
    let first = w.first()?;
    // "In plan mode, …", "In dry-run mode: …": a state of the session.
    if first.text == "in" {
        return split_leading_condition(s)
            .filter(|(c, _)| {
                let cw = words(c);
                cw.len() <= 4 && cw.last().is_some_and(|x| x.text == "mode")
            })
            .map(|(c, _)| (c, Order::After));
    }
    if !is_condition_word(&first.text) {
        return None;
    }
    let order = if first.text == "before" {
        Order::Before
    } else {
        Order::After
    };
    split_leading_condition(s)
        .filter(|(c, _)| !the_session_itself(c))
        .map(|(c, _)| (c, order))
}

/// "**Any check failed** → stop here. Do not touch a branch.": the left
/// side of a sentence's arrow is a situation that holds for the sentences
/// after it in the same paragraph or item, as an opening "If …," does. Not a
/// chain of steps ("lint → test → build").
pub(super) fn arrow_condition(s: &str) -> Option<(String, Order)> {
    let normalized = normalize_arrows(s);
    let s = normalized.as_str();
    if s.matches('→').count() + s.matches(" -> ").count() != 1 {
        return None;
    }
    let (i, len) = match find_outside_code(s, "→") {
        Some(i) => (i, '→'.len_utf8()),
        None => (find_outside_code(s, " -> ")?, 4),
    };
    let (left, right) = (s[..i].trim(), s[i + len..].trim());
    (!left.is_empty() && !right.is_empty()).then(|| (left.to_string(), Order::After))
}

/// `act`, only where the rule's modifiers name a branch ("Do not proceed
/// on `main` … unless the user says so": the edits on that branch wait).
fn on_branches(act: Predicate, mods: &[Predicate]) -> Predicate {
    // Every branch the modifiers name, once ("on `main` or `master`").
    let mut names: Vec<String> = Vec::new();
    for m in mods {
        m.for_each_node(&mut |q| {
            if let Predicate::Branch(b) = q {
                if !names.contains(b) {
                    names.push(b.clone());
                }
            }
        });
    }
    match any_of(names.into_iter().map(Predicate::Branch).collect()) {
        Some(on) => Predicate::All(vec![act, on]),
        None => act,
    }
}

/// "Ask the user to choose a version bump", "Present the summary and ask
/// the user which tag to push": the words after the choice the user is
/// asked to make.
fn asks_to_pick(s: &str) -> Option<String> {
    let lower = s.to_lowercase();
    let at = lower.find("ask ")?;
    let after = &lower[at..];
    let user = ["the user", "the human", "your partner", "them"]
        .iter()
        .any(|u| after.starts_with(&format!("ask {u} ")));
    if !user {
        return None;
    }
    [
        " to choose ",
        " to pick ",
        " to select ",
        " to decide ",
        " which ",
        " whether ",
    ]
    .iter()
    .find_map(|k| after.find(k).map(|i| at + i + k.len()))
    .and_then(|i| s.get(i..))
    .map(str::to_string)
}

pub(super) fn is_condition_word(w: &str) -> bool {
    matches!(
        w,
        "if" | "when" | "whenever" | "before" | "after" | "once" | "unless" | "until" | "while"
    )
}

/// After a condition ("If three fixes failed: question the design"), a
/// bare word followed by its object is a verb the lexicon may not list:
/// not a form in -s, -ed, -ing or -ly, nor a determiner or pronoun.
pub(super) fn verb_before_object(mw: &[Word]) -> bool {
    let [v, o, ..] = mw else { return false };
    let t = v.text.as_str();
    !v.barrier
        && t.len() >= 3
        && t.chars().all(|c| c.is_ascii_lowercase())
        && !["s", "ed", "ing", "ly"].iter().any(|x| t.ends_with(x))
        && !is_filler(t)
        && !matches!(
            t,
            "the"
                | "this"
                | "that"
                | "these"
                | "those"
                | "your"
                | "our"
                | "their"
                | "its"
                | "all"
                | "any"
                | "each"
                | "every"
                | "some"
                | "one"
                | "both"
                | "either"
                | "neither"
                | "you"
                | "they"
                | "she"
                | "his"
                | "her"
                | "there"
                | "then"
                | "what"
                | "which"
                | "how"
                | "why"
                | "who"
                | "not"
                | "nothing"
                | "never"
                | "can"
                | "may"
                | "will"
                | "would"
                | "could"
                | "might"
                | "must"
                | "shall"
                | "should"
        )
        && (is_determiner(&o.text) && o.text != "both"
            || matches!(o.text.as_str(), "which" | "what" | "out" | "up"))
}

/// A verb the lexicon leaves out because its noun often opens statements
/// ("Test passes", "Plan has gaps"), used as a verb: followed by its object
/// or a means ("Test with the inspector", "Plan the rollout").
pub(super) fn noun_verb_with_object(mw: &[Word]) -> bool {
    let w: Vec<&Word> = mw.iter().filter(|x| !x.barrier).collect();
    let Some(i) = w.iter().position(|x| !is_filler(&x.text)) else {
        return false;
    };
    matches!(
        w[i].text.as_str(),
        "test" | "plan" | "batch" | "stage" | "benchmark" | "profile" | "lint" | "time"
    ) && w.get(i + 1).is_some_and(|n| {
        matches!(
            n.text.as_str(),
            "with"
                | "using"
                | "against"
                | "each"
                | "every"
                | "the"
                | "your"
                | "it"
                | "them"
                | "this"
                | "that"
                | "these"
                | "those"
                | "all"
                | "both"
                | "a"
                | "an"
                | "locally"
                | "manually"
                | "thoroughly"
                | "again"
        )
    })
}

/// The lexicon reads the condition as a failed command ("if NOT
/// ignored" is `git check-ignore` failing): a visible state.
pub(super) fn names_a_failure(info: &ClauseInfo) -> bool {
    info.actions
        .iter()
        .any(|(p, _)| p.any_node(&|q| matches!(q, Predicate::Failed(_))))
}

/// Paths in code spans (`.env`, `*.pem`, `config/secrets.json`): one
/// token with a dot or a slash, not a command.
pub(super) fn code_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::trim)
        .filter(|t| {
            !t.is_empty()
                && !t.contains(char::is_whitespace)
                && !t.starts_with('-')
                // (`node_modules`, `dist/`: a directory named by itself.)
                && (t.contains('.')
                    || t.contains('/')
                    || (t.contains('_')
                        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')))
                && !t.contains("://")
        })
        .map(String::from)
        .collect()
}

/// "Never commit `.env`", "`*.pem` — never commit": committing those
/// files is staging them by name, which a command shows; every other
/// commit is allowed. `None` where the act is not a commit or no path is
/// named.
pub(super) fn staging_named(act: &Predicate, paths: &[String]) -> Option<Predicate> {
    fn commits(p: &Predicate) -> bool {
        match p {
            Predicate::Git { subcommand, args } => {
                matches!(subcommand.as_str(), "commit" | "add") && args.is_empty()
            }
            // (Committing secrets in general is staging a well-known secret
            // file; the files the rule names narrow it.)
            Predicate::CommandRe(re) => re.starts_with(r"^git (add|commit)\b"),
            Predicate::Any(v) => !v.is_empty() && v.iter().all(commits),
            _ => false,
        }
    }
    if paths.is_empty() || !commits(act) {
        return None;
    }
    any_of(
        paths
            .iter()
            .map(|p| {
                Predicate::CommandRe(format!(
                    r"^git (add|commit)\b.*(\s|/){}(\s|$)",
                    path_arg_re(p)
                ))
            })
            .collect(),
    )
}

/// A path named in a rule as a regex over one argument of a command: the
/// file itself (`.env`, not `.env.example`), `*` within one argument, a
/// directory (`secrets/`) with anything under it.
fn path_arg_re(p: &str) -> String {
    let p = p.trim_start_matches("./");
    let mut re = regex::escape(p).replace(r"\*", r"[^\s]*");
    // (A directory, `dist/` or `node_modules`, with whatever is under it.)
    if p.ends_with('/') || !p.contains(['.', '/']) {
        re.push_str(r"[^\s]*");
    }
    re
}

/// A label that states a case rather than naming a topic: a value in code
/// (`Verdict: needs-discussion`, `STATUS=blocked`), a state in a participle
/// ("Blocked", "Tests failed") or a lack ("Missing changelog").
fn states_a_case(label: &str) -> bool {
    let t = label.trim();
    if t.starts_with('`') && t.ends_with('`') {
        let inner = t.trim_matches('`');
        return inner.contains(": ") || inner.contains('=');
    }
    let w = plain_words(&strip_emphasis(t));
    if w.is_empty() || w.len() > 4 {
        return false;
    }
    w.iter().any(|x| {
        (x.len() > 4
            && x.ends_with("ed")
            && !matches!(
                x.as_str(),
                "required"
                    | "recommended"
                    | "preferred"
                    | "allowed"
                    | "forbidden"
                    | "prohibited"
                    | "expected"
                    | "advanced"
                    | "related"
                    | "detailed"
                    | "suggested"
                    | "supported"
                    | "needed"
                    | "enforced"
                    | "mandated"
                    | "limited"
                    | "unsupported"
                    | "untrusted"
                    | "shared"
                    | "protected"
                    | "automated"
                    | "advised"
                    // ("Barred: no force-push": what is barred.)
                    | "barred"
                    | "banned"
                    | "disallowed"
                    | "denied"
            ))
            || matches!(
                x.as_str(),
                "needs" | "missing" | "failing" | "fails" | "absent" | "none" | "empty"
            )
    })
}

/// A reason rather than a situation: "To keep history clean", "To avoid
/// conflicts", "To make sure …".
fn motivation(verb: &str) -> bool {
    [
        "avoid",
        "keep",
        "ensure",
        "prevent",
        "stay",
        "maintain",
        "reduce",
        "minimi",
        "protect",
        "guarantee",
        "help",
        "save",
        "improve",
        "speed",
        "make",
        "be",
        "stop",
        "catch",
        "limit",
    ]
    .iter()
    .any(|m| verb.starts_with(m))
}

/// `before`, or `before-each` where the rule says "each" / "every".
pub(super) fn before(each: bool) -> Order {
    if each {
        Order::BeforeEach
    } else {
        Order::Before
    }
}

/// What "Note: …", "NB: …", "Tip: …" or "Note that …" opens: the remark.
fn noted_remark(s: &str) -> Option<&str> {
    let t = s.trim_start_matches(['*', '_', ' ']);
    let lower = t.to_lowercase();
    ["note:", "nb:", "n.b.:", "tip:", "note that "]
        .iter()
        .find(|p| lower.starts_with(**p))
        .map(|p| t[p.len()..].trim_start_matches(['*', '_', ' ']))
}

/// A rule marked with a cross ("❌ Pushing to main directly", "🚫 Skip
/// the linter"): the same act, forbidden — "Never push to main directly".
/// A gerund opening is read as its verb; words already negative stay.
fn crossed_out(s: &str, lex: &Lexicon) -> Option<String> {
    const CROSSES: [char; 6] = ['❌', '✗', '✖', '🚫', '⛔', '\u{fe0f}'];
    let t = s.trim_start();
    if !t.starts_with(CROSSES) {
        return None;
    }
    let rest = strip_emphasis(t.trim_start_matches(CROSSES).trim_start());
    let rest = rest.trim();
    let (head, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    let lower = head.to_lowercase();
    if matches!(
        lower.as_str(),
        "never" | "don't" | "do" | "no" | "not" | "avoid"
    ) {
        return Some(rest.to_string());
    }
    // "Pushing" → "push", "Skipping" → "skip", "Making" → "make".
    let verb = lower.strip_suffix("ing").and_then(|stem| {
        let undoubled = stem
            .chars()
            .last()
            .filter(|c| stem.len() > 2 && stem.ends_with(&format!("{c}{c}")))
            .map(|_| stem[..stem.len() - 1].to_string());
        [Some(stem.to_string()), undoubled, Some(format!("{stem}e"))]
            .into_iter()
            .flatten()
            .find(|v| lex.is_imperative(v))
    });
    let verb = verb.unwrap_or(lower);
    if !lex.is_imperative(&verb) {
        return None;
    }
    Some(format!("Never {verb} {tail}").trim_end().to_string())
}

/// "Never commit credentials: they end up in every clone": a prohibition
/// with its verb and object, then after the colon why — a statement with a
/// pronoun for its subject and no rule word. The rule is the head.
fn rule_then_colon_reason(s: &str, lex: &Lexicon) -> Option<String> {
    let (head, tail) = split_label(s)?;
    let hw = plain_words(&head);
    let hw: Vec<&str> = hw.iter().map(String::as_str).collect();
    let act = past_the_modal(&hw);
    if act.len() == hw.len() || act.len() < 2 || clause_info(&head, lex).actions.is_empty() {
        return None;
    }
    let tw = plain_words(&tail);
    let pronoun = tw.first().is_some_and(|t| {
        matches!(
            t.as_str(),
            "it" | "they" | "this" | "that" | "these" | "those"
        )
    });
    let ruled = negation(&words(&mask(&tail).0)).0 || own_modal(&words(&mask(&tail).0)).is_some();
    (pronoun && !ruled && tw.len() >= 2).then(|| format!("{}.", head.trim_end_matches(['.', ','])))
}

/// The words after a rule's opening modal: "Never commit secrets" →
/// "commit secrets" (all of them where none opens it).
fn past_the_modal<'a>(w: &'a [&'a str]) -> &'a [&'a str] {
    let at = w
        .iter()
        .position(|t| !matches!(*t, "never" | "always" | "don't" | "dont" | "do" | "not"))
        .unwrap_or(w.len());
    &w[at..]
}

/// "Secrets must never be committed", "Protected branches (`main`, …) are
/// never deleted", "… should never be pushed": a prohibition in the
/// passive ([`negation`] reads it so), said in the active: "Never commit
/// secrets". The subject is one to eight words; an agent ("by the
/// script") makes it a fact, left alone.
fn passive_prohibition(s: &str, lex: &Lexicon) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    let (at, key) = [
        " must never be ",
        " shall never be ",
        " should never be ",
        " are never ",
        " is never ",
        " must not be ",
        " mustn't be ",
        " shall not be ",
        " should not be ",
        " shouldn't be ",
    ]
    .iter()
    .find_map(|k| lower.find(k).map(|i| (i, *k)))?;
    // ("Files should not be committed": a weak prohibition stays weak.)
    let lead = if key.starts_with(" should") && !key.contains("never") {
        "Should not"
    } else {
        "Never"
    };
    let subject = s[..at].trim();
    // ("If the checks fail, the branch must not be merged": the condition
    // stays in front of the active rule.)
    let (cond, subject) = match find_outside_code(subject, ", ") {
        Some(i) => (&subject[..i + 2], subject[i + 2..].trim()),
        None => ("", subject),
    };
    let lead = if cond.is_empty() {
        lead.to_string()
    } else {
        lead.to_lowercase()
    };
    let after = &s[at + key.len()..];
    // ("Never commit secrets: secrets should not be stored in Git": the
    // modal belongs to a clause after another rule, not to a subject.)
    // ("Check for files that should not be committed": a relative clause
    // on the object of an instruction.)
    let sw = plain_words(subject);
    if subject.contains([':', ';', '\u{2014}'])
        || sw.first().is_some_and(|w| lex.is_imperative(w))
        || sw.iter().any(|w| {
            matches!(
                w.as_str(),
                "never"
                    | "always"
                    | "not"
                    | "don't"
                    | "do"
                    | "must"
                    | "should"
                    | "only"
                    | "that"
                    | "which"
                    | "who"
            )
        })
    {
        return None;
    }
    let n = plain_words(subject).len();
    if !(1..=8).contains(&n) || plain_words(after).iter().any(|w| w == "by") {
        return None;
    }
    let end = after
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '-'))
        .unwrap_or(after.len());
    let participle = after[..end].to_ascii_lowercase();
    let (prefix, last) = match participle.rsplit_once('-') {
        Some((p, l)) => (format!("{p}-"), l.to_string()),
        None => (String::new(), participle.clone()),
    };
    // ("Approval is never required": a need, not a prohibition.)
    if states_a_need(&participle) {
        return None;
    }
    let base = base_verb(&last, lex)?;
    let subject = subject.trim_start_matches(['*', '_', '-', ' ']);
    Some(format!(
        "{cond}{lead} {prefix}{base} {}{}",
        subject.strip_suffix(['*', '_']).unwrap_or(subject),
        &after[end..]
    ))
}

/// The name a rule uses for the skill it belongs to until the document pass
/// knows it ([`crate::extract::extractor`] puts the frontmatter's name in).
pub(super) const OWN_SKILL: &str = "skill-this-rule-belongs-to";

/// "… invoke this skill for PR creation", "… use this skill to open pull
/// requests", "If you need to open a PR, use this skill": the act the skill
/// is the way to, when the lexicon knows one.
fn act_the_skill_is_for(rest: &str, lex: &Lexicon) -> Option<String> {
    let lower = rest.to_ascii_lowercase();
    let after = ["this skill for ", "this skill to "]
        .iter()
        .find_map(|k| lower.find(k).map(|i| rest[i + k.len()..].to_string()));
    let before = || {
        let t = lower.trim_start();
        let cond = ["if ", "when ", "whenever "]
            .iter()
            .find_map(|k| t.strip_prefix(k))?;
        let cond = &cond[..cond.find(", ")?];
        let cond = [
            "the user wants to ",
            "the user asks to ",
            "the user asks you to ",
            "you need to ",
            "you want to ",
            "you are asked to ",
        ]
        .iter()
        .find_map(|k| cond.strip_prefix(k))
        .unwrap_or(cond);
        Some(cond.to_string())
    };
    let act = after.or_else(before)?;
    let act = act
        .trim()
        .trim_end_matches(['.', '!', ':'])
        .trim()
        .to_string();
    clause_info(&act, lex)
        .actions
        .iter()
        .any(|(p, _)| !matches!(p, Predicate::Skill(_) | Predicate::Subagent(_)))
        .then_some(act)
}

pub(super) fn analyse(
    s: &str,
    question: Option<&str>,
    ctx: &Ctx,
    first: bool,
    lex: &Lexicon,
) -> Option<Analysis> {
    if describes_the_skill(s) {
        return None;
    }
    // "Protected branches are never deleted": read as "Never delete
    // protected branches", its object where the act's qualifiers look.
    let active = passive_prohibition(s, lex);
    let s = active.as_deref().unwrap_or(s);
    let alternative = alternative_conditions_dropped(s.trim());
    let whether = if_as_whether(alternative.as_deref().unwrap_or(s.trim()));
    let s = bounded(&whether);
    let question = question.map(bounded);
    if s.is_empty() {
        return None;
    }
    let whole = s;
    let lower = s.to_lowercase();
    if lower.starts_with("see ") || lower.starts_with("for more") || lower.starts_with("read next")
    {
        return None;
    }
    // "❌ Bad: …" / "✅ Good: …": an example, not a rule.
    let unmarked = s.trim_start_matches(['❌', '✅', '✓', '✗', ' ']);
    if unmarked.len() != s.len() {
        let first = words(unmarked)
            .first()
            .map(|w| w.text.clone())
            .unwrap_or_default();
        if matches!(
            first.as_str(),
            "bad" | "good" | "wrong" | "right" | "correct" | "incorrect" | "example"
        ) {
            return None;
        }
    }
    // "WRONG: *Makes 5 changes, then tests once*" / "RIGHT: *Make change →
    // test*": a labelled example (the label in capitals, or the example
    // quoted or in italics), not a rule.
    // ("RIGHT: *Runs `just test` …*" under "❌ Skipping tests": the right
    // way is a rule of its own — never the negative lead-in's forbid.)
    let right_way;
    let mut s = s;
    if let Some((label, rest)) = unmarked.split_once(':') {
        let label = label.trim();
        let rest = rest.trim_start();
        let lower = label.to_lowercase();
        let shown = label.chars().all(|c| c.is_ascii_uppercase())
            || rest.starts_with(['*', '_', '"', '`', '\u{201c}']);
        if shown && matches!(lower.as_str(), "bad" | "wrong" | "incorrect") {
            return None;
        }
        if shown && matches!(lower.as_str(), "good" | "right" | "correct") {
            right_way = format!("Always {}", strip_emphasis(rest).trim_start_matches('"'));
            s = right_way.as_str();
        }
    }
    // "- ❌ Pushing to main directly", "❌ **Push to main**": the cross
    // marks what not to do — never a requirement of it.
    let crossed;
    if s.len() == whole.len() {
        if let Some(rest) = crossed_out(s, lex) {
            crossed = rest;
            s = crossed.as_str();
        }
    }
    // "`some-technique.md` - what it adds", "[guide](guide.md): when to
    // read it": a reference to a supporting file, not a rule (a read at most).
    // Under a lead-in that writes files ("Generate these files:"), an item
    // that names a file is that file to write.
    // "Log in with OAuth:" / "- `codex mcp login linear`": under a lead-in
    // that instructs, an item that is only a command is that command to run.
    // A note after the command ("`git gc --prune=now` — removes history",
    // "`git clean -fdx` (deletes ignored files)") says what it does; the
    // item is still that command. Under a heading that is a rule ("## Never
    // use these commands") with no lead-in, the heading leads.
    // ("### 1. Gather context" / "- `git status --short` — uncommitted
    // changes": a step that says what to do heads the commands it runs.)
    let step_heading = || {
        let w = words(ctx.section.nearest());
        let n = heading_number(&w);
        n > 0 && w.get(n).is_some_and(|x| lex.is_imperative(&x.text))
    };
    let run_led;
    let s = match led_command(s) {
        Some(cmd)
            if ctx.in_list
                && (ctx.lead.is_some_and(|l| l.normative)
                    || (ctx.lead.is_none()
                        && (ctx.section.normative().is_some() || step_heading())))
                && command_predicate(cmd.trim_matches('`'), lex).is_some() =>
        {
            run_led = format!("Run {cmd}");
            run_led.as_str()
        }
        // "`git add .` from the project root", "`git push -f` on main":
        // the command, and where or when it is run — words the act's
        // qualifiers read.
        None if ctx.in_list
            && (ctx.lead.is_some_and(|l| l.normative)
                || (ctx.lead.is_none() && ctx.section.normative().is_some()))
            && command_then_place(s)
                .is_some_and(|cmd| command_predicate(cmd.trim_matches('`'), lex).is_some()) =>
        {
            run_led = format!("Run {}", s.trim());
            run_led.as_str()
        }
        // "`cat .env` or any command that prints it": the command, and
        // what widens it.
        None if ctx.in_list
            && ctx.lead.is_some_and(|l| l.normative)
            && alternative_after_command(s).is_some_and(|cmd| {
                let cmd = cmd.trim_matches('`');
                command_predicate(cmd, lex).is_some()
                    || ["Read ", "Edit ", "Write "]
                        .iter()
                        .any(|t| cmd.starts_with(t))
            }) =>
        {
            run_led = format!("Run {}", s.trim());
            run_led.as_str()
        }
        _ => s,
    };
    // "Never commit:" / "- `.env` files": the item is what is not staged.
    let staged;
    let s = match ctx.lead.and_then(|l| l.stage_verb.as_deref()) {
        Some(verb)
            if ctx.in_list
                && own_modal(&words(&mask(s).0)).is_none()
                && !main_verb(&words(&mask(s).0)).is_some_and(|v| lex.is_imperative(&v)) =>
        {
            staged = format!("Never {verb} {s}");
            staged.as_str()
        }
        _ => s,
    };
    let led;
    let s = match ctx.lead.and_then(|l| l.path_verb.as_deref()) {
        Some(verb) if ctx.in_list && opens_with_file(s) => {
            led = format!("{verb} {s}");
            led.as_str()
        }
        // ("- Any file matching `.env.*`": the pattern is the file.)
        Some(verb) if ctx.in_list && opens_with_file(files_matching(s)) => {
            led = format!("{verb} {}", files_matching(s));
            led.as_str()
        }
        // ("1. **docs/guide.md** - the method": a path in bold, its
        // markup gone, is the file all the same.)
        Some(verb) if ctx.in_list && unquoted_file_head(s).is_some() => {
            // (What follows the path describes the file: "- handle leaks"
            // is no instruction.)
            let (path, _) = unquoted_file_head(s).expect("checked");
            led = format!("{verb} `{path}`");
            led.as_str()
        }
        _ => {
            if is_file_reference(s) {
                return None;
            }
            s
        }
    };
    // "**superpowers:using-git-worktrees** - REQUIRED: set up …": an item
    // headed by a skill reference names a skill to use; the words after the
    // dash say why or when.
    let skill_led;
    let s = match skill_reference_head(s) {
        Some((skill, rest)) if ctx.in_list && skill_rest_instructs(rest, lex) => {
            skill_led = format!("Use {skill} - {rest}");
            skill_led.as_str()
        }
        _ => s,
    };
    // "The skills at … are preinstalled, so no need to help users install
    // those": a statement whose consequence tells the reader what not to do.
    let consequence;
    let s = match [
        ", so no need to ",
        ", so there is no need to ",
        ", so there's no need to ",
    ]
    .iter()
    .find_map(|p| s.to_lowercase().find(p).map(|i| (i, p)))
    {
        Some((i, p)) if s.is_char_boundary(i + p.len()) && s.is_ascii() => {
            consequence = format!("No need to {}", &s[i + p.len()..]);
            consequence.as_str()
        }
        _ => s,
    };
    // "Check for conflicts - Did agents edit the same code?": an instruction
    // glossed by a question; "Trusted - implement after understanding": a
    // label glossed by an instruction.
    let glossed;
    // (" -- " is a dash typed in ASCII: "Creating before confirmation --
    // never run …".)
    let s = match find_outside_code(s, " - ")
        .or_else(|| find_outside_code(s, " — "))
        .or_else(|| find_outside_code(s, " -- "))
    {
        Some(i) => {
            let dash = if s[i..].starts_with(" - ") {
                3
            } else if s[i..].starts_with(" -- ") {
                4
            } else {
                " — ".len()
            };
            let (head, tail) = (s[..i].trim(), s[i + dash..].trim());
            // The verb opens it ("I dispatch …" describes, it does not instruct).
            let imperative = |x: &str| {
                let x = split_label(x).map_or(x.to_string(), |(_, r)| r);
                // ("Always ask …": the adverb before the verb.)
                words(&mask(&x).0)
                    .iter()
                    .filter(|w| !w.barrier)
                    .find(|w| !matches!(w.text.as_str(), "always" | "please"))
                    .is_some_and(|v| lex.is_imperative(&v.text.to_lowercase()))
            };
            // ("If the log is empty, the branch is current — report that
            // there is nothing to do": what the condition means, then what
            // to do in it.)
            let stated_case = words(head)
                .first()
                .is_some_and(|w| is_condition_word(&w.text))
                .then(|| find_outside_code(head, ", "))
                .flatten()
                .filter(|&c| !is_rule_like(&head[c + 2..], lex) && imperative(tail));
            if tail.trim_end_matches(['*', '_', ' ']).ends_with('?') && imperative(head) {
                glossed = head.to_string();
                glossed.as_str()
            } else if let Some(c) = stated_case {
                glossed = format!("{}, {tail}", &head[..c]);
                glossed.as_str()
            } else if ((!is_rule_like(head, lex)
                // ("**Create** -- Run `gh pr create`": a step's one-word
                // name, then what the step does.)
                || head.trim_matches(['*', '_', ' ']).split_whitespace().count() == 1)
                && imperative(tail)
                // "Protect main - Never delete main or dev": the tail has
                // its own modal, the head names it.
                || own_modal(&words(&mask(tail).0)).is_some_and(|m| {
                    matches!(m, Modality::MustNot | Modality::ShouldNot)
                }))
                && head.split_whitespace().count() <= 8
            {
                glossed = tail.to_string();
                glossed.as_str()
            } else {
                s
            }
        }
        None => s,
    };
    // A question alone ("Q: Can I add the tests later?") asks, and a bare
    // "No." / "Yes." answers: neither instructs.
    // A check asked as a question is a rule where it says so ("you should
    // be able to answer: …?") or is a labelled item of a list ("**Scope
    // check:** Is this focused enough …?"): unverifiable, what it asks is
    // not an act to require.
    let mut check_question = false;
    if question.is_none() && s.trim_end_matches(['*', '_', ' ']).ends_with('?') {
        let modal = own_modal(&words(&mask(s).0)).is_some();
        // ("Ambiguity - what could a fresh agent misinterpret?" under "What
        // to Check": a check's label, a dash, the question it asks.)
        let checks = words(ctx.section.nearest()).iter().any(|w| {
            matches!(
                w.text.as_str(),
                "check" | "checks" | "checklist" | "verify" | "verification" | "audit"
            )
        });
        let asks = |q: &str| {
            opens_yes_no(q)
                || (checks
                    && words(&mask(q).0).first().is_some_and(|w| {
                        matches!(
                            w.text.as_str(),
                            "what" | "which" | "how" | "why" | "where" | "who"
                        )
                    }))
        };
        let dashed = [" - ", " — ", " – "].iter().find_map(|d| {
            let (head, q) = s.split_once(d)?;
            (head.split_whitespace().count() <= 4 && !head.contains('`')).then_some(q)
        });
        // ("- [ ] Are secrets encrypted at rest?" in a checklist: each box
        // a check to make.)
        let labelled = ctx.in_list
            && (split_label(s).is_some_and(|(_, q)| opens_yes_no(&q))
                || dashed.is_some_and(asks)
                || ((ctx.checkbox || checks) && opens_yes_no(s)));
        if !(modal || labelled) {
            return None;
        }
        check_question = true;
    }
    let sw = words(s);
    if sw.len() == 1 && matches!(sw[0].text.as_str(), "no" | "yes") {
        return None;
    }
    let mut conditions: Vec<(String, Order)> = Vec::new();
    if let Some(q) = question {
        conditions.push((q.trim_end_matches('?').to_string(), Order::After));
    }
    // "No lockfile → run X": the left side is the condition. Other arrows
    // (➔, ➜, ⇒, =>) read as →.
    let normalized = normalize_arrows(s);
    let s = normalized.as_str();
    let arrowed;
    // "discovery → changes → tests": a chain of steps, not a condition.
    let chain = s.matches('→').count() + s.matches(" -> ").count() > 1;
    let s = match find_outside_code(s, "→")
        .or_else(|| find_outside_code(s, " -> "))
        .filter(|_| !chain)
    {
        Some(i) => {
            let arrow_len = if s[i..].starts_with('→') {
                '→'.len_utf8()
            } else {
                4
            };
            let (left, right) = (s[..i].trim(), s[i + arrow_len..].trim());
            // ("For a `develop` → `main` merge, run …": the arrow joins two
            // names into one, a direction inside the sentence, no case.)
            let joins_names = left.ends_with('`')
                && right.starts_with('`')
                && right[1..].find('`').is_some_and(|j| {
                    right[j + 2..]
                        .trim_start()
                        .starts_with(|c: char| c.is_alphabetic())
                });
            if left.is_empty() || right.is_empty() || joins_names {
                s
            } else {
                conditions.push((left.to_string(), Order::After));
                // "`CrashLoopBackOff` → the start command is wrong; check the
                // logs": a diagnosis, then what to do about it.
                let opens_imperative = |t: &str| {
                    main_verb(&words(&mask(t).0)).is_some_and(|v| lex.is_imperative(&v))
                        && !starts_with_third_person(&words(&mask(t).0))
                };
                let act = (!opens_imperative(right))
                    .then(|| {
                        right
                            .split("; ")
                            .skip(1)
                            .find(|part| opens_imperative(part))
                    })
                    .flatten();
                arrowed = match act {
                    Some(part)
                        if !right.contains('`') || find_outside_code(right, "; ").is_some() =>
                    {
                        right[right.find(part).unwrap_or(0)..].to_string()
                    }
                    _ => right.to_string(),
                };
                arrowed.as_str()
            }
        }
        None => s,
    };
    // "Verify: The new worktree appears in the list.": the state a check
    // expects, stated — what it names is no act to require.
    if let Some((label, after)) = split_label(s) {
        let lw = words(&label);
        let checks = lw.len() == 1
            && matches!(
                lw[0].text.as_str(),
                "verify" | "check" | "confirm" | "expected" | "expect" | "result"
            );
        let aw = words(&mask(&after).0);
        let stated = starts_with_third_person(&aw)
            || (aw.first().is_some_and(|w| {
                matches!(
                    w.text.as_str(),
                    "the" | "a" | "an" | "each" | "every" | "all" | "no"
                )
            }) && main_verb(&aw[1..]).is_none_or(|v| !lex.is_imperative(&v)));
        if checks && stated {
            check_question = true;
        }
    }
    // "Note: the cache is flushed nightly", "Note that reruns are cheap": a
    // remark, whose verb is no act — unless what it notes is a rule.
    // ("Note that X is generated; resolve conflicts there by …": a rule
    // after the remark.)
    if let Some(noted) = noted_remark(s) {
        let rules = noted.split([';', '\u{2014}']).any(|part| {
            let nw = words(&mask(part).0);
            own_modal(&nw).is_some()
                || nw
                    .iter()
                    .find(|x| !x.barrier)
                    .is_some_and(|x| lex.is_imperative(&x.text))
        });
        if !rules {
            return None;
        }
    }
    // ("Note: never skip the smoke tests": the rule is what follows the
    // label, its modality too.)
    let s = noted_remark(s)
        .filter(|n| !s.to_lowercase().starts_with("note that") && !n.is_empty())
        .unwrap_or(s);
    // A label before a colon: "Core principle: …", "If NOT ignored: …".
    let mut rest = s.to_string();
    // ("`Verdict: needs-discussion`: do not implement": a value in code
    // as the label, the case the prohibition holds in.)
    if let Some((code, after)) = s
        .trim_start()
        .strip_prefix('`')
        .and_then(|r| r.split_once("`:"))
        .map(|(c, a)| (format!("`{c}`"), a.trim().to_string()))
    {
        if states_a_case(&code) && negation(&words(&mask(&after).0)).0 {
            conditions.push((code, Order::After));
            rest = after;
        }
    }
    if let Some(rule) = rule_then_colon_reason(&rest, lex) {
        rest = rule;
    }
    // "1. `git fetch upstream`", "2. `git status -sb` (clean tree)": a
    // numbered step that is a command alone is the command to run.
    if ctx.numbered && lone_command_span(&without_parentheses(&rest)) {
        rest = format!("Run {}", rest.trim());
    }
    let mut label_text = String::new();
    let mut purpose = false;
    // "Redeploy: `deploy redeploy <app>`" (a step named by its verb, then
    // its command): the whole is the rule, the label its verb.
    let labelled_command = labelled_command(&rest);
    if let Some((label, after)) =
        split_label(&rest)
            .filter(|_| !labelled_command)
            .filter(|(l, after)| {
                // "Add ruff: `uv add ruff`", "Announce at start: \"…\"": the label is the rule's verb.
                // Not where the label opens with a compound name ("Output-Driven:"),
                // or the text after it is a rule of its own ("Scan for secrets:
                // Make sure no …"; the label's words still count for scope).
                let compound = l
                    .split_whitespace()
                    .next()
                    .is_some_and(|t| t.trim_matches('*').contains('-'));
                let aw = words(&mask(after).0);
                let label_acts = clause_info(l, lex);
                // ("Suggest: `git stash` then retry": what follows a
                // speech verb is what is said.)
                let says = words(l).first().is_some_and(|w| lex.is_speech(&w.text));
                // ("Run in order: collect.py, …": a file name is no verb.)
                let opens_with_name = after
                    .split_whitespace()
                    .next()
                    .is_some_and(|t| looks_like_file(t.trim_end_matches([',', ';', '.', ':'])));
                let own_rule = !says
                    && !opens_with_name
                    && (own_modal(&aw).is_some() || {
                        let v = main_verb(&aw);
                        v.as_deref()
                            .is_some_and(|v| lex.is_imperative(v) && !matches!(v, "use"))
                    })
                    && label_acts.actions.is_empty()
                    && !l.contains(['`', ':']);
                let lw = words(l);
                // ("Never commit secrets: they leak": a prohibition whose
                // reason follows the colon — the label is the rule.)
                // ("Don't use: emoji fonts": a verb alone, its object after
                // the colon, stays a label.)
                let lt: Vec<&str> = lw.iter().map(|w| w.text.as_str()).collect();
                let unmodal = past_the_modal(&lt);
                let verb_after_modal =
                    unmodal.len() >= 2 && unmodal.len() < lt.len() && lex.is_imperative(unmodal[0]);
                !(lw.first().is_some_and(|w| lex.is_imperative(&w.text))
                    || verb_after_modal
                    || noun_verb_with_object(&lw))
                    || compound
                    || own_rule
            })
    {
        let lw = words(&label);
        if lw.first().is_some_and(|w| is_condition_word(&w.text)) {
            let order = if lw[0].text == "before" {
                Order::Before
            } else {
                Order::After
            };
            let cond = label.split_once(' ').map_or("", |x| x.1);
            // ("If findings appear, summarize: file, rule, …": the
            // condition ends at the comma, the label after it is the
            // rule's verb and the colon its object.)
            match find_outside_code(cond, ", ").filter(|&i| {
                words(&cond[i..])
                    .first()
                    .is_some_and(|w| lex.is_imperative(&w.text) && !is_condition_word(&w.text))
            }) {
                Some(i) => {
                    conditions.push((cond[..i].to_string(), order));
                    rest = format!("{}: {after}", cond[i + 2..].trim());
                }
                None => {
                    conditions.push((cond.to_string(), order));
                    rest = after;
                }
            }
            // "If already merged: `git branch -d <branch>`": what to run
            // in that case.
            if lone_command_span(&rest) {
                rest = format!("Run {}", rest.trim());
            }
        } else {
            // "Tracking document (if used): …": the label's condition holds
            // for the rule after it.
            if let Some((cond, _)) = parenthetical_condition(&label) {
                conditions.push((cond, Order::After));
            }
            // "Otherwise: use the fixer skill": the case the steps before
            // did not settle — a condition no action shows.
            if matches!(
                plain_words(&strip_emphasis(&label)).as_slice(),
                [w] if matches!(w.as_str(), "otherwise" | "else")
            ) {
                conditions.push(("otherwise".to_string(), Order::After));
            }
            // "`Verdict: needs-discussion`: do not implement", "**Blocked**:
            // do not merge": a case the label states, which no action
            // shows — the prohibition holds in that case only.
            if states_a_case(&label) && negation(&words(&mask(&after).0)).0 {
                conditions.push((strip_emphasis(&label), Order::After));
            }
            // "To tag a specific commit (not HEAD): `tools/tag.ts v1 abc`":
            // the command is the means to that purpose, run when the
            // session has it (a situation no action shows).
            let means = lw.first().is_some_and(|w| w.text == "to")
                && lw
                    .get(1)
                    .is_some_and(|v| lex.is_imperative(&v.text) && !motivation(&v.text))
                && lone_command_span(&after);
            purpose |= means;
            rest = if means {
                format!("Run {}", after.trim())
            } else {
                after
            };
            label_text = label;
        }
    }
    // "Use the `/x` command to invoke this skill": how the skill is loaded,
    // which the load itself shows, not a rule of the session.
    // ("You MUST invoke this skill for PR creation", "If you need to open a
    // PR, use this skill": the skill is the way to an act, loaded before
    // each one — the document pass puts the skill's name in.)
    if words(&mask(&rest).0).windows(3).any(|p| {
        matches!(
            p[0].text.as_str(),
            "invoke" | "trigger" | "activate" | "load" | "run" | "use"
        ) && p[1].text == "this"
            && p[2].text == "skill"
    }) {
        rest = format!(
            "Before {}, invoke the `{OWN_SKILL}` skill",
            act_the_skill_is_for(&rest, lex)?
        );
    }
    // "Activation: When the user asks to …", "Triggers: …": when the skill
    // applies, not a rule.
    if words(&label_text).first().is_some_and(|w| {
        matches!(
            w.text.as_str(),
            "activation" | "activates" | "trigger" | "triggers" | "triggered" | "invocation"
        )
    }) {
        return None;
    }
    // A leading condition clause: "If X, Y" / "Before X, Y" / "When X: Y".
    let rw = words(&mask(&rest).0);
    if let Some((cond, main)) = rw
        .first()
        .filter(|w| w.text == "in")
        .and_then(|_| opening_condition(&rest))
        .and_then(|(c, _)| split_leading_condition(&rest).map(|(_, m)| (c, m)))
    {
        // "In plan mode, never commit": a state of the session.
        conditions.push((cond, Order::After));
        rest = main;
    } else if let Some(main) = rw
        .get(1)
        .filter(|v| rw[0].text == "to" && !motivation(&v.text))
        .and_then(|_| split_leading_condition(&rest))
        .map(|(_, m)| m)
        .filter(|m| {
            words(&mask(m).0)
                .first()
                .is_some_and(|w| lex.is_imperative(&w.text))
        })
    {
        // "To invoke an agent, use the Task tool": the situation the means
        // serves, which the session may never be in — a condition no action
        // shows ("To keep history clean, …" is a reason, not a situation).
        purpose = true;
        rest = main;
    } else if rw.first().is_some_and(|w| is_condition_word(&w.text)) {
        if let Some((cond, main)) = split_leading_condition(&rest) {
            let order = if rw[0].text == "before" {
                Order::Before
            } else {
                Order::After
            };
            conditions.push((cond, order));
            rest = main;
        } else if ctx.in_list || rest.trim_end().ends_with(':') {
            // A lone condition (a lead-in, or an item that is a condition).
            let order = if rw[0].text == "before" {
                Order::Before
            } else {
                Order::After
            };
            conditions.push((rest.clone(), order));
            rest = String::new();
        }
    }
    // A leading context or purpose phrase: "To test web apps, write …",
    // "Throughout the workflow, operate …", "During review, run …".
    let rw = words(&mask(&rest).0);
    if rw.first().is_some_and(|w| {
        matches!(
            w.text.as_str(),
            "to" | "throughout"
                | "for"
                | "in"
                | "during"
                | "within"
                | "on"
                | "at"
                | "with"
                | "where"
                | "wherever"
                | "even"
                | "regardless"
        )
    }) {
        if let Some((ctx_text, main)) = split_leading_condition(&rest) {
            let mw = words(&mask(&main).0);
            let starts_rule =
                main_verb(&mw).is_some_and(|v| lex.is_imperative(&v)) || own_modal(&mw).is_some();
            if starts_rule && ctx_text.split_whitespace().count() <= 10 {
                // ("For pure tooling changes, skip …": which changes is
                // a condition of the rule, which no act shows.)
                let kind_of_change = rw[0].text == "for"
                    && plain_words(&ctx_text).iter().any(|x| {
                        matches!(
                            x.as_str(),
                            "changes"
                                | "change"
                                | "edits"
                                | "modifications"
                                | "updates"
                                | "migrations"
                                | "fixes"
                                | "refactors"
                        )
                    });
                if rw[0].text == "during" || kind_of_change {
                    conditions.push((ctx_text, Order::After));
                }
                rest = main;
            }
        }
    }
    if let Some(c) = &ctx.para_condition {
        conditions.push(c.clone());
    }
    // Condition the lead-in states, or that the items are.
    let mut item_is_condition = false;
    if let Some(lead) = ctx.lead {
        if let Some((c, o)) = &lead.condition {
            conditions.push((c.clone(), *o));
        }
        if let Some(o) = lead.items_are_conditions {
            conditions.push((rest.clone(), o));
            item_is_condition = true;
        }
    }
    // "When using this skill:", "While this skill is active, …": the
    // whole session the skill steers, no condition.
    conditions.retain(|(c, _)| !this_skill_in_use(c));

    let (masked_main, _, _) = mask(&rest);
    let mw = words(&masked_main);
    // "Run it (it should fail in the right way)": an instruction whose
    // parenthesis says what to expect; its "should" is no modal of the rule.
    let unbracketed = without_parentheses(&masked_main);
    let modal_words = match mw.iter().find(|x| !x.barrier) {
        Some(first) if lex.is_imperative(&first.text) && unbracketed != masked_main => {
            words(&unbracketed)
        }
        _ => mw.clone(),
    };
    let own = own_modal(&modal_words)
        .or_else(|| own_modal(&words(&mask(&label_text).0)))
        .or_else(|| {
            // "Done when: the PR is merged", "**Success criteria:** the
            // agent complies under pressure": a label that heads rules
            // (the positive kinds: a criterion, a requirement, a rule).
            (!label_text.is_empty() && normative_heading(&label_text) == Some(None))
                .then_some(Modality::Must)
        });
    let verb = main_verb(&mw);
    let imperative = (verb.as_deref().is_some_and(|v| lex.is_imperative(v))
        || (!conditions.is_empty() && verb_before_object(&mw))
        || noun_verb_with_object(&mw))
        && !starts_with_third_person(&mw);
    let heading_rule = ctx.section.normative();
    let lead_rule = ctx.lead.filter(|l| l.normative);
    let caps = is_caps_rule(&rest);
    let spec = message_part_spec(&label_text, &rest, ctx.section.nearest());
    let normative = own.is_some()
        || spec
        || labelled_command
        || check_question
        || caps
        || (ctx.in_list && limit_norm(&mw))
        || (imperative && (first || ctx.in_list || !conditions.is_empty() || question.is_some()))
        || (ctx.in_list && (lead_rule.is_some() || heading_rule.is_some() || ctx.checkbox))
        || (imperative && !first);
    if !normative {
        return None;
    }
    // A template or quotation alone ("`Task <N>: complete`"): no words of its own.
    if mw.iter().all(|w| w.barrier) && label_text.is_empty() && conditions.is_empty() {
        return None;
    }
    if !ctx.in_list && own.is_none() && !imperative && !caps && !limit_norm(&mw) && !spec {
        return None;
    }
    let modality = own
        .or_else(|| {
            if ctx.in_list {
                lead_rule.and_then(|l| l.modality)
            } else {
                None
            }
        })
        .or_else(|| {
            // A lead-in of its own ("Key principles:") speaks for its items
            // before the heading does.
            // (Under "Common Mistakes", an item led by a bare imperative is
            // the fix, not the mistake.)
            let the_fix = mistakes_heading(ctx.section.nearest())
                && verb
                    .as_deref()
                    .is_some_and(|v| lex.is_imperative(v) && !v.ends_with("ing"));
            if ctx.in_list && lead_rule.is_none() && !the_fix {
                heading_rule.flatten()
            } else {
                None
            }
        })
        .unwrap_or(Modality::Must);
    let mut modality = modality;
    let mut negative = matches!(modality, Modality::MustNot | Modality::ShouldNot);
    let mut skipped = false;
    // "Never skip X", "Don't forget X": a double negative, X is required.
    if negative
        && verb
            .as_deref()
            .is_some_and(|v| matches!(v, "skip" | "omit" | "forget" | "neglect"))
        && !clause_info(&rest, lex).skipping_act
    {
        negative = false;
        skipped = true;
        modality = if matches!(modality, Modality::ShouldNot) {
            Modality::Should
        } else {
            Modality::Must
        };
    }
    // "Ensure no credentials are committed": a negative rule about the act
    // the participle names, qualified by what it must not hold.
    let mut qualified = false;
    if !negative
        && verb
            .as_deref()
            .is_some_and(|v| matches!(v, "ensure" | "verify" | "check" | "confirm" | "make"))
    {
        let after: Vec<&str> = mw
            .iter()
            .filter(|x| !x.barrier)
            .map(|x| x.text.as_str())
            .skip_while(|t| is_filler(t))
            .skip(1)
            .skip_while(|t| *t == "sure" || *t == "that")
            .collect();
        // ("Verify no stale entries remain:" checks a state, and forbids nothing.)
        // ("Confirm no uncommitted changes": a look at the working tree.)
        let a_state = after.iter().any(|t| {
            matches!(
                *t,
                "remain"
                    | "remains"
                    | "left"
                    | "exist"
                    | "exists"
                    | "outstanding"
                    | "pending"
                    | "uncommitted"
                    | "unstaged"
                    | "untracked"
            )
        });
        if !a_state
            && after
                .first()
                .is_some_and(|t| matches!(*t, "no" | "nothing" | "none"))
        {
            negative = true;
            qualified = true;
            modality = if matches!(modality, Modality::Should) {
                Modality::ShouldNot
            } else {
                Modality::MustNot
            };
        }
    }
    // A rule with no words of its own beyond its modal ("MANDATORY.",
    // "Never skip.") is about what its heading names ("Verify RED - Watch It Fail").
    // ("No `--amend`.": the code span is its content.)
    let contentless = mask(&rest).1.is_empty()
        && mw.iter().filter(|w| !w.barrier).all(|w| {
            is_filler(&w.text)
                || matches!(
                    w.text.as_str(),
                    "mandatory" | "required" | "skip" | "period" | "this" | "it" | "step"
                )
        });
    // A negative inherited from a lead-in or heading ("Red Flags": "Test
    // passes immediately") forbids only what the item names as an act.
    let acts = verb.as_deref().is_some_and(|v| {
        lex.is_imperative(v)
            || (v.ends_with("ing")
                && lex
                    .imperatives
                    .iter()
                    .any(|b| crate::extract::lexicon::verb_matches(v, b)))
    });
    // ("No need to push", "No verification needed": nothing forbidden.)
    // ("No permission required: Glob, Grep": the label says it.)
    let needless = negative && ctx.in_list && lead_rule.is_some_and(|l| l.needless)
        || negative && {
            let plain = |w: &[Word]| -> Vec<String> {
                w.iter()
                    .filter(|x| !x.barrier)
                    .map(|x| x.text.clone())
                    .collect()
            };
            let label = plain(&words(&mask(&label_text).0));
            [plain(&mw), label]
                .iter()
                .any(|t| no_need(&t.iter().map(String::as_str).collect::<Vec<_>>()))
        };
    if needless {
        modality = Modality::ShouldNot;
    }
    let forbid_ok = (own.is_some() || caps || acts) && !needless;
    // A quoted phrase alone, perhaps with a parenthetical ("\"You're
    // absolutely right!\" (a CLAUDE.md violation)"): a rule about what to
    // say, whose mentions scope nothing.
    let quoted_only = {
        let mut bare = rest.clone();
        while let Some(i) = bare.find('(') {
            match bare[i..].find(')') {
                Some(j) => bare.replace_range(i..i + j + 1, " "),
                None => break,
            }
        }
        let (m, code, _) = mask(&bare);
        let w = words(&m);
        code.is_empty() && !w.is_empty() && w.iter().all(|x| x.barrier)
    };
    // "Reply in the thread (`gh api …/replies`)": a message sent by a
    // command is an act.
    // ("Confirm the tag is on the remote: `git ls-remote …`": a check the
    // command makes, where no person is asked.)
    let asks_a_person = plain_words(&rest).iter().any(|x| {
        matches!(
            x.as_str(),
            "user" | "user's" | "users" | "partner" | "human" | "them" | "you" | "ask" | "approval"
        )
    });
    let by_command = verb.as_deref().is_some_and(|v| {
        matches!(
            v,
            "reply" | "respond" | "answer" | "report" | "notify" | "post" | "pass" | "share"
        ) || (v == "confirm" && !asks_a_person)
    }) && mask(&rest)
        .1
        .iter()
        // ("Pass `--force-with-lease`": a flag the command carries.)
        .any(|c| command_predicate(c.trim(), lex).is_some() || c.trim().starts_with('-'));
    // "Present the plan and ask the user to confirm": the rule is the
    // question its second verb asks.
    let asks_after = {
        let w = words(&mask(&rest).0);
        w.windows(3).any(|p| {
            matches!(p[0].text.as_str(), "and" | "then")
                && p[1].text == "ask"
                && matches!(
                    p[2].text.as_str(),
                    "the" | "user" | "your" | "them" | "for" | "before"
                )
        })
        // ("Show the draft and get the user's approval on it".)
        || w.windows(2).enumerate().any(|(i, p)| {
            matches!(p[0].text.as_str(), "and" | "then")
                && matches!(p[1].text.as_str(), "get" | "obtain" | "seek")
                && w[i + 2..].iter().take(4).any(|x| {
                    x.text.starts_with("approv")
                        || x.text.starts_with("confirm")
                        || x.text.starts_with("consent")
                        || x.text == "sign-off"
                        || x.text == "go-ahead"
                })
        })
    };
    // ("Pass the task to the `x` subagent" delegates: an act.)
    let delegates = verb
        .as_deref()
        .is_some_and(|v| matches!(v, "pass" | "share"))
        && clause_info(&rest, lex)
            .actions
            .iter()
            .any(|(p, _)| matches!(p, Predicate::Subagent(_) | Predicate::Skill(_)));
    // ("Never reply to PR comments": a reply posted on the host, which
    // the lexicon reads as its command; "reply to the user" is speech.)
    let posts = verb
        .as_deref()
        .filter(|v| matches!(*v, "reply" | "respond" | "answer"))
        .is_some_and(|v| {
            clause_info(&format!("{v} {rest}"), lex)
                .actions
                .iter()
                .any(|(p, _)| posts_on_the_host(p))
        });
    let speech = (verb.as_deref().is_some_and(|v| lex.is_speech(v))
        && !by_command
        && !delegates
        && !posts
        || quoted_only
        || asks_after
        // ("One checkbox per verification step": a limit on what is
        // written, as wording is.)
        || (own.is_none() && !imperative && !rest.contains(';') && limit_norm(&mw)))
        && !item_is_condition;
    // Trailing clauses of the main part.
    let mut main = if item_is_condition {
        String::new()
    } else if contentless && conditions.is_empty() && !ctx.in_list {
        ctx.section.nearest().to_string()
    } else {
        rest.clone()
    };
    let mut without = None;
    let mut negative_before = None;
    let mut avoided = None;
    let mut chooses = verb
        .as_deref()
        .is_some_and(|v| matches!(v, "prefer" | "use" | "choose" | "favor" | "favour"));
    // "(if configured)", "(when continuing)", "(optional)": a parenthetical
    // condition anywhere in the main part is a condition of the rule.
    // "Push the feature branch (never push to main)": a negative aside is
    // a rule of its own, not part of what this one requires.
    if !negative {
        main = drop_negative_asides(&main);
    }
    main = drop_premise(&main);
    while let Some((cond, without_it)) = parenthetical_condition(&main) {
        // "Commit it and push to your fork (if configured)": the condition
        // closes the last of two acts; the first is due without it.
        if let Some(first) = first_act_before_trailing_condition(&main, &without_it, lex) {
            main = first;
            continue;
        }
        conditions.push((cond, Order::After));
        main = without_it;
    }
    // "Reply in the thread, not as a top-level PR comment": the clause after
    // ", not" is what the rule avoids ("…, not just lint" is not).
    // ("Push with `--force-with-lease`, never plain `--force`": the same,
    // where what follows "never" is an object, not a clause of its own —
    // "…, never commit them" is.)
    if !negative {
        // (The instruction's verb, after "Always" / "Only".)
        let instructs = || {
            words(&mask(&main).0)
                .iter()
                .filter(|w| !w.barrier)
                .find(|w| !matches!(w.text.as_str(), "always" | "only"))
                .is_some_and(|w| lex.is_imperative(&w.text))
        };
        let split = [", not ", ", never ", "; never "]
            .iter()
            .filter_map(|k| find_outside_code(&main, k).map(|i| (i, k.len())))
            .filter(|(i, n)| {
                // ("Always rebase, never merge", "Stage the files, never
                // commit them": a negative clause of its own — what the
                // rule avoids, never part of what it requires.)
                if *n != ", not ".len()
                    && words(&main[i + n..])
                        .first()
                        .is_some_and(|w| lex.is_imperative(&w.text))
                    && instructs()
                {
                    return true;
                }
                // (Only after an instruction, before an object: "Keys are
                // never stored …, never committed …" states a fact.)
                // ("… offered as rule files, not embedded in CLAUDE.md":
                // a participle says where content goes, not an act.)
                *n == ", not ".len()
                    && words(&main[i + n..]).first().is_none_or(|w| {
                        !(w.text.len() > 4 && w.text.ends_with("ed") && !w.text.ends_with("eed"))
                    })
                    || words(&main[i + n..])
                        .first()
                        .is_none_or(|w| !lex.is_imperative(&w.text) && !w.text.ends_with("ed"))
                        && words(&mask(&main).0)
                            .iter()
                            .find(|w| !w.barrier)
                            .is_some_and(|w| lex.is_imperative(&w.text))
            })
            .min();
        if let Some((i, n)) = split {
            let tail = main[i + n..].trim().to_string();
            let first = tail.split_whitespace().next().unwrap_or("").to_lowercase();
            if !tail.is_empty()
                && !matches!(
                    first.as_str(),
                    "just" | "only" | "merely" | "necessarily" | "all" | "always" | "every" | "yet"
                )
            {
                let tail = tail
                    .strip_prefix("as ")
                    .map_or(tail.clone(), str::to_string);
                avoided = Some(tail.trim_end_matches('.').to_string());
                main = main[..i].to_string();
            }
        }
    }
    if !main.is_empty() {
        main = if negative {
            first_clause(&main)
        } else {
            positive_clauses(&main)
        };
        // "Prefer X over Y", "Use X instead of Y": Y is what the rule avoids.
        if chooses && avoided.is_none() {
            if let Some((head, tail)) = split_alternative(&main) {
                avoided = Some(tail);
                main = head;
            }
        }
        // "Use the Write tool to update CLAUDE.md": a file tool is how the
        // file changes; the change is the act.
        if chooses && !negative {
            if let Some(purpose) = file_tool_purpose(&main, lex) {
                main = purpose;
                chooses = false;
            }
        }
        // "… so it can triage which must be fixed before merge": a purpose
        // or relative clause explains; its words are not the rule's act.
        main = cut_purpose(&main, !negative);
        // "Use the `x` skill for that", "Use the X skill for commits": the
        // means holds for its purpose, a condition of the rule (no act
        // shows "that"; a commit does show "for commits").
        if chooses && !negative {
            if let Some(i) = find_outside_code(&main, " for ") {
                let tail = main[i + " for ".len()..]
                    .trim()
                    .trim_end_matches('.')
                    .to_string();
                let head = &main[..i];
                if !tail.is_empty() && head.contains('`') {
                    conditions.push((tail, Order::Before));
                    main = head.trim().to_string();
                }
            }
        }
        // "Never use blocking hooks for telemetry or slow network calls":
        // what the means is for is what it would do, not the agent's act;
        // with no act in the means, the rule forbids none.
        if negative {
            if let Some(i) = find_outside_code(&main, " for ") {
                let head = main[..i].trim().to_string();
                let uses = words(&head)
                    .iter()
                    .any(|w| matches!(w.text.as_str(), "use" | "using"));
                if uses && clause_info(&head, lex).actions.is_empty() {
                    main = head;
                }
            }
        }
        // "Never delete `main` (…) even if it appears in the list": the
        // concession says where the rule still holds, no condition of it.
        let lower = main.to_lowercase();
        if let Some(i) = [" even if ", " even when ", " even though ", " even after "]
            .iter()
            .filter_map(|k| find_outside_code(&lower, k))
            .min()
            .filter(|i| lower.len() == main.len() && main.is_char_boundary(*i))
        {
            main = main[..i].trim_end().trim_end_matches(',').to_string();
        }
        if let Some((head, kw, tail)) = split_trailing(&main) {
            match kw.as_str() {
                "without" => {
                    if negative {
                        without = Some(tail);
                    }
                    main = head;
                }
                "before" | "until" | "unless" if negative => {
                    negative_before = Some(tail);
                    main = head;
                }
                // "… to catch issues before they cascade": a clause about
                // what something else does, with nothing the agent does, is
                // the purpose, not a condition.
                "before" | "after" | "until"
                    if words(&tail).first().is_some_and(|w| {
                        matches!(w.text.as_str(), "they" | "it" | "these" | "those")
                    }) && clause_info(&tail, lex).actions.is_empty() =>
                {
                    main = head;
                }
                "before" => {
                    conditions.push((tail, Order::Before));
                    main = head;
                }
                _ => {
                    conditions.push((tail, Order::After));
                    main = head;
                }
            }
        }
    }
    // A speech rule acts on nothing: its scope is that of the act it comes
    // before ("Before pushing, tell the user …" guards the push); telling
    // after the act ("After installing a skill, tell the user …") guards
    // nothing.
    // Likewise an act that follows a finished one ("When the fixes are
    // merged, delete the workspace") constrains what follows, not the
    // merge: a completed trigger lends the rule no scope.
    // "after the worktree is removed": the act that makes that state.
    for (c, _) in conditions.iter_mut() {
        if clause_info(c, lex).actions.is_empty() {
            if let Some(a) = active_form(c, lex).filter(|a| !clause_info(a, lex).actions.is_empty())
            {
                *c = a;
            }
        }
    }
    let mut scope_text: Vec<String> = conditions
        .iter()
        .filter(|(c, _)| !user_wants(c))
        .filter(|(c, o)| *o == Order::Before || (!speech && !completed(c, *o)))
        .map(|(c, _)| c.clone())
        .collect();
    let mut heading_case = false;
    // "## Before You Start" / "- Run the full test suite": the heading's
    // condition, where the rule and its lead-in state none.
    // (A later step of a procedure follows its first step instead.)
    if conditions.is_empty()
        && ctx.started.is_none()
        && ctx
            .lead
            .is_none_or(|l| l.condition.is_none() && l.items_are_conditions.is_none())
    {
        if let Some(c) = ctx.section.condition() {
            conditions.push(c);
            heading_case = true;
        }
    }
    let mut only_via = None;
    if !negative && !speech {
        let lower_main = main.to_lowercase();
        if let Some((i, kw)) = [" only through ", " only via ", " only using ", " only by "]
            .iter()
            .find_map(|k| lower_main.find(k).map(|i| (i, *k)))
            .filter(|(i, k)| main.is_char_boundary(*i) && main.is_char_boundary(i + k.len()))
        {
            only_via = Some(main[i + kw.len()..].to_string());
            main = main[..i].to_string();
        }
    }
    if !speech {
        scope_text.push(main.clone());
        if !label_text.is_empty() {
            scope_text.push(label_text.clone());
        }
        scope_text.extend(without.iter().cloned());
        scope_text.extend(negative_before.iter().cloned());
        scope_text.extend(avoided.iter().cloned());
    }
    // "Push tags only after the release commit", "Open a PR only when the
    // checks pass": the act is the trigger and the condition is due first.
    let only_after = !negative
        && !speech
        && !conditions.is_empty()
        && words(&mask(&main).0)
            .iter()
            .rev()
            .find(|x| !x.barrier)
            .is_some_and(|x| x.text == "only");
    let only_on_consent = !negative
        && !conditions.is_empty()
        && (only_after
            || mw
                .iter()
                .find(|x| !x.barrier)
                .is_some_and(|x| x.text == "only"))
        && conditions.iter().all(|(c, _)| mentions_consent(c))
        // "After user approval, push the branch", "Once confirmed, apply
        // the changes": the act waits on the user's word as "only" says.
        || !negative
            && !speech
            && !conditions.is_empty()
            && conditions.iter().all(|(c, _)| approval_given(c));
    let skips = !negative && !skipped && verb.as_deref() == Some("skip");
    let only_limits = !negative
        && !only_on_consent
        && !only_after
        && conditions.is_empty()
        && mw
            .iter()
            .find(|x| !x.barrier)
            .is_some_and(|x| x.text == "only");
    let each = words(s)
        .iter()
        .any(|x| matches!(x.text.as_str(), "each" | "every"));
    // ("Implementation must not start": the start is one act, however
    // the sentence opens.)
    let proceeds = verb
        .as_deref()
        .is_some_and(|v| matches!(v, "proceed" | "continue" | "move" | "start" | "begin"))
        // ("Do not go on without approval", "Go ahead only once …".)
        || mw
            .windows(2)
            .any(|p| p[0].text == "go" && matches!(p[1].text.as_str(), "on" | "ahead"))
        || negative
            && mw.iter().any(|x| {
                matches!(
                    x.text.as_str(),
                    "start" | "starts" | "begin" | "begins" | "proceeding" | "proceed" | "moving"
                )
            });
    // "Wait for approval", "Present the plan and wait for user approval",
    // "**Wait for selection**: Get explicit confirmation about the choice".
    // ("Display the new version and ask for confirmation", "Ask for
    // approval": the question waits on the answer.)
    let waits = matches!(
        verb.as_deref(),
        Some("wait" | "get" | "obtain" | "ask" | "pause")
    ) || asks_after
        || label_text.to_lowercase().starts_with("wait")
        || mw.iter().any(|x| x.text == "wait")
            && mw.iter().any(|x| matches!(x.text.as_str(), "and" | "then"));
    // "Keep asking until the user confirms the wording", "Iterate until the
    // user is satisfied": the loop ends on the user's word.
    let until_user = conditions.iter().all(|(c, _)| {
        let cw = plain_words(c);
        cw.iter()
            .any(|x| matches!(x.as_str(), "user" | "users" | "they" | "partner" | "human"))
            && cw.iter().any(|x| {
                x.starts_with("confirm") || x.starts_with("approv") || x.starts_with("satisf")
            })
    });
    let loops_on_user = !conditions.is_empty()
        && until_user
        && mw.iter().any(|x| {
            x.text.starts_with("ask") || x.text.starts_with("iterat") || x.text.starts_with("refin")
        });
    // ("**STOP** — Tell the user: "… Tell me when the MR is approved."":
    // the message asks the user to report back, and the session waits for
    // that word.)
    let reports_back = {
        let l = whole.to_lowercase();
        [
            "tell me when",
            "let me know when",
            "tell me once",
            "let me know once",
        ]
        .iter()
        .any(|k| l.contains(k))
    };
    // ("After showing the plan, wait for approval": after a planning step.)
    let waits = waits || loops_on_user || reports_back;
    let awaits = waits
        && (conditions.is_empty()
            || loops_on_user
            || conditions.iter().all(|(c, o)| {
                planning_milestone(c)
                    || presents_work(c)
                    || (*o == Order::Before && names_going_on(c))
            }))
        && !negative
        && (loops_on_user
            || reports_back
            || words(&mask(&main).0).iter().any(|x| {
                x.text.starts_with("approv")
                    || x.text.starts_with("consent")
                    || x.text.starts_with("confirm")
                    || matches!(
                        x.text.as_str(),
                        "answer"
                            | "answers"
                            | "response"
                            | "reply"
                            | "go-ahead"
                            | "decision"
                            | "ok"
                    )
            }));
    // "Never push untested code", "… code that fails to build": the act is
    // forbidden only for some objects, which actions do not show.
    let qualified = qualified
        || (negative
            && (object_qualified(&main)
                || for_that_reason_alone(whole)
                || kind_of_files(&main, lex)));
    let named_paths = if negative {
        code_paths(whole)
    } else {
        Vec::new()
    };
    // "Stop at PR creation", "Don't stop at the first commit": where the
    // work stops (or goes on from), not an act required or forbidden.
    let stops_at = verb
        .as_deref()
        .is_some_and(|v| matches!(v, "stop" | "halt" | "pause"))
        && mw
            .iter()
            .filter(|x| !x.barrier && !is_filler(&x.text))
            .skip_while(|x| !matches!(x.text.as_str(), "stop" | "halt" | "pause"))
            .nth(1)
            .is_some_and(|x| matches!(x.text.as_str(), "at" | "with" | "on"));
    // ("No changes to commit means the sync is done": a state, which
    // requires no act.)
    let nothing_there = {
        let t: Vec<&str> = mw
            .iter()
            .filter(|x| !x.barrier)
            .map(|x| x.text.as_str())
            .collect();
        nothing_to_act_on(&t)
    };
    if check_question || stops_at || nothing_there {
        // What the check asks about is not an act the rule requires.
        main.clear();
        conditions.clear();
        scope_text.clear();
    }
    let speaks_secrets = speech
        && !quoted_only
        && clause_info(&main, lex)
            .scope
            .contains(&ScopeTag::SensitiveMemory);
    // "After every debug session, update the log": the session itself is
    // no condition to wait for.
    conditions.retain(|(c, _)| !the_session_itself(c));
    Some(Analysis {
        heading_case,
        purpose,
        named_paths,
        only_after,
        only_limits,
        skips,
        qualified,
        each,
        proceeds,
        awaits,
        picked: asks_to_pick(whole),
        skipped,
        only_via,
        only_on_consent,
        modality,
        negative,
        speech,
        conditions,
        main,
        without,
        negative_before,
        speaks_secrets,
        scope_text,
        forbid_ok,
        avoided,
        chooses,
    })
}

/// "Subject: lowercase, imperative mood, no trailing period", "`<type>`
/// is one of: …" under "Commit message format": how a part of a message
/// or title is written — a rule on its wording, judged by people (as a
/// template's placeholders are).
fn message_part_spec(label: &str, rest: &str, heading: &str) -> bool {
    let hw = plain_words(heading);
    let about_a_message = hw.iter().any(|w| {
        matches!(
            w.as_str(),
            "format"
                | "formats"
                | "formatting"
                | "convention"
                | "conventions"
                | "message"
                | "messages"
                | "title"
                | "titles"
                | "template"
                | "style"
        )
    });
    if !about_a_message || rest.trim().is_empty() {
        return false;
    }
    let part = |t: &str| {
        let t = t.trim().trim_matches(['`', '*', '_']);
        // (A template's slot, "`<kind>`", is a part whatever its name.)
        if t.len() > 2 && t.starts_with('<') && t.ends_with('>') {
            return true;
        }
        matches!(
            plain_words(t).as_slice(),
            [w] | [w, _] if matches!(
                w.as_str(),
                "subject" | "title" | "body" | "type" | "types" | "scope" | "shape" | "footer"
                    | "header" | "summary" | "prefix" | "trailer" | "trailers" | "first"
                    | "allowed" | "description"
            )
        )
    };
    if !label.is_empty() {
        return part(label);
    }
    // "`<type>` is one of: …"
    let lower = rest.to_lowercase();
    let span = rest
        .trim_start()
        .strip_prefix('`')
        .and_then(|r| r.split_once('`'));
    // ("`<subject>`: imperative, no trailing period": the part in code.)
    span.is_some_and(|(name, after)| {
        let after = after.to_lowercase();
        let after = after.trim_start();
        part(name)
            && (["is one of", "must be one of", "one of:"]
                .iter()
                .any(|p| after.starts_with(p))
                || (after.starts_with(':') && after.len() > 2))
    }) && lower.len() == rest.len()
}

/// The command an item opens with where an alternative follows it
/// ("`cat .env` or any command that prints it", "`a` or `b`").
fn alternative_after_command(s: &str) -> Option<&str> {
    let (head, rest) = opening_code_span(s)?;
    rest.starts_with("or ").then_some(head)
}

/// An item's opening code span, backticks included, and the words after
/// it; `None` when the item does not open with a code span or it is empty.
fn opening_code_span(s: &str) -> Option<(&str, &str)> {
    let bare = s.trim();
    let inner = bare.strip_prefix('`')?;
    let end = inner.find('`')?;
    (end > 0).then(|| (&bare[..end + 2], bare[end + 2..].trim_start()))
}

/// An item that is a command then where or when it runs ("`git add .`
/// from the project root", "`git commit -a` for quick saves"): the command.
fn command_then_place(s: &str) -> Option<&str> {
    let (head, rest) = opening_code_span(s)?;
    let first = rest.split_whitespace().next()?.to_lowercase();
    matches!(
        first.as_str(),
        "from"
            | "in"
            | "on"
            | "inside"
            | "within"
            | "at"
            | "for"
            | "during"
            | "while"
            | "when"
            | "without"
            | "against"
            | "to"
    )
    .then_some(head)
}

/// The command an item names before any note on it: "`cmd`", "`cmd` (why)",
/// "`cmd` - what it does", "`cmd`: when". `None` when the item says more
/// around its code span.
pub(super) fn led_command(s: &str) -> Option<&str> {
    let (head, rest) = opening_code_span(s)?;
    let noted = rest.is_empty()
        || rest.starts_with('(')
        || rest.starts_with(':')
        || ["- ", "\u{2014} ", "\u{2013} "]
            .iter()
            .any(|d| rest.starts_with(d));
    noted.then_some(head)
}

/// A command that posts on the code host (`gh pr comment`, a reply through
/// `gh api`), anywhere in a predicate.
fn posts_on_the_host(p: &Predicate) -> bool {
    match p {
        Predicate::Command(c) => c.starts_with("gh pr comment") || c.starts_with("gh pr review"),
        Predicate::CommandRe(c) => c.starts_with("^gh api"),
        Predicate::Any(ps) | Predicate::All(ps) => ps.iter().any(posts_on_the_host),
        _ => false,
    }
}
