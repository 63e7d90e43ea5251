//! review: the author's loop from a first extraction to a reviewed lockfile
//! (`skillgate review`, docs/review.md).
//!
//! Pure data in, data out: which rules of a lockfile are still undecided and
//! in what order ([`queue`]), what a person's decision does to the lockfile
//! ([`apply`]), how typed predicates are checked against the grammar
//! ([`parse_predicate`]), and how a waiver is added to the configuration's
//! text without losing hand edits ([`add_waiver`]). It never prints, never
//! reads the terminal, the clock or the environment: `cli/review.rs` does.
//!
//! A rule is *decided* when its id is in the lockfile's `reviewed` list
//! (accepted or edited by a person), when it is `manual` (a person wrote the
//! reason), or when the configuration waives it. A rule a person said is not
//! a rule leaves the lockfile for its `not_rules` list, so re-extraction does
//! not bring it back.

use crate::extract::lockfile::normalize_text;
use crate::extract::{Constraint, Lockfile, Order, Predicate};
use crate::label::Label;
use crate::score::{ConstraintVerdict, Outcome, SkillVerdict};
use serde::Serialize;
use std::path::Path;

/// Why an undecided rule is shown, most urgent first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Urgency {
    /// It blocks a release now or as soon as its scope is acted on: a
    /// scope-tagged rule that failed closed, or one the gate cannot decide.
    Blocks,
    /// Violated or ambiguous in a captured session, without blocking.
    Broken,
    /// New, drifted or never decided.
    Open,
}

impl Urgency {
    pub fn as_str(self) -> &'static str {
        match self {
            Urgency::Blocks => "blocks",
            Urgency::Broken => "broken",
            Urgency::Open => "open",
        }
    }
}

/// One undecided rule with what the gate saw of it.
#[derive(Debug, Clone)]
pub struct Item<'a> {
    pub constraint: &'a Constraint,
    /// The gate's verdict on it (absent for a rule the last gate run did
    /// not judge, such as one a refresh just added).
    pub verdict: Option<&'a ConstraintVerdict>,
    pub urgency: Urgency,
}

/// Would this rule block a release: scope-tagged, not waived, and either
/// failing closed in the captured sessions or undecidable from actions and
/// not yet `manual` (it fails closed in the first session that acts within
/// its scope, SPEC §6).
pub fn would_block(c: &Constraint, v: Option<&ConstraintVerdict>) -> bool {
    if !c.is_scoped() || v.is_some_and(|v| v.waived) {
        return false;
    }
    if v.is_some_and(|v| v.outcome == Outcome::FailClosed) {
        return true;
    }
    !c.is_manual() && c.behavior().is_none()
}

/// A person decided this rule (accepted, edited, manual or waived).
pub fn is_decided(lf: &Lockfile, c: &Constraint, v: Option<&ConstraintVerdict>) -> bool {
    c.is_manual() || v.is_some_and(|v| v.waived) || lf.reviewed.iter().any(|id| id == &c.id)
}

/// The undecided rules of `lf`, blocking ones first, then those a session
/// broke, then the rest; by line within each group.
pub fn queue<'a>(lf: &'a Lockfile, verdict: Option<&'a SkillVerdict>) -> Vec<Item<'a>> {
    let mut items: Vec<Item<'a>> = lf
        .constraints
        .iter()
        .map(|c| {
            let v = verdict.and_then(|sv| sv.constraints.iter().find(|x| x.id == c.id));
            (c, v)
        })
        .filter(|(c, v)| !is_decided(lf, c, *v))
        .map(|(c, v)| {
            let urgency = if would_block(c, v) {
                Urgency::Blocks
            } else if v.is_some_and(|v| matches!(v.label, Label::Violated | Label::Ambiguous)) {
                Urgency::Broken
            } else {
                Urgency::Open
            };
            Item {
                constraint: c,
                verdict: v,
                urgency,
            }
        })
        .collect();
    items.sort_by(|a, b| {
        a.urgency
            .cmp(&b.urgency)
            .then_with(|| a.constraint.lines.cmp(&b.constraint.lines))
            .then_with(|| a.constraint.id.cmp(&b.constraint.id))
    });
    items
}

/// Which behavior predicate an edit sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behavior {
    Require,
    Forbid,
}

/// A person's new predicates for a rule (replacing `when`, `require` /
/// `forbid` and `order`; `manual` is cleared).
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub when: Option<Predicate>,
    pub behavior: Option<(Behavior, Predicate)>,
    pub order: Option<Order>,
}

/// What a person decided about one rule. Waivers live in the configuration
/// ([`add_waiver`]), not in the lockfile.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// The rule is right as extracted.
    Accept,
    /// New predicates.
    Edit(Edit),
    /// The gate cannot decide it from actions; people check the sessions it lists.
    Manual(String),
    /// Not a rule: removed, and remembered so extraction does not bring it back.
    NotRule,
}

/// A decision that would leave a lockfile the gate rejects.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// Apply one decision to the rule `id`. The result always reads back as a
/// valid lockfile; otherwise nothing changes and the reason is returned.
pub fn apply(lf: &mut Lockfile, id: &str, decision: Decision) -> Result<(), Refused> {
    let Some(pos) = lf.constraints.iter().position(|c| c.id == id) else {
        return Err(Refused(format!("no rule `{id}` in the lockfile")));
    };
    let mut next = lf.clone();
    match decision {
        Decision::Accept => mark_reviewed(&mut next, id),
        Decision::Edit(edit) => {
            let c = &mut next.constraints[pos];
            c.when = edit.when;
            c.require = None;
            c.forbid = None;
            match edit.behavior {
                Some((Behavior::Require, p)) => c.require = Some(p),
                Some((Behavior::Forbid, p)) => c.forbid = Some(p),
                None => {}
            }
            c.order = if c.require.is_some() {
                edit.order
            } else {
                None
            };
            c.manual = None;
            mark_reviewed(&mut next, id);
        }
        Decision::Manual(reason) => {
            let reason = reason.trim().to_string();
            if reason.is_empty() || reason.eq_ignore_ascii_case("todo") {
                return Err(Refused(
                    "a manual rule needs a reason a reviewer can act on (not empty, not TODO)"
                        .into(),
                ));
            }
            let c = &mut next.constraints[pos];
            c.require = None;
            c.forbid = None;
            c.order = None;
            c.manual = Some(reason);
            mark_reviewed(&mut next, id);
        }
        Decision::NotRule => {
            let c = next.constraints.remove(pos);
            next.reviewed.retain(|r| r != id);
            let text = normalize_text(&c.text);
            if !next.not_rules.iter().any(|t| normalize_text(t) == text) {
                next.not_rules.push(text);
            }
        }
    }
    if let Err(e) = Lockfile::parse(Path::new(crate::extract::LOCKFILE_NAME), &next.to_yaml()) {
        let msg = e
            .problems
            .iter()
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
            .join("; ");
        return Err(Refused(msg));
    }
    *lf = next;
    Ok(())
}

fn mark_reviewed(lf: &mut Lockfile, id: &str) {
    if !lf.reviewed.iter().any(|r| r == id) {
        lf.reviewed.push(id.to_string());
    }
}

/// A typed predicate that is not in the grammar, with the 1-based column of
/// the problem in what was typed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct InputError {
    pub column: usize,
    pub message: String,
}

/// Parse one predicate typed in YAML flow style (`{git: push, args:
/// ["--force"]}`); empty or `none` is no predicate. Checked like the
/// lockfile checks it: shape, globs, regexes.
pub fn parse_predicate(input: &str) -> Result<Option<Predicate>, InputError> {
    let t = input.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("none") || t == "~" {
        return Ok(None);
    }
    let lead = input.len() - input.trim_start().len();
    let p: Predicate = yaml_serde::from_str(t).map_err(|e| {
        let column = e.location().map_or(1, |l| l.column()) + lead;
        let msg = e.to_string();
        let msg = match msg.find(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        InputError {
            column: column.max(1),
            message: msg,
        }
    })?;
    p.validate().map_err(|message| InputError {
        column: lead + 1,
        message,
    })?;
    Ok(Some(p))
}

/// Parse an `order` word; empty is the default (`after`).
pub fn parse_order(input: &str) -> Result<Option<Order>, InputError> {
    let t = input.trim();
    if t.is_empty() {
        return Ok(None);
    }
    yaml_serde::from_str::<Order>(t)
        .map(Some)
        .map_err(|_| InputError {
            column: input.len() - input.trim_start().len() + 1,
            message: format!("`{t}` is not an order; use {}", ORDER_WORDS.join(", ")),
        })
}

/// The `order` words this build's grammar reads (SPEC §4.2).
pub const ORDER_WORDS: &[&str] = &["before", "before-each", "after", "anywhere"];

/// Ready-made predicates for a rule, from what it already guards: the
/// action itself forbidden, a consent gate (SPEC §4.2), a path guard.
/// Forms this build's grammar cannot express are left out.
pub fn ready_forms(c: &Constraint) -> Vec<(&'static str, Edit)> {
    let mut out = Vec::new();
    let guarded = c.when.clone().or_else(|| c.forbid.clone());
    if let Some(g) = guarded.clone() {
        out.push((
            "forbid the guarded action",
            Edit {
                when: None,
                behavior: Some((Behavior::Forbid, g)),
                order: None,
            },
        ));
    }
    let consent = parse_predicate("{user_turn: true}").ok().flatten();
    let each = parse_order("before-each").ok().flatten();
    if let (Some(g), Some(consent), Some(each)) = (guarded, consent, each) {
        out.push((
            "consent gate: a user turn before each guarded action",
            Edit {
                when: Some(g),
                behavior: Some((Behavior::Require, consent)),
                order: Some(each),
            },
        ));
    }
    if let Some(glob) = path_of(c) {
        if let Ok(Some(p)) = parse_predicate(&format!("{{touch: {}}}", quote(&glob))) {
            out.push((
                "path guard: never change the path the rule names",
                Edit {
                    when: None,
                    behavior: Some((Behavior::Forbid, p)),
                    order: None,
                },
            ));
        }
    }
    out
}

/// The first path-like code span of the rule's text (`MEMORY.md`,
/// `.claude/skills/`), as a glob matching it anywhere.
fn path_of(c: &Constraint) -> Option<String> {
    let mut parts = c.text.split('`');
    parts.next();
    while let Some(span) = parts.next() {
        parts.next();
        let s = span.trim();
        let pathy = !s.is_empty()
            && !s.contains(char::is_whitespace)
            && (s.contains('/')
                || s.rsplit_once('.').is_some_and(|(a, b)| {
                    !a.is_empty() && b.len() <= 5 && b.chars().all(|ch| ch.is_ascii_alphanumeric())
                }));
        if pathy {
            let s = s.trim_start_matches("./").trim_start_matches("~/");
            return Some(if let Some(dir) = s.strip_suffix('/') {
                format!("**/{dir}/**")
            } else {
                format!("**/{s}")
            });
        }
    }
    None
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The configuration text with a waiver for `skill`/`id` added, keeping
/// every other byte (comments, order, hand edits). `None` is a missing
/// file: a new one holding just the waiver. A TOML file, or waivers written
/// in flow style, are refused with what to add by hand.
pub fn add_waiver(
    existing: Option<&str>,
    is_toml: bool,
    skill: &str,
    id: &str,
    reason: &str,
) -> Result<String, Refused> {
    let reason = reason.trim();
    if reason.is_empty() || reason.eq_ignore_ascii_case("todo") {
        return Err(Refused(
            "a waiver needs a reason (why this rule may be broken)".into(),
        ));
    }
    let item = format!(
        "{{id: {}, skill: {}, reason: {}}}",
        quote(id),
        quote(skill),
        quote(reason)
    );
    if is_toml {
        return Err(Refused(format!(
            "the configuration is TOML: add `[[waivers]]` id = {}, skill = {}, reason = {} by hand",
            quote(id),
            quote(skill),
            quote(reason)
        )));
    }
    let Some(text) = existing else {
        return Ok(format!(
            "# skillgate configuration (docs/config.md)\nwaivers:\n  - {item}\n"
        ));
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let key = lines.iter().position(|l| {
        l.starts_with("waivers:") || l.starts_with("\"waivers\":") || l.starts_with("'waivers':")
    });
    let Some(k) = key else {
        let mut out = text.to_string();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("waivers:\n  - {item}\n"));
        return Ok(out);
    };
    let after = lines[k].split_once(':').map_or("", |(_, v)| v);
    let value = after.split(" #").next().unwrap_or("").trim();
    let mut out = String::new();
    if value == "[]" || value == "~" || value == "null" {
        for (i, l) in lines.iter().enumerate() {
            if i == k {
                out.push_str(&format!("waivers:\n  - {item}\n"));
            } else {
                out.push_str(l);
            }
        }
        return Ok(out);
    }
    if !value.is_empty() {
        return Err(Refused(format!(
            "`waivers` is written in flow style; add {item} to it by hand"
        )));
    }
    // Block style: the list runs while lines are indented, blank or comments.
    let mut last = k;
    let mut indent: Option<String> = None;
    for (i, l) in lines.iter().enumerate().skip(k + 1) {
        let trimmed = l.trim_start();
        if trimmed.trim().is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let ws = &l[..l.len() - trimmed.len()];
        if ws.is_empty() && !trimmed.starts_with('-') {
            break;
        }
        if trimmed.starts_with('-') && indent.is_none() {
            indent = Some(ws.to_string());
        }
        last = i;
    }
    let indent = indent.unwrap_or_else(|| "  ".to_string());
    for (i, l) in lines.iter().enumerate() {
        out.push_str(l);
        if i == last {
            if !l.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&format!("{indent}- {item}\n"));
        }
    }
    Ok(out)
}

/// A predicate in one line of YAML flow style, as the lockfile writes it.
pub fn flow(p: &Predicate) -> String {
    crate::extract::lockfile::predicate_flow(p)
}

/// What a rule checks, in one short line (`when {git: push} · forbid {…}`).
pub fn checks(c: &Constraint) -> String {
    let mut parts = Vec::new();
    if let Some(w) = &c.when {
        parts.push(format!("when {}", flow(w)));
    }
    if let Some(r) = &c.require {
        parts.push(format!("require {}", flow(r)));
    }
    if let Some(f) = &c.forbid {
        parts.push(format!("forbid {}", flow(f)));
    }
    if let Some(o) = c.order {
        let word = yaml_serde::to_string(&o).unwrap_or_default();
        parts.push(format!("order {}", word.trim()));
    }
    if c.manual.is_some() {
        parts.push("manual".into());
    }
    if parts.is_empty() {
        "no predicate (unverifiable)".into()
    } else {
        parts.join(" · ")
    }
}

#[cfg(test)]
mod tests;
