//! Parsing entry points and their options: [`Document::parse`], [`Document::parse_with`],
//! [`Document::parse_bytes`], [`Document::parse_fragment`] and the streaming [`Parser`].
//!
//! The driver is small. A [`Pipeline`] takes text: it goes into the document's source buffer,
//! then through the tokenizer, whose tokens go to the tree builder; at the end the parse errors
//! get their line and column from their byte offsets. Bytes first go through `bytes.rs`:
//! encoding sniffing, decoding, and starting over when a `<meta>` changes the encoding.

mod bytes;
mod inner_html;
mod script;

use encoding_rs::Encoding;

use crate::dom::{Document, NodeData};
use crate::encoding::{Confidence, EncodingError};
use crate::error::{ErrorCode, LineCol, ParseError};
use crate::tokenizer::{Tokenizer, TokenizerOptions};
use crate::tree_builder::{FragmentContext, FragmentContextError, TreeBuilder};

use bytes::{ByteInput, Decoding, EncodingOptions, Fed};
pub use script::{
    DEFAULT_MAX_SCRIPT_NESTING, ParserEvent, ScriptError, ScriptingParser, WriteEvent,
};

/// The fragment context string (`"td"`, `"svg path"`, `"math mi"`, what
/// [`Document::parse_fragment`] takes) of an element with namespace `ns` and local name
/// `name`; `None` outside the HTML, SVG and MathML namespaces (an XML document's element has
/// no HTML fragment context).
pub(crate) fn context_string(ns: crate::dom::names::Namespace, name: &str) -> Option<String> {
    use crate::dom::names::Namespace;
    match ns {
        Namespace::Html => Some(name.to_owned()),
        Namespace::Svg => Some(format!("svg {name}")),
        Namespace::MathMl => Some(format!("math {name}")),
        Namespace::None | Namespace::Other(_) => None,
    }
}

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
    /// header; see [`charset_from_content_type`](crate::encoding::charset_from_content_type))
    /// for byte input ([`Document::parse_bytes`], [`Parser::write`]). It wins over the page's
    /// `<meta>`, with the confidence certain. An unknown label is an error of the parse call.
    pub transport_encoding: Option<String>,
    /// The encoding to use for byte input when nothing in or around the bytes declares one and
    /// [detection](ParseOptions::detect_encoding) finds nothing (all-ASCII input, or detection
    /// off as in [`with_browser_encoding`](ParseOptions::with_browser_encoding)): a label;
    /// default `windows-1252`; see
    /// [`default_encoding_for_locale`](crate::encoding::default_encoding_for_locale). A
    /// `<meta>` found while parsing may still change it. An unknown label is an error of the
    /// parse call.
    pub fallback_encoding: Option<String>,
    /// An encoding the user chose for byte input (a label), like a browser's "Text Encoding"
    /// menu: it wins over everything but a byte order mark, with the confidence certain. An
    /// unknown label is an error of the parse call.
    pub override_encoding: Option<String>,
    /// For byte input that declares no encoding (no BOM, no option, no `<meta>` in the first
    /// 1024 bytes), detect it before falling back (step 8 of the sniffing algorithm). On by
    /// default: input that is valid UTF-8 is UTF-8; other non-ASCII input gets the guess of
    /// `chardetng` (what Firefox uses; `detect` cargo feature, on by default); all-ASCII input
    /// gets the fallback. The confidence stays tentative, so a later `<meta>` still changes
    /// the encoding. Off ([`with_browser_encoding`](ParseOptions::with_browser_encoding)),
    /// the choice is a browser's: the fallback, windows-1252 unless set, even for valid
    /// UTF-8. A streaming [`Parser`] given such input waits for its end before decoding it,
    /// since detection reads every byte (any chunking gives the same document).
    pub detect_encoding: bool,
    /// Keep parse errors in [`Document::errors`](crate::Document::errors) (default on).
    pub collect_errors: bool,
    /// The most parse errors kept (the count goes on: [`Document::error_count`](crate::Document::error_count)).
    pub max_errors: usize,
    /// The most nodes the document may have. `None` (the default) allows 1,000,000 plus 2
    /// per byte of input: real pages make one node per 20 to 40 bytes, and no input makes
    /// more than about one per byte except by the standard's amplification (formatting
    /// elements reopened after every block: a few kilobytes of them can make millions of
    /// nodes), which this stops. When the limit is hit, parsing ends there: the
    /// document keeps what was built (and, unless lean, the whole input as its source),
    /// reports no errors
    /// past that point, and [`Document::limit_hit`](crate::Document::limit_hit) says so. A
    /// [`Parser`] counts the input written so far, and stops after the token that crossed
    /// the limit, so where a streamed parse stops can depend on the chunk boundaries (the
    /// one exception to "any chunking gives the same document").
    pub max_nodes: Option<usize>,
    /// Attach elements nested deeper than this to their parent's parent, as Blink does at
    /// 512: deeply nested documents then get Chromium's tree instead of the standard's.
    /// `None` (the default) builds the standard's tree, however deep.
    pub max_depth: Option<usize>,
    /// Record where each node came from in the source (start and end tags, text, comments):
    /// see [`NodeRef::source_span`](crate::NodeRef::source_span). Off by default; it costs
    /// about 40 bytes per node.
    pub source_positions: bool,
    /// Keep the decoded input in the document ([`Document::source`](crate::Document::source)):
    /// on by default. On, text and attribute values that are verbatim input refer to it
    /// instead of being copied, and [`Document::source`](crate::Document::source) returns the
    /// input. Off, a *lean* document keeps its strings (each text, comment and attribute
    /// value, copied as the tree is built) but not the markup around them: 0.05 to 0.54 bytes
    /// per input byte less than a document that keeps its source (more where markup is
    /// dense), of what the document keeps and of the parse's peak, for a parse 0.6% to 3.7%
    /// slower in the benchmark runs so far (see `docs/BENCHMARKS.md`). Always on with
    /// [`source_positions`](ParseOptions::source_positions), whose spans point into it, for a
    /// [`ScriptingParser`](crate::ScriptingParser) and for fragments.
    pub keep_source: bool,
    /// The document's URL: the base for its relative URLs (see
    /// [`Document::base_url`](crate::Document::base_url)). `None` (the default) makes it
    /// `about:blank`.
    #[cfg(feature = "url")]
    pub url: Option<url::Url>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            scripting: false,
            transport_encoding: None,
            fallback_encoding: None,
            override_encoding: None,
            detect_encoding: true,
            collect_errors: true,
            max_errors: 10_000,
            max_nodes: None,
            max_depth: None,
            source_positions: false,
            keep_source: true,
            #[cfg(feature = "url")]
            url: None,
        }
    }
}

impl ParseOptions {
    /// Sets the scripting flag.
    pub fn with_scripting(mut self, scripting: bool) -> Self {
        self.scripting = scripting;
        self
    }

    /// Sets [`transport_encoding`](ParseOptions::transport_encoding).
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    ///
    /// let options = ParseOptions::default().with_transport_encoding("utf-8");
    /// let doc = Document::parse_bytes(b"<meta charset=gbk><p>caf\xc3\xa9", &options)?;
    /// assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    /// assert_eq!(doc.body().unwrap().text(), "café");
    /// # Ok::<(), html_arena::EncodingError>(())
    /// ```
    pub fn with_transport_encoding(mut self, label: impl Into<String>) -> Self {
        self.transport_encoding = Some(label.into());
        self
    }

    /// Sets [`fallback_encoding`](ParseOptions::fallback_encoding).
    pub fn with_fallback_encoding(mut self, label: impl Into<String>) -> Self {
        self.fallback_encoding = Some(label.into());
        self
    }

    /// Sets [`override_encoding`](ParseOptions::override_encoding).
    pub fn with_override_encoding(mut self, label: impl Into<String>) -> Self {
        self.override_encoding = Some(label.into());
        self
    }

    /// Sets [`detect_encoding`](ParseOptions::detect_encoding).
    pub fn with_detect_encoding(mut self, detect: bool) -> Self {
        self.detect_encoding = detect;
        self
    }

    /// With `true`, byte input gets the encoding a browser chooses: what the page declares,
    /// else the [`fallback_encoding`](ParseOptions::fallback_encoding) (windows-1252 unless
    /// set; see [`default_encoding_for_locale`](crate::encoding::default_encoding_for_locale)
    /// for a locale's), never a guess, not even UTF-8 for valid UTF-8. The tree is then the
    /// browser's byte for byte. With `false` (the default), undeclared input is detected: see
    /// [`detect_encoding`](ParseOptions::detect_encoding), which this sets to `!browser`.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    ///
    /// let page = "<p>Grüße – café".as_bytes(); // UTF-8, declared nowhere
    /// let doc = Document::parse_bytes(page, &ParseOptions::default())?;
    /// assert_eq!(doc.body().unwrap().text(), "Grüße – café");
    ///
    /// let browser = ParseOptions::default().with_browser_encoding(true);
    /// let doc = Document::parse_bytes(page, &browser)?;
    /// assert_eq!(doc.encoding(), encoding_rs::WINDOWS_1252);
    /// assert_eq!(doc.body().unwrap().text(), "GrÃ¼ÃŸe â€“ cafÃ©");
    /// # Ok::<(), html_arena::EncodingError>(())
    /// ```
    pub fn with_browser_encoding(mut self, browser: bool) -> Self {
        self.detect_encoding = !browser;
        self
    }

    /// Sets [`collect_errors`](ParseOptions::collect_errors): with `false`, no parse error
    /// is kept (they are still counted).
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    ///
    /// let doc = Document::parse_with("</x>", &ParseOptions::default().with_collect_errors(false));
    /// assert!(doc.errors().is_empty());
    /// assert!(doc.error_count() > 0);
    /// ```
    pub fn with_collect_errors(mut self, collect: bool) -> Self {
        self.collect_errors = collect;
        self
    }

    /// Sets [`max_errors`](ParseOptions::max_errors), the most parse errors kept.
    pub fn with_max_errors(mut self, max: usize) -> Self {
        self.max_errors = max;
        self
    }

    /// Sets [`source_positions`](ParseOptions::source_positions): record where each node
    /// came from in the source.
    pub fn with_source_positions(mut self, on: bool) -> Self {
        self.source_positions = on;
        self
    }

    /// Sets [`keep_source`](ParseOptions::keep_source): keep the decoded input in the
    /// document (the default), or build a lean document that keeps only its strings.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    ///
    /// let kept = Document::parse("<p>x");
    /// assert_eq!(kept.source(), Some("<p>x"));
    /// let lean = Document::parse_with("<p>x", &ParseOptions::default().with_keep_source(false));
    /// assert_eq!(lean.source(), None);
    /// assert_eq!((lean.body().unwrap().text(), lean.input_len()), ("x".into(), 4));
    /// ```
    pub fn with_keep_source(mut self, on: bool) -> Self {
        self.keep_source = on;
        self
    }

    /// Sets [`max_nodes`](ParseOptions::max_nodes): the parse stops once the document has
    /// more than `max` nodes.
    ///
    /// ```
    /// use html_arena::{Document, Limit, ParseOptions};
    ///
    /// let options = ParseOptions::default().with_max_nodes(1_000);
    /// let doc = Document::parse_with(&"<p>x".repeat(10_000), &options);
    /// assert_eq!(doc.limit_hit(), Some(Limit::Nodes));
    /// ```
    pub fn with_max_nodes(mut self, max: usize) -> Self {
        self.max_nodes = Some(max);
        self
    }

    /// Sets [`max_depth`](ParseOptions::max_depth); 512 gives Chromium's tree for deeply
    /// nested input.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    ///
    /// let options = ParseOptions::default().with_max_depth(512);
    /// let doc = Document::parse_with(&"<div>".repeat(1_000), &options);
    /// let deepest = doc.root().descendants().map(|n| n.ancestors().count()).max();
    /// // html, body and 510 divs fill the 512 places; deeper divs are their siblings.
    /// assert_eq!(deepest, Some(513));
    /// ```
    pub fn with_max_depth(mut self, max: usize) -> Self {
        self.max_depth = Some(max);
        self
    }

    #[cfg(feature = "url")]
    /// Sets [`url`](ParseOptions::url), the document's URL.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions, Url};
    ///
    /// let url = Url::parse("https://example.com/news/today.html").unwrap();
    /// let doc = Document::parse_with("<a href='../about'>", &ParseOptions::default().with_url(url));
    /// let (_, href) = doc.links().next().unwrap();
    /// assert_eq!(href, "https://example.com/about");
    /// ```
    pub fn with_url(mut self, url: url::Url) -> Self {
        self.url = Some(url);
        self
    }

    /// The number of errors to keep (0 when collection is off).
    pub(crate) fn error_limit(&self) -> usize {
        if self.collect_errors {
            self.max_errors
        } else {
            0
        }
    }
}

/// Text in, document out: the tokenizer feeding the tree builder.
struct Pipeline {
    tokenizer: Tokenizer,
    builder: TreeBuilder,
    /// A parser that runs scripts (`script.rs`) tokenizes network text itself, a piece at a
    /// time: here it waits.
    network: Option<Box<script::Network>>,
    /// How many times the parse started over (a `<meta>` changed the encoding).
    restarts: u32,
    /// A document that does not keep its source: the positions of its parse errors, found
    /// a chunk of input at a time (`None`: the document keeps its source).
    lean: Option<LeanErrors>,
}

/// The parse errors' lines and columns of a parse that does not keep its input: the errors
/// found in a chunk get their positions from the chunk and a window of the input before it
/// (which the document's strings keep from the earliest offset a token or error still to
/// come can point at), and then the window moves on.
#[derive(Clone, Debug, Default)]
struct LeanErrors {
    /// Where the last positioned error is.
    tracker: LineCol,
    /// The position at the window's first byte.
    checkpoint: LineCol,
    /// The errors before this one have their positions.
    resolved: usize,
}

/// How many of a piece's first bytes a lean parse's window holds while the piece is
/// tokenized: more than characters held back at a piece boundary reach into the next piece
/// (a character reference's name, `</` and an end tag's name).
const LEAN_LOOKAHEAD: usize = 64;

/// The order of the kept parse errors: by offset; at one offset, the input stream's errors
/// (13.2.3.5, found as a character enters the stream) before the tokenizer's and tree
/// builder's (found as it is consumed), whatever chunk boundary fell in between.
fn error_order(e: &ParseError) -> (usize, bool) {
    let input_stream = matches!(
        e.code,
        ErrorCode::ControlCharacterInInputStream
            | ErrorCode::NoncharacterInInputStream
            | ErrorCode::SurrogateInInputStream
    );
    (e.offset, !input_stream)
}

impl Pipeline {
    /// A pipeline for a whole document.
    fn document(options: &ParseOptions) -> Pipeline {
        let mut doc = Document::with_source(
            String::new(),
            NodeData::Document,
            &crate::html::hooks::HOOKS,
        );
        if options.source_positions {
            doc.positions = Some(Box::default());
        }
        let keep = options.keep_source || options.source_positions;
        doc.strings.set_keep_source(keep);
        #[cfg(feature = "url")]
        {
            doc.url = options.url.clone().map(Box::new);
        }
        let mut builder = TreeBuilder::new(doc, options.scripting, options.error_limit());
        builder.max_nodes = options.max_nodes;
        builder.max_depth = options.max_depth;
        Pipeline {
            tokenizer: new_tokenizer(),
            builder,
            network: None,
            restarts: 0,
            lean: (!keep).then(LeanErrors::default),
        }
    }

    /// Throws the parse away and starts a new document with the same options.
    fn restart(&mut self) {
        let old = &self.builder;
        let mut doc = Document::with_source(
            String::new(),
            NodeData::Document,
            &crate::html::hooks::HOOKS,
        );
        if old.doc.positions.is_some() {
            doc.positions = Some(Box::default());
        }
        doc.strings.set_keep_source(self.lean.is_none());
        #[cfg(feature = "url")]
        {
            doc.url = old.doc.url.clone();
        }
        let mut builder = TreeBuilder::new(doc, old.scripting, old.error_limit);
        builder.max_nodes = old.max_nodes;
        builder.max_depth = old.max_depth;
        let scripted = old.script_hooks;
        *self = Pipeline {
            tokenizer: new_tokenizer(),
            builder,
            network: None,
            restarts: self.restarts.wrapping_add(1),
            lean: self.lean.is_some().then(LeanErrors::default),
        };
        if scripted {
            script::Network::attach(self);
        }
    }

    /// Reserves room for `input`, the rest of the input (or its bytes, for byte input in an
    /// ASCII-compatible encoding), and for the nodes it is likely to make: the arena then
    /// grows once, to about the size it ends with, instead of doubling (which leaves up to
    /// half of it unused) or being reserved by a guess per byte (which real pages miss by a
    /// factor of 2 either way).
    fn reserve(&mut self, input: &[u8]) {
        let doc = &mut self.builder.doc;
        if self.lean.is_some() {
            // The strings are copied: 0.46 to 0.95 of the input on the bench corpus's pages
            // (median 0.72). Half of it; when that falls short, the growth is sized from
            // the rate seen so far.
            doc.strings.reserve_extra(input.len() / 2, input.len());
        } else {
            doc.strings.source.reserve_exact(input.len());
        }
        let nodes = estimated_nodes(input);
        // A little room over the estimate: it is at most 1% short on real pages, and going
        // over doubles the arena.
        let nodes = nodes.saturating_add(nodes / 32).saturating_add(16);
        let nodes = match self.builder.max_nodes {
            Some(max) => nodes.min(max.saturating_add(16)),
            None => nodes,
        };
        doc.arena.reserve(nodes);
        // Real pages average about one attribute per 50 bytes.
        doc.attrs.reserve(input.len() / 64);
        // The parser's tables indexed by node.
        let nodes = doc.arena.capacity();
        self.builder.open.reserve_nodes(nodes);
        if self.lean.is_none() {
            // (A lean document finds its active formatting elements through a map.)
            self.builder.active.reserve_nodes(nodes);
        }
    }

    /// Parses the next piece of text.
    fn feed(&mut self, text: &str) {
        if let Some(network) = self.network.as_mut() {
            network.push(text);
            return;
        }
        if self.lean.is_some() {
            self.feed_lean(text);
            return;
        }
        // Tokens that are verbatim input refer to the document's copy of it, which keeps the
        // whole input even when a resource limit stopped the parse...
        self.builder.doc.strings.source.push_str(text);
        // ...but the rest of it is not looked at.
        if self.builder.stopped {
            return;
        }
        self.tokenizer.feed(text, &mut self.builder);
    }

    /// Parses `text`, the whole input, and ends it. A lean parse then positions its errors
    /// once, over the whole input (as a document that keeps its source does), instead of
    /// carrying a position to the end of each piece for errors still to come: the end of
    /// the input is still at hand when they come.
    fn feed_all(&mut self, text: &str) {
        if self.network.is_some() || self.lean.is_none() || self.builder.error_limit == 0 {
            self.feed(text);
            self.end();
            return;
        }
        let strings = &mut self.builder.doc.strings;
        let mut lookahead = text.len().min(LEAN_LOOKAHEAD);
        while !text.is_char_boundary(lookahead) {
            lookahead -= 1;
        }
        let piece_base = strings.source_end();
        strings.begin_piece(text.len(), &text[..lookahead]);
        if !self.builder.stopped {
            self.tokenizer.feed(text, &mut self.builder);
        }
        // The window keeps what the end of the input may still point at (held-back
        // characters: see `feed_lean`).
        let mut keep_from = self.tokenizer.oldest_needed_offset();
        if let Some(offset) = self.builder.oldest_needed_offset() {
            keep_from = keep_from.min(offset);
        }
        let strings = &mut self.builder.doc.strings;
        let keep_from = keep_from
            .max(strings.source_base())
            .min(strings.source_end());
        strings.end_piece(text, piece_base, keep_from);
        self.end();
        self.position_errors_over((text, piece_base, ""));
    }

    /// A document that does not keep its source: parses the next piece of text. When parse
    /// errors are kept, the window holds the input from the earliest offset a token or error
    /// still to come can point at: the tail kept from earlier pieces and, while the piece is
    /// tokenized, its first bytes (held-back characters are checked against it: see
    /// `TreeBuilder::convert`). The errors found get their positions from the window and the
    /// piece; then the window keeps what is needed of the piece, usually a few bytes.
    fn feed_lean(&mut self, piece: &str) {
        let strings = &mut self.builder.doc.strings;
        let windowed = self.builder.error_limit > 0;
        if !windowed {
            strings.skip_input(piece.len());
            if !self.builder.stopped {
                self.tokenizer.feed(piece, &mut self.builder);
            }
            return;
        }
        let piece_base = strings.source_end();
        let mut lookahead = piece.len().min(LEAN_LOOKAHEAD);
        while !piece.is_char_boundary(lookahead) {
            lookahead -= 1;
        }
        strings.begin_piece(piece.len(), &piece[..lookahead]);
        if !self.builder.stopped {
            self.tokenizer.feed(piece, &mut self.builder);
        }
        let rest = &piece[lookahead..];
        self.position_errors(rest);
        let mut keep_from = self.tokenizer.oldest_needed_offset();
        if let Some(offset) = self.builder.oldest_needed_offset() {
            keep_from = keep_from.min(offset);
        }
        let strings = &mut self.builder.doc.strings;
        let keep_from = keep_from
            .max(strings.source_base())
            .min(strings.source_end());
        if let Some(lean) = self.lean.as_mut() {
            // A position at the window's new start, from the tracker when it is not past it
            // (then the input is counted once), else from the old start.
            let window = (strings.source.as_str(), strings.source_base(), rest);
            if lean.tracker.offset() <= keep_from {
                lean.tracker.position_across(window, keep_from);
                lean.checkpoint = lean.tracker.clone();
            } else {
                lean.checkpoint.position_across(window, keep_from);
            }
        }
        strings.end_piece(piece, piece_base, keep_from);
    }

    /// A lean parse: gives the errors found since the last call their lines and columns,
    /// from the window and `rest`, the input after it.
    fn position_errors(&mut self, rest: &str) {
        let Some(lean) = self.lean.as_mut() else {
            return;
        };
        let doc = &mut self.builder.doc;
        let Some(new) = doc.errors.get_mut(lean.resolved..) else {
            return;
        };
        new.sort_by_key(error_order);
        let window = (doc.strings.source.as_str(), doc.strings.source_base(), rest);
        Self::position(lean, new, window);
        lean.resolved = doc.errors.len();
    }

    /// A lean parse: gives the errors found since the last call their lines and columns,
    /// from `window` (text, its stream offset, the text after it), which holds the input
    /// from the tracker's checkpoint on.
    fn position_errors_over(&mut self, window: (&str, usize, &str)) {
        let Some(lean) = self.lean.as_mut() else {
            return;
        };
        let doc = &mut self.builder.doc;
        let Some(new) = doc.errors.get_mut(lean.resolved..) else {
            return;
        };
        new.sort_by_key(error_order);
        Self::position(lean, new, window);
        lean.resolved = doc.errors.len();
    }

    /// Positions `errors` (sorted) with `lean`'s tracker over `window`.
    fn position(lean: &mut LeanErrors, errors: &mut [ParseError], window: (&str, usize, &str)) {
        for error in errors.iter_mut() {
            if error.offset < lean.tracker.offset() {
                lean.tracker = lean.checkpoint.clone();
            }
            (error.line, error.column) = lean.tracker.position_across(window, error.offset);
        }
    }

    /// Ends the input (the end-of-file token). Later calls do nothing.
    fn end(&mut self) {
        if let Some(network) = self.network.as_mut() {
            network.ended = true;
            return;
        }
        // (After a resource limit stopped the parse, the end of the input is not looked at
        // either: no end-of-file errors for where the tokenizer happened to stop.)
        if !self.builder.stopped {
            self.tokenizer.end(&mut self.builder);
        }
    }

    /// Ends the input and returns the document, decoded with `encoding`.
    fn into_document(mut self, encoding: &'static Encoding, confidence: Confidence) -> Document {
        self.end();
        let lean = self.lean.is_some();
        if lean {
            self.position_errors("");
        }
        let mut doc = self.builder.finish();
        doc.strings.drop_window();
        doc.shrink_buffers();
        if lean {
            // (Each has its position already.)
            doc.errors.sort_by_key(error_order);
        } else {
            resolve_error_positions(&mut doc);
        }
        if let Some(positions) = doc.positions.as_mut() {
            positions.resolve_lines(&doc.strings.source);
        }
        doc.encoding = encoding;
        doc.encoding_confidence = confidence;
        doc
    }
}

/// A streaming HTML parser: write the input in chunks of any size, then
/// [`finish`](Parser::finish).
///
/// The input is text ([`write_str`](Parser::write_str)) or bytes ([`write`](Parser::write)),
/// as the first write decides. Bytes are sniffed, decoded and, if a `<meta>` changes the
/// encoding, parsed again, as [`Document::parse_bytes`] does. Any chunking gives the same
/// document (tree, errors, encoding) as parsing the whole input at once.
///
/// ```
/// use html_arena::{ParseOptions, Parser};
///
/// let mut parser = Parser::new(&ParseOptions::default());
/// parser.write_str("<ul><li>one<l");
/// parser.write_str("i>two</ul>");
/// let doc = parser.finish();
/// assert_eq!(doc.body().unwrap().text(), "onetwo");
/// ```
pub struct Parser {
    pipeline: Pipeline,
    input: Input,
    /// The encodings the options name, checked (they matter for byte input only).
    encodings: Result<EncodingOptions, EncodingError>,
}

/// What a [`Parser`] has been given.
enum Input {
    /// Nothing yet (a document parser): the first write decides between text and bytes.
    Start,
    /// Text: `write_str` came first, or a fragment parser. Bytes written to it are UTF-8 (and
    /// once there are some, text goes through the same decoder, as its UTF-8 bytes).
    Text(Option<Decoding>),
    /// Bytes: sniffed, decoded, maybe parsed again.
    Bytes(Box<ByteInput>),
}

impl Parser {
    /// A parser for a whole document.
    ///
    /// The encoding labels in `options` are checked when the first bytes are written (they
    /// do not matter for text).
    pub fn new(options: &ParseOptions) -> Parser {
        Parser {
            pipeline: Pipeline::document(options),
            input: Input::Start,
            encodings: EncodingOptions::new(options),
        }
    }

    /// A parser for a fragment (the HTML fragment parsing algorithm), as if the text were the
    /// content of a `context` element: an HTML local name such as `"td"`, or `"svg NAME"` /
    /// `"math NAME"`. The finished document's root is a `DocumentFragment` holding the parsed
    /// nodes. The fragment parsing algorithm takes text: bytes written to a fragment parser
    /// are UTF-8.
    ///
    /// ```
    /// use html_arena::{ParseOptions, Parser};
    ///
    /// let mut parser = Parser::new_fragment("tr", &ParseOptions::default()).unwrap();
    /// parser.write_str("<td>1<td>2");
    /// let frag = parser.finish();
    /// assert_eq!(frag.root().children().count(), 2);
    /// ```
    pub fn new_fragment(
        context: &str,
        options: &ParseOptions,
    ) -> Result<Parser, FragmentContextError> {
        let context = FragmentContext::parse(context)?;
        let (mut builder, state) = TreeBuilder::new_fragment(
            String::new(),
            &context,
            options.scripting,
            options.error_limit(),
        );
        if options.source_positions {
            builder.doc.positions = Some(Box::default());
        }
        #[cfg(feature = "url")]
        {
            builder.doc.url = options.url.clone().map(Box::new);
        }
        builder.max_nodes = options.max_nodes;
        builder.max_depth = options.max_depth;
        let mut tokenizer = new_tokenizer();
        tokenizer.set_state(state);
        Ok(Parser {
            pipeline: Pipeline {
                tokenizer,
                builder,
                network: None,
                restarts: 0,
                lean: None,
            },
            input: Input::Text(None),
            encodings: EncodingOptions::new(options),
        })
    }

    /// Parses the next chunk of text.
    ///
    /// Text input needs no decoding: the document's encoding is UTF-8, with the confidence
    /// [`Irrelevant`](Confidence::Irrelevant). (Text written to a parser that was given bytes
    /// first is taken as its UTF-8 bytes.)
    pub fn write_str(&mut self, chunk: &str) {
        match &mut self.input {
            Input::Start | Input::Text(None) => {
                self.input = Input::Text(None);
                self.pipeline.feed(chunk);
            }
            Input::Text(Some(decoding)) => {
                let _ = decoding.feed(&mut self.pipeline, chunk.as_bytes(), &[], false);
            }
            Input::Bytes(input) => input.write(&mut self.pipeline, chunk.as_bytes()),
        }
    }

    /// Parses the next chunk of bytes.
    ///
    /// The first bytes (1024, all the prescan reads) are held until the encoding can be
    /// sniffed as the whole input would be; when nothing declares one in or around them and
    /// [`detect_encoding`](ParseOptions::detect_encoding) is on (the default), until the end,
    /// since detection (is it all valid UTF-8?) reads every byte. Sequences split between
    /// chunks are decoded as one. While the
    /// confidence in the encoding is tentative, the bytes are kept, so that a `<meta>` naming
    /// another encoding can have them parsed again. (Bytes written to a parser that was given
    /// text first, or to a fragment parser, are UTF-8.)
    ///
    /// ```
    /// use html_arena::{Confidence, ParseOptions, Parser};
    ///
    /// let mut parser = Parser::new(&ParseOptions::default());
    /// let page = "<meta charset=utf-8><p>Grüße".as_bytes();
    /// for chunk in page.chunks(3) {
    ///     parser.write(chunk)?;
    /// }
    /// let doc = parser.finish();
    /// assert_eq!(doc.body().unwrap().text(), "Grüße");
    /// assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    /// assert_eq!(doc.encoding_confidence(), Confidence::Certain);
    /// # Ok::<(), html_arena::EncodingError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`EncodingError::UnknownLabel`] when these are the first bytes of a document parser and
    /// an encoding label in its [`ParseOptions`] is unknown. Nothing is parsed then and the
    /// parser is left as it was (so the next `write` gives the same error).
    pub fn write(&mut self, chunk: &[u8]) -> Result<(), EncodingError> {
        match &mut self.input {
            Input::Start => {
                let mut input = Box::new(ByteInput::new(self.encodings.clone()?));
                input.write(&mut self.pipeline, chunk);
                self.input = Input::Bytes(input);
            }
            Input::Text(decoding) => {
                let decoding = decoding.get_or_insert_with(|| {
                    Decoding::start(
                        encoding_rs::UTF_8,
                        Confidence::Irrelevant,
                        &mut self.pipeline,
                    )
                });
                let _ = decoding.feed(&mut self.pipeline, chunk, &[], false);
            }
            Input::Bytes(input) => input.write(&mut self.pipeline, chunk),
        }
        Ok(())
    }

    /// For a streaming selection (`crate::stream`): the tree builder between writes, and how
    /// many times the parse started over (a restart throws the tree away).
    pub(crate) fn stream_view(&mut self) -> (&mut TreeBuilder, u32) {
        (&mut self.pipeline.builder, self.pipeline.restarts)
    }

    /// For a streaming selection: whether the input is still being held to sniff its
    /// encoding or parsed with a tentative one (a `<meta>` can still restart the parse).
    pub(crate) fn may_restart(&self) -> bool {
        match &self.input {
            Input::Start | Input::Text(_) => false,
            Input::Bytes(input) => input.may_restart() || self.pipeline.builder.encoding_tentative,
        }
    }

    /// Ends the input and returns the document.
    pub fn finish(mut self) -> Document {
        let (encoding, confidence) = match self.input {
            Input::Start | Input::Text(None) => (encoding_rs::UTF_8, Confidence::Irrelevant),
            Input::Text(Some(mut decoding)) => {
                let _ = decoding.feed(&mut self.pipeline, &[], &[], true);
                (encoding_rs::UTF_8, Confidence::Irrelevant)
            }
            Input::Bytes(input) => input.finish(&mut self.pipeline),
        };
        self.pipeline.into_document(encoding, confidence)
    }
}

/// About how many nodes `input` makes: a tag or comment (`<` before anything but `/`) makes
/// one, and so does a run of text (`>` before anything but `<`). On the 51 pages of the bench
/// corpus this is 0.81x to 1.01x of the nodes built (the elements a page leaves implied, and
/// the `<` in scripts, roughly cancel out). Whatever the input, a node needs a tag (a `<` and
/// a `>`) or a run of text between two tags, so an estimate of more than one node per 8 bytes
/// (real pages make one per 20 to 400) is capped at twice the smaller of the counts of `<`
/// and `>`: a flood of `>` or of unclosed `<a` reserves nothing.
///
/// One pass at about 1.1 instructions per byte: the compiler vectorizes the inner loop (the
/// count of a 128-byte block fits in a byte); the counts for the cap are `memchr`'s.
fn estimated_nodes(input: &[u8]) -> usize {
    let Some(next) = input.get(1..) else {
        return 0;
    };
    let mut nodes = 0usize;
    for (a, b) in input.chunks(128).zip(next.chunks(128)) {
        let mut n = 0u8;
        for (&a, &b) in a.iter().zip(b) {
            n += u8::from(((a == b'<') & (b != b'/')) | ((a == b'>') & (b != b'<')));
        }
        nodes += usize::from(n);
    }
    if nodes > input.len() / 8 {
        let lt = memchr::memchr_iter(b'<', input).count();
        let gt = memchr::memchr_iter(b'>', input).count();
        nodes = nodes.min(lt.min(gt).saturating_mul(2).saturating_add(2));
    }
    nodes
}

fn new_tokenizer() -> Tokenizer {
    // Positions are resolved once, at the end, from the offsets.
    Tokenizer::with_options(TokenizerOptions {
        error_positions: false,
        ..TokenizerOptions::default()
    })
}

/// Sorts the kept errors by offset and gives each its line and column. At one offset, the
/// input stream's errors (13.2.3.5, found as a character enters the stream) come before the
/// tokenizer's and tree builder's (found as it is consumed), whatever chunk boundary fell
/// in between; others keep the order they were found in (the sort is stable).
fn resolve_error_positions(doc: &mut Document) {
    doc.errors.sort_by_key(error_order);
    let mut line_col = LineCol::default();
    let source = &doc.strings.source;
    for error in &mut doc.errors {
        let (line, column) = line_col.position(source, error.offset.min(source.len()));
        error.line = line;
        error.column = column;
    }
}

impl Document {
    /// Parses a whole document, with scripting disabled (as a `DOMParser` or a crawler that
    /// runs no scripts would).
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<title>T</title><p>Hi");
    /// assert_eq!(doc.head().unwrap().text(), "T");
    /// assert_eq!(doc.body().unwrap().text(), "Hi");
    /// ```
    pub fn parse(html: &str) -> Document {
        Document::parse_with(html, &ParseOptions::default())
    }

    /// Parses a whole document with options.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    /// let options = ParseOptions::default().with_scripting(true);
    /// let doc = Document::parse_with("<noscript><p>x</p></noscript>", &options);
    /// // With scripting on, noscript content is raw text.
    /// assert_eq!(doc.head().unwrap().text(), "<p>x</p>");
    /// ```
    pub fn parse_with(html: &str, options: &ParseOptions) -> Document {
        let mut pipeline = Pipeline::document(options);
        pipeline.reserve(html.as_bytes());
        pipeline.feed_all(html);
        pipeline.into_document(encoding_rs::UTF_8, Confidence::Irrelevant)
    }

    /// Parses a whole document from bytes, finding their encoding first (13.2.3).
    ///
    /// The encoding sniffing algorithm picks the encoding: a byte order mark, else
    /// [`override_encoding`](ParseOptions::override_encoding), else
    /// [`transport_encoding`](ParseOptions::transport_encoding) (these three with the
    /// confidence certain), else a `<meta>` charset in the first 1024 bytes (the prescan),
    /// else, with [`detect_encoding`](ParseOptions::detect_encoding) (the default), UTF-8 for
    /// valid UTF-8 or a frequency-based guess for other non-ASCII bytes, else
    /// [`fallback_encoding`](ParseOptions::fallback_encoding) or windows-1252 (these three
    /// tentative). [`with_browser_encoding`](ParseOptions::with_browser_encoding) skips the
    /// detection, as browsers do. The bytes are decoded with it (malformed sequences become U+FFFD) and
    /// parsed. While the confidence is tentative, the first `<meta>` the tree builder meets
    /// that declares an encoding settles it (13.2.3.4): the same encoding becomes certain; a
    /// different one has the bytes parsed again with it, certain (at most once). So a page
    /// whose `<meta charset>` comes after its first 1024 bytes still comes out right.
    /// [`Document::encoding`] and [`Document::encoding_confidence`] tell the outcome.
    ///
    /// ```
    /// use html_arena::{Confidence, Document, ParseOptions};
    ///
    /// // No declaration, valid UTF-8: UTF-8, a guess.
    /// let doc = Document::parse_bytes("<p>café".as_bytes(), &ParseOptions::default())?;
    /// assert_eq!(doc.body().unwrap().text(), "café");
    /// assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    /// assert_eq!(doc.encoding_confidence(), Confidence::Tentative);
    ///
    /// // No declaration, not UTF-8: detected.
    /// let doc = Document::parse_bytes(b"<p>caf\xe9", &ParseOptions::default())?;
    /// assert_eq!(doc.body().unwrap().text(), "café");
    /// assert_eq!(doc.encoding(), encoding_rs::WINDOWS_1252);
    ///
    /// // A <meta> beyond the prescan's 1024 bytes: parsed again as UTF-8.
    /// let mut page = format!("<title>{}</title>", "x".repeat(1100)).into_bytes();
    /// page.extend_from_slice("<meta charset=utf-8><p>café".as_bytes());
    /// let doc = Document::parse_bytes(&page, &ParseOptions::default())?;
    /// assert_eq!(doc.body().unwrap().text(), "café");
    /// assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    /// assert_eq!(doc.encoding_confidence(), Confidence::Certain);
    /// # Ok::<(), html_arena::EncodingError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`EncodingError::UnknownLabel`] when an encoding label in `options` is not one of the
    /// Encoding Standard's. (Unknown labels in the page are ignored, as the specification
    /// says.)
    pub fn parse_bytes(bytes: &[u8], options: &ParseOptions) -> Result<Document, EncodingError> {
        let encodings = EncodingOptions::new(options)?;
        let sniffed = encodings.sniff(bytes);
        let mut pipeline = Pipeline::document(options);
        pipeline.reserve(bytes);
        let mut decoding = Decoding::start(sniffed.encoding, sniffed.confidence, &mut pipeline);
        let after_bom = bytes.get(sniffed.bom_len..).unwrap_or_default();
        if let Fed::Restart(encoding) = decoding.feed(&mut pipeline, after_bom, bytes, true) {
            // 13.2.3.4 step 6: parse the bytes again, with the new encoding, certain. (No BOM
            // to skip: a BOM makes the confidence certain from the start.)
            pipeline.restart();
            pipeline.reserve(bytes);
            decoding = Decoding::start(encoding, Confidence::Certain, &mut pipeline);
            let _ = decoding.feed(&mut pipeline, bytes, &[], true);
        }
        Ok(pipeline.into_document(decoding.encoding, decoding.confidence))
    }

    /// Parses a fragment as the content of a `context` element (13.4, the HTML fragment
    /// parsing algorithm): `context` is an HTML local name (`"td"`, `"template"`, ...) or
    /// `"svg NAME"` / `"math NAME"`. The returned document's root is a `DocumentFragment`
    /// holding the parsed nodes.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    /// let frag = Document::parse_fragment("<td>a<td>b", "tr", &ParseOptions::default()).unwrap();
    /// assert_eq!(frag.dump_tree(), "| <td>\n|   \"a\"\n| <td>\n|   \"b\"\n");
    /// assert!(Document::parse_fragment("x", "", &ParseOptions::default()).is_err());
    /// ```
    pub fn parse_fragment(
        html: &str,
        context: &str,
        options: &ParseOptions,
    ) -> Result<Document, FragmentContextError> {
        let mut parser = Parser::new_fragment(context, options)?;
        parser.pipeline.reserve(html.as_bytes());
        parser.write_str(html);
        Ok(parser.finish())
    }

    /// Parses a fragment of HTML as the content of a `<body>`, the common case (what
    /// `body.innerHTML = html` does), with the default options. The returned document's root
    /// is a `DocumentFragment` holding the parsed nodes. For another context or options, see
    /// [`Document::parse_fragment`].
    ///
    /// ```
    /// let frag = html_arena::Document::parse_body_fragment("<p>One<p>Two <b>three");
    /// assert_eq!(frag.root().children().count(), 2);
    /// assert_eq!(frag.html(), "<p>One</p><p>Two <b>three</b></p>");
    /// ```
    pub fn parse_body_fragment(html: &str) -> Document {
        // "body" is a valid context, so this is never the (empty) default; but a default is a
        // better answer than a panic.
        Document::parse_fragment(html, "body", &ParseOptions::default()).unwrap_or_default()
    }
}

#[cfg(test)]
mod stand_in_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::QuirksMode;
    use crate::error::ErrorCode;

    #[test]
    fn errors_have_positions_in_input_order() {
        let doc = Document::parse("<p>\n  <b>x</p>\n</i>");
        let codes: Vec<_> = doc
            .errors()
            .iter()
            .map(|e| (e.code, e.line, e.column))
            .collect();
        assert_eq!(
            codes,
            [
                (ErrorCode::MissingDoctype, 1, 1),
                (ErrorCode::UnclosedElements, 2, 7),
                (ErrorCode::UnexpectedEndTag, 3, 1),
                // The <b> closed by </p> is reopened for the line break after it.
                (ErrorCode::EofWithUnclosedElements, 3, 5),
            ]
        );
        assert_eq!(doc.errors()[2].message(), "unexpected-end-tag: </i>");
        assert_eq!(doc.errors()[2].to_string(), "3:1: unexpected-end-tag: </i>");
    }

    #[test]
    fn error_collection_options() {
        let html = "</a></b></c></d>";
        let all = Document::parse(html);
        assert_eq!(all.errors().len(), all.error_count());
        let mut options = ParseOptions {
            max_errors: 2,
            ..ParseOptions::default()
        };
        let some = Document::parse_with(html, &options);
        assert_eq!(some.errors().len(), 2);
        assert_eq!(some.error_count(), all.error_count());
        options.collect_errors = false;
        let none = Document::parse_with(html, &options);
        assert!(none.errors().is_empty());
        assert_eq!(none.error_count(), all.error_count());
    }

    #[test]
    fn quirks_mode_and_scripting_are_recorded() {
        assert_eq!(Document::parse("<p>").quirks_mode(), QuirksMode::Quirks);
        assert_eq!(
            Document::parse("<!DOCTYPE html><p>").quirks_mode(),
            QuirksMode::NoQuirks
        );
        let limited = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x\">";
        assert_eq!(
            Document::parse(limited).quirks_mode(),
            QuirksMode::LimitedQuirks
        );
        assert!(!Document::parse("").scripting());
        let on = Document::parse_with("", &ParseOptions::default().with_scripting(true));
        assert!(on.scripting());
    }

    #[test]
    fn fragment_contexts() {
        let options = ParseOptions::default();
        let frag = Document::parse_fragment("<path/><g>", "svg svg", &options).unwrap();
        assert_eq!(frag.dump_tree(), "| <svg path>\n| <svg g>\n");
        let frag = Document::parse_fragment("a</textarea>b", "TEXTAREA", &options).unwrap();
        assert_eq!(frag.dump_tree(), "| \"a</textarea>b\"\n");
        let frag = Document::parse_fragment("<form><input></form>", "form", &options).unwrap();
        // The form element pointer points at the context: the nested <form> is ignored.
        assert_eq!(frag.dump_tree(), "| <input>\n");
        assert!(frag.root().is_fragment());
        for bad in ["", "svg ", "math ", "a b", "<td>", "td/"] {
            let err = Document::parse_fragment("x", bad, &options).unwrap_err();
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn streaming_equals_whole() {
        let html = "<!DOCTYPE html><title>a&amp;b</title><table>\n <tr><td>x<b>y</td></table>\
                    <svg><foreignObject><p>z</svg><!-- c --><?pi d?>\r\ntext";
        let whole = Document::parse(html);
        for size in 1..8 {
            let mut parser = Parser::new(&ParseOptions::default());
            let mut rest = html;
            while !rest.is_empty() {
                let mut end = size.min(rest.len());
                while !rest.is_char_boundary(end) {
                    end += 1;
                }
                parser.write_str(&rest[..end]);
                rest = &rest[end..];
            }
            let doc = parser.finish();
            assert_eq!(doc.dump_tree(), whole.dump_tree(), "chunks of {size}");
            assert_eq!(doc.errors(), whole.errors(), "chunks of {size}");
        }
    }

    #[test]
    fn node_estimate_follows_pages_and_ignores_floods() {
        let page = "<!DOCTYPE html><html><head><title>T</title></head><body>\n<p class=a>one \
                    <b>two</b></p>\n<!-- c --><ul><li>x</li><li>y</li></ul>\n</body></html>";
        let nodes = Document::parse(page).node_count();
        let estimate = estimated_nodes(page.as_bytes());
        assert!(
            estimate * 10 >= nodes * 8 && estimate * 10 <= nodes * 12,
            "{estimate} for {nodes} nodes"
        );
        for flood in [">", "a>", "<a", "<", "</", "<!"] {
            let input = flood.repeat(100_000);
            assert!(estimated_nodes(input.as_bytes()) <= 2, "{flood}");
            // Reserved for a flood: a few nodes, not one per byte.
            let mut pipeline = Pipeline::document(&ParseOptions::default());
            pipeline.reserve(input.as_bytes());
            assert!(pipeline.builder.doc.arena.capacity() < 64, "{flood}");
        }
        // Real nodes: one per `<a>`.
        let input = "<a>".repeat(1000);
        assert_eq!(estimated_nodes(input.as_bytes()), 1000);
    }

    #[test]
    fn verbatim_text_is_not_copied_when_the_source_is_kept() {
        let lean = ParseOptions::default().with_keep_source(false);
        let kept = ParseOptions::default().with_keep_source(true);
        for (options, offset) in [(kept, Some(3)), (lean, None)] {
            let doc = Document::parse_with("<p>hello world</p>", &options);
            let p = doc.body().unwrap().first_child().unwrap();
            let text = p.first_child().unwrap();
            assert_eq!(text.as_text(), Some("hello world"));
            if let NodeData::Text(r) = doc.data(text.node_id().raw) {
                assert_eq!(r.source_offset(), offset);
            } else {
                panic!("not a text node");
            }
        }
    }

    #[test]
    fn a_lean_parse_keeps_a_window_not_the_input() {
        // Errors on every line, a comment and a table text that span pieces: the same
        // errors, at the same places, as with the source kept; the window stays small.
        let mut input = String::new();
        for i in 0..20_000 {
            input.push_str(&format!("<p a=1 a=2>line {i}\r\n</q>"));
            if i % 5000 == 0 {
                input.push_str(&format!("<!--{}-->", "-x\n".repeat(30_000)));
                input.push_str(&format!("<table>{}x</table>", " \n".repeat(30_000)));
            }
        }
        let kept = Document::parse_with(&input, &ParseOptions::default().with_keep_source(true));
        let mut pipeline = Pipeline::document(&ParseOptions::default().with_keep_source(false));
        pipeline.reserve(input.as_bytes());
        let mut widest = 0;
        for piece in input.as_bytes().chunks(10_000) {
            pipeline.feed(std::str::from_utf8(piece).unwrap());
            widest = widest.max(pipeline.builder.doc.strings.source.len());
        }
        let lean = pipeline.into_document(encoding_rs::UTF_8, Confidence::Irrelevant);
        assert_eq!(lean.dump_tree(), kept.dump_tree());
        assert_eq!(lean.errors(), kept.errors());
        assert!(lean.errors().len() > 1000);
        assert_eq!((lean.source(), lean.input_len()), (None, input.len()));
        // What spans pieces (the 90 KB comment), not the 1.3 MB input.
        assert!(widest < 100_000, "{widest}");
        assert!(lean.strings.source.capacity() == 0);
    }

    #[test]
    fn a_lean_parse_split_anywhere_gives_the_kept_errors() {
        // Characters held back at a piece boundary (a `<`, `</`, a `&` that starts no
        // reference) in table text, whose errors are per character, and CRLFs.
        let input = "<table>\r\nx&notanentity y< z</ w&amp;\r\n<td>&#x;\r</table><textarea>a</t b</textarea>\r\n&nota";
        let kept = Document::parse_with(input, &ParseOptions::default().with_keep_source(true));
        assert!(kept.errors().len() > 20);
        for split in (0..=input.len()).filter(|&i| input.is_char_boundary(i)) {
            let mut pipeline = Pipeline::document(&ParseOptions::default().with_keep_source(false));
            pipeline.feed(&input[..split]);
            pipeline.feed(&input[split..]);
            let lean = pipeline.into_document(encoding_rs::UTF_8, Confidence::Irrelevant);
            assert_eq!(lean.dump_tree(), kept.dump_tree(), "split at {split}");
            assert_eq!(lean.errors(), kept.errors(), "split at {split}");
        }
    }

    #[test]
    fn a_lean_parse_builds_the_kept_tree_when_the_formatting_list_is_long() {
        // A lean document searches a short list of active formatting elements and maps a
        // long one (more than 16 entries), back and forth: misnested formatting elements
        // (the adoption agency), Noah's Ark, markers and clones, in random tag soup.
        let tags = [
            "<b>",
            "</b>",
            "<i>",
            "</i>",
            "<a href=x>",
            "</a>",
            "<font size=2>",
            "</font>",
            "<nobr>",
            "</nobr>",
            "<p>",
            "</p>",
            "<div>",
            "</div>",
            "<table><td>",
            "</table>",
            "<em class=c>",
            "</em>",
            "<u>",
            "</u>",
            "text ",
            "<applet>",
            "</applet>",
        ];
        let mut state: u64 = 0x1234_5678_9abc_def1;
        for round in 0..200 {
            let mut input = String::new();
            for _ in 0..(20 + round * 2) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Opening tags more often, so that the list grows past 16 entries.
                let i = (state % 40) as usize;
                match tags.get(i) {
                    Some(tag) => input.push_str(tag),
                    // Distinct attributes: past Noah's Ark's three of a kind.
                    None => input.push_str(&format!("<b id={}>", state % 50)),
                }
            }
            let kept =
                Document::parse_with(&input, &ParseOptions::default().with_keep_source(true));
            let lean =
                Document::parse_with(&input, &ParseOptions::default().with_keep_source(false));
            assert_eq!(lean.dump_tree(), kept.dump_tree(), "{input}");
            assert_eq!(lean.errors(), kept.errors(), "{input}");
        }
    }

    #[test]
    fn a_lean_whole_parse_positions_errors_as_the_kept_document() {
        // `parse_with` positions a lean document's errors once, over the whole input: the
        // same lines and columns as the kept document's, including the end-of-file errors
        // and characters held back at the end (a `<`, `</`, `&` that turn out to be text).
        let bodies = [
            "<table>\r\nx&notanentity y< z</ w&amp;\r\n<td>&#x;\r</table>",
            "<p>line\none\r\n<div>é\u{1F600} <b><i></b></i>\r\n",
            "<table><tr>ab\r\ncd",
            "",
        ];
        let ends = [
            "",
            "<",
            "</",
            "&",
            "&no",
            "<!--",
            "<a href='x",
            "\r",
            "\r\n<",
            "x\u{0}",
        ];
        let lean = ParseOptions::default().with_keep_source(false);
        for body in bodies {
            for end in ends {
                // (Past the first 64 bytes, which the window holds while a piece is read.)
                let input = format!("<!-- {} -->{body}{end}", "x".repeat(100));
                let kept =
                    Document::parse_with(&input, &ParseOptions::default().with_keep_source(true));
                let doc = Document::parse_with(&input, &lean);
                assert_eq!(doc.dump_tree(), kept.dump_tree(), "{input:?}");
                assert_eq!(doc.errors(), kept.errors(), "{input:?}");
            }
        }
    }
}
