//! Parses a folder of pages on 1 thread and then on all cores (rayon), and prints pages per
//! second for each: `Document` is `Send + Sync`, so documents can be built and used on any
//! thread.
//!
//! `cargo run --release --example parallel -- [FOLDER] [--rounds N]`
//! (default folder: the vendored bench corpus, `tests/data/bench-corpus`)

use std::path::PathBuf;
use std::time::Instant;

use html_arena::{Document, ParseOptions};
use rayon::prelude::*;

fn main() {
    let mut folder = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench-corpus"
    ));
    let mut rounds = 10usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(rounds),
            _ => folder = PathBuf::from(arg),
        }
    }
    let pages: Vec<Vec<u8>> = match std::fs::read_dir(&folder) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "html" || e == "htm"))
            .filter_map(|p| std::fs::read(p).ok())
            .collect(),
        Err(e) => {
            eprintln!("parallel: cannot read {}: {e}", folder.display());
            std::process::exit(2);
        }
    };
    if pages.is_empty() {
        eprintln!("parallel: no .html files in {}", folder.display());
        std::process::exit(2);
    }
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let work: Vec<&[u8]> = (0..rounds)
        .flat_map(|_| pages.iter().map(Vec::as_slice))
        .collect();
    let parse = |page: &&[u8]| -> usize {
        let doc = Document::parse_bytes(page, &ParseOptions::default())
            .unwrap_or_else(|_| Document::new());
        doc.node_count()
    };

    let start = Instant::now();
    let nodes: usize = work.iter().map(parse).sum();
    let one = start.elapsed().as_secs_f64();

    let threads = rayon::current_num_threads();
    let start = Instant::now();
    let nodes_n: usize = work.par_iter().map(parse).sum();
    let many = start.elapsed().as_secs_f64();
    assert_eq!(nodes, nodes_n);

    let total = work.len() as f64;
    println!(
        "{} pages ({:.1} MB) x {rounds} rounds, {nodes} nodes",
        pages.len(),
        bytes as f64 / 1e6
    );
    println!(
        "1 thread:   {:>8.0} pages/s  {:>7.1} MB/s",
        total / one,
        (bytes * rounds) as f64 / one / 1e6
    );
    println!(
        "{threads} threads: {:>8.0} pages/s  {:>7.1} MB/s  ({:.2}x)",
        total / many,
        (bytes * rounds) as f64 / many / 1e6,
        one / many
    );
}
