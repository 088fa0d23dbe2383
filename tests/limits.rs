//! Resource limits: `ParseOptions::max_nodes` (on by default, generous) and
//! `ParseOptions::max_depth` (off by default; Blink's nesting cap when set to 512).

use html_arena::{Document, Limit, NodeRef, ParseOptions};

fn element_by_id<'a>(doc: &'a Document, id: &str) -> NodeRef<'a> {
    doc.root()
        .descendants()
        .find(|n| n.as_element().and_then(|e| e.id()) == Some(id))
        .expect(id)
}

fn parent_id(doc: &Document, id: &str) -> Option<String> {
    let parent = element_by_id(doc, id).parent()?.as_element()?;
    parent.id().map(str::to_owned)
}

/// The tree Chromium 14x builds for 600 nested `div`s (checked with `chromium --dump-dom`):
/// `html`, `body` and `div`s 1 to 510 fill 512 places on the stack; from then on each new
/// element goes into the current node's parent (`d510`), text into the current node and
/// comments beside new elements.
#[test]
fn max_depth_512_builds_chromiums_tree() {
    let html: String = (1..=600)
        .map(|i| format!("<div id=d{i}>"))
        .collect::<String>()
        + "x<!--c--><span id=s>s</span>";
    let options = ParseOptions::default().with_max_depth(512);
    let doc = Document::parse_with(&html, &options);
    assert_eq!(parent_id(&doc, "d509").as_deref(), Some("d508"));
    assert_eq!(parent_id(&doc, "d510").as_deref(), Some("d509"));
    for i in 511..=600 {
        assert_eq!(
            parent_id(&doc, &format!("d{i}")).as_deref(),
            Some("d510"),
            "d{i}"
        );
    }
    assert_eq!(parent_id(&doc, "s").as_deref(), Some("d510"));
    assert_eq!(element_by_id(&doc, "d600").text(), "x");
    let d510 = element_by_id(&doc, "d510");
    assert!(d510.children().any(|c| c.as_comment() == Some("c")));
    assert_eq!(doc.limit_hit(), None);

    // Without the option the tree is the standard's: 600 levels.
    let doc = Document::parse(&html);
    assert_eq!(parent_id(&doc, "d600").as_deref(), Some("d599"));
    assert_eq!(parent_id(&doc, "s").as_deref(), Some("d600"));
}

/// The cap leaves foster parenting alone, and nodes nested too deep inside a template's
/// contents stay in them.
#[test]
fn max_depth_keeps_templates_and_tables_working() {
    let options = ParseOptions::default().with_max_depth(3);
    // Stack: html, head, template, div (4 > 3): the span goes beside the div, in the
    // template's contents (not into the template element itself).
    let doc = Document::parse_with("<template id=t><div id=a><span id=b>x</span>", &options);
    let template = element_by_id(&doc, "t");
    assert_eq!(template.children().count(), 0);
    let contents = template
        .as_element()
        .and_then(|t| t.template_contents())
        .expect("contents");
    let names: Vec<_> = contents
        .element_children()
        .map(|e| e.local_name())
        .collect();
    assert_eq!(names, ["div", "span"]);
    assert_eq!(contents.text(), "x");
    // A table beyond the cap goes beside its parent, and so do the sections it opens (Blink
    // does the same for the `tbody`, though its queued insertions put the `tr` inside the
    // `tbody`); foster parenting still puts the text before the table.
    let doc = Document::parse_with("<div id=a><div id=b><table id=t>x<tr><td>y", &options);
    assert_eq!(parent_id(&doc, "t").as_deref(), Some("a"));
    let table = element_by_id(&doc, "t");
    assert_eq!(table.prev_sibling().and_then(|n| n.as_text()), Some("x"));
    let after: Vec<_> = table
        .following_siblings()
        .filter_map(|n| n.as_element())
        .map(|e| e.local_name())
        .collect();
    assert_eq!(after, ["tbody", "tr", "td"]);
    assert_eq!(element_by_id(&doc, "a").text(), "xy");
}

/// Formatting elements reopened after every block multiply nodes: k distinct `<b>`s closed
/// by `</p>` and reopened by the text of m paragraphs make k × m elements from (k + 2m)
/// tags. The default budget stops that.
#[test]
fn node_budget_stops_amplification() {
    let k = 1_200;
    let m = 1_200;
    let mut html = String::from("<p>");
    for i in 0..k {
        html.push_str(&format!("<b id={i}>"));
    }
    for _ in 0..m {
        html.push_str("</p><p>x");
    }
    let limit = 1_000_000 + 2 * html.len();
    assert!(k * m > limit, "the input would make {} nodes", k * m);
    let doc = Document::parse(&html);
    assert_eq!(doc.limit_hit(), Some(Limit::Nodes));
    let nodes = doc.root().descendants().count();
    // The check runs after each token, and one `<p>` reopens at most k elements.
    assert!(
        nodes > limit && nodes <= limit + k + 2,
        "{nodes} nodes, limit {limit}"
    );

    // A smaller budget, and the document is usable: it serializes and parses again.
    let doc = Document::parse_with(&html, &ParseOptions::default().with_max_nodes(50_000));
    assert_eq!(doc.limit_hit(), Some(Limit::Nodes));
    let again = Document::parse(&doc.html());
    assert_eq!(again.limit_hit(), None);
    assert_eq!(
        again.root().descendants().count(),
        doc.root().descendants().count()
    );
}

#[test]
fn node_budget_applies_to_chunks_and_fragments() {
    let options = ParseOptions::default().with_max_nodes(100);
    let mut parser = html_arena::Parser::new(&options);
    for _ in 0..1_000 {
        parser.write_str("<i>a</i>");
    }
    let doc = parser.finish();
    assert_eq!(doc.limit_hit(), Some(Limit::Nodes));
    assert!(doc.root().descendants().count() <= 102);

    let frag = Document::parse_fragment("<i>a</i>".repeat(1_000).as_str(), "div", &options)
        .expect("context");
    assert_eq!(frag.limit_hit(), Some(Limit::Nodes));
    assert!(frag.root().descendants().count() <= 102);
}

/// Real pages are nowhere near the default budget.
#[test]
fn default_budget_leaves_real_pages_alone() {
    let page = include_str!("../examples/sample.html");
    let doc = Document::parse(page);
    assert_eq!(doc.limit_hit(), None);
    assert_eq!(Document::parse(&page.repeat(50)).limit_hit(), None);
}

#[test]
fn limit_display() {
    assert!(Limit::Nodes.to_string().contains("node limit"));
}
