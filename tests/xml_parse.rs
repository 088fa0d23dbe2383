//! XML parsing into the arena: the RSS, Atom, sitemap and XHTML samples in `tests/data/xml`
//! (written for these tests), selectors and text on them, serialization round trips, the
//! XMLSerializer behaviours of WPT's `domparsing/XMLSerializer-serializeToString.html` that
//! need XML documents (re-derived from the DOM Parsing standard; Chromium's reading where the
//! module docs of `html_arena::xml::serialize` say so), well-formedness errors with positions,
//! hostile inputs (entity expansion, external entities, depth, size), and the round trip
//! HTML → coerce → XML → parse as XML → the same tree on every vendored page.
#![cfg(feature = "xml")]

use html_arena::xml::{XmlErrorKind, XmlFragmentContext, XmlParseOptions, XmlSerializeOptions};
use html_arena::{Document, Namespace, ParseOptions, Selector};

fn sample(name: &str) -> Document {
    let bytes = std::fs::read(format!("tests/data/xml/{name}")).unwrap();
    Document::parse_xml_bytes(&bytes, &XmlParseOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn texts(doc: &Document, selector: &Selector) -> Vec<String> {
    doc.select(selector).map(|e| e.text()).collect()
}

fn err(text: &str) -> (XmlErrorKind, usize, usize) {
    let e = Document::parse_xml(text).expect_err(text);
    (e.kind, e.line, e.column)
}

#[test]
fn rss() {
    let doc = sample("rss.xml");
    assert!(doc.is_xml());
    let titles = texts(&doc, &Selector::parse("item > title").unwrap());
    assert_eq!(
        titles,
        ["Bridge reopens after repairs", "Market prices <up>"]
    );
    let dc = ("dc", "http://purl.org/dc/elements/1.1/");
    let creators = texts(
        &doc,
        &Selector::parse_with_namespaces("dc|creator", &[dc]).unwrap(),
    );
    assert_eq!(creators, ["Ana Lima", "Bo Chen"]);
    let item = doc.select_first(&Selector::parse("item").unwrap()).unwrap();
    let description = item
        .select(&Selector::parse("description").unwrap())
        .next()
        .unwrap();
    assert_eq!(
        description.text(),
        "The old bridge is open again \u{2013} with a new cycle lane."
    );
    // CDATA is text.
    let content = ("content", "http://purl.org/rss/1.0/modules/content/");
    let encoded = doc
        .select_first(&Selector::parse_with_namespaces("content|encoded", &[content]).unwrap())
        .unwrap();
    assert_eq!(
        encoded.text(),
        "<p>The old bridge is <b>open</b> again.</p>"
    );
    assert_eq!(encoded.prefix(), Some("content"));
    assert_eq!(encoded.local_name(), "encoded");
    // Attribute selectors are case-sensitive in XML.
    assert_eq!(
        doc.select(&Selector::parse("[isPermaLink=false]").unwrap())
            .count(),
        1
    );
    assert_eq!(
        doc.select(&Selector::parse("[ispermalink]").unwrap())
            .count(),
        0
    );
    assert_eq!(doc.select(&Selector::parse("ITEM").unwrap()).count(), 0);
}

#[test]
fn selectors_with_namespaces() {
    let doc = Document::parse_xml(r#"<r><a/><b xmlns="urn:x"><a/><A/></b></r>"#).unwrap();
    let count = |sel: &str| {
        let x = ("x", "urn:x");
        let s = Selector::parse_with_namespaces(sel, &[x]).unwrap();
        // Both query paths: a fresh document (walk) and an indexed one.
        let first = doc.select(&s).count();
        assert_eq!(doc.select(&s).count(), first, "{sel}");
        first
    };
    assert_eq!(count("a"), 2);
    assert_eq!(count("|a"), 1);
    assert_eq!(count("*|a"), 2);
    assert_eq!(count("x|a"), 1);
    assert_eq!(count("x|*"), 3);
    assert_eq!(count("A"), 1);
    assert_eq!(count("b > a"), 1);
}

#[test]
fn atom() {
    let doc = sample("atom.xml");
    let atom = ("a", "http://www.w3.org/2005/Atom");
    let entries = doc
        .select(&Selector::parse_with_namespaces("a|entry", &[atom]).unwrap())
        .count();
    assert_eq!(entries, 2);
    let feed = doc.document_element().unwrap();
    assert!(matches!(feed.namespace(), Namespace::Other(_)));
    assert_eq!(feed.namespace_url(), "http://www.w3.org/2005/Atom");
    // The XHTML content is in the HTML namespace.
    let div = doc
        .select_first(&Selector::parse("content > div").unwrap())
        .unwrap();
    assert_eq!(div.namespace(), Namespace::Html);
    assert_eq!(div.text(), "Feeds are XML.");
    let html_title = doc
        .select_first(&Selector::parse("entry > title[type=html]").unwrap())
        .unwrap();
    assert_eq!(html_title.text(), "<b>Bold</b> titles");
    // xml:lang is in the XML namespace.
    assert_eq!(
        feed.attr_ns(html_arena::AttrNamespace::Xml, "lang"),
        Some("en")
    );
    // An XHTML element's attribute selectors work as on HTML elements, case-sensitively.
    assert_eq!(
        doc.select(&Selector::parse("img[alt='']").unwrap()).count(),
        1
    );
}

#[test]
fn sitemap() {
    let doc = sample("sitemap.xml");
    let locs = texts(&doc, &Selector::parse("url > loc").unwrap());
    assert_eq!(
        locs,
        [
            "https://shop.example/",
            "https://shop.example/p?id=1&ref=map",
            "https://shop.example/about"
        ]
    );
    let image = ("image", "http://www.google.com/schemas/sitemap-image/1.1");
    let images = texts(
        &doc,
        &Selector::parse_with_namespaces("image|loc", &[image]).unwrap(),
    );
    assert_eq!(images, ["https://shop.example/1.jpg"]);
}

#[test]
fn xhtml() {
    let doc = sample("page.xhtml");
    let dump = doc.dump_tree();
    assert!(dump.starts_with("| <!DOCTYPE html>\n| <html>\n"), "{dump}");
    // Names keep their case; selectors match them case-sensitively.
    assert_eq!(
        doc.select(&Selector::parse("svg[viewBox]").unwrap())
            .count(),
        1
    );
    assert_eq!(
        doc.select(&Selector::parse("svg[viewbox]").unwrap())
            .count(),
        0
    );
    assert_eq!(
        doc.select(&Selector::parse("foreignObject > p").unwrap())
            .count(),
        1
    );
    // A template's children are its contents.
    let template = doc
        .select_first(&Selector::parse("template").unwrap())
        .unwrap();
    assert!(template.first_child().is_none());
    assert_eq!(
        template.template_contents().unwrap().text(),
        "Template content"
    );
    let section = doc
        .select_first(&Selector::parse("section").unwrap())
        .unwrap();
    assert_eq!(section.attr("id"), Some("ch1"));
    assert!(dump.contains("{http://www.idpf.org/2007/ops} type=\"chapter\""));
    assert!(dump.contains("<?page-break ?>"), "{dump}");
    assert!(dump.contains("<math mi>"));
    assert!(dump.contains("xlink href=\"#dot\""));
    // Attribute lookup is case-sensitive too (an XML document is not an HTML document).
    let p = doc
        .select_first(&Selector::parse("p.first").unwrap())
        .unwrap();
    assert_eq!(p.attr("class"), Some("first"));
    assert_eq!(p.attr("CLASS"), None);
    let mut copy = doc.clone();
    copy.set_attribute(p.node_id(), "dataX", "1").unwrap();
    let p2 = copy.node(p.node_id()).unwrap().as_element().unwrap();
    assert_eq!(p2.attr("dataX"), Some("1"));
    assert_eq!(p2.attr("datax"), None);
    let style = doc
        .select_first(&Selector::parse("style").unwrap())
        .unwrap();
    assert_eq!(style.text(), "p > em { color: red }");
}

/// Parse → XML → parse gives the same tree, and serializing again the same text.
#[test]
fn samples_round_trip() {
    for name in ["rss.xml", "atom.xml", "sitemap.xml", "page.xhtml"] {
        let doc = sample(name);
        let xml = doc.xml();
        let again = Document::parse_xml(&xml).unwrap_or_else(|e| panic!("{name}: {e}\n{xml}"));
        assert_eq!(doc.dump_tree(), again.dump_tree(), "{name}");
        assert_eq!(again.xml(), xml, "{name}");
        // Well-formed as it is, and roxmltree agrees.
        let wf = doc
            .root()
            .xml_with(&XmlSerializeOptions::well_formed())
            .unwrap();
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        };
        roxmltree::Document::parse_with_options(&wf, options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // Prefixes survive.
    let doc = sample("rss.xml");
    assert!(doc.xml().contains("<dc:creator>Ana Lima</dc:creator>"));
    assert!(
        doc.xml()
            .contains(r#"<atom:link href="https://gazette.example/feed.xml""#)
    );
}

// ---------------------------------------------------------------------------------------------
// XMLSerializer on XML documents (WPT domparsing/XMLSerializer-serializeToString.html).

fn reserialize(xml: &str) -> String {
    Document::parse_xml(xml).unwrap().xml()
}

#[test]
fn xml_serializer_cases() {
    let same = [
        "<root><child1>value1</child1></root>",
        r#"<root xmlns="urn:bar"><outer xmlns=""><inner>value1</inner></outer></root>"#,
        r#"<root xmlns="ns_root"><p:child xmlns:p="ns_child" xmlns=""><grandchild/></p:child></root>"#,
        r#"<a:x xmlns:a="urn:a"><a:y a:z="1"/><b xmlns="urn:b"/></a:x>"#,
        r#"<r xmlns:x0="uri" xmlns:x2="uri"><b xmlns:x1="uri" x1:name="v"/></r>"#,
    ];
    for xml in same {
        assert_eq!(reserialize(xml), xml);
    }
    // Redundant default declarations are dropped.
    assert_eq!(
        reserialize(r#"<root><child xmlns=""/></root>"#),
        "<root><child/></root>"
    );
    assert_eq!(
        reserialize(r#"<root xmlns=""><child xmlns=""/></root>"#),
        "<root><child/></root>"
    );
    assert_eq!(
        reserialize(r#"<root xmlns="u1"><child xmlns="u1"/></root>"#),
        r#"<root xmlns="u1"><child/></root>"#
    );
    // The prefix is dropped where the element's namespace is the inherited default.
    assert_eq!(
        reserialize(r#"<root xmlns="u1"><p:child xmlns:p="u1"/></root>"#),
        r#"<root xmlns="u1"><child xmlns:p="u1"/></root>"#
    );
    // Escaping of attribute values for round trips.
    assert_eq!(
        reserialize("<root attr=\"&#9;&#10;&#13;&lt;&amp;&quot;>\"/>"),
        r#"<root attr="&#9;&#10;&#13;&lt;&amp;&quot;&gt;"/>"#
    );
    // Elements in the XHTML namespace: no self-closing unless void.
    assert_eq!(
        reserialize(r#"<html xmlns="http://www.w3.org/1999/xhtml"><p/><br/></html>"#),
        r#"<html xmlns="http://www.w3.org/1999/xhtml"><p></p><br /></html>"#
    );
    // A mutated element keeps its namespace: an element moved out of its declaration's scope
    // declares it again.
    let mut doc = Document::parse_xml(r#"<r><a:x xmlns:a="urn:a"><a:y/></a:x></r>"#).unwrap();
    let y = doc
        .select_first(&Selector::parse("y").unwrap())
        .unwrap()
        .node_id();
    let r = doc.document_element().unwrap().node_id();
    doc.append(r, y).unwrap();
    assert_eq!(
        doc.xml(),
        r#"<r><a:x xmlns:a="urn:a"/><a:y xmlns:a="urn:a"/></r>"#
    );
}

#[test]
fn nearest_prefix_is_chosen_and_overridden_ones_are_not() {
    // Chromium's "retrieve a preferred prefix string": an overridden prefix is never used.
    let mut doc = Document::parse_xml(
        r#"<el1 xmlns:p="u1" xmlns:q="u1"><el2 xmlns:q="u2"/><z:el3 xmlns:z="u1"/></el1>"#,
    )
    .unwrap();
    // Move el3 (in u1, prefix z) under el2, out of z's declaration: it declares z again.
    let el3 = doc
        .select_first(&Selector::parse("el3").unwrap())
        .unwrap()
        .node_id();
    let el2 = doc
        .select_first(&Selector::parse("el2").unwrap())
        .unwrap()
        .node_id();
    doc.append(el2, el3).unwrap();
    let out = doc.xml();
    assert_eq!(
        out,
        r#"<el1 xmlns:p="u1" xmlns:q="u1"><el2 xmlns:q="u2"><z:el3 xmlns:z="u1"/></el2></el1>"#
    );
    Document::parse_xml(&out).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Errors.

#[test]
fn well_formedness_errors_with_positions() {
    use XmlErrorKind as K;
    assert!(matches!(err("<a>\n  <b></a>"), (K::Syntax(_), 2, 6)));
    assert_eq!(
        err("<a><p:b/></a>"),
        (K::UndeclaredPrefix("p".into()), 1, 4)
    );
    assert_eq!(
        err(r#"<a x="1" x="2"/>"#).0,
        K::DuplicateAttribute("x".into())
    );
    assert_eq!(
        err(r#"<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>"#).0,
        K::DuplicateAttribute("q:x".into())
    );
    assert_eq!(err("<a>&#0;</a>").0, K::InvalidChar(0));
    assert_eq!(err("<a>\u{1}</a>"), (K::InvalidChar(1), 1, 4));
    assert_eq!(err("<a>x]]>y</a>"), (K::CdataEndInText, 1, 5));
    assert_eq!(err("<a/><b/>"), (K::ContentAfterDocumentElement, 1, 5));
    assert_eq!(err("<a/>text"), (K::ContentAfterDocumentElement, 1, 5));
    assert_eq!(err("text<a/>"), (K::TextOutsideDocumentElement, 1, 1));
    assert_eq!(err("<!-- only -->").0, K::NoDocumentElement);
    assert_eq!(err("").0, K::NoDocumentElement);
    assert_eq!(
        err("<a>&nope;</a>"),
        (K::UndefinedEntity("nope".into()), 1, 4)
    );
    assert!(matches!(err(r#"<a x="<"/>"#).0, K::Syntax(_)));
    assert!(matches!(err("<1a/>").0, K::InvalidName(_) | K::Syntax(_)));
    assert_eq!(err("<a:b:c/>").0, K::InvalidName("a:b:c".into()));
    assert!(matches!(
        err(r#"<a xmlns:p=""/>"#).0,
        K::InvalidNamespaceDeclaration(_)
    ));
    assert!(matches!(
        err(r#"<a xmlns:xml="urn:x"/>"#).0,
        K::InvalidNamespaceDeclaration(_)
    ));
    assert!(matches!(
        err(r#"<a xmlns:xmlns="urn:x"/>"#).0,
        K::InvalidNamespaceDeclaration(_)
    ));
    assert!(matches!(
        err(r#"<a xmlns="http://www.w3.org/2000/xmlns/"/>"#).0,
        K::InvalidNamespaceDeclaration(_)
    ));
    assert!(matches!(
        err("<a/><?xml version='1.0'?>").0,
        K::Declaration(_)
    ));
    assert!(matches!(
        err("<a><b></b>").0,
        K::UnclosedElement(_) | K::Syntax(_)
    ));
    assert!(matches!(err("<a><!-- a -- b --></a>").0, K::Syntax(_)));
    assert!(matches!(err("<a><!--a---></a>").0, K::Syntax(_)));
    assert!(matches!(
        err("<?xml version='2.0'?><a/>").0,
        K::Declaration(_)
    ));
    assert!(matches!(
        err("<a><?xml-x?><?XML x?></a>").0,
        K::InvalidName(_)
    ));
    // Display: line:col message.
    let e = Document::parse_xml("<a>\n<b>&x;</b></a>").unwrap_err();
    assert_eq!(e.to_string(), "2:4 undefined entity &x;");
}

#[test]
fn encodings() {
    let options = XmlParseOptions::default();
    // UTF-16LE with a byte order mark.
    let mut bytes = vec![0xFF, 0xFE];
    for u in "<a>é\u{1F600}</a>".encode_utf16() {
        bytes.extend_from_slice(&u.to_le_bytes());
    }
    let doc = Document::parse_xml_bytes(&bytes, &options).unwrap();
    assert_eq!(doc.document_element().unwrap().text(), "é\u{1F600}");
    assert_eq!(doc.encoding(), encoding_rs::UTF_16LE);
    // The declaration's encoding.
    let doc = Document::parse_xml_bytes(
        b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><a>\xcf\xf0\xe8</a>",
        &options,
    )
    .unwrap();
    assert_eq!(doc.document_element().unwrap().text(), "При");
    // Bytes that are not UTF-8.
    let e = Document::parse_xml_bytes(b"<a>\xff</a>", &options).unwrap_err();
    assert!(matches!(e.kind, XmlErrorKind::Encoding(_)));
    let e = Document::parse_xml_bytes(b"<?xml version='1.0' encoding='no-such'?><a/>", &options)
        .unwrap_err();
    assert!(matches!(e.kind, XmlErrorKind::Encoding(_)));
    // A UTF-8 byte order mark.
    let doc = Document::parse_xml_bytes(b"\xEF\xBB\xBF<a>x</a>", &options).unwrap();
    assert_eq!(doc.document_element().unwrap().text(), "x");
}

#[test]
fn references_and_normalization() {
    let doc = Document::parse_xml(
        "<!DOCTYPE a [<!ENTITY e \"E&#38;amp;\"><!ENTITY f \"[&e;]\">]>\
         <a x=\"1\t2\r\n3 &f;\">&lt;&#x41;&#66;&f;\r\n</a>",
    )
    .unwrap();
    let a = doc.document_element().unwrap();
    // `&#38;amp;` in the literal is `&amp;` in the replacement text: `&`.
    assert_eq!(a.attr("x"), Some("1 2 3 [E&]"));
    assert_eq!(a.text(), "<AB[E&]\n");
    // One text node for text, references and CDATA together.
    let doc = Document::parse_xml("<a>x&amp;<![CDATA[<y>]]>z</a>").unwrap();
    let a = doc.document_element().unwrap();
    assert_eq!(a.children().count(), 1);
    assert_eq!(a.text(), "x&<y>z");
    // The DOCTYPE keeps its identifiers (never fetched).
    let doc = Document::parse_xml(
        r#"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html xmlns="http://www.w3.org/1999/xhtml"/>"#,
    )
    .unwrap();
    assert!(doc.dump_tree().starts_with(
        "| <!DOCTYPE html \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">"
    ));
}

#[test]
fn fragments_with_context() {
    let context = XmlFragmentContext::new()
        .with_default_namespace("http://www.w3.org/1999/xhtml")
        .with_prefix("svg", "http://www.w3.org/2000/svg");
    let frag =
        Document::parse_xml_fragment("<p>a</p>b<svg:rect/><!--c--><?pi x?>", &context).unwrap();
    let kids: Vec<_> = frag.root().children().collect();
    assert_eq!(kids.len(), 5);
    assert_eq!(kids[0].as_element().unwrap().namespace(), Namespace::Html);
    assert_eq!(kids[2].as_element().unwrap().namespace(), Namespace::Svg);
    assert_eq!(kids[2].as_element().unwrap().prefix(), Some("svg"));
    // Without the declaration the prefix is undeclared.
    let e = Document::parse_xml_fragment("<svg:rect/>", &XmlFragmentContext::new()).unwrap_err();
    assert_eq!(e.kind, XmlErrorKind::UndeclaredPrefix("svg".into()));
    // The context of an HTML-parsed element: its namespace is the default.
    let html = Document::parse("<svg><g></g></svg>");
    let g = html.select_first(&Selector::parse("g").unwrap()).unwrap();
    let frag =
        Document::parse_xml_fragment("<circle r='1'/>", &XmlFragmentContext::from_element(g))
            .unwrap();
    let circle = frag.root().first_child().unwrap().as_element().unwrap();
    assert_eq!(circle.namespace(), Namespace::Svg);
    assert_eq!(circle.local_name(), "circle");
}

// ---------------------------------------------------------------------------------------------
// Hostile input.

#[test]
fn billion_laughs_stops_at_the_limit() {
    let mut dtd = String::from("<!DOCTYPE lolz [<!ENTITY lol \"lol\">");
    for i in 1..10 {
        let prev = if i == 1 {
            "lol".to_owned()
        } else {
            format!("lol{}", i - 1)
        };
        dtd.push_str(&format!(
            "<!ENTITY lol{i} \"{}\">",
            format!("&{prev};").repeat(10)
        ));
    }
    dtd.push_str("]><lolz>&lol9;</lolz>");
    let e = Document::parse_xml(&dtd).unwrap_err();
    assert_eq!(e.kind, XmlErrorKind::EntityExpansionLimit);
    // In an attribute too.
    let attr = dtd.replace("<lolz>&lol9;</lolz>", "<lolz a=\"&lol9;\"/>");
    assert_eq!(
        Document::parse_xml(&attr).unwrap_err().kind,
        XmlErrorKind::EntityExpansionLimit
    );
    // Quadratic blowup: one big entity, referenced many times.
    let big = "x".repeat(100_000);
    let refs = "&big;".repeat(100);
    let text = format!("<!DOCTYPE a [<!ENTITY big \"{big}\">]><a>{refs}</a>");
    assert_eq!(
        Document::parse_xml(&text).unwrap_err().kind,
        XmlErrorKind::EntityExpansionLimit
    );
    // Under a raised limit it expands.
    let mut options = XmlParseOptions::default();
    options.max_entity_expansion = 20_000_000;
    let doc = Document::parse_xml_with(&text, &options).unwrap();
    assert_eq!(doc.document_element().unwrap().text().len(), 10_000_000);
    // Too deep.
    let mut deep = String::from("<!DOCTYPE a [<!ENTITY e0 \"x\">");
    for i in 1..40 {
        deep.push_str(&format!("<!ENTITY e{i} \"&e{};\">", i - 1));
    }
    deep.push_str("]><a>&e39;</a>");
    assert_eq!(
        Document::parse_xml(&deep).unwrap_err().kind,
        XmlErrorKind::EntityExpansionLimit
    );
}

#[test]
fn external_and_recursive_entities_are_refused() {
    let xxe = r#"<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>"#;
    assert_eq!(
        Document::parse_xml(xxe).unwrap_err().kind,
        XmlErrorKind::ExternalEntity("x".into())
    );
    let public = r#"<!DOCTYPE a [<!ENTITY x PUBLIC "-//X//EN" "http://example.com/x">]><a>&x;</a>"#;
    assert_eq!(
        Document::parse_xml(public).unwrap_err().kind,
        XmlErrorKind::ExternalEntity("x".into())
    );
    // Declared but unused: fine.
    Document::parse_xml(r#"<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a/>"#).unwrap();
    let pe = r#"<!DOCTYPE a [<!ENTITY % p SYSTEM "http://example.com/evil.dtd"> %p;]><a/>"#;
    assert!(matches!(
        Document::parse_xml(pe).unwrap_err().kind,
        XmlErrorKind::UnsupportedEntity(_)
    ));
    let recursive = r#"<!DOCTYPE a [<!ENTITY a "&b;"><!ENTITY b "&a;">]><a>&a;</a>"#;
    assert!(matches!(
        Document::parse_xml(recursive).unwrap_err().kind,
        XmlErrorKind::RecursiveEntity(_)
    ));
    let markup = r#"<!DOCTYPE a [<!ENTITY m "<b/>">]><a>&m;</a>"#;
    assert!(matches!(
        Document::parse_xml(markup).unwrap_err().kind,
        XmlErrorKind::UnsupportedEntity(_)
    ));
    // An external DOCTYPE subset is never read.
    let doc =
        Document::parse_xml(r#"<!DOCTYPE a SYSTEM "http://example.com/never-fetched.dtd"><a/>"#)
            .unwrap();
    assert!(doc.dump_tree().contains("never-fetched.dtd"));
}

#[test]
fn a_million_deep_on_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let depth = 1_000_000;
            let text = "<a>".repeat(depth) + &"</a>".repeat(depth);
            let doc = Document::parse_xml(&text).unwrap();
            assert_eq!(doc.root().descendants().count(), depth);
            let out = doc.xml();
            // The innermost element has no children: `<a/>`.
            assert_eq!(out.len(), text.len() - 3);
            let sel = Selector::parse("a a a").unwrap();
            assert_eq!(doc.select(&sel).count(), depth - 2);
            drop(doc);
            // Unclosed: an error, not a crash.
            let e = Document::parse_xml(&"<a>".repeat(depth)).unwrap_err();
            assert!(matches!(
                e.kind,
                XmlErrorKind::UnclosedElement(_) | XmlErrorKind::Syntax(_)
            ));
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn huge_attributes_and_many_of_them() {
    let value = "v".repeat(10_000_000);
    let doc = Document::parse_xml(&format!("<a x=\"{value}\"/>")).unwrap();
    assert_eq!(
        doc.document_element().unwrap().attr("x").unwrap().len(),
        value.len()
    );
    let attrs: String = (0..100_000).map(|i| format!(" a{i}=\"{i}\"")).collect();
    let doc = Document::parse_xml(&format!("<a{attrs}/>")).unwrap();
    assert_eq!(doc.document_element().unwrap().attrs().len(), 100_000);
    let dup = format!("<a{attrs} a5=\"x\"/>");
    assert!(Document::parse_xml(&dup).is_err());
    // Many namespaced attributes with distinct prefixes for one namespace.
    let decls: String = (0..20_000)
        .map(|i| format!(" xmlns:p{i}=\"urn:x\""))
        .collect();
    let uses: String = (0..20_000).map(|i| format!(" p{i}:a{i}=\"1\"")).collect();
    let doc = Document::parse_xml(&format!("<a{decls}{uses}><b/></a>")).unwrap();
    let out = doc.xml();
    Document::parse_xml(&out).unwrap();
}

// ---------------------------------------------------------------------------------------------
// HTML → coerce → XML → parse as XML.

/// The tree dump without namespace declaration attributes (`xmlns ...` lines), which the
/// serializer adds where the namespaces need them.
fn without_declarations(dump: &str) -> String {
    dump.lines()
        .filter(|line| {
            let body = line.trim_start_matches('|').trim_start();
            !(body.starts_with("xmlns ") && body.contains('='))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

fn round_trip(doc: &Document, what: &str) {
    let coerced = doc.coerce_to_infoset();
    let xml = coerced
        .root()
        .xml_with(&XmlSerializeOptions::well_formed())
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let parsed = Document::parse_xml(&xml).unwrap_or_else(|e| panic!("{what}: {e}"));
    let (a, b) = (
        without_declarations(&coerced.dump_tree()),
        without_declarations(&parsed.dump_tree()),
    );
    if a != b {
        let line = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        panic!(
            "{what}: trees differ at line {line}:\n  {:?}\n  {:?}",
            a.lines().nth(line),
            b.lines().nth(line)
        );
    }
    // And the XML of the parsed tree is the same XML.
    assert_eq!(parsed.xml(), xml, "{what}");
}

#[test]
fn html_round_trips_through_xml() {
    for html in [
        "<!DOCTYPE html><p xml:lang=en a<b=1>x\u{c}y<!-- a -- b --->",
        "<svg><use xlink:href=#a /><g xmlns:xlink=urn:x><a xlink:href=#b></a></g></svg>",
        "<math><mi xml:lang=en>x</mi><annotation-xml encoding=text/html><p>y</p></annotation-xml></math>",
        "<template><tr><td>x</td></tr></template><table><td>y</table>",
        "<a::>x</a::><x:y:z>q</x:y:z>",
        "<p>&amp;&lt;&gt;\"'\u{a0}]]></p><textarea>\na</textarea><pre>\n\nb</pre>",
        "<script>if (a < b && c) {}</script><style>p > a {}</style>",
    ] {
        round_trip(&Document::parse(html), html);
    }
}

#[test]
fn vendored_pages_round_trip_through_xml() {
    let mut pages: Vec<std::path::PathBuf> = Vec::new();
    for dir in ["tests/data/bench-corpus", "/work/shared/bench-corpus"] {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "html") {
                    pages.push(e.path());
                }
            }
        }
    }
    assert!(pages.len() >= 10);
    for path in &pages {
        let bytes = std::fs::read(path).unwrap();
        let doc = Document::parse_bytes(&bytes, &ParseOptions::default()).unwrap();
        round_trip(&doc, &path.display().to_string());
    }
}
