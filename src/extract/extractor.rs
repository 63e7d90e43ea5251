//! Deterministic extraction of constraints from a skill body (SPEC §4).
//!
//! The body is segmented ([`super::markdown`]) into paragraphs, list items,
//! table rows and fenced blocks; each sentence, item, decision-table row and
//! normative fenced block is a candidate rule. A candidate is a rule when it
//! says so (RFC 2119 words, NEVER / ALWAYS / ONLY, "do not", "avoid"…), when
//! it starts with an imperative verb, when it is an If/When/Before/After
//! clause with an imperative main clause, or when a normative lead-in or
//! heading governs it ("**Never:**", "Red Flags", "Done when", checklists).
//!
//! A rule is split into its condition (leading If/When/Before/After…, a
//! question that opens it, a lead-in's condition, a trailing before/after/
//! until/when clause) and its main clause. The lexicon turns words, code
//! spans, paths and links of each part into predicates: the condition gives
//! `when`, the main clause gives `require` (positive rules) or `forbid`
//! (negative ones); "never X without Y" gives `when: X, require: Y, order:
//! before`. A main clause that only produces text (announce, tell, ask…)
//! gives no behavior, only `when`. docs/constraints.md walks through it.

use super::constraint::{Constraint, Modality, Order, ScopeTag};
use super::lexicon::{words, Lexicon, PathAction, Word};
use super::markdown::{self, Block, Lined};
use super::predicate::Predicate;
use crate::parse::Skill;
use std::collections::{BTreeMap, BTreeSet};

/// Extract the constraints of a skill with a lexicon.
pub fn extract(skill: &Skill, lexicon: &Lexicon) -> Vec<Constraint> {
    let blocks = markdown::blocks(skill.body_lines());
    let mut ex = Extractor {
        lex: lexicon,
        drafts: Vec::new(),
    };
    ex.run(&blocks);
    assign_ids(ex.drafts)
}

/// A rule before it gets its id.
#[derive(Debug, Clone)]
struct Draft {
    text: String,
    lines: [u32; 2],
    modality: Modality,
    scope: BTreeSet<ScopeTag>,
    when: Option<Predicate>,
    require: Option<Predicate>,
    forbid: Option<Predicate>,
    order: Option<Order>,
}

/// What governs a list: a lead-in paragraph or a parent item ending in ':'.
#[derive(Debug, Clone, Default)]
struct Lead {
    /// The lead-in is a rule marker or says a rule ("Always:", "Confirm:").
    normative: bool,
    /// Modality its items inherit when they say none themselves.
    modality: Option<Modality>,
    /// "ALWAYS before:" / "STOP when:": the items are the conditions.
    items_are_conditions: Option<Order>,
    /// "Before marking work complete:": the lead-in's own condition text.
    condition: Option<(String, Order)>,
    /// The lead-in also has a main clause ("When X, read Y:"): a rule itself.
    has_main: bool,
}

/// The heading context of a block.
#[derive(Debug, Clone, Default)]
struct Section {
    /// Heading texts, outermost first.
    headings: Vec<(usize, String)>,
}

impl Section {
    fn nearest(&self) -> &str {
        self.headings.last().map_or("", |(_, t)| t.as_str())
    }
    /// Items under this heading are rules ("Red Flags", "Checklist", "Done when").
    fn normative(&self) -> Option<Option<Modality>> {
        let h = self.nearest().to_lowercase();
        let w = words(&h);
        let has = |x: &str| w.iter().any(|t| t.text == x);
        let phrase = |x: &str| h.contains(x);
        if phrase("red flag")
            || has("never")
            || phrase("don't")
            || phrase("do not")
            || has("avoid")
            || phrase("anti-pattern")
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
            || has("principles")
            || has("guardrails")
            || has("constraints")
            || has("must")
            || has("always")
        {
            return Some(None);
        }
        None
    }
    /// An "Example" section: its text shows, it does not rule.
    fn example(&self) -> bool {
        self.headings.iter().any(|(_, t)| {
            words(t).first().is_some_and(|f| {
                matches!(
                    f.text.as_str(),
                    "example" | "examples" | "sample" | "samples"
                )
            })
        })
    }

    /// The section is optional or conditional ("From setup.py", "If …",
    /// "Troubleshooting", "Examples"): its steps are not required on every run.
    fn conditional(&self) -> bool {
        self.headings.iter().any(|(_, t)| {
            let w = words(t);
            w.first().is_some_and(|f| {
                matches!(
                    f.text.as_str(),
                    "from" | "if" | "when" | "for" | "optional" | "alternative" | "alternatives"
                )
            }) || w.iter().any(|x| {
                x.text.starts_with("migrat")
                    || x.text.starts_with("troubleshoot")
                    || x.text.starts_with("example")
                    || x.text == "fallback"
                    || x.text == "optional"
                    || x.text == "faq"
            })
        })
    }
}

struct Extractor<'a> {
    lex: &'a Lexicon,
    drafts: Vec<Draft>,
}

/// Tags whose content is an example, not a rule.
const EXAMPLE_TAGS: &[&str] = &[
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

impl Extractor<'_> {
    fn run(&mut self, blocks: &[Block]) {
        let mut section = Section::default();
        let mut example_depth = 0usize;
        let mut para_lead: Option<Lead> = None;
        let mut items: Vec<(usize, Option<Lead>)> = Vec::new();
        let mut table: Option<TableRoles> = None;
        let mut table_header: Option<std::rc::Rc<Vec<String>>> = None;
        for block in blocks {
            match block {
                Block::Heading { level, text, .. } => {
                    while section.headings.last().is_some_and(|(l, _)| l >= level) {
                        section.headings.pop();
                    }
                    section.headings.push((*level, strip_emphasis(text)));
                    para_lead = None;
                    items.clear();
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
                _ if example_depth > 0 || section.example() => {}
                Block::Blank => {}
                Block::Quote(_) => {}
                Block::Para(body) => {
                    items.clear();
                    para_lead = self.paragraph(body, &section);
                }
                Block::Item {
                    body,
                    indent,
                    checkbox,
                    ..
                } => {
                    while items.last().is_some_and(|(i, _)| i >= indent) {
                        items.pop();
                    }
                    let lead = match items.last() {
                        Some((_, parent)) => parent.clone(),
                        None => para_lead.clone(),
                    };
                    let own_lead = self.item(body, lead.as_ref(), *checkbox, &section);
                    items.push((*indent, own_lead));
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
                        table = TableRoles::of(header);
                    }
                    if let Some(roles) = &table {
                        self.row(*line, cells, roles, &section);
                    }
                }
                Block::Fence { lang, lines, .. } => {
                    if lang.is_empty() {
                        self.fence(lines, &section);
                    }
                }
            }
        }
    }

    /// A paragraph: its rules, and the lead it gives a following list.
    fn paragraph(&mut self, body: &Lined, section: &Section) -> Option<Lead> {
        let groups = sentence_groups(body, self.lex);
        let mut lead = None;
        let last = groups.len().saturating_sub(1);
        let shared = groups.first().and_then(|g| opening_condition(&g.full_text));
        for (i, g) in groups.iter().enumerate() {
            let ctx = Ctx {
                lead: None,
                section,
                in_list: false,
                checkbox: false,
                para_condition: if i > 0 { shared.clone() } else { None },
            };
            if i == last && g.text_of(body).trim_end().ends_with(':') {
                let l = lead_of(&g.text_of(body), self.lex);
                let bare = (l.condition.is_some() && !l.has_main)
                    || l.items_are_conditions.is_some()
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
    fn item(
        &mut self,
        body: &Lined,
        lead: Option<&Lead>,
        checkbox: bool,
        section: &Section,
    ) -> Option<Lead> {
        let groups = sentence_groups(body, self.lex);
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
                };
                self.group(g, &ctx);
            }
        }
        own
    }

    fn group(&mut self, g: &Group, ctx: &Ctx) {
        let mut parts: Vec<Draft> = Vec::new();
        for (k, s) in g.sentences.iter().enumerate() {
            let cond = if k == 0 { g.question.as_deref() } else { None };
            if let Some(d) = self.sentence(s, cond, ctx, k == 0) {
                parts.push(d);
            }
        }
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
    fn sentence(&self, s: &str, question: Option<&str>, ctx: &Ctx, first: bool) -> Option<Draft> {
        let a = analyse(s, question, ctx, first, self.lex)?;
        Some(a.into_draft(ctx, self.lex))
    }

    fn row(&mut self, line: u32, cells: &[String], roles: &TableRoles, section: &Section) {
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
        let mut d = Draft {
            text: text.clone(),
            lines: [line, line],
            modality: roles.modality,
            scope: BTreeSet::new(),
            when: None,
            require: None,
            forbid: None,
            order: None,
        };
        if let Some(avoid) = roles.avoid {
            let info = clause_info(&get(Some(avoid)), lex);
            d.scope.extend(info.scope.iter().copied());
            d.forbid = info.avoided();
        } else {
            let cond = clause_info(&get(roles.condition), lex);
            let action_text = get(roles.action);
            let (own_neg, _) = negation(&words(&mask(&action_text).0));
            let verb = main_verb(&words(&mask(&action_text).0));
            let speech = verb.as_deref().is_some_and(|v| lex.is_speech(v));
            let act = clause_info(&action_text, lex);
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
            } else if !speech {
                d.require = act
                    .behavior(true)
                    .filter(|_| d.when.is_some() || !section.conditional());
            }
        }
        add_predicate_scopes(&mut d, lex);
        self.drafts.push(d);
    }

    fn fence(&mut self, lines: &[(u32, String)], section: &Section) {
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
        let ctx = Ctx {
            lead: None,
            section,
            in_list: false,
            checkbox: false,
            para_condition: None,
        };
        let first_text = first.1.trim();
        let mut d = match analyse(first_text, None, &ctx, true, self.lex) {
            Some(a) => a.into_draft(&ctx, self.lex),
            None => Draft {
                text: String::new(),
                lines: [0, 0],
                modality: Modality::Must,
                scope: BTreeSet::new(),
                when: None,
                require: None,
                forbid: None,
                order: None,
            },
        };
        for (_, l) in content.iter().skip(1) {
            d.scope.extend(clause_info(l, self.lex).scope);
        }
        d.text = text;
        d.lines = [first.0, last.0];
        self.drafts.push(d);
    }
}

/// A normative fenced block (no language): prose, not code, that states a
/// rule — an all-caps line, an RFC word in capitals, or a heading that names
/// a rule or law.
fn normative_fence(content: &[&(u32, String)], section: &Section) -> bool {
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
    let h = section.nearest().to_lowercase();
    let rule_heading = ["rule", "law", "gate", "principle"]
        .iter()
        .any(|w| h.contains(w));
    caps_line || caps_word || rule_heading
}

/// Context of a sentence.
struct Ctx<'a> {
    lead: Option<&'a Lead>,
    section: &'a Section,
    in_list: bool,
    checkbox: bool,
    /// "**If X:** A. B.": the condition the paragraph's first sentence
    /// opens with, which its later sentences share.
    para_condition: Option<(String, Order)>,
}

/// The condition a sentence opens with ("If X: …", "**If X:** …", "When X, …").
fn opening_condition(s: &str) -> Option<(String, Order)> {
    let w = words(&mask(s).0);
    let first = w.first()?;
    if !is_condition_word(&first.text) {
        return None;
    }
    let order = if first.text == "before" {
        Order::Before
    } else {
        Order::After
    };
    split_leading_condition(s).map(|(c, _)| (c, order))
}

/// Sentences of a paragraph or item, grouped: a question opens a group as
/// its condition ("Test fails? Fix code."), short sentences on the same line
/// join the rule before them ("Delete it. Start over.").
#[derive(Debug, Clone)]
struct Group {
    question: Option<String>,
    sentences: Vec<String>,
    full_text: String,
    lines: [u32; 2],
    start: usize,
    end: usize,
}

impl Group {
    fn text_of(&self, body: &Lined) -> String {
        strip_emphasis(&body.text[self.start..self.end])
    }
}

fn sentence_groups(body: &Lined, lex: &Lexicon) -> Vec<Group> {
    let spans = split_sentences(&body.text);
    let mut groups: Vec<Group> = Vec::new();
    let mut pending_q: Option<(usize, usize)> = None;
    for (start, end) in spans {
        let raw = &body.text[start..end];
        let s = strip_emphasis(raw);
        if s.trim().is_empty() {
            continue;
        }
        let is_q = s.trim_end().ends_with('?');
        let nwords = words(&s).len();
        if is_q && pending_q.is_none() {
            pending_q = Some((start, end));
            continue;
        }
        if let Some((qs, qe)) = pending_q.take() {
            let q = strip_emphasis(&body.text[qs..qe]);
            groups.push(Group {
                question: Some(q),
                sentences: vec![s],
                full_text: strip_emphasis(&body.text[qs..end]),
                lines: [body.line_at(qs), body.line_at(end.saturating_sub(1))],
                start: qs,
                end,
            });
            continue;
        }
        if let Some(prev) = groups.last_mut() {
            let same_line = body.line_at(prev.end.saturating_sub(1)) == body.line_at(start);
            let starts_condition = words(&s)
                .first()
                .is_some_and(|w| is_condition_word(&w.text));
            if same_line
                && nwords <= 5
                && !starts_condition
                && is_rule_like(&prev.sentences[0], lex)
            {
                prev.sentences.push(s);
                prev.full_text = strip_emphasis(&body.text[prev.start..end]);
                prev.end = end;
                prev.lines[1] = body.line_at(end.saturating_sub(1));
                continue;
            }
        }
        groups.push(Group {
            question: None,
            sentences: vec![s.clone()],
            full_text: s,
            lines: [body.line_at(start), body.line_at(end.saturating_sub(1))],
            start,
            end,
        });
    }
    if let Some((qs, qe)) = pending_q {
        // A trailing question alone: a sentence like any other.
        let s = strip_emphasis(&body.text[qs..qe]);
        groups.push(Group {
            question: None,
            sentences: vec![s.clone()],
            full_text: s,
            lines: [body.line_at(qs), body.line_at(qe.saturating_sub(1))],
            start: qs,
            end: qe,
        });
    }
    groups
}

/// Could this sentence open a rule (cheap check used for grouping)?
fn is_rule_like(s: &str, lex: &Lexicon) -> bool {
    let s = bounded(s);
    let s = split_label(s).map_or(s.to_string(), |(_, rest)| rest);
    let w = words(&mask(&s).0);
    own_modal(&w).is_some() || main_verb(&w).is_some_and(|v| lex.is_imperative(&v))
}

/// Byte spans of sentences: a split after `.`, `!` or `?` followed by a
/// space and an upper-case letter, a digit, or markup — never inside a code
/// span, never after an abbreviation (e.g., i.e., etc., vs.).
fn split_sentences(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_code = false;
    let mut in_quote = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'`' {
            in_code = !in_code;
        } else if c == b'"' && !in_code {
            in_quote = !in_quote;
        } else if !in_code && !in_quote && matches!(c, b'.' | b'!' | b'?') {
            // Closers that belong to this sentence.
            let mut j = i + 1;
            while j < bytes.len() && matches!(bytes[j], b'*' | b'_' | b')' | b'\'') {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b' ' {
                let next = text[j..].trim_start();
                let nc = next.chars().next().unwrap_or(' ');
                let word_before = text[start..i]
                    .rsplit(|c: char| c.is_whitespace() || c == '(')
                    .next()
                    .unwrap_or("");
                let abbrev = matches!(
                    word_before.to_lowercase().as_str(),
                    "e.g"
                        | "i.e"
                        | "etc"
                        | "vs"
                        | "cf"
                        | "approx"
                        | "e"
                        | "i"
                        | "no"
                        | "dr"
                        | "mr"
                        | "ms"
                ) || (c == b'.'
                    && word_before.chars().all(|x| x.is_ascii_digit())
                    && !word_before.is_empty());
                // A lowercase start ends a sentence too after a plain word
                // ("… any other skill. writing-plans is next."), never after
                // an abbreviation or a number.
                let plain_word =
                    word_before.len() >= 3 && word_before.chars().all(|x| x.is_alphabetic());
                let starts_new = (nc.is_lowercase() && plain_word)
                    || nc.is_uppercase()
                    || nc.is_ascii_digit()
                    || matches!(nc, '*' | '`' | '"' | '[' | '“' | '(');
                if starts_new && !abbrev {
                    out.push((start, j));
                    start = j + 1;
                    i = j;
                }
            }
        }
        i += 1;
    }
    if start < text.len() {
        out.push((start, text.len()));
    }
    out.into_iter()
        .filter(|(s, e)| !text[*s..*e].trim().is_empty())
        .collect()
}

/// Remove bold / italic markers (`**`, `__`) and turn links into their text.
fn strip_emphasis(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_code = false;
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            in_code = !in_code;
            out.push(c);
        } else if !in_code && (c == '*' || c == '_') && chars.get(i + 1) == Some(&c) {
            i += 1;
        } else {
            out.push(c);
        }
        i += 1;
    }
    out.trim().to_string()
}

/// The text with code spans, quotations and link targets replaced by a
/// barrier (`\u{1}`), plus the code spans and relative link targets found.
fn mask(s: &str) -> (String, Vec<String>, Vec<String>) {
    let mut out = String::with_capacity(s.len());
    let mut code = Vec::new();
    let mut links = Vec::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            if let Some(j) = chars[i + 1..].iter().position(|x| *x == '`') {
                code.push(chars[i + 1..i + 1 + j].iter().collect::<String>());
                out.push('\u{1}');
                i += j + 2;
                continue;
            }
        }
        if c == '"' || c == '“' {
            let close = if c == '"' { '"' } else { '”' };
            if let Some(j) = chars[i + 1..].iter().position(|x| *x == close) {
                out.push('\u{1}');
                i += j + 2;
                continue;
            }
        }
        if c == ']' && chars.get(i + 1) == Some(&'(') {
            if let Some(j) = chars[i + 2..].iter().position(|x| *x == ')') {
                let target: String = chars[i + 2..i + 2 + j].iter().collect();
                if !target.contains("://")
                    && !target.starts_with('#')
                    && !target.starts_with("mailto:")
                {
                    links.push(target.split('#').next().unwrap_or("").to_string());
                }
                i += j + 3;
                continue;
            }
        }
        if c == '[' {
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    (out, code, links)
}

fn is_condition_word(w: &str) -> bool {
    matches!(
        w,
        "if" | "when" | "whenever" | "before" | "after" | "once" | "unless" | "until" | "while"
    )
}

/// Words skipped before a main verb.
fn is_filler(w: &str) -> bool {
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
    ) || (w.len() > 4 && w.ends_with("ly"))
}

/// The first word of a clause that is not a modal, adverb or pronoun.
fn main_verb(w: &[Word]) -> Option<String> {
    w.iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .find(|t| !is_filler(t))
        .map(str::to_string)
}

/// Negation at the head of a clause: (negative, weak = should-not).
fn negation(w: &[Word]) -> (bool, bool) {
    let t: Vec<&str> = w
        .iter()
        .filter(|x| !x.barrier)
        .map(|x| x.text.as_str())
        .collect();
    let head = &t[..t.len().min(5)];
    let weak = head.first() == Some(&"avoid")
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
        || t.first() == Some(&"no")
        || t.windows(2)
            .any(|p| matches!(p[0], "must" | "shall") && p[1] == "not");
    (strong || weak, weak && !strong)
}

/// A clause's own modal word: Some(modality) when it says one.
fn own_modal(w: &[Word]) -> Option<Modality> {
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
    if t.iter()
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
    {
        return Some(Modality::Must);
    }
    None
}

fn lead_of(text: &str, lex: &Lexicon) -> Lead {
    let text = strip_emphasis(text);
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
        ..Lead::default()
    };
    if t.iter().any(|x| matches!(*x, "avoid")) {
        lead.modality = Some(Modality::ShouldNot);
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
    }) || text.to_lowercase().contains("done when");
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
    let verb = main_verb(&w);
    lead.normative = marker
        || lead.items_are_conditions.is_some()
        || lead.condition.is_some()
        || verb.as_deref().is_some_and(|v| lex.is_imperative(v));
    lead
}

/// The parts of a rule sentence.
struct Analysis {
    modality: Modality,
    negative: bool,
    speech: bool,
    /// Condition text and the order its `require` takes relative to it.
    conditions: Vec<(String, Order)>,
    main: String,
    /// "without Y" (negative rules): Y.
    without: Option<String>,
    /// "before/until Y" after a negative main clause: Y must come first.
    negative_before: Option<String>,
    /// Scope from the whole sentence's words (main part excluded for speech).
    scope_text: Vec<String>,
    /// The main clause may become a `forbid`.
    forbid_ok: bool,
    /// "Prefer X over Y": Y.
    avoided: Option<String>,
    /// The main verb chooses a means ("use", "prefer"): not an act required on its own.
    chooses: bool,
}

fn analyse(
    s: &str,
    question: Option<&str>,
    ctx: &Ctx,
    first: bool,
    lex: &Lexicon,
) -> Option<Analysis> {
    let s = bounded(s.trim());
    let question = question.map(bounded);
    if s.is_empty() {
        return None;
    }
    let lower = s.to_lowercase();
    if lower.starts_with("see ") || lower.starts_with("for more") || lower.starts_with("read next")
    {
        return None;
    }
    // "❌ Bad: …" / "✅ Good: …": an example, not a rule.
    let unmarked = s.trim_start_matches(['❌', '✅', '✓', '✗', ' ']);
    if unmarked.len() != s.len() {
        let first = words(unmarked)
            .first()
            .map(|w| w.text.clone())
            .unwrap_or_default();
        if matches!(
            first.as_str(),
            "bad" | "good" | "wrong" | "right" | "correct" | "incorrect" | "example"
        ) {
            return None;
        }
    }
    let mut conditions: Vec<(String, Order)> = Vec::new();
    if let Some(q) = question {
        conditions.push((q.trim_end_matches('?').to_string(), Order::After));
    }
    // "No lockfile → run X": the left side is the condition.
    let arrowed;
    let s = match find_outside_code(s, "→").or_else(|| find_outside_code(s, " -> ")) {
        Some(i) => {
            let arrow_len = if s[i..].starts_with('→') {
                '→'.len_utf8()
            } else {
                4
            };
            let (left, right) = (s[..i].trim(), s[i + arrow_len..].trim());
            if left.is_empty() || right.is_empty() {
                s
            } else {
                conditions.push((left.to_string(), Order::After));
                arrowed = right.to_string();
                arrowed.as_str()
            }
        }
        None => s,
    };
    // A label before a colon: "Core principle: …", "If NOT ignored: …".
    let mut rest = s.to_string();
    let mut label_text = String::new();
    if let Some((label, after)) = split_label(&rest).filter(|(l, _)| {
        // "Add ruff: `uv add ruff`", "Announce at start: \"…\"": the label is the rule's verb.
        !words(l).first().is_some_and(|w| lex.is_imperative(&w.text))
    }) {
        let lw = words(&label);
        if lw.first().is_some_and(|w| is_condition_word(&w.text)) {
            let order = if lw[0].text == "before" {
                Order::Before
            } else {
                Order::After
            };
            conditions.push((label.split_once(' ').map_or("", |x| x.1).to_string(), order));
        } else {
            label_text = label;
        }
        rest = after;
    }
    // A leading condition clause: "If X, Y" / "Before X, Y" / "When X: Y".
    let rw = words(&mask(&rest).0);
    if rw.first().is_some_and(|w| is_condition_word(&w.text)) {
        if let Some((cond, main)) = split_leading_condition(&rest) {
            let order = if rw[0].text == "before" {
                Order::Before
            } else {
                Order::After
            };
            conditions.push((cond, order));
            rest = main;
        } else if ctx.in_list || rest.trim_end().ends_with(':') {
            // A lone condition (a lead-in, or an item that is a condition).
            let order = if rw[0].text == "before" {
                Order::Before
            } else {
                Order::After
            };
            conditions.push((rest.clone(), order));
            rest = String::new();
        }
    }
    // A leading context or purpose phrase: "To test web apps, write …",
    // "Throughout the workflow, operate …", "During review, run …".
    let rw = words(&mask(&rest).0);
    if rw.first().is_some_and(|w| {
        matches!(
            w.text.as_str(),
            "to" | "throughout" | "for" | "in" | "during" | "within" | "on" | "at" | "with"
        )
    }) {
        if let Some((ctx_text, main)) = split_leading_condition(&rest) {
            let mw = words(&mask(&main).0);
            let starts_rule =
                main_verb(&mw).is_some_and(|v| lex.is_imperative(&v)) || own_modal(&mw).is_some();
            if starts_rule && ctx_text.split_whitespace().count() <= 10 {
                if rw[0].text == "during" {
                    conditions.push((ctx_text, Order::After));
                }
                rest = main;
            }
        }
    }
    if let Some(c) = &ctx.para_condition {
        conditions.push(c.clone());
    }
    // Condition the lead-in states, or that the items are.
    let mut item_is_condition = false;
    if let Some(lead) = ctx.lead {
        if let Some((c, o)) = &lead.condition {
            conditions.push((c.clone(), *o));
        }
        if let Some(o) = lead.items_are_conditions {
            conditions.push((rest.clone(), o));
            item_is_condition = true;
        }
    }
    let (masked_main, _, _) = mask(&rest);
    let mw = words(&masked_main);
    let own = own_modal(&mw)
        .or_else(|| own_modal(&words(&mask(&label_text).0)))
        .or_else(|| {
            // "Done when: the PR is merged": a completion criterion.
            label_text
                .to_lowercase()
                .contains("done when")
                .then_some(Modality::Must)
        });
    let verb = main_verb(&mw);
    let imperative =
        verb.as_deref().is_some_and(|v| lex.is_imperative(v)) && !starts_with_third_person(&mw);
    let heading_rule = ctx.section.normative();
    let lead_rule = ctx.lead.filter(|l| l.normative);
    let caps = is_caps_rule(&rest);
    let normative = own.is_some()
        || caps
        || (imperative && (first || ctx.in_list || !conditions.is_empty() || question.is_some()))
        || (ctx.in_list && (lead_rule.is_some() || heading_rule.is_some() || ctx.checkbox))
        || (imperative && !first);
    if !normative {
        return None;
    }
    // A template or quotation alone ("`Task <N>: complete`"): no words of its own.
    if mw.iter().all(|w| w.barrier) && label_text.is_empty() && conditions.is_empty() {
        return None;
    }
    if !ctx.in_list && own.is_none() && !imperative && !caps {
        return None;
    }
    let modality = own
        .or_else(|| {
            if ctx.in_list {
                lead_rule.and_then(|l| l.modality)
            } else {
                None
            }
        })
        .or_else(|| {
            // A lead-in of its own ("Key principles:") speaks for its items
            // before the heading does.
            if ctx.in_list && lead_rule.is_none() {
                heading_rule.flatten()
            } else {
                None
            }
        })
        .unwrap_or(Modality::Must);
    let mut modality = modality;
    let mut negative = matches!(modality, Modality::MustNot | Modality::ShouldNot);
    // "Never skip X", "Don't forget X": a double negative, X is required.
    if negative
        && verb
            .as_deref()
            .is_some_and(|v| matches!(v, "skip" | "omit" | "forget" | "neglect"))
    {
        negative = false;
        modality = if matches!(modality, Modality::ShouldNot) {
            Modality::Should
        } else {
            Modality::Must
        };
    }
    // A rule with no words of its own beyond its modal ("MANDATORY.",
    // "Never skip.") is about what its heading names ("Verify RED - Watch It Fail").
    let contentless = mw.iter().filter(|w| !w.barrier).all(|w| {
        is_filler(&w.text)
            || matches!(
                w.text.as_str(),
                "mandatory" | "required" | "skip" | "period" | "this" | "it" | "step"
            )
    });
    // A negative inherited from a lead-in or heading ("Red Flags": "Test
    // passes immediately") forbids only what the item names as an act.
    let acts = verb.as_deref().is_some_and(|v| {
        lex.is_imperative(v)
            || (v.ends_with("ing")
                && lex
                    .imperatives
                    .iter()
                    .any(|b| super::lexicon::verb_matches(v, b)))
    });
    let forbid_ok = own.is_some() || caps || acts;
    let speech = verb.as_deref().is_some_and(|v| lex.is_speech(v)) && !item_is_condition;
    // Trailing clauses of the main part.
    let mut main = if item_is_condition {
        String::new()
    } else if contentless && conditions.is_empty() && !ctx.in_list {
        ctx.section.nearest().to_string()
    } else {
        rest.clone()
    };
    let mut without = None;
    let mut negative_before = None;
    let mut avoided = None;
    let chooses = verb
        .as_deref()
        .is_some_and(|v| matches!(v, "prefer" | "use" | "choose" | "favor" | "favour"));
    if !main.is_empty() {
        main = if negative {
            first_clause(&main)
        } else {
            positive_clauses(&main)
        };
        // "Prefer X over Y", "Use X instead of Y": Y is what the rule avoids.
        if chooses {
            if let Some((head, tail)) = split_alternative(&main) {
                avoided = Some(tail);
                main = head;
            }
        }
        if let Some((head, kw, tail)) = split_trailing(&main) {
            match kw.as_str() {
                "without" => {
                    if negative {
                        without = Some(tail);
                    }
                    main = head;
                }
                "before" | "until" | "unless" if negative => {
                    negative_before = Some(tail);
                    main = head;
                }
                "before" => {
                    conditions.push((tail, Order::Before));
                    main = head;
                }
                _ => {
                    conditions.push((tail, Order::After));
                    main = head;
                }
            }
        }
    }
    let mut scope_text: Vec<String> = conditions.iter().map(|(c, _)| c.clone()).collect();
    if !speech {
        scope_text.push(main.clone());
        scope_text.extend(without.iter().cloned());
        scope_text.extend(negative_before.iter().cloned());
        scope_text.extend(avoided.iter().cloned());
    }
    Some(Analysis {
        modality,
        negative,
        speech,
        conditions,
        main,
        without,
        negative_before,
        scope_text,
        forbid_ok,
        avoided,
        chooses,
    })
}

fn starts_with_third_person(w: &[Word]) -> bool {
    // "Test passes", "Plan has gaps": a noun then a verb in -s is a statement.
    w.len() >= 2
        && w[1].text.ends_with('s')
        && !w[1].text.ends_with("ss")
        && w[0].text != "use"
        && w[0].text != "run"
        && matches!(
            w[0].text.as_str(),
            "test" | "plan" | "code" | "output" | "build"
        )
}

/// An all-caps rule line ("NO PRODUCTION CODE WITHOUT A FAILING TEST FIRST").
fn is_caps_rule(s: &str) -> bool {
    let ws: Vec<&str> = s
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_alphabetic()))
        .collect();
    ws.len() >= 4 && ws.iter().all(|w| !w.chars().any(|c| c.is_lowercase()))
}

/// `Label: rest` where the label is short (at most five words) and is not a sentence.
fn split_label(s: &str) -> Option<(String, String)> {
    let (m, _, _) = mask(s);
    let idx = m.find(": ")?;
    let label = &m[..idx];
    if label.split_whitespace().count() > 6 || label.contains(['.', '!', '?', '\u{1}']) {
        return None;
    }
    // Map the masked index back: masks shorten the text, so split the original
    // at the first ": " outside code spans instead.
    let orig = find_outside_code(s, ": ")?;
    Some((
        s[..orig].trim().to_string(),
        s[orig + 2..].trim().to_string(),
    ))
}

fn find_outside_code(s: &str, pat: &str) -> Option<usize> {
    let mut in_code = false;
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code && s[i..].starts_with(pat) {
            return Some(i);
        }
    }
    None
}

/// "If X, Y" → (X, Y), splitting at the first comma or colon outside code
/// (or at " then ").
fn split_leading_condition(s: &str) -> Option<(String, String)> {
    let mut in_code = false;
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if c == ',' || c == ':' || c == '—' {
            let after = s[i + c.len_utf8()..].trim();
            if !after.is_empty() {
                let cond = s[..i]
                    .split_once(char::is_whitespace)
                    .map_or("", |(_, r)| r);
                return Some((cond.trim().to_string(), after.to_string()));
            }
        }
        if s[i..].starts_with(" then ") {
            let cond = s[..i]
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r);
            return Some((cond.trim().to_string(), s[i + 6..].trim().to_string()));
        }
    }
    None
}

/// The first clause of a main part: up to an em dash, a semicolon or " - ".
fn first_clause(s: &str) -> String {
    let mut in_code = false;
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code
            && (c == '—' || c == ';' || s[i..].starts_with(" - ") || s[i..].starts_with(" – "))
        {
            let head = s[..i].trim();
            if !head.is_empty() {
                return head.to_string();
            }
        }
    }
    s.trim().to_string()
}

/// The clauses of a positive main part that still instruct: the first, and
/// each later one (after an em dash or semicolon) without a negation or an
/// alternative ("Write design doc — save it and commit" keeps "commit";
/// "Use X — not Y" drops "not Y").
fn positive_clauses(s: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = s.trim().to_string();
    loop {
        let head = first_clause(&rest);
        if head.len() >= rest.len() {
            parts.push(rest.clone());
            break;
        }
        parts.push(head.clone());
        rest = rest[head.len()..]
            .trim_start_matches(['—', ';', '-', '–', ' '])
            .to_string();
        if rest.is_empty() {
            break;
        }
    }
    let mut out = vec![parts[0].clone()];
    for p in parts.iter().skip(1) {
        let w = words(&mask(p).0);
        let negated = w.iter().any(|x| {
            matches!(
                x.text.as_str(),
                "not"
                    | "never"
                    | "don't"
                    | "no"
                    | "instead"
                    | "rather"
                    | "avoid"
                    | "without"
                    | "unless"
            )
        });
        if !negated {
            out.push(p.clone());
        }
    }
    out.join(" ; ")
}

/// Words of consent or approval by a person.
fn mentions_consent(text: &str) -> bool {
    words(&mask(text).0).iter().any(|w| {
        w.text.starts_with("approv")
            || w.text.starts_with("consent")
            || w.text.starts_with("permission")
            || w.text.starts_with("agree")
            || matches!(
                w.text.as_str(),
                "user" | "partner" | "human" | "confirms" | "confirmed" | "says"
            )
    })
}

/// "X over Y" / "X instead of Y" / "X rather than Y" → (X, Y), outside code.
fn split_alternative(s: &str) -> Option<(String, String)> {
    let mut in_code = false;
    let lower = s.to_lowercase();
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if in_code || c != ' ' {
            continue;
        }
        for kw in [" over ", " instead of ", " rather than "] {
            if lower[i..].starts_with(kw) {
                let head = s[..i].trim();
                let tail = s[i + kw.len()..].trim();
                if !head.is_empty() && !tail.is_empty() {
                    return Some((head.to_string(), tail.to_string()));
                }
            }
        }
    }
    None
}

/// Split a main clause at its first trailing condition keyword outside code
/// and quotes: (head, keyword, tail).
fn split_trailing(s: &str) -> Option<(String, String, String)> {
    let mut in_code = false;
    let mut in_quote = false;
    let lower = s.to_lowercase();
    for (i, c) in s.char_indices() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if c == '"' {
            in_quote = !in_quote;
            continue;
        }
        if in_code || in_quote || c != ' ' {
            continue;
        }
        for kw in [
            "without", "before", "until", "unless", "after", "when", "whenever", "once", "if",
            "while", "during",
        ] {
            let l = &lower[i + 1..];
            if l.starts_with(kw) && l[kw.len()..].starts_with([' ', ',']) {
                let head = s[..i].trim();
                let tail = s[i + 1 + kw.len()..].trim();
                if !head.is_empty() && !tail.is_empty() {
                    return Some((head.to_string(), kw.to_string(), tail.to_string()));
                }
            }
        }
    }
    None
}

impl Analysis {
    /// The rule holds only under a condition about the user or the
    /// conversation ("When the user asks for a release, …"), which no action
    /// shows: a `require` would wrongly bind every session.
    fn user_condition(&self, lex: &Lexicon) -> bool {
        self.conditions.iter().any(|(c, _)| {
            let w = words(&mask(c).0);
            clause_info(c, lex).actions.is_empty()
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
    fn unseen_condition(&self, lex: &Lexicon) -> bool {
        self.conditions.iter().any(|(c, _)| {
            let info = clause_info(c, lex);
            info.actions.is_empty() && info.modifiers.is_empty() && !c.trim().is_empty()
        })
    }

    fn into_draft(self, ctx: &Ctx, lex: &Lexicon) -> Draft {
        let mut d = Draft {
            text: String::new(),
            lines: [0, 0],
            modality: self.modality,
            scope: BTreeSet::new(),
            when: None,
            require: None,
            forbid: None,
            order: None,
        };
        for t in &self.scope_text {
            d.scope.extend(clause_info(t, lex).scope);
        }
        let mut cond_actions = Vec::new();
        let mut cond_mods = Vec::new();
        let mut cond_order = None;
        for (c, o) in &self.conditions {
            let info = clause_info(c, lex);
            if !info.actions.is_empty() && cond_order.is_none() {
                cond_order = Some(*o);
            }
            cond_actions.extend(info.actions);
            cond_mods.extend(info.modifiers);
        }
        let main = clause_info(&self.main, lex);
        let mut mods = main.modifiers.clone();
        mods.extend(cond_mods);
        dedup(&mut mods);
        let when_actions = any_of(cond_actions.iter().map(|(p, _)| p.clone()).collect());
        if self.speech {
            d.when = when_actions;
        } else if self.negative {
            let main_pred = main
                .behavior_with(&mods, false)
                .or_else(|| {
                    if mods.is_empty() {
                        any_of(main.programs.clone())
                    } else {
                        None
                    }
                })
                .filter(|_| self.forbid_ok || self.without.is_some());
            if let Some(y) = &self.without {
                let req = clause_info(y, lex).behavior(true);
                match (main_pred, req) {
                    (Some(x), Some(y)) => {
                        d.when = Some(x);
                        d.require = Some(y);
                        d.order = Some(Order::Before);
                    }
                    (Some(x), None) => {
                        d.forbid = Some(x);
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
                let req = clause_info(y, lex).behavior(true);
                match (main_pred, req) {
                    (Some(x), Some(y)) => {
                        d.when = Some(x);
                        d.require = Some(y);
                        d.order = Some(Order::Before);
                    }
                    // "until the user has approved it": consent lives in the
                    // conversation; the act is visible (a consented session
                    // needs a waiver).
                    (Some(x), None) if mentions_consent(y) => d.forbid = Some(x),
                    (Some(x), None) => d.when = Some(x),
                    _ => d.when = when_actions,
                }
            } else if when_actions.is_some() {
                // "If X, never Y": `forbid` ignores `when`, so the rule is
                // judged only where X happened, by people.
                d.when = when_actions;
            } else if let Some(x) = main_pred.filter(|_| !self.unseen_condition(lex)) {
                d.forbid = Some(x);
            } else if !mods.is_empty() && main.actions.is_empty() && main.mentions_work {
                d.forbid = Some(Predicate::All(vec![
                    Predicate::Touch("**".into()),
                    any_of(mods).expect("non-empty"),
                ]));
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
        } else {
            d.when = when_actions;
            // "Use X for Y" chooses a means: it requires nothing on its own.
            // Using a skill is loading it: that is an act.
            let req = if self.chooses && d.when.is_none() {
                main.skills_only().behavior_with(&mods, true)
            } else {
                main.behavior_with(&mods, true)
            };
            if d.when.is_some() {
                d.require = req;
                if d.require.is_some() && cond_order == Some(Order::Before) {
                    d.order = Some(Order::Before);
                }
            } else if !ctx.section.conditional() && !self.user_condition(lex) {
                d.require = req;
            }
        }
        if d.require.is_some() && d.require == d.when {
            d.require = None;
            d.order = None;
        }
        add_predicate_scopes(&mut d, lex);
        // A rule that acts, under a heading about a scoped act ("Create the
        // Worktree"), is about that act when its own words name none.
        if d.scope.is_empty() && !self.speech {
            d.scope = clause_info(ctx.section.nearest(), lex).scope;
        }
        d
    }
}

/// Scope tags of the predicates themselves (commands, git subcommands, paths).
fn add_predicate_scopes(d: &mut Draft, lex: &Lexicon) {
    for p in [&d.when, &d.require, &d.forbid].into_iter().flatten() {
        d.scope.extend(predicate_scopes(p, lex));
    }
}

fn predicate_scopes(p: &Predicate, lex: &Lexicon) -> BTreeSet<ScopeTag> {
    let mut out = BTreeSet::new();
    let mut cmds = Vec::new();
    let mut paths = Vec::new();
    samples(p, &mut cmds, &mut paths);
    for s in &lex.scopes {
        if cmds.iter().any(|c| s.commands.is_match(c)) || paths.iter().any(|x| s.paths.is_match(x))
        {
            out.insert(s.tag);
        }
    }
    out
}

/// Representative strings of what a predicate matches, to test against scope globs.
fn samples(p: &Predicate, cmds: &mut Vec<String>, paths: &mut Vec<String>) {
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

/// What one clause mentions: actions (with whether each may be required),
/// modifiers, scope tags.
#[derive(Debug, Default)]
struct ClauseInfo {
    actions: Vec<(Predicate, bool)>,
    modifiers: Vec<Predicate>,
    scope: BTreeSet<ScopeTag>,
    /// It speaks of doing work at all (for "never work on main").
    mentions_work: bool,
    /// Programs named as plain words ("Poetry"): running them, for forbids.
    programs: Vec<Predicate>,
    /// Paths named without a verb (`requirements.txt`): touching them, for forbids.
    bare_paths: Vec<Predicate>,
}

impl ClauseInfo {
    fn behavior(&self, for_require: bool) -> Option<Predicate> {
        self.behavior_with(&self.modifiers, for_require)
    }

    /// The same clause with only its skill loads as actions.
    fn skills_only(&self) -> ClauseInfo {
        ClauseInfo {
            actions: self
                .actions
                .iter()
                .filter(|(p, _)| matches!(p, Predicate::Skill(_)))
                .cloned()
                .collect(),
            ..ClauseInfo::default()
        }
    }

    /// What a rule that avoids this clause forbids: its actions, else the
    /// programs and paths it names.
    fn avoided(&self) -> Option<Predicate> {
        self.behavior(false).or_else(|| {
            let mut v = self.programs.clone();
            v.extend(self.bare_paths.iter().cloned());
            any_of(v)
        })
    }

    fn behavior_with(&self, mods: &[Predicate], for_require: bool) -> Option<Predicate> {
        let acts: Vec<Predicate> = self
            .actions
            .iter()
            .filter(|(_, req)| *req || !for_require)
            .map(|(p, _)| p.clone())
            .collect();
        let base = any_of(acts)?;
        let mods = mods.to_vec();
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

fn dedup(v: &mut Vec<Predicate>) {
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

fn any_of(v: Vec<Predicate>) -> Option<Predicate> {
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

/// At most this many bytes of one rule are analysed: real rules are far
/// shorter, and the bound keeps hostile input (a megabyte-long sentence)
/// linear.
const MAX_ANALYSED: usize = 4000;

/// `s` cut to at most `MAX_ANALYSED` bytes, on a character boundary.
fn bounded(s: &str) -> &str {
    if s.len() <= MAX_ANALYSED {
        return s;
    }
    let mut end = MAX_ANALYSED;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn clause_info(text: &str, lex: &Lexicon) -> ClauseInfo {
    let text = bounded(text);
    let mut info = ClauseInfo::default();
    if text.trim().is_empty() {
        return info;
    }
    let (masked, code, links) = mask(text);
    let w = words(&masked);
    // Phrases: every match, then drop matches inside a longer match.
    let mut hits: Vec<(usize, usize, usize)> = Vec::new();
    for (pi, ph) in lex.phrases.iter().enumerate() {
        for pat in &ph.patterns {
            for (a, b) in pat.find_all(&w) {
                hits.push((a, b, pi));
            }
        }
    }
    let kept: Vec<&(usize, usize, usize)> = hits
        .iter()
        .filter(|(a, b, pi)| {
            !hits
                .iter()
                .any(|(c, d, pj)| pj != pi && c <= a && b <= d && (d - c) > (b - a))
        })
        .collect();
    let mut seen_phrase = BTreeSet::new();
    for (_, _, pi) in kept {
        if !seen_phrase.insert(*pi) {
            continue;
        }
        let ph = &lex.phrases[*pi];
        if let Some(a) = &ph.action {
            info.actions.push((a.clone(), ph.requirable));
        }
        if let Some(m) = &ph.modifier {
            info.modifiers.push(m.clone());
        }
        info.scope.extend(ph.scope.iter().copied());
    }
    // Scope words, unless a stop phrase holds them.
    let stops: Vec<(usize, usize)> = hits
        .iter()
        .filter(|(_, _, pi)| lex.phrases[*pi].is_stop())
        .map(|(a, b, _)| (*a, *b))
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
    // Code spans: commands, tool names, paths.
    let verb_action = nearest_path_verb(&w, lex);
    for c in &code {
        let c = c.trim().trim_start_matches("$ ").trim();
        if c.is_empty() {
            continue;
        }
        let simple = simple_commands(c);
        let preds: Vec<Predicate> = simple
            .iter()
            .filter_map(|sc| command_predicate(sc, lex))
            .collect();
        if !preds.is_empty() {
            for p in preds {
                let mut cmds = Vec::new();
                let mut paths = Vec::new();
                samples(&p, &mut cmds, &mut paths);
                for s in &lex.scopes {
                    if cmds.iter().any(|x| s.commands.is_match(x)) {
                        info.scope.insert(s.tag);
                    }
                }
                info.actions.push((p, true));
            }
        } else if is_tool_name(c) {
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
            path_mention(&g, verb_action, lex, &mut info);
        }
    }
    for l in &links {
        if let Some(g) = path_glob(l) {
            path_mention(&g, verb_action, lex, &mut info);
        }
    }
    // Bare file names in the words' source text ("Add to .gitignore").
    for tok in masked.split_whitespace() {
        let tok = tok.trim_matches(|c: char| {
            matches!(
                c,
                ',' | ';' | ':' | '(' | ')' | '"' | '\'' | '!' | '?' | '\u{1}'
            )
        });
        let tok = tok.strip_suffix('.').unwrap_or(tok);
        if looks_like_file(tok) {
            if let Some(g) = path_glob(tok) {
                path_mention(&g, verb_action, lex, &mut info);
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
    // Skills named as `namespace:skill-name` beside use / invoke / load.
    let uses_skill = w.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "use" | "invoke" | "load" | "using" | "required"
        )
    });
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
                    info.actions
                        .push((Predicate::Skill(name.to_string()), true));
                }
            }
        }
    }
    // Skills named as `kebab-name` beside "skill": "invoke writing-plans
    // skill", "Do NOT invoke frontend-design, mcp-builder, or any other skill".
    let names_skill = w.iter().any(|x| x.text == "skill" || x.text == "skills");
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

fn is_path_action(p: &Predicate) -> bool {
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
fn is_wildcard(p: &Predicate) -> bool {
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

fn path_mention(glob: &str, verb: Option<PathAction>, lex: &Lexicon, info: &mut ClauseInfo) {
    let sample = glob.replace("**", "x").replace('*', "x");
    for s in &lex.scopes {
        if s.paths.is_match(&sample) {
            info.scope.insert(s.tag);
        }
    }
    match verb {
        Some(a) => info.actions.push((a.predicate(glob.to_string()), true)),
        None => info.bare_paths.push(Predicate::Touch(glob.to_string())),
    }
}

/// The action of the first path verb in a clause (`edit` → touch).
fn nearest_path_verb(w: &[Word], lex: &Lexicon) -> Option<PathAction> {
    w.iter()
        .filter(|x| !x.barrier)
        .find_map(|x| lex.path_action(&x.text))
}

/// The simple commands of a shell line: split at `&&`, `||`, `;` and `|`
/// (predicates match one simple command at a time).
fn simple_commands(c: &str) -> Vec<String> {
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
fn command_predicate(c: &str, lex: &Lexicon) -> Option<Predicate> {
    let toks: Vec<&str> = c.split_whitespace().collect();
    let first = toks.first()?.to_lowercase();
    if !lex.is_command_word(&first) || c.contains('\n') {
        return None;
    }
    // `--help`-like lone flags, `git` alone, or a bare tool word: not commands.
    if toks.len() == 1 && first != "pytest" && first != "make" {
        return None;
    }
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
        let rest = &toks[i + 1..];
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
    let mut glob = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 {
            glob.push(' ');
        }
        if is_placeholder(t) {
            glob.push('*');
        } else {
            glob.push_str(&globset::escape(t));
        }
    }
    while glob.ends_with(" *") {
        glob.truncate(glob.len() - 2);
    }
    if !glob.ends_with('*') {
        glob.push('*');
    }
    Some(Predicate::Command(glob))
}

fn is_placeholder(t: &str) -> bool {
    (t.starts_with('<') && t.ends_with('>'))
        || t.starts_with('$')
        || t == "..."
        || t == "…"
        || (t.starts_with('{') && t.ends_with('}'))
        || t.chars().all(|c| c.is_ascii_uppercase() || c == '_') && t.len() > 2
}

/// `raw.githubusercontent.com`, `api.example.org/v1`: a host to fetch from.
fn domain(c: &str) -> Option<String> {
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

/// `<topic>`, `YYYY`, `MM`, `DD` inside a path segment → `*`.
fn placeholders_to_stars(seg: &str) -> String {
    static PLACEHOLDER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = PLACEHOLDER.get_or_init(|| {
        regex::Regex::new(r"<[^<>]*>|\b(YYYY|YY|MM|DD|HH|NNN|NN|N|X+)\b").expect("a valid pattern")
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
fn is_tool_name(c: &str) -> bool {
    let humps = c.chars().filter(|ch| ch.is_ascii_uppercase()).count();
    c.len() >= 4
        && humps >= 2
        && c.chars().next().is_some_and(|ch| ch.is_ascii_uppercase())
        && c.chars().all(|ch| ch.is_ascii_alphanumeric())
        && c.chars().any(|ch| ch.is_ascii_lowercase())
}

/// A bare token that names a file: `name.ext` with a known extension, or a dotfile.
fn looks_like_file(tok: &str) -> bool {
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
                | "env"
        )
}

/// A code span or link target that names a path → a glob: `dir/` →
/// `dir/**`, a bare file name → `**/name`, placeholders → `*`.
fn path_glob(c: &str) -> Option<String> {
    let c = c.trim();
    if c.is_empty()
        || c.contains(char::is_whitespace)
        || c.contains("://")
        || c.starts_with('-')
        || c.starts_with('[')
        || c.contains(['(', ')', '=', '"', '\'', ',', '|'])
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
                .all(|ch| ch.is_alphanumeric() || matches!(ch, '_' | '-' | '.')));
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
    if g.ends_with('/') {
        g.push_str("**");
    } else if !g.contains('/') && !g.starts_with('~') {
        g = format!("**/{g}");
    }
    globset::Glob::new(&g).ok()?;
    Some(g)
}

/// Ids: kebab-case from the rule's own words (so inserting an unrelated line
/// above a rule leaves its id alone), deduplicated with `-2`, `-3`… in
/// document order.
fn assign_ids(drafts: Vec<Draft>) -> Vec<Constraint> {
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::with_capacity(drafts.len());
    for d in drafts {
        let base = id_base(&d.text);
        let n = used.entry(base.clone()).or_insert(0);
        *n += 1;
        let id = if *n == 1 { base } else { format!("{base}-{n}") };
        out.push(Constraint {
            id,
            text: d.text,
            lines: d.lines,
            modality: d.modality,
            scope: d.scope.into_iter().collect(),
            when: d.when,
            require: d.require,
            forbid: d.forbid,
            order: d.order,
            manual: None,
        });
    }
    // A base that happens to equal another's suffixed form ("x-2"): make unique.
    let mut seen = BTreeSet::new();
    for c in &mut out {
        let mut id = c.id.clone();
        let mut k = 2;
        while !seen.insert(id.clone()) {
            id = format!("{}-{k}", c.id);
            k += 1;
        }
        c.id = id;
    }
    out
}

const STOPWORDS: &[&str] = &[
    "a", "an", "the", "to", "of", "in", "on", "at", "for", "and", "or", "but", "is", "are", "be",
    "been", "it", "its", "this", "that", "these", "those", "with", "as", "by", "from", "into",
    "your", "you", "we", "our", "their", "them", "they", "i", "me", "my", "so", "than", "then",
    "there", "here", "what", "which", "who", "will", "would", "can", "could", "may", "might",
    "just", "very", "also", "some", "such", "own", "about", "up", "out", "s", "t",
];

fn id_base(text: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut len = 0;
    for w in words(text) {
        let t: String = w
            .text
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        if t.is_empty() || STOPWORDS.contains(&w.text.as_str()) {
            continue;
        }
        if parts.len() >= 6 || len + t.len() > 48 {
            break;
        }
        len += t.len() + 1;
        parts.push(t);
    }
    if parts.is_empty() {
        "rule".to_string()
    } else {
        parts.join("-")
    }
}

/// Table column roles from the header.
#[derive(Debug, Clone)]
struct TableRoles {
    condition: Option<usize>,
    action: Option<usize>,
    avoid: Option<usize>,
    modality: Modality,
}

impl TableRoles {
    /// Roles of a decision table, or `None` for a table that only explains
    /// (Excuse | Reality, Tool | Purpose, Command | Description).
    fn of(header: &[String]) -> Option<TableRoles> {
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
                modality: Modality::ShouldNot,
            });
        }
        let action = norm.iter().position(|h| is(h, ACTION))?;
        let condition = norm
            .iter()
            .position(|h| is(h, COND))
            .filter(|c| *c != action)
            .or((action > 0).then_some(0));
        let should = norm
            .iter()
            .any(|h| is(h, &["solution", "good", "quality", "right form"]));
        Some(TableRoles {
            condition,
            action: Some(action),
            avoid: None,
            modality: if should {
                Modality::Should
            } else {
                Modality::Must
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn ex(body: &str) -> Vec<Constraint> {
        let src = format!("---\nname: demo\ndescription: d\n---\n{body}");
        match Skill::parse_bytes(Path::new("demo/SKILL.md"), src.as_bytes()) {
            Ok(skill) => extract(&skill, &Lexicon::builtin()),
            Err(_) => Vec::new(),
        }
    }

    fn one(body: &str) -> Constraint {
        let c = ex(body);
        assert_eq!(c.len(), 1, "{c:#?}");
        c.into_iter().next().unwrap()
    }

    fn p(s: &str) -> Predicate {
        yaml_serde::from_str(s).unwrap()
    }

    #[test]
    fn never_force_push_forbids_it_in_shared_repo_state() {
        let c = one("Never run `git push --force`.\n");
        assert_eq!(c.modality, Modality::MustNot);
        assert_eq!(c.forbid, Some(p("{git: push, args: [\"--force\"]}")));
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
        assert_eq!(c.lines, [5, 5]);
        assert_eq!(c.id, "never-run-git-push-force");
    }

    #[test]
    fn do_not_edit_skills_forbids_touching_them_as_self_modification() {
        let c = one("Do not edit anything under `.claude/skills/`.\n");
        assert_eq!(c.modality, Modality::MustNot);
        assert_eq!(c.forbid, Some(p("{touch: \".claude/skills/**\"}")));
        assert_eq!(c.scope, vec![ScopeTag::SelfModification]);
    }

    #[test]
    fn plain_phrases_become_predicates() {
        let c = one("Never force-push to a shared branch.\n");
        assert_eq!(c.forbid, Some(p("{git: push, args: [\"--force\"]}")));
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
        let c = one("Do not make network calls.\n");
        assert_eq!(c.forbid, Some(p("{fetch: \"**\"}")));
        assert!(c.scope.is_empty());
        let c = one("Never commit on the main branch.\n");
        assert_eq!(
            c.forbid,
            Some(p(
                "{all: [{git: commit}, {any: [{branch: main}, {branch: master}]}]}"
            ))
        );
    }

    #[test]
    fn before_merging_sets_only_when_for_a_speech_rule() {
        let c = one("Before merging, present exactly these 4 options to the user.\n");
        assert_eq!(c.modality, Modality::Must);
        assert!(c.when.is_some());
        assert!(c.require.is_none() && c.forbid.is_none());
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
    }

    #[test]
    fn run_the_tests_before_committing_requires_tests_before_the_commit() {
        let c = one("Run the tests before committing.\n");
        assert_eq!(c.when, Some(p("{git: commit}")));
        assert!(matches!(c.require, Some(Predicate::CommandRe(_))));
        assert_eq!(c.order, Some(Order::Before));
    }

    #[test]
    fn never_x_without_y_is_a_require_before_x() {
        let c = one("Never fix bugs without a test.\n");
        assert_eq!(c.modality, Modality::MustNot);
        assert!(c.when.is_some() && c.require.is_some());
        assert_eq!(c.order, Some(Order::Before));
    }

    #[test]
    fn code_blocks_and_examples_are_not_rules_but_iron_laws_are() {
        let c = ex("```bash\ngit push --force\n```\n\n<Bad>\nNever do this.\n</Bad>\n\n## The Iron Law\n\n```\nNO PRODUCTION CODE WITHOUT A FAILING TEST FIRST\n```\n");
        assert_eq!(c.len(), 1, "{c:#?}");
        assert_eq!(c[0].text, "NO PRODUCTION CODE WITHOUT A FAILING TEST FIRST");
        assert_eq!(c[0].lines, [16, 16]);
        assert_eq!(c[0].modality, Modality::MustNot);
        assert_eq!(c[0].order, Some(Order::Before));
    }

    #[test]
    fn explanations_are_not_rules() {
        assert!(ex("This skill helps with plans.\n\nThe tool is fast.\n").is_empty());
        assert!(
            ex("| Excuse | Reality |\n|---|---|\n| \"Too simple\" | Simple code breaks. |\n")
                .is_empty()
        );
    }

    #[test]
    fn lists_inherit_their_lead_in() {
        let c =
            ex("**Never:**\n- Push to main\n- Rebase shared branches\n- Skip running the tests\n");
        assert_eq!(c.len(), 3, "{c:#?}");
        assert!(c[..2].iter().all(|c| c.modality == Modality::MustNot));
        assert_eq!(c[0].scope, vec![ScopeTag::SharedRepoState]);
        assert_eq!(
            c[1].forbid,
            Some(Predicate::Git {
                subcommand: "rebase".into(),
                args: vec![]
            })
        );
        // "Never skip X" requires X.
        assert_eq!(c[2].modality, Modality::Must);
        assert!(matches!(c[2].require, Some(Predicate::CommandRe(_))));
        let c = ex("ALWAYS before:\n- Committing, PR creation\n");
        assert_eq!(c.len(), 1, "{c:#?}");
        assert!(c[0].when.is_some() && c[0].behavior().is_none());
    }

    #[test]
    fn decision_table_rows_are_rules() {
        let c = ex("| Avoid | Use Instead |\n|---|---|\n| `uv pip install` | `uv add` |\n");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].modality, Modality::ShouldNot);
        assert_eq!(c[0].forbid, Some(p("{command: \"uv pip install*\"}")));
        assert_eq!(c[0].text, "`uv pip install` | `uv add`");
    }

    #[test]
    fn ids_are_stable_when_a_line_is_inserted_above_and_unique() {
        let a =
            ex("Never run `git push --force`.\n\nAlways run the tests.\n\nAlways run the tests.\n");
        let b = ex("Intro text.\n\nNever run `git push --force`.\n\nSome more.\n\nAlways run the tests.\n\nAlways run the tests.\n");
        let ids = |v: &[Constraint]| v.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&a), ids(&b));
        assert_eq!(
            ids(&a),
            vec![
                "never-run-git-push-force",
                "always-run-tests",
                "always-run-tests-2"
            ]
        );
    }

    #[test]
    fn done_when_criteria_are_rules() {
        let c = ex("## Done when\n\n- The branch is pushed\n\nDone when: the PR is merged.\n");
        assert_eq!(c.len(), 2, "{c:#?}");
        assert_eq!(c[0].require, Some(p("{git: push}")));
        assert_eq!(c[1].modality, Modality::Must);
        assert!(c[1].require.is_some());
        assert!(c.iter().all(|c| c.scope == vec![ScopeTag::SharedRepoState]));
    }

    #[test]
    fn a_condition_about_the_user_blocks_a_require() {
        let c = one("When the user asks for a release, create a tag.\n");
        assert!(c.require.is_none() && c.when.is_none(), "{c:#?}");
        assert_eq!(c.scope, vec![ScopeTag::SharedRepoState]);
        let c = one("After pushing, open a pull request.\n");
        assert_eq!(c.when, Some(p("{git: push}")));
        assert_eq!(c.require, Some(p("{command: \"gh pr create*\"}")));
    }

    #[test]
    fn a_bare_modal_rule_is_about_its_heading() {
        let c = one("### Verify RED - Watch It Fail\n\n**MANDATORY. Never skip.**\n");
        assert_eq!(c.modality, Modality::Must);
        assert!(
            matches!(&c.require, Some(Predicate::All(v)) if v.contains(&Predicate::Failed(true))),
            "{c:#?}"
        );
    }

    #[test]
    fn prefer_x_over_y_forbids_y() {
        let c = one("Prefer `gh pr view` over unauthenticated `curl` or `wget`.\n");
        assert_eq!(c.modality, Modality::ShouldNot);
        assert!(
            matches!(&c.forbid, Some(Predicate::Any(v)) if v.len() == 2),
            "{c:#?}"
        );
    }

    #[test]
    fn stop_phrases_hide_false_actions() {
        let c = one("Push back with technical reasoning if the reviewer is wrong.\n");
        assert!(c.require.is_none() && c.scope.is_empty(), "{c:#?}");
        let c = one("Never rewrite the commit list by hand.\n");
        assert!(c.scope.is_empty(), "{c:#?}");
        let c = one("Install the hooks with `prek`, never with pre-commit.\n");
        assert!(c.scope.is_empty(), "{c:#?}");
    }

    #[test]
    fn hostile_input_gives_no_panic() {
        let _ = ex("```\nunclosed\n");
        let _ = ex(&"x".repeat(100_000));
        let _ = ex("| a |\n|\n| `b` |\n- [ ]\n1.\n* \n> \n<x>\n</x>\n`\n\"\n[a](\n");
        let _ = ex("If , : then\n\nNever \u{1} `` without\n");
    }
}
