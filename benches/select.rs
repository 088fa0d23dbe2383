//! Selector queries: html-arena against scraper 0.29 (html5ever + selectors), on the same
//! pages in the same run, parsing excluded.
//!
//! Each page is parsed by both (html-arena with scripting on, as html5ever parses by default,
//! so that both build the same tree: with scripting off, html-arena's default, `<noscript>`
//! content is elements rather than text); then every selector of a battery (22 fixed ones plus three
//! built from the page's own most common class and first id) is timed on both, interleaved,
//! counting the matches. Prints the ratio (scraper time / html-arena time) per page (sum over
//! the battery) and per selector (sum over the pages), the median of the per-page ratios and
//! of all per-(page, selector) ratios, any disagreement in match counts, and what the first
//! query on a document costs (html-arena builds its element index then; scraper keeps its
//! equivalent, each element's parsed classes, from parse time): the "cold" column compares the
//! whole battery on a fresh document, "1st a" a single `a` query on one.
//!
//! `cargo bench --bench select` (set `HTML_ARENA_VENDORED_CORPUS=1` for the 13 vendored
//! pages when `../shared/bench-corpus` exists).

mod common;

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use html_arena::{Document, ParseOptions, Selector};

/// Selectors a scraper runs, that both libraries support.
const BATTERY: [&str; 22] = [
    "a",
    "a[href]",
    "a[href^='http']",
    "a:not([href^='#'])",
    "div p",
    "div > p",
    "ul li a",
    "ul > li > a",
    "li:nth-child(2n+1)",
    "li:last-child",
    "p:first-child",
    "h1, h2, h3",
    "table td",
    "img[alt]",
    "img[src$='.png'], img[src$='.jpg']",
    "script[src]",
    "meta[name][content]",
    "link[rel~='stylesheet']",
    "head > title",
    "span + span",
    "div:has(> img)",
    ":is(h1, h2, h3) ~ p",
];

/// The page's most common class and first id, to build selectors a scraper would write for it.
fn page_selectors(doc: &Document) -> Vec<String> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut first_id = None;
    for node in doc.root().descendants() {
        if let Some(e) = node.as_element() {
            for c in e.classes() {
                if c.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                    && c.starts_with(|c: char| c.is_ascii_alphabetic())
                {
                    *counts.entry(c).or_default() += 1;
                }
            }
            if first_id.is_none() {
                first_id = e.id().filter(|id| {
                    id.starts_with(|c: char| c.is_ascii_alphabetic())
                        && id
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                });
            }
        }
    }
    let class = counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map(|(c, _)| c)
        .unwrap_or("none");
    let id = first_id.unwrap_or("none");
    vec![
        format!(".{class}"),
        format!("div .{class} a"),
        format!("#{id}"),
    ]
}

fn main() {
    common::run_corpora(run);
}

/// Benchmarks one corpus; returns its summary lines.
fn run(corpus: &str, pages: &[common::Page]) -> Vec<String> {
    let mut summary = Vec::new();
    println!();
    println!(
        "select: {corpus}: {} pages, {} + 3 selectors per page; ratio = scraper time / html-arena time",
        pages.len(),
        BATTERY.len()
    );
    let mut per_selector: HashMap<String, (Duration, Duration)> = HashMap::new();
    let mut all_ratios = Vec::new();
    let mut page_ratios = Vec::new();
    let mut cold_ratios = Vec::new();
    let mut first_query_ratios = Vec::new();
    let mut disagreements = Vec::new();
    let (mut total_arena, mut total_scraper) = (Duration::ZERO, Duration::ZERO);
    println!(
        "{:<30} {:>7} {:>11} {:>11} {:>7} {:>11} {:>7} {:>7}",
        "page", "elems", "arena us", "scraper us", "ratio", "index us", "cold", "1st a"
    );
    for page in pages {
        let fresh = Document::parse_with(&page.text, &ParseOptions::default().with_scripting(true));
        let html = scraper::Html::parse_document(&page.text);
        let mut selectors: Vec<String> = BATTERY.iter().map(|s| s.to_string()).collect();
        selectors.extend(page_selectors(&fresh));

        // What the first query that needs the index costs: building it (on a clone that has
        // none yet), measured as (clone + index + one query that matches nothing) minus
        // (clone). (`:not(*)` is not a plain compound, so it does not walk the tree instead.)
        let probe = Selector::parse(":not(*)").expect("probe selector");
        let times = common::compare(
            5,
            Duration::from_millis(5),
            &mut [
                &mut || {
                    let d = black_box(&fresh).clone();
                    black_box(d.select(&probe).count());
                },
                &mut || {
                    black_box(black_box(&fresh).clone());
                },
            ],
        );
        let index_time = times[0].saturating_sub(times[1]);
        let doc = fresh;
        let elements = doc.root().descendants().filter(|n| n.is_element()).count();

        let (mut page_arena, mut page_scraper) = (Duration::ZERO, Duration::ZERO);
        let mut first_query = f64::NAN;
        for text in &selectors {
            let ours = Selector::parse(text).expect("html-arena parses the battery");
            let theirs = match scraper::Selector::parse(text) {
                Ok(s) => s,
                Err(e) => {
                    println!("  scraper cannot parse {text:?}: {e:?}");
                    continue;
                }
            };
            let n_ours = doc.select(&ours).count();
            let n_theirs = html.select(&theirs).count();
            if n_ours != n_theirs {
                disagreements.push(format!(
                    "{}: {text:?}: html-arena {n_ours}, scraper {n_theirs}",
                    page.name
                ));
            }
            let times = common::compare(
                5,
                Duration::from_millis(2),
                &mut [
                    &mut || {
                        black_box(doc.select(black_box(&ours)).count());
                    },
                    &mut || {
                        black_box(html.select(black_box(&theirs)).count());
                    },
                ],
            );
            page_arena += times[0];
            page_scraper += times[1];
            if text == "a" {
                // One query on a fresh document: the index is built for it.
                first_query = times[1].as_secs_f64() / (times[0] + index_time).as_secs_f64();
            }
            all_ratios.push(times[1].as_secs_f64() / times[0].as_secs_f64().max(1e-12));
            // Page-specific selectors are summed under their pattern.
            let key = if BATTERY.contains(&text.as_str()) {
                text.clone()
            } else if text.starts_with('#') {
                "#<first id>".to_owned()
            } else if text.starts_with("div") {
                "div .<top class> a".to_owned()
            } else {
                ".<top class>".to_owned()
            };
            let entry = per_selector.entry(key).or_default();
            entry.0 += times[0];
            entry.1 += times[1];
        }
        let ratio = page_scraper.as_secs_f64() / page_arena.as_secs_f64().max(1e-12);
        let cold = page_scraper.as_secs_f64() / (page_arena + index_time).as_secs_f64().max(1e-12);
        page_ratios.push(ratio);
        cold_ratios.push(cold);
        first_query_ratios.push(first_query);
        total_arena += page_arena;
        total_scraper += page_scraper;
        println!(
            "{:<30} {:>7} {:>11.1} {:>11.1} {:>6.2}x {:>11.1} {:>6.2}x {:>6.2}x",
            page.name,
            elements,
            page_arena.as_secs_f64() * 1e6,
            page_scraper.as_secs_f64() * 1e6,
            ratio,
            index_time.as_secs_f64() * 1e6,
            cold,
            first_query
        );
    }
    println!();
    println!(
        "{:<40} {:>12} {:>12} {:>7}",
        "selector (all pages)", "arena us", "scraper us", "ratio"
    );
    let mut rows: Vec<_> = per_selector.into_iter().collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    for (text, (a, s)) in rows {
        println!(
            "{:<40} {:>12.1} {:>12.1} {:>6.2}x",
            text,
            a.as_secs_f64() * 1e6,
            s.as_secs_f64() * 1e6,
            s.as_secs_f64() / a.as_secs_f64().max(1e-12)
        );
    }
    println!();
    if disagreements.is_empty() {
        println!("match counts: html-arena and scraper agree on every page and selector");
    } else {
        println!("match counts differ ({}):", disagreements.len());
        for d in &disagreements {
            println!("  {d}");
        }
    }
    let line = format!(
        "select: {corpus}: median per-page ratio {:.2}x scraper (battery totals); median per-query ratio {:.2}x; \
         total {:.2}x; on a fresh document (index build included): battery {:.2}x, one `a` query {:.2}x",
        common::median(&mut page_ratios),
        common::median(&mut all_ratios),
        total_scraper.as_secs_f64() / total_arena.as_secs_f64().max(1e-12),
        common::median(&mut cold_ratios),
        common::median(&mut first_query_ratios),
    );
    println!("{line}");
    summary.push(line);
    summary
}
