//! 13.4 "Parsing HTML fragments": setting up a tree builder for a context element.

use std::fmt;

use crate::dom::names::{Namespace, local_name as n};
use crate::dom::{Document, NodeData};
use crate::tokenizer::State;

use super::{Context, InsertionMode, TreeBuilder, foreign, tag_sets};

/// Why a fragment context string was refused.
///
/// A context is an HTML element's local name (`"td"`, `"template"`, `"my-widget"`; ASCII case
/// does not matter), or `"svg NAME"` / `"math NAME"` for an SVG or MathML element.
///
/// ```
/// use html_arena::{Document, FragmentContextError, ParseOptions};
/// let err = Document::parse_fragment("<b>x", "", &ParseOptions::default()).unwrap_err();
/// assert_eq!(err, FragmentContextError::Empty);
/// assert!(Document::parse_fragment("x", "svg", &ParseOptions::default()).is_ok()); // <svg>
/// assert!(Document::parse_fragment("x", "svg ", &ParseOptions::default()).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FragmentContextError {
    /// The context string is empty.
    Empty,
    /// `"svg "` or `"math "` with no element name after it.
    MissingForeignName {
        /// `"svg"` or `"math"`.
        prefix: &'static str,
    },
    /// The name cannot be an element's local name (it is empty or contains white space, `<`,
    /// `>`, `/`, `=`, quotes or control characters).
    InvalidName(String),
}

impl fmt::Display for FragmentContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FragmentContextError::Empty => f.write_str(
                "empty fragment context: expected an element name such as \"td\", or \"svg NAME\" / \"math NAME\"",
            ),
            FragmentContextError::MissingForeignName { prefix } => {
                write!(f, "fragment context \"{prefix} \" has no element name after the namespace")
            }
            FragmentContextError::InvalidName(name) => {
                write!(f, "fragment context {name:?} is not a valid element name")
            }
        }
    }
}

impl std::error::Error for FragmentContextError {}

/// A parsed fragment context: namespace and local name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FragmentContext {
    pub(crate) ns: Namespace,
    pub(crate) name: String,
}

impl FragmentContext {
    /// Parses `"td"`, `"svg path"`, `"math mi"`.
    pub(crate) fn parse(context: &str) -> Result<FragmentContext, FragmentContextError> {
        if context.is_empty() {
            return Err(FragmentContextError::Empty);
        }
        let (ns, name, prefix) = if let Some(rest) = context.strip_prefix("svg ") {
            (Namespace::Svg, rest, "svg")
        } else if let Some(rest) = context.strip_prefix("math ") {
            (Namespace::MathMl, rest, "math")
        } else {
            (Namespace::Html, context, "")
        };
        if name.is_empty() {
            return Err(FragmentContextError::MissingForeignName { prefix });
        }
        let invalid = |c: char| {
            c.is_whitespace()
                || c.is_control()
                || matches!(c, '<' | '>' | '/' | '=' | '"' | '\'' | '\u{FFFD}')
        };
        if name.chars().any(invalid) {
            return Err(FragmentContextError::InvalidName(context.to_owned()));
        }
        let name = if ns == Namespace::Html {
            name.to_ascii_lowercase()
        } else {
            name.to_owned()
        };
        Ok(FragmentContext { ns, name })
    }
}

impl TreeBuilder {
    /// A tree builder for the HTML fragment parsing algorithm with `context`; returns it with
    /// the state the tokenizer must start in.
    pub(crate) fn new_fragment(
        source: String,
        context: &FragmentContext,
        scripting: bool,
        error_limit: usize,
    ) -> (TreeBuilder, State) {
        // "Let document be a Document node whose type is 'html'." The document this crate
        // returns is rooted at the DocumentFragment (the root insertion target); the `html`
        // root element lives beside it, detached, and so does a stand-in for a `form` context
        // element (the only context the parser needs as a node).
        let doc = Document::with_source(source, NodeData::Fragment, &crate::html::hooks::HOOKS);
        let mut tb = TreeBuilder::new(doc, scripting, error_limit);
        let mut name = tb.doc.intern(&context.name);
        if context.ns == Namespace::Svg {
            name = foreign::adjust_svg_tag_name(name);
        }
        let key = if context.ns == Namespace::Html {
            name
        } else {
            foreign::lowercase_name(name)
        };
        let flags = tag_sets::element_flags(name, context.ns, false);
        tb.doc.fragment_context = Some((context.ns, name));
        // "Set the parser's fragment context element to context."
        tb.context = Some(Context {
            name: key,
            ns: context.ns,
            flags,
        });
        // "Set the state of the HTML parser's tokenization stage as follows, switching on
        // context."
        let state = if context.ns != Namespace::Html {
            State::Data
        } else {
            match name {
                n::TITLE | n::TEXTAREA => State::Rcdata,
                n::STYLE | n::XMP | n::IFRAME | n::NOEMBED | n::NOFRAMES => State::Rawtext,
                n::SCRIPT => State::ScriptData,
                n::NOSCRIPT if scripting => State::Rawtext,
                n::PLAINTEXT => State::Plaintext,
                _ => State::Data,
            }
        };
        // "Let root be the result of creating an element given document, 'html', the HTML
        // namespace ... Set up the HTML parser's stack of open elements so that it contains
        // just the single element root."
        let root = tb
            .doc
            .create_element(n::HTML, Namespace::Html, Default::default(), 0);
        tb.push_element(root, n::HTML, Namespace::Html);
        // "Set the parser's root insertion target to fragment."
        tb.root_insertion_target = Some(tb.doc.root);
        // "If context is a template element, then push 'in template' onto the stack of template
        // insertion modes."
        if context.ns == Namespace::Html && name == n::TEMPLATE {
            tb.template_modes.push(InsertionMode::InTemplate);
        }
        // "Reset the parser's insertion mode appropriately."
        tb.reset_insertion_mode();
        // "Set the HTML parser's form element pointer to the nearest node to context that is a
        // form element (going straight up the ancestor chain, and including the element
        // itself)": the context has no ancestors here.
        if context.ns == Namespace::Html && name == n::FORM {
            let form = tb
                .doc
                .create_element(name, context.ns, Default::default(), 0);
            tb.form = Some(form);
        }
        (tb, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts() {
        assert_eq!(FragmentContext::parse("TD").unwrap().name, "td");
        assert_eq!(
            FragmentContext::parse("svg path").unwrap().ns,
            Namespace::Svg
        );
        assert_eq!(FragmentContext::parse("math mi").unwrap().name, "mi");
        assert_eq!(FragmentContext::parse(""), Err(FragmentContextError::Empty));
        assert_eq!(
            FragmentContext::parse("math "),
            Err(FragmentContextError::MissingForeignName { prefix: "math" })
        );
        assert!(matches!(
            FragmentContext::parse("a b"),
            Err(FragmentContextError::InvalidName(_))
        ));
    }
}
