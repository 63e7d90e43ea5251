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

use super::fragments::Fragments;
use super::pretty::Overflow;
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
        if verdicts.len() < 2 {
            envelope(verdicts)
                .serialize(&mut serde_json::Serializer::with_formatter(
                    &mut w,
                    Pretty::at_level(0),
                ))
                .map_err(std::io::Error::from)?;
        } else {
            write_envelope_parallel(&mut w, verdicts)?;
        }
        w.write_all(b"\n")?;
        w.flush()
    }
}

/// The envelope byte for byte as `to_writer_pretty` writes it, with the
/// skills' objects serialized on every thread, a few at a time and written
/// in order. 32 skills' JSON is tens of megabytes: on one thread it was a
/// fifth of a 32-skill gate's time. One skill's object grows with the corpus
/// (23 MB over 3,000 sessions): memory keeps its first [`KEEP`] bytes per
/// thread, the rest waits in an anonymous temporary file until its turn.
fn write_envelope_parallel(
    w: &mut impl std::io::Write,
    verdicts: &[SkillVerdict],
) -> std::io::Result<()> {
    write_envelope_parallel_with(w, verdicts, KEEP, BLOCK)
}

/// [`write_envelope_parallel`] keeping `keep` bytes of a skill's text in
/// memory and writing the rest out `block` bytes at a time.
fn write_envelope_parallel_with(
    w: &mut impl std::io::Write,
    verdicts: &[SkillVerdict],
    keep: usize,
    block: usize,
) -> std::io::Result<()> {
    use rayon::prelude::*;
    let e = envelope(verdicts);
    write!(
        w,
        "{{\n  \"version\": {},\n  \"exit_code\": {},\n  \"skills\": [",
        e.version, e.exit_code
    )?;
    // One buffer per thread, reused from chunk to chunk: a new buffer per
    // skill made the kernel clear fresh pages for every skill's text.
    let per = rayon::current_num_threads().max(1);
    let fragments = Fragments::new();
    let mut bufs: Vec<(Vec<u8>, Option<Overflow>)> = (0..per)
        .map(|_| (Vec::new(), Overflow::new(keep, block)))
        .collect();
    for (c, chunk) in verdicts.chunks(per).enumerate() {
        chunk
            .par_iter()
            .zip(bufs.par_iter_mut())
            .try_for_each(|(v, (buf, over))| nested_text(v, buf, over.as_mut(), &fragments))?;
        for (k, (t, over)) in bufs.iter_mut().take(chunk.len()).enumerate() {
            w.write_all(if c == 0 && k == 0 {
                b"\n    "
            } else {
                b",\n    "
            })?;
            match over {
                Some(o) => o.write_to(t, w)?,
                None => w.write_all(t)?,
            }
        }
    }
    w.write_all(b"\n  ]\n}")
}

/// Bytes of a skill's JSON kept in memory per thread (most skills' whole
/// text over a corpus of a few hundred sessions), and the blocks the rest
/// is written out in.
const KEEP: usize = 2 << 20;
const BLOCK: usize = 256 << 10;

/// One skill's pretty object as it stands two levels deep in the envelope
/// (every line after the first indented by two more levels).
fn nested_text(
    v: &SkillVerdict,
    buf: &mut Vec<u8>,
    over: Option<&mut Overflow>,
    fragments: &Fragments,
) -> Result<(), serde_json::Error> {
    buf.clear();
    super::pretty::to_vec_pretty_spilling(v, buf, 2, over, Some(fragments))
}

/// `serde_json::ser::PrettyFormatter` with a two-space indent, byte for byte,
/// starting at any depth, and writing each line break and its indentation
/// in one piece (the pretty formatter writes the indent a level at a time:
/// tens of millions of small writes for 32 skills' JSON).
pub(crate) struct Pretty {
    level: usize,
    has_value: bool,
}

impl Pretty {
    pub(crate) fn at_level(level: usize) -> Pretty {
        Pretty {
            level,
            has_value: false,
        }
    }

    /// A line break (after a comma when not `first`) and the indentation.
    fn line<W: ?Sized + std::io::Write>(&self, w: &mut W, comma: bool) -> std::io::Result<()> {
        const LINE: &[u8] = b",\n                                                                ";
        let start = usize::from(!comma);
        let want = 2 + 2 * self.level;
        if want <= LINE.len() {
            w.write_all(&LINE[start..want])
        } else {
            w.write_all(&LINE[start..2])?;
            for _ in 0..self.level {
                w.write_all(b"  ")?;
            }
            Ok(())
        }
    }
}

impl Pretty {
    /// `[` or `{`: one level deeper, nothing written inside yet.
    fn open<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(c)
    }
    /// `]` or `}`: back a level, on its own line after any value.
    fn close<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(w, false)?;
        }
        w.write_all(c)
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(w, !first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(w, !first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
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

    /// Verdicts of skills named `names`, each over two small trajectories
    /// (the same two paths for every skill when `shared`: their lists are
    /// then the same text).
    fn verdicts_over(names: &[&str], shared: bool) -> Vec<SkillVerdict> {
        use crate::label::tests::{constraint, load, shell, traj};
        use crate::label::{label_all, CompiledSet, ScopeStart};
        use crate::score::*;
        let cs = vec![
            constraint("c1", "forbid: {git: push, args: [\"--force\"]}\n"),
            constraint(
                "c2",
                "when: {git: commit}\nrequire: {command: \"*test*\"}\n",
            ),
        ];
        let push = &["git", "push", "--force"][..];
        let commit = &["git", "commit", "-m", "x"][..];
        let trajs = [
            traj(vec![load("s"), shell("git push --force", &[push])]),
            traj(vec![load("s"), shell("git commit -m x", &[commit])]),
        ];
        let set = CompiledSet::compile(&cs).unwrap();
        let pairs: Vec<_> = trajs
            .iter()
            .map(|t| (t, ScopeStart { load: Some(0) }))
            .collect();
        names
            .iter()
            .map(|name| {
                let valid: Vec<std::sync::Arc<str>> = (0..trajs.len())
                    .map(|i| {
                        let owner = if shared { "shared" } else { name };
                        format!("t{i}\n\"{owner}\".jsonl").into()
                    })
                    .collect();
                score(ScoreInput {
                    skill: SkillRef {
                        name: name.to_string(),
                        path: format!("skills/{name}/SKILL.md"),
                    },
                    constraints: &cs,
                    columns: columns(&valid, label_all(&set, &pairs)),
                    trajectories: TrajectorySet {
                        valid: valid.into(),
                        ..Default::default()
                    },
                    source: SourceInfo {
                        kind: "lockfile".into(),
                        lockfile: None,
                        drift: false,
                    },
                    waivers: &[],
                    thresholds: Thresholds::default(),
                })
            })
            .collect()
    }

    #[test]
    fn skills_written_in_parallel_are_the_pretty_envelope_byte_for_byte() {
        for n in [0, 1, 2, 3, 5] {
            let names: Vec<String> = (0..n).map(|i| format!("skill-{i}")).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            for shared in [false, true] {
                let v = verdicts_over(&names, shared);
                let mut expected = serde_json::to_string_pretty(&envelope(&v)).unwrap();
                expected.push('\n');
                let mut out = Vec::new();
                Json.write_to(&v, &mut out).unwrap();
                assert_eq!(String::from_utf8(out).unwrap(), expected, "{n} skills");
                assert_eq!(Json.render(&v), expected);
                if n > 1 {
                    let mut out = Vec::new();
                    write_envelope_parallel(&mut out, &v).unwrap();
                    assert_eq!(String::from_utf8(out).unwrap() + "\n", expected);
                    // Texts written out to the temporary file: after a few
                    // bytes, a byte at a time, in large blocks, or never.
                    for (keep, block) in [(0, 1), (100, 7), (3, 1 << 20), (usize::MAX, 1)] {
                        let mut out = Vec::new();
                        write_envelope_parallel_with(&mut out, &v, keep, block).unwrap();
                        assert_eq!(
                            String::from_utf8(out).unwrap() + "\n",
                            expected,
                            "{n} skills, keep {keep}, block {block}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_fast_pretty_formatter_is_serde_jsons_at_any_depth() {
        let mut deep = serde_json::json!({"a": [1, {"b": "x\ny"}, [], {}], "c": null});
        for i in 0..40 {
            deep = serde_json::json!({ format!("k{i}"): [deep, i, "s"] });
        }
        let expected = serde_json::to_string_pretty(&deep).unwrap();
        let mut out = Vec::new();
        deep.serialize(&mut serde_json::Serializer::with_formatter(
            &mut out,
            Pretty::at_level(0),
        ))
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), expected);
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
