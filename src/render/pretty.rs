//! `serde_json::to_writer_pretty`'s output, byte for byte, into a `Vec<u8>`,
//! with strings escaped 16 or 32 bytes at a time.
//!
//! serde_json escapes a string a byte at a time; 32 skills' verdicts over a
//! large corpus are tens of megabytes of JSON, mostly trajectory paths and
//! keys, and that byte loop was two thirds of writing them. This serializer
//! writes the same text: the same pretty layout (two spaces, `[]` / `{}` when
//! empty, `": "` after a key), the same escapes (`\"`, `\\`, `\b`, `\f`, `\n`,
//! `\r`, `\t`, `\u00xx` in lower case for the other control characters,
//! nothing else escaped), numbers as serde_json writes them (floats by
//! serde_json itself), the same map keys (strings; numbers, booleans and
//! chars quoted; anything else an error). Tests compare it with serde_json.

use super::fragments::Fragments;
use serde::ser::{self, Serialize};
use std::io::{Seek as _, Write as _};

type Error = serde_json::Error;
type Result<T> = std::result::Result<T, Error>;

/// Serialize `value` as serde_json's pretty JSON into `out`, as if it
/// started `level` levels deep (each line after the first indented by
/// `2 * level` more spaces).
#[cfg(test)]
pub(crate) fn to_vec_pretty_at<T: Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
    level: usize,
) -> Result<()> {
    value.serialize(&mut Ser {
        out,
        level,
        overflow: None,
        fragments: None,
        capturing: 0,
        capture_end: 0,
        spoiled: false,
        scratch: Vec::new(),
    })
}

/// [`to_vec_pretty_at`] for a text that may be long: its first `keep` bytes
/// (about) stay in `out`, what follows goes to `overflow`'s file in blocks
/// of `block` bytes, and the last block stays in `out` after them (see
/// [`Overflow::write_to`]).
pub(crate) fn to_vec_pretty_spilling<T: Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
    level: usize,
    overflow: Option<&mut Overflow>,
    fragments: Option<&Fragments>,
) -> Result<()> {
    let Some(overflow) = overflow else {
        return value.serialize(&mut Ser {
            out,
            level,
            overflow: None,
            fragments,
            capturing: 0,
            capture_end: 0,
            spoiled: false,
            scratch: Vec::new(),
        });
    };
    overflow.head = None;
    overflow.written = 0;
    overflow
        .file
        .seek(std::io::SeekFrom::Start(0))
        .map_err(Error::io)?;
    value.serialize(&mut Ser {
        out,
        level,
        overflow: Some(overflow),
        fragments,
        capturing: 0,
        capture_end: 0,
        spoiled: false,
        scratch: Vec::new(),
    })
}

/// Where the middle of a long text waits: an anonymous temporary file.
pub(crate) struct Overflow {
    file: std::fs::File,
    keep: usize,
    block: usize,
    /// Where the text kept in memory ends, once the text passed `keep`.
    head: Option<usize>,
    /// Bytes written to the file.
    written: u64,
}

impl Overflow {
    /// `None` when no temporary file can be made (the text then stays in memory).
    pub(crate) fn new(keep: usize, block: usize) -> Option<Overflow> {
        tempfile::tempfile().ok().map(|file| Overflow {
            file,
            keep,
            block: block.max(1),
            head: None,
            written: 0,
        })
    }

    /// Move the bytes past the head to the file once there are `block` of
    /// them; whether any were moved.
    fn drain(&mut self, out: &mut Vec<u8>) -> Result<bool> {
        match self.head {
            None if out.len() >= self.keep => self.head = Some(out.len()),
            Some(h) if out.len() - h >= self.block => {
                self.file.write_all(&out[h..]).map_err(Error::io)?;
                self.written += (out.len() - h) as u64;
                out.truncate(h);
                return Ok(true);
            }
            _ => {}
        }
        Ok(false)
    }

    /// Write the whole text of the last [`to_vec_pretty_spilling`] into
    /// `out` to `w`: the head, the file's part, the rest.
    pub(crate) fn write_to(
        &mut self,
        out: &[u8],
        w: &mut impl std::io::Write,
    ) -> std::io::Result<()> {
        use std::io::{Read, Seek};
        let h = self.head.unwrap_or(out.len()).min(out.len());
        w.write_all(&out[..h])?;
        if self.written > 0 {
            self.file.seek(std::io::SeekFrom::Start(0))?;
            let copied = std::io::copy(&mut (&mut self.file).take(self.written), w)?;
            if copied != self.written {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the JSON's temporary file is shorter than what was written to it",
                ));
            }
        }
        w.write_all(&out[h..])
    }
}

struct Ser<'a> {
    out: &'a mut Vec<u8>,
    level: usize,
    overflow: Option<&'a mut Overflow>,
    /// Texts of [`crate::score::lists::Cached`] values written before.
    fragments: Option<&'a Fragments>,
    /// How many cached values are being written to be kept: nothing is
    /// moved out of `out` meanwhile, until it passes `capture_end` (the
    /// longest text the outermost one could keep), after which they are
    /// `spoiled` and not kept.
    capturing: usize,
    capture_end: usize,
    spoiled: bool,
    /// The buffer a key is built in, reused.
    scratch: Vec<u8>,
}

impl Ser<'_> {
    /// A line break and the indentation of `level`.
    fn line(&mut self) {
        const SPACES: &[u8] = b"\n                                                                ";
        let want = 1 + 2 * self.level;
        if want <= SPACES.len() {
            self.out.extend_from_slice(&SPACES[..want]);
        } else {
            self.out.push(b'\n');
            self.out.resize(self.out.len() + 2 * self.level, b' ');
        }
    }

    fn open(&mut self, c: u8) {
        self.level += 1;
        self.out.push(c);
    }

    fn close(&mut self, c: u8, any: bool) {
        self.level -= 1;
        if any {
            self.line();
        }
        self.out.push(c);
    }

    fn display(&mut self, v: impl std::fmt::Display) {
        // writing into a Vec cannot fail
        let _ = write!(self.out, "{v}");
    }

    /// A [`crate::score::lists::Cached`] value: the text written before for
    /// the same key at the same depth, else written now and kept.
    fn cached<T: Serialize + ?Sized>(&mut self, f: &Fragments, value: &T) -> Result<()> {
        // (a cached value inside this one finds the buffer empty)
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        key.extend_from_slice(&(self.level as u64).to_le_bytes());
        let written = self.cached_with(f, value, &mut key);
        self.scratch = key;
        written
    }

    fn cached_with<T: Serialize + ?Sized>(
        &mut self,
        f: &Fragments,
        value: &T,
        key: &mut Vec<u8>,
    ) -> Result<()> {
        super::fragments::key_of(value, key)?;
        if let Some(text) = f.get(key) {
            self.out.extend_from_slice(&text);
            return Ok(());
        }
        let Some(room) = f.room(key) else {
            return value.serialize(&mut *self);
        };
        let start = self.out.len();
        if self.capturing == 0 {
            (self.capture_end, self.spoiled) = (start + room, false);
        }
        self.capturing += 1;
        let written = value.serialize(&mut *self);
        self.capturing -= 1;
        written?;
        if !self.spoiled {
            f.keep(key, &self.out[start..]);
        }
        Ok(())
    }

    /// `{"variant": ` of an enum's newtype, tuple or struct variant.
    fn variant_key(&mut self, variant: &str) {
        self.open(b'{');
        self.line();
        escape_str(self.out, variant);
        self.out.extend_from_slice(b": ");
    }
}

/// `v` in decimal, as `Display` (and serde_json) writes it: a digit loop
/// into a stack buffer (`write!` goes through `fmt`, several times slower,
/// and a verdict holds hundreds of thousands of counts).
fn write_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// [`write_u64`] with a sign.
fn write_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(out, v.unsigned_abs());
}

/// `s` as a JSON string, escaped as serde_json escapes it. The special
/// bytes of a long string are found 16 at a time (the last, partial block
/// looked at again from its end), of a short one a byte at a time.
pub(crate) fn escape_str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let n = b.len();
    out.reserve(n + 2);
    out.push(b'"');
    let mut start = 0;
    if n < 16 {
        if !short_has_special(b) {
            out.extend_from_slice(b);
            out.push(b'"');
            return;
        }
        for (j, &c) in b.iter().enumerate() {
            if is_special(c) {
                out.extend_from_slice(&b[start..j]);
                escape_byte(out, c);
                start = j + 1;
            }
        }
    } else {
        let mut i = 0;
        loop {
            // the block at `i`, or the last 16 bytes with those before `i` masked off
            let (at, mut mask) = if i + 16 <= n {
                (i, crate::decode::fastjson::special_mask_16(b, i))
            } else {
                let at = n - 16;
                (
                    at,
                    crate::decode::fastjson::special_mask_16(b, at) & (!0u64 << (i - at)),
                )
            };
            while mask != 0 {
                let j = at + mask.trailing_zeros() as usize;
                out.extend_from_slice(&b[start..j]);
                escape_byte(out, b[j]);
                start = j + 1;
                mask &= mask - 1;
            }
            i = at + 16;
            if i >= n {
                break;
            }
        }
    }
    out.extend_from_slice(&b[start..]);
    out.push(b'"');
}

/// Whether a string shorter than 16 bytes has a special byte: its bytes
/// read as one or two (overlapping) 8-byte words, tested all at once.
#[inline]
fn short_has_special(b: &[u8]) -> bool {
    let n = b.len();
    let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
    let half = |i: usize| {
        u64::from(u32::from_le_bytes(
            b[i..i + 4].try_into().unwrap_or_default(),
        ))
    };
    if n >= 8 {
        word_has_special(word(0)) || word_has_special(word(n - 8))
    } else if n >= 4 {
        word_has_special(half(0) | (half(n - 4) << 32))
    } else {
        b.iter().any(|&c| is_special(c))
    }
}

/// Whether any byte of `x` is `"`, `\` or below 0x20 (exact as a yes/no).
#[inline]
fn word_has_special(x: u64) -> bool {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES << 7;
    let ctrl = x.wrapping_sub(ONES * 0x20) & !x;
    let q = x ^ (ONES * u64::from(b'"'));
    let quote = q.wrapping_sub(ONES) & !q;
    let bs = x ^ (ONES * u64::from(b'\\'));
    let backslash = bs.wrapping_sub(ONES) & !bs;
    (ctrl | quote | backslash) & HIGH != 0
}

#[inline]
fn is_special(c: u8) -> bool {
    c == b'"' || c == b'\\' || c < 0x20
}

/// The escape of a special byte.
fn escape_byte(out: &mut Vec<u8>, c: u8) {
    match c {
        b'"' => out.extend_from_slice(b"\\\""),
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'\x08' => out.extend_from_slice(b"\\b"),
        b'\x0c' => out.extend_from_slice(b"\\f"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(c >> 4)],
                HEX[usize::from(c & 0xf)],
            ]);
        }
    }
}

impl<'a, 'b> ser::Serializer for &'a mut Ser<'b> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'b>;
    type SerializeTuple = Compound<'a, 'b>;
    type SerializeTupleStruct = Compound<'a, 'b>;
    type SerializeTupleVariant = Compound<'a, 'b>;
    type SerializeMap = Compound<'a, 'b>;
    type SerializeStruct = Compound<'a, 'b>;
    type SerializeStructVariant = Compound<'a, 'b>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        write_i64(self.out, i64::from(v));
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        write_i64(self.out, i64::from(v));
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        write_i64(self.out, i64::from(v));
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        write_i64(self.out, v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.display(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        write_u64(self.out, u64::from(v));
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        write_u64(self.out, u64::from(v));
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        write_u64(self.out, u64::from(v));
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        write_u64(self.out, v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.display(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        serde_json::to_writer(&mut *self.out, &v)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        serde_json::to_writer(&mut *self.out, &v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        escape_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        escape_str(self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<()> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        escape_str(self.out, variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match self.fragments {
            Some(f) if name == super::fragments::NAME => self.cached(f, value),
            _ => value.serialize(self),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.variant_key(variant);
        value.serialize(&mut *self)?;
        self.close(b'}', true);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'b>> {
        self.open(b'[');
        Ok(Compound {
            ser: self,
            any: false,
            variant: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'b>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 'b>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'b>> {
        self.variant_key(variant);
        self.open(b'[');
        Ok(Compound {
            ser: self,
            any: false,
            variant: true,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'b>> {
        self.open(b'{');
        Ok(Compound {
            ser: self,
            any: false,
            variant: false,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 'b>> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'b>> {
        self.variant_key(variant);
        self.open(b'{');
        Ok(Compound {
            ser: self,
            any: false,
            variant: true,
        })
    }
}

/// An array or object being written.
pub(crate) struct Compound<'a, 'b> {
    ser: &'a mut Ser<'b>,
    /// An element or field was written (the closing bracket goes on its own line).
    any: bool,
    /// Inside `{"variant": …}`: that object closes too.
    variant: bool,
}

impl Compound<'_, '_> {
    fn next(&mut self) -> Result<()> {
        if self.any {
            self.ser.out.push(b',');
        }
        self.any = true;
        let ser = &mut *self.ser;
        if ser.capturing == 0 || ser.out.len() > ser.capture_end {
            if let Some(o) = ser.overflow.as_deref_mut() {
                // a text too long to keep is not held whole either
                ser.spoiled |= o.drain(ser.out)? && ser.capturing > 0;
            }
        }
        self.ser.line();
        Ok(())
    }

    fn finish(self, c: u8) -> Result<()> {
        self.ser.close(c, self.any);
        if self.variant {
            self.ser.close(b'}', true);
        }
        Ok(())
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<()> {
        self.next()?;
        escape_str(self.ser.out, key);
        self.ser.out.extend_from_slice(b": ");
        value.serialize(&mut *self.ser)
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.next()?;
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<()> {
        self.finish(b']')
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<()> {
        self.finish(b']')
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<()> {
        self.finish(b']')
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<()> {
        self.finish(b']')
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.next()?;
        key.serialize(KeySer { out: self.ser.out })?;
        self.ser.out.extend_from_slice(b": ");
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<()> {
        self.finish(b'}')
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<()> {
        self.finish(b'}')
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<()> {
        self.finish(b'}')
    }
}

/// A map key as serde_json writes it: strings, and numbers, booleans and
/// chars quoted; anything else is an error.
struct KeySer<'a> {
    out: &'a mut Vec<u8>,
}

fn key_error() -> Error {
    ser::Error::custom("key must be a string")
}

impl KeySer<'_> {
    fn quoted(self, v: impl std::fmt::Display) -> Result<()> {
        self.out.push(b'"');
        let _ = write!(self.out, "{v}");
        self.out.push(b'"');
        Ok(())
    }
    fn float(self, v: &impl Serialize) -> Result<()> {
        let mut tmp = Vec::new();
        serde_json::to_writer(&mut tmp, v)?;
        if tmp == b"null" {
            return Err(ser::Error::custom("float key must be finite"));
        }
        self.out.push(b'"');
        self.out.extend_from_slice(&tmp);
        self.out.push(b'"');
        Ok(())
    }
}

impl ser::Serializer for KeySer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        escape_str(self.out, v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        escape_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        escape_str(self.out, variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.quoted(v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.float(&v)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.float(&v)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<()> {
        Err(key_error())
    }
    fn serialize_none(self) -> Result<()> {
        Err(key_error())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<()> {
        Err(key_error())
    }
    fn serialize_unit(self) -> Result<()> {
        Err(key_error())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        Err(key_error())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(key_error())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_error())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(key_error())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_error())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_error())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_error())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(key_error())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    /// serde_json's pretty text, `level` deep, as [`super::super::json`]'s
    /// formatter writes it.
    fn serde_at<T: Serialize>(v: &T, level: usize) -> String {
        let mut out = Vec::new();
        v.serialize(&mut serde_json::Serializer::with_formatter(
            &mut out,
            super::super::json::Pretty::at_level(level),
        ))
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    fn ours_at<T: Serialize>(v: &T, level: usize) -> String {
        let mut out = Vec::new();
        to_vec_pretty_at(v, &mut out, level).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn same<T: Serialize>(v: &T) {
        for level in [0, 1, 2, 40] {
            assert_eq!(ours_at(v, level), serde_at(v, level), "level {level}");
        }
        assert_eq!(ours_at(v, 0), serde_json::to_string_pretty(v).unwrap());
    }

    #[test]
    fn integers_are_written_as_serde_json_writes_them() {
        let mut signed: Vec<i64> = vec![0, 1, -1, 9, 10, -10, 99, 100, i64::MIN, i64::MAX];
        let mut unsigned: Vec<u64> = vec![0, 9, 10, u64::MAX, u64::MAX - 1];
        for k in 0..19 {
            let p = 10i64.pow(k);
            signed.extend([p - 1, p, p + 1, -p + 1, -p, -p - 1]);
            unsigned.extend([p as u64 - 1, p as u64, p as u64 + 1]);
        }
        unsigned.extend([10u64.pow(19) - 1, 10u64.pow(19), 10u64.pow(19) + 1]);
        same(&signed);
        same(&unsigned);
        same(&(i8::MIN, i8::MAX, i16::MIN, i16::MAX, i32::MIN, i32::MAX));
        same(&(u8::MAX, u16::MAX, u32::MAX, 7u8, 0u16, 42u32));
    }

    #[test]
    fn values_are_serde_jsons_pretty_text() {
        let all_bytes: String = (0u8..128).map(char::from).collect();
        let mut deep = json!({
            "s": all_bytes,
            "u": "é 日本 🎉 \u{7f} \u{2028}",
            "long": "a\"b\\c\nd".repeat(50),
            "n": [0, -1, 18446744073709551615u64, -9223372036854775808i64, 1.5, -0.0, 1e300, 2.5e-8, 0.1],
            "e": [[], {}, [[]], [{}], {"a": []}],
            "b": [true, false, null],
        });
        for i in 0..30 {
            deep = json!({ format!("k{i}\t"): [deep, i, "s"] });
        }
        same(&deep);
        same(&json!([]));
        same(&json!({}));
        same(&json!("x"));
        same(&f64::NAN);
        same(&f32::INFINITY);
        same(&1.1f32);
    }

    #[derive(serde::Serialize)]
    enum E {
        Unit,
        New(u8),
        Tuple(u8, &'static str),
        Struct { a: u8, b: Vec<u8> },
        EmptyTuple(),
        EmptyStruct {},
    }

    #[derive(serde::Serialize)]
    struct Unit;

    #[derive(serde::Serialize)]
    struct S {
        e: Vec<E>,
        unit: (),
        unit_struct: Unit,
        tuple: (u8, char, Option<i128>),
        opt: Option<u128>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
        #[serde(with = "serde_bytes_like")]
        bytes: Vec<u8>,
        ints: BTreeMap<i32, bool>,
        bools: BTreeMap<bool, u8>,
        chars: BTreeMap<char, u8>,
        #[serde(flatten)]
        flat: BTreeMap<String, u8>,
    }

    mod serde_bytes_like {
        pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(v)
        }
    }

    #[test]
    fn every_shape_of_the_data_model_is_serde_jsons() {
        let s = S {
            e: vec![
                E::Unit,
                E::New(7),
                E::Tuple(1, "x\u{1}"),
                E::Struct { a: 2, b: vec![] },
                E::Struct {
                    a: 3,
                    b: vec![4, 5],
                },
                E::EmptyTuple(),
                E::EmptyStruct {},
            ],
            unit: (),
            unit_struct: Unit,
            tuple: (9, '"', Some(-170141183460469231731687303715884105728)),
            opt: Some(u128::MAX),
            skipped: None,
            bytes: vec![0, 255],
            ints: [(-3, true), (4, false)].into_iter().collect(),
            bools: [(true, 1)].into_iter().collect(),
            chars: [('\n', 1)].into_iter().collect(),
            flat: [("z\"".to_string(), 1)].into_iter().collect(),
        };
        same(&s);
        same(&vec![E::New(1)]);
        let floats: BTreeMap<String, f64> = [("k".to_string(), 0.5)].into_iter().collect();
        same(&floats);
        // keys serde_json refuses are refused
        let bad: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into_iter().collect();
        assert!(to_vec_pretty_at(&bad, &mut Vec::new(), 0).is_err());
        assert!(serde_json::to_string_pretty(&bad).is_err());
    }

    #[test]
    fn short_strings_are_tested_exactly() {
        // every string of up to 15 bytes over a small alphabet with specials
        let alphabet = [
            b'a', b'"', b'\\', 0x1f, 0x20, 0x7f, 0xc3, b'!', b'#', b'[', b']',
        ];
        for n in 0..16 {
            for seed in 0..400usize {
                let b: Vec<u8> = (0..n)
                    .map(|k| alphabet[(seed * 7 + k * (seed % 5 + 1)) % alphabet.len()])
                    .collect();
                assert_eq!(
                    short_has_special(&b),
                    b.iter().any(|&c| is_special(c)),
                    "{b:?}"
                );
            }
        }
        // every byte value at every position, next to every neighbour class
        for n in 1..16 {
            for pos in 0..n {
                for c in 0..=255u8 {
                    for fill in [b'a', 0x20, 0x21, 0xff, 0x80] {
                        let mut b = vec![fill; n];
                        b[pos] = c;
                        assert_eq!(short_has_special(&b), b.iter().any(|&c| is_special(c)));
                    }
                }
            }
        }
        for x in [0u64, u64::MAX, 0x2121_2121_2121_2121, 0x2020_2020_2020_2020] {
            let bytes = x.to_le_bytes();
            assert_eq!(word_has_special(x), bytes.iter().any(|&c| is_special(c)));
        }
    }

    #[test]
    fn escapes_at_every_offset_are_serde_jsons() {
        for n in 0..70 {
            for special in ["\"", "\\", "\n", "\u{1f}", "\u{0}", "é", "\u{7f}"] {
                let s = format!("{}{special}{}", "a".repeat(n), "b".repeat(n % 7));
                let mut out = Vec::new();
                escape_str(&mut out, &s);
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    serde_json::to_string(&s).unwrap()
                );
            }
            // specials everywhere, the overlapping last block included
            for unit in ["\"\n", "x\\", "\u{1}é", "ab\tcd"] {
                let s = unit.repeat(n);
                let mut out = Vec::new();
                escape_str(&mut out, &s);
                let want = serde_json::to_string(&s).unwrap();
                assert_eq!(String::from_utf8(out).unwrap(), want);
            }
        }
    }
}
