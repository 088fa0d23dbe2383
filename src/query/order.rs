//! Document order as numbers: every node of the document's tree and of each template's
//! contents gets its preorder position, and the position one past its subtree, so that
//! comparing document order (DOM, "tree order") and testing "is inside the subtree of" are
//! array reads. Built by one iterative walk on first use and kept until the next mutation
//! (every mutation drops it, as it drops the selector index). XPath sorts node-sets with it.

use super::{Document, Edge, NodeRef};

/// "Not numbered": a node outside the numbered trees (a detached subtree, a node made after
/// the numbering).
pub(crate) const UNNUMBERED: u32 = u32::MAX;

/// Preorder numbers, indexed by arena index (see `usize::from(indextree::NodeId)`).
#[derive(Clone, Debug, Default)]
pub(crate) struct TreeOrder {
    pre: Vec<u32>,
    end: Vec<u32>,
}

impl TreeOrder {
    /// Numbers the trees rooted at `roots`, one after another (each tree's numbers are
    /// contiguous, so subtree ranges hold within a tree).
    pub(crate) fn number(
        doc: &Document,
        roots: impl IntoIterator<Item = indextree::NodeId>,
    ) -> Self {
        let len = doc.arena.len() + 1;
        let mut order = TreeOrder {
            pre: vec![UNNUMBERED; len],
            end: vec![UNNUMBERED; len],
        };
        let mut next = 0u32;
        for root in roots {
            for edge in NodeRef::new(doc, root).traverse() {
                match edge {
                    Edge::Open(n) => {
                        if let Some(slot) = order.pre.get_mut(usize::from(n.raw_id())) {
                            *slot = next;
                        }
                        next = next.saturating_add(1);
                    }
                    Edge::Close(n) => {
                        if let Some(slot) = order.end.get_mut(usize::from(n.raw_id())) {
                            *slot = next;
                        }
                    }
                }
            }
        }
        order
    }

    /// The preorder number of a node ([`UNNUMBERED`] if it has none).
    #[inline]
    pub(crate) fn pre(&self, id: indextree::NodeId) -> u32 {
        self.pre.get(usize::from(id)).copied().unwrap_or(UNNUMBERED)
    }

    /// One past the last preorder number of the node's subtree.
    #[inline]
    pub(crate) fn end(&self, id: indextree::NodeId) -> u32 {
        self.end.get(usize::from(id)).copied().unwrap_or(UNNUMBERED)
    }
}

impl Document {
    /// The document order of the document's tree and of every template's contents, numbered
    /// on first use and kept until the next mutation.
    pub(crate) fn tree_order(&self) -> &TreeOrder {
        self.query_state().order.get_or_init(|| {
            let mut templates: Vec<indextree::NodeId> =
                self.template_contents.values().copied().collect();
            // (The table's order is a hash order: sort for a deterministic numbering.)
            templates.sort_unstable_by_key(|&id| usize::from(id));
            Box::new(TreeOrder::number(
                self,
                std::iter::once(self.root).chain(templates),
            ))
        })
    }
}
