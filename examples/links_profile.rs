//! Resolves every URL-valued `href` and `src` of parsed files many times (for profilers).
//! `cargo run --release --example links_profile -- FILE... [--base URL] [--rounds N]`
//!
//! The files are parsed once, outside the counted region, with `--base` as the document URL
//! (default `https://example.org/dir/page.html`; a page saved from Windows has one like
//! `file:///C:/Users/me/page.html`). The resolution happens in `resolve_all`, which is never
//! inlined: under callgrind, `--toggle-collect='*resolve_all*'` counts it alone. Prints the
//! number of values resolved and their total length (so the work is not optimized away).
use html_arena::{Document, ParseOptions, Url};

#[inline(never)]
fn resolve_all(docs: &[Document], rounds: usize) -> (usize, usize) {
    let (mut count, mut bytes) = (0, 0);
    for _ in 0..rounds {
        for doc in docs {
            for node in doc.root().descendants() {
                let Some(e) = node.as_element() else { continue };
                for name in ["href", "src"] {
                    if let Some(url) = e.abs_url(name) {
                        count += 1;
                        bytes += url.len();
                    }
                }
            }
        }
    }
    (count, bytes)
}

fn main() {
    let mut rounds = 3;
    let mut base = String::from("https://example.org/dir/page.html");
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(rounds),
            "--base" => base = args.next().unwrap_or(base),
            _ => files.push(a),
        }
    }
    let options = ParseOptions::default().with_url(Url::parse(&base).expect("--base: a URL"));
    let docs: Vec<Document> = files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(f).expect("read");
            Document::parse_bytes(&bytes, &options).expect("parse")
        })
        .collect();
    let (count, bytes) = resolve_all(&docs, rounds);
    println!("{count} URLs resolved, {bytes} bytes");
}
