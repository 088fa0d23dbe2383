//! Parsing XML 1.0 documents and fragments into the arena: [`Document::parse_xml`],
//! [`Document::parse_xml_bytes`], [`Document::parse_xml_fragment`].
//!
//! The markup is tokenized by `quick-xml`; everything XML 1.0 and Namespaces in XML 1.0 ask
//! of a non-validating processor on top of that is here: names (`QName`s of `NCName`s),
//! characters (`Char`), end-of-line normalization (2.11), attribute-value normalization
//! (3.3.3), character and entity references (4.1, 4.4), namespace declarations and their
//! constraints, one document element, nothing but comments, processing instructions and white
//! space around it. The first violation stops the parse with an [`XmlParseError`] that says
//! where (`line:column`, 1-based, columns in characters) and what.
//!
//! What the result looks like is what a browser's `DOMParser` gives for `application/xml`
//! (and the HTML Standard's "Parsing XHTML documents" for its `template` rule):
//!
//! - Namespace declarations stay as attributes in the XMLNS namespace (`xmlns`,
//!   `xmlns:prefix`), elements and attributes keep their prefixes (so that serializing gives
//!   the same prefixes back), names keep their case.
//! - Elements in the XHTML, SVG and MathML namespaces are [`Namespace::Html`],
//!   [`Namespace::Svg`], [`Namespace::MathMl`], like the HTML parser's; others are
//!   [`Namespace::Other`] (URL from [`Document::namespace_url`]) or [`Namespace::None`].
//! - The children of an XHTML `template` element go into its template contents.
//! - White space outside the document element is not kept (the DOM has no text there); CDATA
//!   sections become text (merged with the text around them), as do references.
//! - The DOCTYPE becomes a DOCTYPE node (name, public and system identifiers).
//!
//! Safety:
//!
//! - **No external entities, no DTD fetching** (nothing is ever read but the input): a
//!   reference to an external entity is an error ([`XmlErrorKind::ExternalEntity`]).
//! - **Entity expansion is bounded**: internal entities declared in the DTD's internal subset
//!   are expanded, at most [`XmlParseOptions::max_entity_expansion`] characters in all and
//!   [`XmlParseOptions::max_entity_depth`] references deep ("billion laughs" stops with
//!   [`XmlErrorKind::EntityExpansionLimit`]); a recursive entity is an error. An entity
//!   whose replacement text holds markup (`<`) is refused
//!   ([`XmlErrorKind::UnsupportedEntity`]), and so are parameter-entity references in the
//!   internal subset.
//! - Depth is handled with an explicit stack: a million nested elements parse on a small
//!   stack. Cost is linear in the input plus the expanded entities.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use super::chars::{all_xml_chars, is_ncname, is_pubid_char, is_xml_char, is_xml_name};
use super::serialize::{XML_NAMESPACE, XMLNS_NAMESPACE};
use crate::dom::names::{AttrNamespace, Namespace, TooManyNames, XmlNames, local_name};
use crate::dom::{Document, ElementRef, NodeData};

/// Options for parsing XML.
///
/// ```
/// use html_arena::xml::XmlParseOptions;
/// let options = XmlParseOptions::default();
/// assert_eq!(options.max_entity_expansion, 1 << 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct XmlParseOptions {
    /// The most characters entity references may expand to in all (default 1 MiB).
    pub max_entity_expansion: usize,
    /// The deepest nesting of entity references inside entity values (default 16).
    pub max_entity_depth: usize,
}

impl Default for XmlParseOptions {
    fn default() -> Self {
        XmlParseOptions {
            max_entity_expansion: 1 << 20,
            max_entity_depth: 16,
        }
    }
}

/// What is wrong with an XML input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum XmlErrorKind {
    /// The tokenizer's finding (unclosed markup, bad syntax, mismatched end tag, ...).
    Syntax(String),
    /// The bytes are not text in the declared or detected encoding.
    Encoding(String),
    /// A name that is not a `QName` of `NCName`s (or not a `Name` where one is required).
    InvalidName(String),
    /// A character that is not an XML `Char` (or a reference to one).
    InvalidChar(u32),
    /// `]]>` in text.
    CdataEndInText,
    /// A prefix that no declaration in scope binds.
    UndeclaredPrefix(String),
    /// A namespace declaration the Namespaces in XML rules forbid (`xmlns:p=""`, binding
    /// `xml` or `xmlns`, declaring their URLs for other prefixes).
    InvalidNamespaceDeclaration(String),
    /// Two attributes with the same expanded name (or the same qualified name).
    DuplicateAttribute(String),
    /// No document element.
    NoDocumentElement,
    /// Content after the document element, or a second one.
    ContentAfterDocumentElement,
    /// Text (other than white space) or a reference outside the document element.
    TextOutsideDocumentElement,
    /// An element not closed at the end of the input.
    UnclosedElement(String),
    /// A reference to an entity that is not declared.
    UndefinedEntity(String),
    /// A reference to an external entity (never fetched).
    ExternalEntity(String),
    /// An entity whose value refers to itself.
    RecursiveEntity(String),
    /// Entity references expanded past [`XmlParseOptions::max_entity_expansion`] characters
    /// or [`XmlParseOptions::max_entity_depth`] levels.
    EntityExpansionLimit,
    /// Something this parser refuses: an entity whose replacement text has markup, a
    /// parameter-entity reference, an unparsed entity reference.
    UnsupportedEntity(String),
    /// A misplaced or malformed XML declaration or DOCTYPE.
    Declaration(String),
    /// More than 65,535 distinct namespace URLs or prefixes in one document.
    TooManyNamespaces,
    /// The fragment parsing context is not an element.
    BadContext,
}

impl fmt::Display for XmlErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XmlErrorKind::Syntax(m) => write!(f, "syntax error: {m}"),
            XmlErrorKind::Encoding(m) => write!(f, "encoding error: {m}"),
            XmlErrorKind::InvalidName(n) => write!(f, "invalid name {n:?}"),
            XmlErrorKind::InvalidChar(c) => write!(f, "invalid character U+{c:04X}"),
            XmlErrorKind::CdataEndInText => f.write_str("']]>' in text"),
            XmlErrorKind::UndeclaredPrefix(p) => write!(f, "undeclared prefix {p:?}"),
            XmlErrorKind::InvalidNamespaceDeclaration(m) => {
                write!(f, "invalid namespace declaration: {m}")
            }
            XmlErrorKind::DuplicateAttribute(n) => write!(f, "duplicate attribute {n:?}"),
            XmlErrorKind::NoDocumentElement => f.write_str("no document element"),
            XmlErrorKind::ContentAfterDocumentElement => {
                f.write_str("content after the document element")
            }
            XmlErrorKind::TextOutsideDocumentElement => {
                f.write_str("text outside the document element")
            }
            XmlErrorKind::UnclosedElement(n) => write!(f, "element <{n}> is not closed"),
            XmlErrorKind::UndefinedEntity(n) => write!(f, "undefined entity &{n};"),
            XmlErrorKind::ExternalEntity(n) => {
                write!(
                    f,
                    "external entity &{n}; (external entities are never loaded)"
                )
            }
            XmlErrorKind::RecursiveEntity(n) => write!(f, "recursive entity &{n};"),
            XmlErrorKind::EntityExpansionLimit => f.write_str("entity expansion limit reached"),
            XmlErrorKind::UnsupportedEntity(m) => write!(f, "unsupported: {m}"),
            XmlErrorKind::Declaration(m) => write!(f, "{m}"),
            XmlErrorKind::TooManyNamespaces => {
                f.write_str("more than 65535 distinct namespaces or prefixes")
            }
            XmlErrorKind::BadContext => f.write_str("the fragment context is not an element"),
        }
    }
}

/// A well-formedness (or namespace, or limit) error: what and where.
///
/// `Display` gives `line:column message`.
///
/// ```
/// use html_arena::Document;
/// let err = Document::parse_xml("<a>\n  <b></a>").unwrap_err();
/// assert_eq!((err.line, err.column), (2, 6));
/// assert!(err.to_string().starts_with("2:6 syntax error"), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XmlParseError {
    /// What is wrong.
    pub kind: XmlErrorKind,
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters.
    pub column: usize,
    /// The byte offset in the (decoded) text.
    pub offset: usize,
}

impl fmt::Display for XmlParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{} {}", self.line, self.column, self.kind)
    }
}

impl std::error::Error for XmlParseError {}

impl XmlParseError {
    fn at(text: &str, offset: usize, kind: XmlErrorKind) -> XmlParseError {
        let offset = offset.min(text.len());
        let mut cut = offset;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let before = &text[..cut];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        XmlParseError {
            kind,
            line,
            column,
            offset,
        }
    }
}

/// The namespace declarations in scope where a fragment is parsed (the context element's, and
/// its ancestors'), for [`Document::parse_xml_fragment`].
///
/// ```
/// use html_arena::xml::XmlFragmentContext;
/// let context = XmlFragmentContext::new()
///     .with_default_namespace("http://www.w3.org/2005/Atom")
///     .with_prefix("media", "http://search.yahoo.com/mrss/");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XmlFragmentContext {
    /// `(prefix, URL)` pairs, outermost first; the prefix `""` is the default namespace.
    pub declarations: Vec<(String, String)>,
}

impl XmlFragmentContext {
    /// No declarations (only `xml` is bound).
    pub fn new() -> Self {
        XmlFragmentContext::default()
    }

    /// Adds a default namespace declaration.
    pub fn with_default_namespace(mut self, url: &str) -> Self {
        self.declarations.push((String::new(), url.to_owned()));
        self
    }

    /// Adds a prefix declaration.
    pub fn with_prefix(mut self, prefix: &str, url: &str) -> Self {
        self.declarations.push((prefix.to_owned(), url.to_owned()));
        self
    }

    /// The declarations in scope at `element` ("Parsing XHTML fragments": the context
    /// element's in-scope namespaces): its own namespace as the default (and, if it has a
    /// prefix, for that prefix), the `xmlns` attributes on it and its ancestors, and the
    /// prefixes of their names, innermost winning.
    ///
    /// ```
    /// use html_arena::{Document, xml::XmlFragmentContext};
    /// let doc = Document::parse_xml(r#"<a:x xmlns:a="urn:a" xmlns:b="urn:b"><y/></a:x>"#)?;
    /// let y = doc.document_element().unwrap().element_children().next().unwrap();
    /// let context = XmlFragmentContext::from_element(y);
    /// let frag = Document::parse_xml_fragment("<b:z/><w/>", &context)?;
    /// let z = frag.root().element_children().next().unwrap();
    /// assert_eq!(z.namespace_url(), "urn:b");
    /// # Ok::<(), html_arena::xml::XmlParseError>(())
    /// ```
    pub fn from_element(element: ElementRef<'_>) -> Self {
        let doc = element.document();
        let mut chain: Vec<ElementRef<'_>> = std::iter::once(element)
            .chain(element.ancestors().filter_map(|a| a.as_element()))
            .collect();
        chain.reverse();
        let mut declarations = Vec::new();
        for e in &chain {
            for a in e.attrs() {
                if a.namespace == AttrNamespace::Xmlns {
                    let prefix = if a.local_name == "xmlns" && a.prefix().is_none() {
                        String::new()
                    } else {
                        a.local_name.to_owned()
                    };
                    declarations.push((prefix, a.value.to_owned()));
                }
            }
        }
        // The context element's own name: its namespace is in scope for its prefix (or as
        // the default), whatever attributes say (an HTML-parsed tree has none).
        let url = doc.namespace_url(element.namespace());
        declarations.push((element.prefix().unwrap_or("").to_owned(), url.to_owned()));
        XmlFragmentContext { declarations }
    }
}

impl Document {
    /// Parses an XML 1.0 document (see [`crate::xml::parse`] for what the tree holds).
    ///
    /// ```
    /// use html_arena::{Document, Selector};
    /// let doc = Document::parse_xml(r#"<?xml version="1.0"?>
    /// <rss version="2.0"><channel><title>News &amp; more</title>
    /// <item><title>One</title><link>https://example.com/1</link></item></channel></rss>"#)?;
    /// let titles: Vec<String> = doc.select(&Selector::parse("item > title").unwrap())
    ///     .map(|e| e.text()).collect();
    /// assert_eq!(titles, ["One"]);
    /// # Ok::<(), html_arena::xml::XmlParseError>(())
    /// ```
    pub fn parse_xml(text: &str) -> Result<Document, XmlParseError> {
        parse_str(text, &XmlParseOptions::default(), None)
    }

    /// [`Document::parse_xml`] with options.
    pub fn parse_xml_with(
        text: &str,
        options: &XmlParseOptions,
    ) -> Result<Document, XmlParseError> {
        parse_str(text, options, None)
    }

    /// Parses XML bytes: the encoding comes from a byte order mark, else from the XML
    /// declaration's `encoding`, else UTF-8 (XML 1.0, 4.3.3 and appendix F); bytes that are
    /// not text in that encoding are an error.
    ///
    /// ```
    /// use html_arena::Document;
    /// let doc = Document::parse_xml_bytes(b"<?xml version='1.0' encoding='ISO-8859-1'?><a>caf\xe9</a>", &Default::default())?;
    /// assert_eq!(doc.document_element().unwrap().text(), "café");
    /// assert_eq!(doc.encoding(), encoding_rs::WINDOWS_1252);
    /// # Ok::<(), html_arena::xml::XmlParseError>(())
    /// ```
    pub fn parse_xml_bytes(
        bytes: &[u8],
        options: &XmlParseOptions,
    ) -> Result<Document, XmlParseError> {
        let (text, encoding) = decode(bytes)?;
        let mut doc = parse_str(&text, options, None)?;
        doc.encoding = encoding;
        doc.encoding_confidence = crate::Confidence::Certain;
        Ok(doc)
    }

    /// Parses an XML fragment (element content: elements, text, comments, processing
    /// instructions, any number of them) with the namespace declarations of `context` in
    /// scope. The result's root is a `DocumentFragment` holding the nodes.
    ///
    /// ```
    /// use html_arena::{Document, xml::XmlFragmentContext};
    /// let context = XmlFragmentContext::new().with_default_namespace("http://www.w3.org/1999/xhtml");
    /// let frag = Document::parse_xml_fragment("<p>a</p>b<br/>", &context)?;
    /// assert_eq!(frag.root().children().count(), 3);
    /// assert_eq!(frag.root().first_child().unwrap().as_element().unwrap().namespace(), html_arena::Namespace::Html);
    /// # Ok::<(), html_arena::xml::XmlParseError>(())
    /// ```
    pub fn parse_xml_fragment(
        text: &str,
        context: &XmlFragmentContext,
    ) -> Result<Document, XmlParseError> {
        parse_str(text, &XmlParseOptions::default(), Some(context))
    }
}

/// Decodes XML bytes (XML 1.0, 4.3.3 "Character Encoding in Entities", appendix F).
fn decode(bytes: &[u8]) -> Result<(String, &'static encoding_rs::Encoding), XmlParseError> {
    let encoding_error = |m: String| XmlParseError {
        kind: XmlErrorKind::Encoding(m),
        line: 1,
        column: 1,
        offset: 0,
    };
    let (encoding, rest) = if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        (encoding_rs::UTF_8, rest)
    } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        (encoding_rs::UTF_16LE, rest)
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        (encoding_rs::UTF_16BE, rest)
    } else if bytes.starts_with(b"<\0?\0") {
        (encoding_rs::UTF_16LE, bytes)
    } else if bytes.starts_with(b"\0<\0?") {
        (encoding_rs::UTF_16BE, bytes)
    } else if bytes.starts_with(b"<?xml") {
        // The declaration is ASCII up to `?>`: read its `encoding` pseudo-attribute.
        let end = memchr::memmem::find(bytes, b"?>").unwrap_or(bytes.len().min(1024));
        let decl = String::from_utf8_lossy(&bytes[..end.min(bytes.len())]);
        let label = declared_encoding(&decl);
        let encoding = match label {
            None => encoding_rs::UTF_8,
            Some(label) => encoding_rs::Encoding::for_label(label.as_bytes())
                .ok_or_else(|| encoding_error(format!("unknown encoding {label:?}")))?,
        };
        // A UTF-16 label on bytes that are ASCII-compatible is a lie; read them as UTF-8.
        let encoding = if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
            encoding_rs::UTF_8
        } else {
            encoding
        };
        (encoding, bytes)
    } else {
        (encoding_rs::UTF_8, bytes)
    };
    match encoding.decode_without_bom_handling_and_without_replacement(rest) {
        Some(text) => Ok((text.into_owned(), encoding)),
        None => Err(encoding_error(format!(
            "bytes that are not {}",
            encoding.name()
        ))),
    }
}

/// The `encoding` pseudo-attribute of an XML declaration.
fn declared_encoding(decl: &str) -> Option<String> {
    let at = decl.find("encoding")?;
    let rest = decl[at + "encoding".len()..].trim_start();
    let rest = rest.strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|&q| q == '"' || q == '\'')?;
    let rest = &rest[1..];
    let end = rest.find(quote)?;
    Some(rest[..end].to_owned())
}

/// An entity declared in the internal subset.
#[derive(Clone, Debug)]
enum Entity {
    /// An internal entity and its literal value (references not yet expanded).
    Internal(String),
    /// An external entity (never loaded).
    External,
}

/// The namespace bindings in scope, with an undo log.
struct Scope {
    bindings: HashMap<String, Vec<String>>,
    log: Vec<String>,
}

impl Scope {
    fn new() -> Scope {
        let mut s = Scope {
            bindings: HashMap::new(),
            log: Vec::new(),
        };
        s.bind("xml", XML_NAMESPACE);
        s.bind("xmlns", XMLNS_NAMESPACE);
        s
    }

    fn bind(&mut self, prefix: &str, url: &str) {
        self.bindings
            .entry(prefix.to_owned())
            .or_default()
            .push(url.to_owned());
        self.log.push(prefix.to_owned());
    }

    fn lookup(&self, prefix: &str) -> Option<&str> {
        self.bindings
            .get(prefix)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    fn undo(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some(p) = self.log.pop() {
                if let Some(v) = self.bindings.get_mut(&p) {
                    v.pop();
                }
            }
        }
    }
}

struct Open {
    /// Where children go (the element, or an XHTML template's contents).
    parent: indextree::NodeId,
    /// The element.
    element: indextree::NodeId,
    /// The scope log length before this element's declarations.
    mark: usize,
    /// The default namespace in scope for the children.
    default: Namespace,
}

struct Parser<'t, 'o> {
    text: &'t str,
    options: &'o XmlParseOptions,
    doc: Document,
    names: XmlNames,
    scope: Scope,
    stack: Vec<Open>,
    entities: HashMap<String, Entity>,
    expanded: usize,
    seen_root: bool,
    fragment: bool,
    /// A buffer for each start tag's expanded attribute names.
    expanded_names: Vec<(AttrNamespace, crate::LocalName)>,
}

type Result<T, E = XmlParseError> = std::result::Result<T, E>;

fn parse_str(
    text: &str,
    options: &XmlParseOptions,
    context: Option<&XmlFragmentContext>,
) -> Result<Document> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let root_kind = if context.is_some() {
        NodeData::Fragment
    } else {
        NodeData::Document
    };
    let mut p = Parser {
        text,
        options,
        doc: Document::with_source(String::new(), root_kind, &crate::html::hooks::HOOKS),
        names: XmlNames::default(),
        scope: Scope::new(),
        stack: Vec::new(),
        entities: HashMap::new(),
        expanded: 0,
        seen_root: false,
        fragment: context.is_some(),
        expanded_names: Vec::new(),
    };
    if let Some(context) = context {
        for (prefix, url) in &context.declarations {
            p.scope.bind(prefix, url);
        }
    }
    p.run()?;
    let Parser { mut doc, names, .. } = p;
    doc.xml_names = Some(Box::new(names));
    Ok(doc)
}

impl<'t> Parser<'t, '_> {
    fn error(&self, offset: usize, kind: XmlErrorKind) -> XmlParseError {
        XmlParseError::at(self.text, offset, kind)
    }

    fn run(&mut self) -> Result<()> {
        let mut reader = Reader::from_str(self.text);
        {
            let config = reader.config_mut();
            config.trim_text(false);
            config.check_end_names = true;
            config.check_comments = true;
            config.expand_empty_elements = false;
        }
        let mut first = true;
        loop {
            let at = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
            let event = match reader.read_event() {
                Ok(e) => e,
                Err(e) => {
                    let pos = usize::try_from(reader.error_position()).unwrap_or(at);
                    return Err(self.error(pos, XmlErrorKind::Syntax(e.to_string())));
                }
            };
            let was_first = first;
            first = false;
            match event {
                Event::Decl(decl) => {
                    if !was_first || at != 0 || self.fragment {
                        return Err(self.error(
                            at,
                            XmlErrorKind::Declaration("misplaced XML declaration".into()),
                        ));
                    }
                    match decl.version() {
                        Ok(v) if v.starts_with("1.") => {}
                        _ => {
                            return Err(self.error(
                                at,
                                XmlErrorKind::Declaration("unsupported XML version".into()),
                            ));
                        }
                    }
                }
                Event::DocType(d) => {
                    let content = d.xml10_content();
                    self.doctype(at, &content)?;
                }
                Event::Start(e) => {
                    self.start_tag(at, &e, false)?;
                }
                Event::Empty(e) => {
                    self.start_tag(at, &e, true)?;
                }
                Event::End(_) => {
                    // quick-xml checked that the names match.
                    if let Some(open) = self.stack.pop() {
                        self.scope.undo(open.mark);
                    }
                }
                Event::Text(t) => {
                    let raw = t.xml10_content();
                    self.text_content(at, &raw, true)?;
                }
                Event::CData(c) => {
                    let raw = c.xml10_content();
                    if self.stack.is_empty() && !self.fragment {
                        return Err(self.error(at, XmlErrorKind::TextOutsideDocumentElement));
                    }
                    self.text_content(at, &raw, false)?;
                }
                Event::GeneralRef(r) => {
                    let name = r.xml10_content().into_owned();
                    if self.stack.is_empty() && !self.fragment {
                        return Err(self.error(at, XmlErrorKind::TextOutsideDocumentElement));
                    }
                    let mut out = String::new();
                    self.reference(at, &name, &mut out, 0)?;
                    let parent = self.parent();
                    self.doc.append_text(parent, &out, None);
                }
                Event::Comment(c) => {
                    let data = c.xml10_content();
                    self.check_chars(at, &data)?;
                    // 2.5 "Comments": no `--` inside, no `-` at the end.
                    if data.contains("--") || data.ends_with('-') {
                        return Err(self.error(
                            at,
                            XmlErrorKind::Syntax(
                                "'--' in a comment, or a comment ending in '-'".into(),
                            ),
                        ));
                    }
                    let node = self.doc.create_comment(&data, None);
                    let parent = self.parent();
                    parent.append(node, &mut self.doc.arena);
                }
                Event::PI(pi) => {
                    let target = pi.target().to_owned();
                    if !is_ncname(&target) || target.eq_ignore_ascii_case("xml") {
                        return Err(self.error(at, XmlErrorKind::InvalidName(target)));
                    }
                    let content = pi.content();
                    let data = content.trim_start_matches([' ', '\t', '\n', '\r']);
                    let data = normalize_eol(data);
                    self.check_chars(at, &data)?;
                    let node = self.doc.create_processing_instruction(&target, &data);
                    let parent = self.parent();
                    parent.append(node, &mut self.doc.arena);
                }
                Event::Eof => break,
            }
        }
        let end = self.text.len();
        if let Some(open) = self.stack.last() {
            let name = crate::NodeRef::new(&self.doc, open.element)
                .as_element()
                .map(|e| match e.prefix() {
                    Some(p) => format!("{p}:{}", e.local_name()),
                    None => e.local_name().to_owned(),
                })
                .unwrap_or_default();
            return Err(self.error(end, XmlErrorKind::UnclosedElement(name)));
        }
        if !self.seen_root && !self.fragment {
            return Err(self.error(end, XmlErrorKind::NoDocumentElement));
        }
        Ok(())
    }

    fn parent(&self) -> indextree::NodeId {
        self.stack.last().map_or(self.doc.root, |o| o.parent)
    }

    fn check_chars(&self, at: usize, s: &str) -> Result<()> {
        if all_xml_chars(s) {
            return Ok(());
        }
        let (i, c) = s
            .char_indices()
            .find(|&(_, c)| !is_xml_char(c))
            .unwrap_or((0, '\0'));
        Err(self.error(at + i, XmlErrorKind::InvalidChar(u32::from(c))))
    }

    /// Character data (text, or a CDATA section's content when `check_cdata_end` is off).
    fn text_content(&mut self, at: usize, text: &str, check_cdata_end: bool) -> Result<()> {
        if self.stack.is_empty() && !self.fragment {
            if text
                .bytes()
                .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            {
                return Ok(());
            }
            let kind = if self.seen_root {
                XmlErrorKind::ContentAfterDocumentElement
            } else {
                XmlErrorKind::TextOutsideDocumentElement
            };
            return Err(self.error(at, kind));
        }
        self.check_chars(at, text)?;
        if check_cdata_end {
            if let Some(i) = text.find("]]>") {
                return Err(self.error(at + i, XmlErrorKind::CdataEndInText));
            }
        }
        if text.is_empty() {
            return Ok(());
        }
        let parent = self.parent();
        self.doc.append_text(parent, text, None);
        Ok(())
    }

    /// Expands the reference `&name;` into `out` (4.4.2 "Included"; 4.4.5 "Included in
    /// Literal" for attribute values, where `in_attribute` is set by the caller's handling).
    fn reference(&mut self, at: usize, name: &str, out: &mut String, depth: usize) -> Result<()> {
        if let Some(num) = name.strip_prefix('#') {
            let code = if let Some(hex) = num.strip_prefix('x') {
                u32::from_str_radix(hex, 16).ok()
            } else {
                num.parse::<u32>().ok()
            };
            let c = code
                .filter(|_| !num.starts_with('+'))
                .and_then(char::from_u32);
            match c {
                Some(c) if is_xml_char(c) => {
                    out.push(c);
                    return Ok(());
                }
                _ => {
                    return Err(self.error(at, XmlErrorKind::InvalidChar(code.unwrap_or(0))));
                }
            }
        }
        let predefined = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "apos" => Some('\''),
            "quot" => Some('"'),
            _ => None,
        };
        if let Some(c) = predefined {
            out.push(c);
            return Ok(());
        }
        if !is_xml_name(name) {
            return Err(self.error(at, XmlErrorKind::InvalidName(name.to_owned())));
        }
        // (Capped at 64 whatever the options say: expansion recurses this deep at most.)
        if depth >= self.options.max_entity_depth.min(64) {
            return Err(self.error(at, XmlErrorKind::EntityExpansionLimit));
        }
        let value = match self.entities.get(name) {
            None => return Err(self.error(at, XmlErrorKind::UndefinedEntity(name.to_owned()))),
            Some(Entity::External) => {
                return Err(self.error(at, XmlErrorKind::ExternalEntity(name.to_owned())));
            }
            Some(Entity::Internal(v)) => v.clone(),
        };
        if value.contains('<') {
            return Err(self.error(
                at,
                XmlErrorKind::UnsupportedEntity(format!("entity &{name}; holds markup")),
            ));
        }
        // Mark the entity as being expanded (recursion is a well-formedness error).
        self.entities
            .insert(name.to_owned(), Entity::Internal("\u{0}recursion".into()));
        let result = self.expand_value(at, &value, out, depth + 1);
        self.entities
            .insert(name.to_owned(), Entity::Internal(value));
        result
    }

    /// Appends an entity value with its references expanded, counting against the limit.
    fn expand_value(
        &mut self,
        at: usize,
        value: &str,
        out: &mut String,
        depth: usize,
    ) -> Result<()> {
        if value == "\u{0}recursion" {
            return Err(self.error(at, XmlErrorKind::RecursiveEntity(String::new())));
        }
        let mut rest = value;
        while let Some(i) = rest.find('&') {
            self.push_counted(at, &rest[..i], out)?;
            let after = &rest[i + 1..];
            let Some(end) = after.find(';') else {
                return Err(self.error(at, XmlErrorKind::Syntax("'&' without ';'".into())));
            };
            let name = &after[..end];
            if let Some(Entity::Internal(v)) = self.entities.get(name) {
                if v == "\u{0}recursion" {
                    return Err(self.error(at, XmlErrorKind::RecursiveEntity(name.to_owned())));
                }
            }
            let mut inner = String::new();
            self.reference(at, name, &mut inner, depth)?;
            self.push_counted(at, &inner, out)?;
            rest = &after[end + 1..];
        }
        self.push_counted(at, rest, out)
    }

    fn push_counted(&mut self, at: usize, s: &str, out: &mut String) -> Result<()> {
        self.expanded = self.expanded.saturating_add(s.len());
        if self.expanded > self.options.max_entity_expansion {
            return Err(self.error(at, XmlErrorKind::EntityExpansionLimit));
        }
        out.push_str(s);
        Ok(())
    }

    /// 3.3.3 "Attribute-Value Normalization" (CDATA type): references expanded, each white
    /// space character (after end-of-line normalization) a space.
    fn attribute_value(&mut self, at: usize, raw: &str) -> Result<String> {
        let mut out = String::with_capacity(raw.len());
        let raw = normalize_eol(raw);
        let mut rest: &str = &raw;
        loop {
            let Some(i) = rest.find(['&', '<', '\t', '\n', '\r']) else {
                out.push_str(rest);
                break;
            };
            out.push_str(&rest[..i]);
            let c = rest.as_bytes()[i];
            rest = &rest[i + 1..];
            match c {
                b'<' => {
                    return Err(
                        self.error(at, XmlErrorKind::Syntax("'<' in an attribute value".into()))
                    );
                }
                b'&' => {
                    let Some(end) = rest.find(';') else {
                        return Err(self.error(at, XmlErrorKind::Syntax("'&' without ';'".into())));
                    };
                    let name = &rest[..end];
                    let mut expanded = String::new();
                    self.reference(at, name, &mut expanded, 0)?;
                    if name.starts_with('#') {
                        out.push_str(&expanded);
                    } else {
                        // Replacement text of entities is normalized too (white space to
                        // spaces; character references in it were already expanded).
                        out.extend(expanded.chars().map(|c| {
                            if matches!(c, '\t' | '\n' | '\r') {
                                ' '
                            } else {
                                c
                            }
                        }));
                    }
                    rest = &rest[end + 1..];
                }
                _ => out.push(' '),
            }
        }
        self.check_chars(at, &out)?;
        Ok(out)
    }

    fn start_tag(&mut self, at: usize, e: &BytesStart<'_>, empty: bool) -> Result<()> {
        if self.stack.is_empty() && !self.fragment {
            if self.seen_root {
                return Err(self.error(at, XmlErrorKind::ContentAfterDocumentElement));
            }
            self.seen_root = true;
        }
        let qname = e.name();
        let qname: &str = qname.as_ref();
        let (prefix, local) = split_qname(qname)
            .ok_or_else(|| self.error(at, XmlErrorKind::InvalidName(qname.to_owned())))?;
        let mark = self.scope.log.len();
        // Attributes: raw names and normalized values. (Duplicate raw names are caught by
        // the expanded-name check below, so the tokenizer's own check, which is quadratic,
        // stays off.)
        let mut attrs: Vec<(&str, Cow<'_, str>)> = Vec::new();
        let mut declares = false;
        for a in e.attributes().with_checks(false) {
            let a = a.map_err(|err| self.error(at, XmlErrorKind::Syntax(err.to_string())))?;
            let key: &str = a.key.into_inner();
            let value = match a.value {
                Cow::Borrowed(raw) if !raw.contains(['&', '<', '\t', '\n', '\r']) => {
                    if !all_xml_chars(raw) {
                        self.check_chars(at, raw)?;
                    }
                    Cow::Borrowed(raw)
                }
                raw => Cow::Owned(self.attribute_value(at, &raw)?),
            };
            declares |= key.starts_with("xmlns");
            attrs.push((key, value));
        }
        if declares {
            for (key, value) in &attrs {
                let declared = if *key == "xmlns" {
                    Some("")
                } else {
                    key.strip_prefix("xmlns:")
                };
                let Some(declared) = declared else { continue };
                if !declared.is_empty() && !is_ncname(declared) {
                    return Err(self.error(at, XmlErrorKind::InvalidName((*key).to_owned())));
                }
                let value: &str = value;
                let problem = if declared == "xmlns" {
                    Some("the prefix 'xmlns' cannot be declared")
                } else if declared == "xml" && value != XML_NAMESPACE {
                    Some("the prefix 'xml' cannot be bound to another namespace")
                } else if declared != "xml" && value == XML_NAMESPACE {
                    Some("the XML namespace cannot be bound to another prefix")
                } else if value == XMLNS_NAMESPACE {
                    Some("the XMLNS namespace cannot be declared")
                } else if !declared.is_empty() && value.is_empty() {
                    Some("a prefix cannot be undeclared in XML 1.0")
                } else {
                    None
                };
                if let Some(problem) = problem {
                    return Err(self.error(
                        at,
                        XmlErrorKind::InvalidNamespaceDeclaration(problem.into()),
                    ));
                }
                self.scope.bind(declared, value);
            }
        }
        let text = self.text;
        let too_many =
            |_: TooManyNames| XmlParseError::at(text, at, XmlErrorKind::TooManyNamespaces);
        // The default namespace in scope: the parent's unless this element declares one.
        let default = match self.stack.last() {
            Some(open) if !declares => open.default,
            _ => {
                let url = self.scope.lookup("").unwrap_or("");
                self.names.namespace(url).map_err(too_many)?
            }
        };
        // The element's namespace.
        let ns = match prefix {
            Some(p) => {
                let url = self
                    .scope
                    .lookup(p)
                    .filter(|u| !u.is_empty())
                    .ok_or_else(|| self.error(at, XmlErrorKind::UndeclaredPrefix(p.to_owned())))?;
                self.names.namespace(url).map_err(too_many)?
            }
            None => default,
        };
        let prefix_id = self.names.prefix_id(prefix).map_err(too_many)?;
        // The attributes' expanded names.
        let attr_mark = self.doc.attrs_mark();
        let mut expanded = std::mem::take(&mut self.expanded_names);
        expanded.clear();
        let mut seen = std::collections::HashSet::new();
        for (key, value) in &attrs {
            let (aprefix, alocal) = if *key == "xmlns" {
                (None, "xmlns")
            } else {
                split_qname(key)
                    .ok_or_else(|| self.error(at, XmlErrorKind::InvalidName((*key).to_owned())))?
            };
            let ans = match aprefix {
                None if *key == "xmlns" => AttrNamespace::Xmlns,
                None => AttrNamespace::None,
                Some(p) => {
                    let url = self
                        .scope
                        .lookup(p)
                        .filter(|u| !u.is_empty())
                        .ok_or_else(|| {
                            self.error(at, XmlErrorKind::UndeclaredPrefix(p.to_owned()))
                        })?;
                    self.names.attr_namespace(url).map_err(too_many)?
                }
            };
            let name = self.doc.intern(alocal);
            let duplicate = if attrs.len() <= 16 {
                expanded.contains(&(ans, name))
            } else {
                // Many attributes: a set keeps the check linear.
                !seen.insert((ans, name))
            };
            if duplicate {
                return Err(self.error(at, XmlErrorKind::DuplicateAttribute((*key).to_owned())));
            }
            expanded.push((ans, name));
            let index = self.doc.attrs_mark();
            if let Some(p) = aprefix {
                if ans.prefix(alocal) != Some(p) {
                    let id = self.names.prefix_id(Some(p)).map_err(too_many)?;
                    self.names.attr_prefixes.insert(index, id);
                }
            }
            self.doc.push_attr(name, ans, value, None);
        }
        self.expanded_names = expanded;
        let attr_range = self.doc.attrs_since(attr_mark);
        let name = self.doc.intern(local);
        let parent = self.parent();
        let id = self
            .doc
            .create_element_in(Some(parent), name, ns, attr_range, 0);
        if prefix_id != 0 {
            if let NodeData::Element(data) = self.doc.data_mut(id) {
                data.prefix = prefix_id;
            }
        }
        if empty {
            self.scope.undo(mark);
        } else {
            // "Parsing XHTML documents": a template's children go into its contents.
            let children = if ns == Namespace::Html && name == local_name::TEMPLATE {
                self.doc.template_contents_of(id).unwrap_or(id)
            } else {
                id
            };
            self.stack.push(Open {
                parent: children,
                element: id,
                mark,
                default,
            });
        }
        Ok(())
    }

    /// The DOCTYPE: name, external identifier, internal subset (entity declarations).
    fn doctype(&mut self, at: usize, content: &str) -> Result<()> {
        if self.seen_root || self.fragment {
            return Err(self.error(at, XmlErrorKind::Declaration("misplaced DOCTYPE".into())));
        }
        if self.doc.root().children().any(|c| c.is_doctype()) {
            return Err(self.error(at, XmlErrorKind::Declaration("a second DOCTYPE".into())));
        }
        let bad = |m: &str| XmlParseError::at(self.text, at, XmlErrorKind::Declaration(m.into()));
        let content = content.trim_start_matches([' ', '\t', '\n', '\r']);
        let name_end = content
            .find([' ', '\t', '\n', '\r', '['])
            .unwrap_or(content.len());
        let name = &content[..name_end];
        if !is_xml_name(name) {
            return Err(self.error(at, XmlErrorKind::InvalidName(name.to_owned())));
        }
        let mut rest = content[name_end..].trim_start_matches([' ', '\t', '\n', '\r']);
        let mut public_id = String::new();
        let mut system_id = String::new();
        if let Some(r) = rest.strip_prefix("PUBLIC") {
            let (p, r) =
                quoted(r).ok_or_else(|| bad("a PUBLIC identifier needs a quoted literal"))?;
            if !p.chars().all(is_pubid_char) {
                return Err(bad("invalid character in the public identifier"));
            }
            let (s, r) =
                quoted(r).ok_or_else(|| bad("a PUBLIC identifier needs a system literal"))?;
            public_id = p.to_owned();
            system_id = s.to_owned();
            rest = r;
        } else if let Some(r) = rest.strip_prefix("SYSTEM") {
            let (s, r) = quoted(r).ok_or_else(|| bad("SYSTEM needs a quoted literal"))?;
            system_id = s.to_owned();
            rest = r;
        }
        let rest = rest.trim_start_matches([' ', '\t', '\n', '\r']);
        if let Some(subset) = rest.strip_prefix('[') {
            let end = subset
                .rfind(']')
                .ok_or_else(|| bad("unclosed internal subset"))?;
            self.internal_subset(at, &subset[..end])?;
            if !subset[end + 1..].trim().is_empty() {
                return Err(bad("text after the internal subset"));
            }
        } else if !rest.is_empty() {
            return Err(bad("malformed DOCTYPE"));
        }
        let node = self.doc.create_doctype(name, &public_id, &system_id);
        let root = self.doc.root;
        root.append(node, &mut self.doc.arena);
        Ok(())
    }

    /// The internal subset: general entity declarations are recorded; other declarations
    /// are skipped; parameter-entity references are refused.
    fn internal_subset(&mut self, at: usize, subset: &str) -> Result<()> {
        let bad = |m: String| XmlParseError::at(self.text, at, XmlErrorKind::Declaration(m));
        let mut rest = subset;
        loop {
            rest = rest.trim_start_matches([' ', '\t', '\n', '\r']);
            if rest.is_empty() {
                return Ok(());
            }
            if rest.starts_with('%') {
                return Err(self.error(
                    at,
                    XmlErrorKind::UnsupportedEntity("parameter-entity references".into()),
                ));
            }
            if let Some(r) = rest.strip_prefix("<!--") {
                let end = r
                    .find("-->")
                    .ok_or_else(|| bad("unclosed comment in the DTD".into()))?;
                rest = &r[end + 3..];
                continue;
            }
            if let Some(r) = rest.strip_prefix("<?") {
                let end = r
                    .find("?>")
                    .ok_or_else(|| bad("unclosed PI in the DTD".into()))?;
                rest = &r[end + 2..];
                continue;
            }
            let Some(r) = rest.strip_prefix("<!") else {
                return Err(bad("malformed internal subset".into()));
            };
            // A declaration: up to its `>` outside quotes.
            let mut end = None;
            let mut quote: Option<char> = None;
            for (i, c) in r.char_indices() {
                match quote {
                    Some(q) if c == q => quote = None,
                    Some(_) => {}
                    None if c == '"' || c == '\'' => quote = Some(c),
                    None if c == '>' => {
                        end = Some(i);
                        break;
                    }
                    None => {}
                }
            }
            let end = end.ok_or_else(|| bad("unclosed declaration".into()))?;
            let decl = &r[..end];
            rest = &r[end + 1..];
            if let Some(d) = decl.strip_prefix("ENTITY") {
                let d = d.trim_start_matches([' ', '\t', '\n', '\r']);
                if d.starts_with('%') {
                    // A parameter entity: never referenced here (references are refused).
                    continue;
                }
                let name_end = d.find([' ', '\t', '\n', '\r']).unwrap_or(d.len());
                let name = &d[..name_end];
                if !is_ncname(name) {
                    return Err(self.error(at, XmlErrorKind::InvalidName(name.to_owned())));
                }
                let def = d[name_end..].trim_start_matches([' ', '\t', '\n', '\r']);
                let entity = if def.starts_with("SYSTEM") || def.starts_with("PUBLIC") {
                    Entity::External
                } else {
                    let (v, tail) =
                        quoted(def).ok_or_else(|| bad(format!("malformed entity {name}")))?;
                    if !tail.trim().is_empty() {
                        return Err(bad(format!("malformed entity {name}")));
                    }
                    if v.contains('%') {
                        return Err(self.error(
                            at,
                            XmlErrorKind::UnsupportedEntity("parameter-entity references".into()),
                        ));
                    }
                    // 4.4.5 "Included in Literal": character references are expanded when
                    // the literal is read; entity references stay until the entity is used.
                    Entity::Internal(self.expand_char_refs(at, &normalize_eol(v))?)
                };
                // "If the same entity is declared more than once, the first declaration
                // encountered is binding."
                self.entities.entry(name.to_owned()).or_insert(entity);
            }
        }
    }
}

impl Parser<'_, '_> {
    /// An entity literal with its character references expanded.
    fn expand_char_refs(&self, at: usize, v: &str) -> Result<String> {
        let mut out = String::with_capacity(v.len());
        let mut rest = v;
        while let Some(i) = rest.find("&#") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let end = after
                .find(';')
                .ok_or_else(|| self.error(at, XmlErrorKind::Syntax("'&' without ';'".into())))?;
            let num = &after[..end];
            let code = match num.strip_prefix('x') {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => num.parse::<u32>().ok(),
            };
            match code
                .filter(|_| !num.starts_with('+'))
                .and_then(char::from_u32)
            {
                Some(c) if is_xml_char(c) => out.push(c),
                _ => return Err(self.error(at, XmlErrorKind::InvalidChar(code.unwrap_or(0)))),
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// A quoted literal at the start of `s` (after white space): its content and what follows.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start_matches([' ', '\t', '\n', '\r']);
    let q = s.chars().next().filter(|&q| q == '"' || q == '\'')?;
    let body = &s[1..];
    let end = body.find(q)?;
    Some((&body[..end], &body[end + 1..]))
}

/// Splits a `QName` into prefix and local part (both `NCName`s).
fn split_qname(qname: &str) -> Option<(Option<&str>, &str)> {
    match qname.split_once(':') {
        Some((p, l)) if is_ncname(p) && is_ncname(l) => Some((Some(p), l)),
        None if is_ncname(qname) => Some((None, qname)),
        _ => None,
    }
}

/// 2.11 "End-of-Line Handling": CR LF and lone CR become LF.
fn normalize_eol(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\r') {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(s.replace("\r\n", "\n").replace('\r', "\n"))
}
