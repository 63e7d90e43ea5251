//! Stage 2: rule candidates. Walks the markdown blocks (headings, tags,
//! paragraphs, list items with their lead-ins, decision-table rows, fenced
//! blocks), decides which are examples, explanations or rules, and hands each
//! candidate to the condition stage. This file holds the walk and the
//! sentence hand-off; its parts live beside it: `sections` (what a heading
//! says), `leads` (lead-ins over lists), `tables` (decision tables),
//! `fences` (shell blocks and the steps over them) and `modality` (the
//! modal words of a sentence).

use super::readings::{
    act_needs_consent, act_rather_than_command, act_then_so, acts_before_the_dash, agent_narration,
    at_file_reference, auto_prefixed, bypass_rather_than, change_kind_requires,
    command_then_verdict, condition_info, confirm_the_act, confirmed_state, connective_command,
    consent_phrasing, deletion_object, explicit_staging, failure_then_rule, first_lower,
    flag_with_command, git_subcommand_list, never_with_failing, only_first, otherwise_case,
    per_act, quoted_motto, read_for_purpose, reason_then_rule, rule_then_alternative,
    rule_then_insistence, rule_then_reason, sentence_adverbial, spoken_conjunct, state_checked_by,
    stated_tag_convention, third_person_base, use_not_the_other, wrong_order,
};
use super::*;

mod fences;
mod leads;
mod modality;
mod sections;
mod tables;

pub(crate) use fences::*;
pub(crate) use leads::*;
pub(crate) use modality::*;
pub(crate) use sections::*;
pub(crate) use tables::*;

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
    /// What the skill's deletions delete where a rule leaves it out
    /// ("Confirm before deleting" in a skill that prunes branches):
    /// [`skill_object`].
    pub(super) object: Option<&'static str>,
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
        // The indent and kind (numbered or not) of the list the lead-in
        // governs: a list of the other kind after it is a list of its own.
        let mut lead_list: Option<(usize, bool)> = None;
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
                    lead_list = None;
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
                    // "### Always use the slash commands because they:" over
                    // its reasons: the items say why, they are no rules.
                    if strip_emphasis(text).trim_end().ends_with(':') {
                        para_lead = Some(lead_of(text, self.lex)).filter(|l| l.describes_items);
                    }
                    // "## When NOT to Store" over "- Sensitive credentials":
                    // each item is a thing never stored.
                    if let Some(act) = not_to_heading(text).filter(|a| {
                        a.split_whitespace()
                            .next()
                            .is_some_and(|v| self.lex.is_imperative(v))
                    }) {
                        para_lead = Some(lead_of(&format!("Never {act}:"), self.lex));
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
                // "**2. Push**" over its list: the title of a step whose
                // items say what to do, no rule of its own.
                Block::Para(body) if step_title(&body.text) && list_follows(blocks, bi) => {
                    items.clear();
                    lead_list = None;
                    para_lead = None;
                }
                Block::Para(body) => {
                    items.clear();
                    lead_list = None;
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
                    // "### 3. Identify Commits to Push" / "**Existing
                    // upstream:**" over its block: a case label inside a
                    // numbered step — the block is still the step's.
                    if let Some(step) = bare_before.filter(|(t, _)| numbered_step(t)) {
                        if self.drafts.len() == drafts_before && case_label(&body.text, self.lex) {
                            bare_colon = Some(step);
                        }
                    }
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
                    // "**When the commit is rejected:**" / "1. … 2. …"
                    // then "- Push the branch.": the bullets are no steps of
                    // the lead-in's list.
                    if items.is_empty() {
                        if lead_list.is_some_and(|(i, o)| i == *indent && o != *ordered) {
                            para_lead = None;
                        }
                        lead_list = Some((*indent, *ordered));
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
                            numbered: *ordered,
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
                    let lang = reading_language(lang, lines, self.lex);
                    let under_colon = colon_before.is_some() || bare_before.is_some();
                    if lang.is_empty() {
                        self.fence(lines, &section);
                    }
                    // "Report back:" over a template: what to say, in that
                    // form (a speech rule, no act to check).
                    if let Some((text, at)) = bare_before
                        .as_ref()
                        .filter(|_| fence_commands(lines, lang, self.lex).is_empty())
                    {
                        if let Some(files) = self.tree_written(text, lines) {
                            let mut d = Draft::new(text.clone(), *at, Modality::Must);
                            d.require = Some(files);
                            add_predicate_scopes(&mut d, self.lex);
                            self.drafts.push(d);
                        } else if reports_in_form(text, self.lex) || self.shows_how(text, &section)
                        {
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
                        } else if forbids_running(&text) {
                            self.commands_not_to_run(text, at, lang, lines);
                        } else if after_consent {
                            self.consent_over_commands(text, at, lang, lines);
                        } else {
                            self.step_over_commands(text, at, lang, lines, &section);
                        }
                    }
                    if is_shell(lang) {
                        last_shell = fence_commands(lines, lang, self.lex);
                    }
                    // "If the staged files hold two changes, stage one:"
                    // over its block, then "- Do not use `git add -p`.":
                    // the lead-in governed the block; the list after it
                    // is not under its condition.
                    if items.is_empty() && under_colon {
                        para_lead = None;
                    }
                }
            }
        }
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
            // "Run all checks in sequence. Each must pass before continuing."
            // right over `just check`: the paragraph opens by running what
            // the block shows, though it names no command of its own.
            if self.runs_the_block_below(drafts_before) {
                *colon_rule = Some(drafts_before);
            }
            return;
        }
        if self.drafts.len() > drafts_before {
            *colon_rule = Some(self.drafts.len() - 1);
        } else {
            *bare_colon = Some((text, [body.first_line(), body.last_line()]));
        }
    }

    /// Whether the first rule a paragraph made opens with "Run" / "Execute"
    /// and names no act: the shell block right under the paragraph is what
    /// it runs.
    fn runs_the_block_below(&self, first: usize) -> bool {
        self.drafts.get(first).is_some_and(|d| {
            let w = words(&mask(&strip_emphasis(&d.text)).0);
            w.first()
                .is_some_and(|v| matches!(v.text.as_str(), "run" | "execute"))
                && !d.behavior_is_set()
                && d.when.is_none()
        })
    }

    /// A paragraph: its rules, and the lead it gives a following list.
    pub(super) fn paragraph(&mut self, body: &Lined, section: &Section) -> Option<Lead> {
        let groups = sentence_groups(body, self.lex);
        let mut lead = None;
        let last = groups.len().saturating_sub(1);
        let mut shared = groups.first().and_then(|g| {
            opening_condition(&g.full_text).or_else(|| arrow_condition(&g.full_text))
        });
        for (i, g) in groups.iter().enumerate() {
            // "Before creating a PR, look it up. If one exists, reuse it. …
            // Never fabricate results.": a sentence with a condition of its
            // own ("If …", "Otherwise …", "Without one, …") opens another
            // case; the opening condition no longer carries past it.
            if i > 0
                && (opening_condition(&g.full_text).is_some()
                    || arrow_condition(&g.full_text).is_some()
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
                    || words(&g.full_text).len() <= 3
                    || never_done_title(&strip_emphasis(&g.text_of(body)), self.lex).is_some();
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
        // "## Tools" over "- Read", "- Grep": the harness's tools the skill
        // uses, named one per item — a listing, no instruction.
        if self
            .lex
            .is_harness_tool(strip_emphasis(t).trim().trim_matches('`'))
        {
            return None;
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
            let changes = |act: &Predicate| {
                !predicate_scopes(act, self.lex).is_empty()
                    || act.any_node(&|q| is_path_action(q) && !matches!(q, Predicate::Read(_)))
            };
            if let Some(act) = clause_info(&text, self.lex)
                .behavior(false)
                .filter(|a| !lead.is_some_and(|l| l.after_approval) || changes(a))
            {
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
        let shared = groups.first().and_then(|g| {
            opening_condition(&g.full_text).or_else(|| arrow_condition(&g.full_text))
        });
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
                    numbered: step.numbered,
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
                    // ("Never force-push (only with the user's approval)":
                    // the forbidden act is the gated one.)
                    // ("Push if published (user confirms)": a case no
                    // action shows leaves the act no requirement, yet
                    // whenever it is done it waits on the user's word.)
                    let act = d
                        .require
                        .clone()
                        .filter(|_| d.forbid.is_none())
                        .or_else(|| d.forbid.clone())
                        .or_else(|| {
                            (d.when.is_none() && matches!(d.modality, Modality::Must))
                                .then(|| clause_info(&main, self.lex).behavior(false))
                                .flatten()
                        });
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
        // The readings that put a shape into words the analysis knows, in
        // order, each over what the one before it left.
        let lex = self.lex;
        let motto = |t: &str| (!ctx.in_list).then(|| quoted_motto(t, lex)).flatten();
        let stepped = |t: &str| connective_command(t, lex);
        let tests_named = |t: &str| self.test_anaphora(t);
        let dashed = |t: &str| {
            rule_then_insistence(t)
                .or_else(|| acts_before_the_dash(t))
                .or_else(|| rule_then_reason(t))
                .or_else(|| rule_then_alternative(t))
        };
        let bypass_contrast = |t: &str| bypass_rather_than(t, lex);
        let deleted = |t: &str| self.object.and_then(|o| deletion_object(t, o));
        let confirmed = |t: &str| confirm_the_act(t, lex);
        let readings: [&Reading; 24] = [
            &failure_then_rule,
            &deleted,
            &confirmed,
            &at_file_reference,
            &read_for_purpose,
            &stated_tag_convention,
            &confirmed_state,
            &motto,
            &state_checked_by,
            &flag_with_command,
            &sentence_adverbial,
            &stepped,
            &tests_named,
            &otherwise_case,
            &auto_prefixed,
            &per_act,
            &use_not_the_other,
            &act_rather_than_command,
            &bypass_contrast,
            &spoken_conjunct,
            &explicit_staging,
            &git_subcommand_list,
            &command_then_verdict,
            &dashed,
        ];
        let mut read = s.to_string();
        for reading in readings {
            if let Some(t) = reading(&read) {
                read = t;
            }
        }
        let s = read.as_str();
        let reasoned = act_then_so(s, self.lex)
            .or_else(|| reason_then_rule(s, self.lex))
            .or_else(|| consent_phrasing(s))
            .or_else(|| only_first(s))
            .or_else(|| wrong_order(s))
            .or_else(|| act_needs_consent(s))
            .or_else(|| change_kind_requires(s))
            .or_else(|| never_with_failing(s))
            // ("### DON'T" / "- Deploy with failing tests": the lead-in
            // says never.)
            .or_else(|| {
                let never = ctx.lead.map_or_else(
                    || ctx.section.normative() == Some(Some(Modality::MustNot)),
                    |l| matches!(l.modality, Some(Modality::MustNot)),
                );
                never
                    .then(|| never_with_failing(&format!("Never {}", first_lower(s))))
                    .flatten()
            })
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
        if skill_not_for(s)
            || gives_the_reason(s)
            || another_actor_made(s)
            || passive_fact(s)
            || (!ctx.checkbox && participle_subject(s, self.lex))
            || describes_what_it_does(s, self.lex)
        {
            d.when = None;
            d.require = None;
            d.forbid = None;
            d.order = None;
        }
        // "Do not implement audit logic here": which code is the audit
        // logic no edit shows — a forbid on every edit would flag all work.
        if d.when.is_none()
            && d.forbid.as_ref() == Some(&work_edits(self.lex))
            && implements_a_named_part(s)
        {
            d.forbid = None;
        }
        if d.scope.is_empty() {
            d.scope = elided;
        }
        // (Asking first is speech, but what it gates is the act: "ask for
        // confirmation before updating" in a skill that edits CLAUDE.md.)
        let gate = d.require == Some(Predicate::UserTurn);
        if d.scope.is_empty() && (!speech || gate) && d.modality != Modality::Should {
            let writes = writes_a_file(s);
            d.scope = self
                .topic
                .iter()
                .filter(|t| **t != ScopeTag::SelfModification || writes)
                .cloned()
                .collect();
        }
        Some(d)
    }

    /// "**Use cross-references:**" / "**Compress examples:**" over a
    /// block that shows how (no command in it): a short instruction, its
    /// verb first, whose block is its example — a rule judged by people.
    fn shows_how(&self, text: &str, section: &Section) -> bool {
        let w = words(&mask(&strip_emphasis(text)).0);
        let Some(first) = w.iter().find(|x| !x.barrier) else {
            return false;
        };
        (2..=6).contains(&w.len())
            && !section.example()
            && self.lex.is_imperative(&first.text)
            && !self.lex.is_speech(&first.text)
            && !matches!(
                first.text.as_str(),
                "see" | "example" | "note" | "run" | "execute"
            )
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
        let forbid = protected_branch_forbid(branches, lead.act_on_items.as_ref(), false);
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
            case_forbid: None,
            case_require: None,
            workflow: false,
        });
    }
}

/// What a protected-branch list forbids on each name: `act` on it (the
/// session's branch, or the branch a push names); with no act, any git
/// state change on it and deleting or pushing it; only deleting it where
/// the list says deletion.
pub(super) fn protected_branch_forbid(
    branches: &[String],
    act: Option<&Predicate>,
    deletion: bool,
) -> Predicate {
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
        let deletes = [
            Predicate::Command(format!("git branch -d {glob}*")),
            Predicate::Command(format!("git branch -D {glob}*")),
            Predicate::Command(format!("git push * --delete {glob}*")),
        ];
        match act {
            // "NEVER force push to: `main`": that act on that branch.
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
            None if deletion => alts.extend(deletes),
            None => {
                alts.push(Predicate::All(vec![
                    git_change.clone(),
                    Predicate::Branch(glob.clone()),
                ]));
                alts.extend(deletes);
                alts.push(Predicate::Command(format!("git push * {glob}*")));
            }
        }
    }
    Predicate::Any(alts)
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

/// A reading of a sentence: the sentence put in words the analysis
/// knows, where its shape calls for one.
type Reading<'a> = dyn Fn(&str) -> Option<String> + 'a;

/// Context of a sentence.
/// Where an item stands in a numbered procedure.
pub(super) struct Step {
    pub(super) after_user: bool,
    pub(super) after_approval: bool,
    pub(super) started: Option<Predicate>,
    /// The item is a step of a numbered list.
    pub(super) numbered: bool,
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
    /// A step of a numbered list ("1. `git fetch upstream`").
    pub(super) numbered: bool,
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
            numbered: false,
        }
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

/// "Why subagents: You delegate tasks to …", "Why this matters: …": a
/// label that opens with "why" gives the reason for the method, not a
/// step of it.
fn gives_the_reason(s: &str) -> bool {
    states_a_goal(s)
        || split_label(&strip_emphasis(s)).is_some_and(|(label, _)| {
            label
                .split_whitespace()
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("why"))
        })
}

/// "Goal: Create the annotated tag and optionally push it": what a phase
/// is for, which its steps do — not a step, nor a forbid of every other way.
pub(super) fn states_a_goal(s: &str) -> bool {
    split_label(&strip_emphasis(s)).is_some_and(|(label, _)| {
        matches!(
            label.trim().to_lowercase().as_str(),
            "goal" | "goals" | "purpose" | "objective" | "objectives" | "aim"
        )
    })
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
    // ("Do not activate for: editing existing skills": the skill's own
    // trigger, as "use" is.)
    let used = |v: &str| matches!(v, "use" | "activate" | "trigger" | "invoke" | "load");
    let rest = match t.as_slice() {
        ["do", "not", v, rest @ ..] | ["don't", v, rest @ ..] | ["never", v, rest @ ..]
            if used(v) =>
        {
            rest
        }
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

/// "Validates the version - Runs `validate_version.sh` …", "`cargo fmt
/// --check` - Ensures code is properly formatted": what a script or a
/// command does, told in the third person — a description, not an act
/// the agent is told to take.
fn describes_what_it_does(s: &str, lex: &Lexicon) -> bool {
    let t = strip_emphasis(s);
    let t = t.trim_start();
    // (After a command and its dash: "`cmd` - Ensures …".)
    let t = match t.strip_prefix('`').and_then(|r| r.split_once('`')) {
        Some((span, after)) => match after.trim_start().strip_prefix(['-', '\u{2014}', ':']) {
            // ("`scripts/run_ci.sh` - Run CI checks locally": an entry of a
            // list of the skill's scripts — what the file is for.)
            // (Not "`post_install.py` - Post-creation setup script" under
            // "Generate these files:": a file named by what it is.)
            Some(rest) if script_file(span) && names_an_act(rest, lex) => return true,
            Some(rest) => rest.trim_start(),
            None => return false,
        },
        None => t,
    };
    let Some(first) = t.split_whitespace().next() else {
        return false;
    };
    if !first.starts_with(|c: char| c.is_ascii_uppercase()) {
        return false;
    }
    let v = first.to_lowercase();
    if lex.is_imperative(&v) {
        return false;
    }
    // ("Commits must not be pushed": a plural noun, then its modal.)
    let modal_next = t.split_whitespace().nth(1).is_some_and(|n| {
        matches!(
            n.to_lowercase().as_str(),
            "must"
                | "mustn't"
                | "should"
                | "shouldn't"
                | "shall"
                | "are"
                | "will"
                | "may"
                | "can"
                | "cannot"
                | "never"
        )
    });
    !modal_next
        && third_person_base(&v).is_some_and(|base| base.len() >= 3 && lex.is_imperative(&base))
}

/// A description that opens with a verb: "Run CI checks locally",
/// "Downloads the logs", "Auto-fix common issues".
fn names_an_act(text: &str, lex: &Lexicon) -> bool {
    let Some(first) = text.split_whitespace().next() else {
        return false;
    };
    let v = first.to_lowercase();
    let v = v.strip_prefix("auto-").unwrap_or(&v);
    lex.is_imperative(v) || third_person_base(v).is_some_and(|b| lex.is_imperative(&b))
}

/// A script's path, alone in its code span: `scripts/fix.sh`,
/// `tools/check.py` (not a command with arguments).
fn script_file(span: &str) -> bool {
    let ext = span.rsplit_once('.').map(|(_, e)| e);
    !span.contains(char::is_whitespace)
        && matches!(
            ext,
            Some("sh" | "bash" | "py" | "js" | "mjs" | "ts" | "rb" | "pl" | "ps1")
        )
}

/// "Keys are never stored in plain text, never committed to git", "No
/// commit is scanned at all": a statement in the passive about a thing (a
/// subject of one to three words, then "is/are/were … never/not …ed", or
/// "No <thing> is …ed"), not an instruction. Which
/// thing a commit or a write holds is its content: no act to require or
/// forbid.
pub(super) fn passive_fact(s: &str) -> bool {
    let w = plain_words(s);
    let Some(at) = w
        .iter()
        .take(4)
        .position(|x| matches!(x.as_str(), "is" | "are" | "was" | "were"))
    else {
        return false;
    };
    let participle = |i: usize| {
        w.get(i)
            .is_some_and(|x| (x.ends_with("ed") || x.ends_with("en")) && x.len() > 4)
    };
    // ("No commit is scanned at all": the thing none of is the object of
    // the participle's act, not an act forbidden.)
    if w[0] == "no" && at >= 2 {
        return participle(at + 1);
    }
    at >= 1
        && !matches!(w[0].as_str(), "it" | "this" | "that" | "there" | "what")
        && matches!(w.get(at + 1).map(String::as_str), Some("never" | "not"))
        && participle(at + 2)
}

/// "Deleted releases block tag names permanently", "**Immutable:**
/// Squashed commits lose their history": a statement whose subject opens
/// with a participle — what happens to a thing so treated, not an act to
/// require. (Not where it says a rule: "Signed commits are required".)
fn participle_subject(s: &str, lex: &Lexicon) -> bool {
    let text = split_label(s)
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| s.to_string());
    let w = plain_words(&text);
    let Some(first) = w.first() else {
        return false;
    };
    let ruled = w.iter().any(|x| {
        matches!(
            x.as_str(),
            "must"
                | "should"
                | "never"
                | "always"
                | "only"
                | "not"
                | "required"
                | "mandatory"
                | "forbidden"
                | "allowed"
                | "ok"
                | "fine"
        )
    });
    // ("Watched each test fail": an act done, its object after it.)
    let object_follows = w.get(1).is_some_and(|x| {
        matches!(
            x.as_str(),
            "the" | "a" | "an" | "each" | "every" | "all" | "it" | "them" | "this" | "that"
        )
    });
    first.len() > 4
        && first.ends_with("ed")
        && !lex.is_imperative(first)
        && w.len() >= 3
        && !ruled
        && !object_follows
}

/// "Do not implement audit logic here", "Never implement retries in the
/// client": "implement" with a named part of the code as its object (not
/// "anything", "it", "code", "yet", "until …").
fn implements_a_named_part(s: &str) -> bool {
    let w = plain_words(s);
    let Some(at) = w
        .iter()
        .position(|x| matches!(x.as_str(), "implement" | "implementing"))
    else {
        return false;
    };
    let object = w[at + 1..].iter().find(|x| {
        !matches!(
            x.as_str(),
            "a" | "an" | "the" | "any" | "your" | "its" | "new" | "own"
        )
    });
    object.is_some_and(|x| {
        !matches!(
            x.as_str(),
            "anything"
                | "it"
                | "this"
                | "that"
                | "them"
                | "code"
                | "changes"
                | "change"
                | "yet"
                | "now"
                | "until"
                | "before"
                | "without"
                | "unless"
                | "fixes"
                | "plan"
        )
    })
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

/// "**1. Change analysis**", "**Step 2: Push**": a paragraph that is only
/// a numbered step's name in bold — a title, not a sentence.
fn step_title(text: &str) -> bool {
    let t = text.trim();
    let Some(inner) = t.strip_prefix("**").and_then(|r| r.strip_suffix("**")) else {
        return false;
    };
    !inner.contains("**")
        && !inner.trim_end().ends_with(['.', ':', '!', '?'])
        && inner.split_whitespace().count() <= 8
        && numbered_step(inner)
}

/// Whether the next block after `at`, past blank lines, is a list item.
fn list_follows(blocks: &[Block], at: usize) -> bool {
    blocks[at + 1..]
        .iter()
        .find(|b| !matches!(b, Block::Blank))
        .is_some_and(|b| matches!(b, Block::Item { .. }))
}

/// "**Existing upstream:**", "**New branch (no upstream):**": a short bold
/// label naming a case, no verb of its own.
fn case_label(text: &str, lex: &Lexicon) -> bool {
    let t = text.trim();
    let Some(inner) = t.strip_prefix("**") else {
        return false;
    };
    let inner = inner.trim_end();
    let inner = inner
        .strip_suffix(":**")
        .or_else(|| inner.strip_suffix("**:"))
        .unwrap_or("");
    let w = words(&without_parentheses(inner));
    !inner.is_empty()
        && !inner.contains("**")
        && (1..=4).contains(&w.len())
        && !w
            .iter()
            .any(|x| lex.is_imperative(&x.text) || is_condition_word(&x.text))
}
