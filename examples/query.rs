//! Runs a CSS selector over HTML and prints what matches, as `querySelectorAll` would find it.
//!
//! ```text
//! cargo run --release --example query -- [--text|--attr NAME|--html|--path|--count]
//!                                         [--scripting] [--encoding LABEL] [--browser-encoding]
//!                                         [SELECTOR [FILE...]]
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
//! Exit status: 0 when everything ran; 1 when a file could not be read (the others still
//! are); 2 for a usage error, an unknown encoding label or an invalid selector, which is
//! reported with a caret under the offending text:
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
use html_arena::{Document, ElementRef, ParseOptions, Selector};

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
}

struct Args {
    mode: Mode,
    scripting: bool,
    encoding: Option<String>,
    browser_encoding: bool,
    selector: Option<String>,
    files: Vec<String>,
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: query [--text|--attr NAME|--html|--path|--count] [--scripting] \
         [--encoding LABEL] [--browser-encoding] [SELECTOR [FILE...]]"
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
                "--scripting" => args.scripting = true,
                "--browser-encoding" => args.browser_encoding = true,
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
        match mode {
            Mode::Html => writeln!(out, "{}", e.html())?,
            Mode::Text => writeln!(out, "{}", e.text())?,
            Mode::Attr(name) => {
                let value = e
                    .attr(name)
                    .or_else(|| e.attr(&name.to_ascii_lowercase()))
                    .unwrap_or("");
                writeln!(out, "{value}")?;
            }
            Mode::Path => writeln!(out, "{}", css_path(e))?,
            Mode::Count => {}
        }
    }
    Ok(())
}

fn read_file(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(code) => return code,
    };
    let text = args.selector.as_deref().unwrap_or(DEFAULT_SELECTOR);
    let selector = match Selector::parse(text) {
        Ok(selector) => selector,
        Err(e) => {
            eprintln!("query: invalid selector: {e}");
            for line in e.pointer().lines() {
                eprintln!("    {line}");
            }
            return ExitCode::from(2);
        }
    };
    let mut options = ParseOptions::default().with_scripting(args.scripting);
    options.override_encoding = args.encoding.clone();
    options = options.with_browser_encoding(args.browser_encoding);

    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut status = ExitCode::SUCCESS;
    let result = (|| -> std::io::Result<()> {
        if args.files.is_empty() {
            let doc = Document::parse_with(SAMPLE, &options);
            return print_matches(&mut out, &doc, &selector, &args.mode);
        }
        for file in &args.files {
            if args.files.len() > 1 {
                writeln!(out, "==> {file} <==")?;
            }
            let bytes = match read_file(file) {
                Ok(bytes) => bytes,
                Err(e) => {
                    out.flush()?;
                    eprintln!("query: {file}: {e}");
                    status = ExitCode::from(1);
                    continue;
                }
            };
            let doc = match Document::parse_bytes(&bytes, &options) {
                Ok(doc) => doc,
                Err(e) => {
                    out.flush()?;
                    eprintln!("query: {file}: {e}");
                    status = ExitCode::from(2);
                    continue;
                }
            };
            print_matches(&mut out, &doc, &selector, &args.mode)?;
        }
        Ok(())
    })();
    match result.and_then(|()| out.flush()) {
        Ok(()) => status,
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            eprintln!("query: {e}");
            ExitCode::from(1)
        }
    }
}
