//! Decoder for the `claude-chat-json` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct ClaudeChatJsonDecoder;

impl Decoder for ClaudeChatJsonDecoder {
    fn format(&self) -> &'static str {
        "claude-chat-json"
    }
    fn harness(&self) -> Harness {
        Harness::ClaudeCode
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format claude-chat-json: decoder pending"))
    }
}
