//! Queries without an index: a walk over the arena in document order, for the first queries
//! on a document.
//!
//! Most scrapers parse a page, query it a few times and drop it. Building the element index
//! (see `query/index.rs`) costs more than one walk, so a query whose selectors are plain
//! compounds (type, universal, namespace, id, class and attribute selectors, the shape of most
//! scraper queries: `a[href]`, `img[alt]`, `.price`, `#main`; see `Parsed::all_simple`) on a
//! document without an index walks the tree instead, matching each element's own name and
//! attributes. The walks are counted (with `closest` and `matches` chains, see
//! `Document::note_unindexed`): once they add up to about one pass over the document, the
//! next query builds the index, which then serves every later one.
//!
//! Whether an element matches a plain compound depends on that element alone, so a walk over
//! the document for a selector can start where the previous one found its first match, as
//! long as no element was inserted and no attribute changed since (removals move the start
//! past what they remove; see `WalkHint`): `while let Some(e) = doc.select_first(&sel) {
//! doc.remove(e.node_id())? }` walks the document once in all, not once per match. A walk that
//! reaches the end without a match is remembered too ("no element matches"), so the loop's
//! last query, and any repeated query with no result, costs nothing until a change could
//! make an element match.
//!
//! The tests below match as the index-based path does (`query::simple_matches`), component by
//! component, for each selector the walk accepts.

use selectors::attr::{AttrSelectorOperation, CaseSensitivity, ParsedCaseSensitivity};
use selectors::context::QuirksMode as EngineQuirks;
use selectors::parser::{Component, Selector as RawSelector};

use super::parser::{HtmlImpl, Ident, Name, Parsed};
use crate::dom::names::{AttrNamespace, LocalName, Namespace, local_name};
use crate::dom::{Attr, Document, ElementData, NodeData};
use crate::query::index::is_ascii_whitespace;

/// A walk over the elements below a root, in document order (iterative: any depth).
pub(crate) struct Walk {
    root: indextree::NodeId,
    next: Option<indextree::NodeId>,
}

impl Walk {
    /// The elements below `root` (not `root` itself).
    pub(crate) fn new(doc: &Document, root: indextree::NodeId) -> Walk {
        Walk {
            root,
            next: doc.arena.get(root).and_then(|n| n.first_child()),
        }
    }

    /// The elements from `start` (a node below `root`) on, in document order, to the end of
    /// `root`'s subtree.
    /// With `start` `None`: no element.
    pub(crate) fn starting_at(root: indextree::NodeId, start: Option<indextree::NodeId>) -> Walk {
        Walk { root, next: start }
    }

    /// The next element, and how many nodes the walk stepped over to reach it.
    #[inline]
    pub(crate) fn next<'d>(
        &mut self,
        doc: &'d Document,
    ) -> Option<(indextree::NodeId, &'d ElementData, u32)> {
        let arena = &doc.arena;
        let mut visited = 0;
        while let Some(n) = self.next {
            visited += 1;
            let node = &arena[n];
            // Next in document order: the first child, else the next sibling of the nearest
            // inclusive ancestor below the root that has one.
            self.next = node.first_child().or_else(|| {
                let mut m = n;
                loop {
                    if m == self.root {
                        return None;
                    }
                    if let Some(sibling) = arena[m].next_sibling() {
                        return Some(sibling);
                    }
                    m = arena[m].parent()?;
                }
            });
            if let NodeData::Element(data) = node.get() {
                return Some((n, data, visited));
            }
        }
        None
    }
}

/// A test that rejects most elements before matching: the local name every match of a query
/// of one selector has, when its compound has a type selector with a static name (see
/// [`LocalNameMatch::is`]: such a name equals exactly the names with that id).
#[derive(Clone, Copy)]
pub(crate) struct NameFilter {
    /// The id for HTML elements (the lowercase name), and for others.
    html: LocalName,
    other: LocalName,
}

impl NameFilter {
    /// The filter for `parsed` (which [`can_walk`]), if it has one.
    pub(crate) fn of(parsed: &Parsed) -> Option<NameFilter> {
        let mut live = parsed
            .list
            .slice()
            .iter()
            .zip(parsed.pseudo.iter())
            .filter(|(_, pseudo)| !**pseudo);
        let (selector, _) = live.next()?;
        if live.next().is_some() {
            return None;
        }
        selector
            .iter_raw_match_order()
            .find_map(|component| match component {
                Component::LocalName(name) => Some(Some(NameFilter {
                    html: name.lower_name.id?,
                    other: name.name.id?,
                })),
                _ => None,
            })
            .flatten()
    }

    /// False when the element `data` cannot match.
    #[inline]
    pub(crate) fn may_match(self, doc: &Document, data: &ElementData) -> bool {
        let html = data.ns == Namespace::Html && !doc.is_xml();
        data.name == if html { self.html } else { self.other }
    }
}

/// Whether the walk can run `parsed`: every selector that can match is a plain compound.
pub(crate) fn can_walk(parsed: &Parsed) -> bool {
    parsed.all_simple
}

/// Whether the element `data` matches any selector of `parsed` (which [`can_walk`]).
pub(crate) fn matches(
    parsed: &Parsed,
    doc: &Document,
    data: &ElementData,
    quirks: EngineQuirks,
) -> bool {
    parsed
        .list
        .slice()
        .iter()
        .zip(parsed.pseudo.iter())
        .any(|(selector, pseudo)| !pseudo && compound_matches(selector, doc, data, quirks))
}

/// One plain compound against one element: each simple selector as `selectors::matching`
/// tests it (through `query::simple_matches` on the index path).
fn compound_matches(
    selector: &RawSelector<HtmlImpl>,
    doc: &Document,
    data: &ElementData,
    quirks: EngineQuirks,
) -> bool {
    // (An XML document is not an HTML document: its names match case-sensitively.)
    let html = data.ns == Namespace::Html && !doc.is_xml();
    let attrs = doc.attrs_of(data);
    let ids_and_classes = quirks.classes_and_ids_case_sensitivity();
    // Type selectors and attribute names match HTML elements' names in lowercase.
    let pick = |name, lower| LocalNameMatch::pick(html, name, lower);
    selector
        .iter_raw_match_order()
        .all(|component| match component {
            Component::LocalName(name) => pick(&name.name, &name.lower_name).is(doc, data.name),
            Component::ID(id) => attr_value(doc, attrs, local_name::ID)
                .is_some_and(|value| ids_and_classes.eq(value.as_bytes(), id.text.as_bytes())),
            Component::Class(class) => attr_value(doc, attrs, local_name::CLASS)
                .is_some_and(|value| has_class(value, class, ids_and_classes)),
            Component::AttributeInNoNamespaceExists {
                local_name,
                local_name_lower,
            } => {
                let wanted = pick(local_name, local_name_lower);
                attrs
                    .iter()
                    .any(|a| a.ns == AttrNamespace::None && wanted.is(doc, a.name))
            }
            Component::AttributeInNoNamespace {
                local_name,
                operator,
                value,
                case_sensitivity,
            } => {
                let case_sensitivity = match case_sensitivity {
                    ParsedCaseSensitivity::AsciiCaseInsensitive => {
                        CaseSensitivity::AsciiCaseInsensitive
                    }
                    ParsedCaseSensitivity::AsciiCaseInsensitiveIfInHtmlElementInHtmlDocument
                        if html =>
                    {
                        CaseSensitivity::AsciiCaseInsensitive
                    }
                    _ => CaseSensitivity::CaseSensitive,
                };
                let operation = AttrSelectorOperation::WithValue {
                    operator: *operator,
                    case_sensitivity,
                    value,
                };
                let wanted = LocalNameMatch(local_name.id, local_name);
                attrs.iter().any(|a| {
                    a.ns == AttrNamespace::None
                        && wanted.is(doc, a.name)
                        && operation.eval_str(doc.str(a.value))
                })
            }
            Component::ExplicitUniversalType | Component::ExplicitAnyNamespace => true,
            // Only XML documents have elements in no namespace.
            Component::ExplicitNoNamespace => data.ns == Namespace::None,
            Component::DefaultNamespace(url) | Component::Namespace(_, url) => match data.ns {
                // XML documents: compare URLs.
                ns @ (Namespace::None | Namespace::Other(_)) => doc.namespace_url(ns) == &*url.url,
                ns => url.ns == Some(ns),
            },
            // Not a plain compound: `can_walk` excludes these.
            _ => false,
        })
}

/// A selector's name, as the element's interned names compare with it.
struct LocalNameMatch<'s>(Option<LocalName>, &'s Name);

impl<'s> LocalNameMatch<'s> {
    /// `lower` for an HTML element, else `name` (as `selectors::matching::select_name`).
    #[inline]
    fn pick(html: bool, name: &'s Name, lower: &'s Name) -> LocalNameMatch<'s> {
        let chosen = if html { lower } else { name };
        LocalNameMatch(chosen.id, chosen)
    }

    /// A selector name with a static id equals exactly the names with that id; one without
    /// equals only dynamic names with the same text.
    #[inline]
    fn is(&self, doc: &Document, name: LocalName) -> bool {
        match self.0 {
            Some(id) => name == id,
            None => !name.is_static() && doc.name_str(name) == &*self.1.text,
        }
    }
}

/// The value of the attribute `name` in no namespace.
#[inline]
fn attr_value<'d>(doc: &'d Document, attrs: &[Attr], name: LocalName) -> Option<&'d str> {
    attrs
        .iter()
        .find(|a| a.name == name && a.ns == AttrNamespace::None)
        .map(|a| doc.str(a.value))
}

/// Whether the `class` value holds `class` (split on ASCII whitespace).
fn has_class(value: &str, class: &Ident, case_sensitivity: CaseSensitivity) -> bool {
    value
        .as_bytes()
        .split(|&b| is_ascii_whitespace(b))
        .any(|token| case_sensitivity.eq(token, class.text.as_bytes()))
}
