//! Part of stage 2 (rule candidates): fenced blocks — the commands a shell
//! block runs and the step, consent, case or success lead-in over it.

use super::*;

/// `git tag` / `git branch` with no flags also list (`git tag -l`): the
/// gate is on the ones that change something.
/// "**Action:** …", "**Correct action:** …": a paragraph labelled as the
/// act to take.
pub(super) fn labelled_action(text: &str) -> bool {
    let t = strip_emphasis(text);
    let Some((label, rest)) = t.split_once(':') else {
        return false;
    };
    let label = label.trim().to_lowercase();
    matches!(
        label.as_str(),
        "action" | "correct action" | "right action" | "what to do" | "do instead"
    ) && !rest.trim().is_empty()
}

/// A fence whose lines are shell commands (or of no stated language):
/// POSIX shells and PowerShell alike.
pub(crate) fn is_shell(lang: &str) -> bool {
    matches!(
        lang.to_lowercase().as_str(),
        "" | "bash"
            | "sh"
            | "shell"
            | "console"
            | "zsh"
            | "shell-session"
            | "powershell"
            | "pwsh"
            | "ps1"
    )
}

/// The language a block is read in: a block marked as plain text
/// (```text, ```plaintext) whose every line is a command is read as shell —
/// some authors mark commands so to keep them from being highlighted. A
/// text block of anything else (a template, an output, a tree) stays text.
pub(crate) fn reading_language<'a>(
    lang: &'a str,
    lines: &[(u32, String)],
    lex: &Lexicon,
) -> &'a str {
    if !matches!(
        lang.to_lowercase().as_str(),
        "text" | "txt" | "plain" | "plaintext"
    ) {
        return lang;
    }
    let mut content = lines
        .iter()
        .map(|(_, l)| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .peekable();
    let commands = content.peek().is_some()
        && content.all(|l| {
            let l = l.trim_start_matches("$ ");
            let parts = simple_commands(l);
            !parts.is_empty()
                && parts
                    .iter()
                    .all(|c| command_predicate(substituted(c), lex).is_some())
        });
    if commands {
        "sh"
    } else {
        lang
    }
}

/// What a block's commands change: the scopes of its commands.
fn block_scopes(lines: &[(u32, String)], lang: &str, lex: &Lexicon) -> BTreeSet<ScopeTag> {
    fence_commands(lines, lang, lex)
        .iter()
        .flat_map(|c| predicate_scopes(c, lex))
        .collect()
}

/// "For each branch, delete it" → "delete it": the step after a lead
/// that names the items it goes over.
fn per_item_lead(text: &str) -> Option<&str> {
    let lower = text.trim_start().to_lowercase();
    if !(lower.starts_with("for each") || lower.starts_with("for every")) {
        return None;
    }
    let (_, rest) = text.split_once(',')?;
    Some(rest.trim_start()).filter(|r| !r.is_empty())
}

/// A step's verb that, over a shell block, means running it: "Check the
/// status:", "Get the remote URL:", "Verify the checkout exists:".
pub(super) fn is_step_verb(v: &str) -> bool {
    matches!(
        v,
        "run"
            | "execute"
            | "check"
            | "verify"
            | "inspect"
            | "review"
            | "look"
            | "view"
            | "see"
            | "confirm"
            | "get"
            | "find"
            | "locate"
            | "detect"
            | "discover"
            | "examine"
            | "compare"
            | "query"
            | "search"
            | "retrieve"
            | "obtain"
            | "list"
            | "collect"
            | "gather"
            | "determine"
            | "identify"
            | "note"
            | "record"
            | "update"
            | "pull"
            | "fetch"
            | "sync"
            | "lint"
            | "test"
            | "build"
            | "format"
            | "triage"
            | "diagnose"
            | "debug"
            | "analyze"
            | "analyse"
            | "scan"
            | "audit"
            | "validate"
            | "stage"
    )
}

/// A lead-in that only says the step before worked ("If successful:", "On
/// success:", "If it succeeds:", "If the rebase passes cleanly:").
pub(super) fn on_success(text: &str) -> bool {
    let w = words(&mask(text).0);
    let opens = w
        .first()
        .is_some_and(|f| matches!(f.text.as_str(), "if" | "on" | "once" | "when"));
    opens
        && w.len() <= 6
        && text.trim_end().ends_with(':')
        && w.iter().any(|x| {
            matches!(
                x.text.as_str(),
                "success"
                    | "successful"
                    | "successfully"
                    | "succeeds"
                    | "succeeded"
                    | "passes"
                    | "passed"
                    | "clean"
                    | "cleanly"
            )
        })
        && !w
            .iter()
            .any(|x| matches!(x.text.as_str(), "not" | "no" | "fails" | "failed"))
}

pub(super) fn not_a_listing(p: Predicate) -> Predicate {
    match &p {
        Predicate::Git { subcommand, args }
            if args.is_empty() && matches!(subcommand.as_str(), "tag" | "branch") =>
        {
            Predicate::All(vec![
                p.clone(),
                Predicate::Not(Box::new(Predicate::Git {
                    subcommand: subcommand.clone(),
                    args: vec!["--list".into()],
                })),
            ])
        }
        _ => p,
    }
}

/// A push, plain or with flags.
pub(super) fn is_push(p: &Predicate) -> bool {
    match p {
        Predicate::Git { subcommand, .. } => subcommand == "push",
        Predicate::Any(v) => !v.is_empty() && v.iter().all(is_push),
        _ => false,
    }
}

/// An item that is one command and nothing else: `git push`, or a bare
/// `git tag *` starting with a known command word.
pub(super) fn bare_command(text: &str, lex: &Lexicon) -> Option<Predicate> {
    let t = strip_emphasis(text);
    let t = t.trim().trim_end_matches(['.', ',', ';']).trim();
    let inner = t
        .strip_prefix('`')
        .and_then(|x| x.strip_suffix('`'))
        .unwrap_or(t);
    if inner.contains('`') || inner.contains(['(', ':']) {
        return None;
    }
    let first = inner.split_whitespace().next()?.to_lowercase();
    if !lex.is_command_word(&first) {
        return None;
    }
    // ("Make the necessary code changes": prose whose verb is a program's
    // name — capitalised, an article after it — outside code.)
    let quoted = inner.len() < t.len();
    let prose = inner.starts_with(|c: char| c.is_uppercase())
        || inner.split_whitespace().nth(1).is_some_and(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "the" | "a" | "an" | "any" | "all" | "your" | "this" | "these" | "those" | "sure"
            )
        });
    if !quoted && prose {
        return None;
    }
    // A lone `*` stands for any arguments ("git push *").
    let cmd: Vec<&str> = inner.split_whitespace().filter(|t| *t != "*").collect();
    command_predicate(&cmd.join(" "), lex)
}

/// The commands of a shell block, one predicate per simple command
/// (prompts, comments and blank lines left out). In a block marked as
/// shell, a program the lexicon does not know is a command too.
pub(crate) fn fence_commands(lines: &[(u32, String)], lang: &str, lex: &Lexicon) -> Vec<Predicate> {
    let marked = !lang.is_empty() && is_shell(lang);
    let mut cmds = Vec::new();
    for (_, l) in lines {
        let l = l.trim().trim_start_matches("$ ").trim();
        let l = l.split(" # ").next().unwrap_or(l).trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        // "mcp__github__merge_pull_request with: …": a call of an MCP
        // server's tool, written by its own name.
        if let Some(tool) = mcp_tool_call(l) {
            cmds.push(Predicate::Tool(tool.to_string()));
            continue;
        }
        // "TaskUpdate:" / "AskUserQuestion(…)": a call of the harness's own
        // tool, its arguments below or after it.
        if let Some(tool) = harness_tool_call(l, lex) {
            cmds.push(Predicate::Tool(tool.to_string()));
            continue;
        }
        cmds.extend(
            simple_commands(l)
                .iter()
                .map(|c| substituted(c))
                .filter_map(|c| {
                    if marked {
                        program_command(c, lex)
                    } else {
                        command_predicate(c, lex)
                    }
                }),
        );
    }
    cmds
}

/// A lead-in that forbids running what follows: "Do not run this:", "The
/// push command (DO NOT RUN IT):", "Never run these".
pub(crate) fn forbids_running(text: &str) -> bool {
    let w = plain_words(&strip_emphasis(text));
    w.windows(3).any(|p| {
        matches!(
            (p[0].as_str(), p[1].as_str()),
            ("do", "not") | ("never", _) | ("don't", _)
        ) && (p[1] == "run" || p[2] == "run" || p[2] == "execute" || p[1] == "execute")
    })
}

/// The commands of a block not to run: its acts on shared state where it
/// has any (`cd <worktree> && git push …` forbids the push, not the `cd`),
/// else all but moving about (`cd`, `pushd`, `export`).
fn not_to_run(cmds: Vec<Predicate>, lex: &Lexicon) -> Vec<Predicate> {
    let moves = |p: &Predicate| {
        matches!(p, Predicate::Command(c)
            if ["cd ", "pushd ", "popd", "export ", "source "].iter().any(|m| c.starts_with(m)))
    };
    let cmds: Vec<Predicate> = cmds.into_iter().filter(|p| !moves(p)).collect();
    let scoped: Vec<Predicate> = cmds
        .iter()
        .filter(|p| !predicate_scopes(p, lex).is_empty())
        .cloned()
        .collect();
    if scoped.is_empty() {
        cmds
    } else {
        scoped
    }
}

/// The MCP tool a block's line calls (`mcp__server__tool`, then its
/// arguments or a colon), if the line starts with one.
fn mcp_tool_call(line: &str) -> Option<&str> {
    let first = line.split_whitespace().next()?;
    let name = first.trim_end_matches([':', '(']);
    let name = name.split('(').next().unwrap_or(name);
    (mcp_tool_name(name)
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-')))
    .then_some(name)
}

/// A predicate that holds only where an act failed (`failed: true` in it).
fn holds_only_on_failure(p: &Predicate) -> bool {
    match p {
        Predicate::Failed(true) => true,
        Predicate::All(v) | Predicate::Any(v) => v.iter().any(holds_only_on_failure),
        _ => false,
    }
}

/// A block that shows right and wrong ways ("# ❌ BAD: …", "# ✅ GOOD",
/// "# Example"): examples to read, not commands to run.
fn shows_examples(lines: &[(u32, String)]) -> bool {
    lines.iter().any(|(_, l)| {
        let l = l.trim().to_lowercase();
        l.contains('❌')
            || l.contains('✅')
            || l.strip_prefix('#').is_some_and(|c| {
                let c = c.trim_start();
                [
                    "bad",
                    "good",
                    "wrong",
                    "right",
                    "correct",
                    "incorrect",
                    "example",
                ]
                .iter()
                .any(|m| c.starts_with(m))
            })
    })
}

/// The harness tool a block's line calls by its name (`TaskUpdate:`,
/// `AskUserQuestion(`), where the lexicon knows that name as a tool.
fn harness_tool_call<'a>(line: &'a str, lex: &Lexicon) -> Option<&'a str> {
    let end = line.find([':', '('])?;
    let name = &line[..end];
    let alone = line[end..].trim() == ":" || line[end..].starts_with('(');
    (alone && lex.is_harness_tool(name)).then_some(name)
}

/// `BASE=$(git rev-parse HEAD~1)`: the command an assignment runs.
pub(super) fn substituted(c: &str) -> &str {
    let Some((name, value)) = c.split_once('=') else {
        return c;
    };
    let assigns = !name.is_empty()
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    let inner = value
        .trim()
        .strip_prefix("$(")
        .and_then(|v| v.strip_suffix(')'))
        .or_else(|| {
            value
                .trim()
                .strip_prefix('`')
                .and_then(|v| v.strip_suffix('`'))
        });
    match inner {
        Some(inner) if assigns => inner.trim(),
        _ => c,
    }
}

/// A normative fenced block (no language): prose, not code, that states a
/// rule — an all-caps line, an RFC word in capitals, or a heading that names
/// a rule or law.
pub(crate) fn normative_fence(content: &[&(u32, String)], section: &Section) -> bool {
    let all = content
        .iter()
        .map(|(_, l)| l.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let assignment = |l: &str| {
        l.split_once('=').is_some_and(|(head, _)| {
            let h = head.trim();
            !h.is_empty()
                && !h.contains(' ')
                && h.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'))
        })
    };
    if all.chars().any(|c| {
        matches!(
            c,
            '│' | '├' | '└' | '┌' | '✅' | '❌' | '✓' | '✗' | '{' | '}' | ';' | '$'
        )
    }) || content.iter().any(|(_, l)| assignment(l))
        || content.len() > 40
    {
        return false;
    }
    let caps_line = content.iter().any(|(_, l)| {
        let ws: Vec<&str> = l
            .split_whitespace()
            .filter(|w| w.chars().any(|c| c.is_alphabetic()))
            .collect();
        ws.len() >= 3 && ws.iter().all(|w| !w.chars().any(|c| c.is_lowercase()))
    });
    let caps_word = all.split(|c: char| !c.is_alphanumeric()).any(|w| {
        matches!(
            w,
            "MUST"
                | "NEVER"
                | "ALWAYS"
                | "ONLY"
                | "REQUIRED"
                | "SHALL"
                | "SHOULD"
                | "NO"
                | "NOT"
                | "DO"
        )
    });
    // Pseudo-code steps: "IF any item is unclear:", "WHEN receiving …:",
    // "STOP - do not …" — a capitalised keyword opens a line of prose.
    let caps_keyword = content.iter().any(|(_, l)| {
        let mut ws = l.split_whitespace();
        let first = ws.next().unwrap_or("").trim_end_matches(':');
        let next = ws.next().unwrap_or("");
        matches!(
            first,
            "IF" | "WHEN" | "BEFORE" | "AFTER" | "FOR" | "UNLESS" | "WHILE" | "STOP" | "ASK"
        ) && next.chars().any(|c| c.is_lowercase())
    });
    let h = section.nearest().to_lowercase();
    let rule_heading = ["rule", "law", "gate", "principle"]
        .iter()
        .any(|w| h.contains(w));
    caps_line || caps_word || caps_keyword || rule_heading
}

impl Extractor<'_> {
    /// "If successful:" over `git push` right after `git rebase origin/main`:
    /// the block runs after the one before it succeeded — `when` that
    /// block's commands did not fail, the new block `after`.
    pub(super) fn next_on_success(
        &mut self,
        text: String,
        at: [u32; 2],
        before: &[Predicate],
        lang: &str,
        lines: &[(u32, String)],
    ) {
        let cmds = fence_commands(lines, lang, self.lex);
        if !is_shell(lang) || before.is_empty() || cmds.is_empty() {
            return;
        }
        let mut d = Draft::new(text, at, Modality::Must);
        d.when = Some(Predicate::All(vec![
            any_of(before.to_vec()).expect("commands"),
            Predicate::Not(Box::new(Predicate::Failed(true))),
        ]));
        d.require = any_of(cmds);
        d.order = Some(Order::After);
        add_predicate_scopes(&mut d, self.lex);
        self.drafts.push(d);
    }

    /// A step under a lead-in that waits on the user's word, over a shell
    /// block: each command it runs is due only after the user's answer
    /// (`when` the command, `require: {user_turn: true}`, `before-each`).
    pub(super) fn consent_over_commands(
        &mut self,
        text: String,
        at: [u32; 2],
        lang: &str,
        lines: &[(u32, String)],
    ) {
        let Some(acts) = self.consented_acts(lang, lines) else {
            return;
        };
        let mut d = Draft::new(text, at, Modality::Must);
        consent_gate(&mut d, acts, true);
        add_predicate_scopes(&mut d, self.lex);
        self.drafts.push(d);
    }

    /// The acts of a shell block that wait on the user's word: those that
    /// change shared state — the commit and the push — where the block has
    /// such commands (`cd` and `git add` are only on the way), else all.
    pub(super) fn consented_acts(&self, lang: &str, lines: &[(u32, String)]) -> Option<Predicate> {
        let cmds = fence_commands(lines, lang, self.lex);
        if !is_shell(lang) || cmds.is_empty() {
            return None;
        }
        let scoped: Vec<Predicate> = cmds
            .iter()
            .filter(|c| !predicate_scopes(c, self.lex).is_empty())
            .cloned()
            .collect();
        any_of(if scoped.is_empty() { cmds } else { scoped })
    }

    /// "1. Check the status:" over `git status` / `git diff --staged`: a
    /// step too short to be a rule of its own whose shell block says what
    /// it runs — that step requires those commands.
    pub(super) fn step_over_commands(
        &mut self,
        text: String,
        at: [u32; 2],
        lang: &str,
        lines: &[(u32, String)],
        section: &Section,
    ) {
        let shell = is_shell(lang);
        // "**1. Get git SHAs:**": the step's number is no verb.
        let w = words(&mask(&text).0);
        let numbered = heading_number(&w) > 1 && w[0].text == "step";
        let w = &w[heading_number(&w)..];
        let verb = main_verb(w);
        // ("### Step 2: Upload the bundle" over its commands: a numbered
        // step's own verb runs its block.)
        let steps = verb.as_deref().is_some_and(is_step_verb)
            || (numbered
                && w.first().is_some_and(|f| {
                    verb.as_deref() == Some(f.text.as_str()) && self.lex.is_imperative(&f.text)
                }));
        let case = w.first().is_some_and(|x| is_condition_word(&x.text));
        // "For each remote branch not in the open PR list:" over `git push
        // origin --delete …`: what the step does to each item it picks — a
        // choice no action shows, so a rule with no predicate, scoped by
        // what its block changes.
        let per_item =
            w.len() > 2 && w[0].text == "for" && matches!(w[1].text.as_str(), "each" | "every");
        if shell && per_item {
            let mut d = Draft::new(text, at, Modality::Must);
            d.scope = block_scopes(lines, lang, self.lex);
            if !d.scope.is_empty() {
                self.drafts.push(d);
            }
            return;
        }
        if shell && case && self.failed_case_over_commands(&text, at, lang, lines) {
            return;
        }
        if shell && case && !section.conditional() {
            // "Before committing, run:" over its block: a lead-in too
            // short to be a rule of its own still runs the block before
            // the act its condition names.
            if let Some(d) = self.run_around_the_condition(&text, at, lang, lines) {
                self.drafts.push(d);
                return;
            }
            self.case_over_commands(text, at, lang, lines);
            return;
        }
        let cmds = fence_commands(lines, lang, self.lex);
        // "## After Resolving" / "Always verify:" over `npm run lint`: a
        // step in a situation no action shows — a rule, judged by people.
        // ("### 2. Rebase if stale" over `git rebase …`: a step taken in
        // a case of its own, the same.)
        let case = split_trailing(&text)
            .map(|(_, k, t)| format!("{k} {t}"))
            .or_else(|| parenthetical_condition(&text).map(|(_, t)| t));
        let own_case = opening_condition(&text).is_none() && case.is_some();
        if shell && own_case {
            if let Some(d) = self.run_around_the_condition(&text, at, lang, lines) {
                self.drafts.push(d);
                return;
            }
        }
        // ("Push (only if requested):" over `git push …`: the case is the
        // user's word — a consent gate on each of the block's acts.)
        if shell && own_case && case.as_deref().is_some_and(user_consent) && !cmds.is_empty() {
            let mut d = Draft::new(text, at, Modality::MustNot);
            if let Some(acts) = any_of(cmds) {
                consent_gate(&mut d, acts, true);
                add_predicate_scopes(&mut d, self.lex);
            }
            self.drafts.push(d);
            return;
        }
        // ("1. **Install the CLI:**" over `brew install …` in one of several
        // workflows: a step of the workflow chosen, the same.)
        let imperative = verb
            .as_deref()
            .is_some_and(|v| is_step_verb(v) || self.lex.is_imperative(v));
        if shell
            && (section.conditional() && imperative || own_case)
            && opening_condition(&text).is_none()
            && !cmds.is_empty()
        {
            let mut d = Draft::new(text, at, Modality::Must);
            for c in &cmds {
                d.scope.extend(predicate_scopes(c, self.lex));
            }
            self.drafts.push(d);
            return;
        }
        // "### 2. Land it" over `mcp__forge__land_pull_request: …`: a block
        // of nothing but tool calls is no example; its step makes them.
        let calls_tools = !cmds.is_empty() && cmds.iter().all(|c| matches!(c, Predicate::Tool(_)));
        if !shell
            || (verb.is_none() && !calls_tools)
            || section.conditional()
            || opening_condition(&text).is_some()
        {
            return;
        }
        // "3. **Create the worktree**:" over `git worktree add …`: a step
        // whose own verb acts runs its block where the block acts on
        // shared state too.
        let scoped = || {
            cmds.iter()
                .any(|c| !predicate_scopes(c, self.lex).is_empty())
        };
        if cmds.is_empty()
            || !(steps
                || calls_tools
                || verb.as_deref().is_some_and(|v| self.lex.is_imperative(v)) && scoped())
        {
            return;
        }
        let mut d = Draft::new(text, at, Modality::Must);
        d.require = any_of(cmds);
        add_predicate_scopes(&mut d, self.lex);
        self.drafts.push(d);
    }

    /// "The push command (DO NOT RUN IT):" over its block: a prohibition
    /// of the block's commands (handed to a person, not to be run).
    pub(super) fn commands_not_to_run(
        &mut self,
        text: String,
        at: [u32; 2],
        lang: &str,
        lines: &[(u32, String)],
    ) {
        if !is_shell(lang) {
            return;
        }
        let Some(f) = any_of(not_to_run(fence_commands(lines, lang, self.lex), self.lex)) else {
            return;
        };
        let mut d = Draft::new(text, at, Modality::MustNot);
        d.forbid = Some(f);
        add_predicate_scopes(&mut d, self.lex);
        self.drafts.push(d);
    }

    /// "If yes:" over `git push && git push --tags`: what to run in a case
    /// no action shows — a rule with no predicate, scoped by what its block
    /// changes.
    /// "If the merge fails due to conflicts:" over `git diff --name-only
    /// …`: a failed act the session shows — `when` it, the block's
    /// commands due after it (under a case heading too: the failure is
    /// what decides). False where the lead-in names no failed act.
    fn failed_case_over_commands(
        &mut self,
        text: &str,
        at: [u32; 2],
        lang: &str,
        lines: &[(u32, String)],
    ) -> bool {
        let bare = strip_emphasis(text);
        let failed = bare
            .trim()
            .trim_end_matches(':')
            .split_once(' ')
            .and_then(|(_, c)| condition_info(c, self.lex).behavior(false))
            .filter(holds_only_on_failure);
        let cmds = fence_commands(lines, lang, self.lex);
        let (Some(when), Some(cmds)) = (failed, any_of(cmds)) else {
            return false;
        };
        let mut d = Draft::new(text.to_string(), at, Modality::Must);
        d.when = Some(when);
        d.require = Some(cmds);
        d.order = Some(Order::After);
        add_predicate_scopes(&mut d, self.lex);
        self.drafts.push(d);
        true
    }

    /// "Before committing, run:" / "After merging, run:" over a shell
    /// block: `when` the condition's act, the block's commands required
    /// before (or after) it.
    fn run_around_the_condition(
        &self,
        text: &str,
        at: [u32; 2],
        lang: &str,
        lines: &[(u32, String)],
    ) -> Option<Draft> {
        // ("Run before committing:": the condition after the verb.)
        let (cond, order, main) = match opening_condition(text) {
            Some((cond, order)) => (cond, order, split_leading_condition(text)?.1),
            None => {
                let (main, kind, tail) = split_trailing(text.trim_end().trim_end_matches(':'))?;
                let order = match kind.to_lowercase().as_str() {
                    "before" => Order::Before,
                    "after" => Order::After,
                    _ => return None,
                };
                (tail, order, main)
            }
        };
        let w = words(&mask(&main).0);
        let runs = w.len() == 1 && matches!(w[0].text.as_str(), "run" | "execute");
        if !runs {
            return None;
        }
        let act = clause_info(&cond, self.lex).behavior(true)?;
        let require = any_of(fence_commands(lines, lang, self.lex))?;
        let mut d = Draft::new(text.to_string(), at, Modality::Must);
        d.when = Some(act);
        d.require = Some(require);
        d.order = Some(order);
        add_predicate_scopes(&mut d, self.lex);
        Some(d)
    }

    pub(super) fn case_over_commands(
        &mut self,
        text: String,
        at: [u32; 2],
        lang: &str,
        lines: &[(u32, String)],
    ) {
        let w = words(&mask(&text).0);
        if w.len() > 8 {
            return;
        }
        let scope = block_scopes(lines, lang, self.lex);
        if scope.is_empty() {
            return;
        }
        let mut d = Draft::new(text, at, Modality::Must);
        d.scope = scope;
        self.drafts.push(d);
    }

    pub(super) fn commands_under(
        &mut self,
        at: usize,
        lang: &str,
        lines: &[(u32, String)],
        section: &Section,
    ) {
        // "### If Approved" / "1. Run the git commands:" over its block:
        // the block's acts wait on the user's word.
        if section.consented() && is_shell(lang) {
            let Some(d) = self.drafts.get(at) else { return };
            if d.behavior_is_set() || d.when.is_some() {
                return;
            }
            if let Some(acts) = self.consented_acts(lang, lines) {
                let lex = self.lex;
                if let Some(d) = self.drafts.get_mut(at) {
                    consent_gate(d, acts, true);
                    add_predicate_scopes(d, lex);
                }
            }
            return;
        }
        if section.conditional() {
            return;
        }
        if !is_shell(lang) {
            self.tree_under(at, lines);
            return;
        }
        let Some(d) = self.drafts.get(at) else { return };
        // "Do not run this:" over its block: those commands are forbidden.
        if matches!(d.modality, Modality::MustNot)
            && !d.behavior_is_set()
            && d.when.is_none()
            && forbids_running(&d.text)
        {
            let cmds = not_to_run(fence_commands(lines, lang, self.lex), self.lex);
            let lex = self.lex;
            if let (Some(f), Some(d)) = (any_of(cmds), self.drafts.get_mut(at)) {
                d.forbid = Some(f);
                add_predicate_scopes(d, lex);
            }
            return;
        }
        // ("Before every commit, run:": the verb of the main clause.)
        // ("**Port assignment:** Find the next free port:": after its label.)
        // ("**CLAUDE: When this skill is invoked, immediately run:**": a
        // label, then a condition.)
        let plain = strip_emphasis(&d.text);
        let unlabelled = if opening_condition(&plain).is_some() {
            plain.clone()
        } else {
            split_label(&plain).map_or(plain.clone(), |(_, m)| m)
        };
        let main = opening_condition(&unlabelled)
            .and(split_leading_condition(&unlabelled))
            .map_or(unlabelled.clone(), |(_, m)| m);
        // ("For each, check if it is merged:": the step after the items it
        // goes over.)
        let main = per_item_lead(&main).map_or(main.clone(), str::to_string);
        let w = words(&mask(&main).0);
        let verb = main_verb(&w[heading_number(&w)..]);
        // "Run:", and a step that names no act of its own ("Get the
        // remote URL:", "Verify the checkout was made:").
        // (Only the sentence that ends in the colon: "Update both files.
        // The script handles this:" does not run the block by its first.)
        let own_colon = own_colon(&d.text);
        // ("**Publish the PR** (remove draft status):" over `gh pr ready`,
        // "Navigate to the main repo:" over `cd …`: a step whose own act
        // no predicate names does what its block runs.)
        // (Not a step that says it comes first — "First, set things up:"
        // — whose block may be the setup of another skill: no rule due
        // from the load is read off a block alone.)
        let unnamed_act = own_colon
            && !shows_examples(lines)
            && !holds_from_the_start(&d.text)
            && !d.behavior_is_set()
            && d.when.is_none()
            // ("Use the bundled helper for one-off runs:" chooses a means;
            // its block shows it, runs nothing.)
            && verb.as_deref().is_some_and(|v| {
                self.lex.is_imperative(v) && !matches!(v, "use" | "prefer" | "consider" | "choose")
            });
        let runs = verb.as_deref().is_some_and(|v| {
            matches!(
                v,
                "run" | "execute" | "invoke" | "call" | "launch" | "start"
            ) || (own_colon && is_step_verb(v))
        }) || unnamed_act
            // ("Use the GitHub CLI to get the PR details and check status:":
            // the means, then the step it takes.)
            || own_colon
                && verb.as_deref() == Some("use")
                && w.windows(2).any(|p| p[0].text == "to" && is_step_verb(&p[1].text))
                && !d.behavior_is_set()
                && d.when.is_none();
        // A condition kept the rule from binding ("If it fails, run:").
        // ("Each must pass before continuing": going on is the next step,
        // no condition.)
        // ("When this skill is invoked": from the load on, no condition.)
        let conditioned = opening_condition(&unlabelled)
            .is_some_and(|(c, _)| !this_skill_in_use(&c))
            || split_trailing(&unlabelled)
                .is_some_and(|(_, k, c)| !(k == "before" && names_going_on(&c)))
            || parenthetical_condition(&unlabelled).is_some();
        // "Read the current version from `package.json`:" over a command
        // that reads it: the read is that command, or a read of the file.
        let read = match &d.require {
            Some(Predicate::Read(_)) => d.require.clone(),
            Some(Predicate::Any(v)) if v.iter().all(|p| matches!(p, Predicate::Read(_))) => {
                d.require.clone()
            }
            _ => None,
        };
        if read.is_some() && !conditioned && d.when.is_none() && d.forbid.is_none() {
            let mut alts = match read {
                Some(Predicate::Any(v)) => v,
                Some(p) => vec![p],
                None => Vec::new(),
            };
            let n = alts.len();
            alts.extend(fence_commands(lines, lang, self.lex));
            if alts.len() > n {
                if let Some(d) = self.drafts.get_mut(at) {
                    d.require = any_of(alts);
                }
            }
            return;
        }
        // "Run before every commit:" / "Before each release, run:" over its
        // block: the condition is an act the session shows (`when`), and
        // the block's commands are due around it.
        if runs
            && conditioned
            && d.when.is_some()
            && d.require.is_none()
            && d.forbid.is_none()
            && !matches!(d.modality, Modality::MustNot | Modality::ShouldNot)
        {
            let order = timed_condition(&d.text);
            let cmds = fence_commands(lines, lang, self.lex);
            let lex = self.lex;
            if let (Some(order), Some(d)) = (order, self.drafts.get_mut(at)) {
                d.require = any_of(cmds);
                if d.require.is_some() {
                    d.order = Some(order);
                    add_predicate_scopes(d, lex);
                }
            }
            return;
        }
        if !runs
            || conditioned
            || d.require.is_some()
            || d.forbid.is_some()
            || d.when.is_some()
            || matches!(d.modality, Modality::MustNot | Modality::ShouldNot)
        {
            // ("For each, check if it is merged:" over `git branch -d …`:
            // what the step runs in a case no action shows still says what
            // the rule changes.)
            if runs && conditioned && !d.behavior_is_set() && d.when.is_none() {
                let scope = block_scopes(lines, lang, self.lex);
                if let Some(d) = self.drafts.get_mut(at) {
                    d.scope.extend(scope);
                }
            }
            return;
        }
        let cmds = fence_commands(lines, lang, self.lex);
        let lex = self.lex;
        if let Some(d) = self.drafts.get_mut(at) {
            d.require = any_of(cmds);
            add_predicate_scopes(d, lex);
        }
    }

    /// "4. Create or update:" over a directory tree (`├── hooks.json`): the
    /// step writes the tree's files — a change to any of them is its act.
    pub(super) fn tree_written(&self, text: &str, lines: &[(u32, String)]) -> Option<Predicate> {
        if !own_colon(text) {
            return None;
        }
        let t = strip_emphasis(text);
        let main = split_label(&t).map_or(t.clone(), |(_, m)| m);
        let w = words(&mask(&main).0);
        let writes = main_verb(&w[heading_number(&w)..]).is_some_and(|v| {
            matches!(
                self.lex.path_action(&v),
                Some(PathAction::Write | PathAction::Touch)
            ) || matches!(v.as_str(), "scaffold" | "make" | "build" | "lay")
        });
        if !writes {
            return None;
        }
        any_of(
            tree_files(lines)
                .into_iter()
                .map(Predicate::Touch)
                .collect(),
        )
    }

    fn tree_under(&mut self, at: usize, lines: &[(u32, String)]) {
        let Some(d) = self.drafts.get(at) else { return };
        if d.behavior_is_set() || d.when.is_some() {
            return;
        }
        let Some(files) = self.tree_written(&d.text, lines) else {
            return;
        };
        let lex = self.lex;
        if let Some(d) = self.drafts.get_mut(at) {
            d.require = Some(files);
            add_predicate_scopes(d, lex);
        }
    }

    pub(crate) fn fence(&mut self, lines: &[(u32, String)], section: &Section) {
        let content: Vec<&(u32, String)> =
            lines.iter().filter(|(_, l)| !l.trim().is_empty()).collect();
        let (Some(first), Some(last)) = (content.first(), content.last()) else {
            return;
        };
        if !normative_fence(&content, section) {
            return;
        }
        let text = content
            .iter()
            .map(|(_, l)| l.trim())
            .collect::<Vec<_>>()
            .join("\n");
        let ctx = Ctx::plain(section);
        let first_text = first.1.trim();
        let mut d = match analyse(first_text, None, &ctx, true, self.lex) {
            Some(a) => a.into_draft(&ctx, self.lex),
            None => Draft::new(String::new(), [0, 0], Modality::Must),
        };
        for (_, l) in content.iter().skip(1) {
            d.scope.extend(clause_info(l, self.lex).scope);
        }
        d.text = text;
        d.lines = [first.0, last.0];
        self.drafts.push(d);
    }
}

/// The files of a directory tree drawn with `├──` / `└──` (or `|--` /
/// `` `-- ``), as globs under any root: `<plugin>/` over `├── plugin.json`
/// and `│   └── hooks.json` under `extensions/` gives `**/plugin.json` and
/// `**/extensions/hooks.json`. Directories (a trailing `/`, or a node with
/// children) are no files. Fewer than two drawn lines: no tree.
pub(super) fn tree_files(lines: &[(u32, String)]) -> Vec<String> {
    let connectors = ["├──", "└──", "|--", "`--", "+--"];
    let drawn: Vec<(usize, String)> = lines
        .iter()
        .filter_map(|(_, l)| {
            let (col, k) = connectors
                .iter()
                .filter_map(|k| l.find(k).map(|i| (i, *k)))
                .min_by_key(|(i, _)| *i)?;
            let depth = l[..col].chars().count();
            let name = l[col + k.len()..]
                .split('#')
                .next()
                .unwrap_or("")
                .split("  ")
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            (!name.is_empty()).then_some((depth, name))
        })
        .collect();
    if drawn.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    for (i, (depth, name)) in drawn.iter().enumerate() {
        while stack.last().is_some_and(|(d, _)| d >= depth) {
            stack.pop();
        }
        let has_children = drawn.get(i + 1).is_some_and(|(d, _)| d > depth);
        let plain = name.trim_end_matches('/');
        if name.ends_with('/') || has_children {
            stack.push((*depth, plain.to_string()));
            continue;
        }
        let placeholder = |p: &str| p.contains(['<', '>', '{', '}', '[', ']', '*', ' ']);
        if plain.is_empty() || placeholder(plain) || plain == "..." {
            continue;
        }
        let mut path: Vec<&str> = stack
            .iter()
            .map(|(_, n)| n.as_str())
            .filter(|n| !placeholder(n))
            .collect();
        path.push(plain);
        let glob = format!("**/{}", path.join("/"));
        if !out.contains(&glob) {
            out.push(glob);
        }
    }
    out
}

/// A rule whose one sentence ends in the colon over a block ("Run:", "Lay
/// out the files:") — not "Update both files. The script handles this:".
fn own_colon(text: &str) -> bool {
    let t = strip_emphasis(text);
    t.trim_end().ends_with(':') && !mask(&t).0.contains(". ")
}
