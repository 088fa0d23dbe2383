//! Where parsing meets the `select` element's DOM steps (4.10.10 "The option element"): "When
//! an option element is popped off the stack of open elements of an HTML parser ..., the user
//! agent must run maybe clone an option into selectedcontent given the option element."
//!
//! The steps themselves (the option insertion and removing steps, the selectedness setting
//! algorithm, the selectedcontent post-connection and removing steps) run on the DOM, in
//! `dom/select_steps.rs`, from the tree edits the parser makes; here the parser only reports
//! the options it pops (or removes: the adoption agency algorithm's "remove node from the
//! stack of open elements" counts as popping it, see `adoption.rs`).

use indextree::NodeId;

use super::TreeBuilder;

impl TreeBuilder {
    /// "Maybe clone an option into selectedcontent" for every option popped off the stack of
    /// open elements since the last call (nothing is recorded until the document has a
    /// `selectedcontent` element).
    #[inline]
    pub(crate) fn flush_popped_options(&mut self) {
        if self.open.track_popped_options {
            self.flush_popped_options_now();
        }
    }

    /// [`TreeBuilder::flush_popped_options`] once options are tracked.
    #[inline(never)]
    fn flush_popped_options_now(&mut self) {
        for (option, _) in self.open.take_popped_options() {
            self.doc.maybe_clone_option(option);
        }
    }

    /// After the parser inserted `element`: start recording popped options once the document
    /// has a `selectedcontent`.
    #[inline]
    pub(crate) fn note_select_element(&mut self, _element: NodeId) {
        if !self.open.track_popped_options && self.doc.has_selectedcontent() {
            self.open.track_popped_options = true;
        }
    }
}
