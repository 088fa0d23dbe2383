//! Caches derived from the tree for the query engines: the element index (`index.rs`: every
//! element of a tree in document order with its name, id and class hashes, and candidate
//! lists) and document order as numbers (`order.rs`). Both are built on first use; the index
//! follows mutations through the DOM's hook point.
//!
//! This room may use `dom`; `dom` never names anything here. The HTML semantics
//! ([`crate::html`]) compute their tree-wide state over the element index, and keep it in an
//! opaque slot of the index (`TreeIndex::html`).

pub(crate) mod index;
pub(crate) mod order;

pub(crate) use order::{TreeOrder, UNNUMBERED};

use crate::dom::{AttrRange, Document, Edge, ElementData, NodeData, NodeRef, names};
