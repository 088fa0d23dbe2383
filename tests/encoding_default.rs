//! The encoding of byte input that declares none (13.2.3.2 step 8, "autodetect"), by default
//! and with the browser's choice (`ParseOptions::with_browser_encoding(true)`).
//!
//! Default: no BOM, no option and no `<meta>` in the first 1024 bytes, and the bytes are valid
//! UTF-8 → UTF-8; other non-ASCII bytes → chardetng's guess; all ASCII → the fallback
//! (windows-1252). The browser's choice: the fallback, always. The confidence stays tentative
//! either way, so a later `<meta>` still changes the encoding. Every case is also parsed by a
//! streaming `Parser` in chunks, which must give the same document.

#[cfg(feature = "detect")]
use encoding_rs::WINDOWS_1251;
use encoding_rs::{Encoding, KOI8_R, SHIFT_JIS, UTF_8, WINDOWS_1252};
use html_arena::{Confidence, Document, ParseOptions, Parser};

fn browser() -> ParseOptions {
    ParseOptions::default().with_browser_encoding(true)
}

/// Parses whole, then in chunks of 1, 7, 1000 and 1024 bytes and cut at 1023 / 1025; every
/// streamed parse must give the whole parse's tree, errors, encoding and confidence.
fn parse(bytes: &[u8], options: &ParseOptions) -> Document {
    let whole = Document::parse_bytes(bytes, options).expect("valid options");
    let mut chunkings: Vec<Vec<&[u8]>> = [1, 7, 1000, 1024]
        .iter()
        .map(|&size| bytes.chunks(size).collect())
        .collect();
    for cut in [1023, 1025] {
        let (a, b) = bytes.split_at(cut.min(bytes.len()));
        chunkings.push(vec![a, b]);
    }
    for chunks in chunkings {
        let mut parser = Parser::new(options);
        for chunk in &chunks {
            parser.write(chunk).expect("valid options");
        }
        let streamed = parser.finish();
        let size = chunks.first().map_or(0, |c| c.len());
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

fn outcome(doc: &Document) -> (&'static Encoding, Confidence) {
    (doc.encoding(), doc.encoding_confidence())
}

fn body_text(doc: &Document) -> String {
    doc.body().map(|b| b.text()).unwrap_or_default()
}

#[cfg(feature = "detect")]
fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text} in {}", encoding.name());
    bytes.into_owned()
}

/// A page with `head` (ASCII markup), then 1,100 bytes of ASCII so that nothing after it is
/// seen by the prescan, then `tail`.
fn late(head: &str, tail: &[u8]) -> Vec<u8> {
    let mut page = format!("<!DOCTYPE html>{head}<title>{}</title>", "x".repeat(1100)).into_bytes();
    page.extend_from_slice(tail);
    page
}

const TEXT: &str = "Grüße – “café” naïve 日本語";

#[test]
fn undeclared_valid_utf8_is_utf8_by_default() {
    let page = format!("<!DOCTYPE html><title>t</title><p>{TEXT}");
    let doc = parse(page.as_bytes(), &ParseOptions::default());
    assert_eq!(outcome(&doc), (UTF_8, Confidence::Tentative));
    assert_eq!(body_text(&doc), TEXT);
    // The document is the text's.
    assert_eq!(doc.dump_tree(), Document::parse(&page).dump_tree());
}

#[test]
fn the_browser_choice_is_windows_1252_even_for_utf8() {
    let page = format!("<!DOCTYPE html><title>t</title><p>{TEXT}");
    let doc = parse(page.as_bytes(), &browser());
    assert_eq!(outcome(&doc), (WINDOWS_1252, Confidence::Tentative));
    // The mojibake a browser shows.
    let (expected, _) = WINDOWS_1252.decode_without_bom_handling(TEXT.as_bytes());
    assert_eq!(body_text(&doc), expected);
    assert!(body_text(&doc).starts_with("GrÃ¼ÃŸe â€“"));
    // `with_detect_encoding(false)` is the same thing; and a locale's default is honoured.
    let same = ParseOptions::default().with_detect_encoding(false);
    assert_eq!(outcome(&parse(page.as_bytes(), &same)).0, WINDOWS_1252);
    let japanese = browser().with_fallback_encoding("shift_jis");
    assert_eq!(outcome(&parse(page.as_bytes(), &japanese)).0, SHIFT_JIS);
}

#[test]
fn utf8_found_far_from_the_start() {
    // All ASCII in the first 1024 bytes, UTF-8 later: the whole input decides, also when
    // streamed (the parser waits for the end of undeclared input).
    let page = late("", format!("<p>{TEXT}").as_bytes());
    let doc = parse(&page, &ParseOptions::default());
    assert_eq!(outcome(&doc), (UTF_8, Confidence::Tentative));
    assert_eq!(body_text(&doc), TEXT);
    assert_eq!(outcome(&parse(&page, &browser())).0, WINDOWS_1252);
}

#[test]
fn one_invalid_sequence_and_it_is_not_utf8() {
    // Valid UTF-8 for 1,100 bytes, then a windows-1252 "é": not UTF-8.
    let mut tail = format!("<p>{TEXT}").into_bytes();
    tail.extend_from_slice(b" caf\xe9");
    let doc = parse(&late("", &tail), &ParseOptions::default());
    assert_ne!(doc.encoding(), UTF_8);
    assert_eq!(doc.encoding_confidence(), Confidence::Tentative);
}

#[test]
fn all_ascii_gets_the_fallback() {
    let page = b"<!DOCTYPE html><p>plain &amp; simple";
    for options in [ParseOptions::default(), browser()] {
        let doc = parse(page, &options);
        assert_eq!(outcome(&doc), (WINDOWS_1252, Confidence::Tentative));
        assert_eq!(body_text(&doc), "plain & simple");
        let doc = parse(page, &options.with_fallback_encoding("koi8-r"));
        assert_eq!(outcome(&doc), (KOI8_R, Confidence::Tentative));
    }
}

#[cfg(feature = "detect")]
#[test]
fn legacy_encodings_are_detected() {
    let russian = "<p>Съешь же ещё этих мягких французских булок, да выпей же чаю.".repeat(3);
    let japanese =
        "<p>日本語の文章は、漢字と平仮名と片仮名で書かれています。東京都の天気は晴れです。"
            .repeat(3);
    for (text, encoding) in [(&russian, WINDOWS_1251), (&japanese, SHIFT_JIS)] {
        let page = encode(text, encoding);
        let doc = parse(&page, &ParseOptions::default());
        assert_eq!(outcome(&doc), (encoding, Confidence::Tentative));
        assert_eq!(body_text(&doc), text.replace("<p>", ""));
        // A browser: windows-1252.
        assert_eq!(outcome(&parse(&page, &browser())).0, WINDOWS_1252);
    }
}

#[test]
fn declarations_win_over_detection() {
    let text = format!("<p>{TEXT}");
    // A <meta> in the first 1024 bytes (tentative: the prescan's).
    let mut page = b"<meta charset=windows-1252>".to_vec();
    page.extend_from_slice(text.as_bytes());
    assert_eq!(
        outcome(&parse(&page, &ParseOptions::default())),
        (WINDOWS_1252, Confidence::Certain)
    );
    // The transport layer's and the user's: certain.
    let http = ParseOptions::default().with_transport_encoding("koi8-r");
    assert_eq!(
        outcome(&parse(text.as_bytes(), &http)),
        (KOI8_R, Confidence::Certain)
    );
    let user = ParseOptions::default().with_override_encoding("koi8-r");
    assert_eq!(outcome(&parse(text.as_bytes(), &user)).0, KOI8_R);
    // A BOM.
    let mut page = b"\xEF\xBB\xBF".to_vec();
    page.extend_from_slice(text.as_bytes());
    assert_eq!(
        outcome(&parse(&page, &browser())),
        (UTF_8, Confidence::Certain)
    );
}

#[test]
fn a_late_meta_still_changes_a_detected_encoding() {
    // Detected as UTF-8 (tentative), then a <meta> past the prescan names KOI8-R: the
    // encoding is changed (13.2.3.4), and the page parsed again as KOI8-R, certain.
    let mut tail = b"<meta charset=koi8-r><p>".to_vec();
    tail.extend_from_slice(TEXT.as_bytes());
    let page = late("", &tail);
    let doc = parse(&page, &ParseOptions::default());
    assert_eq!(outcome(&doc), (KOI8_R, Confidence::Certain));
    let (expected, _) = KOI8_R.decode_without_bom_handling(TEXT.as_bytes());
    assert_eq!(body_text(&doc), expected);
    // A late <meta> naming UTF-8 makes the detected UTF-8 certain.
    let mut tail = b"<meta charset=utf-8><p>".to_vec();
    tail.extend_from_slice(TEXT.as_bytes());
    let page = late("", &tail);
    let doc = parse(&page, &ParseOptions::default());
    assert_eq!(outcome(&doc), (UTF_8, Confidence::Certain));
    assert_eq!(body_text(&doc), TEXT);
    // With the browser's choice it is the late <meta> that gets the text right.
    assert_eq!(
        outcome(&parse(&page, &browser())),
        (UTF_8, Confidence::Certain)
    );
}

/// Real pages that declare nothing and are valid UTF-8 (vendored in `tests/data/bench-corpus`).
#[test]
fn real_undeclared_utf8_pages() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-corpus");
    for name in ["goquery-003.html", "parse5-001.html"] {
        let bytes = std::fs::read(dir.join(name)).expect("the bench corpus is vendored");
        let text = std::str::from_utf8(&bytes).expect("the page is valid UTF-8");
        assert!(!text.is_ascii(), "{name}");
        let kept = ParseOptions::default().with_keep_source(true);
        let doc = Document::parse_bytes(&bytes, &kept).expect("valid");
        assert_eq!(outcome(&doc), (UTF_8, Confidence::Tentative), "{name}");
        assert_eq!(doc.source(), Some(text), "{name}");
        let doc = Document::parse_bytes(&bytes, &browser().with_keep_source(true)).expect("valid");
        assert_eq!(doc.encoding(), WINDOWS_1252, "{name}");
        assert_ne!(doc.source(), Some(text), "{name}");
        // Streamed in 4 KiB chunks: the same.
        let mut parser = Parser::new(&kept);
        for chunk in bytes.chunks(4096) {
            parser.write(chunk).expect("valid");
        }
        assert_eq!(parser.finish().source(), Some(text), "{name}");
    }
}

/// Issue 28, item 3, "one default decoding in every path": one undeclared UTF-8 page and one
/// undeclared windows-1252 page (long enough for detection to be sure) through every Rust
/// entry point that takes bytes: `Document::parse_bytes`, `Parser::write` in chunks,
/// `ScriptingParser::write` whole and in chunks (its script's `document.write("日")` done
/// through the API), and the `html-arena` command. Each gives the same encoding and text as
/// `parse_bytes` with default options (UTF-8, resp. windows-1252, by detection), and the
/// browser's choice (`with_browser_encoding`, `--browser-encoding`) gives windows-1252 in every
/// path. (The `tree` and `query` examples call these entry points with the same defaults;
/// `tree --run-scripts` no longer forces the browser's choice.)
#[test]
// (Detection picks windows-1252 for the long latin page; the command needs `url`.)
#[cfg(all(feature = "detect", feature = "url"))]
fn one_default_decoding_in_every_path() {
    use html_arena::{ParserEvent, ScriptingParser};
    let utf8_text = "café 日本 — naïve señor, déjà vu; Größe straße".repeat(4);
    let latin_text = "Café crème brûlée à la façon de l'hôtel — déjà vu, naïve señor".repeat(4);
    let utf8_page =
        format!("<p>{utf8_text}</p><script>document.write(\"<i>日</i>\")</script>").into_bytes();
    let latin_page = encode(
        &format!("<p>{latin_text}</p><script>document.write(\"<i>é</i>\")</script>"),
        WINDOWS_1252,
    );
    // The issue's page, short (detection reads it all at the end of the input).
    let short_page = "<p>café 日本</p><script>document.write(\"<i>日</i>\")</script>"
        .as_bytes()
        .to_vec();
    let cases = [
        (&short_page, UTF_8, "café 日本".to_string(), "日"),
        (&utf8_page, UTF_8, utf8_text, "日"),
        (&latin_page, WINDOWS_1252, latin_text, "é"),
    ];
    let text_of = |doc: &Document, selector: &str| {
        let sel = html_arena::Selector::parse(selector).unwrap();
        doc.select(&sel)
            .next()
            .map(|p| p.text())
            .unwrap_or_default()
    };
    let p_text = |doc: &Document| text_of(doc, "p");
    // The ScriptingParser, fed in chunks of `size`, writing `written` for the script.
    let scripted = |bytes: &[u8], size: usize, written: &str, options: &ParseOptions| {
        let mut parser = ScriptingParser::new(options);
        let mut chunks = bytes.chunks(size);
        loop {
            match parser.run().unwrap() {
                ParserEvent::Script(_) => {
                    parser.document_write(&format!("<i>{written}</i>")).unwrap();
                }
                ParserEvent::NeedInput => match chunks.next() {
                    Some(chunk) => parser.write(chunk).unwrap(),
                    None => parser.end(),
                },
                ParserEvent::Done => break,
                _ => {}
            }
        }
        parser.finish()
    };
    let cli = |bytes: &[u8], extra: &[&str]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_html-arena"))
            .args(extra.iter().chain(&["-t", "p"]))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), bytes).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    for (page, encoding, text, written) in cases {
        let default = ParseOptions::default();
        let whole = Document::parse_bytes(page, &default).unwrap();
        assert_eq!(whole.encoding(), encoding);
        assert_eq!(p_text(&whole), text);
        // Parser::write in chunks (the `parse` helper checks 1, 7, 1000, 1024 and cuts).
        assert_eq!(parse(page, &default).encoding(), encoding);
        for size in [1, 7, 1024, page.len()] {
            let doc = scripted(page, size, written, &default);
            assert_eq!(
                doc.encoding(),
                encoding,
                "ScriptingParser, chunks of {size}"
            );
            assert_eq!(p_text(&doc), text, "ScriptingParser, chunks of {size}");
            assert_eq!(
                text_of(&doc, "i"),
                written,
                "ScriptingParser, chunks of {size}"
            );
            let doc = scripted(page, size, written, &browser());
            assert_eq!(doc.encoding(), WINDOWS_1252, "browser, chunks of {size}");
        }
        assert_eq!(cli(page, &[]), format!("{text}\n"));
        let browser_text = WINDOWS_1252.decode_without_bom_handling(page).0;
        let browser_doc = Document::parse(&browser_text);
        assert_eq!(
            cli(page, &["--browser-encoding"]),
            format!("{}\n", p_text(&browser_doc))
        );
    }
}
