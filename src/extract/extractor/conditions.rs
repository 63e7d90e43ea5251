//! Stage 3: conditions. A rule sentence is split into its condition parts
//! (leading If/When/Before…, a question, an arrow, a lead-in's condition, a
//! trailing before/after/until/without clause) and its main clause; then the
//! parts' predicates are composed into `when` / `require` / `forbid` / `order`.

use super::clauses::*;
use super::consent::*;
use super::readings::*;
use super::*;

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

/// "After every debug session", "When the session ends": the session
/// itself, which every session has — the rule holds by its end, with no
/// condition to wait for.
fn the_session_itself(c: &str) -> bool {
    let w: Vec<String> = words(c).into_iter().map(|x| x.text).collect();
    let rest: Vec<&str> = w
        .iter()
        .map(|x| x.as_str())
        .filter(|x| {
            !matches!(
                *x,
                "after"
                    | "when"
                    | "once"
                    | "every"
                    | "each"
                    | "a"
                    | "the"
                    | "any"
                    | "your"
                    | "this"
                    | "ends"
                    | "is"
                    | "over"
                    | "done"
                    | "finished"
            )
        })
        .collect();
    matches!(
        rest.last(),
        Some(&"session" | &"sessions" | &"conversation")
    ) && rest.len() <= 2
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

/// "showing the plan", "presenting the preview": the step that puts the
/// planned work before the user.
fn presents_work(c: &str) -> bool {
    let w = plain_words(c);
    w.iter().any(|x| {
        ["show", "present", "shar", "display"]
            .iter()
            .any(|v| x.starts_with(v))
    }) && w.iter().any(|x| {
        matches!(
            x.as_str(),
            "plan" | "design" | "spec" | "proposal" | "preview" | "summary" | "draft" | "diff"
        )
    })
}

pub(super) fn is_condition_word(w: &str) -> bool {
    matches!(
        w,
        "if" | "when" | "whenever" | "before" | "after" | "once" | "unless" | "until" | "while"
    )
}

/// The parts of a rule sentence.
pub(super) struct Analysis {
    pub(super) modality: Modality,
    pub(super) negative: bool,
    pub(super) speech: bool,
    /// Condition text and the order its `require` takes relative to it.
    pub(super) conditions: Vec<(String, Order)>,
    pub(super) main: String,
    /// "without Y" (negative rules): Y.
    pub(super) without: Option<String>,
    /// "before/until Y" after a negative main clause: Y must come first.
    pub(super) negative_before: Option<String>,
    /// Scope from the whole sentence's words (main part excluded for speech).
    pub(super) scope_text: Vec<String>,
    /// A speech rule about secrets ("Never ask the user to paste API keys
    /// in the chat"): what it guards is the secret, whatever is said.
    pub(super) speaks_secrets: bool,
    /// The main clause may become a `forbid`.
    pub(super) forbid_ok: bool,
    /// "Prefer X over Y": Y.
    pub(super) avoided: Option<String>,
    /// The main verb chooses a means ("use", "prefer"): not an act required on its own.
    pub(super) chooses: bool,
    /// "Only X when the user explicitly asks": X is gated on consent.
    pub(super) only_on_consent: bool,
    /// "X only after Y" / "X only when Y": X is the trigger, Y is due
    /// before it.
    pub(super) only_after: bool,
    /// "Only amend your own commits", "Only push to feature branches": a
    /// limit on the act wherever it happens, never a demand that it does.
    pub(super) only_limits: bool,
    /// "Skip immediately", "Skip to step 2": what is skipped is not done.
    pub(super) skips: bool,
    /// Paths a negative rule names in code spans (`.env`, `*.pem`).
    pub(super) named_paths: Vec<String>,
    /// "To invoke an agent, use …": the rule serves a situation.
    pub(super) purpose: bool,
    /// The rule says "each" / "every": its requirement holds per firing
    /// event (`before-each`).
    pub(super) each: bool,
    /// The main verb is "proceed" / "continue" (what comes next).
    pub(super) proceeds: bool,
    /// "Never skip X": X is required (a double negative).
    pub(super) skipped: bool,
    /// "Wait for approval or edits": the steps that follow wait on the
    /// user's word; which acts they are, the document says ([`Draft::awaits`]).
    pub(super) awaits: bool,
    /// "Ask the user which version bump to apply": what the user picks
    /// ("version bump to apply"), an act that waits on the answer.
    pub(super) picked: Option<String>,
    /// A negative rule whose object is qualified ("untested code", "no
    /// credentials", "files that fail to build"): the act is its trigger,
    /// never a forbid of every such act.
    pub(super) qualified: bool,
    /// "Update this skill only through a pull request": the act is allowed
    /// only by that means — `when` the act, `require` the means.
    pub(super) only_via: Option<String>,
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

/// The words of a text outside code spans and quotes, lowercase.
pub(super) fn plain_words(text: &str) -> Vec<String> {
    words(&mask(text).0)
        .into_iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text)
        .collect()
}

/// The object of a negative rule's act names a kind of it actions do not
/// show: an un-participle ("untested", "unreviewed"), a content word
/// ("secrets", "large", "unrelated"), or a relative clause ("code that fails
/// to build").
/// The text without its parenthesised parts.
fn without_parentheses(text: &str) -> String {
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

/// A code span holding a command with its arguments (`git add -A`).
fn names_a_full_command(text: &str) -> bool {
    mask(text)
        .1
        .iter()
        .any(|c| c.trim().contains(' ') && simple_commands(c).len() == 1)
}

/// "Do NOT merge just because all checks pass": not for that reason alone
/// — the act itself is no breach, and its reason is not visible.
fn for_that_reason_alone(text: &str) -> bool {
    let w = plain_words(text);
    w.windows(2).any(|p| {
        matches!(p[0].as_str(), "just" | "only" | "simply" | "merely" | "solely")
            && p[1] == "because"
    })
    // "Never commit blind", "Do not merge hastily": how the act is done,
    // a judgement no action shows — not every such act. (A command given
    // with its arguments — "never `git add -A` blindly" — is the act
    // itself, whatever the manner.)
    || !names_a_full_command(text) && w.iter().skip(1).any(|x| {
        matches!(
            x.as_str(),
            "blind"
                | "blindly"
                | "carelessly"
                | "hastily"
                | "prematurely"
                | "speculatively"
                | "haphazardly"
                | "recklessly"
                | "casually"
                // ("Do not create these files manually": use the tool
                // that does — the act itself is no breach.)
                | "manually"
        )
    })
    // "Never use the prep commit as a substitute": what the thing is used
    // as, not the act the noun names.
    // "Never run `envsec sync` from shell startup or a scheduled job": where
    // the act is started from, which no action of the session shows.
    || w.iter().enumerate().any(|(i, x)| {
        matches!(x.as_str(), "from" | "in" | "inside")
            && w[i + 1..].iter().take(3).any(|y| {
                matches!(
                    y.as_str(),
                    "startup" | "cron" | "crontab" | "scheduled" | "bashrc" | "zshrc" | "profile"
                )
            })
    })
    // "No external HTTP calls — the services are all mocked": what the code
    // under test does, not what the agent may do.
    || w.iter().any(|x| {
        matches!(
            x.as_str(),
            "mock" | "mocks" | "mocked" | "mocking" | "stub" | "stubs" | "stubbed" | "faked"
        )
    })
    // "Examples: \"commit my changes\" → NO push": what an example shows,
    // not a prohibition of every such act.
    || w.first().is_some_and(|x| matches!(x.as_str(), "example" | "examples" | "e.g"))
    // "Never commit to these branches:": the items name what; the lead-in
    // alone forbids no act.
    || (text.trim_end().ends_with(':')
        && w.iter().any(|x| matches!(x.as_str(), "these" | "following")))
    // "Do not mix refactors with features", "No bug fixes in the same
    // commit": how changes are grouped, not each change.
    || w.iter().any(|x| matches!(x.as_str(), "mix" | "mixing" | "mixed" | "bundle" | "bundling"))
    || w.windows(3).any(|p| {
        p[0] == "the"
            && p[1] == "same"
            && matches!(p[2].as_str(), "commit" | "change" | "changeset" | "pr" | "diff" | "branch")
    })
    // "Do not include implementation code in the plan": what a document
    // holds, not an edit of the code.
    || w.iter().position(|x| matches!(x.as_str(), "include" | "put" | "paste" | "add")).is_some_and(|u| {
        w[u + 1..].windows(3).any(|p| {
            matches!(p[0].as_str(), "in" | "into")
                && matches!(p[1].as_str(), "the" | "a" | "your" | "this")
                && matches!(
                    p[2].as_str(),
                    "plan" | "spec" | "specification" | "report" | "summary" | "proposal" | "outline" | "design"
                )
        })
    })
    || !text.contains('`') && w.iter().position(|x| x == "use").is_some_and(|u| {
        w[u + 1..]
            .windows(2)
            .take(6)
            .any(|p| p[0] == "as" && matches!(p[1].as_str(), "a" | "an" | "the"))
    })
}

/// "Do not create changeset files manually", "Never edit lock files": a
/// kind of file named by a noun of its own, which a write's path does not
/// show (the kinds the lexicon knows — test, env, skill, settings, memory
/// files — have paths of their own and are not this).
pub(super) fn kind_of_files(main: &str, lex: &Lexicon) -> bool {
    let w = plain_words(main);
    // (The files are the object of a write: "create changeset files", not
    // "commit the plan files" nor "outputs file contents".)
    let writes = |v: &str| {
        [
            "creat", "writ", "edit", "modif", "chang", "updat", "touch", "delet", "remov",
        ]
        .iter()
        .any(|s| v.starts_with(s))
    };
    w.windows(3).any(|p| {
        let k = p[1].as_str();
        writes(&p[0])
            && matches!(p[2].as_str(), "file" | "files")
            && k.len() > 2
            && k.chars().all(|c| c.is_ascii_alphabetic())
            && !lex.is_imperative(k)
            && !k.ends_with("ed")
            && !matches!(
                k,
                "the"
                    | "any"
                    | "all"
                    | "these"
                    | "those"
                    | "this"
                    | "that"
                    | "your"
                    | "our"
                    | "their"
                    | "its"
                    | "other"
                    | "new"
                    | "existing"
                    | "multiple"
                    | "several"
                    | "many"
                    | "some"
                    | "more"
                    | "extra"
                    | "individual"
                    | "single"
                    | "each"
                    | "every"
                    | "and"
                    | "for"
                    | "with"
                    | "into"
                    | "from"
                    | "relevant"
                    | "project"
                    | "repo"
                    | "repository"
                    | "source"
                    | "code"
                    | "same"
                    | "test"
                    | "tests"
                    | "env"
                    | "environment"
                    | "memory"
                    | "skill"
                    | "skills"
                    | "settings"
                    | "report"
                    | "output"
                    | "markdown"
                    | "guidance"
                    | "instruction"
                    | "instructions"
                    | "hook"
                    | "hooks"
                    | "secret"
                    | "secrets"
                    | "credential"
                    | "credentials"
                    | "key"
                    | "keys"
                    | "ssh"
                    | "private"
                    | "api"
                    | "agent"
                    | "dotenv"
                    | "variable"
                    | "config"
                    | "configuration"
            )
    })
}

pub(super) fn object_qualified(main: &str) -> bool {
    let w = plain_words(main);
    // "Do not make any modifications to it": the object is the thing named
    // before, not every file.
    if w.windows(2)
        .any(|p| matches!(p[0].as_str(), "to" | "of") && matches!(p[1].as_str(), "it" | "them"))
    {
        return true;
    }
    // "Never pipe `op` into `gh secret set`": a pipeline, which no one
    // simple command shows.
    if w.iter()
        .any(|t| matches!(t.as_str(), "pipe" | "piping" | "piped"))
    {
        return true;
    }
    // "Implement in 5+ languages", "more than 3 files": how many is a
    // count over the work, not one act.
    let count = |t: &str| {
        t.strip_suffix('+')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    if main.split_whitespace().any(count)
        || w.windows(3).any(|p| {
            matches!(p[0].as_str(), "more" | "fewer" | "less")
                && p[1] == "than"
                && p[2].chars().all(|c| c.is_ascii_digit())
        })
    {
        return true;
    }
    // "Never edit `.env` directly with secrets", "Editing pyproject.toml
    // to add deps": what the change puts in, which the act does not show.
    if w.windows(2).skip(1).any(|p| {
        (p[0] == "with"
            && matches!(
                p[1].as_str(),
                "secrets"
                    | "secret"
                    | "credentials"
                    | "tokens"
                    | "passwords"
                    | "keys"
                    | "plaintext"
            ))
            || (p[0] == "to"
                && matches!(
                    p[1].as_str(),
                    "add" | "insert" | "include" | "store" | "paste"
                ))
    }) {
        return true;
    }
    // "a worktree with uncommitted changes", "branches with unpushed
    // commits": a state of the object, which the act does not show.
    if w.windows(2).skip(1).any(|p| {
        matches!(p[0].as_str(), "with" | "that has" | "having")
            && matches!(
                p[1].as_str(),
                "uncommitted"
                    | "unstaged"
                    | "untracked"
                    | "unmerged"
                    | "unpushed"
                    | "local"
                    | "pending"
            )
    }) {
        return true;
    }
    w.iter().enumerate().skip(1).any(|(i, t)| {
        // ("uncommitted", "unstaged", "untracked" name what reset/clean act
        // on by definition: no qualifier.)
        (t.starts_with("un")
            && t.ends_with("ed")
            && t.len() > 6
            && !matches!(
                t.as_str(),
                "uncommitted" | "unstaged" | "untracked" | "unmerged"
            ))
            || matches!(
                t.as_str(),
                "broken"
                    | "failing"
                    | "incomplete"
                    | "unfinished"
                    | "large"
                    | "huge"
                    | "generated"
                    | "temporary"
                    | "debug"
                    | "commented"
                    | "current"
                    | "active"
                    | "hidden"
                    // "a branch others use": which one it is is not in
                    // the act.
                    | "others"
                    | "someone"
                    | "somebody"
            )
            // ("Sensitive data" is what secrets are, not some of them.)
            || (t == "sensitive"
                && !w.get(i + 1).is_some_and(|n| {
                    matches!(
                        n.as_str(),
                        "data" | "information" | "info" | "values" | "credentials"
                    )
                }))
            // ("a protected branch" names the branches the act is on: the
            // default ones.)
            || (t == "protected"
                && !w
                    .get(i + 1)
                    .is_some_and(|n| matches!(n.as_str(), "branch" | "branches")))
            // "your own PR": some PRs, which the merge does not show.
            || (t == "own"
                && w
                    .get(i + 1)
                    .is_some_and(|n| matches!(n.as_str(), "pr" | "prs" | "pull" | "mr" | "mrs")))
            // "published commits" are some; "published history" is what
            // was pushed, all of it.
            || (t == "published" && w.get(i + 1).is_none_or(|n| n != "history"))
            // "… as part of finishing the task": only some such acts.
            || (t == "part" && i >= 1 && w[i - 1] == "as" && w.get(i + 1).is_some_and(|n| n == "of"))
            // "… in propose mode", "… in plan mode": a state of the
            // session, which no action shows.
            || (t == "mode" && w[..i].iter().rev().take(3).any(|x| x == "in"))
            // "the branch you're currently on": a relative clause with no
            // pronoun of its own.
            || (i >= 2
                && matches!(
                    t.as_str(),
                    "you" | "you're" | "you've" | "we" | "we're" | "they" | "they're"
                )
                && matches!(w[i - 2].as_str(), "the" | "a" | "an" | "any"))
            // ("`cat .env` or any command that prints it": the clause
            // widens an alternative, the named act stays.)
            || (matches!(t.as_str(), "that" | "which")
                && i >= 2
                && !alternative_widened(&w[..i])
                && w.get(i + 1).is_some_and(|n| {
                    n.ends_with('s')
                        || matches!(
                            n.as_str(),
                            "is" | "are"
                                | "has"
                                | "have"
                                | "contain"
                                | "break"
                                | "fail"
                                | "don't"
                                | "doesn't"
                                | "do"
                                | "does"
                                | "were"
                                | "was"
                        )
                }))
    })
}

/// "… or any command", "… or anything", "… or any other tool": the words
/// before a relative clause end with an alternative that widens the act
/// named before it.
fn alternative_widened(before: &[String]) -> bool {
    let tail: Vec<&str> = before.iter().rev().take(4).map(String::as_str).collect();
    let or = tail.iter().position(|x| *x == "or");
    or.is_some_and(|o| {
        tail[..o]
            .iter()
            .any(|x| matches!(*x, "any" | "anything" | "other" | "similar"))
    })
}

/// The lexicon reads the condition as a failed command ("if NOT
/// ignored" is `git check-ignore` failing): a visible state.
pub(super) fn names_a_failure(info: &ClauseInfo) -> bool {
    info.actions
        .iter()
        .any(|(p, _)| p.any_node(&|q| matches!(q, Predicate::Failed(_))))
}

/// A condition about a state rather than an act: negated ("if not
/// merged", "if the tree is not clean") or a bare participle ("if merged").
pub(super) fn state_condition(c: &str) -> bool {
    let w = plain_words(c);
    let negated = w.iter().any(|t| {
        matches!(
            t.as_str(),
            "not"
                | "no"
                | "never"
                | "isn't"
                | "aren't"
                | "doesn't"
                | "don't"
                | "hasn't"
                | "haven't"
                | "wasn't"
                | "weren't"
                | "didn't"
                | "cannot"
                | "can't"
                | "nothing"
        )
    });
    let rest: Vec<&String> = w.iter().skip_while(|t| is_condition_word(t)).collect();
    let participle = (1..=2).contains(&rest.len()) && rest[0].ends_with("ed") && rest[0].len() > 4;
    negated || participle
}

/// The guarded act takes many things at once ("delete branches", "push the
/// commit and tag"): one consent covers the batch (`before`), as a user
/// answers one question for a list; "each" / "every" keep `before-each`.
pub(super) fn batch_object(main: &str) -> bool {
    let w = plain_words(main);
    if w.iter()
        .any(|t| matches!(t.as_str(), "each" | "every" | "one" | "single"))
    {
        return false;
    }
    let things = |t: &str| {
        matches!(
            t,
            "branch" | "tag" | "worktree" | "file" | "commit" | "remote" | "directory" | "folder"
        )
    };
    let plural = |t: &str| {
        matches!(
            t,
            "branches"
                | "tags"
                | "worktrees"
                | "files"
                | "remotes"
                | "directories"
                | "folders"
                | "commits"
        )
    };
    let det = |t: &str| matches!(t, "the" | "its" | "their" | "a" | "an" | "any" | "all");
    w.iter().take(8).any(|t| plural(t))
        || (1..w.len().min(10)).any(|i| {
            let next = w[i + 1..].iter().find(|t| !det(t));
            w[i] == "and" && things(&w[i - 1]) && next.is_some_and(|n| things(n) || plural(n))
        })
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
                && (t.contains('.') || t.contains('/'))
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
    if p.ends_with('/') {
        re.push_str(r"[^\s]*");
    }
    re
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

/// A condition on an act already done: "after X", or a perfect or passive
/// "when the fixes are merged" / "once it has been pushed".
pub(super) fn completed(c: &str, o: Order) -> bool {
    if o != Order::After {
        return false;
    }
    let w: Vec<String> = words(c)
        .into_iter()
        .map(|x| x.text.to_lowercase())
        .collect();
    w.first().is_some_and(|f| f == "after")
        || w.windows(2).any(|p| {
            matches!(p[0].as_str(), "is" | "are" | "was" | "were" | "been")
                && p[1].len() > 3
                && p[1].ends_with("ed")
        })
}

/// When a rule's commands fall against its condition's act: "Before every
/// commit, run:" → `before-each`, "… before committing" → `before`,
/// "After each change, run:" → `after`; other conditions say no time.
pub(super) fn timed_condition(s: &str) -> Option<Order> {
    let keyword = match opening_condition(s) {
        Some(_) => words(&mask(s).0).first().map(|w| w.text.clone()),
        None => split_trailing(s).map(|(_, k, _)| k.trim().to_lowercase()),
    }?;
    let each = words(s)
        .iter()
        .any(|x| matches!(x.text.as_str(), "each" | "every"));
    match keyword.as_str() {
        "before" | "prior" => Some(before(each)),
        "after" => Some(Order::After),
        _ => None,
    }
}

/// `before`, or `before-each` where the rule says "each" / "every".
pub(super) fn before(each: bool) -> Order {
    if each {
        Order::BeforeEach
    } else {
        Order::Before
    }
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
    let run_led;
    let s = match led_command(s) {
        Some(cmd)
            if ctx.in_list
                && (ctx.lead.is_some_and(|l| l.normative)
                    || (ctx.lead.is_none() && ctx.section.normative().is_some()))
                && command_predicate(cmd.trim_matches('`'), lex).is_some() =>
        {
            run_led = format!("Run {cmd}");
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
    let s = match find_outside_code(s, " - ").or_else(|| find_outside_code(s, " — ")) {
        Some(i) => {
            let dash = if s[i..].starts_with(" - ") {
                3
            } else {
                " — ".len()
            };
            let (head, tail) = (s[..i].trim(), s[i + dash..].trim());
            // The verb opens it ("I dispatch …" describes, it does not instruct).
            let imperative = |x: &str| {
                let x = split_label(x).map_or(x.to_string(), |(_, r)| r);
                words(&mask(&x).0)
                    .iter()
                    .find(|w| !w.barrier)
                    .is_some_and(|v| lex.is_imperative(&v.text.to_lowercase()))
            };
            if tail.trim_end_matches(['*', '_', ' ']).ends_with('?') && imperative(head) {
                glossed = head.to_string();
                glossed.as_str()
            } else if (!is_rule_like(head, lex) && imperative(tail)
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
        let labelled = ctx.in_list
            && (split_label(s).is_some_and(|(_, q)| opens_yes_no(&q)) || dashed.is_some_and(asks));
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
            if left.is_empty() || right.is_empty() {
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
    // A label before a colon: "Core principle: …", "If NOT ignored: …".
    let mut rest = s.to_string();
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
                !(lw.first().is_some_and(|w| lex.is_imperative(&w.text))
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
            conditions.push((label.split_once(' ').map_or("", |x| x.1).to_string(), order));
            rest = after;
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
            label_text = label;
            rest = after;
        }
    }
    // "Use the `/x` command to invoke this skill": how the skill is loaded,
    // which the load itself shows, not a rule of the session.
    if words(&mask(&rest).0).windows(3).any(|p| {
        matches!(
            p[0].text.as_str(),
            "invoke" | "trigger" | "activate" | "load" | "run" | "use"
        ) && p[1].text == "this"
            && p[2].text == "skill"
    }) {
        return None;
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
            // "Done when: the PR is merged": a completion criterion.
            label_text
                .to_lowercase()
                .contains("done when")
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
    let normative = own.is_some()
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
    if !ctx.in_list && own.is_none() && !imperative && !caps && !limit_norm(&mw) {
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
            if ctx.in_list && lead_rule.is_none() {
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
        let a_state = after.iter().any(|t| {
            matches!(
                *t,
                "remain" | "remains" | "left" | "exist" | "exists" | "outstanding" | "pending"
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
    let contentless = mw.iter().filter(|w| !w.barrier).all(|w| {
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
    let forbid_ok = own.is_some() || caps || acts;
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
    let by_command = verb.as_deref().is_some_and(|v| {
        matches!(
            v,
            "reply" | "respond" | "answer" | "report" | "notify" | "post" | "pass" | "share"
        )
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
                && matches!(p[2].text.as_str(), "the" | "user" | "your" | "them" | "for")
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
    let speech = (verb.as_deref().is_some_and(|v| lex.is_speech(v)) && !by_command && !delegates
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
        let split = [", not ", ", never ", "; never "]
            .iter()
            .filter_map(|k| find_outside_code(&main, k).map(|i| (i, k.len())))
            .filter(|(i, n)| {
                // (Only after an instruction, before an object: "Keys are
                // never stored …, never committed …" states a fact.)
                *n == ", not ".len()
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
        && conditions.iter().all(|(c, _)| mentions_consent(c));
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
    // ("After showing the plan, wait for approval": after a planning step.)
    let waits = waits || loops_on_user;
    let awaits = waits
        && (conditions.is_empty()
            || loops_on_user
            || conditions
                .iter()
                .all(|(c, _)| planning_milestone(c) || presents_work(c)))
        && !negative
        && (loops_on_user
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
    if check_question {
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

/// The work's first visible step: a change to the code, or a commit (which
/// records work a subagent may have done out of sight). Not the commit when
/// the rule requires one: a commit cannot be due before the first commit.
/// The work's edits (source files, not tests or docs): what "proceeding"
/// after a consent does first.
pub(super) fn work_edits(lex: &Lexicon) -> Predicate {
    clause_info("start implementation", lex)
        .behavior(false)
        .expect("the lexicon names the start of implementation")
}

pub(super) fn start_of_work(lex: &Lexicon, required: Option<&Predicate>) -> Predicate {
    let edit = work_edits(lex);
    let commit = Predicate::Git {
        subcommand: "commit".into(),
        args: Vec::new(),
    };
    let requires_commit = required.is_some_and(|r| {
        let mut cmds = Vec::new();
        let mut paths = Vec::new();
        super::scope::samples(r, &mut cmds, &mut paths);
        cmds.iter().any(|c| c.starts_with("git commit"))
    });
    if requires_commit {
        edit
    } else {
        Predicate::Any(vec![edit, commit])
    }
}

/// "starting", "you begin", "starting work": the start of the work itself,
/// which a session shows as its first change to the code.
/// The end of the work: "claiming success", "the work is done",
/// "finishing", "declaring it complete".
pub(super) fn names_completion(c: &str) -> bool {
    words(&mask(c).0).iter().any(|x| {
        matches!(
            x.text.as_str(),
            "done"
                | "complete"
                | "completed"
                | "completion"
                | "finished"
                | "finishing"
                | "finish"
                | "success"
                | "successful"
                | "fixed"
                | "passing"
        )
    })
}

pub(super) fn names_going_on(c: &str) -> bool {
    let w = words(&mask(c).0);
    !w.is_empty()
        && w.iter().all(|x| {
            matches!(
                x.text.as_str(),
                "proceeding"
                    | "proceed"
                    | "continuing"
                    | "continue"
                    | "moving"
                    | "move"
                    | "on"
                    | "further"
                    | "you"
                    | "we"
                    | "to"
                    | "with"
                    | "the"
                    | "next"
                    | "step"
                    | "phase"
            )
        })
}

/// "before fixing it", "before attempting to fix the bug", "before
/// refactoring", "after each step", "after each logical change": a change
/// to the code, in a condition only — as a trigger it is the work's edits
/// (never an act a rule requires or forbids).
pub(super) fn names_code_change(c: &str) -> bool {
    let w = plain_words(c);
    if w.is_empty() || w.len() > 6 {
        return false;
    }
    // As a verb ("fixing", "to fix it", "fix it"), not a noun ("the fix is
    // reviewed").
    let fixes = w.iter().enumerate().any(|(i, x)| {
        matches!(x.as_str(), "fixing" | "refactoring" | "editing" | "modifying" | "changing")
            || (matches!(x.as_str(), "fix" | "refactor") && (i == 0 || w[i - 1] == "to"))
    }) && !w.iter().any(|x| {
        x.starts_with("test")
            || matches!(x.as_str(), "typo" | "typos" | "docs" | "lint" | "pr")
            // "If the fix doesn't work": the state of a fix, not one.
            || matches!(
                x.as_str(),
                "not" | "doesn't" | "don't" | "didn't" | "work" | "works" | "worked" | "fails" | "failed"
            )
    });
    let stepwise = w.iter().any(|x| matches!(x.as_str(), "each" | "every"))
        && w.last().is_some_and(|x| {
            matches!(
                x.as_str(),
                "step" | "change" | "edit" | "modification" | "refactor" | "refactoring"
            )
        });
    fixes || stepwise
}

pub(super) fn names_the_start_of_work(c: &str) -> bool {
    let w = words(&mask(c).0);
    // "before implementation", "before execution": its start.
    let bare = w
        .iter()
        .filter(|x| !matches!(x.text.as_str(), "the" | "any"))
        .collect::<Vec<_>>();
    if let [x] = bare.as_slice() {
        if matches!(x.text.as_str(), "implementation" | "execution" | "coding") {
            return true;
        }
    }
    w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "starting" | "start" | "starts" | "beginning" | "begin" | "begins"
        )
    }) && w.iter().all(|x| {
        matches!(
            x.text.as_str(),
            "starting"
                | "start"
                | "starts"
                | "beginning"
                | "begin"
                | "begins"
                | "execution"
                | "you"
                | "we"
                | "any"
                | "the"
                | "work"
                | "working"
                | "implementation"
                | "to"
                | "code"
                | "coding"
        )
    })
}

/// A line that opens with a skill reference (`namespace:skill-name`, bold or
/// in a code span) and then a dash or colon: the reference and the rest.
pub(super) fn skill_reference_head(s: &str) -> Option<(&str, &str)> {
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
fn skill_rest_instructs(rest: &str, lex: &Lexicon) -> bool {
    let w = words(&mask(rest).0);
    if own_modal(&w).is_some() {
        return true;
    }
    main_verb(&w).is_some_and(|v| lex.is_imperative(&v) && v != "use")
        && !starts_with_third_person(&w)
}

/// "Any file matching `.env.*`", "anything under `secrets/`": the pattern
/// after the words that say it names files; any other text as it is.
pub(super) fn files_matching(s: &str) -> &str {
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
pub(super) fn opens_with_file(s: &str) -> bool {
    let t = s.trim_start();
    t.strip_prefix('`')
        .and_then(|inner| inner.find('`').map(|j| &inner[..j]))
        .is_some_and(|p| path_glob(p).is_some())
}

/// A line that opens with a file path written without a code span
/// ("docs/guide.md - the method"): a path with a folder and a file name
/// the kinds of [`looks_like_file`]; the path and the rest of the line.
pub(super) fn unquoted_file_head(s: &str) -> Option<(&str, &str)> {
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
pub(super) fn is_file_reference(s: &str) -> bool {
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

impl Analysis {
    /// The rule holds only under a condition about the user or the
    /// conversation ("When the user asks for a release, …"), which no action
    /// shows: a `require` would wrongly bind every session.
    pub(super) fn user_condition(&self, lex: &Lexicon) -> bool {
        self.user_condition_but(lex, false)
    }

    /// `user_condition`, leaving planning milestones aside when asked.
    /// What a positive rule that seeks consent guards: the act of its
    /// `before` condition ("Get approval before pushing"), or the work that
    /// comes next where it waits to proceed ("… before proceeding", "Only
    /// proceed once the user has confirmed").
    fn consent_guard(&self, lex: &Lexicon) -> Option<(Predicate, bool)> {
        if self.negative {
            return None;
        }
        let seeks = |t: &str| {
            let w = words(&mask(t).0);
            let lower = t.to_lowercase();
            // "Check with the user before pushing", "Get the user's OK".
            let with_user = w.iter().any(|x| {
                matches!(
                    x.text.as_str(),
                    "user" | "user's" | "human" | "partner" | "maintainer"
                )
            }) && w
                .iter()
                .find(|x| !x.barrier && !is_filler(&x.text))
                .is_some_and(|x| {
                    matches!(
                        x.text.as_str(),
                        "check" | "clear" | "confirm" | "get" | "obtain" | "consult"
                    )
                });
            // ("Check the branch permissions": access rights looked at, not
            // consent sought.)
            let looks_at = w
                .iter()
                .find(|x| !x.barrier && !is_filler(&x.text))
                .is_some_and(|x| {
                    matches!(x.text.as_str(), "check" | "verify" | "inspect" | "review")
                });
            with_user
                || lower.contains("sign-off")
                || lower.contains("sign off")
                || lower.contains("go-ahead")
                || w.iter().any(|w| {
                    w.text.starts_with("approv")
                        || w.text.starts_with("consent")
                        || w.text == "permission"
                        || w.text == "permissions" && !looks_at
                        || matches!(
                            w.text.as_str(),
                            "confirmation" | "confirms" | "confirmed" | "ok" | "okay"
                        )
                })
        };
        // "Ask the user to review the spec before proceeding": asking
        // before going on waits for the answer.
        let asks = words(&mask(&self.main).0)
            .iter()
            .find(|w| !w.barrier && !is_filler(&w.text))
            .is_some_and(|w| w.text == "ask");
        if asks
            && self
                .conditions
                .iter()
                .any(|(c, o)| *o == Order::Before && names_going_on(c))
        {
            return Some((work_edits(lex), self.each));
        }
        // "Ask the user to choose a version bump", "Ask the user which
        // version bump to apply": the act the user picks waits on the answer.
        if let Some(act) = self
            .picked
            .as_deref()
            .and_then(|rest| clause_info(rest, lex).behavior(false))
        {
            return Some((act, false));
        }
        if seeks(&self.main) {
            for (c, o) in &self.conditions {
                if *o != Order::Before {
                    continue;
                }
                if names_going_on(c) || names_the_start_of_work(c) {
                    return Some((work_edits(lex), self.each));
                }
                if let Some(act) = clause_info(c, lex).behavior(false) {
                    return Some((act, true));
                }
            }
        }
        (self.proceeds && self.conditions.iter().any(|(c, _)| seeks(c)))
            .then(|| (work_edits(lex), self.each))
    }

    /// Whether each guarded act needs its own consent: not where the rule
    /// "proceeds" (what comes next) or takes a batch ([`batch_object`]).
    fn one_each(&self) -> bool {
        self.each || !(self.proceeds || batch_object(&self.main))
    }

    /// Every condition is the user asking or wanting something ("If the
    /// user asks to …", "When the user wants …").
    fn only_user_conditions(&self) -> bool {
        !self.conditions.is_empty()
            && self.conditions.iter().all(|(c, _)| {
                user_wants(c) || {
                    let w = plain_words(c);
                    w.iter().any(|x| matches!(x.as_str(), "user" | "users"))
                        && w.iter().any(|x| {
                            matches!(
                                x.as_str(),
                                "asks" | "ask" | "requests" | "request" | "says" | "tells"
                            )
                        })
                }
            })
    }

    fn user_condition_but(&self, lex: &Lexicon, planning: bool) -> bool {
        self.conditions.iter().any(|(c, _)| {
            if planning && planning_milestone(c) {
                return false;
            }
            let w = words(&mask(c).0);
            user_wants(c)
                || clause_info(c, lex).actions.is_empty()
                    && w.iter().any(|x| {
                        matches!(
                            x.text.as_str(),
                            "user"
                                | "users"
                                | "partner"
                                | "human"
                                | "asks"
                                | "asked"
                                | "requests"
                                | "requested"
                                | "wants"
                                | "prefers"
                                | "declines"
                                | "approves"
                                | "approved"
                                | "says"
                                | "explicitly"
                        )
                    })
        })
    }

    /// Any condition no predicate expresses ("If `GIT_DIR != GIT_COMMON`:
    /// … Do NOT create another worktree"): a `forbid` ignores `when`, so it
    /// would forbid the act everywhere; the rule keeps no behavior.
    pub(super) fn unseen_condition(&self, lex: &Lexicon) -> bool {
        self.unseen_condition_but(lex, false)
    }

    /// `unseen_condition`, leaving planning milestones aside when asked.
    fn unseen_condition_but(&self, lex: &Lexicon, planning: bool) -> bool {
        self.conditions.iter().any(|(c, o)| {
            if planning && planning_milestone(c) {
                return false;
            }
            // "… before proceeding": the next step, whatever it is; the
            // rule holds as a step of its own.
            if *o == Order::Before && (names_the_start_of_work(c) || names_going_on(c)) {
                return false;
            }
            if names_code_change(c) {
                return false;
            }
            let info = clause_info(&commit_as_act(c), lex);
            (info.actions.is_empty() && info.modifiers.is_empty() && !c.trim().is_empty())
                || (state_condition(c) && !names_a_failure(&info))
        })
    }

    pub(super) fn into_draft(self, ctx: &Ctx, lex: &Lexicon) -> Draft {
        let mut after_started = false;
        let mut d = Draft::new(String::new(), [0, 0], self.modality);
        for t in &self.scope_text {
            d.scope.extend(clause_info(t, lex).scope);
        }
        if self.speaks_secrets {
            d.scope.insert(ScopeTag::SensitiveMemory);
        }
        let mut main = clause_info(&self.main, lex);
        // "Never skip tests or code review": what is skipped is run.
        if self.skipped && main.actions.is_empty() {
            if let Some(run) = skipped_as_run(&self.main) {
                main = clause_info(&run, lex);
            }
        }
        let mut cond_actions = Vec::new();
        let mut cond_mods = Vec::new();
        let mut cond_order = None;
        // The start-of-work proxy is a trigger, not the rule's act: its
        // commit does not make the rule about repo state.
        let mut proxy = None;
        for (c, o) in &self.conditions {
            if *o == Order::Before && names_going_on(c) {
                continue;
            }
            if *o == Order::Before && names_the_start_of_work(c) {
                // "… before starting": before the work's first visible step.
                if cond_order.is_none() {
                    cond_order = Some(*o);
                }
                let required = main.behavior(true);
                let start = start_of_work(lex, required.as_ref());
                proxy = Some(start.clone());
                cond_actions.push((start, false));
                continue;
            }
            let info = clause_info(&commit_as_act(c), lex);
            if info.actions.is_empty() && names_code_change(c) {
                if cond_order.is_none() {
                    cond_order = Some(*o);
                }
                cond_actions.push((work_edits(lex), false));
                continue;
            }
            // "If not merged", "if `git status` is not clean", "if
            // merged": a state, not the act it names; nor is what the user
            // wants.
            if (state_condition(c) && !names_a_failure(&info)) || user_wants(c) {
                continue;
            }
            if !info.actions.is_empty() && cond_order.is_none() {
                // "… before claiming the work is done": what is due before
                // the end is due after the work's changes (`after`), not
                // before the first of them.
                cond_order = Some(if *o == Order::Before && names_completion(c) {
                    Order::After
                } else {
                    *o
                });
            }
            cond_actions.extend(info.actions);
            cond_mods.extend(info.modifiers);
        }
        let main = if self.negative {
            main.without_generic_subagent()
        } else {
            main
        };
        let mut mods = main.modifiers.clone();
        mods.extend(cond_mods);
        dedup(&mut mods);
        let when_actions = any_of(cond_actions.iter().map(|(p, _)| p.clone()).collect());
        if let Some((guarded, each)) = self.consent_guard(lex) {
            // "Wait for the user's approval before proceeding", "Only
            // proceed once the user has confirmed": a consent gate (SPEC
            // §4.2) on the act named (each one), or on the work that comes
            // next (one consent covers it). "… on `main`": only acts on
            // that branch wait.
            consent_gate(&mut d, on_branches(guarded, &mods), each);
        } else if self.speech {
            d.when = when_actions;
            // "Ask the user to confirm before deleting anything": asking
            // before an act is seeking consent for it (SPEC §4.2).
            // ("Show the plan and ask the user to confirm before …": the
            // question the second verb asks.)
            let mw = words(&self.main);
            let asks = mw
                .iter()
                .find(|w| !w.barrier && !is_filler(&w.text))
                .is_some_and(|w| matches!(w.text.as_str(), "ask" | "confirm"))
                || mw.windows(2).any(|p| {
                    matches!(p[0].text.as_str(), "and" | "then")
                        && matches!(p[1].text.as_str(), "ask" | "confirm")
                });
            let before = self.conditions.iter().any(|(_, o)| *o == Order::Before);
            // "Ask the user if they want to push the commit and tag": the
            // question seeks consent for the act it names.
            let wants = self.conditions.iter().find(|(c, _)| {
                words(&mask(c).0).iter().any(|w| {
                    matches!(
                        w.text.as_str(),
                        "want" | "wants" | "wish" | "wishes" | "like" | "prefer" | "prefers"
                    )
                })
            });
            if let Some(guarded) = d.when.clone().filter(|_| asks && before && !self.negative) {
                consent_gate(&mut d, guarded, true);
            } else if let Some(((c, _), guarded)) = wants
                .and_then(|w| {
                    // "Ask if the user wants to apply the changes": the act
                    // wanted, which the trigger set aside as a wish.
                    let named = || {
                        any_of(
                            clause_info(&commit_as_act(&w.0), lex)
                                .actions
                                .into_iter()
                                .map(|(p, _)| p)
                                .collect(),
                        )
                    };
                    d.when.clone().or_else(named).map(|g| (w, g))
                })
                .filter(|_| asks && !self.negative)
            {
                consent_gate(&mut d, guarded, !batch_object(c));
            }
        } else if self.negative {
            let main_pred = main
                .behavior_with(&mods, false)
                .or_else(|| {
                    // "Don't use Poetry" forbids running it; "don't disable
                    // pre-commit" or "don't configure mypy" does not.
                    let mw = words(&mask(&self.main).0);
                    let verb = mw
                        .iter()
                        .filter(|x| !x.barrier && !is_filler(&x.text))
                        .map(|x| x.text.as_str())
                        .find(|t| !matches!(*t, "avoid" | "stop" | "quit" | "refrain" | "from"));
                    let uses = verb.is_none_or(|v| {
                        [
                            "use",
                            "run",
                            "install",
                            "call",
                            "invoke",
                            "add",
                            "execute",
                            "launch",
                            "adopt",
                            "introduce",
                            "switch",
                            "rely",
                        ]
                        .iter()
                        .any(|b| verb_matches(v, b))
                    });
                    if mods.is_empty() && uses {
                        any_of(main.programs.clone())
                    } else {
                        None
                    }
                })
                // ("Do not run tests unless explicitly asked": an act no
                // rule may forbid outright still waits on the user's word.)
                .filter(|_| {
                    self.forbid_ok
                        || self.without.is_some()
                        || self.negative_before.as_deref().is_some_and(user_consent)
                });
            if let Some(y) = &self.without {
                let req = clause_info(y, lex).behavior(true);
                let consent = user_consent(y);
                match (main_pred, req) {
                    // "… without the user asking for a force push": the
                    // user's words are the consent, not an act.
                    (Some(x), _) if consent => consent_gate(&mut d, x, self.one_each()),
                    (Some(x), Some(y)) => {
                        d.when = Some(x);
                        d.require = Some(y);
                        d.order = Some(before(self.each));
                    }
                    // "Never delete without the user's explicit confirmation":
                    // a consent gate, the one-way check of SPEC §4.2.
                    // One consent covers a batch that "starts" or "proceeds";
                    // else each guarded act needs its own.
                    (Some(x), None) if mentions_consent(y) => {
                        consent_gate(&mut d, x, self.one_each())
                    }
                    // "Don't merge your own PR without a review": what it
                    // needs is not visible, the act is — its trigger, never
                    // a forbid of every merge.
                    (Some(x), None) => d.when = Some(x),
                    // "NO COMPLETION CLAIMS WITHOUT FRESH VERIFICATION": the
                    // act is not visible, what it needs is.
                    (None, Some(y)) => {
                        d.when = when_actions;
                        if d.when.is_some() || !ctx.section.conditional() {
                            d.require = Some(y);
                        }
                    }
                    _ => d.when = when_actions,
                }
            } else if let Some(y) = &self.negative_before {
                let req = clause_info(y, lex).behavior(true).or_else(|| {
                    active_form(y, lex).and_then(|a| clause_info(&a, lex).behavior(true))
                });
                let consent = user_consent(y);
                match (main_pred, req) {
                    // "Never force-push unless the user explicitly requested
                    // a force push": a consent gate on each one.
                    (Some(x), _) if consent => consent_gate(&mut d, x, self.one_each()),
                    (Some(x), Some(y)) => {
                        d.when = Some(x);
                        d.require = Some(y);
                        d.order = Some(before(self.each));
                    }
                    // "until the user has approved it": consent lives in the
                    // conversation; the act is visible, and a user turn must
                    // come before it.
                    (Some(x), None) if mentions_consent(y) => {
                        consent_gate(&mut d, x, self.one_each())
                    }
                    (Some(x), None) => d.when = Some(x),
                    // "Do not proceed until the user responds": whatever
                    // changes files next waits for the user's turn.
                    (None, None) if mentions_consent(y) && self.proceeds => consent_gate(
                        &mut d,
                        on_branches(
                            Predicate::Any(vec![
                                Predicate::Write("**".into()),
                                Predicate::Edit("**".into()),
                            ]),
                            &mods,
                        ),
                        false,
                    ),
                    _ => d.when = when_actions,
                }
            } else if let Some(x) = main_pred
                .clone()
                .filter(|_| when_actions.is_some() && self.only_user_conditions())
            {
                // "If the user asks to remove files from history: do not use
                // filter-branch": what the user asks for is no act of the
                // session; the act named is the trigger, judged by people.
                d.when = Some(x);
            } else if when_actions.is_some() {
                // "If X, never Y": `forbid` ignores `when`, so the rule is
                // judged only where X happened, by people.
                d.when = when_actions;
            } else if let Some(x) = main_pred.clone().filter(|_| acts_unasked(&self.main)) {
                // "Never commit automatically": not without the user's go.
                consent_gate(&mut d, x, true);
            } else if let Some(x) = main_pred
                .as_ref()
                .and_then(|x| staging_named(x, &self.named_paths))
            {
                // "Never commit `.env` files": staging those files by name.
                d.forbid = Some(x);
            } else if let Some(x) = main_pred {
                if self.unseen_condition(lex) || self.qualified {
                    // "Never push while a review is pending": whether the
                    // condition held is not visible, the act is — its
                    // trigger, judged by people, never a forbid of every push.
                    d.when = Some(x);
                } else {
                    d.forbid = Some(x);
                }
            } else if !mods.is_empty() && main.actions.is_empty() && main.mentions_work {
                d.forbid = Some(Predicate::All(vec![
                    Predicate::Touch("**".into()),
                    any_of(mods).expect("non-empty"),
                ]));
            } else if let Some(x) = plain_words(&self.main)
                .iter()
                .any(|w| matches!(w.as_str(), "commit" | "stage" | "add"))
                .then(|| Predicate::Git {
                    subcommand: "commit".into(),
                    args: Vec::new(),
                })
                .and_then(|c| staging_named(&c, &self.named_paths))
            {
                // "Never commit secrets (`.env`, `*.pem`)": whether a commit
                // holds a secret is its content, but staging the files
                // named is an act.
                d.forbid = Some(x);
            }
        } else if let Some(y) = self
            .avoided
            .as_deref()
            .map(|y| clause_info(y, lex))
            .and_then(|i| i.avoided())
        {
            // "Prefer `gh` over `curl`": the alternative is what is avoided.
            d.when = when_actions;
            if d.when.is_none() {
                d.forbid = Some(y);
                d.modality = if matches!(d.modality, Modality::Should) {
                    Modality::ShouldNot
                } else {
                    Modality::MustNot
                };
            }
        } else if let Some(x) = self
            .only_on_consent
            .then(|| main.behavior_with(&mods, false))
            .flatten()
        {
            // "Only force-push when the user explicitly asks": a consent
            // gate. The act is visible, the consent is a user turn before it.
            consent_gate(&mut d, x, true);
            d.modality = if matches!(d.modality, Modality::Should) {
                Modality::ShouldNot
            } else {
                Modality::MustNot
            };
        } else if let Some(x) = self
            .only_after
            .then(|| main.behavior_with(&mods, false))
            .flatten()
        {
            // "Push tags only after the release commit": `when` the act,
            // `require` the condition's act before it; a condition no act
            // shows ("only when the design is final") leaves the act a
            // trigger, judged by people.
            d.when = Some(x);
            if !self.unseen_condition(lex) {
                if let Some(y) = when_actions {
                    d.require = Some(y);
                    d.order = Some(before(self.each));
                }
            }
        } else {
            d.when = when_actions;
            // "Use X for Y" chooses a means: it requires nothing on its own.
            // Using a skill is loading it: that is an act.
            let req = if self.chooses && d.when.is_none() {
                main.skills_only().behavior_with(&mods, true)
            } else {
                main.behavior_with(&mods, true)
            };
            // A condition no action shows ("if available", "after the
            // design is validated", a step after the user's answer) keeps
            // the rule from binding from the load: without a visible
            // condition beside it, it stays unverifiable, never a `require`.
            let unseen = self.unseen_condition(lex) || ctx.after_user || self.purpose;
            // A step of the planning phase ("after the design is validated",
            // a step after the one that gets the plan approved, a section
            // "After the Design"): the phase ends where the work starts, so
            // it is due before the first change to the code. A session that
            // stopped at a question never fires it.
            let planning = (ctx.after_user && ctx.after_approval)
                || ctx.section.after_planning()
                || self.conditions.iter().any(|(c, _)| planning_milestone(c));
            let planning_only = planning
                && !self.unseen_condition_but(lex, true)
                && (!ctx.after_user || ctx.after_approval)
                && !ctx.section.conditional_beyond_planning()
                && !self.user_condition_but(lex, true);
            let sequence = self
                .conditions
                .is_empty()
                .then(|| split_sequence(&self.main, lex))
                .flatten()
                .filter(|_| !unseen && !self.user_condition(lex));
            if let Some((first, next)) = sequence {
                // "Locate it with `A`, then fetch it with `B`": the later
                // act is the trigger, the earlier one is due before it.
                d.when = Some(next);
                d.require = Some(first);
                d.order = Some(before(self.each));
            } else if d.when.is_some() {
                d.require = req;
                if d.require.is_some() && cond_order == Some(Order::Before) {
                    d.order = Some(before(self.each));
                }
            } else if planning_only {
                if let Some(r) = req {
                    let start = start_of_work(lex, Some(&r));
                    proxy = Some(start.clone());
                    d.when = Some(start);
                    d.require = Some(r);
                    d.order = Some(Order::Before);
                }
            } else if let Some(first) = ctx
                .started
                .clone()
                .filter(|_| !self.user_condition(lex) && !unseen && req.is_some())
            {
                // "### From flake8 + black": 1. Remove them via `uv remove`
                // … 5. Run `ruff check`: the procedure starts where its first
                // step is seen, and the later steps follow it.
                if req.as_ref() != Some(&first) {
                    d.when = Some(first);
                    d.require = req;
                    d.order = Some(Order::After);
                    after_started = true;
                }
            } else if self.only_limits {
                // (What is limited is the trigger, judged by people.)
                d.when = req;
            } else if self.skips {
                // ("Skip immediately — one flaky test undermines the entire
                // suite": the suite named is not run.)
            } else if self.conditions.is_empty()
                && req.as_ref().is_some_and(
                    |r| matches!(r, Predicate::Delete(g) | Predicate::Fetch(g) if g == "**"),
                )
            {
                // "Remove files explicitly and safely", "Download its
                // artifact": some deletion or download, of nothing named —
                // how it is done is the rule; the act is the trigger.
                d.when = req;
            } else if !ctx.section.conditional() && !self.user_condition(lex) && !unseen {
                d.require = req;
            }
        }
        if d.require.is_some() && d.require == d.when {
            d.require = None;
            d.order = None;
        }
        // A speech rule after an act ("After installing a skill, tell the
        // user …") guards nothing: its trigger's scope is not its own.
        if let Some(means) = &self.only_via {
            if let Some(act) = d.require.take() {
                if d.when.is_none() {
                    d.when = Some(act);
                }
                d.require = clause_info(means, lex).behavior(true);
                d.order = d.require.as_ref().map(|_| Order::Anywhere);
            }
        }
        let before = self.conditions.iter().any(|(_, o)| *o == Order::Before);
        // A question that gates an act guards that act's scope.
        if !self.speech || before || d.require == Some(Predicate::UserTurn) {
            let when = d.when.clone();
            // The step before (a procedure's start) is done: it lends no scope.
            if after_started
                || (!before
                    && !self.conditions.is_empty()
                    && self.conditions.iter().all(|(c, o)| completed(c, *o)))
            {
                d.when = None;
            }
            if let (Some(p), Some(w)) = (&proxy, &d.when) {
                d.when = match w {
                    w if w == p => None,
                    Predicate::Any(v) => any_of(v.iter().filter(|q| *q != p).cloned().collect()),
                    w => Some(w.clone()),
                };
            }
            add_predicate_scopes(&mut d, lex);
            d.when = when;
        }
        // A rule that acts, under a heading about a scoped act ("Create the
        // Worktree"), is about that act when its own words name none.
        // Only a rule that acts visibly: "PR titles must be in English"
        // under "Create the PR" states a format, it does not act on the PR.
        let acts = d.when.is_some()
            || d.require.is_some()
            || d.forbid.is_some()
            || main_verb(&words(&mask(&self.main).0)).is_some_and(|v| lex.is_imperative(&v));
        // Nor under a heading that names a failure ("Push fails",
        // "Permission denied"): the steps there recover, they do not push.
        let failure = words(ctx.section.nearest()).iter().any(|w| {
            [
                "fail",
                "error",
                "troubleshoot",
                "problem",
                "denied",
                "reject",
                "conflict",
            ]
            .iter()
            .any(|f| w.text.starts_with(f))
        });
        // Nor from a heading that states a situation ("Remote branch still
        // exists after deletion"): a topic or an act it names lends scope.
        let heading = ctx.section.nearest();
        let heading_acts = !words(heading).iter().any(|w| {
            matches!(
                w.text.as_str(),
                "is" | "are" | "was" | "were" | "exists" | "exist" | "still" | "already"
            )
        });
        // A heading lends the scope of what it does ("Create the
        // Worktree", "Native Worktree Tools"), not of a word a look-up
        // mentions ("Determine last released version" reads).
        let heading_info = clause_info(heading, lex);
        let hw = words(heading);
        let looks_up = hw
            .iter()
            .find(|w| {
                !w.text.chars().all(|c| c.is_ascii_digit() || c == '.')
                    && !matches!(w.text.as_str(), "step" | "phase" | "stage" | "part")
            })
            .is_some_and(|w| {
                [
                    "determin",
                    "identif",
                    "find",
                    "collect",
                    "gather",
                    "list",
                    "analy",
                    "review",
                    "inspect",
                    "read",
                    "check",
                    "look",
                    "examin",
                    "understand",
                    "assess",
                ]
                .iter()
                .any(|v| w.text.starts_with(v))
            });
        // "Write the commit message: …", "Keep the subject under 72
        // chars", "Include the attribution" under "### Commit": how a
        // message reads, not the commit.
        let heading_acts = heading_acts
            && (!looks_up || !heading_info.actions.is_empty())
            && !about_wording(&self.main);
        // "Check the permissions for branch deletion": a look-up that
        // names a scoped act is no act on that scope (nothing the gate can
        // see either).
        // (Forbidding a read — "never read the keychain" — guards secrets.)
        let look_up = !self.negative
            && main_verb(&words(&mask(&self.main).0)).is_some_and(|v| {
                [
                    "check",
                    "verify",
                    "inspect",
                    "review",
                    "look",
                    "read",
                    "examine",
                    "find",
                    "identify",
                    "determine",
                    "list",
                    "analy",
                    "understand",
                    "investigate",
                    "view",
                    "watch",
                    "monitor",
                ]
                .iter()
                .any(|l| v.starts_with(l))
            });
        // What a look-up names in words ("permissions for branch
        // deletion", "whether it was merged") is not required of the
        // session; a command it names in code (`git status`) is the look-up.
        // A look at the repository or a sweep for secrets is the act itself.
        let reads = d
            .require
            .as_ref()
            .is_some_and(|r| super::document::looks_at_the_repository(r, true));
        if look_up
            && d.when.is_none()
            && d.forbid.is_none()
            && !d.scope.is_empty()
            && !self.main.contains('`')
            && !reads
        {
            d.require = None;
            d.order = None;
        }
        if look_up && d.when.is_none() && d.require.is_none() && d.forbid.is_none() {
            // (A look for secrets — "Check for secrets first" — is the
            // sweep that guards them.)
            d.scope.retain(|t| *t == ScopeTag::SensitiveMemory);
        }
        if d.scope.is_empty() && !self.speech && acts && !failure && heading_acts && !look_up {
            d.scope = heading_info.scope;
            // "### Writing Effective Skills" over "Write for Claude, not
            // humans": how to word a skill is not a change the gate can
            // see; only a rule with a visible act takes that heading's
            // self-modification.
            if d.when.is_none() && d.require.is_none() && d.forbid.is_none() {
                d.scope.remove(&ScopeTag::SelfModification);
            }
        }
        // "Work in feature branches", "Always work on a topic branch": the
        // commits happen off the default branch — a commit on main or
        // master breaks the rule. ("Current branch is main" in a list of
        // red flags says the same.)
        if d.require.is_none()
            && d.forbid.is_none()
            && d.when.is_none()
            && (!self.negative && works_off_the_default_branch(&self.main)
                || self.negative && sits_on_the_default_branch(&self.main))
        {
            d.forbid = Some(Predicate::All(vec![
                Predicate::Git {
                    subcommand: "commit".into(),
                    args: Vec::new(),
                },
                Predicate::Any(vec![
                    Predicate::Branch("main".into()),
                    Predicate::Branch("master".into()),
                ]),
            ]));
            d.modality = match d.modality {
                Modality::Should | Modality::ShouldNot => Modality::ShouldNot,
                _ => Modality::MustNot,
            };
            d.scope.insert(ScopeTag::SharedRepoState);
        }
        // "Work from the `dev` branch": commits, tags and pushes happen
        // there — one made on another branch breaks the rule.
        if d.require.is_none() && d.forbid.is_none() && d.when.is_none() && !self.negative {
            if let Some(name) = works_on_a_named_branch(&self.main) {
                d.forbid = Some(Predicate::All(vec![
                    Predicate::Any(vec![
                        Predicate::Git {
                            subcommand: "commit".into(),
                            args: Vec::new(),
                        },
                        Predicate::Git {
                            subcommand: "tag".into(),
                            args: Vec::new(),
                        },
                        Predicate::Git {
                            subcommand: "push".into(),
                            args: Vec::new(),
                        },
                    ]),
                    Predicate::Not(Box::new(Predicate::Branch(
                        globset::escape(&name).replace("[*]", "*"),
                    ))),
                ]));
                d.modality = match d.modality {
                    Modality::Should | Modality::ShouldNot => Modality::ShouldNot,
                    _ => Modality::MustNot,
                };
                d.scope.insert(ScopeTag::SharedRepoState);
            }
        }
        // "Keep API keys in local config files, not in SKILL.md", "Keep
        // generated files out of `src/`": where content belongs, which no
        // write shows (a write to SKILL.md is not a key put there).
        if places_content(&self.main)
            && [&d.when, &d.require, &d.forbid]
                .into_iter()
                .flatten()
                .all(only_paths)
        {
            d.when = None;
            d.require = None;
            d.forbid = None;
            d.order = None;
        }
        if describes_a_document(&self.main) {
            d.when = None;
            d.require = None;
            d.forbid = None;
            d.order = None;
            d.scope.clear();
        }
        if self.awaits && d.when.is_none() && d.require.is_none() && d.forbid.is_none() {
            consent_gate(&mut d, work_edits(lex), false);
            d.awaits = true;
        }
        d
    }
}

/// A rule on where content is kept: "keep", "store", "put" or "place" and
/// a place ("in", "out of", "under", "inside", "outside").
fn places_content(main: &str) -> bool {
    let w = plain_words(main);
    let verb = w.iter().find(|x| !is_filler(x)).map(String::as_str);
    matches!(verb, Some("keep" | "store" | "put" | "place"))
        && w.iter().any(|x| {
            matches!(
                x.as_str(),
                "in" | "out" | "under" | "inside" | "outside" | "into" | "within"
            )
        })
}

/// A predicate made only of file actions.
fn only_paths(p: &Predicate) -> bool {
    let mut only = true;
    p.for_each_node(&mut |q| match q {
        Predicate::Any(_) | Predicate::All(_) | Predicate::Not(_) => {}
        q if super::predicates::is_path_action(q) => {}
        _ => only = false,
    });
    only
}

/// A limit stated without a verb: "One logical change per commit", "70
/// characters max.", "Max 2 review rounds", "At most 3 retries": a norm on
/// what the agent makes.
fn limit_norm(w: &[Word]) -> bool {
    let t: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .collect();
    let number = |x: &str| x.chars().all(|c| c.is_ascii_digit()) && !x.is_empty();
    let per = t.len() <= 10
        && matches!(t.first(), Some(&"one" | &"single"))
        && t.iter().skip(2).take(5).any(|x| *x == "per");
    let max = match t.as_slice() {
        [n, _unit, "max" | "maximum", ..] => number(n),
        [n, _unit, "or", "fewer" | "less", ..] => number(n),
        ["max" | "maximum", n, ..] => number(n),
        ["at", "most", n, ..] | ["no", "more", "than", n, ..] => number(n),
        _ => false,
    };
    per || max
}

/// "Use the Write tool to update CLAUDE.md", "Use `Edit` to fix the
/// frontmatter": the act after a harness file tool's " to ".
fn file_tool_purpose(main: &str, lex: &Lexicon) -> Option<String> {
    let i = find_outside_code(main, " to ")?;
    let head = &main[..i];
    let tool = head
        .split(|c: char| !c.is_alphanumeric())
        .any(|t| file_tool(t).is_some_and(|a| a != PathAction::Read));
    let tail = main[i + " to ".len()..].trim();
    let opens = words(&mask(tail).0)
        .first()
        .is_some_and(|w| lex.is_imperative(&w.text));
    (tool && opens).then(|| tail.to_string())
}

/// "the worktree is removed", "the branch has been pushed": a state
/// said in the passive → the act that makes it ("remove the worktree").
/// `None` where the words are not that shape or the verb is unknown.
fn active_form(c: &str, lex: &Lexicon) -> Option<String> {
    let w = plain_words(c);
    let t: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .skip_while(|x| is_condition_word(x) || *x == "only")
        .collect();
    let be = t
        .iter()
        .position(|x| matches!(*x, "is" | "are" | "was" | "were" | "has" | "have"))?;
    let mut at = be + 1;
    if matches!(t[be], "has" | "have") {
        if t.get(at) != Some(&"been") {
            return None;
        }
        at += 1;
    }
    let participle = *t.get(at)?;
    // The whole condition: a subject of one to three words, the verb.
    if !(1..=4).contains(&be) || at + 1 != t.len() || !participle.ends_with("ed") {
        return None;
    }
    let stem = &participle[..participle.len() - 2];
    let doubled =
        stem.len() > 2 && stem.as_bytes()[stem.len() - 1] == stem.as_bytes()[stem.len() - 2];
    let base = [
        format!("{stem}e"),
        stem.to_string(),
        if doubled {
            stem[..stem.len() - 1].to_string()
        } else {
            String::new()
        },
    ]
    .into_iter()
    .find(|b| !b.is_empty() && lex.is_imperative(b))?;
    let subject = t[..be].join(" ");
    Some(format!("{base} {subject}"))
}

/// "using this skill", "while this skill is active", "when you follow
/// this skill": a condition that holds for as long as the skill steers.
fn this_skill_in_use(c: &str) -> bool {
    let w = plain_words(c);
    let rest: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .skip_while(|x| is_condition_word(x) || matches!(*x, "you" | "we"))
        .collect();
    rest.len() <= 5
        && rest.windows(2).any(|p| p == ["this", "skill"])
        && rest.iter().any(|x| {
            matches!(
                *x,
                "using"
                    | "use"
                    | "used"
                    | "invoked"
                    | "running"
                    | "active"
                    | "loaded"
                    | "following"
                    | "follow"
                    | "executing"
                    | "applying"
            )
        })
}

/// The command an item opens with where an alternative follows it
/// ("`cat .env` or any command that prints it", "`a` or `b`").
fn alternative_after_command(s: &str) -> Option<&str> {
    let bare = s.trim();
    let inner = bare.strip_prefix('`')?;
    let end = inner.find('`')?;
    let rest = bare[end + 2..].trim_start();
    (end > 0 && rest.starts_with("or ")).then_some(&bare[..end + 2])
}

/// The command an item names before any note on it: "`cmd`", "`cmd` (why)",
/// "`cmd` - what it does", "`cmd`: when". `None` when the item says more
/// around its code span.
pub(super) fn led_command(s: &str) -> Option<&str> {
    let bare = s.trim();
    let inner = bare.strip_prefix('`')?;
    let end = inner.find('`')?;
    if end == 0 {
        return None;
    }
    let head = &bare[..end + 2];
    let rest = bare[end + 2..].trim_start();
    let noted = rest.is_empty()
        || rest.starts_with('(')
        || rest.starts_with(':')
        || ["- ", "\u{2014} ", "\u{2013} "]
            .iter()
            .any(|d| rest.starts_with(d));
    noted.then_some(head)
}
