//! "Escaping a string" (13.3), in one linear pass.

use std::fmt::{self, Write};

/// Which characters to escape.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Text: `&`, U+00A0, `<`, `>`.
    Text,
    /// Attribute values quoted with `"`: also `"`.
    AttrDouble,
    /// Attribute values quoted with `'`: `'` instead of `"` (html5lib's `quote_char="'"`).
    AttrSingle,
    /// Unquoted attribute values: like text (they never contain quotes or spaces).
    AttrUnquoted,
}

/// Writes `s` escaped for `mode` to a `fmt::Write`.
pub(crate) fn write_escaped<W: Write + ?Sized>(out: &mut W, s: &str, mode: Mode) -> fmt::Result {
    escape_with(s, mode, |piece| out.write_str(piece))
}

/// Appends `s` escaped for `mode` to a `String` (the direct serializer's output).
#[inline(always)]
pub(crate) fn escape_into(out: &mut String, s: &str, mode: Mode) {
    let clean = match mode {
        Mode::Text | Mode::AttrUnquoted => !needs_escape::<false>(s.as_bytes()),
        Mode::AttrDouble | Mode::AttrSingle => !needs_escape::<true>(s.as_bytes()),
    };
    if clean {
        out.push_str(s);
        return;
    }
    escape_slow(out, s, mode);
}

/// The size of the windows and blocks [`window_special`] and [`escape_long_into`] check.
pub(crate) const BLOCK: usize = 32;

/// Whether `b` may need escaping in text (`QUOTES` false: `&`, `<`, `>`, the lead byte of
/// U+00A0) or in a double-quoted attribute value (`QUOTES`: also `"`): 1 or 0. Written
/// without branches so that a loop over a block compiles to vector compares.
#[inline(always)]
fn lane<const QUOTES: bool>(b: u8) -> u8 {
    let markup = u8::from(b == b'&') | u8::from(b == b'<') | u8::from(b == b'>');
    let quote = if QUOTES { u8::from(b == b'"') } else { 0 };
    markup | quote | u8::from(b == 0xC2)
}

/// Which of the first `len` bytes of a window to look at: `KEEP[len]` has `len` bytes of
/// 0xFF, then zeros.
static KEEP: [[u8; BLOCK]; BLOCK + 1] = {
    let mut t = [[0; BLOCK]; BLOCK + 1];
    let mut n = 0;
    while n <= BLOCK {
        let mut i = 0;
        while i < n {
            t[n][i] = 0xFF;
            i += 1;
        }
        n += 1;
    }
    t
};

/// Whether any of the first `len` bytes of `window` may need escaping ([`lane`]); the bytes
/// after them (whatever follows the string in its buffer) are masked off. A few vector
/// compares, no branch on the length.
#[inline(always)]
pub(crate) fn window_special<const QUOTES: bool>(window: &[u8; BLOCK], len: usize) -> bool {
    let keep = KEEP.get(len).unwrap_or(&KEEP[0]);
    let mut m = [0u8; BLOCK];
    for i in 0..BLOCK {
        m[i] = lane::<QUOTES>(window[i]) & keep[i];
    }
    any_lane(&m)
}

/// Appends `s` (a short string, at most [`BLOCK`] bytes, that [`window_special`] found may
/// need escaping) escaped for text (`QUOTES` false) or a double-quoted attribute value: one
/// pass over its bytes, the runs between escaped characters appended whole. No searches to
/// set up: cheaper than [`escape_with`] on strings this short (the searches pay off on
/// longer ones: escaping the rest of a string of more than a block this way cost more
/// instructions in total, even for rests of 40 bytes or less).
#[inline(never)]
pub(crate) fn escape_short_into<const QUOTES: bool>(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut j = 0;
    while let Some(&b) = bytes.get(j) {
        // "Escaping a string" (13.3): `&`, U+00A0, `<` and `>`; `"` in attribute mode.
        let (replacement, len) = match b {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' if QUOTES => ("&quot;", 1),
            0xC2 if bytes.get(j + 1) == Some(&0xA0) => ("&nbsp;", 2),
            _ => {
                j += 1;
                continue;
            }
        };
        // `start` follows an escaped character and `j` is ASCII or a lead byte: both are
        // character boundaries.
        out.push_str(s.get(start..j).unwrap_or(""));
        out.push_str(replacement);
        j += len;
        start = j;
    }
    out.push_str(s.get(start..).unwrap_or(""));
}

/// Whether a lane of `m` is nonzero (two 16-byte words: one vector test).
#[inline(always)]
fn any_lane(m: &[u8; BLOCK]) -> bool {
    let (lo, hi) = m.split_at(16);
    let word = |h: &[u8]| u128::from_ne_bytes(h.try_into().unwrap_or([0; 16]));
    word(lo) | word(hi) != 0
}

/// Whether a byte of a block may need escaping ([`lane`]).
#[inline(always)]
fn block_special<const QUOTES: bool>(block: &[u8; BLOCK]) -> bool {
    let mut m = [0u8; BLOCK];
    for i in 0..BLOCK {
        m[i] = lane::<QUOTES>(block[i]);
    }
    any_lane(&m)
}

/// Appends `s` (at least [`BLOCK`] bytes long) escaped for text (`QUOTES` false) or a
/// double-quoted attribute value: checked a block at a time (the last block overlapping the
/// one before), appended whole when no block holds a byte to escape, else escaped from the
/// first block that does by the linear pass of [`escape_with`].
#[inline(never)]
pub(crate) fn escape_long_into<const QUOTES: bool>(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut rest = bytes;
    let mut clean = 0;
    while let Some((block, tail)) = rest.split_first_chunk::<BLOCK>() {
        if block_special::<QUOTES>(block) {
            break;
        }
        clean += BLOCK;
        rest = tail;
    }
    if rest.len() < BLOCK {
        let last_clean = bytes
            .last_chunk::<BLOCK>()
            .is_some_and(|last| rest.is_empty() || !block_special::<QUOTES>(last));
        if last_clean {
            out.push_str(s);
            return;
        }
    }
    // The clean prefix ends at a block boundary, which may split a character: take the
    // longest prefix that ends at one (no byte of the set is a continuation byte).
    while clean > 0 && !s.is_char_boundary(clean) {
        clean -= 1;
    }
    let (head, tail) = s.split_at(clean);
    out.push_str(head);
    let mode = if QUOTES { Mode::AttrDouble } else { Mode::Text };
    escape_slow(out, tail, mode);
}

#[inline(never)]
fn escape_slow(out: &mut String, s: &str, mode: Mode) {
    let _ = escape_with(s, mode, |piece| {
        out.push_str(piece);
        Ok(())
    });
}

/// Ones in every byte.
const LO: u64 = 0x0101_0101_0101_0101;
/// The top bit of every byte.
const HI: u64 = 0x8080_8080_8080_8080;

/// Whether a byte of `w` is `b`: nonzero if so (the test for a zero byte of `w ^ b...b`,
/// exact about whether there is one).
#[inline(always)]
fn has_byte(w: u64, b: u8) -> u64 {
    let x = w ^ (LO * u64::from(b));
    x.wrapping_sub(LO) & !x & HI
}

/// Whether a byte of `w` (8 bytes of a string, or fewer padded with zeros) is `&`, `<`,
/// `>`, the lead byte of U+00A0, or (with `QUOTES`) `"` or `'`. `<` and `>` differ only in
/// bit 1, `&` and `'` only in bit 0, so one test covers each pair (for text, where `'` needs
/// no escaping, a `'` makes the answer yes, and the exact searches then decide).
#[inline(always)]
fn special_word<const QUOTES: bool>(w: u64) -> bool {
    let angle = has_byte(w | (LO * 2), b'>');
    let c2 = has_byte(w, 0xC2);
    let rest = if QUOTES {
        has_byte(w | LO, b'\'') | has_byte(w, b'"')
    } else {
        has_byte(w, b'&')
    };
    angle | c2 | rest != 0
}

/// Whether a byte is `&`, `<`, `>`, the lead byte of U+00A0, or (with `QUOTES`) a quote:
/// 1 or 0.
#[inline(always)]
fn special<const QUOTES: bool>(b: u8) -> u8 {
    let markup = u8::from(b == b'&') | u8::from(b | 2 == b'>') | u8::from(b == 0xC2);
    if QUOTES {
        markup | u8::from(b == b'"') | u8::from(b == b'\'')
    } else {
        markup
    }
}

/// [`special`] over 16 bytes; no early exit, so it compiles to vector compares.
#[inline(always)]
fn special_block<const QUOTES: bool>(block: &[u8; 16]) -> bool {
    let mut any = 0;
    for &b in block {
        any |= special::<QUOTES>(b);
    }
    any != 0
}

/// Whether `bytes` may need escaping: a string of at most 64 bytes that holds none of the
/// bytes [`special_word`] and [`special`] look for does not; others go to the searches of
/// [`escape_with`], which decide. Strings shorter than 16 bytes are read as one or two
/// words (overlapping), longer ones as blocks of 16 bytes (the last one overlapping the one
/// before), so a short string costs a few instructions.
#[inline(always)]
fn needs_escape<const QUOTES: bool>(bytes: &[u8]) -> bool {
    let n = bytes.len();
    if n > 64 {
        return true;
    }
    if n < 8 {
        // Up to 7 bytes as one word, zero-padded (zero is never special).
        let w = match (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
            (Some(head), Some(tail)) => {
                u64::from(u32::from_le_bytes(*head)) | (u64::from(u32::from_le_bytes(*tail)) << 32)
            }
            _ => bytes.iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b)),
        };
        return special_word::<QUOTES>(w);
    }
    if n < 16 {
        return match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
            (Some(head), Some(tail)) => {
                special_word::<QUOTES>(u64::from_le_bytes(*head))
                    || special_word::<QUOTES>(u64::from_le_bytes(*tail))
            }
            _ => true,
        };
    }
    let mut rest = bytes;
    while let Some((block, tail)) = rest.split_first_chunk::<16>() {
        if special_block::<QUOTES>(block) {
            return true;
        }
        rest = tail;
    }
    match bytes.last_chunk::<16>() {
        Some(last) if !rest.is_empty() => special_block::<QUOTES>(last),
        _ => false,
    }
}

/// Passes `s` escaped for `mode` to `put`, piece by piece. Unescaped runs are passed whole and
/// found with `memchr`, so the cost is one pass over `s` plus the output: each of the two
/// searches below only ever starts past the position it last returned, so every byte is
/// scanned at most twice (once per search) however many characters need escaping.
#[inline]
fn escape_with(s: &str, mode: Mode, mut put: impl FnMut(&str) -> fmt::Result) -> fmt::Result {
    let bytes = s.as_bytes();
    // Short strings (most attribute values and many text nodes): checking a few blocks is
    // cheaper than setting up vector searches, and usually nothing needs escaping.
    if !needs_escape::<true>(bytes) {
        return put(s);
    }
    // `&`, `<` and `>` are always escaped; the other set holds the lead byte of U+00A0 (0xC2,
    // which also starts other characters) and the quote of the mode, if any.
    let quote = match mode {
        Mode::AttrDouble => b'"',
        Mode::AttrSingle => b'\'',
        Mode::Text | Mode::AttrUnquoted => 0xC2,
    };
    let find_markup = |from: usize| {
        let found =
            memchr::memchr3(b'&', b'<', b'>', &bytes[from..]).map_or(bytes.len(), |k| from + k);
        #[cfg(test)]
        tests::count_scanned(from, found);
        found
    };
    let find_other = |from: usize| {
        let found = memchr::memchr2(quote, 0xC2, &bytes[from..]).map_or(bytes.len(), |k| from + k);
        #[cfg(test)]
        tests::count_scanned(from, found);
        found
    };
    let mut start = 0;
    // Both positions are "the first byte of the set at or after `i`" (or the end): each is
    // searched again only once `i` has moved past it.
    let mut next_markup = find_markup(0);
    let mut next_other = find_other(0);
    loop {
        let j = next_markup.min(next_other);
        if j >= bytes.len() {
            break;
        }
        // Which replacement (an index, so that each is written as a constant: a store or two
        // for a `String` rather than a copy call) and how many bytes it replaces.
        let (which, len) = match bytes[j] {
            b'&' => (0, 1),
            b'<' => (1, 1),
            b'>' => (2, 1),
            b'"' if mode == Mode::AttrDouble => (3, 1),
            b'\'' if mode == Mode::AttrSingle => (4, 1),
            // U+00A0 is C2 A0 in UTF-8; other characters starting with C2 stay.
            0xC2 if bytes.get(j + 1) == Some(&0xA0) => (5, 2),
            _ => (6, 0),
        };
        // Where the scan resumes: past the escaped character, or past the lead byte that
        // turned out to start another character (its continuation byte is never in a set).
        let i = j + len.max(1);
        if len > 0 {
            put(&s[start..j])?;
            match which {
                0 => put("&amp;")?,
                1 => put("&lt;")?,
                2 => put("&gt;")?,
                3 => put("&quot;")?,
                4 => put("&#39;")?,
                _ => put("&nbsp;")?,
            }
            start = i;
        }
        if next_markup < i {
            next_markup = find_markup(i);
        }
        if next_other < i {
            next_other = find_other(i);
        }
    }
    put(&s[start..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Bytes the searches of `write_escaped` went over, on this thread.
        static SCANNED: Cell<usize> = const { Cell::new(0) };
    }

    pub(super) fn count_scanned(from: usize, found: usize) {
        SCANNED.with(|c| c.set(c.get() + (found + 1).saturating_sub(from)));
    }

    /// Escapes `s` and returns the output and the bytes scanned.
    fn esc_counted(s: &str, mode: Mode) -> (String, usize) {
        SCANNED.with(|c| c.set(0));
        let out = esc(s, mode);
        (out, SCANNED.with(Cell::get))
    }

    /// Floods of every character that needs escaping, or shares U+00A0's lead byte, or is a
    /// quote: the output is right and each byte is scanned at most twice (once by each of
    /// the two searches), however many of them need escaping.
    #[test]
    fn floods_are_scanned_once() {
        let n = 20_000;
        let units: [(&str, [&str; 4]); 9] = [
            // (unit, [Text, AttrDouble, AttrSingle, AttrUnquoted])
            ("\u{a0}", ["&nbsp;", "&nbsp;", "&nbsp;", "&nbsp;"]),
            ("\u{a0}x", ["&nbsp;x", "&nbsp;x", "&nbsp;x", "&nbsp;x"]),
            ("\"", ["\"", "&quot;", "\"", "\""]),
            ("'", ["'", "'", "&#39;", "'"]),
            ("\u{a9}", ["\u{a9}", "\u{a9}", "\u{a9}", "\u{a9}"]),
            (
                "\u{ab}\"",
                ["\u{ab}\"", "\u{ab}&quot;", "\u{ab}\"", "\u{ab}\""],
            ),
            ("&", ["&amp;", "&amp;", "&amp;", "&amp;"]),
            ("<>", ["&lt;&gt;", "&lt;&gt;", "&lt;&gt;", "&lt;&gt;"]),
            (
                "a\u{a0}&\"'<",
                [
                    "a&nbsp;&amp;\"'&lt;",
                    "a&nbsp;&amp;&quot;'&lt;",
                    "a&nbsp;&amp;\"&#39;&lt;",
                    "a&nbsp;&amp;\"'&lt;",
                ],
            ),
        ];
        let modes = [
            Mode::Text,
            Mode::AttrDouble,
            Mode::AttrSingle,
            Mode::AttrUnquoted,
        ];
        for (unit, expected) in units {
            let s = unit.repeat(n);
            for (mode, want) in modes.into_iter().zip(expected) {
                let (out, scanned) = esc_counted(&s, mode);
                assert!(out == want.repeat(n), "{unit:?} {mode:?}");
                assert!(
                    scanned <= 2 * s.len() + 2,
                    "{unit:?} {mode:?}: {scanned} bytes scanned for {}",
                    s.len()
                );
            }
        }
    }

    /// The byte loop for short strings against the linear pass of `escape_with`, on every
    /// string of up to four pieces (of at most [`BLOCK`] bytes, the windows it is given)
    /// drawn from letters, each character to escape, both quotes, U+00A0 and other
    /// characters starting with its lead byte or not.
    #[test]
    fn short_strings_match_linear_pass() {
        let pieces = [
            "a",
            "&",
            "<",
            ">",
            "\"",
            "'",
            "\u{a0}",
            "\u{a9}",
            "\u{e9}",
            "bcdefghijk",
        ];
        let mut strings = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            last = last
                .iter()
                .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
                .collect();
            strings.extend(last.iter().cloned());
        }
        let mut checked = 0;
        for s in strings.iter().filter(|s| s.len() <= BLOCK) {
            let mut text = String::from("x");
            escape_short_into::<false>(&mut text, s);
            assert_eq!(text[1..], esc(s, Mode::Text), "{s:?}");
            let mut attr = String::from("x");
            escape_short_into::<true>(&mut attr, s);
            assert_eq!(attr[1..], esc(s, Mode::AttrDouble), "{s:?}");
            checked += 1;
        }
        assert!(checked > 10_000, "{checked}");
    }

    fn esc(s: &str, mode: Mode) -> String {
        let mut out = String::new();
        write_escaped(&mut out, s, mode).unwrap();
        out
    }

    #[test]
    fn escapes_per_mode() {
        assert_eq!(
            esc("a&b<c>d\"e'f\u{a0}g", Mode::Text),
            "a&amp;b&lt;c&gt;d\"e'f&nbsp;g"
        );
        assert_eq!(
            esc("a&b<c>d\"e'f\u{a0}g", Mode::AttrDouble),
            "a&amp;b&lt;c&gt;d&quot;e'f&nbsp;g"
        );
        assert_eq!(esc("a'b\"", Mode::AttrSingle), "a&#39;b\"");
        assert_eq!(esc("é\u{c2}", Mode::Text), "é\u{c2}");
    }
}
