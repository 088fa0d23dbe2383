//! The memory of a streaming selection (`html_arena::stream`): the peak heap stays flat as
//! the document grows (x1, x2, x4), for a huge table's rows, inline-XBRL-like facts in a
//! filing, and a page of closed formatting and text. It counts bytes with a counting
//! allocator, never time.
//!
//! One test only: the allocator's counts are global, and tests in one binary run in
//! parallel.

#[allow(dead_code)]
#[path = "../benches/common/alloc.rs"]
mod alloc;

use alloc::{Counting, peak_of};
use html_arena::stream::StreamParser;
use html_arena::{ParseOptions, Selector};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A document of about `bytes` bytes: `head`, then `unit(i)` repeated, then `tail`.
fn document(bytes: usize, head: &str, unit: fn(usize) -> String, tail: &str) -> Vec<u8> {
    let mut s = String::with_capacity(bytes + 4096);
    s.push_str(head);
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&unit(i));
        i += 1;
    }
    s.push_str(tail);
    s.into_bytes()
}

/// Streams `input` in 64 KiB chunks; returns the number of matches and their bytes.
fn stream(input: &[u8], selector: &Selector) -> (usize, usize) {
    let mut parser =
        StreamParser::new(std::slice::from_ref(selector), &ParseOptions::default()).unwrap();
    let (mut n, mut bytes) = (0, 0);
    for chunk in input.chunks(64 * 1024) {
        parser.write(chunk).unwrap();
        while let Some(m) = parser.next_match() {
            n += 1;
            bytes += m.html().len();
        }
    }
    parser.finish().unwrap();
    while let Some(m) = parser.next_match() {
        n += 1;
        bytes += m.html().len();
    }
    (n, bytes)
}

#[test]
fn peak_heap_is_flat_as_the_document_grows() {
    type Unit = fn(usize) -> String;
    let shapes: [(&str, &str, Unit, &str, &str); 3] = [
        (
            "table rows",
            "<!DOCTYPE html><meta charset=utf-8><title>Report</title><table class=data>",
            |i| {
                format!(
                    "<tr id=r{i}><td>{i}</td><td class=n>{}.{:02}</td><td><b>ok</b> &amp; fine</tr>\n",
                    i * 7,
                    i % 100
                )
            },
            "</table>",
            "tr",
        ),
        (
            "inline XBRL facts",
            "<?xml version='1.0'?><html xmlns:ix='http://www.xbrl.org/2013/inlineXBRL'><head><meta charset=utf-8><title>10-K</title></head><body><div style='display:none'><ix:header></ix:header></div>",
            |i| {
                format!(
                    "<div><p style='font-size:10pt'><font>Revenue for the period</font></p><table><tr><td><span>Net</span></td><td><ix:nonfraction name='us-gaap:Revenues' contextref='c{i}' unitref='usd' decimals='-3' scale='3'>{},{:03}</ix:nonfraction></td></tr></table></div>\n",
                    i % 997,
                    i % 1000
                )
            },
            "</body></html>",
            "ix\\:nonfraction",
        ),
        (
            "closed formatting and text",
            "<!DOCTYPE html><meta charset=utf-8><body><article>",
            |i| {
                format!(
                    "<p>Paragraph {i} with <b>bold</b>, <i>italic <a href=/x{i}>link</a></i> and <em>more</em> text &copy; here.</p>\n"
                )
            },
            "</article>",
            "p a[href]",
        ),
    ];
    const BASE: usize = 2 << 20;
    for (name, head, unit, tail, selector) in shapes {
        let selector = Selector::parse(selector).unwrap();
        let mut peaks = Vec::new();
        for scale in [1, 2, 4] {
            let input = document(BASE * scale, head, unit, tail);
            let ((n, _), peak) = peak_of(|| stream(&input, &selector));
            assert!(n > 1000 * scale, "{name}: {n} matches");
            peaks.push(peak);
        }
        eprintln!("{name}: peak heap {peaks:?} bytes for 2, 4 and 8 MiB");
        // Flat: the 8 MiB document's peak is within a sixteenth of the 2 MiB one's (plus a
        // little), and bounded (matches inside an open table are held up to a limit:
        // `stream::HOLD_LIMIT`).
        assert!(
            peaks[2] <= peaks[0] + peaks[0] / 16 + (64 << 10),
            "{name}: peak heap grows with the document: {peaks:?}"
        );
        assert!(peaks[2] < 16 << 20, "{name}: peak heap {peaks:?}");
    }
}
