//! Stage 6, passes over the whole document after every rule is drafted: what
//! a rule means can depend on the steps around it — a consent that covers
//! the commands the following steps run, a look at the repository that is
//! due before the next step that acts on it, one consent per batch where
//! the skill asks once, and scoped requirements judged where work was done.

use super::predicates::*;
use super::scope::*;
use super::*;
use crate::extract::markdown::Block;

/// "Wait for approval or edits." then "## Bump, commit, tag" over a shell
/// block: the consent covers the scoped commands the following steps run
/// (`git commit`, `git tag`, `git push`), up to the next such gate or a
/// section that only holds on a condition ("When it goes wrong"). One
/// consent covers the batch (`before`). With no scoped command after it,
/// the gate stays on the work's edits.
pub(super) fn gate_following_acts(drafts: &mut [Draft], blocks: &[Block], lex: &Lexicon) {
    // (A gate an earlier pass already pointed at the skill's subject keeps it.)
    let edits = work_edits(lex);
    let gates: Vec<usize> = (0..drafts.len())
        .filter(|&i| drafts[i].awaits && drafts[i].when.as_ref() == Some(&edits))
        .collect();
    for (k, &i) in gates.iter().enumerate() {
        let from = drafts[i].lines[1];
        let until = gates.get(k + 1).map_or(u32::MAX, |&j| drafts[j].lines[0]);
        // (Up to a section that only holds on a condition.)
        let until = blocks
            .iter()
            .find_map(|b| match b {
                Block::Heading { line, text, .. } if *line > from && heading_conditional(text) => {
                    Some(*line)
                }
                _ => None,
            })
            .map_or(until, |l| l.min(until));
        let mut acts: Vec<Predicate> = Vec::new();
        let mut add = |p: Predicate| {
            let p = generic_act(p);
            if !predicate_scopes(&p, lex).is_empty() && !acts.contains(&p) {
                acts.push(p);
            }
        };
        for b in blocks {
            if let Block::Fence {
                start, lang, lines, ..
            } = b
            {
                if *start > from && *start < until {
                    fence_commands(lines, lang, lex)
                        .into_iter()
                        .for_each(&mut add);
                }
            }
        }
        // "1. Run `git push`" in a list: the commands the steps run (not
        // the files a rule writes: "Write a new skill for each workflow").
        let ran = |p: &Predicate| {
            matches!(
                p,
                Predicate::Command(_)
                    | Predicate::Git { .. }
                    | Predicate::CommandRe(_)
                    | Predicate::Tool(_)
            )
        };
        // The first heading after a line, or `until`.
        let heading_after = |at: u32| {
            blocks
                .iter()
                .find_map(|b| match b {
                    Block::Heading { line, .. } if *line > at => Some(*line),
                    _ => None,
                })
                .map_or(until, |l| l.min(until))
        };
        // (In the gate's own section: a list further on is no step of it.)
        let section_end = heading_after(from);
        for d in drafts.iter() {
            if d.lines[0] > from && d.lines[0] < section_end {
                match step_act(d, lex) {
                    Some(Predicate::Any(v)) => v.into_iter().filter(ran).for_each(&mut add),
                    Some(p) if ran(&p) => add(p),
                    _ => {}
                }
            }
        }
        // ("Show the draft and get the user's approval" closing "## 5.
        // Draft", then "## 6. Create the release" / "Run `gh release
        // create …`": with nothing run after it in its own section, the
        // next step that runs a scoped command.)
        // (Only a gate that closes its section, and only the section right
        // after it: "Wait for approval before proceeding" atop a list of
        // other rules gates no act three sections on.)
        let closes = !drafts
            .iter()
            .any(|d| d.lines[0] > from && d.lines[0] < section_end);
        let next_end = heading_after(section_end);
        let next = drafts
            .iter()
            .filter(|_| closes)
            .filter(|d| d.lines[0] >= section_end && d.lines[0] < next_end)
            .filter_map(|d| step_act(d, lex))
            .flat_map(|p| match p {
                Predicate::Any(v) => v,
                p => vec![p],
            })
            .map(generic_act)
            .find(|p| ran(p) && !predicate_scopes(p, lex).is_empty());
        if acts.is_empty() {
            acts.extend(next);
        }
        if acts.is_empty() {
            continue;
        }
        let d = &mut drafts[i];
        for p in &acts {
            d.scope.extend(predicate_scopes(p, lex));
        }
        let guarded = if acts.len() == 1 {
            acts.remove(0)
        } else {
            Predicate::Any(acts)
        };
        consent_gate(d, guarded, false);
    }
}

/// "Offer options (push, stash, or skip). Do not proceed without
/// approval.": a gate on proceeding whose sentence before offers acts —
/// those acts wait for the user's answer (one answer covers the choice),
/// not the next edit.
pub(super) fn consent_to_the_offered_acts(drafts: &mut [Draft], lex: &Lexicon) {
    let proceeding = proceeding(&[]);
    for d in drafts.iter_mut() {
        if d.require != Some(Predicate::UserTurn) || d.when.as_ref() != Some(&proceeding) {
            continue;
        }
        let text = d.text.trim_end().trim_end_matches('.').to_string();
        let Some((before, _)) = text.rsplit_once(". ") else {
            continue;
        };
        let lower = before.to_ascii_lowercase();
        let Some(at) = lower.find("offer") else {
            continue;
        };
        let Some((_, offered)) = before[at..].split_once(' ') else {
            continue;
        };
        let mut acts: Vec<Predicate> = Vec::new();
        if let Some(p) = clause_info(offered, lex).behavior(false) {
            let all = match p {
                Predicate::Any(v) => v,
                p => vec![p],
            };
            for p in all.into_iter().map(generic_act) {
                if !predicate_scopes(&p, lex).is_empty() && !acts.contains(&p) {
                    acts.push(p);
                }
            }
        }
        let Some(guarded) = any_of(acts) else {
            continue;
        };
        d.scope.extend(predicate_scopes(&guarded, lex));
        consent_gate(d, guarded, false);
    }
}

/// "### When a new PR is opened" / "Do NOT approve or request changes": a
/// forbid held to its heading's case is a forbid where no rule of the
/// skill asks for the act or waits on it in any case — the heading then
/// splits no modes for that act, and every case forbids it.
pub(super) fn case_forbids_what_no_rule_asks(drafts: &mut [Draft], lex: &Lexicon) {
    let leaves = |p: &Predicate| {
        let mut v: Vec<Predicate> = Vec::new();
        p.for_each_node(&mut |q| {
            if !matches!(q, Predicate::Any(_) | Predicate::All(_) | Predicate::Not(_)) {
                v.push(q.clone());
            }
        });
        v
    };
    // (What a positive rule names counts, also where its own case kept it
    // from requiring it: "### When the maintainer signs off" / "Approve
    // the PR with `gh pr review --approve`".)
    let mut asked: Vec<Predicate> = drafts
        .iter()
        .filter(|d| d.case_forbid.is_none())
        .flat_map(|d| [&d.when, &d.require].into_iter().flatten().flat_map(leaves))
        .collect();
    for d in drafts.iter().filter(|d| {
        d.case_forbid.is_none() && matches!(d.modality, Modality::Must | Modality::Should)
    }) {
        if let Some(p) = clause_info(&d.text, lex).behavior(false) {
            asked.extend(leaves(&p));
        }
    }
    // The commands those acts stand for, to test the forbid's commands on.
    let mut sampled = Vec::new();
    let mut paths = Vec::new();
    for p in &asked {
        samples(p, &mut sampled, &mut paths);
    }
    let is_asked = |l: &Predicate| asked.contains(l) || names_a_sample(l, &sampled);
    for d in drafts.iter_mut() {
        let Some(x) = d.case_forbid.take() else {
            continue;
        };
        if d.require.is_some() || d.forbid.is_some() {
            continue;
        }
        if !leaves(&x).iter().any(is_asked) {
            d.when = None;
            d.forbid = Some(x);
            continue;
        }
        // ("Do not merge" where a step merges the base branch in with
        // `git merge`: the alternatives no rule asks for — `gh pr merge` —
        // are forbidden, the one a step asks for stays allowed.)
        if let Predicate::Any(alts) = &x {
            let unasked: Vec<Predicate> = alts
                .iter()
                .filter(|a| !leaves(a).iter().any(is_asked))
                .cloned()
                .collect();
            if !unasked.is_empty() && unasked.len() < alts.len() {
                d.when = None;
                d.forbid = any_of(unasked);
            }
        }
    }
}

/// Each heading's line and level, in document order.
fn heading_levels(blocks: &[Block]) -> Vec<(u32, usize)> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading { line, level, .. } => Some((*line, *level)),
            _ => None,
        })
        .collect()
}

/// The headings of a document: line, level and text.
fn headings_with_text(blocks: &[Block]) -> Vec<(u32, usize, &str)> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading { line, level, text } => Some((*line, *level, text.as_str())),
            _ => None,
        })
        .collect()
}

/// "## Workflows" / "### Commit Workflow" / "- Read the recent commit
/// messages" … "- Run `git commit`" … "- Run `git status` to verify": a
/// step of one of several workflows binds around the scoped acts of its
/// own workflow — `when` the next act a later step of that workflow does,
/// `before`; past the last one, a step that acts on nothing shared is due
/// `after` it. A workflow with no act of its own leaves its steps
/// unverifiable (which one a session followed, no act shows).
pub(super) fn workflow_steps_around_their_acts(
    drafts: &mut [Draft],
    blocks: &[Block],
    lex: &Lexicon,
) {
    let headings = headings_with_text(blocks);
    // The workflow a line is in: the heading right under the one that
    // lists the alternatives, to the next heading of its level or above.
    let workflow = |line: u32| -> Option<(u32, u32)> {
        let mut i = headings.iter().rposition(|(l, _, _)| *l <= line)?;
        loop {
            let (start, level, _) = headings[i];
            let parent = headings[..i].iter().rposition(|(_, l, _)| *l < level)?;
            if lists_alternatives(headings[parent].2) {
                let end = headings[i + 1..]
                    .iter()
                    .find(|(_, l, _)| *l <= level)
                    .map_or(u32::MAX, |(l, _, _)| *l);
                return Some((start, end));
            }
            i = parent;
        }
    };
    // What a step does to shared state: its act, held back or not (a look
    // at the repository is no act; a gate on an act is not the act).
    let act_of = |d: &Draft| -> Option<Predicate> {
        if d.forbid.is_some() || d.modality != Modality::Must {
            return None;
        }
        let p = match &d.require {
            Some(Predicate::UserTurn) => return None,
            Some(r) => r.clone(),
            None => d.case_require.clone()?,
        };
        records(&p, lex).then_some(p)
    };
    let acts: Vec<(u32, Predicate)> = drafts
        .iter()
        .filter_map(|d| act_of(d).map(|p| (d.lines[0], p)))
        .collect();
    for d in drafts.iter_mut() {
        if !d.workflow || d.behavior_is_set() {
            continue;
        }
        let Some(step) = d.case_require.clone() else {
            continue;
        };
        let Some((start, end)) = workflow(d.lines[0]) else {
            continue;
        };
        let inside = |l: u32| start < l && l < end;
        // (A step that acts itself — the workflow's own act, as likely as
        // not — binds only before a later, other act.)
        let acts_itself = records(&step, lex);
        let next = acts
            .iter()
            .find(|(l, a)| inside(*l) && *l > d.lines[1] && *a != step)
            .map(|(_, a)| (a.clone(), Order::Before));
        let last = || {
            acts.iter()
                .rev()
                .find(|(l, a)| inside(*l) && *l < d.lines[0] && *a != step)
                .filter(|_| !acts_itself)
                .map(|(_, a)| (a.clone(), Order::After))
        };
        let Some((act, order)) = next.or_else(last) else {
            continue;
        };
        d.case_require = None;
        d.scope.extend(predicate_scopes(&act, lex));
        d.scope.extend(predicate_scopes(&step, lex));
        d.when = Some(act);
        d.require = Some(step);
        d.order = Some(order);
    }
}

/// An act that records or publishes shared state (a commit, push, merge,
/// tag, branch change, pull request, release) or changes the agent's own
/// configuration: not a look at the repository, a read of a secret, or a
/// step that only prepares one (checking out, pulling, fetching, staging,
/// stashing).
fn records(p: &Predicate, lex: &Lexicon) -> bool {
    let scopes = predicate_scopes(p, lex);
    let mut prepares = true;
    p.for_each_node(&mut |n| match n {
        Predicate::Any(_) | Predicate::All(_) | Predicate::Not(_) => {}
        Predicate::Git { subcommand, .. } => {
            prepares &= matches!(
                subcommand.as_str(),
                "checkout" | "switch" | "pull" | "fetch" | "add" | "stash"
            )
        }
        _ => prepares = false,
    });
    (scopes.contains(&ScopeTag::SharedRepoState) || scopes.contains(&ScopeTag::SelfModification))
        && !looks_at_the_repository(p, true)
        && !prepares
}

/// "### When a new PR is opened" / "1. Run `gh pr diff`" … "3. Post one
/// comment with `gh pr comment`": a step held to its heading's case is due
/// before the first scoped act a later step of the same section asks for —
/// that act shows the case held. Only where every other section asking
/// for that act has the step before it too ("### If CI fails" / "1. Read
/// the log" … "3. Push" beside a push in the main procedure stays
/// unverifiable: a push there says nothing of the case).
pub(super) fn case_steps_before_the_case_act(
    drafts: &mut [Draft],
    blocks: &[Block],
    lex: &Lexicon,
) {
    let headings = heading_levels(blocks);
    // The lines a section spans: from its heading to the next heading of
    // its level or above.
    let section = |line: u32| {
        let own = headings.iter().rposition(|(l, _)| *l <= line)?;
        let (start, level) = headings[own];
        let end = headings[own + 1..]
            .iter()
            .find(|(_, l)| *l <= level)
            .map_or(u32::MAX, |(l, _)| *l);
        Some((start, end))
    };
    let contains = |p: &Predicate, q: &Predicate| {
        let mut found = false;
        p.for_each_node(&mut |n| found |= n == q);
        found
    };
    // What each rule asks for, as a step or a trigger, with its section.
    type Asks = (u32, Option<(u32, u32)>, Vec<Predicate>);
    let asks: Vec<Asks> = drafts
        .iter()
        .map(|d| {
            let acts = [&d.when, &d.require, &d.case_require]
                .into_iter()
                .flatten()
                .filter(|p| **p != Predicate::UserTurn)
                .cloned()
                .collect();
            (d.lines[0], section(d.lines[0]), acts)
        })
        .collect();
    for i in 0..drafts.len() {
        let Some(step) = drafts[i].case_require.take() else {
            continue;
        };
        if drafts[i].behavior_is_set() {
            continue;
        }
        let Some((start, end)) = section(drafts[i].lines[0]) else {
            continue;
        };
        let after = drafts[i].lines[1];
        let Some(act) = drafts
            .iter()
            .filter(|d| after < d.lines[0] && d.lines[0] < end && d.forbid.is_none())
            .filter_map(|d| d.require.as_ref())
            .find(|r| {
                **r != step && **r != Predicate::UserTurn && !predicate_scopes(r, lex).is_empty()
            })
            .cloned()
        else {
            continue;
        };
        // Elsewhere, the act comes with the step before it in its section.
        let elsewhere_too = asks.iter().all(|(line, sec, acts)| {
            let outside = *line < start || end <= *line;
            !outside
                || !acts.iter().any(|a| contains(a, &act))
                || asks
                    .iter()
                    .any(|(l, s, a)| s == sec && l < line && a.iter().any(|p| contains(p, &step)))
        });
        if !elsewhere_too {
            continue;
        }
        let d = &mut drafts[i];
        if looks_at_the_repository(&step, false) {
            d.scope.extend(predicate_scopes(&act, lex));
        }
        d.scope.extend(predicate_scopes(&step, lex));
        d.when = Some(act);
        d.require = Some(step);
        d.order = Some(Order::Before);
    }
}

/// Whether a command leaf of a predicate matches one of the sample
/// commands (`gh pr review --approve` for `^gh pr review\b.*--approve`).
fn names_a_sample(leaf: &Predicate, cmds: &[String]) -> bool {
    let re = match leaf {
        Predicate::CommandRe(r) => regex::Regex::new(r).ok(),
        Predicate::Command(g) => {
            let body: Vec<String> = g.split('*').map(regex::escape).collect();
            regex::Regex::new(&format!("^{}", body.join(".*"))).ok()
        }
        Predicate::Git { subcommand, .. } => {
            regex::Regex::new(&format!(r"^git {}\b", regex::escape(subcommand))).ok()
        }
        _ => None,
    };
    re.is_some_and(|re| cmds.iter().any(|c| re.is_match(c)))
}

/// The act a step of a procedure requires: its `require`, or where a case
/// kept it unset ("If confirmed: 1. Run `git push`"), the act its own words
/// run. Steps that forbid, wait on a trigger or speak have none.
fn step_act(d: &Draft, lex: &Lexicon) -> Option<Predicate> {
    // ("If approved:" / "1. Run `git push`": a step gated on the user's
    // word by its lead-in still runs its act; a rule that asks for the
    // word itself is a gate of its own.)
    if d.require == Some(Predicate::UserTurn) && d.forbid.is_none() && !mentions_consent(&d.text) {
        return d.when.clone();
    }
    if d.forbid.is_some() || d.when.is_some() || d.modality != Modality::Must {
        return None;
    }
    if let Some(r) = &d.require {
        return Some(r.clone());
    }
    // ("**Create** -- Run `gh pr create`": the step's name, then its act.)
    let text = [" -- ", " \u{2014} ", " - ", ": "]
        .iter()
        .find_map(|sep| {
            let i = find_outside_code(&d.text, sep)?;
            (d.text[..i].split_whitespace().count() <= 3).then(|| &d.text[i + sep.len()..])
        })
        .unwrap_or(&d.text);
    let w = words(&mask(text).0);
    let first = w.iter().find(|x| !x.barrier)?;
    if !matches!(first.text.as_str(), "run" | "execute" | "invoke" | "call") {
        return None;
    }
    clause_info(text, lex).behavior(true)
}

/// A step of a numbered procedure that only looks at the repository ("Check
/// for uncommitted changes" under "### 1. Verify state", "Inspect the staged
/// changes" under "### 3. Commit") is due before the first scoped act its
/// own step or a later sibling step names ("### 3. Commit", "### 4. Push"):
/// `when` that act, `order: before`, and the act's scope — a look that
/// guards a commit. Steps with a trigger of their own keep it.
pub(super) fn look_ups_before_the_next_act(drafts: &mut [Draft], blocks: &[Block], lex: &Lexicon) {
    let headings = headings_with_text(blocks);
    // (An act a step forbids — "Never use `git add -A`" — is not its act.)
    let scoped_act = |text: &str| {
        text.split(". ")
            .filter(|s| !negation(&words(&mask(s).0)).0)
            .find_map(|s| {
                clause_info(s, lex)
                    .behavior(true)
                    .filter(|p| !predicate_scopes(p, lex).is_empty())
            })
    };
    // Where a rule of the step already acts ("Push the branch", then "View
    // the pull request"), the look-ups after it check its result.
    let acting: Vec<u32> = drafts
        .iter()
        .filter(|d| d.when.is_none() && d.require.is_some() && !d.scope.is_empty())
        .map(|d| d.lines[0])
        .collect();
    // The scoped acts the rules require, in document order: where no step
    // structure says which act a look-up precedes, the next one does.
    // (A dispatched agent acts too: "1. Get git SHAs" before "2. Dispatch
    // the code reviewer subagent", "Verify the fixes don't conflict" after
    // the agents ran.)
    let later_acts: Vec<(u32, Predicate)> = drafts
        .iter()
        .filter(|d| d.when.is_none() && d.forbid.is_none())
        .filter_map(|d| {
            let r = d.require.as_ref()?;
            let scoped = !predicate_scopes(r, lex).is_empty();
            let dispatch = matches!(r, Predicate::Subagent(_));
            ((scoped || dispatch) && !looks_at_the_repository(r, true))
                .then(|| (d.lines[0], r.clone()))
        })
        .collect();
    for d in drafts.iter_mut() {
        // "3) Confirm base branch exists and is up to date." before "5)
        // Create branch/worktree": a look at the repository's state, in
        // words only, guards the act (its scope; no predicate to order).
        if d.when.is_none()
            && d.require.is_none()
            && d.forbid.is_none()
            && d.scope.is_empty()
            && checks_repository_state(&d.text)
        {
            if let Some(act) = next_step_act(blocks, d.lines[0], &scoped_act, lex) {
                d.scope.extend(predicate_scopes(&act, lex));
            }
            continue;
        }
        if d.when.is_some() || d.forbid.is_some() {
            continue;
        }
        let Some(r) = d.require.as_ref() else {
            continue;
        };
        // A written-out `git log …` / `git show …` reads history: a look
        // that guards what goes into a commit or a pull request
        // ("`git log --oneline -20` — the repository's conventions"), not
        // the review of a tag's commits or a check after a merge.
        let history_only = !looks_at_the_repository(r, false) && writes_out_a_history_read(r);
        let look = looks_at_the_repository(r, false) || history_only;
        // Any other step of the procedure that acts on nothing shared ("2.
        // Run the tests" before "3. Merge the PR") is due before the act of
        // its own or the next step too — not before whatever act the
        // document names next.
        let step = !look && predicate_scopes(r, lex).is_empty();
        if !look && !step {
            continue;
        }
        let fits = |act: &Predicate| !history_only || commits_or_opens_a_pr(act);
        // "2. Verify publication with `gh release view`" after "1. Create
        // the release": a verification checks what the step before it did
        // — `when` that act, `after` — where no heading lies between.
        if verifies(&d.text) {
            let since = headings
                .iter()
                .rev()
                .find(|(l, _, _)| *l <= d.lines[0])
                .map_or(0, |(l, _, _)| *l);
            if let Some((_, act)) = later_acts
                .iter()
                .rev()
                .find(|(l, _)| since < *l && *l < d.lines[0])
            {
                // (It gates nothing: the act's scope is not its own.)
                d.when = Some(act.clone());
                d.order = Some(Order::After);
                continue;
            }
        }
        if let Some(act) = next_step_act(blocks, d.lines[0], &scoped_act, lex).filter(fits) {
            // (A look guards the act; another step orders it: SPEC §4
            // tags a rule that orders a scoped act, so both take its
            // scope.)
            d.scope.extend(predicate_scopes(&act, lex));
            d.when = Some(act);
            d.order = Some(Order::Before);
            continue;
        }
        // (A step heading over its block is its own section.)
        let Some(own) = headings.iter().rposition(|(l, _, _)| *l <= d.lines[0]) else {
            continue;
        };
        let start = headings[own].0;
        if acting.iter().any(|l| start < *l && *l < d.lines[0]) {
            continue;
        }
        // (A bullet of a list of rules — "- Always sign your commits with
        // `-S`." then "- Tag releases with `git tag -a`" — is no step
        // before the next: only a look guards whatever act comes next.)
        if step && in_a_list_of_rules(blocks, d.lines[0]) && states_a_standing_rule(&d.text) {
            continue;
        }
        let level = headings[own].1;
        // (Later sections are later steps only where the headings number
        // them: "## Hook Detection" then "## Merging" are topics.)
        let procedure = numbered_heading(headings[own].2);
        let act = std::iter::once(&headings[own])
            .chain(
                headings[own + 1..]
                    .iter()
                    .take_while(|(_, l, _)| *l >= level)
                    .filter(|(_, l, t)| *l == level && procedure && numbered_heading(t)),
            )
            // (Not a step taken only in a case: "### 5. Update Branch if
            // Behind".)
            .filter(|(_, _, text)| {
                !words(text)
                    .iter()
                    .any(|w| matches!(w.text.as_str(), "if" | "unless" | "when"))
            })
            .find_map(|&(line, level, text)| {
                scoped_act(text).or_else(|| section_opening_acts(blocks, line, level, lex))
            });
        // (A step that only prepares — "**1. Get git SHAs:**" over its
        // block — comes before the next act its own section requires:
        // "**2. Dispatch code reviewer subagent:**".)
        let section_end = headings[own + 1..]
            .iter()
            .find(|(_, l, _)| *l <= level)
            .map_or(u32::MAX, |(l, _, _)| *l);
        // (Not an act of its own kind: a dispatch restated is no later
        // step of the dispatch.)
        let own_dispatch = matches!(r, Predicate::Subagent(_));
        // (Where only the document's order names the act, a step is not
        // known to order it: only a look takes its scope.)
        let by_structure = act.is_some();
        let act = act.or_else(|| {
            later_acts
                .iter()
                .find(|(l, a)| {
                    *l > d.lines[1]
                        && (look || *l < section_end)
                        && !(own_dispatch && matches!(a, Predicate::Subagent(_)))
                })
                .map(|(_, a)| a.clone())
        });
        if let Some(act) = act.filter(fits) {
            if look || by_structure {
                d.scope.extend(predicate_scopes(&act, lex));
            }
            d.when = Some(act);
            d.order = Some(Order::Before);
        }
    }
}

/// "Always sign your commits …", "Never …": a rule that holds throughout,
/// no step of a procedure.
fn states_a_standing_rule(text: &str) -> bool {
    let w = words(&mask(&strip_emphasis(text)).0);
    w.iter()
        .find(|x| !x.barrier)
        .is_some_and(|x| matches!(x.text.as_str(), "always" | "never" | "must"))
}

/// Whether a line sits in a bullet of an unordered list at the top level,
/// with no numbered step around it: a list of rules, not of steps.
fn in_a_list_of_rules(blocks: &[Block], line: u32) -> bool {
    blocks.iter().any(|b| {
        matches!(b, Block::Item { body, ordered: false, indent: 0, .. }
            if body.first_line() <= line && line <= body.last_line())
    })
}

/// "### 2. Push", "## Phase 1 — Plan", "Step 3: Merge": a heading that
/// numbers a step of a procedure.
fn numbered_heading(t: &str) -> bool {
    let w = words(&strip_emphasis(t));
    heading_number(&w) > 0
        && w.iter()
            .take(2)
            .any(|x| !x.text.is_empty() && x.text.chars().all(|c| c.is_ascii_digit()))
}

/// A step that confirms a result ("Verify publication with …", "Confirm
/// the tag is on the remote"): its verb first, after any numbering.
fn verifies(text: &str) -> bool {
    let w = words(&mask(&strip_emphasis(text)).0);
    w.iter()
        .find(|x| !x.barrier && !x.text.chars().all(|c| c.is_ascii_digit()))
        .is_some_and(|x| {
            matches!(
                x.text.as_str(),
                "verify" | "confirm" | "validate" | "double-check"
            )
        })
}

/// "### Step 3: Execute Update" over "#### Option A: Rebase" / `git rebase
/// origin/main` and "#### Option B: Merge" / `git merge origin/main`: the
/// scoped acts the first shell block of the section, and of each of its
/// subsections, runs — what the step does, whichever option is taken.
/// (Later blocks of a subsection follow its first: "If successful:" /
/// `git push`.)
fn section_opening_acts(
    blocks: &[Block],
    heading: u32,
    level: usize,
    lex: &Lexicon,
) -> Option<Predicate> {
    let at = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { line, .. } if *line == heading))?;
    let mut acts: Vec<Predicate> = Vec::new();
    let mut opened = false;
    // (A block handed on "DO NOT RUN IT" is no step of the section.)
    let mut barred = false;
    for b in &blocks[at + 1..] {
        match b {
            Block::Heading { level: l, .. } if *l <= level => break,
            Block::Heading { .. } => opened = false,
            Block::Para(body) => barred = forbids_running(&body.text),
            Block::Fence { lang, lines, .. } if !opened => {
                if !is_shell(lang) || std::mem::take(&mut barred) {
                    continue;
                }
                opened = true;
                for p in fence_commands(lines, lang, lex) {
                    let p = generic_act(p);
                    if !predicate_scopes(&p, lex).is_empty() && !acts.contains(&p) {
                        acts.push(p);
                    }
                }
            }
            _ => {}
        }
    }
    match acts.len() {
        0 => None,
        1 => acts.pop(),
        _ => Some(Predicate::Any(acts)),
    }
}

/// Where `line` is in a numbered step ("1. **Establish repo state.** `git
/// status` …"), the scoped act the first later step names in its opening
/// sentence ("5. **Commit + push.** …").
fn next_step_act(
    blocks: &[Block],
    line: u32,
    scoped_act: &impl Fn(&str) -> Option<Predicate>,
    lex: &Lexicon,
) -> Option<Predicate> {
    let mut at = blocks.iter().position(|b| {
        matches!(b, Block::Item { body, .. }
            if body.first_line() <= line && line <= body.last_line())
    })?;
    // A bullet under a numbered step ("1. **Collect the history**:" /
    // "- Run `git log …`") belongs to that step.
    if let Block::Item {
        ordered: false,
        indent,
        ..
    } = &blocks[at]
    {
        let inner = *indent;
        at = (0..at).rev().find_map(|i| match &blocks[i] {
            Block::Item {
                ordered: true,
                indent,
                ..
            } if *indent < inner => Some(Some(i)),
            Block::Item { indent, .. } if *indent >= inner => None,
            Block::Item { .. } | Block::Heading { .. } => Some(None),
            _ => None,
        })??;
    }
    let Block::Item { indent: own, .. } = &blocks[at] else {
        return None;
    };
    // Inside a later step ("2. **Make the checkout**:" over its block).
    let mut later = false;
    for b in &blocks[at + 1..] {
        match b {
            Block::Fence { lang, lines, .. } if later && is_shell(lang) => {
                let acts: Vec<Predicate> = fence_commands(lines, lang, lex)
                    .into_iter()
                    .map(generic_act)
                    .filter(|p| !predicate_scopes(p, lex).is_empty())
                    .collect();
                if let Some(act) = any_of(acts) {
                    return Some(act);
                }
            }
            Block::Item {
                body,
                indent,
                ordered,
                ..
            } if indent == own => {
                if !ordered {
                    return None;
                }
                later = true;
                // Its title and first sentence ("**Record.** Commit the
                // staged changes.").
                let opening = strip_emphasis(&body.text);
                let opening: Vec<&str> = opening.split(". ").take(2).collect();
                if let Some(act) = scoped_act(&opening.join(". ")) {
                    return Some(act);
                }
            }
            Block::Item { indent, .. } if indent > own => {}
            Block::Heading { .. } => return None,
            Block::Item { .. } => return None,
            _ => {}
        }
    }
    None
}

/// Reads of the repository and its host: status, diffs, the branch, the
/// pull request and its checks, a sweep for secrets, and with `history` the
/// log ("recent commits" explore the project; they guard no commit).
pub(super) fn looks_at_the_repository(p: &Predicate, history: bool) -> bool {
    let mut leaves = 0;
    let mut looks = true;
    p.for_each_node(&mut |q| match q {
        Predicate::Any(_) => {}
        Predicate::Git { subcommand, args } => {
            leaves += 1;
            looks &= matches!(
                subcommand.as_str(),
                "status" | "diff" | "rev-parse" | "fetch" | "describe"
            ) || (history && matches!(subcommand.as_str(), "log" | "show" | "blame"))
                || (subcommand == "branch" && args.is_empty())
                || (subcommand == "remote" && args.iter().all(|a| a == "-v"));
        }
        // Path arithmetic beside the look (`REPO_NAME=$(basename …)`):
        // neither a look nor an act.
        Predicate::Command(c)
            if ["basename ", "dirname ", "pwd", "realpath "]
                .iter()
                .any(|h| c.starts_with(h)) => {}
        Predicate::CommandRe(c) | Predicate::Command(c) => {
            leaves += 1;
            let c = c.trim_start_matches('^');
            looks &= (history && (c.starts_with("git log") || c.starts_with("git show")))
                || [
                    "git diff",
                    "git status",
                    "gh pr view",
                    "gh (pr checks",
                    "gh pr checks",
                    "gh pr list",
                    "gh pr diff",
                    "gh pr status",
                    "gh run view",
                    "gh run list",
                    "gh api repos/",
                    "git fetch",
                    "git rev-list",
                    "git ls-remote",
                    "git (rev-parse",
                    "git check-ignore",
                    "git remote -v",
                    "git remote get-url",
                    "git remote show",
                    "git worktree list",
                    "git branch --show-current",
                    "git tag -l",
                    "git tag --list",
                    "git config --get",
                    "gh release view",
                    "gh release list",
                    "gh issue view",
                    "gh repo view",
                    "ls ",
                    "(git grep|grep|rg",
                ]
                .iter()
                .any(|l| c.starts_with(l));
        }
        _ => {
            leaves += 1;
            looks = false;
        }
    });
    looks && leaves > 0
}

/// Every leaf a written-out `git log …` or `git show …` command.
fn writes_out_a_history_read(p: &Predicate) -> bool {
    let history = |q: &Predicate| match q {
        Predicate::Command(c) | Predicate::CommandRe(c) => {
            let c = c.trim_start_matches('^');
            c.starts_with("git log") || c.starts_with("git show")
        }
        _ => false,
    };
    // Only `any` of such commands: no other kind of node.
    p.any_node(&history) && !p.any_node(&|q| !matches!(q, Predicate::Any(_)) && !history(q))
}

/// Some leaf of `p` is a commit or opens a pull request.
fn commits_or_opens_a_pr(p: &Predicate) -> bool {
    p.any_node(&|q| match q {
        Predicate::Git { subcommand, .. } => subcommand == "commit",
        Predicate::Command(c) | Predicate::CommandRe(c) => {
            let c = c.trim_start_matches('^');
            c.starts_with("git commit") || c.starts_with("gh pr create")
        }
        _ => false,
    })
}

/// The act a written-out command performs, whatever its arguments:
/// `git commit -am "release $V"` is a commit, `gh release create v1 …` a
/// release.
fn generic_act(p: Predicate) -> Predicate {
    let Predicate::Command(c) = &p else {
        return p;
    };
    let w: Vec<&str> = c.split_whitespace().collect();
    let plain = |s: &&str| s.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    match w.as_slice() {
        // `git worktree add …`, `git stash drop`: the act is the pair.
        ["git", sub @ ("worktree" | "stash" | "remote" | "submodule"), act, ..] if plain(act) => {
            Predicate::Command(format!("git {sub} {act}*"))
        }
        ["git", sub, ..] if plain(sub) => Predicate::Git {
            subcommand: sub.to_string(),
            args: Vec::new(),
        },
        [tool @ ("gh" | "glab"), noun, verb, ..] if plain(noun) && plain(verb) => {
            Predicate::Command(format!("{tool} {noun} {verb}*"))
        }
        // `twine upload dist/*`, `npm publish --access public`: the
        // program's subcommand, whatever paths or options it is given
        // (`npm version minor` keeps its word).
        [prog, sub, rest @ ..]
            if plain(prog)
                && plain(sub)
                && !sub.starts_with('-')
                && rest
                    .iter()
                    .any(|t| !t.chars().all(|c| c.is_ascii_lowercase() || c == '*')) =>
        {
            Predicate::Command(format!("{prog} {sub}*"))
        }
        _ => p,
    }
}

/// "Ask the user if they want to push the commit and tag" (one question
/// for the batch) and "Always ask before pushing": the skill's own step
/// says how consent is taken, so the summary's gate on the same git act
/// takes one consent per batch too (`before`, not `before-each`).
pub(super) fn one_question_per_batch(drafts: &mut [Draft]) {
    fn git_subcommands(p: &Predicate, out: &mut BTreeSet<String>) {
        p.for_each_node(&mut |q| {
            if let Predicate::Git { subcommand, .. } = q {
                out.insert(subcommand.clone());
            }
        });
    }
    let gate = |d: &Draft| d.require == Some(Predicate::UserTurn);
    let mut batched = BTreeSet::new();
    for d in drafts
        .iter()
        .filter(|d| gate(d) && d.order == Some(Order::Before))
    {
        if let Some(w) = &d.when {
            git_subcommands(w, &mut batched);
        }
    }
    for d in drafts
        .iter_mut()
        .filter(|d| gate(d) && d.order == Some(Order::BeforeEach))
    {
        let mut subs = BTreeSet::new();
        if let Some(w) = &d.when {
            git_subcommands(w, &mut subs);
        }
        if !subs.is_empty() && subs.is_subset(&batched) {
            d.order = Some(Order::Before);
        }
    }
}

/// "Read the relevant files", "Search the codebase for similar code": a look
/// at the project's files with no trigger of its own is due before the
/// work's first change (`when` the work's edits, `order: before`), never
/// from the skill load — a session that only answered a question owes none.
pub(super) fn file_looks_before_the_work(drafts: &mut [Draft], lex: &Lexicon) {
    let looks = |p: &Predicate| {
        let mut leaves = 0;
        let mut only_looks = true;
        p.for_each_node(&mut |q| match q {
            Predicate::Any(_) => {}
            Predicate::Read(_) => leaves += 1,
            Predicate::Tool(t) => {
                leaves += 1;
                only_looks &= matches!(t.as_str(), "Grep" | "Glob" | "Read" | "LS");
            }
            Predicate::CommandRe(c) => {
                leaves += 1;
                only_looks &= c.starts_with("^(rg|grep|find|ls");
            }
            _ => {
                leaves += 1;
                only_looks = false;
            }
        });
        only_looks && leaves > 0
    };
    for d in drafts.iter_mut() {
        if d.when.is_none()
            && d.forbid.is_none()
            && d.scope.is_empty()
            && d.require.as_ref().is_some_and(looks)
        {
            d.when = Some(start_of_work(lex, None));
            d.order = Some(Order::Before);
        }
    }
}

/// A scope-tagged `require` with no `when` would fire at the skill load, so
/// a session that only looked around (read files, asked a question) would
/// block for not committing, pushing or setting up a worktree. Such a rule
/// is judged in sessions that changed files: `when` any write or edit, the
/// requirement anywhere in scope.
pub(super) fn judged_where_work_was_done(d: &mut Draft) {
    if d.require.is_none() || d.when.is_some() {
        return;
    }
    if !d.scope.is_empty() {
        d.when = Some(Predicate::Any(vec![
            Predicate::Write("**".into()),
            Predicate::Edit("**".into()),
        ]));
        d.order = Some(Order::Anywhere);
        return;
    }
    // Any other step with no trigger of its own ("Run `make lint`",
    // "Update `docs/RELEASES.md`") is due in a session that did work —
    // changed a file or handed work to a subagent — not in one that only
    // loaded the skill and looked around. Rules that say they hold from
    // the start ("first", "at start", "always", "before any …") keep the
    // load.
    // ("ALWAYS Run Tests", "Always run the linter": a check of the work,
    // always due after it — "always" says how often, not from when.)
    let always_checks = d.require.as_ref().is_some_and(runs_checks)
        && !holds_from_the_start(&d.text.to_lowercase().replace("always", ""));
    if !holds_from_the_start(&d.text) || always_checks {
        d.when = Some(Predicate::Any(vec![
            Predicate::Write("**".into()),
            Predicate::Edit("**".into()),
            Predicate::Subagent("*".into()),
        ]));
        d.order = Some(Order::Anywhere);
    }
}

/// Whether a predicate runs the project's checks: its tests, linter, type
/// checker or build (`just test`, `npm run lint`, the test-runner pattern).
fn runs_checks(p: &Predicate) -> bool {
    let check = |t: &str| {
        matches!(
            t,
            "test" | "tests" | "lint" | "check" | "typecheck" | "build" | "verify" | "ci"
        )
    };
    p.any_node(&|n| match n {
        Predicate::Command(g) => g
            .split(|c: char| c.is_whitespace() || c == ':' || c == '*')
            .skip(1)
            .take(2)
            .any(check),
        Predicate::CommandRe(r) => r.contains("pytest") || r.contains("|lint"),
        _ => false,
    })
}

/// The files the skill exists to change, where they are the agent's own
/// configuration or memory ("Update CLAUDE.md with learnings"): the
/// description's writes that carry a scope.
pub(super) fn subject_writes(description: &str, lex: &Lexicon) -> Option<Predicate> {
    let writes: Vec<Predicate> = clause_info(description, lex)
        .actions
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| {
            let mut writes = true;
            p.for_each_node(&mut |q| {
                writes &= matches!(
                    q,
                    Predicate::Any(_)
                        | Predicate::Write(_)
                        | Predicate::Edit(_)
                        | Predicate::Touch(_)
                );
            });
            writes && !predicate_scopes(p, lex).is_empty()
        })
        .collect();
    any_of(writes)
}

/// "Confirm with user before creating", "Ask the user before
/// publishing": consent asked before a verb with no object, in a skill
/// whose description names that act ("Create a pull request via `gh`"):
/// the skill's own act waits on the user's word (SPEC §4.2).
pub(super) fn consent_before_the_subject_act(drafts: &mut [Draft], subject: &[SubjectAct]) {
    for d in drafts.iter_mut() {
        if d.when.is_some() || d.require.is_some() || d.forbid.is_some() {
            continue;
        }
        let w: Vec<String> = plain_words(&strip_emphasis(&d.text));
        let Some(at) = w.iter().rposition(|x| x == "before") else {
            continue;
        };
        // The gerund ends the sentence, or only "it" / "them" follows.
        let tail = &w[at + 1..];
        let gerund = match tail {
            [g] | [g, _]
                if g.ends_with("ing") && tail.get(1).is_none_or(|o| o == "it" || o == "them") =>
            {
                g
            }
            _ => continue,
        };
        let head = &w[..at];
        let asks = head
            .first()
            .is_some_and(|v| matches!(v.as_str(), "confirm" | "ask" | "check"))
            && head
                .iter()
                .any(|x| matches!(x.as_str(), "user" | "users" | "them" | "human" | "partner"));
        let approval = head.iter().any(|x| {
            x.starts_with("approv")
                || x.starts_with("consent")
                || x.starts_with("permission")
                || x == "confirmation"
        });
        if !(asks || approval) {
            continue;
        }
        if let Some((act, scope)) = subject.iter().find_map(|a| a.act_of(gerund)) {
            d.scope.extend(scope.iter().cloned());
            consent_gate(d, act.clone(), true);
        }
    }
}

/// In a skill that exists to change such files, a consent gate on "the
/// changes" or "files" ("Ask if the user wants to apply the changes",
/// "Only edit files they approve") guards those files: the gate's
/// trigger is their writes, and it carries their scope.
pub(super) fn consent_on_the_subject(drafts: &mut [Draft], subject: &Predicate, lex: &Lexicon) {
    let any_edit = Predicate::Any(vec![
        Predicate::Write("**".into()),
        Predicate::Edit("**".into()),
    ]);
    // "Iterate until the user confirms", read as due before the first
    // change to the code: in such a skill, the change is to those files.
    let work = [start_of_work(lex, None), work_edits(lex)];
    for d in drafts.iter_mut() {
        let gate = d.require == Some(Predicate::UserTurn)
            && (d.when.as_ref() == Some(&any_edit)
                || d.when.as_ref().is_some_and(|w| work.contains(w)));
        // "After showing the plan, wait for the user's approval", where no
        // later step runs a command: what waits is the change to the files.
        let waits = d.awaits && d.when.is_none() && d.require.is_none() && d.forbid.is_none();
        if gate || waits {
            d.scope.extend(predicate_scopes(subject, lex));
            let order = d.order;
            consent_gate(d, subject.clone(), false);
            if gate {
                d.order = order;
            }
        }
    }
}

/// A step that checks the repository's state in words ("Confirm base
/// branch exists and is up to date", "Verify the working tree is clean").
fn checks_repository_state(text: &str) -> bool {
    let w = words(&mask(text).0);
    let verb = w.iter().find(|x| !x.barrier).map(|x| x.text.as_str());
    matches!(
        verb,
        Some("confirm" | "check" | "verify" | "ensure" | "inspect" | "make")
    ) && w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "branch"
                | "branches"
                | "remote"
                | "upstream"
                | "status"
                | "tree"
                | "worktree"
                | "uncommitted"
                | "staged"
                | "merged"
                | "tag"
                | "tags"
        )
    })
}

/// "Tags must follow semantic versioning: `v<major>.<minor>.<patch>`",
/// "The version must be in format `vX.Y.Z`": a tag created under another
/// name breaks the rule (a `v` prefix where the format shows one). Only
/// rules that name a tag, or a version in a written-out format, and have
/// no behavior of their own.
pub(super) fn tag_name_format(drafts: &mut [Draft]) {
    for d in drafts.iter_mut() {
        if d.when.is_some() || d.require.is_some() || d.forbid.is_some() {
            continue;
        }
        if matches!(d.modality, Modality::Should | Modality::ShouldNot) {
            continue;
        }
        let Some(v) = semver_format(&d.text) else {
            continue;
        };
        let prefix = if v { "v" } else { "v?" };
        let flags = r"(\s+-(a|s|f|-annotate|-sign|-force))*";
        d.forbid = Some(Predicate::All(vec![
            Predicate::CommandRe(format!(r"^git tag\b{flags}\s+[^-\s]")),
            Predicate::Not(Box::new(Predicate::CommandRe(format!(
                r"^git tag\b{flags}\s+{prefix}[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?(\s|$)"
            )))),
        ]));
        d.scope.insert(ScopeTag::SharedRepoState);
    }
}

/// "Always create the release as a draft", "Open the PR as a draft": the
/// act made without `--draft` breaks the rule. "Tags must be annotated",
/// "Never create lightweight tags": a tag made with a name and no flag
/// (`git tag v1.2.0`) breaks it. Only rules with no condition of their
/// own; what they required or triggered on is replaced by the form.
pub(super) fn required_forms(drafts: &mut [Draft]) {
    for d in drafts.iter_mut() {
        if opening_condition(&d.text).is_some() || states_a_goal(&d.text) {
            continue;
        }
        let w = plain_words(&d.text);
        // (The form's word over the act's: "Never create lightweight tags"
        // forbids those, not every tag.)
        if d.forbid.is_some() && !w.iter().any(|x| x == "lightweight") {
            continue;
        }
        let has = |x: &str| w.iter().any(|y| y == x);
        let negative = matches!(d.modality, Modality::MustNot | Modality::ShouldNot);
        let tags = has("tag") || has("tags");
        let form = if !negative && (has("draft") || has("drafts")) {
            let pr = has("pr")
                || has("prs")
                || w.windows(2).any(|p| p[0] == "pull" && p[1] == "request");
            let release = has("release") || has("releases");
            let kind = match (pr, release) {
                (true, false) => "pr",
                (false, true) => "release",
                _ => continue,
            };
            // ("Draft the release notes": the notes are written, no draft
            // is made — the word must be the form, "as a draft", "a draft
            // PR".)
            // ("Always create draft PRs", "Default to draft PR": the word
            // before the noun, with an act that makes one — not "Review the
            // draft PR".)
            let as_form = w.windows(2).any(|p| {
                matches!(p[0].as_str(), "as" | "a") && matches!(p[1].as_str(), "draft" | "drafts")
            }) || (w.windows(2).any(|p| {
                matches!(p[0].as_str(), "draft" | "drafts")
                    && matches!(
                        p[1].as_str(),
                        "pr" | "prs" | "pull" | "release" | "releases"
                    )
            }) && w.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "create"
                        | "creates"
                        | "creating"
                        | "open"
                        | "opens"
                        | "opening"
                        | "raise"
                        | "submit"
                        | "default"
                        | "make"
                )
            }));
            if !as_form {
                continue;
            }
            Predicate::All(vec![
                Predicate::CommandRe(format!(r"^gh {kind} create\b")),
                Predicate::Not(Box::new(Predicate::CommandRe(r"\s(--draft|-d)\b".into()))),
            ])
        } else if tags
            && ((!negative && annotated_policy(&w, d.modality)) || (negative && has("lightweight")))
        {
            Predicate::CommandRe(r"^git tag\s+[^-\s]\S*(\s+[^-\s]\S*)?\s*$".into())
        } else {
            continue;
        };
        d.forbid = Some(form);
        d.require = None;
        d.when = None;
        d.order = None;
        d.scope.insert(ScopeTag::SharedRepoState);
    }
}

/// "Tags must be annotated", "Use annotated tags", "Always create an
/// annotated tag": a policy on every tag. Not a step ("Create the
/// annotated tag"), a preference ("Prefer annotated tags for …"), a label
/// ("Only annotated tags: …") or an aside ("an annotated tag is awkward to
/// correct").
fn annotated_policy(w: &[String], modality: Modality) -> bool {
    let has = |x: &str| w.iter().any(|y| y == x);
    if !matches!(modality, Modality::Must) || has("prefer") || has("only") {
        return false;
    }
    let be = w.windows(2).any(|p| p[0] == "be" && p[1] == "annotated");
    let chosen = w.iter().position(|x| x == "annotated").is_some_and(|i| {
        w[..i]
            .iter()
            .rev()
            .take(3)
            .any(|x| matches!(x.as_str(), "use" | "always" | "create" | "make"))
            && w[..i].last().is_none_or(|x| x != "the")
    });
    be || chosen
}

/// Whether a rule states a semantic-version format for tags: `Some(true)`
/// where the format carries a `v` prefix, `Some(false)` where it does not
/// say.
pub(super) fn semver_format(text: &str) -> Option<bool> {
    let lower = text.to_lowercase();
    let w = plain_words(text);
    let names_version = w
        .iter()
        .any(|x| matches!(x.as_str(), "version" | "versions"));
    let semver = lower.contains("semver") || lower.contains("semantic version");
    // A written-out format: `vX.Y.Z`, `v<major>.<minor>.<patch>` (an
    // example, `v1.2.3`, shows one name, not the rule).
    let spans: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
    let format = spans.iter().find(|s| {
        let t = s.trim().trim_start_matches(['v', 'V']);
        let parts: Vec<&str> = t.split('.').collect();
        parts.len() == 3
            && parts.iter().all(|p| {
                matches!(*p, "X" | "Y" | "Z" | "x" | "y" | "z")
                    || (p.len() > 2 && p.starts_with('<') && p.ends_with('>'))
            })
    });
    // (What the user provides is theirs to get right: "The user must
    // provide a version tag in the format `vX.Y.Z`".)
    let users = w.iter().any(|x| matches!(x.as_str(), "user" | "users"));
    // (Semver named in passing — "plus `:latest` if this is the highest
    // semver" — is no rule on names: the tags must be what the rule is
    // about, its subject.)
    let about_tags = w
        .iter()
        .take(3)
        .any(|x| matches!(x.as_str(), "tag" | "tags"));
    if users || !(about_tags && (semver || format.is_some()) || names_version && format.is_some()) {
        return None;
    }
    let v = format.is_some_and(|f| f.trim().starts_with(['v', 'V']))
        || lower.contains("'v' prefix")
        || lower.contains("`v` prefix")
        || lower.contains("v prefix")
        || lower.contains("v-prefix")
        || lower.contains("leading v");
    Some(v)
}

/// "Use descriptive names with the following prefixes:" over "- `feature/`:
/// …", "- `fix/`: …" in a section on branches: a new branch's name takes
/// one of the prefixes — creating a branch outside them breaks the rule.
pub(super) fn branch_name_prefixes(drafts: &mut Vec<Draft>, blocks: &[Block]) {
    let mut lists: Vec<[u32; 2]> = Vec::new();
    for d in drafts.iter_mut() {
        // ("Pick a prefix for the new branch: `feat/`, `fix/`": the prefixes
        // are the rule, not the creation the words name.)
        let inline = d
            .text
            .split('`')
            .skip(1)
            .step_by(2)
            .filter_map(branch_prefix)
            .count();
        if d.behavior_is_set() && inline < 2
            || !mentions_prefixes(&d.text) && !names_follow(&d.text)
        {
            continue;
        }
        let heading = blocks
            .iter()
            .rev()
            .find_map(|b| match b {
                Block::Heading { line, text, .. } if *line < d.lines[0] => Some(text.as_str()),
                _ => None,
            })
            .unwrap_or("");
        let on_branches = |t: &str| {
            words(t)
                .iter()
                .any(|w| matches!(w.text.as_str(), "branch" | "branches"))
        };
        if !on_branches(&d.text) && !on_branches(heading) {
            continue;
        }
        let Some(at) = blocks.iter().position(|b| match b {
            Block::Para(l) | Block::Item { body: l, .. } => {
                l.last_line() >= d.lines[1] && l.first_line() <= d.lines[1]
            }
            _ => false,
        }) else {
            continue;
        };
        // "Choose a prefix: `feat/`, `fix/`, `docs/`": in the rule's own
        // words, every span a prefix.
        let spans: Vec<&str> = d.text.split('`').skip(1).step_by(2).collect();
        let mut prefixes: Vec<String> = spans.iter().filter_map(|p| branch_prefix(p)).collect();
        if prefixes.len() != spans.len() {
            prefixes.clear();
        }
        let mut last = d.lines[1];
        // (Or the items under it: "`feat/<scope>-<name>` — …".)
        let items = if prefixes.is_empty() {
            &blocks[at + 1..]
        } else {
            &[]
        };
        for b in items {
            match b {
                Block::Blank => {}
                Block::Item { body, .. } => {
                    let t = body.text.trim_start();
                    let Some(rest) = t.strip_prefix('`') else {
                        break;
                    };
                    let Some(end) = rest.find('`') else { break };
                    let Some(name) = branch_prefix(&rest[..end]) else {
                        break;
                    };
                    prefixes.push(name);
                    last = body.last_line();
                }
                _ => break,
            }
        }
        if prefixes.len() < 2 {
            continue;
        }
        let create = r"^git (checkout -[bB]|switch -[cC]) ";
        d.when = None;
        d.require = None;
        d.order = None;
        d.forbid = Some(Predicate::All(vec![
            Predicate::CommandRe(format!(r"{create}\S")),
            Predicate::Not(Box::new(Predicate::CommandRe(format!(
                "{create}({})/",
                prefixes.join("|")
            )))),
        ]));
        d.scope.insert(ScopeTag::SharedRepoState);
        lists.push([d.lines[1], last]);
        d.lines[1] = last;
    }
    // The items are the rule's prefixes, not rules of their own.
    drafts.retain(|d| {
        !lists
            .iter()
            .any(|[lead, last]| d.lines[0] > *lead && d.lines[1] <= *last)
    });
}

/// "prefix", "prefixes", "prefixed" among a text's words.
fn mentions_prefixes(text: &str) -> bool {
    words(text).iter().any(|w| w.text.starts_with("prefix"))
}

/// "Names follow:", "branch names follow the pattern": a naming lead.
fn names_follow(text: &str) -> bool {
    let w = words(text);
    w.windows(2).any(|p| {
        matches!(p[0].text.as_str(), "name" | "names" | "naming")
            && matches!(
                p[1].text.as_str(),
                "follow" | "follows" | "use" | "convention"
            )
    })
}

/// The prefix a branch-name span names: `feat/`, `feat/<scope>-<name>` →
/// `feat`; `<area>/<type>` or a concrete name (`fix/login-bug`) name none.
fn branch_prefix(span: &str) -> Option<String> {
    let (name, rest) = span.split_once('/')?;
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    (ok && (rest.is_empty() || rest.starts_with('<'))).then(|| name.to_string())
}

/// "Before merging, verify all of the following:" over the section's
/// numbered checks: each check in the rest of the section guards the act
/// the lead-in names — its scope, and where it runs something and waits on
/// nothing else, `when` that act, `order: before`.
pub(super) fn checks_the_lead_in_names(drafts: &mut [Draft], blocks: &[Block], lex: &Lexicon) {
    let headings = heading_levels(blocks);
    let leads: Vec<(u32, u32, Predicate)> = drafts
        .iter()
        .filter(|d| {
            let t = d.text.trim_end();
            t.ends_with(':')
                && t.to_lowercase().contains("the following")
                && d.require.is_none()
                && d.forbid.is_none()
        })
        .filter_map(|d| {
            let act = d
                .when
                .clone()
                .filter(|w| !predicate_scopes(w, lex).is_empty())?;
            // The section the lead-in opens: up to the next heading of its
            // own level or higher.
            let own = headings.iter().rev().find(|(l, _)| *l < d.lines[0]);
            let end = match own {
                Some((_, level)) => headings
                    .iter()
                    .find(|(l, lv)| *l > d.lines[1] && lv <= level)
                    .map_or(u32::MAX, |(l, _)| *l),
                None => u32::MAX,
            };
            Some((d.lines[1], end, act))
        })
        .collect();
    for (from, to, act) in leads {
        for d in drafts
            .iter_mut()
            .filter(|d| d.lines[0] > from && d.lines[0] < to && d.scope.is_empty())
        {
            d.scope.extend(predicate_scopes(&act, lex));
            if d.when.is_none() && d.forbid.is_none() && d.require.is_some() {
                d.when = Some(act.clone());
                d.order = Some(Order::Before);
            }
        }
    }
}

/// Items under "## Non-goals" or "## Out of scope" say what the work is
/// not about; no session's action shows a goal being pursued, so they
/// stay rules (must-not) with no predicate — "Implementing domain rules
/// in the handler" forbids no edit.
pub(super) fn non_goals_forbid_nothing(drafts: &mut [Draft], blocks: &[Block]) {
    for d in drafts.iter_mut() {
        let heading = blocks
            .iter()
            .rev()
            .find_map(|b| match b {
                Block::Heading { line, text, .. } if *line <= d.lines[0] => {
                    Some(text.to_lowercase())
                }
                _ => None,
            })
            .unwrap_or_default();
        if heading.contains("non-goal")
            || heading.contains("non goal")
            || heading.contains("out of scope")
        {
            d.when = None;
            d.require = None;
            d.forbid = None;
            d.order = None;
        }
    }
}

/// The first paragraph before any section, or the first under a heading
/// that names the skill's purpose (its title, "Overview", "Purpose"): what
/// the skill is for, in its own words.
pub(super) fn opening_paragraph(blocks: &[Block]) -> Option<&Lined> {
    let mut purpose_heading = true;
    for b in blocks {
        match b {
            Block::Heading { level, text, .. } => {
                let t = text.to_lowercase();
                purpose_heading = *level <= 1
                    || ["purpose", "goal", "overview", "summary"]
                        .iter()
                        .any(|w| t.trim() == *w || t.trim().ends_with(&format!(" {w}")));
                if !purpose_heading {
                    return None;
                }
            }
            Block::Para(body) if purpose_heading => return Some(body),
            Block::Blank => {}
            _ => return None,
        }
    }
    None
}

/// The skill's opening paragraph, under its title or a "Purpose" /
/// "Goal" / "Overview" heading, restating its description ("Safely merge
/// a PR with all mandatory checks." under a description "Merge a pull
/// request safely with all required checks"): what the skill is for, not
/// a step due in every session that loads it. Its sentences that share most
/// of their words with the description keep their scope and lose their
/// predicates (a session that stops before the merge broke no rule).
pub(super) fn purpose_statement(drafts: &mut [Draft], blocks: &[Block], description: &str) {
    let content = |t: &str| -> BTreeSet<String> {
        words(&mask(&strip_emphasis(t)).0)
            .into_iter()
            .filter(|w| !w.barrier && w.text.len() > 3 && !is_filler(&w.text))
            .map(|w| {
                let t = w.text.trim_end_matches('s');
                t.strip_suffix("ly").unwrap_or(t).to_string()
            })
            .collect()
    };
    let described = content(description);
    if described.is_empty() {
        return;
    }
    let Some((first, last)) = opening_paragraph(blocks).map(|b| (b.first_line(), b.last_line()))
    else {
        return;
    };
    for d in drafts.iter_mut() {
        if d.lines[0] < first || d.lines[1] > last || d.modality != Modality::Must {
            continue;
        }
        // "You delegate tasks to specialized agents …": the opening tells
        // how the method goes, in the second person without a modal — a
        // description, not an instruction (a rule found, not checkable).
        if describes_the_method(&d.text) {
            d.when = None;
            d.require = None;
            d.forbid = None;
            d.order = None;
            continue;
        }
        let own = content(&d.text);
        let shared = own.intersection(&described).count();
        // (Most of its words: "Write tests one at a time" under "Write and
        // run tests" adds a rule of its own.)
        if own.is_empty() || shared < 2 || shared * 5 <= own.len() * 3 {
            continue;
        }
        d.when = None;
        d.require = None;
        d.forbid = None;
        d.order = None;
    }
}

/// "You write test cases, watch them fail, …": a second-person sentence
/// whose verb is not a modal, an adverb of frequency or a negation.
fn describes_the_method(text: &str) -> bool {
    let plain = strip_emphasis(text);
    let mut ws = plain.split_whitespace();
    if ws.next() != Some("You") {
        return false;
    }
    let Some(verb) = ws.next().map(|w| w.to_lowercase()) else {
        return false;
    };
    let verb = verb.trim_end_matches([',', '.', ':', ';']);
    !verb.contains('\'')
        && !matches!(
            verb,
            "must"
                | "should"
                | "need"
                | "needs"
                | "have"
                | "has"
                | "can"
                | "cannot"
                | "may"
                | "might"
                | "will"
                | "would"
                | "could"
                | "shall"
                | "are"
                | "were"
                | "do"
                | "did"
                | "never"
                | "always"
                | "only"
                | "also"
                | "then"
                | "now"
                | "first"
                | "still"
                | "ought"
                | "better"
                | "had"
                | "want"
                | "get"
        )
}

/// A list whose items are each headed by a bold case ("- **Fresh**: `git
/// worktree add …`", "- **Leftover branch** (…): …", "- **Python SDK**:
/// Fetch …"), one of them no instruction: which case applies is not
/// visible, the act is. An item's requirement with no trigger of its own
/// becomes its trigger, judged where it happened (as a decision table's
/// row under an unseen situation). Pairs within a case ("verify `git
/// status` before the checkout") keep their order.
pub(super) fn case_lists(drafts: &mut [Draft], blocks: &[Block], lex: &Lexicon) {
    // The item's case name, and whether a parenthetical says when it holds
    // ("**Leftover branch** (worktree gone, branch remains):").
    let label = |text: &str| -> Option<(String, bool)> {
        let t = text.trim_start();
        let rest = t.strip_prefix("**")?;
        let end = rest.find("**")?;
        let (name, after) = (&rest[..end], rest[end + 2..].trim_start());
        let (after, paren) = match after.strip_prefix('(') {
            Some(p) => (p.split_once(')')?.1.trim_start(), true),
            None => (after, false),
        };
        let name = name.trim().trim_end_matches(':');
        (after.starts_with(':') || rest[..end].trim_end().ends_with(':'))
            .then(|| (name.trim_matches('`').to_lowercase(), paren))
    };
    type Case = (u32, u32, (String, bool));
    let mut groups: Vec<Vec<Case>> = Vec::new();
    let mut cur: Vec<Case> = Vec::new();
    let mut indent_of: Option<usize> = None;
    let flush = |cur: &mut Vec<Case>, groups: &mut Vec<Vec<Case>>| {
        if cur.len() >= 2 {
            groups.push(std::mem::take(cur));
        } else {
            cur.clear();
        }
    };
    for b in blocks {
        match b {
            // (A numbered list is a procedure's steps, not alternatives.)
            Block::Item {
                body,
                indent,
                ordered: false,
                ..
            } => {
                if indent_of.is_some_and(|i| *indent > i) {
                    continue;
                }
                if indent_of != Some(*indent) {
                    flush(&mut cur, &mut groups);
                    indent_of = Some(*indent);
                }
                match label(&body.text) {
                    Some(name) => cur.push((body.first_line(), body.last_line(), name)),
                    // (An unlabelled item ends the run of cases.)
                    None => flush(&mut cur, &mut groups),
                }
            }
            Block::Blank => {}
            _ => {
                flush(&mut cur, &mut groups);
                indent_of = None;
            }
        }
    }
    flush(&mut cur, &mut groups);
    for g in groups {
        let instruction = |name: &str| {
            words(name)
                .first()
                .is_some_and(|w| lex.is_imperative(&w.text))
        };
        // Short names of cases ("Fresh", "Leftover branch", "Python SDK"),
        // said to be cases: a parenthetical says when one holds, or every
        // name is a kind of one thing ("Python SDK" / "TypeScript SDK").
        // (Principles and checklists — "**Output-driven**: …",
        // "**Offline-safe HTML:** …" — are rules each.)
        let last = |name: &str| name.split_whitespace().last().map(str::to_string);
        let one_kind = g
            .iter()
            .all(|(_, _, (n, _))| n.split_whitespace().count() >= 2 && last(n) == last(&g[0].2 .0));
        if g.iter().all(|(_, _, (name, _))| instruction(name))
            || g.iter()
                .any(|(_, _, (name, _))| name.split_whitespace().count() > 3)
            || !(one_kind || g.iter().any(|(_, _, (_, paren))| *paren))
        {
            continue;
        }
        for d in drafts.iter_mut() {
            let within = g
                .iter()
                .any(|(a, b, _)| *a <= d.lines[0] && d.lines[0] <= *b);
            if !within || d.when.is_some() || d.forbid.is_some() {
                continue;
            }
            if d.require
                .as_ref()
                .is_some_and(|r| *r != Predicate::UserTurn)
            {
                d.when = d.require.take();
                d.order = None;
            }
        }
    }
}

/// "Stat summary: `git diff --stat …`" in a list of looks: the command
/// is what happens in that case, not a step due from the load — its
/// requirement becomes its trigger (as a case list's item).
pub(super) fn recipes_are_cases(drafts: &mut [Draft], lex: &Lexicon) {
    for d in drafts.iter_mut() {
        if d.when.is_none() && d.forbid.is_none() && d.require.is_some() && recipe(&d.text, lex) {
            d.when = d.require.take();
            d.order = None;
        }
    }
}

/// "Do not add `Co-Authored-By` lines to commits", "No AI signature in
/// commit messages", "Never add `Co-Authored-By: …`": the trailer or signature is text the commit command
/// carries, so the commit that carries it breaks the rule. (Words inside
/// code spans count: the trailer is usually written as code.)
pub(super) fn attribution_in_commits(drafts: &mut [Draft]) {
    for d in drafts.iter_mut() {
        if d.behavior_is_set() || !matches!(d.modality, Modality::MustNot | Modality::ShouldNot) {
            continue;
        }
        let t = d.text.to_lowercase();
        let marks = [
            "co-author",
            "coauthor",
            "ai signature",
            // ("No attribution — commits read as human-authored".)
            "attribution",
            "ai-generated",
            "generated with",
            "generated by",
        ];
        // A `Co-Authored-By` trailer is a commit's, named or not ("Never
        // add `Co-Authored-By: …`"), unless the text puts it elsewhere.
        let trailer = t.contains("co-authored-by")
            && !words(&t).iter().any(|w| {
                matches!(
                    w.text.as_str(),
                    "pr" | "prs" | "pull" | "description" | "body"
                )
            });
        let commits = t.contains("commit") || trailer;
        if !commits || !marks.iter().any(|m| t.contains(m)) {
            continue;
        }
        d.forbid = Some(Predicate::CommandRe(
            // (`s`: a message written in a here-document spans lines.)
            r"(?is)^git commit\b.*(co-authored-by|generated (with|by)|\x{1F916}|\bclaude\b)".into(),
        ));
        d.scope.insert(ScopeTag::SharedRepoState);
    }
}

/// "Protected branches: `main`, `develop` — never target for deletion": a
/// protected-branch list written on one line. The names are the
/// backticked ones before the dash; the act is what the rest forbids —
/// the acts it names, on those branches; deleting them where it says so;
/// else any git state change on them, deleting or pushing them (as a
/// protected-branch list's items).
pub(super) fn protected_branches_inline(drafts: &mut [Draft]) {
    for d in drafts.iter_mut() {
        if d.require.is_some() || d.forbid.is_some() {
            continue;
        }
        let text = strip_emphasis(&d.text);
        let lower = text.to_lowercase();
        let Some(rest) = lower
            .strip_prefix("protected branches")
            .or_else(|| lower.strip_prefix("protected branch"))
        else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix(':') else {
            continue;
        };
        let Some((names_part, tail)) = rest
            .split_once(" — ")
            .or_else(|| rest.split_once(" - "))
            .or_else(|| rest.split_once("; "))
        else {
            continue;
        };
        let tw = words(tail);
        if !tw
            .iter()
            .any(|w| matches!(w.text.as_str(), "never" | "not" | "don't" | "dont" | "no"))
        {
            continue;
        }
        let names: Vec<String> = names_part
            .split('`')
            .skip(1)
            .step_by(2)
            .filter_map(branch_name)
            .collect();
        if names.is_empty() {
            continue;
        }
        let deletion = tw.iter().any(|w| {
            w.text.starts_with("delet") || w.text.starts_with("remov") || w.text == "prune"
        });
        // ("— never push or commit to it directly": the acts the rest
        // names, on those branches.)
        let act = d.when.take();
        d.forbid = Some(protected_branch_forbid(
            &names,
            act.as_ref(),
            deletion && act.is_none(),
        ));
        d.order = None;
        d.modality = Modality::MustNot;
        d.scope.insert(ScopeTag::SharedRepoState);
    }
}

/// "Always pass `--cleanup=verbatim`", "Do not retry with `--no-sign`": a
/// rule that names flags and no program is about the command its section
/// runs — the nearest one named in its own block, else before it under the
/// same heading (`git tag -a …`). A required flag forbids that command
/// without it; a forbidden flag forbids the command with it.
pub(super) fn flags_of_the_nearby_command(drafts: &mut [Draft], blocks: &[Block], lex: &Lexicon) {
    for d in drafts.iter_mut() {
        let spans: Vec<&str> = d.text.split('`').skip(1).step_by(2).collect();
        let flags: Vec<&str> = spans
            .iter()
            .copied()
            .filter(|s| s.starts_with('-') && !s.contains(char::is_whitespace) && s.len() > 1)
            .collect();
        // (A flag with its value: `--base-branch ${BASE}`.)
        let valued: Vec<&str> = spans
            .iter()
            .copied()
            .filter(|s| s.starts_with('-') && s.len() > 1)
            .collect();
        let mut distinct = spans.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if valued.len() == 1 && distinct.len() == 2 {
            if let Some(form) = flag_on_the_named_command(d, &distinct, valued[0], lex) {
                d.when = None;
                d.require = None;
                d.order = None;
                d.forbid = Some(form);
                add_predicate_scopes(d, lex);
            }
            continue;
        }
        if flags.is_empty() || flags.len() != spans.len() {
            continue;
        }
        // ("ask for confirmation before using `-D`" under `git branch -d`:
        // the consent is for that command with the flag, not for any
        // command that takes a `-D`.)
        if d.require == Some(Predicate::UserTurn)
            && flags.len() == 1
            && d.when.as_ref() == Some(&flag_predicate(flags[0]))
        {
            let prefix = flag_command(flags[0])
                .map(str::to_string)
                .or_else(|| nearby_command(blocks, d.lines[0], lex));
            if let Some(prefix) = prefix {
                d.when = Some(Predicate::CommandRe(format!(
                    r"^{}\b.*\s{}(=|\s|$)",
                    regex::escape(&prefix),
                    regex::escape(flags[0])
                )));
                add_predicate_scopes(d, lex);
            }
            continue;
        }
        // (A flag forbidden on its own — "Never use `--no-verify`" — stays
        // forbidden on every command.)
        // ("Always pass `--draft`" alone requires some command with the
        // flag: the nearby command, where there is one, says which.)
        let only_the_flag = flags.len() == 1
            && d.forbid.is_none()
            && d.require.as_ref() == Some(&flag_predicate(flags[0]));
        // ("Use `--force-with-lease`, not `--force`": the flag after "not"
        // is forbidden on its own; the command says where.)
        let forbidden_flags: Vec<&str> = flags
            .iter()
            .copied()
            .filter(|f| {
                d.forbid
                    .as_ref()
                    .is_some_and(|p| p.any_node(&|q| *q == flag_predicate(f)))
            })
            .collect();
        // (A flag forbidden alone — "Never use `--no-verify`" — stays
        // forbidden on every command.)
        let only_flags_forbidden = d.require.is_none()
            && forbidden_flags.len() < flags.len()
            && d.forbid.is_some()
            && d.forbid == any_of(forbidden_flags.iter().map(|f| flag_predicate(f)).collect());
        // ("Merge with `--no-ff` only": the act named, or the flag, was
        // required; the flag is how the act is always run. A step — "5.
        // Push to fork with `--force-with-lease`" — says how this once.)
        let w = plain_words(&d.text);
        let act_with_flag = flags.len() == 1
            && w.iter().any(|x| matches!(x.as_str(), "only" | "always"))
            && d.forbid.is_none()
            && d.when.is_none()
            && w.iter()
                .find(|v| !matches!(v.as_str(), "always" | "only"))
                .is_some_and(|v| lex.is_imperative(v))
            && w.iter().any(|x| x == "with")
            && matches!(&d.require, Some(Predicate::Any(v)) if v.contains(&flag_predicate(flags[0])));
        let only_the_flag = only_the_flag || only_flags_forbidden || act_with_flag;
        if (d.behavior_is_set() && !only_the_flag)
            || d.when.is_some()
            || opening_condition(&d.text).is_some()
        {
            continue;
        }
        // The flag is what the command is run with ("pass", "use", "retry
        // with", "is not optional") — not an argument the user gave the
        // skill ("Check for a `--reviewer` argument in the user's message").
        let passes = w.iter().any(|x| {
            matches!(
                x.as_str(),
                "pass"
                    | "use"
                    | "add"
                    | "include"
                    | "append"
                    | "set"
                    | "retry"
                    | "fall"
                    | "omit"
                    | "drop"
                    | "optional"
                    | "required"
                    | "mandatory"
            )
        });
        let given = w.iter().any(|x| {
            matches!(
                x.as_str(),
                "argument" | "arguments" | "provided" | "given" | "user" | "user's" | "message"
            )
        });
        // ("Always sign your commits with `-S`": the act the rule names
        // carries the flag, whatever command stands nearby.)
        // ("Push the tag with `--follow-tags`": the first act named.)
        let own = w.iter().find_map(|x| match x.as_str() {
            "commit" | "commits" => Some("git commit"),
            "tag" | "tags" => Some("git tag"),
            "push" | "pushes" => Some("git push"),
            "merge" | "merges" => Some("git merge"),
            _ => None,
        });
        let negative = matches!(d.modality, Modality::MustNot | Modality::ShouldNot);
        // (A step that says how, this once — "Propose deleting it and merge
        // with `--delete-branch`" in a case — names no way the act is
        // always run.)
        let always = negative
            || w.iter()
                .any(|x| matches!(x.as_str(), "only" | "always" | "every" | "each"));
        let with = own.is_some() && w.iter().any(|x| x == "with") && always;
        if !(passes || with) || given {
            continue;
        }
        if !negative && flags.len() != 1 {
            continue;
        }
        // (A flag only one command takes names it: `--force-with-lease`
        // is a push's.)
        // ("ALWAYS use merge commit (`--merge`)" near `gh pr merge …`: the
        // act named is what the nearby command does — that command.)
        let nearby = nearby_command(blocks, d.lines[0], lex);
        let own = own.map(|o| {
            let verb = o.split_whitespace().last();
            let doing = |n: &String| n.split_whitespace().last() == verb;
            match &nearby {
                Some(n) if doing(n) => n.clone(),
                // (Or the one command of the act the skill runs anywhere.)
                _ => {
                    let run = document_commands(blocks);
                    let same: Vec<&String> = run.iter().filter(|n| doing(n)).collect();
                    match same.as_slice() {
                        [one, rest @ ..] if rest.iter().all(|n| n == one) => (*one).clone(),
                        _ => o.to_string(),
                    }
                }
            }
        });
        let Some(prefix) = own
            .or_else(|| {
                flags
                    .iter()
                    .find_map(|f| flag_command(f))
                    .map(str::to_string)
            })
            .or(nearby)
        else {
            continue;
        };
        let program = Predicate::CommandRe(format!(r"^{}\b", regex::escape(&prefix)));
        let named = if only_flags_forbidden {
            &forbidden_flags
        } else {
            &flags
        };
        let flagged: Vec<Predicate> = named.iter().map(|f| flag_predicate(f)).collect();
        let form = if negative {
            any_of(flagged).expect("flags")
        } else {
            Predicate::Not(Box::new(flagged.into_iter().next().expect("one flag")))
        };
        d.require = None;
        d.forbid = Some(Predicate::All(vec![program, form]));
        add_predicate_scopes(d, lex);
    }
}

/// "Always pass `--no-ff` to `git merge`", "Use `--signoff` on every `git
/// commit`", "If invoking `op` directly, always pass `--account`": a flag
/// the rule names with the one command it always goes on — that command run
/// without it breaks the rule. Not a step saying how this once ("Run `gh pr
/// create` with `--body-file`"), nor a prohibition.
fn flag_on_the_named_command(
    d: &Draft,
    spans: &[&str],
    flag: &str,
    lex: &Lexicon,
) -> Option<Predicate> {
    if d.forbid.is_some() || d.modality != Modality::Must {
        return None;
    }
    let named = *spans.iter().find(|s| **s != flag)?;
    let w = plain_words(&d.text);
    let always = w.iter().any(|x| {
        matches!(
            x.as_str(),
            "always" | "every" | "each" | "explicitly" | "mandatory" | "required"
        )
    });
    let passes = w.iter().any(|x| {
        matches!(
            x.as_str(),
            "pass" | "use" | "add" | "include" | "append" | "with" | "set"
        )
    });
    if !always || !passes {
        return None;
    }
    // (A condition of its own only where it names the command's run:
    // "If invoking `op` directly, …".)
    if let Some((c, _)) = opening_condition(&d.text) {
        let cw = plain_words(&c);
        let runs = cw.iter().all(|x| {
            matches!(
                x.as_str(),
                "if" | "when"
                    | "whenever"
                    | "invoking"
                    | "running"
                    | "calling"
                    | "using"
                    | "you"
                    | "are"
                    | "directly"
                    | "the"
            )
        });
        if !c.contains(&format!("`{named}`")) || !runs {
            return None;
        }
    }
    let toks: Vec<&str> = named.split_whitespace().collect();
    let program = match toks.as_slice() {
        [one] => script_command(one, true).or_else(|| {
            (one.len() <= 24
                && one.starts_with(|c: char| c.is_ascii_lowercase())
                && one.chars().all(|c| {
                    c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_')
                }))
            .then(|| Predicate::CommandRe(format!(r"^{}\b", regex::escape(one))))
        })?,
        _ if toks.iter().any(|t| t.starts_with('-')) => return None,
        _ => command_predicate(named, lex)?,
    };
    // (The flag's name, its value left out: `--base-branch ${BASE}`.)
    let flag = flag.split_whitespace().next()?;
    Some(Predicate::All(vec![
        program,
        Predicate::Not(Box::new(flag_predicate(flag))),
    ]))
}

/// The one command a flag belongs to, where only one takes it.
fn flag_command(flag: &str) -> Option<&'static str> {
    match flag.split('=').next()? {
        // (Not `--no-ff` or `--signoff`: a pull, a revert or a cherry-pick
        // take them too.)
        "--force-with-lease" | "--force-if-includes" | "--follow-tags" => Some("git push"),
        "--amend" | "--allow-empty" => Some("git commit"),
        _ => None,
    }
}

/// The program and subcommand (`git tag`, `gh release create`) of the
/// command nearest a line: in the block holding it, else the last one
/// before it under the same heading. Only a command that acts on shared
/// state: where the nearest is a look (`gh api …`), the flag may belong
/// to another command, and none is taken.
fn nearby_command(blocks: &[Block], line: u32, lex: &Lexicon) -> Option<String> {
    let texts: Vec<(u32, String)> = blocks
        .iter()
        .map(|b| match b {
            Block::Heading { line, .. } => (*line, String::new()),
            Block::Para(l) | Block::Quote(l) | Block::Item { body: l, .. } => {
                (l.first_line(), l.text.clone())
            }
            Block::Row { line, cells, .. } => (*line, cells.join(" | ")),
            Block::Fence { start, lines, .. } => (
                *start,
                lines
                    .iter()
                    .map(|(_, l)| format!("`{}`", l.trim()))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => (u32::MAX, String::new()),
        })
        .collect();
    let at = texts.iter().rposition(|(l, _)| *l <= line)?;
    let commands = |t: &str| -> Vec<(String, bool)> {
        t.split('`')
            .skip(1)
            .step_by(2)
            .filter_map(|c| {
                let prefix = command_prefix(c)?;
                let acts = command_predicate(c.trim(), lex)
                    .is_some_and(|p| !predicate_scopes(&p, lex).is_empty());
                Some((prefix, acts))
            })
            .collect()
    };
    let nearest = commands(&texts[at].1).into_iter().next().or_else(|| {
        (0..at)
            .rev()
            .take_while(|i| !matches!(blocks[*i], Block::Heading { .. }))
            .find_map(|i| commands(&texts[i].1).pop())
    });
    nearest.filter(|(_, acts)| *acts).map(|(c, _)| c)
}

/// The program and subcommand of every command in the skill's shell
/// blocks, in order.
fn document_commands(blocks: &[Block]) -> Vec<String> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Fence { lines, .. } => Some(lines),
            _ => None,
        })
        .flatten()
        .filter_map(|(_, l)| command_prefix(l.trim()))
        .collect()
}

/// `git tag -a "$TAG" -F notes.md` → `git tag`; `gh release create v1` →
/// `gh release create`: a known program and its subcommand words.
fn command_prefix(c: &str) -> Option<String> {
    let mut w = c
        .split_whitespace()
        .skip_while(|x| x.contains('=') && !x.starts_with('-'));
    let program = w.next()?;
    let depth = match program {
        "git" | "npm" | "cargo" | "uv" | "pnpm" | "yarn" | "docker" => 1,
        "gh" | "glab" => 2,
        _ => return None,
    };
    let subs: Vec<&str> = w
        .take(depth)
        .take_while(|x| !x.is_empty() && x.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-'))
        .collect();
    (!subs.is_empty()).then(|| format!("{program} {}", subs.join(" ")))
}
