//! Serialization throughput: `Document::html_into` against html5ever's serializer (over
//! markup5ever_rcdom), on the same pages in the same run, both writing into an output buffer
//! sized up front, and both against a `memcpy` of the output's size (the physical limit).
//!
//! - warm: one tree per page serialized over and over (the median of interleaved rounds);
//! - cold: each measurement serializes a tree just parsed and not walked yet, once (the
//!   median over several fresh trees); a single call is timed, so what reading the clock
//!   costs (measured at the start, tens to hundreds of nanoseconds) is taken off each time,
//!   and the median with it left in is printed too;
//! - streaming: `Document::write_html` into the same pre-sized `String` through the
//!   `fmt::Write` API (warm), to show what the generic writer path costs.
//!
//! Parsing is never timed. Prints MB/s of output per page and the ratios, then the median of
//! the per-page ratios and the ratio of the totals, then (per corpus, warm and cold) the rank
//! correlation of the per-page ratio with page features and the features of the lowest tenth
//! (`common::features`).
//!
//! With `HTML_ARENA_BENCH_CRAWL` set, each corpus also gets a cold figure in crawl order:
//! each library alone, going through every page once per round (parse, then one timed
//! serialization), so that between two of its measurements only its own work on another
//! page ran, as in a crawl; the per-page median over the rounds, then the median ratio.
//!
//! With `HTML_ARENA_BENCH_COLD_ORDER` set, each corpus also gets what a cold call's ratio
//! owes to what ran just before it: each library's cold time (parse, then one timed
//! serialization) right after its own round of the same page, right after the other
//! library's round (the order of the cold figure above), and right after its own round and
//! then a neutral stretch of memory work (boxes of 96 bytes, about five times the page's
//! size, written and freed); the median ratio in each case and how much slower each library
//! is than after its own round alone.
//!
//! `cargo bench --bench serialize` (the whole corpus: set `HTML_ARENA_CORPUS` to its folder
//! when it is not `../shared/bench-corpus`; it may list several folders, separated like `PATH`;
//! by default both `../shared/bench-corpus` and `../shared/bench-corpus-wide` run, each
//! summarized on its own)

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::clock::Clock;
use common::faults::minor_faults;
use common::features::{self, Features};

use html5ever::driver::ParseOpts;
use html5ever::serialize::{SerializeOpts, serialize};
use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{RcDom, SerializableHandle};

/// Fresh trees serialized per page and parser for the cold figures.
const COLD_ROUNDS: usize = 9;

fn h5_parse(text: &str) -> RcDom {
    html5ever::parse_document(RcDom::default(), ParseOpts::default()).one(text)
}

/// html5ever's serializer assumes scripting on; ours follows the document's flag (off).
fn h5_opts() -> SerializeOpts {
    SerializeOpts {
        scripting_enabled: false,
        ..SerializeOpts::default()
    }
}

fn h5_serialize(dom: &RcDom, capacity: usize) -> Vec<u8> {
    let handle: SerializableHandle = dom.document.clone().into();
    let mut out = Vec::with_capacity(capacity);
    serialize(&mut out, &handle, h5_opts()).expect("serialize");
    out
}

/// What reading the clock costs the time it measures: the median of many starts and elapsed
/// times with nothing between them. A cold measurement times a single call, so on a small
/// page this is a share of the time measured (the same for both parsers, which narrows their
/// ratio); [`cold`] takes it off.
fn clock_overhead() -> Duration {
    let mut times: Vec<Duration> = (0..1001)
        .map(|_| {
            let t = Clock::start();
            black_box(&t);
            t.elapsed()
        })
        .collect();
    median_time(&mut times)
}

/// A single call's time with `overhead` (the clock's own cost) taken off: at least a
/// nanosecond, so that a ratio stays finite.
fn net(d: Duration, overhead: Duration) -> Duration {
    d.saturating_sub(overhead).max(Duration::from_nanos(1))
}

/// The medians of [`cold`]: with the clock's own cost taken off, and as measured; and the
/// minor page faults taken while serializing (first touches of the output buffer's pages),
/// summed over the rounds.
struct Cold {
    arena: Duration,
    h5: Duration,
    arena_raw: Duration,
    h5_raw: Duration,
    arena_faults: u64,
    h5_faults: u64,
}

/// Times one serialization of a freshly parsed tree per round, for each parser, interleaved;
/// returns the median of each, with `overhead` (the clock's own cost) taken off and as
/// measured.
fn cold(text: &str, out_len: usize, overhead: Duration) -> Cold {
    let (mut arena, mut h5) = (Vec::new(), Vec::new());
    let (mut arena_faults, mut h5_faults) = (0, 0);
    for _ in 0..COLD_ROUNDS {
        let doc = html_arena::Document::parse(text);
        let faults = minor_faults();
        let t = Clock::start();
        let mut out = String::with_capacity(out_len);
        doc.html_into(&mut out);
        black_box(out);
        arena.push(t.elapsed());
        arena_faults += minor_faults() - faults;
        drop(doc);

        let dom = h5_parse(text);
        let faults = minor_faults();
        let t = Clock::start();
        black_box(h5_serialize(&dom, out_len));
        h5.push(t.elapsed());
        h5_faults += minor_faults() - faults;
    }
    let (arena_raw, h5_raw) = (median_time(&mut arena), median_time(&mut h5));
    Cold {
        arena: net(arena_raw, overhead),
        h5: net(h5_raw, overhead),
        arena_raw,
        h5_raw,
        arena_faults,
        h5_faults,
    }
}

fn main() {
    common::run_corpora(run);
}

/// The median of some measured times (zero for none).
fn median_time(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// One cold round of html-arena: parse, then one timed serialization.
fn arena_round(text: &str, len: usize) -> Duration {
    let doc = html_arena::Document::parse(text);
    let t = Clock::start();
    let mut out = String::with_capacity(len);
    doc.html_into(&mut out);
    black_box(out);
    t.elapsed()
}

/// One cold round of html5ever: parse, then one timed serialization.
fn h5_round(text: &str, len: usize) -> Duration {
    let dom = h5_parse(text);
    let t = Clock::start();
    black_box(h5_serialize(&dom, len));
    t.elapsed()
}

/// Memory work that is neither library's: about five times `text`'s size in boxes of 96
/// bytes, written, then freed.
fn churn(text: &str) {
    let boxes: Vec<Box<[u64; 12]>> = (0..text.len() / 20)
        .map(|i| Box::new([i as u64; 12]))
        .collect();
    black_box(&boxes);
}

/// The figure of `HTML_ARENA_BENCH_COLD_ORDER` (see the module docs): per case (after the
/// library's own round, after the other library's, after its own and then [`churn`]), the
/// median per-page ratio and each library's median per-page time relative to the first case
/// (times with the clock's own cost, `overhead`, taken off).
fn cold_order(pages: &[common::Page], lens: &[usize], overhead: Duration) -> [(f64, f64, f64); 3] {
    let mut ratios = [const { Vec::new() }; 3];
    let mut arena_slower = [const { Vec::new() }; 3];
    let mut h5_slower = [const { Vec::new() }; 3];
    for (page, &len) in pages.iter().zip(lens) {
        let text = page.text.as_str();
        let mut arena = [const { Vec::new() }; 3];
        let mut h5 = [const { Vec::new() }; 3];
        for _ in 0..COLD_ROUNDS {
            black_box(arena_round(text, len));
            arena[0].push(net(arena_round(text, len), overhead));
            black_box(h5_round(text, len));
            h5[0].push(net(h5_round(text, len), overhead));
            black_box(h5_round(text, len));
            arena[1].push(net(arena_round(text, len), overhead));
            black_box(arena_round(text, len));
            h5[1].push(net(h5_round(text, len), overhead));
            black_box(arena_round(text, len));
            churn(text);
            arena[2].push(net(arena_round(text, len), overhead));
            black_box(h5_round(text, len));
            churn(text);
            h5[2].push(net(h5_round(text, len), overhead));
        }
        let median = |v: &mut Vec<Duration>| median_time(v).as_secs_f64();
        let a: Vec<f64> = arena.iter_mut().map(median).collect();
        let h: Vec<f64> = h5.iter_mut().map(median).collect();
        for case in 0..3 {
            ratios[case].push(h[case] / a[case]);
            arena_slower[case].push(a[case] / a[0]);
            h5_slower[case].push(h[case] / h[0]);
        }
    }
    std::array::from_fn(|case| {
        (
            common::median(&mut ratios[case]),
            common::median(&mut arena_slower[case]),
            common::median(&mut h5_slower[case]),
        )
    })
}

/// The cold figure in crawl order (see the module docs): the median per-page ratio and the
/// ratio of the totals.
fn crawl_order(pages: &[common::Page], lens: &[usize], overhead: Duration) -> (f64, f64) {
    let mut arena = vec![Vec::new(); pages.len()];
    let mut h5 = vec![Vec::new(); pages.len()];
    for _ in 0..COLD_ROUNDS {
        for ((page, &len), times) in pages.iter().zip(lens).zip(&mut arena) {
            times.push(net(arena_round(&page.text, len), overhead));
        }
    }
    for _ in 0..COLD_ROUNDS {
        for ((page, &len), times) in pages.iter().zip(lens).zip(&mut h5) {
            times.push(net(h5_round(&page.text, len), overhead));
        }
    }
    let (mut ratios, mut totals) = (Vec::new(), [Duration::ZERO; 2]);
    for (a, h) in arena.iter_mut().zip(&mut h5) {
        let (a, h) = (median_time(a), median_time(h));
        ratios.push(h.as_secs_f64() / a.as_secs_f64());
        totals[0] += a;
        totals[1] += h;
    }
    (
        common::median(&mut ratios),
        totals[1].as_secs_f64() / totals[0].as_secs_f64(),
    )
}

/// Benchmarks one corpus; returns its summary lines.
fn run(corpus: &str, pages: &[common::Page]) -> Vec<String> {
    let mut summary = Vec::new();
    println!();
    let overhead = clock_overhead();
    println!(
        "serialize: {corpus}: {} pages (reading the clock costs {} ns, taken off the cold times)",
        pages.len(),
        overhead.as_nanos()
    );
    println!(
        "{:<28} {:>7} | {:>8} {:>8} {:>6} | {:>8} {:>8} {:>6} | {:>7} {:>6} | {:>7}",
        "page",
        "KB out",
        "warm MB/s",
        "h5 MB/s",
        "ratio",
        "cold MB/s",
        "h5 MB/s",
        "ratio",
        "fmt MB/s",
        "ratio",
        "memcpy"
    );
    let (mut warm, mut cold_ratios, mut streaming) = (Vec::new(), Vec::new(), Vec::new());
    let mut cold_raw_ratios = Vec::new();
    // Minor page faults while serializing cold, per round: html-arena, html5ever.
    let mut faults = [0u64; 2];
    // (page, ratio, features) for the feature reports, warm and cold.
    let (mut warm_featured, mut cold_featured) = (Vec::new(), Vec::new());
    // Totals: arena warm, h5 warm, arena cold, h5 cold, streaming, memcpy.
    let mut totals = [Duration::ZERO; 6];
    let mut bytes = 0usize;
    // Each page's output length (for the crawl-order figure).
    let mut lens = Vec::with_capacity(pages.len());
    for page in pages {
        let doc = html_arena::Document::parse(&page.text);
        let dom = h5_parse(&page.text);
        let expected = doc.html();
        let out_len = expected.len();
        let options = html_arena::serialize::SerializeOptions::default();
        let times = common::compare(
            7,
            Duration::from_millis(30),
            &mut [
                &mut || {
                    let mut out = String::with_capacity(out_len);
                    doc.html_into(&mut out);
                    black_box(out);
                },
                &mut || {
                    black_box(h5_serialize(&dom, out_len));
                },
                &mut || {
                    let mut out = String::with_capacity(out_len);
                    doc.write_html(&mut out, &options).expect("serialize");
                    black_box(out);
                },
                &mut || {
                    // The physical limit: copying the output's bytes into a buffer of the
                    // same size.
                    let mut out = Vec::with_capacity(out_len);
                    out.extend_from_slice(black_box(expected.as_bytes()));
                    black_box(out);
                },
            ],
        );
        let c = cold(&page.text, out_len, overhead);
        let (cold_arena, cold_h5) = (c.arena, c.h5);
        let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64();
        warm.push(ratio(times[0], times[1]));
        cold_ratios.push(ratio(cold_arena, cold_h5));
        cold_raw_ratios.push(ratio(c.arena_raw, c.h5_raw));
        faults[0] += c.arena_faults;
        faults[1] += c.h5_faults;
        let page_features = Features::of(&page.text);
        warm_featured.push((page.name.clone(), ratio(times[0], times[1]), page_features));
        cold_featured.push((page.name.clone(), ratio(cold_arena, cold_h5), page_features));
        streaming.push(ratio(times[2], times[1]));
        for (total, t) in totals
            .iter_mut()
            .zip([times[0], times[1], cold_arena, cold_h5, times[2], times[3]])
        {
            *total += t;
        }
        bytes += out_len;
        lens.push(out_len);
        let mbps = |d| common::mbps(out_len, d);
        println!(
            "{:<28} {:>7.0} | {:>8.0} {:>8.0} {:>5.2}x | {:>8.0} {:>8.0} {:>5.2}x | {:>7.0} {:>5.2}x | {:>7.0}",
            page.name,
            out_len as f64 / 1e3,
            mbps(times[0]),
            mbps(times[1]),
            ratio(times[0], times[1]),
            mbps(cold_arena),
            mbps(cold_h5),
            ratio(cold_arena, cold_h5),
            mbps(times[2]),
            ratio(times[2], times[1]),
            mbps(times[3]),
        );
    }
    let mbps = |d| common::mbps(bytes, d);
    let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64();
    let line = format!(
        "serialize warm: {corpus}: median per-page ratio {:.2}x html5ever; total {:.0} MB/s vs {:.0} MB/s ({:.2}x); memcpy {:.0} MB/s (html_into at {:.1}% of it, html5ever at {:.1}%)",
        common::median(&mut warm),
        mbps(totals[0]),
        mbps(totals[1]),
        ratio(totals[0], totals[1]),
        mbps(totals[5]),
        100.0 * mbps(totals[0]) / mbps(totals[5]),
        100.0 * mbps(totals[1]) / mbps(totals[5]),
    );
    println!("{line}");
    summary.push(line);
    let line = format!(
        "serialize cold: {corpus}: median per-page ratio {:.2}x html5ever; total {:.0} MB/s vs {:.0} MB/s ({:.2}x); with the clock's own {} ns left in: median {:.2}x; minor page faults per page while serializing: {:.1} vs {:.1}",
        common::median(&mut cold_ratios),
        mbps(totals[2]),
        mbps(totals[3]),
        ratio(totals[2], totals[3]),
        overhead.as_nanos(),
        common::median(&mut cold_raw_ratios),
        faults[0] as f64 / (COLD_ROUNDS * pages.len()).max(1) as f64,
        faults[1] as f64 / (COLD_ROUNDS * pages.len()).max(1) as f64,
    );
    println!("{line}");
    summary.push(line);
    if std::env::var_os("HTML_ARENA_BENCH_CRAWL").is_some() && !pages.is_empty() {
        let (median, total) = crawl_order(pages, &lens, overhead);
        let line = format!(
            "serialize cold, crawl order (each library alone, every page once per round): {corpus}: median per-page ratio {median:.2}x html5ever; total {total:.2}x"
        );
        println!("{line}");
        summary.push(line);
    }
    if std::env::var_os("HTML_ARENA_BENCH_COLD_ORDER").is_some() && !pages.is_empty() {
        let cases = [
            "after its own round",
            "after the other's round",
            "after neutral memory work",
        ];
        for (case, (ratio, arena, h5)) in cases.iter().zip(cold_order(pages, &lens, overhead)) {
            let line = format!(
                "serialize cold, {case}: {corpus}: median per-page ratio {ratio:.2}x html5ever; time against after its own round: html-arena {arena:.3}, html5ever {h5:.3}"
            );
            println!("{line}");
            summary.push(line);
        }
    }
    let line = format!(
        "serialize streaming: {corpus}: (write_html, fmt::Write): median per-page ratio {:.2}x html5ever; total {:.0} MB/s ({:.2}x)",
        common::median(&mut streaming),
        mbps(totals[4]),
        ratio(totals[4], totals[1]),
    );
    println!("{line}");
    summary.push(line);
    features::report(&format!("serialize warm: {corpus}"), &warm_featured);
    features::report(&format!("serialize cold: {corpus}"), &cold_featured);
    summary
}
