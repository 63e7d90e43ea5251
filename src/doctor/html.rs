//! report.html: one self-contained HTML5 file (seed 000 step 7).
//!
//! Embedded CSS only: no JavaScript, no external fonts, no images, no links
//! to anything outside the page; a Content-Security-Policy of
//! `default-src 'none'` makes the browser refuse any request even if one
//! slipped in. Every piece of session text is HTML-escaped by [`esc`].

use super::{
    Evidence, Finding, Outcome, Report, Score, SubScore, Suggestion, NO_HISTORY, TOO_SHORT,
};
use std::fmt::Write;

/// The page title and `<h1>`.
pub const TITLE: &str = "Skill Doctor Report";

/// Escape text for HTML element content and quoted attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than tab/newline are not allowed in HTML text.
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = r#"
*,*::before,*::after{box-sizing:border-box}
html{background:#ffffff;color:#1a1a1a}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:#ffffff;color:#1a1a1a}
.page{max-width:980px;margin:0 auto;padding:32px 28px 48px}
h1{font-size:2rem;margin:0 0 12px;letter-spacing:-0.01em}
h2{font-size:1.35rem;margin:40px 0 14px;padding-bottom:6px;border-bottom:2px solid #e3e6ea}
h3{font-size:1.08rem;margin:0}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0;color:#333}
.meta dt{font-weight:600;color:#444}
.meta dd{margin:0;overflow-wrap:anywhere}
.notice{border:1px solid #e0b4b4;background:#fff6f6;border-radius:8px;padding:14px 18px;margin-top:24px}
.notice h2{margin-top:0;border:0}
.minimal{border:1px solid #d7dbe0;border-radius:10px;padding:28px;margin-top:32px;text-align:center}
.minimal h2{border:0;margin:0 0 8px;font-size:1.6rem}
.minimal ul{display:inline-block;text-align:left;margin:0}
.charts{display:grid;grid-template-columns:1fr 1fr;gap:24px}
@media (max-width:760px){.charts{grid-template-columns:1fr}}
.chart{margin:0;border:1px solid #d7dbe0;border-radius:10px;padding:16px 18px}
.chart figcaption{display:flex;justify-content:space-between;align-items:baseline;font-weight:700;font-size:1.1rem;margin-bottom:12px}
.chart figcaption .total{font-size:1.5rem}
.bar-row{display:grid;grid-template-columns:12.5rem 1fr 3.2rem;align-items:center;gap:10px;margin:7px 0;font-size:.92rem}
.bar-row.total-row{font-weight:700;font-size:1rem;margin-bottom:14px}
.track{display:block;height:16px;background:#eef0f3;border-radius:8px;overflow:hidden}
.total-row .track{height:22px;border-radius:11px}
.fill{display:block;height:100%;border-radius:inherit}
.good{background:#2e7d32}.fair{background:#b26a00}.poor{background:#c62828}
.value{text-align:right;font-variant-numeric:tabular-nums}
.na{margin:8px 0 0;padding:12px 14px;background:#f4f5f7;border-radius:8px}
.na strong{font-size:1.4rem;margin-right:8px}
table{border-collapse:collapse;width:100%;margin-top:8px;font-size:.93rem}
th,td{text-align:left;vertical-align:top;padding:8px 10px;border-bottom:1px solid #e3e6ea}
th{background:#f6f7f9;font-weight:600}
td.num{white-space:nowrap;font-variant-numeric:tabular-nums}
.finding{border:1px solid #d7dbe0;border-left:6px solid #b26a00;border-radius:10px;padding:16px 20px;margin:0 0 18px}
.finding.sev-poor{border-left-color:#c62828}
.finding-head{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap;margin-bottom:6px}
.badge{font-weight:700;background:#f1f2f4;border-radius:6px;padding:1px 8px;font-variant-numeric:tabular-nums}
.area{color:#555;font-size:.9rem}
.basis{margin:6px 0 10px;color:#333}
blockquote.evidence{margin:10px 0;padding:10px 16px;background:#f8f9fb;border-left:4px solid #9aa3ad;border-radius:0 6px 6px 0}
blockquote.evidence p{margin:6px 0}
.cite{font-weight:600;white-space:nowrap}
.note{color:#444}
.excerpt{display:block;margin-top:2px;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.85rem;color:#222;white-space:pre-wrap;overflow-wrap:anywhere}
.more{color:#555;font-size:.9rem}
.suggestion-line{margin:10px 0 0}
ol.ranked{padding-left:1.6em}
ol.ranked li{margin:8px 0}
.gain{display:inline-block;min-width:2.6em;font-weight:700;color:#1b5e20;background:#e8f5e9;border-radius:6px;padding:0 6px;text-align:center;margin-right:6px}
.empty{color:#333;background:#f4f5f7;border-radius:8px;padding:12px 14px}
ol.turns{padding-left:0;list-style:none}
ol.turns li{margin:6px 0;padding:6px 10px;border-bottom:1px solid #eef0f3}
footer{margin-top:48px;padding-top:12px;border-top:1px solid #e3e6ea;color:#555;font-size:.85rem}
"#;

/// Inputs the renderer needs besides the report.
#[derive(Debug, Clone)]
pub struct RenderContext<'a> {
    /// When the report was generated (UTC, RFC 3339), read by the caller.
    pub generated_at: &'a str,
    /// skillgate's version.
    pub version: &'a str,
}

fn ratio_class(score: u8, max: u8) -> &'static str {
    if max == 0 {
        return "good";
    }
    let r = f64::from(score) / f64::from(max);
    if r >= 0.8 {
        "good"
    } else if r >= 0.5 {
        "fair"
    } else {
        "poor"
    }
}

fn pct(score: u8, max: u8) -> String {
    if max == 0 {
        return "0".into();
    }
    let p = f64::from(score) * 100.0 / f64::from(max);
    let s = format!("{p:.1}");
    s.trim_end_matches(".0").to_string()
}

fn bar_row(out: &mut String, label: &str, score: u8, max: u8, total: bool) {
    let _ = writeln!(
        out,
        "<div class=\"bar-row{}\"><span class=\"label\">{}</span>\
         <span class=\"track\" role=\"img\" aria-label=\"{} {score} of {max}\"><span class=\"fill {}\" style=\"width:{}%\"></span></span>\
         <span class=\"value\">{score}/{max}</span></div>",
        if total { " total-row" } else { "" },
        esc(label),
        esc(label),
        ratio_class(score, max),
        pct(score, max),
    );
}

fn chart(out: &mut String, id: &str, name: &str, score: &Score) {
    let _ = writeln!(out, "<figure class=\"chart\" id=\"{id}\">");
    match score {
        Score::Scored { total, subs } => {
            let _ = writeln!(
                out,
                "<figcaption><span>{}</span><span class=\"total\">{total}/10</span></figcaption>",
                esc(name)
            );
            bar_row(out, "Total", *total, 10, true);
            for s in subs {
                bar_row(out, s.category, s.score, s.max, false);
            }
        }
        Score::NotApplicable { reason } => {
            let _ = writeln!(
                out,
                "<figcaption><span>{}</span></figcaption>\n\
                 <p class=\"na\"><strong>N/A</strong> {}</p>",
                esc(name),
                esc(reason)
            );
        }
    }
    out.push_str("</figure>\n");
}

fn breakdown(out: &mut String, area: &str, score: &Score) {
    for s in score.subs() {
        sub_row(out, area, s);
    }
    if let Score::NotApplicable { reason } = score {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>—</td><td class=\"num\">N/A</td><td>{}</td></tr>",
            esc(area),
            esc(reason)
        );
    }
}

fn sub_row(out: &mut String, area: &str, s: &SubScore) {
    let mut nums: Vec<usize> = s.evidence.iter().map(|e| e.turn).collect();
    nums.sort_unstable();
    nums.dedup();
    let turns: Vec<String> = nums.iter().map(|n| n.to_string()).collect();
    let _ = writeln!(
        out,
        "<tr><td>{}</td><td>{}</td><td class=\"num\">{}/{}</td><td>{}{}</td></tr>",
        esc(area),
        esc(s.category),
        s.score,
        s.max,
        esc(&s.basis),
        if turns.is_empty() {
            String::new()
        } else {
            format!(
                " <span class=\"more\">Evidence: turn{} {}.</span>",
                if turns.len() == 1 { "" } else { "s" },
                esc(&turns.join(", "))
            )
        }
    );
}

fn evidence_block(out: &mut String, evidence: &[Evidence]) {
    if evidence.is_empty() {
        return;
    }
    out.push_str("<blockquote class=\"evidence\">\n");
    let shown = evidence.iter().take(super::rubric::EXCERPTS_PER_SCORE);
    for e in shown {
        let cite = match e.line {
            Some(l) => format!("Turn {} · line {l}", e.turn),
            None => format!("Turn {}", e.turn),
        };
        let _ = write!(
            out,
            "<p><span class=\"cite\">{}</span> <span class=\"note\">— {}</span>",
            esc(&cite),
            esc(&e.note)
        );
        if let Some(x) = &e.excerpt {
            let _ = write!(out, "<span class=\"excerpt\">{}</span>", esc(x));
        }
        out.push_str("</p>\n");
    }
    let rest: Vec<String> = evidence
        .iter()
        .skip(super::rubric::EXCERPTS_PER_SCORE)
        .map(|e| e.turn.to_string())
        .collect();
    if !rest.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"more\">Also turns {}.</p>",
            esc(&rest.join(", "))
        );
    }
    out.push_str("</blockquote>\n");
}

fn finding_card(out: &mut String, f: &Finding) {
    let _ = writeln!(
        out,
        "<article class=\"finding sev-{}\" id=\"finding-{}\">\n\
         <div class=\"finding-head\"><h3>{}</h3><span class=\"badge\">{}/{}</span><span class=\"area\">{}</span></div>\n\
         <p class=\"basis\">{}</p>",
        ratio_class(f.score, f.max),
        esc(f.code),
        esc(f.category),
        f.score,
        f.max,
        esc(f.area),
        esc(&f.basis)
    );
    evidence_block(out, &f.evidence);
    let _ = writeln!(
        out,
        "<p class=\"suggestion-line\"><strong>Suggestion:</strong> {}</p>\n</article>",
        esc(&f.suggestion)
    );
}

fn suggestion_item(out: &mut String, s: &Suggestion) {
    let _ = writeln!(
        out,
        "<li class=\"suggestion\"><span class=\"gain\">+{}</span><strong>{}</strong> — {}</li>",
        s.gain,
        esc(s.category),
        esc(&s.text)
    );
}

fn header(out: &mut String, report: &Report, ctx: &RenderContext) {
    out.push_str("<header>\n<h1>Skill Doctor Report</h1>\n<dl class=\"meta\">\n");
    let mut row = |k: &str, v: &str, mono: bool| {
        let v = if mono {
            format!("<code>{}</code>", esc(v))
        } else {
            esc(v)
        };
        let _ = writeln!(out, "<dt>{}</dt><dd>{v}</dd>", esc(k));
    };
    let s = report.session.as_ref();
    row(
        "Session",
        s.and_then(|s| s.session_id.as_deref()).unwrap_or("unknown"),
        true,
    );
    if let Some(s) = s {
        row("Transcript", &s.path, true);
        if let (Some(h), Some(f)) = (&s.harness, &s.format) {
            row("Harness", &format!("{h} ({f})"), false);
        } else if let Some(f) = &s.format {
            row("Format", f, false);
        }
        match (&s.started_at, &s.ended_at) {
            (Some(a), Some(b)) if a != b => row("Session time", &format!("{a} – {b}"), false),
            (Some(a), _) => row("Session time", a, false),
            _ => row("Session time", "not recorded", false),
        }
        row("Turns", &s.turns.to_string(), false);
    }
    row("Report generated", ctx.generated_at, false);
    out.push_str("</dl>\n</header>\n");
}

/// Render report.html.
pub fn render(report: &Report, ctx: &RenderContext) -> String {
    let mut out = String::with_capacity(32 * 1024);
    out.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n",
    );
    let _ = writeln!(
        out,
        "<title>{TITLE}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<div class=\"page\">"
    );
    header(&mut out, report, ctx);
    out.push_str("<main>\n");
    match &report.outcome {
        Outcome::NoHistory { searched } => {
            let _ = writeln!(
                out,
                "<section id=\"summary\" class=\"minimal\">\n<h2>{NO_HISTORY}</h2>\n\
                 <p>No transcript was found, so nothing was scored.</p>"
            );
            if !searched.is_empty() {
                out.push_str("<p>Looked in:</p>\n<ul>\n");
                for s in searched {
                    let _ = writeln!(out, "<li><code>{}</code></li>", esc(s));
                }
                out.push_str("</ul>\n");
            }
            out.push_str("</section>\n");
        }
        Outcome::TooShort { turns } => {
            let _ = writeln!(
                out,
                "<section id=\"summary\" class=\"minimal\">\n<h2>{TOO_SHORT}</h2>\n\
                 <p>The session has {turns} turn{} (user, assistant or tool); at least 2 are needed, so nothing was scored.</p>\n</section>",
                if *turns == 1 { "" } else { "s" }
            );
        }
        Outcome::ParseError { note } => {
            let _ = writeln!(
                out,
                "<section id=\"parse-error\" class=\"notice\">\n<h2>Parsing error</h2>\n<p>{}</p>\n</section>",
                esc(note)
            );
            full_body(&mut out, report);
        }
        Outcome::Scored => full_body(&mut out, report),
    }
    out.push_str("</main>\n");
    let _ = writeln!(
        out,
        "<footer>Generated by skillgate {} <code>doctor</code>. Scores follow the rubric in docs/doctor.md; \
         turn N is event N−1 of <code>skillgate trajectory</code>. {}</footer>\n</div>\n</body>\n</html>",
        esc(ctx.version),
        if report.excerpts {
            "Excerpts are at most 240 characters, with secrets redacted."
        } else {
            "Excerpts were turned off (--no-excerpts): evidence cites turn numbers only."
        }
    );
    out
}

fn full_body(out: &mut String, report: &Report) {
    out.push_str(
        "<section id=\"score-summary\">\n<h2>Score summary</h2>\n<div class=\"charts\">\n",
    );
    let na = Score::NotApplicable {
        reason: "not assessed".into(),
    };
    let eff = report.efficiency.as_ref().unwrap_or(&na);
    let cq = report.code_quality.as_ref().unwrap_or(&na);
    chart(out, "chart-efficiency", "Efficiency", eff);
    chart(out, "chart-code-quality", "Code quality", cq);
    out.push_str("</div>\n");
    out.push_str(
        "<table class=\"breakdown\">\n<thead><tr><th>Area</th><th>Sub-score</th><th>Score</th><th>How it was set</th></tr></thead>\n<tbody>\n",
    );
    breakdown(out, "Efficiency", eff);
    breakdown(out, "Code quality", cq);
    out.push_str("</tbody>\n</table>\n</section>\n");

    out.push_str("<section id=\"findings\">\n<h2>Findings</h2>\n");
    if report.findings.is_empty() {
        let why = if matches!(report.outcome, Outcome::ParseError { .. }) {
            "No findings: the session could not be scored."
        } else {
            "No findings: every scored sub-score is at its maximum."
        };
        let _ = writeln!(out, "<p class=\"empty\">{why}</p>");
    }
    for f in &report.findings {
        finding_card(out, f);
    }
    out.push_str("</section>\n");

    out.push_str("<section id=\"suggestions\">\n<h2>Ranked suggestions</h2>\n");
    if report.suggestions.is_empty() {
        out.push_str("<p class=\"empty\">No suggestions.</p>\n");
    } else {
        out.push_str("<p>Highest potential score gain first.</p>\n<ol class=\"ranked\">\n");
        for s in &report.suggestions {
            suggestion_item(out, s);
        }
        out.push_str("</ol>\n");
    }
    out.push_str("</section>\n");

    if let Some(f) = &report.facts {
        out.push_str("<section id=\"session-facts\">\n<h2>Session facts</h2>\n<p>The counts the rubric reads (docs/doctor.md defines each).</p>\n<table>\n<tbody>\n");
        let mut row = |k: &str, v: String| {
            let _ = writeln!(
                out,
                "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td></tr>",
                esc(k),
                esc(&v)
            );
        };
        row("Turns", f.turns.to_string());
        row("User requests", f.user_requests.to_string());
        row("User interrupts", f.interrupts.to_string());
        row(
            "Agent turns (assistant messages and tool calls)",
            f.agent_turns.to_string(),
        );
        row("Turns of subagents", f.subagent_turns.to_string());
        row("Tool calls", f.tool_calls.to_string());
        row("Failed tool calls", f.failed_calls.to_string());
        row("Rejected tool calls", f.rejected_calls.to_string());
        row("Exploration turns", f.exploration_turns.to_string());
        row("Wasted exploration turns", f.wasted_exploration.to_string());
        row("Blind retries", f.blind_retries.to_string());
        row("Files read", f.files_read.to_string());
        row("Files changed", f.files_changed.to_string());
        row(
            "Scratch files (created and deleted)",
            f.scratch_files.to_string(),
        );
        row("Code files changed", f.code_files_changed.to_string());
        row(
            "Last code change",
            f.last_code_change_turn
                .map(|t| format!("turn {t}"))
                .unwrap_or_else(|| "none".into()),
        );
        row(
            "Check runs after the last code change",
            f.checks_after_last_change.to_string(),
        );
        out.push_str("</tbody>\n</table>\n</section>\n");
    }

    if !report.turn_list.is_empty() || matches!(report.outcome, Outcome::ParseError { .. }) {
        out.push_str("<section id=\"turns\">\n<h2>Decoded turns</h2>\n");
        if report.turn_list.is_empty() {
            out.push_str("<p class=\"empty\">No turn could be recovered.</p>\n");
        } else {
            out.push_str("<ol class=\"turns\">\n");
            for t in &report.turn_list {
                let cite = match t.line {
                    Some(l) => format!("Turn {} · line {l}", t.turn),
                    None => format!("Turn {}", t.turn),
                };
                let who = match &t.tool {
                    Some(tool) => format!("{} ({tool})", t.role),
                    None => t.role.to_string(),
                };
                let _ = write!(
                    out,
                    "<li><span class=\"cite\">{}</span> <span class=\"note\">{}</span>",
                    esc(&cite),
                    esc(&who)
                );
                if let Some(x) = &t.excerpt {
                    let _ = write!(out, "<span class=\"excerpt\">{}</span>", esc(x));
                }
                out.push_str("</li>\n");
            }
            out.push_str("</ol>\n");
            if report.turn_list_omitted > 0 {
                let _ = writeln!(
                    out,
                    "<p class=\"more\">{} more turns not listed.</p>",
                    report.turn_list_omitted
                );
            }
        }
        out.push_str("</section>\n");
    }
}

/// The final check (seed 000 step 8): the sections this report must have.
/// Returns the missing ones.
pub fn verify(html: &str, report: &Report) -> Result<(), Vec<String>> {
    let mut need: Vec<String> = vec![
        "<!DOCTYPE html>".into(),
        "<h1>Skill Doctor Report</h1>".into(),
        "</html>".into(),
    ];
    match &report.outcome {
        Outcome::NoHistory { .. } => need.push(format!("<h2>{NO_HISTORY}</h2>")),
        Outcome::TooShort { .. } => need.push(format!("<h2>{TOO_SHORT}</h2>")),
        Outcome::ParseError { .. } | Outcome::Scored => {
            need.extend(
                [
                    "id=\"score-summary\"",
                    "id=\"chart-efficiency\"",
                    "id=\"chart-code-quality\"",
                    "id=\"findings\"",
                    "id=\"suggestions\"",
                ]
                .map(String::from),
            );
            if matches!(report.outcome, Outcome::ParseError { .. }) {
                need.push("id=\"parse-error\"".into());
                need.push("id=\"turns\"".into());
            }
            for f in &report.findings {
                need.push(format!("id=\"finding-{}\"", f.code));
            }
            if !report.suggestions.is_empty() {
                need.push("<li class=\"suggestion\">".into());
            }
            if report.findings.is_empty() && matches!(report.outcome, Outcome::Scored) {
                need.push("No findings: every scored sub-score is at its maximum.".into());
            }
        }
    }
    let missing: Vec<String> = need
        .into_iter()
        .filter(|n| !html.contains(n.as_str()))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(missing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc("<script>alert('x')</script> & \"y\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot;"
        );
        assert_eq!(esc("a\u{0}b"), "a\u{FFFD}b");
    }

    #[test]
    fn the_final_check_names_missing_sections() {
        let report = crate::doctor::diagnose(
            &crate::doctor::SessionInput::NoHistory { searched: vec![] },
            &crate::doctor::DoctorOptions::default(),
        );
        let ctx = RenderContext {
            generated_at: "t",
            version: "v",
        };
        let page = render(&report, &ctx);
        assert_eq!(verify(&page, &report), Ok(()));
        let broken = page.replace("<h2>No conversation history found</h2>", "");
        assert_eq!(
            verify(&broken, &report),
            Err(vec!["<h2>No conversation history found</h2>".to_string()])
        );
        let truncated = &page[..page.len() / 2];
        assert!(verify(truncated, &report)
            .unwrap_err()
            .contains(&"</html>".to_string()));
    }

    #[test]
    fn percentages_are_compact() {
        assert_eq!(pct(2, 3), "66.7");
        assert_eq!(pct(3, 3), "100");
        assert_eq!(pct(0, 2), "0");
    }
}
