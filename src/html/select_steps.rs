//! The DOM steps of the `option`, `select` and `selectedcontent` elements (HTML Standard,
//! 4.10.7 "The select element", 4.10.10 "The option element", 4.10.17 "The selectedcontent
//! element"), run on the tree: the tree builder and the mutation API both call these, so
//! parser insertions, the adoption agency algorithm, foster parenting and API edits run the
//! same steps.
//!
//! What the standard defines, and where it is here:
//! - "get the nearest ancestor select" and "option ... disabled" (4.10.10): [`Ctx`], read from
//!   the DOM parent chain (template contents are a separate tree, so no walk crosses into a
//!   `template`'s host).
//! - "get the list of options" (4.10.7): [`Document::list_of_options`]. An option is in a
//!   select's list exactly when that select is its nearest ancestor select (both stop at
//!   `datalist`, `hr`, `option`, a nested `select` and a second `optgroup`).
//! - the option insertion, removing and moving steps ("update an option's nearest ancestor
//!   select"): [`Document::update_option_select`].
//! - "the selectedness setting algorithm" (4.10.7): [`Document::selectedness_setting`].
//! - "maybe clone an option into selectedcontent", "update a select's selectedcontent", "get a
//!   select's enabled selectedcontent", "clone an option into a selectedcontent", "clear a
//!   select's non-primary selectedcontent elements", the selectedcontent post-connection and
//!   removing steps (4.10.17).
//!
//! Outside the document (template contents, which live in an inert document, a parsed
//! fragment, a subtree the API has not connected) the steps keep options' selectedness but
//! never change the tree: a select that is not connected has no enabled selectedcontent
//! ([`Document::enabled_selectedcontent`]), as in Chromium.
//!
//! The DOM's "insert" runs the insertion steps for every inclusive descendant of the inserted
//! node and then the post-connection steps for those that are connected; "remove" runs the
//! removing steps for the removed node and its descendants; a move is a remove then an insert
//! ([`Document::steps_before_move`], [`Document::steps_after_insert`]).
//!
//! Cost: nothing here runs until the document has made a `select` and an `option` or
//! `selectedcontent` element. The ancestor context of an element (nearest select, disabled
//! optgroup, connectedness, depth) is memoised until a subtree holding it moves; each select
//! keeps its only selected option and its first selectedcontent up to date as elements come
//! and go; so parsing 100,000 options, or 100,000 selectedcontent elements, nested or not, does
//! bounded work per element. Moving a subtree runs the removing and insertion steps for its
//! option and selectedcontent descendants, as the DOM does, so it costs the subtree's size;
//! except that, while the document has no selectedcontent, a move under a parent whose
//! children see the same ancestors is O(1) (`Document::move_keeps_context`).
//!
//! "The selectedness setting algorithm" after an option joins or leaves a list is
//! incremental: each select also keeps its first enabled option ("the first option element
//! in the list of options in tree order that is not disabled", its step 1) up to date; when
//! the selected option leaves, the next enabled one is found by a scan from where the
//! removed subtree was, so a run of removals of the selected option (the adoption agency
//! moving a select's options one by one) visits each node once instead of the whole list
//! per option. Left: a removal whose subtree holds a selectedcontent forgets the first
//! enabled options (the next removal of a selected option walks the list once), and removals
//! that follow insertions before a long run of disabled options scan that run again.
//! "Update a select's selectedcontent" is not re-entered (see there). Every walk is
//! iterative.

use std::collections::{HashMap, HashSet};

use super::names::{LocalName, Namespace, local_name as n};
use super::{Document, NodeData};
use crate::dom::IdHash;

type Id = indextree::NodeId;

thread_local! {
    /// [`Document::select_steps_reference_mode`].
    static REFERENCE_MODE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// [`Document::select_steps_off`].
    static STEPS_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What a child of an element sees of its ancestors (for one element, "its ancestors" is the
/// element and the element's ancestors).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
struct Ctx {
    /// "The nearest ancestor select" of an option child, before any `optgroup` was passed.
    select0: Option<Id>,
    /// The same once one `optgroup` was passed (a second one gives null).
    select1: Option<Id>,
    /// "An option element option is disabled if ...": the first `select`, `hr`, `datalist`,
    /// `option` or `optgroup` ancestor is an `optgroup` with a `disabled` attribute.
    optgroup_disabled: bool,
    /// The nearest `select` ancestor (the selectedcontent post-connection steps'
    /// nearestSelectAncestor, and the removing steps' "oldAncestor's inclusive ancestors").
    nearest_select: Option<Id>,
    /// A selectedcontent child would be disabled: an `option` or `selectedcontent` ancestor,
    /// or a second `select`.
    sc_disabled: bool,
    /// The child is connected (the root above is the `Document` node).
    connected: bool,
    /// The child's depth (a root's is 0).
    depth: u32,
    /// The outermost selectedcontent ancestor below the nearest select ancestor.
    outer_sc: Option<Id>,
    /// The child of the nearest select ancestor that is an inclusive ancestor of the child
    /// (`None`: the child is a child of that select, or there is none), so that
    /// [`Document::precedes`] compares two options in different children of their select
    /// without climbing from a deep one.
    branch: Option<Id>,
}

/// The select-related state of a document (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct SelectState {
    /// Options whose selectedness is not "has a `selected` attribute" (what element creation
    /// and the attribute's changes set, the dirtiness being always false here).
    selectedness: HashMap<Id, bool, IdHash>,
    /// Each option's "cached nearest ancestor select element" (absent: null).
    cached_select: HashMap<Id, Id, IdHash>,
    /// The selectedcontent elements whose disabled is true.
    sc_disabled: HashSet<Id, IdHash>,
    /// The selectedcontent elements that may have children (given a child or cloned into
    /// since they were last cleared), by their nearest select ancestor when they got it, so
    /// clearing a select's non-primary ones visits only these.
    sc_maybe_nonempty: HashMap<Option<Id>, HashSet<Id, IdHash>, IdHash>,
    /// A select with a select ancestor was seen (then clearing visits every candidate).
    nested_selects: bool,
    /// The selectedcontent elements that are some select's known first one.
    primaries: HashSet<Id, IdHash>,
    /// For a select whose options have not changed except by insertions since the last
    /// selectedness setting algorithm: its only option with selectedness true, if any (and,
    /// when none, no option was enabled).
    stable: HashMap<Id, Option<Id>, IdHash>,
    /// For a select: its first selectedcontent descendant, when known.
    primary: HashMap<Id, Option<Id>, IdHash>,
    /// Memoised [`Ctx`] of elements, valid while `generation` is unchanged. Hashed with
    /// foldhash, not `IdHash`: `IdHash` keeps an id's arena index in the low bits, so a copy's
    /// thousands of consecutive ids (an option cloned into a selectedcontent) fill one dense
    /// run of buckets, and each lookup of an id not in the memo (every step of a walk up to a
    /// memoised ancestor) probed across the run, longer as the run grew.
    memo: HashMap<Id, (u64, Ctx), foldhash::fast::FixedState>,
    /// Bumped by every change of an existing node's ancestors.
    generation: u64,
    /// The number of selectedcontent elements created.
    selectedcontents: usize,
    /// The number of select elements created.
    selects: usize,
    /// The number of option and selectedcontent elements created.
    options_and_scs: usize,
    /// selectedcontent elements may have children without being filed in
    /// `sc_maybe_nonempty` (made before the steps were active).
    unfiled: bool,
    /// For a select: how many options have it as their cached nearest ancestor select (the
    /// size of its list of options).
    option_count: HashMap<Id, usize, IdHash>,
    /// A subtree moved without its memos being forgotten ([`Document::move_keeps_context`]):
    /// their depths may be out of date (nothing reads them before a selectedcontent exists).
    depths_stale: bool,
    /// The same for the memoised `Ctx::branch`es: until the memos are forgotten,
    /// [`Document::precedes`] does not read them.
    branches_stale: bool,
    /// For a select (no `multiple`) whose entry in `stable` is known: its first option in
    /// tree order that is not disabled, if any (absent: not known). Kept up to date as
    /// options join and leave its list, so that the selectedness setting algorithm after
    /// the selected option left costs a scan to the next enabled option instead of the
    /// whole list (see [`Document::first_enabled_after_removal`]).
    first_enabled: HashMap<Id, Option<Id>, IdHash>,
    /// Set by [`Document::steps_before_move`]: the node about to be removed and its next
    /// sibling, so that the removing steps know where in the old parent's children it was.
    pending_point: Option<(Id, Option<Id>)>,
    /// While the insertion steps of one inserted subtree run (its options come in tree
    /// order): (select, option) pairs where the option is the select's first enabled
    /// option and precedes every option of the subtree not yet handled.
    insert_batch: HashMap<Id, Id, IdHash>,
    /// Test switch: run the selectedness setting algorithm in full after every change of a
    /// list of options and never skip a move's steps (the reference for the fast paths).
    reference: bool,
    /// An "update a select's selectedcontent" is running ([`Document::update_selectedcontent`]).
    updating: bool,
    /// Nodes visited by the walks here (lists of options, scans, subtree walks): the
    /// tests' measure of work.
    work: u64,
}

impl Document {
    /// Called (through the hook table's `created`, which lists these names) for every HTML
    /// `select`, `option` and `selectedcontent` created: the state exists from the first one
    /// on.
    #[inline]
    pub(crate) fn note_created(&mut self, name: LocalName) {
        if self.select_state().is_none() && STEPS_OFF.with(std::cell::Cell::get) {
            return;
        }
        let Some(html) = self.html_state_mut() else {
            return;
        };
        let s = html.select.get_or_insert_with(|| {
            Box::new(SelectState {
                reference: REFERENCE_MODE.with(std::cell::Cell::get),
                ..SelectState::default()
            })
        });
        let was_active = s.selects > 0 && s.options_and_scs > 0;
        let had_selectedcontent = s.selectedcontents > 0;
        match name {
            n::SELECT => s.selects += 1,
            n::OPTION => s.options_and_scs += 1,
            _ => {
                // selectedcontent.
                s.options_and_scs += 1;
                s.selectedcontents += 1;
                if s.depths_stale {
                    // Depths are read from now on (`precedes`): forget the memos once.
                    s.depths_stale = false;
                    s.branches_stale = false;
                    s.generation = s.generation.wrapping_add(1);
                    s.memo.clear();
                }
            }
        }
        if !was_active && s.selects > 0 && s.options_and_scs > 0 && had_selectedcontent {
            // selectedcontent elements made before the steps ran were not filed.
            s.unfiled = true;
        }
        // The DOM's element steps have work from now on (`dom/hooks.rs`).
        let active = s.selects > 0 && s.options_and_scs > 0;
        self.element_steps = active;
    }

    /// Whether the steps can change anything: the document has made a `select` and an
    /// `option` or `selectedcontent` element.
    /// That is the DOM's `element_steps` flag, which [`Document::note_created`] keeps.
    #[inline]
    pub(crate) fn steps_active(&self) -> bool {
        self.element_steps
    }

    /// Whether the document has made a `selectedcontent` element (so popped options may
    /// need cloning).
    #[inline]
    pub(crate) fn has_selectedcontent(&self) -> bool {
        self.select_state()
            .is_some_and(|s| s.selectedcontents > 0 && s.selects > 0)
    }

    /// Called when `parent` gets a new child: a selectedcontent may no longer be empty.
    #[inline]
    pub(crate) fn note_child_added(&mut self, parent: Id) {
        if self.steps_active() {
            self.note_child_added_slow(parent);
        }
    }

    #[inline(never)]
    fn note_child_added_slow(&mut self, parent: Id) {
        let parent = self.resolve_stand_in(parent);
        if self.is_html(parent, n::SELECTEDCONTENT) {
            self.note_maybe_nonempty(parent);
        }
    }

    /// Files `sc` among the selectedcontent elements that may have children.
    fn note_maybe_nonempty(&mut self, sc: Id) {
        let select = self.ctx_of_parent(sc).nearest_select;
        if let Some(s) = self.select_state_mut() {
            s.sc_maybe_nonempty.entry(select).or_default().insert(sc);
        }
    }

    // -------------------------------------------------------------------------------------
    // Small helpers.

    fn is_html(&self, id: Id, name: LocalName) -> bool {
        matches!(self.arena.get(id).map(|x| x.get()),
            Some(NodeData::Element(e)) if e.ns == Namespace::Html && e.name == name)
    }

    fn html_name(&self, id: Id) -> Option<LocalName> {
        match self.arena.get(id).map(|x| x.get()) {
            Some(NodeData::Element(e)) if e.ns == Namespace::Html => Some(e.name),
            _ => None,
        }
    }

    fn has_attr(&self, id: Id, name: LocalName) -> bool {
        self.element_data(id).is_some_and(|e| {
            self.attrs_of(e)
                .iter()
                .any(|a| a.name == name && a.ns == super::names::AttrNamespace::None)
        })
    }

    fn attr_value(&self, id: Id, name: LocalName) -> Option<&str> {
        let e = self.element_data(id)?;
        self.attrs_of(e)
            .iter()
            .find(|a| a.name == name && a.ns == super::names::AttrNamespace::None)
            .map(|a| self.str(a.value))
    }

    /// The children of `id` in order, elements with stand-ins resolved.
    fn child_nodes(&self, id: Id) -> Vec<Id> {
        let mut out = Vec::new();
        let mut next = self.arena.get(id).and_then(|x| x.first_child());
        while let Some(c) = next {
            next = self.arena[c].next_sibling();
            out.push(self.resolve_stand_in(c));
        }
        out
    }

    /// Whether `id`'s root is the `Document` node ("connected").
    fn is_connected(&mut self, id: Id) -> bool {
        match self.parent_node(id) {
            Some(_) => self.ctx_of_parent(id).connected,
            None => id == self.root && matches!(self.arena[id].get(), NodeData::Document),
        }
    }

    /// The ancestor context of a child of `parent` (`None`: a root).
    fn ctx_below(&mut self, parent: Option<Id>) -> Ctx {
        let Some(parent) = parent else {
            return Ctx::default();
        };
        let generation = match self.select_state() {
            Some(s) => s.generation,
            None => return Ctx::default(),
        };
        // The usual case: the parent's context is memoised.
        if let Some(&(g, ctx)) = self.select_state().and_then(|s| s.memo.get(&parent)) {
            if g == generation {
                return ctx;
            }
        }
        // Walk up to a memoised element or the root, then fill in downwards.
        let mut chain = Vec::new();
        let mut at = Some(parent);
        let mut base = None;
        while let Some(e) = at {
            if let Some(&(g, ctx)) = self.select_state().and_then(|s| s.memo.get(&e)) {
                if g == generation {
                    base = Some(ctx);
                    break;
                }
            }
            chain.push(e);
            at = self.parent_node(e);
        }
        let base = base.unwrap_or_else(|| {
            // The context of the root itself.
            let root = chain.last().copied();
            Ctx {
                connected: root == Some(self.root)
                    && matches!(self.arena[self.root].get(), NodeData::Document),
                ..Ctx::default()
            }
        });
        let mut ctx = base;
        while let Some(e) = chain.pop() {
            ctx = self.ctx_step(ctx, e);
            if let Some(s) = self.select_state_mut() {
                s.memo.insert(e, (generation, ctx));
            }
        }
        ctx
    }

    /// The context below `e` given the context `above` of `e` itself.
    fn ctx_step(&mut self, above: Ctx, e: Id) -> Ctx {
        // The child of the nearest select ancestor on the way down.
        let branch = match above.nearest_select {
            Some(_) if above.branch.is_none() => Some(e),
            _ => above.branch,
        };
        let above = Ctx {
            depth: above.depth.saturating_add(1),
            branch,
            ..above
        };
        if above.nearest_select.is_some() && self.html_name(e) == Some(n::SELECT) {
            if let Some(s) = self.select_state_mut() {
                s.nested_selects = true;
            }
        }
        match self.html_name(e) {
            Some(n::SELECT) => Ctx {
                select0: Some(e),
                select1: Some(e),
                optgroup_disabled: false,
                nearest_select: Some(e),
                sc_disabled: above.sc_disabled || above.nearest_select.is_some(),
                outer_sc: None,
                branch: None,
                ..above
            },
            Some(n::DATALIST | n::HR) => Ctx {
                select0: None,
                select1: None,
                optgroup_disabled: false,
                ..above
            },
            Some(n::OPTION) => Ctx {
                select0: None,
                select1: None,
                optgroup_disabled: false,
                sc_disabled: true,
                ..above
            },
            Some(n::SELECTEDCONTENT) => Ctx {
                sc_disabled: true,
                outer_sc: above.outer_sc.or(Some(e)),
                ..above
            },
            Some(n::OPTGROUP) => Ctx {
                select0: above.select1,
                select1: None,
                optgroup_disabled: self.has_attr(e, n::DISABLED),
                ..above
            },
            _ => above,
        }
    }

    fn ctx_of_parent(&mut self, node: Id) -> Ctx {
        let parent = self.parent_node(node);
        self.ctx_below(parent)
    }

    /// Forgets everything derived from the tree (an attribute the steps read changed).
    fn ancestors_changed(&mut self) {
        if let Some(s) = self.select_state_mut() {
            s.generation = s.generation.wrapping_add(1);
            s.memo.clear();
            s.branches_stale = false;
            s.stable.clear();
            s.first_enabled.clear();
            s.primary.clear();
            s.primaries.clear();
        }
    }

    /// Forgets what depends on the ancestors of `root` and its descendants: called before
    /// `root` leaves its parent. The walk costs what the removing steps' walk costs. A select
    /// whose single selected option is known stays known (the removing steps keep it up to
    /// date); one known to have no enabled option may gain one by the move.
    fn subtree_moving(&mut self, root: Id) {
        let Some(s) = self.select_state_mut() else {
            return;
        };
        s.stable.retain(|_, v| v.is_some());
        self.forget_memo(root);
    }

    /// Forgets the memoised contexts of `root` and its descendants.
    fn forget_memo(&mut self, root: Id) {
        if self.select_state().is_none_or(|s| s.memo.is_empty()) {
            return;
        }
        let mut stack = vec![self.resolve_stand_in(root)];
        while let Some(node) = stack.pop() {
            if let Some(s) = self.select_state_mut() {
                s.memo.remove(&node);
            }
            let kids = self.child_nodes(node);
            stack.extend(
                kids.into_iter()
                    .filter(|&k| matches!(self.arena[k].get(), NodeData::Element(_))),
            );
        }
    }

    // -------------------------------------------------------------------------------------
    // 4.10.10 The option element.

    /// An option's selectedness.
    fn selectedness(&self, option: Id) -> bool {
        match self
            .select_state()
            .and_then(|s| s.selectedness.get(&option))
        {
            Some(&v) => v,
            // "When the element is created, its selectedness must be set to true if the
            // element has a selected attribute."
            None => self.has_attr(option, n::SELECTED),
        }
    }

    fn set_selectedness(&mut self, option: Id, value: bool) {
        let default = self.has_attr(option, n::SELECTED);
        if let Some(s) = self.select_state_mut() {
            if value == default {
                s.selectedness.remove(&option);
            } else {
                s.selectedness.insert(option, value);
            }
        }
    }

    /// "An option element option is disabled if ...".
    fn option_disabled(&mut self, option: Id) -> bool {
        self.has_attr(option, n::DISABLED) || self.ctx_of_parent(option).optgroup_disabled
    }

    /// "Get the nearest ancestor select" of an option.
    fn nearest_select(&mut self, option: Id) -> Option<Id> {
        self.ctx_of_parent(option).select0
    }

    /// "Update an option's nearest ancestor select" (the option insertion, removing and
    /// moving steps). `inserted` tells which change it follows, for the fast paths.
    fn update_option_select(&mut self, option: Id, inserted: bool) {
        let old = self
            .select_state()
            .and_then(|s| s.cached_select.get(&option).copied());
        let new = self.nearest_select(option);
        if old == new {
            return;
        }
        if let Some(old) = old {
            if let Some(s) = self.select_state_mut() {
                // Normally moved on before the removing steps began (steps_after_remove).
                if s.first_enabled.get(&old) == Some(&Some(option)) {
                    s.first_enabled.remove(&old);
                }
            }
            self.selectedness_after_removal(old, option);
        }
        if let Some(new) = new {
            if inserted {
                self.first_enabled_after_insertion(new, option);
                self.selectedness_after_insertion(new, option);
            } else {
                self.selectedness_setting(new);
            }
        }
        if let Some(s) = self.select_state_mut() {
            match new {
                Some(new) => {
                    s.cached_select.insert(option, new);
                    *s.option_count.entry(new).or_insert(0) += 1;
                }
                None => {
                    s.cached_select.remove(&option);
                }
            };
            if let Some(old) = old {
                if let Some(c) = s.option_count.get_mut(&old) {
                    *c = c.saturating_sub(1);
                }
            }
        }
    }

    /// "Maybe clone an option into selectedcontent".
    pub(crate) fn maybe_clone_option(&mut self, option: Id) {
        if !self.steps_active()
            || self.arena.get(option).is_none_or(|x| x.is_removed())
            || !self.is_html(option, n::OPTION)
        {
            return;
        }
        // "Let select be option's nearest ancestor select."
        let Some(select) = self.nearest_select(option) else {
            return;
        };
        // "If select is not null, option's selectedness is true, and select's enabled
        // selectedcontent is not null, then run clone an option into a selectedcontent."
        if !self.selectedness(option) {
            return;
        }
        if let Some(sc) = self.enabled_selectedcontent(select) {
            self.clone_option_into(option, sc);
        }
    }

    // -------------------------------------------------------------------------------------
    // 4.10.7 The select element.

    /// "The display size" is 1 and there is no `multiple` attribute.
    fn single_display(&self, select: Id) -> bool {
        if self.has_attr(select, n::MULTIPLE) {
            return false;
        }
        self.attr_value(select, n::SIZE)
            .and_then(parse_non_negative)
            .is_none_or(|s| s == 1)
    }

    /// "Get the list of options" of `select`, in tree order.
    fn list_of_options(&mut self, select: Id) -> Vec<Id> {
        let mut options = Vec::new();
        // (node, whether an optgroup is between it and select)
        let mut stack: Vec<(Id, bool)> = self
            .child_nodes(select)
            .into_iter()
            .rev()
            .map(|c| (c, false))
            .collect();
        let mut visited = 0u64;
        while let Some((node, in_optgroup)) = stack.pop() {
            visited += 1;
            let name = self.html_name(node);
            if name == Some(n::OPTION) {
                options.push(node);
            }
            // Skip the descendants of select, hr, option, datalist, and of an optgroup
            // with an optgroup between it and select.
            let skip = matches!(name, Some(n::SELECT | n::HR | n::OPTION | n::DATALIST))
                || (name == Some(n::OPTGROUP) && in_optgroup);
            if skip {
                continue;
            }
            let below = in_optgroup || name == Some(n::OPTGROUP);
            for c in self.child_nodes(node).into_iter().rev() {
                stack.push((c, below));
            }
        }
        self.count_work(visited);
        options
    }

    fn count_work(&mut self, n: u64) {
        if let Some(s) = self.select_state_mut() {
            s.work = s.work.wrapping_add(n);
        }
    }

    /// The options of `options` whose selectedness is true, in their order.
    fn selected_of(&self, options: &[Id]) -> Vec<Id> {
        options
            .iter()
            .copied()
            .filter(|&o| self.selectedness(o))
            .collect()
    }

    /// The first option of `options` that is not disabled.
    fn first_enabled_of(&mut self, options: &[Id]) -> Option<Id> {
        options.iter().copied().find(|&o| !self.option_disabled(o))
    }

    /// "The selectedness setting algorithm" for `select`, in full.
    pub(crate) fn selectedness_setting(&mut self, select: Id) {
        if self.has_attr(select, n::MULTIPLE) {
            if let Some(s) = self.select_state_mut() {
                s.stable.remove(&select);
                s.first_enabled.remove(&select);
            }
            return;
        }
        let options = self.list_of_options(select);
        let selected = self.selected_of(&options);
        // The first option that is not disabled (kept for the removals to come).
        let first_enabled = self.first_enabled_of(&options);
        if let Some(s) = self.select_state_mut() {
            s.first_enabled.insert(select, first_enabled);
        }
        let mut only = None;
        if selected.is_empty() {
            // Step 1: with a display size of 1, select the first option that is not disabled.
            if self.single_display(select) {
                if let Some(o) = first_enabled {
                    self.set_selectedness(o, true);
                    only = Some(o);
                }
            }
        } else {
            // Step 2: "set the selectedness of all but the last option element with its
            // selectedness set to true ... to false".
            let last = selected[selected.len() - 1];
            for &o in &selected[..selected.len() - 1] {
                self.set_selectedness(o, false);
            }
            only = Some(last);
        }
        if let Some(s) = self.select_state_mut() {
            s.stable.insert(select, only);
        }
    }

    /// The selectedness setting algorithm after `option` joined `select`'s list.
    fn selectedness_after_insertion(&mut self, select: Id, option: Id) {
        let stable = self
            .select_state()
            .filter(|s| !s.reference)
            .and_then(|s| s.stable.get(&select).copied());
        // With a multiple attribute the algorithm changes nothing.
        if self.has_attr(select, n::MULTIPLE) {
            return;
        }
        let Some(current) = stable else {
            return self.selectedness_setting(select);
        };
        let selected = self.selectedness(option);
        let only = match (current, selected) {
            // The algorithm already ran with this option in the list (an earlier option of
            // the same inserted subtree ran it in full): it is the selected one.
            (Some(c), true) if c == option => Some(c),
            // One option stays selected.
            (Some(c), false) => Some(c),
            // Two: keep the last in tree order.
            (Some(c), true) => {
                if self.precedes(c, option) {
                    self.set_selectedness(c, false);
                    Some(option)
                } else {
                    self.set_selectedness(option, false);
                    Some(c)
                }
            }
            (None, true) => Some(option),
            // None selected and none enabled before: the new option is the first enabled.
            (None, false) => {
                if self.single_display(select) && !self.option_disabled(option) {
                    self.set_selectedness(option, true);
                    Some(option)
                } else {
                    None
                }
            }
        };
        if let Some(s) = self.select_state_mut() {
            s.stable.insert(select, only);
        }
    }

    /// The selectedness setting algorithm after `option` left `select`'s list.
    fn selectedness_after_removal(&mut self, select: Id, option: Id) {
        if self.has_attr(select, n::MULTIPLE) {
            return;
        }
        let (stable, first_enabled) = match self.select_state() {
            Some(s) if !s.reference => (
                s.stable.get(&select).copied(),
                s.first_enabled.get(&select).copied(),
            ),
            _ => (None, None),
        };
        match (stable, first_enabled) {
            // Another option stays the only selected one; or none was selected or enabled.
            (Some(Some(c)), _) if c != option => {}
            (Some(None), _) => {}
            // The only selected option left and the first enabled one is known (already
            // updated for this removal): no option is selected, so step 1 selects that one
            // when the display size is 1.
            (Some(Some(_)), Some(first)) => {
                let only = if self.single_display(select) {
                    if let Some(f) = first {
                        self.set_selectedness(f, true);
                    }
                    first
                } else {
                    None
                };
                if let Some(s) = self.select_state_mut() {
                    s.stable.insert(select, only);
                }
            }
            _ => self.selectedness_setting(select),
        }
    }

    /// Keeps the known first enabled options up to date when the subtree whose option and
    /// selectedcontent descendants are `nodes` has left `old_parent` (where `next` was its
    /// next sibling), before any of its removing steps run: at each option's removing step
    /// the whole subtree is already out of the list. For a select whose first enabled option
    /// was in the subtree, the next one is found by a scan in tree order from where the
    /// subtree was: no enabled option of the list came before the removed one, so none comes
    /// before that place. The scan covers the nodes between the removed option and the next
    /// enabled one, so a run of removals of the selected option (the adoption agency moving
    /// a select's options one by one) visits each node once. Where the place is not known,
    /// the first enabled option is forgotten (the full algorithm finds it again).
    fn first_enabled_after_removal(&mut self, nodes: &[Id], point: Option<(Id, Option<Id>)>) {
        for &option in nodes {
            let Some(s) = self.select_state() else {
                return;
            };
            if s.first_enabled.is_empty() {
                return;
            }
            let Some(&select) = s.cached_select.get(&option) else {
                continue;
            };
            if s.first_enabled.get(&select) != Some(&Some(option)) {
                // Unknown, or not the first: the first stays first.
                continue;
            }
            let stable_known = s.stable.contains_key(&select);
            let next = match point {
                Some((parent, next)) if stable_known && !self.has_attr(select, n::MULTIPLE) => {
                    self.scan_first_enabled(select, parent, next)
                }
                _ => None,
            };
            if let Some(s) = self.select_state_mut() {
                match next {
                    Some(first) => {
                        s.first_enabled.insert(select, first);
                    }
                    None => {
                        s.first_enabled.remove(&select);
                    }
                }
            }
        }
    }

    /// The first option of `select`'s list that is not disabled at or after the place
    /// before `next` among `parent`'s children (after the last child if `next` is null), in
    /// tree order; `None` if the scan cannot tell (the place is no longer in `select`).
    #[allow(clippy::option_option)]
    fn scan_first_enabled(
        &mut self,
        select: Id,
        parent: Id,
        next: Option<Id>,
    ) -> Option<Option<Id>> {
        // The place must still be where it was (nothing has edited the tree since).
        if self.arena.get(parent).is_none_or(|x| x.is_removed())
            || next.is_some_and(|x| self.parent_node(x) != Some(parent))
        {
            return None;
        }
        let mut visited = 0u64;
        let (mut at, mut parent) = (next, parent);
        let found = loop {
            visited += 1;
            match at {
                Some(node) => {
                    let name = self.html_name(node);
                    if name == Some(n::OPTION)
                        && self.nearest_select(node) == Some(select)
                        && !self.option_disabled(node)
                    {
                        break Some(Some(node));
                    }
                    // "Get the list of options" skips the descendants of these.
                    let skip =
                        !matches!(
                            self.arena.get(node).map(|x| x.get()),
                            Some(NodeData::Element(_))
                        ) || matches!(name, Some(n::SELECT | n::HR | n::OPTION | n::DATALIST));
                    let first = if skip {
                        None
                    } else {
                        self.arena[node].first_child()
                    };
                    match first {
                        Some(c) => (at, parent) = (Some(self.resolve_stand_in(c)), node),
                        None => at = self.next_sibling_node(node),
                    }
                }
                None => {
                    // Past the last child of parent: go on after parent.
                    if parent == select {
                        break Some(None);
                    }
                    match self.parent_node(parent) {
                        Some(up) => (at, parent) = (self.next_sibling_node(parent), up),
                        // Not below select after all.
                        None => break None,
                    }
                }
            }
        };
        self.count_work(visited);
        found
    }

    /// The next sibling of `node` (of its stand-in), stand-ins resolved.
    fn next_sibling_node(&self, node: Id) -> Option<Id> {
        let t = self.tree_node(node);
        self.arena[t]
            .next_sibling()
            .map(|x| self.resolve_stand_in(x))
    }

    /// Keeps `select`'s known first enabled option up to date after `option` joined its list
    /// (before the selectedness setting algorithm runs). Within one inserted subtree the
    /// options come in tree order, so once one of them was compared, the rest need no
    /// comparison (`insert_batch`).
    fn first_enabled_after_insertion(&mut self, select: Id, option: Id) {
        let Some(s) = self.select_state() else {
            return;
        };
        if s.reference {
            return;
        }
        let Some(&known) = s.first_enabled.get(&select) else {
            return;
        };
        if known.is_some() && s.insert_batch.get(&select).copied() == known {
            return;
        }
        if self.option_disabled(option) {
            return;
        }
        let first = match known {
            // The one enabled option.
            None => option,
            // The earlier of the two.
            Some(f) if self.precedes(f, option) => f,
            Some(_) => option,
        };
        if let Some(s) = self.select_state_mut() {
            s.first_enabled.insert(select, Some(first));
            s.insert_batch.insert(select, first);
        }
    }

    /// Whether `a` comes before `b` in tree order (both in one tree). When both have the
    /// same nearest select ancestor and are in different children of it, costs the sibling
    /// search between those children (the branches come from the memo); else the distance
    /// to their common ancestor (depths come from the memo) plus the sibling search.
    fn precedes(&mut self, a: Id, b: Id) -> bool {
        if a == b {
            return false;
        }
        let (mut xa, mut xb) = (a, b);
        let ca = self.ctx_of_parent(a);
        let cb = self.ctx_of_parent(b);
        let branches_known = self.select_state().is_some_and(|s| !s.branches_stale);
        if branches_known && ca.nearest_select.is_some() && ca.nearest_select == cb.nearest_select {
            let (ba, bb) = (ca.branch.unwrap_or(a), cb.branch.unwrap_or(b));
            if ba != bb {
                self.count_work(1);
                return self.sibling_precedes(ba, bb);
            }
        }
        let (mut da, mut db) = (ca.depth, cb.depth);
        let mut climbed = 0u64;
        while da > db {
            climbed += 1;
            match self.parent_node(xa) {
                Some(p) => (xa, da) = (p, da - 1),
                None => return false,
            }
        }
        while db > da {
            climbed += 1;
            match self.parent_node(xb) {
                Some(p) => (xb, db) = (p, db - 1),
                None => return false,
            }
        }
        self.count_work(climbed);
        // An ancestor comes before its descendants.
        if xa == xb {
            return xa == a;
        }
        loop {
            self.count_work(1);
            let (pa, pb) = (self.parent_node(xa), self.parent_node(xb));
            match (pa, pb) {
                (Some(pa), Some(pb)) if pa == pb => return self.sibling_precedes(xa, xb),
                (Some(pa), Some(pb)) => (xa, xb) = (pa, pb),
                _ => return false,
            }
        }
    }

    /// Whether sibling `xa` comes before sibling `xb`: a search outwards from `xb` in both
    /// directions, which ends at `xa` or at the first end of the sibling list met (an end
    /// tells the answer), so the parser's appends cost one step.
    fn sibling_precedes(&self, xa: Id, xb: Id) -> bool {
        let step = |x: Id, forward: bool| {
            let t = self.tree_node(x);
            let s = if forward {
                self.arena[t].next_sibling()
            } else {
                self.arena[t].previous_sibling()
            };
            s.map(|s| self.resolve_stand_in(s))
        };
        let (mut back, mut fwd) = (xb, xb);
        loop {
            match step(back, false) {
                Some(x) if x == xa => return true,
                Some(x) => back = x,
                // Nothing before xb: xa is after it.
                None => return false,
            }
            match step(fwd, true) {
                Some(x) if x == xa => return false,
                Some(x) => fwd = x,
                None => return true,
            }
        }
    }

    // -------------------------------------------------------------------------------------
    // 4.10.17 The selectedcontent element.

    /// "Get a select's enabled selectedcontent".
    ///
    /// A selectedcontent's disabled is "initially false" and only its post-connection steps
    /// compute it, so in a tree that was never connected (template contents, which live in
    /// an inert document, and a parsed fragment) the standard's text would leave every
    /// selectedcontent enabled, and popping an option that holds one would clone the
    /// selectedcontent into itself. As Chromium does, a select that is not connected has no
    /// enabled selectedcontent here: the steps never change a tree that is not connected
    /// (the selectedness of its options is still kept, which needs no connection).
    fn enabled_selectedcontent(&mut self, select: Id) -> Option<Id> {
        if self.has_attr(select, n::MULTIPLE) || !self.is_connected(select) {
            return None;
        }
        let sc = self.first_selectedcontent(select)?;
        let disabled = self
            .select_state()
            .is_some_and(|s| s.sc_disabled.contains(&sc));
        (!disabled).then_some(sc)
    }

    /// The first selectedcontent descendant of `select` in tree order.
    fn first_selectedcontent(&mut self, select: Id) -> Option<Id> {
        let state = self.select_state()?;
        if state.selectedcontents == 0 {
            return None;
        }
        if let Some(&known) = state.primary.get(&select) {
            return known;
        }
        let mut stack: Vec<Id> = self.child_nodes(select).into_iter().rev().collect();
        let mut found = None;
        while let Some(node) = stack.pop() {
            if self.is_html(node, n::SELECTEDCONTENT) {
                found = Some(node);
                break;
            }
            stack.extend(self.child_nodes(node).into_iter().rev());
        }
        if let Some(s) = self.select_state_mut() {
            s.primary.insert(select, found);
            if let Some(p) = found {
                s.primaries.insert(p);
            }
        }
        found
    }

    /// "Update a select's selectedcontent".
    ///
    /// Not re-entered: the removing steps of the selectedcontent elements that "replace all"
    /// takes out can run this again, and where a selectedcontent holds one that is not
    /// disabled (in a tree that was never connected, so its post-connection steps did not
    /// disable it) and sits in the option it copies, the copy holds another, whose removal
    /// starts the next copy, without end (`<template><select><option selected>
    /// <selectedcontent><i><i></i><p><selectedcontent></i>`). A nested run is skipped.
    fn update_selectedcontent(&mut self, select: Id) {
        match self.select_state_mut() {
            Some(s) if !s.updating => s.updating = true,
            _ => return,
        }
        self.update_selectedcontent_once(select);
        if let Some(s) = self.select_state_mut() {
            s.updating = false;
        }
    }

    fn update_selectedcontent_once(&mut self, select: Id) {
        let Some(sc) = self.enabled_selectedcontent(select) else {
            return;
        };
        // "Let option be the first option in select's list of options whose selectedness is
        // true, if any".
        let stable = self
            .select_state()
            .and_then(|s| s.stable.get(&select).copied());
        let no_options = self
            .select_state()
            .is_some_and(|s| s.option_count.get(&select).copied().unwrap_or(0) == 0);
        let option = match stable {
            // The known selected option, unless it is in a subtree whose removal is under
            // way (the removing steps of a selectedcontent in the same subtree run this
            // before the option's own removing steps).
            Some(Some(c)) if self.nearest_select(c) != Some(select) => {
                let options = self.list_of_options(select);
                options.into_iter().find(|&o| self.selectedness(o))
            }
            Some(only) => only,
            None if no_options => None,
            None => {
                let options = self.list_of_options(select);
                options.into_iter().find(|&o| self.selectedness(o))
            }
        };
        match option {
            Some(option) => self.clone_option_into(option, sc),
            // "Clear a selectedcontent": replace all with null.
            None => self.replace_all(sc, Vec::new()),
        }
    }

    /// "Clone an option into a selectedcontent".
    fn clone_option_into(&mut self, option: Id, sc: Id) {
        let copies: Vec<Id> = self
            .child_nodes(option)
            .into_iter()
            .filter_map(|c| self.deep_clone(c))
            .collect();
        self.replace_all(sc, copies);
    }

    /// "Replace all" of `parent`'s children with `nodes` (new, parentless nodes), with the
    /// removing, insertion and post-connection steps.
    fn replace_all(&mut self, parent: Id, nodes: Vec<Id>) {
        let parent = self.resolve_stand_in(parent);
        let children = self.child_nodes(parent);
        for &child in &children {
            self.subtree_moving(child);
        }
        for child in &children {
            self.tree_node(*child).detach(&mut self.arena);
        }
        for child in children {
            // Every child has left: each was where the children end now.
            if let Some(s) = self.select_state_mut() {
                s.pending_point = Some((child, None));
            }
            self.steps_after_remove(child, parent);
        }
        let had = !nodes.is_empty();
        for node in &nodes {
            self.append_node_checked(parent, *node);
        }
        for node in nodes {
            self.steps_after_insert(node);
        }
        if had {
            self.note_maybe_nonempty(parent);
        }
    }

    /// "Clear a select's non-primary selectedcontent elements".
    fn clear_non_primary(&mut self, select: Id) {
        let primary = self.first_selectedcontent(select);
        let Some(state) = self.select_state_mut() else {
            return;
        };
        // The candidates filed under this select (all of them if selects were nested, every
        // selectedcontent descendant if some were never filed).
        let candidates: Vec<Id> = if state.unfiled {
            let mut all = Vec::new();
            let mut stack: Vec<Id> = self.child_nodes(select);
            while let Some(node) = stack.pop() {
                if self.is_html(node, n::SELECTEDCONTENT) {
                    all.push(node);
                }
                stack.extend(self.child_nodes(node));
            }
            all
        } else if state.nested_selects {
            state
                .sc_maybe_nonempty
                .drain()
                .flat_map(|(_, set)| set)
                .collect()
        } else {
            state
                .sc_maybe_nonempty
                .remove(&Some(select))
                .map(|set| set.into_iter().collect())
                .unwrap_or_default()
        };
        for sc in candidates {
            if self.arena.get(sc).is_none_or(|x| x.is_removed())
                || self.arena[sc].first_child().is_none()
            {
                continue;
            }
            if Some(sc) != primary && self.is_descendant_of(sc, select) {
                self.replace_all(sc, Vec::new());
            } else {
                // Still may have children: file it again (under its select now).
                self.note_maybe_nonempty(sc);
            }
        }
    }

    fn is_descendant_of(&self, node: Id, ancestor: Id) -> bool {
        let mut at = node;
        while let Some(p) = self.parent_node(at) {
            if p == ancestor {
                return true;
            }
            at = p;
        }
        false
    }

    /// "The selectedcontent HTML element post-connection steps".
    fn selectedcontent_post_connection(&mut self, sc: Id) {
        let ctx = self.ctx_of_parent(sc);
        if let Some(s) = self.select_state_mut() {
            if ctx.sc_disabled {
                s.sc_disabled.insert(sc);
            } else {
                s.sc_disabled.remove(&sc);
            }
        }
        let Some(select) = ctx.nearest_select else {
            return;
        };
        if ctx.sc_disabled || self.has_attr(select, n::MULTIPLE) {
            return;
        }
        self.update_selectedcontent(select);
        self.clear_non_primary(select);
    }

    /// Keeps the known first selectedcontent of the nearest select ancestor of `sc`, just
    /// inserted, up to date (with nested selects, forgets them all).
    fn selectedcontent_inserted(&mut self, sc: Id) {
        let ctx = self.ctx_of_parent(sc);
        let Some(select) = ctx.nearest_select else {
            return;
        };
        let Some(state) = self.select_state_mut() else {
            return;
        };
        if state.nested_selects {
            state.primary.clear();
            state.primaries.clear();
            return;
        }
        let known = state.primary.get(&select).copied();
        let primary = match known {
            Some(None) => Some(Some(sc)),
            // Inside the first one: after it.
            Some(Some(p)) if ctx.outer_sc == Some(p) => Some(Some(p)),
            Some(Some(p)) if p != sc && self.precedes(sc, p) => Some(Some(sc)),
            Some(Some(p)) => Some(Some(p)),
            None => None,
        };
        if let (Some(s), Some(primary)) = (self.select_state_mut(), primary) {
            s.primary.insert(select, primary);
            if let Some(p) = primary {
                s.primaries.insert(p);
            }
        }
    }

    /// "The selectedcontent HTML element removing steps", `old_ancestor` being the removed
    /// subtree's old parent.
    fn selectedcontent_removed(&mut self, sc: Id, old_ancestor: Id) {
        if self
            .select_state()
            .is_some_and(|s| s.sc_disabled.contains(&sc))
        {
            return;
        }
        // "For each ancestor of removedNode's ancestors: if ancestor is a select, return."
        if self.ctx_of_parent(sc).nearest_select.is_some() {
            return;
        }
        // "For each ancestor of oldAncestor's inclusive ancestors: if ancestor is a select,
        // run update a select's selectedcontent given ancestor and return."
        if let Some(select) = self.ctx_below(Some(old_ancestor)).nearest_select {
            self.update_selectedcontent(select);
        }
    }

    // -------------------------------------------------------------------------------------
    // The DOM's insert and remove.

    /// The option and selectedcontent elements among `root`'s inclusive descendants, in
    /// tree order.
    fn interesting_in(&mut self, root: Id) -> Vec<Id> {
        let root = self.resolve_stand_in(root);
        let mut out = Vec::new();
        if !matches!(
            self.arena.get(root).map(|x| x.get()),
            Some(NodeData::Element(_))
        ) {
            return out;
        }
        let mut stack = vec![root];
        let mut visited = 0u64;
        while let Some(node) = stack.pop() {
            visited += 1;
            if let Some(n::OPTION | n::SELECTEDCONTENT) = self.html_name(node) {
                out.push(node);
            }
            let mut kids = self.child_nodes(node);
            kids.retain(|&k| matches!(self.arena[k].get(), NodeData::Element(_)));
            stack.extend(kids.into_iter().rev());
        }
        self.count_work(visited);
        out
    }

    /// Call before `node` (which has a parent) leaves it or moves: forgets the ancestor
    /// memos. Returns the old parent for [`Document::steps_after_remove`].
    pub(crate) fn steps_before_move(&mut self, node: Id) -> Option<Id> {
        if !self.steps_active() {
            return None;
        }
        let parent = self.parent_node(node)?;
        let next = self.next_sibling_node(node);
        self.subtree_moving(node);
        if let Some(s) = self.select_state_mut() {
            s.pending_point = Some((node, next));
        }
        Some(parent)
    }

    /// Whether moving `node` (which has a parent) under `new_parent` can skip the removing
    /// and insertion steps of its descendants: the document has no selectedcontent element,
    /// and a child of `new_parent` sees the same ancestors as a child of the old parent
    /// (same nearest ancestor select before and after one optgroup, same disabled optgroup,
    /// same connectedness). Then every option in the subtree keeps its nearest ancestor
    /// select, so "update an option's nearest ancestor select" (4.10.10: the option
    /// removing, insertion and moving steps) does nothing for each ("if oldSelect is
    /// newSelect, return"), and with no selectedcontent the 4.10.17 steps have nothing to
    /// run on. The subtree's memoised contexts stay right but for their depths, which are
    /// only read once a selectedcontent exists (`depths_stale`). Makes repeated moves of a
    /// big subtree of options (the adoption agency's `</b>` in a select) cost O(depth)
    /// amortised instead of the subtree's size.
    pub(crate) fn move_keeps_context(&mut self, node: Id, new_parent: Id) -> bool {
        if !self.steps_active() || self.select_state().is_none_or(|s| s.selectedcontents > 0) {
            return false;
        }
        if self.select_state().is_some_and(|s| s.reference) {
            return false;
        }
        let Some(old_parent) = self.parent_node(node) else {
            return false;
        };
        let new_parent = self.resolve_stand_in(new_parent);
        let before = self.ctx_below(Some(old_parent));
        let after = self.ctx_below(Some(new_parent));
        let same = Ctx {
            depth: 0,
            branch: None,
            ..before
        } == Ctx {
            depth: 0,
            branch: None,
            ..after
        };
        if same {
            if let Some(s) = self.select_state_mut() {
                s.depths_stale = true;
                s.branches_stale |= before.branch != after.branch;
                // The options moved keep their select but maybe not their place in its list.
                for select in [before.select0, before.select1].into_iter().flatten() {
                    s.first_enabled.remove(&select);
                }
            }
        }
        same
    }

    /// Undoes what [`Document::move_keeps_context`] skipped when the insertion failed after
    /// the detaching: the subtree was removed after all.
    pub(crate) fn steps_after_failed_move(&mut self, root: Id, old_parent: Id) {
        self.subtree_moving(root);
        self.steps_after_remove(root, old_parent);
    }

    /// The removing steps, after `root` was removed from `old_parent`.
    pub(crate) fn steps_after_remove(&mut self, root: Id, old_parent: Id) {
        if !self.steps_active() {
            return;
        }
        let mut point = match self.select_state_mut() {
            Some(s) => match s.pending_point.take() {
                Some((node, next)) if node == root => Some((old_parent, next)),
                _ => None,
            },
            None => None,
        };
        let nodes = self.interesting_in(root);
        if nodes.iter().any(|&x| self.is_html(x, n::SELECTEDCONTENT)) {
            // The selectedcontent steps edit the tree while the removing steps run, and
            // options may join a list before the removed first enabled option has left it.
            point = None;
            if let Some(s) = self.select_state_mut() {
                s.first_enabled.clear();
            }
        }
        self.first_enabled_after_removal(&nodes, point);
        for node in nodes {
            if self.is_html(node, n::OPTION) {
                self.update_option_select(node, false);
            } else {
                if let Some(s) = self.select_state_mut() {
                    if s.primaries.remove(&node) {
                        s.primary.retain(|_, p| *p != Some(node));
                    }
                }
                self.selectedcontent_removed(node, old_parent);
            }
        }
    }

    /// The insertion steps and then the post-connection steps, after `root` was inserted.
    pub(crate) fn steps_after_insert(&mut self, root: Id) {
        if !self.steps_active() {
            return;
        }
        let root = self.resolve_stand_in(root);
        if let Some(p) = self.parent_node(root) {
            self.note_child_added(p);
        }
        // The parser's usual case: a new element without children (its own steps only, no
        // walk).
        let nodes = if self.arena[root].first_child().is_none() {
            if let Some(s) = self.select_state_mut() {
                s.memo.remove(&root);
            }
            if !matches!(self.html_name(root), Some(n::OPTION | n::SELECTEDCONTENT)) {
                return;
            }
            self.count_work(1);
            vec![root]
        } else {
            // What was memoised while root was elsewhere (or a root) is out of date.
            self.forget_memo(root);
            self.interesting_in(root)
        };
        if nodes.is_empty() {
            return;
        }
        let outer_batch = self
            .select_state_mut()
            .map(|s| std::mem::take(&mut s.insert_batch));
        for &node in &nodes {
            if self.is_html(node, n::OPTION) {
                self.update_option_select(node, true);
            } else {
                self.selectedcontent_inserted(node);
            }
        }
        if let (Some(s), Some(outer)) = (self.select_state_mut(), outer_batch) {
            s.insert_batch = outer;
        }
        if !nodes.iter().any(|&x| self.is_html(x, n::SELECTEDCONTENT)) || !self.is_connected(root) {
            return;
        }
        for node in nodes {
            if self.is_html(node, n::SELECTEDCONTENT) {
                self.selectedcontent_post_connection(node);
            }
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

impl Document {
    /// After an attribute of `element` was set (`added`) or removed through the API.
    pub(crate) fn attribute_changed(&mut self, element: Id, name: LocalName, added: bool) {
        if !self.steps_active() {
            return;
        }
        match (self.html_name(element), name) {
            (Some(n::OPTION), n::SELECTED) => self.selected_attribute_changed(element, added),
            (Some(n::OPTION | n::OPTGROUP), n::DISABLED)
            | (Some(n::SELECT), n::MULTIPLE | n::SIZE) => {
                self.ancestors_changed();
            }
            _ => {}
        }
    }

    /// "Whenever an option element's selected attribute is added [removed], if its dirtiness
    /// is false, its selectedness must be set to true [false]" (the dirtiness is always false
    /// here), and (4.10.7) "if the multiple attribute is absent, whenever an option element in
    /// the select element's list of options has its selectedness set to true, ... the user
    /// agent must set the selectedness of all the other option elements in its list of
    /// options to false". Nothing updates a selectedcontent here.
    fn selected_attribute_changed(&mut self, option: Id, added: bool) {
        if let Some(s) = self.select_state_mut() {
            s.selectedness.remove(&option);
            // Only the list the option is in can change.
            if let Some(select) = s.cached_select.get(&option) {
                s.stable.remove(select);
            }
        }
        if !added {
            return;
        }
        let Some(select) = self.nearest_select(option) else {
            return;
        };
        if self.has_attr(select, n::MULTIPLE) {
            return;
        }
        for other in self.list_of_options(select) {
            if other != option && self.selectedness(other) {
                self.set_selectedness(other, false);
            }
        }
        if let Some(s) = self.select_state_mut() {
            s.stable.insert(select, Some(option));
        }
    }
}

/// Test hooks: the fast paths above are checked against the full steps with these.
impl Document {
    /// Test hook, not part of the API: documents whose first `select`, `option` or
    /// `selectedcontent` is created on this thread while `on` is set run the selectedness
    /// setting algorithm in full after every change of a list of options and never skip a
    /// move's steps (the reference the fast paths must agree with).
    #[doc(hidden)]
    pub fn select_steps_reference_mode(on: bool) {
        REFERENCE_MODE.with(|c| c.set(on));
    }

    /// Test hook, not part of the API: documents whose first `select`, `option` or
    /// `selectedcontent` is created on this thread while `on` is set never run the steps of
    /// this module (the reference for "nothing changes outside connected trees": a tree that
    /// is not connected must come out the same with the steps as without them).
    #[doc(hidden)]
    pub fn select_steps_off(on: bool) {
        STEPS_OFF.with(|c| c.set(on));
    }

    /// Test hook, not part of the API: an `option` element's selectedness ("the option
    /// element", 4.10.10); `None` for other nodes.
    #[doc(hidden)]
    pub fn option_selectedness(&self, option: crate::dom::NodeId) -> Option<bool> {
        let raw = option.raw;
        if option.doc != self.serial
            || self.arena.get(raw).is_none_or(|x| x.is_removed())
            || !self.is_html(raw, n::OPTION)
        {
            return None;
        }
        Some(self.selectedness(raw))
    }

    /// Test hook, not part of the API: the number of nodes the select steps' walks have
    /// visited (lists of options, scans for the first enabled option, subtree walks).
    #[doc(hidden)]
    pub fn select_steps_work(&self) -> u64 {
        self.select_state().map_or(0, |s| s.work)
    }

    /// Test hook, not part of the API: recomputes from the tree what the incremental state
    /// claims (each option's cached nearest ancestor select, each select's only selected
    /// option and first enabled option) and describes the first disagreement.
    #[doc(hidden)]
    pub fn check_select_state(&mut self) -> Result<(), String> {
        let Some(state) = self.select_state() else {
            return Ok(());
        };
        let live = |doc: &Document, id: Id| {
            doc.arena.get(id).is_some_and(|x| !x.is_removed()) && !id.is_removed(&doc.arena)
        };
        let cached: Vec<(Id, Id)> = state.cached_select.iter().map(|(&o, &s)| (o, s)).collect();
        let stable: Vec<(Id, Option<Id>)> = state.stable.iter().map(|(&s, &o)| (s, o)).collect();
        let first: Vec<(Id, Option<Id>)> =
            state.first_enabled.iter().map(|(&s, &o)| (s, o)).collect();
        for (option, select) in cached {
            if live(self, option) && self.nearest_select(option) != Some(select) {
                return Err(format!(
                    "{option:?}: cached select {select:?} is not its select"
                ));
            }
        }
        for (select, only) in stable {
            if !live(self, select) || self.has_attr(select, n::MULTIPLE) {
                continue;
            }
            let options = self.list_of_options(select);
            let selected = self.selected_of(&options);
            let any_enabled = self.first_enabled_of(&options).is_some();
            let ok = match only {
                Some(c) => selected == [c],
                None => selected.is_empty() && (!any_enabled || !self.single_display(select)),
            };
            if !ok {
                let mut top = select;
                while let Some(p) = self.parent_node(top) {
                    top = p;
                }
                let tree = self
                    .node(self.id_of(top))
                    .map(|x| x.html())
                    .unwrap_or_default();
                return Err(format!(
                    "select {select:?}: known {only:?}, selected {selected:?} options {options:?} in {tree}"
                ));
            }
        }
        for (select, known) in first {
            if !live(self, select) || self.has_attr(select, n::MULTIPLE) {
                continue;
            }
            let options = self.list_of_options(select);
            let fresh = self.first_enabled_of(&options);
            if fresh != known {
                return Err(format!(
                    "select {select:?}: first enabled known {known:?}, is {fresh:?}"
                ));
            }
        }
        Ok(())
    }
}
