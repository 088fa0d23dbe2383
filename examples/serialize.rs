//! Parses a page (or fragment) and prints its serialization exactly, with no newline added.
//!
//! ```text
//! cargo run --release --example serialize -- [--fragment CONTEXT] [--scripting] [--encoding LABEL] [--minimal] [FILE|-]
//! cargo run --release --example serialize -- --xml [--well-formed] [--fragment CONTEXT] [FILE|-]
//! ```
//!
//! `--xml` prints what `XMLSerializer.serializeToString` gives for the parsed document (for a
//! fragment, each of the context's children serialized and concatenated). `--well-formed`
//! coerces the tree into an XML infoset first (`Document::coerce_to_infoset`) and serializes
//! with "require well-formed": the output is always namespace-well-formed XML 1.0.
//!
//! Reads the file (or stdin) as bytes and sniffs its encoding unless `--encoding LABEL` is
//! given. `--minimal` omits optional tags and unneeded quotes (`SerializeOptions::html5lib`);
//! the output still parses to the same tree.

use std::io::{Read, Write};
use std::process::ExitCode;

use html_arena::encoding::{SniffOptions, get_an_encoding, sniff};
use html_arena::serialize::SerializeOptions;
use html_arena::{Document, ParseOptions};

fn usage() -> ExitCode {
    eprintln!(
        "usage: serialize [--xml [--well-formed]] [--fragment CONTEXT] [--scripting] [--encoding LABEL] [--minimal] [FILE|-]"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let (mut fragment, mut scripting, mut encoding, mut minimal, mut file) =
        (None, false, None, false, None);
    let (mut xml, mut well_formed) = (false, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--fragment" => match args.next() {
                Some(context) => fragment = Some(context),
                None => return usage(),
            },
            "--scripting" => scripting = true,
            "--minimal" => minimal = true,
            "--xml" => xml = true,
            "--well-formed" => well_formed = true,
            "--encoding" => match args.next() {
                Some(label) if get_an_encoding(&label).is_some() => encoding = Some(label),
                Some(label) => {
                    eprintln!("serialize: unknown encoding label {label:?}");
                    return ExitCode::from(2);
                }
                None => return usage(),
            },
            s if s.starts_with("--") => return usage(),
            _ if file.is_some() => return usage(),
            _ => file = Some(arg),
        }
    }
    let bytes = match file.as_deref() {
        None | Some("-") => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes).map(|_| bytes)
        }
        Some(path) => std::fs::read(path),
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            eprintln!("serialize: {}: {e}", file.as_deref().unwrap_or("-"));
            return ExitCode::from(1);
        }
    };
    let mut options = ParseOptions::default().with_scripting(scripting);
    options.override_encoding = encoding.clone();
    let doc = match &fragment {
        None => Document::parse_bytes(&bytes, &options).map_err(|e| e.to_string()),
        Some(context) => {
            // The fragment parsing algorithm takes text: sniff and decode first.
            let mut sniff_options = SniffOptions::new();
            if let Some(label) = &encoding {
                sniff_options = sniff_options.user_override(label.as_str());
            }
            sniff(&bytes, &sniff_options)
                .map_err(|e| e.to_string())
                .and_then(|sniffed| {
                    let (text, _) = sniffed
                        .encoding
                        .decode_without_bom_handling(&bytes[sniffed.bom_len..]);
                    Document::parse_fragment(&text, context, &options).map_err(|e| e.to_string())
                })
        }
    };
    let doc = match doc {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("serialize: {e}");
            return ExitCode::from(2);
        }
    };
    if xml {
        return write_xml(&doc, well_formed);
    }
    let serialize_options = if minimal {
        SerializeOptions::html5lib()
    } else {
        SerializeOptions::default()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match doc
        .write_html_io(&mut out, &serialize_options)
        .and_then(|()| out.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("serialize: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--xml [--well-formed]`: the document (or each of the fragment's nodes) as XML.
fn write_xml(doc: &Document, well_formed: bool) -> ExitCode {
    use html_arena::xml::{self, XmlSerializeOptions};
    let coerced;
    let (doc, options) = if well_formed {
        coerced = doc.coerce_to_infoset();
        (&coerced, XmlSerializeOptions::well_formed())
    } else {
        (doc, XmlSerializeOptions::default())
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let result = if doc.fragment_context().is_some() {
        // Each child on its own, as XMLSerializer on each would give.
        doc.root()
            .children()
            .try_for_each(|child| xml::serialize_to_io(child, &options, &mut out))
    } else {
        xml::serialize_to_io(doc.root(), &options, &mut out)
    };
    match result
        .map_err(|e| e.to_string())
        .and_then(|()| out.flush().map_err(|e| e.to_string()))
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("serialize: {e}");
            ExitCode::from(1)
        }
    }
}
