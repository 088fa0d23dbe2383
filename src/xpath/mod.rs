//! XPath 1.0 over the arena (W3C Recommendation "XML Path Language (XPath) Version 1.0"),
//! with the HTML Standard's rules for XPath in HTML documents ("Interactions with XPath and
//! XSLT").
//!
//! Compile an expression once with [`XPath::parse`], evaluate it many times with
//! [`Document::xpath`] or [`NodeRef::xpath`]. The result is one of XPath's four types
//! ([`XPathValue`]); a node-set is in document order, without duplicates, and its nodes are
//! arena nodes or attributes ([`XNode`]).
//!
//! ```
//! use html_arena::Document;
//! use html_arena::xpath::{XPath, XPathValue};
//!
//! let doc = Document::parse("<ul><li><a href=/a>A</a><li><a href=/b>B</a><li>none</ul>");
//! let hrefs = doc.xpath(&XPath::parse("//a/@href")?)?;
//! let values: Vec<String> = hrefs.nodes().iter().map(|n| n.string_value()).collect();
//! assert_eq!(values, ["/a", "/b"]);
//!
//! let last = doc.xpath(&XPath::parse("string((//li)[last()])")?)?;
//! assert_eq!(last, XPathValue::String("none".into()));
//! assert_eq!(doc.xpath(&XPath::parse("count(//li[not(a)])")?)?.number(), 1.0);
//! # Ok::<(), html_arena::xpath::XPathError>(())
//! ```
//!
//! What HTML changes, and other choices:
//!
//! - A name test without prefix (`div`, `@href`) matches an HTML element ASCII
//!   case-insensitively (`//DIV` finds `div`); an element in another namespace only if it has
//!   no namespace, so SVG and MathML elements need a prefix declared with
//!   [`XPath::parse_with_namespaces`] (`//svg:rect`). `*` matches every element.
//! - Template contents are not descendants of their `template` (they are another tree).
//! - DOCTYPE nodes, which the DOM has and XPath's data model does not, are children of the
//!   root matched by `node()` only (as in Chromium); their string-value is empty.
//! - The `namespace` axis is always empty (the DOM has no namespace nodes); attributes that
//!   declare namespaces (`xmlns:*` on foreign elements) are not attribute nodes.
//! - No variables are bound: a variable reference is a syntax error.
//! - Numbers convert to strings exactly as section 4.2 says (`1e21` is
//!   `1000000000000000000000`), where Chromium writes JavaScript's form (`1e+21`).
//!
//! Cost: every walk is iterative, and expressions nest at most [`MAX_NESTING`] levels deep,
//! which bounds recursion (the deepest expression evaluates on a 512 KiB stack in an
//! unoptimized build). A location path costs time linear in the size of the tree per step:
//! a step from many context nodes whose predicates do not use the context position walks the
//! axis for the whole set at once (descendants of nested contexts once, ancestor and sibling
//! walks stopping at nodes already seen), so `//*//*//*` on a million nested elements is one
//! pass per step; descendant name tests (`//a`, `//table//td`) read the selector index's
//! candidate lists; sorting into document order reads a numbering of the document made once
//! and kept until the next mutation. What XPath's semantics make dearer is not hidden: a
//! predicate runs once per node it filters (`//p[. = //p]` is quadratic by definition), a
//! string-value concatenates a subtree's text (`//div[contains(., 'x')]` reads nested text
//! once per enclosing `div`), and a step whose predicates use the position (`[last()]`,
//! `[position() > 1]`) walks its axis from each context node separately (`[k]` stops after
//! k nodes).

use crate::dom::{Attribute, Document, ElementRef, NodeRef};

mod ast;
mod error;
mod eval;
mod functions;
mod lexer;
mod parser;
mod value;

pub use ast::Axis;
pub use error::{XPathError, XPathErrorKind};
pub use value::{number_to_string, string_to_number};

use eval::{Ctx, Key, Value};

/// The deepest nesting of parentheses, predicates and function arguments an expression may
/// have (deeper ones are [`XPathErrorKind::TooDeeplyNested`]).
pub const MAX_NESTING: usize = 32;

/// A compiled XPath 1.0 expression.
///
/// `XPath` is `Send + Sync`: compile once, evaluate from many threads and documents.
#[derive(Clone, Debug)]
pub struct XPath {
    expr: ast::Expr,
    source: Box<str>,
}

impl XPath {
    /// Compiles `expr`, with no namespace prefixes declared (but `xml`).
    ///
    /// ```
    /// use html_arena::xpath::XPath;
    ///
    /// assert!(XPath::parse("//td[normalize-space()='']").is_ok());
    /// let err = XPath::parse("//a[").unwrap_err();
    /// assert_eq!(err.to_string(), "unexpected end of expression at byte 4");
    /// let err = XPath::parse("//a[foo()]").unwrap_err();
    /// assert_eq!((err.offset(), err.text()), (4, "foo"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`XPathError`] with the position of the first error.
    pub fn parse(expr: &str) -> Result<XPath, XPathError> {
        XPath::parse_with_namespaces(expr, &[])
    }

    /// Compiles `expr` with namespace prefixes declared as (prefix, URI) pairs, for name
    /// tests such as `svg:rect` and `@xlink:href`.
    ///
    /// ```
    /// use html_arena::Document;
    /// use html_arena::xpath::XPath;
    ///
    /// let doc = Document::parse("<svg><rect/><circle/></svg><rect>");
    /// let ns = [("svg", "http://www.w3.org/2000/svg")];
    /// let svg = XPath::parse_with_namespaces("count(//svg:*)", &ns)?;
    /// assert_eq!(doc.xpath(&svg)?.number(), 3.0);
    /// // Without prefix, only the HTML element named rect (an unknown HTML element here).
    /// assert_eq!(doc.xpath(&XPath::parse("count(//rect)")?)?.number(), 1.0);
    /// # Ok::<(), html_arena::xpath::XPathError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`XPathError`] with the position of the first error.
    pub fn parse_with_namespaces(
        expr: &str,
        namespaces: &[(&str, &str)],
    ) -> Result<XPath, XPathError> {
        let namespaces: Vec<(String, String)> = namespaces
            .iter()
            .map(|&(p, u)| (p.to_owned(), u.to_owned()))
            .collect();
        Ok(XPath {
            expr: parser::parse(expr, &namespaces)?,
            source: expr.into(),
        })
    }

    /// The expression's text.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Evaluates with `node` as the context node (position and size 1).
    fn evaluate<'a>(&self, node: NodeRef<'a>) -> Result<XPathValue<'a>, XPathError> {
        self.evaluate_key(node.document(), Key::node(node.raw_id()))
    }

    /// Evaluates with the node `key` as the context node (position and size 1).
    fn evaluate_key<'a>(&self, doc: &'a Document, key: Key) -> Result<XPathValue<'a>, XPathError> {
        let ctx = Ctx::new(doc, &self.source, key.node);
        let value = ctx.eval(&self.expr, key, 1, 1)?;
        Ok(match value {
            Value::Nodes(keys) => {
                XPathValue::NodeSet(keys.into_iter().map(|k| XNode::from_key(doc, k)).collect())
            }
            Value::Number(n) => XPathValue::Number(n),
            Value::Str(s) => XPathValue::String(s),
            Value::Bool(b) => XPathValue::Boolean(b),
        })
    }
}

impl std::str::FromStr for XPath {
    type Err = XPathError;
    fn from_str(s: &str) -> Result<XPath, XPathError> {
        XPath::parse(s)
    }
}

/// The value of an XPath expression: one of XPath 1.0's four types.
#[derive(Clone, Debug, PartialEq)]
pub enum XPathValue<'a> {
    /// A node-set, in document order, without duplicates.
    NodeSet(Vec<XNode<'a>>),
    /// A number (an IEEE 754 double).
    Number(f64),
    /// A string.
    String(String),
    /// A boolean.
    Boolean(bool),
}

impl<'a> XPathValue<'a> {
    /// The nodes of a node-set (empty for the other types).
    pub fn nodes(&self) -> &[XNode<'a>] {
        match self {
            XPathValue::NodeSet(nodes) => nodes,
            _ => &[],
        }
    }

    /// The value converted as `string()` does: a node-set's first node's string-value, a
    /// number by section 4.2's rules, `true`/`false`.
    ///
    /// ```
    /// use html_arena::xpath::XPathValue;
    /// assert_eq!(XPathValue::Number(f64::NAN).string(), "NaN");
    /// assert_eq!(XPathValue::Number(-3.0).string(), "-3");
    /// assert_eq!(XPathValue::Boolean(true).string(), "true");
    /// ```
    pub fn string(&self) -> String {
        match self {
            XPathValue::NodeSet(nodes) => {
                nodes.first().map_or_else(String::new, |n| n.string_value())
            }
            XPathValue::Number(n) => number_to_string(*n),
            XPathValue::String(s) => s.clone(),
            XPathValue::Boolean(b) => b.to_string(),
        }
    }

    /// The value converted as `number()` does.
    pub fn number(&self) -> f64 {
        match self {
            XPathValue::Number(n) => *n,
            XPathValue::Boolean(b) => f64::from(u8::from(*b)),
            _ => string_to_number(&self.string()),
        }
    }

    /// The value converted as `boolean()` does.
    pub fn boolean(&self) -> bool {
        match self {
            XPathValue::NodeSet(nodes) => !nodes.is_empty(),
            XPathValue::Number(n) => *n != 0.0 && !n.is_nan(),
            XPathValue::String(s) => !s.is_empty(),
            XPathValue::Boolean(b) => *b,
        }
    }
}

/// A node of an XPath node-set: a node of the arena, or an attribute (which the arena stores
/// with its element, not as a node).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum XNode<'a> {
    /// An arena node (element, text, comment, processing instruction, root, DOCTYPE).
    Node(NodeRef<'a>),
    /// The attribute at `index` (in [`ElementRef::attrs`] order) of `element`.
    Attribute {
        /// The element the attribute belongs to (its XPath parent).
        element: ElementRef<'a>,
        /// The attribute's index among the element's attributes.
        index: usize,
    },
}

impl<'a> XNode<'a> {
    fn from_key(doc: &'a Document, k: Key) -> XNode<'a> {
        let node = NodeRef::new(doc, k.node);
        match (k.is_attr(), node.as_element()) {
            (true, Some(element)) => XNode::Attribute {
                element,
                index: k.attr as usize - 1,
            },
            _ => XNode::Node(node),
        }
    }

    /// The arena node, if this is not an attribute.
    pub fn as_node(self) -> Option<NodeRef<'a>> {
        match self {
            XNode::Node(n) => Some(n),
            XNode::Attribute { .. } => None,
        }
    }

    /// The element, if this is one.
    pub fn as_element(self) -> Option<ElementRef<'a>> {
        self.as_node().and_then(NodeRef::as_element)
    }

    /// The attribute, if this is one.
    pub fn as_attribute(self) -> Option<Attribute<'a>> {
        match self {
            XNode::Attribute { element, index } => element.attrs().nth(index),
            XNode::Node(_) => None,
        }
    }

    /// The XPath parent: an attribute's element, a node's parent.
    pub fn parent(self) -> Option<NodeRef<'a>> {
        match self {
            XNode::Node(n) => n.parent(),
            XNode::Attribute { element, .. } => Some(element.as_node()),
        }
    }

    /// Evaluates `xpath` with this node (an attribute too) as the context node.
    ///
    /// ```
    /// use html_arena::Document;
    /// use html_arena::xpath::XPath;
    ///
    /// let doc = Document::parse("<a href=/x title=t>link</a>");
    /// let href = doc.xpath(&XPath::parse("//@href")?)?.nodes()[0];
    /// assert_eq!(href.xpath(&XPath::parse("string(../@title)")?)?.string(), "t");
    /// assert_eq!(href.xpath(&XPath::parse("name()")?)?.string(), "href");
    /// # Ok::<(), html_arena::xpath::XPathError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Document::xpath`].
    pub fn xpath(self, xpath: &XPath) -> Result<XPathValue<'a>, XPathError> {
        match self {
            XNode::Node(n) => xpath.evaluate(n),
            XNode::Attribute { element, index } => {
                let attr = u32::try_from(index + 1).unwrap_or(u32::MAX);
                xpath.evaluate_key(
                    element.document(),
                    Key {
                        node: element.raw_id(),
                        attr,
                    },
                )
            }
        }
    }

    /// The string-value (XPath 1.0, 5 "Data Model"): the text of an element or root, the
    /// data of a text node, comment or processing instruction, an attribute's value.
    pub fn string_value(self) -> String {
        match self {
            XNode::Node(n) => {
                if n.is_doctype() {
                    String::new()
                } else {
                    n.text()
                }
            }
            XNode::Attribute { .. } => self
                .as_attribute()
                .map_or_else(String::new, |a| a.value.to_owned()),
        }
    }
}

impl Document {
    /// Evaluates `xpath` with the root (the `Document` node, or a fragment's root) as the
    /// context node (`document.evaluate(expr, document)`).
    ///
    /// ```
    /// use html_arena::Document;
    /// use html_arena::xpath::XPath;
    ///
    /// let doc = Document::parse("<title> My  page </title><p>1</p><p>2</p>");
    /// assert_eq!(doc.xpath(&XPath::parse("normalize-space(//title)")?)?.string(), "My page");
    /// assert_eq!(doc.xpath(&XPath::parse("sum(//p)")?)?.number(), 3.0);
    /// # Ok::<(), html_arena::xpath::XPathError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`XPathErrorKind::NotANodeSet`] when the expression applies a predicate, a path or a
    /// node-set function to another type (`"a"/b`, `count(1)`).
    pub fn xpath<'a>(&'a self, xpath: &XPath) -> Result<XPathValue<'a>, XPathError> {
        xpath.evaluate(self.root())
    }
}

impl<'a> NodeRef<'a> {
    /// Evaluates `xpath` with this node as the context node. Absolute paths start from the
    /// root of the node's tree.
    ///
    /// ```
    /// use html_arena::Document;
    /// use html_arena::xpath::XPath;
    ///
    /// let doc = Document::parse("<p>a</p><p id=x>b</p><p>c</p>");
    /// let p = doc.xpath(&XPath::parse("id('x')")?)?.nodes()[0].as_node().unwrap();
    /// let next = p.xpath(&XPath::parse("following-sibling::p[1]")?)?;
    /// assert_eq!(next.string(), "c");
    /// let prev = p.xpath(&XPath::parse("preceding-sibling::*[last()]")?)?;
    /// assert_eq!(prev.string(), "a");
    /// # Ok::<(), html_arena::xpath::XPathError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Document::xpath`].
    pub fn xpath(self, xpath: &XPath) -> Result<XPathValue<'a>, XPathError> {
        xpath.evaluate(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xpath_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<XPath>();
    }
}
