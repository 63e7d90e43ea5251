//! Session-retro sidecars: `<file>.retro.yaml` beside a transcript (SPEC §5).
//!
//! ```yaml
//! loaded_skills: [goal, superpowers:brainstorming]   # authoritative when present
//! harness: claude-code
//! complete: true
//! ```
//!
//! Unknown keys and bad YAML are errors naming the sidecar and line (exit 2):
//! a sidecar that silently failed to apply would change which trajectories count.

use super::{DecodeError, Retro, Trajectory};
use std::path::{Path, PathBuf};

/// The sidecar path of a transcript: `<file>.retro.yaml`.
pub fn sidecar_path(transcript: &Path) -> PathBuf {
    let mut name = transcript
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".retro.yaml");
    transcript.with_file_name(name)
}

/// Whether a path is a retro sidecar (discovery skips them).
pub fn is_sidecar(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".retro.yaml"))
}

/// Parse a sidecar's text. `path` is only used in errors.
pub fn parse(path: &Path, text: &str) -> Result<Retro, DecodeError> {
    if text.trim().is_empty() {
        return Ok(Retro::default());
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(r) = parse_plain(text) {
        return Ok(r);
    }
    if let Some((line, _)) = crate::fsutil::yaml_too_deep(text, crate::fsutil::MAX_YAML_DEPTH) {
        return Err(DecodeError::new(
            path,
            Some(line as u64),
            format!(
                "invalid retro sidecar: `[` / `{{` nest more than {} deep",
                crate::fsutil::MAX_YAML_DEPTH
            ),
        ));
    }
    yaml_serde::from_str::<Retro>(text).map_err(|e| {
        let line = e.location().map(|l| l.line() as u64);
        let msg = e.to_string();
        let msg = msg.find(" at line ").map_or(&msg[..], |i| &msg[..i]);
        DecodeError::new(
            path,
            line,
            format!(
                "invalid retro sidecar: {}",
                crate::fsutil::redact_quotes(msg)
            ),
        )
    })
}

/// The sidecar in its plainest form, read without the YAML parser (a YAML
/// parse costs more than decoding a small transcript): one `key: value` line
/// per key — `loaded_skills: [a, b]`, `harness: a`, `complete: true|false` —
/// each key once, every name a plain word ([`plain_name`]). `None` for
/// anything else (comments, quotes, blank lines, other spacing, `\r`): the
/// YAML parser reads it, so the result and every error are what they were.
fn parse_plain(text: &str) -> Option<Retro> {
    let mut r = Retro::default();
    let body = text.strip_suffix('\n').unwrap_or(text);
    for line in body.split('\n') {
        let (key, value) = line.split_once(": ")?;
        match key {
            "loaded_skills" if r.loaded_skills.is_none() => {
                let inner = value.strip_prefix('[')?.strip_suffix(']')?;
                let mut names = Vec::new();
                if !inner.is_empty() {
                    for name in inner.split(", ") {
                        names.push(plain_name(name)?.to_string());
                    }
                }
                r.loaded_skills = Some(names);
            }
            "harness" if r.harness.is_none() => r.harness = Some(plain_name(value)?.to_string()),
            "complete" if r.complete.is_none() => {
                r.complete = Some(match value {
                    "true" => true,
                    "false" => false,
                    _ => return None,
                })
            }
            _ => return None,
        }
    }
    Some(r)
}

/// A name YAML reads as that very string in a flow sequence or as a plain
/// value: a letter, then letters, digits, `-`, `_` and `.`; not a word YAML
/// reads as a boolean or null.
fn plain_name(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_alphabetic()
        || !b
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
    {
        return None;
    }
    const WORDS: &[&str] = &["null", "true", "false", "yes", "no", "on", "off", "y", "n"];
    if WORDS.iter().any(|w| s.eq_ignore_ascii_case(w)) {
        return None;
    }
    Some(s)
}

/// Read `<path>.retro.yaml` when present and apply it: the sidecar is kept in
/// [`Trajectory::retro`] (its `loaded_skills` is what [`super::skills::first_load`]
/// trusts) and its `complete` overrides the decoder's.
pub fn apply(traj: &mut Trajectory) -> Result<(), DecodeError> {
    let side = sidecar_path(&traj.path);
    let text = match crate::fsutil::read_text(&side, crate::fsutil::MAX_SIDE_FILE_BYTES) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => return Ok(()),
        Err(e) => return Err(DecodeError::new(&side, None, format!("retro sidecar: {e}"))),
    };
    let retro = parse(&side, &text)?;
    if let Some(c) = retro.complete {
        traj.complete = c;
    }
    traj.retro = Some(retro);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sidecar_names() {
        assert_eq!(
            sidecar_path(Path::new("a/s.jsonl")),
            PathBuf::from("a/s.jsonl.retro.yaml")
        );
        assert!(is_sidecar(Path::new("a/s.jsonl.retro.yaml")));
        assert!(!is_sidecar(Path::new("a/s.jsonl")));
    }

    /// The plain form reads as the YAML parser reads it; anything else is
    /// left to the YAML parser.
    #[test]
    fn plain_sidecars_read_as_yaml_does() {
        let yaml = |t: &str| yaml_serde::from_str::<Retro>(t).ok();
        let plain = [
            "loaded_skills: [goal]\n",
            "loaded_skills: [goal, bench-skill-1, a.b_c-d, X9]\ncomplete: false\n",
            "loaded_skills: []\n",
            "harness: claude-code\ncomplete: true\nloaded_skills: [goal]",
            "complete: true\n",
            "harness: codex\n",
        ];
        for t in plain {
            let fast = parse_plain(t);
            assert!(fast.is_some(), "{t:?}");
            assert_eq!(fast, yaml(t), "{t:?}");
            assert_eq!(parse(Path::new("x"), t).ok(), fast, "{t:?}");
        }
        let other = [
            "loaded_skills: [goal]\nloaded_skills: [x]\n",
            "loaded_skills: [true]\n",
            "loaded_skills: [Null, b]\n",
            "loaded_skills: [no]\n",
            "loaded_skills: [1a]\n",
            "loaded_skills: [a,b]\n",
            "loaded_skills: [superpowers:brainstorming]\n",
            "loaded_skills: ['a']\n",
            "loaded_skills: [a] # c\n",
            "loaded_skills:  [a]\n",
            "loaded_skills: [a, ]\n",
            "loaded_skills: [[a]]\n",
            "loaded_skills: a\n",
            "harness: ~\n",
            "harness: on\n",
            "harness: 12\n",
            "complete: yes\n",
            "complete: True\n",
            "bogus: 1\n",
            "loaded_skills: [a]\r\n",
            "loaded_skills: [a]\n\n",
            "\nloaded_skills: [a]\n",
            " loaded_skills: [a]\n",
            "complete: true\n\n",
        ];
        for t in other {
            assert_eq!(parse_plain(t), None, "{t:?}");
        }
    }

    #[test]
    fn parses_and_rejects() {
        let r = parse(Path::new("x"), "loaded_skills: [goal]\ncomplete: false\n").unwrap();
        assert_eq!(r.loaded_skills, Some(vec!["goal".to_string()]));
        assert_eq!(r.complete, Some(false));
        let e = parse(
            Path::new("x.retro.yaml"),
            "loaded_skills: [goal]\nbogus: 1\n",
        )
        .unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = parse(Path::new("x.retro.yaml"), "complete: [\n").unwrap_err();
        assert!(e.line.is_some());
        assert_eq!(parse(Path::new("x"), "").unwrap(), Retro::default());
    }
}
