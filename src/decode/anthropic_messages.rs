//! Decoder for the `anthropic-messages` format.

use super::{DecodeError, DecodeOptions, Decoder, Harness, Trajectory};
use std::path::Path;

pub struct AnthropicMessagesDecoder;

impl Decoder for AnthropicMessagesDecoder {
    fn format(&self) -> &'static str {
        "anthropic-messages"
    }
    fn harness(&self) -> Harness {
        Harness::AnthropicMessages
    }
    fn sniff(&self, _path: &Path, _head: &[u8]) -> u8 {
        0
    }
    fn decode(&self, path: &Path, _opts: &DecodeOptions) -> Result<Trajectory, DecodeError> {
        Err(DecodeError::new(path, None, "format anthropic-messages: decoder pending"))
    }
}
