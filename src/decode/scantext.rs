//! A text value read like [`Text`], plus the facts a decoder derives from the
//! whole text in memory while it streams by (the text itself is not kept
//! unless `K`): whether it ends with a question to the user, what a test
//! runner's summary in it says (`OUT` texts: tool output), and the hash of an
//! injected skill body ("Base directory for this skill: …").
//!
//! [`Text<false>`] keeps only the first [`HEAD_BYTES`]; the end of a message
//! (a closing question) and a runner's summary (at the bottom of the output)
//! would be lost without this.

use super::probe::{KeyName, Text, HEAD_BYTES};
use super::skills;
use super::testsummary;
use super::TestOutcome;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// The line Claude Code puts before an injected skill body.
pub const BASE_DIR_MARKER: &str = "Base directory for this skill:";

/// Facts derived from a text; never the text.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct TextFacts {
    /// The last non-empty line ends with `?` (markdown emphasis ignored).
    pub ends_with_question: bool,
    /// `OUT` texts: what a test runner's summary says.
    pub tests: Option<TestOutcome>,
    /// An injected skill body: its hash (see [`injected_body`]).
    pub body: Option<InjectedBody>,
}

/// The hash of an injected skill body.
#[derive(Debug, Clone, PartialEq)]
pub struct InjectedBody {
    /// [`skills::body_sha256`] of the body, an appended `ARGUMENTS: …` block removed.
    pub sha256: String,
    /// Claude Code appended `ARGUMENTS: …` (the load had arguments and the body
    /// has no placeholder for them).
    pub args_appended: bool,
}

/// A text plus its [`TextFacts`].
#[derive(Default)]
pub struct ScanText<const K: bool, const OUT: bool> {
    pub text: Text<K>,
    pub facts: TextFacts,
}

/// Facts of one string.
pub fn facts_of(s: &str, out: bool) -> TextFacts {
    TextFacts {
        ends_with_question: ends_with_question(s),
        tests: if out { testsummary::scan(s) } else { None },
        body: injected_body(s),
    }
}

/// Does the text end with a question to the user? The last non-empty line,
/// trailing markdown (`*`, `_`, `` ` ``, `)`) and spaces removed, ends with `?`.
pub fn ends_with_question(s: &str) -> bool {
    let last = s.trim_end().rsplit('\n').next().unwrap_or("");
    last.trim_end_matches(['*', '_', '`', ')', ' ', '\t', '"', '\''])
        .ends_with('?')
}

/// The hash of an injected skill body: Claude Code's "Base directory for this
/// skill: <dir>\n\n<body>[\n\nARGUMENTS: <args>]" (the hash of `<body>`), or
/// Codex's `<skill>\n<name>N</name>\n<path>P</path>\n<SKILL.md>\n</skill>`
/// (the hash of that SKILL.md's body, frontmatter removed).
pub fn injected_body(s: &str) -> Option<InjectedBody> {
    let t = s.trim_start();
    if let Some(rest) = t.strip_prefix("<skill>") {
        let after_path = rest.split_once("</path>")?.1;
        let inner = after_path.strip_prefix('\n').unwrap_or(after_path);
        let inner = inner.trim_end();
        let md = inner.strip_suffix("</skill>")?;
        return Some(InjectedBody {
            sha256: skills::skill_md_body_sha256(md),
            args_appended: false,
        });
    }
    if !t.starts_with(BASE_DIR_MARKER) {
        return None;
    }
    let body = t.split_once('\n').map_or("", |(_, b)| b);
    let (body, args_appended) = match body.rfind("\n\nARGUMENTS: ") {
        Some(i) => (&body[..i], true),
        None => (body, false),
    };
    Some(InjectedBody {
        sha256: skills::body_sha256(body),
        args_appended,
    })
}

impl<const K: bool, const OUT: bool> ScanText<K, OUT> {
    pub fn from_text(s: &str) -> Self {
        let mut text = Text::<K> {
            is_string: true,
            ..Default::default()
        };
        push_raw(&mut text, s);
        ScanText {
            text,
            facts: facts_of(s, OUT),
        }
    }

    /// The head of a text of which nothing else is read (no facts): `prefix`
    /// is the text's start ([`HEAD_BYTES`] or more of it, or all of it), and
    /// `len` stands for its length: the length of its JSON text, which is
    /// not less, and 0 only when the text is empty.
    pub fn head_only(prefix: &str, len: usize) -> Self {
        let mut text = Text::<K> {
            is_string: true,
            ..Default::default()
        };
        push_raw(&mut text, prefix);
        text.full = None;
        text.len = len;
        ScanText {
            text,
            facts: TextFacts::default(),
        }
    }

    /// Append a part (joined with a newline, as [`Text`] joins blocks).
    fn push_part(&mut self, part: ScanText<K, OUT>) {
        if part.text.len == 0 {
            return;
        }
        if self.text.len > 0 {
            push_raw(&mut self.text, "\n");
        }
        let s = part.text.full.as_deref().unwrap_or(&part.text.head);
        let missing = part.text.len - s.len();
        push_raw(&mut self.text, s);
        self.text.len += missing;
        self.facts.ends_with_question = part.facts.ends_with_question;
        self.facts.tests = merge(self.facts.tests, part.facts.tests);
        if self.facts.body.is_none() {
            self.facts.body = part.facts.body;
        }
    }
}

/// Two outcomes of one output: a red run wins, then an environment error.
fn merge(a: Option<TestOutcome>, b: Option<TestOutcome>) -> Option<TestOutcome> {
    use TestOutcome::*;
    match (a, b) {
        (Some(Failed), _) | (_, Some(Failed)) => Some(Failed),
        (Some(NotRun), _) | (_, Some(NotRun)) => Some(NotRun),
        (x, y) => x.or(y),
    }
}

fn push_raw<const K: bool>(t: &mut Text<K>, s: &str) {
    t.len += s.len();
    if t.head.len() < HEAD_BYTES {
        let room = HEAD_BYTES - t.head.len();
        let mut cut = room.min(s.len());
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        t.head.push_str(&s[..cut]);
    }
    if K {
        t.full.get_or_insert_with(String::new).push_str(s);
    }
}

impl<'de, const K: bool, const OUT: bool> Deserialize<'de> for ScanText<K, OUT> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const K: bool, const OUT: bool>;
        impl<'de, const K: bool, const OUT: bool> Visitor<'de> for V<K, OUT> {
            type Value = ScanText<K, OUT>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a text or a list of text blocks")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(ScanText::from_text(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut t = ScanText::<K, OUT>::default();
                while let Some(part) = seq.next_element::<ScanText<K, OUT>>()? {
                    t.push_part(part);
                }
                Ok(t)
            }
            /// A block: its `text` (or nested `content`) counts, other keys are skipped.
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut t = ScanText::<K, OUT>::default();
                while let Some(key) = map.next_key::<KeyName>()? {
                    if key.0 == "text" || key.0 == "content" {
                        let part = map.next_value::<ScanText<K, OUT>>()?;
                        t.push_part(part);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(t)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(ScanText::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(ScanText::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(ScanText::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(ScanText::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(ScanText::default())
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(ScanText::default())
            }
        }
        d.deserialize_any(V::<K, OUT>)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions() {
        assert!(ends_with_question("Done.\n\nWhich approach?"));
        assert!(ends_with_question("Want me to merge it?**\n\n"));
        assert!(!ends_with_question("Committed as `98e6b2d`."));
        assert!(!ends_with_question("Is it? Yes.\nAll tests pass."));
    }

    #[test]
    fn injected_bodies() {
        let b =
            injected_body("Base directory for this skill: /x/skills/tdd\n\n# TDD\n\nRed first.\n")
                .unwrap();
        assert_eq!(b.sha256, skills::body_sha256("\n# TDD\n\nRed first.\n"));
        assert!(!b.args_appended);
        let a = injected_body(
            "Base directory for this skill: /x/skills/tdd\n\n# TDD\n\nRed first.\n\n\nARGUMENTS: do the thing",
        )
        .unwrap();
        assert_eq!(a.sha256, b.sha256);
        assert!(a.args_appended);
        assert_eq!(injected_body("hello"), None);
        // Codex `<skill>` injection: the whole SKILL.md between the path and the end tag
        let c = injected_body(
            "<skill>\n<name>tdd</name>\n<path>/x/skills/tdd/SKILL.md</path>\n---\nname: tdd\n---\n\n# TDD\n\nRed first.\n\n</skill>",
        )
        .unwrap();
        assert_eq!(c.sha256, b.sha256);
    }

    #[test]
    fn scans_whole_text_but_keeps_head_only() {
        let long = format!(
            "{}\ntest result: FAILED. 1 passed; 1 failed;",
            "x".repeat(5000)
        );
        let json =
            serde_json::to_string(&serde_json::json!([{"type": "text", "text": long}])).unwrap();
        let t: ScanText<false, true> = serde_json::from_str(&json).unwrap();
        assert_eq!(t.facts.tests, Some(TestOutcome::Failed));
        assert_eq!(t.text.head.len(), HEAD_BYTES);
        assert_eq!(t.text.len, long.len());
        assert!(t.text.full.is_none());
        let k: ScanText<true, false> = serde_json::from_str(&json).unwrap();
        assert_eq!(k.facts.tests, None);
        assert_eq!(k.text.full.as_deref(), Some(long.as_str()));
    }
}
