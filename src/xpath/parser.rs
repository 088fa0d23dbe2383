//! XPath 1.0 grammar (sections 2 "Location Paths" and 3 "Expressions"): tokens to an
//! [`Expr`], by recursive descent with one function per precedence level (\[21\] OrExpr down
//! to \[15\] PrimaryExpr). Nesting (parentheses, predicates, function arguments) is bounded by
//! [`MAX_NESTING`]; chains of one level are read in loops.

use super::MAX_NESTING;
use super::ast::{ArithOp, Axis, CmpOp, Expr, NodeTest, NodeType, Span, Step};
use super::error::{XPathError, XPathErrorKind};
use super::functions::Function;
use super::lexer::{Op, Tok, Token, tokenize};

/// Parses `expr`, resolving prefixes with `namespaces` (prefix, URI).
pub(crate) fn parse(expr: &str, namespaces: &[(String, String)]) -> Result<Expr, XPathError> {
    let tokens = tokenize(expr)?;
    if tokens.is_empty() {
        return Err(XPathError::new(XPathErrorKind::Empty, expr, 0, 0));
    }
    let mut parser = Parser {
        expr,
        tokens,
        at: 0,
        depth: 0,
        namespaces,
    };
    let e = parser.expr()?;
    if let Some(t) = parser.tokens.get(parser.at) {
        return Err(parser.error_at(XPathErrorKind::UnexpectedToken, t.start, t.end));
    }
    Ok(e)
}

struct Parser<'s, 'n> {
    expr: &'s str,
    tokens: Vec<Token<'s>>,
    at: usize,
    depth: usize,
    namespaces: &'n [(String, String)],
}

impl<'s> Parser<'s, '_> {
    fn peek(&self) -> Option<&Tok<'s>> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn peek_op(&self) -> Option<Op> {
        match self.peek() {
            Some(Tok::Op(op)) => Some(*op),
            _ => None,
        }
    }

    /// The byte offset of the next token (the end of the expression if none).
    fn offset(&self) -> usize {
        self.tokens
            .get(self.at)
            .map_or(self.expr.len(), |t| t.start)
    }

    fn error_at(&self, kind: XPathErrorKind, start: usize, end: usize) -> XPathError {
        XPathError::new(kind, self.expr, start, end.saturating_sub(start))
    }

    /// An error at the next token: unexpected, or the end of the expression.
    fn unexpected(&self) -> XPathError {
        match self.tokens.get(self.at) {
            Some(t) => self.error_at(XPathErrorKind::UnexpectedToken, t.start, t.end),
            None => self.error_at(
                XPathErrorKind::UnexpectedEnd,
                self.expr.len(),
                self.expr.len(),
            ),
        }
    }

    fn expect(&mut self, tok: &Tok<'_>) -> Result<(), XPathError> {
        if self.peek() == Some(tok) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    /// \[14\] Expr ::= OrExpr, one nesting level deeper.
    fn expr(&mut self) -> Result<Expr, XPathError> {
        if self.depth >= MAX_NESTING {
            let (start, end) = self
                .tokens
                .get(self.at)
                .map_or((self.expr.len(), self.expr.len()), |t| (t.start, t.end));
            return Err(self.error_at(XPathErrorKind::TooDeeplyNested, start, end));
        }
        self.depth += 1;
        let e = self.binary_expr();
        self.depth -= 1;
        e
    }

    /// \[21\] OrExpr to \[26\] MultiplicativeExpr: the binary operators, read in one loop
    /// with an operator stack (operator precedence, all left-associative), so that an
    /// expression costs one stack frame here whatever its operators.
    fn binary_expr(&mut self) -> Result<Expr, XPathError> {
        let mut operands = vec![self.unary_expr()?];
        let mut operators: Vec<Binary> = Vec::new();
        while let Some(op) = self.peek_op().and_then(Binary::from_op) {
            self.at += 1;
            while operators
                .last()
                .is_some_and(|top| top.precedence() >= op.precedence())
            {
                reduce(&mut operands, &mut operators);
            }
            operators.push(op);
            operands.push(self.unary_expr()?);
        }
        while !operators.is_empty() {
            reduce(&mut operands, &mut operators);
        }
        operands.pop().ok_or_else(|| self.unexpected())
    }

    /// \[27\] UnaryExpr ::= UnionExpr | '-' UnaryExpr
    fn unary_expr(&mut self) -> Result<Expr, XPathError> {
        let mut minuses = 0usize;
        while self.peek_op() == Some(Op::Minus) {
            self.at += 1;
            minuses += 1;
        }
        let e = self.union_expr()?;
        Ok(if minuses == 0 {
            e
        } else {
            Expr::Negate {
                expr: Box::new(e),
                odd: minuses % 2 == 1,
            }
        })
    }

    /// The end of the last token read.
    fn last_end(&self) -> usize {
        self.at
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(0, |t| t.end)
    }

    /// \[18\] UnionExpr
    fn union_expr(&mut self) -> Result<Expr, XPathError> {
        let at = self.offset();
        let first = self.path_expr()?;
        if self.peek_op() != Some(Op::Pipe) {
            return Ok(first);
        }
        let mut list = vec![(first, (at, self.last_end()))];
        while self.peek_op() == Some(Op::Pipe) {
            self.at += 1;
            let at = self.offset();
            let e = self.path_expr()?;
            list.push((e, (at, self.last_end())));
        }
        Ok(Expr::Union(list))
    }

    /// \[19\] PathExpr: a location path, or a filter expression maybe followed by `/` or `//`
    /// and a relative location path.
    fn path_expr(&mut self) -> Result<Expr, XPathError> {
        match self.peek() {
            Some(
                Tok::Variable(_)
                | Tok::LParen
                | Tok::Literal(_)
                | Tok::Number(_)
                | Tok::FunctionName { .. },
            ) => {
                let at = self.offset();
                let primary = self.primary_expr()?;
                let span: Span = (at, self.last_end());
                let predicates = self.predicates()?;
                let mut steps = Vec::new();
                match self.peek_op() {
                    Some(Op::Slash) => {
                        self.at += 1;
                        self.relative_path(&mut steps)?;
                    }
                    Some(Op::DoubleSlash) => {
                        self.at += 1;
                        steps.push(descendant_or_self_node());
                        self.relative_path(&mut steps)?;
                    }
                    _ => {}
                }
                if predicates.is_empty() && steps.is_empty() {
                    return Ok(primary);
                }
                Ok(Expr::Filter {
                    primary: Box::new(primary),
                    predicates,
                    steps,
                    span,
                })
            }
            _ => self.location_path(),
        }
    }

    /// \[1\] LocationPath
    fn location_path(&mut self) -> Result<Expr, XPathError> {
        let mut steps = Vec::new();
        let absolute = match self.peek_op() {
            Some(Op::Slash) => {
                self.at += 1;
                // `/` alone is the root; a step may follow.
                if self.starts_step() {
                    self.relative_path(&mut steps)?;
                }
                true
            }
            Some(Op::DoubleSlash) => {
                self.at += 1;
                steps.push(descendant_or_self_node());
                self.relative_path(&mut steps)?;
                true
            }
            _ => {
                self.relative_path(&mut steps)?;
                false
            }
        };
        Ok(Expr::Path { absolute, steps })
    }

    fn starts_step(&self) -> bool {
        matches!(
            self.peek(),
            Some(
                Tok::AxisName(_)
                    | Tok::At
                    | Tok::NameTest { .. }
                    | Tok::NodeType(_)
                    | Tok::Dot
                    | Tok::DotDot
            )
        )
    }

    /// \[3\] RelativeLocationPath, appended to `steps`; then `//x` shortcuts (see
    /// [`fold_descendant_steps`]).
    fn relative_path(&mut self, steps: &mut Vec<Step>) -> Result<(), XPathError> {
        steps.push(self.step()?);
        loop {
            match self.peek_op() {
                Some(Op::Slash) => {
                    self.at += 1;
                    steps.push(self.step()?);
                }
                Some(Op::DoubleSlash) => {
                    self.at += 1;
                    steps.push(descendant_or_self_node());
                    steps.push(self.step()?);
                }
                _ => break,
            }
        }
        fold_descendant_steps(steps);
        Ok(())
    }

    /// \[4\] Step
    fn step(&mut self) -> Result<Step, XPathError> {
        let axis = match self.peek() {
            Some(Tok::Dot) => {
                self.at += 1;
                return Ok(Step {
                    axis: Axis::SelfAxis,
                    test: NodeTest::Node,
                    predicates: Vec::new(),
                });
            }
            Some(Tok::DotDot) => {
                self.at += 1;
                return Ok(Step {
                    axis: Axis::Parent,
                    test: NodeTest::Node,
                    predicates: Vec::new(),
                });
            }
            Some(Tok::AxisName(axis)) => {
                let axis = *axis;
                self.at += 1;
                self.expect(&Tok::ColonColon)?;
                axis
            }
            Some(Tok::At) => {
                self.at += 1;
                Axis::Attribute
            }
            _ => Axis::Child,
        };
        let test = self.node_test()?;
        let predicates = self.predicates()?;
        Ok(Step {
            axis,
            test,
            predicates,
        })
    }

    /// \[7\] NodeTest
    fn node_test(&mut self) -> Result<NodeTest, XPathError> {
        let Some(token) = self.tokens.get(self.at).cloned() else {
            return Err(self.unexpected());
        };
        match token.tok {
            Tok::NameTest { prefix, local } => {
                self.at += 1;
                let ns = match prefix {
                    None => None,
                    Some(p) => Some(self.resolve_prefix(p, token.start)?),
                };
                Ok(match local {
                    None => NodeTest::AnyName { ns },
                    Some(local) => NodeTest::Name {
                        ns,
                        local: local.to_owned(),
                    },
                })
            }
            Tok::NodeType(t) => {
                self.at += 1;
                self.expect(&Tok::LParen)?;
                let test = match t {
                    NodeType::Comment => NodeTest::Comment,
                    NodeType::Text => NodeTest::Text,
                    NodeType::Node => NodeTest::Node,
                    NodeType::ProcessingInstruction => match self.peek() {
                        Some(Tok::Literal(target)) => {
                            let target = (*target).to_owned();
                            self.at += 1;
                            NodeTest::ProcessingInstruction(Some(target))
                        }
                        _ => NodeTest::ProcessingInstruction(None),
                    },
                };
                self.expect(&Tok::RParen)?;
                Ok(test)
            }
            _ => Err(self.unexpected()),
        }
    }

    /// The URI declared for `prefix` (`xml` is always declared).
    fn resolve_prefix(&self, prefix: &str, at: usize) -> Result<String, XPathError> {
        if let Some((_, uri)) = self.namespaces.iter().find(|(p, _)| p == prefix) {
            return Ok(uri.clone());
        }
        if prefix == "xml" {
            return Ok("http://www.w3.org/XML/1998/namespace".to_owned());
        }
        Err(self.error_at(
            XPathErrorKind::UnknownPrefix(prefix.to_owned()),
            at,
            at + prefix.len(),
        ))
    }

    /// \[8\] Predicate*
    fn predicates(&mut self) -> Result<Vec<Expr>, XPathError> {
        let mut list = Vec::new();
        while self.peek() == Some(&Tok::LBracket) {
            self.at += 1;
            list.push(self.expr()?);
            self.expect(&Tok::RBracket)?;
        }
        Ok(list)
    }

    /// \[15\] PrimaryExpr
    fn primary_expr(&mut self) -> Result<Expr, XPathError> {
        let Some(token) = self.tokens.get(self.at).cloned() else {
            return Err(self.unexpected());
        };
        self.at += 1;
        match token.tok {
            Tok::Variable(name) => Err(self.error_at(
                XPathErrorKind::UnboundVariable(name.to_owned()),
                token.start,
                token.end,
            )),
            Tok::LParen => {
                let e = self.expr()?;
                self.expect(&Tok::RParen)?;
                Ok(e)
            }
            Tok::Literal(s) => Ok(Expr::Literal(s.to_owned())),
            Tok::Number(n) => Ok(Expr::Number(n)),
            Tok::FunctionName { prefix, local } => {
                let name = &self.expr[token.start..token.end];
                let function = match (prefix, Function::from_name(local)) {
                    (None, Some(f)) => f,
                    _ => {
                        return Err(self.error_at(
                            XPathErrorKind::UnknownFunction(name.to_owned()),
                            token.start,
                            token.end,
                        ));
                    }
                };
                self.expect(&Tok::LParen)?;
                let mut args = Vec::new();
                if self.peek() != Some(&Tok::RParen) {
                    args.push(self.expr()?);
                    while self.peek() == Some(&Tok::Comma) {
                        self.at += 1;
                        args.push(self.expr()?);
                    }
                }
                let close = self.offset();
                self.expect(&Tok::RParen)?;
                if !function.accepts(args.len()) {
                    return Err(self.error_at(
                        XPathErrorKind::WrongArgumentCount(name.to_owned()),
                        token.start,
                        close + 1,
                    ));
                }
                Ok(Expr::Call {
                    function,
                    args,
                    span: (token.start, close + 1),
                })
            }
            _ => {
                self.at -= 1;
                Err(self.unexpected())
            }
        }
    }
}

/// A binary operator (3.4 "Booleans", 3.5 "Numbers").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Binary {
    Or,
    And,
    Compare(CmpOp),
    Arith(ArithOp),
}

impl Binary {
    fn from_op(op: Op) -> Option<Binary> {
        Some(match op {
            Op::Or => Binary::Or,
            Op::And => Binary::And,
            Op::Eq => Binary::Compare(CmpOp::Eq),
            Op::NotEq => Binary::Compare(CmpOp::NotEq),
            Op::Lt => Binary::Compare(CmpOp::Lt),
            Op::LtEq => Binary::Compare(CmpOp::LtEq),
            Op::Gt => Binary::Compare(CmpOp::Gt),
            Op::GtEq => Binary::Compare(CmpOp::GtEq),
            Op::Plus => Binary::Arith(ArithOp::Add),
            Op::Minus => Binary::Arith(ArithOp::Sub),
            Op::Multiply => Binary::Arith(ArithOp::Mul),
            Op::Div => Binary::Arith(ArithOp::Div),
            Op::Mod => Binary::Arith(ArithOp::Mod),
            Op::Slash | Op::DoubleSlash | Op::Pipe => return None,
        })
    }

    /// Binding strength, by the grammar's levels \[21\] to \[26\].
    fn precedence(self) -> u8 {
        match self {
            Binary::Or => 1,
            Binary::And => 2,
            Binary::Compare(CmpOp::Eq | CmpOp::NotEq) => 3,
            Binary::Compare(_) => 4,
            Binary::Arith(ArithOp::Add | ArithOp::Sub) => 5,
            Binary::Arith(_) => 6,
        }
    }
}

/// Pops an operator and its two operands and pushes their expression. The AST's chains
/// evaluate strictly left to right, so a right operand joins a left operand that is already a
/// chain of the same kind (`a or b or c` is one list, as is `1 + 2 - 3`); that is also
/// right when the left chain came from parentheses, since `(a < b) = c` and `(1 + 2) * 3`
/// evaluate left to right too.
fn reduce(operands: &mut Vec<Expr>, operators: &mut Vec<Binary>) {
    let (Some(op), Some(right), Some(left)) = (operators.pop(), operands.pop(), operands.pop())
    else {
        return;
    };
    operands.push(match (op, left) {
        (Binary::Or, Expr::Or(mut list)) => {
            list.push(right);
            Expr::Or(list)
        }
        (Binary::Or, left) => Expr::Or(vec![left, right]),
        (Binary::And, Expr::And(mut list)) => {
            list.push(right);
            Expr::And(list)
        }
        (Binary::And, left) => Expr::And(vec![left, right]),
        (Binary::Compare(op), Expr::Compare(first, mut rest)) => {
            rest.push((op, right));
            Expr::Compare(first, rest)
        }
        (Binary::Compare(op), left) => Expr::Compare(Box::new(left), vec![(op, right)]),
        (Binary::Arith(op), Expr::Arith(first, mut rest)) => {
            rest.push((op, right));
            Expr::Arith(first, rest)
        }
        (Binary::Arith(op), left) => Expr::Arith(Box::new(left), vec![(op, right)]),
    });
}

/// `descendant-or-self::node()`, what `//` abbreviates (2.5 "Abbreviated Syntax").
fn descendant_or_self_node() -> Step {
    Step {
        axis: Axis::DescendantOrSelf,
        test: NodeTest::Node,
        predicates: Vec::new(),
    }
}

/// `descendant-or-self::node()/child::T[p]` selects the same nodes as `descendant::T[p]`
/// when no predicate depends on the context position or size (2.5 notes that `//para[1]`
/// differs from `/descendant::para[1]`, which is why position-dependent predicates keep the
/// long form). The short form is one walk instead of a child step from every node.
fn fold_descendant_steps(steps: &mut Vec<Step>) {
    let mut steps_in = std::mem::take(steps).into_iter().peekable();
    while let Some(step) = steps_in.next() {
        let descendant_or_self_node = step.axis == Axis::DescendantOrSelf
            && step.test == NodeTest::Node
            && step.predicates.is_empty();
        if descendant_or_self_node {
            if let Some(mut child) = steps_in.next_if(|next| {
                next.axis == Axis::Child && !next.predicates.iter().any(Expr::is_positional)
            }) {
                child.axis = Axis::Descendant;
                steps.push(child);
                continue;
            }
        }
        steps.push(step);
    }
}
