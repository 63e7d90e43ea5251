//! Part of stage 3 (conditions): conditions that name a phase of the work —
//! its start, its code changes, its completion, a timed or a state condition
//! — and the acts that show them.

use super::*;

/// "After every debug session", "When the session ends": the session
/// itself, which every session has — the rule holds by its end, with no
/// condition to wait for.
pub(super) fn the_session_itself(c: &str) -> bool {
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

/// "showing the plan", "presenting the preview": the step that puts the
/// planned work before the user.
pub(super) fn presents_work(c: &str) -> bool {
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

/// A condition about a state rather than an act: negated ("if not
/// merged", "if the tree is not clean") or a bare participle ("if merged").
pub(crate) fn state_condition(c: &str) -> bool {
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
    // "If already merged", "if the branch was already pushed": a state the
    // work may have reached before the session, not its act.
    let already = w.iter().any(|t| t == "already");
    negated || participle || already
}

/// A condition on an act already done: "after X", or a perfect or passive
/// "when the fixes are merged" / "once it has been pushed".
pub(crate) fn completed(c: &str, o: Order) -> bool {
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
pub(crate) fn timed_condition(s: &str) -> Option<Order> {
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

/// The work's first visible step: a change to the code, or a commit (which
/// records work a subagent may have done out of sight). Not the commit when
/// the rule requires one: a commit cannot be due before the first commit.
/// The work's edits (source files, not tests or docs): what "proceeding"
/// after a consent does first.
/// (A lexicon that replaced the built-in phrases may not name it: any
/// write or edit, then.)
pub(crate) fn work_edits(lex: &Lexicon) -> Predicate {
    clause_info("start implementation", lex)
        .behavior(false)
        .unwrap_or_else(|| {
            Predicate::Any(vec![
                Predicate::Write("**".into()),
                Predicate::Edit("**".into()),
            ])
        })
}

pub(crate) fn start_of_work(lex: &Lexicon, required: Option<&Predicate>) -> Predicate {
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
pub(crate) fn names_completion(c: &str) -> bool {
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

pub(crate) fn names_going_on(c: &str) -> bool {
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
                    // ("before going on", "before you go further".)
                    | "going"
                    | "go"
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

/// "before updating", "before making any changes", "before changing
/// anything": a change with no object named — the work's edits.
pub(crate) fn names_a_bare_change(c: &str) -> bool {
    let w = plain_words(c);
    w.iter().any(|x| {
        matches!(
            x.as_str(),
            "updating" | "changing" | "modifying" | "editing" | "making" | "applying"
        )
    }) && w.iter().all(|x| {
        matches!(
            x.as_str(),
            "updating"
                | "changing"
                | "modifying"
                | "editing"
                | "making"
                | "applying"
                | "any"
                | "anything"
                | "changes"
                | "edits"
                | "updates"
                | "the"
        )
    }) && w
        .iter()
        .any(|x| !matches!(x.as_str(), "making" | "applying" | "any" | "the"))
}

/// "before fixing it", "before attempting to fix the bug", "before
/// refactoring", "after each step", "after each logical change": a change
/// to the code, in a condition only — as a trigger it is the work's edits
/// (never an act a rule requires or forbids).
pub(crate) fn names_code_change(c: &str) -> bool {
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

pub(crate) fn names_the_start_of_work(c: &str) -> bool {
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
