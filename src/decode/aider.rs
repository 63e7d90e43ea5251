//! Decoder for the `aider` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct AiderDecoder;

impl Decoder for AiderDecoder {
    fn format(&self) -> &'static str {
        "aider"
    }
    fn harness(&self) -> Harness {
        Harness::Aider
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format aider: decoder pending"))
    }
}
