//! render: verdicts → Markdown, JSON (SPEC §7); SARIF, GitHub annotations and
//! JUnit are further renderers of the same value, one file each.
//!
//! A renderer reads only the [`SkillVerdict`] value, which holds locations,
//! never trajectory content: nothing a renderer writes can leak a session.

/// serde_json's pretty JSON with fast string escaping (the many-skill JSON).
pub(crate) mod fragments;
pub mod github;
pub mod json;
pub mod junit;
pub mod markdown;
pub(crate) mod pretty;
pub mod report;
pub mod sarif;

use crate::score::SkillVerdict;

/// One output format over the verdicts of a run.
pub trait Renderer {
    /// Render every verdict of the run (one per skill).
    fn render(&self, verdicts: &[SkillVerdict]) -> String;

    /// Write the same bytes as [`Renderer::render`] to `out`. Renderers of
    /// large outputs (JSON lists every trajectory's label for every
    /// constraint) stream them instead of building one string first.
    fn write_to(
        &self,
        verdicts: &[SkillVerdict],
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        out.write_all(self.render(verdicts).as_bytes())
    }
}

/// `0.5` → `50%`; `None` → `n/a`.
pub fn percent(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{}%", (v * 1000.0).round() / 10.0),
        None => "n/a".to_string(),
    }
}

/// A cited location for people: `path event N (line L)`, and for a consent
/// gate's user turn "consent taken from the user turn at …" (SPEC §4.2).
pub fn cited(e: &crate::score::Evidence) -> String {
    let at = crate::score::resolve::location(e);
    match e.why {
        crate::label::Cite::ConsentTurn => format!("consent taken from the user turn at {at}"),
        _ => at,
    }
}

/// Text safe inside a Markdown table cell: one line, pipes escaped.
pub fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_and_cells() {
        assert_eq!(percent(Some(1.0 / 3.0)), "33.3%");
        assert_eq!(percent(Some(0.6)), "60%");
        assert_eq!(percent(None), "n/a");
        assert_eq!(cell("a|b\nc"), "a\\|b c");
    }
}
