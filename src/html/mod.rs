//! The HTML Standard's element semantics, on top of the DOM tree ([`crate::dom`]): what an
//! element *means* once it is in a tree, as opposed to how the tree is stored and changed.
//!
//! - `forms/`: form controls (value sanitization, constraint validation, form owners,
//!   disabledness, checkedness, languages), computed over the element index of
//!   the query caches (`query/`);
//! - `select_steps.rs`: the `select`, `option` and `selectedcontent` insertion, removing and
//!   moving steps, run through the DOM's hook point (see `hooks.rs`);
//! - `direction.rs`: directionality (the `dir` attribute, `:dir()`);
//! - `url.rs` (feature `url`): the document's URL, base URL and URL-valued attributes;
//! - `text.rs`: rendered text ("the `innerText` getter steps").
//!
//! This room may use `dom` and `query`; `dom` never names anything here. Its public types,
//! [`Direction`] and [`ValidityState`], are also at the crate root (they were in `dom` before
//! the HTML semantics had a room of their own). Constraint validation's API and the `pattern`
//! attribute need the `forms` feature.

pub(crate) mod direction;
pub(crate) mod forms;
pub(crate) mod select_steps;
pub(crate) mod text;
#[cfg(feature = "url")]
pub(crate) mod url;

pub use direction::Direction;
pub use forms::ValidityState;

// The tree's items, as the files of this room name them (`super::Document`, ...).
use crate::dom::{Document, ElementRef, NodeData, NodeRef, names};

pub(crate) mod hooks;

/// This room's per-document state, in the DOM's opaque `html` slot (`dom/hooks.rs`).
#[derive(Clone, Default)]
pub(crate) struct HtmlState {
    /// The option/select/selectedcontent state, from the first `select`, `option` or
    /// `selectedcontent` on (see `select_steps.rs`).
    pub(crate) select: Option<Box<select_steps::SelectState>>,
    /// The document base URL (see `url.rs`), computed on first use; every mutation drops it.
    #[cfg(feature = "url")]
    pub(crate) base_url: std::sync::OnceLock<url::BaseUrl>,
}

impl Document {
    /// This room's state, made on first use (`None` only if the slot holds another type).
    #[inline]
    #[cfg_attr(
        not(all(feature = "xml", feature = "xpath", feature = "url", feature = "forms")),
        allow(dead_code)
    )]
    pub(crate) fn html_state(&self) -> Option<&HtmlState> {
        crate::dom::hooks::slot(&self.ext.html, HtmlState::default)
    }

    /// This room's state, made on first use.
    #[inline]
    pub(crate) fn html_state_mut(&mut self) -> Option<&mut HtmlState> {
        let _ = self.ext.html.get_or_init(|| Box::new(HtmlState::default()));
        crate::dom::hooks::slot_mut(&mut self.ext.html)
    }

    /// The `select` steps' state, if the document has one.
    #[inline]
    pub(crate) fn select_state(&self) -> Option<&select_steps::SelectState> {
        crate::dom::hooks::slot_get::<HtmlState>(&self.ext.html)?
            .select
            .as_deref()
    }

    /// The `select` steps' state, if the document has one.
    #[inline]
    pub(crate) fn select_state_mut(&mut self) -> Option<&mut select_steps::SelectState> {
        crate::dom::hooks::slot_mut::<HtmlState>(&mut self.ext.html)?
            .select
            .as_deref_mut()
    }

    /// After any mutation: drops what this room derives from the whole tree (the base URL).
    #[inline]
    pub(crate) fn html_tree_changed(&mut self) {
        #[cfg(feature = "url")]
        if let Some(state) = crate::dom::hooks::slot_mut::<HtmlState>(&mut self.ext.html) {
            state.base_url = std::sync::OnceLock::new();
        }
    }
}
