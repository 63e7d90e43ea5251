//! Part of stage 3 (conditions): what keeps a negative rule from forbidding
//! every such act — an object only some acts have, a manner, a reason alone,
//! a kind of file, a batch.

use super::*;

/// The words of a text outside code spans and quotes, lowercase.
pub(crate) fn plain_words(text: &str) -> Vec<String> {
    words(&mask(text).0)
        .into_iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text)
        .collect()
}

/// A code span holding a command with its arguments (`git add -A`).
pub(super) fn names_a_full_command(text: &str) -> bool {
    mask(text)
        .1
        .iter()
        .any(|c| c.trim().contains(' ') && simple_commands(c).len() == 1)
}

/// "put … inside `AskUserQuestion`", "paste it into TodoWrite": content put
/// into a harness tool named in CamelCase.
fn put_into_a_tool(text: &str) -> bool {
    let toks: Vec<&str> = text.split_whitespace().collect();
    let Some(verb) = toks.iter().position(|t| {
        matches!(
            t.to_lowercase().as_str(),
            "put" | "paste" | "insert" | "include" | "embed" | "dump"
        )
    }) else {
        return false;
    };
    toks[verb..].windows(2).any(|p| {
        let name = p[1].trim_matches(|c: char| !c.is_alphanumeric());
        matches!(p[0].to_lowercase().as_str(), "in" | "into" | "inside")
            && name.chars().next().is_some_and(char::is_uppercase)
            && name.chars().skip(1).any(char::is_uppercase)
            && name.chars().any(char::is_lowercase)
    })
}

/// "Do NOT merge just because all checks pass": not for that reason alone
/// — the act itself is no breach, and its reason is not visible.
pub(super) fn for_that_reason_alone(text: &str) -> bool {
    let w = plain_words(text);
    w.windows(2).any(|p| {
        matches!(p[0].as_str(), "just" | "only" | "simply" | "merely" | "solely")
            && p[1] == "because"
    })
    // "Never add dependencies as an \"obvious\" fix", "… as a workaround":
    // the act done for that purpose, which no action shows — not every
    // such act.
    || w.iter().enumerate().any(|(i, x)| {
        x == "as"
            && w[i + 1..].iter().take(3).any(|y| {
                matches!(
                    y.as_str(),
                    "fix" | "workaround" | "shortcut" | "hack" | "stopgap" | "band-aid"
                )
            })
    })
    // "Never commit blind", "Do not merge hastily": how the act is done,
    // a judgement no action shows — not every such act. (A command given
    // with its arguments — "never `git add -A` blindly" — is the act
    // itself, whatever the manner.)
    // ("- Manually configure ports" under "Do NOT attempt to:": the
    // adverb opens the item.)
    || !names_a_full_command(text) && w.iter().enumerate().any(|(i, x)| {
        (i > 0 || x.ends_with("ly")) && matches!(
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
                // ("Never install packages globally": some installs.)
                | "globally"
                | "system-wide"
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
    // ("never a single combined commit across units", "No dependency
    // changes belong in a release commit": what a commit holds.)
    || w.iter().any(|x| {
        matches!(
            x.as_str(),
            "mix" | "mixing" | "mixed" | "bundle" | "bundling" | "combined" | "combine" | "combining"
                | "belong" | "belongs"
        )
    })
    // "Do not put the changelog inside AskUserQuestion": what a tool's
    // input holds, not every use of the tool.
    || put_into_a_tool(text)
    // "Never derive the version from `CHANGELOG.md`": what is concluded
    // from a file, not every read of it.
    || w.iter().position(|x| {
        matches!(
            x.as_str(),
            "derive" | "deriving" | "infer" | "inferring" | "guess" | "guessing" | "deduce" | "deducing"
        )
    })
    .is_some_and(|v| w[v + 1..].iter().any(|x| x == "from"))
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
pub(crate) fn kind_of_files(main: &str, lex: &Lexicon) -> bool {
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

pub(crate) fn object_qualified(main: &str) -> bool {
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
    // ("Any files with API keys or secrets": the secret a few words on.)
    let secret = |t: &str| {
        matches!(
            t,
            "secrets"
                | "secret"
                | "credentials"
                | "tokens"
                | "passwords"
                | "keys"
                | "plaintext"
                | "sensitive"
        )
    };
    if w.iter()
        .enumerate()
        .skip(1)
        .any(|(i, t)| t == "with" && w[i + 1..].iter().take(3).any(|x| secret(x)))
    {
        return true;
    }
    if w.windows(2).skip(1).any(|p| {
        p[0] == "to"
            && matches!(
                p[1].as_str(),
                "add" | "insert" | "include" | "store" | "paste"
            )
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
    // "a branch you do not own": whose it is, which the act does not show.
    if w.windows(2)
        .any(|p| matches!(p[0].as_str(), "not" | "don't" | "doesn't" | "didn't") && p[1] == "own")
    {
        return true;
    }
    // "the experimental `git history` command": an adjective right before
    // a code span describes the thing the span names; it picks none out.
    let before_code: BTreeSet<usize> = {
        let all = words(&mask(main).0);
        let mut out = BTreeSet::new();
        let mut k = 0;
        for (j, x) in all.iter().enumerate() {
            if x.barrier {
                continue;
            }
            if all.get(j + 1).is_some_and(|n| n.barrier) {
                out.insert(k);
            }
            k += 1;
        }
        out
    };
    let force_push = w.iter().enumerate().any(|(i, t)| {
        t.starts_with("force-push")
            || t == "force" && w.get(i + 1).is_some_and(|n| n.starts_with("push"))
    });
    w.iter().enumerate().skip(1).any(|(i, t)| {
        // ("uncommitted", "unstaged", "untracked" name what reset/clean act
        // on by definition: no qualifier.)
        (!before_code.contains(&i) && t.starts_with("un")
            && t.ends_with("ed")
            && t.len() > 6
            && !matches!(
                t.as_str(),
                "uncommitted" | "unstaged" | "untracked" | "unmerged"
            ))
            || (!before_code.contains(&i) && matches!(
                t.as_str(),
                "broken"
                    | "failing"
                    | "incomplete"
                    | "unfinished"
                    | "large"
                    | "huge"
                    | "generated"
                    | "temporary"
                    // ("Never commit build output", "… build artifacts":
                    // a kind of content, which the act does not show.)
                    | "output"
                    | "outputs"
                    | "artifacts"
                    | "artefacts"
                    | "binaries"
                    | "debug"
                    // ("the major version", "a detached HEAD": some
                    // bumps, some commits)
                    | "major"
                    | "detached"
                    // ("with a dirty tree", "from stale bases")
                    | "dirty"
                    | "stale"
                    // ("experimental work", "draft work", "WIP commits")
                    | "experimental"
                    | "draft"
                    | "wip"
                    // ("files outside the repository": some files.)
                    | "outside"
                    | "commented"
                    | "current"
                    | "active"
                    | "hidden"
                    // "a branch others use": which one it is is not in
                    // the act.
                    | "others"
                    | "someone"
                    | "somebody"
            ))
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
            // "release branches", "someone's branch": a kind of branch
            // no act shows (the default ones — main, protected — are
            // named by the act's modifier).
            || (matches!(t.as_str(), "branches")
                && i >= 1
                // ("`trunk`, `qa`, or `prod` branches": named in code.)
                && !main.to_lowercase().contains("` branches")
                // ("main, develop, or user-specified branches": the names
                // listed are the branches the act is checked on.)
                && !w[..i].iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "main" | "master" | "develop" | "dev" | "trunk" | "production" | "staging"
                    )
                })
                && !matches!(
                    w[i - 1].as_str(),
                    "the" | "all" | "any" | "other" | "these" | "those" | "your" | "our" | "their"
                        | "main" | "master" | "default" | "protected" | "shared" | "remote"
                        | "local" | "feature" | "topic" | "merged" | "stale" | "old"
                        | "new" | "two" | "multiple" | "between" | "across"
                        // (a verb before it: "switch branches")
                        | "switch" | "create" | "delete" | "merge" | "rebase" | "push"
                        | "checkout" | "change" | "list" | "prune" | "rename" | "track"
                        | "clean" | "remove" | "protect"
                ))
            // "for doc-only changes": a kind of change no act shows.
            || (t == "for"
                && w[i - 1] != "except"
                && w[i + 1..]
                    .iter()
                    .take(4)
                    .any(|x| matches!(x.as_str(), "change" | "changes" | "edits" | "fixes")))
            // "your own PR": some PRs, which the merge does not show.
            || (t == "own"
                && w
                    .get(i + 1)
                    .is_some_and(|n| matches!(n.as_str(), "pr" | "prs" | "pull" | "mr" | "mrs")))
            // "published commits" are some; "published history" is what
            // was pushed, all of it.
            // (So are "pushed commits": some of them.)
            // (What a force push rewrites was pushed, always: "Do not
            // force-push to rewrite already-pushed commits".)
            || (matches!(t.as_str(), "published" | "pushed" | "already-pushed")
                && w.get(i + 1).is_none_or(|n| n != "history")
                && !force_push)
            // "… as part of finishing the task": only some such acts.
            || (t == "part" && i >= 1 && w[i - 1] == "as" && w.get(i + 1).is_some_and(|n| n == "of"))
            // "… in propose mode", "… in plan mode": a state of the
            // session, which no action shows.
            || (t == "mode" && w[..i].iter().rev().take(3).any(|x| x == "in"))
            // "skills you did not create": a relative clause after a
            // plural object, its pronoun first.
            || (matches!(t.as_str(), "you" | "we" | "they")
                && i >= 2
                && w[i - 1].ends_with('s')
                && w.get(i + 1).is_some_and(|n| {
                    matches!(
                        n.as_str(),
                        "did" | "didn't" | "do" | "don't" | "have" | "haven't" | "created"
                            | "wrote" | "own" | "made" | "added"
                    )
                }))
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
pub(super) fn alternative_widened(before: &[String]) -> bool {
    let tail: Vec<&str> = before.iter().rev().take(4).map(String::as_str).collect();
    let or = tail.iter().position(|x| *x == "or");
    or.is_some_and(|o| {
        tail[..o]
            .iter()
            .any(|x| matches!(*x, "any" | "anything" | "other" | "similar"))
    })
}

/// The guarded act takes many things at once ("delete branches", "push the
/// commit and tag"): one consent covers the batch (`before`), as a user
/// answers one question for a list; "each" / "every" keep `before-each`.
pub(crate) fn batch_object(main: &str) -> bool {
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
