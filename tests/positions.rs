//! Source positions: every span points at the markup of its node.

use html_arena::{Document, NodeKind, ParseOptions};

fn options() -> ParseOptions {
    let mut o = ParseOptions::default();
    o.source_positions = true;
    o
}

/// 1-based (line, column in UTF-16 units) of `offset`, counted naively.
fn naive_line_col(source: &str, offset: usize) -> (u32, u32) {
    let before = &source[..offset];
    let normalized = before.replace("\r\n", "\n").replace('\r', "\n");
    let line = normalized.matches('\n').count() as u32 + 1;
    let last = normalized.rsplit('\n').next().unwrap_or("");
    (line, last.encode_utf16().count() as u32 + 1)
}

#[test]
fn spans_point_at_their_markup_on_real_pages() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-corpus");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let doc = Document::parse_bytes(&std::fs::read(&path).unwrap(), &options()).unwrap();
        let source = doc.source().expect("positions keep the source");
        let lower = |s: &str| s.to_ascii_lowercase();
        for node in doc.root().descendants() {
            let Some(span) = node.source_span() else {
                continue;
            };
            let markup = &source[span.start..span.end];
            // Line and column agree with a naive count (checked on a sample: it is slow).
            if checked % 97 == 0 {
                assert_eq!(
                    (span.line, span.column),
                    naive_line_col(source, span.start),
                    "{}",
                    path.display()
                );
            }
            match node.kind() {
                NodeKind::Element(e) => {
                    assert!(
                        markup.starts_with('<') && markup.ends_with('>'),
                        "{markup:?}"
                    );
                    assert!(
                        lower(&markup[1..]).starts_with(&lower(e.local_name())),
                        "{markup:?} for {}",
                        e.local_name()
                    );
                    if let Some(end) = e.end_tag_span() {
                        let end_markup = lower(&source[end.start..end.end]);
                        assert!(
                            end_markup.starts_with(&format!("</{}", lower(e.local_name()))),
                            "{end_markup:?}"
                        );
                        assert!(end.start >= span.end);
                    }
                }
                NodeKind::Comment(_) => assert!(
                    markup.starts_with("<!")
                        || markup.starts_with("</")
                        || markup.starts_with("<?"),
                    "{markup:?}"
                ),
                NodeKind::Text(t) => {
                    // A text span runs from its first character's markup to its last one's
                    // (text the parser moved, like whitespace after </body>, can widen it).
                    assert!(span.start < span.end);
                    if !markup.starts_with(['&', '\r', '\0']) {
                        assert_eq!(
                            markup.chars().next(),
                            t.chars().next(),
                            "{markup:?} vs {t:?}"
                        );
                    }
                }
                _ => {}
            }
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn implied_and_created_nodes_have_no_span() {
    let mut doc = Document::parse_with("<p>x</p>", &options());
    let html = doc.document_element().unwrap();
    assert!(html.source_span().is_none(), "the html element was implied");
    let p = doc.body().unwrap().first_child().unwrap().node_id();
    assert!(doc.node(p).unwrap().source_span().is_some());
    // A removed node's slot reused by a new node does not pass its span on.
    doc.remove(p).unwrap();
    let fresh = doc.new_element("div").unwrap();
    assert!(doc.node(fresh).unwrap().source_span().is_none());
}

#[test]
fn end_tags_and_text_spans() {
    let html = "<div>a &amp; b<br>\r\n<b>bold</div><!--c-->";
    let doc = Document::parse_with(html, &options());
    let div = doc
        .body()
        .unwrap()
        .first_child()
        .unwrap()
        .as_element()
        .unwrap();
    assert_eq!(
        div.end_tag_span().map(|s| &html[s.start..s.end]),
        Some("</div>")
    );
    let text = div.first_child().unwrap();
    let span = text.source_span().unwrap();
    assert_eq!(&html[span.start..span.end], "a &amp; b");
    // <b> is closed implicitly by </div>: no end tag.
    let b = div
        .children()
        .find_map(|n| n.as_element().filter(|e| e.local_name() == "b"))
        .unwrap();
    assert!(b.end_tag_span().is_none());
    let b_span = b.source_span().unwrap();
    assert_eq!((b_span.line, b_span.column), (2, 1));
    // Without the option, no spans.
    assert!(
        Document::parse(html)
            .body()
            .unwrap()
            .source_span()
            .is_none()
    );
}
