//! Decoder for Claude Code `logs/chat.json` exports: a JSON array of session
//! records (a Stop-hook copy of the transcript, pretty-printed), formats note §1.1.
//!
//! The array is read element by element from a buffered reader (one record in
//! memory at a time) and each record goes through the session decoder's
//! handler. Locations are JSON pointers to the element (`/17`).

use super::claude_code::{record_from_value, ClaudeRecords};
use super::jsonl;
use super::{
    DecodeError, DecodeOptions, DecodeProblem, Decoder, Harness, Location, ProblemKind, Trajectory,
};
use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use std::fmt;
use std::io::BufReader;
use std::path::Path;

pub struct ClaudeChatJsonDecoder;

impl Decoder for ClaudeChatJsonDecoder {
    fn format(&self) -> &'static str {
        "claude-chat-json"
    }
    fn harness(&self) -> Harness {
        Harness::ClaudeCode
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        let h = jsonl::trim_start(head);
        if h.first() != Some(&b'[') {
            return 0;
        }
        let has = |tok: &[u8]| memchr::memmem::find(h, tok).is_some();
        if has(b"\"parentUuid\"") || has(b"\"sessionId\"") || has(b"\"isSidechain\"") {
            90
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        if opts.keep_content {
            decode_array::<true>(path)
        } else {
            decode_array::<false>(path)
        }
    }
}

fn decode_array<const K: bool>(path: &Path) -> Result<Trajectory, DecodeError> {
    let file = super::open_transcript(path)?;
    let traj = Trajectory::new(path.to_path_buf(), Harness::ClaudeCode, "claude-chat-json");
    let mut st = ClaudeRecords::<K>::new(traj, None);
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(256 * 1024, file));
    let mut index = 0usize;
    let res = serde::Deserializer::deserialize_seq(
        &mut de,
        Elements {
            st: &mut st,
            index: &mut index,
        },
    );
    match res.and_then(|()| de.end()) {
        Ok(()) => {}
        Err(e) if index == 0 && e.classify() != serde_json::error::Category::Eof => {
            return Err(DecodeError::new(
                path,
                Some(e.line() as u64),
                format!(
                    "not a JSON array of records ({})",
                    jsonl::describe_json_error(&e)
                ),
            ));
        }
        Err(e) => {
            // Cannot resynchronise inside an array: the rest is lost, and said so.
            let torn = e.classify() == serde_json::error::Category::Eof;
            st.traj.truncated |= torn;
            st.traj.problems.push(DecodeProblem {
                location: Location::pointer(format!("/{index}")),
                kind: if torn {
                    ProblemKind::TruncatedLastLine
                } else {
                    ProblemKind::Undecodable
                },
                detail: format!(
                    "{} at line {} column {}; the rest of the array is not read",
                    if torn {
                        "file ends inside the array"
                    } else {
                        "invalid JSON"
                    },
                    e.line(),
                    e.column()
                ),
            });
        }
    }
    Ok(st.finish())
}

struct Elements<'s, const K: bool> {
    st: &'s mut ClaudeRecords<K>,
    index: &'s mut usize,
}

impl<'de, const K: bool> Visitor<'de> for Elements<'_, K> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array of Claude Code records")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        // Each element is parsed to a Value first so that an odd element is one
        // counted problem, not the end of the file.
        while let Some(v) = seq.next_element::<serde_json::Value>()? {
            let loc = Location::pointer(format!("/{}", *self.index));
            *self.index += 1;
            match record_from_value::<K>(&v) {
                Ok(rec) if v.is_object() => self.st.record(rec, loc),
                Ok(_) => self.st.traj.problems.push(DecodeProblem {
                    location: loc,
                    kind: ProblemKind::Undecodable,
                    detail: "array element is not an object".into(),
                }),
                Err(e) => self.st.traj.problems.push(DecodeProblem {
                    location: loc,
                    kind: ProblemKind::Undecodable,
                    detail: jsonl::describe_json_error(&e),
                }),
            }
        }
        Ok(())
    }
}

impl<'de, const K: bool> DeserializeSeed<'de> for Elements<'_, K> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}
