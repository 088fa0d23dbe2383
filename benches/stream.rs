//! Streaming selection (`html_arena::stream`) against a plain parse, per MB: `tr` rows out of a
//! generated table document, and inline-XBRL facts (`ix\:nonfraction`) out of an EDGAR
//! filing's body repeated, each at a large size generated on the fly (the input is never held
//! whole), with the peak heap of the streaming run (a counting allocator) and the throughput
//! of streaming and of a plain parse (`Document::parse_bytes` + `select`) of the same
//! document at a size that fits in memory, measured in the same run.
//!
//! `cargo bench --bench stream`. Environment:
//! - `STREAM_BENCH_MB=N`: the streamed size in MiB (default 256; the target is 1024).
//! - `STREAM_BENCH_PLAIN_MB=N`: the size of the in-memory comparison (default 32).
//! - `STREAM_BENCH_EDGAR=FILE`: the filing to repeat (default: the largest
//!   `edgar-*.html` with inline XBRL in `../shared/bench-corpus-wide`, else a generated one).
//! - `STREAM_BENCH_WRITE=DIR`: also write the two streamed inputs to `DIR/stream-table.html`
//!   and `DIR/stream-edgar.html`, for measuring the command as a process:
//!   `/usr/bin/time -v target/release/examples/query --stream --count --encoding utf-8 tr DIR/stream-table.html`.
//!
//! The byte input declares its encoding (the table has `<meta charset=utf-8>`; the filing is
//! given `transport_encoding = utf-8`, as its HTTP header would): undeclared input with
//! detection on is held until its end, as `Parser::write` does.

mod common;

use std::io::Read;
use std::time::{Duration, Instant};

use common::alloc::{Counting, peak_of};
use html_arena::{Document, ParseOptions, Selector};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MIB: usize = 1 << 20;

/// A document: `head`, `body` repeated to `size` bytes, `tail`, produced on the fly.
struct Repeat<'a> {
    parts: [&'a [u8]; 3],
    /// Bytes of `body` still to produce (whole repetitions).
    body_left: usize,
    stage: usize,
    offset: usize,
}

impl<'a> Repeat<'a> {
    fn new(head: &'a [u8], body: &'a [u8], tail: &'a [u8], size: usize) -> Repeat<'a> {
        let reps = (size.saturating_sub(head.len() + tail.len()) / body.len().max(1)).max(1);
        Repeat {
            parts: [head, body, tail],
            body_left: reps * body.len(),
            stage: 0,
            offset: 0,
        }
    }

    fn len(head: &[u8], body: &[u8], tail: &[u8], size: usize) -> usize {
        let reps = (size.saturating_sub(head.len() + tail.len()) / body.len().max(1)).max(1);
        head.len() + reps * body.len() + tail.len()
    }
}

impl Read for Repeat<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let Some(part) = self.parts.get(self.stage) else {
                return Ok(0);
            };
            if self.stage == 1 && self.body_left == 0 {
                self.stage = 2;
                self.offset = 0;
                continue;
            }
            let rest = &part[self.offset..];
            if rest.is_empty() {
                self.offset = 0;
                if self.stage != 1 {
                    self.stage += 1;
                }
                continue;
            }
            let mut n = rest.len().min(buf.len());
            if self.stage == 1 {
                n = n.min(self.body_left);
                self.body_left -= n;
            }
            buf[..n].copy_from_slice(&rest[..n]);
            self.offset += n;
            return Ok(n);
        }
    }
}

/// Streams `reader`; the number of matches, the time, and the most nodes held.
fn stream(
    reader: impl Read,
    selector: &Selector,
    options: &ParseOptions,
) -> (usize, Duration, usize) {
    let start = Instant::now();
    let mut matches =
        html_arena::stream::select_reader(reader, std::slice::from_ref(selector), options)
            .expect("streamable selector");
    let mut n = 0;
    for m in matches.by_ref() {
        let m = m.expect("no error");
        std::hint::black_box(m.element());
        n += 1;
    }
    (n, start.elapsed(), matches.parser().peak_nodes())
}

fn mbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / MIB as f64 / d.as_secs_f64().max(1e-9)
}

struct Shape {
    name: &'static str,
    head: Vec<u8>,
    body: Vec<u8>,
    tail: Vec<u8>,
    selector: &'static str,
    options: ParseOptions,
}

fn table_shape() -> Shape {
    let mut body = String::new();
    for i in 0..64 {
        body.push_str(&format!(
            "<tr id=r{i}><td>{i}</td><td class=num>{}.{:02}</td><td><b>ok</b> &amp; <a href=/row/{i}>more</a></td></tr>\n",
            i * 37,
            i % 100
        ));
    }
    Shape {
        name: "table rows (tr)",
        head: b"<!DOCTYPE html><meta charset=utf-8><title>Report</title><table class=data><thead><tr><th>n<th>value<th>note</thead><tbody>\n".to_vec(),
        body: body.into_bytes(),
        tail: b"</tbody></table>".to_vec(),
        selector: "tr",
        options: ParseOptions::default(),
    }
}

/// The filing to repeat: its prefix up to the end of `<body ...>`, its body, and the rest.
fn edgar_shape() -> Shape {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let chosen = std::env::var_os("STREAM_BENCH_EDGAR")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            let dir = root.join("../shared/bench-corpus-wide");
            let mut best: Option<(usize, std::path::PathBuf)> = None;
            for e in std::fs::read_dir(dir).ok()?.flatten() {
                let p = e.path();
                let name = p.file_name()?.to_string_lossy().into_owned();
                if !name.starts_with("edgar-") {
                    continue;
                }
                let text = std::fs::read_to_string(&p).ok()?;
                let facts = text.matches("ix:nonFraction").count();
                if best.as_ref().is_none_or(|b| facts > b.0) {
                    best = Some((facts, p));
                }
            }
            best.map(|b| b.1)
        });
    let text = match &chosen {
        Some(p) => std::fs::read_to_string(p).expect("read the filing"),
        None => {
            let mut s = String::from(
                "<html xmlns:ix='http://www.xbrl.org/2013/inlineXBRL'><head><title>10-K</title></head><body>",
            );
            for i in 0..2000 {
                s.push_str(&format!("<div><p><font>Revenue</font></p><table><tr><td>Net</td><td><ix:nonFraction name='us-gaap:Revenues' contextRef='c{i}' unitRef='usd' decimals='-6' scale='6'>{i},{:03}</ix:nonFraction></td></tr></table></div>\n", i % 1000));
            }
            s.push_str("</body></html>");
            s
        }
    };
    let lower = text.to_ascii_lowercase();
    let body_start = lower
        .find("<body")
        .and_then(|i| lower[i..].find('>').map(|j| i + j + 1))
        .unwrap_or(0);
    let body_end = lower.rfind("</body").unwrap_or(text.len()).max(body_start);
    eprintln!(
        "filing: {}",
        chosen.map_or("generated".into(), |p| p.display().to_string())
    );
    Shape {
        name: "inline XBRL facts (ix\\:nonfraction)",
        head: text.as_bytes()[..body_start].to_vec(),
        body: text.as_bytes()[body_start..body_end].to_vec(),
        tail: text.as_bytes()[body_end..].to_vec(),
        selector: "ix\\:nonfraction",
        options: ParseOptions::default().with_transport_encoding("utf-8"),
    }
}

fn env_mb(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let big = env_mb("STREAM_BENCH_MB", 256) * MIB;
    let plain = env_mb("STREAM_BENCH_PLAIN_MB", 32) * MIB;
    let write_dir = std::env::var_os("STREAM_BENCH_WRITE").map(std::path::PathBuf::from);
    println!(
        "streaming selection: {} MiB streamed, {} MiB in memory for the comparison",
        big / MIB,
        plain / MIB
    );
    for (shape, file) in [
        (table_shape(), "stream-table.html"),
        (edgar_shape(), "stream-edgar.html"),
    ] {
        let selector = Selector::parse(shape.selector).expect("selector");
        // The in-memory comparison, same document, same run: plain parse + select, then stream.
        let mut doc_bytes = Vec::new();
        Repeat::new(&shape.head, &shape.body, &shape.tail, plain)
            .read_to_end(&mut doc_bytes)
            .expect("generate");
        let mut plain_times = Vec::new();
        let mut stream_times = Vec::new();
        let mut plain_count = 0;
        let mut stream_count = 0;
        let mut plain_peak = 0;
        for _ in 0..3 {
            let ((n, d), peak) = peak_of(|| {
                let start = Instant::now();
                let doc = Document::parse_bytes(&doc_bytes, &shape.options).expect("parse");
                let n = doc.select(&selector).count();
                (n, start.elapsed())
            });
            plain_times.push(d);
            plain_count = n;
            plain_peak = peak;
            let (n, d, _) = stream(doc_bytes.as_slice(), &selector, &shape.options);
            stream_times.push(d);
            stream_count = n;
        }
        assert_eq!(
            plain_count, stream_count,
            "{}: the same matches",
            shape.name
        );
        plain_times.sort();
        stream_times.sort();
        let (p, s) = (plain_times[1], stream_times[1]);
        drop(doc_bytes);
        // The big one, generated on the fly.
        let len = Repeat::len(&shape.head, &shape.body, &shape.tail, big);
        let ((n, d, nodes), peak) = peak_of(|| {
            stream(
                Repeat::new(&shape.head, &shape.body, &shape.tail, big),
                &selector,
                &shape.options,
            )
        });
        println!(
            "\n{} ({} matches per {} MiB)",
            shape.name,
            plain_count,
            plain / MIB
        );
        println!(
            "  {:>5} MiB in memory: plain parse + select {:>7.1} MiB/s (peak heap {:>6.1} MiB), stream {:>7.1} MiB/s: stream time / plain time = {:.2}",
            plain / MIB,
            mbps(plain, p),
            plain_peak as f64 / MIB as f64,
            mbps(plain, s),
            s.as_secs_f64() / p.as_secs_f64()
        );
        println!(
            "  {:>5} MiB streamed:  {} matches, {:>7.1} MiB/s, peak heap {:.1} MiB, at most {} nodes held",
            len / MIB,
            n,
            mbps(len, d),
            peak as f64 / MIB as f64,
            nodes
        );
        if let Some(dir) = &write_dir {
            let path = dir.join(file);
            let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
            std::io::copy(
                &mut Repeat::new(&shape.head, &shape.body, &shape.tail, big),
                &mut out,
            )
            .expect("write");
            println!("  wrote {}", path.display());
        }
    }
}
