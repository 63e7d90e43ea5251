//! Text already written for an identical value, written again by copy.
//!
//! 32 skills judged over the same trajectories print the same rows 32
//! times (each rule's `per_trajectory` and `evidence`, the valid paths):
//! most of a many-skill JSON. A value wrapped in
//! [`crate::score::lists::Cached`] is written by
//! [`super::pretty`]'s serializer, when it is given a [`Fragments`], as
//! follows: the value is first serialized into a compact key (every serde
//! call and its data, tagged and length-prefixed, so two values with the
//! same key make the same serde calls, hence the same text), then its text
//! at that depth is copied when that key was written before, else written
//! and kept. Any other serializer sees the value itself
//! (`serialize_newtype_struct` is transparent to serde_json).
//!
//! The key serializer says it is not human-readable: the lists of
//! [`crate::score::lists`] then give, instead of their rows, the versions
//! of the records their text is made of — a few bytes, with no record read
//! back. Skills whose lists are shared (the gate builds one set for skills
//! that judge the same trajectories alike) have the same versions.
//!
//! Memory is bounded: texts and keys are kept up to [`BUDGET`] bytes in
//! all, after which only the texts already kept are reused.

use serde::ser::{self, Serialize, Serializer};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

pub(crate) use crate::score::lists::CACHED as NAME;

/// Bytes of keys and texts kept, at most.
pub(crate) const BUDGET: usize = 4 << 20;

/// The longest text kept (the longest over the bench's 140 MB corpus is
/// 0.36 MiB): a longer one is written again each time rather than held
/// whole while it is written, so memory does not grow with the corpus.
pub(crate) const LONGEST: usize = 512 << 10;

/// Texts written, by key; shared by the threads writing one output.
pub(crate) struct Fragments {
    inner: Mutex<Inner>,
    budget: usize,
}

#[derive(Default)]
struct Inner {
    texts: HashMap<Vec<u8>, Arc<[u8]>, BuildHasherDefault<WordHasher>>,
    kept: usize,
}

/// A hash of a key read 32 bytes at a time in four independent lanes
/// (keys are tens of kilobytes; a collision only costs a comparison).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
        let mut lanes = [self.0, 1, 2, 3];
        let mut blocks = bytes.chunks_exact(32);
        for b in &mut blocks {
            for (k, lane) in lanes.iter_mut().enumerate() {
                *lane = (lane.rotate_left(5) ^ word(&b[8 * k..8 * k + 8])).wrapping_mul(K);
            }
        }
        let mut h = lanes[0] ^ lanes[1].rotate_left(16) ^ lanes[2].rotate_left(32);
        h ^= lanes[3].rotate_left(48);
        for &b in blocks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h.wrapping_mul(K);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl Fragments {
    pub(crate) fn new() -> Fragments {
        Fragments::with_budget(BUDGET)
    }

    pub(crate) fn with_budget(budget: usize) -> Fragments {
        Fragments {
            inner: Mutex::new(Inner::default()),
            budget,
        }
    }

    /// The text written before for `key`.
    pub(crate) fn get(&self, key: &[u8]) -> Option<Arc<[u8]>> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.texts.get(key).cloned()
    }

    /// How long a text for `key` may be and still be kept; `None` when
    /// none would be.
    pub(crate) fn room(&self, key: &[u8]) -> Option<usize> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let room = self.budget.checked_sub(inner.kept + key.len())?;
        Some(room.min(LONGEST))
    }

    /// Keep `text` for `key`, within the budget.
    pub(crate) fn keep(&self, key: &[u8], text: &[u8]) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let size = key.len() + text.len();
        let fits = inner.kept + size <= self.budget && text.len() <= LONGEST;
        if fits && !inner.texts.contains_key(key) {
            inner.kept += size;
            inner.texts.insert(key.to_vec(), text.into());
        }
    }
}

/// The key of `value`: what it hands to a serializer, as bytes.
pub(crate) fn key_of<T: Serialize + ?Sized>(
    value: &T,
    key: &mut Vec<u8>,
) -> Result<(), serde_json::Error> {
    value.serialize(&mut Key { out: key })
}

/// Writes every serde call as a tag byte and its data.
struct Key<'a> {
    out: &'a mut Vec<u8>,
}

impl Key<'_> {
    fn tag(&mut self, t: u8) {
        self.out.push(t);
    }
    fn bytes(&mut self, t: u8, b: &[u8]) {
        self.out.push(t);
        self.out.extend_from_slice(&(b.len() as u64).to_le_bytes());
        self.out.extend_from_slice(b);
    }
    /// A name the program holds (a type's, a field's, a variant's): by
    /// address and length. The same address is the same text; the same
    /// text at two addresses only makes two keys for one text.
    fn name(&mut self, t: u8, name: &'static str) {
        self.out.push(t);
        self.out
            .extend_from_slice(&(name.as_ptr() as usize as u64).to_le_bytes());
        self.out
            .extend_from_slice(&(name.len() as u64).to_le_bytes());
    }
    fn num(&mut self, t: u8, b: &[u8]) {
        self.out.push(t);
        self.out.extend_from_slice(b);
    }
}

type R = Result<(), serde_json::Error>;

impl<'a, 'b> Serializer for &'a mut Key<'b> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    /// Not human-readable: a list of [`crate::score::lists`] gives its
    /// identity (the versions of its records) instead of its rows.
    fn is_human_readable(&self) -> bool {
        false
    }
    fn serialize_bool(self, v: bool) -> R {
        self.num(1, &[u8::from(v)]);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> R {
        self.num(2, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> R {
        self.num(3, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> R {
        self.num(4, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> R {
        self.num(5, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> R {
        self.num(6, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> R {
        self.num(7, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> R {
        self.num(8, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> R {
        self.num(9, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> R {
        self.num(10, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> R {
        self.num(11, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> R {
        self.num(12, &v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> R {
        self.num(13, &v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> R {
        self.num(14, &u32::from(v).to_le_bytes());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> R {
        self.bytes(15, v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> R {
        self.bytes(16, v);
        Ok(())
    }
    fn serialize_none(self) -> R {
        self.tag(17);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        self.tag(18);
        value.serialize(self)
    }
    fn serialize_unit(self) -> R {
        self.tag(19);
        Ok(())
    }
    fn serialize_unit_struct(self, name: &'static str) -> R {
        self.name(20, name);
        Ok(())
    }
    fn serialize_unit_variant(self, name: &'static str, _i: u32, variant: &'static str) -> R {
        self.name(21, name);
        self.name(21, variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> R {
        self.name(22, name);
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> R {
        self.name(23, name);
        self.name(23, variant);
        value.serialize(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self, serde_json::Error> {
        self.tag(24);
        Ok(self)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self, serde_json::Error> {
        self.tag(25);
        Ok(self)
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        _len: usize,
    ) -> Result<Self, serde_json::Error> {
        self.name(26, name);
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self, serde_json::Error> {
        self.name(27, name);
        self.name(27, variant);
        Ok(self)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self, serde_json::Error> {
        self.tag(28);
        Ok(self)
    }
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Self, serde_json::Error> {
        self.name(29, name);
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self, serde_json::Error> {
        self.name(30, name);
        self.name(30, variant);
        Ok(self)
    }
}

/// An element, a field or the end of a compound value.
impl Key<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        self.tag(31);
        value.serialize(self)
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
        self.name(32, key);
        value.serialize(self)
    }
    fn end(&mut self) -> R {
        self.tag(33);
        Ok(())
    }
}

// The compound serializers whose parts are elements: the same three lines
// each, for each of serde's traits.
macro_rules! element_parts {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for &mut Key<'_> {
            type Ok = ();
            type Error = serde_json::Error;
            fn $m<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
                self.element(value)
            }
            fn end(self) -> R {
                Key::end(self)
            }
        }
    )*};
}

element_parts!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for &mut Key<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        self.tag(34);
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        self.element(value)
    }
    fn end(self) -> R {
        Key::end(self)
    }
}

// The struct serializers: named fields, the same for both of serde's traits.
macro_rules! field_parts {
    ($($tr:ident),*) => {$(
        impl ser::$tr for &mut Key<'_> {
            type Ok = ();
            type Error = serde_json::Error;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
                self.field(key, value)
            }
            fn skip_field(&mut self, key: &'static str) -> R {
                self.name(35, key);
                Ok(())
            }
            fn end(self) -> R {
                Key::end(self)
            }
        }
    )*};
}

field_parts!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::pretty::to_vec_pretty_spilling;
    use crate::score::lists::Cached;
    use serde_json::json;

    /// serde_json's pretty text of `v`, as if `level` deep.
    fn pretty_at(v: &serde_json::Value, level: usize) -> String {
        let text = serde_json::to_string_pretty(v).unwrap();
        text.replace('\n', &format!("\n{}", "  ".repeat(level)))
    }

    #[derive(serde::Serialize)]
    struct Two<'a> {
        a: Cached<'a, serde_json::Value>,
        b: Vec<Cached<'a, serde_json::Value>>,
    }

    #[test]
    fn cached_values_are_written_as_serde_json_writes_them() {
        let x = json!([{"p": "a\"b", "n": 1, "f": false}, {"p": "c", "n": null}]);
        let y = json!([{"p": "a\"b", "n": 2, "f": false}, {"p": "c", "n": null}]);
        let z = json!({"p": ["a\"b"], "n": 1.5});
        let empty = json!([]);
        let plain = json!({"a": x, "b": [y, x, z, x, []]});
        let two = Two {
            a: Cached(&x),
            b: vec![
                Cached(&y),
                Cached(&x),
                Cached(&z),
                Cached(&x),
                Cached(&empty),
            ],
        };
        for budget in [0, 40, 200, BUDGET] {
            let f = Fragments::with_budget(budget);
            for level in [0, 1, 3] {
                // twice: the second time from what the first kept
                for _ in 0..2 {
                    let mut out = Vec::new();
                    to_vec_pretty_spilling(&two, &mut out, level, None, Some(&f)).unwrap();
                    assert_eq!(String::from_utf8(out).unwrap(), pretty_at(&plain, level));
                }
            }
            let inner = f.inner.lock().unwrap();
            assert!(inner.kept <= budget, "{} kept of {budget}", inner.kept);
            assert_eq!(inner.texts.is_empty(), budget == 0);
        }
        // any other serializer sees the value itself
        assert_eq!(serde_json::to_value(&two).unwrap(), plain);
    }

    /// With the text moving to a file as it is written, a cached value too
    /// long to keep is written right, not kept, and not held whole: the
    /// buffer holds at most about [`LONGEST`] of it.
    #[test]
    fn long_texts_are_written_through_not_kept() {
        use crate::render::pretty::Overflow;
        let long = serde_json::Value::Array(
            (0..60_000)
                .map(|i| json!({"trajectory": format!("runs/{i:05}.jsonl"), "n": i}))
                .collect(),
        );
        let short = json!(["a", "b"]);
        let two = Two {
            a: Cached(&long),
            b: vec![Cached(&short), Cached(&long), Cached(&short)],
        };
        let plain = json!({"a": long, "b": [short, long, short]});
        let f = Fragments::new();
        for _ in 0..2 {
            let mut over = Overflow::new(1 << 10, 4 << 10).expect("a temporary file");
            let mut out = Vec::new();
            to_vec_pretty_spilling(&two, &mut out, 0, Some(&mut over), Some(&f)).unwrap();
            assert!(
                out.capacity() <= 2 * LONGEST,
                "{} bytes held",
                out.capacity()
            );
            let mut text = Vec::new();
            over.write_to(&out, &mut text).unwrap();
            assert_eq!(String::from_utf8(text).unwrap(), pretty_at(&plain, 0));
        }
        let inner = f.inner.lock().unwrap();
        assert!(serde_json::to_string_pretty(&long).unwrap().len() > 4 * LONGEST);
        assert_eq!(inner.texts.len(), 1, "the short list only");
    }

    #[test]
    fn keys_tell_apart_what_the_text_tells_apart() {
        let key = |v: &serde_json::Value| {
            let mut k = Vec::new();
            key_of(v, &mut k).unwrap();
            k
        };
        let values = [
            json!("ab"),
            json!(["a", "b"]),
            json!(["ab"]),
            json!({"a": "b"}),
            json!([1]),
            json!([1.0]),
            json!(["1"]),
            json!([true]),
            json!([null]),
            json!([[]]),
            json!([{}]),
            json!([[], []]),
        ];
        for (i, a) in values.iter().enumerate() {
            for (j, b) in values.iter().enumerate() {
                assert_eq!(key(a) == key(b), i == j, "{a} {b}");
            }
        }
    }
}
