//! Deeply nested documents parse to the right tree, on a small stack.
//!
//! Each test runs in a thread with a 256 KiB stack: a parser that recursed on the tree's depth
//! would overflow it long before 100,000 levels. The scope checks of the tree builder do not
//! walk the stack of open elements, so these inputs also parse in linear time (see
//! `benches/deep_nesting.rs` for the timings); no test here measures time.

mod common;
use common::small_stack;

use html_arena::{Document, NodeRef, local_name};

const LEVELS: usize = 100_000;

/// Follows first element children from `node` while they are named `names[k % names.len()]`;
/// returns how many steps it took and the last node.
fn chain<'a>(node: NodeRef<'a>, names: &[&str]) -> (usize, NodeRef<'a>) {
    let mut steps = 0;
    let mut cur = node;
    loop {
        let want = names[steps % names.len()];
        match cur.element_children().next() {
            Some(child) if child.local_name() == want => {
                steps += 1;
                cur = child.as_node();
            }
            _ => return (steps, cur),
        }
    }
}

fn body(doc: &Document) -> NodeRef<'_> {
    doc.body().expect("body").as_node()
}

#[test]
fn nested_divs() {
    small_stack(|| {
        let html = "<div>".repeat(LEVELS) + "x";
        let doc = Document::parse(&html);
        let (depth, last) = chain(body(&doc), &["div"]);
        assert_eq!(depth, LEVELS);
        assert_eq!(last.text(), "x");
        // The tree is walked and dropped without recursion either.
        assert_eq!(doc.root().descendants().count(), 3 + LEVELS + 1);
        assert_eq!(doc.root().text(), "x");
        drop(doc);
    });
}

#[test]
fn nested_list_items() {
    small_stack(|| {
        let html = "<ul><li>".repeat(LEVELS) + "x";
        let doc = Document::parse(&html);
        let (depth, last) = chain(body(&doc), &["ul", "li"]);
        assert_eq!(depth, 2 * LEVELS);
        assert_eq!(last.text(), "x");
    });
}

#[test]
fn sibling_list_items_close_each_other() {
    small_stack(|| {
        // Every <li> closes the previous one: the li loop must stop at the nearest li at once.
        let html = "<ul>".to_owned() + &"<li>x".repeat(LEVELS);
        let doc = Document::parse(&html);
        let ul = body(&doc).first_child().expect("ul");
        assert_eq!(ul.children().count(), LEVELS);
        assert!(ul.children().all(|li| li.text() == "x"));
    });
}

#[test]
fn nested_lists_of_definitions() {
    small_stack(|| {
        let html = "<dl><dd>".repeat(LEVELS / 2) + &"<dt>y".repeat(LEVELS / 2);
        let doc = Document::parse(&html);
        let (depth, last) = chain(body(&doc), &["dl", "dd"]);
        assert_eq!(depth, LEVELS);
        // The first <dt> closes the innermost <dd> (the current node); each later one closes
        // the <dt> before it: they are siblings in the innermost <dl>.
        assert!(!last.has_children());
        let dl = last.parent().expect("innermost dl");
        assert_eq!(dl.children().count(), 1 + LEVELS / 2);
        assert!(dl.children().skip(1).all(|dt| dt.text() == "y"));
    });
}

#[test]
fn formatting_runs() {
    small_stack(|| {
        // Identical <b>s nest; the list of active formatting elements keeps three of them.
        let html = "<b>".repeat(LEVELS) + "x";
        let doc = Document::parse(&html);
        let (depth, last) = chain(body(&doc), &["b"]);
        assert_eq!(depth, LEVELS);
        assert_eq!(last.text(), "x");
    });
}

#[test]
fn distinct_formatting_runs() {
    small_stack(|| {
        // Distinct <b>s all stay in the list of active formatting elements (the Noah's Ark
        // clause only limits identical ones); </p> closes them, and the text after it reopens
        // every one of them.
        let n = 20_000;
        let mut html = String::from("<p>");
        for i in 0..n {
            html.push_str(&format!("<b id={i}>"));
        }
        html.push_str("</p>x");
        let doc = Document::parse(&html);
        let p = body(&doc).first_child().expect("p");
        assert_eq!(chain(p, &["b"]).0, n);
        let reopened = p.next_sibling().expect("reopened b");
        assert_eq!(
            reopened.as_element().map(|e| e.name().id()),
            Some(local_name::B)
        );
        let (depth, last) = chain(reopened, &["b"]);
        assert_eq!(depth, n - 1);
        assert_eq!(last.text(), "x");
        assert_eq!(last.as_element().and_then(|e| e.attr("id")), Some("19999"));
    });
}

#[test]
fn misnested_formatting() {
    small_stack(|| {
        // Each </b> runs the adoption agency algorithm with a <p> as the furthest block.
        let html = "<b><p>x</b>y</p>".repeat(LEVELS / 4);
        let doc = Document::parse(&html);
        let body = body(&doc);
        assert_eq!(body.children().count(), 2 * (LEVELS / 4));
        let p = body.children().nth(1).expect("p");
        assert_eq!(p.dump_tree(), "| <p>\n|   <b>\n|     \"x\"\n|   \"y\"\n");
    });
}

#[test]
fn anchors_close_each_other() {
    small_stack(|| {
        // An <a> start tag with an open <a> runs the adoption agency algorithm on it.
        let html = "<a>x".repeat(LEVELS);
        let doc = Document::parse(&html);
        let body = body(&doc);
        assert_eq!(body.children().count(), LEVELS);
        assert!(body.children().all(|a| a.text() == "x"));
    });
}

#[test]
fn unclosed_tables() {
    small_stack(|| {
        let html = "<table><tr><td>".repeat(LEVELS) + "x";
        let doc = Document::parse(&html);
        let (depth, last) = chain(body(&doc), &["table", "tbody", "tr", "td"]);
        assert_eq!(depth, 4 * LEVELS);
        assert_eq!(last.text(), "x");
    });
}

#[test]
fn closed_tables_in_deep_divs() {
    small_stack(|| {
        // Each </table> resets the insertion mode; that must not walk the 100,000 divs.
        let html = "<div>".repeat(LEVELS) + &"<table></table>".repeat(LEVELS);
        let doc = Document::parse(&html);
        let (depth, last) = chain(body(&doc), &["div"]);
        assert_eq!(depth, LEVELS);
        assert_eq!(last.children().count(), LEVELS);
    });
}

#[test]
fn unknown_end_tags_in_deep_divs() {
    small_stack(|| {
        // "Any other end tag" stops at the nearest special element without walking the stack.
        let html = "<div>".repeat(LEVELS) + &"</span>".repeat(LEVELS) + "x";
        let doc = Document::parse(&html);
        let (depth, last) = chain(body(&doc), &["div"]);
        assert_eq!(depth, LEVELS);
        assert_eq!(last.text(), "x");
        assert!(doc.error_count() > LEVELS);
    });
}

#[test]
fn nested_svg() {
    small_stack(|| {
        // Foreign end tags look for their element among the foreign elements only.
        let html = "<svg>".to_owned() + &"<g>".repeat(LEVELS) + &"</x>".repeat(LEVELS / 10);
        let doc = Document::parse(&html);
        let svg = body(&doc).first_child().expect("svg");
        assert_eq!(chain(svg, &["g"]).0, LEVELS);
    });
}
