//! The memory of one start tag with very many attributes (issue 14), at a size CI runs in
//! moments: the peak heap of parsing it, through the input paths, is a small constant per
//! attribute and well under 8 times the larger of the input and its serialization (the
//! growth matrix's limit, `benches/growth_matrix.rs`), and the attributes are right. It
//! counts bytes with a counting allocator, never time.
//!
//! One test only: the allocator's counts are global, and tests in one binary run in
//! parallel.

// The benches' counting allocator (live and peak heap bytes; this test needs only the peak).
#[allow(dead_code)]
#[path = "../benches/common/alloc.rs"]
mod alloc;

use alloc::{Counting, peak_of};
use html_arena::{Document, ParseOptions, Parser};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Attributes in the tag.
const N: usize = 40_000;

fn parse(path: &str, input: &str, bytes: &[u8]) -> Document {
    let options = ParseOptions::default();
    match path {
        "parse" => Document::parse(input),
        // A lean document (its tokenizer's tag mirror and the window hold the tag once each).
        "lean_write1024" => {
            let mut parser = Parser::new(&options.with_keep_source(false));
            for chunk in bytes.chunks(1024) {
                parser.write(chunk).expect("default options");
            }
            parser.finish()
        }
        "parse_bytes" => Document::parse_bytes(bytes, &options).expect("default options"),
        _ => {
            let size: usize = path.trim_start_matches("write").parse().expect("size");
            let mut parser = Parser::new(&options);
            for chunk in bytes.chunks(size) {
                parser.write(chunk).expect("default options");
            }
            parser.finish()
        }
    }
}

#[test]
fn one_tag_with_many_attributes_holds_each_once() {
    // (unit, with `{i}` for the counter; the name and value of attribute i; the most heap
    // per attribute at the peak, on any path)
    type Expected = fn(usize) -> (String, String);
    let shapes: [(&str, Expected, usize); 4] = [
        (" b{i}", |i| (format!("b{i}"), String::new()), 96),
        (" b{i}=v", |i| (format!("b{i}"), "v".to_owned()), 96),
        (
            " data-b{i}=\"x{i}\"",
            |i| (format!("data-b{i}"), format!("x{i}")),
            128,
        ),
        // Upper case names (the tokenizer lowercases them into its buffer) and references.
        (
            "\tB{i}='&amp;{i}'",
            |i| (format!("b{i}"), format!("&{i}")),
            160,
        ),
    ];
    for (unit, expected, per_attribute) in shapes {
        let mut input = String::from("<!DOCTYPE html><p");
        for i in 0..N {
            input.push_str(&unit.replace("{i}", &i.to_string()));
        }
        input.push_str(">x");
        let mut bytes = "\u{feff}".as_bytes().to_vec();
        bytes.extend_from_slice(input.as_bytes());
        // The larger of the input and what the document must hold.
        let reference = Document::parse(&input).html().len().max(input.len());
        // (64-byte chunks: a boundary in every few attributes.)
        for path in [
            "parse",
            "parse_bytes",
            "write1024",
            "write8192",
            "write64",
            "lean_write1024",
        ] {
            let (doc, peak) = peak_of(|| parse(path, &input, &bytes));
            let what = format!("{unit:?} {path}");
            // The structure: every attribute, in order, with its value.
            let p = doc
                .root()
                .descendants()
                .find_map(|n| n.as_element().filter(|e| e.local_name() == "p"))
                .unwrap_or_else(|| panic!("{what}: no <p>"));
            assert_eq!(p.attrs().len(), N, "{what}");
            for (i, a) in p.attrs().enumerate() {
                let (name, value) = expected(i);
                assert!(
                    a.local_name == name && a.value == value,
                    "{what}: attribute {i}: {}={:?}",
                    a.local_name,
                    a.value
                );
            }
            drop(doc);
            // The memory: a constant per attribute (the tokenizer's 20-byte record, the
            // document's attribute and name, the text: before this test, 165 to 185 bytes
            // for ` b{i}`), whatever the path.
            let bytes_per_attribute = peak / N;
            assert!(
                bytes_per_attribute <= per_attribute,
                "{what}: {bytes_per_attribute} bytes per attribute at the peak"
            );
            // Empty attributes: under 64 bytes each beyond three bytes per input byte (the
            // document's copy of the input, with a growing buffer's room, and the
            // tokenizer's copy of a tag that crossed chunk boundaries).
            if unit == " b{i}" {
                let beyond = peak.saturating_sub(3 * input.len()) / N;
                assert!(beyond < 64, "{what}: {beyond} bytes per attribute");
            }
            // The growth matrix's limit (`write64` is not one of its paths: its many
            // boundaries cost a little more).
            if path != "write64" {
                assert!(
                    peak <= 8 * reference,
                    "{what}: peak heap {peak}, {:.1}x the input or its serialization",
                    peak as f64 / reference as f64
                );
            }
        }
    }
}
