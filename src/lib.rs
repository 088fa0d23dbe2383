//! An HTML parser that builds the tree a browser builds (it follows the parsing chapter of the
//! WHATWG HTML Standard step by step) into an index-based arena DOM that you query with CSS
//! selectors, read, change and write back out. For scrapers, crawlers, rewriters and content
//! extraction. The `html-arena` command does the same from the shell (install it with
//! `cargo install --path .` in a checkout; `html-arena --help`).
//!
//! # Add the dependency
//!
//! ```toml
//! [dependencies]
//! html-arena = "0.1"
//! ```
//!
//! # Parse
//!
//! [`Document::parse`] takes text; every input gives a document, as in a browser (parse
//! errors are data: [`Document::errors`]). [`ParseOptions`] holds the rest (scripting, error
//! collection, budgets, source positions), and [`Parser`] takes input in chunks.
//!
//! ```
//! use html_arena::Document;
//!
//! let doc = Document::parse("<title>Shop</title><p class=price>12 €<p>Sold out");
//! assert_eq!(doc.head().unwrap().text(), "Shop");
//! assert_eq!(doc.body().unwrap().children().count(), 2); // the parser closed the first <p>
//!
//! // A fragment, as `innerHTML` parses it:
//! let frag = Document::parse_body_fragment("<li>one<li>two");
//! assert_eq!(frag.root().children().count(), 2);
//! ```
//!
//! # Select
//!
//! [`Selector::parse`] compiles a CSS selector (the syntax of `querySelectorAll`, with
//! `:has()`, `:is()`, `:not()`, `:nth-child(An+B of S)` and the HTML pseudo-classes);
//! [`Document::select`] yields the matching elements in document order, and so does
//! [`ElementRef::select`] below one element. A bad selector is an error that points at the
//! problem.
//!
//! ```
//! use html_arena::{Document, Selector};
//!
//! let doc = Document::parse("<ul><li><a href=/a>A</a><li><a href=/b rel=nofollow>B</a></ul>");
//! let links = Selector::parse("li > a[href]:not([rel~=nofollow])")?;
//! let found: Vec<_> = doc.select(&links).map(|a| a.text()).collect();
//! assert_eq!(found, ["A"]);
//!
//! let err = Selector::parse("a:hovr").unwrap_err();
//! assert_eq!(err.to_string(), "unknown pseudo-class `:hovr` at byte 1");
//! # Ok::<(), html_arena::SelectorError>(())
//! ```
//!
//! # Text
//!
//! [`NodeRef::text`] is the DOM's `textContent` (every text node, scripts included);
//! [`NodeRef::rendered_text`] is what a reader sees, in the spirit of `innerText` (no scripts
//! or hidden elements, white space collapsed, a line per block).
//!
//! ```
//! let doc = html_arena::Document::parse("<h1>News</h1><script>x()</script><p>One   two</p>");
//! let body = doc.body().unwrap();
//! assert_eq!(body.text(), "Newsx()One   two");
//! assert_eq!(body.rendered_text(), "News\n\nOne two");
//! ```
//!
//! # Attributes
//!
//! [`ElementRef::attr`] reads an attribute as `getAttribute` does (the name is
//! case-insensitive on HTML elements); [`ElementRef::attrs`] lists them, and
//! [`ElementRef::id`], [`ElementRef::classes`] and [`ElementRef::has_class`] cover the common
//! cases. [`Document::get_element_by_id`] finds an element by its `id`.
//!
//! ```
//! let doc = html_arena::Document::parse(r#"<img id=logo SRC="/logo.png" class="big round">"#);
//! let img = doc.get_element_by_id("logo").unwrap();
//! assert_eq!(img.name(), "img");
//! assert_eq!(img.attr("src"), Some("/logo.png"));
//! assert_eq!(img.attr("SRC"), Some("/logo.png"));
//! assert!(img.has_class("round"));
//! let names: Vec<_> = img.attrs().map(|a| a.local_name).collect();
//! assert_eq!(names, ["id", "src", "class"]);
//! ```
//!
//! # Mutate
//!
//! Handles borrow the document; to change it, take their [`NodeId`]s
//! ([`NodeRef::node_id`]) to the document's mutation methods ([`Document::append`],
//! [`Document::remove`], [`Document::set_attribute`], [`Document::set_text`],
//! [`Document::set_inner_html`], ...). A change that would break the tree is an error
//! ([`MutationError`]), never a broken tree. Then serialize: [`NodeRef::html`] is `outerHTML`,
//! [`NodeRef::inner_html`] is `innerHTML` ([`serialize`] has the options).
//!
//! ```
//! use html_arena::{Document, Selector};
//!
//! let mut doc = Document::parse("<p>Hello <span class=ad>BUY</span>world");
//! let ads: Vec<_> = doc.select(&Selector::parse(".ad")?).map(|e| e.node_id()).collect();
//! for ad in ads {
//!     doc.remove(ad)?;
//! }
//! let p = doc.select_first(&Selector::parse("p")?).unwrap().node_id();
//! doc.set_attribute(p, "lang", "en")?;
//! assert_eq!(doc.body().unwrap().inner_html(), r#"<p lang="en">Hello world</p>"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Bytes and encodings
//!
//! [`Document::parse_bytes`] takes a page as it came off the wire and finds its encoding: a
//! byte order mark, then [`ParseOptions::transport_encoding`] (the HTTP `Content-Type`
//! charset), then a `<meta charset>` in the first 1024 bytes. A page that declares nothing is
//! **UTF-8 if its bytes are valid UTF-8**, else guessed from its bytes (chardetng, what
//! Firefox uses), else windows-1252; a `<meta>` found later still corrects the guess.
//!
//! Browsers do not guess UTF-8: they decode an undeclared page as windows-1252 (or their
//! locale's default), which garbles the UTF-8 text of a page that forgot to declare it.
//! [`ParseOptions::with_browser_encoding`] chooses as browsers do, for when you need the
//! browser's tree byte for byte. [`encoding`] has the algorithm's pieces.
//!
//! ```
//! use html_arena::{Document, ParseOptions};
//!
//! let page = "<p>Grüße – café".as_bytes(); // UTF-8, declared nowhere
//! let doc = Document::parse_bytes(page, &ParseOptions::default())?;
//! assert_eq!(doc.body().unwrap().text(), "Grüße – café");
//!
//! let browser = ParseOptions::default().with_browser_encoding(true);
//! let doc = Document::parse_bytes(page, &browser)?;
//! assert_eq!(doc.body().unwrap().text(), "GrÃ¼ÃŸe â€“ cafÃ©");
//!
//! let http = ParseOptions::default().with_transport_encoding("windows-1251");
//! let doc = Document::parse_bytes(b"<p>\xcf\xf0\xe8\xe2\xe5\xf2", &http)?;
//! assert_eq!(doc.body().unwrap().text(), "Привет");
//! # Ok::<(), html_arena::EncodingError>(())
//! ```
//!
//! # URLs and XPath
//!
//! Give the document its URL ([`ParseOptions::with_url`]) and [`ElementRef::abs_url`] resolves
//! any URL attribute against the document base URL (the first `<base href>`, by the HTML and
//! URL Standards, as a browser's `href` getter does, `file:` URLs of pages saved from Windows
//! included); [`Document::links`] lists the `a` and `area` links, resolved. The [`xpath`] module evaluates XPath 1.0 with the HTML Standard's
//! rules for HTML documents; node-sets come in document order, attributes included.
//!
//! ```
//! # #[cfg(all(feature = "url", feature = "xpath"))]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use html_arena::{Document, ParseOptions, Url, XPath};
//!
//! let options = ParseOptions::default().with_url(Url::parse("https://example.com/shop/")?);
//! let doc = Document::parse_with("<a href='cart?id=1'>Cart</a><a href='../help'>Help</a>", &options);
//! let links: Vec<String> = doc.links().map(|(_, url)| url.into_owned()).collect();
//! assert_eq!(links, ["https://example.com/shop/cart?id=1", "https://example.com/help"]);
//!
//! let help = doc.xpath(&XPath::parse("//a[. = 'Help']/@href")?)?;
//! assert_eq!(help.nodes()[0].string_value(), "../help");
//! assert_eq!(doc.xpath(&XPath::parse("count(//a[starts-with(@href, 'cart')])")?)?.number(), 1.0);
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "url", feature = "xpath")))]
//! # fn main() {}
//! ```
//!
//! # Cargo features
//!
//! All on by default. With `default-features = false` the crate parses, selects, mutates and
//! serializes with its small core dependencies (no ICU, regress or quick-xml); the README's
//! table gives each feature's crates and build cost.
//!
//! - `detect`: the frequency-based guess for undeclared pages that are not UTF-8 (chardetng).
//!   Without it they get the fallback encoding (windows-1252 unless set).
//! - `url`: the document URL, base URL and URL-valued attributes resolved
//!   ([`ParseOptions::with_url`], [`Document::base_url`], [`ElementRef::abs_url`],
//!   [`Document::links`]; the `url` crate, with ICU's IDNA stack), and the command-line tool.
//! - `forms`: constraint validation ([`ElementRef::validity`], [`ElementRef::will_validate`],
//!   `:valid`, `:invalid`, `:in-range`, `:out-of-range`) and the `pattern` attribute
//!   (regress). Without it those four pseudo-classes are unsupported: [`Selector::parse`]
//!   refuses them with [`SelectorErrorKind::UnknownPseudoClass`]. The other form
//!   pseudo-classes (`:checked`, `:disabled`, `:required`, ...) and directionality (`:dir()`,
//!   with the small `unicode-bidi` table, always in) stay.
//! - `xpath`: XPath 1.0 ([`xpath`]).
//! - `xml`: XML parsing (quick-xml), XML serialization and infoset coercion ([`xml`]).
//!
//! # Safety on hostile input
//!
//! No `unsafe` code, no panics, no recursion on depth (a million nested elements are fine),
//! cost linear in the input on every shape we know of, and budgets for nodes and errors
//! ([`ParseOptions::max_nodes`], [`ParseOptions::max_errors`]). `Document` is `Send + Sync`.
//! The measurements are in `docs/BENCHMARKS.md`, the conformance results (every html5lib test
//! passes) in `docs/CONFORMANCE.md`.
//!
//! # How it works
//!
//! The parser follows the parsing chapter of the HTML Standard snapshot of 16 September 2026
//! (whatwg/html `d78d7dd`).
//!
//! ## The pipeline
//!
//! ```text
//! bytes ─► encoding sniffing ─► decoding ─► input stream ─► tokenizer ─► tree builder ─► Document
//!          (BOM, HTTP label,    (encoding_rs) (CR/LF, positions, (84 states) (21 insertion    │
//!           <meta> prescan,                    input errors)                 modes, foreign   ├─► select (CSS)
//!           default)                                                         content)         ├─► serialize
//!             ▲                                                                 │             ├─► text
//!             └───────── a late <meta charset> restarts the parse ─────────────┘             └─► mutation
//! ```
//!
//! Input comes whole (`&str`, `&[u8]`) or in chunks ([`Parser`]); any chunking gives the same
//! tree. Parse errors are data ([`Document::errors`]), never `Result`s: every input gives a
//! tree, as in a browser.
//!
//! ## The rooms, from the bottom up
//!
//! The map of the rooms (what each owns, what it may use) is `docs/ARCHITECTURE.md`; in
//! short, each room uses only the rooms listed before it:
//!
//! - [`error`]: parse error codes and positions.
//! - [`dom`]: the DOM Standard's tree: the [`Document`] arena, handles ([`NodeRef`],
//!   [`ElementRef`]), names, strings, attributes, mutation, comparison, source positions, and
//!   the hook point (the insertion, removing, children changed, post-connection and attribute
//!   change steps) through which the rooms above learn of mutations. It names no room above.
//! - [`encoding`]: which encoding turns the bytes into text (13.2.3).
//! - [`tokenizer`]: the tokenizer (13.2.5), public for streaming token-level processing.
//! - The query caches (private `query/`): the element index and document order, kept current
//!   through the hooks.
//! - [`html`]: the HTML Standard's element semantics on the hooks: forms and validity, the
//!   `select`/`option`/`selectedcontent` steps, directionality, languages, base URL and
//!   URL-valued attributes, rendered text.
//! - The tree builder (13.2.6, private) and the parser's entry points: tokens to nodes;
//!   [`Document::parse`], [`Document::parse_bytes`], [`Document::parse_fragment`], [`Parser`].
//! - [`select`]: CSS selectors over the arena.
//! - [`serialize`]: the serialization algorithm (13.3) and its options.
//! - [`xpath`]: XPath 1.0 over the arena, with the HTML Standard's rules for HTML documents.
//! - [`xml`]: XML parsing, serialization and infoset coercion.
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

// `parser` and `select` come first so that `Document`'s page lists `parse` and `select` before
// the accessors, mutation and dump methods (rustdoc keeps the order it meets impl blocks in).
pub mod dom;
pub mod encoding;
pub mod error;
pub mod html;
mod parser;
mod query;
pub mod select;
pub mod serialize;
pub mod stream;
pub mod tokenizer;
mod tree_builder;
#[cfg(feature = "xml")]
pub mod xml;
#[cfg(feature = "xpath")]
pub mod xpath;

pub use dom::names::{AttrNamespace, LocalName, Namespace, local_name};
pub use dom::{
    Document, ElementName, ElementRef, Limit, MutationError, NodeId, NodeKind, NodeRef, QuirksMode,
};
pub use encoding::{Confidence, EncodingError};
pub use error::{ErrorCode, ParseError};
pub use html::{Direction, ValidityState};
pub use parser::ParseOptions;
pub use parser::Parser;
pub use parser::{
    DEFAULT_MAX_SCRIPT_NESTING, ParserEvent, ScriptError, ScriptingParser, WriteEvent,
};
pub use select::{Selector, SelectorError, SelectorErrorKind};
pub use tree_builder::FragmentContextError;
#[cfg(feature = "url")]
pub use url::Url;
#[cfg(feature = "xpath")]
pub use xpath::{XNode, XPath, XPathError, XPathValue};

/// The README's examples, run as doctests (`cargo test --doc`; they use every room).
#[cfg(all(
    doctest,
    feature = "xml",
    feature = "xpath",
    feature = "url",
    feature = "forms"
))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
