//! Hostile input shapes at sizes that finish fast in CI, each checked for the tree the
//! standard builds (and for the limits). `benches/worst_case.rs` times the same shapes at 1x to
//! 8x larger sizes; these tests check correctness, not time. Deep shapes run on a thread with a
//! 256 KiB stack, so any recursion on depth would overflow.

mod common;
use common::small_stack;

use html_arena::{Document, Limit, NodeRef, ParseOptions, Selector};

const N: usize = 20_000;

fn body(doc: &Document) -> NodeRef<'_> {
    doc.body().expect("body").as_node()
}

fn name(node: NodeRef<'_>) -> Option<&str> {
    node.as_element().map(|e| e.local_name())
}

fn element_children(node: NodeRef<'_>) -> Vec<NodeRef<'_>> {
    node.children()
        .filter(|c| c.as_element().is_some())
        .collect()
}

fn count(doc: &Document, selector: &str) -> usize {
    doc.select(&Selector::parse(selector).expect(selector))
        .count()
}

/// `<b>`, n `<div>`s, n `</b>`s: each `</b>` runs the adoption agency algorithm with the next
/// div as furthest block, moving it (and everything below) out of the `b` clone: a chain of
/// n divs, each holding an empty `b` and the next div.
#[test]
fn b_around_deep_divs_closed_n_times() {
    small_stack(|| {
        let html = "<b>".to_owned() + &"<div>".repeat(N) + &"</b>".repeat(N);
        let doc = Document::parse(&html);
        let top = element_children(body(&doc));
        assert_eq!(
            top.iter().map(|n| name(*n)).collect::<Vec<_>>(),
            [Some("b"), Some("div")]
        );
        let mut div = top[1];
        for level in 1..=N {
            let kids = element_children(div);
            assert_eq!(name(kids[0]), Some("b"), "level {level}");
            assert!(!kids[0].has_children());
            if level == N {
                assert_eq!(kids.len(), 1);
            } else {
                assert_eq!(kids.len(), 2, "level {level}");
                assert_eq!(name(kids[1]), Some("div"));
                div = kids[1];
            }
        }
    });
}

/// n `<div>`s, then n misnested `<b><p>x</b></p>`: every adoption agency run happens n levels
/// deep; the innermost div ends up holding n (empty `b`, `p` > `b` > "x") pairs.
#[test]
fn misnested_formatting_deep_down() {
    small_stack(|| {
        let html = "<div>".repeat(N) + &"<b><p>x</b></p>".repeat(N);
        let doc = Document::parse(&html);
        let mut div = body(&doc);
        for _ in 0..N {
            div = div.first_child().expect("div");
        }
        let kids: Vec<_> = div.children().collect();
        assert_eq!(kids.len(), 2 * N);
        for pair in kids.chunks(2) {
            assert_eq!(name(pair[0]), Some("b"));
            assert!(!pair[0].has_children());
            assert_eq!(name(pair[1]), Some("p"));
            assert_eq!(pair[1].dump_tree(), "| <p>\n|   <b>\n|     \"x\"\n");
        }
    });
}

/// `<b>`, n (`<span><div>`), n `</b>`: each adoption agency run removes a span from the middle
/// of the stack (its inner loop); the result is a chain of divs, each holding a `b` with the
/// span that was above it, and the next div.
#[test]
fn adoption_removals_from_the_middle_of_the_stack() {
    small_stack(|| {
        let html = "<b>".to_owned() + &"<span><div>".repeat(N) + &"</b>".repeat(N);
        let doc = Document::parse(&html);
        let top = element_children(body(&doc));
        assert_eq!(top.len(), 2);
        assert_eq!(top[0].dump_tree(), "| <b>\n|   <span>\n");
        let mut div = top[1];
        for level in 1..=N {
            assert_eq!(name(div), Some("div"));
            let kids = element_children(div);
            if level == N {
                assert_eq!(kids.len(), 1);
                assert_eq!(kids[0].dump_tree(), "| <b>\n");
            } else {
                assert_eq!(kids.len(), 2, "level {level}");
                assert_eq!(kids[0].dump_tree(), "| <b>\n|   <span>\n");
                div = kids[1];
            }
        }
        assert_eq!(count(&doc, "b"), N + 1);
        assert_eq!(count(&doc, "span"), N);
    });
}

/// Identical formatting elements: the list of active formatting elements keeps three of them
/// (the Noah's Ark clause), so text after `</p>` reopens exactly three.
#[test]
fn noahs_ark_keeps_three() {
    small_stack(|| {
        let html = "<p>".to_owned() + &"<b>".repeat(N) + "</p>x";
        let doc = Document::parse(&html);
        let kids = element_children(body(&doc));
        assert_eq!(kids.len(), 2);
        assert_eq!(
            kids[1].dump_tree(),
            "| <b>\n|   <b>\n|     <b>\n|       \"x\"\n"
        );
        assert_eq!(count(&doc, "p b"), N);
    });
}

/// Text and elements foster-parented out of a table: text merges into one node before the
/// table, elements nest there; comments stay in the table.
#[test]
fn foster_parenting_floods() {
    small_stack(|| {
        let doc = Document::parse(&("<table>".to_owned() + &"x<!---->".repeat(N)));
        let kids: Vec<_> = body(&doc).children().collect();
        assert_eq!(kids.len(), 2);
        assert_eq!(kids[0].as_text().map(str::len), Some(N));
        assert_eq!(name(kids[1]), Some("table"));
        assert_eq!(kids[1].children().count(), N);

        let doc = Document::parse(&("<table>".to_owned() + &"x<b>".repeat(N)));
        let kids: Vec<_> = body(&doc).children().collect();
        assert_eq!(kids.len(), 3);
        assert_eq!(kids[0].as_text(), Some("x"));
        assert_eq!(name(kids[2]), Some("table"));
        assert_eq!(count(&doc, "b"), N);
        assert_eq!(kids[1].text().len(), N - 1);
    });
}

/// One tag with many attributes (duplicates are dropped, the first value kept, one error
/// each), and many `<body>` tags whose attributes merge into the body.
#[test]
fn attribute_floods() {
    let mut html = String::from("<div");
    for i in 0..N {
        html.push_str(&format!(" a{i}={i}"));
    }
    for i in 0..N {
        html.push_str(&format!(" a{i}=dup"));
    }
    html.push('>');
    let doc = Document::parse(&html);
    let div = doc
        .select_first(&Selector::parse("div").expect("div"))
        .expect("div");
    assert_eq!(div.attrs().count(), N);
    assert_eq!(div.attr("a0"), Some("0"));
    assert_eq!(
        div.attr(&format!("a{}", N - 1)),
        Some(&*format!("{}", N - 1))
    );
    // missing-doctype, one duplicate-attribute per duplicate, eof-with-unclosed-elements. The
    // first 10,000 found (max_errors) are kept: the tokenizer finds the duplicates before the
    // tree builder sees the tag and finds the missing DOCTYPE.
    assert_eq!(doc.error_count(), N + 2);
    let duplicates = doc
        .errors()
        .iter()
        .filter(|e| e.code == html_arena::ErrorCode::DuplicateAttribute)
        .count();
    assert_eq!(duplicates, 10_000);
    let positions: Vec<_> = doc.errors().iter().map(|e| (e.line, e.column)).collect();
    assert!(positions.is_sorted(), "kept errors are in input order");

    let html: String = (0..N).map(|i| format!("<body a{i}>")).collect();
    let doc = Document::parse(&html);
    assert_eq!(doc.body().expect("body").attrs().count(), N);
}

/// Floods of characters that start markup or references.
#[test]
fn character_floods() {
    let n = 200_000;
    let doc = Document::parse(&"<".repeat(n));
    assert_eq!(body(&doc).children().count(), 1);
    assert_eq!(body(&doc).text().len(), n);

    let doc = Document::parse(&"&".repeat(n));
    assert_eq!(body(&doc).text(), "&".repeat(n));

    // Without the semicolon `&amp` is still a reference (with an error each time).
    let doc = Document::parse(&"&amp".repeat(n));
    assert_eq!(body(&doc).text(), "&".repeat(n));
    assert_eq!(doc.error_count(), n + 1);
    assert_eq!(
        doc.errors().len(),
        10_000,
        "max_errors keeps the first 10,000"
    );

    // NULs in body text are dropped, each an error.
    let doc = Document::parse(&"\0".repeat(n));
    assert!(!body(&doc).has_children());
    assert!(doc.error_count() >= n);

    // `</` followed by `<`: one bogus comment swallows the rest.
    let doc = Document::parse(&"</".repeat(n));
    let comment = doc
        .root()
        .first_child()
        .and_then(|c| c.as_comment().map(str::len));
    assert_eq!(comment, Some(2 * (n - 1)));
}

/// A long text stays one node, built in linear time (appends reserve room ahead), and
/// serializes back escaped: the escaping is linear too, with `&` and U+00A0 everywhere.
#[test]
fn huge_text_nodes() {
    let n = 1_000_000;
    let doc = Document::parse(&"a&amp;\u{a0}".repeat(n));
    let kids: Vec<_> = body(&doc).children().collect();
    assert_eq!(kids.len(), 1);
    assert_eq!(kids[0].as_text().map(str::len), Some(4 * n));
    let html = body(&doc).inner_html();
    assert_eq!(html, "a&amp;&nbsp;".repeat(n));

    let doc = Document::parse(&"x".repeat(5 * n));
    assert_eq!(body(&doc).children().count(), 1);
    assert_eq!(body(&doc).text().len(), 5 * n);
}

/// Nested `select`s: a `select` start tag inside a `select` closes it; the options go on.
#[test]
fn select_and_option_runs() {
    small_stack(|| {
        let doc = Document::parse(&"<select><option>".repeat(N));
        assert_eq!(count(&doc, "select"), N.div_ceil(2));
        assert_eq!(count(&doc, "option"), N);
        let doc = Document::parse(&("<select>".to_owned() + &"<option>x".repeat(N)));
        assert_eq!(count(&doc, "select > option"), N);
    });
}

/// Nested templates: each one's contents hold the next.
#[test]
fn nested_templates() {
    small_stack(|| {
        let doc = Document::parse(&("<template>".repeat(N) + "x"));
        let mut node = doc.head().expect("head").as_node();
        for _ in 0..N {
            let template = node.first_child().expect("template");
            assert_eq!(name(template), Some("template"));
            node = template
                .as_element()
                .and_then(|t| t.template_contents())
                .expect("contents");
        }
        assert_eq!(node.text(), "x");
        drop(doc);
    });
}

/// List items close each other even with a div open in each.
#[test]
fn list_items_with_blocks() {
    let doc = Document::parse(&("<ul>".to_owned() + &"<li><div>".repeat(N) + "x"));
    assert_eq!(count(&doc, "ul > li"), N);
    assert_eq!(count(&doc, "li > div"), N);
    assert_eq!(count(&doc, "li li"), 0);
}

/// `:has()` over many candidates is answered in one pass over the tree.
#[test]
fn has_selectors_on_wide_and_deep_trees() {
    small_stack(|| {
        let doc = Document::parse(&"<div><span></span></div>".repeat(N));
        assert_eq!(count(&doc, "div:has(> span)"), N);
        assert_eq!(count(&doc, "div:has(+ div)"), N - 1);
        assert_eq!(count(&doc, "body:has(div span)"), 1);
        let doc = Document::parse(&("<div>".repeat(N) + "<span>"));
        assert_eq!(count(&doc, "div:has(span)"), N);
        assert_eq!(count(&doc, "div:has(> div > span)"), 1);
    });
}

/// Formatting elements with distinct attributes, closed by `</p>` and reopened by the text of
/// every following paragraph, multiply nodes; the default budget stops them.
#[test]
fn amplification_is_cut_off() {
    let k = 1_500;
    let mut html = String::from("<p>");
    for i in 0..k {
        html.push_str(&format!("<b id={i}>"));
    }
    html.push_str(&"</p><p>x".repeat(k));
    let doc = Document::parse(&html);
    assert_eq!(doc.limit_hit(), Some(Limit::Nodes));
    let limit = 1_000_000 + 2 * html.len();
    assert!(doc.node_count() <= limit + k + 8);
    // Below the budget, the same shape parses in full.
    let small = ParseOptions::default().with_max_nodes(usize::MAX);
    let doc = Document::parse_with(&html[..html.len() / 4], &small);
    assert_eq!(doc.limit_hit(), None);
}
