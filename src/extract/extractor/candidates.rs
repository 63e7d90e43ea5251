//! Stage 2: rule candidates. Walks the markdown blocks (headings, tags,
//! paragraphs, list items with their lead-ins, decision-table rows, fenced
//! blocks), decides which are examples, explanations or rules, and hands each
//! candidate to the condition stage. Modality words live here too.

use super::readings::{
    act_needs_consent, act_then_so, acts_before_the_dash, agent_narration, change_kind_requires,
    command_then_verdict, connective_command, consent_phrasing, explicit_staging, first_lower,
    flag_with_command, git_subcommand_list, never_with_failing, only_first, quoted_motto,
    reason_then_rule, sentence_adverbial, state_checked_by, wrong_order,
};
use super::*;

/// What governs a list: a lead-in paragraph or a parent item ending in ':'.
#[derive(Debug, Clone, Default)]
pub(super) struct Lead {
    /// The lead-in is a rule marker or says a rule ("Always:", "Confirm:").
    pub(super) normative: bool,
    /// Modality its items inherit when they say none themselves.
    pub(super) modality: Option<Modality>,
    /// "ALWAYS before:" / "STOP when:": the items are the conditions.
    pub(super) items_are_conditions: Option<Order>,
    /// "Before marking work complete:": the lead-in's own condition text.
    pub(super) condition: Option<(String, Order)>,
    /// The lead-in also has a main clause ("When X, read Y:"): a rule itself.
    pub(super) has_main: bool,
    /// The lead-in names branches ("Never touch these branches:"): its
    /// items are branch names.
    pub(super) branches: bool,
    /// The lead-in's verb writes files ("Generate these files:"): an item
    /// naming a file is a file to write.
    pub(super) path_verb: Option<String>,
    /// "Use when:" / "Don't use when:" / "When to use:": the items say when
    /// the skill applies, they are not rules.
    pub(super) use_conditions: bool,
    /// "Use option 3 instead. This workflow:": a lead-in with a rule of its
    /// own whose last sentence says the items describe what something does.
    pub(super) describes_items: bool,
    /// A short lead-in ending in when / if / for ("Create when:", "Don't
    /// create for:"): under a "When to …" heading, its items say when.
    pub(super) short_conditional: bool,
    /// "Offer exactly these choices:", "Present the options:": the items
    /// are what to say, part of the lead-in's rule.
    pub(super) speech_items: bool,
    /// "Each agent gets:" / "The reviewer checks:": the items are another
    /// agent's brief, not acts of the agent the skill steers.
    pub(super) other_actor: bool,
    /// "Requires confirmation, including:": the items are acts that wait
    /// on the user's word.
    pub(super) approval: bool,
    /// "NEVER force push to:": a negative act whose objects are the items
    /// (branch names); the act itself.
    pub(super) act_on_items: Option<Predicate>,
    /// "You must ask before:", "Check with the user before:": each item is
    /// an act that waits on the user's word (a consent gate per item).
    pub(super) consent_before: bool,
    /// "Never commit:", "Do NOT commit files that are:": the items are what
    /// is not to be staged; the lead-in's verb.
    pub(super) stage_verb: Option<String>,
    /// "Mock external factors:", "Stub these in unit tests:": the items
    /// are what the lead-in's verb acts on, not acts of the session.
    pub(super) topic_items: bool,
}

/// The heading context of a block.
#[derive(Debug, Clone, Default)]
pub(super) struct Section {
    /// Heading texts, outermost first.
    pub(super) headings: Vec<(usize, String)>,
    /// The document's title: a level-1 heading before any other heading
    /// ("# deploy-troubleshoot") names the skill, not a situation.
    pub(super) title: Option<String>,
}

impl Section {
    pub(super) fn nearest(&self) -> &str {
        self.headings.last().map_or("", |(_, t)| t.as_str())
    }
    /// Items under this heading are rules ("Red Flags", "Checklist", "Done when").
    pub(super) fn normative(&self) -> Option<Option<Modality>> {
        let h = self.nearest().to_lowercase();
        let w = words(&h);
        let has = |x: &str| w.iter().any(|t| t.text == x);
        let phrase = |x: &str| h.contains(x);
        if phrase("red flag")
            || phrase("failure signal")
            || phrase("warning sign")
            || has("violations")
            || has("never")
            || phrase("don't")
            || phrase("do not")
            || has("avoid")
            || phrase("anti-pattern")
            || phrase("non-goal")
            || phrase("non goal")
            || phrase("out of scope")
        {
            return Some(Some(if has("avoid") {
                Modality::ShouldNot
            } else {
                Modality::MustNot
            }));
        }
        if has("rules")
            || has("rule")
            || has("law")
            || has("requirements")
            || has("checklist")
            || has("remember")
            || phrase("done when")
            || phrase("success signal")
            || phrase("finished when")
            || phrase("complete when")
            || phrase("success criteria")
            || phrase("acceptance criteria")
            || phrase("exit criteria")
            || phrase("definition of done")
            || has("postcondition")
            || has("postconditions")
            // "## Verification" / "- Pods are running and serving": the
            // states the work must leave, each one to confirm.
            || has("verification")
            || has("principles")
            || has("guardrails")
            || has("constraints")
            || has("must")
            || has("always")
            // A template's sections of what the work delivers and how it
            // is checked ("## Outputs", "## Acceptance checks").
            || matches!(
                h.trim(),
                "outputs" | "deliverables" | "expected outputs" | "checks" | "acceptance checks" | "quality checks"
            )
        {
            return Some(None);
        }
        None
    }
    /// The condition the nearest heading states ("Before You Start", "When
    /// Tests Fail", "0) If the server is not connected"), for the rules under
    /// it that state none; not a planning milestone ("After the Design").
    pub(super) fn condition(&self) -> Option<(String, Order)> {
        let h = self.nearest();
        if heading_after_planning(h) || self.when_to() {
            return None;
        }
        let w = words(h);
        let first = w.get(heading_number(&w))?;
        let order = match first.text.as_str() {
            "before" => Order::Before,
            "if" | "when" | "whenever" | "after" | "once" | "unless" => Order::After,
            _ => return None,
        };
        // The heading's words after the condition word.
        let lower = h.to_lowercase();
        let at = lower.find(first.text.as_str())? + first.text.len();
        let rest = h.get(at..)?.trim().trim_end_matches(':').to_string();
        (!rest.is_empty()).then_some((rest, order))
    }
    /// A "When to Use" / "When not to Create a Skill" section: it says when
    /// the skill (or what it makes) applies. ("When to Stop" rules.)
    pub(super) fn when_to(&self) -> bool {
        let h = self.nearest().to_lowercase();
        let rest = h
            .strip_prefix("when to ")
            .or_else(|| h.strip_prefix("when not to "));
        rest.and_then(|r| r.split_whitespace().next())
            .is_some_and(|v| {
                matches!(
                    v,
                    "use" | "create" | "apply" | "invoke" | "load" | "trigger" | "choose" | "write"
                )
            })
    }
    /// An "Example" section: its text shows, it does not rule.
    pub(super) fn example(&self) -> bool {
        self.headings.iter().any(|(_, t)| {
            words(t).first().is_some_and(|f| {
                matches!(
                    f.text.as_str(),
                    "example" | "examples" | "sample" | "samples"
                )
            }) || words(t).iter().any(|x| {
                // A pressure test or scenario shows options, right and wrong.
                x.text.starts_with("scenario") || x.text == "pressure"
            })
        })
    }

    /// A pressure test or scenario: its options are shown, right and wrong.
    pub(super) fn scenario(&self) -> bool {
        self.headings.iter().any(|(_, t)| {
            words(t)
                .iter()
                .any(|x| x.text.starts_with("scenario") || x.text == "pressure")
        })
    }

    /// A heading places its steps after a planning milestone ("After the
    /// Design", "Once the Plan Is Approved"): they belong to the planning
    /// phase, which ends where the work starts.
    pub(super) fn after_planning(&self) -> bool {
        self.headings.iter().any(|(_, t)| heading_after_planning(t))
    }

    /// The section is conditional for a reason other than a planning
    /// milestone.
    pub(super) fn conditional_beyond_planning(&self) -> bool {
        self.headings
            .iter()
            .any(|(_, t)| !heading_after_planning(t) && heading_conditional(t))
    }

    /// The section is optional or conditional ("From setup.py", "If …",
    /// "Troubleshooting", "Examples"): its steps are not required on every run.
    pub(super) fn conditional(&self) -> bool {
        self.headings
            .iter()
            .filter(|(l, t)| !(*l == 1 && self.title.as_ref() == Some(t)))
            .any(|(_, t)| heading_conditional(t))
            || self.one_of_many()
    }

    /// A section that points elsewhere ("## See also", "## Related
    /// Skills", "## Further Reading"): its lines name other documents and
    /// skills, no rules.
    pub(super) fn references(&self) -> bool {
        let h = strip_emphasis(self.nearest()).to_lowercase();
        let h = h.trim();
        matches!(
            h,
            "see also"
                | "further reading"
                | "credits"
                | "acknowledgements"
                | "acknowledgments"
                | "license"
        ) || h == "related"
            || [
                "related skills",
                "related docs",
                "related documentation",
                "related commands",
            ]
            .iter()
            .any(|p| h.starts_with(p))
    }

    /// A section under a heading that is the user's approval ("### Step 4:
    /// If Approved"): its steps come after the user's word.
    pub(super) fn consented(&self) -> bool {
        self.headings
            .iter()
            .filter(|(l, t)| !(*l == 1 && self.title.as_ref() == Some(t)))
            .any(|(_, t)| {
                heading_conditional(t)
                    && (user_consent(t)
                        || words(t).iter().any(|w| {
                            matches!(
                                w.text.as_str(),
                                "approved" | "approval" | "approves" | "consent" | "consents"
                            )
                        }))
            })
    }

    /// A section under a heading that lists alternatives ("## Workflows"
    /// over "### Create", "### Scan", "### Clean up"): which one a session
    /// follows depends on what it was asked, so its steps bind only where
    /// that workflow is seen.
    fn one_of_many(&self) -> bool {
        let n = self.headings.len();
        n >= 2
            && self.headings[..n - 1].iter().any(|(_, t)| {
                words(t).iter().any(|w| {
                    matches!(
                        w.text.as_str(),
                        "workflows"
                            | "operations"
                            | "modes"
                            | "procedures"
                            | "recipes"
                            | "scenarios"
                            | "playbooks"
                    )
                })
            })
    }
}

fn heading_after_planning(t: &str) -> bool {
    let w = words(t);
    w.first()
        .is_some_and(|f| matches!(f.text.as_str(), "after" | "once"))
        && planning_milestone(t)
}

/// Text about a planning milestone: a design, plan or spec, or its approval.
pub(super) fn planning_milestone(t: &str) -> bool {
    let w = words(&mask(t).0);
    w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "design" | "plan" | "planning" | "spec" | "specification" | "proposal" | "approach"
        )
    }) && (w.iter().any(|x| {
        // ("Once planning is complete", "when the plan is done".)
        x.text.starts_with("approv")
            || x.text.starts_with("complet")
            || x.text.starts_with("finish")
            || x.text == "done"
            || x.text.starts_with("validat")
            || x.text.starts_with("agree")
            || x.text.starts_with("accept")
            || x.text.starts_with("sign")
    }) || matches!(w.first().map(|x| x.text.as_str()), Some("after" | "once")))
}

/// Words that number a heading ("0) If …", "Step 3: When …"): how many
/// lead it, so its first word is the one after them.
fn heading_number(w: &[Word]) -> usize {
    w.iter()
        .take_while(|x| {
            x.text.chars().all(|c| c.is_ascii_digit() || c == '.')
                || matches!(x.text.as_str(), "step" | "phase" | "stage" | "part")
        })
        .count()
}

pub(super) fn heading_conditional(t: &str) -> bool {
    let w = words(t);
    let w = &w[heading_number(&w)..];
    w.first().is_some_and(|f| {
        matches!(
            f.text.as_str(),
            "from"
                | "if"
                | "when"
                | "for"
                | "optional"
                | "option"
                | "alternative"
                | "alternatives"
                | "after"
                | "before"
                | "once"
                | "unless"
        )
    }) || known_problems(w)
        || w.iter().any(|x| {
            x.text.starts_with("migrat")
            || x.text.starts_with("troubleshoot")
            || x.text.starts_with("example")
            || x.text == "fallback"
            || x.text == "optional"
            || x.text == "faq"
            || x.text == "gotchas"
            // "Push fails", "Permission denied", "Merge conflicts": the
            // steps there recover from a failure, they hold only after it.
            // ("Watch It Fail", "Write Failing Test" name steps, not a
            // failure.)
            || matches!(
                x.text.as_str(),
                "fails"
                    | "failed"
                    | "failure"
                    | "failures"
                    | "error"
                    | "errors"
                    | "denied"
                    | "rejected"
                    | "conflict"
                    | "conflicts"
            )
        })
}

/// "Common Issues", "Known Problems", "Edge Cases": what to do in a
/// situation the session may never meet.
fn known_problems(w: &[Word]) -> bool {
    w.windows(2).any(|p| {
        matches!(
            (p[0].text.as_str(), p[1].text.as_str()),
            ("common" | "known", "issues" | "problems") | ("edge" | "corner", "cases")
        )
    })
}

pub(super) struct Extractor<'a> {
    pub(super) lex: &'a Lexicon,
    pub(super) drafts: Vec<Draft>,
    /// The scoped acts the skill's description names.
    pub(super) subject: Vec<SubjectAct>,
    /// What the skill's acts handle when the skill exists for it
    /// ([`stored_topic`]): the scope of its rules that name no object.
    pub(super) topic: BTreeSet<ScopeTag>,
    /// The skill's own activity as its description names it ("Review a
    /// pull request" → review): [`activity_verbs`].
    pub(super) activity: Vec<String>,
}

/// Tags whose content is an example, not a rule.
pub(super) const EXAMPLE_TAGS: &[&str] = &[
    "good",
    "bad",
    "example",
    "examples",
    "sample",
    "output",
    "evaluation",
    "qa_pair",
    "response",
    "transcript",
];

/// Quotation marks outside code spans.
fn quote_marks(text: &str) -> usize {
    let mut in_code = false;
    let mut n = 0;
    for c in text.chars() {
        match c {
            '`' => in_code = !in_code,
            '"' | '\u{201C}' | '\u{201D}' if !in_code => n += 1,
            _ => {}
        }
    }
    n
}

/// A paragraph that opens a quotation it does not close, and the index of
/// the later paragraph (before the next heading) that closes it.
fn quotation_end(blocks: &[Block], at: usize, text: &str) -> Option<usize> {
    let opens = text
        .trim_start_matches(['*', '_', ' '])
        .starts_with(['"', '\u{201C}']);
    if !opens || quote_marks(text) % 2 == 0 {
        return None;
    }
    for (j, b) in blocks.iter().enumerate().skip(at + 1) {
        match b {
            Block::Heading { .. } | Block::Fence { .. } => return None,
            Block::Para(l) | Block::Item { body: l, .. } if quote_marks(&l.text) % 2 == 1 => {
                return Some(j);
            }
            _ => {}
        }
    }
    None
}

impl Extractor<'_> {
    pub(super) fn run(&mut self, blocks: &[Block]) {
        let mut section = Section::default();
        let mut seen_heading = false;
        let mut example_depth = 0usize;
        let mut para_lead: Option<Lead> = None;
        let mut items: Vec<(usize, Option<Lead>)> = Vec::new();
        let mut table: Option<TableRoles> = None;
        let mut table_header: Option<std::rc::Rc<Vec<String>>> = None;
        // Indent of the numbered list where a step waited on the user, and
        // whether that step gets a design or plan approved.
        let mut user_gate: Option<(usize, bool)> = None;
        // A numbered procedure in a conditional section ("From flake8 +
        // black"): its indent and what its first step visibly does.
        let mut procedure: Option<(usize, Option<Predicate>)> = None;
        // Top-level steps of that procedure seen so far.
        let mut steps = 0usize;
        // Index of the block that closes a quotation spanning blocks.
        let mut quote_until: Option<usize> = None;
        // The rule of a paragraph or item that ends with a colon ("Run the
        // validation script:"), while only blank lines follow it.
        let mut colon_rule: Option<usize> = None;
        // A table of situations under such a lead-in ("Load these as
        // needed:" / | Situation | File |): the lead-in's text.
        let mut table_lead: Option<String> = None;
        // A short lead-in that made no rule of its own ("1. Check the
        // status:"), while only blank lines follow it: its text and lines.
        let mut bare_colon: Option<(String, [u32; 2])> = None;
        // The commands of the last shell block of this section: what "If
        // successful:" over the next block refers to.
        let mut last_shell: Vec<Predicate> = Vec::new();
        for (bi, block) in blocks.iter().enumerate() {
            let drafts_before = self.drafts.len();
            let colon_before = colon_rule.take();
            let bare_before = bare_colon.take();
            // A message to say, quoted across paragraphs ("**\"Plan saved.
            // Two options:**" … "**Which approach?\"**"): its options and
            // lines are what the agent says, not rules.
            if let Some(end) = quote_until {
                if bi <= end {
                    continue;
                }
                quote_until = None;
            }
            if let Block::Para(body) = block {
                if let Some(end) = quotation_end(blocks, bi, &body.text) {
                    quote_until = Some(end);
                    continue;
                }
            }
            match block {
                Block::Heading { level, text, line } => {
                    if *level == 1 && !seen_heading {
                        section.title = Some(strip_emphasis(text));
                    }
                    seen_heading = true;
                    while section.headings.last().is_some_and(|(l, _)| l >= level) {
                        section.headings.pop();
                    }
                    section.headings.push((*level, strip_emphasis(text)));
                    para_lead = None;
                    items.clear();
                    user_gate = None;
                    procedure = None;
                    last_shell.clear();
                    // "### 3. Never Log Secrets", "## NEVER USE `x` WITH
                    // HEADERS": a heading that opens with its modal word
                    // is a rule of its own, whatever examples follow.
                    if let Some(rule) = modal_heading(text) {
                        let mut body = Lined::default();
                        body.push_line(*line, &rule);
                        self.paragraph(&body, &section);
                    }
                    // "### Step 2: Check CI status" over a shell block: a
                    // step that runs the block, as "1. Check the status:".
                    if numbered_step(text) {
                        bare_colon = Some((strip_emphasis(text), [*line, *line]));
                    }
                }
                Block::Tag { name, closing, .. } => {
                    if EXAMPLE_TAGS.contains(&name.to_lowercase().as_str()) {
                        if *closing {
                            example_depth = example_depth.saturating_sub(1);
                        } else {
                            example_depth += 1;
                        }
                    }
                }
                // "**Action:** Use env vars from the start." under a pressure
                // scenario: the scenario's answer, a rule of its own.
                Block::Para(body)
                    if example_depth == 0 && section.scenario() && labelled_action(&body.text) =>
                {
                    items.clear();
                    para_lead = self.paragraph(body, &section);
                }
                _ if example_depth > 0 || section.example() || section.references() => {}
                Block::Blank => {
                    colon_rule = colon_before;
                    bare_colon = bare_before;
                }
                Block::Quote(q) => {
                    // A callout ("> [!IMPORTANT]", "> **Never …**", "> 🔐
                    // …") states rules; any other quote shows an example.
                    if let Some(body) = callout(q) {
                        items.clear();
                        para_lead = self.paragraph(&body, &section);
                    }
                }
                Block::Para(body) => {
                    items.clear();
                    user_gate = None;
                    procedure = None;
                    para_lead = match remedies(body) {
                        Some(parts) => parts
                            .iter()
                            .map(|part| self.paragraph(part, &section))
                            .last()
                            .flatten(),
                        None => self.paragraph(body, &section),
                    };
                    self.note_colon(body, drafts_before, &mut colon_rule, &mut bare_colon);
                }
                Block::Item {
                    body,
                    indent,
                    checkbox,
                    ordered,
                } => {
                    if user_gate.is_some_and(|(g, _)| *indent < g) {
                        user_gate = None;
                    }
                    let after_user = user_gate.is_some();
                    let after_approval = user_gate.is_some_and(|(_, a)| a);
                    // Its first step started the procedure; the later steps
                    // are due after it.
                    if procedure.as_ref().is_some_and(|(p, _)| *indent < *p) {
                        procedure = None;
                    }
                    if procedure
                        .as_ref()
                        .is_some_and(|(p, _)| p == indent && *ordered)
                    {
                        steps += 1;
                    }
                    // A later step, or an item nested in one.
                    let later = steps >= 2
                        && procedure
                            .as_ref()
                            .is_some_and(|(p, _)| (p == indent && *ordered) || indent > p);
                    let started = match &procedure {
                        Some((_, first)) if later => first.clone(),
                        _ => None,
                    };
                    // A procedure under a conditional heading ("From flake8 +
                    // black") or a conditional lead-in ("If the server is not
                    // connected, set it up:").
                    // ("Read these notes before tracing a fault:" lists
                    // the files to read, each an object, not a step.)
                    let conditional_lead = items.is_empty()
                        && para_lead
                            .as_ref()
                            .is_some_and(|l| l.condition.is_some() && l.path_verb.is_none());
                    if *ordered
                        && procedure.is_none()
                        && (section.conditional() || conditional_lead)
                    {
                        let first = clause_info(&body.text, self.lex).behavior(true);
                        procedure = Some((*indent, first));
                        steps = 1;
                    } else if steps == 1 {
                        // The first step's visible act may sit in its nested
                        // item ("1. Add the server:" / "- `tool mcp add …`").
                        if let Some((p, first @ None)) = procedure.as_mut() {
                            if indent > p {
                                let t = body.text.trim();
                                *first = command_predicate(t.trim_matches('`'), self.lex)
                                    .filter(|_| t.starts_with('`') && t.ends_with('`'))
                                    .or_else(|| clause_info(t, self.lex).behavior(true));
                            }
                        }
                    }
                    // ("Push it (ask first)": the aside gates that act
                    // alone, not the steps after it.)
                    let own =
                        consent_aside(&body.text).map_or_else(|| body.text.clone(), |(m, _, _)| m);
                    if *ordered && waits_on_user(&own, self.lex) {
                        let approval = planning_milestone(&body.text);
                        user_gate = match user_gate {
                            None => Some((*indent, approval)),
                            // A later step of the same list gets the plan approved.
                            Some((g, a)) if g == *indent => Some((g, a || approval)),
                            other => other,
                        };
                    }
                    while items.last().is_some_and(|(i, _)| i >= indent) {
                        items.pop();
                    }
                    // "## Sensitive files — never commit" over its files: the
                    // heading is their lead where no paragraph says what to
                    // do with them.
                    let heading_lead = || {
                        let w = words(section.nearest());
                        let verb = w
                            .iter()
                            .enumerate()
                            .filter(|(_, x)| x.text == "never")
                            .find_map(|(i, _)| {
                                w[i + 1..]
                                    .iter()
                                    .find(|x| x.text != "to")
                                    .filter(|x| {
                                        matches!(
                                            x.text.as_str(),
                                            "commit" | "stage" | "push" | "add"
                                        )
                                    })
                                    .map(|x| x.text.clone())
                            })?;
                        let mut l = lead_of(&format!("Never {verb}:"), self.lex);
                        l.stage_verb = Some(verb);
                        Some(l)
                    };
                    let lead = match items.last() {
                        Some((_, parent)) => parent.clone(),
                        // (A lead-in with a condition of its own, "If you
                        // commit a secret:", governs the list before the
                        // heading does.)
                        None => para_lead
                            .clone()
                            .filter(|l| {
                                l.stage_verb.is_some()
                                    || l.path_verb.is_some()
                                    || l.condition.is_some()
                            })
                            .or_else(heading_lead)
                            .or_else(|| para_lead.clone()),
                    };
                    let own_lead = self.item(
                        body,
                        lead.as_ref(),
                        *checkbox,
                        Step {
                            after_user,
                            after_approval,
                            started,
                        },
                        &section,
                    );
                    // "If the server is not connected, set it up:" / "1. Add
                    // it:" / "- `cmd`": the nested steps keep the outer condition.
                    let own_lead = own_lead.map(|mut l| {
                        // (A later step of a procedure follows its first step
                        // instead.)
                        if l.condition.is_none() && l.items_are_conditions.is_none() && !later {
                            l.condition = lead.as_ref().and_then(|o| o.condition.clone());
                        }
                        l
                    });
                    items.push((*indent, own_lead));
                    self.note_colon(body, drafts_before, &mut colon_rule, &mut bare_colon);
                }
                Block::Row {
                    line,
                    cells,
                    header,
                } => {
                    if !table_header
                        .as_ref()
                        .is_some_and(|h| std::rc::Rc::ptr_eq(h, header))
                    {
                        table_header = Some(header.clone());
                        table = TableRoles::of(header, self.lex);
                        table_lead = colon_before
                            .and_then(|at| self.drafts.get(at))
                            .filter(|d| {
                                !matches!(d.modality, Modality::MustNot | Modality::ShouldNot)
                                    && main_verb(&words(&mask(&d.text).0))
                                        .is_some_and(|v| self.lex.is_imperative(&v))
                            })
                            .map(|d| d.text.clone());
                    }
                    if let Some(roles) = &table {
                        self.row(*line, cells, roles, &section);
                    } else if let Some(lead) = &table_lead {
                        self.lead_row(*line, cells, lead, &section);
                    } else {
                        self.explained_rule(*line, cells, &section);
                    }
                }
                Block::Fence { lang, lines, .. } => {
                    if lang.is_empty() {
                        self.fence(lines, &section);
                    }
                    // "Report back:" over a template: what to say, in that
                    // form (a speech rule, no act to check).
                    if let Some((text, at)) = bare_before
                        .as_ref()
                        .filter(|_| fence_commands(lines, lang, self.lex).is_empty())
                    {
                        if reports_in_form(text, self.lex) {
                            self.drafts
                                .push(Draft::new(text.clone(), *at, Modality::Must));
                        }
                    }
                    if let Some(at) = colon_before {
                        self.commands_under(at, lang, lines, &section);
                    } else if let Some((text, at)) = bare_before {
                        // "Once the user confirms the work is done:" / "1.
                        // Remove the worktree:" over its block: the step
                        // waits on the user's word.
                        let after_consent = para_lead
                            .as_ref()
                            .and_then(|l| l.condition.as_ref())
                            .is_some_and(|(c, _)| user_consent(c))
                            || section.consented()
                            // ("On approval:" over the block: a lead-in
                            // that is the user's word alone.)
                            || (words(&text).len() <= 4
                                && user_consent(text.trim_end().trim_end_matches(':')));
                        if on_success(&text) {
                            self.next_on_success(text, at, &last_shell, lang, lines);
                        } else if after_consent {
                            self.consent_over_commands(text, at, lang, lines);
                        } else {
                            self.step_over_commands(text, at, lang, lines, &section);
                        }
                    }
                    if is_shell(lang) {
                        last_shell = fence_commands(lines, lang, self.lex);
                    }
                }
            }
        }
    }

    /// A row of a table that only maps situations to things ("Building a
    /// Python server | `reference/python.md`") under a lead-in that says
    /// what to do with them ("Load these references as needed:"): the
    /// lead-in's act on the row's things, under the row's situation.
    fn lead_row(&mut self, line: u32, cells: &[String], lead: &str, section: &Section) {
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

    /// "Run the validation script:" over a shell block: the rule, which
    /// names no act of its own, runs the block's commands.
    /// A paragraph or item that ends with a colon: the rule it made, for
    /// the block under it, or — where it made none ("1. Check the
    /// status:") — its text and lines.
    fn note_colon(
        &self,
        body: &Lined,
        drafts_before: usize,
        colon_rule: &mut Option<usize>,
        bare_colon: &mut Option<(String, [u32; 2])>,
    ) {
        let text = strip_emphasis(&body.text);
        if !text.trim_end().ends_with(':') {
            return;
        }
        if self.drafts.len() > drafts_before {
            *colon_rule = Some(self.drafts.len() - 1);
        } else {
            *bare_colon = Some((text, [body.first_line(), body.last_line()]));
        }
    }

    /// "If successful:" over `git push` right after `git rebase origin/main`:
    /// the block runs after the one before it succeeded — `when` that
    /// block's commands did not fail, the new block `after`.
    fn next_on_success(
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
    fn consent_over_commands(
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
    fn consented_acts(&self, lang: &str, lines: &[(u32, String)]) -> Option<Predicate> {
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
    fn step_over_commands(
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
        if shell && case && !section.conditional() {
            self.case_over_commands(text, at, lang, lines);
            return;
        }
        let cmds = fence_commands(lines, lang, self.lex);
        // "## After Resolving" / "Always verify:" over `npm run lint`: a
        // step in a situation no action shows — a rule, judged by people.
        if shell
            && section.conditional()
            && verb.as_deref().is_some_and(is_step_verb)
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
        if !shell || verb.is_none() || section.conditional() || opening_condition(&text).is_some() {
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
            || !(steps || verb.as_deref().is_some_and(|v| self.lex.is_imperative(v)) && scoped())
        {
            return;
        }
        let mut d = Draft::new(text, at, Modality::Must);
        d.require = any_of(cmds);
        add_predicate_scopes(&mut d, self.lex);
        self.drafts.push(d);
    }

    /// "If yes:" over `git push && git push --tags`: what to run in a case
    /// no action shows — a rule with no predicate, scoped by what its block
    /// changes.
    fn case_over_commands(
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
        let mut scope = BTreeSet::new();
        for c in fence_commands(lines, lang, self.lex) {
            scope.extend(predicate_scopes(&c, self.lex));
        }
        if scope.is_empty() {
            return;
        }
        let mut d = Draft::new(text, at, Modality::Must);
        d.scope = scope;
        self.drafts.push(d);
    }

    fn commands_under(
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
        if section.conditional() || !is_shell(lang) {
            return;
        }
        let Some(d) = self.drafts.get(at) else { return };
        // ("Before every commit, run:": the verb of the main clause.)
        // ("**Port assignment:** Find the next free port:": after its label.)
        let plain = strip_emphasis(&d.text);
        let main = opening_condition(&plain)
            .and(split_leading_condition(&plain))
            .or_else(|| split_label(&plain))
            .map_or(plain, |(_, m)| m);
        let w = words(&mask(&main).0);
        let verb = main_verb(&w[heading_number(&w)..]);
        // "Run:", and a step that names no act of its own ("Get the
        // remote URL:", "Verify the checkout was made:").
        // (Only the sentence that ends in the colon: "Update both files.
        // The script handles this:" does not run the block by its first.)
        let own_colon = {
            let t = strip_emphasis(&d.text);
            t.trim_end().ends_with(':') && !mask(&t).0.contains(". ")
        };
        let runs = verb.as_deref().is_some_and(|v| {
            matches!(
                v,
                "run" | "execute" | "invoke" | "call" | "launch" | "start"
            ) || (own_colon && is_step_verb(v))
        });
        // A condition kept the rule from binding ("If it fails, run:").
        let conditioned = opening_condition(&d.text).is_some()
            || split_trailing(&d.text).is_some()
            || parenthetical_condition(&d.text).is_some();
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
            return;
        }
        let cmds = fence_commands(lines, lang, self.lex);
        let lex = self.lex;
        if let Some(d) = self.drafts.get_mut(at) {
            d.require = any_of(cmds);
            add_predicate_scopes(d, lex);
        }
    }

    /// A paragraph: its rules, and the lead it gives a following list.
    pub(super) fn paragraph(&mut self, body: &Lined, section: &Section) -> Option<Lead> {
        let groups = sentence_groups(body, self.lex);
        let mut lead = None;
        let last = groups.len().saturating_sub(1);
        let mut shared = groups.first().and_then(|g| opening_condition(&g.full_text));
        for (i, g) in groups.iter().enumerate() {
            // "Before creating a PR, look it up. If one exists, reuse it. …
            // Never fabricate results.": a sentence with a condition of its
            // own ("If …", "Otherwise …", "Without one, …") opens another
            // case; the opening condition no longer carries past it.
            if i > 0
                && (opening_condition(&g.full_text).is_some()
                    || words(&g.full_text).first().is_some_and(|w| {
                        matches!(w.text.as_str(), "otherwise" | "without" | "else")
                    }))
            {
                shared = None;
            }
            let ctx = Ctx {
                para_condition: if i > 0 { shared.clone() } else { None },
                ..Ctx::plain(section)
            };
            if i == last && g.text_of(body).trim_end().ends_with(':') {
                let l = lead_of(&g.text_of(body), self.lex);
                let bare = (l.condition.is_some() && !l.has_main)
                    || l.items_are_conditions.is_some()
                    || l.use_conditions
                    || l.act_on_items.is_some()
                    || words(&g.full_text).len() <= 3;
                lead = Some(l);
                if bare {
                    // A bare lead-in ("Never:", "ALWAYS before:"): its items are the rules.
                    continue;
                }
            }
            self.group(g, &ctx);
        }
        lead
    }

    /// A list item: its rules, and the lead it gives nested items.
    pub(super) fn item(
        &mut self,
        body: &Lined,
        lead: Option<&Lead>,
        checkbox: bool,
        step: Step,
        section: &Section,
    ) -> Option<Lead> {
        // "A) Commit now", "B) Run the tests": the options of a choice, right
        // and wrong, not rules.
        let t = body.text.trim_start();
        let mut cs = t.chars();
        if let (Some(a), Some(b)) = (cs.next(), cs.next()) {
            if a.is_ascii_uppercase() && matches!(b, ')' | '.') && cs.next() == Some(' ') {
                return None;
            }
        }
        if let Some(l) = lead.filter(|l| {
            l.branches && matches!(l.modality, Some(Modality::MustNot | Modality::ShouldNot))
        }) {
            if let Some(branch) = branch_name(&body.text) {
                self.protected_branch(body, &[branch], l);
                return None;
            }
            // "`main` or `master`": each name.
            let names: Option<Vec<String>> = strip_emphasis(&body.text)
                .split([','])
                .flat_map(|p| p.split(" or "))
                .flat_map(|p| p.split(" and "))
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| branch_name(p).filter(|_| p.starts_with('`')))
                .collect();
            if let Some(names) = names.filter(|n| n.len() > 1) {
                self.protected_branch(body, &names, l);
                return None;
            }
            // "any shared branch": which branches those are is not
            // visible; the act is the trigger, judged by people.
            if let Some(act) = &l.act_on_items {
                let mut d = Draft::new(
                    strip_emphasis(&body.text),
                    [
                        body.line_at(0),
                        body.line_at(body.text.len().saturating_sub(1)),
                    ],
                    l.modality.unwrap_or(Modality::MustNot),
                );
                d.when = Some(act.clone());
                add_predicate_scopes(&mut d, self.lex);
                self.drafts.push(d);
                return None;
            }
        }
        if lead.is_some_and(|l| {
            l.use_conditions
                || l.describes_items
                || l.speech_items
                || (l.short_conditional && section.when_to())
        }) {
            return None;
        }
        // "## When NOT to Use" / "- No changes to commit": a situation the
        // skill is (not) for, no rule — unless the item says what to do
        // ("Never run it on main", "Use `x` instead").
        if lead.is_none() && section.when_to() && !self.item_instructs(&body.text) {
            return None;
        }
        // "## requires_approval" / "Needs confirmation:" over bare commands
        // ("- git push *", "- `git tag`"): each command waits on the user's
        // word, a consent gate (SPEC §4.2).
        if lead.map_or_else(|| asks_approval(section.nearest()), |l| l.approval) {
            // ("`git reset --hard` - Destroys uncommitted work": the
            // command, its note after the dash.)
            let cmd = bare_command(&body.text, self.lex).or_else(|| {
                led_command(&strip_emphasis(&body.text))
                    .and_then(|c| command_predicate(c.trim_matches('`'), self.lex))
            });
            if let Some(cmd) = cmd {
                let mut d = Draft::new(
                    strip_emphasis(&body.text),
                    [
                        body.line_at(0),
                        body.line_at(body.text.len().saturating_sub(1)),
                    ],
                    Modality::Must,
                );
                // One confirmation covers the listed acts of a run (a
                // release's commit, tag, push and `push --tags` after one
                // "go ahead"): `before`, not `before-each`.
                // ("NEVER run these unless the user says so:": each
                // forbidden act its own word.)
                let each = lead.is_some_and(|l| {
                    matches!(l.modality, Some(Modality::MustNot | Modality::ShouldNot))
                });
                consent_gate(&mut d, not_a_listing(cmd), each);
                add_predicate_scopes(&mut d, self.lex);
                self.drafts.push(d);
                return None;
            }
        }
        // "You must ask before:" / "- Deleting a branch": the item's act
        // waits on the user's word — each named act its own consent, the
        // work's edits one consent for them all.
        if lead.is_some_and(|l| l.consent_before) {
            let text = strip_emphasis(&body.text);
            if let Some(act) = clause_info(&text, self.lex).behavior(false) {
                let mut d = Draft::new(
                    text,
                    [
                        body.line_at(0),
                        body.line_at(body.text.len().saturating_sub(1)),
                    ],
                    Modality::Must,
                );
                let edits = matches!(&act, Predicate::Any(v)
                    if v.iter().all(|p| matches!(p, Predicate::Write(_) | Predicate::Edit(_))));
                consent_gate(&mut d, act, !edits);
                add_predicate_scopes(&mut d, self.lex);
                self.drafts.push(d);
                return None;
            }
        }
        let groups = sentence_groups(body, self.lex);
        let drafts_before = self.drafts.len();
        let shared = groups.first().and_then(|g| opening_condition(&g.full_text));
        let text = strip_emphasis(&body.text);
        let own = text
            .trim_end()
            .ends_with(':')
            .then(|| lead_of(&text, self.lex));
        let last = groups.len().saturating_sub(1);
        for (i, g) in groups.iter().enumerate() {
            let bare = i == last
                && own.as_ref().is_some_and(|l| {
                    (l.condition.is_some() && !l.has_main)
                        || l.items_are_conditions.is_some()
                        || words(&g.full_text).len() <= 3
                });
            if !bare {
                let ctx = Ctx {
                    lead,
                    section,
                    in_list: true,
                    checkbox,
                    para_condition: if i > 0 { shared.clone() } else { None },
                    after_user: step.after_user,
                    after_approval: step.after_approval,
                    started: step.started.clone(),
                };
                self.group(g, &ctx);
            }
        }
        // ("- HTTP requests (use MSW or similar)" under "Mock external
        // factors:": what is mocked is never done.)
        if lead.is_some_and(|l| l.topic_items) {
            for d in &mut self.drafts[drafts_before..] {
                d.when = None;
                d.require = None;
                d.forbid = None;
                d.order = None;
                d.scope.clear();
            }
        }
        own
    }

    pub(super) fn group(&mut self, g: &Group, ctx: &Ctx) {
        let mut parts: Vec<Draft> = Vec::new();
        let mut asides: Vec<Draft> = Vec::new();
        for (k, s) in g.sentences.iter().enumerate() {
            let cond = if k == 0 { g.question.as_deref() } else { None };
            // "Push the branch (ask first).": the act waits on the user's
            // word; "… (use `--force` only with approval)": the flag does.
            if let Some((main, aside, flag)) = consent_aside(s) {
                if let Some(mut d) = self.sentence(&main, cond, ctx, k == 0) {
                    let act = d.require.clone().filter(|_| d.forbid.is_none());
                    match (act, flag) {
                        (Some(act), Some(flag)) => {
                            let mut a = Draft::new(aside, g.lines, Modality::Must);
                            a.scope = d.scope.clone();
                            consent_gate(&mut a, with_flag(act, &flag), true);
                            asides.push(a);
                        }
                        (Some(act), None) => consent_gate(&mut d, act, true),
                        (None, _) => {}
                    }
                    parts.push(d);
                }
                continue;
            }
            if let Some(d) = self.sentence(s, cond, ctx, k == 0) {
                parts.push(d);
            }
        }
        if parts.is_empty() {
            return;
        }
        self.merge_group(g, ctx, parts);
        self.drafts.extend(asides);
    }

    /// One rule per group from its sentences' parts.
    fn merge_group(&mut self, g: &Group, ctx: &Ctx, parts: Vec<Draft>) {
        if parts.is_empty() {
            return;
        }
        // One rule per group: the first part with a behavior decides the
        // predicates, the first part decides the modality, scopes add up.
        let mut d = parts
            .iter()
            .find(|d| d.require.is_some() || d.forbid.is_some())
            .cloned()
            .unwrap_or_else(|| {
                parts
                    .iter()
                    .find(|d| d.when.is_some())
                    .cloned()
                    .unwrap_or_else(|| parts[0].clone())
            });
        d.modality = parts[0].modality;
        if parts
            .iter()
            .any(|p| matches!(p.modality, Modality::MustNot))
            && d.forbid.is_some()
        {
            d.modality = Modality::MustNot;
        }
        for p in &parts {
            d.scope.extend(p.scope.iter().copied());
        }
        d.text = g.full_text.clone();
        d.lines = g.lines;
        if ctx.lead.is_some_and(|l| l.other_actor) {
            // Another agent's brief: what it is told, not what this agent does.
            d.when = None;
            d.require = None;
            d.forbid = None;
            d.order = None;
        }
        // "Do NOT merge just because all checks pass. The user decides
        // when.": the act waits on the user's word.
        if d.require.is_none()
            && d.forbid.is_none()
            && matches!(d.modality, Modality::MustNot)
            && g.sentences.iter().skip(1).any(|s| user_decides(s))
        {
            if let Some(act) = d.when.clone() {
                consent_gate(&mut d, act, true);
            }
        }
        if let Some(f) = &d.forbid {
            if matches!(d.modality, Modality::Must | Modality::Should) && d.require.is_none() {
                // A forbid was derived from a negative part: the rule forbids.
                let _ = f;
                d.modality = Modality::MustNot;
            }
        }
        self.drafts.push(d);
    }

    /// Analyse one sentence; `None` when it is not a rule.
    pub(super) fn sentence(
        &self,
        s: &str,
        question: Option<&str>,
        ctx: &Ctx,
        first: bool,
    ) -> Option<Draft> {
        let motto = (!ctx.in_list).then(|| quoted_motto(s, self.lex)).flatten();
        let s = motto.as_deref().unwrap_or(s);
        let checked = state_checked_by(s);
        let s = checked.as_deref().unwrap_or(s);
        let flagged = flag_with_command(s);
        let s = flagged.as_deref().unwrap_or(s);
        let adverbial = sentence_adverbial(s);
        let s = adverbial.as_deref().unwrap_or(s);
        let stepped = connective_command(s, self.lex);
        let s = stepped.as_deref().unwrap_or(s);
        let tests_named = self.test_anaphora(s);
        let s = tests_named.as_deref().unwrap_or(s);
        let staging = explicit_staging(s);
        let s = staging.as_deref().unwrap_or(s);
        let listed = git_subcommand_list(s);
        let s = listed.as_deref().unwrap_or(s);
        let verdict = command_then_verdict(s);
        let s = verdict.as_deref().unwrap_or(s);
        let dashed = acts_before_the_dash(s);
        let s = dashed.as_deref().unwrap_or(s);
        let reasoned = act_then_so(s, self.lex)
            .or_else(|| reason_then_rule(s, self.lex))
            .or_else(|| consent_phrasing(s))
            .or_else(|| only_first(s))
            .or_else(|| wrong_order(s))
            .or_else(|| act_needs_consent(s))
            .or_else(|| change_kind_requires(s))
            .or_else(|| never_with_failing(s))
            .or_else(|| agent_narration(s, self.lex));
        let s = reasoned.as_deref().unwrap_or(s);
        let mut a = analyse(s, question, ctx, first, self.lex)?;
        // "Before reviewing, fetch the branch" in a skill that reviews: the
        // whole session is the review, no act shows where it starts.
        a.conditions
            .retain(|(c, _)| !names_the_activity(c, &self.activity, self.lex));
        let elided = if a.speech {
            BTreeSet::new()
        } else {
            elided_object_scope(&a.main, &self.subject)
        };
        let speech = a.speech;
        let mut d = a.into_draft(ctx, self.lex);
        // "Do not use for npm packages — use `/npm-release` instead": where
        // the skill itself does not apply, no act of the session.
        if skill_not_for(s) || another_actor_made(s) || passive_fact(s) {
            d.when = None;
            d.require = None;
            d.forbid = None;
            d.order = None;
        }
        if d.scope.is_empty() {
            d.scope = elided;
        }
        if d.scope.is_empty() && !speech && d.modality != Modality::Should {
            d.scope.clone_from(&self.topic);
        }
        Some(d)
    }

    /// An item that says what to do: a modal word of its own (not a bare
    /// "No …", which states a situation) or an imperative verb first.
    fn item_instructs(&self, text: &str) -> bool {
        let t = strip_emphasis(text);
        let w = words(&mask(&t).0);
        let modal = w.iter().any(|x| {
            matches!(
                x.text.as_str(),
                "never"
                    | "must"
                    | "mustn't"
                    | "should"
                    | "shouldn't"
                    | "always"
                    | "don't"
                    | "dont"
                    | "avoid"
            )
        }) || w
            .windows(2)
            .any(|p| p[0].text == "do" && p[1].text == "not");
        let imperative =
            |w: &[Word]| main_verb(w).is_some_and(|v| self.lex.is_imperative(&v) && v != "use");
        // ("**User wants to keep legacy tooling**: Respect existing
        // workflows": the instruction after the situation's label.)
        modal
            || imperative(&w)
            || split_label(&t).is_some_and(|(_, after)| imperative(&words(&mask(&after).0)))
    }

    /// "1. Write one failing test" / "2. Run it": "it" is the test the
    /// rule before wrote ("Run the tests"). `None` for any other sentence.
    fn test_anaphora(&self, s: &str) -> Option<String> {
        let t = s.trim_start();
        let lower = t.to_lowercase();
        let rest = [
            "run it",
            "run them",
            "rerun it",
            "re-run it",
            "run it again",
        ]
        .iter()
        .rev()
        .find_map(|p| {
            lower
                .strip_prefix(p)
                .filter(|r| r.is_empty() || r.starts_with([' ', '.', ',', '(', ';']))
                .map(|r| &t[t.len() - r.len()..])
        })?;
        // (The test may be a step or two back: "Write the test", "Write
        // the code", "Run it again".)
        let wrote_tests = self.drafts.iter().rev().take(3).any(|d| {
            d.require.as_ref().is_some_and(|p| {
                p.any_node(&|q| matches!(q, Predicate::Touch(g) if g.contains("test")))
            })
        });
        wrote_tests.then(|| format!("Run the tests{rest}"))
    }

    /// An item of a protected-branch list ("Never touch these branches:"
    /// `- main`): no git state change on it, no deletion or push of it.
    pub(super) fn protected_branch(&mut self, body: &Lined, branches: &[String], lead: &Lead) {
        let git_change = Predicate::Any(
            ["commit", "push", "merge", "rebase", "reset", "cherry-pick"]
                .iter()
                .map(|s| Predicate::Git {
                    subcommand: s.to_string(),
                    args: Vec::new(),
                })
                .collect(),
        );
        let mut alts = Vec::new();
        for branch in branches {
            let glob = globset::escape(branch).replace("[*]", "*");
            match &lead.act_on_items {
                // "NEVER force push to: `main`": that act on that branch
                // (the session's branch, or the branch a push names).
                Some(act) => {
                    alts.push(Predicate::All(vec![
                        act.clone(),
                        Predicate::Branch(glob.clone()),
                    ]));
                    if is_push(act) {
                        alts.push(Predicate::All(vec![
                            act.clone(),
                            Predicate::Command(format!("git push * {glob}*")),
                        ]));
                    }
                }
                None => alts.extend([
                    Predicate::All(vec![git_change.clone(), Predicate::Branch(glob.clone())]),
                    Predicate::Command(format!("git branch -d {glob}*")),
                    Predicate::Command(format!("git branch -D {glob}*")),
                    Predicate::Command(format!("git push * --delete {glob}*")),
                    Predicate::Command(format!("git push * {glob}*")),
                ]),
            }
        }
        let forbid = Predicate::Any(alts);
        let mut scope = BTreeSet::new();
        scope.insert(ScopeTag::SharedRepoState);
        self.drafts.push(Draft {
            text: strip_emphasis(&body.text),
            lines: [
                body.line_at(0),
                body.line_at(body.text.len().saturating_sub(1)),
            ],
            modality: lead.modality.unwrap_or(Modality::MustNot),
            scope,
            when: None,
            require: None,
            forbid: Some(forbid),
            order: None,
            awaits: false,
        });
    }

    /// A row of a table that only explains (Excuse | Reality): a cell that
    /// states a rule of its own ("Only force-push when the user explicitly
    /// asks") is a rule; the excuse is not.
    pub(super) fn explained_rule(&mut self, line: u32, cells: &[String], section: &Section) {
        for cell in cells.iter().skip(1) {
            let text = strip_emphasis(cell);
            let w = words(&mask(&text).0);
            let first = w.first().map(|x| x.text.as_str()).unwrap_or("");
            let says_rule = matches!(first, "only" | "never" | "always" | "don't" | "do")
                || own_modal(&w).is_some_and(|m| !matches!(m, Modality::Should));
            if !says_rule || !w.iter().any(|x| !x.barrier) {
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

    pub(super) fn row(
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
            let mut cond = clause_info(&get(roles.condition), lex);
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
            if trouble && !names_a_failure(&cond) {
                cond = ClauseInfo::default();
            }
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
                }
            }
        }
        add_predicate_scopes(&mut d, lex);
        self.drafts.push(d);
    }

    pub(super) fn fence(&mut self, lines: &[(u32, String)], section: &Section) {
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

/// `git tag` / `git branch` with no flags also list (`git tag -l`): the
/// gate is on the ones that change something.
/// "**Action:** …", "**Correct action:** …": a paragraph labelled as the
/// act to take.
fn labelled_action(text: &str) -> bool {
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
pub(super) fn is_shell(lang: &str) -> bool {
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

/// A step's verb that, over a shell block, means running it: "Check the
/// status:", "Get the remote URL:", "Verify the checkout exists:".
fn is_step_verb(v: &str) -> bool {
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
    )
}

/// A lead-in that only says the step before worked ("If successful:", "On
/// success:", "If it succeeds:", "If the rebase passes cleanly:").
fn on_success(text: &str) -> bool {
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

fn not_a_listing(p: Predicate) -> Predicate {
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
fn is_push(p: &Predicate) -> bool {
    match p {
        Predicate::Git { subcommand, .. } => subcommand == "push",
        Predicate::Any(v) => !v.is_empty() && v.iter().all(is_push),
        _ => false,
    }
}

/// Words that ask for the user's approval: "approval", "confirm",
/// "consent", "permission" (also inside `requires_approval`).
pub(super) fn asks_approval(text: &str) -> bool {
    let t = text.to_lowercase();
    ["approv", "confirm", "consent", "permission"]
        .iter()
        .any(|w| t.contains(w))
}

/// An item that is one command and nothing else: `git push`, or a bare
/// `git tag *` starting with a known command word.
fn bare_command(text: &str, lex: &Lexicon) -> Option<Predicate> {
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
    // A lone `*` stands for any arguments ("git push *").
    let cmd: Vec<&str> = inner.split_whitespace().filter(|t| *t != "*").collect();
    command_predicate(&cmd.join(" "), lex)
}

/// The commands of a shell block, one predicate per simple command
/// (prompts, comments and blank lines left out). In a block marked as
/// shell, a program the lexicon does not know is a command too.
pub(super) fn fence_commands(lines: &[(u32, String)], lang: &str, lex: &Lexicon) -> Vec<Predicate> {
    let marked = !lang.is_empty() && is_shell(lang);
    let mut cmds = Vec::new();
    for (_, l) in lines {
        let l = l.trim().trim_start_matches("$ ").trim();
        let l = l.split(" # ").next().unwrap_or(l).trim();
        if l.is_empty() || l.starts_with('#') {
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

/// `BASE=$(git rev-parse HEAD~1)`: the command an assignment runs.
fn substituted(c: &str) -> &str {
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

/// The act a row names in its action column, when the other cells make it
/// wait on the user's request, approval or confirmation: (the act, whether
/// every other cell does).
fn consent_cells(
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
fn waits_on_consent(cell: &str) -> bool {
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

/// A table cell holding a rule with its own trailing or leading condition
/// ("Run `npm test` before every push"), read as a sentence of its own.
fn own_condition_rule(cell: &str, section: &Section, lex: &Lexicon) -> Option<Draft> {
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

/// A branch name alone on an item: `main`, `release/*`, develop.
pub(super) fn branch_name(text: &str) -> Option<String> {
    let t = strip_emphasis(text);
    let t = t
        .trim()
        .trim_end_matches(['.', ','])
        .trim_matches('`')
        .trim();
    let t = t.split(" (").next().unwrap_or(t).trim().trim_matches('`');
    let ok = !t.is_empty()
        && t.len() <= 60
        && !t.contains(char::is_whitespace)
        && t.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '/' | '-' | '_' | '.' | '*'));
    ok.then(|| t.to_string())
}

/// A step that waits on the user: it asks, presents or offers something,
/// or gets an approval or answer ("Present design — get user approval").
pub(super) fn waits_on_user(text: &str, lex: &Lexicon) -> bool {
    let t = strip_emphasis(text);
    // ("**notes/guide.md** - …" names a file; "notes" is no verb.)
    if unquoted_file_head(&t).is_some() {
        return false;
    }
    let w = words(&mask(&t).0);
    let verb = main_verb(&w);
    let to_person = w
        .iter()
        .any(|x| matches!(x.text.as_str(), "user" | "partner" | "human"));
    // "Confirm the base branch exists", "Note the path": a check or a
    // remark waits on no one; "Confirm with the user" does.
    let checks = verb
        .as_deref()
        .is_some_and(|v| matches!(v, "confirm" | "note" | "state" | "name" | "output" | "flag"));
    verb.as_deref()
        .is_some_and(|v| lex.is_speech(v) || matches!(v, "ask" | "offer" | "propose"))
        && (!checks || to_person)
        || w.iter().any(|x| x.text.starts_with("approv") || x.text.starts_with("consent"))
        // A step that names the user waits on them where it asks or hears
        // back ("get the user's answer", "until the user agrees"); telling
        // them ("state the cause to the user before acting") waits on no one.
        || (to_person
            && !checks
            && !verb.as_deref().is_some_and(|v| lex.is_speech(v) && !matches!(v, "ask"))
            && w.iter().any(|x| {
                matches!(
                    x.text.as_str(),
                    "ask"
                        | "asks"
                        | "answer"
                        | "answers"
                        | "respond"
                        | "responds"
                        | "response"
                        | "reply"
                        | "replies"
                        | "decide"
                        | "decides"
                        | "decision"
                        | "choose"
                        | "chooses"
                        | "choice"
                        | "pick"
                        | "picks"
                        | "confirm"
                        | "confirms"
                        | "confirmation"
                        | "agree"
                        | "agrees"
                        | "feedback"
                        | "input"
                        | "wait"
                        | "waits"
                        | "go-ahead"
                        | "ahead"
                        | "ok"
                        | "okay"
                        | "sign"
                        | "signs"
                        | "review"
                        | "reviews"
                        | "says"
                        | "accept"
                        | "accepts"
                        | "wants"
                        | "selects"
                        | "select"
                )
            }))
}

/// A normative fenced block (no language): prose, not code, that states a
/// rule — an all-caps line, an RFC word in capitals, or a heading that names
/// a rule or law.
pub(super) fn normative_fence(content: &[&(u32, String)], section: &Section) -> bool {
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

/// Context of a sentence.
/// Where an item stands in a numbered procedure.
pub(super) struct Step {
    pub(super) after_user: bool,
    pub(super) after_approval: bool,
    pub(super) started: Option<Predicate>,
}

pub(super) struct Ctx<'a> {
    pub(super) lead: Option<&'a Lead>,
    pub(super) section: &'a Section,
    pub(super) in_list: bool,
    pub(super) checkbox: bool,
    /// "**If X:** A. B.": the condition the paragraph's first sentence
    /// opens with, which its later sentences share.
    pub(super) para_condition: Option<(String, Order)>,
    /// A step of a numbered procedure after a step that waits on the user
    /// (asks, presents, gets approval): it holds only once the user answered.
    pub(super) after_user: bool,
    /// That step gets a design or plan approved: the steps after it belong
    /// to the planning phase, done before the work starts.
    pub(super) after_approval: bool,
    /// A later step of a numbered procedure in a conditional section: what
    /// its first step visibly does (the procedure started there).
    pub(super) started: Option<Predicate>,
}

impl<'a> Ctx<'a> {
    /// A sentence of a section on its own: no lead-in, list or step before it.
    pub(super) fn plain(section: &'a Section) -> Ctx<'a> {
        Ctx {
            lead: None,
            section,
            in_list: false,
            checkbox: false,
            para_condition: None,
            after_user: false,
            after_approval: false,
            started: None,
        }
    }
}

/// Words skipped before a main verb.
pub(super) fn is_filler(w: &str) -> bool {
    matches!(
        w,
        "you"
            | "must"
            | "should"
            | "shall"
            | "always"
            | "never"
            | "do"
            | "don't"
            | "dont"
            | "not"
            | "please"
            | "also"
            | "then"
            | "first"
            | "just"
            | "only"
            | "still"
            | "immediately"
            | "now"
            | "to"
            | "and"
            | "no"
            | "can't"
            | "cannot"
            | "can"
            | "we"
            | "i"
            | "mustn't"
            | "shouldn't"
            | "will"
            | "may"
            | "need"
            | "needs"
            | "otherwise"
            | "instead"
            | "again"
            | "actually"
            | "really"
            | "ever"
            | "auto"
    ) || (w.len() > 4
        && w.ends_with("ly")
        // Verbs that end like adverbs.
        && !matches!(w, "apply" | "reply" | "supply" | "comply" | "multiply" | "rely"))
}

/// The first word of a clause that is not a modal, adverb or pronoun.
/// "Re-run", "force-delete": the verb after a hyphenated prefix.
/// "Show the user, in one message:", "Tell your human partner:": a lead-in
/// addressed to the user lists what to say; its items are content, not acts.
fn tells_the_user(t: &[&str], lex: &Lexicon) -> bool {
    let Some(i) = t.iter().position(|x| !is_filler(x)) else {
        return false;
    };
    let verb = t[i];
    let addressee = t[i + 1..]
        .iter()
        .filter(|x| !matches!(**x, "the" | "your" | "to"))
        .take(2)
        .any(|x| matches!(*x, "user" | "users" | "human" | "partner" | "maintainer"));
    (lex.is_speech(verb) || matches!(verb, "show" | "give" | "send" | "present")) && addressee
}

pub(super) fn main_verb(w: &[Word]) -> Option<String> {
    let w: Vec<&Word> = w.iter().filter(|x| !x.barrier).collect();
    let i = w.iter().position(|x| !is_filler(&x.text))?;
    let t = w[i].text.as_str();
    // "Do the mechanical change in one commit": "do" is the verb where an
    // object follows it, not an auxiliary.
    if i > 0
        && w[i - 1].text == "do"
        && (i == 1 || !matches!(w[i - 2].text.as_str(), "not" | "never"))
        && (is_determiner(t) || matches!(t, "it" | "one"))
    {
        return Some("do".to_string());
    }
    match w.get(i + 1) {
        // "Re-test" is a verb, though "test" alone often is a noun.
        Some(n) if t == "re" && n.text == "test" => Some("retest".to_string()),
        Some(n) if matches!(t, "re" | "force" | "double" | "cross") => Some(n.text.clone()),
        _ => Some(t.to_string()),
    }
}

/// Negation at the head of a clause: (negative, weak = should-not).
pub(super) fn negation(w: &[Word]) -> (bool, bool) {
    let t: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .collect();
    // Negation before the main verb ("Don't merge", "You must never
    // push"); after it, it belongs to a clause of its own ("Verify fixes
    // don't conflict").
    let verb_at = t
        .iter()
        .position(|x| {
            !is_filler(x)
                && !matches!(
                    *x,
                    "not"
                        | "no"
                        | "never"
                        | "don't"
                        | "dont"
                        | "mustn't"
                        | "cannot"
                        | "can't"
                        | "avoid"
                        | "shouldn't"
                )
        })
        .unwrap_or(t.len());
    let head = &t[..t.len().min(5).min(verb_at + 1)];
    // "No need to re-review": the reader may skip it.
    let no_need = head.starts_with(&["no", "need"]);
    let weak = head.first() == Some(&"avoid")
        || no_need
        || head.windows(2).any(|p| p == ["should", "not"])
        || head.contains(&"shouldn't");
    // "cannot" / "can't" only as an instruction ("you cannot claim it passes").
    let you_cannot = head
        .windows(2)
        .any(|p| p[0] == "you" && matches!(p[1], "cannot" | "can't"));
    let strong = head
        .iter()
        .any(|x| matches!(*x, "never" | "don't" | "dont" | "mustn't"))
        || you_cannot
        || head
            .windows(2)
            .any(|p| matches!(p[0], "do" | "must" | "shall") && p[1] == "not")
        || (t.first() == Some(&"no") && !no_need)
        || t[..relative_clause_at(&t)]
            .windows(2)
            .any(|p| matches!(p[0], "must" | "shall") && p[1] == "not");
    (strong || weak, weak && !strong)
}

/// Where a relative clause starts ("files that must not be committed"):
/// its modal words qualify the object, not the rule. The end when none.
fn relative_clause_at(t: &[&str]) -> usize {
    t.iter()
        .skip(1)
        .position(|x| matches!(*x, "that" | "which" | "who"))
        .map_or(t.len(), |i| i + 1)
}

/// A clause's own modal word: Some(modality) when it says one.
pub(super) fn own_modal(w: &[Word]) -> Option<Modality> {
    let (neg, weak) = negation(w);
    if neg {
        return Some(if weak {
            Modality::ShouldNot
        } else {
            Modality::MustNot
        });
    }
    let t: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .collect();
    // ("Check for files that should not be committed": a modal inside a
    // relative clause qualifies the object, not the rule.)
    if t[..relative_clause_at(&t)]
        .iter()
        .any(|x| matches!(*x, "should" | "prefer" | "recommended" | "ideally"))
    {
        return Some(Modality::Should);
    }
    if t.iter().any(|x| {
        matches!(
            *x,
            "must" | "always" | "required" | "mandatory" | "shall" | "ensure" | "never"
        )
    }) || t.windows(2).any(|p| p == ["make", "sure"])
        || t.first() == Some(&"only")
        || names_a_format(&t)
    {
        return Some(Modality::Must);
    }
    None
}

/// A lead-in that only names what is barred: "Forbidden actions",
/// "Prohibited commands", "Not allowed", "Banned".
fn forbidding_lead(t: &[&str]) -> bool {
    let barred = |x: &str| matches!(x, "forbidden" | "prohibited" | "banned" | "disallowed");
    (t.len() <= 3 && t.iter().any(|x| barred(x)))
        || matches!(t, ["not", "allowed"] | ["never", "allowed"])
}

/// "Report back:", "Reply with:", "Output:": a bare lead-in whose verb
/// says what the agent tells (over the template it is to fill).
fn reports_in_form(text: &str, lex: &Lexicon) -> bool {
    let w = words(&mask(text).0);
    let w = &w[heading_number(&w)..];
    w.len() <= 3
        && w.first().is_some_and(|v| {
            lex.is_speech(&v.text)
                || matches!(
                    v.text.as_str(),
                    "report" | "reply" | "respond" | "output" | "return"
                )
        })
}

/// "Every commit message follows:", "Branch names follow this pattern",
/// "PR titles use the imperative": a name or message said to follow a
/// form is a norm on what the agent writes.
fn names_a_format(t: &[&str]) -> bool {
    // "Each finding follows this format:", "Entries use the following
    // template:": what is written takes that form.
    let form = t.windows(3).any(|p| {
        matches!(p[0], "follows" | "follow" | "uses" | "matches")
            && matches!(p[1], "this" | "the" | "that")
            && matches!(
                p[2],
                "format" | "template" | "structure" | "layout" | "shape" | "following"
            )
    });
    form || t.windows(2).any(|p| {
        matches!(
            p[0],
            "message" | "messages" | "name" | "names" | "title" | "titles" | "subject" | "subjects"
        ) && matches!(p[1], "follow" | "follows" | "match" | "matches")
    })
}

pub(super) fn lead_of(text: &str, lex: &Lexicon) -> Lead {
    let text = strip_emphasis(text);
    // "**Handling violations**: If a secret is found:": the label names
    // the step, the condition after it is the lead-in's.
    let text = match split_label(&text) {
        Some((_, after))
            if words(&after)
                .first()
                .is_some_and(|w| is_condition_word(&w.text)) =>
        {
            after
        }
        _ => text,
    };
    let body = text.trim_end().trim_end_matches(':');
    let (masked, _, _) = mask(body);
    let w = words(&masked);
    let t: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .collect();
    let mut lead = Lead {
        modality: own_modal(&w),
        branches: w.iter().any(|x| x.text == "branch" || x.text == "branches"),
        // ("NEVER run these operations unless the user gives explicit,
        // written instruction:": the items wait on the user's word.)
        approval: asks_approval(body)
            || (matches!(own_modal(&w), Some(Modality::MustNot | Modality::ShouldNot))
                && t.iter().any(|x| matches!(*x, "unless" | "without"))
                && user_consent(body)),
        consent_before: before_the_items(&t)
            && (t.iter().any(|x| matches!(*x, "ask" | "asking"))
                || t.windows(3).any(|p| p[0] == "check" && p[1] == "with")
                || asks_approval(body)),
        ..Lead::default()
    };
    // "NEVER force push to:", "Never commit directly on:": the items name
    // where the act is forbidden.
    if matches!(lead.modality, Some(Modality::MustNot | Modality::ShouldNot))
        && t.last().is_some_and(|x| matches!(*x, "to" | "into" | "on"))
    {
        lead.act_on_items = clause_info(body, lex).behavior(false);
        lead.branches |= lead.act_on_items.is_some();
    }
    if t.iter().any(|x| matches!(*x, "avoid")) {
        lead.modality = Some(Modality::ShouldNot);
    }
    // "**Forbidden actions:**", "Prohibited:", "Not allowed:": the items
    // are acts never to take.
    if lead.modality.is_none() && forbidding_lead(&t) {
        lead.modality = Some(Modality::MustNot);
    }
    if t.iter().any(|x| matches!(*x, "stop")) && lead.modality.is_none() {
        lead.modality = Some(Modality::Must);
    }
    let marker = t.iter().any(|x| {
        matches!(
            *x,
            "always"
                | "never"
                | "must"
                | "should"
                | "don't"
                | "avoid"
                | "required"
                | "requirements"
                | "confirm"
                | "rules"
                | "rule"
                | "checklist"
                | "exceptions"
                | "stop"
                | "verify"
                | "ensure"
                | "mandatory"
        )
    }) || text.to_lowercase().contains("done when")
        || forbidding_lead(&t);
    // "ALWAYS before:" / "STOP executing immediately when:": the items are conditions.
    if let Some(last) = t.last() {
        let order = match *last {
            "before" => Some(Order::Before),
            "when" | "if" | "after" | "whenever" => Some(Order::After),
            _ => None,
        };
        if order.is_some() {
            lead.items_are_conditions = order;
        }
    }
    // "Before marking work complete:": the lead-in is the condition.
    if let Some(first) = t.first() {
        if is_condition_word(first) && lead.items_are_conditions.is_none() && t.len() > 1 {
            let order = if *first == "before" {
                Order::Before
            } else {
                Order::After
            };
            match split_leading_condition(body) {
                // "When writing a test, read X:": the condition, and a rule of its own.
                Some((cond, _)) => {
                    lead.condition = Some((cond, order));
                    lead.has_main = true;
                }
                None => {
                    let rest = body.trim_start();
                    let rest = rest.split_once(char::is_whitespace).map_or("", |(_, r)| r);
                    lead.condition = Some((rest.to_string(), order));
                }
            }
        }
    }
    // "Always use option 3 instead. This workflow:": the lead-in's last
    // sentence introduces the items.
    let last: Vec<String> = body
        .rsplit_once(". ")
        .map(|(_, last)| {
            words(&mask(last).0)
                .into_iter()
                .filter(|x| !x.barrier)
                .map(|x| x.text)
                .collect()
        })
        .unwrap_or_default();
    let last: Vec<&str> = last.iter().map(String::as_str).collect();
    // ("Recognize debugging mode when the user:" / "- Describes …": the
    // items are what the user does, conditions, not rules.)
    let user_cases = t.len() >= 3
        && matches!(t[t.len() - 1], "user" | "users" | "they")
        && (matches!(t[t.len() - 2], "when" | "if" | "whenever")
            || (t[t.len() - 2] == "the" && matches!(t[t.len() - 3], "when" | "if" | "whenever")));
    lead.use_conditions = says_when_to_use(&t) || describes_effects(&t) || user_cases;
    // ("You may apply these fixes without asking:": the items are
    // permitted, never required.)
    let permits = lead.modality.is_none()
        && t.iter()
            .any(|x| matches!(*x, "may" | "can" | "allowed" | "permitted"));
    lead.topic_items = permits
        || main_verb(&w).is_some_and(|v| {
            matches!(
                v.as_str(),
                "mock" | "stub" | "fake" | "simulate" | "emulate" | "document" | "cover"
            )
        });
    lead.describes_items = !last.is_empty() && describes_effects(&last);
    lead.speech_items = main_verb(&w).is_some_and(|v| lex.is_speech(&v))
        && t.iter()
            .any(|x| matches!(*x, "options" | "choices" | "alternatives"))
        || (tells_the_user(&t, lex) && !lead.consent_before);
    lead.short_conditional = t.len() <= 4
        && t.last()
            .is_some_and(|l| matches!(*l, "when" | "if" | "for" | "whenever"));
    lead.other_actor = names_another_agent(&t);
    let verb = main_verb(&w);
    // ("Read these files first:" lists the files to read; a read named in
    // passing — "Supporting files:" — is only a reference.)
    let reads_these = t.windows(2).any(|p| {
        matches!(p[0], "these" | "the" | "following")
            && matches!(
                p[1],
                "files" | "documents" | "docs" | "notes" | "guides" | "references" | "following"
            )
    });
    lead.stage_verb = verb
        .clone()
        .filter(|v| {
            matches!(lead.modality, Some(Modality::MustNot | Modality::ShouldNot))
                && matches!(v.as_str(), "commit" | "stage" | "push" | "add")
        })
        // ("Never commit to main:" names where, its items are not what.)
        .filter(|_| {
            !t.iter()
                .any(|x| matches!(*x, "to" | "on" | "into" | "onto"))
        });
    // "Files to NEVER modify:": the items are the files, the verb after
    // "to" what is (not) done to them.
    let files_to = match t.as_slice() {
        [f, "to", rest @ ..] if matches!(*f, "files" | "paths" | "documents") => {
            rest.iter().find(|x| !is_filler(x)).map(|x| x.to_string())
        }
        _ => None,
    };
    let negated = files_to.is_some()
        && t.iter()
            .any(|x| matches!(*x, "never" | "not" | "don't" | "dont"));
    let verb = files_to.or(verb);
    lead.path_verb = verb
        .clone()
        .filter(|v| {
            lex.path_action(v)
                .is_some_and(|a| a != PathAction::Read || reads_these)
        })
        .map(|v| if negated { format!("Never {v}") } else { v });
    lead.normative = marker
        // "Do NOT:", "Should not:": a modal of its own.
        || (lead.modality.is_some() && t.len() <= 3)
        || lead.items_are_conditions.is_some()
        || lead.condition.is_some()
        || verb.as_deref().is_some_and(|v| lex.is_imperative(v));
    lead
}

/// A lead-in whose "before" governs its items: "… ask before:", "Before
/// running these commands, stop and ask the user:", "Ask before any of
/// the following:".
fn before_the_items(t: &[&str]) -> bool {
    t.last() == Some(&"before")
        || t.iter().enumerate().any(|(i, x)| {
            *x == "before"
                && t[i + 1..]
                    .iter()
                    .take(4)
                    .any(|y| matches!(*y, "these" | "following" | "below" | "them"))
        })
}

/// The words of a lead-in that says when the skill applies: "use when",
/// "don't use this skill if", "when to use", "when not to use it".
fn says_when_to_use(t: &[&str]) -> bool {
    // ("Use this skill only when the user asks for:": "only" changes
    // nothing.)
    let t: Vec<&str> = t
        .iter()
        .copied()
        .filter(|x| !matches!(*x, "do" | "don't" | "not" | "never" | "only"))
        .collect();
    let object = |rest: &[&str]| {
        matches!(
            rest,
            [] | ["it"] | ["this"] | ["this", "skill"] | ["the", "skill"] | ["them"]
        )
    };
    let calls = |v: &str| {
        matches!(
            v,
            "use" | "invoke" | "trigger" | "activate" | "load" | "apply"
        )
    };
    match t.as_slice() {
        ["when", "to", v, rest @ ..] if calls(v) => object(rest),
        ["use", rest @ .., last] if matches!(*last, "when" | "if" | "for") && object(rest) => true,
        // "Invoke this skill when you need to:": what follows is when.
        [v, rest @ ..] if calls(v) => rest
            .iter()
            .position(|x| matches!(*x, "when" | "whenever" | "if"))
            .is_some_and(|i| i > 0 && object(&rest[..i])),
        _ => false,
    }
}

/// "This will:", "The script updates:": what follows describes what
/// something does, not what the agent must do.
fn describes_effects(t: &[&str]) -> bool {
    // "On success, the following items are verified:", "These checks are
    // run:": a passive statement of what happens, not an instruction.
    // ("After a theme is selected:" is a condition, its items are rules.)
    // ("Delete the branch (after the worktree is removed):" ends in a
    // condition, not a passive statement.)
    if let [first, middle @ .., be, done] = t {
        if !is_condition_word(first)
            && !middle.iter().any(|x| is_condition_word(x))
            && matches!(*be, "are" | "is" | "get" | "gets")
            && ((done.len() > 4 && done.ends_with("ed"))
                || matches!(*done, "done" | "run" | "covered"))
        {
            return true;
        }
    }
    // "Choices:", "Options:": a menu the user picks from.
    if t.len() <= 3
        && t.iter()
            .any(|x| matches!(*x, "choices" | "options" | "menu"))
    {
        return true;
    }
    matches!(
        t,
        ["this" | "it" | "that", "will" | "does" | "also", ..]
            | [
                "the" | "this" | "that",
                "script" | "command" | "tool" | "workflow" | "skill" | "hook",
                "will" | "does" | "updates" | "creates" | "runs" | "also",
                ..
            ]
            | [
                "this" | "it",
                "updates" | "creates" | "runs" | "performs" | "handles" | "includes" | "means",
                ..
            ]
    ) || matches!(t, ["this" | "that", noun]
        // "Use option 3 instead. This workflow:": the bare name of what the
        // items describe (a list of rules names itself: "This checklist:").
        if !matches!(*noun, "checklist" | "list" | "rule" | "order" | "sequence" | "means"))
}

/// A lead-in whose subject is another agent ("Each agent gets", "The
/// subagent receives", "Every reviewer must check").
fn names_another_agent(t: &[&str]) -> bool {
    let t = match t.first() {
        Some(&("each" | "every" | "the" | "a" | "an" | "your")) => &t[1..],
        _ => t,
    };
    let agent = |w: &str| {
        let w = w.strip_suffix('s').unwrap_or(w);
        matches!(
            w,
            "agent" | "subagent" | "sub-agent" | "reviewer" | "implementer" | "worker" | "helper"
        )
    };
    t.len() >= 2 && agent(t[0]) && !matches!(t[1], "is" | "are" | "was" | "were" | "when" | "if")
}

pub(super) fn starts_with_third_person(w: &[Word]) -> bool {
    // "Test passes", "Plan has gaps": a noun then a verb in -s is a statement.
    w.len() >= 2
        && w[1].text.ends_with('s')
        && !w[1].text.ends_with("ss")
        && w[0].text != "use"
        && w[0].text != "run"
        && (matches!(
            w[0].text.as_str(),
            "test" | "plan" | "code" | "output" | "build"
        )
            // "Squash keeps history clean", "Rebase rewrites commits": a
            // verb of effect after the first word makes it the subject.
            || matches!(
                w[1].text.as_str(),
                "keeps"
                    | "makes"
                    | "ensures"
                    | "means"
                    | "gives"
                    | "lets"
                    | "helps"
                    | "prevents"
                    | "avoids"
                    | "causes"
                    | "creates"
                    | "leaves"
                    | "produces"
                    | "rewrites"
                    | "preserves"
                    | "guarantees"
                    | "breaks"
                    | "loses"
            ))
}

/// An all-caps rule line ("NO PRODUCTION CODE WITHOUT A FAILING TEST FIRST").
pub(super) fn is_caps_rule(s: &str) -> bool {
    let ws: Vec<&str> = s
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_alphabetic()))
        .collect();
    ws.len() >= 4 && ws.iter().all(|w| !w.chars().any(|c| c.is_lowercase()))
}

/// "**Problem**: committing on main / **Fix**: create a branch first": a
/// paragraph of labelled lines that pairs what goes wrong with what to do.
/// The problem describes; each remedy, its label dropped, is the rule.
/// `None` where the paragraph is not such a pair.
fn remedies(body: &Lined) -> Option<Vec<Lined>> {
    const PROBLEM: &[&str] = &[
        "problem",
        "symptom",
        "issue",
        "mistake",
        "cause",
        "error",
        "bad",
        "wrong",
        "why",
        "pitfall",
        "trap",
        "anti-pattern",
    ];
    const REMEDY: &[&str] = &[
        "fix",
        "solution",
        "instead",
        "remedy",
        "do",
        "correct",
        "good",
        "better",
        "resolution",
        "workaround",
    ];
    let mut parts: Vec<(Option<bool>, Lined)> = Vec::new();
    let ends = body
        .starts
        .iter()
        .skip(1)
        .map(|(o, _)| *o)
        .chain([body.text.len()]);
    for (&(start, line), end) in body.starts.iter().zip(ends) {
        let text = body.text[start..end].trim();
        let label = text.split_once(':').and_then(|(head, rest)| {
            let head = strip_emphasis(head).trim().to_lowercase();
            let head = head.trim_matches(|c: char| !c.is_alphanumeric());
            (head.split_whitespace().count() <= 2 && !head.is_empty())
                .then(|| (head.to_string(), rest.trim_start_matches(['*', ' '])))
        });
        match label {
            Some((head, rest)) if PROBLEM.contains(&head.as_str()) => {
                parts.push((Some(false), Lined::default()));
                parts.last_mut()?.1.push_line(line, rest);
            }
            Some((head, rest)) if REMEDY.contains(&head.as_str()) => {
                parts.push((Some(true), Lined::default()));
                parts.last_mut()?.1.push_line(line, rest);
            }
            // A wrapped line continues the part above it.
            _ => parts.last_mut()?.1.push_line(line, text),
        }
    }
    let has = |kind: bool| parts.iter().any(|(k, _)| *k == Some(kind));
    (has(false) && has(true)).then(|| {
        parts
            .into_iter()
            .filter(|(k, _)| *k == Some(true))
            .map(|(_, l)| l)
            .collect()
    })
}

/// Table column roles from the header.
#[derive(Debug, Clone)]
pub(super) struct TableRoles {
    pub(super) condition: Option<usize>,
    pub(super) action: Option<usize>,
    pub(super) avoid: Option<usize>,
    /// A "Don't" column beside the "Do" column (Do | Don't): each row also
    /// forbids its cell there.
    pub(super) dont: Option<usize>,
    /// The action column's header where it is what to do ("Update",
    /// "Investigate via"): the verb of cells that name only its object.
    pub(super) verb: Option<String>,
    /// The situation column names what was changed ("Changed area", "If
    /// you modify"): a path there is a change to it.
    pub(super) changed: bool,
    pub(super) modality: Modality,
}

impl TableRoles {
    /// Roles of a decision table, or `None` for a table that only explains
    /// (Excuse | Reality, Tool | Purpose, Command | Description).
    pub(super) fn of(header: &[String], lex: &Lexicon) -> Option<TableRoles> {
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
                modality: Modality::ShouldNot,
            });
        }
        // A "Command" column after a condition column (Branch category |
        // Command) holds the action; a first "Command" column only explains.
        let mut verb = None;
        // Or, after a situation column, a column headed by what to do
        // ("If you change… | Update", "Symptom | Cause | Investigate via").
        let situation = norm
            .iter()
            .position(|h| is(h, COND) || is(h, &["goal", "need", "type"]));
        let action = norm
            .iter()
            .position(|h| is(h, ACTION))
            .or_else(|| {
                norm.iter()
                    .position(|h| is(h, &["command", "commands"]))
                    .filter(|i| *i > 0)
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
                let first = situation?;
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
            modality: if should {
                Modality::Should
            } else {
                Modality::Must
            },
        })
    }
}

/// A blockquote that is a callout: a GitHub alert (`[!NOTE]`,
/// `[!IMPORTANT]`, `[!WARNING]` …, the marker dropped), or one that opens
/// in bold or with a symbol ("**Never commit secrets!**", "🔐 …"). A
/// quote of anything else (a dialogue, a sample message) is no rule.
fn callout(q: &Lined) -> Option<Lined> {
    let t = q.text.trim_start();
    let lead = q.text.len() - t.len();
    let skip = if t.starts_with("[!") {
        let close = t.find(']')?;
        let marker = &t[2..close];
        if marker.is_empty() || !marker.chars().all(|c| c.is_ascii_alphabetic()) {
            return None;
        }
        lead + close + 1
    } else if t.starts_with("**")
        || t.chars()
            .next()
            .is_some_and(|c| !c.is_ascii() && !c.is_alphanumeric())
    {
        0
    } else {
        return None;
    };
    let text = q.text[skip..].trim_start();
    let skip = q.text.len() - text.len();
    if text.is_empty() {
        return None;
    }
    let mut starts: Vec<(usize, u32)> = Vec::new();
    for &(off, line) in &q.starts {
        let at = off.saturating_sub(skip);
        match starts.last_mut() {
            Some(last) if last.0 == at => last.1 = line,
            _ => starts.push((at, line)),
        }
    }
    Some(Lined {
        text: text.to_string(),
        starts,
    })
}

/// A heading that numbers a step: "Step 2: Check CI status", "3. Push",
/// "4) Tag".
/// A heading that opens with a modal word and names an act with its
/// object ("3. Never Log Secrets", "Don't Assert on Requests"), without
/// its numbering; not one that leads a list ("NEVER Use These Commands")
/// or says when something happens ("Always run").
fn modal_heading(heading: &str) -> Option<String> {
    let t = strip_emphasis(heading);
    let t = t
        .trim()
        .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | ')'))
        .trim_start();
    let w = words(t);
    let first = w.first()?.text.as_str();
    let after = match first {
        "never" | "always" | "don't" => 1,
        "do" if w.get(1).is_some_and(|x| x.text == "not") => 2,
        _ => return None,
    };
    let rest = &w[after..];
    let leads = rest
        .iter()
        .any(|x| matches!(x.text.as_str(), "these" | "following" | "this" | "those"));
    (rest.len() >= 2 && !leads && !t.ends_with(':')).then(|| t.to_string())
}

/// "Do not use for npm packages", "Don't use this skill when …", "Not
/// for monorepos": the skill's own scope, said as a prohibition.
fn skill_not_for(s: &str) -> bool {
    // ("Never use `git push --force` on main": the code is what is used.)
    let lower = s.trim_start().to_lowercase();
    if ["never use `", "do not use `", "don't use `"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        return false;
    }
    let w = plain_words(s);
    let t: Vec<&str> = w.iter().map(String::as_str).collect();
    let rest = match t.as_slice() {
        ["do", "not", "use", rest @ ..]
        | ["don't", "use", rest @ ..]
        | ["never", "use", rest @ ..] => rest,
        ["not", rest @ ..] => {
            return rest.first().is_some_and(|x| *x == "for");
        }
        _ => return false,
    };
    let rest = match rest {
        ["this", "skill", r @ ..] | ["this", r @ ..] | ["it", r @ ..] => r,
        r => r,
    };
    rest.first()
        .is_some_and(|x| matches!(*x, "for" | "when" | "if" | "on"))
}

/// "Keys are never stored in plain text, never committed to git": a
/// statement in the passive about a thing (a subject of one to three
/// words, then "is/are/were … never/not …ed"), not an instruction. Which
/// thing a commit or a write holds is its content: no act to require or
/// forbid.
fn passive_fact(s: &str) -> bool {
    let w = plain_words(s);
    let Some(at) = w
        .iter()
        .take(4)
        .position(|x| matches!(x.as_str(), "is" | "are" | "was" | "were"))
    else {
        return false;
    };
    at >= 1
        && !matches!(w[0].as_str(), "it" | "this" | "that" | "there" | "what")
        && matches!(w.get(at + 1).map(String::as_str), Some("never" | "not"))
        && w.get(at + 2)
            .is_some_and(|x| x.ends_with("ed") && x.len() > 4)
}

/// "Never make a subagent read the whole plan", "Have the reviewer run
/// the suite": what another agent is made to do, not this agent's act.
fn another_actor_made(s: &str) -> bool {
    let w = plain_words(s);
    w.windows(3).any(|p| {
        matches!(p[0].as_str(), "make" | "let" | "have" | "get")
            && matches!(p[1].as_str(), "a" | "the" | "each" | "any" | "every")
            && matches!(
                p[2].as_str(),
                "subagent"
                    | "subagents"
                    | "agent"
                    | "agents"
                    | "reviewer"
                    | "worker"
                    | "implementer"
            )
    })
}

/// "The user decides when.", "The user chooses.": a sentence that leaves
/// the act to the user's word.
fn user_decides(s: &str) -> bool {
    let w = plain_words(s);
    w.windows(2).any(|p| {
        matches!(p[0].as_str(), "user" | "human" | "partner")
            && matches!(
                p[1].as_str(),
                "decides" | "chooses" | "decide" | "choose" | "approves" | "says"
            )
    })
}

fn numbered_step(heading: &str) -> bool {
    let t = strip_emphasis(heading);
    let t = t.trim();
    let lower = t.to_lowercase();
    let rest = lower.strip_prefix("step ").unwrap_or(&lower);
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    digits > 0
        && (lower.starts_with("step ")
            || rest[digits..].starts_with('.')
            || rest[digits..].starts_with(')'))
}
