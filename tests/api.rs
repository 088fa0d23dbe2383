//! Static guarantees of the public API.

use html_arena::{
    Document, EncodingError, ErrorCode, FragmentContextError, MutationError, ParseError,
    ParseOptions, Selector, SelectorError,
};

fn send_sync<T: Send + Sync>() {}
fn error<T: std::error::Error + Send + Sync + 'static>() {}

#[test]
fn documents_and_errors_can_cross_threads() {
    send_sync::<Document>();
    send_sync::<ParseOptions>();
    send_sync::<ParseError>();
    send_sync::<Selector>();
    error::<SelectorError>();
    error::<MutationError>();
    error::<FragmentContextError>();
    error::<EncodingError>();
}

#[test]
fn a_document_parsed_on_one_thread_is_read_on_others() {
    let doc = Document::parse("<ul><li>a<li>b<li>c</ul>");
    let texts: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..3).map(|_| s.spawn(|| doc.root().text())).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(texts.iter().all(|t| t == "abc"));
    let moved = std::thread::spawn(move || doc.body().unwrap().inner_html())
        .join()
        .unwrap();
    assert_eq!(moved, "<ul><li>a</li><li>b</li><li>c</li></ul>");
}

#[test]
fn error_codes_have_the_spec_strings() {
    assert_eq!(ErrorCode::EofBeforeTagName.as_str(), "eof-before-tag-name");
    let doc = Document::parse("<p>\u{1}</p>");
    let e = doc
        .errors()
        .iter()
        .find(|e| e.code == ErrorCode::ControlCharacterInInputStream)
        .unwrap();
    assert_eq!((e.line, e.column, e.offset), (1, 4, 3));
}

#[test]
fn error_collection_is_capped_and_can_be_off() {
    let hostile = "</x>".repeat(50_000);
    let doc = Document::parse(&hostile);
    assert_eq!(doc.errors().len(), ParseOptions::default().max_errors);
    assert!(doc.error_count() >= 50_000);
    let mut off = ParseOptions::default();
    off.collect_errors = false;
    let doc = Document::parse_with(&hostile, &off);
    assert!(doc.errors().is_empty());
    assert!(doc.error_count() >= 50_000);
}
