//! Every public walker on a tree 1,000,000 elements deep, on a thread with a 256 KiB stack:
//! parsing, dropping, the tree dump and `Debug`, serializing (both serializers), text and
//! rendered text, selector queries, cloning and importing subtrees, removing them, and
//! parsing the serialized form again. A walker that recursed on depth would overflow the
//! stack long before this depth. (Times are measured in `benches/deep_nesting.rs`, not here.)

mod common;
use common::small_stack;

use html_arena::serialize::SerializeOptions;
use html_arena::{Document, NodeRef, ParseOptions, Selector};

const DEPTH: usize = 1_000_000;

/// `<div>` × DEPTH, with a `<span>` and text at the bottom.
fn deep_page() -> String {
    "<div>".repeat(DEPTH) + "<span class=x>a&amp;b</span>"
}

fn deepest_div(doc: &Document) -> NodeRef<'_> {
    let mut node = doc.body().expect("body").as_node();
    while let Some(child) = node
        .first_child()
        .filter(|c| c.as_element().is_some_and(|e| e.local_name() == "div"))
    {
        node = child;
    }
    node
}

#[test]
fn parse_walk_and_drop() {
    small_stack(|| {
        let doc = Document::parse(&deep_page());
        // html, head, body, the divs, span and text (`descendants` leaves out the root).
        assert_eq!(doc.root().descendants().count(), 3 + DEPTH + 2);
        let bottom = deepest_div(&doc);
        // The other divs, body, html and the document.
        assert_eq!(bottom.ancestors().count(), DEPTH + 2);
        // A start and an end for every node, the root included.
        assert_eq!(doc.root().traverse().count(), 2 * (1 + 3 + DEPTH + 2));
        drop(doc);
    });
}

#[test]
fn dump_debug_and_text() {
    small_stack(|| {
        let doc = Document::parse(&deep_page());
        // The whole dump would be 10^12 bytes (two spaces per level on every line): dumps of
        // a subtree and of the start of the tree, and `Debug`, which stops after 64 KiB.
        let bottom = deepest_div(&doc);
        let dump = bottom.parent().expect("parent").dump_tree();
        assert_eq!(
            dump,
            "| <div>\n|   <div>\n|     <span>\n|       class=\"x\"\n|       \"a&b\"\n"
        );
        let (start, cut) = doc.dump_tree_prefix(1 << 20);
        assert!(cut);
        assert!(start.len() >= 1 << 20 && start.len() < (1 << 20) + 4096);
        let debug = format!("{doc:?}");
        assert!(debug.len() < 70 * 1024 && debug.ends_with("whole tree)\n"));
        assert_eq!(doc.root().text(), "a&b");
        assert_eq!(doc.body().expect("body").as_node().rendered_text(), "a&b");
    });
}

#[test]
fn serialize_both_ways_and_parse_again() {
    small_stack(|| {
        let doc = Document::parse(&deep_page());
        let html = doc.html();
        let expected_len = "<html><head></head><body>".len()
            + DEPTH * "<div></div>".len()
            + "<span class=\"x\">a&amp;b</span>".len()
            + "</body></html>".len();
        assert_eq!(html.len(), expected_len);
        assert!(html.contains("<span class=\"x\">a&amp;b</span></div></div>"));
        // The option-driven serializer (html5lib options) walks the same way.
        let minimal = doc.html_with(&SerializeOptions::html5lib());
        assert!(minimal.len() < html.len());
        assert!(doc.is_round_trip_stable());
        let again = Document::parse(&html);
        assert_eq!(
            again.root().descendants().count(),
            doc.root().descendants().count()
        );
        assert_eq!(again.html(), html);
    });
}

#[test]
fn select_on_deep_tree() {
    small_stack(|| {
        let doc = Document::parse(&deep_page());
        let count = |s: &str| doc.select(&Selector::parse(s).expect(s)).count();
        assert_eq!(count("div"), DEPTH);
        assert_eq!(count("div > span.x"), 1);
        assert_eq!(count("body div div span"), 1);
        // Descendant combinators that fail: the ancestor Bloom filter rejects them.
        assert_eq!(count("p div"), 0);
        assert_eq!(count("p span"), 0);
        assert_eq!(count("div:has(> span)"), 1);
        assert_eq!(count("div:has(span)"), DEPTH);
        assert_eq!(count("div:not(:has(div))"), 1);
        // html (the only child of the document), the divs and the span.
        assert_eq!(count(":first-child:last-child"), DEPTH + 2);
        let span = doc
            .select_first(&Selector::parse("span").expect("span"))
            .expect("span");
        let closest = span
            .closest(&Selector::parse("body > div").expect("sel"))
            .expect("closest");
        assert_eq!(closest.as_node().ancestors().count(), 3);
    });
}

#[test]
fn clone_import_and_remove_deep_subtrees() {
    small_stack(|| {
        let mut doc = Document::parse(&deep_page());
        let top = doc
            .body()
            .expect("body")
            .as_node()
            .first_child()
            .expect("div")
            .node_id();
        let copy = doc.clone_subtree(top).expect("clone");
        assert_eq!(
            doc.node(copy).expect("copy").descendants().count(),
            DEPTH + 1
        );
        let mut other = Document::new();
        let imported = other.import_subtree(&doc, top).expect("import");
        let root = other.root().node_id();
        other.append(root, imported).expect("append");
        assert_eq!(other.root().descendants().count(), DEPTH + 2);
        assert_eq!(other.root().text(), "a&b");
        drop(other);
        doc.remove(top).expect("remove");
        assert_eq!(doc.root().descendants().count(), 3);
        // The detached copy goes with the document.
        let whole = doc.clone();
        drop(doc);
        drop(whole);
    });
}

#[test]
fn deep_fragment_and_inner_html() {
    small_stack(|| {
        let options = ParseOptions::default();
        let frag = Document::parse_fragment(&deep_page(), "div", &options).expect("context");
        assert_eq!(frag.root().descendants().count(), DEPTH + 2);
        assert_eq!(
            frag.html().len(),
            DEPTH * "<div></div>".len() + "<span class=\"x\">a&amp;b</span>".len()
        );
        let mut doc = Document::parse("<p id=p>");
        let p = doc
            .select_first(&Selector::parse("#p").expect("sel"))
            .expect("p")
            .node_id();
        doc.set_inner_html(p, &deep_page()).expect("set_inner_html");
        assert_eq!(doc.root().descendants().count(), 4 + DEPTH + 2);
        assert_eq!(
            doc.node(p).expect("p").inner_html().len(),
            frag.html().len()
        );
    });
}
