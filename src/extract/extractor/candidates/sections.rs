//! Part of stage 2 (rule candidates): what a heading says about the blocks
//! under it — rules, conditions, examples, scenarios, references, consent —
//! and the step numbers and planning milestones headings carry.

use super::*;

/// The heading context of a block.
#[derive(Debug, Clone, Default)]
pub(crate) struct Section {
    /// Heading texts, outermost first.
    pub(crate) headings: Vec<(usize, String)>,
    /// The document's title: a level-1 heading before any other heading
    /// ("# deploy-troubleshoot") names the skill, not a situation.
    pub(crate) title: Option<String>,
}

impl Section {
    pub(crate) fn nearest(&self) -> &str {
        self.headings.last().map_or("", |(_, t)| t.as_str())
    }
    /// Items under this heading are rules ("Red Flags", "Checklist", "Done when").
    pub(crate) fn normative(&self) -> Option<Option<Modality>> {
        normative_heading(self.nearest())
    }
    /// The condition the nearest heading states ("Before You Start", "When
    /// Tests Fail", "0) If the server is not connected"), for the rules under
    /// it that state none; not a planning milestone ("After the Design").
    pub(crate) fn condition(&self) -> Option<(String, Order)> {
        let h = self.nearest();
        if heading_after_planning(h) || self.when_to() {
            return None;
        }
        self.own_condition(h).or_else(|| {
            // "## Pre-Deployment Checklist" / "### Code Quality": a topic
            // of the checklist above it holds before the same act.
            let n = self.headings.len();
            (n >= 2)
                .then(|| pre_act_heading(&self.headings[n - 2].1))
                .flatten()
                .map(|act| (act, Order::Before))
        })
    }

    fn own_condition(&self, h: &str) -> Option<(String, Order)> {
        let w = words(h);
        let first = w.get(heading_number(&w))?;
        // "Pre-commit checklist", "Pre-push checks": before that act.
        if let Some(act) = pre_act_heading(h) {
            return Some((act, Order::Before));
        }
        // ("When NOT to Store" says what never to store: no case.)
        if not_to_heading(h).is_some() {
            return None;
        }
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
    pub(crate) fn when_to(&self) -> bool {
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
    pub(crate) fn example(&self) -> bool {
        self.headings.iter().any(|(_, t)| {
            words(t).first().is_some_and(|f| {
                matches!(
                    f.text.as_str(),
                    "example" | "examples" | "sample" | "samples"
                )
                // A pressure test or scenario shows options, right and wrong.
            }) || names_a_scenario(t)
        })
    }

    /// A pressure test or scenario: its options are shown, right and wrong.
    pub(crate) fn scenario(&self) -> bool {
        self.headings.iter().any(|(_, t)| names_a_scenario(t))
    }

    /// A heading places its steps after a planning milestone ("After the
    /// Design", "Once the Plan Is Approved"): they belong to the planning
    /// phase, which ends where the work starts.
    pub(crate) fn after_planning(&self) -> bool {
        self.headings.iter().any(|(_, t)| heading_after_planning(t))
    }

    /// The section is conditional for a reason other than a planning
    /// milestone.
    pub(crate) fn conditional_beyond_planning(&self) -> bool {
        self.headings
            .iter()
            .any(|(_, t)| !heading_after_planning(t) && heading_conditional(t))
    }

    /// The section is optional or conditional ("From setup.py", "If …",
    /// "Troubleshooting", "Examples"): its steps are not required on every run.
    pub(crate) fn conditional(&self) -> bool {
        self.headings
            .iter()
            .filter(|(l, t)| !(*l == 1 && self.title.as_ref() == Some(t)))
            .any(|(_, t)| heading_conditional(t))
            || self.one_of_many()
    }

    /// A section that points elsewhere ("## See also", "## Related
    /// Skills", "## Further Reading"): its lines name other documents and
    /// skills, no rules.
    pub(crate) fn references(&self) -> bool {
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
    pub(crate) fn consented(&self) -> bool {
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
    pub(crate) fn one_of_many(&self) -> bool {
        let n = self.headings.len();
        n >= 2
            && self.headings[..n - 1]
                .iter()
                .any(|(_, t)| lists_alternatives(t))
    }
}

/// Whether a heading (or a label: "**Success criteria:** …") makes what it
/// heads rules, and with which modality where it says one.
pub(crate) fn normative_heading(heading: &str) -> Option<Option<Modality>> {
    let h = heading.to_lowercase();
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
        || mistakes_heading(&h)
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

/// "## Common Mistakes", "Pitfalls": each item names an act to avoid
/// ("- Merging without confirming the base"), unless it is the fix
/// ("**Rebuilding from memory** -- read the template").
pub(crate) fn mistakes_heading(heading: &str) -> bool {
    let h = heading.to_lowercase();
    words(&h)
        .iter()
        .any(|t| matches!(t.text.as_str(), "mistakes" | "pitfalls"))
}

/// A heading about a pressure test or scenario ("Pressure Scenarios",
/// "Scenario 2: …"). ("Micro-Test Wording Before Full Scenarios": the
/// scenarios are what the section's steps come before, not its content.)
fn names_a_scenario(t: &str) -> bool {
    let w = words(t);
    w.iter().enumerate().any(|(i, x)| {
        (x.text.starts_with("scenario") || x.text == "pressure")
            && !w[..i].iter().any(|y| {
                matches!(
                    y.text.as_str(),
                    "before" | "after" | "until" | "instead" | "than" | "without"
                )
            })
    })
}

pub(super) fn heading_after_planning(t: &str) -> bool {
    let w = words(t);
    w.first()
        .is_some_and(|f| matches!(f.text.as_str(), "after" | "once"))
        && planning_milestone(t)
}

/// Text about a planning milestone: a design, plan or spec, or its approval.
pub(crate) fn planning_milestone(t: &str) -> bool {
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
pub(crate) fn heading_number(w: &[Word]) -> usize {
    let number = |x: &Word| x.text.chars().all(|c| c.is_ascii_digit() || c == '.');
    // ("Stage the files:": the word is a verb where no number follows it.)
    w.iter()
        .enumerate()
        .take_while(|(i, x)| {
            number(x)
                || matches!(x.text.as_str(), "step" | "phase" | "stage" | "part")
                    && w.get(i + 1).is_some_and(number)
        })
        .count()
}

/// "Pre-commit checklist", "Pre-push checks", "Pre-merge verification":
/// a heading that puts its checks before an act — that act ("commit").
/// (Not "Pre-commit hooks": the tool of that name.)
pub(crate) fn pre_act_heading(t: &str) -> Option<String> {
    let w = words(t);
    let w = &w[heading_number(&w)..];
    // ("pre-commit" is two words, as "force-push" is.)
    let (first, act) = (w.first()?, w.get(1)?);
    if first.text != "pre" {
        return None;
    }
    let act = act.text.as_str();
    if !matches!(
        act,
        "commit" | "push" | "merge" | "release" | "deploy" | "deployment" | "publish" | "pr"
    ) {
        return None;
    }
    w[2..]
        .iter()
        .any(|x| {
            matches!(
                x.text.as_str(),
                "checklist" | "checks" | "check" | "steps" | "verification" | "review" | "gate"
            )
        })
        .then(|| act.to_string())
}

pub(crate) fn heading_conditional(t: &str) -> bool {
    if pre_act_heading(t).is_some() {
        return true;
    }
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
pub(super) fn known_problems(w: &[Word]) -> bool {
    w.windows(2).any(|p| {
        matches!(
            (p[0].text.as_str(), p[1].text.as_str()),
            ("common" | "known", "issues" | "problems") | ("edge" | "corner", "cases")
        )
    })
}

/// A heading that numbers a step: "Step 2: Check CI status", "3. Push",
/// "4) Tag".
/// A heading that opens with a modal word and names an act with its
/// object ("3. Never Log Secrets", "Don't Assert on Requests"), without
/// its numbering; not one that leads a list ("NEVER Use These Commands")
/// or says when something happens ("Always run").
pub(super) fn modal_heading(heading: &str) -> Option<String> {
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

pub(super) fn numbered_step(heading: &str) -> bool {
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

/// "## Workflows", "## Operations", "## Modes": a heading over
/// alternatives, one of which a session follows.
pub(crate) fn lists_alternatives(heading: &str) -> bool {
    words(heading).iter().any(|w| {
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
}

/// "When NOT to Store", "What not to commit": a heading over the cases or
/// things the act named is never done on — the verb and what follows it
/// ("store", "commit"). Not a heading on where the skill applies ("When not
/// to use").
pub(crate) fn not_to_heading(h: &str) -> Option<String> {
    let lower = strip_emphasis(h).to_lowercase();
    let lower = lower.trim().trim_end_matches(':');
    let rest = lower
        .strip_prefix("when not to ")
        .or_else(|| lower.strip_prefix("what not to "))?;
    let verb = rest.split_whitespace().next()?;
    (!matches!(
        verb,
        "use" | "create" | "apply" | "invoke" | "load" | "trigger" | "choose" | "write"
    ))
    .then(|| rest.to_string())
}
