//! Decoder for the `openhands` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct OpenHandsDecoder;

impl Decoder for OpenHandsDecoder {
    fn format(&self) -> &'static str {
        "openhands"
    }
    fn harness(&self) -> Harness {
        Harness::OpenHands
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format openhands: decoder pending"))
    }
}
