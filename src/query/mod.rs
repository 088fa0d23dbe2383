//! Caches derived from the tree for the query engines: the element index (`index.rs`: every
//! element of a tree in document order with its name, id and class hashes, and candidate
//! lists) and document order as numbers (`order.rs`). Both are built on first use; the index
//! follows mutations through the DOM's hook point.
//!
//! This room may use `dom`; `dom` never names anything here. The HTML semantics
//! ([`crate::html`]) compute their tree-wide state over the element index, and keep it in an
//! opaque slot of the index (`TreeIndex::html`).

pub(crate) mod index;
// (Document order serves XPath; without it only the index is used.)
#[cfg_attr(not(feature = "xpath"), allow(dead_code))]
pub(crate) mod order;

#[cfg_attr(not(feature = "xpath"), allow(unused_imports))]
pub(crate) use order::{TreeOrder, UNNUMBERED};

use crate::dom::{AttrRange, Document, Edge, ElementData, NodeData, NodeRef, names};

use std::sync::OnceLock;

use crate::dom::hooks::{Extensions, slot, slot_mut};

/// This room's per-document state, in the DOM's opaque `query` slot (`dom/hooks.rs`).
#[derive(Clone, Default)]
pub(crate) struct QueryState {
    /// The selector index (see `index.rs`), built by the first query that needs it and kept
    /// up to date by mutations.
    pub(crate) index: index::IndexCache,
    /// Document order as numbers (see `order.rs`), built on first use; every mutation drops
    /// it.
    pub(crate) order: OnceLock<Box<TreeOrder>>,
}

/// This room's state, if it was made (a field-level borrow of the document's slots, so that
/// the tree can be read meanwhile).
#[inline]
pub(crate) fn state_mut(ext: &mut Extensions) -> Option<&mut QueryState> {
    slot_mut(&mut ext.query)
}

impl Document {
    /// This room's state, made on first use.
    #[inline]
    pub(crate) fn query_state(&self) -> &QueryState {
        match slot(&self.ext.query, QueryState::default) {
            Some(state) => state,
            // (The slot holds this room's type: not reached.)
            None => {
                static EMPTY: OnceLock<QueryState> = OnceLock::new();
                EMPTY.get_or_init(QueryState::default)
            }
        }
    }

    /// The selector index's cache.
    #[inline]
    pub(crate) fn index_cache(&self) -> &index::IndexCache {
        &self.query_state().index
    }

    /// After any mutation: drops what this room derives from the whole tree.
    pub(crate) fn query_tree_changed(&mut self) {
        self.index_tree_changed();
        if let Some(state) = state_mut(&mut self.ext) {
            state.order = OnceLock::new();
        }
    }
}
