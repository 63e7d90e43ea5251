//! Decoder for the `gemini-chat` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct GeminiDecoder;

impl Decoder for GeminiDecoder {
    fn format(&self) -> &'static str {
        "gemini-chat"
    }
    fn harness(&self) -> Harness {
        Harness::Gemini
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format gemini-chat: decoder pending"))
    }
}
