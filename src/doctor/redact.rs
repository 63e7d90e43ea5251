//! Secret redaction and short excerpts.
//!
//! The doctor is the one part of skillgate that quotes a session back to its
//! user. Every quoted piece of session text goes through [`excerpt`]: secrets
//! are replaced by `[REDACTED:<kind>]` on the *whole* text first, and only then
//! is the text shortened to at most [`EXCERPT_CHARS`] characters, so a cut can
//! never leave half a secret behind unredacted. Redaction is the shared
//! [`crate::redact`] module (the doctor's own list [`RULES`] first, then
//! gitleaks' rules and entropy); `docs/doctor.md` documents it and the tests
//! plant every shape.

/// The longest excerpt, in characters (Unicode scalar values), ellipsis included.
pub const EXCERPT_CHARS: usize = 240;

/// How much of a text is redacted and considered for an excerpt. Excerpts
/// only ever show the start of a text, so the rest is never needed; a secret
/// that starts before this point and runs past it is still caught (PEM blocks
/// without their END line are redacted to the end).
const SCAN_CHARS: usize = 16 * 1024;

pub use crate::redact::{redact, Rule};

/// The doctor's original list of shapes (`docs/doctor.md`), applied first by
/// [`crate::redact`], which then applies gitleaks' rules and entropy rules.
pub const RULES: &[Rule] = crate::redact::CORE_RULES;

/// Collapse runs of whitespace (newlines included) into one space and trim.
fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
        } else {
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(c);
        }
    }
    out
}

/// The first `n` characters of `text`, never splitting a character.
fn prefix_chars(text: &str, n: usize) -> &str {
    match text.char_indices().nth(n) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// A redacted, whitespace-collapsed excerpt of at most [`EXCERPT_CHARS`]
/// characters (ending in `…` when shortened).
pub fn excerpt(text: &str) -> String {
    shorten(&redact_collapsed(text), EXCERPT_CHARS)
}

/// Redact (on the scanned prefix) and collapse whitespace.
pub fn redact_collapsed(text: &str) -> String {
    let scanned = prefix_chars(text, SCAN_CHARS);
    collapse_whitespace(&redact(scanned))
}

/// Shorten an already-redacted text to `max` characters with a trailing `…`.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut = prefix_chars(text, max.saturating_sub(1)).to_string();
    // Never end inside a redaction marker: drop a torn `[REDACTED:…` tail.
    if let Some(open) = cut.rfind('[') {
        let tail = &cut[open..];
        let torn = if tail.starts_with("[REDACTED:") {
            !tail.contains(']')
        } else {
            "[REDACTED:".starts_with(tail)
        };
        if torn {
            cut.truncate(open);
        }
    }
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One planted example per rule, built at run time so no literal secret
    /// shape sits in the source.
    pub(crate) fn planted() -> Vec<(&'static str, String)> {
        let a = |n: usize| "A".repeat(n);
        let x = |n: usize| "x9".repeat(n / 2);
        vec![
            (
                "pem-block",
                format!(
                    "-----BEGIN RSA PRIVATE KEY-----\nMIIEow{}\n-----END RSA PRIVATE KEY-----",
                    x(40)
                ),
            ),
            (
                "jwt",
                format!("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{}", x(20)),
            ),
            ("bearer-token", format!("Authorization: Bearer {}", x(30))),
            (
                "url-credentials",
                format!("postgres://admin:{}@db.internal:5432/app", x(12)),
            ),
            ("openai-anthropic-key", format!("sk-proj-{}", x(40))),
            ("stripe-key", format!("sk_live_{}", x(24))),
            ("github-token", format!("ghp_{}", x(36))),
            ("github-token", format!("github_pat_11{}", x(30))),
            ("gitlab-token", format!("glpat-{}", x(20))),
            ("slack-token", format!("xoxb-1234-5678-{}", x(20))),
            ("aws-access-key-id", format!("AKIA{}", a(16))),
            (
                "aws-secret-access-key",
                format!("aws_secret_access_key = {}", x(40)),
            ),
            ("google-api-key", format!("AIza{}", &x(36)[..35])),
            ("huggingface-token", format!("hf_{}", x(34))),
            ("npm-token", format!("npm_{}", x(36))),
            ("secret-pair", format!("DB_PASSWORD={}", x(14))),
            ("secret-pair", format!("\"client_secret\": \"{}\"", x(20))),
        ]
    }

    /// The secret part of each planted string (what must never survive).
    fn secret_part(s: &str) -> String {
        // The long random-looking tail is the part that must disappear.
        s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .max_by_key(|w| w.len())
            .unwrap()
            .to_string()
    }

    #[test]
    fn every_planted_shape_is_redacted_with_its_kind() {
        for (kind, secret) in planted() {
            let text = format!("before {secret} after");
            let out = redact(&text);
            assert!(
                out.contains(&format!("[REDACTED:{kind}]")),
                "{kind}: not redacted as its kind: {out}"
            );
            let tail = secret_part(&secret);
            assert!(!out.contains(&tail), "{kind}: secret survived: {out}");
            assert!(out.starts_with("before "), "{kind}: {out}");
        }
    }

    #[test]
    fn every_rule_has_a_planted_example() {
        let planted = planted();
        for rule in RULES {
            assert!(
                planted.iter().any(|(k, _)| *k == rule.kind),
                "no example for {}",
                rule.kind
            );
        }
        let mut kinds: Vec<_> = RULES.iter().map(|r| r.kind).collect();
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds.len(), RULES.len(), "duplicate rule kind");
    }

    #[test]
    fn pairs_keep_their_key() {
        assert_eq!(
            redact("password=hunter2hunter2"),
            "password=[REDACTED:secret-pair]"
        );
        assert_eq!(redact("token: 'abc def'"), "token: [REDACTED:secret-pair]");
        assert_eq!(
            redact("export OPENAI_API_KEY=notakeyshape"),
            "export OPENAI_API_KEY=[REDACTED:secret-pair]"
        );
    }

    #[test]
    fn ordinary_text_is_untouched() {
        let t = "max_tokens: 100 and the tokenizer ran; see src/secret_sauce.rs";
        // `max_tokens` ends in "tokens", not "token": not a pair.
        assert_eq!(redact(t), t);
        assert_eq!(redact("cargo test --all"), "cargo test --all");
    }

    #[test]
    fn prose_is_not_mistaken_for_credentials() {
        let t = "Created a basic CLAUDE.md for the task-management-system; the bearer of news";
        assert_eq!(redact(t), t);
        assert_eq!(
            redact("Authorization: Basic dXNlcjpwYXNzd29yZA=="),
            "[REDACTED:bearer-token]"
        );
    }

    #[test]
    fn distinctive_prefixes_match_when_glued_to_text() {
        let t = format!("xghp_{}", "Z".repeat(36));
        assert_eq!(redact(&t), "x[REDACTED:github-token]");
    }

    #[test]
    fn pem_without_end_is_redacted_to_the_end() {
        let t = "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA";
        assert_eq!(redact(t), "key:\n[REDACTED:pem-block]");
    }

    #[test]
    fn excerpt_is_short_collapsed_and_redacted_before_cutting() {
        let long = format!("{} ghp_{}", "word ".repeat(60), "Z".repeat(40));
        let e = excerpt(&long);
        assert!(e.chars().count() <= EXCERPT_CHARS);
        assert!(e.ends_with('…'));
        assert!(!e.contains("ZZZZ"));
        assert!(!e.contains('\n'));
        // A torn marker is dropped rather than shown half.
        let text = format!("{}ghp_{}", "a".repeat(230), "Z".repeat(40));
        let e = excerpt(&text);
        assert!(!e.contains("[REDACTED"), "{e}");
        assert!(!e.contains("ZZ"), "{e}");
    }

    #[test]
    fn shorten_counts_characters_not_bytes() {
        let s = "é".repeat(300);
        let e = shorten(&s, EXCERPT_CHARS);
        assert_eq!(e.chars().count(), EXCERPT_CHARS);
    }
}
