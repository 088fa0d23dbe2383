//! The one place where the DOM Standard's hooks for "other applicable specifications" run:
//! how the layers above the tree (the HTML element semantics in `html/`, the query caches in
//! `query/`) learn of mutations, without this room naming them.
//!
//! DOM Standard, 4.2.3 "Mutation algorithms" and 4.9 "Interface Element": "specifications may
//! define insertion steps / children changed steps / post-connection steps / removing steps"
//! and "attribute change steps". Here they are a table of functions ([`Hooks`]) that a
//! document holds as a `&'static` (installed by the constructors, which live above this room:
//! `Document::new` in `html/`, the parsers in `parser/` and `xml/`), dispatched once per
//! mutation:
//!
//! | DOM Standard                          | hook                                  |
//! |---------------------------------------|---------------------------------------|
//! | (element creation)                    | [`Hooks::created`], for the names in [`Hooks::created_names`] |
//! | insertion + post-connection steps     | [`Hooks::inserting`] (before), [`Hooks::inserted`] (after) |
//! | removing steps                        | [`Hooks::removing`] (before), [`Hooks::remove`] (the detaching with the steps) |
//! | children changed steps                | [`Hooks::children_changed`]           |
//! | attribute change steps                | [`Hooks::attribute_changed`]          |
//! | (any mutation: derived caches)        | [`Hooks::changed`]                    |
//!
//! The tree builder's moves run the same steps through [`Hooks::insert`] and [`Hooks::remove`].
//!
//! Cost: parsing pays for nothing that has nothing to do. The element steps (insertion,
//! removing, children changed, and the tree builder's moves) are called only while
//! [`Document::element_steps`] is set, which an upper layer sets once it has state that they
//! change (the `select` steps: once a `select` and an `option` or `selectedcontent` exist);
//! element creation calls [`Hooks::created`] only for the few names the table lists. The
//! mutation API's upkeep hooks (`inserting`, `inserted`, `removing`, `attribute_changed`,
//! `changed`) are one indirect call per API mutation.
//!
//! State: what the upper layers keep per document lives in two opaque slots,
//! [`Extensions::html`] and [`Extensions::query`] (a boxed `Any` each, made on first use and
//! cloned with the document); this room never knows their types.

use std::any::Any;
use std::sync::OnceLock;

use super::Document;
use super::names::LocalName;

type Id = indextree::NodeId;

/// The hook table (see the module docs). Every function gets the document after (or, for
/// the `-ing` ones, before) the change.
pub(crate) struct Hooks {
    /// HTML elements whose creation [`Hooks::created`] hears of (the others skip the call).
    pub(crate) created_names: [LocalName; 3],
    /// An HTML element named in [`Hooks::created_names`] was created (detached or not).
    pub(crate) created: fn(&mut Document, LocalName),
    /// Mutation API: `node` (or, for a fragment, its children) is about to be inserted under
    /// `parent`, moving from wherever it is.
    pub(crate) inserting: fn(&mut Document, Id, Id),
    /// Mutation API: the insertion steps and post-connection steps: `nodes` were inserted
    /// under the parent (first argument), in order.
    pub(crate) inserted: fn(&mut Document, Id, &[Id]),
    /// Mutation API: `node` is about to leave its tree (removed or detached), with its
    /// subtree; for a fragment or a template's contents, its children.
    pub(crate) removing: fn(&mut Document, Id),
    /// While [`Document::element_steps`] is set: detaches `node` (a parser node: maybe a
    /// stand-in's element) from its parent, running the removing steps.
    pub(crate) remove: fn(&mut Document, Id),
    /// While [`Document::element_steps`] is set: the tree builder inserts `child` under
    /// `parent` (before `before`, or last), moving it if it has a parent, with the removing,
    /// insertion and post-connection steps; `false` (nothing changed) if that would make
    /// `child` its own ancestor.
    pub(crate) insert: fn(&mut Document, Id, Option<Id>, Id) -> bool,
    /// While [`Document::element_steps`] is set: the insertion and post-connection steps of
    /// `root` (with its subtree), just inserted by the tree builder.
    pub(crate) post_insert: fn(&mut Document, Id),
    /// While [`Document::element_steps`] is set: `parent` got a new child.
    pub(crate) children_changed: fn(&mut Document, Id),
    /// Mutation API: an attribute of the element was set (`true`) or removed.
    pub(crate) attribute_changed: fn(&mut Document, Id, LocalName, bool),
    /// Mutation API: any mutation, after the others (caches derived from the whole tree).
    pub(crate) changed: fn(&mut Document),
}

/// No hooks: a bare tree, as this room alone makes it (its unit tests; documents made by
/// this crate's constructors get the HTML and query hooks).
#[cfg(test)]
pub(crate) static NO_HOOKS: Hooks = Hooks {
    created_names: [LocalName(0); 3],
    created: |_, _| {},
    inserting: |_, _, _| {},
    inserted: |_, _, _| {},
    removing: |_, _| {},
    remove: |doc, node| node.detach(&mut doc.arena),
    insert: |doc, parent, before, child| match before {
        Some(sibling) => sibling.checked_insert_before(child, &mut doc.arena).is_ok(),
        None => parent.checked_append(child, &mut doc.arena).is_ok(),
    },
    post_insert: |_, _| {},
    children_changed: |_, _| {},
    attribute_changed: |_, _, _, _| {},
    changed: |_| {},
};

/// An upper layer's per-document state: any `Send + Sync + Clone` type.
pub(crate) trait Slot: Any + Send + Sync {
    /// A copy for a cloned document.
    fn clone_slot(&self) -> Box<dyn Slot>;
}

impl<T: Any + Send + Sync + Clone> Slot for T {
    fn clone_slot(&self) -> Box<dyn Slot> {
        Box::new(self.clone())
    }
}

/// The upper layers' state slots (see the module docs). Each is made on first use.
#[derive(Default)]
pub(crate) struct Extensions {
    /// The HTML element semantics' state (`html/`).
    pub(crate) html: OnceLock<Box<dyn Slot>>,
    /// The query caches (`query/`).
    pub(crate) query: OnceLock<Box<dyn Slot>>,
}

/// A copy of `slot` for a cloned document (empty if the state was never made).
fn clone_slot(slot: &OnceLock<Box<dyn Slot>>) -> OnceLock<Box<dyn Slot>> {
    match slot.get() {
        Some(s) => OnceLock::from((**s).clone_slot()),
        None => OnceLock::new(),
    }
}

impl Clone for Extensions {
    fn clone(&self) -> Extensions {
        Extensions {
            html: clone_slot(&self.html),
            query: clone_slot(&self.query),
        }
    }
}

/// A slot of its own, for state that an upper layer keeps inside another's (the HTML
/// element state kept with the query room's element index): cloned with its holder.
#[derive(Default)]
pub(crate) struct SlotCell(pub(crate) OnceLock<Box<dyn Slot>>);

impl Clone for SlotCell {
    fn clone(&self) -> SlotCell {
        SlotCell(clone_slot(&self.0))
    }
}

/// The state of type `T` in `slot`, made with `make` on first use. `None` only if the slot
/// holds another type (a bug of the layer that owns it).
#[inline]
pub(crate) fn slot<T: Slot>(
    slot: &OnceLock<Box<dyn Slot>>,
    make: impl FnOnce() -> T,
) -> Option<&T> {
    let b: &dyn Any = &**slot.get_or_init(|| Box::new(make()));
    b.downcast_ref()
}

/// The state of type `T` in `slot`, if it was made.
#[inline]
pub(crate) fn slot_mut<T: Slot>(slot: &mut OnceLock<Box<dyn Slot>>) -> Option<&mut T> {
    let b: &mut dyn Any = &mut **slot.get_mut()?;
    b.downcast_mut()
}

/// The state of type `T` in `slot`, if it was made.
#[inline]
pub(crate) fn slot_get<T: Slot>(slot: &OnceLock<Box<dyn Slot>>) -> Option<&T> {
    let b: &dyn Any = &**slot.get()?;
    b.downcast_ref()
}

impl Document {
    /// The children changed steps of `parent`, if the element steps have work.
    #[inline]
    pub(crate) fn children_changed(&mut self, parent: Id) {
        if self.element_steps {
            (self.hooks.children_changed)(self, parent);
        }
    }

    /// Detaches `node` from its parent, with the removing steps if the element steps have
    /// work (the mutation API's removals and moves).
    #[inline]
    pub(crate) fn detach_with_steps(&mut self, node: Id) {
        if self.element_steps {
            (self.hooks.remove)(self, node);
        } else {
            node.detach(&mut self.arena);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::NodeData;

    /// The tree works without the layers above: mutations through the bare table.
    #[test]
    fn a_bare_tree_mutates_without_the_layers_above() {
        let mut doc = Document::with_source(String::new(), NodeData::Document, &NO_HOOKS);
        let html = doc.new_element("html").unwrap();
        let select = doc.new_element("select").unwrap();
        let option = doc.new_element("option").unwrap();
        doc.append(doc.root().node_id(), html).unwrap();
        doc.append(html, select).unwrap();
        doc.append(select, option).unwrap();
        doc.set_attribute(option, "selected", "").unwrap();
        assert!(!doc.element_steps, "no layer asked for the element steps");
        assert!(doc.ext.html.get().is_none() && doc.ext.query.get().is_none());
        doc.detach(select).unwrap();
        assert_eq!(doc.node(html).unwrap().children().count(), 0);
    }
}
