//! Stage 5: scope. Tags that follow from a rule's predicates themselves
//! (commands, git subcommands, written paths) through the lexicon's scope
//! `commands` and `paths` globs; and tags a rule's words leave implicit:
//! an act whose object is the skill's subject ("Install from another
//! repo" in a skill that installs skills), and "that skill" after a rule
//! that names one.

use super::*;

/// A scoped act the skill's description names ("Install Codex skills …"):
/// its verb, and the scope of the clause it heads.
#[derive(Debug, Clone)]
pub(super) struct SubjectAct {
    verb: String,
    scope: BTreeSet<ScopeTag>,
    /// What a session shows of it ("Create a pull request via `gh`": `gh
    /// pr create`), where the clause names it.
    act: Option<Predicate>,
}

impl SubjectAct {
    /// The act and its scope, where `word` is its verb in any form
    /// ("creating").
    pub(super) fn act_of(&self, word: &str) -> Option<(&Predicate, &BTreeSet<ScopeTag>)> {
        self.act
            .as_ref()
            .filter(|_| verb_matches(word, &self.verb))
            .map(|a| (a, &self.scope))
    }
}

/// How many words of a description's clause are its usual "Use (this
/// skill) when" opening ("Use when creating new skills": the act is the
/// gerund after them).
fn use_when_opening(all: &[Word]) -> usize {
    match all.iter().map(|x| x.text.as_str()).collect::<Vec<_>>()[..] {
        ["use", "this", "skill", "when", ..] | ["use", "this", "skill", "to", ..] => 4,
        ["use", "this", "when", ..] | ["use", "it", "when", ..] => 3,
        ["use", "when", ..] | ["use", "for", ..] | ["use", "to", ..] => 2,
        ["when", ..] | ["for", ..] => 1,
        _ => 0,
    }
}

/// The scoped acts of a description: each clause (split at `.`, `;`, `,`,
/// ` - `) that opens with an imperative verb and whose words carry a scope.
/// Speech and means verbs ("use", "follow") name no act of their own.
pub(super) fn subject_acts(description: &str, lex: &Lexicon) -> Vec<SubjectAct> {
    let mut out: Vec<SubjectAct> = Vec::new();
    let clauses = description
        .split(['.', ';', ',', '\u{2014}'])
        .flat_map(|c| c.split(" - "))
        .flat_map(|c| c.split(" or "));
    // A description that opens "Use when …" names its acts as gerunds in
    // every clause ("… creating skills, editing skills, or verifying …").
    let gerunds = {
        let d = description.trim_start().to_lowercase();
        d.starts_with("use when") || d.starts_with("use this") || d.starts_with("when")
    };
    for clause in clauses {
        let all = words(clause);
        let skip = use_when_opening(&all);
        let w = &all[skip.min(all.len())..];
        let Some(mut first) = w.iter().find(|x| !x.barrier).map(|x| x.text.to_lowercase()) else {
            continue;
        };
        if skip > 0 || (gerunds && first.ends_with("ing")) {
            match lex.imperatives.iter().find(|b| verb_matches(&first, b)) {
                Some(base) => first = base.clone(),
                None => continue,
            }
        }
        if !lex.is_imperative(&first)
            || lex.is_speech(&first)
            || matches!(
                first.as_str(),
                "use" | "follow" | "apply" | "ensure" | "help"
            )
        {
            continue;
        }
        let info = clause_info(clause, lex);
        if info.scope.is_empty() {
            continue;
        }
        let act = info.behavior(false);
        match out.iter_mut().find(|a| a.verb == first) {
            Some(a) => {
                a.scope.extend(info.scope);
                a.act = a.act.take().or(act);
            }
            None => out.push(SubjectAct {
                verb: first,
                scope: info.scope,
                act,
            }),
        }
    }
    out
}

/// The verbs of the acts a skill's description says it does, where no
/// action shows them ("Review a pull request", "Use when investigating
/// bugs" → review, investigate): its activity, the whole session. Only
/// acts of reading and thinking count; acts a session shows (commit, push,
/// write, create) are left out: a condition naming them still marks where
/// they happen.
pub(super) fn activity_verbs(description: &str, lex: &Lexicon) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let first_sentence = description.split(". ").next().unwrap_or(description);
    for clause in first_sentence
        .split([';', ',', '\u{2014}'])
        .flat_map(|c| c.split(" - "))
        .flat_map(|c| c.split(" or "))
        .flat_map(|c| c.split(" and "))
    {
        let all = words(clause);
        let skip = use_when_opening(&all);
        let Some(first) = all[skip.min(all.len())..]
            .iter()
            .find(|x| !x.barrier)
            .map(|x| x.text.to_lowercase())
        else {
            continue;
        };
        let Some(base) = lex.imperatives.iter().find(|b| verb_matches(&first, b)) else {
            continue;
        };
        const THINKING: &[&str] = &[
            "review",
            "investigate",
            "debug",
            "diagnose",
            "troubleshoot",
            "analyse",
            "analyze",
            "plan",
            "design",
            "triage",
            "brainstorm",
            "explore",
            "research",
            "audit",
            "assess",
            "evaluate",
            "inspect",
            "understand",
        ];
        if !THINKING.contains(&base.as_str()) || out.contains(base) {
            continue;
        }
        out.push(base.clone());
    }
    out
}

/// A condition that is the skill's activity itself ("reviewing", "when
/// investigating a failure", "before you review the PR"): its verb first,
/// no act a session shows.
pub(super) fn names_the_activity(c: &str, activity: &[String], lex: &Lexicon) -> bool {
    let w = words(&mask(c).0);
    let w: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .skip_while(|x| {
            matches!(
                *x,
                "you" | "we" | "start" | "starting" | "begin" | "beginning"
            )
        })
        .collect();
    // "When called to debug", "when invoked": the skill's being loaded
    // (for whatever it is for), which holds from the load.
    if w.len() <= 6
        && w.first()
            .is_some_and(|x| matches!(*x, "called" | "invoked" | "activated" | "triggered"))
    {
        return true;
    }
    let Some(first) = w.first() else {
        return false;
    };
    w.len() <= 6
        && activity.iter().any(|v| verb_matches(first, v))
        && clause_info(c, lex).actions.is_empty()
}

/// The store a skill exists to handle, where its description's first
/// sentence names secrets or the agent's memories ("Use when working with
/// API keys, passwords, or credentials.", "How we store secrets: …",
/// "… save, recall, or organize memories."): every act of such a skill
/// handles them, so its rules that name no other object ("Browse before
/// you guess", "Never run the sync from shell startup") are sensitive
/// memory. A secret named later ("… without committing secrets") is one
/// rule's object, not the skill's topic.
pub(super) fn stored_topic(description: &str, lex: &Lexicon) -> BTreeSet<ScopeTag> {
    let d = description.trim();
    let first = d
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, '.' | '!' | '?')
                && d[i + 1..].chars().next().is_none_or(char::is_whitespace)
        })
        .map_or(d, |(i, _)| &d[..i]);
    let mut out = BTreeSet::new();
    let scope = clause_info(first, lex).scope;
    // ("Audits and optimizes CLAUDE.md project memory files": the memory
    // is the agent's instruction file, its configuration — which rules act
    // on it is each rule's own scope, not every rule's.)
    let lower = first.to_lowercase();
    let fw: Vec<String> = words(&lower).into_iter().map(|w| w.text).collect();
    let has = |x: &str| fw.iter().any(|w| w == x);
    // (Or the agent's hooks: "Creates, audits, and tests lifecycle hooks
    // inside Open Plugins" — not a repository's git hooks.)
    let agent_hooks = (has("hook") || has("hooks"))
        && [
            "lifecycle",
            "claude",
            "agent",
            "agents",
            "plugin",
            "plugins",
            "pretooluse",
            "harness",
        ]
        .iter()
        .any(|x| has(x));
    // (Or the harness's own configuration: "Audit Claude Code
    // configuration and suggest improvements".)
    let harness_config = ["claude code", "codex cli", "gemini cli", ".claude/"]
        .iter()
        .any(|h| lower.contains(h))
        && ["configuration", "config", "settings", "permissions"]
            .iter()
            .any(|x| has(x));
    let instructions = agent_hooks
        || harness_config
        || [
            "claude.md",
            "agents.md",
            "gemini.md",
            "copilot-instructions.md",
        ]
        .iter()
        .any(|f| lower.contains(f));
    // (Secrets a protection keeps out — "confirm a repo blocks secrets
    // before commit", "prevents credentials from being committed" — are
    // not what the skill handles: its acts are the guards.)
    let secret = |x: &str| {
        ["secret", "credential", "password", "token", "key"]
            .iter()
            .any(|s| x.starts_with(s))
    };
    let guarding = |x: &str| {
        [
            "block", "prevent", "detect", "catch", "stop", "guard", "protect", "scan", "redact",
            "scrub", "mask",
        ]
        .iter()
        .any(|v| x.starts_with(v))
    };
    // ("a secret-redacted snapshot", "secret-free logs": the guard after.)
    let guarded_after = |x: &str| guarding(x) || matches!(x, "free" | "stripped" | "removed");
    let guarded = fw.iter().any(|x| secret(x))
        && fw
            .iter()
            .enumerate()
            .filter(|(_, x)| secret(x))
            .all(|(i, _)| {
                fw[i.saturating_sub(3)..i].iter().any(|x| guarding(x))
                    || fw.get(i + 1).is_some_and(|x| guarded_after(x))
            });
    if scope.contains(&ScopeTag::SensitiveMemory)
        && !scope.contains(&ScopeTag::SelfModification)
        && !instructions
        && !guarded
    {
        out.insert(ScopeTag::SensitiveMemory);
    }
    // A skill that exists to edit the agent's instruction file: its rules
    // that write and name no other file write that one ("do not rewrite
    // the file without explicit confirmation").
    if instructions {
        out.insert(ScopeTag::SelfModification);
    }
    out
}

/// The rule's own words write something ("rewrite the file", "write to
/// disk", "overwrite", "save"): where the skill's topic is the agent's
/// instruction file, that file.
pub(super) fn writes_a_file(text: &str) -> bool {
    words(&mask(text).0).iter().any(|w| {
        matches!(
            w.text.as_str(),
            "write"
                | "writes"
                | "writing"
                | "overwrite"
                | "overwrites"
                | "overwriting"
                | "rewrite"
                | "rewrites"
                | "rewriting"
                | "save"
                | "saves"
                | "saving"
                | "create"
                | "creates"
                | "creating"
                | "update"
                | "updates"
                | "updating"
                | "edit"
                | "edits"
                | "editing"
                | "modify"
                | "modifies"
                | "modifying"
        )
    })
}

/// The skill is about writing skills: its description names skills and one
/// of its acts changes the agent's own configuration ("Use when creating
/// new skills, editing existing skills …").
pub(super) fn authors_skills(description: &str, subject: &[SubjectAct]) -> bool {
    words(description)
        .iter()
        .any(|w| matches!(w.text.as_str(), "skill" | "skills"))
        && subject
            .iter()
            .any(|a| a.scope.contains(&ScopeTag::SelfModification))
}

/// In a skill about writing skills, a rule that orders testing or deploying
/// around the writing ("Run scenarios WITH the skill", "Re-test until
/// bulletproof", "Move to the next skill before this one is verified")
/// gates a change to the agent's own configuration (SPEC §4): its test or
/// subagent runs, or its words for testing or deploying beside "skill".
/// Rules on the skill's content ("Description in third person") are not.
pub(super) fn gates_skill_writing(d: &Draft, lex: &Lexicon) -> bool {
    let runs_tests = |p: &Predicate| {
        p.any_node(&|q| match q {
            Predicate::Subagent(_) => true,
            Predicate::CommandRe(r) => r.contains("pytest"),
            _ => false,
        })
    };
    if [&d.when, &d.require, &d.forbid]
        .into_iter()
        .flatten()
        .any(runs_tests)
    {
        return true;
    }
    let w = words(&mask(&d.text).0);
    let skill = w
        .iter()
        .any(|x| matches!(x.text.as_str(), "skill" | "skills"));
    // ("test-driven-development" names a skill, not a test.)
    let tests = w.iter().enumerate().any(|(i, x)| {
        let t = x.text.as_str();
        ["test", "retest", "re-test", "verif", "deploy"]
            .iter()
            .any(|v| t.starts_with(v))
            && w.get(i + 1).is_none_or(|n| n.text != "driven")
    });
    // A rule, not a remark ("Untested skills have issues"): it opens with
    // a verb, forbids, or says it is required.
    let directs = w
        .iter()
        .find(|x| !x.barrier)
        .is_some_and(|x| lex.is_imperative(&x.text))
        || matches!(d.modality, Modality::MustNot | Modality::ShouldNot)
        || w.iter().any(|x| {
            matches!(
                x.text.as_str(),
                "must" | "mandatory" | "required" | "always" | "never"
            )
        });
    skill && tests && directs
}

/// In a skill about writing skills, a rule that runs scenarios or tests a
/// skill with no act of its own: the test is a subagent run, ordered around
/// the write of the skill — before it for a baseline ("Run scenarios
/// WITHOUT the skill", "… first"), after it otherwise ("Run scenarios WITH
/// the skill", "Re-test until bulletproof"), and before each write where a
/// negative rule forbids going on untested ("Never move to the next skill
/// before this one is verified").
pub(super) fn skill_tests_around_writes(d: &mut Draft) {
    let subagent = Predicate::Subagent("*".into());
    if d.when.is_some() || d.forbid.is_some() || d.require.as_ref().is_some_and(|r| *r != subagent)
    {
        return;
    }
    let w: Vec<String> = words(&mask(&d.text).0)
        .into_iter()
        .map(|x| x.text)
        .collect();
    let has = |x: &str| w.iter().any(|t| t == x);
    let negative = matches!(d.modality, Modality::MustNot | Modality::ShouldNot);
    let runs = (has("run") || has("rerun"))
        && w.iter()
            .any(|t| t.starts_with("scenario") || t.starts_with("test"))
        || has("retest")
        || w.windows(2).any(|p| p[0] == "re" && p[1] == "test");
    let untested = negative
        && w.iter()
            .any(|t| matches!(t.as_str(), "testing" | "tested" | "verified" | "test"));
    if !(runs || untested) {
        return;
    }
    d.when = Some(Predicate::Any(vec![
        Predicate::Write("**/SKILL.md".into()),
        Predicate::Edit("**/SKILL.md".into()),
    ]));
    d.require = Some(subagent);
    d.order = Some(if untested {
        Order::BeforeEach
    } else if has("without") || has("baseline") || has("first") || has("before") {
        Order::Before
    } else {
        Order::After
    });
}

/// Scope of a main clause whose verb is one of the subject's acts with its
/// object left out: followed by nothing, a preposition or a pronoun
/// ("Install from the curated list", "help users install those").
pub(super) fn elided_object_scope(main: &str, subject: &[SubjectAct]) -> BTreeSet<ScopeTag> {
    let mut out = BTreeSet::new();
    if subject.is_empty() {
        return out;
    }
    let all = words(main);
    // Each word, and whether a clause boundary comes right before it.
    let mut w: Vec<String> = Vec::new();
    let mut opens: Vec<bool> = Vec::new();
    let mut boundary = true;
    for x in &all {
        if x.barrier {
            boundary = true;
            continue;
        }
        w.push(x.text.to_lowercase());
        opens.push(boundary);
        boundary = false;
    }
    for (i, t) in w.iter().enumerate() {
        let Some(act) = subject.iter().find(|a| verb_matches(t, &a.verb)) else {
            continue;
        };
        // A verb opens the clause or follows a modal, "to", a coordinator
        // or a preposition that names the act ("on create"); after anything
        // else ("related commits") it is a noun.
        let verb_position = opens[i]
            || matches!(
                w[i - 1].as_str(),
                "to" | "and"
                    | "or"
                    | "then"
                    | "never"
                    | "always"
                    | "must"
                    | "should"
                    | "not"
                    | "don't"
                    | "dont"
                    | "please"
                    | "you"
                    | "we"
                    | "also"
                    | "first"
                    | "only"
                    | "on"
                    | "after"
                    | "before"
                    | "when"
                    | "without"
                    | "during"
                    | "user"
                    | "users"
                    | "them"
                    | "me"
                    | "us"
            );
        if !verb_position {
            continue;
        }
        let elided = match w.get(i + 1).map(String::as_str) {
            None => true,
            Some(n) => matches!(
                n,
                "from"
                    | "into"
                    | "to"
                    | "with"
                    | "via"
                    | "using"
                    | "in"
                    | "on"
                    | "when"
                    | "if"
                    | "only"
                    | "first"
                    | "it"
                    | "them"
                    | "those"
                    | "these"
                    | "this"
                    | "one"
                    | "ones"
            ),
        };
        if elided {
            out.extend(act.scope.iter().copied());
        }
    }
    out
}

/// "Follow that skill to …": the scope of the last rule that named a skill.
pub(super) fn skill_anaphora(drafts: &mut [Draft]) {
    let names_skill = |p: &Option<Predicate>| p.as_ref().is_some_and(has_skill);
    let mut last: Option<BTreeSet<ScopeTag>> = None;
    for d in drafts {
        if names_skill(&d.require) || names_skill(&d.when) {
            last = Some(d.scope.clone());
            continue;
        }
        let t = d.text.to_lowercase();
        let anaphoric = [
            "that skill",
            "that sub-skill",
            "that subskill",
            "the sub-skill",
        ]
        .iter()
        .any(|p| t.contains(p));
        if anaphoric && d.scope.is_empty() {
            if let Some(s) = &last {
                d.scope = s.clone();
            }
        }
    }
}

fn has_skill(p: &Predicate) -> bool {
    match p {
        Predicate::Skill(_) => true,
        Predicate::Any(v) | Predicate::All(v) => v.iter().any(has_skill),
        _ => false,
    }
}

/// Scope tags of the predicates themselves (commands, git subcommands, paths).
pub(super) fn add_predicate_scopes(d: &mut Draft, lex: &Lexicon) {
    for p in [&d.when, &d.require, &d.forbid].into_iter().flatten() {
        d.scope.extend(predicate_scopes(p, lex));
    }
}

pub(super) fn predicate_scopes(p: &Predicate, lex: &Lexicon) -> BTreeSet<ScopeTag> {
    let mut out = BTreeSet::new();
    let mut cmds = Vec::new();
    let mut paths = Vec::new();
    samples(p, &mut cmds, &mut paths);
    // Reading a secret is access to it; reading a settings file changes
    // nothing: reads count for sensitive memory only.
    let mut reads = Vec::new();
    let negated = p.any_node(&|n| matches!(n, Predicate::Not(_)));
    p.for_each_node(&mut |q| match q {
        Predicate::Read(g) if !negated => reads.push(g.replace("**", "x").replace('*', "x")),
        // `cat keys/prod.pem`, `less .env`: a program that prints or
        // copies the file it is given reads it.
        Predicate::Command(g) if !negated => {
            let mut toks = g.split_whitespace();
            let reader = toks.next().is_some_and(|t| {
                matches!(
                    t,
                    "cat"
                        | "less"
                        | "more"
                        | "head"
                        | "tail"
                        | "bat"
                        | "cp"
                        | "scp"
                        | "xxd"
                        | "strings"
                        | "base64"
                        | "source"
                )
            });
            if reader {
                reads.extend(
                    toks.filter(|t| !t.starts_with('-'))
                        .map(|t| t.trim_end_matches('*'))
                        .filter(|t| !t.is_empty())
                        .map(|t| t.replace("**", "x").replace('*', "x")),
                );
            }
        }
        _ => {}
    });
    let mut tools = Vec::new();
    p.for_each_node(&mut |q| {
        if let Predicate::Tool(t) = q {
            if !negated {
                tools.push(t.trim_matches('*').to_string());
            }
        }
    });
    // (`echo $API_KEY`: the secret's value printed.)
    let secret_value = !negated
        && p.any_node(&|q| matches!(q, Predicate::CommandRe(re) if re.ends_with(super::predicates::SECRET_VARIABLE)));
    for s in &lex.scopes {
        let read = s.tag == ScopeTag::SensitiveMemory
            && (secret_value || reads.iter().any(|x| s.paths.is_match(x)));
        if read
            || cmds.iter().any(|c| command_in_scope(s, c))
            || paths.iter().any(|x| s.paths.is_match(x))
            || tools.iter().any(|t| s.tools.is_match(t))
        {
            out.insert(s.tag);
        }
    }
    out
}

/// Whether a command acts within a scope. Running a script kept with the
/// agent's configuration (`bash .claude/skills/x/scripts/go.sh`,
/// `./.claude/hooks/check.sh`) changes none of it: the path is the program,
/// not a file written.
pub(super) fn command_in_scope(s: &crate::extract::lexicon::Scope, c: &str) -> bool {
    if !s.commands.is_match(c) {
        return false;
    }
    if s.tag != ScopeTag::SelfModification {
        return true;
    }
    const CONFIG: [&str; 3] = [".claude/", ".codex/", ".gemini/"];
    let toks: Vec<&str> = c.split_whitespace().collect();
    let interpreter = toks.first().is_some_and(|p| {
        matches!(
            *p,
            "bash"
                | "sh"
                | "zsh"
                | "python"
                | "python3"
                | "node"
                | "npx"
                | "tsx"
                | "ruby"
                | "perl"
                | "deno"
                | "bun"
        )
    });
    let program = if interpreter {
        toks.iter()
            .skip(1)
            .position(|t| !t.starts_with('-'))
            .map(|i| i + 1)
    } else {
        Some(0)
    };
    let Some(program) = program.filter(|&i| CONFIG.iter().any(|d| toks[i].contains(d))) else {
        return true;
    };
    // (Another argument under the configuration still counts:
    // `bash .claude/hooks/a.sh > .claude/settings.json` writes it.)
    toks.iter()
        .enumerate()
        .any(|(i, t)| i != program && CONFIG.iter().any(|d| t.contains(d)))
}

/// Representative strings of what a predicate matches, to test against scope globs.
pub(super) fn samples(p: &Predicate, cmds: &mut Vec<String>, paths: &mut Vec<String>) {
    let concrete = |g: &str| g.replace("**", "x").replace('*', "x");
    match p {
        Predicate::Command(g) => cmds.push(g.replace('*', "").trim().to_string()),
        Predicate::Git { subcommand, args } => {
            let mut s = format!("git {subcommand}");
            for a in args {
                s.push(' ');
                s.push_str(a);
            }
            cmds.push(s);
        }
        Predicate::CommandRe(re) => {
            let found = regex_samples(re);
            // Staging or committing a named file (`git add .env`) acts on
            // that file too: its path is tested against the scope paths.
            if ["^git (add|commit)", "^git add", "^git commit"]
                .iter()
                .any(|p| re.starts_with(p))
            {
                paths.extend(regex_paths(re));
            }
            cmds.extend(found);
        }
        Predicate::Read(_) => {}
        Predicate::Write(g) | Predicate::Edit(g) | Predicate::Delete(g) | Predicate::Touch(g) => {
            paths.push(concrete(g))
        }
        Predicate::Rename { from, to } => {
            paths.push(concrete(from));
            paths.push(concrete(to));
        }
        Predicate::Any(v) | Predicate::All(v) => v.iter().for_each(|q| samples(q, cmds, paths)),
        Predicate::Not(_) => {}
        _ => {}
    }
}

/// File names a command regex spells out (`(\s|/)\.env\.local(\s|$)` →
/// `.env.local`, `[^\s]*\.pem` → `x.pem`): the literal tokens with a dot.
fn regex_paths(re: &str) -> Vec<String> {
    let plain = re
        .replace(r"[^\s]*", "x")
        .replace(r"\S*", "x")
        .replace(r"(\s|/)", " ")
        .replace(r"(\s|$)", " ")
        .replace(r"\.", ".")
        .replace(r"\-", "-")
        .replace(r"\b", " ")
        .replace(r"\s", " ");
    plain
        .split(|c: char| c.is_whitespace() || "()|^$*+?{}[]\\".contains(c))
        .filter(|t| t.len() > 1 && t.contains('.') && !t.starts_with("..") && !t.ends_with('.'))
        .map(String::from)
        .collect()
}

/// The literal commands a command regex starts with: `^git push\b` →
/// `git push`; `^(gh pr create|git push)\b` → both; `^(uv run )?pytest` →
/// `uv run pytest` and `pytest`. Enough to test the scope lexicon's command
/// globs, not a regex engine.
/// How many bytes of a regex its leading literal text spans (escapes
/// counted as written).
fn literal_len(re: &str) -> usize {
    let mut chars = re.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, e)) if "./-_ :".contains(e) => {}
                _ => return i,
            },
            '(' | ')' | '[' | ']' | '{' | '}' | '.' | '*' | '+' | '?' | '|' | '$' | '^' => {
                return i
            }
            _ => {}
        }
    }
    re.len()
}

pub(super) fn regex_samples(re: &str) -> Vec<String> {
    // A flag anywhere in a command (`(^|\s)\-\-no\-verify(=|\s|$)`): a
    // command that carries it.
    if let Some(flag) = re.strip_prefix(r"(^|\s)") {
        let flag: String = flag.split("(=|").next().unwrap_or("").replace('\\', "");
        return if flag.starts_with('-') {
            vec![format!("x {flag}")]
        } else {
            Vec::new()
        };
    }
    let re = re.strip_prefix('^').unwrap_or(re);
    // A command and a flag it carries (`^git branch\b.*\s\-D(=|\s|$)`):
    // the command with the flag.
    if let Some((program, flag)) = re
        .strip_suffix(r"(=|\s|$)")
        .and_then(|r| r.split_once(r"\b.*\s"))
    {
        let unescape = |x: &str| x.replace('\\', "");
        if !program.contains(['(', '[', '|', '*']) && !flag.contains(['(', '[', '|', '*']) {
            return vec![format!("{} {}", unescape(program), unescape(flag))];
        }
    }
    // The literal text up to the first regex operator (untrimmed).
    let literal = |s: &str| -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(e) if "./-_ :".contains(e) => out.push(e),
                    _ => break,
                },
                '(' | ')' | '[' | ']' | '{' | '}' | '.' | '*' | '+' | '?' | '|' | '$' | '^' => {
                    break
                }
                c => out.push(c),
            }
        }
        out
    };
    let Some(inner) = re.strip_prefix('(') else {
        let l = literal(re);
        // ("^git (add|commit)\b…": the literal words, then each of the
        // group's alternatives.)
        let raw_len = literal_len(re);
        if !l.trim().is_empty() && re[raw_len..].starts_with('(') {
            let alts = regex_samples(&re[raw_len..]);
            if !alts.is_empty() {
                return alts.into_iter().map(|a| format!("{l}{a}")).collect();
            }
        }
        let l = l.trim().to_string();
        return if l.is_empty() { Vec::new() } else { vec![l] };
    };
    // The group's top-level alternatives and what follows it.
    let mut depth = 0usize;
    let mut alts = vec![String::new()];
    let mut end = None;
    let mut escaped = false;
    for (i, c) in inner.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' && depth == 0 {
            end = Some(i);
            break;
        } else if c == ')' {
            depth -= 1;
        } else if c == '|' && depth == 0 {
            alts.push(String::new());
            continue;
        }
        if let Some(a) = alts.last_mut() {
            a.push(c);
        }
    }
    let Some(end) = end else {
        return Vec::new();
    };
    let rest = &inner[end + 1..];
    let optional = rest.starts_with('?');
    let tail = literal(rest.trim_start_matches('?'));
    let mut out: Vec<String> = alts
        .iter()
        .map(|a| {
            let head = literal(a);
            // An alternative cut short by an operator keeps only its head.
            if head.len() < a.len() {
                head
            } else {
                format!("{head}{tail}")
            }
        })
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if optional && !tail.trim().is_empty() {
        out.push(tail.trim().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{elided_object_scope, regex_samples, ScopeTag, SubjectAct};

    #[test]
    fn an_elided_object_needs_the_verb_in_a_verb_position() {
        let subject = vec![SubjectAct {
            verb: "commit".into(),
            scope: [ScopeTag::SharedRepoState].into_iter().collect(),
            act: None,
        }];
        let tagged = |s: &str| !elided_object_scope(s, &subject).is_empty();
        // "Commit with a clear message": the skill's commit, its object elided.
        assert!(tagged("Commit with a clear message"));
        assert!(tagged("Stage the files, then commit with a clear message"));
        assert!(tagged("Remember to commit only once"));
        // "related commits into one bullet": commits as things.
        assert!(!tagged("Group related commits into one bullet"));
        assert!(!tagged("Leave the bump commit in the log"));
    }

    #[test]
    fn regex_samples_are_the_literal_commands() {
        assert_eq!(regex_samples(r"^git push\b"), vec!["git push"]);
        // (A command and a flag it carries.)
        assert_eq!(
            regex_samples(r"^git branch\b.*\s\-D(=|\s|$)"),
            vec!["git branch -D"]
        );
        assert_eq!(
            regex_samples(r"^git (add|commit)\b.*(\s|/)\.env(\s|$)"),
            vec!["git add", "git commit"]
        );
        assert_eq!(
            regex_samples(r"^(gh pr create|git push)\b"),
            vec!["gh pr create", "git push"]
        );
        assert_eq!(
            regex_samples(r"^(uv run )?pytest\b"),
            vec!["uv run pytest", "pytest"]
        );
        assert_eq!(
            regex_samples(r"^(npm (run )?test|cargo test)\b")[1],
            "cargo test"
        );
        assert!(regex_samples(r"\.env").is_empty() || regex_samples(r"\.env") == vec![".env"]);
    }
}
