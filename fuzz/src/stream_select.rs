//! The check of the `stream_select` target: selecting while parsing (`html_arena::stream`)
//! gives exactly what a full parse's `select` gives (same elements, same order, same
//! serialization), for any input and chunking, for each of a set of selectors streaming
//! accepts. Kept apart from `checks.rs`; `tests/stream.rs` runs the same comparison on
//! generated documents.

use html_arena::stream::{StreamError, StreamParser};
use html_arena::{Document, ParseOptions, Selector};

/// The selectors compared (the first input byte picks one).
pub const SELECTORS: &[&str] = &[
    "*", "p", "div", "b", "a", "td", "tr", "table td", "div > p", "b i", "li:has(a)", "p:empty",
    "form input", "template", "svg *", "head > *", "body > *", ":root > body div", "option",
    "span, em", "[id]", "h1, h2", "li:first-child", "tr:nth-child(2n+1) > td", "p:nth-of-type(2)",
    "b:not(:first-child)", "td + td", "p + p", "div > b + i",
];

/// Input: one byte for the selector, one for the chunk size, then the document.
pub fn stream_select(data: &[u8]) {
    let [which, chunk, rest @ ..] = data else {
        return;
    };
    if rest.len() > crate::checks::MAX_INPUT {
        return;
    }
    let selector = Selector::parse(SELECTORS[usize::from(*which) % SELECTORS.len()])
        .expect("a valid selector");
    let html = String::from_utf8_lossy(rest);
    let want: Vec<String> = Document::parse(&html)
        .select(&selector)
        .map(|e| e.html())
        .collect();
    let mut parser = StreamParser::new(std::slice::from_ref(&selector), &ParseOptions::default())
        .expect("a streamable selector");
    let size = 1 + usize::from(*chunk);
    let mut got = Vec::new();
    let mut at = 0;
    let mut result = Ok(());
    while at < html.len() && result.is_ok() {
        let mut end = (at + size).min(html.len());
        while !html.is_char_boundary(end) {
            end += 1;
        }
        result = parser.write_str(&html[at..end]);
        at = end;
        while let Some(m) = parser.next_match() {
            got.push(m.html());
        }
    }
    if result.is_ok() {
        result = parser.finish();
    }
    while let Some(m) = parser.next_match() {
        got.push(m.html());
    }
    match result {
        Ok(()) => assert_eq!(got, want, "{selector} on {html:?}"),
        // The one runtime refusal: what was handed out before it is a prefix of the answer.
        Err(StreamError::OutOfOrder { .. }) => assert!(want.starts_with(&got)),
        Err(e) => panic!("{e}"),
    }
}
