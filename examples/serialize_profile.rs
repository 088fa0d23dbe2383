//! Serializes files many times (for profilers): parses each file once, then serializes every
//! document `SERIALIZE_ROUNDS` times (default 30) into a `String` sized up front, and prints
//! the bytes written (with `Document::html_into`, or with `SERIALIZE_STREAMING` set, with the
//! `fmt::Write` API). With `SERIALIZE_COLD` set, each round parses the files again and times
//! only the first serialization of each fresh tree. Prints the minor page faults taken while
//! serializing too (from `/proc/self/stat`, on Linux). Under `valgrind --tool=callgrind --toggle-collect='*serialize_all*'`
//! only the serialization is counted.
//!
//! `cargo run --release --example serialize_profile -- page.html...`

#[path = "../benches/common/faults.rs"]
mod faults;

use std::hint::black_box;

use faults::minor_faults;

/// Serializes every document `rounds` times; returns the bytes written.
#[inline(never)]
fn serialize_all(docs: &[html_arena::Document], sizes: &[usize], rounds: usize) -> usize {
    let options = html_arena::serialize::SerializeOptions::default();
    let streaming = std::env::var_os("SERIALIZE_STREAMING").is_some();
    let mut n = 0;
    for _ in 0..rounds {
        for (d, &size) in docs.iter().zip(sizes) {
            let mut out = String::with_capacity(size);
            if streaming {
                d.write_html(&mut out, &options).expect("serialize");
            } else {
                d.html_into(&mut out);
            }
            n += black_box(out).len();
        }
    }
    n
}

fn main() {
    let rounds = std::env::var("SERIALIZE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(30);
    let files: Vec<String> = std::env::args()
        .skip(1)
        .map(|a| String::from_utf8_lossy(&std::fs::read(a).expect("read")).into_owned())
        .collect();
    let docs: Vec<_> = files
        .iter()
        .map(|f| html_arena::Document::parse(f))
        .collect();
    let sizes: Vec<usize> = docs.iter().map(|d| d.html().len()).collect();
    if std::env::var_os("SERIALIZE_COLD").is_some() {
        // Each round parses every file again and times only the first serialization of
        // each fresh tree.
        let (mut bytes, mut elapsed, mut faults) = (0, std::time::Duration::ZERO, 0);
        for _ in 0..rounds {
            for (f, &size) in files.iter().zip(&sizes) {
                let doc = html_arena::Document::parse(f);
                let before = minor_faults();
                let start = std::time::Instant::now();
                bytes += serialize_all(std::slice::from_ref(&doc), &[size], 1);
                elapsed += start.elapsed();
                faults += minor_faults().saturating_sub(before);
            }
        }
        println!(
            "{bytes} bytes in {elapsed:?} (cold), {faults} minor page faults while serializing"
        );
        return;
    }
    let before = minor_faults();
    let start = std::time::Instant::now();
    let bytes = serialize_all(&docs, &sizes, rounds);
    let elapsed = start.elapsed();
    let faults = minor_faults().saturating_sub(before);
    println!("{bytes} bytes in {elapsed:?}, {faults} minor page faults");
}
