//! Absolute URLs: the HTML Standard's base URL rules over the URL Standard's parser (the
//! [`url`] crate for every scheme but `file`, and this module's own "file state" for `file:`).
//!
//! - The document's URL is given when parsing ([`ParseOptions::with_url`]) or later
//!   ([`Document::set_url`]). A document without one is treated as `about:blank`, the URL of a
//!   document a browser makes with no address (so only fragment-only references such as `#top`
//!   resolve, to `about:blank#top`; every other relative reference fails to parse and is
//!   reported unchanged, as the `href` IDL getter does).
//! - [`Document::base_url`] is the HTML Standard's "document base URL" (section "URLs",
//!   "Terminology"): the frozen base URL of the first `base` element with an `href` attribute in
//!   tree order, wherever it is (in `head`, in `body`, nested); else the document's "fallback
//!   base URL", which is its URL (no `iframe srcdoc` or `about:blank` inheritance here: a
//!   standalone document has no parent browsing context).
//! - A `base` element's "frozen base URL" ("The `base` element", "set the frozen base URL"):
//!   its `href` parsed against the fallback base URL; if that fails, or gives a `data:` or
//!   `javascript:` URL, the fallback base URL instead.
//! - Attribute values resolve by "encoding-parsing a URL" (section "Parsing URLs"): the URL
//!   parser with the document base URL as base and the document's character encoding's output
//!   encoding for the query (UTF-8 for UTF-8 and UTF-16 documents).
//!
//! Resolution follows the URL Standard on every case of web-platform-tests'
//! `urltestdata.json` (`tests/url.rs`). The `url` crate (2.5.8) departs from it on `file:`
//! URLs in ways its [`Url`] type cannot hold (it drops a host before a Windows drive letter,
//! `file://server/C:/x`, and collapses a path's leading empty segments, `file:////server/share`),
//! so a `file:` input, and a relative input against a `file:` base, go through
//! [`FileUrl::parse`]: the basic URL parser's "file state" and the states after it, written
//! from the Standard, with hosts parsed by [`url::Host::parse`] and the Standard's
//! percent-encode sets (the `percent-encoding` crate). The result is the serialized string
//! that [`ElementRef::abs_url`] and [`Document::links`] return; a `file:` base from a
//! `<base href>` is kept as the Standard's record, so links against a page saved from a
//! Windows share resolve with their host. What returns a [`Url`] ([`Document::base_url`],
//! [`Document::resolve_url`]) gives the crate's reading of such a URL. (Ada, a C++ parser
//! with Rust bindings that passes the same tests, was the other choice: it needs a C++
//! compiler wherever the crate builds, about a minute of build, and a second URL parser for
//! what is a few hundred lines of one scheme.)
//!
//! Outside WPT, a differential run against Ada on 100,000 generated inputs and bases found
//! two more departures of the `url` crate that an input can be written around (a leading `\`
//! against a base whose scheme is not special, see [`non_special_backslash`], and a `^` after
//! three leading slashes) and three it keeps: `..` after a segment that looks like a Windows
//! drive letter (`C|`, `C:`) in a URL that is not `file:` does not remove it (`/C|/..` against
//! `https://h/` gives `https://h/C|/`, not `https://h/`); a port that is not a number in a URL
//! whose scheme is not special is accepted; and hosts with `xn--` labels that the crate's IDNA
//! rejects and Ada accepts.
//!
//! The base URL is computed from the tree on first use and kept until the next mutation (every
//! mutation drops it, as it drops the selector index), so resolution always follows the
//! current tree: a `base` element added, removed or changed changes the result.
//!
//! [`ParseOptions::with_url`]: crate::ParseOptions::with_url

use std::borrow::Cow;

use percent_encoding::{AsciiSet, CONTROLS, percent_encode, utf8_percent_encode};
use url::Url;

use super::names::{Namespace, local_name};
use super::{Document, NodeData};
use crate::dom::ElementRef;

/// `about:blank`: the URL of a document that was given none.
fn about_blank() -> Url {
    // A constant, valid absolute-URL string: parsing it cannot fail.
    Url::parse("about:blank").unwrap_or_else(|_| unreachable!("about:blank is a valid URL"))
}

impl Document {
    /// The document's URL, if one was given ([`ParseOptions::with_url`] or
    /// [`Document::set_url`]).
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions, Url};
    ///
    /// assert!(Document::parse("<p>").url().is_none());
    /// let options = ParseOptions::default().with_url(Url::parse("https://example.com/a").unwrap());
    /// let doc = Document::parse_with("<p>", &options);
    /// assert_eq!(doc.url().map(Url::as_str), Some("https://example.com/a"));
    /// ```
    ///
    /// [`ParseOptions::with_url`]: crate::ParseOptions::with_url
    pub fn url(&self) -> Option<&Url> {
        self.url.as_deref()
    }

    /// Sets (or clears) the document's URL. Base URL resolution follows it from now on.
    ///
    /// ```
    /// use html_arena::{Document, Url};
    ///
    /// let mut doc = Document::parse("<a href=x>");
    /// doc.set_url(Some(Url::parse("https://example.com/dir/page").unwrap()));
    /// assert_eq!(doc.base_url().as_str(), "https://example.com/dir/page");
    /// ```
    pub fn set_url(&mut self, url: Option<Url>) {
        self.url = url.map(Box::new);
        self.html_tree_changed();
    }

    /// The HTML Standard's "fallback base URL": the document's URL, or `about:blank` when it
    /// has none.
    pub fn fallback_base_url(&self) -> Url {
        match &self.url {
            Some(url) => (**url).clone(),
            None => about_blank(),
        }
    }

    /// The HTML Standard's "document base URL": the frozen base URL of the first `base`
    /// element (HTML namespace) with an `href` attribute in tree order, else the fallback
    /// base URL ([`Document::fallback_base_url`]). Computed from the current tree (one walk,
    /// then kept until the next mutation).
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions, Url};
    ///
    /// let options = ParseOptions::default().with_url(Url::parse("https://example.com/a/b").unwrap());
    /// let doc = Document::parse_with("<base href='../c/'><a href=d>", &options);
    /// assert_eq!(doc.base_url().as_str(), "https://example.com/c/");
    ///
    /// // A `data:` or `javascript:` base is ignored (the fallback is used).
    /// let doc = Document::parse_with("<base href='data:text/html,'>", &options);
    /// assert_eq!(doc.base_url().as_str(), "https://example.com/a/b");
    /// ```
    pub fn base_url(&self) -> &Url {
        &self.base().url
    }

    /// The document base URL as resolution uses it (with the URL Standard's record of a
    /// `file:` base, which [`Url`] cannot always hold).
    fn base(&self) -> &BaseUrl {
        let compute = || {
            let fallback = self.fallback_base();
            match self.first_base_with_href() {
                Some(href) => frozen_base_url(href, &fallback, self),
                None => fallback,
            }
        };
        match self.html_state() {
            Some(state) => state.base_url.get_or_init(compute),
            // (The slot holds this room's type: not reached.)
            None => {
                static ABOUT_BLANK: std::sync::OnceLock<BaseUrl> = std::sync::OnceLock::new();
                ABOUT_BLANK.get_or_init(|| BaseUrl::from_url(about_blank()))
            }
        }
    }

    /// The fallback base URL ([`Document::fallback_base_url`]) as resolution uses it.
    fn fallback_base(&self) -> BaseUrl {
        BaseUrl::from_url(self.fallback_base_url())
    }

    /// Resolves `input` against the document base URL, as the HTML Standard's "encoding-parsing
    /// a URL" does (the query is encoded with the document's output encoding).
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions, Url};
    ///
    /// let options = ParseOptions::default().with_url(Url::parse("http://example.com/a/").unwrap());
    /// let doc = Document::parse_with("", &options);
    /// assert_eq!(doc.resolve_url(" ..\\b?q#f\n").unwrap().as_str(), "http://example.com/b?q#f");
    /// assert!(doc.resolve_url("http://[::1").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// The URL parser's error when `input` does not parse against the base URL.
    pub fn resolve_url(&self, input: &str) -> Result<Url, url::ParseError> {
        encoding_parse(input, self.base(), self)?.into_url()
    }

    /// The hyperlinks of the document, in tree order: the HTML `a` and `area` elements with an
    /// `href` attribute (the DOM's `document.links`; template contents are not in the
    /// document), each with its `href` resolved as [`ElementRef::abs_url`] does.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions, Url};
    ///
    /// let options = ParseOptions::default().with_url(Url::parse("https://example.com/dir/").unwrap());
    /// let doc = Document::parse_with("<a href=one>1</a><a>no</a><map><area href='/two'></map>", &options);
    /// let links: Vec<String> = doc.links().map(|(_, url)| url.into_owned()).collect();
    /// assert_eq!(links, ["https://example.com/dir/one", "https://example.com/two"]);
    /// ```
    pub fn links(&self) -> impl Iterator<Item = (ElementRef<'_>, Cow<'_, str>)> + '_ {
        let base = self.base();
        self.root().descendants().filter_map(move |n| {
            let e = n.as_element()?;
            if !(e.is_html(local_name::A) || e.is_html(local_name::AREA)) {
                return None;
            }
            let href = e.attr_by_name(local_name::HREF)?;
            Some((e, resolve_or_raw(href, base, self)))
        })
    }

    /// The `href` value of the first HTML `base` element with one, in tree order.
    fn first_base_with_href(&self) -> Option<&str> {
        // (An iterative walk over the document's tree; template contents are not in it.)
        self.root().descendants().find_map(|n| match n.data() {
            NodeData::Element(e) if e.ns == Namespace::Html && e.name == local_name::BASE => {
                n.as_element()?.attr_by_name(local_name::HREF)
            }
            _ => None,
        })
    }
}

impl<'a> ElementRef<'a> {
    /// The value of the URL-valued attribute `name` (no namespace) resolved against the
    /// document base URL: what the `href`, `src` and similar IDL getters return. `None` when
    /// the element has no such attribute; the value unchanged (borrowed) when it does not
    /// parse as a URL; else the resolved URL's serialization (owned).
    ///
    /// A `base` element's own `href` resolves against the document's fallback base URL (the
    /// `base` element's `href` IDL getter), not against itself.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use html_arena::{Document, ParseOptions, Selector, Url};
    ///
    /// let options = ParseOptions::default().with_url(Url::parse("https://example.com/a/b.html").unwrap());
    /// let doc = Document::parse_with("<img src='c d.png'><a href='https://[bad'></a><p>", &options);
    /// let img = doc.select(&Selector::parse("img").unwrap()).next().unwrap();
    /// assert_eq!(img.abs_url("src").as_deref(), Some("https://example.com/a/c%20d.png"));
    /// let a = doc.select(&Selector::parse("a").unwrap()).next().unwrap();
    /// assert_eq!(a.abs_url("href"), Some(Cow::Borrowed("https://[bad")));
    /// assert_eq!(a.abs_url("title"), None);
    /// ```
    pub fn abs_url(self, name: &str) -> Option<Cow<'a, str>> {
        let value = self.attr(name)?;
        let doc = self.document();
        if self.is_html(local_name::BASE) && name == "href" {
            // The `base` element's `href` getter: parse against the fallback base URL.
            let fallback = doc.fallback_base();
            return Some(resolve_or_raw(value, &fallback, doc));
        }
        Some(resolve_or_raw(value, doc.base(), doc))
    }
}

/// "Set the frozen base URL" (The `base` element), steps 2 and 3: `href` parsed against the
/// fallback base URL; the fallback itself on failure and for `data:` and `javascript:` URLs.
/// (Step 3's "Is base allowed for Document?" is a Content Security Policy check; there is no
/// policy here.)
///
/// A `file:` base keeps the URL Standard's record (for resolution) beside the `url` crate's
/// reading of it (for [`Document::base_url`]).
fn frozen_base_url(href: &str, fallback: &BaseUrl, doc: &Document) -> BaseUrl {
    match encoding_parse(href, fallback, doc) {
        Ok(Resolved::Url(url)) if url.scheme() != "data" && url.scheme() != "javascript" => {
            BaseUrl { url, file: None }
        }
        // A serialization the `url` crate cannot read back: the fallback for both, so that
        // `base_url()` and resolution agree.
        Ok(Resolved::File(file)) => match Url::parse(&file.serialize()) {
            Ok(url) => BaseUrl {
                url,
                file: Some(file),
            },
            Err(_) => fallback.clone(),
        },
        _ => fallback.clone(),
    }
}

/// `input` resolved against `base`, serialized; `input` itself when it does not parse.
fn resolve_or_raw<'a>(input: &'a str, base: &BaseUrl, doc: &Document) -> Cow<'a, str> {
    match encoding_parse(input, base, doc) {
        Ok(url) => Cow::Owned(url.into_string()),
        Err(_) => Cow::Borrowed(input),
    }
}

/// A URL as resolution produces it: the `url` crate's [`Url`] for every scheme but `file`,
/// this module's [`FileUrl`] for `file:` (which [`Url`] cannot always hold).
enum Resolved {
    Url(Url),
    File(FileUrl),
}

impl Resolved {
    /// The URL serializer's output.
    fn into_string(self) -> String {
        match self {
            Resolved::Url(url) => url.into(),
            Resolved::File(file) => file.serialization,
        }
    }

    /// As the `url` crate's type (a `file:` URL as the crate reads its serialization; it may
    /// drop a host before a drive letter or collapse leading empty path segments).
    fn into_url(self) -> Result<Url, url::ParseError> {
        match self {
            Resolved::Url(url) => Ok(url),
            Resolved::File(file) => Url::parse(&file.serialize()),
        }
    }
}

/// "Encoding-parsing a URL" (Parsing URLs): the URL parser with `base` and the document's
/// character encoding's output encoding (UTF-8 for UTF-16 documents) for the query.
///
/// A `file:` input, and any input without a scheme against a `file:` base, is parsed by
/// [`FileUrl::parse`] (the URL Standard's "file state" and the states after it); every other
/// input by the `url` crate, corrected where it departs from the Standard in ways an input can
/// express (see [`standard_input`] and [`collapse_leading_slashes`]; the cost is one scan of
/// the input for `^` or spaces, and a second parse only when one of them, or a failure, needs
/// it).
fn encoding_parse(
    input: &str,
    base: &BaseUrl,
    doc: &Document,
) -> Result<Resolved, url::ParseError> {
    let encoding = doc.encoding.output_encoding();
    match scheme_kind(input) {
        SchemeKind::File => {
            return FileUrl::parse(input, true, base.file.as_ref(), encoding).map(Resolved::File);
        }
        SchemeKind::None if base.file.is_some() => {
            return FileUrl::parse(input, false, base.file.as_ref(), encoding).map(Resolved::File);
        }
        _ => {}
    }
    let base = &base.url;
    let input = match non_special_backslash(input, base) {
        Some(fixed) => Cow::Owned(fixed),
        None => Cow::Borrowed(input),
    };
    let (input, url) = match encoding_parse_once(&input, base, encoding) {
        Ok(url) => (input, url),
        Err(error) => {
            let fixed = collapse_leading_slashes(&input, base).ok_or(error)?;
            let url = encoding_parse_once(&fixed, base, encoding).map_err(|_| error)?;
            (Cow::Owned(fixed), url)
        }
    };
    Ok(Resolved::Url(match standard_input(&input, &url) {
        Some(fixed) => encoding_parse_once(&fixed, base, encoding).unwrap_or(url),
        None => url,
    }))
}

/// The basic URL parser's preprocessing: leading and trailing C0 controls and spaces
/// stripped, ASCII tabs and newlines removed.
fn preprocess(input: &str) -> String {
    input
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

/// What the basic URL parser's "scheme start state" and "scheme state" find at the start of
/// an input.
#[derive(PartialEq)]
enum SchemeKind {
    /// The scheme `file` (any case).
    File,
    /// Another scheme.
    Other,
    /// No scheme: the "no scheme state" (a relative reference).
    None,
}

/// The scheme of `input` (after the preprocessing: leading C0 controls and spaces skipped,
/// tabs and newlines ignored), without allocating: an ASCII alpha, then ASCII alphanumerics,
/// `+`, `-` or `.`, up to a `:`.
fn scheme_kind(input: &str) -> SchemeKind {
    let bytes = input
        .trim_start_matches(|c: char| c <= ' ')
        .bytes()
        .filter(|b| !matches!(b, b'\t' | b'\n' | b'\r'));
    let mut file = true;
    for (len, b) in bytes.enumerate() {
        let ok = if len == 0 {
            b.is_ascii_alphabetic()
        } else {
            b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
        };
        if !ok {
            return if b == b':' && len > 0 {
                if file && len == 4 {
                    SchemeKind::File
                } else {
                    SchemeKind::Other
                }
            } else {
                SchemeKind::None
            };
        }
        file &= b"file".get(len).is_some_and(|f| b.eq_ignore_ascii_case(f));
    }
    SchemeKind::None
}

/// Two changes of the URL Standard the `url` crate (2.5) does not have yet, for an input it
/// parsed to `url`; returns the input written so that the crate gives the Standard's URL:
/// - the path percent-encode set includes U+005E (^) (a `^` in a path is written `%5E`): each
///   `^` before the first `?` or `#` of an input whose URL has a path that is not opaque
///   (one that parsed has no `^` in its host, where `^` is forbidden, and the crate already
///   encodes it in the userinfo);
/// - an opaque path's trailing space is written `%20` when a query or fragment follows
///   ("opaque path state", and "shorten"'s rule that trailing spaces of an opaque path are
///   not stripped).
fn standard_input(input: &str, url: &Url) -> Option<String> {
    let opaque = url.cannot_be_a_base();
    if !input.contains(if opaque { ' ' } else { '^' }) {
        return None;
    }
    let cleaned = preprocess(input);
    let end = cleaned.find(['?', '#']).unwrap_or(cleaned.len());
    let (head, tail) = cleaned.split_at(end);
    if opaque {
        let kept = head.strip_suffix(' ').filter(|_| !tail.is_empty())?;
        Some(format!("{kept}%20{tail}"))
    } else {
        head.contains('^')
            .then(|| format!("{}{tail}", head.replace('^', "%5E")))
    }
}

/// The `url` crate (2.5) rejects a scheme-less input starting with three or more slashes
/// against a special base (`///host/p` against `http://example.org/`), where the URL
/// Standard's "special authority ignore slashes state" skips every leading `/` and `\` and
/// reads the host after them (`http://host/p`, as browsers do). On such a failure the input
/// is retried with its leading slashes cut to two, which is the same URL by that state.
fn collapse_leading_slashes(input: &str, base: &Url) -> Option<String> {
    if !matches!(base.scheme(), "http" | "https" | "ws" | "wss" | "ftp") {
        return None;
    }
    let cleaned = preprocess(input);
    let rest = cleaned.trim_start_matches(['/', '\\']);
    (cleaned.len() - rest.len() >= 3).then(|| format!("//{rest}"))
}

/// The `url` crate (2.5) reads a `\` at the start of a relative reference against a base
/// with a scheme that is not special (`sc://x/`), or right after its first `/`, as a `/` (a
/// path from the root, or an authority), where for such a URL the URL Standard's "relative
/// state" and "relative slash state" take `\` as a code point of the path (`sc://x/d/\a`
/// for `\a` against `sc://x/d/f`, `sc://x/\a` for `/\a`). Returns the input written
/// `./\...` or `/./\...`, the same URL by those states (a single-dot segment followed by `/`
/// adds nothing), which the crate reads right.
fn non_special_backslash(input: &str, base: &Url) -> Option<String> {
    if base.cannot_be_a_base()
        || matches!(
            base.scheme(),
            "http" | "https" | "ws" | "wss" | "ftp" | "file"
        )
        || scheme_kind(input) != SchemeKind::None
    {
        return None;
    }
    let cleaned = preprocess(input);
    if cleaned.starts_with('\\') {
        Some(format!("./{cleaned}"))
    } else {
        cleaned
            .strip_prefix("/\\")
            .map(|rest| format!("/./\\{rest}"))
    }
}

/// One run of the URL parser for [`encoding_parse`].
fn encoding_parse_once(
    input: &str,
    base: &Url,
    encoding: &'static encoding_rs::Encoding,
) -> Result<Url, url::ParseError> {
    let options = Url::options().base_url(Some(base));
    if encoding == encoding_rs::UTF_8 {
        return options.parse(input);
    }
    // The query's bytes, with the Standard's `%26%23...%3B` for an unmappable code point.
    let encode: &dyn Fn(&str) -> Cow<'_, [u8]> = &|s| Cow::Owned(encode_query(s, encoding));
    options.encoding_override(Some(encode)).parse(input)
}

/// The document base URL as resolution uses it: the `url` crate's [`Url`] (what
/// [`Document::base_url`] returns) and, for a `file:` base, the URL Standard's record of it,
/// which [`Url`] cannot always hold (a host before a drive letter, leading empty segments).
#[derive(Clone)]
pub(crate) struct BaseUrl {
    url: Url,
    file: Option<FileUrl>,
}

impl BaseUrl {
    /// A base given as a [`Url`] (the document's URL): a `file:` one as the crate holds it.
    fn from_url(url: Url) -> BaseUrl {
        let file = (url.scheme() == "file").then(|| FileUrl::from_url(&url));
        BaseUrl { url, file }
    }
}

/// A `file:` URL record of the URL Standard ("URL representation"), kept serialized: the
/// scheme is `file`, the host is never null (the empty host is `""`), there are no
/// credentials or port, and the path is a list of segments (never opaque), each written as
/// `/` and the segment.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FileUrl {
    /// The URL serializer's output ("URL serializing"): `file://`, the host, the path, `?`
    /// and the query, `#` and the fragment. (A `file:` URL's host is never null, so the `/.`
    /// that keeps a leading empty segment of a host-less path is never needed.)
    serialization: String,
    /// Where the path starts (the host ends).
    host_end: usize,
    /// Where the path ends (the `?` of the query, the `#` of the fragment, or the end).
    path_end: usize,
    /// Where the query ends (the `#` of the fragment, or the end).
    query_end: usize,
}

/// The C0 control percent-encode set (`CONTROLS` is U+0000 to U+001F and U+007F; the
/// `percent-encoding` crate encodes every non-ASCII byte).
const C0_CONTROL: &AsciiSet = CONTROLS;
/// The fragment percent-encode set.
const FRAGMENT: &AsciiSet = &C0_CONTROL.add(b' ').add(b'"').add(b'<').add(b'>').add(b'`');
/// The query percent-encode set.
const QUERY: &AsciiSet = &C0_CONTROL.add(b' ').add(b'"').add(b'#').add(b'<').add(b'>');
/// The special-query percent-encode set (`file` is a special scheme).
const SPECIAL_QUERY: &AsciiSet = &QUERY.add(b'\'');
/// The path percent-encode set.
const PATH: &AsciiSet = &QUERY.add(b'?').add(b'^').add(b'`').add(b'{').add(b'}');

/// The states of the basic URL parser that a `file:` URL goes through.
#[derive(Clone, Copy)]
enum FileState {
    File,
    FileSlash,
    FileHost,
    PathStart,
    Path,
    Query,
}

impl FileUrl {
    /// The record of a `file:` [`Url`] (whose serialization is already a `file:` URL's).
    fn from_url(url: &Url) -> FileUrl {
        let serialization = url.as_str().to_owned();
        let host_end = 7 + url.host_str().map_or(0, str::len);
        let path_end = host_end + url.path().len();
        let query_end = path_end + url.query().map_or(0, |q| q.len() + 1);
        FileUrl {
            serialization,
            host_end,
            path_end,
            query_end,
        }
    }

    /// The URL serializer's output.
    pub(crate) fn serialize(&self) -> String {
        self.serialization.clone()
    }

    /// The basic URL parser (URL Standard, "URL parsing") from the "file state" on, for an
    /// input whose scheme is `file` (`has_scheme`: it starts with `file:`, and the parser
    /// starts after the colon) or that has no scheme against a `file:` base (the "no scheme
    /// state" goes to the "file state" at the first code point). `base` is the base URL when
    /// it is a `file:` URL. Hosts are parsed by the `url` crate's host parser ("host
    /// parsing", special); validation errors are not reported (they do not change the result).
    ///
    /// The states' buffers are slices of the input (a host, a path segment and the query are
    /// each a run of the input without `/`, `\`, `?` or `#`), percent-encoded as they are
    /// appended to the serialization; one string is built.
    ///
    /// # Errors
    ///
    /// The host parser's error (the only failure these states have).
    fn parse(
        input: &str,
        has_scheme: bool,
        base: Option<&FileUrl>,
        encoding: &'static encoding_rs::Encoding,
    ) -> Result<FileUrl, url::ParseError> {
        let input = preprocess_cow(input);
        let input = input.as_ref();
        let mut pointer = if has_scheme {
            input.find(':').map_or(input.len(), |i| i + 1)
        } else {
            0
        };
        let mut out = String::with_capacity(input.len() + 16);
        out.push_str("file://");
        let mut url = FileUrl {
            host_end: out.len(),
            path_end: 0,
            query_end: 0,
            serialization: out,
        };
        let mut state = FileState::File;
        // Where the state's buffer starts in the input.
        let mut buffer = pointer;
        // Each state either consumes `c` or moves on to a later state without consuming it
        // ("decrease pointer by 1"): File, FileSlash, FileHost and PathStart only go forward,
        // so the loop runs at most four more times than the input has code points.
        loop {
            let c = input[pointer..].chars().next();
            let mut again = false;
            match state {
                // "file state"
                FileState::File => {
                    if matches!(c, Some('/' | '\\')) {
                        state = FileState::FileSlash;
                    } else if let Some(base) = base {
                        // The base's host, path and query.
                        url.serialization.clear();
                        url.serialization
                            .push_str(&base.serialization[..base.query_end]);
                        url.host_end = base.host_end;
                        match c {
                            Some('?') => {
                                url.serialization.truncate(base.path_end);
                                url.path_end = base.path_end;
                                url.serialization.push('?');
                                state = FileState::Query;
                                buffer = pointer + 1;
                            }
                            Some('#') => {
                                url.path_end = base.path_end;
                                url.query_end = base.query_end;
                                return Ok(url.with_fragment(&input[pointer + 1..]));
                            }
                            Some(_) => {
                                url.serialization.truncate(base.path_end);
                                if starts_with_windows_drive_letter(&input[pointer..]) {
                                    url.serialization.truncate(url.host_end);
                                } else {
                                    url.shorten_path();
                                }
                                state = FileState::Path;
                                buffer = pointer;
                                again = true;
                            }
                            None => {
                                url.path_end = base.path_end;
                                url.query_end = base.query_end;
                            }
                        }
                    } else {
                        state = FileState::Path;
                        buffer = pointer;
                        again = true;
                    }
                }
                // "file slash state"
                FileState::FileSlash => {
                    if matches!(c, Some('/' | '\\')) {
                        state = FileState::FileHost;
                        buffer = pointer + 1;
                    } else {
                        if let Some(base) = base {
                            url.serialization
                                .push_str(&base.serialization[7..base.host_end]);
                            url.host_end = base.host_end;
                            let first = base.path().split('/').nth(1).unwrap_or("");
                            if !starts_with_windows_drive_letter(&input[pointer..])
                                && is_windows_drive_letter(first, true)
                            {
                                url.serialization.push('/');
                                url.serialization.push_str(first);
                            }
                        }
                        state = FileState::Path;
                        buffer = pointer;
                        again = true;
                    }
                }
                // "file host state"
                FileState::FileHost => {
                    if matches!(c, None | Some('/' | '\\' | '?' | '#')) {
                        again = true;
                        let host = &input[buffer..pointer];
                        if is_windows_drive_letter(host, false) {
                            // The buffer is kept: the path state reads it as the first segment.
                            state = FileState::Path;
                        } else {
                            if !host.is_empty() {
                                let host = url::Host::parse(host)?;
                                if !matches!(&host, url::Host::Domain(d) if d == "localhost") {
                                    use std::fmt::Write;
                                    let _ = write!(url.serialization, "{host}");
                                }
                            }
                            url.host_end = url.serialization.len();
                            state = FileState::PathStart;
                        }
                    }
                }
                // "path start state" (`file` is special)
                FileState::PathStart => {
                    state = FileState::Path;
                    again = !matches!(c, Some('/' | '\\'));
                    buffer = if again { pointer } else { pointer + 1 };
                }
                // "path state"
                FileState::Path => {
                    if matches!(c, None | Some('/' | '\\' | '?' | '#')) {
                        let segment = &input[buffer..pointer];
                        let slash = matches!(c, Some('/' | '\\'));
                        if is_double_dot_segment(segment) {
                            url.shorten_path();
                            if !slash {
                                url.serialization.push('/');
                            }
                        } else if is_single_dot_segment(segment) {
                            if !slash {
                                url.serialization.push('/');
                            }
                        } else {
                            let first = url.serialization.len() == url.host_end;
                            url.serialization.push('/');
                            if first && is_windows_drive_letter(segment, false) {
                                url.serialization.push_str(&segment[..1]);
                                url.serialization.push(':');
                            } else {
                                url.serialization.extend(utf8_percent_encode(segment, PATH));
                            }
                        }
                        buffer = pointer + 1;
                        if c == Some('?') {
                            url.path_end = url.serialization.len();
                            url.serialization.push('?');
                            state = FileState::Query;
                        } else if c == Some('#') {
                            url.path_end = url.serialization.len();
                            url.query_end = url.path_end;
                            return Ok(url.with_fragment(&input[pointer + 1..]));
                        }
                    }
                }
                // "query state"
                FileState::Query => {
                    if matches!(c, None | Some('#')) {
                        let query = &input[buffer..pointer];
                        percent_encode_after_encoding(query, encoding, &mut url.serialization);
                        url.query_end = url.serialization.len();
                        if c.is_some() {
                            return Ok(url.with_fragment(&input[pointer + 1..]));
                        }
                    }
                }
            }
            if again {
                continue;
            }
            let Some(c) = c else {
                break;
            };
            pointer += c.len_utf8();
        }
        if matches!(state, FileState::Path) {
            url.path_end = url.serialization.len();
            url.query_end = url.path_end;
        }
        Ok(url)
    }

    /// The path (each segment written `/` and the segment).
    fn path(&self) -> &str {
        &self.serialization[self.host_end..self.path_end]
    }

    /// The end of the parse: `#` and the "fragment state"'s output for `rest`, the input
    /// after the `#`, appended (the path and query ends are already set).
    fn with_fragment(mut self, rest: &str) -> FileUrl {
        self.serialization.push('#');
        self.serialization
            .extend(utf8_percent_encode(rest, FRAGMENT));
        self
    }

    /// "Shorten a URL's path" (while the path ends the serialization): the last segment
    /// removed, unless the path is a lone normalized Windows drive letter.
    fn shorten_path(&mut self) {
        let path = &self.serialization[self.host_end..];
        if path
            .strip_prefix('/')
            .is_some_and(|p| is_windows_drive_letter(p, true))
        {
            return;
        }
        if let Some(i) = path.rfind('/') {
            self.serialization.truncate(self.host_end + i);
        }
    }
}

/// [`preprocess`], borrowing the input when nothing is removed from inside it.
fn preprocess_cow(input: &str) -> Cow<'_, str> {
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    if trimmed.contains(['\t', '\n', '\r']) {
        Cow::Owned(preprocess(trimmed))
    } else {
        Cow::Borrowed(trimmed)
    }
}

/// "Windows drive letter": an ASCII alpha then `:` or `|` (only `:` if `normalized`).
fn is_windows_drive_letter(s: &str, normalized: bool) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && b[0].is_ascii_alphabetic() && (b[1] == b':' || (!normalized && b[1] == b'|'))
}

/// "Starts with a Windows drive letter": a Windows drive letter, then the end or one of
/// `/`, `\`, `?`, `#`.
fn starts_with_windows_drive_letter(s: &str) -> bool {
    let s = s.as_bytes();
    s.len() >= 2
        && s[0].is_ascii_alphabetic()
        && matches!(s[1], b':' | b'|')
        && s.get(2)
            .is_none_or(|c| matches!(c, b'/' | b'\\' | b'?' | b'#'))
}

/// "Single-dot URL path segment": `.` or `%2e` (any case).
fn is_single_dot_segment(s: &str) -> bool {
    s == "." || s.eq_ignore_ascii_case("%2e")
}

/// "Double-dot URL path segment": `..`, with either dot written `%2e` (any case).
fn is_double_dot_segment(s: &str) -> bool {
    let rest = match s.strip_prefix('.') {
        Some(rest) => rest,
        None if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("%2e")) => &s[3..],
        None => return false,
    };
    is_single_dot_segment(rest)
}

/// "Percent-encode after encoding" with the special-query percent-encode set: `input`
/// encoded with `encoding` ([`encode_query`]), every byte in the set percent-encoded.
fn percent_encode_after_encoding(
    input: &str,
    encoding: &'static encoding_rs::Encoding,
    out: &mut String,
) {
    if encoding == encoding_rs::UTF_8 {
        out.extend(utf8_percent_encode(input, SPECIAL_QUERY));
    } else {
        out.extend(percent_encode(
            &encode_query(input, encoding),
            SPECIAL_QUERY,
        ));
    }
}

/// The encoding half of "percent-encode after encoding": `input` encoded with `encoding`,
/// a code point the encoding cannot express written as `%26%23`, its decimal number and
/// `%3B` (the Standard's "encode or fail" error step; `%` is in no query percent-encode set,
/// so these bytes come out unchanged).
fn encode_query(input: &str, encoding: &'static encoding_rs::Encoding) -> Vec<u8> {
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::with_capacity(input.len());
    let mut rest = input;
    let mut bytes = [0; 64];
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(rest, &mut bytes, true);
        out.extend_from_slice(&bytes[..written]);
        rest = &rest[read..];
        match result {
            encoding_rs::EncoderResult::InputEmpty => return out,
            encoding_rs::EncoderResult::OutputFull => {}
            encoding_rs::EncoderResult::Unmappable(c) => {
                out.extend_from_slice(format!("%26%23{}%3B", u32::from(c)).as_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    /// The `file:` parser on generated inputs against generated bases: it never panics, and
    /// what it gives parses again to itself (the URL Standard's serializer and parser
    /// round-trip), as the Standard's records do.
    #[test]
    fn file_urls_generated_inputs_round_trip() {
        const PIECES: &[&str] = &[
            "file:",
            "FILE:",
            "/",
            "\\",
            "C",
            "|",
            ":",
            ".",
            "..",
            "%2e",
            "%2E.",
            "?",
            "#",
            "localhost",
            "h",
            " ",
            "^",
            "\u{e9}",
            "C:",
            "c|",
            "[::1]",
            "1.2.3.4",
            "%41",
            "a b",
            "{",
            "`",
            "'",
            "\"",
            "%",
            "0x7f.1",
            "\t",
            "\n",
            "//",
            "///",
            "\u{ad}",
            "\0",
            "\u{1f600}",
            "@",
        ];
        let bases: Vec<Option<FileUrl>> = [
            None,
            Some("file:///C:/a/b"),
            Some("file://h/C:/x/y?q#f"),
            Some("file:////s/share/d/"),
        ]
        .into_iter()
        .map(|b| b.map(|b| FileUrl::parse(b, true, None, encoding_rs::UTF_8).unwrap()))
        .collect();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let (mut parsed, mut failed) = (0, 0);
        for _ in 0..20_000 {
            let mut input = String::new();
            for _ in 0..=next(8) {
                input.push_str(PIECES[next(PIECES.len())]);
            }
            let base = bases[next(bases.len())].as_ref();
            let has_scheme = scheme_kind(&input) == SchemeKind::File;
            if !has_scheme && base.is_none() {
                continue;
            }
            match FileUrl::parse(&input, has_scheme, base, encoding_rs::UTF_8) {
                Ok(url) => {
                    let again = FileUrl::parse(&url.serialization, true, None, encoding_rs::UTF_8)
                        .unwrap_or_else(|e| panic!("{input:?}: {} fails: {e}", url.serialization));
                    assert_eq!(again, url, "{input:?}");
                    parsed += 1;
                }
                Err(_) => failed += 1,
            }
        }
        assert!(
            parsed > 5_000 && failed > 100,
            "{parsed} parsed, {failed} failed"
        );
    }

    #[test]
    fn no_url_is_about_blank() {
        let doc = Document::parse("<a href=x></a><a href='#top'></a>");
        assert_eq!(doc.base_url().as_str(), "about:blank");
        let links: Vec<_> = doc.links().map(|(_, u)| u.into_owned()).collect();
        assert_eq!(links, ["x", "about:blank#top"]);
    }

    #[test]
    fn query_uses_the_document_encoding() {
        let options = ParseOptions::default().with_url(Url::parse("http://example.com/").unwrap());
        let doc = Document::parse_bytes(b"<meta charset=windows-1252><a href='?q=\xe9'>", &options)
            .unwrap();
        let (_, url) = doc.links().next().unwrap();
        assert_eq!(url, "http://example.com/?q=%E9");
        let doc = Document::parse_with("<a href='?q=\u{e9}'>", &options);
        let (_, url) = doc.links().next().unwrap();
        assert_eq!(url, "http://example.com/?q=%C3%A9");
    }
}
