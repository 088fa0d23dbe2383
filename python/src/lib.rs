//! Python bindings for html-arena: `html_arena._html_arena`, re-exported by the pure-Python
//! package `html_arena` (see `html_arena/__init__.py` and the type stubs beside it).
//!
//! Ownership: a Python `Document` owns an `Arc` of the parsed document behind a read-write
//! lock; every `Node` holds another `Arc` of it plus the node's id, so a node can never outlive
//! its document. A removed node stays usable, detached (as in the DOM); a node freed with
//! `decompose()` is a clean `StaleNodeError`, never a crash.
//! Parsing, selecting, serializing and text extraction release the GIL (`Python::detach`): the
//! lock, not the GIL, guards the tree, so threads parse and query in parallel. No lock is
//! ever held while the GIL is being acquired, so the two cannot deadlock.

mod bs4_export;
mod iterparse;

use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use html_arena::{NodeId, NodeKind, ParseOptions, Selector};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView, PyString};

pyo3::create_exception!(
    html_arena,
    SelectorSyntaxError,
    PyValueError,
    "An invalid CSS selector. `position` is the character offset of the problem in `selector`."
);
pyo3::create_exception!(
    html_arena,
    XPathSyntaxError,
    PyValueError,
    "An invalid XPath expression (or a type error while evaluating it). `position` is the \
     character offset of the problem in `expression`."
);
pyo3::create_exception!(
    html_arena,
    StaleNodeError,
    PyValueError,
    "The node is stale: it was freed (`decompose()`, or its parent's contents were replaced). A \
     node that was only `remove()`d stays usable."
);
pyo3::create_exception!(
    html_arena,
    EncodingError,
    PyValueError,
    "An unknown encoding label was given."
);
pyo3::create_exception!(
    html_arena,
    HierarchyError,
    PyValueError,
    "A mutation that would break the tree (a node into itself, a second root element, ...)."
);

/// The shared, lock-guarded document.
struct Shared {
    doc: RwLock<html_arena::Document>,
}

impl Shared {
    fn new(doc: html_arena::Document) -> Arc<Shared> {
        Arc::new(Shared {
            doc: RwLock::new(doc),
        })
    }

    // A panic while the lock was held cannot leave the arena half-written (mutations are
    // checked before they change anything), so a poisoned lock is still usable.
    fn read(&self) -> RwLockReadGuard<'_, html_arena::Document> {
        self.doc.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, html_arena::Document> {
        self.doc.write().unwrap_or_else(|e| e.into_inner())
    }
}

/// Text of a Python `str`, `bytes`, `bytearray` or `memoryview` argument.
enum Markup<'py> {
    Text(std::borrow::Cow<'py, str>),
    Bytes(std::borrow::Cow<'py, [u8]>),
}

fn markup<'py>(obj: &'py Bound<'py, PyAny>) -> PyResult<Markup<'py>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Markup::Text(s.to_cow()?));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Markup::Bytes(std::borrow::Cow::Borrowed(b.as_bytes())));
    }
    // A mutable or borrowed buffer is copied (`bytes(obj)`: a memoryview of any format gives
    // its raw bytes), so no other thread can change it while the parse runs without the GIL.
    if obj.cast::<PyByteArray>().is_ok() || obj.cast::<PyMemoryView>().is_ok() {
        let copy = obj.py().get_type::<PyBytes>().call1((obj,))?;
        let copy = copy.cast::<PyBytes>()?;
        return Ok(Markup::Bytes(std::borrow::Cow::Owned(
            copy.as_bytes().to_vec(),
        )));
    }
    Err(PyTypeError::new_err(format!(
        "expected str, bytes, bytearray or memoryview, got {}",
        obj.get_type().name()?
    )))
}

/// Parses `markup` with `options`, without the GIL: text as it is, bytes decoded as a
/// browser decodes them.
fn parse_markup(
    py: Python<'_>,
    markup: Markup<'_>,
    options: &ParseOptions,
) -> PyResult<html_arena::Document> {
    match markup {
        Markup::Text(text) => {
            let text: &str = &text;
            Ok(py.detach(|| html_arena::Document::parse_with(text, options)))
        }
        Markup::Bytes(bytes) => {
            let bytes: &[u8] = &bytes;
            py.detach(|| html_arena::Document::parse_bytes(bytes, options))
                .map_err(|e| EncodingError::new_err(e.to_string()))
        }
    }
}

/// The error for a stale node: the Rust API's words (`MutationError::InvalidNode`), so
/// both say the same.
fn stale(id: NodeId) -> PyErr {
    StaleNodeError::new_err(html_arena::MutationError::InvalidNode(id).to_string())
}

fn options(encoding: Option<&str>, url: Option<&str>, scripting: bool) -> PyResult<ParseOptions> {
    let mut options = ParseOptions::default();
    options.scripting = scripting;
    options.transport_encoding = encoding.map(str::to_owned);
    if let Some(url) = url {
        let url = html_arena::Url::parse(url)
            .map_err(|e| PyValueError::new_err(format!("invalid document URL {url:?}: {e}")))?;
        options = options.with_url(url);
    }
    Ok(options)
}

/// Compiles an XPath expression with the `namespaces` bindings (prefix -> URI), as lxml's
/// `xpath(..., namespaces=...)`.
fn compile_xpath(
    expr: &str,
    namespaces: Option<&Bound<'_, PyDict>>,
) -> PyResult<html_arena::XPath> {
    let mut bindings: Vec<(String, String)> = Vec::new();
    if let Some(namespaces) = namespaces {
        for (prefix, uri) in namespaces.iter() {
            let prefix: String = prefix
                .extract()
                .map_err(|_| PyTypeError::new_err("namespace prefixes must be str"))?;
            let uri: String = uri
                .extract()
                .map_err(|_| PyTypeError::new_err("namespace URIs must be str"))?;
            bindings.push((prefix, uri));
        }
    }
    let bindings: Vec<(&str, &str)> = bindings
        .iter()
        .map(|(p, u)| (p.as_str(), u.as_str()))
        .collect();
    html_arena::XPath::parse_with_namespaces(expr, &bindings).map_err(|e| xpath_error(expr, &e))
}

fn xpath_error(expr: &str, e: &html_arena::XPathError) -> PyErr {
    let position = expr[..e.offset().min(expr.len())].chars().count();
    Python::attach(|py| {
        let err = XPathSyntaxError::new_err(format!("{}\n{}", e.message(), e.pointer()));
        let value = err.value(py);
        let _ = value.setattr("position", position);
        let _ = value.setattr("expression", expr);
        err
    })
}

/// An XPath result, detached from the document lock: nodes by id, attributes by value.
enum XResult {
    Nodes(Vec<XItem>),
    Number(f64),
    Text(String),
    Boolean(bool),
}

enum XItem {
    Node(NodeId),
    /// An attribute's value, or a text node's data (as lxml gives them).
    Str(String),
}

fn run_xpath(
    shared: &Shared,
    scope: Option<NodeId>,
    xpath: &html_arena::XPath,
    expr: &str,
    text_nodes: bool,
) -> PyResult<XResult> {
    let doc = shared.read();
    let value = match scope {
        None => doc.xpath(xpath),
        Some(id) => doc.node(id).ok_or_else(|| stale(id))?.xpath(xpath),
    }
    .map_err(|e| xpath_error(expr, &e))?;
    Ok(match value {
        html_arena::XPathValue::NodeSet(nodes) => XResult::Nodes(
            nodes
                .into_iter()
                .map(|n| match n.as_node() {
                    Some(node) => match node.kind() {
                        NodeKind::Text(t) if !text_nodes => XItem::Str(t.to_owned()),
                        _ => XItem::Node(node.node_id()),
                    },
                    None => XItem::Str(n.string_value()),
                })
                .collect(),
        ),
        html_arena::XPathValue::Number(n) => XResult::Number(n),
        html_arena::XPathValue::String(s) => XResult::Text(s),
        html_arena::XPathValue::Boolean(b) => XResult::Boolean(b),
    })
}

fn xresult_to_py(py: Python<'_>, shared: &Arc<Shared>, result: XResult) -> PyResult<Py<PyAny>> {
    Ok(match result {
        XResult::Nodes(items) => {
            let list = pyo3::types::PyList::empty(py);
            for item in items {
                match item {
                    XItem::Node(id) => list.append(node(shared, id))?,
                    XItem::Str(value) => list.append(value)?,
                }
            }
            list.into_any().unbind()
        }
        XResult::Number(n) => n.into_pyobject(py)?.into_any().unbind(),
        XResult::Text(s) => s.into_pyobject(py)?.into_any().unbind(),
        XResult::Boolean(b) => pyo3::types::PyBool::new(py, b)
            .to_owned()
            .into_any()
            .unbind(),
    })
}

/// The text pseudo-classes of the extended syntax (`Selector::parse_extended`).
const TEXT_PSEUDO_CLASSES: [&str; 4] = [
    ":contains(",
    ":-soup-contains(",
    ":-soup-contains-own(",
    ":has-text(",
];

/// Compiles a CSS selector: in the extended syntax (standard selectors, plus the text
/// pseudo-classes `:contains()`, `:-soup-contains()`, `:-soup-contains-own()`, `:has-text()`,
/// as the command line), or with `extended=False` the standard syntax alone (what a browser
/// accepts), whose error then hints at the extended syntax when it names one of those.
fn compile(css: &str, extended: bool) -> PyResult<Selector> {
    let parsed = if extended {
        Selector::parse_extended(css)
    } else {
        Selector::parse(css)
    };
    parsed.map_err(|e| {
        let position = css[..e.offset().min(css.len())].chars().count();
        let lower = css.to_ascii_lowercase();
        let hint = if !extended && TEXT_PSEUDO_CLASSES.iter().any(|p| lower.contains(p)) {
            "\n(a text pseudo-class of the extended syntax: it works with extended=True, the \
             default)"
        } else {
            ""
        };
        Python::attach(|py| {
            let err =
                SelectorSyntaxError::new_err(format!("{}\n{}{hint}", e.message(), e.pointer()));
            let value = err.value(py);
            let _ = value.setattr("position", position);
            let _ = value.setattr("selector", css);
            err
        })
    })
}

fn mutation_error(e: html_arena::MutationError) -> PyErr {
    match e {
        html_arena::MutationError::InvalidNode(id) => stale(id),
        html_arena::MutationError::NotAnElement(_) => {
            PyTypeError::new_err("this node is not an element")
        }
        html_arena::MutationError::NotCharacterData(_) => {
            PyTypeError::new_err("this node has no text of its own")
        }
        html_arena::MutationError::InvalidName(name) => {
            PyValueError::new_err(format!("invalid name {name:?}"))
        }
        other => HierarchyError::new_err(other.to_string()),
    }
}

/// Parses an HTML document from `str` (used as is) or `bytes` (the encoding is sniffed as a
/// browser does: BOM, then `encoding` (the transport's label, e.g. an HTTP `charset`), then
/// `<meta>`, then the default). The document keeps the decoded input (as in Rust,
/// `ParseOptions::keep_source`); `lean=True` keeps only its strings, not the markup around
/// them: less memory, for a parse a few percent slower.
#[pyfunction]
#[pyo3(signature = (html, *, encoding=None, url=None, scripting=false, lean=false))]
fn parse(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    url: Option<&str>,
    scripting: bool,
    lean: bool,
) -> PyResult<Document> {
    let options = options(encoding, url, scripting)?.with_keep_source(!lean);
    let doc = parse_markup(py, markup(html)?, &options)?;
    Ok(Document {
        shared: Shared::new(doc),
    })
}

/// Parses an HTML fragment as the contents of a `context` element (an HTML local name such
/// as `"body"`, `"tr"` or `"select"`, or `"svg NAME"` / `"math NAME"`), as `innerHTML` does.
#[pyfunction]
#[pyo3(signature = (html, context="body", *, scripting=false))]
fn parse_fragment(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    context: &str,
    scripting: bool,
) -> PyResult<Document> {
    let options = options(None, None, scripting)?;
    let text = match markup(html)? {
        Markup::Text(text) => text.into_owned(),
        Markup::Bytes(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
    };
    let doc = py
        .detach(|| html_arena::Document::parse_fragment(&text, context, &options))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Document {
        shared: Shared::new(doc),
    })
}

/// One parse error: the standard's error code and where it was found.
#[pyclass(frozen, module = "html_arena", get_all)]
struct ParseError {
    /// The standard's error code, e.g. `"unexpected-end-tag"`.
    code: String,
    /// 1-based line.
    line: u32,
    /// 1-based column (UTF-16 code units, as browsers count).
    column: u32,
    /// A human-readable message (the code plus the tag involved, if any).
    message: String,
}

#[pymethods]
impl ParseError {
    fn __repr__(&self) -> String {
        format!(
            "ParseError({:?}, line={}, column={})",
            self.message, self.line, self.column
        )
    }
}

/// A parsed HTML document (or fragment).
#[pyclass(frozen, module = "html_arena")]
struct Document {
    shared: Arc<Shared>,
}

/// A node of a document: an element, text, comment, doctype, the document itself, ...
#[pyclass(frozen, module = "html_arena")]
struct Node {
    shared: Arc<Shared>,
    id: NodeId,
}

fn node(shared: &Arc<Shared>, id: NodeId) -> Node {
    Node {
        shared: Arc::clone(shared),
        id,
    }
}

/// Runs `f` on the node, or raises `StaleNodeError` if it is gone.
fn with_node<T>(
    shared: &Shared,
    id: NodeId,
    f: impl FnOnce(html_arena::NodeRef<'_>) -> T,
) -> PyResult<T> {
    let doc = shared.read();
    match doc.node(id) {
        Some(n) => Ok(f(n)),
        None => Err(stale(id)),
    }
}

fn select_ids(
    shared: &Shared,
    scope: Option<NodeId>,
    selector: &Selector,
) -> PyResult<Vec<NodeId>> {
    let doc = shared.read();
    Ok(match scope {
        None => doc.select(selector).map(|e| e.node_id()).collect(),
        Some(id) => {
            let n = doc.node(id).ok_or_else(|| stale(id))?;
            match n.as_element() {
                Some(e) => e.select(selector).map(|e| e.node_id()).collect(),
                None => n
                    .descendants()
                    .filter_map(|d| d.as_element())
                    .filter(|e| e.matches(selector))
                    .map(|e| e.node_id())
                    .collect(),
            }
        }
    })
}

/// textContent-like text, with BeautifulSoup/selectolax-style `separator` and `strip`.
fn text_of(n: html_arena::NodeRef<'_>, deep: bool, separator: &str, strip: bool) -> String {
    if (separator.is_empty() && !strip && deep) || !n.has_children() {
        let text = n.text();
        return if strip { text.trim().to_owned() } else { text };
    }
    let pieces: Box<dyn Iterator<Item = html_arena::NodeRef<'_>>> = if deep {
        Box::new(n.descendants())
    } else {
        Box::new(n.children())
    };
    let mut out = String::new();
    let mut first = true;
    for piece in pieces.filter_map(|c| c.as_text()) {
        let piece = if strip { piece.trim() } else { piece };
        if strip && piece.is_empty() {
            continue;
        }
        if !first {
            out.push_str(separator);
        }
        first = false;
        out.push_str(piece);
    }
    out
}

fn kind_name(n: html_arena::NodeRef<'_>) -> &'static str {
    match n.kind() {
        NodeKind::Document => "document",
        NodeKind::Fragment => "fragment",
        NodeKind::Doctype { .. } => "doctype",
        NodeKind::Element(_) => "element",
        NodeKind::Text(_) => "text",
        NodeKind::Comment(_) => "comment",
        NodeKind::ProcessingInstruction { .. } => "processing_instruction",
        _ => "other",
    }
}

#[pymethods]
impl Document {
    /// The root node (the document node, or the fragment of a parsed fragment).
    #[getter]
    fn root(&self) -> Node {
        let id = self.shared.read().root().node_id();
        node(&self.shared, id)
    }

    /// The document element (usually `<html>`), or None.
    #[getter]
    fn document_element(&self) -> Option<Node> {
        let id = self.shared.read().document_element().map(|e| e.node_id());
        id.map(|id| node(&self.shared, id))
    }

    /// The `<head>` element, or None.
    #[getter]
    fn head(&self) -> Option<Node> {
        let id = self.shared.read().head().map(|e| e.node_id());
        id.map(|id| node(&self.shared, id))
    }

    /// The `<body>` (or `<frameset>`) element, or None.
    #[getter]
    fn body(&self) -> Option<Node> {
        let id = self.shared.read().body().map(|e| e.node_id());
        id.map(|id| node(&self.shared, id))
    }

    /// The text of the first `<title>` element, white space stripped and collapsed (as
    /// `document.title`), or None when there is none.
    #[getter]
    fn title(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let selector = compile("title", false)?;
        Ok(py.detach(|| {
            let doc = self.shared.read();
            doc.select_first(&selector).map(|t| {
                t.text()
                    .split_ascii_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        }))
    }

    /// The URL given to `parse(url=...)`, if any.
    #[getter]
    fn url(&self) -> Option<String> {
        self.shared.read().url().map(|u| u.as_str().to_owned())
    }

    /// The document base URL (HTML Standard): the first `<base href>` in tree order resolved
    /// against the document's URL, else the document's URL, else `about:blank`. It follows
    /// mutations.
    #[getter]
    fn base_url(&self) -> String {
        self.shared.read().base_url().as_str().to_owned()
    }

    /// The `href` of every `a[href]` and `area[href]`, in document order, resolved against
    /// the base URL by the URL Standard (a value that does not parse is given unchanged).
    /// `with_nodes=True` gives `(url, node)` pairs instead, the node being the `a` or `area`
    /// element (for its text, `rel`, ...).
    #[pyo3(signature = (*, with_nodes=false))]
    fn links(&self, py: Python<'_>, with_nodes: bool) -> PyResult<Py<PyAny>> {
        let links: Vec<(NodeId, String)> = py.detach(|| {
            self.shared
                .read()
                .links()
                .map(|(e, url)| (e.node_id(), url.into_owned()))
                .collect()
        });
        let list = pyo3::types::PyList::empty(py);
        for (id, url) in links {
            if with_nodes {
                list.append((url, node(&self.shared, id)))?;
            } else {
                list.append(url)?;
            }
        }
        Ok(list.into_any().unbind())
    }

    /// Evaluates an XPath 1.0 expression with the document as context. A node-set is a
    /// list in document order: elements and other nodes as `Node`, attributes and text
    /// nodes as their `str` values, as lxml gives them (`text_nodes=True`: text nodes as
    /// `Node` too); numbers are `float`, strings `str`, booleans `bool`. `namespaces` binds
    /// prefixes to namespace URIs (`{"svg": "http://www.w3.org/2000/svg"}`) for names such
    /// as `//svg:rect`; unprefixed names match HTML elements case-insensitively, as in a
    /// browser.
    #[pyo3(signature = (expr, namespaces=None, *, text_nodes=false))]
    fn xpath(
        &self,
        py: Python<'_>,
        expr: &str,
        namespaces: Option<&Bound<'_, PyDict>>,
        text_nodes: bool,
    ) -> PyResult<Py<PyAny>> {
        let xpath = compile_xpath(expr, namespaces)?;
        let result = py.detach(|| run_xpath(&self.shared, None, &xpath, expr, text_nodes))?;
        xresult_to_py(py, &self.shared, result)
    }

    /// The name of the encoding the document was decoded with (`"UTF-8"` for `str` input).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.shared.read().encoding().name()
    }

    /// `"no-quirks"`, `"limited-quirks"` or `"quirks"`.
    #[getter]
    fn quirks_mode(&self) -> &'static str {
        match self.shared.read().quirks_mode() {
            html_arena::QuirksMode::NoQuirks => "no-quirks",
            html_arena::QuirksMode::LimitedQuirks => "limited-quirks",
            html_arena::QuirksMode::Quirks => "quirks",
        }
    }

    /// The parse errors, in input order.
    #[getter]
    fn errors(&self) -> Vec<ParseError> {
        self.shared
            .read()
            .errors()
            .iter()
            .map(|e| ParseError {
                code: e.code.as_str().to_owned(),
                line: e.line,
                column: e.column,
                message: e.message(),
            })
            .collect()
    }

    /// The serialization of the whole document (what `outerHTML` of the root gives).
    #[getter]
    fn html(&self, py: Python<'_>) -> String {
        py.detach(|| self.shared.read().html())
    }

    /// Every element matching the CSS selector, in document order. Selectors use the
    /// extended syntax: standard CSS, plus `:contains("s")`, `:-soup-contains("s", ...)`,
    /// `:-soup-contains-own("s")` and `:has-text("s")`; `extended=False` accepts only what a
    /// browser accepts.
    #[pyo3(signature = (css, *, extended=true))]
    fn select(&self, py: Python<'_>, css: &str, extended: bool) -> PyResult<Vec<Node>> {
        let selector = compile(css, extended)?;
        let ids = py.detach(|| select_ids(&self.shared, None, &selector))?;
        Ok(ids.into_iter().map(|id| node(&self.shared, id)).collect())
    }

    /// The first element matching the CSS selector, or None.
    #[pyo3(signature = (css, *, extended=true))]
    fn select_one(&self, py: Python<'_>, css: &str, extended: bool) -> PyResult<Option<Node>> {
        let selector = compile(css, extended)?;
        let id = py.detach(|| {
            self.shared
                .read()
                .select_first(&selector)
                .map(|e| e.node_id())
        });
        Ok(id.map(|id| node(&self.shared, id)))
    }

    /// Whether any element of the document matches the CSS selector (the document itself is
    /// no element: this is `select_one(css) is not None`, as selectolax's `css_matches`).
    #[pyo3(signature = (css, *, extended=true))]
    fn matches(&self, py: Python<'_>, css: &str, extended: bool) -> PyResult<bool> {
        Ok(self.select_one(py, css, extended)?.is_some())
    }

    /// The text of the whole document, as `Node.text` on the root (textContent-like).
    #[pyo3(signature = (deep=true, separator="", strip=false))]
    fn text(&self, py: Python<'_>, deep: bool, separator: &str, strip: bool) -> String {
        py.detach(|| text_of(self.shared.read().root(), deep, separator, strip))
    }

    /// What a reader sees (innerText-like) of the body: no script or style, line breaks
    /// for blocks and `<br>`. `strip` trims the result.
    #[pyo3(signature = (*, strip=false))]
    fn rendered_text(&self, py: Python<'_>, strip: bool) -> String {
        py.detach(|| {
            let doc = self.shared.read();
            let t = match doc.body() {
                Some(body) => body.rendered_text(),
                None => doc.root().rendered_text(),
            };
            if strip { t.trim().to_owned() } else { t }
        })
    }

    /// `url` (a URL reference, e.g. an `href` value) resolved against the document base URL
    /// by the URL Standard, as the document's `href` getters do; the value unchanged when it
    /// does not parse. (`Node.abs_url(name)` reads an attribute and does the same.)
    fn abs_url(&self, url: &str) -> String {
        match self.shared.read().resolve_url(url) {
            Ok(resolved) => resolved.as_str().to_owned(),
            Err(_) => url.to_owned(),
        }
    }

    /// The descendants of the root, as `Node.descendants`: elements in document order
    /// (`include_text=True` adds every other node too).
    #[pyo3(signature = (include_text=false))]
    fn descendants(&self, include_text: bool) -> PyResult<Vec<Node>> {
        self.root().descendants(include_text)
    }

    /// Iterates over the root's element children (the document element), as iterating over
    /// `doc.root` does.
    fn __iter__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let root = Bound::new(slf.py(), slf.get().root())?;
        Node::__iter__(&root)
    }

    /// The document's HTML (`doc.html`).
    fn __str__(&self, py: Python<'_>) -> String {
        self.html(py)
    }

    /// Pickling serializes the document and parses it again on unpickling, with the same
    /// URL (so the same base URL), scripting flag and `lean` choice (a fragment: with its
    /// context): the tree is the same for every document whose serialization round-trips
    /// (nearly all real pages), the parse errors are those of the serialized text, and nodes
    /// cannot be pickled.
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, (String,))> {
        let py = slf.py();
        let this = slf.get();
        let (html, url, scripting, lean, context) = py.detach(|| {
            let doc = this.shared.read();
            let context = doc.fragment_context().map(|(ns, name)| match ns {
                html_arena::Namespace::Svg => format!("svg {name}"),
                html_arena::Namespace::MathMl => format!("math {name}"),
                _ => name.to_owned(),
            });
            (
                doc.html(),
                doc.url().map(|u| u.as_str().to_owned()),
                doc.scripting(),
                doc.source().is_none(),
                context,
            )
        });
        let module = py.import("html_arena")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("scripting", scripting)?;
        let function = match context {
            Some(context) => {
                kwargs.set_item("context", context)?;
                module.getattr("parse_fragment")?
            }
            None => {
                kwargs.set_item("url", url)?;
                kwargs.set_item("lean", lean)?;
                module.getattr("parse")?
            }
        };
        let partial = py
            .import("functools")?
            .getattr("partial")?
            .call((function,), Some(&kwargs))?;
        Ok((partial.unbind(), (html,)))
    }

    fn __repr__(&self) -> String {
        let doc = self.shared.read();
        format!(
            "<html_arena.Document {} nodes, encoding {}>",
            doc.root().descendants().count(),
            doc.encoding().name()
        )
    }
}

impl Node {
    fn with<T>(&self, f: impl FnOnce(html_arena::NodeRef<'_>) -> T) -> PyResult<T> {
        with_node(&self.shared, self.id, f)
    }

    fn wrap(&self, id: Option<NodeId>) -> Option<Node> {
        id.map(|id| node(&self.shared, id))
    }

    /// Nodes to insert for `what`: a Node of this document (moved), a Node of another
    /// document (copied in), or a string of HTML parsed in the context of `context`.
    fn nodes_for(
        &self,
        doc: &mut html_arena::Document,
        what: &Bound<'_, PyAny>,
        context: NodeId,
    ) -> PyResult<Vec<NodeId>> {
        if let Ok(other) = what.cast::<Node>() {
            let other = other.get();
            if Arc::ptr_eq(&other.shared, &self.shared) {
                return Ok(vec![other.id]);
            }
            let source = other.shared.read();
            let copy = doc
                .import_subtree(&source, other.id)
                .map_err(mutation_error)?;
            return Ok(vec![copy]);
        }
        let html: String = match markup(what)? {
            Markup::Text(t) => t.into_owned(),
            Markup::Bytes(b) => String::from_utf8_lossy(&b).into_owned(),
        };
        // Parse the HTML as the context element's contents, then move the nodes in.
        let ctx = doc
            .node(context)
            .and_then(|n| n.as_element())
            .map(|e| e.local_name().to_owned())
            .unwrap_or_else(|| "body".to_owned());
        let ctx = if ctx == "html" {
            "body".to_owned()
        } else {
            ctx
        };
        let fragment = html_arena::Document::parse_fragment(&html, &ctx, &ParseOptions::default())
            .or_else(|_| {
                html_arena::Document::parse_fragment(&html, "body", &ParseOptions::default())
            })
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let children: Vec<NodeId> = fragment.root().children().map(|c| c.node_id()).collect();
        let mut out = Vec::with_capacity(children.len());
        for child in children {
            out.push(
                doc.import_subtree(&fragment, child)
                    .map_err(mutation_error)?,
            );
        }
        Ok(out)
    }
}

#[pymethods]
impl Node {
    /// `"element"`, `"text"`, `"comment"`, `"doctype"`, `"document"`, `"fragment"` or
    /// `"processing_instruction"`.
    #[getter]
    fn kind(&self) -> PyResult<&'static str> {
        self.with(kind_name)
    }

    /// The element's local name (lowercase for HTML elements), or None for other nodes.
    #[getter]
    fn tag(&self) -> PyResult<Option<String>> {
        self.with(|n| n.as_element().map(|e| e.local_name().to_owned()))
    }

    /// The element's namespace URL, or None for other nodes.
    #[getter]
    fn namespace(&self) -> PyResult<Option<&'static str>> {
        self.with(|n| n.as_element().map(|e| e.namespace().url()))
    }

    /// Whether this is an element.
    #[getter]
    fn is_element(&self) -> PyResult<bool> {
        self.with(|n| n.is_element())
    }

    /// The data of a text, comment or processing-instruction node; None otherwise.
    #[getter]
    fn data(&self) -> PyResult<Option<String>> {
        self.with(|n| match n.kind() {
            NodeKind::Text(t) | NodeKind::Comment(t) => Some(t.to_owned()),
            NodeKind::ProcessingInstruction { data, .. } => Some(data.to_owned()),
            _ => None,
        })
    }

    /// The attributes as a read-only mapping (`name -> value`, in source order; foreign
    /// attributes with a prefix appear as `prefix:name`). Change them with `set_attr`,
    /// `remove_attr`, or item assignment on the node.
    #[getter]
    fn attrs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pairs: Vec<(String, String)> = self.with(|n| {
            n.as_element()
                .map(|e| {
                    e.attrs()
                        .map(|a| {
                            let name = match a.namespace.prefix(a.local_name) {
                                Some(p) => format!("{p}:{}", a.local_name),
                                None => a.local_name.to_owned(),
                            };
                            (name, a.value.to_owned())
                        })
                        .collect()
                })
                .unwrap_or_default()
        })?;
        let dict = PyDict::new(py);
        for (k, v) in pairs {
            dict.set_item(k, v)?;
        }
        py.import("types")?
            .getattr("MappingProxyType")?
            .call1((dict,))
    }

    /// The attribute's value, or `default` (None) when absent or not an element. For an
    /// HTML element the name is matched ASCII case-insensitively, as `getAttribute` does.
    #[pyo3(signature = (name, default=None))]
    fn get(&self, name: &str, default: Option<Py<PyAny>>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let value = self.with(|n| {
            n.as_element()
                .and_then(|e| attr_ci(e, name).map(str::to_owned))
        })?;
        Ok(match value {
            Some(v) => PyString::new(py, &v).into_any().unbind(),
            None => default.unwrap_or_else(|| py.None()),
        })
    }

    fn __getitem__(&self, name: &str) -> PyResult<String> {
        self.with(|n| {
            n.as_element()
                .and_then(|e| attr_ci(e, name).map(str::to_owned))
        })?
        .ok_or_else(|| PyKeyError::new_err(name.to_owned()))
    }

    fn __contains__(&self, name: &str) -> PyResult<bool> {
        self.with(|n| n.as_element().is_some_and(|e| attr_ci(e, name).is_some()))
    }

    fn __setitem__(&self, name: &str, value: &str) -> PyResult<()> {
        self.set_attr(name, value)
    }

    fn __delitem__(&self, name: &str) -> PyResult<()> {
        if self.remove_attr(name)? {
            Ok(())
        } else {
            Err(PyKeyError::new_err(name.to_owned()))
        }
    }

    /// Sets an attribute (HTML elements: the name is lowercased, as `setAttribute` does).
    fn set_attr(&self, name: &str, value: &str) -> PyResult<()> {
        let mut doc = self.shared.write();
        let name = html_name(&doc, self.id, name);
        doc.set_attribute(self.id, &name, value)
            .map_err(mutation_error)
    }

    /// Removes an attribute; returns whether it was there.
    fn remove_attr(&self, name: &str) -> PyResult<bool> {
        let mut doc = self.shared.write();
        let name = html_name(&doc, self.id, name);
        doc.remove_attribute(self.id, &name).map_err(mutation_error)
    }

    /// The `id` attribute, or None.
    #[getter]
    fn id(&self) -> PyResult<Option<String>> {
        self.with(|n| n.as_element().and_then(|e| e.id().map(str::to_owned)))
    }

    /// The classes of the `class` attribute.
    #[getter]
    fn classes(&self) -> PyResult<Vec<String>> {
        self.with(|n| {
            n.as_element()
                .map(|e| e.classes().map(str::to_owned).collect())
                .unwrap_or_default()
        })
    }

    /// The text of the node and its descendants (textContent). `separator` joins the text
    /// nodes and `strip` strips each one and drops the empty ones (as BeautifulSoup's
    /// `get_text` and selectolax's `text`); `deep=False` reads only the direct children.
    #[pyo3(signature = (deep=true, separator="", strip=false))]
    fn text(&self, py: Python<'_>, deep: bool, separator: &str, strip: bool) -> PyResult<String> {
        py.detach(|| self.with(|n| text_of(n, deep, separator, strip)))
    }

    /// What a reader sees (innerText-like): no script, style or hidden content, white space
    /// collapsed, line breaks for blocks and `<br>`. `strip` trims the result.
    #[pyo3(signature = (*, strip=false))]
    fn rendered_text(&self, py: Python<'_>, strip: bool) -> PyResult<String> {
        py.detach(|| {
            self.with(|n| {
                let t = n.rendered_text();
                if strip { t.trim().to_owned() } else { t }
            })
        })
    }

    /// The node's serialization (outerHTML for an element).
    #[getter]
    fn html(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.with(|n| n.html()))
    }

    /// The serialization of the node's children (innerHTML). Assigning parses the string as
    /// the element's contents and replaces them.
    #[getter]
    fn inner_html(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.with(|n| n.inner_html()))
    }

    #[setter]
    fn set_inner_html(&self, py: Python<'_>, html: &str) -> PyResult<()> {
        py.detach(|| {
            self.shared
                .write()
                .set_inner_html(self.id, html)
                .map_err(mutation_error)
        })
    }

    /// The parent node, or None.
    #[getter]
    fn parent(&self) -> PyResult<Option<Node>> {
        Ok(self.wrap(self.with(|n| n.parent().map(|p| p.node_id()))?))
    }

    /// The element children.
    #[getter]
    fn children(&self) -> PyResult<Vec<Node>> {
        let ids: Vec<NodeId> =
            self.with(|n| n.element_children().map(|c| c.node_id()).collect())?;
        Ok(ids.into_iter().map(|id| node(&self.shared, id)).collect())
    }

    /// All child nodes (elements, text, comments, ...).
    #[getter]
    fn child_nodes(&self) -> PyResult<Vec<Node>> {
        let ids: Vec<NodeId> = self.with(|n| n.children().map(|c| c.node_id()).collect())?;
        Ok(ids.into_iter().map(|id| node(&self.shared, id)).collect())
    }

    /// The next sibling node (of any kind), or None.
    #[getter]
    fn next(&self) -> PyResult<Option<Node>> {
        Ok(self.wrap(self.with(|n| n.next_sibling().map(|p| p.node_id()))?))
    }

    /// The previous sibling node (of any kind), or None.
    #[getter]
    fn prev(&self) -> PyResult<Option<Node>> {
        Ok(self.wrap(self.with(|n| n.prev_sibling().map(|p| p.node_id()))?))
    }

    /// The next element sibling, or None.
    #[getter]
    fn next_element(&self) -> PyResult<Option<Node>> {
        Ok(self.wrap(self.with(|n| n.next_element_sibling().map(|p| p.node_id()))?))
    }

    /// The previous element sibling, or None.
    #[getter]
    fn prev_element(&self) -> PyResult<Option<Node>> {
        Ok(self.wrap(self.with(|n| n.prev_element_sibling().map(|p| p.node_id()))?))
    }

    /// The descendant elements in document order (`include_text=True` adds every other
    /// node too).
    #[pyo3(signature = (include_text=false))]
    fn descendants(&self, include_text: bool) -> PyResult<Vec<Node>> {
        let ids: Vec<NodeId> = self.with(|n| {
            n.descendants()
                .filter(|d| include_text || d.is_element())
                .map(|d| d.node_id())
                .collect()
        })?;
        Ok(ids.into_iter().map(|id| node(&self.shared, id)).collect())
    }

    /// Iterates over the element children.
    fn __iter__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let children = slf.get().children()?;
        let list = pyo3::types::PyList::new(slf.py(), children)?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    /// The number of element children (what iterating gives). A node is always true, even
    /// one without children (`__bool__`), so `doc.select_one(css) or fallback` tests
    /// whether there was a match.
    fn __len__(&self) -> PyResult<usize> {
        self.with(|n| n.element_children().count())
    }

    /// Always True: a node is a found thing, whatever its number of children.
    fn __bool__(&self) -> bool {
        true
    }

    /// The node's HTML (`node.html`); for a freed node, its `repr` (printing never raises).
    fn __str__(&self, py: Python<'_>) -> String {
        self.html(py).unwrap_or_else(|_| self.__repr__())
    }

    /// Every descendant element matching the CSS selector, in document order (the extended
    /// syntax, as `Document.select`).
    #[pyo3(signature = (css, *, extended=true))]
    fn select(&self, py: Python<'_>, css: &str, extended: bool) -> PyResult<Vec<Node>> {
        let selector = compile(css, extended)?;
        let ids = py.detach(|| select_ids(&self.shared, Some(self.id), &selector))?;
        Ok(ids.into_iter().map(|id| node(&self.shared, id)).collect())
    }

    /// The first descendant element matching the CSS selector, or None.
    #[pyo3(signature = (css, *, extended=true))]
    fn select_one(&self, py: Python<'_>, css: &str, extended: bool) -> PyResult<Option<Node>> {
        let selector = compile(css, extended)?;
        let id = py.detach(|| {
            self.with(|n| match n.as_element() {
                Some(e) => e.select(&selector).next().map(|m| m.node_id()),
                None => n
                    .descendants()
                    .filter_map(|d| d.as_element())
                    .find(|e| e.matches(&selector))
                    .map(|e| e.node_id()),
            })
        })?;
        Ok(self.wrap(id))
    }

    /// Evaluates an XPath 1.0 expression with this node as the context node (see
    /// `Document.xpath`).
    #[pyo3(signature = (expr, namespaces=None, *, text_nodes=false))]
    fn xpath(
        &self,
        py: Python<'_>,
        expr: &str,
        namespaces: Option<&Bound<'_, PyDict>>,
        text_nodes: bool,
    ) -> PyResult<Py<PyAny>> {
        let xpath = compile_xpath(expr, namespaces)?;
        let result =
            py.detach(|| run_xpath(&self.shared, Some(self.id), &xpath, expr, text_nodes))?;
        xresult_to_py(py, &self.shared, result)
    }

    /// The attribute's value resolved as a URL against the document base URL (what the
    /// `href` IDL attribute gives): None when absent, the raw value when it does not parse.
    #[pyo3(signature = (name="href"))]
    fn abs_url(&self, name: &str) -> PyResult<Option<String>> {
        self.with(|n| {
            n.as_element()
                .and_then(|e| e.abs_url(name).map(|u| u.into_owned()))
        })
    }

    /// Whether this element matches the CSS selector (False for other nodes).
    #[pyo3(signature = (css, *, extended=true))]
    fn matches(&self, css: &str, extended: bool) -> PyResult<bool> {
        let selector = compile(css, extended)?;
        self.with(|n| n.as_element().is_some_and(|e| e.matches(&selector)))
    }

    /// The nearest inclusive ancestor element matching the CSS selector, or None.
    #[pyo3(signature = (css, *, extended=true))]
    fn closest(&self, css: &str, extended: bool) -> PyResult<Option<Node>> {
        let selector = compile(css, extended)?;
        let id = self.with(|n| {
            std::iter::once(n)
                .chain(n.ancestors())
                .filter_map(|a| a.as_element())
                .find(|e| e.matches(&selector))
                .map(|e| e.node_id())
        })?;
        Ok(self.wrap(id))
    }

    /// Removes the node (with its subtree) from its parent, as the DOM's `remove()` and
    /// BeautifulSoup's `extract()`: the node stays usable, detached (readable, and
    /// insertable again anywhere in its document); removing a node that has no parent does
    /// nothing. Its memory is kept until the document goes: `decompose()` frees it.
    fn remove(&self) -> PyResult<()> {
        self.shared.write().remove(self.id).map_err(mutation_error)
    }

    /// Removes the node and frees it with its subtree (BeautifulSoup's `decompose()`): using
    /// it or any of its descendants afterwards raises `StaleNodeError`.
    fn decompose(&self) -> PyResult<()> {
        self.shared
            .write()
            .decompose(self.id)
            .map_err(mutation_error)
    }

    /// Replaces the element by its children (BeautifulSoup's `unwrap`).
    fn unwrap(&self) -> PyResult<()> {
        let mut doc = self.shared.write();
        let children: Vec<NodeId> = doc
            .node(self.id)
            .ok_or_else(|| stale(self.id))?
            .children()
            .map(|c| c.node_id())
            .collect();
        for child in children {
            doc.insert_before(self.id, child).map_err(mutation_error)?;
        }
        doc.remove(self.id).map_err(mutation_error)
    }

    /// Appends a node (moved if of this document, copied otherwise) or HTML (parsed as this
    /// element's contents) as the last child(ren).
    fn append(&self, what: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut doc = self.shared.write();
        for id in self.nodes_for(&mut doc, what, self.id)? {
            doc.append(self.id, id).map_err(mutation_error)?;
        }
        Ok(())
    }

    /// Inserts a node or HTML as the first child(ren).
    fn prepend(&self, what: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut doc = self.shared.write();
        let ids = self.nodes_for(&mut doc, what, self.id)?;
        for id in ids.into_iter().rev() {
            doc.prepend(self.id, id).map_err(mutation_error)?;
        }
        Ok(())
    }

    /// Inserts a node or HTML (parsed in the parent's context) before this node.
    fn insert_before(&self, what: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut doc = self.shared.write();
        let parent = parent_of(&doc, self.id)?;
        for id in self.nodes_for(&mut doc, what, parent)? {
            doc.insert_before(self.id, id).map_err(mutation_error)?;
        }
        Ok(())
    }

    /// Inserts a node or HTML (parsed in the parent's context) after this node.
    fn insert_after(&self, what: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut doc = self.shared.write();
        let parent = parent_of(&doc, self.id)?;
        let ids = self.nodes_for(&mut doc, what, parent)?;
        for id in ids.into_iter().rev() {
            doc.insert_after(self.id, id).map_err(mutation_error)?;
        }
        Ok(())
    }

    /// Replaces this node by a node or HTML (parsed in the parent's context).
    fn replace_with(&self, what: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut doc = self.shared.write();
        let parent = parent_of(&doc, self.id)?;
        for id in self.nodes_for(&mut doc, what, parent)? {
            doc.insert_before(self.id, id).map_err(mutation_error)?;
        }
        doc.remove(self.id).map_err(mutation_error)
    }

    /// The document this node belongs to.
    #[getter]
    fn document(&self) -> Document {
        Document {
            shared: Arc::clone(&self.shared),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Node>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().shared, &self.shared) && o.get().id == self.id)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (Arc::as_ptr(&self.shared) as usize).hash(&mut h);
        self.id.hash(&mut h);
        h.finish()
    }

    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "html_arena.Node cannot be pickled: pickle the Document, or send the HTML \
             (node.html) or the values you extracted",
        ))
    }

    fn __repr__(&self) -> String {
        match self.with(|n| match n.kind() {
            NodeKind::Element(e) => format!("<Node {}>", e.local_name()),
            NodeKind::Text(t) => {
                let short: String = t.chars().take(30).collect();
                format!("<Node text {short:?}>")
            }
            _ => format!("<Node {}>", kind_name(n)),
        }) {
            Ok(s) => s,
            Err(_) => "<Node (stale)>".to_owned(),
        }
    }
}

fn parent_of(doc: &html_arena::Document, id: NodeId) -> PyResult<NodeId> {
    doc.node(id)
        .ok_or_else(|| stale(id))?
        .parent()
        .map(|p| p.node_id())
        .ok_or_else(|| HierarchyError::new_err("the node has no parent"))
}

/// `getAttribute`'s name handling: ASCII-lowercase the name for an HTML element.
fn attr_ci<'a>(e: html_arena::ElementRef<'a>, name: &str) -> Option<&'a str> {
    if e.namespace() == html_arena::Namespace::Html && name.bytes().any(|b| b.is_ascii_uppercase())
    {
        e.attr(&name.to_ascii_lowercase())
    } else {
        e.attr(name)
    }
}

fn html_name(doc: &html_arena::Document, id: NodeId, name: &str) -> String {
    let html = doc
        .node(id)
        .and_then(|n| n.as_element())
        .is_some_and(|e| e.namespace() == html_arena::Namespace::Html);
    if html {
        name.to_ascii_lowercase()
    } else {
        name.to_owned()
    }
}

/// The Rust core of the `html_arena` package.
#[pymodule]
fn _html_arena(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(parse_fragment, m)?)?;
    m.add_function(wrap_pyfunction!(bs4_export::bs4_build, m)?)?;
    m.add_class::<Document>()?;
    m.add_class::<Node>()?;
    m.add_class::<ParseError>()?;
    m.add("SelectorSyntaxError", py.get_type::<SelectorSyntaxError>())?;
    m.add("StaleNodeError", py.get_type::<StaleNodeError>())?;
    m.add("XPathSyntaxError", py.get_type::<XPathSyntaxError>())?;
    m.add("EncodingError", py.get_type::<EncodingError>())?;
    m.add("HierarchyError", py.get_type::<HierarchyError>())?;
    iterparse::register(m)?;
    Ok(())
}
