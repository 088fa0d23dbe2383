//! The arena DOM: a [`Document`] owns every node in an [`indextree`] arena, and users hold
//! `Copy` handles ([`NodeRef`], [`ElementRef`]) that borrow it.
//!
//! Storage is compact and flat: a node is its links plus 24 bytes of data; strings live in two
//! per-document buffers (see `strings.rs`), attributes in one per-document list, names are
//! interned integers. Dropping a document frees a few large buffers, whatever the tree's depth.
//!
//! This room is the DOM Standard's tree and nothing above it: arena, handles, names, strings,
//! attributes, insert/remove/move (`mutate.rs`, and the tree builder's primitives in
//! `build.rs`), comparison, dump, source positions. It names no room above it (the HTML
//! semantics in `html/`, the query caches, the parser, selectors, XPath, XML, the
//! serializer): they learn of mutations through the hook point in `hooks.rs` (the DOM
//! Standard's insertion, removing, children changed, post-connection and attribute change
//! steps, as a table of functions each document holds), and keep their per-document state in
//! its opaque slots. `docs/ARCHITECTURE.md` has the map of the rooms.

use std::collections::HashMap;
use std::fmt;

use indextree::Arena;

pub(crate) mod build;
pub(crate) use build::IdHash;
pub mod compare;
mod dump;
pub(crate) mod hooks;
mod mutate;
pub mod names;
mod node;
pub mod positions;
mod reclaim;
mod strings;

pub use mutate::MutationError;
pub use node::{
    Ancestors, Attribute, Attributes, Children, Descendants, Edge, ElementName, ElementRef,
    NodeKind, NodeRef, Traverse,
};
pub(crate) use strings::{PackedStr, StrHandle, StrRef, Strings};

use crate::encoding::{Confidence, Encoding};
use crate::error::ParseError;
use names::{AttrNamespace, DynamicNames, LocalName, Namespace};

/// The id of a node in a [`Document`]'s arena.
///
/// An id belongs to the document that made it (and its clones): the document's methods
/// refuse an id of another document or of a freed node ([`Document::decompose`]), with
/// [`MutationError::InvalidNode`] (a node that was only [`Document::remove`]d stays live).
/// Use [`Document::node`] to get a handle for one.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct NodeId {
    pub(crate) raw: indextree::NodeId,
    /// The serial number of the document it belongs to.
    pub(crate) doc: u32,
}

/// Serial numbers for documents, so that node ids of different documents never alias.
static NEXT_DOCUMENT_SERIAL: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// A resource limit that stopped a parse early (see [`Document::limit_hit`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Limit {
    /// The document reached [`ParseOptions::max_nodes`](crate::ParseOptions::max_nodes)
    /// nodes; the rest of the input was not parsed.
    Nodes,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes => f.write_str("node limit reached; the rest of the input was not parsed"),
        }
    }
}

/// The quirks mode a document was parsed in (set from its DOCTYPE).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum QuirksMode {
    /// Standards mode: `<!DOCTYPE html>` and other standards DOCTYPEs.
    #[default]
    NoQuirks,
    /// "Limited quirks" (almost standards) mode.
    LimitedQuirks,
    /// Quirks mode: no DOCTYPE, or a legacy one.
    Quirks,
}

/// One attribute in a document's attribute list (16 bytes: values are never appended to, so
/// they are kept as a [`PackedStr`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Attr {
    pub(crate) name: LocalName,
    pub(crate) ns: AttrNamespace,
    pub(crate) value: PackedStr,
}

/// A run of attributes in [`Document::attrs`]. Runs are never modified in place, so two
/// elements may share one (the tree builder's clones of formatting elements do).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct AttrRange {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl AttrRange {
    #[inline]
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// Flag: a MathML `annotation-xml` whose start tag had `encoding="text/html"` or
/// `"application/xhtml+xml"` (an HTML integration point).
pub(crate) const FLAG_HTML_INTEGRATION_POINT: u8 = 1;

/// The data of an element node.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ElementData {
    pub(crate) name: LocalName,
    pub(crate) ns: Namespace,
    pub(crate) flags: u8,
    /// The prefix (XML documents; an id in `Document::xml_names`, 0 for none).
    pub(crate) prefix: u16,
    pub(crate) attrs: AttrRange,
}

/// The data of a DOCTYPE node.
#[derive(Clone, Debug, Default)]
pub(crate) struct DoctypeData {
    pub(crate) name: Box<str>,
    pub(crate) public_id: Box<str>,
    pub(crate) system_id: Box<str>,
}

/// The data of a processing instruction node.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PiData {
    pub(crate) target: StrRef,
    pub(crate) data: StrRef,
}

/// What a node is, with its data (24 bytes).
#[derive(Clone, Debug)]
pub(crate) enum NodeData {
    Document,
    Fragment,
    Doctype(Box<DoctypeData>),
    Element(ElementData),
    Text(StrRef),
    Comment(StrRef),
    ProcessingInstruction(Box<PiData>),
}

/// A parsed HTML document (or fragment): the nodes, their strings, and what the parser found.
///
/// `Document` is `Send + Sync`; handles ([`NodeRef`], [`ElementRef`]) borrow it.
///
/// ```
/// use html_arena::Document;
/// let doc = Document::parse("<p class=x>Hi</p>");
/// let body = doc.body().unwrap();
/// assert_eq!(body.first_child().unwrap().text(), "Hi");
/// ```
#[derive(Clone)]
pub struct Document {
    // --- The tree (DOM Standard): nodes, their strings, attributes and names. ---------------
    /// This document's serial number (shared by its clones), stamped on its [`NodeId`]s.
    pub(crate) serial: u32,
    pub(crate) arena: Arena<NodeData>,
    pub(crate) root: indextree::NodeId,
    pub(crate) strings: Strings,
    pub(crate) attrs: Vec<Attr>,
    pub(crate) names: DynamicNames,
    /// Each `template` element's contents fragment.
    pub(crate) template_contents: HashMap<indextree::NodeId, indextree::NodeId, build::IdHash>,
    /// An XML document's namespace URLs and prefixes (`None` for HTML documents).
    pub(crate) xml_names: Option<Box<names::XmlNames>>,

    // --- What the parse found (read-only after parsing). ------------------------------------
    pub(crate) quirks_mode: QuirksMode,
    pub(crate) scripting: bool,
    pub(crate) errors: Vec<ParseError>,
    /// Errors found, including those not kept.
    pub(crate) error_count: usize,
    /// For a parsed fragment, its context element (namespace, local name): serializing the
    /// fragment serializes it as that element's contents.
    pub(crate) fragment_context: Option<(Namespace, LocalName)>,
    /// Source positions of the parsed nodes, when asked for.
    pub(crate) positions: Option<Box<positions::Positions>>,
    /// The character encoding the input was decoded with (UTF-8 for text input).
    pub(crate) encoding: &'static Encoding,
    /// The confidence in `encoding` when parsing ended.
    pub(crate) encoding_confidence: Confidence,
    /// The resource limit that stopped the parse, if one did.
    pub(crate) limit_hit: Option<Limit>,
    /// The document's URL (`html/url.rs`), if one was given.
    #[cfg(feature = "url")]
    pub(crate) url: Option<Box<::url::Url>>,

    // --- The layers above: hooks, their state, derived caches (see `hooks.rs`). -------------
    /// The hooks the layers above run on mutations (installed by the constructors).
    pub(crate) hooks: &'static hooks::Hooks,
    /// Whether the element steps (insertion, removing, children changed; the tree builder's
    /// moves) have work: set by the layer whose state they change (the `select` steps, from
    /// the first `select` with an `option` or `selectedcontent` on).
    pub(crate) element_steps: bool,
    /// The HTML element state (`html/`: the select/option/selectedcontent state, the base
    /// URL) and the query caches (`query/`: the selector index, document order), in slots
    /// this room does not know the types of.
    pub(crate) ext: hooks::Extensions,

    // --- Parser-only state (lives only while parsing). --------------------------------------
    /// While parsing: stand-ins for deep open elements (see `build.rs`).
    pub(crate) stand_ins: build::StandIns,
}

impl Document {
    /// An empty document (a `Document` node and nothing else) over `source`.
    pub(crate) fn with_source(
        source: String,
        root_kind: NodeData,
        hooks: &'static hooks::Hooks,
    ) -> Document {
        // The parser reserves room for the nodes once it has seen the input.
        let mut arena = Arena::with_capacity(4);
        let root = arena.new_node(root_kind);
        Document {
            serial: NEXT_DOCUMENT_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            arena,
            root,
            strings: Strings::with_source(source),
            attrs: Vec::new(),
            names: DynamicNames::default(),
            template_contents: HashMap::default(),
            quirks_mode: QuirksMode::NoQuirks,
            scripting: false,
            errors: Vec::new(),
            error_count: 0,
            hooks,
            element_steps: false,
            ext: hooks::Extensions::default(),
            fragment_context: None,
            positions: None,
            encoding: encoding_rs::UTF_8,
            encoding_confidence: Confidence::Irrelevant,
            limit_hit: None,
            stand_ins: build::StandIns::default(),
            #[cfg(feature = "url")]
            url: None,
            xml_names: None,
        }
    }

    /// The root node: the `Document` node, or the `DocumentFragment` of a parsed fragment.
    #[inline]
    pub fn root(&self) -> NodeRef<'_> {
        NodeRef::new(self, self.root)
    }

    /// A handle for `id`, if it names a live node of this document.
    pub fn node(&self, id: NodeId) -> Option<NodeRef<'_>> {
        let node = self.arena.get(id.raw)?;
        if id.doc != self.serial || node.is_removed() || id.raw.is_removed(&self.arena) {
            return None;
        }
        Some(NodeRef::new(self, id.raw))
    }

    /// The document element (the root's first element child), usually `<html>`.
    pub fn document_element(&self) -> Option<ElementRef<'_>> {
        self.root().element_children().next()
    }

    /// The `<head>` element: the first `head` child of the `html` document element.
    pub fn head(&self) -> Option<ElementRef<'_>> {
        self.html_child(names::local_name::HEAD)
    }

    /// The `<body>` element: the first `body` (or `frameset`) child of the `html` element.
    pub fn body(&self) -> Option<ElementRef<'_>> {
        let html = self.document_element()?;
        if html.name() != names::local_name::HTML || html.namespace() != Namespace::Html {
            return None;
        }
        html.element_children().find(|e| {
            e.namespace() == Namespace::Html
                && (e.name() == names::local_name::BODY || e.name() == names::local_name::FRAMESET)
        })
    }

    fn html_child(&self, name: LocalName) -> Option<ElementRef<'_>> {
        let html = self.document_element()?;
        if html.name() != names::local_name::HTML || html.namespace() != Namespace::Html {
            return None;
        }
        html.element_children()
            .find(|e| e.namespace() == Namespace::Html && e.name() == name)
    }

    /// The parse errors found, in input order (at most the number kept; see
    /// [`Document::error_count`]).
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    /// How many parse errors were found, including any not kept.
    pub fn error_count(&self) -> usize {
        self.error_count
    }

    /// The resource limit that stopped the parse early, if one did: the document then holds
    /// what was built up to that point (a prefix of the input, with open elements closed).
    ///
    /// ```
    /// use html_arena::{Document, Limit, ParseOptions};
    ///
    /// let options = ParseOptions::default().with_max_nodes(10);
    /// let doc = Document::parse_with(&"<p>x".repeat(100), &options);
    /// assert_eq!(doc.limit_hit(), Some(Limit::Nodes));
    /// assert!(doc.root().descendants().count() <= 12);
    ///
    /// assert_eq!(Document::parse("<p>x").limit_hit(), None);
    /// ```
    pub fn limit_hit(&self) -> Option<Limit> {
        self.limit_hit
    }

    /// The quirks mode the DOCTYPE put the document in.
    pub fn quirks_mode(&self) -> QuirksMode {
        self.quirks_mode
    }

    /// Whether the document was parsed with scripting enabled (which makes `<noscript>`
    /// content raw text).
    pub fn scripting(&self) -> bool {
        self.scripting
    }

    /// For a document made by [`Document::parse_fragment`], the context element's namespace
    /// and local name.
    pub fn fragment_context(&self) -> Option<(Namespace, &str)> {
        self.fragment_context
            .map(|(ns, name)| (ns, self.name_str(name)))
    }

    /// The character encoding the document was decoded with (13.2.3 "The input byte stream"):
    /// the one [`Document::parse_bytes`] or a byte-fed [`Parser`](crate::Parser) sniffed, or
    /// the one a `<meta>` changed it to while parsing (13.2.3.4). A document parsed from text
    /// (`&str`), or made empty, says UTF-8.
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    ///
    /// let doc = Document::parse_bytes(b"<meta charset=koi8-r><p>\xf0\xd2\xc9", &ParseOptions::default())?;
    /// assert_eq!(doc.encoding(), encoding_rs::KOI8_R);
    /// assert_eq!(doc.body().unwrap().text(), "При");
    /// assert_eq!(Document::parse("<p>").encoding(), encoding_rs::UTF_8);
    /// # Ok::<(), html_arena::EncodingError>(())
    /// ```
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The confidence in [`Document::encoding`] when parsing ended (13.2.3):
    /// [`Certain`](Confidence::Certain) when a byte order mark, the user override or the
    /// transport layer gave it, or when a `<meta>` seen while parsing confirmed or changed it;
    /// [`Tentative`](Confidence::Tentative) when it is still a guess (the prescan, detection or
    /// the default, never confirmed); [`Irrelevant`](Confidence::Irrelevant) for a document
    /// parsed from text.
    ///
    /// ```
    /// use html_arena::{Confidence, Document, ParseOptions};
    ///
    /// let options = ParseOptions::default();
    /// let guessed = Document::parse_bytes(b"<p>caf\xe9", &options)?;
    /// assert_eq!(guessed.encoding_confidence(), Confidence::Tentative);
    /// let confirmed = Document::parse_bytes(b"<meta charset=windows-1252><p>caf\xe9", &options)?;
    /// assert_eq!(confirmed.encoding_confidence(), Confidence::Certain);
    /// assert_eq!(Document::parse("<p>").encoding_confidence(), Confidence::Irrelevant);
    /// # Ok::<(), html_arena::EncodingError>(())
    /// ```
    pub fn encoding_confidence(&self) -> Confidence {
        self.encoding_confidence
    }

    /// The decoded input text the document was parsed from, when the document keeps it (see
    /// [`keep_source`](crate::ParseOptions::keep_source), on by default). A lean document
    /// keeps only its strings (each text, comment and attribute value), not the markup around
    /// them: `None`. (A document made empty, with no input, has the empty source.)
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    ///
    /// let doc = Document::parse_bytes(b"<p>caf\xe9", &ParseOptions::default())?;
    /// assert_eq!(doc.source(), Some("<p>café"));
    /// let lean = ParseOptions::default().with_keep_source(false);
    /// assert_eq!(Document::parse_bytes(b"<p>caf\xe9", &lean)?.source(), None);
    /// # Ok::<(), html_arena::EncodingError>(())
    /// ```
    pub fn source(&self) -> Option<&str> {
        self.strings
            .keeps_source()
            .then_some(self.strings.source.as_str())
    }

    /// The length in bytes of the decoded input the document was parsed from, whether or not
    /// it keeps it ([`Document::source`]); 0 for a document made without input.
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<p>café");
    /// assert_eq!(doc.input_len(), "<p>café".len());
    /// ```
    pub fn input_len(&self) -> usize {
        self.strings.source_end()
    }

    /// The number of nodes in the arena (including removed ones that are not yet reused).
    pub fn node_count(&self) -> usize {
        self.arena.len()
    }

    // ---------------------------------------------------------------------------------------
    // Internal building API (tree builder, mutation).

    #[inline]
    pub(crate) fn data(&self, id: indextree::NodeId) -> &NodeData {
        self.arena[id].get()
    }

    #[inline]
    pub(crate) fn data_mut(&mut self, id: indextree::NodeId) -> &mut NodeData {
        self.arena[id].get_mut()
    }

    #[inline]
    pub(crate) fn element_data(&self, id: indextree::NodeId) -> Option<&ElementData> {
        match self.arena.get(id)?.get() {
            NodeData::Element(e) => Some(e),
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn new_node(&mut self, data: NodeData) -> indextree::NodeId {
        self.arena.new_node(data)
    }

    /// Creates an element (and, for an HTML `template`, its contents fragment).
    pub(crate) fn create_element(
        &mut self,
        name: LocalName,
        ns: Namespace,
        attrs: AttrRange,
        flags: u8,
    ) -> indextree::NodeId {
        self.create_element_in(None, name, ns, attrs, flags)
    }

    /// Creates an element as the last child of `parent`, if given (indextree's fast path for
    /// appending a new node: no detaching, no ancestor check), else detached.
    #[inline]
    pub(crate) fn create_element_in(
        &mut self,
        parent: Option<indextree::NodeId>,
        name: LocalName,
        ns: Namespace,
        attrs: AttrRange,
        flags: u8,
    ) -> indextree::NodeId {
        let data = NodeData::Element(ElementData {
            name,
            ns,
            flags,
            prefix: 0,
            attrs,
        });
        let id = match parent {
            Some(p) if !p.is_removed(&self.arena) => p.append_value(data, &mut self.arena),
            _ => self.arena.new_node(data),
        };
        if ns == Namespace::Html && name == names::local_name::TEMPLATE {
            let contents = self.arena.new_node(NodeData::Fragment);
            self.template_contents.insert(id, contents);
        }
        // The creation hook, for the few names the layers above watch (most elements skip
        // the call).
        if ns == Namespace::Html && self.hooks.created_names.contains(&name) {
            (self.hooks.created)(self, name);
        }
        if parent.is_some() && self.element_steps {
            (self.hooks.post_insert)(self, id);
        }
        id
    }

    /// The start of a new attribute run: push attributes, then call [`Document::attrs_since`].
    #[inline]
    pub(crate) fn attrs_mark(&self) -> u32 {
        u32::try_from(self.attrs.len()).unwrap_or(u32::MAX)
    }

    /// Adds one attribute to the run being built (the XML parser's; the tree builder passes
    /// the input after the value too: [`Document::push_attr_window`]).
    #[inline]
    #[cfg_attr(not(feature = "xml"), allow(dead_code))]
    pub(crate) fn push_attr(
        &mut self,
        name: LocalName,
        ns: AttrNamespace,
        value: &str,
        source_offset: Option<usize>,
    ) {
        self.push_attr_window(name, ns, value, value, source_offset);
    }

    /// [`Document::push_attr`], with `tail`, the input from `value` on when the caller has it
    /// (see [`Strings::push_window`](strings::Strings::push_window)).
    // (Always: the tree builder's loop over a tag's attributes is large enough that the
    // compiler otherwise calls this, a call per attribute.)
    #[inline(always)]
    pub(crate) fn push_attr_window(
        &mut self,
        name: LocalName,
        ns: AttrNamespace,
        value: &str,
        tail: &str,
        source_offset: Option<usize>,
    ) {
        if self.attrs.len() >= u32::MAX as usize {
            return;
        }
        let value = self.strings.push_window(value, tail, source_offset);
        let value = self.strings.pack(value);
        self.attrs.push(Attr { name, ns, value });
    }

    /// The attribute run pushed since `mark`.
    #[inline]
    pub(crate) fn attrs_since(&self, mark: u32) -> AttrRange {
        let end = self.attrs_mark();
        AttrRange {
            start: mark,
            len: end.saturating_sub(mark),
        }
    }

    /// The attributes of an element.
    #[inline]
    pub(crate) fn attrs_of(&self, e: &ElementData) -> &[Attr] {
        self.attrs.get(e.attrs.range()).unwrap_or(&[])
    }

    /// Interns a name that may not be static.
    #[inline]
    pub(crate) fn intern(&mut self, name: &str) -> LocalName {
        self.names.intern(name)
    }

    /// The text of a name.
    #[inline]
    pub(crate) fn name_str(&self, name: LocalName) -> &str {
        self.names.resolve(name)
    }

    /// The text of a stored string.
    #[inline]
    pub(crate) fn str(&self, r: impl StrHandle) -> &str {
        r.text(&self.strings)
    }

    /// The contents fragment of a `template` element.
    #[inline]
    pub(crate) fn template_contents_of(&self, id: indextree::NodeId) -> Option<indextree::NodeId> {
        self.template_contents.get(&id).copied()
    }

    /// Appends text as the last child of `parent`, merging with a text node already there.
    pub(crate) fn append_text(
        &mut self,
        parent: indextree::NodeId,
        text: &str,
        source_offset: Option<usize>,
    ) {
        if let Some(last) = self.arena[parent].last_child() {
            if let NodeData::Text(mut r) = *self.arena[last].get() {
                self.strings.append(&mut r, text, source_offset);
                *self.arena[last].get_mut() = NodeData::Text(r);
                return;
            }
        }
        let r = self.strings.push_maybe_source(text, source_offset);
        parent.append_value(NodeData::Text(r), &mut self.arena);
        self.children_changed(parent);
    }

    /// Inserts text before `sibling`, merging with a text node right before it.
    pub(crate) fn insert_text_before(
        &mut self,
        sibling: indextree::NodeId,
        text: &str,
        source_offset: Option<usize>,
    ) {
        let sibling = self.tree_node(sibling);
        if let Some(prev) = self.arena[sibling].previous_sibling() {
            if let NodeData::Text(mut r) = *self.arena[prev].get() {
                self.strings.append(&mut r, text, source_offset);
                *self.arena[prev].get_mut() = NodeData::Text(r);
                return;
            }
        }
        let r = self.strings.push_maybe_source(text, source_offset);
        let node = self.arena.new_node(NodeData::Text(r));
        sibling.insert_before(node, &mut self.arena);
        if let Some(parent) = self.arena[sibling].parent() {
            self.children_changed(parent);
        }
    }

    /// Creates a comment node (detached).
    pub(crate) fn create_comment(
        &mut self,
        text: &str,
        source_offset: Option<usize>,
    ) -> indextree::NodeId {
        let r = self.strings.push_maybe_source(text, source_offset);
        self.arena.new_node(NodeData::Comment(r))
    }

    /// Creates a processing instruction node (detached).
    pub(crate) fn create_processing_instruction(
        &mut self,
        target: &str,
        data: &str,
    ) -> indextree::NodeId {
        let target = self.strings.push(target);
        let data = self.strings.push(data);
        self.arena
            .new_node(NodeData::ProcessingInstruction(Box::new(PiData {
                target,
                data,
            })))
    }

    /// Creates a DOCTYPE node (detached).
    pub(crate) fn create_doctype(
        &mut self,
        name: &str,
        public_id: &str,
        system_id: &str,
    ) -> indextree::NodeId {
        self.arena.new_node(NodeData::Doctype(Box::new(DoctypeData {
            name: name.into(),
            public_id: public_id.into(),
            system_id: system_id.into(),
        })))
    }

    /// Records a parse error (keeping at most `limit`).
    pub(crate) fn record_error(&mut self, error: ParseError, limit: usize) {
        self.error_count += 1;
        if self.errors.len() < limit {
            self.errors.push(error);
        }
    }

    /// After parsing: gives back the room the node arena and the string, attribute and error
    /// buffers hold beyond what they use (room reserved by an estimate, or left by a buffer's
    /// doubling), when it is more than an eighth. Shrinking a buffer reallocates it in place
    /// or with one copy, never above its old size; it is not done for less, since giving
    /// memory back to the system costs a parse that follows more than the bytes are worth.
    pub(crate) fn shrink_buffers(&mut self) {
        fn wasteful(len: usize, capacity: usize) -> bool {
            capacity - len.min(capacity) > len / 8 + 64
        }
        if wasteful(self.arena.len(), self.arena.capacity()) {
            self.arena.shrink_to_fit();
        }
        if wasteful(self.attrs.len(), self.attrs.capacity()) {
            self.attrs.shrink_to_fit();
        }
        self.strings.shrink(wasteful);
        if wasteful(self.errors.len(), self.errors.capacity()) {
            self.errors.shrink_to_fit();
        }
    }

    /// Heap bytes held by the document's buffers (arena, strings, attributes, names).
    pub fn heap_size(&self) -> usize {
        self.arena.capacity() * std::mem::size_of::<indextree::Node<NodeData>>()
            + self.strings.heap_size()
            + self.attrs.capacity() * std::mem::size_of::<Attr>()
    }
}

impl Default for Document {
    fn default() -> Self {
        Document::new()
    }
}

impl fmt::Debug for Document {
    /// Prints the tree in the html5lib test format (iteratively; safe on any depth), cut
    /// after 64 KiB (see [`Document::dump_tree_prefix`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (dump, cut) = self.dump_tree_prefix(64 * 1024);
        f.write_str(&dump)?;
        if cut {
            f.write_str("| … (cut: Document::dump_tree has the whole tree)\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attr_is_small() {
        assert_eq!(std::mem::size_of::<Attr>(), 16);
    }

    #[test]
    fn node_data_is_small() {
        assert!(
            std::mem::size_of::<NodeData>() <= 24,
            "{}",
            std::mem::size_of::<NodeData>()
        );
    }

    #[test]
    fn document_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Document>();
    }
}
