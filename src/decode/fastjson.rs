//! A validating JSON walker for the decoders' hot path: it steps over the
//! values a decoder does not keep at memory speed (a string's end is found
//! 64 bytes at a time) and hands serde_json only the values that are kept.
//!
//! It is a fast path, never the only path: whenever it meets anything it
//! cannot vouch for — a syntax error, a truncated text, an escaped key, a
//! duplicate field, nesting deeper than [`MAX_DEPTH`], a kept value serde_json
//! rejects — it gives up ([`GiveUp`]) and the caller parses the whole text
//! with serde_json as before, so that errors (their category and column) and
//! what is counted stay exactly what they were. What it accepts, serde_json
//! accepts with the same meaning: the JSON grammar (RFC 8259) exactly as
//! serde_json reads it when it skips a value (control characters in strings
//! are errors; `\u` takes four hex digits, a lone surrogate is not checked in
//! a skipped string; numbers `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`;
//! whitespace is space, tab, CR and LF).

use serde::Deserialize;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Nesting (objects and arrays, counted from the top of the text) past which
/// the fast path gives up; serde_json's own limit is 128.
pub const MAX_DEPTH: usize = 100;

/// The fast path cannot vouch for this text: parse it with serde_json.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GiveUp;

/// [`string_end`]: the string has an escape.
pub const ESCAPED: u8 = 1;
/// [`string_end`]: the string has a `\uD8xx`–`\uDFxx` escape (a surrogate
/// half; implies [`ESCAPED`]).
pub const SURROGATE: u8 = 2;

/// Result of a fast-path step.
pub type Fast<T> = Result<T, GiveUp>;

/// A position in a JSON text.
pub struct Cursor<'a> {
    s: &'a str,
    i: usize,
    /// A number with an exponent or more than 300 digits in a row, or a
    /// surrogate escape, was stepped over (see [`Cursor::take_risky`]).
    risky: bool,
}

impl<'a> Cursor<'a> {
    pub fn new(s: &'a str) -> Self {
        Cursor {
            s,
            i: 0,
            risky: false,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.s.as_bytes()
    }

    /// Skip JSON whitespace.
    #[inline]
    pub fn ws(&mut self) {
        let b = self.bytes();
        // most values follow their comma or colon directly: one comparison
        if b.get(self.i).is_some_and(|&c| c > b' ') {
            return;
        }
        while let Some(&c) = b.get(self.i) {
            if !matches!(c, b' ' | b'\n' | b'\t' | b'\r') {
                break;
            }
            self.i += 1;
        }
    }

    /// The next byte after whitespace.
    pub fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.bytes().get(self.i).copied()
    }

    /// Where the next value starts (whitespace skipped).
    pub fn pos(&mut self) -> usize {
        self.ws();
        self.i
    }

    /// Go back to a position [`Cursor::pos`] gave.
    pub fn set_pos(&mut self, i: usize) {
        self.i = i;
    }

    /// The text from `start` to the cursor.
    pub fn since(&self, start: usize) -> &'a str {
        &self.s[start..self.i]
    }

    /// Whether a number with an exponent or a run of more than 300 digits, or
    /// a `\uD8xx`–`\uDFxx` escape (in a key or a value), was read since the
    /// last call: values that serde_json skips but may refuse as a `Value`.
    pub fn take_risky(&mut self) -> bool {
        std::mem::take(&mut self.risky)
    }

    /// Only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.ws();
        self.i == self.s.len()
    }

    fn eat(&mut self, c: u8) -> Fast<()> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    /// Step over one value (inside `depth` containers) and return its text.
    pub fn value(&mut self, depth: usize) -> Fast<&'a str> {
        self.ws();
        let start = self.i;
        self.skip_value(depth)?;
        Ok(&self.s[start..self.i])
    }

    /// Step over one value inside `depth` containers.
    pub fn skip(&mut self, depth: usize) -> Fast<()> {
        self.ws();
        self.skip_value(depth)
    }

    /// The fields of an object (the next value, inside `depth` containers):
    /// `field` is called with each key and must consume its value (with
    /// `depth + 1` as the depth of the value). A key with an escape gives up.
    #[inline(always)]
    pub fn object(
        &mut self,
        depth: usize,
        mut field: impl FnMut(&mut Cursor<'a>, &'a str) -> Fast<()>,
    ) -> Fast<()> {
        if depth >= MAX_DEPTH {
            return Err(GiveUp);
        }
        self.eat(b'{')?;
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(());
        }
        loop {
            let key = self.plain_key()?;
            self.eat(b':')?;
            field(self, key)?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(GiveUp),
            }
        }
    }

    /// The elements of an array (the next value, inside `depth` containers):
    /// `element` is called for each and must consume it.
    #[inline(always)]
    pub fn array(
        &mut self,
        depth: usize,
        mut element: impl FnMut(&mut Cursor<'a>) -> Fast<()>,
    ) -> Fast<()> {
        if depth >= MAX_DEPTH {
            return Err(GiveUp);
        }
        self.eat(b'[')?;
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(());
        }
        loop {
            element(self)?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(GiveUp),
            }
        }
    }

    /// A string value (the next value, which must be a string), unescaped
    /// as serde_json does; borrowed when it has no escapes. A `\u` escape of
    /// a surrogate (a pair or a lone half) gives up: serde_json decides.
    pub fn string(&mut self) -> Fast<Cow<'a, str>> {
        let (raw, esc) = self.raw_string()?;
        if esc == 0 {
            return Ok(Cow::Borrowed(raw));
        }
        unescape(raw).map(Cow::Owned)
    }

    /// A string value (the next value, which must be a string) as it is
    /// written between its quotes, with [`string_end`]'s escape flags: for a
    /// reader that unescapes only what it needs ([`unescape_prefix`]).
    pub fn raw_string(&mut self) -> Fast<(&'a str, u8)> {
        if self.peek() != Some(b'"') {
            return Err(GiveUp);
        }
        let start = self.i + 1;
        let (end, esc) = string_end(self.bytes(), start)?;
        self.i = end + 1;
        self.risky |= esc & SURROGATE != 0;
        Ok((&self.s[start..end], esc))
    }

    /// The next value (inside `depth` containers) as the `Value` serde_json
    /// builds of it: strings unescaped by [`Cursor::string`], objects and
    /// arrays walked here, numbers and literals read by serde_json. Gives up
    /// where the walk does (an escaped key, a surrogate escape, past
    /// [`MAX_DEPTH`]) and where serde_json refuses a number; a repeated key
    /// keeps its first place and its last value, as in serde_json's map.
    pub fn value_tree(&mut self, depth: usize) -> Fast<Value> {
        match self.peek() {
            Some(b'"') => Ok(Value::String(self.string()?.into_owned())),
            Some(b'{') => {
                let mut m = Map::new();
                self.object(depth, |c, key| {
                    let v = c.value_tree(depth + 1)?;
                    m.insert(key.to_string(), v);
                    Ok(())
                })?;
                Ok(Value::Object(m))
            }
            Some(b'[') => {
                let mut a = Vec::new();
                self.array(depth, |c| {
                    a.push(c.value_tree(depth + 1)?);
                    Ok(())
                })?;
                Ok(Value::Array(a))
            }
            _ => serde(self.value(depth)?),
        }
    }

    /// A key without escapes (the text between its quotes).
    fn plain_key(&mut self) -> Fast<&'a str> {
        if self.peek() != Some(b'"') {
            return Err(GiveUp);
        }
        let start = self.i + 1;
        let (end, esc) = string_end(self.bytes(), start)?;
        if esc != 0 {
            return Err(GiveUp);
        }
        self.i = end + 1;
        Ok(&self.s[start..end])
    }

    /// Step over the value at the cursor (no leading whitespace), inside
    /// `depth` containers. Iterative: one bit per open container.
    fn skip_value(&mut self, depth: usize) -> Fast<()> {
        let b = self.bytes();
        // bit k: container k (from the value's own first one) is an object
        let mut objects: u128 = 0;
        let mut open = 0usize;
        'value: loop {
            match b.get(self.i) {
                Some(b'"') => {
                    let (end, esc) = string_end(b, self.i + 1)?;
                    self.risky |= esc & SURROGATE != 0;
                    self.i = end + 1;
                }
                Some(&c @ (b'{' | b'[')) => {
                    if depth + open >= MAX_DEPTH {
                        return Err(GiveUp);
                    }
                    self.i += 1;
                    let object = c == b'{';
                    if object {
                        objects |= 1 << open;
                    } else {
                        objects &= !(1 << open);
                    }
                    open += 1;
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.i += 1;
                        open -= 1;
                    } else {
                        if object {
                            self.key_colon()?;
                        }
                        self.ws();
                        continue 'value;
                    }
                }
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(GiveUp),
            }
            // after a value: a comma (next value) or closing brackets
            loop {
                if open == 0 {
                    return Ok(());
                }
                let object = objects & (1 << (open - 1)) != 0;
                match self.peek() {
                    Some(b',') => {
                        self.i += 1;
                        if object {
                            self.key_colon()?;
                        }
                        self.ws();
                        continue 'value;
                    }
                    Some(b'}') if object => {
                        self.i += 1;
                        open -= 1;
                    }
                    Some(b']') if !object => {
                        self.i += 1;
                        open -= 1;
                    }
                    _ => return Err(GiveUp),
                }
            }
        }
    }

    /// A key (any string) and its colon.
    fn key_colon(&mut self) -> Fast<()> {
        if self.peek() != Some(b'"') {
            return Err(GiveUp);
        }
        let (end, esc) = string_end(self.bytes(), self.i + 1)?;
        self.risky |= esc & SURROGATE != 0;
        self.i = end + 1;
        self.eat(b':')
    }

    fn literal(&mut self, word: &[u8]) -> Fast<()> {
        if self.bytes()[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Fast<()> {
        let b = self.bytes();
        let mut i = self.i;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let mut long = false;
        let mut digits = |i: &mut usize| {
            let start = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            long |= *i - start > 300;
            *i > start
        };
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                digits(&mut i);
            }
            _ => return Err(GiveUp),
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !digits(&mut i) {
                return Err(GiveUp);
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            self.risky = true;
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !digits(&mut i) {
                return Err(GiveUp);
            }
        }
        self.risky |= long;
        self.i = i;
        Ok(())
    }
}

/// The four hex digits after `\u` (`None` where the input ends first):
/// [`SURROGATE`] for half of a surrogate pair (`\uD800`–`\uDFFF`, which
/// needs the careful decoder), else 0; not four hex digits gives up.
#[inline(always)]
fn unicode_escape(hex: Option<&[u8]>) -> Result<u8, GiveUp> {
    let hex = hex.ok_or(GiveUp)?;
    if !hex.iter().all(u8::is_ascii_hexdigit) {
        return Err(GiveUp);
    }
    let surrogate =
        matches!(hex[0], b'd' | b'D') && matches!(hex[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F');
    Ok(if surrogate { SURROGATE } else { 0 })
}

/// Where the string whose contents start at `i` ends (the index of its
/// closing quote), and [`ESCAPED`] | [`SURROGATE`] for its escapes. Gives up on a control
/// character, an invalid escape or a missing end. The bytes are looked at 64
/// (AVX2) or 16 (SSE2) at a time; the escapes within a block are handled from
/// its mask. A string whose first 16 bytes hold its closing quote and no
/// other special byte (most keys and short values) is settled here, inline.
#[inline]
pub fn string_end(b: &[u8], i: usize) -> Fast<(usize, u8)> {
    #[cfg(target_arch = "x86_64")]
    if i + 16 <= b.len() {
        let m = special_mask_sse2(b, i);
        if m == 0 {
            // none of the 16 is special: the string goes on past them
            return string_end_blocks(b, i + 16);
        }
        let j = i + m.trailing_zeros() as usize;
        if b[j] == b'"' {
            return Ok((j, 0));
        }
    }
    string_end_blocks(b, i)
}

/// [`string_end`] by blocks: 64 bytes at a time with AVX2, else 16.
fn string_end_blocks(b: &[u8], i: usize) -> Fast<(usize, u8)> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { string_end_avx2(b, i) };
        }
    }
    string_end_16(b, i)
}

/// What may follow a backslash: 1 for `"` `\\` `/` `b` `f` `n` `r` `t`, 2 for
/// `u`, 0 for anything else.
static ESCAPE_KIND: [u8; 256] = {
    let mut t = [0u8; 256];
    let simple = *b"\"\\/bfnrt";
    let mut k = 0;
    while k < simple.len() {
        t[simple[k] as usize] = 1;
        k += 1;
    }
    t[b'u' as usize] = 2;
    t
};

/// The loop of [`string_end`] over blocks of `$w` bytes, `$mask(block)` giving
/// the special bytes of the `$w` bytes at `block` (a pointer). The last,
/// short, block is read from a copy padded with zero bytes: a zero is a
/// control character, so running into the padding gives up exactly where
/// running off the end would.
macro_rules! string_end_loop {
    ($b:expr, $i:expr, $w:expr, $mask:expr) => {{
        let b: &[u8] = $b;
        let mut i: usize = $i;
        let mut escaped = 0u8;
        'block: loop {
            let mut mask = if i + $w <= b.len() {
                // SAFETY: `b[i..i + $w]` is in bounds (checked just above).
                unsafe { $mask(b.as_ptr().add(i)) }
            } else {
                let rest = b.get(i..).unwrap_or_default();
                let mut pad = [0u8; $w];
                pad[..rest.len()].copy_from_slice(rest);
                // SAFETY: `pad` holds `$w` bytes.
                unsafe { $mask(pad.as_ptr()) }
            };
            while mask != 0 {
                let j = i + mask.trailing_zeros() as usize;
                match b.get(j) {
                    Some(b'"') => return Ok((j, escaped)),
                    Some(b'\\') => {
                        escaped |= ESCAPED;
                        let next = match ESCAPE_KIND[*b.get(j + 1).ok_or(GiveUp)? as usize] {
                            1 => j + 2,
                            2 => {
                                escaped |= unicode_escape(b.get(j + 2..j + 6))?;
                                j + 6
                            }
                            _ => return Err(GiveUp),
                        };
                        if next - i >= $w {
                            i = next;
                            continue 'block;
                        }
                        mask &= !0u64 << (next - i);
                    }
                    // a control character, or the padding past the end
                    _ => return Err(GiveUp),
                }
            }
            i += $w;
        }
    }};
}

/// [`string_end`] 16 bytes at a time.
fn string_end_16(b: &[u8], i: usize) -> Fast<(usize, u8)> {
    string_end_loop!(b, i, 16, block_mask_16)
}

/// The special bytes of the 16 bytes at `p`.
///
/// # Safety
/// `p` points to 16 readable bytes.
#[inline]
unsafe fn block_mask_16(p: *const u8) -> u64 {
    // SAFETY: the caller's promise.
    let block: &[u8; 16] = unsafe { &*p.cast() };
    #[cfg(target_arch = "x86_64")]
    {
        special_mask_sse2(block, 0)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        special_mask_scalar(block, 0, 16).0
    }
}

/// [`string_end`] 64 bytes at a time. A block without a backslash is
/// settled by its first quote or control character; in a block with
/// backslashes the escaped bytes are found from the backslash mask at once
/// (a run of backslashes escapes the byte after it when its length is odd,
/// carried into the next block), so the closing quote is the first quote
/// not escaped, and each escaped byte is checked with a table lookup instead
/// of a trip through the loop per escape (tool outputs quoted in JSON carry
/// an escape every few dozen bytes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn string_end_avx2(b: &[u8], mut i: usize) -> Fast<(usize, u8)> {
    let mut escaped = 0u8;
    // the first byte of the block is escaped (by an odd run ending the last)
    let mut carry = 0u64;
    loop {
        let (quotes, backslashes, controls) = if i + 64 <= b.len() {
            // SAFETY: `b[i..i + 64]` is in bounds (checked just above).
            unsafe { masks_64(b.as_ptr().add(i)) }
        } else {
            // the last, short, block: zero padding is a control character,
            // so running into it gives up where running off the end would
            let rest = b.get(i..).unwrap_or_default();
            let mut pad = [0u8; 64];
            pad[..rest.len()].copy_from_slice(rest);
            // SAFETY: `pad` holds 64 bytes.
            unsafe { masks_64(pad.as_ptr()) }
        };
        if backslashes == 0 && carry == 0 {
            let special = quotes | controls;
            if special != 0 {
                let k = special.trailing_zeros();
                return if quotes & (1 << k) != 0 {
                    Ok((i + k as usize, escaped))
                } else {
                    Err(GiveUp)
                };
            }
            i += 64;
            continue;
        }
        let esc = escaped_bytes(backslashes, &mut carry);
        let real = quotes & !esc;
        // the bits before the closing quote (all of them if it is not here)
        let before = if real != 0 {
            (real & real.wrapping_neg()) - 1
        } else {
            !0
        };
        if controls & before != 0 {
            return Err(GiveUp); // a control character, escaped or not, or the end
        }
        if backslashes & before != 0 {
            escaped |= ESCAPED;
        }
        let mut e = esc & before;
        while e != 0 {
            let j = i + e.trailing_zeros() as usize;
            match ESCAPE_KIND[*b.get(j).ok_or(GiveUp)? as usize] {
                1 => {}
                2 => escaped |= unicode_escape(b.get(j + 1..j + 5))?,
                _ => return Err(GiveUp),
            }
            e &= e - 1;
        }
        if real != 0 {
            return Ok((i + real.trailing_zeros() as usize, escaped));
        }
        i += 64;
    }
}

/// The bytes of a 64-byte block that a backslash escapes, given its
/// backslashes and `carry` (1: the block's first byte is escaped by the last
/// block's odd run of backslashes), which is updated for the next block. A
/// run of backslashes escapes the byte after it when its length is odd; a
/// run is odd when it starts on an even bit and ends on an even bit, or
/// starts and ends on odd bits — adding each run's start to the run carries
/// out of its end, and which bit the carry lands on says the parity.
#[inline]
fn escaped_bytes(backslashes: u64, carry: &mut u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    // an escaped backslash at bit 0 starts no escape
    let backslashes = backslashes & !*carry;
    let follows = (backslashes << 1) | *carry;
    let odd_starts = backslashes & !EVEN & !follows;
    let (sum, overflow) = odd_starts.overflowing_add(backslashes);
    *carry = overflow as u64;
    let invert = sum << 1;
    (EVEN ^ invert) & follows
}

/// The quotes, backslashes and control characters of the 64 bytes at `p`.
///
/// # Safety
/// `p` points to 64 readable bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn masks_64(p: *const u8) -> (u64, u64, u64) {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_set1_epi8,
    };
    // SAFETY: the caller's promise: `p..p + 64` is readable; AVX2 is enabled.
    unsafe {
        let lo = _mm256_loadu_si256(p.cast());
        let hi = _mm256_loadu_si256(p.add(32).cast());
        let bits = |m: __m256i, n: __m256i| {
            (_mm256_movemask_epi8(m) as u32 as u64)
                | ((_mm256_movemask_epi8(n) as u32 as u64) << 32)
        };
        let q = _mm256_set1_epi8(b'"' as i8);
        let bs = _mm256_set1_epi8(b'\\' as i8);
        let c = _mm256_set1_epi8(0x1f);
        (
            bits(_mm256_cmpeq_epi8(lo, q), _mm256_cmpeq_epi8(hi, q)),
            bits(_mm256_cmpeq_epi8(lo, bs), _mm256_cmpeq_epi8(hi, bs)),
            bits(
                _mm256_cmpeq_epi8(_mm256_min_epu8(lo, c), lo),
                _mm256_cmpeq_epi8(_mm256_min_epu8(hi, c), hi),
            ),
        )
    }
}

/// The special bytes (`"`, `\`, below 0x20: those a JSON writer escapes)
/// of the 16 bytes at `i` (`i + 16 <= b.len()`), as a bit mask.
#[inline]
pub fn special_mask_16(b: &[u8], i: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        special_mask_sse2(b, i)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        special_mask_scalar(b, i, 16).0
    }
}

#[cfg(any(test, not(target_arch = "x86_64")))]
fn is_special(c: u8) -> bool {
    c == b'"' || c == b'\\' || c < 0x20
}

/// The special bytes (`"`, `\`, below 0x20) of the block of up to `w`
/// bytes at `i`, as a bit mask, and the block's length (0 at the end).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn special_mask_scalar(b: &[u8], i: usize, w: usize) -> (u64, usize) {
    let block = b.get(i..).unwrap_or_default();
    let block = &block[..block.len().min(w)];
    let mut mask = 0u64;
    for (k, &c) in block.iter().enumerate() {
        if is_special(c) {
            mask |= 1 << k;
        }
    }
    (mask, block.len())
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn special_mask_sse2(b: &[u8], i: usize) -> u64 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    debug_assert!(i + 16 <= b.len());
    // SAFETY: SSE2 is part of the x86_64 baseline (every x86_64 CPU has it),
    // and the unaligned 16-byte load reads `b[i..i + 16]`, in bounds (the
    // caller checks `i + 16 <= b.len()`).
    unsafe {
        let v = _mm_loadu_si128(b.as_ptr().add(i).cast());
        let special = _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8)),
                _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)),
            ),
            // unsigned v <= 0x1f  <=>  min(v, 0x1f) == v
            _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v),
        );
        _mm_movemask_epi8(special) as u32 as u64
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
fn special_mask_avx2(b: &[u8], i: usize) -> u64 {
    use std::arch::x86_64::{
        _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_set1_epi8,
    };
    debug_assert!(i + 32 <= b.len());
    // SAFETY: the unaligned 32-byte load reads `b[i..i + 32]`, in bounds (the
    // caller checks `i + 32 <= b.len()`); AVX2 is enabled on this function.
    unsafe {
        let v = _mm256_loadu_si256(b.as_ptr().add(i).cast());
        let special = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8)),
                _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8)),
            ),
            _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v),
        );
        _mm256_movemask_epi8(special) as u32 as u64
    }
}

/// The contents of a string that [`string_end`] accepted, unescaped. The
/// backslashes are found 16 bytes at a time and the text between them copied
/// whole (a `memchr` call per escape cost more than the copying).
pub(crate) fn unescape(raw: &str) -> Fast<String> {
    let b = raw.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(j) = next_backslash(b, i) {
        out.extend_from_slice(&b[i..j]);
        i = unescape_one(raw, j, &mut out)?;
    }
    out.extend_from_slice(&b[i..]);
    // SAFETY: `out` is `raw` (UTF-8) cut only at backslashes (ASCII, so on
    // character boundaries), with each escape replaced by an ASCII byte or a
    // `char`'s UTF-8 encoding: UTF-8 throughout.
    Ok(unsafe { String::from_utf8_unchecked(out) })
}

/// The escape at `raw[j]` (a backslash) appended to `out` as the text it
/// stands for; returns where the text after it starts.
#[inline(always)]
fn unescape_one(raw: &str, j: usize, out: &mut Vec<u8>) -> Fast<usize> {
    let c = match raw.as_bytes().get(j + 1) {
        Some(b'"') => b'"',
        Some(b'\\') => b'\\',
        Some(b'/') => b'/',
        Some(b'b') => b'\x08',
        Some(b'f') => b'\x0c',
        Some(b'n') => b'\n',
        Some(b'r') => b'\r',
        Some(b't') => b'\t',
        Some(b'u') => {
            let hex = raw.get(j + 2..j + 6).ok_or(GiveUp)?;
            let n = u32::from_str_radix(hex, 16).map_err(|_| GiveUp)?;
            let c = char::from_u32(n).ok_or(GiveUp)?; // a surrogate: `None`
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            return Ok(j + 6);
        }
        _ => return Err(GiveUp),
    };
    out.push(c);
    Ok(j + 2)
}

/// The first `want` bytes or more of [`unescape`]`(raw)` (all of it when
/// shorter), ending on a character boundary: what a reader of a text's head
/// needs of a long string, without unescaping the rest. `raw` is a string
/// [`string_end`] accepted without a surrogate escape (so no escape fails).
pub(crate) fn unescape_prefix(raw: &str, want: usize) -> Fast<String> {
    let b = raw.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(want.min(raw.len()) + 4);
    let mut i = 0;
    while out.len() < want {
        let Some(j) = next_backslash(b, i) else {
            break;
        };
        // the text before the backslash, as far as is wanted
        let mut stop = j.min(i + (want - out.len()));
        while !raw.is_char_boundary(stop) {
            stop += 1;
        }
        out.extend_from_slice(&b[i..stop]);
        if out.len() >= want {
            break;
        }
        i = unescape_one(raw, j, &mut out)?;
    }
    if out.len() < want {
        // no backslash left: the rest as far as is wanted
        let mut stop = b.len().min(i + (want - out.len()));
        while !raw.is_char_boundary(stop) {
            stop += 1;
        }
        out.extend_from_slice(&b[i..stop]);
    }
    // SAFETY: as in `unescape`: `raw` cut only at backslashes and character
    // boundaries, each escape replaced by an ASCII byte or a `char`'s UTF-8.
    Ok(unsafe { String::from_utf8_unchecked(out) })
}

/// The first backslash at or after `i`.
#[inline]
pub(crate) fn next_backslash(b: &[u8], mut i: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    while i + 16 <= b.len() {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of the x86_64 baseline, and the unaligned
        // 16-byte load reads `b[i..i + 16]`, in bounds (checked just above).
        let m = unsafe {
            let v = _mm_loadu_si128(b.as_ptr().add(i).cast());
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)))
        };
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 16;
    }
    b.get(i..)?.iter().position(|&c| c == b'\\').map(|k| i + k)
}

/// A kept value: serde_json reads it (the fast path gives up where serde_json
/// fails, so that the whole text is parsed again and fails the same way).
pub fn serde<'a, T: Deserialize<'a>>(raw: &'a str) -> Fast<T> {
    serde_json::from_str(raw).map_err(|_| GiveUp)
}

/// A kept key of a lean `Value` tree, once (serde_json would keep the last of
/// repeated keys: give up).
/// The array at the cursor (inside `depth` containers) as a `Value`, each
/// element read by `element` (which must consume it).
pub fn array_of(
    c: &mut Cursor,
    depth: usize,
    mut element: impl FnMut(&mut Cursor) -> Fast<Value>,
) -> Fast<Value> {
    let mut out = Vec::new();
    c.array(depth, |c| {
        out.push(element(c)?);
        Ok(())
    })?;
    Ok(Value::Array(out))
}

pub fn put(m: &mut Map<String, Value>, key: &str, v: Value) -> Fast<()> {
    match m.insert(key.to_string(), v) {
        None => Ok(()),
        Some(_) => Err(GiveUp),
    }
}

/// Step over a value a lean `Value` tree does not keep; one that serde_json
/// may refuse as a `Value` (an exponent, 300 digits in a row, a surrogate
/// escape) is parsed as one, and the fast path gives up where that fails.
pub fn skip_checked(c: &mut Cursor, depth: usize) -> Fast<()> {
    c.take_risky();
    let raw = c.value(depth)?;
    if c.take_risky() {
        serde::<Value>(raw)?;
    }
    Ok(())
}

/// A string value without escapes: its contents. `None` for anything else.
pub fn plain_str(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if memchr::memchr(b'\\', inner.as_bytes()).is_some() {
        None
    } else {
        Some(inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::IgnoredAny;

    /// The whole text is one value with nothing after it.
    fn fast_ok(s: &str) -> bool {
        let mut c = Cursor::new(s);
        c.skip(0).is_ok() && c.at_end()
    }

    fn serde_ok(s: &str) -> bool {
        serde_json::from_str::<IgnoredAny>(s).is_ok()
    }

    #[test]
    fn skips_what_serde_json_skips() {
        let long = "x".repeat(100);
        let esc = "ab\\n\\\"".repeat(40);
        let valid = [
            r#""""#,
            r#""plain""#,
            r#""a\"b""#,
            r#""a\\""#,
            r#""a\\\\""#,
            r#""\\\"\\""#,
            r#""\/\b\f\n\r\t""#,
            r#""\u00e9\u0041\uD83D\uDE00""#,
            r#""\ud800""#, // a lone surrogate: serde_json skips it unchecked
            "\"é ü 日本 🎉\"",
            r#"{"a": [1, -2, 3.5, -0.0e+10, 1E3, true, false, null, {"b": {}}, []]}"#,
            r#"[[[[[[["deep"]]]]]]]"#,
            " \t\r\n{ \"k\" : \"v\" , \"k\" : [ ] } \n",
            "0",
            "-0",
            "12345678901234567890123456789",
            &format!("\"{long}\""),
            &format!("\"{esc}\""),
            &format!("\"{long}\\\\\""),
            &format!("\"{long}\\u12aB{long}\""),
            &format!("[\"{long}\", {{\"{long}\": \"{esc}\"}}]"),
        ];
        for s in valid {
            assert!(serde_ok(s), "serde_json rejects {s}");
            assert!(fast_ok(s), "fast path rejects {s}");
        }
    }

    #[test]
    fn value_trees_are_serde_jsons_values() {
        let long = "z".repeat(70);
        let texts = [
            r#"{"a": [1, -2, 3.5, -0.0, 1E3, 2.5e-8, true, false, null, {"b": {}}, []], "c": "d"}"#
                .to_string(),
            r#"{"k": 1, "j": 2, "k": [3]}"#.to_string(),
            r#"[18446744073709551615, -9223372036854775808, 18446744073709551616, 0.1, 1e300]"#
                .to_string(),
            format!(r#"{{"{long}": "{long}\n\t\"\\\u00e9\u0041", "e": "é 日本"}}"#),
            r#"{"outer": {"inner": {"x": [[], {}, [{"y": null}]]}}}"#.to_string(),
            " [ 1 , \"two\" , { } ] ".to_string(),
        ];
        for t in &texts {
            let mut c = Cursor::new(t);
            let v = c.value_tree(0).unwrap();
            assert!(c.at_end());
            let want: Value = serde_json::from_str(t).unwrap();
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                serde_json::to_string(&want).unwrap(),
                "{t}"
            );
        }
        // what it cannot vouch for, or serde_json refuses
        let deep = format!("{}1{}", "[".repeat(120), "]".repeat(120));
        for t in [
            r#"{"a": 1e400}"#,
            r#"{"a": "\ud800"}"#,
            r#"{"a\u0062": 1}"#,
            r#"{"a": 01}"#,
            r#"{"a": [1,]}"#,
            "{\"a\": \"tab\tin\"}",
            r#"{"a": tru}"#,
            deep.as_str(),
        ] {
            assert!(Cursor::new(t).value_tree(0).is_err(), "{t}");
        }
    }

    #[test]
    fn gives_up_where_serde_json_fails() {
        let long = "y".repeat(50);
        let invalid = [
            "",
            " ",
            r#"""#,
            r#""abc"#,
            r#""abc\""#,
            r#""a\x""#,
            r#""\u12G4""#,
            r#""\u12""#,
            "\"tab\there\"",
            "\"new\nline\"",
            &format!("\"{long}\u{1}{long}\""),
            &format!("\"{long}\\"),
            &format!("\"{long}"),
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "1e+",
            "+1",
            "tru",
            "nul",
            "True",
            "[1,]",
            "[1 2]",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "{a:1}",
            "{\"a\":}",
            "[",
            "{",
            "{\"a\":[1,{\"b\":\"c\"",
            "]",
            "[1]]",
            "{\"a\":1} x",
            "\"a\" \"b\"",
        ];
        for s in invalid {
            assert!(!serde_ok(s), "serde_json accepts {s:?}");
            assert!(!fast_ok(s), "fast path accepts {s:?}");
        }
    }

    #[test]
    fn truncated_texts_give_up_at_every_cut() {
        let s = r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"a\\\"b\nc\u00e9 \ud83d\ude00","is_error":false}],"n":-1.5e3},"x":[null,true,{}]}"#;
        assert!(serde_ok(s) && fast_ok(s));
        for cut in 0..s.len() {
            if s.is_char_boundary(cut) {
                assert!(!fast_ok(&s[..cut]), "fast path accepts a cut at {cut}");
            }
        }
    }

    #[test]
    fn nesting_past_the_limit_gives_up() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(fast_ok(&deep(MAX_DEPTH)));
        assert!(!fast_ok(&deep(MAX_DEPTH + 1)));
        assert!(serde_ok(&deep(MAX_DEPTH + 1)));
        let objs = |n: usize| format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n));
        assert!(fast_ok(&objs(MAX_DEPTH)));
        assert!(!fast_ok(&objs(MAX_DEPTH + 1)));
    }

    #[test]
    fn string_ends_at_every_offset() {
        // the vector loop and the scalar tail agree wherever the quote falls
        for n in 0..70 {
            for special in ["\"", "\\\\\"", "\\\"\""] {
                let body = format!("{}{special}rest", "a".repeat(n));
                let b = body.as_bytes();
                let (end, escaped) = string_end(b, 0).unwrap();
                assert_eq!(&body[end..end + 5], "\"rest", "{body}");
                assert_eq!(escaped != 0, special != "\"");
                for i in 0..=b.len() {
                    assert_eq!(string_end_16(b, i), string_end_reference(b, i));
                    #[cfg(target_arch = "x86_64")]
                    if i + 16 <= b.len() {
                        assert_eq!(special_mask_sse2(b, i), special_mask_scalar(b, i, 16).0);
                    }
                    #[cfg(target_arch = "x86_64")]
                    if i + 32 <= b.len() && std::is_x86_feature_detected!("avx2") {
                        // SAFETY: the CPU has AVX2.
                        let m = unsafe { special_mask_avx2(b, i) };
                        assert_eq!(m, special_mask_scalar(b, i, 32).0);
                    }
                }
            }
            let ctrl = format!("{}\u{1f}\"", "a".repeat(n));
            assert_eq!(string_end(ctrl.as_bytes(), 0), Err(GiveUp));
            let high = format!("{}\u{7f}é\"", "a".repeat(n)); // bytes ≥ 0x7f are not special
            assert!(string_end(high.as_bytes(), 0).is_ok());
        }
    }

    /// A byte-at-a-time reading of the same rules.
    fn string_end_reference(b: &[u8], mut i: usize) -> Fast<(usize, u8)> {
        let mut escaped = 0u8;
        loop {
            match *b.get(i).ok_or(GiveUp)? {
                b'"' => return Ok((i, escaped)),
                b'\\' => {
                    escaped |= ESCAPED;
                    match b.get(i + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                        Some(b'u') => {
                            let hex = b.get(i + 2..i + 6).ok_or(GiveUp)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return Err(GiveUp);
                            }
                            let h = hex[0].to_ascii_lowercase();
                            if h == b'd' && (b'8'..=b'f').contains(&hex[1].to_ascii_lowercase()) {
                                escaped |= SURROGATE;
                            }
                            i += 6;
                        }
                        _ => return Err(GiveUp),
                    }
                }
                c if c < 0x20 => return Err(GiveUp),
                _ => i += 1,
            }
        }
    }

    #[test]
    fn escapes_across_block_boundaries_match_a_byte_loop() {
        // pieces that straddle the 16-byte blocks at every offset
        let pieces: [&[u8]; 12] = [
            b"a",
            b"bcdefgh",
            b"\\n",
            b"\\\\",
            b"\\\"",
            b"\\u00e9",
            b"\\uD83D\\uDE00",
            "é".as_bytes(),
            b"\\u12",
            b"\\x",
            b"\x01",
            b"\"",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for round in 0..8000 {
            let mut text = Vec::new();
            // longer texts in the second half: runs of escapes across 64-byte blocks
            let n = (seed % if round < 4000 { 40 } else { 160 }) as usize;
            for _ in 0..n {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // the quote, the bad escapes and the control byte are rarer
                let k = (seed % 60) as usize;
                text.extend_from_slice(pieces[if k < 8 { k } else { k % 8 }]);
                if k >= 57 {
                    text.extend_from_slice(pieces[k - 48]);
                }
            }
            for start in 0..text.len().min(if round < 4000 { 17 } else { 70 }) {
                assert_eq!(
                    string_end_16(&text, start),
                    string_end_reference(&text, start)
                );
                assert_eq!(
                    string_end(&text, start),
                    string_end_reference(&text, start),
                    "{:?} from {start}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
    }

    /// Runs of backslashes of every length ending at every offset (across
    /// the 64-byte blocks), before a quote, an escape letter or a `u`.
    #[test]
    fn backslash_runs_match_a_byte_loop() {
        for k in 0..140 {
            for m in 0..7 {
                for after in ["\"x\"", "n\"", "u00e9\"", "ud83d\"", "q\"", "\u{1}\""] {
                    let text = format!("{}{}{after}tail", "a".repeat(k), "\\".repeat(m));
                    let b = text.as_bytes();
                    for start in [0, 1, k.saturating_sub(1), k] {
                        assert_eq!(
                            string_end(b, start),
                            string_end_reference(b, start),
                            "{text:?} from {start}"
                        );
                    }
                }
            }
        }
    }

    /// Strings cut short at every length (the last block read from a padded
    /// copy) and starting at every offset (the inline 16-byte check) end
    /// where a byte loop says they do.
    #[test]
    fn cut_strings_match_a_byte_loop() {
        let bodies = [
            "plain text that runs past one block of thirty-two bytes\"tail".to_string(),
            "a\\\\b\\\"c\\n\\u00e9\\uD83D\\uDE00 and more text here\"".to_string(),
            format!("{}\\\"{}\"", "x".repeat(30), "y".repeat(40)),
            format!("{}\\", "z".repeat(33)),
            format!("{}\\u12", "z".repeat(14)),
            format!("{}\u{1}\"", "q".repeat(47)),
            "short\"".to_string(),
            "\"".to_string(),
        ];
        for body in &bodies {
            let b = body.as_bytes();
            for cut in 0..=b.len() {
                let t = &b[..cut];
                for start in 0..cut.min(20) {
                    let want = string_end_reference(t, start);
                    assert_eq!(
                        string_end(t, start),
                        want,
                        "{body:?} cut {cut} from {start}"
                    );
                    assert_eq!(string_end_16(t, start), want);
                }
            }
        }
    }

    /// A string body of fewer than `most` pieces — plain text, escapes,
    /// multi-byte characters — drawn with a xorshift from `seed`.
    fn escaped_text(seed: &mut u64, most: u64) -> String {
        let pieces: [&str; 9] = [
            "a",
            "bcdefghijklmnopqrstuvwxyz0123",
            "\\n",
            "\\\\",
            "\\\"",
            "\\u00e9",
            "\\u20ac\\/\\b\\f\\r\\t",
            "é日本",
            "🎉",
        ];
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let mut text = String::new();
        for _ in 0..next() % most {
            text.push_str(pieces[(next() % pieces.len() as u64) as usize]);
        }
        text
    }

    /// Random strings of escapes and text, unescaped as serde_json does.
    #[test]
    fn random_strings_unescape_as_serde_json_does() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..3000 {
            let text = format!("\"{}\"", escaped_text(&mut seed, 30));
            let want: String = serde_json::from_str(&text).unwrap();
            assert_eq!(Cursor::new(&text).string().unwrap(), want, "{text}");
        }
    }

    /// [`unescape_prefix`] is a prefix of [`unescape`] on a character
    /// boundary, `want` bytes long or more (or all of it), for every `want`.
    #[test]
    fn unescaped_prefixes_start_the_unescaped_text() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..400 {
            let raw = escaped_text(&mut seed, 40);
            let whole = unescape(&raw).unwrap();
            for want in 0..=whole.len() + 2 {
                let p = unescape_prefix(&raw, want).unwrap();
                assert!(whole.starts_with(&p), "{raw:?} {want}");
                assert!(p.len() >= want.min(whole.len()), "{raw:?} {want}");
                // no more than the escape or character that reached `want`
                assert!(p.len() < want + 6 || p == whole, "{raw:?} {want}");
            }
        }
    }

    #[test]
    fn strings_unescape_as_serde_json_does() {
        let long = "z".repeat(40);
        let texts = [
            r#""plain""#.to_string(),
            r#""a\"b\\c\/d\be\ff\ng\rh\ti""#.to_string(),
            r#""\u0041\u00e9\u20AC\u0000\uFFFF""#.to_string(),
            format!(r#""{long}\n{long}\\\"{long}""#),
            "\"é 日本 🎉\\n\"".to_string(),
        ];
        for t in &texts {
            let mut c = Cursor::new(t);
            let s = c.string().unwrap();
            assert_eq!(s, serde_json::from_str::<String>(t).unwrap(), "{t}");
            assert!(c.at_end());
        }
        assert!(matches!(
            Cursor::new(r#""abc""#).string(),
            Ok(Cow::Borrowed("abc"))
        ));
        // surrogates (paired or not) are serde_json's to judge
        for t in [
            r#""\ud83d\ude00""#,
            r#""\ud800""#,
            r#""\udc00""#,
            r#""x\u12""#,
            "7",
        ] {
            assert_eq!(Cursor::new(t).string(), Err(GiveUp), "{t}");
        }
    }

    #[test]
    fn objects_and_arrays_walk_fields_and_elements() {
        let s = r#" { "a" : "x" , "b" : [1, {"c": 2}] , "e\u0041" : 3 } "#;
        let mut keys = Vec::new();
        let mut c = Cursor::new(s);
        let r = c.object(0, |c, k| {
            keys.push(k);
            c.skip(1)
        });
        // the escaped key gives up after the first two fields
        assert_eq!(r, Err(GiveUp));
        assert_eq!(keys, ["a", "b"]);

        let s = r#"[ "p" , {"k": "v\"w"} , 7 ]"#;
        let mut raws = Vec::new();
        let mut c = Cursor::new(s);
        c.array(0, |c| {
            raws.push(c.value(1)?);
            Ok(())
        })
        .unwrap();
        assert!(c.at_end());
        assert_eq!(raws, [r#""p""#, r#"{"k": "v\"w"}"#, "7"]);
        assert_eq!(plain_str(raws[0]), Some("p"));
        assert_eq!(plain_str(r#""v\"w""#), None);
        assert_eq!(serde::<String>(r#""v\"w""#), Ok("v\"w".to_string()));
        assert_eq!(serde::<String>("7"), Err(GiveUp));
    }
}
