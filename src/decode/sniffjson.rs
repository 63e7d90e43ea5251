//! A file's head read as JSON for sniffing, into one flat tape: every value
//! one [`Node`] in document order (a container before its members), every
//! string's text in one buffer. Sniffers ask a few keys of the first records;
//! a `serde_json::Value` of the whole 64 KiB head (a string allocated per key
//! and value, a hashed map per object, all dropped at once) cost more than
//! the asking (docs/gate.md, "Measured", round 12).
//!
//! It is read by the same parser as [`super::generic::parse_partial`] (which
//! builds `Value`s), so the same bytes give the same tree: objects keep a
//! repeated key's last value, a cut head keeps what it had.

use super::generic::{parse_partial_into, Tree};
use serde_json::Value;
use std::borrow::Cow;

/// A JSON value read from a head that may end early (see
/// [`super::generic::parse_partial`], with partial elements kept).
#[derive(Debug)]
pub(crate) struct Head {
    text: String,
    nodes: Vec<Node>,
    /// The value was read to its end (false: the head stopped inside it).
    pub complete: bool,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    /// A member's key: its place in [`Head::text`] (objects' members only).
    key: (usize, usize),
    kind: Kind,
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Null,
    /// (Its value is read by the tests only, which compare trees.)
    #[cfg_attr(not(test), allow(dead_code))]
    Bool(bool),
    Number,
    /// The string's place in [`Head::text`].
    Str(usize, usize),
    /// An array or an object: its members are the nodes up to `end`.
    Array {
        end: usize,
    },
    Object {
        end: usize,
    },
}

impl Head {
    /// The JSON value of `bytes` (`None`: not JSON).
    pub(crate) fn parse(bytes: &[u8]) -> Option<Head> {
        let mut tape = Tape {
            text: String::new(),
            nodes: Vec::new(),
        };
        let (_, complete) = parse_partial_into(bytes, true, &mut tape)?;
        Some(Head {
            text: tape.text,
            nodes: tape.nodes,
            complete,
        })
    }

    /// The value.
    pub(crate) fn value(&self) -> Json<'_> {
        Json { head: self, i: 0 }
    }
}

/// Builds a [`Head`]'s nodes: a container's node is written when it begins
/// and told its end when it ends.
struct Tape {
    text: String,
    nodes: Vec<Node>,
}

impl Tape {
    fn node(&mut self, kind: Kind) -> usize {
        self.nodes.push(Node { key: (0, 0), kind });
        self.nodes.len() - 1
    }
    fn text(&mut self, s: &str) -> (usize, usize) {
        let start = self.text.len();
        self.text.push_str(s);
        (start, self.text.len())
    }
}

impl<'a> Tree<'a> for Tape {
    type Node = usize;
    type Object = usize;
    type Array = usize;
    fn null(&mut self) -> usize {
        self.node(Kind::Null)
    }
    fn boolean(&mut self, b: bool) -> usize {
        self.node(Kind::Bool(b))
    }
    fn number(&mut self, _: Value) -> usize {
        self.node(Kind::Number)
    }
    fn string(&mut self, s: Cow<'a, str>) -> usize {
        let (start, end) = self.text(&s);
        self.node(Kind::Str(start, end))
    }
    fn begin_object(&mut self) -> usize {
        self.node(Kind::Object { end: 0 })
    }
    fn insert(&mut self, _: &mut usize, key: Cow<'a, str>, v: usize) {
        self.nodes[v].key = self.text(&key);
    }
    fn end_object(&mut self, o: usize) -> usize {
        self.nodes[o].kind = Kind::Object {
            end: self.nodes.len(),
        };
        o
    }
    fn begin_array(&mut self) -> usize {
        self.node(Kind::Array { end: 0 })
    }
    fn push(&mut self, _: &mut usize, _: usize) {}
    fn discard(&mut self, v: usize) {
        self.nodes.truncate(v);
    }
    fn end_array(&mut self, a: usize) -> usize {
        self.nodes[a].kind = Kind::Array {
            end: self.nodes.len(),
        };
        a
    }
}

/// A value of a [`Head`], read as a `serde_json::Value` is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Json<'h> {
    head: &'h Head,
    i: usize,
}

impl PartialEq for Json<'_> {
    /// The same value of the same head.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.head, other.head) && self.i == other.i
    }
}

impl<'h> Json<'h> {
    fn kind(self) -> Kind {
        self.head.nodes[self.i].kind
    }

    /// Where the nodes after this value (and its members) start.
    fn after(self) -> usize {
        match self.kind() {
            Kind::Array { end } | Kind::Object { end } => end,
            _ => self.i + 1,
        }
    }

    fn members(self, end: usize) -> Members<'h> {
        Members {
            head: self.head,
            next: self.i + 1,
            end,
        }
    }

    pub(crate) fn as_str(self) -> Option<&'h str> {
        match self.kind() {
            Kind::Str(start, end) => Some(&self.head.text[start..end]),
            _ => None,
        }
    }

    pub(crate) fn is_array(self) -> bool {
        matches!(self.kind(), Kind::Array { .. })
    }

    /// An array's elements.
    pub(crate) fn as_array(self) -> Option<Members<'h>> {
        match self.kind() {
            Kind::Array { end } => Some(self.members(end)),
            _ => None,
        }
    }

    pub(crate) fn as_object(self) -> Option<Object<'h>> {
        match self.kind() {
            Kind::Object { end } => Some(Object(self.members(end))),
            _ => None,
        }
    }

    /// An object's value for `key` (`None` for anything but an object).
    pub(crate) fn get(self, key: &str) -> Option<Json<'h>> {
        self.as_object()?.get(key)
    }
}

/// The elements of an array or the values of an object, in order.
#[derive(Debug, Clone)]
pub(crate) struct Members<'h> {
    head: &'h Head,
    next: usize,
    end: usize,
}

impl<'h> Iterator for Members<'h> {
    type Item = Json<'h>;
    fn next(&mut self) -> Option<Json<'h>> {
        if self.next >= self.end {
            return None;
        }
        let v = Json {
            head: self.head,
            i: self.next,
        };
        self.next = v.after();
        Some(v)
    }
}

/// An object of a [`Head`].
#[derive(Debug, Clone)]
pub(crate) struct Object<'h>(Members<'h>);

impl<'h> Object<'h> {
    /// The value of `key`: the last one when it is repeated.
    pub(crate) fn get(&self, key: &str) -> Option<Json<'h>> {
        let text = &self.0.head.text;
        self.0
            .clone()
            .filter(|v| {
                let (start, end) = self.0.head.nodes[v.i].key;
                &text[start..end] == key
            })
            .last()
    }

    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::super::generic::parse_partial;
    use super::*;
    use serde_json::Map;

    /// The `Value` a [`Json`] stands for (numbers as 0: only their place is kept).
    fn to_value(v: Json) -> Value {
        match v.kind() {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(b),
            Kind::Number => Value::from(0),
            Kind::Str(..) => Value::String(v.as_str().unwrap().to_string()),
            Kind::Array { .. } => Value::Array(v.as_array().unwrap().map(to_value).collect()),
            Kind::Object { .. } => {
                let mut m = Map::new();
                for f in v.as_object().unwrap().0 {
                    let (start, end) = v.head.nodes[f.i].key;
                    m.insert(v.head.text[start..end].to_string(), to_value(f));
                }
                Value::Object(m)
            }
        }
    }

    /// Numbers as 0, as [`to_value`] gives them.
    fn zero_numbers(v: &mut Value) {
        match v {
            Value::Number(_) => *v = Value::from(0),
            Value::Array(a) => a.iter_mut().for_each(zero_numbers),
            Value::Object(o) => o.values_mut().for_each(zero_numbers),
            _ => {}
        }
    }

    /// The head's tree is `parse_partial`'s `Value` (partial elements kept).
    pub(crate) fn same_as_value(bytes: &[u8]) {
        let head = Head::parse(bytes);
        let value = parse_partial(bytes, true);
        assert_eq!(
            head.is_some(),
            value.is_some(),
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
        if let (Some(h), Some(mut v)) = (head, value) {
            zero_numbers(&mut v.value);
            assert_eq!(to_value(h.value()), v.value);
            assert_eq!(h.complete, v.complete);
        }
    }

    /// The head of every fixture and real transcript (whole, its first line,
    /// and cut every 997 bytes) reads as `parse_partial` reads it.
    #[test]
    fn every_fixture_head_reads_as_a_value_does() {
        let all = crate::decode::files_under(&crate::decode::SESSION_ROOTS, |_| true);
        assert!(all.len() > 50, "the fixtures are there");
        for f in &all {
            let bytes = std::fs::read(f).unwrap();
            let head = &bytes[..bytes.len().min(crate::decode::SNIFF_BYTES)];
            let head = &*crate::decode::probe::non_finite_to_null(head);
            same_as_value(head);
            let line = head.split(|&c| c == b'\n').next().unwrap_or_default();
            same_as_value(line);
            for cut in (0..head.len()).step_by(997) {
                same_as_value(&head[..cut]);
            }
        }
    }

    #[test]
    fn heads_read_as_values_do() {
        for text in [
            r#"{"a":1,"list":[{"x":1},{"x":2},{"x":"cu"#,
            r#"[{"role":"user","content":"hel"#,
            r#"{"k": "a\nb\"c\\d\/e\tf\u00e9", "s": "\ud83d\ude00x", "e": "", "": 2}"#,
            r#"{"a":1,"b":{"c":[1,2,{"d":null}]},"a":{"z":true}} "#,
            r#"{"a":[true,null,-1.5e3,"x\"y"],"b":[],"c":{}}"#,
            r#"[[[1,[2,[3"#,
            r#"{"a":{"b":[{"c":"#,
            r#"{"a" 1}"#,
            "[\"a\\nb\x01\"]",
            "# aider chat started",
            "   ",
            "\u{feff}{\"bom\":1}",
            "{\"x\":tru",
            "[1,2,3",
            "{\"n\":12",
        ] {
            same_as_value(text.as_bytes());
            for cut in 0..=text.len() {
                same_as_value(&text.as_bytes()[..cut]);
            }
        }
        let h = Head::parse(br#"{"a":1,"b":{"c":[1,"two"]},"a":"last"}"#).unwrap();
        let o = h.value().as_object().unwrap();
        assert_eq!(o.get("a").and_then(Json::as_str), Some("last"));
        assert!(o.contains_key("b") && !o.contains_key("c"));
        let c: Vec<_> = h
            .value()
            .get("b")
            .unwrap()
            .get("c")
            .unwrap()
            .as_array()
            .unwrap()
            .collect();
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].as_str(), Some("two"));
        assert!(c[0] != c[1] && c[0] == c[0]);
    }
}
