//! Hostile input shapes, each parsed (and for some serialized, queried and dropped) at 1x, 2x,
//! 4x and 8x size. Prints the time of each and the growth factor per doubling: a linear cost
//! doubles (2.0x); anything well above means a super-linear path.
//!
//! `cargo bench --bench worst_case [-- FILTER]`

use std::hint::black_box;
use std::time::{Duration, Instant};

use html_arena::{Document, ParseOptions, Selector};

/// A shape: a name, the size of its 8x run, and a generator.
struct Shape {
    name: &'static str,
    largest: usize,
    make: fn(usize) -> String,
}

fn rep(s: &str, n: usize) -> String {
    s.repeat(n)
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape {
            name: "nested <div>",
            largest: 1_000_000,
            make: |n| rep("<div>", n),
        },
        Shape {
            name: "nested <div> then </div>",
            largest: 1_000_000,
            make: |n| rep("<div>", n) + &rep("</div>", n),
        },
        Shape {
            name: "misnested <b><i></b></i>",
            largest: 100_000,
            make: |n| rep("<b><i></b></i>", n),
        },
        Shape {
            name: "<a> runs (adoption agency)",
            largest: 100_000,
            make: |n| rep("<a>x", n),
        },
        Shape {
            name: "<b><p>x</b>y</p>",
            largest: 100_000,
            make: |n| rep("<b><p>x</b>y</p>", n),
        },
        Shape {
            name: "<b>, n <div>, n </b>",
            largest: 100_000,
            make: |n| "<b>".to_owned() + &rep("<div>", n) + &rep("</b>", n),
        },
        Shape {
            name: "n <div>, n <b><p>x</b></p>",
            largest: 100_000,
            make: |n| rep("<div>", n) + &rep("<b><p>x</b></p>", n),
        },
        Shape {
            name: "<b>, n (<span><div>), n </b>",
            largest: 100_000,
            make: |n| "<b>".to_owned() + &rep("<span><div>", n) + &rep("</b>", n),
        },
        Shape {
            name: "<p>, n <b id=k>, n </p><p>x (amplification)",
            largest: 100_000,
            make: |n| {
                let mut s = String::from("<p>");
                for i in 0..n {
                    s.push_str(&format!("<b id={i}>"));
                }
                s + &rep("</p><p>x", n)
            },
        },
        Shape {
            name: "n <b id=k> (Noah's Ark, distinct)",
            largest: 100_000,
            make: |n| (0..n).map(|i| format!("<b id={i}>")).collect(),
        },
        Shape {
            name: "n <b> (Noah's Ark, same)",
            largest: 1_000_000,
            make: |n| rep("<b>", n),
        },
        Shape {
            name: "unclosed <table><tr><td>",
            largest: 100_000,
            make: |n| rep("<table><tr><td>", n),
        },
        Shape {
            name: "<table> + n (x<!---->) foster text",
            largest: 1_000_000,
            make: |n| "<table>".to_owned() + &rep("x<!---->", n),
        },
        Shape {
            name: "<table> + n x<b> foster elements",
            largest: 100_000,
            make: |n| "<table>".to_owned() + &rep("x<b>", n),
        },
        Shape {
            name: "1 tag with n attributes",
            largest: 1_000_000,
            make: |n| {
                let mut s = String::from("<div");
                for i in 0..n {
                    s.push_str(&format!(" a{i}"));
                }
                s + ">"
            },
        },
        Shape {
            name: "n <body a{i}> attribute merges",
            largest: 100_000,
            make: |n| (0..n).map(|i| format!("<body a{i}>")).collect(),
        },
        Shape {
            name: "flood of <",
            largest: 4_000_000,
            make: |n| rep("<", n),
        },
        Shape {
            name: "flood of &",
            largest: 4_000_000,
            make: |n| rep("&", n),
        },
        Shape {
            name: "flood of &amp (no ;)",
            largest: 1_000_000,
            make: |n| rep("&amp", n),
        },
        Shape {
            name: "flood of NUL",
            largest: 4_000_000,
            make: |n| rep("\0", n),
        },
        Shape {
            name: "flood of </",
            largest: 2_000_000,
            make: |n| rep("</", n),
        },
        Shape {
            name: "one text of n &lt;",
            largest: 1_000_000,
            make: |n| "<p>".to_owned() + &rep("&lt;", n),
        },
        Shape {
            name: "n <div>, n </x>",
            largest: 1_000_000,
            make: |n| rep("<div>", n) + &rep("</x>", n),
        },
        Shape {
            name: "n <span>, n </ol> (scope misses)",
            largest: 1_000_000,
            make: |n| rep("<span>", n) + &rep("</ol>", n),
        },
        Shape {
            name: "deep <svg><g>",
            largest: 1_000_000,
            make: |n| "<svg>".to_owned() + &rep("<g>", n),
        },
        Shape {
            name: "n <select><option>",
            largest: 100_000,
            make: |n| rep("<select><option>x", n),
        },
        Shape {
            name: "<select><b><div> n <option> </b>",
            largest: 100_000,
            make: |n| "<select><b><div>".to_owned() + &rep("<option>x", n) + "</b>",
        },
        Shape {
            name: "<select>+selectedcontent n/4 <b><div> n <option> n/4 </b>",
            largest: 100_000,
            make: |n| {
                "<select><button><selectedcontent></selectedcontent></button>".to_owned()
                    + &rep("<b>", n / 4)
                    + "<div>"
                    + &rep("<option>x", n)
                    + &rep("</b>", n / 4)
            },
        },
        Shape {
            // Issue 28's note: one reconstructed `i` nests per repetition (stand-ins for
            // reconstructed elements keep the put-back walks short).
            name: "<select><option><selectedcontent> n <b><i><option>c</b>",
            largest: 80_000,
            make: |n| {
                "<select><option><selectedcontent>".to_owned() + &rep("<b><i><option>c</b>", n)
            },
        },
        Shape {
            // The same with the selectedcontent in a button: the first option's children,
            // as deep, are copied into it (the copy's context memo hashes ids with foldhash).
            name: "<select><button><selectedcontent></button><option> n <b><i><option>c</b>",
            largest: 80_000,
            make: |n| {
                "<select><button><selectedcontent></button><option>".to_owned()
                    + &rep("<b><i><option>c</b>", n)
            },
        },
        Shape {
            name: "<ul> n <li><div>",
            largest: 1_000_000,
            make: |n| "<ul>".to_owned() + &rep("<li><div>", n),
        },
        Shape {
            name: "n <template>",
            largest: 1_000_000,
            make: |n| rep("<template>", n),
        },
    ]
}

/// Best of several runs of `f` (seven for short runs, whose timings are the noisiest; three
/// past a quarter of a second).
fn time(mut f: impl FnMut()) -> Duration {
    let mut once = || {
        let t = Instant::now();
        f();
        t.elapsed()
    };
    let first = once();
    let runs = if first < Duration::from_millis(250) {
        6
    } else {
        2
    };
    (0..runs).map(|_| once()).fold(first, Duration::min)
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let options = ParseOptions::default();
    let selector = Selector::parse("div:has(span) b, p ~ p").expect("selector");
    println!(
        "{:<40} {:>10} {:>10} {:>10} {:>10}   growth per doubling (each step; overall)",
        "shape", "1x", "2x", "4x", "8x"
    );
    let mut worst: f64 = 0.0;
    let mut worst_overall: f64 = 0.0;
    for shape in shapes() {
        if filter.as_deref().is_some_and(|f| !shape.name.contains(f)) {
            continue;
        }
        let mut times = Vec::new();
        for k in [1, 2, 4, 8] {
            let input = (shape.make)(shape.largest / 8 * k);
            times.push(time(|| {
                let doc = Document::parse_with(black_box(&input), &options);
                black_box(doc.html().len());
                black_box(doc.root().rendered_text().len());
                black_box(doc.select(&selector).count());
                drop(doc);
            }));
        }
        let growth: Vec<f64> = times
            .windows(2)
            .map(|w| w[1].as_secs_f64() / w[0].as_secs_f64().max(1e-9))
            .collect();
        let max = growth.iter().copied().fold(0.0, f64::max);
        worst = worst.max(max);
        // The geometric mean of the three steps: (8x time / 1x time)^(1/3).
        let overall = (times[3].as_secs_f64() / times[0].as_secs_f64().max(1e-9)).cbrt();
        worst_overall = worst_overall.max(overall);
        println!(
            "{:<40} {:>10.1?} {:>10.1?} {:>10.1?} {:>10.1?}   {}; {overall:.2}x",
            shape.name,
            times[0],
            times[1],
            times[2],
            times[3],
            growth
                .iter()
                .map(|g| format!("{g:.2}x"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    println!(
        "worst growth per doubling: {worst:.2}x in one step, {worst_overall:.2}x overall (linear is 2.0x)"
    );
}
