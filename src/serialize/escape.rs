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

/// Writes `s` escaped for `mode`. Unescaped runs are written whole and found with `memchr`,
/// so the cost is one pass over `s` plus the output.
pub(crate) fn write_escaped<W: Write + ?Sized>(out: &mut W, s: &str, mode: Mode) -> fmt::Result {
    let bytes = s.as_bytes();
    // Short strings (most attribute values and many text nodes): one check per byte is
    // cheaper than setting up vector searches, and usually nothing needs escaping.
    if bytes.len() <= 32 {
        let special = |b: u8| matches!(b, b'&' | b'<' | b'>' | 0xC2 | b'"' | b'\'');
        if !bytes.iter().any(|&b| special(b)) {
            return out.write_str(s);
        }
    }
    // `&`, `<` and `>` are always escaped; the other set holds the lead byte of U+00A0 (0xC2,
    // which also starts other characters) and the quote of the mode, if any.
    let quote = match mode {
        Mode::AttrDouble => b'"',
        Mode::AttrSingle => b'\'',
        Mode::Text | Mode::AttrUnquoted => 0xC2,
    };
    let find_other = |from: usize| {
        memchr::memchr2(quote, 0xC2, &bytes[from..]).map_or(bytes.len(), |k| from + k)
    };
    let mut start = 0;
    let mut i = 0;
    let mut next_other = find_other(0);
    loop {
        let next_markup =
            memchr::memchr3(b'&', b'<', b'>', &bytes[i..]).map_or(bytes.len(), |k| i + k);
        if next_other < i {
            next_other = find_other(i);
        }
        let j = next_markup.min(next_other);
        if j >= bytes.len() {
            break;
        }
        let (replacement, len) = match bytes[j] {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' if mode == Mode::AttrDouble => ("&quot;", 1),
            b'\'' if mode == Mode::AttrSingle => ("&#39;", 1),
            // U+00A0 is C2 A0 in UTF-8; other characters starting with C2 stay.
            0xC2 if bytes.get(j + 1) == Some(&0xA0) => ("&nbsp;", 2),
            _ => {
                i = j + 1;
                if next_other == j {
                    next_other = find_other(i);
                }
                continue;
            }
        };
        out.write_str(&s[start..j])?;
        out.write_str(replacement)?;
        i = j + len;
        start = i;
    }
    out.write_str(&s[start..])
}

#[cfg(test)]
mod tests {
    use super::*;

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
