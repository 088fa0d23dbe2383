//! A flat index of a document's elements for selector matching.
//!
//! Built once per document on the first query (see [`Document::select_index`]) and dropped by
//! every mutation (`Document::tree_changed`), it lists the elements of each tree in document
//! order with their element-only links (parent, previous and next sibling, end of subtree),
//! so that matching walks arrays instead of the arena. Each element also carries what the
//! selector engine asks for most: the hashes of its local name, `id` and classes (ASCII
//! lowercased, so one hash serves the case-sensitive and the quirks-mode comparisons), which
//! feed the ancestor Bloom filter and make `#id` and `.class` tests a hash compare per
//! element. The index built for a document also keeps candidate lists, sorted by hash then
//! position: the elements with a given id, class or local name, so that a query whose
//! rightmost compound names one visits only those.
//!
//! Trees: the document's own tree comes first, then the contents of every `template` (template
//! contents are separate trees; they are indexed so selectors can run inside them, but a query
//! from the document never enters them). An element of a detached subtree gets a temporary
//! index of its own tree (see [`TreeIndex::for_tree`]).
//!
//! Building is one iterative pass over the tree plus a sort of the candidate lists: linear
//! (times a logarithm for the sort) in the number of elements, whatever the tree's shape.

use std::sync::OnceLock;

use super::names::{AttrNamespace, LocalName, Namespace, STATIC_NAME_COUNT, local_name};
use super::{AttrRange, Document, NodeData};

/// "No element": the value of an absent link.
pub(crate) const NONE: u32 = u32::MAX;

/// Flag: the element's parent is the `Document` node (it is the document element, `:root`).
pub(crate) const FLAG_ROOT: u8 = 1;

/// Flag: the element is a link (`:link`, `:any-link`): an HTML `a` or `area` element with an
/// `href` attribute (HTML, "Pseudo-classes"), or an SVG `a` element with `href` or
/// `xlink:href` (which browsers treat as links too).
pub(crate) const FLAG_LINK: u8 = 2;

/// One element of the index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Elem {
    /// The element's node.
    pub(crate) node: indextree::NodeId,
    /// One past the position of the last element of its subtree: the subtree is
    /// `pos..end`.
    pub(crate) end: u32,
    /// The parent element, or [`NONE`] for an element whose parent is the tree's root.
    pub(crate) parent: u32,
    /// The previous element sibling, or [`NONE`].
    pub(crate) prev: u32,
    /// The next element sibling, or [`NONE`].
    pub(crate) next: u32,
    /// The local name.
    pub(crate) name: LocalName,
    /// The attributes (a run of [`Document::attrs`]).
    pub(crate) attrs: AttrRange,
    /// [`ci_hash`] of the local name.
    pub(crate) name_hash: u32,
    /// [`ci_hash`] of the `id` attribute's value (meaningless when `id_attr` is [`NONE`]).
    pub(crate) id_hash: u32,
    /// The `id` attribute, as an index into [`Document::attrs`], or [`NONE`].
    pub(crate) id_attr: u32,
    /// The `class` attribute, as an index into [`Document::attrs`], or [`NONE`].
    pub(crate) class_attr: u32,
    /// The element's classes: `TreeIndex::classes[class_start..class_start + class_len]`.
    pub(crate) class_start: u32,
    pub(crate) class_len: u32,
    /// The namespace.
    pub(crate) ns: Namespace,
    /// `FLAG_*` bits.
    pub(crate) flags: u8,
}

/// One class of an element's `class` attribute: its hash and where it is in the value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClassToken {
    pub(crate) hash: u32,
    pub(crate) start: u32,
    pub(crate) len: u32,
}

/// Which candidate list to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListKind {
    Id,
    Class,
    LocalName,
}

/// The elements of one or more trees in document order, with their links and hashes.
#[derive(Clone, Default)]
pub(crate) struct TreeIndex {
    /// For each arena slot (`usize::from(NodeId) - 1`), the element's position plus one, or 0.
    slot_pos: Vec<u32>,
    /// The elements, tree after tree, each tree in document order.
    pub(crate) elems: Vec<Elem>,
    /// The classes of all elements.
    pub(crate) classes: Vec<ClassToken>,
    /// The range of `elems` each tree occupies; the first is the tree the index was built
    /// for (the document's own tree, for a document's index).
    pub(crate) trees: Vec<(u32, u32)>,
    /// Candidate lists: `(hash, position)`, sorted (empty in a temporary index).
    by_id: Vec<(u32, u32)>,
    by_class: Vec<(u32, u32)>,
    by_name: Vec<(u32, u32)>,
    /// Whether the candidate lists were built.
    pub(crate) has_lists: bool,
    /// State that the HTML pseudo-classes derive from the whole tree (form owners, radio
    /// groups, disabled fieldsets, languages, editability), computed on first use.
    pub(crate) html: OnceLock<crate::select::pseudo::HtmlState>,
}

/// The hash the index and the selector engine agree on for names, ids and classes: 32-bit
/// FNV-1a over the ASCII-lowercased bytes, then the MurmurHash3 finalizer so that every bit the
/// Bloom filter reads depends on every byte. Lowercasing makes equal names under ASCII case
/// folding hash alike, so one hash serves case-sensitive and case-insensitive matching.
#[inline]
pub(crate) fn ci_hash(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in s.as_bytes() {
        h ^= u32::from(b.to_ascii_lowercase());
        h = h.wrapping_mul(0x0100_0193);
    }
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// ASCII whitespace as the HTML standard defines it (for splitting `class`).
#[inline]
pub(crate) fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r')
}

#[inline]
fn to_u32(n: usize) -> u32 {
    // Positions are below 2^32 - 1: a tree that large cannot be held in memory with 80 bytes
    // per element. Saturating keeps this total.
    u32::try_from(n).unwrap_or(NONE - 1)
}

impl TreeIndex {
    /// The index of a whole document: its tree, then every template's contents, with
    /// candidate lists.
    pub(crate) fn for_document(doc: &Document) -> TreeIndex {
        let mut index = TreeIndex::with_slots(doc);
        index.add_tree(doc, doc.root);
        let mut contents: Vec<indextree::NodeId> = doc
            .template_contents
            .iter()
            .filter(|(template, fragment)| {
                doc.arena.get(**template).is_some_and(|n| !n.is_removed())
                    && doc.arena.get(**fragment).is_some_and(|n| !n.is_removed())
            })
            .map(|(_, fragment)| *fragment)
            .collect();
        contents.sort_by_key(|id| usize::from(*id));
        for fragment in contents {
            index.add_tree(doc, fragment);
        }
        index.build_lists();
        index
    }

    /// A temporary index of the one tree whose root is `root` (a detached subtree's top
    /// node), without candidate lists.
    pub(crate) fn for_tree(doc: &Document, root: indextree::NodeId) -> TreeIndex {
        let mut index = TreeIndex::with_slots(doc);
        index.add_tree(doc, root);
        index
    }

    fn with_slots(doc: &Document) -> TreeIndex {
        TreeIndex {
            slot_pos: vec![0; doc.arena.len()],
            ..TreeIndex::default()
        }
    }

    /// The position of `node`, if it is an indexed element.
    #[inline]
    pub(crate) fn pos_of(&self, node: indextree::NodeId) -> Option<u32> {
        let slot = usize::from(node).checked_sub(1)?;
        let p = self.slot_pos.get(slot)?.checked_sub(1)?;
        let e = self.elems.get(p as usize)?;
        (e.node == node).then_some(p)
    }

    /// The element at `pos`.
    #[inline]
    pub(crate) fn elem(&self, pos: u32) -> &Elem {
        &self.elems[pos as usize]
    }

    /// The classes of the element at `pos`.
    #[inline]
    pub(crate) fn classes_of(&self, e: &Elem) -> &[ClassToken] {
        let start = e.class_start as usize;
        self.classes
            .get(start..start + e.class_len as usize)
            .unwrap_or(&[])
    }

    /// The tree (index into `trees`) that holds `pos`.
    pub(crate) fn tree_of(&self, pos: u32) -> usize {
        self.trees.partition_point(|&(_, end)| end <= pos)
    }

    /// A candidate list: `(hash, position)` pairs sorted by hash, then position.
    pub(crate) fn list(&self, kind: ListKind) -> &[(u32, u32)] {
        match kind {
            ListKind::Id => &self.by_id,
            ListKind::Class => &self.by_class,
            ListKind::LocalName => &self.by_name,
        }
    }

    /// The entries of a candidate list for `hash` whose positions are in `lo..hi`.
    pub(crate) fn candidate_range(
        &self,
        kind: ListKind,
        hash: u32,
        lo: u32,
        hi: u32,
    ) -> std::ops::Range<usize> {
        let list = self.list(kind);
        let start = list.partition_point(|&entry| entry < (hash, lo));
        let end = list.partition_point(|&entry| entry < (hash, hi));
        start..end.max(start)
    }

    /// Appends the elements of the tree rooted at `root` (the root too, if it is an element),
    /// in document order: one iterative walk over the arena's links.
    fn add_tree(&mut self, doc: &Document, root: indextree::NodeId) {
        let arena = &doc.arena;
        let tree_start = to_u32(self.elems.len());
        // The open elements: (position, last element child so far).
        let mut open: Vec<(u32, u32)> = Vec::new();
        let mut top_last = NONE;
        let root_is_document = matches!(arena[root].get(), NodeData::Document);
        let mut node = Some(root);
        while let Some(n) = node {
            let entry = &arena[n];
            if let NodeData::Element(data) = entry.get() {
                let pos = to_u32(self.elems.len());
                let (parent, last) = match open.last_mut() {
                    Some((p, last)) => (*p, last),
                    None => (NONE, &mut top_last),
                };
                let prev = std::mem::replace(last, pos);
                if let Some(p) = self.elems.get_mut(prev as usize) {
                    p.next = pos;
                }
                // A child of the `Document` node is its document element.
                let root_element = open.is_empty() && root_is_document && n != root;
                self.push_element(doc, n, data, parent, prev, root_element);
                if let Some(child) = entry.first_child() {
                    open.push((pos, NONE));
                    node = Some(child);
                    continue;
                }
                self.elems[pos as usize].end = pos + 1;
            } else if n == root {
                // The `Document` or `DocumentFragment` the tree hangs from.
                node = entry.first_child();
                continue;
            }
            // Next: the next sibling, else the next sibling of the nearest ancestor that has
            // one, closing the elements left on the way up.
            node = None;
            let mut m = n;
            while m != root {
                if let Some(sibling) = arena[m].next_sibling() {
                    node = Some(sibling);
                    break;
                }
                let Some(parent) = arena[m].parent() else {
                    break;
                };
                if matches!(arena[parent].get(), NodeData::Element(_)) {
                    if let Some((pos, _)) = open.pop() {
                        self.elems[pos as usize].end = to_u32(self.elems.len());
                    }
                }
                m = parent;
            }
        }
        let end = to_u32(self.elems.len());
        for (pos, _) in open {
            self.elems[pos as usize].end = end;
        }
        self.trees.push((tree_start, end));
    }

    /// Adds the element `n` (whose links to earlier elements are given).
    fn push_element(
        &mut self,
        doc: &Document,
        n: indextree::NodeId,
        data: &super::ElementData,
        parent: u32,
        prev: u32,
        root_element: bool,
    ) {
        let pos = to_u32(self.elems.len());
        let mut e = Elem {
            node: n,
            end: NONE,
            parent,
            prev,
            next: NONE,
            name: data.name,
            attrs: data.attrs,
            name_hash: name_hash(doc, data.name),
            id_hash: 0,
            id_attr: NONE,
            class_attr: NONE,
            class_start: to_u32(self.classes.len()),
            class_len: 0,
            ns: data.ns,
            flags: if root_element { FLAG_ROOT } else { 0 },
        };
        let range = data.attrs.range();
        let start = range.start;
        let link_element = data.name == local_name::A
            && matches!(data.ns, Namespace::Html | Namespace::Svg)
            || data.name == local_name::AREA && data.ns == Namespace::Html;
        for (i, a) in doc.attrs.get(range).unwrap_or(&[]).iter().enumerate() {
            if link_element
                && a.name == local_name::HREF
                && (a.ns == AttrNamespace::None
                    || (a.ns == AttrNamespace::XLink && data.ns == Namespace::Svg))
            {
                e.flags |= FLAG_LINK;
            }
            if a.ns != AttrNamespace::None {
                continue;
            }
            if a.name == local_name::ID && e.id_attr == NONE {
                e.id_attr = to_u32(start + i);
                e.id_hash = ci_hash(doc.str(a.value));
            } else if a.name == local_name::CLASS && e.class_attr == NONE {
                e.class_attr = to_u32(start + i);
                self.push_classes(doc.str(a.value));
            }
        }
        e.class_len = to_u32(self.classes.len()) - e.class_start;
        if let Some(slot) = usize::from(n)
            .checked_sub(1)
            .and_then(|slot| self.slot_pos.get_mut(slot))
        {
            *slot = pos.saturating_add(1);
        }
        self.elems.push(e);
    }

    /// Splits a `class` value on ASCII whitespace (HTML "set of space-separated tokens").
    fn push_classes(&mut self, value: &str) {
        let bytes = value.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            while i < bytes.len() && is_ascii_whitespace(bytes[i]) {
                i += 1;
            }
            let start = i;
            while i < bytes.len() && !is_ascii_whitespace(bytes[i]) {
                i += 1;
            }
            if i > start {
                self.classes.push(ClassToken {
                    hash: ci_hash(&value[start..i]),
                    start: to_u32(start),
                    len: to_u32(i - start),
                });
            }
        }
    }

    fn build_lists(&mut self) {
        self.by_name.reserve(self.elems.len());
        for (pos, e) in self.elems.iter().enumerate() {
            let pos = to_u32(pos);
            self.by_name.push((e.name_hash, pos));
            if e.id_attr != NONE {
                self.by_id.push((e.id_hash, pos));
            }
            let start = e.class_start as usize;
            for c in self
                .classes
                .get(start..start + e.class_len as usize)
                .unwrap_or(&[])
            {
                self.by_class.push((c.hash, pos));
            }
        }
        for list in [&mut self.by_id, &mut self.by_class, &mut self.by_name] {
            sort_by_hash(list);
            list.dedup();
        }
        self.has_lists = true;
    }
}

/// [`ci_hash`] of a local name; static names' hashes are computed once per process.
#[inline]
fn name_hash(doc: &Document, name: LocalName) -> u32 {
    static STATIC_HASHES: OnceLock<Box<[u32]>> = OnceLock::new();
    if name.is_static() {
        let hashes = STATIC_HASHES.get_or_init(|| {
            (0..STATIC_NAME_COUNT as u32)
                .map(|i| ci_hash(LocalName(i).as_static_str().unwrap_or("")))
                .collect()
        });
        if let Some(&h) = hashes.get(name.0 as usize) {
            return h;
        }
    }
    ci_hash(doc.name_str(name))
}

/// Sorts `(hash, position)` pairs whose positions ascend by hash, keeping the positions of
/// equal hashes in order: a stable least-significant-digit radix sort on the hash's four
/// bytes (linear), or a comparison sort for short lists.
fn sort_by_hash(list: &mut Vec<(u32, u32)>) {
    if list.len() < 256 {
        list.sort_unstable();
        return;
    }
    let mut buffer = vec![(0u32, 0u32); list.len()];
    for shift in [0, 8, 16, 24] {
        let mut counts = [0usize; 256];
        for &(hash, _) in list.iter() {
            counts[((hash >> shift) & 0xff) as usize] += 1;
        }
        if counts.contains(&list.len()) {
            continue;
        }
        let mut offsets = [0usize; 256];
        let mut sum = 0;
        for (offset, count) in offsets.iter_mut().zip(counts) {
            *offset = sum;
            sum += count;
        }
        for &entry in list.iter() {
            let bucket = ((entry.0 >> shift) & 0xff) as usize;
            buffer[offsets[bucket]] = entry;
            offsets[bucket] += 1;
        }
        std::mem::swap(list, &mut buffer);
    }
}

impl Document {
    /// The selector index of this document, built on first use and kept until the next
    /// mutation.
    pub(crate) fn select_index(&self) -> &TreeIndex {
        self.index_cache
            .get_or_init(|| Box::new(TreeIndex::for_document(self)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_subtrees() {
        let doc = Document::parse("<div id=a><p class='x  Y'>1</p>t<p>2<b>3</b></p></div><i></i>");
        let index = doc.select_index();
        let names: Vec<&str> = index.elems.iter().map(|e| doc.name_str(e.name)).collect();
        assert_eq!(names, ["html", "head", "body", "div", "p", "p", "b", "i"]);
        let div = &index.elems[3];
        assert_eq!((div.parent, div.end, div.prev, div.next), (2, 7, NONE, 7));
        let p1 = &index.elems[4];
        assert_eq!((p1.parent, p1.end, p1.prev, p1.next), (3, 5, NONE, 5));
        assert_eq!(index.classes_of(p1).len(), 2);
        assert_eq!(index.elems[0].flags & FLAG_ROOT, FLAG_ROOT);
        assert_eq!(index.elems[1].flags & FLAG_ROOT, 0);
        let all = (0, index.elems.len() as u32);
        assert_eq!(
            index
                .candidate_range(ListKind::Class, ci_hash("y"), all.0, all.1)
                .len(),
            1
        );
        assert_eq!(
            index
                .candidate_range(ListKind::LocalName, ci_hash("p"), all.0, all.1)
                .len(),
            2
        );
        assert_eq!(
            index
                .candidate_range(ListKind::LocalName, ci_hash("p"), 5, all.1)
                .len(),
            1
        );
        let ids = index.candidate_range(ListKind::Id, ci_hash("A"), all.0, all.1);
        assert_eq!(&index.list(ListKind::Id)[ids], &[(ci_hash("a"), 3)]);
        for (pos, e) in index.elems.iter().enumerate() {
            assert_eq!(index.pos_of(e.node), Some(pos as u32));
        }
    }

    #[test]
    fn radix_sort_orders_by_hash_then_position() {
        let mut list: Vec<(u32, u32)> = (0..5000u32)
            .map(|pos| {
                (
                    (pos.wrapping_mul(2_654_435_761) % 977).wrapping_mul(0x0101_0101),
                    pos,
                )
            })
            .collect();
        let mut expected = list.clone();
        expected.sort_unstable();
        sort_by_hash(&mut list);
        assert_eq!(list, expected);
    }

    #[test]
    fn detached_and_deep_trees() {
        let mut doc = Document::parse("<p>");
        let div = doc.new_element("div").unwrap();
        let span = doc.new_element("span").unwrap();
        let text = doc.new_text("t");
        doc.append(div, text).unwrap();
        doc.append(div, span).unwrap();
        let index = TreeIndex::for_tree(&doc, div.raw);
        assert_eq!(index.elems.len(), 2);
        assert_eq!((index.elems[0].end, index.elems[1].parent), (2, 0));
        let deep = Document::parse(&"<i>".repeat(50_000));
        let index = deep.select_index();
        let last = index.elems.len() as u32 - 1;
        assert_eq!(index.elems[last as usize].end, last + 1);
        assert!(index.elems[3..].iter().all(|e| e.end == last + 1));
    }

    #[test]
    fn template_contents_are_separate_trees() {
        let doc = Document::parse("<template><p>x</p></template><p>y</p>");
        let index = doc.select_index();
        assert_eq!(index.trees.len(), 2);
        let (start, end) = index.trees[1];
        assert_eq!(end - start, 1);
        assert_eq!(index.elems[start as usize].parent, NONE);
    }
}
