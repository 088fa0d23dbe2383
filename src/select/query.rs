//! Running a selector over a document: candidates, the ancestor Bloom filter, one set of
//! caches per query, and linear-time `:has()`.
//!
//! A query visits candidate elements in document order and asks the `selectors` crate whether
//! each matches (right to left, as browsers match). The candidates are every element of the
//! scope, or, when the rightmost compound of every selector names an id, a class or a local
//! name, only the elements of the index's list for that key (the shortest one). While it walks,
//! the query keeps the candidate's ancestors in a counting Bloom filter (pushed and popped as
//! document order enters and leaves subtrees, so each element is pushed at most once per
//! query), and the crate rejects a selector such as `.nav a` at once for an `a` with no
//! `.nav` ancestor.
//!
//! Matching one element at a time walks ancestors and earlier siblings for every candidate,
//! which some shapes make quadratic (`p ~ li` over a hundred thousand siblings, `div:empty
//! div` down a deep chain). A query counts those steps; past a budget linear in the size of
//! the tree it computes the rest of its answer a set at a time ([`match_all`]), linear in the
//! size of the tree times the number of compounds. `:has()` is always computed a set at a time
//! ([`has_matches`]). Nothing here recurses on the tree.

use std::cell::OnceCell;

use selectors::Element;
use selectors::attr::{AttrSelectorOperation, NamespaceConstraint};
use selectors::bloom::BloomFilter;
use selectors::context::{
    MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags,
    QuirksMode as EngineQuirks, SelectorCaches,
};
use selectors::matching::{
    CompoundSelectorMatchingResult, matches_compound_selector_from, matches_selector, select_name,
    to_unconditional_case_sensitivity,
};
use selectors::parser::{Combinator, Component, Selector as RawSelector, SelectorList};
use selectors::visitor::SelectorVisitor;

use super::Selector;
use super::element::{El, Tree};
use super::parser::{
    HasArg, HtmlImpl, Key, NsUrl, Parsed, RelativePlan, is_plain_component, key_of,
};
use super::pseudo::PseudoClass;
use super::walk::{self, Walk};
use crate::dom::{Document, ElementRef, NodeRef, QuirksMode};
use crate::query::index::{FLAG_DEAD, ListKind, Lists, NONE, Scope, TreeIndex};

/// Per-query state that matching reaches through `MatchingContext::extra_data`: the results
/// of each `:has()` of the selector for every element of the index, computed on first use.
pub(crate) struct MatchState {
    /// By id: the results of each `:has()` and text pseudo-class (see `text.rs`).
    pub(crate) has: Box<[OnceCell<Box<[bool]>>]>,
}

impl MatchState {
    fn new(has_count: usize) -> MatchState {
        MatchState {
            has: (0..has_count).map(|_| OnceCell::new()).collect(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// :has()

/// Whether `el` matches the `:has()` whose argument is `arg`.
///
/// The first time a query needs a `:has()`, it computes which elements of the whole index
/// match it (see [`relative_matches`]) and keeps that in its [`MatchState`]: linear in the
/// size of the tree, however many anchors ask.
pub(crate) fn has_matches(
    el: El<'_>,
    arg: &HasArg,
    context: &mut MatchingContext<'_, HtmlImpl>,
) -> bool {
    let state = context.extra_data;
    if let Some(cell) = state.and_then(|s| s.has.get(arg.id)) {
        let all = cell.get_or_init(|| has_all(el, arg, context));
        return all.get(el.pos as usize).copied().unwrap_or(false);
    }
    has_all(el, arg, context)
        .get(el.pos as usize)
        .copied()
        .unwrap_or(false)
}

/// For every element of `el`'s index: whether it matches `:has(arg)`.
fn has_all(el: El<'_>, arg: &HasArg, context: &mut MatchingContext<'_, HtmlImpl>) -> Box<[bool]> {
    let mut all: Option<Vec<bool>> = None;
    for plan in arg.plans.iter() {
        let one = relative_matches(el, plan, context);
        match &mut all {
            None => all = Some(one.member),
            Some(all) => {
                for pos in one.list {
                    all[pos as usize] = true;
                }
            }
        }
    }
    all.unwrap_or_default().into_boxed_slice()
}

/// A set of elements of an index: membership, and the members in insertion order.
struct Set {
    member: Vec<bool>,
    list: Vec<u32>,
}

impl Set {
    fn new(n: usize) -> Set {
        Set {
            member: vec![false; n],
            list: Vec::new(),
        }
    }

    /// Adds `pos`; false if it was there.
    #[inline]
    fn insert(&mut self, pos: u32) -> bool {
        match self.member.get_mut(pos as usize) {
            Some(m) if !*m => {
                *m = true;
                self.list.push(pos);
                true
            }
            _ => false,
        }
    }
}

/// For every element A of the index: whether the relative selector `plan` matches with A as
/// its anchor (Selectors 4, "The Relational Pseudo-class": the anchor matches when some element
/// matches the relative selector with it as the anchor).
///
/// With compounds `s1 .. sn` and combinators `K1 .. Kn` (`K1` links the anchor to `s1`), let
/// `P_n` be the elements that match `s_n`, and `P_i` those that match `s_i` and have some `e'`
/// in `P_{i+1}` with `e K_{i+1} e'`; the anchors are the elements A with some `e` in `P_1` and
/// `A K1 e`. Right to left, each step keeps the set of elements that can reach the rest
/// ([`reach`]): a compound is matched only on that set (or, for the rightmost, on the
/// candidate list of its id, class or local name), and reaching walks each element's
/// ancestors or earlier siblings only until it meets one already reached. The whole costs
/// O(elements × compounds) at worst, with no recursion, whatever the shape of the tree.
fn relative_matches(
    el: El<'_>,
    plan: &RelativePlan,
    context: &mut MatchingContext<'_, HtmlImpl>,
) -> Set {
    let index = el.index();
    let n = index.elems.len();
    let mut p: Option<Set> = None;
    for (i, step) in plan.steps.iter().enumerate().rev() {
        let gate = match (&p, plan.steps.get(i + 1)) {
            (Some(p), Some(next)) => Some(reach(index, p, next.combinator)),
            _ => None,
        };
        let mut matched = Set::new(n);
        let mut test = |pos: u32, matched: &mut Set| {
            if !index.is_dead(pos)
                && compound_matches(&plan.selector, step.offset, El { pos, ..el }, context)
            {
                matched.insert(pos);
            }
        };
        match &gate {
            Some(gate) => {
                for &pos in &gate.list {
                    test(pos, &mut matched);
                }
            }
            None => match candidates(index, &step.keys) {
                Some(positions) => {
                    for pos in positions {
                        test(pos, &mut matched);
                    }
                }
                None => {
                    for pos in 0..n as u32 {
                        test(pos, &mut matched);
                    }
                }
            },
        }
        p = Some(matched);
    }
    match (p, plan.steps.first()) {
        (Some(p), Some(first)) => reach(index, &p, first.combinator),
        _ => Set::new(n),
    }
}

/// The candidate list to visit for a compound with `keys` within `lo..hi`: the shortest of
/// those built, and of the list of the first kind among ids, classes and local names that the
/// compound names (built now if queries have paid for it, or if testing a candidate is
/// `costly`; see [`TreeIndex::lists_with`]); none without lists.
fn choose_list<'i>(
    index: &'i TreeIndex,
    keys: &[Key],
    lo: u64,
    hi: u64,
    costly: bool,
) -> Option<(&'i Lists, ListKind, u32, std::ops::Range<usize>)> {
    let first = keys.iter().map(|&(kind, _)| kind).min()?;
    let lists = index.lists_with(first, costly)?;
    let order = index.keys();
    keys.iter()
        .filter(|&&(kind, _)| kind == first || lists.is_built(kind))
        .map(|&(kind, hash)| {
            (
                lists,
                kind,
                hash,
                lists.range_keys(kind, hash, lo, hi, order),
            )
        })
        .min_by_key(|(_, _, _, range)| range.len())
}

/// The positions of the shortest of the index's candidate lists named by `keys` (over the
/// whole index, see [`choose_list`]), with the entries added since it was built, in order;
/// none without lists.
fn candidates(index: &TreeIndex, keys: &[Key]) -> Option<Vec<u32>> {
    let all = u64::MAX;
    // Compounds are matched with the selector engine's full matching: a list pays at once.
    let (lists, kind, hash, range) = choose_list(index, keys, 0, all, true)?;
    let mut positions: Vec<u32> = lists.list(kind)[range]
        .iter()
        .map(|&(_, pos)| pos)
        .collect();
    let before = positions.len();
    positions.extend(lists.extra(kind, hash, 0, all).map(|(_, pos)| pos));
    if positions.len() > before {
        positions.sort_unstable();
        positions.dedup();
    }
    Some(positions)
}

/// Whether `el` matches the compound of `selector` that starts at parse-order `offset`.
fn compound_matches(
    selector: &RawSelector<HtmlImpl>,
    offset: usize,
    el: El<'_>,
    context: &mut MatchingContext<'_, HtmlImpl>,
) -> bool {
    !matches!(
        matches_compound_selector_from(selector, offset, context, el),
        CompoundSelectorMatchingResult::NotMatched
    )
}

/// The elements `e` with some `e'` in `p` such that `e K e'`: parents, ancestors, previous
/// siblings or earlier siblings of the members of `p`. Each walk stops at an element already
/// reached (whose own ancestors or earlier siblings were reached with it), so the whole is
/// linear in the size of the index.
fn reach(index: &TreeIndex, p: &Set, combinator: Combinator) -> Set {
    let mut r = Set::new(index.elems.len());
    let elems = &index.elems;
    let parent = |pos: u32| elems[pos as usize].parent;
    let prev = |pos: u32| elems[pos as usize].prev;
    match combinator {
        Combinator::Child => {
            for &pos in &p.list {
                let a = parent(pos);
                if a != NONE {
                    r.insert(a);
                }
            }
        }
        Combinator::Descendant => {
            for &pos in &p.list {
                let mut a = parent(pos);
                while a != NONE && r.insert(a) {
                    a = parent(a);
                }
            }
        }
        Combinator::NextSibling => {
            for &pos in &p.list {
                let s = prev(pos);
                if s != NONE {
                    r.insert(s);
                }
            }
        }
        Combinator::LaterSibling => {
            for &pos in &p.list {
                let mut s = prev(pos);
                while s != NONE && r.insert(s) {
                    s = prev(s);
                }
            }
        }
        // Pseudo-elements, parts and slots are not allowed in :has().
        Combinator::PseudoElement | Combinator::Part | Combinator::SlotAssignment => {}
    }
    r
}

// ---------------------------------------------------------------------------------------------
// Queries.

fn engine_quirks(q: QuirksMode) -> EngineQuirks {
    match q {
        QuirksMode::NoQuirks => EngineQuirks::NoQuirks,
        QuirksMode::LimitedQuirks => EngineQuirks::LimitedQuirks,
        QuirksMode::Quirks => EngineQuirks::Quirks,
    }
}

/// Whether `el` matches any selector of `parsed`.
fn matches_at(
    parsed: &Parsed,
    el: El<'_>,
    scope: Option<u32>,
    bloom: Option<&BloomFilter>,
    caches: &mut SelectorCaches,
    state: &MatchState,
    quirks: EngineQuirks,
) -> bool {
    if parsed.all_simple {
        return parsed
            .list
            .slice()
            .iter()
            .zip(parsed.pseudo.iter())
            .any(|(selector, pseudo)| !pseudo && simple_matches(selector, el, quirks));
    }
    let mut context = MatchingContext::new(
        MatchingMode::Normal,
        bloom,
        caches,
        quirks,
        NeedsSelectorFlags::No,
        MatchingForInvalidation::No,
    );
    context.extra_data = Some(state);
    context.scope_element = scope.map(|pos| El { pos, ..el }.opaque());
    for (i, selector) in parsed.list.slice().iter().enumerate() {
        if parsed.pseudo[i] {
            continue;
        }
        if parsed.compound[i] {
            // One compound: no ancestor to filter, no combinator to follow. Matching it as a
            // compound tests the same simple selectors, without the complex-selector driver
            // (whose setup dominates the cost of such a simple test).
            if compound_matches(selector, 0, el, &mut context) {
                return true;
            }
            continue;
        }
        let hashes = bloom.and(parsed.hashes.get(i)).map(|(standard, quirky)| {
            if quirks == EngineQuirks::Quirks {
                quirky
            } else {
                standard
            }
        });
        if matches_selector(selector, 0, hashes, el, &mut context) {
            return true;
        }
    }
    false
}

/// Whether `el` matches `selector`, a compound of type, universal, namespace, id, class and
/// attribute-in-no-namespace selectors: each tested as `selectors::matching` tests it
/// (`matches_simple_selector`), through the same `Element` methods, without building a
/// matching context (most of the cost of such a test).
fn simple_matches(selector: &RawSelector<HtmlImpl>, el: El<'_>, quirks: EngineQuirks) -> bool {
    let ids_and_classes = quirks.classes_and_ids_case_sensitivity();
    selector
        .iter_raw_match_order()
        .all(|component| match component {
            Component::LocalName(name) => {
                el.has_local_name(select_name(el, &name.name, &name.lower_name))
            }
            Component::ID(id) => el.has_id(id, ids_and_classes),
            Component::Class(class) => el.has_class(class, ids_and_classes),
            Component::AttributeInNoNamespaceExists {
                local_name,
                local_name_lower,
            } => el.has_attr_in_no_namespace(select_name(el, local_name, local_name_lower)),
            Component::AttributeInNoNamespace {
                local_name,
                operator,
                value,
                case_sensitivity,
            } => el.attr_matches(
                &NamespaceConstraint::Specific(&NsUrl::default()),
                local_name,
                &AttrSelectorOperation::WithValue {
                    operator: *operator,
                    case_sensitivity: to_unconditional_case_sensitivity(*case_sensitivity, el),
                    value,
                },
            ),
            Component::ExplicitUniversalType | Component::ExplicitAnyNamespace => true,
            Component::ExplicitNoNamespace => el.has_namespace(&NsUrl::default()),
            Component::DefaultNamespace(url) | Component::Namespace(_, url) => {
                el.has_namespace(url)
            }
            // Not a simple selector: `Parsed::all_simple` excludes these.
            _ => false,
        })
}

/// What matching a selector may look at beyond an element and its ancestors.
#[derive(Clone, Copy, Default)]
struct Reach {
    /// The whole tree: `:has()`, or a pseudo-class that reads the tree-wide HTML state (see
    /// `pseudo.rs`).
    whole_tree: bool,
    /// Siblings (of the element or of an ancestor): a sibling combinator, or a
    /// `:nth-child()`-like pseudo-class (`:first-child`, `:only-of-type`, ...).
    siblings: bool,
}

/// What `parsed` may look at (see [`Reach`]).
fn reach_of(parsed: &Parsed) -> Reach {
    struct Visitor(Reach);
    impl SelectorVisitor for Visitor {
        type Impl = HtmlImpl;
        fn visit_simple_selector(&mut self, component: &Component<HtmlImpl>) -> bool {
            use PseudoClass::*;
            match component {
                Component::NonTSPseudoClass(
                    Checked | Indeterminate | Default | Disabled | Enabled | ReadWrite | ReadOnly
                    | Lang(_) | Has(_) | Text(_),
                )
                | Component::Has(_) => self.0.whole_tree = true,
                Component::Nth(_) | Component::NthOf(_) => self.0.siblings = true,
                _ => {}
            }
            !self.0.whole_tree
        }
        fn visit_complex_selector(&mut self, combinator_to_right: Option<Combinator>) -> bool {
            if matches!(
                combinator_to_right,
                Some(Combinator::NextSibling | Combinator::LaterSibling)
            ) {
                self.0.siblings = true;
            }
            !self.0.whole_tree
        }
    }
    let mut visitor = Visitor(Reach::default());
    for selector in parsed.list.slice() {
        selector.visit(&mut visitor);
    }
    visitor.0
}

/// Whether matching a selector reads state computed over a whole flat index (`html::forms`:
/// form controls, directionality, languages, validity), or the whole tree: a query with it
/// runs on an index whose positions are in document order (see `TreeIndex::is_flat`).
fn needs_flat(parsed: &Parsed) -> bool {
    *parsed.flat.get_or_init(|| compute_needs_flat(parsed))
}

fn compute_needs_flat(parsed: &Parsed) -> bool {
    struct Visitor(bool);
    impl SelectorVisitor for Visitor {
        type Impl = HtmlImpl;
        fn visit_simple_selector(&mut self, component: &Component<HtmlImpl>) -> bool {
            use PseudoClass::*;
            if let Component::NonTSPseudoClass(pc) = component {
                // Those that read only the element itself.
                if !matches!(
                    pc,
                    Never(_)
                        | Link
                        | AnyLink
                        | WebkitAnyLink
                        | Defined
                        | State(_)
                        | ActiveViewTransitionType(_)
                ) {
                    self.0 = true;
                }
            }
            if matches!(component, Component::Has(_)) {
                self.0 = true;
            }
            !self.0
        }
    }
    if needs_whole_tree(parsed) {
        return true;
    }
    let mut visitor = Visitor(false);
    for selector in parsed.list.slice() {
        selector.visit(&mut visitor);
    }
    visitor.0
}

/// Whether matching `parsed` depends only on an element and its ancestors: every selector is
/// made of plain compounds (see `Parsed::all_simple`) joined by child and descendant
/// combinators (see `ScanHint`).
fn ancestors_only(parsed: &Parsed) -> bool {
    *parsed
        .ancestors_only
        .get_or_init(|| compute_ancestors_only(parsed))
}

fn compute_ancestors_only(parsed: &Parsed) -> bool {
    parsed.list.slice().iter().all(|s| {
        s.iter_raw_match_order().all(|c| {
            is_plain_component(c)
                || matches!(
                    c,
                    Component::Combinator(Combinator::Child | Combinator::Descendant)
                )
        })
    })
}

/// Whether a selector needs the whole tree beyond an element's ancestors and their siblings.
fn needs_whole_tree(parsed: &Parsed) -> bool {
    *parsed
        .whole_tree
        .get_or_init(|| reach_of(parsed).whole_tree)
}

/// The document's index for a query with `parsed`: the selector index, or, when elements left
/// the tree since it was built and the selector reads the tree-wide HTML state, an index
/// without them.
fn document_index<'a>(doc: &'a Document, parsed: &Parsed) -> &'a TreeIndex {
    let index = doc.query_index();
    if (index.has_dead() && needs_whole_tree(parsed)) || (!index.is_flat() && needs_flat(parsed)) {
        doc.compact_index()
    } else {
        index
    }
}

/// The index an element belongs to: the document's, or (for an element of a detached
/// subtree) a temporary one of its tree.
enum IndexRef<'a> {
    Shared(&'a TreeIndex),
    Owned(Box<TreeIndex>),
    /// None (a query that walks the tree): an empty index, not allocated per query.
    Empty,
}

impl IndexRef<'_> {
    #[inline]
    fn get(&self) -> &TreeIndex {
        static EMPTY: std::sync::LazyLock<TreeIndex> = std::sync::LazyLock::new(TreeIndex::default);
        match self {
            IndexRef::Shared(index) => index,
            IndexRef::Owned(index) => index,
            IndexRef::Empty => &EMPTY,
        }
    }
}

/// The index that holds `el` (see [`document_index`]), and its position there.
fn index_for<'a>(el: ElementRef<'a>, parsed: &Parsed) -> (IndexRef<'a>, u32) {
    let doc = el.document();
    let shared = document_index(doc, parsed);
    if let Some(pos) = shared.pos_of(el.raw_id()) {
        return (IndexRef::Shared(shared), pos);
    }
    // A detached subtree: index the tree it belongs to.
    let top = el.ancestors().last().unwrap_or(el.as_node());
    let owned = Box::new(TreeIndex::for_tree(doc, top.raw_id()));
    let pos = owned.pos_of(el.raw_id()).unwrap_or(0);
    (IndexRef::Owned(owned), pos)
}

/// An index that holds `el` for matching from it upwards (`matches`, `closest`), and its
/// position there: the document's if it is built; else, for a selector that looks only up and
/// sideways, a chain index of `el`'s ancestors, and their siblings if it looks at any (see
/// [`TreeIndex::for_chain`]), until such chains add up to a fraction of the document and
/// building the whole index is the cheaper way on; else [`index_for`].
fn upward_index<'a>(el: ElementRef<'a>, parsed: &Parsed) -> (IndexRef<'a>, u32) {
    let doc = el.document();
    let node = el.raw_id();
    let reach = reach_of(parsed);
    let whole_tree = reach.whole_tree;
    if let Some(shared) = doc.built_index() {
        if let Some(pos) = shared.pos_of(node) {
            if !(whole_tree && shared.has_dead()) && (shared.is_flat() || !needs_flat(parsed)) {
                return (IndexRef::Shared(shared), pos);
            }
        }
    }
    if !whole_tree {
        if let Some((chain, pos)) = TreeIndex::for_chain(doc, node, reach.siblings) {
            // Indexing an element costs about what walking over two nodes does.
            if !doc.note_unindexed(2 * chain.elems.len()) || doc.built_index().is_some() {
                return (IndexRef::Owned(Box::new(chain)), pos);
            }
        }
    }
    index_for(el, parsed)
}

/// Where a query takes its candidates from.
enum Cursor {
    /// Every element from `next` on, in document order, before `stop` (see `Scope`); with a
    /// `key`, only those that have it (the id, a class or the local name: a compare per
    /// element, where a candidate list would cost a pass and a sort to build).
    Range {
        next: u32,
        stop: u32,
        key: Option<Key>,
    },
    /// Entries `next..end` of one of the index's candidate lists (which is built).
    List {
        kind: ListKind,
        next: usize,
        end: usize,
    },
    /// Entries `next..end` of a built list for `(kind, hash)`, merged in order with the
    /// positions from `extra_from` to `hi` added to it since it was built (elements appended
    /// to the index, ids and classes gained): one step per candidate, so that a loop of
    /// appends and `select_first` does not gather all the additions at each query.
    ListExtra {
        kind: ListKind,
        hash: u32,
        next: usize,
        end: usize,
        extra_from: u64,
        hi: u64,
    },
    /// Positions gathered from several lists (sorted, without duplicates).
    Merged {
        positions: Vec<u32>,
        next: usize,
    },
    Done,
}

impl Cursor {
    /// The next live candidate (dead elements are skipped, a dead subtree in one step).
    #[inline]
    fn next(&mut self, index: &TreeIndex, scanned: &mut u32) -> Option<u32> {
        match self {
            Cursor::Range { next, stop, key } => {
                let has_key = |pos: u32, e: &crate::query::index::Elem| match *key {
                    None => true,
                    Some((ListKind::LocalName, hash)) => e.name_hash == hash,
                    Some((ListKind::Id, hash)) => e.id_attr != NONE && e.id_hash == hash,
                    Some((ListKind::Class, hash)) => {
                        index.classes_at(pos).iter().any(|c| c.hash == hash)
                    }
                };
                if index.is_flat() {
                    // Positions in document order: a pass over the slice.
                    let elems = &index.elems;
                    let end = (*stop as usize).min(elems.len());
                    let mut pos = *next as usize;
                    while let Some(e) = elems.get(pos).filter(|_| pos < end) {
                        if e.flags & FLAG_DEAD != 0 {
                            pos = (e.end as usize).max(pos + 1);
                            continue;
                        }
                        pos += 1;
                        *scanned += 1;
                        if has_key(pos as u32 - 1, e) {
                            *next = pos as u32;
                            return Some(pos as u32 - 1);
                        }
                    }
                    *next = *stop;
                    return None;
                }
                while index.before(*next, *stop) {
                    let pos = *next;
                    let e = index.elem(pos);
                    if e.flags & FLAG_DEAD != 0 {
                        *next = index.after_subtree(pos);
                        continue;
                    }
                    *next = index.succ(pos);
                    *scanned += 1;
                    if has_key(pos, e) {
                        return Some(pos);
                    }
                }
                None
            }
            Cursor::List { kind, next, end } => {
                let list = index.lists_with(*kind, true)?.list(*kind);
                while *next < *end {
                    *next += 1;
                    let pos = list.get(*next - 1)?.1;
                    if !index.is_dead(pos) {
                        return Some(pos);
                    }
                }
                None
            }
            Cursor::ListExtra {
                kind,
                hash,
                next,
                end,
                extra_from,
                hi,
            } => {
                let lists = index.lists_with(*kind, true)?;
                let list = lists.list(*kind);
                let keys = index.keys();
                loop {
                    let from_list = list.get(*next).filter(|_| *next < *end).map(|e| e.1);
                    let from_extra = lists.extra(*kind, *hash, *extra_from, *hi).next();
                    let pos = match (from_list, from_extra) {
                        (None, None) => return None,
                        (Some(a), Some((key, b))) if key <= keys.key(a) => {
                            if a == b {
                                *next += 1;
                            }
                            *extra_from = key + 1;
                            b
                        }
                        (Some(a), _) => {
                            *next += 1;
                            a
                        }
                        (None, Some((key, b))) => {
                            *extra_from = key + 1;
                            b
                        }
                    };
                    if !index.is_dead(pos) {
                        return Some(pos);
                    }
                }
            }
            Cursor::Merged { positions, next } => {
                while let Some(&pos) = positions.get(*next) {
                    *next += 1;
                    if !index.is_dead(pos) {
                        return Some(pos);
                    }
                }
                None
            }
            Cursor::Done => None,
        }
    }

    /// The cheapest way to visit every element of `scope` that can match `parsed`.
    fn plan(parsed: &Parsed, index: &TreeIndex, scope: Scope) -> Cursor {
        // (No allocation for the common single selector: a loop of `select_first` plans once
        // per call.)
        let live = || (0..parsed.pseudo.len()).filter(|&i| !parsed.pseudo[i]);
        if live().next().is_none() || scope.is_empty() {
            return Cursor::Done;
        }
        let (lo, hi) = (scope.lo, scope.hi);
        if live().any(|i| parsed.keys[i].is_empty()) {
            return Cursor::Range {
                next: scope.first,
                stop: scope.stop,
                key: None,
            };
        }
        // Plain compounds are tested cheaply (`simple_matches`): a scan costs about what a
        // list does. Other selectors set up full matching per candidate: for several, a scan
        // would match every element in full, and a list pays at once.
        let costly = !parsed.all_simple;
        if let (Some(i), None) = (live().next(), live().nth(1)) {
            // One selector: until queries have paid for the lists, a scan that tests the key
            // first (the keys are ordered ids, classes, local names: the rarest first), so
            // that only the elements with the key are matched in full, as with a list (which
            // costs about ten such scans to build).
            let keys = &parsed.keys[i];
            let Some((lists, kind, hash, range)) = choose_list(index, keys, lo, hi, false) else {
                return Cursor::Range {
                    next: scope.first,
                    stop: scope.stop,
                    key: keys.iter().min().copied(),
                };
            };
            if !lists.has_extra() || lists.extra(kind, hash, lo, hi).next().is_none() {
                return Cursor::List {
                    kind,
                    next: range.start,
                    end: range.end,
                };
            }
            return Cursor::ListExtra {
                kind,
                hash,
                next: range.start,
                end: range.end,
                extra_from: lo,
                hi,
            };
        }
        let live: Vec<usize> = live().collect();
        // For each selector, its candidate list within lo..hi.
        let mut chosen: Vec<(ListKind, u32, std::ops::Range<usize>)> = Vec::new();
        let mut lists = None;
        for &i in &live {
            let Some((l, kind, hash, range)) = choose_list(index, &parsed.keys[i], lo, hi, costly)
            else {
                // Lists would narrow this query: it counts what it scans towards building
                // them (see `Select::next`).
                return Cursor::Range {
                    next: scope.first,
                    stop: scope.stop,
                    key: None,
                };
            };
            lists = Some(l);
            chosen.push((kind, hash, range));
        }
        let Some(lists) = lists else {
            return Cursor::Done;
        };
        let extra = lists.has_extra()
            && chosen
                .iter()
                .any(|&(kind, hash, _)| lists.extra(kind, hash, lo, hi).next().is_some());
        if let ([(kind, _, range)], false) = (chosen.as_slice(), extra) {
            return Cursor::List {
                kind: *kind,
                next: range.start,
                end: range.end,
            };
        }
        let mut positions: Vec<u32> = chosen
            .iter()
            .flat_map(|(kind, hash, range)| {
                lists.list(*kind)[range.clone()]
                    .iter()
                    .map(|&(_, pos)| pos)
                    .chain(lists.extra(*kind, *hash, lo, hi).map(|(_, pos)| pos))
            })
            .collect();
        let keys = index.keys();
        positions.sort_unstable_by_key(|&pos| (keys.key(pos), pos));
        positions.dedup();
        Cursor::Merged { positions, next: 0 }
    }
}

/// The elements that match a [`Selector`], in document order: the iterator that
/// [`Document::select`] and [`ElementRef::select`] return.
///
/// It holds the query's caches (the `selectors` crate's, the ancestor Bloom filter, the
/// results of `:has()`); it allocates when created and while it runs, not per match.
pub struct Select<'a, 'b> {
    doc: &'a Document,
    parsed: &'b Parsed,
    index: IndexRef<'a>,
    cursor: Cursor,
    scope: Option<u32>,
    bloom: Option<Box<BloomFilter>>,
    /// Candidates to match before the Bloom filter is made (`u32::MAX`: never; see
    /// [`BLOOM_AFTER`]).
    bloom_wait: u32,
    /// The ancestors whose hashes are in the Bloom filter, outermost first.
    stack: Vec<u32>,
    chain: Vec<u32>,
    caches: SelectorCaches,
    state: MatchState,
    quirks: EngineQuirks,
    /// Steps taken by matching so far, and how many it may take before the query switches to
    /// matching a set at a time.
    steps: u64,
    budget: u64,
    /// After the switch: which elements of the index match.
    all: Option<Box<[bool]>>,
    /// For a query without the index: its walk (see `walk.rs`).
    walk: Option<Walk>,
    /// For a walk: a test of the local name before matching.
    name_filter: Option<walk::NameFilter>,
    /// For a walk over the document's tree that has not found a match yet: its selector, to
    /// keep as the hint of where the next such walk may start.
    hint_key: Option<&'b SelectorList<HtmlImpl>>,
    /// For a scan of the document's index that has not found a match yet: its selector, to
    /// keep as the hint of where the next such scan may start.
    scan_hint_key: Option<&'b SelectorList<HtmlImpl>>,
    /// Whether the query scans a range that candidate lists would narrow (it then counts the
    /// elements it visits towards building them).
    counts_scan: bool,
}

impl<'a, 'b> Select<'a, 'b> {
    /// All matches among the elements of the document's tree.
    pub(crate) fn document(doc: &'a Document, selector: &'b Selector) -> Select<'a, 'b> {
        if let Some(select) = Select::walking(doc, selector, doc.root) {
            return select;
        }
        let index = document_index(doc, &selector.parsed);
        let scope = index.document_scope();
        let mut select = Select::new(doc, selector, IndexRef::Shared(index), scope, None);
        // Start where the last scan for this selector found its first match, if no mutation
        // since could have made an earlier element match (see `ScanHint`).
        let parsed = &selector.parsed;
        let shared = doc.built_index().is_some_and(|s| std::ptr::eq(s, index));
        if let (Cursor::Range { next, .. }, true) = (&mut select.cursor, shared) {
            if ancestors_only(parsed) {
                match doc.scan_hint(|key| key.downcast_ref() == Some(&parsed.list)) {
                    Some(NONE) => select.cursor = Cursor::Done,
                    // (A dead position is skipped with its subtree.)
                    Some(pos) => *next = pos,
                    None => {}
                }
                select.scan_hint_key = Some(&parsed.list);
            }
        }
        select
    }

    /// All matches among the descendants of `scope`.
    pub(crate) fn descendants(scope: ElementRef<'a>, selector: &'b Selector) -> Select<'a, 'b> {
        if let Some(select) = Select::walking(scope.document(), selector, scope.raw_id()) {
            return select;
        }
        let (index, pos) = index_for(scope, &selector.parsed);
        let range = index.get().descendants_scope(pos);
        Select::new(scope.document(), selector, index, range, Some(pos))
    }

    /// A query that walks the tree below `root` instead of building the index: for a plain
    /// compound selector on a document without an index, until such queries add up to about
    /// one pass over the document (see `walk.rs`).
    fn walking(
        doc: &'a Document,
        selector: &'b Selector,
        root: indextree::NodeId,
    ) -> Option<Select<'a, 'b>> {
        if doc.built_index().is_some()
            || !walk::can_walk(&selector.parsed)
            || !doc.may_go_unindexed()
        {
            return None;
        }
        let empty = Scope {
            first: 0,
            stop: 0,
            lo: 0,
            hi: 0,
        };
        let mut select = Select::new(doc, selector, IndexRef::Empty, empty, None);
        let mut walk = Walk::new(doc, root);
        if root == doc.root {
            // Start where the last walk for this selector found its first match, if no
            // mutation since could have made an earlier element match (see `WalkHint`).
            let list = &selector.parsed.list;
            match doc.walk_hint(|key| key.downcast_ref() == Some(list)) {
                // Mutations keep the hint on a live node of the tree; check anyway.
                Some(Some(start)) if doc.arena.get(start).is_some_and(|n| !n.is_removed()) => {
                    walk = Walk::starting_at(root, Some(start));
                }
                // No element matches.
                Some(None) => walk = Walk::starting_at(root, None),
                _ => {}
            }
            select.hint_key = Some(&selector.parsed.list);
        }
        select.walk = Some(walk);
        select.name_filter = walk::NameFilter::of(&selector.parsed);
        Some(select)
    }

    fn new(
        doc: &'a Document,
        selector: &'b Selector,
        index: IndexRef<'a>,
        range: Scope,
        scope: Option<u32>,
    ) -> Select<'a, 'b> {
        let parsed = &selector.parsed;
        if parsed.names_class {
            index.get().ensure_classes(doc);
        }
        let cursor = Cursor::plan(parsed, index.get(), range);
        let counts_scan = matches!(cursor, Cursor::Range { .. })
            && !parsed.keys.iter().any(|keys| keys.is_empty());
        let budget = 16 * index.get().elems.len() as u64 + 4096;
        Select {
            doc,
            parsed,
            index,
            cursor,
            scope,
            bloom: None,
            bloom_wait: if parsed.uses_bloom {
                BLOOM_AFTER
            } else {
                u32::MAX
            },
            stack: Vec::new(),
            chain: Vec::new(),
            caches: SelectorCaches::default(),
            state: MatchState::new(parsed.has_count),
            quirks: engine_quirks(doc.quirks_mode()),
            steps: 0,
            budget,
            all: None,
            walk: None,
            name_filter: None,
            hint_key: None,
            scan_hint_key: None,
            counts_scan,
        }
    }
}

impl Select<'_, '_> {
    /// For the first result of a walk over the document's tree: keeps where the next walk for
    /// the same selector may start (see `WalkHint`).
    fn keep_hint(&mut self, node: Option<indextree::NodeId>) {
        if let Some(list) = self.hint_key.take() {
            self.doc.set_walk_hint(
                |key| key.downcast_ref() == Some(list),
                || std::sync::Arc::new(list.clone()),
                node,
            );
        }
    }
}

/// How many candidates a query matches without the ancestor Bloom filter before it makes one.
/// The filter is 4 KiB to allocate and zero: more than matching a few candidates in full
/// costs, so a query that finds what it wants among its first candidates (`select_first` in a
/// loop of removals, a query whose candidate list is short) never pays for it.
const BLOOM_AFTER: u32 = 32;

/// Makes the Bloom filter hold exactly the ancestors of `pos`, given that it held those of an
/// earlier element: pops the elements whose subtree ended, pushes the new ancestors.
fn enter(
    doc: &Document,
    index: &TreeIndex,
    bloom: &mut BloomFilter,
    stack: &mut Vec<u32>,
    chain: &mut Vec<u32>,
    pos: u32,
) {
    while let Some(&top) = stack.last() {
        if index.contains(top, pos) {
            break;
        }
        stack.pop();
        El::each_hash(doc, index, top, |h| bloom.remove_hash(h));
    }
    let top = stack.last().copied().unwrap_or(NONE);
    chain.clear();
    let mut a = index.elem(pos).parent;
    while a != NONE && a != top {
        chain.push(a);
        a = index.elem(a).parent;
    }
    for &a in chain.iter().rev() {
        stack.push(a);
        El::each_hash(doc, index, a, |h| bloom.insert_hash(h));
    }
}

impl<'a> Iterator for Select<'a, '_> {
    type Item = ElementRef<'a>;

    fn next(&mut self) -> Option<ElementRef<'a>> {
        if let Some(walk) = &mut self.walk {
            let mut visited = 0;
            let found = loop {
                let Some((node, data, steps)) = walk.next(self.doc) else {
                    // The walk went to the end of the tree from where no element before
                    // could match: none does.
                    self.keep_hint(None);
                    break None;
                };
                visited += steps as usize;
                if self
                    .name_filter
                    .is_none_or(|filter| filter.may_match(self.doc, data))
                    && walk::matches(self.parsed, self.doc, data, self.quirks)
                {
                    self.keep_hint(Some(node));
                    break NodeRef::new(self.doc, node).as_element();
                }
            };
            self.doc.note_unindexed(visited);
            return found;
        }
        let index = self.index.get();
        let tree = Tree::new(self.doc, index);
        tree.steps.set(self.steps);
        // Elements the cursor stepped over (a range's, those without its key included).
        let mut visited = 0;
        let found = loop {
            let Some(pos) = self.cursor.next(index, &mut visited) else {
                break None;
            };
            let matched = match &self.all {
                Some(all) => all.get(pos as usize).copied().unwrap_or(false),
                None => {
                    if self.bloom.is_none() {
                        if self.bloom_wait == 0 {
                            self.bloom = Some(Box::new(BloomFilter::new()));
                            self.stack.clear();
                        } else if self.bloom_wait != u32::MAX {
                            self.bloom_wait -= 1;
                        }
                    }
                    if let Some(bloom) = self.bloom.as_deref_mut() {
                        enter(
                            self.doc,
                            index,
                            bloom,
                            &mut self.stack,
                            &mut self.chain,
                            pos,
                        );
                    }
                    let matched = matches_at(
                        self.parsed,
                        El { tree: &tree, pos },
                        self.scope,
                        self.bloom.as_deref(),
                        &mut self.caches,
                        &self.state,
                        self.quirks,
                    );
                    if tree.steps.get() > self.budget {
                        // Element-at-a-time matching walks ancestors and earlier siblings
                        // once per candidate: quadratic on some shapes (`p ~ li` over a
                        // long list). Past a linear budget, finish a set at a time.
                        self.all = Some(match_all(
                            self.parsed,
                            &tree,
                            self.scope,
                            &mut self.caches,
                            &self.state,
                            self.quirks,
                        ));
                    }
                    matched
                }
            };
            if matched {
                if let Some(e) = NodeRef::new(self.doc, index.elem(pos).node).as_element() {
                    break Some(e);
                }
            }
        };
        self.steps = tree.steps.get();
        if self.counts_scan {
            index.note_scan(visited);
        }
        if let Some(list) = self.scan_hint_key.take() {
            let pos = found.and_then(|e| index.pos_of(e.raw_id())).unwrap_or(NONE);
            self.doc.set_scan_hint(
                |key| key.downcast_ref() == Some(list),
                || std::sync::Arc::new(list.clone()),
                pos,
            );
        }
        found
    }
}

/// Every element of the index that matches `parsed`, computed a set at a time: for each
/// selector, the elements that match its leftmost compound, then, compound by compound, those
/// that match it and follow a member of the previous set by the combinator between them
/// ([`forward`]). Each compound is matched at most once per element and each step is linear:
/// O(elements × compounds), whatever the shape of the tree (where matching one element at a
/// time can walk all ancestors or earlier siblings of every candidate).
fn match_all(
    parsed: &Parsed,
    tree: &Tree<'_>,
    scope: Option<u32>,
    caches: &mut SelectorCaches,
    state: &MatchState,
    quirks: EngineQuirks,
) -> Box<[bool]> {
    let index = tree.index;
    let n = index.elems.len();
    let mut result = vec![false; n];
    let mut context = MatchingContext::new(
        MatchingMode::Normal,
        None,
        caches,
        quirks,
        NeedsSelectorFlags::No,
        MatchingForInvalidation::No,
    );
    context.extra_data = Some(state);
    context.scope_element = scope.map(|pos| El { tree, pos }.opaque());
    for (i, selector) in parsed.list.slice().iter().enumerate() {
        if parsed.pseudo[i] {
            continue;
        }
        // The compounds in parse order: (offset, combinator on the left, keys).
        let mut compounds: Vec<(usize, Option<Combinator>, Vec<Key>)> = Vec::new();
        let mut pending = None;
        for (j, component) in selector.iter_raw_parse_order_from(0).enumerate() {
            if let Component::Combinator(c) = component {
                pending = Some(*c);
                continue;
            }
            if compounds.is_empty() || pending.is_some() {
                compounds.push((j, pending.take(), Vec::new()));
            }
            if let (Some(last), Some(key)) = (compounds.last_mut(), key_of(component)) {
                last.2.push(key);
            }
        }
        let mut m: Option<Set> = None;
        for (offset, combinator, keys) in &compounds {
            let mut next = Set::new(n);
            let mut test = |pos: u32, next: &mut Set| {
                if !index.is_dead(pos)
                    && compound_matches(selector, *offset, El { tree, pos }, &mut context)
                {
                    next.insert(pos);
                }
            };
            match (&m, combinator) {
                (Some(m), Some(c)) => {
                    for pos in forward(index, m, *c).list {
                        test(pos, &mut next);
                    }
                }
                _ => match candidates(index, keys) {
                    Some(positions) => {
                        for pos in positions {
                            test(pos, &mut next);
                        }
                    }
                    None => {
                        for pos in 0..n as u32 {
                            test(pos, &mut next);
                        }
                    }
                },
            }
            m = Some(next);
        }
        for pos in m.map(|m| m.list).unwrap_or_default() {
            result[pos as usize] = true;
        }
    }
    result.into_boxed_slice()
}

/// The elements `e` with some `e'` in `m` such that `e' K e`: children, descendants, next
/// siblings or later siblings of the members of `m`, in linear time.
fn forward(index: &TreeIndex, m: &Set, combinator: Combinator) -> Set {
    let elems = &index.elems;
    let mut r = Set::new(elems.len());
    match combinator {
        Combinator::Child => {
            for &p in &m.list {
                let mut c = index.first_child(p);
                while c != NONE {
                    r.insert(c);
                    c = elems[c as usize].next;
                }
            }
        }
        Combinator::Descendant => {
            // Subtrees in document order; one nested in another is already covered.
            let keys = index.keys();
            let mut members = m.list.clone();
            members.sort_unstable_by_key(|&p| keys.key(p));
            let mut covered = NONE;
            for p in members {
                if covered != NONE && index.contains(covered, p) {
                    continue;
                }
                let stop = index.after_subtree(p);
                let mut d = index.succ(p);
                while index.before(d, stop) {
                    r.insert(d);
                    d = index.succ(d);
                }
                covered = p;
            }
        }
        Combinator::NextSibling => {
            for &p in &m.list {
                let s = elems[p as usize].next;
                if s != NONE {
                    r.insert(s);
                }
            }
        }
        Combinator::LaterSibling => {
            for &p in &m.list {
                let mut s = elems[p as usize].next;
                while s != NONE && r.insert(s) {
                    s = elems[s as usize].next;
                }
            }
        }
        Combinator::PseudoElement | Combinator::Part | Combinator::SlotAssignment => {}
    }
    r
}

impl std::iter::FusedIterator for Select<'_, '_> {}

impl std::fmt::Debug for Select<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Select").finish_non_exhaustive()
    }
}

/// Whether `el` matches `selector`, with `el` as the scoping root (`Element.matches()`).
pub(crate) fn element_matches(el: ElementRef<'_>, selector: &Selector) -> bool {
    let (index, pos) = upward_index(el, &selector.parsed);
    let parsed = &selector.parsed;
    if parsed.names_class {
        index.get().ensure_classes(el.document());
    }
    let mut caches = SelectorCaches::default();
    let state = MatchState::new(parsed.has_count);
    let tree = Tree::new(el.document(), index.get());
    matches_at(
        parsed,
        El { tree: &tree, pos },
        Some(pos),
        None,
        &mut caches,
        &state,
        engine_quirks(el.document().quirks_mode()),
    )
}

/// The nearest inclusive ancestor of `el` that matches `selector` (`Element.closest()`; `el`
/// is the scoping root).
pub(crate) fn closest<'a>(el: ElementRef<'a>, selector: &Selector) -> Option<ElementRef<'a>> {
    let doc = el.document();
    let (owner, scope) = upward_index(el, &selector.parsed);
    let index = owner.get();
    let parsed = &selector.parsed;
    if parsed.names_class {
        index.ensure_classes(doc);
    }
    let mut caches = SelectorCaches::default();
    let state = MatchState::new(parsed.has_count);
    let quirks = engine_quirks(doc.quirks_mode());
    let tree = Tree::new(doc, index);
    let mut pos = scope;
    while pos != NONE {
        let candidate = El { tree: &tree, pos };
        if matches_at(
            parsed,
            candidate,
            Some(scope),
            None,
            &mut caches,
            &state,
            quirks,
        ) {
            return NodeRef::new(doc, index.elem(pos).node).as_element();
        }
        pos = index.elem(pos).parent;
    }
    None
}
