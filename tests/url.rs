//! Absolute URLs: the document base URL (HTML Standard, "document base URL", "frozen base
//! URL") and resolution by the URL Standard's parser, against the web-platform-tests URL data
//! (`tests/data/url/`) and base-element edge cases.
#![cfg(feature = "url")]

use std::borrow::Cow;

use html_arena::{Document, ElementRef, ParseOptions, Selector, Url};

fn options(url: &str) -> ParseOptions {
    ParseOptions::default().with_url(Url::parse(url).unwrap())
}

fn first<'a>(doc: &'a Document, selector: &str) -> ElementRef<'a> {
    doc.select(&Selector::parse(selector).unwrap())
        .next()
        .unwrap()
}

fn hrefs(doc: &Document) -> Vec<String> {
    doc.links().map(|(_, u)| u.into_owned()).collect()
}

/// A case without a base URL whose input is relative: a document without a URL resolves
/// against `about:blank` (the HTML Standard's fallback base URL), so `#` gives `about:blank#`
/// where the URL parser with no base fails.
const ABOUT_BLANK: &str = "a document without a URL has the base about:blank";

/// The cases of `urltestdata.json` that resolution does not give as the URL Standard does,
/// each (input, base, reason): only those where the HTML Standard asks for another result.
const EXCEPTIONS: &[(&str, Option<&str>, &str)] = &[("#", None, ABOUT_BLANK)];

/// The `file:` bases of `urltestdata.json` that the `url` crate's [`Url`] cannot hold (it
/// drops a host before a drive letter and collapses a path's leading empty segments), with
/// the URL Standard's serialization: a document URL is a [`Url`], so these bases are given
/// only as a `<base href>` (whose value the document keeps).
const BASES_URL_CANNOT_HOLD: &[&str] = &[
    "file://h/C:/a/b",
    "file://host/D:/dir1/dir2/file",
    "file:////",
];

/// Issue 28, item 5, "`file:` URLs": every case of web-platform-tests'
/// `url/resources/urltestdata.json` (vendored whole): the input set as an `href` by mutation
/// (so no HTML attribute parsing gets between) and resolved by `abs_url`, with the case's
/// base given both ways a document has one: as the document URL ([`Document::set_url`]; no
/// base: a document without a URL), and as the `href` of a `base` element in a document
/// without a URL. The result must be the case's `href`, or the raw input for a `failure`
/// case (the `href` getter's rule), both ways, except for the listed [`EXCEPTIONS`], each of
/// which must still differ (so that a fixed one is taken off the list). A base the `url`
/// crate's [`Url`] cannot hold ([`BASES_URL_CANNOT_HOLD`]) is given only by the `base`
/// element, and a `data:` base only as the document URL (a `base` element ignores it).
#[test]
fn wpt_urltestdata_every_case() {
    let text = std::fs::read_to_string("tests/data/url/urltestdata.json").unwrap();
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let mut doc = Document::parse("<base><a id=x></a>");
    let a = first(&doc, "a").node_id();
    let base_element = first(&doc, "base").node_id();
    let (mut passed, mut excepted, mut failed) = (0, 0, Vec::new());
    let (mut as_document_url, mut as_base_element) = (0, 0);
    for case in cases.iter().filter(|c| c.is_object()) {
        let input = case["input"].as_str().unwrap();
        let base = case["base"].as_str();
        let want = match case.get("href") {
            Some(href) => href.as_str().unwrap(),
            None => input,
        };
        doc.set_attribute(a, "href", input).unwrap();
        let mut got = Vec::new();
        if base.is_none_or(|b| !BASES_URL_CANNOT_HOLD.contains(&b)) {
            doc.remove_attribute(base_element, "href").unwrap();
            doc.set_url(base.map(|b| Url::parse(b).unwrap()));
            got.push(first(&doc, "a").abs_url("href").unwrap().into_owned());
            as_document_url += 1;
        } else {
            // The url crate's reading of the base is not the Standard's.
            assert_ne!(Url::parse(base.unwrap()).unwrap().as_str(), base.unwrap());
        }
        if let Some(b) = base.filter(|b| !b.starts_with("data:")) {
            doc.set_url(None);
            doc.set_attribute(base_element, "href", b).unwrap();
            got.push(first(&doc, "a").abs_url("href").unwrap().into_owned());
            as_base_element += 1;
        }
        let right = got.iter().all(|g| g == want);
        let excepted_here = EXCEPTIONS.iter().any(|&(i, b, _)| i == input && b == base);
        match (right, excepted_here) {
            (true, false) => passed += 1,
            (false, true) => excepted += 1,
            (true, true) => failed.push(format!(
                "{input:?} against {base:?} passes: take it off the list"
            )),
            (false, false) => failed.push(format!(
                "{input:?} against {base:?}: got {got:?}, want {want:?}"
            )),
        }
    }
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    assert_eq!(excepted, EXCEPTIONS.len());
    assert_eq!(passed + excepted, 869);
    assert_eq!((as_document_url, as_base_element), (866, 327));
}

/// Issue 28, item 5: a Windows drive letter written with `|` in a `file:` URL resolves to
/// `C:` (URL Standard, "path state"), as browsers' `href` getters give, on a page saved from
/// Windows; `|` elsewhere is kept.
#[test]
fn file_urls_with_drive_letter_pipes() {
    let page = "file:///C:/Users/me/saved/page.html";
    let doc = Document::parse_with(
        "<img src='file:///C|/dir/x.gif'><img src='FILE:///d|\\y.png'><img src='///E|/z'>\
         <img src='C|/rel'><img src='file:///w|m'><img src='file:///w||m'><img src='x|/y'>",
        &options(page),
    );
    let srcs: Vec<String> = doc
        .select(&Selector::parse("img").unwrap())
        .map(|e| e.abs_url("src").unwrap().into_owned())
        .collect();
    assert_eq!(
        srcs,
        [
            "file:///C:/dir/x.gif",
            "file:///d:/y.png",
            "file:///E:/z",
            "file:///C:/rel",
            "file:///w|m",
            "file:///w||m",
            // A drive letter starts a new path against a file: base ("file state").
            "file:///x:/y",
        ]
    );
    // Against an http base, `C|/x` is a relative path and `file:///C|/x` is absolute.
    let doc = Document::parse_with(
        "<a href='C|/x'></a><a href='file:///C|/x'></a>",
        &options("https://example.com/d/"),
    );
    assert_eq!(hrefs(&doc), ["https://example.com/d/C|/x", "file:///C:/x"]);
    // `^` in a path, an opaque path's trailing space before a query.
    let doc = Document::parse_with(
        "<a href='/a^b?c^d#e^f'></a><a href='mailto:x ?s'></a><a href='mailto:a^b'></a>",
        &options("https://example.com/"),
    );
    assert_eq!(
        hrefs(&doc),
        [
            "https://example.com/a%5Eb?c^d#e^f",
            "mailto:x%20?s",
            "mailto:a^b"
        ]
    );
}

/// Issue 28, item 5: a page saved from a Windows share, `file://host/C:/...` as its
/// `<base href>`: the host and the drive letter stay, a root-relative link keeps the drive
/// (URL Standard, "file slash state"), `..` never climbs above the drive ("shorten a URL's
/// path"), and a `\\server\share` link is a host.
#[test]
fn file_urls_with_a_host_before_a_drive_letter() {
    let doc = Document::parse(
        "<base href='file://fileserver/C:/Users/me/saved/page.html'>\
         <a href='img/a.png'></a><a href='/top.css'></a><a href='..\\..\\..\\..\\..\\up'></a>\
         <a href='D|/other'></a><a href='\\\\server\\share\\x.doc'></a><a href='?q'></a>\
         <a href='#f'></a><a href='file://LOCALHOST/C:/y'></a><a href='file://[::1]/C|/z'></a>",
    );
    assert_eq!(
        hrefs(&doc),
        [
            "file://fileserver/C:/Users/me/saved/img/a.png",
            "file://fileserver/C:/top.css",
            "file://fileserver/C:/up",
            "file://fileserver/D:/other",
            "file://server/share/x.doc",
            "file://fileserver/C:/Users/me/saved/page.html?q",
            "file://fileserver/C:/Users/me/saved/page.html#f",
            "file:///C:/y",
            "file://[::1]/C:/z",
        ]
    );
    // `Document::base_url` is the url crate's reading of the base (which drops the host);
    // resolution uses the base as the Standard parses it.
    assert_eq!(
        doc.base_url().as_str(),
        "file:///C:/Users/me/saved/page.html"
    );
    assert_eq!(
        first(&doc, "base").abs_url("href").as_deref(),
        Some("file://fileserver/C:/Users/me/saved/page.html")
    );
}

/// Issue 28, item 5: UNC paths written `file:////server/share/...` (four slashes: an empty
/// host and a path whose first segment is empty) are kept as they are, relative links
/// against them too, and an invalid host is a failure (the value is returned unchanged).
#[test]
fn file_urls_with_four_slashes_for_a_share() {
    let doc = Document::parse(
        "<base href='file:////server/share/dir/page.html'>\
         <a href='a.html'></a><a href='../b.html'></a><a href='/c'></a><a href='file:////s/x'></a>\
         <a href='file://a b/x'></a><a href='file:/C|/..'></a>",
    );
    assert_eq!(
        hrefs(&doc),
        [
            "file:////server/share/dir/a.html",
            "file:////server/share/b.html",
            "file:///c",
            "file:////s/x",
            "file://a b/x",
            "file:///C:/",
        ]
    );
    // Given as the document URL, the base is the url crate's reading of it.
    let doc = Document::parse_with("<a href='a.html'>", &options("file:////server/share/p"));
    assert_eq!(doc.base_url().as_str(), "file:///server/share/p");
    assert_eq!(hrefs(&doc), ["file:///server/share/a.html"]);
}

/// Issue 28, item 5: a `file:` URL's query in a legacy-encoded document is encoded with the
/// document's encoding ("percent-encode after encoding"), a code point the encoding cannot
/// express written `%26%23`, its number and `%3B`; the same for `http:` URLs.
#[test]
fn file_urls_query_in_the_document_encoding() {
    // (0xE9 is `é` in windows-1252; `&#26085;` is U+65E5, which it cannot express.)
    let doc = Document::parse_bytes(
        b"<meta charset=windows-1252><a href='file:///C|/x?q=\xe9&#26085;#\xe9'></a>\
          <a href='http://h/?\xe9&#26085;'></a>",
        &ParseOptions::default(),
    )
    .unwrap();
    assert_eq!(doc.encoding(), encoding_rs::WINDOWS_1252);
    assert_eq!(
        hrefs(&doc),
        [
            "file:///C:/x?q=%E9%26%2326085%3B#%C3%A9",
            "http://h/?%E9%26%2326085%3B",
        ]
    );
}

#[test]
fn url_standard_edge_cases() {
    let doc = Document::parse_with("", &options("http://example.com/a/b/c?q#f"));
    let cases = [
        // Backslashes are slashes in special URLs.
        ("..\\x\\y", "http://example.com/a/x/y"),
        ("\\\\other.test\\p", "http://other.test/p"),
        // Leading/trailing C0 control or space stripped, tab and newlines removed anywhere.
        ("  \n\t/p\na\rt\th \u{0}", "http://example.com/path"),
        // IDNA: hosts are mapped (uppercase, full-width) and punycoded.
        ("http://EXAMPLE.ｃｏｍ/", "http://example.com/"),
        ("http://bücher.de/", "http://xn--bcher-kva.de/"),
        // IPv4 forms.
        ("http://1.2.3/", "http://1.2.0.3/"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://2130706433/", "http://127.0.0.1/"),
        ("http://0300.0250.0.1/", "http://192.168.0.1/"),
        ("http://[::1]:80/", "http://[::1]/"),
        // Dot segments, including percent-encoded ones.
        ("./../.././x/./y/..", "http://example.com/x/"),
        ("%2e%2E/x", "http://example.com/a/x"),
        ("", "http://example.com/a/b/c?q"),
        ("?r", "http://example.com/a/b/c?r"),
        ("#g", "http://example.com/a/b/c?q#g"),
        ("//h/p", "http://h/p"),
        // Three or more slashes are skipped before the host; `^` in the path is encoded.
        ("///h//^x?^", "http://h//%5Ex?^"),
        // Scheme-relative to a non-special scheme is its own URL.
        ("mailto:x@y", "mailto:x@y"),
        ("foo://host/a/../b", "foo://host/b"),
        ("HTTP:rel", "http://example.com/a/b/rel"),
        // Percent-encoding of spaces and non-ASCII in the path, query and fragment.
        (
            "a b/é?ü v#ö w",
            "http://example.com/a/b/a%20b/%C3%A9?%C3%BC%20v#%C3%B6%20w",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(doc.resolve_url(input).unwrap().as_str(), want, "{input:?}");
    }
    for bad in [
        "http://[::1",
        "http://a b/",
        "http://999999999999/",
        "https://",
    ] {
        assert!(doc.resolve_url(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn non_special_and_opaque_bases() {
    // Relative references against a non-special base with a path resolve...
    let doc = Document::parse_with("<a href='../x'>", &options("foo://host/a/b/c"));
    assert_eq!(hrefs(&doc), ["foo://host/a/x"]);
    // A backslash is a path code point there, not a slash (the URL Standard's "relative
    // state" and "relative slash state" for a scheme that is not special).
    let doc = Document::parse_with(
        "<a href='\\x'></a><a href='/\\x'></a><a href='\\\\h\\x'></a><a href=' \\'></a>",
        &options("foo://host/a/b/c"),
    );
    assert_eq!(
        hrefs(&doc),
        [
            "foo://host/a/b/\\x",
            "foo://host/\\x",
            "foo://host/a/b/\\\\h\\x",
            "foo://host/a/b/\\"
        ]
    );
    // ...but an opaque path (data:, javascript:, mailto:) only takes a fragment.
    for base in ["data:text/html,hi", "javascript:void(0)", "mailto:a@b"] {
        let doc = Document::parse_with("<a href='x'></a><a href='#f'></a>", &options(base));
        let links = hrefs(&doc);
        assert_eq!(links[0], "x", "{base}");
        assert_eq!(links[1], format!("{base}#f"), "{base}");
    }
}

#[test]
fn base_element_rules() {
    let page = "https://example.com/dir/page.html";
    let cases: &[(&str, &str)] = &[
        // No base: the document's URL.
        ("<a href=x>", "https://example.com/dir/x"),
        // The first base with href wins; one without href is skipped.
        (
            "<base target=_top><base href='/one/'><base href='/two/'><a href=x>",
            "https://example.com/one/x",
        ),
        // A base in body (or anywhere) counts, even after the links it affects.
        (
            "<a href=x></a><p><base href='https://other.test/b/'>",
            "https://other.test/b/x",
        ),
        // A relative base resolves against the document URL.
        ("<base href='../up/'><a href=x>", "https://example.com/up/x"),
        // An empty href is the document URL itself (without fragment effects).
        ("<base href=''><a href=x>", "https://example.com/dir/x"),
        // An unparseable href: the fallback base URL.
        (
            "<base href='https://[bad'><a href=x>",
            "https://example.com/dir/x",
        ),
        // data: and javascript: bases are ignored.
        (
            "<base href='data:text/html,'><a href=x>",
            "https://example.com/dir/x",
        ),
        (
            "<base href='JavaScript:alert(1)'><a href=x>",
            "https://example.com/dir/x",
        ),
        // A base in another namespace is not the HTML base element.
        (
            "<svg><base href='/svg/'></base></svg><a href=x>",
            "https://example.com/dir/x",
        ),
        // Template contents are not in the document.
        (
            "<template><base href='/t/'></template><a href=x>",
            "https://example.com/dir/x",
        ),
        // Whitespace around the href is stripped by the URL parser.
        (
            "<base href='\n /sp/ \t'><a href=x>",
            "https://example.com/sp/x",
        ),
    ];
    for (html, want) in cases {
        let doc = Document::parse_with(html, &options(page));
        assert_eq!(
            first(&doc, "a").abs_url("href").as_deref(),
            Some(*want),
            "{html}"
        );
    }
}

#[test]
fn base_href_getter_uses_the_fallback() {
    let doc = Document::parse_with("<base href='sub/'>", &options("https://example.com/d/p"));
    assert_eq!(doc.base_url().as_str(), "https://example.com/d/sub/");
    // The base element's own href resolves against the fallback base URL, not itself.
    assert_eq!(
        first(&doc, "base").abs_url("href").as_deref(),
        Some("https://example.com/d/sub/")
    );
    let doc = Document::parse_with("<base href='https://[x'>", &options("https://example.com/"));
    assert_eq!(
        first(&doc, "base").abs_url("href").as_deref(),
        Some("https://[x")
    );
}

#[test]
fn no_document_url() {
    let doc = Document::parse("<a href='/x'></a><a href='https://a.test/../b'></a><a href='#t'>");
    assert_eq!(doc.url(), None);
    assert_eq!(doc.base_url().as_str(), "about:blank");
    assert_eq!(hrefs(&doc), ["/x", "https://a.test/b", "about:blank#t"]);
    // An absolute base still applies.
    let doc = Document::parse("<base href='https://b.test/d/'><a href=x>");
    assert_eq!(hrefs(&doc), ["https://b.test/d/x"]);
}

#[test]
fn mutation_changes_resolution() {
    let mut doc = Document::parse_with(
        "<head></head><a href=x>",
        &options("https://example.com/a/"),
    );
    assert_eq!(hrefs(&doc), ["https://example.com/a/x"]);
    // Add a base.
    let head = doc.head().unwrap().node_id();
    let base = doc.new_element("base").unwrap();
    doc.set_attribute(base, "href", "/b/").unwrap();
    doc.append(head, base).unwrap();
    assert_eq!(hrefs(&doc), ["https://example.com/b/x"]);
    // Change its href.
    doc.set_attribute(base, "href", "https://c.test/").unwrap();
    assert_eq!(hrefs(&doc), ["https://c.test/x"]);
    // Insert another base before it: the first in tree order wins.
    let other = doc.new_element("base").unwrap();
    doc.set_attribute(other, "href", "/first/").unwrap();
    doc.prepend(head, other).unwrap();
    assert_eq!(hrefs(&doc), ["https://example.com/first/x"]);
    // Remove its href: the next one counts.
    doc.remove_attribute(other, "href").unwrap();
    assert_eq!(hrefs(&doc), ["https://c.test/x"]);
    // Remove the element: back to the document URL.
    doc.remove(base).unwrap();
    assert_eq!(hrefs(&doc), ["https://example.com/a/x"]);
    // A changed document URL.
    doc.set_url(Some(Url::parse("http://new.test/z/").unwrap()));
    assert_eq!(hrefs(&doc), ["http://new.test/z/x"]);
}

#[test]
fn abs_url_return_values() {
    let doc = Document::parse_with(
        "<img src='i.png' srcset='a.png 1x'><a href='http://[::'>x</a><a>y</a>",
        &options("https://example.com/"),
    );
    let img = first(&doc, "img");
    assert!(matches!(img.abs_url("src"), Some(Cow::Owned(s)) if s == "https://example.com/i.png"));
    assert!(matches!(
        first(&doc, "a").abs_url("href"),
        Some(Cow::Borrowed("http://[::"))
    ));
    assert_eq!(
        doc.select(&Selector::parse("a").unwrap())
            .nth(1)
            .unwrap()
            .abs_url("href"),
        None
    );
    // links() skips a without href, includes area, and excludes template contents.
    let doc = Document::parse_with(
        "<a>n</a><area href=b><template><a href=t></a></template><svg><a href=s></a></svg><a href=c>",
        &options("https://example.com/"),
    );
    assert_eq!(
        hrefs(&doc),
        ["https://example.com/b", "https://example.com/c"]
    );
}

#[test]
fn parse_bytes_keeps_the_url_across_an_encoding_restart() {
    // A late <meta> makes the parser start over; the URL must survive it.
    let mut html = b"<a href='?q=\xe9'>".to_vec();
    html.extend(std::iter::repeat_n(b' ', 2000));
    html.extend(b"<meta charset=windows-1251>");
    let doc = Document::parse_bytes(&html, &options("http://example.com/")).unwrap();
    assert_eq!(doc.encoding(), encoding_rs::WINDOWS_1251);
    // U+0439 in windows-1251 is 0xE9.
    assert_eq!(hrefs(&doc), ["http://example.com/?q=%E9"]);
}

#[test]
fn real_pages_resolve_every_link() {
    let dir = std::path::Path::new("tests/data/bench-corpus");
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let doc = Document::parse_bytes(&bytes, &options("https://example.org/x/y.html")).unwrap();
        for (a, url) in doc.links() {
            let raw = a.attr("href").unwrap();
            // Either the resolved URL parses again to itself, or it is the raw value.
            match Url::parse(&url) {
                Ok(parsed) => assert_eq!(parsed.as_str(), url, "{}", path.display()),
                Err(_) => assert_eq!(url, raw, "{}", path.display()),
            }
            total += 1;
        }
    }
    assert!(total > 100, "{total}");
}
