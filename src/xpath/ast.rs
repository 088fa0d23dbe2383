//! The parsed form of an XPath 1.0 expression.
//!
//! Chains of one operator level (`a or b or c`, `1 + 2 - 3`, `a | b | c`) are flat lists, not
//! nested pairs, so the tree's depth grows only with nesting (parentheses, predicates,
//! function arguments), which the parser bounds: evaluating it recurses at most that deep.

use super::functions::Function;

/// The 13 axes (XPath 1.0, 2.2 "Axes").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Axis {
    /// `ancestor::`
    Ancestor,
    /// `ancestor-or-self::`
    AncestorOrSelf,
    /// `attribute::` (`@`)
    Attribute,
    /// `child::` (the default)
    Child,
    /// `descendant::`
    Descendant,
    /// `descendant-or-self::` (`//` is `/descendant-or-self::node()/`)
    DescendantOrSelf,
    /// `following::`
    Following,
    /// `following-sibling::`
    FollowingSibling,
    /// `namespace::` (always empty here: the DOM has no namespace nodes)
    Namespace,
    /// `parent::` (`..`)
    Parent,
    /// `preceding::`
    Preceding,
    /// `preceding-sibling::`
    PrecedingSibling,
    /// `self::` (`.`)
    SelfAxis,
}

impl Axis {
    /// The axis named `name` (\[6\] AxisName).
    pub(crate) fn from_name(name: &str) -> Option<Axis> {
        Some(match name {
            "ancestor" => Axis::Ancestor,
            "ancestor-or-self" => Axis::AncestorOrSelf,
            "attribute" => Axis::Attribute,
            "child" => Axis::Child,
            "descendant" => Axis::Descendant,
            "descendant-or-self" => Axis::DescendantOrSelf,
            "following" => Axis::Following,
            "following-sibling" => Axis::FollowingSibling,
            "namespace" => Axis::Namespace,
            "parent" => Axis::Parent,
            "preceding" => Axis::Preceding,
            "preceding-sibling" => Axis::PrecedingSibling,
            "self" => Axis::SelfAxis,
            _ => return None,
        })
    }

    /// Whether it is a reverse axis (2.4 "Predicates": proximity positions count backwards
    /// in document order).
    pub(crate) fn is_reverse(self) -> bool {
        matches!(
            self,
            Axis::Ancestor | Axis::AncestorOrSelf | Axis::Preceding | Axis::PrecedingSibling
        )
    }
}

/// \[38\] NodeType.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum NodeType {
    Comment,
    Text,
    ProcessingInstruction,
    Node,
}

/// A node test (2.3 "Node Tests").
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NodeTest {
    /// `*` (`ns` `None`) or `prefix:*` (`ns` the prefix's URI).
    AnyName { ns: Option<String> },
    /// A QName: `ns` is the prefix's URI (`None` without prefix), `local` as written.
    Name { ns: Option<String>, local: String },
    /// `text()`
    Text,
    /// `comment()`
    Comment,
    /// `processing-instruction()` or `processing-instruction('target')`
    ProcessingInstruction(Option<String>),
    /// `node()`
    Node,
}

/// A location step (2.1 "Location Steps").
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub(crate) axis: Axis,
    pub(crate) test: NodeTest,
    pub(crate) predicates: Vec<Expr>,
}

/// A comparison operator (3.4 "Booleans").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
}

/// An arithmetic operator (3.5 "Numbers").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// A byte range of the expression text: (start, end).
pub(crate) type Span = (usize, usize);

/// An expression (3 "Expressions").
#[derive(Clone, Debug)]
pub(crate) enum Expr {
    /// `a or b or ...` (two or more).
    Or(Vec<Expr>),
    /// `a and b and ...` (two or more).
    And(Vec<Expr>),
    /// A left-associative chain of comparisons of one level (equality or relational).
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    /// A left-associative chain of arithmetic of one level (additive or multiplicative).
    Arith(Box<Expr>, Vec<(ArithOp, Expr)>),
    /// Unary minus, applied once when `odd` (`--x` is `number(x)`).
    Negate {
        expr: Box<Expr>,
        odd: bool,
    },
    /// `a | b | ...` (two or more), with each operand's byte span (for type errors).
    Union(Vec<(Expr, Span)>),
    /// A location path.
    Path {
        absolute: bool,
        steps: Vec<Step>,
    },
    /// A filter expression: a primary expression, predicates, then maybe a relative path;
    /// `span` is the primary expression's (for type errors).
    Filter {
        primary: Box<Expr>,
        predicates: Vec<Expr>,
        steps: Vec<Step>,
        span: Span,
    },
    Literal(String),
    Number(f64),
    /// A function call, with the call's byte span (for type errors).
    Call {
        function: Function,
        args: Vec<Expr>,
        span: Span,
    },
}

impl Expr {
    /// Whether the value of this expression, used as a predicate, may depend on the
    /// context position or size: its type may be a number (a number predicate compares with
    /// the position), or it calls `position()` or `last()` in the predicate's own context.
    /// Steps whose predicates are all position-free can be evaluated once for a whole
    /// context node-set.
    pub(crate) fn is_positional(&self) -> bool {
        self.may_be_number() || self.uses_position()
    }

    fn may_be_number(&self) -> bool {
        match self {
            Expr::Number(_) | Expr::Arith(..) | Expr::Negate { .. } => true,
            Expr::Call { function, .. } => function.returns_number(),
            _ => false,
        }
    }

    fn uses_position(&self) -> bool {
        match self {
            Expr::Or(list) | Expr::And(list) => list.iter().any(Expr::uses_position),
            Expr::Compare(first, rest) => {
                first.uses_position() || rest.iter().any(|(_, e)| e.uses_position())
            }
            Expr::Arith(first, rest) => {
                first.uses_position() || rest.iter().any(|(_, e)| e.uses_position())
            }
            Expr::Negate { expr, .. } => expr.uses_position(),
            Expr::Union(list) => list.iter().any(|(e, _)| e.uses_position()),
            // Predicates of steps have their own context; the steps start from the context
            // node, which does not depend on the position.
            Expr::Path { .. } | Expr::Literal(_) | Expr::Number(_) => false,
            // A filter's own predicates have their own context too.
            Expr::Filter { primary, .. } => primary.uses_position(),
            Expr::Call { function, args, .. } => {
                function.uses_position() || args.iter().any(Expr::uses_position)
            }
        }
    }
}
