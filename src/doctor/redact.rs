//! Secret redaction and short excerpts.
//!
//! The doctor is the one part of skillgate that quotes a session back to its
//! user. Every quoted piece of session text goes through [`excerpt`]: secrets
//! are replaced by `[REDACTED:<kind>]` on the *whole* text first, and only then
//! is the text shortened to at most [`EXCERPT_CHARS`] characters, so a cut can
//! never leave half a secret behind unredacted. The list of shapes is
//! [`RULES`]; `docs/doctor.md` documents it and the tests plant every shape.

use regex::Regex;
use std::sync::OnceLock;

/// The longest excerpt, in characters (Unicode scalar values), ellipsis included.
pub const EXCERPT_CHARS: usize = 240;

/// How much of a text is redacted and considered for an excerpt. Excerpts
/// only ever show the start of a text, so the rest is never needed; a secret
/// that starts before this point and runs past it is still caught (PEM blocks
/// without their END line are redacted to the end).
const SCAN_CHARS: usize = 16 * 1024;

/// One redaction rule: a stable kind name and the pattern it replaces.
pub struct Rule {
    pub kind: &'static str,
    pub description: &'static str,
    pub pattern: &'static str,
    /// When set, only this capture group is replaced (the value of a pair),
    /// keeping the key visible (`password=[REDACTED:password-pair]`).
    pub group: Option<usize>,
}

/// The documented redaction list, applied in this order. Shapes with a
/// distinctive prefix match even when glued to preceding text (`xghp_…`);
/// `sk-`, Stripe keys and pairs need a word boundary, so prose such as
/// `task-management-…` is left alone.
pub const RULES: &[Rule] = &[
    Rule {
        kind: "pem-block",
        description: "PEM blocks (`-----BEGIN … -----` to `-----END … -----`, or to the end of the text when the END line is missing): private keys, certificates",
        pattern: r"-----BEGIN [A-Z0-9 ]{0,40}-----(?s:.*?)(?:-----END [A-Z0-9 ]{0,40}-----|\z)",
        group: None,
    },
    Rule {
        kind: "jwt",
        description: "JSON Web Tokens (`eyJ….eyJ….<signature>`)",
        pattern: r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*",
        group: None,
    },
    Rule {
        kind: "bearer-token",
        description: "`Bearer <token>` values (16+ token characters) and `Authorization: Basic <credentials>` headers",
        pattern: r#"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{16,}|\bauthorization["']?\s*[:=]\s*["']?basic\s+[A-Za-z0-9+/=]{8,}"#,
        group: None,
    },
    Rule {
        kind: "url-credentials",
        description: "passwords in URLs (`scheme://user:password@host`)",
        pattern: r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@",
        group: Some(1),
    },
    Rule {
        kind: "openai-anthropic-key",
        description: "OpenAI / Anthropic style API keys (`sk-…`, `sk-proj-…`, `sk-ant-…`)",
        pattern: r"\bsk-[A-Za-z0-9_-]{16,}",
        group: None,
    },
    Rule {
        kind: "stripe-key",
        description: "Stripe keys (`sk_live_…`, `rk_test_…`, `pk_live_…`)",
        pattern: r"\b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}",
        group: None,
    },
    Rule {
        kind: "github-token",
        description: "GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)",
        pattern: r"(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
        group: None,
    },
    Rule {
        kind: "gitlab-token",
        description: "GitLab personal access tokens (`glpat-…`)",
        pattern: r"glpat-[A-Za-z0-9_-]{20,}",
        group: None,
    },
    Rule {
        kind: "slack-token",
        description: "Slack tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xapp-`) and webhook URLs",
        pattern: r"(?:xox[abprs]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+)",
        group: None,
    },
    Rule {
        kind: "aws-access-key-id",
        description: "AWS access key ids (`AKIA…`, `ASIA…` and the other 4-letter prefixes + 16 characters)",
        pattern: r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
        group: None,
    },
    Rule {
        kind: "aws-secret-access-key",
        description: "AWS secret keys given as a pair (`aws_secret_access_key = …`, `AWS_SECRET_ACCESS_KEY: …`, `\"SecretAccessKey\": \"…\"`)",
        pattern: r#"(?i)\b(?:aws_?secret_?access_?key|secretaccesskey)["']?\s*[:=]\s*("[^"\n]*"|'[^'\n]*'|[^\s"',;&}]+)"#,
        group: Some(1),
    },
    Rule {
        kind: "google-api-key",
        description: "Google API keys (`AIza` + 35 characters)",
        pattern: r"AIza[0-9A-Za-z_-]{35}",
        group: None,
    },
    Rule {
        kind: "huggingface-token",
        description: "Hugging Face tokens (`hf_…`)",
        pattern: r"hf_[A-Za-z0-9]{30,}",
        group: None,
    },
    Rule {
        kind: "npm-token",
        description: "npm tokens (`npm_…`)",
        pattern: r"npm_[A-Za-z0-9]{36}",
        group: None,
    },
    Rule {
        kind: "secret-pair",
        description: "`key=value` / `key: value` / `\"key\": \"value\"` pairs whose key ends in password, passwd, pwd, secret, token, api_key / apikey, access_key, private_key, client_secret, credentials or accountkey (case-insensitive): the value is replaced",
        pattern: r#"(?i)\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|accountkey)["']?\s*[:=]\s*("[^"\n]*"|'[^'\n]*'|[^\s"',;&}]+)"#,
        group: Some(1),
    },
];

fn compiled() -> &'static [(&'static Rule, Regex)] {
    static CELL: OnceLock<Vec<(&'static Rule, Regex)>> = OnceLock::new();
    CELL.get_or_init(|| {
        RULES
            .iter()
            .map(|r| {
                (
                    r,
                    Regex::new(r.pattern).expect("redaction patterns are valid"),
                )
            })
            .collect()
    })
}

/// Replace every secret shape of [`RULES`] in `text`.
pub fn redact(text: &str) -> String {
    let mut out = text.to_string();
    for (rule, re) in compiled() {
        if !re.is_match(&out) {
            continue;
        }
        let marker = format!("[REDACTED:{}]", rule.kind);
        out = match rule.group {
            None => re.replace_all(&out, marker.as_str()).into_owned(),
            Some(g) => {
                let mut result = String::with_capacity(out.len());
                let mut last = 0;
                for caps in re.captures_iter(&out) {
                    let Some(m) = caps.get(g) else { continue };
                    // An already-redacted value stays as it is.
                    if m.as_str().contains("[REDACTED:") {
                        continue;
                    }
                    result.push_str(&out[last..m.start()]);
                    result.push_str(&marker);
                    last = m.end();
                }
                result.push_str(&out[last..]);
                result
            }
        };
    }
    out
}

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
