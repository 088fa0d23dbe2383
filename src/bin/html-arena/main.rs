//! `html-arena`: query HTML with CSS selectors from the shell, in the manner of htmlq and pup.
//!
//! ```text
//! curl -s https://example.com | html-arena -a href 'a[href]'
//! html-arena -f page.html -t -w 'h1, h2'
//! html-arena -f page.html -r 'script, style' -p main
//! html-arena -f page.html -j title 'meta[name=description]'
//! html-arena -f page.html -j -a href -t 'a[href]'   # an object per link: {"href": .., "text": ..}
//! html-arena -f page.html -b https://example.com/ -a href 'a:contains("Next")'
//! ```
//!
//! `html-arena --help` lists the options. Install with `cargo install --path .` (no
//! dev-dependencies are built). Exit status: 0 when everything ran (also with no matches); 1
//! when a file could not be read or the output could not be written; 2 for a usage error, an
//! unknown encoding label or an invalid selector (reported with a caret under the offending
//! text).

mod args;
mod input;
mod output;
mod pretty;
mod stream;

use std::io::Write;
use std::process::ExitCode;

use html_arena::{Document, ParseOptions, Selector};

use args::{Args, Mode};
use output::Output;

fn main() -> ExitCode {
    let args = match args::parse(std::env::args_os().skip(1)) {
        Ok(args::Parsed::Run(args)) => args,
        Ok(args::Parsed::Help) => return print_and_exit(args::HELP),
        Ok(args::Parsed::Version) => {
            return print_and_exit(&format!("html-arena {}\n", env!("CARGO_PKG_VERSION")));
        }
        Err(message) => {
            eprintln!("html-arena: {message}");
            eprintln!("Try 'html-arena --help' for more information.");
            return ExitCode::from(2);
        }
    };
    for text in &args.selectors {
        // `html-arena page.html` reads standard input with the selector `page.html` (a
        // `page` element of class `html`): say how to read the file.
        if std::path::Path::new(text).is_file() {
            eprintln!(
                "html-arena: note: the selector {text:?} is also a file name: to read that \
                 file, use -f {text}"
            );
        }
    }
    let Some(selectors) = compile(&args.selectors) else {
        return ExitCode::from(2);
    };
    let Some(removals) = compile(&args.remove) else {
        return ExitCode::from(2);
    };
    let mut options = ParseOptions::default()
        .with_scripting(args.scripting)
        .with_browser_encoding(args.browser_encoding);
    options.override_encoding = args.encoding.clone();
    options.url = args.base.clone();
    if args.stream {
        return stream::run(&args, &selectors, &options);
    }

    let stdout = std::io::stdout().lock();
    let mut out = Output::new(std::io::BufWriter::new(stdout), &args);
    let files: Vec<&str> = if args.files.is_empty() {
        vec!["-"]
    } else {
        args.files.iter().map(String::as_str).collect()
    };
    let mut status = ExitCode::SUCCESS;
    let result = (|| -> std::io::Result<()> {
        for file in &files {
            let bytes = match input::read(file) {
                Ok(bytes) => bytes,
                Err(e) => {
                    out.flush()?;
                    eprintln!("html-arena: {file}: {e}");
                    status = ExitCode::from(1);
                    continue;
                }
            };
            let mut doc = match Document::parse_bytes(&bytes, &options) {
                Ok(doc) => doc,
                Err(e) => {
                    eprintln!("html-arena: {e}");
                    return Err(std::io::Error::other(Exit2));
                }
            };
            remove_matches(&mut doc, &removals);
            out.begin_file(file, files.len() > 1)?;
            for (text, selector) in args.selectors.iter().zip(&selectors) {
                out.selector(&doc, text, selector)?;
            }
        }
        out.finish()
    })();
    match result {
        Ok(()) => status,
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => status,
        Err(e) if e.get_ref().is_some_and(|e| e.is::<Exit2>()) => ExitCode::from(2),
        Err(e) => {
            eprintln!("html-arena: {e}");
            ExitCode::from(1)
        }
    }
}

/// An error already reported that ends the run with status 2.
#[derive(Debug)]
struct Exit2;

impl std::fmt::Display for Exit2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("usage error")
    }
}

impl std::error::Error for Exit2 {}

fn print_and_exit(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

/// Parses every selector, reporting the invalid ones; `None` if any is.
fn compile(texts: &[String]) -> Option<Vec<Selector>> {
    let mut selectors = Vec::with_capacity(texts.len());
    let mut ok = true;
    for text in texts {
        // The extended syntax: standard selectors mean the same, and the text pseudo-classes
        // scrapers use (`:contains()`, `:has-text()`, ...) work too.
        match Selector::parse_extended(text) {
            Ok(selector) => selectors.push(selector),
            Err(e) => {
                eprintln!("html-arena: invalid selector {text:?}: {e}");
                for line in e.pointer().lines() {
                    eprintln!("    {line}");
                }
                ok = false;
            }
        }
    }
    ok.then_some(selectors)
}

/// `--remove`: removes and frees every match of each selector (a match inside another match
/// goes with it).
fn remove_matches(doc: &mut Document, removals: &[Selector]) {
    for selector in removals {
        let ids: Vec<_> = doc.select(selector).map(|e| e.node_id()).collect();
        for id in ids {
            // A match inside an earlier match was freed with it: a stale id, an error to
            // ignore.
            let _ = doc.decompose(id);
        }
    }
}

/// The attributes `--base`/`--detect-base` resolve: those whose value is a URL (HTML
/// Standard, "Attributes" index: valid URL potentially surrounded by spaces, or valid
/// non-empty URL), and SVG's `xlink:href`. Other attributes (`class`, `alt`, lists such as
/// `srcset` or `ping`) print as they are.
fn is_url_attribute(name: &str) -> bool {
    const URL_ATTRIBUTES: [&str; 13] = [
        "href",
        "src",
        "action",
        "formaction",
        "cite",
        "poster",
        "data",
        "background",
        "longdesc",
        "manifest",
        "codebase",
        "itemid",
        "xlink:href",
    ];
    URL_ATTRIBUTES.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// One output field of one match: `None` when the match has no such attribute. (The plain
/// output and `-j` with one field skip those; a `-j` object gives `null`.)
fn value_of(e: html_arena::ElementRef<'_>, field: &Mode, args: &Args) -> Option<String> {
    Some(match field {
        Mode::Html if args.pretty => pretty::pretty(e.as_node()),
        Mode::Html => e.as_node().html(),
        Mode::Text => e.as_node().text(),
        Mode::Rendered => e.as_node().rendered_text(),
        Mode::Attr(name) if args.resolve_urls && is_url_attribute(name) => {
            // `--base`/`--detect-base`: what the element's `href`/`src`/... IDL getter returns
            // (the value resolved against the document base URL; unchanged if it does not
            // parse). `abs_url` looks the name up as `attr` does (lowercased on HTML elements).
            e.abs_url(name)?.into_owned()
        }
        Mode::Attr(name) => e.attr(name)?.to_owned(),
        Mode::Count => String::new(),
    })
}

/// `--trim`: the value without the white space around it, `None` (skipped) when nothing is
/// left.
fn trimmed(value: String, args: &Args) -> Option<String> {
    if !args.trim {
        return Some(value);
    }
    let trimmed = value.trim();
    if trimmed.is_empty() {
        None
    } else {
        Some(trimmed.to_owned())
    }
}

/// The plain output of `-t` and `-a`: one line per match, so that the lines of two runs
/// pair up. Each line break inside the value (CR LF, LF or CR) prints as one space; `-j`
/// gives the exact value.
fn one_line(value: String) -> String {
    if !value.contains(['\n', '\r']) {
        return value;
    }
    value.replace("\r\n", " ").replace(['\n', '\r'], " ")
}
