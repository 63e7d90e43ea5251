//! Decoder for `claude -p --output-format stream-json` (the SDK message stream,
//! formats note §1.9): a `system`/`init` line (session id, cwd, version), then
//! `assistant` / `user` messages in the session-file shape (snake_case
//! `tool_use_result`, `parent_tool_use_id` for subagent messages), optional
//! `stream_event` partials, and a final `result` line that marks completion.
//! Records go through the session decoder's handler.

use super::claude_code::{read_jsonl_into, ClaudeRecords};
use super::jsonl;
use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct ClaudeStreamJsonDecoder;

impl Decoder for ClaudeStreamJsonDecoder {
    fn format(&self) -> &'static str {
        "claude-stream-json"
    }
    fn harness(&self) -> Harness {
        Harness::ClaudeCode
    }
    fn sniff(&self, _path: &Path, head: &[u8]) -> u8 {
        if !jsonl::looks_like_jsonl(head) {
            return 0;
        }
        let has = |tok: &[u8]| jsonl::lines_contain(head, 8, tok);
        if has(b"\"parent_tool_use_id\"") || has(b"\"claude_code_version\"") {
            95
        } else {
            0
        }
    }
    fn decode(&self, path: &Path, opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        if opts.keep_content {
            decode_stream::<true>(path)
        } else {
            decode_stream::<false>(path)
        }
    }
}

fn decode_stream<const K: bool>(path: &Path) -> Result<Trajectory, DecodeError> {
    let traj = Trajectory::new(
        path.to_path_buf(),
        Harness::ClaudeCode,
        "claude-stream-json",
    );
    let mut st = ClaudeRecords::<K>::new(traj, None);
    read_jsonl_into(path, &mut st)?;
    Ok(st.finish())
}
