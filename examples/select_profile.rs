//! Runs selector queries over parsed files many times (for profilers).
//! `cargo run --release --example select_profile -- FILE... [--rounds N]`
//!
//! The files are parsed once, outside the counted region; the queries happen in `select_all`,
//! which is never inlined: under callgrind, `--toggle-collect='*select_all*'` counts the
//! queries (the element index is built by the first query of each round: each round starts
//! from freshly cloned documents, so index building is counted too).
use html_arena::{Document, Selector};

/// Selectors a scraper runs (a subset of `benches/select.rs`'s battery).
const BATTERY: [&str; 12] = [
    "a",
    "a[href]",
    "a:not([href^='#'])",
    "div p",
    "div > p",
    "ul li a",
    "li:nth-child(2n+1)",
    "h1, h2, h3",
    "table td",
    "meta[name][content]",
    "div:has(> img)",
    ":is(h1, h2, h3) ~ p",
];

fn main() {
    let mut rounds = 3;
    let mut docs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--rounds" {
            rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(rounds);
        } else {
            let bytes = std::fs::read(&a).expect("read");
            let text = String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            docs.push(text);
        }
    }
    let selectors: Vec<Selector> = BATTERY
        .iter()
        .map(|s| Selector::parse(s).expect("selector"))
        .collect();
    let mut total = 0;
    for _ in 0..rounds {
        let parsed: Vec<Document> = docs.iter().map(|d| Document::parse(d)).collect();
        total += select_all(&parsed, &selectors);
    }
    println!("{total}");
}

/// Runs every selector over every document; returns the number of matches.
#[inline(never)]
fn select_all(docs: &[Document], selectors: &[Selector]) -> usize {
    let mut n = 0;
    for d in docs {
        for s in selectors {
            n += d.select(s).count();
        }
    }
    n
}
