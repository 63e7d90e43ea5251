//! Stage 4: predicates. What one clause's words, code spans, paths and
//! links denote as SPEC §4.1 predicates (through the lexicon's phrases), with
//! the scope tags of the phrases and words found.

use super::*;

/// What one clause mentions: actions (with whether each may be required),
/// modifiers, scope tags.
#[derive(Debug, Default)]
pub(super) struct ClauseInfo {
    pub(super) actions: Vec<(Predicate, bool)>,
    pub(super) modifiers: Vec<Predicate>,
    pub(super) scope: BTreeSet<ScopeTag>,
    /// It speaks of doing work at all (for "never work on main").
    pub(super) mentions_work: bool,
    /// Programs named as plain words ("Poetry"): running them, for forbids.
    pub(super) programs: Vec<Predicate>,
    /// Paths named without a verb (`requirements.txt`): touching them, for forbids.
    pub(super) bare_paths: Vec<Predicate>,
    /// An action is the skipping itself ("skip hooks" is `--no-verify`):
    /// "never skip hooks" forbids it, it is no double negative.
    pub(super) skipping_act: bool,
}

impl ClauseInfo {
    pub(super) fn behavior(&self, for_require: bool) -> Option<Predicate> {
        self.behavior_with(&self.modifiers, for_require)
    }

    /// The same clause without the generic "a subagent": forbidding every
    /// dispatch is never what "never dispatch two implementers at once"
    /// means, and the grammar has no predicate for the qualifier.
    pub(super) fn without_generic_subagent(mut self) -> ClauseInfo {
        self.actions
            .retain(|(p, _)| !matches!(p, Predicate::Subagent(g) if g == "*"));
        self
    }

    /// The same clause with only its skill loads, dispatches and fetches of
    /// a named site as actions ("Use WebFetch to load `https://…`").
    pub(super) fn skills_only(&self) -> ClauseInfo {
        let agents = self
            .actions
            .iter()
            .any(|(p, _)| matches!(p, Predicate::Skill(_) | Predicate::Subagent(_)));
        ClauseInfo {
            actions: self
                .actions
                .iter()
                .filter(|(p, _)| match p {
                    Predicate::Skill(_) | Predicate::Subagent(_) | Predicate::Tool(_) => true,
                    Predicate::Fetch(g) => g != "**",
                    // "Use fetch-logs.sh on the failing run": a script
                    // the skill names is run (its name as a glob).
                    Predicate::Command(g) => g.starts_with('*') && g.len() > 2 && g.ends_with('*'),
                    // "Use `references/schema.md`": the document is read
                    // (where the means is not a skill or an agent).
                    Predicate::Read(g) => g.ends_with(".md") && !agents,
                    _ => false,
                })
                .cloned()
                .collect(),
            ..ClauseInfo::default()
        }
    }

    /// What a rule that avoids this clause forbids: its actions, else the
    /// programs and paths it names.
    pub(super) fn avoided(&self) -> Option<Predicate> {
        self.behavior(false).or_else(|| {
            let mut v = self.programs.clone();
            v.extend(self.bare_paths.iter().cloned());
            any_of(v)
        })
    }

    pub(super) fn behavior_with(&self, mods: &[Predicate], for_require: bool) -> Option<Predicate> {
        let acts: Vec<Predicate> = self
            .actions
            .iter()
            .filter(|(_, req)| *req || !for_require)
            .map(|(p, _)| p.clone())
            .collect();
        // ("Switch to `main`", "return to main": the branch named is where
        // the checkout goes, not the branch the session is on.)
        let checkout = |p: &Predicate| match p {
            Predicate::Git { subcommand, .. } => {
                matches!(subcommand.as_str(), "checkout" | "switch")
            }
            Predicate::CommandRe(r) => r.starts_with("^git (checkout|switch)"),
            _ => false,
        };
        let only_checkouts = !acts.is_empty()
            && acts
                .iter()
                .all(|a| checkout(a) || matches!(a, Predicate::Any(v) if v.iter().all(checkout)));
        let base = any_of(acts)?;
        // ("Never commit directly to `main` or `master`": the branches the
        // phrase already names are no narrowing of their own — `main` again
        // would leave a commit to `master` allowed.)
        let mods: Vec<Predicate> = mods
            .iter()
            .filter(|m| !(only_checkouts && matches!(m, Predicate::Branch(_))))
            .filter(|m| !base.any_node(&|n| n == *m))
            .cloned()
            .collect();
        Some(match (any_of(mods), base) {
            (Some(m), Predicate::All(mut v)) => {
                v.push(m);
                Predicate::All(v)
            }
            (Some(m), base) => Predicate::All(vec![base, m]),
            (None, base) => base,
        })
    }
}

/// A skill is tested by running an agent on it, not by a test runner: in a
/// skill about writing skills, "run the tests" / "a failing test" is a
/// test-runner command or a subagent run.
pub(super) fn test_runs_include_subagents(p: &mut Predicate) {
    let is_test_run = |p: &Predicate| {
        matches!(p, Predicate::CommandRe(r) if r.contains("pytest"))
            || matches!(p, Predicate::All(v) if v.iter().any(|q| matches!(q, Predicate::CommandRe(r) if r.contains("pytest"))))
    };
    if is_test_run(p) {
        let run = std::mem::replace(p, Predicate::Any(Vec::new()));
        *p = Predicate::Any(vec![run, Predicate::Subagent("*".into())]);
        return;
    }
    match p {
        Predicate::Any(v) | Predicate::All(v) => v.iter_mut().for_each(test_runs_include_subagents),
        _ => {}
    }
}

pub(super) fn dedup(v: &mut Vec<Predicate>) {
    let mut seen = Vec::new();
    v.retain(|p| {
        if seen.contains(p) {
            false
        } else {
            seen.push(p.clone());
            true
        }
    });
}

pub(super) fn any_of(v: Vec<Predicate>) -> Option<Predicate> {
    // `any` inside `any` is one `any`.
    let mut v: Vec<Predicate> = v
        .into_iter()
        .flat_map(|p| match p {
            Predicate::Any(inner) => inner,
            p => vec![p],
        })
        .collect();
    dedup(&mut v);
    match v.len() {
        0 => None,
        1 => v.pop(),
        _ => Some(Predicate::Any(v)),
    }
}

/// Every phrase match over `w`: (first word, end, phrase, words named).
fn phrase_hits(w: &[Word], lex: &Lexicon) -> Vec<(usize, usize, usize, usize)> {
    let mut hits = Vec::new();
    for (pi, ph) in lex.phrases.iter().enumerate() {
        for pat in &ph.patterns {
            for (a, b) in pat.find_all(w) {
                hits.push((a, b, pi, pat.words_named()));
            }
        }
    }
    hits
}

/// The matches that stand: one inside a longer match, or over the same
/// words with fewer of them named, gives way.
fn longest_hits(hits: &[(usize, usize, usize, usize)]) -> Vec<(usize, usize, usize, usize)> {
    hits.iter()
        .filter(|(a, b, pi, n)| {
            !hits.iter().any(|(c, d, pj, m)| {
                pj != pi && c <= a && b <= d && ((d - c) > (b - a) || ((d - c) == (b - a) && m > n))
            })
        })
        .copied()
        .collect()
}

/// For each hit, the group it joins: the phrase index of the first hit of
/// a run of action phrases that overlap (share a word) and name the same
/// command ("force-push" and "push to main" over "force-push to main");
/// a hit alone is its own group.
fn narrowing_groups(hits: &[(usize, usize, usize, usize)], lex: &Lexicon) -> Vec<usize> {
    let heads = |pi: usize| {
        lex.phrases[pi]
            .action
            .as_ref()
            .map(act_heads)
            .unwrap_or_default()
    };
    let mut group: Vec<usize> = hits.iter().map(|h| h.2).collect();
    for i in 0..hits.len() {
        for j in 0..i {
            let ((a1, b1, p1, _), (a2, b2, p2, _)) = (hits[j], hits[i]);
            if p1 != p2 && a2 <= b1 && a1 <= b2 && !heads(p1).is_disjoint(&heads(p2)) {
                group[i] = group[j];
                break;
            }
        }
    }
    group
}

/// The commands an action runs, by program and subcommand ("git push"):
/// what two phrases must share to narrow one act.
fn act_heads(p: &Predicate) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    match p {
        Predicate::Git { subcommand, .. } => {
            out.insert(format!("git {subcommand}"));
        }
        Predicate::Command(g) => {
            let t: Vec<&str> = g.split_whitespace().take(2).collect();
            if t.len() == 2 && !t[1].contains(['*', '?', '[']) {
                out.insert(t.join(" "));
            }
        }
        Predicate::CommandRe(r) => {
            // "^git push\b…", "^git (checkout|switch)\b…".
            let body = r.strip_prefix('^').unwrap_or(r);
            if let Some((prog, rest)) = body
                .split_once(' ')
                .filter(|(prog, _)| prog.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
            {
                let subs = match rest.strip_prefix('(') {
                    Some(alts) => alts.split(')').next().unwrap_or("").to_string(),
                    None => rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                        .collect(),
                };
                for s in subs.split('|').filter(|s| !s.is_empty()) {
                    if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                        out.insert(format!("{prog} {s}"));
                    }
                }
            }
        }
        Predicate::Any(v) | Predicate::All(v) => v.iter().for_each(|q| out.extend(act_heads(q))),
        _ => {}
    }
    out
}

/// "Create and push the git tag": two imperatives joined by "and" / "or"
/// that open the clause (after "then", "always", "never" …), the first with no object of its own — the
/// first verb's index and where the shared object starts.
pub(super) fn coordinated_verb(w: &[Word], lex: &Lexicon) -> Option<(usize, usize)> {
    let v = w.iter().position(|x| !x.barrier && !is_filler(&x.text))?;
    let [first, join, second, ..] = &w[v..] else {
        return None;
    };
    (matches!(join.text.as_str(), "and" | "or")
        && lex.is_imperative(&first.text)
        && lex.is_imperative(&second.text)
        && !first.barrier
        && !second.barrier
        && w.len() > v + 3)
        .then_some((v, v + 3))
}

pub(super) fn clause_info(text: &str, lex: &Lexicon) -> ClauseInfo {
    let text = bounded(text);
    let mut info = ClauseInfo::default();
    if text.trim().is_empty() {
        return info;
    }
    let (masked, code, links) = mask(text);
    let w = words(&masked);
    let hits = phrase_hits(&w, lex);
    // "Create and push the tag", "Tag and push the release": each verb
    // acts on the object — the phrases of "create the tag" and of "push
    // the tag", not one match over both verbs.
    let readings: Vec<Vec<Word>> = match coordinated_verb(&w, lex) {
        Some((v, rest)) => [v, v + 2]
            .iter()
            .map(|&verb| {
                let mut r = w[..v].to_vec();
                r.push(w[verb].clone());
                r.extend(w[rest..].iter().cloned());
                r
            })
            .collect(),
        None => vec![w.clone()],
    };
    let mut kept: Vec<(String, usize, usize)> = readings
        .iter()
        .flat_map(|r| {
            let hits = longest_hits(&phrase_hits(r, lex));
            let groups = narrowing_groups(&hits, lex);
            hits.into_iter()
                .zip(groups)
                .map(|((a, _, pi, _), g)| (r[a].text.clone(), pi, g))
                .collect::<Vec<_>>()
        })
        .collect();
    // (A phrase over the pair itself still counts: "approve or request
    // changes" is a review's verdict.)
    if let Some((v, _)) = coordinated_verb(&w, lex) {
        kept.extend(
            longest_hits(&hits)
                .into_iter()
                .filter(|(a, b, _, _)| *a <= v && *b > v + 2)
                .map(|(a, _, pi, _)| (w[a].text.clone(), pi, pi)),
        );
    }
    // Phrases that share a word and name the same act narrow one another
    // ("force-push to main": a force push, and to main): their actions
    // join as one act with all of them, not as alternatives.
    let mut seen_phrase = BTreeSet::new();
    let mut joined: Vec<(usize, Vec<(Predicate, bool)>)> = Vec::new();
    for (first, pi, group) in &kept {
        if !seen_phrase.insert(*pi) {
            continue;
        }
        let ph = &lex.phrases[*pi];
        if ph.action.is_some()
            && ["skip", "bypass", "omit", "disabl"]
                .iter()
                .any(|v| first.starts_with(v))
        {
            info.skipping_act = true;
        }
        if let Some(a) = &ph.action {
            match joined.iter_mut().find(|(g, _)| g == group) {
                Some((_, acts)) => acts.push((a.clone(), ph.requirable)),
                None => joined.push((*group, vec![(a.clone(), ph.requirable)])),
            }
        }
        if let Some(m) = &ph.modifier {
            info.modifiers.push(m.clone());
        }
        info.scope.extend(ph.scope.iter().copied());
    }
    for (_, mut acts) in joined {
        if acts.len() == 1 {
            info.actions.extend(acts.pop());
        } else {
            let requirable = acts.iter().all(|(_, r)| *r);
            let mut all: Vec<Predicate> = acts
                .into_iter()
                .flat_map(|(p, _)| match p {
                    Predicate::All(inner) => inner,
                    p => vec![p],
                })
                .collect();
            dedup(&mut all);
            info.actions.push((Predicate::All(all), requirable));
        }
    }
    // (What the phrases named, told apart from what code spans add below.)
    let phrase_acts: Vec<Predicate> = info.actions.iter().map(|(p, _)| p.clone()).collect();
    // Scope words, unless a stop phrase holds them.
    let stops: Vec<(usize, usize)> = hits
        .iter()
        .filter(|(_, _, pi, _)| lex.phrases[*pi].is_stop())
        .map(|(a, b, _, _)| (*a, *b))
        .collect();
    for s in &lex.scopes {
        let hit = s.words.iter().any(|p| {
            p.find_all(&w)
                .into_iter()
                .any(|(a, b)| !stops.iter().any(|(c, d)| *c <= a && b <= *d))
        });
        if hit {
            info.scope.insert(s.tag);
        }
    }
    // "Never delete the `main` branch": a deletion of the branch named, not
    // of every branch.
    if let Some(name) = named_branch(text) {
        let deletes = |p: &Predicate| {
            matches!(p, Predicate::Any(v) if v.iter().any(|q| matches!(q,
                Predicate::Git { subcommand, args } if subcommand == "branch"
                    && args.iter().any(|a| a == "--delete"))))
        };
        let glob = globset::escape(&name).replace("[*]", "*");
        let named = Predicate::Any(vec![
            Predicate::Command(format!("git branch -d {glob}")),
            Predicate::Command(format!("git branch -D {glob}")),
            Predicate::Command(format!("git branch --delete {glob}")),
            Predicate::Command(format!("git push * --delete {glob}")),
            Predicate::Command(format!("git push * :{glob}")),
        ]);
        let mut narrowed = false;
        for (p, _) in info.actions.iter_mut().filter(|(p, _)| deletes(p)) {
            *p = named.clone();
            narrowed = true;
        }
        // The code span holds the phrase apart ("delete the `main` branch").
        let deleting = w
            .iter()
            .any(|x| x.text.starts_with("delet") || x.text.starts_with("remov"));
        if !narrowed && deleting && named_before_branch(text) {
            info.actions.push((named, true));
            info.scope.insert(ScopeTag::SharedRepoState);
        }
    }
    // "Never delete main, develop or master", "… main, develop, or
    // user-specified branches", "protected branches": the branches deleted.
    let listed = branches_deleted(&w).map(|n| n.into_iter().map(String::from).collect::<Vec<_>>());
    let coded = code_branches_deleted(text);
    let names = match (listed, coded.is_empty()) {
        (Some(mut n), _) => {
            n.extend(
                coded
                    .into_iter()
                    .filter(|c| !n.contains(c))
                    .collect::<Vec<_>>(),
            );
            Some(n)
        }
        (None, false) => Some(coded),
        (None, true) => None,
    };
    if let Some(names) = names {
        let force = info.actions.iter().any(|(p, _)| {
            p.any_node(&|n| {
                matches!(n, Predicate::Git { subcommand, args } if subcommand == "branch"
                    && args.iter().any(|a| a == "--force"))
            })
        });
        let named = if force {
            // ("Never force-delete protected branches": `-D`, not `-d`.)
            Predicate::All(vec![
                Predicate::Git {
                    subcommand: "branch".into(),
                    args: vec!["--delete".into(), "--force".into()],
                },
                Predicate::Any(
                    names
                        .iter()
                        .map(|n| Predicate::Command(format!("git branch * {n}")))
                        .collect(),
                ),
            ])
        } else {
            Predicate::Any(
                names
                    .iter()
                    .flat_map(|n| {
                        [
                            Predicate::Command(format!("git branch -d {n}")),
                            Predicate::Command(format!("git branch -D {n}")),
                            Predicate::Command(format!("git branch --delete {n}")),
                            Predicate::Command(format!("git push * --delete {n}")),
                            Predicate::Command(format!("git push * :{n}")),
                        ]
                    })
                    .collect(),
            )
        };
        info.actions.retain(|(p, _)| {
            !matches!(p, Predicate::Any(v) if v.iter().any(|q| matches!(q,
                Predicate::Git { subcommand, .. } if subcommand == "branch")))
                && !matches!(p, Predicate::Git { subcommand, .. } if subcommand == "branch")
        });
        info.modifiers
            .retain(|m| !matches!(m, Predicate::Branch(_)) && !is_branch_choice(m));
        info.actions.push((named, true));
        info.scope.insert(ScopeTag::SharedRepoState);
    }
    // "Never commit directly to `main`", "push onto `release/*`": the branch
    // the act is on (a modifier, as the words "main branch" give).
    // ("Rebase the branch on `main`": the branch named is what the work
    // is rebased onto, not the branch the session is on.)
    let rebases =
        |p: &Predicate| matches!(p, Predicate::Git { subcommand, .. } if subcommand == "rebase");
    let only_rebases = !info.actions.is_empty()
        && info
            .actions
            .iter()
            .all(|(p, _)| rebases(p) || matches!(p, Predicate::Any(v) if v.iter().all(rebases)));
    let onto = w.windows(2).any(|p| {
        matches!(p[0].text.as_str(), "on" | "onto" | "against")
            && matches!(p[1].text.as_str(), "main" | "master" | "trunk" | "develop")
    });
    if only_rebases && onto {
        info.modifiers
            .retain(|m| !matches!(m, Predicate::Branch(_)) && !is_branch_choice(m));
    }
    for name in branch_targets(text).into_iter().filter(|_| !only_rebases) {
        let m = Predicate::Branch(globset::escape(&name).replace("[*]", "*"));
        if !info.modifiers.contains(&m) {
            info.modifiers.push(m);
        }
    }
    // A clause that runs something: a script path in it is a command.
    // (Not an identifier's part: "`subprocess.run`", "open()".)
    let prose: String = masked
        .split_whitespace()
        .filter(|t| {
            let t = t.trim_matches(|c: char| !c.is_alphanumeric());
            !t.contains(['.', '(', '_'])
        })
        .collect::<Vec<_>>()
        .join(" ");
    let runs = words(&prose).iter().any(|x| {
        matches!(
            x.text.as_str(),
            "run" | "runs" | "running" | "execute" | "invoke"
        )
    });
    let uses = main_verb(&w).is_some_and(|v| v == "use");
    let invoking = runs
        || w.iter().any(|x| {
            matches!(
                x.text.as_str(),
                "use" | "using" | "invoke" | "invoking" | "call" | "type" | "trigger" | "load"
            )
        });
    // "Redeploy: `deploy redeploy <app>`": a step's label and its command.
    let labelled = labelled_command(text);
    let uses_a_document =
        main_verb(&w).is_some_and(|v| matches!(v.as_str(), "use" | "follow" | "consult" | "apply"));
    // Code spans: commands, tool names, paths.
    let verb_action = nearest_path_verb(&w, lex);
    // "Delete it from `ROADMAP.md`": the file holds what is removed, it is
    // edited; "Add `.env.prod` to `.gitignore`": the last file is the one
    // changed, the others are what goes in it.
    let lower_masked = masked.to_lowercase();
    let removes_from = verb_action == Some(PathAction::Delete) && lower_masked.contains(" from ");
    let adding = w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "add" | "adding" | "append" | "appending" | "insert"
        )
    });
    let into_file = code
        .last()
        .is_some_and(|c| !c.trim().contains(' ') && path_glob(c).is_some());
    let adds_to = verb_action == Some(PathAction::Write)
        && adding
        && into_file
        && (lower_masked
            .trim_end_matches(['.', ' '])
            .ends_with(" to \u{1}")
            || lower_masked
                .trim_end_matches(['.', ' '])
                .ends_with(" into \u{1}"));
    let last_code = code.len().saturating_sub(1);
    // "Create the hook using patterns from `REFERENCE.md`", "Update
    // `settings.json` with values from `defaults.json`": a file the work
    // draws on is read, whatever the verb does to its object.
    let sources: Vec<bool> = lower_masked
        .split('\u{1}')
        .take(code.len())
        .map(|before| {
            let t = before.trim_end();
            let w: Vec<&str> = t.split_whitespace().rev().take(2).collect();
            [" from", " from the", " based on", " per", " following"]
                .iter()
                .any(|k| t.ends_with(k))
                // ("from the template in `TEMPLATE.md`")
                || matches!(w.as_slice(), ["in", n] if matches!(
                    *n,
                    "template" | "templates" | "example" | "examples" | "pattern" | "patterns"
                        | "format" | "guidance" | "instructions" | "conventions" | "rules"
                ))
        })
        .collect();
    let span_verb = |i: usize| -> Option<PathAction> {
        if removes_from {
            Some(PathAction::Touch)
        } else if sources.get(i).copied().unwrap_or(false)
            && (verb_action.is_some()
                // ("Identify the event from `references/hooks.md`": a
                // document looked up.)
                || code.get(i).is_some_and(|c| {
                    let c = c.trim();
                    [".md", ".txt", ".json", ".yaml", ".yml", ".toml"]
                        .iter()
                        .any(|e| c.ends_with(e))
                }))
        {
            Some(PathAction::Read)
        } else if adds_to {
            (i == last_code).then_some(PathAction::Touch)
        } else {
            verb_action
        }
    };
    let names_skill = w.iter().any(|x| x.text == "skill" || x.text == "skills");
    let runs_with = w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "run"
                | "runs"
                | "running"
                | "execute"
                | "invoke"
                | "call"
                | "use"
                | "using"
                | "pass"
                | "with"
        )
    }) && !w.iter().any(|x| matches!(x.text.as_str(), "vs" | "versus"))
        // ("No `--amend`", "no `--no-verify`": a flag barred outright.)
        || w.first().is_some_and(|x| x.text == "no") && code.len() == 1;
    // ("Never delete protected branches (`main`, `release/*`)": branch
    // names, no files.)
    let branch_names = if text.to_lowercase().contains("branch") {
        code_branches_deleted(text)
    } else {
        Vec::new()
    };
    for (ci, c) in code.iter().enumerate() {
        let c = c.trim().trim_start_matches("$ ").trim();
        if c.is_empty() || branch_names.iter().any(|n| n == c) {
            continue;
        }
        // `namespace:name`: a skill where the clause says "skill", else an
        // MCP server's tool (`Server:tool-name`); `mcp__server__tool` is a
        // tool's own name.
        if let Some((ns, name)) = qualified_name(c) {
            let pred = if names_skill && !ns.chars().any(|ch| ch.is_ascii_uppercase()) {
                Predicate::Skill(name.to_string())
            } else if name.contains(['-', '_']) {
                Predicate::Tool(format!("*{name}*"))
            } else {
                continue;
            };
            info.actions.push((pred, true));
            continue;
        }
        if let Some(name) = slash_command(c).filter(|_| invoking) {
            info.actions
                .push((Predicate::Skill(name.to_string()), true));
            continue;
        }
        // "`Read .env.prod`": a harness file tool written with its path.
        if let Some((tool, arg)) = c.split_once(' ') {
            if let Some((a, g)) = file_tool(tool).zip(path_glob(arg.trim())) {
                info.actions.push((a.predicate(g), true));
                continue;
            }
        }
        // "Never edit `lib/parser.py`", "If you change `tools/gen.sh`": a
        // script the clause changes, creates or deletes is a file, not a
        // command it runs.
        let changes_file = matches!(
            verb_action,
            Some(PathAction::Touch | PathAction::Write | PathAction::Delete)
        );
        if changes_file && !runs && !c.contains(char::is_whitespace) {
            if let Some(g) = path_glob(c).or_else(|| named_file(text, c)) {
                path_mention(&g, span_verb(ci), lex, &mut info);
                continue;
            }
        }
        if mcp_tool_name(c) {
            info.actions.push((Predicate::Tool(c.to_string()), true));
            continue;
        }
        // "Call `list_secrets`" where the skill lists that tool: the
        // server's tool, whatever prefix the harness gives it.
        if lex.is_skill_tool(c) {
            info.actions.push((Predicate::Tool(format!("*{c}")), true));
            continue;
        }
        // A flag alone (`--help`, `--dry-run`) in a clause that runs
        // something: a command carrying that flag (not where two options
        // are compared: "`--with` vs `uv add`").
        // ("Never `--amend` here", "no `--amend`, no `reset` …": a flag
        // barred by the word before it.)
        // ("never bare `--force`", "not a plain `--force`": the flag on its
        // own, barred.)
        let barred = || {
            let t = text.to_lowercase();
            ["no", "never", "not"].iter().any(|neg| {
                ["", "a ", "the "].iter().any(|art| {
                    ["", "bare ", "plain ", "raw "]
                        .iter()
                        .any(|adj| t.contains(&format!("{neg} {art}{adj}`{}`", c.to_lowercase())))
                })
            })
        };
        if let Some(flag) = lone_flag(c).filter(|_| runs_with || barred()) {
            info.actions.push((flag_predicate(flag), true));
            continue;
        }
        let simple = simple_commands(c);
        let mut preds: Vec<Predicate> = simple
            .iter()
            .filter_map(|sc| command_predicate(sc, lex))
            .collect();
        // "Run `check_heads.py`": a script the clause runs, by its name;
        // "Run `deploy whoami`", "Redeploy: `deploy redeploy <app>`": a
        // program the lexicon does not know, with its arguments.
        if preds.is_empty() && (runs || labelled) {
            preds.extend(script_command(c.trim(), !c.contains(' ')));
            if preds.is_empty() && c.contains(' ') {
                preds.extend(program_command(c.trim(), lex));
            }
        }
        if !preds.is_empty() {
            for p in preds {
                let mut cmds = Vec::new();
                let mut paths = Vec::new();
                samples(&p, &mut cmds, &mut paths);
                for s in &lex.scopes {
                    if cmds.iter().any(|x| command_in_scope(s, x)) {
                        info.scope.insert(s.tag);
                    }
                }
                info.actions.push((p, true));
            }
        } else if (is_tool_name(c)
            // (`Read`, `Grep`: the harness's one-word tools, in code.)
            || (lex.is_harness_tool(c) && matches!(c, "Read" | "Grep" | "Glob" | "Write" | "Edit" | "Bash")))
            && w.iter().any(|x| !x.barrier)
            // ("We don't use `TestClient`" names a class, not a tool: a
            // name is a tool where the harness has it or the rule says so.)
            && (lex.is_harness_tool(c) || w.iter().any(|x| matches!(x.text.as_str(), "tool" | "tools")))
        {
            // (A name alone — "`CrashLoopBackOff` → …" — is a state seen,
            // no tool used.)
            info.actions.push((Predicate::Tool(c.to_string()), true));
        } else if !c.contains(char::is_whitespace)
            && (lex.is_program_word(&c.to_lowercase()) || lex.is_command_word(&c.to_lowercase()))
        {
            let re = format!(
                r"^(uv run |uvx |npx |python3? -m |pipx run )?{}(\s|$)",
                regex::escape(&c.to_lowercase())
            );
            let p = Predicate::CommandRe(re);
            if !info.programs.contains(&p) {
                info.programs.push(p);
            }
        } else if let Some(host) = domain(c) {
            info.actions
                .push((Predicate::Fetch(format!("*{host}*")), true));
        } else if let Some(g) = path_glob(c) {
            // "Use `references/schema.md` when …", "Follow `docs/style.md`":
            // a document the rule uses is one it reads.
            let doc = g.ends_with(".md") && uses_a_document;
            path_mention(
                &g,
                span_verb(ci).or(doc.then_some(PathAction::Read)),
                lex,
                &mut info,
            );
        }
    }
    // "Run `unit/grids`", "Run `tests/test_api.py::test_login`": a test
    // target the clause runs, named by its path (no program given): a
    // command that names it.
    if runs && info.actions.is_empty() {
        for c in &code {
            let t = c.trim().trim_end_matches('/');
            let target = (t.contains('/') || t.contains("::"))
                && !t.contains(char::is_whitespace)
                && !t.starts_with(['-', '/', '.', '~', '$'])
                && !t.contains("://")
                && t.chars()
                    .all(|ch| ch.is_alphanumeric() || matches!(ch, '/' | '_' | '-' | '.' | ':'));
            if target {
                let p = Predicate::Command(format!("*{}*", globset::escape(t)));
                info.actions.push((p, true));
            }
        }
    }
    for l in &links {
        if let Some(g) = path_glob(l) {
            path_mention(&g, verb_action, lex, &mut info);
        }
    }
    // Bare file names in the words' source text ("Add to .gitignore").
    // A script's name alone is one the clause runs where it is what is run
    // or used ("Run audit.sh", "Use fetch-logs.sh on …", "Run in order:
    // a.py / b.py"), not a file a program is run on ("pytest on x.py").
    let mut prev = "";
    for raw in masked.split_whitespace() {
        let tok = raw.trim_matches(|c: char| {
            matches!(
                c,
                ',' | ';' | ':' | '(' | ')' | '"' | '\'' | '!' | '?' | '*' | '\u{1}'
            )
        });
        let tok = tok.strip_suffix('.').unwrap_or(tok);
        let prev_word = prev.trim_matches('*');
        let named_alone = matches!(
            prev_word.to_lowercase().as_str(),
            "run" | "execute" | "invoke" | "use" | "call"
        ) || ((runs || uses)
            && (prev.ends_with(':')
                || matches!(prev_word.to_lowercase().as_str(), "/" | "then" | "the")
                || prev.ends_with(',')));
        prev = raw;
        // "Ensure /setup has been run": a slash command is a skill load.
        if let Some(name) = slash_command(tok).filter(|_| invoking) {
            info.actions
                .push((Predicate::Skill(name.to_string()), true));
            continue;
        }
        if looks_like_file(tok) {
            if let Some(c) = script_command(tok, named_alone).filter(|_| runs || named_alone) {
                info.actions.push((c, true));
            } else if let Some(g) = path_glob(tok) {
                let container = match prev_word.to_lowercase().as_str() {
                    "from" if removes_from => Some(PathAction::Touch),
                    "to" | "into" if verb_action == Some(PathAction::Write) && adding => {
                        Some(PathAction::Touch)
                    }
                    _ => verb_action,
                };
                path_mention(&g, container, lex, &mut info);
            }
        }
    }
    // Programs named as plain words ("Poetry", "mypy / pyright", "pre-commit").
    for tok in masked.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')) {
        let t = tok.to_lowercase();
        if lex.is_program_word(&t) {
            let re = format!(
                r"^(uv run |uvx |npx |python3? -m |pipx run )?{}(\s|$)",
                regex::escape(&t)
            );
            let p = Predicate::CommandRe(re);
            if !info.programs.contains(&p) {
                info.programs.push(p);
            }
        }
    }
    // "Use the Read tool to find …", "Use the Agent tool to discover …":
    // a harness tool named as a plain word before "tool" (the Agent or
    // Task tool dispatches a subagent; "… to find all `Cargo.toml` files":
    // the files it reads do not hide the tool).
    if info
        .actions
        .iter()
        .all(|(p, _)| matches!(p, Predicate::Read(_)))
    {
        let toks: Vec<&str> = masked.split_whitespace().collect();
        for pair in toks.windows(2) {
            let name = pair[0].trim_matches(|c: char| !c.is_alphanumeric());
            if !pair[1].to_lowercase().starts_with("tool") {
                continue;
            }
            let p = match name {
                "Agent" | "Task" => Predicate::Subagent("*".into()),
                n if lex.is_harness_tool(n) => Predicate::Tool(n.to_string()),
                _ => continue,
            };
            if !info.actions.iter().any(|(q, _)| *q == p) {
                info.actions.push((p, true));
            }
        }
    }
    // "Run pre-commit before pushing", "Run mypy": a program named as a
    // word after "run" is run.
    if info.actions.is_empty()
        && main_verb(&w).is_some_and(|v| matches!(v.as_str(), "run" | "rerun" | "execute"))
    {
        let run: Vec<Predicate> = info.programs.clone();
        info.actions.extend(run.into_iter().map(|p| (p, true)));
    }
    // Skills named as `namespace:skill-name` beside use / invoke / load.
    let uses_skill = w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "use" | "invoke" | "load" | "using" | "required"
        )
    });
    // The clause names an agent type to dispatch ("Task tool … type",
    // "subagent_type", "… reviewer subagent"), not a skill to load.
    let dispatches_agent = w.windows(2).any(|p| {
        (p[0].text == "task" && p[1].text == "tool")
            || (matches!(p[0].text.as_str(), "subagent" | "agent") && p[1].text == "type")
    }) || w.iter().any(|x| x.text == "subagent_type")
        || (w.iter().any(|x| x.text == "type")
            && w.iter()
                .any(|x| matches!(x.text.as_str(), "subagent" | "agent" | "task")));
    if uses_skill {
        for tok in
            masked.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '`'))
        {
            let tok = tok.trim_end_matches(['.', ':']);
            if let Some((ns, name)) = tok.split_once(':') {
                let ok = |s: &str| {
                    !s.is_empty()
                        && s.chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                };
                if ok(ns) && ok(name) && name.len() > 2 && !matches!(ns, "http" | "https") {
                    // "Use the Task tool with superpowers:code-reviewer
                    // type": a subagent of that type, not a skill.
                    let pred = if dispatches_agent {
                        Predicate::Subagent(format!("*{name}"))
                    } else {
                        Predicate::Skill(name.to_string())
                    };
                    info.actions.push((pred, true));
                }
            }
        }
    }
    // Skills named as `kebab-name` beside "skill": "invoke writing-plans
    // skill", "Do NOT invoke frontend-design, mcp-builder, or any other skill".
    let invokes = w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "invoke" | "invoking" | "use" | "using" | "load" | "run"
        )
    });
    if names_skill && invokes {
        let (unmasked, _, _) = (text.replace('`', " "), (), ());
        for tok in unmasked
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '.'))
        {
            let t = tok.trim_matches(|c: char| !c.is_ascii_alphanumeric());
            let kebab = t.contains('-')
                && t.split('-').all(|p| {
                    p.len() >= 2
                        && p.chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                })
                && !matches!(
                    t,
                    "up-to-date"
                        | "one-off"
                        | "built-in"
                        | "real-time"
                        | "read-only"
                        | "end-to-end"
                        | "step-by-step"
                );
            if kebab && !tok.contains(':') {
                info.actions.push((Predicate::Skill(t.to_string()), true));
            }
        }
        // "Invoke the brainstorming skill": a one-word name between "the"
        // and "skill" (not an adjective: "the right skill").
        for win in w.windows(3) {
            let name = win[1].text.as_str();
            if win[0].text == "the"
                && win[2].text == "skill"
                && !win[1].barrier
                && !win[1].joined
                && name.len() >= 4
                && name.chars().all(|c| c.is_ascii_lowercase())
                && !name.ends_with("ly")
                && !matches!(
                    name,
                    "right"
                        | "appropriate"
                        | "relevant"
                        | "correct"
                        | "same"
                        | "next"
                        | "other"
                        | "existing"
                        | "current"
                        | "following"
                        | "above"
                        | "below"
                        | "previous"
                        | "specific"
                        | "matching"
                        | "required"
                        | "corresponding"
                        | "main"
                        | "first"
                        | "second"
                        | "best"
                        | "proper"
                        | "original"
                        | "whole"
                        | "entire"
                        | "full"
                        | "target"
                        | "installed"
                        | "loaded"
                        | "named"
                        | "given"
                        | "chosen"
                        | "selected"
                        | "skill"
                )
            {
                let p = Predicate::Skill(name.to_string());
                if !info.actions.iter().any(|(q, _)| *q == p) {
                    info.actions.push((p, true));
                }
            }
        }
    }
    // "Use AskUserQuestion with options": a harness tool named in plain
    // words.
    // ("Use `AskUserQuestion` for choices", "Use `Glob` to find them": one
    // in a code span.)
    let spans = code.iter().map(|c| c.trim()).filter(|c| !c.contains(' '));
    for tok in masked
        .split(|c: char| !c.is_ascii_alphanumeric())
        .chain(spans)
    {
        // (A CamelCase name the harness has, or its search tools; not
        // "Read", "Edit", "Task": plain words too.)
        if lex.is_harness_tool(tok) && (is_tool_name(tok) || matches!(tok, "Glob" | "Grep")) {
            let p = Predicate::Tool(tok.to_string());
            if !info.actions.iter().any(|(q, _)| *q == p) {
                info.actions.push((p, true));
            }
        }
    }
    // "| Slow endpoint | **profiling** skill |": a name set in bold before
    // "skill".
    for name in bold_skill_names(text) {
        let p = Predicate::Skill(name);
        if !info.actions.iter().any(|(q, _)| *q == p) {
            info.actions.push((p, true));
        }
    }
    // "Dispatch a code reviewer subagent", "Use a subagent per task": a
    // subagent dispatch (the type unnamed).
    let dispatch_verb = w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "dispatch"
                | "dispatching"
                | "use"
                | "using"
                | "spawn"
                | "launch"
                | "delegate"
                | "delegating"
                | "hand"
        )
    });
    if dispatch_verb
        && w.iter()
            .any(|x| matches!(x.text.as_str(), "subagent" | "subagents"))
    {
        info.actions.push((Predicate::Subagent("*".into()), true));
    }
    // "… to the `code-reviewer` subagent": the type, named in code; "Spawn
    // `release-worker`": what is spawned is an agent.
    if dispatch_verb {
        let spawned = w
            .first()
            .filter(|x| x.text == "spawn")
            .and_then(|_| text.split('`').nth(1))
            .filter(|n| {
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
            })
            .map(str::to_string);
        for name in agent_types(text).into_iter().chain(spawned) {
            let p = Predicate::Subagent(name);
            if !info.actions.iter().any(|(q, _)| *q == p) {
                info.actions.push((p, true));
            }
        }
    }
    // A named agent type makes the generic "a subagent" redundant.
    if info
        .actions
        .iter()
        .any(|(p, _)| matches!(p, Predicate::Subagent(g) if g != "*"))
    {
        info.actions
            .retain(|(p, _)| !matches!(p, Predicate::Subagent(g) if g == "*"));
    }
    // A concrete path ("edit anything under `.claude/skills/`") makes the
    // generic "any file" reading of the same words redundant.
    if info
        .actions
        .iter()
        .any(|(p, _)| is_path_action(p) && !is_wildcard(p))
    {
        info.actions.retain(|(p, _)| !is_wildcard(p));
    }
    // A command in code names which tool a word's act is ("Merge the
    // base branch in with `git merge origin/main`": a `git merge`, not the
    // forge's PR merge the word alone may mean).
    let code_heads: BTreeSet<String> = info
        .actions
        .iter()
        .filter(|(p, _)| !phrase_acts.contains(p))
        .flat_map(|(p, _)| act_heads(p))
        .collect();
    if !code_heads.is_empty() {
        for (p, _) in info.actions.iter_mut() {
            if !phrase_acts.contains(p) {
                continue;
            }
            let heads = act_heads(p);
            if heads.is_disjoint(&code_heads) || heads.is_subset(&code_heads) {
                continue;
            }
            if let Predicate::Any(alts) = p {
                let named: Vec<Predicate> = alts
                    .iter()
                    .filter(|a| !act_heads(a).is_disjoint(&code_heads))
                    .cloned()
                    .collect();
                if let Some(q) = any_of(named) {
                    *p = q;
                }
            }
        }
    }
    info.mentions_work = w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "work"
                | "working"
                | "implementation"
                | "implement"
                | "edit"
                | "edits"
                | "change"
                | "changes"
                | "code"
        )
    });
    let mut acts: Vec<Predicate> = Vec::new();
    info.actions.retain(|(p, _)| {
        if acts.contains(p) {
            false
        } else {
            acts.push(p.clone());
            true
        }
    });
    info
}

pub(super) fn is_path_action(p: &Predicate) -> bool {
    matches!(
        p,
        Predicate::Read(_)
            | Predicate::Write(_)
            | Predicate::Edit(_)
            | Predicate::Delete(_)
            | Predicate::Touch(_)
    )
}

/// A predicate over every path (`{any: [{write: "**"}, {edit: "**"}]}`).
pub(super) fn is_wildcard(p: &Predicate) -> bool {
    match p {
        Predicate::Read(g)
        | Predicate::Write(g)
        | Predicate::Edit(g)
        | Predicate::Delete(g)
        | Predicate::Touch(g) => g == "**",
        Predicate::Any(v) => v.iter().all(is_wildcard),
        _ => false,
    }
}

pub(super) fn path_mention(
    glob: &str,
    verb: Option<PathAction>,
    lex: &Lexicon,
    info: &mut ClauseInfo,
) {
    // Scope by what the rule does to the path, not by its mention: reading
    // a credential is sensitive, reading `settings.json` or naming
    // `CLAUDE.md` modifies nothing; a path with no verb only scopes the rule
    // through the predicate it may become (an avoided path).
    let sample = glob.replace("**", "x").replace('*', "x");
    for s in &lex.scopes {
        let acts = match verb {
            Some(PathAction::Read) => s.tag == ScopeTag::SensitiveMemory,
            Some(_) => true,
            None => false,
        };
        if acts && s.paths.is_match(&sample) {
            info.scope.insert(s.tag);
        }
    }
    match verb {
        Some(a) => info.actions.push((a.predicate(glob.to_string()), true)),
        None => info.bare_paths.push(Predicate::Touch(glob.to_string())),
    }
}

/// What a harness's file tool does to the file it is given (`Read`,
/// `Edit`, `Write`, …); `None` for any other name.
pub(super) fn file_tool(name: &str) -> Option<PathAction> {
    match name {
        "Read" => Some(PathAction::Read),
        "Edit" | "MultiEdit" | "NotebookEdit" => Some(PathAction::Edit),
        "Write" => Some(PathAction::Write),
        _ => None,
    }
}

/// The action of the first path verb in a clause (`edit` → touch).
/// The first path verb of a clause; a participle after a form of "be"
/// ("hooks are configured in `settings.json`") states, it does not act.
pub(super) fn nearest_path_verb(w: &[Word], lex: &Lexicon) -> Option<PathAction> {
    let w: Vec<&Word> = w.iter().filter(|x| !x.barrier).collect();
    w.iter().enumerate().find_map(|(i, x)| {
        let stated = i > 0
            && matches!(
                w[i - 1].text.as_str(),
                "is" | "are" | "was" | "were" | "be" | "been" | "being"
            );
        (!stated).then(|| lex.path_action(&x.text)).flatten()
    })
}

/// The simple commands of a shell line: split at `&&`, `||`, `;` and `|`
/// (predicates match one simple command at a time).
pub(super) fn simple_commands(c: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let chars: Vec<char> = c.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None if ch == '"' || ch == '\'' => quote = Some(ch),
            None if ch == ';' || ch == '|' || (ch == '&' && chars.get(i + 1) == Some(&'&')) => {
                out.push(std::mem::take(&mut cur));
                if chars.get(i + 1) == Some(&ch) {
                    i += 1;
                }
                i += 1;
                continue;
            }
            None => {}
        }
        cur.push(ch);
        i += 1;
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A backticked command → predicate: `git SUB --flags` → `{git, args}`,
/// anything else → a command glob (placeholders become `*`).
pub(super) fn command_predicate(c: &str, lex: &Lexicon) -> Option<Predicate> {
    let toks: Vec<&str> = c.split_whitespace().collect();
    let first = toks.first()?.to_lowercase();
    if c.contains('\n') {
        return None;
    }
    // `gc --prune`, `push --force`: a git subcommand no other program has,
    // given with its flags, the `git` left out.
    if !lex.is_command_word(&first)
        && toks.len() > 1
        && toks[1..].iter().any(|t| t.starts_with('-') && t.len() > 1)
        && matches!(
            first.as_str(),
            "gc" | "reflog"
                | "filter-branch"
                | "filter-repo"
                | "cherry-pick"
                | "rebase"
                | "stash"
                | "worktree"
                | "bisect"
                | "rev-list"
                | "update-ref"
                | "commit"
                | "push"
                | "reset"
                | "checkout"
                | "restore"
        )
    {
        let mut with_git = vec!["git"];
        with_git.extend(toks.iter().copied());
        return command_glob(&with_git);
    }
    // `scripts/review-package PLAN BASE HEAD`: a script of the skill's own.
    if !lex.is_command_word(&first) {
        return script_command(toks.first()?, false);
    }
    // `--help`-like lone flags, `git` alone, or a bare tool word: not commands.
    if toks.len() == 1 && first != "pytest" && first != "make" {
        return None;
    }
    command_glob(&toks)
}

/// "Redeploy: `deploy redeploy <app>`": a step named by its verb (one or
/// two words, not a thing such as "Command:" or "Example:"), then one code
/// span holding a command — a program word and its arguments, not a path,
/// an address or a value.
pub(super) fn labelled_command(text: &str) -> bool {
    split_label(text).is_some_and(|(l, after)| {
        let n = l.split_whitespace().count();
        (1..=2).contains(&n)
            && l.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '-')
            && !names_a_thing(&l)
            && lone_command_span(&after)
    })
}

/// "Stat summary: `git diff --stat …`", "Short log: `git log …`": a
/// command under a label that names what it shows (no verb) — a recipe,
/// one of a list of looks.
pub(super) fn recipe(text: &str, lex: &Lexicon) -> bool {
    labelled_command(text)
        && split_label(text).is_some_and(|(l, _)| {
            l.split_whitespace()
                .next()
                .is_some_and(|f| !lex.is_imperative(&f.trim_matches('*').to_lowercase()))
        })
}

/// Text that is one code span holding a command ("`git branch -d x`"): a
/// program word and its arguments, not a path, an address or a value.
pub(super) fn lone_command_span(text: &str) -> bool {
    let a = text.trim().trim_end_matches('.');
    let inner = a.trim_matches('`');
    let first = inner.split_whitespace().next().unwrap_or("");
    a.starts_with('`')
        && a.ends_with('`')
        && a.matches('`').count() == 2
        && inner.contains(' ')
        && first.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && !first.contains("://")
}

/// A label that names a thing, not a step ("Command:", "Example:",
/// "Usage:"): what follows it is shown, not run.
pub(super) fn names_a_thing(label: &str) -> bool {
    let first = label.split_whitespace().next().unwrap_or("").to_lowercase();
    matches!(
        first.as_str(),
        "command"
            | "commands"
            | "example"
            | "examples"
            | "usage"
            | "syntax"
            | "output"
            | "input"
            | "format"
            | "note"
            | "notes"
            | "tip"
            | "see"
            | "file"
            | "files"
            | "path"
            | "result"
            | "returns"
            | "default"
            | "alias"
            | "name"
            | "type"
            | "value"
            | "options"
            | "flags"
            | "signature"
            | "template"
            | "pattern"
            | "source"
            | "location"
            | "entry"
            | "script"
    )
}

/// A command of a block marked as shell (`bash`, `sh`, `powershell`) whose
/// program the lexicon does not know (`deploy logs <project>`, `&
/// "scripts/snapshot.ps1"`): the block says it is a command, so a program
/// word with at least one argument is one — shell keywords and builtins
/// the lexicon does not list as commands (`sleep`, `set`, `read`) are not
/// acts.
pub(super) fn program_command(c: &str, lex: &Lexicon) -> Option<Predicate> {
    // PowerShell's call operator: `& "path/to/script.ps1" -Flag 8`.
    let c = c.strip_prefix("& ").unwrap_or(c).trim();
    let (first, rest) = match c.strip_prefix(['"', '\'']) {
        Some(q) => {
            let end = q.find(['"', '\''])?;
            (&q[..end], q[end + 1..].trim())
        }
        None => c.split_once(' ').map_or((c, ""), |(a, b)| (a, b.trim())),
    };
    if let Some(p) = script_command(first, true) {
        return Some(p);
    }
    if let Some(p) = command_predicate(c, lex) {
        return Some(p);
    }
    let program = first
        .chars()
        .next()
        .is_some_and(|ch| ch.is_ascii_lowercase())
        && first
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || matches!(ch, '-' | '_'))
        && !matches!(
            first,
            "cd" | "export"
                | "echo"
                | "printf"
                | "set"
                | "unset"
                | "source"
                | "alias"
                | "read"
                | "local"
                | "if"
                | "then"
                | "else"
                | "elif"
                | "fi"
                | "for"
                | "while"
                | "until"
                | "do"
                | "done"
                | "case"
                | "esac"
                | "function"
                | "return"
                | "exit"
                | "true"
                | "false"
                | "test"
                | "eval"
                | "exec"
                | "sleep"
                | "wait"
        );
    let toks: Vec<&str> = c.split_whitespace().collect();
    // (`vy += gravity`, `x = 1`: an expression, not a program's arguments.)
    let expression = toks
        .get(1)
        .is_some_and(|t| !t.chars().any(|ch| ch.is_alphanumeric() || ch == '-'));
    if program && !expression && !rest.is_empty() && !c.contains('\n') {
        command_glob(&toks)
    } else {
        None
    }
}

/// Command tokens → a command glob: placeholders become `*`, trailing
/// arguments any.
fn command_glob(toks: &[&str]) -> Option<Predicate> {
    let first = toks.first()?.to_lowercase();
    if first == "git" {
        let mut i = 1;
        while i < toks.len() && toks[i].starts_with('-') {
            i += if matches!(toks[i], "-C" | "-c") { 2 } else { 1 };
        }
        let sub = toks.get(i)?;
        if !sub
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
        {
            return None;
        }
        let rest = without_message(&toks[i + 1..]);
        let rest = rest.as_slice();
        if rest
            .iter()
            .all(|t| t.starts_with('-') && !t.contains(['<', '$']))
        {
            return Some(Predicate::Git {
                subcommand: sub.to_string(),
                args: rest.iter().map(|s| s.to_string()).collect(),
            });
        }
    }
    // `echo $API_KEY`, `printf '%s' "$GITHUB_TOKEN"`: the act is putting a
    // secret's value on the command line, whichever secret; a glob of the
    // program alone would catch every `echo`.
    if toks[1..].iter().any(|t| secret_variable(t)) {
        return Some(Predicate::CommandRe(format!(
            r"^{}\b{SECRET_VARIABLE}",
            regex::escape(toks[0])
        )));
    }
    let mut glob = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 {
            glob.push(' ');
        }
        if is_placeholder(t) {
            glob.push('*');
        } else {
            glob.push_str(&token_glob(t));
        }
    }
    while glob.ends_with(" *") {
        glob.truncate(glob.len() - 2);
    }
    // `git add .`: the folder itself, then anything after it — a `*` glued
    // on would also match `git add .env`.
    if toks.len() > 1 && matches!(toks.last(), Some(&".") | Some(&"..") | Some(&"./")) {
        return Some(Predicate::Any(vec![
            Predicate::Command(glob.clone()),
            Predicate::Command(format!("{glob} *")),
        ]));
    }
    if !glob.ends_with('*') {
        glob.push('*');
    }
    Some(Predicate::Command(glob))
}

/// A git command's arguments without a message that is a template
/// (`-m "feat: [summary]"`, `-m "<message>"`): what it will say is no part
/// of the act. (A literal message — `-m "wip"` — stays: it may be the
/// point of the rule.)
fn without_message<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let template = |s: &str| s.contains(['[', '<', '{', '$', '…']) || s.contains("...");
    let at = args.iter().position(|t| matches!(*t, "-m" | "--message"));
    let value_end = at.map(|m| {
        let mut j = m + 1;
        if let Some(v) = args.get(j) {
            let q = v.chars().next().filter(|c| matches!(c, '"' | '\''));
            if let Some(q) = q.filter(|q| !(v.len() > 1 && v.ends_with(*q))) {
                while j < args.len() && !(args[j].len() > 1 && args[j].ends_with(q)) {
                    j += 1;
                }
            }
        }
        (j + 1).min(args.len())
    });
    let Some((m, end)) = at.zip(value_end) else {
        return args.to_vec();
    };
    if !args[m + 1..end].iter().any(|t| template(t)) {
        return args.to_vec();
    }
    let mut out = args[..m].to_vec();
    out.extend_from_slice(&args[end..]);
    out
}

/// `/release-notes`, `/setup`: a slash command, which loads the skill of
/// that name — not a root folder (`/tmp`, `/etc`) or a file.
pub(super) fn slash_command(tok: &str) -> Option<&str> {
    let name = tok.strip_prefix('/')?;
    let ok = name.len() >= 3
        && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | ':'));
    let root = matches!(
        name,
        "tmp"
            | "etc"
            | "var"
            | "usr"
            | "opt"
            | "home"
            | "root"
            | "dev"
            | "proc"
            | "bin"
            | "sbin"
            | "lib"
            | "mnt"
            | "srv"
            | "sys"
            | "boot"
            | "api"
    );
    (ok && !root).then_some(name)
}

/// A script named by its path (`scripts/fetch.py`, `./bin/setup`,
/// `tools/check.sh`) → a command glob on its file name, however it is
/// invoked (`python scripts/fetch.py`, `bash …`, `./…`).
/// A script the skill runs, as a command glob on its file name: one under
/// `scripts/`, `bin/`, `tools/`, or any path with a script extension; with
/// `bare`, also a file name alone (`check_heads.py`, where the clause says
/// it is run).
pub(super) fn script_command(tok: &str, bare: bool) -> Option<Predicate> {
    let t = tok.trim_start_matches("./");
    let name = t.rsplit('/').next()?;
    let in_script_dir = t.contains('/')
        && t.split('/')
            .next()
            .is_some_and(|d| matches!(d, "scripts" | "script" | "bin" | "tools"));
    let script_ext = name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && matches!(ext, "py" | "sh" | "js" | "ts" | "rb" | "pl" | "ps1")
    });
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    (ok_chars && name.len() >= 3 && (in_script_dir || (script_ext && (tok.contains('/') || bare))))
        .then(|| Predicate::Command(format!("*{}*", globset::escape(name))))
}

/// A command token as a glob: placeholders inside it (`repos/<owner>/x`,
/// `…/replies`, `{id}`, `$PR`) match anything, the rest literally.
pub(super) fn token_glob(t: &str) -> String {
    let mut out = String::new();
    let mut lit = String::new();
    let chars: Vec<char> = t.chars().collect();
    let mut i = 0;
    let flush = |lit: &mut String, out: &mut String| {
        out.push_str(&globset::escape(lit));
        lit.clear();
    };
    while i < chars.len() {
        let c = chars[i];
        let close = match c {
            '<' => Some('>'),
            '{' => Some('}'),
            _ => None,
        };
        if let Some(close) = close {
            if let Some(j) = chars[i + 1..].iter().position(|x| *x == close) {
                flush(&mut lit, &mut out);
                if !out.ends_with('*') {
                    out.push('*');
                }
                i += j + 2;
                continue;
            }
        }
        if c == '…'
            || (c == '.' && chars.get(i + 1) == Some(&'.') && chars.get(i + 2) == Some(&'.'))
        {
            flush(&mut lit, &mut out);
            if !out.ends_with('*') {
                out.push('*');
            }
            i += if c == '…' { 1 } else { 3 };
            continue;
        }
        if c == '$'
            && chars
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphabetic() || *n == '{')
        {
            flush(&mut lit, &mut out);
            if !out.ends_with('*') {
                out.push('*');
            }
            i += 1;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || matches!(chars[i], '_' | '{' | '}'))
            {
                i += 1;
            }
            continue;
        }
        lit.push(c);
        i += 1;
    }
    flush(&mut lit, &mut out);
    out
}

/// The tail of a command pattern that puts a secret-named variable on the
/// command line (`echo $API_KEY`): access to that secret.
pub(super) const SECRET_VARIABLE: &str =
    r".*\$\{?[A-Za-z0-9_]*(?i:key|token|secret|passw(or)?d|credential)";

/// A shell variable named for a secret (`$API_KEY`, `"${GH_TOKEN}"`).
fn secret_variable(t: &str) -> bool {
    let t = t.trim_matches(['"', '\'']);
    let Some(name) = t.strip_prefix('$') else {
        return false;
    };
    let name = name
        .trim_start_matches('{')
        .trim_end_matches('}')
        .to_uppercase();
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && ["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"]
            .iter()
            .any(|w| name.contains(w))
}

pub(super) fn is_placeholder(t: &str) -> bool {
    (t.starts_with('<') && t.ends_with('>'))
        || t.starts_with('$')
        || t == "..."
        || t == "…"
        || (t.starts_with('{') && t.ends_with('}'))
        || t.chars().all(|c| c.is_ascii_uppercase() || c == '_') && t.len() > 2
        || version_placeholder(t)
}

/// `vX.Y.Z`, `X.Y.Z`, `vN.N`: a version to be filled in.
fn version_placeholder(t: &str) -> bool {
    let t = t.strip_prefix('v').unwrap_or(t);
    let parts: Vec<&str> = t.split('.').collect();
    (2..=3).contains(&parts.len())
        && parts.iter().all(|p| {
            matches!(
                *p,
                "X" | "Y" | "Z" | "N" | "x" | "y" | "z" | "n" | "MAJOR" | "MINOR" | "PATCH"
            )
        })
}

/// `raw.githubusercontent.com`, `api.example.org/v1`: a host to fetch from.
pub(super) fn domain(c: &str) -> Option<String> {
    // `setup.sh`, `notes.md`: a file name, not a host.
    if !c.contains("://") && looks_like_file(c) {
        return None;
    }
    let c = c
        .trim_start_matches("https://")
        .trim_start_matches("http://");
    let host = c.split('/').next()?;
    let parts: Vec<&str> = host.split('.').collect();
    let tld = parts.last()?;
    let ok = parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-'))
        && matches!(
            *tld,
            "com" | "org" | "net" | "io" | "dev" | "ai" | "app" | "co" | "gov" | "edu" | "sh"
        );
    ok.then(|| host.to_lowercase())
}

/// `mcp__server__tool`: an MCP server's tool, written by its own name.
pub(super) fn mcp_tool_name(c: &str) -> bool {
    c.starts_with("mcp__") && c.matches("__").count() >= 2 && !c.contains(char::is_whitespace)
}

/// `<topic>`, `YYYY`, `MM`, `DD` inside a path segment → `*`.
pub(super) fn placeholders_to_stars(seg: &str) -> String {
    static PLACEHOLDER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = PLACEHOLDER.get_or_init(|| {
        // (`[skill-name]`, `{id}`: a word in brackets or braces is a name to
        // fill in; `[a-z]`, a glob's class, is not a word.)
        regex::Regex::new(
            r"<[^<>]*>|\[[A-Za-z][A-Za-z_ ]*[-_ ]?[A-Za-z_ ]{2,}\]|\{[A-Za-z_][A-Za-z0-9_-]*\}|\b(YYYY|YY|MM|DD|HH|NNN|NN|N|X+)\b",
        )
        .expect("a valid pattern")
    });
    let out = re.replace_all(seg, "*").into_owned();
    let mut collapsed = String::with_capacity(out.len());
    for ch in out.chars() {
        if !(ch == '*' && collapsed.ends_with("**")) {
            collapsed.push(ch);
        }
    }
    collapsed.replace("**", "*")
}

/// `EnterWorktree`, `TodoWrite`, `AskUserQuestion`: a harness tool name.
/// `namespace:name` with no spaces, slashes or dots, each side an
/// identifier and the name lower-case (`Notion:notion-fetch`,
/// `superpowers:test-driven-development`); not `host:port`, `image:tag`
/// or a URL scheme.
pub(super) fn qualified_name(c: &str) -> Option<(&str, &str)> {
    let (ns, name) = c.split_once(':')?;
    let ident = |s: &str| {
        s.len() >= 2
            && s.chars().next().is_some_and(|ch| ch.is_ascii_alphabetic())
            && s.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
    };
    let lower = name
        .chars()
        .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '_');
    (ident(ns) && ident(name) && lower && !matches!(ns, "http" | "https" | "file" | "mailto"))
        .then_some((ns, name))
}

/// A code span that is one command-line flag (`--help`, `--dry-run`,
/// `--latest=false`).
fn lone_flag(c: &str) -> Option<&str> {
    // `-B`, `-D`: a capital short flag, the forceful variant by convention
    // (lower-case ones such as `-f` mean different things per program).
    if let Some(ch) = c.strip_prefix('-').filter(|r| r.len() == 1) {
        return ch.chars().all(|x| x.is_ascii_uppercase()).then_some(c);
    }
    let rest = c.strip_prefix("--")?;
    // A value given with `=`: a plain word or number, not a placeholder.
    let rest = match rest.split_once('=') {
        Some((name, value))
            if !value.is_empty()
                && value
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '.' | '_')) =>
        {
            name
        }
        Some(_) => return None,
        None => rest,
    };
    (rest.len() >= 2
        && rest
            .chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_lowercase())
        && rest
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'))
    .then_some(c)
}

pub(super) fn is_tool_name(c: &str) -> bool {
    let humps = c.chars().filter(|ch| ch.is_ascii_uppercase()).count();
    c.len() >= 4
        && humps >= 2
        && c.chars().next().is_some_and(|ch| ch.is_ascii_uppercase())
        && c.chars().all(|ch| ch.is_ascii_alphanumeric())
        && c.chars().any(|ch| ch.is_ascii_lowercase())
}

/// A bare token that names a file: `name.ext` with a known extension, or a dotfile.
pub(super) fn looks_like_file(tok: &str) -> bool {
    if tok.is_empty()
        || tok.contains("://")
        || tok.chars().any(|c| c.is_whitespace() || c == '\u{1}')
    {
        return false;
    }
    if matches!(
        tok,
        ".gitignore"
            | ".env"
            | ".npmrc"
            | ".netrc"
            | "MEMORY.md"
            | "AGENTS.md"
            | "CLAUDE.md"
            | "GEMINI.md"
    ) {
        return true;
    }
    let Some((stem, ext)) = tok.rsplit_once('.') else {
        return false;
    };
    !stem.is_empty()
        && stem
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '/' | '.' | '*'))
        && matches!(
            ext,
            "md" | "json"
                | "yaml"
                | "yml"
                | "toml"
                | "txt"
                | "py"
                | "rs"
                | "ts"
                | "js"
                | "lock"
                | "cfg"
                | "ini"
                | "sh"
                | "ps1"
                | "rb"
                | "pl"
                | "env"
        )
}

/// "Delete the `flaky.test` binary": a name the text itself calls a file
/// (`file`, `binary`, `script`, `log` after the code span) is a path even
/// where its extension is not a known one.
fn named_file(text: &str, c: &str) -> Option<String> {
    let simple = !c.is_empty()
        && c.chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '_' | '-'));
    let after = text.split(&format!("`{c}` ")).nth(1)?;
    let noun = after
        .split(|ch: char| !ch.is_alphanumeric())
        .next()?
        .to_lowercase();
    (simple && matches!(noun.as_str(), "file" | "binary" | "script" | "log"))
        .then(|| format!("**/{c}"))
}

/// A command carrying a flag anywhere (`--no-verify`, `-f`), in the one
/// form the scope stage reads back ([`regex_samples`]).
pub(super) fn flag_predicate(flag: &str) -> Predicate {
    Predicate::CommandRe(format!(r"(^|\s){}(=|\s|$)", regex::escape(flag)))
}

/// A code span or link target that names a path → a glob: `dir/` →
/// `dir/**`, a bare file name → `**/name`, placeholders → `*`.
pub(super) fn path_glob(c: &str) -> Option<String> {
    let c = c.trim();
    if c.is_empty()
        || c.contains(char::is_whitespace)
        || c.contains("://")
        || c.starts_with('-')
        || c.starts_with('[')
        || c.contains(['(', ')', '=', '"', '\'', ',', '|'])
        // (`..`, `./`: a relative step, no file.)
        || c.chars().all(|ch| matches!(ch, '.' | '/'))
    {
        return None;
    }
    // An absolute path outside the usual roots is more likely a URL path
    // (`/contents/` of an API) than a file.
    if c.starts_with('/')
        && ![
            "/etc/", "/tmp/", "/var/", "/usr/", "/home/", "/opt/", "/root/", "/dev/", "/proc/",
            "/Users/",
        ]
        .iter()
        .any(|r| c.starts_with(r))
    {
        return None;
    }
    let looks = c.contains('/')
        || looks_like_file(c)
        || (c.starts_with('.')
            && c.len() > 1
            && c[1..]
                .chars()
                .all(|ch| ch.is_alphanumeric() || matches!(ch, '_' | '-' | '.' | '*')));
    if !looks || c.starts_with("//") {
        return None;
    }
    let mut g = String::new();
    for seg in c.split('/') {
        if !g.is_empty() || c.starts_with('/') {
            g.push('/');
        }
        if seg.starts_with('<') && seg.ends_with('>') || seg == "..." || seg.starts_with('$') {
            g.push('*');
        } else {
            g.push_str(&placeholders_to_stars(seg));
        }
    }
    let mut g = g.replace("//", "/");
    if let Some(s) = g.strip_prefix("./") {
        g = s.to_string();
    }
    // Well-known dot-directories (`~/.ssh`, `.claude`) name their contents.
    let last = g.rsplit('/').next().unwrap_or("");
    let dot_dir = matches!(
        last,
        ".ssh"
            | ".aws"
            | ".gnupg"
            | ".kube"
            | ".docker"
            | ".config"
            | ".claude"
            | ".codex"
            | ".gemini"
            | ".github"
            | ".git"
            | ".azure"
    );
    if g.ends_with('/') {
        g.push_str("**");
    } else if dot_dir {
        g.push_str("/**");
    } else if !g.contains('/') && !g.starts_with('~') {
        g = format!("**/{g}");
    }
    globset::Glob::new(&g).ok()?;
    Some(g)
}

/// A branch named in code next to the word ("the `main` branch", "branch
/// `release/*`").
fn named_branch(text: &str) -> Option<String> {
    let name_ok = |n: &str| {
        !n.is_empty()
            && n.len() <= 60
            && n.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '/' | '-' | '_' | '.' | '*'))
    };
    let mut rest = text;
    let mut offset = 0;
    while let Some(i) = rest.find('`') {
        let after = &rest[i + 1..];
        let j = after.find('`')?;
        let name = &after[..j];
        let start = offset + i;
        let end = start + j + 2;
        let before = text[..start].to_lowercase();
        let next = text[end..].to_lowercase();
        let (before, next) = (before.trim_end(), next.trim_start());
        if name_ok(name) && (next.starts_with("branch") || before.ends_with("branch")) {
            return Some(name.to_string());
        }
        offset = end;
        rest = &text[end..];
    }
    None
}

/// The branches a deletion verb names in code, as a list right after it
/// ("delete `main` or `release`", "never remove `trunk`, `qa`"): each a
/// plain name (no dot, no space). Empty where the list goes on with other
/// words.
fn code_branches_deleted(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return Vec::new();
    }
    let Some(verb) = lower
        .split_whitespace()
        .find(|x| x.starts_with("delet") || x.starts_with("remov"))
    else {
        return Vec::new();
    };
    let Some(at) = lower.find(verb).filter(|&i| !text[..i].contains('`')) else {
        return Vec::new();
    };
    let mut rest = text[at + verb.len()..].trim_start();
    for skip in ["the ", "either "] {
        rest = rest.strip_prefix(skip).unwrap_or(rest);
    }
    // "Never delete protected branches (`main`, `develop`)": the names in
    // the parenthesis after the branches (at most two words before them).
    let mut listed_after = false;
    if !rest.starts_with('`') {
        let lower_rest = rest.to_lowercase();
        let head: Vec<&str> = lower_rest.split_whitespace().take(3).collect();
        if let Some(i) = head
            .iter()
            .position(|w| matches!(w.trim_end_matches(':'), "branch" | "branches"))
        {
            // (`lower_rest` has `rest`'s byte offsets: the text is
            // checked to lowercase to the same length above.)
            let from = lower_rest.find(head[i]).map_or(0, |j| j + head[i].len());
            if from > 0 && rest.is_char_boundary(from) {
                let after = rest[from..].trim_start();
                if let Some(a) = after.strip_prefix('(').filter(|a| a.starts_with('`')) {
                    rest = a;
                    listed_after = true;
                }
            }
        }
    }
    let mut names = Vec::new();
    while let Some(r) = rest.strip_prefix('`') {
        let Some(end) = r.find('`') else {
            return Vec::new();
        };
        let name = &r[..end];
        if name.is_empty()
            || name.len() > 60
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '/' | '-' | '_' | '*'))
        {
            return Vec::new();
        }
        names.push(name.to_string());
        rest = r[end + 1..].trim_start();
        let before = rest;
        for sep in [",", "or ", "and ", "nor "] {
            rest = rest.strip_prefix(sep).unwrap_or(rest).trim_start();
        }
        if rest.len() == before.len() {
            break;
        }
    }
    // What follows ends the list: the sentence, a dash, or "branch(es)".
    let next = rest.trim_start_matches(['*', '_']).to_lowercase();
    let ends = next.is_empty()
        || next.starts_with(['.', ';', ':', '(', '\u{2014}', '-'])
        || next.starts_with("branch")
        || (listed_after && next.starts_with(')'));
    if ends && names.len() >= 2 {
        names
    } else {
        Vec::new()
    }
}

/// The branches a deletion verb names as plain words: well-known names
/// ("delete main, develop or master"), a last item of a kind no act shows
/// ("… or user-specified branches": the names stand), or the protected
/// ones (the default branches).
fn branches_deleted(w: &[Word]) -> Option<Vec<&'static str>> {
    let i = w
        .iter()
        .position(|x| x.text.starts_with("delet") || x.text.starts_with("remov"))?;
    let known = |t: &str| -> Option<&'static str> {
        [
            "main",
            "master",
            "develop",
            "dev",
            "trunk",
            "production",
            "staging",
        ]
        .into_iter()
        .find(|k| *k == t)
    };
    let rest: Vec<&str> = w[i + 1..]
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .filter(|t| !matches!(*t, "the" | "any" | "nor" | "a"))
        .collect();
    // Up to the first "branch(es)"; what follows it is the rest of the
    // sentence. Without the word, every word is the list.
    let kind_word = rest
        .iter()
        .position(|t| matches!(*t, "branch" | "branches"));
    let list = &rest[..kind_word.unwrap_or(rest.len())];
    if list == ["protected"] {
        return Some(vec!["main", "master"]);
    }
    let lead = list
        .iter()
        .take_while(|t| known(t).is_some() || matches!(**t, "or" | "and"))
        .count();
    let names: Vec<&'static str> = list[..lead].iter().filter_map(|t| known(t)).collect();
    let tail = &list[lead..];
    // The last item may be a kind no act shows, only before "branches"
    // and after "or"/"and" ("main, develop, or user-specified branches").
    let kind_tail = tail.is_empty()
        || (kind_word.is_some()
            && tail.len() <= 3
            && lead > 0
            && matches!(list[lead - 1], "or" | "and"));
    (!names.is_empty() && kind_tail).then_some(names)
}

/// Branches named in code after "to", "on", "into" or "onto" ("commit
/// directly to `main`"): names without a dot, so paths and files are not.
fn branch_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c != '`' {
            continue;
        }
        if !in_code {
            start = i;
            in_code = true;
            continue;
        }
        in_code = false;
        let name = &text[start + 1..i];
        let before = text[..start].to_lowercase();
        let mut back = before.split_whitespace().rev();
        let prev = back.next().unwrap_or("");
        let prev2 = back.next().unwrap_or("");
        let next = text[i + 1..].trim_start().to_lowercase();
        // ("push to the `release` branch", "push the `gh-pages` branch":
        // the branch the push is of.)
        let the_branch = next.starts_with("branch")
            && (matches!(prev2, "to" | "on" | "into" | "onto")
                || matches!(prev2, "push" | "pushing" | "force-push" | "force-pushing"))
            && prev == "the";
        let ok = !name.is_empty()
            && name.len() <= 60
            && !name.contains('.')
            && !name.ends_with('/')
            // (`-m` is a flag: git refuses a branch name that starts so.)
            && !name.starts_with('-')
            // (`HEAD` is a commit, `GITHUB_TOKEN` a variable: no branch.)
            && !name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            // ("push to `origin`": a remote, not a branch.)
            && !matches!(name, "origin" | "upstream")
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '/' | '-' | '_' | '*'));
        if ok && (matches!(prev, "to" | "on" | "into" | "onto") || the_branch) {
            out.push(name.to_string());
        }
    }
    out
}

/// `{any: [{branch: main}, {branch: master}]}`: a choice of branches.
fn is_branch_choice(m: &Predicate) -> bool {
    matches!(m, Predicate::Any(v) if v.iter().all(|q| matches!(q, Predicate::Branch(_))))
}

/// "… the `main` branch": a code span followed by the word "branch".
fn named_before_branch(text: &str) -> bool {
    text.split('`').enumerate().any(|(i, part)| {
        i % 2 == 0 && i > 0 && part.trim_start().to_lowercase().starts_with("branch")
    })
}

/// Names in code right before "subagent" or "agent" ("the `code-reviewer`
/// subagent"): agent types.
fn agent_types(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parts: Vec<&str> = text.split('`').collect();
    // Odd parts are inside code spans.
    for i in (1..parts.len().saturating_sub(1)).step_by(2) {
        let name = parts[i];
        let after = parts[i + 1].trim_start().to_lowercase();
        let ok = !name.is_empty()
            && name.len() <= 60
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'));
        if ok
            && ["subagent", "sub-agent", "agent"].iter().any(|a| {
                after
                    .strip_prefix(a)
                    .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() && c != 's'))
            })
        {
            out.push(name.to_string());
        }
    }
    out
}

/// Names in bold right before "skill" ("the **profiling** skill"): skill
/// names, lowercase words joined by hyphens.
pub(super) fn bold_skill_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parts: Vec<&str> = text.split("**").collect();
    for i in (1..parts.len().saturating_sub(1)).step_by(2) {
        let name = parts[i].trim();
        let after = parts[i + 1].trim_start().to_lowercase();
        let named = name.len() >= 3
            && name.len() <= 60
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && name.starts_with(|c: char| c.is_ascii_lowercase());
        let skill = after
            .strip_prefix("skill")
            .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric()));
        if named && skill {
            out.push(name.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_in_brackets_or_braces_are_placeholders_but_glob_classes_stay() {
        assert_eq!(
            path_glob(".claude/skills/[skill-name]/SKILL.md").as_deref(),
            Some(".claude/skills/*/SKILL.md")
        );
        assert_eq!(
            path_glob("plans/{id}/notes.md").as_deref(),
            Some("plans/*/notes.md")
        );
        assert_eq!(
            path_glob("logs/run-[0-9].txt").as_deref(),
            Some("logs/run-[0-9].txt")
        );
        assert_eq!(path_glob("src/[a-z]*.rs").as_deref(), Some("src/[a-z]*.rs"));
    }

    #[test]
    fn a_relative_step_is_no_path() {
        // "Block path traversal (`..` checks)" had required a read of `**/..`.
        assert_eq!(path_glob(".."), None);
        assert_eq!(path_glob("./"), None);
        assert_eq!(path_glob(".env").as_deref(), Some("**/.env"));
    }
}
