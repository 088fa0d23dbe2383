//! 13.2.4.2 "The stack of open elements", as a type that owns its scope queries.
//!
//! Beside the elements (with their name, namespace and category flags in a parallel array),
//! the stack keeps *positions*: for each element name, the stack positions of the open elements
//! with that name; for each kind of boundary (the scope lists, the special category, the
//! elements "reset the insertion mode appropriately" stops at), the positions of the open
//! elements of that kind. Every position list is sorted, so the last entry is the one nearest
//! the current node, and the scope algorithms of the specification, which walk the stack from
//! the current node, become comparisons of two positions:
//!
//! > the stack has an element named X in scope  ⇔  last position of X ≥ last position of a
//! > scope boundary
//!
//! Pushing and popping cost O(1) (plus one entry per list the element belongs to), so a
//! document nested a million levels deep parses in linear time. Removing or inserting an element
//! in the middle of the stack renumbers the positions of the elements above it, in time
//! proportional to their number: `</form>`, `<a>` and the "after head" entries remove one
//! element; the adoption agency algorithm moves formattingElement's replacement below
//! furthestBlock renumbering only the elements between the two
//! ([`OpenElements::replace_and_move`]), and removes its inner loop's elements together
//! ([`OpenElements::remove_positions`]), renumbering the elements above once per outer loop
//! iteration.

use std::collections::HashMap;

use indextree::NodeId;

use crate::dom::names::{LocalName, Namespace, STATIC_NAME_COUNT, local_name as n};

use super::tag_sets::{
    BUTTON_SCOPE_EXTRA, EOF_ALLOWED, HTML_NS, IMPLIED_END, IMPLIED_END_THOROUGH,
    LIST_ITEM_SCOPE_EXTRA, RESET_MODE, SCOPE, SPECIAL, SPECIAL_NOT_ADDRESS_DIV_P, TABLE_SCOPE,
};

/// One element on the stack.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) node: NodeId,
    /// The local name; for a foreign element, converted to ASCII lowercase (`foreignobject`),
    /// the form the foreign content end tag rules compare.
    pub(crate) name: LocalName,
    pub(crate) ns: Namespace,
    /// The element's [`tag_sets`](super::tag_sets) flags.
    pub(crate) flags: u32,
    /// The position of the nearest HTML element at or below this one (towards the `html`
    /// root): where the "any other end tag" loop of foreign content stops.
    html_floor: u32,
    /// Whether the element has a stand-in in the tree while it is open (see `dom/build.rs`).
    stand_in: bool,
}

impl Entry {
    /// Whether this is an HTML element named `name`.
    #[inline]
    pub(crate) fn is_html(&self, name: LocalName) -> bool {
        self.name == name && self.ns == Namespace::Html
    }

    /// Whether the element has any of `flags`.
    #[inline]
    pub(crate) fn has(&self, flags: u32) -> bool {
        self.flags & flags != 0
    }
}

/// The kinds of elements whose positions are kept in a list of their own.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(usize)]
pub(crate) enum Kind {
    /// The special category.
    Special,
    /// Special, but not `address`, `div`, `p`.
    SpecialNotAddressDivP,
    /// The "in scope" boundaries.
    Scope,
    /// `ol` and `ul` (list item scope, on top of `Scope`).
    ListItemExtra,
    /// `button` (button scope, on top of `Scope`).
    ButtonExtra,
    /// `html`, `table`, `template` (table scope).
    TableScope,
    /// The elements "reset the insertion mode appropriately" stops at.
    ResetMode,
}

const KINDS: [(Kind, u32); 7] = [
    (Kind::Special, SPECIAL),
    (Kind::SpecialNotAddressDivP, SPECIAL_NOT_ADDRESS_DIV_P),
    (Kind::Scope, SCOPE),
    (Kind::ListItemExtra, LIST_ITEM_SCOPE_EXTRA),
    (Kind::ButtonExtra, BUTTON_SCOPE_EXTRA),
    (Kind::TableScope, TABLE_SCOPE),
    (Kind::ResetMode, RESET_MODE),
];
const ANY_KIND: u32 = SPECIAL
    | SPECIAL_NOT_ADDRESS_DIV_P
    | SCOPE
    | LIST_ITEM_SCOPE_EXTRA
    | BUTTON_SCOPE_EXTRA
    | TABLE_SCOPE
    | RESET_MODE;

/// The specific scopes of 13.2.4.2.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Scope {
    /// "has an element in scope"
    Default,
    /// "has an element in list item scope"
    ListItem,
    /// "has an element in button scope"
    Button,
    /// "has an element in table scope"
    Table,
}

/// The key of a name's position list.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
enum NameKey {
    /// An HTML element with a dynamic name.
    Html(LocalName),
    /// A foreign element, by its name converted to ASCII lowercase.
    Foreign(LocalName, Namespace),
}

/// The stack of open elements.
pub(crate) struct OpenElements {
    entries: Vec<Entry>,
    /// Positions of the HTML elements with a static name, indexed by name id.
    html_by_name: Vec<Vec<u32>>,
    /// Positions of the other elements (dynamic HTML names; foreign elements by lowercase name).
    other_by_name: HashMap<NameKey, Vec<u32>>,
    /// Positions of the elements of each [`Kind`].
    kinds: [Vec<u32>; 7],
    /// How many open elements are not in the [`EOF_ALLOWED`] set.
    not_eof_allowed: usize,
    /// Position + 1 of each open node, indexed by arena index (0: not open).
    positions: Vec<u32>,
    /// For [`OpenElements::remove_positions`]: the last call that rewrote each static HTML
    /// name's list.
    html_stamps: Vec<u32>,
    stamp: u32,
    /// Whether to record popped `option` elements (see [`OpenElements::take_popped_options`]).
    pub(crate) track_popped_options: bool,
    /// The `option` elements popped since the last [`OpenElements::take_popped_options`], each
    /// with its nearest ancestor `select` at the time.
    popped_options: Vec<(NodeId, Option<NodeId>)>,
    /// Source positions: the name of the end tag being processed, if any...
    pub(crate) closing: Option<LocalName>,
    /// ...and the first element of that name that left the stack while it was.
    pub(crate) closed: Option<NodeId>,
    /// The elements with stand-ins that left the stack, to be put back in the tree.
    left: Vec<NodeId>,
}

impl Default for OpenElements {
    fn default() -> Self {
        OpenElements::new()
    }
}

#[inline]
fn node_index(node: NodeId) -> usize {
    usize::from(node)
}

#[inline]
fn pos32(i: usize) -> u32 {
    // The stack never holds more than u32::MAX elements: each needs input of its own, and the
    // DOM's attribute and string indices are 32-bit as well.
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl OpenElements {
    pub(crate) fn new() -> OpenElements {
        let mut html_by_name = Vec::with_capacity(STATIC_NAME_COUNT);
        html_by_name.resize_with(STATIC_NAME_COUNT, Vec::new);
        OpenElements {
            entries: Vec::new(),
            html_by_name,
            other_by_name: HashMap::new(),
            kinds: Default::default(),
            not_eof_allowed: 0,
            positions: Vec::new(),
            html_stamps: Vec::new(),
            stamp: 0,
            track_popped_options: false,
            closing: None,
            closed: None,
            popped_options: Vec::new(),
            left: Vec::new(),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Reading.

    /// The number of open elements.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The current node (the bottommost node of the stack).
    #[inline]
    pub(crate) fn current(&self) -> Option<&Entry> {
        self.entries.last()
    }

    /// The element at position `i` (0 is the `html` element).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&Entry> {
        self.entries.get(i)
    }

    /// Whether the current node is an HTML element named `name`.
    #[inline]
    pub(crate) fn current_is(&self, name: LocalName) -> bool {
        self.current().is_some_and(|e| e.is_html(name))
    }

    /// The position of `node` on the stack.
    #[inline]
    pub(crate) fn position(&self, node: NodeId) -> Option<usize> {
        match self.positions.get(node_index(node)) {
            Some(&p) if p > 0 => Some(p as usize - 1),
            _ => None,
        }
    }

    /// Whether `node` is on the stack.
    #[inline]
    pub(crate) fn contains(&self, node: NodeId) -> bool {
        self.position(node).is_some()
    }

    fn name_list(&self, name: LocalName, ns: Namespace) -> Option<&Vec<u32>> {
        match (ns, name.dynamic_index()) {
            (Namespace::Html, None) => self.html_by_name.get(name.0 as usize),
            (Namespace::Html, Some(_)) => self.other_by_name.get(&NameKey::Html(name)),
            (ns, _) => self.other_by_name.get(&NameKey::Foreign(name, ns)),
        }
    }

    /// The position of the HTML element named `name` nearest the current node.
    #[inline]
    pub(crate) fn last_html(&self, name: LocalName) -> Option<usize> {
        self.name_list(name, Namespace::Html)
            .and_then(|v| v.last())
            .map(|&p| p as usize)
    }

    /// Whether an HTML element named `name` is on the stack.
    #[inline]
    pub(crate) fn contains_html(&self, name: LocalName) -> bool {
        self.last_html(name).is_some()
    }

    /// The position of the foreign element (SVG or MathML) whose name, in ASCII lowercase, is
    /// `lowercase_name`, nearest the current node.
    pub(crate) fn last_foreign(&self, lowercase_name: LocalName) -> Option<usize> {
        let svg = self
            .name_list(lowercase_name, Namespace::Svg)
            .and_then(|v| v.last());
        let math = self
            .name_list(lowercase_name, Namespace::MathMl)
            .and_then(|v| v.last());
        svg.max(math).map(|&p| p as usize)
    }

    /// The position of the element of `kind` nearest the current node.
    #[inline]
    pub(crate) fn last_of_kind(&self, kind: Kind) -> Option<usize> {
        self.kinds[kind as usize].last().map(|&p| p as usize)
    }

    /// The position of the first element of `kind` above position `after` (further from the
    /// `html` element).
    pub(crate) fn first_of_kind_after(&self, kind: Kind, after: usize) -> Option<usize> {
        let list = &self.kinds[kind as usize];
        let i = list.partition_point(|&p| p as usize <= after);
        list.get(i).map(|&p| p as usize)
    }

    /// The position of the nearest HTML element at or below position `i`.
    #[inline]
    pub(crate) fn html_floor(&self, i: usize) -> Option<usize> {
        self.entries.get(i).map(|e| e.html_floor as usize)
    }

    /// The position of the last boundary of `scope`.
    #[inline]
    fn scope_boundary(&self, scope: Scope) -> Option<usize> {
        match scope {
            Scope::Default => self.last_of_kind(Kind::Scope),
            Scope::ListItem => self
                .last_of_kind(Kind::Scope)
                .max(self.last_of_kind(Kind::ListItemExtra)),
            Scope::Button => self
                .last_of_kind(Kind::Scope)
                .max(self.last_of_kind(Kind::ButtonExtra)),
            Scope::Table => self.last_of_kind(Kind::TableScope),
        }
    }

    /// Whether the element at position `p` is in `scope`: no boundary of the scope lies between
    /// it and the current node (the element itself may be one).
    #[inline]
    pub(crate) fn position_in_scope(&self, p: usize, scope: Scope) -> bool {
        match self.scope_boundary(scope) {
            Some(b) => p >= b,
            // The `html` element ends every scope; an empty stack has nothing in scope.
            None => p < self.entries.len(),
        }
    }

    /// "The stack of open elements has an HTML element named `name` in `scope`."
    #[inline]
    pub(crate) fn has_in_scope(&self, name: LocalName, scope: Scope) -> bool {
        self.last_html(name)
            .is_some_and(|p| self.position_in_scope(p, scope))
    }

    /// "Has an element in `scope`" for any of `names` (all HTML); returns the position of the
    /// one nearest the current node.
    pub(crate) fn any_in_scope(&self, names: &[LocalName], scope: Scope) -> Option<usize> {
        let p = names.iter().filter_map(|&n| self.last_html(n)).max()?;
        self.position_in_scope(p, scope).then_some(p)
    }

    /// "The stack of open elements has `node` in `scope`."
    #[inline]
    pub(crate) fn has_node_in_scope(&self, node: NodeId, scope: Scope) -> bool {
        self.position(node)
            .is_some_and(|p| self.position_in_scope(p, scope))
    }

    /// Whether an element not in the [`EOF_ALLOWED`] set is open (the "in body" end-of-file
    /// and `</body>` parse error checks).
    #[inline]
    pub(crate) fn has_element_not_allowed_at_eof(&self) -> bool {
        self.not_eof_allowed > 0
    }

    // ---------------------------------------------------------------------------------------
    // Writing.

    fn name_list_mut(&mut self, name: LocalName, ns: Namespace) -> &mut Vec<u32> {
        match (ns, name.dynamic_index()) {
            (Namespace::Html, None) => {
                let i = name.0 as usize;
                if i >= self.html_by_name.len() {
                    self.html_by_name.resize_with(i + 1, Vec::new);
                }
                &mut self.html_by_name[i]
            }
            (Namespace::Html, Some(_)) => {
                self.other_by_name.entry(NameKey::Html(name)).or_default()
            }
            (ns, _) => self
                .other_by_name
                .entry(NameKey::Foreign(name, ns))
                .or_default(),
        }
    }

    fn set_position(&mut self, node: NodeId, pos: Option<usize>) {
        let i = node_index(node);
        if i >= self.positions.len() {
            if pos.is_none() {
                return;
            }
            let new_len = (i + 1).max(self.positions.len() * 2).max(64);
            self.positions.resize(new_len, 0);
        }
        self.positions[i] = pos.map_or(0, |p| pos32(p + 1));
    }

    /// Pushes an element. `name` must be the element's local name converted to ASCII lowercase
    /// for foreign elements (their position lists serve the lowercase comparison of foreign
    /// end tags); `flags` its [`element_flags`](super::tag_sets::element_flags).
    pub(crate) fn push(&mut self, node: NodeId, name: LocalName, ns: Namespace, flags: u32) {
        let pos = self.entries.len();
        let html_floor = if flags & HTML_NS != 0 {
            pos32(pos)
        } else {
            self.entries.last().map_or(0, |e| e.html_floor)
        };
        self.entries.push(Entry {
            node,
            name,
            ns,
            flags,
            html_floor,
            stand_in: false,
        });
        let p = pos32(pos);
        self.name_list_mut(name, ns).push(p);
        if flags & ANY_KIND != 0 {
            for (kind, flag) in KINDS {
                if flags & flag != 0 {
                    self.kinds[kind as usize].push(p);
                }
            }
        }
        if flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed += 1;
        }
        self.set_position(node, Some(pos));
    }

    /// Pops the current node.
    pub(crate) fn pop(&mut self) -> Option<Entry> {
        let e = *self.entries.last()?;
        self.note_leaving(&e, self.entries.len() - 1);
        self.entries.pop();
        self.name_list_mut(e.name, e.ns).pop();
        if e.flags & ANY_KIND != 0 {
            for (kind, flag) in KINDS {
                if e.flags & flag != 0 {
                    self.kinds[kind as usize].pop();
                }
            }
        }
        if e.flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed -= 1;
        }
        self.set_position(e.node, None);
        Some(e)
    }

    /// Pops elements until the stack has `len` elements.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.entries.len() > len {
            self.pop();
        }
    }

    /// Pops all elements.
    pub(crate) fn clear(&mut self) {
        self.truncate(0);
    }

    /// "Pop elements from the stack of open elements until an HTML element named `name` has
    /// been popped from the stack" (nothing happens if there is none).
    pub(crate) fn pop_until_html(&mut self, name: LocalName) {
        if let Some(p) = self.last_html(name) {
            self.truncate(p);
        }
    }

    /// Pops elements until one of the HTML elements `names` has been popped.
    pub(crate) fn pop_until_any_html(&mut self, names: &[LocalName]) {
        if let Some(p) = names.iter().filter_map(|&n| self.last_html(n)).max() {
            self.truncate(p);
        }
    }

    /// Pops the current node while it is an HTML element with any of `flags` and not named
    /// `except`.
    pub(crate) fn pop_while(&mut self, flags: u32, except: Option<LocalName>) {
        while let Some(e) = self.current() {
            if e.ns == Namespace::Html && e.flags & flags != 0 && Some(e.name) != except {
                self.pop();
            } else {
                break;
            }
        }
    }

    /// 13.2.6.3 "Generate implied end tags", except for HTML elements named `except`.
    #[inline]
    pub(crate) fn generate_implied_end_tags(&mut self, except: Option<LocalName>) {
        self.pop_while(IMPLIED_END, except);
    }

    /// 13.2.6.3 "Generate all implied end tags thoroughly".
    #[inline]
    pub(crate) fn generate_all_implied_end_tags_thoroughly(&mut self) {
        self.pop_while(IMPLIED_END_THOROUGH, None);
    }

    /// Pops elements while the current node has none of `flags` (the "clear the stack back to
    /// a table context" family).
    pub(crate) fn pop_until_flags(&mut self, flags: u32) {
        while let Some(e) = self.current() {
            if e.flags & flags != 0 {
                break;
            }
            self.pop();
        }
    }

    /// Replaces the node at position `i` with `node`, an element with the same name and
    /// namespace (the adoption agency algorithm's clones).
    pub(crate) fn replace_node(&mut self, i: usize, node: NodeId) {
        let Some(old) = self.entries.get(i).copied() else {
            return;
        };
        self.note_left(&old);
        self.set_position(old.node, None);
        self.entries[i].node = node;
        self.entries[i].stand_in = false;
        self.set_position(node, Some(i));
    }

    /// Removes the elements at `positions` (ascending, distinct) in one pass: the elements
    /// above the first are renumbered once, however many are removed (the adoption agency
    /// algorithm's inner loop removes elements one after another).
    pub(crate) fn remove_positions(&mut self, positions: &[usize]) {
        let Some(&first) = positions.first() else {
            return;
        };
        if first >= self.entries.len() {
            return;
        }
        let removed: Vec<u32> = positions.iter().map(|&p| pos32(p)).collect();
        // Unregister the removed elements.
        for &i in positions {
            let Some(e) = self.entries.get(i).copied() else {
                continue;
            };
            self.note_leaving(&e, i);
            if e.flags & EOF_ALLOWED == 0 {
                self.not_eof_allowed -= 1;
            }
            self.set_position(e.node, None);
        }
        // Every list holding a position from `first` up is rewritten once: removed positions
        // dropped, the others lowered by the number of removed positions below them.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.html_stamps.fill(0);
            self.stamp = 1;
        }
        let mut other_keys: Vec<(LocalName, Namespace)> = Vec::new();
        for j in first..self.entries.len() {
            let (name, ns) = (self.entries[j].name, self.entries[j].ns);
            match (ns, name.dynamic_index()) {
                // Static HTML names: a stamp per name marks the lists already rewritten.
                (Namespace::Html, None) => {
                    let i = name.0 as usize;
                    if self.html_stamps.len() <= i {
                        self.html_stamps
                            .resize(self.html_by_name.len().max(i + 1), 0);
                    }
                    if self.html_stamps[i] != self.stamp {
                        self.html_stamps[i] = self.stamp;
                        renumber_after_removal(&mut self.html_by_name[i], &removed);
                    }
                }
                _ => other_keys.push((name, ns)),
            }
        }
        other_keys.sort_unstable_by_key(|&(name, ns)| (name, ns as u8));
        other_keys.dedup();
        for (name, ns) in other_keys {
            renumber_after_removal(self.name_list_mut(name, ns), &removed);
        }
        for list in &mut self.kinds {
            renumber_after_removal(list, &removed);
        }
        // Compact the entries.
        let mut next_removed = 0;
        let mut write = first;
        for read in first..self.entries.len() {
            if positions.get(next_removed) == Some(&read) {
                next_removed += 1;
                continue;
            }
            let moved = self.entries[read];
            self.entries[write] = moved;
            self.set_position(moved.node, Some(write));
            write += 1;
        }
        self.entries.truncate(write);
        self.recompute_html_floor(first);
    }

    /// Removes the element at position `from` and inserts a new element right after position
    /// `after` (`from < after`): the adoption agency algorithm's "remove formattingElement from
    /// the stack of open elements, and insert the new element into the stack of open elements
    /// immediately below the position of furthestBlock". Only the elements between the two
    /// positions move, so only they are renumbered.
    pub(crate) fn replace_and_move(
        &mut self,
        from: usize,
        after: usize,
        node: NodeId,
        name: LocalName,
        ns: Namespace,
        flags: u32,
    ) {
        if from >= after || after >= self.entries.len() {
            return;
        }
        let e = self.entries[from];
        self.note_left(&e);
        let p = pos32(from);
        remove_sorted(self.name_list_mut(e.name, e.ns), p);
        for (kind, flag) in KINDS {
            if e.flags & flag != 0 {
                remove_sorted(&mut self.kinds[kind as usize], p);
            }
        }
        if e.flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed -= 1;
        }
        self.set_position(e.node, None);
        for j in from + 1..=after {
            let moved = self.entries[j];
            self.renumber(&moved, pos32(j), pos32(j - 1));
            self.entries[j - 1] = moved;
        }
        self.entries[after] = Entry {
            node,
            name,
            ns,
            flags,
            html_floor: 0,
            stand_in: false,
        };
        let p = pos32(after);
        insert_sorted(self.name_list_mut(name, ns), p);
        for (kind, flag) in KINDS {
            if flags & flag != 0 {
                insert_sorted(&mut self.kinds[kind as usize], p);
            }
        }
        if flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed += 1;
        }
        self.set_position(node, Some(after));
        self.recompute_html_floor_range(from, after);
    }

    /// Removes the element at position `i`, renumbering the positions above it.
    pub(crate) fn remove_at(&mut self, i: usize) {
        if i >= self.entries.len() {
            return;
        }
        if i + 1 == self.entries.len() {
            self.pop();
            return;
        }
        let e = self.entries[i];
        self.note_leaving(&e, i);
        self.entries.remove(i);
        let p = pos32(i);
        remove_sorted(self.name_list_mut(e.name, e.ns), p);
        for (kind, flag) in KINDS {
            if e.flags & flag != 0 {
                remove_sorted(&mut self.kinds[kind as usize], p);
            }
        }
        if e.flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed -= 1;
        }
        self.set_position(e.node, None);
        // Every element above moves down one place; going upwards keeps each list sorted and
        // free of duplicates while it is being renumbered.
        for j in i..self.entries.len() {
            let moved = self.entries[j];
            self.renumber(&moved, pos32(j + 1), pos32(j));
        }
        self.recompute_html_floor(i);
    }

    /// Inserts an element at position `i` (the adoption agency algorithm's "insert the new
    /// element into the stack of open elements immediately below furthestBlock"), renumbering
    /// the positions above it.
    pub(crate) fn insert_at(
        &mut self,
        i: usize,
        node: NodeId,
        name: LocalName,
        ns: Namespace,
        flags: u32,
    ) {
        if i >= self.entries.len() {
            self.push(node, name, ns, flags);
            return;
        }
        // Every element from `i` up moves up one place; going downwards keeps the lists sorted.
        for j in (i..self.entries.len()).rev() {
            let moved = self.entries[j];
            self.renumber(&moved, pos32(j), pos32(j + 1));
        }
        self.entries.insert(
            i,
            Entry {
                node,
                name,
                ns,
                flags,
                html_floor: 0,
                stand_in: false,
            },
        );
        let p = pos32(i);
        insert_sorted(self.name_list_mut(name, ns), p);
        for (kind, flag) in KINDS {
            if flags & flag != 0 {
                insert_sorted(&mut self.kinds[kind as usize], p);
            }
        }
        if flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed += 1;
        }
        self.set_position(node, Some(i));
        self.recompute_html_floor(i);
    }

    /// Records that `e` left the stack if it has a stand-in to give back.
    #[inline]
    fn note_left(&mut self, e: &Entry) {
        if e.stand_in {
            self.left.push(e.node);
        }
    }

    /// Marks the element at position `i` as having a stand-in while it is open.
    pub(crate) fn mark_stand_in(&mut self, i: usize) {
        if let Some(e) = self.entries.get_mut(i) {
            e.stand_in = true;
        }
    }

    /// Whether elements with stand-ins left the stack since the last [`OpenElements::take_left`].
    #[inline]
    pub(crate) fn has_left(&self) -> bool {
        !self.left.is_empty()
    }

    /// The elements with stand-ins that left the stack, in the order they left.
    pub(crate) fn take_left(&mut self) -> Vec<NodeId> {
        std::mem::take(&mut self.left)
    }

    /// Bookkeeping for an element leaving the stack (popped or removed) from position `i`.
    fn note_leaving(&mut self, e: &Entry, i: usize) {
        self.note_left(e);
        if self.closing == Some(e.name) && self.closed.is_none() {
            self.closed = Some(e.node);
        }
        if self.track_popped_options && e.is_html(n::OPTION) {
            let select = self.nearest_select_below(i);
            self.popped_options.push((e.node, select));
        }
    }

    /// The `option` elements popped (or removed) since the last call, oldest first, each with
    /// its nearest ancestor `select` when it was popped.
    pub(crate) fn take_popped_options(&mut self) -> Vec<(NodeId, Option<NodeId>)> {
        std::mem::take(&mut self.popped_options)
    }

    /// The number of open HTML elements named `name` at positions in `range`.
    fn count_html_in(&self, name: LocalName, range: std::ops::Range<usize>) -> usize {
        let Some(list) = self.name_list(name, Namespace::Html) else {
            return 0;
        };
        let lo = list.partition_point(|&p| (p as usize) < range.start);
        let hi = list.partition_point(|&p| (p as usize) < range.end);
        hi.saturating_sub(lo)
    }

    /// "The nearest ancestor select" of an element whose ancestors are the open elements below
    /// position `i`: the nearest `select`, unless a `datalist`, `hr` or `option`, or a second
    /// `optgroup`, comes between.
    pub(crate) fn nearest_select_below(&self, i: usize) -> Option<NodeId> {
        let list = self.name_list(n::SELECT, Namespace::Html)?;
        let k = list.partition_point(|&p| (p as usize) < i);
        let s = *list.get(k.checked_sub(1)?)? as usize;
        let between = s + 1..i;
        if self.count_html_in(n::DATALIST, between.clone()) > 0
            || self.count_html_in(n::HR, between.clone()) > 0
            || self.count_html_in(n::OPTION, between.clone()) > 0
            || self.count_html_in(n::OPTGROUP, between) > 1
        {
            return None;
        }
        self.entries.get(s).map(|e| e.node)
    }

    /// The number of open HTML elements named `name`.
    pub(crate) fn count_html(&self, name: LocalName) -> usize {
        self.name_list(name, Namespace::Html).map_or(0, Vec::len)
    }

    /// Moves `entry`'s recorded position from `from` to `to` in every list it is in.
    fn renumber(&mut self, entry: &Entry, from: u32, to: u32) {
        replace_sorted(self.name_list_mut(entry.name, entry.ns), from, to);
        if entry.flags & ANY_KIND != 0 {
            for (kind, flag) in KINDS {
                if entry.flags & flag != 0 {
                    replace_sorted(&mut self.kinds[kind as usize], from, to);
                }
            }
        }
        self.set_position(entry.node, Some(to as usize));
    }

    fn recompute_html_floor(&mut self, from: usize) {
        self.recompute_html_floor_range(from, self.entries.len().saturating_sub(1));
    }

    /// Recomputes the HTML floors of positions `from..=to`, and of the foreign elements above
    /// `to` that inherit their floor.
    fn recompute_html_floor_range(&mut self, from: usize, to: usize) {
        let mut j = from;
        while j < self.entries.len() {
            if j > to && self.entries[j].flags & HTML_NS != 0 {
                break;
            }
            let floor = if self.entries[j].flags & HTML_NS != 0 {
                pos32(j)
            } else if j == 0 {
                0
            } else {
                self.entries[j - 1].html_floor
            };
            self.entries[j].html_floor = floor;
            j += 1;
        }
    }

    /// Checks the bookkeeping against a recomputation from the entries (tests and debug
    /// assertions).
    #[cfg(test)]
    pub(crate) fn check_invariants(&self) {
        let mut floor = 0;
        for (i, e) in self.entries.iter().enumerate() {
            if e.flags & HTML_NS != 0 {
                floor = i as u32;
            }
            assert_eq!(e.html_floor, floor, "html floor of {i}");
            assert_eq!(self.position(e.node), Some(i));
            let list = self.name_list(e.name, e.ns).expect("name list");
            assert!(list.binary_search(&(i as u32)).is_ok());
            for (kind, flag) in KINDS {
                assert_eq!(
                    self.kinds[kind as usize].binary_search(&(i as u32)).is_ok(),
                    e.flags & flag != 0
                );
            }
        }
        for (kind, _) in KINDS {
            assert!(
                self.kinds[kind as usize]
                    .iter()
                    .all(|&p| (p as usize) < self.entries.len())
            );
        }
    }
}

/// Drops the positions in `removed` (ascending) from `list` (ascending) and lowers the others
/// by the number of removed positions below them, in one pass over the affected suffix.
fn renumber_after_removal(list: &mut Vec<u32>, removed: &[u32]) {
    let Some(&first) = removed.first() else {
        return;
    };
    let start = list.partition_point(|&p| p < first);
    let mut below = 0;
    let mut write = start;
    for read in start..list.len() {
        let p = list[read];
        while below < removed.len() && removed[below] < p {
            below += 1;
        }
        if removed.get(below) == Some(&p) {
            continue;
        }
        list[write] = p - below as u32;
        write += 1;
    }
    list.truncate(write);
}

fn remove_sorted(list: &mut Vec<u32>, value: u32) {
    if let Ok(i) = list.binary_search(&value) {
        list.remove(i);
    }
}

fn insert_sorted(list: &mut Vec<u32>, value: u32) {
    let i = list.partition_point(|&p| p < value);
    list.insert(i, value);
}

fn replace_sorted(list: &mut [u32], from: u32, to: u32) {
    if let Ok(i) = list.binary_search(&from) {
        list[i] = to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree_builder::tag_sets::html_flags;

    fn nodes(k: usize) -> (indextree::Arena<()>, Vec<NodeId>) {
        let mut arena = indextree::Arena::new();
        let ids = (0..k).map(|_| arena.new_node(())).collect();
        (arena, ids)
    }

    #[test]
    fn scope_queries_and_renumbering() {
        let (_arena, ids) = nodes(8);
        let mut s = OpenElements::new();
        let names = [n::HTML, n::BODY, n::DIV, n::TABLE, n::TR, n::TD, n::P, n::B];
        for (i, &name) in names.iter().enumerate() {
            s.push(ids[i], name, Namespace::Html, html_flags(name));
        }
        s.check_invariants();
        assert!(s.has_in_scope(n::P, Scope::Default));
        assert!(s.has_in_scope(n::TD, Scope::Default));
        assert!(!s.has_in_scope(n::DIV, Scope::Default));
        assert!(s.has_in_scope(n::TABLE, Scope::Table));
        assert!(s.has_in_scope(n::TR, Scope::Table));
        assert_eq!(s.first_of_kind_after(Kind::Special, 5), Some(6));
        s.remove_at(2);
        s.check_invariants();
        assert_eq!(s.position(ids[7]), Some(6));
        s.insert_at(3, ids[2], n::DIV, Namespace::Html, html_flags(n::DIV));
        s.check_invariants();
        assert_eq!(s.position(ids[2]), Some(3));
        s.pop_until_html(n::TABLE);
        s.check_invariants();
        assert_eq!(s.len(), 2);
    }

    /// The specification's walk, as an oracle for the position-based answer.
    fn naive_in_scope(s: &OpenElements, name: LocalName, scope: Scope) -> bool {
        for e in s.entries.iter().rev() {
            if e.is_html(name) {
                return true;
            }
            let boundary = match scope {
                Scope::Default => e.has(SCOPE),
                Scope::ListItem => e.has(SCOPE | LIST_ITEM_SCOPE_EXTRA),
                Scope::Button => e.has(SCOPE | BUTTON_SCOPE_EXTRA),
                Scope::Table => e.has(TABLE_SCOPE),
            };
            if boundary {
                return false;
            }
        }
        false
    }

    #[test]
    fn scope_queries_match_the_walk() {
        use crate::tree_builder::tag_sets::element_flags;
        let names = [
            (n::HTML, Namespace::Html),
            (n::DIV, Namespace::Html),
            (n::P, Namespace::Html),
            (n::LI, Namespace::Html),
            (n::UL, Namespace::Html),
            (n::BUTTON, Namespace::Html),
            (n::TABLE, Namespace::Html),
            (n::TD, Namespace::Html),
            (n::TEMPLATE, Namespace::Html),
            (n::B, Namespace::Html),
            (n::SELECT, Namespace::Html),
            (n::OPTION, Namespace::Html),
            (n::MI, Namespace::MathMl),
            (n::TITLE, Namespace::Svg),
            (n::G, Namespace::Svg),
        ];
        let mut arena = indextree::Arena::new();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rand = move |k: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % k as u64) as usize
        };
        let mut s = OpenElements::new();
        s.push(
            arena.new_node(()),
            n::HTML,
            Namespace::Html,
            html_flags(n::HTML),
        );
        for _ in 0..4000 {
            let (name, ns) = names[1 + rand(names.len() - 1)];
            let flags = element_flags(name, ns, false);
            match rand(10) {
                0..=4 => s.push(arena.new_node(()), name, ns, flags),
                5 | 6 if s.len() > 1 => {
                    s.pop();
                }
                7 if s.len() > 1 => s.remove_at(1 + rand(s.len() - 1)),
                8 if s.len() > 1 => {
                    s.insert_at(1 + rand(s.len() - 1), arena.new_node(()), name, ns, flags)
                }
                _ => {}
            }
            s.check_invariants();
            for &(name, ns) in &names {
                if ns != Namespace::Html {
                    continue;
                }
                for scope in [Scope::Default, Scope::ListItem, Scope::Button, Scope::Table] {
                    assert_eq!(s.has_in_scope(name, scope), naive_in_scope(&s, name, scope));
                }
            }
            let special = s.entries.iter().rposition(|e| e.has(SPECIAL));
            assert_eq!(s.last_of_kind(Kind::Special), special);
            let html_floor = s.entries.iter().rposition(|e| e.has(HTML_NS));
            assert_eq!(s.html_floor(s.len() - 1), html_floor);
        }
    }
}
