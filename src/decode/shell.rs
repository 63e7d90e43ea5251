//! Shell lines → simple commands, git operations and file effects.
//! Quoted text is never split or executed.

use super::model::ShellAction;

/// Parse one shell line (already unwrapped from `bash -lc` by the caller or not:
/// this function unwraps `bash -lc '…'` / `sh -c` itself).
pub fn parse_line(line: &str) -> ShellAction {
    // Placeholder until the shell parser lands: one command, no effects.
    ShellAction { line: line.to_string(), ..Default::default() }
}
