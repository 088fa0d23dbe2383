//! XML serialization: the DOM Parsing and Serialization standard's "XML Serialization"
//! section (what `XMLSerializer.serializeToString` returns), with its "require well-formed"
//! flag, written into any [`fmt::Write`] as the walk goes.
//!
//! The walk is iterative (a stack of open elements, never recursion) and linear: the
//! "namespace prefix map" is not copied per element as the standard's text does; it is one
//! map with an undo log, and each element's additions are undone when it closes, which gives
//! every element the same view as its own copy would.
//!
//! # Where this follows the browser instead of the standard's text
//!
//! Browsers (Chromium's `MarkupAccumulator`, which implements this section) depart from the
//! standard's text where the text gives worse XML; this module follows the browser:
//!
//! - **An attribute keeps its own prefix.** "Serializing an Element's attributes" step 3.5.3
//!   always generates a prefix (`ns1`) for a namespaced attribute whose namespace has no
//!   prefix in scope; the browser keeps the attribute's own prefix when that prefix is free
//!   (`xlink:href` gets `xmlns:xlink="http://www.w3.org/1999/xlink"`, not `ns1:href`).
//! - **"Retrieving a preferred prefix string" skips prefixes that are overridden**: a prefix
//!   whose nearest declaration maps it to another namespace is never used (the standard's
//!   text takes the last one recorded, which can be shadowed and would change the namespace
//!   on reparsing).
//! - **A plain `xmlns` attribute counts as a default namespace declaration** whether it is in
//!   the XMLNS namespace (an XML document, or an adjusted foreign attribute) or in no
//!   namespace (an `xmlns` attribute an HTML parser left on an HTML element): "Recording the
//!   namespace information" records it, and it is written once, never twice.
//! - **Redundant prefix declarations are kept where they were**: step 3.5.2.1's third
//!   condition (drop an `xmlns:p` that an ancestor already declared) is not applied.
//! - **A redundant default namespace declaration is kept in HTML documents**: an `xmlns`
//!   attribute whose value is the inherited namespace, which is also the element's (an inline
//!   SVG sprite's inner `<svg xmlns="http://www.w3.org/2000/svg">`, an HTML element's plain
//!   `xmlns` attribute, which the browser writes as an ordinary attribute), is written where
//!   it was, as the browser writes it; "XML serializing an Element node" step 11 would drop
//!   it. In documents from the XML parser it is dropped as step 11 says (WPT
//!   `domparsing/XMLSerializer-serializeToString.html`, "Check if redundant xmlns="..." is
//!   dropped"). Where the browser writes two
//!   `xmlns` attributes on one element (an HTML element whose own `xmlns` is `""` or another
//!   URL: the declaration for the element's namespace, then the attribute), the output here
//!   has the first only, so that it stays well-formed XML and reparses to the same
//!   namespaces; an `xmlns` naming another namespace than the inherited one on an element
//!   that inherits its namespace is dropped too, as step 11 says.
//! - **Tab, LF and CR in attribute values** are written as `&#9;`, `&#10;` and `&#13;`, so
//!   that they survive XML attribute-value normalization.
//! - **A DOCTYPE with an empty name is omitted.**
//! - **`menuitem` is not void** (it is not in the browser's list of elements without an end
//!   tag).
//!
//! # With "require well-formed"
//!
//! Every check of the standard is made, and a few more where the standard's output would not
//! be well-formed XML (each gives [`NotWellFormed`]): a DOCTYPE name that is not an XML
//! `Name`, a public identifier without a system identifier (XML's `ExternalID` needs both), a
//! processing-instruction target that is not a `Name`, an `xmlns:xmlns` or `xmlns:xml`
//! declaration. Beyond the checks, two things are written differently (never in the
//! browser-exact mode): a CR in text is written `&#13;` (XML line-end normalization would
//! turn a literal CR into LF), a system identifier holding `"` is quoted with `'`, and a
//! generated prefix skips names already declared in scope.

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write};
use std::rc::Rc;

use super::chars::{all_xml_chars, is_pubid_char, is_xml_char, is_xml_name};
use crate::dom::names::Namespace;
use crate::dom::{Document, ElementRef, NodeId, NodeKind, NodeRef};

/// The XML namespace (`xml:` prefix).
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The XMLNS namespace (namespace declarations).
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";
/// The HTML namespace.
pub const HTML_NAMESPACE: &str = "http://www.w3.org/1999/xhtml";

/// Options for [`serialize`].
///
/// ```
/// use html_arena::xml::XmlSerializeOptions;
/// assert!(!XmlSerializeOptions::default().require_well_formed);
/// assert!(XmlSerializeOptions::well_formed().require_well_formed);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct XmlSerializeOptions {
    /// The standard's "require well-formed" flag: refuse (with
    /// [`XmlSerializeError::NotWellFormed`]) anything whose serialization would not be
    /// namespace-well-formed XML. Off by default, like `XMLSerializer`.
    pub require_well_formed: bool,
}

impl XmlSerializeOptions {
    /// Options with "require well-formed" set.
    pub fn well_formed() -> XmlSerializeOptions {
        XmlSerializeOptions {
            require_well_formed: true,
        }
    }
}

/// Why a node cannot be serialized as well-formed XML (the cases of the DOM Parsing
/// standard's "require well-formed" checks, plus the few listed in the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NotWellFormed {
    /// An element's local name contains `:` or is not an XML `Name`.
    ElementName,
    /// An element has the prefix `xmlns`.
    ElementPrefixXmlns,
    /// Two attributes have the same namespace and local name.
    DuplicateAttribute,
    /// An attribute's local name contains `:`, is not an XML `Name`, or is `xmlns` with no
    /// namespace.
    AttributeName,
    /// An attribute value holds a character that is not an XML `Char`.
    AttributeValueChar,
    /// A namespace declaration declares the XMLNS namespace.
    DeclaresXmlnsNamespace,
    /// A prefix declaration has an empty value (undeclaring a prefix is not XML 1.0).
    EmptyPrefixDeclaration,
    /// A declaration binds the reserved prefix `xmlns` or rebinds `xml`.
    ReservedPrefix,
    /// A document has no document element.
    NoDocumentElement,
    /// A comment holds a character that is not an XML `Char`.
    CommentChar,
    /// A comment contains `--`.
    CommentDoubleHyphen,
    /// A comment ends with `-`.
    CommentEndsWithHyphen,
    /// A text node holds a character that is not an XML `Char`.
    TextChar,
    /// A DOCTYPE's name is not an XML `Name`.
    DoctypeName,
    /// A DOCTYPE's public identifier holds a character that is not a `PubidChar`.
    DoctypePublicId,
    /// A DOCTYPE's system identifier holds a character that is not a `Char`, or both quotes.
    DoctypeSystemId,
    /// A DOCTYPE has a public identifier but no system identifier.
    DoctypePublicWithoutSystem,
    /// A processing instruction's target contains `:`, is `xml` in any case, or is not a
    /// `Name`.
    PiTarget,
    /// A processing instruction's data holds a non-`Char` or `?>`.
    PiData,
}

impl fmt::Display for NotWellFormed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotWellFormed::ElementName => "the local name contains ':' or is not an XML Name",
            NotWellFormed::ElementPrefixXmlns => "the element's prefix is 'xmlns'",
            NotWellFormed::DuplicateAttribute => {
                "two attributes have the same namespace and local name"
            }
            NotWellFormed::AttributeName => {
                "an attribute's local name contains ':', is not an XML Name, or is 'xmlns' in no namespace"
            }
            NotWellFormed::AttributeValueChar => {
                "an attribute value holds a character that is not an XML Char"
            }
            NotWellFormed::DeclaresXmlnsNamespace => {
                "a namespace declaration declares the XMLNS namespace"
            }
            NotWellFormed::EmptyPrefixDeclaration => "a prefix declaration has an empty value",
            NotWellFormed::ReservedPrefix => {
                "a declaration binds the prefix 'xmlns' or rebinds 'xml'"
            }
            NotWellFormed::NoDocumentElement => "the document has no document element",
            NotWellFormed::CommentChar => "the comment holds a character that is not an XML Char",
            NotWellFormed::CommentDoubleHyphen => "the comment contains '--'",
            NotWellFormed::CommentEndsWithHyphen => "the comment ends with '-'",
            NotWellFormed::TextChar => "the text holds a character that is not an XML Char",
            NotWellFormed::DoctypeName => "the DOCTYPE name is not an XML Name",
            NotWellFormed::DoctypePublicId => {
                "the public identifier holds a character that is not a PubidChar"
            }
            NotWellFormed::DoctypeSystemId => {
                "the system identifier holds a non-Char or both kinds of quote"
            }
            NotWellFormed::DoctypePublicWithoutSystem => {
                "a public identifier without a system identifier"
            }
            NotWellFormed::PiTarget => {
                "the processing instruction target contains ':', is 'xml', or is not a Name"
            }
            NotWellFormed::PiData => {
                "the processing instruction data holds a non-Char or '?>'"
            }
        })
    }
}

/// An error from [`serialize`].
#[derive(Debug)]
#[non_exhaustive]
pub enum XmlSerializeError {
    /// With "require well-formed": `node` cannot be serialized as well-formed XML.
    NotWellFormed {
        /// The node (an element for attribute errors).
        node: NodeId,
        /// The node as it would be written (`<xml:lang>`, `#comment`, `@xlink:href on <a>`).
        name: String,
        /// Why.
        reason: NotWellFormed,
    },
    /// The `fmt::Write` destination failed.
    Write,
    /// The `io::Write` destination failed.
    Io(std::io::Error),
}

impl fmt::Display for XmlSerializeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XmlSerializeError::NotWellFormed { name, reason, .. } => {
                write!(f, "cannot serialize {name} as well-formed XML: {reason}")
            }
            XmlSerializeError::Write => f.write_str("the output failed"),
            XmlSerializeError::Io(e) => write!(f, "the output failed: {e}"),
        }
    }
}

impl std::error::Error for XmlSerializeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            XmlSerializeError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<fmt::Error> for XmlSerializeError {
    fn from(_: fmt::Error) -> Self {
        XmlSerializeError::Write
    }
}

type Result<T> = std::result::Result<T, XmlSerializeError>;

/// Produces "an XML serialization" of `node` into `out`: what
/// `new XMLSerializer().serializeToString(node)` gives in a browser, or, with
/// [`XmlSerializeOptions::require_well_formed`], that or an error.
///
/// On an error the output written so far is incomplete.
///
/// ```
/// use html_arena::{Document, xml::{self, XmlSerializeOptions}};
///
/// let doc = Document::parse("<p>1 < 2<br><svg><use xlink:href=#a /></svg>");
/// let mut out = String::new();
/// xml::serialize(doc.root(), &XmlSerializeOptions::default(), &mut out)?;
/// assert_eq!(
///     out,
///     r##"<html xmlns="http://www.w3.org/1999/xhtml"><head></head><body><p>1 &lt; 2<br /><svg xmlns="http://www.w3.org/2000/svg"><use xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#a"/></svg></p></body></html>"##
/// );
///
/// // An HTML parser accepts names XML does not.
/// let doc = Document::parse("<p xml:lang=en>");
/// let err = xml::serialize(doc.root(), &XmlSerializeOptions::well_formed(), &mut String::new())
///     .unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "cannot serialize @xml:lang on <p> as well-formed XML: an attribute's local name \
///      contains ':', is not an XML Name, or is 'xmlns' in no namespace"
/// );
/// # Ok::<(), xml::XmlSerializeError>(())
/// ```
pub fn serialize<W: Write + ?Sized>(
    node: NodeRef<'_>,
    options: &XmlSerializeOptions,
    out: &mut W,
) -> Result<()> {
    Serializer::new(out, options.require_well_formed).run(node)
}

/// [`serialize`] into an [`std::io::Write`] (wrap it in a `BufWriter` if it is unbuffered).
///
/// ```
/// use html_arena::{Document, xml::{self, XmlSerializeOptions}};
/// let doc = Document::parse("<p>x");
/// let mut bytes = Vec::new();
/// xml::serialize_to_io(doc.body().unwrap().as_node(), &XmlSerializeOptions::default(), &mut bytes)?;
/// assert_eq!(bytes, br#"<body xmlns="http://www.w3.org/1999/xhtml"><p>x</p></body>"#);
/// # Ok::<(), xml::XmlSerializeError>(())
/// ```
pub fn serialize_to_io<W: std::io::Write>(
    node: NodeRef<'_>,
    options: &XmlSerializeOptions,
    out: W,
) -> Result<()> {
    struct Adapter<W> {
        inner: W,
        error: Option<std::io::Error>,
    }
    impl<W: std::io::Write> Write for Adapter<W> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.inner.write_all(s.as_bytes()).map_err(|e| {
                self.error = Some(e);
                fmt::Error
            })
        }
    }
    let mut adapter = Adapter {
        inner: out,
        error: None,
    };
    match serialize(node, options, &mut adapter) {
        Err(XmlSerializeError::Write) => {
            Err(XmlSerializeError::Io(adapter.error.unwrap_or_else(|| {
                std::io::Error::other("serialization failed")
            })))
        }
        other => other,
    }
}

impl<'a> NodeRef<'a> {
    /// The node's XML serialization: exactly what `XMLSerializer.serializeToString` gives
    /// (see [`crate::xml::serialize()`]). Never fails: without "require well-formed" every tree
    /// serializes.
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<p>a<br>b");
    /// let p = doc.body().unwrap().first_child().unwrap();
    /// assert_eq!(p.xml(), r#"<p xmlns="http://www.w3.org/1999/xhtml">a<br />b</p>"#);
    /// ```
    pub fn xml(self) -> String {
        let mut out = String::new();
        // Without "require well-formed" only the destination can fail, and a String does not.
        let _ = serialize(self, &XmlSerializeOptions::default(), &mut out);
        out
    }

    /// The node's XML serialization with options: with "require well-formed", an error when
    /// the tree cannot be written as well-formed XML (coerce it first with
    /// [`Document::coerce_to_infoset`] to make that always succeed).
    ///
    /// ```
    /// use html_arena::{Document, xml::XmlSerializeOptions};
    /// let doc = Document::parse("<!-- a -- b -->");
    /// assert!(doc.root().xml_with(&XmlSerializeOptions::well_formed()).is_err());
    /// ```
    pub fn xml_with(self, options: &XmlSerializeOptions) -> Result<String> {
        let mut out = String::new();
        serialize(self, options, &mut out)?;
        Ok(out)
    }
}

impl Document {
    /// The document's XML serialization (`XMLSerializer.serializeToString(document)`).
    ///
    /// ```
    /// let doc = html_arena::Document::parse("<!DOCTYPE html><title>T</title>");
    /// assert_eq!(
    ///     doc.xml(),
    ///     r#"<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body></body></html>"#
    /// );
    /// ```
    pub fn xml(&self) -> String {
        self.root().xml()
    }
}

// ---------------------------------------------------------------------------------------------
// The namespace prefix map.

/// "The Namespace Prefix Map", kept as one map plus an undo log instead of a copy per element
/// ("copy a namespace prefix map"): an element's additions are undone when it closes.
struct PrefixMap<'a> {
    /// Each prefix's declarations, innermost last (for looking a prefix's namespace up).
    by_prefix: HashMap<Rc<str>, Vec<Option<&'a str>>>,
    /// Each namespace's prefixes in the order they were added: the standard's "candidates
    /// list", most recently used last.
    by_namespace: HashMap<&'a str, Vec<Rc<str>>>,
    /// Every addition, to undo in reverse.
    log: Vec<(Rc<str>, Option<&'a str>)>,
}

/// How many candidates "retrieve a preferred prefix string" looks at before giving up (and
/// generating a prefix): a bound that keeps hostile documents (thousands of prefixes for one
/// namespace, each overridden below) linear.
const MAX_CANDIDATES: usize = 64;

impl<'a> PrefixMap<'a> {
    fn new() -> Self {
        let mut map = PrefixMap {
            by_prefix: HashMap::new(),
            by_namespace: HashMap::new(),
            log: Vec::new(),
        };
        // "Add the XML namespace with prefix value "xml" to prefix map."
        map.add(Rc::from("xml"), Some(XML_NAMESPACE));
        map
    }

    /// The namespace `prefix` is bound to in scope (`None`: unbound, or bound to no
    /// namespace).
    fn lookup(&self, prefix: &str) -> Option<&'a str> {
        self.by_prefix
            .get(prefix)
            .and_then(|v| v.last().copied())
            .flatten()
    }

    /// "Add a prefix string prefix to the namespace prefix map".
    fn add(&mut self, prefix: Rc<str>, ns: Option<&'a str>) {
        self.by_prefix.entry(prefix.clone()).or_default().push(ns);
        if let Some(ns) = ns {
            self.by_namespace
                .entry(ns)
                .or_default()
                .push(prefix.clone());
        }
        self.log.push((prefix, ns));
    }

    /// Undoes every addition made since the log had `mark` entries.
    fn undo(&mut self, mark: usize) {
        while self.log.len() > mark {
            let Some((prefix, ns)) = self.log.pop() else {
                break;
            };
            if let Some(v) = self.by_prefix.get_mut(&prefix) {
                v.pop();
            }
            if let Some(ns) = ns {
                if let Some(v) = self.by_namespace.get_mut(ns) {
                    v.pop();
                }
            }
        }
    }

    /// "Retrieve a preferred prefix string" as the browser does: the preferred prefix if it
    /// is bound to `ns` in scope; else the most recently added prefix for `ns` that is still
    /// bound to it; else the preferred prefix if it is unbound (the caller declares it); else
    /// none.
    fn retrieve_preferred(&self, ns: &str, preferred: Option<&str>) -> Option<Rc<str>> {
        let preferred = preferred.filter(|p| !p.is_empty());
        if let Some(p) = preferred {
            if self.lookup(p) == Some(ns) {
                return Some(Rc::from(p));
            }
        }
        if let Some(candidates) = self.by_namespace.get(ns) {
            for c in candidates.iter().rev().take(MAX_CANDIDATES) {
                if self.lookup(c) == Some(ns) {
                    return Some(c.clone());
                }
            }
        }
        // (Bound to no namespace, `xmlns:p=""`, counts as unbound.)
        preferred.filter(|p| self.lookup(p).is_none()).map(Rc::from)
    }
}

// ---------------------------------------------------------------------------------------------
// The walk.

/// An open element (or the document/fragment whose children are being written).
struct Frame<'a> {
    element: Option<ElementRef<'a>>,
    next: Option<NodeRef<'a>>,
    /// The context namespace for the children ("inherited ns").
    context: Option<&'a str>,
    /// The prefix map's log length before this element's additions.
    mark: usize,
    /// The qualified name's prefix, for the end tag.
    prefix: Option<Rc<str>>,
}

struct Serializer<'a, 'w, W: ?Sized> {
    out: &'w mut W,
    well_formed: bool,
    map: PrefixMap<'a>,
    /// "generated namespace prefix index".
    prefix_index: u64,
    /// "localname set", reused across elements.
    seen: HashSet<(Option<&'a str>, &'a str)>,
}

/// An element's namespace URI (`None`: no namespace).
fn element_namespace<'a>(e: ElementRef<'a>) -> Option<&'a str> {
    match e.namespace() {
        Namespace::None => None,
        _ => Some(e.namespace_url()),
    }
}

/// An element's prefix (the HTML parser never gives elements one; XML documents do).
fn element_prefix<'a>(e: ElementRef<'a>) -> Option<&'a str> {
    e.prefix()
}

/// An attribute as the algorithm sees it: namespace, prefix, local name, value.
struct AttrView<'a> {
    ns: Option<&'a str>,
    prefix: Option<&'a str>,
    local: &'a str,
    value: &'a str,
}

fn attr_views<'a>(e: ElementRef<'a>) -> impl Iterator<Item = AttrView<'a>> + 'a {
    let doc = e.document();
    e.attrs().map(move |a| AttrView {
        ns: doc.attr_namespace_url(a.namespace),
        prefix: a.prefix(),
        local: a.local_name,
        value: a.value,
    })
}

/// The elements the browser writes as `<name />` when they have no children ("XML
/// serializing an Element node" step 13's list, without `menuitem`).
fn is_void(local: &str) -> bool {
    matches!(
        local,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Whether `v` equals `ns` when the empty string and no namespace are the same.
fn equal_ignoring_nullity(v: Option<&str>, ns: Option<&str>) -> bool {
    v.unwrap_or("") == ns.unwrap_or("")
}

/// `None` for the empty string (a default declaration `xmlns=""` means no namespace).
fn non_empty(v: &str) -> Option<&str> {
    (!v.is_empty()).then_some(v)
}

/// Whether `attr` is a default namespace declaration (`xmlns`, in the XMLNS namespace or, as
/// an HTML parser leaves it on HTML elements, in none).
fn is_default_declaration(attr: &AttrView<'_>) -> bool {
    attr.prefix.is_none()
        && attr.local == "xmlns"
        && matches!(attr.ns, None | Some(XMLNS_NAMESPACE))
}

impl<'a, 'w, W: Write + ?Sized> Serializer<'a, 'w, W> {
    fn new(out: &'w mut W, well_formed: bool) -> Self {
        Serializer {
            out,
            well_formed,
            map: PrefixMap::new(),
            prefix_index: 1,
            seen: HashSet::new(),
        }
    }

    fn error(&self, node: NodeRef<'_>, name: String, reason: NotWellFormed) -> XmlSerializeError {
        XmlSerializeError::NotWellFormed {
            node: node.node_id(),
            name,
            reason,
        }
    }

    /// "The XML serialization algorithm" on `node`, with the context namespace null.
    fn run(mut self, node: NodeRef<'a>) -> Result<()> {
        let mut stack: Vec<Frame<'a>> = Vec::new();
        match node.kind() {
            NodeKind::Document => {
                // "XML serializing a Document node": "If the require well-formed flag is set
                // and this node has no documentElement, throw."
                if self.well_formed && node.element_children().next().is_none() {
                    return Err(self.error(
                        node,
                        "#document".into(),
                        NotWellFormed::NoDocumentElement,
                    ));
                }
                stack.push(self.container(node.first_child()));
            }
            // "XML serializing a DocumentFragment node": each child, in tree order.
            NodeKind::Fragment => stack.push(self.container(node.first_child())),
            _ => {
                if let Some(frame) = self.open(node, None)? {
                    stack.push(frame);
                }
            }
        }
        while let Some(top) = stack.last_mut() {
            match top.next {
                Some(child) => {
                    top.next = child.next_sibling();
                    let context = top.context;
                    if let Some(frame) = self.open(child, context)? {
                        stack.push(frame);
                    }
                }
                None => {
                    let Some(frame) = stack.pop() else { break };
                    self.close(frame)?;
                }
            }
        }
        Ok(())
    }

    fn container(&self, first: Option<NodeRef<'a>>) -> Frame<'a> {
        Frame {
            element: None,
            next: first,
            context: None,
            mark: self.map.log.len(),
            prefix: None,
        }
    }

    /// Writes `node` (an element's start tag); returns the frame for its children if it has
    /// an end tag to write after them.
    fn open(&mut self, node: NodeRef<'a>, context: Option<&'a str>) -> Result<Option<Frame<'a>>> {
        match node.kind() {
            NodeKind::Element(e) => self.start_tag(e, context),
            NodeKind::Text(t) => self.text(node, t).map(|()| None),
            NodeKind::Comment(c) => self.comment(node, c).map(|()| None),
            NodeKind::ProcessingInstruction { target, data } => self
                .processing_instruction(node, target, data)
                .map(|()| None),
            NodeKind::Doctype {
                name,
                public_id,
                system_id,
            } => self
                .doctype(node, name, public_id, system_id)
                .map(|()| None),
            // A document or fragment inside a walk (a detached fragment appended somewhere):
            // its children, in the same context.
            _ => Ok(Some(Frame {
                context,
                ..self.container(node.first_child())
            })),
        }
    }

    fn close(&mut self, frame: Frame<'a>) -> Result<()> {
        if let Some(e) = frame.element {
            // Step 20: "</", the qualified name, ">".
            self.out.write_str("</")?;
            if let Some(p) = &frame.prefix {
                self.out.write_str(p)?;
                self.out.write_char(':')?;
            }
            self.out.write_str(e.local_name())?;
            self.out.write_char('>')?;
        }
        self.map.undo(frame.mark);
        Ok(())
    }

    /// "Generating namespace prefixes": `ns1`, `ns2`, ... (with "require well-formed", also
    /// skipping names bound in scope, which the browser does not).
    fn generate_prefix(&mut self, ns: Option<&'a str>) -> Rc<str> {
        loop {
            let generated: Rc<str> = Rc::from(format!("ns{}", self.prefix_index));
            self.prefix_index += 1;
            let taken = self
                .map
                .by_prefix
                .get(&generated)
                .is_some_and(|v| !v.is_empty());
            if !(self.well_formed && taken) {
                self.map.add(generated.clone(), ns);
                return generated;
            }
        }
    }

    /// "Recording the namespace information" for `e`: adds its prefix declarations to the map;
    /// returns its default namespace declaration's value, if it has one.
    fn record_namespace_information(&mut self, e: ElementRef<'a>) -> Option<&'a str> {
        let mut default = None;
        for attr in attr_views(e) {
            if is_default_declaration(&attr) {
                // Step 2.3.1: a default namespace declaration.
                default = Some(attr.value);
            } else if attr.ns == Some(XMLNS_NAMESPACE) {
                // Step 2.3.2: a prefix definition. "If namespace definition is the XML
                // namespace, then stop running these steps."
                if attr.value == XML_NAMESPACE {
                    continue;
                }
                // (Added even if already found for this namespace: the browser's map is a
                // stack of scopes, so a rebinding below an override is seen.)
                self.map.add(Rc::from(attr.local), non_empty(attr.value));
            }
        }
        default
    }

    /// "XML serializing an Element node", up to the children.
    fn start_tag(
        &mut self,
        e: ElementRef<'a>,
        context: Option<&'a str>,
    ) -> Result<Option<Frame<'a>>> {
        let local = e.local_name();
        // Step 1.
        if self.well_formed && (local.contains(':') || !is_xml_name(local)) {
            return Err(self.error(*e, format!("<{local}>"), NotWellFormed::ElementName));
        }
        let mark = self.map.log.len();
        let mut ignore_namespace_definition_attribute = false;
        // Step 7: "Let local default namespace be the result of recording the namespace
        // information".
        let local_default = self.record_namespace_information(e);
        let mut inherited = context;
        let ns = element_namespace(e);
        let qualified_prefix: Option<Rc<str>>;
        self.out.write_char('<')?;
        if inherited == ns {
            // Step 11: "If local default namespace is not null, then set ignore namespace
            // definition attribute to true". In a document from the HTML parser the browser
            // keeps a declaration that repeats the inherited namespace (see the module docs);
            // one that names another namespace is dropped, as the step says, since writing
            // it would change the element's namespace on reparsing.
            let keep = !e.document().is_xml()
                && local_default.is_some_and(|d| equal_ignoring_nullity(Some(d), ns));
            if local_default.is_some() && !keep {
                ignore_namespace_definition_attribute = true;
            }
            qualified_prefix = (ns == Some(XML_NAMESPACE)).then(|| Rc::from("xml"));
            self.write_qualified(qualified_prefix.as_deref(), local)?;
        } else {
            // Step 12.
            let prefix = element_prefix(e).filter(|_| ns.is_some());
            let mut candidate = ns.and_then(|ns| self.map.retrieve_preferred(ns, prefix));
            if prefix == Some("xmlns") {
                if self.well_formed {
                    return Err(self.error(
                        *e,
                        format!("<xmlns:{local}>"),
                        NotWellFormed::ElementPrefixXmlns,
                    ));
                }
                candidate = Some(Rc::from("xmlns"));
            }
            let suitable = candidate.filter(|c| &**c == "xmlns" || self.map.lookup(c) == ns);
            if let Some(c) = suitable {
                // "Found a suitable namespace prefix".
                self.write_qualified(Some(&c), local)?;
                if let Some(d) = local_default {
                    if d != XML_NAMESPACE {
                        inherited = non_empty(d);
                    }
                }
                qualified_prefix = Some(c);
            } else if let Some(p) = prefix {
                // "Otherwise, if prefix is not null": declare it (or a generated one when the
                // element itself declares `p` otherwise).
                let declared_here = attr_views(e)
                    .any(|a| a.ns == Some(XMLNS_NAMESPACE) && a.prefix.is_some() && a.local == p);
                let p: Rc<str> = if declared_here {
                    self.generate_prefix(ns)
                } else {
                    let p: Rc<str> = Rc::from(p);
                    self.map.add(p.clone(), ns);
                    p
                };
                self.write_qualified(Some(&p), local)?;
                self.out.write_str(" xmlns:")?;
                self.out.write_str(&p)?;
                self.out.write_str("=\"")?;
                self.attribute_value(e, "xmlns", ns.unwrap_or(""))?;
                self.out.write_char('"')?;
                if let Some(d) = local_default {
                    inherited = non_empty(d);
                }
                qualified_prefix = Some(p);
            } else if local_default.is_none_or(|d| !equal_ignoring_nullity(Some(d), ns)) {
                // A default namespace declaration for the element's own namespace (replacing
                // the element's own `xmlns`, which is then skipped).
                ignore_namespace_definition_attribute = true;
                self.out.write_str(local)?;
                inherited = ns;
                self.out.write_str(" xmlns=\"")?;
                self.attribute_value(e, "xmlns", ns.unwrap_or(""))?;
                self.out.write_char('"')?;
                qualified_prefix = None;
            } else {
                // The element's own default declaration matches its namespace.
                self.out.write_str(local)?;
                inherited = ns;
                qualified_prefix = None;
            }
        }
        // Step 13.
        self.attributes(e, ignore_namespace_definition_attribute)?;
        let is_html = ns == Some(HTML_NAMESPACE);
        let empty = e.first_child().is_none();
        if empty && (!is_html || is_void(local)) {
            // Steps 14 and 15: " /" for HTML void elements, "/" for other empty elements.
            self.out.write_str(if is_html { " />" } else { "/>" })?;
            self.map.undo(mark);
            return Ok(None);
        }
        self.out.write_char('>')?;
        // Step 18: a template's contents instead of its children.
        let first = if is_html && local == "template" {
            e.template_contents().and_then(NodeRef::first_child)
        } else {
            e.first_child()
        };
        Ok(Some(Frame {
            element: Some(e),
            next: first,
            context: inherited,
            mark,
            prefix: qualified_prefix,
        }))
    }

    fn write_qualified(&mut self, prefix: Option<&str>, local: &str) -> Result<()> {
        if let Some(p) = prefix {
            self.out.write_str(p)?;
            self.out.write_char(':')?;
        }
        self.out.write_str(local)?;
        Ok(())
    }

    /// "Serializing an Element's attributes".
    fn attributes(
        &mut self,
        e: ElementRef<'a>,
        ignore_namespace_definition_attribute: bool,
    ) -> Result<()> {
        let check_duplicates = self.well_formed && e.attrs().len() > 1;
        if check_duplicates {
            self.seen.clear();
        }
        for attr in attr_views(e) {
            // Steps 3.1 and 3.2: the localname set.
            if check_duplicates && !self.seen.insert((attr.ns, attr.local)) {
                return Err(self.attr_error(e, &attr, NotWellFormed::DuplicateAttribute));
            }
            let mut candidate: Option<Rc<str>> = None;
            if is_default_declaration(&attr) {
                // Step 3.5.2.1: skipped when it is the XML namespace or when the element's
                // namespace needed a declaration of its own.
                if ignore_namespace_definition_attribute || attr.value == XML_NAMESPACE {
                    continue;
                }
                if self.well_formed && attr.value == XMLNS_NAMESPACE {
                    return Err(self.attr_error(e, &attr, NotWellFormed::DeclaresXmlnsNamespace));
                }
                self.out.write_str(" xmlns=\"")?;
                self.attribute_value(e, "xmlns", attr.value)?;
                self.out.write_char('"')?;
                continue;
            }
            match attr.ns {
                None => {}
                Some(XMLNS_NAMESPACE) => {
                    // Step 3.5.2: a prefix declaration.
                    if attr.value == XML_NAMESPACE {
                        continue;
                    }
                    if self.well_formed {
                        let reason = if attr.value == XMLNS_NAMESPACE {
                            Some(NotWellFormed::DeclaresXmlnsNamespace)
                        } else if attr.value.is_empty() {
                            Some(NotWellFormed::EmptyPrefixDeclaration)
                        } else if attr.local == "xmlns" || attr.local == "xml" {
                            Some(NotWellFormed::ReservedPrefix)
                        } else {
                            None
                        };
                        if let Some(reason) = reason {
                            return Err(self.attr_error(e, &attr, reason));
                        }
                    }
                    candidate = Some(Rc::from("xmlns"));
                }
                Some(ns) => {
                    // Steps 3.5.1 and 3.5.3.
                    candidate = self.map.retrieve_preferred(ns, attr.prefix);
                    let bound = candidate
                        .as_ref()
                        .is_some_and(|c| self.map.lookup(c) == Some(ns));
                    if !bound {
                        let p = match candidate.take() {
                            // The attribute's own prefix, free in scope: declare it.
                            Some(c) => {
                                self.map.add(c.clone(), Some(ns));
                                c
                            }
                            None => self.generate_prefix(Some(ns)),
                        };
                        self.out.write_str(" xmlns:")?;
                        self.out.write_str(&p)?;
                        self.out.write_str("=\"")?;
                        self.attribute_value(e, "xmlns", ns)?;
                        self.out.write_char('"')?;
                        candidate = Some(p);
                    }
                }
            }
            self.out.write_char(' ')?;
            if let Some(c) = &candidate {
                self.out.write_str(c)?;
                self.out.write_char(':')?;
            }
            if self.well_formed
                && (attr.local.contains(':')
                    || !is_xml_name(attr.local)
                    || (attr.local == "xmlns" && attr.ns.is_none()))
            {
                return Err(self.attr_error(e, &attr, NotWellFormed::AttributeName));
            }
            self.out.write_str(attr.local)?;
            self.out.write_str("=\"")?;
            self.attribute_value(e, attr.local, attr.value)?;
            self.out.write_char('"')?;
        }
        Ok(())
    }

    fn attr_error(
        &self,
        e: ElementRef<'a>,
        attr: &AttrView<'_>,
        reason: NotWellFormed,
    ) -> XmlSerializeError {
        let name = match attr.prefix {
            Some(p) => format!("@{p}:{} on <{}>", attr.local, e.local_name()),
            None => format!("@{} on <{}>", attr.local, e.local_name()),
        };
        self.error(*e, name, reason)
    }

    /// "Serializing an attribute value": `&`, `"`, `<`, `>` escaped, and (as browsers do)
    /// tab, LF and CR as character references.
    fn attribute_value(&mut self, e: ElementRef<'a>, name: &str, value: &str) -> Result<()> {
        if self.well_formed && !all_xml_chars(value) {
            return Err(self.error(
                *e,
                format!("@{name} on <{}>", e.local_name()),
                NotWellFormed::AttributeValueChar,
            ));
        }
        write_escaped(self.out, value, |b| match b {
            b'&' => Some("&amp;"),
            b'"' => Some("&quot;"),
            b'<' => Some("&lt;"),
            b'>' => Some("&gt;"),
            b'\t' => Some("&#9;"),
            b'\n' => Some("&#10;"),
            b'\r' => Some("&#13;"),
            _ => None,
        })?;
        Ok(())
    }

    /// "XML serializing a Text node".
    fn text(&mut self, node: NodeRef<'a>, text: &str) -> Result<()> {
        if self.well_formed {
            if !all_xml_chars(text) {
                return Err(self.error(node, "#text".into(), NotWellFormed::TextChar));
            }
            // A literal CR would become LF when read back (XML 1.0, 2.11).
            write_escaped(self.out, text, |b| match b {
                b'&' => Some("&amp;"),
                b'<' => Some("&lt;"),
                b'>' => Some("&gt;"),
                b'\r' => Some("&#13;"),
                _ => None,
            })?;
        } else {
            write_escaped(self.out, text, |b| match b {
                b'&' => Some("&amp;"),
                b'<' => Some("&lt;"),
                b'>' => Some("&gt;"),
                _ => None,
            })?;
        }
        Ok(())
    }

    /// "XML serializing a Comment node".
    fn comment(&mut self, node: NodeRef<'a>, data: &str) -> Result<()> {
        if self.well_formed {
            let reason = if !all_xml_chars(data) {
                Some(NotWellFormed::CommentChar)
            } else if data.contains("--") {
                Some(NotWellFormed::CommentDoubleHyphen)
            } else if data.ends_with('-') {
                Some(NotWellFormed::CommentEndsWithHyphen)
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(self.error(node, "#comment".into(), reason));
            }
        }
        self.out.write_str("<!--")?;
        self.out.write_str(data)?;
        self.out.write_str("-->")?;
        Ok(())
    }

    /// "XML serializing a ProcessingInstruction node".
    fn processing_instruction(
        &mut self,
        node: NodeRef<'a>,
        target: &str,
        data: &str,
    ) -> Result<()> {
        if self.well_formed {
            let name = || format!("<?{target}?>");
            if target.contains(':') || target.eq_ignore_ascii_case("xml") || !is_xml_name(target) {
                return Err(self.error(node, name(), NotWellFormed::PiTarget));
            }
            if !all_xml_chars(data) || data.contains("?>") {
                return Err(self.error(node, name(), NotWellFormed::PiData));
            }
        }
        self.out.write_str("<?")?;
        self.out.write_str(target)?;
        self.out.write_char(' ')?;
        self.out.write_str(data)?;
        self.out.write_str("?>")?;
        Ok(())
    }

    /// "XML serializing a DocumentType node" (omitted when the name is empty, as browsers do).
    fn doctype(
        &mut self,
        node: NodeRef<'a>,
        name: &str,
        public_id: &str,
        system_id: &str,
    ) -> Result<()> {
        if name.is_empty() {
            return Ok(());
        }
        let mut system_quote = '"';
        if self.well_formed {
            let reason = if !is_xml_name(name) {
                Some(NotWellFormed::DoctypeName)
            } else if !public_id.chars().all(is_pubid_char) {
                Some(NotWellFormed::DoctypePublicId)
            } else if !system_id.chars().all(is_xml_char)
                || (system_id.contains('"') && system_id.contains('\''))
            {
                Some(NotWellFormed::DoctypeSystemId)
            } else if !public_id.is_empty() && system_id.is_empty() {
                Some(NotWellFormed::DoctypePublicWithoutSystem)
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(self.error(node, format!("<!DOCTYPE {name}>"), reason));
            }
            if system_id.contains('"') {
                system_quote = '\'';
            }
        }
        self.out.write_str("<!DOCTYPE ")?;
        self.out.write_str(name)?;
        if !public_id.is_empty() {
            self.out.write_str(" PUBLIC \"")?;
            self.out.write_str(public_id)?;
            self.out.write_char('"')?;
        }
        if !system_id.is_empty() {
            if public_id.is_empty() {
                self.out.write_str(" SYSTEM")?;
            }
            self.out.write_char(' ')?;
            self.out.write_char(system_quote)?;
            self.out.write_str(system_id)?;
            self.out.write_char(system_quote)?;
        }
        self.out.write_char('>')?;
        Ok(())
    }
}

/// Writes `s`, replacing each ASCII byte `escape` maps to something; the runs between are
/// written whole (one pass).
fn write_escaped<W: Write + ?Sized>(
    out: &mut W,
    s: &str,
    escape: impl Fn(u8) -> Option<&'static str>,
) -> fmt::Result {
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        if let Some(replacement) = escape(b) {
            // `b` is ASCII, so `i` and `i + 1` are character boundaries.
            out.write_str(s.get(start..i).unwrap_or(""))?;
            out.write_str(replacement)?;
            start = i + 1;
        }
    }
    out.write_str(s.get(start..).unwrap_or(""))
}
