//! Absolute URLs: the HTML Standard's base URL rules over the URL Standard's parser (the
//! [`url`] crate).
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
//! The base URL is computed from the tree on first use and kept until the next mutation (every
//! mutation drops it, as it drops the selector index), so resolution always follows the
//! current tree: a `base` element added, removed or changed changes the result.
//!
//! [`ParseOptions::with_url`]: crate::ParseOptions::with_url

use std::borrow::Cow;

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
        let compute = || {
            let fallback = self.fallback_base_url();
            match self.first_base_with_href() {
                Some(href) => frozen_base_url(href, &fallback, self),
                None => fallback,
            }
        };
        match self.html_state() {
            Some(state) => state.base_url.get_or_init(compute),
            // (The slot holds this room's type: not reached.)
            None => {
                static ABOUT_BLANK: std::sync::OnceLock<Url> = std::sync::OnceLock::new();
                ABOUT_BLANK.get_or_init(about_blank)
            }
        }
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
        encoding_parse(input, self.base_url(), self)
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
        let base = self.base_url();
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
            let fallback = doc.fallback_base_url();
            return Some(resolve_or_raw(value, &fallback, doc));
        }
        Some(resolve_or_raw(value, doc.base_url(), doc))
    }
}

/// "Set the frozen base URL" (The `base` element), steps 2 and 3: `href` parsed against the
/// fallback base URL; the fallback itself on failure and for `data:` and `javascript:` URLs.
/// (Step 3's "Is base allowed for Document?" is a Content Security Policy check; there is no
/// policy here.)
fn frozen_base_url(href: &str, fallback: &Url, doc: &Document) -> Url {
    match encoding_parse(href, fallback, doc) {
        Ok(url) if url.scheme() != "data" && url.scheme() != "javascript" => url,
        _ => fallback.clone(),
    }
}

/// `input` resolved against `base`, serialized; `input` itself when it does not parse.
fn resolve_or_raw<'a>(input: &'a str, base: &Url, doc: &Document) -> Cow<'a, str> {
    match encoding_parse(input, base, doc) {
        Ok(url) => Cow::Owned(String::from(url)),
        Err(_) => Cow::Borrowed(input),
    }
}

/// "Encoding-parsing a URL" (Parsing URLs): the URL parser with `base` and the document's
/// character encoding's output encoding (UTF-8 for UTF-16 documents) for the query.
///
/// The input is corrected where the `url` crate (2.5) departs from the URL Standard in ways
/// an input can express (see [`windows_drive_letter_pipe`], [`standard_input`] and
/// [`collapse_leading_slashes`]); the cost is one scan of the input for `|`, `^` and
/// spaces, and a second parse only when one of them (or a failure) needs it.
fn encoding_parse(input: &str, base: &Url, doc: &Document) -> Result<Url, url::ParseError> {
    let fixed = windows_drive_letter_pipe(input, base);
    let input = fixed.as_deref().unwrap_or(input);
    match encoding_parse_once(input, base, doc) {
        Err(error) => match collapse_leading_slashes(input, base) {
            Some(fixed) => encoding_parse_once(&fixed, base, doc).map_err(|_| error),
            None => Err(error),
        },
        Ok(url) => match standard_input(input, &url) {
            Some(fixed) => encoding_parse_once(&fixed, base, doc).or(Ok(url)),
            None => Ok(url),
        },
    }
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

/// The URL Standard's "path state" turns a Windows drive letter written with `|` into one
/// with `:` when it is the first segment of a `file:` URL's path ("if url's scheme is
/// "file", url's path is empty, and buffer is a Windows drive letter, then replace the
/// second code point in buffer with U+003A (:)"); the `url` crate does so except after an
/// empty host, `file:///C|/dir/x.gif` (a link on a page saved from Windows), which it keeps
/// as `file:///C|/dir/x.gif` where the Standard and browsers give `file:///C:/dir/x.gif`.
/// Returns the input with that `|` written as `:` (the same URL by that step): `file:`
/// (or, against a `file:` base, nothing) then exactly three slashes or backslashes, an ASCII
/// letter, `|`, and the end or one of `/`, `\`, `?`, `#`.
fn windows_drive_letter_pipe(input: &str, base: &Url) -> Option<String> {
    if !input.contains('|') {
        return None;
    }
    let cleaned = preprocess(input);
    let (scheme, rest) = match cleaned.get(..5) {
        Some(s) if s.eq_ignore_ascii_case("file:") => (&cleaned[..5], &cleaned[5..]),
        _ if base.scheme() == "file" && !cleaned.contains(':') => ("", &cleaned[..]),
        _ => return None,
    };
    let after = rest.trim_start_matches(['/', '\\']);
    if rest.len() - after.len() != 3 {
        return None;
    }
    let b = after.as_bytes();
    let drive = b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1] == b'|'
        && b.get(2)
            .is_none_or(|c| matches!(c, b'/' | b'\\' | b'?' | b'#'));
    drive.then(|| format!("{scheme}{}{}:{}", &rest[..3], &after[..1], &after[2..]))
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

/// One run of the URL parser for [`encoding_parse`].
fn encoding_parse_once(input: &str, base: &Url, doc: &Document) -> Result<Url, url::ParseError> {
    let encoding = doc.encoding.output_encoding();
    let options = Url::options().base_url(Some(base));
    if encoding == encoding_rs::UTF_8 {
        return options.parse(input);
    }
    let encode = |s: &str| -> Vec<u8> {
        // encoding_rs replaces an unmappable character by its decimal numeric character
        // reference, which is what the URL Standard's percent-encode with an encoding does.
        encoding.encode(s).0.into_owned()
    };
    let encode: &dyn Fn(&str) -> Cow<'_, [u8]> = &|s| Cow::Owned(encode(s));
    options.encoding_override(Some(encode)).parse(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

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
