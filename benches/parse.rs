//! Parse throughput and memory: html-arena against html5ever + markup5ever_rcdom and scraper
//! (which parses with html5ever into its own tree), on the same pages in the same run.
//!
//! Prints, per page, MB/s for each parser and html-arena's ratio to html5ever; then the
//! median of the per-page ratios and the ratio of the whole corpus's time; heap bytes per node and the peak heap of one parse of the
//! largest page (a counting global allocator); and an end-to-end run (parse, select,
//! serialize). The bench checks that both parsers build the same number of elements.
//!
//! Each corpus is summarized on its own (median per-page ratio, whole-corpus ratio, memory),
//! followed by the page features that go with low ratios (`common::features`); the summaries
//! of all corpora are printed again at the end.
//!
//! `cargo bench --bench parse` (reads `../shared/bench-corpus` and `../shared/bench-corpus-wide`
//! when present, or the folders `HTML_ARENA_CORPUS` lists, separated like `PATH`; set
//! `HTML_ARENA_VENDORED_CORPUS=1` to use the vendored subset).

mod common;

use std::hint::black_box;
use std::time::Duration;

use html5ever::driver::ParseOpts;
use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

use common::alloc::peak_of;
use common::features::{self, Features};

#[global_allocator]
static ALLOCATOR: common::alloc::Counting = common::alloc::Counting;

/// html5ever with the scripting flag off, like html-arena's default (html5ever's default is
/// on, which makes `<noscript>` content text and the trees differ).
fn html5ever_parse(text: &str) -> RcDom {
    let mut opts = ParseOpts::default();
    opts.tree_builder.scripting_enabled = false;
    html5ever::parse_document(RcDom::default(), opts).one(text)
}

fn rcdom_elements(handle: &Handle) -> usize {
    let mut count = 0;
    let mut stack = vec![handle.clone()];
    while let Some(node) = stack.pop() {
        if let NodeData::Element {
            template_contents, ..
        } = &node.data
        {
            count += 1;
            if let Some(contents) = template_contents.borrow().as_ref() {
                stack.push(contents.clone());
            }
        }
        stack.extend(node.children.borrow().iter().cloned());
    }
    count
}

fn arena_elements(doc: &html_arena::Document) -> usize {
    let mut count = 0;
    let mut stack = vec![doc.root()];
    while let Some(node) = stack.pop() {
        if let Some(e) = node.as_element() {
            count += 1;
            if let Some(contents) = e.template_contents() {
                stack.push(contents);
            }
        }
        stack.extend(node.children());
    }
    count
}

fn main() {
    common::run_corpora(run);
}

/// Benchmarks one corpus; returns its summary lines.
fn run(corpus: &str, pages: &[common::Page]) -> Vec<String> {
    let mut summary = Vec::new();
    let total: usize = pages.iter().map(|p| p.bytes.len()).sum();
    println!();
    println!(
        "parse: {corpus}: {} pages, {:.1} MB",
        pages.len(),
        total as f64 / 1e6
    );
    println!(
        "{:<34} {:>8} {:>10} {:>10} {:>10} {:>7} {:>7}",
        "page", "KB", "arena", "h5ever", "scraper", "ratio", "scr."
    );
    let mut ratios = Vec::new();
    let mut scraper_ratios = Vec::new();
    // A lean document (`keep_source` off; the default keeps the source), against html5ever in
    // the same run.
    let mut lean_ratios = Vec::new();
    let lean = html_arena::ParseOptions::default().with_keep_source(false);
    // Time per parse of each page, summed: the ratio of the whole corpus.
    let mut totals = [0.0f64; 4];
    let mut mismatches = 0;
    let mut featured = Vec::new();
    let mut first_ratios = Vec::new();
    for page in pages {
        let text = page.text.as_str();
        // The first parse of the page by each (with the heap as the pages before left it,
        // as in a crawl that parses each page once), timed on its own.
        let t = common::clock::Clock::start();
        let arena_doc = html_arena::Document::parse(text);
        let arena_first = t.elapsed();
        let t = common::clock::Clock::start();
        let dom = html5ever_parse(text);
        first_ratios.push(t.elapsed().as_secs_f64() / arena_first.as_secs_f64().max(1e-9));
        let (a, h) = (arena_elements(&arena_doc), rcdom_elements(&dom.document));
        if a != h {
            mismatches += 1;
            println!(
                "  {}: element counts differ: html-arena {a}, html5ever {h}",
                page.name
            );
        }
        drop((arena_doc, dom));
        let times = common::compare(
            7,
            Duration::from_millis(40),
            &mut [
                &mut || {
                    black_box(html_arena::Document::parse(black_box(text)));
                },
                &mut || {
                    black_box(html5ever_parse(black_box(text)));
                },
                &mut || {
                    black_box(scraper::Html::parse_document(black_box(text)));
                },
                &mut || {
                    black_box(html_arena::Document::parse_with(black_box(text), &lean));
                },
            ],
        );
        for (total, t) in totals.iter_mut().zip(&times) {
            *total += t.as_secs_f64();
        }
        let ratio = times[1].as_secs_f64() / times[0].as_secs_f64();
        let scraper_ratio = times[2].as_secs_f64() / times[0].as_secs_f64();
        ratios.push(ratio);
        featured.push((page.name.clone(), ratio, Features::of(text)));
        scraper_ratios.push(scraper_ratio);
        lean_ratios.push(times[1].as_secs_f64() / times[3].as_secs_f64());
        println!(
            "{:<34} {:>8.0} {:>10.1} {:>10.1} {:>10.1} {:>6.2}x {:>6.2}x",
            page.name,
            text.len() as f64 / 1e3,
            common::mbps(text.len(), times[0]),
            common::mbps(text.len(), times[1]),
            common::mbps(text.len(), times[2]),
            ratio,
            scraper_ratio
        );
    }
    let line = format!(
        "parse: {corpus}: median per-page ratio {:.2}x html5ever+RcDom, {:.2}x scraper; whole \
         corpus (one parse of each page) {:.2}x, {:.2}x ({mismatches} pages with different \
         element counts)",
        common::median(&mut ratios),
        common::median(&mut scraper_ratios),
        totals[1] / totals[0],
        totals[2] / totals[0]
    );
    println!("{line}");
    summary.push(line);
    let line = format!(
        "parse: {corpus}: lean documents (keep_source off): median per-page ratio {:.2}x \
         html5ever+RcDom, whole corpus {:.2}x",
        common::median(&mut lean_ratios),
        totals[1] / totals[3]
    );
    println!("{line}");
    summary.push(line);
    let line = format!(
        "parse: {corpus}: first parse of each page (once, before the timed rounds): median \
         per-page ratio {:.2}x html5ever+RcDom",
        common::median(&mut first_ratios)
    );
    println!("{line}");
    summary.push(line);
    features::report(&format!("parse: {corpus}"), &featured);

    // Memory: what each document keeps (counted by the allocator: arena, strings, attributes,
    // names, errors), per node; and the peak of the largest page.
    let (mut heap, mut lean_heap, mut nodes) = (0usize, 0usize, 0usize);
    let (mut per_node, mut lean_per_node) = (Vec::new(), Vec::new());
    let mut per_node_no_source = Vec::new();
    for page in pages {
        let base = common::alloc::live();
        let doc = html_arena::Document::parse(&page.text);
        let kept = common::alloc::live().saturating_sub(base);
        let n = doc.node_count().max(1);
        heap += kept;
        nodes += n;
        per_node.push(kept as f64 / n as f64);
        per_node_no_source
            .push(kept.saturating_sub(doc.source().map_or(0, str::len)) as f64 / n as f64);
        drop(doc);
        let base = common::alloc::live();
        let doc = html_arena::Document::parse_with(&page.text, &lean);
        let kept = common::alloc::live().saturating_sub(base);
        drop(doc);
        lean_heap += kept;
        lean_per_node.push(kept as f64 / n as f64);
    }
    let line = format!(
        "memory: {corpus}: {:.0} bytes of heap per node over the corpus ({nodes} nodes; documents \
         that keep their source, the default), median page {:.0}, {:.0} without the source \
         text; lean documents {:.0} over the corpus, median page {:.0} \
         (`cargo run --release --example memory_profile` shows every page)",
        heap as f64 / nodes as f64,
        common::median(&mut per_node),
        common::median(&mut per_node_no_source),
        lean_heap as f64 / nodes as f64,
        common::median(&mut lean_per_node),
    );
    println!("{line}");
    summary.push(line);
    if let Some(largest) = pages.iter().max_by_key(|p| p.bytes.len()) {
        let (doc, arena_peak) =
            peak_of(|| html_arena::Document::parse_bytes(&largest.bytes, &Default::default()));
        drop(doc);
        let (doc, lean_peak) = peak_of(|| html_arena::Document::parse_bytes(&largest.bytes, &lean));
        drop(doc);
        let (dom, h5_peak) = peak_of(|| html5ever_parse(&largest.text));
        drop(dom);
        let (html, scraper_peak) = peak_of(|| scraper::Html::parse_document(&largest.text));
        drop(html);
        let mb = |b: usize| b as f64 / 1e6;
        let ratio = |peak: usize| peak as f64 / largest.bytes.len() as f64;
        let line = format!(
            "memory: {corpus}: peak heap parsing {} ({:.1} MB): html-arena {:.1} MB ({:.2}x the input), \
             lean {:.1} MB ({:.2}x), html5ever {:.1} MB, scraper {:.1} MB",
            largest.name,
            mb(largest.bytes.len()),
            mb(arena_peak),
            ratio(arena_peak),
            mb(lean_peak),
            ratio(lean_peak),
            mb(h5_peak),
            mb(scraper_peak)
        );
        println!("{line}");
        summary.push(line);
    }

    // End to end: parse, select links, serialize.
    let selector = html_arena::Selector::parse("a[href]").expect("selector");
    let scraper_selector = scraper::Selector::parse("a[href]").expect("selector");
    let times = common::compare(
        5,
        Duration::from_millis(100),
        &mut [
            &mut || {
                for page in pages {
                    let doc = html_arena::Document::parse(&page.text);
                    let n = doc.select(&selector).filter_map(|a| a.attr("href")).count();
                    black_box((n, doc.html()));
                }
            },
            &mut || {
                for page in pages {
                    let doc = scraper::Html::parse_document(&page.text);
                    let n = doc
                        .select(&scraper_selector)
                        .filter_map(|a| a.value().attr("href"))
                        .count();
                    black_box((n, doc.html()));
                }
            },
        ],
    );
    let line = format!(
        "end to end: {corpus}: (parse + select a[href] + serialize, whole corpus): html-arena {:.1} MB/s, scraper {:.1} MB/s ({:.2}x)",
        common::mbps(total, times[0]),
        common::mbps(total, times[1]),
        times[1].as_secs_f64() / times[0].as_secs_f64()
    );
    println!("{line}");
    summary.push(line);
    summary
}
