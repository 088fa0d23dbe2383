//! Serialization: 13.3 "Serializing HTML fragments", with the html5lib serializer's options.
//!
//! [`NodeRef::html`] (outer HTML), [`NodeRef::inner_html`] and [`Document::html`] give what a
//! browser's `outerHTML`, `innerHTML` and `document.documentElement.parentNode.innerHTML`
//! give; `Display` does the same. The walk is iterative, so any depth serializes, and escaping
//! is one linear pass over each string.
//!
//! ```
//! let doc = html_arena::Document::parse("<p class=x>1 < 2 &amp; <b>bold</p>");
//! assert_eq!(doc.html(), r#"<html><head></head><body><p class="x">1 &lt; 2 &amp; <b>bold</b></p></body></html>"#);
//! let p = doc.body().unwrap().first_child().unwrap();
//! assert_eq!(p.inner_html(), "1 &lt; 2 &amp; <b>bold</b>");
//! ```
//!
//! [`SerializeOptions`] changes the output while keeping it equivalent when parsed (omitting
//! optional tags, unquoted attributes, ...): see [`SerializeOptions::html5lib`].

mod escape;
mod fast;
mod stream;

use std::fmt::{self, Write};

pub use stream::{SerializerAttr, SerializerToken, TokenSerializer};

use crate::dom::compare::{CompareOptions, first_difference};
use crate::dom::{Document, ElementRef, NodeKind, NodeRef};

/// When to quote attribute values.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub enum AttributeQuoting {
    /// Always (the specification's algorithm).
    #[default]
    Always,
    /// Only when the value is empty or holds whitespace, a quote, `=`, `>` or a backtick.
    WhenNeeded,
}

/// Options for serializing. The defaults give exactly the HTML fragment serialization
/// algorithm of the standard (what `innerHTML` returns).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SerializeOptions {
    /// When to quote attribute values.
    pub quote_attributes: AttributeQuoting,
    /// The quote character, `"` or `'`.
    pub quote_char: char,
    /// Pick the quote that needs no escaping when the value holds only one kind of quote.
    pub use_best_quote_char: bool,
    /// Write an attribute whose value is empty or equals its name as just its name
    /// (`<input disabled>`).
    pub minimize_boolean_attributes: bool,
    /// Write void elements as `<br />`.
    pub use_trailing_solidus: bool,
    /// With `use_trailing_solidus`, put a space before the `/`.
    pub space_before_trailing_solidus: bool,
    /// Escape the text of raw text elements (`script`, `style`, ...) too.
    pub escape_rcdata: bool,
    /// Collapse runs of ASCII whitespace in text to one space (outside `pre`, `textarea`,
    /// `listing`, `xmp`, `script` and `style`). This changes the tree on reparsing.
    pub strip_whitespace: bool,
    /// Omit start and end tags that 13.1.2.4 "Optional tags" allows to omit.
    pub omit_optional_tags: bool,
    /// Declare this encoding in the `head`: rewrite existing `<meta charset>` and
    /// `http-equiv=content-type` declarations, or add `<meta charset=...>` first in the head.
    pub inject_meta_charset: Option<String>,
    /// Write attributes sorted by namespace and name instead of in source order.
    pub alphabetical_attributes: bool,
    /// Write a DOCTYPE's public and system identifiers (the standard writes only the name).
    pub doctype_identifiers: bool,
    /// The scripting flag, which makes `noscript` content raw text. Serializing a document or
    /// node uses the document's own flag instead.
    pub scripting: bool,
}

impl Default for SerializeOptions {
    fn default() -> Self {
        SerializeOptions {
            quote_attributes: AttributeQuoting::Always,
            quote_char: '"',
            use_best_quote_char: false,
            minimize_boolean_attributes: false,
            use_trailing_solidus: false,
            space_before_trailing_solidus: true,
            escape_rcdata: false,
            strip_whitespace: false,
            omit_optional_tags: false,
            inject_meta_charset: None,
            alphabetical_attributes: false,
            doctype_identifiers: false,
            scripting: false,
        }
    }
}

impl SerializeOptions {
    /// The html5lib serializer's defaults: optional tags omitted, attributes quoted only
    /// when needed (with the quote that needs no escaping), boolean attributes minimized,
    /// DOCTYPE identifiers written. The output is smaller, but not always the same tree
    /// when parsed back: a minimized boolean attribute comes back with an empty value
    /// (`checked="checked"` as `checked`), and the html5lib rules for omitting `</p>` assume
    /// a no-quirks document (in quirks mode a `<table>` after an omitted `</p>` goes inside
    /// the `p`). Use the default options when the tree must survive.
    ///
    /// ```
    /// use html_arena::{Document, serialize::SerializeOptions};
    /// let doc = Document::parse("<ul><li class=a>one<li>two</ul>");
    /// assert_eq!(
    ///     doc.html_with(&SerializeOptions::html5lib()),
    ///     "<ul><li class=a>one<li>two</ul>"
    /// );
    /// ```
    pub fn html5lib() -> SerializeOptions {
        SerializeOptions {
            quote_attributes: AttributeQuoting::WhenNeeded,
            use_best_quote_char: true,
            minimize_boolean_attributes: true,
            omit_optional_tags: true,
            doctype_identifiers: true,
            ..SerializeOptions::default()
        }
    }
}

/// Builders: each sets one field and returns the options, to chain from
/// [`SerializeOptions::default`] or [`SerializeOptions::html5lib`].
///
/// ```
/// use html_arena::Document;
/// use html_arena::serialize::{AttributeQuoting, SerializeOptions};
///
/// let doc = Document::parse("<p class=x>a<br>b");
/// let options = SerializeOptions::default()
///     .with_quote_attributes(AttributeQuoting::WhenNeeded)
///     .with_use_trailing_solidus(true)
///     .with_omit_optional_tags(true);
/// assert_eq!(doc.body().unwrap().inner_html_with(&options), "<p class=x>a<br />b");
/// ```
impl SerializeOptions {
    /// Sets [`quote_attributes`](SerializeOptions::quote_attributes).
    pub fn with_quote_attributes(mut self, quoting: AttributeQuoting) -> Self {
        self.quote_attributes = quoting;
        self
    }

    /// Sets [`quote_char`](SerializeOptions::quote_char).
    pub fn with_quote_char(mut self, quote: char) -> Self {
        self.quote_char = quote;
        self
    }

    /// Sets [`use_best_quote_char`](SerializeOptions::use_best_quote_char).
    pub fn with_use_best_quote_char(mut self, on: bool) -> Self {
        self.use_best_quote_char = on;
        self
    }

    /// Sets [`minimize_boolean_attributes`](SerializeOptions::minimize_boolean_attributes).
    pub fn with_minimize_boolean_attributes(mut self, on: bool) -> Self {
        self.minimize_boolean_attributes = on;
        self
    }

    /// Sets [`use_trailing_solidus`](SerializeOptions::use_trailing_solidus).
    pub fn with_use_trailing_solidus(mut self, on: bool) -> Self {
        self.use_trailing_solidus = on;
        self
    }

    /// Sets [`space_before_trailing_solidus`](SerializeOptions::space_before_trailing_solidus).
    pub fn with_space_before_trailing_solidus(mut self, on: bool) -> Self {
        self.space_before_trailing_solidus = on;
        self
    }

    /// Sets [`escape_rcdata`](SerializeOptions::escape_rcdata).
    pub fn with_escape_rcdata(mut self, on: bool) -> Self {
        self.escape_rcdata = on;
        self
    }

    /// Sets [`strip_whitespace`](SerializeOptions::strip_whitespace).
    pub fn with_strip_whitespace(mut self, on: bool) -> Self {
        self.strip_whitespace = on;
        self
    }

    /// Sets [`omit_optional_tags`](SerializeOptions::omit_optional_tags).
    pub fn with_omit_optional_tags(mut self, on: bool) -> Self {
        self.omit_optional_tags = on;
        self
    }

    /// Sets [`alphabetical_attributes`](SerializeOptions::alphabetical_attributes).
    pub fn with_alphabetical_attributes(mut self, on: bool) -> Self {
        self.alphabetical_attributes = on;
        self
    }

    /// Sets [`doctype_identifiers`](SerializeOptions::doctype_identifiers).
    pub fn with_doctype_identifiers(mut self, on: bool) -> Self {
        self.doctype_identifiers = on;
        self
    }

    /// Sets [`scripting`](SerializeOptions::scripting).
    pub fn with_scripting(mut self, on: bool) -> Self {
        self.scripting = on;
        self
    }

    /// Sets [`inject_meta_charset`](SerializeOptions::inject_meta_charset) to an encoding
    /// label, e.g. `"utf-8"`.
    pub fn with_inject_meta_charset(mut self, label: impl Into<String>) -> Self {
        self.inject_meta_charset = Some(label.into());
        self
    }
}

/// A frame of the serialization walk: the element to close when its children are done (none
/// for the node whose children are serialized), and the next child to write.
type Frame<'a> = (Option<ElementRef<'a>>, Option<NodeRef<'a>>);

/// Serializes `node` (with `include_self`) or its children into `out`.
fn serialize<W: Write + ?Sized>(
    node: NodeRef<'_>,
    include_self: bool,
    options: &SerializeOptions,
    out: &mut W,
) -> fmt::Result {
    if is_plain(options) {
        fast::serialize_to(node, include_self, out)
    } else {
        serialize_with_options(node, include_self, options, out)
    }
}

/// Whether the options are the defaults (whatever the scripting flag, which serializing a
/// tree takes from its document): then the direct writer of `fast.rs` serializes.
fn is_plain(options: &SerializeOptions) -> bool {
    let plain = SerializeOptions {
        scripting: options.scripting,
        ..SerializeOptions::default()
    };
    *options == plain
}

/// Serializes through the [`TokenSerializer`], which applies the options.
fn serialize_with_options<W: Write + ?Sized>(
    node: NodeRef<'_>,
    include_self: bool,
    options: &SerializeOptions,
    out: &mut W,
) -> fmt::Result {
    let doc = node.document();
    let options = if options.scripting == doc.scripting() {
        std::borrow::Cow::Borrowed(options)
    } else {
        let mut o = options.clone();
        o.scripting = doc.scripting();
        std::borrow::Cow::Owned(o)
    };
    let mut ser = TokenSerializer::new(out, &options);
    let mut attrs: Vec<SerializerAttr<'_>> = Vec::new();
    let mut stack: Vec<Frame<'_>> = Vec::new();
    if include_self {
        if let Some(parent) = node.parent_element() {
            ser.set_context(parent.namespace(), parent.local_name());
        }
        if let Some(frame) = open(node, &mut ser, &mut attrs)? {
            stack.push(frame);
        }
    } else {
        if node.raw_id() == doc.root {
            // A parsed fragment serializes as the contents of its context element.
            if let Some((ns, name)) = doc.fragment_context() {
                ser.set_context(ns, name);
            }
        }
        if let Some(e) = node.as_element() {
            // 13.3 step 1: "If the node serializes as void, then return the empty string."
            if stream::serializes_as_void(e.namespace(), e.local_name()) {
                return Ok(());
            }
            ser.set_context(e.namespace(), e.local_name());
        }
        stack.push((None, first_child_for_serialization(node)));
    }
    while let Some(top) = stack.last_mut() {
        match top.1 {
            Some(child) => {
                top.1 = child.next_sibling();
                if let Some(frame) = open(child, &mut ser, &mut attrs)? {
                    stack.push(frame);
                }
            }
            None => {
                if let (Some(e), _) = stack.pop().unwrap_or((None, None)) {
                    ser.write(SerializerToken::EndTag {
                        namespace: e.namespace(),
                        name: e.local_name(),
                    })?;
                }
            }
        }
    }
    ser.finish()
}

/// 13.3 step 3: "If the node is a template element, then let the node instead be the
/// template element's template contents."
fn first_child_for_serialization(node: NodeRef<'_>) -> Option<NodeRef<'_>> {
    match node.as_element().and_then(ElementRef::template_contents) {
        Some(contents) => contents.first_child(),
        None => node.first_child(),
    }
}

/// Writes what comes before a node's children; returns the frame for its children if it has
/// an end tag to write after them.
fn open<'a, W: Write + ?Sized>(
    node: NodeRef<'a>,
    ser: &mut TokenSerializer<'_, W>,
    attrs: &mut Vec<SerializerAttr<'a>>,
) -> Result<Option<Frame<'a>>, fmt::Error> {
    match node.kind() {
        NodeKind::Element(e) => {
            attrs.clear();
            attrs.extend(e.attrs().map(|a| SerializerAttr {
                namespace: a.namespace,
                name: a.local_name,
                value: a.value,
            }));
            let (namespace, name) = (e.namespace(), e.local_name());
            ser.write(SerializerToken::StartTag {
                namespace,
                name,
                attrs,
            })?;
            // "If current node serializes as void, then continue on to the next child node."
            if stream::serializes_as_void(namespace, name) {
                return Ok(None);
            }
            Ok(Some((Some(e), first_child_for_serialization(node))))
        }
        NodeKind::Text(t) => ser.write(SerializerToken::Text(t)).map(|()| None),
        NodeKind::Comment(c) => ser.write(SerializerToken::Comment(c)).map(|()| None),
        NodeKind::ProcessingInstruction { target, data } => ser
            .write(SerializerToken::ProcessingInstruction { target, data })
            .map(|()| None),
        NodeKind::Doctype {
            name,
            public_id,
            system_id,
        } => ser
            .write(SerializerToken::Doctype {
                name,
                public_id,
                system_id,
            })
            .map(|()| None),
        // A document or fragment inside a walk has no markup of its own.
        _ => Ok(Some((None, node.first_child()))),
    }
}

/// Serializes into a new `String`: with the default options straight into it, sized up front
/// for a whole document from the length of its input (the output of an unchanged parsed
/// page is about as long).
fn to_string(node: NodeRef<'_>, include_self: bool, options: &SerializeOptions) -> String {
    let doc = node.document();
    let whole = node.raw_id() == doc.root;
    let capacity = if whole {
        let source = doc.strings.source_end();
        source.saturating_add(source / 8).saturating_add(64)
    } else {
        0
    };
    if is_plain(options) {
        return fast::serialize_to_string(node, include_self, capacity);
    }
    let mut out = String::with_capacity(capacity);
    let _ = serialize_with_options(node, include_self, options, &mut out);
    out
}

/// Adapts an `io::Write` to `fmt::Write`, keeping the I/O error.
struct IoAdapter<W: std::io::Write> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> Write for IoAdapter<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.inner.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}

fn to_io<W: std::io::Write>(
    out: W,
    f: impl FnOnce(&mut IoAdapter<W>) -> fmt::Result,
) -> std::io::Result<()> {
    let mut adapter = IoAdapter {
        inner: out,
        error: None,
    };
    match f(&mut adapter) {
        Ok(()) => Ok(()),
        Err(_) => Err(adapter
            .error
            .unwrap_or_else(|| std::io::Error::other("serialization failed"))),
    }
}

impl<'a> NodeRef<'a> {
    /// The node's outer HTML: the node and its subtree (for a document or fragment, its
    /// children).
    pub fn html(self) -> String {
        self.html_with(&SerializeOptions::default())
    }

    /// [`NodeRef::html`] with options.
    pub fn html_with(self, options: &SerializeOptions) -> String {
        let include_self = !(self.is_document() || self.is_fragment());
        to_string(self, include_self, options)
    }

    /// The node's inner HTML: its children (a template's contents), serialized.
    pub fn inner_html(self) -> String {
        to_string(self, false, &SerializeOptions::default())
    }

    /// [`NodeRef::inner_html`] with options.
    pub fn inner_html_with(self, options: &SerializeOptions) -> String {
        to_string(self, false, options)
    }

    /// Appends the outer HTML (default options) to `out`: the fastest way to serialize,
    /// and to reuse one buffer for many nodes or documents: the markup is written straight
    /// into `out`'s buffer (size it with [`String::with_capacity`] to avoid regrowing), while
    /// the `fmt::Write` methods go through a small chunk buffer.
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<p>a &amp; b</p>");
    /// let p = doc.body().unwrap().first_child().unwrap();
    /// let mut out = String::with_capacity(64);
    /// p.html_into(&mut out);
    /// assert_eq!(out, "<p>a &amp; b</p>");
    /// p.html_into(&mut out);
    /// assert_eq!(out, "<p>a &amp; b</p><p>a &amp; b</p>");
    /// ```
    pub fn html_into(self, out: &mut String) {
        let include_self = !(self.is_document() || self.is_fragment());
        fast::serialize_append(self, include_self, out);
    }

    /// Writes the outer HTML to any `fmt::Write`.
    pub fn write_html_with<W: Write + ?Sized>(
        self,
        out: &mut W,
        options: &SerializeOptions,
    ) -> fmt::Result {
        let include_self = !(self.is_document() || self.is_fragment());
        serialize(self, include_self, options, out)
    }

    /// Writes the outer HTML to any `io::Write`.
    pub fn write_html_io<W: std::io::Write>(
        self,
        out: W,
        options: &SerializeOptions,
    ) -> std::io::Result<()> {
        to_io(out, |a| self.write_html_with(a, options))
    }
}

impl fmt::Display for NodeRef<'_> {
    /// The outer HTML.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_html_with(f, &SerializeOptions::default())
    }
}

impl fmt::Display for ElementRef<'_> {
    /// The outer HTML.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_node()
            .write_html_with(f, &SerializeOptions::default())
    }
}

impl Document {
    /// The whole document serialized (the children of the `Document` node, DOCTYPE
    /// included).
    pub fn html(&self) -> String {
        self.root().html()
    }

    /// [`Document::html`] with options.
    pub fn html_with(&self, options: &SerializeOptions) -> String {
        self.root().html_with(options)
    }

    /// Appends the document's serialization (default options) to `out`, as
    /// [`NodeRef::html_into`]: the fastest way to serialize into a buffer of your own.
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<title>a<b</title>");
    /// let mut out = String::with_capacity(128);
    /// doc.html_into(&mut out);
    /// assert_eq!(out, "<html><head><title>a&lt;b</title></head><body></body></html>");
    /// ```
    pub fn html_into(&self, out: &mut String) {
        self.root().html_into(out);
    }

    /// Writes the document to any `fmt::Write`.
    pub fn write_html<W: Write + ?Sized>(
        &self,
        out: &mut W,
        options: &SerializeOptions,
    ) -> fmt::Result {
        self.root().write_html_with(out, options)
    }

    /// Writes the document to any `io::Write` (a file, a socket), unbuffered: wrap it in a
    /// `BufWriter` for many small writes.
    pub fn write_html_io<W: std::io::Write>(
        &self,
        out: W,
        options: &SerializeOptions,
    ) -> std::io::Result<()> {
        self.root().write_html_io(out, options)
    }
}

impl fmt::Display for Document {
    /// The document serialized, as [`Document::html`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_html(f, &SerializeOptions::default())
    }
}

impl Document {
    /// Whether serializing this document and parsing the result gives back the same tree
    /// (with the same scripting flag, and for a parsed fragment the same context element).
    ///
    /// Most trees do. Those that don't hold shapes the parser would never build from their
    /// own serialization (13.3 warns about them): an `a` or `form` nested in another,
    /// `<plaintext>`, a CR from `&#13;`, a leading newline in `pre` or `textarea`, script text
    /// that cannot be closed, a DOCTYPE with identifiers (the serialization keeps only the
    /// name). Sanitizers that reparse what they emit should check this.
    ///
    /// ```
    /// use html_arena::Document;
    /// assert!(Document::parse("<p>Hello <b>world</b>").is_round_trip_stable());
    /// // Foster parenting nests an <a> inside an <a>; a second <a> start tag closes the first.
    /// assert!(!Document::parse("<a><table><a>").is_round_trip_stable());
    /// ```
    pub fn is_round_trip_stable(&self) -> bool {
        let html = self.html();
        let options = crate::ParseOptions::default().with_scripting(self.scripting());
        let again = match self.fragment_context() {
            Some((ns, name)) => {
                let Some(context) = crate::parser::context_string(ns, name) else {
                    return false;
                };
                match Document::parse_fragment(&html, &context, &options) {
                    Ok(doc) => doc,
                    Err(_) => return false,
                }
            }
            None => Document::parse_with(&html, &options),
        };
        // Serialization joins adjacent text nodes: compare them joined.
        let options = CompareOptions::default().with_merge_adjacent_text(true);
        first_difference(self.root(), again.root(), &options).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct writer against the token path for strings whose characters to escape sit
    /// at every place of the fixed-size windows and blocks the direct writer checks: text and
    /// attribute values of every length up to past two blocks, with `&`, `<`, `>`, `"`,
    /// U+00A0 or another character starting with its lead byte at each position, in the
    /// middle of the source and at its very end (no window past the string), in raw text,
    /// and set through the mutation API (strings in the second buffer).
    #[test]
    fn windows_and_blocks_match_token_path() {
        let options = SerializeOptions::default();
        let check = |doc: &Document| {
            let mut want = String::new();
            serialize_with_options(doc.root(), false, &options, &mut want).unwrap();
            assert_eq!(doc.html(), want);
            let mut sized = String::with_capacity(want.len());
            doc.html_into(&mut sized);
            assert_eq!(sized, want);
        };
        for special in ["&amp;", "&lt;", "&gt;", "\"", "\u{a0}", "\u{a9}", "\u{e9}"] {
            for len in 0..70usize {
                for at in (0..len).step_by(3).chain([len.saturating_sub(1)]) {
                    let mut text: String = (0..len)
                        .map(|i| char::from(b'a' + (i % 26) as u8))
                        .collect();
                    if len > 0 {
                        text.replace_range(at..at + 1, special);
                    }
                    let value = text.replace('"', "&quot;");
                    // Names not in the static table, of every length, the last one interned
                    // the one at the end of the document's name buffer.
                    let name = format!("d{}", "n".repeat(len % 40));
                    for input in [
                        format!("<p title=\"{value}\">{text}</p><p>tail of the page</p>"),
                        format!("<p {name}=\"{value}\"><x-{name} {name}2>{text}</x-{name}>"),
                        format!("<p title=\"{value}\">{text}"),
                        format!("<p title={value}x>{text}</p><script>{text}</script>"),
                        format!("<style>{text}</style><p a=\"{value}\" b='{value}'>"),
                    ] {
                        let mut doc = Document::parse(&input);
                        check(&doc);
                        let p = doc
                            .root()
                            .descendants()
                            .find(|n| n.as_element().is_some_and(|e| e.name().as_str() == "p"))
                            .unwrap()
                            .node_id();
                        let raw = text
                            .replace("&amp;", "&")
                            .replace("&lt;", "<")
                            .replace("&gt;", ">");
                        doc.set_attribute(p, "data-x", &raw).unwrap();
                        let t = doc.new_text(&raw);
                        doc.append(p, t).unwrap();
                        check(&doc);
                    }
                }
            }
        }
    }

    /// Generated trees whose short strings hold several characters to escape (the direct
    /// writer's byte loop for short strings) against the token path: text and attribute
    /// values parsed from the source and set through the mutation API.
    #[test]
    fn short_strings_with_escapes_match_token_path() {
        let options = SerializeOptions::default();
        let pieces = [
            "ab", "&", "<", ">", "\"", "'", "\u{a0}", "\u{a9}", "c\u{e9}",
        ];
        let mut strings = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..3 {
            last = last
                .iter()
                .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
                .collect();
            strings.extend(last.iter().cloned());
        }
        for s in &strings {
            let text = s.replace('&', "&amp;").replace('<', "&lt;");
            let value = text.replace('"', "&quot;");
            let input = format!("<p title=\"{value}\" data-v=\"{value}\">{text}</p><p>tail</p>");
            let mut doc = Document::parse(&input);
            let p = doc.body().unwrap().first_child().unwrap().node_id();
            doc.set_attribute(p, "lang", s).unwrap();
            let t = doc.new_text(s);
            doc.append(p, t).unwrap();
            let mut want = String::new();
            serialize_with_options(doc.root(), false, &options, &mut want).unwrap();
            let mut got = String::with_capacity(want.len() + 64);
            doc.html_into(&mut got);
            assert_eq!(got, want, "{s:?}");
            assert_eq!(doc.html(), want, "{s:?}");
        }
    }

    /// The direct writer used for default options and the token path used for any options
    /// must agree exactly when the options are the defaults.
    #[test]
    fn fast_path_matches_token_path() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-corpus");
        let mut inputs: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "html"))
            .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
            .collect();
        inputs.extend(
            [
                "<!DOCTYPE html><template><p>a<br>b</template><svg><desc>x</desc></svg>",
                "<script>a<b</script><style>&amp;</style><noscript><b>x</b></noscript>",
                "<p title='a\"b&amp;\u{a0}<'>x &lt; y\u{a0}&amp; <?pi data?><!--c--></p><plaintext>a<b",
                "<math><mi xlink:href=x xml:lang=en xmlns:xlink=y>m</mi></math><area><img><table><col>",
                // Characters of two, three and four bytes in short and long texts, attribute
                // values and names (a 32-byte window copied past a short string's end may end
                // inside one).
                "<p title='café über naïve'>日本語のテキスト、とても長い文章です。€𝄞</p><élément-ü data-é='€'>é</élément-ü>",
                "<a href='/wiki/Ёлка?q=ü&amp;x=€€€€€€€€€€€€€€€€'>𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞 Ω</a><div>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaé</div>",
            ]
            .map(str::to_owned),
        );
        for scripting in [false, true] {
            for input in &inputs {
                let doc = Document::parse_with(
                    input,
                    &crate::ParseOptions::default().with_scripting(scripting),
                );
                // A buffer sized for the exact output never grows (the fixed-size copies of
                // tag slots are only made with room for the whole slot).
                let exact = doc.html();
                let mut sized = String::with_capacity(exact.len());
                let capacity = sized.capacity();
                doc.html_into(&mut sized);
                assert_eq!(sized, exact);
                assert_eq!(sized.capacity(), capacity);
                let mut nodes = vec![doc.root()];
                nodes.extend(doc.root().descendants().take(200));
                for node in nodes {
                    for include_self in [false, true] {
                        let (mut a, mut b) = (String::new(), String::new());
                        fast::serialize_to(node, include_self, &mut a).unwrap();
                        let options = SerializeOptions {
                            scripting,
                            ..SerializeOptions::default()
                        };
                        serialize_with_options(node, include_self, &options, &mut b).unwrap();
                        assert_eq!(a, b, "{node:?} include_self={include_self}");
                        // Straight into a String (no chunks), from empty and appended; into
                        // a buffer without spare room (no fixed-size slot copies at first).
                        let direct = fast::serialize_to_string(node, include_self, 0);
                        assert_eq!(direct, b, "{node:?} include_self={include_self}");
                        let mut appended = String::from("x");
                        fast::serialize_append(node, include_self, &mut appended);
                        assert_eq!(appended[1..], b, "{node:?} include_self={include_self}");
                    }
                }
            }
        }
    }
}
