//! Heap use of parsing, page by page: the peak heap of `Document::parse_bytes` and what the
//! finished document keeps, per input byte and per node (a counting global allocator).
//!
//! `cargo run --release --example memory_profile -- [--lean] [FILE|DIR]...`
//! (`--lean`: lean documents, `keep_source` off; the default is a document that keeps its
//! source, which `--keep-source` also asks for; default pages: the shared bench corpora,
//! `../shared/bench-corpus` and `../shared/bench-corpus-wide`, or the folders
//! `HTML_ARENA_CORPUS` lists, when present, else the vendored pages; each folder gets its own
//! summary line). Columns: the input's size, the nodes, the peak heap of the parse and its
//! ratio to the input, the heap the document keeps, that per node, per node without the
//! source text the document keeps, and nodes per `<` of the input.

#[path = "../benches/common/alloc.rs"]
mod alloc;

use std::path::{Path, PathBuf};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// The groups of pages to profile, each summarized on its own: the arguments (a folder is a
/// group of its `*.html` files, a file a group of one), else the folders `HTML_ARENA_CORPUS`
/// lists (separated like `PATH`), else those of `../shared/bench-corpus` and
/// `../shared/bench-corpus-wide` that exist, else the vendored pages.
fn groups(args: &[String]) -> Vec<(String, Vec<PathBuf>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
    if roots.is_empty() {
        roots = match std::env::var_os("HTML_ARENA_CORPUS") {
            Some(list) => std::env::split_paths(&list).collect(),
            None => vec![
                root.join("../shared/bench-corpus"),
                root.join("../shared/bench-corpus-wide"),
            ],
        };
        roots.retain(|r| r.is_dir());
        if roots.is_empty() {
            roots.push(root.join("tests/data/bench-corpus"));
        }
    }
    roots
        .into_iter()
        .map(|r| {
            let name = r
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if r.is_dir() {
                let mut found: Vec<PathBuf> = std::fs::read_dir(&r)
                    .expect("read folder")
                    .map(|e| e.expect("entry").path())
                    .filter(|p| p.extension().is_some_and(|e| e == "html"))
                    .collect();
                found.sort();
                (name, found)
            } else {
                (name, vec![r])
            }
        })
        .collect()
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--lean`: lean documents (`keep_source` off), which keep only their strings; the default
    // (and `--keep-source`) keeps the source too.
    let keep = !args.iter().any(|a| a == "--lean");
    args.retain(|a| a != "--lean" && a != "--keep-source");
    let options = html_arena::ParseOptions::default().with_keep_source(keep);
    println!(
        "{:<34} {:>8} {:>7} {:>9} {:>6} {:>9} {:>7} {:>7} {:>6}",
        "page", "KB", "nodes", "peak KB", "x in", "kept KB", "B/node", "-src", "B/<"
    );
    let mut summaries = Vec::new();
    for (group, paths) in groups(&args) {
        summaries.push(profile(&group, &paths, &options));
    }
    for line in summaries {
        println!("{line}");
    }
}

/// Profiles one group of pages; returns its summary line.
fn profile(group: &str, paths: &[PathBuf], options: &html_arena::ParseOptions) -> String {
    let mut per_node = Vec::new();
    let mut per_node_no_src = Vec::new();
    let mut ratios = Vec::new();
    let mut largest = (0, 0.0, String::new());
    for path in paths {
        let bytes = std::fs::read(path).expect("read page");
        let base = alloc::live();
        let (doc, peak) =
            alloc::peak_of(|| html_arena::Document::parse_bytes(&bytes, options).expect("options"));
        let kept = alloc::live().saturating_sub(base);
        let nodes = doc.node_count();
        let lt = bytes.iter().filter(|&&b| b == b'<').count();
        let source = doc.source().map_or(0, str::len);
        drop(doc);
        let b_node = kept as f64 / nodes as f64;
        let b_node_no_src = kept.saturating_sub(source) as f64 / nodes as f64;
        let ratio = peak as f64 / bytes.len() as f64;
        per_node.push(b_node);
        per_node_no_src.push(b_node_no_src);
        ratios.push(ratio);
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if bytes.len() > largest.0 {
            largest = (bytes.len(), ratio, name.clone());
        }
        println!(
            "{:<34} {:>8.0} {:>7} {:>9.0} {:>5.2}x {:>9.0} {:>7.1} {:>7.1} {:>6.2}",
            name,
            bytes.len() as f64 / 1e3,
            nodes,
            peak as f64 / 1e3,
            ratio,
            kept as f64 / 1e3,
            b_node,
            b_node_no_src,
            nodes as f64 / lt.max(1) as f64
        );
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    format!(
        "{group}: {} pages; median page: {:.1} bytes of heap per node kept ({:.1} without the source text), peak {:.2}x the input; \
         largest page {} ({:.1} MB): peak {:.2}x the input",
        paths.len(),
        median(&mut per_node),
        median(&mut per_node_no_src),
        median(&mut ratios),
        largest.2,
        largest.0 as f64 / 1e6,
        largest.1
    )
}
