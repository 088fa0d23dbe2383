//! Evaluating an [`Expr`] over the arena (XPath 1.0, 2 "Location Paths", 3 "Expressions",
//! with the HTML Standard's "Interactions with XPath and XSLT" for name tests).
//!
//! Node-sets are vectors of [`Key`]s kept in document order without duplicates. Document
//! order comes from the document's preorder numbering (`Document::tree_order`, kept until the
//! next mutation; a detached subtree is numbered once per evaluation), read only when a step
//! or union must merge results. A step from many context
//! nodes whose predicates do not depend on the context position is evaluated for the whole
//! set at once, so that every axis costs time linear in the tree (descendants of nested
//! context nodes are walked once, ancestor and sibling walks stop at nodes already seen,
//! `following` and `preceding` of a set are those of one of its nodes). Every walk is
//! iterative; recursion follows only the expression's nesting, which the parser bounds.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use super::ast::{ArithOp, Axis, CmpOp, Expr, NodeTest, Span, Step};
use super::error::{XPathError, XPathErrorKind};
use super::value::{number_to_string, string_to_number};
use crate::dom::names::{AttrNamespace, Namespace};
use crate::dom::{Document, NodeData, NodeRef};
use crate::query::index::{ListKind, ci_hash};
use crate::query::{TreeOrder, UNNUMBERED};

pub(crate) type Raw = indextree::NodeId;

/// A node of the XPath data model: an arena node (`attr` 0), or the attribute `attr - 1` of
/// the element `node`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Key {
    pub(crate) node: Raw,
    pub(crate) attr: u32,
}

impl Key {
    pub(crate) fn node(node: Raw) -> Key {
        Key { node, attr: 0 }
    }

    pub(crate) fn is_attr(self) -> bool {
        self.attr != 0
    }
}

/// The four types of XPath 1.0 (1 "Introduction").
#[derive(Clone, Debug)]
pub(crate) enum Value {
    Nodes(Vec<Key>),
    Number(f64),
    Str(String),
    Bool(bool),
}

/// What one evaluation shares: the document, the context node's tree, lazily the document
/// order and the `id()` table.
pub(crate) struct Ctx<'a> {
    pub(crate) doc: &'a Document,
    pub(crate) expr: &'a str,
    /// The root of the context node's tree (the `Document` node, a fragment, or the top of a
    /// detached subtree): where absolute paths start.
    pub(crate) root: Raw,
    /// The document order of the context node's tree: the document's cached numbering, or
    /// for a tree outside it (a detached subtree), one made for this evaluation.
    order: OnceCell<Option<TreeOrder>>,
    ids: OnceCell<HashMap<&'a str, Raw>>,
}

type Result<T> = std::result::Result<T, XPathError>;

impl<'a> Ctx<'a> {
    pub(crate) fn new(doc: &'a Document, expr: &'a str, context: Raw) -> Ctx<'a> {
        let mut root = context;
        while let Some(p) = doc.arena[root].parent() {
            root = p;
        }
        Ctx {
            doc,
            expr,
            root,
            order: OnceCell::new(),
            ids: OnceCell::new(),
        }
    }

    pub(crate) fn node_ref(&self, id: Raw) -> NodeRef<'a> {
        NodeRef::new(self.doc, id)
    }

    pub(crate) fn error(&self, kind: XPathErrorKind, span: Span) -> XPathError {
        XPathError::new(kind, self.expr, span.0, span.1.saturating_sub(span.0))
    }

    // ---------------------------------------------------------------------------------------
    // Document order (5 "Data Model": attributes after their element, before its children).

    fn order(&self) -> &TreeOrder {
        let local = self.order.get_or_init(|| {
            let cached = self.doc.tree_order();
            (cached.pre(self.root) == UNNUMBERED).then(|| TreeOrder::number(self.doc, [self.root]))
        });
        match local {
            Some(order) => order,
            None => self.doc.tree_order(),
        }
    }

    fn pre(&self, key: Key) -> u32 {
        self.order().pre(key.node)
    }

    fn end(&self, key: Key) -> u32 {
        self.order().end(key.node)
    }

    /// Sorts keys into document order and drops duplicates.
    pub(crate) fn sort_dedup(&self, keys: &mut Vec<Key>) {
        if keys.len() < 2 {
            return;
        }
        let order = self.order();
        keys.sort_unstable_by_key(|k| (order.pre(k.node), k.attr));
        keys.dedup();
    }

    /// The element with each id, the first in tree order (for `id()`).
    pub(crate) fn element_by_id(&self, id: &str) -> Option<Raw> {
        let ids = self.ids.get_or_init(|| {
            let mut map = HashMap::new();
            for n in self.node_ref(self.root).descendants() {
                if let Some(value) = n.as_element().and_then(|e| e.id()) {
                    map.entry(value).or_insert(n.raw_id());
                }
            }
            map
        });
        ids.get(id).copied()
    }

    // ---------------------------------------------------------------------------------------
    // String-values and conversions (3.2-3.5, 4.2 string(), 4.3 boolean(), 4.4 number()).

    /// The string-value of a node (5 "Data Model"): the text descendants of an element or
    /// root, the data of a text node, comment or processing instruction, an attribute's
    /// value. (A DOCTYPE, which the DOM has and XPath does not, has the empty string.)
    pub(crate) fn string_value(&self, key: Key) -> String {
        if key.is_attr() {
            return self.attr_value(key).to_owned();
        }
        self.node_ref(key.node).text()
    }

    pub(crate) fn attr_value(&self, key: Key) -> &'a str {
        match self.doc.element_data(key.node) {
            Some(e) => self
                .doc
                .attrs_of(e)
                .get(key.attr as usize - 1)
                .map_or("", |a| self.doc.str(a.value)),
            None => "",
        }
    }

    pub(crate) fn to_string(&self, v: &Value) -> String {
        match v {
            Value::Nodes(keys) => keys
                .first()
                .map_or_else(String::new, |&k| self.string_value(k)),
            Value::Number(n) => number_to_string(*n),
            Value::Str(s) => s.clone(),
            Value::Bool(b) => if *b { "true" } else { "false" }.to_owned(),
        }
    }

    pub(crate) fn to_number(&self, v: &Value) -> f64 {
        match v {
            Value::Number(n) => *n,
            Value::Bool(b) => f64::from(u8::from(*b)),
            Value::Str(s) => string_to_number(s),
            Value::Nodes(_) => string_to_number(&self.to_string(v)),
        }
    }

    pub(crate) fn to_boolean(v: &Value) -> bool {
        match v {
            Value::Nodes(keys) => !keys.is_empty(),
            Value::Number(n) => *n != 0.0 && !n.is_nan(),
            Value::Str(s) => !s.is_empty(),
            Value::Bool(b) => *b,
        }
    }

    // ---------------------------------------------------------------------------------------
    // Expressions (3 "Expressions").

    /// Evaluates `e` with the context node `node`, position `pos` and size `size`.
    ///
    /// Each kind of expression has its own function, so that the frame of this one, which
    /// every nesting level of the expression puts on the stack, stays small (in debug builds
    /// too).
    pub(crate) fn eval(&self, e: &Expr, node: Key, pos: usize, size: usize) -> Result<Value> {
        match e {
            Expr::Or(list) => self.eval_or(list, node, pos, size),
            Expr::And(list) => self.eval_and(list, node, pos, size),
            Expr::Compare(first, rest) => self.eval_compare(first, rest, node, pos, size),
            Expr::Arith(first, rest) => self.eval_arith(first, rest, node, pos, size),
            Expr::Negate { expr, odd } => {
                let n = self.eval_number(expr, node, pos, size)?;
                Ok(Value::Number(if *odd { -n } else { n }))
            }
            Expr::Union(list) => self.eval_union(list, node, pos, size),
            Expr::Path { absolute, steps } => {
                if let Some(step) = simple_step(*absolute, steps) {
                    // One step, no predicates: the axis filtered, without the general
                    // machinery (a predicate like `[@href]` or `[img]` on every node).
                    let mut keys: Vec<Key> = AxisIter::new(self, node, step.axis)
                        .filter(|&k| self.node_test(k, step.axis, &step.test))
                        .collect();
                    if step.axis.is_reverse() {
                        keys.reverse();
                    }
                    return Ok(Value::Nodes(keys));
                }
                let start = if *absolute {
                    Key::node(self.root)
                } else {
                    node
                };
                Ok(Value::Nodes(self.steps(vec![start], steps)?))
            }
            Expr::Filter {
                primary,
                predicates,
                steps,
                span,
            } => self.eval_filter(primary, predicates, steps, *span, node, pos, size),
            Expr::Literal(s) => Ok(Value::Str(s.clone())),
            Expr::Number(n) => Ok(Value::Number(*n)),
            Expr::Call {
                function,
                args,
                span,
            } => self.call(*function, args, *span, node, pos, size),
        }
    }

    pub(crate) fn eval_number(&self, e: &Expr, node: Key, pos: usize, size: usize) -> Result<f64> {
        let v = self.eval(e, node, pos, size)?;
        Ok(self.to_number(&v))
    }

    pub(crate) fn eval_boolean(
        &self,
        e: &Expr,
        node: Key,
        pos: usize,
        size: usize,
    ) -> Result<bool> {
        if let Expr::Path { absolute, steps } = e {
            if let Some(step) = simple_step(*absolute, steps) {
                // Whether the node-set is empty: stop at the first node.
                return Ok(AxisIter::new(self, node, step.axis)
                    .any(|k| self.node_test(k, step.axis, &step.test)));
            }
        }
        let v = self.eval(e, node, pos, size)?;
        Ok(Ctx::to_boolean(&v))
    }

    /// The string value of a one-step relative path on a forward axis (`@href`, `title`,
    /// `text()`) without building its node-set: the first node's string-value, or "" if
    /// none. `None` for other expressions.
    pub(crate) fn first_string_value(&self, e: &Expr, node: Key) -> Option<String> {
        let Expr::Path { absolute, steps } = e else {
            return None;
        };
        let step = simple_step(*absolute, steps).filter(|s| !s.axis.is_reverse())?;
        Some(
            AxisIter::new(self, node, step.axis)
                .find(|&k| self.node_test(k, step.axis, &step.test))
                .map_or_else(String::new, |k| self.string_value(k)),
        )
    }

    /// 3.4: `or` evaluates operands left to right until one is true.
    fn eval_or(&self, list: &[Expr], node: Key, pos: usize, size: usize) -> Result<Value> {
        for e in list {
            if self.eval_boolean(e, node, pos, size)? {
                return Ok(Value::Bool(true));
            }
        }
        Ok(Value::Bool(false))
    }

    /// 3.4: `and` evaluates operands left to right until one is false.
    fn eval_and(&self, list: &[Expr], node: Key, pos: usize, size: usize) -> Result<Value> {
        for e in list {
            if !self.eval_boolean(e, node, pos, size)? {
                return Ok(Value::Bool(false));
            }
        }
        Ok(Value::Bool(true))
    }

    fn eval_compare(
        &self,
        first: &Expr,
        rest: &[(CmpOp, Expr)],
        node: Key,
        pos: usize,
        size: usize,
    ) -> Result<Value> {
        let mut value = self.eval(first, node, pos, size)?;
        for (op, e) in rest {
            let right = self.eval(e, node, pos, size)?;
            value = Value::Bool(self.compare(*op, &value, &right));
        }
        Ok(value)
    }

    /// 3.5 "Numbers": IEEE 754 arithmetic; `mod` truncates (like `%` in Rust).
    fn eval_arith(
        &self,
        first: &Expr,
        rest: &[(ArithOp, Expr)],
        node: Key,
        pos: usize,
        size: usize,
    ) -> Result<Value> {
        let mut n = self.eval_number(first, node, pos, size)?;
        for (op, e) in rest {
            let m = self.eval_number(e, node, pos, size)?;
            n = match op {
                ArithOp::Add => n + m,
                ArithOp::Sub => n - m,
                ArithOp::Mul => n * m,
                ArithOp::Div => n / m,
                ArithOp::Mod => n % m,
            };
        }
        Ok(Value::Number(n))
    }

    /// 3.3 "Node-sets": the union of the operands' node-sets.
    fn eval_union(
        &self,
        list: &[(Expr, Span)],
        node: Key,
        pos: usize,
        size: usize,
    ) -> Result<Value> {
        let mut all = Vec::new();
        for (e, span) in list {
            match self.eval(e, node, pos, size)? {
                Value::Nodes(keys) => all.extend(keys),
                _ => return Err(self.error(XPathErrorKind::NotANodeSet, *span)),
            }
        }
        self.sort_dedup(&mut all);
        Ok(Value::Nodes(all))
    }

    /// 3.3: a filter expression's predicates count positions along the child axis, that is
    /// in document order; then the steps.
    #[allow(clippy::too_many_arguments)]
    fn eval_filter(
        &self,
        primary: &Expr,
        predicates: &[Expr],
        steps: &[Step],
        span: Span,
        node: Key,
        pos: usize,
        size: usize,
    ) -> Result<Value> {
        let Value::Nodes(keys) = self.eval(primary, node, pos, size)? else {
            return Err(self.error(XPathErrorKind::NotANodeSet, span));
        };
        let keys = self.predicates(keys, predicates)?;
        Ok(Value::Nodes(self.steps(keys, steps)?))
    }

    /// 3.4 "Booleans": `=`, `!=`, `<`, `<=`, `>`, `>=` between any two values.
    fn compare(&self, op: CmpOp, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Nodes(x), Value::Nodes(y)) => self.compare_node_sets(op, x, y),
            (Value::Nodes(x), other) => self.compare_node_set(op, x, other),
            (other, Value::Nodes(y)) => self.compare_node_set(flip(op), y, other),
            _ => {
                if matches!(op, CmpOp::Eq | CmpOp::NotEq) {
                    let equal = if matches!(a, Value::Bool(_)) || matches!(b, Value::Bool(_)) {
                        Ctx::to_boolean(a) == Ctx::to_boolean(b)
                    } else if matches!(a, Value::Number(_)) || matches!(b, Value::Number(_)) {
                        self.to_number(a) == self.to_number(b)
                    } else {
                        self.to_string(a) == self.to_string(b)
                    };
                    equal == (op == CmpOp::Eq)
                } else {
                    compare_numbers(op, self.to_number(a), self.to_number(b))
                }
            }
        }
    }

    /// Two node-sets: true if some pair of their nodes' string-values compares true. In time
    /// linear in their sizes: a hash set of strings for `=`; for `!=`, whether two differing
    /// strings exist; for the relational operators, the extreme numbers.
    fn compare_node_sets(&self, op: CmpOp, x: &[Key], y: &[Key]) -> bool {
        if x.is_empty() || y.is_empty() {
            return false;
        }
        match op {
            CmpOp::Eq => {
                let ys: HashSet<String> = y.iter().map(|&k| self.string_value(k)).collect();
                x.iter().any(|&k| ys.contains(&self.string_value(k)))
            }
            CmpOp::NotEq => {
                let first = self.string_value(x[0]);
                x.iter().chain(y).any(|&k| self.string_value(k) != first)
            }
            _ => {
                let (xmin, xmax) = self.number_range(x);
                let (ymin, ymax) = self.number_range(y);
                match op {
                    CmpOp::Lt => xmin < ymax,
                    CmpOp::LtEq => xmin <= ymax,
                    CmpOp::Gt => xmax > ymin,
                    _ => xmax >= ymin,
                }
            }
        }
    }

    /// The least and greatest non-NaN number of the nodes' string-values (NaN, NaN if none).
    fn number_range(&self, keys: &[Key]) -> (f64, f64) {
        let mut range = (f64::NAN, f64::NAN);
        for &k in keys {
            let n = string_to_number(&self.string_value(k));
            if !n.is_nan() {
                range.0 = if range.0.is_nan() { n } else { range.0.min(n) };
                range.1 = if range.1.is_nan() { n } else { range.1.max(n) };
            }
        }
        range
    }

    /// A node-set (on the left) and another type.
    fn compare_node_set(&self, op: CmpOp, x: &[Key], other: &Value) -> bool {
        match other {
            Value::Bool(_) => self.compare(op, &Value::Bool(!x.is_empty()), other),
            Value::Number(n) => x
                .iter()
                .any(|&k| compare_numbers(op, string_to_number(&self.string_value(k)), *n)),
            Value::Str(s) if matches!(op, CmpOp::Eq | CmpOp::NotEq) => x
                .iter()
                .any(|&k| (self.string_value(k) == *s) == (op == CmpOp::Eq)),
            Value::Str(s) => {
                let n = string_to_number(s);
                x.iter()
                    .any(|&k| compare_numbers(op, string_to_number(&self.string_value(k)), n))
            }
            Value::Nodes(y) => self.compare_node_sets(op, x, y),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Location paths (2 "Location Paths").

    /// Applies `steps` to a node-set in document order; the result is in document order.
    pub(crate) fn steps(&self, mut set: Vec<Key>, steps: &[Step]) -> Result<Vec<Key>> {
        let mut i = 0;
        while i < steps.len() && !set.is_empty() {
            if let ([context], Some(child)) =
                (set.as_slice(), self.positional_child_of_all(&steps[i..]))
            {
                set = self.children_of_all_descendants(*context, child)?;
                i += 2;
                continue;
            }
            set = self.step(&set, &steps[i])?;
            i += 1;
        }
        Ok(set)
    }

    /// For `descendant-or-self::node()/child::T[p]` with position-dependent predicates (what
    /// `//li[last()]` and `//p[1]` mean), the child step.
    fn positional_child_of_all<'s>(&self, steps: &'s [Step]) -> Option<&'s Step> {
        match steps {
            [first, child, ..]
                if first.axis == Axis::DescendantOrSelf
                    && first.test == NodeTest::Node
                    && first.predicates.is_empty()
                    && child.axis == Axis::Child =>
            {
                Some(child)
            }
            _ => None,
        }
    }

    /// `descendant-or-self::node()/child::T[p]` from one node in one pass: the context's
    /// descendants that pass T, grouped by parent (each group is one parent's `child::T`, in
    /// axis order), filtered per group, then sorted. Linear, where the step-by-step way walks
    /// the children of every node separately.
    fn children_of_all_descendants(&self, context: Key, child: &Step) -> Result<Vec<Key>> {
        if context.is_attr() {
            return Ok(Vec::new());
        }
        let mut candidates = Vec::new();
        if !self.indexed_descendants(context, Axis::Descendant, &child.test, &mut candidates) {
            candidates.extend(
                AxisIter::new(self, context, Axis::Descendant)
                    .filter(|&k| self.node_test(k, Axis::Child, &child.test)),
            );
        }
        let mut groups: HashMap<Raw, Vec<Key>> = HashMap::new();
        let mut parents = Vec::new();
        for k in candidates {
            if let Some(parent) = self.doc.arena[k.node].parent() {
                groups
                    .entry(parent)
                    .or_insert_with(|| {
                        parents.push(parent);
                        Vec::new()
                    })
                    .push(k);
            }
        }
        let mut out = Vec::new();
        for parent in parents {
            if let Some(mut group) = groups.remove(&parent) {
                self.filter_in_place(&mut group, &child.predicates)?;
                out.extend_from_slice(&group);
            }
        }
        self.sort_dedup(&mut out);
        Ok(out)
    }

    /// 2.1 "Location Steps": the nodes the axis, node test and predicates select from each
    /// context node, united.
    fn step(&self, contexts: &[Key], step: &Step) -> Result<Vec<Key>> {
        if step.axis == Axis::Namespace {
            // The DOM has no namespace nodes (nor has Chromium's XPath).
            return Ok(Vec::new());
        }
        let positional = step.predicates.iter().any(Expr::is_positional);
        if contexts.len() > 1 && !positional {
            return self.step_position_free(contexts, step);
        }
        // A first predicate `[k]` needs only the first k nodes of the axis.
        let limit = match step.predicates.first() {
            Some(Expr::Number(k)) if *k >= 1.0 && k.fract() == 0.0 => *k as usize,
            Some(Expr::Number(_)) => return Ok(Vec::new()),
            _ => usize::MAX,
        };
        let mut out = Vec::new();
        let mut list = Vec::new();
        for &context in contexts {
            list.clear();
            if !self.indexed_descendants(context, step.axis, &step.test, &mut list) {
                list.extend(
                    AxisIter::new(self, context, step.axis)
                        .filter(|&k| self.node_test(k, step.axis, &step.test))
                        .take(limit),
                );
            }
            list.truncate(limit);
            self.filter_in_place(&mut list, &step.predicates)?;
            if step.axis.is_reverse() {
                list.reverse();
            }
            out.extend_from_slice(&list);
        }
        if contexts.len() > 1 {
            self.sort_dedup(&mut out);
        }
        Ok(out)
    }

    /// A step with position-free predicates from several context nodes: the axis for the
    /// whole set at once (each node reached once), then the test and predicates per node.
    fn step_position_free(&self, contexts: &[Key], step: &Step) -> Result<Vec<Key>> {
        let (nodes, sorted) = self.axis_union(contexts, step.axis, &step.test);
        let mut out = Vec::with_capacity(nodes.len());
        'nodes: for k in nodes {
            if !self.node_test(k, step.axis, &step.test) {
                continue;
            }
            for p in &step.predicates {
                if !self.eval_boolean(p, k, 1, 1)? {
                    continue 'nodes;
                }
            }
            out.push(k);
        }
        if !sorted {
            self.sort_dedup(&mut out);
        }
        Ok(out)
    }

    /// The union of an axis over a node-set in document order, each node once; and whether
    /// it is already sorted.
    fn axis_union(&self, contexts: &[Key], axis: Axis, test: &NodeTest) -> (Vec<Key>, bool) {
        let mut out = Vec::new();
        match axis {
            Axis::SelfAxis => return (contexts.to_vec(), true),
            Axis::Namespace => return (out, true),
            Axis::Child | Axis::Attribute | Axis::Parent => {
                for &c in contexts {
                    out.extend(AxisIter::new(self, c, axis));
                }
                // Children of nested contexts interleave; attributes of sorted contexts are
                // sorted; parents repeat.
                return (out, axis == Axis::Attribute);
            }
            Axis::Descendant | Axis::DescendantOrSelf => {
                // Skip contexts inside the subtree of one already walked.
                let mut covered_until = 0u32;
                let mut sorted = true;
                for &c in contexts {
                    if c.is_attr() {
                        if axis == Axis::DescendantOrSelf {
                            out.push(c);
                            sorted = false;
                        }
                        continue;
                    }
                    if self.pre(c) < covered_until {
                        continue;
                    }
                    covered_until = self.end(c);
                    if !self.indexed_descendants(c, axis, test, &mut out) {
                        out.extend(AxisIter::new(self, c, axis));
                    }
                }
                return (out, sorted);
            }
            Axis::Ancestor | Axis::AncestorOrSelf => {
                let mut seen = HashSet::new();
                for &c in contexts {
                    if axis == Axis::AncestorOrSelf {
                        out.push(c);
                    }
                    let start = if c.is_attr() {
                        Some(c.node)
                    } else {
                        self.doc.arena[c.node].parent()
                    };
                    let mut cur = start;
                    while let Some(p) = cur {
                        if !seen.insert(p) {
                            break;
                        }
                        out.push(Key::node(p));
                        cur = self.doc.arena[p].parent();
                    }
                }
            }
            Axis::FollowingSibling | Axis::PrecedingSibling => {
                // A walk that reaches a node already seen has seen the rest of the way too.
                let mut seen = HashSet::new();
                for &c in contexts {
                    if c.is_attr() {
                        continue;
                    }
                    let mut cur = c.node;
                    loop {
                        let next = if axis == Axis::FollowingSibling {
                            self.doc.arena[cur].next_sibling()
                        } else {
                            self.doc.arena[cur].previous_sibling()
                        };
                        match next {
                            Some(n) if seen.insert(n) => {
                                out.push(Key::node(n));
                                cur = n;
                            }
                            _ => break,
                        }
                    }
                }
            }
            Axis::Following => {
                // following(c) is every node numbered from the end of c's subtree on (for an
                // attribute, from its element's first child on): the union is that of the
                // context whose start is earliest.
                let start = |c: Key| {
                    if c.is_attr() {
                        self.pre(c) + 1
                    } else {
                        self.end(c)
                    }
                };
                if let Some(&c) = contexts.iter().min_by_key(|&&c| start(c)) {
                    out.extend(AxisIter::new(self, c, axis));
                }
                return (out, true);
            }
            Axis::Preceding => {
                // preceding(c) is every node whose subtree ends before c starts: the union is
                // that of the last context.
                if let Some(&c) = contexts.iter().max_by_key(|&&c| (self.pre(c), c.attr)) {
                    out.extend(AxisIter::new(self, c, axis));
                    out.reverse();
                }
                return (out, true);
            }
        }
        (out, false)
    }

    /// The descendant (or descendant-or-self) elements of `c` that pass an element name test,
    /// appended to `out` in document order from the selector index (its elements in document
    /// order and its candidate lists by ASCII-lowercased local name: a name test visits only
    /// the elements with that name's hash). False, with nothing appended, when the index does
    /// not apply (another node test, a context outside the document's indexed tree).
    fn indexed_descendants(&self, c: Key, axis: Axis, test: &NodeTest, out: &mut Vec<Key>) -> bool {
        if c.is_attr() || !matches!(axis, Axis::Descendant | Axis::DescendantOrSelf) {
            return false;
        }
        let hash = match test {
            NodeTest::Name { local, .. } => Some(ci_hash(local)),
            NodeTest::AnyName { .. } => None,
            _ => return false,
        };
        let index = self.doc.select_index();
        if !index.has_lists {
            return false;
        }
        let range = if c.node == self.doc.root {
            index.trees.first().copied()
        } else {
            index.pos_of(c.node).map(|p| {
                let first = if axis == Axis::DescendantOrSelf {
                    p
                } else {
                    p + 1
                };
                (first, index.elem(p).end)
            })
        };
        let Some((lo, hi)) = range else {
            return false;
        };
        let mut push = |pos: u32| {
            let k = Key::node(index.elem(pos).node);
            if self.node_test(k, axis, test) {
                out.push(k);
            }
        };
        // Elements removed since the index was built are marked dead: skip them (a dead
        // element's whole subtree is dead).
        match hash {
            Some(hash) => {
                // (Elements added since the list was built are not in it: without them.)
                let Some(lists) = index
                    .lists_with(ListKind::LocalName, true)
                    .filter(|lists| !lists.has_extra())
                else {
                    return false;
                };
                let list = lists.list(ListKind::LocalName);
                for &(_, pos) in &list[lists.range(ListKind::LocalName, hash, lo, hi)] {
                    if !index.is_dead(pos) {
                        push(pos);
                    }
                }
            }
            None => {
                let mut pos = lo;
                while pos < hi {
                    if index.is_dead(pos) {
                        pos = index.elem(pos).end.max(pos + 1);
                        continue;
                    }
                    push(pos);
                    pos += 1;
                }
            }
        }
        true
    }

    /// Filters `keys` by each predicate in turn (2.4 "Predicates"): positions count from 1 in
    /// the list's order (the axis order); a number predicate is true at that position.
    pub(crate) fn predicates(&self, mut keys: Vec<Key>, predicates: &[Expr]) -> Result<Vec<Key>> {
        self.filter_in_place(&mut keys, predicates)?;
        Ok(keys)
    }

    /// [`Ctx::predicates`] on a vector in place (kept nodes move to the front).
    fn filter_in_place(&self, keys: &mut Vec<Key>, predicates: &[Expr]) -> Result<()> {
        for p in predicates {
            let size = keys.len();
            let mut kept = 0;
            for i in 0..size {
                let k = keys[i];
                let keep = match p {
                    // A number predicate is true at that position.
                    Expr::Number(n) => *n == (i + 1) as f64,
                    _ if !p.is_positional() => self.eval_boolean(p, k, i + 1, size)?,
                    _ => match self.eval(p, k, i + 1, size)? {
                        Value::Number(n) => n == (i + 1) as f64,
                        v => Ctx::to_boolean(&v),
                    },
                };
                if keep {
                    keys[kept] = k;
                    kept += 1;
                }
            }
            keys.truncate(kept);
        }
        Ok(())
    }

    /// 2.3 "Node Tests", with the HTML Standard's rule for name tests in HTML documents: a
    /// name without prefix matches HTML elements ASCII case-insensitively, and elements in
    /// other namespaces only if they have no namespace; the principal node type is attribute
    /// on the attribute axis, element elsewhere.
    fn node_test(&self, k: Key, axis: Axis, test: &NodeTest) -> bool {
        let data = self.doc.data(k.node);
        match test {
            NodeTest::Node => true,
            _ if k.is_attr() => self.attribute_test(k, axis, test),
            NodeTest::Text => matches!(data, NodeData::Text(_)),
            NodeTest::Comment => matches!(data, NodeData::Comment(_)),
            NodeTest::ProcessingInstruction(target) => match data {
                NodeData::ProcessingInstruction(pi) => {
                    target.as_ref().is_none_or(|t| self.doc.str(pi.target) == t)
                }
                _ => false,
            },
            _ if axis == Axis::Attribute => false,
            NodeTest::AnyName { ns } => match data {
                NodeData::Element(e) => ns.as_ref().is_none_or(|ns| namespace_uri(e.ns) == ns),
                _ => false,
            },
            NodeTest::Name { ns, local } => match data {
                NodeData::Element(e) => {
                    let name = self.doc.name_str(e.name);
                    if e.ns == Namespace::Html {
                        name.eq_ignore_ascii_case(local)
                            && ns.as_ref().is_none_or(|ns| namespace_uri(e.ns) == ns)
                    } else {
                        name == local && namespace_uri(e.ns) == ns.as_deref().unwrap_or("")
                    }
                }
                _ => false,
            },
        }
    }

    /// A name test on an attribute node: true only on the attribute axis (the principal node
    /// type of every other axis is element).
    fn attribute_test(&self, k: Key, axis: Axis, test: &NodeTest) -> bool {
        if axis != Axis::Attribute {
            return false;
        }
        let Some((name, attr_ns, html)) = self.attr_name(k) else {
            return false;
        };
        // The attribute's namespace is that of the test: none without prefix.
        let same_namespace = |ns: &Option<String>| match ns {
            None => attr_ns == AttrNamespace::None,
            Some(ns) => attr_ns.url() == Some(ns.as_str()),
        };
        match test {
            NodeTest::AnyName { ns } => ns.is_none() || same_namespace(ns),
            NodeTest::Name { ns, local } => {
                // Attribute names of HTML elements are lowercase: compare without case, as
                // Chromium does.
                let same = if html && attr_ns == AttrNamespace::None {
                    name.eq_ignore_ascii_case(local)
                } else {
                    name == local
                };
                same && same_namespace(ns)
            }
            _ => false,
        }
    }

    /// An attribute's local name, namespace, and whether its element is an HTML element.
    pub(crate) fn attr_name(&self, k: Key) -> Option<(&'a str, AttrNamespace, bool)> {
        let e = self.doc.element_data(k.node)?;
        let a = self.doc.attrs_of(e).get(k.attr as usize - 1)?;
        Some((self.doc.name_str(a.name), a.ns, e.ns == Namespace::Html))
    }
}

/// The step of a relative one-step path without predicates (`@href`, `img`, `text()`).
fn simple_step(absolute: bool, steps: &[Step]) -> Option<&Step> {
    match steps {
        [step] if !absolute && step.predicates.is_empty() && step.axis != Axis::Namespace => {
            Some(step)
        }
        _ => None,
    }
}

/// The namespace URI of an element ("" for none).
pub(crate) fn namespace_uri(ns: Namespace) -> &'static str {
    ns.url()
}

/// The operator with its operands swapped.
fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::LtEq => CmpOp::GtEq,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::GtEq => CmpOp::LtEq,
        other => other,
    }
}

fn compare_numbers(op: CmpOp, a: f64, b: f64) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::NotEq => a != b,
        CmpOp::Lt => a < b,
        CmpOp::LtEq => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::GtEq => a >= b,
    }
}

/// The nodes of an axis from one context node, in axis order (2.2 "Axes": reverse axes
/// nearest first), each step O(1) amortized and iterative.
pub(crate) struct AxisIter<'c, 'a> {
    ctx: &'c Ctx<'a>,
    state: State,
}

enum State {
    Done,
    /// One node, then done.
    One(Key),
    /// One node, then the rest of the walk.
    Then(Key, Box<State>),
    /// Siblings: next (or previous) from this node.
    Siblings {
        next: Option<Raw>,
        forward: bool,
    },
    /// Ancestors from this node up.
    Up(Option<Raw>),
    /// A preorder walk of the subtree of `root` (exclusive), next at `next`.
    Subtree {
        root: Raw,
        next: Option<Raw>,
    },
    /// A preorder walk from `next` to the end of the tree.
    Onward(Option<Raw>),
    /// Reverse document order from `from` (exclusive), skipping its ancestors (the next one
    /// to skip is `ancestor`).
    Back {
        from: Raw,
        ancestor: Option<Raw>,
    },
    /// The attributes of `element`: index `next` (0-based) of `len`.
    Attrs {
        element: Raw,
        next: u32,
        len: u32,
    },
}

impl<'c, 'a> AxisIter<'c, 'a> {
    pub(crate) fn new(ctx: &'c Ctx<'a>, c: Key, axis: Axis) -> Self {
        let arena = &ctx.doc.arena;
        let n = c.node;
        let state = if c.is_attr() {
            // From an attribute: its element is its parent; it has no children or siblings.
            match axis {
                Axis::SelfAxis | Axis::DescendantOrSelf => State::One(c),
                Axis::Parent => State::One(Key::node(n)),
                Axis::Ancestor => State::Up(Some(n)),
                Axis::AncestorOrSelf => State::Then(c, Box::new(State::Up(Some(n)))),
                Axis::Following => State::Onward(next_preorder(ctx, n)),
                Axis::Preceding => State::Back {
                    from: n,
                    ancestor: arena[n].parent(),
                },
                _ => State::Done,
            }
        } else {
            match axis {
                Axis::SelfAxis => State::One(c),
                Axis::Child => State::Siblings {
                    next: arena[n].first_child(),
                    forward: true,
                },
                Axis::Descendant => State::Subtree {
                    root: n,
                    next: arena[n].first_child(),
                },
                Axis::DescendantOrSelf => State::Then(
                    c,
                    Box::new(State::Subtree {
                        root: n,
                        next: arena[n].first_child(),
                    }),
                ),
                Axis::Parent => match arena[n].parent() {
                    Some(p) => State::One(Key::node(p)),
                    None => State::Done,
                },
                Axis::Ancestor => State::Up(arena[n].parent()),
                Axis::AncestorOrSelf => State::Up(Some(n)),
                Axis::FollowingSibling => State::Siblings {
                    next: arena[n].next_sibling(),
                    forward: true,
                },
                Axis::PrecedingSibling => State::Siblings {
                    next: arena[n].previous_sibling(),
                    forward: false,
                },
                Axis::Following => State::Onward(next_skipping_children(ctx, n)),
                Axis::Preceding => State::Back {
                    from: n,
                    ancestor: arena[n].parent(),
                },
                Axis::Attribute => match ctx.doc.element_data(n) {
                    Some(e) => State::Attrs {
                        element: n,
                        next: 0,
                        len: e.attrs.len,
                    },
                    None => State::Done,
                },
                Axis::Namespace => State::Done,
            }
        };
        AxisIter { ctx, state }
    }
}

/// The next node in preorder after `n`'s subtree, within the context's tree.
fn next_skipping_children(ctx: &Ctx<'_>, mut n: Raw) -> Option<Raw> {
    let arena = &ctx.doc.arena;
    loop {
        if n == ctx.root {
            return None;
        }
        if let Some(s) = arena[n].next_sibling() {
            return Some(s);
        }
        n = arena[n].parent()?;
    }
}

/// The next node in preorder after `n`, within the context's tree.
fn next_preorder(ctx: &Ctx<'_>, n: Raw) -> Option<Raw> {
    match ctx.doc.arena[n].first_child() {
        Some(c) => Some(c),
        None => next_skipping_children(ctx, n),
    }
}

impl Iterator for AxisIter<'_, '_> {
    type Item = Key;

    fn next(&mut self) -> Option<Key> {
        let ctx = self.ctx;
        let arena = &ctx.doc.arena;
        match &mut self.state {
            State::Done => None,
            State::One(k) => {
                let k = *k;
                self.state = State::Done;
                Some(k)
            }
            State::Then(k, rest) => {
                let k = *k;
                self.state = std::mem::replace(rest.as_mut(), State::Done);
                Some(k)
            }
            State::Siblings { next, forward } => {
                let n = (*next)?;
                *next = if *forward {
                    arena[n].next_sibling()
                } else {
                    arena[n].previous_sibling()
                };
                Some(Key::node(n))
            }
            State::Up(next) => {
                let n = (*next)?;
                *next = arena[n].parent();
                Some(Key::node(n))
            }
            State::Subtree { root, next } => {
                let n = (*next)?;
                *next = match arena[n].first_child() {
                    Some(c) => Some(c),
                    None => {
                        // The next sibling of the nearest of n and its ancestors below root.
                        let mut cur = n;
                        loop {
                            if cur == *root {
                                break None;
                            }
                            if let Some(s) = arena[cur].next_sibling() {
                                break Some(s);
                            }
                            match arena[cur].parent() {
                                Some(p) if p != *root => cur = p,
                                _ => break None,
                            }
                        }
                    }
                };
                Some(Key::node(n))
            }
            State::Onward(next) => {
                let n = (*next)?;
                *next = next_preorder(ctx, n);
                Some(Key::node(n))
            }
            State::Back { from, ancestor } => loop {
                if let Some(p) = arena[*from].previous_sibling() {
                    // The last node in preorder of p's subtree.
                    let mut last = p;
                    while let Some(c) = arena[last].last_child() {
                        last = c;
                    }
                    *from = last;
                    return Some(Key::node(last));
                }
                let parent = arena[*from].parent()?;
                *from = parent;
                if Some(parent) == *ancestor {
                    *ancestor = arena[parent].parent();
                    continue;
                }
                return Some(Key::node(parent));
            },
            State::Attrs { element, next, len } => loop {
                if *next >= *len {
                    return None;
                }
                *next += 1;
                let key = Key {
                    node: *element,
                    attr: *next,
                };
                // 5.3 "Attribute Nodes": namespace declarations are not attributes.
                match ctx.attr_name(key) {
                    Some((_, AttrNamespace::Xmlns, _)) => continue,
                    _ => return Some(key),
                }
            },
        }
    }
}
