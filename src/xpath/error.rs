//! XPath errors: syntax errors found by [`XPath::parse`](super::XPath::parse) and type errors
//! found while evaluating, each with the byte offset of the offending text.

use std::fmt;

/// What went wrong with an XPath expression.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum XPathErrorKind {
    /// The expression is empty (or only white space).
    Empty,
    /// A character that starts no token (XPath 1.0, 3.7 "Lexical Structure").
    InvalidCharacter,
    /// A string literal with no closing quote.
    UnterminatedLiteral,
    /// A token the grammar does not allow here.
    UnexpectedToken,
    /// The expression ended where more was needed.
    UnexpectedEnd,
    /// A name that is not one of the 13 axes (3.2 "Location Paths", \[6\] AxisName).
    UnknownAxis(String),
    /// A function not in the core function library (4 "Core Function Library").
    UnknownFunction(String),
    /// A function called with the wrong number of arguments.
    WrongArgumentCount(String),
    /// A namespace prefix with no declaration in the expression context.
    UnknownPrefix(String),
    /// A variable reference: no variables are bound in the expression context.
    UnboundVariable(String),
    /// Parentheses, predicates or function arguments nested deeper than
    /// [`MAX_NESTING`](super::MAX_NESTING).
    TooDeeplyNested,
    /// Evaluation: an operation needs a node-set and got another type (a predicate or `/`
    /// after a number, string or boolean; `count()` of a string, ...).
    NotANodeSet,
}

/// An error in an XPath expression, with its position.
///
/// ```
/// use html_arena::xpath::{XPath, XPathErrorKind};
///
/// let err = XPath::parse("//a[@href=]").unwrap_err();
/// assert_eq!(err.offset(), 10);
/// assert_eq!(err.kind(), &XPathErrorKind::UnexpectedToken);
/// assert_eq!(err.to_string(), "unexpected `]` at byte 10");
/// assert_eq!(err.pointer(), "//a[@href=]\n          ^");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XPathError {
    kind: XPathErrorKind,
    expression: Box<str>,
    offset: usize,
    len: usize,
}

impl XPathError {
    pub(crate) fn new(kind: XPathErrorKind, expression: &str, offset: usize, len: usize) -> Self {
        let mut offset = offset.min(expression.len());
        while !expression.is_char_boundary(offset) {
            offset -= 1;
        }
        let mut end = offset.saturating_add(len).min(expression.len());
        while !expression.is_char_boundary(end) {
            end += 1;
        }
        XPathError {
            kind,
            expression: expression.into(),
            offset,
            len: end - offset,
        }
    }

    /// What is wrong.
    pub fn kind(&self) -> &XPathErrorKind {
        &self.kind
    }

    /// The byte offset of the offending text in the expression.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The offending text (empty when the expression ended too early).
    pub fn text(&self) -> &str {
        self.expression
            .get(self.offset..self.offset + self.len)
            .unwrap_or("")
    }

    /// The expression.
    pub fn expression(&self) -> &str {
        &self.expression
    }

    /// What is wrong, in words (without the position).
    pub fn message(&self) -> String {
        let text = self.text();
        match &self.kind {
            XPathErrorKind::Empty => "empty expression".to_owned(),
            XPathErrorKind::InvalidCharacter => format!("invalid character `{text}`"),
            XPathErrorKind::UnterminatedLiteral => "string literal without closing quote".into(),
            XPathErrorKind::UnexpectedToken if text.is_empty() => {
                "unexpected end of expression".to_owned()
            }
            XPathErrorKind::UnexpectedToken => format!("unexpected `{text}`"),
            XPathErrorKind::UnexpectedEnd => "unexpected end of expression".to_owned(),
            XPathErrorKind::UnknownAxis(name) => format!("unknown axis `{name}`"),
            XPathErrorKind::UnknownFunction(name) => format!("unknown function `{name}()`"),
            XPathErrorKind::WrongArgumentCount(name) => {
                format!("wrong number of arguments for `{name}()`")
            }
            XPathErrorKind::UnknownPrefix(prefix) => format!(
                "undeclared namespace prefix `{prefix}` (declare it with XPath::parse_with_namespaces)"
            ),
            XPathErrorKind::UnboundVariable(name) => format!("unbound variable `${name}`"),
            XPathErrorKind::TooDeeplyNested => {
                format!("nested more than {} levels deep", super::MAX_NESTING)
            }
            XPathErrorKind::NotANodeSet => format!("`{text}` is not a node-set"),
        }
    }

    /// The expression on one line and, on the next, a caret under the offending text (`^` per
    /// character, at least one). Line breaks and tabs print as spaces so the caret lines up.
    pub fn pointer(&self) -> String {
        crate::error::caret_pointer(&self.expression, self.offset, self.text())
    }
}

impl fmt::Display for XPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message(), self.offset)
    }
}

impl std::error::Error for XPathError {}
