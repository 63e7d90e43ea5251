//! `skillgate review [SKILL.md|DIR...]`: decide, one rule at a time, what the
//! lockfile says (docs/review.md). `--list` is the non-interactive check for
//! CI: the undecided rules, exit 1 when one of them would block.
//!
//! The decisions themselves are `skillgate::review` (pure); this file is the
//! terminal: it shows a rule, reads a key, and writes the lockfile (and, for
//! a waiver, the configuration) atomically after every decision, so quitting
//! at any point keeps the progress.

use anyhow::Context;
use console::{style, Term};
use dialoguer::Input;
use skillgate::config::Config;
use skillgate::exit::Exit;
use skillgate::extract::{self, lockfile, Lexicon, Lockfile, Predicate};
use skillgate::gate::{self, GateOptions};
use skillgate::parse::Skill;
use skillgate::review::{self, Behavior, Decision, Edit, Item, Urgency};
use skillgate::score::SkillVerdict;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills to review: SKILL.md files or folders searched for them (default: the working directory).
    #[arg(value_name = "SKILL.md|DIR")]
    pub skills: Vec<PathBuf>,
    /// Trajectory files or folders (repeatable); replaces the configured roots.
    #[arg(long, value_name = "DIR")]
    pub trajectories: Vec<PathBuf>,
    /// Print the undecided rules and exit 1 if one would block; never prompts, never writes.
    #[arg(long)]
    pub list: bool,
    /// Configuration file (default: `.skillgate.yaml` found walking up from the working directory).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// One skill ready for review: its lockfile (refreshed in memory when
/// missing or drifted) and the gate's verdict on its sessions.
struct Prepared {
    skill: Skill,
    lock_path: PathBuf,
    lockfile: Lockfile,
    /// Why the lockfile on disk differs from `lockfile` (missing, drifted).
    refreshed: Option<&'static str>,
}

fn prepare(path: &Path, lexicon: &Lexicon) -> anyhow::Result<Prepared> {
    let skill = Skill::read(path)?;
    let lock_path = extract::lockfile_path(&skill);
    let old = if lock_path.exists() {
        Some(Lockfile::read(&lock_path)?)
    } else {
        None
    };
    let (lockfile, refreshed) = match old {
        Some(lf) if lf.source_sha256.eq_ignore_ascii_case(&skill.sha256) => (lf, None),
        old => {
            let why = if old.is_some() { "drifted" } else { "missing" };
            let r = lockfile::refresh(old.as_ref(), &skill, extract::extract(&skill, lexicon));
            (r.lockfile, Some(why))
        }
    };
    Ok(Prepared {
        skill,
        lock_path,
        lockfile,
        refreshed,
    })
}

fn judge(path: &Path, options: &GateOptions, config: &Config) -> anyhow::Result<SkillVerdict> {
    let mut v = gate::run_gate(&[path.to_path_buf()], options, config)?;
    v.pop()
        .with_context(|| format!("{}: no skill found", path.display()))
}

fn save(p: &Prepared) -> anyhow::Result<()> {
    let yaml = p.lockfile.to_yaml();
    // What we write must read back: never leave a lockfile the gate rejects.
    if let Err(e) = Lockfile::parse(&p.lock_path, &yaml) {
        anyhow::bail!("refusing to write an invalid lockfile (a skillgate defect):\n{e}");
    }
    skillgate::fsutil::atomic_write(&p.lock_path, yaml.as_bytes())
        .with_context(|| format!("cannot write {}", p.lock_path.display()))
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let config = match &args.config {
        Some(p) => Config::load(p)?,
        None => Config::discover_and_load(&cwd)?,
    };
    let roots = if args.skills.is_empty() {
        vec![cwd.clone()]
    } else {
        args.skills.clone()
    };
    let skill_files = skillgate::parse::walk::find_skills(&roots)?;
    if skill_files.is_empty() {
        eprintln!("error: no SKILL.md under {}", display_list(&roots));
        return Ok(Exit::Error);
    }
    let lexicon = Lexicon::with_overrides(&config.lexicon).map_err(|m| {
        anyhow::anyhow!(
            "{}: invalid lexicon: {m}",
            config
                .file
                .as_ref()
                .map_or("<lexicon>".into(), |f| f.display().to_string())
        )
    })?;
    let options = GateOptions {
        trajectories: args.trajectories.clone(),
        cwd: cwd.clone(),
    };
    if args.list {
        return list(&skill_files, &lexicon, &options, &config, &cwd);
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        eprintln!(
            "error: `skillgate review` asks questions and needs a terminal; without one, \
             `skillgate review --list` prints the undecided rules (exit 1 if one would block), \
             and SKILL.constraints.yaml can be edited by hand (docs/review.md)"
        );
        return Ok(Exit::Error);
    }
    let term = Term::stdout();
    let mut tally = Tally::default();
    for path in &skill_files {
        let mut p = prepare(path, &lexicon)?;
        if let Some(why) = p.refreshed {
            save(&p)?;
            term.write_line(&format!(
                "{} {} ({why}): {} rules from the current SKILL.md, as `skillgate extract --write` does",
                if why == "missing" { "wrote" } else { "refreshed" },
                gate::display_path(&p.lock_path, &cwd),
                p.lockfile.constraints.len()
            ))?;
        }
        let verdict = judge(path, &options, &config)?;
        let quit = review_skill(&term, &mut p, &verdict, &config, &cwd, &mut tally)?;
        if quit {
            break;
        }
    }
    term.write_line(&format!(
        "decided {} · skipped {} · run `skillgate review --list` for what is still undecided",
        tally.decided, tally.skipped
    ))?;
    Ok(Exit::Ok)
}

#[derive(Default)]
struct Tally {
    decided: usize,
    skipped: usize,
}

fn display_list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn list(
    skill_files: &[PathBuf],
    lexicon: &Lexicon,
    options: &GateOptions,
    config: &Config,
    cwd: &Path,
) -> anyhow::Result<Exit> {
    let mut blocks = 0;
    let mut undecided = 0;
    for path in skill_files {
        let p = prepare(path, lexicon)?;
        let verdict = judge(path, options, config)?;
        let q = review::queue(&p.lockfile, Some(&verdict));
        let state = match p.refreshed {
            Some("missing") => "no lockfile yet".to_string(),
            Some(_) => "lockfile drifted from SKILL.md".to_string(),
            _ => format!(
                "{} of {} rules decided",
                p.lockfile.constraints.len() - q.len(),
                p.lockfile.constraints.len()
            ),
        };
        println!(
            "{} ({}): {state}",
            p.skill.name(),
            gate::display_path(path, cwd)
        );
        for item in &q {
            let label = item.verdict.map_or("not judged", |v| v.label.as_str());
            println!(
                "  {:<6}  {}  lines {}-{}  {}  {}",
                item.urgency.as_str(),
                item.constraint.id,
                item.constraint.lines[0],
                item.constraint.lines[1],
                label,
                review::checks(item.constraint)
            );
        }
        undecided += q.len();
        blocks += q.iter().filter(|i| i.urgency == Urgency::Blocks).count();
    }
    if undecided == 0 {
        println!("every rule is decided");
        return Ok(Exit::Ok);
    }
    println!(
        "undecided: {undecided} rule(s), {blocks} would block — decide them with `skillgate review`"
    );
    Ok(if blocks > 0 { Exit::Fail } else { Exit::Ok })
}

/// Review one skill; true when the person quit.
fn review_skill(
    term: &Term,
    p: &mut Prepared,
    verdict: &SkillVerdict,
    config: &Config,
    cwd: &Path,
    tally: &mut Tally,
) -> anyhow::Result<bool> {
    let ids: Vec<String> = review::queue(&p.lockfile, Some(verdict))
        .iter()
        .map(|i| i.constraint.id.clone())
        .collect();
    if ids.is_empty() {
        term.write_line(&format!(
            "{}: every rule is decided ({} rules)",
            p.skill.name(),
            p.lockfile.constraints.len()
        ))?;
        return Ok(false);
    }
    for (k, id) in ids.iter().enumerate() {
        loop {
            let q = review::queue(&p.lockfile, Some(verdict));
            let Some(item) = q.iter().find(|i| &i.constraint.id == id) else {
                break;
            };
            show(term, p, item, k + 1, ids.len(), cwd)?;
            term.write_str(&format!(
                "{} ",
                style("[a]ccept [e]dit [m]anual [w]aive [r] not a rule [s]kip [q]uit >").bold()
            ))?;
            let key = term.read_char()?;
            term.write_line(&key.to_string())?;
            match key {
                'a' => {
                    decide(term, p, id, Decision::Accept, tally)?;
                    break;
                }
                'e' => {
                    let c = item.constraint.clone();
                    if let Some(edit) = edit(term, &c)? {
                        if decide(term, p, id, Decision::Edit(edit), tally)? {
                            break;
                        }
                    }
                }
                'm' => {
                    let reason = reason_input(term, "why people, not the gate, decide this rule")?;
                    if decide(term, p, id, Decision::Manual(reason), tally)? {
                        break;
                    }
                }
                'w' => {
                    if waive(term, p, id, config, cwd)? {
                        tally.decided += 1;
                        break;
                    }
                }
                'r' => {
                    decide(term, p, id, Decision::NotRule, tally)?;
                    break;
                }
                's' => {
                    tally.skipped += 1;
                    break;
                }
                'q' => return Ok(true),
                _ => term.write_line("unknown key; one of a, e, m, w, r, s, q")?,
            }
        }
    }
    Ok(false)
}

fn decide(
    term: &Term,
    p: &mut Prepared,
    id: &str,
    d: Decision,
    tally: &mut Tally,
) -> anyhow::Result<bool> {
    match review::apply(&mut p.lockfile, id, d) {
        Ok(()) => {
            save(p)?;
            tally.decided += 1;
            term.write_line(&format!(
                "saved {}",
                p.lock_path
                    .file_name()
                    .map_or("lockfile".into(), |n| n.to_string_lossy())
            ))?;
            Ok(true)
        }
        Err(e) => {
            term.write_line(&format!("{} {e}", style("refused:").red()))?;
            Ok(false)
        }
    }
}

fn show(
    term: &Term,
    p: &Prepared,
    item: &Item<'_>,
    k: usize,
    n: usize,
    cwd: &Path,
) -> anyhow::Result<()> {
    let c = item.constraint;
    term.write_line("")?;
    let outcome = item
        .verdict
        .map(|v| format!(" ({})", v.outcome.as_str()))
        .unwrap_or_default();
    term.write_line(&format!(
        "{} {} · {}{outcome}",
        style(format!("[{k}/{n}]")).dim(),
        style(&c.id).bold(),
        item.urgency.as_str()
    ))?;
    let scope: Vec<&str> = c.scope.iter().map(|s| s.as_str()).collect();
    term.write_line(&format!(
        "{} lines {}-{} · {} · scope {}",
        gate::display_path(&p.skill.path, cwd),
        c.lines[0],
        c.lines[1],
        modality(c.modality),
        if scope.is_empty() {
            "none".to_string()
        } else {
            scope.join(", ")
        }
    ))?;
    term.write_line(&format!("  {}", c.text))?;
    term.write_line(&format!("checks: {}", review::checks(c)))?;
    match item.verdict {
        None => term.write_line("sessions: not judged yet")?,
        Some(v) => {
            let fired: Vec<_> = v
                .per_trajectory
                .iter()
                .filter(|t| t.label != skillgate::label::Label::Untested)
                .collect();
            term.write_line(&format!(
                "label: {} · fired in {} of {} session(s)",
                v.label.as_str(),
                fired.len(),
                v.per_trajectory.len()
            ))?;
            for e in v.evidence.iter().take(10) {
                term.write_line(&format!(
                    "  {}: {}",
                    skillgate::score::resolve::location(&e),
                    e.label.as_str()
                ))?;
            }
            if v.evidence.is_empty() {
                for t in fired.iter().take(10) {
                    term.write_line(&format!("  {}: {}", t.trajectory, t.label.as_str()))?;
                }
            }
        }
    }
    Ok(())
}

fn modality(m: skillgate::extract::Modality) -> &'static str {
    use skillgate::extract::Modality::*;
    match m {
        Must => "must",
        MustNot => "must-not",
        Should => "should",
        ShouldNot => "should-not",
    }
}

fn predicate_input(
    term: &Term,
    what: &str,
    current: Option<String>,
) -> anyhow::Result<Option<Predicate>> {
    let prompt = match &current {
        Some(c) => format!("{what} (now {c}; empty keeps it, `none` removes it)"),
        None => format!("{what} (a predicate; empty: none)"),
    };
    let typed: String = Input::<String>::new()
        .with_prompt(prompt)
        .allow_empty(true)
        .validate_with(|s: &String| -> Result<(), String> {
            review::parse_predicate(s)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .interact_text_on(term)?;
    if typed.trim().is_empty() {
        if let Some(c) = current {
            return review::parse_predicate(&c).map_err(|e| anyhow::anyhow!("{e}"));
        }
    }
    review::parse_predicate(&typed).map_err(|e| anyhow::anyhow!("{e}"))
}

/// Ask for new predicates: a ready form, or typed ones checked against the
/// grammar (an error names its column; the prompt repeats until it parses).
fn edit(term: &Term, c: &skillgate::extract::Constraint) -> anyhow::Result<Option<Edit>> {
    let forms = review::ready_forms(c);
    term.write_line("  1) type when / require or forbid / order")?;
    for (i, (name, e)) in forms.iter().enumerate() {
        let mut probe = c.clone();
        probe.when = e.when.clone();
        probe.require = None;
        probe.forbid = None;
        probe.order = e.order;
        probe.manual = None;
        match &e.behavior {
            Some((Behavior::Require, p)) => probe.require = Some(p.clone()),
            Some((Behavior::Forbid, p)) => probe.forbid = Some(p.clone()),
            None => {}
        }
        term.write_line(&format!("  {}) {name}: {}", i + 2, review::checks(&probe)))?;
    }
    term.write_str("choose (any other key: back) > ")?;
    let key = term.read_char()?;
    term.write_line(&key.to_string())?;
    let Some(n) = key.to_digit(10).map(|d| d as usize) else {
        return Ok(None);
    };
    if n >= 2 {
        return Ok(forms.into_iter().nth(n - 2).map(|(_, e)| e));
    }
    if n != 1 {
        return Ok(None);
    }
    let when = predicate_input(term, "when", c.when.as_ref().map(review::flow))?;
    term.write_str("behavior: [r]equire [f]orbid [n]one > ")?;
    let key = term.read_char()?;
    term.write_line(&key.to_string())?;
    let kind = match key {
        'r' => Behavior::Require,
        'f' => Behavior::Forbid,
        _ => {
            return Ok(Some(Edit {
                when,
                behavior: None,
                order: None,
            }))
        }
    };
    let current = match kind {
        Behavior::Require => c.require.as_ref(),
        Behavior::Forbid => c.forbid.as_ref(),
    }
    .map(review::flow);
    let word = if kind == Behavior::Require {
        "require"
    } else {
        "forbid"
    };
    let behavior = predicate_input(term, word, current)?;
    let mut order = None;
    if kind == Behavior::Require && behavior.is_some() {
        let typed: String = Input::new()
            .with_prompt(format!(
                "order ({}; empty: after)",
                review::ORDER_WORDS.join(", ")
            ))
            .allow_empty(true)
            .validate_with(|s: &String| -> Result<(), String> {
                review::parse_order(s)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
            .interact_text_on(term)?;
        order = review::parse_order(&typed).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    Ok(Some(Edit {
        when,
        behavior: behavior.map(|b| (kind, b)),
        order,
    }))
}

/// A reason a person must give (manual, waiver): asked again while it is
/// empty or `TODO`, the reasons the lockfile and the configuration reject.
fn reason_input(term: &Term, prompt: &str) -> anyhow::Result<String> {
    Ok(Input::<String>::new()
        .with_prompt(prompt)
        .allow_empty(true)
        .validate_with(|s: &String| -> Result<(), String> {
            let t = s.trim();
            if t.is_empty() || t.eq_ignore_ascii_case("todo") {
                Err("a reason is required (not empty, not TODO)".into())
            } else {
                Ok(())
            }
        })
        .interact_text_on(term)?)
}

/// Add a waiver to the configuration (atomically); true when written.
fn waive(term: &Term, p: &Prepared, id: &str, config: &Config, cwd: &Path) -> anyhow::Result<bool> {
    let reason = reason_input(term, "why this rule may be broken (listed in every report)")?;
    let path = match &config.file {
        Some(f) => f.clone(),
        None => gate::repo_root(p.skill.dir())
            .unwrap_or_else(|| cwd.to_path_buf())
            .join(".skillgate.yaml"),
    };
    // The same bounded, regular-file read the configuration loader uses.
    let existing = if path.exists() {
        match skillgate::fsutil::read_text(&path, skillgate::fsutil::MAX_CONFIG_BYTES) {
            Ok(t) => Some(t),
            Err(e) => anyhow::bail!("{}: cannot read the configuration: {e}", path.display()),
        }
    } else {
        None
    };
    let is_toml = path.extension().is_some_and(|e| e == "toml");
    let text = match review::add_waiver(existing.as_deref(), is_toml, &p.skill.name(), id, &reason)
    {
        Ok(t) => t,
        Err(e) => {
            term.write_line(&format!("{} {e}", style("refused:").red()))?;
            return Ok(false);
        }
    };
    if let Err(e) = Config::from_yaml_str(&path, &text) {
        term.write_line(&format!(
            "{} the configuration would not read back ({e}); add the waiver by hand",
            style("refused:").red()
        ))?;
        return Ok(false);
    }
    skillgate::fsutil::atomic_write(&path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    term.write_line(&format!("waived in {}", gate::display_path(&path, cwd)))?;
    Ok(true)
}
