//! Prints the tree of a document (or fragment) in the html5lib-tests format.
//!
//! ```text
//! cargo run --release --example tree -- [--fragment CONTEXT] [--scripting] [--encoding LABEL]
//!                                        [--errors] [--sniff] [--stats] [--run-scripts]
//!                                        [FILE|-]
//! ```
//!
//! - `--fragment CONTEXT`: parse as the content of a CONTEXT element (`td`, `svg path`, ...).
//! - `--scripting`: parse with the scripting flag on (`<noscript>` content is raw text).
//! - `--encoding LABEL`: decode the input with this encoding (an Encoding Standard label such
//!   as `utf-8`, `latin1`, `sjis`), overriding everything but a byte order mark. An unknown
//!   label exits with status 2.
//! - `--errors`: print the parse errors as `line:col code` lines instead of the tree.
//! - `--sniff`: print the encoding the input was finally decoded with (after any change a
//!   `<meta>` made while parsing) and the confidence in it, e.g. `windows-1256 certain`,
//!   instead of the tree.
//! - `--stats`: print `nodes N elements N max-depth N errors N` instead of the tree.
//! - `--run-scripts`: parse with the scripting flag on and run every inline classic script
//!   with a tiny interpreter (`tiny_js/mod.rs`: `document.write` and `document.writeln` of
//!   string literals; other statements are skipped; scripts with `src` are not fetched).
//! - `--xml`: parse FILE as XML (`Document::parse_xml_bytes`): elements in namespaces other
//!   than HTML, SVG and MathML print as `<{URI} local>`, in no namespace as `<{} local>`; a
//!   well-formedness error prints `line:col message` on standard error and exits with 1.
//!
//! FILE is read as bytes and its encoding sniffed (a byte order mark, a `<meta>` charset,
//! else UTF-8 if the bytes are valid UTF-8, else a guess from the bytes), as
//! `Document::parse_bytes` does with default options, with or without `--run-scripts`; `-`
//! or no FILE reads standard input.
//! A fragment is decoded the same way before parsing (the fragment parsing algorithm takes
//! text, so no `<meta>` changes its encoding).

mod tiny_js;

use std::io::{Read, Write};
use std::process::ExitCode;

use html_arena::encoding::{Confidence, Encoding, SniffOptions, get_an_encoding, sniff};
use html_arena::{Document, NodeRef, ParseOptions};

struct Args {
    fragment: Option<String>,
    scripting: bool,
    encoding: Option<String>,
    errors: bool,
    sniff: bool,
    stats: bool,
    run_scripts: bool,
    xml: bool,
    file: Option<String>,
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: tree [--fragment CONTEXT] [--scripting] [--encoding LABEL] [--errors] [--sniff] \
         [--stats] [--run-scripts] [FILE|-]"
    );
    ExitCode::from(2)
}

fn parse_args() -> Result<Args, ExitCode> {
    let mut args = Args {
        fragment: None,
        scripting: false,
        encoding: None,
        errors: false,
        sniff: false,
        stats: false,
        run_scripts: false,
        xml: false,
        file: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--fragment" => match it.next() {
                Some(c) => args.fragment = Some(c),
                None => return Err(usage()),
            },
            "--scripting" => args.scripting = true,
            "--encoding" => match it.next() {
                Some(label) if get_an_encoding(&label).is_some() => args.encoding = Some(label),
                Some(label) => {
                    eprintln!(
                        "tree: unknown encoding label {label:?} (see the labels of \
                         https://encoding.spec.whatwg.org/#names-and-labels)"
                    );
                    return Err(ExitCode::from(2));
                }
                None => return Err(usage()),
            },
            "--errors" => args.errors = true,
            "--sniff" => args.sniff = true,
            "--stats" => args.stats = true,
            "--run-scripts" => {
                args.run_scripts = true;
                args.scripting = true;
            }
            "--xml" => args.xml = true,
            "-h" | "--help" => return Err(usage()),
            s if s.starts_with("--") => {
                eprintln!("tree: unknown option {s}");
                return Err(usage());
            }
            _ if args.file.is_some() => return Err(usage()),
            _ => args.file = Some(arg),
        }
    }
    Ok(args)
}

fn read_input(file: Option<&str>) -> std::io::Result<Vec<u8>> {
    match file {
        None | Some("-") => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes)?;
            Ok(bytes)
        }
        Some(path) => std::fs::read(path),
    }
}

/// nodes, elements, max depth (the root's children are at depth 1), iteratively.
fn stats(doc: &Document) -> (usize, usize, usize) {
    let mut nodes = 0;
    let mut elements = 0;
    let mut max_depth = 0;
    let mut stack: Vec<(NodeRef<'_>, usize)> = doc.root().children().map(|c| (c, 1)).collect();
    while let Some((node, depth)) = stack.pop() {
        nodes += 1;
        max_depth = max_depth.max(depth);
        if let Some(e) = node.as_element() {
            elements += 1;
            if let Some(contents) = e.template_contents() {
                stack.extend(contents.children().map(|c| (c, depth + 1)));
            }
        }
        stack.extend(node.children().map(|c| (c, depth + 1)));
    }
    (nodes, elements, max_depth)
}

/// Sniffs and decodes `bytes`, then parses them as a fragment; returns the document with the
/// encoding used and the confidence in it.
fn parse_fragment(
    bytes: &[u8],
    context: &str,
    options: &ParseOptions,
) -> Result<(Document, (&'static Encoding, Confidence)), String> {
    let mut sniff_options = SniffOptions::new();
    if let Some(label) = &options.override_encoding {
        sniff_options = sniff_options.user_override(label.as_str());
    }
    let sniffed = sniff(bytes, &sniff_options).map_err(|e| e.to_string())?;
    let (text, _) = sniffed
        .encoding
        .decode_without_bom_handling(&bytes[sniffed.bom_len..]);
    let doc = Document::parse_fragment(&text, context, options).map_err(|e| e.to_string())?;
    Ok((doc, (sniffed.encoding, sniffed.confidence)))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(code) => return code,
    };
    let bytes = match read_input(args.file.as_deref()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("tree: {}: {e}", args.file.as_deref().unwrap_or("-"));
            return ExitCode::from(1);
        }
    };
    if args.xml {
        return xml_tree(&bytes);
    }
    let mut options = ParseOptions::default().with_scripting(args.scripting);
    options.override_encoding = args.encoding.clone();
    let parsed = match &args.fragment {
        // (Undeclared pages are decoded as `Document::parse_bytes` decodes them by default.)
        None if args.run_scripts => tiny_js::parse_and_run(&bytes, &options).map(|doc| {
            let sniffed = (doc.encoding(), doc.encoding_confidence());
            (doc, sniffed)
        }),
        None => Document::parse_bytes(&bytes, &options)
            .map(|doc| {
                let sniffed = (doc.encoding(), doc.encoding_confidence());
                (doc, sniffed)
            })
            .map_err(|e| e.to_string()),
        Some(context) => parse_fragment(&bytes, context, &options),
    };
    let (doc, (encoding, confidence)) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("tree: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let result = if args.sniff {
        writeln!(out, "{} {confidence}", encoding.name())
    } else if args.errors {
        doc.errors()
            .iter()
            .try_for_each(|e| writeln!(out, "{}:{} {}", e.line, e.column, e.code))
    } else if args.stats {
        let (nodes, elements, depth) = stats(&doc);
        writeln!(
            out,
            "nodes {nodes} elements {elements} max-depth {depth} errors {}",
            doc.error_count()
        )
    } else {
        out.write_all(doc.dump_tree().as_bytes())
    };
    match result.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tree: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--xml`: the tree of FILE parsed as XML, or `line:col message` and exit status 1.
fn xml_tree(bytes: &[u8]) -> ExitCode {
    match Document::parse_xml_bytes(bytes, &Default::default()) {
        Ok(doc) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(doc.dump_tree().as_bytes()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("tree: {e}");
                    ExitCode::from(1)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
