//! Form-state and directionality pseudo-classes against `:checked`, on the corpus's largest
//! page (4 MB when `../shared/bench-corpus` exists).
//!
//! `:checked` reads a flag the tree-wide element state computes in one pass; `:valid`,
//! `:invalid` and `:dir()` read flags that constraint validation (value sanitization, patterns,
//! ranges) and the directionality algorithm compute on their first use. The goal: each within
//! 2x of `:checked`'s time.
//!
//! - "warm": every query on a document whose state is already computed (the usual case: a
//!   scraper runs many queries on one page).
//! - "cold": the first query on a fresh copy of the document, which builds the element index
//!   and the state it needs (the copy's own cost is measured apart and subtracted).
//!
//! Then the same on a synthetic form-heavy page of 4 MB (see `form_page`).
//!
//! Prints each selector's median time and its ratio to `:checked`'s. A query's time grows with
//! its matches (each match reads its node in the arena: a cache miss when matches are scattered),
//! and `:checked` matches few elements: `*`, `:not(:checked)` and the complements
//! `:not(:valid)`, `:not(:invalid)`, `:not(:dir(rtl))` (most elements, in document order) show
//! the cost of matching apart from that of handing out matches.
//!
//! `cargo bench --bench pseudo` (`HTML_ARENA_PAGE=path` picks the page).

mod common;

use std::hint::black_box;
use std::time::Duration;

use html_arena::{Document, ParseOptions, Selector};

const SELECTORS: [&str; 12] = [
    ":checked",
    // References for selectors with many matches: collecting matches costs too.
    "*",
    ":not(:checked)",
    ":valid",
    ":invalid",
    ":dir(ltr)",
    ":dir(rtl)",
    ":is(:valid, :invalid)",
    // The complements match most elements, in document order, as `:not(:checked)` does: their
    // times compare the matching itself.
    ":not(:valid)",
    ":not(:invalid)",
    ":not(:dir(rtl))",
    // No form state at all, and about the same elements as `:not(:invalid)` on a form page.
    ":not(input, select, textarea)",
];

/// A synthetic form-heavy page of about 4 MB: forms of mixed controls (sanitized values,
/// patterns, ranges, radio groups, placeholder options) and `dir=auto` paragraphs in Latin and
/// Hebrew.
fn form_page() -> String {
    let mut page = String::from("<!DOCTYPE html><title>forms</title>");
    let mut i = 0u32;
    while page.len() < 4_000_000 {
        let pattern_value = if i.is_multiple_of(3) { "abc1" } else { "abc" };
        let text = if i.is_multiple_of(2) {
            "hello"
        } else {
            "\u{5e9}\u{5dc}\u{5d5}\u{5dd}"
        };
        page.push_str(&format!(
            "<form><fieldset><legend>Item {i}</legend>\
             <input type=email value=' user{i}@example.com ' required>\
             <input type=number min=0 max=100 step=5 value={n}>\
             <input pattern='[a-z]+' value={pattern_value}>\
             <input type=date min=2020-01-01 value=2020-02-{d:02}>\
             <input type=radio name=r{g} required><input type=radio name=r{g}>\
             <select required><option value=''>Choose<option>{i}</select>\
             <textarea required placeholder=notes></textarea>\
             <p dir=auto>{text} {i}</p><button>Send</button></fieldset></form>\n",
            n = i % 120,
            d = i % 28 + 1,
            g = i % 7,
        ));
        i += 1;
    }
    page
}

fn main() {
    let corpus = match std::env::var_os("HTML_ARENA_PAGE") {
        Some(path) => {
            let bytes = std::fs::read(&path).expect("the page");
            vec![common::Page {
                name: path.to_string_lossy().into_owned(),
                text: String::from_utf8_lossy(&bytes).into_owned(),
                bytes,
            }]
        }
        None => common::corpus(),
    };
    let Some(page) = corpus.iter().max_by_key(|p| p.bytes.len()) else {
        eprintln!("no pages");
        return;
    };
    let options = ParseOptions::default();
    let doc = Document::parse_bytes(&page.bytes, &options).expect("parses");
    run(&page.name, page.bytes.len(), &doc);
    let page = form_page();
    let doc = Document::parse(&page);
    run("synthetic form page", page.len(), &doc);
}

/// Times every selector on `doc`, warm and cold.
fn run(name: &str, len: usize, doc: &Document) {
    let selectors: Vec<Selector> = SELECTORS
        .iter()
        .map(|s| Selector::parse(s).expect("parses"))
        .collect();
    println!("page: {name} ({:.1} MB)", len as f64 / 1e6);

    // Cold: a fresh copy per run (the copy holds no index: `doc` has not been queried yet).
    let mut copy_only = || {
        black_box(doc.clone());
    };
    let mut cold: Vec<Box<dyn FnMut()>> = selectors
        .iter()
        .map(|s| {
            Box::new(move || {
                let copy = doc.clone();
                black_box(copy.select(s).count());
            }) as Box<dyn FnMut()>
        })
        .collect();
    let mut fs: Vec<&mut dyn FnMut()> = vec![&mut copy_only];
    for f in cold.iter_mut() {
        fs.push(f.as_mut());
    }
    let times = common::compare(7, Duration::from_millis(200), &mut fs);
    let copy = times[0].as_secs_f64();
    let cold_times: Vec<f64> = times[1..]
        .iter()
        .map(|t| (t.as_secs_f64() - copy).max(1e-9))
        .collect();

    // Warm: the state is computed once, then every query reads it.
    for s in &selectors {
        black_box(doc.select(s).count());
    }
    let mut warm: Vec<Box<dyn FnMut()>> = selectors
        .iter()
        .map(|s| {
            Box::new(move || {
                black_box(doc.select(s).count());
            }) as Box<dyn FnMut()>
        })
        .collect();
    let mut fs: Vec<&mut dyn FnMut()> = warm.iter_mut().map(|f| f.as_mut() as _).collect();
    let warm_times: Vec<f64> = common::compare(7, Duration::from_millis(200), &mut fs)
        .iter()
        .map(Duration::as_secs_f64)
        .collect();

    println!(
        "{:<24} {:>8} {:>12} {:>8} {:>12} {:>8}",
        "selector", "matches", "warm", "ratio", "cold", "ratio"
    );
    for (i, s) in SELECTORS.iter().enumerate() {
        println!(
            "{:<24} {:>8} {:>10.3}ms {:>7.2}x {:>10.3}ms {:>7.2}x",
            s,
            doc.select(&selectors[i]).count(),
            warm_times[i] * 1e3,
            warm_times[i] / warm_times[0],
            cold_times[i] * 1e3,
            cold_times[i] / cold_times[0],
        );
    }
}
