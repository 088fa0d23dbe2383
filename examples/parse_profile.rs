//! Parses files many times (for profilers). `cargo run --release --example parse_profile -- FILE... [--rounds N] [--lean]`
//! (`--lean`: lean documents, `ParseOptions::with_keep_source(false)`; the default is a
//! document that keeps its source, which `--keep-source` also asks for)
//!
//! The parsing happens in `parse_all`, which is never inlined: under callgrind,
//! `--toggle-collect=parse_profile::parse_all` counts the parses (and the dropping of their
//! documents) without the reading of the files.
fn main() {
    let mut rounds = 10;
    let mut options = html_arena::ParseOptions::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--lean" {
            options = options.with_keep_source(false);
        } else if a == "--keep-source" {
            options = options.with_keep_source(true);
        } else if a == "--rounds" {
            rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(rounds);
        } else {
            let bytes = std::fs::read(&a).expect("read");
            let text = String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            files.push(text);
        }
    }
    println!("{}", parse_all(&files, rounds, &options));
}

/// Parses every file `rounds` times; returns the number of nodes made.
#[inline(never)]
fn parse_all(files: &[String], rounds: usize, options: &html_arena::ParseOptions) -> usize {
    let mut nodes = 0;
    for _ in 0..rounds {
        for f in files {
            nodes += html_arena::Document::parse_with(f, options).node_count();
        }
    }
    nodes
}
