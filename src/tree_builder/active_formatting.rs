//! 13.2.4.3 "The list of active formatting elements".
//!
//! The list is a doubly linked list in a slab, so that every operation the parser needs is
//! O(1): push, remove any entry, replace an entry in place, insert after an entry (the adoption
//! agency algorithm's bookmark), and find an element's entry (a side table indexed by node).
//!
//! The Noah's Ark clause counts by a *key*: a hash of the element's name, namespace and
//! attributes (attribute order does not matter). For each section of the list (the entries
//! after a marker) and each key, the list keeps the entries with that key, oldest first, so
//! pushing an element looks at one small list instead of comparing it with every entry after
//! the last marker. The hash is keyed randomly per parser; two different elements sharing a key
//! has probability 2⁻⁶⁴.
//!
//! Keys are computed only when the clause can apply: a section with fewer than three entries
//! cannot hold three with the same key, so its entries go without one until a push finds three
//! already there; then every entry of the section gets its key (once: the section is *keyed*
//! from then on, and later entries get theirs as they come). Most pages never key a section.

use std::collections::HashMap;
use std::hash::BuildHasher;

use indextree::NodeId;

use crate::dom::IdHash;
use crate::dom::names::LocalName;

const NIL: u32 = u32::MAX;

const P0: u64 = 0xa076_1d64_78bd_642f;
const P1: u64 = 0xe703_7ed1_a0b4_28db;
const P2: u64 = 0x8ebc_6af0_9c88_c6e3;
const P3: u64 = 0x5899_65cc_7537_4cc3;

/// The 128-bit product of `a` and `b`, folded to 64 bits.
#[inline]
fn mum(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

/// A 64-bit hash of `bytes` (a multiply-fold hash in the style of wyhash).
fn hash_bytes(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = seed ^ (bytes.len() as u64).wrapping_mul(P0);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        h = mum(h ^ u64::from_le_bytes(w), P1);
    }
    let rest = chunks.remainder();
    let mut w = [0u8; 8];
    w[..rest.len()].copy_from_slice(rest);
    mum(h ^ u64::from_le_bytes(w) ^ P2, P3 ^ rest.len() as u64)
}

/// The number of formatting element names (`a`, `b`, `big`, ... `u`).
const FORMATTING_NAMES: usize = 14;

fn formatting_index(name: LocalName) -> Option<usize> {
    use crate::dom::names::local_name as n;
    Some(match name {
        n::A => 0,
        n::B => 1,
        n::BIG => 2,
        n::CODE => 3,
        n::EM => 4,
        n::FONT => 5,
        n::I => 6,
        n::NOBR => 7,
        n::S => 8,
        n::SMALL => 9,
        n::STRIKE => 10,
        n::STRONG => 11,
        n::TT => 12,
        n::U => 13,
        _ => return None,
    })
}

/// The entries with one key in one section, oldest first. The Noah's Ark clause keeps at
/// most three; the adoption agency algorithm adds a fourth for a moment.
#[derive(Copy, Clone, Debug, Default)]
struct SameKey {
    slots: [u32; 4],
    len: u8,
}

impl SameKey {
    fn push(&mut self, slot: u32) {
        if let Some(free) = self.slots.get_mut(self.len as usize) {
            *free = slot;
            self.len += 1;
        }
    }

    fn remove(&mut self, slot: u32) {
        let len = self.len as usize;
        if let Some(i) = self.slots[..len].iter().position(|&s| s == slot) {
            self.slots.copy_within(i + 1..len, i);
            self.len -= 1;
        }
    }
}

/// The keys are hashes already: the map mixes them cheaply instead of hashing them again.
#[derive(Copy, Clone, Debug, Default)]
struct KeyHasherBuilder;

#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mum(self.0 ^ u64::from(b), P1);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = mum(self.0 ^ u64::from(n), P2);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = self.0.rotate_left(29) ^ n;
    }
}

impl BuildHasher for KeyHasherBuilder {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

/// What an entry of the list holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// A marker.
    Marker,
    /// A formatting element.
    Element(NodeId),
}

#[derive(Copy, Clone, Debug)]
struct Slot {
    prev: u32,
    next: u32,
    item: Item,
    name: LocalName,
    /// The Noah's Ark key, once computed (`keyed`).
    key: u64,
    keyed: bool,
    /// The number of markers before this entry: entries after the last marker have the current
    /// depth.
    depth: u32,
    /// Bumped whenever the slot is freed, so stale references to it can be recognized.
    generation: u32,
    live: bool,
}

/// The longest list whose entries are found by searching it when there is no table by node
/// (see [`ActiveFormatting`]'s `by_node_map`).
const SCAN_LIMIT: usize = 16;

/// A handle to an entry of the list (valid until the entry is removed).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct EntryRef(u32);

/// The list of active formatting elements.
pub(crate) struct ActiveFormatting {
    slots: Vec<Slot>,
    free: Vec<u32>,
    head: u32,
    tail: u32,
    /// The number of markers in the list.
    markers: u32,
    /// Slot + 1 of each element's entry, indexed by arena index, when the parser reserved
    /// the table ([`ActiveFormatting::reserve_nodes`]; 0: not in the list)...
    by_node: Vec<u32>,
    /// ...else (a lean document: the table would cost 4 bytes per node at the parse's peak,
    /// and it is read only by the adoption agency and a few end tags) the slot of each
    /// element's entry in a map, kept only while the list is long (`mapped`): a list of at
    /// most [`SCAN_LIMIT`] entries, what pages have nearly always, is searched instead, which
    /// costs less than a map's insertion and removal for each formatting element.
    by_node_map: HashMap<NodeId, u32, IdHash>,
    /// Whether `by_node_map` is kept (see there).
    mapped: bool,
    /// For each (section depth, key): the slots of the entries, oldest first (at most 3).
    by_key: HashMap<(u32, u64), SameKey, KeyHasherBuilder>,
    /// For each formatting name: (slot, generation) of its entries in list order; stale pairs
    /// are dropped lazily.
    by_name: [Vec<(u32, u32)>; FORMATTING_NAMES],
    /// The per-parser random seed of the key hash.
    seed: u64,
    /// Each section (the entries after the `d`th marker, at index `d`): its number of element
    /// entries, and whether its entries have keys.
    sections: Vec<Section>,
}

/// A section of the list: the entries between two markers.
#[derive(Copy, Clone, Debug, Default)]
struct Section {
    elements: u32,
    keyed: bool,
}

impl Default for ActiveFormatting {
    fn default() -> Self {
        ActiveFormatting::new()
    }
}

impl ActiveFormatting {
    pub(crate) fn new() -> ActiveFormatting {
        ActiveFormatting {
            slots: Vec::new(),
            free: Vec::new(),
            head: NIL,
            tail: NIL,
            markers: 0,
            by_node: Vec::new(),
            by_node_map: HashMap::with_hasher(IdHash),
            mapped: false,
            by_key: HashMap::with_hasher(KeyHasherBuilder),
            by_name: Default::default(),
            seed: std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64),
            sections: vec![Section::default()],
        }
    }

    /// The section at `depth`.
    #[inline]
    fn section(&mut self, depth: u32) -> &mut Section {
        if self.sections.len() <= depth as usize {
            self.sections.resize(depth as usize + 1, Section::default());
        }
        &mut self.sections[depth as usize]
    }

    /// The Noah's Ark key of an element: its name, namespace (always HTML here) and attributes
    /// as (namespace, name, value) triples, in any order.
    #[cfg(test)]
    pub(crate) fn key<'a>(
        &self,
        name: LocalName,
        attrs: impl Iterator<Item = (u8, LocalName, &'a str)>,
    ) -> u64 {
        Self::key_with_seed(self.seed, name, attrs)
    }

    /// [`ActiveFormatting::key`] with the list's `seed` (what [`ActiveFormatting::push`] hands
    /// its key function).
    pub(crate) fn key_with_seed<'a>(
        seed: u64,
        name: LocalName,
        attrs: impl Iterator<Item = (u8, LocalName, &'a str)>,
    ) -> u64 {
        // Each attribute hashes on its own; the sum does not depend on their order.
        let mut sum: u64 = 0;
        let mut count: u64 = 0;
        for (ns, attr, value) in attrs {
            let head = (u64::from(ns) << 32) | u64::from(attr.0);
            sum = sum.wrapping_add(hash_bytes(seed ^ mum(head, P1), value.as_bytes()));
            count += 1;
        }
        mum(mum(seed ^ u64::from(name.0), P2) ^ sum, count ^ P3)
    }

    /// The last entry.
    #[inline]
    pub(crate) fn last(&self) -> Option<EntryRef> {
        (self.tail != NIL).then_some(EntryRef(self.tail))
    }

    /// The entry before `e`.
    #[inline]
    pub(crate) fn prev(&self, e: EntryRef) -> Option<EntryRef> {
        let p = self.slots[e.0 as usize].prev;
        (p != NIL).then_some(EntryRef(p))
    }

    /// The entry after `e`.
    #[inline]
    pub(crate) fn next(&self, e: EntryRef) -> Option<EntryRef> {
        let n = self.slots[e.0 as usize].next;
        (n != NIL).then_some(EntryRef(n))
    }

    /// What entry `e` holds.
    #[inline]
    pub(crate) fn item(&self, e: EntryRef) -> Item {
        self.slots[e.0 as usize].item
    }

    /// The element of entry `e`, if it is not a marker.
    #[inline]
    pub(crate) fn element(&self, e: EntryRef) -> Option<NodeId> {
        match self.item(e) {
            Item::Element(n) => Some(n),
            Item::Marker => None,
        }
    }

    /// The entry of `node`, if it is in the list.
    #[inline]
    pub(crate) fn find(&self, node: NodeId) -> Option<EntryRef> {
        if self.by_node.is_empty() {
            if !self.mapped {
                return self.scan(node);
            }
            return self.by_node_map.get(&node).map(|&s| EntryRef(s));
        }
        match self.by_node.get(usize::from(node)) {
            Some(&s) if s > 0 => Some(EntryRef(s - 1)),
            _ => None,
        }
    }

    /// The entry of `node`, searched from the end of the list (which then holds at most
    /// [`SCAN_LIMIT`] entries).
    fn scan(&self, node: NodeId) -> Option<EntryRef> {
        let mut s = self.tail;
        while s != NIL {
            let slot = &self.slots[s as usize];
            if slot.item == Item::Element(node) {
                return Some(EntryRef(s));
            }
            s = slot.prev;
        }
        None
    }

    /// The number of entries (elements and markers).
    #[inline]
    fn live_slots(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Whether `node` is in the list.
    #[inline]
    pub(crate) fn contains(&self, node: NodeId) -> bool {
        self.find(node).is_some()
    }

    /// The last element named `name` between the end of the list and the last marker.
    pub(crate) fn last_after_marker(&mut self, name: LocalName) -> Option<EntryRef> {
        let i = formatting_index(name)?;
        while let Some(&(slot, generation)) = self.by_name[i].last() {
            let s = &self.slots[slot as usize];
            if s.live && s.generation == generation {
                return (s.depth == self.markers).then_some(EntryRef(slot));
            }
            self.by_name[i].pop();
        }
        None
    }

    /// Makes room in the table of entries by node for nodes with arena indices below `nodes`
    /// (the parser's estimate of the document's size), so that it is not grown and copied as
    /// the document grows. Without it the entries are found through a map.
    pub(crate) fn reserve_nodes(&mut self, nodes: usize) {
        // (Not while a map or search finds an element's entry: only an empty list switches.)
        let no_elements = if self.mapped {
            self.by_node_map.is_empty()
        } else {
            self.by_node.is_empty() && self.live_slots() <= SCAN_LIMIT && {
                let mut s = self.tail;
                let mut any = false;
                while s != NIL {
                    any |= self.slots[s as usize].item != Item::Marker;
                    s = self.slots[s as usize].prev;
                }
                !any
            }
        };
        if self.by_node.len() < nodes && (!self.by_node.is_empty() || no_elements) {
            // (A fresh zeroed allocation, not a fill.)
            let mut by_node = vec![0; nodes];
            by_node[..self.by_node.len()].copy_from_slice(&self.by_node);
            self.by_node = by_node;
        }
    }

    fn set_by_node(&mut self, node: NodeId, slot: Option<u32>) {
        if self.by_node.is_empty() {
            if self.mapped {
                match slot {
                    Some(s) => self.by_node_map.insert(node, s),
                    None => self.by_node_map.remove(&node),
                };
            }
            return;
        }
        let i = usize::from(node);
        if i >= self.by_node.len() {
            if slot.is_none() {
                return;
            }
            let new_len = (i + 1).max(self.by_node.len() * 2).max(64);
            self.by_node.resize(new_len, 0);
        }
        self.by_node[i] = slot.map_or(0, |s| s + 1);
    }

    #[inline]
    fn alloc(&mut self, item: Item, name: LocalName, key: Option<u64>, depth: u32) -> u32 {
        if self.by_node.is_empty() && !self.mapped && self.live_slots() >= SCAN_LIMIT {
            self.start_map();
        }
        let slot = Slot {
            prev: NIL,
            next: NIL,
            item,
            name,
            key: key.unwrap_or(0),
            keyed: key.is_some(),
            depth,
            generation: 0,
            live: true,
        };
        if let Some(i) = self.free.pop() {
            let generation = self.slots[i as usize].generation;
            self.slots[i as usize] = Slot { generation, ..slot };
            i
        } else {
            let i = u32::try_from(self.slots.len()).unwrap_or(NIL - 1);
            self.slots.push(slot);
            i
        }
    }

    /// Links slot `s` after `after` (or at the head when `after` is NIL).
    fn link_after(&mut self, s: u32, after: u32) {
        let next = if after == NIL {
            self.head
        } else {
            self.slots[after as usize].next
        };
        self.slots[s as usize].prev = after;
        self.slots[s as usize].next = next;
        if after == NIL {
            self.head = s;
        } else {
            self.slots[after as usize].next = s;
        }
        if next == NIL {
            self.tail = s;
        } else {
            self.slots[next as usize].prev = s;
        }
    }

    fn register(&mut self, s: u32) {
        let slot = self.slots[s as usize];
        if let Item::Element(node) = slot.item {
            self.set_by_node(node, Some(s));
            if let Some(i) = formatting_index(slot.name) {
                self.by_name[i].push((s, slot.generation));
            }
        }
    }

    /// Inserts a marker at the end of the list.
    pub(crate) fn push_marker(&mut self) {
        let s = self.alloc(Item::Marker, LocalName(0), None, self.markers);
        self.link_after(s, self.tail);
        self.markers += 1;
        *self.section(self.markers) = Section::default();
    }

    /// 13.2.4.3 "Push onto the list of active formatting elements" `node`. `key_of` gives the
    /// Noah's Ark key of an element in the list, given the list's seed (see
    /// [`ActiveFormatting::key_with_seed`]); it is called only when the clause can apply.
    pub(crate) fn push(
        &mut self,
        node: NodeId,
        name: LocalName,
        key_of: impl Fn(u64, NodeId) -> u64,
    ) {
        let depth = self.markers;
        let section = *self.section(depth);
        let mut keyed = section.keyed;
        if !keyed && section.elements >= 3 {
            // Three entries after the last marker: from now on the clause can apply.
            self.key_section(depth, &key_of);
            keyed = true;
        }
        let key = keyed.then(|| key_of(self.seed, node));
        if let Some(key) = key {
            // The Noah's Ark clause: at most three entries with the same key after the last
            // marker.
            let oldest = match self.by_key.get(&(depth, key)) {
                Some(same) if same.len >= 3 => Some(same.slots[0]),
                _ => None,
            };
            if let Some(oldest) = oldest {
                self.remove(EntryRef(oldest));
            }
        }
        let s = self.alloc(Item::Element(node), name, key, depth);
        self.link_after(s, self.tail);
        if let Some(key) = key {
            self.by_key.entry((depth, key)).or_default().push(s);
        }
        self.section(depth).elements += 1;
        self.register(s);
    }

    /// Gives every entry of the last section (at `depth`) its key, and marks the section
    /// keyed.
    #[inline(never)]
    fn key_section(&mut self, depth: u32, key_of: &impl Fn(u64, NodeId) -> u64) {
        // The section's entries, last first (the section is at the end of the list).
        let mut entries = Vec::new();
        let mut s = self.tail;
        while s != NIL {
            let slot = &self.slots[s as usize];
            if slot.item == Item::Marker || slot.depth != depth {
                break;
            }
            entries.push(s);
            s = slot.prev;
        }
        // Oldest first, as the lists of same-key entries keep them.
        for &s in entries.iter().rev() {
            let slot = self.slots[s as usize];
            if let (Item::Element(node), false) = (slot.item, slot.keyed) {
                let key = key_of(self.seed, node);
                let slot = &mut self.slots[s as usize];
                slot.key = key;
                slot.keyed = true;
                self.by_key.entry((depth, key)).or_default().push(s);
            }
        }
        self.section(depth).keyed = true;
    }

    /// Removes entry `e` from the list.
    pub(crate) fn remove(&mut self, e: EntryRef) {
        let s = e.0;
        let Some(slot) = self.slots.get(s as usize).copied() else {
            return;
        };
        if !slot.live {
            return;
        }
        if slot.prev == NIL {
            self.head = slot.next;
        } else {
            self.slots[slot.prev as usize].next = slot.next;
        }
        if slot.next == NIL {
            self.tail = slot.prev;
        } else {
            self.slots[slot.next as usize].prev = slot.prev;
        }
        match slot.item {
            Item::Marker => {
                // (Only the last marker is removed, once the entries after it are.)
                self.markers = self.markers.saturating_sub(1);
            }
            Item::Element(node) => {
                self.set_by_node(node, None);
                // Its (slot, generation) pair goes now when it is the last of its name (an end
                // tag closing the latest one, the usual case), so that a long stream of
                // formatting elements does not pile up stale pairs; others go lazily.
                if let Some(i) = formatting_index(slot.name) {
                    if self.by_name[i].last() == Some(&(s, slot.generation)) {
                        self.by_name[i].pop();
                    }
                }
                let section = self.section(slot.depth);
                section.elements = section.elements.saturating_sub(1);
                if slot.keyed {
                    if let Some(same) = self.by_key.get_mut(&(slot.depth, slot.key)) {
                        same.remove(s);
                        if same.len == 0 {
                            self.by_key.remove(&(slot.depth, slot.key));
                        }
                    }
                }
            }
        }
        let freed = &mut self.slots[s as usize];
        freed.live = false;
        freed.generation = freed.generation.wrapping_add(1);
        self.free.push(s);
        if self.mapped && self.by_node.is_empty() && self.live_slots() <= SCAN_LIMIT / 2 {
            // Short again: back to searching. (Half the limit, so that the map is built
            // again only after as many entries were added as it then holds.)
            self.mapped = false;
            if self.by_node_map.capacity() > 4 * SCAN_LIMIT {
                self.by_node_map = HashMap::with_hasher(IdHash);
            } else {
                self.by_node_map.clear();
            }
        }
    }

    /// The list outgrew [`SCAN_LIMIT`]: its elements' entries go into the map.
    #[cold]
    #[inline(never)]
    fn start_map(&mut self) {
        self.mapped = true;
        let mut s = self.tail;
        while s != NIL {
            let slot = self.slots[s as usize];
            if let Item::Element(node) = slot.item {
                self.by_node_map.insert(node, s);
            }
            s = slot.prev;
        }
    }

    /// Removes the entry of `node`, if any.
    pub(crate) fn remove_node(&mut self, node: NodeId) {
        if let Some(e) = self.find(node) {
            self.remove(e);
        }
    }

    /// Replaces the element of entry `e` with `node`, a clone of it (same name and attributes,
    /// so the same key).
    pub(crate) fn replace(&mut self, e: EntryRef, node: NodeId) {
        if let Item::Element(old) = self.slots[e.0 as usize].item {
            self.set_by_node(old, None);
        }
        self.slots[e.0 as usize].item = Item::Element(node);
        self.set_by_node(node, Some(e.0));
    }

    /// Inserts `node` (a clone of the element of `like`, which supplies name, key and section)
    /// right after entry `after`. Used for the adoption agency algorithm's bookmark.
    pub(crate) fn insert_after(&mut self, after: EntryRef, node: NodeId, like: EntryRef) {
        let model = self.slots[like.0 as usize];
        let depth = self.slots[after.0 as usize].depth;
        // (Both entries are in the last section: keyed together or not at all.)
        let key = model.keyed.then_some(model.key);
        let s = self.alloc(Item::Element(node), model.name, key, depth);
        self.link_after(s, after.0);
        if let Some(key) = key {
            self.by_key.entry((depth, key)).or_default().push(s);
        }
        self.section(depth).elements += 1;
        self.register(s);
    }

    /// The name of the element of entry `e`.
    pub(crate) fn name(&self, e: EntryRef) -> LocalName {
        self.slots[e.0 as usize].name
    }

    /// 13.2.4.3 "Clear the list of active formatting elements up to the last marker".
    pub(crate) fn clear_to_last_marker(&mut self) {
        while let Some(e) = self.last() {
            let was_marker = self.item(e) == Item::Marker;
            self.remove(e);
            if was_marker {
                break;
            }
        }
    }

    /// The entries from first to last (tests).
    #[cfg(test)]
    pub(crate) fn items(&self) -> Vec<Item> {
        let mut out = Vec::new();
        let mut s = self.head;
        while s != NIL {
            out.push(self.slots[s as usize].item);
            s = self.slots[s as usize].next;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::names::local_name as n;

    #[test]
    fn noahs_ark_keeps_three_per_key() {
        let mut arena = indextree::Arena::new();
        let ids: Vec<NodeId> = (0..6).map(|_| arena.new_node(())).collect();
        let mut list = ActiveFormatting::new();
        let k = list.key(n::B, std::iter::empty());
        let k2 = list.key(n::B, [(0u8, n::ID, "x")].into_iter());
        assert_ne!(k, k2);
        for &id in &ids[..4] {
            list.push(id, n::B, |_, _| k);
        }
        assert_eq!(
            list.items(),
            ids[1..4]
                .iter()
                .map(|&i| Item::Element(i))
                .collect::<Vec<_>>()
        );
        list.push_marker();
        list.push(ids[4], n::B, |_, _| k);
        assert_eq!(list.last_after_marker(n::B), list.find(ids[4]));
        list.clear_to_last_marker();
        assert_eq!(list.items().len(), 3);
        assert_eq!(list.last_after_marker(n::B), list.find(ids[3]));
        list.remove_node(ids[3]);
        assert_eq!(list.last_after_marker(n::B), list.find(ids[2]));
        list.push(ids[5], n::B, |_, _| k2);
        assert_eq!(list.last_after_marker(n::I), None);
    }
}
