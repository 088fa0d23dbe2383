//! CSS selectors: table-driven tests of every feature, the HTML pseudo-classes, rejected
//! syntax with its position, case rules, scopes, caches after mutation, and tree shapes that
//! would be quadratic or overflow the stack in a naive engine.

mod common;
use common::small_stack;

use html_arena::{Document, ElementRef, QuirksMode, Selector, SelectorError, SelectorErrorKind};

/// The `id` of each match (or its local name when it has none), in order.
fn ids(doc: &Document, selector: &str) -> Vec<String> {
    let sel = Selector::parse(selector).unwrap_or_else(|e| panic!("{selector:?}: {e}"));
    doc.select(&sel).map(label).collect()
}

fn label(e: ElementRef<'_>) -> String {
    e.id()
        .map(str::to_owned)
        .unwrap_or_else(|| e.local_name().to_owned())
}

/// Runs a table of `(selector, expected ids separated by spaces)` against one document.
fn check(html: &str, table: &[(&str, &str)]) {
    let doc = Document::parse(html);
    let mut failures = Vec::new();
    for (selector, expected) in table {
        let got = ids(&doc, selector).join(" ");
        if got != *expected {
            failures.push(format!("{selector:?}: expected [{expected}], got [{got}]"));
        }
        // `matches` agrees with `select` on every element, and `select_first` with the first.
        let sel = Selector::parse(selector).unwrap();
        let by_matches: Vec<String> = doc
            .root()
            .descendants()
            .filter_map(|n| n.as_element())
            .filter(|e| e.matches(&sel))
            .map(label)
            .collect();
        if by_matches.join(" ") != got {
            failures.push(format!(
                "{selector:?}: matches() gives [{}], select() [{got}]",
                by_matches.join(" ")
            ));
        }
        assert_eq!(
            doc.select_first(&sel).map(label),
            ids(&doc, selector).into_iter().next()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn type_universal_and_namespace_selectors() {
    let html = r#"<!DOCTYPE html><div id=d><P id=p></P><svg id=s><foreignObject id=fo></foreignObject><rect id=r /></svg><math id=m><mi id=mi></mi></math></div>"#;
    check(
        html,
        &[
            ("div", "d"),
            ("DIV", "d"),
            ("p", "p"),
            ("foreignObject", "fo"),
            ("foreignobject", ""),
            ("FOREIGNOBJECT", ""),
            ("svg", "s"),
            ("rect", "r"),
            ("RECT", ""),
            ("div *", "p s fo r m mi"),
            ("*|rect", "r"),
            ("*|*", "html head body d p s fo r m mi"),
            ("|rect", ""),
            ("|*", ""),
            ("mi", "mi"),
        ],
    );
    let doc = Document::parse(html);
    let ns = [
        ("svg", "http://www.w3.org/2000/svg"),
        ("h", "http://www.w3.org/1999/xhtml"),
        ("other", "urn:x"),
    ];
    let cases = [
        ("svg|*", "s fo r"),
        ("svg|rect, h|p", "p r"),
        ("h|svg", ""),
        ("other|*", ""),
        ("svg|foreignObject > *", ""),
    ];
    for (text, expected) in cases {
        let sel = Selector::parse_with_namespaces(text, &ns).unwrap();
        let got: Vec<String> = doc.select(&sel).map(label).collect();
        assert_eq!(got.join(" "), expected, "{text}");
    }
    // A default namespace applies to type selectors without a prefix.
    let sel = Selector::parse_with_namespaces("*", &[("", "http://www.w3.org/2000/svg")]).unwrap();
    let got: Vec<String> = doc.select(&sel).map(label).collect();
    assert_eq!(got.join(" "), "s fo r");
}

#[test]
fn attribute_selectors() {
    let html = r##"<!DOCTYPE html>
        <a id=a1 href="http://example.com/x.pdf" title="Hello World" lang=en-US data-x="">1</a>
        <a id=a2 href="/y.PDF" class="b  c" type=TEXT>2</a>
        <input id=i1 type=text value="a b">
        <svg id=s viewBox="0 0 1 1"><a id=sa xlink:href="#z"></a></svg>"##;
    check(
        html,
        &[
            ("[title]", "a1"),
            ("[TITLE]", "a1"),
            ("[title=Hello]", ""),
            ("[title='Hello World']", "a1"),
            ("[title='hello world']", ""),
            ("[title='hello world' i]", "a1"),
            ("[title='Hello World' s]", "a1"),
            ("[title~=World]", "a1"),
            ("[title~=Wor]", ""),
            ("[title^=Hell]", "a1"),
            ("[title$=rld]", "a1"),
            ("[title*='o W']", "a1"),
            ("[href$='.pdf']", "a1"),
            ("[href$='.pdf' i]", "a1 a2"),
            ("[lang|=en]", "a1"),
            ("[lang|=EN]", "a1"),
            ("[lang=en-us]", "a1"),
            ("[type=text]", "a2 i1"),
            ("[type=text s]", "i1"),
            ("[class~=c]", "a2"),
            ("[data-x]", "a1"),
            ("[data-x='']", "a1"),
            ("[data-x^='']", ""),
            ("[data-x*='']", ""),
            ("[data-x~='']", ""),
            ("[value='a b']", "i1"),
            ("[value~=b]", "i1"),
            ("[viewBox]", "s"),
            ("[viewbox]", ""),
            ("[href]", "a1 a2"),
            ("[*|href]", "a1 a2 sa"),
            ("[|href]", "a1 a2"),
        ],
    );
    let doc = Document::parse(html);
    let xlink = [("xlink", "http://www.w3.org/1999/xlink")];
    let sel = Selector::parse_with_namespaces("[xlink|href='#z']", &xlink).unwrap();
    assert_eq!(doc.select(&sel).map(label).collect::<Vec<_>>(), ["sa"]);
}

#[test]
fn id_class_and_quirks_mode_case_rules() {
    let body = r#"<p id=Main class="Foo bar">1</p><p id=other class=foo>2</p>"#;
    let standards = format!("<!DOCTYPE html>{body}");
    let limited =
        format!(r#"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x">{body}"#);
    let quirks = body.to_owned();
    assert_eq!(
        Document::parse(&standards).quirks_mode(),
        QuirksMode::NoQuirks
    );
    assert_eq!(
        Document::parse(&limited).quirks_mode(),
        QuirksMode::LimitedQuirks
    );
    assert_eq!(Document::parse(&quirks).quirks_mode(), QuirksMode::Quirks);
    for html in [&standards, &limited] {
        check(
            html,
            &[
                ("#Main", "Main"),
                ("#main", ""),
                (".Foo", "Main"),
                (".foo", "other"),
                (".BAR", ""),
                ("p.foo.bar", ""),
                ("[class~=foo]", "other"),
            ],
        );
    }
    check(
        &quirks,
        &[
            ("#Main", "Main"),
            ("#main", "Main"),
            ("#MAIN", "Main"),
            (".Foo", "Main other"),
            (".foo", "Main other"),
            (".BAR", "Main"),
            ("p.foo.bar", "Main"),
            // Attribute selectors keep their own rules in quirks mode.
            ("[class~=foo]", "other"),
            ("[id=main]", ""),
        ],
    );
}

#[test]
fn combinators() {
    let html = r#"<!DOCTYPE html><div id=a><p id=b><span id=c></span></p><p id=d></p><!-- x --><span id=e></span>text<p id=f></p></div>"#;
    check(
        html,
        &[
            ("div span", "c e"),
            ("div > span", "e"),
            ("p + p", "d"),
            ("p + span", "e"),
            ("span + p", "f"),
            ("p ~ p", "d f"),
            ("p ~ span", "e"),
            ("#b ~ *", "d e f"),
            ("div > p > span", "c"),
            ("body > div p + p ~ p", "f"),
            ("span p", ""),
            ("html > * > div", "a"),
            ("p, span", "b c d e f"),
            ("span, p", "b c d e f"),
            ("#f, #b, #f", "b f"),
        ],
    );
}

#[test]
fn structural_pseudo_classes() {
    let html = r#"<!DOCTYPE html><ul id=u>
        <li id=l1 class=x></li><li id=l2></li><li id=l3 class=x></li><li id=l4></li><li id=l5 class=x></li>
    </ul><div id=e1></div><div id=e2><!--c--></div><div id=e3> </div><div id=e4><i></i></div>
    <section id=s><h2 id=h1></h2><p id=p1></p><h2 id=h2></h2><p id=p2></p><p id=p3></p></section>"#;
    check(
        html,
        &[
            (":root", "html"),
            ("html:root", "html"),
            ("body:root", ""),
            ("div:empty", "e1 e2"),
            ("i:empty", "i"),
            ("li:first-child", "l1"),
            ("li:last-child", "l5"),
            ("i:only-child", "i"),
            ("li:only-child", ""),
            ("li:nth-child(2)", "l2"),
            ("li:nth-child(odd)", "l1 l3 l5"),
            ("li:nth-child(even)", "l2 l4"),
            ("li:nth-child(2n+1)", "l1 l3 l5"),
            ("li:nth-child(-n+2)", "l1 l2"),
            ("li:nth-child(n+4)", "l4 l5"),
            ("li:nth-child( 3n - 1 )", "l2 l5"),
            ("li:nth-last-child(2)", "l4"),
            ("li:nth-last-child(-n+2)", "l4 l5"),
            ("li:nth-child(2 of .x)", "l3"),
            ("li:nth-child(odd of .x)", "l1 l5"),
            ("li:nth-last-child(1 of .x)", "l5"),
            ("li:nth-last-child(1 of :not(.x))", "l4"),
            ("li:nth-child(1 of li:not(.x))", "l2"),
            ("#s > :first-of-type", "h1 p1"),
            ("#s > :last-of-type", "h2 p3"),
            ("p:nth-of-type(2)", "p2"),
            ("p:nth-last-of-type(2)", "p2"),
            ("h2:nth-of-type(even)", "h2"),
            ("#s :only-of-type", ""),
            ("#e4 > :only-of-type", "i"),
        ],
    );
}

#[test]
fn logical_pseudo_classes() {
    let html = r#"<!DOCTYPE html><div id=a class=x><p id=b class=y></p><p id=c></p></div><p id=d class=y></p>"#;
    check(
        html,
        &[
            (":is(div, .y)", "a b d"),
            (":where(div, .y)", "a b d"),
            (":is(.x .y)", "b"),
            (":is(.x) :is(.y)", "b"),
            ("p:not(.y)", "c"),
            ("p:not(.y, #c)", ""),
            ("p:not(.x .y)", "c d"),
            ("p:not(:not(.y))", "b d"),
            (":is(:bogus, #c)", "c"),
            (":where(::before, #d)", "d"),
            (":is()", ""),
            ("div :is(p:first-child, p:last-child)", "b c"),
            ("p:is(:nth-child(2), .y)", "b c d"),
        ],
    );
}

#[test]
fn has_pseudo_class() {
    let html = r#"<!DOCTYPE html>
    <div id=a><p id=b><img id=c></p><span id=d></span></div>
    <div id=e><span id=f></span><p id=g></p><i id=h></i></div>
    <ol id=o><li id=l1></li><li id=l2 class=x></li><li id=l3></li></ol>"#;
    check(
        html,
        &[
            ("div:has(img)", "a"),
            ("div:has(> img)", ""),
            ("p:has(> img)", "b"),
            ("div:has(> p > img)", "a"),
            ("div:has(p img)", "a"),
            ("div:has(> span)", "a e"),
            ("div:has(> span + p)", "e"),
            ("div:has(span ~ i)", "e"),
            ("span:has(+ p)", "f"),
            ("span:has(~ i)", "f"),
            ("span:has(~ *)", "f"),
            ("p:has(+ span)", "b"),
            ("li:has(+ .x)", "l1"),
            ("li:has(~ .x)", "l1"),
            ("li:has(+ li + li)", "l1"),
            ("div:has(+ div)", "a"),
            ("div:has(+ div > i)", "a"),
            ("div:has(~ ol .x)", "a e"),
            ("div:has(+ * span)", "a"),
            (":has(> #c, > #h)", "b e"),
            ("div:not(:has(img))", "e"),
            ("div:has(img) + div", "e"),
            ("div:has(img) ~ ol li:has(+ li)", "l1 l2"),
            ("body > :has(.x)", "o"),
            ("li:is(:has(+ .x), .x)", "l1 l2"),
            // `:is()` may look outside the anchor: html and body have an img descendant under #a.
            (":has(:is(#a img))", "html body a b"),
            ("li:nth-child(1 of :has(+ .x))", "l1"),
        ],
    );
}

#[test]
fn scope_and_nesting_selector() {
    let doc = Document::parse(
        r#"<!DOCTYPE html><div id=a><p id=b><span id=c></span></p></div><p id=d></p>"#,
    );
    assert_eq!(ids(&doc, ":scope"), ["html"]);
    assert_eq!(ids(&doc, ":scope > body"), ["body"]);
    assert_eq!(ids(&doc, "&"), ["html"]);
    let a = doc.select_first(&Selector::parse("#a").unwrap()).unwrap();
    let scoped =
        |s: &str| -> Vec<String> { a.select(&Selector::parse(s).unwrap()).map(label).collect() };
    assert_eq!(scoped("p"), ["b"]);
    assert_eq!(scoped(":scope > p"), ["b"]);
    assert_eq!(scoped("& > p"), ["b"]);
    assert_eq!(scoped(":scope > span"), Vec::<String>::new());
    assert_eq!(scoped(":scope"), Vec::<String>::new());
    assert_eq!(scoped("body p"), ["b"]);
    assert_eq!(scoped("body > div span"), ["c"]);
    assert_eq!(scoped(":scope + p"), Vec::<String>::new());
    assert_eq!(scoped("*"), ["b", "c"]);
    assert!(a.matches(&Selector::parse(":scope").unwrap()));
    assert!(a.matches(&Selector::parse("body > :scope").unwrap()));
    let c = doc.select_first(&Selector::parse("#c").unwrap()).unwrap();
    let closest = |s: &str| c.closest(&Selector::parse(s).unwrap()).map(label);
    assert_eq!(closest("span").as_deref(), Some("c"));
    assert_eq!(closest("div").as_deref(), Some("a"));
    assert_eq!(closest(":scope").as_deref(), Some("c"));
    assert_eq!(closest("p:has(> :scope)").as_deref(), Some("b"));
    assert_eq!(closest("body > *").as_deref(), Some("a"));
    assert_eq!(closest("ul"), None);
}

#[test]
fn html_pseudo_classes() {
    let html = r#"<!DOCTYPE html>
    <form id=f>
      <input id=t1>
      <input id=t2 disabled>
      <input id=t3 readonly>
      <input id=t4 required placeholder=x>
      <input id=t5 placeholder=x value=v>
      <input id=t6 type=hidden required>
      <input id=t7 type=number placeholder=n value=abc>
      <input id=t8 placeholder="">
      <input id=c1 type=checkbox checked>
      <input id=c2 type=CHECKBOX>
      <input id=r1 type=radio name=g checked>
      <input id=r2 type=radio name=g checked>
      <input id=r3 type=radio name=h>
      <input id=r4 type=radio name=h>
      <input id=r5 type=radio>
      <button id=b1>go</button>
      <button id=b2 type=submit>go</button>
      <input id=s1 type=submit>
      <button id=b3 type=button>no</button>
      <select id=sel1><option id=o1>a<option id=o2>b</select>
      <select id=sel2><option id=o3 selected>a<option id=o4 selected>b</select>
      <select id=sel3 multiple><option id=o5>a<option id=o6 selected>b</select>
      <select id=sel4><option id=o7 disabled>a<optgroup id=og disabled><option id=o8>b</optgroup><option id=o9>c</select>
      <select id=sel5 size=3><option id=o10>a</select>
      <fieldset id=fs1 disabled><legend id=lg><input id=l1></legend><input id=l2><fieldset id=fs2><input id=l3></fieldset><legend id=lg2><input id=l4></legend></fieldset>
      <textarea id=ta1 placeholder=x></textarea>
      <textarea id=ta2 placeholder=x>v</textarea>
      <textarea id=ta3 readonly></textarea>
      <progress id=p1></progress><progress id=p2 value=1></progress>
    </form>
    <input id=r6 type=radio name=g>
    <div id=ce contenteditable><span id=ces></span><p id=cef contenteditable=false></p></div>
    <a id=la href=x>1</a><a id=lb>2</a><map><area id=lc href=y></map><link id=ld href=z>
    <svg><a id=le href=u></a><a id=lf></a></svg>
    <details id=d1 open></details><details id=d2></details><dialog id=dl open></dialog>
    <my-el id=cu></my-el><button id=isb is=x-b></button><svg id=sv><my-el id=svcu></my-el></svg>
    <p id=le1 lang=en-US><span id=ls></span></p><p id=lf1 lang=fr><b id=lb1 lang=""></b></p>
    "#;
    check(
        html,
        &[
            (
                "input:enabled",
                "t1 t3 t4 t5 t6 t7 t8 c1 c2 r1 r2 r3 r4 r5 s1 l1 r6",
            ),
            (":disabled", "t2 o7 og o8 fs1 l2 fs2 l3 l4"),
            (
                ":enabled:not(input)",
                "b1 b2 b3 sel1 o1 o2 sel2 o3 o4 sel3 o5 o6 sel4 o9 sel5 o10 ta1 ta2 ta3 isb",
            ),
            // l1 is in the disabled fieldset's first legend: enabled.
            ("form :read-write", "t1 t4 t5 t7 t8 l1 ta1 ta2"),
            (
                "input:read-only",
                "t2 t3 t6 c1 c2 r1 r2 r3 r4 r5 s1 l2 l3 l4 r6",
            ),
            ("#ce, #ce *", "ce ces cef"),
            ("#ce:read-write, #ce :read-write", "ce ces"),
            // :read-only and :read-write match HTML elements only (see select/pseudo.rs).
            ("svg:read-only, svg:read-write", ""),
            (":required", "t4"),
            // Every input that is not required, hidden and submit ones included, as in
            // Chromium, WebKit and WPT (whatwg/html#11273; see select/pseudo.rs).
            (
                "input:optional",
                "t1 t2 t3 t5 t6 t7 t8 c1 c2 r1 r2 r3 r4 r5 s1 l1 l2 l3 l4 r6",
            ),
            (
                "select:optional, textarea:optional",
                "sel1 sel2 sel3 sel4 sel5 ta1 ta2 ta3",
            ),
            // An empty placeholder is shown too, as in Chromium.
            (":placeholder-shown", "t4 t7 t8 ta1"),
            (":checked", "c1 r2 o1 o4 o6 o9"),
            (":default", "c1 r1 r2 b1 o3 o4 o6"),
            (":indeterminate", "r3 r4 r5 p1 r6"),
            (":link", "la lc le"),
            (":any-link", "la lc le"),
            (":visited", ""),
            (":open", "d1 dl"),
            (":not(:defined)", "cu isb"),
            ("my-el:defined", "svcu"),
            (":lang(en)", "le1 ls"),
            (":lang(en-US)", "le1 ls"),
            (":lang(\"fr\")", "lf1"),
            (":lang(en, fr)", "le1 ls lf1"),
            (":lang(\"\")", "lb1"),
            (":lang(de)", ""),
            (":lang(\\*-us)", "le1 ls"),
            // States of a static document.
            (
                ":hover, :active, :focus, :focus-within, :focus-visible, :target",
                "",
            ),
            (
                ":user-valid, :user-invalid, :autofill, :modal, :fullscreen, :popover-open",
                "",
            ),
            ("a:hover, p:not(:focus) > b", "lb1"),
        ],
    );
}

#[test]
fn language_from_meta_and_xml_lang() {
    let doc = Document::parse(
        r#"<!DOCTYPE html><meta http-equiv=content-language content="de-AT"><p id=a></p><p id=b lang=en><svg><g id=g xml:lang=fr></g></svg></p>"#,
    );
    assert_eq!(ids(&doc, "p:lang(de)"), ["a"]);
    assert_eq!(ids(&doc, ":lang(fr)"), ["g"]);
    assert_eq!(ids(&doc, "body :lang(en)"), ["b", "svg"]);
}

#[test]
fn pseudo_elements_and_shadow_selectors_parse_and_match_nothing() {
    let doc = Document::parse("<!DOCTYPE html><p>x</p><slot></slot>");
    for s in [
        "p::before",
        "p::after",
        "::marker",
        "p:before",
        "p:first-line",
        "p::first-letter",
        "input::placeholder",
        "::selection",
        "p::before:hover",
        "::slotted(p)",
        "::part(x)",
        ":host",
        ":host(p)",
        "::highlight(x)",
        "::view-transition-group(*)",
        "p::BEFORE",
        "P:HOVER",
    ] {
        let sel = Selector::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
        assert_eq!(doc.select(&sel).count(), 0, "{s}");
    }
    // A list with a pseudo-element keeps its other selectors.
    assert_eq!(ids(&doc, "p::before, p"), ["p"]);
}

/// `(selector, kind, byte offset, offending text)`.
fn rejected() -> Vec<(&'static str, SelectorErrorKind, usize, &'static str)> {
    use SelectorErrorKind::*;
    vec![
        ("", Empty, 0, ""),
        ("   ", Empty, 3, ""),
        ("a,", Empty, 2, ""),
        ("a,,b", Empty, 2, ","),
        (",a", Empty, 0, ","),
        ("a:hovr", UnknownPseudoClass("hovr".into()), 1, ":hovr"),
        (
            "a:direction(ltr)",
            UnknownPseudoClass("direction(".into()),
            1,
            ":direction(",
        ),
        (
            "::bogus",
            UnknownPseudoElement("bogus".into()),
            0,
            "::bogus",
        ),
        ("div > > p", DanglingCombinator, 6, ">"),
        ("a b >", DanglingCombinator, 5, ""),
        ("> a", UnexpectedToken, 0, ">"),
        ("a + ", DanglingCombinator, 4, ""),
        ("svg|rect", UnknownNamespacePrefix, 0, "svg|"),
        ("[=x]", InvalidAttributeSelector, 1, "="),
        ("[a=]", InvalidAttributeSelector, 3, "]"),
        ("[a~b]", InvalidAttributeSelector, 2, "~"),
        ("[a='x' q]", InvalidAttributeSelector, 7, "q"),
        (":has(:has(a))", NotAllowedHere, 5, ":has("),
        (":has(::before)", NotAllowedHere, 5, "::before"),
        ("a::before:checked", NotAllowedHere, 9, ":checked"),
        ("a::before span", UnexpectedToken, 10, "span"),
        (":not(::before)", NotAllowedHere, 5, "::before"),
        ("p:nth-child(x)", UnexpectedToken, 12, "x"),
        ("p:nth-child(2n+)", UnexpectedToken, 15, ")"),
        ("div:not()", Empty, 8, ")"),
        (
            ":not(:bogus)",
            UnknownPseudoClass("bogus".into()),
            5,
            ":bogus",
        ),
        (":lang()", UnexpectedToken, 6, ")"),
        ("a b { }", UnexpectedToken, 4, "{"),
        (".5x", UnexpectedToken, 0, ".5x"),
        ("#1a", UnexpectedToken, 0, "#1a"),
        ("a!", UnexpectedToken, 1, "!"),
        ("a;b", UnexpectedToken, 1, ";"),
        ("p.", UnexpectedEnd, 2, ""),
        ("p:", UnexpectedEnd, 2, ""),
        (
            "a, b, c:nope, d",
            UnknownPseudoClass("nope".into()),
            7,
            ":nope",
        ),
        ("é::nope", UnknownPseudoElement("nope".into()), 2, "::nope"),
    ]
}

#[test]
fn rejected_syntax_says_what_and_where() {
    let mut failures = Vec::new();
    for (selector, kind, offset, text) in rejected() {
        match Selector::parse(selector) {
            Ok(_) => failures.push(format!("{selector:?}: accepted")),
            Err(e) => {
                if (e.kind(), e.offset(), e.text()) != (&kind, offset, text) {
                    failures.push(format!(
                        "{selector:?}: expected {kind:?} at {offset} {text:?}, got {:?} at {} {:?} ({e})",
                        e.kind(),
                        e.offset(),
                        e.text()
                    ));
                }
                assert_eq!(e.selector(), selector);
                assert!(
                    e.to_string().ends_with(&format!("at byte {}", e.offset())),
                    "{e}"
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn accepted_syntax() {
    for s in [
        "a[href",
        "a[href='x",
        ":is(",
        "a:not(.x",
        "  a  ",
        "a /* comment */ b",
        "a/**/ b",
        "a\tb\nc",
        "\\61",
        ".\\31 23",
        "#\\31 23",
        "[data-\\31]",
        "*",
        "*.x",
        "a:NOT(.x)",
        ":nth-child(+3n - 2)",
        ":nth-child(n)",
        ":nth-child(-n+1 of a, b)",
        ":where()",
        ":is(:hover, :bogus)",
        "a >b~c+d",
        ":has(> a, + b, ~ c, d)",
        "[a|=b i]",
        "[a=\"b\" S]",
        "&",
        "& > a",
        ":scope p",
        "a:any-link",
        ":lang(\"en\", fr-CA)",
    ] {
        if let Err(e) = Selector::parse(s) {
            panic!("{s:?} rejected: {e}");
        }
    }
}

#[test]
fn error_pointer_and_display() {
    let e = Selector::parse("ul > li:hovr").unwrap_err();
    assert_eq!(e.to_string(), "unknown pseudo-class `:hovr` at byte 7");
    assert_eq!(e.pointer(), "ul > li:hovr\n       ^^^^^");
    let e = Selector::parse("é > ").unwrap_err();
    assert_eq!(e.pointer(), "é > \n    ^");
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e.clone());
    assert!(boxed.to_string().contains("combinator"));
}

#[test]
fn selector_display_and_from_str() {
    let sel: Selector = "div  >  p.x , a[href=y]".parse().unwrap();
    assert_eq!(sel.to_string(), "div > p.x, a[href=\"y\"]");
    assert_eq!(sel.as_str(), "div  >  p.x , a[href=y]");
    let sel = Selector::parse("li:has(> a.b):lang(en)").unwrap();
    assert_eq!(sel.to_string(), "li:has(> a.b):lang(\"en\")");
    assert_eq!(format!("{sel:?}"), "Selector(\"li:has(> a.b):lang(en)\")");
}

#[test]
fn invalid_input_never_panics() {
    // Deterministic pseudo-random selectors built from CSS-ish pieces.
    let pieces = [
        "a",
        "*",
        "|",
        ".",
        "#",
        "x",
        ":",
        "::",
        "(",
        ")",
        "[",
        "]",
        "=",
        "~",
        "+",
        ">",
        " ",
        ",",
        "\"",
        "'",
        "\\",
        "n",
        "2",
        "-",
        ":has(",
        ":is(",
        ":not(",
        ":nth-child(",
        "of ",
        "i]",
        "{",
        "}",
        "/*",
        "*/",
        "é",
        "\0",
        "&",
        ":lang(",
        "::before",
        ":hover",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let doc = Document::parse("<div class=x><p id=y>t</p></div>");
    let mut accepted = 0;
    for _ in 0..3000 {
        let len = (next() % 12) as usize;
        let s: String = (0..len)
            .map(|_| pieces[(next() % pieces.len() as u64) as usize])
            .collect();
        match Selector::parse(&s) {
            Ok(sel) => {
                accepted += 1;
                let _ = doc.select(&sel).count();
            }
            Err(e) => {
                assert!(e.offset() <= s.len(), "{s:?}");
                assert!(s.is_char_boundary(e.offset()), "{s:?}");
                let _ = e.pointer();
            }
        }
    }
    assert!(accepted > 100);
    // Deep nesting and long selectors are errors, not stack overflows.
    // Too deep inside a forgiving `:is()`, the innermost selector is dropped as invalid (and
    // matches nothing); inside `:not()`, it is an error.
    let deep = ":is(".repeat(10_000);
    let sel = Selector::parse(&deep).unwrap();
    assert_eq!(doc.select(&sel).count(), 0);
    let deep = format!("{}a{}", ":not(".repeat(100), ")".repeat(100));
    assert_eq!(
        Selector::parse(&deep).unwrap_err().kind(),
        &SelectorErrorKind::TooDeeplyNested
    );
    let ok = format!("{}a{}", ":not(".repeat(15), ")".repeat(15));
    assert!(Selector::parse(&ok).is_ok());
    let long = "a ".repeat(100_000);
    assert_eq!(
        Selector::parse(&long).unwrap_err().kind(),
        &SelectorErrorKind::TooComplex
    );
    let brackets = "[".repeat(100_000);
    assert!(Selector::parse(&brackets).is_err());
    let parens = "(".repeat(100_000) + "a";
    assert!(Selector::parse(&parens).is_err());
}

#[test]
fn template_contents_are_not_searched_from_outside() {
    let doc = Document::parse(
        "<!DOCTYPE html><div id=d><template id=t><p id=in><b id=bin></b></p></template><p id=out></p></div>",
    );
    assert_eq!(ids(&doc, "p"), ["out"]);
    assert_eq!(ids(&doc, "template *"), Vec::<String>::new());
    assert_eq!(ids(&doc, "div:has(b)"), Vec::<String>::new());
    let t = doc
        .select_first(&Selector::parse("template").unwrap())
        .unwrap();
    assert_eq!(t.select(&Selector::parse("*").unwrap()).count(), 0);
    // Inside the contents, selectors work within that tree.
    let p = t
        .template_contents()
        .unwrap()
        .element_children()
        .next()
        .unwrap();
    assert_eq!(label(p), "in");
    let b: Vec<String> = p
        .select(&Selector::parse("b").unwrap())
        .map(label)
        .collect();
    assert_eq!(b, ["bin"]);
    assert!(p.matches(&Selector::parse("p:has(> b)").unwrap()));
    assert!(!p.matches(&Selector::parse("template p").unwrap()));
    assert!(!p.matches(&Selector::parse(":root p, div p").unwrap()));
    let bin = p.element_children().next().unwrap();
    assert_eq!(
        bin.closest(&Selector::parse("p").unwrap())
            .map(label)
            .as_deref(),
        Some("in")
    );
    assert_eq!(bin.closest(&Selector::parse("div").unwrap()), None);
}

#[test]
fn fragments_and_detached_subtrees() {
    let frag = Document::parse_fragment(
        "<li id=a><b id=b></b></li><li id=c></li>",
        "ul",
        &Default::default(),
    )
    .unwrap();
    assert_eq!(ids(&frag, "li"), ["a", "c"]);
    assert_eq!(ids(&frag, ":root"), Vec::<String>::new());
    assert_eq!(ids(&frag, "li + li"), ["c"]);
    assert_eq!(ids(&frag, "li:has(b)"), ["a"]);

    let mut doc = Document::parse("<!DOCTYPE html><p id=x></p>");
    let div = doc.new_element("div").unwrap();
    let span = doc.new_element("span").unwrap();
    doc.set_attribute(span, "class", "k").unwrap();
    doc.append(div, span).unwrap();
    let div_ref = doc.node(div).unwrap().as_element().unwrap();
    let found: Vec<String> = div_ref
        .select(&Selector::parse(".k").unwrap())
        .map(label)
        .collect();
    assert_eq!(found, ["span"]);
    let span_ref = doc.node(span).unwrap().as_element().unwrap();
    assert!(span_ref.matches(&Selector::parse("div > .k:only-child").unwrap()));
    assert!(!span_ref.matches(&Selector::parse("body .k").unwrap()));
    assert_eq!(
        span_ref
            .closest(&Selector::parse("div").unwrap())
            .map(label)
            .as_deref(),
        Some("div")
    );
    // Detached elements are not in the document's tree.
    assert_eq!(ids(&doc, ".k"), Vec::<String>::new());
}

#[test]
fn mutation_keeps_indexes_right() {
    let mut doc =
        Document::parse("<!DOCTYPE html><ul id=u><li id=a class=x>1</li><li id=b>2</li></ul>");
    assert_eq!(ids(&doc, ".x"), ["a"]);
    assert_eq!(ids(&doc, "#b"), ["b"]);
    let b = doc
        .select_first(&Selector::parse("#b").unwrap())
        .unwrap()
        .node_id();
    let a = doc
        .select_first(&Selector::parse("#a").unwrap())
        .unwrap()
        .node_id();
    doc.set_attribute(b, "class", "y x").unwrap();
    assert_eq!(ids(&doc, ".x"), ["a", "b"]);
    doc.remove_attribute(a, "class").unwrap();
    assert_eq!(ids(&doc, ".x"), ["b"]);
    doc.set_attribute(b, "id", "renamed").unwrap();
    assert_eq!(ids(&doc, "#b"), Vec::<String>::new());
    assert_eq!(ids(&doc, "#renamed"), ["renamed"]);
    let u = doc
        .select_first(&Selector::parse("ul").unwrap())
        .unwrap()
        .node_id();
    let c = doc.new_element("li").unwrap();
    doc.set_attribute(c, "id", "c").unwrap();
    doc.append(u, c).unwrap();
    assert_eq!(ids(&doc, "li"), ["a", "renamed", "c"]);
    assert_eq!(ids(&doc, "li:last-child"), ["c"]);
    assert_eq!(ids(&doc, "ul:has(> #c)"), ["u"]);
    doc.remove(a).unwrap();
    assert_eq!(ids(&doc, "li:first-child"), ["renamed"]);
    assert_eq!(ids(&doc, "li"), ["renamed", "c"]);
    let d = doc.new_element("li").unwrap();
    doc.insert_before(c, d).unwrap();
    assert_eq!(ids(&doc, "li + li + li"), ["c"]);
    doc.set_text(d, "").unwrap();
    assert_eq!(ids(&doc, "li:empty"), ["li", "c"]);
    // Elements created with a name the document had never seen (a new dynamic name).
    let w = doc.new_element("my-widget").unwrap();
    doc.set_attribute(w, "data-new", "1").unwrap();
    doc.append(u, w).unwrap();
    assert_eq!(ids(&doc, "my-widget[data-new='1']"), ["my-widget"]);
    // A clone carries its own (equal) index.
    let copy = doc.clone();
    assert_eq!(ids(&copy, "li"), ids(&doc, "li"));
}

#[test]
fn selector_and_errors_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Selector>();
    check::<SelectorError>();
    check::<Document>();
    // A selector parsed on one thread matches on others.
    let sel = Selector::parse("p.x").unwrap();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let doc = Document::parse("<p class=x></p>");
                assert_eq!(doc.select(&sel).count(), 1);
            });
        }
    });
}

#[test]
fn has_over_a_hundred_thousand_siblings() {
    // A quadratic `:has(~ p)` would test 5e9 pairs here.
    small_stack(|| {
        let n = 100_000;
        let html = format!("<ul>{}<p id=last></p></ul>", "<li></li>".repeat(n));
        let doc = Document::parse(&html);
        let sel = Selector::parse("li:has(~ p)").unwrap();
        assert_eq!(doc.select(&sel).count(), n);
        let sel = Selector::parse("li:has(~ i), li:has(+ p)").unwrap();
        assert_eq!(doc.select(&sel).count(), 1);
        let sel = Selector::parse("ul:has(> li + li ~ p)").unwrap();
        assert_eq!(doc.select(&sel).count(), 1);
        // Sibling combinators outside :has() too. (Not `-of-type` or `:nth-*`: the `selectors`
        // crate checks its index cache with a quadratic `debug_assert` in debug builds.)
        let sel = Selector::parse("li + li ~ p, li:last-child, li:first-child").unwrap();
        assert_eq!(doc.select(&sel).count(), 2);
    });
}

#[test]
fn has_and_descendants_on_a_deep_chain() {
    // A quadratic `div:has(span)` would walk 2e8 descendants here; a recursive one would
    // overflow the stack.
    small_stack(|| {
        let depth = 20_000;
        let html = format!("{}<span></span>", "<div>".repeat(depth));
        let doc = Document::parse(&html);
        assert_eq!(
            doc.select(&Selector::parse("div:has(span)").unwrap())
                .count(),
            depth
        );
        assert_eq!(
            doc.select(&Selector::parse("div:has(> span)").unwrap())
                .count(),
            1
        );
        assert_eq!(
            doc.select(&Selector::parse("div:has(i)").unwrap()).count(),
            0
        );
        assert_eq!(
            doc.select(&Selector::parse("div:not(:has(div))").unwrap())
                .count(),
            1
        );
        // Descendant combinators with no match: the ancestor Bloom filter rejects at once.
        assert_eq!(
            doc.select(&Selector::parse("span div, i div").unwrap())
                .count(),
            0
        );
        assert_eq!(
            doc.select(&Selector::parse("div div span").unwrap())
                .count(),
            1
        );
        let span = doc.select_first(&Selector::parse("span").unwrap()).unwrap();
        assert!(span.matches(&Selector::parse("body span").unwrap()));
        assert!(span.closest(&Selector::parse("body").unwrap()).is_some());
        assert!(span.closest(&Selector::parse("ul").unwrap()).is_none());
        assert_eq!(
            doc.select(&Selector::parse(":root div:only-child:empty").unwrap())
                .count(),
            0
        );
        drop(doc);
    });
}

#[test]
fn sibling_and_ancestor_walks_stay_linear() {
    // Matching one element at a time, `p ~ li` walks back over every earlier sibling of every
    // `li`: 5e9 steps here. Queries switch to matching a set at a time past a linear budget.
    small_stack(|| {
        let n = 100_000;
        let doc = Document::parse(&format!("<ul><p></p>{}</ul>", "<li></li>".repeat(n)));
        assert_eq!(doc.select(&Selector::parse("p ~ li").unwrap()).count(), n);
        assert_eq!(
            doc.select(&Selector::parse("i ~ li, p + i").unwrap())
                .count(),
            0
        );
        assert_eq!(
            doc.select(&Selector::parse("li:empty ~ p").unwrap())
                .count(),
            0
        );
        let doc = Document::parse(&format!("<ul>{}<p></p></ul>", "<li></li>".repeat(n)));
        assert_eq!(doc.select(&Selector::parse("p ~ li").unwrap()).count(), 0);
        // Deep chain: `div:empty div` walks every ancestor of every div.
        let depth = 20_000;
        let doc = Document::parse(&format!("{}<span></span>", "<div>".repeat(depth)));
        assert_eq!(
            doc.select(&Selector::parse("div:empty div").unwrap())
                .count(),
            0
        );
        assert_eq!(
            doc.select(&Selector::parse("div:not(:empty) > div:not(:empty)").unwrap())
                .count(),
            depth - 1
        );
        assert_eq!(
            doc.select(&Selector::parse("body > div div:empty, :root div > span").unwrap())
                .count(),
            1
        );
    });
}

#[test]
fn set_at_a_time_matching_agrees_with_element_at_a_time() {
    // 3000 siblings make `.a ~ .b` walk far enough for the query to switch part way.
    let mut html = String::from("<!DOCTYPE html><div id=root>");
    for i in 0..3000 {
        let class = match i % 7 {
            0 => "a",
            1 | 4 => "b",
            2 => "a b",
            _ => "c",
        };
        html.push_str(&format!("<p id=p{i} class='{class}'><i></i></p>"));
    }
    html.push_str("</div>");
    let doc = Document::parse(&html);
    for s in [
        ".c ~ .a ~ .b",
        ".a ~ .b > i",
        "#p2999 ~ *, #p1 ~ .b + .c",
        ":is(.a + .c) ~ p:has(> i) > i",
        "p:not(.a ~ .c) i",
    ] {
        let sel = Selector::parse(s).unwrap();
        let selected: Vec<String> = doc.select(&sel).map(label).collect();
        let matched: Vec<String> = doc
            .root()
            .descendants()
            .filter_map(|n| n.as_element())
            .filter(|e| e.matches(&sel))
            .map(label)
            .collect();
        assert_eq!(selected, matched, "{s}");
    }
}

#[test]
fn ancestor_filter_agrees_with_plain_matching() {
    // `select` uses the Bloom filter and candidate lists; `matches` uses neither.
    let html = r#"<!DOCTYPE html><div class="a b" id=d1><section><p class=c id=p1><a href=x id=a1>1</a></p></section>
        <p id=p2 class="c d"><a id=a2>2</a></p></div><div id=d2><p class=c id=p3><a id=a3>3</a></p></div>"#;
    let doc = Document::parse(html);
    for s in [
        ".a a",
        ".a .c a",
        "div.a > p a",
        "#d1 a, #d2 a",
        ".b section a",
        "div:not(.a) a",
        ":is(.a, #d2) p > a",
        "div a:any-link",
        "body :is(section, #p2) a",
        ".c.d a",
        "#d2 .c",
    ] {
        let sel = Selector::parse(s).unwrap();
        let selected: Vec<String> = doc.select(&sel).map(label).collect();
        let matched: Vec<String> = doc
            .root()
            .descendants()
            .filter_map(|n| n.as_element())
            .filter(|e| e.matches(&sel))
            .map(label)
            .collect();
        assert_eq!(selected, matched, "{s}");
        assert!(!selected.is_empty(), "{s}");
    }
}
