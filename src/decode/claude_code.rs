//! Decoder for the `claude-code-jsonl` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct ClaudeCodeDecoder;

impl Decoder for ClaudeCodeDecoder {
    fn format(&self) -> &'static str {
        "claude-code-jsonl"
    }
    fn harness(&self) -> Harness {
        Harness::ClaudeCode
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format claude-code-jsonl: decoder pending"))
    }
}
