//! Part of stage 3 (conditions): an analysed sentence (its conditions, main
//! clause and the marks found on them) and how it becomes a rule's `when` /
//! `require` / `forbid` / `order`.

use super::*;

/// The parts of a rule sentence.
pub(crate) struct Analysis {
    pub(crate) modality: Modality,
    pub(crate) negative: bool,
    pub(crate) speech: bool,
    /// Condition text and the order its `require` takes relative to it.
    pub(crate) conditions: Vec<(String, Order)>,
    /// The only condition is the section heading's ("### When a new PR is
    /// opened" over "Do NOT approve").
    pub(crate) heading_case: bool,
    pub(crate) main: String,
    /// "without Y" (negative rules): Y.
    pub(crate) without: Option<String>,
    /// "before/until Y" after a negative main clause: Y must come first.
    pub(crate) negative_before: Option<String>,
    /// Scope from the whole sentence's words (main part excluded for speech).
    pub(crate) scope_text: Vec<String>,
    /// A speech rule about secrets ("Never ask the user to paste API keys
    /// in the chat"): what it guards is the secret, whatever is said.
    pub(crate) speaks_secrets: bool,
    /// The main clause may become a `forbid`.
    pub(crate) forbid_ok: bool,
    /// "Prefer X over Y": Y.
    pub(crate) avoided: Option<String>,
    /// The main verb chooses a means ("use", "prefer"): not an act required on its own.
    pub(crate) chooses: bool,
    /// "Only X when the user explicitly asks": X is gated on consent.
    pub(crate) only_on_consent: bool,
    /// "X only after Y" / "X only when Y": X is the trigger, Y is due
    /// before it.
    pub(crate) only_after: bool,
    /// "Only amend your own commits", "Only push to feature branches": a
    /// limit on the act wherever it happens, never a demand that it does.
    pub(crate) only_limits: bool,
    /// "Skip immediately", "Skip to step 2": what is skipped is not done.
    pub(crate) skips: bool,
    /// Paths a negative rule names in code spans (`.env`, `*.pem`).
    pub(crate) named_paths: Vec<String>,
    /// "To invoke an agent, use …": the rule serves a situation.
    pub(crate) purpose: bool,
    /// The rule says "each" / "every": its requirement holds per firing
    /// event (`before-each`).
    pub(crate) each: bool,
    /// The main verb is "proceed" / "continue" (what comes next).
    pub(crate) proceeds: bool,
    /// "Never skip X": X is required (a double negative).
    pub(crate) skipped: bool,
    /// "Wait for approval or edits": the steps that follow wait on the
    /// user's word; which acts they are, the document says ([`Draft::awaits`]).
    pub(crate) awaits: bool,
    /// "Ask the user which version bump to apply": what the user picks
    /// ("version bump to apply"), an act that waits on the answer.
    pub(crate) picked: Option<String>,
    /// A negative rule whose object is qualified ("untested code", "no
    /// credentials", "files that fail to build"): the act is its trigger,
    /// never a forbid of every such act.
    pub(crate) qualified: bool,
    /// "Update this skill only through a pull request": the act is allowed
    /// only by that means — `when` the act, `require` the means.
    pub(crate) only_via: Option<String>,
}

impl Analysis {
    /// The rule holds only under a condition about the user or the
    /// conversation ("When the user asks for a release, …"), which no action
    /// shows: a `require` would wrongly bind every session.
    pub(crate) fn user_condition(&self, lex: &Lexicon) -> bool {
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
            // ("Preview the PR title with the user before creating it",
            // "Discuss the plan with the user before coding": gone over
            // together, the user's answer awaited.)
            let names_user = w.iter().any(|x| {
                matches!(
                    x.text.as_str(),
                    "user" | "user's" | "human" | "partner" | "maintainer"
                )
            });
            let with_user = names_user
                && opening_word(&w).is_some_and(|x| {
                    matches!(
                        x.text.as_str(),
                        "check"
                            | "clear"
                            | "confirm"
                            | "get"
                            | "obtain"
                            | "consult"
                            | "preview"
                            | "discuss"
                    ) || (x.text == "review" && w.iter().any(|y| y.text == "with"))
                });
            // ("Check the branch permissions": access rights looked at, not
            // consent sought.)
            let looks_at = opening_word(&w).is_some_and(|x| {
                matches!(x.text.as_str(), "check" | "verify" | "inspect" | "review")
            });
            with_user
                || explicit_quoted_word(&lower)
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
                // ("Wait for the user to confirm", "… until the user
                // agrees": the verb whose subject is the user.)
                || (names_user
                    && w.iter().any(|x| {
                        matches!(
                            x.text.as_str(),
                            "confirm" | "agree" | "agrees" | "agreed" | "accept" | "accepts"
                        )
                    }))
        };
        // "Ask the user to review the spec before proceeding": asking
        // before going on waits for the answer.
        // ("Tell the user which branch it targets and ask before
        // continuing": the second of two joined verbs.)
        let mw = words(&mask(&self.main).0);
        let asks = opening_word(&mw).is_some_and(|w| w.text == "ask")
            || mw
                .windows(2)
                .any(|p| matches!(p[0].text.as_str(), "and" | "then") && p[1].text == "ask");
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
        // "Wait until the user confirms before pushing": the user's word is
        // the condition the waiting holds to, the act after "before" what
        // waits for it.
        let waits = opening_word(&mw).is_some_and(|w| w.text == "wait");
        if waits {
            for (c, _) in self.conditions.iter().filter(|(c, _)| seeks(c)) {
                const BEFORE: &str = " before ";
                let lower = c.to_lowercase();
                let Some(at) = lower
                    .find(BEFORE)
                    .map(|i| i + BEFORE.len())
                    .filter(|&i| c.is_char_boundary(i))
                else {
                    continue;
                };
                if let Some(act) = clause_info(&c[at..], lex).behavior(false) {
                    return Some((act, true));
                }
            }
        }
        if seeks(&self.main) {
            for (c, o) in &self.conditions {
                if *o != Order::Before {
                    continue;
                }
                // ("… ask for confirmation before updating": the skill's
                // own changes, whatever they touch — its edits.)
                if names_going_on(c) || names_the_start_of_work(c) || names_a_bare_change(c) {
                    return Some((work_edits(lex), self.each));
                }
                if let Some(act) = clause_info(c, lex)
                    .behavior(false)
                    .or_else(|| object_elided(c, &self.main, lex)?.behavior(false))
                {
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
    pub(crate) fn unseen_condition(&self, lex: &Lexicon) -> bool {
        self.unseen_condition_but(lex, false)
    }

    /// A prohibited act that gets around a safeguard ([`overrides_a_safeguard`])
    /// is the rule whatever case it names — unless the case is the user's
    /// asking, or the object is someone else's work ("don't amend others'
    /// work": amending one's own is no breach).
    fn bypass(&self, x: &Predicate, lex: &Lexicon) -> bool {
        overrides_a_safeguard(x) && !self.user_condition(lex) && !owned_by_others(&self.main)
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
            let info = condition_info(c, lex);
            (info.actions.is_empty() && info.modifiers.is_empty() && !c.trim().is_empty())
                || (state_condition(c) && !names_a_failure(&info))
        })
    }

    pub(crate) fn into_draft(self, ctx: &Ctx, lex: &Lexicon) -> Draft {
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
            let mut info = condition_info(c, lex);
            // "… before deletion", "before the removal of the branches":
            // the act the noun names.
            let verbal = info.actions.is_empty().then(|| act_for_noun(c)).flatten();
            let c = verbal.as_deref().unwrap_or(c);
            if verbal.is_some() {
                info = condition_info(c, lex);
            }
            if info.actions.is_empty() && *o == Order::Before {
                if let Some(elided) =
                    object_elided(c, &self.main, lex).or_else(|| first_act(c, lex))
                {
                    info = elided;
                }
            }
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
            // "… when releasing from non-default branches": the branch is
            // where the condition's act happens, not the main clause's.
            // A condition that is only a branch ("When on `main`, …") says
            // where the main clause's act is.
            match any_of(info.modifiers.clone()).filter(|_| !info.actions.is_empty()) {
                Some(m) => cond_actions.extend(
                    info.actions
                        .into_iter()
                        .map(|(p, r)| (Predicate::All(vec![p, m.clone()]), r)),
                ),
                None => {
                    cond_actions.extend(info.actions);
                    cond_mods.extend(info.modifiers);
                }
            }
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
            let asks = opening_word(&mw)
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
                // ("… WITHOUT test-writer SKILL", "… without the reviewer
                // agent": the skill or agent named is the one used.)
                let names_agent = words(&mask(y).0).iter().any(|w| {
                    matches!(
                        w.text.as_str(),
                        "skill" | "skills" | "agent" | "subagent" | "sub-skill"
                    )
                });
                let req = clause_info(y, lex).behavior(true).or_else(|| {
                    names_agent
                        .then(|| clause_info(&format!("use {y}"), lex).behavior(true))
                        .flatten()
                });
                let consent = user_consent(y);
                // ("… without telling the user": what the agent says, no
                // answer to wait for.)
                let informs = informs_the_user(y);
                match (main_pred, req) {
                    (Some(x), _) if informs => d.when = Some(x),
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
                    // "Do not proceed without approval": whatever changes
                    // files next waits for the user's turn (a gate the
                    // document pass moves onto the next scoped step).
                    (None, _) if mentions_consent(y) && self.proceeds => {
                        consent_gate(&mut d, proceeding(&mods), false)
                    }
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
                    (None, _) if mentions_consent(y) && self.proceeds => {
                        consent_gate(&mut d, proceeding(&mods), false)
                    }
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
            } else if let Some(x) = main_pred
                .clone()
                .filter(|x| when_actions.is_some() && !self.qualified && self.bypass(x, lex))
            {
                // "If the commit fails due to a hook: … do NOT amend": a way
                // around a safeguard is forbidden in any case.
                d.forbid = Some(x);
            } else if let Some((x, passed)) = main_pred
                .clone()
                .zip(when_actions.as_ref().and_then(passed_instead))
            {
                // "Do not tag if the tests fail", "Do NOT proceed to tagging
                // if CI fails": the act needs the check passed before it.
                d.when = Some(x);
                d.require = Some(passed);
                d.order = Some(Order::Before);
            } else if when_actions.is_some() {
                // "If X, never Y": `forbid` ignores `when`, so the rule is
                // judged only where X happened, by people. (Under a
                // heading's case alone — "#### If CI Passes" / "do not
                // merge" — the document pass may still forbid what no rule
                // asks for: [`case_forbids_what_no_rule_asks`].)
                if self.heading_case && !self.qualified && !self.user_condition(lex) {
                    d.case_forbid = main_pred.clone();
                }
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
                // (A way around a safeguard — `--no-verify`, a force push,
                // an amend — is what the rule is about whatever the case
                // it names: "If the hook fails, never use `--no-verify`".)
                // (A bypass under a case no act shows is still forbidden;
                // one on a qualified object — "pushed commits" — is not:
                // amending an unpushed commit is no breach.)
                let unseen = self.unseen_condition(lex) && !self.bypass(&x, lex);
                if unseen || self.qualified || owned_by_others(&self.main) {
                    // "Never push while a review is pending": whether the
                    // condition held is not visible, the act is — its
                    // trigger, judged by people, never a forbid of every push.
                    // (Under a heading's case alone, the document pass may
                    // still forbid it: [`case_forbids_what_no_rule_asks`].)
                    // (Not a case of the user's asking: "### If the User
                    // Asks to Drop Files from History".) Nor is whose
                    // work it is ("Never amend other developers' commits").
                    if self.heading_case
                        && !self.qualified
                        && !self.user_condition(lex)
                        && !owned_by_others(&self.main)
                    {
                        d.case_forbid = Some(x.clone());
                    }
                    d.when = Some(x);
                } else {
                    d.forbid = Some(x);
                }
            } else if !mods.is_empty() && main.actions.is_empty() && main.mentions_work {
                d.forbid = Some(Predicate::All(vec![
                    Predicate::Touch("**".into()),
                    any_of(mods).expect("non-empty"),
                ]));
            } else if let Some(x) = main_verb(&words(&mask(&self.main).0))
                // (The verb, not a noun: "Do not defer these to the audit
                // stage", "… reach a commit message".)
                .is_some_and(|v| matches!(v.as_str(), "commit" | "stage" | "add"))
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
            // ("After approval, apply the changes": one word covers the
            // batch of edits.)
            let each = !x.any_node(&|q| is_path_action(q));
            consent_gate(&mut d, x, each);
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
            } else if self.heading_case && !ctx.after_user && !self.user_condition(lex) {
                // "### When a new PR is opened" / "1. Run `gh pr diff`":
                // whether the case holds no act shows, unless the case's
                // own scoped act does (the document pass looks).
                d.case_require = req;
            } else if ctx.section.one_of_many()
                && self.conditions.is_empty()
                && !ctx.after_user
                && !unseen
            {
                // "## Workflows" / "### Commit Workflow" / "- Read the
                // recent commit messages": which workflow a session follows
                // no act shows, but the acts of its own steps do (the
                // document pass orders the step around them).
                d.case_require = req;
                d.workflow = true;
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
        // ("Review and merge the PR": a look-up joined to an act is the
        // act.)
        let looks = |v: &str| {
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
        };
        let main_words = words(&mask(&self.main).0);
        let look_up = !self.negative
            && main_verb(&main_words).is_some_and(|v| looks(&v))
            && coordinated_verb(&main_words, lex)
                .is_none_or(|(v, _)| looks(&main_words[v + 2].text));
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
        // "Ask for confirmation before proceeding": which acts proceed,
        // the steps after it say.
        // (Not where a case of its own comes first: "If access is denied,
        // request permission before continuing".)
        let going_on = !self.conditions.is_empty()
            && self
                .conditions
                .iter()
                .all(|(c, o)| *o == Order::Before && names_going_on(c));
        if (self.awaits || going_on)
            && d.require == Some(Predicate::UserTurn)
            && d.when.as_ref() == Some(&work_edits(lex))
        {
            d.awaits = true;
        }
        d
    }
}

/// A rule on where content is kept: "keep", "store", "put" or "place" and
/// a place ("in", "out of", "under", "inside", "outside").
pub(super) fn places_content(main: &str) -> bool {
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
pub(super) fn only_paths(p: &Predicate) -> bool {
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
pub(super) fn limit_norm(w: &[Word]) -> bool {
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
pub(super) fn file_tool_purpose(main: &str, lex: &Lexicon) -> Option<String> {
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
pub(super) fn active_form(c: &str, lex: &Lexicon) -> Option<String> {
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
    let base = base_verb(participle, lex)?;
    let subject = t[..be].join(" ");
    Some(format!("{base} {subject}"))
}

/// The verb of a participle the lexicon knows ("committed" → "commit",
/// "deleted" → "delete", "pushed" → "push").
pub(crate) fn base_verb(participle: &str, lex: &Lexicon) -> Option<String> {
    let stem = participle.strip_suffix("ed")?;
    let doubled =
        stem.len() > 2 && stem.as_bytes()[stem.len() - 1] == stem.as_bytes()[stem.len() - 2];
    [
        format!("{stem}e"),
        stem.to_string(),
        if doubled {
            stem[..stem.len() - 1].to_string()
        } else {
            String::new()
        },
    ]
    .into_iter()
    .find(|b| !b.is_empty() && lex.is_imperative(b))
}

/// "using this skill", "while this skill is active", "when you follow
/// this skill": a condition that holds for as long as the skill steers.
pub(crate) fn this_skill_in_use(c: &str) -> bool {
    // ("when this skill is invoked with `/finish`": how it is invoked.)
    let c = c.split(" with ").next().unwrap_or(c);
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

/// What "proceeding" is where no act is named ("Do not proceed until the
/// user responds"): changing files next, on the branches named if any.
/// "Preview the PR title with the user before creating": a condition that
/// is an act alone ("creating"), its object the main clause's — the act on
/// what the main clause names. None where that names no act either.
fn object_elided(c: &str, main: &str, lex: &Lexicon) -> Option<ClauseInfo> {
    let cw = plain_words(c);
    if cw.len() != 1 || !cw[0].ends_with("ing") {
        return None;
    }
    let info = condition_info(&format!("{} {}", cw[0], main), lex);
    // (The act is the condition's verb on that object: "Before
    // delivering:" over "- Git blame on removed code" names no act of
    // delivering — the item's own act is all it finds.)
    let own = clause_info(main, lex).behavior(false);
    (!info.actions.is_empty() && info.behavior(false) != own).then_some(info)
}

/// An act that gets around a safeguard: a force (push, checkout, clean),
/// skipped hooks (`--no-verify`), an amend of the last commit, a hard
/// reset, a forced branch deletion. Every alternative of an `any` must be
/// one; one part of an `all` is enough.
pub(crate) fn overrides_a_safeguard(p: &Predicate) -> bool {
    const FLAGS: &[&str] = &["--force", "--no-verify", "--amend", "--hard"];
    let named = |s: &str| {
        let s = s.replace('\\', "");
        FLAGS.iter().any(|f| s.contains(f))
    };
    match p {
        Predicate::Git { args, .. } => args
            .iter()
            .any(|a| FLAGS.contains(&a.as_str()) || a == "-f" || a == "-D"),
        Predicate::Command(s) | Predicate::CommandRe(s) => named(s),
        Predicate::Any(v) => !v.is_empty() && v.iter().all(overrides_a_safeguard),
        Predicate::All(v) => v.iter().any(overrides_a_safeguard),
        _ => false,
    }
}

/// "others' work", "other developers' commits", "someone else's branch":
/// an object owned by another person, which no action shows.
fn owned_by_others(main: &str) -> bool {
    let t = main.to_lowercase().replace('\u{2019}', "'");
    [
        "others'",
        "other's",
        "other people",
        "other developers",
        "other contributors",
        "other authors",
        "someone else",
        "somebody else",
        "another developer",
        "another person",
        "another author",
    ]
    .iter()
    .any(|k| t.contains(k))
}

/// "deletion", "the removal of old tags", "any creation of branches": a
/// condition that names an act by its noun, read as that act's gerund
/// ("deleting", "removing old tags"). None where no such noun leads it.
fn act_for_noun(c: &str) -> Option<String> {
    let cw = plain_words(c);
    let start = usize::from(
        cw.first()
            .is_some_and(|w| matches!(w.as_str(), "the" | "any" | "each" | "every" | "a")),
    );
    let gerund = match cw.get(start)?.as_str() {
        "deletion" | "deletions" => "deleting",
        "removal" | "removals" => "removing",
        "creation" => "creating",
        "publication" => "publishing",
        "installation" | "installations" => "installing",
        "submission" => "submitting",
        "modification" | "modifications" => "modifying",
        _ => return None,
    };
    match &cw[start + 1..] {
        [] => Some(gerund.to_string()),
        [of, rest @ ..] if of == "of" && !rest.is_empty() => {
            Some(format!("{gerund} {}", rest.join(" ")))
        }
        _ => None,
    }
}

/// "Before first commit", "before your first push": the first of the acts
/// named (a commit, a push) — "the first commit" elsewhere is a thing.
fn first_act(c: &str, lex: &Lexicon) -> Option<ClauseInfo> {
    let cw = plain_words(c);
    let act = match cw.as_slice() {
        [first, act] if first == "first" => act,
        [det, first, act] if first == "first" && matches!(det.as_str(), "the" | "your" | "its") => {
            act
        }
        _ => return None,
    };
    let info = condition_info(act, lex);
    (!info.actions.is_empty()).then_some(info)
}

/// A failed act (`{all: [check, {failed: true}]}`) turned into that act
/// passed (`{all: [check, {not: {failed: true}}]}`); None for any other
/// condition.
fn passed_instead(p: &Predicate) -> Option<Predicate> {
    let Predicate::All(v) = p else {
        return None;
    };
    let failed = v.iter().position(|q| *q == Predicate::Failed(true))?;
    let mut v = v.clone();
    v[failed] = Predicate::Not(Box::new(Predicate::Failed(true)));
    (v.len() >= 2).then_some(Predicate::All(v))
}

pub(crate) fn proceeding(mods: &[Predicate]) -> Predicate {
    on_branches(
        Predicate::Any(vec![
            Predicate::Write("**".into()),
            Predicate::Edit("**".into()),
        ]),
        mods,
    )
}

/// The first word of a clause that is not a filler ("then", "always"…):
/// its verb, where it opens with one.
fn opening_word(w: &[Word]) -> Option<&Word> {
    w.iter().find(|x| !x.barrier && !is_filler(&x.text))
}
