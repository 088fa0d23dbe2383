//! What a new user reaches for first works: printable names, `getAttribute`-like `attr`,
//! `get_element_by_id`, hashable handles, readable error messages, builders, the `<body>`
//! fragment shortcut and bounded `Debug` output.

use std::collections::{HashMap, HashSet};

use html_arena::serialize::SerializeOptions;
use html_arena::{Document, ElementRef, ErrorCode, ParseOptions, Selector, local_name};

fn first<'a>(doc: &'a Document, selector: &str) -> ElementRef<'a> {
    let selector = Selector::parse(selector).expect("valid selector");
    doc.select_first(&selector).expect("a match")
}

#[test]
fn names_print_and_compare_with_strings() {
    let doc = Document::parse("<p>x<x-widget></x-widget><svg><foreignObject/></svg>");
    let p = first(&doc, "p");
    assert_eq!(p.name(), "p");
    assert_eq!("p", p.name());
    assert_ne!(p.name(), "P");
    assert_eq!(p.name(), local_name::P);
    assert_eq!(local_name::P, p.name());
    assert_eq!(format!("{} {:?}", p.name(), p.name()), "p \"p\"");
    let widget = first(&doc, "x-widget");
    assert_eq!(widget.name().to_string(), "x-widget");
    assert!(!widget.name().id().is_static());
    assert_eq!(first(&doc, "foreignObject").name(), "foreignObject");
    // Names compare by text, across documents too.
    let other = Document::parse("<x-widget>");
    assert_eq!(first(&other, "x-widget").name(), widget.name());
    assert_ne!(first(&other, "x-widget").name(), p.name());
}

#[test]
fn attr_lowercases_on_html_elements() {
    let doc = Document::parse(r#"<a HREF="/x" data-Id=7><svg viewBox="0 0 1 1"></svg></a>"#);
    let a = first(&doc, "a");
    for name in ["href", "HREF", "Href"] {
        assert_eq!(a.attr(name), Some("/x"), "{name}");
        assert!(a.has_attr(name));
    }
    assert_eq!(a.attr("DATA-ID"), Some("7"));
    let svg = first(&doc, "svg");
    assert_eq!(svg.attr("viewBox"), Some("0 0 1 1"));
    assert_eq!(svg.attr("VIEWBOX"), None);
}

#[test]
fn get_element_by_id() {
    let doc =
        Document::parse("<div id=a><p id=b>1</p></div><p id=b>2<template><i id=t></i></template>");
    assert_eq!(
        doc.get_element_by_id("b").map(|e| e.text()),
        Some("1".into())
    );
    assert_eq!(
        doc.get_element_by_id("a").map(|e| e.name().to_string()),
        Some("div".into())
    );
    assert!(doc.get_element_by_id("").is_none());
    assert!(doc.get_element_by_id("B").is_none());
    // Template contents are not in the document tree.
    assert!(doc.get_element_by_id("t").is_none());
}

// Clippy's `mutable_key_type` sees the document's lazily built caches behind `&Document`;
// the hash covers only the node id and the document's address, which never change.
#[allow(clippy::mutable_key_type)]
#[test]
fn handles_are_hashable() {
    let doc = Document::parse("<p>a<p>b<p>c");
    let all = Selector::parse("p").expect("valid");
    let set: HashSet<ElementRef<'_>> = doc.select(&all).chain(doc.select(&all)).collect();
    assert_eq!(set.len(), 3);
    let by_node: HashMap<_, _> = doc.select(&all).map(|e| (e.as_node(), e.text())).collect();
    assert_eq!(by_node[&first(&doc, "p").as_node()], "a");
    // Equal handles of different documents are different keys.
    let copy = Document::parse("<p>a<p>b<p>c");
    assert!(!set.contains(&first(&copy, "p")));
}

#[test]
fn mutation_errors_read_well() {
    let mut doc = Document::parse("<p>a");
    let p = first(&doc, "p").node_id();
    let text = doc
        .node(p)
        .and_then(|p| p.first_child())
        .expect("text")
        .node_id();
    let err = doc
        .set_attribute(text, "x", "y")
        .expect_err("not an element");
    let message = err.to_string();
    assert!(
        !message.contains("index1") && !message.contains("stamp"),
        "{message}"
    );
    assert!(message.len() < 80, "{message}");
    doc.decompose(p).expect("removable");
    let message = doc.decompose(p).expect_err("gone").to_string();
    assert!(
        !message.contains("index1") && !message.contains("raw"),
        "{message}"
    );
    assert!(format!("{p:?}").starts_with("NodeId("), "{p:?}");
}

#[test]
fn parse_error_accessors() {
    let doc = Document::parse("<p>\n  </i>");
    let e = doc
        .errors()
        .iter()
        .find(|e| e.code() == ErrorCode::UnexpectedEndTag)
        .expect("an unexpected end tag");
    assert_eq!((e.line(), e.column(), e.offset()), (2, 3, 6));
    assert_eq!(e.detail(), Some("</i>"));
    // The fields are still readable (kept for existing code).
    assert_eq!((e.line, e.column), (e.line(), e.column()));
}

#[test]
fn option_builders() {
    let options = ParseOptions::default()
        .with_collect_errors(false)
        .with_max_errors(3)
        .with_source_positions(true)
        .with_scripting(true);
    assert!(!options.collect_errors && options.source_positions && options.scripting);
    assert_eq!(options.max_errors, 3);
    let doc = Document::parse_with("<p>x</i>", &options);
    assert!(doc.errors().is_empty() && doc.error_count() > 0);
    assert!(first(&doc, "p").source_span().is_some());

    let serialize = SerializeOptions::default()
        .with_quote_char('\'')
        .with_alphabetical_attributes(true);
    let doc = Document::parse("<p z=1 a=2>");
    assert_eq!(
        first(&doc, "p").html_with(&serialize),
        "<p a='2' z='1'></p>"
    );
}

#[test]
fn body_fragments_in_one_call() {
    let frag = Document::parse_body_fragment("<li>a</li>text<td>cell");
    let long = Document::parse_fragment("<li>a</li>text<td>cell", "body", &ParseOptions::default())
        .expect("valid context");
    assert_eq!(frag.dump_tree(), long.dump_tree());
    assert!(frag.root().is_fragment());
    assert_eq!(frag.html(), "<li>a</li>textcell");
}

#[test]
fn debug_output_is_bounded() {
    // A 20 MB text node in one element.
    let big = format!("<p>{}", "x".repeat(20 << 20));
    let doc = Document::parse(&big);
    assert!(format!("{doc:?}").len() < 70 * 1024);
    let p = first(&doc, "p");
    assert_eq!(format!("{p:?}"), "Element(<p>)");
}
