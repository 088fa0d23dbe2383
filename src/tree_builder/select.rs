//! The `select` element behavior that parsing triggers: option selectedness and
//! `selectedcontent` (4.10.7 "The select element", 4.10.10 "The option element", 4.10.17 "The
//! selectedcontent element").
//!
//! "When an option element is popped off the stack of open elements of an HTML parser ... the
//! user agent must run maybe clone an option into selectedcontent given the option element":
//! the selected option's children are copied into the `select`'s `selectedcontent`. That needs
//! each `select`'s selected option, so the parser keeps the selectedness of the options it
//! inserts (the option insertion steps and the selectedness setting algorithm), for the
//! `select` elements without a `multiple` attribute (only those can have an enabled
//! `selectedcontent`). Scripts never run here, so nothing else changes selectedness.
//!
//! The elements' ancestors are read from the stack of open elements, which holds them while
//! the parser inserts into them (`OpenElements::nearest_select_below`), so no step walks the
//! tree.

use indextree::NodeId;

use crate::dom::names::local_name as n;

use super::TreeBuilder;

/// What the parser tracks of a `select` element without a `multiple` attribute.
#[derive(Clone, Debug, Default)]
pub(crate) struct SelectState {
    /// The display size is 1: the first enabled option is selected when none is.
    select_first: bool,
    /// The option whose selectedness is true (at most one: "set the selectedness of all but
    /// the last option element with its selectedness set to true ... to false").
    selected: Option<NodeId>,
    /// The select's enabled `selectedcontent`.
    selectedcontent: Option<NodeId>,
    /// The option whose children were last copied into the `selectedcontent` after the option
    /// was closed (so the copy cannot be out of date).
    copied: Option<NodeId>,
}

impl TreeBuilder {
    /// The option insertion steps, for an `option` element the parser just inserted (before it
    /// is pushed onto the stack).
    pub(crate) fn option_inserted(&mut self, option: NodeId) {
        if !self.open.contains_html(n::SELECT) {
            return;
        }
        let Some(select) = self.open.nearest_select_below(self.open.len()) else {
            return;
        };
        let Some(state) = self.select_state(select) else {
            return;
        };
        let has_attr = |tb: &TreeBuilder, node: NodeId, name| {
            tb.doc
                .element_data(node)
                .is_some_and(|e| tb.doc.attrs_of(e).iter().any(|a| a.name == name))
        };
        // "When the element is created, its selectedness must be set to true if the element has
        // a selected attribute."
        let selected = has_attr(self, option, n::SELECTED);
        // An option is disabled if it has a disabled attribute or is a child of an optgroup
        // that has one.
        let disabled = has_attr(self, option, n::DISABLED)
            || self.doc.parent_node(option).is_some_and(|p| {
                self.node_is_html(p, n::OPTGROUP) && has_attr(self, p, n::DISABLED)
            });
        // The selectedness setting algorithm: the inserted option comes after the select's
        // other options in tree order.
        if selected || (state.select_first && state.selected.is_none() && !disabled) {
            if let Some(state) = self.selects.get_mut(&select) {
                state.selected = Some(option);
            }
        }
    }

    /// The state of `select`, created on first use; `None` for a `multiple` select.
    fn select_state(&mut self, select: NodeId) -> Option<SelectState> {
        if let Some(state) = self.selects.get(&select) {
            return Some(state.clone());
        }
        let e = *self.doc.element_data(select)?;
        let attrs = self.doc.attrs_of(&e);
        if attrs.iter().any(|a| a.name == n::MULTIPLE) {
            return None;
        }
        // "The display size ... is the result of applying the rules for parsing non-negative
        // integers to the value of the element's size attribute, if it has one and parsing it is
        // successful", else 1 (there is no multiple attribute).
        let size = attrs
            .iter()
            .find(|a| a.name == n::SIZE)
            .and_then(|a| parse_non_negative(self.doc.str(a.value)));
        let state = SelectState {
            select_first: size.is_none_or(|s| s == 1),
            ..SelectState::default()
        };
        self.selects.insert(select, state.clone());
        Some(state)
    }

    /// The `selectedcontent` post-connection steps, for a `selectedcontent` element the parser
    /// just inserted (before it is pushed onto the stack).
    pub(crate) fn selectedcontent_inserted(&mut self, selectedcontent: NodeId) {
        // "For each ancestor of selectedcontent's ancestors, in reverse tree order: a second
        // select, an option or a selectedcontent makes it disabled."
        let disabled = self.open.count_html(n::SELECT) != 1
            || self.open.contains_html(n::OPTION)
            || self.open.contains_html(n::SELECTEDCONTENT);
        if disabled {
            return;
        }
        let Some(select) = self
            .open
            .last_html(n::SELECT)
            .and_then(|p| self.open.get(p))
            .map(|e| e.node)
        else {
            return;
        };
        let Some(state) = self.select_state(select) else {
            return;
        };
        // "Get a select's enabled selectedcontent": the first selectedcontent descendant.
        let target = state.selectedcontent.unwrap_or(selectedcontent);
        if let Some(s) = self.selects.get_mut(&select) {
            s.selectedcontent = Some(target);
        }
        self.open.track_popped_options = true;
        // "Update a select's selectedcontent". Copying the same closed option into the same
        // selectedcontent again would change nothing.
        match state.selected {
            Some(option) if state.copied == Some(option) && !self.open.contains(option) => {}
            Some(option) => self.clone_option_into_selectedcontent(option, target),
            None => self.doc.remove_children_of(target),
        }
    }

    /// "Maybe clone an option into selectedcontent" for every option popped off the stack of
    /// open elements since the last call.
    #[inline]
    pub(crate) fn flush_popped_options(&mut self) {
        if self.open.track_popped_options {
            self.flush_popped_options_now();
        }
    }

    /// [`TreeBuilder::flush_popped_options`] once options are tracked.
    #[inline(never)]
    fn flush_popped_options_now(&mut self) {
        for (option, select) in self.open.take_popped_options() {
            let Some(select) = select else { continue };
            let Some(state) = self.selects.get(&select) else {
                continue;
            };
            if state.selected != Some(option) {
                continue;
            }
            if let Some(target) = state.selectedcontent {
                self.clone_option_into_selectedcontent(option, target);
                if let Some(state) = self.selects.get_mut(&select) {
                    state.copied = Some(option);
                }
            }
        }
    }

    /// "Clone an option into a selectedcontent": replace the selectedcontent's children with
    /// copies of the option's.
    fn clone_option_into_selectedcontent(&mut self, option: NodeId, selectedcontent: NodeId) {
        let mut copies = Vec::new();
        let mut next = self.doc.arena.get(option).and_then(|x| x.first_child());
        while let Some(child) = next {
            next = self.doc.arena[child].next_sibling();
            if let Some(copy) = self.doc.deep_clone(child) {
                copies.push(copy);
            }
        }
        self.doc.remove_children_of(selectedcontent);
        for copy in copies {
            self.doc.append_node_checked(selectedcontent, copy);
        }
    }
}

/// "The rules for parsing non-negative integers".
fn parse_non_negative(s: &str) -> Option<u64> {
    let s = s.trim_start_matches([' ', '\t', '\n', '\x0C', '\r']);
    let s = s.strip_prefix('+').unwrap_or(s);
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    Some(s[..digits].bytes().fold(0u64, |v, d| {
        v.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    }))
}
