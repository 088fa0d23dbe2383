//! The html5lib encoding tests (`tests/data/html5lib-tests/encoding/`).
//!
//! Each case is `#data` (the document's bytes, up to the newline before the next heading) then
//! `#encoding` (the expected encoding's name). The expectation is the encoding the document
//! ends up decoded with when no transport-layer encoding is given and the default is
//! windows-1252, compared ignoring ASCII case with the `Encoding`'s name.
//!
//! The documents go through the real pipeline, `Document::parse_bytes` with the options that
//! choose as a browser does (`ParseOptions::with_browser_encoding(true)`: no detection, so
//! undeclared input gets the standard's default, windows-1252, as the expectations assume;
//! the default options detect instead, see `tests/encoding_default.rs`), and the result is
//! `doc.encoding()`. "Ends up" includes 13.2.3.4 "Changing the
//! encoding while parsing": seven cases of `tests1.dat` put their `<meta charset>` after a
//! comment of 2 to 8 KiB, beyond the 1024 bytes the prescan reads, so the tree builder finds it
//! and the parser starts over with it. The runner lists the cases whose encoding changed that
//! way (the final encoding differs from what [`sniff`] alone gives). Each case is also written
//! to a streaming `Parser` in chunks of 1 to 64 bytes, which must end with the same encoding,
//! confidence and tree.
//!
//! Not run as `.dat` cases:
//! - `scripted/tests1.dat`: its `<meta>` is written by `document.write`, which needs script
//!   execution; this parser runs no scripts.
//! - `chardet/test_big5.txt` is a Big5 text with no declaration, for frequency-based
//!   detectors. With the `detect` feature (on by default) it is run as one more case, with
//!   the default options (detection on): it must come out as Big5. Without the feature there
//!   is no detector to test.
//!
//! Prints `encoding: N passed, M failed`, listing the failures, and exits with status 1 on any.

use std::path::Path;

use encoding_rs::Encoding;
use html_arena::encoding::{Confidence, EncodingSource, SniffOptions, sniff};
use html_arena::{Document, ParseOptions, Parser};

const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/html5lib-tests/encoding"
);

/// The `.dat` files run here.
const FILES: [&str; 3] = ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat"];

struct Case {
    file: &'static str,
    /// 1-based line of the `#data` heading.
    line: usize,
    data: Vec<u8>,
    expected: String,
}

/// Splits a `.dat` file (bytes: the data need not be UTF-8) into cases.
fn parse_dat(file: &'static str, bytes: &[u8]) -> Vec<Case> {
    enum Section {
        None,
        Data,
        Encoding,
    }
    let mut cases: Vec<Case> = Vec::new();
    let mut section = Section::None;
    let mut data_lines: Vec<&[u8]> = Vec::new();
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        match line {
            b"#data" => {
                cases.push(Case {
                    file,
                    line: index + 1,
                    data: Vec::new(),
                    expected: String::new(),
                });
                data_lines.clear();
                section = Section::Data;
            }
            b"#encoding" => {
                if let Some(case) = cases.last_mut() {
                    // The data is its lines joined by newlines, without the one before
                    // `#encoding`.
                    case.data = data_lines.join(&b'\n');
                }
                section = Section::Encoding;
            }
            _ => match section {
                Section::Data => data_lines.push(line),
                Section::Encoding => {
                    if let Some(case) = cases.last_mut() {
                        if case.expected.is_empty() && !line.is_empty() {
                            case.expected = String::from_utf8_lossy(line).trim().to_owned();
                        }
                    }
                }
                Section::None => {}
            },
        }
    }
    cases
}

/// What the parser decoded with in the end, and how it got there.
struct Outcome {
    encoding: &'static Encoding,
    /// Whether a `<meta>` found while parsing changed the encoding.
    changed_while_parsing: bool,
    how: String,
}

fn run_case(data: &[u8]) -> Result<Outcome, String> {
    let options = ParseOptions::default().with_browser_encoding(true);
    let doc = Document::parse_bytes(data, &options).map_err(|e| e.to_string())?;
    let sniffed = sniff(data, &SniffOptions::browser()).map_err(|e| e.to_string())?;
    let changed_while_parsing = doc.encoding() != sniffed.encoding;
    let how = format!(
        "sniffed {} ({:?}, {}); parsed as {} ({})",
        sniffed.encoding.name(),
        sniffed.source,
        sniffed.confidence,
        doc.encoding().name(),
        doc.encoding_confidence(),
    );
    if changed_while_parsing && doc.encoding_confidence() != Confidence::Certain {
        return Err(format!(
            "{how}: a change while parsing must make it certain"
        ));
    }
    // The streaming parser, in chunks of 1 to 64 bytes, ends the same way.
    let mut parser = Parser::new(&options);
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ data.len() as u64;
    let mut rest = data;
    while !rest.is_empty() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let (chunk, tail) = rest.split_at((1 + seed % 64).min(rest.len() as u64) as usize);
        parser.write(chunk).map_err(|e| e.to_string())?;
        rest = tail;
    }
    let streamed = parser.finish();
    if (streamed.encoding(), streamed.encoding_confidence())
        != (doc.encoding(), doc.encoding_confidence())
        || streamed.dump_tree() != doc.dump_tree()
    {
        return Err(format!(
            "{how}; streamed in chunks: {} ({}), same tree: {}",
            streamed.encoding().name(),
            streamed.encoding_confidence(),
            streamed.dump_tree() == doc.dump_tree()
        ));
    }
    Ok(Outcome {
        encoding: doc.encoding(),
        changed_while_parsing,
        how,
    })
}

fn preview(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(data);
    let mut short: String = text.chars().take(120).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    format!("{short:?}")
}

fn main() {
    let mut passed = 0;
    let mut failures: Vec<String> = Vec::new();
    let mut changed_while_parsing: Vec<String> = Vec::new();

    for file in FILES {
        let path = Path::new(SUITE).join(file);
        let bytes =
            std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let cases = parse_dat(file, &bytes);
        let mut file_passed = 0;
        for case in &cases {
            match run_case(&case.data) {
                Ok(outcome) if outcome.encoding.name().eq_ignore_ascii_case(&case.expected) => {
                    file_passed += 1;
                    if outcome.changed_while_parsing {
                        changed_while_parsing.push(format!("{}:{}", case.file, case.line));
                    }
                }
                Ok(outcome) => failures.push(format!(
                    "{}:{}: expected {}, got {}: {}\n    data: {}",
                    case.file,
                    case.line,
                    case.expected,
                    outcome.encoding.name(),
                    outcome.how,
                    preview(&case.data)
                )),
                Err(error) => failures.push(format!("{}:{}: {error}", case.file, case.line)),
            }
        }
        println!(
            "encoding: {file}: {file_passed} of {} cases pass",
            cases.len()
        );
        passed += file_passed;
    }
    println!(
        "encoding: {} of them found their <meta> only while parsing (past the 1024-byte prescan) \
         and changed the encoding: {}",
        changed_while_parsing.len(),
        changed_while_parsing.join(" ")
    );
    println!(
        "encoding: skipped scripted/tests1.dat (1 case): its <meta> comes from document.write, which needs script execution"
    );

    chardet(&mut passed, &mut failures);

    for failure in &failures {
        println!("FAIL {failure}");
    }
    println!("encoding: {passed} passed, {} failed", failures.len());
    if !failures.is_empty() {
        std::process::exit(1);
    }
}

/// `chardet/test_big5.txt`: Big5 text without any declaration; frequency-based detection must
/// say Big5, through the real pipeline, whole and streamed (the streaming parser waits for the
/// end, since detection reads every byte).
#[cfg(feature = "detect")]
fn chardet(passed: &mut usize, failures: &mut Vec<String>) {
    let path = Path::new(SUITE).join("chardet/test_big5.txt");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let options = ParseOptions::default();
    let source = sniff(&bytes, &SniffOptions::new()).map(|s| s.source);
    let whole = Document::parse_bytes(&bytes, &options).map(|d| d.encoding());
    let mut parser = Parser::new(&options);
    let streamed = bytes
        .chunks(100)
        .try_for_each(|chunk| parser.write(chunk))
        .map(|()| parser.finish().encoding());
    match (source, whole, streamed) {
        (Ok(EncodingSource::Detection), Ok(whole), Ok(streamed))
            if whole == encoding_rs::BIG5 && streamed == encoding_rs::BIG5 =>
        {
            println!("encoding: chardet/test_big5.txt: detected Big5");
            *passed += 1;
        }
        other => failures.push(format!(
            "chardet/test_big5.txt: expected Big5 by detection, got {other:?}"
        )),
    }
}

#[cfg(not(feature = "detect"))]
fn chardet(_: &mut usize, _: &mut Vec<String>) {
    let _ = EncodingSource::Detection;
    println!(
        "encoding: skipped chardet/test_big5.txt: a Big5 sample for frequency-based detection; \
         run with --features detect"
    );
}
