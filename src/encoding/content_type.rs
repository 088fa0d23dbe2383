//! The `charset` parameter of an HTTP `Content-Type` value: Fetch's "extract a MIME type" over
//! MIME Sniffing's "parse a MIME type", as far as the charset goes.

use std::borrow::Cow;

use encoding_rs::Encoding;

/// The `charset` parameter of an HTTP `Content-Type` header value, as a label (not checked
/// against the Encoding Standard's labels; see [`encoding_from_content_type`]).
///
/// The value is parsed the way browsers do it (Fetch's [extract a MIME
/// type](https://fetch.spec.whatwg.org/#concept-header-extract-mime-type) on top of MIME
/// Sniffing's [parse a MIME type](https://mimesniff.spec.whatwg.org/#parse-a-mime-type)):
/// parameter names ignore ASCII case, whitespace around `;` is skipped, quoted values may hold
/// `;` and backslash escapes, the first of two `charset` parameters counts, and a value that is
/// not a valid MIME type is skipped. Several values joined by commas (a repeated header) are
/// allowed: the last valid MIME type decides, and it inherits the charset of an earlier value
/// with the same type and subtype if it has none of its own.
///
/// ```
/// use html_arena::encoding::charset_from_content_type;
///
/// let charset = |value| charset_from_content_type(value).map(|label| label.into_owned());
/// assert_eq!(charset("text/html; charset=\"Shift_JIS\""), Some("Shift_JIS".into()));
/// assert_eq!(charset("text/html;charset=utf-8 ; foo=bar"), Some("utf-8".into()));
/// assert_eq!(charset("TEXT/HTML; Charset=latin1"), Some("latin1".into()));
/// assert_eq!(charset("text/html"), None);
/// assert_eq!(charset("text/html; charset=gbk, text/html"), Some("gbk".into()));
/// assert_eq!(charset("charset=utf-8"), None); // not a MIME type
/// ```
pub fn charset_from_content_type(value: &str) -> Option<Cow<'_, str>> {
    /// Where mimeType's `charset` parameter is: its own, or the one of the run of values with
    /// the same essence (`charset` below). Inherited values are not copied, which keeps this
    /// linear however many values inherit a long one.
    enum MimeCharset<'a> {
        Own(Cow<'a, str>),
        Inherited,
    }
    // "Let charset be null." "Let essence be null." "Let mimeType be null."
    let mut charset: Option<Cow<'_, str>> = None;
    let mut essence: Option<(String, String)> = None;
    let mut mime_type: Option<MimeCharset<'_>> = None;
    // "Let values be the result of getting, decoding, and splitting `Content-Type`". "For each
    // value of values:"
    for part in split_header_value(value) {
        // "Let temporaryMimeType be the result of parsing value." "If temporaryMimeType is
        // failure or its essence is "*/*", then continue."
        let Some(parsed) = parse_mime_type(part) else {
            continue;
        };
        if parsed.type_ == "*" && parsed.subtype == "*" {
            continue;
        }
        // "Set mimeType to temporaryMimeType."
        let this_essence = (parsed.type_, parsed.subtype);
        if essence.as_ref() != Some(&this_essence) {
            // "If mimeType's essence is not essence, then: Set charset to null. If mimeType's
            // parameters["charset"] exists, then set charset to mimeType's
            // parameters["charset"]. Set essence to mimeType's essence."
            charset = parsed.charset;
            essence = Some(this_essence);
            mime_type = Some(MimeCharset::Inherited);
        } else {
            // "Otherwise, if mimeType's parameters["charset"] does not exist, and charset is
            // non-null, set mimeType's parameters["charset"] to charset."
            mime_type = Some(match parsed.charset {
                Some(own) => MimeCharset::Own(own),
                None => MimeCharset::Inherited,
            });
        }
    }
    // "If mimeType is null, then return failure." "Return mimeType."
    match mime_type? {
        MimeCharset::Own(own) => Some(own),
        MimeCharset::Inherited => charset,
    }
}

/// The encoding named by the `charset` parameter of an HTTP `Content-Type` value, or `None` if
/// there is none or its label is unknown: Fetch's [legacy extract an
/// encoding](https://fetch.spec.whatwg.org/#legacy-extract-an-encoding) without a fallback.
///
/// This is what the transport layer "specifies" in step 4 of the sniffing algorithm; an
/// unsupported charset there is ignored, so pass the result, when there is one, as
/// [`SniffOptions::transport`](super::SniffOptions::transport).
///
/// ```
/// use html_arena::encoding::{encoding_from_content_type, sniff, SniffOptions};
///
/// let header = "text/html; charset=EUC-JP";
/// let mut options = SniffOptions::new();
/// if let Some(encoding) = encoding_from_content_type(header) {
///     options = options.transport(encoding);
/// }
/// assert_eq!(sniff(b"<meta charset=utf-8>", &options)?.encoding, encoding_rs::EUC_JP);
/// assert_eq!(encoding_from_content_type("text/html; charset=klingon"), None);
/// # Ok::<(), html_arena::encoding::EncodingError>(())
/// ```
pub fn encoding_from_content_type(value: &str) -> Option<&'static Encoding> {
    Encoding::for_label(charset_from_content_type(value)?.as_bytes())
}

/// The parts of a parsed MIME type this module needs.
struct MimeType<'a> {
    type_: String,
    subtype: String,
    charset: Option<Cow<'a, str>>,
}

/// HTTP whitespace: LF, CR, TAB, SPACE.
fn is_http_whitespace(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\t' | ' ')
}

/// HTTP token code points: ``!#$%&'*+-.^_`|~``, ASCII digits and letters.
fn is_http_token(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// HTTP quoted-string token code points: TAB, U+0020 to U+007E, U+0080 to U+00FF.
fn is_http_quoted_string_token(c: char) -> bool {
    matches!(c, '\t' | ' '..='~' | '\u{80}'..='\u{FF}')
}

/// Fetch's [get, decode, and split](https://fetch.spec.whatwg.org/#header-value-get-decode-and-split)
/// of a header value: split on commas outside quoted strings, trimming tabs and spaces.
fn split_header_value(input: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let bytes = input.as_bytes();
        let mut position = start;
        loop {
            // "Append the result of collecting a sequence of code points that are not U+0022
            // (") or U+002C (,) from input, given position, to temporaryValue."
            while bytes.get(position).is_some_and(|&b| b != b'"' && b != b',') {
                position += 1;
            }
            // "If position is not past the end of input and the code point at position within
            // input is U+0022 ("): Append the result of collecting an HTTP quoted string from
            // input, given position, to temporaryValue. If position is not past the end of
            // input, then continue."
            if bytes.get(position) == Some(&b'"') {
                position = collect_quoted_string(input, position).1;
                if position < bytes.len() {
                    continue;
                }
            }
            break;
        }
        // "Remove all HTTP tab or space from the start and end of temporaryValue." "Append
        // temporaryValue to values."
        let value = input
            .get(start..position)
            .unwrap_or_default()
            .trim_matches(['\t', ' ']);
        // "If position is past the end of input, then return values." "Advance position by 1."
        if position >= bytes.len() {
            done = true;
        }
        start = position + 1;
        Some(value)
    })
}

/// Fetch's [collect an HTTP quoted string](https://fetch.spec.whatwg.org/#collect-an-http-quoted-string)
/// starting at the `"` at `position`, with *extract-value* true: the unescaped value and the
/// position after the string.
fn collect_quoted_string(input: &str, position: usize) -> (Cow<'_, str>, usize) {
    let bytes = input.as_bytes();
    // "Advance position by 1." (past the opening quote)
    let start = position + 1;
    let mut position = start;
    let mut owned: Option<String> = None;
    let mut segment_start = start;
    loop {
        // "Append the result of collecting a sequence of code points that are not U+0022 (")
        // or U+005C (\) from input, given position, to value."
        while bytes
            .get(position)
            .is_some_and(|&b| b != b'"' && b != b'\\')
        {
            position += 1;
        }
        // "If position is past the end of input, then break."
        let Some(&quote_or_backslash) = bytes.get(position) else {
            break;
        };
        if quote_or_backslash == b'\\' {
            let buffer = owned.get_or_insert_with(String::new);
            buffer.push_str(input.get(segment_start..position).unwrap_or_default());
            // "Advance position by 1."
            position += 1;
            // "If position is past the end of input, then append U+005C (\) to value and
            // break."
            let Some(escaped) = input.get(position..).and_then(|rest| rest.chars().next()) else {
                buffer.push('\\');
                segment_start = position;
                break;
            };
            // "Append the code point at position within input to value." "Advance position by
            // 1."
            buffer.push(escaped);
            position += escaped.len_utf8();
            segment_start = position;
        } else {
            // "Assert: quoteOrBackslash is U+0022 ("). Break."
            let value = finish_segment(input, owned, segment_start, position);
            return (value, position + 1);
        }
    }
    let end = position.min(bytes.len());
    (finish_segment(input, owned, segment_start, end), end)
}

fn finish_segment(
    input: &str,
    owned: Option<String>,
    segment_start: usize,
    end: usize,
) -> Cow<'_, str> {
    let tail = input.get(segment_start..end).unwrap_or_default();
    match owned {
        Some(mut buffer) => {
            buffer.push_str(tail);
            Cow::Owned(buffer)
        }
        None => Cow::Borrowed(tail),
    }
}

/// MIME Sniffing's [parse a MIME type](https://mimesniff.spec.whatwg.org/#parse-a-mime-type),
/// keeping the type, the subtype and the `charset` parameter.
fn parse_mime_type(input: &str) -> Option<MimeType<'_>> {
    // "Remove any leading and trailing HTTP whitespace from input."
    let input = input.trim_matches(is_http_whitespace);
    let bytes = input.as_bytes();
    // "Let type be the result of collecting a sequence of code points that are not U+002F (/)
    // from input, given position." "If type is the empty string or does not solely contain
    // HTTP token code points, then return failure." "If position is past the end of input,
    // then return failure."
    let slash = input.find('/')?;
    let type_ = input.get(..slash)?;
    if type_.is_empty() || !type_.chars().all(is_http_token) {
        return None;
    }
    // "Advance position by 1. (This skips past U+002F (/).)" "Let subtype be the result of
    // collecting a sequence of code points that are not U+003B (;) from input, given
    // position." "Remove any trailing HTTP whitespace from subtype." "If subtype is the empty
    // string or does not solely contain HTTP token code points, then return failure."
    let mut position = slash + 1;
    let subtype_end = input
        .get(position..)?
        .find(';')
        .map_or(input.len(), |i| position + i);
    let subtype = input
        .get(position..subtype_end)?
        .trim_end_matches(is_http_whitespace);
    if subtype.is_empty() || !subtype.chars().all(is_http_token) {
        return None;
    }
    let mut mime = MimeType {
        type_: type_.to_ascii_lowercase(),
        subtype: subtype.to_ascii_lowercase(),
        charset: None,
    };
    position = subtype_end;
    // "While position is not past the end of input:"
    while position < bytes.len() {
        // "Advance position by 1. (This skips past U+003B (;).)" "Collect a sequence of code
        // points that are HTTP whitespace from input given position."
        position += 1;
        while bytes
            .get(position)
            .is_some_and(|&b| is_http_whitespace(char::from(b)))
        {
            position += 1;
        }
        // "Let parameterName be the result of collecting a sequence of code points that are
        // not U+003B (;) or U+003D (=) from input, given position." (It is lowercased below.)
        let name_start = position;
        while bytes.get(position).is_some_and(|&b| b != b';' && b != b'=') {
            position += 1;
        }
        let name = input.get(name_start..position).unwrap_or_default();
        // "If position is not past the end of input, then: If the code point at position within
        // input is U+003B (;), then continue. Advance position by 1. (This skips past U+003D
        // (=).)"
        match bytes.get(position) {
            Some(b';') => continue,
            Some(_) => position += 1,
            None => {}
        }
        // "If position is past the end of input, then break."
        if position >= bytes.len() {
            break;
        }
        // "Let parameterValue be null."
        let value: Cow<'_, str>;
        if bytes.get(position) == Some(&b'"') {
            // "If the code point at position within input is U+0022 ("), then: Set
            // parameterValue to the result of collecting an HTTP quoted string from input,
            // given position and true. Collect a sequence of code points that are not U+003B
            // (;) from input, given position."
            let (quoted, after) = collect_quoted_string(input, position);
            value = quoted;
            position = after;
            while bytes.get(position).is_some_and(|&b| b != b';') {
                position += 1;
            }
        } else {
            // "Otherwise: Set parameterValue to the result of collecting a sequence of code
            // points that are not U+003B (;) from input, given position. Remove any trailing
            // HTTP whitespace from parameterValue. If parameterValue is the empty string, then
            // continue."
            let value_start = position;
            while bytes.get(position).is_some_and(|&b| b != b';') {
                position += 1;
            }
            let raw = input.get(value_start..position).unwrap_or_default();
            let raw = raw.trim_end_matches(is_http_whitespace);
            if raw.is_empty() {
                continue;
            }
            value = Cow::Borrowed(raw);
        }
        // "If all of the following are true: parameterName is not the empty string;
        // parameterName solely contains HTTP token code points; parameterValue solely contains
        // HTTP quoted-string token code points; mimeType's parameters[parameterName] does not
        // exist, then set mimeType's parameters[parameterName] to parameterValue." Only
        // `charset` is kept, so only its name is compared.
        if name.eq_ignore_ascii_case("charset")
            && value.chars().all(is_http_quoted_string_token)
            && mime.charset.is_none()
        {
            mime.charset = Some(value);
        }
    }
    Some(mime)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn charset(value: &str) -> Option<String> {
        charset_from_content_type(value).map(Cow::into_owned)
    }

    #[test]
    fn the_usual_forms() {
        assert_eq!(
            charset("text/html; charset=\"Shift_JIS\""),
            Some("Shift_JIS".into())
        );
        assert_eq!(
            charset("text/html;charset=utf-8 ; foo=bar"),
            Some("utf-8".into())
        );
        assert_eq!(charset("text/html; charset=UTF-8"), Some("UTF-8".into()));
        assert_eq!(charset("text/html ;  CHARSET=utf-8"), Some("utf-8".into()));
        assert_eq!(
            charset("  text/html; charset=utf-8  "),
            Some("utf-8".into())
        );
        assert_eq!(
            charset("text/html; foo=bar; charset=koi8-r"),
            Some("koi8-r".into())
        );
    }

    #[test]
    fn no_charset() {
        assert_eq!(charset("text/html"), None);
        assert_eq!(charset("text/html;"), None);
        assert_eq!(charset("text/html; charset"), None);
        assert_eq!(charset("text/html; charset="), None);
        assert_eq!(charset("text/html; charset= "), None);
        assert_eq!(charset("text/html; charsets=utf-8"), None);
        assert_eq!(charset("text/html; charset =utf-8"), None); // the name is "charset "
        assert_eq!(charset(""), None);
    }

    #[test]
    fn invalid_mime_types() {
        assert_eq!(charset("charset=utf-8"), None);
        assert_eq!(charset("text; charset=utf-8"), None);
        assert_eq!(charset("/html; charset=utf-8"), None);
        assert_eq!(charset("text/; charset=utf-8"), None);
        assert_eq!(charset("te xt/html; charset=utf-8"), None);
        assert_eq!(charset("text/ht(ml; charset=utf-8"), None);
    }

    #[test]
    fn quoted_strings() {
        assert_eq!(
            charset("text/html; charset=\"utf-8\" ; x=y"),
            Some("utf-8".into())
        );
        assert_eq!(
            charset("text/html; charset=\"utf-8\"junk"),
            Some("utf-8".into())
        );
        assert_eq!(
            charset("text/html; charset=\"ut\\f-8\""),
            Some("utf-8".into())
        );
        assert_eq!(charset("text/html; charset=\"utf-8"), Some("utf-8".into()));
        assert_eq!(
            charset("text/html; charset=\"utf-8\\"),
            Some("utf-8\\".into())
        );
        assert_eq!(charset("text/html; charset=\"a;b\""), Some("a;b".into()));
        assert_eq!(charset("text/html; charset=\"\""), Some("".into()));
        assert_eq!(charset("text/html; charset=\"é\\é\""), Some("éé".into()));
        // Code points above U+00FF are not quoted-string token code points.
        assert_eq!(charset("text/html; charset=\"ŝ\""), None);
    }

    #[test]
    fn the_first_charset_parameter_counts() {
        assert_eq!(
            charset("text/html; charset=gbk; charset=big5"),
            Some("gbk".into())
        );
        // An invalid value does not take the place.
        assert_eq!(
            charset("text/html; charset=\"ŝ\"; charset=big5"),
            Some("big5".into())
        );
    }

    #[test]
    fn several_values() {
        assert_eq!(
            charset("text/html; charset=gbk, text/html"),
            Some("gbk".into())
        );
        assert_eq!(charset("text/html; charset=gbk, text/plain"), None);
        assert_eq!(
            charset("text/html, text/plain; charset=gbk"),
            Some("gbk".into())
        );
        assert_eq!(charset("text/html; charset=gbk, */*"), Some("gbk".into()));
        assert_eq!(
            charset("text/html; charset=gbk, nonsense"),
            Some("gbk".into())
        );
        assert_eq!(
            charset("text/html; charset=gbk, text/html; charset=big5"),
            Some("big5".into())
        );
        assert_eq!(charset("text/html; charset=\"a,b\""), Some("a,b".into()));
        assert_eq!(charset(",,text/html;charset=gbk,,"), Some("gbk".into()));
    }

    #[test]
    fn long_inputs_stay_linear() {
        // A long escaped charset inherited by many later values is not copied for each.
        let mut value = format!("text/html; charset=\"{}\"", "\\a".repeat(50_000));
        value.push_str(&", text/html".repeat(50_000));
        assert_eq!(charset(&value).map(|c| c.len()), Some(50_000));
        let value = format!("text/html{}", "; charset=".repeat(100_000));
        assert_eq!(charset(&value), None);
    }

    #[test]
    fn encodings() {
        assert_eq!(
            encoding_from_content_type("text/html; charset=sjis"),
            Some(encoding_rs::SHIFT_JIS)
        );
        assert_eq!(
            encoding_from_content_type("text/html; charset=\" sjis \""),
            Some(encoding_rs::SHIFT_JIS)
        );
        assert_eq!(encoding_from_content_type("text/html; charset=nope"), None);
        assert_eq!(encoding_from_content_type("text/html"), None);
    }
}
