//! Skill-load detection shared by all formats (SPEC §5, formats note §1.6).
//!
//! Decoders emit [`Action::SkillLoad`] events for the strong evidence their
//! format has (the `Skill` tool, "Base directory for this skill" bodies, slash
//! commands followed by that body, `invoked_skills` attachments, Gemini
//! `activate_skill`, Codex `<skill>` injections). This module adds the weak
//! evidence — a read of `…/skills/<name>/SKILL.md` — and answers the gate's one
//! question: where was a skill first loaded?

use super::{Action, Event, FileEffect, LoadVia, Role, Trajectory};

/// Where a skill was first loaded in a trajectory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadPoint {
    /// Index of the first load event (0 when only a retro sidecar says so and
    /// the transcript shows no load).
    pub index: usize,
    /// The only evidence is a read of the skill's SKILL.md.
    pub weak: bool,
    /// How the first load was seen ([`LoadVia::Retro`] when only the sidecar says so).
    pub via: LoadVia,
}

/// Skill names match exactly or up to a `plugin:` prefix on either side
/// (`superpowers:brainstorming` is `brainstorming`).
pub fn names_match(a: &str, b: &str) -> bool {
    super::claude_code::names_match(a, b)
}

/// The first load of `skill_name`, or `None` when the trajectory never loads it.
///
/// A retro sidecar's `loaded_skills` is authoritative: a listed skill is loaded
/// (at its first load event if the transcript shows one, else at the start);
/// an unlisted one is not loaded, whatever the transcript shows. Without a
/// sidecar the earliest load event counts, strong or weak; `weak` is set only
/// when every load event of the skill is weak evidence.
pub fn first_load(traj: &Trajectory, skill_name: &str) -> Option<LoadPoint> {
    let loads: Vec<(usize, LoadVia)> = traj
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.action {
            Action::SkillLoad { name, via } if names_match(name, skill_name) => Some((i, *via)),
            _ => None,
        })
        .collect();
    let all_weak = loads.iter().all(|(_, v)| v.is_weak());
    if let Some(listed) = traj.retro.as_ref().and_then(|r| r.loaded_skills.as_ref()) {
        if !listed.iter().any(|n| names_match(n, skill_name)) {
            return None;
        }
        return Some(match loads.first() {
            Some((i, via)) => LoadPoint {
                index: *i,
                weak: false,
                via: *via,
            },
            None => LoadPoint {
                index: 0,
                weak: false,
                via: LoadVia::Retro,
            },
        });
    }
    loads.first().map(|(i, via)| LoadPoint {
        index: *i,
        weak: all_weak,
        via: *via,
    })
}

/// The skill name of a `…/skills/<name>/SKILL.md` path.
pub fn skill_of_path(path: &str) -> Option<&str> {
    let p = path.trim_end_matches('/');
    let rest = p
        .strip_suffix("/SKILL.md")
        .or_else(|| p.strip_suffix("/skill.md"))?;
    let (parent, name) = rest.rsplit_once('/')?;
    let parent_dir = parent.rsplit('/').next().unwrap_or(parent);
    (parent_dir == "skills" && !name.is_empty()).then_some(name)
}

/// Add weak `SkillLoad` events right after every read of `…/skills/<name>/SKILL.md`
/// (a file read, or a `cat` / `sed -n` / `head` in a shell command).
pub fn add_weak_loads(traj: &mut Trajectory) {
    let has_read = traj.events.iter().any(|e| reads(e).next().is_some());
    if !has_read {
        return;
    }
    let events = std::mem::take(&mut traj.events);
    let mut out = Vec::with_capacity(events.len() + 4);
    for e in events {
        let names: Vec<String> = {
            let mut v: Vec<String> = Vec::new();
            for p in reads(&e) {
                if let Some(n) = skill_of_path(p) {
                    if !v.iter().any(|x| x == n) {
                        v.push(n.to_string());
                    }
                }
            }
            v
        };
        let (loc, agent, ts) = (e.location.clone(), e.agent.clone(), e.timestamp.clone());
        out.push(e);
        for name in names {
            let mut ev = Event::new(
                loc.clone(),
                Role::Assistant,
                Action::SkillLoad {
                    name,
                    via: LoadVia::SkillFileRead,
                },
            );
            ev.agent = agent.clone();
            ev.timestamp = ts.clone();
            out.push(ev);
        }
    }
    traj.events = out;
}

fn reads(e: &Event) -> impl Iterator<Item = &str> {
    let effects: &[FileEffect] = match &e.action {
        Action::File { effects } => effects,
        Action::Shell(s) => &s.effects,
        _ => &[],
    };
    effects.iter().filter_map(|f| match f {
        FileEffect::Read { path } => Some(path.as_str()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{Harness, Location, Retro};

    fn traj(actions: Vec<Action>) -> Trajectory {
        let mut t = Trajectory::new("t".into(), Harness::ClaudeCode, "x");
        for a in actions {
            t.events
                .push(Event::new(Location::line(1), Role::Assistant, a));
        }
        t
    }
    fn load(name: &str, via: LoadVia) -> Action {
        Action::SkillLoad {
            name: name.into(),
            via,
        }
    }

    #[test]
    fn skill_paths() {
        assert_eq!(
            skill_of_path("/home/u/.claude/skills/goal/SKILL.md"),
            Some("goal")
        );
        assert_eq!(skill_of_path("skills/tdd/SKILL.md"), Some("tdd"));
        assert_eq!(skill_of_path("docs/goal/SKILL.md"), None);
        assert_eq!(skill_of_path("/x/skills/SKILL.md"), None);
    }

    #[test]
    fn weak_loads_follow_reads() {
        let mut t = traj(vec![
            Action::Message,
            Action::File {
                effects: vec![FileEffect::Read {
                    path: "/r/.codex/skills/gh-fix-ci/SKILL.md".into(),
                }],
            },
        ]);
        add_weak_loads(&mut t);
        assert_eq!(t.events.len(), 3);
        assert_eq!(
            t.events[2].action,
            load("gh-fix-ci", LoadVia::SkillFileRead)
        );
        let p = first_load(&t, "gh-fix-ci").unwrap();
        assert_eq!((p.index, p.weak), (2, true));
    }

    #[test]
    fn first_load_prefers_earliest_and_matches_prefixes() {
        let t = traj(vec![
            Action::Message,
            load("brainstorming", LoadVia::SkillFileRead),
            load("superpowers:brainstorming", LoadVia::SkillTool),
        ]);
        let p = first_load(&t, "brainstorming").unwrap();
        assert_eq!((p.index, p.weak, p.via), (1, false, LoadVia::SkillFileRead));
        assert_eq!(
            first_load(&t, "superpowers:brainstorming").unwrap().index,
            1
        );
        assert_eq!(first_load(&t, "other"), None);
    }

    #[test]
    fn retro_is_authoritative() {
        let mut t = traj(vec![Action::Message, load("goal", LoadVia::SlashCommand)]);
        t.retro = Some(Retro {
            loaded_skills: Some(vec!["other".into()]),
            ..Default::default()
        });
        assert_eq!(first_load(&t, "goal"), None);
        assert_eq!(
            first_load(&t, "other"),
            Some(LoadPoint {
                index: 0,
                weak: false,
                via: LoadVia::Retro
            })
        );
        t.retro = Some(Retro {
            loaded_skills: Some(vec!["goal".into()]),
            ..Default::default()
        });
        assert_eq!(first_load(&t, "goal").unwrap().index, 1);
        t.retro = Some(Retro {
            loaded_skills: None,
            ..Default::default()
        });
        assert_eq!(first_load(&t, "goal").unwrap().via, LoadVia::SlashCommand);
    }
}
