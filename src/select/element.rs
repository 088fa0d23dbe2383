//! The `selectors::Element` implementation: an element as the selector engine sees it.
//!
//! [`El`] is an element of a [`TreeIndex`]: navigation reads the index's element-only links,
//! `#id` and `.class` compare precomputed hashes before any string, and type and attribute
//! selectors compare interned name ids. It is crate-private, so the public API does not depend
//! on the `selectors` crate's traits (whose major versions move with Servo).
//!
//! Case rules (HTML, "Case-sensitivity of selectors"): the `selectors` crate lowercases type
//! selectors and attribute names for HTML elements (`is_html_element_in_html_document`: every
//! document here is an HTML document), matches the values of the attributes HTML lists as
//! case-insensitive without case, and passes `has_id`/`has_class` the quirks-mode rule.

use std::cell::Cell;
use std::fmt;

use selectors::attr::{AttrSelectorOperation, CaseSensitivity, NamespaceConstraint};
use selectors::bloom::BloomFilter;
use selectors::context::MatchingContext;
use selectors::matching::ElementSelectorFlags;
use selectors::{Element, OpaqueElement};

use super::parser::{AttrValue, HtmlImpl, Ident, Name, NsUrl};
use super::pseudo::{self, PseudoClass, PseudoElement};
use crate::dom::names::{AttrNamespace, LocalName, Namespace};
use crate::dom::{Attr, Document, NodeRef};
use crate::html::forms::{Control, ElementStates};
use crate::query::index::{Elem, FLAG_ROOT, NONE, TreeIndex, ci_hash};

/// The trees a query runs over: a document and an index of it (or of one of its detached
/// subtrees).
pub(crate) struct Tree<'a> {
    pub(crate) doc: &'a Document,
    pub(crate) index: &'a TreeIndex,
    /// How many steps (moves to a parent, sibling or child) matching has taken: a query
    /// watches it to bound its work (see `query.rs`).
    pub(crate) steps: Cell<u64>,
}

impl<'a> Tree<'a> {
    pub(crate) fn new(doc: &'a Document, index: &'a TreeIndex) -> Tree<'a> {
        Tree {
            doc,
            index,
            steps: Cell::new(0),
        }
    }
}

/// An element of an index. Two words, so the selector engine passes it in registers.
#[derive(Clone, Copy)]
pub(crate) struct El<'a> {
    pub(crate) tree: &'a Tree<'a>,
    pub(crate) pos: u32,
}

impl<'a> El<'a> {
    #[inline]
    pub(crate) fn doc(self) -> &'a Document {
        self.tree.doc
    }

    #[inline]
    pub(crate) fn index(self) -> &'a TreeIndex {
        self.tree.index
    }

    #[inline]
    pub(crate) fn elem(self) -> &'a Elem {
        self.index().elem(self.pos)
    }

    /// The element at `pos` (none for `NONE`): one step.
    #[inline]
    fn at(self, pos: u32) -> Option<El<'a>> {
        self.tree.steps.set(self.tree.steps.get() + 1);
        (pos != NONE).then_some(El { pos, ..self })
    }

    /// The node handle.
    #[inline]
    pub(crate) fn node(self) -> NodeRef<'a> {
        NodeRef::new(self.doc(), self.elem().node)
    }

    #[inline]
    pub(crate) fn local_name(self) -> &'a str {
        self.doc().name_str(self.elem().name)
    }

    #[inline]
    fn attrs(self) -> &'a [Attr] {
        self.doc()
            .attrs
            .get(self.elem().attrs.range())
            .unwrap_or(&[])
    }

    /// The value of the attribute `name` in no namespace.
    #[inline]
    pub(crate) fn attr(self, name: LocalName) -> Option<&'a str> {
        self.attr_ns(AttrNamespace::None, name)
    }

    /// The value of the attribute `name` in namespace `ns`.
    #[inline]
    pub(crate) fn attr_ns(self, ns: AttrNamespace, name: LocalName) -> Option<&'a str> {
        self.attrs()
            .iter()
            .find(|a| a.name == name && a.ns == ns)
            .map(|a| self.doc().str(a.value))
    }

    /// The tree-wide element state of this element's index (see `html::forms`).
    #[inline]
    pub(crate) fn states(self) -> &'a ElementStates {
        crate::html::forms::states(self.doc(), self.index())
    }

    /// This element as the form layer sees it.
    #[inline]
    pub(crate) fn control(self) -> Control<'a> {
        Control {
            doc: self.doc(),
            index: self.index(),
            pos: self.pos,
        }
    }

    /// The constraint validation bits of this element (see `html::forms::validity`).
    #[inline]
    pub(crate) fn validity_bits(self) -> u8 {
        self.states()
            .validity_bits(self.doc(), self.index(), self.pos)
    }

    /// Calls `f` with each hash the element at `pos` adds to an ancestor Bloom filter: its
    /// local name, namespace, id and classes (the same hashes the selector's
    /// `AncestorHashes` hold; the classes once split, which a query that names a class makes
    /// sure of, see `TreeIndex::ensure_classes`).
    #[inline]
    pub(crate) fn each_hash(doc: &Document, index: &TreeIndex, pos: u32, mut f: impl FnMut(u32)) {
        let e = index.elem(pos);
        f(e.name_hash);
        f(namespace_hash(doc, e.ns));
        if e.id_attr != NONE {
            f(e.id_hash);
        }
        for c in index.classes_at(pos) {
            f(c.hash);
        }
    }
}

/// The hash of a namespace URL, as [`NsUrl`] computes it.
#[inline]
fn namespace_hash(doc: &Document, ns: Namespace) -> u32 {
    use std::sync::OnceLock;
    static HASHES: OnceLock<[u32; 3]> = OnceLock::new();
    let hashes = HASHES.get_or_init(|| {
        [
            ci_hash(Namespace::Html.url()),
            ci_hash(Namespace::Svg.url()),
            ci_hash(Namespace::MathMl.url()),
        ]
    });
    match ns {
        Namespace::Html => hashes[0],
        Namespace::Svg => hashes[1],
        Namespace::MathMl => hashes[2],
        // XML documents: the hash of the URL, as `NsUrl` computes it.
        Namespace::None | Namespace::Other(_) => ci_hash(doc.namespace_url(ns)),
    }
}

/// Whether an interned name equals a selector's name. A selector name with a static id equals
/// exactly the names with that id; one without equals only dynamic names with the same text.
#[inline]
fn name_is(doc: &Document, name: LocalName, selector: &Name) -> bool {
    match selector.id {
        Some(id) => name == id,
        None => !name.is_static() && doc.name_str(name) == &*selector.text,
    }
}

impl fmt::Debug for El<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}> #{}", self.local_name(), self.pos)
    }
}

impl<'a> Element for El<'a> {
    type Impl = HtmlImpl;

    #[inline]
    fn opaque(&self) -> OpaqueElement {
        OpaqueElement::new(self.elem())
    }

    #[inline]
    fn parent_element(&self) -> Option<Self> {
        self.at(self.elem().parent)
    }

    fn parent_node_is_shadow_root(&self) -> bool {
        false
    }

    fn containing_shadow_host(&self) -> Option<Self> {
        None
    }

    fn is_pseudo_element(&self) -> bool {
        false
    }

    #[inline]
    fn prev_sibling_element(&self) -> Option<Self> {
        self.at(self.elem().prev)
    }

    #[inline]
    fn next_sibling_element(&self) -> Option<Self> {
        self.at(self.elem().next)
    }

    #[inline]
    fn first_element_child(&self) -> Option<Self> {
        // The first live element of its subtree (see `TreeIndex::first_child`).
        self.at(self.index().first_child(self.pos))
    }

    #[inline]
    fn is_html_element_in_html_document(&self) -> bool {
        // An XML document (even XHTML) is not an HTML document: names match case-sensitively.
        self.elem().ns == Namespace::Html && !self.doc().is_xml()
    }

    #[inline]
    fn has_local_name(&self, local_name: &Name) -> bool {
        name_is(self.doc(), self.elem().name, local_name)
    }

    #[inline]
    fn has_namespace(&self, ns: &NsUrl) -> bool {
        match self.elem().ns {
            // XML documents: compare URLs.
            own @ (Namespace::None | Namespace::Other(_)) => {
                self.doc().namespace_url(own) == &*ns.url
            }
            own => ns.ns == Some(own),
        }
    }

    #[inline]
    fn is_same_type(&self, other: &Self) -> bool {
        let (a, b) = (self.elem(), other.elem());
        a.name == b.name && a.ns == b.ns
    }

    fn attr_matches(
        &self,
        ns: &NamespaceConstraint<&NsUrl>,
        local_name: &Name,
        operation: &AttrSelectorOperation<&AttrValue>,
    ) -> bool {
        for a in self.attrs() {
            if !name_is(self.doc(), a.name, local_name) {
                continue;
            }
            let ns_ok = match ns {
                NamespaceConstraint::Any => true,
                NamespaceConstraint::Specific(url) => {
                    if url.url.is_empty() {
                        a.ns == AttrNamespace::None
                    } else {
                        self.doc().attr_namespace_url(a.ns) == Some(&*url.url)
                    }
                }
            };
            if ns_ok && operation.eval_str(self.doc().str(a.value)) {
                return true;
            }
        }
        false
    }

    #[inline]
    fn has_attr_in_no_namespace(&self, local_name: &Name) -> bool {
        let doc = self.doc();
        self.attrs()
            .iter()
            .any(|a| a.ns == AttrNamespace::None && name_is(doc, a.name, local_name))
    }

    fn match_non_ts_pseudo_class(
        &self,
        pc: &PseudoClass,
        context: &mut MatchingContext<'_, HtmlImpl>,
    ) -> bool {
        pseudo::matches(*self, pc, context)
    }

    fn match_pseudo_element(
        &self,
        _pe: &PseudoElement,
        _context: &mut MatchingContext<'_, HtmlImpl>,
    ) -> bool {
        false
    }

    fn apply_selector_flags(&self, _flags: ElementSelectorFlags) {}

    #[inline]
    fn is_link(&self) -> bool {
        pseudo::matches_link(*self)
    }

    fn is_html_slot_element(&self) -> bool {
        let e = self.elem();
        e.ns == Namespace::Html && e.name == crate::dom::names::local_name::SLOT
    }

    #[inline]
    fn has_id(&self, id: &Ident, case_sensitivity: CaseSensitivity) -> bool {
        let e = self.elem();
        if e.id_attr == NONE || e.id_hash != id.hash {
            return false;
        }
        let doc = self.doc();
        doc.attrs
            .get(e.id_attr as usize)
            .is_some_and(|a| case_sensitivity.eq(doc.str(a.value).as_bytes(), id.text.as_bytes()))
    }

    #[inline]
    fn has_class(&self, name: &Ident, case_sensitivity: CaseSensitivity) -> bool {
        let e = self.elem();
        let classes = self.index().classes_at(self.pos);
        if !classes.iter().any(|c| c.hash == name.hash) {
            return false;
        }
        let doc = self.doc();
        let Some(value) = doc.attrs.get(e.class_attr as usize) else {
            return false;
        };
        let value = doc.str(value.value).as_bytes();
        classes.iter().any(|c| {
            c.hash == name.hash
                && value
                    .get(c.start as usize..(c.start + c.len) as usize)
                    .is_some_and(|class| case_sensitivity.eq(class, name.text.as_bytes()))
        })
    }

    fn has_custom_state(&self, _name: &Ident) -> bool {
        false
    }

    fn imported_part(&self, _name: &Ident) -> Option<Ident> {
        None
    }

    fn is_part(&self, _name: &Ident) -> bool {
        false
    }

    /// `:empty`: no element children and no text (comments and processing instructions do not
    /// count), as browsers implement Selectors 4.
    fn is_empty(&self) -> bool {
        self.node()
            .children()
            .all(|c| !c.is_element() && c.as_text().is_none_or(str::is_empty))
    }

    /// `:root`: the document element (an element whose parent is the `Document`); nothing in
    /// a fragment or a detached subtree.
    #[inline]
    fn is_root(&self) -> bool {
        self.elem().flags & FLAG_ROOT != 0
    }

    fn add_element_unique_hashes(&self, filter: &mut BloomFilter) -> bool {
        El::each_hash(self.doc(), self.index(), self.pos, |h| {
            filter.insert_hash(h)
        });
        true
    }
}
