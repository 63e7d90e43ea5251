//! The JSON of SPEC §7: an object for one skill, an array for several.

use super::Renderer;
use crate::score::SkillVerdict;

/// Pretty-printed JSON of the verdicts.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json;

impl Renderer for Json {
    fn render(&self, verdicts: &[SkillVerdict]) -> String {
        let text = match verdicts {
            [one] => serde_json::to_string_pretty(one),
            many => serde_json::to_string_pretty(many),
        };
        // Serializing plain data with string keys cannot fail.
        let mut text = text.unwrap_or_default();
        text.push('\n');
        text
    }
}
