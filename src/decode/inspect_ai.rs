//! Decoder for the `inspect-ai` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct InspectAiDecoder;

impl Decoder for InspectAiDecoder {
    fn format(&self) -> &'static str {
        "inspect-ai"
    }
    fn harness(&self) -> Harness {
        Harness::InspectAi
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format inspect-ai: decoder pending"))
    }
}
