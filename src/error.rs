//! Parse errors: data, not `Result`s.
//!
//! The parser never fails: every input gives a tree. What the specification calls a *parse
//! error* is recorded as a [`ParseError`] with a code, a position and, for tree-construction
//! errors, the tag involved. Tokenizer and input-stream errors use the specification's codes
//! (13.2.2 "Parse errors"); tree-construction errors, which the specification leaves unnamed,
//! get descriptive codes of this crate.

use std::fmt;

macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, )*) => {
        /// A parse error code.
        ///
        /// [`ErrorCode::as_str`] gives the specification's string for tokenizer and
        /// input-stream errors (`"eof-before-tag-name"`), and this crate's string for
        /// tree-construction errors.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            /// The code's string, e.g. `"unexpected-null-character"`.
            pub fn as_str(self) -> &'static str {
                match self { $( ErrorCode::$variant => $code, )* }
            }

            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[ $( ErrorCode::$variant, )* ];

            /// The code with this string, if any.
            pub fn from_code(code: &str) -> Option<ErrorCode> {
                match code { $( $code => Some(ErrorCode::$variant), )* _ => None }
            }
        }
    };
}

error_codes! {
    // 13.2.2 Parse errors: the specification's codes.
    /// `abrupt-closing-of-empty-comment`
    AbruptClosingOfEmptyComment = "abrupt-closing-of-empty-comment",
    /// `abrupt-doctype-public-identifier`
    AbruptDoctypePublicIdentifier = "abrupt-doctype-public-identifier",
    /// `abrupt-doctype-system-identifier`
    AbruptDoctypeSystemIdentifier = "abrupt-doctype-system-identifier",
    /// `absence-of-digits-in-numeric-character-reference`
    AbsenceOfDigitsInNumericCharacterReference = "absence-of-digits-in-numeric-character-reference",
    /// `cdata-in-html-content`
    CdataInHtmlContent = "cdata-in-html-content",
    /// `character-reference-outside-unicode-range`
    CharacterReferenceOutsideUnicodeRange = "character-reference-outside-unicode-range",
    /// `control-character-in-input-stream`
    ControlCharacterInInputStream = "control-character-in-input-stream",
    /// `control-character-reference`
    ControlCharacterReference = "control-character-reference",
    /// `disallowed-processing-instruction-target`
    DisallowedProcessingInstructionTarget = "disallowed-processing-instruction-target",
    /// `duplicate-attribute`
    DuplicateAttribute = "duplicate-attribute",
    /// `end-tag-with-attributes`
    EndTagWithAttributes = "end-tag-with-attributes",
    /// `end-tag-with-trailing-solidus`
    EndTagWithTrailingSolidus = "end-tag-with-trailing-solidus",
    /// `eof-before-tag-name`
    EofBeforeTagName = "eof-before-tag-name",
    /// `eof-in-cdata`
    EofInCdata = "eof-in-cdata",
    /// `eof-in-comment`
    EofInComment = "eof-in-comment",
    /// `eof-in-doctype`
    EofInDoctype = "eof-in-doctype",
    /// `eof-in-processing-instruction`
    EofInProcessingInstruction = "eof-in-processing-instruction",
    /// `eof-in-script-html-comment-like-text`
    EofInScriptHtmlCommentLikeText = "eof-in-script-html-comment-like-text",
    /// `eof-in-tag`
    EofInTag = "eof-in-tag",
    /// `incorrectly-closed-comment`
    IncorrectlyClosedComment = "incorrectly-closed-comment",
    /// `incorrectly-opened-comment`
    IncorrectlyOpenedComment = "incorrectly-opened-comment",
    /// `invalid-character-sequence-after-doctype-name`
    InvalidCharacterSequenceAfterDoctypeName = "invalid-character-sequence-after-doctype-name",
    /// `invalid-first-character-of-processing-instruction-target`
    InvalidFirstCharacterOfProcessingInstructionTarget = "invalid-first-character-of-processing-instruction-target",
    /// `invalid-first-character-of-tag-name`
    InvalidFirstCharacterOfTagName = "invalid-first-character-of-tag-name",
    /// `invalid-processing-instruction-target`
    InvalidProcessingInstructionTarget = "invalid-processing-instruction-target",
    /// `missing-attribute-value`
    MissingAttributeValue = "missing-attribute-value",
    /// `missing-doctype-name`
    MissingDoctypeName = "missing-doctype-name",
    /// `missing-doctype-public-identifier`
    MissingDoctypePublicIdentifier = "missing-doctype-public-identifier",
    /// `missing-doctype-system-identifier`
    MissingDoctypeSystemIdentifier = "missing-doctype-system-identifier",
    /// `missing-end-tag-name`
    MissingEndTagName = "missing-end-tag-name",
    /// `missing-quote-before-doctype-public-identifier`
    MissingQuoteBeforeDoctypePublicIdentifier = "missing-quote-before-doctype-public-identifier",
    /// `missing-quote-before-doctype-system-identifier`
    MissingQuoteBeforeDoctypeSystemIdentifier = "missing-quote-before-doctype-system-identifier",
    /// `missing-semicolon-after-character-reference`
    MissingSemicolonAfterCharacterReference = "missing-semicolon-after-character-reference",
    /// `missing-whitespace-after-doctype-public-keyword`
    MissingWhitespaceAfterDoctypePublicKeyword = "missing-whitespace-after-doctype-public-keyword",
    /// `missing-whitespace-after-doctype-system-keyword`
    MissingWhitespaceAfterDoctypeSystemKeyword = "missing-whitespace-after-doctype-system-keyword",
    /// `missing-whitespace-before-doctype-name`
    MissingWhitespaceBeforeDoctypeName = "missing-whitespace-before-doctype-name",
    /// `missing-whitespace-between-attributes`
    MissingWhitespaceBetweenAttributes = "missing-whitespace-between-attributes",
    /// `missing-whitespace-between-doctype-public-and-system-identifiers`
    MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers = "missing-whitespace-between-doctype-public-and-system-identifiers",
    /// `nested-comment`
    NestedComment = "nested-comment",
    /// `noncharacter-character-reference`
    NoncharacterCharacterReference = "noncharacter-character-reference",
    /// `noncharacter-in-input-stream`
    NoncharacterInInputStream = "noncharacter-in-input-stream",
    /// `non-void-html-element-start-tag-with-trailing-solidus`
    NonVoidHtmlElementStartTagWithTrailingSolidus = "non-void-html-element-start-tag-with-trailing-solidus",
    /// `null-character-reference`
    NullCharacterReference = "null-character-reference",
    /// `surrogate-character-reference`
    SurrogateCharacterReference = "surrogate-character-reference",
    /// `surrogate-in-input-stream`
    SurrogateInInputStream = "surrogate-in-input-stream",
    /// `unexpected-character-after-doctype-system-identifier`
    UnexpectedCharacterAfterDoctypeSystemIdentifier = "unexpected-character-after-doctype-system-identifier",
    /// `unexpected-character-in-attribute-name`
    UnexpectedCharacterInAttributeName = "unexpected-character-in-attribute-name",
    /// `unexpected-character-in-unquoted-attribute-value`
    UnexpectedCharacterInUnquotedAttributeValue = "unexpected-character-in-unquoted-attribute-value",
    /// `unexpected-equals-sign-before-attribute-name`
    UnexpectedEqualsSignBeforeAttributeName = "unexpected-equals-sign-before-attribute-name",
    /// `unexpected-null-character`
    UnexpectedNullCharacter = "unexpected-null-character",
    /// `unexpected-solidus-in-tag`
    UnexpectedSolidusInTag = "unexpected-solidus-in-tag",
    /// `unknown-named-character-reference`
    UnknownNamedCharacterReference = "unknown-named-character-reference",

    // Tree construction (13.2.6): this crate's codes.
    /// A DOCTYPE that is missing or not `<!DOCTYPE html>` (it may set quirks mode).
    NonConformingDoctype = "non-conforming-doctype",
    /// The document did not start with a DOCTYPE.
    MissingDoctype = "missing-doctype",
    /// A DOCTYPE after the start of the document.
    UnexpectedDoctype = "unexpected-doctype",
    /// A start tag that is not allowed where it appears (it was ignored or handled otherwise).
    UnexpectedStartTag = "unexpected-start-tag",
    /// An end tag that is not allowed where it appears, or with no matching open element.
    UnexpectedEndTag = "unexpected-end-tag",
    /// Non-whitespace text where only whitespace is allowed (e.g. directly in a table).
    UnexpectedCharacter = "unexpected-character",
    /// A comment or processing instruction where none is allowed.
    UnexpectedComment = "unexpected-comment",
    /// An element closed while other elements inside it were still open.
    UnclosedElements = "unclosed-elements",
    /// Misnested formatting elements (the adoption agency algorithm ran).
    MisnestedFormattingElement = "misnested-formatting-element",
    /// Content that was moved out of a table ("foster parenting").
    FosterParentedContent = "foster-parented-content",
    /// The end of the input while elements were still open that need an end tag.
    EofWithUnclosedElements = "eof-with-unclosed-elements",
    /// A U+0000 NULL character in tree construction.
    UnexpectedNullCharacterInTree = "unexpected-null-character-in-tree",
    /// An `xmlns` or `xmlns:xlink` attribute on a foreign element whose value is not the
    /// element's namespace (or the XLink namespace).
    InvalidXmlnsAttribute = "invalid-xmlns-attribute",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One parse error: what and where.
///
/// `line` and `column` are 1-based. The column counts UTF-16 code units from the start of the
/// line (as browsers' developer tools and the html5lib tests do), and CR, LF and CRLF each end
/// one line. `offset` is the byte offset in the decoded input text.
///
/// Read it through the accessors ([`code`](ParseError::code), [`line`](ParseError::line),
/// [`column`](ParseError::column), [`offset`](ParseError::offset),
/// [`detail`](ParseError::detail)). The fields stay readable for existing code, but the
/// struct is `#[non_exhaustive]`: only the parser makes parse errors, and it may record more
/// about them later.
///
/// ```
/// let doc = html_arena::Document::parse("<p>\n</i>");
/// let e = &doc.errors()[1];
/// assert_eq!(e.code(), html_arena::ErrorCode::UnexpectedEndTag);
/// assert_eq!((e.line(), e.column(), e.offset()), (2, 1, 4));
/// assert_eq!(e.detail(), Some("</i>"));
/// assert_eq!(e.to_string(), "2:1: unexpected-end-tag: </i>");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ParseError {
    /// The error code.
    pub code: ErrorCode,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in UTF-16 code units.
    pub column: u32,
    /// Byte offset in the decoded input.
    pub offset: usize,
    /// For tree-construction errors, the tag name or other detail involved.
    pub detail: Option<Box<str>>,
}

impl ParseError {
    /// The error code.
    #[inline]
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The 1-based line.
    #[inline]
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The 1-based column, in UTF-16 code units.
    #[inline]
    pub fn column(&self) -> u32 {
        self.column
    }

    /// The byte offset in the decoded input.
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// For tree-construction errors, the tag name or other detail involved.
    #[inline]
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// A human-readable message, e.g. `unexpected-end-tag: </div>`.
    pub fn message(&self) -> String {
        match &self.detail {
            Some(d) => format!("{}: {}", self.code.as_str(), d),
            None => self.code.as_str().to_owned(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message())
    }
}

/// Tracks 1-based line and UTF-16 column through a text, lazily and incrementally.
///
/// Moving forward costs the distance moved; moving backward within a line recounts from the
/// start of the line, and further back from the start of the text. Errors and source positions
/// are requested in nearly increasing order, so the total cost stays linear in the input.
///
/// A CRLF pair is one line break, located at the CR: a position on its LF reports the CR.
#[derive(Clone, Debug)]
pub(crate) struct LineCol {
    offset: usize,
    line: u32,
    /// Column of `offset`, 0-based.
    col: u32,
    line_start: usize,
    /// The last CR passed: its offset, line and 0-based column.
    last_cr: Option<(usize, u32, u32)>,
}

impl Default for LineCol {
    fn default() -> Self {
        LineCol {
            offset: 0,
            line: 1,
            col: 0,
            line_start: 0,
            last_cr: None,
        }
    }
}

impl LineCol {
    /// The byte offset the tracker is at.
    pub(crate) fn offset(&self) -> usize {
        self.offset
    }

    /// The (line, column) of byte `offset` in `text`, which holds the input up to at least
    /// `offset` (`offset == text.len()` is the end of the input).
    pub(crate) fn position(&mut self, text: &str, offset: usize) -> (u32, u32) {
        self.position_in(text, 0, offset)
    }

    /// Like [`LineCol::position_in`], over the input `window` holds from stream offset `base`
    /// on followed by `rest` (a lean parse's window and the chunk being parsed).
    pub(crate) fn position_across(
        &mut self,
        (window, base, rest): (&str, usize, &str),
        offset: usize,
    ) -> (u32, u32) {
        let split = base + window.len();
        if offset < split {
            return self.position_in(window, base, offset);
        }
        if self.offset < split {
            self.position_in(window, base, split);
        }
        self.position_in(rest, split, offset)
    }

    /// Like [`LineCol::position`], for a window of the input: `window` starts at stream offset
    /// `base`. Positions before the window that the tracker has moved past cannot be
    /// recomputed; they report the tracker's current position.
    pub(crate) fn position_in(&mut self, window: &str, base: usize, offset: usize) -> (u32, u32) {
        let target = offset.min(base + window.len());
        if target < self.offset {
            if target >= self.line_start && self.line_start >= base {
                self.offset = self.line_start;
                self.col = 0;
            } else if base == 0 {
                *self = LineCol::default();
            } else {
                return (self.line, self.col + 1);
            }
        }
        if self.offset < base {
            // The text between the tracker and the window is gone; this only happens when a
            // caller skipped `advance_to`. Resynchronize without counting it.
            self.offset = base;
            self.line_start = base;
        }
        let bytes = window.as_bytes();
        if target - self.offset > 256 {
            // Many lines ended by LFs alone or by CRLF pairs (the usual cases): counted at
            // once, up to the last LF (a CRLF pair is one line break, counted at its LF).
            let rest = &bytes[self.offset - base..target - base];
            let crs_paired =
                memchr::memchr_iter(b'\r', rest).all(|p| rest.get(p + 1) == Some(&b'\n'));
            if let (true, Some(last)) = (crs_paired, memchr::memrchr(b'\n', rest)) {
                let mut lines = memchr::memchr_iter(b'\n', rest).count();
                // (An LF right after a CR the tracker passed belongs to that CR's line break.)
                if rest.first() == Some(&b'\n')
                    && self.last_cr.is_some_and(|c| c.0 + 1 == self.offset)
                {
                    lines -= 1;
                }
                self.line = self
                    .line
                    .saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
                self.col = 0;
                self.offset += last + 1;
                self.line_start = self.offset;
            }
        }
        while self.offset < target {
            let from = self.offset - base;
            let to = target - base;
            let rest = &bytes[from..to];
            match memchr::memchr2(b'\n', b'\r', rest) {
                None => {
                    self.col = self.col.saturating_add(utf16_len(&window[from..to]));
                    self.offset = target;
                }
                Some(k) => {
                    let at = self.offset + k;
                    // The column before a line break matters only at a CR (a position on the
                    // LF of its CRLF reports it); an LF's line just ends. (Between a CR and
                    // its LF there is nothing to count.)
                    if bytes[from + k] == b'\r' {
                        self.col = self.col.saturating_add(utf16_len(&window[from..from + k]));
                    }
                    let lf_of_crlf =
                        bytes[from + k] == b'\n' && self.last_cr.is_some_and(|c| c.0 + 1 == at);
                    if !lf_of_crlf {
                        if bytes[from + k] == b'\r' {
                            self.last_cr = Some((at, self.line, self.col));
                        }
                        self.line = self.line.saturating_add(1);
                        self.col = 0;
                    }
                    self.offset = at + 1;
                    self.line_start = self.offset;
                }
            }
        }
        if target >= base && bytes.get(target - base) == Some(&b'\n') {
            if let Some((cr, line, col)) = self.last_cr {
                if cr + 1 == target {
                    return (line, col + 1);
                }
            }
        }
        (self.line, self.col + 1)
    }
}

/// The number of UTF-16 code units in `s`.
#[inline]
pub(crate) fn utf16_len(s: &str) -> u32 {
    // Mostly ASCII: one unit per byte (checked a word at a time).
    if s.is_ascii() {
        return u32::try_from(s.len()).unwrap_or(u32::MAX);
    }
    // Every char takes one unit, and those above U+FFFF (4 UTF-8 bytes) take two.
    let chars = s.len() - s.bytes().filter(|&b| (b & 0xC0) == 0x80).count();
    let astral = s.bytes().filter(|&b| b >= 0xF0).count();
    u32::try_from(chars + astral).unwrap_or(u32::MAX)
}

/// A one-line copy of `source` and, on the next line, a caret under `text` found at byte
/// `offset` (`^` per character, at least one): the pointer of selector and XPath errors. White
/// space prints as spaces so that the caret lines up.
pub(crate) fn caret_pointer(source: &str, offset: usize, text: &str) -> String {
    let line: String = source
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    let before = source.get(..offset).unwrap_or("").chars().count();
    let width = text.chars().count().max(1);
    format!("{line}\n{}{}", " ".repeat(before), "^".repeat(width))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_crlf_once() {
        let text = "ab\r\ncd\ref\ng";
        let mut lc = LineCol::default();
        assert_eq!(lc.position(text, 0), (1, 1));
        assert_eq!(lc.position(text, 2), (1, 3)); // the CR
        assert_eq!(lc.position(text, 4), (2, 1)); // 'c'
        assert_eq!(lc.position(text, 7), (3, 1)); // 'e'
        assert_eq!(lc.position(text, 10), (4, 1)); // 'g'
        assert_eq!(lc.position(text, 11), (4, 2)); // EOF
        assert_eq!(lc.position(text, 5), (2, 2)); // backwards
        assert_eq!(lc.position(text, 1), (1, 2));
    }

    #[test]
    fn long_jumps_count_lines_like_short_steps() {
        // Long runs of LF-only lines and of CRLF-only lines (counted at once), lone CRs (one
        // line at a time), a CRLF split at a jump's start, astral characters.
        for crlf_only in [false, true] {
            let mut text = String::new();
            let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
            for _ in 0..6000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let piece = match seed % 100 {
                    0 => "\r\n",
                    1 => "x\r",
                    n => ["ab", "\n", "é\n", "\u{1F600}", "\n\n"][(n % 5) as usize],
                };
                if crlf_only {
                    text.push_str(&piece.replace('\r', "").replace('\n', "\r\n"));
                } else {
                    text.push_str(piece);
                }
            }
            check_jumps(&text);
        }
    }

    /// Positions every 1,500 bytes or so, and just after each CR (a jump that starts on its
    /// LF), against steps too short for the bulk count.
    fn check_jumps(text: &str) {
        let mut targets: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .step_by(1501)
            .chain([text.len()])
            .chain(text.match_indices('\r').map(|(i, _)| i + 1))
            .collect();
        targets.sort_unstable();
        let (mut jumps, mut steps) = (LineCol::default(), LineCol::default());
        let mut at = 0;
        for &target in &targets {
            // The reference: steps too short for the bulk count.
            while at + 100 < target {
                at += 100;
                while !text.is_char_boundary(at) {
                    at += 1;
                }
                steps.position(text, at);
            }
            at = target;
            assert_eq!(
                jumps.position(text, target),
                steps.position(text, target),
                "at {target}"
            );
        }
    }

    #[test]
    fn columns_count_utf16_units() {
        let text = "é\u{10000}x";
        let mut lc = LineCol::default();
        assert_eq!(lc.position(text, text.len() - 1), (1, 4));
    }

    #[test]
    fn codes_round_trip() {
        for &c in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_code(c.as_str()), Some(c));
        }
    }
}
