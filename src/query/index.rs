//! A flat index of a document's elements for selector matching.
//!
//! Built on the first query that needs it (see [`Document::select_index`]), it lists the
//! elements of each tree in document order with their element-only links (parent, previous
//! and next sibling, end of subtree), so that matching walks arrays instead of the arena. Each
//! element also carries what the selector engine asks for most: the hashes of its local name,
//! `id` and classes (ASCII lowercased, so one hash serves the case-sensitive and the
//! quirks-mode comparisons), which feed the ancestor Bloom filter and make `#id` and `.class`
//! tests a hash compare per element.
//!
//! Candidate lists (the elements with a given id, class or local name, sorted by hash then
//! position, so that a query whose rightmost compound names one visits only those) cost more
//! to build than one scan of the elements that tests the key first (a compare per element), so
//! they are built only once queries have scanned the elements [`LIST_SCANS`] times over: a page
//! queried a few times never pays for them.
//!
//! Trees: the document's own tree comes first, then the contents of every `template` (template
//! contents are separate trees; they are indexed so selectors can run inside them, but a query
//! from the document never enters them). An element of a detached subtree gets a temporary
//! index of its own tree (see [`TreeIndex::for_tree`]); `closest` and `matches` on a document
//! without an index use one of just the element's ancestors and their siblings
//! ([`TreeIndex::for_chain`]).
//!
//! Building is one iterative pass over the tree (plus a linear radix sort for the lists):
//! linear in the number of elements, whatever the tree's shape.
//!
//! # Mutations
//!
//! The index follows mutations instead of being rebuilt after each (a loop of mutations and
//! queries would otherwise cost the whole document per step):
//!
//! - an attribute change rewrites the one element's entry (attributes, id, classes, link
//!   flag); an id or class it gains goes to the lists' `extra` set, and the lists are dropped
//!   (to be rebuilt when queries pay for them again) once that set outgrows an eighth of them;
//! - text and comment edits change no element;
//! - a node leaving its tree (removed or detached) leaves tombstones: its elements are marked
//!   dead, its siblings linked to each other, and every walk of the index skips dead elements
//!   (a dead subtree is a contiguous range, skipped in one step); the index is dropped once the
//!   dead outnumber the live;
//! - elements inserted after every element of the indexed tree (appended to an element whose
//!   subtree ends the document: the last element, `body` when nothing follows it, ...) are
//!   appended to the flat order (their ancestors' subtrees grow; the lists get them as
//!   additions), at the cost of what was inserted plus the depth; a move there first leaves
//!   tombstones where the nodes were;
//! - elements inserted anywhere else (before an element, as a first child, by `replace`,
//!   `set_inner_html` in the middle, moves) are appended to `elems` too, but positions then
//!   stop being document order: the index keeps document order in an [`Order`], an
//!   order-maintenance list of labels (made once, on the first such insertion), and every
//!   walk of the index follows it (see [`TreeIndex::succ`], [`TreeIndex::contains`],
//!   [`Scope`]; the candidate lists are sorted by label). The cost is what was inserted, plus
//!   the ancestors whose subtree grows when nothing follows the new elements among their
//!   siblings (bounded: deeper, the index is dropped), plus amortized O(log n) relabeling.
//!   The state computed over a whole tree (`html::forms`: form owners, radio groups,
//!   directionality, languages, validity), XPath and template contents want positions in
//!   document order: they get a flat index built afresh ([`Document::select_index`]). Both
//!   kinds of insertion need a document without template contents and without `select`
//!   elements (whose steps change the tree without upkeep); there, the index is dropped and
//!   rebuilt by the next query that needs it; `closest` and `matches` meanwhile run on
//!   ancestor chains, and build the whole index again only once those chains add up to a
//!   fraction of the document (so a loop of insertions and `closest` stays linear).
//!
//! Each step is proportional to what the mutation touched, and every rebuild is paid for by
//! work of the same order done since the previous one.

use std::any::Any;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::names::{AttrNamespace, LocalName, Namespace, STATIC_NAME_COUNT, local_name};
use super::{AttrRange, Document, NodeData};

/// "No element": the value of an absent link.
pub(crate) const NONE: u32 = u32::MAX;

/// Flag: the element's parent is the `Document` node (it is the document element, `:root`).
pub(crate) const FLAG_ROOT: u8 = 1;

/// Flag: the element is a link (`:link`, `:any-link`): an HTML `a` or `area` element with an
/// `href` attribute (HTML, "Pseudo-classes"), or an SVG `a` element with `href` or
/// `xlink:href` (which browsers treat as links too).
pub(crate) const FLAG_LINK: u8 = 2;

/// Flag: the element left the tree after the index was built (a tombstone). Its whole subtree
/// `pos..end` is dead with it.
pub(crate) const FLAG_DEAD: u8 = 4;

/// How many scans over all the elements queries make before the candidate lists are built.
/// A list costs about ten scans that test a key per element (a pass, a radix sort), so a
/// page queried a few times never builds one.
pub(crate) const LIST_SCANS: u64 = 6;

/// One element of the index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Elem {
    /// The element's node.
    pub(crate) node: indextree::NodeId,
    /// One past the position of the last element of its subtree: the subtree is
    /// `pos..end` (while the index is flat, see [`TreeIndex::is_flat`]; after that, only for
    /// the elements added together with it).
    pub(crate) end: u32,
    /// The parent element, or [`NONE`] for an element whose parent is the tree's root.
    pub(crate) parent: u32,
    /// The previous element sibling, or [`NONE`].
    pub(crate) prev: u32,
    /// The next element sibling, or [`NONE`].
    pub(crate) next: u32,
    /// The local name.
    pub(crate) name: LocalName,
    /// The attributes (a run of [`Document::attrs`]).
    pub(crate) attrs: AttrRange,
    /// [`ci_hash`] of the local name.
    pub(crate) name_hash: u32,
    /// [`ci_hash`] of the `id` attribute's value (meaningless when `id_attr` is [`NONE`]).
    pub(crate) id_hash: u32,
    /// The `id` attribute, as an index into [`Document::attrs`], or [`NONE`].
    pub(crate) id_attr: u32,
    /// The `class` attribute, as an index into [`Document::attrs`], or [`NONE`].
    pub(crate) class_attr: u32,
    /// The namespace.
    pub(crate) ns: Namespace,
    /// `FLAG_*` bits.
    pub(crate) flags: u8,
}

/// Elements of an index in document order: from `first`, walking by [`TreeIndex::succ`] (dead
/// subtrees skipped by [`TreeIndex::after_subtree`]) while [`TreeIndex::before`] `stop`; their
/// order keys are in `lo..hi`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scope {
    pub(crate) first: u32,
    pub(crate) stop: u32,
    pub(crate) lo: u64,
    pub(crate) hi: u64,
}

impl Scope {
    /// The positions `lo..hi` of an index whose positions are in document order.
    fn flat(lo: u32, hi: u32) -> Scope {
        Scope {
            first: lo,
            stop: hi,
            lo: u64::from(lo),
            hi: u64::from(hi),
        }
    }

    /// Whether the scope holds no element.
    pub(crate) fn is_empty(&self) -> bool {
        self.first == self.stop || self.first == NONE || self.lo >= self.hi
    }
}

/// The classes of an index's elements: `tokens[start..start + len]` for the element at
/// position `p`, where `(start, len) = spans[p]` (no entry: no class).
#[derive(Clone, Default)]
struct ClassTable {
    tokens: Vec<ClassToken>,
    spans: Vec<(u32, u32)>,
}

/// The class tokens of the element at `pos` (none before the table is built): from the
/// index's field, so that a caller may hold its other fields mutably meanwhile.
fn classes_in(classes: &OnceLock<ClassTable>, pos: u32) -> &[ClassToken] {
    let Some(table) = classes.get() else {
        return &[];
    };
    let (start, len) = table.spans.get(pos as usize).copied().unwrap_or((0, 0));
    let start = start as usize;
    table.tokens.get(start..start + len as usize).unwrap_or(&[])
}

impl ClassTable {
    /// Sets the classes of the element at `pos` from its `class` attribute (`class_attr`).
    fn set(&mut self, doc: &Document, pos: u32, class_attr: u32) {
        let pos = pos as usize;
        if self.spans.len() <= pos {
            self.spans.resize(pos + 1, (0, 0));
        }
        let start = to_u32(self.tokens.len());
        if let Some(a) = doc.attrs.get(class_attr as usize) {
            split_classes(doc.str(a.value), &mut self.tokens);
        }
        self.spans[pos] = (start, to_u32(self.tokens.len()) - start);
    }
}

/// Splits a `class` value on ASCII whitespace (HTML "set of space-separated tokens").
fn split_classes(value: &str, out: &mut Vec<ClassToken>) {
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && is_ascii_whitespace(bytes[i]) {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && !is_ascii_whitespace(bytes[i]) {
            i += 1;
        }
        if i > start {
            out.push(ClassToken {
                hash: ci_hash(&value[start..i]),
                start: to_u32(start),
                len: to_u32(i - start),
            });
        }
    }
}

/// One class of an element's `class` attribute: its hash and where it is in the value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClassToken {
    pub(crate) hash: u32,
    pub(crate) start: u32,
    pub(crate) len: u32,
}

/// Which candidate list to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum ListKind {
    Id,
    Class,
    LocalName,
}

/// The candidate lists of a document's index: for each id, class and local name, the elements
/// that have it. Each kind of list is built on its own, when a query wants it. They may hold
/// more than that (an element that lost a class, a dead element: matching checks every
/// candidate), never less: an element that gained an id or class after its list was built is
/// in `extra`.
#[derive(Clone, Default)]
pub(crate) struct Lists {
    /// By [`ListKind`]: `(hash, position)`, sorted.
    by_kind: [OnceLock<Vec<(u32, u32)>>; 3],
    /// For a key, the first entry of its run not known to be dead (entries before it are).
    front: HashMap<(ListKind, u32), usize, foldhash::fast::RandomState>,
    /// Entries added since the lists were built: `(kind, hash, order key, position)` (see
    /// [`Keys`]).
    extra: BTreeSet<(ListKind, u32, u64, u32)>,
    /// For each position with entries in `extra`, their kinds and hashes (so that relabeling
    /// re-keys them).
    extra_keys: HashMap<u32, Vec<(ListKind, u32)>, foldhash::fast::RandomState>,
}

/// The document-order keys of an index's positions: the positions themselves while they are
/// in document order, else the labels of its [`Order`].
#[derive(Clone, Copy)]
pub(crate) struct Keys<'a>(Option<&'a Order>);

impl Keys<'_> {
    /// The key of the element at `pos`.
    #[inline]
    pub(crate) fn key(self, pos: u32) -> u64 {
        match self.0 {
            None => u64::from(pos),
            Some(order) => order.label.get(pos as usize).copied().unwrap_or(u64::MAX),
        }
    }
}

impl Lists {
    /// A candidate list: `(hash, position)` pairs sorted by hash, then position (empty when
    /// not built).
    pub(crate) fn list(&self, kind: ListKind) -> &[(u32, u32)] {
        self.by_kind[kind as usize].get().map_or(&[], |list| list)
    }

    /// Whether the list of `kind` is built.
    pub(crate) fn is_built(&self, kind: ListKind) -> bool {
        self.by_kind[kind as usize].get().is_some()
    }

    /// The entries of a candidate list for `hash` whose positions are in `lo..hi`, in an
    /// index whose positions are in document order (less those known to be dead at the
    /// front).
    #[cfg_attr(
        not(all(feature = "xml", feature = "xpath", feature = "url", feature = "forms")),
        allow(dead_code)
    )]
    pub(crate) fn range(
        &self,
        kind: ListKind,
        hash: u32,
        lo: u32,
        hi: u32,
    ) -> std::ops::Range<usize> {
        self.range_keys(kind, hash, u64::from(lo), u64::from(hi), Keys(None))
    }

    /// The entries of a candidate list for `hash` whose order keys are in `lo..hi` (less
    /// those known to be dead at the front).
    pub(crate) fn range_keys(
        &self,
        kind: ListKind,
        hash: u32,
        lo: u64,
        hi: u64,
        keys: Keys<'_>,
    ) -> std::ops::Range<usize> {
        let list = self.list(kind);
        let mut start = list.partition_point(|&(h, pos)| (h, keys.key(pos)) < (hash, lo));
        if let Some(&front) = self.front.get(&(kind, hash)) {
            start = start.max(front);
        }
        let end = list.partition_point(|&(h, pos)| (h, keys.key(pos)) < (hash, hi));
        start..end.max(start)
    }

    /// The order keys and positions of the entries with keys in `lo..hi` added to the list of
    /// `(kind, hash)` since it was built, in document order.
    pub(crate) fn extra(
        &self,
        kind: ListKind,
        hash: u32,
        lo: u64,
        hi: u64,
    ) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.extra
            .range((kind, hash, lo, 0)..(kind, hash, hi, 0))
            .map(|&(_, _, key, pos)| (key, pos))
    }

    /// Adds an entry for the element at `pos`, whose order key is `key`.
    fn add_extra(&mut self, kind: ListKind, hash: u32, key: u64, pos: u32) {
        if self.extra.insert((kind, hash, key, pos)) {
            self.extra_keys.entry(pos).or_default().push((kind, hash));
        }
    }

    /// The element at `pos` was relabeled from `old` to `new`: its additions follow.
    fn rekey(&mut self, pos: u32, old: u64, new: u64) {
        let Some(keys) = self.extra_keys.get(&pos) else {
            return;
        };
        for &(kind, hash) in keys {
            if self.extra.remove(&(kind, hash, old, pos)) {
                self.extra.insert((kind, hash, new, pos));
            }
        }
    }

    /// Whether any entry was added since the lists were built.
    pub(crate) fn has_extra(&self) -> bool {
        !self.extra.is_empty()
    }

    /// Moves the front of the run of `(kind, hash)` past its dead entries.
    fn advance_front(&mut self, elems: &[Elem], kind: ListKind, hash: u32) {
        let Some(list) = self.by_kind[kind as usize].get() else {
            return;
        };
        let front = match self.front.entry((kind, hash)) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(list.partition_point(|&entry| entry < (hash, 0)))
            }
        };
        while let Some(&(h, p)) = list.get(*front) {
            if h != hash
                || elems
                    .get(p as usize)
                    .is_none_or(|e| e.flags & FLAG_DEAD == 0)
            {
                break;
            }
            *front += 1;
        }
    }

    fn len(&self) -> usize {
        self.by_kind
            .iter()
            .map(|list| list.get().map_or(0, Vec::len))
            .sum()
    }
}

/// A counter that clones as its current value (so that a `Document` stays `Clone + Sync`).
#[derive(Default)]
pub(crate) struct Counter(AtomicU64);

impl Counter {
    #[inline]
    pub(crate) fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    #[inline]
    pub(crate) fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    fn set(&mut self, n: u64) {
        *self.0.get_mut() = n;
    }
}

impl Clone for Counter {
    fn clone(&self) -> Counter {
        Counter(AtomicU64::new(self.get()))
    }
}

/// Document order for an index whose positions are no longer in it: elements inserted before
/// indexed elements are appended to `elems` (positions only identify elements), and their
/// order is kept here as an order-maintenance list: each position has a label, labels grow in
/// document order, and a new element takes a label between its neighbours'. When two
/// neighbours' labels leave no room, the smallest enclosing aligned range of labels whose
/// density is low enough is relabeled evenly (Bender, Cole, Demaine, Farach-Colton and Zito,
/// "Two Simplified Algorithms for Maintaining Order in a List", 2002): amortized O(log n)
/// labels rewritten per insertion. Dead elements stay in the list (the subtree bounds of
/// their ancestors may name them).
#[derive(Clone, Default)]
pub(crate) struct Order {
    /// By position: the label (below [`LABEL_LIMIT`]).
    label: Vec<u64>,
    /// By position: the next and previous positions in document order, or [`NONE`].
    succ: Vec<u32>,
    pred: Vec<u32>,
    /// By position: the last position of the element's subtree in document order (itself
    /// when it has no element descendants).
    last: Vec<u32>,
    /// The first position in document order.
    head: u32,
}

/// Labels are below 2^62 (so that `label + 1` and sums of two never overflow).
const LABEL_BITS: u32 = 62;
const LABEL_LIMIT: u64 = 1 << LABEL_BITS;

/// How many elements an aligned range of 2^i labels may hold before it must be relabeled as
/// part of a larger one: (2/T)^i with T = 1.5 (Bender et al.'s density threshold T^-i). The
/// whole label space holds 5.5e7 elements.
fn density_limit(i: u32) -> f64 {
    (4.0f64 / 3.0).powi(i as i32)
}

/// The elements of one or more trees in document order, with their links and hashes.
#[derive(Clone, Default)]
pub(crate) struct TreeIndex {
    /// For each arena slot (`usize::from(NodeId) - 1`), the element's position plus one, or 0.
    slot_pos: Vec<u32>,
    /// The elements, tree after tree, each tree in document order.
    pub(crate) elems: Vec<Elem>,
    /// The classes of all elements.
    /// The classes of all elements, split and hashed on first use (see
    /// [`TreeIndex::ensure_classes`]).
    classes: OnceLock<ClassTable>,
    /// The range of `elems` each tree occupies; the first is the tree the index was built
    /// for (the document's own tree, for a document's index).
    pub(crate) trees: Vec<(u32, u32)>,
    /// The node each tree hangs from (the `Document`, a template's contents fragment, or the
    /// top of a detached subtree).
    tree_roots: Vec<indextree::NodeId>,
    /// Whether this is a document's index, which keeps candidate lists (built once queries
    /// have scanned enough to pay for them; see [`TreeIndex::lists`]).
    pub(crate) has_lists: bool,
    lists: Lists,
    /// Elements scanned by queries that candidate lists would have narrowed.
    scanned: Counter,
    /// How many elements are dead.
    dead: u32,
    /// State that the HTML pseudo-classes derive from the whole tree (form owners, radio
    /// groups, disabled fieldsets, languages, editability), computed on first use by
    /// `html::forms::states`, in a slot whose type this room does not know.
    pub(crate) html: crate::dom::hooks::SlotCell,
    /// Document order, once elements were inserted before indexed elements (until then the
    /// positions are in document order and each element's subtree is `pos..end`).
    order: Option<Box<Order>>,
    /// Elements written or relabeled by upkeep, and entries of candidate lists built, since
    /// the index was built (for tests that count work).
    work: Counter,
}

/// The hash the index and the selector engine agree on for names, ids and classes, over the
/// ASCII-lowercased bytes, so that equal names under ASCII case folding hash alike (one hash
/// serves case-sensitive and case-insensitive matching). Eight bytes at a time (lowercased
/// together, then a folded multiply: the high and low halves of the 128-bit product xored, as
/// foldhash and aHash mix), the length in the seed, and the
/// MurmurHash3 64-bit finalizer so that every bit the Bloom filter reads depends on every byte:
/// the index hashes every class of every element, and long `class` values are common.
#[inline]
pub(crate) fn ci_hash(s: &str) -> u32 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    const K2: u64 = 0x243f_6a88_85a3_08d3;
    let bytes = s.as_bytes();
    let mut h = K ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = folded_multiply(ascii_lower8(u64::from_le_bytes(word)) ^ K2, h ^ K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = folded_multiply(ascii_lower8(u64::from_le_bytes(word)) ^ K2, h ^ K);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h as u32
}

/// The 128-bit product of `a` and `b`, its halves xored: every bit of the result depends on
/// every bit of both.
#[inline]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// Eight bytes with each ASCII upper-case letter lowercased (SWAR: a byte's bit 7 says
/// whether it is in `A..=Z`; bytes of 0x80 and above are left alone).
#[inline]
fn ascii_lower8(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low = x & LOW7;
    // Bit 7 of each byte: the byte's low seven bits are >= 'A' (0x41), > 'Z' (0x5A).
    let at_least_a = low + 0x3f3f_3f3f_3f3f_3f3f;
    let above_z = low + 0x2525_2525_2525_2525;
    let upper = at_least_a & !above_z & !x & HIGH;
    x | (upper >> 2)
}

/// ASCII whitespace as the HTML standard defines it (for splitting `class`).
#[inline]
pub(crate) fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r')
}

#[inline]
fn to_u32(n: usize) -> u32 {
    // Positions are below 2^32 - 1: a tree that large cannot be held in memory with 80 bytes
    // per element. Saturating keeps this total.
    u32::try_from(n).unwrap_or(NONE - 1)
}

impl TreeIndex {
    /// The index of a whole document: its tree, then every template's contents. Its candidate
    /// lists are built later, when queries pay for them.
    pub(crate) fn for_document(doc: &Document) -> TreeIndex {
        let mut index = TreeIndex::with_slots(doc);
        index.has_lists = true;
        index.add_tree(doc, doc.root);
        let mut contents: Vec<indextree::NodeId> = doc
            .template_contents
            .iter()
            .filter(|(template, fragment)| {
                doc.arena.get(**template).is_some_and(|n| !n.is_removed())
                    && doc.arena.get(**fragment).is_some_and(|n| !n.is_removed())
            })
            .map(|(_, fragment)| *fragment)
            .collect();
        contents.sort_by_key(|id| usize::from(*id));
        for fragment in contents {
            index.add_tree(doc, fragment);
        }
        index
    }

    /// A temporary index of the one tree whose root is `root` (a detached subtree's top
    /// node), without candidate lists.
    pub(crate) fn for_tree(doc: &Document, root: indextree::NodeId) -> TreeIndex {
        let mut index = TreeIndex::with_slots(doc);
        index.add_tree(doc, root);
        index
    }

    /// A temporary index of what matching upwards from the element `node` can visit: its
    /// inclusive ancestors that are elements and (with `siblings`) the element siblings of
    /// each, linked as in the tree, with `node`'s position. It holds no element's children
    /// other than these (so it serves selectors that look only up and sideways: no `:has()`,
    /// no pseudo-class that needs the whole tree), and no position lookup. Its size is the
    /// depth, or the sum of the sibling counts along the chain.
    pub(crate) fn for_chain(
        doc: &Document,
        node: indextree::NodeId,
        siblings: bool,
    ) -> Option<(TreeIndex, u32)> {
        let arena = &doc.arena;
        let element = |n: indextree::NodeId| match arena.get(n).map(|n| n.get()) {
            Some(NodeData::Element(data)) => Some(data),
            _ => None,
        };
        element(node)?;
        let mut chain = vec![node];
        let mut top_parent = None;
        let mut n = node;
        while let Some(p) = arena[n].parent() {
            if element(p).is_none() {
                top_parent = Some(p);
                break;
            }
            chain.push(p);
            n = p;
        }
        let root_is_document =
            top_parent.is_some_and(|p| matches!(arena[p].get(), NodeData::Document));
        let mut index = TreeIndex::default();
        let mut parent_pos = NONE;
        for (level, &c) in chain.iter().rev().enumerate() {
            let mut prev = NONE;
            let mut chosen = NONE;
            let parent = arena[c].parent().filter(|_| siblings);
            let mut sibling = match parent {
                Some(p) => arena[p].first_child(),
                None => Some(c),
            };
            while let Some(s) = sibling {
                sibling = parent.and_then(|_| arena[s].next_sibling());
                let Some(data) = element(s) else {
                    continue;
                };
                let pos = to_u32(index.elems.len());
                if let Some(p) = index.elems.get_mut(prev as usize) {
                    p.next = pos;
                }
                index.push_element(
                    doc,
                    s,
                    data,
                    parent_pos,
                    prev,
                    level == 0 && root_is_document,
                );
                index.elems[pos as usize].end = pos + 1;
                if s == c {
                    chosen = pos;
                }
                prev = pos;
            }
            parent_pos = chosen;
        }
        index.trees.push((0, to_u32(index.elems.len())));
        (parent_pos != NONE).then_some((index, parent_pos))
    }

    fn with_slots(doc: &Document) -> TreeIndex {
        TreeIndex {
            slot_pos: vec![0; doc.arena.len()],
            // At most one element per node: reserving saves the copies of growing (the
            // pages never written are never touched).
            elems: Vec::with_capacity(doc.arena.len()),
            ..TreeIndex::default()
        }
    }

    /// The position of `node`, if it is a live indexed element.
    #[inline]
    pub(crate) fn pos_of(&self, node: indextree::NodeId) -> Option<u32> {
        let slot = usize::from(node).checked_sub(1)?;
        let p = self.slot_pos.get(slot)?.checked_sub(1)?;
        let e = self.elems.get(p as usize)?;
        (e.node == node && e.flags & FLAG_DEAD == 0).then_some(p)
    }

    /// The element at `pos`.
    #[inline]
    pub(crate) fn elem(&self, pos: u32) -> &Elem {
        &self.elems[pos as usize]
    }

    /// Whether the element at `pos` left the tree.
    #[inline]
    pub(crate) fn is_dead(&self, pos: u32) -> bool {
        self.elems
            .get(pos as usize)
            .is_none_or(|e| e.flags & FLAG_DEAD != 0)
    }

    /// Whether any element left the tree since the index was built.
    #[inline]
    pub(crate) fn has_dead(&self) -> bool {
        self.dead > 0
    }

    /// Whether the positions are in document order (no element was inserted before indexed
    /// ones since the index was built): each element's subtree is then `pos..end`. Only
    /// such an index serves the state computed over a whole tree (`html::forms`), XPath and
    /// template contents.
    #[inline]
    pub(crate) fn is_flat(&self) -> bool {
        self.order.is_none()
    }

    /// The document-order keys of the positions.
    #[inline]
    pub(crate) fn keys(&self) -> Keys<'_> {
        Keys(self.order.as_deref())
    }

    /// The position after `pos` in document order, dead or not (in a flat index, `pos + 1`,
    /// which may be past the scope: see [`TreeIndex::before`]).
    #[inline]
    pub(crate) fn succ(&self, pos: u32) -> u32 {
        match &self.order {
            None => pos.saturating_add(1),
            Some(o) => o.succ.get(pos as usize).copied().unwrap_or(NONE),
        }
    }

    /// The first position after the subtree of `pos` in document order.
    #[inline]
    pub(crate) fn after_subtree(&self, pos: u32) -> u32 {
        match &self.order {
            None => self
                .elems
                .get(pos as usize)
                .map_or(NONE, |e| e.end.max(pos.saturating_add(1))),
            Some(o) => o
                .last
                .get(pos as usize)
                .and_then(|&l| o.succ.get(l as usize))
                .copied()
                .unwrap_or(NONE),
        }
    }

    /// Whether `pos` is before `stop`, the end of a [`Scope`] (or an
    /// [`TreeIndex::after_subtree`]), walking in document order.
    #[inline]
    pub(crate) fn before(&self, pos: u32, stop: u32) -> bool {
        match &self.order {
            None => pos < stop && (pos as usize) < self.elems.len(),
            Some(_) => pos != stop && pos != NONE,
        }
    }

    /// Whether the element at `d` is in the subtree of the element at `a` (and not `a`).
    #[inline]
    pub(crate) fn contains(&self, a: u32, d: u32) -> bool {
        match &self.order {
            None => a < d && d < self.elem(a).end,
            Some(o) => {
                let key = |p: u32| o.label.get(p as usize).copied().unwrap_or(u64::MAX);
                let last = o.last.get(a as usize).copied().unwrap_or(a);
                key(a) < key(d) && key(d) <= key(last)
            }
        }
    }

    /// The elements of the document's tree (the first tree of a document's index).
    pub(crate) fn document_scope(&self) -> Scope {
        match &self.order {
            None => {
                let (lo, hi) = self.trees.first().copied().unwrap_or((0, 0));
                Scope::flat(lo, hi)
            }
            Some(o) => Scope {
                first: o.head,
                stop: NONE,
                lo: 0,
                hi: u64::MAX,
            },
        }
    }

    /// The descendants of the element at `pos`.
    pub(crate) fn descendants_scope(&self, pos: u32) -> Scope {
        match &self.order {
            None => Scope::flat(pos.saturating_add(1), self.after_subtree(pos)),
            Some(o) => {
                let keys = Keys(Some(o));
                let last = o.last.get(pos as usize).copied().unwrap_or(pos);
                Scope {
                    first: self.succ(pos),
                    stop: self.after_subtree(pos),
                    lo: keys.key(pos).saturating_add(1),
                    hi: keys.key(last).saturating_add(1),
                }
            }
        }
    }

    /// The first live element child of the element at `pos`, or [`NONE`]: the first element
    /// after it in its subtree, skipping dead subtrees whole.
    #[inline]
    pub(crate) fn first_child(&self, pos: u32) -> u32 {
        let stop = self.after_subtree(pos);
        let mut c = self.succ(pos);
        while self.before(c, stop) {
            if self.elems[c as usize].flags & FLAG_DEAD == 0 {
                return c;
            }
            c = self.after_subtree(c);
        }
        NONE
    }

    /// The classes of the element at `pos`.
    #[inline]
    pub(crate) fn classes_at(&self, pos: u32) -> &[ClassToken] {
        classes_in(&self.classes, pos)
    }

    /// The tree (index into `trees`) that holds `pos`.
    pub(crate) fn tree_of(&self, pos: u32) -> usize {
        self.trees.partition_point(|&(_, end)| end <= pos)
    }

    /// The candidate lists, if this is a document's index, with the list of `kind` built. A
    /// list costs about one scan of the elements with a cheap test each: it is built on first
    /// use when the caller's test is `costly` (one that sets up the selector engine's full
    /// matching), else once queries have scanned the elements [`LIST_SCANS`] times over
    /// (until then, none).
    pub(crate) fn lists_with(&self, kind: ListKind, costly: bool) -> Option<&Lists> {
        if !self.has_lists {
            return None;
        }
        if !self.lists.is_built(kind) {
            if !costly && self.scanned.get() < LIST_SCANS * self.elems.len() as u64 {
                return None;
            }
            self.lists.by_kind[kind as usize].get_or_init(|| self.build_list(kind));
        }
        Some(&self.lists)
    }

    /// Counts `n` elements scanned by a query that candidate lists would have narrowed.
    pub(crate) fn note_scan(&self, n: u32) {
        if self.has_lists {
            self.scanned.add(u64::from(n));
        }
    }

    /// Appends the elements of the tree rooted at `root` (the root too, if it is an element),
    /// in document order: one iterative walk over the arena's links.
    fn add_tree(&mut self, doc: &Document, root: indextree::NodeId) {
        let tree_start = to_u32(self.elems.len());
        self.add_subtree(doc, root, NONE, NONE);
        let end = to_u32(self.elems.len());
        self.trees.push((tree_start, end));
        self.tree_roots.push(root);
    }

    /// Appends the elements of the subtree of `root` (the root too, if it is an element), in
    /// document order, the topmost with the parent `top_parent` and the previous sibling
    /// `top_prev` (positions, or [`NONE`]): one iterative walk over the arena's links.
    fn add_subtree(
        &mut self,
        doc: &Document,
        root: indextree::NodeId,
        top_parent: u32,
        top_prev: u32,
    ) {
        let arena = &doc.arena;
        // The open elements: (position, last element child so far).
        let mut open: Vec<(u32, u32)> = Vec::new();
        let mut top_last = top_prev;
        let root_is_document = matches!(arena[root].get(), NodeData::Document);
        let mut node = Some(root);
        while let Some(n) = node {
            let entry = &arena[n];
            if let NodeData::Element(data) = entry.get() {
                let pos = to_u32(self.elems.len());
                let (parent, last) = match open.last_mut() {
                    Some((p, last)) => (*p, last),
                    None => (top_parent, &mut top_last),
                };
                let prev = std::mem::replace(last, pos);
                if let Some(p) = self.elems.get_mut(prev as usize) {
                    p.next = pos;
                }
                // A child of the `Document` node is its document element.
                let root_element = open.is_empty() && root_is_document && n != root;
                self.push_element(doc, n, data, parent, prev, root_element);
                if let Some(child) = entry.first_child() {
                    open.push((pos, NONE));
                    node = Some(child);
                    continue;
                }
                self.elems[pos as usize].end = pos + 1;
            } else if n == root {
                // The `Document` or `DocumentFragment` the tree hangs from.
                node = entry.first_child();
                continue;
            }
            // Next: the next sibling, else the next sibling of the nearest ancestor that has
            // one, closing the elements left on the way up.
            node = None;
            let mut m = n;
            while m != root {
                if let Some(sibling) = arena[m].next_sibling() {
                    node = Some(sibling);
                    break;
                }
                let Some(parent) = arena[m].parent() else {
                    break;
                };
                if matches!(arena[parent].get(), NodeData::Element(_)) {
                    if let Some((pos, _)) = open.pop() {
                        self.elems[pos as usize].end = to_u32(self.elems.len());
                    }
                }
                m = parent;
            }
        }
        let end = to_u32(self.elems.len());
        for (pos, _) in open {
            self.elems[pos as usize].end = end;
        }
    }

    /// Adds the element `n` (whose links to earlier elements are given).
    fn push_element(
        &mut self,
        doc: &Document,
        n: indextree::NodeId,
        data: &super::ElementData,
        parent: u32,
        prev: u32,
        root_element: bool,
    ) {
        let pos = to_u32(self.elems.len());
        let mut e = Elem {
            node: n,
            end: NONE,
            parent,
            prev,
            next: NONE,
            name: data.name,
            attrs: data.attrs,
            name_hash: name_hash(doc, data.name),
            id_hash: 0,
            id_attr: NONE,
            class_attr: NONE,
            ns: data.ns,
            flags: if root_element { FLAG_ROOT } else { 0 },
        };
        self.read_attributes(doc, &mut e, data);
        if let Some(slot) = usize::from(n)
            .checked_sub(1)
            .and_then(|slot| self.slot_pos.get_mut(slot))
        {
            *slot = pos.saturating_add(1);
        }
        self.elems.push(e);
    }

    /// Sets what `e` derives from its attributes: the attribute run, the id, the classes
    /// (appended to `classes`) and the link flag.
    fn read_attributes(&mut self, doc: &Document, e: &mut Elem, data: &super::ElementData) {
        e.attrs = data.attrs;
        e.id_hash = 0;
        e.id_attr = NONE;
        e.class_attr = NONE;
        e.flags &= !FLAG_LINK;
        let range = data.attrs.range();
        let start = range.start;
        let link_element = data.name == local_name::A
            && matches!(data.ns, Namespace::Html | Namespace::Svg)
            || data.name == local_name::AREA && data.ns == Namespace::Html;
        for (i, a) in doc.attrs.get(range).unwrap_or(&[]).iter().enumerate() {
            if link_element
                && a.name == local_name::HREF
                && (a.ns == AttrNamespace::None
                    || (a.ns == AttrNamespace::XLink && data.ns == Namespace::Svg))
            {
                e.flags |= FLAG_LINK;
            }
            if a.ns != AttrNamespace::None {
                continue;
            }
            if a.name == local_name::ID && e.id_attr == NONE {
                e.id_attr = to_u32(start + i);
                e.id_hash = ci_hash(doc.str(a.value));
            } else if a.name == local_name::CLASS && e.class_attr == NONE {
                e.class_attr = to_u32(start + i);
            }
        }
    }

    /// Splits and hashes the classes of every element, if not done yet: what a query that
    /// names a class (or any use of [`TreeIndex::classes_at`] that needs the classes) calls
    /// first. Most first queries name none: the index is built without them.
    pub(crate) fn ensure_classes(&self, doc: &Document) {
        self.classes.get_or_init(|| {
            let mut table = ClassTable::default();
            for (pos, e) in self.elems.iter().enumerate() {
                if e.class_attr != NONE && e.flags & FLAG_DEAD == 0 {
                    table.set(doc, to_u32(pos), e.class_attr);
                }
            }
            self.work.add(table.tokens.len() as u64);
            table
        });
    }

    /// Re-reads the classes of the element at `pos`, if the classes were split.
    fn update_classes(&mut self, doc: &Document, pos: u32) {
        let class_attr = self.elems[pos as usize].class_attr;
        if let Some(table) = self.classes.get_mut() {
            table.set(doc, pos, class_attr);
        }
    }

    /// The candidate list of `kind`, from the live elements.
    fn build_list(&self, kind: ListKind) -> Vec<(u32, u32)> {
        let mut list = Vec::new();
        if kind == ListKind::LocalName {
            list.reserve(self.elems.len() - self.dead as usize);
        }
        let mut visit = |pos: u32| {
            let e = &self.elems[pos as usize];
            if e.flags & FLAG_DEAD != 0 {
                return;
            }
            match kind {
                ListKind::LocalName => list.push((e.name_hash, pos)),
                ListKind::Id if e.id_attr != NONE => list.push((e.id_hash, pos)),
                ListKind::Id => {}
                ListKind::Class => {
                    list.extend(self.classes_at(pos).iter().map(|c| (c.hash, pos)));
                }
            }
        };
        // In document order (so that a stable sort by hash orders each run by it).
        match &self.order {
            None => (0..to_u32(self.elems.len())).for_each(&mut visit),
            Some(o) => {
                let mut pos = o.head;
                while let Some(&next) = o.succ.get(pos as usize) {
                    visit(pos);
                    pos = next;
                }
            }
        }
        sort_by_hash(&mut list);
        list.dedup();
        self.work.add(list.len() as u64);
        list
    }

    // -----------------------------------------------------------------------------------------
    // Following mutations (see the module documentation).

    /// Whether `node` is the root a tree of this index hangs from.
    fn is_tree_root(&self, node: indextree::NodeId) -> bool {
        self.tree_roots.contains(&node)
    }

    /// Re-reads the attributes of the element `node` (if indexed); an id or class it gained
    /// goes to the lists' additions.
    fn attributes_changed(&mut self, doc: &Document, node: indextree::NodeId) {
        let (Some(pos), Some(data)) = (self.pos_of(node), doc.element_data(node)) else {
            return;
        };
        let mut e = self.elems[pos as usize];
        let old_id = (e.id_attr != NONE).then_some(e.id_hash);
        let old_classes: Vec<u32> = self.classes_at(pos).iter().map(|c| c.hash).collect();
        self.read_attributes(doc, &mut e, data);
        self.elems[pos as usize] = e;
        self.update_classes(doc, pos);
        let key = Keys(self.order.as_deref()).key(pos);
        let lists = &mut self.lists;
        if e.id_attr != NONE && old_id != Some(e.id_hash) && lists.is_built(ListKind::Id) {
            lists.add_extra(ListKind::Id, e.id_hash, key, pos);
        }
        for c in classes_in(&self.classes, pos) {
            if !old_classes.contains(&c.hash) && lists.is_built(ListKind::Class) {
                lists.add_extra(ListKind::Class, c.hash, key, pos);
            }
        }
        if lists.extra.len() > (lists.len() / 8).max(256) {
            // Fold the additions in at the next rebuild.
            self.lists = Lists::default();
        }
    }

    /// Marks the element `node` and its subtree dead (it left its tree) and links its element
    /// siblings to each other. Costs the size of the subtree.
    fn kill(&mut self, node: indextree::NodeId) {
        let Some(pos) = self.pos_of(node) else {
            return;
        };
        let e = self.elems[pos as usize];
        if let Some(p) = self.elems.get_mut(e.prev as usize) {
            p.next = e.next;
        }
        if let Some(n) = self.elems.get_mut(e.next as usize) {
            n.prev = e.prev;
        }
        let with_lists = self.lists.len() > 0;
        let mut killed = Vec::new();
        let stop = self.after_subtree(pos);
        let mut q = pos;
        while self.before(q, stop) {
            let d = self.elems[q as usize];
            if d.flags & FLAG_DEAD != 0 {
                // Dead with an earlier removal: skip its subtree.
                q = self.after_subtree(q);
                continue;
            }
            self.elems[q as usize].flags |= FLAG_DEAD;
            self.dead += 1;
            if let Some(slot) = usize::from(d.node)
                .checked_sub(1)
                .and_then(|slot| self.slot_pos.get_mut(slot))
            {
                *slot = 0;
            }
            if with_lists {
                killed.push(q);
            }
            q = self.succ(q);
        }
        if !with_lists {
            return;
        }
        // Keep the dead out of the front of the runs they head, so that a query for the
        // first match does not wade through earlier removals.
        let mut lists = std::mem::take(&mut self.lists);
        for &q in &killed {
            let d = &self.elems[q as usize];
            lists.advance_front(&self.elems, ListKind::LocalName, d.name_hash);
            if d.id_attr != NONE {
                lists.advance_front(&self.elems, ListKind::Id, d.id_hash);
            }
            for c in self.classes_at(q) {
                lists.advance_front(&self.elems, ListKind::Class, c.hash);
            }
        }
        self.lists = lists;
    }

    /// The index position of the first element among `start` and the nodes `step` leads to
    /// from it (a bounded look of [`NEIGHBOUR_STEPS`] nodes): `Some(NONE)` when the steps end
    /// with no element, `None` when the element is not indexed or lies beyond the look.
    fn nearest_element_pos(
        &self,
        arena: &indextree::Arena<NodeData>,
        start: Option<indextree::NodeId>,
        step: impl Fn(&indextree::Node<NodeData>) -> Option<indextree::NodeId>,
    ) -> Option<u32> {
        let mut at = start;
        for _ in 0..NEIGHBOUR_STEPS {
            let c = match at {
                None => return Some(NONE),
                Some(c) => c,
            };
            if matches!(arena[c].get(), NodeData::Element(_)) {
                return self.pos_of(c);
            }
            at = step(&arena[c]);
        }
        at.is_none().then_some(NONE)
    }

    /// Adds the elements of `nodes` (just inserted under `parent`, in order, after
    /// [`Document::index_inserting`] took them out of the index if they were in it), in the
    /// index's only tree; false (and the index is to be dropped) when it cannot.
    ///
    /// Elements that follow every element of a flat index are appended and keep it flat.
    /// Anywhere else, the index keeps its document order in an [`Order`] (made on the first
    /// such insertion, a pass over the elements that its build paid for): the new elements
    /// go right before their next element sibling, else right after the last element of
    /// `parent`'s subtree (whose ancestors' subtrees then end with them). Costs the size of
    /// what was inserted, plus, without a next sibling, the ancestors whose subtree grows
    /// (bounded: deeper, the index is dropped), plus amortized O(log n) relabeling per
    /// element. See [`Document::index_inserted`].
    fn insert_elements(
        &mut self,
        doc: &Document,
        parent: indextree::NodeId,
        nodes: &[indextree::NodeId],
    ) -> bool {
        let arena = &doc.arena;
        let is_element = |c: indextree::NodeId| matches!(arena[c].get(), NodeData::Element(_));
        let (Some(pp), Some(&first), Some(&last), [_]) = (
            self.pos_of(parent),
            nodes.first(),
            nodes.last(),
            &self.trees[..],
        ) else {
            return false;
        };
        if !nodes.iter().any(|&c| is_element(c)) {
            return true;
        }
        let n = to_u32(self.elems.len());
        // The next element sibling of the last inserted node, and the previous one of the
        // first (a bounded look: beyond, give up).
        let Some(next_el) =
            self.nearest_element_pos(arena, arena[last].next_sibling(), |c| c.next_sibling())
        else {
            return false;
        };
        let Some(mut prev) =
            self.nearest_element_pos(arena, arena[first].previous_sibling(), |c| {
                c.previous_sibling()
            })
        else {
            return false;
        };
        // After every element of a flat index (`parent`'s subtree ends it, so its ancestors'
        // do too): appended, the index stays flat.
        let flat_append =
            self.order.is_none() && next_el == NONE && self.elems[pp as usize].end == n;
        if !flat_append && !self.make_ordered() {
            return false;
        }
        // The ancestors whose subtree grows (bounded), and the element the new ones follow in
        // document order.
        let mut growing = Vec::new();
        let mut anchor = NONE;
        match self.order.as_deref() {
            None => {
                let mut a = pp;
                while a != NONE {
                    if growing.len() >= ANCESTOR_STEPS {
                        return false;
                    }
                    growing.push(a);
                    a = self.elems[a as usize].parent;
                }
            }
            Some(o) if next_el != NONE => anchor = o.pred[next_el as usize],
            Some(o) => {
                let l = o.last[pp as usize];
                anchor = l;
                let mut a = pp;
                while a != NONE && o.last[a as usize] == l {
                    if growing.len() >= ANCESTOR_STEPS {
                        return false;
                    }
                    growing.push(a);
                    a = self.elems[a as usize].parent;
                }
            }
        }
        if self.order.is_some() && anchor == NONE {
            return false;
        }
        if self.slot_pos.len() < arena.len() {
            self.slot_pos.resize(arena.len(), 0);
        }
        for &node in nodes {
            if !is_element(node) {
                continue;
            }
            let pos = to_u32(self.elems.len());
            self.add_subtree(doc, node, pp, prev);
            if let Some(p) = self.elems.get_mut(prev as usize) {
                p.next = pos;
            }
            prev = pos;
        }
        let end = to_u32(self.elems.len());
        self.work.add(u64::from(end - n));
        if self.classes.get().is_some() {
            for q in n..end {
                self.update_classes(doc, q);
            }
        }
        if next_el != NONE {
            self.elems[prev as usize].next = next_el;
            self.elems[next_el as usize].prev = prev;
        }
        self.trees[0].1 = end;
        if let Some(o) = self.order.as_deref_mut() {
            // Each new element's subtree is `pos..end` among the new positions (added in
            // document order): its last element is `end - 1`.
            for q in n..end {
                let last = self.elems[q as usize].end.max(q + 1) - 1;
                o.label.push(0);
                o.succ.push(NONE);
                o.pred.push(NONE);
                o.last.push(last);
            }
            for &a in &growing {
                o.last[a as usize] = end - 1;
            }
            let mut at = anchor;
            for q in n..end {
                if !self.order_insert_after(at, q) {
                    return false;
                }
                at = q;
            }
        } else {
            for &a in &growing {
                self.elems[a as usize].end = end;
            }
        }
        // The candidate lists built so far (empty ones too): the new elements are additions.
        if self.lists.by_kind.iter().any(|list| list.get().is_some()) {
            let keys = self.order.as_deref();
            for pos in n..end {
                let e = self.elems[pos as usize];
                let key = Keys(keys).key(pos);
                let lists = &mut self.lists;
                if lists.is_built(ListKind::LocalName) {
                    lists.add_extra(ListKind::LocalName, e.name_hash, key, pos);
                }
                if e.id_attr != NONE && lists.is_built(ListKind::Id) {
                    lists.add_extra(ListKind::Id, e.id_hash, key, pos);
                }
                if lists.is_built(ListKind::Class) {
                    for c in classes_in(&self.classes, pos) {
                        lists.add_extra(ListKind::Class, c.hash, key, pos);
                    }
                }
            }
            if self.lists.extra.len() > (self.lists.len() / 8).max(256) {
                self.lists = Lists::default();
            }
        }
        true
    }

    /// Keeps document order in an [`Order`] from now on (see [`TreeIndex::insert_elements`]):
    /// labels spread evenly over the label space, in position order. False for an index of
    /// several trees, or too many elements for the labels.
    fn make_ordered(&mut self) -> bool {
        if self.order.is_some() {
            return true;
        }
        let n = self.elems.len();
        if self.trees.len() != 1 || (n as f64 + 2.0) > density_limit(LABEL_BITS) {
            return false;
        }
        let step = LABEL_LIMIT / (n as u64 + 2);
        let order = Order {
            label: (0..n as u64).map(|p| (p + 1) * step).collect(),
            succ: (1..=n)
                .map(|p| if p < n { to_u32(p) } else { NONE })
                .collect(),
            pred: (0..n)
                .map(|p| p.checked_sub(1).map_or(NONE, to_u32))
                .collect(),
            last: self
                .elems
                .iter()
                .enumerate()
                .map(|(p, e)| e.end.max(to_u32(p) + 1) - 1)
                .collect(),
            head: if n > 0 { 0 } else { NONE },
        };
        // The additions were keyed by position.
        let extra = std::mem::take(&mut self.lists.extra);
        self.lists.extra = extra
            .into_iter()
            .map(|(kind, hash, _, pos)| (kind, hash, order.label[pos as usize], pos))
            .collect();
        self.work.add(n as u64);
        self.order = Some(Box::new(order));
        true
    }

    /// Puts the position `q` (a new element) right after `a` in document order, with a label
    /// between theirs, relabeling first when there is no room; false when labels run out.
    fn order_insert_after(&mut self, a: u32, q: u32) -> bool {
        let room = |o: &Order| {
            let lo = o.label[a as usize];
            let next = o.succ[a as usize];
            let hi = if next == NONE {
                LABEL_LIMIT
            } else {
                o.label[next as usize]
            };
            (lo, hi)
        };
        let Some(o) = self.order.as_deref() else {
            return false;
        };
        let (mut lo, mut hi) = room(o);
        if hi - lo < 2 {
            if !self.relabel(a) {
                return false;
            }
            let Some(o) = self.order.as_deref() else {
                return false;
            };
            (lo, hi) = room(o);
            if hi - lo < 2 {
                return false;
            }
        }
        let Some(o) = self.order.as_deref_mut() else {
            return false;
        };
        let next = o.succ[a as usize];
        o.label[q as usize] = lo + ((hi - lo) / 2).min(1 << 32);
        o.succ[q as usize] = next;
        o.pred[q as usize] = a;
        o.succ[a as usize] = q;
        if next != NONE {
            o.pred[next as usize] = q;
        }
        true
    }

    /// Makes room after `a`: finds the smallest aligned range of labels around `a`'s (of
    /// size 2^i) that holds at most [`density_limit`]`(i)` elements, one more counted, and
    /// spreads its elements evenly over it, leaving a free label after `a` (Bender et al.,
    /// see [`Order`]). The range's elements are counted by walking out from `a`: the cost is
    /// their number, amortized O(log n) per insertion. False when even the whole label
    /// space is too dense.
    fn relabel(&mut self, a: u32) -> bool {
        let TreeIndex {
            order, lists, work, ..
        } = self;
        let Some(o) = order.as_deref_mut() else {
            return false;
        };
        let x = o.label[a as usize];
        let (mut left, mut right, mut count) = (a, a, 1u64);
        for i in 2..=LABEL_BITS {
            let size = 1u64 << i;
            let base = x & !(size - 1);
            loop {
                let p = o.pred[left as usize];
                if p == NONE || o.label[p as usize] < base {
                    break;
                }
                left = p;
                count += 1;
            }
            loop {
                let s = o.succ[right as usize];
                if s == NONE || o.label[s as usize] >= base + size {
                    break;
                }
                right = s;
                count += 1;
            }
            if (count + 1) as f64 > density_limit(i) {
                continue;
            }
            // `count + 1` labels, `spacing` apart (at least 2 for i >= 3), the one after
            // `a` left free.
            let spacing = size / (count + 2);
            let mut k = 1;
            let mut p = left;
            loop {
                let old = o.label[p as usize];
                let new = base + k * spacing;
                o.label[p as usize] = new;
                if !lists.extra.is_empty() {
                    lists.rekey(p, old, new);
                }
                k += if p == a { 2 } else { 1 };
                if p == right {
                    break;
                }
                p = o.succ[p as usize];
            }
            work.add(count);
            return true;
        }
        false
    }

    /// Whether the dead outnumber the live (the index is then better rebuilt).
    fn mostly_dead(&self) -> bool {
        self.dead as usize * 2 > self.elems.len()
    }
}

/// [`ci_hash`] of a local name; static names' hashes are computed once per process.
#[inline]
fn name_hash(doc: &Document, name: LocalName) -> u32 {
    static STATIC_HASHES: OnceLock<Box<[u32]>> = OnceLock::new();
    if name.is_static() {
        let hashes = STATIC_HASHES.get_or_init(|| {
            (0..STATIC_NAME_COUNT as u32)
                .map(|i| ci_hash(LocalName(i).as_static_str().unwrap_or("")))
                .collect()
        });
        if let Some(&h) = hashes.get(name.0 as usize) {
            return h;
        }
    }
    ci_hash(doc.name_str(name))
}

/// Sorts `(hash, position)` pairs listed in document order by hash, keeping the positions of
/// equal hashes in order: a stable least-significant-digit radix sort on the hash's four
/// bytes (linear), or a stable comparison sort for short lists.
fn sort_by_hash(list: &mut Vec<(u32, u32)>) {
    if list.len() < 256 {
        list.sort_by_key(|&(hash, _)| hash);
        return;
    }
    let mut buffer = vec![(0u32, 0u32); list.len()];
    for shift in [0, 8, 16, 24] {
        let mut counts = [0usize; 256];
        for &(hash, _) in list.iter() {
            counts[((hash >> shift) & 0xff) as usize] += 1;
        }
        if counts.contains(&list.len()) {
            continue;
        }
        let mut offsets = [0usize; 256];
        let mut sum = 0;
        for (offset, count) in offsets.iter_mut().zip(counts) {
            *offset = sum;
            sum += count;
        }
        for &entry in list.iter() {
            let bucket = ((entry.0 >> shift) & 0xff) as usize;
            buffer[offsets[bucket]] = entry;
            offsets[bucket] += 1;
        }
        std::mem::swap(list, &mut buffer);
    }
}

/// Where a walk over the document's tree may start for one selector: no element before `node`
/// (in document order) matches it; with `node` `None`, no element of the tree does. The
/// selector layer keeps its selector in `key` (the DOM layer only stores it). Only plain
/// compound selectors have hints: whether an element matches one depends on the element
/// alone, so removing other elements keeps the hint true; a removal that takes `node` moves it
/// to the next node (`None` past the last), any other change drops it.
pub(crate) type WalkHint = Hint<Option<indextree::NodeId>>;

/// Where a scan of the selector index for one selector may start: no element of the
/// document's tree before position `pos` in document order matches it (with `pos` [`NONE`]:
/// no element does). Only for selectors whose matching depends on an element and its
/// ancestors alone (plain compounds joined by child and descendant combinators): removals
/// keep such a hint true (the elements before `pos` that stay keep their ancestors, and a
/// dead `pos` is skipped by the scan); an insertion of elements, an attribute change or a new
/// index drops it. The selector layer keeps its selector in `key`.
pub(crate) type ScanHint = Hint<u32>;

/// A place kept for one selector ([`WalkHint`], [`ScanHint`]): the selector layer's key for
/// its selector and where its next search may start.
#[derive(Clone)]
pub(crate) struct Hint<T> {
    key: Arc<dyn Any + Send + Sync>,
    at: T,
}

impl<T: Copy> Hint<T> {
    /// The place kept in `slot`, if it is for the selector `is_key` recognizes.
    fn read(
        slot: &Mutex<Option<Hint<T>>>,
        is_key: impl FnOnce(&(dyn Any + Send + Sync)) -> bool,
    ) -> Option<T> {
        let hint = lock(slot);
        let hint = hint.as_ref()?;
        is_key(&*hint.key).then_some(hint.at)
    }

    /// Keeps `at` in `slot` for the selector `is_key` recognizes; `make_key` makes its key
    /// when the kept hint is for another.
    fn write(
        slot: &Mutex<Option<Hint<T>>>,
        is_key: impl FnOnce(&(dyn Any + Send + Sync)) -> bool,
        make_key: impl FnOnce() -> Arc<dyn Any + Send + Sync>,
        at: T,
    ) {
        let mut hint = lock(slot);
        match hint.as_mut() {
            // The same selector as last time (a loop of queries): no new key.
            Some(h) if is_key(&*h.key) => h.at = at,
            _ => {
                *hint = Some(Hint {
                    key: make_key(),
                    at,
                })
            }
        }
    }
}

/// How far a removal looks up from the hint for the removed node (beyond, it drops the hint:
/// a removal never costs more than a constant here, whatever the depth).
const HINT_STEPS: usize = 64;

/// How far an insertion looks among the inserted nodes' siblings for element neighbours before
/// it gives up appending to the index (see [`Document::index_inserted`]).
const NEIGHBOUR_STEPS: usize = 64;

/// How deep an insertion may be for the index to be extended (each ancestor's subtree grows).
const ANCESTOR_STEPS: usize = 1024;

/// A document's selector index, and what decides when to build it.
#[derive(Default)]
pub(crate) struct IndexCache {
    index: OnceLock<Box<TreeIndex>>,
    /// When `index` has dead elements: an index without them, for the queries that need the
    /// tree-wide HTML state (which is computed over every element of an index).
    compact: OnceLock<Box<TreeIndex>>,
    /// Elements and nodes visited by queries without the index (chain indexes for `closest`
    /// and `matches`, walks for first queries) since it was last dropped: once they add up to
    /// about one pass over the document, building the whole index is cheaper than going on.
    unindexed: Counter,
    /// The last walk's hint (see [`WalkHint`]).
    hint: Mutex<Option<WalkHint>>,
    /// The same for a scan of the index (see [`Document::scan_hint`]).
    scan_hint: Mutex<Option<ScanHint>>,
    /// Elements indexed by whole-document builds (for tests that count work).
    indexed: Counter,
    /// During one insertion into the indexed tree: the index, taken out before the nodes move
    /// (see [`Document::index_inserting`]), to be put back with the new elements appended
    /// after they have ([`Document::index_inserted`]); never kept past the mutation.
    stash: Option<Box<TreeIndex>>,
}

impl Clone for IndexCache {
    fn clone(&self) -> IndexCache {
        IndexCache {
            index: self.index.clone(),
            compact: self.compact.clone(),
            unindexed: self.unindexed.clone(),
            indexed: self.indexed.clone(),
            hint: Mutex::new(lock(&self.hint).clone()),
            scan_hint: Mutex::new(lock(&self.scan_hint).clone()),
            stash: None,
        }
    }
}

/// The hint, whether or not a panicking thread poisoned its lock (it holds no invariant).
fn lock<T>(hint: &Mutex<Option<Hint<T>>>) -> std::sync::MutexGuard<'_, Option<Hint<T>>> {
    hint.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Document {
    /// The selector index of this document, built on first use and kept up to date by
    /// mutations; its positions may not be in document order (see [`TreeIndex::is_flat`]).
    pub(crate) fn query_index(&self) -> &TreeIndex {
        self.index_cache().index.get_or_init(|| self.build_index())
    }

    /// A new index of the whole document.
    fn build_index(&self) -> Box<TreeIndex> {
        let index = TreeIndex::for_document(self);
        self.index_cache().indexed.add(index.elems.len() as u64);
        Box::new(index)
    }

    /// An index of the document whose positions are in document order (see
    /// [`TreeIndex::is_flat`]), with its template contents: the selector index if it is
    /// flat, else one built for the purpose (kept until the next mutation).
    pub(crate) fn select_index(&self) -> &TreeIndex {
        let shared = self.query_index();
        if shared.is_flat() {
            return shared;
        }
        self.index_cache()
            .compact
            .get_or_init(|| self.build_index())
    }

    /// A flat index of the document without dead elements: the selector index if it is one,
    /// else one built for the purpose (kept until the next mutation).
    pub(crate) fn compact_index(&self) -> &TreeIndex {
        let shared = self.query_index();
        if !shared.has_dead() && shared.is_flat() {
            return shared;
        }
        self.index_cache()
            .compact
            .get_or_init(|| self.build_index())
    }

    /// The selector index, if it is built.
    pub(crate) fn built_index(&self) -> Option<&TreeIndex> {
        self.index_cache().index.get().map(|index| &**index)
    }

    /// Counts `n` elements or nodes visited by a query without the index (a chain index for
    /// `closest` or `matches`, a walk for a first query); true when such work since the index
    /// was dropped adds up to about one pass over the document, and the whole index is worth
    /// building.
    pub(crate) fn note_unindexed(&self, n: usize) -> bool {
        let cache = self.index_cache();
        cache.unindexed.add(n as u64);
        !self.may_go_unindexed()
    }

    /// Whether queries may still go without the index (see [`Document::note_unindexed`]).
    pub(crate) fn may_go_unindexed(&self) -> bool {
        self.index_cache().unindexed.get() < (self.arena.len() as u64).max(64)
    }

    /// The node a walk for the selector that `is_key` recognizes may start from, if a hint
    /// for it is kept (see [`WalkHint`]; `Some(None)`: no element matches).
    pub(crate) fn walk_hint(
        &self,
        is_key: impl FnOnce(&(dyn Any + Send + Sync)) -> bool,
    ) -> Option<Option<indextree::NodeId>> {
        Hint::read(&self.index_cache().hint, is_key)
    }

    /// Keeps a hint: no element before `node` (with `None`: no element) matches the selector
    /// that `is_key` recognizes; `make_key` makes its key when the kept hint is for another.
    pub(crate) fn set_walk_hint(
        &self,
        is_key: impl FnOnce(&(dyn Any + Send + Sync)) -> bool,
        make_key: impl FnOnce() -> Arc<dyn Any + Send + Sync>,
        node: Option<indextree::NodeId>,
    ) {
        Hint::write(&self.index_cache().hint, is_key, make_key, node);
    }

    /// The position a scan of the selector index for the selector that `is_key` recognizes
    /// may start from, if a hint for it is kept (see [`ScanHint`]; `Some(NONE)`: no element
    /// matches).
    pub(crate) fn scan_hint(
        &self,
        is_key: impl FnOnce(&(dyn Any + Send + Sync)) -> bool,
    ) -> Option<u32> {
        Hint::read(&self.index_cache().scan_hint, is_key)
    }

    /// Keeps a scan hint: no element before `pos` (with [`NONE`]: no element) matches the
    /// selector that `is_key` recognizes; `make_key` makes its key when the kept hint is for
    /// another.
    pub(crate) fn set_scan_hint(
        &self,
        is_key: impl FnOnce(&(dyn Any + Send + Sync)) -> bool,
        make_key: impl FnOnce() -> Arc<dyn Any + Send + Sync>,
        pos: u32,
    ) {
        Hint::write(&self.index_cache().scan_hint, is_key, make_key, pos);
    }

    /// The hint after `node` leaves the tree: unchanged if `node` does not hold the hint's
    /// node, else the next node after `node`'s subtree (or none).
    fn hint_removing(&mut self, node: indextree::NodeId) {
        let arena = &self.arena;
        let root = self.root;
        let Some(state) = super::state_mut(&mut self.ext) else {
            return;
        };
        let hint = state
            .index
            .hint
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(h) = hint.as_mut() else {
            return;
        };
        let Some(hint_node) = h.at else {
            // No element matches: still none once one is gone.
            return;
        };
        // Is the hint's node in `node`'s subtree?
        let mut a = Some(hint_node);
        let mut inside = None;
        for _ in 0..HINT_STEPS {
            match a {
                Some(n) if n == node => {
                    inside = Some(true);
                    break;
                }
                Some(n) if n == root => {
                    inside = Some(false);
                    break;
                }
                Some(n) => a = arena.get(n).and_then(|n| n.parent()),
                None => {
                    inside = Some(false);
                    break;
                }
            }
        }
        match inside {
            Some(false) => {}
            Some(true) => {
                // The next node after the subtree: the next sibling of `node` or of its
                // nearest ancestor that has one; none (no element left to match) past the
                // tree's last node.
                let mut next = None;
                let mut m = node;
                for _ in 0..HINT_STEPS {
                    if let Some(sibling) = arena[m].next_sibling() {
                        next = Some(Some(sibling));
                        break;
                    }
                    match arena[m].parent() {
                        Some(p) if p != root => m = p,
                        _ => {
                            next = Some(None);
                            break;
                        }
                    }
                }
                match next {
                    Some(next) => h.at = next,
                    None => *hint = None,
                }
            }
            None => *hint = None,
        }
    }

    /// Drops the hints (an element may match now that did not).
    fn drop_hint(&mut self) {
        let Some(state) = super::state_mut(&mut self.ext) else {
            return;
        };
        *state
            .index
            .hint
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        *state
            .index
            .scan_hint
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }

    /// Drops the selector index (the next query that needs it builds it again).
    fn drop_index(&mut self) {
        let Some(state) = super::state_mut(&mut self.ext) else {
            return;
        };
        let cache = &mut state.index;
        *cache
            .scan_hint
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        cache.index = OnceLock::new();
        cache.compact = OnceLock::new();
        cache.unindexed.set(0);
    }

    /// Index upkeep: any mutation of the tree (drops the state derived from the whole tree).
    pub(crate) fn index_tree_changed(&mut self) {
        let Some(state) = super::state_mut(&mut self.ext) else {
            return;
        };
        let cache = &mut state.index;
        cache.stash = None;
        cache.compact = OnceLock::new();
        if let Some(index) = cache.index.get_mut() {
            index.html = crate::dom::hooks::SlotCell::default();
        }
    }

    /// Index upkeep: the attributes of the element `node` changed.
    pub(crate) fn index_attributes_changed(&mut self, node: indextree::NodeId) {
        self.index_tree_changed();
        self.drop_hint();
        let taken = super::state_mut(&mut self.ext).and_then(|s| s.index.index.take());
        if let Some(mut index) = taken {
            index.attributes_changed(self, node);
            if let Some(state) = super::state_mut(&mut self.ext) {
                let _ = state.index.index.set(index);
            }
        }
    }

    /// Index upkeep: `node` is about to leave its tree (removed or detached), with its
    /// subtree; for a fragment or a template's contents, its children.
    pub(crate) fn index_removing(&mut self, node: indextree::NodeId) {
        self.index_tree_changed();
        self.hint_removing(node);
        let arena = &self.arena;
        let Some(index) = super::state_mut(&mut self.ext).and_then(|s| s.index.index.get_mut())
        else {
            return;
        };
        match arena.get(node).map(|n| n.get()) {
            Some(NodeData::Element(_)) => index.kill(node),
            Some(NodeData::Fragment | NodeData::Document) => {
                for c in node.children(arena) {
                    index.kill(c);
                }
            }
            _ => {}
        }
        if index.mostly_dead() {
            self.drop_index();
        }
    }

    /// Index upkeep: `node` (or, for a fragment, its children) is about to be inserted under
    /// `parent`, moving from wherever it is.
    pub(crate) fn index_inserting(&mut self, parent: indextree::NodeId, node: indextree::NodeId) {
        let arena = &self.arena;
        let has_elements = match arena[node].get() {
            NodeData::Element(_) => true,
            NodeData::Fragment => node
                .children(arena)
                .any(|c| matches!(arena[c].get(), NodeData::Element(_))),
            _ => false,
        };
        if !has_elements {
            self.index_tree_changed();
            return;
        }
        self.drop_hint();
        let Some(index) = self.built_index() else {
            return;
        };
        let into_index = index.pos_of(parent).is_some() || index.is_tree_root(parent);
        // They leave the index's trees (if they were in one).
        self.index_removing(node);
        if into_index {
            // Elements enter an indexed tree: they can be appended to its flat order only
            // if they end up after all its elements, which is known once they have moved
            // (`index_inserted`). Until then the index is out of the document.
            let Some(state) = super::state_mut(&mut self.ext) else {
                return;
            };
            let index = state.index.index.take();
            self.drop_index();
            if let Some(state) = super::state_mut(&mut self.ext) {
                state.index.stash = index;
            }
        }
    }

    /// Index upkeep: `nodes` (elements, texts, ...) were inserted under `parent`, in this
    /// order, after [`Document::index_inserting`]. When they follow every element of the
    /// indexed tree (the common `append` to an element whose subtree ends the document), their
    /// elements are appended to the index taken out before the insertion, which is put back;
    /// otherwise the index stays dropped (the next query that needs it builds it again).
    /// Costs the size of what was inserted plus the depth of `parent` (bounded: deeper, the
    /// index is dropped).
    pub(crate) fn index_inserted(
        &mut self,
        parent: indextree::NodeId,
        nodes: &[indextree::NodeId],
    ) {
        let Some(mut index) = super::state_mut(&mut self.ext).and_then(|s| s.index.stash.take())
        else {
            return;
        };
        // The option/select steps change the tree without index upkeep: no appending while
        // they may run.
        if self.element_steps || !self.template_contents.is_empty() {
            return;
        }
        if index.insert_elements(self, parent, nodes) {
            if let Some(state) = super::state_mut(&mut self.ext) {
                if state.index.index.get().is_none() {
                    let _ = state.index.index.set(index);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl TreeIndex {
        /// Builds the candidate lists now (and splits the classes first, as a query naming
        /// a class would).
        fn force_lists(&self, doc: &Document) -> &Lists {
            self.ensure_classes(doc);
            for kind in [ListKind::Id, ListKind::Class, ListKind::LocalName] {
                self.lists.by_kind[kind as usize].get_or_init(|| self.build_list(kind));
            }
            &self.lists
        }
    }

    #[test]
    fn links_and_subtrees() {
        let doc = Document::parse("<div id=a><p class='x  Y'>1</p>t<p>2<b>3</b></p></div><i></i>");
        let index = doc.select_index();
        let names: Vec<&str> = index.elems.iter().map(|e| doc.name_str(e.name)).collect();
        assert_eq!(names, ["html", "head", "body", "div", "p", "p", "b", "i"]);
        let div = &index.elems[3];
        assert_eq!((div.parent, div.end, div.prev, div.next), (2, 7, NONE, 7));
        let p1 = &index.elems[4];
        assert_eq!((p1.parent, p1.end, p1.prev, p1.next), (3, 5, NONE, 5));
        assert!(index.classes_at(4).is_empty(), "split on first use");
        index.ensure_classes(&doc);
        assert_eq!(index.classes_at(4).len(), 2);
        assert_eq!(index.elems[0].flags & FLAG_ROOT, FLAG_ROOT);
        assert_eq!(index.elems[1].flags & FLAG_ROOT, 0);
        assert!(
            index.lists_with(ListKind::Id, false).is_none(),
            "lists wait for repeated queries"
        );
        let lists = index.force_lists(&doc);
        let all = (0, index.elems.len() as u32);
        assert_eq!(
            lists
                .range(ListKind::Class, ci_hash("y"), all.0, all.1)
                .len(),
            1
        );
        assert_eq!(
            lists
                .range(ListKind::LocalName, ci_hash("p"), all.0, all.1)
                .len(),
            2
        );
        assert_eq!(
            lists
                .range(ListKind::LocalName, ci_hash("p"), 5, all.1)
                .len(),
            1
        );
        let ids = lists.range(ListKind::Id, ci_hash("A"), all.0, all.1);
        assert_eq!(&lists.list(ListKind::Id)[ids], &[(ci_hash("a"), 3)]);
        for (pos, e) in index.elems.iter().enumerate() {
            assert_eq!(index.pos_of(e.node), Some(pos as u32));
        }
    }

    #[test]
    fn lists_are_built_after_repeated_scans() {
        let doc = Document::parse("<p><p><p>");
        let index = doc.select_index();
        let n = index.elems.len() as u32;
        for _ in 0..LIST_SCANS {
            assert!(index.lists_with(ListKind::LocalName, false).is_none());
            index.note_scan(n);
        }
        let lists = index.lists_with(ListKind::LocalName, false).unwrap();
        assert!(lists.is_built(ListKind::LocalName) && !lists.is_built(ListKind::Class));
        // A costly test wants its list at once.
        let fresh = Document::parse("<p class=a><p>");
        let index = fresh.select_index();
        assert!(index.lists_with(ListKind::Class, true).is_some());
    }

    #[test]
    fn mutations_update_the_index_in_place() {
        let mut doc = Document::parse("<div id=a><p class=x>1</p><p>2<b>3</b></p><i></i></div>");
        let ids: Vec<crate::NodeId> = doc
            .root()
            .descendants()
            .filter(|n| n.is_element())
            .map(|n| n.node_id())
            .collect();
        let (p1, p2, b, i) = (ids[4], ids[5], ids[6], ids[7]);
        doc.select_index().force_lists(&doc);
        // An attribute edit rewrites the entry and keeps the index.
        doc.set_attribute(p2, "class", "y z").unwrap();
        let index = doc.built_index().expect("kept");
        assert_eq!(index.classes_at(index.pos_of(p2.raw).unwrap()).len(), 2);
        let lists = &index.lists;
        assert_eq!(
            lists.extra(ListKind::Class, ci_hash("z"), 0, 100).count(),
            1
        );
        // A removal leaves tombstones and links the siblings.
        doc.remove(p2).unwrap();
        let index = doc.built_index().expect("kept");
        assert!(index.pos_of(p2.raw).is_none() && index.pos_of(b.raw).is_none());
        assert_eq!(index.dead, 2);
        let (pp1, pi) = (index.pos_of(p1.raw).unwrap(), index.pos_of(i.raw).unwrap());
        assert_eq!((index.elem(pp1).next, index.elem(pi).prev), (pi, pp1));
        // Removing the first child: the parent's first child is the next live one.
        doc.detach(p1).unwrap();
        let index = doc.built_index().expect("kept");
        let div = index.pos_of(ids[3].raw).unwrap();
        assert_eq!(index.first_child(div), index.pos_of(i.raw).unwrap());
        // Inserting an element into a detached tree keeps the index; appending after every
        // element of the tree extends it (a move: the old place was already dead).
        let span = doc.new_element("span").unwrap();
        doc.append(p1, span).unwrap();
        assert!(doc.built_index().is_some());
        doc.append(ids[3], p1).unwrap();
        let index = doc.built_index().expect("extended");
        let (pp1, pspan, pdiv) = (
            index.pos_of(p1.raw).unwrap(),
            index.pos_of(span.raw).unwrap(),
            index.pos_of(ids[3].raw).unwrap(),
        );
        let pi = index.pos_of(i.raw).unwrap();
        assert_eq!(pp1 as usize, index.elems.len() - 2);
        assert_eq!(
            (
                index.elem(pp1).parent,
                index.elem(pp1).prev,
                index.elem(pi).next
            ),
            (pdiv, pi, pp1)
        );
        assert_eq!(
            (index.elem(pspan).parent, index.elem(pp1).end),
            (pp1, pspan + 1)
        );
        assert_eq!(index.elem(pdiv).end as usize, index.elems.len());
        // Inserting before an element keeps it, in document order by labels.
        let b2 = doc.new_element("b").unwrap();
        doc.insert_before(p1, b2).unwrap();
        let index = doc.built_index().expect("kept");
        assert!(!index.is_flat());
        let (pb2, pp1) = (index.pos_of(b2.raw).unwrap(), index.pos_of(p1.raw).unwrap());
        let keys = index.keys();
        assert!(keys.key(pi) < keys.key(pb2) && keys.key(pb2) < keys.key(pp1));
        assert_eq!((index.elem(pb2).prev, index.elem(pb2).next), (pi, pp1));
        assert_eq!((index.elem(pi).next, index.elem(pp1).prev), (pb2, pb2));
        assert!(index.contains(pdiv, pb2) && !index.contains(pb2, pp1));
        assert_eq!(index.succ(pi), pb2);
    }

    #[test]
    fn appending_at_the_end_extends_the_index() {
        let mut doc = Document::parse("<div id=a><p class=x>1</p></div><section><ul><li>a</ul>");
        let selectors = [
            "li",
            "section li",
            "div + section > *",
            ".x, .y",
            "#b",
            "ul > li + li",
        ];
        let selectors: Vec<crate::Selector> = selectors
            .iter()
            .map(|s| crate::Selector::parse(s).unwrap())
            .collect();
        // Build the index and its lists.
        for _ in 0..3 {
            for s in &selectors {
                doc.select(s).count();
            }
        }
        let ul = doc
            .select_first(&crate::Selector::parse("ul").unwrap())
            .unwrap()
            .node_id();
        for k in 0..20 {
            let li = doc.new_element("li").unwrap();
            doc.set_attribute(li, "class", if k % 2 == 0 { "y" } else { "z" })
                .unwrap();
            if k == 7 {
                doc.set_attribute(li, "id", "b").unwrap();
            }
            let text = doc.new_text("t");
            doc.append(li, text).unwrap();
            doc.append(ul, li).unwrap();
            assert!(doc.built_index().is_some(), "kept after append {k}");
            // The same answers as a fresh index of a copy.
            let fresh = Document::parse(&doc.html());
            for s in &selectors {
                let ours: Vec<String> = doc.select(s).map(|e| e.html()).collect();
                let theirs: Vec<String> = fresh.select(s).map(|e| e.html()).collect();
                assert_eq!(ours, theirs, "{k}");
            }
        }
        // A fragment of a text and two elements, appended to the body.
        let body = doc.body().unwrap().node_id();
        let fragment = doc.new_fragment();
        for name in ["li", "p"] {
            let e = doc.new_element(name).unwrap();
            doc.append(fragment, e).unwrap();
        }
        doc.append(body, fragment).unwrap();
        assert!(doc.built_index().is_some());
        let fresh = Document::parse(&doc.html());
        for s in &selectors {
            assert_eq!(doc.select(s).count(), fresh.select(s).count());
        }
    }

    #[test]
    fn inserting_before_elements_costs_what_is_inserted() {
        // Loops of (insertion before an element + query) on pages of n and 4n elements: the
        // index is never rebuilt, and the work of its upkeep (elements written and relabeled,
        // candidate list entries rebuilt) per step does not grow with the page. Work is
        // counted, not timed.
        let sel = crate::Selector::parse("section > p.new").unwrap();
        let section = crate::Selector::parse("section").unwrap();
        let mut per_step = Vec::new();
        for sections in [1000, 4000] {
            let html = "<section><h2>t</h2><ul><li>a<li>b</ul></section>".repeat(sections);
            let mut doc = Document::parse(&html);
            assert!(doc.select_first(&sel).is_none());
            let last = doc.select(&section).last().unwrap().node_id();
            let (first, second) = {
                let s = doc.node(last).unwrap();
                let mut children = s.children().filter(|c| c.is_element());
                (
                    children.next().unwrap().node_id(),
                    children.next().unwrap().node_id(),
                )
            };
            let step = |doc: &mut Document, k: usize| {
                let p = doc.new_element("p").unwrap();
                doc.set_attribute(p, "class", "new").unwrap();
                // Before the same element (labels run out between two neighbours), and
                // alternately before its previous sibling.
                let before = if k.is_multiple_of(3) { first } else { second };
                doc.insert_before(before, p).unwrap();
                assert!(doc.select_first(&sel).is_some());
            };
            step(&mut doc, 0);
            let index = doc.built_index().expect("kept");
            assert!(!index.is_flat());
            let (work, indexed) = (index.work.get(), doc.index_cache().indexed.get());
            let steps = 3000;
            for k in 1..=steps {
                step(&mut doc, k);
            }
            let index = doc.built_index().expect("kept");
            assert_eq!(doc.index_cache().indexed.get(), indexed, "never rebuilt");
            per_step.push((index.work.get() - work) as f64 / steps as f64);
            // The answers are right: every `p.new`, in document order.
            let ps: Vec<crate::NodeId> = doc.select(&sel).map(|e| e.node_id()).collect();
            let walked: Vec<crate::NodeId> = doc
                .root()
                .descendants()
                .filter(|n| n.as_element().is_some_and(|e| e.matches(&sel)))
                .map(|n| n.node_id())
                .collect();
            assert_eq!(ps.len(), steps + 1);
            assert_eq!(ps, walked);
        }
        eprintln!("upkeep per step: {per_step:?}");
        // Relabeling is amortized O(log n), candidate lists are rebuilt once their additions
        // reach an eighth of them (O(8) per addition): a few dozen elements per step, whatever
        // the page.
        assert!(per_step[0] < 64.0 && per_step[1] < 64.0, "{per_step:?}");
        assert!(per_step[1] < per_step[0] * 1.5 + 4.0, "{per_step:?}");
    }

    #[test]
    fn a_mostly_dead_index_is_dropped() {
        let mut doc = Document::parse(&"<p>x".repeat(20));
        doc.select_index();
        let ps: Vec<crate::NodeId> = doc
            .root()
            .descendants()
            .filter(|n| n.as_element().is_some_and(|e| e.name() == local_name::P))
            .map(|n| n.node_id())
            .collect();
        for (k, p) in ps.iter().enumerate() {
            doc.remove(*p).unwrap();
            let expect_kept = (k + 1) * 2 <= 23;
            assert_eq!(doc.built_index().is_some(), expect_kept, "after {k}");
            if !expect_kept {
                break;
            }
        }
    }

    #[test]
    fn chain_index_holds_ancestors_and_their_siblings() {
        let doc = Document::parse("<ul><li>a<li><b>b</b><i></i><li></ul><p>");
        let b = doc
            .root()
            .descendants()
            .find(|n| n.as_element().is_some_and(|e| e.name() == local_name::B))
            .unwrap();
        let (index, pos) = TreeIndex::for_chain(&doc, b.raw_id(), true).unwrap();
        let names: Vec<&str> = index.elems.iter().map(|e| doc.name_str(e.name)).collect();
        // html; head, body; ul, p; li x3; b, i.
        assert_eq!(
            names,
            [
                "html", "head", "body", "ul", "p", "li", "li", "li", "b", "i"
            ]
        );
        assert_eq!(pos, 8);
        let li = index.elem(pos).parent;
        assert_eq!((li, index.elem(li).prev, index.elem(li).next), (6, 5, 7));
        assert_eq!(index.elem(index.elem(li).parent).parent, 2);
        assert_eq!(index.elems[0].flags & FLAG_ROOT, FLAG_ROOT);
        assert!(index.pos_of(b.raw_id()).is_none());
        let (index, pos) = TreeIndex::for_chain(&doc, b.raw_id(), false).unwrap();
        let names: Vec<&str> = index.elems.iter().map(|e| doc.name_str(e.name)).collect();
        assert_eq!(names, ["html", "body", "ul", "li", "b"]);
        assert_eq!(
            (pos, index.elem(pos).prev, index.elem(3).next),
            (4, NONE, NONE)
        );
    }

    #[test]
    fn ci_hash_folds_ascii_case_only() {
        // Every byte value against its ASCII lowercase, at every offset of a 17-byte string
        // (both 8-byte words and the remainder).
        for b in 0u8..=255 {
            for at in 0..17 {
                let mut upper = vec![b'x'; 17];
                upper[at] = b;
                let mut lower = upper.clone();
                lower[at] = b.to_ascii_lowercase();
                let (u, l) = (
                    String::from_utf8_lossy(&upper).into_owned(),
                    String::from_utf8_lossy(&lower).into_owned(),
                );
                assert_eq!(ci_hash(&u), ci_hash(&l), "{b:#x} at {at}");
                if b.is_ascii() && !b.is_ascii_alphabetic() && b != b'x' {
                    assert_ne!(ci_hash(&u), ci_hash(&"x".repeat(17)), "{b:#x} at {at}");
                }
            }
        }
        assert_eq!(ci_hash("Main-NAV_1"), ci_hash("main-nav_1"));
        assert_ne!(ci_hash("ab"), ci_hash("ab\0"));
        assert_ne!(ci_hash("é"), ci_hash("É"));
        // Collisions as a random 32-bit function would have (n^2 / 2^33 expected: 18.6 for
        // 400,000 strings), for similar names of every length.
        for (format, expected) in [("class-", 18.6), ("", 18.6), ("a-very-long-prefix-x", 18.6)] {
            let n = 400_000;
            let hashes: std::collections::HashSet<u32> =
                (0..n).map(|i| ci_hash(&format!("{format}{i}"))).collect();
            let collisions = n - hashes.len();
            eprintln!("{format:?}: {collisions}");
            assert!(
                (collisions as f64) < expected * 2.0,
                "{format:?}: {collisions}"
            );
        }
    }

    #[test]
    fn radix_sort_orders_by_hash_then_position() {
        let mut list: Vec<(u32, u32)> = (0..5000u32)
            .map(|pos| {
                (
                    (pos.wrapping_mul(2_654_435_761) % 977).wrapping_mul(0x0101_0101),
                    pos,
                )
            })
            .collect();
        let mut expected = list.clone();
        expected.sort_unstable();
        sort_by_hash(&mut list);
        assert_eq!(list, expected);
    }

    #[test]
    fn detached_and_deep_trees() {
        let mut doc = Document::parse("<p>");
        let div = doc.new_element("div").unwrap();
        let span = doc.new_element("span").unwrap();
        let text = doc.new_text("t");
        doc.append(div, text).unwrap();
        doc.append(div, span).unwrap();
        let index = TreeIndex::for_tree(&doc, div.raw);
        assert_eq!(index.elems.len(), 2);
        assert_eq!((index.elems[0].end, index.elems[1].parent), (2, 0));
        let deep = Document::parse(&"<i>".repeat(50_000));
        let index = deep.select_index();
        let last = index.elems.len() as u32 - 1;
        assert_eq!(index.elems[last as usize].end, last + 1);
        assert!(index.elems[3..].iter().all(|e| e.end == last + 1));
    }

    #[test]
    fn template_contents_are_separate_trees() {
        let doc = Document::parse("<template><p>x</p></template><p>y</p>");
        let index = doc.select_index();
        assert_eq!(index.trees.len(), 2);
        let (start, end) = index.trees[1];
        assert_eq!(end - start, 1);
        assert_eq!(index.elems[start as usize].parent, NONE);
    }
}
