//! Bytes in: `Document::parse_bytes` and the byte-fed `Parser` (13.2.3): sniffing, decoding,
//! changing the encoding while parsing (13.2.3.4), and the errors of the options.

use encoding_rs::{Encoding, KOI8_R, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1251, WINDOWS_1252};
use html_arena::encoding::{EncodingOption, charset_from_content_type};
use html_arena::{Confidence, Document, EncodingError, ParseOptions, Parser};

/// Parses with the encoding choice of a browser (`with_browser_encoding(true)`): these tests
/// assert the standard's default (windows-1252) for input that declares nothing, which the
/// default options replace with detection (valid UTF-8 is UTF-8; see
/// `tests/encoding_default.rs`).
fn parse(bytes: &[u8]) -> Document {
    parse_with(bytes, &ParseOptions::default().with_browser_encoding(true))
}

/// Parses whole and in chunks of 1, 7 and 1000 bytes; all must agree (tree, errors, encoding,
/// confidence). Returns the whole parse.
fn parse_with(bytes: &[u8], options: &ParseOptions) -> Document {
    let whole = Document::parse_bytes(bytes, options).expect("valid options");
    for size in [1, 7, 1000] {
        let mut parser = Parser::new(options);
        // Bytes from the start, even for an empty input.
        parser.write(&[]).expect("valid options");
        for chunk in bytes.chunks(size) {
            parser.write(chunk).expect("valid options");
        }
        let streamed = parser.finish();
        assert_eq!(streamed.dump_tree(), whole.dump_tree(), "chunks of {size}");
        assert_eq!(streamed.errors(), whole.errors(), "chunks of {size}");
        assert_eq!(streamed.encoding(), whole.encoding(), "chunks of {size}");
        assert_eq!(
            streamed.encoding_confidence(),
            whole.encoding_confidence(),
            "chunks of {size}"
        );
    }
    whole
}

/// The decoded text of `bytes`: the source a document parsed with `options` keeps when asked.
fn source_of(bytes: &[u8], options: &ParseOptions) -> String {
    let options = options.clone().with_keep_source(true);
    let doc = Document::parse_bytes(bytes, &options).expect("valid options");
    let source = doc.source().expect("kept").to_owned();
    assert_eq!(doc.input_len(), source.len());
    // Not kept by default, but its length is known.
    let lean = Document::parse_bytes(bytes, &options.with_keep_source(false)).expect("valid");
    assert_eq!((lean.source(), lean.input_len()), (None, source.len()));
    source
}

fn encoding_and_confidence(doc: &Document) -> (&'static str, Confidence) {
    (doc.encoding().name(), doc.encoding_confidence())
}

fn body_text(doc: &Document) -> String {
    doc.body().map(|b| b.text()).unwrap_or_default()
}

/// `text` encoded with `encoding` (which must be able to encode it).
fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text:?} in {}", encoding.name());
    bytes.into_owned()
}

/// A document whose charset declaration comes after the first 1024 bytes: `before` (ASCII or
/// not), a 2000-byte comment, then `declaration`, then a paragraph of Russian in windows-1251.
fn late_declaration(before: &[u8], declaration: &str) -> Vec<u8> {
    let mut page = b"<!DOCTYPE html><html><head><title>".to_vec();
    page.extend_from_slice(before);
    page.extend_from_slice(b"</title><!--");
    page.extend(std::iter::repeat_n(b'-', 2000));
    page.extend_from_slice(b"-->");
    page.extend_from_slice(declaration.as_bytes());
    page.extend_from_slice(b"</head><body><p>");
    page.extend(encode("Привет, мир", WINDOWS_1251));
    page
}

#[test]
fn utf16_with_a_bom() {
    let text = "<!DOCTYPE html><meta charset=koi8-r><p>Grüße, 世界";
    for (encoding, bom) in [(UTF_16LE, &b"\xFF\xFE"[..]), (UTF_16BE, b"\xFE\xFF")] {
        let mut bytes = bom.to_vec();
        for unit in text.encode_utf16() {
            let pair = if encoding == UTF_16LE {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            };
            bytes.extend_from_slice(&pair);
        }
        let doc = parse(&bytes);
        // The BOM wins, and the <meta> cannot change UTF-16 (13.2.3.4 step 1; the confidence
        // is certain anyway).
        assert_eq!(
            encoding_and_confidence(&doc),
            (encoding.name(), Confidence::Certain)
        );
        assert_eq!(body_text(&doc), "Grüße, 世界");
        assert_eq!(
            source_of(&bytes, &ParseOptions::default().with_browser_encoding(true)),
            text,
            "the BOM is not part of the text"
        );
        // A transport-layer encoding does not beat the BOM either.
        let options = ParseOptions::default().with_transport_encoding("windows-1252");
        assert_eq!(parse_with(&bytes, &options).encoding(), encoding);
    }
    // And the UTF-8 BOM.
    let doc = parse("\u{FEFF}<meta charset=gbk><p>é".as_bytes());
    assert_eq!(
        encoding_and_confidence(&doc),
        ("UTF-8", Confidence::Certain)
    );
    assert_eq!(body_text(&doc), "é");
}

#[test]
fn a_meta_after_1024_bytes_changes_the_encoding() {
    // Something non-ASCII before the <meta>: the parse starts over (13.2.3.4 step 6). All
    // ASCII before it: the decoder may be switched on the fly (step 5). Same result.
    let non_ascii = encode("Заголовок", WINDOWS_1251);
    for before in [&non_ascii[..], b"Title"] {
        let page = late_declaration(before, "<meta charset=windows-1251>");
        let doc = parse(&page);
        assert_eq!(
            encoding_and_confidence(&doc),
            ("windows-1251", Confidence::Certain)
        );
        assert_eq!(body_text(&doc), "Привет, мир");
        // The document, errors included, is exactly that of the text decoded right.
        let (text, _) = WINDOWS_1251.decode_without_bom_handling(&page);
        let direct = Document::parse(&text);
        assert_eq!(doc.dump_tree(), direct.dump_tree());
        assert_eq!(doc.errors(), direct.errors());
        assert_eq!(doc.error_count(), direct.error_count());
        assert_eq!(
            source_of(&page, &ParseOptions::default().with_browser_encoding(true)),
            text
        );
    }
    let doc = parse(&late_declaration(&non_ascii, ""));
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1252", Confidence::Tentative)
    );
    assert_ne!(body_text(&doc), "Привет, мир");
}

#[test]
fn the_first_declaring_meta_wins_and_only_once() {
    // A <meta> without an encoding, or with an unknown label, leaves the confidence tentative;
    // the first one that declares an encoding settles it; later ones change nothing.
    let page = late_declaration(
        b"x",
        "<meta name=author content=x><meta charset=bogus><meta charset=windows-1251>\
         <meta charset=koi8-r>",
    );
    let doc = parse(&page);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1251", Confidence::Certain)
    );
    assert_eq!(body_text(&doc), "Привет, мир");
    // A page whose only declaration is an unknown label stays with the default, tentative.
    let doc = parse(&late_declaration(b"x", "<meta charset=bogus>"));
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1252", Confidence::Tentative)
    );
    // The same encoding as sniffed: certain, no change.
    let mut page = b"<meta charset=koi8-r>".to_vec();
    page.extend(encode("<p>Привет", KOI8_R));
    let doc = parse(&page);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("KOI8-R", Confidence::Certain)
    );
    assert_eq!(body_text(&doc), "Привет");
}

#[test]
fn a_meta_in_the_body_or_foreign_content_counts_too() {
    // "in body" (and "in template", "after head", ...) process a <meta> with the "in head"
    // rules; in <svg> it breaks out of foreign content.
    for declaration in [
        "<body><meta charset=windows-1251>",
        "<template><meta charset=windows-1251></template>",
        "<body><svg><meta charset=windows-1251></svg>",
        "<body><table><meta charset=windows-1251></table>",
        "<noscript><meta charset=windows-1251></noscript>",
    ] {
        let doc = parse(&late_declaration(b"x", declaration));
        assert_eq!(
            encoding_and_confidence(&doc),
            ("windows-1251", Confidence::Certain),
            "{declaration}"
        );
        assert!(body_text(&doc).contains("Привет, мир"), "{declaration}");
    }
    // Text that only looks like a <meta> is not one.
    for not_a_meta in [
        "<title><meta charset=windows-1251></title>",
        "<script>'<meta charset=windows-1251>'</script>",
        "<!-- <meta charset=windows-1251> -->",
        "<textarea><meta charset=windows-1251></textarea>",
    ] {
        let doc = parse(&late_declaration(b"x", not_a_meta));
        assert_eq!(
            encoding_and_confidence(&doc),
            ("windows-1252", Confidence::Tentative),
            "{not_a_meta}"
        );
    }
}

#[test]
fn a_meta_inside_a_comment_is_ignored() {
    let mut page = b"<!DOCTYPE html><!-- <meta charset=koi8-r> --><p>".to_vec();
    page.extend(encode("café", WINDOWS_1252));
    let doc = parse(&page);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1252", Confidence::Tentative)
    );
    assert_eq!(body_text(&doc), "café");
    // A real one after the comment counts.
    let mut page = b"<!-- <meta charset=windows-1252> --><meta charset=koi8-r><p>".to_vec();
    page.extend(encode("Привет", KOI8_R));
    let doc = parse(&page);
    assert_eq!(doc.encoding(), KOI8_R);
    assert_eq!(body_text(&doc), "Привет");
}

#[test]
fn charset_and_content_variants() {
    let declarations = [
        "<meta charset='windows-1251'>",
        "<meta charset=\"windows-1251\">",
        "<meta charset=windows-1251>",
        "<META CHARSET=' Windows-1251 '>",
        "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">",
        "<meta http-equiv='content-type' content='text/html;charset=\"windows-1251\"'>",
        "<meta content=\"text/html; charset='windows-1251'\" http-equiv=CONTENT-TYPE>",
        "<meta http-equiv=Content-Type content=text/html;charset=windows-1251>",
        "<meta charset=bogus http-equiv=content-type content='charset=windows-1251'>",
    ];
    for declaration in declarations {
        // In the first 1024 bytes (the prescan finds it) and after them (the tree builder
        // does).
        let mut early = declaration.as_bytes().to_vec();
        early.extend(encode("<p>Привет, мир", WINDOWS_1251));
        let late = late_declaration(b"x", declaration);
        for (page, confidence) in [(early, Confidence::Certain), (late, Confidence::Certain)] {
            let doc = parse(&page);
            assert_eq!(
                encoding_and_confidence(&doc),
                ("windows-1251", confidence),
                "{declaration}"
            );
            assert_eq!(body_text(&doc), "Привет, мир", "{declaration}");
        }
    }
    // Declarations that declare nothing.
    for declaration in [
        "<meta content='text/html; charset=windows-1251'>",
        "<meta http-equiv=refresh content='text/html; charset=windows-1251'>",
        "<meta http-equiv=content-type content='text/html; charset=\"windows-1251'>",
        "<meta name=charset content=windows-1251>",
    ] {
        let mut early = declaration.as_bytes().to_vec();
        early.extend(encode("<p>Привет", WINDOWS_1251));
        for page in [early, late_declaration(b"x", declaration)] {
            let doc = parse(&page);
            assert_eq!(
                encoding_and_confidence(&doc),
                ("windows-1252", Confidence::Tentative),
                "{declaration}"
            );
        }
    }
}

#[test]
fn declared_utf16_and_x_user_defined_are_adjusted() {
    // 13.2.3.4 steps 2 and 3 (and the prescan's same rule).
    for (declaration, expected) in [
        ("<meta charset=utf-16le>", "UTF-8"),
        ("<meta charset=utf-16be>", "UTF-8"),
        ("<meta charset=x-user-defined>", "windows-1252"),
    ] {
        let mut early = declaration.as_bytes().to_vec();
        early.extend_from_slice("<p>é".as_bytes());
        for page in [early, late_declaration(b"x", declaration)] {
            let doc = parse(&page);
            assert_eq!(
                encoding_and_confidence(&doc),
                (expected, Confidence::Certain),
                "{declaration}"
            );
        }
    }
}

#[test]
fn the_content_type_charset_wins_over_meta() {
    let mut page = b"<meta charset=koi8-r><p>".to_vec();
    page.extend(encode("Привет", WINDOWS_1251));
    let header = "text/html; charset=\"Windows-1251\"";
    let label = charset_from_content_type(header).expect("a charset");
    let options = ParseOptions::default().with_transport_encoding(label);
    let doc = parse_with(&page, &options);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1251", Confidence::Certain)
    );
    assert_eq!(body_text(&doc), "Привет");
    // Also against a <meta> past the prescan.
    let doc = parse_with(&late_declaration(b"x", "<meta charset=koi8-r>"), &options);
    assert_eq!(doc.encoding(), WINDOWS_1251);
    assert_eq!(body_text(&doc), "Привет, мир");
}

#[test]
fn the_user_override_and_the_fallback() {
    let page = late_declaration(b"x", "<meta charset=koi8-r>");
    // The override beats the transport layer and the page.
    let options = ParseOptions::default()
        .with_transport_encoding("koi8-r")
        .with_override_encoding("cp1251");
    let doc = parse_with(&page, &options);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1251", Confidence::Certain)
    );
    assert_eq!(body_text(&doc), "Привет, мир");
    // The fallback is used when nothing declares an encoding, tentatively (with the browser's
    // choice: by default, detection would come first)...
    let options = ParseOptions::default()
        .with_browser_encoding(true)
        .with_fallback_encoding("windows-1251");
    let doc = parse_with(&late_declaration(b"x", ""), &options);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1251", Confidence::Tentative)
    );
    assert_eq!(body_text(&doc), "Привет, мир");
    // ... so a <meta> still changes it.
    let doc = parse_with(&late_declaration(b"x", "<meta charset=koi8-r>"), &options);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("KOI8-R", Confidence::Certain)
    );
}

#[test]
fn the_windows_1256_bench_page() {
    let page = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench-corpus/gumbo-parser-001.html"
    ))
    .expect("the bench corpus is vendored");
    let doc = parse(&page);
    // The prescan finds its http-equiv <meta>; the tree builder's meets the same one and
    // makes the confidence certain (13.2.3.4 step 4).
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1256", Confidence::Certain)
    );
    let title = doc.head().and_then(|h| {
        h.as_node()
            .element_children()
            .find(|e| e.local_name() == "title")
    });
    assert_eq!(
        title.map(|t| t.text()).as_deref(),
        Some("Arabic newspapers Online - الصحف و الجرائد باللغة العربية")
    );
    assert!(body_text(&doc).contains("الجرائد"));
    assert!(
        !source_of(&page, &ParseOptions::default().with_browser_encoding(true))
            .contains('\u{FFFD}')
    );
}

#[test]
fn invalid_bytes_become_replacement_characters() {
    let page = b"<meta charset=utf-8><p>a\xFFb\xE2\x82c\xF0\x9F\x98\x80d\xC3";
    let doc = parse(page);
    assert_eq!(body_text(&doc), "a\u{FFFD}b\u{FFFD}c\u{1F600}d\u{FFFD}");
    // Shift_JIS with a lone lead byte, and a sequence split between chunks.
    let page = b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b\x81";
    let doc = parse(page);
    assert_eq!(body_text(&doc), "日本\u{FFFD}");
    let mut parser = Parser::new(&ParseOptions::default().with_transport_encoding("sjis"));
    for chunk in [&b"<p>\x93"[..], b"\xfa\x96", b"\x7b"] {
        parser.write(chunk).unwrap();
    }
    assert_eq!(body_text(&parser.finish()), "日本");
}

#[test]
fn the_replacement_encoding() {
    // "iso-2022-kr" names the replacement encoding: the whole input is one U+FFFD.
    let options = ParseOptions::default().with_transport_encoding("iso-2022-kr");
    let doc = parse_with(b"<p>hello<p>world", &options);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("replacement", Confidence::Certain)
    );
    assert_eq!(source_of(b"<p>hello<p>world", &options), "\u{FFFD}");
    assert_eq!(body_text(&doc), "\u{FFFD}");
    // Empty input decodes to nothing.
    assert_eq!(source_of(b"", &options), "");
    // Declared late in the page, it takes effect on the restart.
    let page = late_declaration(b"x", "<meta charset=iso-2022-kr>");
    let doc = parse(&page);
    assert_eq!(doc.encoding().name(), "replacement");
    assert_eq!(
        source_of(&page, &ParseOptions::default().with_browser_encoding(true)),
        "\u{FFFD}"
    );
}

#[test]
fn unknown_labels_in_the_options_are_errors() {
    let cases = [
        (
            ParseOptions::default().with_override_encoding("utf-7"),
            EncodingOption::UserOverride,
        ),
        (
            ParseOptions::default().with_transport_encoding("utf-7"),
            EncodingOption::Transport,
        ),
        (
            ParseOptions::default().with_fallback_encoding("utf-7"),
            EncodingOption::Fallback,
        ),
    ];
    for (options, option) in cases {
        let Err(err) = Document::parse_bytes(b"\xEF\xBB\xBF<p>", &options) else {
            panic!("{option:?}: no error");
        };
        assert!(
            matches!(&err, EncodingError::UnknownLabel { label, option: o } if label == "utf-7" && *o == option),
            "{err:?}"
        );
        assert!(err.to_string().contains("\"utf-7\""), "{err}");
        // The streaming parser says so at the first write, and every write after it.
        let mut parser = Parser::new(&options);
        assert_eq!(parser.write(b"<p>x"), Err(err.clone()));
        assert_eq!(parser.write(b"<p>y"), Err(err.clone()));
        let doc = parser.finish();
        assert_eq!(body_text(&doc), "", "nothing was parsed");
        // Text input has no use for the labels.
        let doc = Document::parse_with("<p>z", &options);
        assert_eq!(body_text(&doc), "z");
    }
    let err = Document::parse_bytes(b"", &ParseOptions::default().with_transport_encoding("x"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown encoding label \"x\" given as the transport-layer encoding"
    );
    // Labels are matched as the Encoding Standard says (case, surrounding whitespace).
    let options = ParseOptions::default().with_transport_encoding(" LATIN1\t");
    assert_eq!(parse_with(b"<p>", &options).encoding(), WINDOWS_1252);
}

#[test]
fn unknown_labels_in_the_page_are_ignored() {
    let doc = parse(b"<meta charset=bogus><meta charset=koi8-r><p>\xf0");
    assert_eq!(
        encoding_and_confidence(&doc),
        ("KOI8-R", Confidence::Certain)
    );
    let doc = parse(b"<meta charset=utf-7><p>\xe9");
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1252", Confidence::Tentative)
    );
    assert_eq!(body_text(&doc), "é");
}

#[test]
fn text_input_and_mixing() {
    // Text input: UTF-8, confidence irrelevant, whatever <meta> it has.
    let doc = Document::parse("<meta charset=koi8-r><p>é");
    assert_eq!(
        encoding_and_confidence(&doc),
        ("UTF-8", Confidence::Irrelevant)
    );
    assert_eq!(body_text(&doc), "é");
    let mut parser = Parser::new(&ParseOptions::default());
    parser.write_str("<meta charset=koi8-r><p>é");
    let doc = parser.finish();
    assert_eq!(
        encoding_and_confidence(&doc),
        ("UTF-8", Confidence::Irrelevant)
    );
    // Bytes after text are UTF-8, even split, and text after them goes through the decoder.
    let mut parser = Parser::new(&ParseOptions::default());
    parser.write_str("<p>a");
    parser.write(b"\xC3").unwrap();
    parser.write(b"\xA9").unwrap();
    parser.write(b"\xE2\x82").unwrap();
    parser.write_str("b");
    let doc = parser.finish();
    assert_eq!(body_text(&doc), "aé\u{FFFD}b");
    assert_eq!(doc.encoding(), UTF_8);
    // Text after bytes is written as its UTF-8 bytes.
    let mut parser = Parser::new(&ParseOptions::default());
    parser.write(b"<meta charset=utf-8><p>").unwrap();
    parser.write_str("Grüße");
    let doc = parser.finish();
    assert_eq!(
        encoding_and_confidence(&doc),
        ("UTF-8", Confidence::Certain)
    );
    assert_eq!(body_text(&doc), "Grüße");
    // A parser given nothing: an empty text document. Given zero bytes: an empty byte one.
    let doc = Parser::new(&ParseOptions::default()).finish();
    assert_eq!(doc.encoding_confidence(), Confidence::Irrelevant);
    let mut parser = Parser::new(&ParseOptions::default());
    parser.write(b"").unwrap();
    let doc = parser.finish();
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1252", Confidence::Tentative)
    );
    // A fragment parser takes bytes as UTF-8.
    let mut parser = Parser::new_fragment("p", &ParseOptions::default()).unwrap();
    parser.write("<b>é</b>".as_bytes()).unwrap();
    let frag = parser.finish();
    assert_eq!(frag.root().text(), "é");
    assert_eq!(frag.encoding_confidence(), Confidence::Irrelevant);
}

#[test]
fn sniffing_waits_for_1024_bytes() {
    // A <meta> within the first 1024 bytes is found by the prescan even when the bytes come one
    // at a time, so nothing is parsed twice and the answer is the whole input's.
    let mut page = b"<!DOCTYPE html><title>".to_vec();
    page.extend(encode("Заголовок", WINDOWS_1251));
    page.extend_from_slice(b"</title>");
    page.resize(1000, b' ');
    page.extend_from_slice(b"<meta charset=windows-1251>");
    assert!(page.len() < 1024 + 27 && page.len() > 1024);
    // The declaration straddles the 1024th byte: the prescan cannot see it whole, the tree
    // builder can.
    let doc = parse(&page);
    assert_eq!(
        encoding_and_confidence(&doc),
        ("windows-1251", Confidence::Certain)
    );
    assert_eq!(
        doc.head()
            .map(|h| h.text().trim_end().to_owned())
            .as_deref(),
        Some("Заголовок")
    );
    // Short inputs are sniffed at the end.
    let doc = parse(b"<meta charset=koi8-r>\xf0");
    assert_eq!(doc.encoding(), KOI8_R);
}

#[test]
fn errors_have_positions_in_the_decoded_text() {
    let mut page = b"<meta charset=utf-8>".to_vec();
    page.extend_from_slice("<p>Grüße\n</i>".as_bytes());
    let doc = parse(&page);
    let errors: Vec<_> = doc
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.line, e.column))
        .collect();
    assert_eq!(
        errors,
        [("missing-doctype", 1, 1), ("unexpected-end-tag", 2, 1)]
    );
}
