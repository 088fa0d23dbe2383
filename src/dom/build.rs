//! Tree edits for the tree builder: the checked, panic-free forms of the link operations.
//!
//! The parser never builds an invalid tree on purpose, but the specification's algorithms
//! (the adoption agency algorithm above all) move nodes around, and a move that would make a
//! node its own ancestor must be refused rather than panic. These wrappers return whether the
//! edit happened.

use super::{Document, NodeData};

type Id = indextree::NodeId;

impl Document {
    /// Appends `child` as the last child of `parent` (moving it if it has a parent). Returns
    /// `false`, changing nothing, if `child` is `parent` or one of its ancestors.
    #[inline]
    pub(crate) fn append_node_checked(&mut self, parent: Id, child: Id) -> bool {
        parent.checked_append(child, &mut self.arena).is_ok()
    }

    /// Inserts `child` before `sibling` (moving it if it has a parent). Returns `false`,
    /// changing nothing, if that would make `child` its own ancestor or `sibling` has no parent.
    #[inline]
    pub(crate) fn insert_node_before_checked(&mut self, sibling: Id, child: Id) -> bool {
        if self.arena.get(sibling).and_then(|n| n.parent()).is_none() {
            return false;
        }
        sibling
            .checked_insert_before(child, &mut self.arena)
            .is_ok()
    }

    /// Removes `node` (with its subtree) from its parent, if it has one.
    #[inline]
    pub(crate) fn detach_node(&mut self, node: Id) {
        node.detach(&mut self.arena);
    }

    /// The parent of `node`.
    #[inline]
    pub(crate) fn parent_node(&self, node: Id) -> Option<Id> {
        self.arena.get(node).and_then(|n| n.parent())
    }

    /// Moves every child of `from` to the end of `to`, in order (`to` must not be inside
    /// `from`; a child that would become its own ancestor is left in place).
    pub(crate) fn move_children(&mut self, from: Id, to: Id) {
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
            if matches!(self.arena[child].get(), NodeData::Element(_)) {
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

    /// Removes every child of `node` ("replace all with null").
    pub(crate) fn remove_children_of(&mut self, node: Id) {
        while let Some(child) = self.arena.get(node).and_then(|n| n.first_child()) {
            child.detach(&mut self.arena);
        }
    }
}
