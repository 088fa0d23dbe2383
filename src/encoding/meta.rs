//! 2.5.3 "Extracting character encodings from `meta` elements", and the tree builder's test on
//! a `<meta>` start tag ("in head", `meta`).

use encoding_rs::Encoding;

use super::{get_an_encoding, is_ascii_whitespace};

/// The [algorithm for extracting a character encoding from a `meta` element](https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element),
/// applied to the value of a `content` attribute: the encoding its `charset=` names, or `None`.
///
/// The syntax is the one browsers accept, not HTTP's: single quotes work, backslash escapes do
/// not, and an unquoted value ends at whitespace or `;`. An unknown label gives `None`. The
/// result is not adjusted: `charset=utf-16` gives UTF-16LE here (the prescan and
/// [`change_the_encoding`](super::change_the_encoding) turn it into UTF-8).
///
/// ```
/// use html_arena::encoding::extract_encoding_from_meta_content;
///
/// let shift_jis = Some(encoding_rs::SHIFT_JIS);
/// assert_eq!(extract_encoding_from_meta_content("text/html; charset=Shift_JIS"), shift_jis);
/// assert_eq!(extract_encoding_from_meta_content("text/html;CHARSET = 'sjis'"), shift_jis);
/// assert_eq!(extract_encoding_from_meta_content("text/html; charset=\"sjis"), None);
/// assert_eq!(extract_encoding_from_meta_content("text/html"), None);
/// ```
pub fn extract_encoding_from_meta_content(content: &str) -> Option<&'static Encoding> {
    // Every byte the algorithm looks for is ASCII, so it runs on the UTF-8 bytes unchanged.
    extract_from_meta_content_bytes(content.as_bytes())
}

/// [`extract_encoding_from_meta_content`] on bytes (the prescan's attribute values are bytes,
/// each standing for the code point of the same value).
pub(crate) fn extract_from_meta_content_bytes(s: &[u8]) -> Option<&'static Encoding> {
    // "Let position be a pointer into s, initially pointing at the start of the string."
    let mut position = 0;
    loop {
        // "Loop: Find the first seven characters in s after position that are an ASCII
        // case-insensitive match for the word "charset". If no such match is found, return
        // nothing."
        let rest = s.get(position..)?;
        let found = find_charset(rest)?;
        let mut next = position + found + b"charset".len();
        // "Skip any ASCII whitespace that immediately follow the word "charset"."
        while s.get(next).is_some_and(|&b| is_ascii_whitespace(b)) {
            next += 1;
        }
        // "If the next character is not a U+003D EQUALS SIGN (=), then move position to point
        // just before that next character, and jump back to the step labeled loop."
        if s.get(next) != Some(&b'=') {
            position = next;
            continue;
        }
        next += 1;
        // "Skip any ASCII whitespace that immediately follow the equals sign."
        while s.get(next).is_some_and(|&b| is_ascii_whitespace(b)) {
            next += 1;
        }
        // "Process the next character as follows:"
        return match s.get(next) {
            // "If there is no next character: Return nothing."
            None => None,
            // "If it is a U+0022 QUOTATION MARK character (") and there is a later U+0022
            // QUOTATION MARK character (") in s" (and the same for U+0027): "Return the result
            // of getting an encoding from the substring that is between this character and
            // the next earliest occurrence of this character." An unmatched quote: "Return
            // nothing."
            Some(&quote @ (b'"' | b'\'')) => {
                let value = s.get(next + 1..)?;
                let end = memchr::memchr(quote, value)?;
                Encoding::for_label(value.get(..end)?)
            }
            // "Otherwise: Return the result of getting an encoding from the substring that
            // consists of this character up to but not including the first ASCII whitespace
            // or U+003B SEMICOLON character (;), or the end of s, whichever comes first."
            Some(_) => {
                let value = s.get(next..)?;
                let end = value
                    .iter()
                    .position(|&b| is_ascii_whitespace(b) || b == b';')
                    .unwrap_or(value.len());
                Encoding::for_label(value.get(..end)?)
            }
        };
    }
}

/// The offset of the first ASCII case-insensitive match for `charset` in `haystack`.
fn find_charset(haystack: &[u8]) -> Option<usize> {
    const WORD: &[u8] = b"charset";
    // Candidates start with `c` or `C`; each is checked once, so this is linear.
    let mut from = 0;
    while let Some(offset) = memchr::memchr2(b'c', b'C', haystack.get(from..)?) {
        let start = from + offset;
        if haystack
            .get(start..start + WORD.len())
            .is_some_and(|candidate| candidate.eq_ignore_ascii_case(WORD))
        {
            return Some(start);
        }
        from = start + 1;
    }
    None
}

/// The encoding a `<meta>` start tag declares, as the tree builder tests it ("in head", a
/// start tag whose tag name is "meta"), or `None` if it declares none.
///
/// 1. "If the element has a `charset` attribute, and getting an encoding from its value results
///    in an encoding", that encoding;
/// 2. "Otherwise, if the element has an `http-equiv` attribute whose value is an ASCII
///    case-insensitive match for "`Content-Type`", and the element has a `content` attribute,
///    and applying the algorithm for extracting a character encoding from a `meta` element to
///    that attribute's value returns an encoding", that encoding.
///
/// So a `charset` with an unknown label does not hide a valid `http-equiv` declaration. The
/// caller checks that the confidence is tentative (and that no speculative parser is running)
/// and then calls [`change_the_encoding`](super::change_the_encoding) with the result, which
/// makes the UTF-16 and x-user-defined adjustments.
///
/// ```
/// use html_arena::encoding::encoding_declared_by_meta;
///
/// let koi8 = Some(encoding_rs::KOI8_R);
/// assert_eq!(encoding_declared_by_meta(Some("koi8-r"), None, None), koi8);
/// let content = Some("text/html; charset=koi8-r");
/// assert_eq!(encoding_declared_by_meta(None, Some("content-TYPE"), content), koi8);
/// assert_eq!(encoding_declared_by_meta(Some("bogus"), Some("Content-Type"), content), koi8);
/// assert_eq!(encoding_declared_by_meta(None, None, content), None);
/// ```
pub fn encoding_declared_by_meta(
    charset: Option<&str>,
    http_equiv: Option<&str>,
    content: Option<&str>,
) -> Option<&'static Encoding> {
    if let Some(encoding) = charset.and_then(get_an_encoding) {
        return Some(encoding);
    }
    let is_content_type =
        http_equiv.is_some_and(|value| value.eq_ignore_ascii_case("content-type"));
    if is_content_type {
        content.and_then(extract_encoding_from_meta_content)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extract(s: &str) -> Option<&'static str> {
        extract_encoding_from_meta_content(s).map(Encoding::name)
    }

    #[test]
    fn unquoted_quoted_and_spaced() {
        assert_eq!(extract("text/html; charset=iso8859-2"), Some("ISO-8859-2"));
        assert_eq!(
            extract("text/html; charset='iso8859-2'"),
            Some("ISO-8859-2")
        );
        assert_eq!(
            extract("text/html; charset=\"iso8859-2\""),
            Some("ISO-8859-2")
        );
        assert_eq!(
            extract(" text/html; charset = iso8859-2 "),
            Some("ISO-8859-2")
        );
        assert_eq!(
            extract("text/html;charset=iso8859-2;x=y"),
            Some("ISO-8859-2")
        );
        assert_eq!(
            extract("\ntext/html; charset=iso8859-2\n"),
            Some("ISO-8859-2")
        );
        assert_eq!(extract("CharSet=UTF-8"), Some("UTF-8"));
        // The quoted value is trimmed by "get an encoding".
        assert_eq!(extract("charset=' utf-8 '"), Some("UTF-8"));
    }

    #[test]
    fn no_encoding() {
        assert_eq!(extract(""), None);
        assert_eq!(extract("text/html"), None);
        assert_eq!(extract("charset"), None);
        assert_eq!(extract("charset="), None);
        assert_eq!(extract("charset=   "), None);
        assert_eq!(extract("charset=bogus"), None);
        // Unmatched quotes.
        assert_eq!(extract("charset='utf-8"), None);
        assert_eq!(extract("charset=\"utf-8'"), None);
        // Backslash escapes are not HTTP's here.
        assert_eq!(extract("charset=\"utf\\-8\""), None);
    }

    #[test]
    fn charset_without_equals_keeps_looking() {
        assert_eq!(extract("charsetcharset=utf-8"), Some("UTF-8"));
        assert_eq!(extract("nocharset; charset=koi8-r"), Some("KOI8-R"));
        assert_eq!(extract("charset x charset = koi8-r"), Some("KOI8-R"));
        assert_eq!(extract("charse charset"), None);
        // Non-ASCII text around the declaration is harmless.
        assert_eq!(extract("é charset=gbk é"), Some("GBK"));
    }

    #[test]
    fn long_inputs_stay_linear() {
        let content = format!("{}charset=gbk", "charset ".repeat(100_000));
        assert_eq!(extract(&content), Some("GBK"));
        assert_eq!(extract(&"c".repeat(200_000)), None);
    }

    #[test]
    fn the_first_charset_with_equals_decides() {
        assert_eq!(extract("charset=bogus; charset=utf-8"), None);
        assert_eq!(extract("charset=utf-8; charset=gbk"), Some("UTF-8"));
    }

    #[test]
    fn utf16_is_not_adjusted_here() {
        assert_eq!(extract("charset=utf-16"), Some("UTF-16LE"));
    }

    #[test]
    fn meta_declarations() {
        let declared = |c, h, v| encoding_declared_by_meta(c, h, v).map(Encoding::name);
        assert_eq!(declared(Some("gbk"), None, None), Some("GBK"));
        assert_eq!(declared(Some(""), None, None), None);
        assert_eq!(
            declared(Some("gbk"), Some("content-type"), Some("charset=big5")),
            Some("GBK")
        );
        assert_eq!(
            declared(None, Some("Content-Type"), Some("charset=big5")),
            Some("Big5")
        );
        assert_eq!(
            declared(None, Some("Content-Type "), Some("charset=big5")),
            None
        );
        assert_eq!(declared(None, Some("refresh"), Some("charset=big5")), None);
        assert_eq!(declared(None, Some("content-type"), None), None);
        assert_eq!(
            declared(Some("nope"), Some("content-type"), Some("charset=big5")),
            Some("Big5")
        );
    }
}
