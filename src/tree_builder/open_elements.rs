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
//! document nested a million levels deep parses in linear time.
//!
//! Removing an element from the middle of the stack (`</form>`, `<a>`, "after head", and the
//! adoption agency algorithm's inner loop) renumbers nothing: the entry stays as a dead
//! *tombstone*, so every other position stays valid. [`OpenElements::below`] skips tombstones
//! ("the element immediately above"); a name's position list marks the removed position dead
//! in place (and drops dead positions once they reach its end, so the last position of every
//! list is a live element); the kind lists, which only hold special elements (rarely removed),
//! and the lists of the names counted by "the nearest ancestor select" drop the position at
//! once. Tombstones go when the stack is popped below them, or all at once when they outnumber
//! the live entries ([`OpenElements::compact_if_sparse`], between tokens). The adoption agency
//! algorithm's move of formattingElement's replacement below furthestBlock renumbers only the
//! entries between the two ([`OpenElements::replace_and_move`]).

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
    /// Whether the element was removed (a tombstone keeping positions stable).
    dead: bool,
    /// For a dead entry: a lower position to look at for the element immediately above it.
    below: u32,
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
// The kind of each flag of `KINDS` is the flag's bit number, so that the lists of an element's
// kinds are found from its set bits (`kind_bits`).
const _: () = {
    let mut i = 0;
    while i < KINDS.len() {
        assert!(KINDS[i].0 as usize == i && KINDS[i].1 == 1 << i);
        i += 1;
    }
};
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

/// Hashing for [`NameKey`]s: interned name ids and namespaces, small integers the input
/// does not choose (names get their ids in order of first use), so a multiplication per word mixes
/// them enough; SipHash cost 0.6% of the parse on pages with many SVG elements.
#[derive(Clone, Copy, Debug, Default)]
struct NameKeyHash;

impl std::hash::BuildHasher for NameKeyHash {
    type Hasher = NameKeyHasher;
    fn build_hasher(&self) -> NameKeyHasher {
        NameKeyHasher(0)
    }
}

/// The hasher of [`NameKeyHash`].
struct NameKeyHasher(u64);

impl NameKeyHasher {
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl std::hash::Hasher for NameKeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // (The multiplications mix upwards; the fold brings the mixed top bits down to the
        // low bits, which pick the bucket.)
        self.0 ^ (self.0 >> 29)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    #[inline]
    fn write_isize(&mut self, n: isize) {
        self.add(n as u64);
    }
}

/// The stack of open elements.
pub(crate) struct OpenElements {
    /// The elements, the `html` element first. Elements removed from the middle stay as dead
    /// entries (tombstones) until the stack is popped below them or compacted, so positions
    /// never shift when an element is removed.
    entries: Vec<Entry>,
    /// The number of dead entries.
    dead: usize,
    /// The number of live entries that are not HTML elements (when there are none, every
    /// HTML floor is the entry's own position).
    foreign: usize,
    /// Positions of the HTML elements with a static name, indexed by name id.
    html_by_name: Vec<Vec<u32>>,
    /// Positions of the other elements (dynamic HTML names; foreign elements by lowercase name).
    other_by_name: HashMap<NameKey, Vec<u32>, NameKeyHash>,
    /// Positions of the elements of each [`Kind`].
    kinds: [Vec<u32>; 7],
    /// How many open elements are not in the [`EOF_ALLOWED`] set.
    not_eof_allowed: usize,
    /// Position + 1 of each open node, indexed by arena index (0: not open).
    positions: Vec<u32>,
    /// Whether to record popped `option` elements (see [`OpenElements::take_popped_options`]).
    pub(crate) track_popped_options: bool,
    /// The `option` elements popped since the last [`OpenElements::take_popped_options`], each
    /// with its nearest ancestor `select` at the time.
    popped_options: Vec<(NodeId, Option<NodeId>)>,
    /// Source positions: the name of the end tag being processed, if any...
    pub(crate) closing: Option<LocalName>,
    /// ...and the first element of that name that left the stack while it was.
    pub(crate) closed: Option<NodeId>,
    /// The elements with stand-ins that left the stack, to be put back in the tree, with the
    /// positions they left from.
    left: Vec<(u32, NodeId)>,
}

impl Default for OpenElements {
    fn default() -> Self {
        OpenElements::new()
    }
}

/// The most positions a recycled stack keeps room for in its name lists, its entries and each
/// kind's list (a page nested 4,096 deep keeps nothing).
const SPARE_ROOM: usize = 4096;

thread_local! {
    /// The tables of the last stack this thread's parses finished with (see
    /// [`OpenElements::recycle`]).
    static SPARE: std::cell::Cell<Option<OpenElements>> = const { std::cell::Cell::new(None) };
}

#[inline]
fn node_index(node: NodeId) -> usize {
    usize::from(node)
}

/// A position list entry's flag: the element at this position was removed (see
/// [`OpenElements`]'s name lists).
const DEAD: u32 = 1 << 31;
/// The position bits of a position list entry.
const POS: u32 = DEAD - 1;

#[inline]
fn pos32(i: usize) -> u32 {
    // The stack never holds 2^31 elements: each needs input of its own, and the DOM's
    // attribute and string indices are 32-bit as well.
    u32::try_from(i).unwrap_or(POS).min(POS)
}

/// Whether the position list of this name is kept exact (no dead entries): the names whose
/// open elements are counted between two positions ("the nearest ancestor select").
#[inline]
fn exact_list(name: LocalName, ns: Namespace) -> bool {
    ns == Namespace::Html
        && matches!(
            name,
            n::SELECT | n::OPTION | n::OPTGROUP | n::DATALIST | n::HR
        )
}

impl OpenElements {
    pub(crate) fn new() -> OpenElements {
        let mut html_by_name = Vec::with_capacity(STATIC_NAME_COUNT);
        html_by_name.resize_with(STATIC_NAME_COUNT, Vec::new);
        OpenElements {
            entries: Vec::new(),
            dead: 0,
            foreign: 0,
            html_by_name,
            other_by_name: HashMap::with_hasher(NameKeyHash),
            kinds: Default::default(),
            not_eof_allowed: 0,
            positions: Vec::new(),
            track_popped_options: false,
            closing: None,
            closed: None,
            popped_options: Vec::new(),
            left: Vec::new(),
        }
    }

    /// A stack for a new parse: the tables of the last parse this thread finished (see
    /// [`OpenElements::recycle`]), emptied, or new ones.
    pub(crate) fn for_parse() -> OpenElements {
        // `try_with`: a parse while the thread's locals are torn down (from another
        // thread-local's `Drop`) gets new tables instead of a panic.
        SPARE
            .try_with(|spare| spare.take())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// The parse is over: keeps this stack's tables (emptied, their room kept) for the next
    /// parse on this thread, when they are small. Making them costs a parse about 600
    /// position lists of `Vec`s to set up and drop and an allocation for each element name
    /// the page uses: 5% to 15% of the instructions of a page of a few KB.
    pub(crate) fn recycle(mut self) {
        let mut room = 0;
        for list in &mut self.html_by_name {
            room += list.capacity();
            list.clear();
        }
        if room > SPARE_ROOM || self.other_by_name.capacity() > 64 {
            return;
        }
        self.entries.clear();
        self.dead = 0;
        self.foreign = 0;
        self.other_by_name.clear();
        for list in &mut self.kinds {
            list.clear();
        }
        self.not_eof_allowed = 0;
        // (The table by node is as large as the document: not kept.)
        self.positions = Vec::new();
        self.track_popped_options = false;
        self.popped_options.clear();
        self.closing = None;
        self.closed = None;
        self.left.clear();
        if self.entries.capacity() > SPARE_ROOM {
            self.entries = Vec::new();
        }
        for list in &mut self.kinds {
            if list.capacity() > SPARE_ROOM {
                *list = Vec::new();
            }
        }
        let _ = SPARE.try_with(|spare| spare.set(Some(self)));
    }

    // ---------------------------------------------------------------------------------------
    // Reading.

    /// One more than the position of the current node (0 for an empty stack). Removed
    /// elements in the middle still take their positions, so this can exceed
    /// [`OpenElements::depth`].
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The number of open elements.
    #[inline]
    pub(crate) fn depth(&self) -> usize {
        self.entries.len() - self.dead
    }

    /// The current node (the bottommost node of the stack).
    #[inline]
    pub(crate) fn current(&self) -> Option<&Entry> {
        // The last entry is never dead.
        self.entries.last()
    }

    /// The element at position `i` (0 is the `html` element); `None` if there is none or it
    /// was removed.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&Entry> {
        self.entries.get(i).filter(|e| !e.dead)
    }

    /// The position of the element immediately above position `i` in the stack (towards the
    /// `html` element), skipping removed ones.
    #[inline]
    pub(crate) fn below(&self, i: usize) -> Option<usize> {
        let mut j = i.checked_sub(1)?;
        loop {
            let e = self.entries.get(j)?;
            if !e.dead {
                return Some(j);
            }
            // A dead entry's `below` is a lower position; chains of them stay short (they
            // are reset when set and when the stack is compacted).
            if e.below as usize >= j {
                return None;
            }
            j = e.below as usize;
        }
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
        // The last entry of a position list is never dead.
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
        // Kind lists are exact (no dead entries).
        let list = &self.kinds[kind as usize];
        let i = list.partition_point(|&p| p as usize <= after);
        list.get(i).map(|&p| p as usize)
    }

    /// The position of the nearest HTML element at or below position `i`.
    #[inline]
    pub(crate) fn html_floor(&self, i: usize) -> Option<usize> {
        self.get(i).map(|e| e.html_floor as usize)
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

    /// The position list of `name` in `ns` (created if need be).
    #[inline]
    fn name_list_mut(&mut self, name: LocalName, ns: Namespace) -> &mut Vec<u32> {
        // The common case first: an HTML element with a static name.
        if ns == Namespace::Html && name.is_static() && (name.0 as usize) < self.html_by_name.len()
        {
            return &mut self.html_by_name[name.0 as usize];
        }
        self.name_list_mut_slow(name, ns)
    }

    #[inline(never)]
    fn name_list_mut_slow(&mut self, name: LocalName, ns: Namespace) -> &mut Vec<u32> {
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

    /// Makes room in the table of positions for nodes with arena indices below `nodes` (the
    /// parser's estimate of the document's size), so that it is not grown and copied as the
    /// document grows.
    pub(crate) fn reserve_nodes(&mut self, nodes: usize) {
        if self.positions.len() < nodes {
            // (A fresh zeroed allocation, not a fill.)
            let mut positions = vec![0; nodes];
            positions[..self.positions.len()].copy_from_slice(&self.positions);
            self.positions = positions;
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
        self.positions[i] = pos.map_or(0, |p| pos32(p) + 1);
    }

    /// Adds a live entry's position to its lists.
    fn list_entry(&mut self, e: &Entry, p: u32, at_end: bool) {
        self.list_position(e.name, e.ns, e.flags, p, at_end);
    }

    /// Adds position `p` of a live entry named `name` in `ns` with `flags` to its lists.
    #[inline]
    fn list_position(&mut self, name: LocalName, ns: Namespace, flags: u32, p: u32, at_end: bool) {
        let list = self.name_list_mut(name, ns);
        if at_end {
            list.push(p);
        } else {
            insert_sorted(list, p);
        }
        for kind in kind_bits(flags) {
            let list = &mut self.kinds[kind];
            if at_end {
                list.push(p);
            } else {
                insert_sorted(list, p);
            }
        }
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
        // (Built in place and not read back: a copy of a struct just written field by field
        // stalls on store forwarding.)
        self.entries.push(Entry {
            node,
            name,
            ns,
            flags,
            html_floor,
            stand_in: false,
            dead: false,
            below: 0,
        });
        self.list_position(name, ns, flags, pos32(pos), true);
        if flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed += 1;
        }
        if flags & HTML_NS == 0 {
            self.foreign += 1;
        }
        self.set_position(node, Some(pos));
    }

    /// Pops the current node (if any).
    pub(crate) fn pop(&mut self) {
        let Some(i) = self.entries.len().checked_sub(1) else {
            return;
        };
        // The fields are read one by one: a copy of the whole entry (wide loads) of an
        // element pushed a moment ago (its fields stored one by one) stalls on store
        // forwarding.
        let last = &self.entries[i];
        let (node, name, ns, flags) = (last.node, last.name, last.ns, last.flags);
        if last.stand_in || self.closing.is_some() || self.track_popped_options {
            let e = self.entries[i];
            self.note_leaving_now(&e, i);
        }
        self.entries.truncate(i);
        let p = pos32(i);
        // The current node is last in each of its lists.
        let list = self.name_list_mut(name, ns);
        if list.last() == Some(&p) {
            list.pop();
        }
        drop_dead_tail(list);
        for kind in kind_bits(flags) {
            self.kinds[kind].pop();
        }
        if flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed -= 1;
        }
        if flags & HTML_NS == 0 {
            self.foreign -= 1;
        }
        self.set_position(node, None);
        // The new current node is live: drop the dead entries above it.
        while self.entries.last().is_some_and(|e| e.dead) {
            self.entries.pop();
            self.dead -= 1;
        }
    }

    /// Pops elements until the stack has `len` positions.
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
        let Some(old) = self.get(i).copied() else {
            return;
        };
        self.note_left(&old, i);
        self.set_position(old.node, None);
        self.entries[i].node = node;
        self.entries[i].stand_in = false;
        self.set_position(node, Some(i));
    }

    /// Removes the element at position `i`. Positions do not change: the entry stays, dead,
    /// until the stack is popped below it or compacted.
    pub(crate) fn remove_at(&mut self, i: usize) {
        let Some(e) = self.get(i).copied() else {
            return;
        };
        if i + 1 == self.entries.len() {
            self.pop();
            return;
        }
        self.note_leaving(&e, i);
        let below = self.below(i).map_or(0, pos32);
        let entry = &mut self.entries[i];
        entry.dead = true;
        entry.below = below;
        self.dead += 1;
        let p = pos32(i);
        let exact = exact_list(e.name, e.ns);
        let list = self.name_list_mut(e.name, e.ns);
        if exact {
            remove_sorted(list, p);
        } else {
            mark_dead(list, p);
        }
        for (kind, flag) in KINDS {
            if e.flags & flag != 0 {
                remove_sorted(&mut self.kinds[kind as usize], p);
            }
        }
        if e.flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed -= 1;
        }
        self.set_position(e.node, None);
        if e.flags & HTML_NS == 0 {
            self.foreign -= 1;
        } else if self.foreign > 0 {
            // Foreign elements right above took their floor from this element.
            let floor = self.below(i).map_or(0, |b| self.entries[b].html_floor);
            for e in &mut self.entries[i + 1..] {
                if e.dead {
                    continue;
                }
                if e.flags & HTML_NS != 0 {
                    break;
                }
                e.html_floor = floor;
            }
        }
    }

    /// Removes the elements at `positions` (ascending; the adoption agency algorithm's inner
    /// loop removes elements one after another). Positions do not change.
    pub(crate) fn remove_positions(&mut self, positions: &[usize]) {
        // Ascending: each removed entry then points straight at a live entry below it.
        for &p in positions {
            self.remove_at(p);
        }
    }

    /// Removes the element at position `from` and inserts a new element right after position
    /// `after` (`from < after`): the adoption agency algorithm's "remove formattingElement from
    /// the stack of open elements, and insert the new element into the stack of open elements
    /// immediately below the position of furthestBlock". Only the entries between the two
    /// positions move (each down one place), so only they are renumbered.
    pub(crate) fn replace_and_move(
        &mut self,
        from: usize,
        after: usize,
        node: NodeId,
        name: LocalName,
        ns: Namespace,
        flags: u32,
    ) {
        if from >= after || after >= self.entries.len() || self.get(from).is_none() {
            return;
        }
        let e = self.entries[from];
        self.note_left(&e, from);
        if e.flags & HTML_NS == 0 {
            self.foreign -= 1;
        }
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
        let new = Entry {
            node,
            name,
            ns,
            flags,
            html_floor: 0,
            stand_in: false,
            dead: false,
            below: 0,
        };
        self.entries[after] = new;
        self.list_entry(&new, pos32(after), false);
        if flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed += 1;
        }
        if flags & HTML_NS == 0 {
            self.foreign += 1;
        }
        self.set_position(node, Some(after));
        self.relink_dead(from, after);
        self.recompute_html_floor_range(from, after);
    }

    /// Inserts an element at position `i` (the adoption agency algorithm's "insert the new
    /// element into the stack of open elements immediately below furthestBlock" when
    /// formattingElement is not below furthestBlock), renumbering the positions above it.
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
        // Every entry from `i` up moves up one place; going downwards keeps the lists sorted.
        for j in (i..self.entries.len()).rev() {
            let moved = self.entries[j];
            self.renumber(&moved, pos32(j), pos32(j + 1));
        }
        let new = Entry {
            node,
            name,
            ns,
            flags,
            html_floor: 0,
            stand_in: false,
            dead: false,
            below: 0,
        };
        self.entries.insert(i, new);
        self.list_entry(&new, pos32(i), false);
        if flags & EOF_ALLOWED == 0 {
            self.not_eof_allowed += 1;
        }
        if flags & HTML_NS == 0 {
            self.foreign += 1;
        }
        self.set_position(node, Some(i));
        let last = self.entries.len() - 1;
        self.relink_dead(i, last);
        self.recompute_html_floor(i);
    }

    /// Drops the dead entries when they outnumber the live ones (positions change: call it
    /// only between tokens). Each compaction costs O(stack) and follows at least as many
    /// removals, so removals stay O(1) amortized.
    #[inline]
    pub(crate) fn compact_if_sparse(&mut self) {
        if self.dead > 64 && self.dead >= self.depth() {
            self.compact();
        }
    }

    /// Drops the dead entries, renumbering the live ones.
    #[inline(never)]
    fn compact(&mut self) {
        let live: Vec<Entry> = self.entries.iter().filter(|e| !e.dead).copied().collect();
        self.entries.clear();
        self.dead = 0;
        for list in &mut self.html_by_name {
            list.clear();
        }
        self.other_by_name.clear();
        for list in &mut self.kinds {
            list.clear();
        }
        for mut e in live {
            let pos = self.entries.len();
            e.html_floor = if e.flags & HTML_NS != 0 {
                pos32(pos)
            } else {
                self.entries.last().map_or(0, |x| x.html_floor)
            };
            self.entries.push(e);
            self.list_entry(&e, pos32(pos), true);
            self.set_position(e.node, Some(pos));
        }
    }

    /// Records that `e` left the stack from position `i` if it has a stand-in to give back.
    #[inline]
    fn note_left(&mut self, e: &Entry, i: usize) {
        if e.stand_in {
            self.left.push((pos32(i), e.node));
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

    /// The elements with stand-ins that left the stack, the one that left from the highest
    /// position first: putting them back in that order, each walk up the tree that checks
    /// the move stops at the next element still out of the tree.
    pub(crate) fn take_left(&mut self) -> Vec<NodeId> {
        let mut left = std::mem::take(&mut self.left);
        left.sort_by_key(|&(p, _)| std::cmp::Reverse(p));
        left.into_iter().map(|(_, node)| node).collect()
    }

    /// Bookkeeping for an element leaving the stack (popped or removed) from position `i`.
    #[inline]
    fn note_leaving(&mut self, e: &Entry, i: usize) {
        // (Usually there is none: no stand-in, no source positions, no options tracked.)
        if e.stand_in || self.closing.is_some() || self.track_popped_options {
            self.note_leaving_now(e, i);
        }
    }

    #[inline(never)]
    fn note_leaving_now(&mut self, e: &Entry, i: usize) {
        self.note_left(e, i);
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

    /// The number of open HTML elements named `name` (one with an exact list) at positions in
    /// `range`.
    fn count_html_in(&self, name: LocalName, range: std::ops::Range<usize>) -> usize {
        debug_assert!(exact_list(name, Namespace::Html));
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
        self.get(s).map(|e| e.node)
    }

    /// Moves `entry`'s recorded position from `from` to `to` in every list it is in (a dead
    /// entry's marks move with it).
    fn renumber(&mut self, entry: &Entry, from: u32, to: u32) {
        replace_sorted(self.name_list_mut(entry.name, entry.ns), from, to);
        if entry.dead {
            return;
        }
        if entry.flags & ANY_KIND != 0 {
            for (kind, flag) in KINDS {
                if entry.flags & flag != 0 {
                    replace_sorted(&mut self.kinds[kind as usize], from, to);
                }
            }
        }
        self.set_position(entry.node, Some(to as usize));
    }

    /// Points every dead entry at positions `from..=to` at the live entry below it.
    fn relink_dead(&mut self, from: usize, to: usize) {
        let mut live_below = self.below(from).map_or(0, pos32);
        for j in from..=to.min(self.entries.len().saturating_sub(1)) {
            let e = &mut self.entries[j];
            if e.dead {
                e.below = live_below;
            } else {
                live_below = pos32(j);
            }
        }
    }

    fn recompute_html_floor(&mut self, from: usize) {
        self.recompute_html_floor_range(from, self.entries.len().saturating_sub(1));
    }

    /// Recomputes the HTML floors of the live entries at positions `from..=to`, and of the
    /// foreign elements above `to` that inherit their floor.
    fn recompute_html_floor_range(&mut self, from: usize, to: usize) {
        if self.foreign == 0 {
            let end = (to + 1).min(self.entries.len());
            for (j, e) in self.entries[from.min(end)..end].iter_mut().enumerate() {
                e.html_floor = pos32(from + j);
            }
            return;
        }
        let mut floor = self.below(from).map_or(0, |b| self.entries[b].html_floor);
        let mut j = from;
        while j < self.entries.len() {
            let e = &mut self.entries[j];
            if !e.dead {
                if e.flags & HTML_NS != 0 {
                    if j > to {
                        break;
                    }
                    floor = pos32(j);
                }
                e.html_floor = floor;
            }
            j += 1;
        }
    }

    /// Checks the bookkeeping against a recomputation from the entries (tests and debug
    /// assertions).
    #[cfg(test)]
    pub(crate) fn check_invariants(&self) {
        assert!(
            self.entries.last().is_none_or(|e| !e.dead),
            "dead current node"
        );
        assert_eq!(self.entries.iter().filter(|e| e.dead).count(), self.dead);
        assert_eq!(
            self.entries
                .iter()
                .filter(|e| !e.dead && e.flags & HTML_NS == 0)
                .count(),
            self.foreign
        );
        let mut floor = 0;
        for (i, e) in self.entries.iter().enumerate() {
            if e.dead {
                assert!(self.below(i + 1) < Some(i), "below of dead {i}");
                continue;
            }
            if e.flags & HTML_NS != 0 {
                floor = i as u32;
            }
            assert_eq!(e.html_floor, floor, "html floor of {i}");
            assert_eq!(self.position(e.node), Some(i));
            let list = self.name_list(e.name, e.ns).expect("name list");
            let find = |list: &[u32]| list.binary_search_by_key(&(i as u32), |&v| v & POS).is_ok();
            assert!(find(list), "{i} in its name list");
            for (kind, flag) in KINDS {
                assert_eq!(find(&self.kinds[kind as usize]), e.flags & flag != 0);
            }
        }
        let lists = self
            .html_by_name
            .iter()
            .chain(self.other_by_name.values())
            .chain(self.kinds.iter());
        for list in lists {
            assert!(
                list.last().is_none_or(|&p| p & DEAD == 0),
                "dead last entry"
            );
            assert!(
                list.windows(2).all(|w| w[0] & POS < w[1] & POS),
                "unsorted list"
            );
            for &p in list {
                let e = &self.entries[(p & POS) as usize];
                assert_eq!(e.dead, p & DEAD != 0, "list entry {p} vs entry");
            }
        }
    }
}

/// The [`Kind`]s (as indices of `kinds`) among an element's `flags`.
#[inline]
fn kind_bits(flags: u32) -> impl Iterator<Item = usize> {
    let mut bits = flags & ANY_KIND;
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let kind = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(kind)
    })
}

/// Drops dead entries from the end of a position list.
#[inline]
fn drop_dead_tail(list: &mut Vec<u32>) {
    while list.last().is_some_and(|&p| p & DEAD != 0) {
        list.pop();
    }
}

/// Marks position `p` dead in a name list (dropping it if it is the last entry).
fn mark_dead(list: &mut Vec<u32>, p: u32) {
    if let Ok(i) = list.binary_search_by_key(&p, |&v| v & POS) {
        if i + 1 == list.len() {
            list.pop();
            drop_dead_tail(list);
        } else {
            list[i] |= DEAD;
        }
    }
}

fn remove_sorted(list: &mut Vec<u32>, value: u32) {
    if let Ok(i) = list.binary_search_by_key(&value, |&v| v & POS) {
        list.remove(i);
        drop_dead_tail(list);
    }
}

fn insert_sorted(list: &mut Vec<u32>, value: u32) {
    let i = list.partition_point(|&p| p & POS < value);
    list.insert(i, value);
}

fn replace_sorted(list: &mut [u32], from: u32, to: u32) {
    if let Ok(i) = list.binary_search_by_key(&from, |&v| v & POS) {
        list[i] = (list[i] & DEAD) | to;
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
    fn a_recycled_stack_starts_empty() {
        // A stack left with elements (HTML, a dynamic name, foreign, a dead entry) and
        // recycled: the next parse's stack finds none of them.
        let (_arena, ids) = nodes(6);
        let mut s = OpenElements::new();
        s.reserve_nodes(16);
        let custom = LocalName(DYNAMIC_TEST_NAME);
        s.push(ids[0], n::HTML, Namespace::Html, html_flags(n::HTML));
        s.push(ids[1], n::BODY, Namespace::Html, html_flags(n::BODY));
        s.push(ids[2], custom, Namespace::Html, 0);
        s.push(ids[3], n::P, Namespace::Html, html_flags(n::P));
        s.push(ids[4], n::SVG, Namespace::Svg, 0);
        s.push(ids[5], n::B, Namespace::Html, html_flags(n::B));
        s.remove_at(3);
        s.recycle();
        let mut t = OpenElements::for_parse();
        t.check_invariants();
        assert_eq!((t.len(), t.depth()), (0, 0));
        for (i, name) in [n::HTML, n::BODY, custom, n::P, n::B]
            .into_iter()
            .enumerate()
        {
            assert_eq!(t.last_html(name), None, "{i}");
        }
        assert!(!t.contains(ids[1]));
        assert!(!t.has_in_scope(n::B, Scope::Default));
        // It works as a new one does.
        t.push(ids[0], n::HTML, Namespace::Html, html_flags(n::HTML));
        t.push(ids[1], n::B, Namespace::Html, html_flags(n::B));
        t.check_invariants();
        assert_eq!(t.last_html(n::B), Some(1));
        assert!(t.contains(ids[1]));
    }

    /// A name id with the dynamic bit (an element name the static table does not have).
    const DYNAMIC_TEST_NAME: u32 = 1 << 31 | 7;

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
        // Removing from the middle leaves a dead entry: no position changes.
        s.remove_at(2);
        s.check_invariants();
        assert_eq!(s.position(ids[7]), Some(7));
        assert_eq!(s.below(3), Some(1));
        assert_eq!(s.get(2).map(|e| e.node), None);
        assert_eq!(s.depth(), 7);
        s.insert_at(3, ids[2], n::DIV, Namespace::Html, html_flags(n::DIV));
        s.check_invariants();
        assert_eq!(s.position(ids[2]), Some(3));
        assert_eq!(s.position(ids[7]), Some(8));
        s.pop_until_html(n::TABLE);
        s.check_invariants();
        assert_eq!((s.len(), s.depth()), (4, 3));
        // Popping the div leaves a dead entry on top: it goes too.
        s.pop();
        s.check_invariants();
        assert_eq!((s.len(), s.depth()), (2, 2));
    }

    /// The specification's walk, as an oracle for the position-based answer.
    fn naive_in_scope(s: &OpenElements, name: LocalName, scope: Scope) -> bool {
        for e in s.entries.iter().rev().filter(|e| !e.dead) {
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
            match rand(14) {
                0..=4 => s.push(arena.new_node(()), name, ns, flags),
                5 | 6 if s.len() > 1 => {
                    s.pop();
                }
                7 | 8 if s.len() > 1 => s.remove_at(1 + rand(s.len() - 1)),
                9 if s.len() > 1 => {
                    s.insert_at(1 + rand(s.len() - 1), arena.new_node(()), name, ns, flags)
                }
                10 if s.len() > 2 => {
                    let mut positions: Vec<usize> =
                        (0..1 + rand(3)).map(|_| 1 + rand(s.len() - 1)).collect();
                    positions.sort_unstable();
                    positions.dedup();
                    s.remove_positions(&positions);
                }
                11 if s.len() > 2 => {
                    let from = 1 + rand(s.len() - 2);
                    let after = from + 1 + rand(s.len() - from - 1);
                    if s.get(from).is_some() && s.get(after).is_some() {
                        s.replace_and_move(from, after, arena.new_node(()), name, ns, flags);
                    }
                }
                12 => s.compact(),
                _ => {}
            }
            s.check_invariants();
            // `below` finds the previous live entry.
            if s.len() > 1 {
                let i = 1 + rand(s.len() - 1);
                let naive = (0..i).rev().find(|&j| !s.entries[j].dead);
                assert_eq!(s.below(i), naive);
            }
            for &(name, ns) in &names {
                if ns != Namespace::Html {
                    continue;
                }
                for scope in [Scope::Default, Scope::ListItem, Scope::Button, Scope::Table] {
                    assert_eq!(s.has_in_scope(name, scope), naive_in_scope(&s, name, scope));
                }
            }
            let special = s.entries.iter().rposition(|e| !e.dead && e.has(SPECIAL));
            assert_eq!(s.last_of_kind(Kind::Special), special);
            let html_floor = s.entries.iter().rposition(|e| !e.dead && e.has(HTML_NS));
            assert_eq!(s.html_floor(s.len() - 1), html_floor);
        }
    }
}
