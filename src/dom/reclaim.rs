//! Giving memory back while a document is still being built: what a streaming parse (see
//! `crate::stream`) needs to keep its peak bounded by what is still open.
//!
//! Freed nodes go to indextree's free list, so new nodes reuse their slots. Strings and
//! attribute runs are stored append-only (see `strings.rs`), so freeing nodes leaves their
//! bytes behind; [`Document::compact_storage`] copies the live ones into fresh buffers.
//! Copies of single elements (for a match's ancestors) come from
//! [`Document::copy_element_from`].

use std::collections::HashMap;

use super::names::{LocalName, Namespace, local_name};
use super::{Attr, AttrRange, Document, ElementData, NodeData, PiData, Strings};

type Id = indextree::NodeId;

impl Document {
    /// Frees `node` with its subtree and the contents of any `template` in it (their slots
    /// are reused by new nodes). The caller makes sure nothing refers to them any more.
    pub(crate) fn free_subtree(&mut self, node: Id) {
        if node == self.root || node.is_removed(&self.arena) {
            return;
        }
        if self.template_contents.is_empty() {
            node.remove_subtree(&mut self.arena);
            return;
        }
        node.detach(&mut self.arena);
        let mut work = vec![node];
        while let Some(top) = work.pop() {
            if !self.template_contents.is_empty() {
                for d in top.descendants(&self.arena) {
                    if let Some(contents) = self.template_contents.remove(&d) {
                        work.push(contents);
                    }
                }
            }
            top.remove_subtree(&mut self.arena);
        }
    }

    /// Copies every live string and attribute run into fresh buffers, dropping the bytes of
    /// freed nodes (attribute runs shared by several elements stay shared). Attribute runs
    /// move: a caller that remembers positions in the attribute list forgets them.
    pub(crate) fn compact_storage(&mut self) {
        let mut fresh = Strings::default();
        let mut attrs: Vec<Attr> = Vec::new();
        let mut runs: HashMap<(u32, u32), u32> = HashMap::new();
        let old_attrs = std::mem::take(&mut self.attrs);
        let strings = &self.strings;
        for node in self.arena.iter_mut() {
            if node.is_removed() {
                continue;
            }
            match node.get_mut() {
                NodeData::Text(r) | NodeData::Comment(r) => {
                    *r = fresh.push(strings.get(*r));
                }
                NodeData::ProcessingInstruction(pi) => {
                    let target = fresh.push(strings.get(pi.target));
                    let data = fresh.push(strings.get(pi.data));
                    **pi = PiData { target, data };
                }
                NodeData::Element(e) => {
                    if e.attrs.len == 0 {
                        e.attrs = AttrRange { start: 0, len: 0 };
                        continue;
                    }
                    let key = (e.attrs.start, e.attrs.len);
                    if let Some(&start) = runs.get(&key) {
                        e.attrs.start = start;
                        continue;
                    }
                    let start = u32::try_from(attrs.len()).unwrap_or(u32::MAX);
                    for a in old_attrs.get(e.attrs.range()).unwrap_or(&[]) {
                        let value = fresh.push(strings.get(a.value));
                        let value = fresh.pack(value);
                        attrs.push(Attr {
                            name: a.name,
                            ns: a.ns,
                            value,
                        });
                    }
                    runs.insert(key, start);
                    e.attrs.start = start;
                }
                NodeData::Document | NodeData::Fragment | NodeData::Doctype(_) => {}
            }
        }
        self.attrs = attrs;
        self.strings.swap_string_buffers(&mut fresh);
    }

    /// Bytes of strings and attributes held, live or not (what [`Document::compact_storage`]
    /// can shrink).
    pub(crate) fn storage_bytes(&self) -> usize {
        self.strings.string_bytes() + self.attrs.len() * std::mem::size_of::<Attr>()
    }

    /// Appends a copy of `src`'s subtree at `node` (template contents included) as the last
    /// child of `parent`, and returns the copy of `node`. Room for the nodes, strings and
    /// attributes is reserved first, names that are not static are re-interned, and the nodes
    /// are created in place (no detached node, no ancestor check): what a streaming parse
    /// does for each match.
    pub(crate) fn append_subtree_copy(&mut self, src: &Document, node: Id, parent: Id) -> Id {
        let (mut nodes, mut bytes, mut attrs) = (0usize, 0usize, 0usize);
        for d in node.descendants(&src.arena) {
            nodes += 1;
            match src.data(d) {
                NodeData::Text(r) | NodeData::Comment(r) => bytes += src.str(*r).len(),
                NodeData::Element(e) => {
                    let run = src.attrs_of(e);
                    attrs += run.len();
                    bytes += run.iter().map(|a| src.str(a.value).len()).sum::<usize>();
                }
                _ => {}
            }
        }
        self.arena.reserve(nodes);
        self.attrs.reserve(attrs);
        self.strings.reserve_extra(bytes, 0);
        let mut copied = None;
        // The copy of the node whose children are being copied.
        let mut at = parent;
        for edge in node.traverse(&src.arena) {
            let from = match edge {
                indextree::NodeEdge::Start(from) => from,
                indextree::NodeEdge::End(_) => {
                    at = self
                        .arena
                        .get(at)
                        .and_then(|n| n.parent())
                        .unwrap_or(parent);
                    continue;
                }
            };
            let copy = match src.data(from) {
                NodeData::Element(e) => {
                    let name = self.copy_name(src, e.name);
                    let range = self.copy_attrs(src, e);
                    let watched = e.ns == Namespace::Html
                        && (name == local_name::TEMPLATE
                            || self.hooks.created_names.contains(&name));
                    let copy = if watched {
                        // (A `template` gets its contents; the layers above learn of the
                        // names they watch. Linked without the insertion steps, as
                        // `import_subtree` does: a copied `option` is not cloned into a copied
                        // `selectedcontent` again.)
                        let copy = self.create_element(name, e.ns, range, e.flags);
                        at.append(copy, &mut self.arena);
                        copy
                    } else {
                        at.append_value(
                            NodeData::Element(ElementData {
                                name,
                                ns: e.ns,
                                flags: e.flags,
                                prefix: 0,
                                attrs: range,
                            }),
                            &mut self.arena,
                        )
                    };
                    if let (Some(contents), Some(into)) = (
                        src.template_contents_of(from),
                        self.template_contents_of(copy),
                    ) {
                        // (Rare: the general import, which walks nested templates too.)
                        for c in contents.children(&src.arena) {
                            if let Ok(c) = self.import_subtree(src, src.id_of(c)) {
                                into.append(c.raw, &mut self.arena);
                            }
                        }
                    }
                    copy
                }
                NodeData::Text(r) => {
                    let r = self.strings.push(src.str(*r));
                    at.append_value(NodeData::Text(r), &mut self.arena)
                }
                NodeData::Comment(r) => {
                    let r = self.strings.push(src.str(*r));
                    at.append_value(NodeData::Comment(r), &mut self.arena)
                }
                NodeData::ProcessingInstruction(pi) => {
                    let target = self.strings.push(src.str(pi.target));
                    let data = self.strings.push(src.str(pi.data));
                    at.append_value(
                        NodeData::ProcessingInstruction(Box::new(PiData { target, data })),
                        &mut self.arena,
                    )
                }
                NodeData::Doctype(d) => {
                    let copy = self.create_doctype(&d.name, &d.public_id, &d.system_id);
                    at.append(copy, &mut self.arena);
                    copy
                }
                NodeData::Document | NodeData::Fragment => {
                    at.append_value(NodeData::Fragment, &mut self.arena)
                }
            };
            copied.get_or_insert(copy);
            at = copy;
        }
        self.tree_changed();
        copied.unwrap_or(parent)
    }

    /// Copies of the attributes of `src`'s element data `e`, as a new run of this document.
    pub(crate) fn copy_attrs(&mut self, src: &Document, e: &ElementData) -> AttrRange {
        let mark = self.attrs_mark();
        for a in src.attrs_of(e) {
            let name = self.copy_name(src, a.name);
            let value = self.strings.push(src.str(a.value));
            let value = self.strings.pack(value);
            self.attrs.push(Attr {
                name,
                ns: a.ns,
                value,
            });
        }
        self.attrs_since(mark)
    }

    /// `name` of `src` as a name of this document.
    #[inline]
    pub(crate) fn copy_name(&mut self, src: &Document, name: LocalName) -> LocalName {
        if name.is_static() {
            name
        } else {
            self.intern(src.name_str(name))
        }
    }

    /// A copy of the element `node` of `src` (name, namespace, attributes; no children),
    /// detached.
    pub(crate) fn copy_element_from(&mut self, src: &Document, node: Id) -> Option<Id> {
        let NodeData::Element(e) = src.data(node) else {
            return None;
        };
        Some(self.copy_element_data(src, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compaction_keeps_live_strings_and_drops_the_rest() {
        let mut doc = Document::parse_with(
            "<p class=a>one</p><p id=b title='x'>two<!--c--></p>",
            &crate::ParseOptions::default().with_keep_source(false),
        );
        let first = doc.body().unwrap().first_child().unwrap().node_id().raw;
        let before = doc.storage_bytes();
        doc.free_subtree(first);
        doc.compact_storage();
        assert!(doc.storage_bytes() < before);
        assert_eq!(
            doc.body().unwrap().inner_html(),
            r#"<p id="b" title="x">two<!--c--></p>"#
        );
    }
}
