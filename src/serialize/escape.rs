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

/// Writes `s` escaped for `mode`. Unescaped runs are written whole, so the cost is one pass
/// over `s` plus the output.
pub(crate) fn write_escaped<W: Write + ?Sized>(out: &mut W, s: &str, mode: Mode) -> fmt::Result {
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let replacement = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' if mode == Mode::AttrDouble => "&quot;",
            b'\'' if mode == Mode::AttrSingle => "&#39;",
            // U+00A0 is C2 A0 in UTF-8.
            0xC2 if bytes.get(i + 1) == Some(&0xA0) => "&nbsp;",
            _ => {
                i += 1;
                continue;
            }
        };
        out.write_str(&s[start..i])?;
        out.write_str(replacement)?;
        i += if b == 0xC2 { 2 } else { 1 };
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
