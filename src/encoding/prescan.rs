//! "Prescan a byte stream to determine its encoding", with "get an attribute" and "get an XML
//! encoding" (13.2.3.2 "Determining the character encoding").

use encoding_rs::Encoding;
use memchr::memmem;

use super::meta::extract_from_meta_content_bytes;
use super::{adjust_declared_encoding, is_ascii_whitespace, is_utf16};

/// How many bytes [`prescan`] looks at: its *end condition*. The specification encourages user
/// agents "to only prescan the first 1024 bytes", and authors must put a character encoding
/// declaration within them.
pub const PRESCAN_LIMIT: usize = 1024;

/// [Prescan a byte stream to determine its encoding](https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding),
/// with the end condition "the first [`PRESCAN_LIMIT`] bytes have been examined".
///
/// Looks for a UTF-16 XML declaration at the very start, then for `<meta charset>` or
/// `<meta http-equiv=content-type content="...; charset=...">`, skipping comments, `<!...>`,
/// `</...>`, `<?...>` and the attributes of other tags the way the specification's byte-level
/// steps do; when that finds nothing, for an XML declaration's `encoding` ("get an XML
/// encoding"). A `<meta>` that names UTF-16 gives UTF-8 (the page is evidently ASCII-based),
/// one that names x-user-defined gives windows-1252; an unknown label is ignored and the scan
/// goes on.
///
/// A declaration that does not end within the first [`PRESCAN_LIMIT`] bytes is not seen (the
/// parser's "change the encoding" step finds it later). Give the whole input or at least its
/// first [`PRESCAN_LIMIT`] bytes: a shorter prefix may end inside a declaration.
///
/// ```
/// use html_arena::encoding::prescan;
///
/// let utf8 = Some(encoding_rs::UTF_8);
/// assert_eq!(prescan(b"<meta charset=utf-8>"), utf8);
/// assert_eq!(prescan(b"<META Http-Equiv='Content-Type' Content='text/html;charset=UTF-8'>"), utf8);
/// assert_eq!(prescan(b"<!-- <meta charset=gbk> --><meta charset=utf-8>"), utf8);
/// assert_eq!(prescan(b"<meta charset=utf-16>"), utf8);
/// assert_eq!(prescan(b"<meta content='text/html; charset=utf-8'>"), None); // no http-equiv
/// assert_eq!(prescan(b"<?xml version='1.0' encoding='koi8-r'?>"), Some(encoding_rs::KOI8_R));
/// ```
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let stream = bytes.get(..PRESCAN_LIMIT).unwrap_or(bytes);
    prescan_stream(stream)
}

/// The prescan of `stream`, whose end stands for both "runs out of bytes" and the end
/// condition.
fn prescan_stream(stream: &[u8]) -> Option<&'static Encoding> {
    // "Prescan for UTF-16 XML declarations: If position points to: A sequence of bytes starting
    // with: 0x3C, 0x0, 0x3F, 0x0, 0x78, 0x0 (case-sensitive UTF-16 little-endian '<?x') Return
    // UTF-16LE. A sequence of bytes starting with: 0x0, 0x3C, 0x0, 0x3F, 0x0, 0x78
    // (case-sensitive UTF-16 big-endian '<?x') Return UTF-16BE."
    if stream.starts_with(&[0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) {
        return Some(encoding_rs::UTF_16LE);
    }
    if stream.starts_with(&[0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) {
        return Some(encoding_rs::UTF_16BE);
    }
    match Prescanner::new(stream).run() {
        Ok(encoding) => Some(encoding),
        // "If at any point during these steps ... the user agent either runs out of bytes ...
        // or reaches its end condition, then abort ... and return the result get an XML
        // encoding applied to the same bytes".
        Err(OutOfBytes) => get_an_xml_encoding(stream),
    }
}

/// The prescan ran out of bytes (or reached its end condition) and is aborted.
#[derive(Debug)]
struct OutOfBytes;

type Step<T> = Result<T, OutOfBytes>;

/// An attribute found by "get an attribute": its name and value, lowercased, as bytes.
#[derive(Default)]
struct Attribute {
    name: Vec<u8>,
    value: Vec<u8>,
}

/// The `charset` variable of the `<meta>` branch: "the null value (which, for the purposes of
/// this algorithm, is distinct from an unrecognized encoding or the empty string)".
#[derive(Copy, Clone)]
enum Charset {
    Null,
    Failure,
    Encoding(&'static Encoding),
}

struct Prescanner<'a> {
    stream: &'a [u8],
    /// "Let position be a pointer to a byte in the input byte stream, initially pointing at
    /// the first byte."
    position: usize,
    /// Reused by every "get an attribute" so the scan allocates at most twice.
    attribute: Attribute,
}

impl<'a> Prescanner<'a> {
    fn new(stream: &'a [u8]) -> Self {
        Prescanner {
            stream,
            position: 0,
            attribute: Attribute::default(),
        }
    }

    /// The byte at *position*; running out of bytes aborts the prescan.
    fn byte(&self) -> Step<u8> {
        self.stream.get(self.position).copied().ok_or(OutOfBytes)
    }

    /// The bytes from *position* on (empty past the end).
    fn rest(&self) -> &'a [u8] {
        self.stream.get(self.position..).unwrap_or_default()
    }

    /// Steps 3 and 4 ("Loop" and "Next byte"): returns the encoding a `<meta>` declares, or
    /// aborts at the end of the stream.
    fn run(&mut self) -> Step<&'static Encoding> {
        loop {
            let rest = self.rest();
            if rest.is_empty() {
                return Err(OutOfBytes);
            }
            if rest.starts_with(b"<!--") {
                // "Advance the position pointer so that it points at the first 0x3E byte which
                // is preceded by two 0x2D bytes (i.e. at the end of an ASCII '-->' sequence) and
                // comes after the 0x3C byte that was found. (The two 0x2D bytes can be the same
                // as those in the '<!--' sequence.)"
                let dashes = self.position + 2;
                let after = self.stream.get(dashes..).unwrap_or_default();
                let found = memmem::find(after, b"-->").ok_or(OutOfBytes)?;
                self.position = dashes + found + 2;
            } else if starts_with_meta(rest) {
                // "Advance the position pointer so that it points at the next 0x09, 0x0A, 0x0C,
                // 0x0D, 0x20, or 0x2F byte (the one in sequence of characters matched above)."
                self.position += b"<meta".len();
                if let Some(encoding) = self.meta()? {
                    return Ok(encoding);
                }
            } else if starts_with_tag(rest) {
                // "Advance the position pointer so that it points at the next 0x09 (HT), 0x0A
                // (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E (>) byte."
                let found = rest
                    .iter()
                    .position(|&b| is_ascii_whitespace(b) || b == b'>')
                    .ok_or(OutOfBytes)?;
                self.position += found;
                // "Repeatedly get an attribute until no further attributes can be found, then
                // jump to the step below labeled next byte."
                while self.get_an_attribute()? {}
            } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?")
            {
                // "Advance the position pointer so that it points at the first 0x3E byte (>)
                // that comes after the 0x3C byte that was found."
                let after = rest.get(1..).unwrap_or_default();
                let found = memchr::memchr(b'>', after).ok_or(OutOfBytes)?;
                self.position += 1 + found;
            }
            // "Any other byte: Do nothing with that byte."
            // "Next byte: Move position so it points at the next byte in the input byte
            // stream, and return to the step above labeled loop."
            self.position += 1;
        }
    }

    /// The `<meta>` branch from its step 2 on (*position* is at the space or slash after
    /// `<meta`): the encoding to return, or `None` for "jump to the step below labeled next
    /// byte".
    fn meta(&mut self) -> Step<Option<&'static Encoding>> {
        // "Let attribute list be an empty list of strings." Only the three names below change
        // anything when repeated, so the list is kept as three flags (which keeps this linear).
        let (mut seen_http_equiv, mut seen_content, mut seen_charset) = (false, false, false);
        // "Let got pragma be false."
        let mut got_pragma = false;
        // "Let need pragma be null."
        let mut need_pragma: Option<bool> = None;
        // "Let charset be the null value".
        let mut charset = Charset::Null;

        // "Attributes: Get an attribute and its value. If no attribute was sniffed, then jump
        // to the processing step below."
        while self.get_an_attribute()? {
            let Attribute { name, value } = &self.attribute;
            // "If the attribute's name is already in attribute list, then return to the step
            // labeled attributes." / "Add the attribute's name to attribute list."
            // "Run the appropriate step from the following list, if one applies:"
            match name.as_slice() {
                b"http-equiv" if !seen_http_equiv => {
                    seen_http_equiv = true;
                    // "If the attribute's value is "content-type", then set got pragma to
                    // true." (Values are already lowercased.)
                    if value == b"content-type" {
                        got_pragma = true;
                    }
                }
                b"content" if !seen_content => {
                    seen_content = true;
                    // "Apply the algorithm for extracting a character encoding from a meta
                    // element, giving the attribute's value as the string to parse. If a
                    // character encoding is returned, and if charset is still set to null, let
                    // charset be the encoding returned, and set need pragma to true."
                    if let (Some(encoding), Charset::Null) =
                        (extract_from_meta_content_bytes(value), charset)
                    {
                        charset = Charset::Encoding(encoding);
                        need_pragma = Some(true);
                    }
                }
                b"charset" if !seen_charset => {
                    seen_charset = true;
                    // "Let charset be the result of getting an encoding from the attribute's
                    // value, and set need pragma to false."
                    charset = match Encoding::for_label(value) {
                        Some(encoding) => Charset::Encoding(encoding),
                        None => Charset::Failure,
                    };
                    need_pragma = Some(false);
                }
                _ => {}
            }
            // "Return to the step labeled attributes."
        }

        // "Processing: If need pragma is null, then jump to the step below labeled next byte."
        let Some(need_pragma) = need_pragma else {
            return Ok(None);
        };
        // "If need pragma is true but got pragma is false, then jump to the step below labeled
        // next byte."
        if need_pragma && !got_pragma {
            return Ok(None);
        }
        // "If charset is failure, then jump to the step below labeled next byte." (It cannot be
        // null once need pragma is set.)
        let Charset::Encoding(encoding) = charset else {
            return Ok(None);
        };
        // "If charset is UTF-16BE/LE, then set charset to UTF-8." / "If charset is
        // x-user-defined, then set charset to windows-1252." / "Return charset."
        Ok(Some(adjust_declared_encoding(encoding)))
    }

    /// [Get an attribute](https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing):
    /// `Ok(true)` with the attribute in `self.attribute`, `Ok(false)` if there is none (at a
    /// `>`, where *position* stays).
    fn get_an_attribute(&mut self) -> Step<bool> {
        // "If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20
        // (SP), or 0x2F (/), then advance position to the next byte and redo this step."
        while is_ascii_whitespace(self.byte()?) || self.byte()? == b'/' {
            self.position += 1;
        }
        // "If the byte at position is 0x3E (>), then abort the get an attribute algorithm.
        // There isn't one."
        if self.byte()? == b'>' {
            return Ok(false);
        }
        // "Otherwise, the byte at position is the start of the attribute name. Let attribute
        // name and attribute value be the empty string."
        self.attribute.name.clear();
        self.attribute.value.clear();
        // Step 4, "Process the byte at position as follows:", and step 5, "Advance position to
        // the next byte and return to the previous step."
        loop {
            match self.byte()? {
                // "If it is 0x3D (=), and the attribute name is longer than the empty string:
                // Advance position to the next byte and jump to the step below labeled value."
                b'=' if !self.attribute.name.is_empty() => {
                    self.position += 1;
                    return self.attribute_value();
                }
                // "If it is 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), or 0x20 (SP): Jump to
                // the step below labeled spaces."
                b if is_ascii_whitespace(b) => break,
                // "If it is 0x2F (/) or 0x3E (>): Abort the get an attribute algorithm. The
                // attribute's name is the value of attribute name, its value is the empty
                // string."
                b'/' | b'>' => return Ok(true),
                // "If it is in the range 0x41 (A) to 0x5A (Z): Append the code point b+0x20 to
                // attribute name" / "Anything else: Append the code point with the same value
                // as the byte at position to attribute name."
                b => self.attribute.name.push(b.to_ascii_lowercase()),
            }
            self.position += 1;
        }
        // "Spaces: If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D
        // (CR), or 0x20 (SP), then advance position to the next byte, then, repeat this step."
        while is_ascii_whitespace(self.byte()?) {
            self.position += 1;
        }
        // "If the byte at position is not 0x3D (=), abort the get an attribute algorithm. The
        // attribute's name is the value of attribute name, its value is the empty string."
        if self.byte()? != b'=' {
            return Ok(true);
        }
        // "Advance position past the 0x3D (=) byte."
        self.position += 1;
        self.attribute_value()
    }

    /// "Get an attribute" from its step labeled *value*.
    fn attribute_value(&mut self) -> Step<bool> {
        // "Value: If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR),
        // or 0x20 (SP), then advance position to the next byte, then, repeat this step."
        while is_ascii_whitespace(self.byte()?) {
            self.position += 1;
        }
        // "Process the byte at position as follows:"
        match self.byte()? {
            // "If it is 0x22 (") or 0x27 (')"
            quote @ (b'"' | b'\'') => loop {
                // "Quote loop: Advance position to the next byte."
                self.position += 1;
                match self.byte()? {
                    // "If the value of the byte at position is the value of b, then advance
                    // position to the next byte and abort the "get an attribute" algorithm. The
                    // attribute's name is the value of attribute name, and its value is the
                    // value of attribute value."
                    b if b == quote => {
                        self.position += 1;
                        return Ok(true);
                    }
                    // "Otherwise, if the value of the byte at position is in the range 0x41 (A)
                    // to 0x5A (Z), then append a code point to attribute value whose value is
                    // 0x20 more than the value of the byte at position." / "Otherwise, append
                    // a code point to attribute value whose value is the same as the value of
                    // the byte at position."
                    b => self.attribute.value.push(b.to_ascii_lowercase()),
                }
            },
            // "If it is 0x3E (>): Abort the get an attribute algorithm. The attribute's name is
            // the value of attribute name, its value is the empty string."
            b'>' => return Ok(true),
            // "If it is in the range 0x41 (A) to 0x5A (Z): Append a code point b+0x20 to
            // attribute value" / "Anything else: Append a code point with the same value as the
            // byte at position to attribute value." "Advance position to the next byte."
            b => {
                self.attribute.value.push(b.to_ascii_lowercase());
                self.position += 1;
            }
        }
        // Step 11, "Process the byte at position as follows:", and step 12, "Advance position
        // to the next byte and return to the previous step."
        loop {
            match self.byte()? {
                // "If it is 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E (>):
                // Abort the get an attribute algorithm. The attribute's name is the value of
                // attribute name and its value is the value of attribute value."
                b if is_ascii_whitespace(b) || b == b'>' => return Ok(true),
                // "If it is in the range 0x41 (A) to 0x5A (Z): Append a code point b+0x20 to
                // attribute value" / "Anything else: Append a code point with the same value as
                // the byte at position to attribute value."
                b => self.attribute.value.push(b.to_ascii_lowercase()),
            }
            self.position += 1;
        }
    }
}

/// "A sequence of bytes starting with: 0x3C, 0x4D or 0x6D, 0x45 or 0x65, 0x54 or 0x74, 0x41 or
/// 0x61, and one of 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x2F (case-insensitive ASCII '<meta' followed
/// by a space or slash)".
fn starts_with_meta(bytes: &[u8]) -> bool {
    match bytes {
        [b'<', m, e, t, a, after, ..] => {
            [*m, *e, *t, *a].eq_ignore_ascii_case(b"meta")
                && (is_ascii_whitespace(*after) || *after == b'/')
        }
        _ => false,
    }
}

/// "A sequence of bytes starting with a 0x3C byte (<), optionally a 0x2F byte (/), and finally a
/// byte in the range 0x41-0x5A or 0x61-0x7A (A-Z or a-z)".
fn starts_with_tag(bytes: &[u8]) -> bool {
    match bytes {
        [b'<', b'/', letter, ..] | [b'<', letter, ..] => letter.is_ascii_alphabetic(),
        _ => false,
    }
}

/// [Get an XML encoding](https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing),
/// applied to the bytes the prescan was applied to.
///
/// The search for `encoding` stops at the end of the declaration (*xmlDeclarationEnd*): the
/// algorithm defines that pointer and never uses it, which the editors confirmed is a
/// specification bug (whatwg/html#6939, "The search in step 4 should not proceed past
/// xmlDeclarationEnd").
fn get_an_xml_encoding(stream: &[u8]) -> Option<&'static Encoding> {
    // "Let encodingPosition be a pointer to the start of the stream." "If encodingPosition does
    // not point to the start of a byte sequence 0x3C, 0x3F, 0x78, 0x6D, 0x6C (`<?xml`), then
    // return failure."
    if !stream.starts_with(b"<?xml") {
        return None;
    }
    // "Let xmlDeclarationEnd be a pointer to the next byte in the input byte stream which is
    // 0x3E (>). If there is no such byte, then return failure."
    let declaration_end = memchr::memchr(b'>', stream)?;
    let declaration = stream.get(..declaration_end)?;
    // "Set encodingPosition to the position of the first occurrence of the subsequence of bytes
    // 0x65, 0x6E, 0x63, 0x6F, 0x64, 0x69, 0x6E, 0x67 (`encoding`) at or after the current
    // encodingPosition. If there is no such sequence, then return failure."
    // "Advance encodingPosition past the 0x67 (g) byte."
    let mut position = memmem::find(declaration, b"encoding")? + b"encoding".len();
    // "While the byte at encodingPosition is less than or equal to 0x20 (i.e., it is either an
    // ASCII space or control character), advance encodingPosition to the next byte."
    while *declaration.get(position)? <= 0x20 {
        position += 1;
    }
    // "If the byte at encodingPosition is not 0x3D (=), then return failure."
    if *declaration.get(position)? != b'=' {
        return None;
    }
    // "Advance encodingPosition to the next byte."
    position += 1;
    // "While the byte at encodingPosition is less than or equal to 0x20 ..., advance
    // encodingPosition to the next byte."
    while *declaration.get(position)? <= 0x20 {
        position += 1;
    }
    // "Let quoteMark be the byte at encodingPosition." "If quoteMark is not either 0x22 (") or
    // 0x27 ('), then return failure."
    let quote_mark = *declaration.get(position)?;
    if quote_mark != b'"' && quote_mark != b'\'' {
        return None;
    }
    // "Advance encodingPosition to the next byte."
    position += 1;
    // "Let encodingEndPosition be the position of the next occurrence of quoteMark at or after
    // encodingPosition. If quoteMark does not occur again, then return failure."
    let value = declaration.get(position..)?;
    let end = memchr::memchr(quote_mark, value)?;
    // "Let potentialEncoding be the sequence of the bytes between encodingPosition (inclusive)
    // and encodingEndPosition (exclusive)."
    let potential_encoding = value.get(..end)?;
    // "If potentialEncoding contains one or more bytes whose byte value is 0x20 or below, then
    // return failure."
    if potential_encoding.iter().any(|&b| b <= 0x20) {
        return None;
    }
    // "Let encoding be the result of getting an encoding given potentialEncoding isomorphic
    // decoded."
    let encoding = Encoding::for_label(potential_encoding)?;
    // "If the encoding is UTF-16BE/LE, then change it to UTF-8." "Return encoding."
    Some(if is_utf16(encoding) {
        encoding_rs::UTF_8
    } else {
        encoding
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(bytes: &[u8]) -> Option<&'static str> {
        prescan(bytes).map(Encoding::name)
    }

    #[test]
    fn meta_charset_variants() {
        assert_eq!(scan(b"<meta charset=koi8-r>"), Some("KOI8-R"));
        assert_eq!(scan(b"<meta charset='koi8-r'>"), Some("KOI8-R"));
        assert_eq!(scan(b"<meta charset=\"koi8-r\">"), Some("KOI8-R"));
        assert_eq!(scan(b"<META CHARSET=KOI8-R>"), Some("KOI8-R"));
        assert_eq!(scan(b"<meta/charset=koi8-r>"), Some("KOI8-R"));
        assert_eq!(scan(b"<meta\tcharset = \"koi8-r\" />"), Some("KOI8-R"));
        assert_eq!(scan(b"<meta charset=koi8-r/>"), None); // the value is "koi8-r/"
        assert_eq!(scan(b"<meta charset=\" koi8-r \">"), Some("KOI8-R"));
        assert_eq!(scan(b"<meta name=x charset=koi8-r>"), Some("KOI8-R"));
    }

    #[test]
    fn meta_content_variants() {
        let ok = Some("ISO-8859-2");
        assert_eq!(
            scan(b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso8859-2\">"),
            ok
        );
        assert_eq!(
            scan(b"<meta content='text/html; charset=iso8859-2' http-equiv='content-type'>"),
            ok
        );
        assert_eq!(
            scan(b"<meta http-equiv=content-type content=text/html;charset=iso8859-2>"),
            ok
        );
        assert_eq!(
            scan(b"<meta http-equiv=Content-Type content=\"text/html; charset='iso8859-2'\">"),
            ok
        );
        // No pragma, or the wrong one.
        assert_eq!(
            scan(b"<meta content=\"text/html; charset=iso8859-2\">"),
            None
        );
        assert_eq!(
            scan(b"<meta http-equiv=refresh content=\"text/html; charset=iso8859-2\">"),
            None
        );
    }

    #[test]
    fn charset_wins_over_content_in_one_meta() {
        assert_eq!(
            scan(b"<meta http-equiv=content-type content='charset=gbk' charset=big5>"),
            Some("Big5")
        );
        assert_eq!(
            scan(b"<meta charset=big5 http-equiv=content-type content='charset=gbk'>"),
            Some("Big5")
        );
        // An unknown charset is failure, not null: the content attribute does not replace it.
        assert_eq!(
            scan(b"<meta charset=bogus http-equiv=content-type content='charset=gbk'>"),
            None
        );
        // A failing charset attribute after a content one makes the whole <meta> fail.
        assert_eq!(
            scan(b"<meta http-equiv=content-type content='charset=gbk' charset=bogus>"),
            None
        );
    }

    #[test]
    fn repeated_attributes_are_ignored() {
        assert_eq!(scan(b"<meta charset=gbk charset=big5>"), Some("GBK"));
        assert_eq!(scan(b"<meta charset=bogus charset=big5>"), None);
        assert_eq!(
            scan(b"<meta http-equiv=x http-equiv=content-type content='charset=gbk'>"),
            None
        );
    }

    #[test]
    fn comments_and_other_markup_are_skipped() {
        assert_eq!(
            scan(b"<!-- <meta charset=gbk> --><meta charset=big5>"),
            Some("Big5")
        );
        assert_eq!(scan(b"<!--><meta charset=gbk>"), Some("GBK"));
        assert_eq!(scan(b"<!---><meta charset=gbk>-->"), Some("GBK"));
        assert_eq!(scan(b"<!-- <meta charset=gbk>"), None);
        assert_eq!(
            scan(b"<!doctype html <meta charset=gbk>><meta charset=big5>"),
            Some("Big5")
        );
        assert_eq!(
            scan(b"<? <meta charset=gbk>><meta charset=big5>"),
            Some("Big5")
        );
        assert_eq!(
            scan(b"</ <meta charset=gbk>><meta charset=big5>"),
            Some("Big5")
        );
        assert_eq!(
            scan(b"<p title='<meta charset=gbk>'><meta charset=big5>"),
            Some("Big5")
        );
        assert_eq!(
            scan(b"</p title='<meta charset=gbk>'><meta charset=big5>"),
            Some("Big5")
        );
        assert_eq!(scan(b"<metacharset=gbk><meta charset=big5>"), Some("Big5"));
        assert_eq!(scan(b"<p>x < 3 <meta charset=big5>"), Some("Big5"));
    }

    #[test]
    fn tags_in_text_content_are_seen() {
        // The prescan knows nothing of <script> or <textarea>.
        assert_eq!(scan(b"<script>'<meta charset=gbk>'</script>"), Some("GBK"));
        assert_eq!(
            scan(b"<textarea><meta charset=gbk></textarea>"),
            Some("GBK")
        );
    }

    #[test]
    fn utf16_and_x_user_defined_are_adjusted() {
        for label in ["utf-16", "UTF-16LE", "utf-16be", "unicodefffe"] {
            let page = format!("<meta charset={label}>");
            assert_eq!(scan(page.as_bytes()), Some("UTF-8"), "{label}");
        }
        assert_eq!(scan(b"<meta charset=x-user-defined>"), Some("windows-1252"));
        assert_eq!(
            scan(b"<meta http-equiv=content-type content='text/html; charset=utf-16be'>"),
            Some("UTF-8")
        );
    }

    #[test]
    fn unknown_labels_are_skipped() {
        assert_eq!(scan(b"<meta charset=bogus><meta charset=gbk>"), Some("GBK"));
        assert_eq!(scan(b"<meta charset=utf-7>"), None);
        assert_eq!(scan(b"<meta charset=''>"), None);
    }

    #[test]
    fn the_replacement_encoding_is_returned() {
        assert_eq!(scan(b"<meta charset=iso-2022-kr>"), Some("replacement"));
    }

    #[test]
    fn running_out_of_bytes_aborts() {
        assert_eq!(scan(b""), None);
        assert_eq!(scan(b"<meta"), None);
        assert_eq!(scan(b"<meta charset=gbk"), None);
        assert_eq!(scan(b"<meta charset='gbk'"), None);
        assert_eq!(scan(b"<meta charset='gbk"), None);
        assert_eq!(scan(b"<p class=x <meta charset=gbk>"), None); // all one tag's attributes
        assert_eq!(scan(b"<!doctype html"), None);
    }

    #[test]
    fn the_1024_byte_limit() {
        let meta = b"<meta charset=gbk>";
        // The declaration ends at the last byte the prescan looks at.
        let mut page = vec![b' '; PRESCAN_LIMIT - meta.len()];
        page.extend_from_slice(meta);
        assert_eq!(page.len(), PRESCAN_LIMIT);
        assert_eq!(scan(&page), Some("GBK"));
        // One more byte in front and its '>' is byte 1025: not seen.
        page.insert(0, b' ');
        assert_eq!(scan(&page), None);
        // Well after the limit.
        let mut page = vec![b'x'; 4096];
        page.extend_from_slice(meta);
        assert_eq!(scan(&page), None);
        // A comment running past the limit hides what follows it.
        let mut page = b"<!--".to_vec();
        page.extend_from_slice(&[b'x'; 2000]);
        page.extend_from_slice(b"--><meta charset=gbk>");
        assert_eq!(scan(&page), None);
    }

    #[test]
    fn utf16_xml_declarations() {
        assert_eq!(scan(b"<\0?\0x\0m\0l\0"), Some("UTF-16LE"));
        assert_eq!(scan(b"\0<\0?\0x\0m\0l"), Some("UTF-16BE"));
        assert_eq!(scan(b"<\0?\0X\0"), None); // case-sensitive
    }

    #[test]
    fn xml_declarations() {
        assert_eq!(
            scan(b"<?xml version=\"1.0\" encoding=\"gbk\"?>"),
            Some("GBK")
        );
        assert_eq!(scan(b"<?xml encoding = 'gbk' ?><html>"), Some("GBK"));
        assert_eq!(scan(b"<?xml encoding=\"utf-16\"?>"), Some("UTF-8"));
        // x-user-defined is not adjusted on this path (the specification lists only UTF-16).
        assert_eq!(
            scan(b"<?xml encoding=\"x-user-defined\"?>"),
            Some("x-user-defined")
        );
        // A <meta> wins: get an XML encoding runs only when the prescan finds nothing.
        assert_eq!(
            scan(b"<?xml encoding='gbk'?><meta charset=big5>"),
            Some("Big5")
        );
        assert_eq!(
            scan(b"<?xml encoding='gbk'?><meta charset=bogus>"),
            Some("GBK")
        );
        assert_eq!(scan(b" <?xml encoding='gbk'?>"), None);
        assert_eq!(scan(b"<?XML encoding='gbk'?>"), None);
        assert_eq!(scan(b"<?xml encoding='gbk'"), None);
        assert_eq!(scan(b"<?xml encoding=gbk?>"), None);
        assert_eq!(scan(b"<?xml encoding='gbk ?>"), None);
        assert_eq!(scan(b"<?xml encoding=' gbk'?>"), None);
        // whatwg/html#6939: `encoding` must be inside the declaration.
        assert_eq!(scan(b"<?xml /> encoding=\"windows-1250\""), None);
    }

    #[test]
    fn adversarial_bytes_do_not_panic() {
        let pieces: [&[u8]; 12] = [
            b"<", b"<meta ", b"<!--", b"-->", b"'", b"\"", b"=", b">", b"/", b"charset", b" ",
            b"\xff",
        ];
        // Every sequence of three pieces, at every prefix length.
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let page = [a, b, c].concat();
                    for end in 0..=page.len() {
                        let _ = prescan(&page[..end]);
                    }
                }
            }
        }
    }
}
