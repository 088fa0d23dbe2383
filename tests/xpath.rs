//! XPath 1.0: every axis, node test and core function, type conversions, the Recommendation's
//! own examples (2 "Location Paths", 2.5 "Abbreviated Syntax"), the HTML Standard's name-test
//! rules, real pages (XPath against equivalent CSS selectors), and adversarial expressions.
#![cfg(feature = "xpath")]

use html_arena::xpath::{MAX_NESTING, XNode, XPath, XPathErrorKind, XPathValue};
use html_arena::{Document, NodeKind, NodeRef, Selector};

fn eval<'a>(node: NodeRef<'a>, expr: &str) -> XPathValue<'a> {
    let xpath = XPath::parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
    node.xpath(&xpath).unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// A short label per node: an element's id (else its local name), `#text`, `#comment`,
/// `@name=value`, `/` for the root.
fn label(n: &XNode<'_>) -> String {
    match n {
        XNode::Attribute { .. } => {
            let a = n.as_attribute().unwrap();
            format!("@{}={}", a.local_name, a.value)
        }
        XNode::Node(node) => match node.kind() {
            NodeKind::Element(e) => e.id().unwrap_or(e.local_name()).to_owned(),
            NodeKind::Text(t) => format!("'{t}'"),
            NodeKind::Comment(t) => format!("<!--{t}-->"),
            NodeKind::ProcessingInstruction { target, .. } => format!("<?{target}>"),
            NodeKind::Document | NodeKind::Fragment => "/".to_owned(),
            NodeKind::Doctype { .. } => "doctype".to_owned(),
            _ => "?".to_owned(),
        },
    }
}

fn labels(v: &XPathValue<'_>) -> Vec<String> {
    match v {
        XPathValue::NodeSet(nodes) => nodes.iter().map(label).collect(),
        other => panic!("not a node-set: {other:?}"),
    }
}

fn sel<'a>(doc: &'a Document, css: &str) -> NodeRef<'a> {
    doc.select(&Selector::parse(css).unwrap())
        .next()
        .unwrap()
        .as_node()
}

/// The document of the Recommendation's examples, as custom HTML elements.
const BOOK: &str = "<!DOCTYPE html><body><doc id=doc>\
<chapter id=ch1><title id=t1>Introduction</title><para id=p1 type=warning>one</para>\
<para id=p2>two</para><para id=p3 type=warning>three</para></chapter>\
<appendix id=ap1><para id=p4>four</para></appendix>\
<chapter id=ch2><title id=t2>Next</title><section id=s1><para id=p5>five</para></section>\
<figure id=f1></figure>text<!--c--><para id=p6 type=warning>six</para><para id=p7 type=warning>seven</para>\
<para id=p8 type=warning>eight</para><para id=p9 type=warning>nine</para><para id=p10 type=warning>ten</para></chapter>\
<chapter id=ch3><section id=s2></section><section id=s3></section></chapter>\
<appendix id=ap2></appendix>\
</doc></body>";

#[test]
fn recommendation_location_path_examples() {
    let doc = Document::parse(BOOK);
    let d = sel(&doc, "doc");
    let ch2 = sel(&doc, "#ch2");
    let p5 = sel(&doc, "#p5");
    let cases: &[(NodeRef<'_>, &str, &[&str])] = &[
        (ch2, "child::para", &["p6", "p7", "p8", "p9", "p10"]),
        (d, "child::*", &["ch1", "ap1", "ch2", "ch3", "ap2"]),
        (ch2, "child::text()", &["'text'"]),
        (sel(&doc, "#s1"), "child::node()", &["p5"]),
        (sel(&doc, "#p1"), "attribute::type", &["@type=warning"]),
        (
            sel(&doc, "#p1"),
            "attribute::*",
            &["@id=p1", "@type=warning"],
        ),
        (
            ch2,
            "descendant::para",
            &["p5", "p6", "p7", "p8", "p9", "p10"],
        ),
        (p5, "ancestor::chapter", &["ch2"]),
        (p5, "ancestor-or-self::para", &["p5"]),
        (
            p5,
            "ancestor-or-self::*",
            &["html", "body", "doc", "ch2", "s1", "p5"],
        ),
        (sel(&doc, "#s1"), "descendant-or-self::section", &["s1"]),
        (p5, "self::para", &["p5"]),
        (p5, "self::chapter", &[]),
        (
            d,
            "child::chapter/descendant::para",
            &["p1", "p2", "p3", "p5", "p6", "p7", "p8", "p9", "p10"],
        ),
        (
            d,
            "child::*/child::para",
            &["p1", "p2", "p3", "p4", "p6", "p7", "p8", "p9", "p10"],
        ),
        (p5, "/", &["/"]),
        (p5, "/descendant::title", &["t1", "t2"]),
        (ch2, "child::para[position()=1]", &["p6"]),
        (ch2, "child::para[position()=last()]", &["p10"]),
        (ch2, "child::para[position()=last()-1]", &["p9"]),
        (ch2, "child::para[position()>1]", &["p7", "p8", "p9", "p10"]),
        (
            sel(&doc, "#ch1"),
            "following-sibling::chapter[position()=1]",
            &["ch2"],
        ),
        (
            sel(&doc, "#ch3"),
            "preceding-sibling::chapter[position()=1]",
            &["ch2"],
        ),
        (p5, "/descendant::para[position()=4]", &["p4"]),
        (
            p5,
            "/child::html/child::body/child::doc/child::chapter[position()=2]/child::section[position()=1]",
            &["s1"],
        ),
        (
            sel(&doc, "#ch1"),
            "child::para[attribute::type=\"warning\"]",
            &["p1", "p3"],
        ),
        (
            ch2,
            "child::para[attribute::type='warning'][position()=5]",
            &["p10"],
        ),
        (
            ch2,
            "child::para[position()=5][attribute::type=\"warning\"]",
            &["p10"],
        ),
        (d, "child::chapter[child::title='Introduction']", &["ch1"]),
        (d, "child::chapter[child::title]", &["ch1", "ch2"]),
        (
            d,
            "child::*[self::chapter or self::appendix]",
            &["ch1", "ap1", "ch2", "ch3", "ap2"],
        ),
        (
            d,
            "child::*[self::chapter or self::appendix][position()=last()]",
            &["ap2"],
        ),
    ];
    for (context, expr, want) in cases {
        assert_eq!(labels(&eval(*context, expr)), *want, "{expr}");
    }
}

#[test]
fn recommendation_abbreviated_examples() {
    let doc = Document::parse(BOOK);
    let d = sel(&doc, "doc");
    let ch2 = sel(&doc, "#ch2");
    let p5 = sel(&doc, "#p5");
    let cases: &[(NodeRef<'_>, &str, &[&str])] = &[
        (ch2, "para", &["p6", "p7", "p8", "p9", "p10"]),
        (ch2, "text()", &["'text'"]),
        (sel(&doc, "#p3"), "@type", &["@type=warning"]),
        (sel(&doc, "#p3"), "@*", &["@id=p3", "@type=warning"]),
        (ch2, "para[1]", &["p6"]),
        (ch2, "para[last()]", &["p10"]),
        (
            d,
            "*/para",
            &["p1", "p2", "p3", "p4", "p6", "p7", "p8", "p9", "p10"],
        ),
        (p5, "/html/body/doc/chapter[2]/section[1]", &["s1"]),
        (
            d,
            "chapter//para",
            &["p1", "p2", "p3", "p5", "p6", "p7", "p8", "p9", "p10"],
        ),
        (p5, "//title", &["t1", "t2"]),
        // //para[1]: the first para child of every parent; (//para)[1]: the first of all.
        (p5, "//para[1]", &["p1", "p4", "p5", "p6"]),
        (p5, "(//para)[1]", &["p1"]),
        (p5, "/descendant::para[1]", &["p1"]),
        (ch2, ".//para", &["p5", "p6", "p7", "p8", "p9", "p10"]),
        (p5, ".", &["p5"]),
        (p5, "..", &["s1"]),
        (p5, "../@id", &["@id=s1"]),
        (
            ch2,
            "para[@type='warning']",
            &["p6", "p7", "p8", "p9", "p10"],
        ),
        (ch2, "para[@type='warning'][5]", &["p10"]),
        (ch2, "para[5][@type='warning']", &["p10"]),
        (d, "chapter[title='Introduction']", &["ch1"]),
        (d, "chapter[title]", &["ch1", "ch2"]),
        (sel(&doc, "#p2"), "preceding::*[1]", &["p1"]),
        (sel(&doc, "#p2"), "preceding-sibling::*[1]", &["p1"]),
        (sel(&doc, "#p2"), "following::para[1]", &["p3"]),
    ];
    for (context, expr, want) in cases {
        assert_eq!(labels(&eval(*context, expr)), *want, "{expr}");
    }
}

#[test]
fn every_axis_in_document_order_with_reverse_positions() {
    let doc = Document::parse(
        "<div id=a><p id=b><i id=c></i><b id=d></b></p><p id=e><i id=f></i></p><p id=g></p></div><div id=h></div>",
    );
    let f = sel(&doc, "#f");
    let e = sel(&doc, "#e");
    let check = |ctx: NodeRef<'_>, expr: &str, want: &[&str]| {
        assert_eq!(labels(&eval(ctx, expr)), want, "{expr}");
    };
    check(f, "ancestor::*", &["html", "body", "a", "e"]);
    check(f, "ancestor::*[1]", &["e"]);
    check(f, "ancestor::*[last()]", &["html"]);
    check(f, "ancestor::*[position() <= 2]", &["a", "e"]);
    check(f, "ancestor-or-self::*[1]", &["f"]);
    check(f, "ancestor-or-self::node()[last()]", &["/"]);
    check(e, "preceding::*", &["head", "b", "c", "d"]);
    check(e, "preceding::*[1]", &["d"]);
    check(e, "preceding::*[2]", &["c"]);
    check(e, "preceding::*[last()]", &["head"]);
    check(e, "following::*", &["g", "h"]);
    check(e, "following::*[1]", &["g"]);
    check(e, "following-sibling::*", &["g"]);
    check(e, "preceding-sibling::*", &["b"]);
    check(sel(&doc, "#g"), "preceding-sibling::*[1]", &["e"]);
    check(sel(&doc, "#g"), "preceding-sibling::*[last()]", &["b"]);
    check(
        sel(&doc, "#g"),
        "preceding-sibling::*[position()=last()-1]",
        &["e"],
    );
    check(e, "descendant::*", &["f"]);
    check(e, "descendant-or-self::*", &["e", "f"]);
    check(e, "parent::*", &["a"]);
    check(e, "parent::p", &[]);
    check(e, "self::*", &["e"]);
    check(e, "namespace::*", &[]);
    check(e, "child::*", &["f"]);
    check(e, "attribute::*", &["@id=e"]);
    // Reverse axes give document order in the result, whatever the positions.
    check(
        f,
        "ancestor::* | preceding::*",
        &["html", "head", "body", "a", "b", "c", "d", "e"],
    );
    // From an attribute: parent is the element; following starts inside the element.
    check(e, "@id/parent::*", &["e"]);
    check(e, "@id/ancestor::*", &["html", "body", "a", "e"]);
    check(e, "@id/following::*[1]", &["f"]);
    check(e, "@id/preceding::*[1]", &["d"]);
    check(e, "@id/child::node()", &[]);
    check(e, "@id/self::node()", &["@id=e"]);
    check(e, "@id/self::*", &[]);
    check(e, "@id/following-sibling::node()", &[]);
    // An attribute as the context node.
    let id = eval(e, "@id").nodes()[0];
    let from_attr = |expr: &str| labels(&id.xpath(&XPath::parse(expr).unwrap()).unwrap());
    assert_eq!(from_attr("."), ["@id=e"]);
    assert_eq!(from_attr(".."), ["e"]);
    assert_eq!(from_attr("ancestor-or-self::node()[1]"), ["@id=e"]);
    assert_eq!(from_attr("ancestor::*[1]"), ["e"]);
    assert_eq!(from_attr("following::*"), ["f", "g", "h"]);
    assert_eq!(from_attr("preceding::*[1]"), ["d"]);
    assert_eq!(from_attr("descendant-or-self::node()"), ["@id=e"]);
    assert_eq!(from_attr("/*"), ["html"]);
    assert_eq!(
        id.xpath(&XPath::parse("string()").unwrap())
            .unwrap()
            .string(),
        "e"
    );
    // Several contexts at once (position-free and positional).
    check(doc.root(), "//p/following-sibling::*", &["e", "g"]);
    check(doc.root(), "//p/preceding-sibling::*", &["b", "e"]);
    check(doc.root(), "//p/following-sibling::*[1]", &["e", "g"]);
    check(
        doc.root(),
        "//i/ancestor::*",
        &["html", "body", "a", "b", "e"],
    );
    check(doc.root(), "//i/ancestor::*[1]", &["b", "e"]);
    check(doc.root(), "//i/following::*", &["d", "e", "f", "g", "h"]);
    check(doc.root(), "//i/preceding::*", &["head", "b", "c", "d"]);
    check(doc.root(), "//p/..", &["a"]);
    check(doc.root(), "//p//*", &["c", "d", "f"]);
    check(doc.root(), "//div//*", &["b", "c", "d", "e", "f", "g"]);
    check(
        doc.root(),
        "//*[@id]/@id[.='c' or .='h']",
        &["@id=c", "@id=h"],
    );
}

#[test]
fn node_tests_and_the_root() {
    let doc = Document::parse("<!DOCTYPE html><!--top--><p>a<!--x-->b<?php echo?></p>");
    let root = doc.root();
    let check = |expr: &str, want: &[&str]| {
        assert_eq!(labels(&eval(root, expr)), want, "{expr}");
    };
    check("/node()", &["doctype", "<!--top-->", "html"]);
    check("/comment()", &["<!--top-->"]);
    check("//p/text()", &["'a'", "'b'"]);
    check("//p/comment()", &["<!--x-->"]);
    // (The HTML Standard of this snapshot parses `<?target data?>` as a processing instruction.)
    check("//p/node()", &["'a'", "<!--x-->", "'b'", "<?php>"]);
    check("//processing-instruction()", &["<?php>"]);
    check("//processing-instruction('php')", &["<?php>"]);
    check("/*", &["html"]);
    assert_eq!(eval(root, "count(//node())").number(), 10.0);
    assert_eq!(
        eval(root, "count(/descendant-or-self::node())").number(),
        11.0
    );
    assert_eq!(eval(root, "string(/)").string(), "ab");
}

#[test]
fn processing_instructions_from_the_dom() {
    let mut doc = Document::parse("<p>");
    let p = sel(&doc, "p").node_id();
    let pi = doc.new_processing_instruction("xml-stylesheet", "href='a.css'");
    doc.append(p, pi).unwrap();
    let root = doc.root();
    assert_eq!(
        labels(&eval(root, "//processing-instruction()")),
        ["<?xml-stylesheet>"]
    );
    assert_eq!(
        labels(&eval(root, "//processing-instruction('xml-stylesheet')")),
        ["<?xml-stylesheet>"]
    );
    assert_eq!(
        labels(&eval(root, "//processing-instruction('other')")),
        Vec::<String>::new()
    );
    assert_eq!(
        eval(root, "name(//processing-instruction())").string(),
        "xml-stylesheet"
    );
    assert_eq!(
        eval(root, "string(//processing-instruction())").string(),
        "href='a.css'"
    );
}

#[test]
fn html_name_tests() {
    let doc = Document::parse(
        "<DIV ID=x Data-Y=1><svg viewBox='0 0 1 1'><rect/><foreignObject><p>in</p></foreignObject></svg><math><mi>x</mi></math></DIV><template><p>t</p></template>",
    );
    let root = doc.root();
    let check = |expr: &str, want: &[&str]| {
        assert_eq!(labels(&eval(root, expr)), want, "{expr}");
    };
    // HTML elements match without case; attributes of HTML elements too.
    check("//DIV", &["x"]);
    check("//Div[@id='x']", &["x"]);
    check("//div/@DATA-y", &["@data-y=1"]);
    // Foreign elements need their namespace.
    check("//svg", &[]);
    check("//rect", &[]);
    check("//svg/@viewBox", &[]);
    assert_eq!(eval(root, "count(//*)").number(), 11.0);
    // Template contents are not descendants.
    check("//p", &["p"]);
    assert_eq!(eval(root, "string(//p)").string(), "in");
    let ns = [
        ("s", "http://www.w3.org/2000/svg"),
        ("m", "http://www.w3.org/1998/Math/MathML"),
        ("h", "http://www.w3.org/1999/xhtml"),
    ];
    let with_ns = |expr: &str| -> Vec<String> {
        labels(
            &doc.xpath(&XPath::parse_with_namespaces(expr, &ns).unwrap())
                .unwrap(),
        )
    };
    assert_eq!(with_ns("//s:svg/s:rect"), ["rect"]);
    assert_eq!(with_ns("//s:foreignObject/h:p"), ["p"]);
    assert_eq!(with_ns("//s:foreignobject"), Vec::<String>::new());
    assert_eq!(with_ns("//m:*"), ["math", "mi"]);
    assert_eq!(with_ns("//h:DIV"), ["x"]);
    assert_eq!(with_ns("//s:svg/@viewBox"), ["@viewBox=0 0 1 1"]);
    let uri = XPath::parse_with_namespaces("namespace-uri(//s:svg)", &ns).unwrap();
    assert_eq!(
        doc.xpath(&uri).unwrap().string(),
        "http://www.w3.org/2000/svg"
    );
    assert_eq!(
        eval(root, "namespace-uri(//div)").string(),
        "http://www.w3.org/1999/xhtml"
    );
    // xlink:href is an attribute in the XLink namespace; name() gives its qualified name.
    let doc = Document::parse("<svg><a xlink:href='#x'></a></svg>");
    let xl = XPath::parse_with_namespaces(
        "name(//@xl:href)",
        &[("xl", "http://www.w3.org/1999/xlink")],
    )
    .unwrap();
    assert_eq!(doc.xpath(&xl).unwrap().string(), "xlink:href");
    assert_eq!(eval(doc.root(), "count(//@href)").number(), 0.0);
    assert_eq!(eval(doc.root(), "local-name(//@*)").string(), "href");
}

fn value(expr: &str) -> XPathValue<'static> {
    static DOC: std::sync::OnceLock<Document> = std::sync::OnceLock::new();
    let doc = DOC.get_or_init(|| {
        Document::parse(
            "<body><p id=a class=' x  y '>Hello <b>world</b></p><p id=b>12</p><p id=c>-3.5</p>\
             <p id=d>abc</p><p id=e lang=fr xml:lang=fr><i>x</i></p><svg><g xml:lang=en-GB><text>t</text></g></svg>",
        )
    });
    doc.xpath(&XPath::parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}")))
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn string(expr: &str) -> String {
    match value(expr) {
        XPathValue::String(s) => s,
        other => panic!("{expr}: not a string: {other:?}"),
    }
}

fn number(expr: &str) -> f64 {
    match value(expr) {
        XPathValue::Number(n) => n,
        other => panic!("{expr}: not a number: {other:?}"),
    }
}

fn boolean(expr: &str) -> bool {
    match value(expr) {
        XPathValue::Boolean(b) => b,
        other => panic!("{expr}: not a boolean: {other:?}"),
    }
}

#[test]
fn node_set_functions() {
    assert_eq!(number("count(//p)"), 5.0);
    assert_eq!(number("count(//p[last()])"), 1.0);
    assert_eq!(string("string(//p[position()=2])"), "12");
    assert_eq!(number("count(id('a b  c x'))"), 3.0);
    assert_eq!(number("count(id(//p[@id='b']/@id))"), 1.0);
    assert_eq!(string("local-name(//p)"), "p");
    assert_eq!(string("local-name()"), "");
    assert_eq!(string("name(//p/@class)"), "class");
    assert_eq!(string("name(//nothing)"), "");
    assert_eq!(string("namespace-uri(//p/@id)"), "");
    assert_eq!(string("local-name(//text())"), "");
}

#[test]
fn string_functions() {
    assert_eq!(string("string(//p)"), "Hello world");
    assert_eq!(string("string(12.50)"), "12.5");
    assert_eq!(string("string(1 = 1)"), "true");
    assert_eq!(string("concat('a', 1, true(), //b)"), "a1trueworld");
    assert!(boolean("starts-with('abc', 'ab')"));
    assert!(boolean("starts-with('abc', '')"));
    assert!(!boolean("contains('abc', 'd')"));
    assert!(boolean("contains(//p, 'o w')"));
    assert_eq!(string("substring-before('1999/04/01', '/')"), "1999");
    assert_eq!(string("substring-after('1999/04/01', '/')"), "04/01");
    assert_eq!(string("substring-after('1999/04/01', '19')"), "99/04/01");
    assert_eq!(string("substring-after('abc', '')"), "abc");
    assert_eq!(string("substring-before('abc', 'x')"), "");
    // 4.2's substring() examples.
    assert_eq!(string("substring('12345', 2, 3)"), "234");
    assert_eq!(string("substring('12345', 2)"), "2345");
    assert_eq!(string("substring('12345', 1.5, 2.6)"), "234");
    assert_eq!(string("substring('12345', 0, 3)"), "12");
    assert_eq!(string("substring('12345', 0 div 0, 3)"), "");
    assert_eq!(string("substring('12345', 1, 0 div 0)"), "");
    assert_eq!(string("substring('12345', -42, 1 div 0)"), "12345");
    assert_eq!(string("substring('12345', -1 div 0, 1 div 0)"), "");
    assert_eq!(string("substring('ébc€d', 2, 3)"), "bc€");
    assert_eq!(number("string-length('ébc€')"), 4.0);
    assert_eq!(number("string-length(//p)"), 11.0);
    assert_eq!(string("normalize-space('  a \t b\n\n c ')"), "a b c");
    assert_eq!(string("normalize-space(//p/@class)"), "x y");
    assert_eq!(string("translate('bar','abc','ABC')"), "BAr");
    assert_eq!(string("translate('--aaa--','abc-','ABC')"), "AAA");
    assert_eq!(string("translate('aba','aa','xy')"), "xbx");
}

#[test]
fn boolean_functions() {
    assert!(boolean("boolean(//p)"));
    assert!(!boolean("boolean(//table)"));
    assert!(!boolean("boolean(0)"));
    assert!(!boolean("boolean(0 div 0)"));
    assert!(boolean("boolean(-0.1)"));
    assert!(!boolean("boolean('')"));
    assert!(boolean("boolean('false')"));
    assert!(boolean("not(false())"));
    assert!(boolean("true()"));
    // lang(): the xml:lang attribute in the XML namespace only (foreign content).
    let doc = Document::parse("<svg><g xml:lang=en-GB><text>t</text></g></svg><p lang=fr>x");
    let text = sel(&doc, "text");
    assert_eq!(eval(text, "lang('en')"), XPathValue::Boolean(true));
    assert_eq!(eval(text, "lang('EN-gb')"), XPathValue::Boolean(true));
    assert_eq!(eval(text, "lang('en-US')"), XPathValue::Boolean(false));
    assert_eq!(eval(text, "lang('e')"), XPathValue::Boolean(false));
    assert_eq!(
        eval(sel(&doc, "p"), "lang('fr')"),
        XPathValue::Boolean(false)
    );
}

#[test]
fn number_functions_and_arithmetic() {
    assert_eq!(number("number('  12 ')"), 12.0);
    assert!(number("number('1e2')").is_nan());
    assert!(number("number(//p)").is_nan());
    assert_eq!(number("number(//p[2])"), 12.0);
    assert_eq!(number("number(true())"), 1.0);
    assert_eq!(number("sum(//p[position() > 1 and position() < 4])"), 8.5);
    assert!(number("sum(//p)").is_nan());
    assert_eq!(number("sum(//nothing)"), 0.0);
    assert_eq!(number("floor(-1.5)"), -2.0);
    assert_eq!(number("ceiling(-1.5)"), -1.0);
    assert_eq!(number("round(2.5)"), 3.0);
    assert_eq!(number("round(-2.5)"), -2.0);
    assert!(number("round(-0.4)").is_sign_negative());
    assert_eq!(number("5 mod 2"), 1.0);
    assert_eq!(number("5 mod -2"), 1.0);
    assert_eq!(number("-5 mod 2"), -1.0);
    assert_eq!(number("-5 mod -2"), -1.0);
    assert_eq!(number("7 div 2"), 3.5);
    assert_eq!(number("1 - - 1"), 2.0);
    assert_eq!(number("--'3'"), 3.0);
    assert_eq!(number("2 + 3 * 4"), 14.0);
    assert_eq!(number("(2 + 3) * 4"), 20.0);
    assert_eq!(number("10 - 4 - 3"), 3.0);
    // `div` is a name test where an operand is expected, an operator after one.
    assert!(number("div div div").is_nan());
    assert_eq!(number("count(//p) div count(//p)"), 1.0);
}

#[test]
fn number_to_string_nan_and_infinity() {
    for (expr, want) in [
        ("string(0 div 0)", "NaN"),
        ("string(1 div 0)", "Infinity"),
        ("string(-1 div 0)", "-Infinity"),
        ("string(-0)", "0"),
        ("string(0 * -1)", "0"),
        ("string(1 div -(1 div 0))", "0"),
        ("string(3)", "3"),
        ("string(-3)", "-3"),
        ("string(0.5)", "0.5"),
        ("string(.5)", "0.5"),
        ("string(-.5)", "-0.5"),
        (
            "string(100000000000000000000000)",
            "100000000000000000000000",
        ),
        ("string(0.000001)", "0.000001"),
        ("string(0.1 + 0.2)", "0.30000000000000004"),
        ("string(1 div 3)", "0.3333333333333333"),
        ("string(number('abc'))", "NaN"),
        ("concat(1 div 0, '')", "Infinity"),
    ] {
        assert_eq!(string(expr), want, "{expr}");
    }
    // NaN is not equal to itself; Infinity compares.
    assert!(!boolean("0 div 0 = 0 div 0"));
    assert!(boolean("0 div 0 != 0 div 0"));
    assert!(boolean("1 div 0 > 1000000"));
    assert!(boolean("-1 div 0 < -1000000"));
    assert!(!boolean("0 div 0 < 1"));
    assert!(!boolean("0 div 0 >= 1"));
}

#[test]
fn comparisons_and_type_conversion() {
    // 3.4: node-set against string, number, boolean and node-set.
    assert!(boolean("//p = '12'"));
    assert!(boolean("//p != '12'"));
    assert!(boolean("//p = 12"));
    assert!(boolean("//p > 11"));
    assert!(!boolean("//p > 12"));
    assert!(boolean("//p < 0"));
    assert!(boolean("12 = //p"));
    assert!(boolean("11 < //p"));
    assert!(boolean("//p = true()"));
    assert!(boolean("//table = false()"));
    assert!(!boolean("//table = 'x'"));
    assert!(!boolean("//table != 'x'"));
    assert!(boolean("//p[2] = //p/text()[1]"));
    assert!(!boolean("//p[1] = //p/text()[1]"));
    assert!(!boolean("//p[2] = //p[3]"));
    assert!(boolean("//p[2] != //p[3]"));
    assert!(!boolean("//p[2] != //p[2]"));
    assert!(boolean("//p[2] < //p[3] or //p[3] < //p[2]"));
    assert!(boolean("//p[3] < //p[2]"));
    assert!(!boolean("//p[2] < //p[3]"));
    // Other types: boolean first, then number, then string.
    assert!(boolean("1 = '1'"));
    assert!(boolean("'1.0' = 1"));
    assert!(!boolean("'1.0' = '1'"));
    assert!(boolean("true() = 'x'"));
    assert!(boolean("false() = ''"));
    assert!(boolean("true() = 2"));
    assert!(!boolean("'2' > '10'"));
    assert!(!boolean("'abc' < 'abd'"));
    assert!(boolean("1 < 2 < 3"));
    assert!(!boolean("3 > 2 > 1"));
    assert!(boolean("1 = 1 = 1"));
    assert!(boolean("1 or 0 and 0"));
    assert!(!boolean("(1 or 0) and 0"));
}

#[test]
fn scalar_results_have_their_type() {
    assert_eq!(value("1 + 1"), XPathValue::Number(2.0));
    assert_eq!(value("'x'"), XPathValue::String("x".into()));
    assert_eq!(value("1 = 1"), XPathValue::Boolean(true));
    assert_eq!(value("//p[1]/@id").string(), "a");
    assert!(value("//p").number().is_nan());
    assert!(value("//p").boolean());
    assert_eq!(value("2").string(), "2");
}

#[test]
fn syntax_errors_point_at_the_offending_text() {
    let cases: &[(&str, XPathErrorKind, usize)] = &[
        ("", XPathErrorKind::Empty, 0),
        ("   ", XPathErrorKind::Empty, 0),
        ("//a[", XPathErrorKind::UnexpectedEnd, 4),
        ("//a[@href=]", XPathErrorKind::UnexpectedToken, 10),
        ("//a]", XPathErrorKind::UnexpectedToken, 3),
        ("1 +", XPathErrorKind::UnexpectedEnd, 3),
        ("a b", XPathErrorKind::UnexpectedToken, 2),
        ("//a[#]", XPathErrorKind::InvalidCharacter, 4),
        ("'open", XPathErrorKind::UnterminatedLiteral, 0),
        (
            "//p[foo(1)]",
            XPathErrorKind::UnknownFunction("foo".into()),
            4,
        ),
        (
            "x:count(//p)",
            XPathErrorKind::UnknownFunction("x:count".into()),
            0,
        ),
        (
            "sideways::p",
            XPathErrorKind::UnknownAxis("sideways".into()),
            0,
        ),
        (
            "count()",
            XPathErrorKind::WrongArgumentCount("count".into()),
            0,
        ),
        (
            "substring('a')",
            XPathErrorKind::WrongArgumentCount("substring".into()),
            0,
        ),
        (
            "concat('a')",
            XPathErrorKind::WrongArgumentCount("concat".into()),
            0,
        ),
        ("//svg:rect", XPathErrorKind::UnknownPrefix("svg".into()), 2),
        ("//p[$n]", XPathErrorKind::UnboundVariable("n".into()), 4),
        ("child::", XPathErrorKind::UnexpectedEnd, 7),
        ("/ /", XPathErrorKind::UnexpectedToken, 2),
        ("@", XPathErrorKind::UnexpectedEnd, 1),
        (
            "processing-instruction(1)",
            XPathErrorKind::UnexpectedToken,
            23,
        ),
        ("text(1)", XPathErrorKind::UnexpectedToken, 5),
        ("//é[", XPathErrorKind::UnexpectedEnd, 5),
    ];
    for (expr, kind, offset) in cases {
        let err = XPath::parse(expr).expect_err(expr);
        assert_eq!((err.kind(), err.offset()), (kind, *offset), "{expr}: {err}");
        // The pointer has the expression and a caret line.
        assert_eq!(err.pointer().lines().count(), 2, "{expr}");
    }
    assert_eq!(
        XPath::parse("//a[@href=]").unwrap_err().pointer(),
        "//a[@href=]\n          ^"
    );
    // Names are valid where the grammar allows them, operators where it expects one.
    for ok in [
        "and",
        "or",
        "div",
        "mod",
        "*",
        "//and/or",
        "and and and",
        "* * *",
        "@*",
        "self::node()",
        "child::text",
        "text",
        "//comment",
        "- - 1",
        "1--1",
        "(/)",
        "/ | /",
        "-//p",
        ".",
        "..",
    ] {
        assert!(XPath::parse(ok).is_ok(), "{ok}");
    }
}

#[test]
fn type_errors_at_evaluation() {
    let doc = Document::parse("<p>1</p>");
    for (expr, offset, text) in [
        ("count('x')", 0, "count('x')"),
        ("sum(1)", 0, "sum(1)"),
        ("'a'/b", 0, "'a'"),
        ("1[1]", 0, "1"),
        ("//p | 'x'", 6, "'x'"),
        ("local-name(1)", 0, "local-name(1)"),
    ] {
        let err = doc.xpath(&XPath::parse(expr).unwrap()).unwrap_err();
        assert_eq!(err.kind(), &XPathErrorKind::NotANodeSet, "{expr}");
        assert_eq!((err.offset(), err.text()), (offset, text), "{expr}");
    }
}

#[test]
fn nesting_is_bounded_without_stack_overflow() {
    // Parse and evaluate on a small stack: the deepest allowed expression fits (512 KiB for
    // an unoptimized test build; an optimized build needs under a third of it).
    let handle = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(|| {
            let doc = Document::parse("<p>1</p>");
            let ok = format!(
                "{}1{}",
                "(".repeat(MAX_NESTING - 1),
                ")".repeat(MAX_NESTING - 1)
            );
            assert_eq!(
                doc.xpath(&XPath::parse(&ok).unwrap()).unwrap().number(),
                1.0
            );
            let preds = format!(
                "{}1{}",
                "//p[".repeat(MAX_NESTING - 1),
                "]".repeat(MAX_NESTING - 1)
            );
            assert_eq!(
                doc.xpath(&XPath::parse(&preds).unwrap())
                    .unwrap()
                    .nodes()
                    .len(),
                1
            );
            let calls = format!(
                "{}1{}",
                "string(".repeat(MAX_NESTING - 1),
                ")".repeat(MAX_NESTING - 1)
            );
            assert_eq!(
                doc.xpath(&XPath::parse(&calls).unwrap()).unwrap().string(),
                "1"
            );
            for deep in [
                format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000)),
                "(".repeat(1_000_000),
                "//p[".repeat(100_000),
                "not(".repeat(100_000),
                format!("{}1", "-(".repeat(100_000)),
            ] {
                let err = XPath::parse(&deep).unwrap_err();
                assert_eq!(err.kind(), &XPathErrorKind::TooDeeplyNested);
                // The error points inside the expression, at the level that was too deep.
                assert!(
                    err.offset() > 0 && err.offset() < deep.len(),
                    "{}",
                    err.offset()
                );
            }
            // Long flat chains are loops, not recursion.
            let n = 100_000;
            let sum = vec!["1"; n].join("+");
            assert_eq!(
                doc.xpath(&XPath::parse(&sum).unwrap()).unwrap().number(),
                n as f64
            );
            let minus = format!("{}1", "-".repeat(n));
            assert_eq!(
                doc.xpath(&XPath::parse(&minus).unwrap()).unwrap().number(),
                1.0
            );
            let ors = vec!["0"; n].join(" or ");
            assert!(!doc.xpath(&XPath::parse(&ors).unwrap()).unwrap().boolean());
            let compares = vec!["1"; n].join(" = ");
            assert!(
                doc.xpath(&XPath::parse(&compares).unwrap())
                    .unwrap()
                    .boolean()
            );
            let steps = format!("/{}", vec!["self::node()"; n].join("/"));
            assert_eq!(
                doc.xpath(&XPath::parse(&steps).unwrap())
                    .unwrap()
                    .nodes()
                    .len(),
                1
            );
            let predicates = format!("//p{}", "[1]".repeat(n));
            assert_eq!(
                doc.xpath(&XPath::parse(&predicates).unwrap())
                    .unwrap()
                    .nodes()
                    .len(),
                1
            );
            let union = vec!["//p"; n].join(" | ");
            assert_eq!(
                doc.xpath(&XPath::parse(&union).unwrap())
                    .unwrap()
                    .nodes()
                    .len(),
                1
            );
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn deep_and_wide_trees_on_a_small_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let n = 100_000;
            let deep = Document::parse(&"<div>".repeat(n));
            let root = deep.root();
            // Linear in the tree, however the contexts nest.
            assert_eq!(eval(root, "count(//*//*//*)").number(), n as f64);
            assert_eq!(eval(root, "count(//div//div)").number(), (n - 1) as f64);
            assert_eq!(
                eval(root, "count(//*/ancestor::*)").number(),
                (n + 1) as f64
            );
            assert_eq!(
                eval(root, "count(//div/ancestor-or-self::*)").number(),
                (n + 2) as f64
            );
            assert_eq!(eval(root, "count(//div/following::*)").number(), 0.0);
            assert_eq!(eval(root, "count(//div/preceding::*)").number(), 1.0);
            assert_eq!(eval(root, "count(//div/..)").number(), n as f64);
            assert_eq!(eval(root, "count(//div[last()])").number(), n as f64);
            assert_eq!(eval(root, "count(//*[1])").number(), (n + 2) as f64);
            assert_eq!(
                eval(root, "count((//div)[last()]/ancestor::*[1])").number(),
                1.0
            );
            assert_eq!(eval(root, "string-length(string(/))").number(), 0.0);
            let last = eval(root, "(//div)[last()]").nodes()[0].as_node().unwrap();
            assert_eq!(eval(last, "count(ancestor::*)").number(), (n + 1) as f64);
            assert_eq!(eval(last, "count(preceding::*)").number(), 1.0);
            assert_eq!(eval(last, "count(ancestor::*[last()])").number(), 1.0);

            let wide = Document::parse(&"<p>x</p>".repeat(n));
            let root = wide.root();
            assert_eq!(
                eval(root, "count(//p/following-sibling::p)").number(),
                (n - 1) as f64
            );
            assert_eq!(
                eval(root, "count(//p/preceding-sibling::p)").number(),
                (n - 1) as f64
            );
            assert_eq!(
                eval(root, "count(//p/following-sibling::p[1])").number(),
                (n - 1) as f64
            );
            assert_eq!(
                eval(root, "count(//p/preceding-sibling::*[1])").number(),
                (n - 1) as f64
            );
            assert_eq!(
                eval(root, "count(//p/following::p)").number(),
                (n - 1) as f64
            );
            assert_eq!(
                eval(root, "count(//p/preceding::p)").number(),
                (n - 1) as f64
            );
            assert_eq!(
                eval(root, "count(//p/following::p[1])").number(),
                (n - 1) as f64
            );
            assert_eq!(
                eval(root, "count(//p | //p/text() | //body)").number(),
                (2 * n + 1) as f64
            );
            assert!(eval(root, "//p = //p").boolean());
            assert!(!eval(root, "//p != //p").boolean());
            assert_eq!(eval(root, "sum(//p/@nothing)").number(), 0.0);
        })
        .unwrap();
    handle.join().unwrap();
}

/// Every axis from many context nodes at once (the position-free path, which walks the
/// union) agrees with the per-context evaluation (forced by a positional predicate that
/// keeps everything), on real pages.
#[test]
fn set_at_a_time_axes_agree_with_per_context_evaluation() {
    let axes = [
        "child",
        "descendant",
        "descendant-or-self",
        "parent",
        "ancestor",
        "ancestor-or-self",
        "following-sibling",
        "preceding-sibling",
        "following",
        "preceding",
        "attribute",
        "self",
    ];
    for (name, doc) in real_pages().iter().take(2) {
        let root = doc.root();
        // (The per-context evaluation of following and preceding is quadratic in the number
        // of contexts: a few dozen per page.)
        for contexts in [
            "(//li)[position() mod 7 = 1][position() <= 30]",
            "(//a/@href)[position() <= 30]",
            "(//div[@class])[position() <= 30]",
            "(//p/text())[position() <= 30]",
            "(//table//td)[position() <= 30]",
            "(//*)[position() mod 13 = 0][position() <= 40]",
        ] {
            for axis in axes {
                let fast = format!("{contexts}/{axis}::node()");
                let slow = format!("{contexts}/{axis}::node()[position() > 0]");
                let (fast_nodes, slow_nodes) = (eval(root, &fast), eval(root, &slow));
                assert_eq!(
                    fast_nodes.nodes().len(),
                    slow_nodes.nodes().len(),
                    "{name}: {fast}"
                );
                assert!(fast_nodes == slow_nodes, "{name}: {fast}");
            }
        }
    }
}

fn real_pages() -> Vec<(String, Document)> {
    let mut pages = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir("tests/data/bench-corpus")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    paths.sort();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let doc = Document::parse_bytes(&bytes, &Default::default()).unwrap();
        pages.push((path.display().to_string(), doc));
    }
    assert!(pages.len() >= 10);
    pages
}

/// XPath and CSS selectors that select the same elements, on every vendored real page.
#[test]
fn xpath_agrees_with_css_on_real_pages() {
    let pairs = [
        ("//a[@href]", "a[href]"),
        ("//div//p", "div p"),
        ("//ul/li", "ul > li"),
        ("//*[@id]", "[id]"),
        ("//img[not(@alt)]", "img:not([alt])"),
        ("//h1 | //h2 | //h3", "h1, h2, h3"),
        ("//ul/*[1]", "ul > :first-child"),
        ("//tr/*[last()][self::td]", "tr > td:last-child"),
        (
            "//*[contains(concat(' ', normalize-space(@class), ' '), ' nav ')]",
            ".nav",
        ),
        ("//li[following-sibling::li]", "li:has(~ li)"),
        ("//p[a]", "p:has(> a)"),
        ("//div[not(*)]", "div:not(:has(> *))"),
        ("//input[@type='text']", "input[type=text]"),
        ("//a[starts-with(@href, 'http')]", "a[href^=http]"),
        ("//script[@src]/following-sibling::*[1]", "script[src] + *"),
        ("//meta/@content/..", "meta[content]"),
    ];
    let mut total = 0;
    for (name, doc) in real_pages() {
        for (xpath, css) in pairs {
            let from_xpath: Vec<_> = eval(doc.root(), xpath)
                .nodes()
                .iter()
                .map(|n| n.as_node().unwrap())
                .collect();
            let from_css: Vec<_> = doc
                .select(&Selector::parse(css).unwrap())
                // Unprefixed XPath name tests match HTML elements only.
                .filter(|e| e.namespace() == html_arena::Namespace::Html)
                .map(|e| e.as_node())
                .collect();
            assert_eq!(from_xpath.len(), from_css.len(), "{name}: {xpath} vs {css}");
            assert!(from_xpath == from_css, "{name}: {xpath} vs {css}");
            total += from_xpath.len();
        }
        // Scalars agree with the tree.
        let title = doc.select(&Selector::parse("title").unwrap()).next();
        assert_eq!(
            eval(doc.root(), "string(//title)").string(),
            title.map_or(String::new(), |t| t.text()),
            "{name}"
        );
        let elements = doc.root().descendants().filter(|n| n.is_element()).count();
        assert_eq!(
            eval(doc.root(), "count(//*)").number(),
            elements as f64,
            "{name}"
        );
    }
    assert!(total > 1000, "{total}");
}

#[test]
fn results_follow_mutations_and_detached_trees() {
    let mut doc = Document::parse("<div id=a><p id=p1></p></div><div id=b><p id=p2></p></div>");
    let x = XPath::parse("//p | //div").unwrap();
    assert_eq!(labels(&doc.xpath(&x).unwrap()), ["a", "p1", "b", "p2"]);
    // Move p2 before p1: document order (and the cached numbering) follow.
    let (a, p1, p2) = (
        sel(&doc, "#a").node_id(),
        sel(&doc, "#p1").node_id(),
        sel(&doc, "#p2").node_id(),
    );
    doc.insert_before(p1, p2).unwrap();
    assert_eq!(labels(&doc.xpath(&x).unwrap()), ["a", "p2", "p1", "b"]);
    assert_eq!(labels(&eval(doc.root(), "//div[1]/p[last()]")), ["p1"]);
    // A new element shows up in name tests (the selector index is rebuilt).
    let q = doc.new_element("q").unwrap();
    doc.append(a, q).unwrap();
    assert_eq!(
        labels(&eval(doc.root(), "//q/preceding-sibling::*")),
        ["p2", "p1"]
    );
    // A detached subtree is its own tree: `/` is its top.
    doc.detach(a).unwrap();
    let detached = doc.node(a).unwrap();
    assert_eq!(labels(&eval(detached, "/")), ["a"]);
    assert_eq!(labels(&eval(detached, "//p | //q")), ["p2", "p1", "q"]);
    assert_eq!(labels(&eval(detached, "//*[2]/following::*")), ["q"]);
    assert_eq!(labels(&eval(doc.root(), "//p")), Vec::<String>::new());
    // Template contents: a tree of its own too.
    let doc = Document::parse("<template><p id=t1><b id=t2></b></p><p id=t3></p></template>");
    let contents = doc
        .select(&Selector::parse("template").unwrap())
        .next()
        .unwrap()
        .template_contents()
        .unwrap();
    assert_eq!(labels(&eval(contents, "//p | //b")), ["t1", "t2", "t3"]);
    assert_eq!(eval(contents, "count(/*)").number(), 2.0);
    assert_eq!(labels(&eval(contents, "//b/ancestor::node()")), ["/", "t1"]);
}

/// Random token soups from the XPath alphabet: parsing never panics, and whatever parses
/// evaluates (to a value or a typed error) without panicking, from the root, an element, an
/// attribute and a text node.
#[test]
fn random_expressions_never_panic() {
    const PIECES: &[&str] = &[
        "/",
        "//",
        "(",
        ")",
        "[",
        "]",
        ".",
        "..",
        "@",
        ",",
        "::",
        "*",
        "|",
        "+",
        "-",
        "=",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        " and ",
        " or ",
        " div ",
        " mod ",
        "p",
        "a",
        "div",
        "@id",
        "'x'",
        "\"1\"",
        "1",
        "2.5",
        ".5",
        "0",
        "child",
        "descendant",
        "ancestor-or-self",
        "following",
        "preceding",
        "preceding-sibling",
        "following-sibling",
        "parent",
        "attribute",
        "self",
        "namespace",
        "descendant-or-self",
        "ancestor",
        "text()",
        "comment()",
        "node()",
        "processing-instruction()",
        "processing-instruction('x')",
        "last()",
        "position()",
        "count(",
        "id(",
        "name(",
        "local-name(",
        "namespace-uri(",
        "string(",
        "concat(",
        "starts-with(",
        "contains(",
        "substring(",
        "substring-before(",
        "substring-after(",
        "string-length(",
        "normalize-space(",
        "translate(",
        "boolean(",
        "not(",
        "true()",
        "false()",
        "lang(",
        "number(",
        "sum(",
        "floor(",
        "ceiling(",
        "round(",
        "$v",
        "é",
        ":",
        "x:y",
        " ",
        "#",
        "'",
        "1e3",
        "-0",
    ];
    let doc = Document::parse(
        "<!DOCTYPE html><div id=x class=c><p id=y>1<!--c--><a href=/h>2</a></p><p>3 4</p></div><svg><g/></svg>",
    );
    let p = sel(&doc, "p");
    let text = p.first_child().unwrap();
    let contexts = [doc.root(), p, text];
    let attr = eval(doc.root(), "//@href").nodes()[0];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut parsed = 0;
    for _ in 0..20_000 {
        let len = 1 + next() % 12;
        let expr: String = (0..len)
            .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
            .collect();
        let Ok(xpath) = XPath::parse(&expr) else {
            continue;
        };
        parsed += 1;
        for context in contexts {
            let _ = context.xpath(&xpath);
        }
        let _ = attr.xpath(&xpath);
    }
    assert!(parsed > 1000, "{parsed}");
}
