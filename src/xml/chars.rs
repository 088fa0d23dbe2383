//! The character classes of XML 1.0 (Fifth Edition) that serialization and coercion check:
//! 2.2 "Characters" (`Char`), 2.3 "Common Syntactic Constructs" (`NameStartChar`, `NameChar`,
//! `Name`, `PubidChar`) and Namespaces in XML 1.0, 3 (`NCName`: a `Name` without `:`).

/// `Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`
/// (surrogates cannot occur in a Rust `char`).
#[inline]
pub(crate) fn is_xml_char(c: char) -> bool {
    match c {
        '\t' | '\n' | '\r' => true,
        '\u{0}'..='\u{1F}' => false,
        '\u{FFFE}' | '\u{FFFF}' => false,
        _ => true,
    }
}

/// Whether every character of `s` matches `Char`, in one byte scan: the bytes that can start
/// a non-`Char` are the C0 controls other than tab, LF and CR, and EF, the lead byte of
/// U+FFFE and U+FFFF (EF BF BE, EF BF BF).
pub(crate) fn all_xml_chars(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(k) = bytes
        .get(i..)
        .unwrap_or(&[])
        .iter()
        .position(|&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0xEF)
    {
        let j = i + k;
        if bytes[j] != 0xEF {
            return false;
        }
        if bytes.get(j + 1) == Some(&0xBF) && matches!(bytes.get(j + 2), Some(0xBE | 0xBF)) {
            return false;
        }
        i = j + 1;
    }
    true
}

/// `NameStartChar`.
#[inline]
pub(crate) fn is_name_start_char(c: char) -> bool {
    matches!(c,
        ':' | 'A'..='Z' | '_' | 'a'..='z'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// `NameChar`.
#[inline]
pub(crate) fn is_name_char(c: char) -> bool {
    is_name_start_char(c)
        || matches!(c,
            '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// `Name ::= NameStartChar (NameChar)*`
pub(crate) fn is_xml_name(s: &str) -> bool {
    // ASCII names (nearly all): the same rules on bytes.
    if s.is_ascii() {
        let b = s.as_bytes();
        return b
            .first()
            .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_' || c == b':')
            && b.iter()
                .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b':' | b'-' | b'.'));
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if is_name_start_char(c) => chars.all(is_name_char),
        _ => false,
    }
}

/// `NCName`: a `Name` with no `:`.
pub(crate) fn is_ncname(s: &str) -> bool {
    !s.contains(':') && is_xml_name(s)
}

/// `PubidChar ::= #x20 | #xD | #xA | [a-zA-Z0-9] | [-'()+,./:=?;!*#@$_%]`
#[inline]
pub(crate) fn is_pubid_char(c: char) -> bool {
    matches!(c,
        ' ' | '\r' | '\n' | 'a'..='z' | 'A'..='Z' | '0'..='9'
        | '-' | '\'' | '(' | ')' | '+' | ',' | '.' | '/' | ':' | '=' | '?' | ';' | '!'
        | '*' | '#' | '@' | '$' | '_' | '%')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_xml_name("a"));
        assert!(is_xml_name("xml:lang"));
        assert!(!is_ncname("xml:lang"));
        assert!(is_ncname("foreignObject"));
        assert!(is_ncname("_x-1.2\u{B7}"));
        assert!(!is_xml_name(""));
        assert!(!is_xml_name("1a"));
        assert!(!is_xml_name("-a"));
        assert!(!is_xml_name("a<b"));
        assert!(!is_xml_name("a b"));
        assert!(is_xml_name("\u{10000}"));
    }

    #[test]
    fn chars() {
        assert!(all_xml_chars("a\tb\r\n\u{FFFD}\u{10FFFF}"));
        assert!(!all_xml_chars("a\u{C}b"));
        assert!(!all_xml_chars("\u{0}"));
        assert!(!all_xml_chars("\u{FFFE}"));
        assert!(all_xml_chars("\u{EFFF}"));
        assert!(is_pubid_char('\''));
        assert!(!is_pubid_char('"'));
        assert!(!is_pubid_char('\t'));
    }
}
