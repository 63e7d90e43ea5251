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
