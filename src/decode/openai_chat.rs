//! Decoder for the `openai-chat` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct OpenAiChatDecoder;

impl Decoder for OpenAiChatDecoder {
    fn format(&self) -> &'static str {
        "openai-chat"
    }
    fn harness(&self) -> Harness {
        Harness::OpenAiChat
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format openai-chat: decoder pending"))
    }
}
