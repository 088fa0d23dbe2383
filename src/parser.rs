//! Parsing entry points and their options.

/// Options for parsing a document or fragment.
///
/// Fields are public; start from [`ParseOptions::default`] and set what you need:
///
/// ```
/// let mut options = html_arena::ParseOptions::default();
/// options.scripting = true;
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ParseOptions {
    /// The scripting flag (default off, like a `DOMParser` or a crawler that runs no scripts).
    /// With it on, `<noscript>` content is raw text, as in a browser with JavaScript.
    pub scripting: bool,
    /// The transport-layer encoding label (e.g. the `charset` of an HTTP `Content-Type`
    /// header), for [`Document::parse_bytes`](crate::Document). An unknown label is an error
    /// of the parse call.
    pub transport_encoding: Option<String>,
    /// The encoding to use when nothing in or around the bytes declares one (a label; default
    /// `windows-1252`).
    pub fallback_encoding: Option<String>,
    /// Keep parse errors in [`Document::errors`](crate::Document::errors) (default on).
    pub collect_errors: bool,
    /// The most parse errors kept (the count goes on: [`Document::error_count`](crate::Document::error_count)).
    pub max_errors: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            scripting: false,
            transport_encoding: None,
            fallback_encoding: None,
            collect_errors: true,
            max_errors: 10_000,
        }
    }
}

impl ParseOptions {
    /// Sets the scripting flag.
    pub fn with_scripting(mut self, scripting: bool) -> Self {
        self.scripting = scripting;
        self
    }

    /// The number of errors to keep (0 when collection is off).
    pub(crate) fn error_limit(&self) -> usize {
        if self.collect_errors { self.max_errors } else { 0 }
    }
}
