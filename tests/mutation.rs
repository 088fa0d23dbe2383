//! The mutation API: every operation keeps the tree valid, and misuse is a typed error that
//! leaves the document unchanged.

use std::collections::HashSet;

use html_arena::{AttrNamespace, Document, MutationError, Namespace, NodeId, NodeKind, NodeRef};

/// Checks the tree's invariants: links agree both ways, no node is reached twice (no
/// cycles, one parent), the document has at most one element and one DOCTYPE and no text,
/// template contents have no parent. Iterative.
fn check_invariants(doc: &Document) {
    let mut seen = HashSet::new();
    let mut work = vec![doc.root()];
    while let Some(node) = work.pop() {
        assert!(seen.insert(node.node_id()), "{node:?} reached twice");
        let mut prev: Option<NodeRef<'_>> = None;
        for child in node.children() {
            assert!(
                child.parent() == Some(node),
                "{child:?} has the wrong parent"
            );
            assert!(
                child.prev_sibling() == prev,
                "{child:?} has the wrong previous sibling"
            );
            prev = Some(child);
            work.push(child);
        }
        assert!(node.last_child() == prev);
        if let Some(contents) = node.as_element().and_then(|e| e.template_contents()) {
            assert!(
                contents.parent().is_none(),
                "template contents must stay outside the tree"
            );
            assert!(contents.is_fragment());
            work.push(contents);
        }
    }
    let root = doc.root();
    assert!(root.children().filter(|c| c.is_element()).count() <= 1);
    assert!(root.children().filter(|c| c.is_doctype()).count() <= 1);
    assert!(!root.children().any(|c| c.is_text()));
}

fn by_id(doc: &Document, id: &str) -> NodeId {
    doc.root()
        .descendants()
        .find(|n| n.as_element().is_some_and(|e| e.id() == Some(id)))
        .unwrap_or_else(|| panic!("no #{id}"))
        .node_id()
}

#[test]
fn build_a_list() {
    let mut doc = Document::parse("<ul id=list><li id=b>b</li></ul>");
    let list = by_id(&doc, "list");
    let b = by_id(&doc, "b");
    let a = doc.new_element("LI").unwrap();
    let a_text = doc.new_text("a");
    doc.append(a, a_text).unwrap();
    doc.prepend(list, a).unwrap();
    let c = doc.new_element("li").unwrap();
    doc.insert_after(b, c).unwrap();
    let c_text = doc.new_text("c & <d>");
    doc.append(c, c_text).unwrap();
    let comment = doc.new_comment(" end ");
    doc.append(list, comment).unwrap();
    doc.set_attribute(c, "Data-X", "1").unwrap();
    assert_eq!(
        doc.node(list).unwrap().html(),
        r#"<ul id="list"><li>a</li><li id="b">b</li><li data-x="1">c &amp; &lt;d&gt;</li><!-- end --></ul>"#
    );
    check_invariants(&doc);
}

#[test]
fn misuse_is_an_error_and_changes_nothing() {
    let mut doc = Document::parse("<div id=outer><div id=inner><p id=p>x</p></div></div>");
    let outer = by_id(&doc, "outer");
    let inner = by_id(&doc, "inner");
    let p = by_id(&doc, "p");
    let before = doc.html();
    // An ancestor into its descendant, a node into itself.
    assert!(matches!(
        doc.append(inner, outer),
        Err(MutationError::HierarchyRequest(_))
    ));
    assert!(matches!(
        doc.append(p, p),
        Err(MutationError::HierarchyRequest(_))
    ));
    assert!(matches!(
        doc.insert_before(p, outer),
        Err(MutationError::HierarchyRequest(_))
    ));
    // A second document element, text or a second DOCTYPE directly under the document.
    let root = doc.root().node_id();
    let extra = doc.new_element("html").unwrap();
    assert!(matches!(
        doc.append(root, extra),
        Err(MutationError::HierarchyRequest(_))
    ));
    let text = doc.new_text("x");
    assert!(matches!(
        doc.append(root, text),
        Err(MutationError::HierarchyRequest(_))
    ));
    let doctype = doc.new_doctype("html", "", "");
    assert!(matches!(
        doc.append(p, doctype),
        Err(MutationError::HierarchyRequest(_))
    ));
    // Children under a text node.
    let x = doc.node(p).unwrap().first_child().unwrap().node_id();
    assert!(matches!(
        doc.append(x, text),
        Err(MutationError::HierarchyRequest(_))
    ));
    // The root cannot be removed; attributes only on elements; invalid names.
    assert!(doc.remove(root).is_err());
    assert!(matches!(
        doc.set_attribute(x, "a", "b"),
        Err(MutationError::NotAnElement(_))
    ));
    assert!(matches!(
        doc.set_attribute(p, "a b", "c"),
        Err(MutationError::InvalidName(_))
    ));
    assert!(matches!(
        doc.new_element(""),
        Err(MutationError::InvalidName(_))
    ));
    assert!(matches!(
        doc.new_element("1a"),
        Err(MutationError::InvalidName(_))
    ));
    assert_eq!(doc.html(), before);
    check_invariants(&doc);
}

#[test]
fn stale_and_foreign_ids_are_refused() {
    let mut doc = Document::parse("<p id=p>x</p>");
    let other = Document::parse("<p id=p>x</p>");
    let mine = by_id(&doc, "p");
    let theirs = by_id(&other, "p");
    assert!(matches!(
        doc.detach(theirs),
        Err(MutationError::InvalidNode(_))
    ));
    assert!(doc.node(theirs).is_none());
    doc.decompose(mine).unwrap();
    assert!(doc.node(mine).is_none());
    assert!(matches!(
        doc.set_attribute(mine, "a", "b"),
        Err(MutationError::InvalidNode(_))
    ));
    // A slot reused by a new node does not revive the old id.
    let fresh = doc.new_element("span").unwrap();
    assert!(doc.node(fresh).is_some());
    assert!(doc.node(mine).is_none());
    check_invariants(&doc);
}

#[test]
fn replacing_the_document_element_is_allowed() {
    let mut doc = Document::parse("<p>x");
    let html = doc.document_element().unwrap().node_id();
    let new_html = doc.new_element("html").unwrap();
    doc.replace(html, new_html).unwrap();
    assert_eq!(doc.html(), "<html></html>");
    assert!(
        doc.node(html).is_some(),
        "a replaced node stays live, detached"
    );
    check_invariants(&doc);
}

#[test]
fn attributes() {
    let mut doc = Document::parse("<a id=a href=/x title=t>link</a><svg id=s></svg>");
    let a = by_id(&doc, "a");
    doc.set_attribute(a, "HREF", "/y").unwrap();
    doc.set_attribute(a, "rel", "next").unwrap();
    assert!(doc.remove_attribute(a, "title").unwrap());
    assert!(!doc.remove_attribute(a, "title").unwrap());
    let e = doc.node(a).unwrap().as_element().unwrap();
    let attrs: Vec<_> = e.attrs().map(|a| (a.local_name, a.value)).collect();
    assert_eq!(attrs, [("id", "a"), ("href", "/y"), ("rel", "next")]);
    // Foreign elements keep the case; namespaced attributes get their prefix.
    let s = by_id(&doc, "s");
    doc.set_attribute(s, "viewBox", "0 0 1 1").unwrap();
    doc.set_attribute_ns(s, AttrNamespace::XLink, "href", "#x")
        .unwrap();
    assert_eq!(
        doc.node(s).unwrap().html(),
        r##"<svg id="s" viewBox="0 0 1 1" xlink:href="#x"></svg>"##
    );
    check_invariants(&doc);
}

#[test]
fn text() {
    let mut doc = Document::parse("<div id=d><b>bold</b> text<!--c--></div>");
    let d = by_id(&doc, "d");
    let comment = doc.node(d).unwrap().last_child().unwrap().node_id();
    doc.set_text(comment, "changed").unwrap();
    assert_eq!(
        doc.node(d).unwrap().inner_html(),
        "<b>bold</b> text<!--changed-->"
    );
    doc.set_text(d, "plain & simple").unwrap();
    assert_eq!(doc.node(d).unwrap().inner_html(), "plain &amp; simple");
    doc.set_text(d, "").unwrap();
    assert!(!doc.node(d).unwrap().has_children());
    check_invariants(&doc);
}

#[test]
fn clone_and_import() {
    let mut doc =
        Document::parse("<div id=d><p class=x>one</p><template><i>t</i></template></div>");
    let d = by_id(&doc, "d");
    let copy = doc.clone_subtree(d).unwrap();
    let body = doc.body().unwrap().node_id();
    doc.append(body, copy).unwrap();
    // The copy is independent of the original.
    let copy_p = doc.node(copy).unwrap().first_child().unwrap().node_id();
    doc.set_attribute(copy_p, "class", "y").unwrap();
    let copy_text = doc.node(copy_p).unwrap().first_child().unwrap().node_id();
    doc.set_text(copy_text, "two").unwrap();
    assert_eq!(
        doc.body().unwrap().inner_html(),
        r#"<div id="d"><p class="x">one</p><template><i>t</i></template></div><div id="d"><p class="y">two</p><template><i>t</i></template></div>"#
    );
    // Import from another document.
    let other =
        Document::parse("<section><h1 data-k=v>Title</h1><svg><path d='M0'/></svg></section>");
    let section = other.body().unwrap().first_child().unwrap().node_id();
    let imported = doc.import_subtree(&other, section).unwrap();
    doc.append(body, imported).unwrap();
    assert!(doc.body().unwrap().html().ends_with(
        r#"<section><h1 data-k="v">Title</h1><svg><path d="M0"></path></svg></section></body>"#
    ));
    check_invariants(&doc);
}

#[test]
fn inner_html() {
    let mut doc =
        Document::parse("<div id=d>old</div><template id=t>x</template><table id=table></table>");
    let d = by_id(&doc, "d");
    doc.set_inner_html(d, "<p>new<b>bold</p>text").unwrap();
    assert_eq!(
        doc.node(d).unwrap().inner_html(),
        "<p>new<b>bold</b></p><b>text</b>"
    );
    let t = by_id(&doc, "t");
    doc.set_inner_html(t, "<td>cell</td>").unwrap();
    assert_eq!(doc.node(t).unwrap().inner_html(), "<td>cell</td>");
    assert!(
        !doc.node(t).unwrap().has_children(),
        "template children go into its contents"
    );
    let table = by_id(&doc, "table");
    doc.set_inner_html(table, "<tr><td>1").unwrap();
    assert_eq!(
        doc.node(table).unwrap().inner_html(),
        "<tbody><tr><td>1</td></tr></tbody>"
    );
    check_invariants(&doc);
}

#[test]
fn fragments_insert_their_children() {
    let mut doc = Document::parse("<ul id=u></ul>");
    let u = by_id(&doc, "u");
    let frag = doc.new_fragment();
    for name in ["a", "b"] {
        let li = doc.new_element("li").unwrap();
        let t = doc.new_text(name);
        doc.append(li, t).unwrap();
        doc.append(frag, li).unwrap();
    }
    doc.append(u, frag).unwrap();
    assert_eq!(doc.node(u).unwrap().inner_html(), "<li>a</li><li>b</li>");
    assert!(!doc.node(frag).unwrap().has_children());
    check_invariants(&doc);
}

/// Random sequences of operations (some invalid) keep every invariant.
#[test]
fn random_operations_keep_the_tree_valid() {
    let mut doc = Document::parse(
        "<!DOCTYPE html><div><p>a<b>b</b></p><template><i>t</i></template><table><tr><td>c</table></div>",
    );
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for step in 0..3000 {
        let mut nodes: Vec<NodeId> = doc.root().descendants().map(|n| n.node_id()).collect();
        if nodes.is_empty() {
            nodes.push(doc.root().node_id());
        }
        let pick = |r: usize| nodes[r % nodes.len()];
        let (a, b) = (pick(rand(1 << 20)), pick(rand(1 << 20)));
        let _ = match rand(12) {
            0 => doc.append(a, b),
            1 => doc.prepend(a, b),
            2 => doc.insert_before(a, b),
            3 => doc.insert_after(a, b),
            4 => doc.detach(a),
            5 if nodes.len() > 20 => doc.decompose(a),
            5 => doc.remove(a),
            6 => doc.new_element("em").and_then(|e| doc.append(a, e)),
            7 => doc.set_attribute(a, "k", "v"),
            8 => doc.clone_subtree(a).and_then(|c| doc.append(b, c)),
            9 => doc.set_text(a, "t"),
            10 => doc.replace(a, b),
            _ => doc.set_inner_html(a, "<p>x<td>y"),
        };
        check_invariants(&doc);
        assert!(
            !doc.html().is_empty() || doc.root().children().count() == 0,
            "step {step}"
        );
    }
    // Everything still serializes and parses.
    let html = doc.html();
    let _ = Document::parse(&html);
}

#[test]
fn kinds_and_namespaces_of_created_nodes() {
    let mut doc = Document::new();
    let svg = doc.new_element_ns(Namespace::Svg, "foreignObject").unwrap();
    let e = doc.node(svg).unwrap().as_element().unwrap();
    assert_eq!(
        (e.namespace(), e.local_name()),
        (Namespace::Svg, "foreignObject")
    );
    let pi = doc.new_processing_instruction("xml-stylesheet", "href=a.css");
    assert!(matches!(
        doc.node(pi).unwrap().kind(),
        NodeKind::ProcessingInstruction {
            target: "xml-stylesheet",
            ..
        }
    ));
    let root = doc.root().node_id();
    let doctype = doc.new_doctype("html", "", "");
    doc.append(root, doctype).unwrap();
    let html = doc.new_element("html").unwrap();
    doc.append(root, html).unwrap();
    // The DOCTYPE stays first.
    assert_eq!(doc.html(), "<!DOCTYPE html><html></html>");
    check_invariants(&doc);
}

/// Issue 32, "Removal destroys the subtree": as the DOM's `remove()` (and BeautifulSoup's
/// `extract()`), a removed node and its subtree stay live and detached; removing a detached
/// node does nothing; `decompose` frees.
#[test]
fn removal_keeps_the_subtree_live_and_detached() {
    use html_arena::Selector;
    let mut doc = Document::parse(
        "<nav><a href=/a>A</a><script>x()</script></nav><main><p id=p>t</p></main>\
         <footer>f</footer>",
    );
    let sel = Selector::parse("script, nav, footer").unwrap();
    let ids: Vec<NodeId> = doc.select(&sel).map(|e| e.node_id()).collect();
    assert_eq!(ids.len(), 3);
    // The script lies inside the nav removed first: removing it still works.
    for &id in &ids {
        doc.remove(id).expect("remove");
        check_invariants(&doc);
    }
    assert_eq!(
        doc.body().unwrap().inner_html(),
        "<main><p id=\"p\">t</p></main>"
    );
    // Every removed node is readable, detached.
    let nav = doc.node(ids[0]).expect("live");
    assert!(nav.parent().is_none());
    assert_eq!(nav.html(), "<nav><a href=\"/a\">A</a></nav>");
    assert_eq!(doc.node(ids[1]).unwrap().text(), "x()");
    // Nothing removed is found by the document's queries (the selector index agrees).
    assert_eq!(doc.select(&sel).count(), 0);
    assert_eq!(doc.select(&Selector::parse("a").unwrap()).count(), 0);
    // Removing a detached node again is a no-op.
    let before = doc.html();
    doc.remove(ids[0]).expect("no-op");
    doc.remove(ids[2]).expect("no-op");
    assert_eq!(doc.html(), before);
    // A removed subtree goes back in elsewhere, and queries find it there.
    let main = doc.select_first(&Selector::parse("main").unwrap()).unwrap();
    let main = main.node_id();
    doc.append(main, ids[0]).unwrap();
    check_invariants(&doc);
    let found: Vec<String> = doc
        .select(&Selector::parse("main a").unwrap())
        .map(|e| e.attr("href").unwrap().to_owned())
        .collect();
    assert_eq!(found, ["/a"]);
    // The root still cannot be removed.
    let root = doc.root().node_id();
    assert!(matches!(
        doc.remove(root),
        Err(MutationError::HierarchyRequest(_))
    ));
}

#[test]
fn decompose_frees_the_subtree() {
    let mut doc = Document::parse("<div id=d><p id=p>x<template><b>t</b></template></p></div>");
    let div = by_id(&doc, "d");
    let p = by_id(&doc, "p");
    let text = doc.node(p).unwrap().first_child().unwrap().node_id();
    doc.decompose(div).unwrap();
    check_invariants(&doc);
    assert_eq!(doc.body().unwrap().inner_html(), "");
    for id in [div, p, text] {
        assert!(doc.node(id).is_none());
        assert!(matches!(
            doc.set_text(id, "y"),
            Err(MutationError::InvalidNode(_))
        ));
    }
    // Decomposing a freed node is a stale-node error; removing one too.
    assert!(matches!(
        doc.decompose(p),
        Err(MutationError::InvalidNode(_))
    ));
    assert!(matches!(doc.remove(p), Err(MutationError::InvalidNode(_))));
    // A removed (detached) node can be decomposed later.
    let mut doc = Document::parse("<p id=p>x</p>");
    let p = by_id(&doc, "p");
    doc.remove(p).unwrap();
    assert!(doc.node(p).is_some());
    doc.decompose(p).unwrap();
    assert!(doc.node(p).is_none());
}

#[test]
fn stale_node_errors_have_one_wording() {
    let mut doc = Document::parse("<p id=p>x</p>");
    let p = by_id(&doc, "p");
    doc.decompose(p).unwrap();
    let message = doc.append(p, p).unwrap_err().to_string();
    assert!(message.starts_with("NodeId("), "{message}");
    assert!(
        message.ends_with(
            "is stale: it was freed (decompose(), or its parent's contents were replaced) \
             or belongs to another document"
        ),
        "{message}"
    );
}
