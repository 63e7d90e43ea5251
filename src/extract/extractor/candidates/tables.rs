//! Part of stage 2 (rule candidates): decision tables — the roles of a
//! table's columns and the rule each row states, with consent cells and rows
//! under a lead-in.

use super::*;

/// The act a row names in its action column, when the other cells make it
/// wait on the user's request, approval or confirmation: (the act, whether
/// every other cell does).
pub(super) fn consent_cells(
    cells: &[String],
    roles: &TableRoles,
    act: &ClauseInfo,
) -> Option<(Predicate, bool)> {
    let others: Vec<String> = cells
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != roles.action && Some(*i) != roles.condition)
        .map(|(_, c)| strip_emphasis(c))
        .filter(|c| c.chars().any(char::is_alphanumeric))
        .collect();
    let consenting = others.iter().filter(|c| waits_on_consent(c)).count();
    if consenting == 0 {
        return None;
    }
    let x = act.behavior(false)?;
    Some((x, consenting == others.len()))
}

/// A cell that asks for the user's word: a request, an approval, a
/// confirmation, consent or permission ("Require a separate explicit
/// request", "Perform the requested merge only", "Ask first").
pub(super) fn waits_on_consent(cell: &str) -> bool {
    let w = words(&mask(cell).0);
    w.first().is_some_and(|x| x.text == "ask")
        || w.iter().any(|x| {
            let t = x.text.as_str();
            [
                "request",
                "approv",
                "confirm",
                "consent",
                "permission",
                "authoriz",
                "authoris",
            ]
            .iter()
            .any(|v| t.starts_with(v))
        })
}

/// A table cell that seeks the user's word for an act it names ("Confirm
/// force-push is OK first"), read as a sentence of its own: its consent
/// gate.
fn consent_cell(cell: &str, section: &Section, lex: &Lexicon) -> Option<Draft> {
    let reading = consent_phrasing(&strip_emphasis(cell))?;
    let ctx = Ctx::plain(section);
    let d = analyse(&reading, None, &ctx, true, lex)?.into_draft(&ctx, lex);
    (d.require == Some(Predicate::UserTurn) && d.when.is_some()).then_some(d)
}

/// A table cell holding a rule with its own trailing or leading condition
/// ("Run `npm test` before every push"), read as a sentence of its own.
pub(super) fn own_condition_rule(cell: &str, section: &Section, lex: &Lexicon) -> Option<Draft> {
    let cell = strip_emphasis(cell);
    let own = split_trailing(&cell).is_some_and(|(_, kw, _)| {
        matches!(
            kw.as_str(),
            "before" | "after" | "until" | "without" | "once"
        )
    }) || opening_condition(&cell).is_some();
    if !own {
        return None;
    }
    let ctx = Ctx::plain(section);
    let d = analyse(&cell, None, &ctx, true, lex)?.into_draft(&ctx, lex);
    (d.when.is_some() && (d.require.is_some() || d.forbid.is_some())).then_some(d)
}

/// Table column roles from the header.
#[derive(Debug, Clone)]
pub(crate) struct TableRoles {
    pub(crate) condition: Option<usize>,
    pub(crate) action: Option<usize>,
    pub(crate) avoid: Option<usize>,
    /// A "Don't" column beside the "Do" column (Do | Don't): each row also
    /// forbids its cell there.
    pub(crate) dont: Option<usize>,
    /// The action column's header where it is what to do ("Update",
    /// "Investigate via"): the verb of cells that name only its object.
    pub(crate) verb: Option<String>,
    /// The situation column names what was changed ("Changed area", "If
    /// you modify"): a path there is a change to it.
    pub(crate) changed: bool,
    /// The situation column lists errors ("Error | Recovery"): a row's
    /// situation is a trouble, never the act it names going well.
    pub(crate) errors: bool,
    pub(crate) modality: Modality,
}

impl TableRoles {
    /// Roles of a decision table, or `None` for a table that only explains
    /// (Excuse | Reality, Tool | Purpose, Command | Description).
    pub(crate) fn of(header: &[String], lex: &Lexicon) -> Option<TableRoles> {
        let norm: Vec<String> = header
            .iter()
            .map(|h| strip_emphasis(h).to_lowercase())
            .collect();
        let is = |h: &str, ws: &[&str]| {
            let w = words(h);
            ws.iter().any(|x| {
                let xw = words(x);
                w.windows(xw.len())
                    .any(|win| win.iter().zip(&xw).all(|(a, b)| a.text == b.text))
            })
        };
        const ACTION: &[&str] = &[
            "action",
            "fix",
            "solution",
            "requires",
            "required",
            "do",
            "use instead",
            "instead",
            "right form",
            "good",
            "rule",
            "then",
            "correct",
            "approach",
            "response",
            "what to do",
            "actions",
            "activities",
            "activity",
            "to invoke",
            "to use",
            "to load",
            "to run",
            "resolution",
            "resolve",
            "remedy",
            "recovery",
            "strategy",
            "recommendation",
            "next step",
            "handling",
        ];
        const AVOID: &[&str] = &["avoid", "don't", "do not", "never", "anti pattern", "wrong"];
        const COND: &[&str] = &[
            "situation",
            "when",
            "if",
            "condition",
            "claim",
            "problem",
            "error",
            "errors",
            "failure",
            "symptom",
            "case",
            "trigger",
            "scenario",
            "mistake",
            "baseline failure",
            "rationalization",
            "quality",
        ];
        let avoid = norm.iter().position(|h| is(h, AVOID));
        if avoid == Some(0) {
            return Some(TableRoles {
                condition: None,
                action: None,
                avoid,
                dont: None,
                verb: None,
                changed: false,
                errors: false,
                modality: Modality::ShouldNot,
            });
        }
        // A "Command" column after a condition column (Branch category |
        // Command) holds the action; a first "Command" column only
        // explains, and so does one keyed by what it achieves ("Goal |
        // Command", "Task | Command": a cheat sheet of what each is for).
        let mut verb = None;
        // Or, after a situation column, a column headed by what to do
        // ("If you change… | Update", "Symptom | Cause | Investigate via").
        let situation = norm
            .iter()
            .position(|h| is(h, COND) || is(h, &["goal", "need", "type"]));
        // ("Task | Read": a kind of work, then the verb of what to do for
        // it — not "Task | File", a map of where to look.)
        let task = norm.iter().position(|h| is(h, &["task", "tasks"]));
        let action = norm
            .iter()
            // ("When to use" names the situation, though it holds "to use".)
            .position(|h| is(h, ACTION) && !h.trim_start().starts_with("when "))
            .or_else(|| {
                norm.iter()
                    .position(|h| is(h, &["command", "commands"]))
                    .filter(|i| *i > 0 && !is(&norm[0], &["goal", "task", "purpose", "operation"]))
            })
            .or_else(|| {
                // "Goal | Tool", "Test type | Location": after a situation
                // column, the tool to use or the place to write.
                let first = situation?;
                norm.iter()
                    .enumerate()
                    .skip(first + 1)
                    .find(|(_, h)| is(h, &["tool", "tools", "location", "file", "skill"]))
                    .map(|(i, _)| i)
            })
            .or_else(|| {
                let first = situation.or(task)?;
                let at = norm.iter().enumerate().skip(first + 1).find_map(|(i, h)| {
                    let w = words(h);
                    w.first()
                        .filter(|v| lex.is_imperative(&v.text) && !lex.is_speech(&v.text))
                        .map(|_| i)
                })?;
                verb = Some(norm[at].trim().to_string());
                Some(at)
            })?;
        let condition = situation
            .or(task)
            .filter(|c| *c != action)
            .or((action > 0).then_some(0));
        // "Changed area | Tests to run": the cells name what to run.
        if verb.is_none() && words(&norm[action]).iter().any(|w| w.text == "run") {
            verb = Some("run".to_string());
        }
        let changed = condition.is_some_and(|c| {
            words(&norm[c]).iter().any(|w| {
                matches!(
                    w.text.as_str(),
                    "change"
                        | "changed"
                        | "changes"
                        | "modify"
                        | "modified"
                        | "touch"
                        | "touched"
                        | "edit"
                        | "edited"
                )
            })
        });
        let should = norm
            .iter()
            .any(|h| is(h, &["solution", "good", "quality", "right form"]));
        Some(TableRoles {
            condition,
            action: Some(action),
            avoid: None,
            // (Only a plain "Don't" beside a plain "Do": "Why It's Wrong"
            // explains, "Wrong form" under a situation names a form.)
            dont: avoid.filter(|a| {
                *a != action
                    && condition.is_none()
                    && matches!(
                        norm[*a].trim(),
                        "don't" | "dont" | "do not" | "never" | "avoid" | "❌ don't" | "don’t"
                    )
            }),
            verb,
            changed,
            errors: condition.is_some_and(|c| {
                words(&norm[c])
                    .iter()
                    .any(|w| matches!(w.text.as_str(), "error" | "errors" | "failure" | "failures"))
            }),
            modality: if should {
                Modality::Should
            } else {
                Modality::Must
            },
        })
    }
}

impl Extractor<'_> {
    /// A row of a table that only maps situations to things ("Building a
    /// Python server | `reference/python.md`") under a lead-in that says
    /// what to do with them ("Load these references as needed:"): the
    /// lead-in's act on the row's things, under the row's situation.
    pub(super) fn lead_row(&mut self, line: u32, cells: &[String], lead: &str, section: &Section) {
        let text = cells
            .iter()
            .map(|c| c.trim())
            .collect::<Vec<_>>()
            .join(" | ");
        let Some((first, rest)) = cells.split_first() else {
            return;
        };
        if rest.iter().all(|c| c.trim().is_empty()) || strip_emphasis(first).trim().is_empty() {
            return;
        }
        let lex = self.lex;
        let mut d = Draft::new(text, [line, line], Modality::Must);
        // "Fill each item based on the results:" over Item | Criteria: the
        // rows are fields of a text to fill in, not acts.
        if main_verb(&words(&mask(lead).0)).is_some_and(|v| {
            matches!(
                v.as_str(),
                "fill" | "mark" | "tick" | "note" | "record" | "document" | "populate"
            )
        }) {
            self.drafts.push(d);
            return;
        }
        let cond = clause_info(&strip_emphasis(first), lex);
        let act = clause_info(&format!("{lead} {}", rest.join(" ")), lex);
        d.scope.extend(cond.scope.iter().copied());
        d.scope.extend(act.scope.iter().copied());
        match cond.behavior(true) {
            Some(c) if !section.conditional() => {
                d.when = Some(c);
                d.require = act.behavior(true);
            }
            // Which situation holds is not visible; the act is (when-only).
            _ => d.when = act.behavior(false),
        }
        add_predicate_scopes(&mut d, lex);
        self.drafts.push(d);
    }

    /// A row of a table that only explains (Excuse | Reality): a cell that
    /// states a rule of its own ("Only force-push when the user explicitly
    /// asks") is a rule; the excuse is not.
    pub(crate) fn explained_rule(&mut self, line: u32, cells: &[String], section: &Section) {
        for cell in cells.iter().skip(1) {
            let text = strip_emphasis(cell);
            let w = words(&mask(&text).0);
            let first = w.first().map(|x| x.text.as_str()).unwrap_or("");
            let says_rule = matches!(first, "only" | "never" | "always" | "don't" | "do")
                || own_modal(&w).is_some_and(|m| !matches!(m, Modality::Should));
            // ("What happens if it is missing" | "No commit is scanned at
            // all": a consequence, stated.)
            if !says_rule || !w.iter().any(|x| !x.barrier) || passive_fact(&text) {
                continue;
            }
            let ctx = Ctx::plain(section);
            if let Some(a) = analyse(&text, None, &ctx, true, self.lex) {
                let mut d = a.into_draft(&ctx, self.lex);
                d.text = text;
                d.lines = [line, line];
                self.drafts.push(d);
                return;
            }
        }
    }

    pub(crate) fn row(
        &mut self,
        line: u32,
        cells: &[String],
        roles: &TableRoles,
        section: &Section,
    ) {
        let get = |i: Option<usize>| {
            i.and_then(|i| cells.get(i))
                .map(|c| strip_emphasis(c))
                .unwrap_or_default()
        };
        let text = cells
            .iter()
            .map(|c| c.trim())
            .collect::<Vec<_>>()
            .join(" | ");
        if text
            .trim_matches(|c: char| c == '|' || c.is_whitespace())
            .is_empty()
        {
            return;
        }
        let lex = self.lex;
        if let Some(dont) = roles.dont.filter(|i| !get(Some(*i)).trim().is_empty()) {
            // "Commit `.env` files" under Don't reads as "Do not commit
            // `.env` files"; a thing named there ("Hardcoded strings") is
            // no act to forbid.
            let cell = get(Some(dont));
            let imperative =
                main_verb(&words(&mask(&cell).0)).is_some_and(|v| lex.is_imperative(&v));
            let ctx = Ctx::plain(section);
            let read = imperative
                .then(|| {
                    analyse(
                        &format!("Do not {}", first_lower(&cell)),
                        None,
                        &ctx,
                        true,
                        lex,
                    )
                })
                .flatten();
            let mut d = match read {
                Some(a) => a.into_draft(&ctx, lex),
                None => {
                    let mut d = Draft::new(String::new(), [line, line], Modality::MustNot);
                    d.scope
                        .extend(clause_info(&cell, lex).scope.iter().copied());
                    d
                }
            };
            d.text = text.clone();
            d.lines = [line, line];
            d.modality = Modality::MustNot;
            self.drafts.push(d);
        }
        let mut d = Draft::new(text.clone(), [line, line], roles.modality);
        if let Some(avoid) = roles.avoid {
            let cell = get(Some(avoid));
            let info = clause_info(&cell, lex);
            d.scope.extend(info.scope.iter().copied());
            // ("One huge commit touching 50 files": a kind of commit no
            // action shows, never every commit.)
            if !object_qualified(&cell) {
                d.forbid = info.avoided();
            }
        } else {
            let mut cond = condition_info(&get(roles.condition), lex);
            // "`src/api/` | …" under "Changed area": a change to the path.
            if roles.changed {
                let changed = clause_info(&format!("Change {}", get(roles.condition)), lex);
                if changed.behavior(true).is_some() {
                    cond = changed;
                }
            }
            // "Rebase going wrong | `git rebase --abort`", "Already pushed
            // bad rebase | …": a trouble with the act, which the act alone
            // does not show — never a remedy due after every rebase.
            let trouble = plain_words(&get(roles.condition)).iter().any(|t| {
                matches!(
                    t.as_str(),
                    "wrong"
                        | "bad"
                        | "broken"
                        | "stuck"
                        | "messed"
                        | "mess"
                        | "accidentally"
                        | "mistake"
                        | "mistakenly"
                )
            });
            // (Under an "Error" column every row is a trouble.)
            if (trouble || roles.errors) && !names_a_failure(&cond) {
                cond = ClauseInfo::default();
            }
            // ("Merge PR, resolve conflicts | `merge-and-ci.md`": a kind of
            // work that is any edit names no occasion an act shows — the
            // row's other acts are its trigger.)
            cond.actions.retain(|(p, _)| !any_edit(p));
            let mut action_text = get(roles.action);
            // "Update" over "`site/content/api.md`": the header's verb on
            // the cell's object.
            if let Some(v) = &roles.verb {
                let own = words(&mask(&action_text).0)
                    .first()
                    .is_some_and(|w| lex.is_imperative(&w.text));
                if !own {
                    action_text = format!("{v} {action_text}");
                }
            }
            let (own_neg, _) = negation(&words(&mask(&action_text).0));
            let verb = main_verb(&words(&mask(&action_text).0));
            let speech = verb.as_deref().is_some_and(|v| lex.is_speech(v));
            let mut act = clause_info(&action_text, lex);
            // "**profiling** skill": the bold name is the skill's (the
            // cell's emphasis is gone from `action_text`).
            let raw = roles
                .action
                .and_then(|i| cells.get(i))
                .map_or("", |c| c.as_str());
            for name in bold_skill_names(raw) {
                let p = Predicate::Skill(name);
                if !act.actions.iter().any(|(q, _)| *q == p) {
                    act.actions.push((p, true));
                }
            }
            d.scope.extend(cond.scope.iter().copied());
            if !speech {
                d.scope.extend(act.scope.iter().copied());
            }
            d.when = cond.behavior(true);
            if own_neg || verb.as_deref() == Some("skip") {
                d.modality = if matches!(roles.modality, Modality::Should) {
                    Modality::ShouldNot
                } else {
                    Modality::MustNot
                };
                if d.when.is_none() && !speech {
                    d.forbid = act.behavior(false);
                }
            } else if let Some((x, all)) = (!speech)
                .then(|| consent_cells(cells, roles, &act))
                .flatten()
            {
                // "Merge | Require a separate explicit request | Perform the
                // requested merge only": the row's act waits on the user's
                // word. Where every column says so, a consent gate (SPEC
                // §4.2); where only some do, which column applies is not
                // visible: the act is the trigger, judged by people.
                if all {
                    consent_gate(&mut d, x, true);
                } else {
                    d.when = Some(x);
                }
            } else if let Some(sub) = consent_cell(&action_text, section, lex) {
                // "Rebasing a shared branch | Confirm force-push is OK
                // first": the cell asks the user's word for an act of its
                // own, whichever row's situation led there.
                d.when = sub.when;
                d.require = sub.require;
                d.order = sub.order;
                d.modality = sub.modality;
                d.scope.extend(sub.scope);
            } else if let Some(sub) = (!speech)
                .then(|| own_condition_rule(&action_text, section, lex))
                .flatten()
            {
                // "Pushing untested | Run `npm test` before every push": the
                // cell states its own condition; the row's first cell only
                // names the mistake it answers.
                d.when = sub.when;
                d.require = sub.require;
                d.forbid = sub.forbid;
                d.order = sub.order;
                d.scope.extend(sub.scope);
            } else if !speech {
                let cond_text = get(roles.condition);
                // Acts down the side, situations across the top (Action |
                // Agent-started | User-started): each cell is the act under
                // its column's situation, which no action shows.
                let matrix = roles.condition.is_none()
                    && cells
                        .iter()
                        .enumerate()
                        .filter(|(i, c)| {
                            Some(*i) != roles.action && c.chars().any(char::is_alphanumeric)
                        })
                        .count()
                        >= 2;
                // (A "Do" cell beside a "Don't" one says how to do an act
                // the session may never do: "Push to your own branch".)
                let unseen = d.when.is_none()
                    && (!cond_text.trim().is_empty() || matrix || roles.dont.is_some());
                if unseen {
                    // "Abandoned experiment | `git branch -D <name>`": which
                    // row applies is not visible, the act is: judged where it
                    // happened, by people (when-only).
                    d.when = act.behavior(false);
                } else {
                    d.require = act
                        .behavior(true)
                        .filter(|_| d.when.is_some() || !section.conditional());
                    // ("Commit, rebase | Read `commits.md`": the guide for
                    // the work is read before it.)
                    if d.when.is_some() && matches!(d.require, Some(Predicate::Read(_))) {
                        d.order = Some(Order::Before);
                    }
                }
            }
        }
        add_predicate_scopes(&mut d, lex);
        self.drafts.push(d);
    }
}

/// Any edit or write at all (`**`), alone or among alternatives.
fn any_edit(p: &Predicate) -> bool {
    match p {
        Predicate::Edit(g) | Predicate::Write(g) | Predicate::Touch(g) => g == "**",
        Predicate::Any(ps) => ps.iter().any(any_edit),
        _ => false,
    }
}
