//! Mapping of harness tool calls (name + JSON input) to normalized actions,
//! shared by the decoders.

use super::model::Action;

/// The action of a tool call with this raw name and input.
pub fn action_for_tool(_name: &str, _input: &serde_json::Value) -> Action {
    Action::Other
}
