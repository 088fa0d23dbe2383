//! Prints the tree of a document (or fragment) in the html5lib-tests format.
//!
//! ```text
//! cargo run --release --example tree -- [--fragment CONTEXT] [--scripting] [--encoding LABEL]
//!                                        [--errors] [--stats] [FILE|-]
//! ```
//!
//! - `--fragment CONTEXT`: parse as the content of a CONTEXT element (`td`, `svg path`, ...).
//! - `--scripting`: parse with the scripting flag on (`<noscript>` content is raw text).
//! - `--encoding LABEL`: the input's encoding; only `utf-8` for now (decoded lossily).
//! - `--errors`: print the parse errors as `line:col code` lines instead of the tree.
//! - `--stats`: print `nodes N elements N max-depth N errors N` instead of the tree.
//!
//! FILE is read as bytes; `-` or no FILE reads standard input.

use std::io::{Read, Write};
use std::process::ExitCode;

use html_arena::{Document, NodeRef, ParseOptions};

struct Args {
    fragment: Option<String>,
    scripting: bool,
    errors: bool,
    stats: bool,
    file: Option<String>,
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: tree [--fragment CONTEXT] [--scripting] [--encoding LABEL] [--errors] [--stats] [FILE|-]"
    );
    ExitCode::from(2)
}

fn parse_args() -> Result<Args, ExitCode> {
    let mut args = Args {
        fragment: None,
        scripting: false,
        errors: false,
        stats: false,
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
                Some(label)
                    if label.trim().eq_ignore_ascii_case("utf-8")
                        || label.trim().eq_ignore_ascii_case("utf8") => {}
                Some(label) => {
                    eprintln!("tree: encoding {label:?} is not supported yet (only utf-8)");
                    return Err(ExitCode::from(2));
                }
                None => return Err(usage()),
            },
            "--errors" => args.errors = true,
            "--stats" => args.stats = true,
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
    let text = String::from_utf8_lossy(&bytes);
    let options = ParseOptions::default().with_scripting(args.scripting);
    let doc = match &args.fragment {
        None => Document::parse_with(&text, &options),
        Some(context) => match Document::parse_fragment(&text, context, &options) {
            Ok(doc) => doc,
            Err(e) => {
                eprintln!("tree: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let result = if args.errors {
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
