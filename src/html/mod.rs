//! The HTML Standard's element semantics, on top of the DOM tree ([`crate::dom`]): what an
//! element *means* once it is in a tree, as opposed to how the tree is stored and changed.
//!
//! - `forms/`: form controls (value sanitization, constraint validation, form owners,
//!   disabledness, checkedness, languages), computed over the element index of
//!   [`crate::query`];
//! - `select_steps.rs`: the `select`, `option` and `selectedcontent` insertion, removing and
//!   moving steps, run through the DOM's hook point (see `hooks.rs`);
//! - `direction.rs`: directionality (the `dir` attribute, `:dir()`);
//! - `url.rs`: the document's URL, base URL and URL-valued attributes;
//! - `text.rs`: rendered text ("the `innerText` getter steps").
//!
//! This room may use `dom` and `query`; `dom` never names anything here.

pub(crate) mod direction;
pub(crate) mod forms;
pub(crate) mod select_steps;
pub(crate) mod text;
pub(crate) mod url;

pub use direction::Direction;
pub use forms::ValidityState;

// The tree's items, as the files of this room name them (`super::Document`, ...).
use crate::dom::{Document, ElementRef, NodeData, NodeRef, names};
