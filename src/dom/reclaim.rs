//! Giving memory back while a document is still being built: what a streaming parse (see
//! `crate::stream`) needs to keep its peak bounded by what is still open.
//!
//! Freed nodes go to indextree's free list, so new nodes reuse their slots. Strings and
//! attribute runs are stored append-only (see `strings.rs`), so freeing nodes leaves their
//! bytes behind; [`Document::compact_storage`] copies the live ones into fresh buffers.
//! Copies of single elements (for a match's ancestors) come from
//! [`Document::copy_element_from`].

use std::collections::HashMap;

use super::{Attr, AttrRange, Document, NodeData, PiData, Strings};

type Id = indextree::NodeId;

impl Document {
    /// Frees `node` with its subtree and the contents of any `template` in it (their slots
    /// are reused by new nodes). The caller makes sure nothing refers to them any more.
    pub(crate) fn free_subtree(&mut self, node: Id) {
        if node == self.root || node.is_removed(&self.arena) {
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
