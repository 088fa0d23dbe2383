//! Tree edits for the tree builder: the checked, panic-free forms of the link operations, and
//! the stand-ins that keep them cheap in deep trees.
//!
//! The parser never builds an invalid tree on purpose, but the specification's algorithms
//! (the adoption agency algorithm above all) move nodes around, and a move that would make a
//! node its own ancestor must be refused rather than panic. These wrappers return whether the
//! edit happened.
//!
//! ## Stand-ins
//!
//! indextree checks every move of a node that has children by walking the destination's
//! ancestors, so moving a subtree into a node `d` levels deep costs O(d). The adoption agency
//! algorithm moves subtrees into open elements (its common ancestor and furthest block), and
//! on a page that misnests formatting elements below thousands of open elements every run
//! would walk thousands of ancestors. So while the tree builder keeps an element open deep in
//! the stack (see `TreeBuilder::defer_if_deep`), the element itself is a detached root holding
//! its children, and a childless *stand-in* node takes its place in its parent. The edits
//! here apply to the stand-in when given the element, so moving an open element is moving a
//! leaf (no walk), and moving a subtree into one walks only up to the nearest deep open
//! element. When the element leaves the stack it takes its stand-in's place again
//! ([`Document::put_back`]). No stand-in is left once parsing has finished.

use std::collections::HashMap;

use super::{Document, NodeData};

type Id = indextree::NodeId;

/// The stand-ins of the elements kept out of the tree while they are open.
#[derive(Clone, Debug, Default)]
pub(crate) struct StandIns {
    /// Element → its stand-in.
    of: HashMap<Id, Id, IdHash>,
    /// Stand-in → its element.
    element_of: HashMap<Id, Id, IdHash>,
    /// Tests' measure of work: the ancestors [`Document::put_back`]'s check has walked.
    #[cfg(test)]
    pub(crate) walked: u64,
}

/// Hashing for node ids (arena indices, never chosen by the input). The hash keeps the index
/// in its low bits, so that nodes created one after another land in neighbouring buckets (a
/// walk in document order stays in cache however large the table), and takes its top bits,
/// which hash tables compare first, from a multiplication.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IdHash;

impl std::hash::BuildHasher for IdHash {
    type Hasher = IdHasher;
    fn build_hasher(&self) -> IdHasher {
        IdHasher(0)
    }
}

/// The hasher of [`IdHash`].
pub(crate) struct IdHasher(u64);

const ID_MUL: u64 = 0x51_7c_c1_b7_27_22_0a_95;
/// The top seven bits.
const TOP: u64 = 0x7f << 57;

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        (self.0 & !TOP) ^ (self.0.wrapping_mul(ID_MUL) & TOP)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(ID_MUL);
        }
    }
    fn write_usize(&mut self, n: usize) {
        // The arena index (the first thing a node id hashes).
        self.0 = n as u64;
    }
    fn write_u16(&mut self, _stamp: u16) {
        // A node id's reuse stamp: ids in one table never share an index.
    }
    fn write_i16(&mut self, _stamp: i16) {}
}

impl Document {
    /// The node that holds `node`'s place in the tree: its stand-in if it has one.
    #[inline]
    pub(crate) fn tree_node(&self, node: Id) -> Id {
        if self.stand_ins.of.is_empty() {
            return node;
        }
        self.stand_ins.of.get(&node).copied().unwrap_or(node)
    }

    /// The element `node` stands in for, if it is a stand-in; else `node`.
    #[inline]
    pub(crate) fn resolve_stand_in(&self, node: Id) -> Id {
        if self.stand_ins.element_of.is_empty() {
            return node;
        }
        self.stand_ins
            .element_of
            .get(&node)
            .copied()
            .unwrap_or(node)
    }

    /// Gives `element`, which must have no parent, a stand-in (itself with no parent): from
    /// now on the edits here put the stand-in where they are asked to put the element.
    pub(crate) fn give_stand_in(&mut self, element: Id) {
        if self.stand_ins.of.contains_key(&element) || self.parent_node(element).is_some() {
            return;
        }
        let stand_in = self.arena.new_node(NodeData::Fragment);
        self.stand_ins.of.insert(element, stand_in);
        self.stand_ins.element_of.insert(stand_in, element);
    }

    /// Puts `element` back in its stand-in's place (or leaves it without a parent if the
    /// stand-in has none) and frees the stand-in.
    pub(crate) fn put_back(&mut self, element: Id) {
        let Some(stand_in) = self.stand_ins.of.remove(&element) else {
            return;
        };
        self.stand_ins.element_of.remove(&stand_in);
        if self.arena.get(stand_in).and_then(|n| n.parent()).is_some() {
            // The walk this check makes stops at the nearest element that still has a
            // stand-in: a few nodes up.
            #[cfg(test)]
            {
                self.stand_ins.walked += stand_in.ancestors(&self.arena).count() as u64;
            }
            let placed = stand_in
                .checked_insert_before(element, &mut self.arena)
                .is_ok();
            debug_assert!(placed, "an element would become its own ancestor");
        }
        stand_in.remove(&mut self.arena);
    }

    /// Whether any element has a stand-in.
    #[inline]
    pub(crate) fn has_stand_ins(&self) -> bool {
        !self.stand_ins.of.is_empty()
    }
}

/// From this many attributes on, creating an element reserves room for its dynamic names
/// first ([`Document::reserve_attrs`]).
const MANY_ATTRS: usize = 256;

impl Document {
    /// Before an element's `count` attributes are pushed: room for them, and, for an element
    /// with many, for their names that have no static id (`dynamic_names`, called only
    /// then), so that the names table grows once to its size instead of doubling (a
    /// doubling hash table briefly holds its old and new arrays: about 14 bytes per name,
    /// when a tag with a hundred thousand distinct names makes the names table the
    /// document's largest part).
    #[inline]
    pub(crate) fn reserve_attrs<'a, I: Iterator<Item = &'a str>>(
        &mut self,
        count: usize,
        dynamic_names: impl FnOnce() -> I,
    ) {
        self.attrs.reserve(count);
        if count >= MANY_ATTRS {
            self.reserve_names(dynamic_names());
        }
    }

    #[inline(never)]
    fn reserve_names<'a>(&mut self, names: impl Iterator<Item = &'a str>) {
        let (mut count, mut bytes) = (0, 0);
        for name in names {
            count += 1;
            bytes += name.len();
        }
        self.names.reserve(count, bytes);
    }
}

impl Document {
    /// Appends `child` as the last child of `parent` (moving it if it has a parent). Returns
    /// `false`, changing nothing, if `child` is `parent` or one of its ancestors.
    #[inline]
    pub(crate) fn append_node_checked(&mut self, parent: Id, child: Id) -> bool {
        if self.element_steps {
            return (self.hooks.insert)(self, parent, None, child);
        }
        let child = self.tree_node(child);
        parent.checked_append(child, &mut self.arena).is_ok()
    }

    /// Inserts `child` before `sibling` (moving it if it has a parent). Returns `false`,
    /// changing nothing, if that would make `child` its own ancestor or `sibling` has no parent.
    #[inline]
    pub(crate) fn insert_node_before_checked(&mut self, sibling: Id, child: Id) -> bool {
        let Some(parent) = self.parent_node(sibling) else {
            return false;
        };
        if self.element_steps {
            return (self.hooks.insert)(self, parent, Some(sibling), child);
        }
        let (sibling, child) = (self.tree_node(sibling), self.tree_node(child));
        sibling
            .checked_insert_before(child, &mut self.arena)
            .is_ok()
    }

    /// Removes `node` (with its subtree) from its parent, if it has one.
    #[inline]
    pub(crate) fn detach_node(&mut self, node: Id) {
        if self.element_steps {
            (self.hooks.remove)(self, node);
            return;
        }
        let node = self.tree_node(node);
        node.detach(&mut self.arena);
    }

    /// The parent of `node` (a stand-in's parent for an element that has one).
    #[inline]
    pub(crate) fn parent_node(&self, node: Id) -> Option<Id> {
        let node = self.tree_node(node);
        self.arena.get(node).and_then(|n| n.parent())
    }

    /// The previous sibling of `node` (of its stand-in, if it has one).
    #[inline]
    pub(crate) fn previous_sibling_node(&self, node: Id) -> Option<Id> {
        let node = self.tree_node(node);
        self.arena.get(node).and_then(|n| n.previous_sibling())
    }

    /// Moves every child of `from` to the end of `to`, in order (`to` must not be inside
    /// `from`; a child that would become its own ancestor is left in place). Stand-ins move
    /// like any child.
    pub(crate) fn move_children(&mut self, from: Id, to: Id) {
        if self.element_steps {
            // One by one, with the steps.
            while let Some(child) = self.arena.get(from).and_then(|n| n.first_child()) {
                if !self.append_node_checked(to, child) {
                    break;
                }
            }
            return;
        }
        let mut next = self.arena.get(from).and_then(|n| n.first_child());
        while let Some(child) = next {
            next = self.arena[child].next_sibling();
            if to.checked_append(child, &mut self.arena).is_err() {
                break;
            }
        }
    }

    /// Whether `node` has an element child.
    pub(crate) fn has_element_child(&self, node: Id) -> bool {
        let mut next = self.arena.get(node).and_then(|n| n.first_child());
        while let Some(child) = next {
            let child_element = self.resolve_stand_in(child);
            if matches!(self.arena[child_element].get(), NodeData::Element(_)) {
                return true;
            }
            next = self.arena[child].next_sibling();
        }
        false
    }
}

impl Document {
    /// A deep copy of `node` ("clone a node" with subtree set to true): a new, parentless node
    /// with copies of its descendants (and of template contents). Elements share their
    /// attribute runs and text nodes their strings with the originals. Iterative.
    pub(crate) fn deep_clone(&mut self, node: Id) -> Option<Id> {
        let node = self.resolve_stand_in(node);
        let root = self.clone_one(node)?;
        // (original whose children to copy, the copy to append them to)
        let mut work = vec![(node, root)];
        while let Some((from, to)) = work.pop() {
            if let Some(contents) = self.template_contents_of(from) {
                if let Some(to_contents) = self.template_contents_of(to) {
                    work.push((contents, to_contents));
                }
            }
            let mut next = self.arena.get(from).and_then(|n| n.first_child());
            while let Some(child) = next {
                next = self.arena[child].next_sibling();
                let child = self.resolve_stand_in(child);
                let Some(copy) = self.clone_one(child) else {
                    continue;
                };
                self.append_node_checked(to, copy);
                work.push((child, copy));
            }
        }
        Some(root)
    }

    /// A copy of `node` alone.
    fn clone_one(&mut self, node: Id) -> Option<Id> {
        let data = self.arena.get(node)?.get().clone();
        Some(match data {
            NodeData::Element(e) => self.create_element(e.name, e.ns, e.attrs, e.flags),
            NodeData::Text(r) => self.arena.new_node(NodeData::Text(r.without_spare_room())),
            NodeData::Comment(r) => self
                .arena
                .new_node(NodeData::Comment(r.without_spare_room())),
            other => self.arena.new_node(other),
        })
    }
}
