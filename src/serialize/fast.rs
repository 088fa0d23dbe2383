//! The HTML fragment serialization algorithm (13.3) with default options, written straight
//! from the tree: names are interned ids, so "serializes as void" and the raw text parents are
//! integer comparisons, and each node costs a few appends.

use std::fmt::{self, Write};

use super::escape::{Mode, write_escaped};
use crate::dom::names::{AttrNamespace, Namespace, local_name as n};
use crate::dom::{ElementRef, NodeKind, NodeRef};

/// "Serializes as void" (13.3).
#[inline]
fn serializes_as_void(e: ElementRef<'_>) -> bool {
    e.namespace() == Namespace::Html
        && matches!(
            e.name().id(),
            n::AREA
                | n::BASE
                | n::BR
                | n::COL
                | n::EMBED
                | n::HR
                | n::IMG
                | n::INPUT
                | n::LINK
                | n::META
                | n::SOURCE
                | n::TRACK
                | n::WBR
                | n::BASEFONT
                | n::BGSOUND
                | n::FRAME
                | n::KEYGEN
                | n::PARAM
        )
}

/// Whether text children of `e` are written literally (13.3, "If current node is a Text
/// node").
#[inline]
fn raw_text_parent(ns: Namespace, name: crate::LocalName, scripting: bool) -> bool {
    ns == Namespace::Html
        && (matches!(
            name,
            n::STYLE | n::SCRIPT | n::XMP | n::IFRAME | n::NOEMBED | n::NOFRAMES | n::PLAINTEXT
        ) || (scripting && name == n::NOSCRIPT))
}

fn start_tag<W: Write + ?Sized>(out: &mut W, e: ElementRef<'_>) -> fmt::Result {
    out.write_char('<')?;
    out.write_str(e.local_name())?;
    for a in e.attrs() {
        // "An attribute's serialized name"
        out.write_str(match a.namespace {
            AttrNamespace::None => " ",
            AttrNamespace::Xml => " xml:",
            AttrNamespace::Xmlns if a.local_name == "xmlns" => " ",
            AttrNamespace::Xmlns => " xmlns:",
            AttrNamespace::XLink => " xlink:",
            // "Otherwise": the qualified name (an XML document's own prefix).
            AttrNamespace::Other(_) => " ",
        })?;
        if let (AttrNamespace::Other(_), Some(prefix)) = (a.namespace, a.prefix()) {
            out.write_str(prefix)?;
            out.write_char(':')?;
        }
        out.write_str(a.local_name)?;
        out.write_str("=\"")?;
        write_escaped(out, a.value, Mode::AttrDouble)?;
        out.write_char('"')?;
    }
    out.write_char('>')
}

/// The children to serialize: a template's contents instead of its children. `templates` is
/// whether the document has any template contents at all: without them the per-element
/// hash lookup is skipped.
#[inline]
fn first_child(node: NodeRef<'_>, templates: bool) -> Option<NodeRef<'_>> {
    if !templates {
        return node.first_child();
    }
    match node.as_element().and_then(ElementRef::template_contents) {
        Some(contents) => contents.first_child(),
        None => node.first_child(),
    }
}

/// Serializes `node` (with `include_self`) or its children, iteratively.
pub(super) fn serialize<W: Write + ?Sized>(
    node: NodeRef<'_>,
    include_self: bool,
    out: &mut W,
) -> fmt::Result {
    let doc = node.document();
    let scripting = doc.scripting();
    let templates = !doc.template_contents.is_empty();
    // Elements whose end tags are still to be written.
    let mut open: Vec<ElementRef<'_>> = Vec::new();
    // Whether text here is raw: decided by the parent, the context of a fragment, or the
    // node whose children are serialized.
    let raw_here = |parent: Option<ElementRef<'_>>| -> bool {
        match parent {
            Some(p) => raw_text_parent(p.namespace(), p.name().id(), scripting),
            None => false,
        }
    };
    let (mut next, stop_parent): (Option<NodeRef<'_>>, Option<NodeRef<'_>>) = if include_self {
        (Some(node), node.parent())
    } else {
        if let Some(e) = node.as_element() {
            if serializes_as_void(e) {
                return Ok(());
            }
        }
        (first_child(node, templates), Some(node))
    };
    // Raw text at the top level of the walk.
    let top_raw = match stop_parent {
        Some(p) if p.raw_id() == doc.root => doc
            .fragment_context
            .is_some_and(|(ns, name)| raw_text_parent(ns, name, scripting)),
        Some(p) => raw_here(p.as_element()),
        None => false,
    };
    while let Some(current) = next {
        let mut descend = None;
        match current.kind() {
            NodeKind::Element(e) => {
                start_tag(out, e)?;
                if !serializes_as_void(e) {
                    open.push(e);
                    descend = Some(first_child(current, templates));
                }
            }
            NodeKind::Text(t) => {
                let raw = match open.last() {
                    Some(p) => raw_here(Some(*p)),
                    None => top_raw,
                };
                if raw {
                    out.write_str(t)?;
                } else {
                    write_escaped(out, t, Mode::Text)?;
                }
            }
            NodeKind::Comment(c) => {
                out.write_str("<!--")?;
                out.write_str(c)?;
                out.write_str("-->")?;
            }
            NodeKind::ProcessingInstruction { target, data } => {
                out.write_str("<?")?;
                out.write_str(target)?;
                out.write_char(' ')?;
                out.write_str(data)?;
                out.write_str("?>")?;
            }
            NodeKind::Doctype { name, .. } => {
                out.write_str("<!DOCTYPE ")?;
                out.write_str(name)?;
                out.write_char('>')?;
            }
            NodeKind::Document | NodeKind::Fragment => descend = Some(current.first_child()),
        }
        // The next node: the first child of an element just opened, else the next sibling,
        // else (closing elements on the way up) the next sibling of an ancestor.
        next = match descend {
            Some(Some(child)) => Some(child),
            Some(None) | None => {
                let mut at = current;
                if descend.is_some() {
                    // An element (or document) without children: close it right away.
                    if let Some(e) = at.as_element() {
                        if open.last().is_some_and(|o| *o == e) {
                            open.pop();
                            end_tag(out, e)?;
                        }
                    }
                }
                loop {
                    if include_self && at == node {
                        break None;
                    }
                    if let Some(sibling) = at.next_sibling() {
                        break Some(sibling);
                    }
                    // Up to the parent; inside template contents the parent is the
                    // contents fragment, so go back to the template itself.
                    let parent = match open.last() {
                        Some(e) => e.as_node(),
                        None => break None,
                    };
                    if !include_self && Some(parent) == stop_parent {
                        break None;
                    }
                    open.pop();
                    if let Some(e) = parent.as_element() {
                        end_tag(out, e)?;
                    }
                    at = parent;
                    if include_self && at == node {
                        break None;
                    }
                }
            }
        };
    }
    Ok(())
}

fn end_tag<W: Write + ?Sized>(out: &mut W, e: ElementRef<'_>) -> fmt::Result {
    out.write_str("</")?;
    out.write_str(e.local_name())?;
    out.write_char('>')
}
