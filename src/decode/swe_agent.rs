//! Decoder for the `swe-agent` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct SweAgentDecoder;

impl Decoder for SweAgentDecoder {
    fn format(&self) -> &'static str {
        "swe-agent"
    }
    fn harness(&self) -> Harness {
        Harness::SweAgent
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format swe-agent: decoder pending"))
    }
}
