//! Streaming selection (`html_arena::stream`): its answers equal a full parse's `select` (same
//! elements, same order, same serialization) on real pages and on generated documents full
//! of what makes trees change late (misnested formatting, tables and foster parenting,
//! forms, templates, foreign content, `head` re-pushes, `html`/`body` attribute merges,
//! framesets), under random chunk splits; refused selectors are refused with the part named.
//!
//! Set `HTML_ARENA_STREAM_CORPUS` to a list of folders (separated by `:`) to run the
//! real-page comparison on more pages (e.g. the whole bench corpora).

mod common;
// (Only its generator is used here.)
#[allow(dead_code)]
#[path = "../fuzz/src/select_soup.rs"]
mod select_soup;

use std::path::PathBuf;

use common::{Rng, str_chunks};
use html_arena::stream::{StreamError, StreamParser, check_selector};
use html_arena::{Document, ParseOptions, Selector};

/// Selectors every comparison runs (all accepted for streaming).
const SELECTORS: &[&str] = &[
    "a",
    "a[href]",
    "div",
    "p",
    "span",
    "li",
    "ul li a",
    "tr",
    "td",
    "table td",
    "tbody > tr",
    "th",
    "div > p",
    "div p",
    "img[src]",
    "meta",
    "link[rel]",
    "script",
    "title",
    "head > *",
    "body > *",
    "html > body div",
    ":root > head > meta",
    "b",
    "i",
    "b i",
    "font",
    "form input",
    "input",
    "option",
    "select",
    "textarea",
    "template",
    "p:empty",
    "div:has(> p)",
    "li:has(a)",
    "div:not(.x)",
    "h1, h2, h3",
    "table table",
    "svg *",
    "math *",
    "td b, td i",
    ":is(div, section) > p",
    "div.x",
    "[id]",
    "p::before",
    "iframe, noscript, frame",
    "li:first-child",
    "tr:nth-child(2)",
    "tr:nth-child(odd) > td",
    "td:nth-child(2n+1)",
    "td:nth-of-type(2)",
    "p:first-of-type",
    "li:not(:first-child) a",
    "ul > li:nth-child(-n+3)",
    "div:nth-of-type(3n) p:first-child",
    ":first-child",
    "b:nth-child(2), i:first-of-type",
    "div:has(> p:first-child)",
];

/// Selectors with `+`, compared like `SELECTORS` (not together with position tests).
const NEXT_SIBLING: &[&str] = &[
    "td + td",
    "h2 + p",
    "li + li > a",
    "tr + tr td",
    "b + i",
    "div + p",
    "p + p, td + th",
    "div > p + p",
    ":is(h1, h2) + div",
    "table + *",
];

/// Selectors refused while streaming, with the part named.
const REFUSED: &[(&str, &str)] = &[
    ("h1 + h2 + p", "+"),
    ("p:empty + p", ":empty"),
    ("li + li:first-child", "+"),
    ("li:first-child + li", ":first-child"),
    ("h2 ~ p", "~"),
    ("li:last-child", ":last-child"),
    ("li:nth-last-child(2)", ":nth-last-child(2)"),
    ("td:last-of-type", ":last-of-type"),
    ("p:only-of-type", ":only-of-type"),
    (":first-child td", ":first-child"),
    ("table:nth-child(2) td", "table:nth-child(2)"),
    ("li:nth-child(n of .x)", ":nth-child(n of .x)"),
    ("li:nth-child(5000)", ":nth-child(5000)"),
    (".content p", ".content"),
    ("#main a", "#main"),
    ("[lang] p", "[lang]"),
    ("input:checked", ":checked"),
    ("option:default", ":default"),
    ("p:lang(en)", ":lang(\"en\")"),
    ("div:has(+ p)", ":has(+ p)"),
    (":scope > p", ":scope"),
];

fn full(html: &str, sel: &Selector) -> Vec<String> {
    let doc = Document::parse(html);
    doc.select(sel).map(|e| e.html()).collect()
}

fn full_bytes(bytes: &[u8], sel: &Selector) -> Vec<String> {
    let doc = Document::parse_bytes(bytes, &ParseOptions::default()).unwrap();
    doc.select(sel).map(|e| e.html()).collect()
}

/// The streamed answers for `html` written in chunks of random lengths up to `max_chunk`.
fn streamed(html: &str, sel: &Selector, rng: &mut Rng, max_chunk: usize) -> (Vec<String>, usize) {
    let mut parser = StreamParser::new(std::slice::from_ref(sel), &ParseOptions::default())
        .unwrap_or_else(|e| panic!("{sel}: {e}"));
    let mut out = Vec::new();
    let mut early = 0;
    str_chunks(
        html,
        || 1 + rng.below(max_chunk),
        |chunk| {
            parser.write_str(chunk).unwrap();
            while let Some(m) = parser.next_match() {
                out.push(m.html());
                early += 1;
            }
        },
    );
    parser.finish().unwrap();
    while let Some(m) = parser.next_match() {
        out.push(m.html());
    }
    (out, early)
}

fn streamed_bytes(bytes: &[u8], sel: &Selector, rng: &mut Rng, max_chunk: usize) -> Vec<String> {
    let mut parser =
        StreamParser::new(std::slice::from_ref(sel), &ParseOptions::default()).unwrap();
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let n = (1 + rng.below(max_chunk)).min(rest.len());
        parser.write(&rest[..n]).unwrap();
        rest = &rest[n..];
        while let Some(m) = parser.next_match() {
            out.push(m.html());
        }
    }
    parser.finish().unwrap();
    while let Some(m) = parser.next_match() {
        out.push(m.html());
    }
    out
}

fn selectors() -> Vec<Selector> {
    SELECTORS
        .iter()
        .chain(NEXT_SIBLING)
        .map(|s| {
            let sel = Selector::parse(s).unwrap();
            assert_eq!(check_selector(&sel), Ok(()), "{s}");
            sel
        })
        .collect()
}

fn pages() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-corpus")];
    if let Ok(extra) = std::env::var("HTML_ARENA_STREAM_CORPUS") {
        dirs.extend(
            extra
                .split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from),
        );
    }
    let mut pages = Vec::new();
    for dir in dirs {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "html" || x == "htm"))
            .collect();
        found.sort();
        pages.extend(found);
    }
    pages
}

#[test]
fn real_pages_equal_a_full_parse() {
    let sels = selectors();
    let mut rng = Rng::new(29);
    let mut compared = 0;
    let mut matches = 0;
    let pages = pages();
    assert!(pages.len() >= 13);
    for page in &pages {
        let bytes = std::fs::read(page).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        for (sel, src) in sels.iter().zip(SELECTORS.iter().chain(NEXT_SIBLING)) {
            let want = full(&text, sel);
            let (got, _) = streamed(&text, sel, &mut rng, 4096);
            assert!(
                got == want,
                "{} `{src}` (text): {} streamed, {} in the full parse; first difference at {:?}",
                page.display(),
                got.len(),
                want.len(),
                got.iter().zip(&want).position(|(a, b)| a != b)
            );
            matches += want.len();
            compared += 1;
        }
        // Bytes, sniffed as parse_bytes does, for a few selectors.
        for sel in sels.iter().take(8) {
            let want = full_bytes(&bytes, sel);
            let got = streamed_bytes(&bytes, sel, &mut rng, 10_000);
            assert!(got == want, "{} `{sel}` (bytes)", page.display());
            compared += 1;
        }
    }
    eprintln!(
        "stream: {} pages, {compared} comparisons, {matches} matches equal",
        pages.len()
    );
}

/// Pieces of markup that make the tree change after the fact.
const PIECES: &[&str] = &[
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a href=x>",
    "</a>",
    "<nobr>",
    "</nobr>",
    "<font color=red>",
    "</font>",
    "<em>",
    "</em>",
    "<div>",
    "</div>",
    "<div class=x>",
    "<p>",
    "</p>",
    "<span>",
    "</span>",
    "<table>",
    "</table>",
    "<tr>",
    "</tr>",
    "<td>",
    "</td>",
    "<th>",
    "<tbody>",
    "<caption>",
    "</caption>",
    "<form>",
    "</form>",
    "<input>",
    "<input type=hidden>",
    "<template>",
    "</template>",
    "<svg>",
    "</svg>",
    "<path/>",
    "<math>",
    "<mi>",
    "</math>",
    "<foreignObject>",
    "</foreignObject>",
    "<ul>",
    "<li>",
    "</ul>",
    "<h1>",
    "</h2>",
    "<select>",
    "<option>",
    "</select>",
    "<textarea>",
    "</textarea>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<title>",
    "</title>",
    "<meta charset=utf-8>",
    "<link rel=x>",
    "<head>",
    "</head>",
    "<body class=late>",
    "<html lang=xx>",
    "<frameset>",
    "<frame>",
    "</frameset>",
    "<noscript>",
    "</noscript>",
    "<iframe>",
    "</iframe>",
    "<button>",
    "</button>",
    "<hr>",
    "<br>",
    "</br>",
    "<img src=i>",
    "<!--c-->",
    "<p id=z>",
    "x",
    "y z",
    " ",
    "\n",
    "&amp;",
    "<pre>",
    "</pre>",
    "<marquee>",
    "</marquee>",
    "<object>",
    "</object>",
    "<dd>",
    "<dt>",
    "<plaintext>",
    "<selectedcontent>",
    "<code>",
    "</code>",
    "</body>",
    "</html>",
];

fn generate(rng: &mut Rng, len: usize) -> String {
    let mut s = String::new();
    if rng.below(2) == 0 {
        s.push_str("<!DOCTYPE html>");
    }
    for _ in 0..len {
        // (`plaintext` swallows the rest: rarely.)
        let mut piece = PIECES[rng.below(PIECES.len())];
        if piece == "<plaintext>" && rng.below(8) != 0 {
            piece = "<p>";
        }
        s.push_str(piece);
    }
    s
}

#[test]
fn generated_documents_equal_a_full_parse() {
    let sels = selectors();
    let mut rng = Rng::new(2929);
    let mut compared = 0;
    for round in 0..400 {
        let len = 5 + rng.below(if round % 10 == 0 { 400 } else { 60 });
        let html = generate(&mut rng, len);
        for (sel, src) in sels.iter().zip(SELECTORS.iter().chain(NEXT_SIBLING)) {
            let want = full(&html, sel);
            let (got, _) = streamed(&html, sel, &mut rng, 12);
            assert_eq!(got, want, "`{src}` on {html:?}");
            compared += 1;
        }
    }
    // The select soup of the differential test (select, option, template, tables,
    // formatting elements).
    for seed in 0..300 {
        let html = select_soup::generate(seed);
        for (sel, src) in sels.iter().zip(SELECTORS.iter().chain(NEXT_SIBLING)) {
            let want = full(&html, sel);
            let (got, _) = streamed(&html, sel, &mut rng, 8);
            assert_eq!(got, want, "`{src}` on {html:?}");
            compared += 1;
        }
    }
    eprintln!("stream: {compared} generated comparisons equal");
}

/// The cases the module docs name, each checked on its own.
#[test]
fn late_changes_are_waited_for() {
    let cases: &[(&str, &str)] = &[
        // The adoption agency algorithm moves a closed p into a new b (jsoup's case).
        ("<b><div><p>1</p><p>2</p></b>", "div > p"),
        ("<b><div><p>1</p><p>2</p></b>", "b > p"),
        // Foster parenting before an open table.
        (
            "<div><table><tr><td>1</td></tr><p>x</p></table></div>",
            "div > p",
        ),
        (
            "<table><tr><td><span>s</span></td></tr><div>d</div></table>",
            "div",
        ),
        // </form> leaves descendants open.
        ("<form><div><p>1</form><p>2</p></div>", "form p"),
        // head re-pushed in "after head".
        ("<head></head><p>x</p>", "head > *"),
        (
            "<head><title>t</title></head><meta x><link y><body>",
            "head > *",
        ),
        // html and body gain attributes until the end.
        ("<p>1</p><body class=late><p>2", "body"),
        ("<p>1</p><html lang=en><p>2", "html"),
        // frameset-ok: the body goes with everything in it.
        ("<div><div>x", "div"),
        (
            "<div><span></span></div><frameset><frame></frameset>",
            "span, frame",
        ),
        // a and nobr.
        ("<a><p>1<a>2</a>3</p>", "p a"),
        ("<nobr><div>1<nobr>2</div>", "div nobr"),
        // Positions: elements fostered before an open table come before it.
        (
            "<div><p>0</p><table><tr><td>1</td></tr><p>a</p><p>b</p><tr><td>2</table><p>c</div>",
            "p:first-child, p:nth-of-type(3), div > :nth-child(4), table:nth-child(4), tr:nth-child(2) td",
        ),
        (
            "<ul><li>1<li><b>2<li>3</b><li>4<table><tr><td>x</td></tr><li>f</table><li>5</ul>",
            "li:nth-child(2n+1), li:first-of-type b, ul > :nth-child(-n+3)",
        ),
        // `+`: the previous element sibling, fostered or moved by the adoption agency.
        (
            "<div><p>0</p><table><tr><td>1</td></tr><p>a</p><p>b</p></table><p>c</div>",
            "p + p, p + table, table + p, td + td",
        ),
        ("<b><div><p>1</p><p>2</p></b><p>3", "p + p, b + p, div + p"),
        // selectedcontent takes a copy of the selected option when it is popped.
        (
            "<select><button><selectedcontent></selectedcontent></button><option>A<option selected>B</select>",
            "selectedcontent",
        ),
    ];
    let mut rng = Rng::new(7);
    for (html, src) in cases {
        let sel = Selector::parse(src).unwrap();
        let want = full(html, &sel);
        for max in [1, 2, 3, 5, 100] {
            let (got, _) = streamed(html, &sel, &mut rng, max);
            assert_eq!(got, want, "`{src}` on {html:?}, chunks up to {max}");
        }
    }
}

#[test]
fn refused_selectors_name_the_part() {
    for (src, part) in REFUSED {
        let sel = Selector::parse(src).unwrap();
        let err = StreamParser::new(&[sel], &ParseOptions::default())
            .err()
            .unwrap_or_else(|| panic!("{src} accepted"));
        let StreamError::Unsupported {
            part: got,
            selector,
            ..
        } = &err
        else {
            panic!("{err:?}")
        };
        assert_eq!(got, part, "{src}");
        assert_eq!(selector, src);
        assert!(err.to_string().contains("not supported while streaming"));
    }
}

#[test]
fn matches_come_before_the_end_and_memory_stays_small() {
    let mut html = String::from("<!DOCTYPE html><title>t</title><table>");
    for i in 0..20_000 {
        html.push_str(&format!("<tr><td>{i}<td><b>x</b></tr>"));
    }
    html.push_str("</table>");
    let sel = Selector::parse("tr").unwrap();
    let mut rng = Rng::new(1);
    let mut parser =
        StreamParser::new(std::slice::from_ref(&sel), &ParseOptions::default()).unwrap();
    let mut early = 0;
    let mut rest = html.as_str();
    while !rest.is_empty() {
        let n = (1 + rng.below(5000)).min(rest.len());
        let n = (n..=rest.len())
            .find(|&n| rest.is_char_boundary(n))
            .unwrap();
        parser.write_str(&rest[..n]).unwrap();
        rest = &rest[n..];
        while let Some(m) = parser.next_match() {
            assert_eq!(m.element().local_name(), "tr");
            early += 1;
        }
    }
    parser.finish().unwrap();
    let mut late = 0;
    while parser.next_match().is_some() {
        late += 1;
    }
    assert_eq!(early + late, 20_000);
    assert!(late <= 1, "{late} rows only at the end");
    assert!(
        parser.peak_nodes() < 5_000,
        "{} nodes held",
        parser.peak_nodes()
    );
}

#[test]
fn several_selectors_each_element_once() {
    let a = Selector::parse("p").unwrap();
    let b = Selector::parse("p.x, div").unwrap();
    let mut parser = StreamParser::new(&[a, b], &ParseOptions::default()).unwrap();
    parser.write_str("<p class=x>1<div>2</div><p>3").unwrap();
    parser.finish().unwrap();
    let got: Vec<(String, Vec<usize>)> = std::iter::from_fn(|| parser.next_match())
        .map(|m| (m.text(), m.selectors().to_vec()))
        .collect();
    assert_eq!(
        got,
        [
            ("1".to_string(), vec![0, 1]),
            ("2".to_string(), vec![1]),
            ("3".to_string(), vec![0])
        ]
    );
}

#[test]
fn stop_stops() {
    let sel = Selector::parse("p").unwrap();
    let mut parser = StreamParser::new(&[sel], &ParseOptions::default()).unwrap();
    parser.write_str("<p>1</p><p>2</p>").unwrap();
    parser.stop();
    parser.write_str("<p>3</p>").unwrap();
    parser.finish().unwrap();
    assert!(parser.next_match().is_none());
}

#[test]
fn matches_select_inside_with_their_ancestors() {
    let sel = Selector::parse("div.a li").unwrap();
    let mut parser = StreamParser::new(&[sel], &ParseOptions::default()).unwrap();
    parser
        .write_str("<div class=a><ul><li><a href=/1>one</a></ul></div>")
        .unwrap();
    parser.finish().unwrap();
    let m = parser.next_match().unwrap();
    let link = Selector::parse("a").unwrap();
    let a = m.element().select(&link).next().unwrap();
    assert_eq!(a.attr("href"), Some("/1"));
    assert_eq!(m.element().parent_element().unwrap().local_name(), "ul");
    assert!(m.element().matches(&Selector::parse("div.a li").unwrap()));
}

#[test]
fn the_options_are_the_full_parse_options() {
    let options = ParseOptions::default().with_scripting(true);
    let html = "<p>1<noscript><p>a&amp;b</p></noscript><p>2<noscript>x<b>y</b></noscript>";
    for src in ["noscript", "p", "body > *"] {
        let sel = Selector::parse(src).unwrap();
        let want: Vec<String> = Document::parse_with(html, &options)
            .select(&sel)
            .map(|e| e.html())
            .collect();
        for size in [1, 3, 1000] {
            let mut parser = StreamParser::new(std::slice::from_ref(&sel), &options).unwrap();
            let mut got = Vec::new();
            str_chunks(
                html,
                || size,
                |c| {
                    parser.write_str(c).unwrap();
                    got.extend(std::iter::from_fn(|| parser.next_match()).map(|m| m.html()));
                },
            );
            parser.finish().unwrap();
            got.extend(std::iter::from_fn(|| parser.next_match()).map(|m| m.html()));
            assert_eq!(got, want, "{src}, chunks of {size}");
        }
    }
    // Bytes in a declared encoding, decoded as parse_bytes does.
    let page = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>";
    let sel = Selector::parse("p").unwrap();
    let mut rng = Rng::new(3);
    for _ in 0..5 {
        assert_eq!(streamed_bytes(page, &sel, &mut rng, 7), ["<p>Привет</p>"]);
    }
}

#[test]
fn counting_counts_what_select_finds() {
    let mut rng = Rng::new(11);
    for round in 0..150 {
        let html = generate(&mut rng, 10 + round % 80);
        for src in [
            "p",
            "td",
            "b",
            "div > p",
            "li:has(a)",
            "h1, h2",
            "svg *",
            "p:first-child",
            "td:nth-of-type(2n)",
            "p:empty",
            "div:not(:has(p))",
            "p[id] > b",
            "td + td",
            "p + p",
        ] {
            let sel = Selector::parse(src).unwrap();
            let want = Document::parse(&html).select(&sel).count();
            let got = html_arena::stream::count_reader(
                html.as_bytes(),
                std::slice::from_ref(&sel),
                &ParseOptions::default().with_transport_encoding("utf-8"),
            )
            .unwrap();
            assert_eq!(got, want, "`{src}` on {html:?}");
        }
    }
}

/// Subjects foster parenting never inserts (HTML `tr`, `td`, `th`, table sections,
/// `caption`, `col`, `colgroup`) are handed out inside an open table without the bound on
/// held matches: a huge table never errors, and rows come out while the table is open.
#[test]
fn table_parts_inside_an_open_table_are_not_held() {
    let rows = 3 * html_arena::stream::HOLD_MATCHES;
    let mut html = String::from("<!DOCTYPE html><table class=t>");
    for i in 0..rows {
        html.push_str(&format!("<tr class=r{}><td>{i}<td><b>x</b>", i % 3));
    }
    // Foster-parented before the table, after all the rows.
    html.push_str("</tr><div>fostered<p>p</p></div>text<tr><td>last</table><p>after");
    let mut rng = Rng::new(33);
    for src in [
        "tr",
        "td",
        "tbody > tr",
        "table.t tr.r1, th",
        "td, caption, col",
    ] {
        let sel = Selector::parse(src).unwrap();
        let want = full(&html, &sel);
        let (got, early) = streamed(&html, &sel, &mut rng, 3000);
        assert!(got == want, "`{src}`");
        assert!(early > want.len() / 2, "`{src}`: {early} early");
    }
    // Rows come out while the table is open, each as soon as it is final; a `b` in a cell
    // could be overtaken by a fostered `b`, so it is held until the table closes (or the
    // bound is reached).
    for (src, out) in [("tr", 200), ("b", 0)] {
        let sel = Selector::parse(src).unwrap();
        let mut parser = StreamParser::new(&[sel], &ParseOptions::default()).unwrap();
        parser.write_str("<!DOCTYPE html><table>").unwrap();
        for i in 0..200 {
            parser
                .write_str(&format!("<tr><td>{i}<td><b>x</b></tr>\n"))
                .unwrap();
        }
        assert_eq!(
            std::iter::from_fn(|| parser.next_match()).count(),
            out,
            "{src}"
        );
    }
    // Any other subject is held (it could be fostered): past the bound, a fostered match
    // is refused.
    let out_of_order = |src: &str, html: &str| {
        let sel = Selector::parse(src).unwrap();
        let mut parser = StreamParser::new(&[sel], &ParseOptions::default()).unwrap();
        let err = parser
            .write_str(html)
            .and_then(|()| parser.finish())
            .unwrap_err();
        assert!(
            matches!(err, StreamError::OutOfOrder { .. }),
            "{src}: {err:?}"
        );
    };
    out_of_order("b, div", &html);
    // A foreign element named like a table part can be fostered: also refused, never out of
    // order.
    out_of_order(
        "tr",
        &html.replace("<div>fostered", "<svg><tr>f</tr></svg><div>fostered"),
    );
}
