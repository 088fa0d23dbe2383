//! Structural equality of two trees or subtrees, possibly of different documents.
//!
//! Two nodes are equal when they have the same kind and the same data: for an element its
//! namespace, local name and attributes (namespace, local name and value of each; in source
//! order by default, or as a set with [`AttributeOrder::AsSet`]); for text, comments and
//! processing instructions their strings; for a DOCTYPE its name and identifiers. Two subtrees
//! are equal when their roots are and their children are, pairwise, and the same holds for
//! template contents. Node ids, source positions (unless [`CompareOptions::spans`] asks for
//! them) and parse errors do not count.
//!
//! The walk is iterative (a tree 1,000,000 deep compares without deep recursion) and linear:
//! each node is visited once, each string compared once. [`first_difference`] tells where two
//! trees first differ, in document order (a template's contents right after the template).
//!
//! ```
//! use html_arena::Document;
//! use html_arena::dom::compare::{CompareOptions, first_difference};
//!
//! let a = Document::parse("<p class=x>Hi</p>");
//! let b = Document::parse("<p class=x>Hi</p>");
//! let c = Document::parse("<p class=y>Hi</p>");
//! assert!(a.subtree_eq(a.root().node_id(), &b, b.root().node_id()));
//! let diff = first_difference(a.root(), c.root(), &CompareOptions::default()).unwrap();
//! assert_eq!(diff.left.unwrap().as_element().unwrap().local_name(), "p");
//! assert_eq!(diff.to_string(), "attributes differ: <p class=\"x\"> vs <p class=\"y\">");
//! ```

use std::borrow::Cow;
use std::fmt;

use super::node::{ElementRef, NodeKind, NodeRef};
use super::{Document, NodeId};

/// How [`first_difference`] compares attributes.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum AttributeOrder {
    /// The same attributes in the same order (what the parser produces is in source order).
    #[default]
    InOrder,
    /// The same attributes in any order (an element has no two attributes with the same
    /// namespace and local name, so this is set equality).
    AsSet,
}

/// What counts in a comparison. The default compares everything structural, exactly: text
/// nodes one by one, attributes in order, no source positions.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct CompareOptions {
    /// Compare runs of adjacent text nodes as one text (serializing and parsing again joins
    /// them; the serializer's round-trip check compares this way).
    pub merge_adjacent_text: bool,
    /// How attributes are compared.
    pub attribute_order: AttributeOrder,
    /// Also compare every node's source span and every element's end tag span (see
    /// [`crate::dom::positions`]); meaningful between two parses of the same input.
    pub spans: bool,
}

impl CompareOptions {
    /// Sets [`CompareOptions::merge_adjacent_text`].
    ///
    /// ```
    /// use html_arena::Document;
    /// use html_arena::dom::compare::{CompareOptions, first_difference};
    ///
    /// let mut a = Document::parse("<p>ab");
    /// let b = Document::parse("<p>ab");
    /// // Split "ab" into two text nodes.
    /// let p = a.body().unwrap().first_child().unwrap().node_id();
    /// let text = a.new_text("b");
    /// a.set_text(p, "a").unwrap();
    /// a.append(p, text).unwrap();
    /// assert!(first_difference(a.root(), b.root(), &CompareOptions::default()).is_some());
    /// let merged = CompareOptions::default().with_merge_adjacent_text(true);
    /// assert!(first_difference(a.root(), b.root(), &merged).is_none());
    /// ```
    pub fn with_merge_adjacent_text(mut self, merge: bool) -> Self {
        self.merge_adjacent_text = merge;
        self
    }

    /// Sets [`CompareOptions::attribute_order`].
    ///
    /// ```
    /// use html_arena::Document;
    /// use html_arena::dom::compare::{AttributeOrder, CompareOptions, first_difference};
    ///
    /// let a = Document::parse("<p id=1 class=x>");
    /// let b = Document::parse("<p class=x id=1>");
    /// assert!(first_difference(a.root(), b.root(), &CompareOptions::default()).is_some());
    /// let set = CompareOptions::default().with_attribute_order(AttributeOrder::AsSet);
    /// assert!(first_difference(a.root(), b.root(), &set).is_none());
    /// ```
    pub fn with_attribute_order(mut self, order: AttributeOrder) -> Self {
        self.attribute_order = order;
        self
    }

    /// Sets [`CompareOptions::spans`].
    ///
    /// ```
    /// use html_arena::{Document, ParseOptions};
    /// use html_arena::dom::compare::{CompareOptions, first_difference};
    ///
    /// let mut options = ParseOptions::default();
    /// options.source_positions = true;
    /// let a = Document::parse_with("<p>x", &options);
    /// let b = Document::parse_with(" <p>x", &options);
    /// assert!(first_difference(a.root(), b.root(), &CompareOptions::default()).is_none());
    /// let spans = CompareOptions::default().with_spans(true);
    /// assert!(first_difference(a.root(), b.root(), &spans).is_some());
    /// ```
    pub fn with_spans(mut self, spans: bool) -> Self {
        self.spans = spans;
        self
    }
}

/// What differs between two nodes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum DifferenceKind {
    /// Different kinds of node, or different data: element namespace or local name, text,
    /// comment, processing instruction or DOCTYPE strings.
    Node,
    /// Same element name, different attributes.
    Attributes,
    /// One node has a child (or a text run) where the other has none: `left` or `right` is
    /// that child and the other side is `None`.
    Children,
    /// One element has template contents and the other has none.
    TemplateContents,
    /// Equal nodes with different source spans (only with [`CompareOptions::spans`]).
    Span,
}

/// The first place where two trees differ (see [`first_difference`]).
#[derive(Copy, Clone, Debug)]
pub struct Difference<'a, 'b> {
    /// What differs.
    pub kind: DifferenceKind,
    /// The node of the first tree (`None` where only the second has a child). For a run of
    /// text nodes compared as one, its first node.
    pub left: Option<NodeRef<'a>>,
    /// The node of the second tree (`None` where only the first has a child).
    pub right: Option<NodeRef<'b>>,
}

impl fmt::Display for Difference<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            DifferenceKind::Node => "nodes differ",
            DifferenceKind::Attributes => "attributes differ",
            DifferenceKind::Children => "children differ",
            DifferenceKind::TemplateContents => "template contents differ",
            DifferenceKind::Span => "source spans differ",
        };
        write!(f, "{what}: ")?;
        summary(f, self.left, self.kind)?;
        f.write_str(" vs ")?;
        summary(f, self.right, self.kind)
    }
}

/// At most this many characters of a node's data in a [`Difference`]'s message.
const SUMMARY_CHARS: usize = 80;

fn summary(
    f: &mut fmt::Formatter<'_>,
    node: Option<NodeRef<'_>>,
    kind: DifferenceKind,
) -> fmt::Result {
    let Some(node) = node else {
        return f.write_str("nothing");
    };
    let short = |s: &str| -> String {
        let mut out: String = s.chars().take(SUMMARY_CHARS).collect();
        if out.len() < s.len() {
            out.push_str("...");
        }
        out
    };
    match node.kind() {
        NodeKind::Document => f.write_str("#document")?,
        NodeKind::Fragment => f.write_str("#document-fragment")?,
        NodeKind::Doctype {
            name,
            public_id,
            system_id,
        } => write!(
            f,
            "<!DOCTYPE {:?} {:?} {:?}>",
            short(name),
            short(public_id),
            short(system_id)
        )?,
        NodeKind::Element(e) => {
            write!(f, "<{}", short(e.local_name()))?;
            if e.namespace() != super::names::Namespace::Html {
                write!(f, " ({:?})", e.namespace())?;
            }
            for (i, a) in e.attrs().enumerate() {
                if i == 8 {
                    f.write_str(" ...")?;
                    break;
                }
                let prefix = a.prefix().map(|p| format!("{p}:")).unwrap_or_default();
                write!(f, " {prefix}{}={:?}", short(a.local_name), short(a.value))?;
            }
            f.write_str(">")?;
        }
        NodeKind::Text(t) => write!(f, "text {:?}", short(t))?,
        NodeKind::Comment(t) => write!(f, "comment {:?}", short(t))?,
        NodeKind::ProcessingInstruction { target, data } => {
            write!(f, "<?{} {:?}>", short(target), short(data))?
        }
    }
    if kind == DifferenceKind::Span {
        let end = node.as_element().and_then(ElementRef::end_tag_span);
        write!(f, " at {:?}, end tag {:?}", node.source_span(), end)?;
    }
    Ok(())
}

/// The first difference between the subtrees rooted at `a` and `b` (which may belong to
/// different documents), in document order, or `None` when they are equal under `options`.
///
/// ```
/// use html_arena::Document;
/// use html_arena::dom::compare::{CompareOptions, DifferenceKind, first_difference};
///
/// let a = Document::parse("<ul><li>1<li>2</ul>");
/// let b = Document::parse("<ul><li>1</ul>");
/// let diff = first_difference(a.root(), b.root(), &CompareOptions::default()).unwrap();
/// assert_eq!(diff.kind, DifferenceKind::Children);
/// assert!(diff.right.is_none());
/// assert_eq!(diff.to_string(), "children differ: <li> vs nothing");
/// ```
pub fn first_difference<'a, 'b>(
    a: NodeRef<'a>,
    b: NodeRef<'b>,
    options: &CompareOptions,
) -> Option<Difference<'a, 'b>> {
    let diff = |kind, left, right| {
        Some(Difference {
            kind,
            left: Some(left),
            right: Some(right),
        })
    };
    if let Some(kind) = node_difference(a, b, options) {
        return diff(kind, a, b);
    }
    // Pairs of sibling cursors still to compare; the top is the innermost.
    let mut stack: Vec<(Cursor<'a>, Cursor<'b>)> = Vec::new();
    push_children(&mut stack, a, b, options);
    while let Some((ca, cb)) = stack.last_mut() {
        let (x, y) = match (ca.next(), cb.next()) {
            (None, None) => {
                stack.pop();
                continue;
            }
            (Some(x), Some(y)) => (x, y),
            (x, y) => {
                return Some(Difference {
                    kind: DifferenceKind::Children,
                    left: x.map(Item::node),
                    right: y.map(Item::node),
                });
            }
        };
        match (x, y) {
            (Item::Text(p, s), Item::Text(q, t)) => {
                if s != t {
                    return diff(DifferenceKind::Node, p, q);
                }
                if options.spans && p.source_span() != q.source_span() {
                    return diff(DifferenceKind::Span, p, q);
                }
            }
            (Item::Node(p), Item::Node(q)) => {
                if let Some(kind) = node_difference(p, q, options) {
                    return diff(kind, p, q);
                }
                push_children(&mut stack, p, q, options);
            }
            (x, y) => return diff(DifferenceKind::Node, x.node(), y.node()),
        }
    }
    None
}

/// Compares `p` and `q` themselves (not their children); `None` if equal.
fn node_difference(
    p: NodeRef<'_>,
    q: NodeRef<'_>,
    options: &CompareOptions,
) -> Option<DifferenceKind> {
    let same = match (p.kind(), q.kind()) {
        (NodeKind::Element(e), NodeKind::Element(f)) => {
            if e.namespace_url() != f.namespace_url() || e.local_name() != f.local_name() {
                return Some(DifferenceKind::Node);
            }
            if !same_attributes(e, f, options.attribute_order) {
                return Some(DifferenceKind::Attributes);
            }
            if e.template_contents().is_some() != f.template_contents().is_some() {
                return Some(DifferenceKind::TemplateContents);
            }
            true
        }
        (NodeKind::Text(a), NodeKind::Text(b)) | (NodeKind::Comment(a), NodeKind::Comment(b)) => {
            a == b
        }
        (
            NodeKind::ProcessingInstruction {
                target: t1,
                data: d1,
            },
            NodeKind::ProcessingInstruction {
                target: t2,
                data: d2,
            },
        ) => t1 == t2 && d1 == d2,
        (
            NodeKind::Doctype {
                name: n1,
                public_id: p1,
                system_id: s1,
            },
            NodeKind::Doctype {
                name: n2,
                public_id: p2,
                system_id: s2,
            },
        ) => n1 == n2 && p1 == p2 && s1 == s2,
        (NodeKind::Document, NodeKind::Document) | (NodeKind::Fragment, NodeKind::Fragment) => true,
        _ => false,
    };
    if !same {
        return Some(DifferenceKind::Node);
    }
    if options.spans {
        let end = |n: NodeRef<'_>| n.as_element().and_then(ElementRef::end_tag_span);
        if p.source_span() != q.source_span() || end(p) != end(q) {
            return Some(DifferenceKind::Span);
        }
    }
    None
}

fn same_attributes(e: ElementRef<'_>, f: ElementRef<'_>, order: AttributeOrder) -> bool {
    if e.attrs().len() != f.attrs().len() {
        return false;
    }
    match order {
        AttributeOrder::InOrder => e
            .attrs()
            .map(|a| attr_key(e, a))
            .eq(f.attrs().map(|a| attr_key(f, a))),
        AttributeOrder::AsSet => sorted_attrs(e) == sorted_attrs(f),
    }
}

/// An attribute as (namespace URL, local name, value): namespaces of XML documents are
/// numbered per document, so two documents compare them by URL.
fn attr_key<'a>(e: ElementRef<'a>, a: super::Attribute<'a>) -> (Option<&'a str>, &'a str, &'a str) {
    let ns = e.document().attr_namespace_url(a.namespace);
    (ns, a.local_name, a.value)
}

fn sorted_attrs(e: ElementRef<'_>) -> Vec<(Option<&str>, &str, &str)> {
    let mut list: Vec<_> = e.attrs().map(|a| attr_key(e, a)).collect();
    list.sort_unstable();
    list
}

/// Pushes the cursors over the children of `p` and `q`, and over their template contents on
/// top (compared first: document order puts them right after the template's start).
fn push_children<'a, 'b>(
    stack: &mut Vec<(Cursor<'a>, Cursor<'b>)>,
    p: NodeRef<'a>,
    q: NodeRef<'b>,
    options: &CompareOptions,
) {
    let merge = options.merge_adjacent_text;
    if p.has_children() || q.has_children() {
        stack.push((Cursor::new(p, merge), Cursor::new(q, merge)));
    }
    let cp = p.as_element().and_then(ElementRef::template_contents);
    let cq = q.as_element().and_then(ElementRef::template_contents);
    if let (Some(cp), Some(cq)) = (cp, cq) {
        stack.push((Cursor::new(cp, merge), Cursor::new(cq, merge)));
    }
}

/// A child, or with `merge_adjacent_text` a run of adjacent text children (its first node and
/// its text).
enum Item<'a> {
    Node(NodeRef<'a>),
    Text(NodeRef<'a>, Cow<'a, str>),
}

impl<'a> Item<'a> {
    fn node(self) -> NodeRef<'a> {
        match self {
            Item::Node(n) | Item::Text(n, _) => n,
        }
    }
}

/// The children of one node, one [`Item`] at a time.
struct Cursor<'a> {
    next: Option<NodeRef<'a>>,
    merge: bool,
}

impl<'a> Cursor<'a> {
    fn new(parent: NodeRef<'a>, merge: bool) -> Cursor<'a> {
        Cursor {
            next: parent.first_child(),
            merge,
        }
    }

    fn next(&mut self) -> Option<Item<'a>> {
        let node = self.next?;
        self.next = node.next_sibling();
        let Some(text) = node.as_text() else {
            return Some(Item::Node(node));
        };
        let mut run = Cow::Borrowed(text);
        if self.merge {
            while let Some(more) = self.next.and_then(NodeRef::as_text) {
                run.to_mut().push_str(more);
                self.next = self.next.and_then(NodeRef::next_sibling);
            }
        }
        Some(Item::Text(node, run))
    }
}

impl Document {
    /// Whether the subtree at `a` in this document and the one at `b` in `other` are
    /// structurally equal (see [`crate::dom::compare`]: kinds, names, namespaces, attributes
    /// in order, text one node at a time, template contents; not ids or positions). `false`
    /// if either id is not a node of its document.
    ///
    /// ```
    /// use html_arena::Document;
    ///
    /// let a = Document::parse("<ul><li>1</li></ul>");
    /// let b = Document::parse_fragment("<li>1", "ul", &Default::default()).unwrap();
    /// let li_a = a.body().unwrap().first_child().unwrap().first_child().unwrap();
    /// let li_b = b.root().first_child().unwrap();
    /// assert!(a.subtree_eq(li_a.node_id(), &b, li_b.node_id()));
    /// assert!(!a.subtree_eq(a.root().node_id(), &b, b.root().node_id()));
    /// ```
    pub fn subtree_eq(&self, a: NodeId, other: &Document, b: NodeId) -> bool {
        match (self.node(a), other.node(b)) {
            (Some(x), Some(y)) => first_difference(x, y, &CompareOptions::default()).is_none(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn diff(a: &str, b: &str) -> Option<String> {
        let (x, y) = (Document::parse(a), Document::parse(b));
        first_difference(x.root(), y.root(), &CompareOptions::default()).map(|d| d.to_string())
    }

    #[test]
    fn equal_and_different_trees() {
        assert_eq!(diff("<p>a<!--c--><b>x</b>", "<p>a<!--c--><b>x</b>"), None);
        assert_eq!(
            diff("<p>a", "<p>b").as_deref(),
            Some("nodes differ: text \"a\" vs text \"b\"")
        );
        assert_eq!(
            diff("<!--x-->", "<!--y-->").as_deref(),
            Some("nodes differ: comment \"x\" vs comment \"y\"")
        );
        assert_eq!(
            diff("<svg><g/></svg>", "<svg><path/></svg>").as_deref(),
            Some("nodes differ: <g (Svg)> vs <path (Svg)>")
        );
        assert_eq!(
            diff("<!DOCTYPE html>", "<!DOCTYPE htm>").as_deref(),
            Some("nodes differ: <!DOCTYPE \"html\" \"\" \"\"> vs <!DOCTYPE \"htm\" \"\" \"\">")
        );
        // Document order: the first difference is the earlier one.
        assert_eq!(
            diff("<p>a</p><p>b", "<p>x</p><p>y").as_deref(),
            Some("nodes differ: text \"a\" vs text \"x\"")
        );
    }

    #[test]
    fn template_contents_count_and_come_first() {
        assert_eq!(
            diff("<template>a</template>b", "<template>c</template>d").as_deref(),
            Some("nodes differ: text \"a\" vs text \"c\"")
        );
        let a = Document::parse("<template>a</template>");
        let b = Document::parse("<template></template>");
        let d = first_difference(a.root(), b.root(), &CompareOptions::default()).unwrap();
        assert_eq!(d.kind, DifferenceKind::Children);
        assert_eq!(d.left.and_then(NodeRef::as_text), Some("a"));
        assert!(d.right.is_none());
        // A fragment's root against a document's.
        let f = Document::parse_fragment("<template>a</template>", "div", &ParseOptions::default())
            .unwrap();
        let d = first_difference(a.root(), f.root(), &CompareOptions::default()).unwrap();
        assert_eq!(d.kind, DifferenceKind::Node);
    }

    /// A tree 200,000 elements deep (and one as long) compares without recursion.
    #[test]
    fn deep_and_wide_trees() {
        let n = 200_000;
        let deep = "<div>".repeat(n);
        let a = Document::parse(&deep);
        let b = Document::parse(&deep);
        assert!(a.subtree_eq(a.root().node_id(), &b, b.root().node_id()));
        let c = Document::parse(&(deep.clone() + "x"));
        let d = first_difference(a.root(), c.root(), &CompareOptions::default()).unwrap();
        assert_eq!(d.kind, DifferenceKind::Children);
        assert_eq!(d.right.and_then(NodeRef::as_text), Some("x"));
        let wide = "<br>".repeat(n);
        let (x, y) = (Document::parse(&wide), Document::parse(&wide));
        assert!(x.subtree_eq(x.root().node_id(), &y, y.root().node_id()));
    }

    #[test]
    fn spans_and_ids_of_other_documents() {
        let options = ParseOptions {
            source_positions: true,
            ..ParseOptions::default()
        };
        let a = Document::parse_with("<p>x</p>", &options);
        let b = Document::parse_with("<p>x", &options);
        let spans = CompareOptions::default().with_spans(true);
        let d = first_difference(a.root(), b.root(), &spans).unwrap();
        assert_eq!(d.kind, DifferenceKind::Span);
        assert!(
            d.to_string()
                .starts_with("source spans differ: <p> at Some(")
        );
        // An id of another document is not a node of this one.
        assert!(!a.subtree_eq(b.root().node_id(), &b, b.root().node_id()));
    }
}
