//! `apply_patch` envelopes (`*** Begin Patch` … `*** End Patch`) → file effects.

use super::model::FileEffect;

/// The file effects of an apply_patch body.
pub fn parse_apply_patch(_text: &str) -> Vec<FileEffect> {
    Vec::new()
}
