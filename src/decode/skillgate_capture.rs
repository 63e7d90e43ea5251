//! `skillgate-capture`: skillgate's own normalized-trajectory format, version 1
//! (`docs/capture.md`), written by `skillgate capture` and read back like any
//! other transcript.
//!
//! JSON Lines. The first line is the header, every other line one record:
//!
//! ```text
//! {"skillgate_capture":{"version":1,"harness":"claude-code","format":"claude-code-jsonl",
//!   "harness_version":"2.0.14","session_id":"…","cwd":"/repo","git_branch":"main",
//!   "complete":true,"truncated":false,"source":{"path":"…/abc.jsonl","sha256":"…","bytes":123},
//!   "skills":[{"name":"goal","body_sha256":"…"}],"events":42,"problems":0,"redacted":1}}
//! {"event":{"index":0,"location":{"line":3},"role":"user","action":{"kind":"message"},…}}
//! {"problem":{"location":{"line":17},"kind":"undecodable","detail":"…"}}
//! ```
//!
//! - An event is [`Event`] as serde serializes it, so a field the model gains
//!   flows through without touching this file. Its `location` is the one in
//!   the ORIGINAL transcript (file, line or JSON pointer), so the gate's
//!   evidence over a capture cites the same line as over the raw file.
//! - Only actions: the model never holds message text, tool output or file
//!   contents outside [`crate::decode::EventContent`], which is not
//!   serialized. A shell action's `line` is rebuilt from its simple commands
//!   (heredoc bodies are data, not commands, and are dropped). Every string of
//!   an action — commands, arguments, paths, URLs — has passed through
//!   [`crate::redact`] (`[REDACTED:<rule>]`); the header counts them.
//! - Weak skill loads (a read of a SKILL.md) are not stored: reading the
//!   capture derives them again at the same places, as for every format.
//! - The header's `events` count lets a reader tell a capture cut short at a
//!   line boundary (treated as truncated) from a whole one.

use super::jsonl::{self, JsonlLines};
use super::model::*;
use super::{DecodeError, Decoder};
use crate::redact;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The format name (`--input-format skillgate-capture`).
pub const FORMAT: &str = "skillgate-capture";
/// The version this build writes and reads.
pub const VERSION: u32 = 1;
/// The header's key: the first bytes of every capture.
const HEADER_KEY: &str = "skillgate_capture";

/// The first line of a capture.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub version: u32,
    pub harness: Harness,
    /// The original transcript's format (`claude-code-jsonl`, `codex-rollout`…).
    pub format: String,
    #[serde(default)]
    pub harness_version: Option<String>,
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub git_branch: Option<String>,
    pub complete: bool,
    #[serde(default)]
    pub truncated: bool,
    pub source: Source,
    /// Skills the session loaded, with the sha256 of the body it was given
    /// where the transcript carried it (stale detection, SPEC §5).
    #[serde(default)]
    pub skills: Vec<SkillBody>,
    /// Further files read as part of the session (subagent files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_files: Vec<PathBuf>,
    /// How many event and problem records follow.
    pub events: usize,
    #[serde(default)]
    pub problems: usize,
    /// How many secrets were replaced by `[REDACTED:<rule>]`.
    #[serde(default)]
    pub redacted: usize,
}

/// The transcript a capture was made from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Source {
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
}

/// A loaded skill and the sha256 of its injected body, when known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillBody {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_sha256: Option<String>,
}

/// One line of a capture.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Record {
    #[serde(rename = "skillgate_capture")]
    Header(Box<Header>),
    Event(Box<Event>),
    Problem(DecodeProblem),
}

/// What [`encode`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Encoded {
    pub bytes: Vec<u8>,
    pub header: Option<Header>,
    /// Rule ids of the replaced secrets, one per secret.
    pub redactions: Vec<&'static str>,
}

/// Encode a decoded trajectory (as [`super::decode_path`] returns it) as a
/// capture. `source` describes the original file.
pub fn encode(traj: &Trajectory, source: Source) -> Result<Encoded, serde_json::Error> {
    let mut hits = Vec::new();
    let mut lines: Vec<String> = Vec::with_capacity(traj.events.len() + 1);
    let mut skills: Vec<SkillBody> = Vec::new();
    let mut n_events = 0usize;
    for e in &traj.events {
        if let Action::SkillLoad { via, .. } = &e.action {
            if via.is_weak() {
                continue;
            }
        }
        let mut v = serde_json::to_value(e)?;
        if let Some(action) = v.get_mut("action") {
            note_skill(action, &mut skills);
            redact_value(action, &mut hits);
            rebuild_shell_line(action);
        }
        if let Some(Value::String(f)) = v.pointer_mut("/location/file") {
            redact_string(f, &mut hits);
        }
        lines.push(serde_json::to_string(&serde_json::json!({ "event": v }))?);
        n_events += 1;
    }
    for p in &traj.problems {
        lines.push(serde_json::to_string(&Record::Problem(p.clone()))?);
    }
    let header = Header {
        version: VERSION,
        harness: traj.harness,
        format: traj.format.clone(),
        harness_version: traj.harness_version.clone(),
        session_id: traj.session_id.clone(),
        cwd: traj.cwd.clone(),
        git_branch: traj.git_branch.clone(),
        complete: traj.complete,
        truncated: traj.truncated,
        source,
        skills,
        extra_files: traj.extra_files.clone(),
        events: n_events,
        problems: traj.problems.len(),
        redacted: hits.len(),
    };
    let mut out = serde_json::to_string(&Record::Header(Box::new(header.clone())))?;
    out.push('\n');
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    Ok(Encoded {
        bytes: out.into_bytes(),
        header: Some(header),
        redactions: hits,
    })
}

/// Record a skill load's name and any `*sha256` field it carries.
fn note_skill(action: &Value, skills: &mut Vec<SkillBody>) {
    if action.get("kind").and_then(Value::as_str) != Some("skill-load") {
        return;
    }
    let Some(name) = action.get("name").and_then(Value::as_str) else {
        return;
    };
    let sha = action.as_object().and_then(|o| {
        o.iter()
            .find(|(k, v)| k.ends_with("sha256") && v.is_string())
            .and_then(|(_, v)| v.as_str().map(str::to_string))
    });
    match skills.iter_mut().find(|s| s.name == name) {
        Some(s) => {
            if s.body_sha256.is_none() {
                s.body_sha256 = sha;
            }
        }
        None => skills.push(SkillBody {
            name: name.to_string(),
            body_sha256: sha,
        }),
    }
}

fn redact_string(s: &mut String, hits: &mut Vec<&'static str>) {
    let r = redact::redact_counted(s);
    if r.count() > 0 {
        hits.extend(r.hits);
        *s = r.text.into_owned();
    }
}

/// Redact every string of an action. A simple command (`text` + `argv`) is
/// redacted as a whole first; a word of its `argv` or git arguments that no
/// longer appears in the redacted text was part of a secret (a password after
/// `--password`, `user:pass` after `curl -u`) and is replaced too. Those
/// derived replacements are not counted again.
fn redact_value(v: &mut Value, hits: &mut Vec<&'static str>) {
    match v {
        Value::String(s) => redact_string(s, hits),
        Value::Array(a) => a.iter_mut().for_each(|x| redact_value(x, hits)),
        Value::Object(o) => {
            let is_command = o.contains_key("argv") && o.get("text").is_some_and(Value::is_string);
            if !is_command {
                let shell = o.get("kind").and_then(Value::as_str) == Some("shell");
                for (k, x) in o.iter_mut() {
                    // enum tags, and a shell line (rebuilt from its commands), aside
                    if k != "kind" && k != "op" && k != "via" && !(shell && k == "line") {
                        redact_value(x, hits);
                    }
                }
                return;
            }
            let original = o["text"].as_str().unwrap_or_default().to_string();
            let r = redact::redact_counted(&original);
            let first = r.hits.first().copied();
            let red = r.text.into_owned();
            hits.extend(r.hits);
            for (k, x) in o.iter_mut() {
                if k == "text" {
                    *x = Value::String(red.clone());
                } else {
                    derived(x, &red, first);
                }
            }
        }
        _ => {}
    }
}

/// Redact the words derived from a command whose redacted text is `red`.
fn derived(v: &mut Value, red: &str, rule: Option<&'static str>) {
    match v {
        Value::String(s) => {
            let own = redact::redact(s);
            if own != *s {
                *s = own;
            } else if let Some(rule) = rule {
                if s.chars().count() >= 4 && !red.contains(s.as_str()) {
                    *s = format!("{}{rule}]", redact::MARKER);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| derived(x, red, rule)),
        Value::Object(o) => o.values_mut().for_each(|x| derived(x, red, rule)),
        _ => {}
    }
}

/// A shell action's `line` becomes its simple commands joined by `; `: the
/// commands are what the gate judges; heredoc bodies and other data in the
/// raw line are content and are not kept.
fn rebuild_shell_line(action: &mut Value) {
    if action.get("kind").and_then(Value::as_str) != Some("shell") {
        return;
    }
    let joined = action
        .get("commands")
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter()
                .filter_map(|c| c.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default();
    if let Some(l) = action.get_mut("line") {
        *l = Value::String(joined);
    }
}

/// Reads captures.
pub struct SkillgateCaptureDecoder;

impl Decoder for SkillgateCaptureDecoder {
    fn format(&self) -> &'static str {
        FORMAT
    }
    /// The real harness is in each capture's header; this is only the
    /// default for callers that filter decoders by harness.
    fn harness(&self) -> Harness {
        Harness::ClaudeCode
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        let line = jsonl::first_line(head);
        let Some(rest) = line.strip_prefix(b"{") else {
            return 0;
        };
        let rest = jsonl::trim_start(rest);
        if rest.starts_with(format!("\"{HEADER_KEY}\"").as_bytes()) {
            100
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, _opts: &super::DecodeOptions) -> Result<Trajectory, DecodeError> {
        let mut lines = JsonlLines::open(path)?;
        let header = {
            let Some(first) = lines.next_line()? else {
                return Err(DecodeError::new(
                    path,
                    Some(1),
                    "empty skillgate capture: no header",
                ));
            };
            let number = first.number;
            let rec: Record = serde_json::from_slice(first.bytes).map_err(|e| {
                DecodeError::new(
                    path,
                    Some(number),
                    format!(
                        "not a skillgate capture header ({})",
                        jsonl::describe_json_error(&e)
                    ),
                )
            })?;
            match rec {
                Record::Header(h) => *h,
                _ => {
                    return Err(DecodeError::new(
                        path,
                        Some(number),
                        "a skillgate capture starts with its header",
                    ))
                }
            }
        };
        if header.version != VERSION {
            return Err(DecodeError::new(
                path,
                Some(1),
                format!(
                    "skillgate capture version {} is not readable by this skillgate (reads version {VERSION}); upgrade skillgate",
                    header.version
                ),
            ));
        }
        let mut traj = Trajectory::new(path.to_path_buf(), header.harness, FORMAT);
        traj.harness_version = header.harness_version.clone();
        traj.session_id = header.session_id.clone();
        traj.cwd = header.cwd.clone();
        traj.git_branch = header.git_branch.clone();
        traj.extra_files = header.extra_files.clone();
        let mut body = Trajectory::new(path.to_path_buf(), header.harness, FORMAT);
        while let Some(line) = lines.next_line()? {
            match line.parse::<Record>(&mut body) {
                Some(Record::Event(e)) => traj.events.push(*e),
                Some(Record::Problem(p)) => traj.problems.push(p),
                Some(Record::Header(_)) => body.problems.push(DecodeProblem {
                    location: line.location(),
                    kind: ProblemKind::Undecodable,
                    detail: "a second capture header".into(),
                }),
                None => {}
            }
        }
        // Problems of the capture file itself (a damaged capture) count like
        // any undecodable record; a cut-short capture is a truncated session.
        let short = traj.events.len() < header.events;
        traj.problems.append(&mut body.problems);
        traj.truncated = header.truncated || body.truncated || short;
        traj.complete = header.complete && !body.truncated && !short;
        Ok(traj)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn traj() -> Trajectory {
        let mut t = Trajectory::new(
            "/h/s.jsonl".into(),
            Harness::ClaudeCode,
            "claude-code-jsonl",
        );
        t.session_id = Some("abc".into());
        t.complete = true;
        let secret = format!("Pw{}", "x9Q".repeat(6));
        let line = format!("cat > notes.md <<EOF\nCANARY body\nEOF\nmysql -uroot -p{secret} db");
        let sh = crate::decode::shell::parse_line(&line);
        let mut e = Event::new(Location::line(4), Role::Assistant, Action::Shell(sh));
        e.tool = Some("Bash".into());
        t.events.push(e);
        t.events.push(Event::new(
            Location::line(5),
            Role::Assistant,
            Action::SkillLoad {
                name: "goal".into(),
                via: LoadVia::SkillTool,
                body_sha256: Some("ab".repeat(32)),
            },
        ));
        t.events.push(Event::new(
            Location::line(6),
            Role::Assistant,
            Action::SkillLoad {
                name: "other".into(),
                via: LoadVia::SkillFileRead,
                body_sha256: None,
            },
        ));
        t
    }

    fn source() -> Source {
        Source {
            path: "/h/s.jsonl".into(),
            sha256: "0".repeat(64),
            bytes: 1,
        }
    }

    #[test]
    fn round_trips_without_content_or_secrets() {
        let t = traj();
        let enc = encode(&t, source()).unwrap();
        let text = String::from_utf8(enc.bytes.clone()).unwrap();
        assert!(!text.contains("CANARY"), "{text}");
        assert!(!text.contains("x9Qx9Q"), "{text}");
        assert!(text.contains("[REDACTED:mysql-password]"), "{text}");
        assert_eq!(enc.redactions, ["mysql-password"]);
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.jsonl");
        std::fs::write(&p, &enc.bytes).unwrap();
        let head = &enc.bytes[..200.min(enc.bytes.len())];
        assert_eq!(SkillgateCaptureDecoder.sniff(&p, head), 100);
        let back = crate::decode::decode_path(&p, None, &Default::default()).unwrap();
        assert_eq!(back.format, FORMAT);
        assert_eq!(back.session_id.as_deref(), Some("abc"));
        assert!(back.complete && !back.truncated);
        // the weak load was dropped, not re-derived (no SKILL.md read here)
        assert_eq!(back.events.len(), 2);
        assert_eq!(back.events[0].location, Location::line(4));
        let Action::Shell(sh) = &back.events[0].action else {
            panic!()
        };
        assert_eq!(sh.commands.len(), 2);
        assert!(
            sh.line
                .contains("mysql -uroot -p[REDACTED:mysql-password] db"),
            "{}",
            sh.line
        );
        assert!(
            sh.commands[1].argv.iter().all(|a| !a.contains("x9Q")),
            "{:?}",
            sh.commands[1].argv
        );
        let h = enc.header.unwrap();
        assert_eq!(h.skills[0].name, "goal");
        assert_eq!(
            h.skills[0].body_sha256.as_deref(),
            Some("ab".repeat(32).as_str())
        );
        // model fields flow through serde: the load keeps its body hash
        let Action::SkillLoad { body_sha256, .. } = &back.events[1].action else {
            panic!()
        };
        assert_eq!(body_sha256.as_deref(), Some("ab".repeat(32).as_str()));
    }

    #[test]
    fn a_cut_short_capture_is_truncated_and_a_bad_header_is_an_error() {
        let enc = encode(&traj(), source()).unwrap();
        let text = String::from_utf8(enc.bytes).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.jsonl");
        let first_two: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        std::fs::write(&p, first_two).unwrap();
        let t = SkillgateCaptureDecoder
            .decode(&p, &Default::default())
            .unwrap();
        assert!(t.truncated && !t.complete);
        std::fs::write(&p, text.replacen("\"version\":1", "\"version\":9", 1)).unwrap();
        let e = SkillgateCaptureDecoder
            .decode(&p, &Default::default())
            .unwrap_err();
        assert_eq!(e.line, Some(1));
        assert!(e.message.contains("version 9"), "{}", e.message);
    }
}
