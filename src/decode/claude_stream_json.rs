//! Decoder for the `claude-stream-json` format.

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
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format claude-stream-json: decoder pending"))
    }
}
