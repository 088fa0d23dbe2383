//! The encoding sniffing algorithm (13.2.3.2 "Determining the character encoding").

use encoding_rs::Encoding;

use super::{Confidence, EncodingError, EncodingOption, bom_sniff, prescan};

/// An encoding given to [`SniffOptions`]: a label, checked by [`sniff`], or an [`Encoding`].
///
/// Both convert with `From`, so the option setters take either:
/// `options.transport("shift_jis")` or `options.transport(encoding_rs::SHIFT_JIS)`. Passing an
/// [`Encoding`] is the way to give the *replacement* encoding, whose name is not a label.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EncodingChoice<'a> {
    /// An Encoding Standard label such as `"utf-8"`, `"latin1"` or `"sjis"` (ASCII case and
    /// surrounding whitespace are ignored). An unknown one makes [`sniff`] fail.
    Label(&'a str),
    /// An encoding.
    Encoding(&'static Encoding),
}

impl<'a> From<&'a str> for EncodingChoice<'a> {
    fn from(label: &'a str) -> Self {
        EncodingChoice::Label(label)
    }
}

impl From<&'static Encoding> for EncodingChoice<'_> {
    fn from(encoding: &'static Encoding) -> Self {
        EncodingChoice::Encoding(encoding)
    }
}

impl EncodingChoice<'_> {
    /// The encoding, or the error naming `option` for an unknown label.
    pub(crate) fn resolve(
        self,
        option: EncodingOption,
    ) -> Result<&'static Encoding, EncodingError> {
        match self {
            EncodingChoice::Encoding(encoding) => Ok(encoding),
            EncodingChoice::Label(label) => {
                Encoding::for_label(label.as_bytes()).ok_or_else(|| EncodingError::UnknownLabel {
                    label: label.to_owned(),
                    option,
                })
            }
        }
    }
}

/// The out-of-band information [`sniff`] uses besides the bytes. The default has none of it
/// (no override, no transport-layer encoding, windows-1252 as the default) and
/// [`detect`](SniffOptions::detect)s the encoding of input that declares none: valid UTF-8 is
/// UTF-8. [`SniffOptions::browser`] turns detection off, as browsers do.
///
/// ```
/// use html_arena::encoding::SniffOptions;
///
/// let options = SniffOptions::new()
///     .transport("iso-8859-15")
///     .fallback(html_arena::encoding::default_encoding_for_locale("pl"));
/// ```
#[derive(Copy, Clone, Debug)]
#[non_exhaustive]
pub struct SniffOptions<'a> {
    /// An encoding the user chose for the document (step 2): it wins over everything except a
    /// BOM, with the confidence certain.
    pub user_override: Option<EncodingChoice<'a>>,
    /// The transport layer's encoding (step 4), e.g. the `charset` of the HTTP `Content-Type`
    /// header (see [`encoding_from_content_type`](super::encoding_from_content_type)): it wins
    /// over the page's `<meta>`, with the confidence certain.
    pub transport: Option<EncodingChoice<'a>>,
    /// The encoding to use when nothing declares one (step 9; windows-1252 if `None`). See
    /// [`default_encoding_for_locale`](super::default_encoding_for_locale) for the
    /// specification's suggestions; UTF-8 suits content known to be recent.
    pub fallback: Option<EncodingChoice<'a>>,
    /// Autodetect the encoding when nothing declares one (step 8), before falling back. On by
    /// default. Input that is valid UTF-8 (and not all ASCII) is UTF-8; other input gets the
    /// guess of [`chardetng`](https://docs.rs/chardetng) (what Firefox uses; with the default
    /// `detect` cargo feature, else the fallback); all-ASCII input gets the fallback, since
    /// there is nothing to go on (and every ASCII-compatible encoding reads it the same).
    /// ISO-2022-JP is never guessed. Off, the result is what a browser chooses: the
    /// fallback, never a guess of UTF-8.
    pub detect: bool,
}

impl Default for SniffOptions<'_> {
    fn default() -> Self {
        SniffOptions {
            user_override: None,
            transport: None,
            fallback: None,
            detect: true,
        }
    }
}

impl<'a> SniffOptions<'a> {
    /// The default options: nothing but the bytes, detection on, windows-1252 as the default.
    pub fn new() -> Self {
        SniffOptions::default()
    }

    /// The options with which [`sniff`] chooses what a browser chooses for a web page: no
    /// detection (undeclared input gets the [`fallback`](SniffOptions::fallback), windows-1252
    /// unless set, even when it is valid UTF-8).
    ///
    /// ```
    /// use html_arena::encoding::{sniff, SniffOptions};
    ///
    /// let page = "<p>caf\u{e9}".as_bytes();
    /// assert_eq!(sniff(page, &SniffOptions::new())?.encoding, encoding_rs::UTF_8);
    /// assert_eq!(sniff(page, &SniffOptions::browser())?.encoding, encoding_rs::WINDOWS_1252);
    /// # Ok::<(), html_arena::encoding::EncodingError>(())
    /// ```
    pub fn browser() -> Self {
        SniffOptions::default().detect(false)
    }

    /// Sets [`user_override`](SniffOptions::user_override).
    pub fn user_override(mut self, encoding: impl Into<EncodingChoice<'a>>) -> Self {
        self.user_override = Some(encoding.into());
        self
    }

    /// Sets [`transport`](SniffOptions::transport).
    pub fn transport(mut self, encoding: impl Into<EncodingChoice<'a>>) -> Self {
        self.transport = Some(encoding.into());
        self
    }

    /// Sets [`fallback`](SniffOptions::fallback).
    pub fn fallback(mut self, encoding: impl Into<EncodingChoice<'a>>) -> Self {
        self.fallback = Some(encoding.into());
        self
    }

    /// Sets [`detect`](SniffOptions::detect).
    pub fn detect(mut self, detect: bool) -> Self {
        self.detect = detect;
        self
    }
}

/// Which step of the sniffing algorithm decided the encoding.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum EncodingSource {
    /// A byte order mark (step 1).
    Bom,
    /// [`SniffOptions::user_override`] (step 2).
    UserOverride,
    /// [`SniffOptions::transport`] (step 4).
    Transport,
    /// The [`prescan`](super::prescan) (step 5): a `<meta>` or an XML declaration.
    Prescan,
    /// Autodetection (step 8, [`SniffOptions::detect`]): the input is valid UTF-8, or the
    /// frequency-based guess.
    Detection,
    /// The default (step 9): [`SniffOptions::fallback`] or windows-1252.
    Default,
}

/// The result of [`sniff`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct Sniffed {
    /// The encoding to decode with.
    pub encoding: &'static Encoding,
    /// The confidence in it: [`Certain`](Confidence::Certain) for a BOM, an override or a
    /// transport-layer encoding, else [`Tentative`](Confidence::Tentative).
    pub confidence: Confidence,
    /// The length of the BOM to skip before decoding (0, 2 or 3).
    pub bom_len: usize,
    /// The step that decided.
    pub source: EncodingSource,
}

/// The [encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm):
/// the encoding to decode `bytes` with, and the confidence in it.
///
/// In order, the first that gives an encoding wins:
///
/// - step 1, a byte order mark ([`bom_sniff`](super::bom_sniff)): certain, and
///   [`bom_len`](Sniffed::bom_len) says how many bytes to skip;
/// - step 2, [`SniffOptions::user_override`]: certain;
/// - step 4, [`SniffOptions::transport`]: certain;
/// - step 5, the [`prescan`](super::prescan) of the first
///   [`PRESCAN_LIMIT`](super::PRESCAN_LIMIT) bytes: tentative;
/// - step 8, with the [`detect`](SniffOptions::detect) option (on by default), UTF-8 if all
///   of `bytes` is valid UTF-8 (and not all ASCII), else a frequency-based guess over all of
///   `bytes`: tentative;
/// - step 9, [`SniffOptions::fallback`], else windows-1252: tentative.
///
/// (Steps 3, 6 and 7 are about waiting for bytes, parent browsing contexts and history; a
/// parser of bytes in hand has none of them.) Give the whole input, or at least its first
/// [`PRESCAN_LIMIT`](super::PRESCAN_LIMIT) bytes when streaming. With a tentative result, a
/// `<meta>` found later by the tree builder may still change the encoding (see
/// [`change_the_encoding`](super::change_the_encoding)).
///
/// # Errors
///
/// [`EncodingError::UnknownLabel`] if a label in `options` is not an Encoding Standard label,
/// whatever the bytes hold. Unknown labels inside the page are ignored, never errors.
///
/// # Example
///
/// ```
/// use html_arena::encoding::{sniff, Confidence, EncodingSource, SniffOptions};
///
/// let sniffed = sniff(b"\xEF\xBB\xBF<meta charset=gbk>", &SniffOptions::new())?;
/// assert_eq!(sniffed.encoding, encoding_rs::UTF_8);
/// assert_eq!((sniffed.confidence, sniffed.bom_len), (Confidence::Certain, 3));
///
/// // Nothing declared: valid UTF-8 is UTF-8, other bytes get a guess, ASCII the default.
/// let sniffed = sniff("<p>café".as_bytes(), &SniffOptions::new())?;
/// assert_eq!(sniffed.encoding, encoding_rs::UTF_8);
/// assert_eq!((sniffed.confidence, sniffed.source), (Confidence::Tentative, EncodingSource::Detection));
/// let sniffed = sniff(b"<p>caf\xe9", &SniffOptions::new())?;
/// assert_eq!(sniffed.encoding, encoding_rs::WINDOWS_1252);
/// assert_eq!(sniff(b"<p>cafe", &SniffOptions::new())?.source, EncodingSource::Default);
///
/// // What a browser chooses: the default, even for valid UTF-8.
/// let sniffed = sniff("<p>café".as_bytes(), &SniffOptions::browser())?;
/// assert_eq!(sniffed.encoding, encoding_rs::WINDOWS_1252);
/// assert_eq!(sniffed.source, EncodingSource::Default);
///
/// let options = SniffOptions::new().fallback("utf-8");
/// assert_eq!(sniff(b"<p>caf\xc3\xa9", &options)?.encoding, encoding_rs::UTF_8);
/// # Ok::<(), html_arena::encoding::EncodingError>(())
/// ```
pub fn sniff(bytes: &[u8], options: &SniffOptions<'_>) -> Result<Sniffed, EncodingError> {
    // Every label in the options is checked first, so an error never depends on the bytes.
    let user_override = options
        .user_override
        .map(|e| e.resolve(EncodingOption::UserOverride))
        .transpose()?;
    let transport = options
        .transport
        .map(|e| e.resolve(EncodingOption::Transport))
        .transpose()?;
    let fallback = options
        .fallback
        .map(|e| e.resolve(EncodingOption::Fallback))
        .transpose()?;
    let detect = options.detect;
    Ok(sniff_resolved(
        bytes,
        user_override,
        transport,
        fallback,
        detect,
    ))
}

/// [`sniff`] with the options' encodings already resolved (so it cannot fail).
pub(crate) fn sniff_resolved(
    bytes: &[u8],
    user_override: Option<&'static Encoding>,
    transport: Option<&'static Encoding>,
    fallback: Option<&'static Encoding>,
    detect: bool,
) -> Sniffed {
    let sniffed = |encoding, confidence, source| Sniffed {
        encoding,
        confidence,
        bom_len: 0,
        source,
    };

    // "If the result of BOM sniffing is an encoding, return that encoding with confidence
    // certain."
    if let Some((encoding, bom_len)) = bom_sniff(bytes) {
        let confidence = Confidence::Certain;
        return Sniffed {
            encoding,
            confidence,
            bom_len,
            source: EncodingSource::Bom,
        };
    }
    // "If the user has explicitly instructed the user agent to override the document's
    // character encoding with a specific encoding, optionally return that encoding with the
    // confidence certain."
    if let Some(encoding) = user_override {
        return sniffed(encoding, Confidence::Certain, EncodingSource::UserOverride);
    }
    // "If the transport layer specifies a character encoding, and it is supported, return that
    // encoding with the confidence certain."
    if let Some(encoding) = transport {
        return sniffed(encoding, Confidence::Certain, EncodingSource::Transport);
    }
    // "Optionally, prescan the byte stream to determine its encoding ... If it returns a
    // character encoding, then return the same encoding, with confidence tentative."
    if let Some(encoding) = prescan(bytes) {
        return sniffed(encoding, Confidence::Tentative, EncodingSource::Prescan);
    }
    // "The user agent may attempt to autodetect the character encoding from applying frequency
    // analysis or other algorithms to the data stream. ... If autodetection succeeds in
    // determining a character encoding, and that encoding is a supported encoding, then return
    // that encoding, with the confidence tentative."
    if detect {
        if let Some(encoding) = guess(bytes) {
            return sniffed(encoding, Confidence::Tentative, EncodingSource::Detection);
        }
    }
    // "Otherwise, return an implementation-defined or user-specified default character
    // encoding, with the confidence tentative."
    let encoding = fallback.unwrap_or(encoding_rs::WINDOWS_1252);
    sniffed(encoding, Confidence::Tentative, EncodingSource::Default)
}

/// Step 8, autodetection: UTF-8 for valid UTF-8 that is not all ASCII, else (with the
/// `detect` cargo feature) the guess of `chardetng`, else `None`. All-ASCII input gives `None`:
/// there is no evidence, and every ASCII-compatible encoding reads it the same.
///
/// Browsers deliberately never guess UTF-8 for web pages (so that authors declare it); a
/// scraper wants the text the author wrote, and a page that is valid UTF-8 past its ASCII is
/// UTF-8 with overwhelming likelihood (legacy single-byte text almost never forms valid
/// multi-byte sequences).
fn guess(bytes: &[u8]) -> Option<&'static Encoding> {
    if bytes.is_ascii() {
        return None;
    }
    if std::str::from_utf8(bytes).is_ok() {
        return Some(encoding_rs::UTF_8);
    }
    guess_legacy(bytes)
}

/// The frequency-based guess of `chardetng` for input that is not UTF-8.
#[cfg(feature = "detect")]
fn guess_legacy(bytes: &[u8]) -> Option<&'static Encoding> {
    use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};

    // ISO-2022-JP is denied, as chardetng advises for content that may run scripts.
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    let saw_non_ascii = detector.feed(bytes, true);
    // The top-level domain is unknown (`None` is the generic `com`). The input is not valid
    // UTF-8, so UTF-8 is no candidate.
    saw_non_ascii.then(|| detector.guess(None, Utf8Detection::Deny))
}

/// Without the `detect` cargo feature there is no frequency-based guess.
#[cfg(not(feature = "detect"))]
fn guess_legacy(_bytes: &[u8]) -> Option<&'static Encoding> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniff_default(bytes: &[u8]) -> Sniffed {
        sniff(bytes, &SniffOptions::new()).expect("no labels to check")
    }

    #[test]
    fn boms_are_certain_and_skipped() {
        let s = sniff_default(b"\xEF\xBB\xBF<p>");
        assert_eq!(
            (s.encoding, s.confidence, s.bom_len),
            (encoding_rs::UTF_8, Confidence::Certain, 3)
        );
        let s = sniff_default(b"\xFF\xFE<\0p\0>\0");
        assert_eq!(
            (s.encoding, s.confidence, s.bom_len),
            (encoding_rs::UTF_16LE, Confidence::Certain, 2)
        );
        let s = sniff_default(b"\xFE\xFF\0<\0p\0>");
        assert_eq!(
            (s.encoding, s.confidence, s.bom_len),
            (encoding_rs::UTF_16BE, Confidence::Certain, 2)
        );
        assert_eq!(s.source, EncodingSource::Bom);
        // The BOM wins over everything in the options.
        let options = SniffOptions::new().user_override("gbk").transport("big5");
        let s = sniff(b"\xEF\xBB\xBF<meta charset=koi8-r>", &options).unwrap();
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::UTF_8, EncodingSource::Bom)
        );
    }

    #[test]
    fn the_order_of_the_steps() {
        let page = b"<meta charset=koi8-r>";
        let all = SniffOptions::new()
            .user_override("gbk")
            .transport("big5")
            .fallback("euc-kr");
        let s = sniff(page, &all).unwrap();
        assert_eq!(
            (s.encoding, s.confidence, s.source),
            (
                encoding_rs::GBK,
                Confidence::Certain,
                EncodingSource::UserOverride
            )
        );
        let s = sniff(
            page,
            &SniffOptions {
                user_override: None,
                ..all
            },
        )
        .unwrap();
        assert_eq!(
            (s.encoding, s.confidence, s.source),
            (
                encoding_rs::BIG5,
                Confidence::Certain,
                EncodingSource::Transport
            )
        );
        let s = sniff(page, &SniffOptions::new().fallback("euc-kr")).unwrap();
        assert_eq!(
            (s.encoding, s.confidence, s.source),
            (
                encoding_rs::KOI8_R,
                Confidence::Tentative,
                EncodingSource::Prescan
            )
        );
        let s = sniff(b"<p>", &SniffOptions::new().fallback("euc-kr")).unwrap();
        assert_eq!(
            (s.encoding, s.confidence, s.source),
            (
                encoding_rs::EUC_KR,
                Confidence::Tentative,
                EncodingSource::Default
            )
        );
        let s = sniff_default(b"<p>");
        assert_eq!((s.encoding, s.bom_len), (encoding_rs::WINDOWS_1252, 0));
    }

    #[test]
    fn transport_encodings_are_not_adjusted() {
        let s = sniff(b"<p>", &SniffOptions::new().transport("utf-16")).unwrap();
        assert_eq!(s.encoding, encoding_rs::UTF_16LE);
        let s = sniff(b"<p>", &SniffOptions::new().transport("x-user-defined")).unwrap();
        assert_eq!(s.encoding, encoding_rs::X_USER_DEFINED);
        let s = sniff(
            b"<p>",
            &SniffOptions::new().transport(encoding_rs::REPLACEMENT),
        )
        .unwrap();
        assert_eq!(s.encoding, encoding_rs::REPLACEMENT);
        let s = sniff(b"<p>", &SniffOptions::new().transport(" CSISO2022KR ")).unwrap();
        assert_eq!(s.encoding, encoding_rs::REPLACEMENT);
    }

    #[test]
    fn unknown_labels_in_options_are_errors() {
        for (options, option) in [
            (
                SniffOptions::new().user_override("bogus"),
                EncodingOption::UserOverride,
            ),
            (
                SniffOptions::new().transport("bogus"),
                EncodingOption::Transport,
            ),
            (
                SniffOptions::new().fallback("bogus"),
                EncodingOption::Fallback,
            ),
        ] {
            // Even when a BOM would have decided.
            let err = sniff(b"\xEF\xBB\xBF", &options).unwrap_err();
            assert_eq!(
                err,
                EncodingError::UnknownLabel {
                    label: "bogus".into(),
                    option
                }
            );
            assert!(err.to_string().contains("\"bogus\""), "{err}");
        }
        let err = sniff(b"", &SniffOptions::new().fallback("utf-7")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown encoding label \"utf-7\" given as the fallback encoding"
        );
        let err: Box<dyn std::error::Error> = Box::new(err);
        assert!(err.source().is_none());
    }

    #[test]
    fn unknown_labels_in_the_page_are_ignored() {
        let s = sniff_default(b"<meta charset=bogus><p>");
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::WINDOWS_1252, EncodingSource::Default)
        );
        let s = sniff_default(b"<meta charset=bogus><meta charset=gbk>");
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::GBK, EncodingSource::Prescan)
        );
    }

    #[test]
    fn meta_in_a_comment_is_ignored() {
        let s = sniff_default(b"<!-- <meta charset=gbk> --><p>");
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::WINDOWS_1252, EncodingSource::Default)
        );
    }

    #[test]
    fn charset_and_content_variants() {
        for page in [
            &b"<meta charset='koi8-r'>"[..],
            b"<meta charset=\"koi8-r\">",
            b"<meta charset=koi8-r>",
            b"<meta http-equiv='content-type' content=\"text/html; charset=koi8-r\">",
            b"<meta content='text/html; charset=\"koi8-r\"' http-equiv=Content-Type>",
            b"<meta http-equiv=Content-Type content=text/html;charset=koi8-r>",
        ] {
            let s = sniff_default(page);
            assert_eq!(
                s.encoding,
                encoding_rs::KOI8_R,
                "{}",
                String::from_utf8_lossy(page)
            );
            assert_eq!(s.confidence, Confidence::Tentative);
        }
    }

    #[test]
    fn charset_after_1024_bytes_is_not_seen() {
        let mut page = b"<!doctype html><title>".to_vec();
        page.resize(1100, b'x');
        page.extend_from_slice(b"</title><meta charset=koi8-r>");
        let s = sniff_default(&page);
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::WINDOWS_1252, EncodingSource::Default)
        );
    }

    #[test]
    fn utf16_and_x_user_defined_in_meta() {
        let s = sniff_default(b"<meta charset=utf-16le>");
        assert_eq!(s.encoding, encoding_rs::UTF_8);
        let s = sniff_default(b"<meta http-equiv=content-type content='charset=x-user-defined'>");
        assert_eq!(s.encoding, encoding_rs::WINDOWS_1252);
        assert_eq!(s.source, EncodingSource::Prescan);
    }

    #[test]
    fn the_windows_1256_bench_page() {
        let page = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/bench-corpus/gumbo-parser-001.html"
        ))
        .expect("the bench corpus is vendored");
        let s = sniff_default(&page);
        assert_eq!(s.encoding, encoding_rs::WINDOWS_1256);
        assert_eq!(
            (s.confidence, s.source),
            (Confidence::Tentative, EncodingSource::Prescan)
        );
        // And it decodes to Arabic: "الصحف و الجرائد" ("newspapers and journals") is in its
        // <meta name=fb_title>.
        let (text, had_errors) = s.encoding.decode_without_bom_handling(&page[s.bom_len..]);
        assert!(!had_errors);
        assert!(text.contains("الصحف و الجرائد"));
    }

    #[test]
    fn valid_utf8_is_utf8_by_default() {
        let page = "<p>Grüße, café – naïve</p>".as_bytes();
        let s = sniff_default(page);
        assert_eq!(
            (s.encoding, s.confidence, s.source),
            (
                encoding_rs::UTF_8,
                Confidence::Tentative,
                EncodingSource::Detection
            )
        );
        // Before the fallback, which detection precedes (step 8 before step 9).
        let s = sniff(page, &SniffOptions::new().fallback("koi8-r")).unwrap();
        assert_eq!(s.encoding, encoding_rs::UTF_8);
        // The browser's choice: the default, even for valid UTF-8.
        for options in [SniffOptions::browser(), SniffOptions::new().detect(false)] {
            let s = sniff(page, &options).unwrap();
            assert_eq!(
                (s.encoding, s.confidence, s.source),
                (
                    encoding_rs::WINDOWS_1252,
                    Confidence::Tentative,
                    EncodingSource::Default
                )
            );
        }
        let s = sniff(page, &SniffOptions::browser().fallback("koi8-r")).unwrap();
        assert_eq!(s.encoding, encoding_rs::KOI8_R);
        // All ASCII: no evidence, the default.
        let s = sniff_default(b"<p>hello</p>");
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::WINDOWS_1252, EncodingSource::Default)
        );
        // One invalid sequence and it is not UTF-8.
        let mut broken = page.to_vec();
        broken.extend_from_slice(b"\xff");
        assert_ne!(sniff_default(&broken).encoding, encoding_rs::UTF_8);
        // A declaration wins over detection.
        let mut declared = b"<meta charset=koi8-r>".to_vec();
        declared.extend_from_slice(page);
        assert_eq!(sniff_default(&declared).encoding, encoding_rs::KOI8_R);
        // So do the options' encodings, and a BOM.
        let s = sniff(page, &SniffOptions::new().transport("gbk")).unwrap();
        assert_eq!(s.encoding, encoding_rs::GBK);
    }

    #[cfg(feature = "detect")]
    #[test]
    fn detection() {
        let big5 = "\u{9053}\u{53EF}\u{9053}\u{FF0C}\u{975E}\u{5E38}\u{9053}\u{3002}".repeat(8);
        let (bytes, _, _) = encoding_rs::BIG5.encode(&big5);
        // On by default; off in the browser's options.
        let s = sniff_default(&bytes);
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::BIG5, EncodingSource::Detection)
        );
        assert_eq!(s.confidence, Confidence::Tentative);
        let s = sniff(&bytes, &SniffOptions::browser()).unwrap();
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::WINDOWS_1252, EncodingSource::Default)
        );
        // A legacy Cyrillic page.
        let russian = "<p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p>".repeat(4);
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&russian);
        assert_eq!(sniff_default(&bytes).encoding, encoding_rs::WINDOWS_1251);
        // A declaration wins over detection.
        let mut page = b"<meta charset=koi8-r>".to_vec();
        page.extend_from_slice(&bytes);
        assert_eq!(sniff_default(&page).encoding, encoding_rs::KOI8_R);
    }
}
