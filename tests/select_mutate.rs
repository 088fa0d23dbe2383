//! Queries mixed with mutations: the selector index follows each mutation (attribute edits in
//! place, tombstones for removed subtrees, appended elements at the end of the document,
//! elements inserted before others kept in document order by labels; see
//! `src/query/index.rs`),
//! so every query after a mutation must answer exactly what a query on a freshly indexed copy
//! of the same tree answers. Also the loops a scraper writes (remove matches one at a time,
//! mark elements while walking up from them), checked for their results (their cost is
//! measured in `benches/query_mutate.rs`, never here).

use html_arena::{Document, NodeId, ParseOptions, Selector};

/// Selectors that exercise every path: candidate lists (ids, classes, names), scans, the
/// ancestor filter, sibling combinators, `:nth-child`, `:has()` and the pseudo-classes that
/// read tree-wide state.
const SELECTORS: [&str; 30] = [
    "a",
    "a[href]",
    "div p",
    "div > p",
    "ul li a",
    "li:nth-child(2n+1)",
    "li:last-child",
    "p:first-child",
    ":first-child",
    "h1, h2, h3",
    "span + span",
    "li ~ li",
    "div:has(> img)",
    "section:has(.ad)",
    ":is(h1, h2, h3) ~ p",
    ".ad",
    "div.ad",
    ".story .k",
    ".k, .new",
    "#main",
    "#main li",
    "[data-seen]",
    ".new",
    "body > *",
    "*",
    ":empty",
    "input:checked",
    "input:disabled, fieldset:disabled",
    ":root > body",
    "li:only-child",
];

/// A page with a bit of everything the selectors above look at.
fn synthetic_page() -> String {
    let mut html = String::from(
        "<!DOCTYPE html><html><head><title>t</title></head><body><div id=main>\
         <form><fieldset disabled><input type=checkbox checked><input name=a></fieldset>\
         <input type=radio name=r checked><input type=radio name=r></form>",
    );
    for i in 0..40 {
        html.push_str("<section class=story><h2><a href=/s>Story</a></h2><p>intro</p><ul>");
        for j in 0..(i % 4 + 1) {
            html.push_str(&format!(
                "<li><span class=k>{j}</span><span>x</span> <a href=/x>x</a></li>"
            ));
        }
        html.push_str("</ul>");
        if i % 3 != 2 {
            html.push_str("<div class=ad><img src=a.png alt=ad></div>");
        }
        html.push_str("<div><p>a</p><p></p></div></section>");
    }
    html.push_str("</div><p id=last>end</p></body></html>");
    html
}

fn vendored_page(name: &str) -> String {
    let path = format!(
        "{}/tests/data/bench-corpus/{name}.html",
        env!("CARGO_MANIFEST_DIR")
    );
    String::from_utf8_lossy(&std::fs::read(path).expect("vendored page")).into_owned()
}

fn parse(text: &str) -> Document {
    Document::parse_with(text, &ParseOptions::default())
}

fn selectors() -> Vec<Selector> {
    SELECTORS
        .iter()
        .map(|s| Selector::parse(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .chain(
            // The extended syntax's text pseudo-classes (whole-tree state per query).
            EXTENDED
                .iter()
                .map(|s| Selector::parse_extended(s).unwrap_or_else(|e| panic!("{s}: {e}"))),
        )
        .collect()
}

/// Selectors of the extended syntax (`Selector::parse_extended`).
const EXTENDED: [&str; 3] = [
    "li:contains('k x')",
    "section:has-text('STORY')",
    ":-soup-contains-own(text, inner)",
];

/// A copy of `doc` whose selector index is built afresh by its next query: the same tree, the
/// same node ids.
fn fresh_copy(doc: &Document) -> Document {
    let mut copy = doc.clone();
    // Inserting an element while the document has template contents drops the index (other
    // insertions keep it up to date); removing it again leaves the tree as it was.
    let html = copy
        .root()
        .children()
        .find(|n| n.is_element())
        .expect("html")
        .node_id();
    let probe = copy.new_element("template").expect("element");
    copy.prepend(html, probe).expect("prepend");
    copy.remove(probe).expect("remove");
    copy
}

fn ids(doc: &Document, selector: &Selector) -> Vec<NodeId> {
    doc.select(selector).map(|e| e.node_id()).collect()
}

/// The ids of the elements below `<body>`, in tree order.
fn body_elements(doc: &Document) -> Vec<NodeId> {
    doc.body()
        .expect("body")
        .as_node()
        .descendants()
        .skip(1)
        .filter(|n| n.is_element())
        .map(|n| n.node_id())
        .collect()
}

/// Every selector answers on `doc` what it answers on a fresh copy; `closest` and `matches`
/// agree too, from a sample of elements.
fn check(doc: &Document, selectors: &[Selector], what: &str) {
    let copy = fresh_copy(doc);
    let elements: Vec<NodeId> = doc
        .root()
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| n.node_id())
        .collect();
    let step = (elements.len() / 25).max(1);
    for selector in selectors {
        assert_eq!(
            ids(doc, selector),
            ids(&copy, selector),
            "{what}: {selector:?}"
        );
        for &id in elements.iter().step_by(step) {
            let (ours, theirs) = (
                doc.node(id).and_then(|n| n.as_element()).expect("live"),
                copy.node(id).and_then(|n| n.as_element()).expect("live"),
            );
            assert_eq!(
                ours.matches(selector),
                theirs.matches(selector),
                "{what}: {selector:?} matches {id:?}"
            );
            assert_eq!(
                ours.closest(selector).map(|e| e.node_id()),
                theirs.closest(selector).map(|e| e.node_id()),
                "{what}: {selector:?} closest from {id:?}"
            );
        }
    }
}

/// A small deterministic generator (xorshift), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Runs `rounds` random mutations on `doc`, checking every query after each.
fn mutate_and_check(mut doc: Document, seed: u64, rounds: usize) {
    let selectors = selectors();
    // Query enough for the index to build its candidate lists.
    for _ in 0..2 {
        for selector in &selectors {
            doc.select(selector).count();
        }
    }
    check(&doc, &selectors, "before mutating");
    let mut rng = Rng(seed);
    for round in 0..rounds {
        let elements = body_elements(&doc);
        if elements.len() < 4 {
            break;
        }
        let target = elements[rng.next(elements.len())];
        let other = elements[rng.next(elements.len())];
        let what = match rng.next(19) {
            0 => {
                doc.set_attribute(target, "class", ["ad", "new k", "story", ""][rng.next(4)])
                    .expect("class");
                "set class"
            }
            1 => {
                doc.set_attribute(target, "id", ["main", "x", "last"][rng.next(3)])
                    .expect("id");
                "set id"
            }
            2 => {
                doc.set_attribute(target, "data-seen", "1").expect("attr");
                "set data-seen"
            }
            3 => {
                doc.remove_attribute(target, "class").expect("remove class");
                "remove class"
            }
            4 => {
                doc.remove(target).expect("remove");
                "remove"
            }
            5 => {
                doc.decompose(target).expect("decompose");
                "decompose"
            }
            6 => {
                doc.detach(target).expect("detach");
                "detach"
            }
            7 => {
                doc.set_text(target, "text").expect("set text");
                "set text"
            }
            8 => {
                let p = doc.new_element("p").expect("p");
                doc.set_attribute(p, "class", "new").expect("class");
                let _ = doc.append(target, p);
                "append new"
            }
            9 | 10 => {
                // Move an element (refused when it would go inside itself).
                let _ = doc.insert_before(target, other);
                "move"
            }
            11 => {
                let html = [
                    "<span class=k>inner</span> <a href=/n>x</a>",
                    "<div class=ad><p>p</p><img alt=a></div><p class=new>n</p>",
                    "<ul><li>k x<li>2</ul>",
                ][rng.next(3)];
                doc.set_inner_html(target, html).expect("inner html");
                "set inner html"
            }
            12 => {
                // A copy of another element (and its subtree) after the target.
                let copy = doc.clone_subtree(other).expect("clone");
                doc.insert_after(target, copy).expect("insert copy");
                "insert clone"
            }
            13 => {
                // Elements parsed elsewhere, imported, prepended.
                let source = Document::parse("<section class=story><h2>Story</h2><p>s</p>");
                let section = source
                    .select_first(&Selector::parse("section").expect("selector"))
                    .expect("section")
                    .node_id();
                let imported = doc.import_subtree(&source, section).expect("import");
                doc.prepend(target, imported).expect("prepend");
                "prepend imported"
            }
            14 => {
                // A fragment of two elements and a text.
                let fragment = doc.new_fragment();
                for (name, class) in [("div", "ad"), ("li", "new")] {
                    let e = doc.new_element(name).expect("element");
                    doc.set_attribute(e, "class", class).expect("class");
                    doc.append(fragment, e).expect("into fragment");
                }
                let text = doc.new_text("text");
                doc.append(fragment, text).expect("into fragment");
                doc.append(target, fragment).expect("fragment");
                "append fragment"
            }
            15 => {
                // A new subtree before the target (the index keeps it, by labels).
                let div = doc.new_element("div").expect("div");
                doc.set_attribute(div, "class", "ad").expect("class");
                let p = doc.new_element("p").expect("p");
                doc.set_attribute(p, "class", "new").expect("class");
                doc.append(div, p).expect("append");
                doc.insert_before(target, div).expect("insert before");
                "insert new before"
            }
            16 => {
                let li = doc.new_element("li").expect("li");
                doc.set_attribute(li, "id", "x").expect("id");
                let _ = doc.insert_after(target, li);
                "insert new after"
            }
            17 => {
                let span = doc.new_element("span").expect("span");
                doc.set_attribute(span, "class", "k").expect("class");
                doc.prepend(target, span).expect("prepend");
                "prepend new"
            }
            _ => {
                let new = doc.new_element("section").expect("section");
                doc.set_attribute(new, "class", "story").expect("class");
                doc.replace(target, new).expect("replace");
                "replace"
            }
        };
        // Each mutation changes at most a subtree: queries issued while the index is stale
        // go through the same paths as after several mutations.
        if round % 3 == 2 || what == "remove" || round % 5 == 4 {
            check(&doc, &selectors, &format!("round {round}: {what}"));
        }
    }
    check(&doc, &selectors, "after all rounds");
}

#[test]
fn random_mutations_on_a_synthetic_page() {
    for seed in [1, 2, 3] {
        mutate_and_check(parse(&synthetic_page()), 0x9e37_79b9_7f4a_7c15 ^ seed, 60);
    }
}

#[test]
fn random_mutations_on_a_real_page() {
    mutate_and_check(parse(&vendored_page("scrapinghub-aeb-011")), 7, 40);
}

#[test]
fn removing_matches_one_at_a_time_removes_them_all() {
    let text = synthetic_page();
    let ad = Selector::parse("div.ad").expect("selector");
    let mut looped = parse(&text);
    let expected = looped.select(&ad).count();
    assert_eq!(expected, 27);
    let mut removed = 0;
    while let Some(e) = looped.select_first(&ad) {
        let id = e.node_id();
        looped.remove(id).expect("remove");
        // Removed, not freed: live and detached.
        assert!(looped.node(id).is_some_and(|n| n.parent().is_none()));
        removed += 1;
        assert!(removed <= expected, "a removed element was found again");
    }
    assert_eq!(removed, expected);
    // The same tree as collecting the ids first, then freeing them.
    let mut collected = parse(&text);
    let matches: Vec<NodeId> = collected.select(&ad).map(|e| e.node_id()).collect();
    for id in matches {
        collected.decompose(id).expect("decompose");
        assert!(collected.node(id).is_none());
    }
    assert_eq!(looped.html(), collected.html());
    assert_eq!(looped.select(&ad).count(), 0);
    // The elements around the removed ones are still found, in order.
    let story = Selector::parse("section.story > :last-child").expect("selector");
    assert_eq!(ids(&looped, &story), ids(&fresh_copy(&looped), &story));
    assert_eq!(looped.select(&story).count(), 40);
}

#[test]
fn removing_the_first_match_repeatedly_with_sibling_selectors() {
    // Removing an element changes which of its siblings match `:first-child`, `+` and `~`.
    let mut doc = parse("<ul><li>1<li>2<li>3<li>4<li>5</ul>");
    let first = Selector::parse("li:first-child").expect("selector");
    let mut texts = Vec::new();
    while let Some(e) = doc.select_first(&first) {
        texts.push(e.text());
        let id = e.node_id();
        doc.remove(id).expect("remove");
    }
    assert_eq!(texts, ["1", "2", "3", "4", "5"]);
    let mut doc = parse("<p>0</p><div>a</div><div>b</div><div>c</div>");
    let next = Selector::parse("p + div").expect("selector");
    let mut texts = Vec::new();
    while let Some(e) = doc.select_first(&next) {
        texts.push(e.text());
        let id = e.node_id();
        doc.remove(id).expect("remove");
    }
    assert_eq!(texts, ["a", "b", "c"]);
}

#[test]
fn marking_elements_while_walking_up() {
    let text = synthetic_page();
    let mut doc = parse(&text);
    let k = Selector::parse("span.k").expect("selector");
    let up = Selector::parse("section.story > ul").expect("selector");
    let seen = Selector::parse("[data-seen]").expect("selector");
    let targets: Vec<NodeId> = doc.select(&k).map(|e| e.node_id()).collect();
    let expected: Vec<Option<NodeId>> = targets
        .iter()
        .map(|&id| {
            let e = doc.node(id).and_then(|n| n.as_element()).expect("live");
            e.closest(&up).map(|e| e.node_id())
        })
        .collect();
    for (i, &id) in targets.iter().enumerate() {
        doc.set_attribute(id, "data-seen", &i.to_string())
            .expect("set");
        let e = doc.node(id).and_then(|n| n.as_element()).expect("live");
        assert_eq!(e.closest(&up).map(|e| e.node_id()), expected[i]);
        assert!(e.matches(&seen));
        // What the edit added is visible to the next query.
        assert_eq!(doc.select(&seen).count(), i + 1);
    }
    // A class added to an element is found through the class list.
    let new = Selector::parse(".new").expect("selector");
    for (i, &id) in targets.iter().enumerate().take(20) {
        doc.set_attribute(id, "class", "k new").expect("set");
        assert_eq!(doc.select(&new).count(), i + 1);
        assert_eq!(
            doc.select_first(&new).map(|e| e.node_id()),
            Some(targets[0])
        );
    }
}

#[test]
fn inserting_then_querying() {
    let mut doc = parse(&synthetic_page());
    let main = doc
        .select_first(&Selector::parse("#main").expect("selector"))
        .expect("main")
        .node_id();
    let new = Selector::parse("#main > p.new").expect("selector");
    let up = Selector::parse("div#main").expect("selector");
    for i in 0..50 {
        let p = doc.new_element("p").expect("p");
        doc.set_attribute(p, "class", "new").expect("class");
        doc.append(main, p).expect("append");
        let e = doc.node(p).and_then(|n| n.as_element()).expect("live");
        assert_eq!(e.closest(&up).map(|e| e.node_id()), Some(main));
        assert!(e.matches(&new));
        if i % 10 == 9 {
            assert_eq!(doc.select(&new).count(), i + 1);
        }
    }
}

#[test]
fn bulk_operations_on_a_selection() {
    let mut doc = parse(&synthetic_page());
    let ad = Selector::parse(".ad").expect("selector");
    let img = Selector::parse("img").expect("selector");
    assert_eq!(doc.remove_all(&ad), 27);
    assert_eq!(doc.select(&ad).count(), 0);
    // The images inside the removed elements went with them.
    assert_eq!(doc.select(&img).count(), 0);
    let k = Selector::parse("span.k").expect("selector");
    let n = doc.select(&k).count();
    assert_eq!(doc.set_attribute_all(&k, "data-seen", "yes"), Ok(n));
    let seen = Selector::parse("span[data-seen=yes]").expect("selector");
    assert_eq!(doc.select(&seen).count(), n);
    assert!(doc.set_attribute_all(&k, "bad name", "x").is_err());
    // Nested matches: removing the outer one removes the inner one too.
    let mut doc = parse("<div class=x><div class=x><p class=x>a</p></div></div><p>b</p>");
    let x = Selector::parse(".x").expect("selector");
    assert_eq!(doc.remove_all(&x), 3);
    assert_eq!(doc.body().expect("body").inner_html(), "<p>b</p>");
}

#[test]
fn first_queries_walk_and_agree_with_the_index() {
    // Plain compounds on a fresh document walk the tree; on a copy whose index is built (by
    // a selector that is not a plain compound) they use the index. Both must agree, with the
    // case rules of each component.
    let pages = [
        // Quirks mode (no DOCTYPE): ids and classes match ASCII case-insensitively.
        "<div id=Main class='A b'><p class=B>1</p><P CLASS=a>2</P></div>\
         <svg><foreignObject class=a></foreignObject><rect ID=main /></svg>",
        // No-quirks mode.
        "<!DOCTYPE html><div id=Main class='A b'><p class=B>1</p><p class=a>2</p></div>\
         <input type=CHECKBOX name=Q><a href=HTTP://x.example/ hreflang=EN-us>l</a>\
         <svg viewBox='0 0 1 1'><foreignObject class=a></foreignObject><a href=s>s</a></svg>\
         <math><mi class=a>x</mi></math><my-el data-x='a b  c' lang=en-GB></my-el>",
    ];
    let selectors = [
        "#main",
        "#Main",
        ".a",
        ".B",
        "p.b",
        "P",
        "foreignObject",
        "foreignobject",
        "svg|foreignObject",
        "*|rect",
        "[type=checkbox]",
        "[type=checkbox s]",
        "[name=q]",
        "[name=q i]",
        "[href^='http:']",
        "[href^='http:' i]",
        "[hreflang|=en]",
        "[data-x~=b]",
        "[data-x*='b  c']",
        "[data-x$=c]",
        "[lang|=en]",
        "[viewBox]",
        "[viewbox]",
        "a[href], mi.a",
        "*",
        "my-el",
        "[ID]",
        ":root",
        ".a, .b",
    ];
    for page in pages {
        let walked = parse(page);
        let mut indexed = walked.clone();
        let root = Selector::parse(":root > body").expect("selector");
        assert_eq!(indexed.select(&root).count(), 1);
        for text in selectors {
            let selector =
                Selector::parse_with_namespaces(text, &[("svg", "http://www.w3.org/2000/svg")])
                    .expect(text);
            let fresh = walked.clone();
            assert_eq!(
                ids(&fresh, &selector),
                ids(&indexed, &selector),
                "{text:?} on {page:?}"
            );
            // From an element: its descendants, walked and indexed.
            let body = fresh.body().expect("body");
            let from_body: Vec<NodeId> = body.select(&selector).map(|e| e.node_id()).collect();
            let indexed_body: Vec<NodeId> = indexed
                .body()
                .expect("body")
                .select(&selector)
                .map(|e| e.node_id())
                .collect();
            assert_eq!(from_body, indexed_body, "{text:?} from body on {page:?}");
        }
        // Mutations leave the walk and the index agreeing too.
        let div = indexed
            .body()
            .expect("body")
            .first_child()
            .expect("div")
            .node_id();
        indexed.set_attribute(div, "class", "q B").expect("set");
        let class_b = Selector::parse(".b").expect("selector");
        let reference = fresh_copy(&indexed);
        assert_eq!(ids(&indexed, &class_b), ids(&reference, &class_b));
    }
}

#[test]
fn repeated_first_queries_see_every_change() {
    // A walk for a plain compound starts where the previous one found its first match; every
    // change that could make an earlier element match must be seen.
    // (Trailing elements keep the walks short against the document: they stay walks.)
    let mut doc = parse(&format!(
        "<p class=a>1</p><p>2</p><div><p class=a>3</p><p class=a>4</p></div><p class=a>5</p>{}",
        "<b></b>".repeat(500)
    ));
    let a = Selector::parse(".a").expect("selector");
    let first = |doc: &Document| doc.select_first(&a).map(|e| e.text());
    assert_eq!(first(&doc).as_deref(), Some("1"));
    let p1 = doc.select_first(&a).expect("p").node_id();
    doc.remove(p1).expect("remove");
    assert_eq!(first(&doc).as_deref(), Some("3"));
    // An attribute edit before the first match.
    let p2 = doc
        .body()
        .expect("body")
        .first_child()
        .expect("p")
        .node_id();
    doc.set_attribute(p2, "class", "a").expect("class");
    assert_eq!(first(&doc).as_deref(), Some("2"));
    doc.remove_attribute(p2, "class").expect("class");
    assert_eq!(first(&doc).as_deref(), Some("3"));
    // Removing the subtree that holds the first match.
    let div = doc
        .select_first(&Selector::parse("div").expect("div"))
        .expect("div");
    let div = div.node_id();
    assert_eq!(first(&doc).as_deref(), Some("3"));
    doc.remove(div).expect("remove");
    assert_eq!(first(&doc).as_deref(), Some("5"));
    // An element inserted before it; then moved after it.
    let new = doc.new_element("i").expect("i");
    doc.set_attribute(new, "class", "a").expect("class");
    doc.set_text(new, "new").expect("text");
    doc.insert_before(p2, new).expect("insert");
    assert_eq!(first(&doc).as_deref(), Some("new"));
    let body = doc.body().expect("body").node_id();
    doc.append(body, new).expect("move");
    assert_eq!(first(&doc).as_deref(), Some("5"));
    // Text edits change nothing; removing the last match leaves none.
    doc.set_text(p2, "two").expect("text");
    assert_eq!(first(&doc).as_deref(), Some("5"));
    let p5 = doc.select_first(&a).expect("p").node_id();
    doc.remove(p5).expect("remove");
    doc.remove(new).expect("remove");
    assert_eq!(first(&doc), None);
    // Another selector on the same document is not misled by the hint.
    let p = Selector::parse("p").expect("selector");
    assert_eq!(
        doc.select_first(&p).map(|e| e.text()).as_deref(),
        Some("two")
    );
    assert_eq!(doc.select(&a).count(), 0);
    // The walk that found none is remembered ("no element matches"): asked again, still none;
    // any change that can make an element match is seen.
    assert_eq!(first(&doc), None);
    assert_eq!(first(&doc), None);
    doc.set_attribute(p2, "class", "a").expect("class");
    assert_eq!(first(&doc).as_deref(), Some("two"));
    doc.remove(p2).expect("remove");
    assert_eq!(first(&doc), None);
    let b = doc
        .select_first(&Selector::parse("b").expect("b"))
        .expect("b");
    let b = b.node_id();
    let late = doc.new_element("u").expect("u");
    doc.set_attribute(late, "class", "a").expect("class");
    doc.append(b, late).expect("insert");
    assert_eq!(
        doc.select_first(&a).map(|e| e.node_id()),
        Some(late),
        "an inserted match"
    );
}

#[test]
fn appending_at_the_end_while_querying() {
    // Appending after every element of the document extends the index in place (see
    // `src/query/index.rs`): new elements, moved ones, fragments, inner HTML of the last
    // element, mixed with removals; every answer against a freshly indexed copy.
    let mut doc = parse(&synthetic_page());
    let selectors = selectors();
    for selector in &selectors {
        doc.select(selector).count();
    }
    let mut rng = Rng(99);
    for round in 0..40 {
        let body = doc.body().expect("body").node_id();
        // The last element of the document: appending to it or to any of its ancestors is
        // appending at the end.
        let last = doc
            .root()
            .descendants()
            .filter(|n| n.is_element())
            .last()
            .expect("element")
            .node_id();
        let parent = if rng.next(2) == 0 { body } else { last };
        let what = match rng.next(5) {
            0 => {
                let e = doc
                    .new_element(["li", "div", "span"][rng.next(3)])
                    .expect("e");
                doc.set_attribute(e, "class", ["ad", "new k", "story"][rng.next(3)])
                    .expect("class");
                let text = doc.new_text("k x");
                doc.append(e, text).expect("text");
                doc.append(parent, e).expect("append");
                "append new"
            }
            1 => {
                // Move an earlier element to the end.
                let elements = body_elements(&doc);
                let moved = elements[rng.next(elements.len())];
                let _ = doc.append(body, moved);
                "move to the end"
            }
            2 => {
                let fragment = doc.new_fragment();
                for name in ["p", "div"] {
                    let e = doc.new_element(name).expect("e");
                    doc.append(fragment, e).expect("into fragment");
                    let t = doc.new_text("inner");
                    doc.append(fragment, t).expect("into fragment");
                }
                doc.append(parent, fragment).expect("fragment");
                "append fragment"
            }
            3 => {
                doc.set_inner_html(last, "<ul><li class=k>k x<li>2</ul><div class=ad></div>")
                    .expect("inner html");
                "inner html of the last element"
            }
            _ => {
                let first = doc
                    .select_first(&Selector::parse("section").expect("selector"))
                    .map(|e| e.node_id());
                if let Some(first) = first {
                    doc.remove(first).expect("remove");
                }
                "remove a section"
            }
        };
        check(&doc, &selectors, &format!("round {round}: {what}"));
    }
}

#[test]
fn inserting_before_elements_while_querying() {
    // Elements inserted before indexed elements keep the index, in document order by labels
    // (see `src/query/index.rs`): many before the same element (the labels between two
    // neighbours run out, and ranges are relabeled), before random elements, as first
    // children, moved, and mixed with removals; `select_first` after each step, every answer
    // against a freshly indexed copy at intervals.
    let mut doc = parse(&synthetic_page());
    let selectors = selectors();
    for _ in 0..2 {
        for selector in &selectors {
            doc.select(selector).count();
        }
    }
    let first_new = Selector::parse("section > p.new, ul > .new").expect("selector");
    let fixed = doc
        .select_first(&Selector::parse("section ul").expect("selector"))
        .expect("ul")
        .node_id();
    let mut rng = Rng(2024);
    let mut inserted: Vec<NodeId> = Vec::new();
    for round in 0..600 {
        let elements = body_elements(&doc);
        let what = match rng.next(6) {
            0 | 1 => {
                // Before the same element, again and again.
                let p = doc.new_element("p").expect("p");
                doc.set_attribute(p, "class", "new").expect("class");
                doc.insert_before(fixed, p).expect("insert");
                inserted.push(p);
                "before the same element"
            }
            2 => {
                let target = elements[rng.next(elements.len())];
                let li = doc.new_element("li").expect("li");
                doc.set_attribute(li, "class", "new k").expect("class");
                let span = doc.new_element("span").expect("span");
                doc.append(li, span).expect("child");
                let _ = doc.insert_before(target, li);
                inserted.push(li);
                "before a random element"
            }
            3 => {
                let target = elements[rng.next(elements.len())];
                let a = doc.new_element("a").expect("a");
                doc.set_attribute(a, "href", "/p").expect("href");
                doc.prepend(target, a).expect("prepend");
                "first child"
            }
            4 => {
                let (target, moved) = (
                    elements[rng.next(elements.len())],
                    elements[rng.next(elements.len())],
                );
                let _ = doc.insert_before(target, moved);
                "move"
            }
            _ => {
                if let Some(&gone) = inserted.get(rng.next(inserted.len().max(1))) {
                    if doc.node(gone).is_some() {
                        doc.remove(gone).expect("remove");
                    }
                }
                "remove an inserted element"
            }
        };
        // The first match in document order, against a walk over the tree.
        let expected = doc
            .root()
            .descendants()
            .filter_map(|n| n.as_element())
            .find(|e| e.matches(&first_new))
            .map(|e| e.node_id());
        assert_eq!(
            doc.select_first(&first_new).map(|e| e.node_id()),
            expected,
            "round {round}: {what}"
        );
        if round % 50 == 49 {
            check(&doc, &selectors, &format!("round {round}: {what}"));
        }
    }
    check(&doc, &selectors, "after all rounds");
}

#[test]
#[cfg(feature = "xpath")]
fn additions_to_candidate_lists_built_empty() {
    // A query builds the class list of a page without classes (empty); elements inserted
    // afterwards, at the end or before others, are found by class, and XPath name tests
    // (which read the same lists) see them too.
    use html_arena::xpath::XPath;
    for place in ["append", "before"] {
        let mut doc = parse("<section><h2>t</h2><ul><li>a<li>b</ul></section>");
        let new = Selector::parse("section > p.new").expect("selector");
        assert!(doc.select_first(&new).is_none());
        let count_p = XPath::parse("count(//p)").expect("xpath");
        assert_eq!(doc.xpath(&count_p).expect("xpath").number(), 0.0);
        let section = doc
            .select_first(&Selector::parse("section").expect("selector"))
            .expect("section")
            .node_id();
        let h2 = doc
            .select_first(&Selector::parse("h2").expect("selector"))
            .expect("h2")
            .node_id();
        for k in 0..3 {
            let p = doc.new_element("p").expect("p");
            doc.set_attribute(p, "class", "new").expect("class");
            if place == "append" {
                doc.append(section, p).expect("append");
            } else {
                doc.insert_before(h2, p).expect("insert");
            }
            assert_eq!(doc.select(&new).count(), k + 1, "{place} {k}");
            assert_eq!(
                doc.select(&Selector::parse(".new").expect("selector"))
                    .count(),
                k + 1,
                "{place} {k}"
            );
            assert_eq!(
                doc.xpath(&count_p).expect("xpath").number(),
                (k + 1) as f64,
                "{place} {k}"
            );
        }
    }
}

#[test]
fn repeated_first_queries_on_the_index_see_every_change() {
    // A scan of the index for a selector that looks only at ancestors starts where the last
    // one found its first match while only removals happen (see `ScanHint` in
    // `src/query/index.rs`); an attribute change or an insertion makes earlier elements
    // candidates again.
    let mut doc = parse(&synthetic_page());
    let ad = Selector::parse("section > .ad, #main > .ad").expect("selector");
    let first = |doc: &Document| {
        doc.root()
            .descendants()
            .filter_map(|n| n.as_element())
            .find(|e| e.matches(&ad))
            .map(|e| e.node_id())
    };
    let sections: Vec<NodeId> = ids(&doc, &Selector::parse("section").expect("selector"));
    let mut round = 0;
    while let Some(e) = doc.select_first(&ad).map(|e| e.node_id()) {
        assert_eq!(Some(e), first(&doc), "round {round}");
        doc.remove(e).expect("remove");
        round += 1;
        if round == 5 {
            // An earlier element gains the class.
            let early = doc
                .node(sections[0])
                .and_then(|s| s.children().find(|c| c.is_element()))
                .expect("child")
                .node_id();
            doc.set_attribute(early, "class", "ad").expect("class");
            assert_eq!(doc.select_first(&ad).map(|e| e.node_id()), Some(early));
        }
        if round == 9 {
            // A match inserted before everything else.
            let div = doc.new_element("div").expect("div");
            doc.set_attribute(div, "class", "ad").expect("class");
            let h2 = doc
                .node(sections[1])
                .and_then(|s| s.children().find(|c| c.is_element()))
                .expect("child")
                .node_id();
            doc.insert_before(h2, div).expect("insert");
            assert_eq!(doc.select_first(&ad).map(|e| e.node_id()), Some(div));
        }
        assert!(round < 1000);
    }
    assert_eq!(first(&doc), None);
    assert!(round > 10);
    // No match remembered: a new one is found.
    let div = doc.new_element("div").expect("div");
    doc.set_attribute(div, "class", "ad").expect("class");
    doc.append(sections[3], div).expect("append");
    assert_eq!(doc.select_first(&ad).map(|e| e.node_id()), Some(div));
}

/// Issue 32: `remove` keeps the subtree live and detached. Removing containers, then nodes
/// inside the removed containers (they stay in their detached subtree's tree, out of the
/// document), then putting everything back elsewhere: every query answers as on a freshly
/// indexed copy at each step.
#[test]
fn removing_inside_removed_subtrees_and_reinserting() {
    let selectors = selectors();
    let mut doc = parse(&synthetic_page());
    for _ in 0..2 {
        for selector in &selectors {
            doc.select(selector).count();
        }
    }
    let sections: Vec<NodeId> = ids(&doc, &Selector::parse("section").expect("selector"));
    let inner: Vec<NodeId> = ids(&doc, &Selector::parse("section div.ad, section p").unwrap());
    assert!(sections.len() > 2 && inner.len() > 4);
    for &s in &sections[..sections.len() / 2] {
        doc.remove(s).expect("remove");
    }
    check(&doc, &selectors, "sections removed");
    for &i in &inner {
        doc.remove(i)
            .expect("remove, in or out of a removed section");
    }
    check(&doc, &selectors, "inner removed");
    // Removing again: nothing changes.
    let before = doc.html();
    for &i in &inner {
        doc.remove(i).expect("no-op");
    }
    assert_eq!(doc.html(), before);
    // Back in, in another order: the sections at the end of the body, the inner elements
    // at its start.
    let body = doc.body().expect("body").node_id();
    for &s in &sections[..sections.len() / 2] {
        doc.append(body, s).expect("append");
    }
    check(&doc, &selectors, "sections back");
    for &i in inner.iter().rev() {
        doc.prepend(body, i).expect("prepend");
    }
    check(&doc, &selectors, "inner back");
    // (The other sections stayed in `div#main`.)
    assert_eq!(
        ids(&doc, &Selector::parse("body > section").unwrap()),
        sections[..sections.len() / 2]
    );
}
