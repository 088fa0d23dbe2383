//! Borrowing handles: [`NodeRef`] for any node, [`ElementRef`] for elements.
//!
//! Both are `Copy` and hold `&Document`, so `node.parent()` needs no arena argument. Every walk
//! here is iterative: a tree a million levels deep is fine.

use std::fmt;
use std::ops::Deref;

use super::names::{AttrNamespace, LocalName, Namespace, local_name};
use super::{Attr, Document, ElementData, NodeData, NodeId};

/// A handle to a node of a [`Document`]: any node (element, text, comment, doctype, the
/// document itself), for navigation and reading.
///
/// Handles are `Copy` and borrow the document, so they cost nothing to pass around; get one
/// from [`Document::root`], [`Document::node`] or a walk. To change the tree, take its
/// [`node_id`](NodeRef::node_id) to the mutation methods of [`Document`] (the borrow ends
/// first).
///
/// ```
/// use html_arena::{Document, NodeKind};
///
/// let doc = Document::parse("<ul><li>One<li>Two <!-- note --></ul>");
/// let ul = doc.body().unwrap().first_child().unwrap();
/// let items: Vec<String> = ul.children().map(|li| li.text()).collect();
/// assert_eq!(items, ["One", "Two "]);
///
/// // Walk every node below, in document order.
/// for node in ul.descendants() {
///     match node.kind() {
///         NodeKind::Element(e) => assert_eq!(e.name(), "li"),
///         NodeKind::Text(t) => assert!(t == "One" || t == "Two "),
///         NodeKind::Comment(c) => assert_eq!(c, " note "),
///         _ => unreachable!(),
///     }
/// }
/// assert_eq!(ul.html(), "<ul><li>One</li><li>Two <!-- note --></li></ul>");
/// ```
#[derive(Copy, Clone)]
pub struct NodeRef<'a> {
    doc: &'a Document,
    id: indextree::NodeId,
}

/// What a node is, with borrowed access to its data.
#[derive(Copy, Clone, Debug)]
#[non_exhaustive]
pub enum NodeKind<'a> {
    /// The `Document` node.
    Document,
    /// A `DocumentFragment` (a parsed fragment's root, or a template's contents).
    Fragment,
    /// A DOCTYPE.
    Doctype {
        /// The name (`html`).
        name: &'a str,
        /// The public identifier (empty if missing).
        public_id: &'a str,
        /// The system identifier (empty if missing).
        system_id: &'a str,
    },
    /// An element.
    Element(ElementRef<'a>),
    /// A text node.
    Text(&'a str),
    /// A comment.
    Comment(&'a str),
    /// A processing instruction (`<?target data>`).
    ProcessingInstruction {
        /// The target.
        target: &'a str,
        /// The data.
        data: &'a str,
    },
}

impl<'a> NodeRef<'a> {
    #[inline]
    pub(crate) fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        NodeRef { doc, id }
    }

    #[inline]
    fn wrap(self, id: Option<indextree::NodeId>) -> Option<NodeRef<'a>> {
        id.map(|id| NodeRef { doc: self.doc, id })
    }

    /// The node's id in its document's arena (use it with the mutation methods of
    /// [`Document`]).
    #[inline]
    pub fn node_id(self) -> NodeId {
        self.doc.id_of(self.id)
    }

    #[inline]
    pub(crate) fn raw_id(self) -> indextree::NodeId {
        self.id
    }

    /// The document the node belongs to.
    #[inline]
    pub fn document(self) -> &'a Document {
        self.doc
    }

    #[inline]
    pub(crate) fn data(self) -> &'a NodeData {
        self.doc.data(self.id)
    }

    /// What the node is.
    pub fn kind(self) -> NodeKind<'a> {
        let doc = self.doc;
        match self.data() {
            NodeData::Document => NodeKind::Document,
            NodeData::Fragment => NodeKind::Fragment,
            NodeData::Doctype(d) => NodeKind::Doctype {
                name: &d.name,
                public_id: &d.public_id,
                system_id: &d.system_id,
            },
            NodeData::Element(_) => NodeKind::Element(ElementRef { node: self }),
            NodeData::Text(r) => NodeKind::Text(doc.str(*r)),
            NodeData::Comment(r) => NodeKind::Comment(doc.str(*r)),
            NodeData::ProcessingInstruction(pi) => NodeKind::ProcessingInstruction {
                target: doc.str(pi.target),
                data: doc.str(pi.data),
            },
        }
    }

    /// Whether this is an element.
    #[inline]
    pub fn is_element(self) -> bool {
        matches!(self.data(), NodeData::Element(_))
    }

    /// Whether this is a text node.
    #[inline]
    pub fn is_text(self) -> bool {
        matches!(self.data(), NodeData::Text(_))
    }

    /// Whether this is a comment.
    #[inline]
    pub fn is_comment(self) -> bool {
        matches!(self.data(), NodeData::Comment(_))
    }

    /// Whether this is a DOCTYPE.
    #[inline]
    pub fn is_doctype(self) -> bool {
        matches!(self.data(), NodeData::Doctype(_))
    }

    /// Whether this is the `Document` node.
    #[inline]
    pub fn is_document(self) -> bool {
        matches!(self.data(), NodeData::Document)
    }

    /// Whether this is a `DocumentFragment`.
    #[inline]
    pub fn is_fragment(self) -> bool {
        matches!(self.data(), NodeData::Fragment)
    }

    /// Whether this is a processing instruction.
    #[inline]
    pub fn is_processing_instruction(self) -> bool {
        matches!(self.data(), NodeData::ProcessingInstruction(_))
    }

    /// This node as an element.
    #[inline]
    pub fn as_element(self) -> Option<ElementRef<'a>> {
        self.is_element().then_some(ElementRef { node: self })
    }

    /// The data of a text node.
    #[inline]
    pub fn as_text(self) -> Option<&'a str> {
        match self.data() {
            NodeData::Text(r) => Some(self.doc.str(*r)),
            _ => None,
        }
    }

    /// The data of a comment.
    #[inline]
    pub fn as_comment(self) -> Option<&'a str> {
        match self.data() {
            NodeData::Comment(r) => Some(self.doc.str(*r)),
            _ => None,
        }
    }

    /// The parent node (`None` for the root, a template's contents, and detached nodes).
    #[inline]
    pub fn parent(self) -> Option<NodeRef<'a>> {
        self.wrap(self.doc.arena[self.id].parent())
    }

    /// The parent, if it is an element.
    #[inline]
    pub fn parent_element(self) -> Option<ElementRef<'a>> {
        self.parent().and_then(NodeRef::as_element)
    }

    /// The first child.
    #[inline]
    pub fn first_child(self) -> Option<NodeRef<'a>> {
        self.wrap(self.doc.arena[self.id].first_child())
    }

    /// The last child.
    #[inline]
    pub fn last_child(self) -> Option<NodeRef<'a>> {
        self.wrap(self.doc.arena[self.id].last_child())
    }

    /// The next sibling.
    #[inline]
    pub fn next_sibling(self) -> Option<NodeRef<'a>> {
        self.wrap(self.doc.arena[self.id].next_sibling())
    }

    /// The previous sibling.
    #[inline]
    pub fn prev_sibling(self) -> Option<NodeRef<'a>> {
        self.wrap(self.doc.arena[self.id].previous_sibling())
    }

    /// The next sibling that is an element.
    pub fn next_element_sibling(self) -> Option<ElementRef<'a>> {
        self.following_siblings().find_map(NodeRef::as_element)
    }

    /// The previous sibling that is an element.
    pub fn prev_element_sibling(self) -> Option<ElementRef<'a>> {
        self.preceding_siblings().find_map(NodeRef::as_element)
    }

    /// The children, in order.
    #[inline]
    pub fn children(self) -> Children<'a> {
        Children {
            next: self.first_child(),
            next_back: self.last_child(),
        }
    }

    /// The children that are elements.
    pub fn element_children(self) -> impl DoubleEndedIterator<Item = ElementRef<'a>> + 'a {
        self.children().filter_map(NodeRef::as_element)
    }

    /// Whether the node has children.
    #[inline]
    pub fn has_children(self) -> bool {
        self.doc.arena[self.id].first_child().is_some()
    }

    /// The siblings after this node, nearest first.
    pub fn following_siblings(self) -> impl Iterator<Item = NodeRef<'a>> + 'a {
        std::iter::successors(self.next_sibling(), |n| n.next_sibling())
    }

    /// The siblings before this node, nearest first.
    pub fn preceding_siblings(self) -> impl Iterator<Item = NodeRef<'a>> + 'a {
        std::iter::successors(self.prev_sibling(), |n| n.prev_sibling())
    }

    /// The ancestors, nearest first (not including this node).
    #[inline]
    pub fn ancestors(self) -> Ancestors<'a> {
        Ancestors {
            next: self.parent(),
        }
    }

    /// The descendants in document (pre-)order, not including this node. Template contents are
    /// not descendants (see [`ElementRef::template_contents`]).
    #[inline]
    pub fn descendants(self) -> Descendants<'a> {
        Descendants {
            traverse: self.traverse(),
        }
    }

    /// The nodes after this one in document order: its descendants, then everything after it
    /// up to the end of the tree.
    pub fn following(self) -> impl Iterator<Item = NodeRef<'a>> + 'a {
        let root = self.doc.root;
        std::iter::successors(Some(self), move |&n| {
            if let Some(c) = n.first_child() {
                return Some(c);
            }
            let mut cur = n;
            loop {
                if cur.id == root {
                    return None;
                }
                if let Some(s) = cur.next_sibling() {
                    return Some(s);
                }
                cur = cur.parent()?;
            }
        })
        .skip(1)
    }

    /// The nodes before this one in document order (not its ancestors), nearest first.
    pub fn preceding(self) -> impl Iterator<Item = NodeRef<'a>> + 'a {
        std::iter::successors(Some(self), |&n| {
            if let Some(mut p) = n.prev_sibling() {
                while let Some(c) = p.last_child() {
                    p = c;
                }
                return Some(p);
            }
            n.parent()
        })
        .skip(1)
        .filter(move |n| !n.is_ancestor_of(self))
    }

    /// Whether this node is an ancestor of `other` (not itself).
    pub fn is_ancestor_of(self, other: NodeRef<'_>) -> bool {
        other.ancestors().any(|a| a.id == self.id)
    }

    /// Open and close events for this node's subtree in document order, this node included:
    /// the iterative walk every serializer and text extractor here is built on.
    #[inline]
    pub fn traverse(self) -> Traverse<'a> {
        Traverse {
            root: self.id,
            next: Some(Edge::Open(self)),
            opened: None,
        }
    }

    /// The text content: for an element, document or fragment, the concatenation of all
    /// descendant text nodes (the DOM's `textContent`, with template contents left out);
    /// for a text node, comment or processing instruction, its data.
    pub fn text(self) -> String {
        match self.data() {
            NodeData::Text(r) | NodeData::Comment(r) => self.doc.str(*r).to_owned(),
            NodeData::ProcessingInstruction(pi) => self.doc.str(pi.data).to_owned(),
            NodeData::Doctype(_) => String::new(),
            _ => {
                let mut out = String::new();
                for n in self.descendants() {
                    if let NodeData::Text(r) = n.data() {
                        out.push_str(self.doc.str(*r));
                    }
                }
                out
            }
        }
    }
}

impl PartialEq for NodeRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && std::ptr::eq(self.doc, other.doc)
    }
}

impl Eq for NodeRef<'_> {}

/// Hashes what equality compares: the node and its document. So handles go in a `HashSet`
/// or key a `HashMap`. (Clippy's `mutable_key_type` lint may object, seeing the document's
/// lazily built caches behind the reference; the hash covers only the node id and the
/// document's address, which never change.)
///
/// ```
/// use std::collections::HashSet;
///
/// let doc = html_arena::Document::parse("<p>a<p>b");
/// let mut seen = HashSet::new();
/// for p in doc.root().descendants().chain(doc.root().descendants()) {
///     seen.insert(p);
/// }
/// assert_eq!(seen.len(), doc.root().descendants().count());
/// ```
impl std::hash::Hash for NodeRef<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
        std::ptr::hash(self.doc, state);
    }
}

impl fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            NodeKind::Element(e) => write!(f, "Element(<{}>)", e.local_name()),
            NodeKind::Text(t) => write!(f, "Text({t:?})"),
            NodeKind::Comment(t) => write!(f, "Comment({t:?})"),
            NodeKind::Doctype { name, .. } => write!(f, "Doctype({name:?})"),
            NodeKind::Document => f.write_str("Document"),
            NodeKind::Fragment => f.write_str("Fragment"),
            NodeKind::ProcessingInstruction { target, data } => {
                write!(f, "Pi({target:?}, {data:?})")
            }
        }
    }
}

/// A handle to an element: its name, attributes and classes, plus everything a [`NodeRef`]
/// offers (it dereferences to one; [`as_node`](ElementRef::as_node) converts).
///
/// Selections ([`Document::select`]) yield `ElementRef`s.
///
/// ```
/// use html_arena::{Document, Selector};
///
/// let doc = Document::parse(r#"<a id=home class="nav big" href="/">Home</a>"#);
/// let a = doc.select_first(&Selector::parse("a.nav")?).unwrap();
/// assert_eq!(a.name(), "a");
/// assert_eq!(a.attr("href"), Some("/"));
/// assert_eq!(a.id(), Some("home"));
/// assert_eq!(a.classes().collect::<Vec<_>>(), ["nav", "big"]);
/// assert_eq!(a.text(), "Home"); // a NodeRef method, through Deref
/// assert_eq!(a.parent_element().unwrap().name(), "body");
/// # Ok::<(), html_arena::SelectorError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct ElementRef<'a> {
    node: NodeRef<'a>,
}

impl<'a> Deref for ElementRef<'a> {
    type Target = NodeRef<'a>;
    #[inline]
    fn deref(&self) -> &NodeRef<'a> {
        &self.node
    }
}

impl<'a> ElementRef<'a> {
    #[inline]
    pub(crate) fn element_data(self) -> &'a ElementData {
        match self.node.data() {
            NodeData::Element(e) => e,
            // An ElementRef is only made for element nodes, and node kinds never change.
            _ => unreachable!("ElementRef on a non-element"),
        }
    }

    /// The node handle.
    #[inline]
    pub fn as_node(self) -> NodeRef<'a> {
        self.node
    }

    /// The local name: prints as text and compares with a `&str` and with the interned
    /// constants of [`local_name`](crate::local_name).
    ///
    /// ```
    /// use html_arena::{Document, local_name};
    ///
    /// let doc = Document::parse("<p>Hi<my-widget></my-widget>");
    /// let p = doc.body().unwrap().element_children().next().unwrap();
    /// assert_eq!(p.name(), "p");
    /// assert_eq!(p.name(), local_name::P);
    /// assert_eq!(p.name().to_string(), "p");
    /// let widget = p.element_children().next().unwrap();
    /// assert_eq!(format!("<{}>", widget.name()), "<my-widget>");
    /// // The interned id, for `match`ing on the constants:
    /// assert!(matches!(p.name().id(), local_name::P | local_name::DIV));
    /// ```
    #[inline]
    pub fn name(self) -> ElementName<'a> {
        ElementName {
            id: self.element_data().name,
            doc: self.node.doc,
        }
    }

    /// The local name, e.g. `"div"` or `"foreignObject"`.
    #[inline]
    pub fn local_name(self) -> &'a str {
        self.node.doc.name_str(self.element_data().name)
    }

    /// The namespace.
    #[inline]
    pub fn namespace(self) -> Namespace {
        self.element_data().ns
    }

    /// The namespace URL (`""` for no namespace; see [`Document::namespace_url`]).
    #[inline]
    pub fn namespace_url(self) -> &'a str {
        self.node.doc.namespace_url(self.element_data().ns)
    }

    /// The prefix an XML document gave the element (`atom` for `<atom:feed>`); never one
    /// for elements the HTML parser made.
    #[inline]
    pub fn prefix(self) -> Option<&'a str> {
        let p = self.element_data().prefix;
        if p == 0 {
            return None;
        }
        self.node.doc.xml_names.as_ref().and_then(|x| x.prefix(p))
    }

    /// Whether this is an HTML element with the local name `name`.
    #[inline]
    pub fn is_html(self, name: LocalName) -> bool {
        let e = self.element_data();
        e.ns == Namespace::Html && e.name == name
    }

    #[inline]
    fn raw_attrs(self) -> &'a [Attr] {
        self.node.doc.attrs_of(self.element_data())
    }

    /// The value of the attribute named `name` that has no namespace, like the DOM's
    /// `getAttribute`: on an HTML element, `name` is ASCII-lowercased first (the parser
    /// lowercased the names in the source), so `attr("HREF")` finds `href`. On SVG and
    /// MathML elements the case must match (`viewBox`).
    ///
    /// ```
    /// let doc = html_arena::Document::parse(r#"<a href="/x" HREF="/y"><svg viewBox="0 0 1 1">"#);
    /// let a = doc.body().unwrap().element_children().next().unwrap();
    /// assert_eq!(a.attr("href"), Some("/x"));
    /// assert_eq!(a.attr("HREF"), Some("/x"));
    /// assert_eq!(a.attr("title"), None);
    /// let svg = a.element_children().next().unwrap();
    /// assert_eq!(svg.attr("viewBox"), Some("0 0 1 1"));
    /// assert_eq!(svg.attr("viewbox"), None);
    /// ```
    pub fn attr(self, name: &str) -> Option<&'a str> {
        // DOM "get an attribute by name", step 1: "If element is in the HTML namespace and its
        // node document is an HTML document, then set qualifiedName to qualifiedName in ASCII
        // lowercase." (An XML document, `Document::parse_xml`, is not an HTML document.)
        if self.element_data().ns == Namespace::Html
            && !self.node.doc.is_xml()
            && name.bytes().any(|b| b.is_ascii_uppercase())
        {
            return self.attr_exact(&name.to_ascii_lowercase());
        }
        self.attr_exact(name)
    }

    /// The attribute named exactly `name`, with no namespace.
    fn attr_exact(self, name: &str) -> Option<&'a str> {
        let doc = self.node.doc;
        let id = doc.names.get(name)?;
        self.raw_attrs()
            .iter()
            .find(|a| a.name == id && a.ns == AttrNamespace::None)
            .map(|a| doc.str(a.value))
    }

    /// The value of the attribute with namespace `ns` and local name `name`.
    pub fn attr_ns(self, ns: AttrNamespace, name: &str) -> Option<&'a str> {
        let doc = self.node.doc;
        let id = doc.names.get(name)?;
        self.raw_attrs()
            .iter()
            .find(|a| a.name == id && a.ns == ns)
            .map(|a| doc.str(a.value))
    }

    /// The value of the attribute with this interned name and no namespace.
    #[inline]
    pub fn attr_by_name(self, name: LocalName) -> Option<&'a str> {
        let doc = self.node.doc;
        self.raw_attrs()
            .iter()
            .find(|a| a.name == name && a.ns == AttrNamespace::None)
            .map(|a| doc.str(a.value))
    }

    /// Whether the element has an attribute named `name` (no namespace).
    pub fn has_attr(self, name: &str) -> bool {
        self.attr(name).is_some()
    }

    /// The attributes, in source order.
    #[inline]
    pub fn attrs(self) -> Attributes<'a> {
        Attributes {
            doc: self.node.doc,
            iter: self.raw_attrs().iter(),
            index: self.element_data().attrs.start,
        }
    }

    /// The `id` attribute.
    #[inline]
    pub fn id(self) -> Option<&'a str> {
        self.attr_by_name(local_name::ID)
    }

    /// The classes of the `class` attribute, split on ASCII whitespace.
    pub fn classes(self) -> impl Iterator<Item = &'a str> + 'a {
        self.attr_by_name(local_name::CLASS)
            .unwrap_or("")
            .split([' ', '\t', '\n', '\x0C', '\r'])
            .filter(|s| !s.is_empty())
    }

    /// Whether the `class` attribute contains `class` (case-sensitive).
    pub fn has_class(self, class: &str) -> bool {
        self.classes().any(|c| c == class)
    }

    /// For an HTML `template` element, its contents (a `DocumentFragment`).
    pub fn template_contents(self) -> Option<NodeRef<'a>> {
        self.node
            .doc
            .template_contents_of(self.node.id)
            .map(|id| NodeRef::new(self.node.doc, id))
    }
}

impl fmt::Debug for ElementRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.fmt(f)
    }
}

/// One attribute of an element.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Attribute<'a> {
    /// The interned local name.
    pub name: LocalName,
    /// The local name's text (`href` for `xlink:href`).
    pub local_name: &'a str,
    /// The namespace (none for all but a few adjusted foreign attributes).
    pub namespace: AttrNamespace,
    /// The value.
    pub value: &'a str,
    /// The prefix an XML document gave it, if any.
    xml_prefix: Option<&'a str>,
}

impl<'a> Attribute<'a> {
    /// The prefix (`xlink` for `xlink:href`), if any: the one the HTML parser gives
    /// ([`AttrNamespace::prefix`]), or the one written in an XML document.
    pub fn prefix(&self) -> Option<&'a str> {
        self.xml_prefix
            .or_else(|| self.namespace.prefix(self.local_name))
    }
}

/// The attributes of an element, in source order.
#[derive(Clone)]
pub struct Attributes<'a> {
    doc: &'a Document,
    iter: std::slice::Iter<'a, Attr>,
    /// The index in `Document::attrs` of the next attribute.
    index: u32,
}

impl<'a> Iterator for Attributes<'a> {
    type Item = Attribute<'a>;
    fn next(&mut self) -> Option<Attribute<'a>> {
        let a = self.iter.next()?;
        let index = self.index;
        self.index = self.index.wrapping_add(1);
        let xml_prefix = match &self.doc.xml_names {
            Some(x) if a.ns != AttrNamespace::None => {
                x.attr_prefixes.get(&index).and_then(|&p| x.prefix(p))
            }
            _ => None,
        };
        Some(Attribute {
            name: a.name,
            local_name: self.doc.name_str(a.name),
            namespace: a.ns,
            value: self.doc.str(a.value),
            xml_prefix,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl ExactSizeIterator for Attributes<'_> {}

/// The children of a node.
#[derive(Clone)]
pub struct Children<'a> {
    next: Option<NodeRef<'a>>,
    next_back: Option<NodeRef<'a>>,
}

impl<'a> Iterator for Children<'a> {
    type Item = NodeRef<'a>;
    fn next(&mut self) -> Option<NodeRef<'a>> {
        let n = self.next?;
        if self.next_back.is_some_and(|b| b.id == n.id) {
            self.next = None;
            self.next_back = None;
        } else {
            self.next = n.next_sibling();
        }
        Some(n)
    }
}

impl<'a> DoubleEndedIterator for Children<'a> {
    fn next_back(&mut self) -> Option<NodeRef<'a>> {
        let n = self.next_back?;
        if self.next.is_some_and(|f| f.id == n.id) {
            self.next = None;
            self.next_back = None;
        } else {
            self.next_back = n.prev_sibling();
        }
        Some(n)
    }
}

/// The ancestors of a node, nearest first.
#[derive(Clone)]
pub struct Ancestors<'a> {
    next: Option<NodeRef<'a>>,
}

impl<'a> Iterator for Ancestors<'a> {
    type Item = NodeRef<'a>;
    fn next(&mut self) -> Option<NodeRef<'a>> {
        let n = self.next?;
        self.next = n.parent();
        Some(n)
    }
}

/// An event of a subtree walk.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Edge<'a> {
    /// Entering a node (before its children).
    Open(NodeRef<'a>),
    /// Leaving a node (after its children).
    Close(NodeRef<'a>),
}

/// An iterative walk over a subtree: [`Edge::Open`] and [`Edge::Close`] for every node.
#[derive(Clone)]
pub struct Traverse<'a> {
    root: indextree::NodeId,
    next: Option<Edge<'a>>,
    /// The node of the last event, if that event opened it.
    opened: Option<NodeRef<'a>>,
}

impl<'a> Traverse<'a> {
    /// Skips the children of the node just opened: the next event closes it.
    pub fn skip_subtree(&mut self) {
        if let Some(n) = self.opened.take() {
            self.next = Some(Edge::Close(n));
        }
    }
}

impl<'a> Iterator for Traverse<'a> {
    type Item = Edge<'a>;
    fn next(&mut self) -> Option<Edge<'a>> {
        let current = self.next?;
        self.opened = None;
        self.next = match current {
            Edge::Open(n) => {
                self.opened = Some(n);
                match n.first_child() {
                    Some(c) => Some(Edge::Open(c)),
                    None => Some(Edge::Close(n)),
                }
            }
            Edge::Close(n) => {
                if n.id == self.root {
                    None
                } else if let Some(s) = n.next_sibling() {
                    Some(Edge::Open(s))
                } else {
                    n.parent().map(Edge::Close)
                }
            }
        };
        Some(current)
    }
}

/// The descendants of a node in document order.
#[derive(Clone)]
pub struct Descendants<'a> {
    traverse: Traverse<'a>,
}

impl<'a> Iterator for Descendants<'a> {
    type Item = NodeRef<'a>;
    fn next(&mut self) -> Option<NodeRef<'a>> {
        loop {
            match self.traverse.next()? {
                Edge::Open(n) if n.id != self.traverse.root => return Some(n),
                _ => continue,
            }
        }
    }
}

/// The local name of an element, borrowed from its document: what [`ElementRef::name`]
/// returns. It prints as text ([`Display`](fmt::Display)), compares with a `&str` (exactly,
/// case-sensitively: HTML element names are lowercase) and with the interned constants of
/// [`local_name`](crate::local_name); [`id`](ElementName::id) gives the interned
/// [`LocalName`] itself, for `match`.
///
/// ```
/// use html_arena::{Document, local_name};
///
/// let doc = Document::parse("<svg><foreignObject/></svg>");
/// let svg = doc.body().unwrap().element_children().next().unwrap();
/// let fo = svg.element_children().next().unwrap();
/// assert_eq!(fo.name(), "foreignObject");
/// assert_eq!(fo.name(), local_name::FOREIGN_OBJECT);
/// assert_eq!(fo.name().as_str().len(), 13);
/// ```
#[derive(Copy, Clone)]
pub struct ElementName<'a> {
    id: LocalName,
    doc: &'a Document,
}

impl<'a> ElementName<'a> {
    /// The name's text, e.g. `"div"` or `"foreignObject"`.
    #[inline]
    pub fn as_str(self) -> &'a str {
        self.doc.name_str(self.id)
    }

    /// The interned name, to compare or `match` with the constants of
    /// [`local_name`](crate::local_name) (a dynamic name, one the crate does not know
    /// statically, is only meaningful within its document).
    #[inline]
    pub fn id(self) -> LocalName {
        self.id
    }
}

impl fmt::Display for ElementName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for ElementName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl AsRef<str> for ElementName<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<ElementName<'_>> for LocalName {
    fn from(name: ElementName<'_>) -> LocalName {
        name.id
    }
}

/// Names are equal when their texts are (whatever document they come from).
impl PartialEq for ElementName<'_> {
    fn eq(&self, other: &Self) -> bool {
        if self.id.is_static() && other.id.is_static() {
            self.id == other.id
        } else {
            self.as_str() == other.as_str()
        }
    }
}

impl Eq for ElementName<'_> {}

impl std::hash::Hash for ElementName<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for ElementName<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ElementName<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<ElementName<'_>> for &str {
    fn eq(&self, other: &ElementName<'_>) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<ElementName<'_>> for str {
    fn eq(&self, other: &ElementName<'_>) -> bool {
        self == other.as_str()
    }
}

/// Compares the interned ids (the constants of [`local_name`](crate::local_name) are static,
/// so this is exact for them).
impl PartialEq<LocalName> for ElementName<'_> {
    fn eq(&self, other: &LocalName) -> bool {
        self.id == *other
    }
}

impl PartialEq<ElementName<'_>> for LocalName {
    fn eq(&self, other: &ElementName<'_>) -> bool {
        *self == other.id
    }
}

/// A short form: the arena index (and the document's serial number), never the internals.
impl fmt::Debug for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "NodeId({} of document #{})",
            usize::from(self.raw),
            self.doc
        )
    }
}

impl Document {
    /// The first element in tree order whose `id` attribute is `id`, like the DOM's
    /// `getElementById` (an empty `id` finds nothing). The nodes inside `<template>`
    /// contents are not part of the tree and are not searched.
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<p id=a>1<p id=b>2<p id=b>3");
    /// assert_eq!(doc.get_element_by_id("b").unwrap().text(), "2");
    /// assert!(doc.get_element_by_id("c").is_none());
    /// ```
    pub fn get_element_by_id(&self, id: &str) -> Option<ElementRef<'_>> {
        if id.is_empty() {
            return None;
        }
        self.root()
            .descendants()
            .filter_map(NodeRef::as_element)
            .find(|e| e.id() == Some(id))
    }
}
