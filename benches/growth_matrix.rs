//! The growth matrix: every "special" unit the tokenizer, tree builder or serializer treats
//! differently, flooded into every context where it means something, fed through every input
//! path and read back through every output path, at two sizes. For each cell it prints the
//! growth of the time per doubling of the input (a linear cost gives 2.0; cells above 2.3 are
//! flagged `!`), and it checks the peak heap: its growth per doubling (flagged above 2.83, the
//! 2.3 of time plus room for a buffer's doubled capacity) and its size per byte of the cell's
//! reference size (flagged above 8x): the larger of the input and what the path must hold or
//! write. For an input path that is the document's serialization (a NUL in an attribute value
//! becomes a 3-byte U+FFFD, so the document legitimately holds 3x the input's text); for an
//! output path, its output (a tree dump writes a line per attribute). Cells whose peak is
//! above 8x the input but not above 8x the reference are counted apart.
//!
//! `cargo bench --bench growth_matrix [-- FILTER]`: FILTER keeps the shapes whose
//! `context/unit` name contains it (`-- "attr \"/&nbsp;"`). Environment:
//! - `GROWTH_MATRIX_KB=N`: the smaller size in KiB (default 256: each cell at 256 KiB and
//!   1 MiB, a few minutes of CPU for the whole matrix; `1024` for 1 MiB and 4 MiB, four times
//!   as long).
//! - `GROWTH_MATRIX_CONFIRM=1`: cells flagged for time are measured again in instructions,
//!   with valgrind's callgrind (when installed), by running this binary on that one cell
//!   (`--cell CONTEXT/UNIT PATH SIZE setup|run`; the setup run's count is subtracted).
//!   Instruction counts are immune to the machine's other work and to cache effects.
//! - `GROWTH_MATRIX_VERBOSE=1`: every cell's times, memory and memory growth.
//!
//! How it measures: hardware counters (`perf stat`, `perf_event_open`) are often unusable in
//! containers and virtual machines, so each cell runs in process, once at each size, timed
//! with the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`, so time other processes took does
//! not count; wall time where that clock is missing). A cell whose growth looks above 2.0 is
//! measured again, interleaving the sizes, keeping the fastest of up to `REPEATS` runs at each.
//! Cells under `TOO_FAST` at the larger size are shown as `~` (a quadratic path at these sizes
//! takes seconds). Memory comes from a counting global allocator: the peak heap growth during
//! the cell (the document built, for input paths; the working memory, for output paths:
//! serialization goes to a sink that keeps nothing) over the input's length.

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use common::alloc::{Counting, peak_of};
use common::clock::{Clock, cpu_time};
use html_arena::{Document, NodeKind, ParseOptions, Parser, Selector};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The special units. `{i}` stands for a counter (distinct attribute names).
const UNITS: &[(&str, &str)] = &[
    ("U+00A0", "\u{a0}"),
    ("U+00A0 x", "\u{a0}x"),
    ("&nbsp;", "&nbsp;"),
    ("&#xA0;", "&#xA0;"),
    ("U+00A9", "\u{a9}"),
    ("&", "&"),
    ("&amp;", "&amp;"),
    ("&amp", "&amp"),
    ("<", "<"),
    (">", ">"),
    ("\"", "\""),
    ("'", "'"),
    ("NUL", "\0"),
    ("CR", "\r"),
    ("CRLF", "\r\n"),
    ("FF", "\x0c"),
    ("U+FFFD", "\u{fffd}"),
    ("astral", "\u{1f600}"),
    ("-", "-"),
    ("]", "]"),
    ("=", "="),
    ("/", "/"),
    ("</", "</"),
    (" b", " b"),
    (" b{i}", " b{i}"),
    (" b{i}=v", " b{i}=v"),
    ("x", "x"),
];

/// The contexts: (name, before the flood, after it).
const CONTEXTS: &[(&str, &str, &str)] = &[
    ("text", "<p>", "</p>"),
    ("attr \"", "<p title=\"", "\">"),
    ("attr '", "<p title='", "'>"),
    ("attr unq", "<p title=x", ">"),
    ("in tag", "<p ", ">"),
    ("comment", "<!--", "-->"),
    ("script", "<script>", "</script>"),
    ("style", "<style>", "</style>"),
    ("title", "<title>", "</title>"),
    ("textarea", "<textarea>", "</textarea>"),
    ("plaintext", "<plaintext>", ""),
    ("table", "<table>", "</table>"),
    ("select", "<select>", "</select>"),
    ("svg text", "<svg><text>", "</text></svg>"),
    ("CDATA", "<svg><![CDATA[", "]]></svg>"),
    ("DOCTYPE pub", "<!DOCTYPE html PUBLIC \"", "\">"),
    ("DOCTYPE sys", "<!DOCTYPE html SYSTEM '", "'>"),
];

/// The input paths, then the output paths.
#[derive(Copy, Clone, PartialEq, Debug)]
enum Path {
    /// `Document::parse`.
    Str,
    /// `Document::parse_bytes` (a byte order mark, then UTF-8: sniffing, streaming decode).
    Bytes,
    /// `Parser::write` in chunks of this many bytes.
    Write(usize),
    /// `Parser::write` in chunks of random sizes (1 to 16 KiB).
    WriteRandom,
    /// `Parser::write_str` in chunks of 4 KiB.
    WriteStr,
    /// `Document::parse_fragment` in a `div`.
    Fragment,
    /// `Document::write_html` into a sink.
    Serialize,
    /// `NodeRef::text` of the root.
    Text,
    /// `NodeRef::rendered_text` of the root.
    Rendered,
    /// A selector query (every match counted).
    Select,
    /// `Document::dump_tree`.
    Dump,
    /// Parsing with source positions and reading every node's spans.
    Positions,
    /// Parsing (errors are collected by default), and formatting each error kept.
    Errors,
    /// A lean document (`keep_source` off): `Document::parse_with`...
    LeanStr,
    /// ...and `Parser::write` in chunks of this many bytes.
    LeanWrite(usize),
}

const PATHS: &[(Path, &str)] = &[
    (Path::Str, "str"),
    (Path::Bytes, "bytes"),
    (Path::Write(1024), "w1K"),
    (Path::Write(8192), "w8K"),
    (Path::WriteRandom, "wrnd"),
    (Path::WriteStr, "wstr"),
    (Path::Fragment, "frag"),
    (Path::Serialize, "ser"),
    (Path::Text, "text"),
    (Path::Rendered, "rend"),
    (Path::Select, "sel"),
    (Path::Dump, "dump"),
    (Path::Positions, "pos"),
    (Path::Errors, "errs"),
    (Path::LeanStr, "lean"),
    (Path::LeanWrite(1024), "lw1K"),
];

/// Growth per doubling above this is flagged.
const GROWTH_LIMIT: f64 = 2.3;
/// Peak heap per input byte above this is flagged.
const MEMORY_LIMIT: f64 = 8.0;
/// Growth of the peak heap per doubling above this is flagged: 2.0, times the factor 2 by
/// which a growing buffer's spare capacity can differ between two sizes (a string that just
/// fits at one size and just overflows into a doubled buffer at the other), spread over the
/// two doublings: 2 x sqrt(2).
const MEMORY_GROWTH_LIMIT: f64 = 2.83;
/// Most runs of a cell at each size.
const REPEATS: usize = 5;
/// Cells faster than this at the larger size are not judged.
const TOO_FAST: Duration = Duration::from_millis(1);

const SELECTOR: &str = "p[title], :nth-child(odd), svg text, [b]";

/// One input at one size: the text, and its bytes behind a byte order mark.
struct Input {
    text: String,
    bytes: Vec<u8>,
}

impl Input {
    fn new(before: &str, unit: &str, after: &str, size: usize) -> Input {
        let mut text = String::with_capacity(size + 64);
        text.push_str(before);
        let mut i = 0usize;
        while text.len() + after.len() < size {
            if unit.contains("{i}") {
                let _ = write!(text, "{}", unit.replace("{i}", &i.to_string()));
            } else {
                text.push_str(unit);
            }
            i += 1;
        }
        text.push_str(after);
        let mut bytes = "\u{feff}".as_bytes().to_vec();
        bytes.extend_from_slice(text.as_bytes());
        Input { text, bytes }
    }
}

/// A tiny deterministic generator for chunk sizes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A `fmt::Write` that keeps nothing.
struct Sink(usize);

impl std::fmt::Write for Sink {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

fn parse_path(path: Path, input: &Input) -> Document {
    let options = ParseOptions::default();
    match path {
        Path::Str => Document::parse(&input.text),
        Path::Bytes => Document::parse_bytes(&input.bytes, &options).expect("options"),
        Path::Write(size) => {
            let mut parser = Parser::new(&options);
            for chunk in input.bytes.chunks(size) {
                parser.write(chunk).expect("options");
            }
            parser.finish()
        }
        Path::WriteRandom => {
            let mut parser = Parser::new(&options);
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
            let mut rest = &input.bytes[..];
            while !rest.is_empty() {
                let n = (1 + rng.next() % 16384) as usize;
                let (chunk, tail) = rest.split_at(n.min(rest.len()));
                parser.write(chunk).expect("options");
                rest = tail;
            }
            parser.finish()
        }
        Path::WriteStr => {
            let mut parser = Parser::new(&options);
            let mut rest = &input.text[..];
            while !rest.is_empty() {
                let mut end = 4096.min(rest.len());
                while !rest.is_char_boundary(end) {
                    end += 1;
                }
                parser.write_str(&rest[..end]);
                rest = &rest[end..];
            }
            parser.finish()
        }
        Path::Fragment => Document::parse_fragment(&input.text, "div", &options).expect("div"),
        Path::Positions => {
            let mut options = ParseOptions::default();
            options.source_positions = true;
            Document::parse_with(&input.text, &options)
        }
        // Errors are collected by default (the first 10,000 kept, the rest counted).
        Path::Errors => Document::parse_with(&input.text, &options),
        Path::LeanStr => Document::parse_with(&input.text, &options.with_keep_source(false)),
        Path::LeanWrite(size) => {
            let mut parser = Parser::new(&options.with_keep_source(false));
            for chunk in input.bytes.chunks(size) {
                parser.write(chunk).expect("options");
            }
            parser.finish()
        }
        _ => Document::parse(&input.text),
    }
}

/// Runs one output path on `doc`; returns a number that depends on all of the work.
fn output_path(path: Path, doc: &Document, selector: &Selector) -> usize {
    match path {
        Path::Serialize => {
            let mut sink = Sink(0);
            doc.write_html(&mut sink, &Default::default())
                .expect("sink");
            sink.0
        }
        Path::Text => doc.root().text().len(),
        Path::Rendered => doc.root().rendered_text().len(),
        Path::Select => doc.select(selector).count(),
        Path::Dump => doc.dump_tree().len(),
        _ => 0,
    }
}

/// One run of a cell: its time and peak heap.
fn run_cell(path: Path, input: &Input, doc: &Document, selector: &Selector) -> (Duration, usize) {
    let start = Clock::start();
    let (work, peak) = peak_of(|| match path {
        Path::Serialize | Path::Text | Path::Rendered | Path::Select | Path::Dump => {
            black_box(output_path(path, doc, selector))
        }
        Path::Positions => {
            let doc = parse_path(path, input);
            let mut sum = 0;
            for node in doc.root().descendants() {
                sum += node.source_span().map_or(0, |s| s.end - s.start);
                if let Some(e) = node.as_element() {
                    sum += e.end_tag_span().map_or(0, |s| s.end - s.start);
                }
            }
            drop(black_box(doc));
            sum
        }
        Path::Errors => {
            let doc = parse_path(path, input);
            let mut out = String::new();
            let mut sum = doc.error_count();
            for e in doc.errors() {
                out.clear();
                let _ = write!(out, "{e}");
                sum += out.len();
            }
            drop(black_box(doc));
            sum
        }
        _ => {
            let doc = parse_path(path, input);
            let n = doc.node_count();
            drop(black_box(doc));
            n
        }
    });
    black_box(work);
    (start.elapsed(), peak)
}

/// The measured cell.
#[derive(Copy, Clone)]
struct Cell {
    small: Duration,
    large: Duration,
    /// Peak heap per byte of the reference size (the larger of the input and the output the
    /// path must hold or write) at the larger size.
    memory: f64,
    /// Peak heap per input byte at the larger size.
    memory_input: f64,
    /// Growth of the peak heap per doubling of the input (1.0 to 2.0 is linear or better).
    memory_growth: f64,
    growth: f64,
}

impl Cell {
    fn judged(&self) -> bool {
        self.large >= TOO_FAST
    }
    fn red_time(&self) -> bool {
        self.judged() && self.growth > GROWTH_LIMIT
    }
    fn red_memory(&self) -> bool {
        self.memory > MEMORY_LIMIT || self.memory_growth > MEMORY_GROWTH_LIMIT
    }
}

fn growth(small: Duration, large: Duration, doublings: f64) -> f64 {
    (large.as_secs_f64() / small.as_secs_f64().max(1e-9)).powf(1.0 / doublings)
}

/// The text a document holds: every text, comment and DOCTYPE string, element and
/// attribute name and attribute value, as the tokenizer made them (a NUL in an attribute
/// value or a DOCTYPE identifier is there as a 3-byte U+FFFD).
fn content_size(doc: &Document) -> usize {
    doc.root()
        .descendants()
        .map(|node| match node.kind() {
            NodeKind::Text(t) | NodeKind::Comment(t) => t.len(),
            NodeKind::Doctype {
                name,
                public_id,
                system_id,
            } => name.len() + public_id.len() + system_id.len(),
            NodeKind::ProcessingInstruction { target, data } => target.len() + data.len(),
            NodeKind::Element(e) => {
                e.local_name().len()
                    + e.attrs()
                        .map(|a| a.local_name.len() + a.value.len())
                        .sum::<usize>()
            }
            _ => 0,
        })
        .sum()
}

/// The reference size of a cell: the larger of the input and what the path must hold or
/// write: for an input path, the text the document holds ([`content_size`]) or its
/// serialization, whichever is larger; for an output path, its output.
fn reference_size(path: Path, input: &Input, doc: &Document, selector: &Selector) -> usize {
    let output = match path {
        Path::Serialize | Path::Text | Path::Rendered | Path::Dump => {
            output_path(path, doc, selector)
        }
        Path::Select => 0,
        _ => output_path(Path::Serialize, doc, selector).max(content_size(doc)),
    };
    input.text.len().max(output)
}

#[allow(clippy::too_many_arguments)]
fn measure(
    path: Path,
    small: &Input,
    large: &Input,
    small_doc: &Document,
    large_doc: &Document,
    selector: &Selector,
    doublings: f64,
) -> Cell {
    let (mut ts, peak_small) = run_cell(path, small, small_doc, selector);
    let (mut tl, peak) = run_cell(path, large, large_doc, selector);
    let mut g = growth(ts, tl, doublings);
    let mut runs = 1;
    // Suspicious: measure again, interleaved, keeping the fastest run at each size.
    while g > 2.0 && tl >= TOO_FAST && runs < REPEATS {
        ts = ts.min(run_cell(path, small, small_doc, selector).0);
        tl = tl.min(run_cell(path, large, large_doc, selector).0);
        g = growth(ts, tl, doublings);
        runs += 1;
    }
    Cell {
        small: ts,
        large: tl,
        memory: peak as f64 / reference_size(path, large, large_doc, selector) as f64,
        memory_input: peak as f64 / large.text.len() as f64,
        memory_growth: (peak as f64 / peak_small.max(1) as f64).powf(1.0 / doublings),
        growth: g,
    }
}

/// The shape and path named `context/unit` and `path`.
fn find_cell(
    shape: &str,
    path: &str,
) -> Option<(
    (&'static str, &'static str, &'static str),
    &'static str,
    Path,
)> {
    let (context, unit) = shape.split_once('/')?;
    let c = CONTEXTS.iter().find(|c| c.0 == context)?;
    let u = UNITS.iter().find(|u| u.0 == unit)?;
    let p = PATHS.iter().find(|p| p.1 == path)?;
    Some((*c, u.1, p.0))
}

/// `--cell CONTEXT/UNIT PATH SIZE setup|run`: builds the input (and for an output path, the
/// document), then with `run` runs the cell once. Run under an instruction counter, the
/// difference between the two modes is the cell's instruction count.
fn single_cell(args: &[String]) {
    let [shape, path, size, mode] = args else {
        eprintln!("--cell CONTEXT/UNIT PATH SIZE setup|run");
        std::process::exit(2);
    };
    let Some(((_, before, after), unit, path)) = find_cell(shape, path) else {
        eprintln!("no cell {shape} {path}");
        std::process::exit(2);
    };
    let size: usize = size.parse().expect("size");
    let input = Input::new(before, unit, after, size);
    let doc = Document::parse(&input.text);
    let selector = Selector::parse(SELECTOR).expect("selector");
    if mode == "run" {
        black_box(run_cell(path, &input, &doc, &selector));
    }
}

/// Instructions of one run of a cell, from valgrind's callgrind (`None` if it cannot run).
fn instructions(shape: &str, path: &str, size: usize) -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let count = |mode: &str| -> Option<u64> {
        let out = std::process::Command::new("valgrind")
            .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
            .arg(&exe)
            .args(["--cell", shape, path, &size.to_string(), mode])
            .output()
            .ok()?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let line = stderr.lines().find(|l| l.contains("Collected :"))?;
        line.rsplit(':').next()?.trim().parse().ok()
    };
    Some(count("run")?.saturating_sub(count("setup")?))
}

fn valgrind_available() -> bool {
    std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "--cell") {
        single_cell(&args[at + 1..]);
        return;
    }
    let filter: Option<String> = args.iter().find(|a| !a.starts_with("--")).cloned();
    let confirm = std::env::var_os("GROWTH_MATRIX_CONFIRM").is_some() && valgrind_available();
    let kb: usize = std::env::var("GROWTH_MATRIX_KB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
        .max(16);
    let verbose = std::env::var_os("GROWTH_MATRIX_VERBOSE").is_some();
    let clock = if cpu_time().is_some() {
        "CPU time of the thread"
    } else {
        "wall time"
    };
    let (small_size, large_size) = (kb * 1024, kb * 4096);
    let doublings = 2.0;
    let selector = Selector::parse(SELECTOR).expect("selector");
    let started = Instant::now();
    println!(
        "growth matrix: {} units x {} contexts x {} paths, at {} KiB and {} KiB",
        UNITS.len(),
        CONTEXTS.len(),
        PATHS.len(),
        small_size / 1024,
        large_size / 1024
    );
    println!(
        "clock: {clock}; each cell: growth of the time per doubling of the input (2.0 = linear; ! above {GROWTH_LIMIT}; \
         ~ under {TOO_FAST:?}); mem: the largest peak heap of the row per byte of the larger of the input and \
         the path's output (the document's serialization, for input paths) (! above {MEMORY_LIMIT}x)"
    );
    let mut cells = 0;
    // (shape, path, cell) of the flagged cells.
    let mut red_time: Vec<(String, &str, Cell)> = Vec::new();
    let mut red_memory: Vec<(String, &str, Cell)> = Vec::new();
    // Cells above the limit per input byte but not per byte of their reference size.
    let mut big_output: Vec<(String, &str, Cell)> = Vec::new();
    let mut worst_growth: (f64, String) = (0.0, String::new());
    let mut worst_memory: (f64, String) = (0.0, String::new());
    let mut worst_memory_growth: (f64, String) = (0.0, String::new());
    for &(context, before, after) in CONTEXTS {
        let mut header_done = false;
        for &(unit_name, unit) in UNITS {
            let shape = format!("{context}/{unit_name}");
            if filter.as_ref().is_some_and(|f| !shape.contains(f.as_str())) {
                continue;
            }
            if !header_done {
                let mut line = format!("\n{context:<16}");
                for (_, name) in PATHS {
                    let _ = write!(line, "{name:>6}");
                }
                println!("{line}    mem");
                header_done = true;
            }
            let small = Input::new(before, unit, after, small_size);
            let large = Input::new(before, unit, after, large_size);
            let small_doc = Document::parse(&small.text);
            let large_doc = Document::parse(&large.text);
            let mut line = format!("{unit_name:<16}");
            let mut row_memory: f64 = 0.0;
            for &(path, path_name) in PATHS {
                let cell = measure(
                    path, &small, &large, &small_doc, &large_doc, &selector, doublings,
                );
                cells += 1;
                let name = format!("{shape} {path_name}");
                let mark = if cell.red_time() { "!" } else { " " };
                if cell.judged() {
                    let _ = write!(line, "{:>5.1}{mark}", cell.growth);
                    if cell.growth > worst_growth.0 {
                        worst_growth = (cell.growth, name.clone());
                    }
                } else {
                    let _ = write!(line, "{:>5}{mark}", "~");
                }
                row_memory = row_memory.max(cell.memory);
                if cell.memory > worst_memory.0 {
                    worst_memory = (cell.memory, name.clone());
                }
                if cell.memory_growth > worst_memory_growth.0 && cell.memory > 0.5 {
                    worst_memory_growth = (cell.memory_growth, name.clone());
                }
                if verbose {
                    println!(
                        "  {name:<32} {:>10.3?} {:>10.3?} growth {:.2} mem {:.1}x ({:.1}x the input, growth {:.2})",
                        cell.small,
                        cell.large,
                        cell.growth,
                        cell.memory,
                        cell.memory_input,
                        cell.memory_growth
                    );
                }
                if cell.memory_input > MEMORY_LIMIT && cell.memory <= MEMORY_LIMIT {
                    big_output.push((shape.clone(), path_name, cell));
                }
                if cell.red_memory() {
                    red_memory.push((shape.clone(), path_name, cell));
                }
                if cell.red_time() {
                    red_time.push((shape.clone(), path_name, cell));
                }
            }
            let mark = if row_memory > MEMORY_LIMIT { "!" } else { " " };
            println!("{line} {row_memory:>5.1}x{mark}");
        }
    }
    println!(
        "\n{cells} cells in {:.0?}; worst time growth {:.2} per doubling ({}); worst memory \
         {:.1}x the reference size ({}); worst memory growth {:.2} per doubling ({})",
        started.elapsed(),
        worst_growth.0,
        worst_growth.1,
        worst_memory.0,
        worst_memory.1,
        worst_memory_growth.0,
        worst_memory_growth.1
    );
    if red_time.is_empty() {
        println!("time: every cell at or under {GROWTH_LIMIT}x per doubling");
    } else {
        println!(
            "time: {} cells above {GROWTH_LIMIT}x per doubling:",
            red_time.len()
        );
    }
    let mut still_red = 0;
    for (shape, path, c) in &red_time {
        let mut verdict = String::new();
        if confirm {
            // Instruction counts: immune to the machine's other work and to cache sizes.
            match (
                instructions(shape, path, small_size),
                instructions(shape, path, large_size),
            ) {
                (Some(a), Some(b)) => {
                    let g = (b as f64 / a.max(1) as f64).powf(1.0 / doublings);
                    let red = if g > GROWTH_LIMIT { "RED" } else { "linear" };
                    still_red += usize::from(g > GROWTH_LIMIT);
                    verdict = format!("; instructions {a} -> {b} ({g:.2}x per doubling): {red}");
                }
                _ => verdict = "; instructions: valgrind failed".to_owned(),
            }
        }
        println!(
            "  {:<32} {:?} -> {:?} ({:.2}x per doubling){verdict}",
            format!("{shape} {path}"),
            c.small,
            c.large,
            c.growth
        );
    }
    if confirm && !red_time.is_empty() {
        println!(
            "time: {still_red} of them above {GROWTH_LIMIT}x per doubling in instructions too"
        );
    } else if !red_time.is_empty() {
        println!(
            "(GROWTH_MATRIX_CONFIRM=1 counts their instructions with valgrind, where installed)"
        );
    }
    let superlinear: Vec<_> = red_memory
        .iter()
        .filter(|(_, _, c)| c.memory_growth > MEMORY_GROWTH_LIMIT)
        .collect();
    let heavy = red_memory.len() - superlinear.len();
    if superlinear.is_empty() {
        println!(
            "memory: every cell's peak heap grows at most {MEMORY_GROWTH_LIMIT}x per doubling"
        );
    } else {
        println!(
            "memory: {} cells grow above {MEMORY_GROWTH_LIMIT}x per doubling:",
            superlinear.len()
        );
        for (shape, path, c) in superlinear {
            println!(
                "  {:<32} {:.1}x the input ({:.2}x per doubling)",
                format!("{shape} {path}"),
                c.memory,
                c.memory_growth
            );
        }
    }
    if !big_output.is_empty() {
        let worst = big_output
            .iter()
            .map(|(_, _, c)| c.memory_input)
            .fold(0.0, f64::max);
        println!(
            "memory: {} cells above {MEMORY_LIMIT}x the input (up to {worst:.1}x) are at or under \
             {MEMORY_LIMIT}x their output or the document's serialization:",
            big_output.len()
        );
        // Each shape once: its paths, and the range per input byte and per reference byte.
        let mut shapes: Vec<(&str, Vec<&str>, f64, f64, f64)> = Vec::new();
        for (shape, path, c) in &big_output {
            match shapes.iter_mut().find(|s| s.0 == shape) {
                Some(s) => {
                    s.1.push(path);
                    s.2 = s.2.min(c.memory_input);
                    s.3 = s.3.max(c.memory_input);
                    s.4 = s.4.max(c.memory);
                }
                None => shapes.push((shape, vec![path], c.memory_input, c.memory_input, c.memory)),
            }
        }
        for (shape, paths, low, high, reference) in shapes {
            println!(
                "  {shape:<24} {low:.1}x to {high:.1}x the input, at most {reference:.1}x the \
                 reference size ({})",
                paths.join(" ")
            );
        }
    }
    if heavy == 0 {
        println!("memory: every cell at or under {MEMORY_LIMIT}x its reference size");
    } else {
        let mut by_path: Vec<(&str, usize)> = Vec::new();
        for (_, path, c) in &red_memory {
            if c.memory > MEMORY_LIMIT {
                match by_path.iter_mut().find(|(p, _)| p == path) {
                    Some((_, n)) => *n += 1,
                    None => by_path.push((path, 1)),
                }
            }
        }
        let by_path: Vec<String> = by_path.iter().map(|(p, n)| format!("{p} {n}")).collect();
        println!(
            "memory: {heavy} cells above {MEMORY_LIMIT}x their reference size (rows marked ! in \
             the mem column; by path: {})",
            by_path.join(", ")
        );
        // Each flagged shape once, with the range of its cells and the reason when known.
        let mut shapes: Vec<(&str, f64, f64, f64, usize)> = Vec::new();
        for (shape, _, c) in red_memory
            .iter()
            .filter(|(_, _, c)| c.memory > MEMORY_LIMIT)
        {
            match shapes.iter_mut().find(|s| s.0 == shape) {
                Some(s) => {
                    s.1 = s.1.min(c.memory);
                    s.2 = s.2.max(c.memory);
                    s.3 = s.3.max(c.memory_input);
                    s.4 += 1;
                }
                None => shapes.push((shape, c.memory, c.memory, c.memory_input, 1)),
            }
        }
        let mut unexplained = 0;
        for (shape, low, high, input, n) in shapes {
            let unit = shape.split_once('/').map_or(shape, |(_, u)| u);
            let reason = MEMORY_EXPLAINED
                .iter()
                .find(|(u, _)| *u == unit)
                .map(|(_, r)| *r);
            unexplained += usize::from(reason.is_none());
            println!(
                "  {shape:<24} {n} paths, {low:.1}x to {high:.1}x (up to {input:.1}x the input): {}",
                reason.unwrap_or("NOT EXPLAINED")
            );
        }
        if unexplained > 0 {
            println!("memory: {unexplained} flagged shapes have no known reason");
        }
    }
}

/// Shapes known to stay above [`MEMORY_LIMIT`], by unit, with the reason. None since issue
/// 14's last round: one tag with a distinct attribute name every 7 bytes (` b{i}`) was
/// 13x to 17x its serialization (about 170 bytes per attribute at the peak: a 48-byte
/// tokenizer record in a doubling list, its duplicate-check entry, the document's attribute
/// and interned name, the name copied once more at chunk boundaries); now the record is 20
/// bytes, the duplicate-check table and the list's spare room are freed when the tag is
/// emitted, a tag crossing chunk boundaries keeps its text once, and the names table is
/// reserved once: 60 to 80 bytes per attribute (`tests/attr_memory.rs`).
const MEMORY_EXPLAINED: &[(&str, &str)] = &[];
