//! Skill-load detection shared by all formats (SPEC §5, formats note §1.6).
//!
//! Decoders emit [`Action::SkillLoad`] events for the strong evidence their
//! format has (the `Skill` tool, "Base directory for this skill" bodies, slash
//! commands followed by that body, `invoked_skills` attachments, Gemini
//! `activate_skill`, Codex `<skill>` injections). This module adds the weak
//! evidence — a read of `…/skills/<name>/SKILL.md` — and answers the gate's one
//! question: where was a skill first loaded?

use super::{Action, Event, FileEffect, LoadVia, Role, Trajectory};
use sha2::{Digest, Sha256};

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
    first_load_in(traj, &load_events(traj), skill_name)
}

/// The skill-load events of a trajectory, in order: (event index, skill
/// name, how it was loaded). Listed once per trajectory, they answer
/// [`first_load_in`] for every skill without a pass over the events each.
pub fn load_events(traj: &Trajectory) -> Vec<(usize, &str, LoadVia)> {
    traj.events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.action {
            Action::SkillLoad { name, via, .. } => Some((i, name.as_str(), *via)),
            _ => None,
        })
        .collect()
}

/// [`first_load`] from the trajectory's [`load_events`].
pub fn first_load_in(
    traj: &Trajectory,
    events: &[(usize, &str, LoadVia)],
    skill_name: &str,
) -> Option<LoadPoint> {
    let loads: Vec<(usize, LoadVia)> = events
        .iter()
        .filter(|(_, name, _)| names_match(name, skill_name))
        .map(|&(i, _, via)| (i, via))
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
                    body_sha256: None,
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

// ---------------------------------------------------------------- body hashes

/// The normalised text of a skill body, the one both sides hash (SPEC §5
/// `stale`): a leading BOM removed, CRLF and lone CR turned into LF, trailing
/// spaces and tabs of every line removed, and leading and trailing blank lines
/// removed. Nothing else changes: a changed word, line or list item changes
/// the hash.
pub fn normalize_body(body: &str) -> String {
    let body = body.strip_prefix('\u{feff}').unwrap_or(body);
    let body = body.replace("\r\n", "\n").replace('\r', "\n");
    trimmed_lines(&body).join("\n")
}

/// The lines of a CR-free text with trailing spaces and tabs removed,
/// leading and trailing blank lines left out.
fn trimmed_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches([' ', '\t']))
        .collect();
    let start = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |e| e + 1);
    lines.truncate(end);
    lines.drain(..start);
    lines
}

/// sha256 (lowercase hex) of a skill body as injected by a harness, after
/// [`normalize_body`]. Decoders call this on the body alone (Claude Code: the
/// text after the "Base directory for this skill: <dir>" line, with an
/// appended `ARGUMENTS: …` block removed).
pub fn body_sha256(body: &str) -> String {
    let b = body.strip_prefix('\u{feff}').unwrap_or(body);
    if b.contains('\r') {
        return hex(&Sha256::digest(normalize_body(body).as_bytes()));
    }
    // Without a CR, the normalised lines are the body's own lines, trimmed:
    // they are hashed where they lie instead of copied into a new text.
    let mut h = Sha256::new();
    for (i, l) in trimmed_lines(b).iter().enumerate() {
        if i > 0 {
            h.update(b"\n");
        }
        h.update(l.as_bytes());
    }
    hex(&h.finalize())
}

/// The body of a SKILL.md file: the text after the YAML frontmatter (a first
/// line `---` up to the next line `---`), or the whole file when it has none.
/// This is what Claude Code injects after its "Base directory" line.
pub fn skill_md_body(skill_md: &str) -> &str {
    let t = skill_md.strip_prefix('\u{feff}').unwrap_or(skill_md);
    let mut lines = t.split_inclusive('\n');
    match lines.next() {
        Some(first) if first.trim_end() == "---" => {}
        _ => return t,
    }
    let mut at = t.split_inclusive('\n').next().map_or(0, str::len);
    for l in lines {
        at += l.len();
        if l.trim_end() == "---" {
            return &t[at..];
        }
    }
    t // an unterminated frontmatter: keep all
}

/// sha256 of a SKILL.md file's body (frontmatter removed, then [`body_sha256`]).
pub fn skill_md_body_sha256(skill_md: &str) -> String {
    body_sha256(skill_md_body(skill_md))
}

/// Did a session whose injected body hashed to `body_sha256` (an
/// [`Action::SkillLoad`]'s `body_sha256`) run the text of `skill_md` (the whole
/// SKILL.md file)? True when the hash is the body's, or the body's with the
/// argument placeholders (`$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`) replaced by
/// nothing — Claude Code substitutes them, with the empty string when the load
/// had no arguments (decoders give no hash when arguments were substituted).
/// False means `stale`: the session ran another text of the skill.
pub fn skill_md_matches(skill_md: &str, body_sha256: &str) -> bool {
    let body = skill_md_body(skill_md);
    let want = body_sha256.trim().to_ascii_lowercase();
    if self::body_sha256(body) == want {
        return true;
    }
    let stripped = strip_placeholders(body);
    stripped != body && self::body_sha256(&stripped) == want
}

/// Does a skill body hold argument placeholders a harness substitutes?
pub fn has_placeholders(body: &str) -> bool {
    strip_placeholders(body) != body
}

/// `$ARGUMENTS`, `$ARGUMENTS[N]` and `$N` (one digit) removed.
fn strip_placeholders(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(a) = after.strip_prefix("ARGUMENTS") {
            let skip = match a.strip_prefix('[') {
                Some(b) => {
                    let digits = b.bytes().take_while(u8::is_ascii_digit).count();
                    if digits > 0 && b[digits..].starts_with(']') {
                        digits + 2
                    } else {
                        0
                    }
                }
                None => 0,
            };
            rest = &a[skip..];
        } else if after.as_bytes().first().is_some_and(u8::is_ascii_digit) {
            rest = &after[1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash of a body without CRs, taken line by line, is the hash of its
    /// normalised text.
    #[test]
    fn body_hashes_are_of_the_normalised_text() {
        let bodies = [
            "",
            "\n\n",
            "one line",
            "one line\n",
            "\u{feff}# Title\n\nText  \t\n\n- a\n- b \n\n\n",
            "\n  \n# T\n\tindented\n\n\nlast",
            "a\r\nb\rc\n",
            "trailing\t \t\n \n",
            "é 日本\n\u{feff}inner bom\n",
        ];
        for b in bodies {
            assert_eq!(
                body_sha256(b),
                hex(&Sha256::digest(normalize_body(b).as_bytes())),
                "{b:?}"
            );
        }
    }
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
            body_sha256: None,
        }
    }

    #[test]
    fn skill_md_body_is_after_frontmatter() {
        let md = "---\nname: x\ndescription: y\n---\n\n# X\n\nDo it.\n";
        assert_eq!(skill_md_body(md), "\n# X\n\nDo it.\n");
        assert_eq!(skill_md_body("# No front\n"), "# No front\n");
        assert_eq!(skill_md_body("---\nunterminated\n"), "---\nunterminated\n");
        // CRLF frontmatter, BOM
        assert_eq!(
            skill_md_body("\u{feff}---\r\nname: x\r\n---\r\nBody\r\n"),
            "Body\r\n"
        );
    }

    #[test]
    fn body_hash_normalises_only_line_ends_and_edges() {
        let a = body_sha256("\n# X\n\nDo it.\n");
        assert_eq!(a, body_sha256("# X\r\n\r\nDo it.   \r\n\r\n"));
        assert_eq!(a.len(), 64);
        assert_ne!(a, body_sha256("# X\n\nDo it now.\n"));
        assert_ne!(a, body_sha256("# X\nDo it.\n"));
        let md = "---\nname: x\n---\n\n# X\n\nDo it.\n";
        assert_eq!(skill_md_body_sha256(md), a);
        assert!(skill_md_matches(md, &a));
        assert!(skill_md_matches(md, &a.to_uppercase()));
        assert!(!skill_md_matches(
            md,
            &body_sha256("# X\n\nDo it differently.\n")
        ));
    }

    #[test]
    fn placeholders_substituted_with_nothing_still_match() {
        let md = "---\nname: r\n---\nRun `awk '{print $1}'` on $ARGUMENTS and $ARGUMENTS[0].\nCost: $ 5\n";
        let injected = "Run `awk '{print }'` on  and .\nCost: $ 5\n";
        assert!(skill_md_matches(md, &body_sha256(injected)));
        // an older harness that left the body untouched
        assert!(skill_md_matches(md, &body_sha256(skill_md_body(md))));
        assert!(has_placeholders(skill_md_body(md)));
        assert!(!has_placeholders("Cost: $ 5 and $x"));
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
