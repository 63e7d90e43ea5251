//! Decoder for the `codex-rollout` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct CodexRolloutDecoder;

impl Decoder for CodexRolloutDecoder {
    fn format(&self) -> &'static str {
        "codex-rollout"
    }
    fn harness(&self) -> Harness {
        Harness::Codex
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format codex-rollout: decoder pending"))
    }
}
