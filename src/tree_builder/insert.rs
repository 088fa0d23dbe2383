//! 13.2.6.1 "Creating and inserting nodes": the appropriate place for inserting a node (with
//! foster parenting), creating an element for a token, and inserting elements, characters,
//! comments and processing instructions.

use indextree::NodeId;

use crate::dom::names::{AttrNamespace, LocalName, Namespace, local_name as n};
use crate::dom::{Attr, AttrRange, FLAG_HTML_INTEGRATION_POINT, NodeData, PackedStr};
use crate::error::ErrorCode;

use super::foreign;
use super::tag_sets::{self, FOSTER_TARGET};
use super::{TagToken, Text, TreeBuilder};

/// Every element pushed at a position of the stack of open elements that is a multiple of this
/// (the `html` element is at 0) is kept out of the tree while it is open, with a stand-in in
/// its place (see `dom/build.rs`): moving a subtree into an open element then walks about
/// this many ancestors at most before it meets a parentless one, however deep the document.
/// Real pages rarely nest this deep, and deep ones pay for one stand-in per this many levels.
pub(crate) const STAND_IN_SPACING: usize = 64;

/// An element whose attributes the parser extends (the `html` and `body` elements): the names
/// it has, and where the spare room behind its attribute run ends.
pub(crate) struct MergedAttrs {
    node: NodeId,
    names: std::collections::HashSet<LocalName>,
    room_end: u32,
}

/// An insertion location: a target parent and a reference child (insert before it; `None`:
/// append).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Location {
    pub(crate) parent: NodeId,
    pub(crate) before: Option<NodeId>,
}

impl Location {
    #[inline]
    pub(crate) fn append_to(parent: NodeId) -> Location {
        Location {
            parent,
            before: None,
        }
    }
}

impl TreeBuilder {
    /// The name, namespace and flags of element `node` (`None` for other nodes).
    #[inline]
    fn element_info(&self, node: NodeId) -> Option<(LocalName, Namespace)> {
        match self.doc.arena.get(node)?.get() {
            NodeData::Element(e) => Some((e.name, e.ns)),
            _ => None,
        }
    }

    /// "The appropriate place for inserting a node", given an optional override target.
    #[inline]
    pub(crate) fn appropriate_place(&self, override_target: Option<NodeId>) -> Option<Location> {
        // The common case, inlined into the callers (a location returned through memory
        // stalls them): the current node, no foster parenting, not a template.
        if override_target.is_none() && !self.foster_parenting {
            let e = self.open.current()?;
            if !e.is_html(n::TEMPLATE) {
                return Some(Location::append_to(e.node));
            }
        }
        self.appropriate_place_in_general(override_target)
    }

    /// [`TreeBuilder::appropriate_place`] in all its steps.
    #[inline(never)]
    fn appropriate_place_in_general(&self, override_target: Option<NodeId>) -> Option<Location> {
        // "Let targetParent be overrideTarget if it is not null; otherwise the current node."
        let (target, info) = match override_target {
            Some(t) => (t, self.element_info(t)),
            None => {
                let e = self.open.current()?;
                (e.node, Some((e.name, e.ns)))
            }
        };
        let mut location = Location::append_to(target);
        // "If foster parenting is enabled and targetParent is a table, tbody, tfoot, thead, or
        // tr element"
        if let Some((name, Namespace::Html)) = info {
            if self.foster_parenting && tag_sets::html_flags(name) & FOSTER_TARGET != 0 {
                location = self.foster_parent_location();
            }
        }
        // "If targetParent is not a template element, then return (targetParent,
        // referenceChild)." A template's insertion target is always null here (no
        // declarative content patching), so the rest is "return (targetParent's template
        // contents, null)".
        if let Some(contents) = self.template_contents_if_template(location.parent) {
            return Some(Location::append_to(contents));
        }
        Some(location)
    }

    /// The foster parenting steps of "the appropriate place for inserting a node".
    fn foster_parent_location(&self) -> Location {
        // "Let lastTemplateOrTable be the last template or table element in the stack of open
        // elements, if there is one."
        let last_template = self.open.last_html(n::TEMPLATE);
        let last_table = self.open.last_html(n::TABLE);
        let html = self.open.get(0).map(|e| e.node);
        let Some(p) = last_template.max(last_table) else {
            // "If lastTemplateOrTable is null, then return (the html element, null)."
            return Location::append_to(html.unwrap_or(self.doc.root));
        };
        let Some(entry) = self.open.get(p) else {
            return Location::append_to(self.doc.root);
        };
        if Some(p) == last_template {
            return Location::append_to(entry.node);
        }
        // "Otherwise, if lastTemplateOrTable's parent is not null, then set targetParent to
        // lastTemplateOrTable's parent and set referenceChild to lastTemplateOrTable."
        if let Some(parent) = self.doc.parent_node(entry.node) {
            return Location {
                parent,
                before: Some(entry.node),
            };
        }
        // "Otherwise, set targetParent to the element immediately above lastTemplateOrTable in
        // the stack of open elements."
        let above = self
            .open
            .below(p)
            .and_then(|i| self.open.get(i))
            .map(|e| e.node);
        Location::append_to(above.unwrap_or(self.doc.root))
    }

    #[inline]
    fn template_contents_if_template(&self, node: NodeId) -> Option<NodeId> {
        match self.element_info(node) {
            Some((n::TEMPLATE, Namespace::Html)) => self.doc.template_contents_of(node),
            _ => None,
        }
    }

    /// The adjusted insertion location for a new element, comment or processing instruction,
    /// with `ParseOptions::max_depth` applied as Blink applies its cap of 512: when the stack
    /// of open elements holds more elements than the cap (and foster parenting does not
    /// apply), the node goes to the current node's parent instead. Text is not capped (Blink
    /// inserts it into the current node, however deep).
    #[inline]
    pub(crate) fn capped_insertion_location(&self) -> Option<Location> {
        let location = self.adjusted_insertion_location(None)?;
        let Some(max) = self.max_depth else {
            return Some(location);
        };
        let current = self.open.current()?;
        let fostered = self.foster_parenting
            && current.ns == Namespace::Html
            && tag_sets::html_flags(current.name) & FOSTER_TARGET != 0;
        if self.open.depth() <= max || fostered {
            return Some(location);
        }
        // Blink: "task.parent = task.parent->parentNode()" when there is one. A template's
        // contents are a fragment, so nodes nested too deep inside a template stay in it.
        match self.doc.parent_node(current.node) {
            Some(parent) => Some(Location::append_to(parent)),
            None => Some(location),
        }
    }

    /// "The adjusted insertion location", given an optional insertion location whose target
    /// parent overrides the current node.
    #[inline]
    pub(crate) fn adjusted_insertion_location(
        &self,
        override_target: Option<NodeId>,
    ) -> Option<Location> {
        let location = self.appropriate_place(override_target)?;
        // "If adjustedInsertionLocation's target parent is the first element in the stack of
        // open elements and the parser's root insertion target is non-null, then set
        // adjustedInsertionLocation to (the parser's root insertion target, null)."
        if let Some(root) = self.root_insertion_target {
            if self.open.get(0).is_some_and(|e| e.node == location.parent) {
                return Some(Location::append_to(root));
            }
        }
        Some(location)
    }

    /// "Create an element for a token" in `ns`. Foreign elements get their attributes adjusted
    /// here (the "adjust MathML/SVG/foreign attributes" steps that always precede creating
    /// them).
    pub(crate) fn create_element_for_token(&mut self, tag: &TagToken<'_>, ns: Namespace) -> NodeId {
        self.create_element_for_token_in(tag, ns, None)
    }

    /// "Create an element for a token", appended to `parent` right away when given (the
    /// caller has checked that appending there is what "insert an element at the adjusted
    /// insertion location" would do).
    pub(crate) fn create_element_for_token_in(
        &mut self,
        tag: &TagToken<'_>,
        ns: Namespace,
        parent: Option<NodeId>,
    ) -> NodeId {
        let mark = self.doc.attrs_mark();
        let mut flags = 0;
        let mut xmlns_error = false;
        let t = tag.tag;
        let raw = t.map_or(&[][..], |t| t.raw_attrs());
        if let (Some(t), false) = (t, raw.is_empty()) {
            self.doc.reserve_attrs(raw.len(), || {
                raw.iter()
                    .filter(|a| a.name_id().is_none())
                    .map(|a| t.raw_name(a))
            });
            for a in raw {
                // (A name's text is looked at only when it has no static id.)
                let name = match a.name_id() {
                    Some(id) => id,
                    None => self.doc.intern(t.raw_name(a)),
                };
                let (value, source, tail) = t.raw_value_with_tail(a);
                if ns == Namespace::Html {
                    // No attribute adjustments, integration point or xmlns checks in HTML.
                    self.doc
                        .push_attr_window(name, AttrNamespace::None, value, tail, source);
                    continue;
                }
                let (attr_ns, local) = foreign::adjust_attribute(name, ns);
                if ns == Namespace::MathMl
                    && tag.name == n::ANNOTATION_XML
                    && local == n::ENCODING
                    && attr_ns == AttrNamespace::None
                    && (value.eq_ignore_ascii_case("text/html")
                        || value.eq_ignore_ascii_case("application/xhtml+xml"))
                {
                    flags |= FLAG_HTML_INTEGRATION_POINT;
                }
                if attr_ns == AttrNamespace::Xmlns {
                    // "If element has an xmlns attribute in the XMLNS namespace whose value is
                    // not exactly the same as the element's namespace, that is a parse error.
                    // Similarly, if element has an xmlns:xlink attribute in the XMLNS namespace
                    // whose value is not the XLink Namespace, that is a parse error."
                    let expected = if local == n::XMLNS {
                        ns.url()
                    } else {
                        "http://www.w3.org/1999/xlink"
                    };
                    xmlns_error |= value != expected;
                }
                self.doc
                    .push_attr_window(local, attr_ns, value, tail, source);
            }
        }
        if xmlns_error {
            self.tag_error(ErrorCode::InvalidXmlnsAttribute, tag, false);
        }
        let attrs = self.doc.attrs_since(mark);
        // Form-associated elements would be associated with the form element pointer's form
        // here (step 15); this DOM keeps no form owners.
        let element = self
            .doc
            .create_element_in(parent, tag.name, ns, attrs, flags);
        if let (Some(p), Some(t)) = (self.doc.positions.as_mut(), tag.tag) {
            p.set(element, t.span());
        }
        element
    }

    /// "Insert an element at the adjusted insertion location" with `element`, given the
    /// location the caller computed.
    pub(crate) fn insert_element_at(&mut self, element: NodeId, location: Location) {
        // "If any of the following are true: element's parent is non-null; element is a
        // host-including inclusive ancestor of targetParent; or targetParent is a Document node
        // that already has an element child, then return." The ancestor check is part of the
        // checked insertion.
        if self.doc.parent_node(element).is_some() {
            return;
        }
        if matches!(
            self.doc.arena.get(location.parent).map(|x| x.get()),
            Some(NodeData::Document)
        ) && self.doc.has_element_child(location.parent)
        {
            return;
        }
        match location.before {
            Some(before) => self.doc.insert_node_before_checked(before, element),
            None => self.doc.append_node_checked(location.parent, element),
        };
    }

    /// Pushes `element` (named `name` in `ns`) onto the stack of open elements.
    pub(crate) fn push_element(&mut self, element: NodeId, name: LocalName, ns: Namespace) {
        // (Only a MathML element's flag matters: HTML elements need no look at the node.)
        let ip = ns == Namespace::MathMl
            && self
                .doc
                .element_data(element)
                .is_some_and(|e| e.flags & FLAG_HTML_INTEGRATION_POINT != 0);
        let flags = tag_sets::element_flags(name, ns, ip);
        let key = if ns == Namespace::Html {
            name
        } else {
            foreign::lowercase_name(name)
        };
        self.open.push(element, key, ns, flags);
    }

    /// "Insert a foreign element" for `tag` in `ns`; with `only_add_to_element_stack`, the
    /// element is pushed but not inserted.
    pub(crate) fn insert_foreign_element(
        &mut self,
        tag: &TagToken<'_>,
        ns: Namespace,
        only_add_to_element_stack: bool,
    ) -> NodeId {
        // Options popped before this element is inserted see the selectedness as it was.
        self.flush_popped_options();
        let (element, deep) = match self.plain_insertion_parent(only_add_to_element_stack) {
            // The common case: "the adjusted insertion location" is inside the current node,
            // after its last child, and the element is not deep enough for a stand-in.
            Some(parent) => (
                self.create_element_for_token_in(tag, ns, Some(parent)),
                false,
            ),
            None => self.create_and_insert_element(tag, ns, only_add_to_element_stack),
        };
        // (The option and selectedcontent insertion steps ran in the DOM edit.)
        if ns == Namespace::Html && tag.name == n::SELECTEDCONTENT {
            self.note_select_element(element);
        }
        self.push_element(element, tag.name, ns);
        if deep {
            self.open.mark_stand_in(self.open.len() - 1);
        }
        element
    }

    /// The current node, when a new element goes last in it: it is not a `template` (whose
    /// contents take the element), foster parenting is off, there is no fragment's root
    /// insertion target and no depth cap, and the new element gets no stand-in. (The current
    /// node is an element, never the Document.)
    #[inline]
    fn plain_insertion_parent(&self, only_add_to_element_stack: bool) -> Option<NodeId> {
        if only_add_to_element_stack
            || self.foster_parenting
            || self.root_insertion_target.is_some()
            || self.max_depth.is_some()
            || self.is_stand_in_position(self.open.len())
        {
            return None;
        }
        let current = self.open.current()?;
        (!current.is_html(n::TEMPLATE)).then_some(current.node)
    }

    /// The element of [`TreeBuilder::insert_foreign_element`] in the general case: created and
    /// inserted at the adjusted insertion location (if any), with a stand-in when it is deep in
    /// the stack (returned `true`).
    #[inline(never)]
    fn create_and_insert_element(
        &mut self,
        tag: &TagToken<'_>,
        ns: Namespace,
        only_add_to_element_stack: bool,
    ) -> (NodeId, bool) {
        let location = if only_add_to_element_stack {
            None
        } else {
            self.capped_insertion_location()
        };
        // An element this deep in the stack is kept out of the tree while it is open, with a
        // stand-in in its place (see `dom/build.rs`).
        let deep = location.is_some() && self.is_stand_in_position(self.open.len());
        let element = match location {
            Some(location) if deep => {
                let element = self.create_element_for_token(tag, ns);
                self.doc.give_stand_in(element);
                self.insert_element_at(element, location);
                element
            }
            // The new element goes last in its parent (a Document parent takes no second
            // element; "insert an element at the adjusted insertion location").
            Some(location)
                if location.before.is_none()
                    && !(matches!(
                        self.doc.arena.get(location.parent).map(|x| x.get()),
                        Some(NodeData::Document)
                    ) && self.doc.has_element_child(location.parent)) =>
            {
                self.create_element_for_token_in(tag, ns, Some(location.parent))
            }
            Some(location) => {
                let element = self.create_element_for_token(tag, ns);
                self.insert_element_at(element, location);
                element
            }
            None => self.create_element_for_token(tag, ns),
        };
        (element, deep)
    }

    /// Whether an element pushed at `position` gets a stand-in: every
    /// [`STAND_IN_SPACING`]th position.
    #[inline]
    fn is_stand_in_position(&self, position: usize) -> bool {
        // (Shallow positions, the usual case, skip the division.)
        position >= self.stand_in_spacing && position.is_multiple_of(self.stand_in_spacing)
    }

    /// Gives `element`, a new element without a parent that goes on the stack at `position`,
    /// a stand-in if that is a stand-in position (the adoption agency algorithm's clones); the
    /// caller marks the stack entry once the element is on the stack.
    pub(crate) fn stand_in_if_deep(&mut self, element: NodeId, position: usize) -> bool {
        if !self.is_stand_in_position(position) {
            return false;
        }
        self.doc.give_stand_in(element);
        true
    }

    /// Puts the elements with stand-ins that have left the stack back in the tree.
    #[inline]
    pub(crate) fn put_back_left_elements(&mut self) {
        if self.open.has_left() {
            self.put_back_left_elements_now();
        }
    }

    /// [`TreeBuilder::put_back_left_elements`] once there are some.
    #[inline(never)]
    fn put_back_left_elements_now(&mut self) {
        for element in self.open.take_left() {
            self.doc.put_back(element);
        }
    }

    /// "Insert an HTML element" for `tag`.
    #[inline]
    pub(crate) fn insert_html_element(&mut self, tag: &TagToken<'_>) -> NodeId {
        self.insert_foreign_element(tag, Namespace::Html, false)
    }

    /// "Insert an HTML element for a `name` start tag token with no attributes."
    #[inline]
    pub(crate) fn insert_html_element_named(&mut self, name: LocalName, offset: usize) -> NodeId {
        self.insert_html_element(&TagToken::synthetic(name, offset))
    }

    /// "Insert a character" for a run of characters.
    pub(crate) fn insert_characters(&mut self, text: &Text<'_>) {
        if text.text.is_empty() {
            return;
        }
        // The common case: the current node (an element, not a template), no foster
        // parenting, no fragment's root insertion target, no source positions.
        if !self.foster_parenting
            && self.root_insertion_target.is_none()
            && self.doc.positions.is_none()
        {
            if let Some(current) = self.open.current() {
                if !current.is_html(n::TEMPLATE) {
                    let parent = current.node;
                    self.doc
                        .append_text(parent, text.text, text.source_offset());
                    return;
                }
            }
        }
        let Some(location) = self.adjusted_insertion_location(None) else {
            return;
        };
        self.insert_text_at(location, text.text, text.source_offset(), text.offset);
    }

    /// Inserts text at `location`, merging with a text node right before the insertion point.
    /// `source` is where the text sits verbatim in the source, if it does; `offset` where its
    /// first character came from.
    pub(crate) fn insert_text_at(
        &mut self,
        location: Location,
        text: &str,
        source: Option<usize>,
        offset: usize,
    ) {
        // "If targetParent is a Document node, then return."
        if matches!(
            self.doc.arena.get(location.parent).map(|x| x.get()),
            Some(NodeData::Document)
        ) {
            return;
        }
        let node = match location.before {
            Some(before) if self.doc.parent_node(before) == Some(location.parent) => {
                self.doc.insert_text_before(before, text, source);
                self.doc.previous_sibling_node(before)
            }
            Some(_) => None,
            None => {
                self.doc.append_text(location.parent, text, source);
                if self.doc.positions.is_none() {
                    return;
                }
                self.doc
                    .arena
                    .get(location.parent)
                    .and_then(|p| p.last_child())
            }
        };
        if let (Some(p), Some(node)) = (self.doc.positions.as_mut(), node) {
            // The characters inserted, not the whole token: a mode may have dropped (or sent
            // elsewhere) part of it.
            let token = self.current_span;
            let span = match source {
                Some(start) => crate::tokenizer::Span::new(start, start + text.len()),
                None => {
                    crate::tokenizer::Span::new(offset.max(token.start).min(token.end), token.end)
                }
            };
            p.extend(node, span);
        }
    }

    /// "Insert a comment", at `override_target` (a node given as the insertion location's
    /// parent) or at the adjusted insertion location.
    pub(crate) fn insert_comment(
        &mut self,
        data: &str,
        source: Option<usize>,
        override_target: Option<NodeId>,
    ) {
        self.insert_leaf(override_target, |doc| doc.create_comment(data, source));
    }

    /// "Insert a processing instruction", like [`TreeBuilder::insert_comment`].
    pub(crate) fn insert_processing_instruction(
        &mut self,
        target: &str,
        data: &str,
        override_target: Option<NodeId>,
    ) {
        self.insert_leaf(override_target, |doc| {
            doc.create_processing_instruction(target, data)
        });
    }

    /// Inserts the node `create` makes (a comment or processing instruction, spanning the
    /// current token) at `override_target` or the adjusted insertion location; the node is
    /// only made when there is a location.
    fn insert_leaf(
        &mut self,
        override_target: Option<NodeId>,
        create: impl FnOnce(&mut crate::dom::Document) -> NodeId,
    ) {
        let location = match override_target {
            Some(_) => self.adjusted_insertion_location(override_target),
            None => self.capped_insertion_location(),
        };
        let Some(location) = location else {
            return;
        };
        let node = create(&mut self.doc);
        if let Some(p) = self.doc.positions.as_mut() {
            p.set(node, self.current_span);
        }
        self.insert_node(node, location);
    }

    /// Adds the attributes of `tag` that `element` does not have yet (the "in body" `html` and
    /// `body` start tags).
    ///
    /// Attribute runs are never modified in place, so the element gets a run at the end of the
    /// document's list, with spare room behind it: adding attributes again fills the room, and
    /// a run that is full moves with twice the room. A name set per element answers "is the
    /// attribute already present". So a page with thousands of `<body>` tags costs linear time.
    pub(crate) fn merge_attributes(&mut self, element: NodeId, tag: &TagToken<'_>) {
        let Some(data) = self.doc.element_data(element).copied() else {
            return;
        };
        let k = match self.merged_attrs.iter().position(|m| m.node == element) {
            Some(k) => k,
            None => {
                let names = self
                    .doc
                    .attrs_of(&data)
                    .iter()
                    .filter(|a| a.ns == AttrNamespace::None)
                    .map(|a| a.name)
                    .collect();
                self.merged_attrs.push(MergedAttrs {
                    node: element,
                    names,
                    room_end: 0,
                });
                self.merged_attrs.len() - 1
            }
        };
        let mut new = Vec::new();
        for a in tag.attrs() {
            let name = match a.name_id {
                Some(id) => id,
                None => self.doc.intern(a.name),
            };
            if self.merged_attrs[k].names.insert(name) {
                new.push((name, a.value, a.source_offset));
            }
        }
        if new.is_empty() {
            return;
        }
        let range = data.attrs;
        let needed = range.len as usize + new.len();
        let mut start = range.start as usize;
        if start + needed > self.merged_attrs[k].room_end as usize {
            // Move the run to the end of the list, with room to grow.
            let room = needed.saturating_mul(2);
            if self.doc.attrs.len().saturating_add(room) >= u32::MAX as usize {
                return;
            }
            let mark = self.doc.attrs.len();
            self.doc.attrs.extend_from_within(range.range());
            let filler = Attr {
                name: LocalName(0),
                ns: AttrNamespace::None,
                value: PackedStr::EMPTY,
            };
            self.doc.attrs.resize(mark + room, filler);
            start = mark;
            self.merged_attrs[k].room_end = (mark + room) as u32;
        }
        let first = start + range.len as usize;
        for (at, (name, value, source)) in (first..).zip(new) {
            let value = self.doc.strings.push_maybe_source(value, source);
            let value = self.doc.strings.pack(value);
            self.doc.attrs[at] = Attr {
                name,
                ns: AttrNamespace::None,
                value,
            };
        }
        let new_range = AttrRange {
            start: start as u32,
            len: needed as u32,
        };
        if let NodeData::Element(e) = self.doc.data_mut(element) {
            e.attrs = new_range;
        }
    }

    /// The document's attribute list was compacted (a streaming parse frees what it handed
    /// out): the spare room behind the `html` and `body` runs is gone.
    pub(crate) fn forget_attr_room(&mut self) {
        for m in &mut self.merged_attrs {
            m.room_end = 0;
        }
    }

    /// Inserts a new (parentless) node at `location`.
    pub(crate) fn insert_node(&mut self, node: NodeId, location: Location) {
        match location.before {
            Some(before) => self.doc.insert_node_before_checked(before, node),
            None => self.doc.append_node_checked(location.parent, node),
        };
    }
}
