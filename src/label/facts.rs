//! What one event offers to predicates: for every string of its action (tool
//! name, each simple command, each file path, each URL...) the ids of the
//! compiled globs and regexes it matches, computed once per event for all
//! constraints. Then predicate trees are evaluated against these facts.

use super::compile::{CPred, CompiledSet};
use super::gitflags;
use crate::decode::{Action, Event, FileEffect, GitOp, TestOutcome};
use crate::extract::ScopeTag;

/// Three-valued truth: `Maybe` where the trajectory does not record what a
/// predicate asks (the git branch), so uncertainty can fail closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tri {
    No,
    Maybe,
    Yes,
}

impl Tri {
    fn from_bool(b: bool) -> Tri {
        if b {
            Tri::Yes
        } else {
            Tri::No
        }
    }
    fn not(self) -> Tri {
        match self {
            Tri::No => Tri::Yes,
            Tri::Maybe => Tri::Maybe,
            Tri::Yes => Tri::No,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Read,
    Write,
    Edit,
    Delete,
    Rename,
}

#[derive(Debug, Default)]
pub(crate) struct FileFact {
    pub op: Option<Op>,
    /// Glob ids matched by the path (for a rename: its source).
    pub paths: Vec<usize>,
    /// For a rename: glob ids matched by its destination.
    pub to: Vec<usize>,
}

#[derive(Debug)]
pub(crate) struct CmdFact<'a> {
    pub globs: Vec<usize>,
    pub regexes: Vec<usize>,
    pub git: Option<&'a GitOp>,
    /// Glob ids matched by the git subcommand.
    pub git_sub: Vec<usize>,
}

/// Facts of one trajectory that do not change per event.
#[derive(Debug)]
pub(crate) struct TrajFacts {
    /// Text-glob ids matched by the recorded branch; `None` when not recorded.
    pub branch: Option<Vec<usize>>,
}

#[derive(Debug, Default)]
pub(crate) struct Facts<'a> {
    pub tool: Vec<usize>,
    pub commands: Vec<CmdFact<'a>>,
    pub files: Vec<FileFact>,
    pub fetch: Vec<Vec<usize>>,
    pub skill: Option<Vec<usize>>,
    pub subagent: Option<Vec<usize>>,
    pub failed: bool,
    /// The user spoke (or answered an ask tool) in this event.
    pub user_turn: bool,
    /// Scopes this event acted in (only computed when a constraint needs it).
    pub scopes: Vec<ScopeTag>,
}

/// A user turn (SPEC §4.1): the decoders' content-free user-turn event of the
/// main agent — a prompt or an answer to an ask tool, not `/exit` or `/compact`.
pub(crate) fn is_user_turn(e: &Event) -> bool {
    e.is_user_turn()
}

/// `failed` as predicates see it: where a decoder read a test runner's
/// summary, a red run is a failure and an environment error (`not-run`:
/// command not found, a missing gem) is not a failing test (SPEC §5).
pub(crate) fn failed(e: &Event) -> bool {
    match e.test_outcome {
        Some(TestOutcome::Failed) => true,
        Some(TestOutcome::Passed) | Some(TestOutcome::NotRun) => false,
        None => e.failed,
    }
}

/// Path spellings a path glob is tried against: as written, relative to the
/// session's working directory, absolute under it, and `~/…` for a home folder.
pub(crate) fn path_candidates(path: &str, cwd: Option<&str>) -> Vec<String> {
    let mut out = Vec::with_capacity(3);
    let p = clean(path);
    if p.is_empty() {
        return out;
    }
    if p.starts_with('/') {
        if let Some(c) = cwd.map(clean).filter(|c| c.starts_with('/')) {
            let c = c.trim_end_matches('/');
            if let Some(rest) = p.strip_prefix(c).and_then(|r| r.strip_prefix('/')) {
                if !rest.is_empty() {
                    out.push(rest.to_string());
                }
            }
        }
        if let Some(rest) = home_relative(&p) {
            out.push(format!("~/{rest}"));
        }
    } else if !p.starts_with('~') {
        if let Some(c) = cwd.map(clean).filter(|c| c.starts_with('/')) {
            let joined = clean(&format!("{}/{}", c.trim_end_matches('/'), p));
            if let Some(rest) = home_relative(&joined) {
                out.push(format!("~/{rest}"));
            }
            out.push(joined);
        }
    }
    out.push(p);
    out.dedup();
    out
}

fn home_relative(p: &str) -> Option<&str> {
    if let Some(rest) = p.strip_prefix("/root/") {
        return Some(rest);
    }
    for prefix in ["/home/", "/Users/"] {
        if let Some(rest) = p.strip_prefix(prefix) {
            return rest
                .split_once('/')
                .map(|(_, r)| r)
                .filter(|r| !r.is_empty());
        }
    }
    None
}

/// Lexical clean-up: drop `./` and empty segments, resolve `..` where possible.
fn clean(path: &str) -> String {
    let abs = path.starts_with('/');
    // most paths are clean already: copied once, not split and joined
    let body = if abs { &path[1..] } else { path };
    if body.is_empty() || body.split('/').all(|seg| !matches!(seg, "" | "." | "..")) {
        return path.to_string();
    }
    clean_segments(path)
}

/// [`clean`] segment by segment.
fn clean_segments(path: &str) -> String {
    let abs = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !abs {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    if abs {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The path-glob ids of the paths already matched in one trajectory, per
/// working directory: a session reads, edits and reads again the same
/// files, and each spelling of a path costs a glob-set pass. Also the
/// text-glob ids of the texts already matched (tool names above all: one
/// per event, a few distinct ones a session).
#[derive(Default)]
pub(crate) struct PathMemo(Vec<(Option<String>, PathIds)>, PathIds);

/// A path's glob ids, by path.
type PathIds = crate::decode::FastMap<String, Vec<usize>>;

impl CompiledSet {
    pub(crate) fn path_matches(
        &self,
        path: &str,
        cwd: Option<&str>,
        memo: &mut PathMemo,
    ) -> Vec<usize> {
        if !self.any_path_glob {
            return Vec::new();
        }
        let slot = match memo.0.iter().position(|(c, _)| c.as_deref() == cwd) {
            Some(i) => i,
            None => {
                memo.0.push((cwd.map(str::to_string), PathIds::default()));
                memo.0.len() - 1
            }
        };
        if let Some(ids) = memo.0[slot].1.get(path) {
            return ids.clone();
        }
        let ids = self.match_path(path, cwd);
        memo.0[slot].1.insert(path.to_string(), ids.clone());
        ids
    }

    /// [`CompiledSet::path_matches`] without the memo.
    pub(crate) fn match_path(&self, path: &str, cwd: Option<&str>) -> Vec<usize> {
        let mut ids = Vec::new();
        let mut found = Vec::new();
        for cand in path_candidates(path, cwd) {
            self.path_globs
                .matches_candidate_into(&globset::Candidate::new(&cand), &mut found);
            for &id in &found {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        ids
    }

    fn text_matches(&self, s: &str) -> Vec<usize> {
        if !self.any_text_glob {
            return Vec::new();
        }
        self.text_globs.matches(s)
    }

    /// [`CompiledSet::text_matches`], memoized in one trajectory.
    fn text_matches_in(&self, s: &str, memo: &mut PathMemo) -> Vec<usize> {
        if !self.any_text_glob {
            return Vec::new();
        }
        if let Some(ids) = memo.1.get(s) {
            return ids.clone();
        }
        let ids = self.text_globs.matches(s);
        memo.1.insert(s.to_string(), ids.clone());
        ids
    }

    pub(crate) fn traj_facts(&self, branch: Option<&str>) -> TrajFacts {
        TrajFacts {
            branch: branch
                .filter(|b| !b.is_empty())
                .map(|b| self.text_matches(b)),
        }
    }

    fn file_fact(&self, e: &FileEffect, cwd: Option<&str>, memo: &mut PathMemo) -> FileFact {
        let (op, path) = match e {
            FileEffect::Read { path } => (Op::Read, path),
            FileEffect::Write { path } => (Op::Write, path),
            FileEffect::Edit { path } => (Op::Edit, path),
            FileEffect::Delete { path } => (Op::Delete, path),
            FileEffect::Rename { from, to } => {
                return FileFact {
                    op: Some(Op::Rename),
                    paths: self.path_matches(from, cwd, memo),
                    to: self.path_matches(to, cwd, memo),
                }
            }
        };
        FileFact {
            op: Some(op),
            paths: self.path_matches(path, cwd, memo),
            to: Vec::new(),
        }
    }

    /// The facts of one event.
    pub(crate) fn facts<'a>(
        &self,
        e: &'a Event,
        session_cwd: Option<&str>,
        memo: &mut PathMemo,
    ) -> Facts<'a> {
        let mut f = Facts {
            failed: failed(e),
            user_turn: is_user_turn(e),
            ..Default::default()
        };
        if let Some(t) = &e.tool {
            f.tool = self.text_matches_in(t, memo);
        }
        match &e.action {
            Action::Message | Action::UserTurn { .. } | Action::Other => {}
            Action::File { effects } => {
                f.files = effects
                    .iter()
                    .map(|x| self.file_fact(x, session_cwd, memo))
                    .collect();
            }
            Action::Shell(sh) => {
                let cwd = sh
                    .workdir
                    .as_deref()
                    .filter(|w| w.starts_with('/'))
                    .or(session_cwd);
                f.files = sh
                    .effects
                    .iter()
                    .map(|x| self.file_fact(x, cwd, memo))
                    .collect();
                for c in &sh.commands {
                    let regexes = self
                        .regexes
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.is_match(&c.text))
                        .map(|(i, _)| i)
                        .collect();
                    let git_sub = c
                        .git
                        .as_ref()
                        .map(|g| self.text_matches_in(&g.subcommand, memo))
                        .unwrap_or_default();
                    f.commands.push(CmdFact {
                        globs: self.text_matches_in(&c.text, memo),
                        regexes,
                        git: c.git.as_ref(),
                        git_sub,
                    });
                    if let Some(urls) = fetched_urls(&c.argv) {
                        f.fetch
                            .extend(urls.iter().map(|u| self.text_matches_in(u, memo)));
                    }
                }
            }
            Action::Fetch { url } => f.fetch.push(self.text_matches_in(url, memo)),
            Action::SkillLoad { name, .. } => f.skill = Some(self.text_matches_in(name, memo)),
            Action::Subagent {
                agent_type,
                agent_id,
            } => {
                let mut ids = self.text_matches_in(agent_type.as_deref().unwrap_or(""), memo);
                if let Some(id) = agent_id {
                    for m in self.text_matches_in(id, memo) {
                        if !ids.contains(&m) {
                            ids.push(m);
                        }
                    }
                }
                f.subagent = Some(ids);
            }
        }
        if self.needs_scopes {
            f.scopes = self.acted_scopes(e, session_cwd);
        }
        f
    }

    /// The scopes an event acted in, per the scope lexicon (SPEC §6): a git
    /// state change (its commands) for `shared-repo-state`; an access to a
    /// credential path or a secret-bearing command for `sensitive-memory`; a
    /// change to an agent-configuration path for `self-modification`.
    fn acted_scopes(&self, e: &Event, session_cwd: Option<&str>) -> Vec<ScopeTag> {
        let (commands, effects, cwd): (&[crate::decode::SimpleCommand], &[FileEffect], _) =
            match &e.action {
                Action::Shell(sh) => (
                    &sh.commands,
                    &sh.effects,
                    sh.workdir
                        .as_deref()
                        .filter(|w| w.starts_with('/'))
                        .or(session_cwd),
                ),
                Action::File { effects } => (&[], effects, session_cwd),
                // A tool that acts on its own (`mcp__github__merge_pull_request`).
                Action::Other => {
                    let Some(name) = e.tool.as_deref() else {
                        return Vec::new();
                    };
                    let mut out: Vec<ScopeTag> = Vec::new();
                    for s in &self.scopes {
                        if !out.contains(&s.tag) && s.tools.is_match(name) {
                            out.push(s.tag);
                        }
                    }
                    return out;
                }
                _ => return Vec::new(),
            };
        let mut out = Vec::new();
        for s in &self.scopes {
            if out.contains(&s.tag) {
                continue;
            }
            let by_command = s.tag != ScopeTag::SelfModification
                && commands.iter().any(|c| s.commands.is_match(&c.text));
            let by_path = effects.iter().any(|x| {
                let (paths, read): (Vec<&str>, bool) = match x {
                    FileEffect::Read { path } => (vec![path], true),
                    FileEffect::Write { path }
                    | FileEffect::Edit { path }
                    | FileEffect::Delete { path } => (vec![path], false),
                    FileEffect::Rename { from, to } => (vec![from, to], false),
                };
                // Reading agent configuration is not a change to it.
                if read && s.tag == ScopeTag::SelfModification {
                    return false;
                }
                paths.iter().any(|p| {
                    path_candidates(p, cwd)
                        .iter()
                        .any(|c| s.paths.is_match(c.as_str()))
                })
            });
            if by_command || by_path {
                out.push(s.tag);
            }
        }
        out
    }
}

/// URLs fetched by a `curl` / `wget` simple command.
fn fetched_urls(argv: &[String]) -> Option<Vec<&str>> {
    let prog = argv.first()?.rsplit('/').next()?;
    if prog != "curl" && prog != "wget" {
        return None;
    }
    Some(
        argv[1..]
            .iter()
            .filter(|a| a.contains("://"))
            .map(String::as_str)
            .collect(),
    )
}

/// Evaluate a compiled predicate against one event's facts.
pub(crate) fn eval(p: &CPred, f: &Facts<'_>, t: &TrajFacts) -> Tri {
    match p {
        CPred::Tool(id) => Tri::from_bool(f.tool.contains(id)),
        CPred::Command(id) => Tri::from_bool(f.commands.iter().any(|c| c.globs.contains(id))),
        CPred::CommandRe(id) => Tri::from_bool(f.commands.iter().any(|c| c.regexes.contains(id))),
        CPred::Git {
            sub,
            flags,
            positionals,
        } => Tri::from_bool(f.commands.iter().any(|c| {
            let Some(g) = c.git else { return false };
            if !c.git_sub.contains(sub) {
                return false;
            }
            let recorded: Vec<String> = g
                .flags
                .iter()
                .flat_map(|x| gitflags::normalize_flags(&g.subcommand, x))
                .collect();
            flags
                .iter()
                .all(|w| recorded.iter().any(|r| gitflags::flag_satisfies(r, w)))
                && positionals.iter().all(|w| g.args.iter().any(|a| a == w))
        })),
        CPred::File { ops, glob } => Tri::from_bool(f.files.iter().any(|x| {
            let op_ok = match x.op {
                Some(Op::Read) => ops.read,
                Some(Op::Write) => ops.write,
                Some(Op::Edit) => ops.edit,
                Some(Op::Delete) => ops.delete,
                Some(Op::Rename) => ops.rename,
                None => false,
            };
            op_ok && (x.paths.contains(glob) || (x.op == Some(Op::Rename) && x.to.contains(glob)))
        })),
        CPred::Rename { from, to } => Tri::from_bool(
            f.files
                .iter()
                .any(|x| x.op == Some(Op::Rename) && x.paths.contains(from) && x.to.contains(to)),
        ),
        CPred::Fetch(id) => Tri::from_bool(f.fetch.iter().any(|u| u.contains(id))),
        CPred::Skill(id) => Tri::from_bool(f.skill.as_ref().is_some_and(|s| s.contains(id))),
        CPred::Subagent(id) => Tri::from_bool(f.subagent.as_ref().is_some_and(|s| s.contains(id))),
        CPred::Failed(b) => Tri::from_bool(f.failed == *b),
        CPred::UserTurn => Tri::from_bool(f.user_turn),
        CPred::Branch(id) => match &t.branch {
            Some(ids) => Tri::from_bool(ids.contains(id)),
            None => Tri::Maybe,
        },
        CPred::Any(v) => {
            let mut acc = Tri::No;
            for p in v {
                match eval(p, f, t) {
                    Tri::Yes => return Tri::Yes,
                    Tri::Maybe => acc = Tri::Maybe,
                    Tri::No => {}
                }
            }
            acc
        }
        CPred::All(v) => {
            let mut acc = Tri::Yes;
            for p in v {
                match eval(p, f, t) {
                    Tri::No => return Tri::No,
                    Tri::Maybe => acc = Tri::Maybe,
                    Tri::Yes => {}
                }
            }
            acc
        }
        CPred::Not(p) => eval(p, f, t).not(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_paths_are_kept_as_cleaning_them_would_give() {
        let segs = ["a", "bc", ".", "..", "", ".x", "x.", "..."];
        for lead in ["", "/", "./", "../", "//"] {
            for a in segs {
                for b in segs {
                    for c in ["", "/", "/d", "/.", "/..", "//e"] {
                        let p = format!("{lead}{a}/{b}{c}");
                        assert_eq!(clean(&p), clean_segments(&p), "{p}");
                        let q = format!("{lead}{a}{c}");
                        assert_eq!(clean(&q), clean_segments(&q), "{q}");
                    }
                }
            }
        }
    }

    #[test]
    fn candidates_cover_relative_absolute_and_home() {
        assert_eq!(
            path_candidates("/work/repo/src/a.rs", Some("/work/repo")),
            vec!["src/a.rs".to_string(), "/work/repo/src/a.rs".to_string()]
        );
        assert_eq!(
            path_candidates("./src/../docs/a.md", Some("/work/repo/")),
            vec!["/work/repo/docs/a.md".to_string(), "docs/a.md".to_string()]
        );
        assert_eq!(
            path_candidates("/home/u/.ssh/id_rsa", None),
            vec![
                "~/.ssh/id_rsa".to_string(),
                "/home/u/.ssh/id_rsa".to_string()
            ]
        );
        assert_eq!(path_candidates("a.txt", None), vec!["a.txt".to_string()]);
    }
}
