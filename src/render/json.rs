//! The JSON of `gate --format json`: one envelope for every count of skills
//! (none, one, several), published as `schemas/gate.schema.json`:
//!
//! ```json
//! {"version": 1, "exit_code": 0, "skills": [ /* SPEC §7 objects */ ]}
//! ```
//!
//! `version` changes only when a field is renamed or removed (fields may be
//! added at any time); `exit_code` is the process's exit code (the worst of
//! the skills'); `skills` holds one SPEC §7 object per skill judged, `[]`
//! when nothing was gated (for example `--changed-since` found no change).

use super::Renderer;
use crate::score::{worst_exit, SkillVerdict};
use serde::{Deserialize, Serialize};

/// The version of the envelope (and of the per-skill shape inside it).
pub const JSON_VERSION: u32 = 1;

/// The top level of `gate --format json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// [`JSON_VERSION`].
    pub version: u32,
    /// The exit code of the run (0 pass, 1 fail-closed, 3 nothing to measure).
    pub exit_code: u8,
    /// One verdict per skill, in the order they were judged.
    pub skills: Vec<SkillVerdict>,
}

impl Envelope {
    pub fn new(verdicts: &[SkillVerdict]) -> Envelope {
        Envelope {
            version: JSON_VERSION,
            exit_code: worst_exit(verdicts) as u8,
            skills: verdicts.to_vec(),
        }
    }
}

/// Borrowing twin of [`Envelope`] for rendering without a copy.
#[derive(Serialize)]
struct EnvelopeRef<'a> {
    version: u32,
    exit_code: u8,
    skills: &'a [SkillVerdict],
}

/// Pretty-printed JSON of the verdicts, in the envelope.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json;

fn envelope(verdicts: &[SkillVerdict]) -> EnvelopeRef<'_> {
    EnvelopeRef {
        version: JSON_VERSION,
        exit_code: worst_exit(verdicts) as u8,
        skills: verdicts,
    }
}

impl Renderer for Json {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        // Serializing plain data with string keys cannot fail.
        let mut text = serde_json::to_string_pretty(&envelope(verdicts)).unwrap_or_default();
        text.push('\n');
        text
    }

    fn write_to(
        &self,
        verdicts: &[SkillVerdict],
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        use std::io::Write;
        // serde_json writes many small pieces: buffer them here, behind a
        // concrete type, rather than call through `dyn Write` for each.
        let mut w = std::io::BufWriter::with_capacity(1 << 16, out);
        serde_json::to_writer_pretty(&mut w, &envelope(verdicts))?;
        w.write_all(b"\n")?;
        w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_json_is_the_rendered_json() {
        let mut out = Vec::new();
        Json.write_to(&[], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), Json.render(&[]));
    }

    #[test]
    fn nothing_gated_is_still_an_envelope() {
        let v: serde_json::Value = serde_json::from_str(&Json.render(&[])).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"version": 1, "exit_code": 0, "skills": []})
        );
        let back: Envelope = serde_json::from_value(v).unwrap();
        assert_eq!(back, Envelope::new(&[]));
    }
}
