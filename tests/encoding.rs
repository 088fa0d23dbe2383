//! The html5lib encoding tests (`tests/data/html5lib-tests/encoding/`).
//!
//! Each case is `#data` (the document's bytes, up to the newline before the next heading) then
//! `#encoding` (the expected encoding's name). The expectation is the encoding the document
//! ends up decoded with when no transport-layer encoding is given and the default is
//! windows-1252, compared ignoring ASCII case with the `Encoding`'s name.
//!
//! "Ends up" includes 13.2.3.4 "Changing the encoding while parsing": seven cases of
//! `tests1.dat` put their `<meta charset>` after a comment of 2 to 8 KiB, beyond the 1024 bytes
//! the prescan reads, and expect the parser to find it and restart. Until
//! `Document::parse_bytes` does that restart, this runner stands in for the tree builder: when
//! [`sniff`] leaves the confidence tentative, it decodes the bytes, tokenizes them (switching
//! to RCDATA, RAWTEXT, script data and PLAINTEXT after the start tags the tree builder switches
//! on), takes the first `<meta>` for which [`encoding_declared_by_meta`] finds an encoding, and
//! applies [`change_the_encoding`]. (A tokenizer is not a tree builder: a `<meta>` in
//! `<frameset>` content or a `<title>` in SVG would be treated differently by the real one.
//! None of these cases has either.)
//!
//! Not run as `.dat` cases:
//! - `scripted/tests1.dat`: its `<meta>` is written by `document.write`, which needs script
//!   execution; this parser runs no scripts.
//! - `chardet/test_big5.txt` is a Big5 text with no declaration, for frequency-based
//!   detectors. With the `detect` feature it is run as one more case: sniffing with detection
//!   on must give Big5. Without the feature there is no detector to test.
//!
//! Prints `encoding: N passed, M failed`, listing the failures, and exits with status 1 on any.

use std::path::Path;

use encoding_rs::Encoding;
use html_arena::encoding::{
    Confidence, EncodingChange, EncodingSource, SniffOptions, change_the_encoding,
    encoding_declared_by_meta, sniff,
};
use html_arena::tokenizer::{State, Token, TokenSink, TokenSinkResult, Tokenizer};

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

/// What the parser would decode with in the end, and how it got there.
struct Outcome {
    encoding: &'static Encoding,
    /// Whether a `<meta>` found while parsing changed the encoding (a restart).
    restarted: bool,
    how: String,
}

fn run_case(data: &[u8], options: &SniffOptions<'_>) -> Result<Outcome, String> {
    let sniffed = sniff(data, options).map_err(|e| e.to_string())?;
    let how = format!(
        "sniffed {} ({:?}, {})",
        sniffed.encoding.name(),
        sniffed.source,
        sniffed.confidence
    );
    if sniffed.confidence != Confidence::Tentative {
        return Ok(Outcome {
            encoding: sniffed.encoding,
            restarted: false,
            how,
        });
    }
    // The stand-in for the tree builder's `<meta>` handling (see the module docs).
    let bytes = data.get(sniffed.bom_len..).unwrap_or_default();
    let (text, _) = sniffed.encoding.decode_without_bom_handling(bytes);
    let mut sink = MetaFinder::default();
    Tokenizer::new().feed_all(&text, &mut sink);
    let Some(declared) = sink.declared else {
        return Ok(Outcome {
            encoding: sniffed.encoding,
            restarted: false,
            how: format!("{how}; no <meta> while parsing"),
        });
    };
    Ok(match change_the_encoding(sniffed.encoding, declared) {
        EncodingChange::KeepCurrent => Outcome {
            encoding: sniffed.encoding,
            restarted: false,
            how: format!("{how}; <meta> {} while parsing: certain", declared.name()),
        },
        EncodingChange::Restart(encoding) => Outcome {
            encoding,
            restarted: true,
            how: format!("{how}; <meta> {} while parsing: restart", declared.name()),
        },
        other => return Err(format!("unexpected {other:?}")),
    })
}

/// Finds the first `<meta>` start tag that declares an encoding, switching the tokenizer's
/// state after the start tags the tree builder switches on (scripting off).
#[derive(Default)]
struct MetaFinder {
    declared: Option<&'static Encoding>,
}

impl TokenSink for MetaFinder {
    fn process_token(&mut self, token: Token<'_>) -> TokenSinkResult {
        let Token::StartTag(tag) = token else {
            return TokenSinkResult::Continue;
        };
        match tag.name() {
            "meta" if self.declared.is_none() => {
                self.declared = encoding_declared_by_meta(
                    tag.attr("charset"),
                    tag.attr("http-equiv"),
                    tag.attr("content"),
                );
                TokenSinkResult::Continue
            }
            "title" | "textarea" => TokenSinkResult::SwitchTo(State::Rcdata),
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                TokenSinkResult::SwitchTo(State::Rawtext)
            }
            "script" => TokenSinkResult::SwitchTo(State::ScriptData),
            "plaintext" => TokenSinkResult::SwitchTo(State::Plaintext),
            _ => TokenSinkResult::Continue,
        }
    }
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
            match run_case(&case.data, &SniffOptions::new()) {
                Ok(outcome) if outcome.encoding.name().eq_ignore_ascii_case(&case.expected) => {
                    file_passed += 1;
                    if outcome.restarted {
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
         and restarted: {}",
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
/// say Big5.
#[cfg(feature = "detect")]
fn chardet(passed: &mut usize, failures: &mut Vec<String>) {
    let path = Path::new(SUITE).join("chardet/test_big5.txt");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    match sniff(&bytes, &SniffOptions::new().detect(true)) {
        Ok(s) if s.encoding == encoding_rs::BIG5 && s.source == EncodingSource::Detection => {
            println!("encoding: chardet/test_big5.txt: detected Big5");
            *passed += 1;
        }
        Ok(s) => failures.push(format!(
            "chardet/test_big5.txt: expected Big5 by detection, got {} ({:?})",
            s.encoding.name(),
            s.source
        )),
        Err(e) => failures.push(format!("chardet/test_big5.txt: {e}")),
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
