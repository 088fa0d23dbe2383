//! Encoding sniffing: which character encoding turns the input bytes into text (13.2.3 "The
//! input byte stream").
//!
//! The [encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)
//! is [`sniff`]: a byte order mark, then a user override, then the transport layer's label (an
//! HTTP `Content-Type` charset), then the [`prescan`] of the first [`PRESCAN_LIMIT`] bytes for a
//! `<meta>` charset, then autodetection (on by default: valid UTF-8 is UTF-8, other bytes get
//! a frequency-based guess with the default `detect` cargo feature; [`SniffOptions::browser`]
//! turns it off, as browsers do), then a default. It returns the encoding, the [`Confidence`]
//! in it and the length of the BOM to skip.
//!
//! ```
//! use html_arena::encoding::{sniff, Confidence, SniffOptions};
//!
//! let page = b"<!doctype html><meta charset=shift_jis><title>\x93\xfa\x96\x7b</title>";
//! let sniffed = sniff(page, &SniffOptions::new())?;
//! assert_eq!(sniffed.encoding, encoding_rs::SHIFT_JIS);
//! assert_eq!(sniffed.confidence, Confidence::Tentative);
//!
//! // A charset from the HTTP header wins over the page's own <meta>.
//! let options = SniffOptions::new().transport("utf-8");
//! assert_eq!(sniff(page, &options)?.encoding, encoding_rs::UTF_8);
//! # Ok::<(), html_arena::encoding::EncodingError>(())
//! ```
//!
//! The pieces are public for callers that assemble their own pipeline:
//!
//! - [`bom_sniff`]: the Encoding Standard's "BOM sniff";
//! - [`prescan`]: "prescan a byte stream to determine its encoding", with "get an attribute" and
//!   "get an XML encoding";
//! - [`extract_encoding_from_meta_content`]: "the algorithm for extracting a character encoding
//!   from a `meta` element" (2.5.3), and [`encoding_declared_by_meta`], the tree builder's test
//!   on a `<meta>` start tag;
//! - [`charset_from_content_type`] and [`encoding_from_content_type`]: the `charset` parameter
//!   of an HTTP `Content-Type` value (MIME Sniffing's "parse a MIME type", Fetch's "extract a
//!   MIME type");
//! - [`default_encoding_for_locale`]: the suggested defaults of step 9 of the sniffing
//!   algorithm;
//! - [`change_the_encoding`] and [`can_change_on_the_fly`]: 13.2.3.4 "Changing the encoding
//!   while parsing", for a `<meta>` the tree builder meets while the confidence is tentative.
//!
//! Every function here takes arbitrary bytes or text, never panics and runs in time linear in
//! its input (the prescan looks at no more than [`PRESCAN_LIMIT`] bytes).

mod bom;
mod change;
mod content_type;
mod locale;
mod meta;
mod prescan;
mod sniff;

use std::fmt;

pub use encoding_rs::Encoding;

pub use bom::bom_sniff;
pub use change::{EncodingChange, can_change_on_the_fly, change_the_encoding};
pub use content_type::{charset_from_content_type, encoding_from_content_type};
pub use locale::default_encoding_for_locale;
pub use meta::{encoding_declared_by_meta, extract_encoding_from_meta_content};
pub use prescan::{PRESCAN_LIMIT, prescan};
pub(crate) use sniff::sniff_resolved;
pub use sniff::{EncodingChoice, EncodingSource, SniffOptions, Sniffed, sniff};

/// How sure the parser is of the encoding it decodes with (13.2.3 "The input byte stream").
///
/// The confidence decides whether a `<meta>` found while parsing may still change the
/// encoding: only a [`Tentative`](Confidence::Tentative) one can (see [`change_the_encoding`]).
///
/// ```
/// use html_arena::encoding::Confidence;
///
/// assert_eq!(Confidence::Tentative.as_str(), "tentative");
/// assert_eq!(Confidence::Certain.to_string(), "certain");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Confidence {
    /// The encoding is known for sure: a BOM, a user override, the transport layer, or the
    /// result of changing the encoding.
    Certain,
    /// The encoding is a guess (the prescan, detection or the default); a `<meta>` seen while
    /// parsing may change it.
    Tentative,
    /// No decoding happens: the input was text (`&str`) from the start. [`sniff`] never
    /// returns this.
    Irrelevant,
}

impl Confidence {
    /// The specification's word for the confidence: `"certain"`, `"tentative"` or
    /// `"irrelevant"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Certain => "certain",
            Confidence::Tentative => "tentative",
            Confidence::Irrelevant => "irrelevant",
        }
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which option of [`SniffOptions`] an [`EncodingError`] is about.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum EncodingOption {
    /// [`SniffOptions::user_override`].
    UserOverride,
    /// [`SniffOptions::transport`].
    Transport,
    /// [`SniffOptions::fallback`].
    Fallback,
}

impl EncodingOption {
    fn describe(self) -> &'static str {
        match self {
            EncodingOption::UserOverride => "user override encoding",
            EncodingOption::Transport => "transport-layer encoding",
            EncodingOption::Fallback => "fallback encoding",
        }
    }
}

/// An encoding option that cannot be used.
///
/// Only labels that the caller gives are checked: an unknown label found in the page (a
/// `<meta charset=bogus>`) is ignored, as the specification says, and never an error.
///
/// ```
/// use html_arena::encoding::{sniff, EncodingError, SniffOptions};
///
/// let err = sniff(b"<p>hi", &SniffOptions::new().transport("latin-9000")).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unknown encoding label \"latin-9000\" given as the transport-layer encoding"
/// );
/// assert!(matches!(err, EncodingError::UnknownLabel { .. }));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum EncodingError {
    /// The label is not one of the Encoding Standard's labels ("get an encoding" failed).
    UnknownLabel {
        /// The label as given.
        label: String,
        /// The option that carried it.
        option: EncodingOption,
    },
}

impl fmt::Display for EncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodingError::UnknownLabel { label, option } => write!(
                f,
                "unknown encoding label {label:?} given as the {}",
                option.describe()
            ),
        }
    }
}

impl std::error::Error for EncodingError {}

/// The Encoding Standard's [get an encoding](https://encoding.spec.whatwg.org/#concept-encoding-get):
/// the encoding a label names, after removing leading and trailing ASCII whitespace and
/// ignoring ASCII case; `None` for a label the standard does not know.
///
/// Labels such as `iso-2022-kr` give the *replacement* encoding (it decodes any input to a
/// single U+FFFD), as the standard says.
///
/// ```
/// use html_arena::encoding::get_an_encoding;
///
/// assert_eq!(get_an_encoding(" Latin1\n"), Some(encoding_rs::WINDOWS_1252));
/// assert_eq!(get_an_encoding("iso-2022-kr"), Some(encoding_rs::REPLACEMENT));
/// assert_eq!(get_an_encoding("utf-7"), None);
/// ```
pub fn get_an_encoding(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.as_bytes())
}

/// "UTF-16BE/LE": either UTF-16 encoding.
fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == encoding_rs::UTF_16BE || encoding == encoding_rs::UTF_16LE
}

/// The adjustment the prescan (steps 14 and 15 of the `<meta>` branch) and "change the
/// encoding" (steps 2 and 3) make to an encoding found in the page: UTF-16BE/LE becomes
/// UTF-8 (the page could not have been read as ASCII otherwise), x-user-defined becomes
/// windows-1252.
fn adjust_declared_encoding(encoding: &'static Encoding) -> &'static Encoding {
    if is_utf16(encoding) {
        encoding_rs::UTF_8
    } else if encoding == encoding_rs::X_USER_DEFINED {
        encoding_rs::WINDOWS_1252
    } else {
        encoding
    }
}

/// ASCII whitespace as the HTML and Infra standards define it: TAB, LF, FF, CR, SPACE.
fn is_ascii_whitespace(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}
