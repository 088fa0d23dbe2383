//! Parse time of deeply nested and misnested documents at 10k, 100k and 1M levels.
//!
//! Each shape is parsed a few times per size and the best time kept; the table shows the
//! growth factor from one size to the next (10x the input). Linear parsing grows by about 10x;
//! a parser whose scope checks walk the stack of open elements grows by about 100x.
//!
//! Run with `cargo bench --bench deep_nesting` (`-- QUICK` for one run per size).

use std::time::{Duration, Instant};

use html_arena::Document;

struct Shape {
    name: &'static str,
    make: fn(usize) -> String,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "nested <div>",
        make: |n| "<div>".repeat(n),
    },
    Shape {
        name: "<ul><li> chain",
        make: |n| "<ul><li>".repeat(n),
    },
    Shape {
        name: "<b> run",
        make: |n| "<b>".repeat(n) + "x",
    },
    Shape {
        name: "<a> run (adoption)",
        make: |n| "<a>x".repeat(n),
    },
    Shape {
        name: "<b><p>x</b>y</p>",
        make: |n| "<b><p>x</b>y</p>".repeat(n),
    },
    Shape {
        name: "<b>, <span>s, <div>s, </b>",
        make: |n| "<b>".to_owned() + &"<span>".repeat(n / 2) + &"<div>".repeat(n / 2) + "</b>",
    },
    Shape {
        name: "unclosed <table><tr><td>",
        make: |n| "<table><tr><td>".repeat(n),
    },
    Shape {
        name: "<div>s, then </span>s",
        make: |n| "<div>".repeat(n) + &"</span>".repeat(n),
    },
    Shape {
        name: "<div>s, then <table></table>s",
        make: |n| "<div>".repeat(n) + &"<table></table>".repeat(n),
    },
    Shape {
        name: "<svg> + <g>s, then </x>s",
        make: |n| "<svg>".to_owned() + &"<g>".repeat(n) + &"</x>".repeat(n),
    },
];

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

fn best_of(runs: usize, input: &str) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        let doc = Document::parse(input);
        let elapsed = start.elapsed();
        // Dropping is part of the cost of a document, but measure parsing alone.
        std::hint::black_box(&doc);
        drop(doc);
        best = best.min(elapsed);
    }
    best
}

fn main() {
    let quick = std::env::args().any(|a| a == "QUICK");
    let runs = if quick { 1 } else { 3 };
    println!(
        "deep nesting: best of {runs} parse(s) per size; growth per 10x levels in parentheses"
    );
    println!("{:<32} {:>12} {:>20} {:>20}", "shape", "10k", "100k", "1M");
    for shape in SHAPES {
        let mut cells = Vec::new();
        let mut previous: Option<Duration> = None;
        for &n in &SIZES {
            let input = (shape.make)(n);
            let t = best_of(runs, &input);
            let cell = match previous {
                None => format!("{:.2} ms", t.as_secs_f64() * 1e3),
                Some(p) => format!(
                    "{:.2} ms ({:.1}x)",
                    t.as_secs_f64() * 1e3,
                    t.as_secs_f64() / p.as_secs_f64()
                ),
            };
            cells.push(cell);
            previous = Some(t);
        }
        println!(
            "{:<32} {:>12} {:>20} {:>20}",
            shape.name, cells[0], cells[1], cells[2]
        );
    }
}
