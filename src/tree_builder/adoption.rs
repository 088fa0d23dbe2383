//! The adoption agency algorithm (13.2.6.4.7, in its current form with the reinsertion steps),
//! and the list of active formatting elements' "push" and "reconstruct" (13.2.4.3).
//!
//! Clones of formatting elements share the original's attribute run in the document: runs
//! are never modified in place.
//!
//! Cost: each outer loop iteration is O(1) apart from the nodes its inner loop visits (each
//! visited node is removed, or is one of at most three clones): removals from the stack leave
//! tombstones instead of renumbering (`open_elements.rs`), and the moves into open elements
//! (steps 4.16 and 4.21), which indextree checks by walking the target's ancestors, walk only
//! up to the nearest open element with a stand-in (`dom/build.rs`), at most about
//! `STAND_IN_SPACING` levels, however deep the document.

use indextree::NodeId;

use crate::dom::NodeData;
use crate::dom::names::{LocalName, Namespace};
use crate::error::ErrorCode;

use super::active_formatting::{ActiveFormatting, EntryRef, Item};
use super::insert::Location;
use super::open_elements::{Kind, Scope};
use super::{TagToken, TreeBuilder};

/// How the adoption agency algorithm ended.
pub(crate) enum Adoption {
    /// It ran to the end (or stopped early without needing more).
    Done,
    /// No formatting element with the subject's name: "act as described in the 'any other end
    /// tag' entry" (the caller does that).
    AnyOtherEndTag,
}

impl TreeBuilder {
    /// "Push onto the list of active formatting elements" `element`.
    pub(crate) fn push_active_formatting(&mut self, element: NodeId) {
        let Some(NodeData::Element(e)) = self.doc.arena.get(element).map(|x| x.get()) else {
            return;
        };
        let name = e.name;
        let (doc, token_attrs) = (&self.doc, &self.token_attrs);
        // The key of an element in the list: its name and its attributes as the parser
        // created them (a script may have changed them since: see `clone_element`).
        let key_of = |seed: u64, node: NodeId| {
            let Some(NodeData::Element(e)) = doc.arena.get(node).map(|x| x.get()) else {
                return 0;
            };
            let kept = (!token_attrs.is_empty())
                .then(|| token_attrs.get(&node).copied())
                .flatten();
            let attrs = doc
                .attrs
                .get(kept.unwrap_or(e.attrs).range())
                .unwrap_or(&[]);
            ActiveFormatting::key_with_seed(
                seed,
                e.name,
                attrs.iter().map(|a| (a.ns.key(), a.name, doc.str(a.value))),
            )
        };
        self.active.push(element, name, key_of);
    }

    /// Creates a clone of `element` for "create an element for the token for which `element`
    /// was created": same name and namespace, sharing its attribute run.
    fn clone_element(&mut self, element: NodeId) -> Option<NodeId> {
        let Some(NodeData::Element(e)) = self.doc.arena.get(element).map(|x| x.get()) else {
            return None;
        };
        let e = *e;
        // (A script may have changed its attributes since: the token's are kept.)
        let kept = (!self.token_attrs.is_empty())
            .then(|| self.token_attrs.get(&element).copied())
            .flatten();
        let attrs = kept.unwrap_or(e.attrs);
        Some(self.doc.create_element(e.name, e.ns, attrs, e.flags))
    }

    /// 13.2.4.3 "Reconstruct the active formatting elements".
    pub(crate) fn reconstruct_active_formatting(&mut self) {
        // "If there are no entries in the list of active formatting elements, then there is
        // nothing to reconstruct. If the last entry is a marker, or an element that is in the
        // stack of open elements, then there is nothing to reconstruct."
        let Some(last) = self.active.last() else {
            return;
        };
        match self.active.item(last) {
            Item::Marker => return,
            Item::Element(node) if self.open.contains(node) => return,
            Item::Element(_) => {}
        }
        // "Rewind": step back while the entry before is neither a marker nor an open element.
        let mut entry = last;
        while let Some(prev) = self.active.prev(entry) {
            match self.active.item(prev) {
                Item::Marker => break,
                Item::Element(node) if self.open.contains(node) => break,
                Item::Element(_) => entry = prev,
            }
        }
        // "Create": insert an HTML element for the entry's token and replace the entry; then
        // "advance" until the last entry is done.
        loop {
            if let Some(old) = self.active.element(entry) {
                if let Some(new) = self.clone_element(old) {
                    // Deep in the stack, the clone gets a stand-in as any inserted element
                    // does (`insert.rs`): without one, a long run of reconstructions builds
                    // a chain that every later put-back walks to the root.
                    let mut deep = false;
                    if let Some(location) = self.adjusted_insertion_location(None) {
                        deep = self.stand_in_if_deep(new, self.open.len());
                        self.insert_element_at(new, location);
                    }
                    let name = self.active.name(entry);
                    self.push_element(new, name, Namespace::Html);
                    if deep {
                        self.open.mark_stand_in(self.open.len() - 1);
                    }
                    self.active.replace(entry, new);
                }
            }
            match self.active.next(entry) {
                Some(next) => entry = next,
                None => break,
            }
        }
    }

    /// The adoption agency algorithm for a tag whose name is `subject`.
    pub(crate) fn adoption_agency(&mut self, tag: &TagToken<'_>) -> Adoption {
        // Options popped before the algorithm see the tree as it was.
        self.flush_popped_options();
        let subject = tag.name;
        // "If the current node is an HTML element whose tag name is subject, and the current
        // node is not in the list of active formatting elements, then pop the current node off
        // the stack of open elements and return."
        if let Some(current) = self.open.current() {
            if current.is_html(subject) && !self.active.contains(current.node) {
                self.open.pop();
                return Adoption::Done;
            }
        }
        // "Let outerLoopCounter be 0. While true: if outerLoopCounter is greater than or equal
        // to 8, then return."
        for _ in 0..8 {
            match self.adoption_outer_iteration(tag, subject) {
                Iteration::Continue => {}
                Iteration::Return => return Adoption::Done,
                Iteration::AnyOtherEndTag => return Adoption::AnyOtherEndTag,
            }
        }
        Adoption::Done
    }

    /// One iteration of the outer loop (steps 4.3 to 4.21).
    fn adoption_outer_iteration(&mut self, tag: &TagToken<'_>, subject: LocalName) -> Iteration {
        // Steps 4.3 to 4.8: find formattingElement and furthestBlock.
        let (fe_entry, formatting_element, fe_pos, fb_pos) =
            match self.adoption_find_formatting_element_and_furthest_block(tag, subject) {
                Ok(found) => found,
                Err(end) => return end,
            };
        let Some(furthest_block) = self.open.get(fb_pos).map(|e| e.node) else {
            return Iteration::Return;
        };
        // "Let commonAncestor be the element immediately above formattingElement in the stack
        // of open elements."
        let Some(common_ancestor) = self
            .open
            .below(fe_pos)
            .and_then(|i| self.open.get(i))
            .map(|e| e.node)
        else {
            return Iteration::Return;
        };
        // "Let a bookmark note the position of formattingElement in the list of active
        // formatting elements relative to the elements on either side of it in the list."
        let mut bookmark = Bookmark::At;
        // Steps 4.11 to 4.13: the inner loop.
        let last_node = self.adoption_inner_loop(formatting_element, furthest_block, &mut bookmark);
        // Steps 4.14 to 4.16: reinsert lastNode at the adjusted insertion location given
        // (commonAncestor, null).
        self.adoption_reinsert_last_node(last_node, common_ancestor);
        // Steps 4.17 to 4.21: wrap furthestBlock's children in a new formatting element.
        self.adoption_wrap_furthest_block(fe_entry, formatting_element, furthest_block, bookmark);
        Iteration::Continue
    }

    /// Steps 4.3 to 4.8: returns formattingElement's list entry, the element, its stack
    /// position and furthestBlock's stack position, or how the algorithm ends.
    fn adoption_find_formatting_element_and_furthest_block(
        &mut self,
        tag: &TagToken<'_>,
        subject: LocalName,
    ) -> Result<(EntryRef, NodeId, usize, usize), Iteration> {
        // "Let formattingElement be the last element in the list of active formatting elements
        // that is between the end of the list and the last marker in the list, if any, or the
        // start of the list otherwise, and has the tag name subject. If there is no such
        // element, then act as described in the 'any other end tag' entry above and return."
        let Some(fe_entry) = self.active.last_after_marker(subject) else {
            return Err(Iteration::AnyOtherEndTag);
        };
        let Some(formatting_element) = self.active.element(fe_entry) else {
            return Err(Iteration::AnyOtherEndTag);
        };
        // "If formattingElement is not in the stack of open elements, then this is a parse
        // error; remove the element from the list, and return."
        let Some(fe_pos) = self.open.position(formatting_element) else {
            self.tag_error(ErrorCode::MisnestedFormattingElement, tag, true);
            self.active.remove(fe_entry);
            return Err(Iteration::Return);
        };
        // "If formattingElement is in the stack of open elements, but the element is not in
        // scope, then this is a parse error; return."
        if !self.open.position_in_scope(fe_pos, Scope::Default) {
            self.tag_error(ErrorCode::MisnestedFormattingElement, tag, true);
            return Err(Iteration::Return);
        }
        // "If formattingElement is not the current node, this is a parse error. (But do not
        // return.)"
        if fe_pos + 1 != self.open.len() {
            self.tag_error(ErrorCode::MisnestedFormattingElement, tag, true);
        }
        // "Let furthestBlock be the topmost node in the stack of open elements that is lower in
        // the stack than formattingElement, and is an element in the special category."
        let Some(fb_pos) = self.open.first_of_kind_after(Kind::Special, fe_pos) else {
            // "If there is no furthestBlock, then the UA must first pop all the nodes from the
            // bottom of the stack of open elements, from the current node up to and including
            // formattingElement, then remove formattingElement from the list of active
            // formatting elements, and finally return."
            self.open.truncate(fe_pos);
            self.active.remove(fe_entry);
            return Err(Iteration::Return);
        };
        Ok((fe_entry, formatting_element, fe_pos, fb_pos))
    }

    /// Steps 4.11 to 4.13, the inner loop; returns lastNode.
    fn adoption_inner_loop(
        &mut self,
        formatting_element: NodeId,
        furthest_block: NodeId,
        bookmark: &mut Bookmark,
    ) -> NodeId {
        // "Let node and lastNode be furthestBlock."
        let mut last_node = furthest_block;
        // The position of node in the stack. The nodes the loop removes from the stack are
        // removed together when it ends (one renumbering of the stack instead of one per
        // node); until then positions do not shift, so the element "immediately above node
        // ... before node was removed" is always one position up.
        let mut node_pos = self.open.position(furthest_block).unwrap_or(0);
        let mut removed: Vec<usize> = Vec::new();
        let mut inner_loop_counter = 0u32;
        loop {
            inner_loop_counter += 1;
            // "Let node be the element immediately above node in the stack of open elements, or
            // if node is no longer in the stack of open elements (e.g. because it got removed
            // by this algorithm), the element that was immediately above node in the stack of
            // open elements before node was removed."
            let Some(above) = self.open.below(node_pos) else {
                break;
            };
            node_pos = above;
            let Some(node) = self.open.get(node_pos).map(|e| e.node) else {
                break;
            };
            // "If node is formattingElement, then break."
            if node == formatting_element {
                break;
            }
            let mut entry = self.active.find(node);
            // "If innerLoopCounter is greater than 3 and node is in the list of active
            // formatting elements, then remove node from the list of active formatting
            // elements."
            if inner_loop_counter > 3 {
                if let Some(e) = entry.take() {
                    self.active.remove(e);
                }
            }
            // "If node is not in the list of active formatting elements, then remove node from
            // the stack of open elements and continue."
            let Some(entry) = entry else {
                removed.push(node_pos);
                // An option removed here is popped off the stack of open elements: "maybe
                // clone an option into selectedcontent" sees its children as they are now,
                // before this algorithm moves any (our reading: removing is popping).
                if self.open.track_popped_options {
                    self.doc.maybe_clone_option(node);
                }
                continue;
            };
            // "Create an element for the token for which the element node was created, in the
            // HTML namespace, with commonAncestor as the intended parent; replace the entry for
            // node in the list of active formatting elements with an entry for the new element,
            // replace the entry for node in the stack of open elements with an entry for the new
            // element, and let node be the new element."
            let Some(new) = self.clone_element(node) else {
                break;
            };
            self.active.replace(entry, new);
            let stand_in = self.stand_in_if_deep(new, node_pos);
            self.open.replace_node(node_pos, new);
            if stand_in {
                self.open.mark_stand_in(node_pos);
            }
            // "If lastNode is furthestBlock, then move the aforementioned bookmark to be
            // immediately after the new node in the list of active formatting elements."
            if last_node == furthest_block {
                *bookmark = Bookmark::After(entry);
            }
            // "Append lastNode to node."
            self.doc.append_node_checked(new, last_node);
            // "Set lastNode to node."
            last_node = new;
        }
        removed.reverse();
        let tracked = self.open.track_popped_options;
        self.open.remove_positions(&removed);
        if tracked {
            // Already cloned above.
            let _ = self.open.take_popped_options();
        }
        last_node
    }

    /// Steps 4.14 to 4.16: put lastNode at the adjusted insertion location given
    /// (commonAncestor, null), if the DOM allows it there.
    fn adoption_reinsert_last_node(&mut self, last_node: NodeId, common_ancestor: NodeId) {
        // "Let (target, refNode) be the adjusted insertion location given (commonAncestor,
        // null)."
        let location = self.adjusted_insertion_location(Some(common_ancestor));
        // "If lastNode's parent is non-null, then remove lastNode."
        self.doc.detach_node(last_node);
        let Some(Location {
            parent: target,
            before,
        }) = location
        else {
            return;
        };
        // "If all of the following are true: lastNode's parent is null; lastNode is not a
        // host-including inclusive ancestor of target; target is not a Document node, or it
        // does not have an element child; and refNode is null or its parent is target, then
        // insert lastNode into target before refNode." The checked insertion refuses an
        // ancestor.
        if matches!(
            self.doc.arena.get(target).map(|x| x.get()),
            Some(NodeData::Document)
        ) && self.doc.has_element_child(target)
        {
            return;
        }
        match before {
            Some(r) if self.doc.parent_node(r) == Some(target) => {
                self.doc.insert_node_before_checked(r, last_node);
            }
            Some(_) => {}
            None => {
                self.doc.append_node_checked(target, last_node);
            }
        }
    }

    /// Steps 4.17 to 4.21.
    fn adoption_wrap_furthest_block(
        &mut self,
        fe_entry: EntryRef,
        formatting_element: NodeId,
        furthest_block: NodeId,
        bookmark: Bookmark,
    ) {
        // "Create an element for the token for which formattingElement was created, in the HTML
        // namespace, with furthestBlock as the intended parent."
        let Some(new) = self.clone_element(formatting_element) else {
            return;
        };
        // "Take all of the child nodes of furthestBlock and append them to the element created
        // in the last step. Append that new element to furthestBlock."
        self.doc.move_children(furthest_block, new);
        let position = self.open.position(furthest_block).unwrap_or(0);
        let stand_in = self.stand_in_if_deep(new, position);
        self.doc.append_node_checked(furthest_block, new);
        // "Remove formattingElement from the list of active formatting elements, and insert the
        // new element into the list of active formatting elements at the position of the
        // aforementioned bookmark."
        match bookmark {
            Bookmark::At => self.active.replace(fe_entry, new),
            Bookmark::After(e) => {
                self.active.insert_after(e, new, fe_entry);
                self.active.remove(fe_entry);
            }
        }
        // "Remove formattingElement from the stack of open elements, and insert the new element
        // into the stack of open elements immediately below the position of furthestBlock in
        // that stack."
        let Some((name, ns)) = self.doc.element_data(new).map(|e| (e.name, e.ns)) else {
            self.doc.put_back(new);
            return;
        };
        let flags = super::tag_sets::element_flags(name, ns, false);
        match (
            self.open.position(formatting_element),
            self.open.position(furthest_block),
        ) {
            (Some(fe), Some(fb)) if fe < fb => {
                self.open.replace_and_move(fe, fb, new, name, ns, flags)
            }
            (fe, _) => {
                if let Some(p) = fe {
                    self.open.remove_at(p);
                }
                if let Some(fb) = self.open.position(furthest_block) {
                    self.open.insert_at(fb + 1, new, name, ns, flags);
                }
            }
        }
        if stand_in {
            match self.open.position(new) {
                Some(p) => self.open.mark_stand_in(p),
                None => self.doc.put_back(new),
            }
        }
    }
}

/// The adoption agency algorithm's bookmark in the list of active formatting elements.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Bookmark {
    /// Where formattingElement's entry is.
    At,
    /// Immediately after this entry.
    After(EntryRef),
}

/// How one outer loop iteration ended.
enum Iteration {
    Continue,
    Return,
    AnyOtherEndTag,
}
