//! XPath against CSS selectors: the same elements selected both ways on every page of the
//! corpus, in the same run, parsing excluded.
//!
//! Each pair is an XPath 1.0 expression and a selector that select the same HTML elements
//! (checked on every page: a disagreement is printed). Prints, per pair, the ratio
//! (selector time / XPath time, summed over the pages; above 1 means XPath is faster) and
//! the median per-page ratio; then scaling on a generated deep tree, where `//`-heavy paths
//! must stay linear: the time per node of each expression at n and 4n nodes.
//!
//! `cargo bench --bench xpath` (set `HTML_ARENA_VENDORED_CORPUS=1` for the 13 vendored
//! pages when `../shared/bench-corpus` exists).

mod common;

use std::hint::black_box;
use std::time::Duration;

use html_arena::xpath::XPath;
use html_arena::{Document, Namespace, ParseOptions, Selector};

/// (XPath, CSS) pairs that select the same HTML elements.
const PAIRS: [(&str, &str); 14] = [
    ("//a", "a"),
    ("//a[@href]", "a[href]"),
    ("//a[starts-with(@href, 'http')]", "a[href^=http]"),
    ("//div//p", "div p"),
    ("//div/p", "div > p"),
    ("//ul//li//a", "ul li a"),
    ("//li[last()]", "li:last-of-type"),
    ("//h1 | //h2 | //h3", "h1, h2, h3"),
    ("//table//td", "table td"),
    ("//img[@alt]", "img[alt]"),
    ("//script[@src]", "script[src]"),
    ("//meta[@name][@content]", "meta[name][content]"),
    ("/html/head/title", ":root > head > title"),
    ("//div[img]", "div:has(> img)"),
];

fn main() {
    let pages = common::corpus();
    println!(
        "xpath: {} pages, {} pairs; ratio = CSS selector time / XPath time (above 1: XPath faster)",
        pages.len(),
        PAIRS.len()
    );
    let docs: Vec<Document> = pages
        .iter()
        .map(|p| Document::parse_with(&p.text, &ParseOptions::default()))
        .collect();
    println!(
        "{:<40} {:>10} {:>10} {:>8} {:>8}",
        "xpath | css", "xpath us", "css us", "ratio", "median"
    );
    let mut all_ratios = Vec::new();
    let (mut total_x, mut total_c) = (Duration::ZERO, Duration::ZERO);
    for (xpath_text, css_text) in PAIRS {
        let xpath = XPath::parse(xpath_text).expect("the pairs parse");
        let css = Selector::parse(css_text).expect("the pairs parse");
        let (mut sum_x, mut sum_c) = (Duration::ZERO, Duration::ZERO);
        let mut ratios = Vec::new();
        for (page, doc) in pages.iter().zip(&docs) {
            let n_x = doc.xpath(&xpath).map_or(0, |v| v.nodes().len());
            let n_c = doc
                .select(&css)
                .filter(|e| e.namespace() == Namespace::Html)
                .count();
            if n_x != n_c {
                println!("  {}: {xpath_text} {n_x} vs {css_text} {n_c}", page.name);
            }
            let times = common::compare(
                5,
                Duration::from_millis(2),
                &mut [
                    &mut || {
                        black_box(doc.xpath(black_box(&xpath)).map(|v| v.nodes().len()).ok());
                    },
                    &mut || {
                        black_box(doc.select(black_box(&css)).count());
                    },
                ],
            );
            sum_x += times[0];
            sum_c += times[1];
            let r = times[1].as_secs_f64() / times[0].as_secs_f64().max(1e-12);
            ratios.push(r);
            all_ratios.push(r);
        }
        total_x += sum_x;
        total_c += sum_c;
        println!(
            "{:<40} {:>10.1} {:>10.1} {:>7.2}x {:>7.2}x",
            format!("{xpath_text} | {css_text}"),
            sum_x.as_secs_f64() * 1e6,
            sum_c.as_secs_f64() * 1e6,
            sum_c.as_secs_f64() / sum_x.as_secs_f64().max(1e-12),
            common::median(&mut ratios),
        );
    }
    println!(
        "all pairs: total ratio {:.2}x, median per (page, pair) {:.2}x",
        total_c.as_secs_f64() / total_x.as_secs_f64().max(1e-12),
        common::median(&mut all_ratios)
    );

    // Linear time on deep and wide trees: time per node at n and 4n (a ratio near 1 is
    // linear; quadratic would be 4).
    println!("\nscaling: time per node at 4n / at n (1.0 = linear)");
    type MakePage = fn(usize) -> String;
    let shapes: [(&str, MakePage); 2] = [
        ("deep <div>s", |n| "<div>".repeat(n)),
        ("wide <p>s", |n| "<p>x</p>".repeat(n)),
    ];
    let exprs = [
        "count(//*//*//*)",
        "count(//*/ancestor::*)",
        "count(//*/following-sibling::*)",
        "count(//*/preceding::*)",
        "count(//*[1])",
        "count(//div | //p | //body)",
    ];
    for (shape, make) in shapes {
        let n = 50_000;
        let small = Document::parse(&make(n));
        let large = Document::parse(&make(4 * n));
        for expr in exprs {
            let xpath = XPath::parse(expr).expect("parses");
            let times = common::compare(
                3,
                Duration::from_millis(20),
                &mut [
                    &mut || {
                        black_box(small.xpath(&xpath).ok());
                    },
                    &mut || {
                        black_box(large.xpath(&xpath).ok());
                    },
                ],
            );
            println!(
                "{shape:<12} {expr:<34} {:>6.2}",
                times[1].as_secs_f64() / (4.0 * times[0].as_secs_f64().max(1e-12))
            );
        }
    }
}
