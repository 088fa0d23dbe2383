//! Any chunking gives the same document: every tree-construction test input
//! (`tests/data/html5lib-tests*/tree-construction/**/*.dat`) and every bench-corpus page,
//! written to a streaming `Parser` in random pieces, as bytes and as text, gives the tree,
//! errors, encoding and confidence of the one-shot call (`Document::parse_bytes`,
//! `Document::parse`).
//!
//! Byte chunks split anywhere, inside multi-byte sequences included. The splits are
//! pseudo-random with fixed seeds, so a failure reproduces. Run with `--nocapture` to see the
//! counts.
//!
//! Everything must be identical: the tree, every error (code and position), the decoded
//! text, the encoding and the confidence.
//!
//! Both ways of choosing an encoding for undeclared input are checked: the default (detection:
//! valid UTF-8 is UTF-8; the streaming parser waits for the end of undeclared input) and the
//! browser's (`with_browser_encoding(true)`: windows-1252, so pages that declare UTF-8 only
//! after their first 1024 bytes are parsed again while streaming, the path this test was
//! written for).

mod common;

use common::{Rng, str_chunks};
use std::path::{Path, PathBuf};

use html_arena::{Confidence, Document, ParseError, ParseOptions, Parser};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// A chunk length: mostly small, sometimes up to `max`.
fn chunk_len(rng: &mut Rng, max: usize) -> usize {
    let max = max.max(1);
    if rng.below(4) == 0 {
        1 + rng.below(max)
    } else {
        1 + rng.below(max.min(16))
    }
}

/// What must not depend on the chunking.
#[derive(PartialEq, Debug)]
struct Outcome {
    tree: String,
    errors: Vec<ParseError>,
    /// How many errors were found but not kept.
    not_kept: usize,
    encoding: &'static str,
    confidence: Confidence,
    /// The decoded input (when the options keep it) and its length.
    source: Option<String>,
    input_len: usize,
}

impl Outcome {
    fn of(doc: &Document) -> Outcome {
        Outcome {
            tree: doc.dump_tree(),
            errors: doc.errors().to_vec(),
            not_kept: doc.error_count() - doc.errors().len(),
            encoding: doc.encoding().name(),
            confidence: doc.encoding_confidence(),
            source: doc.source().map(str::to_owned),
            input_len: doc.input_len(),
        }
    }
}

/// Counts of chunked parses.
#[derive(Default)]
struct Counts {
    /// Chunked parses compared.
    parses: usize,
}

impl Counts {
    fn add(&mut self, _whole: &Document, _streamed: &Document) {
        self.parses += 1;
    }
}

fn write_bytes(bytes: &[u8], options: &ParseOptions, rng: &mut Rng, max: usize) -> Document {
    let mut parser = Parser::new(options);
    parser.write(&[]).expect("valid options");
    let mut rest = bytes;
    while !rest.is_empty() {
        let (chunk, tail) = rest.split_at(chunk_len(rng, max).min(rest.len()));
        parser.write(chunk).expect("valid options");
        rest = tail;
    }
    parser.finish()
}

fn write_text(text: &str, options: &ParseOptions, rng: &mut Rng, max: usize) -> Document {
    let mut parser = Parser::new(options);
    str_chunks(
        text,
        || chunk_len(rng, max),
        |chunk| parser.write_str(chunk),
    );
    parser.finish()
}

/// Checks one input: bytes (`splits` random chunkings into pieces of up to `max` bytes) and
/// text (as many).
fn check(
    options: &ParseOptions,
    counts: &mut Counts,
    label: &str,
    (bytes, text): (&[u8], &str),
    seed: u64,
    (splits, max): (usize, usize),
) {
    let whole_doc = Document::parse_bytes(bytes, options).expect("valid options");
    let whole = Outcome::of(&whole_doc);
    let whole_text_doc = Document::parse_with(text, options);
    let whole_text = Outcome::of(&whole_text_doc);
    let mut rng = Rng::new(seed);
    for split in 0..splits {
        let streamed_doc = write_bytes(bytes, options, &mut rng, max);
        let streamed = Outcome::of(&streamed_doc);
        assert!(
            streamed == whole,
            "{label}: bytes, chunking {split} differs:\n{}",
            first_difference(&whole, &streamed)
        );
        counts.add(&whole_doc, &streamed_doc);
        let streamed_doc = write_text(text, options, &mut rng, max);
        let streamed = Outcome::of(&streamed_doc);
        assert!(
            streamed == whole_text,
            "{label}: text, chunking {split} differs:\n{}",
            first_difference(&whole_text, &streamed)
        );
        counts.add(&whole_text_doc, &streamed_doc);
    }
}

/// The decoded text of `bytes` with `options`.
fn kept_source(bytes: &[u8], options: &ParseOptions) -> String {
    let options = options.clone().with_keep_source(true);
    let doc = Document::parse_bytes(bytes, &options).expect("valid");
    doc.source().expect("kept").to_owned()
}

fn first_difference(a: &Outcome, b: &Outcome) -> String {
    if (a.encoding, a.confidence) != (b.encoding, b.confidence) {
        return format!(
            "encoding {} {} vs {} {}",
            a.encoding, a.confidence, b.encoding, b.confidence
        );
    }
    if (&a.source, a.input_len) != (&b.source, b.input_len) {
        return "decoded text differs".into();
    }
    if a.tree != b.tree {
        let line = a
            .tree
            .lines()
            .zip(b.tree.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        return format!(
            "tree differs at line {line}: {:?} vs {:?}",
            a.tree.lines().nth(line),
            b.tree.lines().nth(line)
        );
    }
    let at = a
        .errors
        .iter()
        .zip(&b.errors)
        .position(|(x, y)| x != y)
        .unwrap_or(a.errors.len().min(b.errors.len()));
    format!(
        "errors differ at #{at}: {:?} vs {:?} ({} and {} errors)",
        a.errors.get(at).map(ToString::to_string),
        b.errors.get(at).map(ToString::to_string),
        a.errors.len(),
        b.errors.len()
    )
}

/// Every `.dat` file under `dir`, in a stable order.
fn dat_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            dat_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "dat") {
            out.push(path);
        }
    }
}

/// The `#data` sections of a tree-construction `.dat` file.
fn inputs(path: &Path) -> Vec<String> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut inputs = Vec::new();
    let mut lines = text.split('\n');
    while let Some(line) = lines.next() {
        if line != "#data" {
            continue;
        }
        let mut data = Vec::new();
        for line in lines.by_ref() {
            if line == "#errors" {
                break;
            }
            data.push(line);
        }
        inputs.push(data.join("\n"));
    }
    inputs
}

#[test]
fn tree_construction_inputs_in_any_chunks() {
    let mut files = Vec::new();
    dat_files(
        &data_dir().join("html5lib-tests/tree-construction"),
        &mut files,
    );
    let updates = data_dir().join("html5lib-tests-updates/tree-construction");
    if updates.is_dir() {
        dat_files(&updates, &mut files);
    }
    let mut cases = 0;
    let mut counts = Counts::default();
    let mut utf8_same = 0;
    for path in &files {
        for (index, input) in inputs(path).iter().enumerate() {
            let label = format!("{}#{index}", path.display());
            let seed = (cases as u64) << 8 | index as u64;
            // Random pieces of up to 48 bytes (inputs are short), three ways each.
            let options = ParseOptions::default();
            check(
                &options,
                &mut counts,
                &label,
                (input.as_bytes(), input),
                seed,
                (2, 48),
            );
            // (A lean document: errors positioned chunk by chunk.)
            let browser = ParseOptions::default()
                .with_browser_encoding(true)
                .with_keep_source(false);
            check(
                &browser,
                &mut counts,
                &label,
                (input.as_bytes(), input),
                seed,
                (1, 48),
            );
            cases += 1;
            // The same bytes with UTF-8 as the fallback: when no <meta> changes it, the
            // document is exactly the text's.
            let options = ParseOptions::default().with_fallback_encoding("utf-8");
            let doc = Document::parse_bytes(input.as_bytes(), &options).expect("valid options");
            if doc.encoding() == encoding_rs::UTF_8 {
                let text = Document::parse(input);
                assert_eq!(doc.dump_tree(), text.dump_tree(), "{label}");
                assert_eq!(doc.errors(), text.errors(), "{label}");
                utf8_same += 1;
            }
        }
    }
    println!(
        "chunking: {cases} tree-construction inputs from {} files, {} chunked parses (bytes \
         and text) identical to the one-shot parse; {utf8_same} byte parses with a UTF-8 \
         fallback identical to the text parse",
        files.len(),
        counts.parses,
    );
    assert!(files.len() >= 60, "{} .dat files", files.len());
    assert!(cases >= 1500, "{cases} inputs");
    assert!(utf8_same >= cases * 9 / 10, "{utf8_same} of {cases}");
}

#[test]
fn bench_corpus_pages_in_any_chunks() {
    let dir = data_dir().join("bench-corpus");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    let mut counts = Counts::default();
    let mut restarted = Vec::new();
    // The browser's encoding choice: undeclared pages are windows-1252 until a late <meta>
    // says otherwise, which makes the streaming parser start over. The default (detection)
    // makes it wait for the end of undeclared input instead.
    // (One kept source, one lean parse: both must not depend on the chunking.)
    let browser = ParseOptions::default().with_browser_encoding(true);
    let default = ParseOptions::default().with_keep_source(false);
    let mut detected = Vec::new();
    for (index, path) in pages.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let doc = Document::parse_bytes(&bytes, &browser).expect("valid");
        let sniffed =
            html_arena::encoding::sniff(&bytes, &html_arena::encoding::SniffOptions::browser())
                .expect("valid");
        if sniffed.encoding != doc.encoding() {
            restarted.push(path.file_name().unwrap_or_default().to_string_lossy());
        }
        let default_doc = Document::parse_bytes(&bytes, &default).expect("valid");
        if default_doc.encoding() != doc.encoding() {
            detected.push(path.file_name().unwrap_or_default().to_string_lossy());
        }
        let text = kept_source(&bytes, &browser);
        let label = path.display().to_string();
        // Small pieces (splitting every tag and character), then pieces up to 8 KiB.
        let seed = index as u64;
        check(
            &browser,
            &mut counts,
            &label,
            (&bytes, &text),
            seed,
            (1, 64),
        );
        check(
            &browser,
            &mut counts,
            &label,
            (&bytes, &text),
            1000 + seed,
            (1, 8192),
        );
        let text = kept_source(&bytes, &default);
        check(
            &default,
            &mut counts,
            &label,
            (&bytes, &text),
            2000 + seed,
            (1, 8192),
        );
        // Cuts right around the sniffing limit.
        for cut in [1, 1023, 1024, 1025, 4096] {
            let cut = cut.min(bytes.len());
            for (options, doc) in [(&browser, &doc), (&default, &default_doc)] {
                let mut parser = Parser::new(options);
                parser.write(&bytes[..cut]).expect("valid");
                parser.write(&bytes[cut..]).expect("valid");
                let streamed = parser.finish();
                assert!(
                    Outcome::of(&streamed) == Outcome::of(doc),
                    "{label}: cut {cut}"
                );
                counts.add(doc, &streamed);
            }
        }
    }
    // Two vendored pages declare nothing and are valid UTF-8 (goquery-003, parse5-001):
    // UTF-8 by default, windows-1252 for a browser.
    println!("chunking: detection chose another encoding than the browser's for {detected:?}");
    assert!(detected.len() >= 2, "{detected:?}");
    println!(
        "chunking: {} bench-corpus pages, {} chunked parses (bytes and text) identical to the \
         one-shot parse; the encoding changed while parsing for {}",
        pages.len(),
        counts.parses,
        restarted.join(", ")
    );
    assert!(pages.len() >= 10);
    // Several pages declare UTF-8 after their first 1024 bytes.
    assert!(restarted.len() >= 3, "{restarted:?}");
}
