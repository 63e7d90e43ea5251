//! Decoder for the `codex-exec-json` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct CodexExecDecoder;

impl Decoder for CodexExecDecoder {
    fn format(&self) -> &'static str {
        "codex-exec-json"
    }
    fn harness(&self) -> Harness {
        Harness::Codex
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format codex-exec-json: decoder pending"))
    }
}
