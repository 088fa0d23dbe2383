//! Runs a CSS selector over HTML and prints what matches, as `querySelectorAll` would find it.
//!
//! ```text
//! cargo run --release --example query -- [--text|--attr NAME|--html|--path|--count]
//!                                         [--scripting] [--encoding LABEL] [--browser-encoding]
//!                                         [SELECTOR [FILE...]]
//! cargo run --release --example query -- [--url URL] --abs ATTR SELECTOR [FILE...]
//! cargo run --release --example query -- --xpath [--path|--count|--text|--html] EXPR [FILE...]
//! cargo run --release --example query -- --stream [--html|--text|--attr NAME|--count] SELECTOR [FILE...]
//! ```
//!
//! Each match is printed followed by a newline, in document order:
//!
//! - `--html` (the default): its outer HTML;
//! - `--text`: its text (the DOM's `textContent`);
//! - `--attr NAME`: the value of its attribute NAME (an empty line if it has none);
//! - `--path`: a CSS path to it: the document element and its children by local name alone,
//!   every deeper element as `local:nth-child(K)` (K counts element siblings from 1), joined
//!   by `>`, e.g. `html>body>div:nth-child(3)>a:nth-child(1)`;
//! - `--count`: only the number of matches.
//!
//! With no FILE, the selector runs on an embedded sample page (`examples/sample.html`), and
//! with no SELECTOR either, `article h2 > a` runs on it: the command works as written on a
//! fresh clone. A FILE is read as bytes and its encoding sniffed (a byte order mark, a
//! `<meta>` charset, else UTF-8 if the bytes are valid UTF-8, else a guess from the bytes)
//! unless `--encoding LABEL` names one; `--browser-encoding` chooses as a browser does
//! instead (no guess: windows-1252 when nothing is declared); `-` reads standard input. With several FILEs, each file's matches follow a line `==> FILE <==`.
//! `--scripting` parses with scripting on (`<noscript>` content is then text, as in a browser
//! running scripts; by default it is parsed as elements, as a crawler sees it).
//!
//! `--url URL` gives the documents that URL (it must parse as an absolute URL); `--abs ATTR`
//! prints each match's attribute ATTR resolved against the document base URL (the first
//! `<base href>`, else the document's URL; `about:blank` without `--url`), as the `href` IDL
//! getter does: an unparseable value is printed unchanged, and a match without the attribute
//! prints nothing.
//!
//! `--xpath` takes an XPath 1.0 expression instead of a selector (evaluated with the document
//! as the context node). A node-set prints one node a line in document order: `--html` its
//! outer HTML (`name="value"` for an attribute), `--text` its string-value, `--count` the
//! number of nodes, `--path` a path: an element's CSS path as above, an attribute as
//! `PATH/@name`, a text node, comment or processing instruction as `PATH/text()[K]`,
//! `PATH/comment()[K]`, `PATH/processing-instruction()[K]` (K counts the children of that
//! kind from 1; PATH is empty for a child of the document itself), a DOCTYPE as
//! `PATH/node()[K]`, the document as `/`. A number, string or boolean result prints its
//! XPath string value (`NaN`, `3`, `0.5`, `true`) on one line, whatever the mode.
//! `--xml` parses each FILE as XML (`Document::parse_xml_bytes`; a well-formedness error is
//! reported as `query: FILE: line:col message`, status 2 for that file): names match
//! case-sensitively, the prefixes the document element declares (`xmlns:p="URL"`) can be used
//! in the selector (`p|name`, `[p|attr]`), and `--html` prints each match's XML
//! serialization.
//!
//! `--stream` selects while parsing (`html_arena::stream`): the output is the same as
//! without it, and memory stays bounded by what is still open instead of growing with the
//! file (the file is read 64 KiB at a time). It takes `--html`, `--text`, `--attr NAME` and
//! `--count` (and `--scripting`, `--encoding`, `--browser-encoding`, `--url`); a selector
//! that streaming cannot answer exactly (`~`, `:last-child`, ...:
//! see the module docs of `html_arena::stream`) exits with status 2 and the reason.
//!
//! Exit status: 0 when everything ran; 1 when a file could not be read (the others still
//! are); 2 for a usage error, an unknown encoding label, an invalid `--url`, an invalid
//! selector or XPath expression (or one that fails to evaluate), which is reported with a
//! caret under the offending text:
//!
//! ```text
//! $ cargo run --release --example query -- 'ul > li:hovr'
//! query: invalid selector: unknown pseudo-class `:hovr` at byte 7
//!     ul > li:hovr
//!            ^^^^^
//! ```

use std::io::{Read, Write};
use std::process::ExitCode;

use html_arena::encoding::get_an_encoding;
use html_arena::xpath::{XNode, XPath, XPathError, XPathValue};
use html_arena::{Document, ElementRef, NodeKind, NodeRef, ParseOptions, Selector, Url};

// (Shared with the command: reading FILE or standard input.)
#[path = "../src/bin/html-arena/input.rs"]
mod input;

/// The page the command runs on when given no file.
const SAMPLE: &str = include_str!("sample.html");

/// The selector it runs when given none.
const DEFAULT_SELECTOR: &str = "article h2 > a";

enum Mode {
    Html,
    Text,
    Attr(String),
    Path,
    Count,
    /// `--abs ATTR`: the attribute resolved against the document base URL.
    Abs(String),
}

struct Args {
    mode: Mode,
    scripting: bool,
    encoding: Option<String>,
    browser_encoding: bool,
    selector: Option<String>,
    files: Vec<String>,
    /// `--url URL`: the documents' URL.
    url: Option<Url>,
    /// `--xpath`: the expression is XPath, not a selector.
    xpath: bool,
    xml: bool,
    /// `--stream`: select while parsing (`html_arena::stream`).
    stream: bool,
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: query [--text|--attr NAME|--html|--path|--count] [--scripting] \
         [--encoding LABEL] [--browser-encoding] [SELECTOR [FILE...]]\n       \
         query [--url URL] --abs ATTR SELECTOR [FILE...]\n       \
         query --xpath [--path|--count|--text|--html] EXPR [FILE...]\n       \
         query --stream [--html|--text|--attr NAME|--count] SELECTOR [FILE...]"
    );
    ExitCode::from(2)
}

fn parse_args() -> Result<Args, ExitCode> {
    let mut args = Args {
        mode: Mode::Html,
        scripting: false,
        encoding: None,
        browser_encoding: false,
        selector: None,
        files: Vec::new(),
        url: None,
        xpath: false,
        xml: false,
        stream: false,
    };
    let mut it = std::env::args().skip(1);
    let mut options_done = false;
    while let Some(arg) = it.next() {
        if !options_done && arg.starts_with("--") {
            match arg.as_str() {
                "--" => options_done = true,
                "--html" => args.mode = Mode::Html,
                "--text" => args.mode = Mode::Text,
                "--path" => args.mode = Mode::Path,
                "--count" => args.mode = Mode::Count,
                "--attr" => match it.next() {
                    Some(name) => args.mode = Mode::Attr(name),
                    None => return Err(usage()),
                },
                // URL resolution and XPath (issue 18).
                "--url" => match it.next().map(|u| Url::parse(&u).map_err(|e| (u, e))) {
                    Some(Ok(url)) => args.url = Some(url),
                    Some(Err((u, e))) => {
                        eprintln!("query: invalid --url {u:?}: {e}");
                        return Err(ExitCode::from(2));
                    }
                    None => return Err(usage()),
                },
                "--abs" => match it.next() {
                    Some(name) => args.mode = Mode::Abs(name),
                    None => return Err(usage()),
                },
                "--xpath" => args.xpath = true,
                "--scripting" => args.scripting = true,
                "--browser-encoding" => args.browser_encoding = true,
                "--xml" => args.xml = true,
                "--stream" => args.stream = true,
                "--encoding" => match it.next() {
                    Some(label) if get_an_encoding(&label).is_some() => {
                        args.encoding = Some(label);
                    }
                    Some(label) => {
                        eprintln!(
                            "query: unknown encoding label {label:?} (see \
                             https://encoding.spec.whatwg.org/#names-and-labels)"
                        );
                        return Err(ExitCode::from(2));
                    }
                    None => return Err(usage()),
                },
                "--help" => return Err(usage()),
                other => {
                    eprintln!("query: unknown option {other}");
                    return Err(usage());
                }
            }
        } else if args.selector.is_none() {
            args.selector = Some(arg);
        } else {
            args.files.push(arg);
        }
    }
    Ok(args)
}

/// `html>body>div:nth-child(3)>a:nth-child(1)`: the document element and its children by
/// local name, deeper elements with their position among their element siblings.
fn css_path(e: ElementRef<'_>) -> String {
    let mut chain: Vec<ElementRef<'_>> =
        std::iter::successors(Some(e), |e| e.parent_element()).collect();
    chain.reverse();
    let mut path = String::new();
    for (depth, el) in chain.iter().enumerate() {
        if depth > 0 {
            path.push('>');
        }
        let mut name = String::new();
        // An escaped identifier, so that the path is a selector that finds the element again.
        let _ = cssparser::serialize_identifier(el.local_name(), &mut name);
        path.push_str(&name);
        if depth > 1 {
            let k = el.preceding_siblings().filter(|n| n.is_element()).count() + 1;
            path.push_str(&format!(":nth-child({k})"));
        }
    }
    path
}

/// Prints the matches of `selector` in `doc`.
fn print_matches(
    out: &mut impl Write,
    doc: &Document,
    selector: &Selector,
    mode: &Mode,
) -> std::io::Result<()> {
    if let Mode::Count = mode {
        return writeln!(out, "{}", doc.select(selector).count());
    }
    for e in doc.select(selector) {
        print_match(out, e, mode)?;
    }
    Ok(())
}

/// Prints one match as `mode` says (nothing for `--count`); `--stream` prints its matches
/// through it too.
fn print_match(out: &mut impl Write, e: ElementRef<'_>, mode: &Mode) -> std::io::Result<()> {
    match mode {
        Mode::Html if e.document().is_xml() => writeln!(out, "{}", e.xml()),
        Mode::Html => writeln!(out, "{}", e.html()),
        Mode::Text => writeln!(out, "{}", e.text()),
        Mode::Attr(name) => {
            let value = e
                .attr(name)
                .or_else(|| e.attr(&name.to_ascii_lowercase()))
                .unwrap_or("");
            writeln!(out, "{value}")
        }
        Mode::Path => writeln!(out, "{}", css_path(e)),
        Mode::Count => Ok(()),
        Mode::Abs(name) => {
            let value = e
                .abs_url(name)
                .or_else(|| e.abs_url(&name.to_ascii_lowercase()));
            match value {
                Some(url) => writeln!(out, "{url}"),
                None => Ok(()),
            }
        }
    }
}

/// The exit status once everything ran (`result`, then flushing `out`): a write error is
/// reported with status 1, except a closed pipe (`| head`), which is not worth reporting.
fn finish(result: std::io::Result<()>, out: &mut impl Write, status: ExitCode) -> ExitCode {
    match result.and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            eprintln!("query: {e}");
            ExitCode::from(1)
        }
    }
}

/// A compiled selector or XPath expression.
enum Query {
    Css(Selector),
    XPath(XPath),
}

/// Runs the query on one document; an XPath evaluation error sets the exit status to 2.
fn run_query(
    out: &mut impl Write,
    doc: &Document,
    query: &Query,
    mode: &Mode,
    status: &mut ExitCode,
) -> std::io::Result<()> {
    match query {
        Query::Css(selector) => print_matches(out, doc, selector, mode),
        Query::XPath(xpath) => match doc.xpath(xpath) {
            Ok(value) => print_xpath_value(out, &value, mode),
            Err(e) => {
                out.flush()?;
                *status = xpath_error(&e);
                Ok(())
            }
        },
    }
}

/// Reports an invalid (or failing) XPath expression with a caret under the offending text.
fn xpath_error(e: &XPathError) -> ExitCode {
    eprintln!("query: invalid XPath expression: {e}");
    for line in e.pointer().lines() {
        eprintln!("    {line}");
    }
    ExitCode::from(2)
}

/// Prints an XPath result: a node-set one node a line, any other value as its string value.
fn print_xpath_value(
    out: &mut impl Write,
    value: &XPathValue<'_>,
    mode: &Mode,
) -> std::io::Result<()> {
    let XPathValue::NodeSet(nodes) = value else {
        return writeln!(out, "{}", value.string());
    };
    if let Mode::Count = mode {
        return writeln!(out, "{}", nodes.len());
    }
    for &node in nodes {
        match mode {
            Mode::Path => writeln!(out, "{}", xpath_node_path(node))?,
            Mode::Text => writeln!(out, "{}", node.string_value())?,
            Mode::Attr(name) => {
                let value = node.as_element().and_then(|e| e.attr(name)).unwrap_or("");
                writeln!(out, "{value}")?;
            }
            Mode::Abs(name) => {
                if let Some(url) = node.as_element().and_then(|e| e.abs_url(name)) {
                    writeln!(out, "{url}")?;
                }
            }
            Mode::Html | Mode::Count => match node {
                XNode::Node(n) => writeln!(out, "{}", n.html())?,
                XNode::Attribute { .. } => {
                    let a = node.as_attribute().map(|a| {
                        let name = match a.prefix() {
                            Some(prefix) => format!("{prefix}:{}", a.local_name),
                            None => a.local_name.to_owned(),
                        };
                        // Attribute-value escaping of the HTML serialization algorithm.
                        let value = a
                            .value
                            .replace('&', "&amp;")
                            .replace('\u{a0}', "&nbsp;")
                            .replace('"', "&quot;");
                        format!("{name}=\"{value}\"")
                    });
                    writeln!(out, "{}", a.unwrap_or_default())?;
                }
            },
        }
    }
    Ok(())
}

/// The `--path` of an XPath node: `/` for the root, an element's CSS path, `PATH/@name`,
/// `PATH/text()[K]`, `PATH/comment()[K]`, `PATH/processing-instruction()[K]`,
/// `PATH/node()[K]` (a DOCTYPE), PATH being empty for a child of the root.
fn xpath_node_path(node: XNode<'_>) -> String {
    let parent_path = |parent: Option<NodeRef<'_>>| -> String {
        match parent.and_then(NodeRef::as_element) {
            Some(e) => css_path(e),
            None => String::new(),
        }
    };
    match node {
        XNode::Attribute { element, .. } => {
            let name = node
                .as_attribute()
                .map_or(String::new(), |a| match a.prefix() {
                    Some(prefix) => format!("{prefix}:{}", a.local_name),
                    None => a.local_name.to_owned(),
                });
            format!("{}/@{name}", css_path(element))
        }
        XNode::Node(n) => {
            let same_kind = |m: &NodeRef<'_>| -> bool {
                std::mem::discriminant(&m.kind()) == std::mem::discriminant(&n.kind())
            };
            let k = n.preceding_siblings().filter(same_kind).count() + 1;
            let test = match n.kind() {
                NodeKind::Element(e) => return css_path(e),
                NodeKind::Document | NodeKind::Fragment => return "/".to_owned(),
                NodeKind::Text(_) => "text()",
                NodeKind::Comment(_) => "comment()",
                NodeKind::ProcessingInstruction { .. } => "processing-instruction()",
                _ => {
                    let k = n.preceding_siblings().count() + 1;
                    return format!("{}/node()[{k}]", parent_path(n.parent()));
                }
            };
            format!("{}/{test}[{k}]", parent_path(n.parent()))
        }
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(code) => return code,
    };
    let text = args.selector.as_deref().unwrap_or(DEFAULT_SELECTOR);
    let query = if args.xpath {
        match XPath::parse(text) {
            Ok(xpath) => Query::XPath(xpath),
            Err(e) => return xpath_error(&e),
        }
    } else {
        // With --xml, a selector using namespace prefixes is parsed again per file (below).
        match Selector::parse(text).or_else(|e| {
            if args.xml {
                Selector::parse("*")
            } else {
                Err(e)
            }
        }) {
            Ok(selector) => Query::Css(selector),
            Err(e) => {
                eprintln!("query: invalid selector: {e}");
                for line in e.pointer().lines() {
                    eprintln!("    {line}");
                }
                return ExitCode::from(2);
            }
        }
    };
    let mut options = ParseOptions::default().with_scripting(args.scripting);
    options.override_encoding = args.encoding.clone();
    options = options.with_browser_encoding(args.browser_encoding);
    options.url = args.url.clone();

    if args.stream {
        return match query {
            Query::Css(selector) => run_stream(&args, &selector, &options),
            Query::XPath(_) => {
                eprintln!("query: --stream takes a CSS selector, not --xpath");
                ExitCode::from(2)
            }
        };
    }

    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut status = ExitCode::SUCCESS;
    let result = (|| -> std::io::Result<()> {
        if args.files.is_empty() {
            let doc = Document::parse_with(SAMPLE, &options);
            return run_query(&mut out, &doc, &query, &args.mode, &mut status);
        }
        for file in &args.files {
            if args.files.len() > 1 {
                writeln!(out, "==> {file} <==")?;
            }
            let bytes = match input::read(file) {
                Ok(bytes) => bytes,
                Err(e) => {
                    out.flush()?;
                    eprintln!("query: {file}: {e}");
                    status = ExitCode::from(1);
                    continue;
                }
            };
            let parsed = if args.xml {
                Document::parse_xml_bytes(&bytes, &Default::default()).map_err(|e| e.to_string())
            } else {
                Document::parse_bytes(&bytes, &options).map_err(|e| e.to_string())
            };
            let doc = match parsed {
                Ok(doc) => doc,
                Err(e) => {
                    out.flush()?;
                    eprintln!("query: {file}: {e}");
                    status = ExitCode::from(2);
                    continue;
                }
            };
            if args.xml && !args.xpath {
                match xml_selector(&doc, text) {
                    Ok(selector) => run_query(
                        &mut out,
                        &doc,
                        &Query::Css(selector),
                        &args.mode,
                        &mut status,
                    )?,
                    Err(e) => {
                        out.flush()?;
                        eprintln!("query: invalid selector: {e}");
                        status = ExitCode::from(2);
                        return Ok(());
                    }
                }
                continue;
            }
            run_query(&mut out, &doc, &query, &args.mode, &mut status)?;
        }
        Ok(())
    })();
    finish(result, &mut out, status)
}

/// `--xml`: the selector with the prefixes the document element declares.
fn xml_selector(doc: &Document, text: &str) -> Result<Selector, html_arena::SelectorError> {
    let declared: Vec<(&str, &str)> = doc
        .document_element()
        .map(|root| {
            root.attrs()
                .filter(|a| a.namespace == html_arena::AttrNamespace::Xmlns && a.prefix().is_some())
                .map(|a| (a.local_name, a.value))
                .collect()
        })
        .unwrap_or_default();
    Selector::parse_with_namespaces(text, &declared)
}

/// `--stream`: the matches as the parse decides them, printed as `print_matches` prints them.
fn run_stream(args: &Args, selector: &Selector, options: &ParseOptions) -> ExitCode {
    if matches!(args.mode, Mode::Path | Mode::Abs(_)) || args.xml {
        eprintln!("query: --stream takes --html, --text, --attr NAME or --count");
        return ExitCode::from(2);
    }
    if let Err(e) = html_arena::stream::check_selector(selector) {
        eprintln!("query: {e}");
        return ExitCode::from(2);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut status = ExitCode::SUCCESS;
    let selectors = std::slice::from_ref(selector);
    let print = |out: &mut std::io::BufWriter<std::io::StdoutLock<'_>>,
                 reader: &mut dyn Read|
     -> std::io::Result<Result<(), String>> {
        if let Mode::Count = args.mode {
            return match html_arena::stream::count_reader(reader, selectors, options) {
                Ok(n) => writeln!(out, "{n}").map(Ok),
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Ok(Err(e.to_string())),
                Err(e) => Err(e),
            };
        }
        let matches = match html_arena::stream::select_reader(reader, selectors, options) {
            Ok(m) => m,
            Err(e) => return Ok(Err(e.to_string())),
        };
        for m in matches {
            match m {
                Ok(m) => print_match(out, m.element(), &args.mode)?,
                Err(e) => return Ok(Err(e.to_string())),
            }
        }
        Ok(Ok(()))
    };
    let result = (|| -> std::io::Result<()> {
        if args.files.is_empty() {
            let mut sample = SAMPLE.as_bytes();
            if let Err(e) = print(&mut out, &mut sample)? {
                out.flush()?;
                eprintln!("query: {e}");
                status = ExitCode::from(2);
            }
            return Ok(());
        }
        for file in &args.files {
            if args.files.len() > 1 {
                writeln!(out, "==> {file} <==")?;
            }
            let mut reader = match input::open(file) {
                Ok(reader) => reader,
                Err(e) => {
                    out.flush()?;
                    eprintln!("query: {file}: {e}");
                    status = ExitCode::from(1);
                    continue;
                }
            };
            if let Err(e) = print(&mut out, &mut reader)? {
                out.flush()?;
                eprintln!("query: {file}: {e}");
                status = ExitCode::from(2);
            }
        }
        Ok(())
    })();
    finish(result, &mut out, status)
}
