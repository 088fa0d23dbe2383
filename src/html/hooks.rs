//! The HTML layer's (and the query caches') side of the DOM's hook point
//! ([`crate::dom`]'s `hooks.rs`): the table [`HOOKS`] that every document made by this
//! crate's constructors holds. It composes the two layers above the tree, in the order the
//! mutations need: the query caches' upkeep (`query/index.rs`: the selector index follows
//! insertions, removals and attribute changes; document order and derived state are dropped)
//! and the HTML element steps (`select_steps.rs`: the `select`, `option` and
//! `selectedcontent` insertion, removing, moving and attribute change steps; `url.rs`: the
//! base URL cache).
//!
//! The element steps only run while [`Document::element_steps`](crate::dom) is set, which
//! `select_steps.rs` sets once a document has a `select` and an `option` or
//! `selectedcontent`; a parse of a page without them never calls into this file but for
//! the creation of those three elements.

use crate::dom::hooks::Hooks;
use crate::dom::names::{LocalName, local_name as n};
use crate::dom::{Document, NodeData};

type Id = indextree::NodeId;

/// The hooks of the documents this crate makes (HTML and XML parses, [`Document::new`]).
pub(crate) static HOOKS: Hooks = Hooks {
    created_names: [n::SELECT, n::OPTION, n::SELECTEDCONTENT],
    created: |doc, name| doc.note_created(name),
    inserting: |doc, parent, node| doc.index_inserting(parent, node),
    inserted: |doc, parent, nodes| {
        for &node in nodes {
            doc.steps_after_insert(node);
        }
        doc.index_inserted(parent, nodes);
    },
    removing: |doc, node| doc.index_removing(node),
    remove: |doc, node| doc.remove_with_steps(node),
    insert: |doc, parent, before, child| doc.insert_with_steps(parent, before, child),
    post_insert: |doc, root| doc.steps_after_insert(root),
    children_changed: |doc, parent| doc.note_child_added(parent),
    attribute_changed,
    changed,
};

/// The attribute change steps: the index's entry for the element, then the `select` steps.
fn attribute_changed(doc: &mut Document, element: Id, name: LocalName, added: bool) {
    doc.index_attributes_changed(element);
    doc.attribute_changed(element, name, added);
}

/// Any mutation: what the layers derive from the whole tree is dropped.
fn changed(doc: &mut Document) {
    doc.query_tree_changed();
    doc.html_tree_changed();
}

impl Document {
    /// An empty document with no input: a `Document` node and nothing else.
    ///
    /// ```
    /// let doc = html_arena::Document::new();
    /// assert!(doc.root().first_child().is_none());
    /// ```
    pub fn new() -> Document {
        Document::with_source(String::new(), NodeData::Document, &HOOKS)
    }

    /// The removing steps around detaching a node (the tree builder's, whose node may be a
    /// deep element with a stand-in, and the mutation API's).
    fn remove_with_steps(&mut self, node: Id) {
        let element = self.resolve_stand_in(node);
        let old = self.steps_before_move(element);
        self.tree_node(element).detach(&mut self.arena);
        if let Some(old) = old {
            self.steps_after_remove(element, old);
        }
    }

    /// [`Document::append_node_checked`] and [`Document::insert_node_before_checked`] once
    /// the document has select state: a move is a remove and an insert, with the removing,
    /// insertion and post-connection steps of `select_steps.rs`.
    #[inline(never)]
    pub(crate) fn insert_with_steps(&mut self, parent: Id, before: Option<Id>, child: Id) -> bool {
        let element = self.resolve_stand_in(child);
        let (t_child, t_parent) = (self.tree_node(element), parent);
        // Refuse (changing nothing) what would make child its own ancestor.
        if t_child == t_parent
            || (self.arena[t_child].first_child().is_some()
                && t_parent.ancestors(&self.arena).any(|a| a == t_child))
        {
            return false;
        }
        if self.move_keeps_context(element, parent) {
            // A move that changes no option's select (select_steps.rs).
            let old = self.parent_node(element);
            t_child.detach(&mut self.arena);
            let done = self.attach_detached(t_child, t_parent, before);
            match (done, old) {
                (true, _) => self.note_child_added(parent),
                (false, Some(old)) => self.steps_after_failed_move(element, old),
                (false, None) => {}
            }
            return done;
        }
        self.remove_with_steps(element);
        let done = self.attach_detached(t_child, t_parent, before);
        if done {
            self.steps_after_insert(element);
        }
        done
    }

    /// Inserts the detached `t_child` before `before` (which must still have a parent) or as
    /// the last child of `t_parent`; whether it was inserted.
    fn attach_detached(&mut self, t_child: Id, t_parent: Id, before: Option<Id>) -> bool {
        match before {
            Some(sibling) => {
                let sibling = self.tree_node(sibling);
                self.arena.get(sibling).and_then(|n| n.parent()).is_some()
                    && sibling
                        .checked_insert_before(t_child, &mut self.arena)
                        .is_ok()
            }
            None => t_parent.checked_append(t_child, &mut self.arena).is_ok(),
        }
    }
}
