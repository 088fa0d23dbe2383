//! The extended selector syntax (`Selector::parse_extended`): the text pseudo-classes
//! `:contains()`, `:-soup-contains()`, `:-soup-contains-own()` and `:has-text()`, checked
//! against their definitions computed naively (an element's text content searched directly),
//! on small trees, a vendored real page and 100,000-deep trees on a small stack.

mod common;
use common::small_stack;

use html_arena::{Document, ElementRef, NodeId, NodeRef, Selector};

fn ext(s: &str) -> Selector {
    Selector::parse_extended(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn texts(doc: &Document, sel: &str) -> Vec<String> {
    doc.select(&ext(sel)).map(|e| e.text()).collect()
}

/// `:has-text()`'s comparison form: lowercase, white space runs as one space.
fn normalized(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The own text nodes of `e`.
fn own_texts(e: ElementRef<'_>) -> Vec<String> {
    e.as_node()
        .children()
        .filter(|n| n.is_text())
        .map(NodeRef::text)
        .collect()
}

/// Every element of `doc`'s tree, in document order.
fn elements(doc: &Document) -> Vec<ElementRef<'_>> {
    doc.root()
        .descendants()
        .filter_map(|n| n.as_element())
        .collect()
}

#[test]
fn standard_parsing_rejects_the_extensions() {
    for s in [
        "p:contains(x)",
        "p:-soup-contains('x')",
        "p:-soup-contains-own('x')",
        "p:has-text('x')",
    ] {
        assert!(Selector::parse(s).is_err(), "{s}");
        assert!(Selector::parse_extended(s).is_ok(), "{s}");
    }
    // Bad arguments are errors with a position, as for any selector.
    for s in [
        "p:contains()",
        "p:contains(1)",
        "p:has-text('a' 'b')",
        "p:contains('a',)",
    ] {
        let e = Selector::parse_extended(s).expect_err(s);
        assert!(e.offset() <= s.len(), "{s}");
    }
    // Standard selectors parse the same either way.
    let sel = ext("ul > li:nth-child(2n+1):has(> b), a[href]");
    assert_eq!(
        sel.to_string(),
        Selector::parse("ul > li:nth-child(2n+1):has(> b), a[href]")
            .unwrap()
            .to_string()
    );
    // The extensions serialize with quoted strings.
    assert_eq!(
        ext("p:contains(a, 'b c'):has-text(\"X\")").to_string(),
        "p:contains(\"a\", \"b c\"):has-text(\"X\")"
    );
}

#[test]
fn what_each_matches() {
    let doc = Document::parse(
        "<div id=d><p>Price: <b>10</b> EUR</p><p>price: 20 eur</p>\
         <p>Sold\n   <i>OUT</i></p><p></p></div>",
    );
    // Text content across elements, case-sensitive.
    assert_eq!(
        texts(&doc, "p:contains('Price: 10 EUR')"),
        ["Price: 10 EUR"]
    );
    assert_eq!(texts(&doc, "p:contains(EUR)"), ["Price: 10 EUR"]);
    assert_eq!(
        texts(&doc, "p:-soup-contains('10', '20')"),
        ["Price: 10 EUR", "price: 20 eur"]
    );
    // Ancestors match too.
    assert_eq!(doc.select(&ext(":contains('10 E')")).count(), 4); // html, body, div, p
    // Own text: not the b's.
    assert_eq!(
        texts(&doc, "p:-soup-contains-own('10')"),
        Vec::<String>::new()
    );
    assert_eq!(texts(&doc, "b:-soup-contains-own('10')"), ["10"]);
    assert_eq!(
        texts(&doc, "p:-soup-contains-own(' EUR')"),
        ["Price: 10 EUR"]
    );
    // has-text: case and white space ignored, the string trimmed.
    assert_eq!(
        texts(&doc, "p:has-text('  PRICE: 10 eur ')"),
        ["Price: 10 EUR"]
    );
    assert_eq!(texts(&doc, "p:has-text('sold out')"), ["Sold\n   OUT"]);
    // The empty string is in every text content, the empty one too; in every text node.
    assert_eq!(doc.select(&ext("p:contains('')")).count(), 4);
    assert_eq!(doc.select(&ext("p:-soup-contains-own('')")).count(), 3);
    // In combination with combinators, :not() and :has().
    assert_eq!(
        texts(&doc, "div > p:not(:contains(EUR)):contains(e)"),
        ["price: 20 eur"]
    );
    assert_eq!(doc.select(&ext("div:has(> p:contains('20'))")).count(), 1);
    assert_eq!(texts(&doc, "p:contains(Price) + p"), ["price: 20 eur"]);
    // closest, matches and queries from an element.
    let b = doc.select_first(&ext("b")).expect("b");
    assert_eq!(
        b.closest(&ext("div:contains('Sold')"))
            .map(|e| e.attr("id")),
        Some(Some("d"))
    );
    assert!(b.matches(&ext(":contains('1')")));
    assert!(!b.matches(&ext(":contains('EUR')")));
    let div = doc.select_first(&ext("div")).expect("div");
    assert_eq!(div.select(&ext("i:has-text(out)")).count(), 1);
}

#[test]
fn matches_follow_mutations() {
    let mut doc = Document::parse("<p>old</p><p>other</p>");
    let sel = ext("p:contains(new)");
    assert_eq!(doc.select(&sel).count(), 0);
    let p = doc.select_first(&ext("p")).expect("p").node_id();
    doc.set_text(p, "brand new").expect("text");
    assert_eq!(texts(&doc, "p:contains(new)"), ["brand new"]);
    let span = doc.new_element("span").expect("span");
    let t = doc.new_text("renewed");
    doc.append(span, t).expect("append");
    let second: NodeId = doc.select(&ext("p")).nth(1).expect("p").node_id();
    doc.append(second, span).expect("append");
    assert_eq!(doc.select(&sel).count(), 2);
    doc.remove(p).expect("remove");
    assert_eq!(texts(&doc, "p:contains(new)"), ["otherrenewed"]);
}

/// Every element's answer against the naive definition, for several strings.
fn check_against_naive(doc: &Document, needles: &[&str]) {
    let all = elements(doc);
    for needle in needles {
        let quoted = format!("{needle:?}");
        for (pseudo, naive) in [
            (
                "contains",
                &(|e: ElementRef<'_>, n: &str| e.text().contains(n))
                    as &dyn Fn(ElementRef<'_>, &str) -> bool,
            ),
            ("-soup-contains-own", &|e: ElementRef<'_>, n: &str| {
                own_texts(e).iter().any(|t| t.contains(n))
            }),
            ("has-text", &|e: ElementRef<'_>, n: &str| {
                normalized(&e.text()).contains(&normalized(n))
            }),
        ] {
            let sel = ext(&format!(":{pseudo}({quoted})"));
            let got: Vec<NodeId> = doc.select(&sel).map(|e| e.node_id()).collect();
            let want: Vec<NodeId> = all
                .iter()
                .filter(|e| naive(**e, needle))
                .map(|e| e.node_id())
                .collect();
            assert_eq!(got, want, ":{pseudo}({quoted})");
        }
    }
}

#[test]
fn agrees_with_the_definition_on_nested_trees() {
    let doc = Document::parse(
        "<div>ab<span>c</span>d<p>a<b>b</b><i>c<u>d</u></i>e</p>x  Y<em>\n z</em></div>\
         <ul><li>ab</li><li>cd</li><li>a<b></b>b<s>c</s></li></ul><p>ÉCOLE   école</p>",
    );
    check_against_naive(
        &doc,
        &[
            "a",
            "ab",
            "abc",
            "abcd",
            "bcd",
            "cde",
            "abcde",
            "dab",
            "x y z",
            "Y z",
            "y",
            "bc",
            "école école",
            "École",
            "É",
            "",
        ],
    );
}

#[test]
fn agrees_with_the_definition_on_a_real_page() {
    let path = format!(
        "{}/tests/data/bench-corpus/scrapinghub-aeb-011.html",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = String::from_utf8_lossy(&std::fs::read(path).expect("vendored page")).into_owned();
    let doc = Document::parse(&text);
    check_against_naive(&doc, &["the", "The ", "e", "Home", "  of the  ", "©"]);
}

#[test]
fn deep_trees_on_a_small_stack() {
    small_stack(|| {
        const LEVELS: usize = 100_000;
        // A text at every level: each element's text content is the rest of the chain.
        let html = format!("{}end", "<div>x".repeat(LEVELS));
        let doc = Document::parse(&html);
        let divs = doc.select(&ext("div")).count();
        assert_eq!(divs, LEVELS);
        assert_eq!(doc.select(&ext("div:contains(end)")).count(), LEVELS);
        assert_eq!(
            doc.select(&ext("div:contains('xxend')")).count(),
            LEVELS - 1
        );
        assert_eq!(doc.select(&ext("div:-soup-contains-own(end)")).count(), 1);
        assert_eq!(
            doc.select(&ext("div:has-text(' XXEND ')")).count(),
            LEVELS - 1
        );
        assert_eq!(doc.select(&ext("div:contains(nothere)")).count(), 0);
        // A long string: the whole text of the 1,000 deepest levels.
        let tail = format!("{}end", "x".repeat(1000));
        assert_eq!(
            doc.select(&ext(&format!("div:contains('{tail}')"))).count(),
            LEVELS - 999
        );
        let deepest = doc.select(&ext("div:contains(end)")).last().expect("div");
        assert!(deepest.matches(&ext(":-soup-contains-own(xend)")));
        assert_eq!(
            deepest
                .closest(&ext("body > div:contains('xxxxxxxxxxend')"))
                .map(|e| e.node_id()),
            doc.select_first(&ext("body > div")).map(|e| e.node_id())
        );
        // No text at all down a deep chain.
        let bare = Document::parse(&"<i>".repeat(LEVELS));
        assert_eq!(bare.select(&ext("i:contains(a)")).count(), 0);
        let all = bare.select(&ext("i")).count();
        assert!(all >= LEVELS / 2, "{all}");
        assert_eq!(bare.select(&ext("i:has-text('')")).count(), all);
    });
}
