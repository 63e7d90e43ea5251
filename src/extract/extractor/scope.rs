//! Stage 5: scope. Tags that follow from a rule's predicates themselves
//! (commands, git subcommands, written paths) through the lexicon's scope
//! `commands` and `paths` globs.

use super::*;

/// Scope tags of the predicates themselves (commands, git subcommands, paths).
pub(super) fn add_predicate_scopes(d: &mut Draft, lex: &Lexicon) {
    for p in [&d.when, &d.require, &d.forbid].into_iter().flatten() {
        d.scope.extend(predicate_scopes(p, lex));
    }
}

pub(super) fn predicate_scopes(p: &Predicate, lex: &Lexicon) -> BTreeSet<ScopeTag> {
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
pub(super) fn samples(p: &Predicate, cmds: &mut Vec<String>, paths: &mut Vec<String>) {
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
